#ko: 4장 연습 문제의 확인들. 확인 셀 check("ch04-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 4's exercise checks, called by the check cells, check("ch04-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.
import torch


@exercise(
    "ch04-ex-stride",
    #ko| "먼저 (2, 5, 12)의 스트라이드를 적어 보세요. view는 특징 축 하나를 (H, D)로 "
    #ko| "나눌 뿐이고, transpose는 두 축의 크기와 스트라이드를 맞바꿀 뿐입니다.",
    #en| "start by writing down the strides of (2, 5, 12). view only splits the feature "
    #en| "axis into (H, D), and transpose only swaps the sizes and strides of two axes.",
)
def ch04_ex_stride(answer_shape, answer_stride):
    #ko: (2, 5, 12) -> view (2, 5, 3, 4) -> transpose(1, 2): 모양 (2, 3, 5, 4), 스트라이드
    #ko: (60, 4, 12, 1)
    #en: (2, 5, 12) -> view (2, 5, 3, 4) -> transpose(1, 2): shape (2, 3, 5, 4), strides
    #en: (60, 4, 12, 1)
    shape_, stride_ = as_shape(answer_shape), as_shape(answer_stride)
    said_ = ""
    if shape_ == (2, 5, 3, 4):
        #ko| said_ += ("(2, 5, 3, 4)는 transpose "
        #ko|           "전, view 직후의 모양입니다. ")
        #en| said_ += ("(2, 5, 3, 4) is the shape right after "
        #en|           "the view, before the transpose. ")
    elif shape_ in ((3, 2, 5, 4), (2, 5, 4, 3)):
        #ko| said_ += ("transpose(1, 2)는 0부터 센 1번과 2번 축, "
        #ko|           "곧 둘째와 셋째 축을 맞바꿉니다. ")
        #en| said_ += ("transpose(1, 2) swaps axes 1 and 2, counted "
        #en|           "from 0: the second and the third. ")
    if stride_ == (60, 20, 4, 1):
        #ko| said_ += ("(60, 20, 4, 1)은 (2, 3, 5, 4)를 새로 "
        #ko|           "만든 연속 텐서의 스트라이드입니다. "
        #ko|           "transpose는 메모리를 옮기지 않고 두 축의 스트라이드만 맞바꿉니다. ")
        #en| said_ += ("(60, 20, 4, 1) are the strides of a "
        #en|           "fresh contiguous (2, 3, 5, 4) tensor; "
        #en|           "transpose moves no memory, it only swaps two axes' strides. ")
    elif stride_ == (60, 12, 4, 1):
        #ko| said_ += ("(60, 12, 4, 1)은 transpose 전의 스트라이드입니다. "
        #ko|           "transpose(1, 2)는 둘째와 셋째를 맞바꿉니다. ")
        #en| said_ += ("(60, 12, 4, 1) are the strides before the transpose; "
        #en|           "transpose(1, 2) swaps the second and third. ")
    elif stride_ == (240, 16, 48, 4):
        #ko| said_ += "스트라이드는 바이트가 아니라 원소의 수로 셉니다. "
        #en| said_ += "strides count elements, not bytes. "
    elif stride_ == (60, 4, 12, 1)[::-1]:
        #ko| said_ += "스트라이드는 모양과 같은 축 순서로 적습니다. "
        #en| said_ += "strides are written in the same axis order as the shape. "
    if not said_:
        said_ = shape_difference(shape_, (2, 3, 5, 4), "B H T D", {"C": 12})
    #ko: 축마다 한 칸 움직일 때 건너뛰는 원소의 수
    #en: how many elements one step along each axis skips
    #ko| steps_ = (("B", "문장 하나, 5 × 12"), ("H", "헤드 하나의 특징 D = 4"),
    #ko|           ("T", "토큰 하나의 특징 12"), ("D", "특징 하나"))
    #en| steps_ = (("B", "one sentence, 5 × 12"), ("H", "one head's D = 4 features"),
    #en|           ("T", "one token's 12 features"), ("D", "one feature"))
    if not said_ and len(stride_) != 4:
        #ko| said_ = (f"축이 4개이므로 스트라이드도 4개입니다. "
        #ko|          f"답에는 {len(stride_)}개입니다. ")
        #en| said_ = (f"four axes have four strides; "
        #en|          f"this answer has {len(stride_)}. ")
    for i_, (right_, (axis_, what_)) in enumerate(zip((60, 4, 12, 1), steps_)):
        if not said_ and len(stride_) == 4 and stride_[i_] != right_:
            #ko| said_ = (f"축 {i_}({axis_})의 스트라이드가 {stride_[i_]}입니다. "
            #ko|          f"{axis_} 축을 따라 한 칸 가면 {what_}만큼, "
            #ko|          f"곧 원소 {right_}개를 건너뜁니다. ")
            #en| said_ = (f"the stride of axis {i_} ({axis_}) is {stride_[i_]}; "
            #en|          f"one step along {axis_} skips {what_}, "
            #en|          f"that is {right_} elements. ")
    parts_ = parts_wrong(answer_shape=(shape_, (2, 3, 5, 4)), answer_stride=(stride_,
                                                                             (60, 4, 12,
                                                                              1)))
    return Also(said_ + parts_) if said_ and parts_ is not True else parts_


