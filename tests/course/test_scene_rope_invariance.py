"""rope_invariance (trig_to_rope, class RopeInvariance): q and k as mathcore.rope_2d turns them; the turn back by mθ
(both arrows clockwise, the score unchanged, then q on its start and k (n − m)θ past its own); the three pairs'
equal scores; the swapped pair (k three seats before q) and its other score; the score against the signed
distance, with the pairs' points on the θ = 30° curve; every label against the drawing.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import colorsys
import copy
import re

import numpy as np
import pytest

import mathcore
from narration import figures
from scenes import theme
from tests.support.course_scenes import narration_scene, narration_scene_plan, worker_media
from tests.support.drawn import arc_sweep_deg, direction_deg, disagreements, numbers_in, signed_gap_deg
from tests.support.scene_probes import at_frame

TOL = 1e-6
DEG_TOL = 0.05  # degrees: labels are whole degrees of exactly drawn angles
SCORE_TOL = 0.006  # two-decimal readouts (rounding 0.005) of exact scores
THETA = np.radians(figures.THETA_DEG)
Q, K = figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K


def scene():
    return narration_scene("rope_invariance")


def test_rope_scores(narrated_scene):
    built = narrated_scene("rope_invariance")
    for key in ("main", "pair0", "pair1", "pair2", "swapped"):
        for s in built.probes[key]:
            assert np.allclose(s["q_tip"], mathcore.rope_2d(s["q"], s["m"], THETA), atol=TOL)
            assert np.allclose(s["k_tip"], mathcore.rope_2d(s["k"], s["n"], THETA), atol=TOL)
            if s["score_on_screen"]:
                assert abs(s["score"] - mathcore.rope_score(s["q"], s["k"], s["m"], s["n"], THETA)) <= TOL
    end = built.plan.cue("pairs").end_frame
    finals = [at_frame(built.probes[f"pair{j}"], end) for j in range(3)]
    assert [(f["m"], f["n"]) for f in finals] == [tuple(map(float, p)) for p in figures.ROPE_PAIRS]
    assert all(f["score_on_screen"] for f in finals)
    for f, want in zip(finals, figures.rope_pair_scores()):
        assert abs(f["score"] - want) <= TOL
    swapped = at_frame(built.probes["swapped"], built.plan.cue("swap").end_frame)
    assert (swapped["m"], swapped["n"]) == tuple(map(float, figures.ROPE_SWAP)) and swapped["score_on_screen"]
    assert swapped["score"] == pytest.approx(figures.rope_swap_score(), abs=TOL)
    assert float(swapped["score_text"]) == pytest.approx(float(figures.value("rope_swap_score")), abs=1e-9)


def _dir(s, key, origin="q_start"):
    return direction_deg(s[origin], s[key])


def _gap(s, a="q_end", b="k_end"):
    """The angle from the drawn arrow a to the drawn arrow b, counter-clockwise, in [0, 360)."""
    return signed_gap_deg(_dir(s, a), _dir(s, b)) % 360


def _folded(s):
    """The 夹角 of the drawn arrows, 0°–180°."""
    g = _gap(s)
    return min(g, 360 - g)


def _turn(s, ghost, now):
    return signed_gap_deg(_dir(s, ghost), _dir(s, now)) % 360


def _score(text: str) -> float:
    return float(text.replace("−", "-"))


def _drawn_score(s) -> float:
    return np.linalg.norm(s["q"]) * np.linalg.norm(s["k"]) * np.cos(np.radians(_gap(s)))


# -- the main pair: its labels, the turn back, and after it --------------------------------------------------
def rope_main_disagreements(samples) -> list[str]:
    """Every label beside the main pair against the drawn arrows, ghosts and arcs, on every frame it shows."""
    out = []

    def line(i):
        return lambda s: s["lines_on_screen"][i]

    def said(i, k=-1):
        return lambda s: numbers_in(s["lines"][i])[k]

    out += disagreements(
        samples,
        shown=line(0),
        said=said(0),
        what="starting lead of k",
        drawn=lambda s: _gap(s, "ghost_q_end", "ghost_k_end"),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=lambda s: s["lines_on_screen"][0] and s["start_arc_on_screen"],
        said=said(0),
        what="starting arc",
        drawn=lambda s: arc_sweep_deg(s["q_start"], *s["start_arc"]),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=line(1),
        said=said(1),
        what="q's turn",
        drawn=lambda s: _turn(s, "ghost_q_end", "q_end"),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=line(2),
        said=said(2),
        what="k's turn",
        drawn=lambda s: _turn(s, "ghost_k_end", "k_end"),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=line(3),
        said=said(3),
        what="k's extra turn",
        drawn=lambda s: (_turn(s, "ghost_k_end", "k_end") - _turn(s, "ghost_q_end", "q_end")) % 360,
        tol=DEG_TOL,
    )
    out += disagreements(samples, shown=line(4), said=said(4), what="angle between q and k", drawn=_gap, tol=DEG_TOL)
    out += disagreements(
        samples,
        shown=lambda s: s["lines_on_screen"][4] and s["arc_on_screen"],
        said=said(4),
        what="arc between q and k",
        drawn=lambda s: arc_sweep_deg(s["q_start"], s["arc_start"], s["arc_end"]) % 360,
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=lambda s: s["score_on_screen"],
        said=lambda s: _score(s["score_text"]),
        what="score = |q||k| cos(drawn angle)",
        drawn=_drawn_score,
        tol=SCORE_TOL,
    )
    # after the turn back: q lies on its ghost, k is the said turn past its own, and the arc says so too
    out += disagreements(
        samples, shown=line(6), said=lambda s: 0.0, what="q back on its start", drawn=lambda s: _turn_q(s), tol=DEG_TOL
    )
    out += disagreements(
        samples,
        shown=line(6),
        said=said(6),
        what="k past its start after the turn back",
        drawn=lambda s: _turn(s, "ghost_k_end", "k_end"),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=lambda s: s["lines_on_screen"][6] and s["k_turn_arc_on_screen"],
        said=said(6),
        what="arc of k's turn",
        drawn=lambda s: arc_sweep_deg(s["q_start"], *s["k_turn_arc"]),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=lambda s: s["lines_on_screen"][6] and s["k_turn_arc_on_screen"],
        said=lambda s: _dir(s, "ghost_k_end"),
        what="where the arc of k's turn starts",
        drawn=lambda s: direction_deg(s["q_start"], s["k_turn_arc"][0]),
        tol=DEG_TOL,
    )
    return out


def _turn_q(s) -> float:
    g = _turn(s, "ghost_q_end", "q_end")
    return min(g, 360 - g)


def turn_back_disagreements(samples, text: str) -> list[str]:
    """The turn back of the same_gap cue: the cue says 顺时针 (and not 逆时针); while it plays both drawn arrows
    turn clockwise only, by the same angle, which the line "一起顺时针转回 mθ = …" gives once they rest; the
    angle between them and the shown score never change (so the rule "两支一起转，点积不变" holds)."""
    out = []
    if "顺时针" not in text or "逆时针" in text:
        out.append(f"the cue's words {text!r} do not say 顺时针 for a clockwise turn")
    for a, b in zip(samples, samples[1:]):
        for key in ("q_end", "k_end"):
            step = signed_gap_deg(_dir(a, key), _dir(b, key))
            if step > 1e-6:
                out.append(f"frame {b['frame']}: {key[0]} turns counter-clockwise by {step:g}° during the turn back")
        if (
            abs(signed_gap_deg(_dir(a, "q_end"), _dir(b, "q_end")) - signed_gap_deg(_dir(a, "k_end"), _dir(b, "k_end")))
            > 1e-6
        ):
            out.append(f"frame {b['frame']}: q and k do not turn together")
    first = samples[0]
    turned = [s for s in samples if s["lines_on_screen"][5]]
    if not turned or not any(s["rule_on_screen"] for s in samples):
        out.append("the turn back is not labelled (its line and the rule)")
    for s in samples:
        if abs(_gap(s) - _gap(first)) > DEG_TOL:
            out.append(f"frame {s['frame']}: the angle between q and k changed to {_gap(s):g}° during the turn back")
        if s["score_on_screen"] and s["score_text"] != first["score_text"]:
            out.append(f"frame {s['frame']}: the score reads {s['score_text']}, it read {first['score_text']}")
    last = samples[-1]
    if turned:
        said = numbers_in(turned[-1]["lines"][5])[-1]
        for key in ("q_end", "k_end"):
            back = -signed_gap_deg(_dir(first, key), _dir(last, key))
            if abs(back - said) > DEG_TOL:
                out.append(f"{key[0]} turned back {back:g}°, the line says {said:g}°")
    return out


def _turn_back_samples(built):
    cue = built.plan.cue("same_gap")
    main = [s for s in built.probes["main"] if cue.start_frame <= s["frame"] < cue.end_frame]
    moving = [s for s in main if s["m"] < built.M]
    start = [s for s in main if s["m"] == built.M][-1]
    return [start, *moving], cue.text


def test_the_turn_back_goes_clockwise_and_keeps_the_score():
    built = scene()
    samples, text = _turn_back_samples(built)
    assert len(samples) > 20 and samples[-1]["m"] == 0.0
    assert turn_back_disagreements(samples, text) == []


def test_after_the_turn_back_the_arrows_are_mathcores():
    """q back where it started, k turned by (n − m)θ only, and the score mathcore's for the seats m, n."""
    built = scene()
    cue = built.plan.cue("same_gap")
    last = at_frame(built.probes["main"], cue.end_frame - 1)
    after = [s for s in built.probes["main"] if cue.bookmarks["after"] <= s["frame"] < cue.end_frame]
    assert after and all(s["lines_on_screen"][6] for s in after[len(after) // 2 :])
    assert np.allclose(last["q_tip"], Q, atol=TOL)
    assert np.allclose(last["k_tip"], mathcore.rotate(K, (built.N - built.M) * THETA), atol=TOL)
    want = mathcore.rope_score(Q, K, built.M, built.N, THETA)
    assert last["score_on_screen"] and _score(last["score_text"]) == pytest.approx(want, abs=0.005)
    assert last["score_text"] == figures.value("rope_pair_score")
    assert built.probes["turned_back"][0]["score_text"] == last["score_text"]


@pytest.mark.parametrize("what", ["counter-clockwise", "k alone", "score changes", "words", "line"])
def test_the_turn_back_check_catches_a_perturbation(what):
    built = scene()
    samples, text = copy.deepcopy(_turn_back_samples(built))
    if what == "counter-clockwise":  # the motion played backwards
        ends = [(s["q_end"], s["k_end"]) for s in samples]
        for s, (q_end, k_end) in zip(samples, reversed(ends)):
            s["q_end"], s["k_end"] = q_end, k_end
    elif what == "k alone":
        for s in samples[len(samples) // 2 :]:
            s["k_end"] = _turned(s["k_end"], s["q_start"], 5.0)
    elif what == "score changes":
        samples[-1]["score_text"] = "0.34"
        samples[-1]["score_on_screen"] = True
    elif what == "words":
        text = text.replace("顺时针", "逆时针")
    else:
        for s in samples:
            s["lines"][5] = s["lines"][5].replace("60", "90")
    assert turn_back_disagreements(samples, text)


# -- the three pairs, then the swapped pair --------------------------------------------------------------
def rope_pairs_disagreements(pairs: list[list[dict]], line: list[dict], *, key: str = "text") -> list[str]:
    """Each pair: its title's seats give the drawn angle lead + (n − m)θ; while the summary line is on screen, its
    angles and scores, pair by pair (one shared value, or one per pair in order), equal each pair's folded drawn
    angle and its shown score, and every score equals |q||k| cos(drawn angle)."""
    out = []
    lead, theta = figures.ROPE_PAIR_K_LEAD_DEG, figures.THETA_DEG
    on = {s["frame"] for s in line if s[f"{key}_on_screen" if key != "text" else "on_screen"]}
    said = {s["frame"]: numbers_in(s[key]) for s in line}
    for j, samples in enumerate(pairs):
        final = [s for s in samples if s["frame"] in on]

        def angle(s, j=j):  # "都相距 3 个位置：夹角都是 110°，点积都是 −0.34" or "夹角 110° → 70°，点积 −0.34 → +0.34"
            nums = said[s["frame"]]
            return nums[j] if len(nums) == 4 else nums[1]

        def score(s, j=j):
            nums = said[s["frame"]]
            return nums[2 + j] if len(nums) == 4 else nums[2]

        out += disagreements(
            final,
            shown=lambda s: True,
            what="pair angle from its seats",
            said=lambda s: (lead + (numbers_in(s["title"])[1] - numbers_in(s["title"])[0]) * theta) % 360,
            drawn=_gap,
            tol=DEG_TOL,
        )
        out += disagreements(final, shown=lambda s: True, what="summary angle", said=angle, drawn=_folded, tol=DEG_TOL)
        out += disagreements(
            final,
            shown=lambda s: s["score_on_screen"],
            what="pair score vs drawn angle",
            said=lambda s: _score(s["score_text"]),
            drawn=_drawn_score,
            tol=SCORE_TOL,
        )
        out += disagreements(
            final,
            shown=lambda s: s["score_on_screen"],
            what="summary score",
            said=score,
            drawn=lambda s: _score(s["score_text"]),
            tol=SCORE_TOL,
        )
    return out


def swap_sides_disagreements(swap: list[dict], pairs: list[list[dict]]) -> list[str]:
    """ "k 在 q 后面" stands on the side of the pair whose k sits at a larger seat than its q, "k 在 q 前面" on the
    other one's (the seats read from each pair's title)."""
    out = []
    by_frame = [{s["frame"]: s for s in samples} for samples in pairs]
    for s in swap:
        for text, x, shown in zip(s["sides"], s["side_x"], s["sides_on_screen"]):
            if not shown:
                continue
            near = min((p[s["frame"]] for p in by_frame if s["frame"] in p), key=lambda p: abs(p["q_start"][0] - x))
            m, n = numbers_in(near["title"])[:2]
            after = "后" in text
            if after != (n > m):
                out.append(f"frame {s['frame']}: {text!r} stands by the pair m = {m:g}, n = {n:g}")
    return out


def test_the_swapped_pair_scores_the_other_way():
    built = scene()
    cue = built.plan.cue("swap")
    pairs = [
        [s for s in built.probes[name] if cue.start_frame <= s["frame"] < cue.end_frame]
        for name in ("pair0", "swapped")
    ]
    swap = [s for s in built.probes["swap"] if cue.start_frame <= s["frame"] < cue.end_frame]
    assert sum(s["compare_on_screen"] for s in swap) > 10 and all(any(s["sides_on_screen"]) for s in swap[-5:])
    assert rope_pairs_disagreements(pairs, swap, key="compare") == []
    assert swap_sides_disagreements(swap, pairs) == []
    # the figures the cue says are the drawing's
    text = cue.text
    assert f"q 在 {figures.ROPE_SWAP[0]}，k 在 {figures.ROPE_SWAP[1]}" in text
    last = pairs[1][-1]
    assert f"夹角是 {round(_folded(last))}°" in text and f"点积是正的 {figures.fmt_dec(last['score'])}" in text
    assert _score(pairs[0][-1]["score_text"]) < 0 < _score(last["score_text"])


@pytest.mark.parametrize("what", ["k drawn 3° further", "compare score", "compare angle", "sides"])
def test_the_swap_checks_catch_a_perturbation(what):
    built = scene()
    cue = built.plan.cue("swap")
    pairs = [
        [copy.deepcopy(s) for s in built.probes[name] if cue.start_frame <= s["frame"] < cue.end_frame]
        for name in ("pair0", "swapped")
    ]
    swap = [copy.deepcopy(s) for s in built.probes["swap"] if cue.start_frame <= s["frame"] < cue.end_frame]
    if what == "k drawn 3° further":
        for s in pairs[1]:
            s["k_end"] = _turned(s["k_end"], s["q_start"], 3.0)
    elif what == "compare score":
        for s in swap:
            s["compare"] = s["compare"].replace("+0.34", "−0.34")
    elif what == "compare angle":
        for s in swap:
            s["compare"] = s["compare"].replace("70°", "110°")
    else:
        for s in swap:
            s["sides"] = s["sides"][::-1]
    assert rope_pairs_disagreements(pairs, swap, key="compare") + swap_sides_disagreements(swap, pairs)


# -- the curve: signed distance, θ = 30° first, the pairs' points on it ----------------------------------------
def curve_disagreements(curve: dict, marks: list[dict]) -> list[str]:
    """Each curve's drawn points against |q||k| cos(lead + distance × its legend's speed) (30° for the first);
    each mark where its key's seats put it (distance n − m, mathcore's score) and on the θ = 30° curve; "k 在前"
    and "k 在后" on the sides of the distance axis where k sits before or after q, the swapped pair's mark
    with "k 在前"."""
    out = []
    qk = float(np.linalg.norm(Q) * np.linalg.norm(K))
    lead = np.radians(figures.ROPE_PAIR_K_LEAD_DEG)
    for i, (name, drawn) in enumerate(zip(curve["legend"], curve["drawn"])):
        nums = numbers_in(name)
        speed = np.radians(nums[0]) if "°" in name else nums[0]
        xy = np.array(drawn)
        worst = float(np.abs(xy[:, 1] - qk * np.cos(lead + xy[:, 0] * speed)).max())
        if worst > 1e-6:
            out.append(f"curve {i} ({name}) is {worst:.3g} off its legend's speed")
    first = np.array(curve["drawn"][0])
    for s in marks:
        if not all(s["keys_on_screen"]):
            continue
        starts_and_gap = numbers_in(s["keys"][0])
        *starts, gap = starts_and_gap
        m_sw, n_sw = numbers_in(s["keys"][1])[-2:]
        want = [(m, m + gap) for m in starts] + [(m_sw, n_sw)]
        for (m, n), c in zip(want, s["centers"]):
            score = mathcore.rope_score(Q, K, m, n, THETA)
            if abs(c[0] - (n - m)) > 1e-6 or abs(c[1] - score) > 1e-6:
                out.append(f"frame {s['frame']}: mark of q at {m:g}, k at {n:g} drawn at {c[:2]}")
            if abs(np.interp(c[0], first[:, 0], first[:, 1]) - c[1]) > 0.01:
                out.append(f"frame {s['frame']}: mark at {c[:2]} is off the θ = 30° curve")
        for text, x in zip(s["sides"], s["side_x"]):
            if ("后" in text) != (x > 0):
                out.append(f"frame {s['frame']}: {text!r} drawn at distance {x:g}")
            if (x > 0) == (s["centers"][-1][0] > 0) and "前" not in text:
                out.append(f"frame {s['frame']}: the swapped pair's mark is on the side of {text!r}")
    return out


def test_the_curve_and_its_marks_equal_mathcore():
    built = scene()
    curve = built.probes["curve"][0]
    assert curve["legend"][0].startswith(f"{figures.THETA_DEG:g}°")  # θ = 30° first
    assert curve["speeds"] == pytest.approx(
        [THETA, *mathcore.frequencies(built.CURVE_D)[list(built.CURVE_PLANES)]], abs=1e-12
    )
    assert min(curve["distances"]) == -built.CURVE_RANGE and max(curve["distances"]) == built.CURVE_RANGE
    marks = built.probes["marks"]
    shown = [s for s in marks if all(s["keys_on_screen"])]
    assert len(shown) > 10 and all(all(s["on_screen"]) for s in shown)
    assert curve_disagreements(curve, marks) == []
    # the pairs' point and the swapped one, as the pairs and swap cues said them
    s = shown[-1]
    assert s["centers"][0][:2] == pytest.approx(
        [3.0, float(figures.parse_figure(figures.value("rope_pair_score")))], abs=0.005
    )
    assert s["centers"][-1][:2] == pytest.approx(
        [-3.0, float(figures.parse_figure(figures.value("rope_swap_score")))], abs=0.005
    )


@pytest.mark.parametrize("what", ["curve", "mark", "key", "sides"])
def test_the_curve_check_catches_a_perturbation(what):
    built = scene()
    curve = copy.deepcopy(built.probes["curve"][0])
    marks = copy.deepcopy(built.probes["marks"])
    if what == "curve":  # the θ = 30° curve drawn at 1 radian per position
        curve["drawn"][0] = curve["drawn"][1]
    elif what == "mark":
        for s in marks:
            s["centers"][3][0] = 3.0  # the swapped pair's point on the wrong side
    elif what == "key":
        for s in marks:
            s["keys"][1] = s["keys"][1].replace("k在0", "k在6")  # as drawn: Text keeps no spaces
    else:
        for s in marks:
            s["sides"] = s["sides"][::-1]
    assert curve_disagreements(curve, marks)


# -- the curves' colours: four hues a viewer tells apart, none borrowed from another meaning --------------------
MIN_HUE_GAP = 40.0  # degrees of hue between two curves
# ... and between a curve and a colour that means something else: the palette's eight meanings leave gaps of 42° to
# 94° around the hue circle, so a new hue can keep 25° from all of them (SPEEDS_4's periwinkle sits 29° from Q's blue
# and from HIGHLIGHT's purple, and lighter than both)
MIN_MEANING_GAP = 25.0
MEANINGS = {
    "Q": theme.Q,
    "K": theme.K,
    "POSITION": theme.POSITION,
    "ANGLE": theme.ANGLE,
    "HIGHLIGHT": theme.HIGHLIGHT,
    "COS": theme.COS,
    "SIN": theme.SIN,
    "SCORE": theme.SCORE,
}


def _hue_sat(color: str) -> tuple[float, float]:
    r, g, b = (int(color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
    h, s, _ = colorsys.rgb_to_hsv(r, g, b)
    return 360.0 * h, s


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def curve_colour_clashes(curve: dict) -> list[str]:
    """The θ = 30° curve is drawn in SCORE (the pairs' own score); each other curve has a hue at least MIN_HUE_GAP
    from every other curve's and MIN_MEANING_GAP from every colour that means something else (at most one may be near-white,
    without hue); each legend swatch has its curve's colour."""
    out = []
    colors = [c.upper() for c in curve["colors"]]
    if colors[0] != theme.SCORE.upper():
        out.append(f"the θ = 30° curve is {colors[0]}, not SCORE {theme.SCORE}")
    if [c.upper() for c in curve["swatches"]] != colors:
        out.append(f"legend swatches {curve['swatches']} are not the curves' colours {colors}")
    grey = [c for c in colors if _hue_sat(c)[1] < 0.2]
    if len(grey) > 1:
        out.append(f"more than one curve without hue: {grey}")
    hued = [(i, c) for i, c in enumerate(colors) if _hue_sat(c)[1] >= 0.2]
    for j, (i, c) in enumerate(hued):
        for i2, c2 in hued[j + 1 :]:
            if _hue_gap(_hue_sat(c)[0], _hue_sat(c2)[0]) < MIN_HUE_GAP:
                out.append(f"curves {i} ({c}) and {i2} ({c2}) are hard to tell apart")
        if i == 0:
            continue
        for name, m in MEANINGS.items():
            if _hue_gap(_hue_sat(c)[0], _hue_sat(m)[0]) < MIN_MEANING_GAP:
                out.append(f"curve {i} ({c}) looks like {name} ({m}), which means something else")
    return out


def test_the_curves_are_four_hues_that_mean_only_speed():
    assert curve_colour_clashes(scene().probes["curve"][0]) == []


@pytest.mark.parametrize("what", ["the old pinks", "q's blue", "swatch"])
def test_the_curve_colour_check_catches_a_perturbation(what):
    curve = copy.deepcopy(scene().probes["curve"][0])
    if what == "the old pinks":  # the four shades of SCORE the fourth review could not tell apart (P7)
        curve["colors"] = curve["swatches"] = list(theme.SERIES_4)
    elif what == "q's blue":
        curve["colors"][2] = curve["swatches"][2] = theme.Q
    else:
        curve["swatches"][1] = theme.SCORE
    assert curve_colour_clashes(curve)


# -- every label of the scene ------------------------------------------------------------------------------
def _turned(p, center, deg):
    a = np.radians(deg)
    v = np.asarray(p, dtype=float) - np.asarray(center, dtype=float)
    x, y = v[0] * np.cos(a) - v[1] * np.sin(a), v[0] * np.sin(a) + v[1] * np.cos(a)
    return [center[0] + x, center[1] + y, 0.0]


@pytest.mark.parametrize(
    "what", ["k drawn 3° further", "q drawn 3° further", "angle label 90°", "score label", "k's turn after"]
)
def test_rope_checks_catch_a_perturbation(what):
    main = copy.deepcopy(scene().probes["main"])
    for s in main:
        if what == "k drawn 3° further":
            s["k_end"] = _turned(s["k_end"], s["q_start"], 3.0)
        elif what == "q drawn 3° further":
            s["q_end"] = _turned(s["q_end"], s["q_start"], 3.0)
        elif what == "angle label 90°":  # the old label "夹角 = (n − m)θ = 90°"
            s["lines"][4] = "夹角=(n−m)θ=90°"
        elif what == "score label":
            s["score_text"] = "0.70"
        else:
            s["lines"][6] = s["lines"][6].replace("90°", "110°")
    assert rope_main_disagreements(main)
    pairs = [copy.deepcopy(scene().probes[f"pair{j}"]) for j in range(3)]
    for s in pairs[1]:
        s["k_end"] = _turned(s["k_end"], s["q_start"], 3.0)
    assert rope_pairs_disagreements(pairs, scene().probes["same"])


def test_the_old_rope_angle_label_fails_when_put_back():
    """The scene as it was: "夹角 = (n − m)θ = 90°" beside the drawn arrows (their angle is the lead + 90°)."""
    from manim import VGroup

    from coursekit.render.viewer_check import build_dry_run
    from scenes import theme
    from scenes.rope_invariance import RopeInvariance

    class OldLabel(RopeInvariance):
        def info_lines(self, lead, gain):
            lines = super().info_lines(lead, gain)
            old = theme.body_text(f"夹角 = (n − m)θ = {gain:g}°", color=theme.ANGLE)
            return VGroup(*lines[:4], old, *lines[5:])

    plan = narration_scene_plan("rope_invariance")
    built, _ = build_dry_run(OldLabel, plan, media_dir=worker_media())
    found = rope_main_disagreements(built.probes["main"])
    assert found and all("angle between q and k" in f or "arc between" in f for f in found)
    assert f"label says 90, drawing shows {figures.value('rope_pair_gap_deg')}" in found[0]


def test_rope_labels_equal_the_drawing():
    built = scene()
    main = built.probes["main"]
    for i in range(7):  # every label was on screen for a while, with the arcs it speaks of
        assert sum(s["lines_on_screen"][i] for s in main) > 20, i
    assert sum(s["score_on_screen"] and s["arc_on_screen"] for s in main) > 10
    assert sum(s["k_turn_arc_on_screen"] for s in main) > 10
    assert rope_main_disagreements(main) == []
    pairs = [built.probes[f"pair{j}"] for j in range(3)]
    assert sum(s["on_screen"] for s in built.probes["same"]) > 10
    assert rope_pairs_disagreements(pairs, built.probes["same"]) == []
    # and the labels say mathcore's values
    last = [s for s in main if s["score_on_screen"]][-1]
    assert _score(last["score_text"]) == pytest.approx(
        mathcore.rope_score(Q, K, built.M, built.N, THETA),
        abs=0.005,
    )
    assert numbers_in(last["lines"][4])[-1] == pytest.approx(float(figures.value("rope_pair_gap_deg")))


# -- P2 (review 10): the special case of 90° gets its own cue; the one-seat pair's two scores are on screen ------
def right_angle_disagreements(samples: list[dict], said: str) -> list[str]:
    """During the cue right_angle: the line on 90° shows the extra turn of the pair 3 seats apart; the one-seat
    pair's line shows mathcore's two scores (k behind, k ahead) once the voice gets there, both positive; the voice
    says at most one of them, and that one is on screen."""
    out = []
    turn = (figures.ROPE_PAIRS[0][1] - figures.ROPE_PAIRS[0][0]) * figures.THETA_DEG
    want = [mathcore.rope_score(Q, K, m, n, THETA) for m, n in figures.ROPE_NEAR]
    shown = [s for s in samples if s["near_on_screen"]]
    if not shown or not all(s["special_on_screen"] for s in samples[len(samples) // 2 :]):
        out.append("the special case is not on screen")
    for s in samples:
        if s["special_on_screen"] and numbers_in(s["special"]) != [3.0, turn]:
            out.append(f"frame {s['frame']}: {s['special']!r} does not say 3 seats = {turn:g}°")
        # M3 (review 12): what 90° gives is exact opposites; opposite signs come with any turn from 70° to 110°
        if s["special_on_screen"] and not re.search(r"相反数|大小[^，。]{0,3}(一样|相同|相等)", s["special"]):
            out.append(f"frame {s['frame']}: {s['special']!r} credits {turn:g}° with the signs, not exact opposites")
        if s["near_on_screen"]:
            got = numbers_in(s["near"])
            if got[0] != 1.0 or len(got) != 3 or any(abs(g - w) > SCORE_TOL for g, w in zip(got[1:], want)):
                out.append(f"frame {s['frame']}: {s['near']!r} is not the one-seat pair's {want}")
    spoken = [v for v in (figures.fmt_dec(w) for w in want) if v in said]
    if len(spoken) > 1:
        out.append(f"the voice says {spoken}: more than one of the one-seat pair's scores")
    if min(want) <= 0:
        out.append("the one-seat pair's scores are not both positive")
    return out


def test_the_right_angle_cue_shows_the_one_seat_pair():
    built = scene()
    cue = built.plan.cue("right_angle")
    samples = [s for s in built.probes["right_angle"] if cue.start_frame <= s["frame"] < cue.end_frame]
    assert right_angle_disagreements(samples, cue.text) == []
    # the pair's line arrives as the voice reaches it (the bookmark "near"), not before
    first = min(s["frame"] for s in samples if s["near_on_screen"])
    assert first >= cue.bookmarks["near"]


def test_the_right_angle_check_catches_a_perturbation():
    built = scene()
    cue = built.plan.cue("right_angle")
    samples = [copy.deepcopy(s) for s in built.probes["right_angle"] if cue.start_frame <= s["frame"] < cue.end_frame]
    for s in samples:
        s["near"] = s["near"].replace("0.98", "−0.64")  # seeded: the ahead score drawn as if the sign just flipped
    old_said = "相距 1 个位置时，两种先后是 0.64 和 0.98。"  # seeded: review 10's two spoken scores
    faults = right_angle_disagreements(samples, old_said)
    assert any("is not the one-seat pair's" in f for f in faults) and any("more than one" in f for f in faults)


def test_the_right_angle_check_catches_review_12s_line():
    """M3 (review 12): the old line "正负相反，只因相距 3 正好多转 90°" put back on screen is reported."""
    built = scene()
    cue = built.plan.cue("right_angle")
    samples = [copy.deepcopy(s) for s in built.probes["right_angle"] if cue.start_frame <= s["frame"] < cue.end_frame]
    assert right_angle_disagreements(samples, cue.text) == []
    turn = figures.value("rope_pair_turn_deg")
    for s in samples:
        s["special"] = f"正负相反，只因相距 3 正好多转 {turn}°"  # seeded: the screen as review 12 found it
    faults = right_angle_disagreements(samples, cue.text)
    assert faults and all("not exact opposites" in f for f in faults)
