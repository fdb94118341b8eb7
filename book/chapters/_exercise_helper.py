class NotAnswered(Exception):
    #ko| """답 칸이 아직 None이나 ...입니다."""
    #en| """The answer is still the None or ... of the template."""


class Also(str):
    #ko| """테스트가 돌려주는 말 가운데, 문제의 힌트를 대신하지 않고 그 앞에 붙는 말."""
    #en| """Words a test returns that go before the exercise's hint, not instead of it."""


class BadShape(TypeError):
    #ko| """모양을 적은 답이 정수의 튜플이 아닙니다."""
    #en| """A shape written as an answer is not a tuple of whole numbers."""


def as_shape(answer):
    #ko| """모양을 적은 답을 튜플로 바꿉니다."""
    #en| """A shape written as an answer, as a tuple."""
    if answer is None or answer is Ellipsis:
        raise NotAnswered
    if not (isinstance(answer, (tuple, list))
            and all(isinstance(n, int) for n in answer)):
        #ko| raise BadShape(f"모양은 (4, 5)처럼 정수의 튜플로 적습니다. "
        #ko|                f"지금 답: {answer!r}")
        #en| raise BadShape(f"write a shape as a tuple of whole numbers, like (4, 5); "
        #en|                f"got {answer!r}")
    return tuple(answer)


def _size_name(n, axes, sizes, at=None, own=None, single=False):
    #ko| """크기 n인 축의 이름(축 at의 이름이 맞으면 그것), 없으면 "".
    #ko| 두 크기의 곱으로 읽을 때는 축 own의 이름과 이름 붙은 크기의 곱을 먼저 봅니다.
    #ko| single이면 이름이 하나일 때만 그 이름(모양 안에서 쓰도록)."""
    #en| """The names with size n (axis at's own name if it fits), or "".
    #en| Read as a product of two sizes, axis own's name times a named size comes first.
    #en| single: the name only when it is the one name (for use inside a shape)."""
    if at is not None and at < len(axes) and axes[at][1] == n:
        return axes[at][0]
    found = [name for name, size in axes if size == n]
    found += [name for name, size in (sizes or {}).items()
              if size == n and name not in found]
    if not found:
        named = list(axes) + [(k, v) for k, v in (sizes or {}).items()]
        mine = axes[own][0] if own is not None and own < len(axes) else None
        pairs = [(a, b) for i, (a, x) in enumerate(named)
                 for b, y in named[i + 1:] if x * y == n and x > 1 and y > 1]
        #ko: 축 자신과 이름 붙은 크기(반복 횟수처럼)의 곱이 먼저, 두 축의 곱은 나중에
        #en: the axis itself times a named size (such as n_rep) first, two axes last
        pairs.sort(key=lambda pair: (mine not in pair,
                                     all(p in dict(axes) for p in pair)))
        found = [f"{a}·{b}" for a, b in pairs[:1]]
    if single and len(found) > 1:
        return ""
    #ko| return ", ".join(found[:-1]) + " 또는 " * (len(found) > 1) + "".join(found[-1:])
    #en| return ", ".join(found[:-1]) + " or " * (len(found) > 1) + "".join(found[-1:])


def _axes_text(shape, axes, sizes):
    #ko| """모양을 축의 이름으로: (B, T, H, D). 이름이 없는(여럿인) 크기는 숫자로."""
    #en| """A shape in the axes' names: (B, T, H, D); a size without one (or with
    #en| several) as a number."""
    return "(" + ", ".join(_size_name(n, axes, sizes, i, single=True) or str(n)
                           for i, n in enumerate(shape)) + ")"


def _shape_effect(g, w, axes, sizes, moved=None):
    #ko| """모양 g가 w와 어떻게 다른지, 축의 이름으로 말합니다. moved가 False이면
    #ko| 값이 정답의 축을 옮긴 것이 아니므로(크기만 우연히 같음) 축이 뒤바뀌었다고
    #ko| 말하지 않고 축마다 어느 크기가 있는지 말합니다."""
    #en| """How shape g differs from w, in the axes' names. moved False: the values
    #en| are not the right ones with their axes moved (the sizes only happen to be the
    #en| same), so the axes are not said to be swapped; each axis's size is named."""
    def name(n, own=None):
        found = _size_name(n, axes, sizes, own=own)
        return f"({found})" if found else ""

    right, now = _axes_text(w, axes, sizes), _axes_text(g, axes, sizes)
    same_numel = torch.Size(g).numel() == torch.Size(w).numel()
    for i in range(len(w) if len(g) + 1 == len(w) else 0):
        if g == w[:i] + w[i + 1:]:
            #ko| return f"{axes[i][0]} 축(크기 {w[i]})이 빠졌습니다. "
            #en| return f"the {axes[i][0]} axis (size {w[i]}) is missing; "
    for i in range(len(g) if len(g) == len(w) + 1 else 0):
        if g[:i] + g[i + 1:] == w:
            #ko| return f"축 {i}에 크기 {g[i]}{name(g[i])}인 축이 하나 더 있습니다. "
            #en| return f"an extra axis of size {g[i]}{name(g[i])} at position {i}; "
    for i in range(len(w) if len(g) + 1 == len(w) else 0):
        if i + 1 < len(w) and g == w[:i] + (w[i] * w[i + 1],) + w[i + 2:]:
            #ko| return (f"{axes[i][0]}({w[i]}), {axes[i + 1][0]}({w[i + 1]})의 "
            #ko|         f"두 축이 크기 {g[i]}인 한 축으로 합쳐져 있습니다. ")
            #en| return (f"the axes {axes[i][0]} ({w[i]}) and {axes[i + 1][0]} "
            #en|         f"({w[i + 1]}) are merged into one axis of {g[i]}; ")
    for i in range(len(g) if len(g) == len(w) + 1 else 0):
        if i + 1 < len(g) and w == g[:i] + (g[i] * g[i + 1],) + g[i + 2:]:
            #ko| return (f"{axes[i][0]} 축({w[i]})이 {g[i]} × {g[i + 1]}의 "
            #ko|         "두 축으로 나뉜 채 남았습니다. ")
            #en| return (f"the {axes[i][0]} axis ({w[i]}) is left split "
            #en|         f"into two axes, {g[i]} × {g[i + 1]}; ")
    if len(g) != len(w):
        if same_numel:
            #ko| return (f"원소의 수는 맞지만 다른 축들로 묶였습니다. "
            #ko|         f"지금은 {now}, 맞는 모양은 {right}입니다. ")
            #en| return (f"the number of elements is right, but they are grouped "
            #en|         f"as {now} where {right} belongs; ")
        #ko| return f"축이 {len(w)}개여야 합니다. 지금은 {now}, 맞는 모양은 {right}입니다. "
        #en| return f"{len(w)} axes {right} belong, got {len(g)}: {now}; "
    wrong = [i for i in range(len(w)) if g[i] != w[i]]
    if sorted(g) == sorted(w) and len(wrong) == 2 and moved is not False:
        #ko| return (f"축 {wrong[0]}, 축 {wrong[1]}의 자리가 뒤바뀌었습니다. "
        #ko|         f"지금은 {now}, 맞는 순서는 {right}입니다. ")
        #en| return (f"axes {wrong[0]} and {wrong[1]} are swapped: "
        #en|         f"{now} where {right} belongs; ")
    if sorted(g) == sorted(w) and moved is not False:
        #ko| return f"축의 순서가 다릅니다. 지금은 {now}, 맞는 순서는 {right}입니다. "
        #en| return f"the axes are in another order: {now} where {right} belongs; "
    said = ""
    for i in wrong:
        #ko| said += (f"축 {i}의 크기가 {g[i]}{name(g[i], i)}인데, "
        #ko|          f"이 자리는 {axes[i][0]}({w[i]})의 자리입니다. ")
        #en| said += (f"axis {i} holds {g[i]}{(' ' + name(g[i], i)).rstrip()} "
        #en|          f"where {axes[i][0]} = {w[i]} belongs; ")
    if same_numel:
        #ko| said += "원소의 수는 맞습니다. 같은 원소가 다른 축들로 묶였습니다. "
        #en| said += "the number of elements is right: they are grouped into other axes; "
    return said


def _moved(got, want):
    #ko| """got의 크기가 want의 크기를 다른 순서로 적은 것일 때: got이 want의 축을
    #ko| 옮긴 것이면 True, want와 같은 값들을 축을 옮기지 않고 다르게 묶은 것이면
    #ko| (reshape처럼) False. 값이 달라 알 수 없거나 그 밖에는 None."""
    #en| """When got's sizes are want's in another order: True if got is want with its
    #en| axes moved, False if it holds want's values grouped otherwise, not by moving
    #en| axes (as a reshape does). None when the values differ too, or otherwise."""
    import itertools

    g, w = tuple(got.shape), tuple(want.shape)
    if len(g) != len(w) or sorted(g) != sorted(w) or len(w) > 6:
        return None
    if any(_close(got, want.permute(p)) for p in itertools.permutations(range(len(w)))
           if tuple(w[i] for i in p) == g):
        return True
    try:
        same = _close(got.flatten().sort().values, want.flatten().sort().values)
    except Exception:
        same = False
    return False if same else None


def shape_mistake(got, want, axes=None, sizes=None):
    #ko| """답이 want와 모양이 같은 텐서가 아니면 무엇이 다른지 말하는 Also,
    #ko| 같으면 None. axes는 want의 축 이름("B T H D"처럼), sizes는 그 밖의
    #ko| 이름 붙은 크기({"C": 8}처럼)입니다. 이름을 주면 어느 축이 틀렸고 그 자리에
    #ko| 무엇의 크기가 있는지, 어느 축이 빠지거나 더 있거나 뒤바뀌었는지 말합니다."""
    #en| """An Also saying how the answer differs from a tensor shaped like want,
    #en| or None if it is one. axes names want's axes ("B T H D"), sizes other named
    #en| sizes ({"C": 8}): with them the message says which axis is wrong and whose
    #en| size it holds, or which axis is missing, extra or swapped."""
    if got is None or got is Ellipsis:
        raise NotAnswered
    if not isinstance(got, torch.Tensor):
        #ko| return Also(f"텐서를 돌려주어야 하는데 {type(got).__name__}입니다. ")
        #en| return Also(f"expected a tensor, got a {type(got).__name__}; ")
    if tuple(got.shape) != tuple(want.shape):
        g, w = tuple(got.shape), tuple(want.shape)
        names = axes.split() if isinstance(axes, str) else list(axes or [])
        names += [f"#{i}" for i in range(len(names), len(w))]
        try:
            effect = _shape_effect(g, w, list(zip(names, w)), sizes, _moved(got, want))
        except Exception:
            effect = ""
        #ko| said = Also(f"모양이 {w}이어야 하는데 {g}입니다. {effect}")
        #en| said = Also(f"expected shape {w}, got {g}; {effect}")
        if globals().get("_TRACER") is not None:
            _TRACER.note(got, want, names, sizes, said)
        return said
    return None


