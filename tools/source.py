"""Read a bilingual chapter source and turn it into one notebook per language.

A chapter source (``book/chapters/NN_name.md``) is a list of cells, each opened by a
marker line:

``%% ko`` / ``%% en``
    Prose in Korean / English (MyST Markdown). Prose always comes in pairs: a ``%% ko``
    cell immediately followed by its ``%% en`` twin, so both notebooks have the same cells
    in the same order.
``%% code [flag ...]``
    Python shared by both languages. Flags: ``widget`` (the cell only wires an ipywidgets
    explorer; its output is not compared by nbval), ``hide-input`` (the site shows only the
    output), ``drawing`` (code that only draws a figure: folded on the site like ``hide-input``, and in
    Colab as a form under a generated ``#@title`` line naming what it defines), ``tool`` (the same for
    a measuring tool whose working the prose before it tells; its ``#ko contract:`` / ``#en contract:`` lines,
    what to call and what it gives, become its title, marked optional reading), ``setup`` (left empty: it becomes the set-up cell of ``book/chapters/_setup.py``, which
    installs the Hangul font package in Colab and defines ``expect_error``; it comes right after the
    title cell, and the site leaves it out).

A cell that fails on purpose is an ordinary code cell whose failing lines sit inside
``with expect_error(SomeError):``: the reader sees PyTorch's real traceback, Run all goes on (Colab
ignores cell tags, so a tag could not do this), and the cell fails if the error stops happening.

Prose is written in MyST (labels, ``:::{exercise}`` boxes, links to labels) for the site. The
notebooks that readers open get plain Jupyter Markdown instead (``plain_markdown``): no labels,
exercises as headings, solutions in ``<details>``, and links to labels pointing at the published
site's page in the same language. The site is staged from the MyST prose plus the executed
notebooks' outputs (``Chapter.site_notebook``).

Exercises (see CONTRIBUTING.md): ``%% code solution`` is the learner's cell, holding the
solution in the book's notebooks; the ``%% code student`` cell directly before it takes its
place in the student notebooks. ``%% code check`` is one line, ``check("chNN-ex-topic")``, that tells the
learner whether the answer is right (its output is in the notebook's language). The set-up cell of a chapter with
check cells defines the shared ``check`` function of ``book/chapters/_exercise_helper.py`` and holds the
chapter's checks, ``book/chapters/checks/chNN.py`` (one function per exercise, registered with
``@exercise(label, hint)``), so that a check run in any kernel state where the set-up cell ran gives a message,
never a NameError. ``%% code explorer-helper``
(left empty, left off the site) becomes the ``explorer`` function of ``book/chapters/_explorer_helper.py``,
which later cells call to wire an explorer. Prose cells that
hold a ``{solution}`` directive are left out of the student notebooks.

Inside a code cell, a line may belong to one language only:

``#ko| code`` / ``#en| code``
    the line ``code`` appears only in that language's notebook (for translated labels);
``#ko: text`` / ``#en: text``
    shorthand for ``#ko| # text``: a translated comment.

A run of ``ko`` lines must be followed by a run of ``en`` lines at the same indentation,
so neither language can silently lose a line.

A cell that draws a figure describes it for readers who cannot see it, once per language, in two
lines at the left margin (anywhere in the cell, the Korean line directly before the English one):

``#ko alt: text`` / ``#en alt: text``
    the figure's alt text; the line leaves the code and becomes the cell's metadata
    ``mystnb.image.alt``, which the site puts on the cell's images (and, for a widget cell, on the
    images its saved explorer draws).
"""

from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from tools import config

LANGS = ("ko", "en")
FLAGS = {  # flag in the source -> tag in the notebook
    "widget": "nbval-ignore-output",
    "hide-input": "hide-input",
    "drawing": "hide-input",
    "tool": "hide-input",
    "setup": "remove-cell",
    "solution": "exercise-solution",
    "student": "exercise-student",
    "check": "exercise-check",
    "explorer-helper": "remove-cell",
}
EXERCISE_HELPER = Path(__file__).resolve().parent.parent / "book" / "chapters" / "_exercise_helper.py"
SETUP = Path(__file__).resolve().parent.parent / "book" / "chapters" / "_setup.py"
# Flags that are gone, and what to write instead.
RETIRED_FLAGS = {
    "raises-exception": "write the failing lines inside 'with expect_error(SomeError):' in a plain '%% code' cell "
                        "(Colab's Run all ignores cell tags and would stop at the error)",
    "exercise-helper": "remove the cell: the set-up cell defines check() in every chapter with check cells, so "
                       "that a check run after a restart or out of order says what to run instead of a NameError",
}
# ``%% code explorer-helper`` is left empty like the exercise helper: it becomes the shared ``explorer``
# function, which wires an explorer's widgets and stores the output of every setting for the web page.
EXPLORER_HELPER = EXERCISE_HELPER.with_name("_explorer_helper.py")
# each chapter's checks: book/chapters/checks/chNN.py (checks_path), held by the chapter's set-up cell after the
# check helper; a check cell is one call of check() naming its exercise
CHECK_CALL = re.compile(r'check\("(ch\d\d-ex-[\w-]+)"\)')
SOLUTION_DIRECTIVE = re.compile(r"^(:::+|```+)\{solution\}", re.MULTILINE)
ROOT = Path(__file__).resolve().parent.parent
CHAPTER_DIR = ROOT / "book" / "chapters"
NOTEBOOK_DIR = ROOT / "notebooks"

