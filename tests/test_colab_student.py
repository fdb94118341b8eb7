"""Colab-faithful test of the student notebooks (student/ko/; the English ones as said below): Runtime -> Run all completes on Colab's
versions, every check says "not yet" with a hint while its exercise is unsolved, and says "correct" once the
solution is put back and the check run again, in the same session, as a student would, followed by the
solution's explanation (which the student notebook holds encoded, shown only then). Their outputs are not
compared with stored ones: they are stored empty (a student runs them). How a notebook is run:
colab_harness.py; why this is a module of its own: test_colab.py."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from colab_harness import ROOT, Stop, reader_notebooks, run_all
from conftest import parse

NOT_YET = {"ko": "아직 아닙니다. 힌트:", "en": "not yet. Hint:"}
CORRECT = {"ko": "정답입니다!", "en": "correct!"}
WHY = {"ko": "   풀이: ", "en": "   Why: "}


def check_output(cell) -> str:
    """What a check cell said: its printed lines, and the why after a right answer, which check() shows as a
    display (Markdown with math, and plain text for a front end that renders no Markdown)."""
    return "".join(o.get("text", "") if o.output_type == "stream" else o.get("data", {}).get("text/plain", "") + "\n"
                   for o in cell.outputs if o.output_type in ("stream", "display_data"))


def solutions(stem: str, lang: str) -> list[tuple[str, str]]:
    """Each exercise's solution cell and check cell, from the chapter's source (not from a notebook)."""
    chapter = parse(ROOT / "book" / "chapters" / f"{stem}.md")
    return [(c.text(lang), n.text(lang)) for c, n in zip(chapter.cells, chapter.cells[1:], strict=False)
            if "solution" in c.flags and "check" in n.flags]


# The Korean student notebooks only: with test_colab.py's English full notebooks, every notebook's code runs on
# Colab's versions in one language of each kind (the twins hold the same code, tests/test_parity.py), and the
# Korean one brings its Korean cells and messages. The English student notebook's checks and messages are run
# after a restart by test_exercises.py and answer by answer by test_wrong_answers.py. Running both languages
# here cost about 60 s of a worker for nine chapters and caught nothing more.
@pytest.mark.parametrize("path", [p for p in reader_notebooks("student") if p.parent.name == "ko"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_run_all_completes_in_colab_and_each_check_says_not_yet_then_passes(path: Path):
    stem, lang = path.stem, path.parent.name
    name = str(path.relative_to(ROOT))
    student = nbformat.read(path, as_version=4)
    text = "\n".join(c.source for c in student.cells)
    assert "{solution}" not in text and not any(c.get("outputs") for c in student.cells if c.cell_type == "code")
    checks = [c.id for c in student.cells if "exercise-check" in c.metadata.get("tags", [])]
    pairs = solutions(stem, lang)
    assert checks and len(checks) == len(pairs), f"{name}: {len(checks)} check cells, {len(pairs)} solutions"
    ran, stop = run_all(path, then=tuple(source for pair in pairs for source in pair))
    assert stop is None, Stop.message(stop, name)
    by_id = {c.id: c for c in ran.cells}
    unsolved = [check_output(by_id[cell_id]) for cell_id in checks]
    solved = [check_output(by_id[f"then-{2 * n + 1}"]) for n in range(len(pairs))]
    for message in unsolved:
        assert message.startswith("❌") and NOT_YET[lang] in message, f"{name}: unsolved check said {message!r}"
        hint = message.split(NOT_YET[lang], 1)[1].strip()
        assert len(hint) > 10, f"{name}: the hint is too thin: {hint!r}"
        assert WHY[lang] not in message, f"{name}: the solution's explanation shown before the answer is right"
    for message in solved:
        assert message.startswith("✅") and CORRECT[lang] in message, f"{name}: with the solution: {message!r}"
        # the why after a right answer: the solution's explanation, which the student notebook has no other way
        assert WHY[lang] in message and len(message.split(WHY[lang], 1)[1]) > 40, (
            f"{name}: a right answer is not followed by why it is right: {message!r}")
    Path(ROOT / "_build").mkdir(exist_ok=True)
    log = ROOT / "_build" / f"student-{lang}-{stem}.log"
    log.write_text("unsolved:\n" + "".join(unsolved) + "with the solution put back:\n" + "".join(solved),
                   encoding="utf-8")
