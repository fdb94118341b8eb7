"""Take definitions out of a chapter's executed notebook, so that tests and the benchmark use the
book's own code rather than a copy of it.

    from tools.chapter_code import load
    ns = load("06")                       # the cells of `attention` and of `MultiHeadAttention`, built in steps
    MultiHeadAttention = ns["MultiHeadAttention"]
    Fast = load("07", FAST_MARKERS)["FastMultiHeadAttention"]   # chapter 7's fast path

The cells are found by a marker they contain (exactly one code cell per marker), and executed in
order in a fresh namespace that holds only torch, nn, F and math: the imports a chapter's
definitions may rely on. A missing notebook, a missing cell or an ambiguous one is reported with
what to do about it.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import nbformat

from tools.source import ROOT, SourceError, find, notebook_path

# chapter 6 builds its class in steps: the core, then the methods added (with add_method) where they are explained
MHA_MARKERS = ("def attention(", "def add_method(", "class MultiHeadAttention", "def causal_mask(",
               "@add_method(MultiHeadAttention)\ndef check_inputs(")
# chapter 7's fast path: a subclass that replaces forward (load it from chapter 7, after MHA_MARKERS)
FAST_MARKERS = (*MHA_MARKERS, "class FastMultiHeadAttention")


class ChapterCodeError(LookupError):
    """The notebook or the cell asked for is not there; the message says which and what to do."""


def notebook_file(chapter: str, lang: str = "en") -> Path:
    """The executed notebook of a chapter given as '6', '06' or a stem such as '06_multi_head_attention'."""
    try:
        stem = find(chapter).stem
    except SourceError as e:
        raise ChapterCodeError(str(e)) from None
    path = notebook_path(stem, lang)
    if not path.is_file():
        raise ChapterCodeError(f"{_shown(path)} is missing: run 'make execute CHAPTER={stem[:2]}'")
    return path


def cell_source(chapter: str, marker: str, lang: str = "en") -> str:
    """The source of the one code cell of the chapter's notebook that contains `marker`."""
    path = notebook_file(chapter, lang)
    found = [source for source in _code_cells(path, path.stat().st_mtime_ns) if marker in source]
    if len(found) != 1:
        what = "no code cell" if not found else f"{len(found)} code cells"
        raise ChapterCodeError(f"{_shown(path)}: {what} containing {marker!r}, expected exactly one; "
                               "keep each definition in one code cell of its own")
    return found[0]


@functools.lru_cache(maxsize=32)
def _code_cells(path: Path, mtime_ns: int) -> tuple[str, ...]:
    """The code cells' sources of a notebook, read once per version of the file (mtime_ns is the key)."""
    nb = nbformat.read(path, as_version=4)
    return tuple(c.source for c in nb.cells if c.cell_type == "code")


def base_namespace() -> dict:
    """What a chapter's definitions may use without importing it themselves."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    return {"torch": torch, "nn": nn, "F": F, "math": math}


def load(chapter: str = "06", markers: tuple[str, ...] = MHA_MARKERS, lang: str = "en") -> dict:
    """Execute the chapter's cells that contain `markers`, in that order, in a fresh namespace; return it."""
    ns = base_namespace()
    for marker in markers:
        source = cell_source(chapter, marker, lang)
        exec(compile(source, f"<{lang}/{find(chapter).stem}: {marker}>", "exec"), ns)
    return ns


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
