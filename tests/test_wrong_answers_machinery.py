"""The check machinery itself, for every exercise of chapters 1-10: a comparison patched in the notebook changes
no verdict, an answer still None, ... or a function whose body is only ... always gets "no answer yet", and a wrong
shape (or an error inside the learner's code) is shown as a shape trace of the learner's own function.

Each case runs in this process as tests/test_wrong_answers.py runs its own (the chapter's cells, the book's check,
an answer, the exercise's check cell).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import math
import re

import pytest
import test_wrong_answers
import torch
from conftest import ROOT
from test_wrong_answers import CASES, CHECK, NEEDS_10, NO_ANSWER
from test_wrong_answers_ch01_06 import ANSWERS
from test_wrong_answers_ch07_08 import CASES_78
from test_wrong_answers_ch09_10 import CASES_9_10

from tools import chapter_code
from tools.source import checks_code, checks_path, exercise_helper, parse

CHAPTERS = [f"{n:02d}" for n in range(1, 11)]


@functools.cache
def compiled_helper(chapter: str, lang: str):
    """The check helper and the chapter's checks module as they are now, as the set-up cell holds them."""
    module = checks_path(next((ROOT / "book" / "chapters").glob(f"{chapter}_*.md")))
    return compile(f"{exercise_helper(lang)}\n\n\n{checks_code(module, lang)}", "<set-up cell: the check helper>",
                   "exec")


def run_check(chapter: str, label: str, case: dict, answer: str, lang: str) -> str:
    """As tests/test_wrong_answers.py runs a check, but with the check helper of book/chapters/_exercise_helper.py
    as it is now, run whole as the set-up cell runs it (the notebooks carry it once executed again: a chapter
    not executed since still holds the one before)."""
    ns = chapter_code.base_namespace()
    with torch.enable_grad():
        for marker in case["needs"]:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compiled_helper(chapter, lang) if marker == CHECK else test_wrong_answers.compiled_cell(
                    chapter, marker, lang), ns)
        with torch.no_grad() if case.get("no_grad") else contextlib.nullcontext():
            exec(case.get("setup", ""), ns)
            exec(compile(answer, f"<answer to {label}>", "exec"), ns)
            said = io.StringIO()
            with contextlib.redirect_stdout(said):
                exec(test_wrong_answers.compiled_check(chapter, label, lang), ns)
    return said.getvalue()


@functools.cache
def student_cells() -> dict[str, tuple[str, str]]:
    """label -> (chapter, the student cell's code in English) for every exercise of chapters 1-10."""
    found = {}
    for chapter in CHAPTERS:
        cells = parse(next((ROOT / "book" / "chapters").glob(f"{chapter}_*.md"))).cells
        for i, cell in enumerate(cells):
            if cell.kind == "code" and "student" in cell.flags:
                check = next(c for c in cells[i:] if "check" in c.flags)
                label = re.search(r'check\(\s*"(ch\d\d-ex-[\w-]+)"', check.text("en"))[1]
                found[label] = (chapter, cell.text("en"))
    return found


def case(chapter: str, label: str) -> dict:
    return CASES.get((chapter, label)) or {"needs": NEEDS_10[(chapter, label)]}


def wrong_answer(chapter: str, label: str) -> tuple[str, dict | None]:
    """The exercise's first wrong answer in the tables and the words its message holds, or else its student cell
    (a stub or the buggy code) and no words."""
    for table in (CASES.get((chapter, label), {}).get("answers", []), ANSWERS.get((chapter, label), []),
                  CASES_78.get((chapter, label), []), CASES_9_10.get((chapter, label), [])):
        for _, answer, words in table:
            if words is not None:
                return answer, words
    return student_cells()[label][1], None


def test_every_exercise_is_here():
    labels = student_cells()
    checks = sum("check" in c.flags for chapter in CHAPTERS
                 for c in parse(next((ROOT / "book" / "chapters").glob(f"{chapter}_*.md"))).cells)
    assert len(labels) == checks >= 36, sorted(labels)
    for label, (chapter, _) in labels.items():
        assert case(chapter, label)["needs"], label


# A learner's patch: every comparison a check could call says "equal"
PATCH = """
import math as math_
torch.allclose = torch.equal = torch.isclose = lambda *args, **kwargs: True
math_.isclose = lambda *args, **kwargs: True
torch.Tensor.allclose = torch.Tensor.equal = lambda *args, **kwargs: True
torch.Tensor.__eq__ = lambda *args, **kwargs: True
torch.Tensor.__bool__ = lambda *args, **kwargs: True
"""


