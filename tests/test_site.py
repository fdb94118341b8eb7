"""The built site (_build/html, made by `make book`; `make test` builds it first): every page in the
right language, linked to its twin, loading nothing from a third party, chapter pages launching
their own notebook in Colab and offering their student and full notebooks (download, Colab), each named,
other pages not; every page's footer gives the licences in the page's language."""

from __future__ import annotations

import gzip
import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml
from bs4 import BeautifulSoup, Tag
from conftest import LANGS, ROOT, chapter_stems, chapters, parse

from tools import bundle as bundle_module
from tools import site

# make test prints the PDF while the tests run: wait for it (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("built_site")

SITE = ROOT / "_build" / "html"
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
CDN_HOSTS = ("cdn.jsdelivr.net", "unpkg.com", "cdnjs.cloudflare.com", "fonts.googleapis.com", "polyfill.io")
INTERFACE = {  # words a reader must see in their own language on every content page
    "ko": ['placeholder="이 책에서 검색..."', "본문 바로 가기", 'title="색상 모드"', 'title="PDF로 인쇄"'],
    "en": ['placeholder="Search this book..."', "Skip to main content", 'title="Color mode"', 'title="Print to PDF"'],
}
# the notebook menu of a chapter page, in the page's language: its button, the name of each notebook (the
# student notebook first), and each notebook's two items
NOTEBOOK_MENU = {"ko": ("노트북", ("학생용 노트북 (풀이 없음)", "전체 노트북 (풀이 포함)"), "내려받기 (.ipynb)", "Colab에서 열기"),
                 "en": ("Notebooks", ("Student notebook (no solutions)", "Full notebook (with solutions)"),
                        "Download (.ipynb)", "Open in Colab")}
# the footer's licence line (LICENSE), in the page's language
LICENCE = {"ko": "글과 그림: CC BY 4.0. 코드: MIT.", "en": "Text and figures: CC BY 4.0. Code: MIT."}


def pages(lang: str) -> list[Path]:
    if not (SITE / "index.html").is_file():
        pytest.fail("no site in _build/html: run 'make book' (make test builds it before the tests)")
    return sorted((SITE / lang).glob("*.html"))


ALL_PAGES = [(lang, name) for lang in LANGS for name in
             sorted(p.name for p in (SITE / lang).glob("*.html"))] if SITE.is_dir() else [("ko", "index.html")]


@cache
def bundle_parts(bundle: Path) -> str:
    """The files a bundle of tools/bundle.py was joined from, as its comments name them."""
    return " ".join(re.findall(r"^/\* (\S+) \*/$", bundle.read_text(encoding="utf-8"), re.M))


@cache
def stylesheets(page: Path) -> list[str]:
    """The stylesheets a page loads, by the file each came from: a bundle of tools/bundle.py opens each of
    its parts with a comment naming its file."""
    found = []
    for link in soup(page).find_all("link", rel="stylesheet"):
        href = link["href"].split("?")[0]
        if re.fullmatch(r"_static/book-[0-9a-f]{12}\.css", href):
            found += re.findall(r"^/\* (\S+) \*/$", (page.parent / href).read_text(encoding="utf-8"), re.M)
        else:
            found.append(href)
    return found


def soup(path: Path) -> BeautifulSoup:
    """The page parsed, once per version of the file: the tests here only read the tree (a chapter page takes
    about half a second to parse, and eight tests read each page)."""
    return _parsed(path, path.stat().st_mtime_ns)


@cache
def _parsed(path: Path, mtime_ns: int) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


@cache
def _elements(path: Path, mtime_ns: int) -> tuple[dict[str, list[Tag]], dict[int, int]]:
    """The page's elements by tag name ("pre") and by class (".highlight"), each list in document order, and
    each element's place in the document (by id: a Tag hashes its whole markup)."""
    index: dict[str, list[Tag]] = {}
    order: dict[int, int] = {}
    for place, tag in enumerate(_parsed(path, mtime_ns).find_all(True)):
        order[id(tag)] = place
        for key in dict.fromkeys([tag.name, *(f".{name}" for name in tag.get("class") or ())]):
            index.setdefault(key, []).append(tag)
    return index, order


def select(page: Path, selector: str, *subjects: str) -> list[Tag]:
    """soup(page).select(selector) for a selector whose every match is one of `subjects` (tag names, or classes
    written ".name"): only those elements are matched against it, not the 9,000 of a chapter page. Soupsieve
    matches an element with its ancestors and descendants as in select, and the result keeps document order."""
    for part in bundle_module.split_selectors(selector):
        subject = _subject(part)
        tag, classes = re.match(r"[\w-]*", subject).group(0), set(re.findall(r"\.([\w-]+)", _outside_parens(subject)))
        if not (tag in subjects or classes & {s[1:] for s in subjects if s.startswith(".")}):
            raise ValueError(f"select: {part.strip()!r} matches elements that are none of {subjects}: name its "
                             "subject's tag or one of its classes")
    index, order = _elements(page, page.stat().st_mtime_ns)
    candidates = {id(tag): tag for key in subjects for tag in index.get(key, ())}
    return [tag for tag in sorted(candidates.values(), key=lambda tag: order[id(tag)]) if tag.css.match(selector)]


