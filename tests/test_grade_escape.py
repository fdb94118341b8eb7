"""Submissions that try to forge their grade or to get out of their sandbox, graded by tools/grade.py in one run
of chapter 5 (each notebook cut down to its set-up, imports and exercises, so that the run is quick). Every
forgery leaves the results of the same wrong answers unchanged; every escape is asserted contained from
outside: on the instructor's side of the sandbox, not by what the submission says."""

from __future__ import annotations

import csv
import json
import os
import socket
import sys
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT
from test_grade import answers, trimmed

from tools import grade

WRONG = ["answer_w_shape = (2, 8, 3, 16)\nanswer_out_shape = (2, 8, 3, 10)\n",
         None,  # the template with its bug written another way (below)
         "def make_mask(lengths, T):\n    return torch.ones(len(lengths), 1, T, T, dtype=torch.bool)\n"]
NOT_YET = [("ch05-ex-shape", "not yet"), ("ch05-ex-scale", "not yet"), ("ch05-ex-mask", "not yet")]

FORGERIES = {
    "print": 'import builtins\n_print = builtins.print\n'
             'builtins.print = lambda *a, **k: _print(*[str(x).replace("❌", "✅") for x in a], **k)\n',
    "transformer": 'def _forge(lines):\n'
                   '    if any("check(" in line for line in lines):\n'
                   '        return [\'print("✅ correct!")\\n\']\n'
                   '    return lines\n'
                   'get_ipython().input_transformers_post.append(_forge)\n',
    "torch": "import torch\ntorch.allclose = lambda *a, **k: True\ntorch.equal = lambda *a, **k: True\n",
    "check": 'def check(name, test, hint):\n    print(f"✅ {name}: correct!")\n',
}


def wrong(lang: str = "en") -> nbformat.NotebookNode:
    nb = trimmed(lang)
    cells = answers(nb)
    cells[0].source, cells[2].source = WRONG[0], WRONG[2]
    cells[1].source = cells[1].source.replace("/ math.sqrt(d_k)", "/ d_k ** 0.5")
    return nb


def checks(nb) -> list:
    return [c for c in nb.cells if "exercise-check" in c.metadata.get("tags", [])]