def shape_difference(got, want, axes=None, sizes=None):
    #ko| """답으로 적은 모양(튜플) got이 want와 어떻게 다른지 축의 이름으로 말합니다.
    #ko| 같으면 "". axes, sizes는 shape_mistake와 같습니다."""
    #en| """How a shape written as an answer (a tuple) differs from want, in the axes'
    #en| names; "" if it does not. axes and sizes as for shape_mistake."""
    g, w = tuple(got), tuple(want)
    if g == w:
        return ""
    names = axes.split() if isinstance(axes, str) else list(axes or [])
    names += [f"#{i}" for i in range(len(names), len(w))]
    try:
        said = _shape_effect(g, w, list(zip(names, w)), sizes)
    except Exception:
        return ""
    if said and globals().get("_TRACER") is not None:
        _TRACER.note(g, w, names, sizes, said)
    return said


def mask_difference(got, want, lengths=None):
    #ko| """bool 마스크 (..., T_q, T_k)의 틀린 칸을 그 종류로 말합니다(True = 볼 수 있음).
    #ko| lengths (B,)를 주면 첫 축을 문장으로 보고 패딩을 가립니다. 같으면 ""."""
    #en| """The wrong cells of a bool mask (..., T_q, T_k), by kind (True = may attend).
    #en| With lengths (B,) the first axis is the sentences, and padding is told apart.
    #en| "" when got equals want."""
    T_q, T_k = want.shape[-2:]
    i = torch.arange(T_q)[:, None].expand(T_q, T_k)
    j = torch.arange(T_k)[None, :].expand(T_q, T_k)
    extra, lost = got & ~want, ~got & want
    said = ""
    if lengths is not None:
        n = lengths.view(-1, *[1] * (want.dim() - 1))
        pad_k, pad_q = (j >= n).expand(want.shape), (i >= n).expand(want.shape)
    else:
        pad_k = pad_q = torch.zeros(want.shape, dtype=torch.bool)
    if extra.any():
        if (extra <= pad_k).all():
            #ko| said += f"패딩인 키를 보게 둔 칸이 {int(extra.sum())}개 있습니다. "
            #en| said += f"{int(extra.sum())} cells let a query see a padding key; "
        elif (extra <= (j > i - T_q + T_k)).all():
            #ko| said += f"쿼리가 뒤에 오는 키를 보는 칸이 {int(extra.sum())}개 있습니다. "
            #en| said += f"{int(extra.sum())} cells let a query see a later key; "
        else:
            #ko| said += f"가려야 할 칸 {int(extra.sum())}개가 True입니다. "
            #en| said += f"{int(extra.sum())} cells that must be hidden are True; "
    if lost.any():
        if (lost <= (j == i - T_q + T_k)).all():
            #ko| said += "대각선이 가려졌습니다. 쿼리는 자기 자리의 키를 봅니다. "
            #en| said += "the diagonal is hidden: a query sees the key at its own place; "
        elif (lost <= pad_q).all():
            #ko| said += ("패딩인 쿼리의 행까지 가렸습니다. 패딩은 키만 가리고, "
            #ko|          "그 행은 인과 마스크대로 남습니다. ")
            #en| said += ("the rows of padding queries are hidden too: padding hides "
            #en|          "keys only, those rows stay as the causal part says; ")
        elif lengths is not None and (lost <= (j == n - 1)).all():
            #ko| said += ("각 문장의 마지막 실제 토큰이 가려졌습니다. 길이가 n이면 "
            #ko|          "키 0부터 n-1까지가 실제 토큰입니다. ")
            #en| said += ("each sentence's last real token is hidden: a length of n "
            #en|          "means keys 0 to n-1 are real; ")
        else:
            #ko| said += f"볼 수 있어야 할 칸 {int(lost.sum())}개가 False입니다. "
            #en| said += f"{int(lost.sum())} cells that must be visible are False; "
    return said


def _close(a, b, atol=1e-5):
    #ko| """a와 b가 모양이 같은 텐서이고 값이 (NaN은 NaN끼리) 가까운가."""
    #en| """Whether a and b are tensors of one shape with close values (NaN as NaN)."""
    try:
        return (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)
                and a.shape == b.shape
                and torch.allclose(a.double(), b.double(), atol=atol, rtol=1e-4,
                                   equal_nan=True))
    except Exception:
        return False


def _factor_name(c, factors):
    #ko| """상수 c가 factors의 무엇과 같은지(" = 1/√d"처럼), 없으면 ""."""
    #en| """What the constant c equals among factors (" = 1/√d"), or ""."""
    for name, v in (factors or {}).items():
        v = float(v)
        forms = ((name, v), (f"1/{name}", 1 / v), (f"{name}²", v * v),
                 (f"1/{name}²", 1 / (v * v)), (f"-{name}", -v), (f"-1/{name}", -1 / v))
        for form, x in forms if v else ():
            if abs(c - x) <= 1e-4 * max(1.0, abs(x)):
                #ko| return f"({c:.4g} = {form})"
                #en| return f" ({c:.4g} = {form})"
    return ""


def _order_mistake(got, want, names, sizes):
    #ko| """모양이 다르지만 want의 축 순서를 바꾼 것과 같으면 그 말, 아니면 None."""
    #en| """If got is want with its axes in another order, say so; else None."""
    import itertools

    if got.dim() != want.dim() or got.numel() != want.numel() or want.dim() > 6:
        return None
    for order in itertools.permutations(range(want.dim())):
        moved = want.permute(order)
        if moved.shape == got.shape and _close(got, moved):
            moved = [(names[k], want.shape[k]) for k in order]
            now = _axes_text(got.shape, moved, sizes)
            right = _axes_text(want.shape, list(zip(names, want.shape)), sizes)
            g, w = tuple(got.shape), tuple(want.shape)
            #ko| return Also(f"모양이 {w}이어야 하는데 {g}입니다. "
            #ko|             f"값은 맞지만 축의 순서가 {now}입니다. "
            #ko|             f"맞는 순서는 {right}입니다. ")
            #en| return Also(f"expected shape {w}, got {g}; "
            #en|             f"the values are right but the axes are in the order "
            #en|             f"{now} where {right} belongs; ")
    return None


def _layout_mistake(got, want, names, sizes):
    #ko| """got이 want의 축 순서를 바꾼 뒤 원소 순서대로 want의 모양으로 다시 묶은
    #ko| 것이면 그 말, 아니면 None."""
    #en| """If got is want with its axes in another order, read element by element
    #en| into want's shape again, say so; else None."""
    import itertools

    if want.dim() > 6:
        return None
    for order in list(itertools.permutations(range(want.dim())))[1:]:
        moved = want.permute(order)
        if moved.shape != want.shape and _close(got, moved.reshape(want.shape)):
            now = _axes_text(moved.shape, [(names[k], want.shape[k]) for k in order],
                             sizes)
            right = _axes_text(want.shape, list(zip(names, want.shape)), sizes)
            #ko| return Also(f"값은 모두 있지만, {now} 순서로 놓인 원소를 차례대로 "
            #ko|             f"{right} 모양에 다시 묶은 것입니다. "
            #ko|             "모양만 바꾸면 원소의 순서가 그대로라 "
            #ko|             "축의 자리는 바뀌지 않습니다. ")
            #en| return Also(f"the values are all there, but laid out as elements in "
            #en|             f"{now} order read one after another into the shape {right}: "
            #en|             "changing the shape alone keeps the elements' order, "
            #en|             "it does not move an axis; ")
    return None


def _where_wrong(got, want, names):
    #ko| """틀린 값이 한 축의 몇 자리에만 있으면 그 말, 아니면 None."""
    #en| """If the wrong values sit at a few places of one axis, say so; else None."""
    wrong = ~torch.isclose(got.double(), want.double(), atol=1e-5, rtol=1e-4,
                           equal_nan=True)
    best = None
    for a in range(want.dim()):
        others = [k for k in range(want.dim()) if k != a]
        at = (wrong.any(dim=others) if others else wrong).nonzero().flatten().tolist()
        share = len(at) / want.shape[a]
        if 0 < len(at) < want.shape[a] and (best is None or share < best[2]):
            best = (a, at, share)
    if best is None:
        return None
    a, at, _ = best
    at = ", ".join(map(str, at[:6])) + (", ..." if len(at) > 6 else "")
    #ko| return Also(f"{names[a]} 축(축 {a})의 {at}번 자리만 틀렸고 "
    #ko|             "나머지는 맞습니다. ")
    #en| return Also(f"only index {at} along {names[a]} (axis {a}) is wrong, "
    #en|             "the rest is right; ")


