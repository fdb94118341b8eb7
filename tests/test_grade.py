"""tools/grade.py on a class folder as an instructor receives it, one file for each case, every row asserted.

The submissions are saved as front ends save them: the chapter 5 student notebook run in a real kernel and
written by nbformat.write (sources as lists of lines, with outputs); a Colab download (nbformat 4.4, no cell ids,
Colab's metadata and widget state); VS Code's (ids, its metadata); in Moodle's subfolders, Canvas's names, a zip,
a name in NFD as macOS writes it. Most are trimmed to the set-up and the exercises (quick to run); one of each
chapter is whole. One grading run of chapter 5 (two kernels at a time, each in its sandbox) and one of chapter 9
(wrong answers); the rest is tested without kernels. Every chapter's solutions: tests/test_grade_solutions.py.
Escapes and forgeries: tests/test_grade_escape.py."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
import unicodedata
import zipfile
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT

from tools import grade, grade_judge
from tools.grade_kernel import Endpoint
from tools.source import find, parse

CH05 = "05_scaled_dot_product"
LABELS = ["ch05-ex-shape", "ch05-ex-scale", "ch05-ex-mask"]


def solutions(stem: str, lang: str) -> list[str]:
    return [c.text(lang) for c in parse(find(stem[:2])).cells if "solution" in c.flags]


def answers(nb) -> list:
    return [c for c in nb.cells if "exercise-student" in c.metadata.get("tags", [])]


def executed(lang: str) -> nbformat.NotebookNode:
    """The chapter 5 student notebook (trimmed: quicker to run, here and in the grader) with its answers solved,
    run top to bottom in a real kernel, as a student leaves it before downloading."""
    import tempfile

    from nbclient import NotebookClient

    nb = trimmed(lang)
    for cell, solution in zip(answers(nb), solutions(CH05, lang), strict=True):
        cell.source = solution
    with tempfile.TemporaryDirectory() as cwd:
        NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                       resources={"metadata": {"path": cwd}}).execute()
    return nb


def jupyter(nb, path: Path) -> None:
    """Saved as Jupyter saves: nbformat.write (sources as lists of lines)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def colab(nb, path: Path) -> None:
    """Saved as Colab's File → Download .ipynb: nbformat 4.4 without cell ids, sources as lists of lines, Colab's
    notebook and cell metadata, and the state of the widgets the notebook showed."""
    data = json.loads(nbformat.writes(nb))
    data["nbformat_minor"] = 4
    data["metadata"] = {"colab": {"provenance": [], "name": path.name, "toc_visible": True},
                        "kernelspec": {"name": "python3", "display_name": "Python 3"},
                        "language_info": {"name": "python"}, "accelerator": "None",
                        "widgets": {"application/vnd.jupyter.widget-state+json": {
                            "3f1c": {"model_module": "@jupyter-widgets/controls", "model_name": "DropdownModel",
                                     "model_module_version": "1.5.0", "state": {"index": 0, "_options_labels": ["0"]}}}}}
    for i, cell in enumerate(data["cells"]):
        cell.pop("id", None)
        cell["metadata"] = {"id": f"cell{i:04x}", "colab": {"base_uri": "https://localhost:8080/"}} if \
            cell["cell_type"] == "code" else {"id": f"md{i:04x}"}
        if cell["cell_type"] == "code":
            cell["metadata"]["outputId"] = f"{i:08x}-0000"
            cell["metadata"]["tags"] = nb.cells[i].metadata.get("tags", [])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")


