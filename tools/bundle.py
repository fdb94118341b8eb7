"""Fewer requests before a page can paint (what Lighthouse's mobile performance score measures on a phone).

Sphinx and its themes put 12 stylesheets in each page's head, and a browser paints nothing until it has
fetched all of them: on a phone's connection (Lighthouse's mobile profile: 150 ms round trips,
1.6 Mbit/s) each one costs a round trip before the first text shows. Run on the assembled site, after
Sphinx, this pass:

- joins a page's stylesheets, in their order, into one file, `_static/book-<hash>.css` beside the page,
  named by its content (so a changed style is never served from a stale cache). `@import` is inlined,
  `url(...)` rewritten to stay correct from the new place, source-map comments dropped. Pages that load
  the same stylesheets share one file (pages with math load the one that holds KaTeX's stylesheet, the others
  one without it). Each part starts with a comment naming the file it came from.
- leaves out of that file the rules no page can use: a rule goes only when each of its selectors names a
  class that appears in no page and no script of the site (as any word at all: so a class a script adds
  stays). Most of the themes' CSS is Bootstrap's and Font Awesome's, for classes this book never uses:
  the joined file falls from about 100 KB to about 31 KB gzipped. Selectors inside :not(), :is(), :has()
  and attribute values are not judged (a missing class there can widen a match, not narrow it).

The head's scripts stay where Sphinx put them, in the head: moved to the end of the body they let the
first paint come before the theme's scripts had run, and a formula could then move by a pixel (seen once in
the browser test with the CPU slowed 4x). But each run of adjacent plain ones (this site's files and inline
code, no attribute of their own; the inline code after the run's last file stays inline, so that pages share
the file) is joined into one file, `_static/book-<hash>.js`, in their order: a chapter
page fetched eight small scripts before it could paint, one round trip each on a phone (Lighthouse: FCP
2.0 -> 1.4 s on en/06). The search page keeps its own.

The pages with math also get KaTeX's fonts before the first paint, every page paints once its first
screen is parsed, and the tokens of code drawn as plain text lose their `<span>` (see the sections below).

Nothing here changes what a page shows or does: tests/test_site.py checks the rewriting, the browser tests
check the pages (their styles, toggles, copy buttons, explorers, console errors).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from pathlib import Path

HEAD_END = "</head>"
STYLESHEET = re.compile(r'[ \t]*<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="([^"]+)"[^>]*>\n?')
IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?(["']?)([^"')\s]+)\1\s*\)?\s*;""")
URL = re.compile(r"""url\(\s*(["']?)(.*?)\1\s*\)""")
SOURCE_MAP = re.compile(r"/\*[#@]\s*sourceMappingURL=[^*]*\*/")
SOURCE_MAP_LINE = re.compile(r"^//[#@]\s*sourceMappingURL=.*$", re.M)
CHARSET = re.compile(r'@charset\s+"[^"]*"\s*;')


class BundleError(Exception):
    pass


WORD = re.compile(r"[A-Za-z_][\w-]*")
CLASS = re.compile(r"\.((?:\\.|[\w-])+)")
# parts of a selector whose classes are not judged: functional pseudo-classes' arguments, attribute tests
NOT_JUDGED = re.compile(r"\([^()]*\)|\[[^\]]*\]")


def site_words(site: Path) -> set[str]:
    """Every word of every page and script of the site: the classes a page or a script can use."""
    words: set[str] = set()
    for path in site.rglob("*"):
        if path.suffix in (".html", ".js") and path.is_file():
            words.update(WORD.findall(path.read_text(encoding="utf-8", errors="replace")))
    return words


def selector_used(selector: str, words: set[str]) -> bool:
    while NOT_JUDGED.search(selector):  # nested parentheses, innermost first
        selector = NOT_JUDGED.sub("", selector)
    return all(re.sub(r"\\(.)", r"\1", name) in words for name in CLASS.findall(selector))