def value_mistake(got, want, slips=(), axes=None, sizes=None, factors=None,
                  sums_to_one=None, last_resort=False):
    #ko| """값으로 실수를 알아봅니다. 답 got이 정답 want와 같으면 None,
    #ko| 아니면 무엇이 어긋났는지 말하는 힌트를 돌려줍니다.
    #ko| slips: (흔한 실수가 계산하는 값, 그 힌트)의 목록. 값 대신 인자 없는 함수도
    #ko|     됩니다. 처음 같은 값의 힌트를 돌려줍니다(str은 일반 힌트를 대신하고,
    #ko|     Also는 그 앞에 붙습니다). 정답과 같은 값이 된 실수는 건너뜁니다.
    #ko| axes, sizes: shape_mistake와 같습니다(want의 축 이름, 이름 붙은 크기).
    #ko| factors: 상수의 이름({"√d": 2.0, "d": 4}처럼). 답이 정답의 c배이면
    #ko|     c가 그중 무엇(역수, 제곱, 음수 포함)과 같은지 말합니다.
    #ko| sums_to_one: 정답에서 합이 1인 축(가중치라면 -1).
    #ko| 그 밖에 알아보는 관계: 텐서가 아님, 모양, 축의 순서, dtype, NaN과 inf의 자리,
    #ko| 상수 배, 상수 더하기, 전치, 다른 축으로 합이 1, 한 축 안에서 순서가
    #ko| 바뀌거나 한 칸 밀림, 한 축의 몇 자리만 틀림.
    #ko| last_resort: 알아본 관계가 없으면 어디가 얼마나 다른지 말합니다
    #ko|     (틀린 답에 None을 돌려주지 않습니다)."""
    #en| """Tell a mistake by its values: None when the answer got matches want,
    #en| else a hint saying what is off.
    #en| slips: a list of (what a usual mistake computes, its hint); a function
    #en|     without arguments may stand for the value. The first match's hint comes
    #en|     back (a str replaces the general hint, an Also goes before it); a slip
    #en|     that computes the right value is skipped.
    #en| axes, sizes: as for shape_mistake (want's axes' names, other named sizes).
    #en| factors: named constants ({"√d": 2.0, "d": 4}): an answer c times the right
    #en|     one is told which of them (inverse, square, negative too) c equals.
    #en| sums_to_one: the axis along which want adds up to 1 (-1 for weights).
    #en| Other relations it tells: not a tensor, the shape, the axes' order, the dtype,
    #en| where NaN and inf are, a constant factor, a constant added, a transpose,
    #en| adding up to 1 along another axis, one axis shuffled or shifted by one,
    #en| a few places of one axis wrong.
    #en| last_resort: when no relation is found, say where and by how much the answer
    #en|     differs (never None for a wrong answer)."""
    if got is None or got is Ellipsis:
        raise NotAnswered
    names = axes.split() if isinstance(axes, str) else list(axes or [])
    names += [f"#{i}" for i in range(len(names), want.dim())]
    for slip, said in slips:
        try:
            slip = slip() if callable(slip) else slip
        except Exception:
            continue
        if _close(got, slip) and not _close(slip, want):
            return said
    if not isinstance(got, torch.Tensor) or got.shape != want.shape:
        tensor = isinstance(got, torch.Tensor)
        moved = tensor and _order_mistake(got, want, names, sizes)
        if moved and globals().get("_TRACER") is not None:
            _TRACER.note(got, want, names, sizes, moved)
        return moved or shape_mistake(got, want, names, sizes)
    kinds = {t.dtype == torch.bool or 2 * t.is_floating_point() for t in (got, want)}
    if len(kinds) > 1:
        #ko| return Also(f"dtype이 {want.dtype}이어야 하는데 {got.dtype}입니다. ")
        #en| return Also(f"the dtype should be {want.dtype}, got {got.dtype}; ")
    if _close(got, want):
        return None
    if got.is_floating_point():
        for bad, what in ((torch.isnan(got) & ~torch.isnan(want), "NaN"),
                          (torch.isinf(got) & ~torch.isinf(want), "inf")):
            if bad.any():
                first = tuple(bad.nonzero()[0].tolist())
                #ko| return Also(f"답의 값 {int(bad.sum())}개가 {what}입니다"
                #ko|             f"(첫 위치: {first}). ")
                #en| return Also(f"{int(bad.sum())} places of the answer are {what} "
                #en|             f"(the first at {first}); ")
    g, w = got.double(), want.double()
    if (w * w).sum() > 1e-12:
        c = ((g * w).sum() / (w * w).sum()).item()
        if abs(c - 1) > 1e-4 and _close(g, c * w):
            named = _factor_name(c, factors)
            #ko| return Also(f"답의 모든 값이 정답의 {c:.4g}배입니다{named}. ")
            #en| return Also(f"every value is {c:.4g} times the right one{named}; ")
    shift = (g - w).mean()
    if _close(g - w, shift.expand_as(g)):
        #ko| return Also(f"답의 모든 값에 {shift.item():.4g}만큼 더해져 있습니다. ")
        #en| return Also(f"{shift.item():.4g} is added to every value; ")
    if (want.dim() >= 2 and got.shape[-1] == got.shape[-2]
            and _close(got, got.transpose(-2, -1)) and not _close(want, want.mT)):
        #ko| return Also("답이 마지막 두 축에 대해 대칭입니다((i, j)와 (j, i)가 같음). "
        #ko|             "정답은 대칭이 아닙니다. ")
        #en| return Also("the answer is symmetric in its last two axes ((i, j) equals "
        #en|             "(j, i)); the right one is not; ")
    if want.dim() >= 2 and _close(got, want.transpose(-2, -1)):
        #ko| return Also("답이 정답의 전치입니다. "
        #ko|             "마지막 두 축의 역할이 바뀌었습니다. ")
        #en| return Also("the answer is the transpose of the right one: "
        #en|             "its last two axes swap roles; ")
    if sums_to_one is not None and got.is_floating_point():
        s = sums_to_one % want.dim()
        for a in range(want.dim()) if not _close(g.sum(s), w.sum(s)) else ():
            if a != s and _close(g.sum(a), torch.ones_like(g.sum(a))):
                #ko| return Also(f"합이 1인 축이 {names[a]}(축 {a})입니다. "
                #ko|             f"합이 1이어야 하는 축은 {names[s]}(축 {s})입니다. ")
                #en| return Also(f"the values add up to 1 along {names[a]} (axis {a}), "
                #en|             f"not along {names[s]} (axis {s}); ")
    if sums_to_one is not None and got.is_floating_point():
        total = g.sum(sums_to_one % want.dim())
        if not _close(total, torch.ones_like(total)):
            fixed = _close(total, total.mean().expand_as(total))
            #ko| said = (f"{total.mean().item():.4g}" if fixed else
            #ko|         f"{total.min().item():.3g}부터 {total.max().item():.3g}까지")
            #en| said = (f"{total.mean().item():.4g}" if fixed else
            #en|         f"{total.min().item():.3g} to {total.max().item():.3g}")
            #ko| return Also(f"{names[sums_to_one]} 축을 따라 더한 합이 {said}입니다. "
            #ko|             "1이어야 합니다. ")
            #en| return Also(f"the values along {names[sums_to_one]} add up to {said}, "
            #en|             "not 1; ")
    for a in range(want.dim()):
        others = [k for k in range(want.dim()) if k != a]
        if want.shape[a] > 1 and others and (w.abs() > 1e-6).all():
            per = (g / w).mean(dim=others, keepdim=True)
            if _close(g, per * w) and not _close(per, per.mean().expand_as(per)):
                #ko| return Also(f"{names[a]} 축(축 {a})의 자리마다 정답에 서로 다른 수를 "
                #ko|             "곱한 값입니다. ")
                #en| return Also(f"each index along {names[a]} (axis {a}) is the right "
                #en|             "values times a factor of its own; ")
    for a in range(want.dim()):
        d = g - w
        if want.shape[a] > 1 and want.dim() > 1 and got.is_floating_point():
            if _close(d, d.mean(a, keepdim=True).expand_as(d)):
                #ko| return Also(f"{names[a]} 축을 따라 놓인 줄마다 정답에 그 줄의 수를 "
                #ko|             "통째로 더한(뺀) 값입니다. "
                #ko|             "줄 안에서의 차이는 맞습니다. ")
                #en| return Also(f"each line along {names[a]} is the right one plus (or "
                #en|             "minus) a number of its own: the differences within a "
                #en|             "line are right; ")
    for a in range(want.dim()):
        others = [k for k in range(want.dim()) if k != a]
        if want.shape[a] > 1 and others and got.is_floating_point():
            per = (g - w).mean(dim=others, keepdim=True)
            if _close(g, w + per) and not _close(per, per.mean().expand_as(per)):
                #ko| return Also(f"{names[a]} 축(축 {a})의 자리마다 정답에 서로 다른 수를 "
                #ko|             "더한(뺀) 값입니다. ")
                #en| return Also(f"each index along {names[a]} (axis {a}) is the right "
                #en|             "values plus (or minus) a number of its own; ")
    for a in range(want.dim()):
        n = want.shape[a] - 1
        for step in (1, -1) if n > 0 else ():
            if _close(got.narrow(a, max(step, 0), n), want.narrow(a, max(-step, 0), n)):
                #ko| return Also(f"{names[a]} 축(축 {a})을 따라 "
                #ko|             "값이 한 칸 밀려 있습니다. ")
                #en| return Also(f"the values are shifted by one place "
                #en|             f"along {names[a]} (axis {a}); ")
    for a in range(want.dim()):
        if want.shape[a] > 1 and _close(got.sort(a).values, want.sort(a).values):
            #ko| return Also(f"값은 맞지만 {names[a]} 축(축 {a})을 따라 "
            #ko|             "순서가 다릅니다. ")
            #en| return Also(f"the values are right but in another order "
            #en|             f"along {names[a]} (axis {a}); ")
    moved = _layout_mistake(got, want, names, sizes)
    if moved:
        return moved
    if _close(g.flatten().sort().values, w.flatten().sort().values):
        #ko| return Also("정답의 값이 모두 있지만 다른 자리에 놓였습니다. ")
        #en| return Also("every value of the right answer is there, but in other places; ")
    said = _where_wrong(got, want, names)
    if said or not last_resort:
        return said
    return _transform_said(got, want) or _difference_said(got, want, names)


def _at(index, names):
    #ko| """원소의 자리를 축의 이름으로: (쿼리 1, 키 2)."""
    #en| """An element's place in the axes' names: (queries 1, keys 2)."""
    return "(" + ", ".join(f"{n} {i}" for n, i in zip(names, index)) + ")"


def _transform_said(got, want, rank=True):
    #ko| """답이 정답의 원소마다 같은 함수(log, exp, 제곱 ...)를 취한 값이거나, 정답과
    #ko| 크기의 순서가 같으면(또는 반대이면) 그 말, 아니면 None."""
    #en| """If the answer is one function (log, exp, square ...) of the right values, element
    #en| by element, or ranks as they do (or the reverse way), say so; else None."""
    if not got.is_floating_point() or want.numel() < 3:
        return None
    g, w = got.double().flatten(), want.double().flatten()
    if not (torch.isfinite(g).all() and torch.isfinite(w).all()):
        return None
    #ko| forms = (("로그(log)를", torch.log), ("exp를", torch.exp),
    #ko|          ("시그모이드를", torch.sigmoid), ("제곱을", torch.square),
    #ko|          ("제곱근을", torch.sqrt), ("절댓값을", torch.abs), ("tanh를", torch.tanh),
    #ko|          ("ReLU를", torch.relu))
    #en| forms = (("the log", torch.log), ("exp", torch.exp), ("the sigmoid", torch.sigmoid),
    #en|          ("the square", torch.square), ("the square root", torch.sqrt),
    #en|          ("the absolute value", torch.abs), ("tanh", torch.tanh),
    #en|          ("ReLU", torch.relu))
    for name, f in forms:
        if _close(g, f(w)) and not _close(w, f(w)):
            #ko| return Also(f"답이 정답의 값마다 {name} "
            #ko|             "취한 것입니다. ")
            #en| return Also(f"the answer is {name} of the right values, element by "
            #en|             "element; ")
    if (not rank or len(set(w.tolist())) < w.numel()
            or len(set(g.tolist())) < g.numel()):
        return None
    rank_g, rank_w = g.argsort().argsort(), w.argsort().argsort()
    if torch.equal(rank_g, rank_w):
        #ko| return Also("답은 정답과 크기의 순서가 같습니다(정답이 큰 자리에서 답도 큼). "
        #ko|             "하지만 값은 다릅니다. 같은 것을 계산하되 다른 함수나 배율을 "
        #ko|             "거친 값입니다. ")
        #en| return Also("the answer ranks its values as the right one does (larger "
        #en|             "where it is larger), but the values differ: the same thing "
        #en|             "through another function or scale; ")
    if torch.equal(rank_g, w.numel() - 1 - rank_w):
        #ko| return Also("답은 정답과 크기의 순서가 정반대입니다(정답이 큰 자리에서 답이 "
        #ko|             "가장 작음). "
        #ko|             "부호나 순서가 뒤집혔습니다. ")
        #en| return Also("the answer ranks its values the opposite way to the right one "
        #en|             "(smallest where the right one is largest): a sign or an order "
        #en|             "is reversed; ")
    return None


