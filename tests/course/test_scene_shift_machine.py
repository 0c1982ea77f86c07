"""shift_machine (rotation_matrix, class ShiftMachine): the numbers against mathcore; the counter n, the cos/sin
readings, the extra-turn arcs and the backwards step against the drawn hands; the boxed rows of the PE table
against the hands and the counter.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest

import mathcore
from mathcore import checks
from mathcore import rotation_facts as rf
from narration import figures
from scenes.shift_machine import ShiftMachine
from scenes.theme import safe_bottom
from tests.support.course_scenes import narration_scene
from tests.support.drawn import arc_sweep_deg, direction_deg, disagreements, length, numbers_in, signed_gap_deg
from tests.support.scene_probes import shows_figure

TOL = 1e-6
D_SHIFT = 8
W = mathcore.frequencies(D_SHIFT)  # radians per step of each hand (mathcore, not the scene)
W_DEG = np.degrees(W)
DEG_TOL = 1e-6
READ_TOL = 0.005 + 1e-9  # two-decimal readings of exact values


def at_frame(samples, frame):
    hits = [s for s in samples if s["frame"] == frame]
    assert hits, f"no sample on frame {frame}"
    return hits[0]


@pytest.fixture(scope="module")
def scene_d():
    return narration_scene


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
        want = [
            [
                figures.fmt_fixed(pe[2 * i], 2).replace("−0.00", "0.00"),
                figures.fmt_fixed(pe[2 * i + 1], 2).replace("−0.00", "0.00"),
            ]
            for i in range(d // 2)
        ]
        assert s["shown"] == want
    m = scene.probes["matrix"][0]
    machine = rf.cos_first_shift_matrix(m["k"], d)
    p = rf.cos_first_order(d)
    assert np.array_equal(machine, mathcore.shift_matrix(m["k"], d)[np.ix_(p, p)])  # mathcore's own machine
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
    assert "R(theta)^T = R(-theta)" in why[0] and "M_k^T = M_(-k)" in why[1] and "方向反了" in why[1]
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
    # P5 (review 11): no d = 512 aside in this scene, on screen or in the voice
    assert "periods" not in scene.probes and "512" not in scene.plan.cue("pitch").text


def _entry(x: float, places: int = 2, zero: str = "0") -> str:
    if float(x) == 0:
        return zero
    return f"{round(float(x), places) + 0.0:.{places}f}".replace("-", "−")


def _num(text: str) -> float:
    return numbers_in(text)[-1]


def _hand_deg(s, i) -> float:
    """The drawn direction of hand i, from its raw points."""
    return direction_deg(s["hands"][i]["start"], s["hands"][i]["end"])


# -- shift_machine ----------------------------------------------------------------------------------
def counter_vs_hands(samples) -> list[str]:
    """Hand i points at w_i · n for the n the counter shows. While the hands move the counter shows the
    nearest whole n, so a hand may be up to half a step (w_i / 2) away from it."""
    out = []
    for i in range(D_SHIFT // 2):
        out += disagreements(
            samples,
            shown=lambda s: s["n_on_screen"] and s["hands_on_screen"],
            said=lambda s, i=i: 0.0,
            drawn=lambda s, i=i: signed_gap_deg(W_DEG[i] * _num(s["n_shown"]), _hand_deg(s, i)),
            tol=W_DEG[i] / 2 + DEG_TOL,
            what=f"hand {i} vs the counter n",
        )
        out += disagreements(
            samples,
            shown=lambda s: s["hands_on_screen"],
            said=lambda s: 0.0,
            drawn=lambda s, i=i: length(s["hands"][i]["start"], s["centers"][i]),
            tol=1e-6,
            what=f"hand {i} turns about its own clock's centre",
        )
    return out


def readings_vs_hands(samples) -> list[str]:
    """Under each clock, cos and sin of the angle its hand is drawn at (two decimals)."""
    out = []
    for i in range(D_SHIFT // 2):
        for j, f in enumerate((np.cos, np.sin)):
            out += disagreements(
                samples,
                shown=lambda s: s["on_screen"],
                said=lambda s, i=i, j=j: float(s["shown"][i][j].replace("−", "-")),
                drawn=lambda s, i=i, f=f: float(f(np.radians(_hand_deg(s, i)))),
                tol=READ_TOL,
                what=f"hand {i}: {'cos' if j == 0 else 'sin'} reading",
            )
    return out


@pytest.fixture(scope="module")
def shift():
    return narration_scene("shift_machine")


def test_shift_machine_counter_and_readings_equal_the_hands(shift):
    hands = shift.probes["hands"]
    assert sum(s["n_on_screen"] for s in hands) > 300
    assert len({s["n_shown"] for s in hands if s["n_on_screen"]}) >= 6  # n = 0 … STAGGER_TO + 1 goes by
    assert counter_vs_hands(hands) == []
    pairs = [s for s in shift.probes["pairs"] if s["on_screen"]]
    assert len(pairs) > 30
    assert readings_vs_hands(pairs) == []


def extra_arcs_disagreements(samples, matrix: dict) -> list[str]:
    """Each extra-turn arc sweeps the degrees its label says; w_i k is mathcore's; and the i-th 2×2 block of
    the M_k shown (cos, −sin; sin, cos, three decimals) turns by the angle that arc sweeps."""
    out = []
    places = matrix["places"]
    for i in range(D_SHIFT // 2):

        def sweep(s, i=i):
            a = s["arcs"][i]
            return arc_sweep_deg(a["center"], a["start"], a["end"])

        out += disagreements(
            samples,
            shown=lambda s: s["on_screen"] and s["labels_on_screen"],
            said=lambda s, i=i: _num(s["shown"][i]),
            drawn=sweep,
            tol=0.005 + 1e-6,
            what=f"hand {i}: extra-turn label vs its arc",
        )
        out += disagreements(
            samples,
            shown=lambda s: s["on_screen"],
            said=lambda s, i=i: W_DEG[i] * s["k"],
            drawn=sweep,
            tol=1e-6,
            what=f"hand {i}: arc vs w_i k",
        )
        block = [[float(matrix["shown"][2 * i + r][2 * i + c].replace("−", "-")) for c in (0, 1)] for r in (0, 1)]
        half = 0.5 * 10.0**-places + 1e-9
        out += disagreements(
            samples,
            shown=lambda s: s["on_screen"],
            said=lambda s, b=block: b[1][0],
            drawn=lambda s, i=i: float(np.sin(np.radians(sweep(s, i)))),
            tol=half,
            what=f"block {i}: sin entry vs the arc",
        )
        out += disagreements(
            samples,
            shown=lambda s: s["on_screen"],
            said=lambda s, b=block: b[0][0],
            drawn=lambda s, i=i: float(np.cos(np.radians(sweep(s, i)))),
            tol=half,
            what=f"block {i}: cos entry vs the arc",
        )
        out += disagreements(
            samples,
            shown=lambda s: s["on_screen"],
            said=lambda s, b=block: -b[0][1],
            drawn=lambda s, i=i: float(np.sin(np.radians(sweep(s, i)))),
            tol=half,
            what=f"block {i}: −sin entry vs the arc",
        )
    return out


def test_shift_machine_extra_turns_equal_their_arcs(shift):
    extra = [s for s in shift.probes["extra"] if s["on_screen"]]
    assert len(extra) > 20
    matrix = shift.probes["matrix"][0]
    assert extra_arcs_disagreements(extra, matrix) == []
    # the labels say mathcore's w_i k
    for i, text in enumerate(extra[-1]["shown"]):
        assert text == f"+{figures.fmt_dec(W_DEG[i] * matrix['k'], 2)}°"


def backwards_disagreements(first: dict, last: dict, shown: dict) -> list[str]:
    """The backwards beat: the k the screen says (the text "和 k 步之前…", the formula M_k, PE(n − k)) is how
    many steps every drawn hand went back, and how far the counter n went down."""
    out = []
    said = {
        "text": numbers_in(shown["text"])[0],
        "formula M_k": float(shown["formula"].split("M_")[1].split()[0]),
        "formula n − k": float(shown["formula"].split("n - ")[1].split(")")[0]),
        "counter": _num(first["n_shown"]) - _num(last["n_shown"]),
    }
    for i in range(D_SHIFT // 2):
        went_back = -signed_gap_deg(_hand_deg(first, i), _hand_deg(last, i)) / W_DEG[i]
        for what, k in said.items():
            if not abs(went_back - k) <= 1e-6:
                out.append(f"hand {i} went back {went_back:g} steps; the {what} says {k:g}")
    return out


def _backwards(scene):
    cue = scene.plan.cue("backwards")
    hands = {s["frame"]: s for s in scene.probes["hands"]}
    back = scene.probes["backwards"][0]
    return hands[cue.start_frame], hands[cue.end_frame - 1], {"text": back["shown"], "formula": back["formula"]}


def test_shift_machine_backwards_step_equals_the_hands(shift):
    first, last, shown = _backwards(shift)
    assert backwards_disagreements(first, last, shown) == []
    k = shift.probes["backwards"][0]["k"]
    assert f"{k} 步" in shift.plan.cue("backwards").text  # the narration names the same k
    # the boxed result is PE(k) M_k = PE(0): the row k steps back from the boxed input row
    rows = shift.probes["back_rows"][0]
    assert rows["input_row"] - rows["output_row"] == k and f"M_{k}" in rows["result"]


def test_shift_machine_checks_catch_a_wrong_label_or_drawing(shift):
    hands = [s for s in shift.probes["hands"] if s["n_on_screen"]]
    still = hands[-1]  # the hands rest on a whole n here
    bad = copy.deepcopy(still)
    bad["n_shown"] = str(int(_num(still["n_shown"])) + 1)  # the label off by one step
    assert counter_vs_hands([bad])
    bad = copy.deepcopy(still)
    c, e = np.array(bad["hands"][1]["start"]), np.array(bad["hands"][1]["end"])
    a = np.radians(10.0)  # hand 1 drawn 10° off (w_1 = 5.7°)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    bad["hands"][1]["end"] = (c + rot @ (e - c)).tolist()
    assert counter_vs_hands([bad])

    pair = copy.deepcopy([s for s in shift.probes["pairs"] if s["on_screen"]][-1])
    pair["shown"][0][0] = f"{float(pair['shown'][0][0].replace('−', '-')) + 0.02:.2f}"
    assert readings_vs_hands([pair])

    extra = copy.deepcopy([s for s in shift.probes["extra"] if s["on_screen"] and s["labels_on_screen"]][-1])
    matrix = shift.probes["matrix"][0]
    extra["shown"][1] = "+6.73°"  # a label one degree off
    assert extra_arcs_disagreements([extra], matrix)
    extra = copy.deepcopy([s for s in shift.probes["extra"] if s["on_screen"]][-1])
    arc = extra["arcs"][0]
    arc["end"] = (np.array(arc["center"]) + 1.1 * (np.array(arc["end"]) - np.array(arc["center"]))).tolist()
    arc["end"] = np.add(arc["end"], [0.0, 0.05]).tolist()  # the arc drawn too long
    assert extra_arcs_disagreements([extra], matrix)
    wrong = copy.deepcopy(matrix)
    wrong["shown"][7][6] = "0.000"  # the slow block printed as identity
    assert extra_arcs_disagreements([s for s in shift.probes["extra"] if s["on_screen"]][-1:], wrong)

    first, last, shown = _backwards(shift)
    assert backwards_disagreements(first, last, {**shown, "text": shown["text"].replace("3", "2", 1)})
    moved = copy.deepcopy(last)
    c, e = np.array(moved["hands"][2]["start"]), np.array(moved["hands"][2]["end"])
    a = np.radians(W_DEG[2])  # hand 2 went back one step less
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
            for h, g in zip(s["hands"], prev["hands"])
        )
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
    assert sum(n == back for _, _, n in boxed) > 30  # PE(k) boxed, the hands at n = k (pitfall)
    assert sum(n == 0 for _, _, n in boxed) > 5  # PE(0) boxed once they have gone back k steps
    pitfall = shift.plan.cue("pitfall")
    assert any(pitfall.start_frame <= s["frame"] < pitfall.end_frame for s, _, _ in boxed)
    assert boxed_rows_vs_hands(rows) == []


def test_shift_machine_boxed_row_check_catches_a_mismatch(shift):
    rows = shift.probes["rows"]
    relabelled = copy.deepcopy(rows)  # the table's PE(3) row printed as PE(2)
    for s in relabelled:
        for lab in s["labels"]:
            if lab["text"] == "PE(3)":
                lab["text"] = "PE(2)"
    assert boxed_rows_vs_hands(relabelled)
    turned = copy.deepcopy(rows)  # hand 1 drawn 10° off on every frame
    a = np.radians(10.0)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    for s in turned:
        c, e = np.array(s["hands"][1]["start"]), np.array(s["hands"][1]["end"])
        s["hands"][1]["end"] = (c + rot @ (e - c)).tolist()
    assert boxed_rows_vs_hands(turned)
    counted = copy.deepcopy(rows)  # the counter one step ahead
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


# -- M1 (review 12): the voice says the order differs from lesson 2's, and why the blocks are then R(ω_i k) -------
def pair_order_unsaid(pitch: str, machine: str, note: str) -> list[str]:
    """Where lesson 3's (cos, sin) order goes by as if it were lesson 2's: the pitch must name lesson 2's
    sin-first order beside this one, the machine must say that cos first is what makes each block the forward
    turn and that in lesson 2's order the block turns back while the hands still go forward; the screen note too."""
    out = []
    if not ("第二课" in pitch and "先写 sin" in pitch and "先写 cos、再写 sin" in pitch):
        out.append("pitch")
    if not ("先写 cos" in machine and "第二课先 sin" in machine and "倒转" in machine and "往前" in machine):
        out.append("machine")
    if not ("先 cos、再 sin" in note and "第二课先 sin" in note):
        out.append("note")
    return out


