"""The site's front door and what makes its links share well, written by tools/site.py's assemble():

- index.html, the landing page (book/_templates/landing.html.in): the book in both languages, one shown at a
  time (the reader's last choice, kept in localStorage; else the browser's language), with the chapters from
  _toc.yml, each with its title and study time as the chapter's own head states them (book/chapters/*.md),
  its line from book/landing.yml, its notebooks in Colab and its PDF handout, and one of the book's figures
  (an SVG a notebook drew, taken from the notebook of that language).
- 404.html (book/_templates/404.html.in): GitHub Pages serves it for any missing address of the site; it
  speaks the language of the address (/ko/...), else the reader's choice.
- sitemap.xml and robots.txt: every page of both languages, each with its twin as an alternate.
- social-<lang>.png: the preview image of every page's link card (Open Graph, Twitter), drawn with
  matplotlib from the book's title, description and chapter titles; redrawn only when those change.

Everything here comes from the book's sources; nothing is fetched, nothing here runs in a reader's browser
but the language choice (a few lines, inline).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape as xml_escape

from tools import toc
from tools.config import colab_base, load_yaml
from tools.source import LANGS, ROOT, SourceError, parse

TEMPLATES = ROOT / "book" / "_templates"
LANDING_DATA = ROOT / "book" / "landing.yml"
CHAPTER_SOURCES = ROOT / "book" / "chapters"
# The figure the landing page shows: the first figure of this chapter's notebook, in the page's language.
FIGURE_CHAPTER = "06_multi_head_attention"
SOCIAL_SIZE = (1200, 630)  # Open Graph's recommended card size, in pixels
# A chapter's head states its study time in one of these forms (tools.source.study_minutes is the rule;
# tests/test_source.py keeps the heads to it); the landing page quotes it.
TIME = {"ko": re.compile(r"예상 시간: ((\d+)분\([^)]*\))"),
        "en": re.compile(r"Time: ((?:about )?(\d+) minutes \([^)]*\))")}
PLACEHOLDER = re.compile(r"{{ ([a-z_]+) }}")


class LandingError(RuntimeError):
    """A problem with the landing page's sources; the message says what to fix."""


def toc_chapters() -> list[str]:
    """The chapters in _toc.yml's order: the pages built from a chapter source."""
    return [f for f in toc.toc_files(toc.load("en")) if (CHAPTER_SOURCES / f"{f}.md").is_file()]


@cache
def chapter_lines() -> dict[str, dict[str, str]]:
    data = load_yaml(LANDING_DATA) or {}
    lines = data.get("chapters") or {}
    wanted = toc_chapters()
    missing = [s for s in wanted if set(lines.get(s) or {}) != set(LANGS)]
    extra = [s for s in lines if s not in wanted]
    if missing or extra:
        raise LandingError(f"{LANDING_DATA.name}: every chapter of _toc.yml needs one line in each language "
                           f"({', '.join(LANGS)}); missing or incomplete: {missing or 'none'}; not in _toc.yml: {extra or 'none'}")
    return lines


def plain(text: str) -> str:
    """A line of book/landing.yml as plain text (link previews, <meta name=description>)."""
    return text.replace("`", "")


def inline_html(text: str) -> str:
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


@cache
def chapters(lang: str) -> list[dict]:
    """Each chapter of _toc.yml in `lang`: stem, title, line, the time as its head states it, and its minutes."""
    found = []
    for stem in toc_chapters():
        source = CHAPTER_SOURCES / f"{stem}.md"
        try:
            chapter = parse(source)
            title = chapter.title(lang)
        except SourceError as e:
            raise LandingError(str(e)) from None
        head = next((c.text(lang) for c in chapter.cells if c.kind == lang and TIME[lang].search(c.text(lang))), None)
        if head is None:
            raise LandingError(f"{source.relative_to(ROOT)}: its {lang} head states no study time in the form "
                               f"{TIME[lang].pattern!r}; the landing page quotes it")
        m = TIME[lang].search(head)
        found.append({"stem": stem, "title": title, "line": chapter_lines()[stem][lang], "time": m.group(1),
                      "minutes": int(m.group(2))})
    return found


