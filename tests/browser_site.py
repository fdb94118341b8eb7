"""Helpers for tests/test_browser.py: serve _build/html on 127.0.0.1 (tools/serve.py, gzip like GitHub
Pages), load a page in Debian's chromium (driven by Playwright from pip; never a downloaded browser) and
record what a reader's browser saw.

One visit per page and per test module: `Visitor.visit(rel)` loads the page once, in a tab no other page is
using, with the HTTP cache off (so the bytes it counts are a first visit's), and returns a `Visit` with
everything the tests assert on. Every request that does not go to the local server is blocked and counted.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from tools import chromium
from tools.serve import SiteServer  # noqa: F401 - the tests' server, re-exported

CHROMIUM = chromium.PATH
CHROMIUM_ARGS = [*chromium.ARGS,
                 # Second line of defence behind the request blocking below: anything the browser itself
                 # sends past the page's routes goes to a closed local port (loopback is never proxied).
                 "--proxy-server=127.0.0.1:9"]
INSTALL = "install Debian's chromium and fonts-noto-cjk: apt-get install chromium fonts-noto-cjk"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not CHROMIUM.is_file():
        return f"{CHROMIUM} is missing"
    if shutil.which("fc-list") is None:
        return "fontconfig (fc-list) is missing"
    korean = subprocess.run(["fc-list", ":lang=ko", "family"], capture_output=True, text=True).stdout.strip()
    if not korean:
        return "no font with Hangul is installed (Korean pages would show empty boxes)"
    return None


@dataclass
class Visit:
    rel: str  # path under _build/html, e.g. "ko/01_dict_to_attention.html"
    url: str
    seconds: float = 0.0
    console_errors: list[str] = field(default_factory=list)
    console_warnings: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    third_party: list[str] = field(default_factory=list)  # requests to hosts other than 127.0.0.1 (blocked)
    outside_site: list[str] = field(default_factory=list)  # to 127.0.0.1 but outside the site's folder (blocked)
    not_ready: list[str] = field(default_factory=list)  # what did not finish rendering in time
    dom: dict = field(default_factory=dict)  # facts read from the rendered page (see FACTS)
    resources: list[tuple[str, int, int]] = field(default_factory=list)  # (url, bytes transferred, uncompressed)
    bytes: int = 0  # response bodies of the page and everything it loaded, as transferred (gzip)
    first_bytes: int = 0  # the same, for what it loaded before any scrolling (the page at rest after `load`)
    raw_bytes: int = 0  # the same, uncompressed
    requests: int = 0
    axe: list[dict] = field(default_factory=list)  # every axe violation, any impact
    phone: dict = field(default_factory=dict)  # layout facts at 390 px
    screenshots: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # seconds per step, to see where time goes
    states_at_load: list[str] = field(default_factory=list)  # explorer states fetched before any scrolling
    explorers: list[dict] = field(default_factory=list)  # what each explorer showed as its controls were used
    solutions: dict = field(default_factory=dict)  # the solution boxes before and after a click on the first one

    def serious_axe(self, allowed: dict[str, str]) -> list[dict]:
        return [v for v in self.axe if v["impact"] in ("serious", "critical") and v["id"] not in allowed]


# Rendering is done when every explorer has loaded its states and every image has loaded or failed (math
# comes rendered in the HTML). Each check is named so that a page that never gets there says which one.
READY = {
    "explorers": """() => [...document.querySelectorAll('.book-explorer')].every(e => e.hasAttribute('data-ready'))""",
    # a lazy image the page does not show is never fetched (the landing page's figure of the other language)
    "images": "() => [...document.images].every(i => i.complete || i.loading === 'lazy' && !i.checkVisibility())",
}

FIRST_BYTES = """() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
  .reduce((sum, e) => sum + (e.encodedBodySize || 0), 0)"""
# Every icon shown on the page: drawn by a CSS mask of book/_ext/book_site.py's icons.css (no icon font, no
# Font Awesome script), with a size.
ICON_FACTS = r"""() => ({
  icons: [...document.querySelectorAll('[class*="fa-"]')].filter(e => e.checkVisibility())
    .filter(e => [...e.classList].some(c => /^fa-/.test(c) && !/^fa-(solid|regular|brands|lg|xs|sm|fw|[0-9]+x)$/.test(c)))
    .map(e => { const s = getComputedStyle(e), r = e.getBoundingClientRect();
                return {cls: e.className, mask: (s.maskImage || s.webkitMaskImage || '').slice(0, 30), w: r.width, h: r.height}; }),
  fontawesome: performance.getEntriesByType('resource').map(e => e.name).filter(n => /fontawesome|webfonts\/fa-/.test(n)),
  search: performance.getEntriesByType('resource').map(e => e.name).filter(n => /searchindex\.js|searchtools\.js|language_data\.js/.test(n)),
})"""
STATES_FETCHED = """() => performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/_explorers/'))"""
SCROLL_TO_EXPLORERS = """async () => {
  for (const box of document.querySelectorAll('.book-explorer')) {
    box.scrollIntoView();
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  }
  window.scrollTo(0, 0);
}"""

