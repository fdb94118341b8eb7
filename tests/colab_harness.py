"""Runtime -> Run all as Colab does it, for the Colab-faithful tests (tests/test_colab_ko.py, test_colab_en.py).

Each notebook a reader opens is copied alone into an empty folder and executed top to bottom with its cell
tags dropped and its outputs cleared (Colab reads no tags: a cell tagged raises-exception stops Run all
there), on a kernel whose Python is .venv-colab's (Colab's versions, requirements-colab.txt says which and
what differs). The kernel starts as Colab's does, with google.colab already imported (a stub,
tests/colab_stub), so the notebooks' Colab set-up branch runs; .venv-colab/bin comes first on PATH, so a
set-up cell's `pip install` would ask that venv's pip; the cell calls pip only for a pin that is missing or at
another version, and that venv has them all."""

from __future__ import annotations

import configparser
import copy
import difflib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from conftest import LANGS, ROOT

from tools.notebooks import numeric_settings, wait_in_slices

COLAB_VENV = ROOT / ".venv-colab"
COLAB_PYTHON = COLAB_VENV / "bin" / "python"
STUB = Path(__file__).resolve().parent / "colab_stub"
KERNEL_NAME = "colab-test"
TIMEOUT = 120  # seconds per cell, as tools/notebooks.py and nbval (pytest.ini) allow


def reader_notebooks(folder: str) -> list[Path]:
    """Every notebook under notebooks/<lang>/ or student/<lang>/, found on disk (not from a list)."""
    return sorted(p for lang in LANGS for p in (ROOT / folder / lang).glob("*.ipynb"))