def _difference_said(got, want, names):
    #ko| """다른 관계를 찾지 못했을 때: 몇 자리가 다르고, 가장 크게 다른 자리에서 답과
    #ko| 정답이 얼마인지, 값의 범위가 어떻게 다른지 말합니다."""
    #en| """No relation found: how many places differ, the answer and the right value
    #en| where they differ most, and how the ranges of values differ."""
    g, w = got.double(), want.double()
    wrong = ~torch.isclose(g, w, atol=1e-5, rtol=1e-4, equal_nan=True)
    gap = (g - w).abs().nan_to_num(float("inf"))
    index = [int(i) for i in torch.unravel_index(gap.argmax(), gap.shape)]
    where = _at(index, names)
    a, b = g[tuple(index)].item(), w[tuple(index)].item()
    n, total = int(wrong.sum()), want.numel()
    #ko| said = (f"원소 {total}개 가운데 {n}개가 다릅니다. 가장 크게 다른 위치 {where}에서 "
    #ko|         f"답은 {a:.4g}, 정답은 {b:.4g}입니다. ")
    #en| said = (f"{n} of {total} values differ; where they differ most, at {where}, "
    #en|         f"the answer has {a:.4g} where {b:.4g} belongs; ")
    lo_g, hi_g = g.min().item(), g.max().item()
    lo_w, hi_w = w.min().item(), w.max().item()
    if lo_g >= 0 > lo_w:
        #ko| said += "정답에는 음수가 있지만 답은 모두 0 이상입니다. "
        #en| said += "the right values include negatives, the answer has none; "
    elif lo_w >= 0 > lo_g:
        #ko| said += "정답은 모두 0 이상인데 답에는 음수가 있습니다. "
        #en| said += "the right values are all 0 or more, the answer has negatives; "
    spread_g, spread_w = hi_g - lo_g, hi_w - lo_w
    if spread_w > 0 and not 0.5 < spread_g / spread_w < 2:
        #ko| said += (f"답의 값은 {lo_g:.3g}부터 {hi_g:.3g}까지, 정답은 {lo_w:.3g}부터 "
        #ko|          f"{hi_w:.3g}까지로, 값이 퍼진 범위가 "
        #ko|          f"{spread_g / spread_w:.2g}배입니다. ")
        #en| said += (f"the answer spans {lo_g:.3g} to {hi_g:.3g}, the right values "
        #en|          f"{lo_w:.3g} to {hi_w:.3g}: {spread_g / spread_w:.2g} times as "
        #en|          "wide a spread; ")
    return Also(said)


def weights_said(got, scores, names=None, dim=-1, sums=True):
    #ko| """어텐션 가중치 got을 점수 scores의 소프트맥스(축 dim)와 견줘, 어떻게 다른지
    #ko| 말합니다: 합이 1이 아님, 음수, 점수와 순서가 다름, 점수에 어떤 수를 곱한
    #ko| 소프트맥스, 점수를 따르지만 소프트맥스가 아님. 같으면 None.
    #ko| sums=False이면 합이 얼마인지는 말하지 않습니다(이미 말한 경우)."""
    #en| """Compare attention weights got with the softmax of scores (along dim) and say
    #en| how they differ: not adding up to 1, negative, ranked unlike the scores, the
    #en| softmax of the scores times a number, following the scores but no softmax.
    #en| None when they match. sums=False leaves out what the sums are (said already)."""
    want = torch.softmax(scores, dim=dim)
    if not isinstance(got, torch.Tensor) or got.shape != want.shape:
        return shape_mistake(got, want, names)
    if _close(got, want):
        return None
    names = names.split() if isinstance(names, str) else list(names or [])
    names += [f"#{i}" for i in range(len(names), want.dim())]
    g, s = got.double(), scores.double()
    key = names[dim]
    total = g.sum(dim)
    if (g < -1e-6).any():
        #ko| said = f"가중치에 음수가 {int((g < -1e-6).sum())}개 있습니다. "
        #en| said = f"{int((g < -1e-6).sum())} weights are negative; "
    elif g.dim() == 2 and _close(g.sum(dim - 1), torch.ones_like(g.sum(dim - 1))):
        other = names[(dim - 1) % g.dim()]
        #ko| said = f"가중치의 합이 {key} 축이 아니라 {other} 축을 따라 1입니다. "
        #en| said = f"the weights add up to 1 along {other}, not along {key}; "
    elif not _close(total, torch.ones_like(total)):
        low, high = f"{total.min().item():.3g}", f"{total.max().item():.3g}"
        #ko| sums = low if low == high else f"{low}부터 {high}까지"
        #ko| said = f"{key} 축을 따라 더한 가중치의 합이 1이 아니라 {sums}입니다. "
        #en| sums = low if low == high else f"{low} to {high}"
        #en| said = f"the weights along {key} add up to {sums}, not 1; "
    else:
        #ko| said = f"{key} 축을 따라 합은 1이지만 값이 다릅니다. "
        #en| said = f"the weights add up to 1 along {key}, but their values differ; "
    said = said if sums else ""
    function = _transform_said(got, want, rank=False)
    if function:
        return Also(said + function)
    unused = (g.abs() < 1e-9).all(dim=[d for d in range(g.dim()) if d != dim % g.dim()])
    if unused.any() and not unused.all():
        at = ", ".join(str(int(i)) for i in unused.nonzero().flatten())
        #ko| said += f"{key} 축의 {at}번 자리는 가중치가 모두 0입니다. "
        #en| said += f"index {at} along {key} gets a weight of 0 everywhere; "
        return Also(said)
    top_g, top_s = g.argmax(dim), s.argmax(dim)
    #ko: 가장 큰 가중치가 여럿이면(반올림 등) 그중 하나가 점수가 가장 높은 자리이면 됩니다
    #en: with ties for the largest weight (rounding ...), the highest score may be any
    top_s_weight = g.gather(dim, top_s.unsqueeze(dim)).squeeze(dim)
    top_g = torch.where(torch.isclose(top_s_weight, g.amax(dim)), top_s, top_g)
    if not torch.equal(top_g, top_s):
        at = [int(i) for i in (top_g != top_s).nonzero()[0]]
        row = tuple(at)
        where = _at(at, [n for i, n in enumerate(names) if i != dim % g.dim()])
        high, large = int(top_s[row]), int(top_g[row])
        #ko| said += (f"{where}에서 점수가 가장 높은 자리는 {key} {high}번인데, 가장 큰 "
        #ko|          f"가중치는 {large}번에 있습니다. 가중치가 점수를 따르지 않습니다. ")
        #en| said += (f"at {where} the highest score is at {key} {high}, the largest "
        #en|          f"weight at {large}: the weights do not follow the scores; ")
        return Also(said)
    if (g > 0).all() and _close(total, torch.ones_like(total)):
        #ko: 소프트맥스라면 log(가중치)는 점수의 c배에 행마다 상수를 더한 것입니다
        #en: a softmax's log-weights are c times the scores plus a constant per row
        lg = g.log() - g.log().mean(dim, keepdim=True)
        ls = s - s.mean(dim, keepdim=True)
        c = ((lg * ls).sum() / (ls * ls).sum()).item()
        if _close(lg, c * ls, atol=1e-4):
            #ko| said += (f"가중치는 점수를 {c:.4g}배 한 것의 소프트맥스입니다. "
            #ko|          "점수에 곱한 수를 확인하세요. ")
            #en| said += (f"they are the softmax of the scores times {c:.4g}: look at "
            #en|          "what multiplies the scores; ")
            return Also(said)
    gap = (g - want.double()).abs()
    #ko| said += ("가장 큰 가중치는 점수가 가장 높은 키에 있지만, 가중치가 점수의 "
    #ko|          f"소프트맥스와 최대 {gap.max().item():.3g}만큼 다릅니다. ")
    #en| said += ("the largest weight sits on the highest score, but the weights differ "
    #en|          f"from the softmax of the scores by up to {gap.max().item():.3g}; ")
    return Also(said)


def parts_wrong(**parts):
    #ko| """여러 칸의 답: 이름=(답, 정답). 모두 맞으면 True,
    #ko| 아니면 틀린 칸의 이름을 알려 줍니다."""
    #en| """A many-part answer: name=(answer, expected). True if all are right,
    #en| else which parts are wrong."""
    wrong = [name for name, (got, want) in parts.items() if got != want]
    if not wrong:
        return True
    right = [name for name in parts if name not in wrong]
    #ko| said = f"다시 볼 답: {', '.join(wrong)}"
    #ko| said += f"(맞은 답: {', '.join(right)}). " if right else ". "
    #en| said = f"to look at again: {', '.join(wrong)}"
    #en| said += f" (right: {', '.join(right)}); " if right else "; "
    return Also(said)


def mask_mistake(got, lengths, T, causal):
    #ko| """길이로 만든 마스크(causal이면 인과 마스크와 &)의 흔한 실수를 알아보고
    #ko| 그 힌트를 돌려줍니다. 알아본 실수가 없으면 None."""
    #en| """The usual mistakes of a mask built from lengths (and'ed with the causal
    #en| mask if causal): the hint for the one recognised, or None."""
    if got is None or got is Ellipsis:
        raise NotAnswered
    real = torch.arange(T) < lengths[:, None]                    # (B, T)
    real_le = torch.arange(T) <= lengths[:, None]                # (B, T)
    tri = torch.ones(T, T, dtype=torch.bool).tril()             # (T, T)
    keys, keys_le = real[:, None, None, :], real_le[:, None, None, :]
    want = tri & keys if causal else keys
    if not isinstance(got, torch.Tensor):
        #ko| return f"마스크는 텐서여야 하는데 {type(got).__name__}입니다."
        #en| return f"the mask must be a tensor, got a {type(got).__name__}."
    if got.dtype != torch.bool:
        #ko| return (f"마스크는 bool이어야 하는데 {got.dtype}입니다. "
        #ko|         "비교(<)와 &가 bool 텐서를 만듭니다.")
        #en| return (f"the mask must be bool, got {got.dtype}: "
        #en|         "comparisons (<) and & make bool tensors.")
    if causal and got.dim() == want.dim() and all(
            g == w or w == 1 for g, w in zip(got.shape[:2], want.shape[:2])) and any(
            g != w for g, w in zip(got.shape[-2:], want.shape[-2:])):
        #ko: 축의 수와 앞의 축은 맞고, 쿼리나 키 축의 크기가 T가 아닙니다
        #en: the axes and the leading ones are right, a query or key axis is not T long
        #ko| return (f"모양이 {tuple(want.shape)}이어야 하는데 {tuple(got.shape)}입니다. "
        #ko|         f"쿼리 축과 키 축의 크기는 둘 다 T = {T}입니다. T는 인자에서 읽으세요.")
        #en| return (f"expected shape {tuple(want.shape)}, got {tuple(got.shape)}: the "
        #en|         f"query and key axes are both T = {T} long; take T from the argument.")
    if tuple(got.shape) != tuple(want.shape):
        #ko| return (f"모양이 {tuple(want.shape)}이어야 하는데 {tuple(got.shape)}입니다. "
        #ko|         "마스크가 브로드캐스팅될 축(헤드, 쿼리)마다 "
        #ko|         "크기 1인 축이 있어야 합니다.")
        #en| return (f"expected shape {tuple(want.shape)}, got {tuple(got.shape)}: "
        #en|         "the mask needs an axis of size 1 for each axis "
        #en|         "it broadcasts over (heads, queries).")
    if torch.equal(got, ~want):
        #ko| return ("True와 False가 뒤바뀌었습니다. 이 책에서 True는 '볼 수 있음'입니다"
        #ko|         "(nn.MultiheadAttention의 마스크는 반대입니다).")
        #en| return ("True and False are swapped: in this book True means 'may attend' "
        #en|         "(nn.MultiheadAttention's masks are the other way round).")
    if torch.equal(got, tri & keys_le if causal else keys_le):
        #ko| return ("길이가 n이면 실제 토큰은 위치 0부터 n-1까지입니다. "
        #ko|         "<=가 아니라 <로 비교하세요.")
        #en| return ("a length of n means positions 0 to n-1 are real: "
        #en|         "compare with <, not <=.")
    if causal and torch.equal(got, tri & real[:, None, :, None]):
        #ko| return ("패딩은 키를 가려야 합니다. 길이 마스크를 쿼리 축이 아니라 "
        #ko|         "마지막 축(키)에 두세요.")
        #en| return ("padding hides keys: put the length mask on the last axis "
        #en|         "(the keys), not on the queries.")
    if causal and torch.equal(got, tri.T & keys):
        #ko| return ("인과 마스크가 위 삼각입니다. 쿼리 i는 키 j <= i를 보므로 "
        #ko|         "아래 삼각(tril)이어야 합니다.")
        #en| return ("the causal part is upper-triangular: query i sees keys j <= i, "
        #en|         "the lower triangle (tril).")
    if causal and torch.equal(got, keys.expand(want.shape)):
        #ko| return ("인과 마스크가 빠졌습니다. "
        #ko|         "아래 삼각 (T, T) 마스크와 &로 합치세요.")
        #en| return ("the causal part is missing: "
        #en|         "combine it with the lower-triangular (T, T) mask using &.")
    return None