def total_time(minutes: int, lang: str) -> str:
    """The chapters' time together, to the nearest half hour (the sum of estimates is no more precise)."""
    halves = max(1, round(minutes / 30))
    hours, half = divmod(halves, 2)
    if lang == "ko":
        return f"{hours}시간 반" if half else f"{hours}시간"
    return f"{hours}½ hours" if half else f"{hours} hours"


def figure(lang: str) -> tuple[str, str]:
    """The first figure (SVG) of FIGURE_CHAPTER's notebook in `lang`, and its alt text."""
    path = ROOT / "notebooks" / lang / f"{FIGURE_CHAPTER}.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            svg = output.get("data", {}).get("image/svg+xml")
            if svg:
                alt = ((cell.get("metadata", {}).get("mystnb") or {}).get("image") or {}).get("alt")
                if not alt:
                    raise LandingError(f"{path.relative_to(ROOT)}: the landing page's figure has no alt text")
                return ("".join(svg) if isinstance(svg, list) else svg), alt
    raise LandingError(f"{path.relative_to(ROOT)} has no SVG figure for the landing page (FIGURE_CHAPTER in tools/landing.py)")


def svg_size(svg: str) -> tuple[int, int]:
    """The figure's size in CSS pixels (matplotlib writes points)."""
    m = re.search(r'<svg[^>]*\bwidth="([\d.]+)pt"[^>]*\bheight="([\d.]+)pt"', svg)
    if not m:
        raise LandingError("the landing page's figure does not state its size in points")
    return round(float(m.group(1)) * 4 / 3), round(float(m.group(2)) * 4 / 3)


def fill(template: str, values: dict[str, str], name: str) -> str:
    """The template with every {{ name }} replaced; a name without a value, or a value never used, is an error."""
    used = set(PLACEHOLDER.findall(template))
    if used != set(values):
        raise LandingError(f"book/_templates/{name}: placeholders {sorted(used - set(values))} have no value, "
                           f"values {sorted(set(values) - used)} no placeholder")
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def site_settings() -> dict:
    root = load_yaml(ROOT / "_config.yml")
    repo = str((root.get("repository") or {}).get("url") or "").rstrip("/")
    branch = (root.get("repository") or {}).get("branch") or "main"
    return {"root": root, "site_url": root.get("site_url") or "", "repo": repo, "branch": branch,
            "colab": colab_base(root) or ""}


def chapter_list(lang: str, colab: str, pdfs: frozenset[str] = frozenset()) -> str:
    """The chapters in `lang`; a chapter's PDF handout is linked when the site has it (`pdfs`: see pdf_ways)."""
    words = {"ko": ("Colab에서 열기:", "학생용 노트북", "전체 노트북(풀이 포함)", "PDF 유인물"),
             "en": ("Open in Colab:", "student notebook", "full notebook", "PDF handout")}[lang]
    items = []
    for c in chapters(lang):
        colab_links = (f'<p class="meta">{words[0]} <a href="{colab}student/{lang}/{c["stem"]}.ipynb">{words[1]}</a> · '
                       f'<a href="{colab}notebooks/{lang}/{c["stem"]}.ipynb">{words[2]}</a></p>') if colab else ""
        handout = f'{lang}/pdf/{c["stem"]}.pdf'
        items.append(f'<li><h3><a href="{lang}/{c["stem"]}.html" hreflang="{lang}">{html.escape(c["title"])}</a></h3>'
                     f'<p>{inline_html(c["line"])}</p>'
                     f'<p class="meta"><span class="time">{html.escape(c["time"])}</span>'
                     + (f' · <a href="{handout}">{words[3]}</a>' if handout in pdfs else "")
                     + f'</p>{colab_links}</li>')
    return "\n".join(items)


