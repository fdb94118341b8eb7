// Point the AMD ids of the widget bundle at this folder, so that webpack's public
// path (computed from requirejs' module.uri) and hence the FontAwesome fonts
// resolve to _static/vendor/html-manager/ instead of <page dir>/@jupyter-widgets/.
(function () {
  var base = document.currentScript.src.replace(/[^\/]*$/, "");
  require.config({
    paths: {
      "@jupyter-widgets/html-manager/dist": base.slice(0, -1),
      "@jupyter-widgets/html-manager": base + "html-manager",
    },
  });
})();