@exercise(
    "ch04-ex-merge",
    #ko| "reshape도 view처럼 축 순서를 바꾸지 않고, 지금의 축 순서대로 수를 "
    #ko| "다시 읽을 뿐입니다(연속인 텐서에서는 그것이 메모리 순서입니다). "
    #ko| "토큰 하나의 특징 C개가 (H, D)에서 나오려면, "
    #ko| "합치기 직전의 축 순서는 어때야 하나요?",
    #en| "like view, reshape never reorders axes: it re-reads the numbers in the "
    #en| "tensor's current axis order (memory order, for a contiguous tensor). "
    #en| "For one token's C features to come from (H, D), in what order must the axes "
    #en| "be just before the merge?",
)
def ch04_ex_merge(join_heads):
    check_seed(4)
    fresh_ = torch.randn(2, 3, 4, 5)                     # (B, H, T, D) = (2, 3, 4, 5)
    #ko: 기준값: 헤드들의 결과를 특징 축으로 이어 붙입니다
    #en: the reference: the heads' results concatenated along the feature axis
    joined_ = torch.cat(fresh_.unbind(1), dim=-1)   # H x (B, T, D) -> (B, T, H * D)
    kept_ = fresh_.clone()
    try:
        got_ = join_heads(fresh_)
    except RuntimeError as error:
        if "is invalid for input of size" in str(error):
            #ko| return (f"새 모양의 크기가 입력과 맞지 않습니다({error}). 확인에 쓰는 h는 "
            #ko|         "(B, H, T, D) = (2, 3, 4, 5)입니다. 예제의 숫자로 적은 크기는 "
            #ko|         "예제에만 맞으니, 크기를 h.shape에서 읽으세요.")
            #en| return (f"the new shape's sizes do not fit the input ({error}); the "
            #en|         "check's h is (B, H, T, D) = (2, 3, 4, 5). Sizes written as the "
            #en|         "example's numbers fit the example only: read them from h.shape.")
        if "view" not in str(error):
            raise
        #ko| return ("transpose 바로 뒤의 텐서는 연속이 아니라서 "
        #ko|         "view로 축을 합칠 수 없습니다. 축 순서는 맞습니다. "
        #ko|         ".contiguous().view(...)나 reshape(...)를 쓰세요.")
        #en| return ("right after transpose the tensor is not contiguous, "
        #en|         "so view cannot merge axes. The axis order is right: "
        #en|         "use .contiguous().view(...) or reshape(...).")
    if fresh_.shape != kept_.shape or not torch.equal(fresh_, kept_):
        #ko| return ("join_heads가 입력 h를 제자리에서 바꿨습니다(transpose_처럼 _로 끝나는 "
        #ko|         "연산). 부른 쪽의 h까지 달라집니다. 새 텐서를 돌려주는 transpose를 "
        #ko|         "쓰고 h는 그대로 두세요.")
        #en| return ("join_heads changed its input h in place (an op ending in _, such as "
        #en|         "transpose_), so the caller's h changes too: use transpose, which "
        #en|         "returns a new tensor, and leave h as it was.")
    wrong_shape_ = shape_mistake(got_, joined_, "B T C", {"H": 3, "D": 5})
    if wrong_shape_:
        return wrong_shape_
    if torch.equal(got_, fresh_.reshape(2, 4, 15)):
        #ko| return ("(B, H, T, D)를 축 순서 그대로 다시 읽어서 토큰과 헤드가 섞였습니다. "
        #ko|         "헤드 축이 D 바로 앞에 오도록 축을 옮긴 뒤 합치세요.")
        #en| return ("(B, H, T, D) re-read in its own axis order mixes tokens and heads: "
        #en|         "move the head axis next to D first, then merge.")
    if torch.equal(got_, fresh_.permute(0, 2, 3, 1).reshape(2, 4, 15)):
        #ko| return ("토큰은 맞게 모았지만 특징이 (D, H) 순서로 "
        #ko|         "섞였습니다. 헤드 하나의 특징 D개가 "
        #ko|         "붙어 있도록 (B, T, H, D)에서 합치세요.")
        #en| return ("the tokens are gathered, but the features "
        #en|         "come in (D, H) order: merge from "
        #en|         "(B, T, H, D), so that one head's D features stay together.")
    if torch.equal(got_, fresh_.transpose(2, 3).reshape(2, 4, 15)) or torch.equal(
            got_, fresh_.transpose(1, 3).reshape(2, 4, 15)):
        #ko| return ("옮긴 축이 다릅니다. 헤드 축(1)과 토큰 "
        #ko|         "축(2)을 맞바꿔 (B, T, H, D)로 만든 뒤 "
        #ko|         "합치세요.")
        #en| return ("the wrong axes were moved: swap the head "
        #en|         "axis (1) and the token axis (2) to get "
        #en|         "(B, T, H, D), then merge.")
    if torch.equal(got_, joined_):
        #ko: 다른 크기로 한 번 더: 크기는 h에서 읽어야 합니다
        #en: once more with other sizes: the sizes come from h
        other_ = torch.randn(1, 2, 3, 4)
        want_other_ = torch.cat(other_.unbind(1), dim=-1)
        try:
            got_other_ = join_heads(other_)
        except RuntimeError as error_:
            got_other_ = error_
        if not (isinstance(got_other_, torch.Tensor)
                and torch.equal(got_other_, want_other_)):
            said_ = (f"{tuple(got_other_.shape)}"
                     if isinstance(got_other_, torch.Tensor)
                     else f"{type(got_other_).__name__}: {got_other_}")
            #ko| return ("(B, H, T, D) = (2, 3, 4, 5)에서는 맞지만 (1, 2, 3, 4)에서는 "
            #ko|         f"(1, 3, 8)이 아니라 {said_}입니다. 크기를 예제의 숫자로 적지 말고 "
            #ko|         "h.shape에서 읽으세요.")
            #en| return ("right for (B, H, T, D) = (2, 3, 4, 5), but for (1, 2, 3, 4) it "
            #en|         f"gives {said_} where (1, 3, 8) belongs: read the sizes from "
            #en|         "h.shape, not the example's numbers.")
        return True
    #ko: 답의 값마다 h의 어느 자리에서 왔는지(h의 값은 모두 다릅니다)
    #en: where each value of the answer comes from in h (h's values all differ)
    flat_ = fresh_.flatten()
    order_ = flat_.argsort()
    at_ = torch.searchsorted(flat_[order_], got_.flatten()).clamp(max=flat_.numel() - 1)
    src_ = order_[at_]
    if torch.equal(flat_[src_], got_.flatten()):
        b_, h_, t_, d_ = (i_.view(got_.shape) for i_ in
                          torch.unravel_index(src_, fresh_.shape))
        rows_b_ = torch.arange(2)[:, None, None].expand(got_.shape)
        rows_t_ = torch.arange(4)[None, :, None].expand(got_.shape)
        if not torch.equal(b_, rows_b_):
            wb_, wt_ = [int(i_) for i_ in (b_ != rows_b_).nonzero()[0][:2]]
            from_ = sorted(set(b_[wb_, wt_].tolist()))
            #ko| return Also(f"답의 문장 {wb_}, 토큰 {wt_}에 입력의 문장 {from_}의 값이 "
            #ko|             "있습니다. 배치 축(문장)이 섞였습니다. ")
            #en| return Also(f"sentence {wb_}, token {wt_} of the answer holds values of "
            #en|             f"the input's sentences {from_}: the batch axis got mixed; ")
        if not torch.equal(t_, rows_t_):
            wb_, wt_ = [int(i_) for i_ in (t_ != rows_t_).nonzero()[0][:2]]
            from_ = sorted(set(t_[wb_, wt_].tolist()))
            heads_ = sorted(set(h_[wb_, wt_].tolist()))
            #ko| return Also(f"답의 토큰 {wt_}(문장 {wb_})에 입력의 토큰 {from_}의 특징이 "
            #ko|             f"있습니다(헤드 {heads_}). 토큰 t의 C개 특징은 모두 입력의 "
            #ko|             "토큰 t에서 와야 합니다. ")
            #en| return Also(f"token {wt_} of the answer (sentence {wb_}) holds features of "
            #en|             f"the input's tokens {from_} (heads {heads_}); all C features "
            #en|             "of token t must come from the input's token t; ")
    #ko: 토큰마다 특징이 모두 있는데 순서만 다른지, 다른 토큰의 특징이 섞였는지
    #en: does each token hold all its own features in another order, or features of other
    #en: tokens?
    if torch.equal(got_.sort(dim=-1).values, joined_.sort(dim=-1).values):
        #ko| return ("토큰마다 자기 특징은 모두 있지만 순서가 "
        #ko|         "다릅니다. 헤드 0의 D개, 헤드 1의 D개, ... "
        #ko|         "순서가 되도록 (B, T, H, D)에서 합치세요.")
        #en| return ("each token holds all its own features, in "
        #en|         "another order: merge from (B, T, H, D), "
        #en|         "so that head 0's D features come first, then head 1's, and so on.")
    moved_ = value_mistake(got_, joined_, axes="B T C", sizes={"H": 3, "D": 5})
    if moved_:
        return moved_
    if not torch.equal(got_.flatten().sort().values, joined_.flatten().sort().values):
        #ko| said_ = value_mistake(got_, joined_, axes=("B", "T", "C"), last_resort=True)
        #ko| return ("입력에 없던 값이 있습니다. 헤드를 합치는 일은 값을 옮기기만 하고, "
        #ko|         f"새 값을 계산하지 않습니다. {said_}")
        #en| said_ = value_mistake(got_, joined_, axes=("B", "T", "C"), last_resort=True)
        #en| return ("the answer holds values the input does not: merging heads only "
        #en|         f"moves values, it computes no new ones; {said_}")
    #ko| return ("다른 토큰의 특징이 섞였습니다. 합치기 "
    #ko|         "직전의 축 순서가 (B, T, H, D)인지, "
    #ko|         "어느 두 축을 맞바꿨는지 확인하세요.")
    #en| return ("features of other tokens got mixed in: "
    #en|         "check that the axes are (B, T, H, D) just "
    #en|         "before the merge, and which two axes you swapped.")


