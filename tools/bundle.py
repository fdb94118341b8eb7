"""Fewer requests before a page can paint (issue 13: Lighthouse mobile performance on every chapter page).

Sphinx and its themes put 12 stylesheets and 9 scripts in each page's head, and a browser paints nothing
until it has fetched all of them: on a phone's connection (Lighthouse's mobile profile: 150 ms round trips,
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
  the joined file falls from about 100 KB to about 25 KB gzipped. Selectors inside :not(), :is(), :has()
  and attribute values are not judged (a missing class there can widen a match, not narrow it).
- moves the head's scripts (the theme's, Sphinx's, the extensions', in their order) to the end of the body,
  where they run, still in order and before `DOMContentLoaded`, after the page has been parsed and can paint.
  Only the theme's colour-mode script stays in the head: it must run before the first paint. The search page
  keeps its head as it is (its inline scripts expect Sphinx's order there).

Nothing here changes what a page shows or does: tests/test_site.py checks the rewriting, the browser tests
check the pages (their styles, toggles, copy buttons, explorers, console errors).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

HEAD_END = "</head>"
STYLESHEET = re.compile(r'[ \t]*<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="([^"]+)"[^>]*>\n?')
SCRIPT = re.compile(r"[ \t]*<script\b[^>]*>.*?</script>\n?", re.S)
IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?(["']?)([^"')\s]+)\1\s*\)?\s*;""")
URL = re.compile(r"""url\(\s*(["']?)(.*?)\1\s*\)""")
SOURCE_MAP = re.compile(r"/\*[#@]\s*sourceMappingURL=[^*]*\*/")
CHARSET = re.compile(r'@charset\s+"[^"]*"\s*;')
# stays in the head: the theme's script that sets light/dark mode before the first paint
KEEP_IN_HEAD = 'data-cfasync="false"'
PAGES_KEPT = ("search.html",)


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


def bundle_page(page: Path, bundles: dict[tuple[str, ...], str], words: set[str]) -> str:
    """The page's HTML with its head's stylesheets joined (writing the bundle if new) and its head's
    scripts moved to the end of the body."""
    html = page.read_text(encoding="utf-8")
    if HEAD_END not in html or page.name in PAGES_KEPT:
        return html
    head, rest = html.split(HEAD_END, 1)
    links = [(m, local(m.group(1))) for m in STYLESHEET.finditer(head)]
    joined = [(m, path) for m, path in links if path]
    if len(joined) > 1 and len(joined) == len(links):  # another site's stylesheet: order unknowable, left as is
        files = tuple(str((page.parent / path).resolve()) for _, path in joined)
        if files not in bundles:
            static = page.parent / "_static"
            text = "".join(f"/* {os.path.relpath(f, page.parent)} */\n{purge(css_from(Path(f), static), words)}\n"
                           for f in files)
            name = f"book-{hashlib.sha256(text.encode()).hexdigest()[:12]}.css"
            (static / name).write_text(text, encoding="utf-8")
            bundles[files] = f"_static/{name}"
        first = joined[0][0]
        replaced = f'<link rel="stylesheet" type="text/css" href="{bundles[files]}" />\n'
        for m, _ in reversed(joined):  # from the end, so earlier offsets stay valid
            head = head[:m.start()] + (replaced if m is first else "") + head[m.end():]
    scripts = [m for m in SCRIPT.finditer(head) if KEEP_IN_HEAD not in m.group(0).split(">", 1)[0]]
    for m in reversed(scripts):
        head = head[:m.start()] + head[m.end():]
    if scripts:
        if rest.count("</body>") != 1:
            raise BundleError(f"{page}: expected one </body> to move the head's scripts before")
        moved = "".join(m.group(0).strip() + "\n" for m in scripts)
        rest = rest.replace("</body>", moved + "</body>")
    return head + HEAD_END + rest


def bundle_site(site: Path) -> dict:
    """Rewrites every page of each language folder of `site`; returns what it did (for the build's report)."""
    counts = {"pages": 0, "bundles": 0}
    words = site_words(site)
    for lang_dir in sorted(p for p in site.iterdir() if p.is_dir() and (p / "_static").is_dir()):
        bundles: dict[tuple[str, ...], str] = {}
        for page in sorted(lang_dir.glob("*.html")):
            text = bundle_page(page, bundles, words)
            if text != page.read_text(encoding="utf-8"):
                page.write_text(text, encoding="utf-8")
                counts["pages"] += 1
        counts["bundles"] += len(bundles)
    return counts