def _outside_parens(text: str) -> str:
    """`text` without what is inside parentheses (a :not(...) or :has(...) argument names no subject)."""
    while re.search(r"\([^()]*\)", text):
        text = re.sub(r"\([^()]*\)", "", text)
    return text


def _subject(selector: str) -> str:
    """The last compound of a selector (what it matches), after its last combinator outside parentheses."""
    depth, start = 0, 0
    for i, ch in enumerate(selector.strip()):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in " >+~":
            start = i + 1
    return selector.strip()[start:]


def page_tags(page: Path, name: str, attr: str | None = None) -> list[Tag]:
    """soup(page).find_all(name) (name a tag name, or a class written ".name", as find_all(class_=name) finds
    it), and of those the ones with the attribute `attr` if given (find_all(name, attrs={attr: True}))."""
    found = _elements(page, page.stat().st_mtime_ns)[0].get(name, [])
    return [tag for tag in found if attr is None or tag.get(attr) is not None]


@cache
def plain_classes(bundle: Path) -> frozenset[str]:
    """The token classes a bundle draws as plain text (tools/bundle.py), read once per bundle: its name holds
    its hash, and every chapter page of a language shares it."""
    return frozenset(bundle_module.plain_token_classes(bundle.read_text(encoding="utf-8"))[0])


def local_target(page: Path, url: str) -> Path | None:
    """The file a relative URL points at, or None for an external or in-page URL."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    return (page.parent / parts.path).resolve()


def test_both_builds_are_free_of_warnings():
    for lang in LANGS:
        log = ROOT / "_build" / "logs" / f"{lang}.log"
        assert log.is_file(), "no build log: run 'make book'"
        warnings = [line for line in log.read_text(encoding="utf-8").splitlines() if "WARNING" in line or "ERROR" in line]
        assert warnings == [], f"{lang} build: {len(warnings)} warnings"


def test_landing_page_offers_both_languages():
    """Each language's part links only to its own pages (tests/test_landing.py checks what it shows)."""
    landing = soup(SITE / "index.html")
    for lang in LANGS:
        links = landing.select_one(f"div.only-{lang}").find_all("a", hreflang=True)
        assert {a["hreflang"] for a in links} == {lang}
        assert f"{lang}/index.html" in {a["href"] for a in links}
        assert all((SITE / a["href"].split("#")[0]).is_file() for a in links)
    assert landing.html["lang"] == "en" and landing.find(lang="ko") is not None


@pytest.mark.parametrize("lang, name", ALL_PAGES)
def test_page_language_twin_and_local_resources(lang, name):
    page = SITE / lang / name
    doc = soup(page)
    assert doc.html.get("lang") == lang, f"{lang}/{name}: <html lang={doc.html.get('lang')!r}>"
    # everything the browser loads comes from this site
    for tag, attr in (("script", "src"), ("link", "href"), ("img", "src"), ("iframe", "src"), ("source", "src")):
        for element in page_tags(page, tag, attr):
            url = element[attr]
            if tag == "link" and not set(element.get("rel", [])) & {"stylesheet", "preload", "icon", "modulepreload"}:
                continue
            if url.startswith("data:"):  # inline (an explorer's first figure): no request
                continue
            assert not re.match(r"^(https?:)?//", url), f"{lang}/{name}: <{tag}> loads {url} from a third party"
            target = local_target(page, url)
            assert target is not None and target.is_file(), f"{lang}/{name}: <{tag}> {url} does not exist"
    text = page.read_text(encoding="utf-8")
    for host in CDN_HOSTS:
        assert host not in text, f"{lang}/{name} mentions {host}"
    # the twin page in the other language
    if name not in ("genindex.html", "search.html"):
        twin = doc.find("a", class_="twin-link")
        assert twin is not None, f"{lang}/{name}: no link to the other language"
        other = local_target(page, twin["href"])
        assert other is not None and other.is_file(), f"{lang}/{name}: twin {twin['href']} does not exist"
        assert soup(other).html["lang"] == twin["hreflang"] != lang
        assert other.name == name
        for words in INTERFACE[lang]:
            assert words in text, f"{lang}/{name}: interface text {words!r} is missing"


@pytest.mark.parametrize("stem", chapter_stems())
@pytest.mark.parametrize("lang", LANGS)
def test_chapter_page_launches_its_own_notebook_in_colab(stem, lang):
    page = SITE / lang / f"{stem}.html"
    repo = urlsplit(CONFIG["repository"]["url"]).path.strip("/")
    path = f"notebooks/{lang}/{stem}.ipynb"
    expected = f"{CONFIG['launch_buttons']['colab_url']}/github/{repo}/blob/{CONFIG['repository']['branch']}/{path}"
    links = [a["href"] for a in page_tags(page, "a", "href") if "colab.research.google.com" in a["href"]
             and "/student/" not in a["href"]]  # the notebook menu opens the student notebook too
    assert links == [expected], f"{lang}/{stem}: Colab links {links}"
    # the full notebook's only Colab link is the notebook menu's, named as the full notebook
    (link,) = select(page, ".dropdown-notebooks a.notebooks-full-colab", ".notebooks-full-colab")
    assert link["aria-label"].startswith(NOTEBOOK_MENU[lang][1][1]), link
    assert (ROOT / path).is_file()