def show_why(markdown, plain):
    #ko| """맞힌 뒤의 풀이: 노트북(Jupyter, Colab)에서는 마크다운과 수식으로,
    #ko| 그 밖의 곳에서는 보통 글로 보여 줍니다."""
    #en| """The why after a right answer: as Markdown with math in a notebook
    #en| (Jupyter, Colab), as plain text elsewhere."""
    #ko| label = ("풀이", "   풀이: ")
    #en| label = ("Why", "   Why: ")
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        get_ipython = None
    shell = get_ipython() if get_ipython else None
    if shell is not None and getattr(shell, "kernel", None) is not None:
        #ko: 노트북의 화면은 text/markdown을, 그렇지 못한 화면은 text/plain을 보여 줍니다
        #en: a notebook front end shows text/markdown; any other shows text/plain
        display({"text/markdown": f"**{label[0]}:** {markdown}",
                 "text/plain": label[1] + plain}, raw=True)
    else:
        print(label[1] + plain)


def _as_sentences(text, lang):
    #ko| """확인이 여러 조각을 이어 만든 힌트를 문장으로 다듬습니다. 오류 메시지처럼
    #ko| 마침표로 끝난 말 뒤에 또 붙은 마침표를 하나로 줄이고, 영어에서는 마침표 뒤에
    #ko| 소문자로 시작한 조각을 대문자로 시작합니다. 코드로 시작하는 조각(split(n),
    #ko| answer_out, q's, x @ W.T)은 바꾸지 않고 앞 문장에 쌍반점으로 잇습니다."""
    #en| """Make a hint joined from pieces read as sentences: a full stop after words
    #en| that already end in one (an error's message) is dropped, and in English a
    #en| piece written lowercase-first that follows a full stop starts with a capital.
    #en| A piece that starts with code (split(n), answer_out, q's, x @ W.T) is never
    #en| capitalised: it is joined to the sentence before with a semicolon."""
    import re

    #ko: 문장이 이 단어로 시작하면 코드로 시작하는 것입니다(대문자로 바꾸지 않습니다)
    #en: a sentence that starts with one of these words starts with code
    code_words = {"view", "transpose", "reshape", "split", "chunk", "contiguous", "cat",
                  "stack", "repeat", "expand", "tril", "triu", "transformers", "torch",
                  "nn", "math", "einsum", "rescale", "acc"}
    text = re.sub(r"(?<!\.)\.\.(?=\s|$)", ".", text)
    if lang != "en":
        return text

    def start(match):
        before = match.string[:match.start()]
        if re.search(r"(\b(e\.g|i\.e|etc|vs)|\.)$", before):
            return match.group(0)
        number, token = match.group(1) or "", match.group(2)
        word = token.rstrip(",;:?!")
        if not "a" <= token[0] <= "z":
            return match.group(0)
        if (re.search(r"[^A-Za-z-]", word) or word in code_words
                or (len(word) == 1 and word != "a")):
            return match.group(0) if number else f"; {token}"
        return f". {number}{token[0].upper()}{token[1:]}"

    return re.sub(r"\. (\(\d\) )?(\S+)", start, text)


def exercise(name, hint):
    #ko| """이 장의 확인 함수를 연습 문제의 이름으로 적어 둡니다(이 셀 아래의 확인들).
    #ko| 함수의 인자 이름은 노트북에서 읽을 이름이고, hint는 알아본 실수가 없을 때의 힌트입니다."""
    #en| """Register one of this chapter's checks (below in this cell) under its exercise's
    #en| name. The function's parameters name what it reads from the notebook; hint is the
    #en| hint given when no mistake in particular was recognised."""
    def register(test):
        if not hasattr(exercise, "tests"):
            exercise.tests = {}
        exercise.tests[name] = (test, hint)
        return test

    return register


def _mixed(n):
    #ko| """확인이 입력을 뽑을 시드: 노트북에서는 n 그대로, 채점기에서는 n에 그 채점만의
    #ko| 비밀 수(CHECK_SECRET)를 섞은 수."""
    #en| """The seed a check draws its inputs from: n itself in a notebook; in the grader, n
    #en| mixed with that grading run's secret (CHECK_SECRET)."""
    secret = globals().get("CHECK_SECRET", 0)
    return n if not secret else (n * 1_000_003 + secret) % 2**62


def check_seed(n):
    #ko| """확인의 입력을 뽑기 전에 torch의 난수 생성기를 맞춥니다. 노트북에서는 언제나
    #ko| 같은 입력이 나오고, 채점기에서는 맞힌 확인을 새 입력으로 한 번 더 실행합니다.
    #ko| 그래서 노트북의 입력에 대한 결과를 적어 두었다가 돌려주는 답은 맞지 않습니다."""
    #en| """Seed torch's generator before a check draws its inputs: a notebook always gets
    #en| the same inputs, and the grader runs a check that passed once more on new ones, so
    #en| an answer that returns stored results for the notebook's inputs is not right."""
    import torch

    torch.manual_seed(_mixed(n))


def check_generator(n):
    #ko| """check_seed와 같되, 전역 생성기를 건드리지 않는 torch.Generator."""
    #en| """As check_seed, but a torch.Generator of its own (the global one left alone)."""
    import torch

    return torch.Generator().manual_seed(_mixed(n))


def _named(test, space):
    #ko| """test의 인자들을 space(노트북의 이름들)에서 찾아 test를 부르는 함수와 그 값들.
    #ko| 없는 이름은 NameError로, 재시작 뒤처럼 '위의 셀을 먼저 실행하세요'가 됩니다."""
    #en| """A function calling test with its parameters looked up in space (the notebook's
    #en| names), and those values; a missing name raises NameError, read as "run the cells
    #en| above first", as after a restart."""
    import inspect

    names = list(inspect.signature(test).parameters)
    values = {n: space[n] for n in names if n in space}

    def run():
        for n in names:
            if n not in values:
                raise NameError(f"name '{n}' is not defined", name=n)
        return test(**values)

    return run, values


def check(name):
    #ko| """연습 문제의 답을 확인합니다. 맞으면 축하하고, 아니면 힌트를 보여 줍니다.
    #ko| 확인 셀은 check("chNN-ex-...")처럼 이름만 주고, 이 장의 확인 함수가 답을 봅니다.
    #ko| test가 문자열을 돌려주면 그 실수에 맞춘 힌트이고, Also는 힌트 앞에 붙습니다."""
    #en| """Check an exercise answer: congratulate when right, give a hint when not.
    #en| A check cell gives the name alone, check("chNN-ex-..."), and this chapter's check
    #en| of that name looks at the answer. A string from the check is the hint for the
    #en| mistake it recognised; an Also goes before the hint."""
    import sys

    if name not in getattr(exercise, "tests", {}):
        #ko| print(f"⏸️ {name}: 이 노트북에 그런 이름의 연습 문제가 없습니다. "
        #ko|       "확인 셀의 이름을 고치지 말고, 준비 셀을 먼저 실행하세요.")
        #en| print(f"⏸️ {name}: no exercise of that name in this notebook. "
        #en|       "Leave the check cell's name as it is, and run the set-up cell first.")
        return
    own, hint = exercise.tests[name]
    test, values = _named(own, sys._getframe(1).f_globals)
    problem = unanswered = None
    general, tracer = hint, _Tracer(own)
    try:
        with _own_comparisons(), tracer:
            result = test()
        ok = bool(result) and not isinstance(result, str)
        if isinstance(result, Also):
            hint = f"{result}{hint}"
        elif isinstance(result, str):
            hint = result
    except NameError as error:
        #ko: 런타임을 다시 시작한 뒤에는 앞의 셀에서 만든 이름이 없습니다.
        #ko: 오답이 아니라 실행 순서의 문제입니다
        #en: after a restart, names made by earlier cells are gone:
        #en: cells to run, not a wrong answer
        #ko| print(f"⏸️ {name}: 먼저 위의 셀들을 실행하세요. "
        #ko|       f"아직 정의되지 않은 이름: `{error.name}`")
        #ko| print("   이 셀을 선택하고 Colab에서는 런타임 → 이전 셀 실행(Run before), "
        #ko|       "Jupyter에서는 Run → Run All Above Selected Cell을 누른 다음, "
        #ko|       "이 셀을 다시 실행하세요.")
        #ko| print("   답에 직접 쓴 이름이라면 철자를 확인하세요.")
        #en| print(f"⏸️ {name}: run the cells above first. "
        #en|       f"Not defined yet: `{error.name}`")
        #en| print("   Select this cell, choose Runtime → Run before in Colab "
        #en|       "(Run → Run All Above Selected Cell in Jupyter), "
        #en|       "then run this cell again.")
        #en| print("   If you wrote that name in your answer, check its spelling.")
        return
    except Exception as error:
        #ko: 답이 아직 없거나 실행되지 않아도 멈추지 않고 알려 줍니다
        #en: an answer that is missing or does not run yet is reported, not raised
        ok, said = False, str(error)
        if isinstance(error, NotAnswered) or "NoneType" in said or "'ellipsis'" in said:
            unanswered = True
        elif isinstance(error, BadShape):
            #ko: 모양을 적는 방법이 틀렸으면 그것이 힌트입니다
            #en: a shape written the wrong way: that is the hint
            hint = said
        else:
            problem = f"{type(error).__name__}: {error}"
    if ok:
        #ko| print(f"✅ {name}: 정답입니다!")
        #en| print(f"✅ {name}: correct!")
        #ko: 학생용 노트북에는 풀이 설명이 인코딩되어 있어 맞힌 뒤에만 보입니다
        #en: student notebooks hold the solutions' explanations, encoded, shown when right
        why = globals().get("SOLUTION_NOTES", {}).get(name)
        if why:
            import base64

            #ko: 마크다운(수식 포함)과, 그것을 보여 주지 못하는 곳을 위한 보통 글
            #en: the Markdown (with math) and the plain text for where it is not rendered
            show_why(*(base64.b64decode("".join(why[form])).decode()
                       for form in ("markdown", "plain")))
    else:
        if not unanswered and _unanswered(values):
            #ko: 답 칸이 None, ..., 몸통이 ...뿐인 함수이면 다른 말보다 그것이 먼저입니다
            #en: an answer still None, ... or a function whose body is only ...: that first
            hint, unanswered, problem = general, True, None
        shown = None if unanswered else tracer.shown(hint, problem, hint == general)
        #ko| hint = _as_sentences(hint, "ko")
        #en| hint = _as_sentences(hint, "en")
        #ko| print(f"❌ {name}: 아직 아닙니다. 힌트: {hint}")
        #en| print(f"❌ {name}: not yet. Hint: {hint}")
        if unanswered:
            #ko| print("   아직 답이 없습니다: 위 셀의 None이나 ...를 답으로 바꾸고 "
            #ko|       "그 셀을 실행한 다음, 이 셀을 다시 실행하세요. "
            #ko|       "함수라면 return으로 값을 돌려주는지도 보세요.")
            #en| print("   No answer yet: replace the None or ... in the cell above, "
            #en|       "run it, then run this cell again. "
            #en|       "If it is a function, check that it returns its result.")
        elif problem:
            #ko| print(f"   (확인하다가 난 오류: {problem})")
            #en| print(f"   (error while checking: {problem})")
        if shown:
            print(shown)