def test_the_pair_order_check_sees_the_old_silent_switch():
    old_pitch = "写成向量，每根指针占两个位子，这里先写 cos、再写 sin。"  # seeded: review 12's M1
    old_machine = "每一块是一个旋转，把对应的指针多转 ω 的 k 倍。它叫移位矩阵。"
    assert pair_order_unsaid(old_pitch, old_machine, "这里每对先 cos、再 sin") == ["pitch", "machine", "note"]


# -- P4: the sign remark is the block matrix's footnote, and the voice says it while the blocks are drawn ------
def test_shift_machine_pair_order_footnote_sits_under_the_blocks(shift):
    pitch = shift.plan.cue("pitch").text
    assert "变号" not in pitch
    said = shift.plan.cue("machine").text
    assert pair_order_unsaid(pitch, said, shift.probes["pair_note"][0]["shown"]) == []
    note = shift.probes["order_note"][0]
    assert "第二课每对先 sin 后 cos" in note["shown"] and "$R(-omega_i k)$" in note["shown"]
    assert note["bottom"] >= safe_bottom()  # a footnote, but above the subtitles
    # what the footnote claims: in lesson 2's (sin, cos) order (mathcore's), block i is R(−ω_i k)
    for k in (1, 3):
        m = mathcore.shift_matrix(k, D_SHIFT)
        for i, w in enumerate(W):
            assert np.allclose(m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2], mathcore.rotation(-w * k), atol=1e-15)
    # shown during the machine cue, while the blocks are drawn, and never before it
    machine, pitch_cue = shift.plan.cue("machine"), shift.plan.cue("pitch")
    shown = [s["frame"] for s in shift.probes["order_note_shown"] if s["on_screen"]]
    assert sum(machine.start_frame <= f < machine.end_frame for f in shown) > 2 * shift.fps
    assert not [f for f in shown if f < machine.start_frame]
    assert pitch_cue.end_frame <= machine.start_frame


