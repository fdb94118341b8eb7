"""Build the whole site: one Jupyter Book per language, assembled under _build/html/.

    python -m tools.site build      # stage, build ko and en, assemble, print what to open
    python -m tools.site stage      # only write _build/stage/<lang>/ (config, toc, pages)

Data flow, one way: book/<lang>/*.md pages, notebooks/<lang>/*.ipynb (already executed) and the
root _config.yml/_toc.yml/book/glossary.yml  ->  _build/stage/<lang>/ (a flat Jupyter Book per
language, derived, never edited)  ->  _build/html/<lang>/  plus the site's root files
(tools/landing.py: the landing page _build/html/index.html, 404.html, sitemap.xml, the link cards' images).
Every build runs Sphinx with -W -n --keep-going: any warning fails it. The assembled pages then load one
stylesheet, and pages with math a script that gives KaTeX's fonts to the browser before the first paint
(tools/bundle.py: fewer requests before a phone paints, and no formula that moves when its font arrives).

Each chapter page also offers its two notebooks: the student notebook (student/<lang>/<stem>.ipynb, written
by `make student`) and the full notebook with the solutions (notebooks/<lang>/<stem>.ipynb). assemble() copies
them to _build/html/<lang>/_student/ and _build/html/<lang>/_notebooks/, and the header's notebook menu
(book/_templates/notebooks-menu.html) links to those copies and to the same files on GitHub in Colab.
"""

from __future__ import annotations

import argparse
import copy
import filecmp
import html
import json
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import yaml

from tools import landing, pdf
from tools.bundle import BundleError, bundle_site
from tools.config import ConfigError, colab_base, load_yaml
from tools.landing import LandingError, chapter_lines, plain, social_alt
from tools.notebooks import STUDENT_DIR as STUDENT
from tools.source import LANGS, ROOT, SourceError, parse
from tools.toc import load as load_toc
from tools.toc import toc_files

BUILD = ROOT / "_build"
STAGE = BUILD / "stage"
SITE = BUILD / "html"
LOGS = BUILD / "logs"
TEMPLATES = ROOT / "book" / "_templates"
# Folders of book/ that every language's stage gets a copy of: template overrides, the local Sphinx
# extension that installs our Korean interface strings, those strings (.po files), and the book's CSS.
STAGED_DIRS = {"_templates": ROOT / "book" / "_templates", "_ext": ROOT / "book" / "_ext",
               "_locale": ROOT / "book" / "locale", "_static": ROOT / "book" / "_static"}
# Jupyter Book's default extensions without sphinx_thebe: live code is off, and sphinx-thebe 0.3.1
# adds its settings script twice on every page (a SyntaxError in the browser console).
EXTENSIONS = ["sphinx_togglebutton", "sphinx_copybutton", "myst_nb", "jupyter_book", "sphinx_comments",
              "sphinx_external_toc", "sphinx.ext.intersphinx", "sphinx_design", "sphinx_book_theme",
              "sphinx_exercise", "book_i18n", "book_site", "book_math", "book_search"]
VENDOR = ROOT / "node_modules"
GENERATED = {"glossary"}  # pages written from data by this module
# The folder of each language's site that holds the chapters' student notebooks (Sphinx writes none of
# its own output there; the underscore keeps it apart from the pages, like _static and _sources).
STUDENT_SITE_DIR = "_student"
FULL_SITE_DIR = "_notebooks"  # the same for the full notebooks (with the solutions)
# The footer's licence links (LICENSE: text and figures CC BY 4.0, code MIT): the deed in the page's language.
CC_BY_DEED = "https://creativecommons.org/licenses/by/4.0/deed.{lang}"


class SiteError(RuntimeError):
    """A problem with the book's configuration or pages; the message says what to fix."""


