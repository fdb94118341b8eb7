"""The PDF edition: python -m tools.pdf (make pdf), from the built site in _build/html (make book first).

Route: Debian's chromium (the one the browser tests use, driven by Playwright) prints each chapter page of the
built site with a print stylesheet of the book's own (PRINT_CSS), and pypdf puts the book together: a cover, a
table of contents with page numbers, the chapters, the answers of the chapters' "Check yourself" questions and
the exercises' solutions in appendices, continuous page numbers (and page labels that say the same: i, ii, ... on
the cover and the contents) and bookmarks for chapters and sections. Text stays text (selectable, searchable, with its fonts
embedded, Korean included), figures stay vectors (the site's SVG), math is KaTeX's as on the site. So the PDF
shows exactly the executed notebooks the site shows: source, then notebooks, then site, then PDF.

Written to _build/pdf/ (CONTRIBUTING.md says why this route):
  attention-step-by-step-{ko,en}.pdf           the book, with the answers and the solutions in appendices
  attention-step-by-step-{ko,en}-student.pdf   the book without solutions (the answers' appendix kept)
  {ko,en}/NN_<chapter>.pdf                     one chapter, without solutions, its answers on its last page:
                                               a class handout
  report.json                                  pages, figures, code lines too wide (must be 0), sizes, seconds
and copied into the site, _build/html/{ko,en}/pdf/ (shelve), where the landing page links to them.
"""

from __future__ import annotations

import datetime
import html
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from tools import chromium
from tools.source import LANGS, ROOT, book_links, chapters, parse

HTML = ROOT / "_build" / "html"
OUT = ROOT / "_build" / "pdf"
A4 = {"width": "210mm", "height": "297mm"}
MARGIN = {"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"}

WORDS = {
    "ko": {"contents": "차례", "solutions": "연습 문제 풀이", "chapter_solutions": "{n}장 풀이",
           "answers": "‘스스로 확인하기’의 답",
           "answers_note": "답을 먼저 떠올린 다음, 맨 뒤의 ‘스스로 확인하기’의 답에서 맞춰 보세요.",
           "student": "학생용(풀이 없음)", "full": "풀이 포함", "explorer": "탐색기: 움직여 보려면 사이트나 Colab에서 여세요",
           "read": "사이트에서 읽기", "notebook": "Colab에서 노트북 열기", "student_nb": "학생용 노트북",
           "tracks": "PyTorch {torch} 기준", "built": "{date}, 커밋 {commit}"},
    "en": {"contents": "Contents", "solutions": "Solutions to the exercises", "chapter_solutions": "Chapter {n}",
           "answers": "Answers to “Check yourself”",
           "answers_note": "Think of your answer first, then turn to the answers at the end: Answers to “Check yourself”.",
           "student": "student edition (no solutions)", "full": "with solutions",
           "explorer": "Explorer: to move it, open this page on the site or the notebook in Colab",
           "read": "Read on the site", "notebook": "Open the notebook in Colab", "student_nb": "student notebook",
           "tracks": "follows PyTorch {torch}", "built": "{date}, commit {commit}"},
}

# A code frame (a cell's code, an output) of at most this many lines is kept on one page (PRINT_CSS): a frame
# that moves to the next page leaves at most this much blank behind it (15 lines: a fifth of the page).
WHOLE_LINES = 15

