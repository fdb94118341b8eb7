"""Chapter 10's checklist on published configs: each one ported equal to its model's own attention module in
float32, bfloat16 and float16 (wrong ports failing), or refused by name before a weight is made.

Each config holds the values of the model's config.json on the Hugging Face Hub (the URL in the comment; YaRN
blocks from the model cards where the file has none), except the sizes a proof does not depend on: the model
width, the number of heads (each head computes the same way; groups of query heads per key/value head are kept)
and windows longer than a few hundred tokens (the window is proven applied, as Mistral's 4096 is at full size in
the chapter). head_dim, bases, scalings, scales, multipliers, soft caps, partial rotary, biases, norms and
pairings are the published ones. Weights are random, norm weights drawn away from their initial values.

Tolerances: float32 outputs (size ~1-10) agree within ATOL = 1e-4 (float32 keeps ~7 digits; sums of a few hundred
terms in another order move the 6th). In bfloat16 (8 significant bits, a relative step of 2**-8 = 0.4%) every
projection, the rotation and the weighted sum round their results again; the port and the module round at the
same places but may add in other orders, so they agree within BF16 = 3% of the output's largest value (measured:
at most 0.51%). float16 (11 significant bits) is held to the same bound. A wrong port must differ by more than WRONG = 10 x ATOL in float32.
"""

from __future__ import annotations

import copy

import pytest
import torch
from test_today import chapter10, draw, eager

ATOL, WRONG, BF16 = 1e-4, 1e-3, 3e-2
HUB = "https://huggingface.co/{}/blob/main/config.json"


