class NotAnswered(Exception):
    #ko| """답 칸이 아직 None이나 ...입니다."""
    #en| """The answer is still the None or ... of the template."""


class Also(str):
    #ko| """테스트가 돌려주는 말 가운데, 문제의 힌트를 대신하지 않고 그 앞에 붙는 말."""
    #en| """Words a test returns that go before the exercise's hint, not instead of it."""


class BadShape(TypeError):
    #ko| """모양을 적은 답이 정수의 튜플이 아닙니다."""
    #en| """A shape written as an answer is not a tuple of whole numbers."""


def as_shape(answer):
    #ko| """모양을 적은 답을 튜플로 바꿉니다."""
    #en| """A shape written as an answer, as a tuple."""
    if answer is None or answer is Ellipsis:
        raise NotAnswered
    if not (isinstance(answer, (tuple, list))
            and all(isinstance(n, int) for n in answer)):
        #ko| raise BadShape(f"모양은 (4, 5)처럼 정수의 튜플로 적습니다. "
        #ko|                f"지금 답: {answer!r}")
        #en| raise BadShape(f"write a shape as a tuple of whole numbers, like (4, 5); "
        #en|                f"got {answer!r}")
    return tuple(answer)


def shape_mistake(got, want):
    #ko| """답이 want와 모양이 같은 텐서가 아니면 무엇이 다른지 말하는 Also,
    #ko| 같으면 None."""
    #en| """An Also saying how the answer differs from a tensor shaped like want,
    #en| or None if it is one."""
    if got is None or got is Ellipsis:
        raise NotAnswered
    if not isinstance(got, torch.Tensor):
        #ko| return Also(f"텐서를 돌려주어야 하는데 {type(got).__name__}입니다. ")
        #en| return Also(f"expected a tensor, got a {type(got).__name__}; ")
    if tuple(got.shape) != tuple(want.shape):
        #ko| return Also(f"모양이 {tuple(want.shape)}이어야 하는데 "
        #ko|             f"{tuple(got.shape)}입니다. ")
        #en| return Also(f"expected shape {tuple(want.shape)}, "
        #en|             f"got {tuple(got.shape)}; ")
    return None


def parts_wrong(**parts):
    #ko| """여러 칸의 답: 이름=(답, 정답). 모두 맞으면 True,
    #ko| 아니면 틀린 칸의 이름을 알려 줍니다."""
    #en| """A many-part answer: name=(answer, expected). True if all are right,
    #en| else which parts are wrong."""
    wrong = [name for name, (got, want) in parts.items() if got != want]
    if not wrong:
        return True
    right = [name for name in parts if name not in wrong]
    #ko| said = f"다시 볼 답: {', '.join(wrong)}"
    #ko| said += f"(맞은 답: {', '.join(right)}). " if right else ". "
    #en| said = f"to look at again: {', '.join(wrong)}"
    #en| said += f" (right: {', '.join(right)}); " if right else "; "
    return Also(said)


