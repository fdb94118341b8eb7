"""The built site (_build/html) in a real browser: every page of both languages and the landing page,
served on 127.0.0.1 and loaded in Debian's chromium (Playwright from pip drives it; no browser is ever
downloaded). Each page must load without a console error or a failed request, reach nothing beyond
127.0.0.1, be in its language and link to its twin, show its math, explorers and figures, describe every
figure in alt text, pass axe-core without a serious or critical violation, fit a 390 px phone screen,
answer every control of every explorer, mouse and keyboard, with the notebook's own output,
and (chapters) open its own notebook in Colab and offer its student and full notebooks, each named, to
download from the site or to open in Colab (other pages offer none); show the licences in the footer; keep
the header whole at 390 and 360 px; break Korean lines between words; keep the section when switching language. The internal links and anchors of the whole site are
checked without the browser.

Without /usr/bin/chromium and a Hangul font these tests skip, saying what to install; with
BOOK_REQUIRE_BROWSER=1 (set by .ci/run) they fail instead. The summary of `make test` prints the
counts and each chapter page's weight (from _build/browser-report.txt).
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from collections import Counter
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
import yaml
from browser_site import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    INSTALL,
    KOREAN_BREAKS,
    PHONE,
    RESPONSES,
    SETTLED,
    SiteServer,
    Visitor,
    browser_missing,
)
from conftest import LANGS, ROOT

# make test prints the PDF while the tests run: wait for it (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("built_site")

EXPLORER_MIME = "application/vnd.book.explorer+json"

SITE = ROOT / "_build" / "html"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "_build" / "screenshots"
REPORT = ROOT / "_build" / "browser-report.txt"
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))

# What is allowed anyway, each with its reason. Console errors and third-party requests: nothing.
CONSOLE_ERRORS_ALLOWED: dict[str, str] = {}
# axe rule id -> why a serious/critical violation of it cannot be fixed here (upstream defect).
AXE_ALLOWED: dict[str, str] = {}
# Console warnings are reported, not failed; these are known and explained.
KNOWN_WARNINGS: dict[str, str] = {}


def site_pages() -> list[str]:
    """Every page of the site, as a path under _build/html: both languages and the landing page."""
    if not (SITE / "index.html").is_file():
        return []
    return sorted(str(p.relative_to(SITE)) for p in SITE.rglob("*.html"))


PAGES = site_pages()
# chapter pages are the ones built from a notebook
CHAPTERS = [rel for rel in PAGES if len(Path(rel).parts) == 2 and
            (SITE / Path(rel).parent / "_sources" / Path(rel).with_suffix(".ipynb").name).is_file()]
# the site's root pages (tools/landing.py): the landing page and the 404 page, both languages in one page
ROOT_PAGES = ("index.html", "404.html")
SCREENSHOT_PAGES = {next((rel for rel in CHAPTERS if rel.startswith(f"{lang}/")), None) for lang in LANGS} - {None}
if not PAGES:  # collected before the site exists: one test that says so
    PAGES = CHAPTERS = ["(no site in _build/html)"]


def lang_of(rel: str) -> str:
    return Path(rel).parts[0] if len(Path(rel).parts) > 1 else "en"  # the landing page is in English


# GitHub Pages publishes a project's site under /<repository>/: the tests serve it the same way, so that
# a link or script that assumes the server's root fails here too (as a request beyond the site, blocked).
PAGES_PREFIX = urlsplit(CONFIG["repository"]["url"]).path.rstrip("/").rsplit("/", 1)[-1]


@pytest.fixture(scope="module")
def visitor(request, tmp_path_factory):
    if not (SITE / "index.html").is_file():
        pytest.fail("no site in _build/html: run 'make book' (make test builds it before the tests)")
    missing = browser_missing()
    if missing:
        REPORT.write_text(f"browser: {len(PAGES)} pages NOT checked: {INSTALL} ({missing})\n", encoding="utf-8")
        if os.environ.get("BOOK_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{missing}; {INSTALL} (BOOK_REQUIRE_BROWSER=1: the browser checks may not skip)")
        pytest.skip(f"{INSTALL} ({missing})")
    if not AXE.is_file():
        pytest.fail("node_modules/axe-core is missing: run 'npm ci' (make test does)")
    from playwright.sync_api import sync_playwright

    root = tmp_path_factory.mktemp("pages")
    (root / PAGES_PREFIX).symlink_to(SITE, target_is_directory=True)
    server = SiteServer(root)
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
    # the pages the selected tests look at, all at once (pipelined); the tests then read what was seen
    wanted = {item.callspec.params.get("rel") for item in request.session.items
              if getattr(item, "module", None) is not None and item.module.__name__ == __name__
              and hasattr(item, "callspec")}
    # an English chapter page whose Korean twin is visited too: axe-core reads their shared code cells there
    twins = {rel for rel in CHAPTERS if lang_of(rel) == "en" and rel in wanted and f"ko/{Path(rel).name}" in wanted}
    visitor = Visitor(browser, f"{server.base}{PAGES_PREFIX}/", AXE, SCREENSHOTS, SCREENSHOT_PAGES, twins)
    visitor.version = browser.version
    visitor.start = time.perf_counter()
    try:
        visitor.visit_all([rel for rel in PAGES if rel in wanted])
        yield visitor
    finally:
        visitor.seconds = time.perf_counter() - visitor.start
        _write_report(visitor)
        visitor.close()
        browser.close()
        playwright.stop()
        server.close()


@pytest.mark.parametrize("rel", PAGES)
def test_page_loads_without_errors(visitor, rel):
    v = visitor.visit(rel)
    errors = [e for e in v.console_errors if not any(known in e for known in CONSOLE_ERRORS_ALLOWED)]
    assert not errors, f"{rel}: console errors: {errors}"
    assert not v.failed_requests, f"{rel}: failed requests: {v.failed_requests}"
    assert v.not_ready == [], f"{rel}: did not finish rendering: {v.not_ready}"
    # without an icon of its own a page makes the browser ask for /favicon.ico, a 404 in the console
    assert v.dom["icon"], f"{rel}: no <link rel=icon>"


@pytest.mark.parametrize("rel", PAGES)
def test_page_loads_nothing_from_beyond_this_machine(visitor, rel):
    v = visitor.visit(rel)
    assert not v.third_party, f"{rel}: {len(v.third_party)} requests left 127.0.0.1 (blocked): {v.third_party[:10]}"
    assert not v.outside_site, f"{rel}: {len(v.outside_site)} requests outside the site's folder (blocked): {v.outside_site[:10]}"


@pytest.mark.parametrize("rel", PAGES)
def test_page_is_in_its_language_and_links_its_twin(visitor, rel):
    v = visitor.visit(rel)
    lang = lang_of(rel)
    assert v.dom["lang"] == lang, f"{rel}: <html lang={v.dom['lang']!r}>"
    if rel in ROOT_PAGES:  # both languages in one page (tests/test_landing.py checks how)
        assert v.dom["twin"] is None
        return
    twin = v.dom["twin"]
    assert twin is not None, f"{rel}: no link to the page in the other language"
    other = next(x for x in LANGS if x != lang)
    expected = f"{visitor.base}{other}/{Path(rel).name}"
    assert (twin["href"], twin["hreflang"]) == (expected, other), f"{rel}: twin link {twin}"
    assert visitor.visit(f"{other}/{Path(rel).name}").dom["lang"] == other


@pytest.mark.parametrize("rel", PAGES)
def test_page_shows_its_math_explorers_and_figures(visitor, rel):
    v = visitor.visit(rel)
    d = v.dom
    assert not d["mathErrors"], f"{rel}: formulas not rendered: {d['mathErrors']}"
    # math comes rendered in the HTML: no page loads a math script, and only pages with math KaTeX's stylesheet
    assert not d["mathScripts"], f"{rel}: math scripts {d['mathScripts']}"
    assert len(d["mathStyles"]) == (1 if d["mathRendered"] else 0), f"{rel}: {d['mathRendered']} formulas, stylesheets {d['mathStyles']}"
    assert d["explorersReady"] == d["explorers"], f"{rel}: {d['explorers']} explorers, {d['explorersReady']} ready"
    assert d["widgetViews"] == 0, f"{rel}: saved ipywidgets on the page; explorers are plain HTML"
    # an explorer's states wait until it nears the screen (book/assets/explorer.js); every explorer
    # sits far below the top of its page, so the first load fetches none
    assert not v.states_at_load, f"{rel}: explorer states fetched before any explorer came near the screen: {v.states_at_load}"
    broken = [img["attrSrc"] for img in d["images"] if not img["loaded"]]
    assert not broken, f"{rel}: images that did not load: {broken}"


EXPLORER_FILES = re.compile(r"/_explorers/|/_vendor/explorer/")
EXPLORER_GROUP = {"ko": "탐색기 설정", "en": "explorer settings"}  # the controls' group, named in the page's language


def notebook_explorers(rel: str) -> list[dict]:
    """The explorers stored in the notebook a chapter page is built from, in page order."""
    lang, name = Path(rel).parts
    nb = json.loads((ROOT / "notebooks" / lang / name.replace(".html", ".ipynb")).read_text(encoding="utf-8"))
    return [o["data"][EXPLORER_MIME] for c in nb["cells"] for o in c.get("outputs", []) if EXPLORER_MIME in o.get("data", {})]


@pytest.mark.parametrize("rel", CHAPTERS)
def test_explorers_respond_to_every_control_with_the_notebooks_output(visitor, rel):
    """Each control of each explorer, used with the mouse and with the keyboard (tests/browser_site.py,
    operate_explorers), makes the explorer show exactly the output the notebook stored for the chosen
    setting: the same printed text, character for character, and the same SVG figures, byte for byte
    (nbval holds those stored outputs to a fresh run of the notebook's Python). Controls are named as in
    the notebook of the page's language, sliders speak the value they show."""
    v = visitor.visit(rel)
    stored = notebook_explorers(rel)
    assert len(v.explorers) == len(stored), f"{rel}: {len(stored)} explorers in the notebook, {len(v.explorers)} operated"
    for n, (seen, explorer) in enumerate(zip(v.explorers, stored, strict=True)):
        where = f"{rel} explorer {n + 1}"
        first = seen["first"]
        assert first["group"] == EXPLORER_GROUP[lang_of(rel)], f"{where}: controls group named {first['group']!r}"
        assert [c["name"] for c in first["controls"]] == [c["label"] for c in explorer["controls"]], where
        assert [c["count"] for c in first["controls"]] == [len(c["values"]) for c in explorer["controls"]], where
        assert ",".join(str(c["index"]) for c in first["controls"]) == explorer["default"], f"{where}: first setting"
        default = explorer["states"][explorer["default"]]
        assert (first["text"], first["figures"]) == (default["text"], default["figures"]), f"{where}: first output"
        used = {(a["control"], a["how"]) for a in seen["actions"]}
        assert used == {(i, how) for i in range(len(explorer["controls"])) for how in ("mouse", "keyboard")}, where
        before, changed = default, set()
        for a in seen["actions"]:
            shows, state = a["shows"], explorer["states"][a["key"]]
            what = f"{where}: {explorer['controls'][a['control']]['label']} by {a['how']}, setting {a['key']}"
            assert shows["key"] == a["key"], f"{what}: shows setting {shows['key']}"
            assert [c["index"] for c in shows["controls"]] == [int(i) for i in a["key"].split(",")], what
            assert shows["text"] == state["text"], f"{what}: printed {shows['text']!r}, the notebook {state['text']!r}"
            assert shows["figures"] == state["figures"], f"{what}: the figure is not the notebook's"
            assert shows["loaded"] and all(shows["alts"]), f"{what}: a figure did not load or has no alt text"
            for c, spec in zip(shows["controls"], explorer["controls"], strict=True):
                assert not c["disabled"], f"{what}: {spec['label']} is disabled"
                if c["kind"] == "range":
                    assert c["valuetext"] == c["readout"] == spec["labels"][c["index"]], f"{what}: slider says {c}"
            if (state["text"], state["figures"]) != (before["text"], before["figures"]):
                changed.add(a["control"])
            before = state
        assert changed == set(range(len(explorer["controls"]))), f"{where}: controls that never changed the output"
        dark = seen["dark"]  # the theme's dark mode: no light block behind the explorer, names in the text colour
        assert dark["background"] == "rgba(0, 0, 0, 0)" and dark["name"] == dark["text"], f"{where}: in dark mode {dark}"


@pytest.mark.parametrize("rel", PAGES)
def test_display_math_is_never_cut_off_on_a_phone(visitor, rel):
    """At 360 px every display formula fits its line, or scrolls in its own box with a shadow at the edge that
    hides more of it (book.css); none ends past the screen's edge."""
    for formula in visitor.visit(rel).phone.get("math", []):
        assert formula["fits"] or (formula["scrolls"] and formula["shadow"]), f"{rel}: clipped at 360 px: {formula}"
        assert formula["right"] <= formula["width"] + 1, f"{rel}: past the screen's edge: {formula}"


# Installed before the page's own scripts: from the first frame until told to stop, every animation frame
# looks for TeX a reader could see (text outside KaTeX's MathML, which katex.min.css hides; that MathML
# itself must measure at most 1 px), and notes it with the time.
TEX_WATCH = r"""(() => {
  window.__tex = [];
  window.__texFrames = 0;
  const outside = 'script, style, pre, code, .highlight, .katex-mathml, textarea, template';
  const tex = /\\[a-zA-Z]{2,}|\$\$|\\\(|\\\[|\^\{|_\{/;
  const look = () => {
    if (!document.body) return;
    // every text node's words first (cheap), and only for the few that look like TeX, where it sits (the
    // selector, asked of every text node in every frame, took most of each frame at 4x slowdown)
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (tex.test(n.data) && !n.parentElement.closest(outside) && n.parentElement.checkVisibility()) {
        window.__tex.push(`${Math.round(performance.now())} ms: ${n.data.trim().slice(0, 60)}`);
      }
    }
    for (const m of document.querySelectorAll('.katex-mathml')) {
      const r = m.getBoundingClientRect();
      if (r.width > 1 || r.height > 1) window.__tex.push(`${Math.round(performance.now())} ms: MathML shown ${r.width}x${r.height}`);
    }
  };
  const frame = () => { window.__texFrames += 1; look(); if (!window.__texStop) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  document.addEventListener('readystatechange', look);
})();"""
# The number of formulas on each chapter page with math, and the fonts scripts each loads in its head
# (tools/bundle.py), each page read once.
FONTS_SCRIPT = re.compile(r'<script src="_static/(book-fonts-[0-9a-f]{12}\.js)"></script>')
FORMULAS, FONTS_SCRIPTS = {}, {}
for _rel in CHAPTERS:
    _text = (SITE / _rel).read_text(encoding="utf-8") if (SITE / _rel).is_file() else ""
    if 'class="katex"' in _text:
        FORMULAS[_rel] = _text.count('class="katex"')
        FONTS_SCRIPTS[_rel] = FONTS_SCRIPT.findall(_text.split("</head>", 1)[0])


def _most_formulas(lang: str, besides: str = "") -> list[str]:
    pages = [rel for rel in FORMULAS if rel.startswith(f"{lang}/") and Path(rel).name != besides]
    return [max(pages, key=lambda rel: (FORMULAS[rel], rel))] if pages else []


# Two pages watched, not every page with math (each load takes seconds at a quarter speed; every Korean page and
# one English page took 25 CPU-s): the Korean page with the most formulas, and the English page with the most of
# another chapter. What a slow CPU could show differs between math pages only by their formulas: every page's math
# is rendered at build time and none runs a math script (every page's visit: test_page_shows_its_math_explorers_
# and_figures, and tests/test_site.py), every page with math runs the same fonts script before its one stylesheet
# and paints once its first screen is parsed (tests/test_site.py, test_a_page_waits_for_one_stylesheet), and
# the test below asserts that every page with math loads the same fonts script as the watched pages.
MATH_PAGES = (_most_formulas("ko") + _most_formulas("en", besides=Path((_most_formulas("ko") or ["-"])[0]).name)
              or ["(no page with math)"])


@pytest.fixture(scope="module")
def slow_tab(visitor):
    """One tab at 390 px and the watchers installed before each page's own scripts, for the pages with math one
    after the other, as a reader goes from chapter to chapter (a new tab per page started a renderer each time;
    the cache stays off, the context's), and a DevTools session to slow its CPU 4x (Chrome DevTools' throttling)
    while a page is watched: a throttled tab keeps half a core busy as long as it is throttled, blank or in the
    background (measured: 0.6 CPU-s a second; throttled to the module's end, it took 20 CPU-s from the tests
    after it)."""
    page = visitor.context.new_page()
    cdp = page.context.new_cdp_session(page)
    page.add_init_script(TEX_WATCH)
    page.add_init_script("window.__shifts = []; new PerformanceObserver(l => { for (const e of l.getEntries()) "
                         "window.__shifts.push({value: e.value, math: e.sources.some(s => s.node && s.node.closest && "
                         "s.node.closest('.katex'))}); }).observe({type: 'layout-shift', buffered: true});")
    page.set_viewport_size({"width": 390, "height": 844})
    yield page, cdp
    page.close()


@pytest.mark.parametrize("rel", MATH_PAGES)
def test_no_raw_tex_at_any_moment_on_a_slow_cpu(visitor, slow_tab, rel):
    """With the CPU slowed 4x (Chrome DevTools' throttling), from the first frame to 1 s after `load`, no
    frame shows TeX source, and math moves nothing once it is drawn (no layout shift caused by it). Watched on
    a page with math of each language (MATH_PAGES says why these stand for the others)."""
    if rel not in PAGES:
        pytest.fail(f"{rel} is not in the site")
    scripts = FONTS_SCRIPTS
    assert scripts[rel] and all(found == scripts[rel] for found in scripts.values()), (
        f"pages with math that load another fonts script than {rel}'s {scripts[rel]} (the watched pages stand for "
        f"the others only while all load the same: watch each): "
        f"{ {page: found for page, found in scripts.items() if found != scripts[rel]} }")
    page, cdp = slow_tab
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    try:
        page.goto(visitor.base + rel, wait_until="load", timeout=60_000)
        page.wait_for_timeout(1000)
        seen, frames, shifts, formulas = page.evaluate(
            "() => { window.__texStop = true; return [window.__tex, window.__texFrames, window.__shifts, "
            "document.querySelectorAll('.katex').length]; }")
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    assert frames > 5, f"{rel}: only {frames} frames watched"
    assert formulas > 0, f"{rel}: no formula to watch (choose pages with math)"
    assert seen == [], f"{rel}: raw TeX on screen: {seen[:5]}"
    assert not [s for s in shifts if s["math"]], f"{rel}: formulas moved the layout: {shifts}"


# The budget of what a chapter page transfers on a first visit, before any scrolling (gzip).
FIRST_LOAD_LIMIT = 600 * 1024


@pytest.mark.parametrize("rel", CHAPTERS)
def test_chapter_page_first_load_is_light(visitor, rel):
    v = visitor.visit(rel)
    assert 0 < v.first_bytes <= FIRST_LOAD_LIMIT, f"{rel}: {v.first_bytes / 1024:.0f} KB transferred before scrolling"


@pytest.mark.parametrize("rel", PAGES)
def test_icons_are_drawn_without_an_icon_font_or_script(visitor, rel):
    """One icon set: the icons the pages use, as CSS masks (book/_ext/book_site.py); Font Awesome's 1.49 MB
    script and its icon fonts are never fetched. The search scripts and index load only on the search page."""
    d = visitor.visit(rel).dom
    assert d["fontawesome"] == [], f"{rel}: fetched {d['fontawesome']}"
    undrawn = [i for i in d["icons"] if not i["mask"].startswith("url(") or i["w"] < 4 or i["h"] < 4]
    assert not undrawn, f"{rel}: icons without a drawing: {undrawn[:5]}"
    if Path(rel).name == "search.html":
        assert len(d["search"]) == 3, f"{rel}: {d['search']}"
    else:
        assert d["search"] == [], f"{rel}: loads the search index: {d['search']}"


SEARCH_QUERIES = {"ko": "어텐션", "en": "attention"}
# Each search field shown (the header's dialog, the search page's own form): where its magnifying glass ends and
# where the query's text starts (the field's left edge, border and padding), and what the field holds.
SEARCH_FIELDS = """() => [...document.querySelectorAll('form.bd-search')].filter(f => f.checkVisibility()).map(f => {
  const icon = f.querySelector('.fa-magnifying-glass'), input = f.querySelector('input[name=q]');
  const i = icon.getBoundingClientRect(), r = input.getBoundingClientRect(), s = getComputedStyle(input);
  return {where: f.closest('dialog') ? 'dialog' : 'search page', value: input.value, width: innerWidth,
          icon: {left: Math.round(i.left), right: i.right, width: i.width},
          text: r.left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft)};
})"""


def search_fields_at(page, widths) -> list[dict]:
    """SEARCH_FIELDS at each width, the page laid out again at each."""
    found = []
    for width in widths:
        page.set_viewport_size({**PHONE, "width": width} if width == PHONE["width"] else DESKTOP)
        page.evaluate(SETTLED)
        found += page.evaluate(SEARCH_FIELDS)
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_search_still_finds_pages(visitor, lang):
    """The header's search field, on a chapter page that no longer loads the index, leads to the search page,
    which finds the chapters. In both search fields (the dialog, the search page's form), at a laptop's width
    and a phone's, the magnifying glass ends before the query's first letter (book.css)."""
    if not CHAPTERS or CHAPTERS[0].startswith("("):
        pytest.fail("no site")
    query = SEARCH_QUERIES[lang]
    page = visitor.tab()
    try:
        page.goto(visitor.base + next(r for r in CHAPTERS if r.startswith(f"{lang}/")), wait_until="load")
        page.keyboard.press("Control+k")
        page.wait_for_selector("#pst-search-dialog[open] input[name=q]", timeout=5_000)
        page.fill("#pst-search-dialog[open] input[name=q]", query)
        fields = search_fields_at(page, (DESKTOP["width"], PHONE["width"]))
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert "/search.html?q=" in page.url, page.url
        page.wait_for_selector("#search-results ul.search li", timeout=20_000)
        found = page.evaluate("() => document.querySelectorAll('#search-results ul.search li').length")
        fields += search_fields_at(page, (PHONE["width"], DESKTOP["width"]))
        # the queries of the tests below, asked in this visit of the search page (search_results)
        SEARCHED.setdefault(lang, {}).update(search_again(page, [q for q in SEARCHES[lang] if q not in SEARCHED[lang]]))
    finally:
        visitor.release(page)
    assert found >= 5, f"{lang}: {found} results for {query!r}"
    assert sorted((f["where"], f["width"]) for f in fields) == sorted(
        (where, width) for where in ("dialog", "search page") for width in (DESKTOP["width"], PHONE["width"])), fields
    for f in fields:
        assert f["value"] == query, f"{lang}: the {f['where']}'s field holds {f['value']!r}"
        assert f["icon"]["width"] >= 4 and f["icon"]["right"] <= f["text"] + 0.5, (
            f"{lang}, {f['where']} at {f['width']} px: the magnifying glass ({f['icon']}) reaches into the query, "
            f"which starts at {f['text']:.1f} px")


# A word and the pages that use it, whatever ending follows (Korean particles: 소프트맥스로, 소프트맥스는, ...;
# English: softmax's, softmaxes); the search page must list every one of them.
SEARCH_WORDS = {"ko": "소프트맥스", "en": "softmax"}


def pages_using(lang: str, word: str) -> set[str]:
    found = set()
    for page in sorted((SITE / lang).glob("*.html")):
        if page.name in ("search.html", "genindex.html"):
            continue
        text = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8").split('<article class="bd-article">', 1)[-1]
                      .split("</article>", 1)[0])
        if word.lower() in text.lower():
            found.add(page.name)
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_search_finds_a_word_whatever_follows_it(visitor, lang):
    """The Korean search language (book/_ext/book_search.py) strips particles when indexing and when searching:
    소프트맥스 finds every Korean page that writes 소프트맥스로 or 소프트맥스는; English search as before."""
    word = SEARCH_WORDS[lang]
    expected = pages_using(lang, word)
    assert len(expected) >= 5, f"{lang}: only {sorted(expected)} use {word!r}"
    found = search_results(visitor, lang, word)
    missing = expected - set(found)
    assert not missing, f"{lang}: searching {word!r} misses {sorted(missing)} (found {sorted(set(found))})"