# -- P5: the hands never turn back unseen before "往回拨": they fade out at n = STAGGER_TO + 1 and in at n = 3 ---------------
def visible_turns(samples, start: int, end: int) -> list[str]:
    """Every step between two frames of [start, end) on which the hands are drawn (stroke opacity above 0)
    and some hand's direction changes."""
    out = []
    inside = [s for s in samples if start <= s["frame"] < end]
    for a, b in zip(inside, inside[1:]):
        if min(a["hands_opacity"]) <= 0 or min(b["hands_opacity"]) <= 0:
            continue
        for i in range(D_SHIFT // 2):
            gap = signed_gap_deg(_hand_deg(a, i), _hand_deg(b, i))
            if abs(gap) > DEG_TOL:
                out.append(f"frame {b['frame']}: hand {i} turns {gap:+.3g}° while drawn")
    return out


def counter_vs_faded_hands(samples, start: int, end: int) -> list[str]:
    """While the hands are drawn at all (fading included), the counter shows the n they point at."""
    out = []
    for s in samples:
        if not (start <= s["frame"] < end and min(s["hands_opacity"]) > 0):
            continue
        n = _num(s["n_shown"])
        for i in range(D_SHIFT // 2):
            gap = signed_gap_deg(W_DEG[i] * n, _hand_deg(s, i))
            if abs(gap) > DEG_TOL:
                out.append(f"frame {s['frame']}: the counter says n = {s['n_shown']}, hand {i} is {gap:+.3g}° off")
    return out


def test_shift_machine_hands_start_again_at_the_boxed_row_without_turning(shift):
    pitfall = shift.plan.cue("pitfall")
    hands = shift.probes["hands"]
    first, last = at_frame(hands, pitfall.start_frame), at_frame(hands, pitfall.end_frame - 1)
    assert _num(first["n_shown"]) == ShiftMachine.STAGGER_TO + 1
    assert _num(last["n_shown"]) == shift.probes["backwards"][0]["k"]
    assert visible_turns(hands, pitfall.start_frame, pitfall.end_frame) == []
    assert counter_vs_faded_hands(hands, pitfall.start_frame, pitfall.end_frame) == []
    # the hands are really gone for a moment: the jump from 13 to 3 happens while nothing is drawn
    assert any(max(s["hands_opacity"]) == 0 for s in hands if pitfall.start_frame <= s["frame"] < pitfall.end_frame)
    # where the voice does say it (backwards: "指针反而往回拨"), the hands do turn back, and are seen to
    back = shift.plan.cue("backwards")
    assert visible_turns(hands, back.start_frame, back.end_frame)


def test_shift_machine_unwinding_check_catches_a_silent_turn(shift):
    pitfall = shift.plan.cue("pitfall")
    inside = [s for s in shift.probes["hands"] if pitfall.start_frame <= s["frame"] < pitfall.end_frame]
    # the old picture: the hands stay drawn and turn from n = 13 back to n = 3 over ten frames
    turning = copy.deepcopy(inside[:10])
    for j, s in enumerate(turning):
        n = 13 - j
        s["hands_opacity"] = [1.0] * (D_SHIFT // 2)
        s["n_shown"] = str(n)
        for i, h in enumerate(s["hands"]):
            c, r, a = np.array(h["start"]), length(h["start"], h["end"]), np.radians(W_DEG[i] * n)
            h["end"] = (c + r * np.array([np.cos(a), np.sin(a)])).tolist()
    assert visible_turns(turning, pitfall.start_frame, pitfall.end_frame)
    assert counter_vs_faded_hands(turning, pitfall.start_frame, pitfall.end_frame) == []
    # the counter left at 13 while the hands fade back in at 3
    stale = copy.deepcopy([s for s in inside if 0 < min(s["hands_opacity"]) and _num(s["n_shown"]) == 3])
    for s in stale:
        s["n_shown"] = "13"
    assert stale and counter_vs_faded_hands(stale, pitfall.start_frame, pitfall.end_frame)


# -- M3, L1: the voice says which clocks before it quotes their speeds; the gloss needs no brackets -----------
def test_shift_machine_names_the_drawn_clocks_and_glosses_speed_in_words(shift):
    # the clocks on screen are named (d = 8) right after the d = 512 strip, before any figure is read off them
    # (review 10, M1)
    said = shift.plan.cue("stagger").text
    # L6 (review 11): the 4 clocks of the 8 dimensions, not "4 eight-dimensional clocks"
    which = f"{D_SHIFT} 维里的 {D_SHIFT // 2} 个钟"
    assert which in said and said.index(which) < said.index(f"走到 {ShiftMachine.STAGGER_TO}")
    assert shift.probes["matrix"][0]["w"] == pytest.approx(W.tolist())  # the drawn clocks are mathcore's d = 8
    clocks = shift.plan.cue("clocks").text
    assert "也叫角频率" in clocks and "（" not in clocks and "(" not in clocks


# -- P1, M2 (review 10): stagger refers back to lessons 1 and 2 and names no clock by number -------------------
#: a clock named by number (lesson 2 numbers the d = 512 clocks: its 钟 1 is nearly as fast as 钟 0), or a
#: figure read off one hand: the comparison lessons 1 and 2 made, made again
CLOCK_BY_NUMBER = re.compile(r"钟\s*\d|平面\s*\d")
ONE_HAND_FIGURE = re.compile(r"\d+\s*°|\d+\s*圈|\{stagger_")


def stagger_vs_hands(sample: dict, said: str, shown: str) -> list[str]:
    """At the end of the stagger cue: the counter shows the seat the voice walks to, and every hand points at
    mathcore's ω_i · n for it; the voice and the screen name no clock by number and read no figure off one hand;
    the voice says where the fact was shown (lessons 1 and 2)."""
    out = []
    n = _num(sample["n_shown"])
    if f"走到 {n:g}" not in said:
        out.append(f"the counter shows n = {n:g}; the voice does not say 走到 {n:g}")
    for i, w in enumerate(W_DEG):
        if abs(signed_gap_deg(w * n, _hand_deg(sample, i))) > 1e-6:
            out.append(f"hand {i} is drawn at {_hand_deg(sample, i) % 360:.1f}°, not at ω_{i} · {n:g}")
    for where, text in (("voice", said), ("screen", shown)):
        if CLOCK_BY_NUMBER.search(text):
            out.append(f"the {where} names a clock by number: {text!r}")
        if ONE_HAND_FIGURE.search(text):
            out.append(f"the {where} reads a figure off one hand: {text!r}")
    if not re.search(r"第一、二课|第一课和第二课", said):
        out.append("the voice does not refer back to lessons 1 and 2")
    return out


def test_shift_machine_stagger_refers_back_and_names_no_clock(shift):
    cue = shift.plan.cue("stagger")
    end = at_frame(shift.probes["hands"], cue.end_frame - 1)
    probe = shift.probes["stagger"][0]
    assert _num(end["n_shown"]) == probe["seat"] == ShiftMachine.STAGGER_TO == figures.STAGGER_SEAT
    assert stagger_vs_hands(end, cue.text, probe["shown"]) == []
    # the words are on screen while the hands rest there, not while they spin
    shown = [s["frame"] for s in shift.probes["stagger_shown"] if s["on_screen"]]
    first_shown = at_frame(shift.probes["hands"], min(shown))
    assert _num(first_shown["n_shown"]) == probe["seat"]
    assert all(np.allclose(h["end"], g["end"], atol=1e-9) for h, g in zip(first_shown["hands"], end["hands"]))


def test_the_stagger_check_sees_the_old_beat(shift):
    cue = shift.plan.cue("stagger")
    end = at_frame(shift.probes["hands"], cue.end_frame - 1)
    # seeded: review 10's words, which compared clock 0 and "钟 1" at 44 again
    old_said = (
        "回到屏幕上这 4 个 8 维的钟，走到 44：钟 0 转满 7 圈，碰巧几乎回到起点；钟 1 却停在约 252°，离起点很远。"
        "快慢错开，不同位置就很难撞上同一组读数。"
    )
    problems = stagger_vs_hands(end, old_said, "钟 0 几乎转回起点，钟 1 离得很远：位置不撞车")
    assert len(problems) == 4, problems  # names by number (voice, screen), figures off one hand, no reference back
    # seeded: a hand drawn one step behind
    late = copy.deepcopy(end)
    h = late["hands"][1]
    c, r, a = np.array(h["start"]), length(h["start"], h["end"]), np.radians(W_DEG[1] * 43)
    h["end"] = (c + r * np.array([np.cos(a), np.sin(a)])).tolist()
    assert stagger_vs_hands(late, cue.text, shift.probes["stagger"][0]["shown"]) == [
        f"hand 1 is drawn at {(W_DEG[1] * 43) % 360:.1f}°, not at ω_1 · 44"
    ]


def clock_name_faults(shown: list[str], w: list[float]) -> list[str]:
    """M2 (review 10): each drawn clock is named by its speed, mathcore's ω_i radians a step, not by a number
    lesson 2 gives another clock."""
    out = []
    for text, wi in zip(shown, w, strict=True):
        if CLOCK_BY_NUMBER.search(text):
            out.append(f"{text!r} names the clock by number")
        got = numbers_in(text)
        if len(got) != 1 or abs(got[0] - wi) > 5e-4 or "弧度" not in text:
            out.append(f"{text!r} is not the clock's speed, {wi:.3g} 弧度 a step")
    return out


def test_shift_machine_names_each_clock_by_its_speed(shift):
    names = shift.probes["names"][0]
    assert names["w"] == pytest.approx(W.tolist()) and names["caption"] == "一步转"
    assert clock_name_faults(names["shown"], W.tolist()) == []
    # seeded: the names until review 10
    assert len(clock_name_faults(["钟0", "钟1", "钟2", "钟3"], W.tolist())) == 8


# -- K4, L2 (review 12): the pitfall is a puzzle from the picture; the ending names what gave it away -------------
def pitfall_from_the_seed(pitfall: str, backwards: str, lesson: str, shown: str) -> list[str]:
    """Where the pitfall beats follow seed 000 §4 (rows → right-multiply → transpose → the moral) or say the
    ending the listener must parse twice: the pitch says where the hands should land before they go back, the
    ending names the hands (the picture), not a moral about formulas and numbers."""
    out = []
    if "照理" not in pitfall or "6 号" not in pitfall:
        out.append("pitfall: no expected landing seat before the result")
    if not backwards.startswith("可指针"):
        out.append("backwards: not the answer to the puzzle")
    for where, text in (("lesson", lesson), ("screen", shown)):
        if "整齐" in text or "错只在" in text or "指针" not in text:
            out.append(f"{where}: the moral, not the picture")
    return out


def test_the_pitfall_beats_start_from_the_picture(shift):
    said = {c: shift.plan.cue(c).text for c in ("pitfall", "backwards", "lesson")}
    shown = shift.probes["lesson_text"][0]["shown"]
    assert pitfall_from_the_seed(said["pitfall"], said["backwards"], said["lesson"], shown) == []
    # 6 is where M_3 should take row 3; 0 is where it does (the boxed rows)
    rows = shift.probes["back_rows"][0]
    assert rows["input_row"] + shift.probes["backwards"][0]["k"] == 6 and rows["output_row"] == 0
    old = (
        "做个实验。读数排成表，一行就是一个位置。把 3 号这一行放在左边，乘往后挪 3 步的移位矩阵。",
        "指针反而往回拨了 3 步，停在 0 号那一行。原来这一行放在左边，乘到的是转置；旋转一转置，方向就反了。",
        "式子怎么写都整齐，错只在算出来的数里。这一课最后还会再犯一次。",
        "式子都整齐，错只在算出的数里",
    )  # seeded: the wording review 12 found (K4, L2)
    assert len(pitfall_from_the_seed(*old)) == 4
