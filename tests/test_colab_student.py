"""Colab-faithful test of the student notebooks (student/<lang>/): Runtime -> Run all completes on Colab's
versions. Their outputs are not compared: they are stored empty (a student runs them). How a notebook is run:
colab_harness.py; why this is a module of its own: test_colab.py."""

from __future__ import annotations

import pytest
from colab_harness import ROOT, check_runs_all, reader_notebooks


@pytest.mark.parametrize("path", reader_notebooks("student"), ids=lambda p: str(p.relative_to(ROOT)))
def test_run_all_completes_in_colab(path):
    check_runs_all(path, compare_outputs=False)