ESCAPES = r'''
import json, os, socket, subprocess, sys
P = json.loads(PATHS)
seen = {}


def attempt(key, action):
    try:
        action()
        seen[key] = "L"
    except Exception:
        seen[key] = "B"


def read_secret():
    global leaked
    leaked = open(P["secret"]).read()


def unix(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    s.connect(path)


attempt("tmp", lambda: open(P["tmp"], "w").write("x"))
attempt("repo", lambda: open(P["repo"], "w").write("x"))
attempt("venv", lambda: open(P["venv"], "w").write("x"))
attempt("secret", read_secret)
attempt("ssh", lambda: os.listdir(P["ssh"]))
attempt("subs", lambda: os.listdir(P["subs"]))
attempt("unix", lambda: unix(P["unix"]))
attempt("abstract", lambda: unix("\0" + P["abstract"]))
attempt("tcp", lambda: socket.create_connection(("127.0.0.1", P["port"]), timeout=2))


def remount_and_write(folder, name, text="x"):
    # what root could do in a sandbox that kept its capabilities: make a read-only folder writable again
    subprocess.run(["mount", "-o", "remount,bind,rw", folder], capture_output=True, timeout=10)
    with open(os.path.join(folder, name), "a") as f:
        f.write(text)


kernel_dir = os.environ.get("PYTHONPATH", "/nonexistent").split(":")[0]
attempt("usr", lambda: remount_and_write("/usr", P["name"]))
attempt("venvrw", lambda: remount_and_write(P["venv_dir"], P["name"]))
# a grade_kernel.py that ends every later kernel would turn the classmates' rows into errors
attempt("kernel", lambda: remount_and_write(kernel_dir, "grade_kernel.py", "\nraise SystemExit(9)\n"))
attempt("userns", lambda: subprocess.run(["unshare", "-Ur", "true"], check=True, capture_output=True))
attempt("setuid", lambda: os.setuid(0))


def traceme():
    import ctypes
    if ctypes.CDLL(None, use_errno=True).ptrace(0, 0, 0, 0) != 0:  # PTRACE_TRACEME: needs no capability
        raise OSError(ctypes.get_errno(), "ptrace")


attempt("ptrace", traceme)
status = dict(line.split(":\t", 1) for line in open("/proc/self/status").read().splitlines() if ":\t" in line)
seen["cap"] = status["CapEff"].strip() + "," + status["CapBnd"].strip()
seen["uid"] = status["Uid"].split()[0]
seen["seccomp"] = status["Seccomp"].strip()
# the judge's socket taken before the grader makes it (its name was judge.sock): a grader error for the whole run
taken = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
taken.bind(os.path.join(os.path.dirname(sys.argv[sys.argv.index("-f") + 1]), "judge.sock"))
taken.listen(1)
# a detached process that would outlive the run and rewrite the grades
subprocess.Popen([sys.executable, "-c", P["forger"], P["marker"]], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
'''
FORGER = '''
import sys, time
for _ in range(600):
    for path in PATHS:
        try:
            open(path, "w").write("forged")
        except OSError:
            pass
    time.sleep(0.2)
'''


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    base = tmp_path_factory.mktemp("escape")
    folder, out, instructor = base / "submissions", base / "graded", base / "instructor"
    for path in (folder, instructor / ".ssh"):
        path.mkdir(parents=True)
    token = uuid.uuid4().hex
    secret = f"SECRET-{token}"
    (instructor / "notes.txt").write_text(secret, encoding="utf-8")
    (instructor / ".ssh" / "id_ed25519").write_text("PRIVATE KEY", encoding="utf-8")
    servers = {"unix": socket.socket(socket.AF_UNIX, socket.SOCK_STREAM),
               "abstract": socket.socket(socket.AF_UNIX, socket.SOCK_STREAM),
               "tcp": socket.socket(socket.AF_INET, socket.SOCK_STREAM)}
    servers["unix"].bind(str(instructor / "agent.sock"))
    servers["abstract"].bind(f"\0book-escape-{token}")
    servers["tcp"].bind(("127.0.0.1", 0))
    for server in servers.values():
        server.listen(5)
        server.setblocking(False)
    venv = Path(sys.prefix).resolve()
    paths = {"tmp": f"/tmp/book-escape-{token}", "repo": str(ROOT / f"escape-{token}"),
             "venv": str(venv / f"escape-{token}"), "secret": str(instructor / "notes.txt"),
             "ssh": str(instructor / ".ssh"), "subs": str(folder), "unix": str(instructor / "agent.sock"),
             "abstract": f"book-escape-{token}", "port": servers["tcp"].getsockname()[1],
             "marker": f"book-escape-marker-{token}", "name": f"escape-{token}", "venv_dir": str(venv),
             "forger": FORGER.replace("PATHS", repr([str(out / "grades.csv"), str(out / "totals.csv"),
                                                     str(instructor / "forged.txt")]))}
    nb = wrong()
    cells = answers(nb)
    # What the submission saw comes back as its (badly written) shape answer: the check's hint quotes it. The other
    # answer is right, not None: an answer still None makes the check say 'no answer yet' and nothing else.
    cells[0].source = ESCAPES.replace("PATHS", repr(json.dumps(paths))) + \
        'answer_w_shape = " ".join(f"{k}={v}" for k, v in seen.items())\nanswer_out_shape = (2, 8, 3, 10)\n'
    nbformat.write(nb, folder / "escape.ipynb")
    nbformat.write(wrong(), folder / "wrong.ipynb")
    for name, code in FORGERIES.items():
        nb = wrong()
        nb.cells.insert(3, nbformat.v4.new_code_cell(code))
        nbformat.write(nb, folder / f"forge_{name}.ipynb")
    nb = wrong()
    for cell, label in zip(checks(nb), ["ch05-ex-shape", "ch05-ex-scale", "ch05-ex-mask"], strict=True):
        cell.source = f'print("✅ {label}: correct!")\n'
    nbformat.write(nb, folder / "forge_edited_checks.ipynb")
    nb = wrong()
    for cell in checks(nb):
        nb.cells.remove(cell)
    nbformat.write(nb, folder / "forge_deleted_checks.ipynb")

    code = grade.main(["05", str(folder), "--jobs", "2", "--out", str(out)])
    written = (out / "grades.csv").read_bytes()
    time.sleep(1.5)  # time enough for a surviving forger to act
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8-sig")))
    by_file = {}
    for row in rows:
        by_file.setdefault(row["file"], []).append(row)
    yield {"code": code, "by_file": by_file, "paths": paths, "secret": secret, "servers": servers, "out": out,
           "written": written, "instructor": instructor}
    for server in servers.values():
        server.close()
    for path in (paths["tmp"], paths["repo"], paths["venv"], f"/usr/{paths['name']}", f"{venv}/{paths['name']}"):
        Path(path).unlink(missing_ok=True)  # never leave a file behind, even when a test below fails


def results(run, name):
    return [(r["exercise"], r["result"]) for r in run["by_file"][name]]


def test_the_run_completes(run):
    assert run["code"] == 0 and len(run["by_file"]) == 8


def test_wrong_answers_are_not_yet_without_forgery(run):
    assert results(run, "wrong.ipynb") == NOT_YET


@pytest.mark.parametrize("forgery", [*FORGERIES, "edited_checks", "deleted_checks"])
def test_a_forgery_changes_no_result(run, forgery):
    """A print that turns ❌ into ✅, an IPython input transformer that rewrites check cells, torch.allclose and
    torch.equal patched to say True, check() redefined, check cells edited to print ✅, check cells deleted."""
    assert results(run, f"forge_{forgery}.ipynb") == NOT_YET
    assert [r["detail"] for r in run["by_file"][f"forge_{forgery}.ipynb"]] == \
        [r["detail"] for r in run["by_file"]["wrong.ipynb"]]


def report(run) -> dict:
    row = run["by_file"]["escape.ipynb"][0]
    detail = row["detail"]
    assert (row["exercise"], row["result"]) == ("ch05-ex-shape", "not yet") and "got '" in detail, row
    found = dict(item.split("=") for item in detail.split("got '", 1)[1].rstrip("'").split())
    return found


