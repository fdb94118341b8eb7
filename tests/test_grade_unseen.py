"""A lookup table gets no marks: the judge checks every function on inputs drawn for that grading run.

Every check draws its inputs with check_seed / check_generator (book/chapters/_exercise_helper.py): in a notebook
they seed as written, so a learner's check is the same every time; in the grader (tools/grade_judge.py) each
check that passed runs again with the seeds mixed with the grading run's secret. So an answer that stores the
outputs of the notebook's own check inputs (they are in the set-up cell, one click away) and returns them is right
on those and wrong on the grader's.

For every exercise whose answer is a function, this test builds that answer from the book's solution: run once
through the check as the notebook runs it, recording each call's inputs and output, then a function that returns
the recorded output for recorded inputs and the first recorded output otherwise. The judge, in this process,
must grade it "correct" without a secret where it fools the notebook's check (most do), and never "correct" with
one; the book's solution itself stays "correct" with any secret. Through the sandbox: tests/test_grade.py.

And the book's solution of every exercise whose answer is a value or a class is graded "correct" by the judge in
this process, without a secret and with one (the grader's two runs of a check that passed), as the solution of a
function is above: the grading runs of tests/test_grade_solutions.py answer some exercises with a right answer
written otherwise instead of the solution.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import functools
import hashlib
import io
import types

import pytest
import torch

from tools import grade_judge
from tools.source import chapters, parse

EXERCISES = [(path, exercise) for path in chapters() for exercise in grade_judge.exercises_of(parse(path))]
LANG = "en"
SECRET = 982_451_653
# answers whose work is a side effect: a table of their outputs is refused without a secret already
SIDE_EFFECTS = {"ch08-ex-port": "copies weights into a layer", "ch08-ex-chunked": "fills the layer's cache"}


def key(value):
    """What a lookup table can key on: tensors by dtype, shape and values, layers by their weights."""
    if isinstance(value, torch.Tensor):
        data = value.detach().contiguous()
        try:
            data = data.numpy().tobytes()
        except TypeError:  # a dtype numpy lacks (bfloat16)
            data = tuple(data.flatten().tolist())
        return ("tensor", str(value.dtype), tuple(value.shape), hashlib.sha1(repr(data).encode()).hexdigest()
                if isinstance(data, tuple) else hashlib.sha1(data).hexdigest())
    if isinstance(value, torch.nn.Module):
        return ("module", type(value).__name__, tuple((k, key(v)) for k, v in value.state_dict().items()))
    if isinstance(value, (list, tuple)):
        return tuple(key(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, key(v)) for k, v in value.items())
    if isinstance(value, (int, float, str, bool, type(None))):
        return value
    return type(value).__name__


def snapshot(value):
    """A copy of an output as a lookup table would store it: tensors detached, containers copied."""
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, (list, tuple)):
        return type(value)(snapshot(v) for v in value)
    if isinstance(value, dict):
        return {k: snapshot(v) for k, v in value.items()}
    return copy.deepcopy(value)


def lookup_table(function):
    memo: dict = {}

    def record(*args, **kwargs):
        out = function(*args, **kwargs)
        memo.setdefault(key((args, kwargs)), snapshot(out))
        return out

    def stored(*args, **kwargs):
        found = memo.get(key((args, kwargs)))
        return snapshot(found if found is not None else next(iter(memo.values())))

    return record, stored, memo


def _solution(chapter, label: str) -> str:
    cells = chapter.cells
    return next(c for c, n in zip(cells, cells[1:], strict=False) if "solution" in c.flags and "check" in n.flags
                and label in n.text(LANG)).text(LANG)


@functools.cache
def student_namespace(path) -> tuple[dict, bool]:
    """The chapter's cells that its solutions and its checks need, run once (as a student's kernel holds them),
    and the gradient-tracking switch they left; each exercise's solution then runs in a copy of it."""
    chapter = parse(path)
    read = set()
    for exercise in grade_judge.exercises_of(chapter):
        read |= grade_judge.bound_and_used(_solution(chapter, exercise.label))[1]
    ns: dict = {"__name__": "__student__"}
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), torch.enable_grad():
        exec(compile(grade_judge.PRELUDE, "<prelude>", "exec"), ns)
        for cell in grade_judge.needed_cells(chapter, LANG, frozenset(read)):
            exec(compile(grade_judge._without_magics(cell.text(LANG)), f"<{path.name}:{cell.line}>", "exec"), ns)
        return ns, torch.is_grad_enabled()


