"""Grade a folder of students' notebooks for one chapter: python -m tools.grade CHAPTER SUBMISSIONS [options]
(or make grade CHAPTER=03 SUBMISSIONS=path/to/folder).

The folder is read as an LMS download leaves it: .ipynb files, subfolders (one per student, as Moodle's
`Name_12345_assignsubmission_file_/`; every file in them is read), zips (unpacked with limits, never outside their folder), Canvas's
`name_12345_67890_file.ipynb` names. Names are NFC-normalised; the same student twice and "Copy of ..." files are
flagged in a column; every file keeps its own feedback file. Each notebook is read with nbformat's reader in any
form a front end saves (nbformat 4.0-4.5, sources as strings or lists of lines, with or without cell ids, Colab's
metadata and widget state).

Each submission's code cells run top to bottom as Colab's Run all would, in a kernel of their own inside a
bubblewrap sandbox (tools/grade_sandbox.py: the system read-only, a private empty home, no network, no view of
other files or processes), with a time limit per cell and in all and a memory limit. Then the judge
(tools/grade_judge.py), in this process, asks that kernel for the answers' values only, as data, and runs the
book's own check on them: nothing the submission prints or patches decides a result. Without bwrap the grader
refuses to run unless given --no-sandbox.

Each exercise gets one result: correct; not yet (with the check's hint); not attempted (the answer cell is the
template unchanged, or still None / ...); error (the check met an error in the answer: its type and message);
did not run (the run stopped before the answer: which cell, and why). A file that cannot be graded gets one row,
invalid, saying why: not a notebook, broken JSON, another chapter, the full notebook with solutions. A fault of
the grader itself on a file gets one row, grader error; the summary counts it and the command exits with 1.

Written to OUT (default: SUBMISSIONS/graded/): grades.csv (one row per submission and exercise, with points),
totals.csv (one row per submission), canvas.csv (Canvas gradebook import), moodle.csv (Moodle's grading worksheet),
feedback/<file>.md (one per submission, in its language, to hand back); a summary is printed at the end."""

from __future__ import annotations

import argparse
import collections
import csv
import os
import re
import shutil
import signal
import sys
import threading
import time
import unicodedata
import zipfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from tools import grade_judge, grade_run, grade_sandbox
from tools.grade_judge import LABEL, Exercise, defined_names
from tools.grade_kernel import PeerTimeout, WireError
from tools.grade_run import DETAIL_CHARS, Limits, Stop
from tools.source import LANGS, Chapter, SourceError, chapters, find, parse

RESULTS = ("correct", "not yet", "not attempted", "error", "did not run", "invalid", "grader error")
COLUMNS = ("file", "student", "lms_id", "late", "chapter", "language", "exercise", "result", "points", "detail", "flags")
TOTAL_COLUMNS = ("file", "student", "lms_id", "late", "chapter", "language", "points", "max_points", "correct", "exercises",
                 "not yet", "not attempted", "error", "did not run", "invalid", "grader error", "flags")
EXERCISE_LABEL = re.compile(r"\(`(ch\d\d-ex-[\w-]+)`\)")
ZIP_LIMITS = {"files": 200, "bytes": 200 * 2**20, "file bytes": 50 * 2**20}
MOODLE_FOLDER = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assign(?P<kind>submission|feedback)_(?P<plugin>[a-z]+)_?$")
# Moodle's "Download all submissions" without "in folders": Name_12345_assignsubmission_file_05_x.ipynb
MOODLE_FLAT = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assign(?P<kind>submission|feedback)_(?P<plugin>[a-z]+)_(?P<file>.+)$")
CANVAS_FILE = re.compile(r"^(?P<name>[^_]+)(?P<late>_LATE)?_(?P<id>\d+)_(?P<sub>\d+)_(?P<file>.+)$")
# moodle.csv's column names as Moodle's worksheet upload (mod/assign/feedback/offline/importgradeslib.php) looks them
# up, in the site's language: its language strings recordid and lastmodifiedgrade (mod_assign), grade (core),
# maxgrade (mod_assign), fullnameuser (core), pluginname (assignfeedback_comments), and hiddenuser (mod_assign), the
# Identifier's prefix (English 'Participant ', Korean '참가자'); chosen with --moodle-lang
MOODLE_COLUMNS = {
    "en": {"id": "Identifier", "name": "Full name", "grade": "Grade", "max": "Maximum Grade",
           "modified": "Last modified (grade)", "comments": "Feedback comments", "participant": "Participant "},
    "ko": {"id": "식별자", "name": "사용자 성명", "grade": "성적", "max": "최대 성적",
           "modified": "마지막 수정됨(성적)", "comments": "피드백 코멘트", "participant": "참가자"},
}
COPY = re.compile(r"(?i)^(copy of|사본 -|복사본 -|사본-)\s*|\s*\((?:\d+|copy)\)$|\s*-\s*(copy|복사본)$|\s*의\s*사본$")