def split_selectors(prelude: str) -> list[str]:
    """A selector list split at its top-level commas (not those inside :is(a, b) or [x="a,b"])."""
    parts, depth, start, quote = [], 0, 0, ""
    for i, ch in enumerate(prelude):
        if quote:
            quote = "" if ch == quote and prelude[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    return [*parts, prelude[start:]]


# at-rules whose blocks hold rules (purged inside); any other at-rule (@font-face, @keyframes...) is kept
GROUPING = ("media", "supports", "layer", "container", "document")


def purge(css: str, words: set[str]) -> str:
    """`css` without the rules that no page of the site can match (see the module's docstring)."""
    import tinycss2

    def walk(nodes) -> str:
        out = []
        for node in nodes:
            if node.type == "qualified-rule":
                selectors = [s for s in split_selectors(tinycss2.serialize(node.prelude)) if selector_used(s, words)]
                if selectors:
                    out.append(",".join(s.strip() for s in selectors) + "{" + tinycss2.serialize(node.content) + "}")
            elif node.type == "at-rule" and node.lower_at_keyword in GROUPING and node.content is not None:
                inner = walk(tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True))
                if inner or node.lower_at_keyword == "layer":
                    out.append(f"@{node.at_keyword}{tinycss2.serialize(node.prelude)}{{{inner}}}")
            elif node.type == "at-rule":
                out.append(node.serialize())
            elif node.type == "error":
                raise BundleError(f"CSS the bundler cannot parse: {node.message}")
        return "\n".join(out)

    return walk(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))


def local(href: str) -> str | None:
    """The path part of a stylesheet's href on this site, or None for another site's (left alone)."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^//", href, re.I):
        return None
    return href.split("#", 1)[0].split("?", 1)[0]


def css_from(path: Path, target_dir: Path, stack: tuple[Path, ...] = ()) -> str:
    """The text of stylesheet `path` as it must read from a file in `target_dir`: imports inlined, every
    relative url() pointing at the same file as before, source-map comments and @charset dropped."""
    path = path.resolve()
    if path in stack:
        raise BundleError(f"{path}: @import cycle through {' -> '.join(p.name for p in stack)}")
    if not path.is_file():
        raise BundleError(f"{path}: a page links this stylesheet but the site has no such file")
    text = path.read_text(encoding="utf-8")

    def rebase(match: re.Match) -> str:
        quote, ref = match.group(1), match.group(2)
        if not ref or ref.startswith(("data:", "#", "/")) or local(ref) is None:
            return match.group(0)
        cut = min((i for i in (ref.find("?"), ref.find("#")) if i >= 0), default=len(ref))
        moved = os.path.relpath(path.parent / ref[:cut], target_dir).replace(os.sep, "/")
        return f"url({quote}{moved}{ref[cut:]}{quote})"

    text = SOURCE_MAP.sub("", CHARSET.sub("", text))
    # IMPORT.split gives [text, quote, href, text, quote, href, ..., text]: an imported file's urls are
    # rebased from its own folder
    parts = IMPORT.split(text)
    out = []
    for i in range(0, len(parts), 3):
        out.append(URL.sub(rebase, parts[i]))
        if i + 2 < len(parts):
            out.append(css_from(path.parent / local(parts[i + 2]), target_dir, (*stack, path)))
    return "".join(out)


# The first paint waits until the parser has read what a first screen shows (`<link rel=expect
# blocking=render>`, chromium 124 and later; other browsers ignore it): the page's title, its introduction and
# its first section, up to where its second section starts. With one stylesheet the first paint could come
# while the parser was still inside the header or a formula, and the header's buttons or the formula then
# moved as the rest arrived (layout shifts of 0.002-0.004 at 4x CPU, in one load out of 5 to 25). What
# lies further down may still arrive after the first paint: it is off the screen, where nothing counts as moving.
SECTION_ID = re.compile(r'<section\b[^>]*\bid="([^"]+)"')
HEADER_END = "jb-print-docs-body"  # sphinx-book-theme's print container, right after the article's header


def first_screen_end(body: str) -> str | None:
    """The id of the page's third section (its title's, its first section's, then this one), or the last
    section's, or the element after the header; None when the page has none of these."""
    ids = SECTION_ID.findall(body)
    if ids:
        return ids[min(2, len(ids) - 1)]
    return HEADER_END if f'id="{HEADER_END}"' in body else None


# sphinx-design adds its tabs' script to every page; it does nothing on a page without a tab set, yet the page
# waited for it before it could paint (it reads an attribute of its own tag, so it is not joined to the others)
DESIGN_TABS = re.compile(r'[ \t]*<script\b[^>]*\bsrc="[^"]*_static/design-tabs\.js[^"]*"[^>]*></script>\n?')
PRELOAD = re.compile(r'<link rel="preload" href="([^"]+)" as="font"[^>]*>\n?')