@functools.cache
def solution_answers(path, label) -> dict:
    """The exercise's answer names as the book's solution defines them, run after the chapter's cells (as a
    student's kernel holds them)."""
    chapter = parse(path)
    exercise = next(e for e in grade_judge.exercises_of(chapter) if e.label == label)
    base, grad = student_namespace(path)
    ns = dict(base)
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), torch.set_grad_enabled(grad):
        exec(compile(_solution(chapter, label), f"<solution of {label}>", "exec"), ns)
    return {name: ns[name] for name in exercise.names if name in ns}


def is_function_exercise(exercise) -> bool:
    tree = ast.parse(exercise.template[LANG])
    return any(isinstance(node, ast.FunctionDef) for node in tree.body)


@functools.cache
def chapter_of(path):
    """parse(path), once per test process: the judge only reads it (parse gives a fresh copy of the chapter at
    every call, and the tests here ask for the judge's namespace 131 times)."""
    return parse(path)


def verdict(path, exercise, answers, secret=0) -> tuple[str, str]:
    base = grade_judge.namespace(chapter_of(path), LANG)
    names = {n for _, e in EXERCISES for n in e.names}
    said = grade_judge.run_check(base, exercise, LANG, answers, names, secret=secret)
    result, detail, _ = grade_judge.verdict(said)
    return result, detail


FUNCTIONS = [(path, exercise) for path, exercise in EXERCISES if is_function_exercise(exercise)]


NOT_FUNCTIONS = [(path, exercise) for path, exercise in EXERCISES if not is_function_exercise(exercise)]


@pytest.mark.parametrize("path, exercise", NOT_FUNCTIONS, ids=[e.label for _, e in NOT_FUNCTIONS])
def test_the_books_solution_of_a_value_or_a_class_is_graded_correct_with_and_without_a_secret(path, exercise):
    """The judge's verdict on the book's solution as tools.grade reaches it: the check, then, as it passed, the
    check again with a secret (a function's solution: test_a_lookup_table_of_the_notebooks_inputs_is_not_graded_correct
    below). Through the sandbox, each chapter's exercises answered, by the book's solution or a right answer written
    otherwise: tests/test_grade_solutions.py."""
    right = solution_answers(path, exercise.label)
    assert set(right) == set(exercise.names), (exercise.label, sorted(right))
    assert verdict(path, exercise, right) == ("correct", ""), f"{exercise.label}: the solution"
    assert verdict(path, exercise, right, SECRET) == ("correct", ""), f"{exercise.label}: the solution, with a secret"


def test_every_exercise_whose_answer_is_a_function_is_covered():
    assert len(FUNCTIONS) >= 20, [e.label for _, e in FUNCTIONS]


@pytest.mark.parametrize("path, exercise", FUNCTIONS, ids=[e.label for _, e in FUNCTIONS])
def test_a_lookup_table_of_the_notebooks_inputs_is_not_graded_correct(path, exercise):
    right = solution_answers(path, exercise.label)
    name = next(n for n, v in right.items() if isinstance(v, types.FunctionType))
    assert verdict(path, exercise, right, SECRET) == ("correct", ""), f"{exercise.label}: the solution, with a secret"
    record, stored, memo = lookup_table(right[name])
    assert verdict(path, exercise, {**right, name: record}) == ("correct", "")
    assert memo, f"{exercise.label}: the check never called {name}"
    fooled = verdict(path, exercise, {**right, name: stored})
    # the table fools the notebook's own check, so refusing it below proves the secret does the work; except where
    # the answer's work is a side effect a table of outputs does not repeat
    assert fooled[0] == "correct" or exercise.label in SIDE_EFFECTS, (exercise.label, fooled)
    result, detail = verdict(path, exercise, {**right, name: stored}, SECRET)
    assert result != "correct", (f"{exercise.label}: a lookup table of the notebook's inputs passed with a secret "
                                 f"(and was {fooled[0]} without one): its inputs are not drawn with check_seed / "
                                 "check_generator")


def test_a_check_runs_with_the_chapters_gradient_switch_in_any_thread():
    """Chapter 8 turns gradient tracking off for good, and that switch is per thread: the judge keeps what the
    chapter left and sets it around each check, so a check run in another thread than the one that ran the
    chapter's code (two notebooks graded at once) is judged the same (ch08-ex-port's check fills a GPT-2 block's
    weights in place, which raises with tracking on)."""
    import threading

    path = next(p for p, e in FUNCTIONS if e.label == "ch08-ex-port")
    exercise = next(e for p, e in FUNCTIONS if e.label == "ch08-ex-port")
    right = solution_answers(path, exercise.label)
    assert verdict(path, exercise, right) == ("correct", "")
    assert torch.is_grad_enabled(), "building the chapter's namespace left this thread's switch off"
    got = []
    thread = threading.Thread(target=lambda: got.append(verdict(path, exercise, right)))
    thread.start()
    thread.join()
    assert got == [("correct", "")]
