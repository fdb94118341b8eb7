"""Generate each chapter's notebooks from its source, execute them, and store them deterministically.

    python -m tools.notebooks execute [CHAPTER ...] [--lang ko|en] [--jobs N] [--out DIR]
    python -m tools.notebooks check                 # committed notebooks match their sources?
    python -m tools.notebooks student               # write the student notebooks (no solutions)

CHAPTER is a number ('1', '01') or a stem ('01_dict_to_attention'); none means every chapter.
Executing twice writes byte-identical files: no timestamps, widget model ids derived from the
chapter's name, outputs in a fixed order. Each run reports run time (kernel start to the last cell) and peak memory.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat

from tools.source import LANGS, ROOT, SourceError, chapters, find, notebook_path, parse

TIMEOUT = 120  # seconds per cell
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_ID_NAMESPACE = uuid.UUID("6a1c6f0e-8d5b-4f43-9a54-6c1d2b7f3e10")


def execute(nb: nbformat.NotebookNode, cwd: Path,
            perturb: float | None = None) -> tuple[nbformat.NotebookNode, float, int | None]:
    """Run every cell in a fresh kernel; return the notebook, run seconds and peak RSS bytes.

    Run seconds are what 'Restart & Run All' costs a reader: from asking for a kernel to the end of the
    last cell. The kernel is then stopped at once (killed): every output has arrived by then, and a
    graceful shutdown (1 to 3 s here, while torch's threads wind down) would only make the tests wait."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from traitlets.config import Config

    # IPC sockets in a private folder: no TCP ports, and no warning about unencrypted TCP.
    sockets = tempfile.mkdtemp(prefix="book-kernel-")
    client = NotebookClient(
        nb,
        config=Config({"KernelManager": {"transport": "ipc", "ip": str(Path(sockets) / "kernel")}}),
        timeout=TIMEOUT,
        kernel_name="python3",
        record_timing=False,
        store_widget_state=True,
        shutdown_kernel="immediate",
        resources={"metadata": {"path": str(cwd)}},
    )
    # nbclient lets a cell tagged raises-exception fail quietly; that tag is for nbval (compare the error a
    # `with expect_error(...)` cell shows). Here a failing reply must stop the run, as in Colab: a block whose
    # error did not happen, or raised another one. Untagged while running, tagged again after.
    tagged = [cell for cell in nb.cells if "raises-exception" in cell.metadata.get("tags", [])]
    for cell in tagged:
        cell.metadata["tags"].remove("raises-exception")
    start = time.perf_counter()
    peak = seconds = None
    try:
        with client.setup_kernel(env=_kernel_env(perturb)):
            wait_in_slices(client)
            for index, cell in enumerate(client.nb.cells):
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError as e:
                    raise CellFailed(cell.id, f"{e.ename}: {_plain(e.evalue)}") from None
            seconds = time.perf_counter() - start
            peak = _peak_rss(client)
            client.set_widgets_metadata()
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
        for cell in tagged:
            cell.metadata["tags"].append("raises-exception")
    return client.nb, seconds, peak


POLL_SLICE = 0.5  # seconds


def _in_slices(get_msg):
    """The channel's get_msg, waiting in slices of POLL_SLICE seconds instead of all at once.

    nbclient waits for a cell's reply with one get_msg(timeout=<the whole cell timeout>), which is one
    pyzmq asyncio poll. That poll is woken by the socket's edge-triggered file descriptor and looks at
    the socket again only when its timeout runs out; when the wake-up is missed (seen here on a busy
    machine, a widget cell while the browser tests ran), a reply that had long arrived was read only
    120 s later, with no error. Each slice ends in such a look, so a missed wake-up costs POLL_SLICE."""
    from queue import Empty

    async def get_msg_in_slices(timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                return await get_msg(timeout=POLL_SLICE if left is None else min(POLL_SLICE, left))
            except Empty:
                if left is not None and left <= POLL_SLICE:
                    raise

    return get_msg_in_slices


def wait_in_slices(client) -> None:
    """Make a started NotebookClient wait for its kernel's replies and outputs in slices (_in_slices)."""
    for channel in (client.kc.shell_channel, client.kc.iopub_channel):
        channel.get_msg = _in_slices(channel.get_msg)


class CellFailed(RuntimeError):
    """A cell raised an error (a deliberate error is caught and shown by 'with expect_error(...)')."""

    def __init__(self, cell_id: str, error: str):
        super().__init__(cell_id, error)
        self.cell_id, self.error = cell_id, error


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


# What a stored output must not depend on, fixed for every kernel the executor starts: string hashing,
# and the thread count (Colab's free CPU runtime has 2; a 64-core workstation would otherwise split
# its reductions 64 ways). A caller may choose another thread count: the tests do (NUMERIC_SETTINGS).
FIXED_ENV = {"PYTHONHASHSEED": "0"}
DEFAULT_THREADS = {"OMP_NUM_THREADS": "2", "MKL_NUM_THREADS": "2"}


PERTURB_DIR = Path(__file__).resolve().parent / "perturb"
# Chapters that --perturb runs without the perturbing mode, and why. Chapter 7's outputs are measurements
# of time and memory (booleans about them, with wide margins), and the perturbing mode changes what it would
# measure: it adds a Python call to every torch function, which flattens the growth of run times with T, and
# any active TorchFunctionMode turns off nn.MultiheadAttention's native path, whose kernel the chapter's
# profiler looks for. Its float outputs are still proven on two machines: nbval's default kernels, and the
# re-execution test's other kernels (numeric_settings()["scalar"]).
NOT_PERTURBED = {"07_cost": "its outputs measure time and memory, which the perturbing mode itself changes"}


def _kernel_env(perturb: float | None = None) -> dict:
    import os

    env = dict(os.environ)
    if perturb:  # tools/perturb/sitecustomize.py moves kernel-chosen results by up to this many ulps
        env["PYTHONPATH"] = os.pathsep.join([str(PERTURB_DIR), *filter(None, [env.get("PYTHONPATH")])])
        env["BOOK_PERTURB_ULPS"] = str(perturb)
    for name, value in DEFAULT_THREADS.items():
        env.setdefault(name, value)
    env.update(FIXED_ENV)
    env.update({"MPLBACKEND": "module://matplotlib_inline.backend_inline",
                # every explorer stores the output of every setting, for the web page (_explorer_helper.py)
                "BOOK_EXPLORER_STATES": "all"})
    return env


def numeric_settings() -> dict[str, dict[str, str]]:
    """Two ways of running the same float32 code that round differently from this machine's default, for
    the tests that prove every stored output is a function of the book's code alone (CONTRIBUTING.md:
    "Outputs that hold on any machine"). Each names the environment that selects it:
    - scalar: PyTorch's kernels without vector instructions (ATEN_CPU_CAPABILITY=default), MKL on its
      conditional-reproducibility path for old CPUs (MKL_CBWR=COMPATIBLE), one thread;
    - narrower: the widest vector unit below this CPU's (AVX2 on an AVX-512 CPU; scalar on an AVX2 CPU,
      which the first setting then repeats without its MKL path), one thread.
    The tests run the re-execution under the first and the Colab-faithful run under the second, so that with
    nbval (this machine's vector unit) three settings are checked at the cost of the runs that were there. All
    three use one thread: the stored outputs were computed with two (DEFAULT_THREADS), so each run also checks
    that the thread count changes no output; more threads than the one a test process gets only waited for
    cores the other pytest worker held (tests/conftest.py)."""
    import torch

    native = torch.backends.cpu.get_cpu_capability().upper()
    narrower = {"AVX512": "avx2"}.get(native, "default")
    return {
        "scalar": {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE",
                   "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
        "narrower": {"ATEN_CPU_CAPABILITY": narrower, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
    }


def _peak_rss(client) -> int | None:
    """The kernel's high-water resident memory (Linux /proc), read before it shuts down."""
    try:
        pid = client.km.provisioner.process.pid
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except (AttributeError, OSError, ValueError):
        pass
    return None


def normalise(nb: nbformat.NotebookNode, stem: str, lang: str) -> nbformat.NotebookNode:
    """Remove what changes from run to run, so that re-running gives the same bytes."""
    from tools.source import notebook_metadata

    widgets = nb.metadata.get("widgets", {}).get(WIDGET_STATE)
    nb.metadata = notebook_metadata(lang)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _merge_streams(cell.outputs)
        for output in cell.get("outputs", []):
            output.get("metadata", {}).pop("execution", None)
            if output.get("output_type") == "error":
                output["traceback"] = [portable(line) for line in output["traceback"]]
            elif output.get("output_type") == "stream":
                output["text"] = portable(output["text"])
    if widgets and widgets.get("state"):
        nb.metadata["widgets"] = {WIDGET_STATE: widgets}
        _renumber_widgets(nb, stem)
    return nb


_INSTALLED = re.compile(r"(?:/[^\s/\x1b:,'\"]+)+/(site-packages|dist-packages)/")


def portable(text: str) -> str:
    """Paths as they read on any machine: a traceback through an installed package names the file
    under '.../site-packages/', and one through this repository names it relative to the checkout.
    Absolute paths would differ between the machine that ran the notebook and any other."""
    text = _INSTALLED.sub(r".../\1/", text)
    return text.replace(str(ROOT) + "/", "")


def _merge_streams(outputs: list) -> list:
    """One output per run of stdout (or stderr) text: how the kernel splits a stream into messages
    depends on timing, so it must not reach the stored notebook."""
    merged: list = []
    for output in outputs:
        if (output.output_type == "stream" and merged and merged[-1].output_type == "stream"
                and merged[-1].name == output.name):
            merged[-1].text += output.text
        else:
            merged.append(output)
    return merged


def _renumber_widgets(nb: nbformat.NotebookNode, stem: str) -> None:
    """Replace the kernel's random widget model ids by ids derived from the chapter and order."""
    state = nb.metadata["widgets"][WIDGET_STATE]["state"]
    order: list[str] = []

    def visit(model_id: str) -> None:
        if model_id in state and model_id not in order:
            order.append(model_id)
            text = json.dumps(state[model_id], sort_keys=True)
            for ref in text.split("IPY_MODEL_")[1:]:
                visit(ref[:32])

    for cell in nb.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view:
                visit(view["model_id"])
    order += [m for m in state if m not in order]
    mapping = {old: uuid.uuid5(_ID_NAMESPACE, f"{stem}/{n}").hex for n, old in enumerate(order)}
    text = json.dumps(nb, sort_keys=True, ensure_ascii=False)
    for old, new in mapping.items():
        text = text.replace(old, new)
    renumbered = nbformat.from_dict(json.loads(text))
    nb.cells = renumbered.cells
    nb.metadata = renumbered.metadata
    new_state = nb.metadata["widgets"][WIDGET_STATE]["state"]
    nb.metadata["widgets"][WIDGET_STATE]["state"] = {mapping[m]: new_state[mapping[m]] for m in order}


def write(nb: nbformat.NotebookNode, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.validate(nb)
    path.write_text(json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def run_one(source: Path, lang: str, out_dir: Path | None = None, perturb: float | None = None) -> dict:
    chapter = parse(source)
    target = notebook_path(chapter.stem, lang)
    if out_dir is not None:
        target = Path(out_dir) / lang / target.name
    if chapter.stem in NOT_PERTURBED:
        perturb = None
    try:
        nb, seconds, peak = execute(chapter.notebook(lang), cwd=notebook_path(chapter.stem, lang).parent,
                                    perturb=perturb)
    except CellFailed as e:
        where = f"{chapter.path.relative_to(ROOT) if chapter.path.is_relative_to(ROOT) else chapter.path}:{chapter.source_line(lang, e.cell_id)}"
        return {"notebook": f"{lang}/{chapter.stem}", "seconds": float("nan"), "peak_bytes": None,
                "errors": [f"{where}: cell {e.cell_id} of the {lang} notebook failed: {e.error}"]}
    errors = _unexpected_errors(nb)
    if not errors:
        write(normalise(nb, chapter.stem, lang), target)
    return {"notebook": f"{lang}/{chapter.stem}", "seconds": seconds, "peak_bytes": peak, "errors": errors}


def _unexpected_errors(nb: nbformat.NotebookNode) -> list[str]:
    """Error outputs outside 'with expect_error(...)' cells. A cell that raises stops the execution, and an
    expect_error block whose error did not happen fails its cell, so this only catches an error shown by
    other means (a cell calling showtraceback itself): the notebook would read as broken."""
    return [f"cell {cell.id} shows an error but does not expect one with 'with expect_error(...)'"
            for cell in nb.cells if cell.cell_type == "code" and "expect_error(" not in cell.source
            and any(o.output_type == "error" for o in cell.outputs)]


STUDENT_DIR = ROOT / "student"


def student_path(stem: str, lang: str) -> Path:
    return STUDENT_DIR / lang / f"{stem}.ipynb"


def student_text(chapter, lang: str) -> str:
    """A student notebook: the chapter without solutions, not executed (the learner runs it)."""
    nb = chapter.notebook(lang, student=True)
    nbformat.validate(nb)
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_students() -> list[Path]:
    written = []
    for source in chapters():
        chapter = parse(source)
        for lang in LANGS:
            path = student_path(chapter.stem, lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(student_text(chapter, lang), encoding="utf-8")
            written.append(path)
    return written


def check() -> list[str]:
    """Differences between committed notebooks and what their sources generate (sources only)."""
    problems = []
    for source in chapters():
        chapter = parse(source)
        for lang in LANGS:
            path = notebook_path(chapter.stem, lang)
            if not path.is_file():
                problems.append(f"{path.relative_to(ROOT)} is missing: run 'make execute CHAPTER={chapter.stem[:2]}'")
                continue
            committed = nbformat.read(path, as_version=4)
            expected = chapter.notebook(lang)
            got = [(c.id, c.cell_type, c.source, c.metadata.get("tags", [])) for c in committed.cells]
            want = [(c.id, c.cell_type, c.source, c.metadata.get("tags", [])) for c in expected.cells]
            if got != want:
                problems.append(f"{path.relative_to(ROOT)} is out of date with {source.relative_to(ROOT)}: "
                                f"run 'make execute CHAPTER={chapter.stem[:2]}'")
            student = student_path(chapter.stem, lang)
            if not student.is_file() or student.read_text(encoding="utf-8") != student_text(chapter, lang):
                problems.append(f"{student.relative_to(ROOT)} is out of date with {source.relative_to(ROOT)}: run 'make student'")
    known = {p.stem for p in chapters()}
    for folder in (ROOT / "notebooks", STUDENT_DIR):
        for lang in LANGS:
            for path in sorted((folder / lang).glob("*.ipynb")):
                if path.stem not in known:
                    problems.append(f"{path.relative_to(ROOT)} has no source in book/chapters/: delete it or add the source")
    return problems


def _format_bytes(n: int | None) -> str:
    return "n/a" if n is None else f"{n / 2**20:.0f} MiB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.notebooks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("execute", help="generate and execute notebooks")
    ex.add_argument("chapters", nargs="*", help="chapter numbers or stems (default: all)")
    ex.add_argument("--lang", choices=LANGS, action="append", help="only this language (default: both)")
    ex.add_argument("--jobs", type=int, default=1, help="notebooks run at once (default 1, for honest timings)")
    ex.add_argument("--out", type=Path, help="write to DIR/<lang>/ instead of notebooks/<lang>/")
    ex.add_argument("--perturb", type=float, metavar="ULPS",
                    help="move the result of every kernel-chosen float operation by up to ULPS units in the "
                         "last place (tools/perturb/sitecustomize.py), to find outputs that depend on rounding; "
                         "needs --out; chapters in NOT_PERTURBED run without it")
    sub.add_parser("check", help="committed notebooks match their sources")
    sub.add_parser("student", help="write student notebooks (solutions removed) to student/<lang>/")
    args = parser.parse_args(argv)
    try:
        if args.command == "student":
            for path in write_students():
                print(f"wrote {path.relative_to(ROOT)}")
            return 0
        if args.command == "check":
            problems = check()
            for p in problems:
                print(p, file=sys.stderr)
            if not problems:
                print(f"{len(chapters()) * len(LANGS)} notebooks and as many student notebooks match their sources")
            return 1 if problems else 0
        sources = [find(c) for c in args.chapters] if args.chapters else chapters()
        if not sources:
            raise SourceError("no chapter sources in book/chapters/")
        for s in sources:
            parse(s)  # report source errors before starting any kernel
        jobs = [(s, lang) for s in sources for lang in (args.lang or LANGS)]
        if args.jobs < 1:
            raise SourceError("--jobs takes a whole number of at least 1")
        if args.perturb is not None and (args.out is None or not args.perturb > 0):
            raise SourceError("--perturb takes a number of ulps above 0, and --out DIR: a perturbed run must not "
                              "overwrite the book's notebooks")
    except SourceError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda job: run_one(*job, out_dir=args.out, perturb=args.perturb), jobs))
    where = args.out or "notebooks"
    print("run s: from asking for a kernel to the end of the last cell (the kernel's shutdown is not counted)")
    print(f"{'notebook (in ' + str(where) + '/)':<48} {'run s':>8} {'peak memory':>12}")
    failed = False
    for r in results:
        print(f"{r['notebook']:<48} {r['seconds']:>8.2f} {_format_bytes(r['peak_bytes']):>12}")
        for e in r["errors"]:
            failed = True
            print(f"error: {e}", file=sys.stderr)
    if failed:
        print("nothing was written for those notebooks. A cell that fails on purpose holds its failing lines in "
              "'with expect_error(SomeError):'; any other failure is a bug to fix.", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