def page_fonts(page: Path, css: Path, katex: dict) -> dict[str, tuple[str, str, str, Path, set[str]]]:
    """The KaTeX font files that the formulas of `page` use, name -> (family, weight, style, file, the
    characters shown in it); `css` is KaTeX's stylesheet as the page links it, `katex` a cache of its rules."""
    if css not in katex:
        katex[css] = katex_font_rules(css_from(css, css.parent))
    rules, faces = katex[css]
    used = katex_faces(page.read_text(encoding="utf-8").split(HEAD_END, 1)[-1], rules)
    missing = set(used) - set(faces)
    if missing:
        raise BundleError(f"{page.name}: its formulas use fonts KaTeX's stylesheet has no @font-face for: {sorted(missing)}")
    found = {}
    for face, chars in used.items():
        path = (css.parent / faces[face].split("?")[0]).resolve()
        found[path.name] = (*face, path, chars)
    return found


def bundle_page(page: Path, bundles: dict[tuple, tuple[str, tuple]], words: set[str],
                fonts: tuple[str, set[str]] | None = None, scripts: dict | None = None,
                purged: dict[tuple[str, str], object] | None = None) -> str:
    """The page's HTML with its head's stylesheets joined into one file (written if new; `bundles` keeps each
    file made, by the files joined: its path from the page's folder and its plain token classes). A page that loads
    KaTeX's stylesheet also runs `fonts` = (the fonts script's path from the page's folder, the font files it
    holds) before that file, and loses the preloads of those fonts (it has them already). The code's tokens
    that the joined stylesheet shows as plain text lose their `<span>` (see unwrap_plain_tokens). `purged` keeps
    each stylesheet's text purged, by ("purge", its text before), and a joined text's plain token classes, by
    ("plain", the text): the math pages' and the others' files share most of their
    stylesheets, and so do the two languages (their copies read alike, folder for folder), and parsing one took
    a quarter of a second."""
    html = page.read_text(encoding="utf-8")
    if HEAD_END not in html:
        return html
    head, rest = html.split(HEAD_END, 1)
    links = [(m, local(m.group(1))) for m in STYLESHEET.finditer(head)]
    joined = [(m, path) for m, path in links if path]
    if len(joined) > 1 and len(joined) == len(links):  # another site's stylesheet: order unknowable, left as is
        files = tuple(str((page.parent / path).resolve()) for _, path in joined)
        if files not in bundles:
            static = page.parent / "_static"
            purged = {} if purged is None else purged
            parts = []
            for f in files:
                css = css_from(Path(f), static)
                if ("purge", css) not in purged:
                    purged["purge", css] = purge(css, words)
                parts.append(f"/* {os.path.relpath(f, page.parent)} */\n{purged['purge', css]}\n")
            text = "".join(parts)
            name = f"book-{hashlib.sha256(text.encode()).hexdigest()[:12]}.css"
            (static / name).write_text(text, encoding="utf-8")
            if ("plain", text) not in purged:  # the same joined text in the other language's folder
                purged["plain", text] = plain_token_classes(text)
            bundles[files] = (f"_static/{name}", purged["plain", text])
        href, plain = bundles[files]
        first = joined[0][0]
        replaced = f'<link rel="stylesheet" type="text/css" href="{href}" />\n'
        expect = first_screen_end(rest)
        if expect:
            replaced += f'<link rel="expect" href="#{expect}" blocking="render" />\n'
        math = fonts is not None and any(Path(f).name == "katex.min.css" for f in files)
        if math:
            replaced = f'<script src="{fonts[0]}"></script>\n' + replaced
        for m, _ in reversed(joined):  # from the end, so earlier offsets stay valid
            head = head[:m.start()] + (replaced if m is first else "") + head[m.end():]
        if math:
            head = PRELOAD.sub(lambda m: "" if Path(m.group(1).split("?")[0]).name in fonts[1] else m.group(0), head)
        if "sd-tab-set" not in rest:  # sphinx-design's tab script, on a page without tabs: one request less
            head = DESIGN_TABS.sub("", head)
        if page.name != "search.html":  # the search page keeps its scripts as Sphinx names them (its tests do)
            head = join_scripts(head, page.parent, scripts if scripts is not None else {})
        rest = unwrap_plain_tokens(rest, plain)
    return head + HEAD_END + rest


