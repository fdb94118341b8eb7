"""The book's changes to what sphinx-book-theme puts on a page.

- Header buttons: a chapter's notebooks are offered by one menu that names them (student notebook, without
  solutions; full notebook, with them: book/_templates/notebooks-menu.html). The theme's launch button (a rocket
  whose only item is "Colab", for the full notebook) and its download item for the page's source (".ipynb", the
  same notebook) said neither, so they go on the pages that have that menu.
- The link to the same page in the other language (book/_templates/twin-link.html) keeps the reader's place:
  when followed, it carries the section in view as its anchor (both languages give a section the same id).
- Icons: the theme loads Font Awesome's whole SVG-with-JS bundle (fontawesome.js, 1.49 MB, 530 KB gzipped) on
  every page, and its icon fonts as well. The site drops that script and writes _static/icons.css: each icon
  the built pages name (and the one the theme's script adds, fa-xmark) as a CSS mask drawn from Font Awesome's
  own outline, taken from that same fontawesome.js at build time, so the icons stay the theme's.
- Figures: each image of a page links to itself, so that a tap opens it full size (book.css sizes it to the
  column; the link shows a zoom cursor).
- Scrollable blocks: the theme's measuring of which code blocks and outputs scroll (to make those focusable)
  is done per section, as the page lays each out (SCROLLABLE_FOCUS), not for the whole page at load.
- Search: the theme loads searchtools.js, language_data.js and the whole searchindex.js in every page's head
  (render-blocking) for an inline search that is off. Only the search page loads them now; the search field
  of every page still opens the search page with the query.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

# Runs in <head>, before the page exists: it only listens. When the twin link is about to be followed
# (pointer down, focus for the keyboard, click), its href gets the anchor of the reader's section: the URL's
# own anchor if it names an element in view, or else the last section whose heading has reached the top of
# the screen (just under the sticky header) or gone above it.
TWIN_ANCHOR = """(() => {
  const place = () => {
    const top = document.querySelector('.bd-header-article');
    const limit = (top ? top.getBoundingClientRect().bottom : 0) + 8;
    const named = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (named) { const r = named.getBoundingClientRect(); if (r.bottom > limit && r.top < innerHeight) return named.id; }
    let id = '';
    for (const s of document.querySelectorAll('article.bd-article section[id]')) {
      const h = s.querySelector(':scope > h1, :scope > h2, :scope > h3, :scope > h4');
      if (!h) continue;
      if (h.getBoundingClientRect().top > limit + 48) break;
      // a heading's explicit label, the anchor both languages share: Sphinx puts it on the section, or (when
      // it made the section's id from the heading's words) on a <span> before the heading; ids like "id3" are
      // Sphinx's own
      const labels = [...s.querySelectorAll(':scope > span[id]')].map(e => e.id).filter(i => !/^id[0-9]+$/.test(i));
      id = labels[0] || s.id;
    }
    return id;
  };
  const update = e => {
    const a = e.target.closest && e.target.closest('a.twin-link');
    if (!a) return;
    const id = place();
    a.href = a.href.split('#')[0] + (id ? '#' + encodeURIComponent(id) : '');
  };
  for (const type of ['pointerdown', 'focusin', 'click']) document.addEventListener(type, update, true);
})();"""


# A solution's title is its toggle (sphinx-togglebutton makes the whole title clickable), but sphinx-exercise puts
# a link to the exercise in it ("Solution to Exercise 13"), which at phone width is most of the title, and the
# toggle's click handler knows only the title itself, its button and the button's icon: a tap on the link went
# to the exercise (just above) and threw "button is not defined", and a tap on any other element of the title
# opened nothing. Here a click anywhere on a toggle's title opens or closes it, the link's words included.
SOLUTION_TITLE = """document.addEventListener('click', (e) => {
  const title = e.target.closest ? e.target.closest('.admonition-title') : null;
  const button = title && title.querySelector('button.toggle-button');
  if (!button || e.target === title || e.target.closest('button.toggle-button')) return;
  e.preventDefault();
  e.stopPropagation();
  button.click();
}, true);"""


# The theme makes each code block, output and table that scrolls focusable (tabIndex 0), so that a keyboard can
# scroll it, and the others not (-1). It measured every one of them once the page had loaded, and again after any
# change to the page: on a chapter page that lays out the whole page at once, sections below the screen included
# (which book.css lets the browser leave for later: content-visibility: auto), a quarter of a second of main
# thread on a laptop (Lighthouse, ko/07 with the CPU busy: blocking time 150 ms -> 25 ms without it). This does
# the same work per section: a block is measured when its section is laid out (on screen or near it), and
# again on a resize or a change of the page, only where the page is laid out. Until then a block below counts as
# scrollable (tabIndex 0): the keyboard never skips one that scrolls; Tab onto it lays its section out, which
# corrects it. The theme's own call is taken out of its script (patch_theme_script below).
SCROLLABLE_FOCUS = """(() => {
  const blocks = ['pre', '.nboutput > .output_area', '.cell_output > .output', '.jp-RenderedHTMLCommon',
                  '.pst-scrollable-table-container'].join(', ');
  const lazy = 'article.bd-article > section > section';
  const measure = e => {
    e.tabIndex = e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight ? 0 : -1;
    e.dataset.bookMeasured = '';
  };
  // whether the browser has laid out the section's contents (a section with content-visibility: auto is itself
  // always laid out: its children say whether their layout is being skipped)
  const laidOut = s => !s.firstElementChild || s.firstElementChild.checkVisibility({contentVisibilityAuto: true});
  const update = () => {
    for (const e of document.querySelectorAll(blocks)) {
      const s = e.closest(lazy);
      if (!s || laidOut(s)) measure(e); else if (!e.hasAttribute('data-book-measured')) e.tabIndex = 0;
    }
  };
  let timer = null;
  const later = () => { clearTimeout(timer); timer = setTimeout(update, 300); };
  const start = () => {
    for (const s of document.querySelectorAll(lazy)) {
      s.addEventListener('contentvisibilityautostatechange', ev => {
        if (!ev.skipped) s.querySelectorAll(blocks).forEach(measure);
      });
    }
    update();
    addEventListener('resize', later);
    const main = document.getElementById('main-content');
    if (main) new MutationObserver(later).observe(main, {subtree: true, childList: true});
  };
  if (document.readyState === 'complete') start(); else addEventListener('load', start);
})();"""

# the theme's call of its own measuring function, in pydata-sphinx-theme 0.17.1's built script
THEME_SCROLLABLE_CALL = '"complete"===document.readyState?I():window.addEventListener("load",I)'
THEME_SCRIPT = Path("_static") / "scripts" / "pydata-sphinx-theme.js"


def patch_theme_script(text: str) -> str:
    """The theme's script without its own measuring of scrollable blocks (SCROLLABLE_FOCUS does it)."""
    if THEME_SCROLLABLE_CALL not in text:
        if "book_site: SCROLLABLE_FOCUS" in text:  # patched by an earlier build
            return text
        raise RuntimeError(f"{THEME_SCRIPT}: the call {THEME_SCROLLABLE_CALL!r} is not in this version of "
                           "pydata-sphinx-theme; update THEME_SCROLLABLE_CALL in book/_ext/book_site.py "
                           "(SCROLLABLE_FOCUS replaces what that call did)")
    return text.replace(THEME_SCROLLABLE_CALL, "void I/* book_site: SCROLLABLE_FOCUS */")


