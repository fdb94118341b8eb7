"""Chapter 11: attention when serving many requests, re-proven on seeds, sizes and schedules the chapter does not use.

The definitions are taken from notebooks/en/11_serving.ipynb by tools.chapter_code (functions, classes and imports
only), so the tests check the book's code, not a copy of it:
- PagedKVCache under a random schedule of arrivals, growth, forks and releases: every live sequence read through its
  block table equals its contiguous cache (gathering copies values, so torch.equal), no block is both free and held,
  every block is accounted for, and a full cache refuses by name;
- packed_mask equals transformers' build_attention_mask for random query and key lengths (sequences with caches),
  and packed attention equals each sequence alone while one causal mask does not;
- oss_attention equals GptOssAttention (both layer types of the scaled GPT-OSS config) on another seed, batch and
  length, and its wrong versions differ by more than WRONG;
- speculative_greedy equals greedy decoding for other prompts and draft lengths, and fails without the roll-back;
- flash_decode equals plain attention for chunk sizes from 1 to longer than the cache; the merge without maxima fails;
- chapter 7's attention_tiled is carried unchanged;
- typical wrong answers to the four exercises get the hint meant for them, in both languages.
"""

from __future__ import annotations

import copy
import functools
import random

import pytest
import torch
from test_wrong_answers import NO_ANSWER, chapter_namespace, run_check

from tools import chapter_code

WRONG = 1e-3
MARKERS = ("import copy", "def attention(", "class PagedKVCache", "def read_blocks(", "def cumulative(",
           "def padded_tokens(", "def rotate_halves(", "def sink_after_softmax(", "def next_logits(", "def speculative_greedy(",
           "def attention_tiled(", "def chunk_attention(", "def merge_without_maxima(")



@functools.cache
def chapter11() -> dict:
    try:
        return chapter_namespace("11", MARKERS)
    except chapter_code.ChapterCodeError as e:
        pytest.fail(str(e))


# --- the paged cache ---------------------------------------------------------------------------------------

def test_a_paged_cache_under_a_random_schedule_reads_every_sequence_as_a_contiguous_cache():
    ns = chapter11()
    H, D, size, blocks = 2, 3, 3, 24
    cache = ns["PagedKVCache"](num_blocks=blocks, block_size=size, H=H, D=D)
    plain, rng, names = {}, random.Random(5), iter(range(10_000))
    torch.manual_seed(5)
    reused, refused = False, 0
    for _ in range(300):
        live = sorted(plain)
        action = rng.choice(["new", "grow", "grow", "end", "fork"] if live else ["new"])
        if action == "new" or (action == "fork" and not live):
            seq, n = f"s{next(names)}", rng.randint(1, 7)
        elif action == "fork":
            seq, parent = f"s{next(names)}", rng.choice(live)
        else:
            seq, n = rng.choice(live), rng.randint(1, 4)
        before = {s: list(t) for s, t in cache.tables.items()}
        try:
            if action == "end":
                cache.release(seq)
                del plain[seq]
            elif action == "fork":
                cache.fork(parent, seq)
                plain[seq] = plain[parent]
            else:
                k, v = torch.randn(n, H, D), torch.randn(n, H, D)
                cache.append(seq, k, v)
                old_k, old_v = plain.get(seq, (torch.zeros(0, H, D), torch.zeros(0, H, D)))
                plain[seq] = (torch.cat([old_k, k]), torch.cat([old_v, v]))
                reused |= any(b < max(before.get(seq, [0]) or [0]) for b in cache.tables[seq][len(before.get(seq, [])):])
        except MemoryError as e:
            # refused before anything was written: the cache is as it was
            assert "no free block left" in str(e) and cache.tables == before, seq
            refused += 1
            continue
        held = [b for t in cache.tables.values() for b in t]
        assert not set(held) & set(cache.free), "a block is both free and held"
        assert set(held) | set(cache.free) == set(range(blocks))
        assert all(cache.refs[b] == held.count(b) for b in range(blocks))
        for s, (k, v) in plain.items():
            got_k, got_v = ns["read_blocks"](cache, cache.tables[s], cache.lengths[s])
            assert torch.equal(got_k, k.transpose(0, 1)) and torch.equal(got_v, v.transpose(0, 1)), s
    assert reused, "the schedule never reused a block out of order: it proves little"
    assert refused, "the cache was never full: the refusal was not tested"


