#ko: 1장 연습 문제의 확인들. 확인 셀 check("ch01-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 1's exercise checks, called by the check cells, check("ch01-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.
import torch


@exercise(
    "ch01-ex-shape",
    #ko| "결과는 쿼리마다 한 행이고, 각 행의 길이는 밸류의 차원입니다.",
    #en| "the result has one row per query, and each row is as long as a value.",
)
def ch01_ex_shape(answer_shape):
    got_ = as_shape(answer_shape)
    #ko: Q (4, 2), K (6, 2), V (6, 5)에서 흔히 나오는 답과 그 힌트
    #en: Q (4, 2), K (6, 2), V (6, 5): the usual wrong answers and their hints
    slips_ = {
        #ko| (5, 4): "행과 열이 바뀌었습니다. 결과는 쿼리마다 한 "
        #ko|         "행(4개)이고, 각 행의 길이는 밸류의 차원(5)입니다.",
        #ko| (4, 6): "(4, 6)은 @ V 전의 가중치 모양입니다. V (6, "
        #ko|         "5)를 곱하면 키 축 6이 밸류의 차원 5로 바뀝니다.",
        #ko| (4, 2): "2는 쿼리와 키의 차원입니다. 결과의 각 행은 "
        #ko|         "밸류의 가중 평균이므로 밸류의 차원(5)입니다.",
        #ko| (6, 5): "V의 모양입니다. 결과는 키마다가 아니라 쿼리마다 한 행입니다.",
        #ko| (6, 6): "키끼리의 점수가 아닙니다. 점수는 쿼리마다 "
        #ko|         "한 행, 결과도 쿼리마다 한 행입니다.",
        #en| (5, 4): "rows and columns are swapped: one row per "
        #en|         "query (4), each as wide as a value (5).",
        #en| (4, 6): "(4, 6) is the weights' shape, before @ V: multiplying "
        #en|         "by V (6, 5) turns the 6 keys into the value width 5.",
        #en| (4, 2): "2 is the width of queries and keys; each row of the "
        #en|         "result is an average of values, as wide as a value (5).",
        #en| (6, 5): "that is V's shape: the result has one row per query, not per key.",
        #en| (6, 6): "these are no key-to-key scores: the scores "
        #en|         "and the result have one row per query.",
    }
    if got_ in slips_:
        return slips_[got_]
    if len(got_) != 2:
        #ko| return ("결과는 행렬이라 숫자 두 개(행, 열)로 "
        #ko|         f"적습니다. 지금 답은 {len(got_)}개입니다.")
        #en| return ("the result is a matrix: two numbers, (rows, "
        #en|         f"columns); this answer has {len(got_)}.")
    if got_[0] != 4:
        #ko| return ("행의 수가 다릅니다. 결과는 쿼리마다 "
        #ko|         "한 행이고 쿼리는 4개입니다.")
        #en| return ("the number of rows is off: the result has "
        #en|         "one row per query, and there are 4 queries.")
    if got_[1] != 5:
        #ko| return ("열의 수가 다릅니다. 각 행은 밸류의 "
        #ko|         "가중 평균이라 밸류의 차원 5만큼 깁니다.")
        #en| return ("the number of columns is off: each row is "
        #en|         "an average of values, as wide as a value, 5.")
    return True


