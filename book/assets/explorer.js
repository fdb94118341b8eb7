// The book's explorers on the web page, where no kernel runs. Each explorer is an HTML block written by
// tools/site.py (explorer_html): controls named as in the notebook, and the output of the first setting.
// When a block comes within WITHIN of the screen, this loads the file of outputs that the notebook's
// Python computed for every setting of the controls (tools/site.py, explorer_outputs), enables the
// controls, and from then on shows, for the setting the reader picks, exactly that stored output:
// nothing is computed here, so the page shows what the notebook shows.
(function () {
  "use strict";
  if (window.bookExplorers) return; // each explorer's HTML names this script; run it once
  window.bookExplorers = true;
  var WITHIN = "1500px 0px";

  function controlsOf(box) {
    // one entry per control, in the notebook's order: how to read the index of its chosen value
    return [].map.call(box.querySelectorAll(".explorer-control"), function (c) {
      var input = c.querySelector("select, input");
      if (input.type === "radio") {
        return { inputs: c.querySelectorAll("input"), index: function () { return +c.querySelector("input:checked").value; } };
      }
      if (input.type === "checkbox") return { inputs: [input], index: function () { return input.checked ? 1 : 0; } };
      return { inputs: [input], index: function () { return +input.value; } };
    });
  }

  function show(box, data, controls) {
    var key = controls.map(function (c) { return c.index(); }).join(",");
    var state = data.states[key];
    if (!state) {
      console.error("explorer: no stored output for setting " + key + " in " + box.dataset.states);
      return;
    }
    controls.forEach(function (c, n) { // a slider's readout and spoken value: the value's label
      var input = c.inputs[0];
      if (input.type === "range") {
        var label = data.controls[n][+input.value];
        input.setAttribute("aria-valuetext", label);
        input.parentNode.querySelector("output").textContent = label;
      }
    });
    var figures = box.querySelector(".explorer-figures");
    var imgs = figures.querySelectorAll("img");
    state.figures.forEach(function (svg, i) {
      var img = imgs[i];
      if (!img) {
        img = document.createElement("img");
        img.alt = box.dataset.alt;
        figures.appendChild(img);
      }
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
    });
    for (var i = state.figures.length; i < imgs.length; i++) imgs[i].remove();
    box.querySelector(".explorer-text").textContent = state.text;
    box.dataset.shown = key;
  }

  // The states file is a script calling bookExplorerStates(name, data) (tools/site.py,
  // explorer_states_script): a script loads from a page opened as a file, where fetch() is refused.
  var waiting = {}; // file name -> the explorers waiting for it
  window.bookExplorerStates = function (name, data) {
    (waiting[name] || []).forEach(function (box) { ready(box, data); });
    delete waiting[name];
  };

  function ready(box, data) {
    var controls = controlsOf(box);
    controls.forEach(function (c) {
      [].forEach.call(c.inputs, function (input) {
        input.disabled = false;
        input.addEventListener(input.type === "range" ? "input" : "change", function () { show(box, data, controls); });
      });
    });
    // the page opens on the notebook's output for the controls' first values: that setting is shown
    box.dataset.shown = controls.map(function (c) { return c.index(); }).join(",");
    box.dataset.ready = "";
  }

  function start(box) {
    var src = box.dataset.states;
    var name = src.replace(/^.*\//, "");
    if (waiting[name]) { waiting[name].push(box); return; }
    waiting[name] = [box];
    var script = document.createElement("script");
    script.src = src;
    script.onerror = function () { console.error("explorer: could not load " + src); };
    document.head.appendChild(script);
  }

  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (e.isIntersecting) {
        observer.unobserve(e.target);
        start(e.target);
      }
    });
  }, { rootMargin: WITHIN });
  document.querySelectorAll(".book-explorer").forEach(function (box) { observer.observe(box); });
})();
