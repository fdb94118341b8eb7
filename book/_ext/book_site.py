"""The book's changes to what sphinx-book-theme puts on a page.

- Header buttons: a chapter's notebooks are offered by one menu that names them (student notebook, without
  solutions; full notebook, with them: book/_templates/notebooks-menu.html). The theme's launch button (a rocket
  whose only item is "Colab", for the full notebook) and its download item for the page's source (".ipynb", the
  same notebook) said neither, so they go on the pages that have that menu.
- The link to the same page in the other language (book/_templates/twin-link.html) keeps the reader's place:
  when followed, it carries the section in view as its anchor (both languages give a section the same id).
"""
from __future__ import annotations

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


def setup(app):
    app.add_js_file("", body=TWIN_ANCHOR)  # "" not None: see book_i18n.py
    # after sphinx-book-theme has added its buttons (priority 501)
    app.connect("html-page-context", _header_buttons, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