FACTS = r"""async () => {
  await document.fonts.ready;
  const twin = document.querySelector('a.twin-link');
  const article = document.querySelector('article.bd-article') || document.querySelector('main');
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
  return {
    lang: document.documentElement.getAttribute('lang'),
    icon: !!document.querySelector('link[rel~="icon"]'),
    twin: twin ? {href: twin.href, hreflang: twin.getAttribute('hreflang')} : null,
    // formulas rendered at build time (KaTeX); a formula KaTeX could not render, or left for a script
    mathRendered: document.querySelectorAll('.katex').length,
    mathErrors: [...document.querySelectorAll('.katex-error, .math:not(:has(.katex))')].map(e => e.textContent).slice(0, 5),
    mathScripts: [...document.scripts].map(s => s.src).filter(s => /mathjax|katex/i.test(s)),
    // KaTeX's stylesheet, in whichever file it came (tools/bundle.py joins a page's stylesheets): its fonts
    mathStyles: [...document.styleSheets].filter(sheet => [...sheet.cssRules].some(r =>
      r instanceof CSSFontFaceRule && /KaTeX|MathJax/i.test(r.style.getPropertyValue('font-family')))).map(s => s.href),
    explorers: document.querySelectorAll('.book-explorer').length,
    explorersReady: document.querySelectorAll('.book-explorer[data-ready]').length,
    widgetViews: document.querySelectorAll('script[type^="application/vnd.jupyter.widget"]').length,
    images: [...document.images].map(i => ({
      src: i.currentSrc || i.src, attrSrc: (i.getAttribute('src') || '').slice(0, 120),
      alt: i.getAttribute('alt'), loaded: i.complete && i.naturalWidth > 0 || i.loading === 'lazy' && !i.checkVisibility(),
      content: !!(article && article.contains(i)),
      link: (i.closest('a.book-figure-link') || {}).href || null,
      width: i.getBoundingClientRect().width, naturalWidth: i.naturalWidth,
    })),
    // the Colab links to the full notebook (the notebook menu's student item is read below)
    colab: [...document.querySelectorAll('a[href*="colab.research.google.com"]')]
      .filter(a => !a.href.includes('/student/')).map(a => a.href),
    // the header's notebook menu: per notebook (student, full), its name and its two items
    notebooks: [...document.querySelectorAll('.dropdown-notebooks')].map(m => {
      const text = e => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
      const item = a => a && {href: a.href, text: text(a), name: a.getAttribute('aria-label')};
      return {inHeader: !!m.closest('.bd-header-article'), label: text(m.querySelector('button.dropdown-toggle')),
              names: [...m.querySelectorAll('.dropdown-header')].map(text),
              student: {download: item(m.querySelector('a.notebooks-student-download[download]')),
                        colab: item(m.querySelector('a.notebooks-student-colab'))},
              full: {download: item(m.querySelector('a.notebooks-full-download[download]')),
                     colab: item(m.querySelector('a.notebooks-full-colab'))}};
    }),
    licence: (() => { const l = document.querySelector('footer .book-licence');
                      return l && {text: l.textContent.replace(/\s+/g, ' ').trim(), shown: l.getBoundingClientRect().height > 0,
                                   links: [...l.querySelectorAll('a[rel~="license"]')].map(a => a.href)}; })(),
    resources: entries.map(e => [e.name, e.encodedBodySize || 0, e.decodedBodySize || 0]),
  };
}"""

# The theme slides its sidebars in and out; at the switch to phone width those transitions would still
# be running when the layout is measured.
NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; animation: none !important; }"

# After a resize: the next frames are laid out and the theme's transitions (its sidebars slide) are over.
SETTLED = """async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  await Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)));
}"""

# At phone width: how wide the page is, and whether each wide code block, table, formula and explorer figure
# sits in a box of its own that scrolls sideways and ends inside the screen.
PHONE_FACTS = """() => {
  const width = window.innerWidth;
  const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  const article = document.querySelector('article.bd-article') || document.body;
  const wide = [];
  let scrolling = 0;
  for (const e of article.querySelectorAll('pre, table, .katex-display, .explorer-figures')) {
    let box = e;
    while (box && box !== article && !scrolls(box)) box = box.parentElement;
    const inBox = box && box !== article;
    if (inBox && box.scrollWidth > box.clientWidth) scrolling += 1;
    const right = (inBox ? box : e).getBoundingClientRect().right;
    if (right > width + 1) wide.push(`<${e.tagName.toLowerCase()} class="${e.className}"> ends at ${Math.round(right)} px`);
  }
  return {width, scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 5), scrolling};
}"""