def test_paged_attention_equals_attention_over_the_contiguous_cache_and_a_sorted_table_does_not():
    ns = chapter11()
    H, D = 3, 8
    cache = ns["PagedKVCache"](num_blocks=6, block_size=2, H=H, D=D)
    torch.manual_seed(6)
    ks, vs = 3 * torch.randn(9, H, D), torch.randn(9, H, D)
    cache.append("x", ks[:4], vs[:4])
    cache.append("y", ks[4:6], vs[4:6])
    cache.release("x")
    cache.append("z", ks[6:9], vs[6:9])  # gets x's blocks, the last given back first
    assert cache.tables["z"] != sorted(cache.tables["z"])
    q = torch.randn(H, 2, D)
    got, weights = ns["paged_attention"](q, cache, "z")
    want, _ = ns["attention"](q, ks[6:9].transpose(0, 1), vs[6:9].transpose(0, 1), ns["causal_mask"](2, 3))
    assert torch.allclose(got, want, atol=1e-6) and ns["peaked"](weights) > 0.6
    k_s, v_s = ns["read_blocks"](cache, sorted(cache.tables["z"]), 3)
    wrong, _ = ns["attention"](q, k_s, v_s, ns["causal_mask"](2, 3))
    assert (wrong - want).abs().max() > WRONG


# --- continuous batching -----------------------------------------------------------------------------------

def test_packed_mask_equals_transformers_build_attention_mask():
    from transformers.generation.continuous_batching.utils import build_attention_mask

    ns = chapter11()
    rng = random.Random(7)
    for _ in range(20):
        q_lens = [rng.randint(1, 6) for _ in range(rng.randint(1, 5))]
        k_lens = [q + rng.choice([0, 0, rng.randint(1, 9)]) for q in q_lens]
        mask = torch.full((1, 1, sum(q_lens), sum(k_lens)), torch.finfo(torch.float32).min)
        build_attention_mask(mask, ns["cumulative"](q_lens), ns["cumulative"](k_lens))
        assert torch.equal(mask[0, 0] == 0, ns["packed_mask"](q_lens, k_lens)), (q_lens, k_lens)


def test_packed_attention_equals_each_sequence_alone_and_one_causal_mask_does_not():
    ns = chapter11()
    attention, causal_mask, cumulative = ns["attention"], ns["causal_mask"], ns["cumulative"]
    lengths = [3, 6, 1, 4]
    H, D, N = 2, 8, sum(lengths)
    torch.manual_seed(8)
    q, k, v = torch.randn(H, N, D), 3 * torch.randn(H, N, D), torch.randn(H, N, D)
    packed, weights = attention(q, k, v, ns["packed_mask"](lengths, lengths))
    leaky, _ = attention(q, k, v, causal_mask(N, N))
    assert ns["peaked"](weights) > 0.6
    cu = cumulative(lengths)
    for i, n in enumerate(lengths):
        part = slice(cu[i], cu[i + 1])
        alone, _ = attention(q[:, part], k[:, part], v[:, part], causal_mask(n, n))
        assert torch.allclose(packed[:, part], alone, atol=1e-6)
        if i > 0:
            assert (leaky[:, part] - alone).abs().max() > WRONG
    assert ns["padded_tokens"]([5, 2, 4], [3, 6, 2]) == 3 * 5 + 3 * 5
    assert ns["packed_tokens"]([5, 2, 4], [3, 6, 2]) == 11 + 2 + 5 + 1


# --- GPT-OSS's sinks ---------------------------------------------------------------------------------------

