"""The chapter source format: what it accepts, what it refuses (with a message that says where and
how to fix it), and what it generates."""

from __future__ import annotations

import re
import subprocess
import sys
from itertools import pairwise

import pytest
from conftest import ROOT

from tools.source import SourceError, chapters, find, parse


def write(tmp_path, text: str):
    path = tmp_path / "99_probe.md"
    path.write_text(text, encoding="utf-8")
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
%% code raises-exception
1 / 0
"""


def test_good_source_generates_two_parallel_notebooks(tmp_path):
    chapter = parse(write(tmp_path, GOOD))
    ko, en = chapter.notebook("ko"), chapter.notebook("en")
    assert [c.id for c in ko.cells] == [c.id for c in en.cells] == ["99-001", "99-002", "99-003"]
    assert ko.cells[0].source == "# 제목\n본문" and en.cells[0].source == "# Title\nBody"
    assert ko.cells[1].source == 'x = 1  # (1,)\n# 한국어 주석\nif x:\n    print("하나")'
    assert en.cells[1].source == 'x = 1  # (1,)\n# an English comment\nif x:\n    print("one")'
    assert en.cells[2].metadata["tags"] == ["raises-exception"]
    assert chapter.title("ko") == "제목" and chapter.title("en") == "Title"


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
        ("%% code fast\nx = 1\n", r"99_probe.md:1: unknown flag 'fast'; known flags: raises-exception, widget"),
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


def test_a_raises_exception_cell_that_does_not_raise_is_an_error(tmp_path):
    source = write(tmp_path, "%% ko\n# 제목\n%% en\n# Title\n%% code raises-exception\nx = 1\n")
    result = run_tool("tools.notebooks", "execute", str(source), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert "flagged raises-exception but did not raise" in result.stderr


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
