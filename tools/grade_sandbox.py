"""The sandbox a submission's kernel runs in, made by bubblewrap (Debian's `bubblewrap`, /usr/bin/bwrap).

Inside, the kernel sees: /usr and a few files of /etc the dynamic linker and fonts need, read-only; the virtual
environment and the Python it was made from, read-only; a copy of tools/grade_kernel.py (the only file of the
book it runs), read-only; a private home that is also its working folder (empty but for matplotlib's list of the
fonts, made by the grader: warm_bytecode); an empty private /tmp; and its
own connection folder (the Unix sockets the grader talks to it through), which is the only way out.
It does not see the repository, the instructor's home, the submissions folder, the grades, other kernels, or
any other file. It has no network of any kind (its own network namespace: no TCP, no abstract Unix sockets),
its own PID namespace (it sees no other process; when the kernel ends, every process it started ends with it:
--die-with-parent and the namespace's init), its own IPC and UTS namespaces, and a new session (no terminal).

What it does not limit: CPU time beyond the grader's time limits, disk space in its home beyond 256 MiB per
file, and it shares the kernel of the machine (a kernel exploit would escape any namespace sandbox)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

BWRAP = "bwrap"
HOME = "/home/student"
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "fonts", "localtime", "alternatives", "mime.types")


def python_paths() -> list[Path]:
    """The folders the grader's Python needs, read-only: its venv (resolved) and the Python the venv was made
    from, unless /usr holds them already."""
    paths = [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), Path(sys.executable).resolve().parent]
    found: list[Path] = []
    for path in paths:
        if path == Path("/usr") or Path("/usr") in path.parents:
            continue
        if not any(p == path or p in path.parents for p in found):
            found = [p for p in found if path not in p.parents] + [path]
    return found


def command(argv: list[str], home: Path, connection: Path, kernel_dir: Path, env: dict[str, str],
            seccomp: Path | None = None) -> list[str]:
    """bwrap's command line that runs argv in the sandbox: home is bound as the private home and working
    folder, connection (read-write) and kernel_dir (read-only) at their own paths; with the seccomp filter in
    the file seccomp, if given."""
    cmd = [shutil.which(BWRAP) or BWRAP, *PRIVILEGE, *_userns_flags(), "--die-with-parent", "--new-session",
           "--clearenv", "--ro-bind", "/usr", "/usr"]
    for link in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        if Path(f"/{link}").is_symlink():
            cmd += ["--symlink", os.readlink(f"/{link}"), f"/{link}"]
        elif Path(f"/{link}").is_dir():
            cmd += ["--ro-bind", f"/{link}", f"/{link}"]
    for name in ETC:
        if Path("/etc", name).exists():
            cmd += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    # the private /tmp first: a mount hides what was mounted below it before, and the venv may live under /tmp
    # (a clone in /tmp, as CI makes them), as do the home, connection and kernel folders the grader makes
    cmd += ["--proc", "/proc", "--dev", "/dev", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
    for path in python_paths():
        cmd += ["--ro-bind", str(path), str(path)]
    cmd += ["--bind", str(home), HOME,
            "--bind", str(connection), str(connection),
            "--ro-bind", str(kernel_dir), str(kernel_dir),
            # the sandbox's own root is a tmpfs holding the mount points' parent folders (/work/book for a venv
            # at /work/book/.venv, say): read-only too, so the only places to write are the home and /tmp
            "--remount-ro", "/",
            "--chdir", HOME]
    for key, value in {**env, "HOME": HOME}.items():
        cmd += ["--setenv", key, value]
    return seccomp_wrap([*cmd, *argv], seccomp) if seccomp is not None else [*cmd, *argv]


# the student's code runs as nobody (65534) in a user namespace of its own, whoever runs the grader (root
# included: bwrap run by root otherwise keeps every capability inside), with every capability dropped, the
# bounding set included (so nothing it runs can gain one: no mount, no remount of a read-only folder, no
# setuid program that works)
UID = GID = 65534
PRIVILEGE = ["--unshare-all", "--unshare-user", "--uid", str(UID), "--gid", str(GID), "--cap-drop", "ALL"]
# and no user namespace of its own inside (where it would be root again): --disable-userns, bubblewrap 0.8.0+
NO_USERNS = ["--disable-userns"]
_probed: dict[str, bool] = {}


# seccomp (x86-64): system calls no graded notebook needs and an escape or an attack on the machine would, refused
# with EPERM: mounts and namespaces, ptrace and reading other processes' memory, changing uid or gid, kernel
# modules, keys, BPF, perf events, userfaultfd, the clock, reboot and the like. Any other architecture (i386's
# int 0x80 and x32 included) is refused whole. The BPF program is written here (struct sock_filter), no library.
DENIED = {
    "ptrace": 101, "syslog": 103, "setuid": 105, "setgid": 106, "setreuid": 113, "setregid": 114,
    "setgroups": 116, "setresuid": 117, "setresgid": 119, "setfsuid": 122, "setfsgid": 123, "uselib": 134,
    "vhangup": 153, "pivot_root": 155, "adjtimex": 159, "chroot": 161, "acct": 163, "settimeofday": 164,
    "mount": 165, "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169, "sethostname": 170,
    "setdomainname": 171, "iopl": 172, "ioperm": 173, "init_module": 175, "delete_module": 176, "quotactl": 179,
    "clock_settime": 227, "kexec_load": 246, "add_key": 248, "request_key": 249, "keyctl": 250, "unshare": 272,
    "perf_event_open": 298, "name_to_handle_at": 303, "open_by_handle_at": 304, "clock_adjtime": 305,
    "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "finit_module": 313,
    "kexec_file_load": 320, "bpf": 321, "userfaultfd": 323, "open_tree": 428, "move_mount": 429, "fsopen": 430,
    "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
}
AUDIT_ARCH_X86_64 = 0xC000003E


def seccomp_program() -> bytes | None:
    """The seccomp filter bwrap --seccomp loads (a classic BPF program), or None where it is not written for the
    machine (not x86-64): there the sandbox holds without it (no capability, no user namespace), and the grader
    says so."""
    import platform
    import struct

    if platform.machine() not in ("x86_64", "AMD64"):
        return None
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    allow, eperm = 0x7FFF0000, 0x00050000 | 1
    numbers = sorted(set(DENIED.values()))
    # 0: arch; 1: not x86-64 -> deny; 2: number; 3: x32 -> deny; then one test per number; allow; deny
    deny = 4 + len(numbers) + 1
    program = [(ld, 0, 0, 4), (jeq, 0, deny - 2, AUDIT_ARCH_X86_64), (ld, 0, 0, 0),
               (jge, deny - 4, 0, 0x40000000)]
    for number in numbers:
        program.append((jeq, deny - len(program) - 1, 0, number))
    program += [(ret, 0, 0, allow), (ret, 0, 0, eperm)]
    assert len(program) == deny + 1
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in program)


def seccomp_wrap(cmd: list[str], program_file: Path) -> list[str]:
    """The bwrap command run by a shell that opens the filter as file descriptor 9 for bwrap --seccomp 9 (the
    kernel's launcher starts the command; it passes no other descriptor)."""
    at = cmd.index("--die-with-parent")
    cmd = [*cmd[:at], "--seccomp", "9", *cmd[at:]]
    return [shutil.which("sh") or "/bin/sh", "-c", 'exec "$@" 9<"$0"', str(program_file), *cmd]


def _userns_flags() -> list[str]:
    return NO_USERNS if _probed.get("disable-userns", True) else []


def _probe(flags: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([BWRAP, *PRIVILEGE, *flags, "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc",
                           "--dev", "/dev", "--tmpfs", "/tmp", "true"], capture_output=True, text=True, timeout=30)


def available() -> str | None:
    """None if a sandbox can be made here, else why not (in words for the instructor). A bubblewrap older than
    0.8.0 (no --disable-userns) makes a sandbox without that one protection, and the grader says so."""
    if not shutil.which(BWRAP):
        return "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
    try:
        done = _probe(NO_USERNS)
        _probed["disable-userns"] = done.returncode == 0
        if done.returncode != 0 and "disable-userns" in done.stderr:
            done = _probe([])
    except (OSError, subprocess.SubprocessError) as e:
        return f"bwrap could not run: {e}"
    if done.returncode != 0:
        return (f"bwrap cannot make a sandbox here ({done.stderr.strip()[:200] or f'exit code {done.returncode}'}); "
                "this system may not allow unprivileged user namespaces (kernel.unprivileged_userns_clone, "
                "or a container without them)")
    return None


TMP_BYTES = 256 * 2**20  # the sandbox's /tmp: a tmpfs (memory) of this size at most
PIDS = 512  # processes and threads of one submission, where a cgroup holds them
SHARED_MB = 768  # the cgroup's limit is the per-process one plus this: /tmp and the libraries every process maps


class Cgroup:
    """One submission's memory and process limit for all its processes together, its /tmp included (tmpfs pages
    are charged to the cgroup of the process that wrote them): a cgroup made under the grader's own, where the
    grader may make one (cgroup v2 with memory delegated to it, or v1's memory and pids hierarchies: root, or a
    container that lets it). Where it may not, Cgroup.make returns None and what holds is each process's
    RLIMIT_DATA (tools/grade_kernel.py), the /tmp size (TMP_BYTES) and the time limits."""

    def __init__(self, folders: list[Path]):
        self.folders = folders

    @classmethod
    def make(cls, name: str, memory_bytes: int) -> Cgroup | None:
        root = Path("/sys/fs/cgroup")
        own = {}
        try:
            for line in Path("/proc/self/cgroup").read_text().splitlines():
                number, controllers, path = line.split(":", 2)
                for controller in controllers.split(",") if controllers else [""]:
                    own[controller] = path.lstrip("/")
        except OSError:
            return None
        made: list[Path] = []
        try:
            if (root / "memory").is_dir() and "memory" in own:  # v1
                memory = root / "memory" / own["memory"] / name
                memory.mkdir()
                made.append(memory)
                (memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
                if (memory / "memory.memsw.limit_in_bytes").exists():
                    (memory / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
                if (root / "pids").is_dir() and "pids" in own:
                    pids = root / "pids" / own["pids"] / name
                    pids.mkdir()
                    made.append(pids)
                    (pids / "pids.max").write_text(str(PIDS))
            elif (root / "cgroup.controllers").exists() and "" in own:  # v2
                folder = root / own[""] / name
                folder.mkdir()
                made.append(folder)
                (folder / "memory.max").write_text(str(memory_bytes))
                (folder / "memory.swap.max").write_text("0")
                (folder / "pids.max").write_text(str(PIDS))
            else:
                return None
        except OSError:
            cls(made).remove()
            return None
        return cls(made)

    def add(self, pids: list[int]) -> bool:
        """Put these processes in it (before the student's code runs: what they start later stays in it)."""
        try:
            for folder in self.folders:
                for pid in pids:
                    (folder / "cgroup.procs").write_text(str(pid))
        except OSError:
            return False
        return True

    def oom_killed(self) -> bool:
        """Whether the kernel ended one of its processes for going over the limit."""
        for folder in self.folders:
            for name in ("memory.oom_control", "memory.events"):
                try:
                    for line in (folder / name).read_text().splitlines():
                        key, _, value = line.partition(" ")
                        if key == "oom_kill" and value.strip() not in ("", "0"):
                            return True
                except OSError:
                    continue
        return False

    def peak(self) -> int | None:
        for name in ("memory.max_usage_in_bytes", "memory.peak"):
            for folder in self.folders:
                try:
                    return int((folder / name).read_text())
                except (OSError, ValueError):
                    continue
        return None

    def remove(self) -> None:
        for folder in self.folders:
            for _ in range(50):  # its processes may take a moment to be gone
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    import time

                    time.sleep(0.1)


def descendants(pid: int) -> list[int]:
    """pid and every process under it (from /proc)."""
    parents: dict[int, list[int]] = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            parents.setdefault(parent, []).append(int(proc.name))
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        stack += parents.get(current, [])
    return found


_warmed: dict[str, dict[str, bytes]] = {}
# the warm-ups' records (warm_bytecode): the grader's own, outside anything the sandbox shows
WARM_CACHE = Path(__file__).resolve().parent.parent / "_build" / "grade-warm"
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/etc/fonts")


def warm_bytecode(sources: list[str], scratch: Path) -> dict[str, bytes]:
    """Compile, outside the sandbox, the modules a submission's kernel will import, into the venv's __pycache__;
    return the files every kernel's home gets (matplotlib's font list, made on the way).

    Inside, the venv is read-only: a module without its compiled form there is compiled again in every kernel
    (make's set-up installs with --no-compile), about 2.5 s of CPU for torch and the kernel's own modules each
    time, so 4 minutes over a class of 100. The import statements are the book's own (its code cells, the
    book's code, never a submission's: tools/grade.py gives every chapter's, so that one warm-up serves them
    all), run here in the grader's own Python. Matplotlib's list of the system's fonts is made here too, from
    the same fonts the sandbox shows (/usr and the venv, at the same paths): in an empty home, every kernel would
    run fc-list and build it again.

    Done once, not once per grading run: the warm-up (3.7 s of CPU a run, most of it importing torch again to
    find it compiled) leaves in _build/grade-warm/<key>/ (WARM_CACHE) the font list and the list of the source
    files it imported. The key is the interpreter, the import statements, PYTHONPATH, the venv's installed
    packages and the font folders; a later run with the same key reads the font list from there and runs nothing,
    unless a source file listed has no up-to-date compiled form (a venv whose __pycache__ was removed, a module
    edited): then it warms up again. The sandbox does not see that folder (the grader copies the font list into
    each home, as before); only the grader's user writes it, under a lock (two grading runs at once warm up
    once). Where it cannot be written, the warm-up is done once per process, as before."""
    imports = ["import ipykernel.kernelapp", "import IPython", "import safetensors.torch", "import matplotlib.font_manager"]
    for source in sources:
        imports += _imports(source)
    script = "\n".join(f"try:\n    {line}\nexcept Exception:\n    pass" for line in dict.fromkeys(imports))
    if script not in _warmed:
        cache = _warm_cache(script)
        _warmed[script] = _cached_warm_up(cache) if cache is not None else None
        if _warmed[script] is None:
            _warmed[script] = _warm_up(script, scratch, cache)
    return _warmed[script]


@functools.lru_cache(maxsize=2048)  # the book's ~600 code cells, parsed once per process, not once per grading run
def _imports(source: str) -> tuple[str, ...]:
    """A code cell's top-level import statements, as source."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:  # a cell with IPython syntax ('!pip ...'): its imports are elsewhere
        return ()
    return tuple(ast.unparse(node) for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom)))


def _warm_cache(script: str) -> Path | None:
    """The folder of this warm-up's record in the venv, or None where the grader may not write the venv."""
    import hashlib
    import json
    import sysconfig

    try:
        WARM_CACHE.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(WARM_CACHE, os.W_OK):
        return None
    packages = sorted(os.listdir(sysconfig.get_paths()["purelib"]))
    fonts = []
    for top in FONT_DIRS:
        for folder, _, _ in os.walk(top):
            fonts.append((folder, os.stat(folder).st_mtime_ns))
    key = json.dumps([os.path.realpath(sys.executable), sys.version, script, os.environ.get("PYTHONPATH", ""),
                      packages, fonts])
    return WARM_CACHE / hashlib.sha256(key.encode()).hexdigest()[:32]


def _compiled(source: str) -> bool:
    """Whether a source file's compiled form is in its __pycache__ and up to date (its header's mtime and size)."""
    import importlib.util

    try:
        st = os.stat(source)
        with open(importlib.util.cache_from_source(source), "rb") as f:
            header = f.read(16)
    except (OSError, ValueError, NotImplementedError):
        return False
    return (len(header) == 16 and int.from_bytes(header[4:8], "little") == 0
            and int.from_bytes(header[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(header[12:16], "little") == st.st_size & 0xFFFFFFFF)


def _cached_warm_up(cache: Path) -> dict[str, bytes] | None:
    """The home files of an earlier warm-up with the same key, if every module it imported is still compiled."""
    try:
        sources = (cache / "modules.txt").read_text(encoding="utf-8").splitlines()
        files = {f".matplotlib/{p.name}": p.read_bytes() for p in cache.glob("fontlist-*.json")}
    except OSError:
        return None
    return files if sources and all(map(_compiled, sources)) else None


def _warm_up(script: str, scratch: Path, cache: Path | None) -> dict[str, bytes]:
    import fcntl
    import tempfile

    lock = None
    if cache is not None:
        try:
            cache.parent.mkdir(exist_ok=True)
            lock = open(cache.parent / "lock", "a")  # noqa: SIM115 - held until the record is written
            fcntl.flock(lock, fcntl.LOCK_EX)
        except OSError:
            cache = None
    try:
        if cache is not None:  # another grading run may have warmed up while this one waited for the lock
            files = _cached_warm_up(cache)
            if files is not None:
                return files
        config = Path(tempfile.mkdtemp(prefix="warm-", dir=scratch))  # in the grading run's folder (removed with it)
        modules = config / "modules.txt"
        # and the source files it imported, whose compiled forms a later run checks
        listing = (f"\nimport sys as _s\nopen({str(modules)!r}, 'w', encoding='utf-8').write('\\n'.join(sorted("
                   "{f for m in list(_s.modules.values()) if isinstance(f := getattr(m, '__file__', None), str) "
                   "and f.endswith('.py') and f.startswith('/')})))\n")
        # PYTHONDONTWRITEBYTECODE (set in many Docker images) would make this warm-up write nothing at all
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([sys.executable, "-c", script + listing], capture_output=True, timeout=300,
                       env={**env, "MPLBACKEND": "Agg", "MPLCONFIGDIR": str(config)})
        fonts = list(config.glob("fontlist-*.json"))
        files = {f".matplotlib/{p.name}": p.read_bytes() for p in fonts}
        if cache is not None and modules.is_file():  # not written by a warm-up that failed or timed out
            try:  # written whole, then renamed into place: a record is complete or absent
                record = Path(tempfile.mkdtemp(prefix="new-", dir=cache.parent))
                for path in [*fonts, modules]:
                    shutil.copyfile(path, record / path.name)
                record.chmod(0o755)
                shutil.rmtree(cache, ignore_errors=True)
                os.replace(record, cache)
            except OSError:
                pass
        return files
    finally:
        if lock is not None:
            lock.close()
