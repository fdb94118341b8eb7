"""The PDF edition (tools/pdf.py), as a reader opens it: make test builds it into _build/pdf/ after the site; these
tests read the files (a few seconds). Without Debian's chromium the PDF is not built and they skip, unless
BOOK_REQUIRE_BROWSER=1 (CI), where a missing PDF fails."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from functools import cache

import pytest
from conftest import LANGS, ROOT, chapters, parse

OUT = ROOT / "_build" / "pdf"
A4 = (595.92, 842.88)  # points, as Chromium writes A4
GOAL_BYTES = 15 * 2**20
SOLUTIONS = {"ko": "연습 문제 풀이", "en": "Solutions to the exercises"}


def _needed():
    if not (OUT / "report.json").is_file():
        if os.environ.get("BOOK_REQUIRE_BROWSER") == "1":
            pytest.fail("no PDF in _build/pdf: make test builds it after the site (python -m tools.pdf)")
        pytest.skip("the PDF was not built here (Debian's chromium is missing)")


@cache
def reader(name: str):
    from pypdf import PdfReader

    return PdfReader(OUT / name)


@cache
def report() -> dict:
    return json.loads((OUT / "report.json").read_text(encoding="utf-8"))


def plain(text: str) -> str:
    """Letters and digits only: the PDF's text layer spaces Korean and code its own way, the site curls
    apostrophes and Chromium sets "ff" as a ligature."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text)).lower()


def outline(r) -> list[tuple[str, int]]:
    found = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                found.append((plain(item.title), depth))
    walk(r.outline, 0)
    return found


def headings(lang: str, path) -> tuple[str, list[str]]:
    chapter = parse(path)
    lines = [line for c in chapter.cells if c.kind == lang for line in c.lines]
    # the site shows TeX as math: $\sqrt{d_k}$ reads back as "dk"
    return (plain(chapter.title(lang)),
            [plain(re.sub(r"\\[a-z]+", "", line[3:])) for line in lines if line.startswith("## ")])


EDITIONS = [f"attention-step-by-step-{lang}{edition}.pdf" for lang in LANGS for edition in ("", "-student")]


@pytest.mark.parametrize("name", EDITIONS)
def test_each_edition_opens_on_a4_with_every_chapter_and_section_in_its_bookmarks_and_text(name):
    _needed()
    lang = re.search(r"-(ko|en)[.-]", name)[1]
    r = reader(name)
    for page in r.pages:
        box = page.mediabox
        assert abs(float(box.width) - A4[0]) < 1 and abs(float(box.height) - A4[1]) < 1, (name, box)
    marks = outline(r)
    text = plain(" ".join(page.extract_text() for page in r.pages[:6]))  # cover and contents
    for path in chapters():
        title, sections = headings(lang, path)
        assert (title, 0) in marks, f"{name}: no bookmark for {title!r}"
        assert title in text, f"{name}: {title!r} is not in the contents"
        for section in sections:
            assert (section, 1) in marks, f"{name}: no bookmark for the section {section!r} of {title!r}"
    assert os.path.getsize(OUT / name) < GOAL_BYTES, f"{name}: {os.path.getsize(OUT / name)} bytes"


@pytest.mark.parametrize("lang", LANGS)
def test_the_full_edition_has_the_solutions_and_the_student_edition_has_none(lang):
    _needed()
    full, student = reader(f"attention-step-by-step-{lang}.pdf"), reader(f"attention-step-by-step-{lang}-student.pdf")
    assert (plain(SOLUTIONS[lang]), 0) in outline(full) and (plain(SOLUTIONS[lang]), 0) not in outline(student)
    start = full.get_destination_page_number(
        next(item for item in full.outline if not isinstance(item, list) and plain(item.title) == plain(SOLUTIONS[lang])))
    # the appendix's first pages (it grows with every chapter's solutions: read from where it starts)
    appendix = plain(" ".join(p.extract_text() for p in full.pages[start:start + 4]))
    assert plain("answer_shape = (4, 5)") in appendix  # chapter 1's first solution
    # the same chapters, page for page: the student edition is the full one without its appendix
    assert len(full.pages) - len(student.pages) == len(full.pages) - start


@pytest.mark.parametrize("lang", LANGS)
def test_every_font_is_embedded_and_korean_text_reads_back(lang):
    """A glyph missing from the embedded fonts would print as a box; every font here is embedded, and the
    Korean chapter titles read back from the text layer (their glyphs are mapped to Unicode)."""
    _needed()
    r = reader(f"attention-step-by-step-{lang}.pdf")
    for number, page in enumerate(r.pages):
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for font in fonts.values():
            font = font.get_object()
            if font.get("/Subtype") == "/Type3":
                continue
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and font.get("/DescendantFonts"):
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), (
                f"page {number + 1}: font {font.get('/BaseFont')} is not embedded")
    if lang == "ko":
        text = plain(" ".join(p.extract_text() for p in r.pages[:6]))
        assert plain("딕셔너리에서 어텐션으로") in text and plain("멀티헤드 어텐션") in text


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_handouts_link_to_the_site_and_keep_every_code_line_and_figure(lang):
    _needed()
    from bs4 import BeautifulSoup

    from tools.source import book_links

    site = book_links()["site"]
    for path in chapters():
        stem = path.stem
        entry = report()["chapters"][f"{lang}/{stem}"]
        assert entry["too_wide"] == [], f"{lang}/{stem}: code lines wider than the page: {entry['too_wide']}"
        assert entry["solutions"] > 0
        html = BeautifulSoup((ROOT / "_build/html" / lang / f"{stem}.html").read_text(encoding="utf-8"), "html.parser")
        on_site = len(html.select(".cell_output img, .cell_output svg:not(.icon)")) - len(html.select(".cell_output svg svg"))
        assert entry["figures"] >= on_site, f"{lang}/{stem}: {entry['figures']} figures printed, {on_site} on the site"
        r = reader(f"{lang}/{stem}.pdf")
        first = r.pages[0]
        uris = [a.get_object().get("/A", {}).get("/URI", "") for a in first.get("/Annots") or []]
        assert f"{site}{lang}/{stem}.html" in uris, f"{lang}/{stem}: no link to its page on the site: {uris}"
        assert any(u.endswith(f"notebooks/{lang}/{stem}.ipynb") for u in uris), uris
