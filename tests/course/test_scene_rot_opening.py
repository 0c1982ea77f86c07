"""rot_opening (rotation_matrix, class RotOpening): lesson 3's opening: the RoPE panel turns q and k by their
seats, the clock panel and its shared speeds, the plan and the spin.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import numpy as np

import mathcore
from narration import figures
from tests.support.course_scenes import narration_scene
from tests.support.scene_probes import bare, wrap

TOL = 1e-6


def build(scene_id: str):
    return narration_scene(scene_id)


# -- RotOpening (lesson 3) ---------------------------------------------------------------
def rot_opening_rope_disagreements(samples, theta: float) -> list[str]:
    """The RoPE panel: each arrow is drawn at R(φ) v0, and at rest it has turned by (seat × θ) for the seat
    its label gives ("q 在位置 2：转 2θ")."""
    import re

    out = []
    for s in samples:
        for name in ("q", "k"):
            a = s[name]
            if not np.allclose(a["tip"], mathcore.rotate(a["v0"], a["phi"]), atol=TOL):
                out.append(f"frame {s['frame']}: {name} drawn off R(φ) v0")
    last = samples[-1]
    for name, code in zip(("q", "k"), last["rule"]):
        seat, turns = (int(x) for x in re.findall(r"\$(\d+)(?: theta)?\$", code))
        if seat != turns or not abs(last[name]["phi"] - seat * theta) <= 1e-9:
            out.append(
                f"{name}: the label says seat {seat} (turns {turns}θ), the arrow turned {last[name]['phi']:g} rad"
            )
    return out


def test_rot_opening_rope_panel_turns_q_and_k_by_their_seats():
    import copy

    scene = build("rot_opening")
    theta = np.radians(figures.THETA_DEG)
    end = scene.plan.cue("title").end_frame
    samples = [s for s in scene.probes["rope"] if s["frame"] <= end and s["on_screen"]]
    assert len(samples) > 20
    assert rot_opening_rope_disagreements(samples, theta) == []
    bad = copy.deepcopy(samples)
    bad[-1]["rule"][0] = bad[-1]["rule"][0].replace("2", "3")  # the label names another seat
    assert rot_opening_rope_disagreements(bad, theta)
    bad = copy.deepcopy(samples)
    bad[-1]["k"]["phi"] += theta  # k turned one step too far
    assert rot_opening_rope_disagreements(bad, theta)


def test_rot_opening_clock_panel_and_shared_speeds():
    scene = build("rot_opening")
    w = mathcore.frequencies(scene.D)
    clocks = scene.probes["clocks"]
    for s in clocks:
        assert np.allclose(s["w"], w)
        assert np.all(np.abs(wrap(np.array(s["hand_angles"]) - s["p"] * w)) <= TOL)
        if s["n_on_screen"] and abs(s["p"] - round(s["p"])) < 1e-9:
            assert s["n_shown"] == str(round(s["p"]))
    end = [s for s in clocks if s["frame"] <= scene.plan.cue("title").end_frame][-1]
    assert end["p"] == scene.CLOCK_TO and end["n_shown"] == str(scene.CLOCK_TO)
    # the one formula both uses share: ω_i = 10000^(−2i/d), mathcore's speeds
    assert "omega_i = 10000^(-2i slash d)" in scene.probes["shared"][0]["shown"]
    assert np.allclose(w, 10000.0 ** (-2 * np.arange(scene.D // 2) / scene.D))
    # the bridge, in the voice: RoPE turned q and k; this lesson turns the readings PE(n), added to x
    title = scene.plan.cue("title").text
    assert "RoPE" in title and "q" in title and "PE(n)" in title and "x" in title
    assert "同一个公式" in scene.plan.cue("question").text


def test_rot_opening_plan_and_spin():
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config

    scene = build("rot_opening")
    lesson = load_course(load_config(None).lessons).lesson("rotation_matrix")
    assert scene.probes["title"][0]["shown"] == bare(lesson.title)  # the lesson's title, from its plan
    roadmap = scene.probes["roadmap"][0]["shown"]
    assert len(roadmap) == len(scene.ROADMAP) + 1 and roadmap[-1] == "".join(scene.RULE.split())
    # each conclusion is derived and then computed (M5: a check is not the strongest guarantee), as said
    plan = scene.plan.cue("plan").text
    assert "先推出来，再让机器算一遍" in plan and "先推出来，再让机器算一遍" in roadmap[-1] and "照旧" not in plan
    # the roadmap ends on the new last stage, back to the score (through_projections), as the voice says
    assert "回到打分" in roadmap[-2] and "回到打分" in plan
    spin = [s for s in scene.probes["spin"] if s["on_screen"]]
    assert len(spin) > 20 and max(s["phi"] for s in spin) > np.pi
    for s in spin:
        assert np.allclose(s["tip"], mathcore.rotate(s["v0"], s["phi"]), atol=TOL)
