"""The chapter source format: what it accepts, what it refuses (with a message that says where and
how to fix it), and what it generates."""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from functools import cache
from itertools import pairwise

import pytest
from conftest import ROOT

from tools.source import SourceError, chapters, find, parse


def write(tmp_path, text: str, checks: str | None = None):
    """The chapter source 99_probe.md, and with `checks` its checks module checks/ch99.py beside it."""
    path = tmp_path / "99_probe.md"
    path.write_text(text, encoding="utf-8")
    if checks is not None:
        (tmp_path / "checks").mkdir(exist_ok=True)
        (tmp_path / "checks" / "ch99.py").write_text(checks, encoding="utf-8")
    return path


GOOD = """%% ko
# 제목
본문
%% en
# Title
Body
%% code
x = 1  # (1,)
#ko: 한국어 주석
#en: an English comment
if x:
    #ko| print("하나")
    #en| print("one")
%% code
with expect_error(ZeroDivisionError):
    1 / 0
"""


def test_good_source_generates_two_parallel_notebooks(tmp_path):
    chapter = parse(write(tmp_path, GOOD))
    ko, en = chapter.notebook("ko"), chapter.notebook("en")
    assert [c.id for c in ko.cells] == [c.id for c in en.cells] == ["99-001", "99-002", "99-003"]
    assert ko.cells[0].source.startswith("# 제목\n\n*한 걸음씩 배우는 어텐션* 99장 · [웹에서 읽기](")
    assert en.cells[0].source.startswith("# Title\n\n*Attention, Step by Step*, chapter 99 · [read it on the web](")
    assert ko.cells[0].source.endswith("\n\n본문") and en.cells[0].source.endswith("\n\nBody")
    assert ko.cells[1].source == 'x = 1  # (1,)\n# 한국어 주석\nif x:\n    print("하나")'
    assert en.cells[1].source == 'x = 1  # (1,)\n# an English comment\nif x:\n    print("one")'
    assert en.cells[2].source == "with expect_error(ZeroDivisionError):\n    1 / 0"
    assert en.cells[2].metadata["tags"] == ["raises-exception"]  # for nbval: compare the error it shows
    assert chapter.title("ko") == "제목" and chapter.title("en") == "Title"


def test_drawing_cells_are_folded_on_the_site_and_in_colab(tmp_path):
    chapter = parse(write(tmp_path, "%% code drawing\ndef draw(ax):\n    #ko| ax.set_title(\"제목\")\n"
                                    "    #en| ax.set_title(\"title\")\n\n\ndef label(ax):\n    pass\n"
                                    "%% code drawing\nplot()\n%% code\nx = 1\n"))
    for lang, title in (("ko", "#@title 그림 그리기: draw, label (그리기만 하는 코드라 접어 두었습니다)"),
                        ("en", "#@title Drawing: draw, label (folded: this code only draws)")):
        helper, figure, plain = chapter.notebook(lang).cells
        # Colab shows the '#@title' line and folds the code (a form); the site shows a toggle (hide-input)
        assert helper.source.splitlines()[0] == title and helper.source.splitlines()[1] == "def draw(ax):"
        assert figure.source.splitlines()[0] == title.split(":")[0] + title[title.index(" ("):]
        for cell in (helper, figure):
            assert cell.metadata["tags"] == ["hide-input"] and cell.metadata["cellView"] == "form"
    with pytest.raises(SourceError, match="a 'tool' cell starts with its one-line contract"):
        parse(write(tmp_path, "%% code tool\ndef best_times(calls):\n    return calls\n"))
        assert "cellView" not in plain.metadata and "tags" not in plain.metadata
    # the code under the title still runs as written
    helper = chapter.notebook("en").cells[0]
    namespace: dict = {}
    exec(helper.source, namespace)
    assert callable(namespace["draw"]) and callable(namespace["label"])


