"""Chapter 10: attention in today's open models, re-proven on seeds, shapes and configs the chapter does not use.

The definitions are taken from notebooks/en/10_todays_models.ipynb by tools.chapter_code (their functions and
classes only), so the tests check the book's code, not a copy of it:
- scaled_inv_freq equals transformers' ROPE_INIT_FUNCTIONS (inv_freq within a relative 1e-6, attention_scaling
  exactly) for linear, dynamic (several lengths), yarn (with and without mscale, partial rotary, GPT-OSS's truncate
  false, an explicit attention_factor, a null factor) and llama3 on other published configs, and refuses a
  rope_type it does not port, naming the field (tests/test_ports.py holds the published configs of 21 more
  layers, half precision and the refusals);
- PortedAttention, set up by port_settings from a config, equals the attention module of Llama 3.1 (llama3
  scaling), Qwen2, Qwen3, GPT-NeoX, GPT-J, Gemma 3 (window and full layers) and Mistral (chunked prefill with a
  rolling cache) within ATOL, on other seeds, batch sizes, positions and windows, with every parameter drawn
  again (biases and norm weights not at their initial values) and attention far from uniform; each family's
  wrong ports differ by more than WRONG;
- LatentAttention equals DeepseekV3Attention, outputs and cache, on the real ranks and on smaller ones, and its
  three wrong ports fail;
- cache_bytes gives the sizes worked out by hand;
- typical wrong answers to the four exercises get the hint meant for them (as tests/test_wrong_answers.py does
  for the other chapters).
"""

from __future__ import annotations

import ast
import copy
import functools

import pytest
import torch
from test_wrong_answers import chapter_namespace, run_check

from tools import chapter_code

ATOL = 1e-4    # outputs of size ~10; measured differences are below 1e-5
WRONG = 1e-3   # ten times ATOL: what a wrong port must differ by
MARKERS = ("import copy", "def default_inv_freq(", "def inv_freq_linear(", "def scaled_inv_freq(",
           "def redraw_(", "def rotate_half(", "class KVCache", "class PortedAttention", "ELSEWHERE = {",
           "def port_settings(",
           "def neox_state(", "class NormAfterRotation", "class LatentAttention", "def port_mla(",
           "class RopeOnWrongPiece", "def cache_bytes(")
ASSIGNED = {"HUB = ": ("HUB", "CONFIGS"), "def port_mla(": ("RENAME", "MLA_READS"),
            "ELSEWHERE = {": ("ELSEWHERE", "SHARED", "READS", "CODE", "ROPE_READS", "NEEDS")}



@functools.cache
def chapter10() -> dict:
    """The chapter's functions, classes and imports (and the few constants they read), in a fresh namespace."""
    try:
        ns = chapter_namespace("10", MARKERS)
        for marker, names in ASSIGNED.items():
            tree = ast.parse(chapter_code.cell_source("10", marker))
            kept = [node for node in tree.body if isinstance(node, ast.Assign)
                    and any(getattr(t, "id", None) in names for t in node.targets)]
            exec(compile(ast.Module(body=kept, type_ignores=[]), f"<10 {marker}>", "exec"), ns)
    except chapter_code.ChapterCodeError as e:
        pytest.fail(str(e))
    return ns


def draw(module, std, seed):
    torch.manual_seed(seed)
    with torch.no_grad():
        chapter10()["redraw_"](module, std)
        for name, p in module.named_parameters():
            if "norm" in name:
                p.normal_(1.5, 0.5)
    return module.eval()


def peaked(weights) -> bool:
    return weights.max(dim=-1).values.mean().item() > 0.5


def differ(a, b) -> float:
    return (a - b).abs().max().item()


# --- RoPE scaling ----------------------------------------------------------------------------------------

