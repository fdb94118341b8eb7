def check(name, test, hint):
    #ko| """연습 문제의 답을 확인합니다. 맞으면 축하하고, 아니면 힌트를 보여 줍니다."""
    #en| """Check an exercise answer: congratulate when right, give a hint when not."""
    try:
        result, problem = test(), None
        #ko: 테스트가 문자열을 돌려주면 그 실수에 맞춘 힌트입니다
        #en: a test that returns a string names the mistake it recognised
        ok, hint = (False, result) if isinstance(result, str) else (bool(result), hint)
    except NameError as error:
        #ko: 런타임을 다시 시작한 뒤에는 앞의 셀에서 만든 이름이 없습니다.
        #ko: 오답이 아니라 실행 순서의 문제입니다
        #en: after a restart, names made by earlier cells are gone:
        #en: cells to run, not a wrong answer
        #ko| print(f"⏸️ {name}: 먼저 위의 셀들을 실행하세요. "
        #ko|       f"아직 정의되지 않은 이름: `{error.name}`")
        #ko| print("   이 셀을 선택하고 메뉴에서 런타임 → 이전 셀 실행(Run before)을 "
        #ko|       "누른 다음, 이 셀을 다시 실행하세요.")
        #ko| print("   답에 직접 쓴 이름이라면 철자를 확인하세요.")
        #en| print(f"⏸️ {name}: run the cells above first. "
        #en|       f"Not defined yet: `{error.name}`")
        #en| print("   Select this cell, choose Runtime → Run before, "
        #en|       "then run this cell again.")
        #en| print("   If you wrote that name in your answer, check its spelling.")
        return
    except Exception as error:
        #ko: 답이 아직 없거나 실행되지 않아도 멈추지 않고 알려 줍니다
        #en: an answer that is missing or does not run yet is reported, not raised
        ok, problem = False, f"{type(error).__name__}: {error}"
    if ok:
        #ko| print(f"✅ {name}: 정답입니다!")
        #en| print(f"✅ {name}: correct!")
    else:
        #ko| print(f"❌ {name}: 아직 아닙니다. 힌트: {hint}")
        #en| print(f"❌ {name}: not yet. Hint: {hint}")
        if problem:
            #ko| print(f"   (실행 중 오류: {problem})")
            #en| print(f"   (error while checking: {problem})")
