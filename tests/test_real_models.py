"""Chapter 8: the book's classes against real implementations.

- Hugging Face `transformers`' GPT-2 attention block, built from small GPT2Config's with random weights
  (nothing is downloaded) and re-drawn with the notebook's `redraw_` (non-zero biases, uneven attention),
  ported into chapter 6's MultiHeadAttention with the notebook's own `port_gpt2`, gives the same outputs
  and per-head weights with the causal mask, for several sizes, with the eager implementation (explicit
  additive mask) and the SDPA one (causal by itself).
- That comparison fails for a port that drops both biases, one that copies the q/k/v biases in k, q, v
  order, and one that drops the 1/sqrt(D) scale; on Hugging Face's default initialisation (zero biases,
  std 0.02) the first two would pass, which is why the chapter re-draws the parameters.
- The notebook's `decode_step` equals transformers' own GPT-2 cache (DynamicCache), one token at a time.
- The notebook's GroupedQueryAttention equals F.scaled_dot_product_attention(..., enable_gqa=True) for
  grouped-query, multi-query and multi-head sizes, chapter 6's class when n_kv_head == n_head, and
  transformers' LlamaAttention (separate projections joined with torch.cat) with RoPE rotating nothing.
- The notebook's KV-cache `decode_step` gives the full causal pass, one token at a time.
- Building and running the GPT-2 block opens no network connection (checked in a subprocess).

The definitions are taken from notebooks/en/08_real_models.ipynb (and chapter 6's class from its own
notebook) by tools.chapter_code, so the tests check the book's code, not a copy of it.
"""

from __future__ import annotations

import functools
import io
import itertools
import os
import subprocess
import sys
import tokenize

import pytest
import torch
import torch.nn.functional as F

from tools import chapter_code

# transformers (3.7 s of CPU to import) is imported by the first test that runs here, not when pytest collects
# this module in every worker: needs_transformers sets these two
GPT2Config = GPT2Attention = None

ATOL = 1e-5
GPT2_SIZES = [(8, 2), (12, 3), (16, 4), (24, 1), (32, 8)]          # (n_embd = C, n_head = H)
GQA_SIZES = [(12, 6, 2), (12, 6, 1), (12, 6, 6), (16, 4, 2), (32, 8, 4), (32, 8, 1), (8, 2, 1)]   # (C, H, H_kv)
LENGTHS = (1, 4, 9)
BATCHES = (1, 3)


@pytest.fixture(autouse=True)
def needs_transformers():
    global GPT2Config, GPT2Attention
    try:
        from transformers import GPT2Config
        from transformers.models.gpt2.modeling_gpt2 import GPT2Attention
    except ImportError as e:  # every test here fails with this message (not a skip, not a collection error)
        pytest.fail(f"chapter 8 and its tests need transformers ({e}); install the pinned requirements: "
                    "pip install -r requirements.txt (make setup)")




def fail_on(error: chapter_code.ChapterCodeError):
    pytest.fail(str(error))


@functools.cache
def chapter8(lang: str = "en") -> dict:
    """attention and MultiHeadAttention (chapter 6's cells, as chapter 8 carries them) and chapter 8's
    definitions, executed in one namespace."""
    markers = chapter_code.MHA_MARKERS + ("def redraw_(", "def port_gpt2(", "class GroupedQueryAttention",
                                          "def kv_cache_bytes(", "def empty_cache(")
    try:
        return chapter_code.load("08", markers, lang)
    except chapter_code.ChapterCodeError as e:
        fail_on(e)


def gpt2_block(C, H, seed, implementation="eager", redraw=True):
    """A small GPT2Attention; re-drawn as the chapter does (std C ** -0.5, biases included) unless
    redraw=False, which keeps Hugging Face's default initialisation (zero biases, weights std 0.02)."""
    torch.manual_seed(seed)
    config = GPT2Config(n_embd=C, n_head=H, n_positions=32, attn_pdrop=0.0, resid_pdrop=0.0,
                        attn_implementation=implementation)
    block = GPT2Attention(config, layer_idx=0).eval()
    if redraw:
        with torch.no_grad():
            chapter8()["redraw_"](block, C ** -0.5)
    return block


def additive_causal(T):
    allowed = torch.ones(T, T, dtype=torch.bool).tril()
    return torch.zeros(T, T).masked_fill(~allowed, float("-inf"))[None, None]    # (1, 1, T, T)


