"""One Korean term per concept: the glossary is well formed, and no Korean page or notebook uses a
rendering it rejects."""

from __future__ import annotations

import re

import pytest
import yaml
from conftest import ROOT, chapter_stems, comments, figure_alt, load

GLOSSARY = yaml.safe_load((ROOT / "book" / "glossary.yml").read_text(encoding="utf-8"))
FIELDS = {"en", "ko", "en_meaning", "ko_meaning", "reject"}


def test_glossary_is_well_formed():
    for term in GLOSSARY:
        assert set(term) == FIELDS, f"glossary entry {term.get('en')!r}: fields must be exactly {sorted(FIELDS)}"
        assert all(str(term[f]).strip() for f in FIELDS - {"reject"}), f"{term['en']!r}: an empty field"
        for pattern in term["reject"]:
            re.compile(pattern)
            assert not re.search(pattern, term["ko"]), f"{term['en']!r}: {pattern!r} rejects the term itself"
    for key in ("en", "ko"):
        names = [t[key] for t in GLOSSARY]
        assert len(names) == len(set(names)), f"a {key} term appears twice in glossary.yml"


def korean_texts():
    """(where, text) for all Korean prose, Korean code comments and Korean figure descriptions of the book."""
    for stem in chapter_stems():
        for cell in load(stem, "ko").cells:
            text = cell.source if cell.cell_type == "markdown" else "\n".join(comments(cell.source))
            alt = figure_alt(cell)  # what a screen reader says
            yield f"notebooks/ko/{stem}.ipynb cell {cell.id}", text + ("\n" + alt if alt else "")
    for page in sorted((ROOT / "book" / "ko").glob("*.md")):
        yield str(page.relative_to(ROOT)), page.read_text(encoding="utf-8")


def rejected(text: str) -> list[str]:
    found = []
    for term in GLOSSARY:
        for pattern in term["reject"]:
            for m in re.finditer(pattern, text):
                found.append(f"{m.group(0)!r} (the glossary renders '{term['en']}' as {term['ko']})")
    return found


@pytest.mark.parametrize("where, text", list(korean_texts()), ids=lambda v: v if isinstance(v, str) and " cell " in v or v.endswith(".md") else "")
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


@pytest.mark.parametrize("sentence", REVIEW_2026_11_24_REJECTED)
def test_the_check_catches_the_second_reviews_renderings(sentence):
    assert rejected(sentence)


@pytest.mark.parametrize("sentence", REVIEW_2026_11_24_ACCEPTED)
def test_the_check_leaves_the_second_reviews_fixes_alone(sentence):
    assert not rejected(sentence)


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


def test_korean_headings_are_not_sentences_in_the_polite_register():
    polite = [f"{where}: {heading!r}" for where, heading in korean_headings() if heading_is_polite(heading)]
    assert not polite, "write these headings as plain titles (명사형), not 합니다체 sentences:\n" + "\n".join(polite)


@pytest.mark.parametrize("heading, polite", [
    ("## 왜 √d_k로 나눌까: 재어 봅시다", True), ("## 가중치 옮기기: 전치가 핵심입니다", True),
    ("### $W_O$는 헤드마다의 조각을 더합니다", True), ("## 드롭아웃: 학습할 때만 가중치를 지웁니다", True),
    ("### 무엇이 다를까요?", True), ("## 먼저 실행하세요", True), ("## 조각은 메모리에서 연속이 아니다", False),
    ("## 왜 √d_k로 나눌까: 재어 보기", False), ("## 가중치 옮기기: 핵심은 전치", False), ("### $W_O$는 헤드별 조각의 합", False),
    ("## 왜 헤드가 여럿일까", False), ("### `in_proj_weight`의 세 블록이 정말 쿼리, 키, 밸류일까", False),
    ("## 마스크: 우리는 True가 \"볼 수 있음\", `nn.MultiheadAttention`은 True가 \"가림\"", False),
])
def test_the_heading_rule_tells_polite_sentences_from_titles(heading, polite):
    assert heading_is_polite(heading) == polite