def as_opened_in_colab(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook as Run all sees it: no cell tags (Colab ignores them), no outputs, no execution counts."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        cell.metadata.pop("tags", None)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return nb


@dataclass
class Stop:
    """The cell where Run all stopped: a cell whose execute reply was an error."""

    cell_id: str
    first_line: str
    ename: str
    evalue: str
    number: int  # the cell's place among the notebook's code cells, from 1
    of: int

    def message(self, name: str) -> str:
        return (f"{name}: Run all stops at cell {self.cell_id}, code cell {self.number} of {self.of} "
                f"('{self.first_line}'): {self.ename}: {self.evalue}\n"
                f"In Colab the notebook stops there; no cell below it runs.")


def first_line(source: str) -> str:
    return next((line.strip() for line in source.splitlines() if line.strip()), "<empty cell>")


def _kernel_manager_class(kernel_dirs: list[str]):
    """An AsyncKernelManager that looks for kernel specs only in kernel_dirs (not the machine's Jupyter paths)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    class ColabKernelManager(AsyncKernelManager):
        @default("kernel_spec_manager")
        def _colab_specs(self):
            return KernelSpecManager(kernel_dirs=kernel_dirs, ensure_native_kernel=False)

    return ColabKernelManager


def _write_kernel_spec(folder: Path, python: Path) -> None:
    spec = {"argv": [str(python), "-m", "colab_kernel_launcher", "-f", "{connection_file}"],
            "display_name": "Python 3 (Colab's versions)", "language": "python"}
    (folder / KERNEL_NAME).mkdir(parents=True)
    (folder / KERNEL_NAME / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")


def _kernel_env(python: Path, ipython_dir: Path) -> dict:
    env = dict(os.environ)
    bin_dir = str(python.parent)
    env["PATH"] = os.pathsep.join([bin_dir, *[p for p in env.get("PATH", "").split(os.pathsep) if p != bin_dir]])
    env["VIRTUAL_ENV"] = str(python.parent.parent)
    env["PYTHONPATH"] = str(STUB)  # google.colab and colab_kernel_launcher; nothing of the book's .venv
    env["IPYTHONDIR"] = str(ipython_dir)  # a fresh IPython profile, as on a new Colab runtime
    # as in Colab: no PYTHONHASHSEED (random string hashing), and ipykernel picks the inline backend itself;
    # an explorer computes its default setting only, the others when a control moves (the book's executor
    # and nbval compute every setting, for the web page: BOOK_EXPLORER_STATES=all)
    for name in ("PYTHONHOME", "MPLBACKEND", "PYTHONHASHSEED", "BOOK_EXPLORER_STATES"):
        env.pop(name, None)
    # debugpy's note that Python 3.11 freezes modules, printed by every kernel start to the test's terminal
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    # float kernels other than nbval's (this machine's default) and the re-execution test's: the stored
    # outputs hold on a third kind of machine, besides Colab's versions (tools.notebooks.numeric_settings)
    env.update(numeric_settings()["narrower"])
    return env


def run_all(path: Path, python: Path = COLAB_PYTHON,
            then: tuple[str, ...] = ()) -> tuple[nbformat.NotebookNode, Stop | None]:
    """Execute the notebook at path as Colab's Run all would; return the executed notebook and where it
    stopped (None when every cell's reply was ok). Cells below a stop are left unexecuted, as in Colab.
    `then`: cells a student would add and run afterwards in the same session (a solution, its check),
    appended to the returned notebook; run only when Run all went through, and a failing one is a stop."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from traitlets.config import Config

    if not python.is_file():
        pytest.fail(f"{python.relative_to(ROOT) if python.is_relative_to(ROOT) else python} is missing: "
                    "run 'make colab-venv' (it installs requirements-colab.txt)")
    nb = as_opened_in_colab(nbformat.read(path, as_version=4))
    with tempfile.TemporaryDirectory(prefix="colab-test-") as tmp:
        tmp = Path(tmp)
        content = tmp / "content"  # the empty folder the notebook is opened in (Colab's is /content)
        content.mkdir()
        nbformat.write(nb, content / path.name)
        _write_kernel_spec(tmp / "kernels", python)
        client = NotebookClient(
            nb,
            # IPC sockets in a private folder, as tools/notebooks.py: no TCP ports
            config=Config({"KernelManager": {"transport": "ipc", "ip": str(tmp / "kernel")}}),
            kernel_manager_class=_kernel_manager_class([str(tmp / "kernels")]),
            kernel_name=KERNEL_NAME,
            timeout=TIMEOUT,
            record_timing=False,
            shutdown_kernel="immediate",  # killed once Run all is over: its outputs are all in by then
            resources={"metadata": {"path": str(content)}},
        )
        with client.setup_kernel(env=_kernel_env(python, tmp / "ipython")):
            wait_in_slices(client)  # as tools/notebooks.py: no 120 s stall on a missed pyzmq wake-up
            client.nb.cells += [nbformat.v4.new_code_cell(source, id=f"then-{n}") for n, source in enumerate(then)]
            code = [(index, cell) for index, cell in enumerate(client.nb.cells) if cell.cell_type == "code"]
            for number, (index, cell) in enumerate(code, 1):
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError as e:
                    return client.nb, Stop(cell.id, first_line(cell.source), e.ename, plain(e.evalue), number, len(code))
    return client.nb, None


# --- comparing outputs with the stored ones ---------------------------------------------------------------

def _sanitizers() -> list[tuple[re.Pattern, str]]:
    """nbval's sanitizers (tests/sanitize.cfg): what legitimately differs run to run, e.g. memory addresses."""
    config = configparser.ConfigParser()
    config.read(ROOT / "tests" / "sanitize.cfg", encoding="utf-8")
    return [(re.compile(config[s]["regex"]), config[s]["replace"]) for s in config.sections()]


# An explorer's text says how many of its settings it computed: all of them in the stored notebook, the
# default one in Colab, which computes the others when a control moves. The states themselves are stored in
# the explorer's own output (not text), checked by nbval and the re-execution test.
EXPLORER_SUMMARY = (re.compile(r"(explorer\(\w+\)): \d+ of (\d+) settings computed"), r"\1: N of \2 settings computed")
SANITIZERS = [*_sanitizers(), EXPLORER_SUMMARY]


def plain(text: str) -> str:
    """Text without terminal colours (IPython colours error values)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _sanitize(text: str) -> str:
    for pattern, replacement in SANITIZERS:
        text = pattern.sub(replacement, text)
    return text


def text_outputs(cell) -> list[str]:
    """A code cell's outputs as a reader reads them: stream text (consecutive pieces of one stream joined,
    as the executor stores them), text/plain of results and displays, and errors as 'Name: message'.

    Everything text is compared, with no exception for Colab's versions. Checked on 2026-11-23 with every
    cell of the 14 full notebooks run (errors allowed, so that the cells below today's deliberate errors
    ran too): IPython 7.34, ipykernel 6.17, ipywidgets 7.7, numpy 2.1 and matplotlib 3.10 gave the same
    text as the book's IPython 9, ipywidgets 8, numpy 2.4 and matplotlib 3.11 in every cell, widget reprs
    ('interactive(children=(...' cut at the same place) and figure reprs ('<Figure size 640x480 with 1 Axes>')
    included. Images are not compared, as nbval does not compare them; memory addresses are sanitised as
    nbval's tests/sanitize.cfg does. Tracebacks are compared by exception type and message only: the
    frames IPython prints differ between IPython 7 and 9 and from run to run."""
    items: list[str] = []
    last_stream = None
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            if last_stream == out.name:
                items[-1] += out.text
            else:
                items.append(f"[{out.name}]\n" + out.text)
            last_stream = out.name
            continue
        last_stream = None
        if out.output_type == "error":
            items.append(f"[error]\n{out.ename}: {plain(out.evalue)}")
        elif "text/plain" in out.get("data", {}):
            items.append(f"[{out.output_type}]\n" + out.data["text/plain"])
    return [_sanitize(item) for item in items]


def output_differences(stored: nbformat.NotebookNode, ran: nbformat.NotebookNode, limit: int = 12) -> list[str]:
    """A short diff for each executed code cell whose text outputs differ from the stored notebook's.

    Cells are matched by id. Cells that Run all never reached have no outputs and are not compared (the
    stop is reported on its own). The stored notebooks were executed without google.colab, so their
    set-up cell ran its non-Colab branch; it is compared all the same: in Colab it calls no pip when the pins are
    installed, and a `pip install --quiet` prints nothing, as the stored cell shows nothing."""
    stored_cells = {c.id: c for c in stored.cells if c.cell_type == "code"}
    found = []
    for cell in ran.cells:
        if cell.cell_type != "code" or cell.execution_count is None:
            continue
        want, got = text_outputs(stored_cells[cell.id]), text_outputs(cell)
        if want != got:
            diff = list(difflib.unified_diff("\n".join(want).splitlines(), "\n".join(got).splitlines(),
                                             "stored", "in Colab", lineterm="", n=1))
            shown = diff[2:2 + limit] + ([f"... ({len(diff) - 2 - limit} more diff lines)"] if len(diff) - 2 > limit else [])
            found.append(f"cell {cell.id} ('{first_line(cell.source)}') shows other output than the stored one:\n  "
                         + "\n  ".join(shown))
    return found


def check_runs_all(path: Path, compare_outputs: bool) -> None:
    """The test of one notebook: Run all completes; for the full notebooks, every output is the stored one."""
    name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
    ran, stop = run_all(path)
    problems = [stop.message(name)] if stop else []
    if compare_outputs:
        problems += [f"{name}: {d}" for d in output_differences(nbformat.read(path, as_version=4), ran)]
    assert not problems, "\n".join(problems)


# --- one run per chapter: the student notebook, then its solutions ---------------------------------------

def colab_language(stem: str) -> str:
    """The language a chapter runs in on Colab's versions: Korean for odd chapters, English for even ones.

    One run per chapter covers both notebooks of that language: the student notebook as a student runs it, then
    each exercise's solution and check as the student would add them, compared cell by cell with the full
    notebook's stored outputs (the full notebook is the student notebook with those solutions in place). The
    twin in the other language holds the same code and outputs (tests/test_parity.py); its strings run in its
    student notebook's checks after a restart (tests/test_exercises.py, which takes the other language of each
    chapter) and answer by answer (tests/test_wrong_answers.py). Alternating gives each language's strings,
    set-up branch and messages a run on Colab's versions in five chapters."""
    return "ko" if int(stem[:2]) % 2 else "en"


