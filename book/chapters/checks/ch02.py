#ko: 2장 연습 문제의 확인들. 확인 셀 check("ch02-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 2's exercise checks, called by the check cells, check("ch02-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.
import torch
import torch.nn as nn


@exercise(
    "ch02-ex-shape",
    #ko| "이 장의 narrow 레이어를 떠올려 보세요. "
    #ko| "weight의 두 축은 어떤 순서로 저장되었고, "
    #ko| "선형 레이어는 입력의 어느 축만 바꾸나요?",
    #en| "think of this chapter's narrow layer: "
    #en| "in which order are the two axes of weight stored, "
    #en| "and which axis of the input does a linear layer change?",
)
def ch02_ex_shape(answer_weight_shape, answer_out_shape):
    #ko: nn.Linear(6, 3, bias=False)에 (2, 5, 6)을 넣습니다. 모양은 이 셀이 정합니다
    #en: nn.Linear(6, 3, bias=False) on (2, 5, 6); the shapes are fixed here
    weight_, out_ = as_shape(answer_weight_shape), as_shape(answer_out_shape)
    said_ = {
        #ko| (6, 3): "weight는 (입력, 출력)이 아니라 (출력, 입력) = (3, 6)으로 저장됩니다. ",
        #ko| (3,): "weight는 행렬입니다(편향이 (3,)입니다). ",
        #en| (6, 3): "weight is stored as (out, in) = (3, 6), not (in, out). ",
        #en| (3,): "weight is a matrix ((3,) would be a bias). ",
    }.get(weight_, "")
    said_ += {
        #ko| (2, 5, 6): "선형 레이어는 마지막 축만 입력 "
        #ko|            "6에서 출력 3으로 바꿉니다. ",
        #ko| (5, 3): "배치 축 2도 그대로 남습니다. ",
        #ko| (2, 3): "토큰 축 5도 그대로 남습니다. "
        #ko|         "레이어는 토큰마다 따로 곱합니다. ",
        #ko| (2, 6, 3): "앞의 축 (2, 5)는 그대로이고 마지막 축만 3이 됩니다. ",
        #en| (2, 5, 6): "a linear layer changes only the last "
        #en|            "axis, from 6 inputs to 3 outputs. ",
        #en| (5, 3): "the batch axis 2 stays too. ",
        #en| (2, 3): "the token axis 5 stays too: the layer "
        #en|         "multiplies each token on its own. ",
        #en| (2, 6, 3): "the leading axes (2, 5) stay, and only the last becomes 3. ",
    }.get(out_, "")
    #ko: 목록에 없는 답은 어느 축이 어떻게 다른지로 말합니다
    #en: an answer not in the lists: which axis differs, and how
    if not said_:
        #ko| said_ = shape_difference(weight_, (3, 6), ("출력", "입력"), {"B": 2, "T": 5})
        #en| said_ = shape_difference(weight_, (3, 6), ("out", "in"), {"B": 2, "T": 5})
        #ko| said_ += "weight는 (출력, 입력)입니다. " if said_ else ""
        #en| said_ += "weight is (out, in). " if said_ else ""
    if not said_:
        #ko| said_ = shape_difference(out_, (2, 5, 3), ("B", "T", "출력"), {"입력": 6})
        #en| said_ = shape_difference(out_, (2, 5, 3), ("B", "T", "out"), {"in": 6})
        #ko| said_ += "출력은 x의 앞 축 (B, T)에 출력 3입니다. " if said_ else ""
        #en| said_ += "the output is x's leading (B, T), then out = 3. " if said_ else ""
    parts_ = parts_wrong(answer_weight_shape=(weight_, (3, 6)), answer_out_shape=(out_,
                                                                                  (2, 5,
                                                                                   3)))
    return Also(said_ + parts_) if said_ and parts_ is not True else parts_


