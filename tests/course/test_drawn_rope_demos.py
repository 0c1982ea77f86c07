"""The RoPE demonstrations (rope_turns, qk_widget, minimal_rope, rope_visualisation, summary_table):
they draw mathcore's values. Frames and layout are checked for every scene by
tests/test_viewer_check.py. Each scene is built once per session from its real narration plan
(``conftest.built_scene``).
"""
from __future__ import annotations


import numpy as np
import pytest

import mathcore
from narration import figures
from mathcore.scores import angle_between, distance_changed, reorder, score_matrix
from scenes.mobjects.score_grid import format_cell
from tests.support.course_scenes import narration_scene, narration_scene_plan

TOL = 1e-6
SCENES = ("rope_turns", "qk_widget", "minimal_rope", "rope_visualisation", "summary_table")


def built(scene_id: str):
    return narration_scene(scene_id)


def at_frame(samples, frame):
    hits = [s for s in samples if s["frame"] == frame]
    assert hits, f"no sample on frame {frame}"
    return hits[-1]


def last_before(samples, frame):
    hits = [s for s in samples if s["frame"] <= frame]
    assert hits, f"no sample before frame {frame}"
    return hits[-1]


# -- rope_turns ----------------------------------------------------------------------------------
def test_rope_turns_arrows_are_rope_2d():
    scene = built("rope_turns")
    v = np.asarray(figures.ROPE_PAIR_Q)
    theta = np.radians(figures.THETA_DEG)
    samples = scene.probes["arrows"]
    for s in samples:
        for phi, tip in zip(s["phi"], s["tips"]):
            assert np.allclose(tip, mathcore.rotate(v, phi), atol=TOL)
    end = at_frame(samples, scene.plan.cue("seats").end_frame)
    for seat, tip, shown in zip(end["seats"], end["tips"], end["on_screen"]):
        assert shown
        assert np.allclose(tip, mathcore.rope_2d(v, seat, theta), atol=TOL)
    lengths = scene.probes["lengths"][0]["lengths"]
    assert np.allclose(lengths, np.linalg.norm(v), atol=TOL)
    assert scene.probes["length_text"][0]["shown"] == figures.fmt_fixed(np.linalg.norm(v))


# -- qk_widget -------------------------------------------------------------------------------------
def test_qk_widget_readouts_equal_mathcore():
    scene = built("qk_widget")
    theta = np.radians(figures.THETA_DEG)
    q, k = np.asarray(figures.WIDGET_Q), np.asarray(figures.WIDGET_K)
    samples = [s for s in scene.probes["widget"] if s["gap_on_screen"]]
    assert len(samples) > 100
    for s in samples:
        tq, tk = mathcore.rope_2d(q, s["i"], theta), mathcore.rope_2d(k, s["j"], theta)
        assert np.allclose(s["q_tip"], tq, atol=TOL) and np.allclose(s["k_tip"], tk, atol=TOL)
        gap = np.degrees(angle_between(tq, tk))
        assert abs(s["gap"] - gap) <= TOL
        assert abs(s["q_turn"] - np.degrees(s["i"] * theta)) <= TOL
        assert abs(s["k_turn"] - np.degrees(s["j"] * theta)) <= TOL
        assert s["gap_shown"] == f"{gap:.0f}"
        if s["score_on_screen"]:
            assert abs(s["score"] - mathcore.rope_score(q, k, s["i"], s["j"], theta)) <= TOL
            assert abs(s["score"] - np.cos(np.radians(s["gap"]))) <= TOL      # unit arrows: score = cos(angle)
    (i0, j0), (i1, j1) = figures.WIDGET_SEATS
    for cue, (i, j) in (("score", (i0, j0)), ("slide", (i1, j1))):
        s = last_before(scene.probes["widget"], scene.plan.cue(cue).end_frame)
        assert (s["i"], s["j"]) == (i, j)
        assert s["gap_shown"] == figures.value("widget_gap_deg")
        assert s["score_shown"] == f"{mathcore.rope_score(q, k, i, j, theta):.2f}"       # 2 places on screen
        assert float(s["score_shown"]) == pytest.approx(float(figures.value("widget_score")))   # the voice says 0.5
    # sliding both seats together never changes the angle or the score
    slide = scene.plan.cue("slide")
    during = [s for s in samples if slide.start_frame <= s["frame"] < slide.end_frame]
    assert len({round(s["i"], 6) for s in during}) > 5
    assert all(abs(s["gap"] - 60.0) <= TOL and abs(s["score"] - figures.widget_scores()[0]) <= TOL for s in during)


