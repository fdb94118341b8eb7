"""The PDF edition (tools/pdf.py), as a reader opens it: make test builds it into _build/pdf/ after the site; these
tests read the files (a few seconds). Without Debian's chromium the PDF is not built and they skip, unless
BOOK_REQUIRE_BROWSER=1 (CI), where a missing PDF fails. The text layer of a Korean page is slow to read (Chromium
sets its glyphs as Type3 fonts: about 0.2 s of CPU a page), so the tests read the text of a few pages only, each
page once (page_text)."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from functools import cache
from html.parser import HTMLParser

import pytest
from conftest import LANGS, ROOT, chapters, parse

# make test prints the PDF while the tests run: wait for it (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("built_site")

OUT = ROOT / "_build" / "pdf"
A4 = (595.92, 842.88)  # points, as Chromium writes A4
GOAL_BYTES = 15 * 2**20
SOLUTIONS = {"ko": "연습 문제 풀이", "en": "Solutions to the exercises"}


def _needed():
    if not (OUT / "report.json").is_file():
        if os.environ.get("BOOK_REQUIRE_BROWSER") == "1":
            pytest.fail("no PDF in _build/pdf: make test builds it after the site (python -m tools.pdf)")
        pytest.skip("the PDF was not built here (Debian's chromium is missing)")


@cache
def reader(name: str):
    from pypdf import PdfReader

    return PdfReader(OUT / name)


@cache
def report() -> dict:
    return json.loads((OUT / "report.json").read_text(encoding="utf-8"))


def plain(text: str) -> str:
    """Letters and digits only: the PDF's text layer spaces Korean and code its own way, the site curls
    apostrophes and Chromium sets "ff" as a ligature."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text)).lower()


def outline(r) -> list[tuple[str, int]]:
    found = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                found.append((plain(item.title), depth))
    walk(r.outline, 0)
    return found


def headings(lang: str, path) -> tuple[str, list[str]]:
    chapter = parse(path)
    lines = [line for c in chapter.cells if c.kind == lang for line in c.lines]
    # the site shows TeX as math: $\sqrt{d_k}$ reads back as "dk"
    return (plain(chapter.title(lang)),
            [plain(re.sub(r"\\[a-z]+", "", line[3:])) for line in lines if line.startswith("## ")])


EDITIONS = [f"attention-step-by-step-{lang}{edition}.pdf" for lang in LANGS for edition in ("", "-student")]
ANSWERS = {"ko": "‘스스로 확인하기’의 답", "en": "Answers to “Check yourself”"}
# the sentence before a chapter's "Check yourself" questions, as the PDF says it (the site's says to click them)
ANSWERS_NOTE = {"ko": "맨 뒤의 ‘스스로 확인하기’의 답에서", "en": "turn to the answers at the end"}


@cache
def page_text(name: str, index: int) -> str:
    return reader(name).pages[index].extract_text()


def front_matter(r) -> int:
    """A book's pages before its first chapter: the cover and the contents (its first bookmark, the next one the
    first chapter)."""
    return r.get_destination_page_number([i for i in r.outline if not isinstance(i, list)][1])


def bookmark(r, title: str, depth: int = 0, parent: str | None = None) -> int | None:
    """The page index of the bookmark `title` (at `depth`, under the top-level `parent`), or None."""
    under = None
    for item in r.outline:
        if isinstance(item, list):
            if parent is None or under == plain(parent):
                for child in item:
                    if depth == 1 and not isinstance(child, list) and plain(child.title) == plain(title):
                        return r.get_destination_page_number(child)
            continue
        under = plain(item.title)
        if depth == 0 and under == plain(title):
            return r.get_destination_page_number(item)
    return None


def self_check(path, lang: str) -> tuple[str, str, list[tuple[str, str]]]:
    """A chapter's "Check yourself" as its source writes it: its heading, the sentence before the questions, and
    each question (<summary>) with its answer (the rest of its <details>)."""
    text = "\n".join(c.text(lang) for c in parse(path).cells if c.kind == lang and "<details>" in c.text(lang))
    heading = re.search(r"^## (.+)$", text, re.M)
    intro = re.search(r"\n\n([^\n<]+)\n\n<details>", text)
    pairs = re.findall(r"<details>\s*<summary>(.*?)</summary>(.*?)</details>", text, re.S)
    return (heading[1] if heading else ""), (intro[1] if intro else ""), [
        (re.sub(r"<[^>]+>", "", q), a.strip()) for q, a in pairs]


