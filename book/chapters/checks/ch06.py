#ko: 6장 연습 문제의 확인들. 확인 셀 check("ch06-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 6's exercise checks, called by the check cells, check("ch06-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.
import torch
import torch.nn as nn
import torch.nn.functional as F


@exercise(
    "ch06-ex-shapes",
    #ko| "가중치는 (B, H, T_q, T_k)이고 헤드 수는 생성자의 둘째 인자입니다. "
    #ko| "출력은 쿼리를 따라갑니다.",
    #en| "the weights are (B, H, T_q, T_k), the number of heads is the constructor's "
    #en| "second argument, and the output follows the queries.",
)
def ch06_ex_shapes(answer_weights, answer_out):
    weights_, out_ = as_shape(answer_weights), as_shape(answer_out)
    #ko: 모양은 이 셀이 정합니다: B = 3, H = 3, T_q = 4, T_k = 9, C = 12, D = 4
    #en: the shapes, fixed here: B = 3, H = 3, T_q = 4, T_k = 9, C = 12, D = 4
    slips_ = {
        #ko| (3, 4, 9): "가중치에 헤드 축이 빠졌습니다. 헤드마다 "
        #ko|            "가중치가 따로 있습니다(B, H, T_q, T_k). ",
        #ko| (3, 3, 9, 4): "가중치의 마지막 두 축이 바뀌었습니다. "
        #ko|               "행이 쿼리, 열이 키입니다. ",
        #ko| (3, 3, 4, 4): "가중치의 마지막 축은 키의 수 T_k = 9입니다. 4는 "
        #ko|               "쿼리의 수 T_q(쿼리끼리의 가중치)이거나 헤드 하나의 차원 D입니다. ",
        #ko| (3, 12, 4, 9): "가중치의 둘째 축은 헤드 수 "
        #ko|                "H = 3입니다(C가 아니라). ",
        #ko| (3, 4, 4, 9): "가중치의 둘째 축은 헤드 수 H = 3입니다. "
        #ko|               "4는 헤드 하나의 차원 D입니다. ",
        #en| (3, 4, 9): "the weights lack the head axis: each head "
        #en|            "has its own weights, (B, H, T_q, T_k). ",
        #en| (3, 3, 9, 4): "the weights' last two axes are swapped: "
        #en|               "rows are queries, columns are keys. ",
        #en| (3, 3, 4, 4): "the weights' last axis is the number of keys, T_k = 9; "
        #en|               "4 is T_q (queries against queries) or a head's width D. ",
        #en| (3, 12, 4, 9): "the weights' second axis is the "
        #en|                "number of heads, H = 3 (not C). ",
        #en| (3, 4, 4, 9): "the weights' second axis is the number of "
        #en|               "heads, H = 3; 4 is one head's width D. ",
    }
    out_slips_ = {
        #ko| (3, 9, 12): "출력은 키가 아니라 쿼리를 따라갑니다(T_q = 4). ",
        #ko| (3, 3, 4, 4): "출력은 헤드를 합친 뒤의 모양입니다. "
        #ko|               "W_O를 지나면 (B, T_q, C)입니다. ",
        #ko| (3, 4, 4): "출력의 마지막 축은 헤드 하나의 차원 "
        #ko|            "D가 아니라 헤드를 합친 C = 12입니다. ",
        #en| (3, 9, 12): "the output follows the queries (T_q = 4), not the keys. ",
        #en| (3, 3, 4, 4): "the output is taken after the heads are "
        #en|               "merged: past W_O it is (B, T_q, C). ",
        #en| (3, 4, 4): "the output's last axis is C = 12, the "
        #en|            "merged heads, not one head's width D. ",
    }
    #ko: 알려진 실수가 아니면 축마다 어느 차원의 크기인지 말합니다
    #en: not a known slip: say for each axis which dimension's size it has
    sizes_ = {"B": 3, "H": 3, "T_q": 4, "T_k": 9, "D": 4, "C": 12}
    said_ = ((slips_.get(weights_) or axes_said("answer_weights", weights_,
                                                ("B", "H", "T_q", "T_k"), sizes_) or "")
             + (out_slips_.get(out_) or axes_said("answer_out", out_, ("B", "T_q", "C"),
                                                  sizes_) or ""))
    if said_:
        return Also(said_ + parts_wrong(answer_weights=(weights_, (3, 3, 4, 9)),
                                        answer_out=(out_, (3, 4, 12))))
    return parts_wrong(answer_weights=(weights_, (3, 3, 4, 9)), answer_out=(out_, (3, 4,
                                                                                   12)))