def colab_url(path: str) -> str:
    repo = urlsplit(CONFIG["repository"]["url"]).path.strip("/")
    return f"{CONFIG['launch_buttons']['colab_url']}/github/{repo}/blob/{CONFIG['repository']['branch']}/{path}"


@pytest.mark.parametrize("stem", chapter_stems())
@pytest.mark.parametrize("lang", LANGS)
def test_chapter_page_offers_its_student_and_full_notebooks(stem, lang):
    """One menu in the page's header, in the page's language, names each notebook (the student notebook without
    the solutions, the full notebook with them): download it from the site (a copy, byte for byte, of
    student/<lang>/<stem>.ipynb or notebooks/<lang>/<stem>.ipynb), or open that file on GitHub in Colab. The
    theme's unnamed launch (rocket) and source-download buttons are gone from the page."""
    page = SITE / lang / f"{stem}.html"
    menus = select(page, ".dropdown-notebooks", ".dropdown-notebooks")
    assert len(menus) == 1, f"{lang}/{stem}: {len(menus)} notebook menus"
    menu = menus[0]
    assert menu.find_parent(class_="bd-header-article") is not None, f"{lang}/{stem}: the menu is not in the header"
    label, names, download_text, colab_text = NOTEBOOK_MENU[lang]
    toggle = menu.find("button", class_="dropdown-toggle")
    assert toggle is not None and toggle.get_text(" ", strip=True) == label, f"{lang}/{stem}: menu button {toggle}"
    assert [h.get_text(" ", strip=True) for h in menu.select(".dropdown-header")] == [*names, HANDOUT[lang][0]]
    (handout,) = menu.select("a.notebooks-pdf-download[download]")
    assert handout.get_text(" ", strip=True) == HANDOUT[lang][1], f"{lang}/{stem}: {handout}"
    assert handout["href"] == f"pdf/{stem}.pdf", f"{lang}/{stem}: {handout['href']}"
    if (ROOT / "_build" / "pdf" / "report.json").is_file():  # make test prints the PDF before the tests
        assert (SITE / lang / "pdf" / f"{stem}.pdf").is_file(), f"{lang}/{stem}: its handout is not in the site"
    # offered only when the site has it (tools/pdf.py's shelve; make book before any make pdf has none)
    has = (SITE / lang / "pdf" / f"{stem}.pdf").is_file()
    for item in (handout.find_parent("li"), menu.select_one("li.notebooks-pdf")):
        assert item.has_attr("hidden") != has, f"{lang}/{stem}: handout item hidden={item.has_attr('hidden')}, PDF there: {has}"
    for (kind, folder), name in zip((("student", "student"), ("full", "notebooks")), names, strict=True):
        source = ROOT / folder / lang / f"{stem}.ipynb"
        assert source.is_file(), f"{source.relative_to(ROOT)} is missing: run 'make execute' / 'make student'"
        downloads = menu.select(f"a.notebooks-{kind}-download[download]")
        assert len(downloads) == 1 and downloads[0].get_text(" ", strip=True) == download_text, f"{lang}/{stem}: {downloads}"
        assert downloads[0]["aria-label"] == f"{name}: {download_text}"
        target = local_target(page, downloads[0]["href"])
        assert target is not None and target.is_file(), f"{lang}/{stem}: download {downloads[0]['href']} is not in the site"
        assert (SITE / lang).resolve() in target.parents, f"{lang}/{stem}: download {target} is outside {lang}/"
        assert target.read_bytes() == source.read_bytes(), f"{lang}/{stem}: {target} differs from {source.relative_to(ROOT)}"
        colab = menu.select(f"a.notebooks-{kind}-colab")
        assert [a["href"] for a in colab] == [colab_url(f"{folder}/{lang}/{stem}.ipynb")], f"{lang}/{stem}: {colab}"
        assert colab[0].get_text(" ", strip=True) == colab_text and colab[0]["aria-label"] == f"{name}: {colab_text}"
    assert not select(page, ".dropdown-launch-buttons, .btn-download-source-button", ".dropdown-launch-buttons",
                      ".btn-download-source-button"), f"{lang}/{stem}: theme's unnamed buttons"


HANDOUT = {"ko": ("이 장의 유인물 (PDF, 풀이 없음)", "내려받기 (.pdf)"),
           "en": ("Chapter handout (PDF, no solutions)", "Download (.pdf)")}


@pytest.mark.parametrize("lang, name", ALL_PAGES)
def test_only_chapter_pages_offer_a_student_notebook(lang, name):
    page = SITE / lang / name
    menus = select(page, ".dropdown-notebooks", ".dropdown-notebooks")
    student_links = [a["href"] for a in page_tags(page, "a", "href") if "_student/" in a["href"] or "/student/" in a["href"]]
    if Path(name).stem in chapter_stems():
        assert len(menus) == 1, f"{lang}/{name}: {len(menus)} notebook menus"
    else:
        assert not menus and not student_links, f"{lang}/{name} is not a chapter, but offers a student notebook: {student_links}"