# At phone width: each image of the article, how wide it shows, the link that opens it full size, and the
# smallest text it shows in CSS px. An SVG figure (a file, or an explorer's data: URI) is laid out inline
# at the image's width, and each text's font size is scaled by its transform to the screen; a raster
# image's text cannot be measured (kind "raster"). Images not shown (an explorer's other states) are skipped.
FIGURE_TEXT = r"""async () => {
  const article = document.querySelector('article.bd-article') || document.body;
  const found = [], drawn = [];
  for (const img of article.querySelectorAll('img')) {
    const src = img.currentSrc || img.src, shown = img.getBoundingClientRect().width;
    const link = img.closest('a[href]');
    const item = {src: src.startsWith('data:') ? `data: (${(img.getAttribute('alt') || '').slice(0, 40)})` : src.split('/').pop(),
                  alt: (img.getAttribute('alt') || '').slice(0, 80),
                  shown: Math.round(shown), kind: 'raster', min: null, text: null, texts: 0,
                  link: link ? link.getAttribute('href') : null};
    if (shown === 0) continue;
    if (src.startsWith('data:image/svg+xml')) drawn.push([item, decodeURIComponent(src.slice(src.indexOf(',') + 1))]);
    else if (/\.svg([?#]|$)/.test(src)) drawn.push([item, fetch(src).then(r => r.text())]);
    found.push(item);
  }
  // every SVG laid out at once, in one hidden box (one layout of the page, not one per figure: a chapter page
  // with every section laid out took seconds of CPU to lay out again for each figure)
  const all = document.createElement('div');
  all.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden;contain:layout style';
  for (const [item, svg] of drawn) {
    item.kind = 'svg';
    const box = document.createElement('div');
    box.style.width = `${item.shown}px`;
    box.innerHTML = await svg;
    const el = box.querySelector('svg');
    el.setAttribute('width', String(item.shown));
    el.removeAttribute('height');
    el.style.height = 'auto';
    all.appendChild(box);
    item.el = el;
  }
  document.body.appendChild(all);
  for (const [item] of drawn) {
    for (const t of item.el.querySelectorAll('text, tspan')) {
      if (!t.textContent.trim()) continue;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      item.texts += 1;
      if (item.min === null || px < item.min) { item.min = Math.round(px * 10) / 10; item.text = t.textContent.trim().slice(0, 40); }
    }
    delete item.el;
  }
  all.remove();
  return found;
}"""

# For the screenshots: scroll the first box of this kind that scrolls sideways (or the first element of
# the kind) to just below the sticky header.
SCROLL_TO = """(selector) => {
  const all = [...document.querySelectorAll(selector)];
  const box = e => { let b = e; while (b && !['auto', 'scroll'].includes(getComputedStyle(b).overflowX)) b = b.parentElement; return b || e; };
  const pick = all.find(e => box(e).scrollWidth > box(e).clientWidth) || all[0];
  if (!pick) return false;
  window.scrollTo(0, pick.getBoundingClientRect().top + window.scrollY - 80);
  return true;
}"""
SHOTS = {"top": None, "code": "article pre", "table": "article table", "explorer": "article .book-explorer"}

# At phone width, with a chapter's notebook menu opened by a click: where its button and its menu are,
# and whether the menu shows.
STUDENT_MENU = ".dropdown-notebooks"
STUDENT_MENU_FACTS = """(selector) => {
  const menu = document.querySelector(selector);
  const box = e => { const r = e.getBoundingClientRect();
                     return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, shown: r.width > 0 && r.height > 0}; };
  return {width: window.innerWidth, expanded: menu.querySelector('.dropdown-toggle').getAttribute('aria-expanded'),
          toggle: box(menu.querySelector('.dropdown-toggle')), menu: box(menu.querySelector('.dropdown-menu'))};
}"""

# The article header (its buttons and links) at a phone width: each visible item's box and name, whether
# any ends outside the screen or overlaps its neighbour, and how much room is left between the two ends.
HEADER_FACTS = r"""() => {
  const header = document.querySelector('.bd-header-article');
  if (!header) return null;
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const items = [...header.querySelectorAll('a.btn, button.btn, .dropdown > button')].filter(shown)
    .filter((e, i, all) => !all.some(o => o !== e && o.contains(e)));
  const boxes = items.map(e => { const r = e.getBoundingClientRect();
    return {name: (e.getAttribute('aria-label') || e.textContent).replace(/\s+/g, ' ').trim(),
            text: e.textContent.replace(/\s+/g, ' ').trim(), left: r.left, right: r.right}; })
    .sort((a, b) => a.left - b.left);
  const overlaps = boxes.slice(1).filter((b, i) => b.left < boxes[i].right - 0.5).map(b => b.name);
  const outside = boxes.filter(b => b.left < -0.5 || b.right > window.innerWidth + 0.5).map(b => b.name);
  const start = header.querySelector('.header-article-items__start'), end = header.querySelector('.header-article-items__end');
  const used = [...end.querySelectorAll('a.btn, button.btn, .dropdown > button')].filter(shown);
  const endLeft = Math.min(...used.map(e => e.getBoundingClientRect().left));
  return {width: window.innerWidth, items: boxes, overlaps, outside,
          scrolls: header.scrollWidth > header.clientWidth + 1,
          room: Math.round(endLeft - (start ? start.getBoundingClientRect().right : 0))};
}"""
HEADER_WIDTHS = (390, 360)  # the first is PHONE's width, the last the narrowest

# Display math at the narrowest phone width: each formula fits its line, or else scrolls in its own box
# that shows a shadow at the edge where more of it hides; none ends past the screen's edge.
MATH_FACTS = """() => [...document.querySelectorAll('article .katex-display')].map(box => {
  const style = getComputedStyle(box), r = box.getBoundingClientRect();
  return {tex: (box.querySelector('annotation') || {}).textContent || '', fits: box.scrollWidth <= box.clientWidth + 1,
          scrolls: ['auto', 'scroll'].includes(style.overflowX), shadow: style.backgroundAttachment.includes('local'),
          right: r.right, width: window.innerWidth};
})"""

