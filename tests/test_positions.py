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
- port_llama on the configs real checkpoints publish (Llama 3.1 8B with its llama3 scaling, Qwen2-7B with biases
  on q/k/v only, Mistral 7B v0.1; plus linear, dynamic and yarn on Llama 3.1's layout), widths scaled down, equals
  the family's attention module in float32, bfloat16 and float16 at positions up to 45007, prompt and cached
  steps; wrong ports (scaling or attention_scaling ignored, biases dropped, v0.2's base, interleaved pairs) fail in
  float32 and bfloat16; no comparison runs on zero biases or near-uniform attention; what it cannot port
  (longrope, partial rotary, mixed q/k/v biases) is refused naming the field; Mistral v0.1's 4096-token window is
  transformers' own mask.
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


# ---- port_llama on the configs real checkpoints publish ---------------------------------------------------------
# The attention fields of each published config.json, as the Hub serves them (transformers 5 reads the legacy
# rope_theta / rope_scaling into config.rope_parameters):
# - meta-llama/Llama-3.1-8B, https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json: hidden_size 4096,
#   32 layers, 32 heads, 8 kv heads, head_dim 128, attention_bias false, rope_theta 500000, rope_scaling llama3
#   (factor 8, low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192), max_position_embeddings
#   131072 (the same block is quoted in e.g. lucasnewman/mlx-audio's llama_configs.py and oumi's Llama 3.1 README).
# - Qwen/Qwen2-7B, https://huggingface.co/Qwen/Qwen2-7B/blob/main/config.json: hidden_size 3584, 28 layers, 28 heads,
#   4 kv heads (head_dim 3584 / 28 = 128), rope_theta 1000000, max_position_embeddings 131072, use_sliding_window
#   false; biases on q/k/v and none on o_proj are fixed by Qwen2Attention (no config field; printed module in
#   Retruth/deontic's nlp_models/qwen2/README.md: q_proj ... bias=True, o_proj ... bias=False).
# - mistralai/Mistral-7B-v0.1, https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json: hidden_size
#   4096, 32 layers, 32 heads, 8 kv heads (head_dim 128), rope_theta 10000, sliding_window 4096,
#   max_position_embeddings 32768, no biases (MistralAttention; MistralConfig's defaults in transformers are these).
# Scaled down, because one attention layer's equality does not depend on them: hidden_size (4096 -> 256, Qwen2's
# 3584 -> 224) and the layer count (one layer is compared). Kept: head_dim, both head counts (so the ratio), the rope
# parameters, the biases, the window and max_position_embeddings.
LLAMA31_8B = dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8, head_dim=128,
                  attention_bias=False, rope_theta=500000.0, max_position_embeddings=131072,
                  rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                "high_freq_factor": 4.0, "original_max_position_embeddings": 8192})
QWEN2_7B = dict(hidden_size=3584, num_hidden_layers=28, num_attention_heads=28, num_key_value_heads=4,
                rope_theta=1000000.0, max_position_embeddings=131072, use_sliding_window=False)
MISTRAL_7B_V01 = dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
                      head_dim=128, rope_theta=10000.0, sliding_window=4096, max_position_embeddings=32768)
SCALED = {"llama31": dict(hidden_size=256, num_hidden_layers=1),
          "qwen2": dict(hidden_size=224, num_hidden_layers=1, head_dim=128),  # 3584 / 28, now apart from 224 / 28
          "mistral01": dict(hidden_size=256, num_hidden_layers=1)}
# the other kinds of scaled RoPE, on Llama 3.1's layout (values of the kind published checkpoints use)
OTHER_ROPE = {"linear": {"rope_type": "linear", "factor": 4.0},
              "dynamic": {"rope_type": "dynamic", "factor": 4.0},
              "yarn": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}