@pytest.mark.parametrize("name", EDITIONS)
def test_each_edition_opens_on_a4_with_every_chapter_and_section_in_its_bookmarks_and_text(name):
    _needed()
    lang = re.search(r"-(ko|en)[.-]", name)[1]
    r = reader(name)
    for page in r.pages:
        box = page.mediabox
        assert abs(float(box.width) - A4[0]) < 1 and abs(float(box.height) - A4[1]) < 1, (name, box)
    marks = outline(r)
    text = plain(" ".join(page_text(name, i) for i in range(front_matter(r))))  # cover and contents
    for path in chapters():
        title, sections = headings(lang, path)
        assert (title, 0) in marks, f"{name}: no bookmark for {title!r}"
        assert title in text, f"{name}: {title!r} is not in the contents"
        for section in sections:
            assert (section, 1) in marks, f"{name}: no bookmark for the section {section!r} of {title!r}"
    assert os.path.getsize(OUT / name) < GOAL_BYTES, f"{name}: {os.path.getsize(OUT / name)} bytes"


@pytest.mark.parametrize("lang", LANGS)
def test_the_full_edition_has_the_solutions_and_the_student_edition_has_none(lang):
    _needed()
    full, student = reader(f"attention-step-by-step-{lang}.pdf"), reader(f"attention-step-by-step-{lang}-student.pdf")
    assert (plain(SOLUTIONS[lang]), 0) in outline(full) and (plain(SOLUTIONS[lang]), 0) not in outline(student)
    start = full.get_destination_page_number(
        next(item for item in full.outline if not isinstance(item, list) and plain(item.title) == plain(SOLUTIONS[lang])))
    # the appendix's first four pages (it grows with every chapter's solutions: read from where it starts), read
    # one by one until the solution is in them (plain() of the first pages' text starts plain() of all four)
    first_solution = plain("answer_shape = (4, 5)")  # chapter 1's first solution
    texts, appendix = [], ""
    for index in range(start, min(start + 4, len(full.pages))):
        texts.append(page_text(f"attention-step-by-step-{lang}.pdf", index))
        appendix = plain(" ".join(texts))
        if first_solution in appendix:
            break
    assert first_solution in appendix
    # the same chapters, page for page: the student edition is the full one without its solutions (the contents
    # may differ by a page: the full edition's lists the solutions), and so it ends on the same page number
    assert student.page_labels[-1] == full.page_labels[start - 1], (student.page_labels[-1], full.page_labels[start - 1])
    assert len(student.pages) - front_matter(student) == start - front_matter(full)


def pdf_objects(name: str) -> dict[int, bytes]:
    """The PDF's objects as pypdf writes them (each dictionary in plain text, no object streams): number -> its
    dictionary, up to its stream's data if it has one. Reading the fonts' dictionaries this way takes 0.1 s of CPU
    where pypdf's objects took 3 s for the Korean book (its ~2,000 Type3 fonts' long arrays)."""
    data = (OUT / name).read_bytes()
    assert b"/ObjStm" not in data, f"{name}: objects in object streams; read them with pypdf instead"
    return {int(n): body for n, body in re.findall(rb"\n(\d+) 0 obj\s*(<<.*?)(?:stream\r?\n|endobj)", data, re.S)}


