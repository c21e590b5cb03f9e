/* timecmd.c — run a command several times; print wall-time statistics and
 * peak memory (the children's ru_maxrss from wait4, the figure GNU time -v
 * reports as "Maximum resident set size").
 *
 *   timecmd [-n RUNS] [-w WARMUPS] [-t BUDGET_S] [-i STDIN] [-o STDOUT] [-e STDERR] -- CMD ARGS...
 *
 * Runs RUNS times (after WARMUPS untimed runs), but stops early once the
 * timed runs have used BUDGET_S seconds (at least one timed run always).
 * Prints one line:
 *   ok runs=N median=S min=S max=S q1=S q3=S rss_kb=K cpu=S cpu_min=S
 * (cpu = median user+system CPU seconds of the child, cpu_min the least of
 * the runs, the least disturbed by other jobs: separates a slow
 * command from a busy machine or an fsync wait)
 * or, when a run exits non-zero or dies:
 *   fail status=N
 * stdout goes to STDOUT (default /dev/null), stderr to STDERR (default
 * /dev/null); the driver reads the last stderr line as the failure reason.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Linear-interpolated quantile of sorted v[0..n). */
static double quant(const double *v, int n, double q) {
  double pos = q * (n - 1);
  int i = (int)pos;
  if (i + 1 >= n) return v[n - 1];
  return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static int run_once(char **cmd, const char *in, const char *out, const char *errf, double *secs,
                    double *cpu, long *rss_kb) {
  double t0 = now();
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fi = open(in, O_RDONLY), fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644),
        fe = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fi < 0 || fo < 0 || fe < 0) _exit(126);
    dup2(fi, 0);
    dup2(fo, 1);
    dup2(fe, 2);
    execvp(cmd[0], cmd);
    fprintf(stderr, "timecmd: cannot run %s\n", cmd[0]);
    _exit(127);
  }
  int st;
  struct rusage ru;
  if (wait4(pid, &st, 0, &ru) < 0) return -1;
  *secs = now() - t0;
  *cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
         1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  if (ru.ru_maxrss > *rss_kb) *rss_kb = ru.ru_maxrss;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int main(int argc, char **argv) {
  int runs = 5, warm = 1;
  double budget = 60;
  const char *in = "/dev/null", *out = "/dev/null", *errf = "/dev/null";
  int i = 1;
  for (; i < argc; i++) {
    if (!strcmp(argv[i], "--")) {
      i++;
      break;
    }
    if (i + 1 >= argc) break;
    if (!strcmp(argv[i], "-n")) runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-w")) warm = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-t")) budget = atof(argv[++i]);
    else if (!strcmp(argv[i], "-i")) in = argv[++i];
    else if (!strcmp(argv[i], "-o")) out = argv[++i];
    else if (!strcmp(argv[i], "-e")) errf = argv[++i];
    else break;
  }
  if (i >= argc || runs < 1) {
    fprintf(stderr, "usage: timecmd [-n RUNS] [-w WARMUPS] [-t BUDGET_S] [-i IN] [-o OUT] [-e ERR] -- CMD...\n");
    return 2;
  }
  char **cmd = argv + i;
  double *t = calloc((size_t)runs, sizeof *t), *cpu = calloc((size_t)runs, sizeof *cpu), spent = 0;
  long rss = 0;
  int n = 0, rc;
  for (int k = 0; k < warm; k++) {
    double s, cs;
    long r = 0;
    if ((rc = run_once(cmd, in, out, errf, &s, &cs, &r)) != 0) {
      printf("fail status=%d\n", rc);
      return 0;
    }
    if (s > budget / 2) break; /* a slow command: its warm-up is warm enough */
  }
  while (n < runs && (n == 0 || spent < budget)) {
    if ((rc = run_once(cmd, in, out, errf, &t[n], &cpu[n], &rss)) != 0) {
      printf("fail status=%d\n", rc);
      return 0;
    }
    spent += t[n++];
  }
  qsort(t, (size_t)n, sizeof *t, cmpd);
  qsort(cpu, (size_t)n, sizeof *cpu, cmpd);
  printf("ok runs=%d median=%.6f min=%.6f max=%.6f q1=%.6f q3=%.6f rss_kb=%ld cpu=%.6f cpu_min=%.6f\n", n,
         quant(t, n, 0.5), t[0], t[n - 1], quant(t, n, 0.25), quant(t, n, 0.75), rss,
         quant(cpu, n, 0.5), cpu[0]);
  free(t);
  free(cpu);
  return 0;
}