# Korean text at the narrowest phone width: every run of Hangul syllables (a word, or a word's stem before
# punctuation) of the article (headings, paragraphs, lists, table cells, captions) that fits on a line
# must sit on one line; a word split across two lines is listed with its element. Another part of a page:
# {root, skip (selectors whose text is not read), visibleOnly} as the argument (the landing page's test).
KOREAN_BREAKS = """(options) => {
  const {root = 'article.bd-article', skip = 'pre, script, style, .katex, .highlight, .cell_output',
         visibleOnly = false} = options || {};
  const article = document.querySelector(root);
  if (!article) return {checked: 0, split: []};
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {acceptNode: n =>
    n.parentElement.closest(skip) || (visibleOnly && !n.parentElement.checkVisibility()) ? NodeFilter.FILTER_REJECT
      : NodeFilter.FILTER_ACCEPT});
  let checked = 0; const split = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/[\uAC00-\uD7A3]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (!rects.length) continue;
      checked += 1;
      const lines = new Set(rects.map(r => Math.round(r.top)));
      if (lines.size > 1) {
        const where = node.parentElement.closest('h1, h2, h3, h4, td, th, li, p, figcaption, dt, dd') || node.parentElement;
        split.push(`${m[0]} in <${where.tagName.toLowerCase()}>`);
      }
    }
  }
  return {checked, split: split.slice(0, 10), count: split.length,
          wordBreak: getComputedStyle(article).wordBreak, overflowWrap: getComputedStyle(article).overflowWrap};
}"""


# At phone width: every identifier, number or Latin word in the article's tables (a run of letters, digits, _ and
# ., such as rms_norm_eps or nn.MultiheadAttention) that sits on one line or is split across two (book.css keeps
# a table's inline code whole; a table wider than the column scrolls in its own box).
TABLE_WORDS = r"""() => {
  const tables = [...document.querySelectorAll('article.bd-article table')];
  let checked = 0; const split = [];
  for (const table of tables) {
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[A-Za-z0-9_][A-Za-z0-9_.]*[A-Za-z0-9_]/g)) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        if (!rects.length) continue;
        checked += 1;
        if (new Set(rects.map(r => Math.round(r.top))).size > 1) split.push(`${m[0]} in <${node.parentElement.tagName.toLowerCase()}>`);
      }
    }
  }
  return {tables: tables.length, checked, split: split.slice(0, 10), count: split.length};
}"""

# What an explorer shows now: the key of the shown setting (set by book/assets/explorer.js), its figures
# (the SVG text of each image) and printed text, and each control's accessible name and spoken value.
EXPLORER_SHOWS = r"""(box) => ({
  key: box.dataset.shown || null,
  figures: [...box.querySelectorAll('.explorer-figures img')].map(i => decodeURIComponent(i.getAttribute('src').split(',').slice(1).join(','))),
  alts: [...box.querySelectorAll('.explorer-figures img')].map(i => i.getAttribute('alt')),
  loaded: [...box.querySelectorAll('.explorer-figures img')].every(i => i.complete && i.naturalWidth > 0),
  text: box.querySelector('.explorer-text').textContent,
  group: box.querySelector('.explorer-controls').getAttribute('aria-label'),
  controls: [...box.querySelectorAll('.explorer-control')].map(c => {
    const input = c.querySelector('select, input');
    const legend = c.querySelector('legend');
    const name = legend ? legend.textContent : [...input.labels].map(l => l.textContent).join(' ');
    const checked = c.querySelector('input:checked');
    const index = input.type === 'radio' ? +checked.value : input.type === 'checkbox' ? (input.checked ? 1 : 0) : +input.value;
    return {name, kind: input.type === 'radio' ? 'buttons' : input.tagName === 'SELECT' ? 'select' : input.type,
            index, count: input.type === 'radio' ? c.querySelectorAll('input').length : input.tagName === 'SELECT' ? input.options.length
              : input.type === 'checkbox' ? 2 : +input.max + 1,
            valuetext: input.getAttribute('aria-valuetext'), readout: (c.querySelector('output') || {}).textContent || null,
            disabled: input.disabled};
  }),
})"""

# The time from a control's change to the new figure decoded and ready to paint, in the page (ms): the median
# of RESPONSES changes per explorer (reported, not asserted: under a millisecond each).
RESPONSES = 3
RESPONSE_TIME = r"""async (box) => {
  const control = box.querySelector('.explorer-control');
  const input = control.querySelector('select, input');
  const img = box.querySelector('.explorer-figures img');
  const start = performance.now();
  if (input.type === 'radio') { const next = control.querySelector('input:not(:checked)'); next.checked = true; next.dispatchEvent(new Event('change')); }
  else if (input.type === 'checkbox') { input.checked = !input.checked; input.dispatchEvent(new Event('change')); }
  else { input.value = String(+input.value === 0 ? 1 : 0); input.dispatchEvent(new Event(input.type === 'range' ? 'input' : 'change')); }
  if (img) await img.decode();
  return performance.now() - start;
}"""


