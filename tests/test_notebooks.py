"""The committed notebooks: generated from their sources, reproducible to the byte, honest to nbval,
and ready for Colab."""

from __future__ import annotations

import filecmp
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from conftest import EXECUTION_REPORT, LANGS, ROOT, chapter_stems, code_tokens, figure_alt, load

from tools.notebooks import check

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
IGNORED_LIST = ROOT / "tests" / "nbval-ignored.txt"


def test_committed_notebooks_match_their_sources():
    assert check() == []


def test_every_chapter_in_the_toc_and_every_toc_chapter_has_a_source():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    for stem in chapter_stems():
        assert f"file: {stem}\n" in toc, f"chapter {stem} is not in _toc.yml: add '- file: {stem}'"


PERTURB_ULPS = 1


def test_re_executing_gives_byte_identical_notebooks(tmp_path):
    """Runs the executor over every chapter and compares with the committed files, byte for byte.
    This is the 'out of date' check for outputs, and the proof that execution is deterministic.

    It runs on another machine, as far as float rounding goes: under tools.notebooks.numeric_settings()
    ["scalar"] (PyTorch's kernels without vector instructions, whose torch.randn draws other last bits
    than AVX2's; MKL's compatible path; one thread), and with every kernel-chosen result moved by
    PERTURB_ULPS unit in the last place (tools/perturb/sitecustomize.py). nbval runs the same notebooks
    under this machine's default kernels: every stored output, figures and explorer states included,
    must be a function of the book's code alone, not of the rounding of the machine that ran it.

    Chapter 7 runs without the perturbing mode (tools.notebooks.NOT_PERTURBED says why).

    It runs the English notebooks: the Korean ones hold the same code and the same outputs (tests/test_parity.py),
    their cells are their source's (test_committed_notebooks_match_their_sources, above), and nbval executes
    them too; running them again here cost a minute of both cores of `make test` and proved nothing more.

    The one exception: an error's traceback may differ in its frames (the perturbing mode adds its own
    and torch's dispatch frames to any error raised inside a torch function); its type and message must
    be the same, which is what nbval compares too."""
    import os

    from tools.notebooks import numeric_settings

    setting = numeric_settings()["scalar"]
    env = {**os.environ, **setting}
    result = subprocess.run([sys.executable, "-m", "tools.notebooks", "execute", "--jobs", "2", "--out", str(tmp_path),
                             "--lang", "en", "--perturb", str(PERTURB_ULPS)],
                            cwd=ROOT, capture_output=True, text=True, timeout=900, env=env)
    assert result.returncode == 0, result.stderr
    EXECUTION_REPORT.parent.mkdir(exist_ok=True)
    EXECUTION_REPORT.write_text(result.stdout, encoding="utf-8")  # shown in the test run's summary
    shown = " ".join(f"{k}={v}" for k, v in setting.items())
    for stem in chapter_stems():
        for lang in ["en"]:
            committed = ROOT / "notebooks" / lang / f"{stem}.ipynb"
            fresh = tmp_path / lang / f"{stem}.ipynb"
            if filecmp.cmp(committed, fresh, shallow=False):
                continue
            differing = cells_that_differ(committed, fresh)
            assert not differing, (
                f"{committed.relative_to(ROOT)} differs from a fresh execution with other float kernels ({shown}, "
                f"results moved by {PERTURB_ULPS} ulp) in cells {differing}: run 'make execute CHAPTER={stem[:2]}' "
                "and commit if its source changed; otherwise these outputs depend on float rounding "
                "(CONTRIBUTING.md: 'Outputs that hold on any machine')")


def cells_that_differ(committed: Path, fresh: Path) -> list[str]:
    """Ids of the cells whose outputs differ, errors compared by type and message (not traceback frames);
    the notebook's metadata (widget states) counts as a cell named 'metadata'."""
    def outputs(path: Path) -> tuple[dict, str]:
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    out["traceback"] = []
        return ({c["id"]: json.dumps(c, sort_keys=True) for c in nb["cells"]},
                json.dumps(nb["metadata"], sort_keys=True))

    (want, want_meta), (got, got_meta) = outputs(committed), outputs(fresh)
    found = [cell_id for cell_id in want if want[cell_id] != got.get(cell_id)]
    return found + (["metadata"] if want_meta != got_meta else [])


def ignored_cells() -> list[str]:
    found = []
    for stem in chapter_stems():
        for lang in LANGS:
            for cell in load(stem, lang).cells:
                if "nbval-ignore-output" in cell.metadata.get("tags", []):
                    found.append(f"{lang}/{stem} {cell.id}")
    return found