# ---- Code tokens drawn as plain text lose their <span> --------------------------------------------------
# Pygments wraps every token of a code cell in a <span class="...">, names (n), punctuation (p) and spaces
# (w) included, although the book's style draws those in the code block's own colour: chapter 6 had 14,600
# elements, 10,800 of them in its code, and a phone spent 1.2 s on style and layout (Lighthouse: DOM size
# and the main thread's work were its lowest audits). A token class counts as plain only if the page's own
# stylesheet says so: every rule that names the class is `<theme> .highlight .<class>`, setting only a colour
# equal to that theme's `.highlight` colour. The pass then drops those spans (and Pygments' empty leading
# `<span></span>`) inside `<div class="highlight...">` blocks. The text is unchanged, character for character,
# and so what a reader sees and copies (tests/test_bundle.py on made-up code, tests/test_site.py on the site).

HIGHLIGHT_BLOCK = re.compile(r'(<div class="highlight[^"]*"><pre>)(.*?)(</pre>)', re.S)
THEME_TOKEN = re.compile(r'^(html\[data-theme="(?:light|dark)"\] )?\.highlight \.([\w-]+)$')
THEME_BASE = re.compile(r'^(html\[data-theme="(?:light|dark)"\] )?\.highlight$')


def plain_token_classes(css: str) -> tuple[set[str], set[str]]:
    """(the classes that a stylesheet draws exactly like the text of a `.highlight` block around them, every
    class that a selector of the stylesheet names)."""
    import tinycss2

    base: dict[str, str] = {}   # theme prefix -> the colour of `.highlight` there
    tokens: dict[str, list] = {}  # class -> [(theme prefix, declarations)] of its `.highlight .<class>` rules
    others: set[str] = set()      # classes named by any other selector

    def walk(nodes, media: bool) -> None:
        for node in nodes:
            if node.type == "at-rule" and node.content is not None and node.lower_at_keyword in GROUPING:
                walk(tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True), True)
            if node.type != "qualified-rule":
                continue
            decls = {d.lower_name: tinycss2.serialize(d.value).strip().lower()
                     for d in tinycss2.parse_blocks_contents(node.content, skip_comments=True, skip_whitespace=True)
                     if d.type == "declaration"}
            for selector in split_selectors(tinycss2.serialize(node.prelude)):
                selector = " ".join(selector.split())
                token, whole = THEME_TOKEN.match(selector), THEME_BASE.match(selector)
                if whole and not media and "color" in decls:
                    base[whole.group(1) or ""] = decls["color"]
                if token and not media:
                    tokens.setdefault(token.group(2), []).append((token.group(1) or "", decls))
                else:  # any other selector, or a token's rule that holds only in some media (print...)
                    others.update(re.sub(r"\\(.)", r"\1", c) for c in CLASS.findall(selector))

    walk(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True), False)
    plain = {name for name, rules in tokens.items() if name not in others and all(
        set(decls) == {"color"} and theme in base and decls["color"] == base[theme] for theme, decls in rules)}
    return plain, set(tokens) | others


def unwrap_plain_tokens(body: str, classes: tuple[set[str], set[str]]) -> str:
    """`body` with Pygments' empty spans unwrapped inside code blocks, and the spans whose every class is
    plain or named by no rule at all (like `g g-Whitespace`); `classes` as plain_token_classes gives them. No
    other span is touched."""
    if not classes[0]:
        return body
    plain, named = classes

    def span(m: re.Match) -> str:
        return m.group(2) if all(c in plain or c not in named for c in m.group(1).split()) else m.group(0)

    def block(m: re.Match) -> str:
        inner = re.sub(r'<span class="([^"]+)">([^<]*)</span>', span, m.group(2)).replace("<span></span>", "")
        return m.group(1) + inner + m.group(3)

    return HIGHLIGHT_BLOCK.sub(block, body)


# A script of the head that can be joined to its neighbours: a plain one, this site's file or inline code (a
# script with any other attribute keeps its tag: defer, async, a type, or data-* that it reads from its own tag
# through document.currentScript, as sphinx-design's design-tabs.js does).
SCRIPT = re.compile(r'[ \t]*<script(?: src="(?P<src>[^"]+)")?>(?P<body>.*?)</script>\n?', re.S)