WORDS = {
    "ko": {
        "correct": "정답", "not yet": "아직 아님", "not attempted": "풀지 않음", "error": "오류", "did not run": "실행되지 않음",
        "invalid": "채점할 수 없음", "grader error": "채점기 오류", "title": "채점 결과: {chapter}",
        "score": "맞힌 문제: {n} / {of}", "points": "점수: {p:g} / {of:g}",
        "exercise": "문제", "result": "결과", "detail": "설명",
        "stopped": "{cell_ko}에서 멈췄습니다: {error}",
        "timeout": "{cell_ko}: 제한 시간({limit:g}초) 안에 끝나지 않았습니다. 끝나지 않는 반복문이 있는지 보세요",
        "total": "노트북 전체가 제한 시간({limit:g}초) 안에 끝나지 않았습니다({cell_ko}에서 멈춤)",
        "memory": "{cell_ko}: 메모리 한도({mb} MiB)를 넘었습니다. {error}",
        "exited": "{cell_ko}에서 커널 프로세스가 끝났습니다(종료 코드 {code}). 코드가 파이썬을 끝냈습니다(os._exit, sys.exit 등)",
        "crashed": "{cell_ko}에서 커널이 비정상 종료했습니다({error}). 확장 모듈의 충돌입니다",
        "killed": "{cell_ko}에서 커널이 강제로 종료되었습니다(SIGKILL). 시스템의 메모리가 모자랐을 수 있습니다",
        "paused": "확인에 필요한 이름이 없습니다: {name} (그 이름을 만드는 셀이 지워졌거나 실행되지 않았습니다)",
        "template": "답 칸이 처음 그대로입니다",
        "unreadable": "답 {name}의 값을 채점기로 가져올 수 없습니다: {error}",
        "no answer": "노트북의 커널이 채점기의 질문에 답하지 않았습니다(IPython의 실행 방식을 바꾸었거나 커널이 멈췄습니다)",
        "slow": "답을 확인하는 동안 답의 코드가 제한 시간({limit:g}초) 안에 끝나지 않았습니다",
        "gone": "답을 확인하는 동안 커널이 끝났습니다",
        "no kernel": "노트북의 커널이 시작되지 않았습니다(채점기 쪽 문제입니다: {error})",
        "after slow": "앞 문제의 답이 끝나지 않아 확인하지 못했습니다",
        "late": "Canvas에 마감 뒤에 낸 제출물입니다(파일 이름의 _LATE)",
        "unseen": "노트북의 확인 입력에서는 맞지만, 이번 채점에서 새로 뽑은 입력에서는 틀립니다: {hint}",
    },
    "en": {
        "correct": "correct", "not yet": "not yet", "not attempted": "not attempted", "error": "error",
        "did not run": "did not run", "invalid": "invalid", "grader error": "grader error",
        "title": "{chapter}: your results", "score": "Correct: {n} of {of}", "points": "Points: {p:g} of {of:g}",
        "exercise": "exercise", "result": "result", "detail": "detail",
        "stopped": "stopped at cell {cell}: {error}",
        "timeout": "cell {cell} did not finish within the time limit ({limit:g} s): look for a loop that never ends",
        "total": "the notebook did not finish within the time limit ({limit:g} s in all; stopped at cell {cell})",
        "memory": "cell {cell} went over the memory limit ({mb} MiB): {error}",
        "exited": "the kernel process ended at cell {cell} (exit code {code}): the code ended Python "
                  "(os._exit, sys.exit and the like)",
        "crashed": "the kernel crashed at cell {cell} ({error}): an extension module failed",
        "killed": "the kernel was killed at cell {cell} (SIGKILL): the system may have run out of memory",
        "paused": "a name the check needs is missing: {name} (the cell that makes it was deleted or did not run)",
        "template": "the answer cell is the template, unchanged",
        "unreadable": "the answer {name} could not be read by the grader: {error}",
        "no answer": "the notebook's kernel did not answer the grader (IPython's machinery was changed, or the "
                     "kernel hung)",
        "slow": "while the check ran it, the answer's code did not finish within the time limit ({limit:g} s)",
        "gone": "the kernel ended while the check ran the answer",
        "no kernel": "the notebook's kernel did not start (a problem on the grader's side: {error})",
        "after slow": "not checked: an earlier answer did not finish",
        "late": "Canvas marked this submission late (_LATE in its file name)",
        "unseen": "right on the notebook's own check inputs, but not on inputs drawn for this grading: {hint}",
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
        "zip": "zip 파일을 풀 수 없습니다: {error}",
        "empty zip": "zip 파일 안에 노트북이 없습니다",
    },
    "en": {
        "not a notebook": "not a notebook (.ipynb): submit the file from Colab's File → Download → .ipynb",
        "json": "the notebook file is damaged (JSON error: {error}): download it again and resubmit",
        "format": "not a notebook ({error})",
        "unknown": "not one of this book's notebooks (neither its title nor its exercise names are there)",
        "other chapter": "this is chapter {found}'s notebook; chapter {want}'s was asked for",
        "full": "this is the full notebook with the solutions, not the student notebook: answers go in the student one",
        "empty": "the file is empty",
        "zip": "the zip file cannot be unpacked: {error}",
        "empty zip": "the zip file holds no notebook",
    },
}
FLAGS = {"twice": "same student twice", "copy": "a copy (\"Copy of ...\")"}


class GradeError(Exception):
    """Bad arguments: the message says what was wrong and how to fix it."""


@dataclass
class Submission:
    path: Path | None  # the file to read (unpacked from a zip if it came in one); None for a problem found early
    name: str  # as the instructor finds it: its path under the submissions folder, NFC
    student: str
    lms: str = ""  # "canvas" or "moodle" when the name carries that LMS's id
    lms_id: str = ""
    late: bool = False  # Canvas marked it late (_LATE in its name)
    flags: list[str] = field(default_factory=list)
    problem: tuple[str, dict] | None = None  # an INVALID key and its fields, when known before reading


