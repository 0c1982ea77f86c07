"""unit_circle (trig_to_rope, class UnitCirclePointer): the pointer's tip and its cos, sin and degree readouts
against mathcore.pointer_tip, turn by turn on the sweep's bookmarks, and the readouts against the drawn pointer.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest

import mathcore
from tests.support.course_scenes import narration_scene
from tests.support.drawn import direction_deg, disagreements, numbers_in, signed_gap_deg
from tests.support.scene_probes import at_frame

TOL = 1e-6
DEG_TOL = 0.05  # degrees: labels are whole degrees of exactly drawn angles


def test_unit_circle_pointer_tip_and_readout(narrated_scene):
    scene = narrated_scene("unit_circle")
    samples = scene.probes["pointer"]
    assert len(samples) > 200
    for s in samples:
        want = mathcore.pointer_tip(s["theta"])
        assert np.allclose(s["tip"], want, atol=TOL)
        assert np.allclose(s["pointer_end"], want, atol=TOL)
        if s["readout_on_screen"]:
            assert abs(s["readout_cos"] - want[0]) <= TOL and abs(s["readout_sin"] - want[1]) <= TOL
            assert s["readout_deg"] == round(np.degrees(s["theta"])) % 360
    assert sum(s["readout_on_screen"] for s in samples) > 150
    sweep = scene.plan.cue("sweep")
    b = sweep.bookmarks
    # each turn starts on its bookmark and is finished by the next one
    assert at_frame(samples, b["at30"])["theta"] == pytest.approx(0.0, abs=1e-12)
    assert at_frame(samples, b["at150"])["theta"] == pytest.approx(np.radians(30), abs=1e-12)
    assert at_frame(samples, b["at270"])["theta"] == pytest.approx(np.radians(150), abs=1e-12)
    assert at_frame(samples, sweep.end_frame)["theta"] == pytest.approx(np.radians(270), abs=1e-12)
    circle = scene.plan.cue("circle")
    assert at_frame(samples, circle.end_frame)["theta"] == pytest.approx(np.radians(630), abs=1e-12)
    # the takeaway names no turn: the pointer rests where the full turn left it
    take = scene.plan.cue("takeaway")
    assert {round(s["theta"], 12) for s in samples if take.start_frame <= s["frame"] < take.end_frame} == {
        round(np.radians(630), 12)
    }


# -- unit_circle: the readouts and the drawn pointer --------------------------------------------
def unit_circle_disagreements(samples) -> list[str]:
    """θ, cos θ and sin θ as shown, against the drawn pointer, its angle arc and its projections."""
    out = []
    on = [s for s in samples if s["readout_on_screen"]]

    def pointer_deg(s):
        return direction_deg(s["center"], s["pointer_point"]) % 360

    def reading(s, axis):
        return (s["pointer_point"][axis] - s["center"][axis]) / s["circle_radius"]

    out += disagreements(
        on,
        shown=lambda s: True,
        said=lambda s: numbers_in(s["deg_text"])[0],
        what="θ readout",
        drawn=lambda s: round(pointer_deg(s)) % 360,
        tol=0,
    )
    out += disagreements(
        on,
        shown=lambda s: True,
        said=lambda s: numbers_in(s["cos_text"])[0],
        what="cos readout",
        drawn=lambda s: reading(s, 0),
        tol=0.0051,
    )
    out += disagreements(
        on,
        shown=lambda s: True,
        said=lambda s: numbers_in(s["sin_text"])[0],
        what="sin readout",
        drawn=lambda s: reading(s, 1),
        tol=0.0051,
    )
    proj = [s for s in on if s["projections_shown"]]
    out += disagreements(
        proj,
        shown=lambda s: True,
        said=lambda s: numbers_in(s["cos_text"])[0],
        what="cos segment",
        drawn=lambda s: (s["cos_end"][0] - s["center"][0]) / s["circle_radius"],
        tol=0.0051,
    )
    out += disagreements(
        proj,
        shown=lambda s: True,
        said=lambda s: numbers_in(s["sin_text"])[0],
        what="sin segment",
        drawn=lambda s: (s["sin_end"][1] - s["center"][1]) / s["circle_radius"],
        tol=0.0051,
    )
    out += disagreements(
        [s for s in on if numbers_in(s["deg_text"])[0] > 2],
        shown=lambda s: True,
        said=lambda s: numbers_in(s["deg_text"])[0],
        what="angle arc",
        drawn=lambda s: direction_deg(s["center"], s["arc_end"]) % 360,
        tol=0.51,
    )
    out += disagreements(
        samples,
        shown=lambda s: s["zero_on_screen"],
        said=lambda s: 0.0,
        what="the 0° label",
        drawn=lambda s: signed_gap_deg(0.0, pointer_deg(s)),
        tol=DEG_TOL,
    )
    return out


def test_unit_circle_readouts_equal_the_pointer():
    scene = narration_scene("unit_circle")
    samples = scene.probes["pointer"]
    on = [s for s in samples if s["readout_on_screen"]]
    assert len(on) > 200 and sum(s["projections_shown"] for s in on) > 100
    assert len({s["deg_text"] for s in on}) > 90  # the readouts really move
    assert unit_circle_disagreements(samples) == []
    # what they say is mathcore's tip
    for s in on[::7]:
        x, y = mathcore.pointer_tip(s["theta"])
        assert numbers_in(s["cos_text"])[0] == pytest.approx(x, abs=0.005)
        assert numbers_in(s["sin_text"])[0] == pytest.approx(y, abs=0.005)


def _turned(p, center, deg):
    a = np.radians(deg)
    v = np.asarray(p, dtype=float) - np.asarray(center, dtype=float)
    x, y = v[0] * np.cos(a) - v[1] * np.sin(a), v[0] * np.sin(a) + v[1] * np.cos(a)
    return [center[0] + x, center[1] + y, 0.0]


@pytest.mark.parametrize("what", ["pointer", "cos", "deg"])
def test_unit_circle_check_catches_a_perturbation(what):
    samples = copy.deepcopy(narration_scene("unit_circle").probes["pointer"])
    for s in samples:
        if what == "pointer":
            s["pointer_point"] = _turned(s["pointer_point"], s["center"], 2.0)
        elif what == "cos":
            s["cos_text"] = f"{numbers_in(s['cos_text'])[0] + 0.02:.2f}"
        else:
            s["deg_text"] = str(int(numbers_in(s["deg_text"])[0]) + 1)
    assert unit_circle_disagreements(samples)


# -- unit_circle / sweep: the subtitle names the points the readouts show at each stop (review 4 L3, review 9 K2) --
def sweep_point_mismatch(subtitle: str, samples: list[dict]) -> list[str]:
    """The points "(cos, sin)" the subtitle names, in order, against the readouts' values while the pointer rests
    at each stop: the same numbers, whatever the places ("0.5" in the words, "0.50" in the live readout)."""
    shown = [(_num(s["cos_text"]), _num(s["sin_text"])) for s in samples]
    said = [tuple(float(v.replace("−", "-")) for v in p) for p in re.findall(r"\((−?[0-9.]+), (−?[0-9.]+)\)", subtitle)]
    return [] if said == shown else [f"the subtitle names {said}, the readouts show {shown}"]


def plain_number(text: str) -> str:
    return text.split("=")[-1].strip()


def test_the_sweep_subtitle_writes_the_point_as_the_readouts_do():
    scene = narration_scene("unit_circle")
    sweep = scene.plan.cue("sweep")
    pointer = scene.probes["pointer"]
    rests = [
        at_frame(pointer, sweep.bookmarks["at150"] - 1),
        at_frame(pointer, sweep.bookmarks["at270"] - 1),
        at_frame(pointer, sweep.end_frame - 1),
    ]
    for s, deg in zip(rests, (30, 150, 270)):
        assert s["theta"] == pytest.approx(np.radians(deg), abs=1e-12) and s["readout_on_screen"]
    assert sweep_point_mismatch(sweep.text, rests) == []
    assert "(0.87, 0.5)" in sweep.text and plain_number(rests[0]["sin_text"]) == "0.50"  # spoken 零点五, drawn 0.50
    # 30° and 150° are as high as each other (the words: "一样高，只是到了左边")
    assert plain_number(rests[0]["sin_text"]) == plain_number(rests[1]["sin_text"])
    assert _num(rests[1]["cos_text"]) < 0 < _num(rests[0]["cos_text"])
    # seeded: the coordinates swapped, a sin one step off, the 150° point on the wrong side
    assert sweep_point_mismatch(sweep.text.replace("(0.87, 0.5)", "(0.5, 0.87)"), rests)
    assert sweep_point_mismatch(sweep.text.replace("(0.87, 0.5)", "(0.87, 0.51)"), rests)
    assert sweep_point_mismatch(sweep.text.replace("(−0.87, 0.5)", "(0.87, 0.5)"), rests)


def _num(text: str) -> float:
    """A readout's value ("cos θ = −0.87" → -0.87; the readouts write the minus as U+2212)."""
    return float(plain_number(text).replace("−", "-"))


# -- M6 (review 12): the readings' lines say which sides read negative ---------------------------------------
def rule_sign_faults(lines: list[str]) -> list[str]:
    """The cos line says right is positive and left negative; the sin line, up positive and down negative."""
    want = {"cos": ("右正", "左负"), "sin": ("上正", "下负")}
    out = []
    for name, words in want.items():
        line = next((t for t in lines if name in t), None)
        if line is None or not all(w in line for w in words):
            out.append(f"the {name} line {line!r} does not say {'、'.join(words)}")
    return out


def test_the_reading_lines_carry_a_sign(narrated_scene):
    (probe,) = narrated_scene("unit_circle").probes["rule"]
    assert rule_sign_faults(probe["lines"]) == []
    old = ["往右偏出：x = cos θ", "高出轮轴：y = sin θ", "逆时针算正"]  # seeded: the lines as review 12 found them
    assert len(rule_sign_faults(old)) == 2
