#ko: 7장 연습 문제의 확인들. 확인 셀 check("ch07-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 7's exercise checks, called by the check cells, check("ch07-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.
import math

import torch


@exercise(
    "ch07-ex-memory",
    #ko| "점수 텐서의 모양은 (B, H, T, T)입니다. "
    #ko| "원소 수에 원소 하나의 바이트 수를 곱한 뒤 2**20으로 나눕니다.",
    #en| "the score tensor has shape (B, H, T, T): multiply its number of elements "
    #en| "by the bytes per element, then divide by 2**20.",
)
def ch07_ex_memory(answer_mib):
    if answer_mib is None:
        raise NotAnswered
    got_ = answer_mib
    if isinstance(got_, torch.Tensor) and got_.numel() == 1:
        got_ = got_.item()
    if isinstance(got_, bool) or not isinstance(got_, (int, float)):
        #ko| return f"MiB 수를 숫자로 적으세요(글자가 아니라). 지금 답: {answer_mib!r}"
        #en| return f"write the number of MiB as a number, not text; got {answer_mib!r}"
    #ko: 점수 (B, H, T, T) = (4, 8, 4096, 4096), float16(2바이트)
    #en: the scores (B, H, T, T) = (4, 8, 4096, 4096), float16 (2 bytes)
    right_ = 4 * 8 * 4096 * 4096 * 2 / 2**20
    if got_ == right_:
        return True
    if got_ <= 0:
        #ko| return Also(f"지금 답 {got_}: 메모리의 크기는 0보다 큰 수여야 합니다. ")
        #en| return Also(f"{got_} cannot be a size: memory is a number above 0. ")
    #ko: 흔한 실수 하나하나가 답을 정답의 몇 배로 만드는지. 하나나 둘이 겹친 것까지 봅니다
    #en: how many times the right answer each usual mistake makes; one, or two together
    terms_ = [
        #ko| (2, "bytes", "float16의 원소 하나는 4바이트가 아니라 2바이트이고, "
        #ko|     "묻는 것은 점수 텐서 하나입니다(가중치 텐서는 세지 않습니다)."),
        #en| (2, "bytes", "an element of float16 takes 2 bytes, not 4, "
        #en|     "and one score tensor is asked for (not the weights as well)."),
        #ko| (4, "bytes", "원소 하나에 4바이트(float32)를 쓰고 점수와 가중치 두 텐서를 "
        #ko|     "세었습니다. float16은 2바이트이고, 묻는 것은 점수 텐서 하나입니다."),
        #en| (4, "bytes", "4 bytes per element (float32) and both tensors (scores and "
        #en|     "weights) are counted; a float16 takes 2 bytes, and one score tensor "
        #en|     "is asked for."),
        #ko| (8, "bytes", "비트 수를 세었습니다. 1바이트는 8비트입니다."),
        #en| (8, "bytes", "that counts bits; a byte is 8 bits."),
        #ko| (2**20 / 10**9, "unit", "10**9로 나누면 GB입니다. MiB는 2**20바이트입니다."),
        #en| (2**20 / 10**9, "unit", "dividing by 10**9 gives GB; a MiB is 2**20 bytes."),
        #ko| (2**20, "unit", "바이트 수입니다. MiB로 바꾸려면 2**20으로 나누세요."),
        #en| (2**20, "unit", "that is a number of bytes: divide by 2**20 for MiB."),
        #ko| (2**10, "unit", "KiB입니다(1024로 한 번만 나눔). MiB는 2**20바이트입니다."),
        #en| (2**10, "unit", "that is KiB (divided by 1024 once); a MiB is 2**20 bytes."),
        #ko| (2**20 / 10**6, "unit", "10**6으로 나누면 MB입니다. MiB는 2**20바이트입니다."),
        #en| (2**20 / 10**6, "unit", "dividing by 10**6 gives MB; a MiB is 2**20 bytes."),
        #ko| (2**20 / 10**3, "unit", "10**3으로 나누면 kB입니다. MiB는 2**20바이트입니다."),
        #en| (2**20 / 10**3, "unit", "dividing by 10**3 gives kB; a MiB is 2**20 bytes."),
        #ko| (1 / 2**10, "unit", "GiB입니다(2**30으로 나눔). "
        #ko|                     "MiB로 적으세요: 1 GiB = 1024 MiB."),
        #en| (1 / 2**10, "unit", "that is GiB (divided by 2**30): "
        #en|                     "write MiB, 1 GiB = 1024 MiB."),
        #ko| (1 / 2**20, "unit", "2**20으로 두 번 나눈 TiB입니다. "
        #ko|                     "MiB는 2**20으로 한 번만 나눕니다."),
        #en| (1 / 2**20, "unit", "that is TiB (2**20 divided out twice); "
        #en|                     "MiB divides by 2**20 once."),
        #ko| (1 / 2, "bytes", "원소 하나의 바이트 수(float16은 2바이트)를 "
        #ko|                  "곱하지 않았습니다. 원소의 수입니다."),
        #en| (1 / 2, "bytes", "the bytes per element are left out: that counts elements, "
        #en|         "and a float16 takes 2 bytes."),
        #ko| (1 / 4, "count", "배치의 시퀀스 4개를 모두 세세요(B = 4)."),
        #en| (1 / 4, "count", "count all 4 sequences of the batch (B = 4)."),
        #ko| (1 / 8, "count", "헤드 8개가 저마다 점수 행렬을 가집니다(H = 8)."),
        #en| (1 / 8, "count", "each of the 8 heads has its own score matrix (H = 8)."),
        #ko| (4, "twice", "배치 크기 B = 4가 두 번 곱해졌습니다."),
        #en| (4, "twice", "the batch size B = 4 went in twice."),
        #ko| (8, "twice", "헤드 수 H = 8이 두 번 곱해졌습니다."),
        #en| (8, "twice", "the number of heads H = 8 went in twice."),
        #ko| (2**20 / (1024 * 1000), "unit", "1024와 1000으로 나누어 KiB와 kB를 섞었습니다. "
        #ko|                                 "MiB는 1024 × 1024바이트입니다."),
        #en| (2**20 / (1024 * 1000), "unit", "dividing by 1024 and by 1000 mixes KiB and "
        #en|                                 "kB; a MiB is 1024 × 1024 bytes."),
        #ko| (1 / 4096, "count", "점수는 쿼리마다 키마다 하나씩이라 T × T개입니다. "
        #ko|                     "T가 한 번만 들어갔습니다."),
        #en| (1 / 4096, "count", "there is one score per query and key: T × T of them; "
        #en|            "T went in once."),
    ]
    import itertools as itertools_

    ratio_ = got_ / right_
    if ratio_ >= 1:
        #ko| head_ = f"정답의 {ratio_:.4g}배입니다. "
        #en| head_ = f"{ratio_:.4g} times too large: "
    else:
        #ko| head_ = f"정답의 1/{1 / ratio_:.4g}입니다. "
        #en| head_ = f"1/{1 / ratio_:.4g} of the right value: "
    if abs(ratio_ - 1) < 1e-2:
        #ko| return Also(f"거의 맞았지만 정답과 {abs(got_ - right_):.3g} MiB 다릅니다. "
        #ko|             "반올림하지 말고 끝까지 계산하세요. ")
        #en| return Also(f"close, but {abs(got_ - right_):.3g} MiB off: "
        #en|             "compute it exactly, without rounding. ")
    found_ = []
    for n_ in (1, 2):
        #ko: 실수 하나로 설명되면, 둘이 겹친 설명은 작은 배율(64배 안)끼리만 봅니다
        #en: with one slip explaining it, two together only of small factors (within 64)
        for picked_ in itertools_.combinations(terms_, n_):
            if found_ and n_ == 2 and any(not 1 / 64 <= f_ <= 64
                                          for f_, _, _ in picked_):
                continue
            #ko: 바이트 수와 단위는 실수 하나씩만(비트이면서 바이트를 빼먹을 수는
            #ko: 없습니다)
            #en: one slip at most in the bytes and one in the unit (bits and no bytes at
            #en: once cannot be)
            kinds_ = [g_ for _, g_, _ in picked_ if g_ != "count"]
            if len(kinds_) != len(set(kinds_)) or (n_ == 2 and "twice" in kinds_):
                continue
            #ko: 반올림해 적은 답(1.07 GB처럼)도 알아보도록 1%까지 봐줍니다
            #en: within 1%, so that a rounded answer (1.07 GB) is recognised too
            if abs(ratio_ / math.prod(f_ for f_, _, _ in picked_) - 1) < 1e-2:
                found_.append(" ".join(s_ for _, _, s_ in picked_))
    if len(found_) > 1:
        #ko: 같은 배율을 내는 설명이 둘 이상이면 둘 다 말합니다(어느 쪽인지 모르므로)
        #en: two explanations giving the same factor: both are said (which one is unknown)
        #ko| found_ = ["두 가지로 읽힙니다. (1) " + found_[0][:-1] + ".", "(2) " + found_[1]]
        #en| found_ = ["either (1) " + found_[0][:-1] + ";", "or (2) " + found_[1]]
    if found_:
        return Also(head_ + " ".join(found_) + " ")
    #ko: T × T 가운데 T 하나가 다른 수(헤드 하나의 차원 D 같은)로 들어갔으면
    #en: one of T × T replaced by another number (a head's width D, say)
    other_t_ = ratio_ * 4096
    if 2 <= other_t_ < 4096 and abs(other_t_ - round(other_t_)) < 1e-6:
        #ko| return Also(head_ + f"T × T개가 아니라 T × {round(other_t_)}개를 센 것과 같습니다. "
        #ko|             "점수 텐서는 (B, H, T, T)로, 쿼리와 키의 짝마다 하나씩이며 "
        #ko|             "헤드 하나의 차원 D는 들어가지 않습니다. ")
        #en| return Also(head_ + f"as if T × {round(other_t_)} were counted instead of "
        #en|             "T × T: the score tensor is (B, H, T, T), one score per query "
        #en|             "and key, and a head's width D does not enter it. ")
    #ko| return Also(head_ + "B = 4, H = 8, T × T = 4096 × 4096, "
    #ko|             "원소 하나에 2바이트, 1 MiB = 2**20바이트 가운데 하나를 빼거나 "
    #ko|             "두 배로 하거나 단위를 바꾼 것으로는(둘이 겹쳐도) 이 배율이 "
    #ko|             "나오지 않습니다. 인수를 하나씩 다시 세어 보세요. ")
    #en| return Also(head_ + "no single one of B = 4, H = 8, T × T = 4096 × 4096, "
    #en|             "2 bytes per element, 1 MiB = 2**20 bytes left out, doubled or "
    #en|             "in another unit (nor two of them together) gives that factor. "
    #en|             "Count the factors again one by one. ")


