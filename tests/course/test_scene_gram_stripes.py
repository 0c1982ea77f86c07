"""gram_stripes (rotation_matrix, class GramStripes): the proof of the stripes (the shift machine and the move
"两支一起转，点积不变") as typeset and as true for the scene's d; the heat map and the profile against mathcore; the
distance-0 and half-point labels, the arrow along row 0 and the far view (the dot product out to 1000, its title,
the band marking the first chart's range) against the drawing.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest

import mathcore
from mathcore import checks
from narration import figures
from scenes import theme
from tests.support.course_scenes import narration_scene
from tests.support.drawn import direction_deg, disagreements, length, numbers_in
from tests.support.scene_probes import one, shows_figure

TOL = 1e-6


@pytest.fixture(scope="module")
def scene_d():
    return narration_scene


# -- GramStripes ---------------------------------------------------------------------------------
def test_gram_stripes_heat_map_and_profile(scene_d):
    from manim import ManimColor, interpolate_color

    scene = scene_d("gram_stripes")
    heat = scene.probes["heat"][0]
    g = mathcore.gram(mathcore.sinusoidal_pe(np.arange(heat["n"]), heat["d"]))
    assert heat["d"] == 32 and heat["n"] == scene.K_MAX + 1  # row 0 holds every distance the curve shows
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
    assert curve["g0_shown"] == f"距离0：{figures.value('g0_d32')}"  # Text drops spaces
    half = scene.probes["half"][0]
    assert half["k"] == mathcore.half_point(32) == 16
    assert half["point"][0] == pytest.approx(16, abs=1e-6)
    assert half["point"][1] == pytest.approx(float(mathcore.relative_profile(16, 32)), abs=1e-6)
    assert half["point"][1] <= half["half_of"] and half["shown"] == f"距离{figures.value('half_k_d32')}"
    assert shows_figure(scene.probes["a5"][0]["shown"], "a5_err")
    assert scene.probes["a5"][0]["setup"] == f"另测d={checks.A5_D}、{checks.A5_POSITIONS}个位置："  # Text drops spaces
    assert f"{checks.A5_D} 维、{checks.A5_POSITIONS} 个位置" in scene.plan.cue("stripes").text  # and the narration
    # the map is labelled with what it is (d and the positions), as the voice says it
    assert heat["caption"] == f"d={heat['d']}，位置0到{heat['n'] - 1}"
    assert f"{heat['d']} 维、位置 0 到 {heat['n'] - 1}" in scene.plan.cue("stripes").text
    # the distance axis is "距离 n − m" (k is the key vector elsewhere), on both charts
    prof = [p for p in scene.probes["profile"] if p["ticks_on_screen"]][-1]
    assert all(t["text"].replace("−", "").isdigit() for t in prof["x_ticks"])
    for cue in scene.plan.cues:  # the extrapolation beat moved to through_projections; no unnamed experiment
        assert "%" not in cue.text and "实验" not in cue.text


def test_gram_stripes_proof_uses_the_move_and_the_shift_machine(scene_d):
    """PE(m)·PE(n) = (M_m PE(0))·(M_m PE(n − m)) = PE(0)·PE(n − m): typeset line by line, and true for d = 32."""
    scene = scene_d("gram_stripes")
    proof = one(scene, "proof")
    lines = [plain(code) for code in proof["lines"]]
    assert lines == ["PE(m)·PE(n)", "=(M_mPE(0))·(M_mPE(n-m))", "=PE(0)·PE(n-m)"]
    assert [plain(c) for c in proof["shifts"]] == ["PE(m)=M_mPE(0)", "PE(n)=M_mPE(n-m)"]
    assert proof["move"] == "两支一起转，点积不变"  # the move named in rotation_fidelity.inner, as drawn there
    assert "两支一起转，点积不变" in scene.plan.cue("dot").text and "往后拨 m 步" in scene.plan.cue("dot").text
    cos = one(scene, "cosines")
    assert plain(cos["shown"]) == "=sum_icos(omega_i(n-m))" and "第二种看法" in cos["view"][0]
    # each step holds for the scene's d = 32 (sin, cos pairs: M_m = mathcore.shift_matrix(m, 32))
    pe = lambda p: mathcore.sinusoidal_pe([p], 32)[0]  # noqa: E731
    for m, n in ((0, 3), (5, 21), (40, 12)):
        mm = mathcore.shift_matrix(m, 32)
        assert np.allclose(mm @ pe(0), pe(m), atol=1e-12) and np.allclose(mm @ pe(n - m), pe(n), atol=1e-12)
        assert np.allclose(mm.T @ mm, np.eye(32), atol=1e-12)  # a rotation: the move applies
        assert pe(m) @ pe(n) == pytest.approx(pe(0) @ pe(n - m), abs=1e-12)
        assert pe(m) @ pe(n) == pytest.approx(float(mathcore.relative_profile(n - m, 32)), abs=1e-12)


def plain(code: str) -> str:
    """A Typst formula's source without spaces, quotes and the {{… : label}} groups' markup, · for dot."""
    code = re.sub(r'manimgrp\("\w+", (.*?)\)(?= )', r"\1", code)  # a {{… : label}} group as Typst gets it
    return code.replace("$", "").replace('"', "").replace(" dot ", "·").replace(" ", "")


def _num(text: str) -> float:
    return numbers_in(text)[-1]


# -- gram_stripes ------------------------------------------------------------------------------------
def _axis_map(ticks, coord: int):
    """value -> scene coordinate, fitted through the tick labels as drawn (their text and their centres)."""
    vals = np.array([float(t["text"].replace("−", "-")) for t in ticks])
    pos = np.array([t["center"][coord] for t in ticks])
    slope, icpt = np.polyfit(vals, pos, 1)
    assert np.allclose(slope * vals + icpt, pos, atol=1e-6), "tick labels are not evenly placed"
    return (lambda v: slope * v + icpt), (lambda p: (p - icpt) / slope)


def _maps(s):
    _, x_of = _axis_map(s["x_ticks"], 0)
    _, y_of = _axis_map(s["y_ticks"], 1)
    return x_of, y_of


def _curve_xy(s):
    x_of, y_of = _maps(s)
    pts = np.array(s["curve"])
    return x_of(pts[:, 0]), y_of(pts[:, 1])


def _curve_at(s, k: float) -> float:
    xs, ys = _curve_xy(s)
    return float(np.interp(k, xs, ys))


def g0_disagreements(samples) -> list[str]:
    """g(0) as labelled = the drawn dot's value = the drawn curve's value at distance 0."""
    shown = lambda s: s["g0_on_screen"] and s["ticks_on_screen"] and s["curve_on_screen"]  # noqa: E731
    out = disagreements(
        samples,
        shown=shown,
        said=lambda s: _num(s["g0_shown"]),
        drawn=lambda s: _maps(s)[1](s["dot0"][1]),
        tol=1e-6,
        what="g(0) label vs its dot",
    )
    out += disagreements(
        samples,
        shown=shown,
        said=lambda s: 0.0,
        drawn=lambda s: _maps(s)[0](s["dot0"][0]),
        tol=1e-6,
        what="g(0) dot sits at distance 0",
    )
    out += disagreements(
        samples,
        shown=shown,
        said=lambda s: _num(s["g0_shown"]),
        drawn=lambda s: _curve_at(s, 0.0),
        tol=1e-6,
        what="g(0) label vs the curve at 0",
    )
    return out


def half_disagreements(samples) -> list[str]:
    """The half-point label k: the dot is drawn at distance k on the curve; the dashed line is drawn at half
    of the labelled g(0); the curve is at or below it at k and above it at every distance before k."""
    shown = lambda s: s["half_on_screen"] and s["half_line_on_screen"] and s["g0_on_screen"]  # noqa: E731
    out = disagreements(
        samples,
        shown=shown,
        said=lambda s: _num(s["half_shown"]),
        drawn=lambda s: _maps(s)[0](s["dot_half"][0]),
        tol=1e-6,
        what="k label vs the dot",
    )
    out += disagreements(
        samples,
        shown=shown,
        said=lambda s: _curve_at(s, _num(s["half_shown"])),
        drawn=lambda s: _maps(s)[1](s["dot_half"][1]),
        tol=1e-6,
        what="the dot lies on the curve",
    )
    out += disagreements(
        samples,
        shown=shown,
        said=lambda s: _num(s["g0_shown"]) / 2,
        drawn=lambda s: _maps(s)[1](s["half_line"][0][1]),
        tol=1e-6,
        what="half line = g(0)/2",
    )
    for s in samples:
        if not shown(s):
            continue
        k, half = _num(s["half_shown"]), _num(s["g0_shown"]) / 2
        xs, ys = _curve_xy(s)
        if not _curve_at(s, k) <= half + 1e-9:
            out.append(f"frame {s['frame']}: the curve at k = {k:g} is above half")
        before = ys[xs < k - 1e-9]
        if not (before > half).all():
            out.append(f"frame {s['frame']}: the curve already reaches half before k = {k:g}")
    return out


def _row_value(color: str, s) -> float:
    """The value a cell's colour stands for (the map runs linearly from ``low`` at vmin to ``high`` at vmax)."""
    c, lo, hi = (
        np.array([int(h[i : i + 2], 16) for i in (1, 3, 5)], dtype=float) for h in (color, s["low"], s["high"])
    )
    ch = int(np.argmax(np.abs(hi - lo)))
    return s["vmin"] + (c[ch] - lo[ch]) / (hi[ch] - lo[ch]) * (s["vmax"] - s["vmin"])