def scaling_configs():
    from transformers import DeepseekV3Config, GPTNeoXConfig, GptOssConfig, LlamaConfig, Qwen2Config
    return [
        # Llama 3.2 1B: head_dim 64, factor 32
        ("llama3", LlamaConfig(hidden_size=2048, num_attention_heads=32, head_dim=64,
                               max_position_embeddings=131072,
                               rope_parameters={"rope_type": "llama3", "rope_theta": 500000.0, "factor": 32.0,
                                                "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                                "original_max_position_embeddings": 8192}), 0),
        # Qwen2.5 7B with the YaRN setting of its model card
        ("yarn", Qwen2Config(hidden_size=3584, num_attention_heads=28, num_key_value_heads=4,
                             max_position_embeddings=131072,
                             rope_parameters={"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 4.0,
                                              "original_max_position_embeddings": 32768}), 0),
        # DeepSeek-V2-Lite: yarn with mscale 0.707 and mscale_all_dim 0.707, on the 64 rotated features
        ("yarn", DeepseekV3Config(hidden_size=2048, num_attention_heads=16, qk_rope_head_dim=64,
                                  max_position_embeddings=163840,
                                  rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40.0,
                                                   "original_max_position_embeddings": 4096, "beta_fast": 32,
                                                   "beta_slow": 1, "mscale": 0.707, "mscale_all_dim": 0.707}),
         0),
        ("yarn", LlamaConfig(hidden_size=512, num_attention_heads=4, max_position_embeddings=65536,
                             rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0, "factor": 16.0,
                                              "original_max_position_embeddings": 4096, "mscale": 1.2,
                                              "mscale_all_dim": 0.8}), 0),
        ("linear", LlamaConfig(hidden_size=512, num_attention_heads=8,
                               rope_parameters={"rope_type": "linear", "rope_theta": 10000.0, "factor": 2.0}), 0),
        # partial rotary with a scaling: GPT-NeoX's layout, a quarter of each head
        ("linear", GPTNeoXConfig(hidden_size=512, num_attention_heads=8,
                                 rope_parameters={"rope_type": "linear", "rope_theta": 10000.0, "factor": 4.0,
                                                  "partial_rotary_factor": 0.25}), 0),
        *[("dynamic", LlamaConfig(hidden_size=4096, num_attention_heads=32, max_position_embeddings=4096,
                                  rope_parameters={"rope_type": "dynamic", "rope_theta": 10000.0, "factor": f}),
           length) for f, length in ((2.0, 100), (2.0, 4096), (2.0, 5000), (4.0, 30000))],
        # openai/gpt-oss-20b: yarn with truncate false (the ramp's borders not rounded to whole pairs)
        ("yarn", GptOssConfig(hidden_size=2880, num_attention_heads=64, num_key_value_heads=8, head_dim=64,
                              max_position_embeddings=131072,
                              rope_parameters={"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0,
                                               "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False,
                                               "original_max_position_embeddings": 4096}), 0),
        # an explicit attention_factor replaces the computed one; a null factor is max_position / original
        ("yarn", LlamaConfig(hidden_size=512, num_attention_heads=4, max_position_embeddings=65536,
                             rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0, "factor": 16.0,
                                              "original_max_position_embeddings": 4096,
                                              "attention_factor": 1.5}), 0),
        ("yarn", LlamaConfig(hidden_size=512, num_attention_heads=4, max_position_embeddings=32768,
                             rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0, "factor": None,
                                              "original_max_position_embeddings": 4096}), 0),
    ]


@pytest.mark.parametrize("index", range(13))
def test_scaled_frequencies_equal_transformers(index):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    kind, config, length = scaling_configs()[index]
    want, want_scaling = ROPE_INIT_FUNCTIONS[kind](config, seq_len=length or None)
    got, got_scaling = chapter10()["scaled_inv_freq"](config, None, length)
    assert got.shape == want.shape
    assert torch.allclose(got, want, rtol=1e-6, atol=0), (kind, (got / want - 1).abs().max().item())
    assert got_scaling == pytest.approx(want_scaling, rel=1e-12)


def test_ignoring_the_scaling_changes_the_frequencies():
    ns = chapter10()
    for kind, config, length in scaling_configs():
        if kind == "dynamic" and length <= config.max_position_embeddings:
            continue  # dynamic below the trained length is the default on purpose
        p = config.rope_parameters
        got, _ = ns["scaled_inv_freq"](config, None, length)
        plain = ns["default_inv_freq"](got.numel() * 2, p["rope_theta"])
        assert differ(got, plain) > 1e-4, kind