# What the search page lists, per language and query: every query of a language is asked in one visit of its
# search page (a page load, with its index, per query took a tenth of this module's time).
SEARCHED: dict[str, dict[str, list[str]]] = {}
LISTED = ("() => { const s = document.querySelector('#search-results p.search-summary'); "
          "const n = s && s.textContent.match(/\\d+/); "
          "return n && document.querySelectorAll('#search-results ul.search li').length >= Number(n[0]); }")
PAGES_LISTED = ("() => [...document.querySelectorAll('#search-results ul.search li > a')]"
                ".map(a => new URL(a.href).pathname.split('/').pop())")


def search_results(visitor, lang: str, query: str) -> list[str]:
    """The pages the search page lists for a query, once it has listed them all."""
    if query not in SEARCHED.get(lang, {}):
        queries = [query] + [q for q in SEARCHES[lang] if q != query and q not in SEARCHED.get(lang, {})]
        SEARCHED.setdefault(lang, {}).update(run_searches(visitor, lang, queries))
    return SEARCHED[lang][query]


def run_searches(visitor, lang: str, queries: list[str]) -> dict[str, list[str]]:
    """The search page opened with the first query (?q=, as the search field sends it), then each other query
    searched again in that page (search_again). Sphinx shows the results one by one on a timer and names the
    number found in its summary only once all are listed: for each query, wait for a digit, then for that many
    list items."""
    page = visitor.tab()
    try:
        page.goto(f"{visitor.base}{lang}/search.html?q={quote(queries[0])}", wait_until="load")
        page.wait_for_function(LISTED, timeout=30_000)
        return {queries[0]: sorted(page.evaluate(PAGES_LISTED))} | search_again(page, queries[1:])
    finally:
        visitor.release(page)