@dataclass
class Graded:
    submission: Submission
    language: str = ""
    rows: list[dict] = field(default_factory=list)
    seconds: float = 0.0


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def student_name(name: str, stem: str) -> str:
    """The student's name in a file name: without "Copy of", the chapter's name, "(1)" and the like; the file's
    own name when nothing else is left (a notebook downloaded under the chapter's name)."""
    original = name = nfc(Path(name).stem)
    name = COPY.sub("", name)
    name = re.sub(re.escape(stem), " ", name)
    name = re.sub(r"\(\d+\)|\bstudent\b|\bnotebook\b", " ", name, flags=re.I)
    name = re.sub(r"[\s_\-.]+", " ", name).strip()
    return name or original


def _normal(code: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"#[^\n]*", "", code)).strip()


# -- the folder -----------------------------------------------------------------------------------------------

def _unzip(path: Path, into: Path) -> tuple[list[Path], str | None]:
    """The members of a zip, unpacked under into: no absolute paths, no '..', no links, within ZIP_LIMITS."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            if len(members) > ZIP_LIMITS["files"]:
                return [], f"{len(members)} files, more than {ZIP_LIMITS['files']}"
            if sum(m.file_size for m in members) > ZIP_LIMITS["bytes"]:
                return [], f"more than {ZIP_LIMITS['bytes'] // 2**20} MiB unpacked"
            found = []
            for member in members:
                parts = Path(member.filename.replace("\\", "/")).parts
                if member.filename.startswith(("/", "\\")) or ".." in parts or not parts or ":" in parts[0]:
                    return [], f"a member outside the zip's folder: {member.filename[:80]}"
                if (member.external_attr >> 16) & 0o170000 == 0o120000:
                    return [], f"a symbolic link: {member.filename[:80]}"
                if parts[0] == "__MACOSX" or parts[-1].startswith("."):
                    continue
                if member.file_size > ZIP_LIMITS["file bytes"]:
                    return [], f"{member.filename[:80]} is larger than {ZIP_LIMITS['file bytes'] // 2**20} MiB"
                target = into.joinpath(*[nfc(p) for p in parts])
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(member) as source, target.open("wb") as out:
                    copied = shutil.copyfileobj(source, out, 2**20) or out.tell()
                if copied > ZIP_LIMITS["file bytes"]:
                    return [], f"{member.filename[:80]} unpacks larger than it says"
                found.append(target)
            return sorted(found), None
    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as e:
        return [], f"{type(e).__name__}: {e}"


def _identify_lms(folder_name: str, file_name: str) -> tuple[str, str, str]:
    """(lms, id, student's name) from Moodle's folder or flat file name, or Canvas's file name; ('', '', '') if
    none."""
    moodle = (MOODLE_FOLDER.match(folder_name) if folder_name else None) or MOODLE_FLAT.match(Path(file_name).name)
    if moodle:
        return "moodle", moodle["id"], nfc(moodle["name"]).replace("_", " ").strip()
    canvas = CANVAS_FILE.match(Path(file_name).name)
    if canvas:
        return "canvas", canvas["id"], nfc(canvas["name"])
    return "", "", ""


def moodle_online_text(folder_name: str, file_name: str) -> bool:
    """Whether a file is what Moodle's online-text submission type saves (a folder ..._assignsubmission_onlinetext_/
    or a flat name ..._assignsubmission_onlinetext_onlinetext.html): the student's typed text, not a notebook."""
    for match in ((MOODLE_FOLDER.match(folder_name) if folder_name else None), MOODLE_FLAT.match(file_name)):
        if match and match["plugin"] == "onlinetext":
            return True
    return False


def collect(folder: Path, out: Path, stem: str, unpack: Path, ignored: list[str] | None = None) -> list[Submission]:
    """Every submission in the folder: files at the top, in its subfolders (one per student), and in zips.
    Moodle's online-text files are left out, their names added to ignored."""
    found: list[Submission] = []
    ignored = ignored if ignored is not None else []

    def add(path: Path, name: str, folder_name: str = "", problem=None) -> None:
        if moodle_online_text(folder_name, path.name):
            ignored.append(nfc(name))
            return
        lms, lms_id, lms_name = _identify_lms(folder_name, path.name)
        sub = Submission(path, nfc(name), lms_name or student_name(path.name if not folder_name else
                                                                   folder_name, stem),
                         lms, lms_id, problem=problem)
        if lms == "canvas":
            sub.late = bool(CANVAS_FILE.match(path.name)["late"])
        if COPY.search(nfc(path.stem)) or COPY.search(nfc(Path(name).stem)):
            sub.flags.append(FLAGS["copy"])
        found.append(sub)

    def visit(path: Path, name: str, folder_name: str = "") -> None:
        if path.suffix.lower() == ".zip":
            into = unpack / f"{len(found)}-{path.stem}"
            members, error = _unzip(path, into)
            notebooks = [m for m in members if m.suffix.lower() == ".ipynb"]
            if error or not notebooks:
                add(path, name, folder_name, problem=("zip", {"error": error}) if error else ("empty zip", {}))
                return
            for member in notebooks:
                add(member, f"{name}/{member.relative_to(into).as_posix()}", folder_name or path.stem)
            return
        add(path, name, folder_name)

    for path in sorted(folder.iterdir(), key=lambda p: nfc(p.name)):
        if path.name.startswith(".") or path.resolve() == out.resolve():
            continue
        if path.is_dir():
            if out.resolve().is_relative_to(path.resolve()):
                continue
            for inner in sorted(path.rglob("*"), key=lambda p: nfc(p.as_posix())):  # one student's folder
                parts = inner.relative_to(path).parts
                if inner.is_file() and not any(p.startswith(".") or p == "__MACOSX" for p in parts):
                    visit(inner, f"{nfc(path.name)}/{nfc('/'.join(parts))}", nfc(path.name))
        elif path.is_file():
            visit(path, nfc(path.name))
    # the same student twice: by LMS id where there is one, else by the name found
    keys = collections.Counter((s.lms, s.lms_id) if s.lms_id else ("", s.student.casefold()) for s in found)
    for sub in found:
        if keys[(sub.lms, sub.lms_id) if sub.lms_id else ("", sub.student.casefold())] > 1:
            sub.flags.append(FLAGS["twice"])
    return found


