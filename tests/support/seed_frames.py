"""Sentence frames of the seed documents that a cue must not follow (the content reviews' K findings)."""

from __future__ import annotations

#: seed 001's frame for the raw index (its §三 and quiz answer 2): the −1-to-1 range against an unbounded seat
#: number, the meaning 盖住, the same 猫 moved from 3 to 5000, "违反了第二条" (review 9, K5)
#: and its "模型会把它们当成…" conclusion, which round 10's quiz 2 turned into a question (review 11, K3)
RAW_SEED_FRAME = ("−1 到 1", "-1 到 1", "没有上限", "盖住", "从 3 号挪到 5000 号", "违反了第二条", "把它们当成")


def raw_index_seed_frame(texts: dict[str, str]) -> list[str]:
    """Each (where, phrase) of RAW_SEED_FRAME found in the texts, by where."""
    return [f"{where}: {w!r}" for where, t in texts.items() for w in RAW_SEED_FRAME if w in t]
