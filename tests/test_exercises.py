"""Exercises: every check passes in the book's notebooks (they hold the solutions), and in a student
notebook each check says "not yet" with a hint while unsolved, then passes once the solution is back."""

from __future__ import annotations

import tempfile
from pathlib import Path

import nbformat
import pytest
from conftest import LANGS, ROOT, chapters, load, parse

from tools.notebooks import wait_in_slices

NOT_YET = {"ko": "아직 아닙니다. 힌트:", "en": "not yet. Hint:"}
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


def run_student(stem: str, lang: str) -> tuple[list[str], list[str]]:
    """Execute the student notebook, then put each solution back and re-run its check, in one kernel."""
    from nbclient import NotebookClient

    chapter = parse(ROOT / "book" / "chapters" / f"{stem}.md")
    nb = nbformat.read(ROOT / "student" / lang / f"{stem}.ipynb", as_version=4)
    solutions = [(c.text(lang), n.text(lang)) for c, n in zip(chapter.cells, chapter.cells[1:], strict=False)
                 if "solution" in c.flags and "check" in n.flags]
    with tempfile.TemporaryDirectory() as cwd:
        client = NotebookClient(nb, timeout=120, kernel_name="python3", shutdown_kernel="immediate",
                                resources={"metadata": {"path": cwd}})
        unsolved, solved = [], []
        with client.setup_kernel():
            wait_in_slices(client)  # as tools.notebooks does
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index)  # raises if any cell of the student notebook fails
                if "exercise-check" in cell.metadata.get("tags", []):
                    unsolved.append(check_output(cell))
            for solution, check in solutions:
                for source in (solution, check):
                    nb.cells.append(nbformat.v4.new_code_cell(source))
                    client.execute_cell(nb.cells[-1], len(nb.cells) - 1)
                solved.append(check_output(nb.cells[-1]))
    return unsolved, solved


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stem", with_exercises())
def test_student_notebook_says_not_yet_then_passes_with_the_solution(stem, lang):
    student = nbformat.read(ROOT / "student" / lang / f"{stem}.ipynb", as_version=4)
    text = "\n".join(c.source for c in student.cells)
    assert "{solution}" not in text and not any(c.get("outputs") for c in student.cells if c.cell_type == "code")
    unsolved, solved = run_student(stem, lang)
    assert unsolved and len(unsolved) == len(solved)
    for message in unsolved:
        assert message.startswith("❌") and NOT_YET[lang] in message, f"{stem} ({lang}): unsolved check said {message!r}"
        hint = message.split(NOT_YET[lang], 1)[1].strip()
        assert len(hint) > 10, f"{stem} ({lang}): the hint is too thin: {hint!r}"
    for message in solved:
        assert message.startswith("✅") and CORRECT[lang] in message, f"{stem} ({lang}): with the solution: {message!r}"
    Path(ROOT / "_build").mkdir(exist_ok=True)
    log = ROOT / "_build" / f"student-{lang}-{stem}.log"
    log.write_text("unsolved:\n" + "".join(unsolved) + "with the solution put back:\n" + "".join(solved), encoding="utf-8")


RUN_FIRST = {"ko": "먼저 위의 셀들을 실행하세요", "en": "run the cells above first"}


def run_exercise_section(nb: nbformat.NotebookNode) -> list:
    """A student after a runtime reset: a fresh kernel runs only the exercise section, from the cell that
    defines check() to the end. Cells may fail (a solution that uses earlier names); check cells must not."""
    from nbclient import NotebookClient

    start = next(i for i, c in enumerate(nb.cells) if "exercise-helper" in c.metadata.get("tags", []))
    nb = nbformat.from_dict({**nb, "cells": nb.cells[start:]})
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
    names from earlier cells says, in the notebook's language, to run the cells above (Runtime -> Run before)."""
    paused = 0
    for folder in ("student", "notebooks"):
        cells = run_exercise_section(nbformat.read(ROOT / folder / lang / f"{stem}.ipynb", as_version=4))
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
                assert RUN_FIRST[lang] in said and "Run before" in said, said
            paused += said.startswith("⏸️")
    assert paused, f"{lang}/{stem}: no check needed an earlier cell after a restart; this test would prove nothing"