_MARKER = re.compile(r"^%%(.*)$")
# MyST in the prose, and what the plain rendering makes of it
LABEL_LINE = re.compile(r"^\(([\w-]+)\)=[ \t]*\n?", re.MULTILINE)
DIRECTIVE = re.compile(r"^(?P<fence>:{3,}|`{3,})\{(?P<name>[\w-]+)\}(?P<arg>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                       re.MULTILINE | re.DOTALL)
EXERCISE_DIRECTIVE = re.compile(r"^:{3,}\{exercise\}", re.MULTILINE)
EXERCISE_LABEL = re.compile(r"^:label:[ \t]*([\w-]+)", re.MULTILINE)
SOLUTION_BLOCK = re.compile(r"^(?P<fence>:{3,})\{solution\}[ \t]*(?P<label>[\w-]+)[ \t]*\n(?:[ \t]*:[\w-]+:[^\n]*\n)*"
                            r"(?P<body>.*?)^(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)
LABEL_LINK = re.compile(r"\[(?P<text>[^\]\n]+)\]\((?P<target>[A-Za-z][\w-]*)\)")
ROLE = re.compile(r"\{[a-z]+\}`")
EXPECTS_ERROR = re.compile(r"^\s*with expect_error\(", re.MULTILINE)
PLAIN_WORDS = {"ko": {"exercise": "연습 문제", "solution": "풀이 설명"},
               "en": {"exercise": "Exercise", "solution": "Explanation"}}
_ALT = re.compile(r"^(?P<indent>\s*)#(?P<lang>ko|en)(?P<kind>[|:])(?: (?P<text>.*))?$")
_FIGURE_ALT = re.compile(r"^#(?P<lang>ko|en) alt:(?P<text>.*)$")
# a tool cell's one-line contract: what to call and what it gives, shown in its folded title
_CONTRACT = re.compile(r"^#(?P<lang>ko|en) contract:(?P<text>.*)$")


class SourceError(ValueError):
    """A chapter source that cannot be turned into notebooks; the message says where and why."""


@dataclass
class Cell:
    kind: str  # "ko", "en" or "code"
    line: int  # 1-based line of the marker in the source
    lines: list[str] = field(default_factory=list)
    flags: tuple[str, ...] = ()

    def text(self, lang: str) -> str:
        if self.kind != "code":
            return "\n".join(self.lines).strip("\n")
        out = []
        for raw in self.lines:
            if _FIGURE_ALT.match(raw) or _CONTRACT.match(raw):
                continue
            m = _ALT.match(raw)
            if not m:
                out.append(raw)
            elif m["lang"] == lang:
                text = m["text"] or ""
                out.append(m["indent"] + (text if m["kind"] == "|" else f"# {text}".rstrip()))
        return "\n".join(out).strip("\n")

    def _line(self, pattern: re.Pattern, lang: str) -> str | None:
        """The text of the cell's first line matching `pattern` for `lang` ('#ko alt: ...'), if any."""
        for raw in self.lines:
            m = pattern.match(raw)
            if m and m["lang"] == lang:
                return m["text"].strip()
        return None

    def contract(self, lang: str) -> str | None:
        """A tool cell's one-line contract in one language (its '#ko contract:' / '#en contract:' line)."""
        return self._line(_CONTRACT, lang)

    def figure_alt(self, lang: str) -> str | None:
        """The figure's alt text in one language (its '#ko alt:' / '#en alt:' line), if it has one."""
        return self._line(_FIGURE_ALT, lang)


# LaTeX commands of the solutions' formulas and the plain text they print as
PLAIN_SYMBOLS = {"approx": "≈", "cdot": "·", "times": "×", "pi": "π", "theta": "θ", "ln": "ln", "log": "log",
                 "exp": "exp", "le": "≤", "ge": "≥", "ne": "≠"}


def plain_math(formula: str) -> str:
    """A formula of the solutions' few kinds as plain text: $x W_Q^\\top$ -> x W_Qᵀ, $e^{m_\\text{old}}$ -> e^(m_old)."""
    text = formula.replace("^\\top", "ᵀ").replace("\\top", "ᵀ")
    text = re.sub(r"\\sqrt\{([^{}]*)\}", r"√(\1)", text)
    for command, symbol in PLAIN_SYMBOLS.items():
        text = re.sub(rf"\\{command}(?![A-Za-z])", symbol, text)
    text = re.sub(r"\\(?:text|mathrm)\{([^{}]*)\}", r"\1", text)
    while "{" in text:
        new = re.sub(r"\^\{([^{}]*)\}", r"^(\1)", re.sub(r"_\{([^{}]*)\}", r"_\1", text))
        if new == text:
            raise SourceError(f"a solution's formula ${formula}$ has no plain-text form: add its kind to plain_math")
        text = new
    if "\\" in text:
        raise SourceError(f"a solution's formula ${formula}$ has no plain-text form: add its kind to plain_math")
    return text


def notebook_note(markdown: str) -> str:
    """A solution's Markdown as a notebook renders it after a right answer (Jupyter, JupyterLab, Colab: bold, code
    and $math$ as they are): only the book's cross-references, which mean nothing in a notebook, become their text."""
    return re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)


def plain_note(markdown: str, lang: str) -> str:
    """A solution's Markdown as the plain text check() prints after a right answer: no **, code in «» (Korean)
    or bare (English), formulas in plain symbols, links as their text, lines after the first indented under
    the '   Why:' that precedes it."""
    pieces = re.split(r"(`[^`]+`)", markdown)  # code spans kept as they are, but for their marks
    for i, piece in enumerate(pieces):
        if i % 2:
            pieces[i] = f"«{piece[1:-1]}»" if lang == "ko" else piece[1:-1]
        else:
            piece = re.sub(r"\*\*(.+?)\*\*", r"\1", piece)
            piece = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", piece)
            pieces[i] = re.sub(r"\$([^$]+)\$", lambda m: plain_math(m[1]), piece)
    text = "".join(pieces)
    return "\n".join(line if i == 0 or not line else "   " + line for i, line in enumerate(text.splitlines()))


@dataclass
class Chapter:
    path: Path
    cells: list[Cell]

    @property
    def stem(self) -> str:
        return self.path.stem

    def title(self, lang: str) -> str:
        for cell in self.cells:
            if cell.kind == lang:
                for line in cell.lines:
                    if line.startswith("# "):
                        return line[2:].strip()
        raise SourceError(f"{self.path}: no '# title' heading in the first {lang} cell")

    def cells_for(self, lang: str, student: bool = False) -> list[Cell]:
        """The source cells that make up one language's notebook, in order."""
        cells = [c for c in self.cells if c.kind in ("code", lang)]
        if student:
            return [c for c in cells if "solution" not in c.flags and not SOLUTION_DIRECTIVE.search(c.text(lang))]
        return [c for c in cells if "student" not in c.flags]

    def cell_id(self, lang: str, position: int) -> str:
        return f"{self.stem[:2]}-{position + 1:03d}"

    def source_line(self, lang: str, cell_id: str, student: bool = False) -> int | None:
        for position, cell in enumerate(self.cells_for(lang, student)):
            if self.cell_id(lang, position) == cell_id:
                return cell.line
        return None

    def notebook(self, lang: str, student: bool = False) -> nbformat.NotebookNode:
        """The notebook readers open, in one language: plain Jupyter Markdown, the title first, then
        one line saying which book this is and where its site and twin are; (student=True) the one
        without solutions, which also says how the checks work."""
        if lang not in LANGS:
            raise SourceError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
        nb = nbformat.v4.new_notebook()
        nb.metadata = notebook_metadata(lang)
        exercises = 0
        for position, cell in enumerate(self.cells_for(lang, student)):
            cell_id = self.cell_id(lang, position)
            if cell.kind == "code":
                nb.cells.append(self._code_cell(cell, lang, cell_id))
                if student and "setup" in cell.flags:
                    nb.cells[-1].source += self.solution_notes(lang)
                continue
            text = cell.text(lang)
            exercises += len(EXERCISE_DIRECTIVE.findall(text))
            where = f"{self.path.name}:{cell.line}"
            plain = plain_markdown(text, lang, where, first_exercise=exercises - len(EXERCISE_DIRECTIVE.findall(text)) + 1,
                                   page=self.stem)
            if position == 0:
                plain = _after_title(plain, self.intro(lang, student), where)
            nb.cells.append(nbformat.v4.new_markdown_cell(plain, id=cell_id))
        return nb

    def _code_cell(self, cell: Cell, lang: str, cell_id: str) -> nbformat.NotebookNode:
        if "explorer-helper" in cell.flags:
            text = f"{HELPER_TITLE['explorer'][lang]}\n{exercise_helper(lang, EXPLORER_HELPER)}"
        elif "setup" in cell.flags:
            text = setup_code(lang, imported_modules(self.cells), checks=self.checks_path if self.has_checks() else None)
        else:
            text = cell.text(lang)
        if "tool" in cell.flags:
            text = f"{TOOL_TITLE[lang].format(contract=cell.contract(lang))}\n{text}"
        elif "drawing" in cell.flags:
            text = f"{drawing_title(text, lang)}\n{text}"
        new = nbformat.v4.new_code_cell(text, id=cell_id)
        tags = list(dict.fromkeys(FLAGS[f] for f in cell.flags))
        if EXPECTS_ERROR.search(text):
            # for nbval only: this cell shows an error on purpose, compare it like any output. Colab ignores
            # tags, and needs none here: expect_error lets Run all go on
            tags.append("raises-exception")
        if tags:
            new.metadata["tags"] = tags
        alt = cell.figure_alt(lang)
        if alt:
            new.metadata["mystnb"] = {"image": {"alt": alt}}
        if {"setup", "drawing", "tool", "explorer-helper"} & set(cell.flags):
            # folded wherever the notebook opens: Colab shows the '#@title' line in place of the code,
            # JupyterLab and Notebook 7 show the first line with the rest one click away
            new.metadata["cellView"] = "form"
            new.metadata["jupyter"] = {"source_hidden": True}
        return new

    def has_checks(self) -> bool:
        return any("check" in c.flags for c in self.cells)

    @property
    def checks_path(self) -> Path:
        """The module of this chapter's checks, whose functions its one-line check cells call."""
        return checks_path(self.path)

    def solution_notes(self, lang: str) -> str:
        """For a student notebook's check helper: each exercise's solution text, as Markdown (shown rendered, math
        included) and as plain text (where nothing renders it), base64-encoded so that it is not read by accident,
        which check() shows once the answer is right (the solutions themselves
        are left out of student notebooks)."""
        import base64

        notes = {}
        for cell in self.cells:
            if cell.kind != lang:
                continue
            text = cell.text(lang)
            for m in re.finditer(r"^(:::+)\{solution\} (\S+)\n(.*?)^\1\s*$", text, re.M | re.S):
                body = "\n".join(line for line in m[3].splitlines() if not line.startswith(":")).strip()
                forms = {"markdown": notebook_note(body), "plain": plain_note(body, lang)}
                notes[m[2]] = {}
                for form, text in forms.items():
                    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
                    notes[m[2]][form] = [encoded[i:i + 72] for i in range(0, len(encoded), 72)]
        if not notes:
            return ""
        lines = ["", "", "SOLUTION_NOTES = {"]
        for label, forms in notes.items():
            lines.append(f'    "{label}": {{')
            for form, pieces in forms.items():
                lines.append(f'        "{form}": [')
                lines += [f'            "{piece}",' for piece in pieces]
                lines.append("        ],")
            lines.append("    },")
        lines.append("}")
        return "\n".join(lines)

    def intro(self, lang: str, student: bool = False) -> str:
        """The line under a notebook's title: the book, its site page, the twin notebook, what it needs."""
        info = book_links()
        other = next(x for x in LANGS if x != lang)
        number = int(self.stem[:2])
        folder = "student" if student else "notebooks"
        page = f"{info['site']}{lang}/{self.stem}.html"
        twin = f"{info['colab']}{folder}/{other}/{self.stem}.ipynb"
        title = info["titles"][lang]
        if lang == "ko":
            line = (f"*{title}* {number}장 · [웹에서 읽기]({page}) · [{'English student notebook' if student else 'English notebook'}]({twin})"
                    " · GPU 없이 CPU로 충분하며, 모두 실행(Run all)에 1분이 채 걸리지 않습니다.")
            if student:
                line += ("\n\n**학생용 노트북**입니다. 연습 문제마다 답을 쓰는 셀과 확인 셀이 있습니다. 답을 쓴 셀을 실행한 다음 확인 셀을 실행하면"
                         " ✅(정답) 또는 ❌(힌트)가 나옵니다. 런타임을 다시 시작한 뒤라면 확인 셀이 ⏸️와 함께 먼저 실행할 셀을 알려 줍니다.")
        else:
            line = (f"*{title}*, chapter {number} · [read it on the web]({page}) · [{'한국어 학생용 노트북' if student else '한국어 노트북'}]({twin})"
                    " · runs on a CPU, no GPU needed: Run all takes under a minute.")
            if student:
                line += ("\n\nThis is the **student notebook**. Each exercise has a cell for your answer and a check cell: run your"
                         " answer, then the check, and it prints ✅ (correct) or ❌ (with a hint). After a runtime restart the check"
                         " prints ⏸️ and says which cells to run first.")
        return line

    def site_notebook(self, lang: str, executed: nbformat.NotebookNode) -> nbformat.NotebookNode:
        """The page the site builds for this chapter: the executed notebook's code cells and outputs,
        with the source's MyST prose (labels, exercise boxes, cross-references) in place of the plain
        Markdown, and each exercise's solution (code, check and explanation) folded in a gated
        solution box after what the learner starts from (the student cell: a stub, or the buggy code)."""
        cells = self.cells_for(lang)
        if [c.id for c in executed.cells] != [self.cell_id(lang, i) for i in range(len(cells))]:
            raise SourceError(f"{notebook_path(self.stem, lang).relative_to(ROOT)} does not match "
                              f"{self.path.name}: run 'make execute CHAPTER={self.stem[:2]}'")
        students = {id(n): c for c, n in zip(self.cells, self.cells[1:], strict=False) if "student" in c.flags}
        nb = copy.deepcopy(executed)
        out = []
        folding = None  # the label of the exercise whose solution is open
        for source, cell in zip(cells, nb.cells, strict=True):
            if source.kind != "code":
                text = source.text(lang)
                solution = SOLUTION_BLOCK.search(text)
                if solution:
                    if folding != solution["label"]:
                        raise SourceError(f"{self.path.name}:{source.line}: the solution of {solution['label']} must follow "
                                          "its solution and check cells")
                    text = (text[:solution.start()] + solution["body"].strip("\n") + text[solution.end():]).strip("\n")
                    cell.source = text
                    out.append(cell)
                    out.append(nbformat.v4.new_markdown_cell(":::{solution-end}\n:::", id=f"{cell.id}-end"))
                    folding = None
                    continue
                cell.source = text
            elif "solution" in source.flags:
                label = self._exercise_label(source)
                student = students[id(source)]
                stub = nbformat.v4.new_code_cell(student.text(lang), id=f"{cell.id}-start")
                stub.metadata["tags"] = ["exercise-student"]
                out.append(stub)
                out.append(nbformat.v4.new_markdown_cell(
                    f":::{{solution-start}} {label}\n:class: dropdown\n:::", id=f"{cell.id}-open"))
                folding = label
            out.append(cell)
        if folding:
            raise SourceError(f"{self.path.name}: the solution of {folding} has no explanation cell ':::{{solution}} {folding}'")
        nb.cells = out
        return nb

    def _exercise_label(self, solution: Cell) -> str:
        """The label of the exercise a solution cell answers: the nearest ':label:' above it."""
        label = None
        for cell in self.cells:
            if cell is solution:
                break
            m = EXERCISE_LABEL.search("\n".join(cell.lines)) if cell.kind != "code" else None
            if m:
                label = m[1]
        if not label:
            raise SourceError(f"{self.path.name}:{solution.line}: a solution cell with no exercise (':::{{exercise}}' "
                              "with ':label:') above it")
        return label


def plain_markdown(text: str, lang: str, where: str, first_exercise: int = 1, page: str | None = None) -> str:
    """MyST prose as plain Jupyter Markdown, which Colab, JupyterLab, VS Code and GitHub all render:
    exercises as numbered headings, solutions in <details>, links to labels pointing at the published
    site's page in the same language. On the notebook's own page (`page`), a label line becomes an HTML
    anchor and a link to it stays in the notebook (`#label`), which Colab and Jupyter both follow; other
    label lines are dropped."""
    words = PLAIN_WORDS[lang]
    number = [first_exercise - 1]

    def directive(m: re.Match) -> str:
        name, body = m["name"], m["body"]
        options = dict(re.findall(r"^:([\w-]+):[ \t]*(.*)$", body, re.MULTILINE))
        body = re.sub(r"\A(?:[ \t]*:[\w-]+:[^\n]*\n)*", "", body).strip("\n")
        if name == "exercise":
            number[0] += 1
            label = options.get("label")
            if not label:
                raise SourceError(f"{where}: an exercise needs ':label: chNN-ex-topic' (its check prints that name)")
            return f"### {words['exercise']} {number[0]} (`{label}`)\n\n{body}"
        if name == "solution":
            return f"<details>\n<summary>{words['solution']}</summary>\n\n{body}\n\n</details>"
        raise SourceError(f"{where}: the directive '{{{name}}}' has no plain-Markdown rendering for the notebooks; "
                          "use plain Markdown, or teach tools/source.py:plain_markdown to render it")

    text = DIRECTIVE.sub(directive, text)
    if ROLE.search(text):
        raise SourceError(f"{where}: MyST roles such as {ROLE.search(text)[0]}...` do not render in notebooks; "
                          "link with [text](label) instead")
    labels = label_pages()
    if page is None:
        text = LABEL_LINE.sub("", text)
    else:
        text = LABEL_LINE.sub(lambda m: f'<a id="{m[1]}" name="{m[1]}"></a>\n' if labels.get(m[1], ("", False))[1]
                              else "", text)

    def link(m: re.Match) -> str:
        target = m["target"]
        if target not in labels:
            if "-" in target or target.startswith("ch"):
                raise SourceError(f"{where}: [{m['text']}]({target}) links to no known label; labels are the "
                                  "'(name)=' lines of book/chapters/*.md and book/<lang>/*.md")
            return m[0]
        target_page, anchor = labels[target]
        if target_page == page and anchor:
            return f"[{m['text']}](#{target})"
        url = f"{book_links()['site']}{lang}/{target_page}.html" + (f"#{target}" if anchor else "")
        return f"[{m['text']}]({url})"

    text = LABEL_LINK.sub(link, text)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def _after_title(text: str, line: str, where: str) -> str:
    """Put `line` right under the notebook's '# title' heading."""
    m = re.search(r"^# .*$", text, re.MULTILINE)
    if not m:
        raise SourceError(f"{where}: the first cell must hold the chapter's '# N. Title' heading")
    rest = text[m.end():].lstrip("\n")
    return f"{text[:m.end()]}\n\n{line}" + (f"\n\n{rest}" if rest else "")


@functools.cache
def label_pages() -> dict[str, tuple[str, bool]]:
    """Every label of the book -> (the page it is on, whether it needs an anchor). Labels are shared
    by both languages; a page's own first label (such as 'ch01') names the page itself."""
    found: dict[str, tuple[str, bool]] = {}
    sources = [(p.stem, p.read_text(encoding="utf-8")) for p in chapters()]
    sources += [(p.stem, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "book" / "en").glob("*.md"))]
    for stem, text in sources:
        for n, label in enumerate(dict.fromkeys(LABEL_LINE.findall(text))):
            found.setdefault(label, (stem, n > 0))
    found.setdefault("glossary-page", ("glossary", False))
    return found