def row_arrow_disagreements(arrow_samples, profile_samples) -> list[str]:
    """The arrow runs along row 0 (horizontal, not along a diagonal) from the diagonal cell (0, 0) to the cell
    at the curve's last distance; the colours of that row are the values the curve draws at each distance."""
    out = disagreements(
        arrow_samples,
        shown=lambda s: s["on_screen"],
        said=lambda s: 0.0,
        drawn=lambda s: direction_deg(s["start"], s["end"]),
        tol=1e-6,
        what="arrow direction (along a row)",
    )
    out += disagreements(
        arrow_samples,
        shown=lambda s: s["on_screen"],
        said=lambda s: 0.0,
        drawn=lambda s: length(s["start"], s["cell_first"]),
        tol=1e-6,
        what="arrow starts on the diagonal cell",
    )
    for s, p in _arrow_with_full_curve(arrow_samples, profile_samples):
        k_max = max(float(t["text"]) for t in p["x_ticks"])
        cells = length(s["start"], s["end"]) / s["cell_size"]
        if not abs(cells - k_max) <= 1e-6:
            out.append(f"frame {s['frame']}: the arrow spans {cells:g} cells, the curve runs to {k_max:g}")
        if not length(s["end"], s["cell_last"]) <= 1e-6:
            out.append(f"frame {s['frame']}: the arrow does not end on row 0's last cell")
        xs, ys = _curve_xy(p)
        step = (s["vmax"] - s["vmin"]) / 235 + 1e-6  # one step of the 8-bit colour channel
        for k, color in enumerate(s["row_colors"]):
            drawn = float(np.interp(k, xs, ys))
            if not abs(_row_value(color, s) - drawn) <= step:
                out.append(
                    f"frame {s['frame']}: cell (0, {k}) stands for {_row_value(color, s):.3f}, "
                    f"the curve draws {drawn:.3f}"
                )
    return out


