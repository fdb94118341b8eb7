"""One Korean term per concept: the glossary is well formed, and no Korean page or notebook uses a
rendering it rejects."""

from __future__ import annotations

import base64
import html
import re
import tokenize
from functools import cache

import nbformat
import pytest
import yaml
from babel.messages.pofile import read_po
from conftest import ROOT, chapter_stems, code_tokens, comments, figure_alt, load

GLOSSARY = yaml.safe_load((ROOT / "book" / "glossary.yml").read_text(encoding="utf-8"))
FIELDS = {"en", "ko", "en_meaning", "ko_meaning", "reject"}
OPTIONAL = {"elsewhere"}  # words other Korean books use: listed on the glossary page, search synonyms
HANGUL = re.compile("[가-힣]")


def test_glossary_is_well_formed():
    for term in GLOSSARY:
        assert FIELDS <= set(term) <= FIELDS | OPTIONAL, (
            f"glossary entry {term.get('en')!r}: fields must be {sorted(FIELDS)}, and may be {sorted(OPTIONAL)}")
        for word in term.get("elsewhere", []):
            assert any(re.search(p, word) for p in term["reject"]), (
                f"{term['en']!r}: the other books' word {word!r} must be rejected too, so the book never uses it")
        assert all(str(term[f]).strip() for f in FIELDS - {"reject"}), f"{term['en']!r}: an empty field"
        for pattern in term["reject"]:
            re.compile(pattern)
            assert not re.search(pattern, term["ko"]), f"{term['en']!r}: {pattern!r} rejects the term itself"
    for key in ("en", "ko"):
        names = [t[key] for t in GLOSSARY]
        assert len(names) == len(set(names)), f"a {key} term appears twice in glossary.yml"


def strings(source: str) -> list[str]:
    """The Korean string literals of Python code, as written (check messages, hints, figure and slider labels)."""
    return [text for kind, text in code_tokens(source) if kind == tokenize.STRING and HANGUL.search(text)]


def why_texts(source: str, form: str = "plain") -> list[tuple[str, str]]:
    """(label, text): what check() shows after a right answer, decoded from a student notebook's SOLUTION_NOTES:
    its plain text (printed where no front end renders Markdown) or its Markdown (rendered, with math)."""
    notes = re.search(r"^SOLUTION_NOTES = \{\n(.*?)^\}", source, re.M | re.S)
    if not notes:
        return []
    found = []
    for label, forms in re.findall(r'^    "([^"]+)": \{\n(.*?)^    \},', notes[1], re.M | re.S):
        body = re.search(rf'"{form}": \[(.*?)\]', forms, re.S)[1]
        found.append((label, base64.b64decode("".join(re.findall(r'"([^"]+)"', body))).decode("utf-8")))
    return found


def template_text(path) -> str:
    """The Korean half of a page template (its only-ko block), tags removed, one line per line."""
    text = path.read_text(encoding="utf-8")
    korean = text.split('<div class="only-ko"', 1)[1].split('<div class="only-en"', 1)[0]
    return html.unescape(re.sub(r"<[^>]+>", "", korean))


@cache
def korean_texts() -> tuple[tuple[str, str], ...]:
    """(where, text) for every Korean string a reader sees: prose, code comments, figure descriptions and
    string literals (check messages, hints, labels) of the notebooks; the "why" texts of the student
    notebooks; the pages; the landing page's data and templates; the interface catalogues; the glossary's
    meanings; the Korean strings of the tools (the grader's feedback, the notebooks' head lines). Read once per
    test process: three tests are parametrized by them and two more read them all (the files do not change
    while the tests run)."""
    return tuple(_korean_texts())


