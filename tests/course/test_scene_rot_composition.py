"""rot_composition (lesson 3 §3, class RotComposition): what it draws equals mathcore, and its labels equal the
drawing.

- the table: one cell per angle pair (row α, column β), coloured by |R(α)R(β) − R(α+β)| in units of ε, as
  :func:`mathcore.rotation_facts.composition_errors` gives it;
- the sweep: the counter "已比较 N / 5184 对" is the number of cells the drawn curtain has uncovered, and "目前
  最大偏差" is the largest error among exactly those cells;
- the recall (lesson 1's 25° then 40° = 65°, one line), A3 as measured (the full turn included), ε named.

Each check returns its disagreements, so perturbed samples (the curtain moved, a label changed) must give some.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from manim import ManimColor, interpolate_color

from mathcore import checks
from mathcore.rotation_facts import composition_errors
from narration import figures
from tests.support.course_scenes import narration_scene
from tests.support.scene_probes import sci_in


@pytest.fixture(scope="module")
def scene():
    return narration_scene("rot_composition")


def uncovered(s: dict, table: dict) -> np.ndarray:
    """Mask (row-major, n × n) of the cells whose centres no opaque curtain box covers, from the boxes' drawn edges."""
    n = len(table["angles"])
    cell, top, left = table["cell"], table["top"], table["left"]
    ys = top - (np.arange(n) + 0.5) * cell
    xs = left + (np.arange(n) + 0.5) * cell
    open_ = np.ones((n, n), dtype=bool)
    for name in ("rest", "below"):
        l, r, b, t, opacity = s[name]
        if opacity <= 0 or not s["curtain_on_screen"]:
            continue
        rows = (ys >= b - 1e-9) & (ys <= t + 1e-9)
        cols = (xs >= l - 1e-9) & (xs <= r + 1e-9)
        open_[np.ix_(rows, cols)] = False
    return open_


def sweep_disagreements(samples, table: dict) -> list[str]:
    """The counter equals the cells uncovered (and they are the first N in reading order); the running maximum
    equals the largest error among them (one decimal, in ε)."""
    out = []
    values = np.array(table["values"])
    for s in samples:
        if not (s["on_screen"] and s["curtain_on_screen"]):
            continue
        mask = uncovered(s, table)
        shown = int(s["count_shown"])
        if mask.sum() != shown:
            out.append(f"frame {s['frame']}: the counter says {shown}, the curtain uncovers {mask.sum()} cells")
            continue
        if not mask.ravel()[:shown].all():
            out.append(f"frame {s['frame']}: the uncovered cells are not the first {shown} pairs")
        if s["worst_on_screen"]:
            want = values[mask].max() if shown else 0.0
            said = float(s["worst_shown"].rstrip(" ε"))
            if not abs(said - want) <= 0.05 + 1e-9:
                out.append(
                    f"frame {s['frame']}: the largest error says {said:g} ε, the uncovered cells reach {want:.3f} ε"
                )
    return out


def test_the_table_is_every_pair_of_angles_in_its_own_colour(scene):
    table = scene.probes["table"][0]
    angles, err = composition_errors()
    assert np.allclose(table["angles"], angles) and np.array_equal(np.degrees(angles).round(), np.arange(0, 360, 5))
    assert np.array_equal(np.array(angles), checks.ANGLES_360[::5])  # A3's own angle set
    assert np.allclose(table["values"], err / checks.EPS, atol=0)
    assert len(table["colors"]) == err.size == int(figures.value("a3_pairs"))
    lo, hi = ManimColor(table["low"]), ManimColor(table["high"])
    for v, c in zip(np.ravel(table["values"]), table["colors"]):
        assert c == interpolate_color(lo, hi, float(np.clip(v / table["vmax"], 0, 1))).to_hex()
    from collections import Counter

    assert table["drawn"] == dict(Counter(table["colors"]))  # every cell drawn once
    assert max(np.ravel(table["values"])) <= table["vmax"]  # nothing clipped


def test_the_counter_and_the_running_maximum_equal_the_uncovered_cells(scene):
    table = scene.probes["table"][0]
    samples = scene.probes["sweep"]
    live = [s for s in samples if s["on_screen"] and s["curtain_on_screen"]]
    assert len(live) > 40 and len({s["count_shown"] for s in live}) > 30  # it really counts up
    assert sweep_disagreements(samples, table) == []
    last = [s for s in samples if s["on_screen"]][-1]
    assert last["count_shown"] == figures.value("a3_pairs")  # every pair compared
    assert float(last["worst_shown"].rstrip(" ε")) == pytest.approx(
        composition_errors()[1].max() / checks.EPS, abs=0.05
    )