def test_the_sink_port_equals_gpt_oss_attention_on_another_seed_batch_and_length():
    from transformers import GptOssConfig
    from transformers.masking_utils import create_causal_mask, create_sliding_window_causal_mask
    from transformers.models.gpt_oss.modeling_gpt_oss import GptOssAttention, GptOssRotaryEmbedding

    ns = chapter11()
    config = GptOssConfig(hidden_size=128, num_attention_heads=4, num_key_value_heads=2, head_dim=64,
                          num_hidden_layers=2, sliding_window=128, attention_bias=True,
                          rope_parameters={"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0,
                                           "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False,
                                           "original_max_position_embeddings": 4096})
    config._attn_implementation = "eager"
    torch.manual_seed(9)
    x = torch.randn(2, 140, 128)
    positions = torch.arange(3, 143).expand(2, 140)
    cos, sin = GptOssRotaryEmbedding(config)(x, positions)
    masks = {"sliding_attention": create_sliding_window_causal_mask(config, x, None, None, positions),
             "full_attention": create_causal_mask(config, x, None, None, positions)}
    with torch.no_grad():
        for index, kind in enumerate(config.layer_types):
            layer = GptOssAttention(config, layer_idx=index).eval()
            for p in layer.parameters():
                p.normal_(0, 0.1)
            layer.sinks.normal_(2, 2)
            want, want_weights = layer(x, (cos, sin), masks[kind])
            window = 128 if kind == "sliding_attention" else None
            got, weights = ns["oss_attention"](layer, x, cos, sin, window)
            assert torch.allclose(got, want, atol=1e-5) and torch.allclose(weights, want_weights, atol=1e-6)
            assert ns["peaked"](weights) > 0.3
            wrong = [ns["oss_attention"](layer, x, cos, sin, window, ns["sink_after_softmax"])[0],
                     ns["oss_attention"](layer, x, cos, sin, window, ns["no_sink"])[0]]
            if window:
                wrong.append(ns["oss_attention"](layer, x, cos, sin, 129)[0])
            for out in wrong:
                assert (out - want).abs().max() > WRONG


# --- speculative decoding ----------------------------------------------------------------------------------

def test_speculative_decoding_equals_greedy_for_other_prompts_and_draft_lengths():
    from transformers import GenerationConfig, LlamaConfig, LlamaForCausalLM

    ns = chapter11()
    small = LlamaConfig(vocab_size=40, hidden_size=32, intermediate_size=48, num_hidden_layers=2,
                        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                        initializer_range=0.3, bos_token_id=None, eos_token_id=None, pad_token_id=0)
    with torch.no_grad():
        torch.manual_seed(20)
        target = LlamaForCausalLM(small).eval()
        draft = copy.deepcopy(target)
        for p in draft.parameters():
            if p.dim() > 1:
                p.add_(0.08 * p.std() * torch.randn_like(p))
        prompt = torch.tensor([[3, 30, 8, 1]])
        settings = GenerationConfig(max_new_tokens=8, min_new_tokens=8, do_sample=False)
        greedy = target.generate(prompt, generation_config=settings)
        for k in (2, 5):
            got, accepted = ns["speculative_greedy"](target, draft, prompt, 8, k=k)
            assert torch.equal(got, greedy), k
        assert any(0 < a < 5 for a in accepted), "no draft partly accepted: the roll-back was never needed"
        stale, _ = ns["speculative_greedy"](target, draft, prompt, 8, k=5, roll_back=False)
        assert not torch.equal(stale, greedy)


# --- flash-decoding ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("chunk", [1, 7, 64, 300, 301, 1000])
def test_flash_decoding_equals_plain_attention_for_any_chunk_size(chunk):
    ns = chapter11()
    torch.manual_seed(10)
    q, k, v = torch.randn(3, 1, 8), 4 * torch.randn(3, 300, 8), torch.randn(3, 300, 8)
    want, weights = ns["attention"](q, k, v)
    assert torch.allclose(ns["flash_decode"](q, k, v, chunk), want, atol=1e-5)
    if 1 < chunk < 300:
        assert (ns["merge_without_maxima"](q, k, v, chunk) - want).abs().max() > WRONG


def test_attention_tiled_is_chapter_7s_cell_unchanged():
    assert chapter_code.cell_source("11", "def attention_tiled(") == chapter_code.cell_source("07", "def attention_tiled(")


# --- the exercises: typical wrong answers get their hint ---------------------------------------------------

CHECK = "def check("
SLOT = "def slot(table, pos, block_size):\n    return {}\n"
MASK_PREFIX = ("def block_causal_mask(lengths):\n    seq = torch.repeat_interleave(torch.arange(len(lengths)), "
               "torch.tensor(lengths))\n    N = seq.numel()\n    causal = torch.ones(N, N, dtype=torch.bool).tril()\n")
