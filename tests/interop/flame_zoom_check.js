// Appended to a `pcol flame` SVG by t_flame_zoom.sh and run by headless
// Chromium: clicks (calls zoom on) frames and checks what stays on screen,
// with the tree rebuilt independently of the zoom code — from document order
// (frames are drawn parents first, depth first) and each frame's depth:
//   - every ancestor of the clicked frame is shown, dimmed, at full width;
//   - the clicked frame and every descendant are shown, undimmed, inside
//     the drawing area, at their width scaled by the clicked frame's;
//   - every other frame is hidden.
// The verdict goes into a text element with id "result" for --dump-dom.
window.addEventListener('load', function () {
  var gs = document.getElementById('frames').getElementsByTagName('g');
  var n = gs.length, parent = [], depth = [], stack = [], ow = [];
  for (var i = 0; i < n; i++) {
    depth[i] = parseInt(gs[i].getAttribute('data-d'), 10);
    ow[i] = parseFloat(gs[i].getAttribute('data-w')); // fraction of the whole width
    while (stack.length && depth[stack[stack.length - 1]] >= depth[i]) stack.pop();
    parent[i] = stack.length ? stack[stack.length - 1] : -1;
    stack.push(i);
  }
  function under(a, z) { // a is z or a descendant of z
    for (var k = a; k >= 0; k = parent[k]) if (k === z) return true;
    return false;
  }
  var limit = MAXCLICKS, step = Math.max(1, Math.floor(n / limit)), checked = 0, bad = 0, first = '';
  for (var z = 0; z < n; z += step) {
    zoom(gs[z]);
    checked++;
    for (var i = 0; i < n; i++) {
      var g = gs[i], r = g.getElementsByTagName('rect')[0];
      var shown = g.style.display !== 'none', dim = g.style.opacity === '0.5';
      var x = parseFloat(r.getAttribute('x')), w = parseFloat(r.getAttribute('width'));
      var why = '';
      if (i !== z && under(z, i)) {
        if (!shown || !dim || Math.abs(w - SPAN) > 1e-6) why = 'ancestor not shown dimmed at full width';
      } else if (under(i, z)) {
        var want = ow[i] / ow[z] * SPAN;
        if (!shown || dim) why = 'descendant hidden or dimmed';
        else if (Math.abs(w - want) > 1e-6 * SPAN || x < PAD - 1e-6 || x + w > PAD + SPAN + 1e-3 * SPAN)
          why = 'descendant misplaced (x ' + x + ', w ' + w + ', want w ' + want + ')';
      } else if (shown) {
        why = 'unrelated frame shown';
      }
      if (why) {
        bad++;
        if (!first) first = 'click ' + gs[z].firstChild.textContent + ' @' + z + ' -> ' +
                            gs[i].firstChild.textContent + ' @' + i + ': ' + why;
      }
    }
  }
  zoom(null);
  var out = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  out.setAttribute('id', 'result');
  out.textContent = 'frames=' + n + ' clicks=' + checked + ' bad=' + bad + ' first=' + first;
  document.documentElement.appendChild(out);
});
