"""Every chapter's solutions, graded through the path an instructor uses: for each chapter, the student notebook
(student/{ko,en}/NN_*.ipynb) with the chapter's solution cells pasted into its answer cells, saved as Jupyter saves
it, graded by tools.grade (its command, in the bubblewrap sandbox, one grading run per chapter) gets "correct" for
every exercise, and the run exits 0. One language per chapter, alternating (English for the odd chapters, Korean
for the even ones, the other way round from the Colab run's): the two notebooks of a chapter hold the same code
(tests/test_parity.py), and the grader's language changes only its feedback's words, so both languages of every
chapter cost twice the time (about 280 s of one worker for all of them, the longest file of make test) for nothing
the other language's chapters do not show.

So every answer crosses the wire as a real submission's does: modules (ch03-ex-fuse returns an nn.Linear, whose
proxy must be one for the check's isinstance), the judge's layers used by the student's function (ch08-ex-port
reads a GPT-2 block's Conv1D, ch08-ex-chunked calls the layer's methods and fills the judge's cache), classes
(ch09-ex-rolling). Wrong answers and forgeries: tests/test_grade.py and tests/test_grade_escape.py."""

from __future__ import annotations

import csv

import nbformat
import pytest
from conftest import ROOT

from tools import grade, grade_judge
from tools.source import chapters, find, parse

STEMS = [p.stem for p in chapters() if grade_judge.exercises_of(parse(p))]


def solved(stem: str, lang: str) -> nbformat.NotebookNode:
    """The student notebook with each answer cell replaced by the chapter's solution, in order."""
    nb = nbformat.read(ROOT / "student" / lang / f"{stem}.ipynb", as_version=4)
    cells = [c for c in nb.cells if "exercise-student" in c.metadata.get("tags", [])]
    right = [c.text(lang) for c in parse(find(stem[:2])).cells if "solution" in c.flags]
    for cell, solution in zip(cells, right, strict=True):
        cell.source = solution
    return nb


@pytest.mark.parametrize("stem", STEMS)
def test_every_chapters_solutions_are_graded_correct(stem, tmp_path):
    labels = [e.label for e in grade_judge.exercises_of(parse(find(stem[:2])))]
    lang = "en" if int(stem[:2]) % 2 else "ko"
    nbformat.write(solved(stem, lang), tmp_path / f"{lang}.ipynb")
    out = tmp_path / "graded"
    assert grade.main([stem[:2], str(tmp_path), "--lang", lang, "--out", str(out)]) == 0
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8-sig")))
    got = [(r["exercise"], r["result"], r["detail"]) for r in rows if r["file"] == f"{lang}.ipynb"]
    assert [(e, r) for e, r, _ in got] == [(label, "correct") for label in labels], (lang, got)