SINK = "def weights_with_sink(scores, sinks):\n    H, T_q, _ = scores.shape\n{}"
MERGE = "def merge_chunks(outs, lses):\n{}"
CASES = {
    "ch11-ex-slot": [
        ("right, with divmod", SLOT.format("(table[divmod(pos, block_size)[0]], divmod(pos, block_size)[1])"), None),
        ("the logical block", SLOT.format("pos // block_size, pos % block_size"),
         {"ko": "논리 블록", "en": "the logical block"}),
        ("swapped", SLOT.format("pos % block_size, table[pos // block_size]"),
         {"ko": "순서가 바뀌었습니다", "en": "swapped"}),
        ("the block by modulo", SLOT.format("table[pos % block_size], pos % block_size"),
         {"ko": "pos % block_size로 찾았습니다", "en": "found with pos % block_size"}),
        ("the offset not reduced", SLOT.format("table[pos // block_size], pos"),
         {"ko": "블록 안에서 센 위치", "en": "counts within the block"}),
        ("the table sorted", SLOT.format("sorted(table)[pos // block_size], pos % block_size"),
         {"ko": "정렬해 읽었습니다", "en": "read sorted"}),
        ("always the last block", SLOT.format("table[-1], pos % block_size"),
         {"ko": "언제나 마지막 블록", "en": "the last block was always chosen"}),
        ("the slot by floor division", SLOT.format("table[pos // block_size], pos // block_size"),
         {"ko": "pos // block_size가 아니라", "en": "not pos // block_size"}),
        ("a string", SLOT.format('f"{table[pos // block_size]}, {pos % block_size}"'),
         {"ko": "정수 두 개의 쌍", "en": "a pair of whole numbers"}),
        ("right, as a list of tensors", SLOT.format(
            "[torch.tensor(table)[pos // block_size], torch.tensor(pos % block_size)]"), None),
    ],
    "ch11-ex-packed-mask": [
        ("right, with a loop", "def block_causal_mask(lengths):\n    N = sum(lengths)\n"
         "    m = torch.zeros(N, N, dtype=torch.bool)\n    start = 0\n    for n in lengths:\n"
         "        m[start:start + n, start:start + n] = torch.ones(n, n, dtype=torch.bool).tril()\n"
         "        start += n\n    return m\n", None),
        ("one causal mask", MASK_PREFIX + "    return causal\n",
         {"ko": "인과 마스크 하나뿐이라", "en": "one causal mask only"}),
        ("not causal", MASK_PREFIX + "    return seq[:, None] == seq[None, :]\n",
         {"ko": "뒤의 토큰까지 봅니다", "en": "sees later tokens"}),
        ("transposed", MASK_PREFIX + "    return (causal & (seq[:, None] == seq[None, :])).T\n",
         {"ko": "전치되었습니다", "en": "transposed"}),
        ("inverted", MASK_PREFIX + "    return ~(causal & (seq[:, None] == seq[None, :]))\n",
         {"ko": "뒤집혔습니다", "en": "swapped"}),
        ("no diagonal", MASK_PREFIX + "    return torch.ones(N, N, dtype=torch.bool).tril(-1) & "
         "(seq[:, None] == seq[None, :])\n", {"ko": "대각선이 빠졌습니다", "en": "the diagonal is missing"}),
        ("floats", MASK_PREFIX + "    return (causal & (seq[:, None] == seq[None, :])).float()\n",
         {"ko": "bool이어야", "en": "must be bool"}),
        ("the diagonal only", MASK_PREFIX + "    return torch.eye(N, dtype=torch.bool)\n",
         {"ko": "같은 시퀀스 안에서 j <= i인 칸만", "en": "only entries with j <= i"}),
        ("one row per sequence", MASK_PREFIX + "    return causal[:len(lengths)]\n",
         {"ko": "모양이", "en": "expected a tensor of shape"}),
    ],
    "ch11-ex-sink": [
        ("right, by the formula", SINK.format(
            "    top = torch.maximum(scores.amax(-1, keepdim=True), sinks.view(H, 1, 1))\n"
            "    e = torch.exp(scores - top)\n"
            "    return e / (e.sum(-1, keepdim=True) + torch.exp(sinks.view(H, 1, 1) - top))\n"), None),
        ("no sink", SINK.format("    return scores.softmax(dim=-1)\n"), {"ko": "행마다 합이 1", "en": "sums to 1"}),
        ("after the softmax", SINK.format("    return scores.softmax(dim=-1) / (1 + sinks.exp().view(H, 1, 1))\n"),
         {"ko": "소프트맥스 뒤에", "en": "after the softmax"}),
        ("the column kept", SINK.format(
            "    return torch.cat([scores, sinks.view(H, 1, 1).expand(H, T_q, 1)], -1).softmax(-1)\n"),
         {"ko": "싱크 열이 남아", "en": "still there"}),
        ("added to every score", SINK.format("    return (scores + sinks.view(H, 1, 1)).softmax(dim=-1)\n"),
         {"ko": "행마다 합이 1", "en": "sums to 1"}),
        ("along the queries", SINK.format(
            "    return torch.cat([scores, sinks.view(1, -1, 1).expand(H, T_q, 1)], -1).softmax(-1)[..., :-1]\n"),
         {"ko": "쿼리 축을 따라", "en": "along the query axis"}),
        ("scaled by a sigmoid", SINK.format(
            "    return scores.softmax(dim=-1) * torch.sigmoid(-sinks).view(H, 1, 1)\n"),
         {"ko": "소프트맥스 뒤에", "en": "after the softmax"}),
        ("the weights summed", SINK.format(
            "    return torch.cat([scores, sinks.view(H, 1, 1).expand(H, T_q, 1)], -1).softmax(-1)[..., :-1].sum(-1)\n"),
         {"ko": "모양이", "en": "expected a tensor of shape"}),
        ("the sign flipped", SINK.format(
            "    return torch.cat([scores, -sinks.view(H, 1, 1).expand(H, T_q, 1)], -1).softmax(-1)[..., :-1]\n"),
         {"ko": "부호가 뒤집혔습니다", "en": "sign is flipped"}),
    ],
    "ch11-ex-merge": [
        ("right, with the maximum", MERGE.format(
            "    w = torch.exp(lses - lses.amax(0))\n    return (w[..., None] * outs).sum(0) / w.sum(0)[..., None]\n"),
         None),
        ("a plain mean", MERGE.format("    return outs.mean(dim=0)\n"), {"ko": "단순 평균", "en": "a plain mean"}),
        ("exp without the maximum", MERGE.format(
            "    w = torch.exp(lses)\n    return (w[..., None] * outs).sum(0) / w.sum(0)[..., None]\n"),
         {"ko": "float32의 범위", "en": "overflowed float32"}),
        ("softmax over the heads", MERGE.format(
            "    return (torch.softmax(lses, dim=1)[..., None] * outs).sum(0)\n"),
         {"ko": "헤드 축", "en": "along the heads"}),
        ("not normalised", MERGE.format(
            "    return (torch.exp(lses - lses.amax(0))[..., None] * outs).sum(0)\n"),
         {"ko": "합이 1이 아닙니다", "en": "do not sum to 1"}),
        ("linear in lse", MERGE.format("    return ((lses / lses.sum(0))[..., None] * outs).sum(0)\n"),
         {"ko": "lse에 비례", "en": "proportional to lse"}),
        ("the log-sum-exp returned", MERGE.format("    return torch.logsumexp(lses, dim=0)\n"),
         {"ko": "모양이", "en": "expected a tensor of shape"}),
        ("the best chunk only", MERGE.format(
            "    return outs.gather(0, lses.argmax(0)[None, :, None].expand(1, *outs.shape[1:]))[0]\n"),
         {"ko": "lse = logsumexp", "en": "compute lse"}),
        ("the chunk axis kept", MERGE.format(
            "    return torch.softmax(lses, dim=0)[..., None] * outs\n"), {"ko": "조각 축", "en": "chunk axis"}),
    ],
}


