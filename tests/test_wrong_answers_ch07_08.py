"""Chapters 7 and 8: wrong answers a learner writes, each refused with a message naming its mistake or its effect
(never the exercise's general hint alone), in both languages; a few right answers written another way pass.

Written against the kinds of slips a blind walk found named only by the general hint: units and factors combined
(bytes and K, V forgotten; per token; bits; KiB), a share where a ratio belongs, shapes with one position off,
a block loop that moves the wrong things, a mask inverted, heads repeated along another axis.
"""

from __future__ import annotations

import pytest
from test_wrong_answers import (
    CHUNK,
    NO_ANSWER,
    answer_params,
    assert_distinct_names_and_wrong_answers,
    assert_named,
    port,
)
from test_wrong_answers import rescale as blocks

KV = "answer_mib = {mib}\nanswer_ratio = {ratio}"
GQA = "answer_width = {w}\nanswer_k = {k}\nanswer_k_repeated = {r}"
FLOPS = "def cross_attention_flops(B, T_q, T_k, C):\n    return {}\n"
REPEAT = "def expand_kv(t, n_rep):\n    {}\n"

CASES_78 = {
    ("08", "ch08-ex-port"): [
        ("the query block as the output projection", port(out_w="block.c_attn.weight[:, :C].T"),
         {"ko": "out_proj.weight: c_proj.weight.T 자리에 c_attn.weight.T[:C] (W_Q) 값이", "en": "out_proj.weight holds c_attn.weight.T[:C] (W_Q) where c_proj.weight.T belongs"}),
        ("the c_proj bias into in_proj", port(in_b="block.c_proj.bias.repeat(3)"),
         {"ko": "in_proj.bias: 세 토막(쿼리, 키, 밸류의 자리)에 c_proj.bias, c_proj.bias, c_proj.bias 값이",
          "en": "in_proj.bias holds, in its thirds (the query, key and value places), c_proj.bias, c_proj.bias, c_proj.bias"}),
        ("the rows reversed", port(in_w="block.c_attn.weight.T.flip(0)"),
         {"ko": "in_proj.weight: 값은 맞지만 out 축(축 0)을 따라 순서가", "en": "in_proj.weight: the values are right but in another order along out (axis 0)"}),
        ("a misspelt attribute", port(in_w="block.c_attn.weights.T"),
         {"ko": "함수 안에서 오류가 났습니다: AttributeError", "en": "your function raised AttributeError"}),
        ("the block returned", "def port_gpt2_reshape(block, n_head):\n    return block\n",
         {"ko": "돌려준 것이 GPT2Attention입니다", "en": "the function returns a GPT2Attention"}),
        ("each block transposed twice", port(in_w="block.c_attn.weight.T.reshape(3, C, C).transpose(1, 2).reshape(3 * C, C)"),
         {"ko": "세 블록의 순서는 맞지만", "en": "the three blocks are in order, but"}),
        ("the bias zeroed", port(in_b="block.c_attn.bias * 0"),
         {"ko": "in_proj.bias: 모든 값이 0입니다", "en": "in_proj.bias: every value is 0"}),
        ("the output weight scaled", port(out_w="block.c_proj.weight.T / 8 ** 0.5"),
         {"ko": "out_proj.weight: 답의 모든 값이 정답의 0.3536배", "en": "out_proj.weight: every value is 0.3536 times the right one"}),
        ("the bias of c_proj twice, c_attn's into out_proj", port().replace("layer.out_proj.bias.copy_(block.c_proj.bias)", "layer.out_proj.bias.copy_(block.c_attn.bias[:C])"),
         {"ko": "out_proj.bias: c_proj.bias 자리에 c_attn.bias[:C] 값이", "en": "out_proj.bias holds c_attn.bias[:C] where c_proj.bias belongs"}),
        ("a parameter assigned a tensor", port().replace("layer.in_proj.weight.copy_(block.c_attn.weight.T)", "layer.in_proj.weight = block.c_attn.weight.T"),
         {"ko": "옮기는 동안 함수 안에서 오류가 났습니다: TypeError", "en": "your function raised TypeError"}),
        ("right, with .t() and data", port(in_w="block.c_attn.weight.t().contiguous()"), None),
        ("the example's two heads written as a number", port(heads="2"),
         {"ko": "C = 8, 헤드 2개인 블록은 맞게 옮기지만 C = 12, 헤드 3개인 블록은 틀립니다",
          "en": "a block with C = 8 and 2 heads is ported right, one with C = 12 and 3 heads is not"}),
        ("the example's width written as a number", port().replace("C = block.c_attn.weight.shape[0]", "C = 8"),
         {"ko": "C = 12, 헤드 3개인 블록은 틀립니다 (ValueError", "en": "C = 12 and 3 heads is not (ValueError"}),
    ],
    ("08", "ch08-ex-chunked"): [
        ("mask inverted", CHUNK.replace("MASK", "~layer.causal_mask(T_q, T_k)"),
         {"ko": "마스크의 True와 False가 뒤바뀌었습니다. 이 책에서 True는 '볼 수 있음'이라",
          "en": "the mask's True and False are swapped: in this book True means 'may attend', so"}),
        ("mask inverted, through SDPA", CHUNK.replace(
            'out, _ = layer.attend(q, cache["k"], cache["v"], MASK)',
            'out = F.scaled_dot_product_attention(q, cache["k"], cache["v"], attn_mask=~layer.causal_mask(T_q, T_k))'),
         {"ko": "마스크의 True와 False가 뒤바뀌었습니다. 이 책에서 True는 '볼 수 있음'이라",
          "en": "the mask's True and False are swapped: in this book True means 'may attend', so"}),
        ("the upper triangle", CHUNK.replace("MASK", "torch.ones(T_q, T_k, dtype=torch.bool).triu(T_k - T_q)"),
         {"ko": "새 토큰 6개, 캐시의 키 6개인 조각에서: 쿼리가 뒤에 오는 키를 보는 칸이 15개",
          "en": "for a piece of 6 new tokens with 6 keys in the cache: 15 cells let a query see a later key"}),
        ("every key visible, as a mask", CHUNK.replace("MASK", "torch.ones(T_q, T_k, dtype=torch.bool)"),
         {"ko": "마스크가 없습니다", "en": "there is no mask"}),
        ("the mask as floats", CHUNK.replace("MASK", "layer.causal_mask(T_q, T_k).float()"),
         {"ko": "함수 안에서 오류가 났습니다: TypeError", "en": "your function raised TypeError"}),
        ("the cache joined along the heads", CHUNK.replace('dim=2)\n    cache["v"]', 'dim=1)\n    cache["v"]').replace("MASK", "layer.causal_mask(T_q, T_k)"),
         {"ko": "캐시에 새 키나 밸류를 잇지 못했습니다", "en": "the new keys or values could not be joined to the cache"}),
        ("only the last token returned", CHUNK.replace("MASK", "layer.causal_mask(T_q, T_k)").replace(
            "return layer.out_proj(layer.merge_heads(out))", "return layer.out_proj(layer.merge_heads(out))[:, -1:]"),
         {"ko": "조각마다 돌려준 결과를 이은 것이 모양이 (2, 6, 12)이어야 하는데 (2, 1, 12)", "en": "the pieces' results, joined: expected shape (2, 6, 12), got (2, 1, 12)"}),
        ("the diagonal hidden, through the mask", CHUNK.replace("MASK", "torch.ones(T_q, T_k, dtype=torch.bool).tril(T_k - T_q - 1) | (torch.arange(T_k) == 0)"),
         {"ko": "대각선이 한 칸 어긋나 새 토큰이 자기 키를", "en": "the diagonal is shifted by one: a new token"}),
        ("keys and values swapped in the cache", CHUNK.replace('cache["k"] = torch.cat([cache["k"], k], dim=2)\n    cache["v"] = torch.cat([cache["v"], v], dim=2)',
                                                              'cache["k"] = torch.cat([cache["k"], v], dim=2)\n    cache["v"] = torch.cat([cache["v"], k], dim=2)').replace("MASK", "layer.causal_mask(T_q, T_k)"),
         {"ko": "프롬프트 전체를 한 번에 넣어도 토큰 [0, 1, 2, 3, 4, 5]의 결과가", "en": "even the whole prompt at once gives tokens [0, 1, 2, 3, 4, 5] unlike"}),
        ("a window of two keys", CHUNK.replace("MASK", "layer.causal_mask(T_q, T_k) & ~torch.ones(T_q, T_k, dtype=torch.bool).tril(T_k - T_q - 2)"),
         {"ko": "새 토큰 6개, 캐시의 키 6개인 조각에서: 볼 수 있어야 할 칸 10개가 False입니다", "en": "for a piece of 6 new tokens with 6 keys in the cache: 10 cells that must be visible are False"}),
        ("new keys put before the cached ones", CHUNK.replace('cache["k"] = torch.cat([cache["k"], k], dim=2)', 'cache["k"] = torch.cat([k, cache["k"]], dim=2)').replace("MASK", "layer.causal_mask(T_q, T_k)"),
         {"ko": "캐시에 든 키는 맞지만 토큰 순서가 [3, 4, 5, 2, 0, 1]입니다", "en": "the cache holds the right keys, in the token order [3, 4, 5, 2, 0, 1]"}),
        ("the output doubled", CHUNK.replace("MASK", "layer.causal_mask(T_q, T_k)").replace("return layer.out_proj(layer.merge_heads(out))", "return 2 * layer.out_proj(layer.merge_heads(out))"),
         {"ko": "토큰 0은 어느 인과 마스크로도 자기 자신만 보므로, 마스크 밖", "en": "token 0 sees only itself under any causal mask, so something besides the mask"}),
        ("the heads merged by view", CHUNK.replace("MASK", "layer.causal_mask(T_q, T_k)").replace(
            "return layer.out_proj(layer.merge_heads(out))", "return layer.out_proj(out.transpose(1, 2).view(out.size(0), T_q, -1))"),
         {"ko": "함수 안에서 오류가 났습니다: RuntimeError: view size", "en": "your function raised RuntimeError: view size"}),
        ("no return", CHUNK.replace("MASK", "layer.causal_mask(T_q, T_k)").replace("return layer.out_proj", "layer.out_proj"), NO_ANSWER),
        ("right, with the mask written out", CHUNK.replace("MASK", "torch.arange(T_k)[None, :] <= torch.arange(T_k - T_q, T_k)[:, None]"), None),
    ],
    ("08", "ch08-ex-repeat"): [
        ("repeated along D, then reshaped", REPEAT.format("B, H, T, D = t.shape\n    return t.repeat_interleave(n_rep, dim=-1).reshape(B, H * n_rep, T, D)"),
         {"ko": "헤드 안에서 토큰이나 특징의 순서가 바뀌었습니다", "en": "but within it tokens or features are moved around"}),
        ("repeated along T, then viewed", REPEAT.format("B, H, T, D = t.shape\n    return t.repeat_interleave(n_rep, dim=2).view(B, H * n_rep, T, D)"),
         {"ko": "다른 축(T나 D)을", "en": "a repeat along another axis (T or D)"}),
        ("the heads reversed", REPEAT.format("return t.repeat_interleave(n_rep, dim=1).flip(1)"),
         {"ko": "순서가 [1, 1, 1, 0, 0, 0]입니다", "en": "in the order [1, 1, 1, 0, 0, 0]"}),
        ("a list of copies", REPEAT.format("return [t] * n_rep"),
         {"ko": "텐서를 돌려주어야 하는데 list", "en": "expected a tensor, got a list"}),
        ("t returned as it is", REPEAT.format("return t"),
         {"ko": "축 1의 크기가 2(B 또는 H_kv)인데, 이 자리는 H(6)의 자리입니다", "en": "axis 1 holds 2 (B or H_kv) where H = 6 belongs"}),
        ("repeated along the tokens", REPEAT.format("return t.repeat_interleave(n_rep, dim=2)"),
         {"ko": "축 1의 크기가 2(B 또는 H_kv)인데, 이 자리는 H(6)의 자리입니다. 축 2의 크기가 12(T·n_rep)인데",
          "en": "axis 1 holds 2 (B or H_kv) where H = 6 belongs; axis 2 holds 12 (T·n_rep) where T = 4"}),
        ("an axis that does not exist", REPEAT.format("return t.repeat_interleave(n_rep, dim=4)"),
         {"ko": "t의 모양이 (2, 2, 4, 3), n_rep = 3일 때 함수 안에서 오류가 났습니다: IndexError", "en": "with t of shape (2, 2, 4, 3) and n_rep = 3, your function raised IndexError"}),
        ("interleave and tile averaged", REPEAT.format("return (t.repeat_interleave(n_rep, dim=1) + t.repeat(1, n_rep, 1, 1)) / 2"),
         {"ko": "나온 헤드 1번의 값은 어느 키·밸류 헤드에도 없습니다", "en": "head 1 out holds values of no key/value head"}),
        ("zeros for the extra heads", REPEAT.format("B, H, T, D = t.shape\n    return torch.cat([t, torch.zeros(B, H * (n_rep - 1), T, D)], dim=1)"),
         {"ko": "나온 헤드 2번의 값은 어느 키·밸류 헤드에도 없습니다", "en": "head 2 out holds values of no key/value head"}),
        ("repeated by the number of heads", REPEAT.format("return t.repeat_interleave(t.size(1) * n_rep, dim=1)"),
         {"ko": "축 1의 크기가 12", "en": "axis 1 holds 12"}),
        ("half the heads swapped in", REPEAT.format("out = t.repeat_interleave(n_rep, dim=1).clone()\n    out[:, 1, :, :1] = t[:, 1, :, :1]\n    return out"),
         {"ko": "나온 헤드 1번에 키·밸류 헤드 [0, 1]의 값이 섞였거나", "en": "head 1 out mixes values of key/value heads [0, 1]"}),
        ("right, by expand and flatten", REPEAT.format("return t.unsqueeze(2).expand(-1, -1, n_rep, -1, -1).flatten(1, 2)"), None),
    ],
    ("08", "ch08-ex-gqa-shapes"): [
        ("tokens doubled", GQA.format(w=24, k=(3, 2, 10, 2), r=(3, 8, 10, 2)),
         {"ko": "answer_k: 2번 축(T = 5 자리)의 크기가 10(T × 2)입니다", "en": "answer_k: axis 2 holds 10 (twice T) where T = 5 belongs"}),
        ("keys and values only", GQA.format(w=8, k=(3, 2, 5, 2), r=(3, 8, 5, 2)),
         {"ko": "8 = 2 * C_kv는 키와 밸류뿐입니다", "en": "8 = 2 * C_kv is the keys and values only"}),
        ("the whole shape as the width", GQA.format(w=(3, 5, 24), k=(3, 2, 5, 2), r=(3, 8, 5, 2)),
         {"ko": "마지막 축의 크기 하나를 정수로", "en": "the size of the last axis, not the whole shape (3, 5, 24)"}),
        ("T and D swapped", GQA.format(w=24, k=(3, 2, 2, 5), r=(3, 8, 2, 5)),
         {"ko": "answer_k: 맞는 모양은 (B, H_kv, T, D)입니다. 축 2, 축 3의 자리가 뒤바뀌었습니다",
          "en": "answer_k: the shape is (B, H_kv, T, D); axes 2 and 3 are swapped"}),
        ("heads counted as the width", GQA.format(w=12, k=(3, 2, 5, 2), r=(3, 8, 5, 2)),
         {"ko": "12 = H + 2 * H_kv는 헤드의 수를", "en": "12 = H + 2 * H_kv counts heads"}),
        ("the batch left out", GQA.format(w=24, k=(2, 5, 2), r=(8, 5, 2)),
         {"ko": "B 축(크기 3)이 빠졌습니다", "en": "the B axis (size 3) is missing"}),
        ("C_kv as the key's last axis", GQA.format(w=24, k=(3, 2, 5, 4), r=(3, 8, 5, 4)),
         {"ko": "3번 축(D = 2 자리)의 크기가 4(C_kv 또는 D × 2)입니다", "en": "axis 3 holds 4 (C_kv or twice D) where D = 2 belongs"}),
        ("a width off by a non-named amount", GQA.format(w=28, k=(3, 2, 5, 2), r=(3, 8, 5, 2)),
         {"ko": "정답의 1.17배입니다. 쿼리의 C와", "en": "1.17 times the right width"}),
        ("a head axis left out before the repeat, kept after", GQA.format(w=24, k=(3, 5, 2), r=(3, 8, 5, 2)),
         {"ko": "H_kv 축(크기 2)이 빠졌습니다", "en": "the H_kv axis (size 2) is missing"}),
        ("the width as text", "answer_width = '24'\nanswer_k = (3, 2, 5, 2)\nanswer_k_repeated = (3, 8, 5, 2)",
         {"ko": "answer_width에는 정수를 적으세요", "en": "write a whole number in answer_width"}),
        ("right, as lists", GQA.format(w=24, k=[3, 2, 5, 2], r=[3, 8, 5, 2]), None),
    ],
    ("07", "ch07-ex-rescale"): [
        ("the new block rescaled too", blocks(acc="(acc + p @ v_b) * rescale"),
         {"ko": "누적한 값 acc: 이번 블록의 몫까지 rescale을 곱했습니다. 이번 블록의 p는 이미 새 최댓값 기준입니다. 합 row_sum: 맞게",
          "en": "the accumulator acc has this block's part multiplied by rescale too, though p is already on the new maximum; the sum row_sum is moved right"}),
        ("(acc + new) * rescale on both", blocks(acc="(acc + p @ v_b) * rescale", total="(row_sum + p.sum(dim=-1, keepdim=True)) * rescale"),
         {"ko": "합 row_sum: 이번 블록의 몫까지", "en": "the sum row_sum has this block's part multiplied"}),
        ("the rescale on the new part only", blocks(acc="acc + p @ v_b * rescale"),
         {"ko": "누적한 값 acc: rescale을 옛 값이 아니라 이번 블록의 몫에", "en": "the accumulator acc has rescale on this block's part instead"}),
        ("the exponent inverted in the accumulator", blocks(acc="acc * torch.exp(new_max - row_max) + p @ v_b"),
         {"ko": "exp(new_max - row_max)나", "en": "but exp(new_max - row_max),"}),
        ("the loop never runs", blocks(stop="k.size(-2) - k.size(-2)"),
         {"ko": "루프가 한 번도 돌지 않아 0 / 0이 되었습니다", "en": "Or the loop never ran"}),
        ("each block normalised, then averaged", """
def attention_blocks(q, k, v, block):
    outs = []
    for start in range(0, k.size(-2), block):
        w = torch.softmax(q @ k[..., start:start + block, :].mT / math.sqrt(q.size(-1)), dim=-1)
        outs.append(w @ v[..., start:start + block, :])
    return sum(outs) / len(outs)
""", {"ko": "블록마다 따로 소프트맥스를 한 결과의 평균입니다", "en": "this is the mean of each block's own softmax"}),
        ("the rescale squeezed", blocks(factor="torch.exp(row_max - new_max).squeeze(-1)"),
         {"ko": "함수 안에서 오류가 났습니다: RuntimeError: The size of tensor", "en": "), your function raised RuntimeError: The size of tensor"}),
        ("the last block dropped by the range", blocks(stop="k.size(-2) - block + 1"),
         {"ko": "블록 크기 5에서 결과가 앞의 키 10개만", "en": "with blocks of 5 the result is attention over the first 10"}),
        ("multiplied by the square root", blocks(scale="(1 / math.sqrt(d_k))"),
         {"ko": "점수에 √d_k를 곱했습니다", "en": "the scores are multiplied by √d_k"}),
        ("divided by d_k", blocks(scale="d_k"), {"ko": "점수를 √d_k가 아니라 d_k = 4로", "en": "the scores are divided by d_k = 4, not"}),
        ("right, the maximum over the queries too (any stabiliser shared by a row works)", blocks(acc="acc * rescale + p @ v_b").replace("s.amax(dim=-1, keepdim=True)", "s.amax(dim=-2, keepdim=True).amax(dim=-1, keepdim=True)"),
         None),
        ("the sum of p counted twice", blocks(total="row_sum * rescale + 2 * p.sum(dim=-1, keepdim=True)"),
         {"ko": "분자 acc와 분모 row_sum이 서로 다르게 쌓였습니다", "en": "the numerator acc and the denominator row_sum are accumulated differently"}),
        ("right, starting from a maximum of 0", blocks().replace('row_max = torch.full(q.shape[:-1] + (1,), float("-inf"))', "row_max = torch.zeros(q.shape[:-1] + (1,))"), None),
    ],
    ("07", "ch07-ex-flops"): [
        ("the query projection forgotten", FLOPS.format("2 * B * T_k * C * 2 * C + 4 * B * T_q * T_k * C + 2 * B * T_q * C * C"),
         {"ko": "쿼리 쪽 투영 하나(W_Q나 출력 투영 W_O)가 빠졌습니다", "en": "one query-side projection (W_Q or the output projection W_O)"}),
        ("GFLOPs", FLOPS.format("(4 * B * T_q * C * C + 4 * B * T_k * C * C + 4 * B * T_q * T_k * C) / 1e9"),
         {"ko": "GFLOP 단위입니다", "en": "that is GFLOPs"}),
        ("the weighted sum on T_k x T_k", FLOPS.format("4 * B * T_q * C * C + 4 * B * T_k * C * C + 2 * B * T_q * T_k * C + 2 * B * T_k * T_k * C"),
         {"ko": "B·T_q·T_k·C 항의 계수가 2입니다. 점수와 가중합", "en": "the coefficient of B·T_q·T_k·C is 2: the scores"}),
        ("W_Q on the keys, W_K and W_V on the queries", FLOPS.format("2 * B * T_k * C * C + 6 * B * T_q * C * C + 4 * B * T_q * T_k * C"),
         {"ko": "투영 네 개는 모두 셌지만, T_q개의 토큰에 6", "en": "all four projections are counted, but 3 on the T_q tokens and 1 on the T_k"}),
        ("projections cubed in C", FLOPS.format("4 * B * T_q * C ** 3 + 4 * B * T_k * C * C + 4 * B * T_q * T_k * C"),
         {"ko": "W_Q와 W_O, 곧 쿼리 쪽 투영 두 개의 항이 다릅니다", "en": "the term of the two query-side projections, W_Q and W_O, is off"}),
        ("divided by 8 heads", FLOPS.format("(4 * B * T_q * C * C + 4 * B * T_k * C * C + 4 * B * T_q * T_k * C) / 8"),
         {"ko": "모든 항이 정답의 0.125배입니다", "en": "every term is 0.125 times the right one"}),
        ("the attention products without B", FLOPS.format("4 * B * T_q * C * C + 4 * B * T_k * C * C + 4 * T_q * T_k * C"),
         {"ko": "B가 없는 항이 있습니다: 4·T_q·T_k·C", "en": "a term 4·T_q·T_k·C without B"}),
        ("each projection counted C * C, not 2 * C * C, and one attention product", FLOPS.format("2 * B * T_q * C * C + 2 * B * T_k * C * C + 2 * B * T_q * T_k * C"),
         {"ko": "FLOP 2개", "en": "2 FLOPs"}),
        ("projections on one C", FLOPS.format("4 * B * T_q * C + 4 * B * T_k * C + 4 * B * T_q * T_k * C"),
         {"ko": "4·B·T_q·C 항은 C가 하나 모자랍니다", "en": "Your term 4·B·T_q·C has one C too few"}),
        ("floor division by T_k", "def cross_attention_flops(B, T_q, T_k, C):\n    per_key = (4 * B * T_q * C * C + 4 * B * T_k * C * C) // T_k\n    return per_key * T_k + 4 * B * T_q * T_k * C * 2\n",
         {"ko": "크기 T_q 하나만 두 배로 하면 답이 1.575배가 되는데", "en": "doubling T_q makes your count 1.575 times larger"}),
        ("a stray B added", FLOPS.format("4 * B * (T_q + T_k) * C * C + 4 * B * T_q * T_k * C + B"),
         {"ko": "정답에 없는 1·B 항이 있습니다", "en": "a term 1·B that the right count does not have"}),
        ("right, factored", FLOPS.format("2 * B * C * (2 * C * (T_q + T_k) + 2 * T_q * T_k)"), None),
        ("right, as a float", FLOPS.format("4.0 * B * C * (C * T_q + C * T_k + T_q * T_k)"), None),
    ],
    ("08", "ch08-ex-kv-memory"): [
        ("bytes and K, V forgotten", KV.format(mib="24 * 8192 * 4 * 128 * 2", ratio=4),
         {"ko": "answer_mib: 정답의 5.243e+05배입니다. 키와 밸류 두 가지를 모두 세세요. 바이트 수입니다",
          "en": "answer_mib: 5.243e+05 times too large: count both keys and values. That is bytes"}),
        ("per token", KV.format(mib="2 * 24 * 4 * 128 * 2 / 2**20", ratio=4),
         {"ko": "토큰 하나의 캐시입니다", "en": "that is one token's cache"}),
        ("bits", KV.format(mib="2 * 24 * 8192 * 4 * 128 * 16 / 2**20", ratio=4),
         {"ko": "비트 수를 세었습니다", "en": "that counts bits"}),
        ("KiB", KV.format(mib="2 * 24 * 8192 * 4 * 128 * 2 / 1024", ratio=4),
         {"ko": "KiB입니다(1024로 한 번만", "en": "that is KiB (divided by 1024 once)"}),
        ("the share saved as the ratio", KV.format(mib=384, ratio=0.75),
         {"ko": "answer_mib는 맞았습니다. answer_ratio: 0.75는 줄어든 몫", "en": "your answer_mib is right; answer_ratio: 0.75 is the share saved"}),
        ("percent saved", KV.format(mib=384, ratio=75), {"ko": "75는 줄어든 몫의 퍼센트", "en": "75 is the percentage saved"}),
        ("the extra as the ratio", KV.format(mib=384, ratio=3), {"ko": "3은 더 드는 몫", "en": "3 is the extra"}),
        ("MiB saved as the ratio", KV.format(mib=384, ratio=1152), {"ko": "1152 MiB는 줄어든 크기", "en": "1152 MiB is the memory saved"}),
        ("one layer per token", KV.format(mib="2 * 4 * 128 * 2 / 2**20", ratio=4),
         {"ko": "레이어 24개가 저마다 캐시를 가집니다. 토큰 하나의 캐시입니다", "en": "each of the 24 layers has its own cache. That is one token's cache"}),
        ("rounded MB", KV.format(mib=403, ratio=4), {"ko": "10**6으로 나누면 MB입니다", "en": "dividing by 10**6 gives MB"}),
        ("as text", KV.format(mib="'384 MiB'", ratio=4), {"ko": "answer_mib에는 수를 적으세요", "en": "write a number in answer_mib"}),
        ("both wrong, the sum not decomposable", KV.format(mib=1000, ratio=5),
         {"ko": "가운데 하나를 빼거나 바꾼 것으로는(둘이 겹쳐도) 이 배율이 나오지 않습니다. 인수를 하나씩 다시 세어 보세요. answer_ratio: 5배라면",
          "en": "nor two of them together) gives that factor. Count the factors again one by one; answer_ratio: 5 would make"}),
        ("right, as tensors", "answer_mib = torch.tensor(384.)\nanswer_ratio = torch.tensor(4)", None),
        ("right, from kv_cache_bytes", "answer_mib = kv_cache_bytes(24, 4, 128, 8192) / 2**20\nanswer_ratio = 4", None),
    ],
    ("07", "ch07-ex-memory"): [
        ("bytes and B forgotten", "answer_mib = 8 * 4096 * 4096 / 2**20",
         {"ko": "(2) 원소 하나의 바이트 수", "en": "or (2) the bytes per element"}),
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
         {"ko": "원소 하나에 4바이트(float32)를 쓰고 점수와 가중치 두 텐서를",
          "en": "4 bytes per element (float32) and both tensors"}),
        ("negative", "answer_mib = -1024", {"ko": "메모리의 크기는 0보다 큰 수여야", "en": "cannot be a size"}),
        ("close, rounded badly", "answer_mib = 1023",
         {"ko": "거의 맞았지만", "en": "close, but"}),
        ("right, as 2**10", "answer_mib = 2**10", None),
        ("right, as a 0-d tensor", "answer_mib = torch.tensor(1024.0)", None),
    ],
}