@exercise(
    "ch04-ex-qkv",
    #ko| "마지막 축 3C는 (쿼리/키/밸류 3개) × (헤드 H개) × (특징 D개)로 "
    #ko| "이루어져 있습니다. 나누는 view는 언제나 되니, 이 구조대로 나눈 뒤 "
    #ko| "축들을 (3, B, H, T, D) 순서로 옮겨 보세요.",
    #en| "the last axis 3C is made of (3: query/key/value) × (H heads) × (D features). "
    #en| "A view that splits an axis always works, so split it that way, then move "
    #en| "the axes into the order (3, B, H, T, D).",
)
def ch04_ex_qkv(qkv_to_heads):
    check_seed(5)
    for B_, T_, C_qkv_, H_qkv_ in [(2, 4, 6, 3), (2, 4, 8, 2), (3, 2, 6, 2)]:
        qkv_ex_ = torch.randn(B_, T_, 3 * C_qkv_)   # (B, T, 3C)
        D_ = C_qkv_ // H_qkv_
        # 3 x (B, H, T, D)
        expected_qkv_ = [t.view(B_, T_, H_qkv_, D_).transpose(1, 2)
                         for t in qkv_ex_.split(C_qkv_, dim=-1)]
        try:
            got_ = qkv_to_heads(qkv_ex_, H_qkv_)
        except RuntimeError as error_:
            if "is invalid for input of size" in str(error_) and B_ == 3:
                #ko| return ("(B, T) = (2, 4)에서는 맞지만, qkv가 (3, 2, 18)이면 새 모양의 "
                #ko|         f"크기가 원소의 수와 맞지 않습니다({error_}). B와 T를 예제의 "
                #ko|         "숫자로 적지 말고 qkv.shape에서 읽으세요.")
                #en| return ("right for (B, T) = (2, 4), but with qkv of (3, 2, 18) the new "
                #en|         f"shape does not fit the elements ({error_}): read B and T "
                #en|         "from qkv.shape, not the example's numbers.")
            if "is invalid for input of size" in str(error_):
                #ko| return (f"새 모양의 크기를 곱한 값이 원소의 수와 맞지 않습니다. "
                #ko|         f"qkv는 (B, T, 3C) = {tuple(qkv_ex_.shape)}이고 "
                #ko|         "3C = 3 × H × D입니다. D는 C // H입니다.")
                #en| return (f"the sizes of the new shape do not multiply to the number of "
                #en|         f"elements: qkv is (B, T, 3C) = {tuple(qkv_ex_.shape)}, "
                #en|         "3C = 3 × H × D, and D is C // H.")
            if "view size is not compatible" in str(error_):
                #ko| return ("잘라 낸 조각은 메모리에서 연속이 아니라 view로 "
                #ko|         "나눌 수 없습니다. 먼저 마지막 축 전체를 "
                #ko|         "(B, T, 3, H, D)로 view한 다음 축을 옮기세요.")
                #en| return ("a slice of the last axis is not contiguous, "
                #en|         "so view cannot split it: view the whole "
                #en|         "last axis as (B, T, 3, H, D) first, then move the axes.")
            raise
        except (ValueError, IndexError, TypeError) as error_:
            if "NoneType" in str(error_) or "ellipsis" in str(error_):
                raise
            #ko| return (f"qkv가 {tuple(qkv_ex_.shape)}, n_head = {H_qkv_}(C = {C_qkv_}, "
            #ko|         f"D = {D_})이면 오류가 납니다({type(error_).__name__}: {error_}). "
            #ko|         "예제의 숫자로 적은 크기는 예제에만 맞습니다. C와 D는 "
            #ko|         "qkv.shape에서 읽고, 헤드 수는 인자 n_head를 쓰세요.")
            #en| return (f"with qkv of {tuple(qkv_ex_.shape)} and n_head = {H_qkv_} "
            #en|         f"(C = {C_qkv_}, D = {D_}) it raises {type(error_).__name__}: "
            #en|         f"{error_}. A size written as the example's number fits it "
            #en|         "only: read C and D from qkv.shape and use the argument n_head.")
        if got_ is None or got_ is Ellipsis:
            raise NotAnswered
        if isinstance(got_, torch.Tensor) and got_.dim() == 4:
            #ko| return (f"텐서 하나(모양 {tuple(got_.shape)})만 돌려주었습니다. "
            #ko|         "쿼리, 키, 밸류 세 텐서 (B, H, T, D)를 돌려주세요.")
            #en| return (f"this returns one tensor, {tuple(got_.shape)}; "
            #en|         "return three tensors (B, H, T, D): the queries, keys and values.")
        if isinstance(got_, torch.Tensor) and got_.dim() == 5 and got_.size(0) != 3:
            #ko| return (f"텐서 하나를 돌려주었습니다({tuple(got_.shape)}). 첫 축(크기 "
            #ko|         f"{got_.size(0)})은 q, k, v 셋으로 풀리지 않습니다. 셋이 첫 축에 "
            #ko|         "오도록 (3, B, H, T, D) 순서여야 합니다.")
            #en| return (f"this returns one tensor, {tuple(got_.shape)}, whose first axis "
            #en|         f"has {got_.size(0)} entries, so it does not unpack into q, k, v: "
            #en|         "the three must be the first axis, (3, B, H, T, D).")
        if len(got_) != 3:
            #ko| return (f"q, k, v 세 텐서를 돌려주어야 하는데 {len(got_)}개입니다.")
            #en| return (f"return the three tensors q, k, v; got {len(got_)}.")
        for g_, w_ in zip(got_, expected_qkv_, strict=True):
            wrong_shape_ = shape_mistake(g_, w_, "B H T D", {"C": C_qkv_})
            if wrong_shape_ and tuple(g_.shape) == (B_, T_, H_qkv_, D_):
                #ko| return Also(wrong_shape_ + "(B, T, H, D)에서 멈췄습니다. "
                #ko|             "헤드 축을 토큰 축 앞으로 옮기세요(transpose(1, 2)). ")
                #en| return Also(wrong_shape_ + "this is (B, T, H, D): move the head "
                #en|             "axis before the token axis (transpose(1, 2)). ")
            if wrong_shape_:
                return value_mistake(g_, w_, axes="B H T D", sizes={"C": C_qkv_})
        # (B, T, H, 3, D) -> (3, B, H, T, D)
        heads_first_ = qkv_ex_.view(B_, T_, H_qkv_, 3, D_).permute(3, 0, 2, 1, 4)
        if all(torch.equal(g, w) for g, w in zip(got_, heads_first_)):
            #ko| return ("특징은 [쿼리 C개 | 키 C개 | 밸류 C개] 순서입니다. "
            #ko|         "view(B, T, 3, H, D)처럼 3을 H보다 앞에 두세요.")
            #en| return ("the features are laid out [C query | C key | C value]: "
            #en|         "view as (B, T, 3, H, D), with the 3 before the H.")
        #ko: (B, 3, H, T, D): 특징을 다른 순서로 읽은 것
        #en: (B, 3, H, T, D): the features read in the wrong order
        wrong_view_ = qkv_ex_.view(B_, 3, H_qkv_, T_, D_).transpose(0, 1)
        if all(torch.equal(g, w) for g, w in zip(got_, wrong_view_)):
            #ko| return ("view(B, 3, H, T, D)는 메모리를 다른 "
            #ko|         "순서로 읽어 토큰과 특징이 섞입니다. "
            #ko|         "마지막 축만 (3, H, D)로 나눈 (B, T, "
            #ko|         "3, H, D)에서 시작해 축을 옮기세요.")
            #en| return ("view(B, 3, H, T, D) reads memory in another "
            #en|         "order and mixes tokens and features: "
            #en|         "split only the last axis, (B, "
            #en|         "T, 3, H, D), then move the axes.")
        # 3 x (B, T, C) -> (B, H, T, D) with no transpose
        no_transpose_ = [t.reshape(B_, H_qkv_, T_, D_)
                         for t in qkv_ex_.split(C_qkv_, -1)]
        if all(torch.equal(g, w) for g, w in zip(got_, no_transpose_)):
            #ko| return ("(B, T, C)를 바로 (B, H, T, D)로 나누면 토큰과 헤드가 섞입니다. "
            #ko|         "(B, T, H, D)로 나눈 뒤 축의 순서를 바꾸세요.")
            #en| return ("cutting (B, T, C) straight into (B, H, T, D) mixes tokens and "
            #en|         "heads: cut into (B, T, H, D), then change the order of the axes.")
        if not all(torch.equal(g, w) for g, w in zip(got_, expected_qkv_, strict=True)):
            if any(
                    all(torch.equal(g, expected_qkv_[i]) for g, i in zip(got_, order_))
                    for order_ in [(0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1,
                                                                                0)]):
                #ko| return ("세 텐서는 맞지만 순서가 다릅니다. "
                #ko|         "(q, k, v) 순서로 돌려주세요.")
                #en| return ("the three tensors are right but in "
                #en|         "another order: return (q, k, v).")
            swapped_ = qkv_ex_.view(B_, T_, 3, D_, H_qkv_).transpose(-2, -1)
            swapped_ = swapped_.permute(2, 0, 3, 1, 4)
            if all(torch.equal(g, w) for g, w in zip(got_, swapped_)):
                #ko| return ("헤드 H와 특징 D의 순서가 "
                #ko|         "바뀌었습니다. 한 조각 C는 (H, D), "
                #ko|         "곧 헤드마다 D개의 특징이 붙어 있습니다.")
                #en| return ("the heads H and the features D are "
                #en|         "swapped: one piece of C is (H, D), "
                #en|         "each head's D features side by side.")
            #ko| names_ = ("쿼리", "키", "밸류")
            #en| names_ = ("queries", "keys", "values")
            for g_, w_, what_ in zip(got_, expected_qkv_, names_):
                moved_ = value_mistake(g_, w_, axes="B H T D", sizes={"C": C_qkv_})
                if moved_:
                    return Also(f"{what_}: {moved_}")
            #ko: 세 텐서를 함께 (3, B, H, T, D)로 놓고 봅니다
            #en: the three tensors together, as (3, B, H, T, D)
            moved_ = value_mistake(torch.stack(list(got_)), torch.stack(expected_qkv_),
                                   axes="3 B H T D", sizes={"C": C_qkv_})
            if moved_:
                return moved_
            #ko| return value_mistake(torch.stack(list(got_)), torch.stack(expected_qkv_),
            #ko|                      axes="3 B H T D", last_resort=True)
            #en| return value_mistake(torch.stack(list(got_)), torch.stack(expected_qkv_),
            #en|                      axes="3 B H T D", last_resort=True)
    return True
