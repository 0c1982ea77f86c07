"""minimal_rope (trig_to_rope, class MinimalRope): the score tables and the code on screen against mathcore, the
same word at two seats, the shuffle (plain scores move, RoPE scores change), and the shuffle note (how far apart
B and F sit) against the table.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest

import mathcore
from mathcore.scores import distance_changed, reorder, score_matrix
from narration import figures
from scenes.mobjects.score_grid import format_cell
from tests.support.course_scenes import narration_scene, narration_scene_plan
from tests.support.drawn import numbers_in
from tests.support.scene_probes import last_before, plain_typst

TOL = 1e-6


def built(scene_id: str):
    return narration_scene(scene_id)


# -- minimal_rope ---------------------------------------------------------------------------------------
def _fmt(a):
    return [[format_cell(v) for v in row] for row in np.asarray(a)]


def test_minimal_rope_tables_equal_mathcore():
    scene = built("minimal_rope")
    x = figures.minimal_rope_input()
    seats = np.arange(x.shape[0])
    plain, roped = score_matrix(x), score_matrix(x, seats)
    assert np.allclose(roped, figures.minimal_rope_scores(x), atol=1e-12)
    assert np.allclose(plain, x @ x.T / np.sqrt(x.shape[1]), atol=1e-12)
    for name, want in (("plain_first", plain), ("plain", plain), ("roped", roped)):
        p = scene.probes[name][0]
        assert p["shown"] == _fmt(want) and np.allclose(p["values"], want, atol=TOL), name
    # the speeds and the angles table: w_i = 10000^(-2i/8), angle = seat × w_i
    a = scene.probes["angles"][0]
    w = mathcore.frequencies(8)
    assert np.allclose(w, 10000.0 ** (-np.arange(0, 8, 2) / 8))
    assert a["speeds_shown"] == [figures.fmt_dec(wi, 3) for wi in w] == ["1", "0.1", "0.01", "0.001"]
    assert a["angles_shown"] == [[figures.fmt_dec(p * wi, 3) for wi in w] for p in seats]
    # only cells whose SHOWN number changed are outlined, and all of them are
    c = scene.probes["changed_by_rope"][0]
    shown_changed = np.array(_fmt(plain)) != np.array(_fmt(roped))
    assert sorted(map(tuple, c["cells"])) == sorted(map(tuple, np.argwhere(shown_changed).tolist()))
    assert sorted(map(tuple, c["outlined"])) == sorted(map(tuple, c["cells"]))
    assert not any(i == j for i, j in c["cells"]) and 0 < len(c["cells"]) < 20


def test_minimal_rope_code_on_screen_computes_rope():
    """The listing on screen, run as it is, gives mathcore's RoPE and score table."""
    from scenes.minimal_rope import CODE, LINES

    scene = built("minimal_rope")
    x = figures.minimal_rope_input()
    seats = np.arange(x.shape[0])
    env = {"np": np, "x": x}
    exec(CODE, env)  # noqa: S102  (the listing shown on screen, a constant of the scene)
    assert np.allclose(env["xr"], mathcore.rope(x, seats), atol=1e-12)
    assert np.allclose(env["score"], score_matrix(x, seats), atol=1e-12)
    assert np.allclose(env["rope"](x, seats)[:, 2:4], mathcore.rope(x, seats)[:, 2:4], atol=1e-12)
    rows = CODE.splitlines()
    assert "10000" in rows[LINES["speeds"][0]] and "outer" in rows[LINES["angles"][0]]
    assert all("x0" in rows[i] or "x1" in rows[i] or "cos" in rows[i] or "out" in rows[i] for i in LINES["rotate"])
    # the lit lines follow the narration: speeds, then angles (build), rotation, then scores (rotate)
    code = scene.probes["code"]
    for cue, part in (("build", "angles"), ("rotate", "score")):
        end = last_before(code, scene.plan.cue(cue).end_frame - 1)
        assert end["on_screen"] and end["lit"] == list(LINES[part]), (cue, end["lit"])
    angles_at = scene.plan.cue("build").bookmarks["angles"]
    assert all(s["lit"] != list(LINES["angles"]) for s in code if s["frame"] < angles_at)


