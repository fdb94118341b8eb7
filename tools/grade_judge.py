"""The judge: decides each exercise's result in the grader's own process, which no student code enters.

It runs the chapter's own code (every code cell of book/chapters/NN_*.md but the exercises' and the
explorers', taken with tools.source; the set-up cell replaced by a quiet stand-in) once per language, in a
namespace of its own. For each submission it asks the sandboxed kernel, over the wire of tools/grade_kernel.py,
only for the values of the names the exercises' answer cells define (answer_w_shape, make_mask, WindowCache, ...):
numbers, shapes and tensors come as data; a function or class comes as a proxy whose calls send the judge's
inputs to the kernel and bring the outputs back as data. Then the book's own check cell, check("chNN-ex-..."),
runs here, with the book's check() helper and the chapter's checks module (book/chapters/checks/chNN.py, as the
notebook's set-up cell holds them), in a copy of that namespace holding those answers; what check() says
(correct, not yet and the hint it chose, no answer yet, an error) is the result. A check that passed runs once
more with its seeds mixed with this run's SECRET (tools/grade.py), on inputs no notebook shows. So nothing the
submission prints or patches in its kernel (print, torch.allclose, IPython's input transformers, its own check(),
its check cells) counts, and the grade and its hint always agree."""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import io
import re
import secrets
import symtable
import threading
from dataclasses import dataclass
from pathlib import Path

from tools.grade_kernel import Endpoint, WireError
from tools.source import LANGS, Chapter, checks_code, exercise_helper, registered_checks

LABEL = re.compile(r"check\(\s*[\"'](ch\d\d-ex-[\w-]+)[\"']")

# What the book's check() prints (book/chapters/_exercise_helper.py), in both languages
SAID = {
    "correct": ("✅",),
    "not yet": ("❌",),
    "paused": ("⏸️",),
    "hint": ("힌트: ", "Hint: "),
    "error": ("(확인하다가 난 오류: ", "(error while checking: "),
    "unanswered": ("아직 답이 없습니다", "No answer yet"),
}

# the set-up cell, in the judge: no IPython, no figures shown, a deliberate error swallowed
PRELUDE = '''
import matplotlib
matplotlib.use("agg")
import matplotlib.pyplot as plt


class expect_error:
    def __init__(self, kind):
        self.kind = kind

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is None:
            raise AssertionError(f"expected {self.kind.__name__}, but the cell ran without an error")
        return issubclass(kind, self.kind)


def display(*args, **kwargs):
    pass


def get_ipython():
    return None


def explorer(*args, **kwargs):
    pass
'''
SKIPPED_FLAGS = {"setup", "explorer-helper", "widget", "solution", "student", "check"}

# one check at a time: the book's checks seed torch's global generator, which threads would share; released while
# a check waits for its kernel (unlocked)
LOCK = threading.RLock()
# this grading run's secret: each check runs again with its seeds mixed with it (grade.judge_submission), so that
# a function that stores the outputs of the notebook's own check inputs is not graded correct; drawn afresh for
# every run of the grader, never printed
SECRET = secrets.randbelow(2**31 - 1) + 1
# one ast.parse at a time: Python 3.11's conversion of a parsed tree to ast objects keeps its recursion depth in
# state the threads share, and two submissions' threads parsing at once failed with "SystemError: AST constructor
# recursion depth mismatch" (CPython gh-106905)
PARSE = threading.RLock()


@contextlib.contextmanager
def unlocked():
    """Around each wait of a check for its submission's kernel (Endpoint.waiting): the lock released, so that
    another submission's check runs meanwhile (a slow answer costs its own submission only), and this check's
    random state (torch's and Python's generators, which its own seed set) put back when it takes the lock again."""
    if not LOCK._is_owned():
        yield
        return
    import random

    import torch

    state = torch.get_rng_state(), random.getstate()
    saved = LOCK._release_save()
    try:
        yield
    finally:
        LOCK._acquire_restore(saved)
        torch.set_rng_state(state[0])
        random.setstate(state[1])


def _parse(code: str) -> ast.Module:
    with PARSE:
        return ast.parse(code)


class JudgeError(RuntimeError):
    """The chapter's own code failed in the judge: a fault of the book or the grader, not of a submission."""


@dataclass
class Exercise:
    label: str
    template: dict[str, str]
    check: dict[str, str]
    names: tuple[str, ...]  # what its answer cell defines
    module: Path  # the chapter's checks (book/chapters/checks/chNN.py)


def defined_names(code: str) -> list[str]:
    """The names a cell binds at its top level (assignments, def, class), in order; [] if it does not parse."""
    return list(_defined_names(code))