def search_again(page, queries: list[str]) -> dict[str, list[str]]:
    """The pages a search page, which has listed its own query's results with their summaries as a reader sees
    them, lists for each other query: searched by the page's own code (Search.performSearch, what the page runs
    for ?q=) into an emptied result area, without the summaries (each result's page fetched and read for a line
    of text: 1.9 of the 2.1 CPU-s of the Korean queries; no test reads them, and the page's own query shows them)."""
    found = {}
    page.evaluate("() => { DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false; }")
    for query in queries:
        page.evaluate("(q) => { document.getElementById('search-results').replaceChildren(); "
                      "Search.performSearch(q); }", query)
        page.wait_for_function(LISTED, timeout=30_000)
        found[query] = sorted(page.evaluate(PAGES_LISTED))
    return found


# Words Korean readers bring from other books (book/glossary.yml's `elsewhere`), and the book's terms for them.
OTHER_BOOKS_WORDS = [("멀티 헤드 어텐션", "멀티헤드 어텐션"), ("코잘 마스크", "인과 마스크"), ("점곱", "내적")]
# every query this module gives the search page, per language (searched in one visit: run_searches)
SEARCHES = {lang: [SEARCH_WORDS[lang]] + [q for pair in OTHER_BOOKS_WORDS for q in pair] * (lang == "ko") for lang in LANGS}


