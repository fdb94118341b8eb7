"""The site's front door and its shareable links, read from the built site (_build/html) without a
browser (tests/test_browser.py looks at the landing page in chromium): the landing page's chapters, times,
figure and links in both languages, link-card tags on every page in the page's language, canonical and
hreflang links that reach the twin page, the sitemap, the 404 page, and tools/landing.py's refusals."""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from urllib.parse import unquote

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import LANGS, ROOT, parse

from tools import landing

# make test prints the PDF while the tests run: wait for it (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("built_site")

SITE = ROOT / "_build" / "html"
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
SITE_URL = CONFIG["site_url"]
# the head's study-time sentence of a chapter, as the chapter source writes it (independent of tools/landing.py)
HEAD_TIME = {"ko": re.compile(r"예상 시간: (\d+분\([^)]*\))"), "en": re.compile(r"Time: (about \d+ minutes \([^)]*\))")}


@cache
def soup(path: Path, head_only: bool = False) -> BeautifulSoup:
    if not (SITE / "index.html").is_file():
        pytest.fail("no site in _build/html: run 'make book' (make test builds it before the tests)")
    text = path.read_text(encoding="utf-8")
    if head_only:  # the tags of a link card are all in the head; reading only it keeps the test quick
        text = text.split("</head>", 1)[0] + "</head></html>"
    return BeautifulSoup(text, "html.parser")


@cache
def chapter(stem: str):
    return parse(ROOT / "book" / "chapters" / f"{stem}.md")


@cache
def toc_chapters() -> tuple[str, ...]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    return tuple(f for f in files if (ROOT / "book" / "chapters" / f"{f}.md").is_file())


def site_pages() -> list[str]:
    return sorted(str(p.relative_to(SITE)) for p in SITE.glob("*/*.html")) if SITE.is_dir() else []


@pytest.mark.parametrize("lang", LANGS)
def test_landing_page_lists_the_chapters_of_the_toc_with_their_heads_times(lang):
    """In each language: the chapters of _toc.yml in order, each titled as its source's heading, with the time
    its head states, its line of book/landing.yml, its page, its two notebooks in Colab and its PDF handout when the
    site has it (make pdf printed it; test_landing_page_links_the_pdfs_the_site_has)."""
    block = soup(SITE / "index.html").select_one(f"div.only-{lang}[lang={lang}]")
    assert block is not None, f"no {lang} part on the landing page"
    items = block.select("ol.chapters > li")
    stems = toc_chapters()
    assert [li.h3.a["href"] for li in items] == [f"{lang}/{s}.html" for s in stems]
    lines = yaml.safe_load((ROOT / "book" / "landing.yml").read_text(encoding="utf-8"))["chapters"]
    colab = f"{CONFIG['launch_buttons']['colab_url']}/github/{CONFIG['repository']['url'].split('github.com/')[1]}/blob/main/"
    for li, stem in zip(items, stems, strict=True):
        assert li.h3.get_text() == chapter(stem).title(lang)
        head = next(c.text(lang) for c in chapter(stem).cells if c.kind == lang and HEAD_TIME[lang].search(c.text(lang)))
        assert li.select_one(".time").get_text() == HEAD_TIME[lang].search(head).group(1), stem
        assert li.p.get_text() == lines[stem][lang].replace("`", ""), stem
        hrefs = [a["href"] for a in li.find_all("a")]
        assert f"{colab}student/{lang}/{stem}.ipynb" in hrefs and f"{colab}notebooks/{lang}/{stem}.ipynb" in hrefs
        assert (f"{lang}/pdf/{stem}.pdf" in hrefs) == (SITE / lang / "pdf" / f"{stem}.pdf").is_file(), stem
        assert (SITE / lang / f"{stem}.html").is_file()


def test_landing_page_shows_a_figure_of_the_book_in_each_language():
    doc = soup(SITE / "index.html")
    for lang in LANGS:
        img = doc.select_one(f"div.only-{lang} figure img")
        svg, alt = landing.figure(lang)
        assert img["alt"] == alt and img["src"] == f"landing-{lang}.svg"
        assert (SITE / img["src"]).read_text(encoding="utf-8") == svg  # the notebook's own output
        assert int(img["width"]) > 0 and int(img["height"]) > 0  # no shift when it arrives