@functools.cache
def book_links() -> dict:
    """Where the published book lives (site_url in _config.yml), where Colab opens its files, and its titles."""
    try:
        root = config.load()
        colab = config.colab_base(root)
    except config.ConfigError as e:
        raise SourceError(str(e)) from None
    site = str(root.get("site_url") or "")
    if not re.match(r"^https://[^/]+/(.+/)?$", site):
        raise SourceError(f"_config.yml: `site_url` must be the published site's address ending in '/' (got {site!r}); "
                          "the notebooks link to their pages there")
    if not colab:
        raise SourceError("_config.yml: the notebooks link to their twin in Colab: set launch_buttons.colab_url")
    return {"site": site, "colab": colab, "titles": {lang: root["languages"][lang]["title"] for lang in LANGS}}


# Packages the Colab set-up line installs at the version requirements.txt pins: the Hangul font package
# always, and any other the chapter imports that Colab may lack or ship in another version.
# import name -> package name
COLAB_INSTALLS = {"koreanize_matplotlib": "koreanize-matplotlib", "transformers": "transformers"}


SETUP_TITLE_CHECKS = {"ko": ("오류 셀 도우미", "오류 셀과 확인 셀 도우미"),
                      "en": ("a helper for deliberate errors", "error and check helpers")}
# and the comment under the title, which says what the cell defines
SETUP_COMMENT_CHECKS = {"ko": ("쓰는 도우미를 정의합니다.", "쓰는 도우미와\n# 연습 문제의 확인 함수 check를 정의합니다."),
                        "en": ("for the cells that fail on purpose.", "for the cells that fail on purpose,\n# and check() for the exercises.")}