@exercise(
    "ch01-ex-axis",
    #ko| "쿼리마다 가중치의 합이 1이어야 합니다. "
    #ko| "키는 점수 행렬의 어느 축에 있나요?",
    #en| "each query's weights must add up to 1. "
    #en| "Which axis of the score matrix holds the keys?",
)
def ch01_ex_axis(attend):
    check_seed(1)
    #ko: 쿼리 3개, 키 5개, 밸류의 차원 4: 모든 모양이 서로 다릅니다
    #en: 3 queries, 5 keys, values 4 wide: all the sizes differ
    Q_, K_, V_ = torch.randn(3, 2), torch.randn(5, 2), torch.randn(5, 4)
    expected = torch.softmax(Q_ @ K_.T, dim=-1) @ V_
    try:
        got_ = attend(Q_, K_, V_)
    except RuntimeError as error_:
        if "cannot be multiplied" in str(error_):
            #ko| return ("행렬 곱의 모양이 맞지 않습니다. "
            #ko|         "점수는 (쿼리 수, d) @ (d, 키 수), "
            #ko|         "결과는 (쿼리 수, 키 수) @ (키 수, 밸류의 "
            #ko|         "차원)입니다. 어느 쪽을 전치해야 하나요?")
            #en| return ("a matrix product does not fit: the "
            #en|         "scores are (queries, d) @ (d, keys), "
            #en|         "the result (queries, keys) @ (keys, value "
            #en|         "width). Which one needs a transpose?")
        raise
    if isinstance(got_, torch.Tensor) and tuple(got_.shape) == (3, 5):
        #ko| return ("(쿼리 3개, 키 5개) 가중치를 돌려주었습니다. "
        #ko|         "가중치로 밸류를 섞은 weights @ V를 돌려주세요.")
        #en| return ("this is the (3 queries, 5 keys) weights; "
        #en|         "return weights @ V, the values mixed by the weights.")
    #ko| wrong_shape_ = shape_mistake(got_, expected, ("쿼리", "밸류의 차원"),
    #ko|                              {"키": 5})
    #en| wrong_shape_ = shape_mistake(got_, expected, ("queries", "value width"),
    #en|                              {"keys": 5})
    if wrong_shape_:
        return wrong_shape_
    if torch.allclose(got_, torch.softmax(Q_ @ K_.T, dim=0) @ V_):
        #ko| return ("소프트맥스가 아직 dim=0, 곧 쿼리 축을 따라 정규화해서 "
        #ko|         "키마다(열마다) 합이 1이 됩니다. 키는 점수 행렬의 어느 축에 있나요?")
        #en| return ("the softmax still normalises along dim=0, the query axis, so each "
        #en|         "key's column adds up to 1. Which axis of the scores holds the keys?")
    if torch.allclose(got_, (Q_ @ K_.T) @ V_):
        #ko| return "점수는 소프트맥스를 거쳐야 합이 1인 가중치가 됩니다."
        #en| return "the scores become weights that add up to 1 only through the softmax."
    if torch.allclose(got_, torch.softmax((Q_ @ K_.T) @ V_, dim=-1)):
        #ko| return ("소프트맥스는 밸류를 섞기 전의 점수에 취합니다. "
        #ko|         "가중치를 먼저 만들고 그다음 @ V입니다.")
        #en| return ("the softmax goes on the scores, before the "
        #en|         "values are mixed: weights first, then @ V.")
    if torch.allclose(got_, torch.sigmoid(Q_ @ K_.T) @ V_):
        #ko| return ("시그모이드는 점수마다 따로 0과 1 사이로 줄일 뿐, 한 쿼리의 "
        #ko|         "가중치 합을 1로 만들지 않습니다. 소프트맥스를 쓰세요.")
        #en| return ("a sigmoid squashes each score on its own and does not "
        #en|         "make one query's weights add up to 1: use the softmax.")
    for c_ in (0.5, 2.0, 2 ** -0.5, 2 ** 0.5):
        if torch.allclose(got_, torch.softmax(c_ * (Q_ @ K_.T), dim=-1) @ V_):
            #ko| return ("점수에 수를 곱하거나 나눴습니다. 이 "
            #ko|         "문제의 점수는 Q @ K.T 그대로입니다.")
            #en| return ("the scores are multiplied or divided by a number; "
            #en|         "in this exercise the scores are Q @ K.T as they are.")
    if torch.allclose(got_, expected):
        return True
    ratio_ = (got_ / expected).flatten()
    if torch.allclose(ratio_, ratio_.mean().expand_as(ratio_), rtol=1e-4):
        #ko| return (f"결과가 정답의 {ratio_.mean().item():.3g}배입니다. "
        #ko|         "가중치의 합이 이미 1이므로 더 나누거나 곱하지 마세요.")
        #en| return (f"the result is {ratio_.mean().item():.3g} times the right "
        #en|         "one: the weights already add up to 1, so scale nothing.")
    if torch.allclose(got_, (Q_ @ K_.T) / (Q_ @ K_.T).sum(dim=-1, keepdim=True) @ V_):
        #ko| return ("합으로 나누기만 하면 음수 점수가 음수 가중치가 "
        #ko|         "됩니다. 소프트맥스(exp 뒤 정규화)를 쓰세요.")
        #en| return ("dividing by the sum leaves negative scores as negative "
        #en|         "weights: use the softmax (exp, then normalise).")
    scores_ = Q_ @ K_.T
    slips_ = [
        (torch.log_softmax(scores_, dim=-1) @ V_,
         #ko| "밸류를 섞은 수가 가중치의 로그(모두 음수)입니다. "
         #ko| "가중치는 0과 1 사이이고 쿼리마다 합이 1입니다."),
         #en| "the values are mixed by the logarithms of the weights (all negative); "
         #en| "weights lie between 0 and 1 and add up to 1 per query."),
        (torch.softmax(scores_.flatten(), 0).view_as(scores_) @ V_,
         #ko| "가중치가 점수 행렬 전체에 걸쳐 합이 1입니다. "
         #ko| "쿼리마다, 곧 행마다 합이 1이어야 합니다."),
         #en| "the weights add up to 1 over the whole score matrix; "
         #en| "they must add up to 1 for each query, row by row."),
        (torch.exp(scores_) @ V_,
         #ko| "가중치가 exp(점수) 그대로라 쿼리마다 합이 1이 아닙니다. "
         #ko| "행마다 그 합으로 나눠야 합니다."),
         #en| "the weights are exp(scores) as they are, so a query's weights do not "
         #en| "add up to 1: each row must be divided by its sum."),
    ]
    #ko| said_ = value_mistake(got_, expected, slips_, axes=("쿼리", "밸류의 차원"))
    #en| said_ = value_mistake(got_, expected, slips_, axes=("queries", "value width"))
    if said_ is None or isinstance(said_, Also):
        #ko: 밸류 자리에 단위 행렬을 넣으면 attend는 가중치 그대로를 돌려줍니다
        #en: with the identity as the values, attend returns its weights as they are
        try:
            probe_ = attend(Q_, K_, torch.eye(5))
        except Exception:
            probe_ = None
        want_w_ = torch.softmax(scores_, dim=-1)
        #ko: 답이 정말 (가중치) @ V이면, 그 가중치를 점수와 견줍니다
        #en: if the answer really is (weights) @ V, compare those weights with the scores
        if (isinstance(probe_, torch.Tensor) and probe_.shape == want_w_.shape
                and torch.allclose(probe_ @ V_, got_, atol=1e-5)):
            if ((probe_ == 0) | (probe_ == 1)).all() and (probe_.sum(-1) == 1).all():
                #ko| return ("쿼리마다 가중치 전부가 키 하나에 몰려 있습니다. "
                #ko|         "소프트맥스는 점수에 따라 가중치를 모든 키에 나눠 줍니다.")
                #en| return ("each query puts all its weight on one key; the softmax "
                #en|         "spreads the weights over every key, by score.")
            if (probe_.argsort(-1) == want_w_.argsort(-1).flip(-1)).all():
                #ko| return ("점수가 높은 키일수록 가중치가 작습니다. "
                #ko|         "점수가 높을수록 가중치도 커야 합니다.")
                #en| return ("the higher a key's score, the smaller its weight; "
                #en|         "a higher score must give a larger weight.")
            #ko| probed_ = weights_said(probe_, scores_, ("쿼리", "키"))
            #en| probed_ = weights_said(probe_, scores_, ("queries", "keys"))
            if probed_:
                #ko| return Also(f"결과는 가중치 @ V이지만, 그 가중치가 다릅니다. "
                #ko|             f"{probed_.rstrip()} ")
                #en| return Also(f"the result is weights @ V, but with other weights: "
                #en|             f"{probed_.rstrip()} ")
        if said_ is None:
            #ko| said_ = value_mistake(got_, expected, axes=("쿼리", "밸류의 차원"),
            #ko|                       last_resort=True)
            #en| said_ = value_mistake(got_, expected, axes=("queries", "value width"),
            #en|                       last_resort=True)
    return said_ or torch.allclose(got_, expected)


@exercise(
    "ch01-ex-many",
    #ko| "점수는 Q @ K.T 한 번으로 구하고, "
    #ko| "소프트맥스는 키 축(dim=-1)에 적용합니다.",
    #en| "compute all scores with one product Q @ K.T "
    #en| "and take the softmax over the key axis (dim=-1).",
)
def ch01_ex_many(soft_lookup_many):
    def python_loop_(function_):
        #ko: 함수의 바이트코드(안에 든 함수와 컴프리헨션까지)에 반복이 있는지
        #en: whether the function's bytecode (nested functions and comprehensions
        #en: included) loops
        import dis
        import types

        if not isinstance(function_, types.FunctionType):
            return False
        codes_ = [function_.__code__]
        while codes_:
            code_ = codes_.pop()
            codes_ += [c for c in code_.co_consts if isinstance(c, types.CodeType)]
            if "map" in code_.co_names or any(
                    i.opname in ("FOR_ITER", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT")
                    for i in dis.get_instructions(code_)):
                return True
        return False

    check_seed(2)
    Q_, K_, V_ = torch.randn(3, 2), torch.randn(5, 2), torch.randn(5, 4)
    try:
        got_ = soft_lookup_many(Q_, K_, V_, beta=2.0)
    except RuntimeError as error_:
        if "cannot be multiplied" in str(error_):
            #ko| return ("행렬 곱의 모양이 맞지 않습니다. "
            #ko|         "점수는 Q (T_q, d) @ K.T (d, T_k), "
            #ko|         "결과는 가중치 (T_q, T_k) @ V (T_k, d_v)입니다.")
            #en| return ("a matrix product does not fit: the "
            #en|         "scores are Q (T_q, d) @ K.T (d, T_k), "
            #en|         "the result the weights (T_q, T_k) @ V (T_k, d_v).")
        raise
    if got_ is None:
        raise NotAnswered
    if not isinstance(got_, (tuple, list)) or len(got_) != 2:
        #ko| return "가중치와 결과를 함께 (weights, result) 쌍으로 돌려주세요."
        #en| return "return the pair (weights, result), not a single tensor."

    def pair_(scores_, dim_=-1):
        #ko: 이 셀 안에서 계산한 (가중치, 결과)
        #en: (weights, result), computed in this cell
        weights_ = torch.softmax(scores_, dim=dim_)
        return weights_, weights_ @ V_

    def same_(want_):
        return all(isinstance(a,
                              torch.Tensor) and a.shape == b.shape and torch.allclose(a,
                                                                                      b)
                   for a, b in zip(got_, want_))

    scores_ = Q_ @ K_.T
    if same_(pair_(2.0 * scores_)):
        #ko: 값이 맞아도, 문제는 파이썬 반복문 없이 풀라고 합니다
        #en: right values, but the exercise asks for no Python loop
        if python_loop_(soft_lookup_many):
            #ko| return ("값은 맞지만 soft_lookup_many 안에 파이썬 반복문(for, while, "
            #ko|         "리스트 컴프리헨션, map)이 있습니다. 쿼리 전체의 점수는 "
            #ko|         "Q @ K.T 한 번으로 구할 수 있습니다.")
            #en| return ("the values are right, but soft_lookup_many holds a Python loop "
            #en|         "(for, while, a comprehension or map): the scores of all "
            #en|         "queries come from one product, Q @ K.T.")
        #ko: 다른 beta로 한 번 더: beta는 인자에서 읽어야 합니다
        #en: once more with another beta: beta comes from the argument
        try:
            other_ = soft_lookup_many(Q_, K_, V_, beta=0.5)
            want_other_ = pair_(0.5 * scores_)
            right_other_ = all(
                isinstance(a_, torch.Tensor) and a_.shape == b_.shape
                and torch.allclose(a_, b_) for a_, b_ in zip(other_, want_other_))
        except Exception:
            right_other_ = False
        if not right_other_:
            #ko| return ("beta = 2.0에서는 맞지만 beta = 0.5에서는 틀립니다. beta를 "
            #ko|         "예제의 숫자로 적지 말고 인자 beta를 쓰세요.")
            #en| return ("right for beta = 2.0, but wrong for beta = 0.5: use the "
            #en|         "argument beta, not the example's number.")
        return True
    weights_, result_ = pair_(2.0 * scores_)
    slips_ = [
        (pair_(scores_),
         #ko| "beta가 빠졌습니다. 점수에 beta를 곱한 다음 소프트맥스를 취하세요."),
         #en| "beta is missing: multiply the scores by beta, then take the softmax."),
        (pair_(scores_ / 2.0),
         #ko| "점수를 beta로 나눴습니다. beta는 곱합니다(클수록 날카로워집니다)."),
         #en| "the scores are divided by beta; beta multiplies them (larger is sharper)."),
        ((2.0 * pair_(scores_)[0], 2.0 * pair_(scores_)[0] @ V_),
         #ko| "beta를 소프트맥스 뒤에 곱했습니다. 가중치의 "
         #ko| "합이 1이 아니게 됩니다. 점수에 곱하세요."),
         #en| "beta multiplies after the softmax, so the weights "
         #en| "no longer add up to 1: multiply the scores."),
        (pair_(2.0 * scores_, 0),
         #ko| "소프트맥스가 쿼리 축(dim=0)을 따라 "
         #ko| "정규화합니다. 키 축 dim=-1을 쓰세요."),
         #en| "the softmax normalises along the query "
         #en| "axis (dim=0): use the key axis, dim=-1."),
        ((pair_(scores_)[0] ** 2.0, pair_(scores_)[0] ** 2.0 @ V_),
         #ko| "가중치를 beta 제곱했습니다. beta는 "
         #ko| "소프트맥스 안에서 점수에 곱합니다."),
         #en| "the weights are raised to the power beta; "
         #en| "beta multiplies the scores inside the softmax."),
        ((torch.exp(2.0 * scores_), torch.exp(2.0 * scores_) @ V_),
         #ko| "exp만 취하고 합으로 나누지 않았습니다. 소프트맥스는 "
         #ko| "exp를 행마다 합으로 나눠 합이 1이 되게 합니다."),
         #en| "exp alone, without dividing by the sum: the softmax "
         #en| "divides each row's exp by its sum, so it adds up to 1."),
        ((result_, weights_),
         #ko| "순서가 바뀌었습니다. (weights, result) 순서로 돌려주세요."),
         #en| "the order is swapped: return (weights, result)."),
    ]
    for want_, said_ in slips_:
        if same_(want_):
            return said_
    for part_, want_, what_ in ((got_[0], weights_, "weights"), (got_[1], result_,
                                                                 "result")):
        axes_ = "T_q T_k" if what_ == "weights" else "T_q d_v"
        said_ = shape_mistake(part_, want_, axes_)
        if said_:
            #ko| return Also(f"{'가중치' if what_ == 'weights' else '결과'}: {said_}"
            #ko|             "가중치는 (T_q, T_k), 결과는 weights @ V로 (T_q, d_v)입니다. ")
            #en| return Also(f"{what_}: {said_}the weights are (T_q, T_k), "
            #en|             "the result weights @ V, (T_q, d_v). ")
    #ko: 가중치부터, 흔한 실수가 만드는 값과 관계로 견줍니다
    #en: the weights first, against what usual slips compute and the relations
    weight_slips_ = [
        (pair_(scores_)[0],
         #ko| "가중치에 beta가 빠졌습니다. "
         #ko| "점수에 beta를 곱한 다음 소프트맥스를 취하세요."),
         #en| "the weights have no beta: "
         #en| "multiply the scores by beta, then take the softmax."),
        (pair_(4.0 * scores_)[0],
         #ko| "가중치가 beta² = 4를 곱한 점수로 계산되었습니다. "
         #ko| "beta는 점수에 한 번 곱합니다."),
         #en| "the weights are those of the scores times beta² = 4: beta multiplies once."),
        (pair_(2.0 * scores_ / 2 ** 0.5)[0],
         #ko| "점수를 √d = √2로 한 번 더 나눠 가중치를 계산했습니다. "
         #ko| "이 함수의 점수는 beta * (Q @ K.T)뿐입니다."),
         #en| "the weights are those of the scores also divided by √d = √2; "
         #en| "in this function the scores are beta * (Q @ K.T) only."),
    ]
    said_ = value_mistake(got_[0], weights_, weight_slips_, axes="T_q T_k",
                          factors={"beta": 2.0}, sums_to_one=-1)
    if said_ and not isinstance(said_, Also):
        #ko| return f"가중치: {said_}"
        #en| return f"weights: {said_}"
    #ko: 가중치가 점수 beta * (Q @ K.T)와 어떻게 어긋나는지
    #en: how the weights stray from the scores beta * (Q @ K.T)
    more_ = weights_said(got_[0], 2.0 * scores_, "T_q T_k", sums=not said_)
    if said_ or more_:
        #ko| return Also(f"가중치: {(said_ or '') + (more_ or '')}".rstrip() + " ")
        #en| return Also(f"weights: {(said_ or '') + (more_ or '')}".rstrip() + " ")
    result_slips_ = [
        (torch.softmax(2.0 * scores_ @ V_, dim=-1),
         #ko| "결과가 밸류를 섞은 다음에 소프트맥스를 취한 값입니다. "
         #ko| "소프트맥스는 점수에 취해 가중치를 만들고, 그 가중치로 밸류를 섞습니다."),
         #en| "the result is a softmax taken after the values are mixed; the softmax "
         #en| "goes on the scores, making the weights that then mix the values."),
        (torch.exp(2.0 * scores_) @ V_,
         #ko| "결과가 가중치가 아니라 "
         #ko| "exp(점수)로 밸류를 섞었습니다."),
         #en| "the result mixes the values by exp(scores), "
         #en| "not by the weights."),
    ]
    said_ = value_mistake(got_[1], result_, result_slips_, axes="T_q d_v",
                          factors={"beta": 2.0, "T_k": 5})
    if said_ is None:
        #ko: 밸류 자리에 단위 행렬을 넣으면, 결과를 만든 가중치가 그대로 나옵니다
        #en: with the identity as the values, the weights the result is made with come out
        try:
            used_ = soft_lookup_many(Q_, K_, torch.eye(5), beta=2.0)[1]
        except Exception:
            used_ = None
        if (isinstance(used_, torch.Tensor) and used_.shape == weights_.shape
                and torch.allclose(used_ @ V_, got_[1], atol=1e-5)):
            #ko| more_ = weights_said(used_, 2.0 * scores_, "T_q T_k")
            #en| more_ = weights_said(used_, 2.0 * scores_, "T_q T_k")
            if more_:
                #ko| return Also("가중치는 맞았지만, 결과는 다른 가중치로 밸류를 "
                #ko|             f"섞었습니다. 결과의 가중치: {more_}")
                #en| return Also("the weights are right, but the result mixes the values "
                #en|             f"with other weights; the result's weights: {more_}")
        said_ = value_mistake(got_[1], result_, axes="T_q d_v", last_resort=True)
    if said_:
        #ko| return Also(f"가중치는 맞았습니다. 결과: {said_.rstrip()} ")
        #en| return Also(f"the weights are right; result: {said_.rstrip()} ")
    return False