def test_landing_page_remembers_the_language_and_keeps_korean_words_whole():
    doc = soup(SITE / "index.html")
    head_script = doc.head.find("script").string
    assert "localStorage" in head_script and "navigator.languages" in head_script
    assert [b["data-set-lang"] for b in doc.select("button[data-set-lang]")] == list(LANGS)
    style = doc.head.style.string
    assert re.search(r":lang\(ko\)\s*{\s*word-break:\s*keep-all;\s*overflow-wrap:\s*break-word;", style)
    # light: no file of its own to wait for but the icon; every address it loads is on the site
    assert not doc.find_all("link", rel="stylesheet") and not doc.find_all("script", src=True)
    for a in doc.select("a[href]"):  # the PDFs too: linked only when the site has them
        href = a["href"]
        if not re.match(r"^https?://", href):
            assert (SITE / unquote(href.split("#")[0])).is_file(), href


def test_landing_page_links_the_pdfs_the_site_has(tmp_path):
    """`make book` carries the PDFs of the last `make pdf` into the site it builds (tools/pdf.py's shelve), and the
    landing page links those only: before any `make pdf` it links none and says how to make them; after it, both
    books and every chapter's handout; a handout missing is not linked, a PDF of a chapter gone is not carried. A
    chapter page's menu offers its handout only when the site has it."""
    from tools import pdf

    stems = toc_chapters()
    built = tmp_path / "pdf"
    for lang in LANGS:
        (built / lang).mkdir(parents=True)
        for edition in ("", "-student"):
            (built / f"attention-step-by-step-{lang}{edition}.pdf").write_bytes(b"%PDF-1.4 book")
        for stem in stems[1:]:  # the first chapter's handout missing
            (built / lang / f"{stem}.pdf").write_bytes(b"%PDF-1.4 " + stem.encode())
        (built / lang / "99_gone.pdf").write_bytes(b"%PDF-1.4 old")
    site = tmp_path / "site"
    pages = [site / lang / f"{stem}.html" for lang in LANGS for stem in stems[:2]]
    for page in pages:  # chapter pages as make book built them
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text((SITE / page.relative_to(site)).read_text(encoding="utf-8"), encoding="utf-8")

    def menu(page):  # the handout's two items of the chapter's notebook menu (the menu alone is parsed: quick)
        text = page.read_text(encoding="utf-8")
        start = text.index("dropdown-notebooks")
        return BeautifulSoup(text[text.rindex("<", 0, start):text.index("</ul>", start) + 5], "html.parser").select(
            "li.notebooks-pdf, li:has(> a.notebooks-pdf-download)")

    assert pdf.shelve(site, built=tmp_path / "nothing") == frozenset()
    for page in pages:
        assert [li.has_attr("hidden") for li in menu(page)] == [True, True], page
    none = BeautifulSoup(landing.landing_page(pdfs=frozenset()), "html.parser")
    assert not [a["href"] for a in none.select("a[href]") if "/pdf/" in a["href"]]
    assert "make pdf" in none.select_one("div.only-en").get_text() and "make pdf" in none.select_one("div.only-ko").get_text()
    shelved = pdf.shelve(site, built=built)
    for lang in LANGS:
        assert sorted(p.name for p in (site / lang / "pdf").iterdir()) == sorted(
            [f"attention-step-by-step-{lang}.pdf", f"attention-step-by-step-{lang}-student.pdf"]
            + [f"{stem}.pdf" for stem in stems[1:]])
        assert (site / lang / "pdf" / f"{stems[1]}.pdf").read_bytes() == b"%PDF-1.4 " + stems[1].encode()
    for page in pages:  # the first chapter's handout missing
        assert [li.has_attr("hidden") for li in menu(page)] == [page.stem == stems[0]] * 2, page
    doc = BeautifulSoup(landing.landing_page(pdfs=shelved), "html.parser")
    for lang in LANGS:
        hrefs = {a["href"] for a in doc.select(f"div.only-{lang} a[href]") if "/pdf/" in a["href"]}
        assert hrefs == {f"{lang}/pdf/{p.name}" for p in (site / lang / "pdf").iterdir()}


