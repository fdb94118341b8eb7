"""Exercises: every check passes in the book's notebooks (they hold the solutions), and after a restart a
check says which cells to run first. That a student notebook's checks say "not yet" with a hint while
unsolved, then pass once the solution is back, is tested where students run them: on Colab's versions
(tests/test_colab_ko.py and test_colab_en.py, one language per chapter; the restart here takes the other one)."""

from __future__ import annotations

import tempfile

import nbformat
import pytest
from colab_harness import CORRECT, colab_language
from conftest import LANGS, ROOT, chapters, load, parse

from tools.notebooks import wait_in_slices

MIN_EXERCISES = 3


def with_exercises() -> list[str]:
    return [p.stem for p in chapters() if any("check" in c.flags for c in parse(p).cells)]


def check_output(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


@pytest.mark.parametrize("stem", with_exercises())
def test_book_notebooks_pass_every_check(stem):
    for lang in LANGS:
        checks = [c for c in load(stem, lang).cells if "exercise-check" in c.metadata.get("tags", [])]
        assert len(checks) >= MIN_EXERCISES, f"{stem}: {len(checks)} exercises, at least {MIN_EXERCISES} wanted"
        for cell in checks:
            assert check_output(cell).startswith("✅") and CORRECT[lang] in check_output(cell), (
                f"{stem} ({lang}) {cell.id}: the solution does not pass its check: {check_output(cell)!r}")


RUN_FIRST = {"ko": "먼저 위의 셀들을 실행하세요", "en": "run the cells above first"}


EXERCISE_TAGS = {"exercise-student", "exercise-solution", "exercise-check"}


# What a runtime reset clears and %reset -f does not, put back as a fresh kernel has it before each chapter: the
# switches of torch's that a chapter's code may turn (gradient tracking, print options, default dtype). Then %reset -f
# clears every name, these lines' own included, as a restart does; imported modules stay loaded (a restart would load
# them again, which no check can tell: the set-up cell imports what it uses).
RESET = ("import torch as _torch\n_torch.set_grad_enabled(True)\n_torch.set_printoptions(profile='default')\n"
         "_torch.set_default_dtype(_torch.float32)\n%reset -f\n")


@pytest.fixture(scope="module")
def kernel():
    """One kernel for every chapter's restart (a kernel each took 2.5 s of CPU to start, torch imported): before
    each chapter, RESET. Its folder is an empty temporary one."""
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory() as cwd:
        client = NotebookClient(nbformat.v4.new_notebook(), timeout=120, kernel_name="python3", allow_errors=True,
                                shutdown_kernel="immediate", resources={"metadata": {"path": cwd}})
        with client.setup_kernel():
            wait_in_slices(client)
            yield client


def run_after_restart(client, student: nbformat.NotebookNode, book: nbformat.NotebookNode) -> tuple[list, list]:
    """A student after a runtime reset: the set-up cell (which defines check()), then every check cell of the
    student notebook and nothing else, each before its exercise (a student who jumps ahead); then the book's
    exercise section, from its first exercise cell to the end, with the solutions. Other cells may fail (a solution
    that uses earlier names); check cells must not. Returns the two parts' code cells."""

    def tags(cell) -> set:
        return set(cell.metadata.get("tags", []))

    setup = next(c for c in student.cells if "remove-cell" in tags(c) and "check(" in c.source)
    checks = [c for c in student.cells if "exercise-check" in tags(c)]
    start = next(i for i, c in enumerate(book.cells) if tags(c) & EXERCISE_TAGS)
    cells = [nbformat.v4.new_code_cell(RESET), setup, *checks, *book.cells[start:]]
    client.nb = nbformat.from_dict({**book, "cells": [nbformat.from_dict(dict(c)) for c in cells]})
    for cell in client.nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    for index, cell in enumerate(client.nb.cells):
        client.execute_cell(cell, index)
    reset = client.nb.cells[0]
    assert not [o for o in reset.outputs if o.output_type == "error"], f"the reset before the chapter failed: {reset.outputs}"
    code = [c for c in client.nb.cells if c.cell_type == "code"][1:]
    return code[1:1 + len(checks)], code[1 + len(checks):]


def other_language(stem: str) -> str:
    """The language a chapter does not run in on Colab's versions: each chapter's student notebooks run once
    in each language, one there and one here."""
    return next(lang for lang in LANGS if lang != colab_language(stem))


@pytest.mark.parametrize("stem", with_exercises())
def test_checks_after_a_restart_say_which_cells_to_run_first(kernel, stem):
    """Never a traceback from a check cell, and never "not yet" for a correct answer: a check whose test needs
    names from earlier cells says, in the notebook's language, to run the cells above (Runtime -> Run before).
    The student notebook's checks alone, before their exercises, then the book's exercise section with its
    solutions, in the module's kernel after RESET."""
    paused, lang = 0, other_language(stem)
    student = nbformat.read(ROOT / "student" / lang / f"{stem}.ipynb", as_version=4)
    book = nbformat.read(ROOT / "notebooks" / lang / f"{stem}.ipynb", as_version=4)
    before, section = run_after_restart(kernel, student, book)
    for folder, cells in (("student", before), ("notebooks", section)):
        checks = [c for c in cells if "exercise-check" in c.metadata.get("tags", [])]
        assert checks
        for cell in checks:
            assert not [o for o in cell.outputs if o.output_type == "error"], (
                f"{folder}/{lang}/{stem} {cell.id}: a check cell raised after a restart")
            said = check_output(cell)
            # with the solutions (notebooks/): never "not yet"; before the exercise (student/): nothing to pass
            allowed = ("⏸️", "✅") if folder == "notebooks" else ("⏸️", "❌")
            assert said.startswith(allowed), f"{folder}/{lang}/{stem} {cell.id}: after a restart the check said {said!r}"
            if said.startswith("⏸️"):
                assert RUN_FIRST[lang] in said and "Run before" in said and "Run All Above" in said, said
            paused += said.startswith("⏸️")
    assert paused, f"{lang}/{stem}: no check needed an earlier cell after a restart; this test would prove nothing"
