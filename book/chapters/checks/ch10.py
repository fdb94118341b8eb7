#ko: 10장 연습 문제의 확인들. 확인 셀 check("ch10-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 10's exercise checks, called by the check cells, check("ch10-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.



@exercise(
    "ch10-ex-llama3",
    #ko| "파장은 2π / inv_freq입니다. 짝마다 0과 1 사이의 비율 keep을 구해 "
    #ko| "그대로 둔 값과 factor로 나눈 값을 "
    #ko| "섞으세요.",
    #en| "the wavelength is 2π / inv_freq; compute for each pair a share keep "
    #en| "between 0 and 1, and mix the speed kept as it is with the speed "
    #en| "divided by factor.",
)
def ch10_ex_llama3(llama3_inv_freq):
    import math as math_
    import torch as torch_
    from transformers import LlamaConfig as config_class_
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS as rope_init_
    #ko: Llama 3.2 1B의 config.json: head_dim 64, 밑 500000, factor 32
    #en: Llama 3.2 1B's config.json: head_dim 64, base 500000, factor 32
    config_ = config_class_(
        hidden_size=2048, num_attention_heads=32, head_dim=64,
        max_position_embeddings=131072, rope_parameters={
            "rope_type": "llama3", "rope_theta": 500000.0, "factor": 32.0,
            "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192})
    base_ = 1.0 / 500000.0 ** (torch_.arange(0, 64, 2, dtype=torch_.float) / 64)
    given_ = base_.clone()
    try:
        got_ = llama3_inv_freq(given_, 32.0, 1.0, 4.0, 8192)
    except NameError:
        raise
    except Exception as error_:
        line_ = (str(error_).strip().splitlines() or [""])[0][:160]
        #ko| return ("llama3_inv_freq가 오류를 냈습니다(inv_freq (32,), factor 32, "
        #ko|         f"low 1, high 4, original 8192): {type(error_).__name__}: {line_}")
        #en| return ("llama3_inv_freq raised an error for inv_freq (32,), factor 32, "
        #en|         f"low 1, high 4, original 8192: {type(error_).__name__}: {line_}")
    if got_ is None:
        raise NotAnswered
    if given_.shape != base_.shape or not torch_.equal(given_, base_):
        #ko| return ("llama3_inv_freq가 인자 inv_freq를 제자리에서 바꿨습니다(mul_, "
        #ko|         "/=, 인덱스에 대입 같은 연산). 부른 쪽의 inv_freq까지 달라집니다. "
        #ko|         "새 텐서를 계산해 돌려주고 inv_freq는 그대로 두세요.")
        #en| return ("llama3_inv_freq changed its argument inv_freq in place (mul_, /=, "
        #en|         "an assignment to an index), so the caller's inv_freq changes too: "
        #en|         "compute and return a new tensor, and leave inv_freq as it was.")
    if not isinstance(got_, torch_.Tensor) or tuple(got_.shape) != (32,):
        shape_ = (tuple(got_.shape) if isinstance(got_, torch_.Tensor)
                  else type(got_).__name__)
        #ko| return f"모양이 (32,)인 텐서여야 하는데 {shape_}입니다."
        #en| return f"expected a tensor of shape (32,), got {shape_}."
    want_, _ = rope_init_["llama3"](config_)
    got_ = got_.to(want_.dtype)
    if torch_.allclose(got_, want_, rtol=1e-5, atol=0):
        #ko: 다른 설정으로 한 번 더: Llama 3.1 8B(head_dim 128, factor 8)
        #en: once more with another config: Llama 3.1 8B (head_dim 128, factor 8)
        other_ = config_class_(
            hidden_size=4096, num_attention_heads=32, head_dim=128,
            max_position_embeddings=131072, rope_parameters={
                "rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
                "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                "original_max_position_embeddings": 8192})
        base_8_ = 1.0 / 500000.0 ** (torch_.arange(0, 128, 2, dtype=torch_.float) / 128)
        want_8_, _ = rope_init_["llama3"](other_)
        try:
            got_8_ = llama3_inv_freq(base_8_.clone(), 8.0, 1.0, 4.0, 8192)
            right_8_ = (isinstance(got_8_, torch_.Tensor) and got_8_.shape == (64,)
                        and torch_.allclose(got_8_.to(want_8_.dtype), want_8_,
                                            rtol=1e-5, atol=0))
        except Exception:
            right_8_ = False
        if right_8_:
            #ko: 값이 맞아도, 이 장의 함수나 라이브러리의 함수를 불러 쓴 답은
            #ko: 직접 짠 것이 아닙니다
            #en: right values, but an answer that calls this chapter's function (or the
            #en: library's) wrote nothing of its own
            called_ = []
            chapter_ = globals().get("inv_freq_llama3")
            library_ = rope_init_.get("llama3")

            def spy_(function_, name_):
                def spied_(*args_, **kwargs_):
                    called_.append(name_)
                    return function_(*args_, **kwargs_)
                return spied_

            if chapter_ is not None and llama3_inv_freq is chapter_:
                called_.append("inv_freq_llama3")
            try:
                if chapter_ is not None:
                    globals()["inv_freq_llama3"] = spy_(chapter_, "inv_freq_llama3")
                if library_ is not None:
                    rope_init_["llama3"] = spy_(library_,
                                                'ROPE_INIT_FUNCTIONS["llama3"]')
                llama3_inv_freq(base_.clone(), 32.0, 1.0, 4.0, 8192)
            finally:
                if chapter_ is not None:
                    globals()["inv_freq_llama3"] = chapter_
                if library_ is not None:
                    rope_init_["llama3"] = library_
            #ko: 뽑은 설정으로 한 번 더(채점기에서는 학생이 본 적 없는 설정)
            #en: once more with a drawn config (in the grader, one no student has seen)
            gen_ = check_generator(10)
            D_ = [32, 64, 128][int(torch_.randint(0, 3, (), generator=gen_))]
            factor_ = float(torch_.randint(2, 65, (), generator=gen_))
            original_ = 1024 * int(torch_.randint(2, 17, (), generator=gen_))
            theta_ = float(10000 * int(torch_.randint(1, 101, (), generator=gen_)))
            drawn_ = config_class_(
                hidden_size=D_ * 8, num_attention_heads=8, head_dim=D_,
                max_position_embeddings=int(original_ * factor_), rope_parameters={
                    "rope_type": "llama3", "rope_theta": theta_, "factor": factor_,
                    "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                    "original_max_position_embeddings": original_})
            base_d_ = 1.0 / theta_ ** (torch_.arange(0, D_, 2, dtype=torch_.float) / D_)
            want_d_, _ = rope_init_["llama3"](drawn_)
            try:
                got_d_ = llama3_inv_freq(base_d_.clone(), factor_, 1.0, 4.0, original_)
                right_d_ = (isinstance(got_d_, torch_.Tensor)
                            and got_d_.shape == want_d_.shape
                            and torch_.allclose(got_d_.to(want_d_.dtype), want_d_,
                                                rtol=1e-5, atol=0))
            except Exception:
                right_d_ = False
            if not right_d_:
                #ko| return ("Llama 3.2 1B와 3.1 8B의 설정에서는 맞지만 head_dim "
                #ko|         f"{D_}, factor {factor_:g}, original {original_}에서는 "
                #ko|         "틀립니다. 고정한 수 대신 인자로 받은 값을 쓰세요.")
                #en| return ("right for Llama 3.2 1B's and 3.1 8B's configs, but wrong for "
                #en|         f"head_dim {D_}, factor {factor_:g}, original {original_}: "
                #en|         "use the arguments, not fixed numbers.")
            if called_:
                #ko| return ("값은 맞지만 llama3_inv_freq가 다른 함수를 불러 씁니다: "
                #ko|         f"{called_[0]}. "
                #ko|         "이 문제는 세 경우(그대로 두는 짝, factor로 나누는 짝, 그 "
                #ko|         "사이에서 섞는 짝)를 직접 계산하는 것입니다.")
                #en| return ("the values are right, but llama3_inv_freq calls "
                #en|         f"{called_[0]}: "
                #en|         "the exercise is to compute the three cases yourself (pairs "
                #en|         "kept, divided by factor, and mixed between).")
            return True
        #ko| return ("factor 32, head_dim 64에서는 맞지만 Llama 3.1 8B의 설정(factor 8, "
        #ko|         "head_dim 128)에서는 틀립니다. 고정한 수 대신 인자로 받은 값을 "
        #ko|         "쓰세요.")
        #en| return ("right for factor 32 and head_dim 64, but wrong for Llama 3.1 8B's "
        #en|         "config (factor 8, head_dim 128): use the arguments, not fixed "
        #en|         "numbers.")
    wavelength_ = 2 * math_.pi / base_
    if torch_.allclose(got_, base_ / 32.0, rtol=1e-5):
        #ko| return ("모든 짝을 factor로 나눴습니다. 그러면 위치 보간입니다. "
        #ko|         "파장이 original / high보다 짧은 빠른 짝은 "
        #ko|         "그대로 두세요.")
        #en| return ("every pair was divided by factor: that is position interpolation. "
        #en|         "Keep the fast pairs, with a wavelength below original / high, "
        #en|         "as they are.")
    if torch_.allclose(got_, base_, rtol=1e-5):
        #ko| return ("바뀐 짝이 없습니다. 파장이 original / low보다 긴 느린 짝은 "
        #ko|         "factor로 나눠야 합니다.")
        #en| return ("no pair changed: the slow pairs, with a wavelength above "
        #en|         "original / low, must be divided by factor.")
    no_pi_ = ((8192 * base_ - 1.0) / 3.0).clamp(0, 1)
    if torch_.allclose(got_, no_pi_ * base_ + (1 - no_pi_) * base_ / 32.0, rtol=1e-5):
        #ko| return ("사이의 짝이 틀립니다. 경계가 2π배 어긋났습니다. "
        #ko|         "파장은 1 / inv_freq가 아니라 2π / inv_freq입니다.")
        #en| return ("the pairs between are wrong, their borders off by 2π: the "
        #en|         "wavelength is 2π / inv_freq, not 1 / inv_freq.")
    #ko: 짝을 파장으로 셋으로 나누어, 어느 쪽이 어떻게 틀렸는지 봅니다
    #en: the pairs in three groups by wavelength: which group is wrong, and how
    ratio_ = got_ / base_
    groups_ = [(wavelength_ < 8192 / 4.0, 1.0), (wavelength_ > 8192 / 1.0, 1 / 32.0)]
    said_ = []
    for (where_, want_ratio_), names_ in zip(groups_, [
            #ko| ("빠른 짝(파장이 original / high = 2048보다 짧은 짝)은", "그대로 두어야"),
            #ko| ("느린 짝(파장이 original / low = 8192보다 긴 짝)은",
            #ko|  "factor로 나누어야")]):
            #en| ("the fast pairs (wavelength below original / high = 2048)",
            #en|  "stay as they are"),
            #en| ("the slow pairs (wavelength above original / low = 8192)",
            #en|  "are divided by factor")]):
        r_ = ratio_[where_]
        if torch_.allclose(r_, torch_.full_like(r_, want_ratio_), rtol=1e-5):
            continue
        how_ = next((h_ for v_, h_ in [
                #ko| (1 / 32.0, "factor로 나뉘었습니다"), (32.0, "factor배가 되었습니다"),
                #ko| (1.0, "그대로입니다")]
                #en| (1 / 32.0, "are divided by factor"), (32.0, "are multiplied by factor"),
                #en| (1.0, "are left as they are")]
                     if torch_.allclose(r_, torch_.full_like(r_, v_), rtol=1e-5)), None)
        if (how_ is None and r_.abs().min() > 0
                and torch_.allclose(r_, r_.mean().expand_as(r_), rtol=1e-5)):
            if r_.mean() < 1:
                #ko| how_ = f"factor 32 대신 {1 / r_.mean().item():.4g}(으)로 나뉘었습니다"
                #en| how_ = f"are divided by {1 / r_.mean().item():.4g} (factor is 32)"
            else:
                #ko| how_ = f"{r_.mean().item():.4g}배가 되었습니다"
                #en| how_ = f"are multiplied by {r_.mean().item():.4g}"
        if how_ is None:
            low_, high_ = r_.min().item(), r_.max().item()
            #ko| how_ = f"{low_:.3g}배에서 {high_:.3g}배까지 바뀌었습니다"
            #en| how_ = f"are scaled by {low_:.3g} to {high_:.3g}"
        #ko| said_.append(f"{names_[0]} {names_[1]} 하는데 {how_}.")
        #en| said_.append(f"{names_[0]} {how_} (they {names_[1]})")
    if said_ and (ratio_ > 1 + 1e-5).any() and (ratio_ < 1 / 32.0 - 1e-5).any():
        #ko| return ("keep이 [0, 1]을 벗어납니다. 빠른 짝은 더 빨라지고 느린 짝은 "
        #ko|         "factor보다 더 느려집니다. keep을 clamp(0, 1)로 자르세요.")
        #en| return ("keep leaves [0, 1]: fast pairs get faster and slow ones "
        #en|         "slower than factor allows. Clamp keep with clamp(0, 1).")
    if said_:
        #ko| joiner_, end_ = " ", ""
        #en| joiner_, end_ = "; ", "."
        return joiner_.join(said_) + end_
    hard_ = torch_.where(wavelength_ > 8192, base_ / 32.0, base_)
    if torch_.allclose(got_, hard_, rtol=1e-5):
        #ko| return ("파장이 original / high와 original / low 사이인 짝을 "
        #ko|         "섞지 않았습니다. keep = (original / 파장 - low) / "
        #ko|         "(high - low)를 0과 1 사이로 자르고 keep * inv_freq + "
        #ko|         "(1 - keep) * inv_freq / factor로 섞으세요.")
        #en| return ("the pairs with a wavelength between original / high and "
        #en|         "original / low are not mixed: clamp keep = (original / "
        #en|         "wavelength - low) / (high - low) to [0, 1] and mix keep * "
        #en|         "inv_freq + (1 - keep) * inv_freq / factor.")
    mid_ = ratio_[(wavelength_ >= 2048) & (wavelength_ <= 8192)]
    if ((mid_ - 1).abs() < 1e-5).logical_or((mid_ - 1 / 32.0).abs() < 1e-5).all():
        #ko| return ("사이의 짝(파장 2048부터 8192까지)을 섞지 않고 그대로 두거나 "
        #ko|         "factor로 나누기만 했습니다. keep으로 두 속도를 섞으세요.")
        #en| return ("the pairs between (wavelength 2048 to 8192) are either kept or "
        #en|         "divided by factor, not mixed: mix the two speeds by keep.")
    #ko| return ("빠른 짝과 느린 짝은 맞았지만 사이의 짝(파장 2048에서 8192)의 섞는 "
    #ko|         "비율이 틀립니다. keep = (original / "
    #ko|         "파장 - low) / (high - low)입니다.")
    #en| return ("the fast and slow pairs are right, but the share that mixes the pairs "
    #en|         "between (wavelength 2048 to 8192) is off: keep = (original / "
    #en|         "wavelength - low) / (high - low).")


@exercise(
    "ch10-ex-yarn",
    #ko| "YaRN이 cos와 sin에 무엇을 곱하는지는 이 장 앞부분의 스케일링 네 가지 목록에 "
    #ko| "있습니다. cos와 sin은 쿼리와 키 모두에 쓰이고, "
    #ko| "점수는 쿼리와 키의 내적입니다.",
    #en| "the chapter's list of the four scalings says what YaRN multiplies cos and "
    #en| "sin by; cos and sin serve both queries and keys, and a score is the dot "
    #en| "product of a query and a key.",
)
def ch10_ex_yarn(answer_attention_scaling, answer_score_factor):
    def scaling_said_(got_, scaling_):
        #ko: attention_scaling으로 적은 값이 무엇을 계산한 것인지, 아니면 몇 배인지
        #en: what a value written for attention_scaling computes, or how many times off it is
        import math as math_
        for value_, said_ in [
                #ko| (0.1 * 4.0 + 1.0, "0.1 × factor + 1을 계산했습니다. ln이 빠졌습니다."),
                #ko| (scaling_ ** 0.5, "0.1 ln(factor) + 1의 제곱근입니다. cos와 sin에는 "
                #ko|  "제곱근이 아닌 0.1 ln(factor) + 1 자체를 곱합니다."),
                #ko| (scaling_ ** 2, "0.1 ln(factor) + 1의 제곱입니다. 제곱은 점수의 "
                #ko|  "배율이고, cos와 sin에는 한 번만 곱합니다."),
                #ko| (math_.log(4.0) + 1.0, "ln(factor) + 1입니다. ln(factor)에 0.1을 "
                #ko|  "곱하지 않았습니다."),
                #ko| (1 / scaling_ ** 0.5, "0.1 ln(factor) + 1의 제곱근의 역수입니다. "
                #ko|  "cos와 sin에는 1보다 큰 0.1 ln(factor) + 1을 곱합니다."),
                #ko| (1 / scaling_ ** 2, "0.1 ln(factor) + 1의 제곱의 역수입니다. "
                #ko|  "cos와 sin에는 1보다 큰 0.1 ln(factor) + 1을 곱합니다.")]:
                #en| (0.1 * 4.0 + 1.0, "that is 0.1 × factor + 1: the ln is missing."),
                #en| (scaling_ ** 0.5, "that is the square root of 0.1 ln(factor) + 1; cos "
                #en|  "and sin are multiplied by 0.1 ln(factor) + 1 itself."),
                #en| (scaling_ ** 2, "that is the square of 0.1 ln(factor) + 1: the score's "
                #en|  "factor; cos and sin get 0.1 ln(factor) + 1 once."),
                #en| (math_.log(4.0) + 1.0, "that is ln(factor) + 1: ln(factor) is not "
                #en|  "multiplied by 0.1."),
                #en| (1 / scaling_ ** 0.5, "that is the inverse of the square root of "
                #en|  "0.1 ln(factor) + 1; cos and sin get 0.1 ln(factor) + 1, above 1."),
                #en| (1 / scaling_ ** 2, "that is the inverse of the square of "
                #en|  "0.1 ln(factor) + 1; cos and sin get 0.1 ln(factor) + 1, above 1.")]:
            if abs(got_ - value_) < 5e-4:
                return said_ + " "
        ratio_ = got_ / scaling_
        #ko| said_ = f"맞는 값의 {ratio_:.4g}배입니다. "
        #en| said_ = f"{ratio_:.4g} times the right value. "
        if got_ < 1:
            #ko| said_ += ("1보다 작으면 점수가 작아집니다. YaRN은 긴 문맥에서 점수를 "
            #ko|           "키웁니다. ")
            #en| said_ += ("below 1 it makes the scores smaller; YaRN makes them larger "
            #en|           "for long contexts. ")
        return said_

    def score_said_(got_, yours_, scaling_):
        #ko: 점수의 배율로 적은 값이 answer_attention_scaling과 어떤 관계인지, 아니면 몇 배인지
        #en: how a value written for the score's factor relates to the attention_scaling
        #en: written, or how many times off it is
        if abs(yours_ - scaling_) >= 5e-4 and abs(got_ - yours_ ** 2) < 5e-4:
            #ko| return ("answer_attention_scaling의 제곱이니 관계는 맞습니다. "
            #ko|         "answer_attention_scaling을 고치면 함께 맞습니다. ")
            #en| return ("the square of your answer_attention_scaling, as it should be: "
            #en|         "fixing answer_attention_scaling fixes it too. ")
        for value_, said_ in [
                #ko| (yours_, "answer_attention_scaling과 같습니다. 쿼리와 키가 저마다 배율을 "
                #ko|  "받으므로 점수는 그 제곱만큼 커집니다."),
                #ko| (2 * yours_, "answer_attention_scaling의 두 배입니다. 쿼리와 키의 배율은 "
                #ko|  "더해지지 않고 곱해집니다(제곱)."),
                #ko| (scaling_ ** 4, "0.1 ln(factor) + 1의 네제곱입니다. 쿼리와 키가 배율을 "
                #ko|  "한 번씩 받으므로 점수는 제곱입니다."),
                #ko| (2 * scaling_ - 1, "1 + 2 × 0.1 ln(factor)입니다. 제곱은 "
                #ko|  "(0.1 ln(factor) + 1)²이고, 그 근삿값이 아닙니다."),
                #ko| (1.0, "점수가 그대로라는 답입니다. 쿼리와 키가 저마다 배율을 받아 "
                #ko|  "점수도 커집니다."),
                #ko| (1 / scaling_ ** 2, "맞는 배율의 역수입니다. 점수는 작아지지 않고 "
                #ko|  "커집니다.")]:
                #en| (yours_, "it equals your answer_attention_scaling; the query and the "
                #en|  "key each get the factor, so the score gets its square."),
                #en| (2 * yours_, "twice your answer_attention_scaling; the query's and the "
                #en|  "key's factors multiply (a square), they do not add."),
                #en| (scaling_ ** 4, "the fourth power of 0.1 ln(factor) + 1; the query and "
                #en|  "the key take the factor once each, so the score takes its square."),
                #en| (2 * scaling_ - 1, "that is 1 + 2 × 0.1 ln(factor); the square is "
                #en|  "(0.1 ln(factor) + 1)², not its approximation."),
                #en| (1.0, "that says the score is unchanged; the query and the key each get "
                #en|  "the factor, and the score grows."),
                #en| (1 / scaling_ ** 2, "the inverse of the right factor: the score grows, "
                #en|  "it does not shrink.")]:
            if abs(got_ - value_) < 5e-4:
                return said_ + " "
        #ko| return f"맞는 값의 {got_ / scaling_ ** 2:.4g}배입니다. "
        #en| return f"{got_ / scaling_ ** 2:.4g} times the right value. "

    import math as math_
    if answer_attention_scaling is None or answer_score_factor is None:
        raise NotAnswered
    for name_, value_ in [("answer_attention_scaling", answer_attention_scaling),
                          ("answer_score_factor", answer_score_factor)]:
        if isinstance(value_, bool) or not isinstance(value_, (int, float)):
            #ko| return (f"{name_}에는 수를 적으세요"
            #ko|         f"(지금 답: {value_!r}, {type(value_).__name__}).")
            #en| return (f"write {name_} as a number "
            #en|         f"(got {value_!r}, a {type(value_).__name__}).")
    scaling_ = 0.1 * math_.log(4.0) + 1.0
    #ko: 흔한 실수로 나오는 값과 그 힌트
    #en: the values common mistakes give, and their hints
    slips_ = {
        #ko| 0.1 * math_.log10(4.0) + 1.0: "로그는 자연로그(ln)입니다.",
        #ko| 0.1 * math_.log2(4.0) + 1.0: "로그는 자연로그(ln)입니다.",
        #ko| 1.0: "YaRN은 cos와 sin에 0.1 ln(factor) + 1을 곱합니다.",
        #en| 0.1 * math_.log10(4.0) + 1.0: "the logarithm is the natural one (ln).",
        #en| 0.1 * math_.log2(4.0) + 1.0: "the logarithm is the natural one (ln).",
        #en| 1.0: "YaRN multiplies cos and sin by 0.1 ln(factor) + 1.",
    }
    for value_, hint_ in slips_.items():
        if abs(answer_attention_scaling - value_) < 5e-4:
            return hint_
    if (abs(answer_attention_scaling - scaling_) < 5e-4
            and abs(answer_score_factor - scaling_) < 5e-4):
        #ko| return ("점수는 회전한 쿼리와 회전한 키의 내적입니다. 둘 다 배율을 받으므로 "
        #ko|         "점수는 배율의 제곱만큼 커집니다.")
        #en| return ("the score is the dot product of the rotated query and the "
        #en|         "rotated key; both get the factor, so the score gets its square.")
    more_ = {
        #ko| 0.1 * math_.log(4.0): "1을 더해야 합니다: 0.1 ln(factor) + 1.",
        #ko| 1 / scaling_: ("역수입니다. transformers는 cos와 sin에 "
        #ko|                "0.1 ln(factor) + 1(1보다 큼)을 곱합니다."),
        #ko| math_.log(4.0): ("ln(factor)에 0.1을 곱하고 1을 더합니다: "
        #ko|                  "0.1 ln(factor) + 1."),
        #ko| 4.0: "attention_scaling은 factor가 아니라 0.1 ln(factor) + 1입니다.",
        #en| 0.1 * math_.log(4.0): "the 1 is missing: 0.1 ln(factor) + 1.",
        #en| 1 / scaling_: ("that is the inverse: transformers multiplies cos and sin "
        #en|                "by 0.1 ln(factor) + 1, above 1."),
        #en| math_.log(4.0): ("ln(factor) is multiplied by 0.1, then 1 is added: "
        #en|                  "0.1 ln(factor) + 1."),
        #en| 4.0: "attention_scaling is not the factor itself: it is 0.1 ln(factor) + 1.",
    }
    for value_, hint_ in more_.items():
        if abs(answer_attention_scaling - value_) < 5e-4:
            return hint_
    right_ = abs(answer_attention_scaling - scaling_) < 5e-4
    #ko: 공식은 맞고 factor만 다른 값인지: 0.1 ln(n) + 1을 n으로 되돌려 봅니다
    #en: the formula right with another factor? 0.1 ln(n) + 1 read back as n
    n_ = round(math_.exp(min((answer_attention_scaling - 1.0) / 0.1, 20.0)))
    if (not right_ and 1 < n_ <= 1000
            and abs(0.1 * math_.log(n_) + 1.0 - answer_attention_scaling) < 5e-4):
        #ko| return (f"0.1 ln({n_}) + 1을 계산했습니다. 공식은 맞지만 factor가 {n_}입니다. "
        #ko|         "Qwen3 8B의 factor는 4입니다.")
        #en| return (f"that is 0.1 ln({n_}) + 1: the formula is right, but with a factor "
        #en|         f"of {n_}; Qwen3 8B's factor is 4.")
    if right_:
        for value_, hint_ in [
                #ko| (2 * scaling_, "점수는 두 배가 아니라 제곱만큼 커집니다. 쿼리와 "
                #ko|  "키가 저마다 배율을 받아 곱해집니다."),
                #ko| (scaling_ ** 0.5, "제곱근이 아니라 제곱입니다. 쿼리와 키가 "
                #ko|  "저마다 배율을 받습니다.")]:
                #en| (2 * scaling_, "the score grows by the square, not twice: the "
                #en|  "query and the key each get the factor, and they are multiplied."),
                #en| (scaling_ ** 0.5, "the square, not the square root: the query "
                #en|  "and the key each get the factor.")]:
            if abs(answer_score_factor - value_) < 5e-4:
                return hint_
    said_ = ""
    if not right_:
        said_ += ("answer_attention_scaling: "
                  + scaling_said_(answer_attention_scaling, scaling_))
    if abs(answer_score_factor - scaling_ ** 2) >= 5e-4:
        said_ += "answer_score_factor: " + score_said_(
            answer_score_factor, answer_attention_scaling, scaling_)
    return said_.strip() or True


@exercise(
    "ch10-ex-qk-norm",
    #ko| "Qwen3Attention.forward에서 q_norm과 apply_rotary_pos_emb의 순서를 보세요.",
    #en| "look at the order of q_norm and apply_rotary_pos_emb in Qwen3Attention.forward.",
)
def ch10_ex_qk_norm(qwen3_heads, rope_halves):
    def verdict_():
        import torch as torch_
        from transformers.models.qwen3.modeling_qwen3 import Qwen3RMSNorm as norm_class_
        from transformers.models.qwen3.modeling_qwen3 import apply_rotary_pos_emb as rotate_
        check_seed(14)
        B_, T_, D_ = 2, 5, 16
        q_flat_, k_flat_ = torch_.randn(B_, T_, 4 * D_), torch_.randn(B_, T_, 2 * D_)
        q_norm_, k_norm_ = norm_class_(D_, eps=1e-6), norm_class_(D_, eps=1e-6)
        q_norm_.weight.normal_(1.0, 0.5)
        k_norm_.weight.normal_(1.0, 0.5)
        angles_ = torch_.arange(3, 3 + T_)[:, None].float() * 0.5 ** torch_.arange(D_ // 2)
        a_ = torch_.cat([angles_, angles_], dim=-1).expand(B_, T_, D_)     # (B, T, D)
        #ko: 정규화가 받은 텐서의 모양을 기록합니다
        #en: the shapes the norms are given are recorded
        normed_ = []

        def spy_q_(x_):
            normed_.append(("q_norm", tuple(x_.shape)))
            return q_norm_(x_)

        def spy_k_(x_):
            normed_.append(("k_norm", tuple(x_.shape)))
            return k_norm_(x_)

        try:
            result_ = qwen3_heads(q_flat_.clone(), k_flat_.clone(), spy_q_, spy_k_,
                                  a_.cos()[:, None], a_.sin()[:, None], D_)
        except NameError:
            raise
        except Exception as error_:
            line_ = (str(error_).strip().splitlines() or [""])[0][:160]
            bad_ = [(n_, sh_) for n_, sh_ in normed_ if sh_[-1] != D_]
            if bad_:
                name_, shape_ = bad_[0]
                #ko| return (f"{name_}에 들어간 텐서의 모양이 {shape_}입니다. 정규화는 헤드 "
                #ko|         f"하나의 특징 D = {D_}개에 대한 것이므로 마지막 축이 "
                #ko|         f"(B, H, T, D)의 D여야 합니다"
                #ko|         + ("(헤드로 나누기 전의 투영에 썼습니다). " if len(shape_) == 3
                #ko|            else ". ") + f"오류: {type(error_).__name__}: {line_}")
                #en| return (f"{name_} was given a tensor of shape {shape_}: it normalises "
                #en|         f"one head's D = {D_} features, so its last axis must be the "
                #en|         "D of (B, H, T, D)"
                #en|         + (" (it got the projection before the split into heads); "
                #en|            if len(shape_) == 3 else "; ")
                #en|         + f"error: {type(error_).__name__}: {line_}")
            #ko| return (f"qwen3_heads가 오류를 냈습니다(q_flat (2, 5, 64), k_flat (2, 5, "
            #ko|         f"32), cos와 sin (2, 1, 5, 16), d_head 16): "
            #ko|         f"{type(error_).__name__}: {line_}")
            #en| return (f"qwen3_heads raised an error for q_flat (2, 5, 64), k_flat "
            #en|         f"(2, 5, 32), cos and sin (2, 1, 5, 16), d_head 16: "
            #en|         f"{type(error_).__name__}: {line_}")
        if result_ is None:
            raise NotAnswered
        if not (isinstance(result_, (tuple, list)) and len(result_) == 2
                and all(isinstance(t_, torch_.Tensor) for t_ in result_)):
            #ko| return ("쿼리와 키, 텐서 두 개를 (q, k) 순서로 돌려주세요"
            #ko|         f"(지금 답: {type(result_).__name__}).")
            #en| return ("return two tensors, the queries and the keys, as (q, k) "
            #en|         f"(got a {type(result_).__name__}).")
        q_, k_ = (t_.to(q_flat_.dtype) for t_ in result_)
        heads_q_ = q_flat_.view(B_, T_, 4, D_).transpose(1, 2)
        heads_k_ = k_flat_.view(B_, T_, 2, D_).transpose(1, 2)
        want_q_, want_k_ = rotate_(q_norm_(heads_q_), k_norm_(heads_k_), a_.cos(), a_.sin())
        if (tuple(q_.shape), tuple(k_.shape)) != ((B_, 4, T_, D_), (B_, 2, T_, D_)):
            #ko| return (f"쿼리와 키의 모양이 {tuple(q_.shape)}, {tuple(k_.shape)}입니다. "
            #ko|         f"(B, H, T, D) = {(B_, 4, T_, D_)}, (B, H_kv, T, D) = "
            #ko|         f"{(B_, 2, T_, D_)}이어야 합니다. 쿼리, 키 순서로 돌려주세요.")
            #en| return (f"the queries and keys are {tuple(q_.shape)} and "
            #en|         f"{tuple(k_.shape)}; expected (B, H, T, D) = {(B_, 4, T_, D_)} "
            #en|         f"and (B, H_kv, T, D) = {(B_, 2, T_, D_)}, queries first.")
        if (torch_.allclose(q_, want_q_, atol=1e-5)
                and torch_.allclose(k_, want_k_, atol=1e-5)):
            return True
        #ko: 쿼리와 키를 따로: 흔한 실수가 만드는 값과 견줍니다
        #en: queries and keys apart, against what the usual slips compute
        def pairs_(x_):
            x1_, x2_ = x_[..., 0::2], x_[..., 1::2]
            turned_ = torch_.stack([-x2_, x1_], dim=-1).flatten(-2)
            return x_ * a_.cos()[:, None] + turned_ * a_.sin()[:, None]

        said_ = []
        for name_, got_, heads_, norm_, other_norm_, want_ in [
                ("q", q_, heads_q_, q_norm_, k_norm_, want_q_),
                ("k", k_, heads_k_, k_norm_, q_norm_, want_k_)]:
            if torch_.allclose(got_, want_, atol=1e-5):
                continue
            turned_ = rotate_(heads_, heads_, a_.cos(), a_.sin())[0]
            for value_, how_ in [
                    #ko| (norm_(heads_), "정규화만 하고 회전하지 않았습니다"),
                    #ko| (norm_(rotate_(norm_(heads_), heads_, a_.cos(), a_.sin())[0]),
                    #ko|  "회전 앞뒤로 두 번 정규화했습니다"),
                    #ko| (rotate_(other_norm_(heads_), heads_, a_.cos(), a_.sin())[0]
                    #ko|  if other_norm_.weight.shape == norm_.weight.shape else None,
                    #ko|  "다른 쪽의 정규화 가중치를 썼습니다"
                    #ko|  "(q_norm과 k_norm은 따로 학습됩니다)"),
                    #ko| (pairs_(norm_(heads_)), "이웃한 특징끼리 짝을 지어 회전했습니다. "
                    #ko|  "rope_halves는 특징 i와 i + D/2를 짝짓습니다(다시 정의했나요?)"),
                    #ko| (turned_, "정규화가 빠졌습니다")]:
                    #en| (norm_(heads_), "normalised but not rotated"),
                    #en| (norm_(rotate_(norm_(heads_), heads_, a_.cos(), a_.sin())[0]),
                    #en|  "normalised twice, before and after the rotation"),
                    #en| (rotate_(other_norm_(heads_), heads_, a_.cos(), a_.sin())[0]
                    #en|  if other_norm_.weight.shape == norm_.weight.shape else None,
                    #en|  "the other side's norm weights "
                    #en|  "(q_norm and k_norm are trained apart)"),
                    #en| (pairs_(norm_(heads_)), "rotated by neighbouring pairs; rope_halves "
                    #en|  "pairs feature i with i + D/2 (was it redefined?)"),
                    #en| (turned_, "not normalised")]:
                if value_ is not None and torch_.allclose(got_, value_, atol=1e-5):
                    said_.append(f"{name_}: {how_}")
                    break
        if said_:
            #ko| return ". ".join(said_) + "."
            #en| return "; ".join(said_) + "."
        after_q_, after_k_ = rotate_(heads_q_, heads_k_, a_.cos(), a_.sin())
        if torch_.allclose(q_, q_norm_(after_q_), atol=1e-5):
            #ko| return ("아직 회전한 뒤에 정규화합니다. Qwen3은 헤드로 나눈 뒤, 회전하기 "
            #ko|         "전에 정규화합니다.")
            #en| return ("it still normalises after the rotation: Qwen3 normalises "
            #en|         "after the split into heads and before the rotation.")
        if (torch_.allclose(q_, heads_q_, atol=1e-5)
                or torch_.allclose(q_, after_q_, atol=1e-5)):
            #ko| return "정규화가 빠졌습니다. q_norm과 k_norm을 회전하기 전에 쓰세요."
            #en| return "the norm is missing: apply q_norm and k_norm before the rotation."
        return effect_said_(q_, k_, want_q_, want_k_, heads_q_, heads_k_, q_norm_, k_norm_,
                            a_, normed_)

    def effect_said_(q_, k_, want_q_, want_k_, heads_q_, heads_k_, q_norm_, k_norm_, a_,
                     normed_):
        #ko: 알려진 실수가 아니면, 틀린 쪽마다 답이 만든 결과를 말합니다
        #en: no known slip: for each wrong side, what the answer's result is
        import torch as torch_
        said_ = []
        #ko: 노트북의 rope_halves(다시 정의되었을 수 있습니다)로 순서만 맞게 계산한 값
        #en: the right order computed with the notebook's rope_halves (maybe redefined)
        try:
            mine_q_ = rope_halves(q_norm_(heads_q_), a_.cos()[:, None], a_.sin()[:, None])
            mine_k_ = rope_halves(k_norm_(heads_k_), a_.cos()[:, None], a_.sin()[:, None])
            if (torch_.allclose(q_, mine_q_, atol=1e-5)
                    and torch_.allclose(k_, mine_k_, atol=1e-5)):
                #ko| return ("정규화와 회전의 순서는 맞지만, 노트북에 지금 정의된 "
                #ko|         "rope_halves가 apply_rotary_pos_emb와 다르게 회전합니다"
                #ko|         "(다시 정의했나요?). 이 장의 "
                #ko|         "rope_halves 셀을 다시 실행하세요.")
                #en| return ("the order of the norm and the rotation is right, but the "
                #en|         "rope_halves now defined in the notebook rotates otherwise than "
                #en|         "apply_rotary_pos_emb (was it redefined?): run the chapter's "
                #en|         "rope_halves cell again.")
        except Exception:
            pass
        names_ = [n_ for n_, _ in normed_]
        for name_, got_, want_ in [("q", q_, want_q_), ("k", k_, want_k_)]:
            if torch_.allclose(got_, want_, atol=1e-5):
                continue
            if f"{name_}_norm" not in names_:
                #ko| said_.append(f"{name_}: {name_}_norm을 부르지 않았습니다")
                #en| said_.append(f"{name_}: {name_}_norm is never called")
                continue
            layout_ = value_mistake(got_, want_, axes="B H T D")
            if layout_:
                said_.append(f"{name_}: {str(layout_).strip()}")
                continue
            same_length_ = torch_.allclose(got_.norm(dim=-1), want_.norm(dim=-1), atol=1e-4)
            if same_length_:
                #ko| said_.append(f"{name_}: 헤드와 토큰마다 벡터의 길이는 맞지만 방향이 "
                #ko|              "다릅니다. 회전이 "
                #ko|              "apply_rotary_pos_emb와 다릅니다")
                #en| said_.append(f"{name_}: each head's and token's vector has the right "
                #en|              "length but another direction: the rotation differs from "
                #en|              "apply_rotary_pos_emb")
            else:
                #ko| said_.append(f"{name_}: 헤드와 토큰마다 벡터의 길이가 정규화하고 회전한 "
                #ko|              "것과 다릅니다. 정규화가 Qwen3처럼(헤드마다 D개의 특징에, "
                #ko|              "회전하기 전에) 걸리지 "
                #ko|              "않았습니다")
                #en| said_.append(f"{name_}: the vectors' lengths per head and token differ "
                #en|              "from normalised-then-rotated ones: the norm does not act "
                #en|              "as in Qwen3 (over each head's D features, before the "
                #en|              "rotation)")
        #ko| return ". ".join(x_.rstrip(" .") for x_ in said_) + "."
        #en| return "; ".join(x_.rstrip(" ;.") for x_ in said_) + "."

    import torch as torch_
    #ko: 기울기 없이 (정규화 가중치를 제자리에서 바꿉니다)
    #en: without gradients (the norm weights are changed in place)
    with torch_.no_grad():
        return verdict_()


@exercise(
    "ch10-ex-mla-bytes",
    #ko| "MLA는 레이어마다 토큰 하나에 키와 밸류를 다시 만드는 데 필요한 것만 "
    #ko| "보관합니다. 잠재 벡터와, 헤드들이 함께 쓰는 회전한 부분입니다. 펼치면 "
    #ko| "헤드마다 키(회전하지 않는 부분과 회전하는 부분)와 밸류를 따로 가집니다.",
    #en| "per layer and token MLA keeps only what rebuilds the keys and values: the "
    #en| "latent and the rotated part all heads share. Expanded, every head has its "
    #en| "own key (the part not rotated and the rotated part) and value.",
)
def ch10_ex_mla_bytes(answer_mla_bytes, answer_expanded_bytes):
    def bytes_parts_(expanded_):
        #ko: 토큰 하나의 캐시 바이트를 이루는 항: 맞는 값과 흔히 틀리는 값
        #en: the terms of a token's cache bytes: the right value and the usual wrong ones
        if expanded_:
            return [
                #ko| (27, [(1, "레이어 27개 대신 1개")]),
                #ko| (16, [(1, "헤드 16개 대신 1개"), (128, "헤드 16개 대신 128개(V3)")]),
                #ko| (320, [(192, "키(128 + 64)만, 밸류 없이"),
                #ko|        (128, "밸류(또는 키의 128)만"),
                #ko|        (256, "키의 회전하는 64 없이(128 + 128)"),
                #ko|        (384, "밸류도 키처럼 192로"),
                #ko|        (640, "키와 밸류를 두 번씩"),
                #ko|        (576, "펼친 키와 밸류 대신 "
                #ko|         "잠재 벡터와 공유 키(512 + 64)")]),
                #ko| (2, [(1, "바이트가 아닌 값의 수(2바이트를 곱하지 않음)"),
                #ko|      (4, "bfloat16의 2바이트 대신 4바이트(float32)"),
                #ko|      (16, "2바이트 대신 16비트")]),
                #ko| (1, [(2**-10, "바이트가 아닌 KiB"), (1e-3, "바이트가 아닌 KB"),
                #ko|      (2**-20, "바이트가 아닌 MiB")]),
                #en| (27, [(1, "one layer instead of 27")]),
                #en| (16, [(1, "one head instead of 16"),
                #en|       (128, "128 heads (V3's) instead of 16")]),
                #en| (320, [(192, "the keys (128 + 64) only, no values"),
                #en|        (128, "the values (or the keys' 128) only"),
                #en|        (256, "keys without their rotated 64 (128 + 128)"),
                #en|        (384, "values as wide as keys, 192"),
                #en|        (640, "keys and values counted twice"),
                #en|        (576, "the latent and shared key (512 + 64) instead of "
                #en|         "expanded keys and values")]),
                #en| (2, [(1, "values, not bytes (no 2 bytes per value)"),
                #en|      (4, "4 bytes per value (float32) instead of bfloat16's 2"),
                #en|      (16, "16 bits per value instead of 2 bytes")]),
                #en| (1, [(2**-10, "KiB, not bytes"), (1e-3, "KB, not bytes"),
                #en|      (2**-20, "MiB, not bytes")]),
            ]
        return [
            #ko| (27, [(1, "레이어 27개 대신 1개")]),
            #ko| (1, [(16, "헤드마다 하나씩(16배)")]),
            #ko| (576, [(512, "잠재 벡터만, 회전한 공유 키 64 없이"),
            #ko|        (64, "회전한 공유 키 64만, 잠재 벡터 없이"),
            #ko|        (704, "잠재 벡터와 공유 키에 회전하지 않는 키의 128까지"),
            #ko|        (1088, "잠재 벡터를 키와 밸류에 하나씩(2 × 512 + 64)"),
            #ko|        (1152, "잠재 벡터와 공유 키를 "
            #ko|         "키와 밸류에 하나씩(2 × 576)"),
            #ko|        (640, "잠재 벡터와 밸류의 128(512 + 128)"),
            #ko|        (320, "펼친 키와 밸류(128 + 64 + 128)")]),
            #ko| (2, [(1, "바이트가 아닌 값의 수(2바이트를 곱하지 않음)"),
            #ko|      (4, "bfloat16의 2바이트 대신 4바이트(float32)"),
            #ko|      (16, "2바이트 대신 16비트")]),
            #ko| (1, [(2**-10, "바이트가 아닌 KiB"), (1e-3, "바이트가 아닌 KB"),
            #ko|      (2**-20, "바이트가 아닌 MiB")]),
            #en| (27, [(1, "one layer instead of 27")]),
            #en| (1, [(16, "one per head (16 times)")]),
            #en| (576, [(512, "the latent only, without the rotated shared key's 64"),
            #en|        (64, "the rotated shared key's 64 only, without the latent"),
            #en|        (704, "the latent and shared key plus the keys' 128 not rotated"),
            #en|        (1088, "one latent for keys and one for values (2 × 512 + 64)"),
            #en|        (1152, "the latent and shared key counted for keys and for values "
            #en|         "(2 × 576)"),
            #en|        (640, "the latent and the values' 128 (512 + 128)"),
            #en|        (320, "the expanded key and value (128 + 64 + 128)")]),
            #en| (2, [(1, "values, not bytes (no 2 bytes per value)"),
            #en|      (4, "4 bytes per value (float32) instead of bfloat16's 2"),
            #en|      (16, "16 bits per value instead of 2 bytes")]),
            #en| (1, [(2**-10, "KiB, not bytes"), (1e-3, "KB, not bytes"),
            #en|      (2**-20, "MiB, not bytes")]),
        ]

    if answer_mla_bytes is None or answer_expanded_bytes is None:
        raise NotAnswered
    for name_, value_ in [("answer_mla_bytes", answer_mla_bytes),
                          ("answer_expanded_bytes", answer_expanded_bytes)]:
        if isinstance(value_, bool) or not isinstance(value_, (int, float)):
            #ko| return (f"{name_}에는 바이트 수를 숫자로 적으세요"
            #ko|         f"(지금 답: {value_!r}, {type(value_).__name__}).")
            #en| return (f"write {name_} as a number of bytes "
            #en|         f"(got {value_!r}, a {type(value_).__name__}).")
    mla_ = 27 * (512 + 64) * 2
    expanded_ = 27 * 16 * (128 + 64 + 128) * 2
    #ko: 흔한 실수로 나오는 값과 그 힌트
    #en: the values common mistakes give, and their hints
    slips_ = {
        #ko| 27 * 512 * 2: "회전한 공유 키(qk_rope_head_dim)도 캐시에 들어갑니다.",
        #ko| (512 + 64) * 2: "레이어 27개를 모두 세세요.",
        #ko| 27 * 16 * (512 + 64) * 2: "잠재 벡터는 헤드마다가 아니라 토큰마다 하나입니다.",
        #en| 27 * 512 * 2: "the rotated shared key (qk_rope_head_dim) is cached too.",
        #en| (512 + 64) * 2: "count all 27 layers.",
        #en| 27 * 16 * (512 + 64) * 2: "there is one latent per token, not one per head.",
    }
    for value_, hint_ in slips_.items():
        if answer_mla_bytes == value_:
            return hint_
    if answer_mla_bytes == 27 * (512 + 64 + 128) * 2:
        #ko| return ("회전하지 않는 키의 부분(qk_nope_head_dim)은 캐시에 넣지 않습니다. "
        #ko|         "어텐션을 계산할 때 잠재 벡터에서 펼쳐 만듭니다.")
        #en| return ("the keys' part that is not rotated (qk_nope_head_dim) is not "
        #en|         "cached: it is expanded from the latent when attention is computed.")
    if answer_mla_bytes == 27 * (512 + 16 * 64) * 2:
        #ko| return ("회전한 키 64는 모든 헤드가 함께 씁니다. 헤드마다가 아니라 토큰마다 "
        #ko|         "한 번만 캐시합니다(512 + 64).")
        #en| return ("all heads share the rotated key's 64: it is cached once per token, "
        #en|         "not once per head (512 + 64).")
    if answer_mla_bytes == mla_ and answer_expanded_bytes == 27 * (16 * 256 + 64) * 2:
        #ko| return ("펼치면 헤드마다 회전한 64를 따로 가집니다. 헤드 하나의 키는 128 + 64, "
        #ko|         "곧 16 × (128 + 64 + 128)입니다.")
        #en| return ("expanded, every head has its own rotated 64: one head's key is "
        #en|         "128 + 64 wide, so 16 × (128 + 64 + 128).")
    if answer_mla_bytes == 27 * (2 * 512 + 64) * 2:
        #ko| return ("잠재 벡터 하나가 키와 밸류를 함께 만듭니다. 키와 밸류에 "
        #ko|         "하나씩 세지 마세요.")
        #en| return ("one latent serves both keys and values: "
        #en|         "do not count one for each.")
    terms_ = [
        #ko| (1 / 2, "값의 수입니다. 값 하나에 2바이트(bfloat16)를 곱하세요."),
        #ko| (2, "bfloat16은 값 하나에 2바이트입니다(float32는 4)."),
        #ko| (1 / 27, "레이어 27개를 모두 세세요."),
        #ko| (1 / 16, "펼치면 헤드 16개가 저마다 키와 밸류를 가집니다."),
        #ko| (192 / 320, "밸류(헤드마다 v_head_dim = 128)도 세세요."),
        #ko| (128 / 320, "키(헤드마다 128 + 64)도 세세요."),
        #en| (1 / 2, "that counts values: multiply by 2 bytes per value (bfloat16)."),
        #en| (2, "bfloat16 takes 2 bytes per value (float32 takes 4)."),
        #en| (1 / 27, "count all 27 layers."),
        #en| (1 / 16, "expanded, each of the 16 heads has its own key and value."),
        #en| (192 / 320, "count the values too (v_head_dim = 128 per head)."),
        #en| (128 / 320, "count the keys too (128 + 64 per head)."),
    ]
    #ko: 항 하나로 설명되는 배율만 그 항으로 말합니다(둘 이상이면 아래에서
    #ko: 가능한 조합을 모두 말합니다)
    #en: a factor that one term explains is named by it (for more, terms_said below
    #en: names every combination that fits)
    def single_(got_, want_, terms_):
        #ko: 2배는 float32일 수도, 키와 밸류를 두 번 센 것일 수도 있어
        #ko: 아래에서 둘 다 말합니다
        #en: twice may be float32 or keys and values counted twice: terms_said says both
        return any(abs(got_ / want_ - f_) <= 1e-6 * f_ for f_, _ in terms_ if f_ != 2)

    if single_(answer_mla_bytes, mla_, terms_[:3]):
        return factor_mistake(answer_mla_bytes, mla_, terms_[:3])
    if answer_mla_bytes == mla_ and single_(answer_expanded_bytes, expanded_, terms_):
        return factor_mistake(answer_expanded_bytes, expanded_, terms_)
    if answer_mla_bytes == mla_ and answer_expanded_bytes == 27 * 16 * (128 + 128) * 2:
        #ko| return "펼친 키는 헤드마다 128 + 64차원입니다(회전하는 부분 포함)."
        #en| return "an expanded key is 128 + 64 wide per head (the rotated part included)."
    said_ = ""
    if answer_mla_bytes != mla_:
        said_ += "answer_mla_bytes: " + terms_said(answer_mla_bytes, bytes_parts_(False))
    if answer_expanded_bytes != expanded_:
        said_ += ("answer_expanded_bytes: "
                  + terms_said(answer_expanded_bytes, bytes_parts_(True)))
    return said_.strip() or True
