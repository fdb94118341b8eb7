"""Chapters 7 and 8: wrong answers a learner writes, each refused with a message naming its mistake or its effect
(never the exercise's general hint alone), in both languages; a few right answers written another way pass.

Written against the kinds of slips a blind walk found named only by the general hint: units and factors combined
(bytes and K, V forgotten; per token; bits; KiB), a share where a ratio belongs, shapes with one position off,
a block loop that moves the wrong things, a mask inverted, heads repeated along another axis.
"""

from __future__ import annotations

import pytest
from test_wrong_answers import CASES, CHUNK, NO_ANSWER, assert_verdict, rescale, run_check

KV = "answer_mib = {mib}\nanswer_ratio = {ratio}"
GQA = "answer_width = {w}\nanswer_k = {k}\nanswer_k_repeated = {r}"
FLOPS = "def cross_attention_flops(B, T_q, T_k, C):\n    return {}\n"
REPEAT = "def expand_kv(t, n_rep):\n    {}\n"

CASES_78 = {
    ("07", "ch07-ex-memory"): [
        ("bytes and B forgotten", "answer_mib = 8 * 4096 * 4096 / 2**20",
         {"ko": "또는 두 실수가 겹쳤습니다: 원소 하나의 바이트 수", "en": "Or two slips together: the bytes per element"}),
        ("KiB", "answer_mib = 4 * 8 * 4096 * 4096 * 2 / 1024",
         {"ko": "KiB입니다", "en": "that is KiB"}),
        ("bits in MB", "answer_mib = 4 * 8 * 4096 * 4096 * 16 / 10**6",
         {"ko": "비트 수를 세었습니다", "en": "that counts bits"}),
        ("T once, in bytes", "answer_mib = 4 * 8 * 4096 * 2",
         {"ko": "T가 한 번만 들어갔습니다", "en": "T went in once"}),
        ("rounded GB", "answer_mib = 1.07",
         {"ko": "10**9로 나누면 GB", "en": "dividing by 10**9 gives GB"}),
        ("a tensor", "answer_mib = torch.tensor(4 * 8 * 4096 * 4096 * 2 / 2**20 / 8)",
         {"ko": "헤드 8개가", "en": "each of the 8 heads"}),
        ("four times: float32 and both tensors", "answer_mib = 4096",
         {"ko": "정답의 4배입니다. B = 4, H = 8", "en": "4 times too large: no single one"}),
        ("negative", "answer_mib = -1024", {"ko": "크기가 될 수 없습니다", "en": "cannot be a size"}),
        ("close, rounded badly", "answer_mib = 1023",
         {"ko": "거의 맞았지만", "en": "close, but"}),
        ("right, as 2**10", "answer_mib = 2**10", None),
        ("right, as a 0-d tensor", "answer_mib = torch.tensor(1024.0)", None),
    ],
}


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("chapter", "label", "name"),
                         [(*key, name) for key, answers in CASES_78.items() for name, _, _ in answers])
def test_a_wrong_answer_of_chapters_7_and_8_is_named(chapter, label, name, lang):
    _, answer, words = next(a for a in CASES_78[(chapter, label)] if a[0] == name)
    said = run_check(chapter, label, CASES[(chapter, label)], answer, lang)
    assert_verdict(said, words, label, lang, name)


def test_each_exercise_of_chapters_7_and_8_has_eight_wrong_answers_with_distinct_names():
    for key, answers in CASES_78.items():
        names = [name for name, _, _ in answers]
        assert len(names) == len(set(names)), key
        assert sum(words is not None for _, _, words in answers) >= 8, f"{key}: fewer than 8 wrong answers"
