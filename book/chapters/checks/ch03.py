#ko: 3장 연습 문제의 확인들. 확인 셀 check("ch03-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 3's exercise checks, called by the check cells, check("ch03-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.
import torch
import torch.nn as nn


@exercise(
    "ch03-ex-pieces",
    #ko| "split(n)은 크기 n짜리 조각을 앞에서부터 자르고 "
    #ko| "남은 것을 마지막에 줍니다. "
    #ko| "chunk(k)는 먼저 조각 크기를 ceil(길이 / k)로 정한 뒤 같은 방식으로 자릅니다.",
    #en| "split(n) cuts pieces of size n from the front "
    #en| "and gives the rest to the last piece. "
    #en| "chunk(k) first sets the piece size to ceil(length / k), then cuts the same way.",
)
def ch03_ex_pieces(answer_chunk, answer_split):
    #ko: (2, 5, 14)를 chunk(3)과 split(4)로 자른 조각의 차원은
    #ko: [5, 5, 4]와 [4, 4, 4, 2]입니다
    #en: (2, 5, 14) cut by chunk(3) and split(4) gives widths [5, 5, 4] and [4, 4, 4, 2]
    if answer_chunk is None or answer_split is None:
        raise NotAnswered
    if not all(isinstance(a_, (list, tuple)) for a_ in (answer_chunk, answer_split)):
        #ko| return ("조각의 수가 아니라 조각 하나의 차원을 "
        #ko|         "[5, 5, 4]처럼 리스트로 적으세요.")
        #en| return ("write the width of each piece as a list, "
        #en|         "like [5, 5, 4], not the number of pieces.")
    chunk_, split_ = list(answer_chunk), list(answer_split)
    said_ = ""
    if chunk_ == [4, 4, 4, 2] and split_ == [5, 5, 4]:
        #ko| said_ = ("두 답이 바뀌었습니다. chunk(3)은 조각 "
        #ko|          "3개, split(4)는 크기 4짜리 조각입니다. ")
        #en| said_ = ("the two answers are swapped: chunk(3) "
        #en|          "makes 3 pieces, split(4) pieces of size 4. ")
    elif chunk_ == [5, 5, 5]:
        #ko| said_ = "5 * 3 = 15는 14보다 큽니다. 마지막 조각은 남은 만큼만 받습니다. "
        #en| said_ = "5 * 3 = 15 is more than 14: the last piece gets only what is left. "
    elif sorted(chunk_) == [4, 5, 5] and chunk_ != [5, 5, 4]:
        #ko| said_ = "chunk는 앞에서부터 같은 크기로 자르므로 짧은 조각이 맨 끝에 옵니다. "
        #en| said_ = "chunk cuts equal pieces from the front, so the short one comes last. "
    elif chunk_ in ([4, 4, 6], [4, 4, 4, 2], [4, 5, 5, 0]):
        #ko| said_ = "chunk(3)의 조각 크기는 ceil(14 / 3) = 5입니다. "
        #en| said_ = "chunk(3) cuts pieces of ceil(14 / 3) = 5. "
    elif chunk_ == [3, 3, 3, 3, 2]:
        #ko| said_ = "chunk(3)은 크기 3짜리 조각이 아니라 조각 3개를 만듭니다. "
        #en| said_ = "chunk(3) makes 3 pieces, not pieces of size 3. "
    if not said_ and split_ in ([4, 4, 4, 4], [4, 4, 4]):
        #ko| said_ = "14 = 4 + 4 + 4 + 2: 마지막 조각은 남은 2입니다. "
        #en| said_ = "14 = 4 + 4 + 4 + 2: the last piece is the 2 left over. "
    elif not said_ and split_ in ([3, 4, 4, 3], [4, 3, 4, 3], [3, 3, 4, 4],
                                  [4, 4, 3, 3], [3, 3, 3, 3, 2]):
        #ko| said_ = ("split(4)는 크기 4짜리를 앞에서부터 "
        #ko|          "자르고 남은 것을 마지막에 줍니다. ")
        #en| said_ = ("split(4) cuts pieces of 4 from the "
        #en|          "front and gives the rest to the last. ")
    elif not said_ and split_ == [4, 10]:
        #ko| said_ = ("split(4)는 4번 자리에서 한 번 자르지 않고 "
        #ko|          "크기 4짜리 조각으로 자릅니다. ")
        #en| said_ = ("split(4) cuts pieces of size 4, "
        #en|          "not once at index 4. ")
    #ko: 목록에 없는 답: 조각의 수, 차원의 합, 순서로 무엇이 다른지 말합니다
    #en: an answer not in the lists: told by its number of pieces, total and order
    for name_, got_w_, want_w_ in (("chunk(3)", chunk_, [5, 5, 4]),
                                   ("split(4)", split_, [4, 4, 4, 2])):
        if said_ or got_w_ == want_w_:
            continue
        if any(isinstance(n_, (tuple, list, torch.Size)) for n_ in got_w_):
            #ko| said_ = (f"{name_}: 조각마다 모양 전체가 아니라 마지막 축의 크기(차원) "
            #ko|          "하나만 적습니다. ")
            #en| said_ = (f"{name_}: write one number per piece, the size of its last "
            #en|          "axis (its width), not its whole shape. ")
        elif not all(isinstance(n_, int) for n_ in got_w_):
            #ko| said_ = (f"{name_}: 조각의 차원은 정수입니다. "
            #ko|          "특징을 쪼개지 않고 통째로 나눠 담습니다. ")
            #en| said_ = (f"{name_}: widths are whole numbers; "
            #en|          "each piece holds whole features. ")
        elif len(got_w_) != len(want_w_):
            #ko| said_ = (f"{name_}: 조각이 {len(want_w_)}개 나오는데, "
            #ko|          f"답에는 {len(got_w_)}개입니다. ")
            #en| said_ = (f"{name_}: it gives {len(want_w_)} pieces here; "
            #en|          f"this answer has {len(got_w_)}. ")
        elif sum(got_w_) != 14:
            #ko| said_ = (f"{name_}: 차원을 더하면 {sum(got_w_)}인데, 마지막 축의 "
            #ko|          "길이는 14입니다. 조각들은 특징을 하나씩 모두 담습니다. ")
            #en| said_ = (f"{name_}: the widths add up to {sum(got_w_)}, but the last "
            #en|          "axis is 14 long; the pieces hold every feature once. ")
        elif sorted(got_w_) == sorted(want_w_):
            #ko| said_ = (f"{name_}: 차원들은 맞지만 순서가 다릅니다. "
            #ko|          "앞에서부터 자르므로 남은 짧은 조각이 마지막입니다. ")
            #en| said_ = (f"{name_}: the widths are right but in another order; "
            #en|          "pieces are cut from the front, so the short rest comes last. ")
        else:
            at_ = next(i_ for i_, (g_, w_) in enumerate(zip(got_w_, want_w_))
                       if g_ != w_)
            #ko| said_ = (f"{name_}: 조각의 수와 합은 맞지만, 조각 {at_}의 차원이 "
            #ko|          f"{got_w_[at_]}입니다. 맞는 차원은 {want_w_[at_]}입니다. 마지막 "
            #ko|          f"조각 말고는 모두 {want_w_[0]}입니다. ")
            #en| said_ = (f"{name_}: the number of pieces and the total are right, but "
            #en|          f"piece {at_} is {got_w_[at_]} wide where {want_w_[at_]} belongs; "
            #en|          f"every piece but the last is {want_w_[0]} wide. ")
    parts_ = parts_wrong(answer_chunk=(chunk_, [5, 5, 4]),
                         answer_split=(split_, [4, 4, 4, 2]))
    return Also(said_ + parts_) if said_ and parts_ is not True else parts_