# positions far apart, so that the slow pairs, which the scaling changes, matter; row 1 shifted by 7
PROMPT_POSITIONS = torch.tensor([0, 1, 5, 60, 900, 5000, 12000, 30000])
STEP_POSITIONS = [30001, 45000]
# float32: the chapter's 1e-5 (allclose's rtol 1e-5 on top, outputs reach about 10); half precision: 1e-2 relative
# and absolute, a few steps of bfloat16's 8 significant bits (2**-8 = 0.4 % per rounding), as the chapter says
TOLERANCE = {torch.float32: dict(atol=1e-5), torch.bfloat16: dict(rtol=1e-2, atol=1e-2),
             torch.float16: dict(rtol=1e-2, atol=1e-2)}


@pytest.fixture
def no_grad():
    """port_llama copies into parameters in place, as the chapter does with gradients off."""
    with torch.no_grad():
        yield


def real_family(name):
    from transformers import LlamaConfig, MistralConfig, Qwen2Config
    from transformers.models.llama.modeling_llama import LlamaAttention, LlamaRotaryEmbedding
    from transformers.models.mistral.modeling_mistral import MistralAttention, MistralRotaryEmbedding
    from transformers.models.qwen2.modeling_qwen2 import Qwen2Attention, Qwen2RotaryEmbedding

    return {"llama31": (LlamaConfig, LlamaAttention, LlamaRotaryEmbedding, LLAMA31_8B),
            "qwen2": (Qwen2Config, Qwen2Attention, Qwen2RotaryEmbedding, QWEN2_7B),
            "mistral01": (MistralConfig, MistralAttention, MistralRotaryEmbedding, MISTRAL_7B_V01)}[name]


def real_layer(name, seed=0, **changes):
    """The family's attention module in transformers, built from the published config (scaled as SCALED says), every
    parameter drawn again (biases included) with std C**-0.5; and its rotary embedding class."""
    Config, Attention, Rotary, published = real_family(name)
    config = Config(**{**published, **SCALED[name], **changes}, attn_implementation="eager")
    torch.manual_seed(seed)
    with torch.no_grad():
        module = chapter9()["redraw_"](Attention(config, layer_idx=0).eval(), config.hidden_size ** -0.5)
        # queries and keys 1.5 times larger: scores of std about 2, so that attention is clearly uneven
        module.q_proj.weight.mul_(1.5)
        module.k_proj.weight.mul_(1.5)
    return module, Rotary


def run_both(module, Rotary, layer, dtype, seed=1):
    """A prompt of 8 tokens at PROMPT_POSITIONS, then two steps, through the module (its rotary embedding made in
    float32 as the model makes it, a DynamicCache, the float mask) and through the port (a KVCache), in dtype.
    Returns per call (out, out_hf, weights, weights_hf), and both caches."""
    from transformers import DynamicCache

    ns = chapter9()
    C = module.config.hidden_size
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(2, 10, C, generator=g).to(dtype)
    positions = torch.cat([PROMPT_POSITIONS, torch.tensor(STEP_POSITIONS)]) + torch.tensor([[0], [7]])  # (2, 10)
    rotary, hf_cache, cache, calls = Rotary(module.config), DynamicCache(), ns["KVCache"](), []
    module, layer = module.to(dtype), layer.to(dtype)
    with torch.no_grad():
        for start, end in ((0, 8), (8, 9), (9, 10)):
            x_new, pos = x[:, start:end], positions[:, start:end]
            mask = ns["causal_mask"](end - start, end)
            out_hf, w_hf = module(x_new, position_embeddings=rotary(x_new, pos),
                                  attention_mask=ns["additive"](mask, dtype)[None, None], past_key_values=hf_cache)
            out = layer(x_new, mask=mask, positions=pos, cache=cache)
            calls.append((out, out_hf, layer.attn_weights, w_hf))
    return calls, cache, hf_cache


def largest_difference(calls):
    return max(max((o.float() - o_hf.float()).abs().max().item(), (w.float() - w_hf.float()).abs().max().item())
               for o, o_hf, w, w_hf in calls)


def all_close(calls, dtype):
    return all(torch.allclose(o, o_hf, **TOLERANCE[dtype]) and torch.allclose(w, w_hf, **TOLERANCE[dtype])
               for o, o_hf, w, w_hf in calls)