def _arrow_with_full_curve(arrow_samples, profile_samples):
    """(arrow sample, profile sample) of the frames that show the arrow, the table and the whole curve."""
    profile = {s["frame"]: s for s in profile_samples}
    for s in arrow_samples:
        p = profile.get(s["frame"])
        if not (s["on_screen"] and s["heat_on_screen"] and p and p["curve_on_screen"] and p["ticks_on_screen"]):
            continue
        if _curve_xy(p)[0].max() < max(float(t["text"]) for t in p["x_ticks"]) - 1e-9:
            continue  # the curve is still being drawn
        yield s, p


@pytest.fixture(scope="module")
def gram():
    return narration_scene("gram_stripes")


def test_gram_stripes_labels_equal_the_drawing(gram):
    profile = gram.probes["profile"]
    assert sum(s["g0_on_screen"] for s in profile) > 30 and sum(s["half_on_screen"] for s in profile) > 30
    assert g0_disagreements(profile) == []
    assert half_disagreements(profile) == []
    arrow = gram.probes["row_arrow"]
    assert sum(s["on_screen"] for s in arrow) > 30
    assert len(list(_arrow_with_full_curve(arrow, profile))) > 30
    assert row_arrow_disagreements(arrow, profile) == []
    # and the labels say mathcore's values
    last = [s for s in profile if s["half_on_screen"]][-1]
    assert _num(last["g0_shown"]) == pytest.approx(float(mathcore.relative_profile(0, 32)))
    assert _num(last["half_shown"]) == mathcore.half_point(32)
    xs, ys = _curve_xy(last)
    assert np.allclose(ys, mathcore.relative_profile(xs, 32), atol=1e-6)
    assert gram.plan.cue("decay").text.startswith("沿着一行")  # the words follow the arrow


