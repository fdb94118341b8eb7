"""Tests of the Colab harness itself (colab_harness.py): the kernel starts as Colab's does, Run all stops at the
first error and names it, outputs are compared as a reader reads them, and the one run per chapter
(test_colab_ko.py, test_colab_en.py) covers every chapter and both languages."""

from __future__ import annotations

import nbformat
import pytest
from colab_harness import (
    COLAB_VENV,
    ROOT,
    check_runs_all,
    colab_language,
    full_counterparts,
    output_differences,
    reader_notebooks,
    run_all,
)
from conftest import chapter_stems

from tools.notebooks import numeric_settings


def test_every_notebook_a_reader_opens_is_found():
    found = {p.relative_to(ROOT).parts[:2] for p in reader_notebooks("notebooks") + reader_notebooks("student")}
    assert found == {(folder, lang) for folder in ("notebooks", "student") for lang in ("ko", "en")}
    assert len(reader_notebooks("notebooks")) == len(reader_notebooks("student")) >= 14


def test_every_chapter_runs_once_and_both_languages_run():
    stems = chapter_stems()
    languages = [colab_language(s) for s in stems]
    assert len(stems) >= 7 and set(languages) == {"ko", "en"}
    assert min(languages.count("ko"), languages.count("en")) >= len(stems) // 2


# --- the harness itself ------------------------------------------------------------------------------------

def notebook(tmp_path, *sources: str, tags: dict[int, list[str]] | None = None):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for index, source in enumerate(sources):
        cell = nbformat.v4.new_code_cell(source, id=f"cell-{index}")
        cell.metadata["tags"] = (tags or {}).get(index, [])
        nb.cells.append(cell)
    path = tmp_path / "probe.ipynb"
    nbformat.write(nb, path)
    return path


def test_harness_kernel_starts_as_in_colab(tmp_path):
    path = notebook(
        tmp_path,
        'import sys, os\nprint("google.colab" in sys.modules, sys.executable)',
        "import IPython, ipykernel, ipywidgets, numpy, matplotlib\n"
        "print(IPython.__version__, ipykernel.__version__, ipywidgets.__version__, numpy.__version__, matplotlib.__version__)",
        "print(sorted(os.listdir('.')))",
        "print(os.environ.get('BOOK_EXPLORER_STATES'), os.environ.get('ATEN_CPU_CAPABILITY'))",
        "!pip --version",
        "import matplotlib.pyplot as plt\nprint(plt.get_backend())",
    )
    ran, stop = run_all(path)
    assert stop is None, stop
    out = ["".join(o.get("text", "") for o in cell.outputs) for cell in ran.cells]
    assert out[0] == f"True {COLAB_VENV / 'bin' / 'python'}\n"
    pins = dict(line.split("==") for line in (ROOT / "requirements-colab.txt").read_text().splitlines()
                if "==" in line and not line.startswith("#"))
    assert out[1].split() == [pins[n] for n in ("ipython", "ipykernel", "ipywidgets", "numpy", "matplotlib")]
    assert out[2] == "['probe.ipynb']\n"  # the notebook alone in an empty folder
    # as in Colab, explorers compute their default setting only; float kernels other than nbval's
    assert out[3] == f"None {numeric_settings()['narrower']['ATEN_CPU_CAPABILITY']}\n"
    assert str(COLAB_VENV) in out[4]  # `!pip` is the Colab venv's pip
    assert out[5] == "module://matplotlib_inline.backend_inline\n"


def test_harness_stops_at_the_first_error_and_names_the_cell(tmp_path):
    shown = "try:\n    (1).view(2)\nexcept AttributeError:\n    get_ipython().showtraceback()"
    path = notebook(tmp_path, "x = 1", shown, "\n# a deliberate error\nx.view(2, 3)", "print('never runs')",
                    tags={2: ["raises-exception"]})  # Colab ignores the tag
    ran, stop = run_all(path)
    # an error shown by a cell that handles it (an error output, an ok reply) does not stop Run all
    assert [o.output_type for o in ran.cells[1].outputs] == ["error"] and ran.cells[1].outputs[0].ename == "AttributeError"
    assert (stop.cell_id, stop.first_line, stop.ename, stop.number, stop.of) == (
        "cell-2", "# a deliberate error", "AttributeError", 3, 4)
    assert "'int' object has no attribute 'view'" in stop.evalue
    assert ran.cells[3].execution_count is None and ran.cells[3].outputs == []
    with pytest.raises(AssertionError) as failure:
        check_runs_all(path, compare_outputs=False)
    message = str(failure.value)
    for part in ("probe.ipynb", "cell-2, code cell 3 of 4", "'# a deliberate error'", "AttributeError: 'int' object has no attribute",
                 "In Colab the notebook stops there"):
        assert part in message, message