@exercise(
    "ch03-ex-sections",
    #ko| "d_v가 d_k와 다르면 세 조각의 차원이 같지 않습니다. "
    #ko| "조각의 개수만 받는 함수는 그 차원들을 알 수 없습니다. "
    #ko| "조각마다 크기를 알려 줄 방법을 찾아보세요.",
    #en| "when d_v differs from d_k the three pieces are not equally wide, "
    #en| "and a function that only takes the number of pieces cannot know their widths. "
    #en| "Look for a way to give the size of each piece.",
)
def ch03_ex_sections(split_qkv):
    check_seed(4)
    for dk_, dv_ in [(4, 4), (2, 5), (3, 1)]:
        y_ = torch.randn(2, 3, 2 * dk_ + dv_)
        want_ = (y_[..., :dk_], y_[..., dk_:2 * dk_], y_[..., 2 * dk_:])
        try:
            got_ = split_qkv(y_, dk_, dv_)
        except RuntimeError as error_:
            import re

            found_ = re.search(r"dimension (-?\d+)\), but got "
                               r"split_sizes=\[([\d, ]*)\]", str(error_))
            if found_:
                axis_ = int(found_.group(1))
                sizes_ = [int(n_) for n_ in found_.group(2).split(",") if n_.strip()]
                #ko: 답이 쓴 크기가 d_k, d_v의 어떤 조합인지
                #en: which mix of d_k and d_v the answer's sizes are
                #ko| named_ = {dv_: "d_v", dk_: "d_k"}
                #en| named_ = {dv_: "d_v", dk_: "d_k"}
                said_ = ", ".join(named_.get(n_, str(n_)) for n_ in sizes_)
                if axis_ not in (-1, 2):
                    #ko| return (f"자른 축이 축 {axis_}(길이 {y_.size(axis_)})입니다. "
                    #ko|         "q, k, v는 마지막 축(특징)에 나란히 있습니다.")
                    #en| return (f"this cuts along axis {axis_} (length {y_.size(axis_)}); "
                    #en|         "q, k and v lie side by side along the last axis, "
                    #en|         "the features.")
                if any(n_ not in named_ for n_ in sizes_):
                    #ko| return (f"d_k={dk_}, d_v={dv_}일 때 크기가 {sizes_}입니다. "
                    #ko|         "이 크기는 d_k, d_v에서 나오지 않습니다. 예제의 "
                    #ko|         "숫자를 그대로 쓰지 말고 인자로 계산하세요.")
                    #en| return (f"with d_k={dk_} and d_v={dv_} the sizes are {sizes_}, "
                    #en|         "which do not come from d_k and d_v: compute them "
                    #en|         "from the arguments, not the example's numbers.")
                #ko| return (f"크기 [{said_}] = {sizes_}의 합은 {sum(sizes_)}인데, 마지막 "
                #ko|         f"축의 길이는 2 * d_k + d_v = {2 * dk_ + dv_}입니다. "
                #ko|         "순서대로 쿼리, 키, 밸류의 차원입니다.")
                #en| return (f"the sizes are [{said_}] = {sizes_}, adding up to "
                #en|         f"{sum(sizes_)}, but the last axis is 2 * d_k + d_v = "
                #en|         f"{2 * dk_ + dv_} long; they are the widths of query, key "
                #en|         "and value, in that order.")
            if "split_with_sizes" in str(error_) or "split_size" in str(error_):
                #ko| return ("크기 [d_k, d_k, d_v]의 합 "
                #ko|         f"{2 * dk_ + dv_}, 곧 마지막 축의 길이입니다. "
                #ko|         "마지막 축(dim=-1)을 따라 자르세요.")
                #en| return ("the sizes [d_k, d_k, d_v] add up to "
                #en|         f"{2 * dk_ + dv_}, the length of the last "
                #en|         "axis: cut along the last axis (dim=-1).")
            raise
        except ValueError as error_:
            if "unpack" in str(error_):
                #ko| return ("조각이 3개가 아니라서 q, k, v로 풀 수 "
                #ko|         "없습니다. split(n)에 정수 하나를 주면 "
                #ko|         "크기 n짜리 조각을 끝까지 "
                #ko|         "자릅니다. 조각마다 크기를 주세요.")
                #en| return ("the pieces are not three, so they do not "
                #en|         "unpack into q, k, v: split(n) with one "
                #en|         "number cuts pieces of size n all "
                #en|         "the way. Give each piece its size.")
            raise
        if got_ is None:
            raise NotAnswered
        if not all(isinstance(t_, torch.Tensor) for t_ in got_):
            kinds_ = ", ".join(type(t_).__name__ for t_ in got_)
            #ko| return (f"세 조각은 qkv를 자른 텐서여야 합니다. 지금 돌려준 것: {kinds_}. "
            #ko|         "차원의 크기가 아니라, 그 크기로 잘라 낸 텐서를 돌려주세요.")
            #en| return (f"the three pieces must be tensors cut from qkv, got {kinds_}: "
            #en|         "return the pieces cut at those widths, not the widths.")
        if len(got_) != 3:
            #ko| return ("조각 3개(q, k, v)를 돌려주어야 하는데 "
            #ko|         f"{len(got_)}개입니다. split(n)에 정수 하나를 "
            #ko|         "주면 크기 n짜리 조각을 모두 자릅니다. 조각마다 크기를 주세요.")
            #en| return ("return three pieces (q, k, v), got "
            #en|         f"{len(got_)}: split(n) with one number cuts "
            #en|         "every piece of size n. Give each piece its size.")
        widths_ = [t.size(-1) for t in got_]
        if (widths_ == [dk_, dk_, dk_] and dk_ != dv_ and torch.equal(got_[0], want_[0])
                and torch.equal(got_[1], want_[1])):
            #ko| return (f"쿼리와 키는 맞았습니다. 밸류는 d_v={dv_}이므로 "
            #ko|         "2 * d_k 뒤의 나머지 전부, qkv[..., 2 * d_k:]입니다.")
            #en| return (f"the query and key are right; the value is d_v={dv_} wide: "
            #en|         "everything after 2 * d_k, qkv[..., 2 * d_k:].")
        if len(set(widths_)) == 1 and dk_ != dv_:
            #ko| return (f"d_k={dk_}, d_v={dv_}인데 세 조각의 차원이 모두 "
            #ko|         f"{widths_[0]}입니다. chunk(3)은 같은 크기로만 자릅니다. "
            #ko|         "조각마다 크기를 [d_k, d_k, d_v]로 알려 주세요.")
            #en| return (f"with d_k={dk_} and d_v={dv_} all three pieces are "
            #en|         f"{widths_[0]} wide: chunk(3) cuts equal pieces only. "
            #en|         "Give the width of each piece, [d_k, d_k, d_v].")
        if widths_ != [dk_, dk_, dv_] and sorted(widths_) == sorted([dk_, dk_, dv_]):
            #ko| return (f"조각의 차원이 {widths_}입니다. 순서는 쿼리, 키, 밸류이므로 "
            #ko|         f"[d_k, d_k, d_v] = {[dk_, dk_, dv_]}이어야 합니다.")
            #en| return (f"the pieces are {widths_} wide; in the order query, key, value "
            #en|         f"they must be [d_k, d_k, d_v] = {[dk_, dk_, dv_]}.")
        if [tuple(t.shape[:-1]) for t in got_] != [(2, 3)] * 3:
            #ko| return "조각은 마지막 축만 잘라야 하므로 앞의 축 (2, 3)은 그대로입니다."
            #en| return "only the last axis is cut, so the leading axes (2, 3) stay."
        if widths_ != [dk_, dk_, dv_]:
            #ko| return (f"조각의 차원이 {widths_}인데 [d_k, d_k, "
            #ko|         f"d_v] = {[dk_, dk_, dv_]}이어야 합니다. "
            #ko|         "자르는 경계를 확인하세요(d_k와 2 * d_k).")
            #en| return (f"the pieces are {widths_} wide, expected "
            #en|         f"[d_k, d_k, d_v] = {[dk_, dk_, dv_]}: "
            #en|         "look at the cut points (d_k and 2 * d_k).")
        if not all(torch.equal(g, w) for g, w in zip(got_, want_, strict=True)):
            if any(
                    all(torch.equal(g, want_[i]) for g, i in zip(got_, order_))
                    for order_ in [(0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1,
                                                                                0)]):
                #ko| return ("조각은 맞게 잘랐지만 돌려주는 순서가 "
                #ko|         "다릅니다. (q, k, v) 순서로 돌려주세요.")
                #en| return ("the pieces are cut right but returned "
                #en|         "in another order: return (q, k, v).")
            #ko: 틀린 조각이 마지막 축의 어느 특징들을 담았는지 찾습니다
            #en: which features of the last axis a wrong piece holds
            starts_ = [0, dk_, 2 * dk_]
            for g_, w_, start_, what_ in zip(got_, want_, starts_, "qkv"):
                width_ = g_.size(-1)
                held_ = [o_ for o_ in range(y_.size(-1) - width_ + 1)
                         if torch.equal(g_, y_[..., o_:o_ + width_])]
                if not torch.equal(g_, w_) and held_:
                    last_, end_ = held_[0] + width_ - 1, start_ + w_.size(-1) - 1
                    #ko| return (f"{what_} 조각은 특징 {held_[0]}부터 {last_}까지를 "
                    #ko|         f"담았는데, {start_}부터 {end_}까지여야 "
                    #ko|         "합니다. 자르는 자리는 d_k와 2 * d_k입니다.")
                    #en| return (f"{what_} holds features {held_[0]} to {last_}; "
                    #en|         f"it must hold {start_} to {end_}. "
                    #en|         "The cut points are d_k and 2 * d_k.")
            for g_, w_, what_ in zip(got_, want_, "qkv"):
                #ko| said_ = value_mistake(g_, w_, axes=("배치", "토큰", "특징"),
                #ko|                       last_resort=True)
                #en| said_ = value_mistake(g_, w_, axes=("batch", "tokens", "features"),
                #en|                       last_resort=True)
                if said_:
                    return Also(f"{what_}: {said_.rstrip()} ")
    return True


