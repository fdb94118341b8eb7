#ko: 8장 연습 문제의 확인들. 확인 셀 check("ch08-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 8's exercise checks, called by the check cells, check("ch08-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


@exercise(
    "ch08-ex-gqa-shapes",
    #ko| "D = C // H는 모델 차원을 쿼리 헤드 수로 나눈 값이고, C_kv = H_kv * D입니다. "
    #ko| "투영의 차원은 C + 2 * C_kv이고, "
    #ko| "반복하면 키의 헤드 수가 쿼리와 같아집니다.",
    #en| "D = C // H is the width divided by the number of query heads, "
    #en| "and C_kv = H_kv * D. The projection is C + 2 * C_kv wide, "
    #en| "and after the repeat the keys have as many heads as the queries.",
)
def ch08_ex_gqa_shapes(answer_width, answer_k, answer_k_repeated):
    #ko: GroupedQueryAttention(16, 8, 2), x (3, 5, 16): D = 16 // 8 = 2, C_kv = 2 * 2 = 4
    #en: GroupedQueryAttention(16, 8, 2), x (3, 5, 16): D = 16 // 8 = 2, C_kv = 2 * 2 = 4
    if answer_width is None:
        raise NotAnswered
    if isinstance(answer_width, (tuple, list)):
        #ko| return Also("answer_width에는 모양 전체가 아니라 마지막 축의 크기 하나를 "
        #ko|             f"정수로 적습니다. 지금 답: {tuple(answer_width)}. ")
        #en| return Also(f"answer_width is one whole number, the size of the last "
        #en|             f"axis, not the whole shape {tuple(answer_width)}. ")
    if isinstance(answer_width, bool) or not isinstance(answer_width, int):
        #ko| return f"answer_width에는 정수를 적으세요. 지금 답: {answer_width!r}"
        #en| return f"write a whole number in answer_width; got {answer_width!r}"
    k_, repeated_ = as_shape(answer_k), as_shape(answer_k_repeated)
    if (answer_width, k_, repeated_) == (24, (3, 2, 5, 2), (3, 8, 5, 2)):
        return True
    sizes_ = {"B": 3, "T": 5, "C": 16, "H": 8, "H_kv": 2, "D": 2, "C_kv": 4,
              "C // H_kv": 8}
    width_ = {
        #ko| 48: "48 = 3C는 키와 밸류의 헤드가 8개일 때의 차원입니다. ",
        #ko| 16: "16 = C는 쿼리뿐입니다. 키와 밸류도 함께 만들므로 C + 2 * C_kv입니다. ",
        #ko| 20: "20 = 16 + 4는 키와 밸류를 합쳐 4로 셌습니다. "
        #ko|     "키와 밸류가 C_kv = H_kv * D = 4씩입니다. ",
        #ko| 8: "8 = 2 * C_kv는 키와 밸류뿐입니다. 같은 투영이 쿼리의 C = 16도 "
        #ko|    "함께 만듭니다. ",
        #ko| 4: "4 = C_kv는 키(또는 밸류) 하나의 차원입니다. 이 투영은 쿼리, 키, "
        #ko|    "밸류를 한꺼번에 만듭니다. ",
        #ko| 12: "12 = H + 2 * H_kv는 헤드의 수를 센 것입니다. 차원은 헤드마다 "
        #ko|     "D = 2씩입니다. ",
        #ko| 6: "6 = 3 * D는 헤드 하나씩의 차원입니다. 쿼리 헤드 8개, 키와 밸류의 "
        #ko|    "헤드 2개씩을 모두 셉니다. ",
        #ko| 32: "32 = 16 + 16은 쿼리와, 키와 밸류를 합친 C를 셌습니다. 키와 밸류는 "
        #ko|     "C_kv = 4씩입니다. ",
        #ko| 40: "40 = 16 + 2 * 12는 키와 밸류의 차원을 C - C_kv = 12로 셌습니다. "
        #ko|     "키·밸류 헤드 2개 × D = 2 = 4씩입니다. ",
        #en| 48: "48 = 3C is the width with 8 key/value heads; ",
        #en| 16: "16 = C is the queries only: keys and values come out too, C + 2 * C_kv; ",
        #en| 20: "20 = 16 + 4 gives keys and values 4 together; "
        #en|     "each of them takes C_kv = H_kv * D = 4; ",
        #en| 8: "8 = 2 * C_kv is the keys and values only: the same projection "
        #en|    "makes the queries' C = 16 as well; ",
        #en| 4: "4 = C_kv is the width of the keys (or values) alone: this "
        #en|    "projection makes queries, keys and values at once; ",
        #en| 12: "12 = H + 2 * H_kv counts heads, not features: each head is "
        #en|     "D = 2 wide; ",
        #en| 6: "6 = 3 * D is one head of each: count all 8 query heads and the 2 "
        #en|    "heads each of keys and values; ",
        #en| 32: "32 = 16 + 16 gives keys and values C together; each takes "
        #en|     "C_kv = 4; ",
        #en| 40: "40 = 16 + 2 * 12 counts keys and values C - C_kv = 12 wide each; "
        #en|     "each is 2 heads × D = 2 = 4 wide; ",
    }

    def named_(n, but):
        #ko: 크기 n을 가진 이름들(맞는 이름은 빼고)
        #en: the names of size n (the right one left out)
        return [name for name, size in sizes_.items() if size == n and name != but]

    def shape_said_(label, got, want, axes):
        if got == want:
            return ""
        g, w = tuple(got), tuple(want)
        names = axes.split()
        if len(g) != len(w) or sorted(g) == sorted(w):
            #ko: 축이 빠지거나 더 있거나 뒤바뀌었으면 공용 함수가 축의 이름으로 말합니다
            #en: an axis missing, extra or moved: the shared helper says it by name
            said = shape_difference(g, w, axes=axes, sizes=sizes_)
            #ko| return f"{label}: 맞는 모양은 ({', '.join(names)})입니다. {said}"
            #en| return f"{label}: the shape is ({', '.join(names)}); {said}"
        parts = []
        for i, (n_g, n_w, name) in enumerate(zip(g, w, names)):
            if n_g == n_w:
                continue
            #ko: 그 크기가 무엇일 수 있는지 모두(이름 붙은 크기, 두 배, 반복한 크기)
            #en: all that size can be (a named size, twice, the repeated size)
            whats = named_(n_g, name)
            #ko| whats += [f"{name} × 2"] if n_g == 2 * n_w else []
            #ko| whats += ([f"이 축을 따라 반복한 {name} × n_rep"]
            #ko|           if n_g == 4 * n_w else [])
            #ko| whats += [f"{name} ÷ 2"] if 2 * n_g == n_w else []
            #ko| what = (", ".join(whats[:-1]) + " 또는 " * (len(whats) > 1)
            #ko|         + "".join(whats[-1:]) or "이름 붙은 크기가 아님")
            #en| whats += [f"twice {name}"] if n_g == 2 * n_w else []
            #en| whats += ([f"{name} × n_rep, as if repeated along this axis"]
            #en|           if n_g == 4 * n_w else [])
            #en| whats += [f"half of {name}"] if 2 * n_g == n_w else []
            #en| what = (", ".join(whats[:-1]) + " or " * (len(whats) > 1)
            #en|         + "".join(whats[-1:]) or "no named size")
            #ko| parts.append(f"{i}번 축({name} = {n_w} 자리)의 크기가 {n_g}({what})입니다")
            #en| parts.append(f"axis {i} holds {n_g} ({what}) where {name} = {n_w} "
            #en|              "belongs")
        #ko| return f"{label}: " + ", ".join(parts) + ". "
        #en| return f"{label}: " + "; ".join(parts) + ". "

    said_ = ""
    if answer_width != 24:
        ratio_ = answer_width / 24
        #ko| said_ += "answer_width: " + width_.get(
        #ko|     answer_width, f"정답의 {ratio_:.3g}배입니다. 쿼리의 C와, 키와 밸류의 "
        #ko|     "C_kv씩을 더합니다. ")
        #en| said_ += "answer_width: " + width_.get(
        #en|     answer_width, f"{ratio_:.3g} times the right width: the queries' C "
        #en|     "and C_kv each for keys and values add up. ")
    more_k_ = {
        #ko| (3, 8, 5, 2): "반복하기 전의 키 헤드는 H_kv = 2개입니다. ",
        #ko| (3, 5, 2, 2): "(B, T, H_kv, D)는 transpose 전입니다. "
        #ko|               "헤드 축이 토큰 축 앞에 옵니다. ",
        #ko| (3, 2, 5, 8): "헤드 하나의 차원 D는 C // H = 2입니다(C // H_kv가 아니라). ",
        #en| (3, 8, 5, 2): "before the repeat there are H_kv = 2 key heads; ",
        #en| (3, 5, 2, 2): "(B, T, H_kv, D) is before the transpose: "
        #en|               "the head axis comes before the tokens; ",
        #en| (3, 2, 5, 8): "one head's width D is C // H = 2 (not C // H_kv); ",
    }
    more_repeated_ = {
        #ko| (3, 2, 5, 8): "반복은 특징 축이 아니라 헤드 축을 늘립니다. ",
        #ko| (3, 2, 20, 2): "반복은 토큰 축이 아니라 헤드 축을 늘립니다. ",
        #ko| (3, 16, 5, 2): "키 헤드 하나를 H // H_kv = 4번씩 반복해 H = 8개가 됩니다. ",
        #ko| (3, 4, 5, 2): "헤드 2개를 4번씩 반복하면 쿼리 "
        #ko|               "헤드 수와 같은 8개입니다. ",
        #en| (3, 2, 5, 8): "the repeat stretches the head axis, not the features; ",
        #en| (3, 2, 20, 2): "the repeat stretches the head axis, not the tokens; ",
        #en| (3, 16, 5, 2): "each key head is repeated H // H_kv = 4 times, to H = 8; ",
        #en| (3, 4, 5, 2): "2 heads repeated 4 times each make "
        #en|               "8, as many as the query heads; ",
    }
    said_ += more_k_.get(k_, "") or shape_said_("answer_k", k_, (3, 2, 5, 2),
                                                 "B H_kv T D")
    said_ += more_repeated_.get(repeated_, "") or shape_said_(
        "answer_k_repeated", repeated_, (3, 8, 5, 2), "B H T D")
    right_ = [name_ for name_, ok_ in (("answer_width", answer_width == 24),
                                       ("answer_k", k_ == (3, 2, 5, 2)),
                                       ("answer_k_repeated", repeated_ == (3, 8, 5, 2)))
              if ok_]
    if right_:
        #ko| said_ += f"맞은 답: {', '.join(right_)}. "
        #en| said_ += f"right: {', '.join(right_)}. "
    return Also(said_)