def test_harness_compares_text_outputs(tmp_path):
    stored = nbformat.v4.new_notebook()
    stored.cells = [nbformat.v4.new_code_cell("print(x)", id="a"), nbformat.v4.new_code_cell("w", id="b"),
                    nbformat.v4.new_code_cell("f", id="c")]
    stored.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n"),
                               nbformat.v4.new_output("stream", name="stdout", text="<object at 0x7f00aa>\n")]
    stored.cells[1].outputs = [nbformat.v4.new_output("display_data", data={
        "text/plain": "interactive(children=(IntSlider(value=1),))",
        "application/vnd.jupyter.widget-view+json": {"model_id": "x"}})]
    stored.cells[2].outputs = [nbformat.v4.new_output("error", ename="RuntimeError", evalue="shape '[2]' is invalid")]
    ran = nbformat.from_dict(nbformat.v4.new_notebook())
    ran.cells = [nbformat.from_dict(c) for c in nbformat.from_dict(stored).cells]
    for cell in ran.cells:
        cell.execution_count = 1
    # the same text in two pieces, another memory address, a coloured error value: no difference
    ran.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n<object at 0x55aa>\n")]
    ran.cells[2].outputs[0].evalue = "\x1b[0;31mshape '[2]' is invalid\x1b[0m"
    assert output_differences(stored, ran) == []
    ran.cells[0].outputs[0].text = "2\n<object at 0x55aa>\n"
    ran.cells[1].outputs[0].data["text/plain"] = "interactive(children=(IntSlider(value=1, max=3),))"
    ran.cells[2].outputs[0].evalue = "shape '[3]' is invalid"
    found = output_differences(stored, ran)
    assert len(found) == 3 and "cell a ('print(x)')" in found[0] and "-1" in found[0] and "+2" in found[0], found
    assert "+interactive(children=(IntSlider(value=1, max=3),))" in found[1], found
    assert "-RuntimeError: shape '[2]' is invalid" in found[2] and "+RuntimeError: shape '[3]'" in found[2], found


def test_the_full_notebook_is_matched_cell_by_cell_with_the_student_run():
    def cell(source, tags=(), text=None, cell_id=None):
        made = nbformat.v4.new_code_cell(source, id=cell_id or f"x{abs(hash(source)) % 10**8}")
        made.metadata["tags"] = list(tags)
        made.execution_count = 1
        if text is not None:
            made.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
        return made

    full = nbformat.v4.new_notebook()
    full.cells = [cell("a = 1", cell_id="f1"), cell("print(a)", text="1\n", cell_id="f2"),
                  cell("answer = 2", ["exercise-solution"], cell_id="f3"),
                  cell("check(answer)", ["exercise-check"], text="✅ correct!\n", cell_id="f4"),
                  cell("print('end')", text="end\n", cell_id="f5")]
    ran = nbformat.v4.new_notebook()  # the student notebook's run: other ids, a template, the solution after it
    ran.cells = [cell("a = 1", cell_id="s1"), cell("print(a)", text="1\n", cell_id="s2"),
                 cell("answer = ...", ["exercise-student"], cell_id="s3"),
                 cell("check(answer)", ["exercise-check"], text="❌ not yet\n", cell_id="s4"),
                 cell("print('end')", text="end\n", cell_id="s5"),
                 cell("answer = 2", cell_id="then-0"), cell("check(answer)", text="✅ correct!\n", cell_id="then-1")]
    pairs = full_counterparts(full, ran)
    assert [(want.id, got.id) for want, got in pairs] == [
        ("f1", "s1"), ("f2", "s2"), ("f3", "then-0"), ("f4", "then-1"), ("f5", "s5")]
    stored = nbformat.from_dict({**full, "cells": [w for w, _ in pairs]})
    compared = nbformat.from_dict({**ran, "cells": [nbformat.from_dict({**g, "id": w.id}) for w, g in pairs]})
    assert output_differences(stored, compared) == []
    ran.cells[6].outputs[0].text = "❌ not yet\n"  # a solution that fails its check in Colab is reported
    compared = nbformat.from_dict({**ran, "cells": [nbformat.from_dict({**g, "id": w.id}) for w, g in pairs]})
    assert len(output_differences(stored, compared)) == 1 and "cell f4" in output_differences(stored, compared)[0]
    ran.cells.pop(4)  # a cell of the full notebook the run does not have
    with pytest.raises(AssertionError, match="f5"):
        full_counterparts(full, ran)
