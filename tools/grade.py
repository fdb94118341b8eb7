"""Grade a folder of students' notebooks for one chapter: python -m tools.grade CHAPTER SUBMISSIONS [options]
(or make grade CHAPTER=03 SUBMISSIONS=path/to/folder).

Each .ipynb in the folder (not its subfolders) runs top to bottom as Colab's Run all would: alone in a fresh
temporary folder that is also its home, in a kernel of its own process with a time limit per cell and in all, a
memory limit, and no network where the system allows it (a network namespace: `unshare --net`). Every exercise
is then judged with the book's own check, taken from the chapter's source and run in place of the submission's
check cell (a student can edit or delete those), after the book's check() helper is defined again.

Each exercise gets one result: correct; not yet (with the hint the student saw); not attempted (the answer cell
is the template unchanged); error (the check met an error: its type and message); did not run (an earlier cell
failed or ran out of time: which). A file that cannot be graded at all gets one row, invalid, saying why: not a
notebook, broken JSON, another chapter, the full notebook with solutions instead of the student one. A
notebook in the other language is graded in its language.

Written to OUT (default: SUBMISSIONS/graded/): grades.csv (one row per submission and exercise), totals.csv (one
row per submission), feedback/<file>.md (one per submission, in its language, to hand back); a summary is
printed at the end: per exercise, how many got it right and the most common hint.

Student code runs on your machine. The limits protect against the usual accidents (a loop that never ends, a
tensor that fills memory, a cell that writes files or reaches the network); they are not a security boundary
against a student who sets out to attack the machine: run it in a container for that (book/*/instructor.md)."""

from __future__ import annotations

import argparse
import collections
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from tools.source import LANGS, ROOT, Chapter, SourceError, chapters, exercise_helper, find, parse

RESULTS = ("correct", "not yet", "not attempted", "error", "did not run", "invalid")
COLUMNS = ("file", "student", "chapter", "language", "exercise", "result", "detail")
TOTAL_COLUMNS = ("file", "student", "chapter", "language", "correct", "exercises", "not yet", "not attempted",
                 "error", "did not run", "invalid")
LABEL = re.compile(r"check\(\s*[\"'](ch\d\d-ex-[\w-]+)[\"']")
EXERCISE_LABEL = re.compile(r"\(`(ch\d\d-ex-[\w-]+)`\)")

# What the book's check() prints (book/chapters/_exercise_helper.py), in both languages
SAID = {
    "correct": ("✅",),
    "not yet": ("❌",),
    "paused": ("⏸️",),
    "hint": ("힌트: ", "Hint: "),
    "error": ("(확인하다가 난 오류: ", "(error while checking: "),
    "unanswered": ("아직 답이 없습니다", "No answer yet"),
}

