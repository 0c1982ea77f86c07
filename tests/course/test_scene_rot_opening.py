"""rot_opening (rotation_matrix, class RotOpening): lesson 3's opening: the RoPE panel turns q and k by their
seats, the clock panel and its shared speeds, the plan and the spin.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import re

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
    end = scene.plan.cue("question").end_frame
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
    end = [s for s in clocks if s["frame"] <= scene.plan.cue("question").end_frame][-1]
    assert end["p"] == scene.CLOCK_TO and end["n_shown"] == str(scene.CLOCK_TO)
    # the one formula both uses share: ω_i = 10000^(−2i/d), mathcore's speeds
    assert "omega_i = 10000^(-2i slash d)" in scene.probes["shared"][0]["shown"]
    assert np.allclose(w, 10000.0 ** (-2 * np.arange(scene.D // 2) / scene.D))
    # the bridge, in the voice: RoPE turned q and k; this lesson turns the readings PE(n), added to x; one
    # cue that ends on the lesson's question (P2, review 6: title and question no longer say it twice)
    said = scene.plan.cue("question").text
    assert "RoPE" in said and "q" in said and "PE(n)" in said and "x" in said and "同一个公式" in said
    assert said.endswith("这排读数，凭什么好用？") and [c.id.split(".")[-1] for c in scene.plan.cues] == [
        "question",
        "plan",
    ]
    assert "同一个公式" in scene.probes["shared"][0]["shown"] and "同一排" not in scene.probes["shared"][0]["shown"]


def contrast_cues(cues) -> list[str]:
    """The cues that put the two uses side by side: RoPE turning q and k, and the readings added to x."""
    out = []
    for cid, text in cues:
        rope = "RoPE" in text and re.search(r"转(的是)? ?q", text)
        clocks = re.search(r"(加到|加在)[^。]*(x|词向量)", text) or ("x 不转" in text and "PE(n)" in text)
        if rope and clocks:
            out.append(cid)
    return out


def test_lesson_three_puts_rope_beside_the_clock_row_once():
    """P2 (review 6): the "RoPE turns q, k / the readings are added to x" contrast, once in lesson 3."""
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config

    lesson = load_course(load_config(None).lessons).lesson("rotation_matrix")
    cues = [(f"{sc.id}.{c.id.split('.')[-1]}", c.text) for sc in lesson.scenes for c in sc.cues]
    assert contrast_cues(cues) == ["rot_opening.question"]
    # seeded: the old wording of rotation_fidelity.seat_number and next_step.recap, each a second telling
    old = [
        (
            "seat_number",
            "这一课被转的，是钟的读数 PE(n)，词向量 x 不转：往后挪一个位置，每根指针多转一个固定角度，读数长度不变。"
            "RoPE 转的是 q 和 k：两者转的角度不同，同一对 q、k 的点积，只随角度差变。",
        ),
        (
            "recap",
            "三课连起来看。第一课：sin 和 cos 是指针的坐标，RoPE 按位置转 q 和 k。第二课：位置要写进向量，"
            "原论文把一排钟的读数加到词向量上。",
        ),
    ]
    assert contrast_cues(old) == ["seat_number", "recap"]


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