# a cell's names are asked for again and again: for each exercise of each submission, every code cell of the
# notebook (the set-up cell's 1,700 lines among them), and the same cells in every submission of a class; parsed
# once per distinct source in a grading process
@functools.lru_cache(maxsize=4096)
def _defined_names(code: str) -> tuple[str, ...]:
    try:
        tree = _parse(_without_magics(code))
    except SyntaxError:
        return ()
    return _top_level_names(tree)


def _top_level_names(tree: ast.Module) -> tuple[str, ...]:
    names: list[str] = []

    def targets(node):
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for element in node.elts:
                targets(element)
        elif isinstance(node, ast.Starred):
            targets(node.value)

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                targets(target)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets(node.target)
    return tuple(dict.fromkeys(names))


def _base(node) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def touched_names(tree: ast.Module) -> set[str]:
    """The names a cell may change without binding them: `x.attr = ...`, `x[i] = ...`, `x.method(...)` as a
    statement, and what a decorator is given (`@add_method(MultiHeadAttention)`)."""
    found = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                found |= {n.id for n in ast.walk(decorator) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, (ast.Attribute, ast.Subscript)):
                    found.add(_base(target))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
                isinstance(node.value.func, ast.Attribute):
            found.add(_base(node.value.func))
    return found - {None}


def bound_and_used(code: str) -> tuple[set[str], set[str]]:
    """The names a cell binds at its top level (imports, loops and with-blocks included) or may change (see
    touched_names; module names aside), and every name it reads anywhere (function bodies included)."""
    bound, used = _bound_and_used(code)
    return set(bound), set(used)


@functools.lru_cache(maxsize=1024)  # the same cells for each chapter and language the judge builds
def _bound_and_used(code: str) -> tuple[frozenset[str], frozenset[str]]:
    tree = _parse(_without_magics(code))
    modules = {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
               for a in n.names} if "import" in code else set()  # no import without the word: most cells walk no tree
    bound, used = set(_top_level_names(tree)), set()
    bound |= touched_names(tree) - modules - {"torch", "np", "nn", "F", "math", "plt", "print"}
    for node in tree.body:
        for sub in ast.walk(node) if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) else ():
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                break
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                bound.add(sub.id)
            elif isinstance(sub, ast.alias):
                bound.add((sub.asname or sub.name).split(".")[0])
    with PARSE:
        tables = [symtable.symtable(_without_magics(code), "<cell>", "exec")]
    while tables:
        table = tables.pop()
        tables.extend(table.get_children())
        for symbol in table.get_symbols():
            if symbol.is_referenced() and (symbol.is_global() or table.get_type() == "module"):
                used.add(symbol.get_name())
    return frozenset(bound), frozenset(used)


def _without_magics(code: str) -> str:
    return re.sub(r"^(\s*)([%!])", r"\1#\2", code, flags=re.MULTILINE)


def exercises_of(chapter: Chapter) -> list[Exercise]:
    cells = chapter.cells
    found = []
    for i, cell in enumerate(cells):
        if "check" not in cell.flags:
            continue
        label = LABEL.search(cell.text("en"))
        if not label:
            raise JudgeError(f"{chapter.path.name}:{cell.line}: a check cell without check(\"chNN-ex-...\")")
        student = next(c for c in reversed(cells[:i]) if "student" in c.flags)
        found.append(Exercise(label[1], {lang: student.text(lang) for lang in LANGS},
                              {lang: cell.text(lang) for lang in LANGS}, tuple(defined_names(student.text("en"))),
                              chapter.checks_path))
    return found


def needed_cells(chapter: Chapter, lang: str, also: frozenset[str] = frozenset()) -> list:
    """The chapter's code cells the checks need, in order: walking back from the check cells (and the check
    helper), each cell that binds a name still needed, and then what that cell reads. Cells that only draw,
    measure or wire an explorer, and whose names no check reads, are left out (they would only cost time)."""
    needed = set(also)
    if chapter.has_checks():
        # what the chapter's checks read: their parameters (the notebook's names), and the globals they use
        for names in registered_checks(chapter.checks_path).values():
            needed |= set(names)
        needed |= bound_and_used(checks_code(chapter.checks_path, lang))[1]
    needed |= bound_and_used(exercise_helper(lang))[1]
    chosen = []
    for cell in reversed(chapter.cells):
        if cell.kind != "code" or SKIPPED_FLAGS & set(cell.flags):
            continue
        try:
            bound, used = bound_and_used(cell.text(lang))
        except SyntaxError as e:
            raise JudgeError(f"{chapter.path.name}:{cell.line}: {e}") from None
        if bound & needed:
            chosen.append(cell)
            needed |= used
    return chosen[::-1]


