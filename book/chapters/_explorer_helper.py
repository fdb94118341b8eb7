import contextlib
import io
import itertools
import os
import re

import ipywidgets as widgets
import matplotlib.pyplot
from IPython.display import display

EXPLORER_MIME = "application/vnd.book.explorer+json"


def explorer(draw, **controls):
    #ko| """draw(**설정)을 위젯으로 움직이는 탐색기. 컨트롤을 움직이면 고른 설정에서
    #ko| draw를 실행해 그 출력(그림은 SVG, print한 글)을 보여 주고, 한 번 계산한 설정은
    #ko| 기억해 둡니다. 책을 만들 때(BOOK_EXPLORER_STATES=all)는 컨트롤이 가질 수 있는
    #ko| 모든 설정을 미리 계산해 셀의 출력에 저장합니다. 커널이 없는 웹 페이지는
    #ko| 그 출력을 골라 보여 줍니다."""
    #en| """An explorer that moves draw(**setting) with widgets. Moving a control runs
    #en| draw at the chosen setting and shows its output (figures as SVG, printed text);
    #en| a setting computed once is remembered. When the book is built
    #en| (BOOK_EXPLORER_STATES=all), every setting the controls can take is computed
    #en| beforehand and stored in the cell's output, from which the web page, which has
    #en| no kernel, picks what it shows."""
    names = [name for name, c in controls.items() if not isinstance(c, widgets.fixed)]
    fixed = {name: c.value for name, c in controls.items()
             if isinstance(c, widgets.fixed)}
    spec = [_control(name, controls[name]) for name in names]
    states = {}

    def state(key):
        if key not in states:
            setting = {c["name"]: c["values"][int(i)]
                       for c, i in zip(spec, key.split(","), strict=True)}
            states[key] = _output(draw, {**setting, **fixed})
        return states[key]

    def chosen():
        return ",".join(str(c["values"].index(controls[c["name"]].value)) for c in spec)

    default = chosen()
    state(default)
    if os.environ.get("BOOK_EXPLORER_STATES") == "all":
        for combo in itertools.product(*(range(len(c["values"])) for c in spec)):
            state(",".join(map(str, combo)))
    out = widgets.Output()

    def show(change=None):
        shown = state(chosen())
        figures = tuple({"output_type": "display_data",
                         "data": {"image/svg+xml": svg},
                         "metadata": {}} for svg in shown["figures"])
        printed = {"output_type": "stream", "name": "stdout", "text": shown["text"]}
        out.outputs = figures + ((printed,) if shown["text"] else ())

    for name in names:
        controls[name].observe(show, names="value")
    show()
    live = widgets.VBox([controls[name] for name in names] + [out])
    first = states[default]
    fallback = "".join(f'<img src="data:image/svg+xml;charset=utf-8,{_quote(svg)}">'
                       for svg in first["figures"])
    fallback += f"<pre>{_escape(first['text'])}</pre>" if first["text"] else ""
    total = len(list(itertools.product(*(c["values"] for c in spec))))
    summary = f"explorer({draw.__name__}): {len(states)} of {total} settings computed"
    display({
        "text/plain": summary,
        "text/html": fallback,
        EXPLORER_MIME: {"function": draw.__name__, "controls": spec,
                        "default": default, "states": dict(states)},
        "application/vnd.jupyter.widget-view+json": {
            "version_major": 2, "version_minor": 0, "model_id": live.model_id},
    }, raw=True)


def _control(name, control):
    #ko: 컨트롤 하나가 가질 수 있는 값과 그 이름표(위젯이 보여 주는 글자 그대로)
    #en: the values one control can take and their labels (as the widget shows them)
    choices = (widgets.Dropdown, widgets.ToggleButtons, widgets.SelectionSlider)
    if isinstance(control, choices):
        values, labels = list(control._options_values), list(control._options_labels)
        kinds = {widgets.Dropdown: "select", widgets.ToggleButtons: "buttons"}
        kind = kinds.get(type(control), "range")
    elif isinstance(control, widgets.Checkbox):
        values, labels, kind = [False, True], ["False", "True"], "checkbox"
    elif isinstance(control, (widgets.IntSlider, widgets.FloatSlider)):
        count = round((control.max - control.min) / control.step) + 1
        values = [control.min + i * control.step for i in range(count)]
        fmt = "d" if isinstance(control, widgets.IntSlider) else control.readout_format
        labels = [format(v, fmt) for v in values]
        kind = "range"
    else:
        raise TypeError(
            f"explorer: {name}={type(control).__name__} is not supported; "
            "use Dropdown, ToggleButtons, SelectionSlider, Checkbox, "
            "IntSlider, FloatSlider or fixed")
    if control.value not in values:
        raise ValueError(
            f"explorer: {name} starts at {control.value!r}, "
            f"which is not one of its steps {values}")
    return {"name": name, "label": control.description or name, "kind": kind,
            "values": values, "labels": labels}


def _output(draw, setting):
    #ko: draw가 print한 글과 plt.show()로 보여 준 그림을 SVG로 모읍니다.
    #ko: 글자는 브라우저가 그리도록 글자로 둡니다
    #en: collect what draw prints and the figures it shows with plt.show(),
    #en: as SVG whose letters the browser draws
    figures, text, show = [], io.StringIO(), matplotlib.pyplot.show

    def capture(*args, **kwargs):
        for number in matplotlib.pyplot.get_fignums():
            buffer = io.StringIO()
            matplotlib.pyplot.figure(number).savefig(
                buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
            svg = buffer.getvalue()
            svg = svg[svg.index("<svg"):]
            svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
            #ko: 그 글꼴이 없는 브라우저는 기본 산세리프 글꼴로 그립니다
            #en: a browser that lacks the font falls back to its sans-serif one
            svg = re.sub(r"font-family: ('[^']+')(?=[;\"])",
                         r"font-family: \1, sans-serif", svg)
            svg = re.sub(r"\s*\n\s*", " ", svg)
            figures.append(re.sub(r">\s+<", "><", svg).strip())
            matplotlib.pyplot.close(number)

    matplotlib.pyplot.show = capture
    try:
        style = {"svg.hashsalt": "explorer", "svg.fonttype": "none"}
        with matplotlib.pyplot.rc_context(style), contextlib.redirect_stdout(text):
            draw(**setting)
            capture()
    finally:
        matplotlib.pyplot.show = show
    return {"figures": figures, "text": text.getvalue()}


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _quote(svg):
    return (svg.replace("%", "%25").replace("#", "%23")
            .replace('"', "%22").replace("\n", "%0A"))