@pytest.mark.parametrize("word, term", OTHER_BOOKS_WORDS)
def test_search_finds_the_books_term_by_other_books_words(visitor, word, term):
    """The Korean search page rewrites another book's word to the book's term before searching
    (book/_ext/book_search.py), so 점곱 lists the pages on 내적; the book itself never writes 점곱."""
    by_term = search_results(visitor, "ko", term)
    assert len(by_term) >= 2, f"searching {term!r} finds only {by_term}"
    assert search_results(visitor, "ko", word) == by_term, f"searching {word!r} does not find the pages of {term!r}"


@pytest.mark.parametrize("rel", CHAPTERS)
def test_figures_open_full_size(visitor, rel):
    """Every figure of a chapter (an image of _images/) is a link to the image itself, so a tap opens it full
    size; on the page it fits the column."""
    figures = [img for img in visitor.visit(rel).dom["images"] if img["content"] and "/_images/" in img["src"]]
    lang, name = Path(rel).parts
    nb = json.loads((ROOT / "notebooks" / lang / name.replace(".html", ".ipynb")).read_text(encoding="utf-8"))
    drawn = sum(1 for c in nb["cells"] for o in c.get("outputs", []) if "image/png" in o.get("data", {}))
    assert len(figures) >= drawn, f"{rel}: the notebook draws {drawn} figures, the page shows {len(figures)}"
    for img in figures:
        assert img["link"] == img["src"], f"{rel}: {img['attrSrc']} does not open full size (link {img['link']})"


GENERIC_ALT = {"image", "img", "figure", "fig", "picture", "graph", "chart", "plot", "output",
               "그림", "이미지", "사진", "그래프", "출력"}


def alt_problem(alt: str | None) -> str | None:
    """Why an alt text does not describe a figure, or None when it may."""
    if alt is None:
        return "no alt attribute"
    text = alt.strip()
    if not text:
        return 'alt="" (marks the image as decoration, e.g. MyST\'s ![](x.png))'
    if text.lower() in GENERIC_ALT:
        return f"generic alt {text!r}"
    if re.search(r"\.(png|jpe?g|gif|svg|webp)$", text, re.I) or text.startswith(("_images/", "data:", "http")):
        return "alt is the file name"
    if re.fullmatch(r"<.*>", text):  # e.g. "<Figure size 640x480 with 1 Axes>"
        return f"alt is an object's repr: {text!r}"
    return None


@pytest.mark.parametrize("rel", PAGES)
def test_every_figure_has_alt_text(visitor, rel):
    bad = [f"{img['attrSrc'][:60]}: {problem}" for img in visitor.visit(rel).dom["images"]
           if img["content"] and (problem := alt_problem(img["alt"]))]
    assert not bad, (f"{rel}: {len(bad)} figures without a description (a notebook figure takes its alt text "
                     "from its cell's metadata mystnb.image.alt; an explorer's figure too, see tools/site.py explorer_html): "
                     + "; ".join(bad))


@pytest.mark.parametrize("rel", PAGES)
def test_page_has_no_serious_accessibility_violation(visitor, rel):
    """axe-core's serious and critical rules over the whole page, every section laid out; an English chapter page
    leaves its code cells and their printed outputs to its Korean twin, where the same cells are read
    (tests/browser_site.py, SHARED_WITH_TWIN)."""
    violations = [f"{x['impact']} {x['id']} ({x['help']}): {x['count']}x, e.g. {x['nodes']}"
                  for x in visitor.visit(rel).serious_axe(AXE_ALLOWED)]
    assert not violations, f"{rel}: axe-core: " + "; ".join(violations)