NOT_YET = {"ko": "아직 아닙니다. 힌트:", "en": "not yet. Hint:"}
CORRECT = {"ko": "정답입니다!", "en": "correct!"}
WHY = {"ko": "   풀이: ", "en": "   Why: "}
EXERCISE_TAGS = {"exercise-student", "exercise-solution", "exercise-check"}


def check_output(cell) -> str:
    """What a check cell said: its printed lines, and the why after a right answer, which check() shows as a
    display (Markdown with math, and plain text for a front end that renders no Markdown)."""
    return "".join(o.get("text", "") if o.output_type == "stream" else o.get("data", {}).get("text/plain", "") + "\n"
                   for o in cell.outputs if o.output_type in ("stream", "display_data"))


def solutions(stem: str, lang: str) -> list[tuple[str, str]]:
    """Each exercise's solution cell and check cell, from the chapter's source (not from a notebook)."""
    from conftest import parse

    chapter = parse(ROOT / "book" / "chapters" / f"{stem}.md")
    return [(c.text(lang), n.text(lang)) for c, n in zip(chapter.cells, chapter.cells[1:], strict=False)
            if "solution" in c.flags and "check" in n.flags]


def same_cell(full: str, student: str) -> bool:
    """A full notebook's cell and the student notebook's: the same source, or the set-up cell, to which the
    student notebook adds the solutions' explanations (encoded, shown only after a right answer)."""
    return student == full or (student.startswith(full) and student[len(full):].lstrip().startswith("SOLUTION_NOTES"))


