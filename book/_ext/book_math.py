"""Math rendered when the site is built, not in the reader's browser.

Every math node (inline ``$...$``, display ``$$...$$``) becomes KaTeX's HTML (with MathML for screen readers)
during the build: ``katex-render.js`` runs KaTeX (node_modules/katex, pinned by package-lock.json) with Node,
once per page for all of its formulas. The page then holds no TeX to typeset: nothing shows raw TeX while a
script loads, and nothing moves when it finishes (MathJax did both, and weighed 1.16 MB). Only pages with
math get KaTeX's stylesheet (and a preload of its two most used fonts); no page gets a math script. A formula
KaTeX cannot parse fails the build with the formula and KaTeX's message.

Config: ``book_katex_assets`` (where the site serves katex.min.css and fonts/, relative to a page's
``_static/``), ``book_node_modules`` (the folder that holds katex/).
"""
from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.locale import _
from sphinx.util import logging

logger = logging.getLogger(__name__)
RENDERER = Path(__file__).with_name("katex-render.js")
# the fonts nearly every formula uses (roman and math italic): fetched with the stylesheet, not after it
PRELOAD_FONTS = ("KaTeX_Main-Regular.woff2", "KaTeX_Math-Italic.woff2")
_cache: dict[tuple[str, bool], str] = {}


def _parts(node: nodes.Element) -> list[str]:
    """The formulas of a display block: Sphinx separates several equations of one block by a blank line."""
    return [part for part in node.astext().split("\n\n") if part.strip()]


def _wanted(node: nodes.Element) -> list[tuple[str, bool]]:
    if isinstance(node, nodes.math_block):
        return [(part, True) for part in _parts(node)]
    return [(node.astext(), False)]


def _render(app, formulas: list[tuple[str, bool]], where: str) -> None:
    todo = sorted({f for f in formulas if f not in _cache})
    if not todo:
        return
    node = shutil.which("node")
    if node is None:
        raise ExtensionError("book_math: Node.js is not installed; it renders the book's math at build time (install Node 20)")
    modules = Path(app.config.book_node_modules)
    if not (modules / "katex").is_dir():
        raise ExtensionError(f"book_math: {modules / 'katex'} is missing: run 'npm ci' (package-lock.json pins katex)")
    proc = subprocess.run([node, str(RENDERER)], input=json.dumps([{"tex": t, "display": d} for t, d in todo]),
                          capture_output=True, text=True, env={**os.environ, "NODE_PATH": str(modules)})
    if proc.returncode != 0:
        raise ExtensionError(f"book_math: katex-render.js failed: {proc.stderr[-2000:]}")
    for (tex, display), result in zip(todo, json.loads(proc.stdout), strict=True):
        if "error" in result:
            logger.warning("%s: KaTeX cannot render %r: %s", where, tex, result["error"], type="book_math")
            result = {"html": f'<span class="katex-error">{html.escape(tex)}</span>'}
        _cache[(tex, display)] = result["html"]


def _render_page(app, doctree, docname) -> None:
    formulas = [f for node in doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block))) for f in _wanted(node)]
    _render(app, formulas, docname)


def _html(self, tex: str, display: bool) -> str:
    if (tex, display) not in _cache:  # math outside the page's own doctree (e.g. a title in the sidebar)
        _render(self.builder.app, [(tex, display)], self.builder.current_docname)
    return _cache[(tex, display)]


def visit_math(self, node: nodes.math) -> None:
    self.body.append(_html(self, node.astext(), False))
    raise nodes.SkipNode


def visit_math_block(self, node: nodes.math_block) -> None:
    if node.get("number"):  # numbered equations, as Sphinx's own math renderers write them
        self.body.append(f'<div class="math-wrapper" id="{node["ids"][0] if node["ids"] else ""}">')
        self.body.append(f'<span class="eqno">({node["number"]})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    else:
        self.body.append('<div class="math-wrapper">')
    for part in _parts(node):
        self.body.append(_html(self, part, True))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def _page_assets(app, pagename, templatename, context, doctree) -> None:
    # the page's own math (the math domain's has_equations() also counts the pages of its table of contents)
    if doctree is None or not any(doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block)))):
        return
    base = app.config.book_katex_assets.rstrip("/")
    app.add_css_file(f"{base}/katex.min.css", priority=450)
    preload = "".join(f'<link rel="preload" href="{context["pathto"]("_static/" + base + "/fonts/" + font, 1)}" '
                      'as="font" type="font/woff2" crossorigin>' for font in PRELOAD_FONTS)
    context["metatags"] = context.get("metatags", "") + preload


def setup(app):
    app.add_config_value("book_katex_assets", "../../_vendor/katex", "html")
    app.add_config_value("book_node_modules", str(Path(__file__).resolve().parents[4] / "node_modules"), "html")
    app.add_html_math_renderer("book_katex", (visit_math, None), (visit_math_block, None))
    app.connect("doctree-resolved", _render_page)
    app.connect("html-page-context", _page_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