@exercise(
    "ch02-ex-transpose",
    #ko| "layer.weight는 어떤 순서로 저장되나요? "
    #ko| "출력 차원이 2인 레이어(nn.Linear(4, 2))에 넣어 보면 "
    #ko| "무엇이 어긋나는지 드러납니다.",
    #en| "in which order is layer.weight stored? "
    #en| "Try a layer with 2 outputs (nn.Linear(4, 2)) "
    #en| "and you will see what does not line up.",
)
def ch02_ex_transpose(my_linear):
    def call_(x_, layer_):
        #ko: 답을 불러 보고, 흔한 오류는 그 뜻을 말로 돌려줍니다
        #en: call the answer; a usual error comes back as words saying what it means
        try:
            return my_linear(x_, layer_)
        except RuntimeError as error_:
            if "cannot be multiplied" in str(error_):
                #ko| return ("행렬 곱의 모양이 맞지 않습니다. "
                #ko|         "x는 (..., 입력)이고 layer.weight는 "
                #ko|         "(출력, 입력)입니다. 입력 축끼리 "
                #ko|         "만나려면 어느 쪽을 어떻게 놓아야 하나요?")
                #en| return ("a matrix product does not fit: x "
                #en|         "is (..., in) and layer.weight is "
                #en|         "(out, in). For the two in axes "
                #en|         "to meet, how must they be placed?")
            if "must match the size" in str(error_):
                #ko| return ("*는 원소끼리 곱합니다. 선형 "
                #ko|         "레이어는 행렬 곱(@)입니다.")
                #en| return ("* multiplies element by element; a "
                #en|         "linear layer is a matrix product (@).")
            if "must be a matrix" in str(error_) or "2D" in str(error_):
                #ko| return ("x는 축이 3개 (B, T, 입력)인데, 행렬 두 개만 받는 곱에 "
                #ko|         "넣었습니다. @는 앞의 축을 그대로 두고 마지막 두 축끼리 곱합니다.")
                #en| return ("x has 3 axes (B, T, in), but went into a product that takes two "
                #en|         "matrices only; @ keeps the leading axes, multiplies the last two.")
            raise
        except TypeError as error_:
            if "NoneType" in str(error_):
                #ko| return ("이 레이어들은 편향이 없어서(bias=False) layer.bias가 None입니다. "
                #ko|         "편향이 없으면 더하지 마세요.")
                #en| return ("these layers have no bias (bias=False), so layer.bias is None: "
                #en|         "add no bias when there is none.")
            raise

    class Watched_(nn.Linear):
        #ko: 자기 forward가 불렸는지 기억하는 레이어
        #en: a layer that remembers whether its forward ran
        called_ = False

        def forward(self, input):
            self.called_ = True
            return super().forward(input)

    check_seed(1)
    x_ = torch.randn(2, 3, 4)
    square_, narrow_ = nn.Linear(4, 4, bias=False), nn.Linear(4, 2, bias=False)
    got_ = call_(x_, square_)
    if isinstance(got_, str):
        return got_
    #ko| wrong_shape_ = shape_mistake(got_, torch.nn.functional.linear(x_, square_.weight),
    #ko|                              ("B", "T", "출력"))
    #en| wrong_shape_ = shape_mistake(got_, torch.nn.functional.linear(x_, square_.weight),
    #en|                              ("B", "T", "out"))
    if (wrong_shape_ and isinstance(got_, torch.Tensor) and got_.dim() == 3
            and got_.shape[-2:] == (4, 3)
            and torch.allclose(got_.transpose(-2, -1), x_ @ square_.weight.T)):
        #ko| return Also(wrong_shape_ + "결과가 전치되어 토큰이 열에 놓였습니다"
        #ko|             "(..., 출력, T). x @ W.T처럼 x를 앞에 두면 토큰이 행입니다. ")
        #en| return Also(wrong_shape_ + "the result is transposed, tokens as columns: "
        #en|             "(..., out, T). With x first, as in x @ W.T, tokens stay rows. ")
    if wrong_shape_:
        #ko| return value_mistake(got_, torch.nn.functional.linear(x_, square_.weight),
        #ko|                      axes=("B", "T", "출력"))
        #en| return value_mistake(got_, torch.nn.functional.linear(x_, square_.weight),
        #en|                      axes=("B", "T", "out"))
    if torch.allclose(got_, x_ @ square_.weight):
        #ko| return ("x @ layer.weight는 W를 곱합니다. nn.Linear는 weight를 "
        #ko|         "(출력, 입력) 순서로 저장하고 x @ W.T를 계산합니다. "
        #ko|         "정사각 레이어에서는 모양이 우연히 맞을 뿐입니다.")
        #en| return ("x @ layer.weight multiplies by W, but nn.Linear stores weight "
        #en|         "as (out, in) and computes x @ W.T; with a square layer "
        #en|         "the shapes only happen to fit.")
    try:
        narrow_got_ = call_(x_, narrow_)
    except (RuntimeError, ValueError, IndexError, TypeError) as error_:
        #ko| return ("정사각 레이어에서는 돌아가지만 nn.Linear(4, 2)(weight는 (2, 4))에서는 "
        #ko|         f"오류가 납니다({type(error_).__name__}: {error_}). 출력과 입력의 "
        #ko|         "크기가 다른 레이어에서도 맞는 계산이어야 합니다.")
        #en| return ("it runs for a square layer, but with nn.Linear(4, 2) (weight (2, 4)) "
        #en|         f"it raises {type(error_).__name__}: {error_}. The computation must "
        #en|         "hold for a layer whose outputs differ from its inputs too.")
    if isinstance(narrow_got_, str):
        return narrow_got_
    if (isinstance(narrow_got_, torch.Tensor) and narrow_got_.shape == got_.shape
            and torch.equal(narrow_got_, got_)):
        #ko| return ("서로 다른 두 레이어에 같은 결과를 돌려줍니다. 인자로 받은 레이어를 "
        #ko|         "쓰지 않았습니다(W_Q 같은 전역 변수를 썼나요?). layer.weight를 쓰세요.")
        #en| return ("it gives the same result for two different layers, so it does not "
        #en|         "use its argument layer (a global such as W_Q?): use layer.weight.")
    narrow_want_ = torch.nn.functional.linear(x_, narrow_.weight)
    #ko| wrong_shape_ = shape_mistake(narrow_got_, narrow_want_, ("B", "T", "출력"),
    #ko|                              {"입력": 4})
    #en| wrong_shape_ = shape_mistake(narrow_got_, narrow_want_, ("B", "T", "out"),
    #en|                              {"in": 4})
    if wrong_shape_:
        return wrong_shape_
    want_ = torch.nn.functional.linear(x_, square_.weight)
    if torch.allclose(got_, want_, atol=1e-6):
        if torch.allclose(narrow_got_, narrow_want_, atol=1e-6):
            #ko: 값이 맞아도, 레이어를 그대로 부른 답은 흉내가 아닙니다
            #en: right values, but an answer that calls the layer imitates nothing
            watched_ = Watched_(4, 2, bias=False)
            call_(x_, watched_)
            if watched_.called_:
                #ko| return ("값은 맞지만 my_linear가 레이어 자체를 부릅니다(layer(x)). "
                #ko|         "이 문제는 레이어가 하는 계산을 layer.weight와 @로 직접 "
                #ko|         "하는 것입니다.")
                #en| return ("the values are right, but my_linear calls the layer itself "
                #en|         "(layer(x)): the exercise is to do what the layer computes, "
                #en|         "with layer.weight and @.")
            return True
        #ko| said_ = value_mistake(narrow_got_, narrow_want_, axes=("B", "T", "출력"),
        #ko|                       last_resort=True)
        #ko| return Also("정사각 레이어에서는 맞지만 nn.Linear(4, 2)에서는 다릅니다. "
        #ko|             f"{said_}")
        #en| said_ = value_mistake(narrow_got_, narrow_want_, axes=("B", "T", "out"),
        #en|                       last_resort=True)
        #en| return Also(f"right for a square layer, but not for nn.Linear(4, 2): {said_}")
    if torch.allclose(got_ - want_, (got_ - want_).mean().expand_as(got_), atol=1e-5):
        #ko| return ("결과에 상수가 더해졌습니다. 이 레이어들은 편향이 없으므로 "
        #ko|         "x @ W.T 그대로입니다.")
        #en| return ("a constant is added: these layers have no bias, "
        #en|         "so it is x @ W.T as it is.")
    ratio_ = (got_ / want_).flatten()
    if torch.allclose(ratio_, ratio_.mean().expand_as(ratio_), rtol=1e-4):
        #ko| return (f"결과가 정답의 {ratio_.mean().item():.3g}배입니다. "
        #ko|         "x @ W.T 그대로입니다.")
        #en| return (f"the result is {ratio_.mean().item():.3g} "
        #en|         "times the right one: it is x @ W.T as it is.")
    #ko| return value_mistake(got_, want_, axes=("B", "T", "출력"), last_resort=True)
    #en| return value_mistake(got_, want_, axes=("B", "T", "out"), last_resort=True)