def setup_code(lang: str, imports: set[str] = frozenset(), checks: Path | None = None) -> str:
    """The set-up cell: in Colab, installs the Hangul font package and the chapter's other COLAB_INSTALLS
    (`imports`: the top-level modules the chapter imports) at the versions requirements.txt pins, and
    defines expect_error for the cells that fail on purpose; with `checks` (the chapter's checks module), the
    exercises' check() and the chapter's checks too."""
    pins = {name.lower(): version for name, version in
            re.findall(r"^([\w.-]+)==(\S+)", (ROOT / "requirements.txt").read_text(encoding="utf-8"), re.MULTILINE)}
    wanted = ["koreanize_matplotlib"] + sorted(set(imports) & set(COLAB_INSTALLS) - {"koreanize_matplotlib"})
    packages = []
    for module in wanted:
        package = COLAB_INSTALLS[module]
        if package not in pins:
            raise SourceError(f"requirements.txt pins no {package}; the Colab set-up cell installs that version")
        packages.append(f"{package}=={pins[package]}")
    code = exercise_helper(lang, SETUP).replace("COLAB_PACKAGES", " ".join(packages))
    if checks:
        old, new = SETUP_TITLE_CHECKS[lang]
        title, rest = code.split("\n", 1)
        if old not in title:
            raise SourceError(f"{SETUP.name}: its first line should name {old!r}; update SETUP_TITLE_CHECKS")
        said, says = SETUP_COMMENT_CHECKS[lang]
        if said not in rest:
            raise SourceError(f"{SETUP.name}: its comment should say {said!r}; update SETUP_COMMENT_CHECKS")
        code = (f"{title.replace(old, new)}\n{rest.replace(said, says, 1)}\n\n{exercise_helper(lang)}\n\n\n"
                f"{checks_code(checks, lang)}")
    return code


