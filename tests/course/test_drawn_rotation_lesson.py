"""The rotation lesson's scenes (rotation lesson §2, §4–§7): what they draw equals mathcore. Frames and layout
are checked for every scene by tests/test_viewer_check.py.

Each scene is built once per session from its real narration plan (``conftest.built_scene``).
"""
from __future__ import annotations


import re

import numpy as np
import pytest

import mathcore
from narration import figures
from mathcore import checks
from mathcore import rotation_facts as rf
from scenes import theme
from tests.support.course_scenes import narration_scene

TOL = 1e-6
SCENES = ["rotation_fidelity", "shift_machine", "gram_stripes", "assertions_live", "exercises"]


def sci_in(code: str) -> float:
    """The number a Typst line shows as ``m times 10^(e)`` (how these scenes typeset a measured error)."""
    found = re.findall(r"(\d+(?:\.\d+)?) times 10\^\((-?\d+)\)", code)
    assert len(found) == 1, f"one figure expected in {code!r}"
    return float(found[0][0]) * 10.0 ** int(found[0][1])


def shows_figure(code: str, name: str) -> bool:
    """The Typst line shows exactly the figure ``name`` (the subtitles' written form, same digits)."""
    return sci_in(code) == figures.parse_figure(figures.value(name))


def at_frame(samples, frame):
    hits = [s for s in samples if s["frame"] == frame]
    assert hits, f"no sample on frame {frame}"
    return hits[0]


@pytest.fixture(scope="module")
def scene_d():
    return narration_scene


# -- RotationFidelity ----------------------------------------------------------------------------
def test_rotation_fidelity_readings(scene_d):
    scene = scene_d("rotation_fidelity")
    for s in scene.probes["vector"]:
        assert np.allclose(s["tip"], mathcore.rotate(s["v0"], s["phi"]), atol=TOL)
    ortho = [s for s in scene.probes["orthogonal"] if s["on_screen"]]
    assert len(ortho) > 30 and len({round(s["theta"], 6) for s in ortho}) > 10      # shown while θ turns
    for s in ortho:
        want = np.round(rf.orthogonality_product(s["theta"]), 3) + 0.0
        assert np.array_equal(np.array(s["shown"]), want)
    det = [s for s in scene.probes["det"] if s["on_screen"]]
    assert len({round(s["theta"], 3) for s in det}) > 20
    for s in det:
        assert float(s["shown"]) == pytest.approx(round(rf.determinant(s["theta"]), 6), abs=1e-12)
    norm = [s for s in scene.probes["norm"] if s["on_screen"]]
    assert len({round(s["theta"], 3) for s in norm}) > 20
    for s in norm:
        p = rf.preservation(scene.X, scene.Y, s["theta"])
        for key in ("norm_x", "norm_rx", "norm_y", "norm_ry", "dot", "dot_r"):
            assert float(s[key].replace("−", "-")) == pytest.approx(round(p[key], 3), abs=1e-12)
        # x and y turned by the same angle: the readouts never move
        assert s["norm_x"] == s["norm_rx"] and s["norm_y"] == s["norm_ry"] and s["dot"] == s["dot_r"]
    assert shows_figure(scene.probes["a1"][0]["shown"], "a1_err") and "最大偏差" in scene.probes["a1"][0]["shown"]
    assert shows_figure(scene.probes["a2"][0]["shown"], "a2_err")
    assert scene.probes["a2"][0]["error"] == checks.a2_preservation()


