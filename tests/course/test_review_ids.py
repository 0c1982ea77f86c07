"""narration/REVIEW.md answers every finding of the second content review exactly once.

The review (``../shared/reviews/content-review-2.md``, next to the checkout) names each finding in a heading
``### ID — title``. A clean clone may not have it, so the ids are also kept here; where the review exists,
the constant must equal its headings. REVIEW.md must name each id exactly once as a whole word (L1 is not
L10), and no other id-like token (``E7``, ``P23``) may appear.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REVIEW_ANSWERS = ROOT / "narration" / "REVIEW.md"
REVIEW = ROOT.parent / "shared" / "reviews" / "content-review-2.md"

FINDING_IDS = (
    "E1",
    "E2",
    "E3",
    "M1",
    "M2",
    "M3",
    "M4",
    "M5",
    "M6",
    "M7",
    "M8",
    "K1",
    "K2",
    "K3",
    "K4",
    "P1",
    "P2",
    "P3",
    "P4",
    "P5",
    "P6",
    "P7",
    "P8",
    "P9",
    "P10",
    "P11",
    "P12",
    "P13",
    "P14",
    "P15",
    "P16",
    "P17",
    "P18",
    "P19",
    "P20",
    "P21",
    "P22",
    "L1",
    "L2",
    "L3",
    "L4",
    "L5",
    "L6",
    "L7",
    "L8",
    "L9",
    "L10",
    "L11",
    "L12",
    "L13",
)

HEADING = re.compile(r"^### ([EMKPL]\d+) — ", re.MULTILINE)  # not "### L1 `trig_to_rope`" (its checked-list)
ID_LIKE = re.compile(r"\b[EMKPL]\d+\b")


def review_heading_ids(text: str) -> list[str]:
    return HEADING.findall(text)


def id_problems(text: str, ids=FINDING_IDS) -> list[str]:
    """What is wrong with the answers ``text``: an id missing or named more than once, an unknown id."""
    out = []
    for fid in ids:
        n = len(re.findall(rf"\b{re.escape(fid)}\b", text))
        if n == 0:
            out.append(f"{fid}: missing")
        elif n > 1:
            out.append(f"{fid}: named {n} times, once expected")
    known = set(ids)
    for other in sorted(set(ID_LIKE.findall(text)) - known):
        out.append(f"{other}: not a finding of the review")
    return out


def test_the_constant_is_the_reviews_list_of_findings():
    assert len(FINDING_IDS) == 50 and len(set(FINDING_IDS)) == 50
    if not REVIEW.exists():
        pytest.skip(f"{REVIEW} is not here (a clean clone): the kept list is checked against the answers only")
    assert tuple(review_heading_ids(REVIEW.read_text(encoding="utf-8"))) == FINDING_IDS


def test_review_md_answers_every_finding_exactly_once():
    text = REVIEW_ANSWERS.read_text(encoding="utf-8")
    assert id_problems(text) == []
    # one line per finding, in the review's order
    lines = re.findall(r"^- \*\*([EMKPL]\d+)\*\* — \S", text, re.MULTILINE)
    assert tuple(lines) == FINDING_IDS


def test_a_duplicated_a_missing_and_an_unknown_id_are_reported(tmp_path):
    text = REVIEW_ANSWERS.read_text(encoding="utf-8")
    assert "- **L1** —" in text and "- **P9** —" in text

    doubled = tmp_path / "doubled.md"
    doubled.write_text(text + "\n- **L1** — once more\n", encoding="utf-8")
    assert id_problems(doubled.read_text(encoding="utf-8")) == ["L1: named 2 times, once expected"]

    missing = tmp_path / "missing.md"
    missing.write_text(re.sub(r"^- \*\*P9\*\* — .*\n", "", text, flags=re.MULTILINE), encoding="utf-8")
    assert id_problems(missing.read_text(encoding="utf-8")) == ["P9: missing"]

    # L10 does not count as L1: with L1's line gone, L1 is missing even though L10 … L13 remain
    no_l1 = re.sub(r"^- \*\*L1\*\* — .*\n", "", text, flags=re.MULTILINE)
    assert id_problems(no_l1) == ["L1: missing"]

    unknown = text + "\n- **P23** — not in the review\n"
    assert id_problems(unknown) == ["P23: not a finding of the review"]