def test_figure_alt_text_becomes_cell_metadata_and_leaves_the_code(tmp_path):
    chapter = parse(write(tmp_path, "%% code\nplot()\n#ko alt: 막대 세 개\n#en alt: three bars\n"))
    for lang, alt in (("ko", "막대 세 개"), ("en", "three bars")):
        cell = chapter.notebook(lang).cells[0]
        assert cell.source == "plot()" and cell.metadata["mystnb"] == {"image": {"alt": alt}}


@pytest.mark.parametrize(
    "text, message",
    [
        ("%% ko\n# 제목\n%% code\nx = 1\n", r"99_probe.md:1: this Korean cell has no English twin"),
        ("%% en\n# Title\n", r"99_probe.md:1: this English cell has no Korean twin"),
        ("%% ko\n# 제목\n%% en\n# Title\n%% en\nagain\n", r"99_probe.md:5: this English cell has no Korean twin"),
        ("%% code fast\nx = 1\n", r"99_probe.md:1: unknown flag 'fast'; known flags: widget, hide-input"),
        ("%% code raises-exception\n1 / 0\n", r"99_probe.md:1: the flag 'raises-exception' is retired: write the failing lines inside 'with expect_error"),
        ("%% ko\n# 제목\n%% en\n# Title\n%% code setup\nimport sys\n", r"99_probe.md:5: the setup cell stays empty; its code comes from _setup.py"),
        ("%% ko\n# 제목\n%% en\n# Title\n%% code\nx = 1\n%% code setup\n", r"99_probe.md:7: the '%% code setup' cell comes once, right after the title cells"),
        ("%% ko\n# 제목\n%% en\n# Title\n%% code setup\n%% code check\nx = torch.ones(2)\ncheck('a', lambda: x.sum() == 2, 'h')\n",
         r"99_probe.md:6: a check cell is one line, check\(\"chNN-ex-topic\"\); the check itself is a function of "
         r".*checks/ch99.py, registered with @exercise"),
        ("%% python\nx = 1\n", r"99_probe.md:1: a cell marker is '%% ko', '%% en' or '%% code \[flags\]'"),
        ("%% ko extra\n# 제목\n", r"99_probe.md:1: prose cells take no flags"),
        ("%% code\n\n%% code\nx = 1\n", r"99_probe.md:1: empty '%% code' cell"),
        ("hello\n%% code\nx = 1\n", r"99_probe.md:1: text before the first cell marker"),
        ("", r"no cells"),
        ("%% code\n#ko: 주석\nx = 1\n", r"99_probe.md:2: Korean-only lines must be followed directly by their English twin"),
        ("%% code\n#en: comment\nx = 1\n", r"99_probe.md:2: English-only lines must directly follow their Korean twin"),
        ("%% code\n#ko: 주석\n#en: comment\n#en: again\n#ko: 다시\n", r"Korean-only lines must be followed directly"),
        ("%% code\nif 1:\n    #ko: 주석\n#en: comment\n    pass\n", r"indented differently from their Korean twin"),
        ("%% ko\n#ko| x\n%% en\nx\n", r"99_probe.md:2: '#ko\|' lines belong in code cells only"),
        ("%% code\n#ko alt: 그림\nx = 1\n", r"99_probe.md:2: a figure's alt text is one '#ko alt: ...' line directly followed"),
        ("%% code\n#en alt: a plot\n#ko alt: 그림\n", r"found: #en alt, #ko alt"),
        ("%% code\n#ko alt: 그림\nx = 1\n#en alt: a plot\n", r"99_probe.md:2: a figure's alt text is one"),
        ("%% code\n#ko alt: 그림\n#en alt:\n", r"99_probe.md:3: empty alt text; describe what the figure shows"),
        ("%% code explorer-helper\nx = 1\n", r"99_probe.md:1: an explorer-helper cell stays empty"),
        ("%% code explorer-helper widget\n", r"99_probe.md:1: an explorer-helper cell stays empty and takes no other flag"),
    ],
)
def test_bad_sources_are_refused_with_a_located_message(tmp_path, text, message):
    with pytest.raises(SourceError, match=message):
        parse(write(tmp_path, text))


