"""How fast and how large is the book's attention next to PyTorch's, and how heavy is each chapter?

    python -m tools.bench                      # both parts (what `make bench` runs)
    python -m tools.bench --sizes 128 512      # fewer sequence lengths
    python -m tools.bench --no-notebooks       # only the attention table
    python -m tools.bench --no-attention       # only the notebooks

Part 1 compares three forward passes of self-attention on the CPU in float32, B=8, C=768, H=12,
under torch.inference_mode() with every layer in eval() and the same weights:

    naive   chapter 6's MultiHeadAttention (its step-by-step path: scores, softmax, weights @ v)
    fast    chapter 7's FastMultiHeadAttention (one fused projection, F.scaled_dot_product_attention)
    nn.MHA  torch.nn.MultiheadAttention(batch_first=True), called with need_weights=False

The class is executed from chapter 6's notebook (tools.chapter_code), never copied. Times are the
median of several calls after a warm-up call, the three paths taking turns in a rotating order so
that a busy machine slows all three alike; each ratio divides by nn.MHA measured in the same run.
Peak memory is measured in a fresh process per path and length: the growth of its peak resident
set (Linux VmHWM, reset through /proc/self/clear_refs) over one forward call, after the weights,
the input and a small warm-up call exist. It counts everything the call touches (tensors, kernel
scratch, allocator slack), which tracemalloc cannot see.

Part 2 executes every chapter's notebooks one at a time (tools.notebooks, into a temporary folder)
and prints each one's run time (kernel start to last cell) and peak memory, flagging any over 5 s or 1 GiB.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.chapter_code import FAST_MARKERS, ChapterCodeError, load
from tools.source import LANGS, ROOT, SourceError, chapters, find

SIZES = (128, 256, 512, 1024, 2048)
BATCH, D_MODEL, HEADS = 8, 768, 12
PATHS = ("naive", "fast", "nn.MHA")
TARGET_T, TARGET_RATIO = 1024, 1.15
NOTEBOOK_SECONDS, NOTEBOOK_BYTES = 5.0, 2**30
MiB = 2**20


class BenchError(ValueError):
    """Arguments the benchmark cannot run with; the message says why."""


def default_repeats(T: int) -> int:
    """Timed calls per path: fewer where one call takes seconds."""
    return 7 if T <= 512 else 5 if T <= 1024 else 3


# --- the three layers ------------------------------------------------------------------------

def build(path: str, d_model: int, n_head: int, seed: int = 0):
    """One layer of the given path, in eval mode, with the weights every path shares for this seed."""
    import torch
    import torch.nn as nn

    MultiHeadAttention = load("06")["MultiHeadAttention"]
    torch.manual_seed(seed)
    book = MultiHeadAttention(d_model, n_head).eval()
    if path == "naive":
        return book
    if path == "fast":
        fast = load("07", FAST_MARKERS)["FastMultiHeadAttention"](d_model, n_head).eval()
        fast.load_state_dict(book.state_dict())
        return fast
    if path == "nn.MHA":
        ref = nn.MultiheadAttention(d_model, n_head, batch_first=True).eval()
        with torch.no_grad():
            ref.in_proj_weight.copy_(book.in_proj.weight)
            ref.in_proj_bias.copy_(book.in_proj.bias)
            ref.out_proj.weight.copy_(book.out_proj.weight)
            ref.out_proj.bias.copy_(book.out_proj.bias)
        return ref
    raise BenchError(f"unknown path {path!r}; choose from {', '.join(PATHS)}")


def forward(path: str, layer, x):
    """Self-attention over x: the query, key and value are the same tensor."""
    if path == "nn.MHA":
        return layer(x, x, x, need_weights=False)[0]
    return layer(x, x, x)


# --- time ------------------------------------------------------------------------------------

def time_paths(T: int, batch: int, d_model: int, n_head: int, repeats: int) -> dict[str, float]:
    """Median seconds per forward call of each path at sequence length T, measured in turns."""
    import torch

    layers = {p: build(p, d_model, n_head) for p in PATHS}
    torch.manual_seed(1)
    x = torch.randn(batch, T, d_model)
    seconds: dict[str, list[float]] = {p: [] for p in PATHS}
    with torch.inference_mode():
        outputs = {p: forward(p, layers[p], x) for p in PATHS}        # warm-up, and a check
        for p in PATHS:
            if not torch.allclose(outputs[p], outputs["nn.MHA"], atol=1e-4):
                diff = (outputs[p] - outputs["nn.MHA"]).abs().max().item()
                raise AssertionError(f"T={T}: the {p} path differs from nn.MultiheadAttention by {diff:.3g}")
        del outputs
        for r in range(repeats):
            for p in PATHS[r % len(PATHS):] + PATHS[:r % len(PATHS)]:
                start = time.perf_counter()
                forward(p, layers[p], x)
                seconds[p].append(time.perf_counter() - start)
    return {p: statistics.median(s) for p, s in seconds.items()}


# --- memory ----------------------------------------------------------------------------------

def _status_kib(field: str) -> int:
    text = Path("/proc/self/status").read_text()
    match = re.search(rf"^{field}:\s+(\d+) kB", text, re.MULTILINE)
    if not match:
        raise OSError(f"no {field} in /proc/self/status")
    return int(match[1])


def probe(path: str, T: int, batch: int, d_model: int, n_head: int) -> dict:
    """Run in a fresh process: growth of the peak resident set over one forward call."""
    import torch

    layer = build(path, d_model, n_head)
    torch.manual_seed(1)
    x = torch.randn(batch, T, d_model)
    with torch.inference_mode():
        forward(path, layer, x[:, :8])          # loads kernels, starts the thread pool
        before = _status_kib("VmRSS")
        try:
            Path("/proc/self/clear_refs").write_text("5")        # peak := current
            method = "VmHWM reset"
        except OSError:
            before = _status_kib("VmHWM")
            method = "VmHWM before"
        forward(path, layer, x)
        peak = _status_kib("VmHWM")
    return {"bytes": max(0, peak - before) * 1024, "method": method}


def measure_memory(path: str, T: int, batch: int, d_model: int, n_head: int) -> int | None:
    command = [sys.executable, "-m", "tools.bench", "--probe", path, str(T),
               "--batch", str(batch), "--d-model", str(d_model), "--heads", str(n_head)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        print(f"warning: memory probe {path} T={T} failed: {result.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(result.stdout.strip().splitlines()[-1])["bytes"]


# --- the table -------------------------------------------------------------------------------

def _load() -> str:
    try:
        return " ".join(f"{v:.1f}" for v in os.getloadavg())
    except OSError:
        return "n/a"


def _mib(n: int | None) -> str:
    return "n/a" if n is None else f"{n / MiB:.0f}"


def attention_table(sizes, batch, d_model, n_head, repeats, memory: bool) -> dict[int, float]:
    """Print the table; return fast/nn.MHA per sequence length."""
    import torch

    print(f"Self-attention forward, CPU float32, B={batch} C={d_model} H={n_head}; torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, {os.cpu_count()} CPUs ({platform.machine()}); load average {_load()}")
    print("naive = chapter 6's MultiHeadAttention, fast = chapter 7's FastMultiHeadAttention, "
          "nn.MHA = nn.MultiheadAttention(batch_first=True), need_weights=False")
    print("ms: median forward time after 1 warm-up call, paths in rotating turns, torch.inference_mode(), eval(); "
          "ratios divide by nn.MHA of the same run")
    if memory:
        print("MiB: peak resident-set growth over one forward call, each path in a fresh process (Linux VmHWM); "
              "scores = one (B, H, T, T) float32 tensor")
    header = f"{'T':>6} {'runs':>4} " + " ".join(f"{p + ' ms':>10}" for p in PATHS) + f" {'naive/MHA':>9} {'fast/MHA':>8}"
    if memory:
        header += " " + " ".join(f"{p + ' MiB':>10}" for p in PATHS) + f" {'scores MiB':>10}"
    print(header)
    ratios = {}
    for T in sizes:
        n = repeats or default_repeats(T)
        s = time_paths(T, batch, d_model, n_head, n)
        ratios[T] = s["fast"] / s["nn.MHA"]
        row = (f"{T:>6} {n:>4} " + " ".join(f"{s[p] * 1e3:>10.1f}" for p in PATHS)
               + f" {s['naive'] / s['nn.MHA']:>9.2f} {ratios[T]:>8.2f}")
        if memory:
            peaks = [measure_memory(p, T, batch, d_model, n_head) for p in PATHS]
            row += " " + " ".join(f"{_mib(b):>10}" for b in peaks) + f" {_mib(batch * n_head * T * T * 4):>10}"
        print(row, flush=True)
    print(f"load average at the end: {_load()}")
    if TARGET_T in ratios:
        met = "met" if ratios[TARGET_T] <= TARGET_RATIO else "NOT met"
        print(f"fast/nn.MHA at T={TARGET_T}: {ratios[TARGET_T]:.2f} (target <= {TARGET_RATIO}: {met})")
    return ratios


def notebook_table(names: list[str] | None) -> bool:
    """Execute every chapter's notebooks one by one; print time and peak memory; True if all ran."""
    from tools.notebooks import run_one

    sources = [find(n) for n in names] if names else chapters()
    print(f"\nNotebooks, executed one at a time into a temporary folder (flagged: over {NOTEBOOK_SECONDS:.0f} s "
          f"or {NOTEBOOK_BYTES // 2**30} GiB); load average {_load()}")
    print("run s: from asking for a kernel to the end of the last cell (the kernel's shutdown is not counted)")
    print(f"{'notebook':<40} {'run s':>8} {'peak MiB':>9}  flag")
    ok = True
    with tempfile.TemporaryDirectory(prefix="book-bench-") as out:
        for source in sources:
            for lang in LANGS:
                r = run_one(source, lang, out_dir=Path(out))
                flags = []
                if r["errors"]:
                    ok = False
                    flags.append("FAILED")
                if r["seconds"] > NOTEBOOK_SECONDS:
                    flags.append(f"over {NOTEBOOK_SECONDS:.0f} s")
                if r["peak_bytes"] is not None and r["peak_bytes"] > NOTEBOOK_BYTES:
                    flags.append("over 1 GiB")
                print(f"{r['notebook']:<40} {r['seconds']:>8.2f} {_mib(r['peak_bytes']):>9}  {', '.join(flags)}", flush=True)
                for e in r["errors"]:
                    print(f"error: {e}", file=sys.stderr)
    print(f"load average at the end: {_load()}")
    return ok