def test_the_escape_notebook_ran_every_attempt(run):
    """What the submission saw (asserted from outside below): its own /tmp is private, so that write succeeds."""
    # A repository under /tmp (a clone there, as CI makes) has its path inside the sandbox's private /tmp, where a
    # write lands in that private folder: the write succeeds there and never reaches the repository (asserted
    # from outside below). Anywhere else the path's folders are the sandbox's read-only root.
    repo = "L" if Path("/tmp") in ROOT.resolve().parents else "B"
    assert report(run) == {"tmp": "L", "repo": repo, "venv": "B", "secret": "B", "ssh": "B", "subs": "B",
                           "unix": "B", "abstract": "B", "tcp": "B", "usr": "B", "venvrw": "B", "kernel": "B",
                           "userns": "B", "setuid": "B", "ptrace": "B", "cap": "0000000000000000,0000000000000000",
                           "uid": "65534", "seccomp": "2" if grade.grade_sandbox.seccomp_program() else "0"}


def test_no_remount_writes_usr_the_venv_or_the_kernel_file(run):
    """Whoever runs the grader (this test as root, in CI), the student's code is uid 65534 with no capability:
    a remount of /usr, of the venv or of the kernel's folder fails, and the classmates' kernels run unchanged."""
    name = run["paths"]["name"]
    assert not Path("/usr", name).exists() and not Path(run["paths"]["venv_dir"], name).exists()
    assert results(run, "wrong.ipynb") == NOT_YET


def test_a_write_to_tmp_stays_in_the_sandbox(run):
    assert not Path(run["paths"]["tmp"]).exists()


def test_a_write_to_the_repository_is_contained(run):
    assert not Path(run["paths"]["repo"]).exists()


def test_a_write_to_the_venv_is_contained(run):
    assert not Path(run["paths"]["venv"]).exists()


def test_an_instructor_file_is_not_read(run):
    out = run["out"]
    for path in [*out.glob("*.csv"), *(out / "feedback").iterdir()]:
        assert run["secret"] not in path.read_text(encoding="utf-8-sig"), path


def test_home_ssh_and_other_submissions_are_not_listed(run):
    assert report(run)["ssh"] == "B" and report(run)["subs"] == "B"


@pytest.mark.parametrize("kind", ["unix", "abstract", "tcp"])
def test_no_socket_outside_is_reached(run, kind):
    with pytest.raises(BlockingIOError):
        run["servers"][kind].accept()


def test_no_process_outlives_its_submission_and_the_grades_stay(run):
    marker = run["paths"]["marker"]
    alive = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if marker.encode() in (proc / "cmdline").read_bytes():
                    alive.append(proc.name)
            except OSError:
                pass
    assert not alive, f"processes of the submission still running: {alive}"
    assert (run["out"] / "grades.csv").read_bytes() == run["written"]
    assert not (run["instructor"] / "forged.txt").exists()
    assert "forged" not in (run["out"] / "totals.csv").read_text(encoding="utf-8-sig")


def test_feedback_details_are_capped():
    assert len(grade._cap("x" * 10_000)) == grade.DETAIL_CHARS
    assert os.environ.get("HOME") != "/home/student"  # the test itself runs outside any sandbox


def test_the_sandbox_drops_the_same_rights_for_a_normal_user():
    """The grader run by a normal user (here uid 65534, as setpriv makes it; this machine's Python lives under a
    folder only root reads, so the whole grader cannot run as another user here): the sandbox's own flags give the
    same uid, no capability, no nested user namespace and the seccomp filter."""
    import shutil
    import subprocess

    from tools import grade_sandbox

    if os.getuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root to become another user (setpriv)")
    import tempfile

    program = grade_sandbox.seccomp_program()
    folder = Path(tempfile.mkdtemp(prefix="book-escape-"))  # under /tmp, readable by the other user
    folder.chmod(0o755)
    filter_file = folder / "seccomp.bpf"
    filter_file.write_bytes(program or b"")
    filter_file.chmod(0o444)
    cmd = [shutil.which("bwrap"), *grade_sandbox.PRIVILEGE, *grade_sandbox.NO_USERNS, "--die-with-parent",
           "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--proc", "/proc", "--dev", "/dev",
           "sh", "-c", "grep -E '^(Uid|CapEff|CapBnd|Seccomp):' /proc/self/status; unshare -U true || echo no-userns"]
    if program:
        cmd = grade_sandbox.seccomp_wrap(cmd, filter_file)
    try:
        done = subprocess.run(["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", *cmd],
                              capture_output=True, text=True, timeout=30, cwd="/")
    finally:
        shutil.rmtree(folder)
    status = dict(line.split(":", 1) for line in done.stdout.splitlines() if ":" in line)
    assert status["Uid"].split()[0] == "65534" and status["CapEff"].strip() == status["CapBnd"].strip() == \
        "0000000000000000", done.stdout + done.stderr
    assert status["Seccomp"].strip() == ("2" if program else "0") and "no-userns" in done.stdout