def _patch_theme_script(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    path = Path(app.outdir) / THEME_SCRIPT
    text = path.read_text(encoding="utf-8")
    patched = patch_theme_script(text)
    if patched != text:
        path.write_text(patched, encoding="utf-8")


def _header_buttons(app, pagename, templatename, context, doctree) -> None:
    if pagename not in (context.get("chapter_notebooks") or {}):
        return
    kept = []
    for button in context.get("header_buttons") or []:
        if button.get("label") == "launch-buttons":
            continue
        if button.get("label") == "download-buttons":
            button = {**button, "buttons": [b for b in button["buttons"]
                                            if b.get("label") not in ("download-source-button", "download-notebook-button")]}
        kept.append(button)
    context["header_buttons"] = kept


SEARCH_SCRIPTS = re.compile(r'\s*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)"></script>')
FONTAWESOME_SCRIPT = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
ICONS_CSS = "icons.css"
# Icons that the theme's own scripts add to a page after it loads (pydata-sphinx-theme.js: the close button
# of the search dialog).
ICONS_ADDED_BY_SCRIPTS = {"xmark"}
# The theme and sphinx-exercise draw an admonition's title icon as a Font Awesome glyph in ::after (one more
# reason the icon font loaded): the same icons as masks, by admonition class ("" for any other admonition).
ADMONITION_ICONS = {"": "bell", "exercise": "pencil", "solution": "pencil", "note": "circle-info",
                    "hint": "lightbulb", "tip": "lightbulb", "attention": "circle-exclamation",
                    "important": "circle-exclamation", "caution": "triangle-exclamation",
                    "warning": "triangle-exclamation", "danger": "triangle-exclamation", "error": "circle-xmark",
                    "seealso": "share", "todo": "pencil"}
# Font Awesome's definitions in fontawesome.js: name: [width, height, [aliases], "unicode", "path"]
ICON_DEF = re.compile(r'(?:"([a-z0-9-]+)"|\b([a-z0-9]+)):\[(\d+),(\d+),\[[^\]]*\],"[0-9a-f]+","([^"]*)"\]')


def strip_assets(html: str, pagename: str = "") -> str:
    """A template filter for layout.html: the head without fontawesome.js, and without the search scripts
    except on the search page."""
    html = FONTAWESOME_SCRIPT.sub("", html)
    return html if pagename == "search" else SEARCH_SCRIPTS.sub("", html)


def _filters(app) -> None:
    if hasattr(app.builder, "templates"):
        app.builder.templates.environment.filters["book_strip_assets"] = strip_assets


def font_awesome_icons(script: Path) -> dict[str, dict[str, tuple[int, int, str]]]:
    """Font Awesome's icons in the theme's fontawesome.js: {"brands"|"regular"|"solid": {name: (w, h, path)}}.
    The bundle holds three packs one after the other; brands is the one with github, solid the largest."""
    text = script.read_text(encoding="utf-8")
    blocks: list[dict] = []
    last = None
    for m in ICON_DEF.finditer(text):
        if last is None or m.start() - last > 500:
            blocks.append({})
        blocks[-1][m.group(1) or m.group(2)] = (int(m.group(3)), int(m.group(4)), m.group(5))
        last = m.end()
    if len(blocks) != 3 or not any("github" in b for b in blocks):
        raise RuntimeError(f"book_site: {script} is not laid out as Font Awesome 6's bundle (three packs); "
                           "update font_awesome_icons() for this version of pydata-sphinx-theme")
    brands = next(b for b in blocks if "github" in b)
    solid = max((b for b in blocks if b is not brands), key=len)
    regular = next(b for b in blocks if b is not brands and b is not solid)
    return {"brands": brands, "regular": regular, "solid": solid}


def icons_css(names: set[str], icons: dict) -> str:
    rules, unknown = [], []
    for name in sorted(names):
        found = icons["solid"].get(name) or icons["brands"].get(name)
        if found is None:
            unknown.append(name)
            continue
        width, height, path = found
        svg = f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}'><path d='{path}'/></svg>"
        rules.append(f'.fa-{name}{{--book-icon:url("data:image/svg+xml,{quote(svg, safe=" =/:,.-")}");'
                     f"width:{width / height:.4f}em}}")
    selector = ",".join(f".fa-{name}" for name in sorted(names) if name not in unknown)
    return ("/* Written by book/_ext/book_site.py: the Font Awesome icons the pages use, as CSS masks (no icon "
            "font, no script). Font Awesome Free by @fontawesome, https://fontawesome.com, icons CC BY 4.0. */\n"
            f"{selector}{{display:inline-block;height:1em;vertical-align:-.125em;background-color:currentColor;"
            "-webkit-mask:var(--book-icon) center/contain no-repeat;mask:var(--book-icon) center/contain no-repeat;"
            "font-family:inherit!important}\n"
            f"{selector.replace(',', '::before,')}::before{{content:none!important}}\n" + "\n".join(rules) + "\n"
            + admonition_css(icons))