# The site's pages, made for paper: the article alone, full width; code small enough for 88 columns (the book's
# rule for every code line) across the text width of an A4 page, outputs wrapped rather than cut (a traceback's
# rule of dashes, a long printed line); no controls, no folded code, no machinery. No tagged PDF: Chromium's
# structure tree tripled the size (0.9 -> 2.7 MB for chapter 6) for little a printed handout needs.
PRINT_CSS = """
@page { size: A4; }
html { font-size: 10pt !important; }
body { background: white !important; }
.bd-header, .bd-header-article, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-footer, .bd-footer-article,
.prev-next-area, .bd-search, .header-article-items, .headerlink, .skip-link, #pst-back-to-top, .book-lang-switch,
.book-notebooks, .tag_exercise-check, details.above-input, .toggle-button,
.explorer-controls, .cell_input .copybtn, button, .onlyprint { display: none !important; }
.bd-main, .bd-content, .bd-article-container, .bd-article, .bd-page-width, .bd-container, .bd-container__inner {
  max-width: none !important; width: 100% !important; margin: 0 !important; padding: 0 !important;
  display: block !important; }
pre, .highlight pre, .output pre { font-size: 8.2pt !important; line-height: 1.35 !important; white-space: pre !important;
  overflow: visible !important; }
div.highlight, div.cell_output, .output { overflow: visible !important; }
.cell_output pre, .output pre { white-space: pre-wrap !important; overflow-wrap: anywhere; }
h1 { break-before: page; font-size: 20pt !important; }
h2 { font-size: 14pt !important; break-after: avoid; }
h3 { font-size: 12pt !important; break-after: avoid; }
figure, .cell_output img, .cell_output svg, .book-explorer { break-inside: avoid; }
/* Code frames: one that does not fit where it starts breaks across pages, with 3 lines at least on either side;
   a short one (WHOLE_FRAMES_JS marks it: at most WHOLE_LINES lines) moves whole to the next page. The site keeps
   div.highlight whole but not the frame around it (div.cell_input, a traceback's div.output), which then stayed
   behind empty down to the page's end: up to three quarters of a page, and once a whole page. */
div.cell_input, div.cell_output, div.output, div.highlight, div[class*=highlight-] {
  break-inside: auto !important; display: block !important; }
pre { orphans: 3; widows: 3; }
.book-pdf-whole, .book-pdf-whole div.highlight { break-inside: avoid !important; }
a { color: #1a4d8f !important; text-decoration: none !important; }
.book-pdf-links { font-size: 9pt; color: #444; margin: 0 0 1em; }
.book-pdf-explorer-note { font-size: 9pt; color: #555; font-style: italic; margin: .3em 0 1em; }
.book-pdf-answers h1 { display: block !important; }  /* the theme hides an h1 first of its type */
.book-pdf-question { font-weight: 600; margin: .9em 0 .2em; break-after: avoid; }
.book-pdf-answer p { margin: 0 0 .5em; }
"""

# The appendix shows what the site folds: the solutions' dropdowns open, their code cells shown.
APPENDIX_CSS = """
.toggle-hidden, .dropdown .admonition-title ~ * { display: block !important; visibility: visible !important; }
.tag_exercise-solution { display: block !important; }
"""

# Run in every page before printing (chapters and appendices): which code frames are short enough to keep whole.
WHOLE_FRAMES_JS = """
() => document.querySelectorAll('div.cell_input, div.output, div[class*=highlight-]').forEach(frame => {
  const pre = frame.querySelector('pre');
  if (pre && !frame.parentElement.closest('.book-pdf-whole')
      && pre.textContent.replace(/\\n$/, '').split('\\n').length <= WHOLE_LINES) frame.classList.add('book-pdf-whole');
})
""".replace("WHOLE_LINES", str(WHOLE_LINES))