#ko: --- 6-10장 ---
#en: --- chapters 6-10 ---


def terms_said(got, parts):
    #ko| """곱으로 세는 답(바이트, MiB)이 정답의 몇 배인지, 그리고 곱의 어느 항을 하나에서
    #ko| 셋까지 바꾸면 그 값이 나오는지 말합니다. parts: 항마다 (맞는 값, [(틀린 값, 그
    #ko| 말), ...])의 목록."""
    #en| """How many times the right value an answer counted as a product (bytes, MiB) is,
    #en| and which one to three of the product's terms, changed, give it. parts: per term,
    #en| (right value, [(wrong value, what it says), ...])."""
    import itertools
    import math

    right = math.prod(v for v, _ in parts)
    found = []
    #ko: 항 하나나 둘로 설명되면 그 모두를, 아니면 셋으로 설명되는 것을 찾습니다
    #en: every explanation by one or two terms, else those by three
    for ks in ((1, 2), (3,)):
        for k in ks:
            for at in itertools.combinations(range(len(parts)), k):
                for picks in itertools.product(*(parts[i][1] for i in at)):
                    v = right
                    for i, (w, _) in zip(at, picks):
                        v = v / parts[i][0] * w
                    if abs(got - v) <= 1e-3 * abs(v):
                        found.append(", ".join(said for _, said in picks))
        if found:
            break
    ratio = got / right

    def shown(x):
        return f"{x:.4g}" if x < 1e4 else f"{x:.0f}"

    if ratio >= 1:
        #ko| head = f"정답의 {shown(ratio)}배입니다. "
        #en| head = f"{shown(ratio)} times the right value: "
    elif ratio > 0:
        #ko| head = f"정답의 1/{shown(1 / ratio)}입니다. "
        #en| head = f"1/{shown(1 / ratio)} of the right value: "
    else:
        #ko| return f"0보다 커야 하는데 {got}입니다. "
        #en| return f"{got} must be above 0. "
    if found:
        #ko| return head + "이 값은 다음과 같이 계산할 때 나옵니다: " + ". 또는 ".join(
        #ko|     found[:4]) + ". "
        #en| return head + "that is the value you get with " + "; or with ".join(
        #en|     found[:4]) + ". "
    #ko| return (head + "문제의 항을 셋까지 빼거나 바꾼 것으로는 설명되지 않습니다. "
    #ko|         "곱하는 항을 하나씩 다시 세어 보세요. ")
    #en| return (head + "no one to three terms of the problem left out or changed "
    #en|         "explain it: count the terms of the product again, one by one. ")


def mha_reference(layer, query, key, value, **masks):
    #ko| """6장의 MultiHeadAttention 레이어와 같은 가중치를 복사한 nn.MultiheadAttention의
    #ko| 결과와 헤드별 가중치(기준값). masks: key_padding_mask, attn_mask."""
    #en| """The output and per-head weights of an nn.MultiheadAttention holding a copy of
    #en| the weights of a chapter 6 MultiHeadAttention layer (the reference). masks:
    #en| key_padding_mask, attn_mask."""
    import torch

    ref = torch.nn.MultiheadAttention(layer.d_model, layer.n_head, batch_first=True).eval()
    with torch.no_grad():
        ref.in_proj_weight.copy_(layer.in_proj.weight)
        ref.in_proj_bias.copy_(layer.in_proj.bias)
        ref.out_proj.weight.copy_(layer.out_proj.weight)
        ref.out_proj.bias.copy_(layer.out_proj.bias)
        return ref(query, key, value, average_attn_weights=False, **masks)


def factor_mistake(got, want, terms):
    #ko| """수로 적은 답이 정답의 몇 배인지 보고, 그 배율을 만드는 실수를 terms에서
    #ko| 하나나 둘 찾습니다. terms: (배율, 그 배율을 만드는 실수의 설명)의 목록.
    #ko| 찾으면 배율과 설명을 담은 Also, 못 찾으면 None."""
    #en| """How many times the right value a number answer is, and the slip (one of terms,
    #en| or two together) that makes that factor. terms: a list of (factor, what makes it).
    #en| An Also naming the factor and the slip, or None."""
    if (isinstance(got, bool) or not isinstance(got, (int, float))
            or not want or not got):
        return None
    ratio = got / want

    def near(a, b):
        return abs(a - b) <= 1e-6 * abs(b)

    if near(ratio, 1):
        return None

    found = next(([said] for factor, said in terms if near(ratio, factor)), None)
    if found is None:
        found = next(([said_1, said_2] for i, (factor_1, said_1) in enumerate(terms)
                      for factor_2, said_2 in terms[i + 1:]
                      if near(ratio, factor_1 * factor_2)), None)
    if found is None:
        return None
    if ratio >= 1:
        #ko| head = f"정답의 {ratio:.4g}배입니다. "
        #en| head = f"the answer is {ratio:.4g} times the right value: "
    else:
        #ko| head = f"정답의 1/{1 / ratio:.4g}입니다. "
        #en| head = f"1/{1 / ratio:.4g} of the right value: "
    return Also(head + " ".join(found) + " ")


def axes_said(label, got, names, sizes):
    #ko| """모양을 적은 답 got이 names 순서의 축(크기는 sizes[이름])과 어떻게 다른지,
    #ko| 축의 이름으로 말합니다. 같으면 None."""
    #en| """How a shape written as an answer, got, differs from the axes names (each of size
    #en| sizes[name]), said by the axes' names; None if it does not."""
    want = tuple(sizes[name] for name in names)
    got = tuple(got)
    if got == want:
        return None

    def which(size, but=None):
        #ko: 그 크기를 가진 차원의 이름들
        #en: the names of the dimensions of that size
        found = [n for n in sizes if sizes[n] == size and n != but]
        #ko| return ", ".join(found[:-1]) + " 또는 " * (len(found) > 1) + "".join(found[-1:])
        #en| return ", ".join(found[:-1]) + " or " * (len(found) > 1) + "".join(found[-1:])

    shown = ", ".join(names)
    if len(got) == len(want) and sorted(got) == sorted(want):
        #ko| return (f"{label}: 크기는 맞지만 축의 순서가 다릅니다. "
        #ko|         f"({shown}) 순서입니다. ")
        #en| return (f"{label}: the sizes are right but the axes are in another "
        #en|         f"order: ({shown}). ")
    for i, name in enumerate(names):
        if len(got) == len(want) - 1 and got == want[:i] + want[i + 1:]:
            #ko| return (f"{label}: {name} 축(크기 {sizes[name]})이 빠졌습니다. "
            #ko|         f"({shown}) 순서입니다. ")
            #en| return (f"{label}: the {name} axis (size {sizes[name]}) is missing: "
            #en|         f"({shown}). ")
    for i in range(len(got)):
        if len(got) == len(want) + 1 and got[:i] + got[i + 1:] == want:
            #ko| return (f"{label}: 크기 {got[i]}인 축이 하나 더 있습니다. "
            #ko|         f"({shown}) 순서입니다. ")
            #en| return (f"{label}: one axis too many, of size {got[i]}: "
            #en|         f"({shown}). ")
    for i in range(len(got) - 1):
        if (len(got) == len(want) + 1
                and got[:i] + (got[i] * got[i + 1],) + got[i + 2:] == want):
            #ko| return (f"{label}: 크기 {got[i]}, {got[i + 1]}인 두 축은 한 축 "
            #ko|         f"{names[i]} = {want[i]}이어야 합니다. ({shown}) 순서입니다. ")
            #en| return (f"{label}: the axes {got[i]} and {got[i + 1]} make one axis, "
            #en|         f"as in: {names[i]} = {want[i]}: ({shown}). ")
    if len(got) != len(want):
        #ko| return f"{label}: 축이 {len(want)}개({shown})여야 하는데 {len(got)}개입니다. "
        #en| return f"{label}: expected {len(want)} axes ({shown}), got {len(got)}. "
    said = []
    for i, (name, size) in enumerate(zip(names, want)):
        if got[i] != size:
            other = which(got[i], but=name)
            #ko| said.append(f"축 번호 {i}: {name} = {size}인데 {got[i]}입니다"
            #ko|             + (f"(이 크기는 {other})" if other else ""))
            #en| said.append(f"axis {i} is {name} = {size}, got {got[i]} instead"
            #en|             + (f" (the size of {other})" if other else ""))
    #ko| return f"{label}: " + ", ".join(said) + ". "
    #en| return f"{label}: " + "; ".join(said) + ". "


#ko: --- 확인이 기대는 비교는 확인 자신의 것 ---
#en: --- the comparisons a check relies on are its own ---


def _book_originals():
    #ko| """torch, torch.nn.functional, math와 Tensor의 속성을 처음 본 그대로 한 번
    #ko| 적어 둡니다(준비 셀이 실행될 때). 준비 셀을 다시 실행해도 처음 적은 것을
    #ko| 씁니다."""
    #en| """Note once, as first seen (when the set-up cell runs), the attributes of
    #en| torch, torch.nn.functional, math and Tensor; running the set-up cell again
    #en| keeps that note."""
    import math
    import sys
    import types

    import torch.nn.functional

    stash = sys.modules.get("_attention_book_originals")
    if getattr(stash, "saved", None) is None:
        stash = types.ModuleType("_attention_book_originals")
        #ko: Tensor에 나중에 더해진 속성(Tensor.__eq__ = ...)은 확인하는 동안 치웁니다
        #en: attributes added to Tensor later (Tensor.__eq__ = ...) are set aside while
        #en: checking
        owners = ((torch, False), (torch.nn.functional, False), (math, False),
                  (torch.Tensor, True))
        stash.saved = [(owner, dict(vars(owner)), added) for owner, added in owners]
        sys.modules[stash.__name__] = stash
    return stash.saved


