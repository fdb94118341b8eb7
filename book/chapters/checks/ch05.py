#ko: 5장 연습 문제의 확인들. 확인 셀 check("ch05-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 5's exercise checks, called by the check cells, check("ch05-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.
import math

import torch


@exercise(
    "ch05-ex-shape",
    #ko| "가중치는 쿼리 하나가 키마다 하나씩 가지는 값이고, 출력은 쿼리마다 밸류의 "
    #ko| "가중 평균 한 행입니다. 앞의 두 축 (B, H)는 그대로 지나갑니다.",
    #en| "each query has one weight per key, and its output row is a weighted average of "
    #en| "the values. The leading axes (B, H) pass through unchanged.",
)
def ch05_ex_shape(answer_w_shape, answer_out_shape):
    #ko: q (2, 8, 3, 16), k (2, 8, 7, 16), v (2, 8, 7, 10): 모양은 이 셀이 정합니다
    #en: q (2, 8, 3, 16), k (2, 8, 7, 16), v (2, 8, 7, 10): the shapes are fixed here
    w_, out_ = as_shape(answer_w_shape), as_shape(answer_out_shape)
    said_ = {
        #ko| (2, 8, 7, 3): "가중치의 행은 쿼리(3개), "
        #ko|               "열은 키(7개)입니다. ",
        #ko| (2, 8, 3, 16): "가중치는 키마다 하나이므로 마지막 축은 "
        #ko|                "키의 수 7입니다(16은 벡터의 차원). ",
        #ko| (2, 1, 3, 7): "마스크의 크기 1인 축은 브로드캐스팅되므로 "
        #ko|               "가중치에는 헤드 8개가 모두 있습니다. ",
        #ko| (2, 1, 1, 7): "그것은 마스크의 모양입니다. 가중치는 (B, H, T_q, T_k)입니다. ",
        #ko| (3, 7): "앞의 두 축 (B, H) = (2, 8)은 그대로 지나갑니다. ",
        #en| (2, 8, 7, 3): "the weights' rows are the queries "
        #en|               "(3) and columns the keys (7). ",
        #en| (2, 8, 3, 16): "there is one weight per key, so the last axis is "
        #en|                "the number of keys, 7 (16 is the vectors' width). ",
        #en| (2, 1, 3, 7): "the mask's axes of size 1 broadcast, "
        #en|               "so the weights have all 8 heads. ",
        #en| (2, 1, 1, 7): "that is the mask's shape; the weights are (B, H, T_q, T_k). ",
        #en| (3, 7): "the leading axes (B, H) = (2, 8) pass through unchanged. ",
    }.get(w_, "")
    said_ += {
        #ko| (2, 8, 3, 16): "출력의 각 행은 밸류의 가중 "
        #ko|                "평균이므로 밸류의 차원 10입니다. ",
        #ko| (2, 8, 7, 10): "출력은 키마다가 아니라 쿼리마다 한 행입니다. ",
        #ko| (2, 3, 80): "이 함수는 헤드를 합치지 않습니다. 헤드 축이 그대로 남습니다. ",
        #ko| (2, 8, 3, 7): "그것은 가중치의 모양입니다. 출력은 weights @ v입니다. ",
        #en| (2, 8, 3, 16): "each output row is a weighted average "
        #en|                "of values, as wide as a value: 10. ",
        #en| (2, 8, 7, 10): "the output has one row per query, not per key. ",
        #en| (2, 3, 80): "this function does not merge the heads: the head axis stays. ",
        #en| (2, 8, 3, 7): "that is the weights' shape; the output is weights @ v. ",
    }.get(out_, "")
    #ko: 목록에 없는 답은 어느 축이 어떻게 다른지로 말합니다
    #en: an answer not in the lists: which axis differs, and how
    sizes_ = {"d": 16, "d_v": 10}
    if w_ != (2, 8, 3, 7) and not said_:
        #ko| said_ = "가중치: " + shape_difference(w_, (2, 8, 3, 7), "B H T_q T_k", sizes_)
        #en| said_ = "weights: " + shape_difference(w_, (2, 8, 3, 7), "B H T_q T_k", sizes_)
    if out_ != (2, 8, 3, 10) and not said_:
        said_ = shape_difference(out_, (2, 8, 3, 10), "B H T_q d_v", sizes_)
        #ko| said_ = "출력: " + said_
        #en| said_ = "output: " + said_
    parts_ = parts_wrong(answer_w_shape=(w_, (2, 8, 3, 7)),
                         answer_out_shape=(out_, (2, 8, 3, 10)))
    return Also(said_ + parts_) if said_ and parts_ is not True else parts_


