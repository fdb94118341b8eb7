"""tools/perturb/sitecustomize.py, the 'other machine' of the re-execution test: it must really move
kernel-chosen results, leave exact ones and everything else alone, and stay invisible to what the book
measures (grad_fn in a printed tensor, chapter 7's memory meters)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT

from tools.notebooks import PERTURB_DIR

PROBE = r"""
import json, torch
from torch.profiler import ProfilerActivity, profile
torch.manual_seed(0)
a, b = torch.randn(40, 50), torch.randn(50, 60)
w = torch.tensor([0.0, 1.0, 0.0])
x = torch.randn(3, requires_grad=True)
y = x.exp()
big = torch.randn(70000)
with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
    s = big.sum()
allocated = sum(e.nbytes() for e in prof.profiler.kineto_results.events()
                if e.name() == "[memory]" and e.nbytes() > 0)
print(json.dumps({
    "mm": (a @ b)[:2, :3].tolist(), "mm_again": (a @ b)[:2, :3].tolist(),
    "one_hot": (w @ torch.tensor([1.0, 2.0, 3.0])).item(),
    "elementwise": (a * 3 + 1)[0, :3].tolist(),
    "grad_fn": type(y.grad_fn).__name__,
    "float64": (torch.randn(40, 50, dtype=torch.float64) @ torch.randn(50, 6, dtype=torch.float64))[0, 0].item(),
    "allocated": allocated,
}))
"""


def probe(ulps: float | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("BOOK_PERTURB_ULPS", "PYTHONPATH")}
    if ulps is not None:
        env.update(PYTHONPATH=str(PERTURB_DIR), BOOK_PERTURB_ULPS=str(ulps))
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout)


def test_the_perturbation_moves_kernel_results_and_nothing_else():
    plain, moved = probe(None), probe(1)
    assert plain["mm"] != moved["mm"], "a matrix product was not moved"
    assert moved["mm"] == moved["mm_again"], "the same product twice must give the same result"
    diff = max(abs(p - m) / abs(p) for rp, rm in zip(plain["mm"], moved["mm"], strict=True)
               for p, m in zip(rp, rm, strict=True))
    assert 0 < diff <= 2 * 2.0 ** -23, diff  # at most about one ulp of float32 (and the product's own rounding)
    assert moved["float64"] != plain["float64"] and abs(moved["float64"] / plain["float64"] - 1) < 1e-15
    assert moved["one_hot"] == plain["one_hot"] == 2.0, "an exact result must stay exact"
    assert moved["elementwise"] == plain["elementwise"], "IEEE fixes elementwise arithmetic: not moved"
    assert moved["grad_fn"] == plain["grad_fn"] == "ExpBackward0"
    assert moved["allocated"] == plain["allocated"], "moving a result must allocate nothing"


def test_the_executor_refuses_a_perturbed_run_over_the_books_notebooks():
    result = subprocess.run([sys.executable, "-m", "tools.notebooks", "execute", "01", "--perturb", "1"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "--out DIR" in result.stderr, result.stderr