def meta(doc: BeautifulSoup, key: str) -> str | None:
    tag = doc.find("meta", attrs={"property": key}) or doc.find("meta", attrs={"name": key})
    return tag["content"] if tag else None


@pytest.mark.parametrize("rel", site_pages() or ["(no site)"])
def test_every_page_has_a_link_card_and_twins_in_its_language(rel):
    """Open Graph and Twitter tags in the page's language (a chapter's card: its title, its line of
    book/landing.yml), the card image of that language, a canonical link to itself, and hreflang links to the
    page in each language, which exist."""
    lang, name = rel.split("/")
    doc = soup(SITE / rel, head_only=True)
    title = doc.title.get_text()
    # the page's own title: what <title> says before the book's name ("<page> — <book>")
    assert meta(doc, "og:title") and (title.startswith(meta(doc, "og:title") + " ") or title == meta(doc, "og:title")), \
        (rel, meta(doc, "og:title"), title)
    assert meta(doc, "twitter:title") == meta(doc, "og:title")
    assert meta(doc, "og:description") == meta(doc, "description") == meta(doc, "twitter:description")
    stem = name.removesuffix(".html")
    if stem in toc_chapters():
        assert meta(doc, "og:title") == chapter(stem).title(lang)
        assert meta(doc, "og:description") == landing.plain(landing.chapter_lines()[stem][lang])
    else:
        assert meta(doc, "og:description") == CONFIG["languages"][lang]["description"]
    assert meta(doc, "og:image") == meta(doc, "twitter:image") == f"{SITE_URL}social-{lang}.png"
    assert meta(doc, "og:locale") == {"ko": "ko_KR", "en": "en_US"}[lang]
    assert meta(doc, "twitter:card") == "summary_large_image"
    own = f"{SITE_URL}{rel}"
    assert meta(doc, "og:url") == own and doc.find("link", rel="canonical")["href"] == own
    alternates = {link["hreflang"]: link["href"] for link in doc.find_all("link", rel="alternate", hreflang=True)}
    assert alternates == {lg: f"{SITE_URL}{lg}/{name}" for lg in LANGS}, rel
    assert all((SITE / href.removeprefix(SITE_URL)).is_file() for href in alternates.values())


