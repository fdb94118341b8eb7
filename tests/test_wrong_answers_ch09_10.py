"""Chapters 9 and 10: more wrong answers, written as learners write them, each refused with a message that names
its mistake or its concrete effect (never the exercise's general hint alone), in both languages.

The checks diagnose in order: known slips computed in the check, then relations (shape, order, factor), then an
effect statement; these cases hold each step. They run in this process as tests/test_wrong_answers.py runs its own.
"""

from __future__ import annotations

import pytest

from tests.test_wrong_answers import CASES, NEEDS_10, assert_verdict, run_check, window
from tests.test_wrong_answers import prefill as prefill_code

HALVES = """
def apply_rope(x, cos, sin):
    cos, sin = cos[:, None], sin[:, None]
    x1, x2 = x.chunk(2, dim=-1)
    BODY
"""


def halves(body):
    return HALVES.replace("BODY", body)


CASES_9_10 = {
    ("09", "ch09-ex-halves"): [
        ("only the first half turned",
         halves("return torch.cat([x1 * cos[..., :x1.size(-1)] - x2 * sin[..., :x1.size(-1)], x2], dim=-1)"),
         {"ko": "각 헤드의 앞 절반만 회전했습니다", "en": "only the first half of each head is rotated"}),
        ("flip instead of rotate_half", halves("return x * cos + x.flip(-1) * sin"),
         {"ko": "특징 i를 특징 D-1-i와 섞습니다", "en": "feature i is mixed with feature D-1-i"}),
        ("only the second half turned",
         halves("h = x1.size(-1)\n    return torch.cat([x1, x2 * cos[..., h:] + x1 * sin[..., h:]], dim=-1)"),
         {"ko": "각 헤드의 뒤 절반만 회전했습니다", "en": "only the second half of each head is rotated"}),
        ("the sign wrong in the second half only", halves("return x * cos + torch.cat([-x2, -x1], dim=-1) * sin"),
         {"ko": "부호가 하나 틀렸습니다", "en": "one sign is off"}),
        ("x added once more", halves("return x + x * cos + torch.cat([-x2, x1], dim=-1) * sin"),
         {"ko": "x 자신에 곱하는 값이 cos가 아닙니다", "en": "x itself is not multiplied by cos"}),
        ("cos reversed along the features", halves("return x * cos.flip(-1) + torch.cat([-x2, x1], dim=-1) * sin"),
         {"ko": "cos의 다른 자리(뒤집은 순서)", "en": "another place of cos (in reversed"}),
        ("roll by a quarter", halves("return x * cos + torch.roll(x, x.size(-1) // 4, dims=-1) * sin"),
         {"ko": "특징을 다른 짝과 섞습니다", "en": "the features are mixed with other partners"}),
        ("a crash: chunk on the heads", """
def apply_rope(x, cos, sin):
    a, b = x.chunk(2, dim=1)
    return x * cos[:, None] + torch.cat([-b, a], dim=-1) * sin[:, None]
""", {"ko": "apply_rope가 오류를 냈습니다(x (2, 2, 5, 8)", "en": "apply_rope raised an error for x (2, 2, 5, 8)"}),
        ("the sin term halved", halves("return x * cos + torch.cat([-x2, x1], dim=-1) * sin / 2"),
         {"ko": "짝에서 오는 sin의 항이 틀립니다", "en": "the sin term coming from the partner is wrong"}),
        ("angles of the first row for every row", """
def apply_rope(x, cos, sin):
    cos, sin = cos[:1, None], sin[:1, None]
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat([-x2, x1], dim=-1) * sin
""", {"ko": "토큰 하나, 헤드 하나에서는 맞지만", "en": "right for one token and one head"}),
        ("right, with rotate_half written out", """
def apply_rope(x, cos, sin):
    half = x.shape[-1] // 2
    rot = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos.unsqueeze(1) + rot * sin.unsqueeze(1)
""", None),
    ],
    ("09", "ch09-ex-positions"): [
        ("the real tokens subtracted, not the pads",
         "def positions_for(real, T_new):\n    return (torch.arange(real.size(1)) - real.sum(dim=1, keepdim=True))[:, -T_new:]\n",
         {"ko": "행마다 위치가 다르게 밀렸습니다", "en": "the rows are off by different amounts"}),
        ("all T_k positions returned", "def positions_for(real, T_new):\n    return (real.cumsum(dim=-1) - 1).clamp(min=0)\n",
         {"ko": "real의 모든 자리(T_k개)의 위치를 돌려주었습니다", "en": "it returns the positions of all T_k places"}),
        ("the first row only", "def positions_for(real, T_new):\n    return (real.cumsum(dim=-1) - 1)[0, -T_new:]\n",
         {"ko": "B 축(크기 2)이 빠졌습니다", "en": "the B axis (size 2) is missing"}),
        ("counted from the right", "def positions_for(real, T_new):\n    return (real.flip(-1).cumsum(-1).flip(-1) - 1)[:, -T_new:]\n",
         {"ko": "이웃한 토큰의 위치는 1씩 커져야 합니다", "en": "neighbouring tokens' positions must grow by 1"}),
        ("a crash: cumsum over a third axis", "def positions_for(real, T_new):\n    return (real.cumsum(dim=2) - 1)[:, -T_new:]\n",
         {"ko": "positions_for가 오류를 냈습니다(real (2, 6), T_new = 2): IndexError", "en": "positions_for raised an error for real (2, 6)"}),
        ("the pads counted twice", """
def positions_for(real, T_new):
    pads = (~real).sum(dim=-1, keepdim=True)
    return (torch.arange(real.size(1)) - 2 * pads)[:, -T_new:]
""", {"ko": "패딩 수를 한 번 더 뺐습니다", "en": "the pads were subtracted once too often"}),
        ("positions from the pads' count", """
def positions_for(real, T_new):
    pads = (~real).sum(dim=-1, keepdim=True)
    return (torch.arange(real.size(1)) + pads)[:, -T_new:]
""", {"ko": "행마다 위치가 다르게 밀렸습니다", "en": "the rows are off by different amounts"}),
        ("the row's length for every new token", "def positions_for(real, T_new):\n    return real.sum(dim=-1, keepdim=True).expand(-1, T_new) - 1\n",
         {"ko": "이웃한 토큰의 위치는 1씩 커져야 합니다", "en": "neighbouring tokens' positions must grow by 1"}),
        ("as float, with arange", """
def positions_for(real, T_new):
    pads = (~real).sum(dim=-1, keepdim=True)
    return (torch.arange(real.size(1), dtype=torch.float) - pads)[:, -T_new:]
""", {"ko": "위치는 정수여야 하는데 torch.float32", "en": "positions must be integers, got torch.float32"}),
        ("right, from the length", "def positions_for(real, T_new):\n    n = real.sum(dim=-1, keepdim=True)\n    return torch.arange(T_new) + n - T_new\n", None),
    ],
    ("09", "ch09-ex-prefill"): [
        ("cumsum over the batch", prefill_code(positions="(real.long().cumsum(dim=0) - 1).clamp(min=0)"),
         {"ko": "위치를 배치 축(dim=0)을 따라 세었습니다", "en": "the positions were counted along the batch axis"}),
        ("marks from lengths, positions from them too", prefill_code(real="torch.arange(T) >= lengths[:, None]"),
         {"ko": "실제 토큰인 쿼리가 패딩인 키를 봅니다", "en": "real queries see padding keys"}),
        ("positions from the length, not the pads",
         prefill_code(positions="(torch.arange(T)[None, :] - lengths[:, None]).clamp(min=0)"),
         {"ko": "의 실제 토큰 위치가", "en": "get positions"}),
        ("a float mask", prefill_code(mask="(real[:, None, None, :] & causal_mask(T, T)).float()"),
         {"ko": "레이어가 prefill이 넘긴 입력을 받지 않았습니다: mask has dtype torch.float32",
          "en": "layer refused the inputs prefill gave it: mask has dtype torch.float32"}),
        ("float positions", prefill_code(positions="(real.cumsum(dim=-1) - 1).clamp(min=0).float()"),
         {"ko": "레이어가 prefill이 넘긴 입력을 받지 않았습니다: positions has shape",
          "en": "layer refused the inputs prefill gave it: positions has shape"}),
        ("the diagonal hidden", prefill_code(mask="real[:, None, None, :] & torch.ones(T, T, dtype=torch.bool).tril(-1)"),
         {"ko": "대각선이 가려져 쿼리가 자기 자리의 키를 보지 못합니다", "en": "the diagonal is hidden"}),
        ("(cache, out) returned", prefill_code().replace("return layer(x, mask=mask, positions=positions, cache=cache), cache",
                                                          "out = layer(x, mask=mask, positions=positions, cache=cache)\n    return cache, out"),
         {"ko": "텐서를 돌려주어야 하는데 KVCache입니다", "en": "expected a tensor, got a KVCache"}),
        ("a crash: lengths without a new axis", prefill_code(real="torch.arange(T) >= (T - lengths)"),
         {"ko": "prefill이 레이어를 부르기 전에 오류를 냈습니다(길이 [5, 1, 3], T = 5): RuntimeError",
          "en": "prefill raised an error before calling layer"}),
        ("the first real token hidden as a key",
         prefill_code(mask="(torch.arange(T) > (T - lengths)[:, None])[:, None, None, :] & causal_mask(T, T)",
                      positions="(real.long().cumsum(dim=0) - 1).clamp(min=0)"),
         {"ko": "각 행의 첫 실제 토큰이 키로 가려졌습니다", "en": "each row's first real token is hidden as a key"}),
        ("no mask at all", prefill_code(mask="None"),
         {"ko": "마스크를 넘기지 않아 쿼리가 패딩인 키와 미래의 키를 봅니다", "en": "no mask was given"}),
        ("right, padding queries' rows hidden too",
         prefill_code(mask="real[:, None, :, None] & real[:, None, None, :] & causal_mask(T, T)"), None),
    ],
    ("09", "ch09-ex-cache-bytes"): [
        ("per token", "answer_gqa_mib = 2 * 32 * 8 * 128 * 2 / 2**20\nanswer_repeated_mib = 2 * 32 * 32 * 128 * 2 / 2**20",
         {"ko": "토큰 2048개 대신 1개(토큰 하나당)", "en": "one token instead of 2048 (per token)"}),
        ("one sequence, one layer", "answer_gqa_mib = 2 * 2048 * 8 * 128 * 2 / 2**20\nanswer_repeated_mib = 4 * answer_gqa_mib",
         {"ko": "레이어 32개 대신 1개, 배치의 시퀀스 4개 대신 1개", "en": "one layer instead of 32, one sequence instead of the batch's 4"}),
        ("MB", "answer_gqa_mib = 2 * 32 * 4 * 2048 * 8 * 128 * 2 / 10**6\nanswer_repeated_mib = 4 * answer_gqa_mib",
         {"ko": "10**6으로 나누면 MB입니다", "en": "dividing by 10**6 gives MB"}),
        ("repeat thought free", "answer_gqa_mib = 1024\nanswer_repeated_mib = 1024",
         {"ko": "정답의 1/4입니다. 늘린 캐시가 늘리기 전의 캐시와 크기가 같습니다",
          "en": "1/4 of the right value: the repeated cache is as large as the one before"}),
        ("bits and KiB", "answer_gqa_mib = 2 * 32 * 4 * 2048 * 8 * 128 * 16 / 2**10\nanswer_repeated_mib = 4 * answer_gqa_mib",
         {"ko": "값 하나에 2바이트 대신 16비트, MiB가 아닌 KiB(2**10으로만 나눔)",
          "en": "16 bits per value instead of 2 bytes, KiB (divided by 2**10 only), not MiB"}),
        ("as a string", "answer_gqa_mib = '1024'\nanswer_repeated_mib = '4096'",
         {"ko": "answer_gqa_mib에는 MiB 수를 숫자로 적으세요", "en": "write answer_gqa_mib as a number of MiB"}),
        ("no head_dim, and the repeat by 8", "answer_gqa_mib = 2 * 32 * 4 * 2048 * 8 * 2 / 2**20\nanswer_repeated_mib = 8 * answer_gqa_mib",
         {"ko": "answer_gqa_mib: 정답의 1/128입니다. 이 값은 다음과 같이 계산할 때 나옵니다: head_dim(128) 없이",
          "en": "answer_gqa_mib: 1/128 of the right value: that is the value you get with no head_dim (128)"}),
        ("an arithmetic slip", "answer_gqa_mib = 1000\nanswer_repeated_mib = 4000",
         {"ko": "정답의 1/1.024입니다. 문제의 항을 셋까지 빼거나 바꾼 것으로는 설명되지 않습니다",
          "en": "1/1.024 of the right value: no one to three terms of the problem"}),
        ("GiB for the repeated one only", "answer_gqa_mib = 1024\nanswer_repeated_mib = 4",
         {"ko": "4는 배율(32 / 8)입니다", "en": "4 is the factor (32 / 8)"}),
        ("the query heads and float32", "answer_gqa_mib = 2 * 32 * 4 * 2048 * 32 * 128 * 4 / 2**20\nanswer_repeated_mib = answer_gqa_mib",
         {"ko": "헤드 8개 대신 32개, bfloat16의 2바이트 대신 값 하나에 4바이트(float32)",
          "en": "32 heads instead of 8, 4 bytes per value (float32) instead of bfloat16's 2"}),
        ("right, as integers", "answer_gqa_mib = 1024\nanswer_repeated_mib = 4096", None),
    ],
    ("09", "ch09-ex-rolling"): [
        ("len(k_all) is the batch", window("self.k, self.v = k_all[:, :, len(k_all) - self.window:], v_all[:, :, len(v_all) - self.window:]"),
         {"ko": "캐시가 가장 최근의 키 1개만 남깁니다", "en": "the cache keeps only the 1 most recent keys"}),
        ("cut from seen", window("self.k, self.v = k_all[:, :, self.seen - self.window:], v_all[:, :, self.seen - self.window:]"),
         {"ko": "캐시에 키가 하나도 남지 않았습니다", "en": "the cache keeps no key at all"}),
        ("keys and values swapped", window("self.k, self.v = v_all[:, :, -self.window:], k_all[:, :, -self.window:]"),
         {"ko": "캐시의 self.k에 밸류가 들어 있습니다", "en": "the cache's self.k holds values"}),
        ("(v_all, k_all) returned", window("self.k, self.v = k_all[:, :, -self.window:], v_all[:, :, -self.window:]", "v_all, k_all"),
         {"ko": "append가 어텐션에 돌려준 키가 이전에 보관한 키와", "en": "the keys append returns for attention are not"}),
        ("the newest key left out", window("self.k, self.v = k_all[:, :, -self.window:-1], v_all[:, :, -self.window:-1]"),
         {"ko": "캐시가 토큰 1..2의 키를 남깁니다. 남길 것은 가장 최근의 토큰 2..3",
          "en": "the cache keeps the keys of tokens 1..2; the most recent ones, 2..3"}),
        ("the first w dropped", window("self.k, self.v = k_all[:, :, self.window:], v_all[:, :, self.window:]"),
         {"ko": "캐시가 가장 최근의 키 1개만 남깁니다", "en": "the cache keeps only the 1 most recent keys"}),
        ("cut before appending", """
class WindowCache(KVCache):
    def __init__(self, window):
        super().__init__()
        self.window = window

    def append(self, k, v):
        if self.k is not None:
            self.k, self.v = self.k[:, :, -self.window:], self.v[:, :, -self.window:]
        return super().append(k, v)
""", {"ko": "캐시의 토큰 축(dim=2)에 키가 w개보다 많이", "en": "the cache keeps more than w keys"}),
        ("a crash: self.w", window("self.k, self.v = k_all[:, :, -self.w:], v_all[:, :, -self.w:]"),
         {"ko": "토큰 0..3까지 쓰는 단계에서 오류가 났습니다: AttributeError",
          "en": "the step writing tokens 0..3 raised an error: AttributeError"}),
        ("nothing returned", window("self.k, self.v = k_all[:, :, -self.window:], v_all[:, :, -self.window:]", "None"),
         {"ko": "오류가 났습니다: TypeError: cannot unpack", "en": "raised an error: TypeError: cannot unpack"}),
        ("the values cut from the other end", window("self.k, self.v = k_all[:, :, -self.window:], v_all[:, :, :self.window]"),
         {"ko": "키는 맞게 잘랐지만 밸류는 아닙니다", "en": "the keys are cut right but the values are not"}),
        ("right, with max", window("n = k_all.size(2)\n        self.k, self.v = k_all[:, :, max(0, n - self.window):], v_all[:, :, max(0, n - self.window):]"), None),
    ],
}


def case_for(key):
    return CASES.get(key) or {"needs": NEEDS_10[key]}


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("chapter", "label", "name"),
                         [(*key, name) for key, answers in CASES_9_10.items() for name, _, _ in answers])
def test_a_wrong_answer_of_chapters_9_and_10_is_named(chapter, label, name, lang):
    _, answer, words = next(a for a in CASES_9_10[(chapter, label)] if a[0] == name)
    said = run_check(chapter, label, case_for((chapter, label)), answer, lang)
    assert_verdict(said, words, label, lang, name)


def test_each_exercise_of_chapters_9_and_10_has_eight_new_wrong_answers():
    for key, answers in CASES_9_10.items():
        names = [name for name, _, _ in answers]
        assert len(names) == len(set(names)), key
        assert sum(words is not None for _, _, words in answers) >= 8, f"{key}: fewer than 8 wrong answers"
