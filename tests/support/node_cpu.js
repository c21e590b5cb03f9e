// node_cpu.js — a small JavaScript workload that `node --cpu-prof` profiles
// for the V8 tests (tests/interop/t_v8_export.sh, t_chrome_export.sh):
// recursion, sorting, allocation (garbage collection) and an idle stretch.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const sorted = (k) => Array.from({ length: k }, (_, i) => (i * 7919) % k).sort((a, b) => a - b);
function churn() { const a = []; for (let i = 0; i < 1e5; i++) a.push({ i, s: String(i) }); return a.length; }
for (let i = 0; i < 3; i++) { fib(22); sorted(30000); churn(); }
setTimeout(churn, 60); // an idle stretch