def test_nbval_ignores_only_the_cells_listed_in_one_place():
    listed = [line.split("#")[0].strip() for line in IGNORED_LIST.read_text(encoding="utf-8").splitlines()]
    listed = [line for line in listed if line]
    assert ignored_cells() == listed, (
        f"cells whose output nbval ignores differ from {IGNORED_LIST.relative_to(ROOT)}; "
        "update that list only for cells that merely wire a widget")


@pytest.mark.parametrize("stem", chapter_stems())
def test_ignored_cells_only_wire_a_widget_and_nothing_is_skipped(stem):
    for lang in LANGS:
        nb = load(stem, lang)
        for cell in nb.cells:
            tags = cell.metadata.get("tags", [])
            assert "nbval-skip" not in tags and "skip-execution" not in tags, f"{stem} {cell.id}: a skipped cell"
            if "nbval-ignore-output" in tags:
                kinds = [o.output_type for o in cell.outputs]
                assert kinds == ["display_data"] and WIDGET_VIEW in cell.outputs[0].data, (
                    f"{stem} ({lang}) {cell.id}: an ignored cell must show one widget and nothing else")
                assert "interact" in cell.source, f"{stem} ({lang}) {cell.id}: an ignored cell must wire a widget"
            if cell.cell_type != "code":
                continue
            errors = [o for o in cell.outputs if o.output_type == "error"]
            expects = bool(re.search(r"^\s*with expect_error\(", cell.source, re.M))
            # the tag tells nbval to compare the error the cell shows; Colab ignores it (expect_error keeps
            # Run all going), so it may stand only where expect_error does
            assert ("raises-exception" in tags) == expects, f"{stem} ({lang}) {cell.id}: tags {tags}"
            if expects:
                assert len(errors) == 1, f"{stem} ({lang}) {cell.id}: expects an error but shows {len(errors)}"
            else:
                assert not errors, f"{stem} ({lang}) {cell.id}: unexpected error"


EXPLORER_MIME = "application/vnd.book.explorer+json"


@pytest.mark.parametrize("stem", chapter_stems())
def test_explorers_store_every_setting_and_are_checked(stem):
    """A cell that calls explorer() shows one output: the live widget view and, checked by nbval like any
    output, the output of every setting of its controls (what the web page shows). Its drawing function
    is also called by an ordinary cell."""
    for lang in LANGS:
        nb = load(stem, lang)
        for cell in nb.cells:
            names = [t for kind, t in code_tokens(cell.source) if kind == 1] if cell.cell_type == "code" else []
            if "explorer" not in names or "def explorer(" in cell.source:
                continue
            where = f"{stem} ({lang}) {cell.id}"
            assert "nbval-ignore-output" not in cell.metadata.get("tags", []), f"{where}: an explorer's output is checked"
            assert [o.output_type for o in cell.outputs] == ["display_data"], f"{where}: one output, the explorer"
            data = cell.outputs[0].data
            assert WIDGET_VIEW in data and EXPLORER_MIME in data, f"{where}: the explorer's output lacks {set(data)}"
            explorer = data[EXPLORER_MIME]
            sizes = [len(c["values"]) for c in explorer["controls"]]
            assert len(explorer["states"]) == math.prod(sizes), f"{where}: {len(explorer['states'])} settings of {sizes}"
            assert all(c["label"] for c in explorer["controls"]), f"{where}: a control without a name"
            assert explorer["default"] in explorer["states"]
            wired = names[names.index("explorer") + 1]
            checked = "\n".join(c.source for c in nb.cells if c.cell_type == "code" and c is not cell)
            assert f"{wired}(" in checked.replace(f"def {wired}(", ""), f"{where}: no ordinary cell calls '{wired}'"


