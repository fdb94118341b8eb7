"""tools.bench and tools.chapter_code: arguments, clear errors, and a benchmark run at toy sizes.
Nothing here asserts a time: timings belong to `make bench`, not to the tests."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import torch
import torch.nn as nn
from conftest import ROOT

from tools import bench, chapter_code


def test_chapter_code_loads_chapter_6_definitions_only():
    ns = chapter_code.load("06")
    # the cells that add methods with @add_method also leave the functions under their names (never None)
    defined = set(ns) - {"__builtins__"}
    assert defined == {"torch", "nn", "F", "math", "attention", "add_method", "restore_methods", "MultiHeadAttention",
                       "added_methods", "causal_mask", "with_causal", "forward", "check_inputs"}
    assert not any(value is None for value in ns.values())
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


def test_the_three_paths_share_weights_and_agree():
    layers = {p: bench.build(p, 16, 2) for p in bench.PATHS}
    assert type(layers["fast"]).__name__ == "FastMultiHeadAttention" and type(layers["naive"]).__name__ == "MultiHeadAttention"
    x = torch.randn(2, 5, 16)
    with torch.inference_mode():
        outs = {p: bench.forward(p, layer, x) for p, layer in layers.items()}
    for p in bench.PATHS:
        assert torch.allclose(outs[p], outs["nn.MHA"], atol=1e-5), p


def test_a_toy_table_has_a_row_per_size_and_no_target_line_without_1024(capsys):
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


def quoted_bench_tables() -> dict[str, list[list[float]]]:
    """The `make bench` table chapter 7 quotes in its prose (section ch07-bench), per language."""
    from tools.source import find, parse

    tables = {}
    for cell in parse(find("07")).cells:
        if cell.kind in ("ko", "en") and "(ch07-bench)=" in cell.text(cell.kind):
            rows = [line.strip("|").split("|") for line in cell.lines if re.match(r"^\| \d+ \|", line)]
            tables[cell.kind] = [[float(x) for x in row] for row in rows]
    return tables


def test_chapter_7_quotes_one_consistent_bench_table():
    """The numbers are a quotation from a run of `make bench` (B=8, C=768, H=12), not an output the
    notebook produces, so no nbval checks them: here both languages must quote the same table, its ratio
    column must follow from its times, and its score column from B * H * T^2 * 4 bytes."""
    tables = quoted_bench_tables()
    assert set(tables) == {"ko", "en"} and tables["ko"] == tables["en"] and len(tables["en"]) >= 3
    for T, naive_ms, fast_ms, mha_ms, ratio, *mib in tables["en"]:
        assert abs(ratio - fast_ms / mha_ms) <= 0.006, f"T={T:g}: fast/nn.MHA is {fast_ms / mha_ms:.3f}, quoted {ratio}"
        assert naive_ms > fast_ms
        assert mib[-1] == bench.BATCH * bench.HEADS * T * T * 4 / bench.MiB, f"T={T:g}: score tensor MiB"
    at_target = {row[0]: row[4] for row in tables["en"]}[bench.TARGET_T]
    assert at_target <= bench.TARGET_RATIO
    for lang, sentence in (("ko", f"`nn.MultiheadAttention`의 {at_target:.2f}배"), ("en", f"takes {at_target:.2f} times")):
        assert sentence in (ROOT / "book" / "chapters" / "07_cost.md").read_text(encoding="utf-8"), (lang, sentence)
