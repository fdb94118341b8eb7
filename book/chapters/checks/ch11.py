#ko: 11장 연습 문제의 확인들. 확인 셀 check("ch11-ex-...")가 부릅니다.
#ko: 함수의 인자는 노트북에서 읽는 이름(답과 장의 코드)이고, 그 값은
#ko: check()가 넘깁니다. 준비 셀에 확인 도우미의 코드 다음으로 이 파일이
#ko: 들어가므로 도우미(shape_mistake, value_mistake 등)는 전역 이름입니다.
#en: Chapter 11's exercise checks, called by the check cells, check("ch11-ex-...").
#en: A function's parameters name what it reads from the notebook (answers and
#en: the chapter's code); check() passes their values. The set-up cell holds
#en: this file after _exercise_helper.py, so its helpers (shape_mistake, ...)
#en: are globals here.



@exercise(
    "ch11-ex-slot",
    #ko| "블록은 table[pos // block_size], 그 안의 자리는 pos % block_size입니다.",
    #en| "the block is table[pos // block_size], the slot within it pos % block_size.",
)
def ch11_ex_slot(slot):
    import torch as torch_

    cases_ = [([6, 1], 5, 4), ([7, 2, 9], 9, 4), ([3, 0, 5, 1], 13, 4),
              ([2, 8, 4], 7, 3), ([5, 11], 16, 16), ([4, 9, 0], 2, 4),
              ([8, 3, 6, 2], 7, 4)]
    #ko: 마지막 경우는 뽑은 수로(채점기에서는 학생이 본 적 없는 경우)
    #en: the last case drawn (in the grader, a case no student has seen)
    gen_ = check_generator(11)
    size_ = int(torch_.randint(2, 9, (), generator=gen_))
    #ko: 표는 size_칸 이상이라, 흔한 실수(pos % block_size로 블록을 고른 답)도 오류 없이 값을 냅니다
    #en: a table of at least size_ blocks, so that a usual slip (the block by pos % block_size)
    #en: gives a value, not an error
    cases_.append((torch_.randperm(16, generator=gen_)[:max(size_, 4)].tolist(),
                   int(torch_.randint(0, 4 * size_, (), generator=gen_)), size_))
    def ignored_():
        #ko: 답이 인자 table이나 block_size를 읽지 않는지(예의 [6, 1]이나 4를 그대로 썼는지):
        #ko: 그 인자만 바꾸어 두 번 불러 봅니다
        #en: whether the answer ignores its table or block_size (the example's [6, 1] or 4
        #en: written in): called twice with only that argument changed
        def same_(one_, other_):
            #ko: 위치 0-7 모두에서 같은 값이면 그 인자를 읽지 않는 것입니다
            #en: the same at every position 0-7: that argument is not read
            try:
                return all(slot(one_[0], p_, one_[1]) == slot(other_[0], p_, other_[1])
                           for p_ in range(8))
            except NameError:
                raise
            except Exception:
                return False

        same_table_ = same_((list(range(10, 26)), 4), (list(range(30, 46)), 4))
        same_size_ = same_((list(range(10, 26)), 4), (list(range(10, 26)), 2))
        if same_table_:
            #ko| return ("답이 인자 table을 읽지 않습니다. 테이블을 바꾸어도 같은 값을 "
            #ko|         "돌려줍니다. 예의 테이블 [6, 1] 대신 인자 table을 쓰세요. ")
            #en| return ("your slot ignores its table: another table gives the same "
            #en|         "answer. Use the argument table, not the example's [6, 1]. ")
        if same_size_:
            #ko| return ("답이 인자 block_size를 읽지 않습니다. block_size가 4일 때와 2일 때 "
            #ko|         "위치 0-7에서 같은 값을 돌려줍니다. 예의 4 대신 인자 block_size를 "
            #ko|         "쓰세요. ")
            #en| return ("your slot ignores block_size: it gives the same answers for "
            #en|         "block_size 4 and 2 at positions 0-7. Use the argument block_size, "
            #en|         "not the example's 4. ")
        return ""

    got_ = []
    for table_, pos_, size_ in cases_:
        try:
            got_.append(slot(list(table_), pos_, size_))
        except NameError:
            raise
        except Exception as error_:
            line_ = (str(error_).strip().splitlines() or [""])[0][:160]
            #ko| return ignored_() + (f"slot({table_}, {pos_}, {size_})이 오류를 냈습니다: "
            #ko|         f"{type(error_).__name__}: {line_}")
            #en| return ignored_() + (f"slot({table_}, {pos_}, {size_}) raised an error: "
            #en|         f"{type(error_).__name__}: {line_}")
    if all(g_ is None or g_ is Ellipsis for g_ in got_):
        raise NotAnswered
    pairs_ = []
    for g_ in got_:
        if not (isinstance(g_, (tuple, list)) and len(g_) == 2
                and all(isinstance(x_, int)
                        or (hasattr(x_, "numel") and x_.numel() == 1) for x_ in g_)):
            (t_, p_, b_) = cases_[len(pairs_)]
            #ko| said_ = ("slot은 정수 두 개의 쌍 (block, offset)을 돌려줘야 하는데 "
            #ko|          f"{g_!r}입니다.")
            #en| said_ = ("slot must return a pair of whole numbers (block, offset); "
            #en|          f"got {g_!r}.")
            if isinstance(g_, int) and g_ == t_[p_ // b_] * b_ + p_ % b_:
                #ko| said_ += (" 이 수는 블록 풀 전체에서 센 자리, "
                #ko|           "table[pos // block_size] * block_size + offset입니다. "
                #ko|           "블록과 자리를 따로 돌려주세요.")
                #en| said_ += (" That number is the slot counted over the whole pool, "
                #en|           "table[pos // block_size] * block_size + offset: return "
                #en|           "the block and the offset apart.")
            elif isinstance(g_, int) and g_ == t_[p_ // b_]:
                #ko| said_ += (" 블록만 돌려주었습니다. 자리 pos % block_size도 "
                #ko|           "함께 돌려주세요.")
                #en| said_ += (" That is the block alone: return the offset, "
                #en|           "pos % block_size, with it.")
            return said_
        pairs_.append((int(g_[0]), int(g_[1])))
    wrong_ = [(case_, g_) for case_, g_ in zip(cases_, pairs_)
              if g_ != (case_[0][case_[1] // case_[2]], case_[1] % case_[2])]
    if not wrong_:
        return True
    (table_, pos_, size_), g_ = wrong_[0]
    want_ = (table_[pos_ // size_], pos_ % size_)
    #ko| said_ = (f"테이블 {table_}, pos {pos_}, block_size {size_}에서 "
    #ko|          f"{want_}이어야 하는데 {g_}입니다. ")
    #en| said_ = (f"for table {table_}, pos {pos_}, block_size {size_} the answer is "
    #en|          f"{want_}, got {g_}: ")
    #ko: 흔한 실수마다 모든 경우에 그 실수의 답과 같은지 봅니다
    #en: for each typical mistake: does it give every answer?
    mistakes_ = [
        (lambda t_, p_, b_: (p_ // b_, p_ % b_),
         #ko| "pos // block_size는 논리 블록(시퀀스 안의 순서)입니다. 물리 블록은 "
         #ko| "테이블의 그 자리에 적힌 번호, table[pos // block_size]입니다."),
         #en| "pos // block_size is the logical block (its place in the sequence); the "
         #en| "physical block is the number the table holds there, "
         #en| "table[pos // block_size]."),
        (lambda t_, p_, b_: (p_ % b_, t_[p_ // b_]),
         #ko| "블록과 자리의 순서가 바뀌었습니다. (block, offset) 순서로 돌려주세요."),
         #en| "block and offset are swapped: return (block, offset)."),
        (lambda t_, p_, b_: (t_[p_ % b_ % len(t_)], p_ % b_),
         #ko| "블록을 pos % block_size로 찾았습니다. 블록은 pos // block_size, "
         #ko| "자리는 pos % block_size입니다."),
         #en| "the block was found with pos % block_size: the block is pos // block_size, "
         #en| "the slot pos % block_size."),
        (lambda t_, p_, b_: (t_[p_ // b_], p_),
         #ko| "자리는 블록 안에서 센 위치, pos % block_size입니다. pos를 그대로 쓰면 "
         #ko| "블록 밖을 가리킵니다."),
         #en| "the slot counts within the block: pos % block_size; pos itself points "
         #en| "outside the block."),
        (lambda t_, p_, b_: (t_[p_ // b_], p_ // b_),
         #ko| "자리는 pos // block_size가 아니라 pos % block_size입니다."),
         #en| "the slot is pos % block_size, not pos // block_size."),
        (lambda t_, p_, b_: (sorted(t_)[p_ // b_], p_ % b_),
         #ko| "테이블을 정렬해 읽었습니다. 블록의 순서는 번호 순서가 아니라 "
         #ko| "테이블에 적힌 순서입니다."),
         #en| "the table was read sorted: the blocks' order is the table's, not their "
         #en| "numbers'."),
        (lambda t_, p_, b_: (t_[-1], p_ % b_),
         #ko| "언제나 마지막 블록을 골랐습니다. 마지막 블록은 새 토큰을 쓸 자리이고, "
         #ko| "앞의 토큰은 앞의 블록에 있습니다."),
         #en| "the last block was always chosen: it is where a new token goes, but "
         #en| "earlier tokens sit in earlier blocks."),
        (lambda t_, p_, b_: (t_[p_ // b_ - 1], p_ % b_),
         #ko| "블록이 한 칸 앞의 것입니다. 테이블은 0부터 세므로 블록은 "
         #ko| "table[pos // block_size]이고, 1을 빼지 않습니다."),
         #en| "the block is the table's entry one before: the table counts from 0, so "
         #en| "the block is table[pos // block_size], with no - 1."),
        (lambda t_, p_, b_: (t_[p_ // b_ + 1], p_ % b_),
         #ko| "블록이 한 칸 뒤의 것입니다. 테이블은 0부터 세므로 블록은 "
         #ko| "table[pos // block_size]입니다."),
         #en| "the block is the table's entry one after: the table counts from 0, so "
         #en| "the block is table[pos // block_size]."),
        (lambda t_, p_, b_: (t_[p_ // b_], p_ % b_ + 1),
         #ko| "자리가 1 큽니다. 블록 안의 자리도 0부터 세어 pos % block_size입니다."),
         #en| "the offset is 1 too large: offsets count from 0 too, pos % block_size."),
        (lambda t_, p_, b_: (t_[(p_ - 1) // b_], (p_ - 1) % b_),
         #ko| "위치 pos - 1의 자리입니다. 위치는 0부터 세므로 pos를 그대로 씁니다."),
         #en| "that is the slot of position pos - 1: positions count from 0, so use pos "
         #en| "as it is."),
        (lambda t_, p_, b_: (t_[p_ // b_], p_ % len(t_)),
         #ko| "자리를 len(table)로 나눈 나머지로 구했습니다. len(table)은 블록의 "
         #ko| "수이고, 자리는 pos % block_size입니다."),
         #en| "the offset is pos % len(table); len(table) is the number of blocks, "
         #en| "the offset pos % block_size."),
        (lambda t_, p_, b_: (t_[round(p_ / b_)], p_ % b_),
         #ko| "pos / block_size를 반올림해 블록을 찾았습니다. 토큰의 블록은 내림한 "
         #ko| "몫 pos // block_size입니다(블록 크기 4에서 위치 7은 블록 1)."),
         #en| "the block was found by rounding pos / block_size: a token's block is "
         #en| "the floor, pos // block_size (with blocks of 4, position 7 is in "
         #en| "block 1)."),
    ]

    def gives_(mistake_):
        #ko: 그 실수가 모든 경우에 답과 같은 값을 내는지(실수가 오류를 내면 아님)
        #en: whether the mistake gives every answer (not when it raises)
        try:
            return all(mistake_(list(t_), p_, b_) == g_
                       for (t_, p_, b_), g_ in zip(cases_, pairs_))
        except IndexError:
            return False

    for mistake_, text_ in mistakes_:
        if gives_(mistake_):
            return said_ + text_
    if ignored_():
        return said_ + ignored_()
    #ko| return said_ + "논리 블록 pos // block_size를 테이블에서 찾으세요."
    #en| return said_ + "look the logical block pos // block_size up in the table."


@exercise(
    "ch11-ex-packed-mask",
    #ko| "토큰마다 시퀀스 번호를 구해(누적 길이나 repeat_interleave), "
    #ko| "같은 번호이면서 j <= i인 칸만 True로 두세요.",
    #en| "find each token's sequence number (cumulative lengths or "
    #en| "repeat_interleave), and keep True only where the numbers agree and j <= i.",
)
def ch11_ex_packed_mask(block_causal_mask):
    import torch as torch_

    def want_(lengths_):
        seq_ = torch_.repeat_interleave(torch_.arange(len(lengths_)),
                                        torch_.tensor(lengths_))
        n_ = seq_.numel()
        same_ = seq_[:, None] == seq_[None, :]
        return torch_.ones(n_, n_, dtype=torch_.bool).tril() & same_, same_

    #ko: 마지막 길이들은 뽑은 수로(채점기에서는 학생이 본 적 없는 길이)
    #en: the last lengths drawn (in the grader, lengths no student has seen)
    gen_ = check_generator(12)
    drawn_ = torch_.randint(1, 7, (int(torch_.randint(2, 5, (), generator=gen_)),),
                            generator=gen_).tolist()
    for lengths_ in ([5, 2, 4], [3, 1, 1, 6], [7], [2, 5], drawn_):
        try:
            got_ = block_causal_mask(list(lengths_))
        except NameError:
            raise
        except Exception as error_:
            line_ = (str(error_).strip().splitlines() or [""])[0][:160]
            #ko| return (f"block_causal_mask({lengths_})가 오류를 냈습니다: "
            #ko|         f"{type(error_).__name__}: {line_}")
            #en| return (f"block_causal_mask({lengths_}) raised an error: "
            #en|         f"{type(error_).__name__}: {line_}")
        if got_ is None or got_ is Ellipsis:
            raise NotAnswered
        n_ = sum(lengths_)
        right_, same_ = want_(lengths_)
        if not isinstance(got_, torch_.Tensor) or tuple(got_.shape) != (n_, n_):
            shape_ = (tuple(got_.shape) if isinstance(got_, torch_.Tensor)
                      else type(got_).__name__)
            #ko| return (f"lengths {lengths_}에서 모양이 ({n_}, {n_})인 텐서여야 하는데 "
            #ko|         f"{shape_}입니다. N은 길이의 합입니다.")
            #en| return (f"for lengths {lengths_}, expected a tensor of shape ({n_}, {n_}), "
            #en|         f"got {shape_}: N is the sum of the lengths.")
        if got_.dtype != torch_.bool:
            #ko| return (f"자료형이 bool이어야 하는데 {got_.dtype}입니다. "
            #ko|         "True가 볼 수 있는 키인 bool 마스크를 돌려주세요.")
            #en| return (f"the dtype must be bool, got {got_.dtype}: return a bool mask, "
            #en|         "True for a key that may be seen.")
        if torch_.equal(got_, right_):
            continue
        #ko| at_ = f"lengths {lengths_}에서: "
        #en| at_ = f"for lengths {lengths_}: "
        if torch_.equal(got_, ~right_):
            #ko| return at_ + ("True와 False가 뒤집혔습니다. True는 "
            #ko|               "볼 수 있는 키입니다.")
            #en| return at_ + ("True and False are swapped: True marks a key that "
            #en|               "may be seen.")
        if torch_.equal(got_, torch_.ones(n_, n_, dtype=torch_.bool).tril()):
            #ko| return at_ + ("인과 마스크 하나뿐이라 뒤의 시퀀스가 앞 시퀀스의 토큰을 "
            #ko|               "봅니다. 같은 시퀀스의 키만 보게 하세요(블록 대각).")
            #en| return at_ + ("one causal mask only, so later sequences see the tokens of "
            #en|               "earlier ones: let a query see keys of its own sequence only "
            #en|               "(block-diagonal).")
        if torch_.equal(got_, same_):
            #ko| return at_ + ("시퀀스 안에서 뒤의 토큰까지 봅니다. 블록마다 인과 마스크"
            #ko|               "(j <= i)를 씌우세요.")
            #en| return at_ + ("a query sees later tokens of its own sequence: make each "
            #en|               "block causal (j <= i).")
        if torch_.equal(got_, right_.T):
            #ko| return at_ + ("마스크가 전치되었습니다(블록마다 위 삼각형). 행이 쿼리, "
            #ko|               "열이 키입니다.")
            #en| return at_ + ("the mask is transposed (upper triangles in each block): "
            #en|               "rows are queries, columns keys.")
        if torch_.equal(got_, right_ & ~torch_.eye(n_, dtype=torch_.bool)):
            #ko| return at_ + "대각선이 빠졌습니다. 토큰은 자기 자신도 봅니다(j <= i)."
            #en| return at_ + "the diagonal is missing: a token sees itself too (j <= i)."
        leak_ = got_ & ~same_
        if leak_.any():
            i_, j_ = [int(x_) for x_ in leak_.nonzero()[0]]
            #ko| return at_ + (f"쿼리 {i_}번이 다른 시퀀스의 키 {j_}번을 봅니다. "
            #ko|               "시퀀스의 경계를 누적 길이로 찾으세요.")
            #en| return at_ + (f"query {i_} sees key {j_} of another sequence: find the "
            #en|               "sequences' borders from the cumulative lengths.")
        for shift_ in (1, 2, -2):
            if torch_.equal(got_, torch_.ones(n_, n_, dtype=torch_.bool).tril(shift_) & same_):
                #ko| return at_ + (f"대각선이 {abs(shift_)}칸 "
                #ko|               + ("위로(tril" if shift_ > 0 else "아래로(tril")
                #ko|               + f"({shift_})) 옮겨졌습니다. 쿼리 i는 자기 시퀀스에서 "
                #ko|               "j <= i인 키, 곧 자기와 앞의 키를 봅니다(tril()).")
                #en| return at_ + (f"the diagonal is moved {abs(shift_)} "
                #en|               + ("up (tril" if shift_ > 0 else "down (tril")
                #en|               + f"({shift_})): query i sees the keys j <= i of its own "
                #en|               "sequence, itself and those before it (tril()).")
        #ko: 블록마다 시작점을 옮기지 않아 모든 블록이 왼쪽 위에 겹쳤는지
        #en: every block put at the top left (the start never moved on)
        stacked_ = torch_.zeros(n_, n_, dtype=torch_.bool)
        for length_ in lengths_:
            stacked_[:length_, :length_] |= torch_.ones(length_, length_,
                                                         dtype=torch_.bool).tril()
        if torch_.equal(got_, stacked_):
            #ko| return at_ + ("모든 시퀀스의 블록이 왼쪽 위에 겹쳐 놓였습니다. 블록마다 "
            #ko|               "시작점을 앞 시퀀스들의 길이만큼 옮기세요.")
            #en| return at_ + ("every sequence's block is put at the top left: move each "
            #en|               "block's start on by the lengths before it.")
        #ko| return at_ + "같은 시퀀스 안에서 j <= i인 칸만 True여야 합니다."
        #en| return at_ + "only entries with j <= i within the same sequence may be True."
    return True


@exercise(
    "ch11-ex-sink",
    #ko| "sinks를 (H, T_q, 1)로 펼쳐 점수 옆에 붙이고(torch.cat), 소프트맥스한 뒤 "
    #ko| "마지막 열을 떼어 내세요.",
    #en| "expand sinks to (H, T_q, 1), join it to the scores (torch.cat), take the "
    #en| "softmax, then drop the last column.",
)
def ch11_ex_sink(weights_with_sink):
    import torch as torch_

    def right_(s_, k_):
        col_ = k_.view(-1, 1, 1).expand(*s_.shape[:-1], 1)
        return torch_.cat([s_, col_], dim=-1).softmax(dim=-1)[..., :-1]

    for H_, T_q_, T_k_, seed_ in ((4, 4, 5, 1), (3, 4, 6, 0), (2, 1, 9, 2)):
        generator_ = check_generator(seed_)
        scores_ = 2 * torch_.randn(H_, T_q_, T_k_, generator=generator_)
        #ko: 마지막 키는 첫 쿼리에게 가려져 있습니다
        #en: the last key is masked for the first query
        scores_[:, 0, -1] = torch_.finfo(torch_.float32).min
        sinks_ = torch_.randn(H_, generator=generator_) + 1.5
        try:
            got_ = weights_with_sink(scores_.clone(), sinks_.clone())
        except NameError:
            raise
        except Exception as error_:
            line_ = (str(error_).strip().splitlines() or [""])[0][:160]
            #ko| return (f"weights_with_sink가 오류를 냈습니다(scores ({H_}, {T_q_}, "
            #ko|         f"{T_k_}), sinks ({H_},)): {type(error_).__name__}: {line_}")
            #en| return (f"weights_with_sink raised an error for scores ({H_}, {T_q_}, "
            #en|         f"{T_k_}), sinks ({H_},): {type(error_).__name__}: {line_}")
        if got_ is None or got_ is Ellipsis:
            raise NotAnswered
        want_ = right_(scores_, sinks_)
        kept_ = (H_, T_q_, T_k_ + 1)
        if isinstance(got_, torch_.Tensor) and tuple(got_.shape) == kept_:
            #ko| return ("싱크 열이 남아 있습니다(마지막 축이 T_k + 1). 소프트맥스 뒤에 "
            #ko|         "[..., :-1]로 떼어 내세요.")
            #en| return ("the sink column is still there (last axis T_k + 1): drop it "
            #en|         "after the softmax with [..., :-1].")
        if not isinstance(got_, torch_.Tensor) or tuple(got_.shape) != (H_, T_q_, T_k_):
            shape_ = (tuple(got_.shape) if isinstance(got_, torch_.Tensor)
                      else type(got_).__name__)
            #ko| return f"모양이 ({H_}, {T_q_}, {T_k_})인 텐서여야 하는데 {shape_}입니다."
            #en| return f"expected a tensor of shape ({H_}, {T_q_}, {T_k_}), got {shape_}."
        got_ = got_.to(torch_.float32)
        if torch_.allclose(got_, want_, atol=1e-6):
            continue
        plain_ = scores_.softmax(dim=-1)
        if torch_.allclose(got_, plain_, atol=1e-6):
            #ko| return ("행마다 합이 1입니다. 싱크가 아무 몫도 가져가지 않았습니다. "
            #ko|         "싱크를 점수 옆에 열로 붙여 함께 소프트맥스하세요.")
            #en| return ("every row sums to 1: the sink took no share. Put the sink next "
            #en|         "to the scores as a column and take the softmax of both.")
        after_ = plain_ / (1 + sinks_.exp().view(-1, 1, 1))
        if torch_.allclose(got_, after_, atol=1e-6):
            #ko| return ("싱크를 소프트맥스 뒤에 다뤘습니다(1 + e^sink로 나눔). 분모는 "
            #ko|         "e^sink + Σ e^s여야 하므로, 싱크를 소프트맥스 안에 넣으세요.")
            #en| return ("the sink was handled after the softmax (divided by 1 + e^sink): "
            #en|         "the denominator must be e^sink + Σ e^s, so the sink goes inside "
            #en|         "the softmax.")
        if torch_.allclose(got_, right_(scores_, -sinks_), atol=1e-6):
            #ko| return "싱크의 부호가 뒤집혔습니다. 싱크 로짓을 그대로 붙이세요."
            #en| return "the sink's sign is flipped: join the sink logit as it is."
        if T_q_ == H_:
            by_query_ = torch_.cat([scores_, sinks_.view(1, -1, 1).expand(H_, T_q_, 1)],
                                   dim=-1).softmax(dim=-1)[..., :-1]
            if torch_.allclose(got_, by_query_, atol=1e-6):
                #ko| return ("싱크가 쿼리 축을 따라 놓였습니다. 헤드 h의 싱크는 "
                #ko|         "헤드 h의 모든 행에 같아야 하므로 "
                #ko|         "sinks.view(H, 1, 1)로 펼치세요.")
                #en| return ("the sinks were laid along the query axis: head h's sink "
                #en|         "is the same for every row of head h, so expand "
                #en|         "sinks.view(H, 1, 1).")
        #ko: 맞는 계산을 조금씩 바꾼 것들과 비교합니다(축, 뗀 열, 싱크 열의 자리, 다른 함수)
        #en: compared with the right computation changed a little (the axis, the column
        #en: dropped, where the sink column goes, another function)
        col_ = sinks_.view(-1, 1, 1).expand(H_, T_q_, 1)
        joined_ = torch_.cat([scores_, col_], dim=-1)
        variants_ = [
            (joined_.softmax(dim=1)[..., :-1],
             #ko| "소프트맥스를 쿼리 축(dim=1)을 따라 했습니다. 행마다, 곧 키와 싱크의 "
             #ko| "마지막 축(dim=-1)을 따라 하세요."),
             #en| "the softmax runs along the query axis (dim=1): take it along each "
             #en| "row, the last axis of keys and sink (dim=-1)."),
            (joined_.softmax(dim=0)[..., :-1],
             #ko| "소프트맥스를 헤드 축(dim=0)을 따라 했습니다. 행마다, 곧 마지막 "
             #ko| "축(dim=-1)을 따라 하세요."),
             #en| "the softmax runs along the head axis (dim=0): take it along each row, "
             #en| "the last axis (dim=-1)."),
            (joined_.softmax(dim=-1)[..., 1:],
             #ko| "첫 열을 떼어 냈습니다. 싱크 열은 끝에 붙였으니 마지막 열을 떼어 "
             #ko| "내야([..., :-1]) 키 T_k개의 가중치가 남습니다."),
             #en| "the first column was dropped: the sink column was joined last, so "
             #en| "drop the last one ([..., :-1]) to keep the T_k keys' weights."),
            (torch_.cat([col_, scores_], dim=-1).softmax(dim=-1)[..., :-1],
             #ko| "싱크 열을 앞에 붙이고 마지막 열을 떼어 내서, 싱크의 가중치가 남고 "
             #ko| "마지막 키의 가중치가 빠졌습니다. 붙인 쪽의 열을 떼어 내세요."),
             #en| "the sink column went first and the last column was dropped: the "
             #en| "sink's weight stays and the last key's is lost. Drop the column on "
             #en| "the side where the sink was joined."),
            (joined_.log_softmax(dim=-1)[..., :-1],
             #ko| "로그 가중치(log_softmax)입니다. softmax로 가중치 자체를 구하세요."),
             #en| "these are log-weights (log_softmax): take softmax, the weights "
             #en| "themselves."),
            (torch_.sigmoid(scores_),
             #ko| "점수마다 시그모이드를 했습니다. 가중치는 행 전체(키와 싱크)에 대한 "
             #ko| "소프트맥스입니다."),
             #en| "that is a sigmoid of each score; the weights are a softmax over the "
             #en| "whole row (the keys and the sink)."),
            (scores_.exp() / (scores_.exp().sum(-1, keepdim=True) + sinks_.view(-1, 1, 1)),
             #ko| "분모에 싱크 값을 그대로 더했습니다. 분모에 들어가는 것은 "
             #ko| "e^sink입니다."),
             #en| "the sink is added to the denominator as it is; what goes there is "
             #en| "e^sink."),
        ]
        for variant_, said_ in variants_:
            if torch_.allclose(got_, variant_, atol=1e-5, equal_nan=True):
                return said_
        #ko: 행마다 소프트맥스를 같은 배율로 줄였다면 그 배율에서 쓰인 싱크 값을 거꾸로 구해
        #ko: 헤드가 섞였는지 봅니다
        #en: when each row is the softmax shrunk by one factor, the sink that factor used is
        #en: solved for, to see whether heads were mixed
        factor_ = got_ / plain_
        row_ = factor_[..., :1]
        if ((factor_ - row_).abs().max() < 1e-4 and (row_ > 0).all()
                and (row_ < 1).all()):
            used_ = (torch_.logsumexp(scores_, dim=-1, keepdim=True)
                     + torch_.log(1 / row_ - 1))[..., 0]            # (H, T_q)
            which_ = (used_[..., None] - sinks_).abs().argmin(dim=-1)     # (H, T_q)
            fits_ = (used_ - sinks_[which_]).abs().max() < 1e-3
            heads_ = torch_.arange(H_)[:, None].expand(H_, T_q_)
            if fits_ and (which_ != heads_).any():
                h_, q_ = [int(x_) for x_ in (which_ != heads_).nonzero()[0]]
                j_ = int(which_[h_, q_])
                #ko| return (f"헤드 {h_}의 쿼리 {q_} 행이 헤드 {j_}의 싱크를 썼습니다. 헤드가 "
                #ko|         "섞였습니다(repeat나 다른 view 순서). 헤드 h의 모든 행은 "
                #ko|         "sinks[h]를 쓰므로 sinks.view(H, 1, 1)을 펼치세요.")
                #en| return (f"the row of head {h_}, query {q_} uses head {j_}'s sink: the "
                #en|         "heads are mixed (a repeat, or a view in another order). Every "
                #en|         "row of head h uses sinks[h]: expand sinks.view(H, 1, 1).")
        if (got_.sum(dim=-1) - 1).abs().max() < 1e-5:
            #ko| return ("행마다 합이 1입니다. 싱크의 몫이 빠졌습니다. 소프트맥스는 "
            #ko|         "싱크 열까지 포함해 계산하고 그 열만 떼어 내세요.")
            #en| return ("every row sums to 1, so the sink's share is missing: take the "
            #en|         "softmax with the sink column included, then drop that column.")
        #ko| return (f"scores ({H_}, {T_q_}, {T_k_})에서 값이 틀립니다. 헤드 h의 "
        #ko|         "행마다 [점수, sink_h]의 소프트맥스를 구하고 "
        #ko|         "마지막 열을 떼어 내세요.")
        #en| return (f"wrong values for scores ({H_}, {T_q_}, {T_k_}): for each row "
        #en|         "of head h, take the softmax of [scores, sink_h] and drop the last "
        #en|         "column.")
    return True


@exercise(
    "ch11-ex-merge",
    #ko| "전체 log-sum-exp lse = torch.logsumexp(lses, dim=0)을 구하고, "
    #ko| "e^(lses - lse)를 가중치로 outs를 조각 축을 따라 더하세요.",
    #en| "compute the whole log-sum-exp lse = torch.logsumexp(lses, dim=0), then sum "
    #en| "outs over the chunks with weights e^(lses - lse).",
)
def ch11_ex_merge(merge_chunks):
    import torch as torch_

    for n_, H_, D_, base_, seed_ in ((5, 3, 4, 0.0, 0), (4, 2, 6, 100.0, 1),
                                     (7, 3, 4, 2.0, 2)):
        generator_ = check_generator(seed_)
        outs_ = torch_.randn(n_, H_, D_, generator=generator_)
        lses_ = base_ + 3 * torch_.randn(n_, H_, generator=generator_)
        try:
            got_ = merge_chunks(outs_.clone(), lses_.clone())
        except NameError:
            raise
        except Exception as error_:
            line_ = (str(error_).strip().splitlines() or [""])[0][:160]
            #ko| return (f"merge_chunks가 오류를 냈습니다(outs ({n_}, {H_}, {D_}), lses "
            #ko|         f"({n_}, {H_})): {type(error_).__name__}: {line_}")
            #en| return (f"merge_chunks raised an error for outs ({n_}, {H_}, {D_}), lses "
            #en|         f"({n_}, {H_}): {type(error_).__name__}: {line_}")
        if got_ is None or got_ is Ellipsis:
            raise NotAnswered
        if not isinstance(got_, torch_.Tensor) or tuple(got_.shape) != (H_, D_):
            shape_ = (tuple(got_.shape) if isinstance(got_, torch_.Tensor)
                      else type(got_).__name__)
            #ko| return (f"모양이 ({H_}, {D_})인 텐서여야 하는데 {shape_}입니다. "
            #ko|         "조각 축(0번 축)을 따라 더하세요.")
            #en| return (f"expected a tensor of shape ({H_}, {D_}), got {shape_}: sum "
            #en|         "along the chunk axis (axis 0).")
        #ko: lse가 100 근처이면 float32의 lse 자체가 1e-5쯤 어긋나므로, 기준은 float64로
        #ko: 계산하고 허용 오차는 1e-4입니다
        #en: near 100, a float32 lse is itself off by about 1e-5: the reference is computed
        #en: in float64 and the tolerance is 1e-4
        share_ = torch_.softmax(lses_.double(), dim=0)
        want_ = (share_[..., None] * outs_.double()).sum(dim=0).float()
        got_ = got_.to(torch_.float32)
        if torch_.allclose(got_, want_, atol=1e-4):
            continue
        if not torch_.isfinite(got_).all():
            #ko| return (f"log-sum-exp가 {base_:.0f} 근처일 때 결과가 inf나 NaN입니다. "
            #ko|         "e^lse가 float32의 범위(약 e^88)를 넘었습니다. 전체 log-sum-exp"
            #ko|         "(또는 최댓값)를 빼고 지수를 취하세요.")
            #en| return (f"with log-sum-exps near {base_:.0f} the result is inf or NaN: "
            #en|         "e^lse overflowed float32 (about e^88). Subtract the whole "
            #en|         "log-sum-exp (or the maximum) before taking the exponential.")
        if torch_.allclose(got_, outs_.mean(dim=0), atol=1e-4):
            #ko| return ("조각들의 단순 평균입니다. 조각 c에는 e^(lse_c - lse)의 "
            #ko|         "가중치를 주어야 합니다.")
            #en| return ("a plain mean of the chunks: chunk c must be weighted by "
            #en|         "e^(lse_c - lse).")
        by_head_ = (torch_.softmax(lses_, dim=1)[..., None] * outs_).sum(dim=0)
        if torch_.allclose(got_, by_head_, atol=1e-4):
            #ko| return ("가중치를 헤드 축(1번 축)으로 정규화했습니다. 헤드마다 "
            #ko|         "조각 축(0번 축)을 따라 합이 1이어야 합니다.")
            #en| return ("the weights were normalised along the heads (axis 1): for each "
            #en|         "head they must sum to 1 along the chunks (axis 0).")
        raw_ = torch_.exp(lses_ - lses_.amax(dim=0))
        unnormed_ = (raw_[..., None] * outs_).sum(dim=0)
        if torch_.allclose(got_, unnormed_, atol=1e-4):
            #ko| return ("가중치의 합이 1이 아닙니다. 최댓값을 뺀 e^lse를 "
            #ko|         "그 합으로 나누세요"
            #ko|         "(곧 전체 log-sum-exp를 빼세요).")
            #en| return ("the weights do not sum to 1: divide the e^lse taken "
            #en|         "against the maximum by their sum (that is, subtract the "
            #en|         "whole log-sum-exp).")
        linear_ = ((lses_ / lses_.sum(dim=0))[..., None] * outs_).sum(dim=0)
        if torch_.allclose(got_, linear_, atol=1e-4):
            #ko| return ("가중치가 lse에 비례합니다. lse는 로그이므로 가중치는 "
            #ko|         "e^(lse_c - lse)입니다.")
            #en| return ("the weights are proportional to lse; lse is a logarithm, so "
            #en|         "the weights are e^(lse_c - lse).")
        #ko: 맞는 계산을 조금씩 바꾼 것들과 비교합니다
        #en: compared with the right computation changed a little
        terms_ = torch_.softmax(lses_, dim=0)[..., None] * outs_          # (n, H, D)
        per_chunk_ = torch_.exp(lses_ - lses_.amax(dim=1, keepdim=True))
        plain_ = (lses_ - lses_.amax(dim=0)) / (lses_ - lses_.amax(dim=0)).sum(dim=0)
        variants_ = [
            (outs_.sum(dim=0),
             #ko| "조각들의 결과를 그냥 더했습니다. 조각 c의 결과에 e^(lse_c - lse)를 "
             #ko| "곱해 더하세요."),
             #en| "the chunks' results are simply added: weight chunk c by "
             #en| "e^(lse_c - lse) first."),
            (terms_.mean(dim=0),
             #ko| f"가중한 결과를 더하지 않고 평균했습니다(조각 {n_}개의 수로 나눔). "
             #ko| "가중치 e^(lse_c - lse)의 합이 이미 1이므로 그대로 더하세요."),
             #en| f"the weighted results are averaged (divided by the {n_} chunks): "
             #en| "the weights e^(lse_c - lse) already sum to 1, so just add them."),
            ((torch_.exp(torch_.logsumexp(lses_, dim=0) - lses_)[..., None]
              * outs_).sum(dim=0),
             #ko| "가중치가 뒤집혔습니다. e^(lse - lse_c)가 아니라 e^(lse_c - lse)입니다."),
             #en| "the weights are upside down: e^(lse_c - lse), not e^(lse - lse_c)."),
            ((plain_[..., None] * outs_).sum(dim=0),
             #ko| "가중치를 lse에서 지수 함수 없이 구했습니다. lse는 로그이므로 가중치는 "
             #ko| "e^(lse_c - lse)입니다."),
             #en| "the weights come from lse without the exponential; lse is a "
             #en| "logarithm, so the weights are e^(lse_c - lse)."),
            ((per_chunk_[..., None] * outs_).sum(dim=0) / per_chunk_.sum(dim=0)[..., None],
             #ko| "최댓값을 조각마다 헤드 축(1번 축)을 따라 구해 뺐습니다. 한 헤드의 모든 "
             #ko| "조각에서 같은 값(조각 축, 곧 0번 축을 따라 구한 최댓값이나 lse)을 빼야 "
             #ko| "가중치의 비가 유지됩니다."),
             #en| "the maximum subtracted was taken along the heads (axis 1), per chunk: "
             #en| "subtract the same value from every chunk of a head (the maximum or "
             #en| "the lse along the chunks, axis 0), so that the weights keep their "
             #en| "ratios."),
        ]
        for c_ in range(n_):
            variants_.append(
                (outs_[c_],
                 #ko| f"조각 {c_}의 결과 하나만 돌려주었습니다. 모든 조각을 "
                 #ko| "e^(lse_c - lse)로 가중해 더하세요."))
                 #en| f"that is chunk {c_}'s result alone: weight every chunk by "
                 #en| "e^(lse_c - lse) and add them all."))
        for k_ in range(1, n_):
            variants_.append(
                (terms_[:k_].sum(dim=0),
                 #ko| f"앞의 조각 {k_}개만 더했습니다. 조각은 {n_}개입니다. 조각 수를 "
                 #ko| "정해 두지 말고 outs의 0번 축을 따라 모두 더하세요."))
                 #en| f"only the first {k_} chunks are added, of {n_}: add along all of "
                 #en| "outs' axis 0 rather than a fixed number of chunks."))
        for variant_, said_ in variants_:
            if torch_.allclose(got_, variant_, atol=1e-4):
                return said_
        scale_ = (got_ * want_).sum() / (want_ * want_).sum()
        if torch_.allclose(got_, scale_ * want_, atol=1e-4):
            #ko| return (f"결과가 정답의 {float(scale_):.4g}배입니다. 가중치의 합이 1이 "
            #ko|         "되는지, 다른 수로 나누거나 곱하지 않았는지 보세요.")
            #en| return (f"the result is {float(scale_):.4g} times the right one: check "
            #en|         "that the weights sum to 1 and nothing else scales it.")
        #ko| return (f"outs ({n_}, {H_}, {D_})에서 값이 틀립니다. lse = logsumexp(lses, "
        #ko|         "0)을 구하고 e^(lses - lse)로 가중해 "
        #ko|         "조각 축을 따라 더하세요.")
        #en| return (f"wrong values for outs ({n_}, {H_}, {D_}): compute lse = "
        #en|         "logsumexp(lses, 0), weight by e^(lses - lse), and sum over the "
        #en|         "chunks.")
    return True