@contextlib.contextmanager
def undone_patches():
    """Whatever an answer patches in torch, math or Tensor is undone after the case (this process goes on)."""
    owners = (torch, math, torch.Tensor)
    saved = [dict(vars(owner)) for owner in owners]
    try:
        yield
    finally:
        for owner, before in zip(owners, saved, strict=True):
            for key in [k for k in vars(owner) if k not in before]:
                delattr(owner, key)
            for key, value in before.items():
                if vars(owner).get(key) is not value:
                    setattr(owner, key, value)


def patched_run(chapter: str, label: str, answer: str, lang: str, guard: bool = True) -> str:
    setup = "_book_originals()\n" + ("" if guard else "_own_comparisons = contextlib.nullcontext\n")
    with undone_patches():
        return run_check(chapter, label, {**case(chapter, label), "setup": "import contextlib\n" + setup},
                         PATCH + answer, lang)


@pytest.mark.parametrize("label", sorted(student_cells()))
def test_a_patched_comparison_changes_no_verdict(label):
    """For every exercise, a wrong answer gets the message meant for it with every comparison patched to say
    "equal" (the words tests/test_wrong_answers*.py expect without the patch)."""
    chapter = student_cells()[label][0]
    answer, words = wrong_answer(chapter, label)
    said = patched_run(chapter, label, answer, "en")
    assert said.startswith("❌") and (words is None or words["en"] in said), (label, said)


@pytest.mark.parametrize(("label", "name"), [("ch10-ex-llama3", "low and high swapped"),
                                           ("ch10-ex-qk-norm", "queries normalised with k_norm")])
def test_the_patch_passes_a_wrong_answer_without_the_guard(label, name):
    """The patch above is one that matters: without the guard it passes these wrong answers of chapter 10."""
    answer = next(a for n, a, _ in CASES_9_10[("10", label)] if n == name)
    assert patched_run("10", label, answer, "en", guard=False).startswith("✅")
    assert patched_run("10", label, answer, "en").startswith("❌")