# -- one notebook ---------------------------------------------------------------------------------------------

class Unreadable(Exception):
    """A file that is not a notebook nbformat can read: an INVALID key and its detail."""

    def __init__(self, key: str, error: str):
        super().__init__(key, error)
        self.key, self.error = key, error


def read_notebook(raw: bytes) -> nbformat.NotebookNode:
    """A notebook as any front end saves it, read by nbformat's own reader and normalised: version 4, sources
    as strings (nbformat joins lists of lines), outputs and widget state dropped (they are not graded), cell ids
    added where the version needs them; then validated."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise Unreadable("format", f"not UTF-8 text: {e.reason}") from None
    try:
        nb = nbformat.reads(text, as_version=4)
    except nbformat.reader.NotJSONError:
        import json

        try:
            json.loads(text)
        except ValueError as j:
            raise Unreadable("json", f"line {j.lineno}, column {j.colno}: {j.msg}" if hasattr(j, "lineno")
                             else str(j)[:160]) from None
        raise Unreadable("format", "not a notebook's JSON") from None
    except (nbformat.ValidationError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise Unreadable("format", str(e).splitlines()[0][:160] if str(e) else type(e).__name__) from None
    if not isinstance(nb.get("cells"), list) or not isinstance(nb.get("metadata"), dict):
        raise Unreadable("format", "no list of cells")
    nb.metadata.pop("widgets", None)
    minor = nb.get("nbformat_minor", 0)
    for cell in nb.cells:
        if not isinstance(cell, dict):
            raise Unreadable("format", "a cell that is not a JSON object")
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
        if isinstance(cell.get("source"), list):  # nbformat joins them; a reader of another kind might not
            cell["source"] = "".join(map(str, cell["source"]))
        if minor >= 5 and not cell.get("id"):
            cell["id"] = nbformat.v4.nbbase.random_cell_id()
    _, nb = nbformat.validator.normalize(nb, 4, minor, strip_invalid_metadata=True)
    nb = nbformat.from_dict(nb)
    try:
        nbformat.validate(nb)
    except nbformat.ValidationError as e:
        raise Unreadable("format", str(e).splitlines()[0][:160]) from None
    return nb


def identify(nb, want: Chapter, titles: dict) -> tuple[str | None, tuple | None]:
    """(language, None) for a notebook of the chapter asked for; (None, (reason key, detail)) otherwise."""
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


def _where(cells, index: int) -> str:
    """A cell as a student finds it: its place among the notebook's cells and its first line."""
    if index < 0 or index >= len(cells):
        return "?"
    first = next((line.strip() for line in cells[index].source.splitlines() if line.strip()), "")
    first = first if len(first) <= 40 else first[:39] + "…"
    return f"{index + 1} (`{first}`)"


def _cap(text: str) -> str:
    text = str(text).replace("\r", " ")
    return text if len(text) <= DETAIL_CHARS else text[:DETAIL_CHARS - 1] + "…"


@dataclass
class Context:
    chapter: Chapter
    exercises: list[Exercise]
    titles: dict
    limits: Limits
    scratch: grade_run.Scratch
    lang_out: str
    points: dict[str, float]


def _where_ko(cells, index: int) -> str:
    """The same in Korean word order: «7번 셀(`for i in …`)»."""
    where = _where(cells, index)
    number, _, first = where.partition(" ")
    return f"{number}번 셀{first}" if first else f"{number}번 셀"


def _stopped(stop: Stop, cells, limits: Limits, words: dict) -> str:
    return words[stop.key].format(cell=_where(cells, stop.cell), cell_ko=_where_ko(cells, stop.cell), error=stop.error,
                                  code=stop.code, mb=limits.memory_mb,
                                  limit=limits.total_seconds if stop.key == "total" else limits.cell_seconds)


