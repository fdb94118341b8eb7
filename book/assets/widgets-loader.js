// Loads the saved widgets' machinery only when a reader comes near a widget. The widget manager is a
// 3.6 MB script (about 4 s of a phone's main thread); loaded with every chapter page, it delayed the
// first paint of the text, which needs none of it. This script is the only one a page with widgets
// names (tools/site.py, offline_assets); when a widget view comes within WITHIN of the screen it adds,
// in order: RequireJS, require-config.js, fixes.js and the manager (embed-amd.js), which then draws
// every saved widget of the page. A page without widgets loads nothing more.
(function () {
  "use strict";
  var WITHIN = "1500px 0px"; // start early enough that the widget is drawn by the time it is seen
  var me = document.currentScript;
  var here = me.src.replace(/[^\/]*$/, "");
  var chain = [
    here + "../require/require.js",
    here + "require-config.js",
    here + "fixes.js",
    here + "embed-amd.js",
  ];
  var views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
  if (!views.length) return;

  var started = false;
  function start() {
    if (started) return;
    started = true;
    observer.disconnect();
    (function add(i) {
      if (i === chain.length) return;
      var script = document.createElement("script");
      script.src = chain[i];
      if (i === chain.length - 1) {
        // where the manager would fetch widget modules it lacks: a folder that does not exist
        script.setAttribute("data-jupyter-widgets-cdn", me.getAttribute("data-jupyter-widgets-cdn"));
      }
      script.onload = function () { add(i + 1); };
      script.onerror = function () { console.error("widgets: could not load " + chain[i]); };
      document.head.appendChild(script);
    })(0);
  }

  var observer = new IntersectionObserver(function (entries) {
    if (entries.some(function (e) { return e.isIntersecting; })) start();
  }, { rootMargin: WITHIN });
  views.forEach(function (view) { observer.observe(view.parentElement); });
})();