def page_sources(lang: str) -> dict[str, Path | str | dict]:
    """The pages of one language's book, named as in the stage: file name -> file to copy, text, or (a
    chapter) the notebook to write."""
    toc = load_toc(lang)
    wanted: dict[str, Path | str | dict] = {}
    for name in toc_files(toc):
        page, notebook = ROOT / "book" / lang / f"{name}.md", ROOT / "notebooks" / lang / f"{name}.ipynb"
        if name in GENERATED:
            wanted[f"{name}.md"] = glossary_page(lang)
        elif page.is_file():
            wanted[f"{name}.md"] = page
        elif notebook.is_file():
            wanted[f"{name}.ipynb"] = site_page(name, lang, notebook)
        else:
            raise SiteError(f"_toc.yml names {name!r}, but neither {page.relative_to(ROOT)} nor "
                            f"{notebook.relative_to(ROOT)} exists (for a chapter, run 'make execute')")
    return wanted


def site_page(stem: str, lang: str, notebook: Path) -> dict:
    """A chapter's page as the site builds it: the executed notebook's code and outputs with the chapter
    source's MyST prose (tools.source.Chapter.site_notebook); the notebook itself is plain Markdown."""
    import nbformat

    source = ROOT / "book" / "chapters" / f"{stem}.md"
    if not source.is_file():
        raise SiteError(f"{notebook.relative_to(ROOT)} has no source {source.relative_to(ROOT)}")
    try:
        nb = parse(source).site_notebook(lang, nbformat.read(notebook, as_version=4))
    except SourceError as e:
        raise SiteError(str(e)) from None
    return nb


def student_notebooks(lang: str) -> dict[str, Path]:
    """Chapter (a page built from a notebook) -> its student notebook, student/<lang>/<stem>.ipynb."""
    found, missing = {}, []
    for stem in toc_files(load_toc(lang)):
        if stem not in GENERATED and not (ROOT / "book" / lang / f"{stem}.md").is_file():
            found[stem] = STUDENT / lang / f"{stem}.ipynb"
            if not found[stem].is_file():
                missing.append(found[stem])
    if missing:
        names = ", ".join(str(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p) for p in missing)
        raise SiteError(f"{names} {'is' if len(missing) == 1 else 'are'} missing (every chapter page offers its "
                        "student notebook): run 'make student' to write the student notebooks, then commit them")
    return found


def config_for(lang: str) -> dict:
    root = load_yaml(ROOT / "_config.yml")
    langs = root.pop("languages", None) or {}
    site_url = root.pop("site_url", None)
    if set(langs) != set(LANGS):
        raise SiteError(f"_config.yml: `languages` must have exactly the entries {', '.join(LANGS)}")
    config = copy.deepcopy(root)
    own = langs[lang]
    other = next(x for x in LANGS if x != lang)
    config["title"] = own["title"]
    config["author"] = own["author"]
    config["repository"]["path_to_book"] = f"notebooks/{lang}"
    config["sphinx"] = section = copy.deepcopy(config.get("sphinx") or {})
    section["local_extensions"] = {"book_i18n": "_ext", "book_site": "_ext", "book_math": "_ext",
                                   "book_search": "_ext"}
    # Merge our html_theme_options into Jupyter Book's instead of replacing them (which would
    # drop the launch buttons and the repository settings).
    section["recursive_update"] = True
    sphinx = section.setdefault("config", {})
    sphinx["language"] = lang
    # the words Korean readers bring from other books find the book's terms (book/_ext/book_search.py)
    sphinx["book_search_synonyms"] = search_synonyms() if lang == "ko" else {}
    if site_url:  # canonical links: each language's pages live under <site_url><lang>/
        sphinx["html_baseurl"] = f"{site_url}{lang}/"
    sphinx["extensions"] = EXTENSIONS
    sphinx["templates_path"] = ["_templates"]
    sphinx["locale_dirs"] = ["_locale"]
    # chapter -> where its student and full notebooks are in the site (paths for pathto()) and in Colab
    # ("" if Colab is off); book/_templates/notebooks-menu.html shows the menu on exactly these pages
    colab = colab_base(root)
    notebooks = {stem: {kind: {"download": f"{folder}/{stem}.ipynb",
                               "colab": f"{colab}{repo_dir}/{lang}/{stem}.ipynb" if colab else ""}
                        for kind, folder, repo_dir in (("student", STUDENT_SITE_DIR, "student"),
                                                       ("full", FULL_SITE_DIR, "notebooks"))}
                 for stem in student_notebooks(lang)}
    repo_url = str((root.get("repository") or {}).get("url") or "").rstrip("/")
    branch = (root.get("repository") or {}).get("branch") or "main"
    sphinx.setdefault("html_context", {}).update(
        {"book_lang": lang, "twin_lang": other, "twin_name": langs[other]["name"],
         "book_description": own["description"], "chapter_notebooks": notebooks,
         "book_site_url": site_url or "", "book_langs": list(LANGS),
         # a chapter's link card and <meta name=description>: its line of book/landing.yml
         "page_descriptions": page_descriptions(lang),
         "social_image_alt": social_alt(lang, own["title"]),
         "licence_urls": {"text": CC_BY_DEED.format(lang=lang), "code": f"{repo_url}/blob/{branch}/LICENSE"}})
    options = sphinx.setdefault("html_theme_options", {})
    options["article_header_end"] = ["twin-link.html", "notebooks-menu.html", "article-header-buttons.html"]
    # the theme's footer items (theme.conf of sphinx-book-theme 1.3.0) and the licences
    options["footer_content_items"] = ["author.html", "copyright.html", "last-updated.html", "extra-footer.html",
                                       "licence.html"]
    options["search_bar_text"] = own["search_bar_text"]
    # pydata-sphinx-theme 0.17.1 fills in navbar_persistent = ["search-button-field"] whenever the
    # user's options lack the key, overriding sphinx-book-theme's empty default: every page then got a
    # top bar holding a second search box above the article header. The sidebar has the search field.
    options["navbar_persistent"] = []
    sphinx.update(offline_assets())
    return config