def test_rotation_fidelity_direction_derivation_and_which_vector(scene_d):
    scene = scene_d("rotation_fidelity")
    # "θ 为正：逆时针转": while the drawn angle grows, the drawn tip turns counter-clockwise
    assert scene.probes["ccw"][0]["shown"] == "θ取正值：逆时针转"                   # Text drops spaces
    vec = scene.probes["vector"]
    turns = [(a, b) for a, b in zip(vec, vec[1:]) if b["phi"] - a["phi"] > 1e-6]
    assert len(turns) > 30
    for a, b in turns:
        cross = a["tip"][0] * b["tip"][1] - a["tip"][1] * b["tip"][0]
        assert cross > 0 or b["phi"] - a["phi"] >= np.pi, "the arrow turns clockwise while θ grows"
    # (Rx)·(Ry) = xᵀ RᵀR y = xᵀ y: the line on screen, and it holds for the scene's x, y at any angle
    shown = scene.probes["derive"][0]["shown"]
    assert "(R x) dot (R y) = x^T" in shown and "R^T R" in shown and "= x^T y = x dot y" in shown
    for th in np.radians([0.0, 37.0, 110.0, 250.0]):
        r = mathcore.rotation(th)
        x, y = np.array(scene.X), np.array(scene.Y)
        assert (r @ x) @ (r @ y) == pytest.approx(x @ (r.T @ r) @ y, abs=1e-12) == pytest.approx(x @ y, abs=1e-12)
    assert "点积" in scene.probes["derive"][0]["wall"]
    # which vector is turned: in this lesson the readings PE(n), not x; in RoPE q and k (screen and voice)
    seat = scene.probes["seat_number"][0]
    assert '"PE"(n)' in seat["seat"][0] and "$x$ 不转" in seat["seat"][1]
    assert "q、k" in seat["later"][0] and "角度差" in seat["later"][1]
    said = scene.plan.cue("seat_number").text
    assert "PE(n)" in said and "x 不转" in said and "q 和 k" in said
    for cue in scene.plan.cues:
        assert "内积" not in cue.text