def vscode(nb, path: Path) -> None:
    """Saved as VS Code saves: nbformat 4.5 with ids, its interpreter metadata, one-space indent."""
    data = json.loads(nbformat.writes(nb))
    data["metadata"]["vscode"] = {"interpreter": {"hash": "f" * 64}}
    data["metadata"]["language_info"] = {"name": "python", "version": "3.11.7", "mimetype": "text/x-python"}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def trimmed(lang: str, stem: str = CH05, keep: tuple[str, ...] = ()) -> nbformat.NotebookNode:
    """A student notebook cut down to its title, its set-up and import cells, the code cells holding one of the
    strings in keep, and its exercises (a student who deleted the chapter's other cells): enough for chapter 5's
    answers, quick to run."""
    nb = nbformat.read(ROOT / "student" / lang / f"{stem}.ipynb", as_version=4)
    first = next(i for i, c in enumerate(nb.cells) if "exercise-student" in c.metadata.get("tags", []))
    start = max(i for i, c in enumerate(nb.cells[:first]) if c.cell_type == "markdown" and "## " in c.source)
    kept = [c for c in nb.cells[3:start] if c.cell_type == "code" and any(k in c.source for k in keep)]
    assert len(kept) >= len(keep), keep
    nb.cells = nb.cells[:3] + kept + nb.cells[start:]
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    done = executed("en")

    # Jupyter, after a real run: right, wrong (scale still divides by sqrt(C), now written otherwise), right
    nb = copy.deepcopy(done)
    answers(nb)[1].source = answers(nb)[1].source.replace("d_k = k_h.size(-1)", "d_k = C")
    jupyter(nb, folder / "kim_minji.ipynb")
    # a Colab download, all right, named as Colab names a copy
    colab(done, folder / "Copy of 05_scaled_dot_product.ipynb")
    # VS Code, untouched (the chapter's other cells deleted: quicker to run)
    vscode(trimmed("en"), folder / "lee_vscode.ipynb")
    # Moodle's folder, its name in NFD as macOS writes it; the Korean notebook (trimmed like the others: a whole
    # notebook of every chapter runs in tests/test_grade_solutions.py): the mask's True and False swapped
    nb = trimmed("ko")
    answers(nb)[0].source = "answer_w_shape = (2, 8, 3, 7)\nanswer_out_shape = (2, 8, 3, 10)\n"
    answers(nb)[2].source = solutions(CH05, "ko")[2].replace("return tri & real", "return ~(tri & real")
    answers(nb)[2].source = answers(nb)[2].source.replace("None, :]", "None, :])")
    moodle = unicodedata.normalize("NFD", "홍길동_12345_assignsubmission_file_")
    jupyter(nb, folder / moodle / unicodedata.normalize("NFD", "05_scaled_dot_product.ipynb"))
    # Canvas: the same student twice (a resubmission)
    nb = copy.deepcopy(done)
    answers(nb)[2].source = "def make_mask(lengths, T):\n    return 'no idea'\n"
    jupyter(nb, folder / "choiyuna_67890_111213_05_scaled_dot_product.ipynb")
    nb = trimmed("en")
    for cell, solution in zip(answers(nb), solutions(CH05, "en"), strict=True):
        cell.source = solution
    jupyter(nb, folder / "choiyuna_67890_111299_05_scaled_dot_product-1.ipynb")
    # a zip of two notebooks with the same file name in two folders (their feedback must not collide); the
    # second is chapter 4's
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("park/05_scaled_dot_product.ipynb", nbformat.writes(nb))
        z.writestr("jung/05_scaled_dot_product.ipynb",
                   (ROOT / "student/en/04_heads_view_transpose.ipynb").read_text(encoding="utf-8"))
    (folder / "group.zip").write_bytes(buffer.getvalue())
    # a zip that tries to write outside its folder
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("../../escaped.ipynb", nbformat.writes(done))
    (folder / "evil.zip").write_bytes(buffer.getvalue())
    # limits and endings: a loop in the second answer (one that catches the first interrupt and loops on: the
    # grader must interrupt again, or the first answer, given before the loop, could not be read), os._exit in the
    # third, memory filled, a failing import. The two submissions that wait (for the cell's time limit, for the
    # judge's) are named to come early (endless_loop) and halfway (hung_answer) in the grader's order, which is the
    # names': each waits while the other worker runs the others, never both at once with the cores left idle
    nb = trimmed("en")
    answers(nb)[0].source = "answer_w_shape = (2, 8, 3, 7)\nanswer_out_shape = (2, 8, 3, 10)\n"
    answers(nb)[1].source = ("import time\ntry:\n    while True:\n        time.sleep(0.1)\nexcept KeyboardInterrupt:\n"
                             "    while True:\n        time.sleep(0.1)\n")
    jupyter(nb, folder / "endless_loop.ipynb")
    # a function that never returns when the check calls it: the grader stops it, and the run goes on to the next
    # answer, judged as any other
    nb = trimmed("en")
    answers(nb)[0].source = "answer_w_shape = (2, 8, 3, 7)\nanswer_out_shape = (2, 8, 3, 10)\n"
    answers(nb)[1].source = "def head_scores(q_flat, k_flat, H):\n    import time\n    while True:\n        time.sleep(0.1)\n"
    answers(nb)[2].source = solutions(CH05, "en")[2]
    jupyter(nb, folder / "hung_answer.ipynb")
    nb = trimmed("en")  # two right answers, each judged at its check cell, then the kernel ends
    answers(nb)[0].source = "answer_w_shape = (2, 8, 3, 7)\nanswer_out_shape = (2, 8, 3, 10)\n"
    answers(nb)[1].source = solutions(CH05, "en")[1]
    answers(nb)[2].source = "import os\nos._exit(3)\n"
    jupyter(nb, folder / "exits.ipynb")
    nb = trimmed("en")
    answers(nb)[1].source = "hog = []\nwhile True:\n    hog.append(torch.ones(10**8))\n"
    jupyter(nb, folder / "hog.ipynb")
    nb = trimmed("en")
    next(c for c in nb.cells if c.cell_type == "code").source = "import no_such_module_anywhere\n"
    jupyter(nb, folder / "raises.ipynb")
    # a lookup table: make_mask returns the right masks for the inputs the notebook's check uses (they are in its
    # set-up cell), recorded from the book's solution, and the first of them otherwise
    nb = trimmed("en")
    answers(nb)[2].source = lookup_answer()
    jupyter(nb, folder / "lookup.ipynb")
    # refused before running
    (folder / "essay.pdf").write_bytes(b"%PDF-1.4")
    (folder / "broken.ipynb").write_text('{"cells": [ {"cell_type": "code",', encoding="utf-8")
    jupyter(nbformat.read(ROOT / "student/en/04_heads_view_transpose.ipynb", as_version=4), folder / "other.ipynb")
    jupyter(nbformat.read(ROOT / f"notebooks/en/{CH05}.ipynb", as_version=4), folder / "full.ipynb")
    (folder / "points.txt").write_text("# points per exercise\nch05-ex-shape = 0.5\n", encoding="utf-8")

    out = folder / "graded"
    code = grade.main(["05", str(folder), "--jobs", "2", "--cell-timeout", "8", "--timeout", "60", "--memory", "1024",
                       "--out", str(out), "--points", "ch05-ex-mask=2", "--points-file", str(folder / "points.txt")])
    assert not kernels_left(), "a submission's kernel outlived the grading run"
    assert not scratch_left(), "the grading run left its temporary folder"
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8-sig")))
    by_file: dict[str, list[dict]] = {}
    for row in rows:
        by_file.setdefault(row["file"], []).append(row)
    return code, by_file, out, folder


def lookup_answer() -> str:
    """make_mask as a table of the outputs of the notebook's own check inputs: right there, wrong elsewhere."""
    import test_grade_unseen

    path = find("05")
    exercise = next(e for e in grade_judge.exercises_of(parse(path)) if e.label == "ch05-ex-mask")
    right = test_grade_unseen.solution_answers(path, exercise.label)
    seen = {}

    def record(lengths, T):
        out = right["make_mask"](lengths, T)
        seen[repr((lengths.tolist(), T))] = out.tolist()
        return out

    assert test_grade_unseen.verdict(path, exercise, {**right, "make_mask": record}) == ("correct", "")
    return (f"SEEN = {seen!r}\n\n\ndef make_mask(lengths, T):\n"
            "    found = SEEN.get(repr((lengths.tolist(), T)), next(iter(SEEN.values())))\n"
            "    return torch.tensor(found)\n")