@exercise(
    "ch07-ex-rescale",
    #ko| "최댓값이 바뀌면 옛 최댓값을 기준으로 쌓아 온 값은 모두 새 최댓값에 맞춰 "
    #ko| "고쳐야 합니다. 루프에서 쌓아 가는 값은 어떤 것들인가요?",
    #en| "when the maximum changes, every quantity accumulated against the old maximum "
    #en| "must be moved to the new one. Which quantities does the loop accumulate?",
)
def ch07_ex_rescale(attention_blocks):
    def blocks_(q, k, v, block, acc_="right", sum_="right", divide_=True, scale_=True):
        #ko: 블록 계산을 이 셀 안에서 다시 합니다. acc_와 sum_은 누적한 값과 합을 새
        #ko: 최댓값 기준으로 고치는 방법입니다. "right"가 아니면 흔한 실수 하나를 흉내 냅니다
        #en: the block computation, redone in this cell; acc_ and sum_ say how the
        #en: accumulator and the sum are moved to the new maximum, anything but "right"
        #en: plays one usual mistake
        row_max = torch.full(q.shape[:-1] + (1,), float("-inf"))
        row_sum = torch.zeros(q.shape[:-1] + (1,))
        acc = torch.zeros(q.shape[:-1] + (v.size(-1),))

        def move(old, new, rescale, how):
            return {"right": old * rescale + new, "none": old + new,
                    "inverted": old / rescale + new,
                    "both": (old + new) * rescale, "new": old + new * rescale}[how]

        for start in range(0, k.size(-2), block):
            s = q @ k[..., start:start + block, :].transpose(-2, -1)
            s = s / math.sqrt(q.size(-1)) if scale_ else s
            new_max = torch.maximum(row_max, s.amax(dim=-1, keepdim=True))
            rescale, p = torch.exp(row_max - new_max), torch.exp(s - new_max)
            row_sum = move(row_sum, p.sum(dim=-1, keepdim=True), rescale, sum_)
            acc = move(acc, p @ v[..., start:start + block, :], rescale, acc_)
            row_max = new_max
        return acc / row_sum if divide_ else acc

    check_seed(7)
    # (B, H, T, d)
    q_, k_, v_ = (torch.randn(2, 3, 5, 4), torch.randn(2, 3, 12, 4),
                  torch.randn(2, 3, 12, 6))
    #ko: 기준값: 보통의 어텐션 (이 셀에서 계산)
    #en: the reference: plain attention (computed in this cell)
    expected_ = torch.softmax(q_ @ k_.mT / math.sqrt(4),
                              dim=-1) @ v_    # (B, H, T_q, d_v)
    import torch.overrides as overrides_

    class whole_(overrides_.TorchFunctionMode):
        #ko: 답이 (T_q, T_k) 점수 행렬 전체를 한 번에 만드는지 지켜봅니다
        #en: watches whether the answer makes the whole (T_q, T_k) score matrix at once
        seen = False

        def __torch_function__(self, func, types, args=(), kwargs=None):
            result_ = func(*args, **(kwargs or {}))
            if (getattr(func, "__name__", "") == "scaled_dot_product_attention"
                    or (isinstance(result_, torch.Tensor)
                        and tuple(result_.shape[-2:]) == (5, 12))):
                whole_.seen = True
            return result_

    def run_(block_, q=q_, k=k_, v=v_):
        #ko: 답을 부르고, 답 안에서 난 오류는 어느 입력에서 났는지와 함께 한 줄로
        #en: calls the answer; an error inside it is said in one line, with its input
        try:
            return attention_blocks(q, k, v, block_)
        except (NotAnswered, NameError):
            raise
        except Exception as error_:
            cut_ = [min(block_, k.size(-2) - s_) for s_ in range(0, k.size(-2), block_)]
            first_ = str(error_).strip().splitlines()[0] if str(error_).strip() else ""
            #ko| said_ = (f"키 {k.size(-2)}개를 {cut_}개씩 블록으로 나눴을 때(block = "
            #ko|          f"{block_}) 함수 안에서 오류가 났습니다: "
            #ko|          f"{type(error_).__name__}: {first_}. ")
            #en| said_ = (f"with {k.size(-2)} keys in blocks of {cut_} (block = "
            #en|          f"{block_}), your function raised "
            #en|          f"{type(error_).__name__}: {first_}. ")
            if "must match the size" in str(error_):
                #ko| said_ += ("모양이 다른 두 텐서가 한 연산에서 만났습니다. row_max, "
                #ko|           "row_sum, rescale은 (..., T_q, 1)로 두어야(keepdim=True) "
                #ko|           "(..., T_q, d_v)인 acc와 브로드캐스팅됩니다. ")
                #en| said_ += ("two tensors of different shapes meet in one operation: "
                #en|           "row_max, row_sum and rescale stay (..., T_q, 1) "
                #en|           "(keepdim=True) to broadcast against acc (..., T_q, d_v). ")
            raise ValueError(said_) from None

    #ko: 블록이 1개나 5개일 때만 지켜봅니다(블록 12개는 키 전체입니다)
    #en: watched with blocks of 1 and 5 only (a block of 12 holds every key)
    try:
        with whole_():
            got_ = {block: run_(block) for block in (1, 5)}
        got_[12] = run_(12)
    except ValueError as error_:
        return Also(str(error_))
    if any(g_ is None for g_ in got_.values()):
        raise NotAnswered
    said_ = shape_mistake(got_[5], expected_, axes="B H T_q d_v",
                          sizes={"T_k": 12, "d_k": 4})
    if said_:
        return said_
    right_ = all(torch.allclose(g_, expected_, atol=1e-6) for g_ in got_.values())
    if right_ and whole_.seen:
        #ko| return ("값은 맞지만, 블록이 5개나 1개일 때도 점수 행렬 (T_q, T_k) = "
        #ko|         "(5, 12) 전체를 한 번에 만듭니다. 이 문제는 한 번에 키 block개의 "
        #ko|         "점수만 두는 블록 반복입니다. 반복을 그대로 두고 "
        #ko|         "틀린 한 줄을 고치세요.")
        #en| return ("the values are right, but the whole score matrix, (T_q, T_k) "
        #en|         "= (5, 12), is made at once even with blocks of 5 or 1: the "
        #en|         "exercise is the block loop, which holds the scores of block "
        #en|         "keys at a time. Keep the loop and fix its one wrong line.")
    if right_:
        return True

    def same_(**how_):
        #ko: NaN뿐인 흉내는 어느 실수인지 가려 주지 못하므로 맞춰 보지 않습니다
        #en: an emulation that is all NaN tells no mistake from another: not compared
        made_ = {b_: blocks_(q_, k_, v_, b_, **how_) for b_ in (1, 5, 12)}
        return torch.isfinite(made_[5]).any() and all(
            torch.allclose(got_[b_], made_[b_], atol=1e-6, equal_nan=True)
            for b_ in (1, 5, 12))

    slips_ = [
        (dict(acc_="none"),
         #ko| "키가 블록 하나에 다 들어가면 맞고, 블록이 여럿이면 틀립니다. "),
         #en| "right when all keys fit in one block, wrong with several. "),
        (dict(sum_="none"),
         #ko| "누적한 값은 고쳤지만 합 row_sum은 옛 "
         #ko| "최댓값 기준 그대로입니다. 둘 다 고쳐야 합니다. "),
         #en| "the accumulator is moved to the new maximum, "
         #en| "but row_sum stays on the old one: move both. "),
        (dict(acc_="none", sum_="none"),
         #ko| "최댓값이 바뀌어도 쌓아 온 값이 그대로입니다. 합과 누적한 "
         #ko| "값 모두 exp(옛 최댓값 - 새 최댓값)을 곱해 고치세요. "),
         #en| "nothing accumulated is moved when the maximum changes: multiply "
         #en| "the sum and the accumulator by exp(old max - new max). "),
        (dict(acc_="inverted", sum_="inverted"),
         #ko| "고치는 배율이 뒤집혔습니다. 새 최댓값이 더 크면 쌓아 온 "
         #ko| "값은 작아져야 하므로 exp(옛 최댓값 - 새 최댓값)입니다. "),
         #en| "the rescale factor is upside down: a larger new maximum "
         #en| "must shrink what was accumulated, exp(old max - new max). "),
        (dict(divide_=False),
         #ko| "마지막에 합으로 나누는 일이 빠졌습니다. 소프트맥스의 분모입니다. "),
         #en| "the final division by the sum is missing: it is the softmax's denominator. "),
        (dict(scale_=False),
         #ko| "점수를 √d_k로 나누는 일이 빠졌습니다. "),
         #en| "the scores are not divided by √d_k. "),
    ]
    for flags_, said_ in slips_:
        if same_(**flags_):
            return Also(said_)
    #ko: 누적한 값과 합을 고치는 방법의 모든 짝: 어느 쪽을 어떻게 잘못 고쳤는지 말합니다
    #en: every pair of ways to move the accumulator and the sum: which one is moved
    #en: how
    ways_ = {
        #ko| "right": "맞게 고쳤습니다",
        #ko| "none": "rescale을 곱하지 않아 새 최댓값 기준으로 고치지 않았습니다",
        #ko| "inverted": "뒤집힌 배율 exp(새 최댓값 - 옛 최댓값)을 곱했습니다",
        #ko| "both": ("이번 블록의 몫까지 rescale을 곱했습니다. 이번 블록의 p는 이미 "
        #ko|          "새 최댓값 기준입니다"),
        #ko| "new": "rescale을 옛 값이 아니라 이번 블록의 몫에 곱했습니다",
        #en| "right": "is moved right",
        #en| "none": "is not moved to the new maximum (no rescale)",
        #en| "inverted": "is multiplied by the inverted factor exp(new max - old max)",
        #en| "both": ("has this block's part multiplied by rescale too, though p is "
        #en|          "already on the new maximum"),
        #en| "new": "has rescale on this block's part instead of on the old value",
    }
    for acc_how_ in ways_:
        for sum_how_ in ways_:
            if (acc_how_, sum_how_) != ("right", "right") and same_(
                    acc_=acc_how_, sum_=sum_how_):
                #ko| return Also(f"누적한 값 acc: {ways_[acc_how_]}. "
                #ko|             f"합 row_sum: {ways_[sum_how_]}. ")
                #en| return Also(f"the accumulator acc {ways_[acc_how_]}; "
                #en|             f"the sum row_sum {ways_[sum_how_]}. ")

    def plain_(q, k, v, scale_):
        return torch.softmax(q @ k.mT / scale_, dim=-1) @ v

    if all(torch.allclose(got_[b_], plain_(q_, k_, v_, math.sqrt(6)), atol=1e-6)
           for b_ in (1, 5, 12)):
        #ko| return Also("점수를 √d_v(밸류의 차원 6)로 나눕니다. "
        #ko|             "쿼리와 키의 차원 "
        #ko|             "d_k = 4의 제곱근으로 나누어야 합니다. ")
        #en| return Also("the scores are divided by √d_v (the values' width, 6): "
        #en|             "divide by the square root of the width of queries and "
        #en|             "keys, d_k = 4. ")
    for by_, said_ in [
            #ko| (4.0, "점수를 √d_k가 아니라 d_k = 4로 나눕니다. "),
            #ko| (0.5, "점수에 √d_k를 곱했습니다. √d_k로 나누어야 합니다. "),
            #en| (4.0, "the scores are divided by d_k = 4, not by √d_k. "),
            #en| (0.5, "the scores are multiplied by √d_k; divide by it. "),
    ]:
        if all(torch.allclose(got_[b_], plain_(q_, k_, v_, by_), atol=1e-6)
               for b_ in (1, 5, 12)):
            return Also(said_)
    #ko: 마지막 블록의 키만 본 어텐션
    #en: attention over the last block's keys only
    last_ = {b_: plain_(q_, k_[..., (11 // b_) * b_:, :],
                        v_[..., (11 // b_) * b_:, :], 2.0) for b_ in (1, 5, 12)}
    if all(torch.allclose(got_[b_], last_[b_], atol=1e-6) for b_ in (1, 5)):
        #ko| return Also("결과가 마지막 블록의 키만 본 어텐션과 같습니다. 앞 블록들이 "
        #ko|             "쌓은 값이 매번 0배가 됩니다. "
        #ko|             "row_max를 새 최댓값으로 바꾸어 두는지 보세요"
        #ko|             "(rescale = exp(이전 최댓값 - 새 최댓값)). ")
        #en| return Also("the result is attention over the last block's keys only: "
        #en|             "what earlier blocks accumulated is multiplied by 0 each "
        #en|             "time. Check that row_max is moved to the new maximum "
        #en|             "(rescale = exp(old max - new max)). ")
    alone_ = {b_: sum(plain_(q_, k_[..., i_:i_ + b_, :], v_[..., i_:i_ + b_, :], 2.0)
                      for i_ in range(0, 12, b_)) for b_ in (1, 5, 12)}
    if all(torch.allclose(got_[b_], alone_[b_], atol=1e-5) for b_ in (1, 5)):
        #ko| return Also("블록마다 따로 소프트맥스를 해서 더했습니다. 모든 키의 가중치가 "
        #ko|             "분모 하나를 함께 써야 하므로, "
        #ko|             "분자와 분모를 따로 쌓아 "
        #ko|             "마지막에 한 번 나눕니다. ")
        #en| return Also("each block gets its own softmax, and the results are added: "
        #en|             "the weights of all keys must share one denominator, so "
        #en|             "accumulate numerator and denominator apart and divide once "
        #en|             "at the end. ")
    #ko: 블록 수로 나눈 평균: 블록마다 정규화한 결과의 평균
    #en: the mean over blocks of each block's own softmax
    n_blocks_ = {b_: len(range(0, 12, b_)) for b_ in (1, 5, 12)}
    if all(torch.allclose(got_[b_], alone_[b_] / n_blocks_[b_], atol=1e-5)
           for b_ in (1, 5)):
        #ko| return Also("블록마다 따로 소프트맥스를 한 결과의 평균입니다. 블록마다 "
        #ko|             "무게가 같아지지만, 블록의 무게는 그 블록 점수들의 "
        #ko|             "exp 합만큼이어야 합니다. 분자와 분모를 따로 쌓아 "
        #ko|             "마지막에 한 번 나누세요. ")
        #en| return Also("this is the mean of each block's own softmax: every block "
        #en|             "weighs the same, where a block must weigh as much as the "
        #en|             "exp-sum of its scores. Accumulate numerator and denominator "
        #en|             "apart and divide once at the end. ")
    #ko: 마지막의 짧은 블록(키 12개를 5개씩: 5, 5, 2)을 빠뜨렸는가
    #en: the last, shorter block (12 keys in fives: 5, 5, 2) left out?
    if torch.allclose(got_[5], plain_(q_, k_[..., :10, :], v_[..., :10, :], 2.0),
                      atol=1e-6):
        #ko| return Also("블록 크기 5에서 결과가 앞의 키 10개만 본 어텐션과 같습니다. "
        #ko|             "키 12개를 5개씩 나누면 마지막 블록은 2개이고, 그 블록이 "
        #ko|             "빠졌습니다. ")
        #en| return Also("with blocks of 5 the result is attention over the first 10 "
        #en|             "keys: 12 keys in fives end with a block of 2, and that block "
        #en|             "is left out. ")
    if not torch.isfinite(got_[12]).all():
        #ko| return Also("키가 블록 하나(12개)에 다 들어가도 결과에 NaN이나 inf가 "
        #ko|             "있습니다. row_max는 -inf에서 시작하므로 첫 블록에서 "
        #ko|             "exp(row_max - new_max) = 0은 괜찮지만, exp(new_max - row_max)나 "
        #ko|             "rescale(= 0)으로 나눈 값, new_max가 아니라 row_max를 뺀 "
        #ko|             "exp(s - row_max)는 inf이고 0 × inf는 NaN입니다. 아니면 루프가 "
        #ko|             "한 번도 돌지 않아 0 / 0이 되었습니다(row_sum이 0으로 남음). ")
        #en| return Also("even with all 12 keys in one block the result holds NaN or "
        #en|             "inf. row_max starts at -inf, so in the first block "
        #en|             "exp(row_max - new_max) = 0 is harmless, but exp(new_max - "
        #en|             "row_max), a division by rescale (= 0), or exp(s - row_max) "
        #en|             "with row_max where new_max belongs is inf, and 0 × inf is NaN. "
        #en|             "Or the loop never ran (row_sum stayed 0, and 0 / 0). ")
    if any(not torch.isfinite(g_).all() for g_ in got_.values()):
        bad_ = [b_ for b_ in (1, 5, 12) if not torch.isfinite(got_[b_]).all()]
        #ko| return Also(f"블록 크기 {bad_}에서 결과에 NaN이나 inf가 있습니다. exp의 "
        #ko|             "지수가 커졌거나(최댓값을 빼지 않음), 합 row_sum이 0으로 "
        #ko|             "남았습니다(옛 합을 고친 뒤 p.sum()을 더했는지, 루프가 모든 키를 "
        #ko|             "도는지 보세요). ")
        #en| return Also(f"with blocks of {bad_} the result holds NaN or inf: an exp "
        #en|             "overflowed (the maximum not subtracted), or row_sum stayed 0 "
        #en|             "(check that each block moves the old sum, then adds p.sum(), "
        #en|             "and that the loop covers every key). ")
    #ko: 진단 입력: 모든 밸류가 1이면 답도 1이어야 합니다(가중치의 합이 1)
    #en: a diagnostic input: with every value 1 the result must be 1 (weights add up to 1)
    ones_ = torch.ones(2, 3, 12, 6)
    try:
        sums_ = {b_: run_(b_, v=ones_) for b_ in (1, 5)}
        #ko: 첫 블록이 최댓값을 쥐는 키(최댓값이 뒤에서 바뀌지 않음)와, 마지막
        #ko: 블록이 쥐는 키(뒤에서 최댓값이 커짐)
        #en: keys whose first block holds every row's maximum (it never changes later),
        #en: and keys whose last block does (it rises later)
        q_pos_ = q_.abs() + 0.5
        k_fall_ = torch.cat([torch.full((2, 3, 1, 4), 3.0), 0.1 * k_[..., 1:, :]],
                            dim=2)
        k_rise_ = k_fall_.flip(2)
        fall_ = run_(5, q=q_pos_, k=k_fall_)
        rise_ = run_(5, q=q_pos_, k=k_rise_)
    except ValueError as error_:
        return Also(str(error_))
    fall_ok_ = torch.allclose(fall_, plain_(q_pos_, k_fall_, v_, 2.0), atol=1e-6)
    rise_ok_ = torch.allclose(rise_, plain_(q_pos_, k_rise_, v_, 2.0), atol=1e-6)
    said_ = ""
    if torch.allclose(got_[12], expected_, atol=1e-6):
        #ko| said_ += "키가 블록 하나에 다 들어가면 맞고, 블록이 여럿이면 틀립니다. "
        #en| said_ += "right when all keys fit in one block, wrong with several. "
    if fall_ok_ and not rise_ok_:
        #ko| said_ += ("첫 블록이 행마다 최댓값을 쥐고 있으면 맞고, 뒤의 블록이 "
        #ko|           "최댓값을 키우면 틀립니다. 최댓값이 커질 때 쌓아 온 것을 "
        #ko|           "고치는 부분이 틀렸습니다. ")
        #en| said_ += ("right while the first block holds each row's maximum, wrong "
        #en|           "as soon as a later block raises it: what was accumulated is "
        #en|           "not moved right when the maximum grows. ")
    elif not fall_ok_:
        #ko| said_ += ("최댓값이 첫 블록에서 정해져 뒤에서 바뀌지 않을 때도 틀립니다. "
        #ko|           "이때 rescale은 1이므로, 블록마다 더하는 몫(p, p @ v_b, p.sum), "
        #ko|           "acc와 row_sum에 곱하는 것(rescale 그대로인지), 마지막 나눗셈을 "
        #ko|           "보세요. ")
        #en| said_ += ("wrong even when the maximum is set by the first block and "
        #en|           "never changes, where rescale is 1: look at what each block adds "
        #en|           "(p, p @ v_b, p.sum), at what multiplies acc and row_sum (rescale "
        #en|           "itself?) and at the final division. ")
    one_ = all(torch.allclose(s_, torch.ones_like(s_), atol=1e-5)
               for s_ in sums_.values())
    if not one_:
        #ko| said_ += ("밸류가 모두 1이면 결과도 1이어야 하는데(가중치의 합이 1) 그렇지 "
        #ko|           "않습니다. 분자 acc와 분모 row_sum이 서로 다르게 쌓였습니다. ")
        #en| said_ += ("with every value 1 the result must be 1 (the weights add up to "
        #en|           "1), and it is not: the numerator acc and the denominator "
        #en|           "row_sum are accumulated differently. ")
    else:
        #ko| said_ += ("밸류가 모두 1이면 결과가 1이라, 분자와 분모는 같은 가중치로 "
        #ko|           "쌓였습니다. 가중치 자체(점수나 최댓값)가 틀렸습니다. ")
        #en| said_ += ("with every value 1 the result is 1, so numerator and "
        #en|           "denominator share their weights: the weights themselves "
        #en|           "(the scores or the maximum) are wrong. ")
    gap_ = max((g_ - expected_).abs().max().item() for g_ in got_.values())
    if gap_ < 1e-2:
        #ko| said_ += (f"가장 큰 차이는 {gap_:.1e}입니다. 블록 계산은 보통의 어텐션과 "
        #ko|           "반올림 오차 안에서 같아야 합니다(1e-6). "
        #ko|           "더한 작은 수나 근삿값이 없나요? ")
        #en| said_ += (f"the largest difference is {gap_:.1e}: the block computation "
        #en|           "must equal plain attention up to rounding (1e-6). Is a "
        #en|           "small number added, or an approximation made? ")
    return Also(said_)


@exercise(
    "ch07-ex-flops",
    #ko| "W_Q와 W_O는 쿼리 쪽 T_q개의 토큰에, "
    #ko| "W_K와 W_V는 T_k개의 토큰에 곱해집니다. 점수와 가중합은 T_q * T_k에 비례하고, "
    #ko| "헤드 수는 답에 나오지 않습니다.",
    #en| "W_Q and W_O act on the T_q query tokens, W_K and W_V on the T_k key/value "
    #en| "tokens. The scores and the weighted sum grow as T_q * T_k, and the number "
    #en| "of heads does not appear.",
)
def ch07_ex_flops(cross_attention_flops):
    sizes_ = [(2, 5, 7, 12), (3, 16, 4, 32)]   # (B, T_q, T_k, C)
    #ko: 셋째 크기는 뽑은 수로(채점기에서는 학생이 본 적 없는 크기)
    #en: a third size drawn (in the grader, sizes no student has seen)
    sizes_.append(tuple(torch.randint(1, 40, (4,), generator=check_generator(7)).tolist()))

    def count_(B_, T_q_, T_k_, C_):
        #ko: W_Q와 W_O는 T_q개, W_K와 W_V는 T_k개의 토큰에; 점수와 가중합은 T_q * T_k * C씩
        #en: W_Q and W_O on T_q tokens, W_K and W_V on T_k; the scores and weighted sum T_q
        #en: * T_k * C each
        return (4 * B_ * T_q_ * C_ * C_ + 4 * B_ * T_k_ * C_ * C_
                + 4 * B_ * T_q_ * T_k_ * C_)

    got_ = [cross_attention_flops(*s) for s in sizes_]
    if None in got_ or Ellipsis in got_:
        raise NotAnswered
    if not all(isinstance(g_, (int, float)) for g_ in got_):
        #ko| return (f"FLOP 수 하나를 수로 돌려주세요. 지금은 {type(got_[0]).__name__}"
        #ko|         "입니다. 단계별 값을 모두 더한 합계가 답입니다.")
        #en| return (f"return the number of FLOPs as one number, not a "
        #en|         f"{type(got_[0]).__name__}: the answer is the sum over all steps.")
    if got_ == [count_(*s) for s in sizes_]:
        return True
    if got_ == [count_(*s_) // s_[0] for s_ in sizes_]:
        #ko| return ("배치 B가 빠졌습니다. 모든 곱셈은 배치의 시퀀스 B개마다 "
        #ko|         "한 번씩 일어납니다.")
        #en| return ("the batch B is missing: every product runs once for each of "
        #en|         "the B sequences of the batch.")
    #ko: 행렬 곱이 아닌 항(소프트맥스 등)이 T_q * T_k에 비례해 더해졌는가?
    #en: a term that is no matrix product (the softmax, ...) added, in proportion to
    #en: T_q * T_k?
    extra_ = [(g_ - count_(*s_)) / (s_[0] * s_[1] * s_[2])
              for g_, s_ in zip(got_, sizes_)]
    if extra_[0] == extra_[1] and extra_[0] > 0 and extra_[0] == int(extra_[0]):
        #ko| return (f"행렬 곱 밖의 항 {int(extra_[0])} * B * T_q * T_k가 더해졌습니다"
        #ko|         "(소프트맥스 같은 원소별 연산). "
        #ko|         "이 표는 행렬 곱의 FLOP만 셉니다.")
        #en| return (f"an extra {int(extra_[0])} * B * T_q * T_k is added, which is no "
        #en|         "matrix product (an elementwise step such as the softmax): the table "
        #en|         "counts the FLOPs of matrix products only.")
    def slips_at_(B_, T_q_, T_k_, C_):
        #ko: 흔한 실수마다 (그 실수가 내는 FLOP 수, 그 말)
        #en: for each usual mistake: (the count it gives, what to say)
        q_, o_ = 2 * B_ * T_q_ * C_ * C_, 2 * B_ * T_q_ * C_ * C_
        kv_, each_ = 4 * B_ * T_k_ * C_ * C_, 2 * B_ * T_q_ * T_k_ * C_
        slips_ = [
            (3 * q_ + 2 * each_ + o_,
             #ko| ("세 투영을 모두 T_q개의 토큰으로 셌습니다. "
             #ko|  "W_K와 W_V는 T_k개의 키·밸류 토큰에 곱해집니다.")),
             #en| ("all three projections are counted on T_q tokens; "
             #en|  "W_K and W_V act on the T_k key/value tokens.")),
            (8 * B_ * T_q_ * C_ * C_ + 4 * B_ * T_q_ * T_q_ * C_,
             #ko| ("셀프 어텐션의 식에 T = T_q를 넣은 값입니다. 키와 밸류는 T_k개이고, "
             #ko|  "점수는 T_q × T_k개입니다.")),
             #en| ("this is the self-attention count with T = T_q; the keys and values "
             #en|  "are T_k tokens, and there are T_q × T_k scores.")),
            (8 * B_ * T_k_ * C_ * C_ + 4 * B_ * T_k_ * T_k_ * C_,
             #ko| ("셀프 어텐션의 수에 T = T_k를 넣은 값입니다. 쿼리는 T_q개라서 "
             #ko|  "W_Q와 W_O는 T_q개에 곱해지고, 점수는 T_q × T_k개입니다.")),
             #en| ("this is the self-attention count with T = T_k; there are T_q "
             #en|  "queries, so W_Q and W_O act on T_q tokens and there are "
             #en|  "T_q × T_k scores.")),
            (q_ + kv_ + 2 * each_,
             #ko| ("쿼리 쪽 투영 하나(W_Q나 출력 투영 W_O)가 빠졌습니다. 둘 다 "
             #ko|  "T_q개의 토큰에 곱해지므로 2 * B * T_q * C * C씩입니다.")),
             #en| ("one query-side projection (W_Q or the output projection W_O) is "
             #en|  "missing: each acts on T_q tokens, 2 * B * T_q * C * C.")),
            (q_ + kv_ + each_ + o_,
             #ko| ("어텐션에는 행렬 곱이 두 번 있습니다. 점수(q @ k.T)와 weights @ v이고, "
             #ko|  "둘 다 2 * B * T_q * T_k * C입니다.")),
             #en| ("attention has two matrix products, the scores (q @ k.T) and "
             #en|  "weights @ v, each 2 * B * T_q * T_k * C.")),
            (4 * B_ * T_k_ * C_ * C_ * 2 + 2 * each_,
             #ko| ("네 투영을 모두 T_k개의 토큰으로 셌습니다. "
             #ko|  "W_Q와 W_O는 쿼리 쪽 T_q개의 토큰에 곱해집니다.")),
             #en| ("all four projections are counted on T_k tokens; "
             #en|  "W_Q and W_O act on the T_q query tokens.")),
            (q_ + kv_ + o_ + 4 * B_ * T_q_ * T_q_ * C_,
             #ko| ("점수를 T_q × T_q개로 셌습니다. 쿼리 T_q개가 "
             #ko|  "키 T_k개를 보므로 T_q × T_k개입니다.")),
             #en| ("the scores are counted as T_q × T_q; "
             #en|  "T_q queries see T_k keys: T_q × T_k.")),
            (q_ + kv_ + o_ + 4 * B_ * T_q_ * T_k_,
             #ko| ("점수와 가중합의 곱에서 C가 빠졌습니다. 점수 하나는 "
             #ko|  "길이 C인 내적이고, 가중합도 C개의 특징마다 합니다.")),
             #en| ("C is missing from the products of attention: each score is a "
             #en|  "dot product of length C, and the weighted sum runs for each feature.")),
            (q_ + kv_ + o_ + 4 * B_ * T_k_ * T_k_ * C_,
             #ko| ("점수를 T_k × T_k개로 셌습니다. "
             #ko|  "쿼리 T_q개가 키 T_k개를 보므로 T_q × T_k개입니다.")),
             #en| ("the scores are counted as T_k × T_k; "
             #en|  "T_q queries see T_k keys: T_q × T_k.")),
            (q_ + kv_ + 2 * B_ * T_k_ * C_ * C_ + 2 * each_,
             #ko| ("쿼리 쪽 투영 하나(W_Q나 W_O)를 T_k개의 토큰에서 셌습니다. 둘 다 "
             #ko|  "쿼리마다 하나씩, T_q개의 토큰에 곱해집니다: "
             #ko|  "2 * B * T_q * C * C씩.")),
             #en| ("one query-side projection (W_Q or W_O) is counted on T_k tokens; "
             #en|  "both act on the T_q tokens, one per query: 2 * B * T_q * C * C "
             #en|  "each.")),
            (count_(B_, T_q_, T_k_, C_) // 2,
             #ko| "곱셈-덧셈 한 번은 FLOP 2개입니다(곱하기 하나, 더하기 하나)."),
             #en| "one multiply-add is 2 FLOPs (a multiplication and an addition)."),
            (q_ + kv_ + o_,
             #ko| "투영만 셌습니다. 점수와 "
             #ko| "가중합, 두 행렬 곱도 세세요."),
             #en| "only the projections are counted: count the two products "
             #en| "of attention too, the scores and the weighted sum."),
        ]
        return slips_

    #ko: 두 크기 모두에서 같은 값을 내는 실수만
    #en: a mistake only when it gives the same count at both sizes
    for (value_, said_), (value_2_, _) in zip(slips_at_(*sizes_[0]),
                                             slips_at_(*sizes_[1])):
        if got_[0] == value_ and got_[1] == value_2_:
            return said_
    B_, T_q_, T_k_, C_ = sizes_[0]
    #ko: 답을 B, T_q, T_k, C의 곱들(단항식)의 합으로 맞춰 보고, 항마다 정답과 비교합니다
    #en: the answer fitted as a sum of products of B, T_q, T_k, C (monomials), then
    #en: compared with the right count term by term
    monomials_ = [
        ("B·T_q·C²", lambda B, Tq, Tk, C: B * Tq * C * C, 4),
        ("B·T_k·C²", lambda B, Tq, Tk, C: B * Tk * C * C, 4),
        ("B·T_q·T_k·C", lambda B, Tq, Tk, C: B * Tq * Tk * C, 4),
        ("B·T_q²·C", lambda B, Tq, Tk, C: B * Tq * Tq * C, 0),
        ("B·T_k²·C", lambda B, Tq, Tk, C: B * Tk * Tk * C, 0),
        ("B·T_q·C", lambda B, Tq, Tk, C: B * Tq * C, 0),
        ("B·T_k·C", lambda B, Tq, Tk, C: B * Tk * C, 0),
        ("B·T_q·T_k", lambda B, Tq, Tk, C: B * Tq * Tk, 0),
        ("T_q·C²", lambda B, Tq, Tk, C: Tq * C * C, 0),
        ("T_k·C²", lambda B, Tq, Tk, C: Tk * C * C, 0),
        ("T_q·T_k·C", lambda B, Tq, Tk, C: Tq * Tk * C, 0),
        ("B·C²", lambda B, Tq, Tk, C: B * C * C, 0),
        ("B·T_q·T_k·C²", lambda B, Tq, Tk, C: B * Tq * Tk * C * C, 0),
        ("B·T_q", lambda B, Tq, Tk, C: B * Tq, 0),
        ("B·T_k", lambda B, Tq, Tk, C: B * Tk, 0),
        ("B·C", lambda B, Tq, Tk, C: B * C, 0),
        ("B", lambda B, Tq, Tk, C: B, 0),
        ("1", lambda B, Tq, Tk, C: 1, 0),
    ]
    gen_ = check_generator(0)
    points_ = [tuple(int(n_) for n_ in torch.randint(1, 13, (4,), generator=gen_))
               for _ in range(40)]
    fitted_, values_ = None, []
    try:
        values_ = [cross_attention_flops(*p_) for p_ in points_]
        if all(isinstance(v_, (int, float)) for v_ in values_):
            A_ = torch.tensor([[f_(*p_) for _, f_, _ in monomials_] for p_ in points_],
                              dtype=torch.float64)
            y_ = torch.tensor(values_, dtype=torch.float64)
            coef_ = torch.linalg.lstsq(A_, y_[:, None]).solution[:, 0]
            #ko: 계수를 1/1000 단위로 반올림해 모든 점에서 맞는지 봅니다
            #en: the coefficients rounded to 1/1000, then checked at every point
            coef_ = (coef_ * 1000).round() / 1000
            if torch.allclose(A_ @ coef_, y_, rtol=1e-9, atol=1e-6):
                fitted_ = coef_.tolist()
    except Exception:
        fitted_ = None
    scale_ = got_[0] / count_(*sizes_[0])
    if (fitted_ is None and all(isinstance(v_, (int, float)) for v_ in values_)
            and all(abs(v_ - scale_ * count_(*p_)) <= 1e-9 * abs(v_)
                    for v_, p_ in zip(values_, points_))):
        fitted_ = [4 * scale_, 4 * scale_, 4 * scale_] + [0] * (len(monomials_) - 3)
    if fitted_ is not None:
        want_ = [w_ for _, _, w_ in monomials_]
        if scale_ and all(abs(c_ - scale_ * w_) <= 1e-9 * max(1, abs(c_))
                          for c_, w_ in zip(fitted_, want_)):
            if abs(scale_ - 1e-9) < 1e-15:
                #ko| return ("GFLOP 단위입니다(10**9로 나눔). 단위를 바꾸지 말고 "
                #ko|         "FLOP 수 그대로 돌려주세요.")
                #en| return ("that is GFLOPs (divided by 10**9): return the number "
                #en|         "of FLOPs itself, no unit.")
            if abs(scale_ - 1e-6) < 1e-12 or abs(scale_ - 1e-12) < 1e-18:
                #ko| return ("MFLOP이나 TFLOP 단위입니다. 단위를 바꾸지 말고 "
                #ko|         "FLOP 수 그대로 돌려주세요.")
                #en| return ("that is MFLOPs or TFLOPs: return the number "
                #en|         "of FLOPs itself, no unit.")
            #ko| return (f"모든 항이 정답의 {scale_:.4g}배입니다. 항의 모양(어느 "
            #ko|         "크기들의 곱인지)은 맞으니, 모든 항에 곱한 상수를 보세요. "
            #ko|         "곱셈-덧셈 하나가 FLOP 2개입니다.")
            #en| return (f"every term is {scale_:.4g} times the right one: the terms "
            #en|         "are the right products of sizes, so look at the constant "
            #en|         "they all share. A multiply-add is 2 FLOPs.")
        said_ = []
        if fitted_[0] + fitted_[1] == 8 and fitted_[0] != 4:
            #ko| said_.append(f"투영 네 개는 모두 셌지만, T_q개의 토큰에 {fitted_[0]:g}, "
            #ko|              f"T_k개의 토큰에 {fitted_[1]:g}(2 * C * C의 배수로 "
            #ko|              f"{fitted_[0] / 2:g}개와 {fitted_[1] / 2:g}개)로 나눴습니다. "
            #ko|              "W_Q와 W_O는 쿼리 T_q개에, W_K와 W_V는 키·밸류 T_k개에 "
            #ko|              "곱해집니다.")
            #en| said_.append(f"all four projections are counted, but {fitted_[0] / 2:g} "
            #en|              f"on the T_q tokens and {fitted_[1] / 2:g} on the T_k "
            #en|              "tokens: W_Q and W_O act on the T_q queries, W_K and W_V "
            #en|              "on the T_k keys and values.")
            fitted_[:2] = [4, 4]
        for (name_, _, w_), c_ in zip(monomials_, fitted_):
            if abs(c_ - w_) < 1e-9:
                continue
            c_text_ = f"{c_ + 0.0:g}"
            if name_ == "B·T_q·C²":
                #ko| said_.append(f"{name_} 항의 계수가 {c_text_}입니다. 쿼리 쪽 투영 W_Q와 "
                #ko|              "W_O가 T_q개의 토큰에 2 * C * C씩, 합쳐 4입니다"
                #ko|              + ("(하나가 빠졌습니다)" if c_ == 2 else "") + ".")
                #en| said_.append(f"the coefficient of {name_} is {c_text_}: the "
                #en|              "query-side projections W_Q and W_O take 2 * C * C "
                #en|              "each on T_q tokens, 4 in all"
                #en|              + (" (one of them is missing)" if c_ == 2 else "") + ".")
            elif name_ == "B·T_k·C²":
                #ko| said_.append(f"{name_} 항의 계수가 {c_text_}입니다. 키·밸류 투영 W_K와 "
                #ko|              "W_V가 T_k개의 토큰에 2 * C * C씩, 합쳐 4입니다"
                #ko|              + ("(하나가 빠졌습니다)" if c_ == 2 else "") + ".")
                #en| said_.append(f"the coefficient of {name_} is {c_text_}: the "
                #en|              "key/value projections W_K and W_V take 2 * C * C "
                #en|              "each on T_k tokens, 4 in all"
                #en|              + (" (one of them is missing)" if c_ == 2 else "") + ".")
            elif name_ == "B·T_q·T_k·C":
                #ko| said_.append(f"{name_} 항의 계수가 {c_text_}입니다. 점수와 가중합, "
                #ko|              "두 곱이 2 * B * T_q * T_k * C씩, 합쳐 4입니다.")
                #en| said_.append(f"the coefficient of {name_} is {c_text_}: the scores "
                #en|              "and the weighted sum take 2 * B * T_q * T_k * C "
                #en|              "each, 4 in all.")
            elif "B" not in name_:
                #ko| said_.append(f"B가 없는 항이 있습니다: {c_text_}·{name_}. 모든 곱은 "
                #ko|              "배치의 시퀀스 B개마다 일어납니다.")
                #en| said_.append(f"your count has a term {c_text_}·{name_} without B, but "
                #en|              "every product runs once per sequence of the batch.")
            elif name_ in ("B·T_q²·C", "B·T_k²·C"):
                #ko| said_.append(f"정답에 없는 {c_text_}·{name_} 항이 있습니다. "
                #ko|              "점수는 쿼리 T_q개와 키 T_k개의 짝이라 "
                #ko|              "T_q × T_k개입니다.")
                #en| said_.append(f"your count has a term {c_text_}·{name_}, but the scores "
                #en|              "pair T_q queries with T_k keys, T_q × T_k of them.")
            elif name_ == "B·T_q·T_k":
                #ko| said_.append(f"{c_text_}·{name_} 항에는 C가 없습니다. 점수 하나는 길이 "
                #ko|              "C(헤드마다 D, 헤드를 모두 합쳐 C)의 내적입니다.")
                #en| said_.append(f"your term {c_text_}·{name_} has no C: each score is a "
                #en|              "dot product of length C (D per head, C over all heads).")
            elif name_ in ("B·T_q·C", "B·T_k·C"):
                #ko| said_.append(f"{c_text_}·{name_} 항은 C가 하나 모자랍니다. 토큰 "
                #ko|              "하나를 투영하는 데 (C, C) 행렬을 곱해 2 * C * C입니다.")
                #en| said_.append(f"your term {c_text_}·{name_} has one C too few: "
                #en|              "projecting one token multiplies by a (C, C) matrix, "
                #en|              "2 * C * C.")
            else:
                #ko| said_.append(f"정답에 없는 {c_text_}·{name_} 항이 "
                #ko|              "있습니다.")
                #en| said_.append(f"your count has a term {c_text_}·{name_} that the right "
                #en|              "count does not have.")
        return Also(" ".join(said_) + " ")
    #ko: 항마다 나눠 봅니다: 키가 없으면 쿼리 쪽 투영만, 쿼리가 없으면 키·밸류 투영만
    #ko: 남습니다
    #en: term by term: with no keys only the query-side projections remain, with no queries
    #en: the key/value ones
    try:
        query_side_ = cross_attention_flops(B_, T_q_, 0, C_)
        key_side_ = cross_attention_flops(B_, 0, T_k_, C_)
        products_ = got_[0] - query_side_ - key_side_
        for value_, want_, said_ in [
                (query_side_, 4 * B_ * T_q_ * C_ * C_,
                 #ko| "W_Q와 W_O, 곧 쿼리 쪽 투영 두 개의 항이 다릅니다. 둘 다 "
                 #ko| "T_q개의 토큰에 2 * C * C씩: 4 * B * T_q * C * C입니다."),
                 #en| "the term of the two query-side projections, W_Q and W_O, "
                 #en| "is off: 2 * C * C each on T_q tokens, 4 * B * T_q * C * C."),
                (key_side_, 4 * B_ * T_k_ * C_ * C_,
                 #ko| "W_K와 W_V, 곧 키·밸류 투영의 항이 다릅니다. 둘 다 "
                 #ko| "T_k개의 토큰에 2 * C * C씩: 4 * B * T_k * C * C입니다."),
                 #en| "the term of the key/value projections, W_K and W_V, is "
                 #en| "off: 2 * C * C each on T_k tokens, 4 * B * T_k * C * C."),
                (products_, 4 * B_ * T_q_ * T_k_ * C_,
                 #ko| "어텐션의 두 곱(점수와 가중합)의 항이 "
                 #ko| "다릅니다. 둘 다 2 * B * T_q * T_k * C씩입니다."),
                 #en| "the term of attention's two products (scores and "
                 #en| "weighted sum) is off: 2 * B * T_q * T_k * C each."),
        ]:
            if value_ != want_ and got_[0] - value_ + want_ == count_(*sizes_[0]):
                return said_
    except Exception:
        pass
    #ko: 단항식의 합이 아니면: 크기를 하나씩 두 배로 할 때 답이 어떻게 바뀌는지 말합니다
    #en: not a sum of monomials: how the answer changes when one size doubles
    base_ = (2, 6, 10, 16)
    try:
        grow_ = []
        for i_, name_ in enumerate(("B", "T_q", "T_k", "C")):
            bigger_ = tuple(n_ * 2 if j_ == i_ else n_ for j_, n_ in enumerate(base_))
            got_r_ = cross_attention_flops(*bigger_) / cross_attention_flops(*base_)
            want_r_ = count_(*bigger_) / count_(*base_)
            if abs(got_r_ - want_r_) > 1e-6 * want_r_:
                #ko| grow_.append(f"크기 {name_} 하나만 두 배로 하면 답이 "
                #ko|              f"{got_r_:.4g}배가 되는데, FLOP 수는 "
                #ko|              f"{want_r_:.4g}배가 됩니다")
                #en| grow_.append(f"doubling {name_} makes your count {got_r_:.4g} "
                #en|              f"times larger where the FLOPs grow {want_r_:.4g} times")
        if grow_:
            #ko| return Also(". ".join(grow_) + ". ")
            #en| return Also("; ".join(grow_) + ". ")
    except Exception as error_:
        #ko| return Also(f"크기 {base_}에서 답이 오류를 냅니다({type(error_).__name__}: "
        #ko|             f"{error_}). ")
        #en| return Also(f"your function fails at sizes {base_} "
        #en|             f"({type(error_).__name__}: {error_}). ")
    #ko: 어느 크기에서 맞고 어느 크기에서 틀리는지 말합니다(//나 반올림은 몇 크기에서만 맞습니다)
    #en: where the count is right and where not (a // or a rounding is right at some sizes only)
    tried_ = [(s_, cross_attention_flops(*s_)) for s_ in sizes_ + [base_]]
    right_at_ = [s_ for s_, g_ in tried_ if g_ == count_(*s_)]
    wrong_, got_w_ = next((s_, g_) for s_, g_ in tried_ if g_ != count_(*s_))
    #ko| said_ = (f"크기 (B, T_q, T_k, C) = {wrong_}에서 답은 {got_w_:.6g}인데, 맞는 FLOP 수는 "
    #ko|          f"{count_(*wrong_)}입니다. ")
    #en| said_ = (f"at sizes (B, T_q, T_k, C) = {wrong_} your count is {got_w_:.6g}, the "
    #en|          f"right one {count_(*wrong_)}. ")
    if right_at_:
        #ko| said_ += (f"{right_at_[0]}에서는 맞으므로, 몇몇 크기에서만 맞는 계산(정수 "
        #ko|           "나눗셈 //, 반올림, 두 길이의 평균 같은)이 들어 있습니다. 각 곱을 "
        #ko|           "그 곱이 도는 토큰 수로 세세요. ")
        #en| said_ += (f"At {right_at_[0]} it is right, so something holds at some sizes "
        #en|           "only (a floor division //, a rounding, the mean of two lengths): "
        #en|           "count each product on the tokens it runs over. ")
    return Also(said_)