@pytest.mark.parametrize("lang", LANGS)
def test_every_font_is_embedded_and_korean_text_reads_back(lang):
    """A glyph missing from the embedded fonts would print as a box; every font here is embedded (a Type3 font
    carries its glyphs itself, a Type0 font's glyphs are its descendant's), and the Korean chapter titles read back
    from the text layer (their glyphs are mapped to Unicode)."""
    _needed()
    name = f"attention-step-by-step-{lang}.pdf"
    objects = pdf_objects(name)
    fonts = {n: body for n, body in objects.items() if re.search(rb"/Type\s*/Font\b", body)}
    assert len(fonts) > 10, f"{name}: {len(fonts)} fonts found"
    for number, font in fonts.items():
        subtype = re.search(rb"/Subtype\s*/(\w+)", font)[1]
        if subtype in (b"Type3", b"Type0"):
            continue
        descriptor = re.search(rb"/FontDescriptor\s+(\d+) 0 R", font)
        assert descriptor, f"object {number}: font {subtype.decode()} without a descriptor (not embedded)"
        base = re.search(rb"/BaseFont\s*/(\S+)", font)
        assert re.search(rb"/FontFile[23]?\s+\d+ 0 R", objects[int(descriptor[1])]), (
            f"object {number}: font {base[1].decode() if base else subtype.decode()} is not embedded")
    if lang == "ko":
        r = reader(name)
        text = plain(" ".join(page_text(name, i) for i in range(front_matter(r))))
        assert plain("딕셔너리에서 어텐션으로") in text and plain("멀티헤드 어텐션") in text


class Figures(HTMLParser):
    """The figures a chapter page shows in its cells' outputs (tests' selector: .cell_output img, .cell_output svg
    not inside another svg, not an icon), counted without building the page's tree (BeautifulSoup took 2 s of CPU
    for a language's ten pages)."""

    def __init__(self, html: str):
        super().__init__()
        self.divs, self.output_at, self.svgs, self.count = 0, None, 0, 0
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "div":
            self.divs += 1
            if self.output_at is None and "cell_output" in classes:
                self.output_at = self.divs
        elif self.output_at is not None and tag == "img":
            self.count += 1
        elif tag == "svg":
            if self.output_at is not None and self.svgs == 0 and "icon" not in classes:
                self.count += 1
            self.svgs += 1

    def handle_startendtag(self, tag, attrs):
        if self.output_at is not None and (tag == "img" or (tag == "svg" and self.svgs == 0)):
            self.count += 1

    def handle_endtag(self, tag):
        if tag == "div":
            if self.output_at == self.divs:
                self.output_at = None
            self.divs -= 1
        elif tag == "svg":
            self.svgs -= 1


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_handouts_link_to_the_site_and_keep_every_code_line_and_figure(lang):
    _needed()
    from tools.source import book_links

    site = book_links()["site"]
    for path in chapters():
        stem = path.stem
        entry = report()["chapters"][f"{lang}/{stem}"]
        assert entry["too_wide"] == [], f"{lang}/{stem}: code lines wider than the page: {entry['too_wide']}"
        assert entry["solutions"] > 0
        on_site = Figures((ROOT / "_build/html" / lang / f"{stem}.html").read_text(encoding="utf-8")).count
        assert entry["figures"] >= on_site, f"{lang}/{stem}: {entry['figures']} figures printed, {on_site} on the site"
        r = reader(f"{lang}/{stem}.pdf")
        first = r.pages[0]
        uris = [a.get_object().get("/A", {}).get("/URI", "") for a in first.get("/Annots") or []]
        assert f"{site}{lang}/{stem}.html" in uris, f"{lang}/{stem}: no link to its page on the site: {uris}"
        assert any(u.endswith(f"notebooks/{lang}/{stem}.ipynb") for u in uris), uris


# What a page draws, read from its content stream without pypdf's operator parser (3 s of CPU a book; this, 1 s):
# Chromium ends every operator's line with it, so one regex finds the operators that place and paint things, and
# the glyphs' runs (`... Td <..> Tj`, most of the stream) are passed over.
OPERATORS = re.compile(rb"^([-+\d. RG]*?)(cm|Tm|rg|re|[mlcfnqQ]|f\*|Do|W\*? n)$", re.M)