# Fresh answers (2026-11-28), written before reading the checks: positions and blocks off by one, the example's
# table or block size written in, the block by rounding; a mask with its diagonal moved or every block at the top
# left; the softmax along another axis, the wrong column dropped, log_softmax, a sigmoid, e^sink left out; a merge
# that adds, averages, takes one chunk or a fixed number of them, or weights upside down.
LOOP_MASK = ("def block_causal_mask(lengths):\n    N = sum(lengths)\n    m = torch.zeros(N, N, dtype=torch.bool)\n"
             "    start = 0\n    for n in lengths:\n        m[start:start + n, start:start + n] = BLOCK\n        NEXT\n"
             "    return m\n")
SAME = "(seq[:, None] == seq[None, :])"
JOIN = "    sink = sinks.view(H, 1, 1).expand(H, T_q, 1)\n    return {}\n"
FRESH = {
    "ch11-ex-slot": [
        ("fresh: one block before", SLOT.format("table[pos // block_size - 1], pos % block_size"),
         {"ko": "블록이 한 칸 앞의 것입니다", "en": "the block is the table's entry one before"}),
        ("fresh: positions from 1", SLOT.format("table[(pos - 1) // block_size], (pos - 1) % block_size"),
         {"ko": "위치 pos - 1의 자리입니다", "en": "that is the slot of position pos - 1"}),
        ("fresh: the example's block size", SLOT.format("table[pos // 4], pos % 4"),
         {"ko": "답이 인자 block_size를 읽지 않습니다", "en": "your slot ignores block_size"}),
        ("fresh: the offset from 1", SLOT.format("table[pos // block_size], pos % block_size + 1"),
         {"ko": "자리가 1 큽니다", "en": "the offset is 1 too large"}),
        ("fresh: the slot in the whole pool", SLOT.format("table[pos // block_size] * block_size + pos % block_size"),
         {"ko": "블록 풀 전체에서 센 자리", "en": "the slot counted over the whole pool"}),
        ("fresh: the block by rounding", SLOT.format("table[round(pos / block_size)], pos % block_size"),
         {"ko": "pos / block_size를 반올림해 블록을 찾았습니다", "en": "the block was found by rounding pos / block_size"}),
        ("fresh: the block alone", SLOT.format("table[pos // block_size]"),
         {"ko": "블록만 돌려주었습니다", "en": "That is the block alone"}),
        ("fresh: D's table written in", SLOT.format("[6, 1][pos // block_size], pos % block_size"),
         {"ko": "답이 인자 table을 읽지 않습니다", "en": "your slot ignores its table"}),
        ("fresh: the offset modulo the table's length", SLOT.format("table[pos // block_size], pos % len(table)"),
         {"ko": "자리를 len(table)로 나눈 나머지로", "en": "the offset is pos % len(table)"}),
        ("fresh: right, with int()", SLOT.format("table[int(pos / block_size)], pos - block_size * (pos // block_size)"),
         None),
    ],
    "ch11-ex-packed-mask": [
        ("fresh: tril(1)", MASK_PREFIX + f"    return torch.ones(N, N, dtype=torch.bool).tril(1) & {SAME}\n",
         {"ko": "대각선이 1칸 위로(tril(1)) 옮겨졌습니다", "en": "the diagonal is moved 1 up (tril(1))"}),
        ("fresh: the example's lengths", "def block_causal_mask(lengths):\n"
         "    seq = torch.repeat_interleave(torch.arange(2), torch.tensor([5, 2]))\n"
         f"    return torch.ones(7, 7, dtype=torch.bool).tril() & {SAME}\n",
         {"ko": "모양이 (11, 11)인 텐서여야 하는데 (7, 7)", "en": "expected a tensor of shape (11, 11), got (7, 7)"}),
        ("fresh: an additive float mask", MASK_PREFIX
         + f"    return torch.zeros(N, N).masked_fill(~(causal & {SAME}), float('-inf'))\n",
         {"ko": "자료형이 bool이어야", "en": "the dtype must be bool"}),
        ("fresh: batch axes added", MASK_PREFIX + f"    return (causal & {SAME})[None, None]\n",
         {"ko": "(1, 1, 11, 11)", "en": "got (1, 1, 11, 11)"}),
        ("fresh: the start never moved", LOOP_MASK.replace("BLOCK", "torch.ones(n, n, dtype=torch.bool).tril()")
         .replace("NEXT", "pass"),
         {"ko": "모든 시퀀스의 블록이 왼쪽 위에 겹쳐", "en": "every sequence's block is put at the top left"}),
        ("fresh: triu blocks", LOOP_MASK.replace("BLOCK", "torch.ones(n, n, dtype=torch.bool).triu()")
         .replace("NEXT", "start += n"), {"ko": "전치되었습니다", "en": "transposed"}),
        ("fresh: positions only", "def block_causal_mask(lengths):\n"
         "    pos = torch.cat([torch.arange(n) for n in lengths])\n    return pos[None, :] <= pos[:, None]\n",
         {"ko": "쿼리 0번이 다른 시퀀스의 키 5번을", "en": "query 0 sees key 5 of another sequence"}),
        ("fresh: or for and", MASK_PREFIX + f"    return causal | {SAME}\n",
         {"ko": "다른 시퀀스의 키", "en": "of another sequence"}),
        ("fresh: blocks one apart too few", LOOP_MASK.replace("BLOCK", "torch.ones(n, n, dtype=torch.bool).tril()")
         .replace("NEXT", "start += n - 1"), {"ko": "다른 시퀀스의 키", "en": "of another sequence"}),
        ("fresh: N as the number of sequences", "def block_causal_mask(lengths):\n"
         "    seq = torch.repeat_interleave(torch.arange(len(lengths)), torch.tensor(lengths))\n"
         f"    N = len(lengths)\n    return torch.ones(N, N, dtype=torch.bool).tril() & {SAME}\n",
         {"ko": "오류를 냈습니다: RuntimeError", "en": "raised an error: RuntimeError"}),
        ("fresh: right, a double loop", "def block_causal_mask(lengths):\n"
         "    seq = [i for i, n in enumerate(lengths) for _ in range(n)]\n    N = len(seq)\n"
         "    m = torch.zeros(N, N, dtype=torch.bool)\n    for i in range(N):\n        for j in range(N):\n"
         "            m[i, j] = seq[i] == seq[j] and j <= i\n    return m\n", None),
    ],
    "ch11-ex-sink": [
        ("fresh: the softmax along the queries", SINK.format(JOIN.format("torch.cat([scores, sink], -1).softmax(dim=1)[..., :-1]")),
         {"ko": "소프트맥스를 쿼리 축(dim=1)을 따라", "en": "the softmax runs along the query axis (dim=1)"}),
        ("fresh: the first column dropped", SINK.format(JOIN.format("torch.cat([scores, sink], -1).softmax(-1)[..., 1:]")),
         {"ko": "첫 열을 떼어 냈습니다", "en": "the first column was dropped"}),
        ("fresh: the sink first, the last column dropped",
         SINK.format(JOIN.format("torch.cat([sink, scores], -1).softmax(-1)[..., :-1]")),
         {"ko": "싱크 열을 앞에 붙이고 마지막 열을", "en": "the sink column went first and the last column was dropped"}),
        ("fresh: the sink without exp", SINK.format(
            "    e = scores.exp()\n    return e / (e.sum(-1, keepdim=True) + sinks.view(H, 1, 1))\n"),
         {"ko": "분모에 싱크 값을 그대로 더했습니다", "en": "the sink is added to the denominator as it is"}),
        ("fresh: a sigmoid", SINK.format("    return torch.sigmoid(scores)\n"),
         {"ko": "점수마다 시그모이드를 했습니다", "en": "that is a sigmoid of each score"}),
        ("fresh: log_softmax", SINK.format(JOIN.format("torch.cat([scores, sink], -1).log_softmax(-1)[..., :-1]")),
         {"ko": "로그 가중치(log_softmax)입니다", "en": "these are log-weights (log_softmax)"}),
        ("fresh: four queries written in", SINK.format(
            "    sink = sinks.view(H, 1, 1).expand(H, 4, 1)\n    return torch.cat([scores, sink], -1).softmax(-1)[..., :-1]\n"),
         {"ko": "오류를 냈습니다(scores (2, 1, 9)", "en": "raised an error for scores (2, 1, 9)"}),
        ("fresh: the last score overwritten in place", SINK.format(
            "    scores[:, :, -1] = sinks[:, None]\n    return scores.softmax(-1)\n"),
         {"ko": "행마다 합이 1입니다", "en": "every row sums to 1"}),
        ("fresh: with the sink's weight", SINK.format(
            "    w = torch.cat([scores, sinks.view(H, 1, 1).expand(H, T_q, 1)], -1).softmax(-1)\n"
            "    return w[..., :-1], w[..., -1]\n"), {"ko": "tuple", "en": "got tuple"}),
        ("fresh: the sinks repeated, heads mixed", SINK.format(
            "    sink = sinks.repeat(T_q).view(H, T_q, 1)\n    return torch.cat([scores, sink], -1).softmax(-1)[..., :-1]\n"),
         {"ko": "sinks.view(H, 1, 1)", "en": "sinks.view(H, 1, 1)"}),
        ("fresh: right, with logaddexp", SINK.format(
            "    lse = torch.logaddexp(torch.logsumexp(scores, -1, keepdim=True), sinks.view(H, 1, 1))\n"
            "    return torch.exp(scores - lse)\n"), None),
    ],
    "ch11-ex-merge": [
        ("fresh: no [..., None]", MERGE.format(
            "    share = torch.exp(lses - torch.logsumexp(lses, dim=0))\n    return (share * outs).sum(0)\n"),
         {"ko": "오류를 냈습니다(outs (5, 3, 4)", "en": "raised an error for outs (5, 3, 4)"}),
        ("fresh: a plain sum", MERGE.format("    return outs.sum(0)\n"),
         {"ko": "조각들의 결과를 그냥 더했습니다", "en": "the chunks' results are simply added"}),
        ("fresh: weighted, then averaged", MERGE.format(
            "    share = torch.softmax(lses, dim=0)\n    return (share.unsqueeze(-1) * outs).mean(0)\n"),
         {"ko": "가중한 결과를 더하지 않고 평균했습니다", "en": "the weighted results are averaged"}),
        ("fresh: the log-sum-exp over the heads", MERGE.format(
            "    total = torch.logsumexp(lses, dim=1, keepdim=True)\n"
            "    return (torch.exp(lses - total)[..., None] * outs).sum(0)\n"),
         {"ko": "헤드 축(1번 축)으로 정규화", "en": "normalised along the heads (axis 1)"}),
        ("fresh: no exponential", MERGE.format(
            "    w = lses - lses.amax(0)\n    return (w[..., None] * outs).sum(0) / w.sum(0)[..., None]\n"),
         {"ko": "지수 함수 없이", "en": "without the exponential"}),
        ("fresh: the last chunk", MERGE.format("    return outs[-1]\n"),
         {"ko": "조각 4의 결과 하나만", "en": "that is chunk 4's result alone"}),
        ("fresh: the weights upside down", MERGE.format(
            "    total = torch.logsumexp(lses, dim=0)\n    return (torch.exp(total - lses)[..., None] * outs).sum(0)\n"),
         {"ko": "가중치가 뒤집혔습니다", "en": "the weights are upside down"}),
        ("fresh: two chunks written in", MERGE.format(
            "    s = torch.softmax(lses, dim=0)\n    return outs[0] * s[0][:, None] + outs[1] * s[1][:, None]\n"),
         {"ko": "앞의 조각 2개만 더했습니다", "en": "only the first 2 chunks are added"}),
        ("fresh: with the total", MERGE.format(
            "    total = torch.logsumexp(lses, dim=0)\n    return (torch.exp(lses - total)[..., None] * outs).sum(0), total\n"),
         {"ko": "tuple", "en": "got tuple"}),
        ("fresh: the maximum along the heads", MERGE.format(
            "    w = torch.exp(lses - lses.amax(1, keepdim=True))\n"
            "    return (w[..., None] * outs).sum(0) / w.sum(0)[..., None]\n"),
         {"ko": "최댓값을 조각마다 헤드 축(1번 축)을 따라", "en": "the maximum subtracted was taken along the heads"}),
        ("fresh: right, with einsum", MERGE.format("    return torch.einsum('nh,nhd->hd', torch.softmax(lses, 0), outs)\n"),
         None),
    ],
}
for _label, _answers in FRESH.items():
    CASES[_label] = CASES[_label] + _answers