# Run in each chapter page before printing: the solutions are taken out (the full edition puts them in an
# appendix), and so are the answers of "Check yourself" (the site's questions that a click opens: <details> in the
# section labelled chNN-self-check): the questions stay, the sentence that says to click them says where the
# answers are (the chapter's end in a handout, an appendix in a book); explorers get a line saying where to move
# them, links point at the published site, and the page reports what the tests check (figures, code blocks wider
# than the text).
PREPARE_JS = """
([site, pageUrl, explorerNote, linkLine, answersNote]) => {
  const solutions = [];
  document.querySelectorAll('div.solution').forEach(el => { solutions.push(el.outerHTML); el.remove(); });
  document.querySelectorAll('.cell.tag_exercise-solution').forEach(el => el.remove());  // none outside them
  const answers = [];
  document.querySelectorAll('[id$="-self-check"]').forEach(label => {
    const section = label.closest('section');
    const asked = section ? [...section.querySelectorAll(':scope > details')] : [];
    if (!asked.length) return;
    const intro = asked[0].previousElementSibling;
    if (!intro || intro.tagName !== 'P') throw new Error(`${label.id}: no sentence before the first question to say where the answers are`);
    intro.textContent = answersNote;
    intro.classList.add('book-pdf-answers-note');
    asked.forEach(d => {
      const summary = d.querySelector(':scope > summary');
      const question = document.createElement('p');
      question.className = 'book-pdf-question';
      question.innerHTML = summary.innerHTML;
      summary.remove();
      answers.push({question: question.innerHTML, answer: d.innerHTML});
      d.replaceWith(question);
    });
  });
  document.querySelectorAll('.book-explorer').forEach(el => {
    const note = document.createElement('p');
    note.className = 'book-pdf-explorer-note';
    note.textContent = explorerNote;
    el.after(note);
  });
  const root = new URL('.', document.baseURI.replace(/[^/]*\\/[^/]*$/, ''));
  document.querySelectorAll('a[href]').forEach(a => {
    const target = new URL(a.getAttribute('href'), document.baseURI);
    if (target.protocol === 'file:') {
      a.href = site + target.href.slice(root.href.length);
    }
  });
  const h1 = document.querySelector('article h1') || document.querySelector('h1');
  if (h1) {
    const p = document.createElement('p');
    p.className = 'book-pdf-links';
    p.innerHTML = linkLine;
    h1.after(p);
  }
  const article = document.querySelector('article') || document.body;
  const shown = el => el.getClientRects().length > 0;
  const figures = [...article.querySelectorAll('.cell_output img, .cell_output svg:not(svg svg), .explorer-figures svg:not(svg svg)')]
    .filter(el => shown(el) && !el.closest('button')).length;
  const text = h => {  // what a reader sees: KaTeX's hidden MathML and the heading's link sign left out
    const copy = h.cloneNode(true);
    copy.querySelectorAll('.katex-mathml, .headerlink').forEach(e => e.remove());
    return copy.textContent.replace(/#/g, '').trim();
  };
  const headings = [...article.querySelectorAll('h2')].filter(shown);
  const sections = headings.map(text);
  // each heading a link target, so Chromium writes a named destination at it: its page (_sections)
  const anchors = headings.map((h, i) => {
    if (!h.id || document.querySelectorAll('#' + CSS.escape(h.id)).length > 1) h.id = 'book-pdf-section-' + i;
    const link = document.createElement('a');
    link.href = '#' + h.id;
    link.style.display = 'none';
    article.append(link);
    return h.id;
  });
  const title = text(article.querySelector('h1') || document.createElement('h1'));
  const pres = [...article.querySelectorAll('.cell_input pre')].filter(p => p.offsetParent !== null);
  const wide = pres.filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.textContent.split('\\n').find(l => l.length > 60) || '');
  return {solutions, answers, figures, sections, anchors, title, code_blocks: pres.length, too_wide: wide};
}
"""

# The answers of "Check yourself" at the end of a chapter's print, on a page of their own: a handout keeps them,
# a book leaves them out (its appendix has every chapter's). A link to the heading makes Chromium write a named
# destination there: the first page of the answers (_sections).
ANSWERS_JS = """
(html) => {
  const article = document.querySelector('article') || document.body;
  const section = document.createElement('section');
  section.innerHTML = html;
  article.append(section);
  const link = document.createElement('a');
  link.href = '#' + section.querySelector('h1').id;
  link.style.display = 'none';
  article.append(link);
}
"""
ANSWERS_ID = "book-pdf-answers"
SOLUTIONS_ID = "book-pdf-solutions"


def _answers(title: str, groups: list[tuple[str, list[dict]]]) -> str:
    """The answers of "Check yourself" under the heading `title`: (chapter title, or "" for none, its questions)."""
    parts = []
    for chapter, items in groups:
        parts.append(f"<h2>{chapter}</h2>" if chapter else "")
        parts += [f'<p class="book-pdf-question">{i["question"]}</p><div class="book-pdf-answer">{i["answer"]}</div>'
                  for i in items]
    return f'<div class="book-pdf-answers"><h1 id="{ANSWERS_ID}">{title}</h1>{"".join(parts)}</div>'


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _torch_version() -> str:
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("torch=="):
            return line.split("==", 1)[1]
    return "?"


def _page(css: str, body: str, lang: str, title: str) -> str:
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
            f"<style>{css}</style></head><body>{body}</body></html>")