def assert_not_degenerate(module, calls):
    """Nothing is compared on zero biases or near-uniform attention: every bias the layer has is non-zero, and the
    largest weight of a query's row is on average well above the even 1 / T_k (at least three times)."""
    for proj in (module.q_proj, module.k_proj, module.v_proj, module.o_proj):
        assert proj.bias is None or (proj.bias != 0).all()
    for *_, w_hf in calls:
        assert w_hf.float().amax(-1).mean() > 3 / w_hf.size(-1), w_hf.float().amax(-1).mean()


def wrong_port(kind, module):
    ns = chapter9()
    layer = ns["port_llama"](module)
    if kind == "scaling ignored":            # reads rope_theta only, as the chapter's first port did
        layer.inv_freq = ns["rope_speeds"](module.head_dim, module.config.rope_parameters["rope_theta"])
        layer.speeds = lambda positions: layer.inv_freq
        layer.attention_scaling = 1.0
    elif kind == "attention_scaling ignored":
        layer.attention_scaling = 1.0
    elif kind == "bias dropped":             # Qwen2's q/k/v biases not carried over
        layer = ns["port_llama"](module, bias=False)
    elif kind == "base of v0.2":             # Mistral 7B v0.2 and later use 1e6; v0.1 uses 10000
        layer = ns["port_llama"](module, base=1000000.0)
    elif kind == "interleaved":
        layer = ns["port_llama"](module, rope=ns["rope_interleaved"])
    else:
        raise ValueError(kind)
    return layer


REAL = [("llama31", {}), ("qwen2", {}), ("mistral01", {})] + [("llama31", {"rope_scaling": s}) for s in OTHER_ROPE.values()]
REAL_IDS = ["llama3.1-8B", "qwen2-7B", "mistral-7B-v0.1"] + [f"llama3.1-{k}" for k in OTHER_ROPE]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16], ids=["fp32", "bf16", "fp16"])
@pytest.mark.parametrize("name, changes", REAL, ids=REAL_IDS)
@pytest.mark.usefixtures("no_grad")
def test_port_llama_equals_the_family_attention_on_its_published_config(name, changes, dtype):
    """port_llama reads biases, rope_theta and the scaled speeds (and attention_scaling) from the layer's config, and
    equals that family's attention in transformers at positions up to 45007 (beyond original_max_position_embeddings
    and, for dynamic, beyond max_position_embeddings), prompt and two cached steps, outputs and weights; the caches
    hold the same rotated keys."""
    if changes.get("rope_scaling", {}).get("rope_type") == "dynamic":
        changes = {**changes, "max_position_embeddings": 8192}     # so that the positions here rescale the speeds
    module, Rotary = real_layer(name, **changes)
    layer = chapter9()["port_llama"](module)
    calls, cache, hf_cache = run_both(module, Rotary, layer, dtype)
    assert_not_degenerate(module, calls)
    assert all_close(calls, dtype), largest_difference(calls)
    assert cache.k.dtype == dtype and torch.allclose(cache.k, hf_cache.layers[0].keys, **TOLERANCE[dtype])
    if name == "qwen2":
        assert layer.qkv.bias is not None and layer.out_proj.bias is None
    if name in ("llama31", "mistral01"):
        assert layer.qkv.bias is None and layer.out_proj.bias is None


WRONG_REAL = [("llama31", {}, "scaling ignored"), ("qwen2", {}, "bias dropped"), ("mistral01", {}, "base of v0.2"),
              ("qwen2", {}, "interleaved")] + [("llama31", {"rope_scaling": OTHER_ROPE[k]}, "scaling ignored")
                                                for k in ("linear", "yarn")] + [
              ("llama31", {"rope_scaling": OTHER_ROPE["yarn"]}, "attention_scaling ignored"),
              ("llama31", {"rope_scaling": OTHER_ROPE["dynamic"], "max_position_embeddings": 8192}, "scaling ignored")]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["fp32", "bf16"])
@pytest.mark.parametrize("name, changes, kind", WRONG_REAL,
                         ids=[f"{n}-{c['rope_scaling']['rope_type'] if c else 'published'}-{k}" for n, c, k in WRONG_REAL])