def mask_mistake(got, lengths, T, causal):
    #ko| """길이로 만든 마스크(causal이면 인과 마스크와 &)의 흔한 실수를 알아보고
    #ko| 그 힌트를 돌려줍니다. 알아본 실수가 없으면 None."""
    #en| """The usual mistakes of a mask built from lengths (and'ed with the causal
    #en| mask if causal): the hint for the one recognised, or None."""
    if got is None or got is Ellipsis:
        raise NotAnswered
    real = torch.arange(T) < lengths[:, None]                    # (B, T)
    real_le = torch.arange(T) <= lengths[:, None]                # (B, T)
    tri = torch.ones(T, T, dtype=torch.bool).tril()             # (T, T)
    keys, keys_le = real[:, None, None, :], real_le[:, None, None, :]
    want = tri & keys if causal else keys
    if not isinstance(got, torch.Tensor):
        #ko| return f"마스크는 텐서여야 하는데 {type(got).__name__}입니다."
        #en| return f"the mask must be a tensor, got a {type(got).__name__}."
    if got.dtype != torch.bool:
        #ko| return (f"마스크는 bool이어야 하는데 {got.dtype}입니다. "
        #ko|         "비교(<)와 &가 bool 텐서를 만듭니다.")
        #en| return (f"the mask must be bool, got {got.dtype}: "
        #en|         "comparisons (<) and & make bool tensors.")
    if tuple(got.shape) != tuple(want.shape):
        #ko| return (f"모양이 {tuple(want.shape)}이어야 하는데 {tuple(got.shape)}입니다. "
        #ko|         "마스크가 브로드캐스팅될 축(헤드, 쿼리)마다 "
        #ko|         "크기 1인 축이 있어야 합니다.")
        #en| return (f"expected shape {tuple(want.shape)}, got {tuple(got.shape)}: "
        #en|         "the mask needs an axis of size 1 for each axis "
        #en|         "it broadcasts over (heads, queries).")
    if torch.equal(got, ~want):
        #ko| return ("True와 False가 뒤바뀌었습니다. 이 책에서 True는 '볼 수 있음'입니다"
        #ko|         "(nn.MultiheadAttention의 마스크는 반대입니다).")
        #en| return ("True and False are swapped: in this book True means 'may attend' "
        #en|         "(nn.MultiheadAttention's masks are the other way round).")
    if torch.equal(got, tri & keys_le if causal else keys_le):
        #ko| return ("길이가 n이면 실제 토큰은 위치 0부터 n-1까지입니다. "
        #ko|         "<=가 아니라 <로 비교하세요.")
        #en| return ("a length of n means positions 0 to n-1 are real: "
        #en|         "compare with <, not <=.")
    if causal and torch.equal(got, tri & real[:, None, :, None]):
        #ko| return ("패딩은 키를 가려야 합니다. 길이 마스크를 쿼리 축이 아니라 "
        #ko|         "마지막 축(키)에 두세요.")
        #en| return ("padding hides keys: put the length mask on the last axis "
        #en|         "(the keys), not on the queries.")
    if causal and torch.equal(got, tri.T & keys):
        #ko| return ("인과 마스크가 위 삼각입니다. 쿼리 i는 키 j <= i를 보므로 "
        #ko|         "아래 삼각(tril)이어야 합니다.")
        #en| return ("the causal part is upper-triangular: query i sees keys j <= i, "
        #en|         "the lower triangle (tril).")
    if causal and torch.equal(got, keys.expand(want.shape)):
        #ko| return ("인과 마스크가 빠졌습니다. "
        #ko|         "아래 삼각 (T, T) 마스크와 &로 합치세요.")
        #en| return ("the causal part is missing: "
        #en|         "combine it with the lower-triangular (T, T) mask using &.")
    return None


def show_why(markdown, plain):
    #ko| """맞힌 뒤의 풀이: 노트북(Jupyter, Colab)에서는 마크다운과 수식으로,
    #ko| 그 밖의 곳에서는 보통 글로 보여 줍니다."""
    #en| """The why after a right answer: as Markdown with math in a notebook
    #en| (Jupyter, Colab), as plain text elsewhere."""
    #ko| label = ("풀이", "   풀이: ")
    #en| label = ("Why", "   Why: ")
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        get_ipython = None
    shell = get_ipython() if get_ipython else None
    if shell is not None and getattr(shell, "kernel", None) is not None:
        #ko: 노트북의 화면은 text/markdown을, 그렇지 못한 화면은 text/plain을 보여 줍니다
        #en: a notebook front end shows text/markdown; any other shows text/plain
        display({"text/markdown": f"**{label[0]}:** {markdown}",
                 "text/plain": label[1] + plain}, raw=True)
    else:
        print(label[1] + plain)