# Cover, contents and page numbers. The contents' pages have the chapters' margins (a named page: the cover and the
# numbers fill theirs edge to edge), and a thin rule leads from an entry to its page number: Chromium draws a
# dotted one as a square per dot (200 kB of drawing a page, 60,000 squares in a book's contents).
SIMPLE_CSS = """
@page { size: A4; margin: 0; }
@page contents { margin: 16mm 14mm; }
body { font-family: 'DejaVu Sans', 'Noto Sans CJK KR', sans-serif; margin: 0; word-break: keep-all; }
.toc { page: contents; }
.cover { height: 297mm; box-sizing: border-box; padding: 60mm 20mm; }
.cover h1 { font-size: 30pt; margin: 0 0 6mm; } .cover .sub { font-size: 14pt; color: #333; }
.cover .meta { margin-top: 30mm; font-size: 11pt; color: #444; line-height: 1.7; }
.toc h1 { font-size: 20pt; margin-top: 0; } .toc ol { list-style: none; padding: 0; margin: 0; }
.toc li { display: flex; gap: 2mm; font-size: 10.5pt; margin: 1.2mm 0; }
.toc li.chapter { font-weight: bold; margin-top: 4mm; font-size: 11.5pt; }
.toc li.section { padding-left: 7mm; }
.toc .dots { flex: 1; border-bottom: 0.4pt solid #bbb; margin-bottom: 1.2mm; }
.toc a { color: black; text-decoration: none; }
.numbers div { height: 297mm; box-sizing: border-box; position: relative; page-break-after: always; }
.numbers span { position: absolute; bottom: 8mm; width: 100%; text-align: center; font-size: 9pt; color: #555; }
"""


class Printer:
    """Chromium's pages that print the book: one for the site's pages (the chapters, the appendices), one for the
    pages made here (cover, contents, page numbers), each kept for every print. A page of its own for each print
    (a browser context and a renderer process each time, the site's scripts and fonts loaded and compiled again)
    cost a third of the PDF build's CPU time (83 -> 54 CPU-s, both languages), for the same bytes. No print asks
    Chromium for its outline of the headings: the books make their bookmarks themselves (_assemble) and import
    none, and writing it took 5% of a chapter's print."""

    def __init__(self, browser):
        self.browser = browser
        self._site = self._made = None

    def site_page(self, url: str):
        """The page for the site's pages, at `url`, as a new page would load it: on the screen, where the previous
        print left the print media (a chapter first laid out for print breaks its pages elsewhere)."""
        if self._site is None:
            self._site = self.browser.new_page(viewport={"width": 794, "height": 1123})
        self._site.emulate_media(media="no-override")
        self._site.goto(url, wait_until="load")
        return self._site

    def html(self, html: str) -> bytes:
        if self._made is None:
            self._made = self.browser.new_page()
        self._made.set_content(html, wait_until="load")
        return self._made.pdf(format="A4", print_background=True,
                              margin={"top": "0", "bottom": "0", "left": "0", "right": "0"})

    def chapter(self, path: Path, site: str, lang: str, words: dict, link_line: str) -> tuple[bytes, dict]:
        page = self.site_page(path.as_uri())
        # no waiting after load: an explorer's first figure is in the page's HTML (tools/site.py, explorer_html),
        # its script only enables the controls; a wait of 300 ms printed the same bytes
        page.add_style_tag(content=PRINT_CSS)
        page.emulate_media(media="print")
        page.evaluate("document.fonts.ready.then(() => null)")  # the print sizes' glyphs, if any came late
        found = page.evaluate(PREPARE_JS, [site, path.as_uri(), words["explorer"], link_line, words["answers_note"]])
        if found["answers"]:
            page.evaluate(ANSWERS_JS, _answers(words["answers"], [("", found["answers"])]))
        page.evaluate(WHOLE_FRAMES_JS)
        title = found["title"] or page.title()
        page.evaluate("t => { document.title = t; }", title)
        header = ('<div style="font-size:7.5pt;color:#666;width:100%;padding:0 14mm;text-align:right;'
                  "font-family:'DejaVu Sans','Noto Sans CJK KR',sans-serif\"><span class=\"title\"></span></div>")
        pdf = page.pdf(format="A4", print_background=True, margin=MARGIN,
                       display_header_footer=True, header_template=header,
                       footer_template="<div></div>")
        return pdf, {**found, "title": title}


def _sections(reader, headings: list[str], anchors: list[str]) -> list[tuple[str, int, float]]:
    """(heading, page index, height on the page) for the chapter's sections, in order: where Chromium wrote the
    named destination of each heading (PREPARE_JS makes each heading a link target). Chromium makes bookmarks
    from headings only in a tagged PDF, which was three times the size; reading the text layer for the headings
    took most of the build, and found a heading's words in the prose before it. The destinations are then taken
    out: each chapter has the same names, and the book's bookmarks point at the headings themselves."""
    from pypdf.generic import DictionaryObject, NameObject

    root = reader.root_object
    dests = root.get("/Dests", DictionaryObject()).get_object()  # Chromium's: name -> [page, /XYZ, left, top, zoom]
    pages = {page.indirect_reference.idnum: i for i, page in enumerate(reader.pages)}
    found, start = [], 0
    for heading, anchor in zip(headings, anchors, strict=True):
        dest = dests.get(f"/{anchor}")
        if dest is None:
            raise RuntimeError(f"the section {heading!r} has no place in the printed chapter")
        page = pages[dest.get_object()[0].idnum]
        if page < start:
            raise RuntimeError(f"the section {heading!r} is printed before the one above it")
        found.append((" ".join(heading.split()), page, float(dest.get_object()[3])))
        start = page
    for key in ("/Dests", "/Names"):  # not carried into the book, where every chapter has the same names
        root.pop(NameObject(key), None)
    return found