@pytest.mark.parametrize("rel", PAGES)
def test_page_fits_a_phone_screen(visitor, rel):
    phone = visitor.visit(rel).phone
    assert phone["scrollWidth"] <= phone["width"], f"{rel}: {phone['scrollWidth']} px wide at {phone['width']} px"
    assert not phone["wide"], f"{rel}: content wider than the screen that does not scroll in its own box: {phone['wide']}"


@pytest.mark.parametrize("rel", PAGES)
def test_phone_tables_keep_identifiers_whole(visitor, rel):
    """At 390 px no identifier, number or Latin word of a table (rms_norm_eps, nn.MultiheadAttention) is split
    across two lines: a table keeps its code whole and scrolls sideways in its own box (book.css)."""
    tables = visitor.visit(rel).phone.get("tables")
    assert tables is not None, f"{rel}: the tables were not measured"
    assert tables["checked"] > 0 or tables["tables"] == 0, f"{rel}: {tables['tables']} tables, no word measured"
    assert tables["count"] == 0, f"{rel}: {tables['count']} words split across lines at 390 px, e.g. {tables['split']}"


# The smallest figure text a reader must make out on a 390 px phone, in CSS px.
MIN_FIGURE_TEXT_PX = 11


@pytest.mark.parametrize("rel", CHAPTERS)
def test_figures_are_legible_on_a_phone_and_open_full_size(visitor, rel):
    figures = visitor.visit(rel).phone.get("figures") or []
    lang, name = Path(rel).parts
    nb = json.loads((ROOT / "notebooks" / lang / name.replace(".html", ".ipynb")).read_text(encoding="utf-8"))
    drawn = sum(1 for c in nb["cells"] for o in c.get("outputs", []) if "image/svg+xml" in o.get("data", {}))
    assert figures or not drawn, f"{rel}: the notebook draws {drawn} figures, none was measured at phone width"
    raster = [f["src"] for f in figures if f["kind"] != "svg"]
    assert not raster, (f"{rel}: raster figures, whose text cannot be measured: {raster} (the set-up cell "
                        "makes matplotlib draw SVG: book/chapters/_setup.py)")
    small = [f"{f['src']} shown {f['shown']} px wide: {f['text']!r} is {f['min']} px" for f in figures
             if f["min"] is None or f["min"] < MIN_FIGURE_TEXT_PX]
    assert not small, (f"{rel}: figure text under {MIN_FIGURE_TEXT_PX} CSS px on a {PHONE['width']} px phone "
                       "(or a figure with no text): make the figure narrower or its text larger: " + "; ".join(small))
    # a notebook figure (a file; an explorer's figures are data: URIs) is a link to itself, to open full size
    unlinked = [f["src"] for f in figures if not f["src"].startswith("data:")
                and (f["link"] or "").rsplit("/", 1)[-1] != f["src"]]
    assert not unlinked, f"{rel}: figures that do not open full size (book/_ext/book_site.py): {unlinked}"


@pytest.mark.parametrize("rel", CHAPTERS)
def test_chapter_page_opens_its_own_notebook_in_colab(visitor, rel):
    lang, stem = Path(rel).parts[0], Path(rel).stem
    repo = urlsplit(CONFIG["repository"]["url"]).path.strip("/")
    notebook = f"notebooks/{lang}/{stem}.ipynb"
    expected = f"{CONFIG['launch_buttons']['colab_url']}/github/{repo}/blob/{CONFIG['repository']['branch']}/{notebook}"
    assert visitor.visit(rel).dom["colab"] == [expected], f"{rel}: Colab links"
    assert (ROOT / notebook).is_file()


# the notebook menu: its button, each notebook's name (student first), then each notebook's two items
NOTEBOOK_MENU = {"ko": ("노트북", ["학생용 노트북 (풀이 없음)", "전체 노트북 (풀이 포함)"], "내려받기 (.ipynb)", "Colab에서 열기"),
                 "en": ("Notebooks", ["Student notebook (no solutions)", "Full notebook (with solutions)"],
                        "Download (.ipynb)", "Open in Colab")}
# the menu's third item, the chapter as a PDF handout (tools/pdf.py; tests/test_site.py checks its link)
HANDOUT = {"ko": "이 장의 유인물 (PDF, 풀이 없음)", "en": "Chapter handout (PDF, no solutions)"}


@pytest.mark.parametrize("rel", PAGES)
def test_only_chapter_pages_offer_a_student_notebook(visitor, rel):
    menus = visitor.visit(rel).dom["notebooks"]
    if rel in CHAPTERS:
        assert len(menus) == 1, f"{rel}: {len(menus)} notebook menus"
    else:
        assert menus == [], f"{rel} is not a chapter, but has a notebook menu: {menus}"


@pytest.mark.parametrize("rel", CHAPTERS)
def test_chapter_page_offers_its_student_and_full_notebooks(visitor, rel):
    """The header's menu, in the page's language, names the student notebook (no solutions) and the full notebook
    (with them) and, for each, downloads student/<lang>/<stem>.ipynb or notebooks/<lang>/<stem>.ipynb as served
    by the site (the same bytes) or opens that file of the configured repository and branch in Colab; at phone
    width a click opens it inside the screen."""
    v = visitor.visit(rel)
    lang, stem = Path(rel).parts[0], Path(rel).stem
    (menu,) = v.dom["notebooks"]
    label, names, download_text, colab_text = NOTEBOOK_MENU[lang]
    assert menu["inHeader"] and menu["label"] == label and menu["names"] == [*names, HANDOUT[lang]], (
        f"{rel}: notebook menu {menu}")
    repo = urlsplit(CONFIG["repository"]["url"]).path.strip("/")
    for kind, folder, name in (("student", "student", names[0]), ("full", "notebooks", names[1])):
        source = ROOT / folder / lang / f"{stem}.ipynb"
        assert source.is_file(), f"{source.relative_to(ROOT)} is missing"
        download, colab = menu[kind]["download"], menu[kind]["colab"]
        assert download and download["text"] == download_text and download["name"] == f"{name}: {download_text}", \
            f"{rel}: {kind} download item {download}"
        assert download["href"].startswith(f"{visitor.base}{lang}/"), f"{rel}: {download['href']} is outside the site's {lang}/"
        with urllib.request.urlopen(download["href"], timeout=10) as response:  # the test's own server, 127.0.0.1
            assert response.read() == source.read_bytes(), f"{rel}: {download['href']} is not {source.relative_to(ROOT)}"
        expected = (f"{CONFIG['launch_buttons']['colab_url']}/github/{repo}/blob/{CONFIG['repository']['branch']}/"
                    f"{folder}/{lang}/{stem}.ipynb")
        assert colab == {"href": expected, "text": colab_text, "name": f"{name}: {colab_text}"}, f"{rel}: {kind} Colab item {colab}"

    phone = v.phone.get("student") or {}
    assert "error" not in phone, f"{rel}: the menu could not be opened at phone width: {phone.get('error')}"
    assert phone["expanded"] == "true" and phone["menu"]["shown"], f"{rel}: a click did not open the menu: {phone}"
    for part in ("toggle", "menu"):
        box = phone[part]
        assert 0 <= box["left"] and box["right"] <= phone["width"], f"{rel}: at {phone['width']} px the {part} is at {box}"


@pytest.mark.parametrize("rel", [r for r in PAGES if r not in ROOT_PAGES])
def test_phone_header_fits_and_names_the_notebooks(visitor, rel):
    """At 390 and 360 px the article header shows every item whole, none over another and none cut off at the
    screen's edge; a chapter's notebook menu shows its name in words, in the page's language."""
    for width, header in visitor.visit(rel).phone["header"].items():
        assert header is not None, f"{rel}: no article header"
        assert not header["outside"] and not header["overlaps"] and not header["scrolls"], f"{rel} at {width} px: {header}"
        assert header["room"] >= 0, f"{rel} at {width} px: the header's two ends overlap: {header}"
        if rel in CHAPTERS:
            label = NOTEBOOK_MENU[lang_of(rel)][0]
            assert label in [item["text"] for item in header["items"]], f"{rel} at {width} px: {header['items']}"