# The landing page's line on the PDF edition: its two books when the site has them, else how to make them (the
# site as `make book` builds it has the PDFs of the last `make pdf`, if any: tools/pdf.py, shelve()).
PDF_WAYS = {
    "ko": ('<li><strong>PDF로</strong>: <a href="{full}">풀이를 부록으로 담은 책 전체</a>, <a href="{student}">풀이를 뺀 '
           '학생용 판</a>, 그리고 장마다 풀이 없는 유인물이 있습니다. 어느 PDF든 ‘스스로 확인하기’의 답을 맨 뒤에 실었습니다.</li>',
           '<li><strong>PDF로</strong>: 이 사이트에는 아직 없습니다. 저장소에서 <code>make pdf</code>를 실행하면 만들어 '
           '이 사이트에 넣습니다.</li>'),
    "en": ('<li><strong>As a PDF</strong>: <a href="{full}">the whole book with the solutions in an appendix</a>, '
           '<a href="{student}">the student edition without them</a>, and a handout without solutions for each chapter. '
           'Each gives the answers to “Check yourself” at its end.</li>',
           '<li><strong>As a PDF</strong>: not in this copy of the site yet; <code>make pdf</code> in the repository '
           'prints it and puts it here.</li>'),
}


def pdf_ways(lang: str, pdfs: frozenset[str]) -> str:
    full, student = (f"{lang}/pdf/attention-step-by-step-{lang}{e}.pdf" for e in ("", "-student"))
    linked, missing = PDF_WAYS[lang]
    return "        " + (linked.format(full=full, student=student) if {full, student} <= pdfs else missing)


def landing_page(social: dict[str, str] | None = None, pdfs: frozenset[str] = frozenset()) -> str:
    """The landing page's HTML (see the module's docstring). `pdfs`: the PDF files the site has, as addresses from
    its root ("ko/pdf/attention-step-by-step-ko.pdf"); only those are linked."""
    s = site_settings()
    langs = s["root"]["languages"]
    values = {"site_url": html.escape(s["site_url"]), "repo": html.escape(s["repo"]),
              "licence": html.escape(f"{s['repo']}/blob/{s['branch']}/LICENSE"),
              "lang_script": LANG_SCRIPT, "lang_style": LANG_STYLE}
    for lang in LANGS:
        svg, alt = figure(lang)
        width, height = svg_size(svg)
        values[f"figure_{lang}"] = (f'<img src="landing-{lang}.svg" width="{width}" height="{height}" loading="lazy" '
                                    f'decoding="async" alt="{html.escape(alt)}">')
        values[f"chapters_{lang}"] = chapter_list(lang, s["colab"], pdfs)
        values[f"pdf_{lang}"] = pdf_ways(lang, pdfs)
        values[f"title_{lang}"] = html.escape(langs[lang]["title"])
        values[f"description_{lang}"] = html.escape(langs[lang]["description"])
        values[f"total_{lang}"] = total_time(sum(c["minutes"] for c in chapters(lang)), lang)
        values[f"count_{lang}"] = str(len(chapters(lang)))
    values["social_meta"] = social_meta(s["site_url"], s["site_url"], "en", langs["en"]["title"] + " · " + langs["ko"]["title"],
                                        langs["en"]["description"], langs["en"]["title"])
    return fill((TEMPLATES / "landing.html.in").read_text(encoding="utf-8"), values, "landing.html.in")


def figures() -> dict[str, str]:
    """The landing page's figure files: name -> SVG text."""
    return {f"landing-{lang}.svg": figure(lang)[0] for lang in LANGS}


def not_found_page() -> str:
    s = site_settings()
    base = re.sub(r"^https?://[^/]+", "", s["site_url"]) or "/"
    values = {"base": html.escape(base), "lang_script": NOT_FOUND_SCRIPT, "lang_style": LANG_STYLE}
    return fill((TEMPLATES / "404.html.in").read_text(encoding="utf-8"), values, "404.html.in")