@pytest.mark.parametrize("C, H", GPT2_SIZES, ids=[f"C{c}-H{h}" for c, h in GPT2_SIZES])
def test_ported_class_equals_hugging_face_gpt2_attention(C, H):
    ns = chapter8()
    worst = 0.0
    for seed, T, batch in itertools.product((0, 1), LENGTHS, BATCHES):
        block = gpt2_block(C, H, seed)
        ours = ns["port_gpt2"](block, H)
        x = torch.randn(batch, T, C, generator=torch.Generator().manual_seed(seed + 10))
        with torch.no_grad():
            out_hf, w_hf = block(x, attention_mask=additive_causal(T))
            out = ours(x, x, x, is_causal=True)
        assert out.shape == out_hf.shape == (batch, T, C) and w_hf.shape == (batch, H, T, T)
        worst = max(worst, (out - out_hf).abs().max().item(), (ours.attn_weights - w_hf).abs().max().item())
    assert worst < ATOL, f"C={C}, H={H}: largest difference {worst:.3g}"


@pytest.mark.parametrize("C, H", GPT2_SIZES[:3], ids=[f"C{c}-H{h}" for c, h in GPT2_SIZES[:3]])
def test_ported_class_equals_the_sdpa_implementation_which_is_causal_by_itself(C, H):
    """With attn_implementation='sdpa' and no mask, GPT2Attention is causal on its own (is_causal)."""
    block = gpt2_block(C, H, 0, "sdpa")
    ours = chapter8()["port_gpt2"](block, H)
    x = torch.randn(3, 7, C, generator=torch.Generator().manual_seed(5))
    with torch.no_grad():
        assert torch.allclose(ours(x, x, x, is_causal=True), block(x)[0], atol=ATOL)


