// Fixes for the saved ipywidgets that @jupyter-widgets/html-manager (1.0.15, the newest) draws on a
// page, loaded by widgets-loader.js just before the manager, on pages with widgets (tools/site.py, offline_assets).
(function () {
  "use strict";

  // 1. MathJax. The widget controls typeset a description with the MathJax 2 API,
  //    MathJax.Hub.Queue(["Typeset", MathJax.Hub, node]), whenever window.MathJax exists. The site
  //    serves MathJax 3, which has no Hub: each widget with a description threw a TypeError when
  //    MathJax had loaded before the widgets were drawn (a race). This gives window.MathJax, and every
  //    object that becomes window.MathJax later (MathJax 3 replaces its configuration object when it
  //    loads), the one Hub call the widgets make, mapped onto MathJax 3's typesetPromise.
  var hub = {
    Queue: function (call) {
      var node = call && call[2];
      var mathjax = window.MathJax;
      if (node && mathjax && mathjax.startup && mathjax.startup.promise) {
        mathjax.startup.promise.then(function () { return mathjax.typesetPromise([node]); });
      }
    },
  };
  var current;
  function withHub(value) {
    if (value && typeof value === "object" && !value.Hub) value.Hub = hub;
    return value;
  }
  current = withHub(window.MathJax);
  Object.defineProperty(window, "MathJax", {
    configurable: true,
    enumerable: true,
    get: function () { return current; },
    set: function (value) { current = withHub(value); },
  });

  // 2. Accessibility. A slider's handle (noUiSlider, role="slider") has no accessible name: the
  //    widget's description <label> cannot point at a <div>. Name the handle by that label.
  var serial = 0;
  function nameSliders() {
    document.querySelectorAll(".widget-slider").forEach(function (box) {
      var label = box.querySelector(":scope > label.widget-label");
      if (!label || !label.textContent.trim()) return;
      if (!label.id) label.id = "widget-label-" + ++serial;
      box.querySelectorAll('[role="slider"]:not([aria-labelledby])').forEach(function (handle) {
        handle.setAttribute("aria-labelledby", label.id);
      });
    });
  }

  // 3. Accessibility. An Output widget's figure is drawn as an <img> without alt. The cell's alt text
  //    (notebook metadata mystnb.image.alt) is on its widget-view script as data-alt, put there by
  //    book/_ext/book_a11y.py; give it to every image drawn for that view (the manager puts the view
  //    in the script's parent, just before the script).
  function describeFigures() {
    document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"][data-alt]').forEach(function (view) {
      view.parentElement.querySelectorAll('img:not([alt]), img[alt=""]').forEach(function (img) {
        img.setAttribute("alt", view.dataset.alt);
      });
    });
  }

  // The widgets are drawn asynchronously. This observes only added nodes, so the attributes it sets
  // do not wake it again.
  new MutationObserver(function () {
    nameSliders();
    describeFigures();
  }).observe(document.documentElement, { childList: true, subtree: true });
})();