def _korean_texts():
    for stem in chapter_stems():
        for cell in load(stem, "ko").cells:
            text = cell.source if cell.cell_type == "markdown" else "\n".join(comments(cell.source) + strings(cell.source))
            alt = figure_alt(cell)  # what a screen reader says
            yield f"notebooks/ko/{stem}.ipynb cell {cell.id}", text + ("\n" + alt if alt else "")
        student = ROOT / "student" / "ko" / f"{stem}.ipynb"
        if student.is_file():
            for cell in nbformat.read(student, as_version=4).cells:
                for label, why in why_texts(cell.source) if cell.cell_type == "code" else []:
                    yield f"student/ko/{stem}.ipynb why {label}", why
    for page in sorted((ROOT / "book" / "ko").glob("*.md")):
        yield str(page.relative_to(ROOT)), page.read_text(encoding="utf-8")
    for stem, line in yaml.safe_load((ROOT / "book" / "landing.yml").read_text(encoding="utf-8"))["chapters"].items():
        yield f"book/landing.yml {stem}", line["ko"]
    for name in ("landing.html.in", "404.html.in"):
        yield f"book/_templates/{name}", template_text(ROOT / "book" / "_templates" / name)
    for po in sorted((ROOT / "book" / "locale" / "ko" / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as f:
            found = [m.string for m in read_po(f, locale="ko") if m.id and isinstance(m.string, str) and m.string]
        yield str(po.relative_to(ROOT)), "\n".join(found)
    yield "book/glossary.yml ko_meaning", "\n".join(t["ko_meaning"] for t in GLOSSARY)
    for path in sorted([*(ROOT / "tools").glob("*.py"), *(ROOT / "book" / "_ext").glob("*.py")]):
        found = [s for s in strings(path.read_text(encoding="utf-8")) if not s.startswith(("\"\"\"", "r\"\"\""))]  # not docstrings
        if found:
            yield str(path.relative_to(ROOT)), "\n".join(found)


@cache
def reject_patterns() -> tuple[tuple[dict, re.Pattern], ...]:
    """(term, its compiled pattern) for every rejected rendering, in the glossary's order: compiled once, not
    looked up in re's cache for each of the texts (a pattern that does not compile fails the test that uses it)."""
    return tuple((term, re.compile(pattern)) for term in GLOSSARY for pattern in term["reject"])


def rejected(text: str) -> list[str]:
    found = []
    for term, pattern in reject_patterns():
        for m in pattern.finditer(text):
            found.append(f"{m.group(0)!r} (the glossary renders '{term['en']}' as {term['ko']})")
    return found


@pytest.mark.parametrize("where, text", [pytest.param(w, t, id=w) for w, t in korean_texts()])
def test_korean_text_uses_the_glossary_terms(where, text):
    problems = rejected(text)
    assert not problems, f"{where}: " + "; ".join(problems)


# Every rendering the Korean review of 2026-11-23 rejected, in the forms the book had used (with particles,
# backticks and Latin script), next to earlier examples.
REVIEW_REJECTED = [
    "다음 층에서", "우리 층의 파라미터", "두 층으로", "작은 층(`B = 2`)", "`nn.Linear` 같은 층으로", "층이라",
    "학습하지 않은 층이라", "어텐션 레이어에게", "layer를",
    "폭이 `3 * C`로", "조각 하나의 폭도 4", "폭 12를", "헤드의 폭에", "출력 너비가", "너비가 나누어떨어질 때",
    "4차원 텐서에서는", "2차원 행렬에",
    "진짜 토큰이 3개", "진짜 토큰의 행", "길이보다 작을 때 진짜입니다",
    "`meta` 장치에", "meta 장치의", "메타 장치", "메타 디바이스", "`meta` 디바이스",
    "scaled dot-product 어텐션을", "self-attention 대신 self 어텐션", "cross 어텐션", "multi-head 어텐션",
    "autograd가 계산한 것", "결과에 nan이 나옴",
    "배치 2개, 토큰 4개", "배치 4개",
]


@pytest.mark.parametrize("sentence", ["주의 메커니즘은", "셀프어텐션에서", "값 벡터를 더합니다", "다중 헤드로 나눕니다", "룩업 테이블", "로스가 줄어듭니다"] + REVIEW_REJECTED)
def test_the_check_catches_rejected_renderings(sentence):
    assert rejected(sentence)


@pytest.mark.parametrize("sentence", [
    "조심하세요.", "주의하세요.", "관심 있는 독자는", "딕셔너리 조회", "밸류 벡터", "크로스 어텐션",
    # words that hold a rejected syllable, and the accepted renderings of the review's terms
    "계층 구조", "층층이 쌓인", "대폭 줄어듭니다", "폭발", "증폭", "레이어를 쌓습니다",
    "실제 토큰", "진짜로", "meta 디바이스에 만든 레이어", "`device=\"meta\"`", "자동 미분(autograd)", "`torch.autograd.functional.jacobian`",
    "출력에 `nan`이 섞여", "NaN이 번집니다", "nanoGPT", "배치 크기 2", "문장 2개(배치 크기 2)", "축이 4개인 텐서", "768차원 조각", "모델 차원 `C`",
    "스케일드 내적 어텐션(scaled dot-product attention)", "셀프 어텐션", "멀티헤드 어텐션",
])
def test_the_check_leaves_ordinary_words_alone(sentence):
    assert not rejected(sentence)


# The Korean review of 2026-11-24: a 폭 with 으로/와/과/보다 after it, «위 왼쪽»/«아래 오른쪽» (Korean names the
# horizontal side first, as PyTorch's causal_upper_left/causal_lower_right do) and «~마다의» (say «~별»).
REVIEW_2026_11_24_REJECTED = [
    "조각마다 정확한 폭으로 자릅니다", "헤드의 폭과 같습니다", "폭와", "모델 폭보다 작습니다",
    "위 왼쪽 정렬", "위 왼쪽에 맞춥니다", "아래 오른쪽 정렬", "아래 오른쪽에 맞춘 마스크", "**위 왼쪽**(top-left)",
    "헤드마다의 조각", "텐서의 축마다의 크기", "`transpose`로 트랜스포즈합니다",
]
REVIEW_2026_11_24_ACCEPTED = [
    "조각마다 정확한 크기로 자릅니다", "왼쪽 위 정렬", "오른쪽 아래 정렬", "오른쪽 아래에 맞춘 마스크", "헤드별 조각",
    "텐서의 축별 크기", "헤드마다 다른 곳을 봅니다", "토큰마다 하나씩", "전치(transpose, `.T`)", "폭우", "증폭보다 크게",
]


# Headings are plain (명사형 or 해라체 questions such as «왜 헤드가 여럿일까»), never 합니다체 or 해요체 sentences:
# «재어 봅시다», «전치가 핵심입니다», «$W_O$는 헤드별 조각을 더합니다» read as prose, not as titles.
POLITE_ENDING = re.compile(r"(?:(?P<syllable>[가-힣])(?:니다|니까|시다)|세요|십시오|요)$")


def heading_is_polite(heading: str) -> bool:
    """합니다체 ends in a syllable closed by ㅂ before 니다/니까/시다 (합니다, 습니다, 입니다, 봅시다), unlike
    the plain 아니다 or 하시다; 해요체 and -세요 end in 요."""
    text = re.sub(r"[\s.?!:)`*]+$", "", heading.lstrip("#").strip())
    m = POLITE_ENDING.search(text)
    if not m:
        return False
    syllable = m.group("syllable")
    return syllable is None or (ord(syllable) - 0xAC00) % 28 == 17  # 17: the final consonant ㅂ


def korean_headings():
    """(where, heading) for every Markdown heading of the Korean notebooks and pages (code fences skipped)."""
    def headings(text):
        fenced = False
        for line in text.splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
            elif not fenced and re.match(r"#{1,6} ", line):
                yield line
    for stem in chapter_stems():
        for cell in load(stem, "ko").cells:
            if cell.cell_type == "markdown":
                for line in headings(cell.source):
                    yield f"notebooks/ko/{stem}.ipynb cell {cell.id}", line
    for path in sorted((ROOT / "book" / "ko").glob("*.md")):
        for line in headings(path.read_text(encoding="utf-8")):
            yield str(path.relative_to(ROOT)), line
    for name in ("landing.html.in",):  # the Korean half of the landing page (404's heading is its message)
        korean = (ROOT / "book" / "_templates" / name).read_text(encoding="utf-8").split('<div class="only-ko"', 1)[1]
        for heading in re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", korean.split('<div class="only-en"', 1)[0], re.S):
            if HANGUL.search(heading):
                yield f"book/_templates/{name}", re.sub(r"<[^>]+>", "", heading)


# A heading that ends in a connective (-려면, -으면) is half a sentence, not a title: «더 나아가려면» -> «더 나아가기».
CONNECTIVE_ENDING = re.compile(r"(?:려면|으면|다면|라면|하면)$")


def heading_is_a_clause(heading: str) -> bool:
    return bool(CONNECTIVE_ENDING.search(re.sub(r"[\s.?!:)`*]+$", "", heading.lstrip("#").strip())))


def test_korean_headings_are_not_sentences_in_the_polite_register():
    polite = [f"{where}: {heading!r}" for where, heading in korean_headings()
              if heading_is_polite(heading) or heading_is_a_clause(heading)]
    assert not polite, ("write these headings as plain titles (명사형), not 합니다체 or 해요체 sentences or "
                        "clauses ending in -려면/-으면:\n" + "\n".join(polite))


def test_the_template_headings_are_read():
    assert ("book/_templates/landing.html.in", "차례") in set(korean_headings())


@pytest.mark.parametrize("heading, clause", [("## 더 나아가려면", True), ("## 더 나아가기", False), ("## 장면", False),
                                             ("### 쿼리가 키보다 적으면", True)])
def test_the_heading_rule_tells_clauses(heading, clause):
    assert heading_is_a_clause(heading) == clause


@pytest.mark.parametrize("heading, polite", [
    ("## 왜 √d_k로 나눌까: 재어 봅시다", True), ("## 가중치 옮기기: 전치가 핵심입니다", True),
    ("### $W_O$는 헤드마다의 조각을 더합니다", True), ("## 드롭아웃: 학습할 때만 가중치를 지웁니다", True),
    ("### 무엇이 다를까요?", True), ("## 먼저 실행하세요", True), ("무엇을 배우나요", True), ("누구를 위한 책인가요", True),
    ("이 책에서 배우는 것", False), ("누구를 위한 책인가", False), ("## 조각은 메모리에서 연속이 아니다", False),
    ("## 왜 √d_k로 나눌까: 재어 보기", False), ("## 가중치 옮기기: 핵심은 전치", False), ("### $W_O$는 헤드별 조각의 합", False),
    ("## 왜 헤드가 여럿일까", False), ("### `in_proj_weight`의 세 블록이 정말 쿼리, 키, 밸류일까", False),
    ("## 마스크: 우리는 True가 \"볼 수 있음\", `nn.MultiheadAttention`은 True가 \"가림\"", False),
])
def test_the_heading_rule_tells_polite_sentences_from_titles(heading, polite):
    assert heading_is_polite(heading) == polite


# The Korean review of 2026-11-26: renderings it rejected, in the forms the book had used, and its fixes. '머리'
# now rejects only a word of its own, so that «첫머리» (the landing page) stays usable.
REVIEW_2026_11_26_REJECTED = [
    "시간 축(dim=2)의 어느 쪽 끝", "그 자리에서 덮어쓸 수 없습니다", "어텐션 안의 위치와 배치 디코딩",
    "키 `T_k`개의 마지막 위치들에", "특징 순서와 그 역순서", "코드를 이식한 클래스", "머리가 여럿",
]
REVIEW_2026_11_26_ACCEPTED = [
    "토큰 축(dim=2)의 어느 쪽 끝", "제자리에서 덮어쓸 수 없습니다", "한 배치로 생성하기", "마지막 `T_q`개 위치에",
    "그 순서를 되돌리는 역순열", "캐시에 쓴 뒤에 회전하는 포팅", "각 장의 첫머리에 적힌", "시간을 더 잡으세요",
]


# The Korean review of 2026-11-28: the verb of "port" (T6), chapter 9's «조정» for RoPE scaling (T2), 배치 for a
# layout (T1); and the fixes that must stay readable.
REVIEW_2026_11_28_REJECTED = ["포팅한 레이어는 오류 없이", "포팅하기 전에", "조정된 각속도", "투영의 배치도 다릅니다"]
REVIEW_2026_11_28_ACCEPTED = ["옮긴 레이어는 오류 없이", "옮기기 전에", "스케일링된 각속도", "투영의 행을 놓는 순서",
                              "포팅 함수", "포팅이 참조와 같음을", "배치마다", "RoPE 스케일링"]


# Each review's rejected renderings caught, and its fixes left alone.
REVIEWS_REJECTED = REVIEW_2026_11_24_REJECTED + REVIEW_2026_11_26_REJECTED + REVIEW_2026_11_28_REJECTED
REVIEWS_ACCEPTED = REVIEW_2026_11_24_ACCEPTED + REVIEW_2026_11_26_ACCEPTED + REVIEW_2026_11_28_ACCEPTED


@pytest.mark.parametrize("sentence", REVIEWS_REJECTED)
def test_the_check_catches_the_reviews_renderings(sentence):
    assert rejected(sentence)


@pytest.mark.parametrize("sentence", REVIEWS_ACCEPTED)
def test_the_check_leaves_the_reviews_fixes_alone(sentence):
    assert not rejected(sentence)


def test_every_korean_string_a_reader_sees_is_read():
    """The texts above include what the glossary check once skipped: check messages and hints, slider labels,
    the why texts, the landing page's data and template, the .po catalogues and the grader's strings."""
    where = [w for w, _ in korean_texts()]
    texts = "\n".join(t for _, t in korean_texts())
    for part in ("book/landing.yml", "book/_templates/landing.html.in", "book/locale/ko/LC_MESSAGES/sphinx.po",
                 "tools/grade.py", "student/ko/09_positions.ipynb why "):
        assert any(w.startswith(part) for w in where), f"no text read from {part}"
    for string in ("아직 답이 없습니다", "채점 결과", "쿼리 m", "첫머리"):
        assert string in texts, f"{string!r} is a Korean string a reader sees, but the check does not read it"


# Register: the book's prose is 합니다체, with -세요 for requests; 해요체 («보관하니까요.») is not. Quoted speech
# («...», “...”) and questions («떨어질까요?») may use it.
HAEYO = re.compile(r"(?<!세)요[.!](?=\s|$|[\"')»*])")


def haeyo_sentences(text: str) -> list[str]:
    text = re.sub(r"«[^»\n]*»|“[^”\n]*”", "«»", text)
    return [text[max(0, m.start() - 30):m.end()].replace("\n", " ") for m in HAEYO.finditer(text)]


@pytest.mark.parametrize("where, text", [pytest.param(w, t, id=w) for w, t in korean_texts()])
def test_korean_text_is_not_in_haeyo(where, text):
    found = haeyo_sentences(text)
    assert not found, f"{where}: write 합니다체 (or -세요 for a request), not 해요체: {found}"


@pytest.mark.parametrize("sentence, haeyo", [
    ("캐시는 여전히 모든 키를 보관하니까요.", True), ("이게 답이에요.", True), ("먼저 실행하세요.", False),
    ("이 비교에서 떨어질까요?", False), ("그대로입니다.", False), ("«좋아요.»라고 말합니다.", False), ("보관해요!", True),
])
def test_the_register_rule_tells_haeyo(sentence, haeyo):
    assert bool(haeyo_sentences(sentence)) == haeyo


# Lost sentence boundaries: an edit that drops a period leaves «떨어집니다아래 셀이» in Korean and
# "fail this comparison The cell below" in English.
KO_JOINED = re.compile(r"니다[가-힣]")
EN_JOINED = re.compile(r"[a-z0-9] (?:The|This|That|These|Those|It|Its|Each|Both|Now|So|But|Here|There|We|You) ")


def english_prose():
    for stem in chapter_stems():
        for cell in load(stem, "en").cells:
            if cell.cell_type == "markdown":
                yield f"notebooks/en/{stem}.ipynb cell {cell.id}", cell.source
    for page in sorted((ROOT / "book" / "en").glob("*.md")):
        yield str(page.relative_to(ROOT)), page.read_text(encoding="utf-8")
    for stem, line in yaml.safe_load((ROOT / "book" / "landing.yml").read_text(encoding="utf-8"))["chapters"].items():
        yield f"book/landing.yml {stem}", line["en"]


def joined_sentences(text: str, lang: str) -> list[str]:
    if lang == "en":  # code, formulas and links are not prose
        text = re.sub(r"`[^`\n]*`|\$[^$\n]*\$|\[[^\]\n]*\]\([^)\n]*\)", "x", text)
    pattern = KO_JOINED if lang == "ko" else EN_JOINED
    return [text[max(0, m.start() - 30):m.end() + 10].replace("\n", " ") for m in pattern.finditer(text)]


def test_no_sentence_boundary_is_lost():
    found = [f"{where}: {s!r}" for where, text in korean_texts() for s in joined_sentences(text, "ko")]
    found += [f"{where}: {s!r}" for where, text in english_prose() for s in joined_sentences(text, "en")]
    assert not found, "a period is missing between two sentences:\n" + "\n".join(found)


@pytest.mark.parametrize("text, lang, joined", [
    ("모두 이 비교에서 떨어집니다아래 셀이 셋을", "ko", True), ("떨어집니다. 아래 셀이", "ko", False),
    ("now all fail this comparison The cell below", "en", True), ("fail this comparison. The cell below", "en", False),
    ("the `mask` The cell", "en", True), ("(see chapter 6.) So we pass", "en", False),
])
def test_the_boundary_rule_finds_joined_sentences(text, lang, joined):
    assert bool(joined_sentences(text, lang)) == joined


# Abbreviations: in each chapter, SDPA, GQA, MQA and MLA are introduced where they first appear («줄여서 SDPA»,
# "(grouped-query attention, GQA)", "**MLA**(multi-head latent attention", "(SDPA for short)"), in both languages;
# when the fast path moved from chapter 6 to 7, chapter 6's summary kept an SDPA it no longer explained.
ABBREVIATIONS = ("SDPA", "GQA", "MQA", "MLA")


def chapter_text(stem: str, lang: str) -> str:
    """The chapter's prose, and its code's comments and strings, in the order a reader meets them: the set-up cell,
    which holds the checks' messages, last (a message is read at its exercise's check cell, at the chapter's end)."""
    cells = load(stem, lang).cells
    setup = [c for c in cells if c.cell_type == "code" and "remove-cell" in c.metadata.get("tags", [])
             and "def check(" in c.source]
    return "\n".join(cell.source if cell.cell_type == "markdown" else "\n".join(comments(cell.source) + strings(cell.source))
                     for cell in [c for c in cells if c not in setup] + setup)


def unintroduced(text: str) -> list[str]:
    found = []
    for short in ABBREVIATIONS:
        m = re.search(rf"(?<![A-Za-z_]){short}(?![A-Za-z_])", text)
        if m and not (re.search(rf"\((?:[^()\n]*, )?{short}(?: for short)?\)", text[max(0, m.start() - 80):m.end() + 11])
                      or text[:m.start()].endswith("줄여서 ")
                      or re.match(rf"{short}\*\*\s*\(", text[m.start():])):
            found.append(f"{short} in {text[max(0, m.start() - 40):m.end() + 10]!r}")
    return found


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("stem", chapter_stems())
def test_abbreviations_are_introduced_in_each_chapter(stem, lang):
    found = unintroduced(chapter_text(stem, lang))
    assert not found, f"{stem} ({lang}): introduce at first use, «`F.scaled_dot_product_attention`(SDPA)» or say the full name: {found}"


@pytest.mark.parametrize("text, bad", [
    ("SDPA의 `is_causal`은 왼쪽 위에 맞추며", True), ("하나가 계산합니다. 줄여서 SDPA라고 부르겠습니다. SDPA는", False),
    ("`F.scaled_dot_product_attention`(SDPA)의 `is_causal`", False), ("(grouped-query attention, GQA): 쿼리", False),
    ("- **MLA**(multi-head latent attention, DeepSeek)", False), ("`F.scaled_dot_product_attention` (SDPA for short)", False),
])
def test_the_abbreviation_rule(text, bad):
    assert bool(unintroduced(text)) == bad


# Particles after code, numbers and Latin words (the review's T6: «split(C)이», «`[e0; e1]`는»), and in the
# Korean strings of code a particle right after a {placeholder}, whose value may end in any sound («(3, 6)와»),
# or inside a parenthesis («(와 절대 `1e-5`)»).
# A particle after code, a number or a Latin word takes the form its Korean reading asks for (the Korean review
# of 2026-11-26, T6): digits read as Sino-Korean numerals (1 일, 3 삼, 6 육; 10 십, 100 백, 1000 천), a fraction
# numerator last (1/3 삼분의 일), a letter alone by its name (C 씨, m 엠, n 엔, l 엘, r 알), an upper-case
# abbreviation by its last letter (GPU 유), a few words as the book reads them. A call reads as its argument
# (split(C) 씨); a parenthesis after a Korean word is a gloss, and the particle follows that word, so it is left
# alone, as are other Latin words (their reading varies). A model's version reads as a numeral too (the Korean
# review of 2026-11-28, T4: Qwen3은, Llama 3이, Gemma 3은, DeepSeek-V3은).
DIGIT_FINAL = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ", "8": "ㄹ", "9": ""}
ZEROS_FINAL = {1: "ㅂ", 2: "ㄱ", 3: "ㄴ"}  # 십, 백, 천; 만 and beyond end in ㄴ too
LETTER_FINAL = {"l": "ㄹ", "m": "ㅁ", "n": "ㄴ", "r": "ㄹ"}
WORD_FINAL = {"nan": "ㄴ", "flop": "ㅂ", "rope": "", "alibi": "", "llama": "", "qwen": "ㄴ", "mistral": "ㄹ",
              "pytorch": "", "colab": "ㅂ", "jupyter": "", "python": "ㄴ"}
PAIRS = {"은": ("은", "는"), "는": ("은", "는"), "이": ("이", "가"), "가": ("이", "가"), "을": ("을", "를"),
         "를": ("을", "를"), "과": ("과", "와"), "와": ("과", "와"), "으로": ("으로", "로"), "로": ("으로", "로")}
PARTICLE = re.compile(r"(?P<word>`[^`\n]+`|[A-Za-z0-9_.()\[\];, +\-*/=]*[A-Za-z0-9)\]])"
                      r"(?P<particle>으로|은|는|이|가|을|를|과|와|로)(?![가-힣])")


def final_sound(word: str) -> str | None:
    """The final consonant of a word's Korean reading ('' after a vowel), or None when it is not known."""
    core = word.strip("`").strip()
    while core.endswith((")", "]")):
        opener = "(" if core.endswith(")") else "["
        start = core.rfind(opener)
        if start < 0 or (opener == "(" and (start == 0 or not re.match(r"[A-Za-z0-9_.\]]", core[start - 1]))):
            return None  # a gloss after a Korean word, or a parenthesis opened before the word
        core = core[start + 1:-1].strip()
    core = core.split(",")[-1].split(";")[-1].strip()
    if m := re.search(r"([0-9]+)/[0-9]+$", core):
        core = m[1]
    if m := re.search(r"([0-9]+)(\.[0-9]+)?(?:e-?[0-9]+)?$", core):
        if re.search(r"e-?[0-9]+$", core):
            return DIGIT_FINAL[core[-1]]
        if m[2]:
            return DIGIT_FINAL[m[2][-1]]
        digits = m[1]
        zeros = len(digits) - len(digits.rstrip("0"))
        if zeros == len(digits):
            return "ㅇ"
        return DIGIT_FINAL[digits[-1]] if zeros == 0 else ZEROS_FINAL.get(zeros, "ㄴ")
    m = re.search(r"(?<![A-Za-z0-9_])([A-Za-z]+)$", core)
    if not m:
        return None
    letters = m[1]
    if len(letters) == 1:
        return LETTER_FINAL.get(letters.lower(), "")
    if letters.lower() in WORD_FINAL:
        return WORD_FINAL[letters.lower()]
    if letters.isupper() and len(letters) <= 5:
        return LETTER_FINAL.get(letters[-1].lower(), "")
    return None


def particle_problems(text: str) -> list[str]:
    """Particles after code, numbers and Latin words in the form the word's reading does not take."""
    found = []
    for m in PARTICLE.finditer(re.sub(r"\$[^$\n]*\$", "", text)):  # formulas are read in many ways
        final = final_sound(m["word"])
        if final is None:
            continue
        after_consonant, after_vowel = PAIRS[m["particle"]]
        want = after_vowel if final == "" or (final == "ㄹ" and after_consonant == "으로") else after_consonant
        if m["particle"] != want:
            word = m["word"].strip(" .,;")
            found.append(f"{word}{m['particle']} (say {word}{want})")
    return found


AFTER_PLACEHOLDER = re.compile(r"\}(?:으로|은|는|이|가|을|를|과|와|로)(?![가-힣])")
IN_PARENTHESIS = re.compile(r"\((?:와|과|를|을) ")  # not «(이 책», a demonstrative


def particle_mistakes(text: str) -> list[str]:
    found = particle_problems(text)
    for string in re.findall(r"[frb]*\"(?:[^\"\\\n]|\\.)*\"|[frb]*'(?:[^'\\\n]|\\.)*'", text):
        found += [f"{string[:60]}: a particle after a placeholder" for _ in AFTER_PLACEHOLDER.finditer(string)]
    found += [f"{m.group(0)!r}: a particle inside a parenthesis" for m in IN_PARENTHESIS.finditer(text)]
    return found


@pytest.mark.parametrize("where, text", [pytest.param(w, t, id=w) for w, t in korean_texts()])
def test_particles_after_code_and_numbers_fit_their_reading(where, text):
    found = particle_mistakes(text)
    assert not found, f"{where}: " + "; ".join(found)


@pytest.mark.parametrize("text, bad", [
    ("split(C)이 쿼리, 키, 밸류 순서로", True), ("split(C)가 쿼리", False), ("목표 `[e0; e1]`는 8차원", True),
    ("목표 `[e0; e1]`은 8차원", False), ("`x1`과 `x2`", False), ("`x2`과", True), ("`1e-5`는", False), ("`100`을", False),
    ("10은", False), ("`n`과", False), ("`m`으로", False), ("`m`로", True), ("`l`로", False), ("`T`을", True), ("bfloat16은 값 하나에", False),
    ("GPU가", False), ("NaN이", False), ("1/3로", False), ("1로", False), ("1으로", True), ("규칙(2)과", False),
    ("Llama 3는", True), ("Llama 3이", False), ("Gemma 3를", True), ("Qwen3은", False), ("DeepSeek-V3은", False), ("`view`는", False),
    ('f"{tuple(prompt_.shape)}와 {tuple(step_.shape)}입니다."', True), ('f"지금은 {tuple(prompt_.shape)}입니다."', False),
    ("상대 `1e-4`(와 절대 `1e-5`)입니다", True), ("상대 `1e-4`, 절대 `1e-5`입니다", False),
])
def test_the_particle_rule(text, bad):
    assert bool(particle_mistakes(text)) == bad


# The why texts (check() prints them after a right answer, as plain text): no Markdown or LaTeX marks, and lines
# after the first indented under "   풀이:".
BOLD = re.compile(r"(?<![\w)])\*\*(?=\S)")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_why_texts_are_plain_text(lang):
    found = []
    for stem in chapter_stems():
        for cell in nbformat.read(ROOT / "student" / lang / f"{stem}.ipynb", as_version=4).cells:
            for label, why in why_texts(cell.source) if cell.cell_type == "code" else []:
                outside_code = re.sub(r"«[^»]*»", "", why)
                if re.search(r"[`$\\]", outside_code) or BOLD.search(outside_code):
                    found.append(f"{label}: {why[:80]!r}")
                if any(line and not line.startswith("   ") for line in why.splitlines()[1:]):
                    found.append(f"{label}: a line starts at column 0 under the first")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_why_texts_render_as_markdown_in_a_notebook(lang):
    """The Markdown form, which Jupyter, JupyterLab and Colab render (math included), holds the solution's own
    Markdown but none of the book's cross-references, which would show as raw syntax in a notebook; the plain
    form above is what a front end without Markdown prints."""
    found, with_math = [], 0
    for stem in chapter_stems():
        for cell in nbformat.read(ROOT / "student" / lang / f"{stem}.ipynb", as_version=4).cells:
            for label, why in why_texts(cell.source, "markdown") if cell.cell_type == "code" else []:
                with_math += "$" in why
                if re.search(r"\]\([^)]*\)|\{(?:ref|numref|doc|eq)\}", why):
                    found.append(f"{label}: {why[:80]!r}")
    assert not found, "\n".join(found)
    assert with_math >= 3, "the Markdown form should keep the solutions' formulas for the front end to render"


# Labels: the grader's result labels sit alone in a table cell, so they are noun forms (-ㅁ/음: «풀지 않음», «아직
# 아님») or nouns, not an adverb («아직»); the explorers' slider labels stay short enough for a narrow box.
RESULT_NOUNS = {"정답", "오류"}


def test_the_graders_korean_result_labels_are_noun_forms():
    from tools.grade import WORDS

    labels = {k: WORDS["ko"][k] for k in ("correct", "not yet", "not attempted", "error", "did not run", "invalid")}
    bad = {k: v for k, v in labels.items() if v not in RESULT_NOUNS and (ord(v[-1]) - 0xAC00) % 28 != 16}  # 16: ㅁ
    assert not bad, f"write these result labels as noun forms (-ㅁ/음), as the others are: {bad}"


def label_width(label: str) -> int:
    """Columns a label takes: a Hangul syllable is as wide as two Latin letters."""
    return sum(2 if HANGUL.match(c) else 1 for c in label)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_slider_labels_are_short(lang):
    """ipywidgets gives a description a narrow box and cuts what does not fit: «쿼리 위치 m» was twice the others."""
    long = []
    for stem in chapter_stems():
        for cell in load(stem, lang).cells:
            for label in re.findall(r"description=\"([^\"]*)\"", cell.source) if cell.cell_type == "code" else []:
                if label_width(label) > 8:
                    long.append(f"{stem}: {label!r}")
    assert not long, f"at most 8 columns (a Hangul syllable takes 2), as «헤드 수», «쿼리 m»: {long}"


def test_the_label_width_rule():
    assert label_width("쿼리 위치 m") > 8 >= label_width("쿼리 m") and label_width("축 눈금") <= 8


# Other books' words: search finds the book's term by them (book/_ext/book_search.py), and the book never uses them.
def synonyms() -> dict[str, str]:
    return {word: t["ko"] for t in GLOSSARY for word in t.get("elsewhere", [])}


def test_other_books_words_are_listed_for_the_reviews_examples():
    assert {"멀티 헤드 어텐션", "코잘 마스크", "점곱"} <= set(synonyms())


def test_search_rewrites_other_books_words_to_the_books_terms():
    import sys

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    import book_search

    from tools.site import search_synonyms

    assert search_synonyms() == synonyms()
    for word, term in synonyms().items():
        for query in (word, f"{word}의 계산", word.replace(" ", "  ")):
            assert term in book_search.rewrite_query(query, synonyms()), (query, book_search.rewrite_query(query, synonyms()))


def test_the_search_page_reads_other_books_words_as_the_books_terms(tmp_path):
    """A small Sphinx build with the Korean search language and the glossary's synonyms; node runs the search
    page's own scripts (searchtools.js, then language_data.js), and the query's words are the book's terms,
    stemmed as the index is. tests/test_browser.py searches the built site the same way in chromium."""
    import json
    import subprocess
    import sys

    (tmp_path / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\nextensions = ['book_search']\n"
        f"language = 'ko'\nbook_search_synonyms = {synonyms()!r}\n", encoding="utf-8")
    (tmp_path / "index.rst").write_text("시험\n====\n\n멀티헤드 어텐션은 내적으로 점수를 냅니다.\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(tmp_path), str(tmp_path / "out")],
                   check=True, capture_output=True, timeout=120)
    static = tmp_path / "out" / "_static"
    queries = [*synonyms(), *set(synonyms().values()), "점곱을 코잘 마스크로"]
    script = ("globalThis._ready = () => {}; globalThis.SPHINX_HIGHLIGHT_ENABLED = false;\n"
              + (static / "searchtools.js").read_text(encoding="utf-8") + "\n"
              + (static / "language_data.js").read_text(encoding="utf-8") + "\n"
              + f"console.log(JSON.stringify({json.dumps(queries, ensure_ascii=False)}"
              + ".map(q => [...Search._parseQuery(q)[1]])));")
    (tmp_path / "run.js").write_text(script, encoding="utf-8")
    terms = json.loads(subprocess.run(["node", str(tmp_path / "run.js")], capture_output=True, text=True, timeout=60,
                                      check=True).stdout)
    found = dict(zip(queries, terms, strict=True))
    for word, term in synonyms().items():
        assert found[word] == found[term], f"searching {word!r} looks for {found[word]}, not for {term!r} ({found[term]})"
    assert found["점곱을 코잘 마스크로"] == ["내적", "인과", "마스크"]
