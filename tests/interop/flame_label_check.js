// Appended to a `pcol flame` SVG by t_flame_labels.sh and run by headless
// Chromium: every frame's label, as the browser draws it in the font it
// picked (getComputedTextLength), stays inside its frame, 3 px from each
// side (review 22 F7: 7 px a character let "WWWW" and "mmmm" run over the
// next frames): in the SVG as written (what a viewer without script shows),
// after zooming into frames (the script's re-layout) and back; and the
// re-layout of the unzoomed graph labels each frame as the file does (the
// script cuts by svg.c's rule).  The verdict goes into a text element with
// id "result" for --dump-dom.
window.addEventListener('load', function () {
  var gs = document.getElementById('frames').getElementsByTagName('g'), n = gs.length;
  var bad = 0, first = '', zooms = 0, labels = 0, cut = 0, differ = 0;
  function text(g) { var t = g.getElementsByTagName('text')[0]; return t ? t.textContent : ''; }
  function check(when) {
    for (var i = 0; i < n; i++) {
      var g = gs[i], t = g.getElementsByTagName('text')[0];
      if (g.style.display === 'none' || !t || !t.textContent) continue;
      var w = parseFloat(g.getElementsByTagName('rect')[0].getAttribute('width'));
      var len = t.getComputedTextLength();
      labels++;
      if (/\.\.$/.test(t.textContent)) cut++;
      if (len > w - 6 + 1e-3) {
        bad++;
        if (!first) first = when + ': "' + t.textContent + '" is ' + len.toFixed(2) + ' px in a frame of ' + w.toFixed(2);
      }
    }
  }
  var written = [];
  for (var i = 0; i < n; i++) written.push(text(gs[i]));
  check('as written');
  var step = Math.max(1, Math.floor(n / 80));
  for (var z = 1; z < n; z += step) {
    zoom(gs[z]);
    zooms++;
    check('zoomed into frame ' + z);
  }
  zoom(null);
  check('unzoomed');
  for (var i = 0; i < n; i++) {
    if (text(gs[i]) === written[i]) continue;
    differ++;
    if (!first) first = 'frame ' + i + ' re-laid out as "' + text(gs[i]) + '", written "' + written[i] + '"';
  }
  var out = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  out.setAttribute('id', 'result');
  out.textContent = 'frames=' + n + ' zooms=' + zooms + ' labels=' + labels + ' cut=' + cut + ' bad=' + bad +
                    ' differ=' + differ + ' first=' + first;
  document.documentElement.appendChild(out);
});