WORDS = {
    "ko": {
        "correct": "정답", "not yet": "아직 아님", "not attempted": "풀지 않음", "error": "오류", "did not run": "실행되지 않음",
        "invalid": "채점할 수 없음", "title": "채점 결과: {chapter}", "score": "맞힌 문제: {n} / {of}",
        "exercise": "문제", "result": "결과", "detail": "설명",
        "stopped": "{cell}번 셀에서 멈췄습니다: {error}",
        "timeout": "{cell}번 셀: 제한 시간({limit:g}초) 안에 끝나지 않았습니다. 끝나지 않는 반복문이 있는지 보세요",
        "total": "노트북 전체가 제한 시간({limit:g}초) 안에 끝나지 않았습니다",
        "memory": "{cell}번 셀: 메모리 한도({mb} MiB)를 넘었습니다. {error}",
        "kernel died": "{cell}번 셀에서 커널이 멈췄습니다(메모리 한도 {mb} MiB를 넘었을 수 있습니다)",
        "paused": "확인에 필요한 이름이 없습니다: {name} (그 이름을 만드는 셀이 지워졌거나 실행되지 않았습니다)",
        "template": "답 칸이 처음 그대로입니다", "no output": "출력 없음",
    },
    "en": {
        "correct": "correct", "not yet": "not yet", "not attempted": "not attempted", "error": "error",
        "did not run": "did not run", "invalid": "invalid", "title": "{chapter}: your results",
        "score": "Correct: {n} of {of}", "exercise": "exercise", "result": "result", "detail": "detail",
        "stopped": "stopped at cell {cell}: {error}",
        "timeout": "cell {cell} did not finish within the time limit ({limit:g} s): look for a loop that never ends",
        "total": "the notebook did not finish within the time limit ({limit:g} s in all)",
        "memory": "cell {cell} went over the memory limit ({mb} MiB): {error}",
        "kernel died": "the kernel stopped at cell {cell} (it may have gone over the memory limit of {mb} MiB)",
        "paused": "a name the check needs is missing: {name} (the cell that makes it was deleted or did not run)",
        "template": "the answer cell is the template, unchanged", "no output": "no output",
    },
}
INVALID = {
    "ko": {
        "not a notebook": "노트북(.ipynb)이 아닙니다. Colab에서 파일 → 다운로드 → .ipynb로 받은 파일을 내야 합니다",
        "json": "노트북 파일이 망가졌습니다(JSON 오류: {error}). 파일을 다시 내려받아 내야 합니다",
        "format": "노트북 형식이 아닙니다({error})",
        "unknown": "이 책의 노트북이 아닙니다(제목도 연습 문제 이름도 없습니다)",
        "other chapter": "{found}장의 노트북입니다. {want}장의 노트북을 내야 합니다",
        "full": "풀이가 들어 있는 노트북입니다(학생용이 아닌 전체 노트북). 학생용 노트북에 답을 써서 내야 합니다",
        "empty": "빈 파일입니다",
    },
    "en": {
        "not a notebook": "not a notebook (.ipynb): submit the file from Colab's File → Download → .ipynb",
        "json": "the notebook file is damaged (JSON error: {error}): download it again and resubmit",
        "format": "not a notebook ({error})",
        "unknown": "not one of this book's notebooks (neither its title nor its exercise names are there)",
        "other chapter": "this is chapter {found}'s notebook; chapter {want}'s was asked for",
        "full": "this is the full notebook with the solutions, not the student notebook: answers go in the student one",
        "empty": "the file is empty",
    },
}


class GradeError(Exception):
    """Bad arguments: the message says what was wrong and how to fix it."""


@dataclass
class Exercise:
    label: str
    template: dict[str, str]
    check: dict[str, str]


@dataclass
class Limits:
    cell_seconds: float = 60.0
    total_seconds: float = 300.0
    memory_mb: int = 2048
    network: bool = False  # True when no network namespace could be made


@dataclass
class Graded:
    path: Path
    student: str
    language: str = ""
    rows: list[dict] = field(default_factory=list)
    seconds: float = 0.0


def exercises_of(chapter: Chapter) -> list[Exercise]:
    cells = chapter.cells
    found = []
    for i, cell in enumerate(cells):
        if "check" not in cell.flags:
            continue
        text = cell.text("en")
        label = LABEL.search(text)
        student = next(c for c in reversed(cells[:i]) if "student" in c.flags)
        found.append(Exercise(label[1], {lang: student.text(lang) for lang in LANGS},
                              {lang: cell.text(lang) for lang in LANGS}))
    return found


def student_name(path: Path, stem: str) -> str:
    name = path.stem
    name = re.sub(r"(?i)^(copy of|사본 -|복사본 -)\s*", "", name)
    name = re.sub(re.escape(stem), " ", name)
    name = re.sub(r"\(\d+\)|\bstudent\b|\bnotebook\b", " ", name, flags=re.I)
    name = re.sub(r"[\s_\-.]+", " ", name).strip()
    return name or path.stem


def _normal(code: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"#[^\n]*", "", code)).strip()


def identify(nb, want: Chapter, titles: dict) -> tuple[str | None, str | None]:
    """(language, None) for a notebook of the chapter asked for; (None, reason key and detail) otherwise."""
    text = "\n".join(c.source for c in nb.cells)
    heading = next((line[2:].strip() for c in nb.cells if c.cell_type == "markdown"
                    for line in c.source.splitlines() if line.startswith("# ")), "")
    for (stem, lang), title in titles.items():
        if heading == title:
            if stem != want.stem:
                return None, ("other chapter", stem)
            return lang, None
    labels = set(EXERCISE_LABEL.findall(text)) | set(LABEL.findall(text))
    numbers = {label[2:4] for label in labels}
    if numbers and want.stem[:2] not in numbers:
        return None, ("other chapter", sorted(numbers)[0])
    if not numbers:
        return None, ("unknown", "")
    language = nb.metadata.get("book", {}).get("language")
    if language not in LANGS:
        language = "ko" if re.search(r"[가-힣]", text) else "en"
    return language, None