def test_gram_stripes_checks_catch_a_wrong_label_or_drawing(gram):
    profile = gram.probes["profile"]
    with_arrow = {x["frame"] for x in gram.probes["row_arrow"] if x["on_screen"]}  # (it leaves for the far view)
    s = copy.deepcopy([p for p in profile if p["half_on_screen"] and p["frame"] in with_arrow][-1])
    assert g0_disagreements([s]) == [] and half_disagreements([s]) == []
    bad = copy.deepcopy(s)
    bad["g0_shown"] = "距离0：15"
    assert g0_disagreements([bad]) and half_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["dot0"][1] += 0.2  # the dot drawn off the curve
    assert g0_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["curve"][0][1] -= 0.3  # the curve drawn lower at 0
    assert g0_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["half_shown"] = "距离17"
    assert half_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["dot_half"][0] += 0.2  # the dot drawn at another distance
    assert half_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["half_shown"] = "距离19"  # a later crossing, dot moved with it
    to_x, _ = _axis_map(s["x_ticks"], 0)
    bad["dot_half"][0] = float(to_x(19.0))
    assert half_disagreements([bad])

    arrow = gram.probes["row_arrow"]
    a = copy.deepcopy([x for x in arrow if x["on_screen"] and x["frame"] == s["frame"]][-1])
    assert row_arrow_disagreements([a], [s]) == []
    diag = copy.deepcopy(a)  # the arrow along the diagonal instead
    span = np.array(diag["end"]) - np.array(diag["start"])
    diag["end"] = (np.array(diag["start"]) + np.array([span[0], -span[0]])).tolist()
    assert row_arrow_disagreements([diag], [s])
    short = copy.deepcopy(a)  # the arrow stops at 47 (the old table)
    short["end"] = (np.array(short["start"]) + np.array([47 * short["cell_size"], 0.0])).tolist()
    assert row_arrow_disagreements([short], [s])
    recolored = copy.deepcopy(a)
    recolored["row_colors"][16] = recolored["row_colors"][0]  # cell (0, 16) coloured like g(0)
    assert row_arrow_disagreements([recolored], [s])


def _fully_drawn(s) -> bool:
    xs, _ = _curve_xy(s)
    return xs.max() >= max(float(t["text"]) for t in s["x_ticks"]) - 1e-6


def far_disagreements(samples) -> list[str]:
    """The far view, on frames that show it whole: the curve read through its own tick labels is g(k) for
    d = 32 at every drawn k (mathcore); it runs as far as the title says; the shaded band runs from k = 0 to
    the first chart's last distance, which is also the number its note gives."""
    out = []
    for s in samples:
        if not (s["curve_on_screen"] and s["ticks_on_screen"] and s["window_on_screen"] and s["title_on_screen"]):
            continue
        if not _fully_drawn(s):
            continue  # still being drawn
        xs, ys = _curve_xy(s)
        want = mathcore.relative_profile(xs, 32)
        if not np.allclose(ys, want, atol=1e-6):
            i = int(np.argmax(np.abs(ys - want)))
            out.append(f"frame {s['frame']}: the far curve at k = {xs[i]:g} draws {ys[i]:.3f}, g(k) = {want[i]:.3f}")
        if not abs(xs.max() - _num(s["title"])) <= 1e-6:
            out.append(f"frame {s['frame']}: the title says {_num(s['title']):g} steps, the curve runs to {xs.max():g}")
        x_of = _axis_map(s["x_ticks"], 0)[1]
        main_last = max(float(t["text"]) for t in s["main_x_ticks"])
        left, right = (x_of(v) for v in s["window"])
        if not abs(left) <= 1e-6:
            out.append(f"frame {s['frame']}: the band starts at k = {left:g}, not 0")
        for what, k in (("the first chart's last tick", main_last), ("the band's note", _num(s["window_note"]))):
            if not abs(right - k) <= 1e-6:
                out.append(f"frame {s['frame']}: the band ends at k = {right:g}, {what} says {k:g}")
    return out


