"""Chapters 9 and 10: more wrong answers, written as learners write them, each refused with a message that names
its mistake or its concrete effect (never the exercise's general hint alone), in both languages.

The checks diagnose in order: known slips computed in the check, then relations (shape, order, factor), then an
effect statement; these cases hold each step. They run in this process as tests/test_wrong_answers.py runs its own.
"""

from __future__ import annotations

import pytest
from test_wrong_answers import QWEN, answer_params, assert_distinct_names_and_wrong_answers, assert_named, window
from test_wrong_answers import prefill as prefill_code

HALVES = """
def apply_rope(x, cos, sin):
    cos, sin = cos[:, None], sin[:, None]
    x1, x2 = x.chunk(2, dim=-1)
    BODY
"""

LLAMA3 = """
def llama3_inv_freq(inv_freq, factor, low, high, original):
    keep = ((original / (2 * math.pi / inv_freq) - low) / (high - low)).clamp(0, 1)
    return keep * inv_freq + (1 - keep) * inv_freq / factor
"""


def halves(body):
    return HALVES.replace("BODY", body)


CASES_9_10 = {
    ("09", "ch09-ex-halves"): [
        ("x returned as integers", "def apply_rope(x, cos, sin):\n    return x.int()\n",
         {"ko": "회전한 특징이 없습니다. x가 들어간 그대로 나옵니다", "en": "no feature is rotated: x comes out as it went in"}),
        ("heads and tokens swapped on return", halves("return (x * cos + torch.cat([-x2, x1], dim=-1) * sin).transpose(1, 2)"),
         {"ko": "축 1, 축 2의 자리가 뒤바뀌었습니다", "en": "axes 1 and 2 are swapped"}),
        ("right, in float64", halves("return (x * cos + torch.cat([-x2, x1], dim=-1) * sin).double()"), None),
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
        ("the marks returned", "def positions_for(real, T_new):\n    return real[:, -T_new:]\n",
         {"ko": "위치는 정수여야 하는데 torch.bool입니다. True와 False는 표시일 뿐",
          "en": "positions must be integers, got torch.bool: True and False are marks"}),
        ("transposed", "def positions_for(real, T_new):\n    return (real.cumsum(-1) - 1)[:, -T_new:].T\n",
         {"ko": "값은 맞지만 전치되어 있습니다", "en": "the values are right but transposed"}),
        ("the first T_k - T_new dropped", "def positions_for(real, T_new):\n    return (real.cumsum(-1) - 1)[:, T_new:]\n",
         {"ko": "축 1의 크기가 4(T_k - T_new)인데", "en": "axis 1 holds 4 (T_k - T_new) where T_new = 2 belongs"}),
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
        ("not a KVCache, no seen", """
class WindowCache:
    def __init__(self, window):
        self.window = window
        self.k = self.v = None

    def append(self, k, v):
        k_all = k if self.k is None else torch.cat([self.k, k], dim=2)
        v_all = v if self.v is None else torch.cat([self.v, v], dim=2)
        self.k, self.v = k_all[:, :, -self.window:], v_all[:, :, -self.window:]
        return k_all, v_all
""", {"ko": "토큰 0..3까지 쓰는 단계에서 오류가 났습니다: AttributeError: 'WindowCache' object has no attribute 'seen'",
      "en": "the step writing tokens 0..3 raised an error: AttributeError: 'WindowCache' object has no attribute 'seen'"}),
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
    ("10", "ch10-ex-llama3"): [
        ("the chapter's function called", "def llama3_inv_freq(inv_freq, factor, low, high, original):\n"
         "    return inv_freq_llama3(inv_freq, factor, low, high, original)\n",
         {"ko": "값은 맞지만 llama3_inv_freq가 다른 함수를 불러 씁니다: inv_freq_llama3",
          "en": "the values are right, but llama3_inv_freq calls inv_freq_llama3"}),
        ("the chapter's function under the asked name", "llama3_inv_freq = inv_freq_llama3\n",
         {"ko": "값은 맞지만 llama3_inv_freq가 다른 함수를 불러 씁니다: inv_freq_llama3",
          "en": "the values are right, but llama3_inv_freq calls inv_freq_llama3"}),
        ("the speeds as integers", "def llama3_inv_freq(inv_freq, factor, low, high, original):\n    return inv_freq.int()\n",
         {"ko": "빠른 짝(파장이 original / high = 2048보다 짧은 짝)은 그대로 두어야 하는데", "en": "the fast pairs (wavelength below original / high = 2048)"}),
        ("factor 8 hard-coded", LLAMA3.replace("inv_freq / factor", "inv_freq / 8"),
         {"ko": "느린 짝(파장이 original / low = 8192보다 긴 짝)은 factor로 나누어야 하는데 factor 32 대신 8(으)로 나뉘었습니다",
          "en": "the slow pairs (wavelength above original / low = 8192) are divided by 8 (factor is 32)"}),
        ("32 hard-coded, right for the example only", LLAMA3.replace("inv_freq / factor", "inv_freq / 32"),
         {"ko": "Llama 3.1 8B의 설정(factor 8, head_dim 128)에서는 틀립니다", "en": "but wrong for Llama 3.1 8B's config"}),
        ("a crash: if on a tensor", """
def llama3_inv_freq(inv_freq, factor, low, high, original):
    wavelength = 2 * math.pi / inv_freq
    if wavelength < original / high:
        return inv_freq
    return inv_freq / factor
""", {"ko": "llama3_inv_freq가 오류를 냈습니다(inv_freq (32,), factor 32, low 1, high 4, original 8192): RuntimeError",
      "en": "llama3_inv_freq raised an error for inv_freq (32,), factor 32, low 1, high 4, original 8192: RuntimeError"}),
        ("a list returned", LLAMA3.replace("return keep * inv_freq + (1 - keep) * inv_freq / factor",
                                           "return (keep * inv_freq + (1 - keep) * inv_freq / factor).tolist()"),
         {"ko": "모양이 (32,)인 텐서여야 하는데 list입니다", "en": "expected a tensor of shape (32,), got list"}),
        ("clamped below only", LLAMA3.replace(".clamp(0, 1)", ".clamp(min=0)"),
         {"ko": "빠른 짝(파장이 original / high = 2048보다 짧은 짝)은 그대로 두어야 하는데", "en": "the fast pairs (wavelength below original / high = 2048)"}),
        ("the mix linear in the wavelength", """
def llama3_inv_freq(inv_freq, factor, low, high, original):
    wavelength = 2 * math.pi / inv_freq
    keep = ((original / low - wavelength) / (original / low - original / high)).clamp(0, 1)
    return keep * inv_freq + (1 - keep) * inv_freq / factor
""", {"ko": "빠른 짝과 느린 짝은 맞았지만 사이의 짝(파장 2048에서 8192)의 섞는 비율이 틀립니다",
      "en": "the fast and slow pairs are right, but the share that mixes the pairs between"}),
        ("low and high swapped", """
def llama3_inv_freq(inv_freq, factor, low, high, original):
    keep = ((original / (2 * math.pi / inv_freq) - high) / (low - high)).clamp(0, 1)
    return keep * inv_freq + (1 - keep) * inv_freq / factor
""", {"ko": "빠른 짝(파장이 original / high = 2048보다 짧은 짝)은 그대로 두어야 하는데 factor로 나뉘었습니다",
      "en": "the fast pairs (wavelength below original / high = 2048) are divided by factor"}),
        ("the slow pairs divided by factor squared", LLAMA3.replace("inv_freq / factor", "inv_freq / factor ** 2"),
         {"ko": "factor 32 대신 1024(으)로 나뉘었습니다", "en": "are divided by 1024 (factor is 32)"}),
        ("right, in float64", LLAMA3.replace("return keep", "return (keep").replace("/ factor\n", "/ factor).double()\n"), None),
    ],
    ("10", "ch10-ex-yarn"): [
        ("ln forgotten", "answer_attention_scaling = 0.1 * 4 + 1\nanswer_score_factor = answer_attention_scaling ** 2",
         {"ko": "0.1 × factor + 1을 계산했습니다. ln이 빠졌습니다", "en": "that is 0.1 × factor + 1: the ln is missing"}),
        ("sqrt on cos/sin", "answer_attention_scaling = math.sqrt(0.1 * math.log(4) + 1)\nanswer_score_factor = 0.1 * math.log(4) + 1",
         {"ko": "0.1 ln(factor) + 1의 제곱근입니다", "en": "that is the square root of 0.1 ln(factor) + 1"}),
        ("the score to the fourth power", "answer_attention_scaling = 0.1 * math.log(4) + 1\nanswer_score_factor = answer_attention_scaling ** 4",
         {"ko": "0.1 ln(factor) + 1의 네제곱입니다", "en": "the fourth power of 0.1 ln(factor) + 1"}),
        ("the score unchanged", "answer_attention_scaling = 0.1 * math.log(4) + 1\nanswer_score_factor = 1.0",
         {"ko": "점수가 그대로라는 답입니다", "en": "that says the score is unchanged"}),
        ("a guess above", "answer_attention_scaling = 1.25\nanswer_score_factor = 1.5625",
         {"ko": "answer_attention_scaling: 맞는 값의 1.098배입니다",
          "en": "answer_attention_scaling: 1.098 times the right value"}),
        ("a guess below 1", "answer_attention_scaling = 0.9\nanswer_score_factor = 0.81",
         {"ko": "1보다 작으면 점수가 작아집니다", "en": "Below 1 it makes the scores smaller"}),
        ("as text", "answer_attention_scaling = '1.1386'\nanswer_score_factor = '1.2965'",
         {"ko": "answer_attention_scaling에는 수를 적으세요", "en": "write answer_attention_scaling as a number"}),
        ("without the 0.1", "answer_attention_scaling = math.log(4) + 1\nanswer_score_factor = answer_attention_scaling ** 2",
         {"ko": "ln(factor) + 1입니다. ln(factor)에 0.1을 곱하지 않았습니다", "en": "that is ln(factor) + 1: ln(factor) is not multiplied by 0.1"}),
        ("the square on cos and sin", "answer_attention_scaling = (0.1 * math.log(4) + 1) ** 2\nanswer_score_factor = answer_attention_scaling ** 2",
         {"ko": "0.1 ln(factor) + 1의 제곱입니다. 제곱은 점수의 배율이고", "en": "that is the square of 0.1 ln(factor) + 1: the score's factor"}),
        ("the score added, not multiplied", "answer_attention_scaling = 0.1 * math.log(4) + 1\nanswer_score_factor = 0.2 * math.log(4) + 1",
         {"ko": "1 + 2 × 0.1 ln(factor)입니다", "en": "that is 1 + 2 × 0.1 ln(factor)"}),
        ("a guess for the score", "answer_attention_scaling = 0.1 * math.log(4) + 1\nanswer_score_factor = 1.5",
         {"ko": "answer_score_factor: 맞는 값의 1.157배입니다", "en": "answer_score_factor: 1.157 times the right value"}),
        ("right, rounded", "answer_attention_scaling = 1.1386\nanswer_score_factor = 1.2965", None),
    ],
    ("10", "ch10-ex-qk-norm"): [
        ("norm on the flat projections", """
def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):
    B, T, _ = q_flat.shape
    q_flat, k_flat = q_norm(q_flat), k_norm(k_flat)
    q = q_flat.view(B, T, -1, d_head).transpose(1, 2)
    k = k_flat.view(B, T, -1, d_head).transpose(1, 2)
    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)
""", {"ko": "q_norm에 들어간 텐서의 모양이 (2, 5, 64)입니다", "en": "q_norm was given a tensor of shape (2, 5, 64)"}),
        ("view with d_head and -1 swapped", """
def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):
    B, T, _ = q_flat.shape
    q = q_flat.view(B, T, d_head, -1).transpose(1, 2)
    k = k_flat.view(B, T, d_head, -1).transpose(1, 2)
    q, k = q_norm(q), k_norm(k)
    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)
""", {"ko": "q_norm에 들어간 텐서의 모양이 (2, 16, 5, 4)입니다", "en": "q_norm was given a tensor of shape (2, 16, 5, 4)"}),
        ("rope_halves redefined with the sign flipped", """
def rope_halves(x, cos, sin):
    return x * cos - rotate_half(x) * sin
""" + QWEN.replace("BODY", "q, k = q_norm(q), k_norm(k)\n    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)"),
         {"ko": "노트북에 지금 정의된 rope_halves가 apply_rotary_pos_emb와 다르게 회전합니다",
          "en": "the rope_halves now defined in the notebook rotates otherwise"}),
        ("queries normalised with k_norm", QWEN.replace("BODY", "q, k = k_norm(q), k_norm(k)\n    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)"),
         {"ko": "q: 다른 쪽의 정규화 가중치를 썼습니다", "en": "q: the other side's norm weights"}),
        ("cos and sin swapped", QWEN.replace("BODY", "q, k = q_norm(q), k_norm(k)\n    return rope_halves(q, sin, cos), rope_halves(k, sin, cos)"),
         {"ko": "q: 헤드와 토큰마다 벡터의 길이는 맞지만 방향이 다릅니다",
          "en": "q: each head's and token's vector has the right length but another direction"}),
        ("an RMS norm by hand, without the weights", QWEN.replace("BODY", """def rms(x):
        return x / (x.pow(2).mean(-1, keepdim=True) + 1e-6).sqrt()
    q, k = rms(q), rms(k)
    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)"""),
         {"ko": "q: q_norm을 부르지 않았습니다", "en": "q: q_norm is never called"}),
        ("a dict returned", QWEN.replace("BODY", "q, k = q_norm(q), k_norm(k)\n    return {'q': rope_halves(q, cos, sin), 'k': rope_halves(k, cos, sin)}"),
         {"ko": "쿼리와 키, 텐서 두 개를 (q, k) 순서로 돌려주세요", "en": "return two tensors, the queries and the keys, as (q, k)"}),
        ("rotated before the split", """
def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):
    B, T, _ = q_flat.shape
    q_flat, k_flat = rope_halves(q_flat, cos, sin), rope_halves(k_flat, cos, sin)
    q = q_flat.view(B, T, -1, d_head).transpose(1, 2)
    k = k_flat.view(B, T, -1, d_head).transpose(1, 2)
    return q_norm(q), k_norm(k)
""", {"ko": "qwen3_heads가 오류를 냈습니다(q_flat (2, 5, 64)", "en": "qwen3_heads raised an error for q_flat (2, 5, 64)"}),
        ("the norm over the tokens", QWEN.replace("BODY", "q, k = q_norm(q.transpose(-2, -1)).transpose(-2, -1), k_norm(k)\n    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)"),
         {"ko": "q_norm에 들어간 텐서의 모양이 (2, 4, 16, 5)입니다", "en": "q_norm was given a tensor of shape (2, 4, 16, 5)"}),
        ("the heads and tokens left swapped", QWEN.replace("BODY", "q, k = q_norm(q), k_norm(k)\n    q, k = rope_halves(q, cos, sin), rope_halves(k, cos, sin)\n    return q.transpose(1, 2).reshape(q.shape), k"),
         {"ko": "q: 값은 모두 있지만", "en": "q: the values are all there, but laid out"}),
        ("right, with permute", """
def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):
    B, T, _ = q_flat.shape
    q = q_norm(q_flat.reshape(B, T, -1, d_head)).permute(0, 2, 1, 3)
    k = k_norm(k_flat.reshape(B, T, -1, d_head)).permute(0, 2, 1, 3)
    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)
""", None),
    ],
    ("10", "ch10-ex-mla-bytes"): [
        ("in MiB", "answer_mla_bytes = 27 * 576 * 2 / 2**20\nanswer_expanded_bytes = 27 * 16 * 320 * 2 / 2**20",
         {"ko": "바이트가 아닌 MiB", "en": "MiB, not bytes"}),
        ("latent and rope counted for K and V", "answer_mla_bytes = 27 * 2 * (512 + 64) * 2\nanswer_expanded_bytes = 27 * 16 * (128 + 64 + 128) * 2",
         {"ko": "잠재 벡터와 공유 키를 키와 밸류에 하나씩(2 × 576). 또는 bfloat16의 2바이트 대신 4바이트(float32)",
          "en": "the latent and shared key counted for keys and for values (2 × 576); or with 4 bytes per value"}),
        ("in KiB", "answer_mla_bytes = 27 * (512 + 64) * 2 / 1024\nanswer_expanded_bytes = 27 * 16 * (128 + 64 + 128) * 2 / 1024",
         {"ko": "answer_mla_bytes: 정답의 1/1024입니다. 이 값은 다음과 같이 계산할 때 나옵니다: 바이트가 아닌 KiB",
          "en": "answer_mla_bytes: 1/1024 of the right value: that is the value you get with KiB, not bytes"}),
        ("one layer, float32", "answer_mla_bytes = (512 + 64) * 4\nanswer_expanded_bytes = 16 * (128 + 64 + 128) * 4",
         {"ko": "레이어 27개 대신 1개, bfloat16의 2바이트 대신 4바이트(float32)",
          "en": "one layer instead of 27, 4 bytes per value (float32) instead of bfloat16's 2"}),
        ("the rotated key only", "answer_mla_bytes = 27 * 64 * 2\nanswer_expanded_bytes = 27 * 16 * (128 + 64 + 128) * 2",
         {"ko": "회전한 공유 키 64만, 잠재 벡터 없이", "en": "the rotated shared key's 64 only, without the latent"}),
        ("expanded with V3's 128 heads", "answer_mla_bytes = 27 * (512 + 64) * 2\nanswer_expanded_bytes = 27 * 128 * (128 + 64 + 128) * 2",
         {"ko": "헤드 16개 대신 128개(V3)", "en": "128 heads (V3's) instead of 16"}),
        ("values as wide as keys", "answer_mla_bytes = 27 * (512 + 64) * 2\nanswer_expanded_bytes = 27 * 16 * 2 * (128 + 64) * 2",
         {"ko": "밸류도 키처럼 192로", "en": "values as wide as keys, 192"}),
        ("expanded as the latent per head", "answer_mla_bytes = 27 * (512 + 64) * 2\nanswer_expanded_bytes = 27 * 16 * (512 + 64) * 2",
         {"ko": "펼친 키와 밸류 대신 잠재 벡터와 공유 키(512 + 64)", "en": "the latent and shared key (512 + 64) instead of expanded keys"}),
        ("expanded: one layer, values", "answer_mla_bytes = 27 * (512 + 64) * 2\nanswer_expanded_bytes = 16 * (128 + 64 + 128)",
         {"ko": "레이어 27개 대신 1개, 바이트가 아닌 값의 수(2바이트를 곱하지 않음)",
          "en": "one layer instead of 27, values, not bytes (no 2 bytes per value)"}),
        ("as text", "answer_mla_bytes = '31104'\nanswer_expanded_bytes = '276480'",
         {"ko": "answer_mla_bytes에는 바이트 수를 숫자로 적으세요", "en": "write answer_mla_bytes as a number of bytes"}),
        ("an arithmetic slip", "answer_mla_bytes = 31000\nanswer_expanded_bytes = 276480",
         {"ko": "answer_mla_bytes: 정답의 1/1.003입니다. 문제의 항을 셋까지 빼거나 바꾼 것으로는",
          "en": "answer_mla_bytes: 1/1.003 of the right value: no one to three terms"}),
        ("right, as floats", "answer_mla_bytes = 31104.0\nanswer_expanded_bytes = 276480.0", None),
    ],
}


# Fresh answers (2026-11-28), written before reading the check cells: slips of axis and size, a global
# used instead of an argument, sizes fixed from the example, in-place changes of an input, a plain tensor
# assigned to .weight, another factor or constant; each must get a message naming it (or its effect).
FRESH = {('10', 'ch10-ex-llama3'): [('fresh: right, torch.where',
                             'def llama3_inv_freq(inv_freq, factor, low, high, original):\n'
                             '    wl = 2 * math.pi / inv_freq\n'
                             '    smooth = (original / wl - low) / (high - low)\n'
                             '    mid = (1 - smooth) * inv_freq / factor + smooth * inv_freq\n'
                             '    out = torch.where(wl > original / low, inv_freq / factor, inv_freq)\n'
                             '    between = (wl >= original / high) & (wl <= original / low)\n'
                             '    return torch.where(between, mid, out)\n',
                             None),
                            ('fresh: no 2 pi',
                             'def llama3_inv_freq(inv_freq, factor, low, high, original):\n'
                             '    wl = 1 / inv_freq\n'
                             '    keep = ((original / wl - low) / (high - low)).clamp(0, 1)\n'
                             '    return keep * inv_freq + (1 - keep) * inv_freq / factor\n',
                             {'ko': '파장은 1 / inv_freq가 아니라 2π / inv_freq입니다.',
                              'en': 'the pairs between are wrong, their borders off b'}),
                            ('fresh: roles flipped',
                             'def llama3_inv_freq(inv_freq, factor, low, high, original):\n'
                             '    wl = 2 * math.pi / inv_freq\n'
                             '    keep = ((original / wl - low) / (high - low)).clamp(0, 1)\n'
                             '    return (1 - keep) * inv_freq + keep * inv_freq / factor\n',
                             {'ko': '빠른 짝(파장이 original / high = 2048보다 짧은 짝)은 그대로 두어야',
                              'en': 'the fast pairs (wavelength below original / high'}),
                            ('fresh: hard threshold, no smoothing',
                             'def llama3_inv_freq(inv_freq, factor, low, high, original):\n'
                             '    wl = 2 * math.pi / inv_freq\n'
                             '    return torch.where(wl > original / low, inv_freq / factor, inv_freq)\n',
                             {'ko': '파장이 original / high와 original / low 사이인 짝을 섞지 않았',
                              'en': 'the pairs with a wavelength between original / h'}),
                            ('fresh: global wavelength',
                             'inv_freq = 1.0 / (500000.0 ** (torch.arange(0, 128, 2).float() / 128))\n'
                             'wavelength = 2 * math.pi / inv_freq\n'
                             'def llama3_inv_freq(inv_freq, factor, low, high, original):\n'
                             '    keep = ((original / wavelength - low) / (high - low)).clamp(0, 1)\n'
                             '    return keep * inv_freq + (1 - keep) * inv_freq / factor\n',
                             {'ko': 'llama3_inv_freq가 오류를 냈습니다(inv_freq (32,), factor',
                              'en': 'llama3_inv_freq raised an error for inv_freq (32'}),
                            ('fresh: loop over fixed 64 pairs',
                             'def llama3_inv_freq(inv_freq, factor, low, high, original):\n'
                             '    out = inv_freq.clone()\n'
                             '    for i in range(64):\n'
                             '        wl = 2 * math.pi / inv_freq[i]\n'
                             '        keep = min(max((original / wl - low) / (high - low), 0), 1)\n'
                             '        out[i] = keep * inv_freq[i] + (1 - keep) * inv_freq[i] / factor\n'
                             '    return out\n',
                             {'ko': 'llama3_inv_freq가 오류를 냈습니다(inv_freq (32,), factor',
                              'en': 'llama3_inv_freq raised an error for inv_freq (32'}),
                            ('fresh: input mutated',
                             'def llama3_inv_freq(inv_freq, factor, low, high, original):\n'
                             '    wl = 2 * math.pi / inv_freq\n'
                             '    keep = ((original / wl - low) / (high - low)).clamp(0, 1)\n'
                             '    inv_freq.mul_(keep + (1 - keep) / factor)\n'
                             '    return inv_freq\n',
                             {'ko': 'llama3_inv_freq가 인자 inv_freq를 제자리에서 바꿨습니다(mul_,',
                              'en': 'llama3_inv_freq changed its argument inv_freq in'})],
 ('10', 'ch10-ex-yarn'): [('fresh: not squared',
                           'answer_attention_scaling = 1.1386\nanswer_score_factor = 1.1386',
                           {'ko': '점수는 회전한 쿼리와 회전한 키의 내적입니다.',
                            'en': 'the score is the dot product of the rotated quer'}),
                          ('fresh: factor 40',
                           'answer_attention_scaling = 0.1 * math.log(40) + 1\n'
                           'answer_score_factor = (0.1 * math.log(40) + 1) ** 2',
                           {'ko': '0.1 ln(40) + 1을 계산했습니다.', 'en': 'that is 0.1 ln(40) + 1:'}),
                          ('fresh: log10',
                           'answer_attention_scaling = 0.1 * math.log10(4) + 1\n'
                           'answer_score_factor = (0.1 * math.log10(4) + 1) ** 2',
                           {'ko': '로그는 자연로그(ln)입니다.', 'en': 'the logarithm is the natural one (ln).'}),
                          ('fresh: inverse',
                           'answer_attention_scaling = 1 / (0.1 * math.log(4) + 1)\n'
                           'answer_score_factor = 1 / (0.1 * math.log(4) + 1) ** 2',
                           {'ko': 'transformers는 cos와 sin에 0.1 ln(factor) + 1(1보다 큼', 'en': 'that is the inverse:'}),
                          ('fresh: doubled',
                           'answer_attention_scaling = 1.1386\nanswer_score_factor = 2 * 1.1386',
                           {'ko': '점수는 두 배가 아니라 제곱만큼 커집니다.', 'en': 'the score grows by the square, not twice:'}),
                          ('fresh: no 0.1',
                           'answer_attention_scaling = math.log(4) + 1\nanswer_score_factor = (math.log(4) + 1) ** 2',
                           {'ko': 'answer_attention_scaling:', 'en': 'answer_attention_scaling:'}),
                          ('fresh: log2',
                           'answer_attention_scaling = 0.1 * math.log2(4) + 1\n'
                           'answer_score_factor = (0.1 * math.log2(4) + 1) ** 2',
                           {'ko': '로그는 자연로그(ln)입니다.', 'en': 'the logarithm is the natural one (ln).'}),
                          ('fresh: right rounded',
                           'answer_attention_scaling = 1.139\nanswer_score_factor = 1.296',
                           None),
                          ('fresh: the factor itself',
                           'answer_attention_scaling = 4\nanswer_score_factor = 16',
                           {'ko': 'attention_scaling은 factor가 아니라 0.1 ln(factor) +',
                            'en': 'attention_scaling is not the factor itself:'}),
                          ('fresh: score sqrt',
                           'answer_attention_scaling = 1.1386\nanswer_score_factor = 1.1386 ** 0.5',
                           {'ko': '쿼리와 키가 저마다 배율을 받습니다.', 'en': 'the square, not the square root:'}),
                          ('fresh: swapped',
                           'answer_attention_scaling = 1.2965\nanswer_score_factor = 1.1386',
                           {'ko': 'answer_attention_scaling:', 'en': 'answer_attention_scaling:'}),
                          ('fresh: strings',
                           "answer_attention_scaling = '1.1386'\nanswer_score_factor = '1.2965'",
                           {'ko': 'answer_attention_scaling에는 수를 적으세요(지금 답:',
                            'en': 'write answer_attention_scaling as a number (got'})],
 ('10', 'ch10-ex-mla-bytes'): [('fresh: no rope part',
                                'answer_mla_bytes = 512 * 27 * 2\nanswer_expanded_bytes = 16 * (192 + 128) * 27 * 2',
                                {'ko': '회전한 공유 키(qk_rope_head_dim)도 캐시에 들어갑니다.',
                                 'en': 'the rotated shared key (qk_rope_head_dim) is cac'}),
                               ('fresh: rope per head',
                                'answer_mla_bytes = (512 + 16 * 64) * 27 * 2\n'
                                'answer_expanded_bytes = 16 * (192 + 128) * 27 * 2',
                                {'ko': '회전한 키 64는 모든 헤드가 함께 씁니다.', 'en': "all heads share the rotated key's 64:"}),
                               ('fresh: fp32',
                                'answer_mla_bytes = 576 * 27 * 4\nanswer_expanded_bytes = 16 * 320 * 27 * 4',
                                {'ko': '이 값은 다음과 같이 계산할 때 나옵니다:', 'en': '2 times the right value:'}),
                               ('fresh: layers forgotten',
                                'answer_mla_bytes = 576 * 2\nanswer_expanded_bytes = 16 * 320 * 2',
                                {'ko': '레이어 27개를 모두 세세요.', 'en': 'count all 27 layers.'}),
                               ('fresh: expanded keys without rope',
                                'answer_mla_bytes = 576 * 27 * 2\nanswer_expanded_bytes = 16 * (128 + 128) * 27 * 2',
                                {'ko': '펼친 키는 헤드마다 128 + 64차원입니다(회전하는 부분 포함).',
                                 'en': 'an expanded key is 128 + 64 wide per head (the r'}),
                               ('fresh: expanded without values',
                                'answer_mla_bytes = 576 * 27 * 2\nanswer_expanded_bytes = 16 * 192 * 27 * 2',
                                {'ko': '밸류(헤드마다 v_head_dim = 128)도 세세요.', 'en': '1/1.667 of the right value:'}),
                               ('fresh: latent counted for K and V',
                                'answer_mla_bytes = (2 * 512 + 64) * 27 * 2\n'
                                'answer_expanded_bytes = 16 * 320 * 27 * 2',
                                {'ko': '잠재 벡터 하나가 키와 밸류를 함께 만듭니다.', 'en': 'one latent serves both keys and values:'}),
                               ('fresh: bits',
                                'answer_mla_bytes = 576 * 27 * 16\nanswer_expanded_bytes = 16 * 320 * 27 * 16',
                                {'ko': '이 값은 다음과 같이 계산할 때 나옵니다:', 'en': '8 times the right value:'}),
                               ('fresh: right as floats',
                                'answer_mla_bytes = 31104.0\nanswer_expanded_bytes = 276480.0',
                                None),
                               ('fresh: KiB',
                                'answer_mla_bytes = 576 * 27 * 2 / 1024\n'
                                'answer_expanded_bytes = 16 * 320 * 27 * 2 / 1024',
                                {'ko': '이 값은 다음과 같이 계산할 때 나옵니다:', 'en': '1/1024 of the right value:'}),
                               ('fresh: expanded: rope shared once',
                                'answer_mla_bytes = 576 * 27 * 2\n'
                                'answer_expanded_bytes = (16 * (128 + 128) + 64) * 27 * 2',
                                {'ko': '펼치면 헤드마다 회전한 64를 따로 가집니다.',
                                 'en': 'expanded, every head has its own rotated 64:'}),
                               ('fresh: heads forgotten in expanded',
                                'answer_mla_bytes = 576 * 27 * 2\nanswer_expanded_bytes = 320 * 27 * 2',
                                {'ko': '펼치면 헤드 16개가 저마다 키와 밸류를 가집니다.', 'en': '1/16 of the right value:'})],
 ('10', 'ch10-ex-qk-norm'): [('fresh: template',
                              'def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):\n'
                              '    B, T, _ = q_flat.shape\n'
                              '    q = q_flat.view(B, T, -1, d_head).transpose(1, 2)\n'
                              '    k = k_flat.view(B, T, -1, d_head).transpose(1, 2)\n'
                              '    q, k = rope_halves(q, cos, sin), rope_halves(k, cos, sin)\n'
                              '    return q_norm(q), k_norm(k)\n',
                              {'ko': 'Qwen3은 헤드로 나눈 뒤, 회전하기 전에 정규화합니다.',
                               'en': 'it still normalises after the rotation:'}),
                             ('fresh: right, norm before transpose',
                              'def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):\n'
                              '    B, T, _ = q_flat.shape\n'
                              '    q = q_norm(q_flat.view(B, T, -1, d_head)).transpose(1, 2)\n'
                              '    k = k_norm(k_flat.view(B, T, -1, d_head)).transpose(1, 2)\n'
                              '    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)\n',
                              None),
                             ('fresh: norm on the flat width',
                              'def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):\n'
                              '    B, T, _ = q_flat.shape\n'
                              '    q = q_norm(q_flat).view(B, T, -1, d_head).transpose(1, 2)\n'
                              '    k = k_norm(k_flat).view(B, T, -1, d_head).transpose(1, 2)\n'
                              '    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)\n',
                              {'ko': 'q_norm에 들어간 텐서의 모양이 (2, 5, 64)입니다.',
                               'en': 'q_norm was given a tensor of shape (2, 5, 64):'}),
                             ('fresh: norm twice',
                              'def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):\n'
                              '    B, T, _ = q_flat.shape\n'
                              '    q = q_norm(q_flat.view(B, T, -1, d_head).transpose(1, 2))\n'
                              '    k = k_norm(k_flat.view(B, T, -1, d_head).transpose(1, 2))\n'
                              '    q, k = rope_halves(q, cos, sin), rope_halves(k, cos, sin)\n'
                              '    return q_norm(q), k_norm(k)\n',
                              {'ko': 'q: 회전 앞뒤로 두 번 정규화했습니다. k: 회전 앞뒤로 두 번 정규화했습니다.',
                               'en': 'normalised twice, before and after the rotation;'}),
                             ('fresh: heads hard-coded 4',
                              'def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):\n'
                              '    B, T, _ = q_flat.shape\n'
                              '    q = q_norm(q_flat.view(B, T, 4, d_head).transpose(1, 2))\n'
                              '    k = k_norm(k_flat.view(B, T, 4, d_head).transpose(1, 2))\n'
                              '    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)\n',
                              {'ko': 'qwen3_heads가 오류를 냈습니다(q_flat (2, 5, 64), k_flat',
                               'en': 'qwen3_heads raised an error for q_flat (2, 5, 64'})],
 ('09', 'ch09-ex-halves'): [('fresh: right',
                             'def apply_rope(x, cos, sin):\n'
                             '    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)\n'
                             '    x1, x2 = x.chunk(2, dim=-1)\n'
                             '    return x * cos + torch.cat([-x2, x1], dim=-1) * sin\n',
                             None),
                            ('fresh: no head axis on cos',
                             'def apply_rope(x, cos, sin):\n'
                             '    x1, x2 = x.chunk(2, dim=-1)\n'
                             '    return x * cos + torch.cat([-x2, x1], dim=-1) * sin\n',
                             {'ko': 'cos와 sin을 (B, T, D) 그대로 곱해서 배치 축이 헤드 축에 맞춰졌습니다(B',
                              'en': 'cos and sin multiplied as (B, T, D) line their b'}),
                            ('fresh: rotate_half sign flipped',
                             'def apply_rope(x, cos, sin):\n'
                             '    cos, sin = cos[:, None], sin[:, None]\n'
                             '    x1, x2 = x.chunk(2, dim=-1)\n'
                             '    return x * cos + torch.cat([x2, -x1], dim=-1) * sin\n',
                             {'ko': '두 절반 (x1, x2)는 (x2, -x1)이 아니라 (-x2, x1)이 되어야 합니다',
                              'en': 'it turns the wrong way:'}),
                            ('fresh: halves not swapped',
                             'def apply_rope(x, cos, sin):\n'
                             '    cos, sin = cos[:, None], sin[:, None]\n'
                             '    x1, x2 = x.chunk(2, dim=-1)\n'
                             '    return x * cos + torch.cat([-x1, x2], dim=-1) * sin\n',
                             {'ko': '90도 돌린 짝은 (-x1, x2)가 아니라 (-x2, x1)입니다.',
                              'en': 'a pair turned by 90 degrees is (-x2, x1), not (-'}),
                            ('fresh: split D hard-coded 4',
                             'def apply_rope(x, cos, sin):\n'
                             '    cos, sin = cos[:, None], sin[:, None]\n'
                             '    x1, x2 = x[..., :4], x[..., 4:]\n'
                             '    return x * cos + torch.cat([-x2, x1], dim=-1) * sin\n',
                             {'ko': 'x가 (2, 2, 5, 8)일 때는 맞지만 (3, 4, 6, 16)일 때는 틀립니다.',
                              'en': 'right for x of (2, 2, 5, 8), wrong for (3, 4, 6,'}),
                            ('fresh: mutates x',
                             'def apply_rope(x, cos, sin):\n'
                             '    cos, sin = cos[:, None], sin[:, None]\n'
                             '    x1, x2 = x.chunk(2, dim=-1)\n'
                             '    r = torch.cat([-x2, x1], dim=-1)\n'
                             '    x.mul_(cos).add_(r * sin)\n'
                             '    return x\n',
                             {'ko': 'apply_rope가 인자 x를 제자리에서 바꿨습니다(mul_, add_, *= 같은',
                              'en': 'apply_rope changed its argument x in place (mul_'})],
 ('09', 'ch09-ex-positions'): [('fresh: right',
                                'def positions_for(real, T_new):\n'
                                '    return (real.long().cumsum(-1) - 1)[:, -T_new:]\n',
                                None),
                               ('fresh: from 1',
                                'def positions_for(real, T_new):\n    return real.long().cumsum(-1)[:, -T_new:]\n',
                                {'ko': '첫 실제 토큰의 위치는 1이 아니라 0입니다.',
                                 'en': 'the first real token is at position 0, not 1.'}),
                               ('fresh: first T_new',
                                'def positions_for(real, T_new):\n'
                                '    return (real.long().cumsum(-1) - 1)[:, :T_new]\n',
                                {'ko': '새 토큰은 마지막 T_new개입니다([:, -T_new:]).', 'en': 'these are the first T_new;'}),
                               ('fresh: arange ignoring padding',
                                'def positions_for(real, T_new):\n'
                                '    T = real.size(1)\n'
                                '    return torch.arange(T - T_new, T).expand(real.size(0), -1)\n',
                                {'ko': '위치를 열 번호(캐시의 길이)로 셌습니다.',
                                 'en': "the position is the column (the cache's length),"}),
                               ('fresh: count of padding subtracted wrong',
                                'def positions_for(real, T_new):\n'
                                '    pad = (~real).sum(-1, keepdim=True)\n'
                                '    return torch.arange(real.size(1))[-T_new:] - pad + 1\n',
                                {'ko': '첫 실제 토큰의 위치는 1이 아니라 0입니다.',
                                 'en': 'the first real token is at position 0, not 1.'}),
                               ('fresh: right, arange minus padding',
                                'def positions_for(real, T_new):\n'
                                '    pad = (~real).sum(-1, keepdim=True)\n'
                                '    return (torch.arange(real.size(1)) - pad)[:, -T_new:]\n',
                                None),
                               ('fresh: lengths instead',
                                'def positions_for(real, T_new):\n'
                                '    return real.sum(-1, keepdim=True).expand(-1, T_new)\n',
                                {'ko': '행 0에서 실제 토큰의 위치가 [5, 5]입니다.',
                                 'en': "in row 0 the real tokens' positions are [5, 5]:"}),
                               ('fresh: cumsum on wrong axis',
                                'def positions_for(real, T_new):\n'
                                '    return (real.long().cumsum(0) - 1)[:, -T_new:]\n',
                                {'ko': '배치 축(dim=0)을 따라 셌습니다.', 'en': 'this counts along the batch axis (dim=0):'}),
                               ('fresh: float positions',
                                'def positions_for(real, T_new):\n'
                                '    return (real.float().cumsum(-1) - 1)[:, -T_new:]\n',
                                {'ko': '위치는 정수여야 하는데 torch.float32입니다.',
                                 'en': 'positions must be integers, got torch.float32:'}),
                               ('fresh: all rows from row 0',
                                'def positions_for(real, T_new):\n'
                                '    return (real[0].long().cumsum(-1) - 1)[-T_new:].expand(real.size(0), -1)\n',
                                {'ko': '행마다 위치가 다르게 밀렸습니다(행:', 'en': 'the rows are off by different amounts (row:'}),
                               ('fresh: T_new fixed 1',
                                'def positions_for(real, T_new):\n    return (real.long().cumsum(-1) - 1)[:, -1:]\n',
                                {'ko': '행마다 숫자 하나만 나왔습니다. 마지막 토큰의 위치입니다',
                                 'en': "one number per row came out, the last token's position"})]}
for _key, _answers in FRESH.items():
    CASES_9_10[_key] = CASES_9_10.get(_key, []) + _answers


# Fresh answers, second round (2026-11-28), chapter 9's prefill, rolling cache and cache size, written before
# reading their checks: right padding, positions not passed, the mask on the queries or without its head axis;
# the cut along the heads or the features, by a number, by narrow (a prompt shorter than the window); H for
# H / H_kv, the two answers swapped.
PREFILL_9 = (
    "def prefill(layer, x, lengths):\n"
    "    B, T, _ = x.shape\n"
    "    real = REAL\n"
    "    positions = POS\n"
    "    mask = MASK\n"
    "    cache = KVCache()\n"
    "    return RET\n")


def prefill_with(real="torch.arange(T) >= (T - lengths)[:, None]", pos="(real.cumsum(dim=-1) - 1).clamp(min=0)",
                 mask="real[:, None, None, :] & causal_mask(T, T)",
                 ret="layer(x, mask=mask, positions=positions, cache=cache), cache"):
    return PREFILL_9.replace("REAL", real).replace("POS", pos).replace("MASK", mask).replace("RET", ret)


ROLLING_9 = (
    "class WindowCache(KVCache):\n"
    "    def __init__(self, window):\n"
    "        super().__init__()\n"
    "        self.window = window\n\n"
    "    def append(self, k, v):\n"
    "        k_all, v_all = super().append(k, v)\n"
    "        self.k, self.v = KS, VS\n"
    "        return RET\n")


def rolling_with(k="k_all[:, :, -self.window:]", v="v_all[:, :, -self.window:]", ret="k_all, v_all"):
    return ROLLING_9.replace("KS", k).replace("VS", v).replace("RET", ret)


BYTES_9 = "answer_gqa_mib = {}\nanswer_repeated_mib = {}"
GQA_9 = "2 * 32 * 4 * 2048 * 8 * 128 * 2"
REP_9 = "2 * 32 * 4 * 2048 * 32 * 128 * 2"
FRESH_9 = {
    ("09", "ch09-ex-prefill"): [
        ("fresh2: right padding", prefill_with(real="torch.arange(T) < lengths[:, None]"),
         {"ko": "오른쪽 패딩으로 표시했습니다", "en": "these marks are for right padding"}),
        ("fresh2: positions as columns", prefill_with(pos="torch.arange(T).expand(B, T)"),
         {"ko": "위치를 열 번호로 세어", "en": "the positions are columns"}),
        ("fresh2: positions from 1", prefill_with(pos="real.cumsum(dim=-1)"),
         {"ko": "위치는 0부터: cumsum에서 1을 빼세요", "en": "positions start at 0, subtract 1 from the cumsum"}),
        ("fresh2: no causal part", prefill_with(mask="real[:, None, None, :].expand(B, 1, T, T)"),
         {"ko": "인과 마스크가 빠졌습니다", "en": "the causal part is missing"}),
        ("fresh2: the marks on the queries", prefill_with(mask="real[:, None, :, None] & causal_mask(T, T)"),
         {"ko": "패딩 표시를 쿼리 축에 걸었습니다", "en": "the padding marks are on the query axis"}),
        ("fresh2: the mask inverted", prefill_with(mask="~(real[:, None, None, :] & causal_mask(T, T))"),
         {"ko": "마스크가 뒤집혔습니다", "en": "the mask is inverted"}),
        ("fresh2: no head axis", prefill_with(mask="real[:, None, :] & causal_mask(T, T)"),
         {"ko": "마스크가 (B, H, T, T)로 브로드캐스팅되지 않습니다", "en": "the mask does not broadcast to (B, H, T, T)"}),
        ("fresh2: the cache not passed", prefill_with(ret="layer(x, mask=mask, positions=positions), cache"),
         {"ko": "돌려준 캐시가 비었거나", "en": "the cache returned is empty"}),
        ("fresh2: the positions not passed", prefill_with(ret="layer(x, mask=mask, cache=cache), cache"),
         {"ko": "위치를 열 번호로 세어", "en": "the positions are columns"}),
        ("fresh2: the upper triangle", prefill_with(mask="real[:, None, None, :] & causal_mask(T, T).T"),
         {"ko": "인과 마스크가 위 삼각입니다", "en": "the causal part is upper-triangular"}),
        ("fresh2: the marks one short", prefill_with(real="torch.arange(T) > (T - lengths)[:, None]"),
         {"ko": "실제 토큰 표시가 하나 모자랍니다", "en": "the real-token marks miss one"}),
        ("fresh2: right, positions from the first real column",
         prefill_with(pos="torch.arange(T) - (T - lengths)[:, None]"), None),
    ],
    ("09", "ch09-ex-rolling"): [
        ("fresh2: only the keys fixed", rolling_with(v="v_all[:, :, :self.window]"),
         {"ko": "키는 맞게 잘랐지만 밸류는 아닙니다", "en": "the keys are cut right but the values are not"}),
        ("fresh2: w + 1 kept", rolling_with(k="k_all[:, :, -self.window - 1:]", v="v_all[:, :, -self.window - 1:]"),
         {"ko": "토큰 축에서 아무것도 잘리지 않았습니다", "en": "nothing is cut along the time axis"}),
        ("fresh2: the first w dropped", rolling_with(k="k_all[:, :, self.window:]", v="v_all[:, :, self.window:]"),
         {"ko": "가장 최근의 키 1개만 남깁니다", "en": "the cache keeps only the 1 most recent keys"}),
        ("fresh2: cut along the heads", rolling_with(k="k_all[:, -self.window:]", v="v_all[:, -self.window:]"),
         {"ko": "([:, -w:]는 헤드 축)", "en": "([:, -w:] is the heads)"}),
        ("fresh2: cut along the features", rolling_with(k="k_all[..., -self.window:]", v="v_all[..., -self.window:]"),
         {"ko": "키가 마지막 축(특징, D)을 따라 잘렸습니다", "en": "The keys are cut along the last axis (the features"}),
        ("fresh2: the trimmed keys returned", rolling_with(ret="self.k, self.v"),
         {"ko": "자르기 전의 키와 밸류를 모두 돌려주어야", "en": "append must return all the keys and values"}),
        ("fresh2: the window written as 4", rolling_with(k="k_all[:, :, -4:]", v="v_all[:, :, -4:]"),
         {"ko": "윈도우가 아닌 수로 잘랐습니다", "en": "by a number other than the window"}),
        ("fresh2: narrow", rolling_with(k="k_all.narrow(2, k_all.size(2) - self.window, self.window)",
                                        v="v_all.narrow(2, v_all.size(2) - self.window, self.window)"),
         {"ko": "윈도우보다 짧은 프롬프트(토큰 2개, w = 3)에서 오류가", "en": "a prompt shorter than the window (2 tokens, w = 3) raised"}),
        ("fresh2: keys and values swapped", rolling_with(k="v_all[:, :, -self.window:]", v="k_all[:, :, -self.window:]"),
         {"ko": "키와 밸류가 뒤바뀌었습니다", "en": "keys and values are swapped"}),
        ("fresh2: right, w - 1 kept (enough for the next token)",
         rolling_with(k="k_all[:, :, -(self.window - 1):]", v="v_all[:, :, -(self.window - 1):]"), None),
        ("fresh2: right, from max(0, t - w)",
         rolling_with(k="k_all[:, :, max(0, k_all.size(2) - self.window):]",
                      v="v_all[:, :, max(0, v_all.size(2) - self.window):]"), None),
    ],
    ("09", "ch09-ex-cache-bytes"): [
        ("fresh2: GiB", BYTES_9.format(GQA_9 + " / 2**30", REP_9 + " / 2**30"),
         {"ko": "1024로 한 번 더 나누면 GiB입니다", "en": "dividing by 1024 once more gives GiB"}),
        ("fresh2: keys only", BYTES_9.format(GQA_9 + " / 2 / 2**20", REP_9 + " / 2 / 2**20"),
         {"ko": "키와 밸류 두 가지를 모두 세세요", "en": "count both keys and values"}),
        ("fresh2: one layer", BYTES_9.format(GQA_9 + " / 32 / 2**20", REP_9 + " / 32 / 2**20"),
         {"ko": "레이어 32개를 모두 세세요", "en": "count all 32 layers"}),
        ("fresh2: the query heads", BYTES_9.format(REP_9 + " / 2**20", REP_9 + " / 2**20"),
         {"ko": "쿼리 헤드 32개가 아니라 키·밸류 헤드 8개를", "en": "the cache holds the 8 key/value heads"}),
        ("fresh2: float32", BYTES_9.format(GQA_9 + " * 2 / 2**20", REP_9 + " * 2 / 2**20"),
         {"ko": "bfloat16은 값 하나에 2바이트입니다", "en": "bfloat16 takes 2 bytes per value"}),
        ("fresh2: MB", BYTES_9.format(GQA_9 + " / 10**6", REP_9 + " / 10**6"),
         {"ko": "10**6으로 나누면 MB입니다", "en": "dividing by 10**6 gives MB"}),
        ("fresh2: the factor as the repeated size", BYTES_9.format(GQA_9 + " / 2**20", "4"),
         {"ko": "4는 배율(32 / 8)입니다", "en": "4 is the factor (32 / 8)"}),
        ("fresh2: the two swapped", BYTES_9.format(REP_9 + " / 2**20", GQA_9 + " / 2**20"),
         {"ko": "두 답이 뒤바뀌었습니다", "en": "the two answers are swapped"}),
        ("fresh2: one sequence", BYTES_9.format(GQA_9 + " / 4 / 2**20", REP_9 + " / 4 / 2**20"),
         {"ko": "배치의 시퀀스 4개를 모두 세세요", "en": "count all 4 sequences of the batch"}),
        ("fresh2: no head_dim", BYTES_9.format(GQA_9 + " / 128 / 2**20", REP_9 + " / 128 / 2**20"),
         {"ko": "head_dim(128) 없이", "en": "that is the value you get with no head_dim (128)"}),
        ("fresh2: the repeat by H", BYTES_9.format(GQA_9 + " / 2**20", GQA_9 + " * 32 / 2**20"),
         {"ko": "answer_gqa_mib에 헤드 수 32를 곱했습니다", "en": "answer_gqa_mib was multiplied by the 32 heads"}),
        ("fresh2: right, as ints", BYTES_9.format(1024, 4096), None),
    ],
}
for _key, _answers in FRESH_9.items():
    CASES_9_10[_key] = CASES_9_10[_key] + _answers

@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("chapter", "label", "name"), answer_params(CASES_9_10))
def test_a_wrong_answer_of_chapters_9_and_10_is_named(chapter, label, name, lang):
    assert_named(CASES_9_10, chapter, label, name, lang)


def test_each_exercise_of_chapters_9_and_10_has_eight_new_wrong_answers():
    assert_distinct_names_and_wrong_answers(CASES_9_10, 8)