def page_descriptions(lang: str) -> dict[str, str]:
    try:
        return {stem: plain(line[lang]) for stem, line in chapter_lines().items()}
    except LandingError as e:
        raise SiteError(str(e)) from None


def offline_assets() -> dict:
    """Sphinx settings that serve KaTeX's stylesheet from the site itself."""
    # Sphinx puts relative script paths under _static/; "../../" climbs from <site>/<lang>/_static
    # to the site root, where assemble() puts one _vendor/ folder shared by both languages.
    return {
        # math is rendered at build time (book/_ext/book_math.py: KaTeX run by Node); pages with math
        # load only KaTeX's stylesheet and fonts
        "html_math_renderer": "book_katex",
        "book_katex_assets": "../../_vendor/katex",
        "book_node_modules": str(VENDOR),
        # No page shows a saved ipywidgets view (explorers are plain HTML, see explorer_outputs), so no
        # page needs the widget manager; nothing would load it, and this keeps myst-nb from naming one.
        "nb_ipywidgets_js": {},
    }


def search_synonyms() -> dict[str, str]:
    """{other book's word: the book's term}, from the glossary's `elsewhere` lists."""
    return {word: t["ko"] for t in load_yaml(ROOT / "book" / "glossary.yml") for word in t.get("elsewhere", [])}


def glossary_page(lang: str) -> str:
    terms = load_yaml(ROOT / "book" / "glossary.yml")
    if lang == "ko":
        lines = ["(glossary-page)=", "# 용어집", "",
                 "이 책은 개념 하나에 한국어 용어 하나만 씁니다. 아래 표가 그 목록이며, 한국어 페이지와 노트북은 테스트로 이 표를 지킵니다."
                 " 다른 책에서 쓰는 말도 함께 적었습니다. 그 말로 검색해도 이 책의 용어를 찾습니다.",
                 "", "| 한국어 | English | 뜻 |", "| --- | --- | --- |"]
        rows = [f"| {t['ko']} | {t['en']} | {t['ko_meaning']}{elsewhere(t)} |" for t in sorted(terms, key=lambda t: t["ko"])]
    else:
        lines = ["(glossary-page)=", "# Glossary", "",
                 "The Korean edition uses exactly one Korean term for each concept; this table is the list, and a test keeps the Korean pages and notebooks to it.",
                 "", "| English | 한국어 | meaning |", "| --- | --- | --- |"]
        rows = [f"| {t['en']} | {t['ko']} | {t['en_meaning']} |" for t in sorted(terms, key=lambda t: t["en"].lower())]
    return "\n".join(lines + rows) + "\n"