_namespaces: dict[tuple, dict] = {}
# the key under which a namespace keeps the gradient-tracking switch the chapter's code left
GRAD = "__book_grad_enabled__"


def namespace(chapter: Chapter, lang: str) -> dict:
    """The chapter's own code run in a fresh namespace of the judge (once per chapter and language)."""
    key = (str(chapter.path), chapter.path.stat().st_mtime_ns, lang)
    with LOCK:
        if key in _namespaces:
            return _namespaces[key]
        import torch

        ns: dict = {"__name__": "__book_judge__", "__builtins__": builtins}
        sink = io.StringIO()
        # gradient tracking is a per-thread switch, and a chapter may turn it off for good (chapter 8's imports):
        # what the chapter left is kept with its namespace and set around each check (run_check), whichever
        # thread runs it, and this thread's own switch is put back
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), torch.enable_grad():
            exec(compile(PRELUDE, "<judge prelude>", "exec"), ns)
            for cell in needed_cells(chapter, lang):
                code = cell.text(lang)
                try:
                    exec(compile(_without_magics(code), f"{chapter.path.name}:{cell.line}", "exec"), ns)
                except Exception as e:
                    raise JudgeError(f"the chapter's own code failed in the judge at {chapter.path.name}:{cell.line}: "
                                     f"{type(e).__name__}: {e}") from e
                finally:
                    ns["plt"].close("all")
            ns[GRAD] = torch.is_grad_enabled()
        _namespaces[key] = ns
        return ns


def fetch(end: Endpoint, names: list[str]) -> tuple[dict, dict]:
    """The values of names in the kernel: ({name: value or proxy}, {name: why it is missing})."""
    values, missing = {}, {}
    for name in names:
        try:
            values[name] = end.request({"op": "get", "name": name})
        except NameError:
            missing[name] = "undefined"
        except WireError:
            raise
        except Exception as e:  # a value that cannot cross: judged as if the name were missing, with the reason
            missing[name] = f"{type(e).__name__}: {e}"
    return values, missing


def run_check(base: dict, exercise: Exercise, lang: str, answers: dict, all_names: set[str], secret: int = 0) -> str:
    """The book's check of one exercise in a copy of the chapter's namespace holding the answers; what it said.
    With a secret, the check draws its inputs from seeds mixed with it (check_seed, check_generator): inputs that no
    notebook shows."""
    said = io.StringIO()

    def captured(*args, sep=" ", end="\n", file=None, flush=False):
        said.write(sep.join(str(a) for a in args) + end)

    import torch

    ns = {k: v for k, v in base.items() if k not in all_names and k != GRAD}
    ns.update(answers)
    ns["print"] = captured
    with LOCK, torch.set_grad_enabled(base.get(GRAD, True)):
        for code in checks_compiled(exercise.module, lang):
            exec(code, ns)
        ns["print"] = captured
        ns["CHECK_SECRET"] = secret
        exec(compile(exercise.check[lang], f"<check {exercise.label}>", "exec"), ns)
    return said.getvalue()


@functools.lru_cache(maxsize=64)
def _compiled(path: str, mtime_ns: int, lang: str):
    helper = compile(exercise_helper(lang), "<book check helper>", "exec")
    checks = compile(checks_code(Path(path), lang), f"<book checks {Path(path).name}>", "exec")
    return helper, checks


def checks_compiled(path, lang: str) -> tuple:
    """The book's check helper and the chapter's checks (as the set-up cell holds them), compiled once per file
    version and language, to run in that order in a namespace."""
    return _compiled(str(path), path.stat().st_mtime_ns, lang)


def verdict(said: str) -> tuple[str, str, str | None]:
    """(result, detail, missing name) from what the book's check() said."""
    if said.startswith(SAID["correct"]):
        return "correct", "", None
    if said.startswith(SAID["paused"]):
        name = re.search(r"`([^`]+)`", said)
        return "paused", "", name[1] if name else "?"
    if said.startswith(SAID["not yet"]):
        first, *rest = said.splitlines()
        hint = next((first.split(h, 1)[1] for h in SAID["hint"] if h in first), first).strip()
        error = next((line.strip() for line in rest if line.strip().startswith(SAID["error"])), None)
        if any(u in said for u in SAID["unanswered"]):
            return "not attempted", hint, None
        if error:
            return "error", error.strip("() ").split(": ", 1)[-1], None
        return "not yet", hint, None
    return "error", said.strip() or "the check said nothing", None