LICENCE = {"ko": "글과 그림: CC BY 4.0. 코드: MIT.", "en": "Text and figures: CC BY 4.0. Code: MIT."}


@pytest.mark.parametrize("rel", [r for r in PAGES if r not in ROOT_PAGES])
def test_page_footer_shows_the_licences(visitor, rel):
    licence = visitor.visit(rel).dom["licence"]
    assert licence and licence["shown"], f"{rel}: no licence in the footer"
    assert licence["text"] == LICENCE[lang_of(rel)], f"{rel}: {licence}"
    assert len(licence["links"]) == 2 and any("creativecommons.org/licenses/by/4.0" in h for h in licence["links"])


@pytest.mark.parametrize("rel", [r for r in PAGES if lang_of(r) == "ko" and Path(r).name not in ("genindex.html", "search.html")])
def test_korean_breaks_lines_between_words(visitor, rel):
    """Korean pages wrap between words (word-break: keep-all; overflow-wrap for a token longer than the line):
    at 360 px no Korean word of the article, headings and table cells included, is split across two lines."""
    korean = visitor.visit(rel).phone.get("korean")
    assert korean, f"{rel}: the Korean text was not measured"
    assert korean["wordBreak"] == "keep-all" and korean["overflowWrap"] == "break-word", f"{rel}: {korean}"
    assert korean["checked"] > 20, f"{rel}: only {korean['checked']} Korean words found"
    assert korean["count"] == 0, f"{rel}: {korean['count']} Korean words split across lines at 360 px, e.g. {korean['split']}"


LANDING_FACTS = """() => ({
  lang: document.documentElement.lang,
  shown: [...document.querySelectorAll('main > [lang]')].filter(e => e.checkVisibility()).map(e => e.lang),
  pressed: [...document.querySelectorAll('[data-set-lang]')].map(b => b.dataset.setLang + ':' + b.getAttribute('aria-pressed')),
  overflow: document.documentElement.scrollWidth - innerWidth,
  chapters: document.querySelectorAll('main > [lang]:not([hidden]) ol.chapters > li').length,
  figures: performance.getEntriesByType('resource').map(e => e.name.split('/').pop()).filter(n => /^landing-/.test(n)),
  stored: localStorage.getItem('book-lang'),
})"""


@pytest.mark.parametrize("lang", LANGS)
def test_landing_page_reads_well_and_remembers_the_language(visitor, lang):
    """The landing page in one language at a time: chosen with its button, kept after a reload (localStorage),
    nothing wider than the screen at 390 and 1280 px, no Korean word split across lines at 360 and 390 px, only
    the shown language's figure fetched. Screenshots (_build/screenshots/landing-*.png) for a person to look at."""
    if "index.html" not in PAGES:
        pytest.fail("no landing page in the site")
    page = visitor.tab()
    try:
        page.set_viewport_size(PHONE)
        page.goto(visitor.base + "index.html", wait_until="load")
        page.click(f"button[data-set-lang={lang}]")
        page.reload(wait_until="load")
        page.evaluate("async () => { await document.fonts.ready; }")
        for width in (1280, 390, 360):
            page.set_viewport_size({"width": width, "height": 844})
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            facts = page.evaluate(LANDING_FACTS)
            assert (facts["lang"], facts["shown"], facts["stored"]) == (lang, [lang], lang), f"at {width} px: {facts}"
            assert facts["pressed"] == [f"{x}:{str(x == lang).lower()}" for x in LANGS], facts
            assert facts["overflow"] <= 0, f"{lang} at {width} px: {facts['overflow']} px wider than the screen"
            if lang == "ko":
                korean = page.evaluate(KOREAN_BREAKS, {"root": "main", "skip": "script, style, code", "visibleOnly": True})
                assert korean["checked"] > 100 and korean["split"] == [], f"at {width} px: words split {korean['split'][:10]}"
            if width != 360:
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"landing-{lang}-{width}.png"), full_page=True, animations="disabled")
        page.evaluate("() => document.querySelector('main > [lang]:not([hidden]) figure').scrollIntoView()")
        page.wait_for_function("() => [...document.images].filter(i => i.checkVisibility()).every(i => i.complete && i.naturalWidth > 0)")
        assert page.evaluate(LANDING_FACTS)["figures"] == [f"landing-{lang}.svg"]
    finally:
        visitor.release(page)


# A section reached by scrolling to it on a Korean page, and one reached by its anchor on an English page: the
# script that keeps the section (book/_ext/book_site.py) is the same in both languages and reads the section's id,
# which both languages share (test_twin_pages_share_their_anchors); each way of reaching a section once, each
# language once (both ways on both pages: twice the page loads, for the same script and ids).
TWIN_SECTION = [("ko/05_scaled_dot_product.html", "ch05-masks", "scrolled"),
                ("en/03_split_vs_chunk.html", "ch03-exercises", "anchor")]


@pytest.mark.parametrize("rel, section, how", TWIN_SECTION)
def test_twin_link_keeps_the_section(visitor, rel, section, how):
    """Following the link to the other language from a section (reached by its anchor, or by scrolling to it)
    opens the twin page at the same section."""
    if rel not in PAGES:
        pytest.fail(f"{rel} is not in the site; update TWIN_SECTION")
    page = visitor.tab()
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        if how == "anchor":
            page.goto(f"{visitor.base}{rel}#{section}", wait_until="load")
        else:
            page.goto(f"{visitor.base}{rel}", wait_until="load")
            # once the page's layout is final (fonts), the section's heading just under the sticky header,
            # where a reader's scrolling brings it
            page.evaluate("async () => { await document.fonts.ready; }")
            page.evaluate("(id) => { const e = document.getElementById(id); "
                          "const h = e.matches('section') ? e.querySelector('h1, h2, h3, h4') : e.nextElementSibling; "
                          "const top = document.querySelector('.bd-header-article').getBoundingClientRect().bottom + 12; "
                          "window.scrollTo({top: h.getBoundingClientRect().top + scrollY - top, behavior: 'instant'}); }", section)
            page.wait_for_timeout(200)
        # a tap where the link shows (Playwright's page.click would first scroll the sticky header's link
        # "into view", moving the page up by half a screen)
        box = page.locator("a.twin-link").bounding_box()
        with page.expect_navigation():
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        other = next(x for x in LANGS if x != lang_of(rel))
        assert page.url == f"{visitor.base}{other}/{Path(rel).name}#{section}", page.url
        assert page.evaluate("(id) => !!document.getElementById(id)", section)
    finally:
        visitor.release(page)


SCROLLABLE_BLOCKS = """() => {
  const blocks = ['pre', '.nboutput > .output_area', '.cell_output > .output', '.jp-RenderedHTMLCommon',
                  '.pst-scrollable-table-container'].join(', ');
  const sections = [...document.querySelectorAll('article.bd-article > section > section')];
  return {
    laidOut: sections.filter(s => s.firstElementChild.checkVisibility({contentVisibilityAuto: true})).length,
    sections: sections.length,
    blocks: [...document.querySelectorAll(blocks)].map(e => {
      const s = e.closest('article.bd-article > section > section');
      const skipped = !!s && !s.firstElementChild.checkVisibility({contentVisibilityAuto: true});
      // measured here only where the page is laid out (measuring forces layout)
      return {tab: e.tabIndex, skipped, scrolls: skipped ? null : e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight};
    }),
  };
}"""