def test_gram_stripes_far_view_equals_mathcore(gram):
    far = gram.probes["far"]
    whole = [s for s in far if s["curve_on_screen"] and s["window_on_screen"] and _fully_drawn(s)]
    assert len(whole) > 15
    assert far_disagreements(far) == []
    # it is shown while the voice says "几百步以后 … 继续往下掉", and it shows that: g(k) lower further out
    cue = gram.plan.cue("half")
    assert cue.bookmarks["far"] <= whole[0]["frame"] < cue.end_frame
    assert "几百步以后" in cue.text
    xs, ys = _curve_xy(whole[-1])
    assert xs.max() == pytest.approx(gram.K_FAR) and ys[(xs >= 500)].mean() < ys[(xs >= 16) & (xs <= 64)].mean() / 2


def test_gram_stripes_far_view_check_catches_a_wrong_drawing(gram):
    s = copy.deepcopy(
        [p for p in gram.probes["far"] if p["curve_on_screen"] and p["window_on_screen"] and _fully_drawn(p)][-1]
    )
    assert far_disagreements([s]) == []
    bad = copy.deepcopy(s)
    bad["curve"][300][1] += 0.1  # one stretch of the curve drawn too high
    assert far_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["title"] = "走远些：一直到 2000 步"
    assert far_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["window"][1] += 0.3  # the band wider than the first chart
    assert far_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["window_note"] = "← 右图只画到 48"
    assert far_disagreements([bad])


# -- M2 (review 12): the decay words describe the drawn curve: a fast fall, then swings, not "一路往下掉" ----------
def decay_words_vs_curve(said: str, ks, g, k_half: int) -> list[str]:
    """Where the decay beat's words disagree with the curve g(k) over the drawn ks: "一路往下" while the curve
    rises again after its half point; or the swing the words give ("在大约 lo 到 hi 之间起伏") not the
    curve's range past its half point, rounded."""
    import re

    out = []
    tail = np.asarray(g)[np.asarray(ks) >= k_half]
    if "一路往下" in said and np.any(np.diff(tail) > 0):
        out.append("says it keeps falling, but the drawn curve rises again")
    found = re.search(r"大约 (\d+) 到 (\d+) 之间起伏", said)
    if not found:
        out.append("no range for the swings")
    elif (int(found[1]), int(found[2])) != (round(float(tail.min())), round(float(tail.max()))):
        out.append(f"swings {found[1]}–{found[2]}, the curve {tail.min():.2f}–{tail.max():.2f}")
    return out


def test_the_decay_words_follow_the_drawn_curve(gram):
    from narration.figures import fill

    said = fill(gram.plan.cue("decay").text)
    drawn = np.array(gram.probes["curve"][0]["drawn"])  # the curve as drawn: (k, g) samples, k = 0 … 64
    ks, g = drawn[:, 0], mathcore.relative_profile(drawn[:, 0], 32)  # mathcore's values at the drawn ks
    assert np.allclose(drawn[:, 1], g, atol=1e-6) and ks.max() == gram.K_MAX
    assert decay_words_vs_curve(said, ks, g, mathcore.half_point(32)) == []
    old = "沿着一行往右走，离对角线越来越远，点积画成曲线：一路往下掉，一边掉一边起伏。"  # seeded: review 12's M2
    assert decay_words_vs_curve(old, ks, g, mathcore.half_point(32)) == [
        "says it keeps falling, but the drawn curve rises again",
        "no range for the swings",
    ]
    wrong = said.replace("大约 5 到", "大约 3 到")
    assert decay_words_vs_curve(wrong, ks, g, mathcore.half_point(32))