def test_qk_widget_planes_and_clocks_read_the_same_angles():
    scene = built("qk_widget")
    w = mathcore.frequencies(scene.PLANE_D)[list(scene.PLANE_INDICES)]
    q = np.asarray(figures.WIDGET_Q)
    planes = [s for s in scene.probes["planes"] if s["on_screen"]]
    assert {round(s["p"]) for s in planes} >= {0, 4, 8, 14}
    for s in planes:
        assert np.allclose(s["w"], w)
        for tip, wi in zip(s["tips"], w):
            assert np.allclose(tip, mathcore.rope_2d(q, s["p"], wi), atol=TOL)
    clocks = [s for s in scene.probes["clocks"] if s["on_screen"]]
    assert clocks
    seat_at = {s["frame"]: s["p"] for s in scene.probes["planes"]}
    for s in clocks:
        wrapped = (np.asarray(s["hand_angles"]) - s["p"] * w + np.pi) % (2 * np.pi) - np.pi
        assert np.all(np.abs(wrapped) <= TOL)
        assert s["p"] == seat_at[s["frame"]]          # hands and arrows read the same seat


# -- minimal_rope ---------------------------------------------------------------------------------------
def _fmt(a):
    return [[format_cell(v) for v in row] for row in np.asarray(a)]


def _cue_text(scene_id: str, cue: str) -> str:
    plan = narration_scene_plan(scene_id)
    return figures.fill(plan.cue(cue).text)


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
    for gap in range(n):       # equal along every diagonal (the table depends only on the distance)
        diag = {shown[i, j] for i in range(n) for j in range(n) if abs(i - j) == gap}
        assert len(diag) == 1, (gap, diag)
    assert len({shown[0, g] for g in range(n)}) == n          # and differs between distances
    for g in (0, 1, 2):
        assert float(shown[0, g].replace("−", "-")) == pytest.approx(float(figures.value(f"same_word_d{g}")))
    text = _cue_text("minimal_rope", "diagonals")
    assert figures.value("same_word_d1") in text and figures.value("same_word_d2") in text
    # the notes say the outlined diagonal's number
    notes = {tuple(s["note"]) for s in scene.probes["diagonals"] if s["d1"] or s["d2"]}
    assert ("隔1个位置：都是" + shown[0, 1],) in notes and ("隔2个位置：都是" + shown[0, 2],) in notes
    slid = [s["slider_cell"] for s in scene.probes["diagonals"] if s["slider"]]
    assert slid[0] == [0, 1] and slid[-1] == [n - 2, n - 1] and all(j - i == 1 for i, j in slid)


def test_minimal_rope_shuffle_moves_plain_scores_and_changes_rope_scores():
    scene = built("minimal_rope")
    x = figures.minimal_rope_input()
    perm = np.asarray(figures.MINIMAL_ROPE_PERM)
    seats = np.arange(x.shape[0])
    s = scene.probes["shuffled"][0]
    assert s["perm"] == perm.tolist()
    assert s["row_labels"] == ["C", "A", "B", "F", "D", "E"]          # the words in their new seats
    assert s["row_seats"] == ["0", "1", "2", "3", "4", "5"]           # the seats stay
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
    assert np.all(np.abs(new - moved)[mask] > 1e-3)          # differ where the seat offset changed
    assert np.all(np.abs(new - moved)[~mask] < 1e-12)        # and nowhere else
    # outlined: exactly the cells whose shown number changed
    shown_changed = np.array(_fmt(new)) != np.array(_fmt(moved))
    assert sorted(map(tuple, s["outlined"])) == sorted(map(tuple, np.argwhere(shown_changed).tolist()))
    # the most-changed pair is pointed at, and the narration names it
    k, l = np.unravel_index(np.argmax(np.abs(new - moved)), new.shape)
    assert sorted(map(tuple, s["most"])) == sorted([(int(k), int(l)), (int(l), int(k))])
    a, b = sorted((int(perm[k]), int(perm[l])))
    text = _cue_text("minimal_rope", "shuffle")
    from scenes.minimal_rope import WORDS
    assert f"{WORDS[a]} 和 {WORDS[b]}" in text
    assert float(figures.value("rope_shuffle_change")) == pytest.approx(np.abs(new - moved).max(), abs=0.05)
    assert int(figures.value("shuffle_gap_before")) == b - a
    assert int(figures.value("shuffle_gap_after")) == abs(int(k) - int(l))


