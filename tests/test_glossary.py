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


@pytest.mark.parametrize("sentence", ["주의 메커니즘은", "셀프어텐션에서", "값 벡터를 더합니다", "다중 헤드로 나눕니다", "룩업 테이블", "로스가 줄어듭니다"])
def test_the_check_catches_rejected_renderings(sentence):
    assert rejected(sentence)


@pytest.mark.parametrize("sentence", ["조심하세요.", "주의하세요.", "관심 있는 독자는", "딕셔너리 조회", "밸류 벡터", "크로스 어텐션"])
def test_the_check_leaves_ordinary_words_alone(sentence):
    assert not rejected(sentence)
