"""Every chapter's solutions, graded through the path an instructor uses: for each chapter, the student notebook
(student/{ko,en}/NN_*.ipynb) with the chapter's solution cells pasted into its answer cells, saved as Jupyter saves
it, graded by tools.grade (its command, in the bubblewrap sandbox, one grading run per chapter) gets "correct" for
every exercise, and the run exits 0. One language per chapter, alternating (English for the odd chapters, Korean
for the even ones, the other way round from the Colab run's): the two notebooks of a chapter hold the same code
(tests/test_parity.py), and the grader's language changes only its feedback's words, so both languages of every
chapter cost twice the time (about 280 s of one worker for all of them, the longest file of make test) for nothing
the other language's chapters do not show.

With them, in the same grading run, the same notebook holding the right answers of the wrong-answer tests that are
written another way (tests/test_wrong_answers*.py: ch01-ex-axis numerically stable, ch04-ex-merge with flatten,
ch08-ex-port with .t() and .data, ...), where a chapter's tables have one. The grader runs each check that passed
once more on inputs drawn for that run (tests/test_grade_unseen.py), so these are right on those too.

So every answer crosses the wire as a real submission's does: modules (ch03-ex-fuse returns an nn.Linear, whose
proxy must be one for the check's isinstance), the judge's layers used by the student's function (ch08-ex-port
reads a GPT-2 block's Conv1D, ch08-ex-chunked calls the layer's methods and fills the judge's cache), classes
(ch09-ex-rolling). Wrong answers and forgeries: tests/test_grade.py and tests/test_grade_escape.py."""

from __future__ import annotations

import csv
import functools

import nbformat
import pytest
from conftest import ROOT

from tools import grade, grade_judge
from tools.source import chapters, find, parse

STEMS = [p.stem for p in chapters() if grade_judge.exercises_of(parse(p))]


def solved(stem: str, lang: str, another_way: bool = False) -> nbformat.NotebookNode:
    """The student notebook with each answer cell replaced by the chapter's solution, in order; with another_way,
    by a right answer written otherwise where the wrong-answer tests have one (tests/test_wrong_answers*.py)."""
    nb = nbformat.read(ROOT / "student" / lang / f"{stem}.ipynb", as_version=4)
    cells = [c for c in nb.cells if "exercise-student" in c.metadata.get("tags", [])]
    right = [c.text(lang) for c in parse(find(stem[:2])).cells if "solution" in c.flags]
    labels = [e.label for e in grade_judge.exercises_of(parse(find(stem[:2])))]
    others = right_answers_written_otherwise() if another_way else {}
    for cell, solution, label in zip(cells, right, labels, strict=True):
        cell.source = others.get(label, solution)
    return trimmed(nb, stem, lang, [c.source for c in cells]) if another_way else nb


def trimmed(nb: nbformat.NotebookNode, stem: str, lang: str, answers: list[str]) -> nbformat.NotebookNode:
    """The notebook cut down as a student who deleted the cells the answers do not need would: its title and
    set-up, the chapter's code cells that bind what the answers and the checks read (found as the judge finds
    them), and the exercise section (quick to run: the whole notebook is graded with the solutions)."""
    read = set()
    for answer in answers:
        read |= grade_judge.bound_and_used(answer)[1]
    needed = {c.text(lang).strip() for c in grade_judge.needed_cells(parse(find(stem[:2])), lang, frozenset(read))}
    first = next(i for i, c in enumerate(nb.cells) if "exercise-student" in c.metadata.get("tags", []))
    start = max(i for i, c in enumerate(nb.cells[:first]) if c.cell_type == "markdown" and "## " in c.source)
    kept = [c for c in nb.cells[3:start] if c.cell_type == "code" and c.source.strip() in needed]
    nb.cells = nb.cells[:3] + kept + nb.cells[start:]
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
def test_every_chapters_solutions_are_graded_correct(stem, tmp_path):
    labels = [e.label for e in grade_judge.exercises_of(parse(find(stem[:2])))]
    lang = "en" if int(stem[:2]) % 2 else "ko"
    nbformat.write(solved(stem, lang), tmp_path / f"{lang}.ipynb")
    # and the right answers written otherwise, in the same grading run (the grader runs one notebook per core)
    if set(labels) & set(right_answers_written_otherwise()):
        nbformat.write(solved(stem, lang, another_way=True), tmp_path / f"{lang}-otherwise.ipynb")
    out = tmp_path / "graded"
    assert grade.main([stem[:2], str(tmp_path), "--lang", lang, "--out", str(out)]) == 0
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8-sig")))
    for name in sorted({r["file"] for r in rows}):
        got = [(r["exercise"], r["result"], r["detail"]) for r in rows if r["file"] == name]
        assert [(e, r) for e, r, _ in got] == [(label, "correct") for label in labels], (name, got)