def test_the_eager_block_without_a_mask_is_not_causal():
    """The chapter's warning: a standalone eager GPT2Attention builds no mask; it attends everywhere."""
    block = gpt2_block(12, 3, 0)
    ours = chapter8()["port_gpt2"](block, 3)
    x = torch.randn(2, 5, 12, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        unmasked = block(x)[0]
        assert torch.allclose(unmasked, ours(x, x, x), atol=ATOL)
        assert not torch.allclose(unmasked, ours(x, x, x, is_causal=True), atol=ATOL)


def test_conv1d_stores_its_weight_as_in_out():
    block = gpt2_block(12, 3, 0)
    x = torch.randn(2, 5, 12)
    assert block.c_attn.weight.shape == (12, 36) and block.c_proj.weight.shape == (12, 12)
    with torch.no_grad():
        assert torch.allclose(block.c_attn(x), x @ block.c_attn.weight + block.c_attn.bias, atol=1e-6)
        assert torch.allclose(block.c_attn(x), F.linear(x, block.c_attn.weight.T, block.c_attn.bias), atol=1e-6)


@pytest.mark.parametrize("bug", ["c_proj not transposed", "c_attn reshaped"])
def test_a_wrong_port_is_caught(bug):
    """Forgetting the transpose of the square c_proj, or reshaping c_attn instead of transposing it,
    raises nothing and changes the values; the comparison above would fail."""
    block = gpt2_block(12, 3, 0)
    ours = chapter8()["port_gpt2"](block, 3)
    with torch.no_grad():
        if bug == "c_proj not transposed":
            ours.out_proj.weight.copy_(block.c_proj.weight)
        else:
            ours.in_proj.weight.copy_(block.c_attn.weight.reshape(36, 12))
        x = torch.randn(2, 5, 12, generator=torch.Generator().manual_seed(2))
        out_hf = block(x, attention_mask=additive_causal(5))[0]
        assert not torch.allclose(ours(x, x, x, is_causal=True), out_hf, atol=ATOL)


def wrong_gpt2_port(block, H, bug):
    """The notebook's port_gpt2 with one planted mistake that raises nothing: the shapes all fit."""
    ns = chapter8()
    C = block.c_attn.weight.shape[0]
    if bug == "no 1/sqrt(D) scale":
        base = ns["MultiHeadAttention"]

        class NoScale(base):
            def attend(self, q, k, v, mask):
                # scores = q @ k.T * sqrt(D) / sqrt(D): the scale is gone
                return ns["attention"](q * q.size(-1) ** 0.5, k, v, mask)

        layer = NoScale(C, H).eval()
        layer.load_state_dict(ns["port_gpt2"](block, H).state_dict())
        return layer
    layer = ns["port_gpt2"](block, H)
    with torch.no_grad():
        if bug == "both biases dropped":
            layer.in_proj.bias.zero_()
            layer.out_proj.bias.zero_()
        elif bug == "q/k/v biases in k, q, v order":
            b_q, b_k, b_v = block.c_attn.bias.split(C)
            layer.in_proj.bias.copy_(torch.cat([b_k, b_q, b_v]))
        else:
            raise ValueError(bug)
    return layer


WRONG_PORTS = ["both biases dropped", "q/k/v biases in k, q, v order", "no 1/sqrt(D) scale"]


def worst_difference(block, layer, T=5, batch=2, seed=2):
    """Largest difference of outputs and of per-head weights between the block and a port, causal mask."""
    C = block.c_attn.weight.shape[0]
    x = torch.randn(batch, T, C, generator=torch.Generator().manual_seed(seed))
    with torch.no_grad():
        out_hf, w_hf = block(x, attention_mask=additive_causal(T))
        out = layer(x, x, x, is_causal=True)
    return max((out - out_hf).abs().max().item(), (layer.attn_weights - w_hf).abs().max().item())


@pytest.mark.parametrize("bug", WRONG_PORTS)
@pytest.mark.parametrize("C, H", GPT2_SIZES[:3], ids=[f"C{c}-H{h}" for c, h in GPT2_SIZES[:3]])
def test_the_gpt2_comparison_fails_for_a_wrong_port(C, H, bug):
    """With the chapter's re-drawn parameters, each planted port differs by far more than the tolerance
    (measured: 0.25 to 1.8 for these sizes and seeds, against ATOL = 1e-5), outputs or weights."""
    for seed in (0, 1):
        block = gpt2_block(C, H, seed)
        assert worst_difference(block, wrong_gpt2_port(block, H, bug)) > 1000 * ATOL, (C, H, seed, bug)
        assert worst_difference(block, chapter8()["port_gpt2"](block, H)) < ATOL


@pytest.mark.parametrize("bug", WRONG_PORTS[:2])
def test_on_the_default_initialisation_the_bias_bugs_pass(bug):
    """Why the chapter re-draws: Hugging Face's Conv1D starts its biases at zero, so on the default
    initialisation a port that drops or reorders them agrees with the block within the tolerance."""
    block = gpt2_block(12, 3, 0, redraw=False)
    assert not block.c_attn.bias.any() and not block.c_proj.bias.any()
    assert worst_difference(block, wrong_gpt2_port(block, 3, bug)) < ATOL


def spread_of_last_rows(block, T=5):
    """Largest minus smallest weight in each head's last row (T keys; 0 if spread evenly)."""
    C = block.c_attn.weight.shape[0]
    x = torch.randn(2, T, C, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        _, w = block(x, attention_mask=additive_causal(T))
    last = w[:, :, -1]                                                      # (B, H, T)
    return last.max(dim=-1).values - last.min(dim=-1).values


def test_the_redrawn_block_attends_unevenly():
    """The re-drawn block's attention is far from uniform (every head's last row spreads by more than
    0.15; measured 0.17 to 0.67) and its biases are not small; Hugging Face's default block spreads each
    last row by less than 0.01 (measured below 0.005), the near-uniform attention the chapter avoids."""
    block = gpt2_block(12, 3, 0)
    assert (spread_of_last_rows(block) > 0.15).all()
    assert block.c_attn.bias.abs().max() > 0.3 and block.c_proj.bias.abs().max() > 0.3
    assert (spread_of_last_rows(gpt2_block(12, 3, 0, redraw=False)) < 0.01).all()


@pytest.mark.parametrize("implementation", ["eager", "sdpa"])
@pytest.mark.parametrize("C, H", GPT2_SIZES[:3], ids=[f"C{c}-H{h}" for c, h in GPT2_SIZES[:3]])
def test_decode_step_equals_the_cache_of_transformers(C, H, implementation):
    """The notebook's decode_step on the ported class against GPT2Attention fed a DynamicCache
    (past_key_values), one token at a time, 7 tokens; the cached lengths agree at every step."""
    from transformers import DynamicCache

    ns = dict(chapter8())
    try:
        exec(chapter_code.cell_source("08", "def decode_step("), ns)
    except chapter_code.ChapterCodeError as e:
        fail_on(e)
    block = gpt2_block(C, H, 1, implementation)
    ours = ns["port_gpt2"](block, H)
    x = torch.randn(2, 7, C, generator=torch.Generator().manual_seed(3))
    cache, hf_cache, worst = ns["empty_cache"](ours, 2), DynamicCache(), 0.0
    with torch.no_grad():
        for t in range(7):
            assert cache["k"].size(2) == hf_cache.get_seq_length() == t
            out = ns["decode_step"](ours, x[:, t:t + 1], cache)
            out_hf = block(x[:, t:t + 1], past_key_values=hf_cache)[0]
            worst = max(worst, (out - out_hf).abs().max().item())
    assert worst < ATOL, f"C={C}, H={H}, {implementation}: largest difference {worst:.3g}"


def sdpa_gqa_reference(layer, x, is_causal):
    """The same weights through PyTorch's enable_gqa, written here independently of the notebook."""
    B, T, C = x.shape
    H, H_kv = layer.n_head, layer.n_kv_head
    D = C // H
    y = F.linear(x, layer.qkv.weight, layer.qkv.bias)
    q, k, v = y[..., :C], y[..., C:C + H_kv * D], y[..., C + H_kv * D:]
    q = q.reshape(B, T, H, D).permute(0, 2, 1, 3)
    k = k.reshape(B, T, H_kv, D).permute(0, 2, 1, 3)
    v = v.reshape(B, T, H_kv, D).permute(0, 2, 1, 3)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, enable_gqa=True)    # (B, H, T, D)
    return F.linear(out.permute(0, 2, 1, 3).reshape(B, T, C), layer.out_proj.weight, layer.out_proj.bias)


@pytest.mark.parametrize("C, H, H_kv", GQA_SIZES, ids=[f"C{c}-H{h}-Hkv{k}" for c, h, k in GQA_SIZES])
def test_grouped_query_attention_equals_sdpa_enable_gqa(C, H, H_kv):
    GQA = chapter8()["GroupedQueryAttention"]
    worst = 0.0
    for seed, T, batch, causal in itertools.product((0, 1), LENGTHS, BATCHES, (True, False)):
        torch.manual_seed(seed)
        layer = GQA(C, H, H_kv)
        assert layer.qkv.weight.shape == (C + 2 * H_kv * (C // H), C)
        x = torch.randn(batch, T, C, generator=torch.Generator().manual_seed(seed + 20))
        with torch.no_grad():
            worst = max(worst, (layer(x, is_causal=causal) - sdpa_gqa_reference(layer, x, causal)).abs().max().item())
    assert worst < ATOL, f"C={C}, H={H}, H_kv={H_kv}: largest difference {worst:.3g}"


@pytest.mark.parametrize("C, H", [(12, 6), (8, 2), (16, 16)])
def test_grouped_query_attention_with_as_many_kv_heads_is_chapter_6s_class(C, H):
    ns = chapter8()
    torch.manual_seed(3)
    gqa = ns["GroupedQueryAttention"](C, H, H)
    mha = ns["MultiHeadAttention"](C, H).eval()
    mha.in_proj.load_state_dict(gqa.qkv.state_dict())
    mha.out_proj.load_state_dict(gqa.out_proj.state_dict())
    x = torch.randn(2, 6, C)
    with torch.no_grad():
        assert torch.allclose(mha(x, x, x, is_causal=True), gqa(x, is_causal=True), atol=ATOL)


@pytest.mark.parametrize("C, H, H_kv", GQA_SIZES[:5], ids=[f"C{c}-H{h}-Hkv{k}" for c, h, k in GQA_SIZES[:5]])
def test_grouped_query_attention_equals_llama_attention_without_rotation(C, H, H_kv):
    """The chapter's 'other layouts': Llama's separate q_proj/k_proj/v_proj (nn.Linear, biases on, re-drawn),
    joined with torch.cat into GroupedQueryAttention's qkv, equal LlamaAttention with RoPE rotating nothing
    (cos = 1, sin = 0), causal mask, within ATOL (measured 2.4e-7 at C=12, H=6, H_kv=2)."""
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaAttention

    ns = chapter8()
    config = LlamaConfig(hidden_size=C, num_attention_heads=H, num_key_value_heads=H_kv,
                         attention_bias=True, attn_implementation="eager")
    torch.manual_seed(4)
    with torch.no_grad():
        llama = ns["redraw_"](LlamaAttention(config, layer_idx=0).eval(), C ** -0.5)
        ported = ns["GroupedQueryAttention"](C, H, H_kv)
        ported.qkv.weight.copy_(torch.cat([llama.q_proj.weight, llama.k_proj.weight, llama.v_proj.weight]))
        ported.qkv.bias.copy_(torch.cat([llama.q_proj.bias, llama.k_proj.bias, llama.v_proj.bias]))
        ported.out_proj.load_state_dict(llama.o_proj.state_dict())
        x = torch.randn(2, 7, C, generator=torch.Generator().manual_seed(5))
        no_rotation = (torch.ones(2, 7, C // H), torch.zeros(2, 7, C // H))
        out_llama = llama(x, position_embeddings=no_rotation, attention_mask=additive_causal(7))[0]
        assert torch.allclose(ported(x, is_causal=True), out_llama, atol=ATOL)


def test_repeat_instead_of_repeat_interleave_is_caught():
    """The porting bug the chapter shows: the same shapes, other pairs of query and key/value heads."""
    source = chapter_code.cell_source("08", "class GroupedQueryAttention")
    planted = source.replace("k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)",
                             "k.repeat(1, group, 1, 1), v.repeat(1, group, 1, 1)")
    assert planted != source
    ns = dict(chapter8())
    exec(planted, ns)
    torch.manual_seed(0)
    layer = ns["GroupedQueryAttention"](12, 6, 2)
    x = torch.randn(2, 5, 12)
    with torch.no_grad():
        assert not torch.allclose(layer(x, is_causal=True), sdpa_gqa_reference(layer, x, True), atol=ATOL)


@pytest.mark.parametrize("d_model, n_head, n_kv_head", [(12, 5, 1), (12, 6, 4), (12, 6, 5)])
def test_grouped_query_attention_refuses_sizes_that_do_not_divide(d_model, n_head, n_kv_head):
    with pytest.raises(ValueError, match=rf"d_model={d_model}, n_head={n_head}, n_kv_head={n_kv_head}: "):
        chapter8()["GroupedQueryAttention"](d_model, n_head, n_kv_head)


def test_kv_cache_memory():
    kv = chapter8()["kv_cache_bytes"]
    assert kv(32, 32, 128, 4096) == 2 * 2**30                 # the chapter's multi-head row: 2 GiB
    assert kv(32, 8, 128, 4096) * 4 == kv(32, 32, 128, 4096) == 32 * kv(32, 1, 128, 4096)
    assert kv(24, 4, 128, 8192) == 384 * 2**20                 # the exercise's answer


@pytest.mark.parametrize("C, H, T", [(12, 3, 6), (8, 2, 1), (16, 4, 9), (12, 12, 5)])
def test_kv_cache_decoding_equals_the_full_causal_pass(C, H, T):
    ns = chapter8()
    try:
        ns = dict(ns)
        exec(chapter_code.cell_source("08", "def decode_step("), ns)
    except chapter_code.ChapterCodeError as e:
        fail_on(e)
    torch.manual_seed(T)
    layer = ns["MultiHeadAttention"](C, H).eval()
    x = torch.randn(2, T, C)
    with torch.no_grad():
        full = layer(x, x, x, is_causal=True)
        cache = ns["empty_cache"](layer, 2)
        steps = [ns["decode_step"](layer, x[:, t:t + 1], cache) for t in range(T)]
    assert torch.allclose(torch.cat(steps, dim=1), full, atol=ATOL)
    assert cache["k"].shape == cache["v"].shape == (2, H, T, C // H)


def code_without_comments(source: str) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(source + "\n").readline)
    return [(t.type, t.string) for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL)]


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("marker", chapter_code.MHA_MARKERS)
def test_chapter_8_holds_chapter_6_code(marker, lang):
    here = chapter_code.cell_source("08", marker, lang)
    there = chapter_code.cell_source("06", marker, lang)
    assert code_without_comments(here) == code_without_comments(there), (
        f"the cell with {marker!r} in chapter 8 ({lang}) differs from chapter 6's: copy chapter 6's cell into "
        "book/chapters/08_real_models.md and execute chapter 8 again")


@pytest.mark.parametrize("marker", ["def port_gpt2(", "class GroupedQueryAttention", "def decode_step("])
def test_korean_notebook_has_the_same_code(marker):
    assert (code_without_comments(chapter_code.cell_source("08", marker, "ko"))
            == code_without_comments(chapter_code.cell_source("08", marker, "en")))


NO_NETWORK = """
import socket

def refuse(*args, **kwargs):
    raise AssertionError(f"network access attempted: {args!r}")

socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse

import torch
from transformers import GPT2Config
from transformers.models.gpt2.modeling_gpt2 import GPT2Attention

config = GPT2Config(n_embd=12, n_head=3, attn_pdrop=0.0, resid_pdrop=0.0, attn_implementation="eager")
block = GPT2Attention(config, layer_idx=0).eval()
with torch.device("meta"):
    GPT2Attention(GPT2Config(attn_implementation="eager"), layer_idx=0)
print(tuple(block(torch.randn(2, 5, 12))[0].shape))
"""


def test_building_gpt2_attention_fetches_nothing():
    """What chapter 8 does with transformers, in a fresh interpreter where any socket connection raises,
    with the Hub's offline switch off: nothing is looked up or downloaded."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    result = subprocess.run([sys.executable, "-c", NO_NETWORK], capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().endswith("(2, 5, 12)")