def elsewhere(term: dict) -> str:
    """The glossary page's note of the words other Korean books use for a term (search finds the term by them)."""
    words = term.get("elsewhere") or []
    return f" 다른 책의 말: {', '.join(f'«{w}»' for w in words)}." if words else ""


def _write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _copy_if_changed(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if not dst.is_file() or not filecmp.cmp(src, dst, shallow=False):
        shutil.copyfile(src, dst)


def stage(lang: str) -> Path:
    """Write _build/stage/<lang>/: a complete, flat Jupyter Book for one language."""
    out = STAGE / lang
    toc = load_toc(lang)
    config = config_for(lang)  # first, a quick check: fails when a student notebook is missing
    wanted = page_sources(lang)  # before writing anything: reads and checks every page
    shutil.rmtree(out / EXPLORER_DIR, ignore_errors=True)  # rewritten below, none left stale
    for name, src in wanted.items():
        if name.endswith(".ipynb"):  # a chapter page (site_page): its explorers become HTML
            nb = explorer_outputs(src, name.removesuffix(".ipynb"), lang, out / EXPLORER_DIR)
            _write_if_changed(out / name, json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        elif isinstance(src, Path):
            _copy_if_changed(src, out / name)
        else:
            _write_if_changed(out / name, src)
    for name, folder in STAGED_DIRS.items():
        for src in sorted(folder.rglob("*")):
            if src.is_file() and src.suffix in (".html", ".py", ".po", ".css", ".svg", ".js"):
                _copy_if_changed(src, out / name / src.relative_to(folder))
    _write_if_changed(out / "_config.yml", yaml.safe_dump(config, allow_unicode=True, sort_keys=False))
    _write_if_changed(out / "_toc.yml", yaml.safe_dump(toc, allow_unicode=True, sort_keys=False))
    keep = set(wanted) | {"_config.yml", "_toc.yml", "_build", EXPLORER_DIR} | set(STAGED_DIRS)
    for stale in out.iterdir():
        if stale.name not in keep:
            shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
    return out


# Explorers (book/chapters/_explorer_helper.py): a notebook cell that calls explorer() stores, beside the
# live ipywidgets view for Jupyter and Colab, the output of every setting of its controls under this
# MIME type. The site has no kernel: explorer_outputs() turns that output into plain HTML controls and
# the first setting's output, and writes every setting to a script in the language's _explorers/ (assemble()
# copies it beside the pages), which book/assets/explorer.js loads when the explorer nears the screen.
EXPLORER_MIME = "application/vnd.book.explorer+json"
EXPLORER_DIR = "_explorers"  # in each language's stage and site; not _static, whose scripts every page loads
EXPLORER_WORDS = {"ko": {"controls": "탐색기 설정", "output": "탐색기 출력"},
                  "en": {"controls": "explorer settings", "output": "explorer output"}}


def explorer_outputs(nb: dict, stem: str, lang: str, states_dir: Path) -> dict:
    """Change a notebook (as a dict, in place) for the site: each explorer output becomes HTML
    (explorer_html) and its states the script states_dir/<stem>-<cell id>.js; the saved ipywidgets state
    goes, the site draws no widget. The page finds the file in its folder's EXPLORER_DIR."""
    nb.get("metadata", {}).pop("widgets", None)
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if EXPLORER_MIME not in data:
                continue
            explorer = data[EXPLORER_MIME]
            name = f"{stem}-{cell['id']}.js"
            _write_if_changed(states_dir / name, explorer_states_script(name, explorer))
            alt = ((cell.get("metadata", {}).get("mystnb") or {}).get("image") or {}).get("alt")
            if not alt:
                raise SiteError(f"{stem} ({lang}) cell {cell['id']}: an explorer's figure needs alt text "
                                "('#ko alt:' and '#en alt:' lines in its source cell)")
            output["data"] = {"text/html": explorer_html(explorer, lang, alt, f"{EXPLORER_DIR}/{name}", cell["id"])}
    return nb


def explorer_states_script(name: str, explorer: dict) -> str:
    """The states file: a script (not a JSON file to fetch, which browsers refuse on a page opened from
    file://) that hands every setting's output, and the controls' value labels, to book/assets/explorer.js."""
    data = json.dumps({"controls": [c["labels"] for c in explorer["controls"]], "states": explorer["states"]},
                      ensure_ascii=False, separators=(",", ":"))
    return f"bookExplorerStates({json.dumps(name)}, {data});\n"


def explorer_html(explorer: dict, lang: str, alt: str, states: str, cell_id: str) -> str:
    """HTML controls named as in the notebook, and the output of the explorer's first setting."""
    e, words = html.escape, EXPLORER_WORDS[lang]
    default = [int(i) for i in explorer["default"].split(",")]
    controls = []
    for n, (c, chosen) in enumerate(zip(explorer["controls"], default, strict=True)):
        cid, label = f"explorer-{cell_id}-{n}", e(c["label"])
        if c["kind"] == "select":
            options = "".join(f'<option value="{i}"{" selected" if i == chosen else ""}>{e(t)}</option>'
                              for i, t in enumerate(c["labels"]))
            controls.append(f'<div class="explorer-control"><label for="{cid}">{label}</label>'
                            f'<select id="{cid}" disabled>{options}</select></div>')
        elif c["kind"] == "range":
            controls.append(f'<div class="explorer-control"><label for="{cid}">{label}</label>'
                            f'<input type="range" id="{cid}" min="0" max="{len(c["labels"]) - 1}" step="1" '
                            f'value="{chosen}" aria-valuetext="{e(c["labels"][chosen])}" disabled>'
                            f'<output for="{cid}">{e(c["labels"][chosen])}</output></div>')
        elif c["kind"] == "buttons":
            options = "".join(f'<label><input type="radio" name="{cid}" value="{i}"{" checked" if i == chosen else ""} '
                              f'disabled><span>{e(t)}</span></label>' for i, t in enumerate(c["labels"]))
            controls.append(f'<fieldset class="explorer-control explorer-buttons"><legend>{label}</legend>{options}</fieldset>')
        elif c["kind"] == "checkbox":
            controls.append(f'<div class="explorer-control"><input type="checkbox" id="{cid}"{" checked" if chosen else ""} '
                            f'disabled><label for="{cid}">{label}</label></div>')
        else:
            raise SiteError(f"explorer control {c['label']!r} has an unknown kind {c['kind']!r}")
    first = explorer["states"][explorer["default"]]
    figures = "".join(f'<img alt="{e(alt)}" src="data:image/svg+xml;charset=utf-8,{quote(svg)}">' for svg in first["figures"])
    return (f'<div class="book-explorer" data-states="{e(states)}" data-alt="{e(alt)}">'
            f'<div class="explorer-controls" role="group" aria-label="{e(words["controls"])}">{"".join(controls)}</div>'
            f'<div class="explorer-output" role="region" aria-label="{e(words["output"])}" aria-live="polite">'
            f'<div class="explorer-figures">{figures}</div><pre class="explorer-text">{e(first["text"])}</pre></div>'
            '<link rel="stylesheet" href="../_vendor/explorer/explorer.css">'
            '<script defer src="../_vendor/explorer/explorer.js"></script></div>')


# What the site serves from _vendor/: site path -> file or folder in node_modules (pinned by
# package-lock.json, installed by `npm ci`). A folder is copied with the files whose names end in
# one of the given suffixes (MathJax loads its fonts relative to the script).
VENDOR_FILES = {
    "katex/LICENSE": "katex/LICENSE",
}
VENDOR_DIRS = {
    # KaTeX's fonts: every current browser takes woff2 (katex.min.css is rewritten to name only those)
    "katex/fonts": ("katex/dist/fonts", (".woff2",)),
}
# Our own scripts: the explorers' switcher and its styles, which each explorer's HTML names
# (explorer_html); the script fetches an explorer's states when it nears the screen.
VENDOR_OWN = {"explorer/explorer.js": ROOT / "book" / "assets" / "explorer.js",
              "explorer/explorer.css": ROOT / "book" / "assets" / "explorer.css"}
# Jinja macro files that pydata-sphinx-theme and sphinx-book-theme keep in their static folders, so
# Sphinx copies them into every build's _static/: not pages, never linked; the site leaves them out.
THEME_MACROS = ("webpack-macros.html", "sbt-webpack-macros.html")


def katex_css() -> str:
    """KaTeX's stylesheet naming only the woff2 fonts (the site serves no .woff or .ttf)."""
    src = VENDOR / "katex" / "dist" / "katex.min.css"
    if not src.is_file():
        raise SiteError("node_modules/katex/dist/katex.min.css is missing: run 'npm ci' (package-lock.json pins katex)")
    css = re.sub(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)', "", src.read_text(encoding="utf-8"))
    if re.search(r"\.(?:woff|ttf)\)", css):
        raise SiteError("node_modules/katex/dist/katex.min.css: its @font-face rules changed; update katex_css() in tools/site.py")
    return css


def copy_vendor(out: Path) -> None:
    if not VENDOR.is_dir():
        raise SiteError("node_modules/ is missing: run 'make book' (it runs 'npm ci') to fetch KaTeX")
    _write_if_changed(out / "katex" / "katex.min.css", katex_css())
    for dst, src in VENDOR_FILES.items():
        if not (VENDOR / src).is_file():
            raise SiteError(f"node_modules/{src} is missing: run 'npm ci' (package-lock.json pins it)")
        _copy_if_changed(VENDOR / src, out / dst)
    for dst, src in VENDOR_OWN.items():
        _copy_if_changed(src, out / dst)
    for dst, (src, suffixes) in VENDOR_DIRS.items():
        for f in sorted((VENDOR / src).iterdir()):
            if f.suffix in suffixes:
                _copy_if_changed(f, out / dst / f.name)


def static_outdated(src: Path) -> bool:
    """Whether a file of the stage's _static/ differs from the one in its last build, or our Sphinx extensions
    (_ext/) changed since then. Sphinx copies static files only when it writes a page, so a change to the CSS
    alone would never reach the site; nor does it notice that an extension changed what it writes."""
    built = src / "_build" / "html" / "_static"
    for f in (src / "_static").rglob("*"):
        copy = built / f.relative_to(src / "_static")
        if f.is_file() and not (copy.is_file() and filecmp.cmp(f, copy, shallow=False)):
            return True
    return _ext_stamp(src) != _read(src / "_build" / EXT_STAMP)


EXT_STAMP = "book-ext.stamp"  # in the stage's _build/: the _ext/ sources its last build ran with


def _ext_stamp(src: Path) -> str:
    return "".join(f"{f.name}\n{f.read_text(encoding='utf-8')}" for f in sorted((src / "_ext").glob("*.py")))


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def build_one(lang: str) -> dict:
    src = stage(lang)
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"{lang}.log"
    cmd = [str(Path(sys.executable).parent / "jupyter-book"), "build", str(src), "--builder", "html",
           "-W", "-n", "--keep-going"] + (["--all"] if static_outdated(src) else [])
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - start
    output = re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout + proc.stderr)  # drop terminal colours
    log.write_text(output, encoding="utf-8")
    if proc.returncode == 0:
        (src / "_build" / EXT_STAMP).write_text(_ext_stamp(src), encoding="utf-8")
    warnings = [line for line in output.splitlines() if re.search(r"WARNING|ERROR", line)]
    return {"lang": lang, "returncode": proc.returncode, "seconds": seconds, "warnings": warnings, "log": log,
            "html": src / "_build" / "html"}


def front_door(site: Path) -> None:
    """The site's root files (tools/landing.py): the landing page, its figures, the 404 page, the link cards'
    images, sitemap.xml and robots.txt. The PDF edition of the last `make pdf` goes in too (tools/pdf.py's shelve):
    the landing page links the PDFs the site has, and only those."""
    try:
        pdfs = pdf.shelve(site)
        (site / "index.html").write_text(landing.landing_page(pdfs=pdfs), encoding="utf-8")
        for name, svg in landing.figures().items():
            (site / name).write_text(svg, encoding="utf-8")
        (site / "404.html").write_text(landing.not_found_page(), encoding="utf-8")
        for lang in LANGS:
            landing.social_image(lang, site, BUILD / "social")
        site_url = load_yaml(ROOT / "_config.yml").get("site_url") or ""
        if site_url:
            (site / "sitemap.xml").write_text(landing.sitemap(site, site_url), encoding="utf-8")
            (site / "robots.txt").write_text(landing.robots(site_url), encoding="utf-8")
    except (landing.LandingError, pdf.ShelfError) as e:
        raise SiteError(str(e)) from None


def assemble(results: list[dict]) -> None:
    tmp = BUILD / "html.new"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for r in results:
        shutil.copytree(r["html"], tmp / r["lang"], ignore=shutil.ignore_patterns(*THEME_MACROS))
        if (STAGE / r["lang"] / EXPLORER_DIR).is_dir():  # the explorers' states, beside the pages that load them
            shutil.copytree(STAGE / r["lang"] / EXPLORER_DIR, tmp / r["lang"] / EXPLORER_DIR)
        for stem, src in student_notebooks(r["lang"]).items():  # the chapter pages' notebook downloads
            _copy_if_changed(src, tmp / r["lang"] / STUDENT_SITE_DIR / f"{stem}.ipynb")
            full = ROOT / "notebooks" / r["lang"] / f"{stem}.ipynb"  # plain Markdown, as readers open it
            _copy_if_changed(full, tmp / r["lang"] / FULL_SITE_DIR / f"{stem}.ipynb")
            # the page's source is the notebook readers open, not the MyST page the site was built from
            _copy_if_changed(full, tmp / r["lang"] / "_sources" / f"{stem}.ipynb")
    copy_vendor(tmp / "_vendor")
    try:
        bundle_site(tmp, VENDOR / "katex" / "dist" / "fonts")
    except BundleError as e:
        raise SiteError(f"joining the pages' stylesheets (tools/bundle.py): {e}") from e
    front_door(tmp)
    (tmp / ".nojekyll").write_text("", encoding="utf-8")
    shutil.rmtree(SITE, ignore_errors=True)
    tmp.rename(SITE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.site", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["build", "stage"])
    args = parser.parse_args(argv)
    try:
        copy_vendor(BUILD / "vendor-check")  # fail before building when node_modules is missing
        shutil.rmtree(BUILD / "vendor-check")
        for lang in LANGS:
            stage(lang)
        if args.command == "stage":
            print(f"staged {', '.join(str((STAGE / lang).relative_to(ROOT)) for lang in LANGS)}")
            return 0
        with ThreadPoolExecutor(max_workers=len(LANGS)) as pool:
            results = list(pool.map(build_one, LANGS))
    except (SiteError, ConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    failed = False
    for r in results:
        status = "ok" if r["returncode"] == 0 and not r["warnings"] else "FAILED"
        print(f"{r['lang']}: {status} in {r['seconds']:.1f} s, {len(r['warnings'])} warnings (log: {r['log'].relative_to(ROOT)})")
        for w in r["warnings"][:20]:
            print(f"  {w}")
        failed |= status != "ok"
    if failed:
        print("error: the site build has warnings or errors (listed above); fix them, the build allows none",
              file=sys.stderr)
        return 1
    try:
        assemble(results)
    except (SiteError, ConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    (BUILD / "site.json").write_text(json.dumps({r["lang"]: {"seconds": round(r["seconds"], 1),
                                                             "warnings": len(r["warnings"])} for r in results}))
    print(f"site ready: open {(SITE / 'index.html').relative_to(ROOT)}, or run 'make serve' and visit http://127.0.0.1:8000/")
    shelved = sorted(SITE.glob("*/pdf/*.pdf"))
    print(f"PDF edition: {len(shelved)} files of the last 'make pdf' linked" if shelved
          else "PDF edition: not built yet, so not linked ('make pdf' prints it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