@exercise(
    "ch06-ex-order",
    #ko| "in_proj_weight의 세 조각이 어떤 순서로 쌓여 있는지 떠올려 보세요. "
    #ko| "가중치뿐 아니라 편향도 같은 순서입니다.",
    #en| "recall in which order the three slices of in_proj_weight are stacked; "
    #en| "the biases follow the same order.",
)
def ch06_ex_order(PortedMHA):
    check_seed(4)
    #ko: 크로스 어텐션: 쿼리 3개, 키와 밸류 5개, 모두 다른 텐서
    #en: cross-attention: 3 queries, 5 keys and values, all different tensors
    query_, key_, value_ = torch.randn(2, 3, 8), torch.randn(2, 5, 8), torch.randn(2, 5,
                                                                                   8)
    layer_ = PortedMHA(8, 2).eval()
    w_, b_ = layer_.in_proj.weight.split(8), layer_.in_proj.bias.split(8)
    with torch.no_grad():
        try:
            got_ = layer_.project(query_, key_, value_)
        except ValueError as error_:
            if "unpack" in str(error_):
                #ko| return ("세 조각으로 나뉘지 않았습니다. "
                #ko|         "in_proj.weight (3C, C)는 W_Q, W_K, W_V를 "
                #ko|         "위아래(dim=0)로 쌓은 것이므로 "
                #ko|         "split(C)는 기본값 dim=0으로 자릅니다.")
                #en| return ("the split did not give three slices: "
                #en|         "in_proj.weight (3C, C) stacks W_Q, W_K, W_V "
                #en|         "on top of each other (dim=0), so "
                #en|         "split(C) cuts along the default dim=0.")
            raise
        except RuntimeError as error_:
            if "cannot be multiplied" not in str(error_):
                raise
            #ko| return (f"투영의 곱이 맞지 않습니다({error_}). W_Q, W_K, W_V는 각각 "
            #ko|         "(C, C) = (8, 8)이고, in_proj.weight (3C, C)의 행을 셋으로 "
            #ko|         "나눈 것입니다.")
            #en| return (f"a projection's product does not fit ({error_}): W_Q, W_K and "
            #en|         "W_V are each (C, C) = (8, 8), a third of in_proj.weight's "
            #en|         "(3C, C) rows.")
        if not (isinstance(got_, (tuple, list)) and len(got_) == 3):
            #ko| return "project는 (q, k, v) 세 텐서를 돌려주어야 합니다."
            #en| return "project must return the three tensors (q, k, v)."
        q_, k_, v_ = got_
        #ko: 틀린 결과마다 무엇을 무엇으로 투영한 것인지 알아봅니다
        #en: for each wrong result, what was projected with what
        inputs_, slices_ = ("query", "key", "value"), ("W_Q", "W_K", "W_V")

        def what_(g_, want_):
            if not isinstance(g_, torch.Tensor):
                return None
            for i_, t_ in enumerate((query_, key_, value_)):
                for j_ in range(3):
                    forms_ = ((w_[j_], b_[j_]), (w_[j_], None), (w_[j_].T, b_[j_]))
                    for form_, (w_used_, b_used_) in enumerate(forms_):
                        made_ = F.linear(t_, w_used_, b_used_)
                        if g_.shape == made_.shape and torch.allclose(g_, made_,
                                                                      atol=1e-6):
                            #ko| extra_ = (")", ", 편향 없이)", ".T)")[form_]
                            #ko| return (f"F.linear({inputs_[i_]}, "
                            #ko|         f"{slices_[j_]}{extra_}")
                            #en| extra_ = ("", " without its bias", " transposed")[form_]
                            #en| return (f"is {inputs_[i_]} projected with "
                            #en|         f"{slices_[j_]}{extra_}")
            if g_.shape == want_.shape:
                ratio_ = (g_ / want_).flatten()
                if torch.allclose(ratio_, ratio_[0].expand_as(ratio_), atol=1e-5):
                    #ko| return f"맞는 값의 {ratio_[0].item():.3g}배입니다"
                    #en| return f"is {ratio_[0].item():.3g} times the right values"
            return None

        wants_ = [F.linear(t_, w, b)
                  for t_, w, b in zip((query_, key_, value_), w_, b_)]
        #ko: 세 결과가 맞는 결과의 순서만 바뀐 것인가?
        #en: are the three results the right ones in another order?
        order_ = [next((n_ for n_, r_ in zip("qkv", wants_)
                        if isinstance(g_, torch.Tensor) and g_.shape == r_.shape
                        and torch.allclose(g_, r_, atol=1e-6)), "?") for g_ in got_]
        if "?" not in order_ and order_ != ["q", "k", "v"]:
            #ko| return (f"세 결과는 맞지만 ({', '.join(order_)}) "
            #ko|         "순서로 돌려줍니다. (q, k, v) 순서로 돌려주세요.")
            #en| return (f"the three results are right but returned as ({', '.join(order_)})"
            #en|         ": return them as (q, k, v).")
        found_ = [(n_, what_(g_, r_)) for n_, g_, r_ in zip("qkv", got_, wants_)
                  if not (isinstance(g_, torch.Tensor) and g_.shape == r_.shape
                          and torch.allclose(g_, r_, atol=1e-6))]
        described_ = found_ and all(d_ for _, d_ in found_)
        if tuple(k_.shape) != (2, 5, 8) or tuple(v_.shape) != (2, 5, 8):
            #ko| return (f"키와 밸류가 {tuple(k_.shape)}, "
            #ko|         f"{tuple(v_.shape)}입니다((2, 5, 8)이어야 합니다). "
            #ko|         "크로스 어텐션에서는 key와 value가 query와 "
            #ko|         "다른 텐서이니, 각자 자기 입력을 투영하세요.")
            #en| return (f"keys and values are {tuple(k_.shape)} and "
            #en|         f"{tuple(v_.shape)}, expected (2, 5, 8): "
            #en|         "in cross-attention key and value are other tensors "
            #en|         "than query; project each from its own input.")
        right_ = [F.linear(t_, w, b) for t_, w, b in zip((query_, key_, value_), w_,
                                                         b_)]
        slips_ = [
            ([F.linear(query_, w_[1], b_[1]), F.linear(key_, w_[0], b_[0])],
             #ko| "쿼리와 키가 서로의 조각으로 투영됩니다. "
             #ko| "in_proj.weight는 [W_Q; W_K; W_V] 순서로 쌓여 있습니다."),
             #en| "queries and keys are projected with each other's "
             #en| "slices: in_proj.weight is stacked as [W_Q; W_K; W_V]."),
            ([F.linear(query_, w_[0], b_[1]), F.linear(key_, w_[1], b_[0])],
             #ko| "가중치의 순서는 맞았습니다. 편향도 같은 순서로 나누세요."),
             #en| "the weights are in order now; split the biases in the same order."),
            ([F.linear(query_, w_[1], b_[0]), F.linear(key_, w_[0], b_[1])],
             #ko| "편향의 순서는 맞았습니다. 가중치도 같은 순서로 나누세요."),
             #en| "the biases are in order now; split the weights in the same order."),
            ([F.linear(query_, w_[0]), F.linear(key_, w_[1])],
             #ko| "가중치는 맞았지만 편향이 빠졌습니다. "
             #ko| "in_proj.bias도 같은 순서로 나눠 더하세요."),
             #en| "the weights are right but the biases are missing: "
             #en| "split in_proj.bias in the same order and add it."),
            ([query_ @ w_[0] + b_[0], key_ @ w_[1] + b_[1]],
             #ko| "F.linear(x, w, b)는 x @ w.T + b입니다. "
             #ko| "@로 직접 곱하려면 w.T를 써야 합니다."),
             #en| "F.linear(x, w, b) is x @ w.T + b: "
             #en| "multiplying with @ yourself needs w.T."),
            ([right_[0], F.linear(query_, w_[1], b_[1])],
             #ko| "키를 query에서 투영했습니다. 키는 "
             #ko| "key에서, 밸류는 value에서 투영합니다."),
             #en| "the keys are projected from query: "
             #en| "keys come from key, values from value."),
            ([right_[0], F.linear(value_, w_[1], b_[1])],
             #ko| "키를 value에서 투영했습니다. 키는 "
             #ko| "key에서, 밸류는 value에서 투영합니다."),
             #en| "the keys are projected from value: "
             #en| "keys come from key, values from value."),
        ]
        def same_(a_, b_):
            return a_.shape == b_.shape and torch.allclose(a_, b_, atol=1e-6)

        for (q_slip_, k_slip_), said_ in slips_:
            if same_(q_, q_slip_) and same_(k_, k_slip_):
                return said_
        #ko: project가 실제로 하는 일을 0과 단위 행렬을 넣어 읽어 냅니다
        #en: what project really does, read off by feeding it zeros and the identity
        def rows_said_(found_, of_, labels_):
            #ko: 찾은 행(원소)의 번호를 블록, 몇 칸마다, 목록 가운데 하나로 말합니다
            #en: the rows (entries) found, as a block, a stride or a list
            first_, step_ = found_[0], found_[1] - found_[0]
            if found_ == list(range(first_, first_ + 8)) and first_ % 8 == 0:
                #ko| return f"{of_} {first_}-{first_ + 7}({labels_[first_ // 8]})"
                #en| return f"{of_} {first_}-{first_ + 7} ({labels_[first_ // 8]})"
            if step_ > 1 and found_ == list(range(first_, first_ + 8 * step_, step_)):
                #ko| return (f"{of_} {first_}부터 {step_}칸마다 하나씩"
                #ko|         f"({', '.join(map(str, found_[:3]))}, ...)")
                #en| return (f"{of_} {', '.join(map(str, found_[:3]))}, ... "
                #en|         f"(every {step_} from {first_})")
            return f"{of_} {found_}"

        def find_(vector_, rows_):
            #ko: 주어진 벡터와 같은 행의 번호(없으면 None)
            #en: the index of the row equal to vector_ (None if none is)
            return next((r_ for r_ in range(len(rows_))
                         if torch.allclose(vector_, rows_[r_], atol=1e-6)), None)

        def probe_():
            zero_, eye_ = torch.zeros(1, 8, 8), torch.eye(8)[None]
            try:
                base_ = layer_.project(zero_, zero_, zero_)
                outs_ = [layer_.project(*[eye_ if j_ == i_ else zero_
                                          for j_ in range(3)])
                         for i_ in range(3)]
            except Exception:
                return []
            weight_, bias_ = layer_.in_proj.weight, layer_.in_proj.bias[:, None]
            #ko| of_w_ = ("in_proj.weight의 행", slices_)
            #en| of_w_ = ("in_proj.weight's rows", slices_)
            #ko| of_b_ = ("in_proj.bias의 원소", ("b_q", "b_k", "b_v"))
            #en| of_b_ = ("in_proj.bias's entries", ("b_q", "b_k", "b_v"))
            said_ = []
            for o_, name_ in enumerate("qkv"):
                own_ = list(range(8 * o_, 8 * o_ + 8))
                if same_(got_[o_], right_[o_]):
                    continue
                if not all(isinstance(t_[o_], torch.Tensor)
                           and t_[o_].shape == (1, 8, 8) for t_ in (base_, *outs_)):
                    return []
                used_ = ", ".join(inputs_[i_] for i_ in range(3)
                                  if (outs_[i_][o_] - base_[o_]).abs().max() > 1e-6)
                if used_ != inputs_[o_]:
                    #ko| said_.append(f"{name_}: {used_ + '에서' if used_ else '입력 없이'} "
                    #ko|              f"계산됩니다({inputs_[o_]}에서 계산해야 합니다)")
                    #en| said_.append(f"{name_} is computed from {used_ or 'no input'}, "
                    #en|              f"not from {inputs_[o_]}")
                    continue
                used_w_ = (outs_[o_][o_] - base_[o_])[0].T           # (C out, C in)
                rows_ = [find_(row_, weight_) for row_ in used_w_]
                cols_ = [find_(row_, weight_) for row_ in used_w_.T]
                used_b_ = base_[o_][0, 0]
                entries_ = [find_(b_[None], bias_) for b_ in used_b_]
                if None not in rows_ and rows_ != own_:
                    #ko| said_.append(f"{name_}의 가중치는 "
                    #ko|              f"{rows_said_(rows_, *of_w_)}입니다")
                    #en| said_.append(f"{name_}'s weight is {rows_said_(rows_, *of_w_)}")
                elif None in rows_ and None not in cols_:
                    #ko| said_.append(f"{name_}의 가중치가 {rows_said_(cols_, *of_w_)}의 "
                    #ko|              "전치입니다")
                    #en| said_.append(f"{name_}'s weight is {rows_said_(cols_, *of_w_)}, "
                    #en|              "transposed")
                elif None in rows_:
                    #ko| said_.append(f"{name_}의 가중치는 in_proj.weight의 행들이 아닙니다")
                    #en| said_.append(f"{name_}'s weight is not in_proj.weight's rows")
                if (used_b_.abs() < 1e-9).all():
                    #ko| said_.append(f"{name_}에 편향이 없습니다")
                    #en| said_.append(f"{name_} has no bias")
                elif None in entries_:
                    ratio_b_ = used_b_ / layer_.in_proj.bias[own_]
                    if torch.allclose(ratio_b_, ratio_b_[0].expand_as(ratio_b_)):
                        #ko| said_.append(f"{name_}의 편향이 제 편향의 "
                        #ko|              f"{ratio_b_[0].item():.3g}배입니다")
                        #en| said_.append(f"{name_}'s bias is {ratio_b_[0].item():.3g} "
                        #en|              "times its own bias")
                    else:
                        #ko| said_.append(f"{name_}의 편향은 in_proj.bias의 원소가 아닙니다")
                        #en| said_.append(f"{name_}'s bias is not in_proj.bias's entries")
                elif entries_ != own_:
                    #ko| said_.append(f"{name_}의 편향은 "
                    #ko|              f"{rows_said_(entries_, *of_b_)}입니다")
                    #en| said_.append(f"{name_}'s bias is {rows_said_(entries_, *of_b_)}")
            return said_

        if same_(q_, right_[0]) and same_(k_, right_[1]) and not same_(v_, right_[2]):
            probed_ = probe_()
            if probed_:
                #ko| return ("쿼리와 키는 맞았습니다. " + ". ".join(probed_)
                #ko|         + ". 밸류는 value를 셋째 조각 W_V(행 16-23)와 편향 b_v로 "
                #ko|         "투영합니다.")
                #en| return ("queries and keys are right; " + "; ".join(probed_)
                #en|         + ": the values are value projected with the third slice, W_V "
                #en|         "(rows 16-23), and its bias b_v.")
            #ko| return ("쿼리와 키는 맞았습니다. 밸류는 value를 "
            #ko|         "셋째 조각 W_V와 편향 b_v로 투영합니다.")
            #en| return ("queries and keys are right; the values are value "
            #en|         "projected with the third slice, W_V, and its bias b_v.")
        if described_:
            #ko| return (". ".join(f"{n_}: {d_}" for n_, d_ in found_) + ". 입력마다"
            #ko|         "(query, key, value) 자기 조각(W_Q, W_K, W_V)과 "
            #ko|         "편향으로 투영합니다.")
            #en| return ("; ".join(f"{n_} {d_}" for n_, d_ in found_) + ": each input "
            #en|         "(query, key, value) goes with its own slice "
            #en|         "(W_Q, W_K, W_V) and bias.")
        probed_ = probe_()
        if probed_:
            #ko| return (". ".join(probed_) + ". W_Q, W_K, W_V는 in_proj.weight의 "
            #ko|         "행 0-7, 8-15, 16-23에 차례로 쌓여 있고, 편향도 같은 순서입니다.")
            #en| return ("; ".join(probed_) + ": W_Q, W_K, W_V are stacked in "
            #en|         "in_proj.weight's rows 0-7, 8-15, 16-23, and the biases "
            #en|         "in the same order.")
        wrong_ = [n_ for n_, g_, r_ in zip(("q", "k", "v"), got_,
                                           right_) if not same_(g_, r_)]
        if wrong_ and len(wrong_) < 3:
            #ko| return (f"{', '.join(wrong_)}만 틀렸습니다. "
            #ko|         "각각 자기 입력(query, key, value)을 "
            #ko|         "자기 조각(W_Q, W_K, W_V)과 편향으로 투영하세요.")
            #en| return (f"only {', '.join(wrong_)} {'is' if len(wrong_) == 1 else 'are'} "
            #en|         "wrong: project each input "
            #en|         "(query, key, value) with its own slice (W_Q, W_K, W_V) and bias.")
        out_ = layer_(query_, key_, value_)
        want_, _ = mha_reference(layer_, query_, key_, value_)
        if not (all(same_(g_, r_) for g_, r_ in zip(got_, right_))
                and torch.allclose(out_, want_, atol=1e-5)):
            return False
        #ko: 다른 크기의 레이어(뽑은 C와 헤드 수)에서도 맞는지: 예의 C = 8을 그대로 쓴 답
        #en: right for a layer of another size (a drawn C and number of heads) too: an
        #en: answer with the C = 8 of the check written in
        gen_ = check_generator(6)
        heads_ = int(torch.randint(3, 5, (), generator=gen_))
        width_ = heads_ * int(torch.randint(3, 5, (), generator=gen_))
        other_ = PortedMHA(width_, heads_).eval()
        xs_ = [torch.randn(2, n_, width_, generator=gen_) for n_ in (3, 5, 5)]
        w2_, b2_ = (other_.in_proj.weight.split(width_),
                    other_.in_proj.bias.split(width_))
        try:
            got2_ = other_.project(*xs_)
            fits_ = (isinstance(got2_, (tuple, list)) and len(got2_) == 3
                     and all(same_(g_, F.linear(x_, w, b))
                             for g_, x_, w, b in zip(got2_, xs_, w2_, b2_)))
            #ko| problem_ = "값이 틀립니다"
            #en| problem_ = "the values are wrong"
        except Exception as error_:
            fits_ = False
            line_ = (str(error_).strip().splitlines() or [""])[0][:120]
            #ko| problem_ = f"project가 오류를 냅니다({type(error_).__name__}: {line_})"
            #en| problem_ = f"project raises {type(error_).__name__} ({line_})"
        if not fits_:
            #ko| return (f"C = 8인 레이어에서는 맞지만 C = {width_}, 헤드 {heads_}개인 "
            #ko|         f"레이어에서는 {problem_}. 크기를 수로 적지 말고 self.d_model에서 "
            #ko|         "읽으세요.")
            #en| return (f"right for a layer with C = 8, but for one with C = {width_} and "
            #en|         f"{heads_} heads {problem_}: read the size from self.d_model, "
            #en|         "not a number.")
        return True


@exercise(
    "ch06-ex-padding",
    #ko| "위치 t의 토큰은 t가 그 문장의 길이보다 작을 때 실제 토큰입니다. "
    #ko| "마스크는 키 축(마지막 축)을 가리고, "
    #ko| "헤드와 쿼리 축에서는 크기 1로 브로드캐스팅되어야 합니다.",
    #en| "the token at position t is real when t is less than its sequence's length. "
    #en| "The mask blocks the key axis (the last one) and must broadcast, "
    #en| "with size 1, over the head and query axes.",
)
def ch06_ex_padding(padding_mask_from_lengths):
    #ko: 두 배치(길이가 T_k와 같은 행이 있는 배치, 모든 행에 패딩이 있는 배치)와, 모든 행에
    #ko: 패딩이 있는 뽑은 배치 하나(채점기에서는 학생이 본 적 없는 길이. 길이가 모두 T_k이면
    #ko: < 대신 <=를 쓴 답과 구별되지 않으므로 T_k보다 짧게 뽑습니다)
    #en: two batches (one with a row as long as T_k, one padded in every row) and a drawn one,
    #en: padded in every row (in the grader, lengths no student has seen; lengths all T_k
    #en: would not tell <= from <)
    gen_ = check_generator(6)
    T_drawn_ = int(torch.randint(3, 9, (), generator=gen_))
    drawn_ = (torch.randint(1, T_drawn_, (3,), generator=gen_).tolist(), T_drawn_)
    for lengths_, T_k_ in [([2, 5, 3], 5), ([1, 4], 6), drawn_]:
        lengths_ = torch.tensor(lengths_)
        try:
            mask_ = padding_mask_from_lengths(lengths_.clone(), T_k_)
        except RuntimeError as error_:
            if "must match the size" in str(error_):
                #ko| return ("lengths (B,)와 torch.arange(T_k) (T_k,)는 "
                #ko|         "그대로 비교하면 브로드캐스팅되지 않습니다. "
                #ko|         "lengths에 축을 하나 넣어 (B, 1)로 "
                #ko|         "만들면 비교 결과가 (B, T_k)가 됩니다.")
                #en| return ("lengths (B,) and torch.arange(T_k) "
                #en|         "(T_k,) do not broadcast as they are: "
                #en|         "give lengths an axis, (B, 1), and "
                #en|         "the comparison gives (B, T_k).")
            raise
        want_ = (torch.arange(T_k_) < lengths_[:, None])[:, None, None, :]
        #ko: 맞는 마스크에서는 실수를 찾지 않습니다(뽑은 길이에서는 어떤 실수의 결과가 우연히
        #ko: 맞는 마스크와 같을 수 있습니다)
        #en: a right mask is searched for no slip (with drawn lengths, a slip's result may happen
        #en: to equal the right mask)
        if (isinstance(mask_, torch.Tensor) and mask_.dtype == want_.dtype
                and mask_.shape == want_.shape and torch.equal(mask_, want_)):
            continue
        want_shape_ = (len(lengths_), 1, 1, T_k_)
        if (isinstance(mask_, torch.Tensor) and mask_.dim() == 4
                and tuple(mask_.shape) != want_shape_
                and sorted(mask_.shape) == sorted(want_shape_)):
            where_ = list(mask_.shape[1:]).index(T_k_) + 1
            #ko| hidden_ = "쿼리를" if where_ == 2 else "헤드를"
            #ko| return (f"모양이 {want_shape_}이어야 하는데 "
            #ko|         f"{tuple(mask_.shape)}입니다. 위치(T_k) 축이 "
            #ko|         f"{where_}번 축에 있어 {hidden_} 가립니다. "
            #ko|         f"패딩은 키를 가리므로 마지막 축에 두세요: {want_shape_}.")
            #en| hidden_ = "queries" if where_ == 2 else "heads"
            #en| return (f"expected shape {want_shape_}, got "
            #en|         f"{tuple(mask_.shape)}: the positions (T_k) are on axis "
            #en|         f"{where_}, which blocks {hidden_}. "
            #en|         f"Padding hides keys: put them on the last axis, {want_shape_}.")
        if (isinstance(mask_, torch.Tensor) and mask_.dim() == 4
                and tuple(mask_.shape[:3]) == want_shape_[:3]
                and mask_.size(3) != T_k_):
            #ko| return (f"lengths {lengths_.tolist()}, T_k = {T_k_}일 때 마지막 축의 "
            #ko|         f"길이가 {mask_.size(3)}입니다. T_k = {T_k_}여야 합니다. "
            #ko|         "위치의 수는 인자 T_k에서 읽으세요.")
            #en| return (f"with lengths {lengths_.tolist()} and T_k = {T_k_} the last axis "
            #en|         f"has {mask_.size(3)} positions where {T_k_} belongs: take the "
            #en|         "number of positions from the argument T_k.")
        said_ = mask_mistake(mask_, lengths_, T_k_, causal=False)
        if said_:
            return said_
        past_ = torch.arange(T_k_) > lengths_[:, None]
        if torch.equal(mask_, past_[:, None, None, :]):
            #ko| return ("True가 패딩을, 그것도 길이보다 하나 뒤부터 표시합니다. "
            #ko|         "이 책에서 True는 '볼 수 있음', 곧 실제 토큰(t < 길이)입니다.")
            #en| return ("True marks the padding here, from one past the length: "
            #en|         "True means 'may attend', the real tokens (t < length).")
        longest_ = torch.arange(T_k_) < lengths_.max()
        longest_ = longest_.expand(len(lengths_), 1, 1, T_k_)
        if torch.equal(mask_, longest_) and lengths_.max() < T_k_:
            #ko| return ("모든 행이 가장 긴 길이를 씁니다. 행마다 "
            #ko|         "자기 길이 lengths[:, None]과 비교하세요.")
            #en| return ("every row uses the longest length: compare "
            #en|         "with each row's own length, lengths[:, None].")
        if torch.equal(mask_, (torch.arange(T_k_) < lengths_[:, None] - 1)[:, None,
                                                                           None, :]):
            #ko| return ("실제 토큰이 하나씩 모자랍니다. 위치는 0부터 세므로 "
            #ko|         "길이 n이면 위치 0부터 n-1까지가 실제 토큰입니다.")
            #en| return ("one real token short in each row: positions count "
            #en|         "from 0, so a length n means positions 0 to n-1.")
        left_ = (torch.arange(T_k_) >= T_k_ - lengths_[:, None])[:, None, None, :]
        if torch.equal(mask_, left_):
            #ko| return ("True가 각 행의 마지막 lengths[b]개 자리에 있습니다(왼쪽 패딩). "
            #ko|         "이 문제의 패딩은 오른쪽이라 실제 토큰은 "
            #ko|         "위치 0부터 n-1까지입니다.")
            #en| return ("True marks the last lengths[b] positions of each row (left "
            #en|         "padding); here the padding is on the right, so the real "
            #en|         "tokens are positions 0 to n-1.")
        want_ = (torch.arange(T_k_) < lengths_[:, None])[:, None, None, :]
        if not torch.equal(mask_, want_):
            #ko: 행마다 어느 위치가 틀렸는지
            #en: which positions are wrong, row by row
            said_ = []
            for b_, n_ in enumerate(lengths_.tolist()):
                row_ = mask_[b_].flatten().tolist()
                shown_ = [t_ for t_ in range(T_k_) if row_[t_] and t_ >= n_]
                hidden_ = [t_ for t_ in range(T_k_) if not row_[t_] and t_ < n_]
                if shown_:
                    #ko| said_.append(f"행 {b_}(길이 {n_})에서 True인 패딩 위치: {shown_}")
                    #en| said_.append(f"row {b_} (length {n_}) has True at padding "
                    #en|              f"positions {shown_}")
                if hidden_:
                    #ko| said_.append(f"행 {b_}(길이 {n_})에서 False인 실제 토큰 위치: "
                    #ko|              f"{hidden_}")
                    #en| said_.append(f"row {b_} (length {n_}) has False at real-token "
                    #en|              f"positions {hidden_}")
            #ko| return Also(f"lengths {lengths_.tolist()}, T_k = {T_k_}일 때: "
            #ko|             + ". ".join(said_[:3]) + ". ")
            #en| return Also(f"with lengths {lengths_.tolist()} and T_k = {T_k_}: "
            #en|             + "; ".join(said_[:3]) + "; ")
    return True


@exercise(
    "ch06-ex-dropout",
    #ko| "드롭아웃은 학습 모드에서만 가중치를 지우고, "
    #ko| "평가 모드에서는 그대로 두어야 합니다. "
    #ko| "모듈은 자기 모드를 알지만, 함수는 누가 알려 주지 않으면 모릅니다.",
    #en| "dropout must erase weights in training mode "
    #en| "only and leave them alone in evaluation mode. "
    #en| "A module knows its mode; a function knows it only if it is told.",
)
def ch06_ex_dropout(DropoutAttend):
    check_seed(7)
    layer_ = DropoutAttend(8, 2, dropout=0.5)
    #ko: 크로스 어텐션: 쿼리 4개, 키와 밸류 6개
    #en: cross-attention: 4 queries, 6 keys and values
    query_, key_ = torch.randn(2, 4, 8), torch.randn(2, 6, 8)
    with torch.no_grad():
        #ko: 답이 오류를 내면 그 오류를 먼저 말합니다(학습 모드와 평가 모드 모두)
        #en: an error of the answer is said first (in training and in evaluation mode)
        #ko: 난수 상태는 되돌려 둡니다(뒤의 검사가 뽑는 드롭아웃이 그대로이도록)
        #en: the random state is put back (so that the dropout drawn later is the same)
        state_ = torch.get_rng_state()
        for mode_ in (True, False):
            try:
                layer_.train(mode_)(query_, key_, key_)
            except Exception as error_:
                line_ = (str(error_).strip().splitlines() or [""])[0][:160]
                #ko| said_ = (("학습" if mode_ else "평가") + " 모드에서 attend가 오류를 "
                #ko|          f"냈습니다: {type(error_).__name__}: {line_}. ")
                #en| said_ = (("in training" if mode_ else "in evaluation") + " mode your "
                #en|          f"attend raised {type(error_).__name__}: {line_}. ")
                if "not callable" in str(error_):
                    #ko| said_ += ("self.training은 메서드가 아니라 True나 False를 담은 "
                    #ko|           "속성이므로 ()를 붙이지 않습니다. ")
                    #en| said_ += ("self.training is an attribute holding True or False, "
                    #en|           "not a method: no (). ")
                return Also(said_)
        layer_.train()
        torch.set_rng_state(state_)
        if torch.equal(layer_(query_, key_, key_), layer_(query_, key_, key_)):
            layer_.eval()
            if not torch.equal(layer_(query_, key_, key_), layer_(query_, key_, key_)):
                return (
                    #ko| "모드가 뒤바뀌었습니다. 학습 모드에서는 지우지 않고 평가 "
                    #ko| "모드에서 지웁니다. 드롭아웃에 지금 모드를 그대로 알려 주세요."
                    #en| "the modes are swapped: it drops in evaluation mode and not "
                    #en| "in training mode. Tell the dropout the mode as it is."
                )
            return (
                #ko| "학습 모드에서 두 번 부른 결과가 같습니다. "
                #ko| "F.dropout 호출은 그대로 두고, training 인자로 지금 모드를 알려 주세요."
                #en| "in training mode two calls gave the same result: "
                #en| "keep the dropout, and tell it the mode."
            )
        #ko: (B, H, T_q, T_k): 학습 모드의 가중치
        #en: (B, H, T_q, T_k): the weights in training mode
        dropped_ = layer_.attn_weights
        layer_.eval()
        out_ = layer_(query_, key_, key_)
        kept_eval_ = layer_.attn_weights
        want_, kept_ = mha_reference(layer_, query_, key_, key_)
        if not torch.allclose(out_, want_, atol=1e-6):
            if torch.allclose(layer_.attn_weights, kept_ * 0.5, atol=1e-6):
                #ko| return ("평가 모드의 가중치가 (1 - p)배로 "
                #ko|         "작아졌습니다. F.dropout이 학습 모드에서 이미 "
                #ko|         "남은 값을 1/(1 - p)배 "
                #ko|         "하므로 따로 곱하지 마세요.")
                #en| return ("in evaluation mode the weights are scaled by "
                #en|         "(1 - p): F.dropout already scales what it "
                #en|         "keeps by 1/(1 - p) in training mode, "
                #en|         "so multiply by nothing yourself.")
            if not torch.equal(out_, layer_(query_, key_, key_)):
                return (
                    #ko| "평가 모드(eval())에서도 여전히 "
                    #ko| "지우고, 부를 때마다 결과가 다릅니다. "
                    #ko| "드롭아웃을 하는 쪽은 모듈이 지금 "
                    #ko| "어느 모드인지 어떻게 알 수 있을까요? "
                    #ko| "F.dropout의 인자와 그 기본값을 보세요. attend 안에서 만든 "
                    #ko| "nn.Dropout은 새 모듈이라 언제나 학습 모드입니다."
                    #en| "in evaluation mode (eval()) it "
                    #en| "still drops, and each call differs. "
                    #en| "How can the dropout know "
                    #en| "which mode the module is in? "
                    #en| "Look at the arguments of F.dropout and their defaults; an "
                    #en| "nn.Dropout made inside attend is a new module, always in "
                    #en| "training mode."
                )
            #ko: 쿼리마다 가중치의 합이 1인지(소프트맥스의 축)
            #en: whether each query's weights add up to 1 (the softmax's axis)
            rows_ = layer_.attn_weights.sum(dim=-1)
            if not torch.allclose(rows_, torch.ones_like(rows_), atol=1e-5):
                columns_ = layer_.attn_weights.sum(dim=-2)
                if torch.allclose(columns_, torch.ones_like(columns_), atol=1e-5):
                    #ko| return ("평가 모드의 가중치가 키마다(열마다) 합이 1입니다. "
                    #ko|         "소프트맥스를 쿼리 축(dim=-2)을 따라 했습니다. 쿼리마다 "
                    #ko|         "키들에 대한 가중치의 합이 1이 되도록 dim=-1을 따라 하세요.")
                    #en| return ("in evaluation mode the weights add up to 1 for each key "
                    #en|         "(column): the softmax runs along the queries (dim=-2). "
                    #en|         "Take it along dim=-1, so that each query's weights over "
                    #en|         "the keys add up to 1.")
            #ko| said_ = value_mistake(layer_.attn_weights, kept_,
            #ko|                       axes=("B", "H", "T_q", "T_k"),
            #ko|                       factors={"T_k": 6, "T_q": 4}, last_resort=True)
            #ko| return Also(f"평가 모드(드롭아웃 없음)의 가중치가 다릅니다. {said_}"
            #ko|             "평가 모드에서는 소프트맥스의 가중치를 그대로 씁니다. ")
            #en| said_ = value_mistake(layer_.attn_weights, kept_,
            #en|                       axes=("B", "H", "T_q", "T_k"),
            #en|                       factors={"T_k": 6, "T_q": 4}, last_resort=True)
            #en| return Also(f"in evaluation mode (no dropout) the weights differ: {said_}"
            #en|             "in evaluation mode the softmax's weights are used as they "
            #en|             "are; ")
        #ko: 패딩 마스크 (B, 1, 1, T_k)도 지켜야 합니다
        #en: the padding mask (B, 1, 1, T_k) must hold too
        keep_ = torch.arange(6) < torch.tensor([6, 3])[:, None]
        masked_want_, _ = mha_reference(layer_, query_, key_, key_,
                                     key_padding_mask=~keep_)
        if not torch.allclose(layer_(query_, key_, key_, keep_[:, None, None, :]),
                              masked_want_, atol=1e-6):
            #ko| return ("마스크가 무시됩니다. 드롭아웃을 고치면서 "
            #ko|         "마스크를 거는 줄(masked_fill)을 지우지 않았나요?")
            #en| return ("the mask is ignored: did the fix remove "
            #en|         "the line that applies it (masked_fill)?")
    #ko: 드롭아웃이 가중치에 걸렸다면 일부는 0이고, 나머지는 1/(1-p)배입니다
    #en: dropout on the weights: some are 0, the rest are scaled by 1/(1-p)
    if not torch.allclose(kept_eval_, kept_, atol=1e-6):
        #ko| return ("attend가 돌려주는 둘째 값은 쓴 가중치 그대로여야 합니다"
        #ko|         "(모듈이 attn_weights로 보관합니다).")
        #en| return ("the second value attend returns must be the weights it used "
        #en|         "(the module keeps them as attn_weights).")
    erased_ = dropped_ == 0
    if erased_.any() and not erased_.all():
        ratio_ = dropped_[~erased_] / kept_[~erased_]
        ratio_ = ratio_[ratio_.isfinite()]
        if ratio_.numel() and torch.allclose(ratio_, torch.full_like(ratio_, 2.0)):
            #ko: 다른 확률(0.25)의 레이어도: 남은 가중치는 1/(1 - 0.25)배여야 합니다
            #en: a layer with another probability (0.25) too: what it keeps is scaled
            #en: by 1/(1 - 0.25)
            check_seed(8)
            other_ = DropoutAttend(8, 2, dropout=0.25)
            with torch.no_grad():
                other_(query_, key_, key_)
                other_dropped_ = other_.attn_weights
                other_.eval()
                other_(query_, key_, key_)
            left_ = other_dropped_ != 0
            other_ratio_ = other_dropped_[left_] / other_.attn_weights[left_]
            other_ratio_ = other_ratio_[other_ratio_.isfinite()]
            if torch.allclose(other_ratio_, torch.full_like(other_ratio_, 4 / 3)):
                return True
            other_share_ = (~left_).float().mean().item()
            if (torch.allclose(other_ratio_, torch.full_like(other_ratio_, 2.0))
                    and other_share_ < 0.4):
                return (
                    #ko| "dropout=0.25로 만든 레이어가 가중치 중 "
                    #ko| f"{other_share_:.0%}만큼을 지워 확률은 맞지만, 남은 "
                    #ko| "가중치는 4/3(= 1/(1 - 0.25))배가 아니라 2배입니다. "
                    #ko| "배율 1/(1 - p)도 레이어의 p에서 나와야 합니다."
                    #en| "a layer made with dropout=0.25 erases "
                    #en| f"{other_share_:.0%} of the weights, as it should, but "
                    #en| "doubles what it keeps where 4/3 (= 1/(1 - 0.25)) belongs: "
                    #en| "the scale 1/(1 - p) too comes from the layer's p."
                )
            if torch.allclose(other_ratio_, torch.full_like(other_ratio_, 2.0)):
                return (
                    #ko| "dropout=0.25인 레이어도 남은 가중치를 2배로 "
                    #ko| "키웁니다. 확률이 0.5로 고정되어 있으니 "
                    #ko| "생성자가 받은 self.dropout을 쓰세요."
                    #en| "a layer made with dropout=0.25 also doubles "
                    #en| "what it keeps: the probability is fixed at "
                    #en| "0.5; use the constructor's self.dropout."
                )
            scale_ = other_ratio_.mean().item()
            same_ = torch.full_like(other_ratio_, scale_)
            if other_ratio_.numel() and torch.allclose(other_ratio_, same_):
                #ko: 남은 가중치의 배율 1/(1 - q)에서 읽은 지우는 확률 q
                #en: the drop probability q read from the scale 1/(1 - q) of what is kept
                implied_ = 1 - 1 / scale_
                #ko: 0이 된 몫이 0.25 근처이면 확률은 맞고 배율만 틀렸습니다
                #en: zeros near a share of 0.25: the probability is right, the scale not
                other_share_ = (~left_).float().mean().item()
                if abs(implied_ - 0.75) < 1e-3 and other_share_ < 0.5:
                    return (
                        #ko| "dropout=0.25로 만든 레이어가 가중치 중 "
                        #ko| f"{other_share_:.0%}만큼을 지워 확률은 맞지만, 남은 "
                        #ko| "가중치를 4 = 1/p배 키웁니다. "
                        #ko| "남긴 값은 1/(1 - p) = 4/3배가 되어야 합니다."
                        #en| "a layer made with dropout=0.25 erases "
                        #en| f"{other_share_:.0%} of the weights, as it should, but "
                        #en| "scales what it keeps by 4 = 1/p; what is kept must be "
                        #en| "1/(1 - p) = 4/3 times its value."
                    )
                if abs(implied_ - 0.75) < 1e-3:
                    return (
                        #ko| "dropout=0.25로 만든 레이어가 남은 가중치를 "
                        #ko| "4배 키웁니다. 지우는 확률이 0.75, 곧 1 - p로 "
                        #ko| "들어갔습니다. F.dropout의 p는 남길 확률이 아니라 "
                        #ko| "지울 확률이므로 self.dropout을 그대로 줍니다."
                        #en| "a layer made with dropout=0.25 scales what it "
                        #en| "keeps by 4: the drop probability went in as 0.75, "
                        #en| "1 - p. F.dropout's p is the probability to drop, "
                        #en| "not to keep: pass self.dropout as it is."
                    )
                return (
                    #ko| "dropout=0.25로 만든 레이어가 남은 가중치를 "
                    #ko| f"{scale_:.3g}배 키웁니다. 지우는 확률 {implied_:.3g}의 "
                    #ko| "배율이며, 4/3(= 1/(1 - 0.25))이어야 합니다. "
                    #ko| "확률은 생성자가 받은 self.dropout입니다."
                    #en| "a layer made with dropout=0.25 scales what it keeps "
                    #en| f"by {scale_:.3g}, the scale of a drop probability of "
                    #en| f"{implied_:.3g}; it must be 4/3 (= 1/(1 - 0.25)): the "
                    #en| "probability is the constructor's self.dropout."
                )
            if not other_ratio_.numel():
                return False
            #ko| return ("dropout=0.25로 만든 레이어가 남은 가중치에 곱한 수가 "
            #ko|         f"{other_ratio_.min().item():.3g}부터 "
            #ko|         f"{other_ratio_.max().item():.3g}까지 제각각입니다. 남긴 가중치 "
            #ko|         "모두에 같은 수 4/3(= 1/(1 - 0.25))을 곱해야 합니다.")
            #en| return ("a layer made with dropout=0.25 multiplies the weights it keeps by "
            #en|         f"various numbers, {other_ratio_.min().item():.3g} to "
            #en|         f"{other_ratio_.max().item():.3g}; every weight kept must be "
            #en|         "multiplied by the same 4/3 (= 1/(1 - 0.25)).")
        share_ = erased_.float().mean().item()
        if ratio_.numel() and torch.allclose(ratio_, ratio_.mean().expand_as(ratio_)):
            scale_ = ratio_.mean().item()
            if abs(scale_ - 1) < 1e-4:
                #ko| return (f"학습 모드에서 가중치 중 {share_:.0%}만큼이 0이 되지만, "
                #ko|         "남은 가중치가 커지지 않았습니다. 드롭아웃은 남긴 값에 "
                #ko|         "1/(1 - p) = 2를 곱해 기댓값을 평가 모드와 같게 둡니다.")
                #en| return (f"in training mode {share_:.0%} of the weights are 0, but the "
                #en|         "ones kept are not scaled up: dropout multiplies what it keeps "
                #en|         "by 1/(1 - p) = 2, so that the expected value matches "
                #en|         "evaluation mode.")
            #ko| return (f"학습 모드에서 가중치 중 {share_:.0%}만큼이 0이 되고, 남은 "
            #ko|         f"가중치가 {scale_:.3g}배입니다. 지우는 확률이 "
            #ko|         f"{1 - 1 / scale_:.3g}일 때의 배율입니다. "
            #ko|         "이 레이어의 확률은 생성자가 받은 "
            #ko|         "self.dropout = 0.5이고, 남은 가중치는 1/(1 - p) = 2배가 되어야 "
            #ko|         "합니다.")
            #en| return (f"in training mode {share_:.0%} of the weights are 0 and the ones "
            #en|         f"kept are {scale_:.3g} times their value, the scale of a drop "
            #en|         f"probability of {1 - 1 / scale_:.3g}; this layer's probability is "
            #en|         "the one the constructor got, self.dropout = 0.5, and what is kept "
            #en|         "is 1/(1 - p) = 2 times its value.")
        if not ratio_.numel():
            #ko| return (f"학습 모드에서 가중치 중 {share_:.0%}만큼이 0이 되지만, 남은 "
            #ko|         "가중치가 수가 아닙니다(NaN이나 무한대). 드롭아웃은 남긴 가중치 "
            #ko|         "모두에 같은 수 1/(1 - p) = 2를 곱합니다.")
            #en| return (f"in training mode {share_:.0%} of the weights are 0, but the ones "
            #en|         "kept are not numbers (NaN or infinite); dropout multiplies every "
            #en|         "weight it keeps by the same 1/(1 - p) = 2.")
        #ko| said_ = ("각 쿼리의 가중치 합이 다시 1입니다. "
        #ko|          if torch.allclose(dropped_.sum(-1), torch.ones(1)) else "")
        #ko| return (f"학습 모드에서 가중치 중 {share_:.0%}만큼이 0이 되지만, 남은 "
        #ko|         f"가중치에 곱해진 수가 {ratio_.min().item():.3g}부터 "
        #ko|         f"{ratio_.max().item():.3g}까지 제각각입니다. {said_}드롭아웃은 "
        #ko|         "남긴 가중치 모두에 같은 수 1/(1 - p) = 2를 곱합니다.")
        #en| said_ = ("each query's weights add up to 1 again; "
        #en|          if torch.allclose(dropped_.sum(-1), torch.ones(1)) else "")
        #en| return (f"in training mode {share_:.0%} of the weights are 0, but the ones "
        #en|         f"kept are multiplied by various numbers, {ratio_.min().item():.3g} "
        #en|         f"to {ratio_.max().item():.3g}; {said_}dropout multiplies every "
        #en|         "weight it keeps by the same 1/(1 - p) = 2.")
    #ko: 학습 모드의 출력이 돌려준 가중치로 계산한 출력과 다른가?
    #en: does the output in training mode differ from the one the returned weights give?
    layer_.train()
    check_seed(9)
    with torch.no_grad():
        out_train_ = layer_(query_, key_, key_)
        v_ = layer_.split_heads(layer_.project(query_, key_, key_)[2])
        from_weights_ = layer_.out_proj(layer_.merge_heads(layer_.attn_weights @ v_))
        #ko: W_O를 거꾸로 풀어 헤드를 합친 값 (B, T_q, C)
        #en: W_O undone: the merged heads (B, T_q, C)
        merged_ = torch.linalg.solve(layer_.out_proj.weight,
                                     (out_train_ - layer_.out_proj.bias).mT).mT
    if not torch.allclose(out_train_, from_weights_, atol=1e-5):
        if (merged_.abs() < 1e-5).float().mean() > 0.2:
            return (
                #ko| "드롭아웃이 어텐션의 출력(weights @ v)을 지웁니다. "
                #ko| "출력이 아니라 소프트맥스가 낸 가중치에 걸어야 합니다."
                #en| "the dropout erases attention's output (weights @ v): "
                #en| "apply it to the weights the softmax gives, not to the output."
            )
        if not (layer_.attn_weights == 0).any():
            return (
                #ko| "학습 모드의 출력이 attend가 돌려준 가중치로 계산한 값과 "
                #ko| "다릅니다. 그 가중치에는 0이 하나도 없습니다. 돌려주는 것과 "
                #ko| "다른(드롭아웃한) 가중치로 계산했거나, 드롭아웃이 가중치가 "
                #ko| "아닌 곳(v, 점수, 출력 ...)에 걸렸습니다. 소프트맥스가 낸 "
                #ko| "가중치에 드롭아웃을 걸고, 그 가중치로 계산해 돌려주세요."
                #en| "in training mode the output is not what the weights attend "
                #en| "returns give, and those weights have no zeros: it computes "
                #en| "with other (dropped) weights than it returns, or the dropout "
                #en| "acts on something else (v, the scores, the output ...). Drop "
                #en| "the softmax's weights, compute with them and return them."
            )
        return (
            #ko| "학습 모드의 출력이 attend가 돌려준 가중치로 계산한 값과 "
            #ko| "다릅니다. 드롭아웃한 가중치로 계산했다면 그 가중치를 돌려주세요."
            #en| "in training mode the output is not what the weights attend "
            #en| "returns give: return the dropped weights it computed with."
        )
    return (
        #ko| "드롭아웃이 가중치가 아닌 곳에 걸렸습니다. "
        #ko| "소프트맥스가 낸 가중치에 걸어야 합니다."
        #en| "the dropout acts on something other than the weights: "
        #en| "apply it to the weights the softmax gives."
    )