def join_scripts(head: str, folder: Path, joined: dict[tuple[str, ...], str]) -> str:
    """The head with each run of two or more adjacent plain scripts, one of them at least a file, replaced by
    one file of them all, `_static/book-<hash>.js`, in their order (pages with the same run share the file):
    one request before the first paint instead of eight. The scripts run as before, one after the other,
    before the page is parsed further; only a "use strict" that opened a file no longer applies to it."""
    runs: list[list[re.Match]] = []
    for m in SCRIPT.finditer(head):
        src = m.group("src")
        if src is not None and (local(src) is None or m.group("body").strip()):
            runs.append([])  # another site's script: a barrier
            continue
        if runs and runs[-1] and head[runs[-1][-1].end():m.start()].strip() == "":
            runs[-1].append(m)
        else:
            runs.append([m])
    # a run's inline scripts after its last file stay inline, where they are: they are small and often the
    # page's own (DOCUMENTATION_OPTIONS.pagename), and in the file they would give every page a file of its own
    runs = [run[:max(i for i, m in enumerate(run) if m.group("src")) + 1] if any(m.group("src") for m in run) else run
            for run in runs]
    for run in reversed([r for r in runs if len(r) > 1 and any(m.group("src") for m in r)]):
        parts = []
        for m in run:
            if m.group("src"):
                path = (folder / local(m.group("src"))).resolve()
                if not path.is_file():
                    raise BundleError(f"{path}: a page runs this script but the site has no such file")
                parts.append((m.group("src").split("?")[0], SOURCE_MAP_LINE.sub("", path.read_text(encoding="utf-8"))))
            else:
                parts.append(("inline", m.group("body")))
        key = tuple(text for _, text in parts)
        if key not in joined:
            text = "".join(f"/* {name} */\n{body.strip()}\n;\n" for name, body in parts)
            name = f"_static/book-{hashlib.sha256(text.encode()).hexdigest()[:12]}.js"
            (folder / name).write_text(text, encoding="utf-8")
            joined[key] = name
        head = head[:run[0].start()] + f'<script src="{joined[key]}"></script>\n' + head[run[-1].end():]
    return head


def bundle_site(site: Path, font_sources: Path | None = None) -> dict:
    """Rewrites every page of each language folder of `site`; returns what it did (for the build's report).
    `font_sources`: the folder of KaTeX's fonts as TrueType (node_modules/katex/dist/fonts; the site serves only
    their woff2), by default beside the woff2 files."""
    counts: dict = {"pages": 0, "bundles": 0}
    words = site_words(site)
    katex: dict = {}
    purged: dict = {}  # one stylesheet purged once, whichever pages and folder join it (bundle_page)
    for lang_dir in sorted(p for p in site.iterdir() if p.is_dir() and (p / "_static").is_dir()):
        bundles: dict[tuple, tuple[str, tuple]] = {}
        scripts: dict[tuple[str, ...], str] = {}
        pages = sorted(lang_dir.glob("*.html"))
        # the fonts of every formula of the folder's pages, in one script that all its math pages share (a few
        # KB more on some page, one file in the browser's cache)
        faces: dict[str, tuple[str, str, str, Path, set[str]]] = {}
        for page in pages:
            for m in STYLESHEET.finditer(page.read_text(encoding="utf-8").split(HEAD_END, 1)[0]):
                path = local(m.group(1))
                if path and Path(path).name == "katex.min.css":
                    for name, (*face, chars) in page_fonts(page, (page.parent / path).resolve(), katex).items():
                        faces[name] = (*face, faces[name][4] | chars if name in faces else set(chars))
        fonts = None
        if faces:
            script = fonts_script(faces, font_sources)
            name = f"_static/book-fonts-{hashlib.sha256(script.encode()).hexdigest()[:12]}.js"
            (lang_dir / name).write_text(script, encoding="utf-8")
            fonts = (name, set(faces))
            counts["fonts"] = sorted(faces)
        for page in pages:
            text = bundle_page(page, bundles, words, fonts, scripts, purged)
            if text != page.read_text(encoding="utf-8"):
                page.write_text(text, encoding="utf-8")
                counts["pages"] += 1
        counts["bundles"] += len(bundles)
        counts["scripts"] = counts.get("scripts", 0) + len(scripts)
    return counts