def _cue_text(scene_id: str, cue: str) -> str:
    plan = narration_scene_plan(scene_id)
    return figures.fill(plan.cue(cue).text)


def test_minimal_rope_same_word_shows_distance():
    scene = built("minimal_rope")
    x = figures.minimal_rope_input()
    n = x.shape[0]
    word = figures.MINIMAL_ROPE_SAME_WORD
    same = np.repeat(x[[word]], n, axis=0)
    p0, p1 = scene.probes["same_plain"][0], scene.probes["same_roped"][0]
    from scenes.minimal_rope import WORDS

    assert p0["rows"] == [WORDS[word]] * n and f"词 {WORDS[word]}" in _cue_text("minimal_rope", "same_word")
    assert p0["shown"] == _fmt(score_matrix(same)) and len({t for row in p0["shown"] for t in row}) == 1
    assert p0["note"].endswith(figures.value("same_word_d0"))
    shown = np.array(p1["shown"])
    assert p1["shown"] == _fmt(score_matrix(same, np.arange(n)))
    for gap in range(n):  # equal along every diagonal (the table depends only on the distance)
        diag = {shown[i, j] for i in range(n) for j in range(n) if abs(i - j) == gap}
        assert len(diag) == 1, (gap, diag)
    assert len({shown[0, g] for g in range(n)}) == n  # and differs between distances
    for g in (0, 1, 2):
        assert float(shown[0, g].replace("−", "-")) == pytest.approx(float(figures.value(f"same_word_d{g}")))
    text = _cue_text("minimal_rope", "diagonals")
    assert figures.value("same_word_d1") in text and figures.value("same_word_d2") in text
    # the notes say the outlined diagonal's number
    notes = {tuple(s["note"]) for s in scene.probes["diagonals"] if s["d1"] or s["d2"]}
    assert ("距离1：都是" + shown[0, 1],) in notes and ("距离2：都是" + shown[0, 2],) in notes
    slid = [s["slider_cell"] for s in scene.probes["diagonals"] if s["slider"]]
    assert slid[0] == [0, 1] and slid[-1] == [n - 2, n - 1] and all(j - i == 1 for i, j in slid)


def test_minimal_rope_shuffle_moves_plain_scores_and_changes_rope_scores():
    scene = built("minimal_rope")
    x = figures.minimal_rope_input()
    perm = np.asarray(figures.MINIMAL_ROPE_PERM)
    seats = np.arange(x.shape[0])
    s = scene.probes["shuffled"][0]
    assert s["perm"] == perm.tolist()
    assert s["row_labels"] == ["C", "A", "B", "F", "D", "E"]  # the words in their new seats
    assert s["row_seats"] == ["0", "1", "2", "3", "4", "5"]  # the seats stay
    # without RoPE the table is the old one moved: same numbers in new places
    assert np.allclose(s["plain_values"], reorder(score_matrix(x), perm), atol=TOL)
    assert np.allclose(s["plain_values"], score_matrix(x[perm]), atol=TOL)
    assert s["plain_shown"] == _fmt(score_matrix(x[perm]))
    # with RoPE the shuffled sentence's own scores are drawn
    new = score_matrix(x[perm], seats)
    assert np.allclose(s["roped_values"], new, atol=TOL)
    assert s["roped_shown"] == _fmt(new)
    moved = reorder(score_matrix(x, seats), perm)
    mask = distance_changed(perm)
    assert np.all(np.abs(new - moved)[mask] > 1e-3)  # differ where the seat offset changed
    assert np.all(np.abs(new - moved)[~mask] < 1e-12)  # and nowhere else
    # outlined: exactly the cells whose shown number changed
    shown_changed = np.array(_fmt(new)) != np.array(_fmt(moved))
    assert sorted(map(tuple, s["outlined"])) == sorted(map(tuple, np.argwhere(shown_changed).tolist()))
    # the most-changed pair is pointed at, and the narration names it
    k, l = np.unravel_index(np.argmax(np.abs(new - moved)), new.shape)
    assert sorted(map(tuple, s["most"])) == sorted([(int(k), int(l)), (int(l), int(k))])
    a, b = sorted((int(perm[k]), int(perm[l])))
    text = _cue_text("minimal_rope", "shuffle")
    from scenes.minimal_rope import WORDS

    assert f"{WORDS[a]}、{WORDS[b]}" in text  # named with a pause between (L4, review 9)
    assert float(figures.value("rope_shuffle_change")) == pytest.approx(np.abs(new - moved).max(), abs=0.05)
    assert int(figures.value("shuffle_gap_before")) == b - a
    assert int(figures.value("shuffle_gap_after")) == abs(int(k) - int(l))