def llama32_1b():
    from transformers import LlamaConfig
    # meta-llama/Llama-3.2-1B: hidden 2048, 32 heads, 8 kv heads, head_dim 64, rope llama3 (theta 500000,
    # factor 32, low 1, high 4, original 8192), max_position_embeddings 131072
    return LlamaConfig(hidden_size=128, num_attention_heads=8, num_key_value_heads=2, head_dim=64,
                       max_position_embeddings=131072, rms_norm_eps=1e-5,
                       rope_parameters={"rope_type": "llama3", "rope_theta": 500000.0, "factor": 32.0,
                                        "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                        "original_max_position_embeddings": 8192})


def cases():
    """name -> (config, reference class path, wrong ports: name -> changes to the settings, spread positions?)"""
    from transformers import (
        CohereConfig,
        Gemma2Config,
        Gemma3TextConfig,
        GPTJConfig,
        GPTNeoXConfig,
        GptOssConfig,
        GraniteConfig,
        MistralConfig,
        Olmo2Config,
        Phi3Config,
        PhiConfig,
        Qwen2Config,
        Qwen3Config,
        Qwen3MoeConfig,
        StableLmConfig,
    )
    ns = chapter10()
    inv = ns["default_inv_freq"]
    return {
        "Llama 3.2 1B": (llama32_1b(), "llama.LlamaAttention",
                         {"llama3 scaling ignored": {"inv_freq": inv(64, 500000.0)}}, True),
        # Qwen/Qwen2.5-7B-Instruct: hidden 3584, 28 heads, 4 kv heads (head_dim 128), theta 1e6; its model card's
        # YaRN for 131072 tokens: factor 4, original_max_position_embeddings 32768
        "Qwen2.5 7B + YaRN": (Qwen2Config(hidden_size=896, num_attention_heads=7, num_key_value_heads=1,
                                          max_position_embeddings=131072, rms_norm_eps=1e-6,
                                          rope_parameters={"rope_type": "yarn", "rope_theta": 1000000.0,
                                                           "factor": 4.0,
                                                           "original_max_position_embeddings": 32768}),
                              "qwen2.Qwen2Attention",
                              {"YaRN ignored": {"inv_freq": inv(128, 1e6), "attention_scaling": 1.0},
                               "no q/k/v biases": {"qkv_bias": False}}, True),
        # Qwen/Qwen3-8B: head_dim 128, 32 heads, 8 kv heads, theta 1e6, rms_norm_eps 1e-6
        "Qwen3 8B": (Qwen3Config(hidden_size=128, num_attention_heads=4, num_key_value_heads=1, head_dim=128,
                                 rms_norm_eps=1e-6,
                                 rope_parameters={"rope_type": "default", "rope_theta": 1000000.0}),
                     "qwen3.Qwen3Attention",
                     {"norm after the rotation": {"class": "NormAfterRotation"}, "no norm": {"qk_norm": None}},
                     False),
        # Qwen/Qwen3-30B-A3B: hidden 2048, 32 heads, 4 kv heads, head_dim 128, theta 1e6
        "Qwen3-MoE 30B-A3B": (Qwen3MoeConfig(hidden_size=128, num_attention_heads=8, num_key_value_heads=1,
                                             head_dim=128, rms_norm_eps=1e-6,
                                             rope_parameters={"rope_type": "default", "rope_theta": 1e6}),
                              "qwen3_moe.Qwen3MoeAttention", {"no norm": {"qk_norm": None}}, False),
        # mistralai/Mistral-Nemo-Base-2407: hidden 5120, 32 heads, 8 kv heads, head_dim 128 (H * D = 4096, not
        # 5120), theta 1e6, sliding_window null
        "Mistral-Nemo 12B": (MistralConfig(hidden_size=320, num_attention_heads=4, num_key_value_heads=1,
                                           head_dim=128, sliding_window=None, rms_norm_eps=1e-5,
                                           rope_parameters={"rope_type": "default", "rope_theta": 1e6}),
                             "mistral.MistralAttention", {"theta 10000": {"inv_freq": inv(128, 10000.0)}}, False),
        # google/gemma-2-27b: hidden 4608, 32 heads, 16 kv heads, head_dim 128, query_pre_attn_scalar 144,
        # attn_logit_softcapping 50, sliding_window 4096 (here 7), alternating sliding/full layers
        **{f"Gemma 2 27B, layer {i}": (
            Gemma2Config(hidden_size=128, num_attention_heads=2, num_key_value_heads=1, head_dim=128,
                         query_pre_attn_scalar=144, attn_logit_softcapping=50.0, sliding_window=7,
                         num_hidden_layers=2, rms_norm_eps=1e-6,
                         rope_parameters={"rope_type": "default", "rope_theta": 10000.0}),
            "gemma2.Gemma2Attention",
            {"no soft cap": {"softcap": None}, "head_dim ** -0.5": {"scale": 128 ** -0.5},
             **({"no window": {"window": None}} if i == 0 else {})}, False) for i in (0, 1)},
        # google/gemma-3-1b-pt: hidden 1152, 4 heads, 1 kv head, head_dim 256, query_pre_attn_scalar 256,
        # sliding_window 512 (here 7), rope_theta 1e6 (full), rope_local_base_freq 10000 (sliding)
        **{f"Gemma 3 1B, layer {i}": (
            Gemma3TextConfig(hidden_size=128, num_attention_heads=1, num_key_value_heads=1, head_dim=256,
                             query_pre_attn_scalar=256, sliding_window=7, num_hidden_layers=6,
                             rms_norm_eps=1e-6, rope_parameters={
                                 "full_attention": {"rope_type": "default", "rope_theta": 1000000.0},
                                 "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}),
            "gemma3.Gemma3Attention", {"weight, not 1 + weight": {"qk_norm": "weight"},
                                       **({"no window": {"window": None}} if i == 0 else
                                          {"the window layers' base": {"inv_freq": inv(256, 10000.0)}})},
            False) for i in (0, 5)},
        # allenai/OLMo-2-1124-7B: hidden 4096, 32 heads, 32 kv heads (head_dim 128), theta 500000, rms 1e-6
        "OLMo 2 7B": (Olmo2Config(hidden_size=256, num_attention_heads=2, num_key_value_heads=2,
                                  rms_norm_eps=1e-6,
                                  rope_parameters={"rope_type": "default", "rope_theta": 500000.0}),
                      "olmo2.Olmo2Attention", {"no norm": {"qk_norm": None}}, False),
        # CohereForAI/c4ai-command-r-plus: hidden 12288, 96 heads, 8 kv heads (head_dim 128), theta 75e6,
        # use_qk_norm true, layer_norm_eps 1e-5
        "Command R+": (CohereConfig(hidden_size=384, num_attention_heads=3, num_key_value_heads=1,
                                    use_qk_norm=True, layer_norm_eps=1e-5,
                                    rope_parameters={"rope_type": "default", "rope_theta": 75000000.0}),
                       "cohere.CohereAttention",
                       {"two halves": {"pairing": "halves"}, "no norm": {"qk_norm": None}}, False),
        # CohereForAI/c4ai-command-r-v01: hidden 8192, 64 heads, 64 kv heads, theta 8e6, use_qk_norm false
        "Command R": (CohereConfig(hidden_size=256, num_attention_heads=2, num_key_value_heads=2,
                                   use_qk_norm=False, layer_norm_eps=1e-5,
                                   rope_parameters={"rope_type": "default", "rope_theta": 8000000.0}),
                      "cohere.CohereAttention", {"two halves": {"pairing": "halves"}}, False),
        # stabilityai/stablelm-2-12b: hidden 5120, 32 heads, 8 kv heads (head_dim 160), partial_rotary 0.25,
        # qk_layernorm true, use_qkv_bias false, layer_norm_eps 1e-5
        "StableLM 2 12B": (StableLmConfig(hidden_size=640, num_attention_heads=4, num_key_value_heads=1,
                                          qk_layernorm=True, use_qkv_bias=False, layer_norm_eps=1e-5,
                                          rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                                           "partial_rotary_factor": 0.25}),
                           "stablelm.StableLmAttention",
                           {"no norm": {"qk_norm": None},
                            "whole head rotated": {"inv_freq": inv(160, 10000.0)}}, False),
        # stabilityai/stablelm-2-1_6b: hidden 2048, 32 heads (head_dim 64), partial_rotary 0.25, use_qkv_bias true
        "StableLM 2 1.6B": (StableLmConfig(hidden_size=256, num_attention_heads=4, num_key_value_heads=4,
                                           qk_layernorm=False, use_qkv_bias=True, layer_norm_eps=1e-5,
                                           rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                                            "partial_rotary_factor": 0.25}),
                            "stablelm.StableLmAttention", {"no q/k/v biases": {"qkv_bias": False}}, False),
        # microsoft/phi-2: hidden 2560, 32 heads (head_dim 80), partial_rotary_factor 0.4, theta 10000
        "Phi-2": (PhiConfig(hidden_size=160, num_attention_heads=2, num_key_value_heads=2,
                            rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                             "partial_rotary_factor": 0.4}),
                  "phi.PhiAttention", {"whole head rotated": {"inv_freq": inv(80, 10000.0)},
                                       "no output bias": {"out_bias": False}}, False),
        # microsoft/Phi-3-mini-4k-instruct: hidden 3072, 32 heads (head_dim 96), sliding_window 2047 (here 7),
        # theta 10000, rope_scaling null
        "Phi-3 mini 4k": (Phi3Config(hidden_size=192, num_attention_heads=2, num_key_value_heads=2,
                                     sliding_window=7, rms_norm_eps=1e-5,
                                     rope_parameters={"rope_type": "default", "rope_theta": 10000.0}),
                          "phi3.Phi3Attention", {"no window": {"window": None}}, False),
        # EleutherAI/gpt-neox-20b: hidden 6144, 64 heads (head_dim 96), rotary_pct 0.25, base 10000
        "GPT-NeoX 20B": (GPTNeoXConfig(hidden_size=192, num_attention_heads=2, rotary_pct=0.25,
                                       rotary_emb_base=10000, layer_norm_eps=1e-5),
                         "gpt_neox.GPTNeoXAttention", {"whole head rotated": {"inv_freq": inv(96, 10000.0)}},
                         False),
        # EleutherAI/gpt-j-6b: n_embd 4096, 16 heads (head_dim 256), rotary_dim 64
        "GPT-J 6B": (GPTJConfig(n_embd=512, n_head=2, rotary_dim=64, n_positions=2048),
                     "gptj.GPTJAttention", {"two halves": {"pairing": "halves"}}, False),
        # ibm-granite/granite-3.0-8b-instruct: hidden 4096, 32 heads, 8 kv heads (head_dim 128),
        # attention_multiplier 0.0078125, theta 10000 (embedding/residual multipliers and logits_scaling act
        # outside attention)
        "Granite 3.0 8B": (GraniteConfig(hidden_size=512, num_attention_heads=4, num_key_value_heads=1,
                                         attention_multiplier=0.0078125, embedding_multiplier=12.0,
                                         residual_multiplier=0.22, logits_scaling=16.0, rms_norm_eps=1e-5,
                                         rope_parameters={"rope_type": "default", "rope_theta": 10000.0}),
                           "granite.GraniteAttention", {"head_dim ** -0.5": {"scale": 128 ** -0.5}}, False),
        # openai/gpt-oss-20b: hidden 2880, 64 heads, 8 kv heads, head_dim 64, sliding_window 128 alternating
        # with full layers, attention_bias true, rope yarn (theta 150000, factor 32, beta_fast 32, beta_slow 1,
        # truncate false, original 4096), max_position_embeddings 131072
        **{f"GPT-OSS 20B, layer {i}": (
            GptOssConfig(hidden_size=128, num_attention_heads=8, num_key_value_heads=1, head_dim=64,
                         sliding_window=128, num_hidden_layers=2, max_position_embeddings=131072,
                         layer_types=["sliding_attention", "full_attention"],
                         rope_parameters={"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0,
                                          "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False,
                                          "original_max_position_embeddings": 4096}),
            "gpt_oss.GptOssAttention",
            {"no sinks": {"sinks": False}, **({"no window": {"window": None}} if i == 0 else {
                "truncate ignored": {"inv_freq": ns["inv_freq_yarn"](64, 150000.0, 32.0, 4096)[0]}})},
            i == 1) for i in (0, 1)},
    }


def module(path):
    import importlib
    name, cls = path.split(".")
    return getattr(importlib.import_module(f"transformers.models.{name}.modeling_{name}"), cls)


def rotary_of(path, config):
    """The family's rotary embedding (GPT-J computes its own), and the layer type it needs (Gemma 3)."""
    name = path.split(".")[0]
    if name == "gptj":
        return None
    mod = module(path).__module__
    import sys
    classes = [c for n, c in vars(sys.modules[mod]).items() if n.endswith("RotaryEmbedding") and isinstance(c, type)]
    return classes[0](config)


def reference_output(path, reference, rotary, config, layer_idx, x, positions, mask):
    if path.startswith("gptj"):
        return reference(x, attention_mask=mask, position_ids=positions)[0]
    types = getattr(config, "layer_types", None)
    if path.startswith("gemma3"):
        cos_sin = rotary(x, positions, types[layer_idx])
    else:
        cos_sin = rotary(x, positions)
    return reference(hidden_states=x, position_embeddings=cos_sin, attention_mask=mask)[0]


def additive(keep, dtype):
    # (T, T) bool -> (1, 1, T, T): 0 where kept, the dtype's lowest value elsewhere
    return torch.zeros(keep.shape, dtype=dtype).masked_fill(~keep, torch.finfo(dtype).min)[None, None]


CASES = cases  # built lazily (the chapter's code is read from the notebook)
NAMES = ["Llama 3.2 1B", "Qwen2.5 7B + YaRN", "Qwen3 8B", "Qwen3-MoE 30B-A3B", "Mistral-Nemo 12B",
         "Gemma 2 27B, layer 0", "Gemma 2 27B, layer 1", "Gemma 3 1B, layer 0", "Gemma 3 1B, layer 5",
         "OLMo 2 7B", "Command R+", "Command R", "StableLM 2 12B", "StableLM 2 1.6B", "Phi-2", "Phi-3 mini 4k",
         "GPT-NeoX 20B", "GPT-J 6B", "Granite 3.0 8B", "GPT-OSS 20B, layer 0", "GPT-OSS 20B, layer 1"]


def built(name):
    config, path, wrong, spread = cases()[name]
    config = eager(config)
    layer_idx = int(name.rsplit(" ", 1)[1]) if ", layer " in name else 0
    ns = chapter10()
    settings = ns["port_settings"](config, layer_idx)
    # Gemma 2's weights drawn larger, so that scores come near the soft cap (50) and leaving it out shows
    reference = draw(module(path)(config, layer_idx), 0.3 if name.startswith("Gemma 2") else 0.08, 5)
    with torch.no_grad():
        if hasattr(reference, "sinks"):
            reference.sinks.normal_(0.0, 2.0)
    state = ns["port_state"](config, reference.state_dict())
    port = ns["PortedAttention"](**settings)
    port.load_state_dict(state)
    wrongs = {}
    for label, changes in wrong.items():
        changes = dict(changes)
        cls = ns[changes.pop("class", "PortedAttention")]
        layer = cls(**{**settings, **changes})
        layer.load_state_dict(state, strict=False)
        wrongs[label] = layer
    return config, path, layer_idx, settings, reference, port, wrongs, spread


def inputs(config, settings, spread, dtype):
    """Contiguous positions past the window (if any) with the mask transformers makes; for scaled RoPE also
    positions spread over 0..~90000 with an explicit causal mask (create_causal_mask reads jumps in position_ids
    as packed sequences)."""
    from transformers.masking_utils import create_causal_mask, create_sliding_window_causal_mask
    torch.manual_seed(7)
    window = settings["window"]
    T = 12 if window is None else window + 9
    x = torch.randn(2, T, config.hidden_size).to(dtype)
    positions = torch.arange(T).expand(2, T)
    make = create_causal_mask if window is None else create_sliding_window_causal_mask
    runs = [(x, positions, make(config, x, None, None, positions))]
    if spread:
        positions = (torch.arange(T) * 8000 + torch.tensor([3, 5])[:, None]).long()
        runs.append((x, positions, additive(torch.ones(T, T, dtype=torch.bool).tril(), dtype)))
    return runs


@pytest.mark.parametrize("name", NAMES)
def test_port_equals_the_module_in_float32_and_half_precision_and_wrong_ports_fail(name):
    config, path, layer_idx, settings, reference, port, wrongs, spread = built(name)
    rotary = rotary_of(path, config)
    with torch.no_grad():
        worst = {label: 0.0 for label in wrongs}
        for x, positions, mask in inputs(config, settings, spread, torch.float32):
            want = reference_output(path, reference, rotary, config, layer_idx, x, positions, mask)
            got = port(x, positions)
            assert (got - want).abs().max().item() < ATOL, name
            for label, layer in wrongs.items():
                worst[label] = max(worst[label], (layer(x, positions) - want).abs().max().item())
        assert all(d > WRONG for d in worst.values()), (name, worst)
        for half in (torch.bfloat16, torch.float16):
            reference_half, port_half = copy.deepcopy(reference).to(half), copy.deepcopy(port).to(half)
            assert port_half.inv_freq.dtype == torch.float32    # .to(half) leaves the speeds alone
            for x, positions, mask in inputs(config, settings, spread, half):
                want = reference_output(path, reference_half, rotary, config, layer_idx, x, positions, mask)
                got = port_half(x, positions)
                assert got.dtype == half
                size = want.float().abs().max().item()
                assert (got.float() - want.float()).abs().max().item() < BF16 * size, (name, half)


# --- refused by name, before a weight is made -----------------------------------------------------------

def refusals():
    from transformers import Cohere2Config, DeepseekV3Config, Llama4TextConfig, LlamaConfig, Phi3Config
    return {
        # meta-llama/Llama-4-Scout-17B-16E (text_config): chunked attention on RoPE layers, no-RoPE layers,
        # QK-norm, temperature tuning
        "Llama 4 Scout": (Llama4TextConfig(hidden_size=5120, num_attention_heads=40, num_key_value_heads=8,
                                           head_dim=128, attention_chunk_size=8192, use_qk_norm=True,
                                           attn_temperature_tuning=True, floor_scale=8192, attn_scale=0.1,
                                           num_hidden_layers=4, no_rope_layers=[1, 1, 1, 0]),
                          r"model_type = 'llama4_text'(.|\n)*attention_chunk_size = 8192(.|\n)*no_rope_layers"),
        # microsoft/Phi-3-mini-128k-instruct: rope_scaling longrope (short/long factors of 48)
        "Phi-3 mini 128k": (Phi3Config(hidden_size=3072, num_attention_heads=32, max_position_embeddings=131072,
                                       original_max_position_embeddings=4096, rope_parameters={
                                           "rope_type": "longrope", "rope_theta": 10000.0,
                                           "short_factor": [1.0] * 48, "long_factor": [4.0] * 48}),
                            "longrope"),
        # Llama 2 7B loaded with dynamic NTK (a user's choice, factor 2)
        "Llama 2 7B + dynamic": (LlamaConfig(hidden_size=4096, num_attention_heads=32,
                                             max_position_embeddings=4096,
                                             rope_parameters={"rope_type": "dynamic", "factor": 2.0,
                                                              "rope_theta": 10000.0}), "dynamic"),
        # CohereForAI/c4ai-command-r7b-12-2024: Cohere2, no RoPE on its full-attention layers
        "Command R7B": (Cohere2Config(hidden_size=4096, num_attention_heads=32, num_key_value_heads=8,
                                      sliding_window=4096), "cohere2"),
        # deepseek-ai/DeepSeek-V3: MLA, which port_settings sends to port_mla
        "DeepSeek-V3": (DeepseekV3Config(), "port_mla"),
    }


@pytest.mark.parametrize("name", ["Llama 4 Scout", "Phi-3 mini 128k", "Llama 2 7B + dynamic", "Command R7B",
                                  "DeepSeek-V3"])
def test_configs_not_ported_are_refused_by_name(name):
    config, says = refusals()[name]
    with pytest.raises(ValueError, match=says) as error:
        chapter10()["port_settings"](config)
    assert "not ported here (it would need" in str(error.value)


@pytest.mark.parametrize("name", NAMES[::2])
def test_one_unknown_attention_field_added_is_refused_by_name(name):
    config = cases()[name][0]
    config.attn_temperature = 0.5        # a field this port has never read
    with pytest.raises(ValueError, match=r"config\.attn_temperature = 0\.5: not ported here"):
        chapter10()["port_settings"](config)
    # a key of rope_parameters its type does not read, too
    config = cases()[name][0]
    if "rope_type" in (getattr(config, "rope_parameters", None) or {}):
        config.rope_parameters["low_freq_factor_2"] = 3.0
        with pytest.raises(ValueError, match=r"rope_parameters\['low_freq_factor_2'\] = 3\.0"):
            chapter10()["port_settings"](config)


def test_the_lists_cover_every_field_the_modeling_code_reads():
    """How the allowlist was made: every `config.X` the modeling file of a ported class reads is either read by
    the port, read only outside attention (ELSEWHERE), PreTrainedConfig's own, or refused when on."""
    import importlib
    import inspect
    import re

    from transformers import PreTrainedConfig

    ns = chapter10()
    common = set(PreTrainedConfig().to_dict())
    # not config fields of the text model: the kernel's name, multimodal parts, a method
    not_fields = {"_attn_implementation", "get_text_config", "text_config", "vision_config", "image_token_id",
                  "mm_tokens_per_image", "partial_rotary_factor"}
    # changes attention, not ported: refused when on (MLA's attention_bias: test_mla_refuses_what_it_does_not_read)
    refused_when_on = {"use_bidirectional_attention", "attention_bias"}
    for kind, reads in {**ns["READS"], "deepseek_v2": ns["MLA_READS"], "deepseek_v3": ns["MLA_READS"]}.items():
        name = "gemma3" if kind == "gemma3_text" else kind
        source = inspect.getsource(importlib.import_module(f"transformers.models.{name}.modeling_{name}"))
        used = set(re.findall(r"config\.(\w+)", source))
        used |= set(re.findall(r'getattr\(\s*(?:self\.)?config,\s*"(\w+)"', source))
        if kind == "gptj":
            # GPTJConfig's attribute_map: hidden_size, num_attention_heads, max_position_embeddings are n_embd,
            # n_head, n_positions
            used -= {"hidden_size", "num_attention_heads", "max_position_embeddings"}
        left = used - reads - ns["ELSEWHERE"] - common - not_fields - refused_when_on
        assert not left, (kind, left)
    from transformers import GemmaConfig
    with pytest.raises(ValueError, match="use_bidirectional_attention = True"):
        ns["port_settings"](GemmaConfig(use_bidirectional_attention=True))


# --- multi-head latent attention --------------------------------------------------------------------------

def mla_configs():
    from transformers import DeepseekV2Config, DeepseekV3Config
    return {
        # deepseek-ai/DeepSeek-V2-Lite: hidden 2048, 16 heads, q_lora_rank null, kv_lora_rank 512, nope 128,
        # rope 64, v 128, yarn (theta 10000, factor 40, original 4096, beta 32/1, mscale 0.707, mscale_all_dim
        # 0.707)
        "DeepSeek-V2-Lite": DeepseekV2Config(
            hidden_size=256, num_attention_heads=2, num_key_value_heads=2, q_lora_rank=None, kv_lora_rank=512,
            qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128, max_position_embeddings=163840,
            num_hidden_layers=1, rms_norm_eps=1e-6,
            rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40.0,
                             "original_max_position_embeddings": 4096, "beta_fast": 32, "beta_slow": 1,
                             "mscale": 0.707, "mscale_all_dim": 0.707}),
        # deepseek-ai/DeepSeek-V3: hidden 7168, 128 heads, q_lora_rank 1536, kv_lora_rank 512, nope 128, rope 64,
        # v 128, yarn (theta 10000, factor 40, original 4096, beta 32/1, mscale 1.0, mscale_all_dim 1.0)
        "DeepSeek-V3": DeepseekV3Config(
            hidden_size=256, num_attention_heads=2, num_key_value_heads=2, q_lora_rank=1536, kv_lora_rank=512,
            qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128, max_position_embeddings=163840,
            num_hidden_layers=1, rms_norm_eps=1e-6,
            rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40.0,
                             "original_max_position_embeddings": 4096, "beta_fast": 32, "beta_slow": 1,
                             "mscale": 1.0, "mscale_all_dim": 1.0}),
    }


