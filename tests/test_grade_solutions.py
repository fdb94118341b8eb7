"""Every chapter's exercises, graded through the path an instructor uses: for each chapter, the whole student
notebook (student/{ko,en}/NN_*.ipynb) with every answer cell answered, saved as Jupyter saves it, graded by
tools.grade (its command, in the bubblewrap sandbox, one grading run and one kernel per chapter) gets "correct" for
every exercise, and the run exits 0. An answer cell holds a right answer of the wrong-answer tests that is written
another way (tests/test_wrong_answers*.py: ch01-ex-axis numerically stable, ch04-ex-merge with flatten, ch08-ex-port
with .t(), ...) where a chapter's tables have one, and the book's solution elsewhere: one kernel per
chapter (about 3 CPU seconds just to start: bubblewrap, Python, ipykernel, torch, the set-up cell) instead of one
for the solutions and one for the answers written otherwise. The grader runs each check that passed once more on
inputs drawn for that run (tests/test_grade_unseen.py), so these answers are right on those too.

One language per chapter, alternating (English for the odd chapters, Korean for the even ones, the other way round
from the Colab run's): the two notebooks of a chapter hold the same code (tests/test_parity.py), and the grader's
language changes only its feedback's words.

What proves what:
- every exercise's answer crosses the wire as a real submission's does (the answer written otherwise where there
  is one, else the book's solution: the same names, of the same kind), so every kind of answer crosses, here:
  values (numbers, lists, tuples; ch08-ex-kv-memory's are tensors), functions, modules (ch03-ex-fuse returns an
  nn.Linear, whose proxy must be one for the check's isinstance; ch08-ex-port the chapter's MultiHeadAttention),
  the judge's layers used by the student's function (ch08-ex-port reads a GPT-2 block's Conv1D, ch08-ex-chunked
  calls the layer's methods and fills the judge's cache, ch10-ex-qk-norm calls the judge's norms), classes
  (ch06-ex-order and ch06-ex-dropout subclass the chapter's layer, ch09-ex-rolling the chapter's cache); and each
  chapter's whole student notebook, its set-up cell included, runs in the sandbox within the grader's limits;
- the book's own solution of every exercise is "correct" when the judge runs its check, and again on the inputs of
  a secret (the grader's second run): tests/test_grade_unseen.py, in-process through the judge (run_check and
  verdict, as tools.grade calls them), for every exercise, values and functions; that the student notebooks'
  checks pass once the solutions are put back: tests/test_colab_ko.py and test_colab_en.py;
- wrong answers and forgeries: tests/test_grade.py and tests/test_grade_escape.py."""

from __future__ import annotations

import csv
import functools

import nbformat
import pytest
from conftest import ROOT

from tools import grade, grade_judge
from tools.source import chapters, find, parse

STEMS = [p.stem for p in chapters() if grade_judge.exercises_of(parse(p))]


def answered(stem: str, lang: str) -> nbformat.NotebookNode:
    """The whole student notebook with each answer cell holding the right answer written otherwise where the
    wrong-answer tests have one (tests/test_wrong_answers*.py), the chapter's solution elsewhere, in order."""
    nb = nbformat.read(ROOT / "student" / lang / f"{stem}.ipynb", as_version=4)
    cells = [c for c in nb.cells if "exercise-student" in c.metadata.get("tags", [])]
    chapter = parse(find(stem[:2]))
    right = [c.text(lang) for c in chapter.cells if "solution" in c.flags]
    labels = [e.label for e in grade_judge.exercises_of(chapter)]
    others = right_answers_written_otherwise()
    for cell, solution, label in zip(cells, right, labels, strict=True):
        cell.source = others.get(label, solution)
    return nb


@functools.cache
def right_answers_written_otherwise() -> dict[str, str]:
    """label -> the first right answer of the wrong-answer tests that is not the plain "right" one (the book's
    solution, or close to it): written another way, as learners write them."""
    import test_wrong_answers
    import test_wrong_answers_ch01_06
    import test_wrong_answers_ch07_08
    import test_wrong_answers_ch09_10

    tables = [((key, case["answers"]) for key, case in test_wrong_answers.CASES.items()),
              test_wrong_answers_ch01_06.ANSWERS.items(), test_wrong_answers_ch07_08.CASES_78.items(),
              test_wrong_answers_ch09_10.CASES_9_10.items()]
    found: dict[str, str] = {}
    for table in tables:
        for (_, label), answers in table:
            for name, code, words, *_ in answers:
                if words is None and name not in ("right", "the book's solution") and label not in found \
                        and (label, name) not in NOT_STANDALONE:
                    found[label] = code.strip() + "\n"
    return found


# right answers of the tables that lean on what the test's namespace gives them, not the student notebook's cells
# (chapter 2's notebook never imports torch.nn.functional as F)
NOT_STANDALONE = {("ch02-ex-transpose", "right, with F.linear")}


@pytest.mark.parametrize("stem", STEMS)
def test_every_chapters_answers_are_graded_correct(stem, tmp_path):
    labels = [e.label for e in grade_judge.exercises_of(parse(find(stem[:2])))]
    lang = "en" if int(stem[:2]) % 2 else "ko"
    nbformat.write(answered(stem, lang), tmp_path / f"{lang}.ipynb")
    out = tmp_path / "graded"
    assert grade.main([stem[:2], str(tmp_path), "--lang", lang, "--out", str(out)]) == 0
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8-sig")))
    got = [(r["file"], r["exercise"], r["result"], r["detail"]) for r in rows]
    assert [(f, e, r) for f, e, r, _ in got] == [(f"{lang}.ipynb", label, "correct") for label in labels], got