# ---- KaTeX's fonts, ready before the first paint --------------------------------------------------------
# With one stylesheet a page can paint as soon as that file has arrived: before KaTeX's fonts, which the
# browser asks for only once it lays a formula out. The formula is then laid out with a fallback font's
# widths and moves when its own font comes (layout shift 0.0038 on en/05 at 4x CPU). A preload does not
# help (it starts the download sooner but never holds the paint), nor do fonts written into the stylesheet as
# data: URLs (chromium still loads those after the first layout: the same formula moved, by 0.0003). What
# does: a script in the head, before the stylesheet, that hands the fonts to the browser as bytes
# (`new FontFace(family, bytes)`, which chromium makes ready at once, before the body is even parsed).
# The script is a file of its own, shared by a language's math pages and cached. Which fonts: those that the
# formulas of the folder's pages use, worked out from KaTeX's own rules (font-family, -weight, -style, by
# class) applied to every element of every formula, as the browser would. KaTeX's @font-face rules stay in
# the stylesheet (for a reader without scripts, or a font no formula was seen to use); tests/test_browser.py
# checks that no page then fetches a KaTeX font file.

FONT_PROPS = ("font-family", "font-weight", "font-style")


class _Selector:
    """A selector of KaTeX's stylesheet as a list of (combinator, tag, classes), innermost last; only what
    KaTeX's font rules use (classes, a tag, descendant and child combinators)."""

    def __init__(self, text: str):
        self.parts: list[tuple[str, str | None, frozenset[str]]] = []
        combinator = " "
        for token in re.findall(r">|[^\s>]+", text.strip()):
            if token == ">":
                combinator = ">"
                continue
            tag = re.match(r"^[a-z]+", token)
            self.parts.append((combinator, tag.group(0) if tag else None, frozenset(re.findall(r"\.([\w-]+)", token))))
            combinator = " "
        self.plain = not re.search(r"[:\[*+~]", text)

    @staticmethod
    def _fits(part, element) -> bool:
        return (part[1] is None or part[1] == element[0]) and part[2] <= element[1]

    def matches(self, chain: list[tuple[str, frozenset[str]]]) -> bool:
        """Whether the selector matches the last element of `chain` (its ancestors before it)."""
        if not self.plain or not chain or not self._fits(self.parts[-1], chain[-1]):
            return False

        def rest(p: int, e: int) -> bool:  # parts[:p] against ancestors chain[:e]
            if p == 0:
                return True
            child = self.parts[p][0] == ">"
            for i in range(e - 1, -1, -1):
                if self._fits(self.parts[p - 1], chain[i]) and rest(p - 1, i):
                    return True
                if child:
                    return False
            return False

        return rest(len(self.parts) - 1, len(chain) - 1)


def _declarations(content) -> dict[str, str]:
    import tinycss2

    found = {}
    for d in tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True):
        if d.type != "declaration":
            continue
        value = tinycss2.serialize(d.value).strip()
        if d.lower_name == "font":  # KaTeX's only shorthand: `.katex{font:normal 1.21em KaTeX_Main,...}`
            family = re.search(r"(KaTeX_\w+)", value)
            found.update({"font-family": family.group(1) if family else "", "font-weight": "400",
                          "font-style": "normal"})
        elif d.lower_name in FONT_PROPS:
            found[d.lower_name] = value.split(",")[0].strip().strip("\"'")
    return found


def katex_font_rules(css: str) -> tuple[list[tuple[_Selector, dict[str, str]]], dict[tuple[str, str, str], str]]:
    """KaTeX's stylesheet as (the rules that set a font property, in order; the @font-face rules as
    (family, weight, style) -> their woff2 file's url)."""
    import tinycss2

    rules, faces = [], {}
    for node in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if node.type == "qualified-rule":
            found = {k: v for k, v in _declarations(node.content).items()}
            if found:
                rules += [(_Selector(s), found) for s in split_selectors(tinycss2.serialize(node.prelude))]
        elif node.type == "at-rule" and node.lower_at_keyword == "font-face":
            d = _declarations(node.content)
            url = URL.search(tinycss2.serialize(node.content))
            weight = "700" if d.get("font-weight") in ("700", "bold") else "400"
            faces[(d.get("font-family", ""), weight, d.get("font-style", "normal"))] = url.group(2)
    return rules, faces


