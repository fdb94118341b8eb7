"""Chapter 9: positions inside attention and batched decoding, against transformers' Llama attention.

The definitions are taken from notebooks/en/09_positions.ipynb by tools.chapter_code (the cells that hold
them), so the tests check the book's code, not a copy of it:
- RoPE with the halves pairing equals transformers' apply_rotary_pos_emb; the interleaved pairing differs, and
  equals the halves one up to a permutation of the features; scores depend on m - n only.
- RotaryAttention (grouped-query attention with RoPE and an optional head_dim != C // H) equals LlamaAttention
  with LlamaRotaryEmbedding and a DynamicCache (small LlamaConfig's built offline, attention_bias=True,
  parameters re-drawn so that biases are not zero), for a prompt and for generation steps at t > 0: outputs
  and per-head weights within ATOL (measured below 1e-6 at every size here).
- Wrong ports fail that comparison: the interleaved pairing, a wrong base, the rotation after the cache write
  (passes the prompt, fails the steps), and positions not counted across steps (likewise).
- The grouped-query cache stores (B, H_kv, t, D) and takes H_kv / H of a multi-head cache's bytes.
- Batched generation with left padding, cumsum positions and one (B, 1, T_q, T_k) mask gives each row its
  prompt computed alone; positions from the cache's length or a top-left mask fail; no NaN on padded rows.
- Sliding-window attention: the rolling cache of width w equals the band mask over the whole sequence.
"""

from __future__ import annotations

import functools
import io
import tokenize

import pytest
import torch

from tools import chapter_code

ATOL = 1e-5
MARKERS = ("def attention(", "def redraw_(", "def rope_angles(", "def rotate_half(", "def rope_interleaved(",
           "class KVCache", "class RotaryAttention", "def causal_mask(", "def port_llama(", "def additive(",
           "def small_llama(", "class RotateAfterWrite", "def batch_mask(", "def generate_batch(",
           "def rows_agree(", "def window_mask(", "class RollingKVCache")
# (C, H, H_kv, head_dim): head_dim None is C // H; the second and the last set head_dim apart from C // H
LLAMA_SIZES = [(16, 4, 2, None), (12, 4, 2, 8), (12, 6, 6, None), (8, 2, 1, 4), (24, 6, 3, 16), (16, 8, 1, None)]


pytestmark = pytest.mark.usefixtures("one_thread")  # tests/conftest.py


@functools.cache
def chapter9(lang: str = "en") -> dict:
    """The chapter's definitions, executed in order in a namespace holding torch, nn, F, math and the names the
    chapter imports from transformers."""
    from transformers import DynamicCache, LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaAttention, LlamaRotaryEmbedding

    ns = chapter_code.base_namespace()
    ns.update(DynamicCache=DynamicCache, LlamaConfig=LlamaConfig, LlamaAttention=LlamaAttention,
              LlamaRotaryEmbedding=LlamaRotaryEmbedding)
    try:
        for marker in MARKERS:
            exec(compile(chapter_code.cell_source("09", marker, lang), f"<09 {marker}>", "exec"), ns)
    except chapter_code.ChapterCodeError as e:
        pytest.fail(str(e))
    return ns


