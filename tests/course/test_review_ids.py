"""narration/REVIEW.md answers every finding of each content review exactly once, in that review's section.

Each review (``../shared/reviews/content-review-N.md``, next to the checkout) names its findings in headings:
``### M1 — title`` in the second review, ``### M1. title`` in the third. A clean clone may not have the reviews, so
the ids are also kept here; where a review exists, its constant must equal its headings. A section of REVIEW.md
(``## The second review …``, ``## The third review …``) must name each of its review's ids exactly once as a whole
word (L1 is not L10), in the review's order, one line each, and no other id-like token (``E7``, ``P23``). The third
review also left two coverage decisions (§0's measured equivariance figure, §5's 32% → 79%), answered on lines
of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REVIEW_ANSWERS = ROOT / "narration" / "REVIEW.md"
REVIEWS_DIR = ROOT.parent / "shared" / "reviews"


def _ids(spec: str) -> tuple[str, ...]:
    """'M1-8 K1-5' -> ('M1', …, 'M8', 'K1', …, 'K5')."""
    out = []
    for part in spec.split():
        letter, lo, hi = re.fullmatch(r"([EMKPL])(\d+)-(\d+)", part).groups()
        out += [f"{letter}{i}" for i in range(int(lo), int(hi) + 1)]
    return tuple(out)


@dataclass(frozen=True)
class Review:
    name: str  #: the section heading of REVIEW.md starts "## The <name> review"
    file: str  #: in shared/reviews/
    ids: tuple[str, ...]
    heading: re.Pattern  #: a finding's heading in the review
    coverage: tuple[str, ...] = ()  #: decisions answered on lines of their own ("- **coverage §0** — …")


# the second review's checked-list headings "### L1 `trig_to_rope`" are not findings, hence the " — "
SECOND = Review(
    "second", "content-review-2.md", _ids("E1-3 M1-8 K1-4 P1-22 L1-13"), re.compile(r"^### ([EMKPL]\d+) — ", re.M)
)
THIRD = Review(
    "third",
    "content-review-3.md",
    _ids("M1-8 K1-5 P1-13 L1-8"),
    re.compile(r"^### ([EMKPL]\d+)\. ", re.M),
    coverage=("coverage §0", "coverage §5"),
)
#: a fresh reader's finding heading: "### M1. title" (the third review's shape, kept since)
FRESH_HEADING = re.compile(r"^### ([EMKPL]\d+)\. ", re.M)


def fresh(name: str, number: int, spec: str) -> Review:
    """A fresh reading filed as content-review-<number>.md (outside the repository from the fourth on)."""
    return Review(name, f"content-review-{number}.md", _ids(spec), FRESH_HEADING)


# the fourth reading (a fresh reader at 0c1e9ad) was not filed in shared/reviews: its ids are kept here only
FOURTH = fresh("fourth", 4, "E1-2 M1-6 K1-4 P1-8 L1-4")
# the fifth (a fresh reader at 17cbb22), likewise not filed in shared/reviews
FIFTH = fresh("fifth", 5, "M1-3 K1-4 P1-4 L1-4")
# the sixth (a fresh reader at f0f762c), likewise
SIXTH = fresh("sixth", 6, "E1-1 M1-5 K1-10 P1-4 L1-4")
# the seventh (a fresh reader at 632bc01), likewise
SEVENTH = fresh("seventh", 7, "M1-5 K1-6 P1-4 L1-4")
# the eighth (a fresh reader at c03c5ba), likewise
EIGHTH = fresh("eighth", 8, "M1-4 K1-4 P1-4 L1-4")
# the ninth (a fresh reader at 94c243b), likewise
NINTH = fresh("ninth", 9, "E1-1 M1-5 K1-6 P1-6 L1-4")
# the tenth (a fresh reader at c1f66fa), likewise: no E and no K found
TENTH = fresh("tenth", 10, "M1-4 P1-4 L1-3")
# the eleventh (a fresh reader at b437503), likewise
ELEVENTH = fresh("eleventh", 11, "M1-5 K1-8 P1-6 L1-7")
# the twelfth (a fresh reader at b548e87), likewise
TWELFTH = fresh("twelfth", 12, "M1-7 K1-4 P1-4 L1-6")
# the thirteenth (a fresh reader at d748fcd), likewise
THIRTEENTH = fresh("thirteenth", 13, "M1-5 K1-1 P1-3 L1-4")
# the fourteenth (a fresh reader at a03932d), likewise: no E and no K found
FOURTEENTH = fresh("fourteenth", 14, "M1-2 P1-3 L1-2")
REVIEWS = (
    SECOND,
    THIRD,
    FOURTH,
    FIFTH,
    SIXTH,
    SEVENTH,
    EIGHTH,
    NINTH,
    TENTH,
    ELEVENTH,
    TWELFTH,
    THIRTEENTH,
    FOURTEENTH,
)
ID_LIKE = re.compile(r"\b[EMKPL]\d+\b")


def section(text: str, review: Review) -> str:
    """The part of REVIEW.md under ``## The <name> review``, up to the next ``## `` heading."""
    m = re.search(rf"^## The {review.name} review\b.*?(?=^## |\Z)", text, re.M | re.S)
    assert m, f"REVIEW.md has no section '## The {review.name} review'"
    return m.group(0)


