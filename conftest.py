"""Loaded by pytest for every test and notebook under the repository (tests/conftest.py holds the rest).

The kernels pytest starts (nbval's, for the notebooks) inherit this environment. Like the executor
(tools/notebooks.py), they make every explorer compute the output of every setting of its controls
(book/chapters/_explorer_helper.py), so that nbval compares all of them with the stored ones."""

import os
import sys

os.environ["BOOK_EXPLORER_STATES"] = "all"

# Python's compiled modules written and reused, as make does (Makefile: unexport PYTHONDONTWRITEBYTECODE), also
# when pytest is run by hand where the shell sets PYTHONDONTWRITEBYTECODE: otherwise every kernel the tests
# start compiles torch and the rest from source again (the venvs are installed with pip's --no-compile)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# pytest-xdist hands whole files to its two workers (pytest.ini: --dist loadfile) in the order of the
# collection (--no-loadscope-reorder; by default it would order files by their number of tests, which
# put the few long files last, where one worker ran them while the other was idle). Longest first, so
# that the many short files fill the gaps at the end. Seconds of one worker, measured in a fresh clone's
# make test on 2 cores (2026-11-26, junit times, with Python's compiled modules written and reused).
LONGEST_FIRST = [
    "tests/test_grade_solutions.py",  # every chapter's solutions graded in the sandbox, one grading run each
    "tests/test_browser.py",  # ~129 s: every page in chromium (one module fixture, two reused tabs)
    "tests/test_grade.py",  # ~69 s: two classes graded in the sandbox (two kernels at once)
    "tests/test_notebooks.py",  # ~64 s: every English chapter re-executed on other kernels (two at once)
    "tests/test_colab_en.py",  # ~33 s: the even chapters on Colab's versions (student notebook, then the solutions)
    "tests/test_colab_ko.py",  # ~28 s: the odd chapters on Colab's versions
    "tests/test_exercises.py",  # ~17 s: 10 kernels (a student notebook's checks, then the exercise section)
    "tests/test_pdf.py",  # ~14 s: reads the PDFs
    "tests/test_grade_escape.py",  # ~14 s: one submission per escape and forgery, in the sandbox
    "tests/test_site.py",  # ~12 s
    "tests/test_source.py",  # ~7 s
    "tests/test_perturb.py",  # ~5 s
]


def _rank(item) -> int:
    path = item.nodeid.split("::")[0]
    if path in LONGEST_FIRST:
        return LONGEST_FIRST.index(path)
    return len(LONGEST_FIRST) + (0 if path.endswith(".ipynb") else 1)  # nbval's notebooks: 3 to 11 s each


def pytest_collection_modifyitems(items):
    items.sort(key=_rank)  # stable: the order within a file (nbval's cells) is kept