@pytest.mark.parametrize("rel", ["ko/07_cost.html", "en/06_multi_head_attention.html"])
def test_sections_are_laid_out_as_they_near_and_every_scrolling_block_takes_the_keyboard(visitor, rel):
    """At 390 px a chapter page lays out only the sections near the screen (book.css, content-visibility); a
    code block or output that scrolls sideways is focusable (tabIndex 0), so a keyboard can scroll it, one that
    does not is not (-1): measured per section as the page lays it out (book_site.py's SCROLLABLE_FOCUS, which
    replaces the theme's measuring of the whole page at load); a block not laid out yet counts as scrollable."""
    if rel not in PAGES:
        pytest.fail(f"{rel} is not in the site")
    page = visitor.tab()
    try:
        page.set_viewport_size(PHONE)
        page.goto(f"{visitor.base}{rel}", wait_until="load")
        page.wait_for_timeout(400)  # the measuring waits for the page's load; changes are measured 300 ms later
        first = page.evaluate(SCROLLABLE_BLOCKS)
        assert 0 < first["laidOut"] < first["sections"] / 2, f"{rel}: {first['laidOut']} of {first['sections']} sections laid out at load"
        waiting = [b for b in first["blocks"] if b["skipped"]]
        assert waiting and all(b["tab"] == 0 for b in waiting), f"{rel}: a block below the screen the keyboard skips"
        # a reader scrolls through the page, a screen at a time
        page.evaluate("async () => { while (innerHeight + scrollY < document.documentElement.scrollHeight - 2) {"
                      " scrollBy(0, innerHeight); await new Promise(r => requestAnimationFrame(() => setTimeout(r, 30))); } }")
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(400)
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # every section laid out once
        page.evaluate("() => document.querySelectorAll('article.bd-article > section > section').forEach(s => "
                      "s.style.contentVisibility = 'visible')")  # to measure every block here
        page.wait_for_timeout(100)
        last = page.evaluate(SCROLLABLE_BLOCKS)
        wrong = [b for b in last["blocks"] if b["tab"] != (0 if b["scrolls"] else -1)]
        assert not wrong, f"{rel}: {len(wrong)} blocks whose tabIndex does not say whether they scroll: {wrong[:3]}"
        scrolls = sum(b["scrolls"] for b in last["blocks"])
        assert 0 < scrolls < len(last["blocks"]), f"{rel}: {scrolls} of {len(last['blocks'])} blocks scroll"
    finally:
        visitor.release(page)


@pytest.mark.parametrize("rel", sorted(SCREENSHOT_PAGES) or ["(no chapter page)"])
def test_phone_screenshot_of_a_chapter(visitor, rel):
    """Screenshots at 390 px of the page's top, its first wide code block and its first table, for a person
    to look at (_build/screenshots/); the code and the table must scroll inside their own boxes."""
    v = visitor.visit(rel)
    assert v.screenshots and all(Path(p).is_file() for p in v.screenshots)
    assert v.phone["scrolling"] > 0, f"{rel}: nothing scrolls sideways at 390 px (no wide code to test with?)"


BROKEN_PAGE = """<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>broken on purpose</title>
<script src="https://cdn.invalid/lib.js"></script><script src="/outside.js"></script></head>
<body><main><article class="bd-article">
<img src="missing.png" alt="a figure that is not there"><img src="dot.svg" alt=""><img src="dot.svg">
<pre style="width: 900px">wider than a phone</pre>
<script>console.error("boom")</script>
</article></main></body></html>
"""