# In dark mode: the background of the output block that holds the explorer, and the colour of its first
# control's name next to the article's text colour (the theme's dark mode paints HTML outputs light grey).
DARK_MODE = r"""async (box) => {
  const html = document.documentElement, before = html.dataset.theme;
  const still = document.createElement('style');
  still.textContent = '*, *::before, *::after { transition: none !important; }';
  document.head.appendChild(still);
  html.dataset.theme = 'dark';
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const name = box.querySelector('.explorer-control > label[for], .explorer-control > legend');
  const found = {background: getComputedStyle(box.parentElement).backgroundColor, name: getComputedStyle(name).color,
                 text: getComputedStyle(document.querySelector('article.bd-article') || document.body).color};
  html.dataset.theme = before;
  getComputedStyle(name).color;  // settle the restored theme before transitions come back
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  still.remove();
  return found;
}"""


def _press(page, locator, key: str) -> None:
    locator.focus()
    page.keyboard.press(key)


def operate_explorers(page) -> list[dict]:
    """Use every control of every explorer as a reader would, with the mouse and with the keyboard, and
    note after each action which setting the test chose (index per control) and what the explorer showed.

    Mouse: a select is picked from (Playwright's select_option, as a click in its list would), a slider is
    clicked at its right end, a button of a group is clicked, a checkbox is clicked. Keyboard: the control
    is focused and ArrowDown (select), Home (slider), ArrowRight (buttons: the next one, wrapping) or
    Space (checkbox) is pressed."""
    found = []
    boxes = page.locator(".book-explorer")
    for b in range(boxes.count()):
        box = boxes.nth(b)
        box.scroll_into_view_if_needed()
        handle = box.element_handle()
        shown = [page.evaluate(EXPLORER_SHOWS, handle)]
        actions = []
        chosen = [c["index"] for c in shown[0]["controls"]]
        for i, c in enumerate(shown[0]["controls"]):
            control = box.locator(".explorer-control").nth(i)
            n = c["count"]
            for how in ("mouse", "keyboard"):
                # a reader scrolls to the control before using it (an explorer taller than the screen, with stacked
                # figures, leaves its controls above the view once its bottom was scrolled into view): Playwright's
                # click scrolls to its target first, and so does focusing a control (the keyboard's way); a slider
                # is clicked at a point of the screen, scrolled to here
                if c["kind"] == "select":
                    target = (chosen[i] + 1) % n if how == "mouse" else min(chosen[i] + 1, n - 1)
                    if how == "mouse":
                        control.locator("select").select_option(index=target)
                    else:
                        _press(page, control.locator("select"), "ArrowDown")
                elif c["kind"] == "range":
                    slider = control.locator("input")
                    if how == "mouse":
                        slider.scroll_into_view_if_needed()
                        r = slider.bounding_box()
                        page.mouse.click(r["x"] + r["width"] - 2, r["y"] + r["height"] / 2)
                        target = n - 1
                    else:
                        _press(page, slider, "Home")
                        target = 0
                elif c["kind"] == "buttons":
                    target = (chosen[i] + 1) % n
                    if how == "mouse":
                        control.locator("label").nth(target).click()
                    else:
                        _press(page, control.locator("input:checked"), "ArrowRight")
                else:  # checkbox
                    target = 1 - chosen[i]
                    if how == "mouse":
                        control.locator("input").click()
                    else:
                        _press(page, control.locator("input"), "Space")
                chosen[i] = target
                key = ",".join(map(str, chosen))
                try:
                    page.wait_for_function("([box, key]) => box.dataset.shown === key && "
                                           "[...box.querySelectorAll('img')].every(i => i.complete)",
                                           arg=[handle, key], timeout=5_000, polling=50)
                except Exception:
                    pass  # what it shows instead is compared by the test
                actions.append({"control": i, "how": how, "key": key, "shows": page.evaluate(EXPLORER_SHOWS, handle)})
        ms = [page.evaluate(RESPONSE_TIME, handle) for _ in range(RESPONSES)]
        found.append({"first": shown[0], "actions": actions, "response_ms": sorted(ms)[len(ms) // 2],
                      "dark": page.evaluate(DARK_MODE, handle)})
    return found


# What a reader can see of the exercises before opening anything: the exercise and the cell the learner
# starts from, but no solution code, no "correct!" and no explanation.
SOLUTIONS = """() => [...document.querySelectorAll('div.solution')].map(box => {
  const shown = el => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const title = box.querySelector('.admonition-title');
  const body = [...box.children].filter(el => el !== title);
  const button = box.querySelector('button.toggle-button') || title;
  return {id: box.id, title: title ? title.innerText.trim() : '', dropdown: box.classList.contains('dropdown'),
          bodyShown: body.some(shown), code: box.querySelectorAll('div.cell').length,
          control: button ? (button.getAttribute('aria-label') || button.innerText || '').trim() : '',
          before: (box.previousElementSibling || {}).className || ''};
})"""
# Where the first solution's title shows its link to the exercise (brought to the middle of the screen): at phone
# width most of the title, and the part sphinx-togglebutton's own handler did not know (book_site.SOLUTION_TITLE)
TITLE_LINK = """() => {
  const link = document.querySelector('div.solution .admonition-title a');
  link.scrollIntoView({block: 'center'});
  const r = link.getClientRects()[0];
  return [r.left + r.width / 2, r.top + r.height / 2];
}"""
# How many outputs shown on the page hold a check's verdict
VERDICTS = """() => [...document.querySelectorAll('.cell_output')].filter(
  el => el.getClientRects().length > 0 && el.innerText.includes('✅')).length"""


# Every section of a chapter laid out, as when the reader has reached it (book.css lays out sections below the
# first screen only as they near it: content-visibility)
LAY_OUT_ALL = "article.bd-article > section > section { content-visibility: visible !important; }"

# What a chapter page shares with its twin in the other language: its code cells and their printed outputs (text,
# errors) are the same cells, the same styles and the same outputs, differing only in comments and string literals
# (tests/test_parity.py). axe-core's rules (colour contrast above all: they took a quarter of axe's time on an English chapter page)
# read them on the Korean page; on the English page they skip them. Everything else (prose, headings, links, math,
# figures and their alt text, explorers and their controls, solution boxes, the header and sidebars) is read on both.
SHARED_WITH_TWIN = ("div.cell_input", "div.output.stream", "div.output.traceback", "div.output.text_plain")


# axe-core run over the page, its violations with each node's HTML, as axe writes it, in window.__axe.
# Every rule axe runs by default runs, on the same nodes, with the same verdicts; what it does not compute is only what
# no rule reads:
# - no CSS selector per node (a quarter of axe's time on a chapter page): the node's HTML says enough;
# - no HTML per node while the rules run (noHtml): axe serialized every node any check looked at (thousands on a
#   chapter page, a section's whole outerHTML among them, then truncated), and kept it only for the violations;
#   the violations' nodes (elementRef) get it afterwards from axe's own function, so the report reads the same;
# - of the assets axe loads before the rules that ask for them (`preload`: the page's CSS, re-parsed in a
#   document of its own, and its audio and video), the media only: the one enabled rule that asks for assets,
#   no-autoplay-audio, reads the media; the CSS is read only by css-orientation-lock, an experimental rule axe
#   does not run by default (and never ran here). Measured on three chapter pages: about 7% of axe's CPU time.
#
# `shared` (SHARED_WITH_TWIN, or null): the parts axe skips. axe tests every node of the page against every element
# it skips (hundreds on an English chapter page: about a tenth of axe's time there), so a code cell made only of
# such parts is skipped as one element: the same nodes but the cell's two wrappers (div.cell and its div.cell_output),
# which hold no text of their own and are the same elements of the same cell on the twin, whose visit reads them.
AXE_RUN = """(shared) => {
  axe.configure({noHtml: true});
  const options = {resultTypes: ['violations'], selectors: false, elementRef: true, preload: {assets: ['media']}};
  let scope = document;
  if (shared) {
    const parts = new Set(document.querySelectorAll(shared.join(', ')));
    const inPart = e => { for (; e; e = e.parentElement) if (parts.has(e)) return true; return false; };
    const cells = [...document.querySelectorAll('div.cell')].filter(cell => [...cell.querySelectorAll('*')].every(
      e => inPart(e) || e.parentElement === cell && e.matches('div.cell_output')));
    scope = {exclude: [...cells, ...[...parts].filter(p => !cells.some(cell => cell.contains(p)))]};
  }
  setTimeout(() => { window.__axe = axe.run(scope, options).then(r => ({violations: r.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({html: axe.utils.getElementSource(n.element)}))}))})); }, 0);
}"""


class Visitor:
    """Loads pages of the site served at `base` in `browser`, each once, and keeps what it saw.

    All pages share one browser context (a context per page costs a new renderer process each, and
    doubles the time); each page gets a tab no other page uses meanwhile: two tabs, each reused once its page
    is checked (a new tab per page cost a renderer started and set up each time, about a fifth of the module's CPU
    time), emptied (about:blank, its session storage cleared) and back at desktop size. The context's request
    routing, which blocks whatever leaves the local server, also turns off the HTTP cache, so every visit is a
    first visit (the bytes each page transfers are the same as in new tabs).

    `visit_all` works as a two-stage pipeline: while axe-core runs in one page's renderer, the next
    page loads in another, so both cores work (axe is about half of a chapter page's time). A page is brought
    to the front before its phone checks: chromium slows the timers and animation frames of a tab in the
    background, and there the checks took 8 s a chapter page instead of 2 (the 34 pages: 204 s, now 82 s)."""

    def __init__(self, browser, base: str, axe_script: Path, screenshot_dir: Path, screenshot_pages: set[str],
                 twins: set[str] = frozenset()):
        self.browser, self.base, self.axe_script = browser, base, axe_script
        self.screenshot_dir, self.screenshot_pages = screenshot_dir, screenshot_pages
        self.twins = twins  # pages whose SHARED_WITH_TWIN parts axe-core reads on their twin (visited as well)
        self.visits: dict[str, Visit | BaseException] = {}
        self.local = re.compile("^" + re.escape(base))  # the site: requests elsewhere are blocked
        self.open: dict[object, Visit] = {}  # page -> its visit, for the requests the route blocks
        self.idle: list = []  # tabs whose page was checked, for the next pages
        self.context = browser.new_context(viewport=DESKTOP, service_workers="block")
        # only requests that leave the local server are intercepted; the rest go straight through
        self.context.route(re.compile(r"^(?!" + re.escape(base) + ")"), self._block)

    def _block(self, route) -> None:
        url = route.request.url
        try:
            v = self.open.get(route.request.frame.page)
        except Exception:  # a request without a frame (a worker's)
            v = next(iter(self.open.values()), None)
        if v is not None:
            local = urlsplit(url).hostname == "127.0.0.1"
            (v.outside_site if local else v.third_party).append(url)
        route.abort("blockedbyclient")

    def close(self) -> None:
        self.context.close()

    def visit(self, rel: str) -> Visit:
        if rel not in self.visits:
            self.visit_all([rel])
        result = self.visits[rel]
        if isinstance(result, BaseException):
            raise AssertionError(f"{rel}: the page could not be checked: {result}") from result
        return result

    def visit_all(self, rels: list[str]) -> None:
        """Visit every page of `rels` not visited yet (failures are kept, and reported by `visit`)."""
        pending = None
        for rel in [r for r in rels if r not in self.visits] + [None]:
            started = None
            if rel is not None:
                try:
                    started = self._start(rel)
                except Exception as e:
                    self.visits[rel] = e
            if pending is not None:
                v, page = pending
                try:
                    self.visits[v.rel] = self._finish(v, page)
                except Exception as e:
                    self.visits[v.rel] = e
            pending = started

    def _start(self, rel: str):
        """Load the page, read what it shows, and set axe-core running in it (not waited for)."""
        v = Visit(rel=rel, url=self.base + rel)
        v.seconds = time.perf_counter()
        page = self._tab()
        self.open[page] = v
        try:
            mark = time.perf_counter()
            page.goto(v.url, wait_until="load", timeout=30_000)
            v.timings["load"], mark = time.perf_counter() - mark, time.perf_counter()
            # an explorer fetches its states only when it nears the screen: note what the page fetched
            # before any scrolling, then bring each explorer into view as a reader would, and back
            try:  # what a first visit transfers before the reader scrolls: until the network is quiet
                page.wait_for_load_state("networkidle", timeout=5_000)
            except Exception:
                pass
            v.first_bytes = page.evaluate(FIRST_BYTES)
            v.states_at_load = page.evaluate(STATES_FETCHED)
            page.evaluate(SCROLL_TO_EXPLORERS)
            for what, check in READY.items():
                try:
                    page.wait_for_function(check, timeout=15_000, polling=100)
                except Exception:
                    v.not_ready.append(what)
            v.dom = page.evaluate(FACTS)
            if "explorers" not in v.not_ready:
                v.explorers = operate_explorers(page)
                v.timings["explorers"] = time.perf_counter() - mark
            v.dom.update(page.evaluate(ICON_FACTS))
            v.resources = v.dom.pop("resources")
            v.bytes, v.raw_bytes = sum(r[1] for r in v.resources), sum(r[2] for r in v.resources)
            v.requests = len(v.resources)
            v.timings["ready"] = time.perf_counter() - mark
            # every section laid out, as when the reader reaches it: in a section the browser skips
            # (content-visibility, book.css) boxes have no real place, and axe's contrast check, which asks what is
            # drawn under each text, found one link "on" a code span of a section far below (en/10)
            page.add_style_tag(content=LAY_OUT_ALL)
            page.add_script_tag(path=str(self.axe_script))
            # started from a timer, so that this call returns at once and the next page can load meanwhile
            page.evaluate(AXE_RUN, list(SHARED_WITH_TWIN) if rel in self.twins else None)
        except BaseException:
            self._close(page)
            raise
        return v, page

    def _open_student_menu(self, v: Visit, page, stem: str) -> None:
        """Open the notebook menu with a click at phone width, note where it shows, close it."""
        try:
            page.click(f"{STUDENT_MENU} .dropdown-toggle", timeout=5_000)
            page.evaluate(SETTLED)
            v.phone["student"] = page.evaluate(STUDENT_MENU_FACTS, STUDENT_MENU)
            if v.rel in self.screenshot_pages:
                self.screenshot_dir.mkdir(parents=True, exist_ok=True)
                path = self.screenshot_dir / f"{stem}-phone-notebook-menu.png"
                page.screenshot(path=str(path), animations="disabled")
                v.screenshots.append(str(path))
            page.keyboard.press("Escape")
            page.mouse.move(0, PHONE["height"] - 1)  # the theme also opens its menus on hover
            page.evaluate(SETTLED)
        except Exception as e:  # reported by the test that reads v.phone["student"]
            v.phone["student"] = {"error": f"{type(e).__name__}: {e}"}

    def _open_a_solution(self, v: Visit, page) -> None:
        """The exercises' solution boxes as the reader finds them (every section laid out, LAY_OUT_ALL, as
        when the reader has reached it), and after one click on the first one's title (last: it changes the
        page)."""
        try:
            v.solutions = {"before": page.evaluate(SOLUTIONS), "verdicts before": page.evaluate(VERDICTS)}
            if v.solutions["before"]:
                # a tap on the title's link to the exercise, the larger part of the title on a phone: it opens
                # the solution as any part of the title does, and stays on the page
                x, y = page.evaluate(TITLE_LINK)
                url = page.url
                page.mouse.click(x, y)
                try:
                    page.wait_for_function(f"() => ({SOLUTIONS})()[0].bodyShown", timeout=5_000, polling=50)
                except Exception:
                    pass  # the test says what the click did not open
                v.solutions.update({"after": page.evaluate(SOLUTIONS), "verdicts after": page.evaluate(VERDICTS),
                                    "moved to": page.url if page.url != url else None})
        except Exception as e:  # reported by the test that reads v.solutions
            v.solutions = {"error": f"{type(e).__name__}: {e}"}

    def _finish(self, v: Visit, page) -> Visit:
        """Wait for axe-core, then the phone-width checks and screenshots, and close the page."""
        try:
            page.bring_to_front()  # the next page, opened meanwhile, is in front (see the class's docstring)
            mark = time.perf_counter()
            result = page.evaluate("() => new Promise(done => { const wait = () => window.__axe ? "
                                   "done(window.__axe) : setTimeout(wait, 20); wait(); })")
            v.axe = [{"id": x["id"], "impact": x["impact"], "help": x["help"],
                      "nodes": [re.sub(r"\s+", " ", n["html"])[:160] for n in x["nodes"][:5]],
                      "count": len(x["nodes"])} for x in result["violations"]]
            v.timings["axe (waited)"], mark = time.perf_counter() - mark, time.perf_counter()
            page.add_style_tag(content=NO_TRANSITIONS)
            # each width laid out once (a chapter page, every section laid out, takes a while): everything
            # measured at 390 px first, then at 360 px, where the page stays for the solutions last
            page.set_viewport_size(PHONE)
            page.evaluate(SETTLED)
            v.phone = page.evaluate(PHONE_FACTS)
            v.phone["header"] = {PHONE["width"]: page.evaluate(HEADER_FACTS)}
            v.phone["figures"] = page.evaluate(FIGURE_TEXT)
            v.phone["tables"] = page.evaluate(TABLE_WORDS)
            stem = v.rel.replace("/", "-").removesuffix(".html")
            if v.dom.get("notebooks"):
                self._open_student_menu(v, page, stem)
            if v.rel in self.screenshot_pages:
                self.screenshot_dir.mkdir(parents=True, exist_ok=True)
                for shot, selector in SHOTS.items():
                    if selector is None:
                        page.evaluate("window.scrollTo(0, 0)")
                    elif not page.evaluate(SCROLL_TO, selector):
                        continue
                    path = self.screenshot_dir / f"{stem}-phone-{shot}.png"
                    page.screenshot(path=str(path), animations="disabled")
                    v.screenshots.append(str(path))
            for width in HEADER_WIDTHS:
                if width == PHONE["width"]:
                    continue
                page.set_viewport_size({**PHONE, "width": width})
                page.evaluate(SETTLED)
                v.phone["header"][width] = page.evaluate(HEADER_FACTS)
            v.phone["math"] = page.evaluate(MATH_FACTS)
            if v.dom.get("lang") == "ko":
                v.phone["korean"] = page.evaluate(KOREAN_BREAKS)
            v.timings["phone"], mark = time.perf_counter() - mark, time.perf_counter()
            self._open_a_solution(v, page)
            v.timings["solutions"] = time.perf_counter() - mark
        finally:
            self._close(page)
        v.seconds = time.perf_counter() - v.seconds
        return v

    def _tab(self):
        """A tab for the next page: one an earlier page has left (its renderer is running already: a new tab
        costs a renderer process started and set up), or a new one. What a tab sees goes to the visit of the
        page it shows now."""
        if self.idle:
            return self.idle.pop()
        page = self.context.new_page()

        def note(what: str, text: str) -> None:
            v = self.open.get(page)
            if v is not None:
                getattr(v, what).append(text)

        page.on("console", lambda m: note("console_errors" if m.type == "error" else "console_warnings",
                                          f"{m.text} ({m.location.get('url', '')})") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: note("console_errors", f"uncaught {e.name}: {e.message}"))
        page.on("requestfailed", lambda r: note("failed_requests", f"{r.url} ({r.failure})") if self.local.match(r.url) else None)
        page.on("response", lambda r: note("failed_requests", f"{r.url} (HTTP {r.status})") if r.status >= 400 else None)
        # every page a first visit: nothing an earlier page of the tab left in its session storage (the theme
        # keeps the sidebar's scroll position there)
        page.add_init_script("performance.setResourceTimingBufferSize(2000); try { sessionStorage.clear(); } catch (e) {}")
        return page

    def tab(self):
        """A tab for a test of its own (a search, a click on the twin link), in front (as a new tab would be:
        chromium slows a background tab's timers and animation frames): give it back with `release`."""
        page = self._tab()
        page.bring_to_front()
        return page

    def release(self, page) -> None:
        self._close(page)

    def _close(self, page) -> None:
        """The page's visit is over: its tab, emptied and back at desktop size, waits for the next page."""
        self.open.pop(page, None)
        try:
            page.goto("about:blank")
            page.set_viewport_size(DESKTOP)
            self.idle.append(page)
        except Exception:
            page.close()