def _rel(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def checks_path(chapter: Path) -> Path:
    """book/chapters/checks/chNN.py for book/chapters/NN_name.md (the folder checks/ beside the source)."""
    return chapter.parent / "checks" / f"ch{chapter.name[:2]}.py"


def checks_code(path: Path, lang: str) -> str:
    """A chapter's checks module in one language; refused with what to do when it is missing."""
    if not path.is_file():
        raise SourceError(f"{_rel(path)} is missing: a chapter "
                          "with check cells keeps its checks there, one @exercise(label, hint) function each")
    return exercise_helper(lang, path)


def registered_checks(path: Path) -> dict[str, list[str]]:
    """The exercises a checks module registers, in order: label -> the names its function reads from the
    notebook (its parameters). Refused by name when a function is not registered the one way; an undecorated
    function named _name is a helper that several of the chapter's checks share."""
    import ast

    where = _rel(path)
    try:
        tree = ast.parse(checks_code(path, "en"))
    except SyntaxError as e:
        raise SourceError(f"{where}:{e.lineno}: not valid Python: {e.msg}") from None
    found: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.FunctionDef) and node.name.startswith("_") and not node.decorator_list:
            continue  # a helper that several of the chapter's checks call
        deco = node.decorator_list if isinstance(node, ast.FunctionDef) else []
        call = deco[0] if len(deco) == 1 else None
        ok = (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "exercise"
              and len(call.args) == 2 and not call.keywords and isinstance(call.args[0], ast.Constant)
              and isinstance(call.args[0].value, str) and re.fullmatch(r"ch\d\d-ex-[\w-]+", call.args[0].value))
        if not ok:
            raise SourceError(f"{where}:{node.lineno}: a checks module holds imports, functions decorated "
                              "@exercise(\"chNN-ex-topic\", hint), and helpers several checks share, named with a "
                              "leading underscore (_name); put a helper one check uses inside that check's function")
        label = call.args[0].value
        if label in found:
            raise SourceError(f"{where}:{node.lineno}: {label} is registered twice")
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs:
            raise SourceError(f"{where}:{node.lineno}: {node.name} takes plain parameters only: the names it reads "
                              "from the notebook")
        found[label] = [a.arg for a in args.args]
    return found


