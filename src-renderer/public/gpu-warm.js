// The page's first WebGL context costs the GPU process a one-time start (under software GL, a
// long wait on the UI thread inside MapLibre's constructor). A throwaway context in a worker,
// made while the bundle still loads and runs, pays it off the UI thread; the map's own context
// is then quick. A plain script, not the bundle: it runs as soon as the page is parsed, and its
// worker is a blob (nothing to fetch). The context is kept a while: given back at once, its
// teardown in the GPU process could delay the map's own first calls there.
(function () {
  if (typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function') return;
  var source =
    'try { var warmGl = new OffscreenCanvas(1, 1).getContext("webgl2");' +
    ' if (warmGl) warmGl.getParameter(warmGl.MAX_TEXTURE_SIZE); } catch (e) {}' +
    ' setTimeout(close, 30000);';
  try {
    new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  } catch (e) {
    // No warm start: the map pays it on its own, as before.
  }
})();