def admonition_css(icons: dict) -> str:
    def mask(name: str) -> str:
        width, height, path = icons["solid"][name]
        svg = f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}'><path d='{path}'/></svg>"
        return f'url("data:image/svg+xml,{quote(svg, safe=" =/:,.-")}")'
    title = ".admonition{}>.admonition-title::after,div.admonition{}>.admonition-title::after"
    css = [title.format("", "") + "{font:inherit!important;content:''!important;background-color:currentColor;"
           "-webkit-mask:var(--book-icon) center/contain no-repeat;mask:var(--book-icon) center/contain no-repeat}"]
    for kind, name in ADMONITION_ICONS.items():
        cls = f".{kind}" if kind else ""
        css.append(title.format(cls, cls) + f"{{--book-icon:{mask(name)}}}")
    return "\n".join(css) + "\n"


def _write_icons(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    names = set(ICONS_ADDED_BY_SCRIPTS)
    for page in out.rglob("*.html"):
        for classes in re.findall(r'class="([^"]*\bfa-[^"]*)"', page.read_text(encoding="utf-8")):
            names |= {c.removeprefix("fa-") for c in classes.split() if c.startswith("fa-")}
    import pydata_sphinx_theme
    script = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static" / "scripts" / "fontawesome.js"
    css = icons_css(names, font_awesome_icons(script))
    (out / "_static" / ICONS_CSS).write_text(css, encoding="utf-8")
    for name in ("fontawesome.js", "fontawesome.js.map", "fontawesome.js.LICENSE.txt"):  # served by nobody now
        (out / "_static" / "scripts" / name).unlink(missing_ok=True)


FIGURE = re.compile(r'<img [^>]*src="(_images/[^"]+)"[^>]*>')
FIGURE_LINK = re.compile(r'<a class="book-figure-link" href="[^"]*">(<img [^>]*>)</a>')


def link_figures(html: str) -> str:
    """Each figure of a page (an image of _images/) becomes a link to itself: a tap opens it full size, to
    zoom on a phone. Idempotent: a page Sphinx did not rewrite keeps its links once."""
    html = FIGURE_LINK.sub(r"\1", html)
    return FIGURE.sub(lambda m: f'<a class="book-figure-link" href="{m.group(1)}">{m.group(0)}</a>', html)


def _link_figures(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).glob("*.html"):
        text = page.read_text(encoding="utf-8")
        linked = link_figures(text)
        if linked != text:
            page.write_text(linked, encoding="utf-8")


def setup(app):
    app.connect("build-finished", _link_figures)
    app.add_css_file(ICONS_CSS)
    app.connect("builder-inited", _filters)
    app.connect("build-finished", _write_icons)
    app.add_js_file("", body=TWIN_ANCHOR)  # "" not None: see book_i18n.py
    app.add_js_file("", body=SCROLLABLE_FOCUS)
    app.add_js_file("", body=SOLUTION_TITLE)
    app.connect("build-finished", _patch_theme_script)
    # after sphinx-book-theme has added its buttons (priority 501)
    app.connect("html-page-context", _header_buttons, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