def kernels_left() -> list[str]:
    """The graded kernels still running among this process's descendants."""
    import os

    parents = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                parents[int(proc.name)] = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    mine, found = {os.getpid()}, []
    for _ in range(20):
        mine |= {pid for pid, parent in parents.items() if parent in mine}
    for pid in mine - {os.getpid()}:
        try:
            if b"grade_kernel.py" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(str(pid))
        except OSError:
            pass
    return found


def scratch_left() -> list[Path]:
    """The temporary folders of this process's grading runs still there (tools/grade_run.py: Scratch)."""
    import os
    import tempfile

    return list(Path(tempfile.gettempdir()).glob(f"book-grade-{os.getpid()}-*"))


def results(by_file, name):
    return [(r["exercise"], r["result"]) for r in by_file[name]]


def test_every_file_gets_its_rows_and_the_run_succeeds(graded):
    code, by_file, out, folder = graded
    assert code == 0
    moodle = "홍길동_12345_assignsubmission_file_/05_scaled_dot_product.ipynb"
    assert set(by_file) == {
        "kim_minji.ipynb", "Copy of 05_scaled_dot_product.ipynb", "lee_vscode.ipynb", moodle,
        "choiyuna_67890_111213_05_scaled_dot_product.ipynb", "choiyuna_67890_111299_05_scaled_dot_product-1.ipynb",
        "group.zip/park/05_scaled_dot_product.ipynb", "group.zip/jung/05_scaled_dot_product.ipynb", "evil.zip",
        "endless_loop.ipynb", "hung_answer.ipynb", "exits.ipynb", "hog.ipynb", "raises.ipynb", "essay.pdf", "broken.ipynb", "other.ipynb",
        "full.ipynb", "points.txt", "lookup.ipynb"}
    for name, rows in by_file.items():
        assert len(rows) == (1 if rows[0]["result"] == "invalid" else len(LABELS)), (name, rows)
    assert not (folder.parent / "escaped.ipynb").exists() and not (folder / "escaped.ipynb").exists()


def test_notebooks_as_jupyter_colab_and_vscode_save_them(graded):
    _, by_file, _, _ = graded
    assert results(by_file, "kim_minji.ipynb") == [
        ("ch05-ex-shape", "correct"), ("ch05-ex-scale", "not yet"), ("ch05-ex-mask", "correct")]
    assert by_file["kim_minji.ipynb"][1]["detail"].startswith("divided by √C = √12, the width before the split into heads"), by_file["kim_minji.ipynb"]
    assert results(by_file, "Copy of 05_scaled_dot_product.ipynb") == [(label, "correct") for label in LABELS]
    assert results(by_file, "lee_vscode.ipynb") == [(label, "not attempted") for label in LABELS]


def test_a_lookup_table_of_the_notebooks_check_inputs_is_not_yet(graded):
    """Through the sandbox: the grader runs a check that passed again on inputs drawn for this run (in-process, for
    every function exercise: tests/test_grade_unseen.py)."""
    _, by_file, _, _ = graded
    row = by_file["lookup.ipynb"][2]
    assert (row["exercise"], row["result"]) == ("ch05-ex-mask", "not yet"), row
    assert row["detail"].startswith("right on the notebook's own check inputs, but not on inputs drawn for this "
                                    "grading: "), row


def test_points_per_exercise_and_totals(graded):
    _, by_file, out, _ = graded
    assert [r["points"] for r in by_file["kim_minji.ipynb"]] == ["0.5", "0", "2"]
    totals = {r["file"]: r for r in csv.DictReader((out / "totals.csv").open(encoding="utf-8-sig"))}
    assert totals["kim_minji.ipynb"]["points"] == "2.5" and totals["kim_minji.ipynb"]["max_points"] == "3.5"
    assert totals["kim_minji.ipynb"]["correct"] == "2" and totals["kim_minji.ipynb"]["exercises"] == "3"


def test_lms_folders_names_and_flags(graded):
    _, by_file, out, _ = graded
    moodle = by_file["홍길동_12345_assignsubmission_file_/05_scaled_dot_product.ipynb"]
    assert {(r["student"], r["lms_id"], r["language"]) for r in moodle} == {("홍길동", "12345", "ko")}
    assert [(r["exercise"], r["result"]) for r in moodle] == [
        ("ch05-ex-shape", "correct"), ("ch05-ex-scale", "not attempted"), ("ch05-ex-mask", "not yet")]
    assert moodle[2]["detail"].startswith("True와 False가 뒤바뀌었습니다"), moodle[2]["detail"]
    first, second = (by_file[f"choiyuna_67890_{n}_05_scaled_dot_product{s}.ipynb"] for n, s in (("111213", ""),
                                                                                              ("111299", "-1")))
    assert first[0]["student"] == "choiyuna" and first[0]["lms_id"] == "67890"
    assert first[2]["result"] == "not yet" and first[2]["detail"].startswith("the mask must be a tensor, got a str")
    assert all("same student twice" in r["flags"] for r in first + second)
    assert "Copy of" in by_file["Copy of 05_scaled_dot_product.ipynb"][0]["flags"]
    assert by_file["Copy of 05_scaled_dot_product.ipynb"][0]["student"] == "Copy of 05_scaled_dot_product"
    assert not by_file["kim_minji.ipynb"][0]["flags"]
    feedback = sorted(p.name for p in (out / "feedback").iterdir())
    assert len(feedback) == len(by_file), feedback
    assert "group.zip_park_05_scaled_dot_product.md" in feedback and "group.zip_jung_05_scaled_dot_product.md" in feedback
    text = (out / "feedback" / "홍길동_12345_assignsubmission_file__05_scaled_dot_product.md").read_text(encoding="utf-8")
    assert "맞힌 문제: 1 / 3" in text and "❌ 아직" in text, text