# --- command line ----------------------------------------------------------------------------

def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not positive")
    return value


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=positive, nargs="+", default=list(SIZES), metavar="T",
                        help=f"sequence lengths (default: {' '.join(map(str, SIZES))})")
    parser.add_argument("--batch", type=positive, default=BATCH, help=f"B (default {BATCH})")
    parser.add_argument("--d-model", type=positive, default=D_MODEL, help=f"C (default {D_MODEL})")
    parser.add_argument("--heads", type=positive, default=HEADS, help=f"H (default {HEADS})")
    parser.add_argument("--repeats", type=positive, help="timed calls per path (default: 7 up to T=512, 5 at 1024, 3 beyond)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory probes")
    parser.add_argument("--no-attention", action="store_true", help="skip the attention table")
    parser.add_argument("--no-notebooks", action="store_true", help="skip executing the notebooks")
    parser.add_argument("--chapters", nargs="+", metavar="CHAPTER", help="only these chapters' notebooks")
    parser.add_argument("--probe", nargs=2, metavar=("PATH", "T"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.d_model % args.heads != 0:
        raise BenchError(f"--d-model {args.d_model} is not divisible by --heads {args.heads}")
    if args.no_attention and args.no_notebooks:
        raise BenchError("--no-attention and --no-notebooks together leave nothing to measure")
    if args.probe and args.probe[0] not in PATHS:
        raise BenchError(f"unknown path {args.probe[0]!r}; choose from {', '.join(PATHS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        if args.chapters:
            for name in args.chapters:
                find(name)
        if args.probe:
            path, T = args.probe[0], positive(args.probe[1])
            print(json.dumps(probe(path, T, args.batch, args.d_model, args.heads)))
            return 0
        if not args.no_attention:
            load("06")            # report a missing notebook or cell before any measurement
    except (BenchError, ChapterCodeError, SourceError, argparse.ArgumentTypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    ok = True
    if not args.no_attention:
        attention_table(args.sizes, args.batch, args.d_model, args.heads, args.repeats, not args.no_memory)
    if not args.no_notebooks:
        ok = notebook_table(args.chapters)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