def full_counterparts(full: nbformat.NotebookNode, ran: nbformat.NotebookNode) -> list[tuple[object, object]]:
    """(stored full-notebook cell, ran cell) pairs for every code cell of the full notebook: its cells outside
    the exercises are the student notebook's, in order and with the same source; its solutions and checks are
    the cells run after Run all. Cell ids differ (the student notebook's are numbered without the solutions),
    so cells are matched by source, in order; a full-notebook cell with no counterpart is an error."""
    def tags(cell) -> set:
        return set(cell.metadata.get("tags", []))

    outside = [c for c in ran.cells if c.cell_type == "code" and not c.id.startswith("then-")
               and not tags(c) & EXERCISE_TAGS]
    added = [c for c in ran.cells if c.id.startswith("then-")]
    pairs, i, j = [], 0, 0
    for cell in (c for c in full.cells if c.cell_type == "code"):
        if tags(cell) & {"exercise-solution", "exercise-check"}:
            pool, k = added, j
        elif tags(cell) & EXERCISE_TAGS:
            continue  # a template shown in the book too: the student notebook's own cell, run unsolved
        else:
            pool, k = outside, i
        while k < len(pool) and not same_cell(cell.source, pool[k].source):
            k += 1
        assert k < len(pool), f"the full notebook's cell {cell.id} ('{first_line(cell.source)}') is not in the run"
        pairs.append((cell, pool[k]))
        if pool is added:
            j = k + 1
        else:
            i = k + 1
    return pairs


def check_student_then_solutions(stem: str, lang: str) -> None:
    """The test of one chapter on Colab's versions (see colab_language): Run all of the student notebook
    completes; every check says "not yet" with a hint (and no why) while its exercise is unsolved; each
    solution then run with its check says "correct" followed by the why; and every cell the full notebook has
    shows the full notebook's stored text outputs."""
    path = ROOT / "student" / lang / f"{stem}.ipynb"
    name = str(path.relative_to(ROOT))
    student = nbformat.read(path, as_version=4)
    text = "\n".join(c.source for c in student.cells)
    assert "{solution}" not in text and not any(c.get("outputs") for c in student.cells if c.cell_type == "code")
    checks = [c.id for c in student.cells if "exercise-check" in c.metadata.get("tags", [])]
    pairs = solutions(stem, lang)
    assert checks and len(checks) == len(pairs), f"{name}: {len(checks)} check cells, {len(pairs)} solutions"
    # first a student who redefines check (and a helper it uses) in a cell of their own, then runs the first
    # check cell again: the set-up cell's check must still judge (the unsolved answer stays "not yet")
    cheat = ("def check(*args, **kwargs):\n    print('✅ correct!')\n\n\n"
             "def value_mistake(*args, **kwargs):\n    return None\n")
    ran, stop = run_all(path, then=(cheat, pairs[0][1], *(source for pair in pairs for source in pair)))
    assert stop is None, Stop.message(stop, name)
    by_id = {c.id: c for c in ran.cells}
    unsolved = [check_output(by_id[cell_id]) for cell_id in checks]
    cheated = check_output(by_id["then-1"])
    assert cheated == unsolved[0], f"{name}: with check redefined in a cell of its own, the first check said {cheated!r}"
    solved = [check_output(by_id[f"then-{2 * n + 3}"]) for n in range(len(pairs))]
    for message in unsolved:
        assert message.startswith("❌") and NOT_YET[lang] in message, f"{name}: unsolved check said {message!r}"
        hint = message.split(NOT_YET[lang], 1)[1].strip()
        assert len(hint) > 10, f"{name}: the hint is too thin: {hint!r}"
        assert WHY[lang] not in message, f"{name}: the solution's explanation shown before the answer is right"
    for message in solved:
        assert message.startswith("✅") and CORRECT[lang] in message, f"{name}: with the solution: {message!r}"
        # the why after a right answer: the solution's explanation, which the student notebook has no other way
        assert WHY[lang] in message and len(message.split(WHY[lang], 1)[1]) > 40, (
            f"{name}: a right answer is not followed by why it is right: {message!r}")
    full_path = ROOT / "notebooks" / lang / f"{stem}.ipynb"
    full = nbformat.read(full_path, as_version=4)
    stored = nbformat.from_dict({**full, "cells": []})
    compared = nbformat.from_dict({**ran, "cells": []})
    for want, got in full_counterparts(full, ran):  # each pair under the full notebook's id, as reported
        got = nbformat.from_dict({**got, "id": want.id})
        if "exercise-check" in want.metadata.get("tags", []):  # the why, shown by the student notebook only (the
            got.outputs = [o for o in got.outputs  # full notebook prints its solution's explanation in the open)
                           if not (o.output_type == "display_data" and WHY[lang].strip() in o.data.get("text/plain", ""))]
        stored.cells.append(want)
        compared.cells.append(got)
    differences = output_differences(stored, compared)
    assert not differences, "\n".join(f"{full_path.relative_to(ROOT)} (run as {name} and its solutions): {d}"
                                        for d in differences)
    Path(ROOT / "_build").mkdir(exist_ok=True)
    log = ROOT / "_build" / f"student-{lang}-{stem}.log"
    log.write_text("unsolved:\n" + "".join(unsolved) + "with the solution put back:\n" + "".join(solved),
                   encoding="utf-8")