@exercise(
    "ch03-ex-fuse",
    #ko| "weight는 (출력, 입력) 순서라서 "
    #ko| "출력 블록 하나는 weight의 행 블록 하나입니다. "
    #ko| "세 가중치를 어느 축으로 이어 붙여야 (3C, C)가 될까요? "
    #ko| "편향도 같은 순서로 붙이고, "
    #ko| "파라미터는 torch.no_grad() 안에서 덮어씁니다.",
    #en| "weight is stored as (out, in), "
    #en| "so one block of outputs is one block of rows of weight. "
    #en| "Along which axis must the three weights be joined to give (3C, C)? "
    #en| "Join the biases in the same order, "
    #en| "and overwrite parameters inside torch.no_grad().",
)
def ch03_ex_fuse(fuse_layers):
    check_seed(5)
    C_fuse_ = 5
    lins_fuse_ = [nn.Linear(C_fuse_, C_fuse_) for _ in range(3)]
    x_fuse_ = torch.randn(2, 3, C_fuse_)
    outs_fuse_ = [lin(x_fuse_) for lin in lins_fuse_]
    try:
        layer_ = fuse_layers(*lins_fuse_)
    except RuntimeError as error:
        if "leaf Variable" in str(error):
            #ko| return ("학습되는 파라미터는 제자리에서 덮어쓸 수 없습니다. "
            #ko|         "copy_는 with torch.no_grad(): 안에서 부르세요.")
            #en| return ("a parameter that requires grad cannot be overwritten in place: "
            #en|         "call copy_ inside with torch.no_grad():.")
        if "must match the size" in str(error):
            #ko: 오류가 말하는 두 크기: 새 레이어의 것과 이어 붙인 것
            #en: the two sizes the error names: the new layer's and the joined one's
            import re

            sizes_ = [int(n_) for n_ in re.findall(r"\((\d+)\)", str(error))[:2]]
            #ko| said_ = (f"새 레이어의 크기는 {sizes_[0]}인데 이어 붙인 가중치의 크기는 "
            #ko|          f"{sizes_[1]}입니다. " if len(sizes_) == 2 else "")
            #en| said_ = (f"the new layer has a size {sizes_[0]} where the joined "
            #en|          f"weights have {sizes_[1]}; " if len(sizes_) == 2 else "")
            if sizes_ and sizes_[0] not in (C_fuse_, 3 * C_fuse_):
                #ko| return (said_ + f"이 확인의 레이어는 C = {C_fuse_}인데, 새 레이어는 "
                #ko|         "다른 C로 만들어졌습니다. 노트북의 전역 C가 아니라 "
                #ko|         "받은 레이어에서 C를 읽으세요(lin_q.in_features).")
                #en| return (said_ + f"this check's layers have C = {C_fuse_}, but the "
                #en|         "new layer was made with another C: read C from the layers "
                #en|         "it gets (lin_q.in_features), not from the notebook's "
                #en|         "global C.")
            #ko| return (said_ + "(C, C) 가중치 세 개를 dim=0으로 이으면 "
            #ko|         "(3C, C), dim=1로 이으면 (C, 3C)가 됩니다.")
            #en| return (said_ + "three (C, C) weights joined along dim=0 "
            #en|         "give (3C, C), along dim=1 (C, 3C).")
        raise
    except TypeError as error:
        if "cannot assign" not in str(error):
            raise
        #ko| return ("layer.weight는 파라미터(nn.Parameter)라서 보통 텐서를 대입할 수 "
        #ko|         "없습니다. torch.no_grad() 안에서 layer.weight.copy_(...)로 값을 "
        #ko|         "복사하거나, nn.Parameter(...)로 감싸서 대입하세요.")
        #en| return ("layer.weight is a parameter (nn.Parameter), so a plain tensor "
        #en|         "cannot be assigned to it: copy the values in with "
        #en|         "layer.weight.copy_(...) inside torch.no_grad(), or assign "
        #en|         "nn.Parameter(...).")
    except AttributeError as error:
        if "NoneType" not in str(error):
            raise
        #ko| return ("None의 속성을 쓰려 했습니다. bias=False로 만든 레이어는 "
        #ko|         "bias가 None입니다. 세 레이어에 bias가 있으니 합친 레이어에도 "
        #ko|         "bias가 있어야 합니다.")
        #en| return ("an attribute of None was used: a layer made with bias=False has "
        #en|         "bias None. The three layers have biases, so the fused one needs "
        #en|         "one too.")
    if layer_ is None or layer_ is Ellipsis:
        raise NotAnswered
    if not isinstance(layer_, nn.Linear):
        #ko| return (f"nn.Linear(C, 3 * C) 레이어를 돌려주어야 하는데 "
        #ko|         f"{type(layer_).__name__}입니다.")
        #en| return (f"return an nn.Linear(C, 3 * C) layer, "
        #en|         f"not a {type(layer_).__name__}.")
    weights_ = [lin.weight for lin in lins_fuse_]
    if tuple(layer_.weight.shape) != (3 * C_fuse_, C_fuse_):
        #ko| return (f"레이어의 weight가 {tuple(layer_.weight.shape)}입니다. "
        #ko|         f"nn.Linear(C, 3 * C)의 weight는 (출력, 입력) = (3C, C) = "
        #ko|         f"({3 * C_fuse_}, {C_fuse_})입니다.")
        #en| return (f"the layer's weight is {tuple(layer_.weight.shape)}; "
        #en|         f"nn.Linear(C, 3 * C) has a weight of (out, in) = (3C, C) = "
        #en|         f"({3 * C_fuse_}, {C_fuse_}).")
    if layer_.bias is None:
        #ko| return ("세 레이어에 편향이 있으므로 합친 레이어에도 "
        #ko|         "편향이 있어야 합니다(bias=False로 만들지 마세요).")
        #en| return ("the three layers have biases, so the fused one "
        #en|         "needs a bias too (do not make it with bias=False).")
    if torch.equal(layer_.weight, torch.cat([w_.T for w_ in weights_])):
        #ko| return ("블록마다 전치되었습니다. 세 가중치를 전치하지 "
        #ko|         "않고 그대로 dim=0으로 이으면 (3C, C)입니다.")
        #en| return ("each block is transposed: the three weights "
        #en|         "joined as they are along dim=0 give (3C, C).")
    interleaved_ = torch.stack(weights_, dim=1).reshape(3 * C_fuse_, C_fuse_)
    if torch.equal(layer_.weight, interleaved_):
        #ko| return ("세 가중치의 행이 한 줄씩 번갈아 섞였습니다"
        #ko|         "(q, k, v의 0행, q, k, v의 1행, ...). "
        #ko|         "(C, C) 블록 셋을 통째로 차례로 이으세요(torch.cat, dim=0).")
        #en| return ("the three weights' rows are interleaved "
        #en|         "(row 0 of q, k, v, then row 1, ...): "
        #en|         "join the three (C, C) blocks whole, in turn (torch.cat, dim=0).")
    #ko| moved_ = value_mistake(layer_.weight.detach(), torch.cat(weights_).detach(),
    #ko|                        axes=("출력 3C", "입력 C"))
    #en| moved_ = value_mistake(layer_.weight.detach(), torch.cat(weights_).detach(),
    #en|                        axes=("out 3C", "in C"))
    blocks_ = layer_.weight.split(C_fuse_)
    if moved_ and not any(torch.equal(b_, w_) for b_ in blocks_ for w_ in weights_):
        #ko| return Also(f"weight: {moved_}")
        #en| return Also(f"weight: {moved_}")
    if not any(torch.equal(layer_.weight[i_ * C_fuse_:(i_ + 1) * C_fuse_], w_)
               for i_ in range(3) for w_ in weights_):
        #ko| return ("합친 레이어의 가중치가 세 레이어의 가중치가 "
        #ko|         "아닙니다. 세 가중치를 새 레이어에 복사하세요.")
        #en| return ("the fused layer's weights are none of the three "
        #en|         "layers' weights: copy them into the new layer.")
    orders_ = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    if any(torch.equal(layer_.weight, torch.cat([weights_[i] for i in o_]))
           for o_ in orders_[1:]):
        #ko| return ("블록의 순서가 다릅니다. split(C)가 쿼리, 키, 밸류 순서로 자르므로 "
        #ko|         "lin_q, lin_k, lin_v 순서로 이어 붙여야 합니다.")
        #en| return ("the blocks are in another order: split(C) cuts query, key, value, "
        #en|         "so join lin_q, lin_k, lin_v in that order.")
    if torch.equal(layer_.weight, torch.cat(weights_)) and not torch.equal(
            layer_.bias, torch.cat([lin.bias for lin in lins_fuse_])):
        #ko| return ("가중치는 맞았습니다. 편향도 세 레이어의 편향을 "
        #ko|         "같은 순서로 이어 붙여야 합니다.")
        #en| return ("the weights are right; the biases too must be "
        #en|         "the three layers' biases joined in the same order.")
    #ko: 블록마다 어느 레이어의 가중치를 담았는지 봅니다
    #en: which layer's weight each block holds
    #ko| names_ = ("쿼리(lin_q)", "키(lin_k)", "밸류(lin_v)")
    #en| names_ = ("query (lin_q)", "key (lin_k)", "value (lin_v)")
    for i_ in range(3):
        block_ = layer_.weight[i_ * C_fuse_:(i_ + 1) * C_fuse_]
        held_ = [j_ for j_ in range(3) if torch.equal(block_, weights_[j_])]
        if held_ and held_[0] != i_:
            #ko| return (f"{names_[i_]} 블록(행 {i_ * C_fuse_}부터 C개)에 "
            #ko|         f"{names_[held_[0]]}의 가중치가 들어 있습니다. 블록마다 "
            #ko|         "제 레이어의 가중치를 담아야 합니다.")
            #en| return (f"the {names_[i_]} block (C rows from row {i_ * C_fuse_}) holds "
            #en|         f"the weight of {names_[held_[0]]}; each block must hold its "
            #en|         "own layer's weight.")
    #ko: 블록마다, 어느 레이어의 가중치와 bias인지(아무것도 아닌지)
    #en: block by block, which layer's weight and bias it holds (or none)
    said_ = []
    for i_, (block_, bias_) in enumerate(zip(layer_.weight.split(C_fuse_),
                                             layer_.bias.split(C_fuse_))):
        if (torch.equal(block_, weights_[i_])
                and torch.equal(bias_, lins_fuse_[i_].bias)):
            continue
        if not any(torch.equal(block_, w_) for w_ in weights_):
            #ko| said_.append(f"{names_[i_]} 블록(행 {i_ * C_fuse_}부터 C개)의 가중치가 "
            #ko|              "세 레이어의 어느 가중치도 아닙니다")
            #en| said_.append(f"the {names_[i_]} block (C rows from row {i_ * C_fuse_}) "
            #en|              "holds none of the three layers' weights")
        elif not torch.equal(bias_, lins_fuse_[i_].bias):
            #ko| said_.append(f"{names_[i_]} 블록의 bias가 그 레이어의 bias가 아닙니다")
            #en| said_.append(f"the {names_[i_]} block's bias is not its layer's bias")
    if said_:
        #ko| return Also(". ".join(said_) + ". ")
        #en| return Also("; ".join(said_) + "; ")
    pieces_fuse_ = layer_(x_fuse_).split(C_fuse_, dim=-1)
    return all(torch.allclose(got, want, atol=1e-6)
               for got, want in zip(pieces_fuse_, outs_fuse_, strict=True))