@pytest.mark.parametrize("stem", chapter_stems())
def test_notebooks_are_self_contained_and_colab_ready(stem):
    """The first screen: the title, then the line that names the book, its site and the twin notebook; then the
    set-up cell, which installs the pinned Hangul font package in Colab and defines expect_error."""
    import re

    pinned = re.search(r"^koreanize-matplotlib==(\S+)$", (ROOT / "requirements.txt").read_text(encoding="utf-8"), re.M)[1]
    for folder, lang in [(f, lang) for f in ("notebooks", "student") for lang in LANGS]:
        nb = nbformat.read(ROOT / folder / lang / f"{stem}.ipynb", as_version=4)
        title, setup = nb.cells[0], nb.cells[1]
        assert title.cell_type == "markdown" and title.source.startswith(f"# {int(stem[:2])}. "), (
            f"{folder}/{lang}/{stem}: the notebook must open on its title")
        intro = title.source.split("\n\n")[1]
        other = "en" if lang == "ko" else "ko"
        assert f"/{lang}/{stem}.html)" in intro and f"/blob/main/{folder}/{other}/{stem}.ipynb)" in intro, intro
        assert ("CPU" in intro) and ("GPU" in intro)
        if folder == "student":
            assert ("✅" in title.source and "❌" in title.source and "⏸️" in title.source), "say how the checks work"
        assert setup.cell_type == "code" and 'if "google.colab" in sys.modules:' in setup.source, (
            f"{folder}/{lang}/{stem}: the second cell must be the set-up cell (see CONTRIBUTING.md)")
        assert f"pip install --quiet koreanize-matplotlib=={pinned}" in setup.source and setup.get("outputs", []) == []
        assert "class expect_error" in setup.source
        installs = dict(re.findall(r"([\w.-]+)==(\S+)", re.search(r'system\("pip install --quiet ([^"]*)"\)', setup.source)[1]))
        colab = dict(re.findall(r"^([\w.-]+)==(\S+)$", (ROOT / "requirements-colab.txt").read_text(encoding="utf-8"), re.M))
        book = dict(re.findall(r"^([\w.-]+)==(\S+)$", (ROOT / "requirements.txt").read_text(encoding="utf-8"), re.M))
        for package, version in installs.items():  # the book's version, and the Colab test's (so pip is a no-op)
            assert book[package] == version == colab.get(package), (package, version, colab.get(package))
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        assert ("transformers" in installs) == bool(re.search(r"^\s*(from|import) transformers", code, re.M))
        assert setup.source.startswith("#@title ") and setup.metadata.get("cellView") == "form", (
            "Colab folds the set-up cell under its '#@title' line")
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert "from tools" not in cell.source and "import tools" not in cell.source, (
                    f"{stem} {cell.id}: notebooks must not import from this repository")
        assert nb.metadata["kernelspec"]["name"] == "python3"
        text = json.dumps(nb)
        assert '"execution"' not in text and "iopub" not in text, f"{stem} ({lang}): execution timestamps were stored"


def colab_branch_pip_calls(setup: str) -> list[str]:
    """The shell commands the set-up cell's Colab branch runs here, where the pinned packages are installed:
    that branch alone, executed with google.colab in sys.modules and a get_ipython() that records `system`."""
    import ast
    import types

    tree = ast.parse(setup)
    branch = next(node for node in tree.body if isinstance(node, ast.If) and "google.colab" in ast.unparse(node.test))
    calls: list[str] = []
    shell = types.SimpleNamespace(system=calls.append)
    namespace = {"sys": types.SimpleNamespace(modules={"google.colab": None}), "get_ipython": lambda: shell}
    exec(compile(ast.Module(body=[branch], type_ignores=[]), "<set-up>", "exec"), namespace)
    return calls


def test_colab_set_up_asks_pip_only_for_what_is_missing():
    """pip takes over a second even with nothing to install: the set-up cell calls it in Colab only when a pinned
    package is missing or at another version (a fresh runtime), not after a restart, when they are there (as in the
    Colab-faithful tests, whose venv has the pins; tests/colab_harness.py)."""
    setup = load("08_real_models", "en").cells[1].source
    pins = re.search(r'system\("pip install --quiet ([^"]*)"\)', setup)[1]
    assert "transformers==" in pins, pins
    assert colab_branch_pip_calls(setup) == []
    for wrong in (pins.replace("transformers==", "transformers==0.0."), f"{pins} no-such-package-here==1.0"):
        changed = setup.replace(pins, wrong)
        assert colab_branch_pip_calls(changed) == [f"pip install --quiet {wrong}"]


def figure_cells(stem: str, lang: str) -> list[tuple[str, str | None]]:
    """(cell id, alt text) of every code cell that shows a figure: an image output or a saved widget."""
    found = []
    for cell in load(stem, lang).cells:
        outputs = cell.get("outputs", []) if cell.cell_type == "code" else []
        if any("image/png" in o.get("data", {}) or WIDGET_VIEW in o.get("data", {}) for o in outputs):
            found.append((cell.id, figure_alt(cell)))
    return found