@exercise(
    "ch05-ex-scale",
    #ko| "√d_k의 d_k는 점수 하나를 만드는 내적에 들어가는 벡터의 길이입니다. "
    #ko| "헤드로 나눈 뒤 쿼리와 키 벡터 하나의 길이는 얼마인가요?",
    #en| "the d_k of √d_k is the length of the vectors that enter one dot product. "
    #en| "After the split into heads, how long is one query or key vector?",
)
def ch05_ex_scale(head_scores):
    check_seed(5)
    # 2 x (B, T, C) = (2, 5, 12)
    q_flat_, k_flat_ = torch.randn(2, 2, 5, 12).unbind(0)
    #ko: 헤드 3개(D = 4)마다 따로 계산한 기준값
    #en: the reference, computed for each of the 3 heads (D = 4) separately
    expected_scores_ = torch.stack(
        [q_flat_[..., 4 * h:4 * h + 4] @ k_flat_[..., 4 * h:4 * h + 4].mT / math.sqrt(4)
         for h in range(3)],
        dim=1,
    )                                                           # (2, 3, 5, 5)
    try:
        got_ = head_scores(q_flat_, k_flat_, 3)
    except RuntimeError as error_:
        if any(s_ in str(error_) for s_ in ("cannot be multiplied",
                                            "must match the size", "Expected size")):
            #ko| return ("점수의 행렬 곱이 맞지 않습니다. "
            #ko|         "(T, D) @ (D, T)가 되도록 키의 "
            #ko|         "마지막 두 축을 바꾸세요(transpose(-2, -1)).")
            #en| return ("the score product does not fit: for "
            #en|         "(T, D) @ (D, T), swap the keys' "
            #en|         "last two axes (transpose(-2, -1)).")
        if "is invalid for input of size" in str(error_):
            #ko| return (f"view가 맞지 않습니다({error_}). q_flat은 (B, T, C) = "
            #ko|         "(2, 5, 12)이고, 헤드 3개로 나누면 (B, T, H, D)에서 H × D = C, "
            #ko|         "곧 D = C // H입니다.")
            #en| return (f"a view does not fit ({error_}): q_flat is (B, T, C) = "
            #en|         "(2, 5, 12), and cut into 3 heads it is (B, T, H, D) with "
            #en|         "H × D = C, so D = C // H.")
        raise
    wrong_shape_ = shape_mistake(got_, expected_scores_, axes="B H T_q T_k",
                                 sizes={"C": 12, "D": 4})
    if (wrong_shape_ and isinstance(got_, torch.Tensor) and got_.dim() == 4
            and got_.size(1) != 3 and got_.size(1) * got_.size(-1) != 12
            and got_.shape[2:] == (5, 5)):
        #ko| return Also(wrong_shape_ + f"헤드가 {got_.size(1)}개인데 인자 H는 3입니다. "
        #ko|             "헤드 수는 예제의 숫자나 전역 변수가 아니라 인자 H에서 읽으세요. ")
        #en| return Also(wrong_shape_ + f"there are {got_.size(1)} heads, but the "
        #en|             "argument H is 3: take the number of heads from the argument H, "
        #en|             "not the example's number or a global. ")
    if wrong_shape_:
        return wrong_shape_
    #ko: 흔한 실수: transpose 없이 (B, H, T, D)로 바로 view하기
    #en: a common mistake: view straight to (B, H, T, D), without transpose
    q_mixed_, k_mixed_ = (t.view(2, 3, 5, 4) for t in (q_flat_, k_flat_))
    if torch.allclose(got_, q_mixed_ @ k_mixed_.mT / math.sqrt(4), atol=1e-6):
        #ko| return ("나누는 수는 맞지만 헤드가 틀렸습니다. "
        #ko|         "view(B, H, T, D)는 토큰을 섞습니다. "
        #ko|         "view(B, T, H, D) 다음에 transpose(1, 2)를 하세요(4장).")
        #en| return ("the scale is right but the heads are not: "
        #en|         "view(B, H, T, D) mixes tokens. "
        #en|         "Use view(B, T, H, D), then transpose(1, 2) (chapter 4).")
    unscaled_ = expected_scores_ * math.sqrt(4)
    #ko: 헤드로 나누는 방법이 다른 쿼리와 키: 토큰과 섞임, 특징을 H칸마다 고름
    #en: queries and keys cut into heads another way: tokens mixed, every H-th feature
    q_h_, k_h_ = (t.view(2, 5, 3, 4).transpose(1, 2) for t in (q_flat_, k_flat_))
    q_dh_, k_dh_ = (t.view(2, 5, 4, 3).permute(0, 3, 1, 2) for t in (q_flat_, k_flat_))
    slips_ = [
        (q_h_ @ k_mixed_.mT / 2,
         #ko| "쿼리는 헤드로 맞게 나눴지만, 키는 토큰과 헤드가 섞였습니다. "
         #ko| "키도 쿼리와 똑같이 (B, T, H, D)를 거쳐 나누세요."),
         #en| "the queries are cut into heads right, but the keys mix tokens and heads: "
         #en| "cut the keys the same way as the queries, through (B, T, H, D)."),
        (q_mixed_ @ k_h_.mT / 2,
         #ko| "키는 헤드로 맞게 나눴지만, 쿼리는 토큰과 헤드가 섞였습니다. "
         #ko| "쿼리도 키와 똑같이 (B, T, H, D)를 거쳐 나누세요."),
         #en| "the keys are cut into heads right, but the queries mix tokens and heads: "
         #en| "cut the queries the same way as the keys, through (B, T, H, D)."),
        (q_dh_ @ k_dh_.mT / 2,
         #ko| "스케일은 맞지만, 각 헤드가 특징을 H칸마다 하나씩 가져갑니다. "
         #ko| "한 헤드의 특징 D개는 C 안에서 나란히 붙어 있습니다: C = (H, D)."),
         #en| "the scale is right, but each head takes every H-th feature; one head's "
         #en| "D features sit side by side in C: C = (H, D)."),
        (unscaled_ / math.sqrt(12),
         #ko| "√C = √12로 나눴습니다. C는 헤드로 나누기 전의 "
         #ko| "차원입니다. 내적에 들어가는 벡터는 얼마나 긴가요?"),
         #en| "divided by √C = √12, the width before the split into "
         #en| "heads. How long are the vectors in one dot product?"),
        (torch.softmax(expected_scores_, dim=-1),
         #ko| "소프트맥스를 취했습니다. head_scores는 "
         #ko| "소프트맥스 전의 점수를 돌려줍니다."),
         #en| "the softmax is taken; head_scores returns "
         #en| "the scaled scores, before the softmax."),
        (unscaled_,
         #ko| "점수를 나누지 않았습니다. 내적은 "
         #ko| "벡터가 길수록 커지므로 √D로 나눕니다."),
         #en| "the scores are not divided: dot products grow "
         #en| "with the vectors' width, so divide by √D."),
        (unscaled_ / 4,
         #ko| "D로 나눴습니다. 나누는 수는 D가 아니라 √D입니다."),
         #en| "divided by D: the divisor is √D, not D."),
        (unscaled_ * 2,
         #ko| "√D를 곱했습니다. 곱하지 말고 나누세요."),
         #en| "multiplied by √D: divide instead."),
        (unscaled_ / math.sqrt(3),
         #ko| "헤드 수 H의 제곱근으로 나눴습니다. 내적에 "
         #ko| "들어가는 벡터의 길이는 D = C // H입니다."),
         #en| "divided by the square root of the number of heads H; "
         #en| "the vectors in one dot product are D = C // H long."),
    ]
    for slip_, said_ in slips_:
        if torch.allclose(got_, slip_, atol=1e-5):
            return said_
    if torch.allclose(got_, expected_scores_, atol=1e-6):
        #ko: 헤드 2개(D = 6)로 한 번 더: 나누는 수는 D에서 나와야 합니다
        #en: once more with 2 heads (D = 6): the divisor must come from D
        q_two_, k_two_ = torch.randn(2, 1, 3, 12).unbind(0)
        want_two_ = torch.stack([q_two_[..., 6 * h:6 * h + 6]
                                 @ k_two_[..., 6 * h:6 * h + 6].mT
                                 for h in range(2)], dim=1) / math.sqrt(6)
        got_two_ = head_scores(q_two_, k_two_, 2)
        if isinstance(got_two_, torch.Tensor) and torch.allclose(got_two_, want_two_,
                                                                 atol=1e-5):
            return True
        said_ = value_mistake(got_two_, want_two_, axes="B H T T",
                              factors={"√D": math.sqrt(6), "√6/2": math.sqrt(6) / 2},
                              last_resort=True)
        #ko| return Also("헤드 3개(D = 4)에서는 맞지만, 헤드 2개(D = 6)에서는 다릅니다. "
        #ko|             f"{said_}나누는 수를 예제의 숫자로 적지 말고 D에서 "
        #ko|             "계산하세요. ")
        #en| return Also("right for 3 heads (D = 4), but not for 2 heads (D = 6): "
        #en|             f"{said_}compute the divisor from D, not from the "
        #en|             "example's numbers; ")
    if torch.allclose(got_, expected_scores_.transpose(-2, -1), atol=1e-6):
        #ko| return ("점수가 전치되었습니다. 행이 쿼리, 열이 키이므로 "
        #ko|         "q @ k의 전치입니다(k @ q의 전치가 아니라).")
        #en| return ("the scores are transposed: rows are queries and columns "
        #en|         "keys, so q @ k transposed, not k @ q transposed.")
    ratio_ = (unscaled_ / got_).flatten()
    if torch.allclose(ratio_, ratio_.mean().expand_as(ratio_),
                      rtol=1e-4) and ratio_.mean() > 0:
        implied_ = ratio_.mean().item() ** 2
        #ko| return ("점수는 상수배만 다릅니다. "
        #ko|         f"√{implied_:.4g}(으)로 나눈 것과 같은데, "
        #ko|         "나누는 수는 헤드 하나의 차원의 제곱근 √D = √4입니다.")
        #en| return ("the scores are off by a constant factor: "
        #en|         f"as if divided by √{implied_:.4g}; "
        #en|         "the divisor is the square root of one head's width, √D = √4.")
    return value_mistake(got_, expected_scores_, axes="B H T_q T_k", last_resort=True)


@exercise(
    "ch05-ex-mask",
    #ko| "인과 마스크 (T, T)와 길이로 만든 (B, T) 마스크를 &로 합칩니다. "
    #ko| "패딩은 키 축을 가려야 하므로, 길이 마스크에 헤드 축과 쿼리 축을 1로 "
    #ko| "끼워 넣어야 브로드캐스팅이 제대로 됩니다.",
    #en| "combine the causal (T, T) mask with a (B, T) mask built from the lengths using &. "
    #en| "Padding hides keys, so insert size-1 head and query axes into the length mask "
    #en| "for broadcasting to line up.",
)
def ch05_ex_mask(make_mask):
    lengths_ = torch.tensor([5, 3, 1])
    #ko: 정의 그대로 한 칸씩: 쿼리 i는 키 j <= i를 보고, j는 실제 토큰이어야 합니다
    #en: the definition, one entry at a time: query i sees key j <= i,
    #en: and j must be a real token
    expected_mask_ = torch.tensor(
        [[[[j <= i and j < n for j in range(5)] for i in range(5)]]
         for n in lengths_.tolist()])
    try:
        got_ = make_mask(lengths_, 5)
    except RuntimeError as error_:
        if "must match the size" not in str(error_):
            raise
        #ko| return ("위치 T = 5개와 길이 B = 3개를 비교하려면 서로 다른 축에 "
        #ko|         "놓아야 합니다. 길이를 열 (B, 1)로 세우면 (B, T)가 됩니다.")
        #en| return ("comparing the T = 5 positions with the B = 3 lengths needs them "
        #en|         "on different axes: the lengths as a column (B, 1) give (B, T).")
    mistake_ = mask_mistake(got_, lengths_, 5, causal=True)
    keys_ = (torch.arange(5) < lengths_[:, None])[:, None, None, :]
    if (not mistake_ and isinstance(got_, torch.Tensor)
            and got_.shape == (3, 1, 5, 5)):
        if torch.equal(got_, torch.ones(5, 5, dtype=torch.bool).tril(-1) & keys_):
            #ko| return ("tril(-1)은 대각선도 가립니다. 쿼리는 "
            #ko|         "자기 자신(키 i)도 봐야 합니다(tril()).")
            #en| return ("tril(-1) hides the diagonal too; a "
            #en|         "query must see itself, key i (tril()).")
        if torch.equal(got_, torch.ones(5, 5, dtype=torch.bool).tril(1) & keys_):
            #ko| return ("tril(1)은 쿼리 i가 키 i + 1, 곧 미래의 토큰 "
            #ko|         "하나를 보게 합니다. 대각선까지만(tril())입니다.")
            #en| return ("tril(1) lets query i see key i + 1, one future "
            #en|         "token: the diagonal is the limit (tril()).")
        if torch.equal(got_, keys_.transpose(-2, -1) & keys_):
            #ko| return ("패딩은 가렸지만 인과 마스크가 빠졌습니다. "
            #ko|         "아래 삼각 (T, T) 마스크와 &로 합치세요.")
            #en| return ("the padding is hidden but the causal part is missing: "
            #en|         "combine with the lower-triangular (T, T) mask using &.")
    if not mistake_ and torch.equal(
            got_, torch.ones(5, 5, dtype=torch.bool).tril() | keys_):
        #ko| return ("|는 둘 중 하나만 True여도 True입니다. 두 "
        #ko|         "조건을 모두 지켜야 하므로 &로 합치세요.")
        #en| return ("| is True when either is True; both "
        #en|         "conditions must hold, so combine them with &.")
    if mistake_:
        return mistake_
    if not torch.equal(got_, expected_mask_):
        said_ = mask_difference(got_, expected_mask_, lengths_)
        return Also(said_) if said_ else False
    #ko: 가장 긴 문장도 T보다 짧은 배치로 한 번 더: T는 길이들이 아니라 인자에서 옵니다
    #en: once more with a batch whose longest sentence is shorter than T: T comes
    #en: from the argument, not from the lengths
    lengths_ = torch.tensor([2, 4])
    expected_mask_ = torch.tensor(
        [[[[j <= i and j < n for j in range(6)] for i in range(6)]]
         for n in lengths_.tolist()])
    try:
        got_ = make_mask(lengths_, 6)
    except (RuntimeError, IndexError, ValueError, TypeError) as error_:
        #ko| return ("길이 [5, 3, 1], T = 5에서는 돌아가지만 길이 [2, 4], T = 6에서는 "
        #ko|         f"오류가 납니다({type(error_).__name__}: {error_}). 문장의 수는 "
        #ko|         "len(lengths), 길이는 인자 T입니다. 예제의 숫자를 쓰지 마세요.")
        #en| return ("it runs for lengths [5, 3, 1] and T = 5, but with lengths [2, 4] "
        #en|         f"and T = 6 it raises {type(error_).__name__}: {error_}. The number "
        #en|         "of sentences is len(lengths) and the length is the argument T: "
        #en|         "do not use the example's numbers.")
    if not isinstance(got_, torch.Tensor) or tuple(got_.shape) != (2, 1, 6, 6):
        shape_ = (tuple(got_.shape) if isinstance(got_, torch.Tensor)
                  else type(got_).__name__)
        #ko| return ("길이 [5, 3, 1], T = 5에서는 맞지만 길이 [2, 4], "
        #ko|         f"T = 6에서는 모양이 (2, 1, 6, 6)이어야 하는데 {shape_}입니다. "
        #ko|         "마스크의 크기는 인자 T, 곧 패딩까지 채운 길이이지 "
        #ko|         "가장 긴 문장의 길이가 아닙니다.")
        #en| return ("right for lengths [5, 3, 1] and T = 5, but with lengths "
        #en|         f"[2, 4] and T = 6 the shape must be (2, 1, 6, 6), got {shape_}: "
        #en|         "the mask's size is the argument T, the padded length, not "
        #en|         "the longest sentence's length.")
    if not torch.equal(got_, expected_mask_):
        said_ = mask_difference(got_, expected_mask_, lengths_)
        #ko| return Also("길이 [5, 3, 1], T = 5에서는 맞지만 길이 [2, 4], T = 6에서는 "
        #ko|             f"다릅니다. {said_ or ''}")
        #en| return Also("right for lengths [5, 3, 1] and T = 5, but not for lengths [2, 4] "
        #en|             f"and T = 6; {said_ or ''}")
    #ko: 뽑은 길이로 한 번 더(채점기에서는 학생이 본 적 없는 길이)
    #en: once more with drawn lengths (in the grader, lengths no student has seen)
    gen_ = check_generator(5)
    T_ = int(torch.randint(3, 9, (), generator=gen_))
    lengths_ = torch.randint(1, T_ + 1, (3,), generator=gen_)
    expected_mask_ = torch.tensor(
        [[[[j <= i and j < n for j in range(T_)] for i in range(T_)]]
         for n in lengths_.tolist()])
    got_ = make_mask(lengths_, T_)
    if not (isinstance(got_, torch.Tensor) and torch.equal(got_, expected_mask_)):
        said_ = (mask_difference(got_, expected_mask_, lengths_)
                 if isinstance(got_, torch.Tensor) and got_.shape == expected_mask_.shape
                 else "")
        #ko| return Also(f"길이 [5, 3, 1]과 [2, 4]에서는 맞지만 길이 {lengths_.tolist()}, "
        #ko|             f"T = {T_}에서는 다릅니다. {said_ or ''}")
        #en| return Also("right for lengths [5, 3, 1] and [2, 4], but not for lengths "
        #en|             f"{lengths_.tolist()} and T = {T_}; {said_ or ''}")
    return True