def _read(pdf: bytes):
    """A printed chapter, read once for its handout and both editions. Its fonts' long arrays of numbers and names
    (the glyph widths and encodings of the Type3 fonts Chromium makes of the Korean glyphs, some 30,000 numbers a
    chapter) are shared by the copies pypdf makes for each book rather than copied item by item, which took most
    of the time of putting the books together: those items never change. For the same reason each is written
    out once, as bytes that every book then copies (writing their items again, one by one, for the handout and
    either edition took a tenth of the time of putting the books together)."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, NumberObject

    class SharedArray(ArrayObject):
        written: list[bytes]  # one list for the array and all its copies: its bytes, once written

        def clone(self, pdf_dest, force_duplicate=False, ignore_fields=()):
            copy = SharedArray(self)
            copy.written = self.written
            return copy

        def write_to_stream(self, stream) -> None:
            if not self.written:
                out = io.BytesIO()
                ArrayObject.write_to_stream(self, out)
                self.written.append(out.getvalue())
            stream.write(self.written[0])

    def share(owner, key: str) -> None:
        value = owner.raw_get(key) if key in owner else None
        if type(value) is ArrayObject and all(type(x) in (NumberObject, FloatObject, NameObject) for x in value):
            owner[NameObject(key)] = shared = SharedArray(value)
            shared.written = []

    reader = PdfReader(io.BytesIO(pdf))
    seen = set()
    for page in reader.pages:
        for ref in ((page.get("/Resources") or {}).get("/Font") or {}).values():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            font = ref.get_object()
            for key in ("/Widths", "/FontMatrix", "/FontBBox"):
                share(font, key)
            if isinstance(encoding := font.get("/Encoding"), DictionaryObject):
                share(encoding, "/Differences")
            for descendant in font.get("/DescendantFonts") or []:
                share(descendant.get_object(), "/W")
    return reader


class Numbers:
    """Page numbers, stamped without touching a page's own content: a Form XObject per number, made once from
    a printed page of numbers (the n-th page shows n) and shared by every page that shows it; a page gets two
    small content streams around its own (q ... Q, then the number drawn) and the XObject in its resources."""

    NAME = "/BookPageNumber"

    def __init__(self, pdf: bytes):
        from pypdf import PdfReader, PdfWriter

        self.reader = PdfReader(io.BytesIO(pdf))
        self.holder = PdfWriter()  # the forms live here as indirect objects, cloned into each book once
        self.forms: dict[int, object] = {}

    def form(self, number: int):
        from pypdf.generic import ArrayObject, FloatObject, NameObject, StreamObject

        if number not in self.forms:
            if number > len(self.reader.pages):
                raise RuntimeError(f"page {number}: the page numbers were printed for {len(self.reader.pages)} pages")
            page = self.reader.pages[number - 1]
            form = StreamObject()
            form.set_data(page.get_contents().get_data())
            form.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                         NameObject("/BBox"): ArrayObject(FloatObject(v) for v in page.mediabox),
                         NameObject("/Resources"): page["/Resources"]})
            form = form.flate_encode(level=6)
            self.forms[number] = self.holder._add_object(form)
        return self.forms[number]

    def stamp(self, writer, first: int) -> None:
        """Number writer's pages from `first` (a page index) on: 1, 2, ..."""
        from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

        def stream(data: bytes):
            obj = DecodedStreamObject()
            obj.set_data(data)
            return writer._add_object(obj)

        push, draw = stream(b"q\n"), stream(f"\nQ\nq {self.NAME} Do Q\n".encode())
        for number, page in enumerate(writer.pages[first:], start=1):
            resources = DictionaryObject(page["/Resources"])
            xobjects = DictionaryObject(resources.get("/XObject", DictionaryObject()).get_object())
            xobjects[NameObject(self.NAME)] = self.form(number).clone(writer)
            resources[NameObject("/XObject")] = xobjects
            page[NameObject("/Resources")] = resources
            contents = page.raw_get("/Contents")
            own = list(contents.get_object()) if isinstance(contents.get_object(), ArrayObject) else [contents]
            page[NameObject("/Contents")] = ArrayObject([push, *own, draw])


