"""Chapter 6's MultiHeadAttention, taken from the notebook itself, equals torch.nn.MultiheadAttention.

The class is not copied here: tools.chapter_code reads the cells that define `attention` and
`MultiHeadAttention` (its core, and the methods chapter 6 adds later with `add_method`) from
notebooks/en/06_multi_head_attention.ipynb, and chapter 7's `FastMultiHeadAttention` from
notebooks/en/07_cost.ipynb, and executes them in a namespace
holding only torch, nn, F and math, as the chapter promises. Weights are copied into
nn.MultiheadAttention(batch_first=True) and outputs and per-head attention weights are compared over
a grid of sizes, masks and seeds, for the step-by-step path and (outputs only: it keeps no weights)
for the fast path of chapter 7; with attention dropout (in eval mode, against nn.MultiheadAttention's
`dropout`) and with the class's `is_causal` option (against an explicit causal `attn_mask`). The Korean notebook must hold the same code (comments aside), and
chapters 7 and 8, which need the class but cannot import it, must hold the same cells as chapter 6, comments
included (chapter 9 the `attention` cell).
"""

from __future__ import annotations

import difflib
import functools
import io
import itertools
import tokenize

import pytest
import torch
import torch.nn as nn

from tools import chapter_code

CHAPTER = "06"
MARKERS = chapter_code.MHA_MARKERS
ATOL = 1e-5

# The grid: every (d_model, n_head) with n_head dividing d_model, batch sizes, seeds, and
# (kind, T_q, T_k, mask) cases: self-attention (key = value = query) and cross-attention (three
# different tensors), with no mask, a causal mask (self-attention only), a padding mask over the
# keys, and both together.
CONFIGS = [(d, h) for d in (8, 12, 32) for h in (1, 2, 4) if d % h == 0]
BATCHES = (1, 3)
SEEDS = (0, 1)
CASES = ([("self", t, t, m) for t in (1, 5) for m in ("none", "causal", "padding", "causal+padding")]
         + [("cross", tq, tk, m) for tq in (1, 5) for tk in (1, 7) for m in ("none", "padding")])
GRID = list(itertools.product(CONFIGS, BATCHES, SEEDS, CASES))




def cell_source(lang: str, marker: str, chapter: str = CHAPTER) -> str:
    try:
        return chapter_code.cell_source(chapter, marker, lang)
    except chapter_code.ChapterCodeError as e:
        pytest.fail(str(e))


@functools.cache
def namespace(lang: str = "en") -> dict:
    """torch, nn, F, math and whatever the notebook's attention and class cells define."""
    try:
        return chapter_code.load(CHAPTER, MARKERS, lang)
    except chapter_code.ChapterCodeError as e:
        pytest.fail(str(e))


@functools.cache
def fast_namespace(lang: str = "en") -> dict:
    """Chapter 7's cells: chapter 6's, carried, and the fast path's subclass."""
    try:
        return chapter_code.load("07", chapter_code.FAST_MARKERS, lang)
    except chapter_code.ChapterCodeError as e:
        pytest.fail(str(e))


def mha(fast: bool = False, lang: str = "en"):
    """Chapter 6's MultiHeadAttention, or (fast) chapter 7's FastMultiHeadAttention."""
    return fast_namespace(lang)["FastMultiHeadAttention"] if fast else namespace(lang)["MultiHeadAttention"]


def copy_weights(ours, ref) -> None:
    with torch.no_grad():
        ref.in_proj_weight.copy_(ours.in_proj.weight)
        ref.out_proj.weight.copy_(ours.out_proj.weight)
        if ours.in_proj.bias is not None:
            ref.in_proj_bias.copy_(ours.in_proj.bias)
            ref.out_proj.bias.copy_(ours.out_proj.bias)


