"""Run one submission in its sandbox, then let the judge question its kernel (tools/grade.py calls run()).

The submission's code cells run in order, as Colab's Run all would, in a kernel of their own (tools/grade_kernel.py)
inside the sandbox (tools/grade_sandbox.py), with a time limit per cell and in all and a memory limit; its check
cells are left out (the judge runs the book's). The run stops at the first cell that fails. Then, unless the
kernel is gone, the grader asks it to connect to the judge's socket in its connection folder, and the judge
(tools/grade_judge.py) asks it for the answers."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import stat
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from nbformat import NotebookNode
from nbformat.v4 import nbbase

from tools import grade_sandbox
from tools.grade_kernel import Endpoint, PeerTimeout

DETAIL_CHARS = 300


@dataclass
class Limits:
    cell_seconds: float = 60.0
    total_seconds: float = 300.0
    memory_mb: int = 2048
    sandbox: bool = True


@dataclass
class Stop:
    cell: int  # index among the submission's cells; -1: before any cell
    key: str  # a words key of tools/grade.py: stopped, timeout, total, memory, exited, crashed, killed, no kernel
    error: str = ""
    code: int | None = None


SCRATCH_PREFIX = "book-grade-"


@dataclass
class Scratch:
    """A grading run's one temporary folder, book-grade-<the grader's pid>-XXXX under TMPDIR: the zips unpacked
    (unzip/), the sandbox's seccomp filter (seccomp.bpf), one folder per running submission (its home, its
    connection folder, its own read-only copy of the kernel's file); and the files every kernel's home starts with. The grader removes it at the end whatever happened (remove_tree: read-only
    folders too); a grader killed outright (SIGKILL) leaves it, and the next grading run removes it
    (sweep_stale)."""

    folder: Path
    home_files: dict[str, bytes] = field(default_factory=dict)

    @property
    def seccomp(self) -> Path | None:
        path = self.folder / "seccomp.bpf"
        return path if path.exists() else None


def scratch_folder() -> Scratch:
    sweep_stale()
    scratch = Scratch(Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")))
    program = grade_sandbox.seccomp_program()
    if program is not None:  # read by the shell that starts bwrap, outside the sandbox
        (scratch.folder / "seccomp.bpf").write_bytes(program)
        (scratch.folder / "seccomp.bpf").chmod(0o444)
    return scratch


def kernel_folder(folder: Path) -> Path:
    """A read-only folder holding the one file of the book the kernel runs: a copy of tools/grade_kernel.py."""
    folder.mkdir()
    shutil.copy2(Path(__file__).with_name("grade_kernel.py"), folder / "grade_kernel.py")
    (folder / "grade_kernel.py").chmod(0o444)
    folder.chmod(0o555)
    return folder


def remove_tree(path: Path) -> None:
    """Remove a folder and all it holds, also where modes forbid it to its owner: the kernel's read-only folder,
    or a folder a submission made read-only or unreadable in its home. Symbolic links are removed, never
    followed."""
    stack = [Path(path)]
    while stack:
        folder = stack.pop()
        try:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                continue
            os.chmod(folder, 0o700)
            stack += [Path(e.path) for e in os.scandir(folder) if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
    shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def sweep_stale() -> None:
    """Remove the folders of grading runs whose grader is gone without removing them (killed with SIGKILL, the
    machine stopped): this user's book-grade-<pid>-* folders under TMPDIR whose process no longer runs."""
    for folder in Path(tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*-*"):
        owner = re.fullmatch(rf"{SCRATCH_PREFIX}(\d+)-\w+", folder.name)
        try:
            mine = folder.lstat().st_uid == os.getuid() and stat.S_ISDIR(folder.lstat().st_mode)
        except OSError:
            continue
        if owner and mine and not _alive(int(owner[1])):
            remove_tree(folder)


def _manager_class():
    """jupyter_client's kernel manager, but one that shuts a kernel down without interrupting it first: the
    interrupt reached the kernel's last request still running (the judge's serve(), or a student's loop) and
    ipykernel logged "KeyboardInterrupt caught in kernel." for every submission; the kernel is killed anyway."""
    from jupyter_client.manager import AsyncKernelManager

    class KernelManager(AsyncKernelManager):
        async def _async_interrupt_kernel(self) -> None:
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

    return KernelManager


def _client_class():
    """nbclient's client, but one that keeps no output: the grader reads none (a cell's error comes in its reply),
    and a submission that prints 500 MB would otherwise make the grader hold it all."""
    from nbclient import NotebookClient

    class Client(NotebookClient):
        def output(self, outs, msg, display_id, cell_index):
            return None

    return Client


def _cell(kind: str, source: str):
    """A cell of the notebook the client runs, as nbformat.v4's new_code_cell and new_raw_cell make it but without
    their schema validation (a few ms a cell, then the whole notebook again in new_notebook, for every submission):
    the submission was validated whole when it was read (tools/grade.py: read_notebook), and these cells hold its
    sources as they are, or nothing."""
    if kind == "code":
        return NotebookNode(id=nbbase.random_cell_id(), cell_type="code", metadata=NotebookNode(), execution_count=None,
                            source=str(source), outputs=[])
    return NotebookNode(id=nbbase.random_cell_id(), cell_type="raw", metadata=NotebookNode(), source=str(source))


def _notebook(cells: list):
    return NotebookNode(nbformat=nbbase.nbformat, nbformat_minor=nbbase.nbformat_minor, metadata=NotebookNode(),
                        cells=cells)


def _plain(text) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", str(text))


def _exit_stop(km, index: int) -> Stop:
    """Why the kernel is gone: its exit code, or the signal that ended it (bwrap reports 128 + signal)."""
    code = None
    process = getattr(getattr(km, "provisioner", None), "process", None)
    for _ in range(20):
        code = process.poll() if process is not None else None
        if code is not None:
            break
        time.sleep(0.1)
    if code is not None and code < 0:
        code = 128 - code
    if code is not None and code > 128:
        sig = code - 128
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else f"signal {sig}"
        return Stop(index, "killed" if sig == signal.SIGKILL else "crashed", name, code)
    return Stop(index, "exited", "", code)


def run(cells: list, skip: set[int], limits: Limits, scratch: Scratch, judge,
        checkpoints: dict[int, list[str]] | None = None) -> tuple[Stop | None, list]:
    """Run the submission's code cells (all but the indices in skip); where the run reaches a cell of
    checkpoints (a check cell), call judge(session, None, its labels): those exercises are judged from the state
    the student saw there, so what a later cell does (ends the kernel, raises, loops) cannot change them. At the
    end, judge(session or None, stop, the labels not judged yet); return (stop, all the judge's rows). session
    is None when the kernel cannot be questioned."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_core.utils import run_sync
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    from tools.notebooks import wait_in_slices

    work = Path(tempfile.mkdtemp(prefix="submission-", dir=scratch.folder))
    # each submission's own copy of the kernel's file, read-only: nothing one kernel does reaches another's
    kernel_dir = kernel_folder(work / "kernel")
    home, connection, specs = work / "home", work / "conn", work / "kernels"
    for folder in (home, connection):
        folder.mkdir()
    for name, data in scratch.home_files.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_bytes(data)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONPATH": str(kernel_dir), "BOOK_GRADE_MEMORY_MB": str(limits.memory_mb),
           "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "MPLBACKEND": "agg", "LANG": "C.UTF-8",
           "PYTHONHASHSEED": "0", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    python = Path(sys.prefix).resolve() / "bin" / Path(sys.executable).name  # the venv's, by its real path
    argv = [str(python if python.exists() else sys.executable), str(kernel_dir / "grade_kernel.py"), "-f", "{connection_file}"]
    if limits.sandbox:
        argv = grade_sandbox.command(argv, home, connection, kernel_dir, env, scratch.seccomp)
    else:
        env["HOME"] = str(home)
    (specs / "book-graded").mkdir(parents=True)
    (specs / "book-graded" / "kernel.json").write_text(json.dumps(
        {"argv": argv, "display_name": "graded submission", "language": "python", "interrupt_mode": "message"}),
        encoding="utf-8")
    km = _manager_class()(kernel_name="book-graded", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(specs)]),
                       transport="ipc", ip=str(connection / "kernel"), connection_file=str(connection / "kernel.json"))
    nb = _notebook([_cell("code", c.source) if c.cell_type == "code" and i not in skip else _cell("raw", "")
                    for i, c in enumerate(cells)])
    client = _client_class()(nb, km=km, timeout=limits.cell_seconds, allow_errors=False, shutdown_kernel="immediate",
                            resources={"metadata": {"path": str(home)}})
    start = time.monotonic()
    stop: Stop | None = None
    cgroup = None
    result, judged, judge_error = None, [], None
    checkpoints = dict(checkpoints or {})
    done: set[str] = set()
    answers = True  # False once the kernel did not connect to the judge: not asked again before the end
    try:
        # only these variables: none of the instructor's (tokens, paths) reach the submission
        with client.setup_kernel(env=env if not limits.sandbox else {"PATH": env["PATH"]}, cleanup_kc=True):
            wait_in_slices(client)
            if limits.sandbox:  # all the sandbox's processes, its /tmp included, within the memory limit
                cgroup = grade_sandbox.Cgroup.make(work.name, (limits.memory_mb + grade_sandbox.SHARED_MB) * 2**20)
                process = getattr(getattr(km, "provisioner", None), "process", None)
                if cgroup is not None and (process is None or not cgroup.add(grade_sandbox.descendants(process.pid))):
                    cgroup.remove()
                    cgroup = None
            for index, cell in enumerate(client.nb.cells):
                labels = [label for label in checkpoints.get(index, ()) if label not in done]
                if labels and answers:
                    session = _connect(client, connection, limits)
                    try:
                        judged += judge(session, None, labels)
                    except Exception as e:  # the grader's own fault: raised once the kernel is gone
                        judge_error = e
                        break
                    done.update(labels)
                    answers = session is not None and session.end is not None
                    if answers and isinstance(session.end.broken, PeerTimeout):
                        # the judge gave up on the student's code it called (a slow answer), which still runs in
                        # serve(): stopped, so that the next cells run and are judged, as after any other answer
                        answers = _interrupt_until_reply(km, client)
                    elif answers:
                        _drain(client)  # the kernel's serve() ended with the judge's goodbye
                if cell.cell_type != "code":
                    continue
                left = limits.total_seconds - (time.monotonic() - start)
                if left <= 0:
                    stop = Stop(index, "total")
                    break
                client.timeout = min(limits.cell_seconds, left)
                try:
                    client.execute_cell(cell, index)
                except CellTimeoutError:
                    stop = Stop(index, "total" if client.timeout < limits.cell_seconds else "timeout")
                    break
                except DeadKernelError:
                    stop = _exit_stop(km, index)
                    if cgroup is not None and stop.key == "killed" and cgroup.oom_killed():
                        stop = Stop(index, "memory", f"{limits.memory_mb + grade_sandbox.SHARED_MB} MiB for all "
                                                     "its processes and /tmp together")
                    break
                except CellExecutionError as e:
                    error = f"{e.ename}: {_plain(e.evalue)}"[:DETAIL_CHARS]
                    memory = e.ename == "MemoryError" or "can't allocate memory" in str(e.evalue)
                    stop = Stop(index, "memory" if memory else "stopped", error)
                    break
            if stop is not None and stop.key in ("timeout", "total"):
                _interrupt_until_reply(km, client)
            alive = run_sync(km.is_alive)() and (stop is None or stop.key not in ("exited", "crashed", "killed"))
            if judge_error is None:
                try:
                    result = judged + judge(_connect(client, connection, limits) if alive else None, stop,
                                            "rest")
                except Exception as e:  # the grader's own fault, not the submission's: raised once the kernel is gone
                    judge_error = e
    except Exception as e:  # a kernel that would not start, a client error: the submission could not run
        if stop is None:
            stop = Stop(-1, "no kernel", f"{type(e).__name__}: {e}"[:DETAIL_CHARS])
        if result is None and judge_error is None:
            result = judged + judge(None, stop, "rest")
    finally:
        try:  # nbclient shuts down the kernel it started; this one in case it could not
            if run_sync(km.is_alive)():
                run_sync(km.shutdown_kernel)(now=True)
        except Exception:
            pass
        if cgroup is not None:
            cgroup.remove()
        remove_tree(work)
    if judge_error is not None:
        raise judge_error
    return stop, result


def _interrupt(km) -> None:
    """Ask the kernel to interrupt the cell it runs (an interrupt_request on its control channel: a signal to
    bwrap would not reach the kernel inside the sandbox)."""
    from jupyter_client import BlockingKernelClient

    client = BlockingKernelClient(connection_file=km.connection_file)
    client.load_connection_file()
    client.start_channels(shell=False, iopub=False, stdin=False, hb=False, control=True)
    try:
        client.control_channel.send(client.session.msg("interrupt_request", content={}))
        client.control_channel.get_msg(timeout=5)
    except Exception:  # no reply: the judge will find the kernel unresponsive and say so
        pass
    finally:
        client.stop_channels()


# How long to wait for the reply of an interrupted cell before interrupting it again. The reply normally comes at
# once: for 66 of 68 looping cells (sleeping, pure Python, small and 1500 x 1500 matrix products) graded two at a
# time on 2 cores at load averages of 4 to 6, within 0.72 s; the other two replied only 9 and 10 s after a second
# interrupt, busy in something the interrupt did not reach. Past the first wait the cell caught the interrupt (a
# student's `except KeyboardInterrupt:` that loops on: tests/test_grade.py) or is in a long native call that sees
# it only when it returns: longer waits then, 22 s in all.
INTERRUPT_WAITS = (2.0, 10.0, 10.0)


def _interrupt_until_reply(km, client) -> bool:
    """Interrupt the running cell until its reply comes (three times at most): the student's code may catch the
    first KeyboardInterrupt and go on, and an interrupt can be lost; without the reply, the judge's request would
    wait behind the cell, and the answers given before it could not be read. Whether the reply came."""
    for seconds in INTERRUPT_WAITS:
        _interrupt(km)
        if _drain(client, seconds):
            return True
    return False


def _drain(client, seconds: float = 10.0) -> bool:
    """Wait for the interrupted cell's reply (a request sent before it would be aborted with it): whether it came."""
    from jupyter_core.utils import run_sync

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            reply = run_sync(client.kc.get_shell_msg)(timeout=max(0.1, end - time.monotonic()))
        except Exception:
            return False
        if reply.get("msg_type") == "execute_reply":
            return True
    return False


class _Session:
    """The judge's end of the wire to one kernel; closing it lets the kernel's serve() return."""

    def __init__(self, listener, client, limits):
        self.listener, self.client, self.limits, self.end = listener, client, limits, None

    def endpoint(self) -> Endpoint | None:
        if self.end is None:
            # how soon a kernel answers depends on the machine's load, not on the student's cell limit
            self.listener.settimeout(30.0)
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return None
            self.end = Endpoint(sock, "judge", peer_trusted=False, timeout=self.limits.cell_seconds)
            # and all the judge's questions to this kernel within the submission's time limit
            self.end.budget = time.monotonic() + self.limits.total_seconds
        return self.end

    def close(self) -> None:
        if self.end is not None:
            try:
                if not self.end.broken:
                    self.end._send({"op": "bye"})
            except OSError:
                pass
            self.end.sock.close()
        self.listener.close()


def _connect(client, connection: Path, limits: Limits) -> _Session | None:
    """The judge's socket, under a name no submission can know in advance (a socket or file the student's code
    made in the connection folder cannot take its place), and the kernel asked to connect to it; None if it
    cannot be made (the judge then says the kernel did not answer)."""
    path = str(connection / f"judge-{os.urandom(8).hex()}.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(path)
        listener.listen(1)
    except OSError:
        listener.close()
        return None
    # the kernel connects to the judge and serves it until the judge says goodbye
    client.kc.execute(f"import grade_kernel as _book_grade_kernel\n_book_grade_kernel.serve(get_ipython().user_ns, {path!r})",
                      store_history=False)
    return _Session(listener, client, limits)