def empty_frames(content: bytes) -> list[tuple[int, int, int, int]]:
    """The code frames a page draws with nothing in them: a light grey filled shape at least 300 pt wide and 8 pt
    tall (a code cell's or an output's background; the text column is 515 pt) in which no text line starts and no
    image or form is drawn. As (left, bottom, right, top) in points."""
    ctm, stack, light, path, frames, marks = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), [], False, [], [], []

    def at(x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = ctm
        return a * x + c * y + e, b * x + d * y + f

    for args, op in OPERATORS.findall(content):
        if op in (b"m", b"l", b"c", b"re"):
            if light:
                v = [float(x) for x in args.split()]
                path += [(v[0], v[1]), (v[0] + v[2], v[1] + v[3])] if op == b"re" else [(v[-2], v[-1])]
        elif op in (b"Tm", b"Do"):  # a text line starts, an image or a form is drawn (its middle)
            marks.append(at(*(float(x) for x in args.split()[4:6])) if op == b"Tm" else at(0.5, 0.5))
        elif op == b"q":
            stack.append((ctm, light))
        elif op == b"Q":
            ctm, light = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(x) for x in args.split())
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == b"rg":
            light = all(0.85 < float(x) < 0.995 for x in args.split()[-3:])
        elif op in (b"f", b"f*") and path:
            xs, ys = zip(*(at(x, y) for x, y in path), strict=True)
            frames.append((min(xs), min(ys), max(xs), max(ys)))
            path = []
        else:  # n, W n: a clipping path, painted by nothing
            path = []
    return [tuple(round(v) for v in (x0, y0, x1, y1)) for x0, y0, x1, y1 in frames
            if x1 - x0 >= 300 and y1 - y0 >= 8 and not any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in marks)]


def test_empty_frames_are_found_in_a_page_as_chromium_draws_it():
    """The reader of frames on a page Chromium's way (page scale, a frame drawn in a q/cm block of its own): an
    empty frame is found where it is; one with a line of text in it, a white or dark box, a clip are not frames."""
    page = (b"q\n.24 0 0 -.24 0 842.88 cm\nq\n3.125 0 0 3.125 162.5 190.625 cm\n1 1 1 RG 1 1 1 rg\n0 0 690 1003 re\nf\nQ\n"
            b"q\n162.5 190.625 2155 3132 re\nW* n\nq\n3.125 0 0 3.125 162.5 -9212.5 cm\n"
            b".9686 .9686 .9686 RG .9686 .9686 .9686 rg\n/G3 gs\n1.5 3295.5 m\n1.5 3095.3 l\n"
            b"1.49 3094.6 1.59 3094.0 1.79 3093.4 c\n689.5 3095.3 l\n689.5 3295.5 l\nh\nf\nQ\nQ\n")
    assert empty_frames(page) == [(40, 582, 556, 734)]  # 152 pt of grey across the text column
    text = b"BT\n/F6 10.93 Tf\n1 0 0 -1 200 3200 Tm\n<0052> Tj\n6.57 0 Td <0046> Tj\nET\n"
    assert empty_frames(page[:-4] + text + b"Q\nQ\n") == []
    assert empty_frames(page.replace(b".9686 .9686 .9686 rg", b".2 .2 .2 rg")) == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_ends_in_an_empty_code_frame(lang):
    """A code cell or an output that does not fit where it starts breaks across pages, or moves whole to the next
    page without leaving its frame behind (the site keeps div.highlight whole but not the frame around it: 64 pages
    of the English book and 78 of the Korean ended in an empty grey frame, one a whole page). The full edition has
    every chapter's pages and both appendices."""
    _needed()
    name = f"attention-step-by-step-{lang}.pdf"
    found = {r + 1: frames for r, page in enumerate(reader(name).pages)
             if (frames := empty_frames(page.get_contents().get_data()))}
    assert not found, f"{name}: empty code frames on {len(found)} pages (page: [(left, bottom, right, top)]): {found}"


