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


def command(argv: list[str], home: Path, connection: Path, kernel_dir: Path, env: dict[str, str]) -> list[str]:
    """bwrap's command line that runs argv in the sandbox: home is bound as the private home and working
    folder, connection (read-write) and kernel_dir (read-only) at their own paths."""
    cmd = [shutil.which(BWRAP) or BWRAP, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
           "--ro-bind", "/usr", "/usr"]
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
    cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
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
    return [*cmd, *argv]


def available() -> str | None:
    """None if a sandbox can be made here, else why not (in words for the instructor)."""
    if not shutil.which(BWRAP):
        return "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
    probe = [BWRAP, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc",
             "--dev", "/dev", "--tmpfs", "/tmp", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        return f"bwrap could not run: {e}"
    if done.returncode != 0:
        return (f"bwrap cannot make a sandbox here ({done.stderr.strip()[:200] or f'exit code {done.returncode}'}); "
                "this system may not allow unprivileged user namespaces (kernel.unprivileged_userns_clone, "
                "or a container without them)")
    return None


_warmed: dict[str, dict[str, bytes]] = {}


def warm_bytecode(sources: list[str], scratch: Path) -> dict[str, bytes]:
    """Compile, outside the sandbox, the modules a submission's kernel will import, into the venv's __pycache__;
    return the files every kernel's home gets (matplotlib's font list, made on the way).

    Inside, the venv is read-only: a module without its compiled form there is compiled again in every kernel
    (make's set-up installs with --no-compile), about 2.5 s of CPU for torch and the kernel's own modules each
    time, so 4 minutes over a class of 100. The import statements are the chapter's own (its code cells, the
    book's code, never a submission's), run once here in the grader's own Python (once per process: a second
    grading run in the same process finds them compiled). Matplotlib's list of the system's fonts is made once
    here too, from the same fonts the sandbox shows (/usr and the venv, at the same paths): in an empty home,
    every kernel would run fc-list and build it again."""
    import ast

    imports = ["import ipykernel.kernelapp", "import IPython", "import safetensors.torch", "import matplotlib.font_manager"]
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:  # a cell with IPython syntax ('!pip ...'): its imports are elsewhere
            continue
        imports += [ast.unparse(node) for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    script = "\n".join(f"try:\n    {line}\nexcept Exception:\n    pass" for line in dict.fromkeys(imports))
    if script not in _warmed:
        config = scratch / "matplotlib"  # in the grading run's folder (removed with it)
        config.mkdir(exist_ok=True)
        # PYTHONDONTWRITEBYTECODE (set in many Docker images) would make this warm-up write nothing at all
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300,
                       env={**env, "MPLBACKEND": "Agg", "MPLCONFIGDIR": str(config)})
        _warmed[script] = {f".matplotlib/{p.name}": p.read_bytes() for p in config.glob("fontlist-*.json")}
    return _warmed[script]