# -- ShiftMachine --------------------------------------------------------------------------------
def test_shift_machine_numbers(scene_d):
    scene = scene_d("shift_machine")
    d = 8
    w = mathcore.frequencies(d)
    for s in scene.probes["clocks"]:
        assert np.allclose(s["w"], w)
        err = (np.array(s["hand_angles"]) - s["p"] * w + np.pi) % (2 * np.pi) - np.pi
        assert np.all(np.abs(err) <= TOL)
        if s["n_on_screen"]:
            assert s["n_shown"] == str(round(s["p"]))
    pairs = [s for s in scene.probes["pairs"] if s["on_screen"]]
    assert len({round(s["n"], 3) for s in pairs}) > 20
    for s in pairs:
        pe = rf.cos_first_pe([s["n"]], d)[0]
        # (cos, sin) per clock, as the narration lays them out
        assert np.allclose(pe[0::2], np.cos(s["n"] * w)) and np.allclose(pe[1::2], np.sin(s["n"] * w))
        want = [[figures.fmt_fixed(pe[2 * i], 2).replace("−0.00", "0.00"), figures.fmt_fixed(pe[2 * i + 1], 2).replace("−0.00", "0.00")]
                for i in range(d // 2)]
        assert s["shown"] == want
    m = scene.probes["matrix"][0]
    machine = rf.cos_first_shift_matrix(m["k"], d)
    p = rf.cos_first_order(d)
    assert np.array_equal(machine, mathcore.shift_matrix(m["k"], d)[np.ix_(p, p)])   # mathcore's own machine
    assert m["places"] == 3 and m["shown"] == [[_entry(x, 3) for x in row] for row in machine]
    # three decimals tell the slowest block (0.001 rad per step) from the identity
    assert m["shown"][7][6] == "0.001" and m["shown"][6][7] == "−0.001"
    assert f"{figures.value('w2_d8')}、{figures.value('w3_d8')}" in m["slow_note"]
    pe = mathcore.sinusoidal_pe(np.arange(12), d)
    assert np.allclose(mathcore.shift_matrix(3, d) @ pe[2], pe[5])
    table = scene.probes["pe_table"][0]
    assert table["shown"] == [[_entry(x, 2, "0.00") for x in row] for row in rf.cos_first_pe(table["rows"], d)]
    check = scene.probes["check"][0]
    assert check["error"] == checks.a4_shift() and shows_figure(check["shown"], "a4_err")
    back = scene.probes["backwards"][0]
    assert back["error"] == checks.a4_row_pitfall() and shows_figure(back["shown"], "row_pitfall_err")
    # the boxed result row: PE(k) M_k = PE(0)
    rows = scene.probes["back_rows"][0]
    assert rows["input_row"] == back["k"] and rows["output_row"] == 0
    pe = mathcore.sinusoidal_pe(np.arange(back["k"] + 1), d)
    assert np.allclose(pe[back["k"]] @ mathcore.shift_matrix(back["k"], d), pe[0], atol=1e-12)
    # the hands really go back K_BACK steps in the backwards beat
    clocks = scene.probes["clocks"]
    b = scene.plan.cue("backwards")
    p0, p1 = at_frame(clocks, b.start_frame)["p"], at_frame(clocks, b.end_frame - 1)["p"]
    assert p0 - p1 == pytest.approx(back["k"])
    # R(θ)ᵀ = R(−θ), so M_kᵀ = M_−k: the note on screen, and the machine's own transpose
    why = scene.probes["transpose"][0]["shown"]
    assert "R(theta)^T = R(-theta)" in why[0] and "M_k^T = M_(-k)" in why[1] and "倒拨" in why[1]
    for k in (1, 3):
        assert np.allclose(rf.cos_first_shift_matrix(k, d).T, rf.cos_first_shift_matrix(-k, d), atol=1e-15)
    # lesson 2's third requirement, named where PE(n+k) = M_k PE(n) is shown, and in the voice
    req = scene.probes["requirement"][0]["shown"]
    assert "第二课的第三条要求" in req[0] and "第二课的第三条要求" in scene.plan.cue("formula").text
    # the radian note: 1 rad ≈ 57° (on screen and in the voice, which also names the slowest step in degrees)
    assert f"1 弧度 ≈ {round(np.degrees(1.0))}°" in scene.probes["rad_note"][0]["shown"]
    said = scene.plan.cue("no_learning").text
    assert f"约 {figures.value('w0_d8_deg')}°" in said and f"{figures.value('w3_d8_deg')}°" in said
    assert figures.value("w0_d8_deg") == str(round(np.degrees(w[0])))
    assert figures.value("w3_d8_deg") == f"{np.degrees(w[3]):.2f}"
    periods = scene.probes["periods"][0]
    # the slowest period as the narration says it ("大约 6.1 万"), mathcore's 60611 rounded
    assert periods["last"] == f"≈{figures.value('wl_slow_512_wan')}万"          # Text drops spaces
    assert f"{figures.value('wl_slow_512_wan')} 万" in scene.plan.cue("pitch").text
    assert float(figures.value("wl_slow_512_wan")) * 1e4 == pytest.approx(mathcore.wavelengths(512)[-1], abs=500)
    assert periods["first"] == f"2π≈{figures.value('wl_fast_512')}"


def _entry(x: float, places: int = 2, zero: str = "0") -> str:
    if float(x) == 0:
        return zero
    return f"{round(float(x), places) + 0.0:.{places}f}".replace("-", "−")


# -- GramStripes ---------------------------------------------------------------------------------
def test_gram_stripes_heat_map_and_profile(scene_d):
    from manim import ManimColor, interpolate_color

    scene = scene_d("gram_stripes")
    heat = scene.probes["heat"][0]
    g = mathcore.gram(mathcore.sinusoidal_pe(np.arange(heat["n"]), heat["d"]))
    assert heat["d"] == 32 and heat["n"] == scene.K_MAX + 1           # row 0 holds every distance the curve shows
    assert np.allclose(heat["values"], g, atol=TOL)
    # drawn as one mobject per colour: every cell exactly once, in its own colour
    from collections import Counter
    assert heat["drawn"] == dict(Counter(heat["colors"])) and sum(heat["drawn"].values()) == heat["n"] ** 2
    assert abs(heat["drawn_area"] - heat["table_area"]) < 1e-6
    lo, hi = ManimColor(theme.BACKGROUND), ManimColor(theme.SCORE)
    for v, c in zip(np.ravel(g)[::97], heat["colors"][::97]):
        a = (v - heat["vmin"]) / (heat["vmax"] - heat["vmin"])
        assert c == interpolate_color(lo, hi, float(np.clip(a, 0, 1))).to_hex()
    # stripes: every diagonal of the drawn table is constant
    vals = np.array(heat["values"])
    for k in range(-heat["n"] + 1, heat["n"]):
        diag = np.diagonal(vals, k)
        assert np.ptp(diag) <= 1e-9
    curve = scene.probes["curve"][0]
    drawn = np.array(curve["drawn"])
    assert np.allclose(drawn[:, 1], mathcore.relative_profile(drawn[:, 0], 32), atol=1e-6)
    assert curve["g0_point"][1] == pytest.approx(float(mathcore.relative_profile(0, 32)), abs=1e-6)
    assert curve["g0_shown"] == f"g(0)={figures.value('g0_d32')}"          # Text drops spaces
    half = scene.probes["half"][0]
    assert half["k"] == mathcore.half_point(32) == 16
    assert half["point"][0] == pytest.approx(16, abs=1e-6)
    assert half["point"][1] == pytest.approx(float(mathcore.relative_profile(16, 32)), abs=1e-6)
    assert half["point"][1] <= half["half_of"] and half["shown"] == f"k={figures.value('half_k_d32')}"
    assert shows_figure(scene.probes["a5"][0]["shown"], "a5_err")
    assert scene.probes["a5"][0]["setup"] == f"另测d={checks.A5_D}、{checks.A5_POSITIONS}个位置："   # Text drops spaces
    assert f"{checks.A5_D} 维、{checks.A5_POSITIONS} 个位置" in scene.plan.cue("stripes").text        # and the narration
    # the map is labelled with what it is (d and the positions), as the voice says it
    assert heat["caption"] == f"d={heat['d']}，位置0到{heat['n'] - 1}"
    assert f"{heat['d']} 维、位置 0 到 {heat['n'] - 1}" in scene.plan.cue("stripes").text
    # the extrapolation experiment: told qualitatively, marked as a schematic, no source document, no %
    honest = scene.probes["honest"][0]
    assert "示意" in honest["source"] and "讲义" not in honest["source"]
    assert honest["seen"][1] == "全部答对" and honest["unseen"][1] == "大多出错" and "好了不少" in honest["widened"][1]
    for cue in ("extrapolation", "honest", "gap"):
        text = scene.plan.cue(cue).text
        assert "%" not in text and "讲义" not in text and "学习器" not in text


# -- AssertionsLive ------------------------------------------------------------------------------
def test_assertions_live_rows(scene_d):
    scene = scene_d("assertions_live")
    rows = scene.probes["row"]
    want = checks.lesson_assertions()
    assert [r["key"] for r in rows] == [a.key for a in want]
    eps = np.finfo(np.float64).eps
    for r, a in zip(rows, want):
        assert r["error"] == a.error and r["bound"] == a.bound and r["passed"] == a.passed
        assert r["bound"] == 100 * eps                                 # one bound for all: 100 ε
        near = a.error > a.bound / 2                                   # near its bound: 3 significant digits
        # typeset as Typst math: m times 10^(e), the digits of fmt_sci
        assert sci_in(r["shown_error"]) == figures.parse_figure(figures.fmt_sci(a.error, 3 if near else 2))
        if not near:
            assert shows_figure(r["shown_error"], f"{a.key.lower()}_err")
        assert sci_in(r["shown_error"]) == pytest.approx(a.error, rel=0.05)
        # the error in units of ε, as drawn: two significant digits (≈ 4.5 ε, ≈ 12 ε)
        assert r["shown_eps"].startswith("≈") and r["shown_eps"].endswith("ε")
        in_eps = r["shown_eps"].strip("≈ε ")
        assert ("." in in_eps) == (a.error / eps < 9.95)
        assert float(in_eps) == pytest.approx(a.error / eps, abs=0.05 if "." in in_eps else 0.5)
        assert r["mark"] == ("tick" if a.passed else "cross")
        assert (float(in_eps) <= 100) == a.passed
        # named as the voice names it: 断言一 … 断言五 (the lexicon reads A1 … A5 that way)
        assert r["shown_key"] == f"断言{'一二三四五'[int(a.key[1]) - 1]}"
        assert scene.plan.cue(a.key.lower()).text.startswith(r["shown_key"])
    intro = scene.probes["intro"][0]
    assert intro["eps"] == eps and intro["heads"] == ["断言", "内容", "实测偏差", "约合几个ε", "通过"]
    for cue in scene.plan.cues:                    # no source document, no "当场重算", no A-codes in the voice
        assert "讲义" not in cue.text and "当场" not in cue.text and not re.search(r"A\d", cue.text)
    assert str(checks.BOUND_IN_EPS) in scene.plan.cue("intro").text
    assert f"10 的负 {round(-np.log10(eps))} 次方" in scene.plan.cue("intro").text
    assert "epsilon = 2.2 times 10^(-16)" in intro["shown_unit"] and "100 epsilon = 2.2 times 10^(-14)" in intro["shown_unit"]
    assert "机器精度" in intro["shown_unit"] and "机器精度" in scene.plan.cue("intro").text     # ε is machine epsilon
    assert "舍入单位" not in intro["shown_unit"]
    verdict = scene.probes["verdict"][0]
    assert verdict["passed"] == sum(a.passed for a in want) and verdict["shown"].startswith(f"{verdict['passed']} / 5")
    order = figures.parse_figure(figures.value("assert_err_order"))
    assert re.search(r"\$10\^\((-?\d+)\)\$", verdict["shown"])[1] == str(round(np.log10(order)))
    # the voice says the same power of ten in words
    assert f"10 的负 {-round(np.log10(order))} 次方" in scene.plan.cue("verdict").text
    # the row of cue aN appears within that cue
    frames = {r["key"]: r["frame"] for r in rows}
    for a in want:
        c = scene.plan.cue(a.key.lower())
        assert frames[a.key] == c.start_frame


def test_assertions_are_recomputed_in_construct():
    import inspect

    from scenes.assertions_live import AssertionsLive

    src = inspect.getsource(AssertionsLive.construct)
    assert "checks.lesson_assertions()" in src


# -- Exercises -----------------------------------------------------------------------------------
@pytest.mark.parametrize("think", ["ex1_think", "ex2_think", "ex3_think"])
def test_exercise_countdown_reaches_zero_at_cue_end(scene_d, think):
    scene = scene_d("exercises")
    cue = scene.plan.cue(think)
    speech_end = cue.start_frame + cue.speech_frames
    pause = cue.end_frame - speech_end
    fps = scene.fps
    assert pause == int(round(cue_pause_seconds(think) * fps))
    samples = {s["frame"]: s for s in scene.probes[think]}
    shown = [samples[f]["seconds"] for f in range(speech_end, cue.end_frame)]
    assert shown[0] == cue_pause_seconds(think)                 # starts at the pause's whole seconds
    assert shown[-1] == 0                                       # 0 on the cue's last frame
    assert all(a >= b for a, b in zip(shown, shown[1:]))        # never counts up
    assert sorted(set(shown)) == list(range(0, shown[0] + 1))   # every whole second shown
    for f in range(speech_end, cue.end_frame):
        left = cue.end_frame - 1 - f
        assert samples[f]["seconds"] == -(-left // fps)         # ceil of the time left
        assert samples[f]["on_screen"]
    # during the speech the full pause is shown
    for f in range(cue.start_frame + fps // 2 + 1, speech_end):
        assert samples[f]["seconds"] == cue_pause_seconds(think)


def cue_pause_seconds(think: str) -> int:
    """The cue's ``pause:`` in narration/rotation_matrix.yaml."""
    from coursekit.core.config import load_config
    from coursekit.content.narration import load_course

    course = load_course(load_config(None).lessons)
    (cue,) = [c for c in course.scene("exercises").cues if c.short_id == think]
    return int(cue.pause)


def test_exercise_worked_values(scene_d):
    scene = scene_d("exercises")
    ex1 = scene.probes["ex1"][0]
    f = rf.column_facts(ex1["theta"])
    assert ex1["dot"] == f["dot"] and abs(f["dot"]) < 1e-15
    assert abs(f["len0_sq"] - 1) < 1e-15 and abs(f["len1_sq"] - 1) < 1e-15 and abs(f["det"] - 1) < 1e-15
    assert ex1["shown"].count("1.000000") == 3 and "0.000000" in ex1["shown"]
    ex2 = scene.probes["ex2"][0]
    power = np.linalg.matrix_power(mathcore.rotation(np.pi / 2), 4)
    assert np.allclose(ex2["power"], power, atol=0) and np.allclose(power, np.eye(2), atol=1e-15)
    assert shows_figure(ex2["shown_error"], "r90_pow4_err") and ex2["shown_error"].endswith("（舍入误差）")
    assert ex2["shown_matrix"] == [["1", "0"], ["0", "1"]]
    vec = [s for s in scene.probes["ex2_vector"] if s["on_screen"]]
    for s in vec:
        assert np.allclose(s["tip"], mathcore.rotate(s["v0"], s["phi"]), atol=TOL)
    work = scene.plan.cue("ex2_work")
    last = [s for s in vec if s["frame"] < work.end_frame][-1]
    assert last["phi"] == pytest.approx(2 * np.pi) and np.allclose(last["tip"], [1, 0], atol=TOL)
    ex3 = scene.probes["ex3"][0]
    assert ex3["answer"].endswith(figures.value("pe_norm_d512"))
    norms = np.linalg.norm(mathcore.sinusoidal_pe(ex3["positions"], ex3["d"]), axis=1)
    assert np.allclose(ex3["norms"], norms) and np.allclose(norms, np.sqrt(ex3["d"] / 2))
    assert all(t.endswith(figures.value("pe_norm_d512") + ".00") or t.endswith(figures.fmt_fixed(v))
               for t, v in zip(ex3["shown"], norms))
    assert f"= {figures.value('pe_norm_d512')}$" in ex3["note"]
    # 16 holds for d = 512 only: the voice says which d, as the screen does
    assert f"以 {ex3['d']} 维为例" in scene.plan.cue("ex3_work").text and f"$d = {ex3['d']}$" in ex3["note"]
    assert f"{ex3['d']}维时" in ex3["answer"]                                  # Text drops spaces


# -- the new helpers -------------------------------------------------------------------------------
def test_rotation_facts_helpers():
    import doctest

    from mathcore import rotation_facts

    assert doctest.testmod(rotation_facts).failed == 0
    for k in (1, 3, 7.5):
        m = rf.cos_first_shift_matrix(k, 8)
        pe = rf.cos_first_pe(np.arange(20), 8)
        assert np.allclose(pe[:10] @ m.T, rf.cos_first_pe(np.arange(10) + k, 8), atol=1e-12)
        for i, wi in enumerate(mathcore.frequencies(8)):
            assert np.allclose(m[2 * i:2 * i + 2, 2 * i:2 * i + 2], mathcore.rotation(wi * k))
    assert rf.identity_error(rf.rotation_power(np.pi / 2, 4)) == figures.parse_figure(figures.value("r90_pow4_err")) \
        or abs(rf.identity_error(rf.rotation_power(np.pi / 2, 4)) - figures.parse_figure(figures.value("r90_pow4_err"))) < 1e-17


def test_glyph_number_and_timer():
    from manim import VGroup

    from scenes.mobjects.glyph_number import GlyphNumber, fixed
    from scenes.mobjects.think_timer import ThinkTimer, seconds_left

    n = GlyphNumber(fixed(3), 0.0, max_chars=7)
    for v in (-0.0004, 1.23456, -12.5, 0.5):
        n.set_value(v)
        assert n.text == fixed(3)(v) and "−0.000" not in n.text
        drawn = [m for m in n.slots if np.ptp(m.points, axis=0).max() > 0]      # unused slots: one point
        assert len(drawn) == len(n.text.replace(" ", "")) == len(n.glyph_pairs())
        assert len({len(m.points) > 0 for m in n.slots}) == 1      # every slot keeps points (animations zip them)
    slots = list(n.submobjects)
    n.set_value(-3.25)
    assert n.submobjects == slots              # same mobjects: a running play keeps drawing the right ones
    assert [seconds_left(f, 15) for f in (120, 119, 106, 105, 15, 14, 1, 0, -3)] == [8, 8, 8, 7, 1, 1, 1, 0, 0]
    group = VGroup(n)
    left = n.get_left()[0]
    group.shift(np.array([1.0, 2.0, 0.0]))                   # moved as part of a group ...
    n.set_value(123.4)                                       # ... the next string starts there too
    assert n.get_left()[0] == pytest.approx(left + 1.0, abs=1e-9)
    t = ThinkTimer(120, 15)
    t.set_frames_left(119)
    assert t.shown_seconds() == 8
    t.set_frames_left(0)
    assert t.shown_seconds() == 0 and t.probe_values()["ring_fraction"] == 0