@pytest.mark.parametrize("stem", chapter_stems())
def test_every_figure_is_described_in_its_language(stem):
    """Readers who cannot see a figure get its alt text: a '#ko alt:' / '#en alt:' pair in the source."""
    by_lang = {lang: figure_cells(stem, lang) for lang in LANGS}
    for lang, cells in by_lang.items():
        missing = [cell_id for cell_id, alt in cells if not alt]
        assert not missing, (f"{lang}/{stem}: figure cells without alt text: {missing}; add a '#ko alt: ...' and "
                             "an '#en alt: ...' line to each in its chapter source")
    ko, en = by_lang["ko"], by_lang["en"]
    assert [c for c, _ in ko] == [c for c, _ in en], f"{stem}: the two languages show figures in different cells"
    assert all(k != e for (_, k), (_, e) in zip(ko, en, strict=True)), f"{stem}: a Korean alt text equals its English twin"


@pytest.mark.parametrize("stem", chapter_stems())
def test_no_notebook_names_a_path_of_the_machine_that_ran_it(stem):
    """A traceback through torch once carried '/<checkout>/.venv/lib/...': the notebook could not be
    reproduced byte for byte in another checkout, and the site showed the path. tools.notebooks.portable
    writes such paths as '.../site-packages/...' or relative to the checkout."""
    import os

    local = {str(ROOT), sys.prefix, sys.base_prefix, os.path.expanduser("~")} - {"/", ""}
    for folder in ("notebooks", "student"):
        for lang in LANGS:
            text = (ROOT / folder / lang / f"{stem}.ipynb").read_text(encoding="utf-8")
            found = sorted(p for p in local if p in text)
            assert not found, f"{folder}/{lang}/{stem}.ipynb holds {found}: run 'make execute CHAPTER={stem[:2]}'"


def test_replies_are_awaited_in_short_slices():
    """tools.notebooks waits for kernel messages in slices of POLL_SLICE seconds, so that a missed
    wake-up of pyzmq's poll costs half a second, not the cell's whole timeout (it once cost 120 s)."""
    import asyncio
    from queue import Empty

    from tools import notebooks

    asked = []

    async def get_msg(timeout=None):  # a channel whose message is there on the third look
        asked.append(timeout)
        if len(asked) < 3:
            raise Empty
        return {"msg": "reply"}

    assert asyncio.run(notebooks._in_slices(get_msg)(timeout=120)) == {"msg": "reply"}
    assert asked == [notebooks.POLL_SLICE] * 3

    async def never(timeout=None):
        asked.append(timeout)
        raise Empty

    asked.clear()
    with pytest.raises(Empty):
        asyncio.run(notebooks._in_slices(never)(timeout=0.2))
    assert asked and all(t <= 0.2 for t in asked)


MYST = {
    "a label line '(name)='": re.compile(r"^\([\w-]+\)=\s*$", re.M),
    "a directive fence ':::{...}' or ```{...}": re.compile(r"^(:{3,}|`{3,})\{[\w-]+\}", re.M),
    "a closing ':::' fence": re.compile(r"^:{3,}\s*$", re.M),
    "a directive option ':label:'": re.compile(r"^:[\w-]+:", re.M),
    "a role {name}`...`": re.compile(r"\{[a-z]+\}`"),
    "a link to a label [text](label)": re.compile(r"\]\((?![a-z]+://|#|mailto:)[^)\s]*\)"),
}


def myst_in(text: str) -> list[str]:
    return [f"{name}: {m[0]!r}" for name, pattern in MYST.items() for m in pattern.finditer(text)]


@pytest.mark.parametrize("folder", ["notebooks", "student"])
def test_no_notebook_holds_myst_syntax(folder):
    """Readers open these in Colab, JupyterLab, VS Code or GitHub, none of which renders MyST."""
    found = []
    for lang in LANGS:
        for path in sorted((ROOT / folder / lang).glob("*.ipynb")):
            for cell in nbformat.read(path, as_version=4).cells:
                if cell.cell_type == "markdown":
                    found += [f"{folder}/{lang}/{path.name} {cell.id}: {what}" for what in myst_in(cell.source)]
    assert not found, "raw MyST in notebooks (see tools/source.py:plain_markdown):\n" + "\n".join(found[:20])


def test_the_myst_check_can_fail():
    planted = "(ch01-goals)=\n## Goals\n:::{exercise}\n:label: ch01-ex\nText\n:::\nSee [chapter 1](ch01) and {ref}`ch01`."
    assert len(myst_in(planted)) == 6
    assert myst_in("See [the site](https://example.org/ko/01.html#ch01-goals) and <details>.") == []
