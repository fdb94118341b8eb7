"""Let a reader open a notebook figure at full size: every image a code cell's output shows becomes a
link to its own file (``_images/...svg``), so a tap or a click (or Enter on the focused link) opens the
figure alone, where a phone can zoom it. No script: a plain link, named by the image's alt text.
"""
from __future__ import annotations

import posixpath

from docutils import nodes


def _link_figures(app, doctree, docname) -> None:
    if app.builder.format != "html":
        return
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") != "cell_code_output":
            continue
        for image in list(cell.findall(nodes.image)):
            if isinstance(image.parent, nodes.reference):
                continue
            uri = image["uri"]
            if uri.startswith("data:") or uri not in app.env.images:
                continue
            target = posixpath.join("_images", app.env.images[uri][1])
            link = nodes.reference("", "", internal=True, classes=["figure-full"],
                                   refuri=posixpath.relpath(target, posixpath.dirname(docname) or "."))
            image.replace_self(link)
            link.append(image)


def setup(app):
    app.connect("doctree-resolved", _link_figures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
