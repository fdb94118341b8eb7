"""Exercises: every check passes in the book's notebooks (they hold the solutions), and after a restart a
check says which cells to run first. That a student notebook's checks say "not yet" with a hint while
unsolved, then pass once the solution is back, is tested where students run them: on Colab's versions
(tests/test_colab_student.py)."""

from __future__ import annotations

import tempfile

import nbformat
import pytest
from conftest import LANGS, ROOT, chapters, load, parse

from tools.notebooks import wait_in_slices

CORRECT = {"ko": "정답입니다!", "en": "correct!"}
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


def run_after_restart(nb: nbformat.NotebookNode, only_checks: bool) -> list:
    """A student after a runtime reset: a fresh kernel runs the set-up cell (which defines check()), then
    either the exercise section from its first exercise cell to the end, or (only_checks) every check cell
    and nothing else, each before its exercise. Other cells may fail (a solution that uses earlier names);
    check cells must not."""
    from nbclient import NotebookClient

    tags = [set(c.metadata.get("tags", [])) for c in nb.cells]
    setup = next(i for i, t in enumerate(tags) if "remove-cell" in t and "check(" in nb.cells[i].source)
    start = next(i for i, t in enumerate(tags) if t & EXERCISE_TAGS)
    rest = [c for c, t in zip(nb.cells[start:], tags[start:], strict=True) if not only_checks or "exercise-check" in t]
    nb = nbformat.from_dict({**nb, "cells": [nb.cells[setup], *rest]})
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    with tempfile.TemporaryDirectory() as cwd:
        client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True, shutdown_kernel="immediate",
                                resources={"metadata": {"path": cwd}})
        with client.setup_kernel():
            wait_in_slices(client)
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index)
    return [c for c in nb.cells if c.cell_type == "code"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stem", with_exercises())
def test_checks_after_a_restart_say_which_cells_to_run_first(stem, lang):
    """Never a traceback from a check cell, and never "not yet" for a correct answer: a check whose test needs
    names from earlier cells says, in the notebook's language, to run the cells above (Runtime -> Run before).
    The student notebook runs its checks alone, before their exercises (a student who jumps ahead); the
    book's notebook runs the exercise section with its solutions."""
    paused = 0
    for folder in ("student", "notebooks"):
        cells = run_after_restart(nbformat.read(ROOT / folder / lang / f"{stem}.ipynb", as_version=4),
                                  only_checks=folder == "student")
        checks = [c for c in cells if "exercise-check" in c.metadata.get("tags", [])]
        assert checks
        for cell in checks:
            assert not [o for o in cell.outputs if o.output_type == "error"], (
                f"{folder}/{lang}/{stem} {cell.id}: a check cell raised after a restart")
            said = check_output(cell)
            # with the solutions (notebooks/): never "not yet"; unsolved (student/): "not yet" is the truth
            allowed = ("⏸️", "✅") if folder == "notebooks" else ("⏸️", "❌")
            assert said.startswith(allowed), f"{folder}/{lang}/{stem} {cell.id}: after a restart the check said {said!r}"
            if said.startswith("⏸️"):
                assert RUN_FIRST[lang] in said and "Run before" in said and "Run All Above" in said, said
            paused += said.startswith("⏸️")
    assert paused, f"{lang}/{stem}: no check needed an earlier cell after a restart; this test would prove nothing"
