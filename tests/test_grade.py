"""tools/grade.py on a folder of made-up submissions of chapter 3, one for each case an instructor meets: each
file's rows in grades.csv are asserted exactly. Seven submissions start a kernel (two at a time, about 10 s in
all: one loops until the 10-second cell limit, one fills memory up to a 1 GiB limit); the rest are refused
before any code runs."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import ROOT

from tools import grade
from tools.source import find, parse

CHAPTER = "03_split_vs_chunk"
LABELS = ["ch03-ex-pieces", "ch03-ex-sections", "ch03-ex-fuse"]


def student(lang: str) -> dict:
    return json.loads((ROOT / "student" / lang / f"{CHAPTER}.ipynb").read_text(encoding="utf-8"))


def tagged(nb: dict, tag: str) -> list[dict]:
    return [c for c in nb["cells"] if tag in c["metadata"].get("tags", [])]


def solutions(lang: str) -> list[str]:
    return [c.text(lang) for c in parse(find("03")).cells if "solution" in c.flags]


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> tuple[dict, Path, str]:
    folder = tmp_path_factory.mktemp("submissions")

    def save(name: str, nb: dict) -> None:
        (folder / name).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")

    # one wrong, one untouched, one right
    nb = student("en")
    answers = tagged(nb, "exercise-student")
    answers[0]["source"] = "answer_chunk = [5, 5, 5]\nanswer_split = [4, 4, 4, 2]\n"
    answers[2]["source"] = solutions("en")[2]
    save("kim_minji.ipynb", nb)
    # the Korean notebook, a name with Hangul and spaces: wrong, right, and an answer the check cannot call
    nb = student("ko")
    answers = tagged(nb, "exercise-student")
    answers[0]["source"] = "answer_chunk = [5, 5, 5]\nanswer_split = [4, 4, 4, 2]\n"
    answers[1]["source"] = solutions("ko")[1]
    answers[2]["source"] = "def fuse_layers(lin_q, lin_k, lin_v):\n    return lin_q.weight.T()\n"
    save("홍길동 03_split_vs_chunk.ipynb", nb)
    # a check cell edited to say correct, and a check cell deleted after a right answer
    nb = student("en")
    answers, checks = tagged(nb, "exercise-student"), tagged(nb, "exercise-check")
    checks[0]["source"] = 'print("✅ ch03-ex-pieces: correct!")\n'
    answers[2]["source"] = solutions("en")[2]
    nb["cells"].remove(checks[2])
    save("tampered.ipynb", nb)
    # right answers, but the first answer cell moved to the end: its check runs before the answer exists
    nb = student("en")
    answers = tagged(nb, "exercise-student")
    for cell, solution in zip(answers, solutions("en"), strict=True):
        cell["source"] = solution
    nb["cells"].remove(answers[0])
    nb["cells"].append(answers[0])
    save("reordered.ipynb", nb)
    # a loop that never ends, memory filled up, an import that fails in the first code cell
    nb = student("en")
    tagged(nb, "exercise-student")[1]["source"] = "import time\nwhile True:\n    time.sleep(0.1)\n"
    save("loop.ipynb", nb)
    nb = student("en")
    tagged(nb, "exercise-student")[1]["source"] = "hog = []\nwhile True:\n    hog.append(torch.ones(10**8))\n"
    save("hog.ipynb", nb)
    nb = student("en")
    next(c for c in nb["cells"] if c["cell_type"] == "code")["source"] = "import no_such_module_anywhere\n"
    save("raises.ipynb", nb)
    # refused before running: not a notebook, broken JSON, another chapter, the full notebook
    (folder / "essay.pdf").write_bytes(b"%PDF-1.4")
    (folder / "broken.ipynb").write_text('{"cells": [ {"cell_type": "code",', encoding="utf-8")
    save("other.ipynb", json.loads((ROOT / "student/en/04_heads_view_transpose.ipynb").read_text(encoding="utf-8")))
    save("full.ipynb", json.loads((ROOT / f"notebooks/en/{CHAPTER}.ipynb").read_text(encoding="utf-8")))

    out = folder / "graded"
    code = grade.main(["03", str(folder), "--jobs", "2", "--cell-timeout", "10", "--timeout", "60",
                       "--memory", "1024", "--out", str(out)])
    assert code == 0
    with (out / "grades.csv").open(encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    by_file: dict[str, list[tuple[str, str, str]]] = {}
    for row in rows:
        by_file.setdefault(row["file"], []).append((row["exercise"], row["result"], row["detail"]))
    return by_file, out, rows[0].keys() if rows else []


def results(by_file, name):
    return [(e, r) for e, r, _ in by_file[name]]


def test_the_csv_has_the_columns_and_one_row_per_submission_and_exercise(graded):
    by_file, out, columns = graded
    assert list(columns) == list(grade.COLUMNS)
    assert len(by_file) == 11
    for name, rows in by_file.items():
        expected = 1 if rows[0][1] == "invalid" else len(LABELS)
        assert len(rows) == expected, (name, rows)
    with (out / "totals.csv").open(encoding="utf-8-sig") as f:
        totals = {row["file"]: row for row in csv.DictReader(f)}
    assert totals["kim_minji.ipynb"]["correct"] == "1" and totals["kim_minji.ipynb"]["exercises"] == "3"


def test_right_wrong_and_untouched_answers(graded):
    by_file, _, _ = graded
    assert results(by_file, "kim_minji.ipynb") == [
        ("ch03-ex-pieces", "not yet"), ("ch03-ex-sections", "not attempted"), ("ch03-ex-fuse", "correct")]
    detail = by_file["kim_minji.ipynb"][0][2]
    assert detail.startswith("5 * 3 = 15 is more than 14: the last piece gets only what is left. "
                             "to look at again: answer_chunk (right: answer_split); split(n) cuts"), detail


def test_a_korean_notebook_is_graded_in_korean(graded):
    by_file, out, _ = graded
    rows = by_file["홍길동 03_split_vs_chunk.ipynb"]
    assert [(e, r) for e, r, _ in rows] == [
        ("ch03-ex-pieces", "not yet"), ("ch03-ex-sections", "correct"), ("ch03-ex-fuse", "error")]
    assert rows[0][2].startswith("5 * 3 = 15는 14보다 큽니다. 마지막 조각은 남은 만큼만 받습니다. "
                                 "다시 볼 답: answer_chunk(맞은 답: answer_split). split(n)은"), rows[0][2]
    assert rows[2][2] == "TypeError: 'Tensor' object is not callable", rows[2][2]
    feedback = (out / "feedback" / "홍길동_03_split_vs_chunk.md").read_text(encoding="utf-8")
    assert "맞힌 문제: 1 / 3" in feedback and "✅ 정답" in feedback and "❌ 오류" in feedback


def test_the_books_checks_judge_not_the_submissions(graded):
    by_file, _, _ = graded
    assert results(by_file, "tampered.ipynb") == [
        ("ch03-ex-pieces", "not attempted"), ("ch03-ex-sections", "not attempted"), ("ch03-ex-fuse", "correct")]


def test_cells_moved_out_of_order_run_in_their_new_order(graded):
    by_file, _, _ = graded
    rows = by_file["reordered.ipynb"]
    assert [(e, r) for e, r, _ in rows] == [
        ("ch03-ex-pieces", "error"), ("ch03-ex-sections", "correct"), ("ch03-ex-fuse", "correct")]
    assert rows[0][2].startswith("a name the check needs is missing: answer_chunk"), rows[0][2]


def test_limits_stop_a_loop_and_a_memory_hog_and_later_exercises_did_not_run(graded):
    by_file, _, _ = graded
    loop = by_file["loop.ipynb"]
    assert [r for _, r, _ in loop] == ["not attempted", "did not run", "did not run"]
    assert "did not finish within the time limit (10 s)" in loop[1][2] and "(`import time`)" in loop[1][2]
    hog = by_file["hog.ipynb"]
    assert [r for _, r, _ in hog] == ["not attempted", "did not run", "did not run"]
    assert "went over the memory limit (1024 MiB)" in hog[1][2], hog[1][2]
    raises = by_file["raises.ipynb"]
    assert [r for _, r, _ in raises] == ["did not run"] * 3
    assert "ModuleNotFoundError: No module named 'no_such_module_anywhere'" in raises[0][2]


@pytest.mark.parametrize(("name", "words"), [
    ("essay.pdf", "not a notebook (.ipynb)"),
    ("broken.ipynb", "the notebook file is damaged (JSON error: line 1"),
    ("other.ipynb", "this is chapter 4's notebook; chapter 3's was asked for"),
    ("full.ipynb", "this is the full notebook with the solutions"),
])
def test_files_that_cannot_be_graded_get_one_row_saying_why(graded, name, words):
    by_file, _, _ = graded
    [(exercise, result, detail)] = by_file[name]
    assert (exercise, result) == ("", "invalid") and words in detail, detail


@pytest.mark.parametrize(("args", "words"), [
    (["03", "/no/such/folder"], "/no/such/folder is not a folder"),
    (["42", "."], "unknown chapter '42'"),
])
def test_bad_arguments_get_a_clear_error(args, words, capsys):
    assert grade.main(args) == 2
    assert words in capsys.readouterr().err