def test_canvas_and_moodle_import_files(graded):
    _, _, out, _ = graded
    canvas = list(csv.reader((out / "canvas.csv").open(encoding="utf-8")))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Chapter 05"]
    assert canvas[1][0].strip() == "Points Possible" and canvas[1][5] == "3.5"
    assert canvas[2:] == [["choiyuna", "67890", "", "", "", "3.5"]], canvas  # Canvas's students only, the better
    # of the two submissions
    moodle_rows = list(csv.reader((out / "moodle.csv").open(encoding="utf-8")))
    # the three columns Moodle's worksheet upload cannot do without (mod/assign/feedback/offline/importgradeslib.php
    # looks them up by name and refuses the file if one is missing), and its feedback plugin's column
    assert {"Identifier", "Grade", "Last modified (grade)", "Feedback comments"} <= set(moodle_rows[0])
    moodle = list(csv.DictReader((out / "moodle.csv").open(encoding="utf-8")))
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", r["Last modified (grade)"]) for r in moodle)
    assert [(r["Identifier"], r["Full name"], r["Grade"], r["Maximum Grade"]) for r in moodle] == [
        ("Participant 12345", "홍길동", "0.5", "3.5")]
    assert moodle[0]["Feedback comments"] == "ch05-ex-shape: 정답, ch05-ex-scale: 풀지 않음, ch05-ex-mask: 아직 아님"


def test_limits_name_the_students_cell_and_say_what_ended_the_kernel(graded):
    _, by_file, _, _ = graded
    loop = by_file["endless_loop.ipynb"]
    assert [r["result"] for r in loop] == ["correct", "did not run", "did not run"]
    assert "did not finish within the time limit (8 s)" in loop[1]["detail"]
    assert "(`import time`)" in loop[1]["detail"], loop[1]["detail"]
    slow = by_file["hung_answer.ipynb"]
    assert [r["result"] for r in slow] == ["correct", "error", "correct"]
    assert slow[1]["detail"] == "while the check ran it, the answer's code did not finish within the time limit (8 s)"
    exits = by_file["exits.ipynb"]
    assert [r["result"] for r in exits] == ["correct", "correct", "did not run"]
    assert "exit code 3" in exits[2]["detail"] and "memory" not in exits[2]["detail"], exits[2]["detail"]
    hog = by_file["hog.ipynb"]
    assert [r["result"] for r in hog] == ["not attempted", "did not run", "did not run"]
    assert "went over the memory limit (1024 MiB)" in hog[1]["detail"], hog[1]["detail"]
    raises = by_file["raises.ipynb"]
    assert [r["result"] for r in raises] == ["did not run"] * 3
    assert "ModuleNotFoundError: No module named 'no_such_module_anywhere'" in raises[0]["detail"]


@pytest.mark.parametrize(("name", "words"), [
    ("essay.pdf", "not a notebook (.ipynb)"),
    ("points.txt", "not a notebook (.ipynb)"),
    ("broken.ipynb", "the notebook file is damaged (JSON error: line 1"),
    ("other.ipynb", "this is chapter 4's notebook; chapter 5's was asked for"),
    ("full.ipynb", "this is the full notebook with the solutions"),
    ("evil.zip", "the zip file cannot be unpacked: a member outside the zip's folder"),
    ("group.zip/jung/05_scaled_dot_product.ipynb", "this is chapter 4's notebook; chapter 5's was asked for"),
])
def test_files_that_cannot_be_graded_get_one_row_saying_why(graded, name, words):
    _, by_file, _, _ = graded
    [row] = by_file[name]
    assert (row["exercise"], row["result"]) == ("", "invalid") and words in row["detail"], row["detail"]