class _own_comparisons:
    #ko| """확인하는 동안 torch.allclose, torch.equal, math.isclose, Tensor.__eq__ 같은
    #ko| 이름을 준비 셀이 본 그대로 되돌리고, 끝나면 그 전의 것을 다시 놓습니다. 노트북에서
    #ko| 이 이름들을 바꿔도(True만 돌려주게 해도) 판정은 바뀌지 않습니다."""
    #en| """While a check runs, put torch.allclose, torch.equal, math.isclose, Tensor.__eq__
    #en| and the like back as the set-up cell saw them, and restore what was there after:
    #en| patching them in the notebook (to return True, say) changes no verdict."""

    def __enter__(self):
        self.undo = []
        missing = object()
        self.missing = missing
        for owner, saved, added in _book_originals():
            now = vars(owner)
            changed = [key for key, value in saved.items()
                       if now.get(key, missing) is not value]
            extra = [key for key in now if key not in saved] if added else []
            for key in changed + extra:
                self.undo.append((owner, key, now.get(key, missing)))
            for key in changed:
                setattr(owner, key, saved[key])
            for key in extra:
                delattr(owner, key)
        return self

    def __exit__(self, *error):
        for owner, key, value in reversed(self.undo):
            if value is self.missing:
                delattr(owner, key)
            else:
                setattr(owner, key, value)
        return False


#ko: --- 아직 답이 없는 칸 ---
#en: --- answers not written yet ---


def _is_stub(value):
    #ko| """몸통이 ...(또는 pass, 설명 문자열)뿐인 함수이거나, 그런 메서드만 가진
    #ko| 클래스인가."""
    #en| """A function whose body is only ... (or pass, a docstring), or a class whose own
    #en| methods are all such functions."""
    import dis
    import types

    if isinstance(value, type):
        own = [v for v in vars(value).values() if isinstance(v, types.FunctionType)]
        return bool(own) and all(_is_stub(f) for f in own)
    if not isinstance(value, types.FunctionType):
        return False
    skipped = ("RESUME", "NOP", "CACHE", "COPY_FREE_VARS", "MAKE_CELL")
    steps = [(i.opname, i.argval) for i in dis.get_instructions(value)
             if i.opname not in skipped]
    return steps in ([("RETURN_CONST", None)],
                     [("LOAD_CONST", None), ("RETURN_VALUE", None)])


def _unanswered(values):
    #ko| """확인 함수가 인자로 받은 값(답과 장의 이름) 가운데 아직 None이나 ...이거나,
    #ko| 몸통이 ...뿐인 함수가 있는가."""
    #en| """Whether a value the check took as a parameter (an answer, a chapter's name) is
    #en| still None or ..., or a function whose body is only ...."""
    return any(v is None or v is Ellipsis or _is_stub(v) for v in values.values())


#ko: --- 학습자의 함수가 모양을 어떻게 바꾸는지: 모양 추적 ---
#en: --- what the learner's function does to the shapes: the shape trace ---

class _Run:
    #ko| """확인이 부른 학습자의 함수 한 번: 그 프레임, 인자, 텐서 연산들."""
    #en| """One call of the learner's code made by a check: its frame, arguments,
    #en| tensor ops."""

    def __init__(self, frame):
        code = frame.f_code
        self.frame, self.ops, self.error = frame, [], None
        self.name = getattr(code, "co_qualname", code.co_name)
        count = code.co_argcount + code.co_kwonlyargcount
        self.args = [(n, frame.f_locals.get(n)) for n in code.co_varnames[:count]
                     if n != "self"]


class _Tracer:
    #ko| """확인하는 동안 torch의 __torch_function__ 모드로, 확인이 부른 학습자의 코드
    #ko| (이 셀과 확인 셀, 설치된 라이브러리의 코드가 아닌 것) 안에서 일어난 텐서 연산을
    #ko| 적습니다. 모양이 틀렸거나 학습자의 코드에서 오류가 나면 그 실행을 단계별로
    #ko| 보여 줍니다. 적지 못하는 곳(채점기의 대리 함수)에서는 아무것도 보태지 않습니다."""
    #en| """While a check runs, record with torch's __torch_function__ mode the tensor ops
    #en| made inside the learner's code that the check called (code that is neither this
    #en| cell, the check cell nor an installed library's). When the shape is wrong or the
    #en| learner's code raised, show that run step by step. Where nothing can be recorded
    #en| (the grader's proxies), it adds nothing."""

    def __init__(self, test):
        import sys

        self.runs, self.request, self.mode = [], None, None
        self.mine = sys._getframe().f_code.co_filename
        self.test_codes = set()
        todo = [getattr(test, "__code__", None)]
        while todo:
            code = todo.pop()
            if code is not None and code not in self.test_codes:
                self.test_codes.add(code)
                todo += [c for c in code.co_consts if isinstance(c, type(code))]
        self.library = self.failed = None
        self.check_file = getattr(getattr(test, "__code__", None), "co_filename", None)

    def __enter__(self):
        global _TRACER
        try:
            import torch.overrides

            tracer = self

            class Record(torch.overrides.TorchFunctionMode):
                def __torch_function__(self, func, types, args=(), kwargs=None):
                    kwargs = kwargs or {}
                    run = tracer.owner()
                    if run is None or len(run.ops) >= 400:
                        return func(*args, **kwargs)
                    op = [func, args, kwargs, None, None]
                    run.ops.append(op)
                    try:
                        out = func(*args, **kwargs)
                    except Exception as error:
                        op[4] = error
                        raise
                    if not _tensors(out):
                        run.ops.pop()
                    op[3] = out
                    return out

            self.mode = Record()
            self.mode.__enter__()
        except Exception:
            self.mode = None
        _TRACER = self
        return self

    def __exit__(self, *error):
        global _TRACER
        _TRACER = None
        if self.mode is not None:
            try:
                self.mode.__exit__(None, None, None)
            except Exception:
                pass
        if error[1] is not None:
            self.failed = error[1]
        return False

    def owner(self):
        #ko: 연산을 부른 프레임에서 위로: 확인의 test에 닿기 전, 가장 바깥의 학습자 코드
        #en: up from the op's caller: the outermost learner code below the check's test
        import sys

        frame, call = sys._getframe(2), None
        if self.library is None:
            self.library = {getattr(m, "__file__", None)
                            for m in list(sys.modules.values())}
        while frame is not None:
            code = frame.f_code
            if code in self.test_codes or code.co_filename == self.check_file:
                break
            if code.co_filename == self.mine:
                return None
            if (code.co_filename not in self.library
                    and not code.co_filename.startswith(("<frozen", sys.prefix,
                                                         sys.base_prefix))):
                call = frame
            frame = frame.f_back
        if frame is None or call is None:
            return None
        if not self.runs or self.runs[-1].frame is not call:
            self.runs.append(_Run(call))
            del self.runs[:-40]
        return self.runs[-1]

    def note(self, got, want, names, sizes, said):
        #ko: 모양이 틀렸다는 말과, 그 말을 만든 텐서와 축의 이름
        #en: a wrong shape was said: the tensor it was said of, and the axes' names
        self.request = (got, tuple(getattr(want, "shape", want)), list(names),
                        dict(sizes or {}), str(said))

    def shown(self, hint, problem, generic=False):
        #ko: 틀린 모양을 만든 실행, 또는 오류가 난 실행을 보여 줍니다. 확인 자신이 오류를
        #ko: 냈으면 마지막 실행을, 일반 힌트뿐이면 추적이 실수를 짚을 때(전역 변수, 어느
        #ko: 축에도 없는 크기, 오류)만 마지막 실행을 보여 줍니다
        #en: show the run that made the wrong shape, or the run that raised; when the check
        #en: itself raised, the last run; when only the general hint is left, the last run
        #en: only if the trace points at the mistake (a global, a size no axis has, an
        #en: error)
        try:
            last = self.runs[-1] if self.runs else None
            if last is not None and last.ops and last.ops[-1][4] is not None:
                return _trace_text(last, None)[0]
            failed = self.failed
            if failed is not None and problem:
                tb, frames = failed.__traceback__, set()
                while tb is not None:
                    frames.add(tb.tb_frame)
                    tb = tb.tb_next
                for run in reversed(self.runs):
                    if run.frame in frames:
                        return _trace_text(run, None, error=failed)[0]
            if self.request is not None and self.request[4] in hint:
                got = self.request[0]
                shape = tuple(getattr(got, "shape", got))
                found = next((run for run in reversed(self.runs)
                              if any(_holds(op[3], got) for op in run.ops)), None)
                #ko: 확인이 답을 바꾼 뒤(정수로 바꾸는 것처럼) 말했으면, 같은 모양을
                #ko: 마지막에 낸 실행
                #en: the check said it of a converted answer (made integer, say): the run
                #en: that ended in that shape
                found = found or next(
                    (run for run in reversed(self.runs) if run.ops
                     and any(tuple(t.shape) == shape
                             for t in _tensors(run.ops[-1][3]))), None)
                if found is not None:
                    return _trace_text(found, self.request)[0]
            if last is not None and (problem or generic):
                text, kind = _trace_text(last, None)
                if problem or kind in ("global", "odd", "error"):
                    return text
        except Exception:
            return None
        return None


_TRACER = None


def _tensors(value):
    #ko| """값 안의 텐서들(텐서 하나, 또는 텐서의 튜플이나 리스트)."""
    #en| """The tensors in a value (one tensor, or a tuple or list of tensors)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [v for v in value if isinstance(v, torch.Tensor)]
    return []


def _holds(value, got):
    return any(t is got for t in _tensors(value))


def _op_name(func, args):
    #ko| """연산의 짧은 이름: view, transpose, @, [...], .mT."""
    #en| """An op's short name: view, transpose, @, [...], .mT."""
    name = getattr(func, "__name__", None) or str(func)
    if name == "__get__":
        return "." + getattr(getattr(func, "__self__", None), "__name__", "?")
    signs = {"__matmul__": "@", "__rmatmul__": "@", "__add__": "+", "__radd__": "+",
             "__sub__": "-", "__rsub__": "-", "__mul__": "*", "__rmul__": "*",
             "__truediv__": "/", "__rtruediv__": "/", "__neg__": "-", "__and__": "&",
             "__or__": "|", "__invert__": "~", "__pow__": "**", "__getitem__": "[]",
             "__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">=",
             "__eq__": "==",
             "__iadd__": "+=", "__imul__": "*="}
    return signs.get(name, name.strip("_"))


def _shown_arg(value):
    #ko| """텐서가 아닌 인자를 짧게: 1, (2, 3), 1:3, ..."""
    #en| """A non-tensor argument, short: 1, (2, 3), 1:3, ..."""
    if isinstance(value, slice):
        parts = [("" if v is None else str(v)) for v in (value.start, value.stop)]
        step = "" if value.step is None else f":{value.step}"
        return ":".join(parts) + step
    if value is Ellipsis:
        return "..."
    if isinstance(value, (tuple, list)):
        return ", ".join(_shown_arg(v) for v in value)
    if isinstance(value, torch.Tensor):
        return "t"
    text = repr(value)
    return text if len(text) <= 12 else text[:11] + "…"


