#ko: 9장 연습 문제의 확인들. 확인 셀 check("ch09-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 9's exercise checks, called by the check cells, check("ch09-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.
import math

import torch
import torch.nn.functional as F



def _rotary_reference(layer, x, positions, mask):
    #ko: 이 장의 RotaryAttention이 하는 계산을 여기서 따로 합니다(노트북의 함수를 쓰지
    #ko: 않습니다). 출력 (B, T, C)와 회전한 키, 밸류 (B, H_kv, T, D)를 돌려줍니다.
    #ko: ch09-ex-prefill과 ch09-ex-rolling의 확인이 씁니다
    #en: what this chapter's RotaryAttention computes, redone here (no function of the
    #en: notebook): the output (B, T, C) and the rotated keys and the values
    #en: (B, H_kv, T, D). The checks of ch09-ex-prefill and ch09-ex-rolling use it
    B, T, _ = x.shape
    H, H_kv, D = layer.n_head, layer.n_kv_head, layer.d_head
    q, k, v = F.linear(x, layer.qkv.weight, layer.qkv.bias).split([H * D, H_kv * D,
                                                                   H_kv * D], dim=-1)
    q = q.view(B, T, H, D).transpose(1, 2)
    k, v = (t.view(B, T, H_kv, D).transpose(1, 2) for t in (k, v))
    inv = 1.0 / layer.base ** (torch.arange(0, D, 2, dtype=torch.float) / D)
    a = positions[..., None].float() * inv
    a = torch.cat([a, a], dim=-1)[:, None]                             # (B, 1, T, D)
    def turn(t):
        t1, t2 = t.chunk(2, dim=-1)
        return t * a.cos() + torch.cat([-t2, t1], dim=-1) * a.sin()
    q, k = turn(q), turn(k)
    scores = (q @ k.repeat_interleave(H // H_kv, dim=1).transpose(-2,
                                                                  -1)) / math.sqrt(D)
    scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
    out = torch.softmax(scores, dim=-1) @ v.repeat_interleave(H // H_kv, dim=1)
    return F.linear(out.transpose(1, 2).reshape(B, T, H * D), layer.out_proj.weight,
                    layer.out_proj.bias), k, v


@exercise(
    "ch09-ex-halves",
    #ko| "cos와 sin에는 헤드 축이 없으니 x의 헤드 축 위로 브로드캐스팅되게 하세요. "
    #ko| "짝은 위의 rotate_half처럼 앞 절반과 뒤 절반입니다. "
    #ko| "각 짝을 2차원 회전하듯 cos와 sin으로 섞으세요.",
    #en| "cos and sin have no head axis: make them broadcast over x's heads. "
    #en| "The pairs are the first and second halves, as in rotate_half above; "
    #en| "mix each pair with cos and sin as in a 2-D rotation.",
)
def ch09_ex_halves(apply_rope):
    def angles_(positions, D, base=10000.0):
        #ko: LlamaRotaryEmbedding과 같은 cos, sin (B, T, D)을 이 셀 안에서 만듭니다
        #en: the cos and sin (B, T, D) of LlamaRotaryEmbedding, made in this cell
        inv_ = 1.0 / base ** (torch.arange(0, D, 2, dtype=torch.float) / D)
        a_ = positions[..., None].float() * inv_
        a_ = torch.cat([a_, a_], dim=-1)
        return a_.cos(), a_.sin()

    def turn_said_(D_):
        #ko: 토큰 하나(위치 3), 헤드마다 단위 벡터 하나: 답이 특징 j를 특징 i로 옮기는
        #ko: 비율 M[i, j]를 정답의 행렬과 견주어, 무엇이 다른지 말합니다
        #en: one token (position 3), one unit vector per head: the share M[i, j] of feature j
        #en: the answer puts into feature i, against the right matrix, said by what differs
        cos_, sin_ = angles_(torch.tensor([[3]]), D_)                       # (1, 1, D)
        eye_ = torch.eye(D_)[None, :, None, :]                             # (1, D, 1, D)
        try:
            got_ = apply_rope(eye_.clone(), cos_, sin_)
            M_ = got_.reshape(D_, D_).T.double()
        except Exception:
            return None
        c_, s_ = cos_[0, 0].double(), sin_[0, 0].double()
        h_ = D_ // 2
        i_ = torch.arange(D_)
        partner_ = (i_ + h_) % D_
        sign_ = torch.where(i_ < h_, -1.0, 1.0).double()
        W_ = torch.diag(c_)
        W_[i_, partner_] = sign_ * s_
        #ko: 맞는 행 (D,)
        #en: the rows that are right (D,)
        ok_ = torch.isclose(M_, W_, atol=1e-5).all(dim=1)
        if ok_.all():
            #ko| return ("토큰 하나, 헤드 하나에서는 맞지만 배치와 헤드가 여럿이면 "
            #ko|         "틀립니다. 행 b, 토큰 t의 cos[b, t]와 sin[b, t]가 그 행의 "
            #ko|         "모든 헤드에 쓰여야 합니다.")
            #en| return ("right for one token and one head, wrong with several rows and "
            #en|         "heads: the cos[b, t] and sin[b, t] of row b, token t must serve "
            #en|         "every head of that row.")
        same_ = torch.isclose(M_, torch.eye(D_).double(), atol=1e-6).all(dim=1)
        first_, second_ = i_ < h_, i_ >= h_
        if (ok_ | same_).all():
            if same_.all():
                #ko| return ("회전한 특징이 없습니다. x가 들어간 그대로 나옵니다(토큰 하나, "
                #ko|         "헤드 하나에서 본 결과).")
                #en| return ("no feature is rotated: x comes out as it went in (seen for one "
                #en|         "token and one head).")
            if torch.equal(same_, second_):
                #ko| return ("각 헤드의 앞 절반만 회전했습니다. 뒤 절반의 특징"
                #ko|         f"({h_}..{D_ - 1})은 들어간 그대로 나옵니다. "
                #ko|         "짝 (i, i + D/2)의 두 특징이 함께 돌아야 합니다.")
                #en| return ("only the first half of each head is rotated: features "
                #en|         f"{h_}..{D_ - 1} come out as they went in; both features of "
                #en|         "a pair (i, i + D/2) turn together.")
            if torch.equal(same_, first_):
                #ko| return ("각 헤드의 뒤 절반만 회전했습니다. 앞 절반의 특징"
                #ko|         f"(0..{h_ - 1})은 들어간 그대로 나옵니다. "
                #ko|         "짝 (i, i + D/2)의 두 특징이 함께 돌아야 합니다.")
                #en| return ("only the second half of each head is rotated: features "
                #en|         f"0..{h_ - 1} come out as they went in; both features of "
                #en|         "a pair (i, i + D/2) turn together.")
            #ko| return ("회전하지 않고 들어간 그대로 나오는 특징이 있습니다: "
            #ko|         f"{i_[same_].tolist()}.")
            #en| return (f"features {i_[same_].tolist()} are not rotated: they come out "
            #en|         "as they went in.")
        if ok_[first_].all() != ok_[second_].all():
            #ko| wrong_ = "뒤" if ok_[first_].all() else "앞"
            #en| wrong_ = "second" if ok_[first_].all() else "first"
            #ko| return (f"각 헤드의 {'앞' if wrong_ == '뒤' else '뒤'} 절반은 맞게 "
            #ko|         f"나오지만 {wrong_} 절반이 틀립니다.")
            #en| return (f"the {'first' if wrong_ == 'second' else 'second'} half of each "
            #en|         f"head comes out right, the {wrong_} half does not.")
        off_ = M_.clone()
        off_[i_, i_] = 0
        mixed_ = off_.abs() > 1e-6
        if (mixed_.sum(dim=1) == 1).all():
            got_partner_ = off_.abs().argmax(dim=1)
            if not torch.equal(got_partner_, partner_):
                if torch.equal(got_partner_, D_ - 1 - i_):
                    #ko| return ("특징 i를 특징 D-1-i와 섞습니다(flip처럼 순서를 "
                    #ko|         "뒤집은 짝). 짝은 특징 "
                    #ko|         "i와 i + D/2입니다.")
                    #en| return ("feature i is mixed with feature D-1-i (pairs in "
                    #en|         "reversed order, as flip gives); the pairs are features "
                    #en|         "i and i + D/2.")
                if torch.equal(got_partner_, i_ ^ 1):
                    #ko| return ("이웃한 특징 (0, 1), (2, 3), ...을 짝으로 섞습니다. "
                    #ko|         "짝은 특징 i와 i + D/2입니다.")
                    #en| return ("neighbouring features (0, 1), (2, 3), ... are mixed as "
                    #en|         "pairs; the pairs are features i and i + D/2.")
                shown_ = ", ".join(f"{a}↔{b}" for a, b in
                                   enumerate(got_partner_.tolist()[:4]))
                #ko| return (f"특징을 다른 짝과 섞습니다({shown_}, ...). "
                #ko|         "짝은 특징 i와 i + D/2입니다.")
                #en| return (f"the features are mixed with other partners ({shown_}, "
                #en|         "...); the pairs are features i and i + D/2.")
            flip_ = torch.isclose(off_[i_, partner_], -W_[i_, partner_], atol=1e-5)
            if flip_.all():
                #ko| return ("짝은 맞지만 반대 방향으로 돕니다. sin의 항의 부호가 "
                #ko|         "두 절반 모두 반대입니다.")
                #en| return ("the pairs are right but they turn the wrong way: the sin "
                #en|         "term has the opposite sign in both halves.")
            if flip_[first_].all() or flip_[second_].all():
                #ko| where_ = "앞" if flip_[first_].all() else "뒤"
                #en| where_ = "first" if flip_[first_].all() else "second"
                #ko| return (f"짝은 맞지만 "
                #ko|         f"{where_} 절반에서 sin의 항의 부호가 반대입니다. 회전이 아니어서 "
                #ko|         "짝의 길이가 바뀝니다.")
                #en| return (f"the pairs are right but the sin term has the wrong sign in "
                #en|         f"the {where_} half: that is no rotation, and the pairs' "
                #en|         "lengths change.")
        if not torch.isclose(M_.diagonal(), c_, atol=1e-5).all():
            if torch.isclose(M_.diagonal(), c_.flip(0), atol=1e-5).all():
                #ko| return ("특징 i에 cos의 다른 자리(뒤집은 순서)의 값을 곱했습니다. "
                #ko|         "특징 i는 cos[..., i]를 씁니다.")
                #en| return ("feature i is multiplied by another place of cos (in reversed "
                #en|         "order); feature i takes cos[..., i].")
            #ko| return ("x 자신에 곱하는 값이 cos가 아닙니다. 특징 i는 들어간 값의 "
            #ko|         "cos[..., i]배와 짝의 sin[..., i]배를 더한 것입니다.")
            #en| return ("x itself is not multiplied by cos: feature i is cos[..., i] times "
            #en|         "what went in plus sin[..., i] times its partner.")
        #ko| return ("x 자신의 cos 항은 맞지만, 짝에서 오는 sin의 항이 틀립니다"
        #ko|         f"(특징 {i_[~ok_].tolist()[:6]}).")
        #en| return ("the cos term of x itself is right, but the sin term coming from the "
        #en|         f"partner is wrong (features {i_[~ok_].tolist()[:6]}).")

    def far_(got_, want_):
        #ko: 가장 크게 다른 자리와 그 차이
        #en: where the answer is farthest from the right one, and by how much
        at_ = (got_ - want_).abs().argmax().item()
        b_, h_, t_, i_ = torch.unravel_index(torch.tensor(at_), want_.shape)
        diff_ = (got_ - want_).abs().max().item()
        #ko| return (f"apply_rotary_pos_emb와 최대 {diff_:.3g}만큼 다릅니다"
        #ko|         f"(행 {b_.item()}, 헤드 {h_.item()}, 토큰 {t_.item()}, 특징 {i_.item()}).")
        #en| return (f"it differs from apply_rotary_pos_emb by up to {diff_:.3g} (row "
        #en|         f"{b_.item()}, head {h_.item()}, token {t_.item()}, feature {i_.item()}).")

    import re as re_
    check_seed(10)
    #ko: 배치 2와 헤드 2(B = H면 헤드 축이 빠져도 오류가 없습니다), 그다음 배치 3과 헤드 4
    #en: batch 2 and 2 heads (with B = H a missing head axis raises nothing), then batch 3
    #en: and 4 heads
    for B_, H_, T_, D_ in [(2, 2, 5, 8), (3, 4, 6, 16)]:
        x_ = torch.randn(B_, H_, T_, D_)
        #ko: 행마다 다른 위치: (B, T)
        #en: other positions in each row: (B, T)
        positions_ = torch.arange(3, 3 + T_) + 4 * torch.arange(B_)[:, None]
        cos_, sin_ = angles_(positions_, D_)                           # (B, T, D) x 2
        given_ = x_.clone()
        try:
            got_ = apply_rope(given_, cos_, sin_)
        except NameError:
            raise
        except Exception as error_:
            #ko: 크기가 맞지 않은 두 축이 배치, 헤드, 토큰 축이면 브로드캐스팅의 문제입니다
            #en: when the two sizes that clash are those of the batch, heads or tokens,
            #en: broadcasting is the problem
            sizes_ = [int(n_) for n_ in re_.findall(r"\((\d+)\)", str(error_))]
            if ("must match the size" in str(error_) and sizes_
                    and set(sizes_) <= {B_, H_, T_}):
                #ko| return ("cos와 sin (B, T, D)가 x (B, 헤드 수, "
                #ko|         "T, D)에 브로드캐스팅되지 않습니다. "
                #ko|         "헤드 축 자리(dim=1)에 크기 1인 축을 넣으세요.")
                #en| return ("cos and sin (B, T, D) do not "
                #en|         "broadcast against x (B, heads, T, D): "
                #en|         "insert an axis of size 1 where the heads are (dim=1).")
            line_ = (str(error_).strip().splitlines() or [""])[0][:160]
            #ko| return (f"apply_rope가 오류를 냈습니다(x {tuple(x_.shape)}, cos와 sin "
            #ko|         f"{tuple(cos_.shape)}): {type(error_).__name__}: {line_}")
            #en| return (f"apply_rope raised an error for x {tuple(x_.shape)} and cos, sin "
            #en|         f"{tuple(cos_.shape)}: {type(error_).__name__}: {line_}")
        if got_ is None:
            raise NotAnswered
        if given_.shape != x_.shape or not torch.equal(given_, x_):
            #ko| return ("apply_rope가 인자 x를 제자리에서 바꿨습니다(mul_, add_, *= 같은 "
            #ko|         "연산). 부른 쪽의 쿼리와 키까지 달라집니다. 새 텐서를 계산해 "
            #ko|         "돌려주고 x는 그대로 두세요.")
            #en| return ("apply_rope changed its argument x in place (mul_, add_, *=), so "
            #en|         "the caller's queries or keys change too: compute and return a new "
            #en|         "tensor, and leave x as it was.")
        said_ = shape_mistake(got_, x_, axes="B H T D")
        if said_:
            return said_
        got_ = got_.to(x_.dtype)
        c_, s_ = cos_[:, None], sin_[:, None]
        x1_, x2_ = x_.chunk(2, dim=-1)
        want_ = x_ * c_ + torch.cat([-x2_, x1_], dim=-1) * s_
        if torch.allclose(got_, want_, atol=1e-5):
            continue
        pairs_ = torch.stack([-x_[..., 1::2], x_[..., 0::2]], dim=-1).flatten(-2)
        slips_ = [
            (x_ * c_ + torch.cat([x2_, -x1_], dim=-1) * s_,
             #ko| "반대 방향으로 돌았습니다. 두 절반 (x1, x2)는 "
             #ko| "(x2, -x1)이 아니라 (-x2, x1)이 되어야 합니다."),
             #en| "it turns the wrong way: the halves (x1, "
             #en| "x2) must become (-x2, x1), not (x2, -x1)."),
            (x_ * c_ + pairs_ * s_,
             #ko| ("이웃한 특징 (0, 1), (2, 3), ...을 짝으로 지었습니다. "
             #ko|  "transformers는 특징 i와 i + D/2를 짝으로 씁니다.")),
             #en| ("this pairs neighbouring features (0, 1), (2, 3), ...; "
             #en|  "transformers pairs feature i with i + D/2.")),
            #ko: B = H일 때만 오류 없이 계산되는 실수
            #en: a slip that computes without an error only when B = H
            (x_ * cos_ + torch.cat([-x2_, x1_], dim=-1) * sin_ if B_ == H_ else None,
             #ko| ("cos와 sin을 (B, T, D) 그대로 곱해서 "
             #ko|  "배치 축이 헤드 축에 맞춰졌습니다"
             #ko|  "(B = H라서 오류가 나지 않았습니다). "
             #ko|  "헤드 축을 넣어 (B, 1, T, D)로 만드세요.")),
             #en| ("cos and sin multiplied as (B, T, D) "
             #en|  "line their batch axis up with the heads "
             #en|  "(no error, since B = H here): give "
             #en|  "cos and sin a head axis, (B, 1, T, D).")),
            (x_ * s_ + torch.cat([-x2_, x1_], dim=-1) * c_,
             #ko| "cos와 sin이 바뀌었습니다. x에는 cos를, "
             #ko| "돌린 절반 (-x2, x1)에는 sin을 곱합니다."),
             #en| "cos and sin are swapped: x is multiplied "
             #en| "by cos, the turned halves (-x2, x1) by sin."),
            (x_ * c_ + torch.cat([x2_, x1_], dim=-1) * s_,
             #ko| "부호가 빠졌습니다. 90도 회전은 (x1, x2)를 (-x2, x1)로 바꿉니다."),
             #en| "a sign is missing: a 90-degree turn takes (x1, x2) to (-x2, x1)."),
            (x_ * c_ + torch.cat([-x_[..., 1::2], x_[..., 0::2]], dim=-1) * s_,
             #ko| ("짝수 번째와 홀수 번째 특징(x[..., ::2], "
             #ko|  "x[..., 1::2])은 번갈아 놓인 짝입니다. "
             #ko|  "transformers는 앞 절반과 뒤 절반을 짝으로 씁니다.")),
             #en| ("the even and odd features (x[..., ::2], "
             #en|  "x[..., 1::2]) are the interleaved pairs; "
             #en|  "transformers pairs the first half with the second.")),
            (x_ * c_ + torch.cat([-x2_, -x1_], dim=-1) * s_,
             #ko| "부호가 하나 틀렸습니다. 90도 회전은 (x1, x2)를 (-x2, x1)로 바꿉니다."),
             #en| "one sign is off: a 90-degree turn takes (x1, x2) to (-x2, x1)."),
            (x_ * c_ + torch.cat([-x1_, x2_], dim=-1) * s_,
             #ko| "90도 돌린 짝은 (-x1, x2)가 아니라 (-x2, "
             #ko| "x1)입니다. 두 절반이 자리를 바꿉니다."),
             #en| "a pair turned by 90 degrees is (-x2, x1), "
             #en| "not (-x1, x2): the two halves swap places."),
            (x_ * c_ + torch.cat([-x2_, x1_], dim=-1) * c_,
             #ko| "돌린 절반에도 cos를 곱했습니다. 돌린 절반 (-x2, x1)에는 sin을 곱합니다."),
             #en| "the turned halves are multiplied by cos too; they take sin."),
            (torch.cat([-x2_, x1_], dim=-1) * s_,
             #ko| "cos의 항(x * cos)이 빠졌습니다. "
             #ko| "회전은 cos의 항과 sin의 항의 합입니다."),
             #en| "the cos term (x * cos) is missing: a rotation adds "
             #en| "a cos term and a sin term."),
            (x_ * c_,
             #ko| "sin의 항이 빠졌습니다. 회전은 cos의 항과 sin의 항의 합입니다."),
             #en| "the sin term is missing: a rotation adds a cos term and a sin term."),
        ]
        for slip_, said_ in slips_:
            if slip_ is None:
                continue
            if tuple(slip_.shape) == tuple(got_.shape) and torch.allclose(got_, slip_,
                                                                          atol=1e-5):
                return said_
        t1_, t2_ = x_.chunk(2, dim=-2)
        if torch.allclose(got_, x_ * c_ + torch.cat([-t2_, t1_], dim=-2) * s_,
                          atol=1e-5):
            #ko| return ("토큰 축(dim=-2)을 반으로 나눴습니다. 짝은 특징의 "
            #ko|         "두 절반이므로 마지막 축(dim=-1)을 나눕니다.")
            #en| return ("this halves the token axis (dim=-2); the pairs are "
            #en|         "halves of the features, the last axis (dim=-1).")
        said_ = turn_said_(D_) or value_mistake(got_, want_, axes="B H T D") or far_(
            got_, want_)
        if B_ == 3 and isinstance(said_, str) and not isinstance(said_, Also):
            #ko: 예제 크기에서는 맞고 다른 크기에서만 틀림
            #en: right on the first sizes, wrong on the others only
            #ko| said_ = ("x가 (2, 2, 5, 8)일 때는 맞지만 (3, 4, 6, 16)일 때는 틀립니다. "
            #ko|          "예제에서 읽은 크기(D // 2 = 4 같은)는 그 예제에만 맞으니 "
            #ko|          "x.shape에서 읽으세요. " + said_)
            #en| said_ = ("right for x of (2, 2, 5, 8), wrong for (3, 4, 6, 16): a size "
            #en|          "read from the example (such as D // 2 = 4) fits it only, so read "
            #en|          "sizes from x.shape. " + said_)
        return said_
    return True


@exercise(
    "ch09-ex-positions",
    #ko| "위치는 각 행에서 그 자리까지 실제 토큰이 몇 개 있었는지로 정해집니다. "
    #ko| "첫 실제 토큰이 0이 되게 세고, 그중 이번 단계의 새 토큰 자리만 돌려주세요.",
    #en| "a position is how many real tokens came before it in its row: "
    #en| "count so that the first real token is 0, and return only this step's new tokens.",
)
def ch09_ex_positions(positions_for):
    def row_said_(got_, want_, real_new_, pads_, T_new_):
        #ko: 틀린 행마다 얼마나 밀렸는지, 그 행의 패딩 수와 견주어 말합니다
        #en: how far each wrong row is off, against that row's number of pads
        rows_ = [b_ for b_ in range(len(pads_))
                 if not torch.equal(got_[b_][real_new_[b_]], want_[b_][real_new_[b_]])]
        offs_ = [(got_[b_] - want_[b_])[real_new_[b_]].unique() for b_ in rows_]
        if all(len(o_) == 1 for o_ in offs_):
            if all(o_.item() == pads_[b_].item() for o_, b_ in zip(offs_, rows_)):
                #ko| return ("패딩이 있는 행에서 위치가 그 행의 패딩 수만큼 큽니다. 패딩까지 "
                #ko|         "세었습니다. 위치는 실제 "
                #ko|         "토큰만 셉니다.")
                #en| return ("in padded rows the positions are too large by the row's "
                #en|         "number of pads: the pads were counted too; count real "
                #en|         "tokens only.")
            if all(o_.item() == -pads_[b_].item() for o_, b_ in zip(offs_, rows_)):
                #ko| return ("패딩이 있는 행에서 위치가 그 행의 패딩 수만큼 작습니다. "
                #ko|         "패딩 수를 한 번 더 뺐습니다.")
                #en| return ("in padded rows the positions are too small by the row's "
                #en|         "number of pads: the pads were subtracted once too often.")
            said_ = ", ".join(f"{b_}: {o_.item():+d}" for b_, o_ in zip(rows_, offs_))
            #ko| return (f"행마다 위치가 다르게 밀렸습니다(행: 밀린 값 = {said_}). "
            #ko|         f"행마다 패딩 수는 {pads_.tolist()}입니다.")
            #en| return (f"the rows are off by different amounts (row: offset = {said_}); "
            #en|         f"the rows have {pads_.tolist()} pads.")
        b_ = rows_[0]
        g_ = got_[b_][real_new_[b_]]
        steps_ = g_.diff()
        if len(steps_) and not (steps_ == 1).all():
            #ko| return (f"행 {b_}에서 실제 토큰의 위치가 {g_.tolist()}입니다. 이웃한 "
            #ko|         "토큰의 위치는 1씩 커져야 합니다.")
            #en| return (f"in row {b_} the real tokens' positions are {g_.tolist()}: "
            #en|         "neighbouring tokens' positions must grow by 1.")
        #ko| return (f"행 {b_}(패딩 {pads_[b_].item()}개)의 새 실제 토큰 위치가 "
        #ko|         f"{g_.tolist()}입니다. 첫 실제 토큰을 0으로 세어야 합니다.")
        #en| return (f"in row {b_} ({pads_[b_].item()} pads) the new real tokens' "
        #en|         f"positions are {g_.tolist()}; the first real token counts as 0.")

    #ko: (real의 길이들, T_k, T_new): 새 토큰 둘, 생성 단계, 프롬프트, 패딩 없는 배치
    #en: (lengths of real, T_k, T_new): two new tokens, a generation step, a prompt, no
    #en: padding
    #ko: 마지막 배치는 뽑은 수로(채점기에서는 학생이 본 적 없는 배치)
    #en: the last batch drawn (in the grader, a batch no student has seen)
    gen_ = check_generator(9)
    T_drawn_ = int(torch.randint(3, 9, (), generator=gen_))
    drawn_ = (torch.randint(1, T_drawn_ + 1, (3,), generator=gen_).tolist(), T_drawn_,
              int(torch.randint(1, T_drawn_ + 1, (), generator=gen_)))
    for lengths_, T_k_, T_new_ in [([5, 2], 6, 2), ([7, 4, 6], 7, 1), ([6, 3, 5], 6, 6),
                                   ([4, 4], 4, 4), drawn_]:
        lengths_ = torch.tensor(lengths_)
        real_ = torch.arange(T_k_) >= (T_k_ - lengths_)[:, None]       # (B, T_k)
        #ko: 행마다 첫 실제 토큰이 0
        #en: each row's first real token at 0
        want_ = (torch.arange(T_k_) - (T_k_ - lengths_)[:, None])[:, -T_new_:]
        real_new_ = real_[:, -T_new_:]
        try:
            got_ = positions_for(real_.clone(), T_new_)
        except NameError:
            raise
        except Exception as error_:
            line_ = (str(error_).strip().splitlines() or [""])[0][:160]
            #ko| return (f"positions_for가 오류를 냈습니다(real {tuple(real_.shape)}, "
            #ko|         f"T_new = {T_new_}): {type(error_).__name__}: {line_}")
            #en| return (f"positions_for raised an error for real {tuple(real_.shape)} and "
            #en|         f"T_new = {T_new_}: {type(error_).__name__}: {line_}")
        if got_ is None:
            raise NotAnswered
        if not isinstance(got_, torch.Tensor):
            #ko| return f"위치는 텐서로 돌려주어야 하는데 {type(got_).__name__}입니다."
            #en| return f"return the positions as a tensor, got a {type(got_).__name__}."
        if tuple(got_.shape) != tuple(want_.shape):
            if (got_.numel() == len(lengths_) and T_new_ > 1
                    and any(torch.equal(got_.reshape(-1).long(), lengths_ - c_)
                            for c_ in (0, 1))):
                #ko| return ("행마다 숫자 하나만 나왔습니다. 마지막 토큰의 위치입니다"
                #ko|         "(sum - 1이나 [:, -1:]처럼). 위치는 새 토큰마다 "
                #ko|         "하나이므로 앞에서부터 누적해서 세고(cumsum) "
                #ko|         "마지막 T_new개를 자르세요([:, -T_new:]).")
                #en| return ("one number per row came out, the last token's position (as "
                #en|         "sum - 1 or [:, -1:] gives): positions are one per new token; "
                #en|         "count cumulatively from the left (cumsum) and take the last "
                #en|         "T_new ([:, -T_new:]).")
            if tuple(got_.shape) == tuple(real_.shape):
                #ko| more_ = ("real의 모든 자리(T_k개)의 위치를 돌려주었습니다. "
                #ko|          "새 토큰은 마지막 T_new개입니다.")
                #en| more_ = ("it returns the positions of all T_k places of real; "
                #en|          "the new tokens are the last T_new.")
            else:
                more_ = shape_difference(tuple(got_.shape), tuple(want_.shape),
                                         axes="B T_new", sizes={
                                             "T_k": T_k_, "T_k - T_new": T_k_ - T_new_})
            #ko| return (f"real {tuple(real_.shape)}, "
            #ko|         f"T_new = {T_new_}이면 모양이 "
            #ko|         f"{tuple(want_.shape)}이어야 하는데 {tuple(got_.shape)}입니다. "
            #ko|         + more_)
            #en| return (f"for real {tuple(real_.shape)} and "
            #en|         f"T_new = {T_new_}, expected shape "
            #en|         f"{tuple(want_.shape)}, got {tuple(got_.shape)}; " + more_)
        if got_.dtype == torch.bool:
            #ko| return ("위치는 정수여야 하는데 torch.bool입니다. True와 False는 "
            #ko|         "표시일 뿐 위치가 아닙니다. 실제 토큰을 세어 위치를 만드세요.")
            #en| return ("positions must be integers, got torch.bool: True and False "
            #en|         "are marks, not positions; count the real tokens to make them.")
        if got_.is_floating_point():
            #ko| return ("위치는 정수여야 하는데 "
            #ko|         f"{got_.dtype}입니다. bool 텐서의 cumsum은 "
            #ko|         "이미 정수(int64)이니 float로 바꾸지 "
            #ko|         "마세요(RotaryAttention도 정수만 받습니다).")
            #en| return ("positions must be integers, got "
            #en|         f"{got_.dtype}: the cumsum of a bool tensor "
            #en|         "is already int64, so leave out the float "
            #en|         "(RotaryAttention takes integers only).")
        got_ = got_.long()
        if torch.equal(got_[real_new_], want_[real_new_]):
            continue
        right_ = (real_.long().cumsum(dim=-1) - 1).clamp(min=0)[:, -T_new_:]
        if T_new_ == len(lengths_) and torch.equal(got_, right_.T):
            #ko| return ("값은 맞지만 전치되어 있습니다. 모양 (B, T_new)의 행이 "
            #ko|         "배치의 행입니다.")
            #en| return ("the values are right but transposed: the rows of (B, T_new) "
            #en|         "are the batch's rows.")
        columns_ = torch.arange(T_k_).expand(real_.shape)[:, -T_new_:]
        counted_ = real_.long().cumsum(dim=-1)[:, -T_new_:]
        slips_ = [
            (counted_,
             #ko| "위치가 1씩 밀렸습니다. 첫 실제 토큰의 위치는 1이 아니라 0입니다."),
             #en| "off by one: the first real token is at position 0, not 1."),
            (columns_,
             #ko| ("위치를 열 번호(캐시의 길이)로 셌습니다. "
             #ko|  "패딩까지 세므로 패딩이 있는 행에서 틀립니다.")),
             #en| ("the position is the column (the cache's length), "
             #en|  "which counts the padding: wrong in padded rows.")),
            ((real_.long().cumsum(dim=-1) - 1)[:, :T_new_],
             #ko| "처음 T_new개를 골랐습니다. 새 토큰은 "
             #ko| "마지막 T_new개입니다([:, -T_new:])."),
             #en| "these are the first T_new; the new "
             #en| "tokens are the last T_new ([:, -T_new:])."),
            ((real_.long().cumsum(dim=0) - 1)[:, -T_new_:],
             #ko| "배치 축(dim=0)을 따라 셌습니다. 행마다, "
             #ko| "곧 마지막 축(dim=-1)을 따라 세세요."),
             #en| "this counts along the batch axis (dim=0): "
             #en| "count along each row, the last axis (dim=-1)."),
            (torch.arange(T_new_).expand(len(lengths_), T_new_),
             #ko| ("이번 단계의 새 토큰을 0부터 셌습니다. "
             #ko|  "새 토큰은 이미 있는 실제 토큰들 "
             #ko|  "다음에 옵니다. real 전체를 세고 마지막 T_new개를 고르세요.")),
             #en| ("this counts this step's new tokens from "
             #en|  "0; they come after the real tokens "
             #en|  "already there: count over all of real, then take the last T_new.")),
            (((~real_).long().cumsum(dim=-1))[:, -T_new_:],
             #ko| "패딩을 셌습니다. 세어야 할 것은 실제 토큰(real이 True인 자리)입니다."),
             #en| "this counts the padding; count the real tokens (where real is True)."),
        ]
        for slip_, said_ in slips_:
            #ko: 패딩 자리를 0으로 자른 것도 같은 실수입니다
            #en: the same slip with padding clamped to 0 counts too
            if any(torch.equal(got_[real_new_], t_[real_new_])
                   for t_ in (slip_, slip_.clamp(min=0))):
                return said_
        off_ = (got_ - want_)[real_new_].unique()
        if len(off_) == 1:
            #ko| return (f"실제 토큰의 위치가 모두 {off_.item():+d}만큼 "
            #ko|         "밀렸습니다. 첫 실제 토큰이 0입니다.")
            #en| return ("every real token's position is off by "
            #en|         f"{off_.item():+d}: the first real token is at 0.")
        return row_said_(got_, want_, real_new_, T_k_ - lengths_, T_new_)
    return True


@exercise(
    "ch09-ex-prefill",
    #ko| "세 가지를 차례로 만드세요. 왼쪽 패딩에서 "
    #ko| "어느 열이 실제 토큰인지의 표시, "
    #ko| "각 행의 첫 실제 토큰을 0으로 센 위치, 패딩인 키와 "
    #ko| "미래의 키를 함께 가리는 (B, 1, T, T) 마스크. "
    #ko| "캐시를 레이어에 넘기면 "
    #ko| "레이어가 채웁니다.",
    #en| "build three things in turn: marks of which "
    #en| "columns hold real tokens under left padding, "
    #en| "positions counted from each row's first real "
    #en| "token as 0, and one (B, 1, T, T) mask hiding both "
    #en| "the padding keys and the future keys. Pass "
    #en| "a cache to layer, and the layer fills it.",
)
def ch09_ex_prefill(RotaryAttention, prefill):
    def verdict_(lengths_, T_):
        check_seed(13)
        B_, C_ = len(lengths_), 12
        layer_ = RotaryAttention(C_, 4, 2, d_head=8).eval()
        for p_ in layer_.parameters():
            p_.normal_(0, C_ ** -0.5)
        x_ = torch.randn(B_, T_, C_)                                       # (B, T, C)
        x_next_ = torch.randn(B_, 1, C_)                                   # (B, 1, C)
        #ko: 레이어가 받은 마스크와 위치를 기록합니다
        #en: the mask and positions the layer is given are recorded
        calls_ = []
        forward_ = layer_.forward

        def spy_(*args_, **kwargs_):
            calls_.append((args_, kwargs_))
            return forward_(*args_, **kwargs_)

        layer_.forward = spy_
        try:
            result_ = prefill(layer_, x_.clone(), lengths_.clone())
        except NameError:
            raise
        except Exception as error_:
            line_ = (str(error_).strip().splitlines() or [""])[0][:200]
            if not calls_:
                #ko| return (f"prefill이 레이어를 부르기 전에 오류를 냈습니다(길이 "
                #ko|         f"{lengths_.tolist()}, T = {T_}): "
                #ko|         f"{type(error_).__name__}: {line_}")
                #en| return (f"prefill raised an error before calling layer, for lengths "
                #en|         f"{lengths_.tolist()} and T = {T_}: "
                #en|         f"{type(error_).__name__}: {line_}")
            if isinstance(error_, ValueError):
                #ko| return f"레이어가 prefill이 넘긴 입력을 받지 않았습니다: {line_}"
                #en| return f"layer refused the inputs prefill gave it: {line_}"
            if "must match the size" in str(error_):
                #ko| return ("마스크가 (B, H, T, T)로 "
                #ko|         "브로드캐스팅되지 않습니다. "
                #ko|         "패딩 표시에 헤드 축과 쿼리 축을 넣어 (B, "
                #ko|         "1, 1, T)로 만들고 인과 마스크와 합치세요.")
                #en| return ("the mask does not broadcast to (B, H, "
                #en|         "T, T): give the padding marks a head "
                #en|         "axis and a query axis, (B, 1, 1, T), "
                #en|         "then combine them with the causal mask.")
            #ko| return (f"prefill이 부른 레이어가 오류를 냈습니다: "
            #ko|         f"{type(error_).__name__}: {line_}")
            #en| return (f"the layer called by prefill raised an error: "
            #en|         f"{type(error_).__name__}: {line_}")
        del layer_.forward
        if result_ is None:
            raise NotAnswered
        if not (isinstance(result_, tuple) and len(result_) == 2):
            #ko| return "출력과 캐시의 쌍 (out, cache)를 돌려주세요."
            #en| return "return the pair (out, cache)."
        out_, cache_ = result_
        said_ = shape_mistake(out_, x_, axes="B T C")
        if said_:
            return said_
        out_ = out_.to(x_.dtype)
        if not hasattr(cache_, "k") or cache_.k is None or cache_.k.size(2) != T_:
            #ko| return ("돌려준 캐시가 비었거나 토큰이 5개가 "
            #ko|         "아닙니다. KVCache를 만들어 레이어에 "
            #ko|         "cache=로 넘기면 레이어가 "
            #ko|         "회전한 키와 밸류를 채웁니다.")
            #en| return ("the cache returned is empty or does not hold "
            #en|         "5 tokens: make a KVCache and pass it to "
            #en|         "layer as cache=, and the layer fills it "
            #en|         "with the rotated keys and the values.")
        tri_ = torch.ones(T_, T_, dtype=torch.bool).tril()
        left_ = torch.arange(T_) >= (T_ - lengths_)[:, None]               # (B, T)
        right_ = torch.arange(T_) < lengths_[:, None]
        positions_ = (left_.long().cumsum(-1) - 1).clamp(min=0)
        right_positions_ = (right_.long().cumsum(-1) - 1).clamp(min=0)
        #ko: 흔한 실수로 나오는 출력과 그 힌트
        #en: the outputs common mistakes give, and their hints
        slips_ = [
            (tri_,
             #ko| "패딩인 키가 보입니다. 인과 마스크에 "
             #ko| "패딩 마스크 (B, 1, 1, T)를 &로 합치세요."),
             #en| "the padding keys are visible: combine the causal "
             #en| "mask with the padding mask (B, 1, 1, T) using &."),
            ((right_[:, None, None, :] & tri_, right_positions_),
             #ko| "오른쪽 패딩으로 표시했습니다. 왼쪽 패딩에서는 "
             #ko| "실제 토큰이 행마다 마지막 lengths[b]개입니다."),
             #en| "these marks are for right padding: with left padding "
             #en| "the real tokens are the last lengths[b] of each row."),
            (left_[:, None, None, :].expand(B_, 1, T_, T_),
             #ko| "인과 마스크가 빠졌습니다. 패딩 마스크와 "
             #ko| "인과 마스크 (T, T)를 &로 합치세요."),
             #en| "the causal part is missing: combine the padding "
             #en| "mask with the causal (T, T) mask using &."),
            (left_[:, None, :, None] & tri_,
             #ko| "패딩 표시를 쿼리 축에 걸었습니다. 패딩은 키를 "
             #ko| "가려야 하므로 (B, 1, 1, T)로 마지막 축에 두세요."),
             #en| "the padding marks are on the query axis: padding hides "
             #en| "keys, so put them on the last axis, (B, 1, 1, T)."),
            (left_[:, None, None, :] & tri_.T,
             #ko| "인과 마스크가 위 삼각입니다. 쿼리 "
             #ko| "i는 키 j <= i를 봅니다(아래 삼각)."),
             #en| "the causal part is upper-triangular: query "
             #en| "i sees keys j <= i (the lower triangle)."),
            (left_[:, None, None, :] | tri_,
             #ko| ("|는 둘 중 하나만 참이어도 보게 합니다. "
             #ko|  "패딩도 미래도 아닌 키만 보도록 &로 합치세요.")),
             #en| ("| lets a key through when either holds; "
             #en|  "only keys neither padding nor future may be seen: &.")),
            ((torch.arange(T_) >= lengths_[:, None])[:, None, None, :] & tri_,
             #ko| ("실제 토큰 표시가 틀렸습니다. 왼쪽 패딩에서 "
             #ko|  "행 b의 실제 토큰은 T - lengths[b]번 열부터입니다.")),
             #en| ("the real-token marks are off: with left padding "
             #en|  "row b's real tokens start at column T - lengths[b].")),
            (~(left_[:, None, None, :] & tri_),
             #ko| "마스크가 뒤집혔습니다. 이 책에서 True는 "
             #ko| "'볼 수 있음'입니다(~로 뒤집지 마세요)."),
             #en| "the mask is inverted: in this book "
             #en| "True means 'may attend' (no ~)."),
            (left_[:, None, :, None] & left_[:, None, None, :],
             #ko| "인과 마스크가 빠졌습니다. 패딩 표시끼리 합친 "
             #ko| "마스크에 인과 마스크 (T, T)도 &로 합치세요."),
             #en| "the causal part is missing: combine the padding marks' "
             #en| "mask with the causal (T, T) mask using & as well."),
            ((torch.arange(T_) > (T_ - lengths_)[:, None])[:, None, None, :] & tri_,
             #ko| "실제 토큰 표시가 하나 모자랍니다. 행 b의 실제 "
             #ko| "토큰은 T - lengths[b]번 열부터입니다(>=)."),
             #en| "the real-token marks miss one: row b's real "
             #en| "tokens start at column T - lengths[b] (>=)."),
        ]
        #ko: 먼저 모든 행을, 그다음 실제 토큰의 행만 비교합니다
        #ko: (패딩의 위치는 무엇이어도 됩니다)
        #en: all rows first, then the real tokens' rows only
        #en: (positions at padding may be anything)
        for rows_ in (torch.ones_like(left_), left_):
            for mask_, said_ in slips_:
                mask_, slip_positions_ = mask_ if isinstance(mask_, tuple) else (mask_,
                                                                                 positions_)
                slip_, _, _ = _rotary_reference(layer_, x_, slip_positions_, mask_)
                if (torch.allclose(out_[rows_], slip_[rows_], atol=1e-5)
                        and given_like_(calls_, mask_, left_)):
                    return said_
        for b_, n_ in enumerate(lengths_.tolist()):
            alone_, k_alone_, v_alone_ = _rotary_reference(layer_, x_[b_:b_ + 1, T_ - n_:],
                                                    torch.arange(n_)[None], tri_[:n_, :n_])
            if not torch.allclose(out_[b_, T_ - n_:], alone_[0], atol=1e-5):
                #ko| return call_said_(calls_, lengths_, T_, layer_.n_head) or (
                #ko|     f"레이어가 받은 마스크와 위치는 맞지만, 행 {b_}의 실제 토큰 자리의 "
                #ko|     "출력이 그 프롬프트를 따로 계산한 결과와 다릅니다. 레이어가 "
                #ko|     "돌려준 출력을 그대로 돌려주세요.")
                #en| return call_said_(calls_, lengths_, T_, layer_.n_head) or (
                #en|     "the mask and positions given to layer are right, but at row "
                #en|     f"{b_}'s real tokens the output differs from that prompt computed "
                #en|     "alone: return the output layer gives.")
            #ko: 출력이 맞아도 캐시의 키가 다른 위치에서 회전했으면 다음 단계가 틀립니다
            #en: right outputs, yet keys rotated at other positions make the next step wrong
            cached_ = cache_.k[b_:b_ + 1, :, T_ - n_:]
            if not torch.allclose(cached_, k_alone_, atol=1e-5):
                for shift_, said_ in [
                    (1,
                     #ko| "출력은 맞지만 캐시의 키가 한 자리씩 "
                     #ko| "밀려 회전했습니다(다음 단계가 틀립니다). "
                     #ko| "위치는 0부터: cumsum에서 1을 빼세요."),
                     #en| "the outputs are right but the cached keys were "
                     #en| "turned one place too far (the next step goes wrong): "
                     #en| "positions start at 0, subtract 1 from the cumsum."),
                    (T_ - n_,
                     #ko| "출력은 맞지만 위치를 열 번호로 세어, 패딩이 "
                     #ko| "있는 행의 캐시에 든 키가 패딩 수만큼 먼 "
                     #ko| "위치에서 회전했습니다(다음 단계가 틀립니다). "
                     #ko| "위치는 각 행의 첫 실제 토큰부터 세세요."),
                     #en| "the outputs are right but the positions are columns, "
                     #en| "so in padded rows the cached keys were turned as many "
                     #en| "places too far as there are pads (the next step goes "
                     #en| "wrong): count positions from each row's first real token."),
                ]:
                    shifted_ = torch.arange(shift_, shift_ + n_)[None]
                    _, k_shifted_, _ = _rotary_reference(layer_, x_[b_:b_ + 1, T_ - n_:],
                                                  shifted_, tri_[:n_, :n_])
                    if shift_ and torch.allclose(cached_, k_shifted_, atol=1e-5):
                        return said_
                said_ = call_said_(calls_, lengths_, T_, layer_.n_head)
                if said_:
                    #ko| return "출력은 맞지만 캐시가 틀립니다. " + said_
                    #en| return "the outputs are right but the cache is not; " + said_
                #ko| return ("출력은 맞지만 캐시의 키가 이 프롬프트의 회전한 "
                #ko|         "키와 다릅니다. 레이어가 채운 그 캐시를 돌려주세요.")
                #en| return ("the outputs are right but the cached keys are not this "
                #en|         "prompt's rotated keys: return the cache the layer filled.")
        #ko: 한 단계 더: 새 토큰 하나를 위치 lengths에 넣어 캐시와 함께 계산합니다
        #en: one step further: one new token at position lengths, computed with the cache
        keep_ = torch.cat([left_, torch.ones(B_, 1, dtype=torch.bool)], dim=1)
        step_ = layer_(x_next_, mask=keep_[:, None, None, :], positions=lengths_[:, None],
                       cache=cache_)
        for b_, n_ in enumerate(lengths_.tolist()):
            whole_ = torch.cat([x_[b_:b_ + 1, T_ - n_:], x_next_[b_:b_ + 1]], dim=1)
            alone_, _, _ = _rotary_reference(layer_, whole_, torch.arange(n_ + 1)[None],
                                      torch.ones(n_ + 1, n_ + 1, dtype=torch.bool).tril())
            if not torch.allclose(step_[b_], alone_[0, -1:], atol=1e-5):
                said_ = call_said_(calls_, lengths_, T_, layer_.n_head)
                if said_:
                    #ko| return ("프롬프트의 출력은 맞지만, 돌려준 캐시로 계산한 "
                    #ko|         "다음 단계가 틀립니다. " + said_)
                    #en| return ("the prompt's outputs are right, but the next step "
                    #en|         "computed with the cache returned is wrong; " + said_)
                #ko| return ("프롬프트의 출력은 맞지만, 돌려준 캐시로 계산한 "
                #ko|         "다음 단계가 틀립니다. 위치를 확인하세요.")
                #en| return ("the prompt's outputs are right, but the next step computed "
                #en|         "with the cache returned is wrong: look at the positions.")
        return True

    def given_like_(calls_, mask_, real_):
        #ko: 레이어가 받은 마스크가 실제 토큰인 쿼리의 행에서 mask_와 같은가
        #ko: (기록이 없으면 True)
        #en: whether the mask layer was given equals mask_ in the real queries' rows (True
        #en: when nothing was recorded)
        if not calls_:
            return True
        args_, kwargs_ = calls_[0]
        given_ = dict(zip(["x", "mask", "positions", "cache"], args_), **kwargs_)
        given_ = given_.get("mask")
        if not isinstance(given_, torch.Tensor):
            return False
        B_, T_ = real_.shape
        try:
            got_ = given_.bool().expand(B_, 1, T_, T_)
            want_ = mask_.expand(B_, 1, T_, T_)
        except RuntimeError:
            return False
        rows_ = real_[:, None, :, None].expand(B_, 1, T_, T_)
        return torch.equal(got_[rows_], want_[rows_])

    def call_said_(calls_, lengths_, T_, H_):
        #ko: 레이어가 처음 받은 마스크와 위치를 맞는 것과 견주어, 다른 점을 말합니다
        #ko: (패딩인 쿼리의 행과 패딩의 위치는 무엇이어도 됩니다). 같으면 None
        #en: the mask and positions layer was first given, against the right ones, said by
        #en: what differs (padding queries' rows and padding's positions may be anything);
        #en: None if they match
        if not calls_:
            #ko| return ("prefill이 레이어를 부르지 않았습니다. 출력과 캐시는 레이어를 "
            #ko|         "cache=와 함께 불러 얻습니다.")
            #en| return ("prefill never called layer: the output and the cache come "
            #en|         "from calling layer with cache=.")
        args_, kwargs_ = calls_[0]
        given_ = dict(zip(["x", "mask", "positions", "cache"], args_), **kwargs_)
        mask_, positions_ = given_.get("mask"), given_.get("positions")
        B_ = len(lengths_)
        pads_ = T_ - lengths_
        real_ = torch.arange(T_) >= pads_[:, None]                         # (B, T)
        said_ = []
        if positions_ is None:
            #ko| said_.append("위치를 넘기지 않아 레이어가 열 번호(0부터, 패딩 포함)로 "
            #ko|              "셉니다")
            #en| said_.append("no positions were given, so layer counts columns (from 0, "
            #en|              "pads included)")
        else:
            want_ = real_.long().cumsum(-1) - 1
            got_ = torch.as_tensor(positions_).long().expand(B_, T_)
            if not torch.equal(got_[real_], want_[real_]):
                rows_ = [b_ for b_ in range(B_) if not torch.equal(got_[b_][real_[b_]],
                                                                   want_[b_][real_[b_]])]
                offs_ = [(got_[b_] - want_[b_])[real_[b_]].unique() for b_ in rows_]
                flat_ = all(len(o_) == 1 for o_ in offs_)
                if torch.equal(got_[real_], (real_.long().cumsum(0) - 1)[real_]):
                    #ko| said_.append("위치를 배치 축(dim=0)을 따라 세었습니다. "
                    #ko|              "위치는 행마다 셉니다")
                    #en| said_.append("the positions were counted along the batch axis "
                    #en|              "(dim=0); count along each row")
                elif flat_ and all(o_.item() == 1 for o_ in offs_):
                    #ko| said_.append("위치가 0이 아니라 1부터 시작합니다")
                    #en| said_.append("the positions start at 1, not 0")
                elif flat_ and all(o_.item() == pads_[b_].item()
                                   for o_, b_ in zip(offs_, rows_)):
                    #ko| said_.append("위치를 패딩까지 세어, 패딩이 있는 행의 위치가 그 행의 "
                    #ko|              "패딩 수만큼 큽니다")
                    #en| said_.append("the positions count the pads too: in padded rows "
                    #en|              "they are too large by the row's number of pads")
                else:
                    b_ = rows_[0]
                    #ko| said_.append(f"행 {b_}(길이 "
                    #ko|              f"{lengths_[b_].item()})의 실제 토큰 위치가 "
                    #ko|              f"{got_[b_][real_[b_]].tolist()}입니다. 첫 실제 "
                    #ko|              "토큰이 0이고 1씩 커져야 합니다")
                    #en| said_.append(f"the real tokens of row {b_} (length "
                    #en|              f"{lengths_[b_].item()}) get positions "
                    #en|              f"{got_[b_][real_[b_]].tolist()}; the first real "
                    #en|              "token is 0, and they grow by 1")
        tri_ = torch.ones(T_, T_, dtype=torch.bool).tril()
        want_mask_ = (real_[:, None, None, :] & tri_).expand(B_, H_, T_, T_)
        if mask_ is None:
            #ko| said_.append("마스크를 넘기지 않아 쿼리가 패딩인 키와 "
            #ko|              "미래의 키를 봅니다")
            #en| said_.append("no mask was given, so queries see padding keys and "
            #en|              "future keys")
        else:
            try:
                got_mask_ = torch.as_tensor(mask_).bool().expand(B_, H_, T_, T_)
            except Exception:
                got_mask_ = None
                #ko| said_.append(f"마스크의 모양({tuple(mask_.shape)})이 브로드캐스팅되지 "
                #ko|              f"않습니다. (B, H, T, T) = {(B_, H_, T_, T_)}이어야 합니다")
                #en| said_.append(f"the mask's shape {tuple(mask_.shape)} does not broadcast "
                #en|              f"to (B, H, T, T) = {(B_, H_, T_, T_)}")
            if got_mask_ is not None:
                #ko: 실제 토큰인 쿼리의 행
                #en: the rows of real queries
                rows_ = real_[:, None, :, None].expand(B_, H_, T_, T_)
                extra_ = got_mask_ & ~want_mask_ & rows_
                lost_ = ~got_mask_ & want_mask_ & rows_
                key_pad_ = ~real_[:, None, None, :].expand(B_, H_, T_, T_)
                later_ = ~tri_.expand(B_, H_, T_, T_)
                if (extra_ & key_pad_).any():
                    #ko| said_.append("실제 토큰인 쿼리가 패딩인 키를 봅니다")
                    #en| said_.append("real queries see padding keys")
                if (extra_ & later_ & ~key_pad_).any():
                    #ko| said_.append("실제 토큰인 쿼리가 뒤에 오는 키를 봅니다")
                    #en| said_.append("real queries see later keys")
                if lost_.any():
                    first_ = (torch.arange(T_)[None, None, None, :]
                              == pads_.view(-1, 1, 1, 1))
                    diag_ = torch.eye(T_, dtype=torch.bool).expand(B_, H_, T_, T_)
                    if (lost_ <= diag_).all():
                        #ko| said_.append("대각선이 가려져 쿼리가 자기 자리의 키를 보지 "
                        #ko|              "못합니다")
                        #en| said_.append("the diagonal is hidden: a query does not see the "
                        #en|              "key at its own place")
                    elif (lost_ <= first_.expand(B_, H_, T_, T_)).all():
                        #ko| said_.append("각 행의 첫 실제 토큰이 키로 가려졌습니다")
                        #en| said_.append("each row's first real token is hidden as a key")
                    else:
                        #ko| said_.append("실제 토큰인 쿼리가 볼 수 있어야 할 앞의 실제 키 "
                        #ko|              f"{int(lost_[:, 0].sum())}칸이 가려졌습니다")
                        #en| said_.append(f"{int(lost_[:, 0].sum())} cells hide an earlier "
                        #en|              "real key from a real query")
        if not said_:
            return None
        #ko| return ". ".join(said_) + "."
        #en| return "; ".join(said_) + "."

    #ko: 기울기 없이 (파라미터를 제자리에서 다시 뽑습니다)
    #en: without gradients (the parameters are drawn again in place)
    with torch.no_grad():
        said_ = verdict_(torch.tensor([5, 1, 3]), 5)
        if said_ is not True:
            return said_
        #ko: 다른 배치로 한 번 더: 4행, 가장 긴 프롬프트가 T를 다 채우지 않는 길이
        #en: once more with another batch: 4 rows, the longest prompt shorter than T
        other_ = [4, 2, 5, 1]
        try:
            said_ = verdict_(torch.tensor(other_), 6)
        except NameError:
            raise
        except Exception as error_:
            said_ = f"{type(error_).__name__}: {error_}"
        if said_ is True:
            return True
        #ko| said_ = said_ or "출력이 다릅니다"
        #ko| return Also("길이 [5, 1, 3]의 3행 배치에서는 맞지만 "
        #ko|             f"길이 {other_}, T = 6인 4행 배치에서는 틀립니다"
        #ko|             f"({said_}). 함수는 행의 수와 길이가 어떻든 "
        #ko|             "x.shape과 lengths로 계산해야 합니다. ")
        #en| said_ = said_ or "other outputs"
        #en| return Also("right for the batch of 3 rows with lengths [5, 1, 3], "
        #en|             f"but wrong for 4 rows with lengths {other_} and T = 6 "
        #en|             f"({said_}): compute from x.shape and lengths, "
        #en|             "whatever the rows and lengths. ")


@exercise(
    "ch09-ex-cache-bytes",
    #ko| "캐시는 레이어마다 키와 밸류를 (B, H_kv, T, D)로 보관합니다. "
    #ko| "늘린 뒤라면 H_kv 자리에 쿼리 헤드 수가 들어갑니다. 1 MiB = 2**20바이트.",
    #en| "per layer the cache keeps keys and values as (B, H_kv, T, D); "
    #en| "after the repeat the query heads take H_kv's place. 1 MiB = 2**20 bytes.",
)
def ch09_ex_cache_bytes(answer_gqa_mib, answer_repeated_mib):
    def cache_parts_(heads_):
        #ko: 캐시의 MiB를 이루는 항: 맞는 값과 흔히 틀리는 값
        #en: the terms of the cache's MiB: the right value and the usual wrong ones
        return [
            #ko| (2, [(1, "키와 밸류 중 하나만"), (4, "키와 밸류를 두 번씩")]),
            #ko| (32, [(1, "레이어 32개 대신 1개")]),
            #ko| (4, [(1, "배치의 시퀀스 4개 대신 1개")]),
            #ko| (2048, [(1, "토큰 2048개 대신 1개(토큰 하나당)")]),
            #ko| (heads_, [(h_, f"헤드 {heads_}개 대신 {h_}개") for h_ in
            #ko|           ((32, 1, 4) if heads_ == 8 else (8, 64, 128, 1))]),
            #ko| (128, [(1, "head_dim(128) 없이")]),
            #ko| (2, [(1, "바이트가 아닌 값의 수(값 하나에 2바이트를 곱하지 않음)"),
            #ko|      (4, "bfloat16의 2바이트 대신 값 하나에 4바이트(float32)"),
            #ko|      (16, "값 하나에 2바이트 대신 16비트")]),
            #ko| (2**-20, [(1, "MiB가 아닌 바이트(2**20으로 나누지 않음)"),
            #ko|           (2**-10, "MiB가 아닌 KiB(2**10으로만 나눔)"),
            #ko|           (2**-30, "MiB가 아닌 GiB(2**30으로 나눔)"),
            #ko|           (1e-6, "MiB가 아닌 MB(10**6으로 나눔)"),
            #ko|           (1e-9, "MiB가 아닌 GB(10**9로 나눔)")]),
            #en| (2, [(1, "keys only (or values only), not both"),
            #en|      (4, "keys and values counted twice")]),
            #en| (32, [(1, "one layer instead of 32")]),
            #en| (4, [(1, "one sequence instead of the batch's 4")]),
            #en| (2048, [(1, "one token instead of 2048 (per token)")]),
            #en| (heads_, [(h_, f"{h_} heads instead of {heads_}") for h_ in
            #en|           ((32, 1, 4) if heads_ == 8 else (8, 64, 128, 1))]),
            #en| (128, [(1, "no head_dim (128)")]),
            #en| (2, [(1, "values, not bytes (no 2 bytes per value)"),
            #en|      (4, "4 bytes per value (float32) instead of bfloat16's 2"),
            #en|      (16, "16 bits per value instead of 2 bytes")]),
            #en| (2**-20, [(1, "bytes, not MiB (no division by 2**20)"),
            #en|           (2**-10, "KiB (divided by 2**10 only), not MiB"),
            #en|           (2**-30, "GiB (divided by 2**30), not MiB"),
            #en|           (1e-6, "MB (divided by 10**6), not MiB"),
            #en|           (1e-9, "GB (divided by 10**9), not MiB")]),
        ]

    if answer_gqa_mib is None or answer_repeated_mib is None:
        raise NotAnswered
    for name_, value_ in [("answer_gqa_mib", answer_gqa_mib),
                          ("answer_repeated_mib", answer_repeated_mib)]:
        if isinstance(value_, bool) or not isinstance(value_, (int, float)):
            #ko| return (f"{name_}에는 MiB 수를 숫자로 적으세요"
            #ko|         f"(지금 답: {value_!r}, {type(value_).__name__}).")
            #en| return (f"write {name_} as a number of MiB "
            #en|         f"(got {value_!r}, a {type(value_).__name__}).")
    gqa_ = 2 * 32 * 4 * 2048 * 8 * 128 * 2 / 2**20
    #ko: 흔한 실수로 나오는 값과 그 힌트
    #en: the values common mistakes give, and their hints
    slips_ = {
        #ko| gqa_ / 2: "키와 밸류 두 가지를 모두 세세요(그리고 값 하나는 2바이트).",
        #ko| gqa_ / 4: "배치의 시퀀스 4개를 모두 세세요.",
        #ko| gqa_ * 2: "bfloat16은 값 하나에 2바이트입니다(float32가 4바이트).",
        #ko| gqa_ / 32: "레이어 32개를 모두 세세요. 레이어마다 캐시가 따로 있습니다.",
        #en| gqa_ / 2: "count both keys and values (and 2 bytes per value).",
        #en| gqa_ / 4: "count all 4 sequences of the batch.",
        #en| gqa_ * 2: "bfloat16 takes 2 bytes per value (float32 takes 4).",
        #en| gqa_ / 32: "count all 32 layers: each layer has its own cache.",
    }
    if abs(answer_gqa_mib - 4 * gqa_) < 0.5 and abs(answer_repeated_mib - gqa_) < 0.5:
        #ko| return ("두 답이 뒤바뀌었습니다. answer_gqa_mib가 작은 쪽(키·밸류 헤드 8개), "
        #ko|         "answer_repeated_mib가 큰 쪽(늘린 뒤의 헤드 32개)입니다.")
        #en| return ("the two answers are swapped: answer_gqa_mib is the smaller one (8 "
        #en|         "key/value heads), answer_repeated_mib the larger (32 heads after the "
        #en|         "repeat).")
    for value_, hint_ in slips_.items():
        if abs(answer_gqa_mib - value_) < 0.5:
            return hint_
    near_ = gqa_ if abs(answer_gqa_mib - gqa_) < 0.5 else answer_gqa_mib
    near_rep_ = (4 * gqa_ if abs(answer_repeated_mib - 4 * gqa_) < 0.5
                 else answer_repeated_mib)
    #ko: 어느 배율만큼 틀렸는지, 그 배율을 만드는 항으로 말합니다
    #en: by which factor it is off, named by the term that makes that factor
    terms_ = [
        #ko| (1 / 2**10, "1024로 한 번 더 나누면 GiB입니다. MiB는 2**20바이트입니다."),
        #ko| (2**20, "바이트 수입니다. 2**20으로 나누면 MiB입니다."),
        #ko| (2**20 / 10**6, "10**6으로 나누면 MB입니다. MiB는 2**20바이트입니다."),
        #ko| (1 / 2, "키와 밸류 두 가지를 세세요."),
        #ko| (1 / 4, "배치의 시퀀스 4개를 모두 세세요."),
        #ko| (1 / 32, "레이어 32개가 저마다 캐시를 가집니다."),
        #ko| (2, "bfloat16은 값 하나에 2바이트입니다(float32는 4)."),
        #ko| (4, "캐시는 쿼리 헤드 32개가 아니라 키·밸류 헤드 8개를 보관합니다."),
        #en| (1 / 2**10, "dividing by 1024 once more gives GiB; a MiB is 2**20 bytes."),
        #en| (2**20, "that is bytes; divide by 2**20 for MiB."),
        #en| (2**20 / 10**6, "dividing by 10**6 gives MB; a MiB is 2**20 bytes."),
        #en| (1 / 2, "count both keys and values."),
        #en| (1 / 4, "count all 4 sequences of the batch."),
        #en| (1 / 32, "each of the 32 layers has its own cache."),
        #en| (2, "bfloat16 takes 2 bytes per value (float32 takes 4)."),
        #en| (4, "the cache holds the 8 key/value heads, not the 32 query heads."),
    ]
    #ko: 항 하나로 설명되는 배율만 그 항으로 말합니다(둘 이상이면 아래에서
    #ko: 가능한 조합을 모두 말합니다)
    #en: a factor that one term explains is named by it (for more, terms_said below
    #en: names every combination that fits)
    if any(abs(answer_gqa_mib / gqa_ - f_) <= 1e-6 * f_ for f_, _ in terms_):
        return factor_mistake(answer_gqa_mib, gqa_, terms_)
    if abs(answer_repeated_mib - 4) < 1e-9:
        #ko| return ("4는 배율(32 / 8)입니다. answer_repeated_mib에는 "
        #ko|         "늘린 캐시의 크기를 MiB로 적으세요.")
        #en| return ("4 is the factor (32 / 8); answer_repeated_mib is "
        #en|         "the size of the repeated cache, in MiB.")
    if near_ == gqa_:
        said_ = factor_mistake(answer_repeated_mib, 4 * gqa_, [
            #ko| (2, "늘리면 헤드가 32 / 8 = 4배가 됩니다(8배가 아니라)."),
            #ko| (8, "answer_gqa_mib에 헤드 수 32를 곱했습니다. 반복은 키·밸류 헤드 하나를 "
            #ko|  "32 / 8 = 4개로 늘리므로 4배입니다."),
            #ko| (1 / 4, "늘린 캐시가 늘리기 전의 캐시와 크기가 같습니다. 늘린 캐시는 "
            #ko|  "쿼리 헤드 32개만큼, 곧 4배입니다.")])
            #en| (2, "the repeat multiplies the heads by 32 / 8 = 4 (not 8)."),
            #en| (8, "answer_gqa_mib was multiplied by the 32 heads: the repeat turns each "
            #en|  "key/value head into 32 / 8 = 4, so the cache grows 4 times."),
            #en| (1 / 4, "the repeated cache is as large as the one before the repeat; "
            #en|  "it holds 32 heads, as many as the queries: 4 times more.")])
        if said_:
            return said_
    said_ = ""
    if near_ != gqa_:
        said_ += "answer_gqa_mib: " + terms_said(answer_gqa_mib, cache_parts_(8))
    if near_rep_ != 4 * gqa_:
        if near_ != gqa_ and abs(answer_repeated_mib - 4 * answer_gqa_mib) < 1e-6:
            #ko| said_ += ("answer_repeated_mib는 answer_gqa_mib의 4배로 맞게 늘렸으니, "
            #ko|           "answer_gqa_mib를 고치면 함께 맞습니다.")
            #en| said_ += ("answer_repeated_mib is 4 times answer_gqa_mib, as it should "
            #en|           "be: fixing answer_gqa_mib fixes it too.")
        else:
            said_ += ("answer_repeated_mib: "
                      + terms_said(answer_repeated_mib, cache_parts_(32)))
    return said_.strip() or True


@exercise(
    "ch09-ex-rolling",
    #ko| "다음 토큰들이 볼 키는 가장 최근의 w개입니다. "
    #ko| "토큰 축(dim=2)의 어느 쪽 끝에 있나요?",
    #en| "the keys the next tokens will need are the w most recent ones. "
    #en| "Which end of the token axis (dim=2) holds them?",
)
def ch09_ex_rolling(RotaryAttention, WindowCache):
    def band_(T_q, T_k, w):
        #ko: 띠 마스크 (T_q, T_k)를 이 셀 안에서 따로 만듭니다
        #en: the band mask (T_q, T_k), made in this cell
        i = torch.arange(T_k - T_q, T_k)[:, None]
        j = torch.arange(T_k)[None, :]
        return (j <= i) & (i - j < w)

    def verdict_():
        check_seed(11)
        layer_ = RotaryAttention(12, 4, 2, d_head=8).eval()
        for p_ in layer_.parameters():
            p_.normal_(0, 12 ** -0.5)
        x_ = torch.randn(2, 9, 12)                                         # (B, T, C)
        w_ = 3
        positions_ = torch.arange(9).expand(2, 9)
        full_, k_full_, v_full_ = _rotary_reference(layer_, x_, positions_, band_(9, 9, w_))
        cache_ = WindowCache(w_)
        #ko: append가 이번 단계의 어텐션에 돌려준 키를 기록합니다
        #en: the keys append returns for this step's attention are recorded
        returned_ = []
        append_ = cache_.append

        def spy_(k, v):
            result_ = append_(k, v)
            returned_.append(result_)
            return result_

        try:
            cache_.append = spy_
        except AttributeError:
            #ko: 채점기에서는 캐시가 다른 프로세스에 있어 기록하지 못합니다
            #en: in the grader the cache lives in another process: nothing is recorded
            pass
        #ko: 프롬프트 4개, 토큰 하나씩 셋, 다시 둘씩 하나
        #en: a prompt of 4, three single tokens, then two at once
        for start_, end_ in [(0, 4), (4, 5), (5, 6), (6, 7), (7, 9)]:
            kept_ = 0 if getattr(cache_, "k", None) is None else cache_.k.size(2)
            before_ = None if cache_.k is None else cache_.k.clone()
            before_v_ = None if cache_.v is None else cache_.v.clone()
            mask_ = band_(end_ - start_, kept_ + end_ - start_, w_)
            #ko| step_ = (f"토큰 {start_}..{end_ - 1}까지 쓰는 단계" if end_ - start_ > 1
            #ko|          else f"토큰 {start_}번을 쓰는 단계")
            #en| step_ = (f"the step writing tokens {start_}..{end_ - 1}" if end_ - start_ > 1
            #en|          else f"the step writing token {start_}")
            try:
                out_ = layer_(x_[:, start_:end_], mask=mask_, cache=cache_)
            except NameError:
                raise
            except Exception as error_:
                if "must match the size" in str(error_):
                    #ko| return ("이번 단계의 키 수가 마스크와 맞지 "
                    #ko|         "않습니다. append는 이번 단계의 어텐션에 "
                    #ko|         "자르기 전의 키와 밸류를 모두 돌려주어야 "
                    #ko|         "합니다(잘라서 보관하는 것은 따로).")
                    #en| return ("this step's keys do not match the mask: "
                    #en|         "append must return all the keys and "
                    #en|         "values, before the cut, for this step's "
                    #en|         "attention (what is kept is cut apart).")
                line_ = (str(error_).strip().splitlines() or [""])[0][:160]
                #ko| return f"{step_}에서 오류가 났습니다: {type(error_).__name__}: {line_}"
                #en| return f"{step_} raised an error: {type(error_).__name__}: {line_}"
            if not isinstance(cache_.k, torch.Tensor) or not isinstance(cache_.v,
                                                                        torch.Tensor):
                #ko| return (f"{step_} 뒤에 캐시의 self.k나 self.v가 텐서가 아닙니다"
                #ko|         f"({type(cache_.k).__name__}, {type(cache_.v).__name__}).")
                #en| return (f"after {step_} the cache's self.k or self.v is not a tensor "
                #en|         f"({type(cache_.k).__name__}, {type(cache_.v).__name__}).")
            if cache_.k.size(2) > w_:
                n_ = cache_.k.size(2)
                #ko| head_ = ("캐시의 토큰 축(dim=2)에 키가 w개보다 많이 남아 있습니다. "
                #ko|          "보관할 것만 남기고 잘라 내세요. ")
                #en| head_ = ("the cache keeps more than w keys along the time axis (dim=2): "
                #en|          "cut away what need not be kept. ")
                if cache_.k.size(-1) != 8:
                    #ko| return head_ + (f"키가 마지막 축(특징, D)을 따라 잘렸습니다(길이 "
                    #ko|                 f"{cache_.k.size(-1)}). [:, :, -w:]처럼 셋째 축을 "
                    #ko|                 "자르세요.")
                    #en| return head_ + ("The keys are cut along the last axis (the features, "
                    #en|                 f"D; {cache_.k.size(-1)} left) instead: slice the third "
                    #en|                 "axis, [:, :, -w:].")
                if n_ == end_:
                    #ko| return head_ + (f"토큰 {end_}개를 쓴 뒤에도 토큰 축에서 아무것도 "
                    #ko|                 f"잘리지 않았습니다(키 {n_}개, w = {w_}). 다른 축을 "
                    #ko|                 "잘랐거나([:, -w:]는 헤드 축), 윈도우가 아닌 수로 "
                    #ko|                 "잘랐습니다. 셋째 축을 캐시의 윈도우로 자르세요, "
                    #ko|                 "[:, :, -self.window:].")
                    #en| return head_ + (f"After {end_} tokens nothing is cut along the time "
                    #en|                 f"axis ({n_} keys kept, w = {w_}): the cut goes along "
                    #en|                 "another axis ([:, -w:] is the heads) or by a number "
                    #en|                 "other than the window. Slice the third axis by the "
                    #en|                 "cache's window, [:, :, -self.window:].")
                #ko| return head_ + (f"키 {n_}개가 남았고 w = {w_}입니다. 수가 아니라 "
                #ko|                 "self.window로 자르세요.")
                #en| return head_ + (f"{n_} keys are kept, w = {w_}: cut by self.window, not "
                #en|                 "a number.")
            if cache_.seen != end_:
                #ko| return (f"토큰 {end_}개를 쓴 뒤인데 seen이 "
                #ko|         f"{cache_.seen}입니다. 레이어는 새 위치를 seen에서 "
                #ko|         "세므로, 보관하지 않는 토큰까지 모두 "
                #ko|         "세어야 합니다(super().append가 셉니다).")
                #en| return (f"after {end_} tokens seen is {cache_.seen}: "
                #en|         "the layer counts new positions from seen, "
                #en|         "so every token written counts, kept "
                #en|         "or not (super().append counts them).")
            k_kept_ = cache_.k
            t_ = k_kept_.size(2)
            if t_ == 0:
                #ko| return (f"{step_} 뒤에 캐시에 키가 하나도 남지 않았습니다(빈 조각). "
                #ko|         "자르는 범위가 보관할 키를 모두 벗어났습니다.")
                #en| return (f"after {step_} the cache keeps no key at all (an empty "
                #en|         "slice): the cut misses every key to keep.")
            if tuple(k_kept_.shape) != (2, 2, t_, 8):
                #ko| return (f"{step_} 뒤에 캐시의 키가 {tuple(k_kept_.shape)}입니다. "
                #ko|         f"(B, H_kv, t, D) = (2, 2, t, 8)이어야 합니다.")
                #en| return (f"after {step_} the cached keys are {tuple(k_kept_.shape)}; "
                #en|         "they must be (B, H_kv, t, D) = (2, 2, t, 8).")
            if torch.allclose(k_kept_, k_full_[:, :, :t_], atol=1e-5) and end_ > t_:
                #ko| return ("캐시가 가장 오래된 키를 남기고 새 "
                #ko|         "키를 버립니다. 다음 토큰들이 볼 키는 "
                #ko|         "가장 최근의 w개입니다. 토큰 축의 어느 쪽 끝인가요?")
                #en| return ("the cache keeps the oldest keys and "
                #en|         "drops the new ones; the next tokens need "
                #en|         "the w most recent ones. Which end of the time axis holds them?")
            if not torch.allclose(k_kept_, k_full_[:, :, end_ - t_:end_], atol=1e-5):
                if any(torch.allclose(k_kept_, v_full_[:, :, a_:a_ + t_], atol=1e-5)
                       for a_ in range(end_ - t_ + 1)):
                    #ko| return ("캐시의 self.k에 밸류가 들어 있습니다. 키와 밸류가 "
                    #ko|         "뒤바뀌었습니다.")
                    #en| return ("the cache's self.k holds values: keys and values are "
                    #en|         "swapped.")
                at_ = next((a_ for a_ in range(end_ - t_ + 1) if torch.allclose(
                    k_kept_, k_full_[:, :, a_:a_ + t_], atol=1e-5)), None)
                if at_ is not None:
                    #ko| return (f"토큰 {end_}개를 쓴 뒤 캐시가 토큰 {at_}..{at_ + t_ - 1}의 "
                    #ko|         f"키를 남깁니다. 남길 것은 가장 최근의 "
                    #ko|         f"토큰 {end_ - t_}..{end_ - 1}입니다.")
                    #en| return (f"after {end_} tokens the cache keeps the keys of tokens "
                    #en|         f"{at_}..{at_ + t_ - 1}; the most recent ones, "
                    #en|         f"{end_ - t_}..{end_ - 1}, are those to keep.")
                #ko| return "캐시에 남은 키가 가장 최근에 쓴 키들이 아닙니다."
                #en| return "the keys left in the cache are not the most recently written ones."
            if t_ < min(w_ - 1, end_):
                #ko| return (f"토큰 {end_}개를 쓴 뒤 캐시가 가장 최근의 키 {t_}개만 "
                #ko|         f"남깁니다. 다음 토큰은 그 앞의 키 w - 1 = {w_ - 1}개까지 "
                #ko|         "보므로 너무 적습니다.")
                #en| return (f"after {end_} tokens the cache keeps only the {t_} most "
                #en|         f"recent keys: too few, the next token sees the w - 1 = "
                #en|         f"{w_ - 1} keys before it.")
            if tuple(cache_.v.shape) != tuple(k_kept_.shape) or not torch.allclose(
                    cache_.v, v_full_[:, :, end_ - t_:end_], atol=1e-5):
                #ko| return ("키는 맞게 잘랐지만 밸류는 아닙니다. 밸류도 "
                #ko|         "키와 같은 쪽 끝에서 같은 개수를 남기세요.")
                #en| return ("the keys are cut right but the values are not: "
                #en|         "keep as many values as keys, from the same end.")
            if not torch.allclose(out_, full_[:, start_:end_], atol=1e-5):
                new_k_ = k_full_[:, :, start_:end_]
                whole_ = new_k_ if before_ is None else torch.cat([before_, new_k_], dim=2)
                got_k_ = returned_[-1][0] if returned_ and len(returned_[-1]) == 2 else None
                if (isinstance(got_k_, torch.Tensor) and got_k_.size(2) < whole_.size(2)
                        and end_ - start_ > 1):
                    #ko| return ("한 번에 여러 토큰이 들어온 단계가 틀립니다. "
                    #ko|         "이번 단계의 어텐션에는 자르기 전의 "
                    #ko|         "키와 밸류를 모두 돌려주세요(앞쪽 "
                    #ko|         "새 토큰은 잘려 나갈 키도 봅니다).")
                    #en| return ("a step with several new tokens is wrong: "
                    #en|         "return all the keys and values, before "
                    #en|         "the cut, for this step's attention (the earlier "
                    #en|         "new tokens still see keys the cut removes).")
                if returned_ and not (isinstance(got_k_, torch.Tensor)
                                      and got_k_.shape == whole_.shape
                                      and torch.allclose(got_k_, whole_, atol=1e-5)):
                    #ko| return (f"{step_}에서 append가 어텐션에 돌려준 키가 "
                    #ko|         "이전에 보관한 키와 이번 단계의 새 키를 이은 것이 아닙니다.")
                    #en| return (f"in {step_} the keys append returns for attention are not "
                    #en|         "the keys kept before followed by this step's new keys.")
                new_v_ = v_full_[:, :, start_:end_]
                whole_v_ = (new_v_ if before_v_ is None
                            else torch.cat([before_v_, new_v_], dim=2))
                got_v_ = returned_[-1][1] if returned_ and len(returned_[-1]) == 2 else None
                if returned_ and not (isinstance(got_v_, torch.Tensor)
                                      and got_v_.shape == whole_v_.shape
                                      and torch.allclose(got_v_, whole_v_, atol=1e-5)):
                    #ko| return (f"{step_}에서 append가 어텐션에 돌려준 밸류가 "
                    #ko|         "이전에 보관한 밸류와 이번 단계의 새 밸류를 이은 것이 "
                    #ko|         "아닙니다.")
                    #en| return (f"in {step_} the values append returns for attention "
                    #en|         "are not the values kept before followed by this "
                    #en|         "step's new values.")
                if not returned_:
                    #ko| return (f"보관한 키와 밸류는 맞지만 {step_}의 출력이 띠 마스크로 "
                    #ko|         "한 번에 계산한 결과와 다릅니다. append가 이번 단계의 "
                    #ko|         "어텐션에 돌려주는 키와 밸류를 보세요.")
                    #en| return (f"the keys and values kept are right, but {step_} "
                    #en|         "gives outputs other than the band mask at once: look at the "
                    #en|         "keys and values append returns for this step's attention.")
                #ko| return (f"보관한 키와 밸류, append가 돌려준 키와 밸류는 맞지만 "
                #ko|         f"{step_}의 출력이 띠 마스크로 한 번에 계산한 결과와 "
                #ko|         "다릅니다.")
                #en| return (f"the keys and values kept and those append returns are "
                #en|         f"right, but the output of {step_} differs from the band mask "
                #en|         "computed at once.")
        #ko: 윈도우보다 짧은 프롬프트(토큰 2개, w = 3) 다음에 토큰 하나
        #en: a prompt shorter than the window (2 tokens, w = 3), then one token
        short_ = WindowCache(w_)
        try:
            first_ = layer_(x_[:, :2], mask=band_(2, 2, w_), cache=short_)
            kept_ = short_.k.size(2)
            second_ = layer_(x_[:, 2:3], mask=band_(1, kept_ + 1, w_), cache=short_)
        except NameError:
            raise
        except Exception as error_:
            line_ = (str(error_).strip().splitlines() or [""])[0][:160]
            #ko| return (f"윈도우보다 짧은 프롬프트(토큰 2개, w = {w_})에서 오류가 "
            #ko|         f"났습니다: {type(error_).__name__}: {line_}. 시퀀스는 w보다 "
            #ko|         "짧을 수 있고, 그때는 키를 모두 남깁니다.")
            #en| return (f"a prompt shorter than the window (2 tokens, w = {w_}) raised "
            #en|         f"{type(error_).__name__}: {line_}. A sequence may be shorter "
            #en|         "than w; then every key is kept.")
        if not (torch.allclose(first_, full_[:, :2], atol=1e-5)
                and torch.allclose(second_, full_[:, 2:3], atol=1e-5)):
            #ko| return (f"윈도우보다 짧은 프롬프트(토큰 2개, w = {w_}) 다음 토큰의 "
            #ko|         "결과가 띠 마스크로 한 번에 계산한 것과 다릅니다. 시퀀스가 w보다 "
            #ko|         "짧으면 키를 모두 남깁니다.")
            #en| return (f"after a prompt shorter than the window (2 tokens, w = {w_}) "
            #en|         "the next token differs from the band mask computed at once: "
            #en|         "when a sequence is shorter than w, every key is kept.")
        return True

    #ko: 기울기 없이 (파라미터를 제자리에서 다시 뽑습니다)
    #en: without gradients (the parameters are drawn again in place)
    with torch.no_grad():
        return verdict_()