@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("label", "name"), [(label, a[0]) for label, answers in CASES.items() for a in answers])
def test_a_typical_answer_gets_the_message_meant_for_it(label, name, lang):
    _, answer, words = next(a for a in CASES[label] if a[0] == name)
    said = run_check("11", label, {"needs": (CHECK,)}, answer, lang)
    if words is None:
        assert said.startswith("✅"), f"{label} ({lang}), {name}: a right answer was refused: {said!r}"
    else:
        assert said.startswith("❌"), f"{label} ({lang}), {name}: a wrong answer passed: {said!r}"
        assert words[lang] in said, f"{label} ({lang}), {name}: the message misses {words[lang]!r}: {said!r}"


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("label", list(CASES))
def test_an_empty_answer_is_not_yet_answered(label, lang):
    stub = {"ch11-ex-slot": "def slot(table, pos, block_size):\n    ...\n",
            "ch11-ex-packed-mask": "def block_causal_mask(lengths):\n    ...\n",
            "ch11-ex-sink": "def weights_with_sink(scores, sinks):\n    ...\n",
            "ch11-ex-merge": "def merge_chunks(outs, lses):\n    ...\n"}[label]
    said = run_check("11", label, {"needs": (CHECK,)}, stub, lang)
    assert NO_ANSWER[lang] in said, said