def judge_submission(session, stop: Stop | None, nb, exercises: list[Exercise], chapter: Chapter, lang: str,
                     limits: Limits, labels=None) -> list[tuple[str, str, str]]:
    """One (label, result, detail) per exercise (those of labels, if given): from the source where it decides
    (untouched, did not run), else from the book's check run in the judge on the values the kernel gives."""
    words = WORDS[lang]
    cells = nb.cells
    code = [(i, c) for i, c in enumerate(cells) if c.cell_type == "code"]
    all_names = sorted({n for e in exercises for n in e.names})
    if labels is not None:
        exercises = [e for e in exercises if e.label in labels]
    asked = sorted({n for e in exercises for n in e.names})
    end = session.endpoint() if session is not None else None
    if end is not None:
        end.waiting = grade_judge.unlocked
    results = []
    try:
        values, missing, reach = {}, {}, None
        if end is not None:
            try:
                values, missing = grade_judge.fetch(end, asked)
            except WireError:
                reach = "gone"
        elif session is not None:
            reach = "no answer"
        base = grade_judge.namespace(chapter, lang) if end is not None and reach is None else {}
        for exercise in exercises:
            defining = [i for i, c in code if set(defined_names(c.source)) & set(exercise.names)]
            answer = defining[-1] if defining else None
            untouched = answer is not None and _normal(cells[answer].source) in {_normal(t) for t in
                                                                                exercise.template.values()}
            if stop is not None and stop.key == "no kernel":  # the grader's fault, never the student's
                results.append((exercise.label, "grader error", _stopped(stop, cells, limits, words)))
                continue
            if stop is not None and (stop.cell < 0 or answer is None or answer >= stop.cell):
                results.append((exercise.label, "did not run", _stopped(stop, cells, limits, words)))
                continue
            if untouched:
                results.append((exercise.label, "not attempted", words["template"]))
                continue
            if stop is not None and session is None:  # the kernel is gone: the answer ran but cannot be asked
                results.append((exercise.label, "did not run", _stopped(stop, cells, limits, words)))
                continue
            if reach or end is None:
                results.append((exercise.label, "error", words[reach or "no answer"]))
                continue
            if end.broken:
                results.append((exercise.label, "error", words["after slow" if isinstance(end.broken, PeerTimeout)
                                                              else "gone"]))
                continue
            unreadable = [n for n in exercise.names if n in missing and missing[n] != "undefined"]
            if unreadable:
                results.append((exercise.label, "error", words["unreadable"].format(name=unreadable[0],
                                                                                    error=missing[unreadable[0]])))
                continue
            said = grade_judge.run_check(base, exercise, lang, values, set(all_names))
            # a check that passed runs again on inputs drawn for this grading run (a secret seed): a function that
            # returns stored outputs for the notebook's own inputs is right there only
            unseen = (grade_judge.run_check(base, exercise, lang, values, set(all_names), secret=grade_judge.SECRET)
                      if not end.broken and grade_judge.verdict(said)[0] == "correct" else None)
            if end.broken:
                key = "slow" if isinstance(end.broken, PeerTimeout) else "gone"
                results.append((exercise.label, "error", words[key].format(limit=limits.cell_seconds)))
                continue
            result, detail, name = grade_judge.verdict(said)
            if unseen is not None:
                again, hint, name = grade_judge.verdict(unseen)
                if again != "correct":
                    result = "error" if again == "error" else "not yet"
                    detail = words["unseen"].format(hint=hint or words["paused"].format(name=name))
            if result == "paused":
                result, detail = "error", words["paused"].format(name=name)
            results.append((exercise.label, result, detail))
    finally:
        if session is not None:
            session.close()
    return [(label, result, _cap(detail)) for label, result, detail in results]


def grade_one(sub: Submission, ctx: Context) -> Graded:
    start = time.monotonic()
    graded = Graded(sub)

    def invalid(key: str, lang: str = ctx.lang_out, **kw) -> Graded:
        graded.rows = [{"exercise": "", "result": "invalid", "detail": _cap(INVALID[lang][key].format(**kw))}]
        graded.seconds = time.monotonic() - start
        return graded

    if sub.problem:
        return invalid(sub.problem[0], **sub.problem[1])
    if sub.path.suffix.lower() != ".ipynb":
        return invalid("not a notebook")
    raw = sub.path.read_bytes()
    if not raw.strip():
        return invalid("empty")
    try:
        nb = read_notebook(raw)
    except Unreadable as e:
        return invalid(e.key, error=e.error)
    lang, problem = identify(nb, ctx.chapter, ctx.titles)
    if problem:
        key, found = problem
        return invalid(key, found=int(found[:2]) if found else "", want=int(ctx.chapter.stem[:2]))
    graded.language = lang
    if is_full_notebook(nb, ctx.exercises, lang):
        return invalid("full")
    answer_names = {n for e in ctx.exercises for n in e.names}
    skip = {i for i, c in enumerate(nb.cells) if c.cell_type == "code" and LABEL.search(c.source)
            and not set(defined_names(c.source)) & answer_names}

    # each exercise judged where the student's run reaches its check cell (the first, if it is there twice), from
    # the state the student saw there; those whose check cell was deleted, at the end
    checkpoints: dict[int, list[str]] = {}
    labels = {e.label for e in ctx.exercises}
    seen: set[str] = set()
    for i in sorted(skip):
        found = [m for m in LABEL.findall(nb.cells[i].source) if m in labels and m not in seen]
        if found:
            checkpoints[i] = found
            seen.update(found)
    judged: set[str] = set()

    def judge(session, stop, which):
        which = [label for label in labels if label not in judged] if which == "rest" else which
        if not which:
            if session is not None:
                session.close()
            return []
        judged.update(which)
        return judge_submission(session, stop, nb, ctx.exercises, ctx.chapter, lang, ctx.limits, set(which))

    stop, results = grade_run.run(nb.cells, skip, ctx.limits, ctx.scratch, judge, checkpoints)
    order = {e.label: i for i, e in enumerate(ctx.exercises)}
    for label, result, detail in sorted(results, key=lambda r: order[r[0]]):
        points = ctx.points.get(label, 1.0) if result == "correct" else 0.0
        graded.rows.append({"exercise": label, "result": result, "points": f"{points:g}", "detail": detail})
    graded.seconds = time.monotonic() - start
    return graded


