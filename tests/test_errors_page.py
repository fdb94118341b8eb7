"""The common-errors page quotes only messages that the book's notebooks really print, and links
only to sections that exist."""

from __future__ import annotations

import re
from functools import cache

import pytest
from conftest import LANGS, ROOT, chapter_stems, load

FENCE = re.compile(r"```text\n(.+?)\n```", re.DOTALL)
LINK = re.compile(r"\]\((ch\d\d[\w-]*)\)")


@cache
def printed_errors() -> frozenset[str]:
    """Every error the English notebooks print, read once per test process: each quoted message of both pages is
    looked up in it (it read all eleven notebooks for each of the 24 messages)."""
    found = set()
    for stem in chapter_stems():
        for cell in load(stem, "en").cells:
            for output in cell.get("outputs", []):
                if output.output_type == "error":
                    found.add(f"{output.ename}: {output.evalue}")
    return frozenset(found)


def labels() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "book" / "chapters").glob("[0-9]*.md"))
    return set(re.findall(r"^\(([\w-]+)\)=$", text, re.MULTILINE))


@pytest.mark.parametrize("lang", LANGS)
def test_quoted_errors_are_printed_by_a_notebook(lang):
    page = (ROOT / "book" / lang / "errors.md").read_text(encoding="utf-8")
    quoted = FENCE.findall(page)
    assert len(quoted) >= 8
    missing = [q for q in quoted if q not in printed_errors()]
    assert not missing, f"errors.md ({lang}) quotes messages no notebook prints: {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_entry_links_to_an_existing_chapter_section(lang):
    page = (ROOT / "book" / lang / "errors.md").read_text(encoding="utf-8")
    sections = page.split("\n## ")[1:]
    known = labels()
    for section in sections:
        targets = LINK.findall(section)
        assert targets, f"errors.md ({lang}): the entry {section.splitlines()[0]!r} links to no chapter"
        assert set(targets) <= known, f"errors.md ({lang}): unknown labels {set(targets) - known}"


def test_both_languages_have_the_same_entries():
    ko, en = ((ROOT / "book" / lang / "errors.md").read_text(encoding="utf-8") for lang in ("ko", "en"))
    assert FENCE.findall(ko) == FENCE.findall(en)
    assert LINK.findall(ko) == LINK.findall(en)
