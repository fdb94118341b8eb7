"""Shared helpers for the book's tests. Every test reads the repository as it is; none needs the network."""

from __future__ import annotations

import functools
import io
import os
import sys
import time
import tokenize
from pathlib import Path

import nbformat
import pytest

# One thread per process, in every pytest worker and in every kernel it starts that does not choose its own (nbval's;
# the re-execution and the Colab-faithful run choose theirs, tools.notebooks.numeric_settings): pytest.ini already runs
# a worker per core. With PyTorch's default, a thread per core, every operation big enough to be split waited for a
# thread another process held the core from, and the idle threads spun for it: the wrong-answer tests took 36 s of CPU
# beside the other worker's work where they take 17 s with one thread. A setting of the caller's own is kept.
for _name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.source import LANGS, chapters, notebook_path, parse  # noqa: E402


def chapter_stems() -> list[str]:
    return [p.stem for p in chapters()]


def load(stem: str, lang: str) -> nbformat.NotebookNode:
    """The executed notebook, read once per test process and version of the file (the tests read each notebook
    several times, at about 7 ms a read): the same object to every caller, so treat it as read-only."""
    path = notebook_path(stem, lang)
    if not path.is_file():
        pytest.fail(f"{path.relative_to(ROOT)} is missing: run 'make execute CHAPTER={stem[:2]}'")
    stat = path.stat()
    return _read_notebook(path, stat.st_mtime_ns, stat.st_size)


@functools.cache
def _read_notebook(path: Path, mtime_ns: int, size: int) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def figure_alt(cell) -> str | None:
    """A notebook cell's figure description (metadata mystnb.image.alt, from '#ko alt:' / '#en alt:')."""
    return cell.metadata.get("mystnb", {}).get("image", {}).get("alt")


@functools.cache
def code_tokens(source: str) -> tuple[tuple[int, str], ...]:
    """Python tokens of a code cell, IPython '!' and '%' lines left out (tokenize cannot read them). Remembered:
    the glossary's, parity's and source's tests read the same cells (at collection, in every pytest worker)."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("!", "%"))]
    return tuple((t.type, t.string) for t in tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline))


def comments(source: str) -> list[str]:
    return [text for kind, text in code_tokens(source) if kind == tokenize.COMMENT]


# make test prints the PDF edition while the tests run (Makefile, test): the print writes _build/pdf/ and, into the
# site, each language's pdf/ folder and the landing page again. Modules that read the built site or the PDF use
# built_site, which waits for the print's exit status in the file BOOK_PDF_STATUS names; without that variable
# (pytest run by hand, after make book or make pdf) there is nothing to wait for.
PDF_WAIT_SECONDS = 900


def wait_for_pdf_build(status: str | None = None, seconds: float = PDF_WAIT_SECONDS) -> None:
    status = os.environ.get("BOOK_PDF_STATUS") if status is None else status
    if not status:
        return
    path = Path(status) if Path(status).is_absolute() else ROOT / status
    log = path.with_name("pdf-build.log")
    deadline = time.monotonic() + seconds
    while not path.is_file():
        if time.monotonic() > deadline:
            pytest.fail(f"the PDF build that make test started did not end within {seconds:.0f} s (no {path.name} "
                        f"yet); what it printed so far is in {log.relative_to(ROOT) if log.is_relative_to(ROOT) else log}")
        time.sleep(0.5)
    code = path.read_text(encoding="utf-8").strip()
    if code != "0":
        tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-15:] if log.is_file() else []
        pytest.fail(f"the PDF build that make test started failed (exit status {code!r}), so the site and the PDF "
                    "these tests read are not whole; its last lines:\n" + "\n".join(tail))


@pytest.fixture(scope="session")
def built_site():
    """The built site and PDF, whole: waits for make test's PDF print, if one is running (wait_for_pdf_build)."""
    wait_for_pdf_build()


__all__ = ["EXECUTION_REPORT", "ROOT", "LANGS", "chapter_stems", "load", "figure_alt", "code_tokens", "comments", "parse", "chapters"]


EXECUTION_REPORT = ROOT / "_build" / "execution-report.txt"
BROWSER_REPORT = ROOT / "_build" / "browser-report.txt"
_SESSION_START = [0.0]


def pytest_sessionstart(session):
    _SESSION_START[0] = time.time()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """After the run: how many notebook cells nbval checked and ignored, and each notebook's
    execution time and peak memory from this run's re-execution."""
    checked = ignored = 0
    for stem in chapter_stems():
        for lang in ["ko"]:  # pytest.ini: nbval over the Korean notebooks (the English ones: test_notebooks.py)
            path = notebook_path(stem, lang)
            if not path.is_file():
                continue
            for cell in nbformat.read(path, as_version=4).cells:
                if cell.cell_type == "code":
                    if "nbval-ignore-output" in cell.metadata.get("tags", []):
                        ignored += 1
                    else:
                        checked += 1
    terminalreporter.write_sep("-", "book")
    terminalreporter.write_line(f"nbval: {checked} code cells of the Korean notebooks with outputs checked, {ignored} ignored "
                                "(see tests/nbval-ignored.txt); the English ones re-executed and compared byte for byte")
    if EXECUTION_REPORT.is_file() and EXECUTION_REPORT.stat().st_mtime >= _SESSION_START[0]:
        terminalreporter.write_line(EXECUTION_REPORT.read_text(encoding="utf-8").rstrip())
    # written by tests/test_browser.py: pages checked, errors, requests, axe, page weight, links
    if BROWSER_REPORT.is_file() and BROWSER_REPORT.stat().st_mtime >= _SESSION_START[0]:
        terminalreporter.write_line(BROWSER_REPORT.read_text(encoding="utf-8").rstrip())