def test_a_rope_type_not_ported_is_refused_by_name():
    from transformers import LlamaConfig

    config = LlamaConfig(hidden_size=512, num_attention_heads=8, max_position_embeddings=131072)
    config.rope_parameters = {"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1.0] * 32,
                              "long_factor": [2.0] * 32, "original_max_position_embeddings": 4096}
    with pytest.raises(ValueError, match=r"rope_parameters\['rope_type'\] = 'longrope'"):
        chapter10()["scaled_inv_freq"](config)


def test_port_settings_reads_soft_capping_and_refuses_a_bidirectional_mask():
    from transformers import Gemma2Config

    config = Gemma2Config(hidden_size=256, num_attention_heads=4, num_key_value_heads=2, head_dim=64)
    assert chapter10()["port_settings"](config)["softcap"] == 50.0
    config.use_bidirectional_attention = True
    with pytest.raises(ValueError, match="use_bidirectional_attention = True"):
        chapter10()["port_settings"](config)


# --- one port per family ---------------------------------------------------------------------------------

def eager(config):
    config = copy.deepcopy(config)
    config._attn_implementation = "eager"
    return config


def causal(config, x, positions, cache=None, sliding=False):
    from transformers.masking_utils import create_causal_mask, create_sliding_window_causal_mask

    make = create_sliding_window_causal_mask if sliding else create_causal_mask
    return make(config, x, None, cache, positions)