def test_explorer_helper_cell_becomes_the_shared_explorer_function(tmp_path):
    chapter = parse(write(tmp_path, "%% ko\n# 제목\n%% en\n# Title\n%% code explorer-helper\n"))
    for lang, docstring in (("ko", "탐색기"), ("en", "An explorer")):
        cell = chapter.notebook(lang).cells[-1]
        assert cell.metadata["tags"] == ["remove-cell"]
        assert "def explorer(draw, **controls):" in cell.source and docstring in cell.source
        assert "#ko" not in cell.source and "#en" not in cell.source


def test_unknown_chapter_names_the_known_ones():
    with pytest.raises(SourceError, match=r"unknown chapter '42'; known chapters: 01_dict_to_attention"):
        find("42")
    assert find("1").name == "01_dict_to_attention.md" and find("01_dict_to_attention") == find("01")


def run_tool(*args):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_tools_report_bad_input_without_a_traceback(tmp_path):
    unknown = run_tool("tools.notebooks", "execute", "42")
    assert unknown.returncode == 2
    assert "error: unknown chapter '42'" in unknown.stderr and "Traceback" not in unknown.stderr
    broken = run_tool("tools.notebooks", "execute", str(write(tmp_path, "%% ko\n# 제목\n")))
    assert broken.returncode == 2
    assert "this Korean cell has no English twin" in broken.stderr and "Traceback" not in broken.stderr