def katex_faces(html: str, rules) -> dict[tuple[str, str, str], set[str]]:
    """The (family, weight, style) of every piece of text inside the page's formulas (class katex), with the
    characters shown in it."""
    from html.parser import HTMLParser

    void = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    used: dict[tuple[str, str, str], set[str]] = {}

    class Walk(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.chain: list[tuple[str, frozenset[str]]] = []
            self.fonts: list[dict[str, str] | None] = []  # None: outside any formula

        def handle_starttag(self, tag, attrs):
            classes = frozenset((dict(attrs).get("class") or "").split())
            parent = self.fonts[-1] if self.fonts else None
            if "katex-mathml" in classes:  # MathML for screen readers, clipped to nothing, in the browser's math font
                parent = None
            self.chain.append((tag, classes))
            font = dict(parent) if parent is not None else ({} if "katex" in classes and "katex-mathml" not in classes else None)
            if font is not None:
                for selector, declared in rules:
                    if selector.matches(self.chain):
                        font.update(declared)
            self.fonts.append(font)
            if tag in void:
                self.handle_endtag(tag)

        def handle_endtag(self, tag):
            if tag in void and self.chain and self.chain[-1][0] != tag:
                return
            while self.chain:
                popped = self.chain.pop()[0]
                self.fonts.pop()
                if popped == tag:
                    break

        def handle_data(self, data):
            font = self.fonts[-1] if self.fonts else None
            if font is not None and data.strip():
                weight = "700" if font.get("font-weight") in ("700", "bold", "bolder") else "400"
                face = (font.get("font-family", ""), weight, font.get("font-style", "normal"))
                used.setdefault(face, set()).update(data)

    walk = Walk()
    for formula in formulas(html):
        walk.feed(formula)
    return used


FORMULA = re.compile(r'<span class="katex(?:-display)?"')
SPAN_TAG = re.compile(r"<(/?)span\b")


def formulas(html: str):
    """Each outermost `<span class="katex">` (or katex-display) of the page, whole: the rest of the page has
    no formula to lay out, and reading only these is quicker."""
    at = 0
    while (start := FORMULA.search(html, at)) is not None:
        depth = 0
        for tag in SPAN_TAG.finditer(html, start.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                break
        else:
            raise BundleError("a formula's <span> is never closed")
        at = html.index(">", tag.end()) + 1
        yield html[start.start():at]


# characters a font keeps whatever the formulas show: KaTeX's equation numbers are drawn by CSS ("(" counter ")")
ALWAYS_KEPT = "0123456789()"


def subset(source: Path, chars: set[str]) -> bytes:
    """The font file `source` (TrueType) cut down to the glyphs of `chars` (fontTools, as OpenType/TrueType: the site has no
    WOFF2 encoder, and the script's bytes are gzipped on the way anyway), without hinting. Kerning and ligatures
    stay; so do the font's names, which hold its copyright and licence."""
    import io

    from fontTools import subset as fonttools_subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, recalcTimestamp=False)  # the source's date, not the build's: the same bytes every build
    options = fonttools_subset.Options()
    options.name_IDs, options.name_languages, options.notdef_outline = ["*"], ["*"], True
    options.flavor = None
    options.hinting = False  # a third of each cut-down font; browsers draw formulas at text sizes without it
    subsetter = fonttools_subset.Subsetter(options)
    subsetter.populate(unicodes=sorted({ord(c) for c in chars | set(ALWAYS_KEPT)}))
    subsetter.subset(font)
    font.flavor = None
    out = io.BytesIO()
    font.save(out, reorderTables=False)
    return out.getvalue()


def fonts_script(faces: dict[str, tuple[str, str, str, Path, set[str]]], sources: Path | None = None) -> str:
    """The script that adds each font (name -> (family, weight, style, file, the characters to keep)) to
    document.fonts, cut down to those characters."""
    lines = ["/* Written by tools/bundle.py: the KaTeX fonts (MIT licence, _vendor/katex/LICENSE) that this site's",
             "   formulas use, cut down to the characters they show, given to the browser before the first paint. */",
             "(() => {",
             "  const bytes = s => Uint8Array.from(atob(s), c => c.charCodeAt(0));",
             "  const add = (family, weight, style, data) => {",
             "    try { document.fonts.add(new FontFace(family, bytes(data), {weight, style})); } catch (e) {}",
             "  };"]
    for name, (family, weight, style, path, chars) in sorted(faces.items()):
        source = (sources / path.name if sources else path).with_suffix(".ttf")
        if not source.is_file():
            raise BundleError(f"{source}: missing (KaTeX's fonts as TrueType, which tools/bundle.py cuts down)")
        data = base64.b64encode(subset(source, chars)).decode()
        lines.append(f'  add({json.dumps(family)}, {json.dumps(weight)}, {json.dumps(style)}, "{data}");  // {name}')
    return "\n".join([*lines, "})();", ""])