def test_scores_helpers():
    x = figures.minimal_rope_input()
    assert np.allclose(score_matrix(x, np.arange(6)), figures.minimal_rope_scores(x), atol=1e-12)
    perm = np.asarray(figures.MINIMAL_ROPE_PERM)
    assert np.allclose(score_matrix(x[perm]), reorder(score_matrix(x), perm), atol=1e-12)
    assert distance_changed([0, 1, 2]).sum() == 0
    assert distance_changed([2, 0, 1]).tolist() == [[False, True, True], [True, False, False], [True, False, False]]
    assert np.degrees(angle_between([1, 0], [0, 2])) == pytest.approx(90.0)
    assert angle_between([1, 0], [1, 0]) == 0.0


# -- rope_visualisation ----------------------------------------------------------------------------------
def test_rope_visualisation_pointer_clocks_and_curve():
    scene = built("rope_visualisation")
    v = np.asarray(figures.ROPE_PAIR_Q)
    theta = np.radians(figures.THETA_DEG)
    pointer = [s for s in scene.probes["pointer"] if s["on_screen"]]
    for s in pointer:
        assert np.allclose(s["tip"], mathcore.rope_2d(v, s["seat"], theta), atol=TOL)
    end = last_before(scene.probes["pointer"], scene.plan.cue("pointer").end_frame)
    assert end["seat"] == scene.SEATS[-1]
    # d = 8 as in clock_row and minimal_rope: all four clocks, speeds 1, 0.1, 0.01, 0.001 rad per seat
    assert scene.D == 8
    w = mathcore.frequencies(scene.D)
    clocks = [s for s in scene.probes["clocks"] if s["on_screen"]]
    assert clocks[0]["speeds"] == [f"每个位置转{figures.fmt_dec(wi, 3)}弧度" for wi in w]
    for s in clocks:
        assert np.allclose(s["w"], w)
        wrapped = (np.asarray(s["hand_angles"]) - s["p"] * w + np.pi) % (2 * np.pi) - np.pi
        assert np.all(np.abs(wrapped) <= TOL)
    assert max(s["p"] for s in clocks) == scene.MULTI_TO
    assert f"位置 {scene.MULTI_TO:g}" in _cue_text("rope_visualisation", "multi")
    q, k = np.asarray(scene.CURVE_Q), np.asarray(scene.CURVE_K)
    assert not np.allclose(q, k) and np.linalg.norm(q) == pytest.approx(1, abs=2e-3)
    dist = np.linspace(0, scene.CURVE_MAX, 121)
    base_curve = mathcore.rope_scores(q, k, dist, m=0.0)
    curve = [s for s in scene.probes["curve"] if s["on_screen"]]
    shifted = [s for s in curve if s["m"] > 0]
    assert shifted and max(s["m"] for s in curve) == scene.SHIFT
    for s in shifted:
        drawn = np.asarray(s["drawn"])
        assert np.allclose(drawn[:, 0], dist, atol=1e-6)
        assert np.allclose(drawn[:, 1], mathcore.rope_scores(q, k, dist, m=s["m"]), atol=1e-6)
        assert np.allclose(drawn[:, 1], base_curve, atol=1e-6)      # the shape does not move


def nospace(text: str) -> str:
    """Manim's Text keeps its string without spaces."""
    return text.replace(" ", "")


# -- summary_table -----------------------------------------------------------------------------------------
def test_summary_table_rows_appear_with_their_cues():
    scene = built("summary_table")
    cls = type(scene)
    for short, concept, school, _, picture, model in cls.ROWS:
        row = scene.probes[f"row_{short}"][0]
        assert row["shown"] == [nospace(t) for t in (concept, school, picture, model)]
        assert all(row["on_screen"])
        assert row["frame"] <= scene.plan.cue(short).end_frame
    for short, _, text in cls.RECAPS:
        assert scene.probes[short][0]["shown"] == nospace(text)


def test_scores_docstring_examples():
    import doctest

    import mathcore.scores

    result = doctest.testmod(mathcore.scores, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0