def is_full_notebook(nb, exercises: list[Exercise], lang: str) -> bool:
    tags = {t for c in nb.cells for t in c.metadata.get("tags", [])}
    if "exercise-solution" in tags:
        return True
    templates = {_normal(e.template[lang]) for e in exercises}
    return not any(_normal(c.source) in templates for c in nb.cells if c.cell_type == "code") and any(
        "{solution}" in c.source or "class: dropdown" in c.source for c in nb.cells)


def prepare(nb, exercises: list[Exercise], lang: str) -> tuple[nbformat.NotebookNode, dict, dict]:
    """The notebook to run: the submission's cells, with each check cell replaced by the book's check helper and
    the book's check for its exercise; checks deleted from the submission are appended at the end.
    Returns it, {label: index of its check cell}, {label: index of the answer cell before it, or None}."""
    helper = exercise_helper(lang)
    by_label = {e.label: e for e in exercises}
    cells, checks, answers = [], {}, {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            cells.append(nbformat.v4.new_markdown_cell(cell.source) if cell.cell_type == "markdown"
                         else nbformat.v4.new_raw_cell(cell.source))
            continue
        found = LABEL.search(cell.source)
        tags = cell.metadata.get("tags", [])
        label = found[1] if found else None
        if label in by_label and label not in checks and ("exercise-check" in tags or "def test" in cell.source):
            checks[label] = len(cells)
            previous = next((i for i in range(len(cells) - 1, -1, -1) if cells[i].cell_type == "code"), None)
            answers[label] = previous
            cells.append(nbformat.v4.new_code_cell(f"{helper}\n\n\n{by_label[label].check[lang]}"))
        else:
            cells.append(nbformat.v4.new_code_cell(cell.source))
    for exercise in exercises:
        if exercise.label not in checks:
            checks[exercise.label] = len(cells)
            template = _normal(exercise.template[lang])
            answers[exercise.label] = next((i for i, c in enumerate(cells)
                                            if c.cell_type == "code" and _normal(c.source) == template), None)
            cells.append(nbformat.v4.new_code_cell(f"{helper}\n\n\n{exercise.check[lang]}"))
    out = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "language": "python",
                                                                          "display_name": "Python 3"}})
    return out, checks, answers


def _kernel_spec(folder: Path, isolate_network: bool) -> None:
    argv = [sys.executable, "-m", "tools.grade_kernel", "-f", "{connection_file}"]
    if isolate_network:
        argv = ["unshare", "--net", "--map-root-user", *argv]
    spec = folder / "kernels" / "book-graded"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "graded submission",
                                                  "language": "python"}), encoding="utf-8")


