"""Colab-faithful test of the full notebooks (notebooks/en/; the Korean ones are covered as said below): Runtime ->
Run all completes on Colab's versions, and every cell shows the output the stored notebook shows. How a notebook is run: colab_harness.py.
The student notebooks are in test_colab_student.py, a module of their own, so that pytest-xdist's
--dist loadfile (pytest.ini: one module goes to one worker) runs the two halves on its two workers at once.
Below them, tests of the harness itself."""

from __future__ import annotations

import nbformat
import pytest
from colab_harness import COLAB_VENV, ROOT, check_runs_all, output_differences, reader_notebooks, run_all

from tools.notebooks import numeric_settings


# The English full notebooks only: a Korean full notebook holds the same code and outputs as its English twin
# (tests/test_parity.py), and its Korean cells (set-up, figure labels, comments) run on Colab's versions in the
# Korean student notebook (test_colab_student.py), which differs from it only in the exercises' answer cells.
# Running it again cost about 8 s of a worker per chapter (72 s for nine chapters) and caught nothing more.
# So each language runs on Colab's versions once: English as full notebooks here, Korean as student notebooks.
@pytest.mark.parametrize("path", [p for p in reader_notebooks("notebooks") if p.parent.name == "en"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_run_all_completes_in_colab_with_the_stored_outputs(path):
    check_runs_all(path, compare_outputs=True)


def test_every_notebook_a_reader_opens_is_found():
    found = {p.relative_to(ROOT).parts[:2] for p in reader_notebooks("notebooks") + reader_notebooks("student")}
    assert found == {(folder, lang) for folder in ("notebooks", "student") for lang in ("ko", "en")}
    assert len(reader_notebooks("notebooks")) == len(reader_notebooks("student")) >= 14


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
