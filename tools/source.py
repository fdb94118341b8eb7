"""Read a bilingual chapter source and turn it into one notebook per language.

A chapter source (``book/chapters/NN_name.md``) is a list of cells, each opened by a
marker line:

``%% ko`` / ``%% en``
    Prose in Korean / English (MyST Markdown). Prose always comes in pairs: a ``%% ko``
    cell immediately followed by its ``%% en`` twin, so both notebooks have the same cells
    in the same order.
``%% code [flag ...]``
    Python shared by both languages. Flags: ``raises-exception`` (the cell fails on
    purpose), ``widget`` (the cell only wires an ipywidgets explorer; its output is not
    compared by nbval), ``hide-input`` (the site shows only the output), ``setup`` (Colab set-up:
    kept in the notebook, left off the site).

Exercises (see CONTRIBUTING.md): ``%% code solution`` is the learner's cell, holding the
solution in the book's notebooks; the ``%% code student`` cell directly before it takes its
place in the student notebooks. ``%% code check`` tells the learner whether the answer is right
(its output is in the notebook's language). ``%% code exercise-helper`` is left empty: it
becomes the shared ``check`` function of ``book/chapters/_exercise_helper.py``. Likewise ``%% code explorer-helper``
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

import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

LANGS = ("ko", "en")
FLAGS = {  # flag in the source -> tag in the notebook
    "raises-exception": "raises-exception",
    "widget": "nbval-ignore-output",
    "hide-input": "hide-input",
    "setup": "remove-cell",
    "solution": "exercise-solution",
    "student": "exercise-student",
    "check": "exercise-check",
    "exercise-helper": "exercise-helper",
    "explorer-helper": "remove-cell",
}
EXERCISE_HELPER = Path(__file__).resolve().parent.parent / "book" / "chapters" / "_exercise_helper.py"
# ``%% code explorer-helper`` is left empty like the exercise helper: it becomes the shared ``explorer``
# function, which wires an explorer's widgets and stores the output of every setting for the web page.
EXPLORER_HELPER = EXERCISE_HELPER.with_name("_explorer_helper.py")
SOLUTION_DIRECTIVE = re.compile(r"^(:::+|```+)\{solution\}", re.MULTILINE)
ROOT = Path(__file__).resolve().parent.parent
CHAPTER_DIR = ROOT / "book" / "chapters"
NOTEBOOK_DIR = ROOT / "notebooks"

_MARKER = re.compile(r"^%%(.*)$")
_ALT = re.compile(r"^(?P<indent>\s*)#(?P<lang>ko|en)(?P<kind>[|:])(?: (?P<text>.*))?$")
_FIGURE_ALT = re.compile(r"^#(?P<lang>ko|en) alt:(?P<text>.*)$")


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
            if _FIGURE_ALT.match(raw):
                continue
            m = _ALT.match(raw)
            if not m:
                out.append(raw)
            elif m["lang"] == lang:
                text = m["text"] or ""
                out.append(m["indent"] + (text if m["kind"] == "|" else f"# {text}".rstrip()))
        return "\n".join(out).strip("\n")

    def figure_alt(self, lang: str) -> str | None:
        """The figure's alt text in one language (its '#ko alt:' / '#en alt:' line), if it has one."""
        for raw in self.lines:
            m = _FIGURE_ALT.match(raw)
            if m and m["lang"] == lang:
                return m["text"].strip()
        return None


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
        """The book's notebook for one language, or (student=True) the one without solutions."""
        if lang not in LANGS:
            raise SourceError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
        nb = nbformat.v4.new_notebook()
        nb.metadata = notebook_metadata(lang)
        for position, cell in enumerate(self.cells_for(lang, student)):
            cell_id = self.cell_id(lang, position)
            if cell.kind == "code":
                text = exercise_helper(lang) if "exercise-helper" in cell.flags else cell.text(lang)
                if "explorer-helper" in cell.flags:
                    text = exercise_helper(lang, EXPLORER_HELPER)
                new = nbformat.v4.new_code_cell(text, id=cell_id)
                tags = [FLAGS[f] for f in cell.flags]
                if tags:
                    new.metadata["tags"] = tags
                alt = cell.figure_alt(lang)
                if alt:
                    new.metadata["mystnb"] = {"image": {"alt": alt}}
            else:
                new = nbformat.v4.new_markdown_cell(cell.text(lang), id=cell_id)
            nb.cells.append(new)
        return nb


def exercise_helper(lang: str, path: Path = EXERCISE_HELPER) -> str:
    """The shared `check` function (or, given its path, the `explorer` function), in one language
    (its source uses the same #ko/#en lines)."""
    cell = Cell("code", 1, path.read_text(encoding="utf-8").splitlines())
    _check_alternatives(path, cell)
    return cell.text(lang)


def notebook_metadata(lang: str) -> dict:
    return {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python", "pygments_lexer": "ipython3"},
        "book": {"language": lang},
    }


def parse(path: Path) -> Chapter:
    """Parse one chapter source, raising SourceError with the line number on any problem."""
    path = Path(path)
    if not path.is_file():
        raise SourceError(f"{path}: no such chapter source (sources live in {CHAPTER_DIR.relative_to(ROOT)}/)")
    text = path.read_text(encoding="utf-8")
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
        if "exercise-helper" in cell.flags:
            if any(line.strip() for line in cell.lines):
                raise SourceError(f"{where}: an exercise-helper cell stays empty; its code comes from {EXERCISE_HELPER.name}")
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
            _check_exercise_flags(path, cells, i)
        else:
            for offset, line in enumerate(cell.lines, start=1):
                if _ALT.match(line):
                    raise SourceError(f"{path}:{cell.line + offset}: '#{line.strip()[1:3]}|' lines belong in code cells only")


def _check_exercise_flags(path: Path, cells: list[Cell], i: int) -> None:
    cell, where = cells[i], f"{path}:{cells[i].line}"
    exercise = {"solution", "student", "check", "exercise-helper"} & set(cell.flags)
    if len(exercise) > 1 or (exercise and len(cell.flags) > 1):
        raise SourceError(f"{where}: '{' '.join(cell.flags)}' mixes flags; an exercise cell has exactly one flag")
    if "student" in cell.flags and (i + 1 == len(cells) or "solution" not in cells[i + 1].flags):
        raise SourceError(f"{where}: a 'student' cell must be followed directly by the 'solution' cell it stands in for")
    if "solution" in cell.flags and (i == 0 or "student" not in cells[i - 1].flags):
        raise SourceError(f"{where}: a 'solution' cell needs the 'student' cell (what the learner starts from) directly before it")
    if "check" in cell.flags and not any("exercise-helper" in c.flags for c in cells[:i]):
        raise SourceError(f"{where}: a 'check' cell needs an earlier '%% code exercise-helper' cell that defines check()")


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