@pytest.mark.parametrize("name", ["DeepSeek-V2-Lite", "DeepSeek-V3"])
def test_mla_port_equals_the_module_in_float32_and_half_precision(name):
    config = eager(mla_configs()[name])
    ns = chapter10()
    kind = config.model_type
    mod = module(f"{kind}.{'DeepseekV2Attention' if kind == 'deepseek_v2' else 'DeepseekV3Attention'}")
    reference = draw(mod(config, 0), 0.05, 3)
    port = ns["port_mla"](config, reference)
    halves = ns["port_mla"](config, reference, interleave=False)
    no_mscale = ns["port_mla"](config, reference, scale=192 ** -0.5)
    rotary = rotary_of(f"{kind}.{mod.__name__}", config)
    torch.manual_seed(8)
    x = torch.randn(2, 9, config.hidden_size)
    positions = (torch.arange(9) * 7000).expand(2, 9)
    mask = additive(torch.ones(9, 9, dtype=torch.bool).tril(), torch.float32)
    with torch.no_grad():
        want = reference(hidden_states=x, position_embeddings=rotary(x, positions), attention_mask=mask)[0]
        assert (port(x, positions) - want).abs().max().item() < ATOL
        assert (halves(x, positions) - want).abs().max().item() > WRONG
        assert (no_mscale(x, positions) - want).abs().max().item() > WRONG
        for half in (torch.bfloat16, torch.float16):
            reference_half, port_half = copy.deepcopy(reference).to(half), copy.deepcopy(port).to(half)
            x_half, mask = x.to(half), additive(torch.ones(9, 9, dtype=torch.bool).tril(), half)
            want = reference_half(hidden_states=x_half, position_embeddings=rotary(x_half, positions),
                                  attention_mask=mask)[0]
            got = port_half(x_half, positions)
            assert got.dtype == half
            assert (got.float() - want.float()).abs().max().item() < BF16 * want.float().abs().max().item()


def test_mla_refuses_what_it_does_not_read():
    config = mla_configs()["DeepSeek-V3"]
    config.attention_bias = True
    with pytest.raises(ValueError, match="attention_bias = True"):
        chapter10()["port_mla"](config, None)