# -- minimal_rope / shuffle --------------------------------------------------------------------------
def _seat_of(s, word: str) -> int:
    """The seat a word is drawn at: the seat label level with the word's row label."""
    y = next(y for t, y in s["words"] if t == word)
    return int(min(s["seats"], key=lambda ty: abs(ty[1] - y))[0])


def shuffle_note_disagreements(samples) -> list[str]:
    """ "B、F：相距 4 个位置 → 相距 1 个" and "−2.0 → −1.0，变了约 1" against the rows and cells drawn before the
    shuffle (the first frame the table is on screen) and now."""
    out = []
    shown = [s for s in samples if s["on_screen"]]
    if not shown:
        return ["the table is never on screen"]
    before = shown[0]
    for s in shown:
        if not s["note_on_screen"]:
            continue
        first, second = (plain_typst(t) for t in s["note"])
        a, b = re.findall(r"[A-Z]", first)[:2]
        gap_before, gap_after = numbers_in(first)
        old, new, change = numbers_in(second)
        drawn_before = abs(_seat_of(before, a) - _seat_of(before, b))
        drawn_after = abs(_seat_of(s, a) - _seat_of(s, b))
        cell_before = numbers_in(before["cells"][_seat_of(before, a)][_seat_of(before, b)])[0]
        cell_now = numbers_in(s["cells"][_seat_of(s, a)][_seat_of(s, b)])[0]
        for what, said, drawn, tol in (
            ("gap before", gap_before, drawn_before, 0),
            ("gap after", gap_after, drawn_after, 0),
            ("score before", old, cell_before, 0),
            ("score now", new, cell_now, 0),
            ("change", change, abs(cell_now - cell_before), 0.1 + 1e-9),
        ):
            if abs(said - drawn) > tol:
                out.append(f"frame {s['frame']}: {what}: note says {said:g}, drawn {drawn:g}")
    return out


def test_shuffle_note_equals_the_table():
    scene = narration_scene("minimal_rope")
    samples = scene.probes["shuffle"]
    assert sum(s["note_on_screen"] and s["on_screen"] for s in samples) > 15
    assert shuffle_note_disagreements(samples) == []
    _, _, before, after = figures.minimal_rope_shuffle_pair()
    s = [s for s in samples if s["note_on_screen"]][-1]
    assert numbers_in(plain_typst(s["note"][0])) == [before, after]
    # the change is written as the subtitle writes it ("约 1", not "约 1.0")
    assert plain_typst(s["note"][1]).endswith("约 " + figures.value("rope_shuffle_change"))


@pytest.mark.parametrize("what", ["gap label", "old score", "B drawn in another row"])
def test_shuffle_check_catches_a_perturbation(what):
    samples = copy.deepcopy(narration_scene("minimal_rope").probes["shuffle"])
    for s in samples:
        if not s["note_on_screen"]:
            continue
        if what == "gap label":
            s["note"][0] = s["note"][0].replace("[4]", "[3]")
        elif what == "old score":
            s["note"][1] = s["note"][1].replace("−2.0", "−1.5", 1)
        else:
            s["words"] = [[t, y + (0.56 if t == "B" else 0.0)] for t, y in s["words"]]
    assert shuffle_note_disagreements(samples)
