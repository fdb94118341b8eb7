"""Typical wrong answers fail their exercise's check, with the hint aimed at that mistake.

Each case runs in this process (no kernel, well under a second): the chapter's definitions the check needs
(the functions, classes and imports of the executed notebook's cells found by a marker, as
tools/chapter_code.py finds them), the book's check(), a wrong
answer, then the exercise's own check cell, in the notebook's language. The check must say "not yet" (❌),
and its message must contain the words of the hint meant for that mistake; the book's solution must pass.
"""

from __future__ import annotations

import ast
import contextlib
import io

import pytest

from tools import chapter_code

# chapter, exercise label, the markers of the cells the check needs (in order), then the answers:
# (name, code of the answer, the words the message must hold per language, or None for a correct answer)
CASES = {
    ("06", "ch06-ex-dropout"): {
        "needs": ("def attention(", "class MultiHeadAttention", "def copy_weights(", "def max_diff(",
                  "def check("),
        "answers": [
            ("the book's solution", """
class DropoutAttend(MultiHeadAttention):
    def attend(self, q, k, v, mask):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = F.dropout(torch.softmax(scores, dim=-1), p=self.dropout, training=self.training)
        return weights @ v, weights
""", None),
            ("nn.Dropout, which follows the module's mode", """
class DropoutAttend(MultiHeadAttention):
    def attend(self, q, k, v, mask):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        if not hasattr(self, "drop"):
            self.drop = nn.Dropout(self.dropout)
        weights = self.drop(torch.softmax(scores, dim=-1))
        return weights @ v, weights
""", None),
            ("the template: dropout in evaluation mode too", """
class DropoutAttend(MultiHeadAttention):
    def attend(self, q, k, v, mask):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = F.dropout(torch.softmax(scores, dim=-1), p=self.dropout)
        return weights @ v, weights
""", {"ko": "self.training", "en": "self.training"}),
            ("dropout on the output instead of the weights", """
class DropoutAttend(MultiHeadAttention):
    def attend(self, q, k, v, mask):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        return F.dropout(weights @ v, p=self.dropout, training=self.training), weights
""", {"ko": "가중치가 아닌 곳에", "en": "something other than the weights"}),
            ("dropout removed", """
class DropoutAttend(MultiHeadAttention):
    def attend(self, q, k, v, mask):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        return weights @ v, weights
""", {"ko": "드롭아웃은 그대로 두고", "en": "keep the dropout"}),
        ],
    },
}


def definitions(source: str) -> ast.Module:
    """Only the cell's functions, classes and imports: a cell that defines max_diff() also calls it on the
    chapter's own layer, which this test does not build."""
    tree = ast.parse(source)
    kept = (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
    return ast.Module(body=[node for node in tree.body if isinstance(node, kept)], type_ignores=[])


def run_check(chapter: str, label: str, needs: tuple[str, ...], answer: str, lang: str) -> str:
    ns = chapter_code.base_namespace()
    for marker in needs:
        source = chapter_code.cell_source(chapter, marker, lang)
        exec(compile(definitions(source), f"<{lang}/{chapter}: {marker}>", "exec"), ns)
    exec(compile(answer, f"<answer to {label}>", "exec"), ns)
    check_cell = chapter_code.cell_source(chapter, f'"{label}"', lang)
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        exec(compile(check_cell, f"<check of {label}>", "exec"), ns)
    return said.getvalue()


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("chapter", "label", "name"),
                         [(*key, name) for key, case in CASES.items() for name, _, _ in case["answers"]])
def test_a_typical_answer_gets_the_message_meant_for_it(chapter, label, name, lang):
    case = CASES[(chapter, label)]
    _, answer, words = next(a for a in case["answers"] if a[0] == name)
    said = run_check(chapter, label, case["needs"], answer, lang)
    if words is None:
        assert said.startswith("✅"), f"{label} ({lang}), {name}: a right answer was refused: {said!r}"
    else:
        assert said.startswith("❌"), f"{label} ({lang}), {name}: a wrong answer passed: {said!r}"
        assert words[lang] in said, f"{label} ({lang}), {name}: the message misses {words[lang]!r}: {said!r}"
