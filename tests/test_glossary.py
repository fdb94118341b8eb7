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