def llama_and_input(C, H, H_kv, head_dim, seed=0, B=2, T=8):
    ns = chapter9()
    with torch.no_grad():
        llama = ns["small_llama"](C, H, H_kv, head_dim or C // H, seed=seed)
    x = torch.randn(B, T, C, generator=torch.Generator().manual_seed(seed + 1))
    return llama, x


@pytest.mark.parametrize("C, H, H_kv, head_dim", LLAMA_SIZES, ids=[f"C{c}-H{h}-Hkv{k}-D{d}" for c, h, k, d in LLAMA_SIZES])
@pytest.mark.parametrize("T_prompt", [1, 5])
def test_rotary_attention_equals_llama_attention(C, H, H_kv, head_dim, T_prompt):
    """The proof of the chapter: a prompt, then every later token one at a time, outputs and weights within
    ATOL at each step; the two caches hold the same rotated keys and values, (B, H_kv, t, D)."""
    ns = chapter9()
    llama, x = llama_and_input(C, H, H_kv, head_dim)
    with torch.no_grad():
        agree, cache, hf_cache = ns["against_llama"](ns["port_llama"](llama), llama, x, T_prompt)
    assert all(agree) and len(agree) == 1 + x.size(1) - T_prompt
    D = head_dim or C // H
    assert cache.k.shape == hf_cache.layers[0].keys.shape == (2, H_kv, x.size(1), D)
    assert torch.allclose(cache.k, hf_cache.layers[0].keys, atol=ATOL)
    assert torch.allclose(cache.v, hf_cache.layers[0].values, atol=ATOL)


class _Wrong:
    """The wrong ports of the chapter, and one more: positions not counted across steps."""

    @staticmethod
    def build(name, llama):
        ns = chapter9()
        if name == "interleaved":
            return ns["port_llama"](llama, rope=ns["rope_interleaved"])
        if name == "base":
            return ns["port_llama"](llama, base=500000.0)
        if name == "after write":
            layer = ns["RotateAfterWrite"](llama.config.hidden_size, llama.config.num_attention_heads,
                                           llama.config.num_key_value_heads, llama.head_dim)
            layer.load_state_dict(ns["port_llama"](llama).state_dict())
            return layer.eval()
        if name == "not counted":
            class NotCounted(ns["RotaryAttention"]):
                def forward(self, x, mask=None, positions=None, cache=None):
                    #  every call starts again at position 0, as a decode_step that counts nothing
                    B, T, _ = x.shape
                    return super().forward(x, mask, torch.arange(T).expand(B, T), cache)
            layer = NotCounted(llama.config.hidden_size, llama.config.num_attention_heads,
                               llama.config.num_key_value_heads, llama.head_dim)
            layer.load_state_dict(ns["port_llama"](llama).state_dict())
            return layer.eval()
        raise ValueError(name)


@pytest.mark.parametrize("C, H, H_kv, head_dim", [(12, 4, 2, 8), (16, 4, 2, None), (24, 6, 3, 16)])
@pytest.mark.parametrize("bug", ["interleaved", "base", "after write", "not counted"])
def test_wrong_ports_fail(C, H, H_kv, head_dim, bug):
    """Wrong pairing and wrong base fail on the prompt; rotating after the cache write and not counting positions
    pass the prompt and fail at the first generation step, which is why the proof includes steps at t > 0."""
    ns = chapter9()
    llama, x = llama_and_input(C, H, H_kv, head_dim, seed=3)
    with torch.no_grad():
        agree, _, _ = ns["against_llama"](_Wrong.build(bug, llama), llama, x)
    if bug in ("after write", "not counted"):
        assert agree[0] and not agree[1], agree
    else:
        assert not agree[0], agree


def test_halves_pairing_is_transformers_and_interleaved_is_a_permutation_of_it():
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

    ns = chapter9()
    for D, base in ((8, 10000.0), (16, 500000.0), (2, 10000.0)):
        config = LlamaConfig(hidden_size=3 * D, num_attention_heads=3, head_dim=D, rope_theta=base)
        config.rope_parameters["rope_theta"] = base
        x = torch.randn(2, 3, 9, D, generator=torch.Generator().manual_seed(D))
        positions = torch.arange(4, 13).expand(2, 9)
        cos, sin = LlamaRotaryEmbedding(config)(x, positions)
        angles = ns["rope_angles"](positions, D, base)
        reference, _ = apply_rotary_pos_emb(x, x, cos, sin)
        assert torch.allclose(ns["rope_halves"](x, angles), reference, atol=ATOL)
        order = torch.cat([torch.arange(0, D, 2), torch.arange(1, D, 2)])
        reordered = ns["rope_halves"](x[..., order], angles)[..., order.argsort()]
        assert torch.allclose(reordered, ns["rope_interleaved"](x, angles), atol=ATOL)
        if D > 2:
            assert not torch.allclose(ns["rope_interleaved"](x, angles), reference, atol=1e-2)


@pytest.mark.parametrize("D, shift", [(8, 1), (16, 5), (64, 37)])
def test_rope_scores_depend_on_the_distance_only(D, shift):
    ns = chapter9()
    g = torch.Generator().manual_seed(D)
    q, k = torch.randn(D, generator=g), torch.randn(D, generator=g)
    T = 12
    positions = torch.arange(T)[None]

    def table(offset):
        angles = ns["rope_angles"](positions + offset, D)
        q_rot = ns["rope_halves"](q.expand(1, 1, T, D), angles)
        k_rot = ns["rope_halves"](k.expand(1, 1, T, D), angles)
        return (q_rot @ k_rot.mT)[0, 0]

    assert torch.allclose(table(0), table(shift), atol=1e-4)
    assert torch.allclose(table(0)[:-shift % T or None, :-shift % T or None], table(0)[shift % T:, shift % T:], atol=1e-4)


@pytest.mark.parametrize("n_rep", [1, 2, 4])
def test_repeat_kv_is_repeat_interleave(n_rep):
    from transformers.models.llama.modeling_llama import repeat_kv

    kv = torch.randn(2, 3, 5, 4)
    assert torch.equal(repeat_kv(kv, n_rep), kv.repeat_interleave(n_rep, dim=1))


@pytest.mark.parametrize("H, H_kv", [(8, 2), (8, 8), (8, 1), (6, 3)])
def test_grouped_query_cache_keeps_h_kv_heads_and_equals_the_full_pass(H, H_kv):
    ns = chapter9()
    B, T, C = 2, 7, 4 * H
    torch.manual_seed(H * 10 + H_kv)
    with torch.no_grad():
        layer = ns["redraw_"](ns["RotaryAttention"](C, H, H_kv), C ** -0.5).eval()
        x = torch.randn(B, T, C)
        full = layer(x, mask=ns["causal_mask"](T, T))
        cache = ns["KVCache"]()
        steps = torch.cat([layer(x[:, t:t + 1], cache=cache) for t in range(T)], dim=1)
    assert torch.allclose(steps, full, atol=ATOL)
    assert cache.k.shape == cache.v.shape == (B, H_kv, T, C // H)
    assert cache.nbytes() == 2 * B * T * H_kv * (C // H) * 4 and cache.seen == T == len(cache)


@pytest.mark.parametrize("lengths", [[5, 2, 4], [1, 6, 3, 6], [4]])
def test_batched_generation_gives_each_row_its_prompt_alone(lengths):
    ns = chapter9()
    lengths = torch.tensor(lengths)
    B, T, C = len(lengths), int(lengths.max()), 12
    g = torch.Generator().manual_seed(int(lengths.sum()))
    x, new_tokens = torch.randn(B, T, C, generator=g), torch.randn(B, 3, C, generator=g)
    real = torch.arange(T) >= (T - lengths)[:, None]
    positions = (real.cumsum(dim=-1) - 1).clamp(min=0)
    with torch.no_grad():
        layer = ns["port_llama"](ns["small_llama"](C, 4, 2, 8, seed=7))
        outs, cache = ns["generate_batch"](layer, x, real, positions, new_tokens)
        assert all(ns["rows_agree"](layer, x, lengths, new_tokens, outs))
        assert not any(torch.isnan(o).any() for o in outs)
        by_cache, _ = ns["generate_batch"](layer, x, real, positions, new_tokens, by_cache=True)
        padded = (lengths < T).tolist()
        agree = ns["rows_agree"](layer, x, lengths, new_tokens, by_cache)
        assert [not a for a in agree] == padded, agree

        def top_left(real, T_q):
            return real[:, None, None, :] & torch.ones(T_q, real.size(1), dtype=torch.bool).tril()

        wrong, _ = ns["generate_batch"](layer, x, real, positions, new_tokens, mask_of=top_left)
        assert not any(ns["rows_agree"](layer, x, lengths, new_tokens, wrong))
    assert cache.k.shape == (B, 2, T + 3, 8)


def test_minus_infinity_makes_padded_rows_nan_and_spreads_the_dtype_minimum_does_not():
    ns = chapter9()
    real = torch.arange(5) >= torch.tensor([0, 3])[:, None]
    mask = ns["batch_mask"](real, 5)
    q, k, v = torch.randn(3, 2, 4, 5, 8).unbind(0)
    once, _ = ns["attention"](q, k, v, mask)
    twice, _ = ns["attention"](q, k, once, mask)
    assert once[1].isnan().any() and twice[1].isnan().all()
    with torch.no_grad():
        layer = ns["RotaryAttention"](12, 4, 2, d_head=8).eval()
        out = layer(torch.randn(2, 5, 12), mask=mask, positions=(real.cumsum(-1) - 1).clamp(min=0))
    assert torch.isfinite(out).all()


@pytest.mark.parametrize("w, T, prompt", [(3, 9, 5), (1, 6, 1), (4, 10, 2), (8, 6, 6)])
def test_rolling_cache_equals_the_band_mask(w, T, prompt):
    ns = chapter9()
    torch.manual_seed(w * T)
    with torch.no_grad():
        layer = ns["redraw_"](ns["RotaryAttention"](12, 4, 2, d_head=8), 12 ** -0.5).eval()
        x = torch.randn(2, T, 12)
        full = layer(x, mask=ns["window_mask"](T, T, w))
        cache, outs = ns["RollingKVCache"](w), []
        for start, end in [(0, prompt)] + [(t, t + 1) for t in range(prompt, T)]:
            mask = ns["window_mask"](end - start, len(cache) + end - start, w)
            outs.append(layer(x[:, start:end], mask=mask, cache=cache))
            assert len(cache) <= w
    assert torch.allclose(torch.cat(outs, dim=1), full, atol=ATOL)
    assert cache.seen == T and len(cache) == min(w, T)


@pytest.mark.parametrize("make, message", [
    (lambda ns: ns["RotaryAttention"](12, 4, 3), r"n_kv_head must divide n_head"),
    (lambda ns: ns["RotaryAttention"](12, 4, 2, d_head=5), r"d_head must be even"),
    (lambda ns: ns["RotaryAttention"](16, 4, 2)(torch.ones(2, 5, 16), positions=torch.arange(5)),
     r"expected integers of shape \(B, T\) = \(2, 5\)"),
    (lambda ns: ns["RotaryAttention"](16, 4, 2)(torch.ones(2, 5, 16), positions=torch.zeros(2, 5)),
     r"expected integers of shape"),
    (lambda ns: ns["RotaryAttention"](16, 4, 2)(torch.ones(2, 5, 8)), r"expected \(B, T, 16\)"),
    (lambda ns: ns["RotaryAttention"](16, 4, 2)(torch.ones(2, 5, 16), mask=torch.ones(5, 5)), r"use a bool mask"),
])
def test_bad_input_is_refused_with_a_clear_message(make, message):
    with pytest.raises(ValueError, match=message):
        make(chapter9())


def code_without_comments(source: str) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(source + "\n").readline)
    return [(t.type, t.string) for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL)]


@pytest.mark.parametrize("marker", ["class RotaryAttention", "def against_llama(", "class RollingKVCache",
                                    "def generate_batch("])
def test_korean_notebook_has_the_same_code(marker):
    assert (code_without_comments(chapter_code.cell_source("09", marker, "ko"))
            == code_without_comments(chapter_code.cell_source("09", marker, "en")))


def test_a_rolling_cache_counting_positions_by_its_length_goes_wrong_after_w_tokens():
    """The chapter's self-check: the new token's position is the number of tokens written (seen), not the
    cache's length, which stops at w."""
    ns = chapter9()
    torch.manual_seed(12)
    w, T = 3, 8
    with torch.no_grad():
        layer = ns["redraw_"](ns["RotaryAttention"](12, 4, 2, d_head=8), 12 ** -0.5).eval()
        x = torch.randn(2, T, 12)
        full = layer(x, mask=ns["window_mask"](T, T, w))
        cache, outs = ns["RollingKVCache"](w), []
        for t in range(T):
            positions = torch.full((2, 1), len(cache))                  # the mistake
            outs.append(layer(x[:, t:t + 1], mask=ns["window_mask"](1, len(cache) + 1, w),
                              positions=positions, cache=cache))
    steps = torch.cat(outs, dim=1)
    assert torch.allclose(steps[:, :w + 1], full[:, :w + 1], atol=ATOL)
    assert not torch.allclose(steps[:, w + 1:], full[:, w + 1:], atol=1e-3)