def social_meta(site_url: str, url: str, lang: str, title: str, description: str, site_name: str) -> str:
    """Open Graph and Twitter card tags (the same as book/_templates/layout.html writes on the book's pages)."""
    e = html.escape
    image = f"{site_url}social-{lang}.png"
    alt = social_alt(lang, site_name)
    locale, other = ("ko_KR", "en_US") if lang == "ko" else ("en_US", "ko_KR")
    return "\n  ".join([
        '<meta property="og:type" content="website">', f'<meta property="og:site_name" content="{e(site_name)}">',
        f'<meta property="og:title" content="{e(title)}">', f'<meta property="og:description" content="{e(description)}">',
        f'<meta property="og:url" content="{e(url)}">', f'<meta property="og:image" content="{e(image)}">',
        f'<meta property="og:image:width" content="{SOCIAL_SIZE[0]}">',
        f'<meta property="og:image:height" content="{SOCIAL_SIZE[1]}">', f'<meta property="og:image:alt" content="{e(alt)}">',
        f'<meta property="og:locale" content="{locale}">', f'<meta property="og:locale:alternate" content="{other}">',
        '<meta name="twitter:card" content="summary_large_image">', f'<meta name="twitter:title" content="{e(title)}">',
        f'<meta name="twitter:description" content="{e(description)}">', f'<meta name="twitter:image" content="{e(image)}">',
        f'<meta name="twitter:image:alt" content="{e(alt)}">'])


SOCIAL_ALT = {"ko": "{title}: 책 제목과 {count}개 장의 차례", "en": "{title}: the book's title and its {count} chapters"}


def social_alt(lang: str, title: str) -> str:
    """The card image's alt text (what _draw_social draws)."""
    return SOCIAL_ALT[lang].format(title=title, count=len(toc_chapters()))


# The reader's language: what they chose last (localStorage, this site only), else the browser's first
# language if it is one of the book's, else English. Runs in <head> before the first paint, so that the page
# never shows the other language first; without script both languages show, one after the other.
LANG_SCRIPT = """<script>(() => {
  const langs = ['ko', 'en'], key = 'book-lang';
  let lang = null;
  try { lang = localStorage.getItem(key); } catch (e) {}
  if (!langs.includes(lang)) lang = (navigator.languages || [navigator.language]).map(l => (l || '').slice(0, 2)).find(l => langs.includes(l)) || 'en';
  const html = document.documentElement;
  const show = l => { html.dataset.lang = l; html.lang = l;
    for (const b of document.querySelectorAll('[data-set-lang]')) b.setAttribute('aria-pressed', String(b.dataset.setLang === l)); };
  const keep = l => { try { localStorage.setItem(key, l); } catch (e) {} };
  show(lang);
  document.addEventListener('click', e => {
    const b = e.target.closest && e.target.closest('[data-set-lang]');
    if (b) { show(b.dataset.setLang); keep(b.dataset.setLang); return; }
    const a = e.target.closest && e.target.closest('a[hreflang]');
    if (a && langs.includes(a.hreflang)) keep(a.hreflang);
  });
  document.addEventListener('DOMContentLoaded', () => show(html.dataset.lang));
})();</script>"""
NOT_FOUND_SCRIPT = LANG_SCRIPT.replace("let lang = null;", "let lang = /\\/ko(\\/|$)/.test(location.pathname) ? 'ko' "
                                       ": /\\/en(\\/|$)/.test(location.pathname) ? 'en' : null;").replace(
    "try { lang = localStorage.getItem(key); } catch (e) {}", "if (!lang) try { lang = localStorage.getItem(key); } catch (e) {}")
LANG_STYLE = """html[data-lang="ko"] .only-en, html[data-lang="en"] .only-ko { display: none; }
    :lang(ko) { word-break: keep-all; overflow-wrap: break-word; }"""


