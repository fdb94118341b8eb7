"""The Korean site's interface strings follow the book's words and register (the Korean review of
2026-11-23): exercise boxes say 연습 문제 like their section, downloads are 내려받기, requests end in
-세요, and the English aria-label "Toggle hidden content" of the dropdown buttons is translated."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from conftest import ROOT, chapter_stems

# make test prints the PDF while the tests run: wait for it (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("built_site")

SITE = ROOT / "_build" / "html"
LOCALE = ROOT / "book" / "locale" / "ko" / "LC_MESSAGES"
RELABEL = "document.querySelectorAll('button.toggle-button')"  # book_i18n.py's relabelling script


def page(lang: str, name: str) -> str:
    path = SITE / lang / name
    if not path.is_file():
        pytest.fail(f"no {path.relative_to(ROOT)}: build the site first (python -m tools.site build)")
    return path.read_text(encoding="utf-8")


def korean_catalog() -> dict[str, str]:
    found = {}
    for po in sorted(LOCALE.glob("*.po")):
        with po.open("rb") as f:
            for message in read_po(f, locale="ko"):
                if message.id and message.string:
                    found[f"{po.stem}: {message.id}"] = message.string
    return found


def test_korean_catalog_asks_in_the_books_register():
    formal = {k: v for k, v in korean_catalog().items() if re.search(r"십시오|하시오", v)}
    assert not formal, f"use the book's -세요 register: {formal}"


def test_korean_catalog_calls_a_section_jeol():
    """The book calls a section 절 («드롭아웃 절»), so the interface does too (the Korean review of 2026-11-24)."""
    found = {k: v for k, v in korean_catalog().items() if "섹션" in v}
    assert not found, f"say 절 for a section, as the book does: {found}"


def test_korean_catalog_says_naeryeobatgi_for_download():
    catalog = korean_catalog()
    assert not [v for v in catalog.values() if "다운로드" in v]
    for msgid in ("Download notebook file", "Download source file", "Download this page"):
        assert "내려받기" in catalog[f"booktheme: {msgid}"]


@pytest.mark.parametrize("stem", chapter_stems())
def test_korean_chapter_page_speaks_the_books_words(stem):
    html = page("ko", f"{stem}.html")
    assert "다운로드" not in html, "the book says 내려받기"
    titles = re.findall(r'<span class="caption-number">(연습[^<]*?)\s*</span>', html)
    assert titles, "no exercise box found"
    assert all(t.startswith("연습 문제 ") for t in titles), f"exercise boxes must say 연습 문제 like their section: {titles}"


def scripts(lang: str, html: str) -> list[str]:
    """The page's inline scripts, those in its tags and those in the file its head's scripts were joined into
    (tools/bundle.py: `_static/book-<hash>.js`, each part after a comment naming it, "inline" for these)."""
    found = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    for src in re.findall(r'<script src="(_static/book-[0-9a-f]{12}\.js)"></script>', html):
        text = (ROOT / "_build" / "html" / lang / src).read_text(encoding="utf-8")
        parts = re.split(r"^/\* (.*) \*/$", text, flags=re.M)
        found += [body for name, body in zip(parts[1::2], parts[2::2], strict=True) if name == "inline"]
    return found


@pytest.mark.parametrize("stem", chapter_stems())
def test_dropdown_buttons_are_labelled_in_the_pages_language(stem):
    """sphinx-togglebutton writes aria-label="Toggle hidden content" in JS; the Korean pages relabel it."""
    ko, en = page("ko", f"{stem}.html"), page("en", f"{stem}.html")
    assert "dropdown" in ko, "the chapter has no dropdown to label"
    relabel = [s for s in scripts("ko", ko) if RELABEL in s]
    assert len(relabel) == 1 and '"숨긴 내용 펼치기/접기"' in relabel[0]
    assert not [s for s in scripts("en", en) if RELABEL in s], "English pages keep togglebutton's own English label"
    assert 'aria-label="Toggle hidden content"' not in ko, "myst-nb's hidden-input label must be translated too"


def test_folded_code_cells_are_named_by_their_visible_words_in_the_pages_language():
    """myst-nb's hide-input <summary> carried aria-label "Toggle hidden content" over the visible "Show code
    cell source" (axe: label-content-name-mismatch), in English on Korean pages too. Now its name is its text."""
    folded = {lang: re.findall(r'<details class="admonition hide[^"]*">\s*<summary([^>]*)>\s*<p class="collapsed '
                               r'admonition-title">([^<]*)</p>', "".join(page(lang, f"{stem}.html") for stem in chapter_stems()))
              for lang in ("ko", "en")}
    assert folded["ko"] and len(folded["ko"]) == len(folded["en"]), "no folded code cell to check"
    assert {text for _, text in folded["ko"]} == {"셀 코드 보기"} and {text for _, text in folded["en"]} == {"Show code cell source"}
    assert all("aria-label" not in attrs for lang in folded for attrs, _ in folded[lang])