@exercise(
    "ch08-ex-repeat",
    #ko| "그룹 하나의 쿼리 헤드들은 키·밸류 헤드 하나를 함께 씁니다. "
    #ko| "헤드 축에서 원소 하나하나를 n_rep번씩 이어서 반복하는 함수가 있습니다.",
    #en| "the query heads of one group share one key/value head. "
    #en| "One function repeats each element n_rep times in a row along an axis.",
)
def ch08_ex_repeat(expand_kv):
    check_seed(9)
    #ko: 키 (B, H_kv, T, D): 키·밸류 헤드 2개를 3번씩 (쿼리 헤드 6개), 그다음 헤드 3개를
    #ko: 2번씩
    #en: keys (B, H_kv, T, D): 2 key/value heads 3 times each (6 query heads), then 3 heads
    #en: twice each
    for shape_, n_rep_ in [((2, 2, 4, 3), 3), ((1, 3, 5, 2), 2)]:
        k_ = torch.randn(*shape_)
        H_kv_, H_ = shape_[1], shape_[1] * n_rep_
        want_ = torch.stack([k_[:, h // n_rep_] for h in range(H_)], dim=1)
        try:
            got_ = expand_kv(k_.clone(), n_rep_)
        except (NotAnswered, NameError):
            raise
        except Exception as error_:
            if "expanded size" in str(error_):
                #ko| return ("expand는 크기가 1인 축만 늘릴 수 "
                #ko|         "있습니다. 크기 1인 축을 새로 넣어 늘린 뒤 "
                #ko|         "헤드 축과 합치거나, 원소를 "
                #ko|         "n_rep번씩 잇는 함수를 쓰세요.")
                #en| return ("expand can only stretch axes of size 1: "
                #en|         "insert a new axis of size 1, stretch it, "
                #en|         "then merge it with the head axis, or use the "
                #en|         "function that repeats each element n_rep times.")
            first_ = (str(error_).strip().splitlines() or [""])[0]
            #ko| return Also(f"t의 모양이 {shape_}, n_rep = {n_rep_}일 때 함수 안에서 "
            #ko|             f"오류가 났습니다: {type(error_).__name__}: {first_}. ")
            #en| return Also(f"with t of shape {shape_} and n_rep = {n_rep_}, your "
            #en|             f"function raised {type(error_).__name__}: {first_}. ")
        if got_ is None:
            raise NotAnswered
        said_ = shape_mistake(got_, want_, axes="B H T D",
                              sizes={"H_kv": H_kv_, "n_rep": n_rep_})
        if said_ and isinstance(got_, torch.Tensor) and got_.dim() == 4:
            #ko: 다른 횟수로 되풀이했거나, 앞쪽 헤드만 되풀이했는지
            #en: repeated another number of times, or only the first heads repeated?
            for r_ in range(1, 2 * n_rep_ + 3):
                if r_ != n_rep_ and torch.equal(got_, k_.repeat_interleave(r_, dim=1)):
                    #ko| return Also(said_ + f"헤드마다 {r_}번씩 되풀이했는데 n_rep는 "
                    #ko|             f"{n_rep_}입니다. 예제의 숫자가 아니라 인자 n_rep만큼 "
                    #ko|             "되풀이하세요. ")
                    #en| return Also(said_ + f"each head is repeated {r_} times, but n_rep "
                    #en|             f"is {n_rep_}: repeat by the argument n_rep, not a "
                    #en|             "number of your own. ")
            m_ = got_.size(1)
            if (0 < m_ < H_ and got_.shape[0] == want_.shape[0]
                    and got_.shape[2:] == want_.shape[2:]
                    and torch.equal(got_, want_[:, :m_])):
                #ko| return Also(said_ + f"앞의 헤드 {m_}개는 맞지만 {H_}개가 있어야 "
                #ko|             f"합니다. 키·밸류 헤드 {H_kv_}개를 모두 되풀이하세요. "
                #ko|             "헤드 수를 정해 둔 반복문이라면 t.size(1)을 쓰세요. ")
                #en| return Also(said_ + f"the first {m_} heads are right, but {H_} "
                #en|             f"belong: repeat all {H_kv_} key/value heads (a loop "
                #en|             "over a fixed number of heads? use t.size(1)). ")
        if said_:
            for axis_ in (0, 2):
                if isinstance(got_, torch.Tensor) and torch.equal(
                        got_, k_.repeat_interleave(n_rep_, dim=axis_)):
                    #ko| return Also(said_ + f"dim={axis_} 축을 늘렸습니다. "
                    #ko|             "늘릴 것은 헤드 축(dim=1)입니다. ")
                    #en| return Also(said_ + f"this stretches axis dim={axis_}; "
                    #en|             "stretch the head axis (dim=1). ")
            if isinstance(got_, torch.Tensor) and got_.dim() == 1:
                #ko| return Also(said_ + "dim을 주지 않으면 repeat_interleave는 "
                #ko|                     "텐서를 한 줄로 펴서 반복합니다. ")
                #en| return Also(said_ + "without dim, repeat_interleave "
                #en|                     "flattens the tensor first. ")
            return said_
        if torch.equal(got_, want_):
            continue
        if torch.equal(got_, k_.repeat(1, n_rep_, 1, 1)):
            #ko| return ("모양은 맞지만 헤드의 순서가 0, 1, 0, 1, ...입니다. "
            #ko|         "헤드 h는 h // n_rep이어야 하므로 "
            #ko|         "0, 0, 0, 1, 1, 1 순서가 필요합니다.")
            #en| return ("the shape is right but the heads come as 0, 1, 0, 1, ...: "
            #en|         "head h must be h // n_rep, so the "
            #en|         "order must be 0, 0, 0, 1, 1, 1.")
        #ko: 나온 헤드마다 어느 키·밸류 헤드와 같은지, 같지 않으면 그 값이 어느 헤드에서
        #ko: 왔는지(무작위 값이라 값 하나가 자리 하나를 가리킵니다)
        #en: for each head out, which key/value head it equals, or else which heads its
        #en: values come from (random values: each value marks one place)
        same_ = [next((j_ for j_ in range(H_kv_)
                       if torch.equal(got_[:, h_], k_[:, j_])), None)
                 for h_ in range(H_)]
        right_order_ = [h_ // n_rep_ for h_ in range(H_)]
        if None not in same_:
            #ko| return Also(f"헤드마다 키·밸류 헤드 하나를 그대로 쓰지만 순서가 {same_}"
            #ko|             f"입니다(t의 헤드 {H_kv_}개, n_rep = {n_rep_}). 헤드 h는 "
            #ko|             f"h // n_rep번 헤드라서 {right_order_}이어야 합니다. ")
            #en| return Also(f"each head is one key/value head unchanged, but in the "
            #en|             f"order {same_} (t with {H_kv_} heads, n_rep = {n_rep_}); "
            #en|             f"head h is head h // n_rep: {right_order_}. ")
        came_ = []
        for h_ in range(H_):
            from_ = [j_ for j_ in range(H_kv_)
                     if torch.isin(got_[:, h_], k_[:, j_]).any()]
            inside_ = all(torch.isin(got_[:, h_], k_[:, j_]).all() for j_ in from_[:1])
            came_.append((from_, inside_ and len(from_) == 1))
        if all(not from_ for from_, _ in came_):
            #ko| return Also("나온 값이 어느 키·밸류 헤드의 값도 아닙니다. 헤드를 "
            #ko|             "더하거나 평균을 내지 말고, 헤드를 그대로 되풀이해 "
            #ko|             "놓아야 합니다. ")
            #en| return Also("the values out are none of the key/value heads' values: "
            #en|             "heads are repeated as they are, not added or averaged. ")
        if all(whole_ for _, whole_ in came_):
            heads_ = [from_[0] for from_, _ in came_]
            #ko| said_ = (f"헤드마다 값은 키·밸류 헤드 하나({heads_})에서 왔지만, 헤드 "
            #ko|          "안에서 토큰이나 특징의 순서가 바뀌었습니다. 다른 축(T나 D)을 "
            #ko|          "따라 반복한 뒤 reshape나 view로 모양만 맞추면 이렇게 "
            #ko|          "됩니다. ")
            #en| said_ = (f"each head's values come from one key/value head ({heads_}), "
            #en|          "but within it tokens or features are moved around: what a "
            #en|          "repeat along another axis (T or D) gives once reshape or view "
            #en|          "only fits the shape back. ")
            if heads_ != right_order_:
                #ko| said_ += f"헤드의 순서도 {right_order_}이어야 합니다. "
                #en| said_ += f"the heads must also come as {right_order_}. "
            return Also(said_)
        mixed_ = [(h_, from_) for h_, (from_, whole_) in enumerate(came_)
                  if len(from_) > 1 or not whole_]
        h_, from_ = mixed_[0]
        if not from_:
            #ko| return Also(f"나온 헤드 {h_}번의 값은 어느 키·밸류 헤드에도 없습니다"
            #ko|             "(0이나 합, 평균 같은 새 값). 나온 헤드 하나는 키·밸류 "
            #ko|             "헤드 하나를 그대로 옮긴 것이어야 합니다. ")
            #en| return Also(f"head {h_} out holds values of no key/value head (zeros, "
            #en|             "sums or averages): each head out must be one key/value "
            #en|             "head, copied as it is. ")
        #ko| return Also(f"나온 헤드 {h_}번에 키·밸류 헤드 {from_}의 값이 섞였거나, "
        #ko|             "어느 헤드에도 없는 값이 함께 있습니다. 나온 헤드 하나는 "
        #ko|             "키·밸류 헤드 하나를 그대로 옮긴 것이어야 합니다. ")
        #en| return Also(f"head {h_} out mixes values of key/value heads {from_}, or "
        #en|             "holds values of none besides: each head out must be one "
        #en|             "key/value head, copied as it is. ")
    return True


@exercise(
    "ch08-ex-port",
    #ko| "Conv1D는 가중치를 (in, out) = (C, 3C)로, nn.Linear는 "
    #ko| "(out, in) = (3C, C)로 저장합니다. 같은 수들이 행과 열만 바뀌어 있습니다. "
    #ko| "모양만 맞추는 연산이 아니라 행과 열을 바꾸는 연산이 필요합니다.",
    #en| "Conv1D stores its weight as (in, out) = (C, 3C), nn.Linear as "
    #en| "(out, in) = (3C, C): the same numbers with rows and columns swapped. "
    #en| "It takes an operation that swaps rows and columns, not one that fits the shape.",
)
def ch08_ex_port(GPT2Config, GPT2Attention, port_gpt2_reshape):
    def block_and_input_(C_, H_, T_):
        #ko: GPT-2 블록, 입력 x (2, T, C), 그 블록이 받는 인과 마스크
        #en: a GPT-2 block, an input x (2, T, C) and the causal mask the block takes
        config_ = GPT2Config(n_embd=C_, n_head=H_, attn_pdrop=0.0, resid_pdrop=0.0,
                             attn_implementation="eager")
        block_ = GPT2Attention(config_, layer_idx=0).eval()
        #ko: 편향까지 모든 파라미터를 다시 뽑습니다(0인 편향은 빠진 편향을 숨깁니다)
        #en: every parameter drawn again, biases included (zero biases would hide a
        #en: missing one)
        for p_ in block_.parameters():
            p_.normal_(0, C_ ** -0.5)
        causal_ = torch.ones(T_, T_, dtype=torch.bool).tril()
        return (block_, torch.randn(2, T_, C_),
                torch.zeros(T_, T_).masked_fill(~causal_, float("-inf")))

    check_seed(6)
    block_, x_, mask_ = block_and_input_(8, 2, 4)
    try:
        layer_ = port_gpt2_reshape(block_, 2)
    except RuntimeError as error_:
        import re as re_

        #ko: 오류가 말하는 두 크기: 만든 레이어 쪽과 복사할 쪽
        #en: the two sizes the error names: the new layer's and the copied one's
        sizes_ = [int(n_) for n_ in re_.findall(r"\((\d+)\)", str(error_))[:2]]
        if "must match the size" in str(error_) and sizes_ == [24, 8]:
            #ko| return ("레이어의 가중치에 C = 8이 있어야 할 자리에 24 = 3C가 있습니다. "
            #ko|         "레이어를 C = 24로 만들었습니다. Conv1D는 (입력, 출력)으로 "
            #ko|         "저장하므로 C는 c_attn.weight.shape[0]입니다.")
            #en| return ("the layer's weight has 24 = 3C where C = 8 belongs: the layer "
            #en|         "was made with C = 24. Conv1D stores (in, out), so C is "
            #en|         "c_attn.weight.shape[0].")
        if "must match the size" in str(error_) or "expanded size" in str(error_):
            #ko| return ("복사할 모양이 맞지 않습니다. Conv1D의 "
            #ko|         "c_attn.weight는 (입력, 출력) = (C, 3C)이고 "
            #ko|         "nn.Linear의 weight는 (출력, 입력) = (3C, "
            #ko|         "C)입니다. 행과 열을 바꾸는 연산은 무엇인가요?")
            #en| return ("the shapes to copy do not fit: Conv1D's "
            #en|         "c_attn.weight is (in, out) = (C, 3C), "
            #en|         "nn.Linear's weight is (out, in) = (3C, C). "
            #en|         "Which operation swaps rows and columns?")
        first_ = (str(error_).strip().splitlines() or [""])[0]
        #ko| return Also("GPT-2 블록(C = 8, 헤드 2개)을 옮기는 동안 함수 안에서 오류가 "
        #ko|             f"났습니다: {type(error_).__name__}: {first_}. ")
        #en| return Also("porting a GPT-2 block (C = 8, 2 heads), your function raised "
        #en|             f"{type(error_).__name__}: {first_}. ")
    except ValueError as error_:
        if "n_head" in str(error_):
            #ko| return (f"레이어를 만들지 못했습니다({error_}). 헤드 수를 "
            #ko|         "정해 두지 말고 받은 n_head를 그대로 넘기세요"
            #ko|         "(이 확인의 블록은 C = 8, 헤드 2개입니다).")
            #en| return (f"the layer could not be made ({error_}): do not fix "
            #en|         "the number of heads, pass on the n_head given "
            #en|         "(the block checked here has C = 8 and 2 heads).")
        first_ = (str(error_).strip().splitlines() or [""])[0]
        #ko| return Also("GPT-2 블록(C = 8, 헤드 2개)을 옮기는 동안 함수 안에서 오류가 "
        #ko|             f"났습니다: {type(error_).__name__}: {first_}. ")
        #en| return Also("porting a GPT-2 block (C = 8, 2 heads), your function raised "
        #en|             f"{type(error_).__name__}: {first_}. ")
    except (NotAnswered, NameError):
        raise
    except Exception as error_:
        first_ = (str(error_).strip().splitlines() or [""])[0]
        #ko| return Also("GPT-2 블록(C = 8, 헤드 2개)을 옮기는 동안 함수 안에서 오류가 "
        #ko|             f"났습니다: {type(error_).__name__}: {first_}. ")
        #en| return Also("porting a GPT-2 block (C = 8, 2 heads), your function raised "
        #en|             f"{type(error_).__name__}: {first_}. ")
    if layer_ is None or layer_ is Ellipsis:
        raise NotAnswered
    if not (isinstance(layer_, nn.Module) and hasattr(layer_, "in_proj")
            and hasattr(layer_, "out_proj")):
        #ko| return Also(f"돌려준 것이 {type(layer_).__name__}입니다. 가중치를 옮긴 "
        #ko|             "MultiHeadAttention 레이어를 돌려주세요. ")
        #en| return Also(f"the function returns a {type(layer_).__name__}: return the "
        #en|             "MultiHeadAttention layer the weights were ported into. ")
    if getattr(layer_, "n_head", 2) != 2:
        #ko| return (f"레이어의 헤드가 {layer_.n_head}개입니다. GPT-2 "
        #ko|         "블록의 헤드 수 n_head = 2를 그대로 넘기세요.")
        #en| return (f"the layer has {layer_.n_head} heads: pass "
        #en|         "on the block's number of heads, n_head = 2.")
    if torch.equal(layer_.in_proj.weight, block_.c_attn.weight.reshape(24, 8)):
        #ko| return ("in_proj.weight가 c_attn.weight를 reshape한 것입니다. reshape는 "
        #ko|         "원소를 메모리 순서대로 다시 자를 뿐 행과 열을 바꾸지 않습니다. "
        #ko|         "(in, out)을 (out, in)으로 바꾸는 연산은 무엇인가요?")
        #en| return ("in_proj.weight is c_attn.weight reshaped: reshape only cuts the "
        #en|         "elements again in memory order, it does not swap rows and "
        #en|         "columns. Which operation turns (in, out) into (out, in)?")
    blocks_ = block_.c_attn.weight.split(8, dim=1)
    if torch.equal(layer_.in_proj.weight, torch.cat(blocks_, dim=0)):
        #ko| return ("세 블록의 순서는 맞지만, 블록마다 Conv1D의 (입력, 출력) "
        #ko|         "그대로 복사되었습니다. nn.Linear는 (출력, 입력)이므로 "
        #ko|         "블록마다 전치하거나, c_attn.weight 전체를 한 번에 전치하세요.")
        #en| return ("the three blocks are in order, but each is copied as Conv1D "
        #en|         "stores it, (in, out); nn.Linear needs (out, in): transpose "
        #en|         "each block, or the whole c_attn.weight at once.")
    w_t_ = block_.c_attn.weight.T
    if any(torch.equal(layer_.in_proj.weight,
                       torch.cat([w_t_[8 * i_:8 * i_ + 8] for i_ in o_]))
           for o_ in [(1, 0, 2), (0, 2, 1), (2, 1, 0), (1, 2, 0), (2, 0, 1)]):
        #ko| return ("전치는 맞았지만 블록의 순서가 바뀌었습니다. "
        #ko|         "c_attn도 [쿼리; 키; 밸류] 순서이므로 "
        #ko|         "그대로 복사하면 됩니다.")
        #en| return ("the transpose is right but the blocks "
        #en|         "are reordered: c_attn is in the order "
        #en|         "[query; key; value] too, so copy it as it is.")
    if torch.equal(layer_.out_proj.weight, block_.c_proj.weight):
        #ko| return ("c_attn은 고쳤지만 c_proj도 Conv1D라서 (in, out)으로 저장됩니다. "
        #ko|         "out_proj.weight에는 c_proj.weight.T를 넣어야 합니다.")
        #en| return ("c_attn is fixed, but c_proj is a Conv1D too and stores (in, out): "
        #en|         "out_proj.weight takes c_proj.weight.T.")
    #ko: 파라미터마다 맞는 값과 비교하고, 다르면 블록의 어느 파라미터(어떤 모양으로)와
    #ko: 같은지, 아니면 어떻게 다른지 말합니다
    #en: each parameter against the right one; if it differs, which of the block's
    #en: parameters (in which layout) it equals, or how it differs
    w_t_, p_t_ = block_.c_attn.weight.T, block_.c_proj.weight.T
    sources_ = {"c_attn.weight.T": w_t_, "c_attn.weight": block_.c_attn.weight,
                "c_proj.weight.T": p_t_, "c_proj.weight": block_.c_proj.weight,
                "c_attn.bias": block_.c_attn.bias, "c_proj.bias": block_.c_proj.bias,
                "c_attn.weight.T[:C] (W_Q)": w_t_[:8],
                "c_attn.weight.T[C:2C] (W_K)": w_t_[8:16],
                "c_attn.weight.T[2C:] (W_V)": w_t_[16:],
                "c_attn.bias[:C]": block_.c_attn.bias[:8],
                "c_attn.bias[C:2C]": block_.c_attn.bias[8:16],
                "c_attn.bias[2C:]": block_.c_attn.bias[16:]}
    said_, bias_lost_ = "", False
    for name_, got_, want_, from_ in [
            ("in_proj.weight", layer_.in_proj.weight, w_t_, "c_attn.weight.T"),
            ("in_proj.bias", layer_.in_proj.bias, block_.c_attn.bias, "c_attn.bias"),
            ("out_proj.weight", layer_.out_proj.weight, p_t_, "c_proj.weight.T"),
            ("out_proj.bias", layer_.out_proj.bias, block_.c_proj.bias, "c_proj.bias")]:
        if torch.equal(got_, want_):
            continue
        same_ = [s_ for s_, t_ in sources_.items()
                 if t_.shape == got_.shape and torch.equal(got_, t_)]
        if same_:
            #ko| said_ += f"{name_}: {from_} 자리에 {same_[0]} 값이 들어 있습니다. "
            #en| said_ += f"{name_} holds {same_[0]} where {from_} belongs. "
            continue
        #ko: 세 토막(쿼리, 키, 밸류의 자리)마다 블록의 어느 값인지
        #en: each third (the query, key and value places): which of the block's values
        thirds_ = ([next((s_ for s_, t_ in sources_.items() if t_.shape == part_.shape
                          and torch.equal(part_, t_)), None)
                    for part_ in got_.split(8)] if got_.size(0) == 24 else [None])
        if None not in thirds_:
            #ko| said_ += (f"{name_}: 세 토막(쿼리, 키, 밸류의 자리)에 "
            #ko|           f"{', '.join(thirds_)} 값이 들어 있습니다. 들어갈 값: "
            #ko|           f"{from_}. ")
            #en| said_ += (f"{name_} holds, in its thirds (the query, key and value "
            #en|           f"places), {', '.join(thirds_)}, where {from_} belongs. ")
            continue
        how_ = value_mistake(got_, want_, axes="out in" if want_.dim() == 2 else "out")
        if got_.shape == want_.shape and not got_.any():
            #ko| how_ = "모든 값이 0입니다(옮겨지지 않았나요?). "
            #en| how_ = "every value is 0 (not copied?); "
        if how_:
            #ko| said_ += f"{name_}: {how_}들어갈 값: {from_}. "
            #en| said_ += f"{name_}: {how_}it takes {from_}. "
        elif "bias" in name_:
            bias_lost_ = True
        else:
            #ko| said_ += (f"{name_}: 블록의 어느 파라미터와도 같지 않습니다(옮겨지지 "
            #ko|           f"않았나요?). 들어갈 값: {from_}. ")
            #en| said_ += (f"{name_}: equal to none of the block's parameters (not "
            #en|           f"copied?); it takes {from_}. ")
    if bias_lost_:
        #ko| said_ += ("편향 c_attn.bias와 c_proj.bias도 그대로 복사하세요"
        #ko|           "(편향은 전치할 것이 없습니다). ")
        #en| said_ += ("copy the biases c_attn.bias and c_proj.bias as well (a bias "
        #en|           "has nothing to transpose). ")
    if said_ and torch.equal(layer_.in_proj.weight, w_t_) and torch.equal(
            layer_.out_proj.weight, p_t_):
        #ko: 가중치가 맞으면 전치에 관한 힌트는 붙이지 않습니다
        #en: with the weights right, the hint about transposing is left off
        #ko| return ("가중치는 맞았습니다. " + said_).strip()
        #en| return ("the weights are right; " + said_).strip()
    if said_:
        return Also(said_)
    if layer_.training:
        #ko| return "레이어를 평가 모드로 돌려주세요(eval())."
        #en| return "return the layer in evaluation mode (eval())."
    if not torch.allclose(layer_(x_, x_, x_, is_causal=True),
                          block_(x_, attention_mask=mask_[None, None])[0], atol=1e-5):
        #ko| return Also("파라미터는 모두 블록과 같지만 레이어의 출력이 다릅니다. 파라미터 "
        #ko|             "밖의 것(레이어의 클래스나 설정)을 바꾸었나요? ")
        #en| return Also("every parameter equals the block's, yet the layer's output "
        #en|             "differs: was something besides the parameters changed (the "
        #en|             "layer's class or settings)? ")
    #ko: 두 번째 블록(C = 12, 헤드 3개): 예시의 크기를 수로 적어 둔 답은 여기서 틀립니다
    #en: a second block (C = 12, 3 heads): an answer that writes the example's sizes
    #en: as numbers fails here
    block_, x_, mask_ = block_and_input_(12, 3, 5)
    try:
        layer_ = port_gpt2_reshape(block_, 3)
        right_ = (getattr(layer_, "n_head", 3) == 3 and torch.allclose(
            layer_(x_, x_, x_, is_causal=True),
            block_(x_, attention_mask=mask_[None, None])[0], atol=1e-5))
        failed_ = ""
    except (NotAnswered, NameError):
        raise
    except Exception as error_:
        right_ = False
        first_ = (str(error_).strip().splitlines() or [""])[0]
        failed_ = f" ({type(error_).__name__}: {first_})"
    if not right_:
        #ko| return ("C = 8, 헤드 2개인 블록은 맞게 옮기지만 C = 12, 헤드 3개인 "
        #ko|         f"블록은 틀립니다{failed_}. 크기와 헤드 수를 예제의 숫자로 "
        #ko|         "적지 말고 block과 n_head에서 읽으세요.")
        #en| return ("a block with C = 8 and 2 heads is ported right, one with "
        #en|         f"C = 12 and 3 heads is not{failed_}: read the sizes and the "
        #en|         "number of heads from block and n_head instead of writing the "
        #en|         "example's numbers.")
    return True


@exercise(
    "ch08-ex-chunked",
    #ko| "새 토큰이 여럿이면 그중 앞의 토큰은 뒤의 새 토큰을 보면 안 됩니다. "
    #ko| "쿼리가 키 가운데 마지막 위치에 있을 때 "
    #ko| "맞는 인과 마스크는 어느 쪽에 맞춘 것인가요?",
    #en| "with several new tokens, the earlier ones must not see the later ones. "
    #en| "When the queries sit at the last key positions, "
    #en| "which alignment of the causal mask is right?",
)
def ch08_ex_chunked(MultiHeadAttention, prefill_step):
    def reference_keys_(layer, x):
        #ko: 캐시에 있어야 할 키 (B, H, T, D): x를 W_K로 투영해 헤드로 나눈 것
        #en: the keys the cache must hold (B, H, T, D): x projected by W_K, split into heads
        B, T, C = x.shape
        w_k, b_k = layer.in_proj.weight[C:2 * C], layer.in_proj.bias[C:2 * C]
        return F.linear(x, w_k, b_k).view(B, T, layer.n_head,
                                          C // layer.n_head).transpose(1, 2)

    check_seed(3)
    B_, T_, C_, H_ = 2, 6, 12, 4
    layer_ = MultiHeadAttention(C_, H_).eval()
    #ko: 답이 layer.attend에 넘기는 마스크를 지켜봅니다(조각마다 (T_q, T_k, 마스크))
    #en: watches the masks the answer passes to layer.attend ((T_q, T_k, mask) per call)
    attend_, masks_ = layer_.attend, []

    def spy_(q, k, v, mask=None, *args, **kwargs):
        masks_.append((q.size(-2), k.size(-2), mask))
        return attend_(q, k, v, mask, *args, **kwargs)

    layer_.attend = spy_
    x_ = torch.randn(B_, T_, C_)
    #ko: 기준값: 같은 가중치의 nn.MultiheadAttention에 인과 마스크 (True = 가림)
    #en: the reference: nn.MultiheadAttention with the same weights and a causal mask (True
    #en: = blocked)
    causal_ = torch.ones(T_, T_, dtype=torch.bool).tril()
    full_, _ = mha_reference(layer_, x_, x_, x_, attn_mask=~causal_)

    caches_ = []

    def chunked_(sizes):
        #ko: 빈 캐시 (B, H, 0, D)에서 시작해 조각마다 prefill_step 함수를 부릅니다
        #en: from an empty cache (B, H, 0, D), prefill_step once per piece
        cache_ = {"k": torch.empty(B_, H_, 0, C_ // H_), "v": torch.empty(B_, H_, 0,
                                                                          C_ // H_)}
        caches_.append(cache_)
        outs_, start_ = [], 0
        for n in sizes:
            outs_.append(prefill_step(layer_, x_[:, start_:start_ + n], cache_))
            if outs_[-1] is None:
                raise NotAnswered
            start_ += n
        # (B, T, C), the cache
        return torch.cat(outs_, dim=1), cache_

    try:
        whole_, _ = chunked_([6])
        pieces_, cache_pieces_ = chunked_([2, 1, 3])
    except RuntimeError as error_:
        held_ = caches_[-1]["k"] if caches_ else None
        if (isinstance(held_, torch.Tensor) and held_.dim() == 4
                and (held_.size(1), held_.size(3)) != (H_, C_ // H_)):
            #ko| return Also(f"캐시에 든 키의 모양이 지금 {tuple(held_.shape)}입니다. "
            #ko|             f"캐시는 (B, H, T, D) = ({B_}, {H_}, T, {C_ // H_})이고, "
            #ko|             "새 키는 토큰 축(dim=2)을 따라 이어 붙입니다. ")
            #en| return Also(f"the cache's keys became {tuple(held_.shape)}: the cache "
            #en|             f"is (B, H, T, D) = ({B_}, {H_}, T, {C_ // H_}), and new "
            #en|             "keys are joined along the token axis (dim=2). ")
        if "must match except in dimension" in str(error_):
            #ko| return Also("캐시에 새 키나 밸류를 잇지 못했습니다("
            #ko|             f"{str(error_).splitlines()[0]}). 캐시는 (B, H, T, D) = "
            #ko|             f"({B_}, {H_}, 0, {C_ // H_})에서 시작하고, 새 키와 밸류 "
            #ko|             "(B, H, T_q, D)는 토큰 축(dim=2)을 따라서만 이어집니다. ")
            #en| return Also("the new keys or values could not be joined to the cache "
            #en|             f"({str(error_).splitlines()[0]}): the cache starts as "
            #en|             f"(B, H, T, D) = ({B_}, {H_}, 0, {C_ // H_}), and the new "
            #en|             "(B, H, T_q, D) join it along the token axis (dim=2) only. ")
        if "must match the size" in str(error_):
            #ko| return ("마스크의 모양이 점수 (B, H, T_q, T_k)와 "
            #ko|         "맞지 않습니다. 마스크는 (T_q, T_k)입니다. "
            #ko|         "새 토큰마다 한 행, 캐시에 든 키마다 한 열입니다.")
            #en| return ("the mask does not fit the scores (B, H, "
            #en|         "T_q, T_k): the mask is (T_q, T_k), one row "
            #en|         "per new token and one column per key in the cache.")
        if "Expected size" in str(error_):
            #ko| return ("가중치와 밸류의 곱이 맞지 않습니다. 캐시의 밸류가 키만큼 있나요? "
            #ko|         "새 밸류도 cache['v']에 이어 붙이세요.")
            #en| return ("the weights and the values do not fit: as many values as keys? "
            #en|         "Join the new values onto cache['v'] too.")
        first_ = (str(error_).strip().splitlines() or [""])[0]
        #ko| return Also("토큰 6개를 [6]이나 [2, 1, 3]개씩 넣는 동안 함수 안에서 오류가 "
        #ko|             f"났습니다: {type(error_).__name__}: {first_}. ")
        #en| return Also("feeding 6 tokens as [6] or as [2, 1, 3], your function "
        #en|             f"raised {type(error_).__name__}: {first_}. ")
    except (NotAnswered, NameError):
        raise
    except Exception as error_:
        first_ = (str(error_).strip().splitlines() or [""])[0]
        #ko| return Also("토큰 6개를 [6]이나 [2, 1, 3]개씩 넣는 동안 함수 안에서 오류가 "
        #ko|             f"났습니다: {type(error_).__name__}: {first_}. ")
        #en| return Also("feeding 6 tokens as [6] or as [2, 1, 3], your function "
        #en|             f"raised {type(error_).__name__}: {first_}. ")
    for out_ in (whole_, pieces_):
        said_ = shape_mistake(out_, full_, axes="B T C")
        if said_:
            #ko| return Also("조각마다 돌려준 결과를 이은 것이 " + said_ +
            #ko|             "prefill_step은 새 토큰마다 한 행, (B, T_q, C)를 돌려줍니다. ")
            #en| return Also("the pieces' results, joined: " + said_ +
            #en|             "prefill_step returns one row per new token, (B, T_q, C). ")
    if cache_pieces_["v"].size(2) != cache_pieces_["k"].size(2):
        #ko| return ("키와 밸류의 수가 다릅니다. "
        #ko|         "새 밸류도 cache['v']에 이어 붙이세요.")
        #en| return ("the cache holds fewer values than keys: "
        #en|         "join the new values onto cache['v'] too.")
    if cache_pieces_["k"].size(2) != 6:
        #ko| return (f"세 번 부른 뒤 캐시에 토큰이 6개가 아니라 "
        #ko|         f"{cache_pieces_['k'].size(2)}개 있습니다. 새 키와 밸류를 "
        #ko|         "cache['k'], cache['v']에 이어 붙여 두어야 합니다.")
        #en| return (f"after three calls the cache holds {cache_pieces_['k'].size(2)} "
        #en|         "tokens, not 6: join the new keys and values onto "
        #en|         "cache['k'] and cache['v'].")
    def slip_(sizes, shift_=0, own_=False, w_o_=True, invert_=False):
        #ko: 조각마다 계산한 결과를 이 셀 안에서 다시 계산합니다. 인자에 따라 대각선을
        #ko: 옮기거나(None이면 마스크 없음), 그 조각의 키만 보거나, 출력 투영을
        #ko: 빼먹습니다
        #en: the pieces' result computed again in this cell: shift_ moves the diagonal
        #en: (None: no mask), own_ sees the piece's own keys only, w_o_=False leaves
        #en: out W_O
        w_, b_ = layer_.in_proj.weight.split(C_), layer_.in_proj.bias.split(C_)
        q_, k_, v_ = (F.linear(x_, w, b).view(B_, T_, H_, C_ // H_).transpose(1, 2)
                      for w, b in zip(w_, b_))
        outs_, start_ = [], 0
        for n_ in sizes:
            first_ = start_ if own_ else 0
            T_k_ = start_ + n_ - first_
            s_ = q_[:, :, start_:start_ + n_] @ k_[:, :, first_:start_ + n_].mT
            if shift_ is not None:
                keep_ = torch.ones(n_, T_k_, dtype=torch.bool).tril(T_k_ - n_ + shift_)
                keep_ = ~keep_ if invert_ else keep_
                s_ = s_.masked_fill(~keep_, float("-inf"))
            p_ = torch.softmax(s_ / math.sqrt(C_ // H_), dim=-1)
            o_ = p_ @ v_[:, :, first_:start_ + n_]
            outs_.append(o_.transpose(1, 2).reshape(B_, n_, C_))
            start_ += n_
        merged_ = torch.cat(outs_, dim=1)
        return layer_.out_proj(merged_) if w_o_ else merged_

    def near_(got, made):
        #ko: 흉내가 NaN인 행(볼 키가 없는 토큰)은 빼고 비교합니다. 커널에 따라
        #ko: 그런 행은 NaN이 아니라 0이기도 합니다
        #en: rows the emulation gives NaN (a token with no key to see) are left out: some
        #en: kernels give 0 there, not NaN
        rows = torch.isfinite(made).all(dim=-1)
        return bool(rows.any()) and torch.allclose(got[rows], made[rows], atol=1e-5)

    with torch.no_grad():
        for kwargs_, said_ in [
                (dict(w_o_=False),
                 #ko| ("어텐션까지는 맞았지만 출력 투영 W_O"
                 #ko|  "(layer.out_proj)가 빠졌습니다.")),
                 #en| ("the attention is right, but the output projection W_O "
                 #en|  "(layer.out_proj) is missing.")),
                (dict(shift_=-1),
                 #ko| ("대각선이 한 칸 어긋나 새 토큰이 자기 키를 보지 못합니다(첫 "
                 #ko|  "토큰은 볼 키가 없어 NaN). 토큰은 자기 자신까지 봅니다.")),
                 #en| ("the diagonal is shifted by one: a new token does not see its own "
                 #en|  "key (the first sees none at all: NaN). A token sees itself too.")),
                (dict(own_=True),
                 #ko| ("조각마다 그 조각의 키만 봅니다. 캐시에 이어 붙인 "
                 #ko|  "cache['k'], cache['v'] 전체로 어텐션을 계산하세요.")),
                 #en| ("each piece sees its own keys only: compute attention over the whole "
                 #en|  "cache['k'] and cache['v'], after joining the new ones.")),
                (dict(invert_=True),
                 #ko| ("마스크의 True와 False가 뒤바뀌었습니다. 이 책에서 True는 '볼 "
                 #ko|  "수 있음'이라, 토큰마다 자기와 앞의 키만 True입니다(마지막 새 "
                 #ko|  "토큰은 볼 키가 하나도 없어 NaN).")),
                 #en| ("the mask's True and False are swapped: in this book True "
                 #en|  "means 'may attend', so each token has True for itself and the "
                 #en|  "keys before it (the last new token sees no key at all: NaN).")),
                (dict(shift_=None),
                 #ko| ("마스크가 없습니다. 한 단계 안에서도 앞의 새 토큰이 뒤의 "
                 #ko|  "토큰을 보면 안 되므로 인과 마스크가 필요합니다.")),
                 #en| ("there is no mask: within one step the earlier new tokens must not "
                 #en|  "see the later ones, so a causal mask is needed.")),
        ]:
            if near_(pieces_, slip_([2, 1, 3], **kwargs_)) and near_(
                    whole_, slip_([6], **kwargs_)):
                return said_
    #ko: 답이 layer.attend에 넘긴 마스크를 부를 때마다 맞는 마스크와 비교합니다
    #en: each mask the answer passed to layer.attend, against the right one
    for T_q_, T_k_, mask_ in masks_ if len(masks_) == 4 else []:
        want_ = torch.ones(T_q_, T_k_, dtype=torch.bool).tril(T_k_ - T_q_)
        #ko| where_ = (f"새 토큰 {T_q_}개, 캐시의 키 {T_k_}개인 조각에서: ")
        #en| where_ = (f"for a piece of {T_q_} new token{'s' * (T_q_ > 1)} with "
        #en|           f"{T_k_} keys in the cache: ")
        if mask_ is None:
            #ko| return Also(where_ + "attend가 마스크 없이(None) 불렸습니다. ")
            #en| return Also(where_ + "attend is called without a mask (None). ")
        if not isinstance(mask_, torch.Tensor) or mask_.dtype != torch.bool:
            #ko| return Also(where_ + f"마스크가 bool이 아니라 "
            #ko|             f"{getattr(mask_, 'dtype', type(mask_).__name__)}입니다. "
            #ko|             "attend는 True = 볼 수 있음인 bool 마스크를 받습니다. ")
            #en| return Also(where_ + "the mask is "
            #en|             f"{getattr(mask_, 'dtype', type(mask_).__name__)}, not bool: "
            #en|             "attend takes a bool mask, True = may attend. ")
        if tuple(mask_.shape[-2:]) != (T_q_, T_k_):
            #ko| return Also(where_ + f"마스크의 모양이 {tuple(mask_.shape)}입니다. "
            #ko|             f"(T_q, T_k) = ({T_q_}, {T_k_}), 곧 새 토큰마다 한 행, "
            #ko|             "캐시의 키마다 한 열이어야 합니다. ")
            #en| return Also(where_ + f"the mask is {tuple(mask_.shape)}, where "
            #en|             f"(T_q, T_k) = ({T_q_}, {T_k_}) belongs: one row per new "
            #en|             "token, one column per key in the cache. ")
        mask_ = mask_.reshape(-1, T_q_, T_k_)[0]
        if torch.equal(mask_, want_):
            continue
        if torch.equal(mask_, ~want_):
            #ko| return Also(where_ + "마스크의 True와 False가 뒤바뀌었습니다. 이 책에서 "
            #ko|             "True는 '볼 수 있음'입니다(가릴 칸이 아니라). ")
            #en| return Also(where_ + "the mask's True and False are swapped: in this "
            #en|             "book True means 'may attend' (not the cells to hide). ")
        said_ = where_ + mask_difference(mask_, want_)
        if torch.equal(mask_, torch.ones(T_q_, T_k_, dtype=torch.bool).tril()):
            #ko| said_ += ("마스크가 왼쪽 위에 맞춰져 있습니다. 새 토큰은 키의 마지막 "
            #ko|           "T_q개 위치에 있으므로 오른쪽 아래에 맞춰야 합니다"
            #ko|           "(layer.causal_mask(T_q, T_k)). ")
            #en| said_ += ("the mask is aligned top-left: the new tokens are the last "
            #en|           "T_q key positions, so it must be aligned bottom-right "
            #en|           "(layer.causal_mask(T_q, T_k)). ")
        return Also(said_)

    def rows_(got, want):
        #ko: 결과가 틀린 토큰의 자리
        #en: the positions of the tokens whose result is wrong
        bad = ~torch.isclose(got, want, atol=1e-5).all(dim=-1).all(dim=0)
        return bad.nonzero().flatten().tolist()

    if torch.isnan(whole_).any() or torch.isnan(pieces_).any():
        nan_at_, nan_pieces_ = (torch.isnan(t_).any(dim=-1).any(dim=0).nonzero()
                                .flatten().tolist() for t_ in (whole_, pieces_))
        #ko| return Also(f"한 번에 넣으면 토큰 {nan_at_}, [2, 1, 3]개씩 넣으면 토큰 "
        #ko|             f"{nan_pieces_}의 결과가 NaN입니다. 이 토큰들은 볼 수 있는 "
        #ko|             "키가 하나도 없습니다(모든 키가 가려짐). 새 토큰은 자기 "
        #ko|             "자신과 앞의 토큰을 봅니다. ")
        #en| return Also(f"at once, tokens {nan_at_}, and in pieces of [2, 1, 3], "
        #en|             f"tokens {nan_pieces_} come out NaN: they see no key at all "
        #en|             "(every key hidden). A new token sees itself and the tokens "
        #en|             "before it. ")
    keys_ = reference_keys_(layer_, x_)
    held_ = cache_pieces_["k"]
    if held_.shape == keys_.shape and not torch.allclose(held_, keys_, atol=1e-5):
        #ko: 캐시의 토큰 자리마다 어느 토큰의 키인지
        #ko: (순서만 틀렸는지 봅니다)
        #en: for each token place of the cache, whose key it is (only the order wrong?)
        order_ = [next((j_ for j_ in range(T_) if torch.allclose(
            held_[:, :, i_], keys_[:, :, j_], atol=1e-5)), None) for i_ in range(T_)]
        if None not in order_:
            #ko| return Also(f"캐시에 든 키는 맞지만 토큰 순서가 {order_}입니다. 새 "
            #ko|             "키와 밸류는 캐시에 든 것 뒤에 이어 붙여, 토큰 순서 "
            #ko|             "[0, 1, ..., 5]를 지킵니다. ")
            #en| return Also(f"the cache holds the right keys, in the token order "
            #en|             f"{order_}: new keys and values go after the cached ones, "
            #en|             "keeping the token order [0, 1, ..., 5]. ")
    if not torch.allclose(whole_, full_, atol=1e-5) and 0 in rows_(whole_, full_):
        how_ = value_mistake(whole_, full_, axes="B T C")
        #ko| return Also(f"프롬프트 전체를 한 번에 넣어도 토큰 {rows_(whole_, full_)}의 "
        #ko|             "결과가 전체 인과 계산과 다릅니다. 토큰 0은 어느 인과 마스크로도 "
        #ko|             "자기 자신만 보므로, 마스크 밖(투영, 캐시, 출력 투영)이 "
        #ko|             "틀렸습니다. " + (str(how_) if how_ else ""))
        #en| return Also(f"even the whole prompt at once gives tokens "
        #en|             f"{rows_(whole_, full_)} unlike the full causal pass; token 0 "
        #en|             "sees only itself under any causal mask, so something besides "
        #en|             "the mask is wrong (the projections, the cache, the output "
        #en|             "projection). " + (str(how_) if how_ else ""))
    if not torch.allclose(whole_, full_, atol=1e-5):
        #ko| return Also(f"프롬프트 전체를 한 번에 넣어도 토큰 {rows_(whole_, full_)}의 "
        #ko|             "결과가 전체 인과 계산과 다릅니다. 한 단계 안에서도 앞의 "
        #ko|             "새 토큰은 뒤의 새 토큰을 보면 안 됩니다. ")
        #en| return Also(f"even the whole prompt at once gives tokens "
        #en|             f"{rows_(whole_, full_)} unlike the full causal pass: within "
        #en|             "one step the earlier new tokens must not see the later ones. ")
    if not torch.allclose(pieces_, full_, atol=1e-5):
        #ko| return Also("한 번에 넣으면 맞고 나눠 넣으면 토큰 "
        #ko|             f"{rows_(pieces_, full_)}의 결과가 다릅니다. T_q < T_k이면 "
        #ko|             "쿼리는 키의 마지막 T_q개 위치에 있으므로, 마스크를 오른쪽 "
        #ko|             "아래에 맞춰야 합니다(layer.causal_mask(T_q, T_k)). ")
        #en| return Also(f"right at once, wrong in pieces for tokens "
        #en|             f"{rows_(pieces_, full_)}: with T_q < T_k the queries sit at "
        #en|             "the last T_q key positions, so the mask must be aligned "
        #en|             "bottom-right (layer.causal_mask(T_q, T_k)). ")
    if not torch.allclose(cache_pieces_["k"], keys_, atol=1e-5):
        #ko| return Also("결과는 맞지만 세 번 부른 뒤의 cache['k']가 토큰 6개의 키 "
        #ko|             f"(B, H, T, D) = {tuple(keys_.shape)}, 곧 토큰 순서대로인 "
        #ko|             "키가 아닙니다(지금 모양: "
        #ko|             f"{tuple(cache_pieces_['k'].shape)}). 다음 단계는 이 캐시를 "
        #ko|             "씁니다. ")
        #en| return Also("the outputs are right, but after three calls cache['k'] does "
        #en|             f"not hold the keys of the 6 tokens, (B, H, T, D) = "
        #en|             f"{tuple(keys_.shape)}, in order (it is "
        #en|             f"{tuple(cache_pieces_['k'].shape)}): the next step reads it. ")
    return True


@exercise(
    "ch08-ex-kv-memory",
    #ko| "캐시는 레이어마다, 토큰마다 키와 밸류(2개)를 H_kv * D개씩 보관합니다. "
    #ko| "D = C // H이고 1 MiB = 2**20바이트입니다.",
    #en| "per layer and per token, the cache holds keys and values (2 of them), "
    #en| "H_kv * D values each. D = C // H, and 1 MiB = 2**20 bytes.",
)
def ch08_ex_kv_memory(answer_mib, answer_ratio):
    if answer_mib is None or answer_ratio is None:
        raise NotAnswered
    import itertools as itertools_

    got_ = {}
    for name_, x_ in (("answer_mib", answer_mib), ("answer_ratio", answer_ratio)):
        if isinstance(x_, torch.Tensor) and x_.numel() == 1:
            x_ = x_.item()
        if isinstance(x_, bool) or not isinstance(x_, (int, float)):
            #ko| return f"{name_}에는 수를 적으세요(글자나 튜플이 아니라). 지금 답: {x_!r}"
            #en| return f"write a number in {name_}, not text or a tuple; got {x_!r}"
        got_[name_] = x_
    #ko: 2 (키와 밸류) * 레이어 24 * 토큰 8192 * H_kv 4 * D 128 * 2바이트
    #en: 2 (keys and values) * 24 layers * 8192 tokens * H_kv 4 * D 128 * 2 bytes
    mib_ = 2 * 24 * 8192 * 4 * 128 * 2 / 2**20
    ratio_ = 16 / 4
    #ko: 흔한 실수 하나하나가 답을 정답의 몇 배로 만드는지. 하나나 둘이 겹친 것까지 봅니다
    #ko: (바이트 수, 단위, 헤드에서는 실수 하나씩만)
    #en: how many times the right answer each usual mistake makes; one, or two together
    #en: (one slip at most in the bytes, in the unit, in the heads)
    terms_ = [
        #ko| (1 / 2, "kv", "키와 밸류 두 가지를 모두 세세요."),
        #en| (1 / 2, "kv", "count both keys and values."),
        #ko| (1 / 24, "layers", "레이어 24개가 저마다 캐시를 가집니다."),
        #en| (1 / 24, "layers", "each of the 24 layers has its own cache."),
        #ko| (1 / 8192, "tokens", "토큰 하나의 캐시입니다. 시퀀스의 토큰 8192개가 "
        #ko|                      "저마다 키와 밸류를 남깁니다."),
        #en| (1 / 8192, "tokens", "that is one token's cache: each of the 8192 tokens "
        #en|                      "of the sequence leaves its keys and values."),
        #ko| (4, "heads", "캐시에는 쿼리 헤드 16개가 아니라 키·밸류 헤드 4개가 "
        #ko|              "들어가고, 헤드 하나는 D = C // H = 128입니다"
        #ko|              "(C // H_kv가 아니라)."),
        #en| (4, "heads", "the cache holds the 4 key/value heads, not the 16 query "
        #en|              "heads, each D = C // H = 128 wide (not C // H_kv)."),
        #ko| (1 / 4, "heads", "키·밸류 헤드 하나만 셌습니다. H_kv = 4개입니다."),
        #en| (1 / 4, "heads", "one key/value head is counted: there are H_kv = 4."),
        #ko| (16, "heads", "헤드 하나를 C = 2048로 셌습니다. 헤드 하나는 "
        #ko|               "D = C // H = 128입니다."),
        #en| (16, "heads", "one head is counted C = 2048 wide; one head is "
        #en|               "D = C // H = 128 wide."),
        #ko| (1 / 128, "heads", "헤드 하나에 값 하나로 셌습니다. 헤드 하나는 "
        #ko|                    "D = C // H = 128개의 값입니다."),
        #en| (1 / 128, "heads", "one value per head is counted; a head holds "
        #en|                    "D = C // H = 128 values."),
        #ko| (2, "bytes", "float16은 값 하나에 2바이트입니다(float32가 4바이트)."),
        #en| (2, "bytes", "float16 takes 2 bytes per value (float32 takes 4)."),
        #ko| (8, "bytes", "비트 수를 세었습니다. 1바이트는 8비트입니다."),
        #en| (8, "bytes", "that counts bits; a byte is 8 bits."),
        #ko| (1 / 2, "bytes", "값 하나의 바이트 수(float16은 2바이트)를 곱하지 "
        #ko|                  "않았습니다. 값의 수입니다."),
        #en| (1 / 2, "bytes", "the bytes per value are left out: that counts values, "
        #en|                  "and a float16 takes 2 bytes."),
        #ko| (2**20, "unit", "바이트 수입니다. 2**20으로 나누면 MiB입니다."),
        #en| (2**20, "unit", "that is bytes: divide by 2**20 for MiB."),
        #ko| (2**10, "unit", "KiB입니다(1024로 한 번만 나눔). MiB는 2**20바이트입니다."),
        #en| (2**10, "unit", "that is KiB (divided by 1024 once); a MiB is 2**20 bytes."),
        #ko| (1 / 2**10, "unit", "2**30으로 나누면 GiB입니다. MiB는 2**20바이트입니다."),
        #en| (1 / 2**10, "unit", "dividing by 2**30 gives GiB; a MiB is 2**20 bytes."),
        #ko| (2**20 / 10**6, "unit", "10**6으로 나누면 MB입니다. MiB는 2**20바이트입니다."),
        #en| (2**20 / 10**6, "unit", "dividing by 10**6 gives MB; a MiB is 2**20 bytes."),
        #ko| (2**20 / 10**9, "unit", "10**9로 나누면 GB입니다. MiB는 2**20바이트입니다."),
        #en| (2**20 / 10**9, "unit", "dividing by 10**9 gives GB; a MiB is 2**20 bytes."),
        #ko| (2**20 / 10**3, "unit", "10**3으로 나누면 kB입니다. MiB는 2**20바이트입니다."),
        #en| (2**20 / 10**3, "unit", "dividing by 10**3 gives kB; a MiB is 2**20 bytes."),
    ]

    def mib_said_(got):
        ratio = got / mib_
        if abs(ratio - 1) < 1e-9:
            return ""
        if got <= 0:
            #ko| return f"지금 답 {got}: 메모리의 크기는 0보다 큰 수여야 합니다. "
            #en| return f"{got} cannot be a size: memory is a number above 0. "
        if ratio >= 1:
            #ko| head = f"정답의 {ratio:.4g}배입니다. "
            #en| head = f"{ratio:.4g} times too large: "
        else:
            #ko| head = f"정답의 1/{1 / ratio:.4g}입니다. "
            #en| head = f"1/{1 / ratio:.4g} of the right value: "
        if abs(ratio - 1) < 1e-2:
            #ko| return (f"거의 맞았지만 {abs(got - mib_):.3g} MiB 다릅니다. "
            #ko|         "반올림하지 말고 끝까지 계산하세요. ")
            #en| return (f"close, but {abs(got - mib_):.3g} MiB off: "
            #en|         "compute it exactly, without rounding. ")
        found = []
        for n in (1, 2):
            #ko: 실수 하나로 설명되면, 둘이 겹친 설명은 작은 배율(64배 안)끼리만 봅니다
            #en: with one slip explaining it, two together only of small factors
            #en: (within 64)
            for picked in itertools_.combinations(terms_, n):
                if found and n == 2 and any(not 1 / 64 <= f <= 64
                                            for f, _, _ in picked):
                    continue
                kinds = [g for _, g, _ in picked]
                #ko: 반올림해 적은 답(403 MB처럼)도 알아보도록 1%까지 봐줍니다
                #en: within 1%, so that a rounded answer (403 MB) is recognised too
                if (len(kinds) == len(set(kinds))
                        and abs(ratio / math.prod(f for f, _, _ in picked) - 1) < 1e-2):
                    found.append(" ".join(s for _, _, s in picked))
        if found:
            #ko: 같은 배율을 내는 설명이 둘이면 둘 다 말합니다(어느 쪽인지 모르므로)
            #en: two explanations giving the same factor: both are said (which is unknown)
            if found[1:]:
                #ko| found = ["두 가지로 읽힙니다. (1) " + found[0][:-1] + ".",
                #ko|          "(2) " + found[1]]
                #en| found = ["either (1) " + found[0][:-1] + ";", "or (2) " + found[1]]
            return head + " ".join(found) + " "
        #ko| return (head + "키와 밸류 2, 레이어 24, 토큰 8192, H_kv = 4, D = 128, "
        #ko|         "2바이트, 1 MiB = 2**20바이트 가운데 하나를 빼거나 바꾼 것으로는"
        #ko|         "(둘이 겹쳐도) 이 배율이 나오지 않습니다. 인수를 하나씩 다시 "
        #ko|         "세어 보세요. ")
        #en| return (head + "no single one of keys and values 2, 24 layers, 8192 "
        #en|         "tokens, H_kv = 4, D = 128, 2 bytes, 1 MiB = 2**20 bytes left out "
        #en|         "or changed (nor two of them together) gives that factor. Count "
        #en|         "the factors again one by one. ")

    def ratio_said_(got):
        if abs(got - ratio_) < 1e-9:
            return ""
        known = {
            #ko| 1 / 4: "비율이 뒤집혔습니다. 멀티헤드(헤드 16개)의 캐시가 "
            #ko|        "몇 배 큰지입니다. ",
            #ko| 3 / 4: "0.75는 줄어든 몫(1 - 4/16)입니다. answer_ratio는 "
            #ko|        "멀티헤드의 캐시가 이 캐시의 몇 배인지입니다. ",
            #ko| 75: "75는 줄어든 몫의 퍼센트입니다. answer_ratio는 멀티헤드의 캐시가 "
            #ko|     "이 캐시의 몇 배인지입니다. ",
            #ko| 25: "25는 이 캐시가 멀티헤드 캐시의 몇 퍼센트인지입니다. 거꾸로, "
            #ko|     "멀티헤드의 캐시가 몇 배인지를 적으세요. ",
            #ko| 3: "3은 더 드는 몫(16/4 - 1)입니다. answer_ratio는 더 드는 "
            #ko|    "양이 아니라, 멀티헤드의 캐시 전체가 이 캐시의 몇 배인지입니다. ",
            #ko| 12: "12 = 16 - 4는 줄어든 헤드의 수입니다. 배율은 빼지 않고 나눕니다. ",
            #ko| 16: "16은 쿼리 헤드의 수입니다. 비율은 멀티헤드의 캐시(키·밸류 "
            #ko|     "헤드 16개)가 이 캐시(키·밸류 헤드 4개)의 몇 배인지입니다. ",
            #ko| 1: "1이면 두 캐시의 크기가 같습니다. 캐시의 크기는 키·밸류 헤드의 "
            #ko|    "수에 비례합니다. ",
            #ko| 1152: "1152 MiB는 줄어든 크기(1536 - 384)입니다. answer_ratio에는 "
            #ko|       "크기가 아니라 몇 배인지를 적습니다. ",
            #en| 1 / 4: "the ratio is upside down: how many times larger the "
            #en|        "multi-head cache (16 heads) is. ",
            #en| 3 / 4: "0.75 is the share saved (1 - 4/16); answer_ratio is how many "
            #en|        "times this cache the multi-head cache is. ",
            #en| 75: "75 is the percentage saved; answer_ratio is how many times this "
            #en|     "cache the multi-head cache is. ",
            #en| 25: "25 is this cache as a percentage of the multi-head one; write "
            #en|     "the other way round, how many times larger the multi-head one is. ",
            #en| 3: "3 is the extra (16/4 - 1); answer_ratio is how many times this "
            #en|    "cache the whole multi-head cache is, not the extra. ",
            #en| 12: "12 = 16 - 4 is the number of heads saved: a ratio divides, it "
            #en|     "does not subtract. ",
            #en| 16: "16 is the number of query heads; the ratio is how many times the "
            #en|     "multi-head cache (16 key/value heads) holds this one (4). ",
            #en| 1: "1 would make both caches the same size: the cache grows in "
            #en|    "proportion to the number of key/value heads. ",
            #en| 1152: "1152 MiB is the memory saved (1536 - 384); answer_ratio is how "
            #en|       "many times larger, not a size. ",
        }
        said = next((s for v, s in known.items() if abs(got - v) < 1e-3 * v), None)
        if said:
            return said
        if got > 100:
            #ko| return "answer_ratio에는 크기(MiB)가 아니라 몇 배인지를 적습니다. "
            #en| return "answer_ratio is how many times larger, not a size in MiB. "
        #ko| return (f"{got:.4g}배라면 멀티헤드의 캐시가 이 캐시의 {got:.4g}배입니다. "
        #ko|         "두 모델은 키·밸류 헤드의 수(16개와 4개)만 다르고, 캐시는 그 "
        #ko|         "수에 비례합니다. ")
        #en| return (f"{got:.4g} would make the multi-head cache {got:.4g} times this "
        #en|         "one; the two models differ only in the number of key/value heads "
        #en|         "(16 and 4), and the cache grows in proportion to it. ")

    mib_now_ = mib_said_(got_["answer_mib"])
    ratio_now_ = ratio_said_(got_["answer_ratio"])
    if not mib_now_ and not ratio_now_:
        return True
    #ko: 틀린 칸마다 그 실수를, 맞은 칸은 맞았다고 말합니다
    #en: each wrong part with its mistake; a right part said to be right
    #ko| said_ = f"answer_mib: {mib_now_}" if mib_now_ else "answer_mib는 맞았습니다. "
    #ko| said_ += (f"answer_ratio: {ratio_now_}" if ratio_now_
    #ko|           else "answer_ratio는 맞았습니다. ")
    #en| said_ = f"answer_mib: {mib_now_}" if mib_now_ else "your answer_mib is right. "
    #en| said_ += (f"answer_ratio: {ratio_now_}" if ratio_now_
    #en|           else "your answer_ratio is right. ")
    return Also(said_)