def family(name, seed):
    """(config, reference, run_reference(x, positions), port, wrong ports) of one family, on sizes of its own."""
    from transformers import (
        Gemma3TextConfig,
        GPTJConfig,
        GPTNeoXConfig,
        LlamaConfig,
        MistralConfig,
        Qwen2Config,
        Qwen3Config,
    )
    from transformers.models.gemma3 import modeling_gemma3 as gemma3
    from transformers.models.gpt_neox import modeling_gpt_neox as neox
    from transformers.models.gptj.modeling_gptj import GPTJAttention
    from transformers.models.llama import modeling_llama as llama
    from transformers.models.mistral import modeling_mistral as mistral
    from transformers.models.qwen2 import modeling_qwen2 as qwen2
    from transformers.models.qwen3 import modeling_qwen3 as qwen3

    ns = chapter10()
    Port, settings_of = ns["PortedAttention"], ns["port_settings"]
    if name == "llama3.1":
        config = eager(LlamaConfig(hidden_size=96, num_attention_heads=6, num_key_value_heads=2, head_dim=32,
                                   max_position_embeddings=131072, rope_parameters={
                                       "rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
                                       "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                       "original_max_position_embeddings": 8192}))
        reference = draw(llama.LlamaAttention(config, 0), 0.2, seed)
        rotary = llama.LlamaRotaryEmbedding(config)
        wrong = {"scaling ignored": {"inv_freq": ns["default_inv_freq"](32, 500000.0)}}
    elif name == "qwen2":
        config = eager(Qwen2Config(hidden_size=96, num_attention_heads=6, num_key_value_heads=2,
                                   rope_parameters={"rope_type": "default", "rope_theta": 1000000.0}))
        reference = draw(qwen2.Qwen2Attention(config, 0), 0.2, seed)
        rotary = qwen2.Qwen2RotaryEmbedding(config)
        wrong = {"no q/k/v biases": {"qkv_bias": False}}
    elif name == "qwen3":
        config = eager(Qwen3Config(hidden_size=64, num_attention_heads=4, num_key_value_heads=2, head_dim=32,
                                   rope_parameters={"rope_type": "default", "rope_theta": 1000000.0}))
        reference = draw(qwen3.Qwen3Attention(config, 0), 0.2, seed)
        rotary = qwen3.Qwen3RotaryEmbedding(config)
        wrong = {"norm after the rotation": {"class": ns["NormAfterRotation"]}, "no norm": {"qk_norm": None}}
    elif name == "neox":
        config = eager(GPTNeoXConfig(hidden_size=96, num_attention_heads=3, rotary_pct=0.5, rotary_emb_base=500))
        reference = draw(neox.GPTNeoXAttention(config, 0), 0.15, seed)
        rotary = neox.GPTNeoXRotaryEmbedding(config)
        wrong = {"whole head rotated": {"inv_freq": ns["default_inv_freq"](32, 500.0)}}
    elif name == "gptj":
        config = eager(GPTJConfig(n_embd=96, n_head=3, rotary_dim=8, n_positions=64))
        reference = draw(GPTJAttention(config, 0), 0.2, seed)
        rotary = None
        wrong = {"two halves": {"pairing": "halves"}}
    elif name in ("gemma3-window", "gemma3-full"):
        config = eager(Gemma3TextConfig(hidden_size=64, num_attention_heads=4, num_key_value_heads=2, head_dim=32,
                                        query_pre_attn_scalar=24, sliding_window=5, rope_parameters={
                                            "full_attention": {"rope_type": "linear", "factor": 4.0,
                                                               "rope_theta": 1000000.0},
                                            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}))
        idx = 0 if name == "gemma3-window" else 5
        reference = draw(gemma3.Gemma3Attention(config, idx), 0.2, seed)
        rotary = gemma3.Gemma3RotaryEmbedding(config)
        wrong = {"head_dim ** -0.5": {"scale": 32 ** -0.5}, "weight, not 1 + weight": {"qk_norm": "weight"}}
        if idx == 0:
            wrong["no window"] = {"window": None}
        else:
            wrong["the window layers' base"] = {"inv_freq": ns["default_inv_freq"](32, 10000.0)}
    elif name == "mistral":
        config = eager(MistralConfig(hidden_size=64, num_attention_heads=4, num_key_value_heads=1, head_dim=32,
                                     sliding_window=6, num_hidden_layers=1,
                                     rope_parameters={"rope_type": "default", "rope_theta": 10000.0}))
        reference = draw(mistral.MistralAttention(config, 0), 0.25, seed)
        rotary = mistral.MistralRotaryEmbedding(config)
        wrong = {"no window": {"window": None}}
    layer_idx = getattr(reference, "layer_idx", 0)
    settings = settings_of(config, layer_idx)
    state = reference.state_dict()
    if name == "neox":
        state = ns["neox_state"](reference.state_dict(), 3, 32)
    elif name == "gptj":
        state = {k.replace("out_proj", "o_proj"): v for k, v in state.items()}

    def build(changes):
        changes = dict(changes)
        cls = changes.pop("class", Port)
        layer = cls(**{**settings, **changes})
        # a wrong port may leave weights out (biases, norms), never miss one it has
        missing, unexpected = layer.load_state_dict(state, strict=not changes)
        assert not missing, missing
        return layer

    layer_type = config.layer_types[layer_idx] if getattr(config, "layer_types", None) else None
    sliding = settings["window"] is not None

    def run_reference(x, positions, cache=None):
        mask = causal(config, x, positions, cache, sliding)
        if name == "gptj":
            return reference(x, attention_mask=mask, position_ids=positions)
        if name == "neox":
            return reference(x, mask, position_embeddings=rotary(x, positions))
        cos_sin = rotary(x, positions, layer_type) if name.startswith("gemma3") else rotary(x, positions)
        return reference(x, cos_sin, mask, past_key_values=cache)

    run_reference.module = reference
    return config, run_reference, build({}), {k: build(v) for k, v in wrong.items()}


FAMILIES = ["llama3.1", "qwen2", "qwen3", "neox", "gptj", "gemma3-window", "gemma3-full", "mistral"]


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize("name", FAMILIES)
def test_each_family_port_equals_its_module_and_wrong_ports_fail(name, seed):
    from transformers import DynamicCache

    config, run_reference, port, wrong = family(name, seed)
    torch.manual_seed(100 + seed)
    B, T = 3, 12
    x = torch.randn(B, T, config.hidden_size)
    # contiguous positions span distances of at most T - 1 wherever they start, and RoPE scores depend on distances
    # only: llama3's scaling at long distances is proven on spread positions in tests/test_ports.py (Llama 3.2 1B)
    start = 17
    positions = torch.arange(start, start + T).expand(B, T)
    with torch.no_grad():
        if name == "mistral":
            # a chunked prefill past the window, with transformers' sliding cache and the chapter's rolling one
            hf_cache, cache = DynamicCache(config=config), chapter10()["KVCache"](window=6)
            full = {k: chapter10()["KVCache"]() for k in wrong}
            for a, b in ((0, 4), (4, 9), (9, 10), (10, 12)):
                want, weights = run_reference(x[:, a:b], positions[:, a:b], hf_cache)
                got = port(x[:, a:b], positions[:, a:b], cache=cache)
                outs = {k: w(x[:, a:b], positions[:, a:b], cache=full[k]) for k, w in wrong.items()}
                assert differ(got, want) < ATOL, (a, b)
                assert len(cache) <= 6
        else:
            want, weights = run_reference(x, positions)
            got = port(x, positions)
            outs = {k: w(x, positions) for k, w in wrong.items()}
    assert peaked(weights), f"{name}: attention too uniform for a meaningful comparison"
    assert differ(got, want) < ATOL, f"{name}: port differs by {differ(got, want):.3g}"
    for k, out in outs.items():
        assert differ(out, want) > WRONG, f"{name}: the wrong port '{k}' passes ({differ(out, want):.3g})"


def test_norm_after_rotation_passes_with_norm_weights_of_one():
    """Why the norm weights are drawn again: with ones, QK-norm after the rotation gives the same values."""
    config, run_reference, port, wrong = family("qwen3", 3)
    after = wrong["norm after the rotation"]
    x, positions = torch.randn(2, 6, config.hidden_size), torch.arange(6).expand(2, 6)
    with torch.no_grad():
        assert differ(after(x, positions), run_reference(x, positions)[0]) > WRONG   # drawn weights: it fails
        for layer in (run_reference.module, after):
            for name, p in layer.named_parameters():
                if "norm" in name:
                    p.fill_(1.0)
        # compared with transformers' Qwen3Attention, not with the chapter's own port
        assert differ(after(x, positions), run_reference(x, positions)[0]) < ATOL


# --- multi-head latent attention -------------------------------------------------------------------------

@pytest.mark.parametrize(("heads", "q_rank", "kv_rank", "nope", "rope", "v", "std", "seed"), [
    (2, 1536, 512, 128, 64, 128, 0.1, 21),     # DeepSeek-V3's ranks and widths
    (3, 48, 32, 16, 8, 12, 0.4, 22),           # smaller, v_head_dim apart from qk_nope_head_dim
])
def test_latent_attention_equals_deepseek_v3_with_its_cache(heads, q_rank, kv_rank, nope, rope, v, std, seed):
    from transformers import DeepseekV3Config, DynamicCache
    from transformers.models.deepseek_v3 import modeling_deepseek_v3 as deepseek_v3

    ns = chapter10()
    config = eager(DeepseekV3Config(
        hidden_size=64, num_attention_heads=heads, num_key_value_heads=heads, num_hidden_layers=1,
        q_lora_rank=q_rank, kv_lora_rank=kv_rank, qk_rope_head_dim=rope, qk_nope_head_dim=nope, v_head_dim=v,
        max_position_embeddings=163840,
        rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40.0,
                         "original_max_position_embeddings": 4096, "beta_fast": 32, "beta_slow": 1,
                         "mscale": 1.0, "mscale_all_dim": 1.0}))
    reference = draw(deepseek_v3.DeepseekV3Attention(config, 0), std, seed)
    port = ns["port_mla"](config, reference)
    halves = ns["port_mla"](config, reference)
    halves.order = torch.arange(rope)
    wrong = {"front": ns["port_mla"](config, reference, ns["RopeOnWrongPiece"]), "halves": halves,
             "no mscale": ns["port_mla"](config, reference, scale=(nope + rope) ** -0.5)}
    rotary = deepseek_v3.DeepseekV3RotaryEmbedding(config)
    torch.manual_seed(seed)
    x = torch.randn(3, 9, 64)
    hf_cache, cache = DynamicCache(config=config), ns["KVCache"]()
    caches = {k: ns["KVCache"]() for k in wrong}
    with torch.no_grad():
        for a, b in ((0, 5), (5, 6), (6, 9)):
            where = torch.arange(300 + a, 300 + b).expand(3, -1)
            mask = causal(config, x[:, a:b], where, hf_cache)
            want, weights = reference(x[:, a:b], rotary(x[:, a:b], where), mask, past_key_values=hf_cache)
            got = port(x[:, a:b], where, cache=cache)
            assert differ(got, want) < ATOL
            assert torch.allclose(cache.k, hf_cache.layers[0].keys, atol=1e-5)
            assert torch.allclose(cache.v, hf_cache.layers[0].values, atol=1e-5)
            outs = {k: w(x[:, a:b], where, cache=caches[k]) for k, w in wrong.items()}
    assert cache.k.shape == (3, 1, 9, kv_rank) and cache.v.shape == (3, 1, 9, rope)
    assert peaked(weights)
    for k, out in outs.items():
        assert differ(out, want) > WRONG, k


# --- the cache ---------------------------------------------------------------------------------------------

def test_cache_bytes_match_the_sizes_worked_out_by_hand():
    ns = chapter10()
    configs, cache_bytes = ns["CONFIGS"], ns["cache_bytes"]
    T = 128 * 1024
    assert cache_bytes(configs["meta-llama/Llama-2-7b-hf"], T) == 2 * 32 * 32 * 128 * 2 * T
    assert cache_bytes(configs["meta-llama/Llama-3.1-8B"], T) == 2 * 32 * 8 * 128 * 2 * T
    assert cache_bytes(configs["google/gemma-2b"], T) == 2 * 18 * 1 * 256 * 2 * T
    assert cache_bytes(configs["mistralai/Mistral-7B-v0.1"], T) == 2 * 32 * 8 * 128 * 2 * 4096
    per_layer = 2 * 16 * 128 * 2
    assert cache_bytes(configs["google/gemma-3-27b-it"], T) == per_layer * (10 * T + 52 * 1024)
    assert cache_bytes(configs["deepseek-ai/DeepSeek-V3"], T) == 61 * (512 + 64) * 2 * T
    assert cache_bytes(configs["mistralai/Mistral-7B-v0.1"], 100) == 2 * 32 * 8 * 128 * 2 * 100


# --- the exercises: typical wrong answers get their hint ---------------------------------------------------

CHECK = "def check("
ROPE = ("def rotate_half(", CHECK)
CASES = {
    "ch10-ex-llama3": {"needs": (CHECK,), "answers": [
        ("right, with torch.where", """
def llama3_inv_freq(inv_freq, factor, low, high, original):
    wavelength = 2 * math.pi / inv_freq
    smooth = (original / wavelength - low) / (high - low)
    mixed = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = torch.where(wavelength > original / low, inv_freq / factor, mixed)
    return torch.where(wavelength < original / high, inv_freq, out)
""", None),
        ("linear", "def llama3_inv_freq(inv_freq, factor, low, high, original):\n    return inv_freq / factor\n",
         {"ko": "위치 보간", "en": "position interpolation"}),
        ("unchanged", "def llama3_inv_freq(inv_freq, factor, low, high, original):\n    return inv_freq\n",
         {"ko": "바뀐 짝이 없습니다", "en": "no pair changed"}),
        ("hard switch", """
def llama3_inv_freq(inv_freq, factor, low, high, original):
    wavelength = 2 * math.pi / inv_freq
    return torch.where(wavelength > original / low, inv_freq / factor, inv_freq)
""", {"ko": "섞지 않았습니다", "en": "are not mixed"}),
        ("the template", "def llama3_inv_freq(inv_freq, factor, low, high, original):\n    ...\n",
         {"ko": "아직 답이 없습니다", "en": "No answer yet"}),
    ]},
    "ch10-ex-yarn": {"needs": (CHECK,), "answers": [
        ("right", "answer_attention_scaling = 1.1386\nanswer_score_factor = 1.2965\n", None),
        ("log10", "answer_attention_scaling = 1.0602\nanswer_score_factor = 1.124\n",
         {"ko": "자연로그", "en": "natural one"}),
        ("not squared", "answer_attention_scaling = 1.1386\nanswer_score_factor = 1.1386\n",
         {"ko": "제곱", "en": "its square"}),
        ("no scaling", "answer_attention_scaling = 1.0\nanswer_score_factor = 1.0\n",
         {"ko": "0.1 ln(factor) + 1", "en": "0.1 ln(factor) + 1"}),
        ("score wrong only", "answer_attention_scaling = 1.1386\nanswer_score_factor = 2.2772\n",
         {"ko": "두 배가 아니라 제곱만큼", "en": "the score grows by the square, not twice"}),
    ]},
    "ch10-ex-qk-norm": {"needs": ROPE, "answers": [
        ("right, with the halves written out", """
def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):
    B, T, _ = q_flat.shape
    q = q_norm(q_flat.reshape(B, T, -1, d_head)).transpose(1, 2)
    k = k_norm(k_flat.reshape(B, T, -1, d_head)).transpose(1, 2)
    def turn(x):
        x1, x2 = x.chunk(2, dim=-1)
        return x * cos + torch.cat([-x2, x1], dim=-1) * sin
    return turn(q), turn(k)
""", None),
        ("the template: norm after the rotation", """
def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):
    B, T, _ = q_flat.shape
    q = q_flat.view(B, T, -1, d_head).transpose(1, 2)
    k = k_flat.view(B, T, -1, d_head).transpose(1, 2)
    q, k = rope_halves(q, cos, sin), rope_halves(k, cos, sin)
    return q_norm(q), k_norm(k)
""", {"ko": "회전한 뒤에 정규화", "en": "normalises after the rotation"}),
        ("no norm", """
def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):
    B, T, _ = q_flat.shape
    q = q_flat.view(B, T, -1, d_head).transpose(1, 2)
    k = k_flat.view(B, T, -1, d_head).transpose(1, 2)
    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)
""", {"ko": "정규화가 빠졌습니다", "en": "q: not normalised; k: not normalised"}),
        ("a redefined helper that turns the wrong way", """
def rope_halves(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat([x2, -x1], dim=-1) * sin

def qwen3_heads(q_flat, k_flat, q_norm, k_norm, cos, sin, d_head):
    B, T, _ = q_flat.shape
    q = q_norm(q_flat.view(B, T, -1, d_head)).transpose(1, 2)
    k = k_norm(k_flat.view(B, T, -1, d_head)).transpose(1, 2)
    return rope_halves(q, cos, sin), rope_halves(k, cos, sin)
""", {"ko": "apply_rotary_pos_emb", "en": "apply_rotary_pos_emb"}),
    ]},
    "ch10-ex-mla-bytes": {"needs": (CHECK,), "answers": [
        ("right", "answer_mla_bytes = 31104\nanswer_expanded_bytes = 276480\n", None),
        ("no rope part", "answer_mla_bytes = 27 * 512 * 2\nanswer_expanded_bytes = 276480\n",
         {"ko": "회전한 공유 키", "en": "rotated shared key"}),
        ("one layer", "answer_mla_bytes = 576 * 2\nanswer_expanded_bytes = 276480\n",
         {"ko": "레이어 27개", "en": "27 layers"}),
        ("float32", "answer_mla_bytes = 27 * 576 * 4\nanswer_expanded_bytes = 276480\n",
         {"ko": "float32", "en": "4 bytes per value (float32)"}),
        ("a latent per head", "answer_mla_bytes = 27 * 16 * 576 * 2\nanswer_expanded_bytes = 276480\n",
         {"ko": "헤드마다가 아니라", "en": "not one per head"}),
        ("expanded without the rope part", "answer_mla_bytes = 31104\nanswer_expanded_bytes = 27 * 16 * 256 * 2\n",
         {"ko": "128 + 64", "en": "128 + 64"}),
    ]},
}


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("label", "name"), [(label, a[0]) for label, case in CASES.items() for a in case["answers"]])
def test_a_typical_answer_gets_the_message_meant_for_it(label, name, lang):
    case = CASES[label]
    _, answer, words = next(a for a in case["answers"] if a[0] == name)
    said = run_check("10", label, case, answer, lang)
    if words is None:
        assert said.startswith("✅"), f"{label} ({lang}), {name}: a right answer was refused: {said!r}"
    else:
        assert said.startswith("❌"), f"{label} ({lang}), {name}: a wrong answer passed: {said!r}"
        assert words[lang] in said, f"{label} ({lang}), {name}: the message misses {words[lang]!r}: {said!r}"
