// Appended to a `pcol flame` SVG by t_flame_zoom.sh and run by headless
// Chromium: searches the frames for each regular expression of REGEXES,
// through search() and through the keyboard (Ctrl-F with window.prompt
// answered, Escape to reset), and checks with the tree rebuilt from document
// order and depths, independently of the page's code:
//   - exactly the frames whose name matches are filled MATCH_FILL, the
//     others keep their colour, and a reset gives every colour back;
//   - a bad expression (Go's syntax) gives -1 and "bad regular expression";
//   - "Matched: N%" is the share of SEARCH_TOTAL (pprof's total, the sum
//     of |value| before filters, as `pcol top --format json` says it: the
//     base of the hover's shares) under the matched frames that have no
//     matched ancestor; not of the root's value, which a --focus or --tag
//     makes the filtered total (review 15 F1).
// Writes "RE=PCT;..." (the shares) and the problems found into a text
// element with id "result" for --dump-dom.
window.addEventListener('load', function () {
  var res = REGEXES;
  var gs = document.getElementById('frames').getElementsByTagName('g');
  var n = gs.length, parent = [], depth = [], stack = [], fill0 = [];
  for (var i = 0; i < n; i++) {
    depth[i] = parseInt(gs[i].getAttribute('data-d'), 10);
    fill0[i] = gs[i].getElementsByTagName('rect')[0].getAttribute('fill');
    while (stack.length && depth[stack[stack.length - 1]] >= depth[i]) stack.pop();
    parent[i] = stack.length ? stack[stack.length - 1] : -1;
    stack.push(i);
  }
  // a frame's name, read here from the file's markup: data-name where the
  // name shown is not the name (an ESC shown as \x1b), else the title's
  // text between FSI and PDI (review 22 F11: each name once)
  function nameOf(g) {
    if (g.hasAttribute('data-name')) return g.getAttribute('data-name');
    var ti = g.getElementsByTagName('title')[0].textContent;
    return ti.slice(1, ti.indexOf('\u2069'));
  }
  var total = SEARCH_TOTAL, bad = 0, first = '', shares = [];
  function problem(s) { bad++; if (!first) first = s; }
  // the hover's share has the same base: the root's is its value of that total
  var rootInfo = gs[0].getElementsByTagName('title')[0].textContent, rootWant = (100 * parseFloat(gs[0].getAttribute('data-v')) / total).toFixed(2);
  if (rootInfo.slice(-(rootWant.length + 2)) !== rootWant + '%)') problem('the root\'s hover "' + rootInfo + '", not ' + rootWant + '% of ' + total);
  function matchedText() { return document.getElementById('matched').textContent; }
  function check(re, pct, how) {
    // Go's syntax (RE2), as the CLI's options and the report read it (review 22 F1):
    // the page's converter (regex.js), the share itself is checked against go tool pprof
    var rx = pcolGoRegExp(re), m = [], sum = 0;
    for (var i = 0; i < n; i++) m[i] = i > 0 && rx.test(nameOf(gs[i]));
    for (var i = 0; i < n; i++) {
      var under = false;
      for (var k = parent[i]; k >= 0; k = parent[k]) if (m[k]) under = true;
      if (m[i] && !under) sum += parseFloat(gs[i].getAttribute('data-v'));
      var f = gs[i].getElementsByTagName('rect')[0].getAttribute('fill');
      if (m[i] ? f !== MATCH_FILL : f !== fill0[i])
        problem(how + ' ' + re + ': frame ' + nameOf(gs[i]) + ' @' + i + ' fill ' + f);
    }
    var want = 100 * sum / total;
    if (pct !== null && Math.abs(pct - want) > 1e-9 * Math.max(1, want)) problem(how + ' ' + re + ': share ' + pct + ', want ' + want);
    if (matchedText() !== 'Matched: ' + want.toFixed(2) + '%') problem(how + ' ' + re + ': text "' + matchedText() + '"');
    return want;
  }
  function checkReset(how) {
    for (var i = 0; i < n; i++)
      if (gs[i].getElementsByTagName('rect')[0].getAttribute('fill') !== fill0[i]) { problem(how + ': colour not restored @' + i); break; }
    if (matchedText().trim() !== '') problem(how + ': "' + matchedText() + '" left');
  }
  for (var j = 0; j < res.length; j++) {
    var pct = search(res[j]);
    shares.push(res[j] + '=' + check(res[j], pct, 'search()').toFixed(4));
    search(null);
    checkReset('search(null)');
    // the keyboard: Ctrl-F asks (prompt answered here), Escape resets
    window.prompt = function () { return res[j]; };
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'f', ctrlKey: true }));
    check(res[j], null, 'Ctrl-F'); // the text says the share
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    checkReset('Escape');
  }
  // a bad expression (Go refuses it; JavaScript's RegExp would not): -1 and said
  var before = search('a{2,1}');
  if (before !== -1) problem('search of a bad expression returned ' + before);
  if (!/^bad regular expression/.test(matchedText())) problem('bad expression: text "' + matchedText() + '"');
  search(null);
  var out = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  out.setAttribute('id', 'result');
  out.textContent = 'frames=' + n + ' bad=' + bad + ' shares=' + shares.join(';') + ' first=' + first;
  document.documentElement.appendChild(out);
});