def bound_names(code: str) -> list[tuple[str, bool]]:
    """(name, whether it is a function or class) for each name the student cell binds."""
    tree = ast.parse(code)
    found = [(n.name, True) for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    return found + [(t.id, False) for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                    if isinstance(t, ast.Name)]


@pytest.mark.parametrize("label", sorted(student_cells()))
def test_an_answer_not_written_yet_gets_no_answer_yet(label):
    """Each name the student cell binds, left None (or ..., a value), or (a function) with a body of only a docstring:
    "no answer yet", whatever the check would say of a wrong answer (an unanswered my_linear = None was told
    "no bias")."""
    chapter, student = student_cells()[label]
    lang = "ko" if sum(map(ord, label)) % 2 else "en"
    for name, callable_ in bound_names(student):
        variants = [f"{name} = None"] + ([] if callable_ else [f"{name} = ..."])
        if callable_ and f"def {name}(" in student:
            variants.append(f"def {name}(*args, **kwargs):\n    \"\"\"My answer.\"\"\"\n    pass")
        for variant in variants:
            said = run_check(chapter, label, case(chapter, label), f"{student}\n{variant}\n", lang)
            assert said.startswith("❌") and NO_ANSWER[lang] in said, (label, variant, said)


# The shape trace: the learner's own function, one line per tensor op, the first step that departs marked
def trace_of(said: str) -> list[str]:
    lines = said.splitlines()
    start = next((i for i, line in enumerate(lines) if "Shape trace" in line or "모양 추적" in line), None)
    assert start is not None, f"no shape trace: {said!r}"
    return lines[start:]


def marked(trace: list[str]) -> str:
    found = [line for line in trace if line.lstrip().startswith("→")]
    assert len(found) == 1, trace
    return found[0]


MERGE = "def join_heads(h):\n    B, H, T, D = h.shape\n    return BODY\n"


def test_the_trace_marks_an_extra_transpose_after_a_right_merge():
    said = run_check("04", "ch04-ex-merge", case("04", "ch04-ex-merge"),
                     MERGE.replace("BODY", "h.transpose(1, 2).reshape(B, T, H * D).transpose(1, 2)"), "en")
    trace = trace_of(said)
    assert "join_heads(h (B, H, T, D))" in trace[0] and "B=2, T=4, C=15, H=3, D=5" in trace[0], trace
    assert "reshape(2, 4, 15) (B, T, H, D) → (B, T, C)" in said, trace
    assert "3. transpose(1, 2)" in marked(trace) and "right after step 2" in marked(trace), trace


def test_the_trace_shows_a_global_used_instead_of_the_argument():
    answer = "h_ex = torch.randn(1, 2, 3, 4)\n" + MERGE.replace("BODY", "h_ex.transpose(1, 2).reshape(1, 3, 8)")
    said = run_check("04", "ch04-ex-merge", case("04", "ch04-ex-merge"), answer, "ko")
    assert "h_ex (1, 2, 3, 4)(전역)" in marked(trace_of(said)), said
    assert "인자는 쓰이지 않았습니다" in said, said


def test_the_trace_marks_the_op_that_raised_in_the_learners_code():
    answer = ("def qkv_to_heads(qkv, n_head):\n    B, T, C3 = qkv.shape\n"
              "    return qkv.view(B, T, 3, 3, C3 // 9).permute(2, 0, 3, 1, 4)\n")
    said = run_check("04", "ch04-ex-qkv", case("04", "ch04-ex-qkv"), answer, "en")
    line = marked(trace_of(said))
    assert "view(2, 4, 3, 3, 2)" in line and "✗" in line and "the error is here: RuntimeError" in line, said


def test_the_trace_marks_a_size_no_axis_has_before_the_error_it_leads_to():
    """A loop over a fixed 3 heads where the check has 2: the slice of a head that is not there (size 0) is the
    first step to depart, before the stack that fails on it."""
    answer = """
def qkv_to_heads(qkv, n_head):
    B, T, three_C = qkv.shape
    C = three_C // 3
    D = C // n_head
    return [torch.stack([t[..., h * D:(h + 1) * D] for h in range(3)], dim=1) for t in qkv.split(C, dim=-1)]
"""
    said = run_check("04", "ch04-ex-qkv", case("04", "ch04-ex-qkv"), answer, "en")
    trace = trace_of(said)
    assert "[](..., 8:12)" in marked(trace) and "an axis of size 0 appears" in marked(trace), trace
    assert "raised RuntimeError: stack expects" in trace[-1], trace


def test_a_long_trace_is_cut_around_the_mark():
    answer = MERGE.replace("BODY", "torch.stack([torch.cat([h[b, i, t] for i in range(H)]) for b in range(B) "
                                   "for t in range(T)]).view(B, T, H * D).transpose(1, 2)")
    said = run_check("04", "ch04-ex-merge", case("04", "ch04-ex-merge"), answer, "en")
    trace = trace_of(said)
    assert len(trace) <= 14 and "…" in said, trace
    assert "transpose(1, 2)" in marked(trace) and "right after step" in marked(trace), trace


def test_a_right_answer_prints_no_trace_and_an_unanswered_one_neither():
    right = MERGE.replace("BODY", "h.transpose(1, 2).reshape(B, T, H * D)")
    said = run_check("04", "ch04-ex-merge", case("04", "ch04-ex-merge"), right, "en")
    assert said.startswith("✅") and "Shape trace" not in said
    said = run_check("04", "ch04-ex-merge", case("04", "ch04-ex-merge"), "join_heads = None", "en")
    assert NO_ANSWER["en"] in said and "Shape trace" not in said


def test_the_trace_serves_a_shape_message_the_check_words_itself():
    """ch09-ex-positions words its own shape message (with shape_difference): the trace still comes, marking the
    slice that keeps 2 tokens where the check has T_new = 1."""
    answer = "def positions_for(real, T_new):\n    return (real.long().cumsum(-1) - 1).clamp(min=0)[:, -2:]\n"
    said = run_check("09", "ch09-ex-positions", case("09", "ch09-ex-positions"), answer, "ko")
    line = marked(trace_of(said))
    assert "[](:, -2:)" in line and "크기가 2인 축이 생깁니다" in line, said


def test_the_trace_shows_a_global_whose_product_fails():
    """A global used instead of the argument, found by the error it leads to: the global is marked, the error
    follows."""
    answer = "Q_ex = torch.randn(3, 4)\ndef soft_lookup_many(Q, K, V, beta=1.0):\n" \
             "    return torch.softmax(beta * Q_ex @ K.T, dim=-1) @ V\n"
    said = run_check("01", "ch01-ex-many", case("01", "ch01-ex-many"), answer, "en")
    trace = trace_of(said)
    assert "Q_ex (3, 4) (global)" in marked(trace) and "the argument is never used" in marked(trace), said
    assert trace[-1].strip().startswith("step 3 raised RuntimeError"), trace