def test_the_sweep_checks_catch_a_wrong_curtain_or_label(scene):
    table = scene.probes["table"][0]
    mid = [x for x in scene.probes["sweep"] if x["on_screen"] and x["curtain_on_screen"] and 100 < x["count"] < 5000]
    s = copy.deepcopy(mid[len(mid) // 2])
    assert sweep_disagreements([s], table) == []
    bad = copy.deepcopy(s)
    bad["count_shown"] = str(int(bad["count_shown"]) + 72)  # one row ahead
    assert sweep_disagreements([bad], table)
    bad = copy.deepcopy(s)
    bad["below"][3] -= table["cell"]  # the curtain a row too low
    assert sweep_disagreements([bad], table)
    bad = copy.deepcopy(s)
    bad["worst_shown"] = f"{float(bad['worst_shown'].rstrip(' ε')) + 0.5:.1f} ε"
    assert sweep_disagreements([bad], table)


def test_recall_a3_and_what_is_new(scene):
    plan = scene.plan
    # recall: lesson 1's 25° then 40° = 65°, one line on screen, not animated again
    recall = plan.cue("recall").text
    assert "25°" in recall and "40°" in recall and "65°" in recall
    # P6 (review 9): the sweep's step (每隔 5°) is said once, by the sweep, not also at the end of the recall
    assert step_said_twice(recall, plan.cue("sweep").text) == []
    assert scene.probes["recall"][0]["shown"].strip("$ ") == "R(40°) R(25°) = R(65°)"
    # A3 as measured (the full turn included), and the number of pairs the voice gives
    a3 = scene.probes["a3"][0]
    assert a3["error"] == checks.a3_composition() and a3["pairs"] == int(figures.value("a3_pairs"))
    assert "1.0 times 10^(-15)" in a3["shown"] and figures.value("a3_err") == "1.0×10⁻¹⁵"
    sweep, eps_said = plan.cue("sweep").text, plan.cue("eps").text
    # L4 (review 4): ordered pairs (两两组合 would be C(72, 2) = 2556); P4 (review 6): the voice says what is
    # compared and how many, the counting rule (both orders, an angle with itself) is on screen only
    n = len(np.arange(0.0, 360.0, scene.STEP_DEG))
    assert figures.value("a3_angles") == str(n) and n * n == int(figures.value("a3_pairs"))
    assert f"得到 {n} 个" in sweep and f"一共 {figures.value('a3_pairs')} 对" in sweep and "转满一圈" in sweep
    rule = a3["pair_rule"]
    assert "算两对" in rule and "也算一对" in rule
    assert "先后不同算两对" not in sweep and "和自己也算" not in sweep
    assert "两两" not in sweep and "两两" not in scene.probes["recall"][0]["now"]
    assert scene.probes["recall"][0]["now"] == f"现在：每隔{scene.STEP_DEG:g}°一个角，α、β各取一遍"  # Text drops spaces
    # ε is named in its own cue, right after the sweep, and not in the sweep's (P4)
    assert "ε" not in sweep and "ε" in eps_said and "机器精度" in eps_said
    assert eps_wording_problems(eps_said, a3["eps_note"]) == []
    assert (
        sci_in(a3["eps_note"])
        == figures.parse_figure(figures.fmt_sci(checks.EPS))
        == pytest.approx(np.nextafter(1.0, 2.0) - 1.0, rel=0.01)
    )
    # what is new, not lesson 1 again: no R(90°)(1, 0), no full-turn cue, no R(α)R(β) = R(α+β) takeaway
    assert [c.id.split(".")[-1] for c in plan.cues] == ["recall", "sweep", "eps", "takeaway"]
    assert all("R(90°)" not in c.text and "单位矩阵" not in c.text for c in plan.cues)
    assert "乘法变成了加法" not in plan.cue("takeaway").text


def eps_wording_problems(said: str, shown: str) -> list[str]:
    """L3 (review 5, 6): ε is the gap between 1 and the next number a double can hold, said with its leading
    digits; the entries are bounded in size (absolute value), not "不大于 1"; no "小数" (decimal fraction)."""
    out = []
    eps = f"{figures.value('eps_mant')} 乘 10 的负 {figures.value('eps_exp')} 次方"
    for want in ("紧挨着 1、能存下的下一个数", "双精度浮点数", "绝对值都不超过 1", eps):
        if want not in said:
            out.append(f"the voice does not say {want!r}")
    # L3 (review 9): the qualifier (双精度) comes before the number it qualifies, not after it
    if "双精度" in said and eps in said and said.index("双精度") > said.index(eps):
        out.append("双精度 is said after the number it qualifies")
    for wrong in ("小数", "不大于 1", "极限", "的差"):  # 的差: a noun chā the voice reads chà (review 8, L2)
        if wrong in said or wrong in shown:
            out.append(f"{wrong!r} is said or shown")
    if "下一个能存下的数" not in shown or "双精度浮点数" not in shown:
        out.append("the screen does not say what ε is")
    return out


def test_the_eps_wording_check_catches_the_old_words():
    old_said = (
        "图上的 ε 叫机器精度，是 1 附近两个相邻小数的间距，约 2.2 乘 10 的负 16 次方。矩阵里的数都不大于 1，"
        "最大偏差只有几个 ε，只是舍入误差。"
    )
    old_shown = "$epsilon$：1 附近相邻小数的间距，\\ 约 $2.2 times 10^(-16)$"
    assert len(eps_wording_problems(old_said, old_shown)) >= 5
    review7 = (
        "偏差的单位是 ε，叫机器精度：计算机能存下的、紧挨着 1 的下一个数，和 1 的差，约 2.2 乘 10 的负 16 次方，"
        "这里用的是双精度浮点数。矩阵里的数，绝对值都不超过 1。"
    )
    assert "'的差' is said or shown" in eps_wording_problems(review7, "下一个能存下的数（双精度浮点数）")
    review9 = (  # L3 (review 9): the long subject, the number, and only then 这里用的是双精度
        "偏差的单位是 ε，叫机器精度：计算机能存下的、紧挨着 1 的下一个数，比 1 多出约 2.2 乘 10 的负 16 次方，"
        "多出的这一点就是 ε。这里用的是双精度浮点数。矩阵里的数，绝对值都不超过 1。"
    )
    assert "双精度 is said after the number it qualifies" in eps_wording_problems(
        review9, "下一个能存下的数（双精度浮点数）"
    )


def step_said_twice(recall: str, sweep: str) -> list[str]:
    return [w for w in ("每隔",) if w in recall and w in sweep]


def test_the_step_check_sees_the_old_recall():
    old = "第一课试过一组角：先转 25°，再转 40°，等于一次转 65°。现在让机器每隔 5° 扫一遍，看有没有哪里写错。"
    assert step_said_twice(old, "这回每隔 5° 取一个角，得到 72 个。") == ["每隔"]
