"""clock_row (trig_to_rope, class ClockSpeeds): each hand at p·ω_i (mathcore.frequencies), the position counter, the
speeds and the table against the hands; clock_row_paper, the same class in lesson 2, is checked here too.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest

import mathcore
from tests.support.course_scenes import narration_scene
from tests.support.drawn import direction_deg, disagreements, numbers_in
from tests.support.scene_probes import at_frame

TOL = 1e-6
DEG_TOL = 0.05  # degrees: labels are whole degrees of exactly drawn angles


def wrap(a):
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


@pytest.mark.parametrize("scene_id", ["clock_row", "clock_row_paper"])
def test_clock_hands_at_p_times_w(narrated_scene, scene_id):
    scene = narrated_scene(scene_id)
    d = scene.PARAMS[scene_id]["d"]
    w = mathcore.frequencies(d)[list(scene.PARAMS[scene_id]["indices"])]
    samples = scene.probes["clocks"]
    # lesson 1 steps the counter 1 … 5; lesson 2 only goes from seat 0 to the table's last seat (review 6, P3)
    visited = set(scene.STEPS) if scene_id == "clock_row" else set(scene.TABLE_POSITIONS)
    assert {round(s["p"]) for s in samples} >= visited
    for s in samples:
        assert np.allclose(s["w"], w)
        assert np.all(np.abs(wrap(np.array(s["hand_angles"]) - s["p"] * w)) <= TOL)
        if s["counter_on_screen"]:
            assert s["counter"] == round(s["p"])
    step = scene.plan.cue("step")
    last = scene.STEPS[-1] if scene_id == "clock_row" else scene.TABLE_POSITIONS[-1]
    assert at_frame(samples, step.end_frame)["p"] == last
    table = scene.probes["table"][0]
    want = np.degrees(np.mod(np.multiply.outer(table["positions"], w), 2 * np.pi))
    assert table["shown"] == [[f"{int(round(v)) % 360}°" for v in row] for row in want]
    assert len({tuple(r) for r in table["shown"]}) == len(table["shown"])  # no two positions alike


# -- clock_row / clock_row_paper: the position counter, the speeds and the table against the hands ---
def clock_row_disagreements(samples, speeds) -> list[str]:
    """At rest on a whole position: every hand points at position × its speed (``speeds`` in
    radians per position: the labels' own values when shown); the table's last row reads the hands."""
    out = []
    rest = [s for s in samples if abs(s["p"] - round(s["p"])) < 1e-9]

    def hand(s, i):
        return direction_deg(s["hand_starts"][i], s["hand_ends"][i]) % 360

    def wrap(a):
        return (a + 180.0) % 360.0 - 180.0

    for i in range(len(speeds)):
        w = speeds[i]
        out += disagreements(
            rest,
            shown=lambda s: s["counter_on_screen"],
            what=f"clock {i} vs the position shown",
            said=lambda s, w=w, i=i: wrap(np.degrees(numbers_in(s["counter_text"])[0] * w) - hand(s, i)),
            drawn=lambda s: 0.0,
            tol=DEG_TOL,
        )
        out += disagreements(
            rest,
            shown=lambda s: s["table_on_screen"] and round(s["p"]) == numbers_in(s["table_labels"][-1])[0],
            what=f"table's last row, clock {i}",
            said=lambda s, i=i: numbers_in(s["table"][-1][i])[0],
            drawn=lambda s, i=i: round(hand(s, i)) % 360,
            tol=0,
        )
    return out


def _clock_speeds(scene_id):
    scene = narration_scene(scene_id)
    shown = [s for s in scene.probes["clocks"] if any(s["speeds_on_screen"])]
    if shown:  # the speeds written under the clocks
        return [numbers_in(t)[0] for t in shown[-1]["speed_texts"]], scene
    return list(scene.probes["clocks"][0]["w"]), scene


@pytest.mark.parametrize("scene_id", ["clock_row", "clock_row_paper"])
def test_clock_labels_equal_the_hands(scene_id):
    speeds, scene = _clock_speeds(scene_id)
    samples = scene.probes["clocks"]
    if scene_id == "clock_row":
        assert speeds == pytest.approx(list(mathcore.frequencies(8)))
    rest = [s for s in samples if abs(s["p"] - round(s["p"])) < 1e-9]
    if scene_id == "clock_row":  # lesson 1's counter shows every step; lesson 2 has no counter
        assert {round(s["p"]) for s in rest if s["counter_on_screen"]} >= set(scene.STEPS)
    else:
        assert not any(s["counter_on_screen"] for s in samples)
    assert sum(s["table_on_screen"] and round(s["p"]) == scene.TABLE_POSITIONS[-1] for s in rest) > 10
    assert clock_row_disagreements(samples, speeds) == []


def _turned(p, center, deg):
    a = np.radians(deg)
    v = np.asarray(p, dtype=float) - np.asarray(center, dtype=float)
    x, y = v[0] * np.cos(a) - v[1] * np.sin(a), v[0] * np.sin(a) + v[1] * np.cos(a)
    return [center[0] + x, center[1] + y, 0.0]


@pytest.mark.parametrize("what", ["hand", "speed", "table"])
def test_clock_check_catches_a_perturbation(what):
    speeds, scene = _clock_speeds("clock_row")
    samples = copy.deepcopy(scene.probes["clocks"])
    if what == "speed":
        speeds = list(speeds)
        speeds[1] *= 1.1
    for s in samples:
        if what == "hand":
            s["hand_ends"][2] = _turned(s["hand_ends"][2], s["hand_starts"][2], 1.0)
        elif what == "table":
            s["table"][-1][1] = "250°"
    assert clock_row_disagreements(samples, speeds)


# -- clock_row_paper: requirement 1 (unique) and requirement 2 (readings), each its own cue and highlight ---
def readings_timing_problems(samples, unique, readings) -> list[str]:
    """The sin and cos rows belong to the readings cue: not drawn before it starts, drawn at its end; the angle
    rows are drawn from the unique cue on."""
    out = [
        f"frame {s['frame']}: the sin/cos rows are drawn before the readings cue"
        for s in samples
        if s["readings_on_screen"] and s["frame"] < readings.start_frame
    ]
    if not at_frame(samples, readings.end_frame - 1)["readings_on_screen"]:
        out.append("the sin/cos rows are not drawn at the end of the readings cue")
    if not at_frame(samples, unique.end_frame - 1)["table_on_screen"]:
        out.append("the angle rows are not drawn at the end of the unique cue")
    return out


#: round 8's clock_row_paper.unique: lesson 1's 0-vs-44 figures again, and seed 001 §四's closing sentence
OLD_UNIQUE_8 = (
    "表格里是 0 号和 44 号座位。第一课比过相隔 44 的这一对，这里的数一样：钟 0 几乎转回原处，钟 64 差出 252°。"
    "几万个座位里，找不出两个座位读数全同，第一条满足。"
)


#: round 10's clock_row_paper.unique: 钟 64 not tied to lesson 1's 平面 1, so 第一课比过 sounded like another claim
OLD_UNIQUE_10 = (
    "表里这两行是 0 号和 44 号，第一课比过，不再重算。看钟 0：44 号几乎转回原处；把这两个座位拉开的，是钟 64。"
    "整排钟一起读，座位就各不相同，第一条满足。"
)


def same_clock_problems(text: str, shown: str | None) -> list[str]:
    """Review 10, M2: unique says (and the screen shows) that 钟 64 of d = 512 turns as fast as lesson 1's 平面 1,
    with the speed read from narration.figures (w64_d512, mathcore's)."""
    from narration import figures

    out = []
    speed = f"{figures.value('w64_d512')}弧度"
    for where, t in (("said", text), ("shown", shown or "")):
        t = "".join(t.split())  # the screen's text comes without spaces
        if "钟64" not in t or "平面1" not in t or speed not in t:
            out.append(f"{where}: clock 64 not tied to lesson 1's plane 1 ({speed} a seat)")
    return out


def test_clock_64_is_lesson_one_plane_1():
    """钟 64 of d = 512 and 平面 1 of d = 8 turn the same angle a seat (10000^(−128/512) = 10000^(−2/8) = 0.1)."""
    from narration import figures

    w64, w1 = mathcore.frequencies(512)[64], mathcore.frequencies(8)[1]
    assert w64 == pytest.approx(w1, abs=1e-12) == pytest.approx(0.1, abs=1e-12)
    assert figures.value("w64_d512") == figures.value("w1_d8")
    scene = narration_scene("clock_row_paper")
    assert 64 in scene.PARAMS["clock_row_paper"]["indices"]
    note = scene.probes["same_clock"][0]
    assert note["on_screen"]
    assert same_clock_problems(scene.plan.cue("unique").text, note["text"]) == []
    # seeded: round 10's wording (voice) and no note on screen are caught
    assert len(same_clock_problems(OLD_UNIQUE_10, None)) == 2


def unique_recompute_problems(text: str) -> list[str]:
    """unique points back to lesson 1's pair (钟 64 is what tells 0 and 44 apart) without its figures, and without
    the seed's "几万个座位里 … 读数全同"."""
    from narration import figures

    out = []
    if any(figures.value(n) + "°" in text for n in ("seat44_clock0_deg", "seat44_clock64_deg")):
        out.append("unique recomputes lesson 1's 0-vs-44 figures")
    if "几万个座位" in text:
        out.append("unique keeps the seed's 几万个座位 sentence")
    if "第一课" not in text or "钟 64" not in text:
        out.append("unique does not point back to lesson 1's pair and clock 64")
    return out


def lesson1_pair_problems(text: str) -> list[str]:
    """Review 13, M3: lesson 1 compared distances 0 and 44 (q to k), not seats; unique may point back to that
    pair only as distances (相距 / 距离), while its own rows are seats."""
    out = []
    if "第一课" in text and re.search(r"0\s*号和\s*44\s*号", text) and not re.search(r"(相距|距离)\s*0", text):
        out.append("unique calls lesson 1's distances 0 and 44 seats")
    if re.search(r"号[^。；]{0,3}第一课比过", text):
        out.append("unique says lesson 1 compared these seats")
    return out


def test_lesson1_pair_check_catches_review_13s_unique():
    old = "表里这两行是 0 号和 44 号，第一课比过。钟 0 上，44 号几乎转回原处；拉开它们的是钟 64。"
    assert len(lesson1_pair_problems(old)) == 2
    unique = narration_scene("clock_row_paper").plan.cue("unique").text
    assert lesson1_pair_problems(unique) == [] and "座位" in unique


def test_clock_row_paper_ticks_each_requirement_in_its_own_cue():
    """Review 5, P4: unique boxes seat 0 against seat 44 and ticks requirement 1; readings brings in the sin/cos
    rows (44's readings, from mathcore), boxes them and ticks requirement 2; the voice says each in its cue."""
    from narration.figures import fmt_fixed

    scene = narration_scene("clock_row_paper")
    unique, readings = scene.plan.cue("unique"), scene.plan.cue("readings")
    assert "第一条" in unique.text and unique_recompute_problems(unique.text) == []
    # seeded (review 8, P3, K3): round 8's unique recomputed lesson 1's pair and kept the seed's 几万个座位 sentence
    assert len(unique_recompute_problems(OLD_UNIQUE_8)) == 2
    assert "sin" not in unique.text and "第二条" not in unique.text
    assert "sin 和 cos" in readings.text and "−1 到 1" in readings.text and "第二条" in readings.text
    table = scene.probes["table"][0]
    w = mathcore.frequencies(512)[list(scene.PARAMS["clock_row_paper"]["indices"])]
    angles = np.degrees(np.mod(np.multiply.outer([0, 44], w[:2]), 2 * np.pi))
    assert table["boxed"] == [[f"{int(round(a)) % 360}°" for a in angles[:, j]] for j in (0, 1)]
    assert table["tick"].startswith("第一条")
    shown = scene.probes["readings"][0]
    pe = mathcore.sinusoidal_pe([44.0], 512)[0]
    want = [[fmt_fixed(float(pe[2 * i + k]), 2) for i in scene.PARAMS["clock_row_paper"]["indices"]] for k in (0, 1)]
    assert shown["shown"] == want and sorted(shown["boxed"]) == sorted(sum(want, []))
    assert all(abs(float(v.replace("−", "-"))) <= 1 for v in shown["boxed"])
    assert shown["tick"].startswith("第二条") and "−1到1" in shown["tick"] and all(shown["on_screen"])
    assert readings_timing_problems(scene.probes["clocks"], unique, readings) == []


def test_readings_timing_check_catches_rows_shown_early():
    """Seeded: the sin/cos rows drawn with the angle rows (the old single unique cue) are caught."""
    scene = narration_scene("clock_row_paper")
    unique, readings = scene.plan.cue("unique"), scene.plan.cue("readings")
    early = [
        dict(s, readings_on_screen=s["table_on_screen"] or s["readings_on_screen"]) for s in scene.probes["clocks"]
    ]
    assert readings_timing_problems(early, unique, readings)


# -- clock_row_paper.step: requirement 3, confirmed as seat_card states it (review 6, M3 and P3) -------------
def step_problems(probe, w, samples, step_start) -> list[str]:
    """What disagrees in clock_row_paper.step: each faint hand points at seat × ω_i, each arc turns ω_i from
    the seat before, each number under the table is ω_i in degrees (two significant digits), the tick is the
    third requirement, all of it drawn, and none of it before the cue."""
    out = []
    seat = probe["seat"]
    for i, (c, end) in enumerate(zip(probe["centers"], probe["ghost_ends"])):
        drawn = np.arctan2(end[1] - c[1], end[0] - c[0])
        if abs(wrap(drawn - seat * w[i])) > TOL:
            out.append(f"clock {i}: the faint hand is not at seat {seat}")
        if abs(wrap(probe["arc_starts"][i] - (seat - 1) * w[i])) > TOL or abs(probe["arc_angles"][i] - w[i]) > TOL:
            out.append(f"clock {i}: the arc is not one seat's turn from seat {seat - 1}")
        shown = numbers_in(probe["shown"][i])[0]
        if abs(shown - np.degrees(w[i])) > 0.05 * np.degrees(w[i]) or not probe["shown"][i].startswith("+"):
            out.append(f"clock {i}: {probe['shown'][i]!r} is not one seat's turn, {np.degrees(w[i]):.4g}°")
    if not probe["tick"].startswith("第三条") or not all(probe["on_screen"]):
        out.append(
            f"the third requirement is not ticked with the picture drawn: {probe['tick']!r} {probe['on_screen']}"
        )
    early = [s["frame"] for s in samples if (s["ghosts_on_screen"] or s["steps_on_screen"]) and s["frame"] < step_start]
    if early:
        out.append(f"the next seat's hands are drawn before the step cue, from frame {early[0]}")
    return out


RETRACTIONS = ("并不一样", "一样的是", "不是每次加同一个数")


def step_wording_problems(text: str) -> list[str]:
    """The step cue states requirement 3 as seat_card does (the same rule from p(n) to p(n+1), whatever n) and
    confirms it; it does not take back an earlier wording."""
    out = [f"retracts: {r!r}" for r in RETRACTIONS if r in text]
    if "同一条规则" not in text or "第三条" not in text:
        out.append("does not state the third requirement as one rule")
    return out


def test_clock_row_paper_step_confirms_requirement_three():
    scene = narration_scene("clock_row_paper")
    w = mathcore.frequencies(512)[list(scene.PARAMS["clock_row_paper"]["indices"])]
    step = scene.plan.cue("step")
    probe = scene.probes["step"][0]
    assert probe["seat"] == scene.TABLE_POSITIONS[-1] + 1
    assert step_problems(probe, w, scene.probes["clocks"], step.start_frame) == []
    assert step_wording_problems(step.text) == [] and "p(n) 到 p(n+1)" in step.text and "和 n 是几无关" in step.text
    assert step_wording_problems(step.spoken) == []
    # the cue order: requirements 1, 2, 3 each in its own cue, in that order
    order = [c.id.split(".")[-1] for c in scene.plan.cues]
    assert order.index("unique") < order.index("readings") < order.index("step")


def test_step_checks_catch_a_wrong_turn_and_the_old_wording():
    """Seeded: a faint hand one degree off, an arc two seats long, clock 64's +5.7° written as +57°, the picture
    drawn during readings, and the wording before review 6 (which took requirement 3 back) are each caught."""
    scene = narration_scene("clock_row_paper")
    w = mathcore.frequencies(512)[list(scene.PARAMS["clock_row_paper"]["indices"])]
    probe, samples = scene.probes["step"][0], scene.probes["clocks"]
    start = scene.plan.cue("step").start_frame
    hand = copy.deepcopy(probe)
    hand["ghost_ends"][1] = _turned(hand["ghost_ends"][1], hand["centers"][1], 1.0)
    arc = copy.deepcopy(probe)
    arc["arc_angles"][0] *= 2
    label = copy.deepcopy(probe)
    label["shown"][1] = "+57°"
    for bad in (hand, arc, label):
        assert step_problems(bad, w, samples, start)
    early = [dict(s, ghosts_on_screen=s["ghosts_on_screen"] or s["readings_on_screen"]) for s in samples]
    assert step_problems(probe, w, early, start)
    old = (
        "往后挪一个座位，每根指针都转过自己固定的角度。读数的差并不一样，一样的是“怎么变”：不管从 3 号还是"
        " 5000 号座位出发，每根指针都转同样的角。第三条满足了，第三课会把这种变化写成矩阵。"
    )
    assert step_wording_problems(old)


# -- review 7: the history the right way round (M5); lesson 1's 0-vs-44 recalled, not re-derived (P1) ----------
OLD_INTRO_7 = (
    "第一课那几个快慢不同的平面，像一排钟。原论文用同一个公式做了一排钟来编座位，叫正弦位置编码，下面就叫它那排钟。"
)
OLD_UNIQUE_7 = (
    "表格里是 0 号和 44 号座位上各个钟的指针角度。最快的钟几乎重合，钟 64 却差了 252°：近处靠快钟分，远处靠慢钟。"
    "几万个座位里找不出两组相同的读数，第一条满足。"
)


def paper_recall_problems(intro: str, unique: str) -> list[str]:
    """intro says lesson 1's speeds come from the 2017 paper (出自 … 2017), not that the paper reused them;
    unique points back to lesson 1's comparison (第一课) rather than teaching it as new."""
    out = []
    if "出自" not in intro or "2017" not in intro or intro.index("第一课") > intro.index("2017"):
        out.append("intro: does not say lesson 1's speeds came from the 2017 paper")
    if "第一课" not in unique:
        out.append("unique: the 0-vs-44 comparison is taught again, not recalled")
    return out


def test_clock_row_paper_recalls_lesson_one():
    scene = narration_scene("clock_row_paper")
    intro, unique = scene.plan.cue("intro"), scene.plan.cue("unique")
    assert paper_recall_problems(intro.text, unique.text) == []
    assert paper_recall_problems(intro.spoken, unique.spoken) == []


def test_paper_recall_check_catches_the_round_seven_wording():
    assert len(paper_recall_problems(OLD_INTRO_7, OLD_UNIQUE_7)) == 2