def network_isolation() -> bool:
    """Whether this system lets an unprivileged process make a network namespace of its own."""
    if not shutil.which("unshare"):
        return False
    try:
        return subprocess.run(["unshare", "--net", "--map-root-user", "true"], capture_output=True,
                              timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def run(nb, limits: Limits, spec_dir: Path) -> tuple[nbformat.NotebookNode, int | None, str | None]:
    """Run all cells in order, stopping at the first that fails, as Colab's Run all does.
    Returns the notebook, the index of the cell that stopped the run (or None), and why (a words key, detail)."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
    from traitlets.config import Config

    from tools.notebooks import wait_in_slices

    work = Path(tempfile.mkdtemp(prefix="book-grade-"))
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), "JUPYTER_PATH": str(spec_dir),
           "BOOK_GRADE_MEMORY_MB": str(limits.memory_mb), "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
           "MPLBACKEND": "agg", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
    client = NotebookClient(nb, config=Config({"KernelManager": {"transport": "ipc", "ip": str(work / "kernel")}}),
                            timeout=limits.cell_seconds, kernel_name="book-graded", allow_errors=False,
                            shutdown_kernel="immediate", resources={"metadata": {"path": str(work)}})
    start = time.monotonic()
    stopped, why = None, None
    previous = os.environ.get("JUPYTER_PATH")
    try:
        os.environ["JUPYTER_PATH"] = str(spec_dir)  # where the client finds the kernel spec
        with client.setup_kernel(env=env):
            wait_in_slices(client)
            for index, cell in enumerate(client.nb.cells):
                if cell.cell_type != "code":
                    continue
                left = limits.total_seconds - (time.monotonic() - start)
                if left <= 0:
                    stopped, why = index, ("total", "")
                    break
                client.timeout = min(limits.cell_seconds, left)
                try:
                    client.execute_cell(cell, index)
                except CellTimeoutError:
                    total = client.timeout < limits.cell_seconds
                    stopped, why = index, ("total" if total else "timeout", "")
                    break
                except DeadKernelError:
                    stopped, why = index, ("kernel died", "")
                    break
                except CellExecutionError as e:
                    error = f"{e.ename}: {_plain(e.evalue)}"[:300]
                    memory = e.ename == "MemoryError" or "can't allocate memory" in e.evalue
                    stopped, why = index, ("memory" if memory else "stopped", error)
                    break
    except Exception as e:  # a kernel that would not start, a client error: the whole submission did not run
        stopped, why = -1, ("stopped", f"{type(e).__name__}: {e}"[:300])
    finally:
        if previous is None:
            os.environ.pop("JUPYTER_PATH", None)
        else:
            os.environ["JUPYTER_PATH"] = previous
        shutil.rmtree(work, ignore_errors=True)
    return client.nb, stopped, why


def _where(cells, index: int) -> str:
    """A cell as a student finds it: its place among the notebook's cells and its first line."""
    first = next((line.strip() for line in cells[index].source.splitlines() if line.strip()), "")
    first = first if len(first) <= 40 else first[:39] + "…"
    return f"{index + 1} (`{first}`)"


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", str(text))


def _said(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def judge(ran, checks: dict, answers: dict, exercises: list[Exercise], lang: str, stopped, why, limits) -> list:
    words = WORDS[lang]
    results = []
    for exercise in exercises:
        index = checks[exercise.label]
        if stopped is not None and (stopped == -1 or index >= stopped):
            key, error = why
            cell = "?" if stopped == -1 else _where(ran.cells, stopped)
            detail = words[key].format(cell=cell, error=error, limit=limits.total_seconds if key == "total"
                                       else limits.cell_seconds, mb=limits.memory_mb)
            results.append((exercise.label, "did not run", detail))
            continue
        said = _said(ran.cells[index])
        answer = answers.get(exercise.label)
        untouched = answer is not None and _normal(ran.cells[answer].source) == _normal(exercise.template[lang])
        if said.startswith(SAID["correct"]):
            results.append((exercise.label, "correct", ""))
        elif untouched:
            results.append((exercise.label, "not attempted", words["template"]))
        elif said.startswith(SAID["paused"]):
            name = re.search(r"`([^`]+)`", said)
            results.append((exercise.label, "error", words["paused"].format(name=name[1] if name else "?")))
        elif said.startswith(SAID["not yet"]):
            first, *rest = said.splitlines()
            hint = next((first.split(h, 1)[1] for h in SAID["hint"] if h in first), first)
            error = next((line.strip() for line in rest if line.strip().startswith(SAID["error"])), None)
            if any(u in said for u in SAID["unanswered"]):
                results.append((exercise.label, "not attempted", hint.strip()))
            elif error:
                results.append((exercise.label, "error", error.strip("() ").split(": ", 1)[-1]))
            else:
                results.append((exercise.label, "not yet", hint.strip()))
        else:
            results.append((exercise.label, "error", (said.strip() or words["no output"])[:300]))
    return results


def grade_one(path: Path, chapter: Chapter, exercises: list[Exercise], titles: dict, limits: Limits,
              spec_dir: Path, lang_out: str) -> Graded:
    start = time.monotonic()
    graded = Graded(path, student_name(path, chapter.stem))

    def invalid(key: str, lang: str = lang_out, **kw) -> Graded:
        graded.rows = [{"exercise": "", "result": "invalid", "detail": INVALID[lang][key].format(**kw)}]
        graded.seconds = time.monotonic() - start
        return graded

    if path.suffix.lower() != ".ipynb":
        return invalid("not a notebook")
    raw = path.read_bytes()
    if not raw.strip():
        return invalid("empty")
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except json.JSONDecodeError as e:
        return invalid("json", error=f"line {e.lineno}, column {e.colno}: {e.msg}")
    try:
        nb = nbformat.from_dict(data)
        nbformat.validate(nb)
    except Exception as e:  # nbformat raises several kinds of validation errors
        message = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
        return invalid("format", error=message)
    lang, problem = identify(nb, chapter, titles)
    if problem:
        key, found = problem
        return invalid(key, found=int(found[:2]) if found else "", want=int(chapter.stem[:2]))
    graded.language = lang
    if is_full_notebook(nb, exercises, lang):
        return invalid("full")
    prepared, checks, answers = prepare(nb, exercises, lang)
    ran, stopped, why = run(prepared, limits, spec_dir)
    for label, result, detail in judge(ran, checks, answers, exercises, lang, stopped, why, limits):
        graded.rows.append({"exercise": label, "result": result, "detail": detail})
    graded.seconds = time.monotonic() - start
    return graded


def feedback(graded: Graded, chapter: Chapter, lang: str) -> str:
    words = WORDS[lang]
    title = words["title"].format(chapter=chapter.title(lang))
    lines = [f"# {title}", "", f"{graded.student} · `{graded.path.name}`", ""]
    exercises = [r for r in graded.rows if r["result"] != "invalid"]
    if not exercises:
        return "\n".join([*lines, f"**{words['invalid']}**: {graded.rows[0]['detail']}", ""])
    correct = sum(r["result"] == "correct" for r in exercises)
    lines += [words["score"].format(n=correct, of=len(exercises)), "",
              f"| {words['exercise']} | {words['result']} | {words['detail']} |", "| --- | --- | --- |"]
    for r in exercises:
        mark = "✅" if r["result"] == "correct" else "❌"
        detail = r["detail"].replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{r['exercise']}` | {mark} {words[r['result']]} | {detail} |")
    return "\n".join([*lines, ""])


def write_outputs(results: list[Graded], chapter: Chapter, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    (out / "feedback").mkdir(exist_ok=True)
    grades, totals = out / "grades.csv", out / "totals.csv"
    number = int(chapter.stem[:2])
    with grades.open("w", newline="", encoding="utf-8-sig") as g, totals.open("w", newline="", encoding="utf-8-sig") as t:
        rows, sums = csv.DictWriter(g, COLUMNS), csv.DictWriter(t, TOTAL_COLUMNS)
        rows.writeheader()
        sums.writeheader()
        for graded in sorted(results, key=lambda r: r.path.name):
            base = {"file": graded.path.name, "student": graded.student, "chapter": number, "language": graded.language}
            for r in graded.rows:
                rows.writerow({**base, **r})
            counts = collections.Counter(r["result"] for r in graded.rows)
            sums.writerow({**base, "exercises": sum(r["result"] != "invalid" for r in graded.rows),
                           **{k: counts.get(k, 0) for k in RESULTS}})
            lang = graded.language or "en"
            name = re.sub(r"[^\w.-]+", "_", graded.path.stem, flags=re.UNICODE).strip("_") or "submission"
            (out / "feedback" / f"{name}.md").write_text(feedback(graded, chapter, lang), encoding="utf-8")
    return grades, totals


def summary(results: list[Graded], exercises: list[Exercise], lang: str) -> str:
    words = WORDS[lang]
    graded = [r for r in results if not any(x["result"] == "invalid" for x in r.rows)]
    invalid = len(results) - len(graded)
    head = (f"{len(results)}개 제출 가운데 채점 {len(graded)}개, 채점할 수 없음 {invalid}개" if lang == "ko"
            else f"{len(results)} submissions: {len(graded)} graded, {invalid} invalid")
    lines = [head]
    for exercise in exercises:
        rows = [x for r in graded for x in r.rows if x["exercise"] == exercise.label]
        right = sum(x["result"] == "correct" for x in rows)
        hints = collections.Counter(x["detail"] for x in rows if x["result"] == "not yet")
        common = hints.most_common(1)
        line = f"  {exercise.label}: {right}/{len(rows)} {words['correct']}"
        if common:
            label = "가장 흔한 힌트" if lang == "ko" else "most common hint"
            line += f"{', ' if lang == 'ko' else '; '}{label} ({common[0][1]}): {common[0][0]}"
        lines.append(line)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.grade", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chapter", help="the chapter assigned: 3, 03 or 03_split_vs_chunk")
    parser.add_argument("submissions", type=Path, help="the folder of submitted .ipynb files")
    parser.add_argument("--out", type=Path, help="where to write (default: SUBMISSIONS/graded)")
    parser.add_argument("--lang", choices=LANGS, default="en", help="the language of the summary and of the CSV's details")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="submissions run at once (default: the cores)")
    parser.add_argument("--cell-timeout", type=float, default=Limits.cell_seconds, help="seconds per cell (default 60)")
    parser.add_argument("--timeout", type=float, default=Limits.total_seconds, help="seconds per submission (default 300)")
    parser.add_argument("--memory", type=int, default=Limits.memory_mb, help="MiB of memory per submission (default 2048)")
    args = parser.parse_args(argv)
    import logging

    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # a timed-out kernel's pending reads, at exit
    try:
        results, out = grade(args)
    except GradeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0 if results is not None else 1


def grade(args) -> tuple[list[Graded], Path]:
    try:
        chapter = parse(find(str(args.chapter)))
    except SourceError as e:
        raise GradeError(str(e)) from None
    exercises = exercises_of(chapter)
    if not exercises:
        raise GradeError(f"chapter {args.chapter} has no exercises to grade")
    folder = args.submissions
    if not folder.is_dir():
        raise GradeError(f"{folder} is not a folder: give the folder that holds the submitted .ipynb files")
    if args.jobs < 1 or args.cell_timeout <= 0 or args.timeout <= 0 or args.memory < 256:
        raise GradeError("--jobs takes 1 or more, the timeouts more than 0 seconds, --memory at least 256 MiB")
    out = args.out or folder / "graded"
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise GradeError(f"{folder} holds no files to grade")
    titles = {(c.stem, lang): c.title(lang) for c in map(parse, chapters()) for lang in LANGS}
    isolate = network_isolation()
    limits = Limits(args.cell_timeout, args.timeout, args.memory, network=not isolate)
    shown = "no network (a network namespace of its own)" if isolate else "network NOT isolated (unshare is not allowed here)"
    print(f"grading {len(files)} files of chapter {chapter.stem}, {args.jobs} at a time; per submission: "
          f"{limits.cell_seconds:g} s per cell, {limits.total_seconds:g} s in all, {limits.memory_mb} MiB, {shown}",
          file=sys.stderr)
    spec_dir = Path(tempfile.mkdtemp(prefix="book-grade-spec-"))
    _kernel_spec(spec_dir, isolate)
    start, results = time.monotonic(), []
    try:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            jobs = {pool.submit(grade_one, f, chapter, exercises, titles, limits, spec_dir, args.lang): f for f in files}
            for done in as_completed(jobs):
                try:
                    graded = done.result()
                except Exception as e:  # a bug of the grader itself must not lose the other submissions
                    graded = Graded(jobs[done], student_name(jobs[done], chapter.stem),
                                    rows=[{"exercise": "", "result": "invalid", "detail": f"grader error: {type(e).__name__}: {e}"}])
                results.append(graded)
                elapsed = time.monotonic() - start
                left = elapsed / len(results) * (len(files) - len(results))
                right = sum(r["result"] == "correct" for r in graded.rows)
                print(f"[{len(results)}/{len(files)}] {graded.path.name}: {right}/{len(exercises)} correct · "
                      f"{elapsed:.0f} s, about {left:.0f} s left", file=sys.stderr)
    finally:
        shutil.rmtree(spec_dir, ignore_errors=True)
    grades, totals = write_outputs(results, chapter, out)
    print(summary(results, exercises, args.lang))
    print(f"wrote {grades}, {totals} and {len(results)} feedback files in {out / 'feedback'} "
          f"({time.monotonic() - start:.0f} s)")
    return results, out


if __name__ == "__main__":
    sys.exit(main())
