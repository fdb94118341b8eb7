"""tools.bench and tools.chapter_code: arguments, clear errors, and a benchmark run at toy sizes.
Nothing here asserts a time: timings belong to `make bench`, not to the tests."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch
import torch.nn as nn
from conftest import ROOT

from tools import bench, chapter_code


def test_chapter_code_loads_chapter_6_definitions_only():
    ns = chapter_code.load("06")
    assert set(ns) - {"__builtins__"} == {"torch", "nn", "F", "math", "attention", "MultiHeadAttention"}
    assert issubclass(ns["MultiHeadAttention"], nn.Module)


@pytest.mark.parametrize("chapter, marker, message", [
    ("06", "class NoSuchThing", r"06_multi_head_attention.ipynb: no code cell containing 'class NoSuchThing'"),
    ("06", "torch.manual_seed(", r"code cells containing 'torch.manual_seed\(', expected exactly one"),
    ("99", "class MultiHeadAttention", r"unknown chapter '99'; known chapters: 01_dict_to_attention"),
])
def test_chapter_code_says_what_is_missing(chapter, marker, message):
    with pytest.raises(chapter_code.ChapterCodeError, match=message):
        chapter_code.cell_source(chapter, marker)


def test_chapter_code_reports_a_missing_notebook(monkeypatch, tmp_path):
    monkeypatch.setattr(chapter_code, "notebook_path", lambda stem, lang: tmp_path / lang / f"{stem}.ipynb")
    with pytest.raises(chapter_code.ChapterCodeError, match=r"06_multi_head_attention.ipynb is missing: run 'make execute CHAPTER=06'"):
        chapter_code.load("06")


@pytest.mark.parametrize("argv, message", [
    (["--heads", "5"], "--d-model 768 is not divisible by --heads 5"),
    (["--no-attention", "--no-notebooks"], "leave nothing to measure"),
    (["--no-attention", "--chapters", "99"], "unknown chapter '99'"),
    (["--probe", "slow", "8"], "unknown path 'slow'; choose from naive, fast, nn.MHA"),
])
def test_bad_arguments_are_refused_with_a_message(argv, message, capsys):
    assert bench.main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--sizes", "0"], "0 is not positive"),
    (["--sizes", "many"], "'many' is not a whole number"),
])
def test_bad_numbers_are_refused_by_the_parser(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        bench.main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


@pytest.fixture
def one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_the_three_paths_share_weights_and_agree(one_thread):
    layers = {p: bench.build(p, 16, 2) for p in bench.PATHS}
    assert layers["fast"].fast and not layers["naive"].fast
    x = torch.randn(2, 5, 16)
    with torch.inference_mode():
        outs = {p: bench.forward(p, layer, x) for p, layer in layers.items()}
    for p in bench.PATHS:
        assert torch.allclose(outs[p], outs["nn.MHA"], atol=1e-5), p


def test_a_toy_table_has_a_row_per_size_and_no_target_line_without_1024(one_thread, capsys):
    assert bench.main(["--sizes", "8", "16", "--batch", "1", "--d-model", "16", "--heads", "2",
                       "--repeats", "1", "--no-memory", "--no-notebooks"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.split() and line.split()[0].isdigit()]
    assert [r[0] for r in rows] == ["8", "16"] and all(len(r) == 7 for r in rows)
    assert "naive/MHA" in out and "fast/nn.MHA at T=1024" not in out


def test_the_memory_probe_runs_in_its_own_process():
    result = subprocess.run([sys.executable, "-m", "tools.bench", "--probe", "naive", "64",
                             "--batch", "1", "--d-model", "16", "--heads", "2"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["bytes"] >= 0 and report["method"] in ("VmHWM reset", "VmHWM before")