# Fresh answers (2026-11-28), written before reading the check cells: slips of axis and size, a global
# used instead of an argument, sizes fixed from the example, in-place changes of an input, a plain tensor
# assigned to .weight, another factor or constant; each must get a message naming it (or its effect).
FRESH = {('08', 'ch08-ex-gqa-shapes'): [('fresh: width 3C',
                                 'answer_width = 48\nanswer_k = (3, 2, 5, 2)\nanswer_k_repeated = (3, 8, 5, 2)',
                                 {'ko': '48 = 3C는 키와 밸류의 헤드가 8개일 때의 차원입니다.',
                                  'en': '48 = 3C is the width with 8 key/value heads;'}),
                                ('fresh: width one kv',
                                 'answer_width = 20\nanswer_k = (3, 2, 5, 2)\nanswer_k_repeated = (3, 8, 5, 2)',
                                 {'ko': '20 = 16 + 4는 키와 밸류를 합쳐 4로 셌습니다.',
                                  'en': '20 = 16 + 4 gives keys and values 4 together;'}),
                                ('fresh: k before transpose',
                                 'answer_width = 24\nanswer_k = (3, 5, 2, 2)\nanswer_k_repeated = (3, 8, 5, 2)',
                                 {'ko': '(B, T, H_kv, D)는 transpose 전입니다.',
                                  'en': '(B, T, H_kv, D) is before the transpose:'}),
                                ('fresh: D = C / H_kv',
                                 'answer_width = 24\nanswer_k = (3, 2, 5, 8)\nanswer_k_repeated = (3, 8, 5, 8)',
                                 {'ko': '헤드 하나의 차원 D는 C // H = 2입니다(C // H_kv가 아니라).',
                                  'en': "one head's width D is C // H = 2 (not C // H_kv)"}),
                                ('fresh: repeated along T',
                                 'answer_width = 24\nanswer_k = (3, 2, 5, 2)\nanswer_k_repeated = (3, 2, 20, 2)',
                                 {'ko': '반복은 토큰 축이 아니라 헤드 축을 늘립니다.',
                                  'en': 'the repeat stretches the head axis, not the toke'}),
                                ('fresh: repeated n_rep heads',
                                 'answer_width = 24\nanswer_k = (3, 2, 5, 2)\nanswer_k_repeated = (3, 4, 5, 2)',
                                 {'ko': '헤드 2개를 4번씩 반복하면 쿼리 헤드 수와 같은 8개입니다.',
                                  'en': '2 heads repeated 4 times each make 8, as many as'}),
                                ('fresh: right as lists',
                                 'answer_width = 24\nanswer_k = [3, 2, 5, 2]\nanswer_k_repeated = [3, 8, 5, 2]',
                                 None),
                                ('fresh: width 32',
                                 'answer_width = 32\nanswer_k = (3, 2, 5, 2)\nanswer_k_repeated = (3, 8, 5, 2)',
                                 {'ko': '32 = 16 + 16은 쿼리와, 키와 밸류를 합친 C를 셌습니다.',
                                  'en': '32 = 16 + 16 gives keys and values C together;'}),
                                ('fresh: k with H heads',
                                 'answer_width = 24\nanswer_k = (3, 8, 5, 2)\nanswer_k_repeated = (3, 8, 5, 2)',
                                 {'ko': '반복하기 전의 키 헤드는 H_kv = 2개입니다.',
                                  'en': 'before the repeat there are H_kv = 2 key heads;'}),
                                ('fresh: batch forgotten',
                                 'answer_width = 24\nanswer_k = (2, 5, 2)\nanswer_k_repeated = (8, 5, 2)',
                                 {'ko': '맞는 모양은 (B, H_kv, T, D)입니다.', 'en': 'the shape is (B, H_kv, T, D);'}),
                                ('fresh: width as string',
                                 "answer_width = '24'\nanswer_k = (3, 2, 5, 2)\nanswer_k_repeated = (3, 8, 5, 2)",
                                 {'ko': 'answer_width에는 정수를 적으세요.', 'en': 'write a whole number in answer_width;'}),
                                ('fresh: width as shape',
                                 'answer_width = (3, 5, 24)\n'
                                 'answer_k = (3, 2, 5, 2)\n'
                                 'answer_k_repeated = (3, 8, 5, 2)',
                                 {'ko': 'answer_width에는 모양 전체가 아니라 마지막 축의 크기 하나를 정수로 적습니다',
                                  'en': 'answer_width is one whole number, the size of th'})],
 ('08', 'ch08-ex-repeat'): [('fresh: tiled with repeat',
                             'def expand_kv(t, n_rep):\n    return t.repeat(1, n_rep, 1, 1)\n',
                             {'ko': '모양은 맞지만 헤드의 순서가 0, 1, 0, 1, ...입니다.',
                              'en': 'the shape is right but the heads come as 0, 1, 0'}),
                            ('fresh: right',
                             'def expand_kv(t, n_rep):\n    return t.repeat_interleave(n_rep, dim=1)\n',
                             None),
                            ('fresh: right expand reshape',
                             'def expand_kv(t, n_rep):\n'
                             '    B, H_kv, T, D = t.shape\n'
                             '    return t[:, :, None].expand(B, H_kv, n_rep, T, D).reshape(B, H_kv * n_rep, T, D)\n',
                             None),
                            ('fresh: along T',
                             'def expand_kv(t, n_rep):\n    return t.repeat_interleave(n_rep, dim=2)\n',
                             {'ko': '축 1의 크기가 2(B 또는 H_kv)인데, 이 자리는 H(6)의 자리입니다.',
                              'en': 'axis 1 holds 2 (B or H_kv) where H = 6 belongs;'}),
                            ('fresh: along batch',
                             'def expand_kv(t, n_rep):\n    return t.repeat_interleave(n_rep, dim=0)\n',
                             {'ko': '축 0의 크기가 6(H)인데, 이 자리는 B(2)의 자리입니다.',
                              'en': 'axis 0 holds 6 (H) where B = 2 belongs;'}),
                            ('fresh: hard-coded 4',
                             'def expand_kv(t, n_rep):\n    return t.repeat_interleave(4, dim=1)\n',
                             {'ko': '축 1의 크기가 8(T·H_kv)인데, 이 자리는 H(6)의 자리입니다.',
                              'en': 'axis 1 holds 8 (T·H_kv) where H = 6 belongs;'}),
                            ('fresh: cat tiles',
                             'def expand_kv(t, n_rep):\n    return torch.cat([t] * n_rep, dim=1)\n',
                             {'ko': '모양은 맞지만 헤드의 순서가 0, 1, 0, 1, ...입니다.',
                              'en': 'the shape is right but the heads come as 0, 1, 0'}),
                            ('fresh: expand only',
                             'def expand_kv(t, n_rep):\n    return t.expand(-1, n_rep, -1, -1)\n',
                             {'ko': 'expand는 크기가 1인 축만 늘릴 수 있습니다.', 'en': 'expand can only stretch axes of size 1:'}),
                            ('fresh: expand wrong place',
                             'def expand_kv(t, n_rep):\n'
                             '    B, H_kv, T, D = t.shape\n'
                             '    return t[:, None].expand(B, n_rep, H_kv, T, D).reshape(B, -1, T, D)\n',
                             {'ko': '모양은 맞지만 헤드의 순서가 0, 1, 0, 1, ...입니다.',
                              'en': 'the shape is right but the heads come as 0, 1, 0'}),
                            ('fresh: along D',
                             'def expand_kv(t, n_rep):\n    return t.repeat_interleave(n_rep, dim=-1)\n',
                             {'ko': '축 1의 크기가 2(B 또는 H_kv)인데, 이 자리는 H(6)의 자리입니다.',
                              'en': 'axis 1 holds 2 (B or H_kv) where H = 6 belongs;'}),
                            ('fresh: view of expand (view cannot merge them)',
                             'def expand_kv(t, n_rep):\n'
                             '    B, H_kv, T, D = t.shape\n'
                             '    return t[:, :, None].expand(B, H_kv, n_rep, T, D).view(B, H_kv * n_rep, T, D)\n',
                             {'ko': '함수 안에서 오류가 났습니다: RuntimeError: view size',
                              'en': 'your function raised RuntimeError: view size'}),
                            ('fresh: off by one',
                             'def expand_kv(t, n_rep):\n    return t.repeat_interleave(n_rep + 1, dim=1)\n',
                             {'ko': '축 1의 크기가 8(T·H_kv)인데, 이 자리는 H(6)의 자리입니다.',
                              'en': 'axis 1 holds 8 (T·H_kv) where H = 6 belongs;'}),
                            ('fresh: returned (B, T, H, D)',
                             'def expand_kv(t, n_rep):\n'
                             '    return t.transpose(1, 2).repeat_interleave(n_rep, dim=2)\n',
                             {'ko': '축 1, 축 2의 자리가 뒤바뀌었습니다.', 'en': 'axes 1 and 2 are swapped:'}),
                            ('fresh: loop fixed 2 kv heads',
                             'def expand_kv(t, n_rep):\n'
                             '    return torch.cat([t[:, i:i + 1].expand(-1, n_rep, -1, -1) for i in range(2)], '
                             'dim=1)\n',
                             {'ko': '축 1의 크기가 4(D·n_rep)인데, 이 자리는 H(6)의 자리입니다.',
                              'en': 'axis 1 holds 4 (D·n_rep) where H = 6 belongs;'})],
 ('08', 'ch08-ex-port'): [('fresh: template',
                           'def port_gpt2_reshape(block, n_head):\n'
                           '    C = block.c_attn.weight.shape[0]\n'
                           '    layer = MultiHeadAttention(C, n_head)\n'
                           '    with torch.no_grad():\n'
                           '        layer.in_proj.weight.copy_(block.c_attn.weight.reshape(3 * C, C))\n'
                           '        layer.in_proj.bias.copy_(block.c_attn.bias)\n'
                           '        layer.out_proj.weight.copy_(block.c_proj.weight.T)\n'
                           '        layer.out_proj.bias.copy_(block.c_proj.bias)\n'
                           '    return layer.eval()\n',
                           {'ko': 'in_proj.weight가 c_attn.weight를 reshape한 것입니다.',
                            'en': 'in_proj.weight is c_attn.weight reshaped:'}),
                          ('fresh: right',
                           'def port_gpt2_reshape(block, n_head):\n'
                           '    C = block.c_attn.weight.shape[0]\n'
                           '    layer = MultiHeadAttention(C, n_head)\n'
                           '    with torch.no_grad():\n'
                           '        layer.in_proj.weight.copy_(block.c_attn.weight.T)\n'
                           '        layer.in_proj.bias.copy_(block.c_attn.bias)\n'
                           '        layer.out_proj.weight.copy_(block.c_proj.weight.T)\n'
                           '        layer.out_proj.bias.copy_(block.c_proj.bias)\n'
                           '    return layer.eval()\n',
                           None),
                          ('fresh: out_proj not transposed',
                           'def port_gpt2_reshape(block, n_head):\n'
                           '    C = block.c_attn.weight.shape[0]\n'
                           '    layer = MultiHeadAttention(C, n_head)\n'
                           '    with torch.no_grad():\n'
                           '        layer.in_proj.weight.copy_(block.c_attn.weight.T)\n'
                           '        layer.in_proj.bias.copy_(block.c_attn.bias)\n'
                           '        layer.out_proj.weight.copy_(block.c_proj.weight)\n'
                           '        layer.out_proj.bias.copy_(block.c_proj.bias)\n'
                           '    return layer.eval()\n',
                           {'ko': 'c_attn은 고쳤지만 c_proj도 Conv1D라서 (in, out)으로 저장됩니다.',
                            'en': 'c_attn is fixed, but c_proj is a Conv1D too and'}),
                          ('fresh: view instead of reshape',
                           'def port_gpt2_reshape(block, n_head):\n'
                           '    C = block.c_attn.weight.shape[0]\n'
                           '    layer = MultiHeadAttention(C, n_head)\n'
                           '    with torch.no_grad():\n'
                           '        layer.in_proj.weight.copy_(block.c_attn.weight.view(3 * C, C))\n'
                           '        layer.in_proj.bias.copy_(block.c_attn.bias)\n'
                           '        layer.out_proj.weight.copy_(block.c_proj.weight.T)\n'
                           '        layer.out_proj.bias.copy_(block.c_proj.bias)\n'
                           '    return layer.eval()\n',
                           {'ko': 'in_proj.weight가 c_attn.weight를 reshape한 것입니다.',
                            'en': 'in_proj.weight is c_attn.weight reshaped:'}),
                          ('fresh: right t contiguous',
                           'def port_gpt2_reshape(block, n_head):\n'
                           '    C = block.c_attn.weight.shape[0]\n'
                           '    layer = MultiHeadAttention(C, n_head)\n'
                           '    with torch.no_grad():\n'
                           '        layer.in_proj.weight.copy_(block.c_attn.weight.t().contiguous())\n'
                           '        layer.in_proj.bias.copy_(block.c_attn.bias)\n'
                           '        layer.out_proj.weight.copy_(block.c_proj.weight.T)\n'
                           '        layer.out_proj.bias.copy_(block.c_proj.bias)\n'
                           '    return layer.eval()\n',
                           None),
                          ('fresh: right per-block T',
                           'def port_gpt2_reshape(block, n_head):\n'
                           '    C = block.c_attn.weight.shape[0]\n'
                           '    layer = MultiHeadAttention(C, n_head)\n'
                           '    with torch.no_grad():\n'
                           '        layer.in_proj.weight.copy_(torch.cat([w.T for w in block.c_attn.weight.split(C, '
                           'dim=1)]))\n'
                           '        layer.in_proj.bias.copy_(block.c_attn.bias)\n'
                           '        layer.out_proj.weight.copy_(block.c_proj.weight.T)\n'
                           '        layer.out_proj.bias.copy_(block.c_proj.bias)\n'
                           '    return layer.eval()\n',
                           None),
                          ('fresh: n_head hard-coded 12',
                           'def port_gpt2_reshape(block, n_head):\n'
                           '    C = block.c_attn.weight.shape[0]\n'
                           '    layer = MultiHeadAttention(C, 12)\n'
                           '    with torch.no_grad():\n'
                           '        layer.in_proj.weight.copy_(block.c_attn.weight.T)\n'
                           '        layer.in_proj.bias.copy_(block.c_attn.bias)\n'
                           '        layer.out_proj.weight.copy_(block.c_proj.weight.T)\n'
                           '        layer.out_proj.bias.copy_(block.c_proj.bias)\n'
                           '    return layer.eval()\n',
                           {'ko': '레이어를 만들지 못했습니다(d_model=8 is not divisible by n_h',
                            'en': 'the layer could not be made (d_model=8 is not di'}),
                          ('fresh: C from shape[1]',
                           'def port_gpt2_reshape(block, n_head):\n'
                           '    C = block.c_attn.weight.shape[1]\n'
                           '    layer = MultiHeadAttention(C, n_head)\n'
                           '    with torch.no_grad():\n'
                           '        layer.in_proj.weight.copy_(block.c_attn.weight.T)\n'
                           '        layer.in_proj.bias.copy_(block.c_attn.bias)\n'
                           '        layer.out_proj.weight.copy_(block.c_proj.weight.T)\n'
                           '        layer.out_proj.bias.copy_(block.c_proj.bias)\n'
                           '    return layer.eval()\n',
                           {'ko': '레이어의 가중치에 C = 8이 있어야 할 자리에 24 = 3C가 있습니다.',
                            'en': "the layer's weight has 24 = 3C where C = 8 belon"})],
 ('08', 'ch08-ex-chunked'): [('fresh: template None',
                              '\n'
                              'def prefill_step(layer, x_new, cache):\n'
                              '    q, k, v = (layer.split_heads(t) for t in layer.project(x_new, x_new, x_new))\n'
                              '    cache["k"] = torch.cat([cache["k"], k], dim=2)\n'
                              '    cache["v"] = torch.cat([cache["v"], v], dim=2)\n'
                              '    out, _ = layer.attend(q, cache["k"], cache["v"], None)\n'
                              '    return layer.out_proj(layer.merge_heads(out))\n',
                              {'ko': '한 단계 안에서도 앞의 새 토큰이 뒤의 토큰을 보면 안 되므로 인과 마스크가 필요합니다',
                               'en': 'within one step the earlier new tokens must not'}),
                             ('fresh: tril top-left',
                              '\n'
                              'def prefill_step(layer, x_new, cache):\n'
                              '    q, k, v = (layer.split_heads(t) for t in layer.project(x_new, x_new, x_new))\n'
                              '    cache["k"] = torch.cat([cache["k"], k], dim=2)\n'
                              '    cache["v"] = torch.cat([cache["v"], v], dim=2)\n'
                              '    out, _ = layer.attend(q, cache["k"], cache["v"], torch.ones(q.size(2), '
                              "cache['k'].size(2), dtype=torch.bool).tril())\n"
                              '    return layer.out_proj(layer.merge_heads(out))\n',
                              {'ko': '새 토큰 1개, 캐시의 키 3개인 조각에서:',
                               'en': 'for a piece of 1 new token with 3 keys in the ca'}),
                             ('fresh: triu',
                              '\n'
                              'def prefill_step(layer, x_new, cache):\n'
                              '    q, k, v = (layer.split_heads(t) for t in layer.project(x_new, x_new, x_new))\n'
                              '    cache["k"] = torch.cat([cache["k"], k], dim=2)\n'
                              '    cache["v"] = torch.cat([cache["v"], v], dim=2)\n'
                              '    out, _ = layer.attend(q, cache["k"], cache["v"], torch.ones(q.size(2), '
                              "cache['k'].size(2), dtype=torch.bool).triu(cache['k'].size(2) - q.size(2)))\n"
                              '    return layer.out_proj(layer.merge_heads(out))\n',
                              {'ko': '새 토큰 6개, 캐시의 키 6개인 조각에서:',
                               'en': 'for a piece of 6 new tokens with 6 keys in the c'}),
                             ('fresh: float mask',
                              '\n'
                              'def prefill_step(layer, x_new, cache):\n'
                              '    q, k, v = (layer.split_heads(t) for t in layer.project(x_new, x_new, x_new))\n'
                              '    cache["k"] = torch.cat([cache["k"], k], dim=2)\n'
                              '    cache["v"] = torch.cat([cache["v"], v], dim=2)\n'
                              '    out, _ = layer.attend(q, cache["k"], cache["v"], torch.ones(q.size(2), '
                              "cache['k'].size(2)).tril(cache['k'].size(2) - q.size(2)))\n"
                              '    return layer.out_proj(layer.merge_heads(out))\n',
                              {'ko': '토큰 6개를 [6]이나 [2, 1, 3]개씩 넣는 동안 함수 안에서 오류가 났습니다:',
                               'en': 'feeding 6 tokens as [6] or as [2, 1, 3], your fu'}),
                             ('fresh: right, tril with diagonal',
                              '\n'
                              'def prefill_step(layer, x_new, cache):\n'
                              '    q, k, v = (layer.split_heads(t) for t in layer.project(x_new, x_new, x_new))\n'
                              '    cache["k"] = torch.cat([cache["k"], k], dim=2)\n'
                              '    cache["v"] = torch.cat([cache["v"], v], dim=2)\n'
                              '    out, _ = layer.attend(q, cache["k"], cache["v"], torch.ones(q.size(2), '
                              "cache['k'].size(2), dtype=torch.bool).tril(cache['k'].size(2) - q.size(2)))\n"
                              '    return layer.out_proj(layer.merge_heads(out))\n',
                              None)],
 ('08', 'ch08-ex-kv-memory'): [('fresh: MHA heads',
                                'answer_mib = 1536\nanswer_ratio = 4',
                                {'ko': '(1) 캐시에는 쿼리 헤드 16개가 아니라 키·밸류 헤드 4개가 들어가고, 헤드 하나는',
                                 'en': 'either (1) the cache holds the 4 key/value heads'}),
                               ('fresh: K only',
                                'answer_mib = 192\nanswer_ratio = 4',
                                {'ko': '(1) 키와 밸류 두 가지를 모두 세세요.', 'en': '1/2 of the right value:'}),
                               ('fresh: fp32',
                                'answer_mib = 768\nanswer_ratio = 4',
                                {'ko': '(1) float16은 값 하나에 2바이트입니다(float32가 4바이트).',
                                 'en': 'either (1) float16 takes 2 bytes per value (floa'}),
                               ('fresh: MB',
                                'answer_mib = 402.65\nanswer_ratio = 4',
                                {'ko': 'answer_ratio는 맞았습니다.', 'en': '1.049 times too large:'}),
                               ('fresh: ratio inverted',
                                'answer_mib = 384\nanswer_ratio = 0.25',
                                {'ko': '멀티헤드(헤드 16개)의 캐시가 몇 배 큰지입니다.', 'en': 'your answer_mib is right;'}),
                               ('fresh: ratio 16',
                                'answer_mib = 384\nanswer_ratio = 16',
                                {'ko': '비율은 멀티헤드의 캐시(키·밸류 헤드 16개)가 이 캐시(키·밸류 헤드 4개)의 몇 배',
                                 'en': 'your answer_mib is right;'}),
                               ('fresh: one layer',
                                'answer_mib = 16\nanswer_ratio = 4',
                                {'ko': '레이어 24개가 저마다 캐시를 가집니다.', 'en': '1/24 of the right value:'}),
                               ('fresh: bits',
                                'answer_mib = 3072\nanswer_ratio = 4',
                                {'ko': '(2) 키와 밸류 두 가지를 모두 세세요.', 'en': 'either (1) that counts bits;'}),
                               ('fresh: right floats', 'answer_mib = 384.0\nanswer_ratio = 4.0', None),
                               ('fresh: D = C / H_kv',
                                'answer_mib = 1536\nanswer_ratio = 1',
                                {'ko': '(1) 캐시에는 쿼리 헤드 16개가 아니라 키·밸류 헤드 4개가 들어가고, 헤드 하나는',
                                 'en': 'either (1) the cache holds the 4 key/value heads'}),
                               ('fresh: string',
                                "answer_mib = '384 MiB'\nanswer_ratio = 4",
                                {'ko': 'answer_mib에는 수를 적으세요(글자나 튜플이 아니라).',
                                 'en': 'write a number in answer_mib, not text or a tupl'}),
                               ('fresh: ratio 12',
                                'answer_mib = 384\nanswer_ratio = 12',
                                {'ko': '12 = 16 - 4는 줄어든 헤드의 수입니다.', 'en': 'your answer_mib is right;'}),
                               ('fresh: bytes',
                                'answer_mib = 402653184\nanswer_ratio = 4',
                                {'ko': 'answer_ratio는 맞았습니다.', 'en': '1.049e+06 times too large:'})]}
