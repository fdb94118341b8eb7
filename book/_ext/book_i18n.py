"""Let the book override/add gettext strings of themes and extensions.

Sphinx reads only the ``sphinx`` domain (Sphinx + pydata-sphinx-theme + our
templates' ``_()``) from ``locale_dirs`` and compiles that sphinx.po itself.
Catalogs that extensions register with ``app.add_message_catalog`` (booktheme,
exercise, togglebutton, ...) are looked up only in the extension's own folder,
and a second registration only becomes a *fallback*.

This extension compiles every other ``<locale_dir>/<language>/LC_MESSAGES/<domain>.po``
to ``.mo`` with babel (a Sphinx dependency) and puts it *in front of* the
catalog the extension ships: our msgids win, everything else falls back.
It runs at ``config-inited`` with high priority, i.e. before sphinx-exercise
computes ``numfig_format`` from its catalog.

It also adds Korean strings to sphinx-copybutton's built-in JS table, which has
no gettext catalog (``copybutton_messages`` config value, keyed by <html lang>),
and translates the label "Toggle hidden content" that two extensions write in English whatever
the language, and a screen reader reads out: the ``aria-label`` of the button sphinx-togglebutton's
JS adds to every dropdown (the exercises' solutions, the self-check questions). The
translation is the msgid "Toggle hidden content" of the ``sphinx`` domain
(locale/<lang>/LC_MESSAGES/sphinx.po). The ``<summary>`` myst-nb 1.x wraps around a hidden cell
input (``hide-input`` and ``drawing`` cells) loses that label, so that its visible words ("Show code
cell source", translated by the msgids of the same name) are its name.
"""
from __future__ import annotations

import gettext
import json
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput, visit_HideCellInput
from sphinx.locale import NullTranslations, _, translators

HIDDEN_LABEL = 'aria-label="Toggle hidden content"'

COPYBUTTON_KO = {
    "copy": "복사",
    "copy_to_clipboard": "클립보드에 복사",
    "copy_success": "복사했습니다!",
    "copy_failure": "복사하지 못했습니다",
}


def _install_catalogs(app, config) -> None:
    lang = config.language
    if not lang:
        return
    for d in config.locale_dirs:
        root = Path(app.confdir, d)
        for po in sorted((root / lang / "LC_MESSAGES").glob("*.po")):
            domain = po.stem
            if domain == "sphinx":  # Sphinx compiles and loads this one itself
                continue
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
                with po.open("rb") as f:
                    catalog = read_po(f, locale=lang, domain=domain)
                with mo.open("wb") as f:
                    write_mo(f, catalog)
            ours = gettext.translation(domain, localedir=str(root), languages=[lang])
            key = ("general", domain)
            shipped = translators.get(key)
            if shipped is not None and shipped.__class__ is not NullTranslations:
                ours.add_fallback(shipped)
            translators[key] = ours


def _copybutton_messages(app) -> None:
    messages = dict(app.config.copybutton_messages)
    if app.config.language == "ko":
        messages.setdefault("ko", COPYBUTTON_KO)
    if messages:
        # copybutton.js declares `const messages` and `let locale` at top level;
        # this runs after it (same priority, added later) and before DOMContentLoaded.
        body = (
            f"Object.assign(messages, {json.dumps(messages, ensure_ascii=False)});"
            "if (messages[document.documentElement.lang]) locale = document.documentElement.lang;"
        )
        # filename "" rather than None: Sphinx 7.4 re-adds registry scripts in
        # prepare_writing() as `js_filename or ''`, so a None added after
        # Builder.init() is emitted twice.
        app.add_js_file("", body=body)


def _togglebutton_label(app) -> None:
    label = str(_("Toggle hidden content"))
    if label != "Toggle hidden content":
        # togglebutton.js adds its buttons on DOMContentLoaded (or at once, if the page is loaded);
        # this listener is added after it, so it runs after the buttons exist.
        body = (
            "(() => { const relabel = () => document.querySelectorAll('button.toggle-button')"
            f".forEach((b) => b.setAttribute('aria-label', {json.dumps(label, ensure_ascii=False)}));"
            " if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', relabel);"
            " else relabel(); })();"
        )
        app.add_js_file("", body=body)


def _visit_hidden_input(self, node) -> None:
    # The <summary>'s visible words ("Show code cell source", in the page's language) are its name: an
    # aria-label that says something else would be a label-content-name mismatch for speech users.
    node["prompt_show"], node["prompt_hide"] = str(_(node["prompt_show"])), str(_(node["prompt_hide"]))
    start = len(self.body)
    visit_HideCellInput(self, node)
    self.body[start:] = [part.replace(f" {HIDDEN_LABEL}", "") for part in self.body[start:]]


def setup(app):
    # after myst_nb (see tools/site.py EXTENSIONS): our visitor replaces its
    app.add_node(HideCodeCellNode, override=True, html=(_visit_hidden_input, depart_HideCellInput))
    app.add_config_value("copybutton_messages", {}, "html")
    app.connect("config-inited", _install_catalogs, priority=100)
    app.connect("builder-inited", _copybutton_messages)
    app.connect("builder-inited", _togglebutton_label)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