def test_a_failing_cell_is_reported_and_nothing_is_written(tmp_path):
    source = write(tmp_path, "%% ko\n# 제목\n%% en\n# Title\n%% code\nraise ValueError('boom')\n")
    result = run_tool("tools.notebooks", "execute", str(source), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert "99_probe.md:5: cell 99-002 of the en notebook failed: ValueError: boom" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_deliberate_error_is_shown_run_all_goes_on_and_a_missing_error_fails(tmp_path):
    """'with expect_error(E):' shows PyTorch's real error as an error output, the next cells still run (Colab's
    Run all ignores cell tags), and a block whose error stopped happening fails its cell loudly."""
    from tools.notebooks import execute

    source = write(tmp_path, "%% ko\n# 제목\n%% en\n# Title\n%% code setup\n%% code\nimport torch\n"
                             "with expect_error(RuntimeError):\n    torch.ones(2, 3) @ torch.ones(2, 3)\n%% code\nprint('next')\n")
    nb, _, _ = execute(parse(source).notebook("en"), cwd=tmp_path)
    shown, after = nb.cells[2].outputs, nb.cells[3].outputs
    assert [o.output_type for o in shown] == ["error"] and shown[0].ename == "RuntimeError"
    assert "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)" in shown[0].evalue
    assert after[0].text == "next\n"
    quiet = write(tmp_path, "%% ko\n# 제목\n%% en\n# Title\n%% code setup\n%% code\nwith expect_error(ValueError):\n    x = 1\n")
    result = run_tool("tools.notebooks", "execute", str(quiet), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert "cell 99-003 of the en notebook failed: AssertionError: expected ValueError, but the cell ran without an error" in result.stderr
    wrong = write(tmp_path, "%% ko\n# 제목\n%% en\n# Title\n%% code setup\n%% code\nwith expect_error(ValueError):\n    1 / 0\n")
    result = run_tool("tools.notebooks", "execute", str(wrong), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.returncode == 1 and "failed: ZeroDivisionError: division by zero" in result.stderr


def headings(text: str) -> list[tuple[str | None, str]]:
    """(label, heading) for every Markdown heading, the label being the '(name)=' line just above it."""
    lines, found, fenced = text.splitlines(), [], False
    for i, line in enumerate(lines):
        fenced ^= line.startswith("```")
        if not fenced and re.match(r"^#{1,6} ", line):
            above = lines[i - 1].strip() if i else ""
            m = re.fullmatch(r"\(([\w-]+)\)=", above)
            found.append((m.group(1) if m else None, line))
    return found


@pytest.mark.parametrize("source", chapters() + sorted((ROOT / "book" / "ko").glob("*.md")), ids=lambda p: p.name)
def test_every_heading_has_a_label_shared_by_both_languages(source):
    """Korean headings would otherwise get anchors like 'id1'; the same label in both languages
    lets a link name a section without knowing the reader's language."""
    if source.suffix == ".md" and source.parent.name == "ko":
        pairs = [(source.read_text(encoding="utf-8"), (ROOT / "book" / "en" / source.name).read_text(encoding="utf-8"))]
    else:
        chapter = parse(source)
        pairs = [("\n".join(k.lines), "\n".join(e.lines)) for k, e in pairwise(chapter.cells)
                 if k.kind == "ko" and e.kind == "en"]
    for ko, en in pairs:
        ko_labels, en_labels = headings(ko), headings(en)
        for label, heading in ko_labels + en_labels:
            assert label, f"{source.name}: heading {heading!r} has no '(label)=' line above it"
        assert [lab for lab, _ in ko_labels] == [lab for lab, _ in en_labels], f"{source.name}: ko/en labels differ"


EXERCISE = """%% ko
(ch99)=
# 99. 제목

[1장](ch01)과 [이 절](ch01-goals)을 보세요.
%% en
(ch99)=
# 99. Title

See [chapter 1](ch01) and [this section](ch01-goals).
%% code setup
%% ko
(ch99-exercises)=
## 연습 문제
%% en
(ch99-exercises)=
## Exercises
%% ko
:::{exercise}
:label: ch99-ex-one

`answer`를 고치세요.
:::
%% en
:::{exercise}
:label: ch99-ex-one

Fix `answer`.
:::
%% code student
answer = None
%% code solution
answer = 2
%% code check
check("ch99-ex-one")
%% ko
:::{solution} ch99-ex-one
:class: dropdown

2입니다.
:::
%% en
:::{solution} ch99-ex-one
:class: dropdown

It is 2.
:::
"""


CHECKS = """#ko: 99장의 확인
#en: chapter 99's checks


@exercise(
    "ch99-ex-one",
    #ko| "2입니다.",
    #en| "two.",
)
def ch99_ex_one(answer):
    return answer == 2
"""


def test_a_checks_module_may_share_a_helper_named_with_an_underscore(tmp_path):
    from tools.source import registered_checks

    shared = CHECKS + "\n\ndef _twice(x):\n    return 2 * x\n"
    chapter = parse(write(tmp_path, EXERCISE, shared))
    assert registered_checks(chapter.checks_path) == {"ch99-ex-one": ["answer"]}


@pytest.mark.parametrize("cell, module, message", [
    ('check("ch99-ex-two")', CHECKS, r"99_probe.md:\d+: the check cell names ch99-ex-two, but the exercise above it is "
                                     r"ch99-ex-one"),
    ('check("ch99-ex-one", test, "two")', CHECKS, r"a check cell is one line"),
    ('check("ch99-ex-one")', None, r"checks/ch99.py is missing: a chapter with check cells keeps its checks there"),
    ('check("ch99-ex-one")', CHECKS.replace('"ch99-ex-one"', '"ch99-ex-once"'),
     r"registers \['ch99-ex-once'\], but 99_probe.md's check cells call \['ch99-ex-one'\]; no check for "
     r"\['ch99-ex-one'\]; no check cell for \['ch99-ex-once'\]"),
    ('check("ch99-ex-one")', CHECKS + "\n\ndef helper_():\n    return 1\n",
     r"checks/ch99.py:\d+: a checks module holds imports, functions decorated @exercise"),
    ('check("ch99-ex-one")', CHECKS + "\n\nx_ = 1\n", r"checks/ch99.py:\d+: a checks module holds imports"),
    ('check("ch99-ex-one")', CHECKS + "\n\n@exercise(\"ch99-ex-one\", \"h\")\ndef again(answer):\n    return 1\n",
     r"ch99-ex-one is registered twice"),
    ('check("ch99-ex-one")', CHECKS.replace("(answer)", "(answer=2)"), r"ch99_ex_one takes plain parameters only"),
])
def test_a_check_cell_is_one_line_naming_a_check_its_module_registers(tmp_path, cell, module, message):
    """The check itself lives in the chapter's checks module; the cell names it, and the module registers exactly
    the chapter's exercises: each mismatch refused by name, with what to do."""
    with pytest.raises(SourceError, match=message):
        parse(write(tmp_path, EXERCISE.replace('check("ch99-ex-one")', cell), module))
    if module is None:
        with pytest.raises(SourceError, match="has no check cell that calls these checks"):
            parse(write(tmp_path, EXERCISE.replace('%% code check\ncheck("ch99-ex-one")\n', ""), CHECKS))


def test_notebooks_get_plain_markdown_and_the_site_keeps_myst(tmp_path):
    """Colab, JupyterLab, VS Code and GitHub render no MyST: the notebooks get headings, <details> and links to
    the published site; the site page is staged from the same source with its labels and exercise boxes, and the
    solution (code, check and explanation) folded after the cell the learner starts from."""
    import nbformat

    from tools.source import book_links

    chapter = parse(write(tmp_path, EXERCISE, CHECKS))
    site = book_links()["site"]
    for lang, exercise, explanation in (("ko", "### 연습 문제 1 (`ch99-ex-one`)", "<summary>풀이 설명</summary>"),
                                        ("en", "### Exercise 1 (`ch99-ex-one`)", "<summary>Explanation</summary>")):
        nb = chapter.notebook(lang)
        text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        assert "(ch99)=" not in text and ":::" not in text and ":label:" not in text and "](ch01" not in text
        assert f"]({site}{lang}/01_dict_to_attention.html)" in text
        assert f"]({site}{lang}/01_dict_to_attention.html#ch01-goals)" in text
        assert exercise in text and explanation in text and "</details>" in text
        assert [c.source for c in nb.cells if c.cell_type == "code"][-2:][0] == "answer = 2"
        student = chapter.notebook(lang, student=True)
        assert "answer = None" in [c.source for c in student.cells] and "<details>" not in "".join(c.source for c in student.cells)
        # the site: MyST prose, the student's cell shown, then the folded solution
        executed = copy_with_outputs(nb)
        page = chapter.site_notebook(lang, executed)
        sources = [c.source for c in page.cells]
        assert "(ch99)=" in sources[0] and "[" in sources[0] and "](ch01)" in sources[0]
        start = sources.index("answer = None")
        assert page.cells[start].cell_type == "code" and not page.cells[start].outputs
        assert sources[start + 1] == ":::{solution-start} ch99-ex-one\n:class: dropdown\n:::"
        assert sources[start + 2] == "answer = 2" and sources[start + 3] == 'check("ch99-ex-one")'

        assert sources[start + 4] in ("2입니다.", "It is 2.") and sources[start + 5] == ":::{solution-end}\n:::"
        assert len({c.id for c in page.cells}) == len(page.cells)
        nbformat.validate(page)


def copy_with_outputs(nb):
    import copy

    import nbformat

    done = copy.deepcopy(nb)
    for cell in done.cells:
        if cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="ok\n")]
    return done


@pytest.mark.parametrize("text, message", [
    ("%% ko\n# 99. 제목\n[어딘가](ch99-nowhere)\n%% en\n# 99. Title\n[somewhere](ch99-nowhere)\n",
     r"99_probe.md:1: \[어딘가\]\(ch99-nowhere\) links to no known label"),
    ("%% ko\n# 99. 제목\n:::{note}\n참고\n:::\n%% en\n# 99. Title\n:::{note}\nNote\n:::\n",
     r"99_probe.md:1: the directive '\{note\}' has no plain-Markdown rendering"),
    ("%% ko\n# 99. 제목\n{ref}`ch01`\n%% en\n# 99. Title\n{ref}`ch01`\n", r"99_probe.md:1: MyST roles such as \{ref\}"),
])
def test_myst_without_a_plain_rendering_is_refused(tmp_path, text, message):
    with pytest.raises(SourceError, match=message):
        parse(write(tmp_path, text)).notebook("ko")


# Code lines in the notebooks: at most 88 columns, so that a cell fits a laptop's column and a
# phone scrolls less. Columns are display columns: a Hangul syllable is two wide in a monospace font. Every
# code cell counts, book and student notebooks, the check and explorer cells included; the folded set-up cell,
# which holds the check helper and the chapter's checks, is held to MODULE_COLUMNS.
MAX_CODE_COLUMNS = 88


def columns(line: str) -> int:
    """Display width in a monospace font: a Hangul syllable (East Asian wide or fullwidth) takes two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@cache
def generated(path, lang: str, student: bool = False):
    """parse(path).notebook(lang, student), made once per test process (the tests here only read it): two tests
    read each chapter's notebook in each language."""
    return parse(path).notebook(lang, student)


def long_code_lines(path, lang: str) -> list[str]:
    """The code lines a reader sees that are too wide: every code cell but the folded set-up cell, whose check
    helper and checks module are read in an editor (test_checks_modules_fit_100_columns)."""
    found = {}
    for student in (False, True):
        for cell in generated(path, lang, student).cells:
            if cell.cell_type == "code" and not cell.source.startswith(SETUP_TITLE[lang]):
                found.update(dict.fromkeys(line for line in cell.source.splitlines() if columns(line) > MAX_CODE_COLUMNS))
    return list(found)


@pytest.mark.parametrize("path", chapters(), ids=lambda p: p.stem)
def test_code_lines_fit_88_columns(path):
    for lang in ("ko", "en"):
        long = long_code_lines(path, lang)
        assert not long, (
            f"{path.name} ({lang}): {len(long)} code lines longer than {MAX_CODE_COLUMNS} columns (a Hangul "
            "syllable counts two); wrap them (a shape comment may move above its line, a long string may be "
            "split in pieces, the same number in both languages): "
            + " | ".join(f"{columns(line)}: {line.strip()[:60]}" for line in long[:5]))


SETUP_TITLE = {"ko": "#@title 준비", "en": "#@title Set-up"}
MODULE_COLUMNS = 100


def test_checks_modules_fit_100_columns():
    """The check helper and each chapter's checks module, in both languages: code a maintainer reads in an editor
    (in the notebooks they sit in the folded set-up cell)."""
    from tools.source import EXERCISE_HELPER, checks_code

    modules = sorted((ROOT / "book" / "chapters" / "checks").glob("ch*.py"))
    assert len(modules) == len(chapters())
    for path in [EXERCISE_HELPER, *modules]:
        for lang in ("ko", "en"):
            long = [line for line in checks_code(path, lang).splitlines() if columns(line) > MODULE_COLUMNS]
            assert not long, f"{path.name} ({lang}): lines wider than {MODULE_COLUMNS} columns: {long[:3]}"
    assert columns("가" * 51) > MODULE_COLUMNS


def test_the_line_length_check_can_fail(tmp_path):
    short = write(tmp_path, "%% code\nx = 1\n")
    assert long_code_lines(short, "en") == []
    long = write(tmp_path, "%% code\n#ko| y = '" + "가" * 45 + "'\n#en| y = 2\n")
    # 45 Hangul syllables take 90 columns: with the 6 of "y = ''", 96 columns in 51 characters
    assert [columns(line) for line in long_code_lines(long, "ko")] == [96] and long_code_lines(long, "en") == []


def test_a_tool_cell_is_folded_on_the_site_and_in_colab(tmp_path):
    """Chapter 7's measuring tools (profiler plumbing, the timing harness) step out of the reader's way like
    drawing code: hide-input on the site, a '#@title' form in Colab saying that reading it is optional and
    giving its one-line contract; a tool without a contract is refused."""
    chapter = parse(write(tmp_path, "%% code tool\n#ko contract: best_times(calls) -> 최소 시간\n"
                                    "#en contract: best_times(calls) -> shortest times\ndef best_times(calls):\n    return calls\n"))
    for lang, title in (("ko", "#@title 측정 도구(읽기는 선택): best_times(calls) -> 최소 시간\n"),
                        ("en", "#@title Tool (optional reading): best_times(calls) -> shortest times\n")):
        cell = chapter.notebook(lang).cells[0]
        assert cell.source.startswith(title) and cell.source.endswith("def best_times(calls):\n    return calls")
        assert cell.metadata["tags"] == ["hide-input"] and cell.metadata["cellView"] == "form"


STUDY_TIME = {
    "ko": r"예상 시간: (\d+)분\(읽고 실행하기 (\d+)분, 연습 문제 (\d+)개 (\d+)분\)\.",
    "en": r"Time: about (\d+) minutes \((\d+) to read and run, (\d+) for the (\d+) exercises\)\.",
}
INSTRUCTOR_ROW = {"ko": r"^\| \[(\d+)\. .*\| (\d+)분 \+ (\d+)분 \|$", "en": r"^\| \[(\d+)\. .* \| (\d+) min \+ (\d+) min \|$"}


@cache
def chapter_minutes(path) -> tuple[int, int]:
    """tools.source.study_minutes() of a chapter, once per test process (it makes the English notebook, whichever
    language's head is checked)."""
    from tools.source import study_minutes

    return study_minutes(parse(path))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_study_times_follow_the_rule_at_each_head_and_in_the_instructor_guide(lang):
    """tools.source.study_minutes() is the one rule; a chapter's head and the instructor guide's row show it."""
    from tools.source import MINUTES_PER_EXERCISE

    rows = {int(m[0]): (int(m[1]), int(m[2]))
            for m in re.findall(INSTRUCTOR_ROW[lang], (ROOT / "book" / lang / "instructor.md").read_text(encoding="utf-8"),
                                flags=re.M)}
    assert len(rows) == len(chapters()), f"book/{lang}/instructor.md: {len(rows)} chapter rows with times"
    for path in chapters():
        reading, exercises = chapter_minutes(path)
        found = re.findall(STUDY_TIME[lang], path.read_text(encoding="utf-8"))
        assert len(found) == 1, f"{path.name} ({lang}): no head line giving the study time as the rule does"
        numbers = [int(n) for n in found[0]]
        total, read, first, second = numbers
        count, minutes = (first, second) if lang == "ko" else (second, first)
        want = f"{reading + exercises}, {reading}, {exercises // MINUTES_PER_EXERCISE} exercises, {exercises}"
        assert (total, read, count, minutes) == (reading + exercises, reading, exercises // MINUTES_PER_EXERCISE, exercises), (
            f"{path.name} ({lang}): the head says {total}, {read}, {count} exercises, {minutes}; the rule gives {want}")
        assert rows[int(path.name[:2])] == (reading, exercises), (
            f"book/{lang}/instructor.md, chapter {int(path.name[:2])}: {rows[int(path.name[:2])]}; the rule gives "
            f"{(reading, exercises)}")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_links_inside_a_chapter_stay_in_the_notebook(lang):
    """A link to a section of the same chapter becomes an in-notebook anchor link (#label), which Colab and
    Jupyter follow without leaving the notebook, and every such link has its anchor in that notebook; links to
    other chapters still go to the site."""
    from tools.source import book_links

    site = book_links()["site"]
    inside = 0
    for path in chapters():
        nb = generated(path, lang)
        text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        anchors = set(re.findall(r'<a id="([\w-]+)" name="\1"></a>', text))
        links = re.findall(r"\]\(#([\w-]+)\)", text)
        assert set(links) <= anchors, f"{path.name} ({lang}): links without an anchor: {set(links) - anchors}"
        assert f"]({site}{lang}/{path.stem}.html#" not in text, f"{path.name} ({lang}): a link to its own site page"
        inside += len(links)
    assert inside > 10, f"only {inside} in-notebook links in the whole book ({lang}): the test would prove little"