# An English chapter page whose Korean twin is checked: axe-core skips the code cells they share, nothing else.
TWIN_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>a twin</title></head>
<body><main><article class="bd-article">
<div class="cell_input"><img src="dot.svg"></div><p><img src="dot.svg"></p>
<div class="cell"><div class="cell_input"><img src="dot.svg"></div>
<div class="cell_output"><div class="output stream"><img src="dot.svg"></div></div></div>
<div class="cell"><div class="cell_input"><img src="dot.svg"></div>
<div class="cell_output"><div class="output text_html"><img src="dot.svg"></div></div></div>
</article></main></body></html>
"""


def test_the_checks_catch_what_they_look_for(visitor, tmp_path):
    """A page broken on purpose, in the same browser: every kind of fault the tests look for is seen; on a page
    whose code cells its twin's visit reads (SHARED_WITH_TWIN), the same faults outside them."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "broken.html").write_text(BROKEN_PAGE, encoding="utf-8")
    (tmp_path / "site" / "twin.html").write_text(TWIN_PAGE, encoding="utf-8")
    (tmp_path / "site" / "dot.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>')
    server = SiteServer(tmp_path)
    checker = Visitor(visitor.browser, f"{server.base}site/", AXE, tmp_path, set(), twins={"twin.html"})
    try:
        checker.visit_all(["broken.html", "twin.html"])
        v, twin = checker.visit("broken.html"), checker.visit("twin.html")
    finally:
        checker.close()
        server.close()
    assert v.third_party == ["https://cdn.invalid/lib.js"]
    assert v.outside_site == [f"{server.base}outside.js"]
    assert any("boom" in e for e in v.console_errors)
    assert any("missing.png" in r and "404" in r for r in v.failed_requests)
    assert [img["loaded"] for img in v.dom["images"]] == [False, True, True]
    assert [alt_problem(img["alt"]) is None for img in v.dom["images"]] == [True, False, False]
    # axe flags the image without alt, and takes alt="" for decoration: hence the alt test of our own
    assert [x["count"] for x in v.serious_axe({}) if x["id"] == "image-alt"] == [1]
    assert v.dom["lang"] == "ko" and not v.dom["icon"] and v.phone["scrollWidth"] > v.phone["width"]
    # outside the shared parts: the paragraph's image and the HTML output's (a cell that holds one is skipped part by
    # part; a cell made only of shared parts, as one)
    assert [x["count"] for x in twin.serious_axe({}) if x["id"] == "image-alt"] == [2], twin.axe


# ---- links and anchors of the whole site, read from the HTML files (no browser needed) -------------

class _Anchors(HTMLParser):
    """A page's ids, its links, and each heading's anchors: Sphinx gives a section one id and puts the
    others (labels, or ids like `id1`) on <span>s between <section> and its heading."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.headings: list[list[str]] = []
        self.links: list[str] = []
        self.downloads: list[str] = []  # links with a download attribute (among `links`)
        self._open = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if a.get(key):
                self.ids.add(a[key])
        if tag == "section" and a.get("id"):
            self.headings.append([a["id"]])
            self._open = True
        elif tag == "span" and a.get("id") and self._open:
            self.headings[-1].append(a["id"])
        elif re.fullmatch(r"h[1-6]", tag):
            self._open = False
        if tag in ("a", "area") and a.get("href") is not None:
            self.links.append(a["href"])
            if "download" in a:  # e.g. a chapter's student notebook
                self.downloads.append(a["href"])


@cache
def anchors(path: Path) -> _Anchors:
    parser = _Anchors()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


LINK_STATS: dict[str, int] = {}


def test_internal_links_and_anchors_resolve():
    if not (SITE / "index.html").is_file():
        pytest.fail("no site in _build/html: run 'make book' (make test builds it before the tests)")
    broken, links, fragments, downloads = [], 0, 0, 0
    for rel in site_pages():
        page = SITE / rel
        for href in anchors(page).links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith("#") and len(href) == 1:
                continue  # external (test_site.py keeps resources local), or the theme's href="#"
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            links += 1
            if not target.is_file() or SITE.resolve() not in target.parents:
                broken.append(f"{rel}: {href} (no such file)")
                continue
            downloads += href in anchors(page).downloads
            if parts.fragment and target.suffix == ".html":
                fragments += 1
                if unquote(parts.fragment) not in anchors(target).ids:
                    broken.append(f"{rel}: {href} (no id {unquote(parts.fragment)!r} in {target.relative_to(SITE.resolve())})")
    LINK_STATS.update(pages=len(site_pages()), links=links, fragments=fragments, downloads=downloads, broken=len(broken))
    assert not broken, f"{len(broken)} broken internal links: " + "; ".join(broken[:20])
    # every chapter page's student and full notebooks and its PDF handout are among the links checked
    assert downloads == 3 * len(CHAPTERS), f"{downloads} downloads checked, for {len(CHAPTERS)} chapter pages"


@pytest.mark.parametrize("name", sorted({Path(rel).name for rel in site_pages() if len(Path(rel).parts) == 2}))
def test_twin_pages_share_their_anchors(name):
    """Every heading has an anchor that its twin heading in the other language has too: its explicit
    label. Without one, a Korean heading gets an anchor like `id1` (or a slug of the ASCII words in it),
    which the English page does not have and which changes whenever the headings do."""
    pages = {lang: SITE / lang / name for lang in LANGS}
    assert all(page.is_file() for page in pages.values()), f"{name} is not built in every language"
    for lang, other in (("ko", "en"), ("en", "ko")):
        theirs = {i for group in anchors(pages[other]).headings for i in group}
        alone = [group for group in anchors(pages[lang]).headings
                 if not any(i in theirs and not re.fullmatch(r"id\d+", i) for i in group)]
        assert alone == [], (f"{lang}/{name}: headings with no anchor shared with {other}/{name} "
                             f"(give each an explicit (label)=, the same in both languages): {alone}")


# ---- the report printed in the summary of `make test` (tests/conftest.py) ---------------------------

def _write_report(visitor: Visitor) -> None:
    visits = [v for v in visitor.visits.values() if not isinstance(v, BaseException)]
    if not visits:
        return
    serious = sum(x["count"] for v in visits for x in v.axe if x["impact"] in ("serious", "critical"))
    minor = sum(x["count"] for v in visits for x in v.axe if x["impact"] not in ("serious", "critical"))
    warnings = Counter(w for v in visits for w in v.console_warnings)
    lines = [
        f"browser: {len(visits)} pages checked in Chromium {visitor.version} ({visitor.seconds:.0f} s): "
        f"{sum(len(v.console_errors) for v in visits)} console errors, "
        f"{sum(len(v.failed_requests) for v in visits)} failed requests, "
        f"{sum(len(v.third_party) for v in visits)} requests beyond 127.0.0.1 (blocked), "
        f"{sum(len(v.outside_site) for v in visits)} outside the site's folder, "
        f"{serious} serious/critical axe violations ({minor} moderate/minor), "
        f"{sum(warnings.values())} console warnings",
    ]
    if len(visitor.visits) > len(visits):
        lines.append(f"  {len(visitor.visits) - len(visits)} pages could not be checked")
    for text, count in warnings.most_common(5):
        reason = next((why for known, why in KNOWN_WARNINGS.items() if known in text), "unexplained")
        lines.append(f"  warning x{count}: {text[:100]} -- {reason}")
    if visitor.twins:
        lines.append(f"  axe-core read the code cells of {len(visitor.twins)} English chapter pages on their Korean twins "
                     "(tests/browser_site.py, SHARED_WITH_TWIN)")
    axe_ids = Counter(x["id"] for v in visits for x in v.axe)
    if axe_ids:
        lines.append("  axe rules violated: " + ", ".join(f"{k} ({n} pages)" for k, n in axe_ids.most_common()))
    explorers = [(v.rel, e) for v in sorted(visits, key=lambda v: v.rel) for e in v.explorers]
    if explorers:
        ms = sorted(e["response_ms"] for _, e in explorers)
        lines.append(f"explorers: {len(explorers)} operated, {sum(len(e['actions']) for _, e in explorers)} control actions "
                     f"(mouse and keyboard); response to a control change (to the new figure decoded), median of {RESPONSES} "
                     f"per explorer: median {ms[len(ms) // 2]:.1f} ms, slowest {ms[-1]:.1f} ms")
        for v in sorted(visits, key=lambda v: v.rel):
            sizes = [(r[0].rsplit("/", 1)[-1], r[1]) for r in v.resources if "/_explorers/" in r[0]]
            lines += [f"  {v.rel:<44} {name:<48} {size / 1e3:6.1f} kB gzip" for name, size in sizes]
    chapters = sorted((v for v in visits if v.rel in CHAPTERS), key=lambda v: -v.bytes)
    if chapters:
        lines.append("page weight of each chapter page (bytes a first visit transfers, gzip as on GitHub Pages; "
                     "uncompressed), then what its explorers fetch when scrolled to:")
        lines += [f"  {v.rel:<44} {v.bytes / 1e6:5.2f} MB ({v.raw_bytes / 1e6:5.2f} MB) in {v.requests} requests; "
                  f"explorers {sum(r[1] for r in v.resources if EXPLORER_FILES.search(r[0])) / 1e3:.1f} kB"
                  for v in sorted(chapters, key=lambda v: v.rel)]
        lines.append("first load before scrolling (KB gzip): " + ", ".join(f"{v.rel} {v.first_bytes / 1024:.0f}"
                                                                          for v in sorted(chapters, key=lambda v: v.rel)))
        lines.append(f"  heaviest: {chapters[0].rel}, {chapters[0].bytes:,} bytes transferred ({chapters[0].raw_bytes:,} uncompressed)")
        lines.append(f"figure text at {PHONE['width']} px (smallest font of any figure shown, CSS px; at least {MIN_FIGURE_TEXT_PX}):")
        for v in sorted(chapters, key=lambda v: v.rel):
            figures = [f for f in v.phone.get("figures", []) if f["min"] is not None]
            if figures:
                low = min(figures, key=lambda f: f["min"])
                lines.append(f"  {v.rel:<44} {len(figures)} figures, smallest {low['min']} px ({low['text']!r} in {low['src'][:40]})")
    if LINK_STATS:
        lines.append(f"links: {LINK_STATS['links']} internal links ({LINK_STATS['fragments']} with an anchor, "
                     f"{LINK_STATS['downloads']} downloads) on "
                     f"{LINK_STATS['pages']} pages, {LINK_STATS['broken']} broken")
    shots = [p for v in visits for p in v.screenshots]
    if shots:
        lines.append(f"screenshots at 390 px: {', '.join(str(Path(p).relative_to(ROOT)) for p in shots)}")
    REPORT.write_text("\n".join(lines) + "\n", encoding="utf-8")



@pytest.mark.parametrize("rel", CHAPTERS)
def test_solutions_stay_folded_until_opened(visitor, rel):
    """Instructors assign these exercises: on the site each solution (its code, the check's "correct!" and the
    explanation) is folded in one box after the learner's starting cell, and one labelled click opens it.
    Read in the page's one visit (tests/browser_site.py, SOLUTIONS), every section laid out as when the reader
    has reached it, and the click made last, at 360 px."""
    lang = lang_of(rel)
    solutions = visitor.visit(rel).solutions
    assert "error" not in solutions, f"{rel}: the solutions could not be read or opened: {solutions.get('error')}"
    boxes = solutions["before"]
    assert len(boxes) >= 3, f"{rel}: {len(boxes)} solution boxes"
    word = {"ko": "풀이", "en": "Solution"}[lang]
    for box in boxes:
        assert box["dropdown"] and not box["bodyShown"], f"{rel}: solution {box['id']} is visible before it is opened"
        assert box["code"] >= 2, f"{rel}: solution {box['id']} holds {box['code']} code cells (solution and check)"
        assert word in box["title"], f"{rel}: solution box titled {box['title']!r}"
        assert "cell" in box["before"], f"{rel}: the learner's starting cell is not shown before {box['id']}"
    assert solutions["verdicts before"] == 0, f"{rel}: a check's verdict is visible before any solution is opened"
    assert solutions["after"][0]["bodyShown"], f"{rel}: one tap on the title's link did not open the solution"
    assert solutions["moved to"] is None, f"{rel}: a tap on the solution's title left the page for {solutions['moved to']}"
    assert solutions["verdicts after"] == 1, f"{rel}: the opened solution does not show its check's verdict"