for _key, _answers in FRESH.items():
    CASES_78[_key] = CASES_78.get(_key, []) + _answers

# Fresh answers, second round (2026-11-28), chapter 7, written before reading its checks: units and factors
# (MB, GiB, KiB × 1000, float32, B or H twice, T × D for T × T), the fix put on the wrong line of the online
# softmax (a division by rescale, p on the old maximum, exp(rescale)), projections counted on the wrong tokens,
# a global T, a mean of the two lengths.
MEM = "answer_mib = {}"
FIXED = blocks(acc="acc * rescale + p @ v_b")
FRESH_7 = {
    ("07", "ch07-ex-memory"): [
        ("fresh2: MB", MEM.format("4 * 8 * 4096 * 4096 * 2 / 10**6"),
         {"ko": "10**6으로 나누면 MB입니다", "en": "dividing by 10**6 gives MB"}),
        ("fresh2: float32", MEM.format("4 * 8 * 4096 * 4096 * 4 / 2**20"),
         {"ko": "4바이트가 아니라 2바이트", "en": "takes 2 bytes, not 4"}),
        ("fresh2: the batch left out", MEM.format("8 * 4096 * 4096 * 2 / 2**20"),
         {"ko": "배치의 시퀀스 4개를 모두 세세요", "en": "count all 4 sequences of the batch"}),
        ("fresh2: the heads left out", MEM.format("4 * 4096 * 4096 * 2 / 2**20"),
         {"ko": "헤드 8개가 저마다 점수 행렬을", "en": "each of the 8 heads has its own score matrix"}),
        ("fresh2: GiB", MEM.format("4 * 8 * 4096 * 4096 * 2 / 2**30"),
         {"ko": "GiB입니다(2**30으로 나눔)", "en": "that is GiB (divided by 2**30)"}),
        ("fresh2: elements", MEM.format("4 * 8 * 4096 * 4096 / 2**20"),
         {"ko": "원소의 수입니다", "en": "that counts elements"}),
        ("fresh2: a tuple", MEM.format("(1024,)"),
         {"ko": "MiB 수를 숫자로 적으세요", "en": "write the number of MiB as a number"}),
        ("fresh2: T by a head's width", MEM.format("4 * 8 * 4096 * 64 * 2 / 2**20"),
         {"ko": "T × T개가 아니라 T × 64개를 센 것과 같습니다", "en": "as if T × 64 were counted instead of T × T"}),
        ("fresh2: KiB then kB", MEM.format("4 * 8 * 4096**2 * 2 / 1024 / 1000"),
         {"ko": "1024와 1000으로 나누어 KiB와 kB를 섞었습니다", "en": "dividing by 1024 and by 1000 mixes KiB and kB"}),
        ("fresh2: B twice", MEM.format("4 * 8 * 4096 * 4096 * 2 / 2**20 * 4"),
         {"ko": "배치 크기 B = 4가 두 번 곱해졌습니다", "en": "the batch size B = 4 went in twice"}),
        ("fresh2: right, as a float", MEM.format("1024.0"), None),
    ],
    ("07", "ch07-ex-rescale"): [
        ("fresh2: row_sum's rescale removed instead", blocks(acc="acc + p @ v_b", total="row_sum + p.sum(dim=-1, keepdim=True)"),
         {"ko": "exp(옛 최댓값 - 새 최댓값)", "en": "nothing accumulated is moved"}),
        ("fresh2: p on the old maximum", FIXED.replace("p = torch.exp(s - new_max)", "p = torch.exp(s - row_max)"),
         {"ko": "new_max가 아니라 row_max를 뺀 exp(s - row_max)", "en": "exp(s - row_max) with row_max where new_max"}),
        ("fresh2: the sum squeezed at the end", FIXED.replace("return acc / row_sum", "return acc / row_sum.squeeze(-1)"),
         {"ko": "RuntimeError", "en": "your function raised RuntimeError"}),
        ("fresh2: the whole v", blocks(acc="acc * rescale + p @ v"),
         {"ko": "RuntimeError", "en": "your function raised RuntimeError"}),
        ("fresh2: exp of the rescale", blocks(acc="acc * torch.exp(rescale) + p @ v_b"),
         {"ko": "acc와 row_sum에 곱하는 것", "en": "at what multiplies acc and row_sum"}),
        ("fresh2: no square root", blocks(scale="1"),
         {"ko": "√d_k", "en": "the scores are not divided by √d_k"}),
        ("fresh2: acc moved, the sum no longer", blocks(acc="acc * rescale + p @ v_b",
                                                       total="row_sum + p.sum(dim=-1, keepdim=True)"),
         {"ko": "row_sum", "en": "but row_sum stays on the old one"}),
        ("fresh2: right, in place", FIXED.replace("acc = acc * rescale + p @ v_b", "acc *= rescale\n        acc += p @ v_b"),
         None),
    ],
    ("07", "ch07-ex-flops"): [
        ("fresh2: self-attention on T_q", FLOPS.format("8 * B * T_q * C * C + 4 * B * T_q * T_q * C"),
         {"ko": "셀프 어텐션의 식에 T = T_q를 넣은 값입니다", "en": "the self-attention count with T = T_q"}),
        ("fresh2: every projection on T_k", FLOPS.format("8 * B * T_k * C * C + 4 * B * T_q * T_k * C"),
         {"ko": "T_k", "en": "all four projections are counted on T_k tokens"}),
        ("fresh2: multiply-adds", FLOPS.format("B * T_q * C * C + 2 * B * T_k * C * C + 2 * B * T_q * T_k * C + B * T_q * C * C"),
         {"ko": "FLOP 2개", "en": "one multiply-add is 2 FLOPs"}),
        ("fresh2: no output projection", FLOPS.format("2 * B * T_q * C * C + 4 * B * T_k * C * C + 4 * B * T_q * T_k * C"),
         {"ko": "W_O", "en": "the output projection W_O) is missing"}),
        ("fresh2: attention over 8 heads", FLOPS.format("4 * B * T_q * C * C + 4 * B * T_k * C * C + 4 * B * T_q * T_k * C // 8"),
         {"ko": "어텐션의 두 곱(점수와 가중합)의 항이", "en": "the term of attention's two products"}),
        ("fresh2: a tuple", FLOPS.format("(4 * B * T_q * C * C + 4 * B * T_k * C * C, 4 * B * T_q * T_k * C)"),
         {"ko": "지금은 tuple입니다", "en": "not a tuple"}),
        ("fresh2: attention times 8 heads", FLOPS.format("4 * B * T_q * C * C + 4 * B * T_k * C * C + 32 * B * T_q * T_k * C"),
         {"ko": "B·T_q·T_k·C 항의 계수가 32", "en": "the coefficient of B·T_q·T_k·C is 32"}),
        ("fresh2: one attention product", FLOPS.format("4 * B * T_q * C * C + 4 * B * T_k * C * C + 2 * B * T_q * T_k * C"),
         {"ko": "어텐션에는 행렬 곱이 두 번 있습니다", "en": "attention has two matrix products"}),
        ("fresh2: the mean of the lengths", FLOPS.format("8 * B * ((T_q + T_k) // 2) * C * C + 4 * B * T_q * T_k * C"),
         {"ko": "몇몇 크기에서만 맞는 계산(정수 나눗셈 //", "en": "something holds at some sizes only (a floor division //"}),
        ("fresh2: W_V on the queries", FLOPS.format("6 * B * T_q * C * C + 2 * B * T_k * C * C + 4 * B * T_q * T_k * C"),
         {"ko": "T_q", "en": "3 on the T_q tokens and 1 on the T_k tokens"}),
        ("fresh2: the notebook's T", "T = 12\n" + FLOPS.format("4 * B * T_q * C * C + 4 * B * T_k * C * C + 4 * B * T * T * C"),
         {"ko": "B·T_q·T_k·C 항의 계수가 0", "en": "the coefficient of B·T_q·T_k·C is 0"}),
        ("fresh2: right, step by step", FLOPS.format("2 * B * T_q * C * C * 2 + 2 * B * T_k * C * 2 * C + 2 * 2 * B * T_q * T_k * C"),
         None),
    ],
}
for _key, _answers in FRESH_7.items():
    CASES_78[_key] = CASES_78[_key] + _answers


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("chapter", "label", "name"), answer_params(CASES_78))
def test_a_wrong_answer_of_chapters_7_and_8_is_named(chapter, label, name, lang):
    assert_named(CASES_78, chapter, label, name, lang)


def test_each_exercise_of_chapters_7_and_8_has_eight_wrong_answers_with_distinct_names():
    assert_distinct_names_and_wrong_answers(CASES_78, 8)
