"""Colab-faithful test of the even chapters, in English: Run all of the student notebook on Colab's versions, then
each solution and its check as a student adds them, every output compared with the full notebook's stored one
(colab_harness.colab_language says why one run per chapter covers both kinds of notebook). The odd chapters run
in Korean in test_colab_ko.py, a module of its own so that pytest-xdist's --dist loadfile (pytest.ini: one
module goes to one worker) runs the two halves on its two workers at once; the harness's own tests are in
test_colab_harness.py."""

from __future__ import annotations

import pytest
from colab_harness import check_student_then_solutions, colab_language
from conftest import chapter_stems


@pytest.mark.parametrize("stem", [s for s in chapter_stems() if colab_language(s) == "en"])
def test_run_all_then_the_solutions_in_colab_show_the_stored_outputs(stem):
    check_student_then_solutions(stem, "en")