def test_card_images_are_pngs_of_the_cards_size():
    for lang in LANGS:
        data = (SITE / f"social-{lang}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == landing.SOCIAL_SIZE
    doc = soup(SITE / "index.html")
    assert meta(doc, "og:image") == f"{SITE_URL}social-en.png" and doc.find("link", rel="canonical")["href"] == SITE_URL


def test_sitemap_lists_every_page_with_its_twin():
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ET.parse(SITE / "sitemap.xml").getroot()
    urls = {u.find("s:loc", ns).text: {x.get("hreflang"): x.get("href") for x in u.findall("x:link", ns)}
            for u in root.findall("s:url", ns)}
    wanted = {"index.html"} | {r for r in site_pages() if r.split("/")[1] not in ("search.html", "genindex.html")}
    assert set(urls) == {SITE_URL + r for r in wanted}
    for loc, alternates in urls.items():
        rel = loc.removeprefix(SITE_URL)
        if rel != "index.html":
            assert alternates == {lg: f"{SITE_URL}{lg}/{rel.split('/')[1]}" for lg in LANGS}, loc
    assert f"Sitemap: {SITE_URL}sitemap.xml" in (SITE / "robots.txt").read_text(encoding="utf-8")


def test_the_404_page_speaks_both_languages_from_the_sites_root():
    doc = soup(SITE / "404.html")
    assert doc.base["href"] == re.sub(r"^https?://[^/]+", "", SITE_URL)
    assert meta(doc, "robots") == "noindex"
    for lang in LANGS:
        block = doc.select_one(f"div.only-{lang}[lang={lang}]")
        assert block is not None and block.h1 is not None
        for a in block.find_all("a"):
            assert (SITE / a["href"]).is_file(), a["href"]  # from the root, whatever the missing address
    assert "/ko" in doc.head.find("script").string  # an address under /ko/ gets the Korean text


def test_landing_page_refuses_a_chapter_without_its_line(tmp_path, monkeypatch):
    data = yaml.safe_load(landing.LANDING_DATA.read_text(encoding="utf-8"))
    del data["chapters"][toc_chapters()[-1]]["ko"]
    broken = tmp_path / "landing.yml"
    broken.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(landing, "LANDING_DATA", broken)
    landing.chapter_lines.cache_clear()
    try:
        with pytest.raises(landing.LandingError, match=rf"missing or incomplete: \['{toc_chapters()[-1]}'\]"):
            landing.chapter_lines()
    finally:
        landing.chapter_lines.cache_clear()


def test_a_template_placeholder_without_a_value_is_an_error():
    with pytest.raises(landing.LandingError, match=r"placeholders \['missing'\] have no value"):
        landing.fill("{{ here }} {{ missing }}", {"here": "x"}, "t.html.in")


# What the landing page says of the instructor guide follows the guide itself (the Korean review of 2026-11-26
# found it promising class and homework times the guide no longer gives): each column of the guide's chapter table
# (the last word of each part, 학습 목표(요약) -> 목표, 읽기 + 연습 문제 -> 읽기, 문제) and each section after the
# table (과제로 낸 장 채점하기 -> 채점, Grading an assigned chapter -> grad) is named in the landing page's line.
GUIDE_SECTION_WORD = {"ko": lambda heading: heading.split()[-1].removesuffix("하기"),
                      "en": lambda heading: heading.split()[0].lower().removesuffix("ing")}


def guide_words(lang: str) -> list[str]:
    guide = (ROOT / "book" / lang / "instructor.md").read_text(encoding="utf-8")
    header = next(line for line in guide.splitlines() if line.startswith("| ") and "---" not in line)
    words = [part.split()[-1].lower() for cell in header.strip("| ").split(" | ")[1:]
             for part in re.sub(r"\([^)]*\)", "", cell).split("+")]
    after_table = guide.split(header, 1)[1]
    words += [GUIDE_SECTION_WORD[lang](h).lower() for h in re.findall(r"^## (.+)$", after_table, re.M)]
    return words


@pytest.mark.parametrize("lang", LANGS)
def test_landing_page_describes_the_instructor_guide_as_it_is(lang):
    template = (ROOT / "book" / "_templates" / "landing.html.in").read_text(encoding="utf-8")
    line = next(li for li in re.findall(r"<li>(.*?)</li>", template, re.S) if f'href="{lang}/instructor.html"' in li)
    words = guide_words(lang)
    assert len(words) >= 5, words
    missing = [w for w in words if w not in line.lower()]
    assert not missing, f"the landing page's line on the {lang} guide does not name {missing}: {line!r}"


def test_korean_guide_names_the_result_keys_the_csv_holds():
    """grades.csv's result column and totals.csv's headers hold the grader's English keys whatever LANG says; the
    Korean guide gives each Korean label with its key, so an instructor can filter the sheet."""
    from tools.grade import WORDS

    guide = (ROOT / "book" / "ko" / "instructor.md").read_text(encoding="utf-8")
    grading = guide.split("(instructor-grading)=", 1)[1].split("(instructor-misconceptions)=", 1)[0]
    for key in ("correct", "not yet", "not attempted", "error", "did not run"):
        assert f"{WORDS['ko'][key]}(`{key}`" in grading, f"name «{WORDS['ko'][key]}» with its CSV key `{key}`"
    assert "(`invalid`)" in grading


def test_a_chapter_page_without_the_handout_items_is_refused_by_name(tmp_path):
    """The PDF shelf shows or hides the chapter menu's two handout items (book/_templates/notebooks-menu.html); a
    page without them (the template changed) is refused with the page and the template named."""
    from tools import pdf

    page = tmp_path / "en" / f"{toc_chapters()[0]}.html"
    page.parent.mkdir(parents=True)
    page.write_text('<ul><li class="notebooks-group notebooks-student">x</li></ul>', encoding="utf-8")
    with pytest.raises(pdf.ShelfError, match=r"0 of the notebook menu's 2 handout items.*notebooks-menu\.html"):
        pdf.shelve(tmp_path, built=tmp_path / "none")