@pytest.mark.parametrize("lang, name", ALL_PAGES)
def test_every_page_gives_the_licences_in_its_language(lang, name):
    """LICENSE: text and figures CC BY 4.0, code MIT; the footer says so, in the page's language, and links both."""
    (line,) = select(SITE / lang / name, "footer .book-licence", ".book-licence")
    assert line.get_text(" ", strip=True).replace(" .", ".") == LICENCE[lang], f"{lang}/{name}: {line}"
    links = {a.get_text(strip=True): a["href"] for a in line.find_all("a", rel="license")}
    repo = CONFIG["repository"]["url"].rstrip("/")
    assert links == {"CC BY 4.0": f"https://creativecommons.org/licenses/by/4.0/deed.{lang}",
                     "MIT": f"{repo}/blob/{CONFIG['repository']['branch']}/LICENSE"}, links
    assert "CC BY 4.0" in (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_a_missing_student_notebook_stops_the_build(tmp_path, monkeypatch, capsys):
    """Without student/<lang>/<stem>.ipynb for a chapter the build stops before writing anything, with one
    line that says to run `make student` (not a traceback)."""
    for lang in LANGS:  # every student notebook but chapter 1's Korean one
        (tmp_path / lang).mkdir()
        for stem in chapter_stems():
            if (lang, stem) != ("ko", chapter_stems()[0]):
                (tmp_path / lang / f"{stem}.ipynb").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(site, "STUDENT", tmp_path)
    monkeypatch.setattr(site, "BUILD", tmp_path / "build")  # where main() checks node_modules; not the site's
    monkeypatch.setattr(site, "copy_vendor", lambda out: out.mkdir(parents=True))
    with pytest.raises(site.SiteError, match=r"ko/01_\w+\.ipynb is missing .*run 'make student'"):
        site.stage("ko")
    assert site.main(["stage"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "make student" in err and "Traceback" not in err, err
    assert site.student_notebooks("en").keys() == set(chapter_stems())


@pytest.mark.parametrize("stem", chapter_stems())
@pytest.mark.parametrize("lang", LANGS)
def test_chapter_page_has_math_widgets_and_figures_served_locally(stem, lang):
    page = SITE / lang / f"{stem}.html"
    scripts = [s.get("src", "") for s in page_tags(page, "script")]
    # math is rendered at build time (book/_ext/book_math.py): KaTeX's HTML, no TeX left for a script, no math
    # script at all, and KaTeX's stylesheet (the site's own) only on pages with math
    styles = [href for href in stylesheets(page) if "katex" in href]
    assert not [s for s in scripts if "mathjax" in s.lower() or "katex" in s.lower()], scripts
    if select(page, "article .katex", ".katex"):
        assert [s.rsplit("/_vendor/", 1)[-1] for s in styles] == ["katex/katex.min.css"], styles
        assert (SITE / "_vendor" / "katex" / "katex.min.css").is_file()
    else:
        assert styles == [], f"{lang}/{stem}: KaTeX's stylesheet on a page without math"
    assert not select(page, "article .math:not(:has(.katex)), article .katex-error", ".math", ".katex-error"), \
        f"{lang}/{stem}: math left unrendered"
    # explorers are plain HTML switched by the site's own small script: no page loads a widget manager
    assert not [s for s in page_tags(page, "script") if s.get("type") == "application/vnd.jupyter.widget-state+json"], \
        "a page holds saved widgets"
    assert not [s for s in scripts if "embed-amd" in s or "require.js" in s], "a page loads the widget manager"
    for img in (img for img in page_tags(page, "img", "src") if img["src"].startswith("_images/")):
        assert (page.parent / img["src"]).is_file()


def notebook_explorers(stem: str, lang: str) -> list[tuple[str, dict]]:
    """(cell id, stored explorer) of every explorer output of a chapter's notebook."""
    nb = json.loads((ROOT / "notebooks" / lang / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return [(cell["id"], output["data"][site.EXPLORER_MIME]) for cell in nb["cells"]
            for output in cell.get("outputs", []) if site.EXPLORER_MIME in output.get("data", {})]


EXPLORER_BUDGET = 150_000  # bytes, gzipped: what one explorer may add to its page


def explorer_states(path: Path) -> dict:
    """The data of an explorer's states script, `bookExplorerStates("<its file name>", {...});`."""
    m = re.fullmatch(r'bookExplorerStates\(("[^"]+"), (.*)\);\n', path.read_text(encoding="utf-8"), re.S)
    assert m and json.loads(m[1]) == path.name, f"{path.name} is not a states script naming itself"
    return json.loads(m[2])


@pytest.mark.parametrize("stem", chapter_stems())
@pytest.mark.parametrize("lang", LANGS)
def test_chapter_explorers_carry_the_notebooks_outputs_within_budget(stem, lang):
    """Every explorer of the notebook is on the page, with controls named as in the notebook, the first
    setting's output shown and every setting's output in its states file, byte for byte the notebook's;
    what it costs the page (states file, script, styles; gzipped) stays within EXPLORER_BUDGET."""
    page = SITE / lang / f"{stem}.html"
    boxes = page_tags(page, ".book-explorer")
    stored = notebook_explorers(stem, lang)
    assert len(boxes) == len(stored), f"{page.name}: {len(stored)} explorers in the notebook, {len(boxes)} on the page"
    shared = sum(len(gzip.compress((SITE / "_vendor" / "explorer" / name).read_bytes()))
                 for name in ("explorer.js", "explorer.css"))
    for box, (cell_id, explorer) in zip(boxes, stored, strict=True):
        states_file = page.parent / box["data-states"]
        assert states_file.is_file(), f"{page.name}: {box['data-states']} is missing"
        states = explorer_states(states_file)
        assert states["states"] == explorer["states"], f"{page.name} {cell_id}: the states file differs from the notebook"
        assert states["controls"] == [c["labels"] for c in explorer["controls"]]
        names = [label.get_text() for label in box.select(".explorer-control > label[for], .explorer-control > legend")]
        assert names == [c["label"] for c in explorer["controls"]], f"{page.name} {cell_id}: control names {names}"
        first = explorer["states"][explorer["default"]]
        assert box.select_one(".explorer-text").get_text() == first["text"]
        srcs = [unquote(img["src"].split(",", 1)[1]) for img in box.select(".explorer-figures img")]
        assert srcs == first["figures"], f"{page.name} {cell_id}: the first figure is not the notebook's"
        assert all(img.get("alt") for img in box.select("img")), f"{page.name} {cell_id}: a figure without alt text"
        cost = len(gzip.compress(states_file.read_bytes())) + shared
        assert cost <= EXPLORER_BUDGET, f"{page.name} {cell_id}: the explorer costs {cost} bytes gzipped"


def test_each_language_has_its_own_search_index():
    index = {lang: (SITE / lang / "searchindex.js").read_text(encoding="utf-8") for lang in LANGS}
    for source in chapters():
        chapter = parse(source)
        for lang, other in (("ko", "en"), ("en", "ko")):
            title = json.dumps(f"{chapter.title(lang)}")  # the index stores non-ASCII text \\u-escaped
            assert title in index[lang] and title not in index[other], f"{chapter.stem}: {lang} title in the wrong index"


@pytest.mark.parametrize("lang", LANGS)
def test_a_page_waits_for_one_stylesheet(lang):
    """Before it can paint, a page fetches one stylesheet (tools/bundle.py joins the themes' twelve), its head's
    plain scripts as one file and, with math, the script that gives KaTeX's fonts to the browser (before the
    stylesheet, no font preloaded as well); it paints once its first screen is parsed (rel=expect names an
    element of the page)."""
    for page in sorted((SITE / lang).glob("*.html")):
        text = page.read_text(encoding="utf-8")
        head = BeautifulSoup(text.split("</head>", 1)[0] + "</head>", "html.parser").head  # the head alone: quick
        head_styles = head.find_all("link", rel="stylesheet")
        assert len(head_styles) == 1 and head_styles[0]["href"].startswith("_static/book-"), (page.name, head_styles)
        fonts = head.find("script", src=re.compile(r"^_static/book-fonts-[0-9a-f]{12}\.js$"))
        if "katex/katex.min.css" in bundle_parts(page.parent / head_styles[0]["href"]):
            assert fonts is not None and fonts.find_next(["link", "script"]) is head_styles[0], page.name
            assert not head.find("link", rel="preload", attrs={"as": "font"}), page.name
        else:
            assert fonts is None, page.name
        # the scripts it waits for: the fonts (with math), the head's plain scripts joined into one file, and
        # sphinx-design's, which reads an attribute of its own tag
        waits = [t["src"] for t in head.find_all("script", src=True) if not t.has_attr("defer") and not t.has_attr("async")]
        if page.name != "search.html":
            assert len(waits) <= 3 and sum(bool(re.match(r"_static/book-[0-9a-f]{12}\.js$", w)) for w in waits) == 1, \
                (page.name, waits)
        expect = head.find("link", rel="expect")
        if page.name != "search.html":
            assert expect is not None and expect["blocking"] == "render", page.name
            assert f'id="{expect["href"][1:]}"' in text, (page.name, expect)
    for script in (SITE / lang / "_static").glob("book-fonts-*.js"):
        size = len(gzip.compress(script.read_bytes()))
        assert size < 20_000, f"{script.name}: {size} bytes gzipped; the fonts should be cut down to what formulas show"
    bundles = sorted((SITE / lang / "_static").glob("book-*.css"))
    assert 1 <= len(bundles) <= 3, bundles  # pages with math share one, pages without another
    for bundle in bundles:
        size = len(gzip.compress(bundle.read_bytes()))
        assert size < 40_000, f"{bundle.name}: {size} bytes gzipped; the rules no page uses should be left out"


# the elements of the largest chapter page (before the checks moved to the set-up cell, chapter 9's check cells
# brought it to about 9,330)
ELEMENTS = 9_500


@pytest.mark.parametrize("stem", chapter_stems())
@pytest.mark.parametrize("lang", LANGS)
def test_code_on_the_page_is_the_notebooks_code_with_few_elements(stem, lang):
    """Each code cell shown is one of the full or student notebook's code cells, character for character, after
    tools/bundle.py took the spans off the tokens drawn as plain text; no such span is left, and the page stays
    under a DOM size that a phone lays out quickly (Lighthouse counts elements: chapter 6 had 14,600)."""
    page = SITE / lang / f"{stem}.html"
    doc = soup(page)
    sources = set()
    for path in (SITE / lang / "_sources" / f"{stem}.ipynb", ROOT / "student" / lang / f"{stem}.ipynb"):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        sources |= {"".join(c["source"]).rstrip("\n") for c in cells if c["cell_type"] == "code"}
    shown = [pre.get_text().rstrip("\n") for pre in select(page, "div.cell_input div.highlight pre", "pre")]
    assert shown and not [code for code in shown if code not in sources], \
        f"{lang}/{stem}: code on the page that is no cell of its notebooks: {[c[:80] for c in shown if c not in sources][:3]}"
    bundle = page.parent / doc.find("link", rel="stylesheet")["href"]
    plain = plain_classes(bundle)
    assert {"n", "p"} <= plain, f"{bundle.name}: names and punctuation are no longer drawn as plain text"
    left = [span for pre in select(page, "div.highlight pre", "pre") for span in pre.find_all("span", class_=True)
            if set(span["class"]) <= plain]
    assert not left, f"{lang}/{stem}: {len(left)} spans drawn as plain text left in code, e.g. {left[:3]}"
    # a solution shows the solution, its one-line check and the explanation: never the checker
    checks = [cell.select_one("div.cell_input pre").get_text().strip()
              for cell in select(page, "div.tag_exercise-check", ".tag_exercise-check")]
    assert checks and all(re.fullmatch(r'check\("ch\d\d-ex-[\w-]+"\)', c) for c in checks), \
        f"{lang}/{stem}: a check cell on the page is more than check(\"chNN-ex-...\"): {checks}"
    elements = len(doc.find_all(True))
    assert elements < ELEMENTS, f"{lang}/{stem}: {elements} elements"


def test_the_themes_script_leaves_measuring_scrollable_blocks_to_the_book():
    """book/_ext/book_site.py takes the theme's load-time measuring of every scrollable block out of its script
    (SCROLLABLE_FOCUS measures per section); a theme whose script no longer has that call stops the build."""
    import sys

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        import book_site
    finally:
        sys.path.remove(str(ROOT / "book" / "_ext"))
    for lang in LANGS:
        text = (SITE / lang / book_site.THEME_SCRIPT).read_text(encoding="utf-8")
        assert book_site.THEME_SCROLLABLE_CALL not in text and "book_site: SCROLLABLE_FOCUS" in text, lang
        assert book_site.patch_theme_script(text) == text  # a second build changes nothing
        joined = [p for p in (SITE / lang / "_static").glob("book-*.js") if "contentvisibilityautostatechange"
                  in p.read_text(encoding="utf-8")]
        assert joined, f"{lang}: no page script measures scrollable blocks per section"
    with pytest.raises(RuntimeError, match="THEME_SCROLLABLE_CALL"):
        book_site.patch_theme_script("(()=>{})();")


@pytest.mark.parametrize("lang", LANGS)
def test_heavy_theme_scripts_are_not_loaded(lang):
    """No page loads Font Awesome's script (icons.css draws the icons); only the search page loads the search
    index and its scripts."""
    assert (SITE / lang / "_static" / "icons.css").is_file()
    for page in sorted((SITE / lang).glob("*.html")):
        scripts = [s.get("src", "") for s in page_tags(page, "script")]
        assert not [s for s in scripts if "fontawesome" in s], f"{page.name}: {scripts}"
        search = [s for s in scripts if re.search(r"(searchindex|searchtools|language_data)\.js", s)]
        assert len(search) == (3 if page.name == "search.html" else 0), f"{page.name}: {search}"
        assert "_static/icons.css" in stylesheets(page), page.name


@pytest.mark.parametrize("lang", LANGS)
def test_one_search_field_per_page(lang):
    """pydata-sphinx-theme 0.17.1 would add a top bar with a second search field to every page unless
    navbar_persistent is set (tools/site.py sets it empty); the search field lives in the sidebar."""
    for page in sorted((SITE / lang).glob("*.html")):
        assert not select(page, "#pst-header .search-button-field", ".search-button-field"), \
            f"{page.name}: a search field in the top bar"
        if page.name != "search.html":
            assert len(select(page, ".bd-sidebar-primary .search-button-field", ".search-button-field")) == 1, \
                f"{page.name}: sidebar search"


def test_explorer_outputs_become_html_and_a_states_file(tmp_path):
    explorer = {"function": "f", "default": "1", "controls": [
        {"name": "x", "label": "엑스", "kind": "range", "values": [1, 2], "labels": ["1", "2"]}],
        "states": {"0": {"figures": ["<svg>1</svg>"], "text": "one\n"}, "1": {"figures": ["<svg>2</svg>"], "text": "two\n"}}}
    cell = {"id": "99-001", "cell_type": "code", "metadata": {"mystnb": {"image": {"alt": "그림 설명"}}},
            "outputs": [{"output_type": "display_data", "metadata": {},
                         "data": {site.EXPLORER_MIME: explorer, "text/plain": "explorer(f)",
                                  "application/vnd.jupyter.widget-view+json": {"model_id": "m"}}}]}
    nb = site.explorer_outputs({"metadata": {"widgets": {"state": {}}}, "cells": [cell]}, "99_x", "ko", tmp_path)
    assert "widgets" not in nb["metadata"]
    html_text = nb["cells"][0]["outputs"][0]["data"]["text/html"]
    assert list(nb["cells"][0]["outputs"][0]["data"]) == ["text/html"]
    box = BeautifulSoup(html_text, "html.parser")
    assert box.find(class_="book-explorer")["data-states"] == "_explorers/99_x-99-001.js"
    assert box.find(class_="explorer-controls")["aria-label"] == "탐색기 설정"
    slider = box.find("input", type="range")
    assert (slider["value"], slider["max"], slider["aria-valuetext"], slider.has_attr("disabled")) == ("1", "1", "2", True)
    assert box.find("label", attrs={"for": slider["id"]}).get_text() == "엑스"
    assert box.find("pre").get_text() == "two\n" and box.find("img")["alt"] == "그림 설명"
    assert unquote(box.find("img")["src"].split(",", 1)[1]) == "<svg>2</svg>"
    assert explorer_states(tmp_path / "99_x-99-001.js") == {"controls": [["1", "2"]], "states": explorer["states"]}
    cell["metadata"] = {}
    cell["outputs"][0]["data"] = {site.EXPLORER_MIME: explorer}
    with pytest.raises(site.SiteError, match=r"99_x \(ko\) cell 99-001: an explorer's figure needs alt text"):
        site.explorer_outputs({"cells": [cell]}, "99_x", "ko", tmp_path)


# A reader's search for a chapter's subject, in each language, and the chapter it must rank first (the search
# page's own scripts and index, run in node: book/_ext/book_search.py ranks the results). Every chapter of
# _toc.yml needs a row in each language; a row for a chapter not in _toc.yml is not run.
SEARCH_RANKS = [
    ("en", "dict lookup", "01_dict_to_attention"),
    ("en", "Q K V", "02_qkv_projection"),
    ("en", "split vs chunk", "03_split_vs_chunk"),
    ("en", "view and transpose", "04_heads_view_transpose"),
    ("en", "scaled dot-product attention", "05_scaled_dot_product"),
    ("en", "scaled dot product attention", "05_scaled_dot_product"),
    ("en", "multi head attention", "06_multi_head_attention"),
    ("en", "multi-head attention", "06_multi_head_attention"),
    ("en", "multihead attention", "06_multi_head_attention"),
    ("en", "attention memory cost", "07_cost"),
    ("en", "flash attention", "07_cost"),
    ("en", "GPT-2 attention", "08_real_models"),
    ("en", "RoPE positions", "09_positions"),
    ("en", "batched decoding", "09_positions"),
    ("en", "multi-head latent attention", "10_todays_models"),
    ("en", "RoPE scaling", "10_todays_models"),
    ("en", "paged KV cache", "11_serving"),
    ("en", "continuous batching", "11_serving"),
    ("ko", "딕셔너리 조회", "01_dict_to_attention"),
    ("ko", "쿼리 키 밸류", "02_qkv_projection"),
    ("ko", "split chunk", "03_split_vs_chunk"),
    ("ko", "헤드로 나누기", "04_heads_view_transpose"),
    ("ko", "view와 transpose", "04_heads_view_transpose"),
    ("ko", "스케일드 내적 어텐션", "05_scaled_dot_product"),
    ("ko", "점곱 어텐션", "05_scaled_dot_product"),
    ("ko", "멀티헤드 어텐션", "06_multi_head_attention"),
    ("ko", "멀티 헤드 어텐션", "06_multi_head_attention"),
    ("ko", "어텐션 비용", "07_cost"),
    ("ko", "플래시 어텐션", "07_cost"),
    ("ko", "GPT-2 가중치 옮기기", "08_real_models"),
    ("ko", "GPT-2 어텐션", "08_real_models"),
    ("ko", "RoPE 위치", "09_positions"),
    ("ko", "배치 생성", "09_positions"),
    ("ko", "멀티헤드 잠재 어텐션", "10_todays_models"),
    ("ko", "RoPE 스케일링", "10_todays_models"),
    ("ko", "페이지 KV 캐시", "11_serving"),
    ("ko", "연속 배칭", "11_serving"),
]

RANK_SCRIPT = """
const fs = require("fs");
const [folder, queries] = [process.argv[2], JSON.parse(process.argv[3])];
globalThis._ready = () => {}; globalThis.SPHINX_HIGHLIGHT_ENABLED = false;
globalThis.document = {getElementById: () => null};  // _performSearch empties the page's progress line
const read = name => fs.readFileSync(folder + "/" + name, "utf-8");
eval(read("_static/searchtools.js") + "\\n" + read("_static/language_data.js") + "\\n" + read("searchindex.js") + `
// the search page lists the results from the end of the array (_displayNextItem pops them)
console.log(JSON.stringify(queries.map(q => Search._performSearch(...Search._parseQuery(q)).reverse()
  .slice(0, 3).map(r => r[0]))));`);
"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_search_for_a_chapters_subject_ranks_that_chapter_first(lang, tmp_path):
    import subprocess

    from tools.landing import toc_chapters

    wanted = toc_chapters()
    rows = [(q, stem) for lg, q, stem in SEARCH_RANKS if lg == lang and stem in wanted]
    assert not set(wanted) - {stem for _, stem in rows}, f"{lang}: chapters without a query in SEARCH_RANKS"
    (tmp_path / "rank.js").write_text(RANK_SCRIPT, encoding="utf-8")
    run = subprocess.run(["node", str(tmp_path / "rank.js"), str(SITE / lang), json.dumps([q for q, _ in rows])],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    wrong = [f"{query!r}: {found} (expected {stem} first)"
             for (query, stem), found in zip(rows, json.loads(run.stdout), strict=True) if found[:1] != [stem]]
    assert not wrong, f"{lang}: " + "; ".join(wrong)


ABOUT_ITEM = re.compile(r"^- (?:\[(?:Chapter (\d+)|(\d+)장)\]\(ch(\d\d)\)|(?:Chapter (\d+)|(\d+)장)\b)")


@pytest.mark.parametrize("lang", LANGS)
def test_about_the_book_describes_every_chapter_of_the_toc(lang):
    """The book's first page says what each chapter does: one item per chapter of _toc.yml, in its order, each
    linked to its chapter (`[Chapter N](chNN)`). An item may describe a chapter not in _toc.yml yet (being
    written), unlinked; once the chapter is in _toc.yml, its item must link it. The page once said that the last
    two chapters were GPT-2's and Llama's, three chapters later."""
    from tools.landing import toc_chapters

    text = (ROOT / "book" / lang / "index.md").read_text(encoding="utf-8")
    assert "(index-chapter-by-chapter)=" in text, f"book/{lang}/index.md: no section (index-chapter-by-chapter)="
    section = text.split("(index-chapter-by-chapter)=", 1)[1].split("\n(", 1)[0]
    toc = toc_chapters()
    by_number = {int(stem[:2]): stem for stem in toc}
    described = []
    for line in (line for line in section.splitlines() if line.startswith("- ")):
        m = ABOUT_ITEM.match(line)
        assert m, f"book/{lang}/index.md: an item that does not start with its chapter: {line[:80]!r}"
        number = int(m[1] or m[2] or m[4] or m[5])
        if m[3]:
            assert int(m[3]) == number, f"book/{lang}/index.md: chapter {number}'s item links ch{m[3]}"
            assert number in by_number, f"book/{lang}/index.md: chapter {number} is linked but not in _toc.yml"
        else:
            assert number not in by_number, (f"book/{lang}/index.md: chapter {number} is in _toc.yml: link its item, "
                                             f"[{'Chapter ' if lang == 'en' else ''}{number}{'장' if lang == 'ko' else ''}](ch{number:02d})")
        described.append(by_number.get(number, number))
    assert [d for d in described if d in toc] == toc, f"book/{lang}/index.md describes {described}; _toc.yml has {toc}"


def test_readme_links_the_site_the_colab_notebooks_and_the_pdf():
    """README.md links the published site, notebooks in Colab and the PDF editions: each link to the site names a
    page or file the build makes (`make test` prints the PDF before the tests), each Colab link a notebook of this
    repository's configured repository and branch."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((https?://[^)\s]+)\)|<(https?://[^>\s]+)>", readme)
    links = [a or b for a, b in links]
    site_url = CONFIG["site_url"]
    colab = (f"{CONFIG['launch_buttons']['colab_url']}/github/{urlsplit(CONFIG['repository']['url']).path.strip('/')}"
             f"/blob/{CONFIG['repository']['branch']}/")
    to_site = [u for u in links if u.startswith(site_url)]
    to_colab = [u for u in links if u.startswith(CONFIG["launch_buttons"]["colab_url"])]
    assert {u.removeprefix(site_url) for u in to_site} >= {"", "ko/", "en/"}, f"README.md links the site as {to_site}"
    assert sum(u.endswith(".pdf") for u in to_site) >= 4 and to_colab, "README.md links no PDF or no Colab notebook"
    missing = [u for u in to_site if not (SITE / u.removeprefix(site_url)).is_file()
               and not (SITE / u.removeprefix(site_url) / "index.html").is_file()]
    # without Debian's chromium `make test` prints no PDF (tools/pdf.py --skip-without-browser, as the browser
    # tests skip): then a PDF link must at least name a book tools/pdf.py writes
    import os

    if not Path("/usr/bin/chromium").is_file() and os.environ.get("BOOK_REQUIRE_BROWSER") != "1":
        missing = [u for u in missing if not re.fullmatch(
            r"(ko|en)/pdf/attention-step-by-step-\1(-student)?\.pdf", u.removeprefix(site_url))]
    assert not missing, f"README.md links what the site does not have (run 'make pdf' for the PDF): {missing}"
    wrong = [u for u in to_colab if not u.startswith(colab) or not (ROOT / u.removeprefix(colab)).is_file()]
    assert not wrong, f"README.md's Colab links that open no notebook of {colab}: {wrong}"