def check(name, test, hint):
    #ko| """연습 문제의 답을 확인합니다. 맞으면 축하하고, 아니면 힌트를 보여 줍니다.
    #ko| test가 문자열을 돌려주면 그 실수에 맞춘 힌트이고, Also는 힌트 앞에 붙습니다."""
    #en| """Check an exercise answer: congratulate when right, give a hint when not.
    #en| A string from test is the hint for the mistake it recognised;
    #en| an Also goes before the hint."""
    problem = unanswered = None
    try:
        result = test()
        ok = bool(result) and not isinstance(result, str)
        if isinstance(result, Also):
            hint = f"{result}{hint}"
        elif isinstance(result, str):
            hint = result
    except NameError as error:
        #ko: 런타임을 다시 시작한 뒤에는 앞의 셀에서 만든 이름이 없습니다.
        #ko: 오답이 아니라 실행 순서의 문제입니다
        #en: after a restart, names made by earlier cells are gone:
        #en: cells to run, not a wrong answer
        #ko| print(f"⏸️ {name}: 먼저 위의 셀들을 실행하세요. "
        #ko|       f"아직 정의되지 않은 이름: `{error.name}`")
        #ko| print("   이 셀을 선택하고 Colab에서는 런타임 → 이전 셀 실행(Run before), "
        #ko|       "Jupyter에서는 Run → Run All Above Selected Cell을 누른 다음, "
        #ko|       "이 셀을 다시 실행하세요.")
        #ko| print("   답에 직접 쓴 이름이라면 철자를 확인하세요.")
        #en| print(f"⏸️ {name}: run the cells above first. "
        #en|       f"Not defined yet: `{error.name}`")
        #en| print("   Select this cell, choose Runtime → Run before in Colab "
        #en|       "(Run → Run All Above Selected Cell in Jupyter), "
        #en|       "then run this cell again.")
        #en| print("   If you wrote that name in your answer, check its spelling.")
        return
    except Exception as error:
        #ko: 답이 아직 없거나 실행되지 않아도 멈추지 않고 알려 줍니다
        #en: an answer that is missing or does not run yet is reported, not raised
        ok, said = False, str(error)
        if isinstance(error, NotAnswered) or "NoneType" in said or "'ellipsis'" in said:
            unanswered = True
        elif isinstance(error, BadShape):
            #ko: 모양을 적는 방법이 틀렸으면 그것이 힌트입니다
            #en: a shape written the wrong way: that is the hint
            hint = said
        else:
            problem = f"{type(error).__name__}: {error}"
    if ok:
        #ko| print(f"✅ {name}: 정답입니다!")
        #en| print(f"✅ {name}: correct!")
        #ko: 학생용 노트북에는 풀이 설명이 인코딩되어 있어 맞힌 뒤에만 보입니다
        #en: student notebooks hold the solutions' explanations, encoded, shown when right
        why = globals().get("SOLUTION_NOTES", {}).get(name)
        if why:
            import base64

            #ko: 마크다운(수식 포함)과, 그것을 보여 주지 못하는 곳을 위한 보통 글
            #en: the Markdown (with math) and the plain text for where it is not rendered
            show_why(*(base64.b64decode("".join(why[form])).decode()
                       for form in ("markdown", "plain")))
    else:
        #ko| print(f"❌ {name}: 아직 아닙니다. 힌트: {hint}")
        #en| print(f"❌ {name}: not yet. Hint: {hint}")
        if unanswered:
            #ko| print("   아직 답이 없습니다: 위 셀의 None이나 ...를 답으로 바꾸고 "
            #ko|       "그 셀을 실행한 다음, 이 셀을 다시 실행하세요. "
            #ko|       "함수라면 return으로 값을 돌려주는지도 보세요.")
            #en| print("   No answer yet: replace the None or ... in the cell above, "
            #en|       "run it, then run this cell again. "
            #en|       "If it is a function, check that it returns its result.")
        elif problem:
            #ko| print(f"   (확인하다가 난 오류: {problem})")
            #en| print(f"   (error while checking: {problem})")


#ko: --- 6-10장 ---
#en: --- chapters 6-10 ---


