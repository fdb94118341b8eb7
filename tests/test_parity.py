"""Korean and English notebooks of a chapter: the same cells, the same code, the same outputs.

Only prose, comments and the text of string literals (figure labels, widget descriptions) may
differ, and figures may differ in their pixels (Hangul labels)."""

from __future__ import annotations

import re
import tokenize

import pytest
from conftest import chapter_stems, code_tokens, comments, load

HANGUL = re.compile(r"[\uac00-\ud7a3]")
# English words a Korean comment may carry: Python, shapes and library names.
CODE_WORDS = {"noqa", "dtype", "float32", "float64", "int64", "bool", "True", "False", "None",
              "torch", "numpy", "PyTorch", "Colab", "nbval", "SVG", "CPU", "GPU", "FLOP", "NaN",
              "title"}  # '#@title', the line Colab shows for a folded (form) cell


def masked(source: str) -> list[tuple[int, str]]:
    """Tokens with comments dropped and string literals blanked: the language-neutral code. Adjacent literals are
    one string to Python ("a " "b" is "a b"), so a message split into more pieces in one language is the same code."""
    out = []
    for kind, text in code_tokens(source):
        if kind == tokenize.COMMENT or kind in (tokenize.NL,):
            continue
        if kind == tokenize.STRING or kind == getattr(tokenize, "FSTRING_MIDDLE", -1):
            if out and out[-1] == (tokenize.STRING, "<str>"):
                continue
            kind, text = tokenize.STRING, "<str>"
        out.append((kind, text))
    return out


def text_outputs(cell) -> list:
    """What nbval compares: streams, text/plain, errors; plus which kinds of output exist."""
    result = []
    for o in cell.get("outputs", []):
        if o.output_type == "stream":
            result.append(("stream", o.name, o.text))
        elif o.output_type == "error":
            result.append(("error", o.ename, o.evalue))
        else:
            data = o.get("data", {})
            text = data.get("text/plain", "")
            if "application/vnd.jupyter.widget-view+json" in data:
                text = "<widget>"  # its repr holds the (translated) widget descriptions
            result.append((o.output_type, sorted(data), text))
    return result


@pytest.mark.parametrize("stem", chapter_stems())
def test_same_cells_same_code_same_outputs(stem):
    ko, en = load(stem, "ko"), load(stem, "en")
    assert [(c.id, c.cell_type, c.metadata.get("tags", [])) for c in ko.cells] == \
           [(c.id, c.cell_type, c.metadata.get("tags", [])) for c in en.cells], "cell structure differs"
    for k, e in zip(ko.cells, en.cells, strict=True):
        if k.cell_type != "code":
            continue
        assert masked(k.source) == masked(e.source), f"{stem} cell {k.id}: the code differs beyond comments and strings"
        if "exercise-check" in k.metadata.get("tags", []):
            # a check speaks the learner's language; both must report the same verdict
            verdict = [o.text[:1] for o in k.outputs], [o.text[:1] for o in e.outputs]
            assert verdict[0] == verdict[1], f"{stem} cell {k.id}: the checks disagree between ko and en"
            continue
        assert text_outputs(k) == text_outputs(e), f"{stem} cell {k.id}: the outputs differ between ko and en"


@pytest.mark.parametrize("stem", chapter_stems())
def test_comments_are_in_the_notebooks_language(stem):
    for lang in ("ko", "en"):
        cells = [c for c in load(stem, lang).cells if c.cell_type == "code"]
        # names and strings of the whole notebook: a comment may mention any of them
        code = {text for c in cells for kind, text in code_tokens(c.source) if kind in (tokenize.NAME, tokenize.STRING)}
        words_in_code = {w for text in code for w in re.findall(r"[A-Za-z_]\w*", text)}
        for cell in cells:
            for comment in comments(cell.source):
                if lang == "en":
                    assert not HANGUL.search(comment), f"{stem} ({lang}) cell {cell.id}: Korean in an English comment: {comment}"
                    continue
                # a name of the code (such as plot_weights in a drawing cell's title) is not English prose
                prose = re.sub(r"[A-Za-z_]\w*", lambda m, known=words_in_code: "" if m[0] in known else m[0], comment)
                english = [w for w in re.findall(r"[A-Za-z]{3,}", prose)
                           if w not in words_in_code and w not in CODE_WORDS]
                assert not english, (f"{stem} (ko) cell {cell.id}: English words {english} in a Korean comment: "
                                      f"{comment!r}; translate it with a '#ko:' / '#en:' pair in the source")


def test_the_comment_check_can_fail():
    """A planted English comment in Korean code is caught by the same rule the test above applies."""
    source = "x = 1  # the query vector\n"
    english = [w for c in comments(source) for w in re.findall(r"[A-Za-z]{3,}", c) if w not in CODE_WORDS]
    assert english == ["the", "query", "vector"]
    assert masked("f('키')  # 주석") == masked("f('key')  # comment")
    assert masked("f(1)") != masked("f(2)")
    assert masked("f('키는 '\n  '이것')") == masked("f('the key is this')")
    assert masked("f('a', 'b')") != masked("f('a b')")
