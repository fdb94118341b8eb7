"""Carry a notebook cell's image alt text to the figures its saved widgets show.

myst-nb gives an image output of a cell the alt text in the cell's metadata
``{"mystnb": {"image": {"alt": "..."}}}``. An ipywidgets explorer's figure, though, is not an
image output: it lives in the page's saved widget state and the widget manager draws it in the
browser, as an ``<img>`` without alt. This extension copies the cell's alt text onto the cell's
widget-view script as ``data-alt``; the site's ``widgets/fixes.js`` (loaded on pages with widgets)
gives it to the images drawn for that view.
"""
from __future__ import annotations

import html

from docutils import nodes

WIDGET_VIEW = '<script type="application/vnd.jupyter.widget-view+json">'


def _cell_alt(cell: nodes.Element) -> str | None:
    meta = cell.get("cell_metadata") or {}
    alt = ((meta.get("mystnb") or {}).get("image") or {}).get("alt")
    return str(alt) if alt else None


def _widget_alt(app, doctree, docname) -> None:
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") != "cell_code" or not (alt := _cell_alt(cell)):
            continue
        for raw in list(cell.findall(nodes.raw)):
            text = raw.astext()
            if raw.get("format") == "html" and text.startswith(WIDGET_VIEW):
                tagged = text.replace(WIDGET_VIEW, WIDGET_VIEW[:-1] + f' data-alt="{html.escape(alt)}">', 1)
                raw.replace_self(nodes.raw(tagged, tagged, format="html"))


def setup(app):
    app.connect("doctree-resolved", _widget_alt)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