def _number_pages(printer: Printer, count: int) -> bytes:
    """`count` pages, each with its page number (from 1) at the bottom."""
    body = "".join(f"<div><span>{i + 1}</span></div>" for i in range(count))
    return printer.html(_page(SIMPLE_CSS, f'<div class="numbers">{body}</div>', "en", "numbers"))


def shelf(lang: str) -> list[Path]:
    """A language's PDF files, as the build writes them (relative to OUT): the two books, one handout a chapter."""
    return [Path(f"attention-step-by-step-{lang}{e}.pdf") for e in ("", "-student")] + [
        Path(lang) / f"{path.stem}.pdf" for path in chapters()]


class ShelfError(RuntimeError):
    """A chapter page whose notebook menu has not the handout's items shelve() shows or hides."""


# A chapter page's notebook menu offers the chapter's handout (book/_templates/notebooks-menu.html): a heading item
# and a download item, hidden while the site has no handout of that chapter.
HANDOUT_ITEMS = re.compile(r'<li(?: hidden)?(?= class="notebooks-group notebooks-pdf")'
                           r'|<li(?: hidden)?(?=><a class="[^"]*\bnotebooks-pdf-download\b)')


def shelve(site: Path, built: Path = OUT) -> frozenset[str]:
    """Puts the PDFs that the last `make pdf` wrote into `built` in the site (<lang>/pdf/<name>), and returns the
    addresses of those the site now has, from its root: the landing page links these only (tools/landing.py), and a
    chapter page's menu offers its handout only when the site has it. `make book` (tools/site.py) calls it too, so
    that a site rebuilt keeps the PDF edition already printed; one the chapters no longer have is left behind."""
    import shutil

    there = set()
    for lang in LANGS:
        for name in shelf(lang):
            source, target = built / name, site / lang / "pdf" / name.name
            if source.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
            if target.is_file():
                there.add(f"{lang}/pdf/{name.name}")
        for path in chapters():
            page = site / lang / f"{path.stem}.html"
            if not page.is_file():
                continue
            text = page.read_text(encoding="utf-8")
            shown, count = HANDOUT_ITEMS.subn("<li" if f"{lang}/pdf/{path.stem}.pdf" in there else "<li hidden", text)
            if count != 2:
                raise ShelfError(f"{page}: {count} of the notebook menu's 2 handout items found "
                                   "(book/_templates/notebooks-menu.html: notebooks-pdf, notebooks-pdf-download)")
            if shown != text:
                page.write_text(shown, encoding="utf-8")
    return frozenset(there)