@pytest.mark.parametrize("name", [*EDITIONS, *(f"{lang}/{chapters()[0].stem}.pdf" for lang in LANGS)])
def test_page_labels_are_the_printed_page_numbers(name):
    """A PDF viewer's page numbers are the ones printed at the foot of the pages: i, ii, ... for the cover and the
    contents (none printed), then 1, 2, ... from the first chapter; read on the first chapter's first page and on
    the last page."""
    _needed()
    r = reader(name)
    front = front_matter(r) if "/" not in name else 0
    labels = r.page_labels
    roman = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]
    assert labels[:front] == roman[:front] and labels[front:] == [str(n + 1) for n in range(len(labels) - front)], (
        f"{name}: page labels {labels[:front + 2]}... for {front} pages of cover and contents")
    for index in (front, len(labels) - 1):
        printed = page_text(name, index).rstrip().rsplit("\n", 1)[-1].strip()
        assert printed == labels[index], f"{name}: page {index + 1} prints {printed!r}, its label is {labels[index]!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_edition_answers_check_yourself_in_an_appendix_and_says_so_where_it_asks(lang):
    """The site's "Check yourself" questions open their answers on a click; on paper the questions stay in the
    chapter, the sentence before them says where the answers are, and the answers are in an appendix of either
    edition (before the solutions) and at the end of each handout. Every question of every chapter is printed
    (report.json counts them in the printed page); the text is read for the first chapter and the last."""
    _needed()
    full, student = reader(f"attention-step-by-step-{lang}.pdf"), reader(f"attention-step-by-step-{lang}-student.pdf")
    for r in (full, student):
        assert bookmark(r, ANSWERS[lang]) is not None, f"{lang}: no appendix {ANSWERS[lang]!r}"
    start = bookmark(full, ANSWERS[lang])
    assert start < bookmark(full, SOLUTIONS[lang])
    appendix = plain(" ".join(page_text(f"attention-step-by-step-{lang}.pdf", i)
                              for i in range(start, bookmark(full, SOLUTIONS[lang]))))
    book = f"attention-step-by-step-{lang}.pdf"
    paths = chapters()
    for path in paths:
        heading, intro, asked = self_check(path, lang)
        assert report()["chapters"][f"{lang}/{path.stem}"]["self_check"] == len(asked), path.stem
        handout = reader(f"{lang}/{path.stem}.pdf")
        assert (bookmark(handout, ANSWERS[lang]) is not None) == bool(asked), f"{lang}/{path.stem}.pdf: its answers"
        if path not in (paths[0], paths[-1]) or not asked:
            continue
        for question, answer in asked:
            if "$" not in answer:  # the site shows TeX as math
                assert plain(answer) in appendix, f"{lang}: the answer to {question!r} is not in the appendix"
        # the sentence after the heading: on the heading's page (a heading is kept with what follows it)
        asks = plain(page_text(book, bookmark(full, heading, 1, parent=parse(path).title(lang))))
        assert plain(ANSWERS_NOTE[lang]) in asks and plain(intro) not in asks, f"{lang}/{path.stem}: {intro!r}"
        last = plain(page_text(f"{lang}/{path.stem}.pdf", len(handout.pages) - 1))
        assert "$" in asked[-1][1] or plain(asked[-1][1]) in last, f"{lang}/{path.stem}.pdf: not its last answer"


def test_tests_that_read_the_site_wait_for_the_pdf_print_and_fail_if_it_failed(tmp_path):
    """make test prints the PDF while the tests run (Makefile): every test module that reads the built site or the
    PDF waits for the print's exit status, and a failed print fails them with its last lines."""
    from conftest import wait_for_pdf_build

    readers = [p.name for p in sorted((ROOT / "tests").glob("test_*.py"))
               if re.search(r'"_build"\s*/\s*"(html|pdf)"', p.read_text(encoding="utf-8"))]
    assert len(readers) >= 5, readers
    waiting = [name for name in readers
               if 'pytestmark = pytest.mark.usefixtures("built_site")' in (ROOT / "tests" / name).read_text(encoding="utf-8")]
    assert waiting == readers, f"these read _build/html or _build/pdf without waiting for make test's PDF print: " \
                               f"{sorted(set(readers) - set(waiting))}"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "BOOK_PDF_STATUS=$(PDF_STATUS) $(PY) -m pytest" in makefile and "> _build/pdf-build.log" in makefile
    status = tmp_path / "pdf-build.status"
    (tmp_path / "pdf-build.log").write_text("printing...\nTimeoutError: page.pdf: Timeout 30000ms exceeded\n",
                                            encoding="utf-8")
    with pytest.raises(pytest.fail.Exception, match="did not end within 1 s"):
        wait_for_pdf_build(str(status), seconds=1)
    status.write_text("1\n", encoding="utf-8")
    with pytest.raises(pytest.fail.Exception, match=r"failed \(exit status '1'\)[\s\S]*Timeout 30000ms exceeded"):
        wait_for_pdf_build(str(status))
    status.write_text("0\n", encoding="utf-8")
    wait_for_pdf_build(str(status))  # returns
    wait_for_pdf_build("")  # no print running: nothing to wait for