def imported_modules(cells: list[Cell]) -> set[str]:
    """The top-level modules that the chapter's code cells import."""
    found = set()
    for cell in cells:
        if cell.kind == "code":
            for line in cell.lines:
                m = re.match(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", line)
                if m:
                    found.add(m[1])
    return found


DRAWING_TITLE = {"ko": "#@title 그림 그리기{names} (그리기만 하는 코드라 접어 두었습니다)",
                 "en": "#@title Drawing{names} (folded: this code only draws)"}
# ``tool``: a measuring tool whose working the prose above tells; its code stays one click away, and its title
# gives its one-line contract ('#ko contract:' / '#en contract:'), so that a reader can use it without reading it
TOOL_TITLE = {"ko": "#@title 측정 도구(읽기는 선택): {contract}",
              "en": "#@title Tool (optional reading): {contract}"}


# the shared helper cell: long code a learner runs and need not read
HELPER_TITLE = {
    "explorer": {"ko": "#@title 탐색기 도우미: explorer() (실행만 하세요. 코드는 읽지 않아도 됩니다)",
                 "en": "#@title Explorer helper: explorer() (run it; reading its code is optional)"},
}


def drawing_title(code: str, lang: str) -> str:
    """The '#@title' line of a ``drawing`` cell: Colab shows it in place of the folded code. It names
    the functions the cell defines, so that a reader knows where they come from when later cells call them."""
    import ast

    try:
        tree = ast.parse(code.replace("\n!", "\n#!").replace("\n%", "\n#%"))
    except SyntaxError:
        tree = ast.Module(body=[], type_ignores=[])
    names = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    return DRAWING_TITLE[lang].format(names=f": {', '.join(names)}" if names else "")


def exercise_helper(lang: str, path: Path = EXERCISE_HELPER) -> str:
    """The shared `check` function (or, given its path, the `explorer` function or the set-up cell), in one
    language (its source uses the same #ko/#en lines)."""
    cell = Cell("code", 1, path.read_text(encoding="utf-8").splitlines())
    _check_alternatives(path, cell)
    return cell.text(lang)


def notebook_metadata(lang: str) -> dict:
    return {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python", "pygments_lexer": "ipython3"},
        "book": {"language": lang},
    }


_parsed: dict[Path, tuple[tuple, Chapter]] = {}


def parse(path: Path) -> Chapter:
    """Parse one chapter source, raising SourceError with the line number on any problem.

    A source parsed before in this process, unchanged since (its text and its checks module's, the files the
    checks read), is not parsed and checked again: a copy of the first result is returned (the tests parse each
    chapter many times, in each pytest worker, at 20 ms each)."""
    path = Path(path)
    if not path.is_file():
        raise SourceError(f"{path}: no such chapter source (sources live in {CHAPTER_DIR.relative_to(ROOT)}/)")
    text = path.read_text(encoding="utf-8")
    module = checks_path(path)
    key = (text, module.read_text(encoding="utf-8") if module.is_file() else None)
    known = _parsed.get(path.resolve())
    if known is not None and known[0] == key:
        return copy.deepcopy(known[1])
    chapter = _parse(path, text)
    _parsed[path.resolve()] = (key, copy.deepcopy(chapter))
    return chapter


def _parse(path: Path, text: str) -> Chapter:
    cells: list[Cell] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        m = _MARKER.match(raw)
        if m:
            words = m.group(1).split()
            if not words or words[0] not in (*LANGS, "code"):
                raise SourceError(f"{path}:{number}: a cell marker is '%% ko', '%% en' or '%% code [flags]', not {raw!r}")
            kind, flags = words[0], tuple(words[1:])
            if kind != "code" and flags:
                raise SourceError(f"{path}:{number}: prose cells take no flags ({' '.join(flags)})")
            for flag in flags:
                if flag in RETIRED_FLAGS:
                    raise SourceError(f"{path}:{number}: the flag {flag!r} is retired: {RETIRED_FLAGS[flag]}")
                if flag not in FLAGS:
                    raise SourceError(f"{path}:{number}: unknown flag {flag!r}; known flags: {', '.join(FLAGS)}")
            cells.append(Cell(kind, number, flags=flags))
        elif not cells:
            if raw.strip():
                raise SourceError(f"{path}:{number}: text before the first cell marker; start the file with '%% ko' or '%% code'")
        else:
            cells[-1].lines.append(raw)
    _check(path, cells)
    return Chapter(path, cells)


def _check(path: Path, cells: list[Cell]) -> None:
    if not cells:
        raise SourceError(f"{path}: no cells; a chapter starts with a '%% ko' cell holding its '# title'")
    for i, cell in enumerate(cells):
        where = f"{path}:{cell.line}"
        if "setup" in cell.flags:
            if any(line.strip() for line in cell.lines):
                raise SourceError(f"{where}: the setup cell stays empty; its code comes from {SETUP.name}")
            if i != 2 or cells[0].kind != "ko" or cells[1].kind != "en" or cell.flags != ("setup",):
                raise SourceError(f"{where}: the '%% code setup' cell comes once, right after the title cells "
                                  "(a '%% ko' / '%% en' pair holding '# N. Title'), so that a notebook opens on its title")
            continue
        if "explorer-helper" in cell.flags:
            if any(line.strip() for line in cell.lines) or len(cell.flags) > 1:
                raise SourceError(f"{where}: an explorer-helper cell stays empty and takes no other flag; "
                                  f"its code comes from {EXPLORER_HELPER.name}")
            continue
        if not any(line.strip() for line in cell.lines):
            raise SourceError(f"{where}: empty '%% {cell.kind}' cell; write its content or remove the marker")
        if cell.kind == "ko" and (i + 1 == len(cells) or cells[i + 1].kind != "en"):
            raise SourceError(f"{where}: this Korean cell has no English twin; follow it directly with a '%% en' cell")
        if cell.kind == "en" and (i == 0 or cells[i - 1].kind != "ko"):
            raise SourceError(f"{where}: this English cell has no Korean twin; put a '%% ko' cell directly before it")
        if cell.kind == "code":
            _check_alternatives(path, cell)
            _check_figure_alt(path, cell)
            _check_contract(path, cell)
            _check_exercise_flags(path, cells, i)
        else:
            for offset, line in enumerate(cell.lines, start=1):
                if _ALT.match(line):
                    raise SourceError(f"{path}:{cell.line + offset}: '#{line.strip()[1:3]}|' lines belong in code cells only")
    _check_checks_module(Path(path), cells)


def _check_checks_module(path: Path, cells: list[Cell]) -> None:
    """The chapter's checks module registers exactly the exercises its check cells name, in the same order."""
    cells_say = [CHECK_CALL.fullmatch(c.text("en").strip())[1] for c in cells if "check" in c.flags]
    module = checks_path(path)
    if not cells_say:
        if module.is_file():
            raise SourceError(f"{_rel(module)}: {path.name} has no check cell that calls these checks; "
                              "add the check cells or remove the module")
        return
    registered = list(registered_checks(module))
    if registered != cells_say:
        missing = [label for label in cells_say if label not in registered]
        extra = [label for label in registered if label not in cells_say]
        raise SourceError(f"{_rel(module)}: registers {registered}, but {path.name}'s check cells call "
                          f"{cells_say}" + (f"; no check for {missing}" if missing else "")
                          + (f"; no check cell for {extra}" if extra else "")
                          + ("" if missing or extra else "; keep them in the chapter's order"))


def _check_exercise_flags(path: Path, cells: list[Cell], i: int) -> None:
    cell, where = cells[i], f"{path}:{cells[i].line}"
    exercise = {"solution", "student", "check"} & set(cell.flags)
    if len(exercise) > 1 or (exercise and len(cell.flags) > 1):
        raise SourceError(f"{where}: '{' '.join(cell.flags)}' mixes flags; an exercise cell has exactly one flag")
    if "student" in cell.flags and (i + 1 == len(cells) or "solution" not in cells[i + 1].flags):
        raise SourceError(f"{where}: a 'student' cell must be followed directly by the 'solution' cell it stands in for")
    if "solution" in cell.flags and (i == 0 or "student" not in cells[i - 1].flags):
        raise SourceError(f"{where}: a 'solution' cell needs the 'student' cell (what the learner starts from) directly before it")
    if "check" in cell.flags and not any("setup" in c.flags for c in cells[:i]):
        raise SourceError(f"{where}: a 'check' cell needs the '%% code setup' cell (after the title), which defines check()")
    if "check" in cell.flags:
        labels = [m[1] for c in cells[:i] if c.kind != "code" for m in re.finditer(r":label: (ch\d\d-ex-[\w-]+)",
                                                                                    "\n".join(c.lines))]
        _check_check_cell(path, cell, labels[-1] if labels else None)


def _check_check_cell(path: Path, cell: Cell, label: str | None) -> None:
    """A check cell is one line, check("chNN-ex-topic"), naming the exercise above it: the check itself is a
    function of the chapter's checks module, where check() looks up every name it reads (and, after a restart,
    says which cells to run first instead of a traceback)."""
    where = f"{path}:{cell.line}"
    text = cell.text("en").strip()
    m = CHECK_CALL.fullmatch(text)
    if not m or text != cell.text("ko").strip():
        raise SourceError(f"{where}: a check cell is one line, check(\"chNN-ex-topic\"); the check itself is a "
                          f"function of {_rel(checks_path(Path(path)))}, registered with "
                          "@exercise(\"chNN-ex-topic\", hint)")
    if m[1] != label:
        raise SourceError(f"{where}: the check cell names {m[1]}, but the exercise above it is {label}")


def _check_contract(path: Path, cell: Cell) -> None:
    """A tool cell has one '#ko contract:' and one '#en contract:' line; no other cell has any."""
    found = [m["lang"] for line in cell.lines if (m := _CONTRACT.match(line)) and m["text"].strip()]
    if "tool" in cell.flags and sorted(found) != ["en", "ko"]:
        raise SourceError(f"{path}:{cell.line}: a 'tool' cell starts with its one-line contract, '#ko contract: ...' "
                          "and '#en contract: ...' (what to call and what it gives), shown in its folded title")
    if "tool" not in cell.flags and any(_CONTRACT.match(line) for line in cell.lines):
        raise SourceError(f"{path}:{cell.line}: '#ko contract:' / '#en contract:' lines belong to 'tool' cells only")


def _check_figure_alt(path: Path, cell: Cell) -> None:
    """'#ko alt:' and '#en alt:' come once each, as a pair (ko directly before en), neither empty."""
    found = [(offset, m) for offset, line in enumerate(cell.lines, start=1) if (m := _FIGURE_ALT.match(line))]
    if not found:
        return
    langs = [m["lang"] for _, m in found]
    where = f"{path}:{cell.line + found[0][0]}"
    if langs != ["ko", "en"] or found[1][0] != found[0][0] + 1:
        raise SourceError(f"{where}: a figure's alt text is one '#ko alt: ...' line directly followed by one "
                          f"'#en alt: ...' line (found: {', '.join('#' + lang + ' alt' for lang in langs)})")
    for offset, m in found:
        if not m["text"].strip():
            raise SourceError(f"{path}:{cell.line + offset}: empty alt text; describe what the figure shows")


def _check_alternatives(path: Path, cell: Cell) -> None:
    """Every run of '#ko' lines is directly followed by a run of '#en' lines at the same indentation."""
    runs: list[dict] = []  # consecutive lines of one language
    previous = None
    for offset, line in enumerate(cell.lines, start=1):
        m = _ALT.match(line)
        lang = m["lang"] if m else None
        if lang and lang == previous:
            runs[-1]["end"] = offset
        elif lang:
            runs.append({"lang": lang, "indent": m["indent"], "start": offset, "end": offset})
        previous = lang
    for i, run in enumerate(runs):
        where = f"{path}:{cell.line + run['start']}"
        after = runs[i + 1] if i + 1 < len(runs) else None
        before = runs[i - 1] if i > 0 else None
        if run["lang"] == "ko" and not (after and after["lang"] == "en" and after["start"] == run["end"] + 1):
            raise SourceError(f"{where}: Korean-only lines must be followed directly by their English twin ('#en|' or '#en:')")
        if run["lang"] == "en":
            if not (before and before["lang"] == "ko" and before["end"] + 1 == run["start"]):
                raise SourceError(f"{where}: English-only lines must directly follow their Korean twin ('#ko|' or '#ko:')")
            if before["indent"] != run["indent"]:
                raise SourceError(f"{where}: English-only lines are indented differently from their Korean twin")


# How long a chapter takes, by one rule (the chapter's head and the instructor guide show it; tests/test_source.py
# keeps them equal): the English page's prose, solutions aside, read with the code it explains at 100 words a
# minute, rounded up to 5 minutes, and 5 minutes per exercise. A learner's walk through all eight chapters took
# 33, 38, 45, 52, 58, 80, 75 and 50 minutes; the rule gives 40, 45, 55, 55, 60, 85, 70 and 55.
WORDS_PER_MINUTE = 100
MINUTES_PER_EXERCISE = 5


def study_minutes(chapter: Chapter) -> tuple[int, int]:
    """(reading and running, exercises) in minutes, by the rule above."""
    import math

    nb = chapter.notebook("en")
    words = sum(len(c.source.split()) for c in nb.cells
                if c.cell_type == "markdown" and ":::{solution}" not in c.source)
    exercises = sum(1 for c in chapter.cells if "check" in c.flags)
    return 5 * math.ceil(words / WORDS_PER_MINUTE / 5), MINUTES_PER_EXERCISE * exercises


def chapters() -> list[Path]:
    return sorted(CHAPTER_DIR.glob("[0-9][0-9]_*.md"))


def find(name: str) -> Path:
    """Resolve a chapter given as '01', '1', '01_dict_to_attention' or a path."""
    candidates = chapters()
    if Path(name).is_file():
        return Path(name).resolve()
    key = name.zfill(2) if name.isdigit() else name
    matches = [p for p in candidates if p.stem == key or p.stem.split("_", 1)[0] == key]
    if len(matches) != 1:
        known = ", ".join(p.stem for p in candidates) or "none"
        raise SourceError(f"unknown chapter {name!r}; known chapters: {known}")
    return matches[0]


def notebook_path(stem: str, lang: str) -> Path:
    return NOTEBOOK_DIR / lang / f"{stem}.ipynb"