def build(html_dir: Path = HTML, out: Path = OUT) -> dict:
    """Both languages at once, each in a process of its own with its own chromium (two cores: the book took
    86 s one language after the other). The editions' date is taken once, so both carry the same."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    if not (html_dir / "index.html").is_file():
        raise SystemExit(f"error: no site in {html_dir}: run 'make book' first (the PDF is printed from it)")
    start = time.monotonic()
    today = datetime.date.today().isoformat()
    out.mkdir(parents=True, exist_ok=True)
    report: dict = {"editions": {}, "chapters": {}}
    # spawn, not fork: Playwright's driver must not be shared with a forked copy of this process
    with ProcessPoolExecutor(max_workers=len(LANGS), mp_context=get_context("spawn")) as pool:
        for part in pool.map(_build_language, LANGS, [html_dir] * len(LANGS), [out] * len(LANGS),
                             [today] * len(LANGS)):
            report["editions"].update(part["editions"])
            report["chapters"].update(part["chapters"])
    # the site links to them (its landing page, written again to link them all), and GitHub Pages publishes
    # _build/html as it is
    from tools import landing

    pdfs = shelve(html_dir, out)
    (html_dir / "index.html").write_text(landing.landing_page(pdfs=pdfs), encoding="utf-8")
    report["seconds"] = round(time.monotonic() - start, 1)
    (out / "report.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return report


def _build_language(lang: str, html_dir: Path, out: Path, today: str) -> dict:
    """One language's chapter handouts and its two editions (with and without the solutions)."""
    from playwright.sync_api import sync_playwright

    info = book_links()
    site = info["site"]
    report: dict = {"editions": {}, "chapters": {}}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium.PATH), args=chromium.ARGS)
        printer = Printer(browser)
        words = WORDS[lang]
        (out / lang).mkdir(exist_ok=True)
        printed = []  # (stem, title, reader, sections, solutions html, answers, pages before the answers)
        for path in chapters():
            chapter = parse(path)
            page = html_dir / lang / f"{chapter.stem}.html"
            colab = f"{info['colab']}notebooks/{lang}/{chapter.stem}.ipynb"
            student = f"{info['colab']}student/{lang}/{chapter.stem}.ipynb"
            line = (f'<a href="{site}{lang}/{chapter.stem}.html">{words["read"]}</a> · '
                    f'<a href="{colab}">{words["notebook"]}</a> · <a href="{student}">{words["student_nb"]}</a>')
            pdf, found = printer.chapter(page, site, lang, words, line)
            reader = _read(pdf)
            answers = found["answers"]
            sections = _sections(reader, found["sections"] + [words["answers"]] * bool(answers),
                                 found["anchors"] + [ANSWERS_ID] * bool(answers))
            body = sections.pop()[1] if answers else len(reader.pages)
            printed.append((chapter.stem, found["title"], reader, sections, found["solutions"], answers, body))
            report["chapters"][f"{lang}/{chapter.stem}"] = {
                "title": found["title"], "pages": len(reader.pages), "figures": found["figures"],
                "code_blocks": found["code_blocks"], "too_wide": found["too_wide"],
                "sections": [t for t, *_ in sections], "solutions": len(found["solutions"]),
                "self_check": len(answers)}
        # one appendix printed for both editions: the answers of "Check yourself" (every edition), then the
        # solutions (the full edition only), from a page of their own
        answered = [(html.escape(title), answers) for _, title, _, _, _, answers, _ in printed if answers]
        solutions = "".join(
            f'<h1{f" id={SOLUTIONS_ID!r}" if i == 0 else ""}>'
            f'{words["chapter_solutions"].format(n=int(stem[:2]))}: {html.escape(title)}</h1>{"".join(sols)}'
            for i, (stem, title, _, _, sols, _, _) in enumerate(printed))
        appendix = _read(_print_appendix(printer, html_dir, lang, words["solutions"],
                                         (_answers(words["answers"], answered) if answered else "") + solutions))
        split = _sections(appendix, [words["solutions"]], [SOLUTIONS_ID])[0][1]
        # one printing of the numbers serves every book: the longest, the full edition, counts to the last
        numbers = Numbers(_number_pages(printer, sum(body for *_, body in printed) + len(appendix.pages)))
        for stem, title, reader, sections, _, answers, body in printed:
            parts = [(title, reader, sections, (0, body))]
            if answers:
                parts.append((words["answers"], reader, [], (body, len(reader.pages))))
            _assemble(printer, numbers, parts, out / lang / f"{stem}.pdf", title, lang, cover=None)
        for edition, with_solutions in (("", True), ("-student", False)):
            name = out / f"attention-step-by-step-{lang}{edition}.pdf"
            cover = _cover(info, lang, words, with_solutions, today)
            parts = [(title, reader, sections, (0, body)) for _, title, reader, sections, _, _, body in printed]
            if split:
                parts.append((words["answers"], appendix, [], (0, split)))
            if with_solutions:
                parts.append((words["solutions"], appendix, [], (split, len(appendix.pages))))
            pages = _assemble(printer, numbers, parts, name, info["titles"][lang], lang, cover=cover)
            report["editions"][name.name] = {"pages": pages, "bytes": name.stat().st_size}
        browser.close()
    return report


def _print_appendix(printer: Printer, html_dir: Path, lang: str, title: str, body: str) -> bytes:
    """The appendices (the answers of "Check yourself", the solutions), printed with the site's own styles (a
    chapter page with its article replaced); a link to each appendix's heading makes Chromium write a named
    destination there (_sections finds their pages)."""
    page = printer.site_page((html_dir / lang / f"{chapters()[0].stem}.html").as_uri())
    page.add_style_tag(content=PRINT_CSS + APPENDIX_CSS)
    page.emulate_media(media="print")
    page.evaluate("([t, html]) => { document.body.innerHTML = '<main><article class=\"bd-article\">' + html"
                  " + '</article></main>'; document.title = t;"
                  " document.querySelectorAll('.toggle-hidden, .toggle').forEach(e =>"
                  " e.classList.remove('toggle-hidden', 'toggle', 'dropdown'));"
                  " document.querySelectorAll('details').forEach(d => d.open = true);"
                  " document.querySelectorAll('article h1[id]').forEach(h => { const a ="
                  " document.createElement('a'); a.href = '#' + h.id; a.style.display = 'none';"
                  " document.querySelector('article').append(a); }); }", [title, body])
    page.evaluate(WHOLE_FRAMES_JS)
    return page.pdf(format="A4", print_background=True, margin=MARGIN)