# ---- sitemap.xml and robots.txt ------------------------------------------------------------------------

SITEMAP_SKIP = {"search.html", "genindex.html", "404.html"}  # not pages a search engine should send anyone to


def sitemap_pages(site: Path) -> list[str]:
    """Every page of the site worth listing, as a path under it: the landing page, then each language's pages."""
    pages = ["index.html"]
    for lang in LANGS:
        pages += sorted(f"{lang}/{p.name}" for p in (site / lang).glob("*.html") if p.name not in SITEMAP_SKIP)
    return pages


def sitemap(site: Path, site_url: str) -> str:
    rows = []
    for rel in sitemap_pages(site):
        links = ""
        if "/" in rel:
            name = rel.split("/", 1)[1]
            twins = [lang for lang in LANGS if (site / lang / name).is_file()]
            links = "".join(f'<xhtml:link rel="alternate" hreflang="{lang}" href="{xml_escape(site_url + lang + "/" + quote(name))}"/>'
                            for lang in twins)
        rows.append(f"<url><loc>{xml_escape(site_url + quote(rel))}</loc>{links}</url>")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
            + "\n".join(rows) + "\n</urlset>\n")


def robots(site_url: str) -> str:
    return f"User-agent: *\nAllow: /\nSitemap: {site_url}sitemap.xml\n"


# ---- the link cards' image -------------------------------------------------------------------------------

def social_image(lang: str, out: Path, cache_dir: Path) -> None:
    """Draws social-<lang>.png (SOCIAL_SIZE) into `out`: the book's title and description and the chapters'
    titles, in `lang`. Kept in cache_dir by a hash of what it shows (matplotlib takes a second or two)."""
    import shutil

    langs = site_settings()["root"]["languages"]
    titles = [c["title"] for c in chapters(lang)]
    text = json.dumps([langs[lang]["title"], langs[lang]["description"], titles, SOCIAL_SIZE, SOCIAL_STYLE_VERSION],
                      ensure_ascii=False)
    cached = cache_dir / f"social-{lang}-{hashlib.sha256(text.encode()).hexdigest()[:12]}.png"
    if not cached.is_file():
        cache_dir.mkdir(parents=True, exist_ok=True)
        for old in cache_dir.glob(f"social-{lang}-*.png"):
            old.unlink()
        _draw_social(langs[lang]["title"], langs[lang]["description"], titles, cached)
    shutil.copyfile(cached, out / f"social-{lang}.png")


SOCIAL_STYLE_VERSION = 1  # raise when _draw_social changes what it draws


def _draw_social(title: str, description: str, titles: list[str], path: Path) -> None:
    import textwrap

    import koreanize_matplotlib  # noqa: F401  (NanumGothic, the font the book's Korean figures use)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.family": ["NanumGothic", "DejaVu Sans"], "svg.hashsalt": "social"})
    fig = plt.figure(figsize=(SOCIAL_SIZE[0] / 100, SOCIAL_SIZE[1] / 100), dpi=100)
    fig.patch.set_facecolor("#f7f7f9")
    fig.text(0.06, 0.86, title, fontsize=40, fontweight="bold", color="#0b4f8a", va="top")
    wrap = 46 if any("\uac00" <= ch <= "\ud7a3" for ch in description) else 80
    fig.text(0.06, 0.70, "\n".join(textwrap.wrap(description, wrap)), fontsize=17, color="#1b1b1f", va="top",
             linespacing=1.5)
    column = (len(titles) + 1) // 2
    for i, t in enumerate(titles):
        x, y = 0.06 + 0.46 * (i // column), 0.40 - 0.075 * (i % column)
        fig.text(x, y, t if len(t) <= 34 else t[:33] + "…", fontsize=16, color="#45474d", va="top")
    fig.savefig(path, dpi=100, facecolor=fig.get_facecolor(), metadata={"Software": None})
    plt.close(fig)