@pytest.mark.usefixtures("no_grad")
def test_wrong_ports_of_the_published_configs_fail(name, changes, kind, dtype):
    """Each slip a reader can make on these configs fails the comparison, in float32 and in bfloat16 (whose looser
    tolerance still catches it)."""
    module, Rotary = real_layer(name, **changes)
    calls, _, _ = run_both(module, Rotary, wrong_port(kind, module), dtype)
    assert_not_degenerate(module, calls)
    assert not all_close(calls, dtype)


@pytest.mark.usefixtures("no_grad")
def test_port_llama_refuses_what_it_cannot_port_naming_the_field():
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaAttention

    ns = chapter9()
    longrope = LlamaConfig(hidden_size=64, num_attention_heads=4, head_dim=16, max_position_embeddings=8192,
                           rope_scaling={"rope_type": "longrope", "short_factor": [1.0] * 8, "long_factor": [2.0] * 8,
                                         "original_max_position_embeddings": 4096})
    with pytest.raises(ValueError, match=r"rope_parameters\['rope_type'\] = 'longrope'"):
        ns["port_llama"](LlamaAttention(longrope, layer_idx=0))
    partial = LlamaConfig(hidden_size=64, num_attention_heads=4, head_dim=16)
    partial.rope_parameters["partial_rotary_factor"] = 0.5
    with pytest.raises(ValueError, match=r"rope_parameters\['partial_rotary_factor'\] = 0.5"):
        ns["port_llama"](LlamaAttention(partial, layer_idx=0))
    mixed = LlamaAttention(LlamaConfig(hidden_size=64, num_attention_heads=4, head_dim=16, attention_bias=True), 0)
    mixed.k_proj.bias = None
    with pytest.raises(ValueError, match=r"attention_bias"):
        ns["port_llama"](mixed)


@pytest.mark.usefixtures("no_grad")
def test_mistral_v01_window_of_4096_is_transformers_own():
    """Mistral 7B v0.1's sliding_window = 4096, at its real value: after 4100 tokens, transformers' own sliding-window
    mask (create_sliding_window_causal_mask) is the chapter's window_mask, and one step of the port with it equals
    MistralAttention, while the port given the plain causal mask (window ignored) does not. The cached keys are the
    layer's own, rotated at their positions; the 5 oldest values are made large so that seeing them shows in the
    output (values do not change the weights, which are compared too)."""
    from transformers import DynamicCache
    from transformers.masking_utils import create_sliding_window_causal_mask

    ns = chapter9()
    module, Rotary = real_layer("mistral01", seed=5)
    layer = ns["port_llama"](module)
    T, w = 4100, module.config.sliding_window
    g = torch.Generator().manual_seed(6)
    x_old, x_new = torch.randn(1, T, 256, generator=g), torch.randn(1, 1, 256, generator=g)
    with torch.no_grad():
        q, k, v = layer.split_heads(x_old)
        angles = ns["rope_angles"](torch.arange(T)[None], 128, 10000.0)
        k, v = ns["rope_halves"](k, angles), v.clone()
        v[:, :, :5] *= 100
        hf_cache, cache, wide = DynamicCache(), ns["KVCache"](), ns["KVCache"]()
        hf_cache.update(k, v, 0)
        cache.append(k, v)
        wide.append(k, v)
        position = torch.tensor([[T]])
        hf_mask = create_sliding_window_causal_mask(module.config, x_new, None, hf_cache, position)
        ours_mask = ns["window_mask"](1, T + 1, w)
        assert torch.equal(hf_mask[0, 0] == 0, ours_mask) and ours_mask.sum() == w
        out_hf, w_hf = module(x_new, position_embeddings=Rotary(module.config)(x_new, position),
                              attention_mask=hf_mask, past_key_values=hf_cache)
        out = layer(x_new, mask=ours_mask, positions=position, cache=cache)
        assert torch.allclose(out, out_hf, atol=1e-5) and torch.allclose(layer.attn_weights, w_hf, atol=1e-5)
        ignored = layer(x_new, mask=ns["causal_mask"](1, T + 1), positions=position, cache=wide)
        assert not torch.allclose(ignored, out_hf, atol=1e-5)