@pytest.fixture(scope="module")
def graded_09(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class09")
    stem = "09_positions"
    nb = trimmed("en", stem, keep=("class KVCache", "def causal_mask"))  # what the answers use: quicker to run
    right = solutions(stem, "en")
    answers(nb)[0].source = right[0].replace("torch.cat([-x2, x1]", "torch.cat([x2, -x1]")
    answers(nb)[2].source = right[2].replace("real[:, None, None, :] & causal_mask(T, T)", "causal_mask(T, T)")
    answers(nb)[3].source = "answer_gqa_mib = 512\nanswer_repeated_mib = 4096\n"
    answers(nb)[4].source = right[4].replace("-self.window:", "-self.window - 1:")
    colab(nb, folder / "wrong.ipynb")
    out = folder / "graded"
    assert grade.main(["9", str(folder), "--jobs", "2", "--out", str(out)]) == 0
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8-sig")))
    return {name: [(r["exercise"], r["result"], r["detail"]) for r in rows if r["file"] == name]
            for name in {r["file"] for r in rows}}


def test_chapter_9_functions_classes_and_modules_are_judged_across_the_sandbox(graded_09):
    """Wrong answers of chapter 9 each get their own hint across the sandbox (the chapter's solutions, graded
    right in both languages: tests/test_grade_solutions.py)."""
    rolling = graded_09["wrong.ipynb"].pop()
    assert rolling[:2] == ("ch09-ex-rolling", "not yet") and rolling[2].startswith("the cache keeps more than w keys")
    assert graded_09["wrong.ipynb"] == [
        ("ch09-ex-halves", "not yet", "it turns the wrong way: the halves (x1, x2) must become (-x2, x1), not (x2, -x1)."),
        ("ch09-ex-positions", "not attempted", "the answer cell is the template, unchanged"),
        ("ch09-ex-prefill", "not yet", "the padding keys are visible: combine the causal mask with the padding mask "
                                       "(B, 1, 1, T) using &."),
        ("ch09-ex-cache-bytes", "not yet", "count both keys and values (and 2 bytes per value).")]


# -- without kernels ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("form", ["jupyter", "colab", "vscode", "strings", "4.0"])
def test_any_saved_form_reads_as_the_same_notebook(tmp_path, form):
    nb = nbformat.read(ROOT / "student" / "en" / f"{CH05}.ipynb", as_version=4)
    path = tmp_path / "x.ipynb"
    if form == "jupyter":
        jupyter(nb, path)
    elif form == "colab":
        colab(nb, path)
    elif form == "vscode":
        vscode(nb, path)
    elif form == "strings":
        path.write_text(json.dumps(nb), encoding="utf-8")
    else:
        data = json.loads(nbformat.writes(nb))
        data["nbformat_minor"] = 0
        for cell in data["cells"]:
            cell.pop("id", None)
        path.write_text(json.dumps(data), encoding="utf-8")
    raw = path.read_bytes()
    assert (b'"source": [' in raw) == (form in ("jupyter", "colab", "vscode", "4.0")), form
    read = grade.read_notebook(raw)
    assert [c.source for c in read.cells] == [c.source for c in nb.cells]
    assert all(isinstance(c.source, str) for c in read.cells)


def test_a_zip_is_unpacked_within_limits(tmp_path, monkeypatch):
    inside = tmp_path / "in"
    path = tmp_path / "a.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("/etc/passwd.ipynb", "{}")
    assert grade._unzip(path, inside)[1].startswith("a member outside")
    with zipfile.ZipFile(path, "w") as z:
        info = zipfile.ZipInfo("link.ipynb")
        info.external_attr = 0o120777 << 16
        z.writestr(info, "/etc/passwd")
    assert grade._unzip(path, inside)[1].startswith("a symbolic link")
    monkeypatch.setitem(grade.ZIP_LIMITS, "bytes", 1000)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("big.ipynb", "0" * 10_000)
    assert "more than 0 MiB unpacked" in grade._unzip(path, inside)[1]
    assert not list(inside.rglob("*")) if inside.exists() else True


def test_lms_names():
    assert grade._identify_lms("Kim Minji_3301_assignsubmission_file_", "x.ipynb") == ("moodle", "3301", "Kim Minji")
    assert grade._identify_lms("", "kimminji_LATE_4401_99_05_scaled.ipynb") == ("canvas", "4401", "kimminji")
    assert grade._identify_lms("", "kim_minji.ipynb") == ("", "", "")
    # Moodle's download without "in folders": the folder's name and the file's joined
    assert grade._identify_lms("", "Kim Minji_3301_assignsubmission_file_05_x.ipynb") == ("moodle", "3301", "Kim Minji")


def test_korean_details_read_in_korean_word_order():
    """«7번 셀(`for i in …`)에서 멈췄습니다», not «7 (`for i in …`)번 셀» (Korean review 2026-11-28); Google Drive's
    Korean copy («… 의 사본») is flagged as a copy."""
    cells = [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell("for i in range(10**12):\n    pass")]
    stop = grade.Stop(1, "timeout")
    said = grade._stopped(stop, cells, grade.Limits(), grade.WORDS["ko"])
    assert said.startswith("2번 셀(`for i in range(10**12):`): 제한 시간(60초)"), said
    assert grade.COPY.search("01_dict_to_attention의 사본")


def test_lms_files_as_they_come(tmp_path):
    """Canvas's late mark kept (a column, the feedback); Moodle's online-text files left out with a note, never
    "invalid" nor "same student twice"; Moodle's flat names read with their ids; moodle.csv in the Moodle site's
    language (the column names of Moodle's own language strings)."""
    folder = tmp_path / "class"
    (folder / "Lee Ana_5501_assignsubmission_onlinetext_").mkdir(parents=True)
    (folder / "Lee Ana_5501_assignsubmission_onlinetext_" / "onlinetext.html").write_text("<p>done</p>")
    (folder / "Lee Ana_5501_assignsubmission_file_").mkdir()
    (folder / "Lee Ana_5501_assignsubmission_file_" / "05_scaled_dot_product.ipynb").write_text("{}")
    (folder / "Kim Minji_3301_assignsubmission_file_05_scaled_dot_product.ipynb").write_text("{}")
    (folder / "Kim Minji_3301_assignsubmission_onlinetext_onlinetext.html").write_text("<p>hi</p>")
    (folder / "parkjun_LATE_4401_99_05_scaled_dot_product.ipynb").write_text("{}")
    ignored: list[str] = []
    subs = grade.collect(folder, folder / "graded", CH05, tmp_path / "unzip", ignored)
    assert sorted(ignored) == ["Kim Minji_3301_assignsubmission_onlinetext_onlinetext.html",
                               "Lee Ana_5501_assignsubmission_onlinetext_/onlinetext.html"]
    assert sorted((s.student, s.lms, s.lms_id, s.late, tuple(s.flags)) for s in subs) == [
        ("Kim Minji", "moodle", "3301", False, ()), ("Lee Ana", "moodle", "5501", False, ()),
        ("parkjun", "canvas", "4401", True, ())]
    chapter = parse(find("05"))
    exercises = grade_judge.exercises_of(chapter)
    results = [grade.Graded(s, "ko", [{"exercise": e.label, "result": "correct", "points": "1", "detail": ""}
                                      for e in exercises]) for s in subs]
    out = tmp_path / "out"
    grade.write_outputs(results, chapter, out, {}, exercises, "Chapter 05", moodle_lang="ko")
    moodle = list(csv.DictReader((out / "moodle.csv").open(encoding="utf-8")))
    assert list(moodle[0]) == ["식별자", "사용자 성명", "성적", "최대 성적", "마지막 수정됨(성적)", "피드백 코멘트"]
    assert sorted((r["식별자"], r["성적"]) for r in moodle) == [("참가자3301", "3"), ("참가자5501", "3")]
    totals = {r["student"]: r["late"] for r in csv.DictReader((out / "totals.csv").open(encoding="utf-8-sig"))}
    assert totals == {"Kim Minji": "", "Lee Ana": "", "parkjun": "yes"}
    late = (out / "feedback" / "parkjun_LATE_4401_99_05_scaled_dot_product.md").read_text(encoding="utf-8")
    assert "마감 뒤에 낸 제출물입니다" in late


def test_the_wire_moves_data_never_code():
    """What crosses between kernel and judge: data decoded into plain values; objects only as proxies, and the
    kernel may not walk from the judge's object to anything else of the judge's."""
    import socket

    import torch

    a, b = socket.socketpair()
    judge, kernel = Endpoint(a, "judge", peer_trusted=False, timeout=5), Endpoint(b, "kernel", {})
    tensors: dict = {}
    value = (1, 2.5, float("nan"), None, ..., "s", [True], {"k": torch.arange(3)}, torch.float16, torch.Size([2, 3]))
    encoded = judge.encode(value, tensors)
    json.dumps(encoded)
    decoded = kernel.decode(encoded, tensors)
    assert decoded[:2] == (1, 2.5) and decoded[3:7] == (None, ..., "s", [True])
    assert torch.equal(decoded[7]["k"], torch.arange(3)) and decoded[8] is torch.float16 and decoded[9] == (2, 3)

    class Layer:
        secret = object()

        def __call__(self, x):
            return x * 2

    ref = judge.encode(Layer(), {})
    proxy = kernel.decode(ref, {})
    assert type(proxy).__name__ == "Layer"
    import threading

    served = threading.Thread(target=lambda: [judge._answer(judge._receive()) for _ in range(3)])
    served.start()
    assert torch.equal(proxy(torch.ones(2)), torch.full((2,), 2.0))
    with pytest.raises(PermissionError):
        proxy._Remote__dict  # noqa: B018 (names starting with _ are refused)
    with pytest.raises(RuntimeError, match="is not data"):
        proxy.secret  # noqa: B018 (an attribute that is not data is refused)
    served.join(5)


def test_modules_cross_as_what_they_are_and_changed_arguments_come_back():
    """A module crosses as a proxy that is an instance of its library class (nn.Linear's of nn.Linear, a
    chapter's class's of nn.Module); the other side may use the judge's module as the book's code does (its
    submodules, its own methods, its call) but not what nn.Module offers to change it; a dict the kernel's
    function fills comes back filled, and the judge's object given back is that object."""
    import socket
    import threading

    import torch
    from torch import nn

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(2, 2)

        def twice(self, x):
            return x * 2

    a, b = socket.socketpair()
    judge, kernel = Endpoint(a, "judge", peer_trusted=False, timeout=5), Endpoint(b, "kernel", {})
    layer = Layer()

    def fill(cache, lin):
        cache["k"] = torch.ones(1)
        return lin

    made = nn.Linear(3, 4)
    kernel_fill = judge.decode(kernel.encode(fill, {}), {})
    proxy = kernel.decode(judge.encode(layer, {}), {})
    assert isinstance(proxy, nn.Module) and not isinstance(proxy, nn.Linear) and type(proxy).__name__ == "Layer"
    served = threading.Thread(target=lambda: [judge._answer(judge._receive()) for _ in range(8)])
    served.start()
    assert isinstance(proxy.proj, nn.Linear) and torch.equal(proxy.proj.weight, layer.proj.weight)
    assert torch.equal(proxy.twice(torch.ones(1)), torch.full((1,), 2.0))
    with pytest.raises(RuntimeError, match="is not data"):
        proxy.load_state_dict  # noqa: B018 (what nn.Module offers to change a module is refused)
    with pytest.raises(RuntimeError, match="is not data"):
        proxy.proj.extra_repr  # noqa: B018 (of a library's module, only forward)
    served.join(5)
    cache: dict = {}
    served = threading.Thread(target=lambda: [kernel._answer(kernel._receive()) for _ in range(1)])
    served.start()
    back = kernel_fill(cache, made)
    served.join(5)
    assert torch.equal(cache["k"], torch.ones(1)) and back is made


def test_a_check_waiting_for_its_kernel_holds_no_lock_and_keeps_its_random_state():
    """While a check waits for its kernel (a slow answer), another submission's check runs; the waiting check
    draws the same numbers after as if nothing had run between."""
    import threading

    import torch

    ran = []
    with grade_judge.LOCK:
        torch.manual_seed(1)
        with grade_judge.unlocked():
            other = threading.Thread(target=lambda: [grade_judge.LOCK.acquire(), torch.manual_seed(9),
                                                     ran.append(torch.rand(1)), grade_judge.LOCK.release()])
            other.start()
            other.join(10)
        drawn = torch.rand(1)
    torch.manual_seed(1)
    assert ran and torch.equal(drawn, torch.rand(1))


def test_an_answer_too_large_to_send_is_refused_before_it_is_copied(monkeypatch):
    import socket

    import torch

    from tools import grade_kernel

    monkeypatch.setattr(grade_kernel, "MAX_ANSWER", 2**20)
    end = Endpoint(socket.socketpair()[0], "kernel", {})
    end.encode(torch.zeros(2**18), {})  # 1 MiB: sent
    with pytest.raises(grade_kernel.NotData, match="more than the 1 MiB"):
        end.encode([torch.zeros(2**17), torch.zeros(2**17 + 1)], {})


def test_the_judge_reads_only_the_chapters_own_code():
    chapter = parse(find("09"))
    cells = grade_judge.needed_cells(chapter, "en")
    assert cells and not any({"solution", "student", "check", "widget"} & set(c.flags) for c in cells)
    assert [e.names for e in grade_judge.exercises_of(chapter)] == [
        ("apply_rope",), ("positions_for",), ("prefill",), ("answer_gqa_mib", "answer_repeated_mib"), ("WindowCache",)]


@pytest.mark.parametrize(("args", "words"), [
    (["05", "/no/such/folder"], "/no/such/folder is not a folder"),
    (["42", "."], "unknown chapter '42'"),
    (["05", ".", "--lang", "fr"], "unknown language 'fr'"),
    (["05", ".", "--points", "ch05-ex-nope=2"], "no exercise 'ch05-ex-nope'"),
    (["05", ".", "--points", "ch05-ex-mask"], "points are given as LABEL=N"),
])
def test_bad_arguments_get_a_clear_error(args, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert grade.main(args) == 2
    assert words in capsys.readouterr().err


def test_a_relative_folder_is_read_from_where_the_instructor_stands(tmp_path, monkeypatch, capsys):
    (tmp_path / "subs").mkdir()
    monkeypatch.chdir(ROOT)
    assert grade.main(["05", "subs", "--from", str(tmp_path)]) == 2
    assert f"{tmp_path / 'subs'} holds no files to grade" in capsys.readouterr().err


def test_without_a_sandbox_the_grader_refuses_unless_told(tmp_path, monkeypatch, capsys):
    (tmp_path / "x.ipynb").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(grade.grade_sandbox, "BWRAP", "no-such-bwrap-anywhere")
    assert grade.main(["05", str(tmp_path)]) == 2
    assert "no sandbox: bubblewrap (bwrap) is not installed" in capsys.readouterr().err
    assert grade.main(["05", str(tmp_path), "--no-sandbox"]) == 0
    assert "NO SANDBOX" in capsys.readouterr().err


def test_a_grader_error_has_its_row_is_counted_and_fails_the_command(tmp_path, monkeypatch, capsys):
    nbformat.write(nbformat.read(ROOT / "student" / "en" / f"{CH05}.ipynb", as_version=4), tmp_path / "a.ipynb")

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(grade.grade_run, "run", broken)
    assert grade.main(["05", str(tmp_path)]) == 1
    said = capsys.readouterr()
    assert "1 grader errors" in said.out and "the grader failed on 1 file" in said.err
    [row] = list(csv.DictReader((tmp_path / "graded" / "grades.csv").open(encoding="utf-8-sig")))
    assert (row["result"], row["detail"]) == ("grader error", "KeyError: 'a bug'")


def test_a_request_and_all_it_leads_to_end_within_the_time_limit():
    """A student's function that calls the judge's module over and over cannot hold the judge past its limit."""
    import socket
    import threading
    import time

    from tools.grade_kernel import PeerTimeout

    a, b = socket.socketpair()

    def forever(layer):
        while True:
            layer(1)

    kernel = Endpoint(b, "kernel", {"forever": forever})
    server = threading.Thread(target=kernel.serve, daemon=True)
    server.start()
    judge = Endpoint(a, "judge", peer_trusted=False, timeout=1.0)
    student = judge.request({"op": "get", "name": "forever"})
    start = time.monotonic()
    with pytest.raises(PeerTimeout):
        student(lambda x: x)
    assert time.monotonic() - start < 3 and judge.broken
    a.close()


def test_a_fault_of_the_judge_is_a_grader_error_not_the_students(tmp_path, monkeypatch, capfd):
    nbformat.write(trimmed("en"), tmp_path / "a.ipynb")
    answers_ = nbformat.read(tmp_path / "a.ipynb", as_version=4)
    answers(answers_)[0].source = "answer_w_shape = (2, 8, 3, 7)\nanswer_out_shape = (2, 8, 3, 10)\n"
    nbformat.write(answers_, tmp_path / "a.ipynb")

    def broken(*args, **kwargs):
        raise ZeroDivisionError("the judge's bug")

    monkeypatch.setattr(grade.grade_judge, "run_check", broken)
    capfd.readouterr()
    assert grade.main(["05", str(tmp_path), "--cell-timeout", "30"]) == 1
    [row] = list(csv.DictReader((tmp_path / "graded" / "grades.csv").open(encoding="utf-8-sig")))
    assert (row["result"], row["detail"]) == ("grader error", "ZeroDivisionError: the judge's bug")
    assert not kernels_left() and not scratch_left()
    # the kernel is shut down without an interrupt (which ipykernel logged as an error for every submission)
    assert "KeyboardInterrupt" not in capfd.readouterr().err


def test_a_kernel_that_cannot_start_is_a_grader_error(tmp_path, monkeypatch):
    """A sandbox that cannot run the kernel (here: a command that ends at once) is the grader's problem: every
    exercise says so as a grader error, and the command exits 1, never 'did not run' charged to the student."""
    nbformat.write(trimmed("en"), tmp_path / "a.ipynb")
    monkeypatch.setattr(grade.grade_sandbox, "command", lambda argv, *args, **kwargs: ["/bin/false"])
    assert grade.main(["05", str(tmp_path), "--cell-timeout", "30"]) == 1
    rows = list(csv.DictReader((tmp_path / "graded" / "grades.csv").open(encoding="utf-8-sig")))
    assert rows and {r["result"] for r in rows} == {"grader error"}, rows
    assert all("did not start" in r["detail"] for r in rows), rows


def test_the_warm_up_compiles_even_where_the_shell_says_not_to_write_bytecode(tmp_path, monkeypatch):
    """Inside the sandbox the venv is read-only: a module the warm-up did not compile is compiled from source in
    every submission's kernel. PYTHONDONTWRITEBYTECODE, which many Docker images set, must not turn it off. The
    warm-up itself, given the probe's import alone (warm_bytecode adds the kernel's own imports, torch's among them:
    2 s of CPU for nothing this proves, and a record in _build/grade-warm/ under a new key at every run)."""
    from tools import grade_sandbox

    (tmp_path / "warm_probe_module.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    grade_sandbox._warm_up("import warm_probe_module\n", tmp_path, None)
    assert list((tmp_path / "__pycache__").glob("warm_probe_module.*.pyc")), "the warm-up compiled nothing"


def test_temporary_folders_are_removed_read_only_ones_too_and_after_a_kill(tmp_path):
    """A grading run stopped by SIGTERM (make's or CI's time limit) removes its folder, the kernel's read-only one
    included, and ends the kernels it started; one killed outright (SIGKILL) leaves its folder, which the next
    run removes; read-only and unreadable folders are removed by a user who is not root too."""
    import os
    import shutil
    import signal
    import subprocess
    import sys
    import tempfile
    import time

    temp = Path(tempfile.mkdtemp(prefix="g-"))  # TMPDIR of the grader below: short (socket paths), under /tmp
    try:
        dead = subprocess.Popen(["true"])
        dead.wait()
        stale = temp / f"book-grade-{dead.pid}-x1"  # a run killed with SIGKILL: its kernel folder read-only
        running = temp / "book-grade-1-x2"  # a run whose process still runs (pid 1): kept
        for folder in (stale / "kernel", stale / "submission-a" / "home" / "locked", running):
            folder.mkdir(parents=True)
        (stale / "kernel" / "grade_kernel.py").write_text("", encoding="utf-8")
        (stale / "kernel").chmod(0o555)
        (stale / "submission-a" / "home" / "locked").chmod(0o000)
        nb = trimmed("en")
        next(c for c in nb.cells if c.cell_type == "code").source = "import time\nwhile True:\n    time.sleep(0.1)\n"
        (tmp_path / "subs").mkdir()
        nbformat.write(nb, tmp_path / "subs" / "loop.ipynb")
        env = {**os.environ, "TMPDIR": str(temp)}
        grader = subprocess.Popen([sys.executable, "-m", "tools.grade", "05", str(tmp_path / "subs")], cwd=ROOT,
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        end = time.monotonic() + 120
        while not list(temp.glob("book-grade-*-*/submission-*/conn/kernel.json")) and time.monotonic() < end:
            time.sleep(0.2)
        assert not stale.exists(), "the next run removes a killed run's folder"
        mine = list(temp.glob(f"book-grade-{grader.pid}-*"))
        assert mine and list(mine[0].glob("submission-*")), "no kernel started"
        time.sleep(1)
        grader.send_signal(signal.SIGTERM)
        _, err = grader.communicate(timeout=60)
        assert grader.returncode == 130 and "interrupted (SIGTERM): nothing written" in err, (grader.returncode, err)
        assert sorted(p.name for p in temp.iterdir()) == [running.name], list(temp.rglob("*"))
        time.sleep(0.5)
        assert not [p for p in Path("/proc").glob("[0-9]*/cmdline") if str(mine[0]).encode() in _read(p)], \
            "a kernel outlived its interrupted grader"
        if os.getuid() == 0:  # the same as a user whom modes bind: read-only and unreadable folders, a link
            mode = temp / "modes"
            for folder in (mode / "kernel", mode / "home" / "locked" / "deeper"):
                folder.mkdir(parents=True)
            (mode / "kernel" / "grade_kernel.py").write_text("", encoding="utf-8")
            (mode / "home" / "link").symlink_to(ROOT / "README.md")
            for path in [temp, mode, *mode.rglob("*")]:
                os.lchown(path, 65534, 65534)
            for folder, bits in ((mode / "home" / "locked" / "deeper", 0o000), (mode / "home" / "locked", 0o500),
                                 (mode / "kernel", 0o555)):
                folder.chmod(bits)
            child = os.fork()  # as that user (this Python is under /root: no other user may start it)
            if child == 0:
                try:
                    os.setgid(65534)
                    os.setuid(65534)
                    grade.grade_run.remove_tree(mode)
                finally:
                    os._exit(0)
            os.waitpid(child, 0)
            assert not mode.exists(), list(mode.rglob("*"))
            assert (ROOT / "README.md").is_file()
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def test_a_cgroup_holds_all_the_processes_of_a_submission_together():
    """Three processes of 60 MiB each, under a limit of 128 MiB for them all (each alone is within it): the
    cgroup ends one. Where the grader may not make a cgroup (not root, no delegation) the guide says what holds
    instead (RLIMIT_DATA per process, the /tmp size)."""
    import os
    import subprocess
    import sys

    from tools import grade_sandbox

    cgroup = grade_sandbox.Cgroup.make(f"book-test-{os.getpid()}", 128 * 2**20)
    if cgroup is None:
        pytest.skip("no cgroup may be made here (not root, no delegated cgroup)")
    hog = "import sys, time\nblock = bytearray(60 * 2**20)\nfor i in range(0, len(block), 4096):\n" \
          "    block[i] = 1\nprint('held', flush=True)\ntime.sleep(30)\n"
    children = []
    try:
        for _ in range(3):
            child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.readline()\n" + hog],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert cgroup.add([child.pid])
            children.append(child)
        for child in children:
            child.stdin.write("go\n")
            child.stdin.flush()
        for child in children:
            child.stdout.readline()
        import time

        end = time.monotonic() + 10  # the killed child's end reaped: at once, or within a moment
        while -9 not in (codes := [child.poll() for child in children]) and time.monotonic() < end:
            time.sleep(0.05)
        assert cgroup.oom_killed() and -9 in codes, codes
    finally:
        for child in children:
            child.kill()
            child.wait()
        cgroup.remove()


def test_the_warm_up_is_done_once_and_again_when_a_compiled_module_is_gone(tmp_path, monkeypatch):
    """A grading run after the first does not warm up again (tools/grade_sandbox.py: WARM_CACHE), unless a module
    the warm-up imported has lost its compiled form, or what decides the imports changed (here PYTHONPATH). The
    record is outside everything the sandbox is shown."""
    from tools import grade_sandbox

    assert not any(p == grade_sandbox.WARM_CACHE or p in grade_sandbox.WARM_CACHE.parents
                   for p in grade_sandbox.python_paths())
    monkeypatch.setattr(grade_sandbox, "WARM_CACHE", tmp_path / "cache")
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "warm_once_probe.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "mods"))
    script = "import warm_once_probe"
    cache = grade_sandbox._warm_cache(script)
    assert cache is not None and cache.parent == tmp_path / "cache"
    assert grade_sandbox._cached_warm_up(cache) is None  # nothing recorded yet
    grade_sandbox._warm_up(script, tmp_path, cache)
    compiled = list((tmp_path / "mods" / "__pycache__").glob("warm_once_probe.*.pyc"))
    assert compiled, "the warm-up compiled nothing"
    assert str(tmp_path / "mods" / "warm_once_probe.py") in (cache / "modules.txt").read_text(encoding="utf-8")
    assert grade_sandbox._cached_warm_up(cache) is not None, "a second run would warm up again"
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    assert grade_sandbox._warm_cache(script) != cache
    compiled[0].unlink()
    assert grade_sandbox._cached_warm_up(cache) is None, "a module lost its compiled form: warm up again"