def _cover(info: dict, lang: str, words: dict, with_solutions: bool, today: str) -> str:
    other = [info["titles"][x] for x in LANGS if x != lang]
    edition = words["full"] if with_solutions else words["student"]
    meta = "<br>".join([words["tracks"].format(torch=_torch_version()),
                        words["built"].format(date=today, commit=_commit()), info["site"]])
    return (f'<div class="cover"><h1>{info["titles"][lang]}</h1><div class="sub">{" · ".join(other)}</div>'
            f'<div class="sub">한국어 · English — {edition}</div><div class="meta">{meta}</div></div>')


def _toc(entries: list[tuple[str, int, int]], title: str) -> str:
    items = "".join(f'<li class="{"chapter" if depth == 0 else "section"}"><span>{text}</span>'
                    f'<span class="dots"></span><span>{page}</span></li>' for text, page, depth in entries)
    return f'<div class="toc"><h1>{title}</h1><ol>{items}</ol></div>'


def _assemble(printer: Printer, numbers: Numbers, parts: list[tuple[str, object, list, tuple[int, int]]], target: Path,
              title: str, lang: str, cover: str | None) -> int:
    """cover + contents + parts (title, PdfReader, sections, the reader's pages start to stop), continuous page
    numbers (none on cover and contents) and bookmarks; returns the number of pages. The page labels a PDF viewer
    shows are the printed numbers: i, ii, ... for the cover and the contents, then 1, 2, ... as printed."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import Fit

    writer = PdfWriter()
    if cover is not None:  # the contents' numbers are known before it is printed: they count from the first chapter
        entries, page_no = [], 1
        for t, _, sections, (start, stop) in parts:
            entries.append((t, page_no, 0))
            entries += [(s, page_no + p - start, 1) for s, p, _ in sections]
            page_no += stop - start
        front = PdfReader(io.BytesIO(printer.html(
            _page(SIMPLE_CSS, cover + _toc(entries, WORDS[lang]["contents"]), lang, title))))
        writer.append(front, import_outline=False)
        writer.add_outline_item(title=WORDS[lang]["contents"], page_number=1 if len(front.pages) > 1 else 0)
    offset = len(writer.pages)
    for t, reader, sections, (start, stop) in parts:
        first = len(writer.pages)
        writer.append(reader, pages=(start, stop), import_outline=False)
        parent = writer.add_outline_item(title=t, page_number=first)
        for s, p, top in sections:
            writer.add_outline_item(title=s, page_number=first + p - start, parent=parent, fit=Fit.xyz(top=top))
    if offset:
        writer.set_page_label(0, offset - 1, style="/r", start=1)
    writer.set_page_label(offset, len(writer.pages) - 1, style="/D", start=1)
    numbers.stamp(writer, offset)
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
    writer.add_metadata({"/Title": title, "/Lang": lang})
    writer.page_mode = "/UseOutlines"
    with target.open("wb") as f:
        writer.write(f)
    return len(writer.pages)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tools.pdf", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skip-without-browser", action="store_true",
                        help="exit 0 with a note when Debian's chromium is missing (make test; CI has it and requires it)")
    args = parser.parse_args(argv)
    if not chromium.PATH.is_file():
        message = "Debian's chromium is missing (/usr/bin/chromium): apt-get install chromium fonts-noto-cjk"
        if args.skip_without_browser:
            print(f"PDF not built: {message}")
            return 0
        print(f"error: {message}", file=sys.stderr)
        return 2
    report = build()
    for name, edition in report["editions"].items():
        print(f"{name}: {edition['pages']} pages, {edition['bytes'] / 2**20:.1f} MiB")
    wide = sum(len(c["too_wide"]) for c in report["chapters"].values())
    print(f"{len(report['chapters'])} chapter handouts in {OUT.relative_to(ROOT)}/{{ko,en}}/; code blocks wider than "
          f"the page: {wide}; {report['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
