"""The book's table of contents (_toc.yml), read one way by everything that lists the pages.

_toc.yml names each page once, with `{ko: ..., en: ...}` mappings wherever the languages differ (a part's
caption, say). pick() resolves those to one language and toc_files() lists the pages in reading order. The site
builder (tools/site.py) and the landing page (tools/landing.py) both read the table here, so the tools import
one way, as the data flows: config -> source -> toc -> landing -> site.
"""

from __future__ import annotations

from tools.config import load_yaml
from tools.source import LANGS, ROOT

TOC = ROOT / "_toc.yml"


def pick(value: object, lang: str) -> object:
    """Resolve {ko: ..., en: ...} mappings (at any depth) to one language."""
    if isinstance(value, dict):
        if set(value) == set(LANGS):
            return value[lang]
        return {k: pick(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [pick(v, lang) for v in value]
    return value


def toc_files(toc: dict) -> list[str]:
    """The pages of a table already resolved to one language (pick), in reading order: root first."""
    files = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                files.append(entry["file"])
            walk(entry.get("sections"))
            walk(entry.get("chapters"))

    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return files


def load(lang: str) -> dict:
    """_toc.yml resolved to one language."""
    return pick(load_yaml(TOC), lang)