# -- what the instructor gets ---------------------------------------------------------------------------------

def feedback(graded: Graded, chapter: Chapter, lang: str, points: dict[str, float]) -> str:
    words = WORDS[lang]
    sub = graded.submission
    title = words["title"].format(chapter=chapter.title(lang))
    lines = [f"# {title}", "", f"{sub.student} · `{sub.name}`", ""]
    if sub.late:
        lines += [words["late"], ""]
    exercises = [r for r in graded.rows if r["result"] not in ("invalid", "grader error")]
    if not exercises:
        row = graded.rows[0]
        return "\n".join([*lines, f"**{words[row['result']]}**: {row['detail']}", ""])
    correct = sum(r["result"] == "correct" for r in exercises)
    got = sum(float(r["points"]) for r in exercises)
    lines += [words["score"].format(n=correct, of=len(exercises)),
              "", words["points"].format(p=got, of=sum(points.get(r["exercise"], 1.0) for r in exercises)), "",
              f"| {words['exercise']} | {words['result']} | {words['detail']} |", "| --- | --- | --- |"]
    for r in exercises:
        mark = "✅" if r["result"] == "correct" else "❌"
        detail = r["detail"].replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{r['exercise']}` | {mark} {words[r['result']]} | {detail} |")
    return "\n".join([*lines, ""])


def _feedback_names(results: list[Graded]) -> dict[int, str]:
    """One feedback file name per submission, never two the same (case folded, as on macOS and Windows)."""
    taken, names = set(), {}
    for i, graded in enumerate(results):
        stem = re.sub(r"[^\w.-]+", "_", Path(graded.submission.name).with_suffix("").as_posix(), flags=re.UNICODE)
        stem = stem.strip("_.") or "submission"
        name, n = stem, 1
        while name.casefold() in taken:
            n += 1
            name = f"{stem}-{n}"
        taken.add(name.casefold())
        names[i] = f"{name}.md"
    return names


def write_outputs(results: list[Graded], chapter: Chapter, out: Path, points: dict[str, float],
                  exercises: list[Exercise], assignment: str, moodle_lang: str = "en") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    (out / "feedback").mkdir(exist_ok=True)
    paths = [out / "grades.csv", out / "totals.csv", out / "canvas.csv", out / "moodle.csv"]
    number = int(chapter.stem[:2])
    most = sum(points.get(e.label, 1.0) for e in exercises)
    results = sorted(results, key=lambda r: r.submission.name)
    names = _feedback_names(results)
    with (paths[0].open("w", newline="", encoding="utf-8-sig") as g,
          paths[1].open("w", newline="", encoding="utf-8-sig") as t):
        rows, sums = csv.DictWriter(g, COLUMNS), csv.DictWriter(t, TOTAL_COLUMNS)
        rows.writeheader()
        sums.writeheader()
        for i, graded in enumerate(results):
            sub = graded.submission
            base = {"file": sub.name, "student": sub.student, "lms_id": sub.lms_id, "late": "yes" if sub.late else "",
                    "chapter": number,
                    "language": graded.language, "flags": "; ".join(sub.flags)}
            for r in graded.rows:
                rows.writerow({**base, "points": "0", **r})
            counts = collections.Counter(r["result"] for r in graded.rows)
            sums.writerow({**base, "points": f"{_points(graded):g}", "max_points": f"{most:g}",
                           "exercises": sum(r["result"] not in ("invalid", "grader error") for r in graded.rows),
                           **{k: counts.get(k, 0) for k in RESULTS}})
            lang = graded.language or "en"
            (out / "feedback" / names[i]).write_text(feedback(graded, chapter, lang, points), encoding="utf-8")
    # LMS imports: one row per student, the best of their submissions
    best: dict[tuple, Graded] = {}
    for graded in results:
        sub = graded.submission
        key = (sub.lms, sub.lms_id) if sub.lms_id else ("", sub.student.casefold())
        if key not in best or _points(graded) > _points(best[key]):
            best[key] = graded
    def of(lms: str) -> list[Graded]:
        """The students an LMS's file lists: those with its ids if any has one (the LMS matches no other), else all."""
        known = [g for g in best.values() if g.submission.lms == lms]
        return known or list(best.values())

    with paths[2].open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", assignment])
        writer.writerow(["    Points Possible", "", "", "", "", f"{most:g}"])
        for graded in of("canvas"):
            sub = graded.submission
            writer.writerow([sub.student, sub.lms_id if sub.lms == "canvas" else "", "", "", "", f"{_points(graded):g}"])
    with paths[3].open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        # Moodle's upload (mod/assign/feedback/offline) refuses a worksheet without its three columns Identifier,
        # Grade and "Last modified (grade)", and skips a row whose grade Moodle changed after that time (unless
        # told to overwrite): the time of this grading, in a form PHP's strtotime reads
        graded_at = time.strftime("%Y-%m-%d %H:%M:%S")
        names = MOODLE_COLUMNS[moodle_lang]
        writer.writerow([names[k] for k in ("id", "name", "grade", "max", "modified", "comments")])
        for graded in of("moodle"):
            sub = graded.submission
            ident = f"{names['participant']}{sub.lms_id}" if sub.lms == "moodle" else ""
            words = WORDS[graded.language or "en"]
            summary_line = ("; " if graded.language != "ko" else ", ").join(
                f"{r['exercise']}: {words[r['result']]}" for r in graded.rows if r["exercise"]) \
                or graded.rows[0]["detail"]
            writer.writerow([ident, sub.student, f"{_points(graded):g}", f"{most:g}", graded_at, summary_line])
    return paths


def _points(graded: Graded) -> float:
    return sum(float(r.get("points") or 0) for r in graded.rows)


def summary(results: list[Graded], exercises: list[Exercise], lang: str) -> str:
    words = WORDS[lang]
    graded = [r for r in results if not any(x["result"] in ("invalid", "grader error") for x in r.rows)]
    invalid = sum(any(x["result"] == "invalid" for x in r.rows) for r in results)
    broken = sum(any(x["result"] == "grader error" for x in r.rows) for r in results)
    flagged = sum(bool(r.submission.flags) for r in results)
    head = (f"{len(results)}개 제출 가운데 채점 {len(graded)}개, 채점할 수 없음 {invalid}개, 채점기 오류 {broken}개, "
            f"표시된 제출 {flagged}개" if lang == "ko"
            else f"{len(results)} submissions: {len(graded)} graded, {invalid} invalid, {broken} grader errors, "
                 f"{flagged} flagged")
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


def read_points(specs: list[str], files: list[Path], exercises: list[Exercise]) -> dict[str, float]:
    """Points per exercise: 1 each unless set by --points LABEL=N (or a file of such lines; # comments)."""
    labels = {e.label for e in exercises}
    items = list(specs)
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise GradeError(f"cannot read the points file {path}: {e.strerror}") from None
        items += [line.split("#", 1)[0].strip() for line in text.splitlines()]
    points = {}
    for item in filter(None, (i.strip() for spec in items for i in spec.split(","))):
        label, sep, value = item.partition("=")
        label = label.strip()
        if not sep:
            raise GradeError(f"points are given as LABEL=N, like ch05-ex-mask=2: got {item!r}")
        if label not in labels:
            raise GradeError(f"no exercise {label!r} in this chapter: its exercises are {', '.join(sorted(labels))}")
        try:
            points[label] = float(value)
        except ValueError:
            raise GradeError(f"points must be a number: got {value.strip()!r} for {label}") from None
        if points[label] < 0:
            raise GradeError(f"points cannot be negative: {label}={value.strip()}")
    return points


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.grade", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chapter", help="the chapter assigned: 3, 03 or 03_split_vs_chunk")
    parser.add_argument("submissions", help="the folder of submissions (files, LMS subfolders, zips)")
    parser.add_argument("--out", help="where to write (default: SUBMISSIONS/graded)")
    parser.add_argument("--lang", default="en", help="the language of the summary and of the CSV's details: ko or en")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="submissions run at once (default: the cores)")
    parser.add_argument("--cell-timeout", type=float, default=Limits.cell_seconds, help="seconds per cell (default 60)")
    parser.add_argument("--timeout", type=float, default=Limits.total_seconds, help="seconds per submission (default 300)")
    parser.add_argument("--memory", type=int, default=Limits.memory_mb, help="MiB of memory per submission (default 2048)")
    parser.add_argument("--points", action="append", default=[], metavar="LABEL=N",
                        help="points for an exercise (default 1 each); repeat, or separate with commas")
    parser.add_argument("--points-file", action="append", default=[], type=Path, metavar="FILE",
                        help="a file of LABEL=N lines")
    parser.add_argument("--assignment", help="the assignment's column in canvas.csv (default: 'Chapter NN'); "
                                             "use Canvas's own 'Name (id)' to fill an existing assignment")
    parser.add_argument("--moodle-lang", default="en", choices=sorted(MOODLE_COLUMNS),
                        help="the language of your Moodle site: moodle.csv's column names are looked up in it "
                             "(default en)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="run submissions WITHOUT the bubblewrap sandbox (only where bwrap cannot run, "
                             "on submissions you trust)")
    parser.add_argument("--from", dest="base", help=argparse.SUPPRESS)  # the caller's folder (make grade)
    args = parser.parse_args(argv)
    import logging

    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # a timed-out kernel's pending reads, at exit
    stopping = {}
    if threading.current_thread() is threading.main_thread():  # SIGTERM, SIGHUP: cleaned up like Ctrl-C
        for number in (signal.SIGTERM, signal.SIGHUP):
            stopping[number] = signal.signal(number, _interrupted)
    try:
        results, _ = grade(args)
    except GradeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        print(f"interrupted ({e or 'Ctrl-C'}): nothing written", file=sys.stderr)
        return 130
    finally:
        for number, handler in stopping.items():
            signal.signal(number, handler)
    broken = sum(any(r["result"] == "grader error" for r in g.rows) for g in results)
    if broken:
        print(f"error: the grader failed on {broken} file(s): see the rows 'grader error' in grades.csv",
              file=sys.stderr)
        return 1
    return 0


def _interrupted(number, frame) -> None:
    raise KeyboardInterrupt(signal.Signals(number).name)


def grade(args) -> tuple[list[Graded], Path]:
    if args.lang not in LANGS:
        raise GradeError(f"unknown language {args.lang!r}: use ko or en (LANG=ko or LANG=en with make grade)")
    try:
        chapter = parse(find(str(args.chapter)))
    except SourceError as e:
        raise GradeError(str(e)) from None
    exercises = grade_judge.exercises_of(chapter)
    if not exercises:
        raise GradeError(f"chapter {args.chapter} has no exercises to grade")
    base = Path(args.base) if args.base else Path.cwd()
    folder = base / Path(args.submissions).expanduser()
    if not folder.is_dir():
        raise GradeError(f"{folder} is not a folder: give the folder that holds the submitted notebooks")
    if args.jobs < 1 or args.cell_timeout <= 0 or args.timeout <= 0 or args.memory < 256:
        raise GradeError("--jobs takes 1 or more, the timeouts more than 0 seconds, --memory at least 256 MiB")
    points = read_points(args.points, [base / p for p in args.points_file], exercises)
    out = base / Path(args.out).expanduser() if args.out else folder / "graded"
    why_not = grade_sandbox.available()
    if why_not and not args.no_sandbox:
        raise GradeError(f"no sandbox: {why_not}. Student code would run with your user's rights; to grade "
                         "anyway (only submissions you trust, or inside a container), pass --no-sandbox "
                         "(make grade ... NO_SANDBOX=1)")
    scratch = grade_run.scratch_folder()
    pool = None
    try:
        ignored: list[str] = []
        subs = collect(folder, out, chapter.stem, scratch.folder / "unzip", ignored)
        if ignored:
            print(f"left out {len(ignored)} file(s) of Moodle's online-text submissions (text typed in Moodle, not a "
                  f"notebook): {', '.join(ignored[:5])}{' ...' if len(ignored) > 5 else ''}", file=sys.stderr)
        if not subs:
            raise GradeError(f"{folder} holds no files to grade")
        book = [parse(path) for path in chapters()]
        if not args.no_sandbox:  # every chapter's imports: one warm-up serves every chapter's grading runs
            scratch.home_files = grade_sandbox.warm_bytecode(
                [cell.text("en") for c in book for cell in c.cells if cell.kind == "code"], scratch.folder)
        titles = {(c.stem, lang): c.title(lang) for c in book for lang in LANGS}
        limits = Limits(args.cell_timeout, args.timeout, args.memory, sandbox=not args.no_sandbox)
        nested = ("no user namespace inside" if grade_sandbox._probed.get("disable-userns", True) else
                  "user namespaces inside NOT blocked (bubblewrap older than 0.8.0)")
        seccomp = "seccomp" if grade_sandbox.seccomp_program() else "no seccomp filter (not x86-64)"
        shown = (f"sandbox: bubblewrap (uid {grade_sandbox.UID}, no capability, {nested}, {seccomp}; system read-only, "
                 "private home, no network, no other files or processes)"
                 if limits.sandbox else "NO SANDBOX (--no-sandbox): student code runs with your user's rights")
        print(f"grading {len(subs)} submissions of chapter {chapter.stem}, {args.jobs} at a time; per submission: "
              f"{limits.cell_seconds:g} s per cell, {limits.total_seconds:g} s in all, {limits.memory_mb} MiB; {shown}",
              file=sys.stderr)
        ctx = Context(chapter, exercises, titles, limits, scratch, args.lang, points)
        start, results = time.monotonic(), []
        pool = ThreadPoolExecutor(max_workers=args.jobs)
        jobs = {pool.submit(grade_one, s, ctx): s for s in subs}
        for done in as_completed(jobs):
            try:
                graded = done.result()
            except Exception as e:  # a bug of the grader itself must not lose the other submissions
                graded = Graded(jobs[done], rows=[{"exercise": "", "result": "grader error", "points": "0",
                                                   "detail": _cap(f"{type(e).__name__}: {e}")}])
            results.append(graded)
            elapsed = time.monotonic() - start
            left = elapsed / len(results) * (len(subs) - len(results))
            right = sum(r["result"] == "correct" for r in graded.rows)
            print(f"[{len(results)}/{len(subs)}] {graded.submission.name}: {right}/{len(exercises)} correct · "
                  f"{elapsed:.0f} s, about {left:.0f} s left", file=sys.stderr)
        pool.shutdown()
    except BaseException:  # Ctrl-C, SIGTERM (main() makes it a KeyboardInterrupt): no submission left to start
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        grade_run.remove_tree(scratch.folder)
    assignment = args.assignment or f"Chapter {int(chapter.stem[:2]):02d}"
    paths = write_outputs(results, chapter, out, points, exercises, assignment, getattr(args, "moodle_lang", "en"))
    print(summary(results, exercises, args.lang))
    print(f"wrote {', '.join(str(p) for p in paths)} and {len(results)} feedback files in {out / 'feedback'} "
          f"({time.monotonic() - start:.0f} s)")
    return results, out


if __name__ == "__main__":
    code = main()
    if code == 130:  # interrupted: the kernels still running end with this process (bwrap --die-with-parent)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
