"""What a label says equals what is drawn: the rotation lesson's shift_machine and gram_stripes.

Each check reads the samples a scene's ``watch()`` recorded on every drawn frame (the label's text
as drawn, and raw points of the geometry) and returns the disagreements; the real scene must give
none, and perturbed samples (the drawing moved, or the label's value changed) must give some.

shift_machine: the counter n against the drawn hands; the cos/sin readings against the drawn hands;
the extra-turn arcs against their degree labels and against the M_1 blocks; the backwards step (the
k the screen and the narration give) against how far the drawn hands really went back.
gram_stripes: the g(0) label against the drawn curve and dot; the half-point label against the dot,
the curve and the half line; the arrow along row 0 against the table's row and the curve; the far view
(g(k) out to 1000: its curve against its tick labels and mathcore, its "一直到 1000 步" title against how far
the curve runs, the band marking the first chart's range against that chart's last tick and its note).
shift_machine, pitfall and backwards: the boxed rows of the PE table against the hands and the counter.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest

import mathcore
from narration import figures
from tests.support.course_scenes import narration_scene
from tests.support.drawn import arc_sweep_deg, direction_deg, disagreements, length, numbers_in, signed_gap_deg

D_SHIFT = 8
W = mathcore.frequencies(D_SHIFT)                       # radians per step of each hand (mathcore, not the scene)
W_DEG = np.degrees(W)
DEG_TOL = 1e-6
READ_TOL = 0.005 + 1e-9                                 # two-decimal readings of exact values


def _num(text: str) -> float:
    return numbers_in(text)[-1]


def _hand_deg(s, i) -> float:
    """The drawn direction of hand i, from its raw points."""
    return direction_deg(s["hands"][i]["start"], s["hands"][i]["end"])


def _near(said_deg: float, drawn_deg: float) -> float:
    """``drawn`` written as the angle closest to ``said`` (so 359° and 1° compare as 2° apart)."""
    return said_deg + signed_gap_deg(said_deg, drawn_deg)


# -- shift_machine ----------------------------------------------------------------------------------
def counter_vs_hands(samples) -> list[str]:
    """Hand i points at w_i · n for the n the counter shows. While the hands move the counter shows the
    nearest whole n, so a hand may be up to half a step (w_i / 2) away from it."""
    out = []
    for i in range(D_SHIFT // 2):
        out += disagreements(samples, shown=lambda s: s["n_on_screen"] and s["hands_on_screen"],
                             said=lambda s, i=i: 0.0,
                             drawn=lambda s, i=i: signed_gap_deg(W_DEG[i] * _num(s["n_shown"]), _hand_deg(s, i)),
                             tol=W_DEG[i] / 2 + DEG_TOL, what=f"hand {i} vs the counter n")
        out += disagreements(samples, shown=lambda s: s["hands_on_screen"], said=lambda s: 0.0,
                             drawn=lambda s, i=i: length(s["hands"][i]["start"], s["centers"][i]), tol=1e-6,
                             what=f"hand {i} turns about its own clock's centre")
    return out


def readings_vs_hands(samples) -> list[str]:
    """Under each clock, cos and sin of the angle its hand is drawn at (two decimals)."""
    out = []
    for i in range(D_SHIFT // 2):
        for j, f in enumerate((np.cos, np.sin)):
            out += disagreements(samples, shown=lambda s: s["on_screen"],
                                 said=lambda s, i=i, j=j: float(s["shown"][i][j].replace("−", "-")),
                                 drawn=lambda s, i=i, f=f: float(f(np.radians(_hand_deg(s, i)))),
                                 tol=READ_TOL, what=f"hand {i}: {'cos' if j == 0 else 'sin'} reading")
    return out


def extra_arcs_disagreements(samples, matrix: dict) -> list[str]:
    """Each extra-turn arc sweeps the degrees its label says; w_i k is mathcore's; and the i-th 2×2 block of
    the M_k shown (cos, −sin; sin, cos, three decimals) turns by the angle that arc sweeps."""
    out = []
    places = matrix["places"]
    for i in range(D_SHIFT // 2):
        def sweep(s, i=i):
            a = s["arcs"][i]
            return arc_sweep_deg(a["center"], a["start"], a["end"])
        out += disagreements(samples, shown=lambda s: s["on_screen"] and s["labels_on_screen"],
                             said=lambda s, i=i: _num(s["shown"][i]), drawn=sweep, tol=0.005 + 1e-6,
                             what=f"hand {i}: extra-turn label vs its arc")
        out += disagreements(samples, shown=lambda s: s["on_screen"], said=lambda s, i=i: W_DEG[i] * s["k"],
                             drawn=sweep, tol=1e-6, what=f"hand {i}: arc vs w_i k")
        block = [[float(matrix["shown"][2 * i + r][2 * i + c].replace("−", "-")) for c in (0, 1)] for r in (0, 1)]
        half = 0.5 * 10.0 ** -places + 1e-9
        out += disagreements(samples, shown=lambda s: s["on_screen"], said=lambda s, b=block: b[1][0],
                             drawn=lambda s, i=i: float(np.sin(np.radians(sweep(s, i)))), tol=half,
                             what=f"block {i}: sin entry vs the arc")
        out += disagreements(samples, shown=lambda s: s["on_screen"], said=lambda s, b=block: b[0][0],
                             drawn=lambda s, i=i: float(np.cos(np.radians(sweep(s, i)))), tol=half,
                             what=f"block {i}: cos entry vs the arc")
        out += disagreements(samples, shown=lambda s: s["on_screen"], said=lambda s, b=block: -b[0][1],
                             drawn=lambda s, i=i: float(np.sin(np.radians(sweep(s, i)))), tol=half,
                             what=f"block {i}: −sin entry vs the arc")
    return out


def backwards_disagreements(first: dict, last: dict, shown: dict) -> list[str]:
    """The backwards beat: the k the screen says (the text "和 k 步之前…", the formula M_k, PE(n − k)) is how
    many steps every drawn hand went back, and how far the counter n went down."""
    out = []
    said = {"text": numbers_in(shown["text"])[0], "formula M_k": float(shown["formula"].split("M_")[1].split()[0]),
            "formula n − k": float(shown["formula"].split("n - ")[1].split(")")[0]),
            "counter": _num(first["n_shown"]) - _num(last["n_shown"])}
    for i in range(D_SHIFT // 2):
        went_back = -signed_gap_deg(_hand_deg(first, i), _hand_deg(last, i)) / W_DEG[i]
        for what, k in said.items():
            if not abs(went_back - k) <= 1e-6:
                out.append(f"hand {i} went back {went_back:g} steps; the {what} says {k:g}")
    return out


@pytest.fixture(scope="module")
def shift():
    return narration_scene("shift_machine")


def test_shift_machine_counter_and_readings_equal_the_hands(shift):
    hands = shift.probes["hands"]
    assert sum(s["n_on_screen"] for s in hands) > 300
    assert len({s["n_shown"] for s in hands if s["n_on_screen"]}) >= 6        # n = 0 … 13 goes by
    assert counter_vs_hands(hands) == []
    pairs = [s for s in shift.probes["pairs"] if s["on_screen"]]
    assert len(pairs) > 30
    assert readings_vs_hands(pairs) == []


def test_shift_machine_extra_turns_equal_their_arcs(shift):
    extra = [s for s in shift.probes["extra"] if s["on_screen"]]
    assert len(extra) > 20
    matrix = shift.probes["matrix"][0]
    assert extra_arcs_disagreements(extra, matrix) == []
    # the labels say mathcore's w_i k
    for i, text in enumerate(extra[-1]["shown"]):
        assert text == f"+{figures.fmt_dec(W_DEG[i] * matrix['k'], 2)}°"


def _backwards(scene):
    cue = scene.plan.cue("backwards")
    hands = {s["frame"]: s for s in scene.probes["hands"]}
    back = scene.probes["backwards"][0]
    return hands[cue.start_frame], hands[cue.end_frame - 1], {"text": back["shown"], "formula": back["formula"]}


def test_shift_machine_backwards_step_equals_the_hands(shift):
    first, last, shown = _backwards(shift)
    assert backwards_disagreements(first, last, shown) == []
    k = shift.probes["backwards"][0]["k"]
    assert f"{k} 步" in shift.plan.cue("backwards").text            # the narration names the same k
    # the boxed result is PE(k) M_k = PE(0): the row k steps back from the boxed input row
    rows = shift.probes["back_rows"][0]
    assert rows["input_row"] - rows["output_row"] == k and f"M_{k}" in rows["result"]


def test_shift_machine_checks_catch_a_wrong_label_or_drawing(shift):
    hands = [s for s in shift.probes["hands"] if s["n_on_screen"]]
    still = hands[-1]                                                   # the hands rest on a whole n here
    bad = copy.deepcopy(still)
    bad["n_shown"] = str(int(_num(still["n_shown"])) + 1)               # the label off by one step
    assert counter_vs_hands([bad])
    bad = copy.deepcopy(still)
    c, e = np.array(bad["hands"][1]["start"]), np.array(bad["hands"][1]["end"])
    a = np.radians(10.0)                                                # hand 1 drawn 10° off (w_1 = 5.7°)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    bad["hands"][1]["end"] = (c + rot @ (e - c)).tolist()
    assert counter_vs_hands([bad])

    pair = copy.deepcopy([s for s in shift.probes["pairs"] if s["on_screen"]][-1])
    pair["shown"][0][0] = f"{float(pair['shown'][0][0].replace('−', '-')) + 0.02:.2f}"
    assert readings_vs_hands([pair])

    extra = copy.deepcopy([s for s in shift.probes["extra"] if s["on_screen"] and s["labels_on_screen"]][-1])
    matrix = shift.probes["matrix"][0]
    extra["shown"][1] = "+6.73°"                                        # a label one degree off
    assert extra_arcs_disagreements([extra], matrix)
    extra = copy.deepcopy([s for s in shift.probes["extra"] if s["on_screen"]][-1])
    arc = extra["arcs"][0]
    arc["end"] = (np.array(arc["center"]) + 1.1 * (np.array(arc["end"]) - np.array(arc["center"]))).tolist()
    arc["end"] = np.add(arc["end"], [0.0, 0.05]).tolist()               # the arc drawn too long
    assert extra_arcs_disagreements([extra], matrix)
    wrong = copy.deepcopy(matrix)
    wrong["shown"][7][6] = "0.000"                                      # the slow block printed as identity
    assert extra_arcs_disagreements([s for s in shift.probes["extra"] if s["on_screen"]][-1:], wrong)

    first, last, shown = _backwards(shift)
    assert backwards_disagreements(first, last, {**shown, "text": shown["text"].replace("3", "2", 1)})
    moved = copy.deepcopy(last)
    c, e = np.array(moved["hands"][2]["start"]), np.array(moved["hands"][2]["end"])
    a = np.radians(W_DEG[2])                                            # hand 2 went back one step less
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    moved["hands"][2]["end"] = (c + rot @ (e - c)).tolist()
    assert backwards_disagreements(first, moved, shown)


def _boxed_frames(samples):
    """(sample, boxed row label, its n) for every frame that shows the PE table with a box while the hands rest
    (drawn exactly as on the frame before). The row a box marks is the label drawn inside its height; when the
    result box (back to PE(0)) is shown it is the one that counts."""
    prev = None
    for s in samples:
        rest = prev is not None and all(
            np.allclose(h["start"], g["start"], atol=1e-9) and np.allclose(h["end"], g["end"], atol=1e-9)
            for h, g in zip(s["hands"], prev["hands"]))
        prev = s
        box = next((s[k] for k in ("box_out", "box_in") if k in s and s[k]["on_screen"]), None)
        if not (rest and box and s["labels_on_screen"]):
            continue
        inside = [lab for lab in s["labels"] if box["bottom"] <= lab["y"] <= box["top"]]
        if len(inside) != 1:
            yield s, f"{len(inside)} row labels", None
            continue
        yield s, inside[0]["text"], _num(inside[0]["text"])


def boxed_rows_vs_hands(samples) -> list[str]:
    """The boxed row PE(n) of the table is the position the hands are drawn at, and the one the counter shows."""
    out = []
    for s, label, n in _boxed_frames(samples):
        if n is None:
            out.append(f"frame {s['frame']}: a box holds {label}")
            continue
        for i in range(D_SHIFT // 2):
            gap = signed_gap_deg(W_DEG[i] * n, _hand_deg(s, i))
            if not abs(gap) <= DEG_TOL:
                out.append(f"frame {s['frame']}: the box is on {label}, hand {i} is {gap:g}° away from n = {n:g}")
        if s["n_on_screen"] and not _num(s["n_shown"]) == n:
            out.append(f"frame {s['frame']}: the box is on {label}, the counter says n = {s['n_shown']}")
    return out


def test_shift_machine_boxed_row_is_where_the_hands_are(shift):
    rows = shift.probes["rows"]
    boxed = list(_boxed_frames(rows))
    back = shift.probes["backwards"][0]["k"]
    assert sum(n == back for _, _, n in boxed) > 30           # PE(k) boxed, the hands at n = k (pitfall)
    assert sum(n == 0 for _, _, n in boxed) > 5               # PE(0) boxed once they have gone back k steps
    pitfall = shift.plan.cue("pitfall")
    assert any(pitfall.start_frame <= s["frame"] < pitfall.end_frame for s, _, _ in boxed)
    assert boxed_rows_vs_hands(rows) == []


def test_shift_machine_boxed_row_check_catches_a_mismatch(shift):
    rows = shift.probes["rows"]
    relabelled = copy.deepcopy(rows)                             # the table's PE(3) row printed as PE(2)
    for s in relabelled:
        for lab in s["labels"]:
            if lab["text"] == "PE(3)":
                lab["text"] = "PE(2)"
    assert boxed_rows_vs_hands(relabelled)
    turned = copy.deepcopy(rows)                                 # hand 1 drawn 10° off on every frame
    a = np.radians(10.0)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    for s in turned:
        c, e = np.array(s["hands"][1]["start"]), np.array(s["hands"][1]["end"])
        s["hands"][1]["end"] = (c + rot @ (e - c)).tolist()
    assert boxed_rows_vs_hands(turned)
    counted = copy.deepcopy(rows)                                # the counter one step ahead
    for s in counted:
        s["n_shown"] = str(int(_num(s["n_shown"])) + 1)
    assert boxed_rows_vs_hands(counted)
    # the old picture: hands left at n = 13 while PE(3) is boxed
    late = copy.deepcopy(rows)
    for s in late:
        for i, h in enumerate(s["hands"]):
            c = np.array(h["start"])
            r = length(h["start"], h["end"])
            a = np.radians(W_DEG[i] * 13)
            h["end"] = (c + r * np.array([np.cos(a), np.sin(a)])).tolist()
    assert boxed_rows_vs_hands(late)


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
    out = disagreements(samples, shown=shown, said=lambda s: _num(s["g0_shown"]),
                        drawn=lambda s: _maps(s)[1](s["dot0"][1]), tol=1e-6, what="g(0) label vs its dot")
    out += disagreements(samples, shown=shown, said=lambda s: 0.0, drawn=lambda s: _maps(s)[0](s["dot0"][0]),
                         tol=1e-6, what="g(0) dot sits at distance 0")
    out += disagreements(samples, shown=shown, said=lambda s: _num(s["g0_shown"]), drawn=lambda s: _curve_at(s, 0.0),
                         tol=1e-6, what="g(0) label vs the curve at 0")
    return out


def half_disagreements(samples) -> list[str]:
    """The half-point label k: the dot is drawn at distance k on the curve; the dashed line is drawn at half
    of the labelled g(0); the curve is at or below it at k and above it at every distance before k."""
    shown = lambda s: s["half_on_screen"] and s["half_line_on_screen"] and s["g0_on_screen"]  # noqa: E731
    out = disagreements(samples, shown=shown, said=lambda s: _num(s["half_shown"]),
                        drawn=lambda s: _maps(s)[0](s["dot_half"][0]), tol=1e-6, what="k label vs the dot")
    out += disagreements(samples, shown=shown, said=lambda s: _curve_at(s, _num(s["half_shown"])),
                         drawn=lambda s: _maps(s)[1](s["dot_half"][1]), tol=1e-6, what="the dot lies on the curve")
    out += disagreements(samples, shown=shown, said=lambda s: _num(s["g0_shown"]) / 2,
                         drawn=lambda s: _maps(s)[1](s["half_line"][0][1]), tol=1e-6, what="half line = g(0)/2")
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
    c, lo, hi = (np.array([int(h[i:i + 2], 16) for i in (1, 3, 5)], dtype=float) for h in (color, s["low"], s["high"]))
    ch = int(np.argmax(np.abs(hi - lo)))
    return s["vmin"] + (c[ch] - lo[ch]) / (hi[ch] - lo[ch]) * (s["vmax"] - s["vmin"])


def row_arrow_disagreements(arrow_samples, profile_samples) -> list[str]:
    """The arrow runs along row 0 (horizontal, not along a diagonal) from the diagonal cell (0, 0) to the cell
    at the curve's last distance; the colours of that row are the values the curve draws at each distance."""
    out = disagreements(arrow_samples, shown=lambda s: s["on_screen"], said=lambda s: 0.0,
                        drawn=lambda s: direction_deg(s["start"], s["end"]), tol=1e-6, what="arrow direction (along a row)")
    out += disagreements(arrow_samples, shown=lambda s: s["on_screen"], said=lambda s: 0.0,
                         drawn=lambda s: length(s["start"], s["cell_first"]), tol=1e-6, what="arrow starts on the diagonal cell")
    for s, p in _arrow_with_full_curve(arrow_samples, profile_samples):
        k_max = max(float(t["text"]) for t in p["x_ticks"])
        cells = length(s["start"], s["end"]) / s["cell_size"]
        if not abs(cells - k_max) <= 1e-6:
            out.append(f"frame {s['frame']}: the arrow spans {cells:g} cells, the curve runs to {k_max:g}")
        if not length(s["end"], s["cell_last"]) <= 1e-6:
            out.append(f"frame {s['frame']}: the arrow does not end on row 0's last cell")
        xs, ys = _curve_xy(p)
        step = (s["vmax"] - s["vmin"]) / 235 + 1e-6           # one step of the 8-bit colour channel
        for k, color in enumerate(s["row_colors"]):
            drawn = float(np.interp(k, xs, ys))
            if not abs(_row_value(color, s) - drawn) <= step:
                out.append(f"frame {s['frame']}: cell (0, {k}) stands for {_row_value(color, s):.3f}, "
                           f"the curve draws {drawn:.3f}")
    return out