def _trace_names(run, request):
    #ko| """축의 이름과 크기: 확인이 말한 이름(want의 축과 그 밖의 크기), 없으면 입력에서
    #ko| (3축 텐서는 B, T, C, 4축은 B, H, T, D, 헤드 수 인자는 H)."""
    #en| """The axes' names and sizes: those the check gave (want's axes and other sizes), or
    #en| else from the input (a 3-axis tensor is B, T, C, a 4-axis one B, H, T, D, a number
    #en| of heads H)."""
    named = {}
    if request is not None:
        _, want, names, sizes, _ = request
        for name, size in list(zip(names, want)) + list(sizes.items()):
            if not name.startswith("#") and name not in named:
                named[name] = size
        return named
    for arg, value in run.args:
        if isinstance(value, torch.Tensor) and value.dim() in (3, 4):
            sizes = [int(n) for n in value.shape]
            if value.dim() == 3 and "qkv" in arg and sizes[2] % 3 == 0:
                #ko: 합친 투영 (B, T, 3C)
                #en: a fused projection (B, T, 3C)
                sizes[2] //= 3
            for name, size in zip("BTC" if value.dim() == 3 else "BHTD", sizes):
                named.setdefault(name, size)
        elif isinstance(value, int) and arg in ("n_head", "n_heads", "H", "num_heads"):
            named.setdefault("H", value)
    #ko: 모듈의 메서드이면 그 모듈의 헤드 수도
    #en: a module's method: that module's number of heads too
    heads = [getattr(run.frame.f_locals.get("self"), n, None)
             for n in ("n_head", "num_heads", "n_heads")]
    heads = [h for h in heads if isinstance(h, int)]
    if heads:
        named.setdefault("H", heads[0])
    if "C" in named and "H" in named and named["H"] and named["C"] % named["H"] == 0:
        named.setdefault("D", named["C"] // named["H"])
    return named


def _trace_text(run, request, error=None, most=12):
    #ko| """한 실행을 연산마다 한 줄로: 입력과 출력의 모양을 축의 이름으로, 필요한 것에서
    #ko| 처음 벗어난 단계에 표시를 해서."""
    #en| """One run, one line per op: input and output shapes in the axes' names, the first
    #en| step that departs from what the exercise needs marked."""
    named = _trace_names(run, request)
    axes = list(named.items())

    def shape(t):
        #ko: 이름이 하나뿐인 크기는 이름으로, 나머지는 수로
        #en: a size with exactly one name shows the name, any other its number
        parts = []
        for n in t.shape:
            found = [k for k, v in axes if v == int(n)]
            parts.append(found[0] if len(found) == 1 else str(int(n)))
        return "(" + ", ".join(parts) + ")"

    globals_ = {id(v): k for k, v in run.frame.f_globals.items()
                if isinstance(v, torch.Tensor)}
    args = {id(v): k for k, v in run.args if isinstance(v, torch.Tensor)}

    def shown_input(t):
        if id(t) in globals_ and id(t) not in args:
            #ko: 전역 변수의 모양은 수로: 크기가 우연히 같은 축의 이름을 붙이지 않습니다
            #en: a global's shape in numbers: no axis name that its sizes match by chance
            #ko| return f"{globals_[id(t)]} {tuple(t.shape)}(전역)"
            #en| return f"{globals_[id(t)]} {tuple(t.shape)} (global)"
        return shape(t)

    lines, mark, why, failed, error_why, kind = [], None, "", None, "", None
    used = {id(t) for op in run.ops
            for t in _tensors(list(op[1]) + list(op[2].values()))}
    for i, (func, a, k, out, err) in enumerate(run.ops):
        inputs = [v for v in list(a) + list(k.values())]
        tensors = [v for v in inputs if isinstance(v, torch.Tensor)]
        tensors += [t for v in inputs if isinstance(v, (tuple, list))
                    for t in _tensors(v)]
        others = [_shown_arg(v) for v in list(a)[1:]
                  if not isinstance(v, torch.Tensor) and v is not None]
        name = _op_name(func, a)
        if others and name not in ("+", "-", "*", "/", "@", "**", "&", "|"):
            name += f"({', '.join(others)})"[:28]
        outs = _tensors(out)
        result = ("✗" if err is not None else
                  ", ".join(shape(t) for t in outs[:3])
                  + (" …" if len(outs) > 3 else ""))
        lines.append((name, ", ".join(shown_input(t) for t in tensors[:3]), result))
        if err is not None and failed is None:
            first = (str(err) or " ").splitlines()[0][:90]
            failed, error_why = i, f"{type(err).__name__}: {first}"
        for t in tensors:
            rank_of_args = {v.dim() for _, v in run.args if isinstance(v, torch.Tensor)}
            unused_arg = any(isinstance(v, torch.Tensor) and id(v) not in used
                             for _, v in run.args)
            if (mark is None and id(t) in globals_ and id(t) not in args and unused_arg
                    and t.dim() in rank_of_args):
                kind = "global"
                #ko| mark, why = i, (f"인자 대신 전역 변수를 씁니다({globals_[id(t)]}). "
                #ko|                 "인자는 쓰이지 않았습니다")
                #en| mark, why = i, (f"this uses the global {globals_[id(t)]}, not an "
                #en|                 "argument; the argument is never used")
    if mark is None and named:
        sizes = set(named.values()) | {1}
        sizes |= {a * b for x, a in named.items() for y, b in named.items() if x < y}
        inputs = {int(n) for _, v in run.args if isinstance(v, torch.Tensor)
                  for n in v.shape}
        sizes |= inputs | {n // m for n in inputs for m in named.values()
                           if m and n % m == 0 and n // m <= 4}
        for i, op in enumerate(run.ops):
            odd = [int(n) for t in _tensors(op[3]) for n in t.shape
                   if int(n) not in sizes]
            if odd and (failed is None or i < failed):
                kind = "odd"
                #ko| mark, why = i, (f"크기가 {odd[0]}인 축이 생깁니다. 이 문제에는 "
                #ko|                 f"크기가 {odd[0]}인 축이 없습니다")
                #en| mark, why = i, (f"an axis of size {odd[0]} appears; no axis of this "
                #en|                 f"exercise is {odd[0]} long")
                break
    if failed is not None and (mark is None or mark > failed):
        kind = "error"
        #ko| mark, why = failed, f"여기서 오류: {error_why}"
        #en| mark, why = failed, f"the error is here: {error_why}"
    if mark is None and request is not None:
        got, want = request[0], request[1]
        right = [i for i, op in enumerate(run.ops)
                 if any(tuple(t.shape) == want for t in _tensors(op[3]))]
        last = next((i for i, op in enumerate(run.ops) if _holds(op[3], got)), None)
        shape_got = tuple(getattr(got, "shape", got))
        if last is None and run.ops and any(tuple(t.shape) == shape_got
                                            for t in _tensors(run.ops[-1][3])):
            last = len(run.ops) - 1
        if right and last is not None and right[-1] < last:
            made = {id(t) for t in _tensors(run.ops[right[-1]][3])}
            after = next((i for i in range(right[-1] + 1, len(run.ops))
                          if made & {id(t) for t in _tensors(list(run.ops[i][1]))}),
                         right[-1] + 1)
            #ko| mark, why = after, (f"{right[-1] + 1}단계에서 모양이 맞았는데, 이 단계가 "
            #ko|                     "그것을 바꿉니다")
            #en| mark, why = after, (f"the shape was right after step {right[-1] + 1}; this "
            #en|                     "step changes it")
        elif last is not None:
            #ko| mark, why = last, "돌려준 모양이 이 단계에서 나옵니다"
            #en| mark, why = last, "the returned shape comes from this step"
    #ko: 같은 줄이 이어지면 한 줄로(헤드마다 도는 루프)
    #en: the same line repeated becomes one line (a loop over heads)
    rows, i = [], 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and lines[j + 1] == lines[i] and mark != j + 1:
            j += 1
        rows.append((i, j - i + 1))
        i = j + 1
    if len(rows) > most:
        at = next((r for r, (i, _) in enumerate(rows) if i == mark), len(rows) - 1)
        keep = set(range(3)) | set(range(max(0, at - 4), at + 5))
        keep |= set(range(len(rows) - 2, len(rows))) if len(keep) < most else set()
        rows = [row if r in keep else None for r, row in enumerate(rows)]
    sizes_said = ", ".join(f"{k}={v}" for k, v in named.items())
    args_said = ", ".join(f"{k} {shape(v)}" if isinstance(v, torch.Tensor) else
                          f"{k}={v!r}" if len(repr(v)) <= 16 else
                          f"{k}={type(v).__name__}" for k, v in run.args)
    sizes_said = f" ({sizes_said})" if sizes_said else ""
    #ko| out = [f"   모양 추적: 확인의 입력으로 실행한 {run.name}({args_said}){sizes_said}:"]
    #en| out = [f"   Shape trace of {run.name}({args_said}) on the check's input"
    #en|        f"{sizes_said}:"]
    width = min(22, max([len(line[0]) for line in lines] + [4]))
    skipped = False
    for row in rows:
        if row is None:
            if not skipped:
                out.append("        …")
            skipped = True
            continue
        skipped = False
        i, times = row
        name, inputs, result = lines[i]
        arrow = "→" if i == mark else " "
        again = f"  ×{times}" if times > 1 else ""
        text = f"    {arrow} {i + 1:>2}. {name:<{width}} {inputs} → {result}{again}"
        if i == mark:
            text += f"   ← {why}"
        out.append(text)
    if not run.ops:
        #ko| out.append("      (텐서 연산이 없습니다)")
        #en| out.append("      (no tensor ops)")
    if failed is not None and mark != failed:
        #ko| out.append(f"      {failed + 1}단계에서 오류: {error_why}")
        #en| out.append(f"      step {failed + 1} raised {error_why}")
    if error is not None and failed is None:
        #ko| out.append(f"      그 뒤에 오류: {type(error).__name__}: {str(error)[:90]}")
        #en| out.append(f"      then an error: {type(error).__name__}: {str(error)[:90]}")
    return "\n".join(out), kind


#ko: --- 확인 셀은 언제나 이 셀의 check로 ---
#en: --- a check cell always runs this cell's check ---


def _keep_book_names(info=None):
    #ko| """확인 셀이 실행되기 직전에 check와 그 도우미들을 이 준비 셀의 것으로
    #ko| 되돌립니다. 답 칸에서 같은 이름을 다시 정의해도(일부러든 아니든) 확인 셀은
    #ko| 책의 확인으로 답을 봅니다. 다른 셀에서는 아무것도 하지 않습니다."""
    #en| """Just before a check cell runs, put back this set-up cell's check and its
    #en| helpers: an answer cell that redefines one of those names (on purpose or not)
    #en| does not change what the check cell checks. Other cells are left alone."""
    import re

    from IPython import get_ipython as shell_

    if re.search(r'\bcheck\(\s*"ch\d\d-ex-', getattr(info, "raw_cell", None) or ""):
        shell_().user_ns.update(BOOK_NAMES)


#ko: 이 셀에서 정의한 함수와 클래스
#en: the functions and classes this cell defines
BOOK_NAMES = {name: value for name, value in globals().items()
              if getattr(getattr(value, "__code__", None), "co_filename", None)
              == _keep_book_names.__code__.co_filename}
BOOK_NAMES.update(NotAnswered=NotAnswered, Also=Also, BadShape=BadShape, _Run=_Run,
                  _Tracer=_Tracer, _own_comparisons=_own_comparisons)
_book_originals()
try:
    _shell = get_ipython()
except NameError:
    _shell = None
if _shell is not None and hasattr(_shell, "events"):
    for _callback in list(_shell.events.callbacks["pre_run_cell"]):
        if getattr(_callback, "__name__", "") == "_keep_book_names":
            _shell.events.unregister("pre_run_cell", _callback)
    _shell.events.register("pre_run_cell", _keep_book_names)