def id_problems(text: str, ids: tuple[str, ...]) -> list[str]:
    """What is wrong with the answers ``text``: an id missing or named more than once, an unknown id."""
    out = []
    for fid in ids:
        n = len(re.findall(rf"\b{re.escape(fid)}\b", text))
        if n == 0:
            out.append(f"{fid}: missing")
        elif n > 1:
            out.append(f"{fid}: named {n} times, once expected")
    for other in sorted(set(ID_LIKE.findall(text)) - set(ids)):
        out.append(f"{other}: not a finding of the review")
    return out


@pytest.mark.parametrize("review", REVIEWS, ids=lambda r: r.name)
def test_the_constant_is_the_reviews_list_of_findings(review):
    assert len(set(review.ids)) == len(review.ids)
    path = REVIEWS_DIR / review.file
    if not path.exists():
        pytest.skip(f"{review.file} is not here (a clean clone): the kept list is checked against the answers only")
    assert tuple(review.heading.findall(path.read_text(encoding="utf-8"))) == review.ids


@pytest.mark.parametrize("review", REVIEWS, ids=lambda r: r.name)
def test_review_md_answers_every_finding_exactly_once(review):
    text = section(REVIEW_ANSWERS.read_text(encoding="utf-8"), review)
    assert id_problems(text, review.ids) == []
    # one line per finding, in the review's order, then the coverage decisions
    lines = re.findall(r"^- \*\*([EMKPL]\d+)\*\* — \S", text, re.MULTILINE)
    assert tuple(lines) == review.ids
    for decision in review.coverage:
        assert len(re.findall(rf"^- \*\*{re.escape(decision)}\*\* — \S", text, re.MULTILINE)) == 1, decision


def test_the_sections_are_kept_apart():
    """An id answered in one review's section does not count for the other's."""
    text = REVIEW_ANSWERS.read_text(encoding="utf-8")
    third = section(text, THIRD)
    assert "- **P13** —" in third and "- **P13** —" in section(text, SECOND)
    without = text.replace(third, "## The third review\n")
    assert id_problems(section(without, THIRD), THIRD.ids)[0] == "M1: missing"


def test_a_duplicated_a_missing_and_an_unknown_id_are_reported(tmp_path):
    text = section(REVIEW_ANSWERS.read_text(encoding="utf-8"), SECOND)
    assert "- **L1** —" in text and "- **P9** —" in text

    doubled = text + "\n- **L1** — once more\n"
    assert id_problems(doubled, SECOND.ids) == ["L1: named 2 times, once expected"]

    missing = re.sub(r"^- \*\*P9\*\* — .*\n", "", text, flags=re.MULTILINE)
    assert id_problems(missing, SECOND.ids) == ["P9: missing"]

    # L10 does not count as L1: with L1's line gone, L1 is missing even though L10 … L13 remain
    no_l1 = re.sub(r"^- \*\*L1\*\* — .*\n", "", text, flags=re.MULTILINE)
    assert id_problems(no_l1, SECOND.ids) == ["L1: missing"]

    unknown = text + "\n- **P23** — not in the review\n"
    assert id_problems(unknown, SECOND.ids) == ["P23: not a finding of the review"]


def test_a_missing_coverage_decision_is_reported():
    text = section(REVIEW_ANSWERS.read_text(encoding="utf-8"), THIRD)
    gone = re.sub(r"^- \*\*coverage §5\*\* — .*\n", "", text, flags=re.MULTILINE)
    assert gone != text
    with pytest.raises(AssertionError, match="coverage §5"):
        for decision in THIRD.coverage:
            assert len(re.findall(rf"^- \*\*{re.escape(decision)}\*\* — \S", gone, re.MULTILINE)) == 1, decision