def _arrow_with_full_curve(arrow_samples, profile_samples):
    """(arrow sample, profile sample) of the frames that show the arrow, the table and the whole curve."""
    profile = {s["frame"]: s for s in profile_samples}
    for s in arrow_samples:
        p = profile.get(s["frame"])
        if not (s["on_screen"] and s["heat_on_screen"] and p and p["curve_on_screen"] and p["ticks_on_screen"]):
            continue
        if _curve_xy(p)[0].max() < max(float(t["text"]) for t in p["x_ticks"]) - 1e-9:
            continue                                   # the curve is still being drawn
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
    assert gram.plan.cue("decay").text.startswith("沿着一行")            # the words follow the arrow


def test_gram_stripes_checks_catch_a_wrong_label_or_drawing(gram):
    profile = gram.probes["profile"]
    with_arrow = {x["frame"] for x in gram.probes["row_arrow"] if x["on_screen"]}      # (it leaves for the far view)
    s = copy.deepcopy([p for p in profile if p["half_on_screen"] and p["frame"] in with_arrow][-1])
    assert g0_disagreements([s]) == [] and half_disagreements([s]) == []
    bad = copy.deepcopy(s)
    bad["g0_shown"] = "g(0)=15"
    assert g0_disagreements([bad]) and half_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["dot0"][1] += 0.2                                               # the dot drawn off the curve
    assert g0_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["curve"][0][1] -= 0.3                                           # the curve drawn lower at 0
    assert g0_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["half_shown"] = "k=17"
    assert half_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["dot_half"][0] += 0.2                                           # the dot drawn at another distance
    assert half_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["half_shown"] = "k=19"                                          # a later crossing, dot moved with it
    to_x, _ = _axis_map(s["x_ticks"], 0)
    bad["dot_half"][0] = float(to_x(19.0))
    assert half_disagreements([bad])

    arrow = gram.probes["row_arrow"]
    a = copy.deepcopy([x for x in arrow if x["on_screen"] and x["frame"] == s["frame"]][-1])
    assert row_arrow_disagreements([a], [s]) == []
    diag = copy.deepcopy(a)                                             # the arrow along the diagonal instead
    span = np.array(diag["end"]) - np.array(diag["start"])
    diag["end"] = (np.array(diag["start"]) + np.array([span[0], -span[0]])).tolist()
    assert row_arrow_disagreements([diag], [s])
    short = copy.deepcopy(a)                                            # the arrow stops at 47 (the old table)
    short["end"] = (np.array(short["start"]) + np.array([47 * short["cell_size"], 0.0])).tolist()
    assert row_arrow_disagreements([short], [s])
    recolored = copy.deepcopy(a)
    recolored["row_colors"][16] = recolored["row_colors"][0]            # cell (0, 16) coloured like g(0)
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
            continue                                   # still being drawn
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
    s = copy.deepcopy([p for p in gram.probes["far"] if p["curve_on_screen"] and p["window_on_screen"] and _fully_drawn(p)][-1])
    assert far_disagreements([s]) == []
    bad = copy.deepcopy(s)
    bad["curve"][300][1] += 0.1                                          # one stretch of the curve drawn too high
    assert far_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["title"] = "走远些：一直到 2000 步"
    assert far_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["window"][1] += 0.3                                             # the band wider than the first chart
    assert far_disagreements([bad])
    bad = copy.deepcopy(s)
    bad["window_note"] = "← 右图只画到 48"
    assert far_disagreements([bad])