def factor_mistake(got, want, terms):
    #ko| """수로 적은 답이 정답의 몇 배인지 보고, 그 배율을 만드는 실수를 terms에서
    #ko| 하나나 둘 찾습니다. terms: (배율, 그 배율을 만드는 실수의 설명)의 목록.
    #ko| 찾으면 배율과 설명을 담은 Also, 못 찾으면 None."""
    #en| """How many times the right value a number answer is, and the slip (one of terms,
    #en| or two together) that makes that factor. terms: a list of (factor, what makes it).
    #en| An Also naming the factor and the slip, or None."""
    if (isinstance(got, bool) or not isinstance(got, (int, float))
            or not want or not got):
        return None
    ratio = got / want

    def near(a, b):
        return abs(a - b) <= 1e-6 * abs(b)

    if near(ratio, 1):
        return None

    found = next(([said] for factor, said in terms if near(ratio, factor)), None)
    if found is None:
        found = next(([said_1, said_2] for i, (factor_1, said_1) in enumerate(terms)
                      for factor_2, said_2 in terms[i + 1:]
                      if near(ratio, factor_1 * factor_2)), None)
    if found is None:
        return None
    if ratio >= 1:
        #ko| head = f"정답의 {ratio:.4g}배입니다. "
        #en| head = f"the answer is {ratio:.4g} times the right value: "
    else:
        #ko| head = f"정답의 1/{1 / ratio:.4g}입니다. "
        #en| head = f"1/{1 / ratio:.4g} of the right value: "
    return Also(head + " ".join(found) + " ")


def axes_said(label, got, names, sizes):
    #ko| """모양을 적은 답 got이 names 순서의 축(크기는 sizes[이름])과 어떻게 다른지,
    #ko| 축의 이름으로 말합니다. 같으면 None."""
    #en| """How a shape written as an answer, got, differs from the axes names (each of size
    #en| sizes[name]), said by the axes' names; None if it does not."""
    want = tuple(sizes[name] for name in names)
    got = tuple(got)
    if got == want:
        return None

    def which(size, but=None):
        #ko: 그 크기를 가진 차원의 이름들
        #en: the names of the dimensions of that size
        return "/".join(n for n in sizes if sizes[n] == size and n != but)

    shown = ", ".join(names)
    if len(got) == len(want) and sorted(got) == sorted(want):
        #ko| return (f"{label}: 크기는 맞지만 축의 순서가 다릅니다. "
        #ko|         f"({shown}) 순서입니다. ")
        #en| return (f"{label}: the sizes are right but the axes are in another "
        #en|         f"order: ({shown}). ")
    for i, name in enumerate(names):
        if len(got) == len(want) - 1 and got == want[:i] + want[i + 1:]:
            #ko| return (f"{label}: {name} 축(크기 {sizes[name]})이 빠졌습니다. "
            #ko|         f"({shown}) 순서입니다. ")
            #en| return (f"{label}: the {name} axis (size {sizes[name]}) is missing: "
            #en|         f"({shown}). ")
    for i in range(len(got)):
        if len(got) == len(want) + 1 and got[:i] + got[i + 1:] == want:
            #ko| return (f"{label}: 크기 {got[i]}인 축이 하나 더 있습니다. "
            #ko|         f"({shown}) 순서입니다. ")
            #en| return (f"{label}: one axis too many, of size {got[i]}: "
            #en|         f"({shown}). ")
    for i in range(len(got) - 1):
        if (len(got) == len(want) + 1
                and got[:i] + (got[i] * got[i + 1],) + got[i + 2:] == want):
            #ko| return (f"{label}: 크기 {got[i]}, {got[i + 1]}인 두 축을 합쳐 한 축으로 "
            #ko|         f"만듭니다: {names[i]} = {want[i]}. ({shown}) 순서입니다. ")
            #en| return (f"{label}: the axes {got[i]} and {got[i + 1]} make one axis, "
            #en|         f"as in: {names[i]} = {want[i]}: ({shown}). ")
    if len(got) != len(want):
        #ko| return f"{label}: 축이 {len(want)}개({shown})여야 하는데 {len(got)}개입니다. "
        #en| return f"{label}: expected {len(want)} axes ({shown}), got {len(got)}. "
    said = []
    for i, (name, size) in enumerate(zip(names, want)):
        if got[i] != size:
            other = which(got[i], but=name)
            #ko| said.append(f"축 번호 {i}: {name} = {size}인데 {got[i]}입니다"
            #ko|             + (f"(이 크기는 {other})" if other else ""))
            #en| said.append(f"axis {i} is {name} = {size}, got {got[i]} instead"
            #en|             + (f" (the size of {other})" if other else ""))
    #ko| return f"{label}: " + ", ".join(said) + ". "
    #en| return f"{label}: " + "; ".join(said) + ". "
