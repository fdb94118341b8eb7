def check(name, test, hint):
    #ko| """연습 문제의 답을 확인합니다. 맞으면 축하하고, 아니면 힌트를 보여 줍니다."""
    #en| """Check an exercise answer: congratulate when right, give a hint when not."""
    try:
        ok, problem = bool(test()), None
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