@exercise(
    "ch02-ex-queries",
    #ko| "세 단계입니다. 토큰을 번호로(vocab), 번호를 임베딩으로(table), "
    #ko| "임베딩을 쿼리로(W_Q) 바꿉니다.",
    #en| "three steps: tokens to numbers (vocab), numbers to embeddings (table), "
    #en| "embeddings to queries (W_Q).",
)
def ch02_ex_queries(vocab, table, W_Q, queries_for):
    #ko: 기준값은 이 장의 vocab, table, W_Q를 이 셀 안에서 따로 다시 만들어 계산합니다
    #ko: (답 칸에서 W_Q 같은 이름을 다시 정의해도 기준값은 그대로입니다)
    #en: the reference, from this chapter's vocab, table and W_Q made again in this
    #en: cell (an answer cell that redefines W_Q or another name leaves it as it is)
    vocab_ = {}
    for sentence_ in [["고양이는", "생선을", "먹는다"], ["cats", "eat", "fish"],
                      ["강아지는", "생선을", "먹는다"]]:
        for token_ in sentence_:
            vocab_.setdefault(token_, len(vocab_))
    with torch.random.fork_rng():
        torch.manual_seed(0)
        table_ = torch.randn(len(vocab_), 4).round(decimals=1)
        torch.manual_seed(0)
        W_Q_, W_K_, W_V_ = (torch.nn.Linear(4, 4, bias=False) for _ in range(3))

    def want_(tokens_):
        rows_ = table_[torch.tensor([vocab_[t_] for t_ in tokens_])]
        return rows_, W_Q_(rows_).detach()

    changed_ = [name_ for name_, (now_, made_) in {
        "vocab": (vocab, vocab_), "table": (table, table_),
        "W_Q": (getattr(W_Q, "weight", None), W_Q_.weight)}.items()
        if not (now_ == made_ if isinstance(made_, dict) else
                isinstance(now_, torch.Tensor) and now_.shape == made_.shape
                and torch.equal(now_, made_))]

    sentence_ = ["강아지는", "eat", "fish"]
    embeddings_, queries_ = want_(sentence_)
    C_ = queries_.size(-1)
    try:
        got_ = queries_for(sentence_)
    except IndexError:
        #ko| return ("토큰의 번호로 고르는 것은 table의 행(임베딩)입니다. "
        #ko|         "W_Q는 그다음, 임베딩을 쿼리로 바꿀 때 씁니다.")
        #en| return ("the token numbers pick rows of table (the embeddings); "
        #en|         "W_Q comes next, turning embeddings into queries.")
    except RuntimeError as error_:
        if "cannot be multiplied" not in str(error_):
            raise
        #ko| return (f"행렬 곱의 모양이 맞지 않습니다({error_}). 임베딩은 (토큰 수, C)로 "
        #ko|         "토큰마다 한 행이고, 선형 레이어에서는 입력의 행이 곱의 앞에 옵니다. "
        #ko|         "weight는 (출력, 입력) 순서로 저장됩니다.")
        #en| return (f"a matrix product does not fit ({error_}): the embeddings are "
        #en|         "(tokens, C), one row per token, and in a linear layer the input's "
        #en|         "rows come first in the product; weight is stored as (out, in).")
    if got_ is None:
        raise NotAnswered
    if changed_:
        names_ = ", ".join(changed_)
        #ko| return (f"이 장에서 만든 것과 달라진 이름: {names_}. "
        #ko|         "어느 셀(답 칸일 수도 있습니다)에서 "
        #ko|         "다시 정의되었습니다. 답 칸에서는 이 장의 것을 "
        #ko|         "그대로 쓰고, 위의 셀들을 처음부터 다시 실행하세요.")
        #en| return (f"{names_} is not the one this chapter made: a cell "
        #en|         "defined it again (the answer cell, perhaps). Use the "
        #en|         "chapter's as it is in the answer, and run the cells "
        #en|         "above again from the top.")
    if not isinstance(got_, torch.Tensor):
        #ko| return f"쿼리는 텐서 (3, {C_})여야 하는데 {type(got_).__name__}입니다."
        #en| return f"the queries must be a tensor (3, {C_}), got a {type(got_).__name__}."
    if tuple(got_.shape) == (1, 3, C_):
        #ko| return (f"모양이 (3, {C_})이어야 하는데 (1, 3, {C_})입니다. "
        #ko|         "이 함수는 문장 하나를 받으므로 배치 축이 없습니다.")
        #en| return (f"expected shape (3, {C_}), got (1, 3, {C_}): "
        #en|         "the function takes one sentence, so there is no batch axis.")
    if tuple(got_.shape) == (3,):
        #ko| return ("토큰의 번호입니다. 번호로 table에서 "
        #ko|         "임베딩을 꺼내고, 그것을 W_Q로 투영하세요.")
        #en| return ("these are the token numbers: look the embeddings "
        #en|         "up in table, then project them with W_Q.")
    if tuple(got_.shape) != (3, C_):
        #ko: 토큰 3개의 쿼리는 (3, C): 어느 축이 다른지, 값이 축만 바뀌었는지 말합니다
        #en: three tokens give (3, C): which axis differs, or the right values moved
        #ko| return value_mistake(got_, queries_, axes=("토큰", "C"))
        #en| return value_mistake(got_, queries_, axes=("tokens", "C"))
    if torch.allclose(got_, embeddings_):
        #ko| return ("임베딩까지 왔습니다. 마지막 단계, 임베딩을 "
        #ko|         "쿼리로(W_Q) 바꾸는 일이 남았습니다.")
        #en| return ("these are the embeddings: one step "
        #en|         "is left, embeddings to queries (W_Q).")
    if torch.allclose(got_, embeddings_ @ W_Q_.weight.detach()):
        #ko| return ("W_Q.weight를 전치 없이 곱했습니다. 레이어 "
        #ko|         "W_Q를 부르거나 weight.T를 곱하세요.")
        #en| return ("W_Q.weight is multiplied without a transpose: "
        #en|         "call the layer W_Q, or multiply by weight.T.")
    if not torch.allclose(got_, queries_, atol=1e-6):
        if torch.allclose(got_.sort(dim=0).values, queries_.sort(dim=0).values,
                          atol=1e-6):
            #ko| return ("쿼리는 맞지만 행의 순서가 다릅니다. "
            #ko|         "문장의 토큰 순서대로 한 행씩입니다.")
            #en| return ("the queries are right but the rows are in another "
            #en|         "order: one row per token, in the sentence's order.")
        shift_ = got_ - queries_
        if torch.allclose(shift_, shift_.mean().expand_as(shift_), atol=1e-5):
            #ko| return ("쿼리에 상수가 더해졌습니다. W_Q에는 편향이 없으므로 "
            #ko|         "W_Q를 곱한 그대로가 쿼리입니다.")
            #en| return ("a constant is added to the queries: W_Q has no bias, "
            #en|         "so the queries are its output as it is.")
        ratio_ = (got_ / queries_).flatten()
        if torch.allclose(ratio_, ratio_.mean().expand_as(ratio_), atol=1e-5):
            #ko| return (f"쿼리가 {ratio_.mean().item():.3g}배 "
            #ko|         "되었습니다. W_Q를 곱한 그대로가 쿼리입니다.")
            #en| return (f"the queries are scaled by {ratio_.mean().item():.3g}: "
            #en|         "the queries are the output of W_Q as it is.")
        slips_ = [
            (lambda: W_K_(embeddings_).detach(),
             #ko| "키입니다(W_K). 쿼리는 임베딩을 W_Q로 바꾼 것입니다."),
             #en| "these are keys (W_K); the queries are the embeddings through W_Q."),
            (lambda: W_V_(embeddings_).detach(),
             #ko| "밸류입니다(W_V). 쿼리는 임베딩을 W_Q로 바꾼 것입니다."),
             #en| "these are values (W_V); the queries are the embeddings through W_Q."),
        ]
        #ko| said_ = value_mistake(got_, queries_, slips_, axes=("토큰", "C"))
        #en| said_ = value_mistake(got_, queries_, slips_, axes=("tokens", "C"))
        if isinstance(said_, str) and not isinstance(said_, Also):
            return said_
        #ko: 각 행이 어느 토큰의 쿼리(또는 키, 밸류, 임베딩)인지
        #en: which token's query (or key, value, embedding) each row holds
        #ko| kinds_ = {"쿼리": W_Q_, "키": W_K_, "밸류": W_V_, "임베딩": lambda t_: t_}
        #en| kinds_ = {"query": W_Q_, "key": W_K_, "value": W_V_, "embedding": lambda t_: t_}
        tokens_ = list(vocab_)
        rows_ = []
        for r_ in range(got_.size(0)):
            rows_.append(next(((kind_, tokens_[i_]) for kind_, f_ in kinds_.items()
                               for i_ in range(len(tokens_))
                               if torch.allclose(got_[r_], f_(table_[i_]).detach(),
                                                 atol=1e-6)), None))
        #ko| want_kind_ = "쿼리"
        #en| want_kind_ = "query"
        wrong_rows_ = [(r_, *found_) for r_, found_ in enumerate(rows_)
                       if found_ and found_ != (want_kind_, sentence_[r_])]
        if wrong_rows_ and all(rows_):
            #ko| return Also(" ".join(f"행 {r_}: '{sentence_[r_]}'의 쿼리가 아니라 "
            #ko|                      f"'{t_}'의 {k_}입니다." for r_, k_, t_ in wrong_rows_)
            #ko|             + " 행 i는 문장의 i번째 토큰의 쿼리입니다. ")
            #en| return Also("; ".join(f"row {r_} is the {k_} of '{t_}', not the query "
            #en|                       f"of '{sentence_[r_]}'" for r_, k_, t_ in wrong_rows_)
            #en|             + ": row i is the query of the sentence's token i; ")
        #ko| return said_ or value_mistake(got_, queries_, axes=("토큰", "C"),
        #ko|                               last_resort=True)
        #en| return said_ or value_mistake(got_, queries_, axes=("tokens", "C"),
        #en|                               last_resort=True)
    #ko: 배치에 없는 문장, 토큰 수가 1개와 5개인 문장으로도 확인합니다
    #en: also sentences not in the batch, of 1 and of 5 tokens
    #ko: 그리고 뽑은 문장 하나(채점기에서는 학생이 본 적 없는 문장)
    #en: and a drawn one (in the grader, a sentence no student has seen)
    gen_ = check_generator(2)
    drawn_ = [list(vocab_)[i_] for i_ in torch.randint(
        len(vocab_), (int(torch.randint(2, 7, (), generator=gen_)),), generator=gen_).tolist()]
    for other_ in (["fish", "생선을"], ["먹는다"],
                   ["cats", "eat", "생선을", "fish", "cats"], drawn_):
        try:
            got_ = queries_for(other_)
        except (RuntimeError, ValueError, IndexError, KeyError, TypeError) as error_:
            #ko| return (f"예제에서는 돌아가지만 토큰 {len(other_)}개인 문장 {other_}에서는 "
            #ko|         f"오류가 납니다({type(error_).__name__}: {error_}). 토큰의 수를 "
            #ko|         "정해 두지 말고 "
            #ko|         "tokens의 토큰마다 한 행을 만드세요.")
            #en| return (f"it runs for the example, but for the {len(other_)}-token "
            #en|         f"sentence {other_} it raises {type(error_).__name__}: {error_}. "
            #en|         "Do not fix the number of tokens: "
            #en|         "make one row per token in tokens.")
        want_other_ = want_(other_)[1]
        if not isinstance(got_, torch.Tensor) or got_.shape != want_other_.shape:
            shape_ = (tuple(got_.shape) if isinstance(got_, torch.Tensor)
                      else type(got_).__name__)
            want_shape_ = tuple(want_other_.shape)
            #ko| return (f"토큰 {len(other_)}개인 문장 {other_}의 쿼리는 "
            #ko|         f"모양이 {want_shape_}이어야 하는데 {shape_}입니다. "
            #ko|         "함수는 토큰 수가 몇 개이든 토큰마다 한 행을 "
            #ko|         "돌려주어야 합니다.")
            #en| return (f"the queries of the {len(other_)}-token sentence "
            #en|         f"{other_} must have shape {want_shape_}, got {shape_}: "
            #en|         "the function must give one row per token, whatever "
            #en|         "the number of tokens.")
        if not torch.allclose(got_, want_other_, atol=1e-6):
            #ko| return (f"예의 문장에서는 맞지만 문장 {other_}에서는 값이 다릅니다. "
            #ko|         "문장마다 그 토큰들로 계산해야 합니다.")
            #en| return (f"right for the example, but the values differ for the sentence "
            #en|         f"{other_}: compute from that sentence's own tokens.")
    return True