def make_inputs(d_model, batch, seed, kind, T_q, T_k, mask_kind):
    """query, key, value, the book's mask (True = may attend) and nn.MultiheadAttention's masks (True = blocked)."""
    g = torch.Generator().manual_seed(seed)
    query = torch.randn(batch, T_q, d_model, generator=g)
    if kind == "self":
        key = value = query
    else:
        key, value = torch.randn(batch, T_k, d_model, generator=g), torch.randn(batch, T_k, d_model, generator=g)
    mask, ref_masks = None, {}
    if "causal" in mask_kind:
        allowed = torch.ones(T_q, T_k, dtype=torch.bool).tril()             # (T_q, T_k)
        mask, ref_masks["attn_mask"] = allowed, ~allowed
    if "padding" in mask_kind:
        # every sequence keeps at least one key, so no row of weights is fully masked
        lengths = torch.tensor([max(1, T_k // 2), T_k, 1])[:batch]
        keep = torch.arange(T_k) < lengths[:, None]                         # (B, T_k)
        pad = keep[:, None, None, :]                                        # (B, 1, 1, T_k)
        mask = pad if mask is None else mask & pad
        ref_masks["key_padding_mask"] = ~keep
    return query, key, value, mask, ref_masks


@functools.cache
def layers(d_model, n_head, seed, lang="en", bias=True, fast=False, dropout=0.0):
    """The notebook's layer with random weights (biases too), and nn.MultiheadAttention holding a copy.
    With dropout, both are put in eval mode: the equality the chapter proves is the eval-mode one."""
    torch.manual_seed(seed)
    ours = mha(fast, lang)(d_model, n_head, bias=bias, dropout=dropout)
    ref = nn.MultiheadAttention(d_model, n_head, dropout=dropout, bias=bias, batch_first=True)
    copy_weights(ours, ref)
    if dropout:
        ours.eval()
        ref.eval()
    return ours, ref


@functools.cache
def differences(d_model, n_head, batch, seed, kind, T_q, T_k, mask_kind, lang="en", bias=True, fast=False,
                dropout=0.0):
    """Largest |ours - reference| of the outputs and of the per-head attention weights (0 for the fast
    path, which forms no weights: it must leave attn_weights at None)."""
    ours, ref = layers(d_model, n_head, seed, lang, bias, fast, dropout)
    query, key, value, mask, ref_masks = make_inputs(d_model, batch, seed, kind, T_q, T_k, mask_kind)
    with torch.no_grad():
        out = ours(query, key, value, mask)
        out_ref, w_ref = ref(query, key, value, need_weights=True, average_attn_weights=False, **ref_masks)
    assert out.shape == (batch, T_q, d_model)
    assert w_ref.shape == (batch, n_head, T_q, T_k)
    if fast:
        assert ours.attn_weights is None
        return (out - out_ref).abs().max().item(), 0.0
    assert ours.attn_weights.shape == w_ref.shape
    return (out - out_ref).abs().max().item(), (ours.attn_weights - w_ref).abs().max().item()


def case_id(config, case) -> str:
    (d_model, n_head), (kind, T_q, T_k, mask_kind) = config, case
    return f"C{d_model}-H{n_head}-{kind}-Tq{T_q}-Tk{T_k}-{mask_kind}"


@pytest.mark.parametrize("config, case", [(c, k) for c in CONFIGS for k in CASES],
                         ids=[case_id(c, k) for c in CONFIGS for k in CASES])
def test_equals_nn_multihead_attention(config, case):
    """One test per layer size and case; batch sizes and seeds are looped here (4 runs each)."""
    for batch, seed in itertools.product(BATCHES, SEEDS):
        out_diff, weight_diff = differences(*config, batch, seed, *case)
        assert out_diff < ATOL, f"batch={batch}, seed={seed}: outputs differ by {out_diff:.3g}"
        assert weight_diff < ATOL, f"batch={batch}, seed={seed}: attention weights differ by {weight_diff:.3g}"


def test_largest_difference_over_the_grid(record_property, capsys):
    """One number for the whole grid, reported (pytest -s, or the junit property) and bounded."""
    worst = max(max(differences(d, h, b, s, *case)) for (d, h), b, s, case in GRID)
    record_property("largest_abs_difference", worst)
    with capsys.disabled():
        print(f"\nchapter 6: {len(GRID)} cases, largest |ours - nn.MultiheadAttention| = {worst:.3g}")
    assert len(GRID) == 9 * 2 * 2 * 16
    assert worst < ATOL


@pytest.mark.parametrize("d_model, n_head", [(8, 2), (12, 4)])
@pytest.mark.parametrize("fast", [False, True], ids=["step-by-step", "fast"])
def test_without_bias(d_model, n_head, fast):
    for kind, T_k in (("cross", 7), ("self", 5)):
        assert max(differences(d_model, n_head, 3, 0, kind, 5, T_k, "padding", bias=False, fast=fast)) < ATOL


@pytest.mark.parametrize("config", CONFIGS, ids=[f"C{d}-H{h}" for d, h in CONFIGS])
def test_fast_path_equals_nn_multihead_attention(config):
    """Chapter 7's fast path, FastMultiHeadAttention (fused projection for self-attention, F.scaled_dot_product_attention)
    over the same grid; one test per layer size, every case, batch size and seed looped here."""
    for case, batch, seed in itertools.product(CASES, BATCHES, SEEDS):
        out_diff, _ = differences(*config, batch, seed, *case, fast=True)
        assert out_diff < ATOL, f"{case_id(config, case)}, batch={batch}, seed={seed}: outputs differ by {out_diff:.3g}"


def test_largest_difference_of_the_fast_path(record_property, capsys):
    worst = max(differences(d, h, b, s, *case, fast=True)[0] for (d, h), b, s, case in GRID)
    record_property("largest_abs_difference_fast", worst)
    with capsys.disabled():
        print(f"\nchapter 6, fast path: {len(GRID)} cases, largest |ours - nn.MultiheadAttention| = {worst:.3g}")
    assert worst < ATOL


def test_fast_path_uses_one_fused_projection_only_for_self_attention():
    """query is key is value: one in_proj call; three equal tensors that are not the same object: three
    slices, as in cross-attention. Both give the same result."""
    torch.manual_seed(0)
    ours = mha(fast=True)(8, 2)
    calls = []
    ours.in_proj.register_forward_hook(lambda module, args, out: calls.append(tuple(out.shape)))
    x = torch.randn(3, 5, 8)
    with torch.no_grad():
        fused = ours(x, x, x)
        assert calls == [(3, 5, 24)]
        separate = ours(x, x.clone(), x.clone())
        assert calls == [(3, 5, 24)]
    assert torch.allclose(fused, separate, atol=1e-6)


def test_fast_path_on_a_fully_masked_row():
    """The difference chapter 7 documents: a query row with no key it may attend to is NaN on the
    step-by-step path (softmax of -inf only) and attends to nothing on the fast path, where
    F.scaled_dot_product_attention returns 0 for it, so the layer returns out_proj's bias there."""
    torch.manual_seed(0)
    slow = mha()(8, 2)
    fast = mha(fast=True)(8, 2)
    fast.load_state_dict(slow.state_dict())
    x = torch.randn(2, 4, 8)
    mask = torch.ones(4, 4, dtype=torch.bool).tril()
    mask[0] = False                                                          # query 0 sees nothing
    with torch.no_grad():
        out_slow, out_fast = slow(x, x, x, mask), fast(x, x, x, mask)
    assert out_slow[:, 0].isnan().all() and not out_slow[:, 1:].isnan().any()
    assert torch.allclose(out_fast[:, 0], fast.out_proj.bias.expand(2, 8))
    assert torch.allclose(out_fast[:, 1:], out_slow[:, 1:], atol=ATOL)


@pytest.mark.parametrize("d_model, n_head", [(8, 2), (32, 4)])
def test_equals_the_fast_path_in_eval_mode(d_model, n_head):
    """In eval mode without weights, nn.MultiheadAttention may take its fused fast path: still equal."""
    torch.manual_seed(0)
    ours = namespace()["MultiHeadAttention"](d_model, n_head)
    ref = nn.MultiheadAttention(d_model, n_head, batch_first=True).eval()
    copy_weights(ours, ref)
    x = torch.randn(3, 5, d_model)
    with torch.no_grad():
        assert torch.allclose(ours(x, x, x), ref(x, x, x, need_weights=False)[0], atol=ATOL)


def test_an_unflipped_mask_gives_a_different_result():
    """The chapter's trap: nn.MultiheadAttention reads True as blocked, so the book's mask must be flipped."""
    query, key, value, mask, _ = make_inputs(8, 3, 0, "self", 5, 5, "padding")
    keep = mask[:, 0, 0, :]                                                 # (B, T_k), True = real token
    torch.manual_seed(0)
    ours = namespace()["MultiHeadAttention"](8, 2)
    ref = nn.MultiheadAttention(8, 2, batch_first=True)
    copy_weights(ours, ref)
    with torch.no_grad():
        out = ours(query, key, value, mask)
        assert torch.allclose(out, ref(query, key, value, key_padding_mask=~keep)[0], atol=ATOL)
        wrong = ref(query, key, value, key_padding_mask=keep)[0]
    assert not torch.allclose(out, wrong, atol=1e-3, equal_nan=True)


BAD_INPUTS = {
    "heads do not divide": (lambda M: M(10, 4), r"d_model=10 is not divisible by n_head=4; .*\[1, 2, 5, 10\]"),
    "keys and values differ in count": (lambda M: M(8, 2)(torch.ones(2, 3, 8), torch.ones(2, 5, 8), torch.ones(2, 4, 8)),
                                        r"key has 5 tokens but value has 4"),
    "query width": (lambda M: M(8, 2)(torch.ones(2, 3, 6), torch.ones(2, 5, 8), torch.ones(2, 5, 8)),
                    r"query has shape \(2, 3, 6\), expected \(B, T, 8\)"),
    "key width": (lambda M: M(8, 2)(torch.ones(2, 3, 8), torch.ones(2, 5, 6), torch.ones(2, 5, 8)),
                  r"key has shape \(2, 5, 6\), expected \(B, T, 8\)"),
    "value width": (lambda M: M(8, 2)(torch.ones(2, 3, 8), torch.ones(2, 5, 8), torch.ones(2, 5, 4)),
                    r"value has shape \(2, 5, 4\), expected \(B, T, 8\)"),
    "not batched": (lambda M: M(8, 2)(torch.ones(3, 8), torch.ones(5, 8), torch.ones(5, 8)),
                    r"query has shape \(3, 8\), expected \(B, T, 8\)"),
    "batch sizes differ": (lambda M: M(8, 2)(torch.ones(2, 3, 8), torch.ones(1, 5, 8), torch.ones(1, 5, 8)),
                           r"batch sizes differ: query 2, key 1, value 1"),
    "mask does not broadcast": (lambda M: M(8, 2)(torch.ones(2, 3, 8), torch.ones(2, 5, 8), torch.ones(2, 5, 8),
                                                  torch.ones(2, 5, dtype=torch.bool)),
                                r"mask of shape \(2, 5\) does not broadcast to \(B, H, T_q, T_k\) = \(2, 2, 3, 5\)"),
    "mask too large": (lambda M: M(8, 2)(torch.ones(2, 3, 8), torch.ones(2, 5, 8), torch.ones(2, 5, 8),
                                         torch.ones(2, 2, 2, 3, 5, dtype=torch.bool)),
                       r"mask of shape \(2, 2, 2, 3, 5\) does not broadcast"),
    "mask not bool": (lambda M: M(8, 2)(torch.ones(2, 3, 8), torch.ones(2, 5, 8), torch.ones(2, 5, 8),
                                        torch.ones(3, 5)),
                      r"mask has dtype torch.float32; use a bool mask, True = may attend"),
}


@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_bad_input_raises_a_clear_value_error(name):
    call, message = BAD_INPUTS[name]
    with pytest.raises(ValueError, match=message):
        call(namespace()["MultiHeadAttention"])


def code_without_comments(source: str) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(source + "\n").readline)
    return [(t.type, t.string) for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL)]


@pytest.mark.parametrize("marker", MARKERS)
def test_korean_notebook_has_the_same_code(marker):
    assert code_without_comments(cell_source("ko", marker)) == code_without_comments(cell_source("en", marker))


# (chapter, marker): chapter 9 carries chapter 6's `attention` function only (its class is chapter 9's own)
COPIES = [(chapter, marker) for chapter in ("07", "08") for marker in MARKERS] + [("09", "def attention(")]


@pytest.mark.parametrize("chapter, marker", COPIES)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_later_chapters_hold_chapter_6_cells_verbatim(marker, lang, chapter):
    """Chapters 7, 8 and 9 cannot import chapter 6's code (notebooks are self-contained), so each carries a
    copy of its cells; this keeps the copies from drifting, comments included: a comment is part of
    what the reader is taught (a stale "the weights are never formed" once survived in chapter 8's copy
    while the code matched). Edit chapter 6, then paste the cells into the later chapter."""
    copy, original = cell_source(lang, marker, chapter), cell_source(lang, marker)
    if copy != original:
        diff = "\n".join(difflib.unified_diff(original.splitlines(), copy.splitlines(), "06", chapter, lineterm="", n=0))
        pytest.fail(f"the cell with {marker!r} in chapter {chapter} ({lang}) differs from chapter 6's:\n{diff}\n"
                    f"copy chapter 6's cell into book/chapters/{chapter}_*.md and run 'make execute CHAPTER={chapter}'")


def test_korean_notebook_class_gives_the_same_results():
    for case in [("self", 5, 5, "causal+padding"), ("cross", 5, 7, "padding")]:
        ko = differences(12, 4, 3, 1, *case, lang="ko")
        assert max(ko) < ATOL and ko == differences(12, 4, 3, 1, *case, lang="en")


def test_the_cells_define_only_what_they_promise():
    """Each extracted cell is definitions only: the first three add the names they promise; the later ones add
    methods to the class, and their functions stay bound under their names (never to None)."""
    ns = chapter_code.base_namespace()
    names = ({"attention"}, {"add_method", "restore_methods"}, {"MultiHeadAttention"},
             {"added_methods", "causal_mask", "with_causal", "forward"}, {"check_inputs"})
    for marker, name in zip(MARKERS, names, strict=True):
        before = set(ns)
        exec(cell_source("en", marker), ns)
        assert set(ns) - before - {"__builtins__"} == name, marker
        assert not any(value is None for value in ns.values()), f"{marker}: a name is bound to None"
    added = {"causal_mask", "with_causal", "check_inputs"}
    assert added <= set(vars(ns["MultiHeadAttention"])), "the later cells add their methods to the class"


def working_class(ns: dict) -> str | None:
    """What is wrong with the class the namespace holds now, or None: is_causal works and equals the causal
    mask, and bad input gets check_inputs' clear error."""
    torch.manual_seed(0)
    layer = ns["MultiHeadAttention"](8, 2).eval()
    x = torch.randn(2, 4, 8)
    try:
        causal = layer(x, x, x, is_causal=True)
    except TypeError as e:
        return f"is_causal: {e}"
    if not torch.allclose(causal, layer(x, x, x, mask=torch.ones(4, 4, dtype=torch.bool).tril()), atol=1e-6):
        return "is_causal is not the causal mask"
    try:
        layer(x, x, x[:, :3])
    except ValueError as e:
        return None if "one value per key" in str(e) else f"another error: {e}"
    except Exception as e:  # noqa: BLE001
        return f"not check_inputs' error: {type(e).__name__}: {e}"
    return "keys and values of different lengths were accepted"


@pytest.mark.parametrize("order", [
    (0, 1, 2, 3, 4, 2),            # the core class cell run again at the end
    (0, 1, 2, 3, 4, 2, 2),         # twice
    (0, 1, 2, 3, 4, 1, 2),         # add_method's cell, then the class cell, run again
    (0, 1, 2, 3, 4, 2, 4, 3, 4),   # the class cell again, then the later cells out of order
    (0, 1, 2, 4, 3, 4),            # the input checks before the causal option, then again
    (0, 1, 2, 3, 4, 3),            # the causal option again after the bad-input cell (it once lost the checks)
    (0, 1, 2, 3, 4, 3, 3, 2),      # the causal option twice, then the class cell
    (0, 1, 2, 3, 4, 4, 3, 2, 3),   # every later cell again, the causal option last
    (0, 1, 2, 3, 4, 2, 3),         # the class cell, then the causal option
])
def test_chapter_6_class_survives_running_its_cells_again_in_any_order(order):
    """A learner re-runs cells: running the core class cell again must not silently drop the methods the later
    cells added (it once did, and a cell further on failed with a bare "unexpected keyword argument
    'is_causal'"); the cells run as whole cells, as a notebook runs them."""
    ns = chapter_code.base_namespace()
    for index in order:
        exec(cell_source("en", MARKERS[index]), ns)
    assert working_class(ns) is None, f"after the cells {order}: {working_class(ns)}"
    assert not any(value is None for value in ns.values())


@pytest.mark.parametrize("original, planted", [
    ("/ math.sqrt(d_k)", "/ math.sqrt(d_k * 2)"),                        # the wrong scale
    (".transpose(1, 2).contiguous().view", ".contiguous().view"),        # merge without transpose
])
def test_a_planted_bug_is_caught(original, planted):
    """The comparison can fail: the notebook's code with one planted bug no longer matches."""
    assert any(original in cell_source("en", marker) for marker in MARKERS), f"{original!r} is not in the notebook"
    ns = chapter_code.base_namespace()
    for marker in MARKERS:
        source = cell_source("en", marker)
        exec(source.replace(original, planted) if original in source else source, ns)
    torch.manual_seed(0)
    ours = ns["MultiHeadAttention"](8, 2)
    ref = nn.MultiheadAttention(8, 2, batch_first=True)
    copy_weights(ours, ref)
    x = torch.randn(3, 5, 8)
    with torch.no_grad():
        assert not torch.allclose(ours(x, x, x), ref(x, x, x)[0], atol=ATOL)


# --- attention dropout (chapters 5-6): off in eval mode, equal to nn.MultiheadAttention(dropout=p).eval()

DROPOUT_CASES = [c for c in CASES if c[3] in ("causal+padding", "padding")]


@pytest.mark.parametrize("fast", [False, True], ids=["step-by-step", "fast"])
@pytest.mark.parametrize("config", CONFIGS, ids=[f"C{d}-H{h}" for d, h in CONFIGS])
def test_with_dropout_equals_nn_multihead_attention_in_eval_mode(config, fast):
    for case, batch, seed in itertools.product(DROPOUT_CASES, BATCHES, SEEDS):
        out_diff, weight_diff = differences(*config, batch, seed, *case, fast=fast, dropout=0.3)
        assert out_diff < ATOL and weight_diff < ATOL, f"{case_id(config, case)}, batch={batch}, seed={seed}, {fast=}"


@pytest.mark.parametrize("fast", [False, True], ids=["step-by-step", "fast"])
def test_dropout_is_random_in_training_and_off_in_eval(fast):
    torch.manual_seed(0)
    layer = mha(fast)(8, 2, dropout=0.5)
    plain = mha(fast)(8, 2)
    plain.load_state_dict(layer.state_dict())
    x = torch.randn(3, 5, 8)
    with torch.no_grad():
        assert layer.training and not torch.equal(layer(x, x, x), layer(x, x, x))
        layer.eval()
        assert torch.equal(layer(x, x, x), layer(x, x, x)) and torch.equal(layer(x, x, x), plain(x, x, x))


def test_dropout_sits_where_nn_multihead_attention_puts_it():
    """Training mode, same seed: nn.MultiheadAttention (need_weights=True) drops the softmax weights with
    F.dropout before weights @ v, as the chapter's class does, so even the erased weights coincide.
    (This relies on both drawing random numbers in the same order; the chapter calls it a bonus.)"""
    ours, ref = layers(12, 3, 0, dropout=0.4)
    ours.train()
    ref.train()
    query, key, value, mask, ref_masks = make_inputs(12, 3, 0, "cross", 5, 7, "padding")
    try:
        with torch.no_grad():
            torch.manual_seed(7)
            out = ours(query, key, value, mask)
            torch.manual_seed(7)
            out_ref, w_ref = ref(query, key, value, average_attn_weights=False, **ref_masks)
    finally:
        ours.eval()
        ref.eval()
    assert (ours.attn_weights == 0).any()
    assert torch.equal(ours.attn_weights == 0, w_ref == 0)
    assert torch.allclose(out, out_ref, atol=ATOL)


@pytest.mark.parametrize("dropout", [-0.1, 1.0, 1.5])
def test_dropout_outside_zero_one_is_refused(dropout):
    with pytest.raises(ValueError, match=rf"dropout={dropout} is not a probability in \[0, 1\)"):
        namespace()["MultiHeadAttention"](8, 2, dropout=dropout)


def test_the_dropout_bug_is_caught_in_eval_mode():
    """Chapter 7's dropout trap planted into the fast path: SDPA's dropout_p without `if self.training`.
    With dropout > 0 the layer in eval mode no longer matches the reference; with dropout 0 it hides."""
    planted = "dropout_p=self.dropout, is_causal=causal_only)"
    ns = chapter_code.base_namespace()
    for marker in chapter_code.FAST_MARKERS:
        source = cell_source("en", marker, "07")
        if "scaled_dot_product_attention(" in source:
            correct = "attn_mask=mask, dropout_p=p, is_causal=causal_only)"
            assert source.count(correct) == 1, "the class's SDPA call changed: update this planted bug"
            source = source.replace(correct, "attn_mask=mask, " + planted)
        exec(source, ns)
    x = torch.randn(3, 5, 8)
    for dropout, caught in ((0.2, True), (0.0, False)):
        torch.manual_seed(0)
        buggy = ns["FastMultiHeadAttention"](8, 2, dropout=dropout).eval()
        ref = nn.MultiheadAttention(8, 2, dropout=dropout, batch_first=True).eval()
        copy_weights(buggy, ref)
        with torch.no_grad():
            differs = not torch.allclose(buggy(x, x, x), ref(x, x, x)[0], atol=ATOL)
        assert differs == caught


# --- the causal option: is_causal=True, bottom-right aligned when T_q < T_k

CAUSAL_SHAPES = [(5, 5), (1, 5), (2, 7), (7, 7), (1, 1)]


def causal_reference_mask(T_q, T_k):
    """Query i (the i-th of the last T_q tokens) may see keys 0 .. T_k - T_q + i; True = may attend."""
    return torch.tensor([[j <= T_k - T_q + i for j in range(T_k)] for i in range(T_q)])


@pytest.mark.parametrize("fast", [False, True], ids=["step-by-step", "fast"])
@pytest.mark.parametrize("config", CONFIGS, ids=[f"C{d}-H{h}" for d, h in CONFIGS])
def test_is_causal_equals_nn_multihead_attention_with_a_causal_mask(config, fast):
    d_model, n_head = config
    ours, ref = layers(d_model, n_head, 0, fast=fast)
    for (T_q, T_k), padding in itertools.product(CAUSAL_SHAPES, (False, True)):
        g = torch.Generator().manual_seed(T_q * 10 + T_k)
        key = torch.randn(3, T_k, d_model, generator=g)
        query = key[:, T_k - T_q:]                                          # the last T_q tokens
        mask, ref_masks = None, {}
        if padding:
            keep = torch.arange(T_k) < torch.tensor([T_k, max(1, T_k - 1), T_k])[:, None]   # (B, T_k)
            mask, ref_masks["key_padding_mask"] = keep[:, None, None, :], ~keep
        with torch.no_grad():
            out = ours(query, key, key, mask, is_causal=True)
            out_ref, w_ref = ref(query, key, key, attn_mask=~causal_reference_mask(T_q, T_k),
                                 average_attn_weights=False, **ref_masks)
        assert torch.allclose(out, out_ref, atol=ATOL), f"T_q={T_q}, T_k={T_k}, {padding=}"
        if not fast:
            assert torch.allclose(ours.attn_weights, w_ref, atol=ATOL)


@pytest.mark.parametrize("T_q, T_k", [(1, 6), (3, 6), (6, 6)])
def test_is_causal_rows_equal_the_last_rows_of_the_full_causal_pass(T_q, T_k):
    """Why bottom-right: the last T_q queries against all T_k keys give the last T_q rows of the full pass.
    SDPA's is_causal (top-left) does not, unless T_q == T_k."""
    ours, _ = layers(12, 3, 1)
    x = torch.randn(2, T_k, 12, generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        full = ours(x, x, x, is_causal=True)
        part = ours(x[:, T_k - T_q:], x, x, is_causal=True)
        top_left = ours(x[:, T_k - T_q:], x, x, torch.ones(T_q, T_k, dtype=torch.bool).tril())
        q, k, v = (ours.split_heads(t) for t in ours.project(x[:, T_k - T_q:], x, x))
        sdpa = ours.out_proj(ours.merge_heads(torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)))
    assert torch.allclose(part, full[:, T_k - T_q:], atol=ATOL)
    assert torch.allclose(sdpa, top_left, atol=ATOL)
    assert torch.allclose(top_left, full[:, T_k - T_q:], atol=ATOL) == (T_q == T_k)


def test_is_causal_with_more_queries_than_keys_is_refused():
    with pytest.raises(ValueError, match=r"is_causal with 5 queries but 3 keys"):
        namespace()["MultiHeadAttention"](8, 2)(torch.ones(2, 5, 8), torch.ones(2, 3, 8), torch.ones(2, 3, 8),
                                                  is_causal=True)


def test_the_fast_path_hands_sdpa_is_causal_only_when_the_causal_mask_is_all(monkeypatch):
    """The fast path's forward passes is_causal=True (and no mask tensor) when the causal mask is the only mask and
    T_q = T_k; with another mask, or fewer queries than keys, it passes the bottom-right mask instead (SDPA's
    is_causal is top-left then). An explicit mask rules out the flash backend on a GPU."""
    calls = []
    sdpa = torch.nn.functional.scaled_dot_product_attention

    def recording(*args, attn_mask=None, is_causal=False, **kwargs):
        calls.append((None if attn_mask is None else attn_mask.clone(), is_causal))
        return sdpa(*args, attn_mask=attn_mask, is_causal=is_causal, **kwargs)

    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", recording)
    ours, _ = layers(8, 2, 0, fast=True)
    x = torch.randn(2, 5, 8, generator=torch.Generator().manual_seed(0))
    keep = torch.tensor([[True] * 5, [True] * 3 + [False] * 2])[:, None, None, :]   # (B, 1, 1, T_k)
    with torch.no_grad():
        ours(x, x, x, is_causal=True)
        ours(x, x, x, keep, is_causal=True)
        ours(x[:, 3:], x, x, is_causal=True)
        ours(x, x, x)
    (m1, c1), (m2, c2), (m3, c3), (m4, c4) = calls
    assert m1 is None and c1 is True
    assert c2 is False and torch.equal(m2, keep & causal_reference_mask(5, 5))
    assert c3 is False and torch.equal(m3, causal_reference_mask(2, 5))
    assert m4 is None and c4 is False


# --- gradients: the class trains like nn.MultiheadAttention (a forward check misses detach bugs)

GRAD_RTOL = 1e-5   # of the largest entry: float32 rounding, summed in different orders, measured at most 1.6e-6


def close(a, b):
    return (a - b).abs().max() <= GRAD_RTOL * b.abs().max() + 1e-7


def gradients(layer, call, x, direction):
    x = x.clone().requires_grad_()
    layer.zero_grad()
    with torch.enable_grad():
        (call(layer, x) * direction).sum().backward()
    #  a tensor cut from the graph gets no gradient at all: count it as zeros
    return [t.grad if t.grad is not None else torch.zeros_like(t) for t in (x, *layer.parameters())]


@pytest.mark.parametrize("fast", [False, True], ids=["step-by-step", "fast"])
@pytest.mark.parametrize("causal", [False, True], ids=["no-mask", "causal"])
@pytest.mark.parametrize("config", [(8, 2), (12, 3), (32, 4)], ids=["C8-H2", "C12-H3", "C32-H4"])
def test_gradients_equal_nn_multihead_attention(config, causal, fast):
    """The input's and every parameter's gradient, on non-zero biases and weights far from uniform (an input
    scaled by 4): with nearly uniform attention a wrong score would barely move the gradients."""
    d_model, n_head = config
    ours, ref = layers(d_model, n_head, 0, fast=fast)
    assert min(ours.in_proj.bias.abs().max(), ours.out_proj.bias.abs().max()) > 0.05
    g = torch.Generator().manual_seed(1)
    x, direction = 4 * torch.randn(3, 6, d_model, generator=g), torch.randn(3, 6, d_model, generator=g)
    blocked = ~causal_reference_mask(6, 6)
    with torch.no_grad():
        _, w = ref(x, x, x, attn_mask=blocked if causal else None, average_attn_weights=False)
    spread = (w.amax(dim=-1) - w.amin(dim=-1))[..., 1:]            # (B, H, T_q - 1): rows with 2+ keys
    assert (spread > 0.1).float().mean() > 0.9                        # far from uniform
    ours_grads = gradients(ours, lambda layer, z: layer(z, z, z, is_causal=causal), x, direction)
    ref_grads = gradients(ref, lambda layer, z: layer(z, z, z, attn_mask=blocked if causal else None,
                                                       need_weights=False)[0], x, direction)
    names = ["x"] + [name for name, _ in ref.named_parameters()]
    for name, a, b in zip(names, ours_grads, ref_grads, strict=True):
        assert close(a, b), f"the gradient of {name} differs"


@pytest.mark.parametrize("original, planted", [
    ("return weights @ v, weights", "return weights.detach() @ v, weights"),   # no gradient to W_Q, W_K
    ("        return x.transpose(1, 2).contiguous().view(B, T, H * D)",
     "        return x.transpose(1, 2).contiguous().view(B, T, H * D).detach()"),   # none to the heads at all
])
def test_the_gradient_check_catches_a_planted_detach(original, planted):
    """The forward values stay the same; only a backward comparison sees the bug."""
    assert any(original in cell_source("en", marker) for marker in MARKERS), f"{original!r} is not in the notebook"
    ns = chapter_code.base_namespace()
    for marker in MARKERS:
        exec(cell_source("en", marker).replace(original, planted), ns)
    torch.manual_seed(0)
    buggy = ns["MultiHeadAttention"](8, 2)
    ref = nn.MultiheadAttention(8, 2, batch_first=True)
    copy_weights(buggy, ref)
    g = torch.Generator().manual_seed(1)
    x, direction = 4 * torch.randn(3, 6, 8, generator=g), torch.randn(3, 6, 8, generator=g)
    with torch.no_grad():
        assert torch.allclose(buggy(x, x, x), ref(x, x, x)[0], atol=ATOL)
    buggy_grads = gradients(buggy, lambda layer, z: layer(z, z, z), x, direction)
    ref_grads = gradients(ref, lambda layer, z: layer(z, z, z, need_weights=False)[0], x, direction)
    assert not all(close(a, b) for a, b in zip(buggy_grads, ref_grads, strict=True))
