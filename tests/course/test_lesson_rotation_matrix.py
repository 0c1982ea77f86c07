"""Lesson 3 (rotation_matrix), the scenes with one or two checks each: order_entry, rotation_fidelity,
assertions_live, exercises, next_step; and the lesson as a viewer reads and hears it: every subtitle character
in the course font, nothing that refers to a document or a lesson the viewer has not seen, and the lesson read
as the third of one course. The lesson's other scenes have files of their own,
tests/course/test_scene_<scene_id>.py.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import mathcore
from coursekit.content.narration import load_course
from coursekit.core.config import load_config
from mathcore import checks
from mathcore import rotation_facts as rf
from mathcore.projection import additive_score, rope_score_after, seeded_head
from narration import figures
from narration.figures import fill
from tests.support.course_scenes import narration_scene
from tests.support.course_text import drawn_texts
from tests.support.scene_probes import bare, one, sci_in, shows_figure

TOL = 1e-6
FONT_FILE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FONT_NAME = "Noto Sans CJK SC"


@pytest.fixture(scope="module")
def scene_b():
    return narration_scene


# -- WhereOrderEnters --------------------------------------------------------------------------------
def test_where_order_enters_values(scene_b):
    scene = scene_b("order_entry")
    # K6 (review 11): lesson 2's raw index is not replayed here (no bars)
    assert "bars" not in scene.probes and "seat_big" not in scene.probes
    turn = [s for s in scene.probes["turn"] if s["on_screen"]]
    assert turn
    for s in turn:
        assert np.allclose(s["tip"], mathcore.rotate(s["v0"], s["phi"]), atol=TOL)
    assert one(scene, "length")["shown"] == "1.00"


def step_numbers(texts: list[str]) -> list[str]:
    """Lesson 2's step numbers of the attention pipeline (第三步 …) said or shown without the pipeline."""
    return [m for t in texts for m in re.findall(r"第[一二三四1-4]步", t)]


def test_order_entry_recalls_lessons_one_and_two_and_opens_a_third_door():
    """P1, M1, M4: lesson 1's blindness in one sentence with its condition (no third bag of words), lesson 2's
    raw index in one sentence, and RoPE as the third way in (change the score itself)."""
    scene = narration_scene("order_entry")
    said = {c.id.split(".")[-1]: c.text for c in scene.plan.cues}
    recall = one(scene, "recall")
    # the course-wide condition, on screen and in the voice
    assert recall["condition"] == ["每个词都能看到整句话", "又不加位置信息"]
    assert "每个词都能看到整句话、又不加位置信息" in said["recall"] and "第一课" in said["recall"]
    assert "分不出谁先谁后" in said["recall"] and bare(recall["then"]) == "注意力就分不出谁先谁后"
    for text in said.values():  # no bag of words re-run, no 狗咬人
        assert "狗咬人" not in text and "同一袋词" not in text and "softmax" not in text
    # K6 (review 11): no raw-index beat; the need opens from lesson 2's requirement 2, not seed 000 §1's chain
    assert "raw_index" not in said and said["need"].startswith("第一条路要加的 p，要满足第二课的第二条")
    doors = one(scene, "doors")
    assert doors["names"] == [["第一条路", "改输入"], ["第二条路", "改计算次序"], ["第三条路", "改打分"]]
    # K6 (review 9): RoPE's place in lesson 2's pipeline terms (its third step turns q, k), not seed 001's words
    # P4 (review 10): when RoPE acts, said in words of its own (q, k made, before the score), not by lesson 2's
    # step numbers; voice and screen agree
    assert "RoPE" in doors["third"][0] and doors["third"][1:] == ["q、k算好、打分之前", "才动手，x原样不动"]
    assert "等 q、k 算好、打分之前才动手，按座位转 q、k" in said["third_door"]
    assert step_numbers([*said.values(), *doors["third"]]) == []
    assert step_numbers(["它到第三步才动手，按座位转 q、k", "第三步才动手，"]) == [
        "第三步",
        "第三步",
    ]  # seeded: review 10's
    assert "RoPE" in said["third_door"] and "改打分" in said["third_door"] and "回到第一条路" in said["third_door"]
    # L4 (review 13): no bare 路一 (heard as 路易), voice or screen
    assert road_names_stiff([*said.values(), *(n for n, _ in doors["names"])]) == []
    assert road_names_stiff(["左边是路一，改输入", "路三"]) == ["左边是路一，改输入", "路三"]  # seeded: review 13
    # P3 (review 7): the voice names the roads in the order the screen numbers them, each with its screen name
    voice = said["two_doors"] + said["third_door"]
    assert roads_said(voice) == ["第一条路", "第二条路", "第三条路", "第一条路"]
    for name, what in doors["names"]:
        assert f"{name}，{what.replace('次序', '的次序')}" in voice
    assert door_labels_misdescribe(doors["taken"], doors["before"]) == []
    assert "旋转" in said["need"] and "长度读数一直是 1" in said["need"]
    assert seed_shaped(said) == []


def door_labels_misdescribe(taken: str, before: str) -> list[str]:
    """M5 (review 12): the labels under the doors say what each lesson covered: lesson 2 covered road 1 (x + p,
    the clock row), so road 1 is not new in lesson 3, and RoPE's door is lessons 1 and 2's end, not "前两课"."""
    out = []
    if "第二课" not in taken or not ("这一课" in taken or "本课" in taken):
        out.append("road 1")
    if "前两课" in before or "第一课" not in before or "第二课末尾" not in before:
        out.append("road 3")
    return out


def test_the_door_label_check_sees_the_old_labels():
    assert door_labels_misdescribe("这一课走这条", "前两课走这条") == ["road 1", "road 3"]  # seeded: review 12's M5


#: K6 (review 9): the clauses of seed 000 §1 / 001 §六 the roads' cues used to follow, in the seed's order
SEED_ROAD_CLAUSES = (
    r"先在 x 上记下",  # seed 001 §二's road 1
    r"词排成一队",  # seed 000 §1's road 2
    r"x 不碰.*打分之前先转",  # seed 001 §六's placement of RoPE
    r"只改方向",  # seed 000 §1's step to rotation
)


def seed_shaped(said: dict[str, str]) -> list[str]:
    return [p for p in SEED_ROAD_CLAUSES if any(re.search(p, t) for t in said.values())]


def roads_said(text: str) -> list[str]:
    """The roads in the order the voice names them, as 路一 … 路三 (第一条路 and 第一条 are the same road)."""
    return [f"第{m[1] or m[2]}条路" for m in re.finditer(r"路([一二三])|第([一二三])条", text)]


def road_names_stiff(texts: list[str]) -> list[str]:
    """The texts that name a road as 路一 … 路三 (L4, review 13: bookish, and 路一 is heard as 路易)."""
    return [t for t in texts if re.search(r"路[一二三]", t)]


def test_the_seed_shape_check_sees_the_old_roads():
    old = {
        "two_doors": "路一，改输入：词还没进注意力，先在 x 上记下它坐第几。路二，改计算的次序：词排成一队，挨个算。",
        "third_door": "路三，改打分：x 不碰，等 q、k 算出来，打分之前先转它们。",
        "need": "那就只改方向。看这支箭头，一路在转，长度一直是 1：旋转做得到。",
    }
    assert len(seed_shaped(old)) == 4


def test_the_road_order_check_sees_the_old_wording():
    # P3's seeded case: review 7's wording took road 2 first, then road 1, then road 3
    old = "先看第二条路：让词排成一队。第一条路在数据上动手。还有第三条：数据不动。这一课回到第一条。"
    assert (
        roads_said(old)
        == ["第二条路", "第一条路", "第三条路", "第一条路"]
        != ["第一条路", "第二条路", "第三条路", "第一条路"]
    )


#: K3, K5 (review 7): seed 000's coined headings and its two "ends" of a model, not the course's words
SEED_SLOGANS = (
    "把那排钟往前拨",
    "拨两下",
    "拨一下",
    "拨快",
    "往前拨的机器",
    "数据这边",
    "结构这边",
    "数据端",
    "结构端",
)


def seed_slogans(texts: list[str]) -> list[str]:
    return [t for t in texts if any(w in t for w in SEED_SLOGANS)]


def test_no_seed_slogan_in_voice_titles_or_screen(lesson):
    texts = [t for _, _, t in _cues(lesson)] + [lesson.title] + [s.title for s in lesson.scenes]
    shown = list(narration_scene("rot_opening").probes["roadmap"][0]["shown"])
    shown += [n for pair in one(narration_scene("order_entry"), "doors")["names"] for n in pair]
    from scenes import assertions_live, exercises, next_step

    shown += list(assertions_live.CLAIMS.values()) + [assertions_live.BUG_CLAIM]
    source = Path(exercises.__file__).read_text(encoding="utf-8") + Path(next_step.__file__).read_text(encoding="utf-8")
    assert seed_slogans(texts + shown) == []
    assert seed_slogans([source]) == []
    # the seeded case: review 7's wording
    old = ["旋转矩阵：把那排钟往前拨", "拨两下，等于拨一下", "$M_k$ 把指针拨快 $k$ 步", "数据这边"]
    assert seed_slogans(old) == old


#: L1 (review 8): in lessons 1–2 前 is the earlier seat (谁在前, k 在前); a later seat is 往后, so a word that
#: takes a reading m seats on must not say 往前
FORWARD_FOR_LATER = re.compile(r"往前[拨挪转]")


def forward_for_later(texts: list[str]) -> list[str]:
    return [t for t in texts if FORWARD_FOR_LATER.search(t)]


def test_no_text_of_the_course_says_forward_for_a_later_seat():
    from scenes import assertions_live

    course = load_course(load_config(None).lessons)
    texts = [f"{c.text}\n{c.say or ''}" for lesson in course.lessons for s in lesson.scenes for c in s.cues]
    texts += [lesson.title for lesson in course.lessons] + [s.title for lesson in course.lessons for s in lesson.scenes]
    shown = list(assertions_live.CLAIMS.values()) + [assertions_live.BUG_CLAIM]
    assert len(texts) > 150 and forward_for_later(texts + shown) == []
    assert "往后拨" in assertions_live.BUG_CLAIM
    # the seeded case: review 8's wording (gram_stripes.dot, assertions_live.bug and its screen line)
    old = ["PE(m) 是把 PE(0) 往前拨 m 步", "还当它是往前拨", "行向量左乘 $M_k$，当作往前拨"]
    assert forward_for_later(old) == old


@pytest.fixture(scope="module")
def scene_d():
    return narration_scene


# -- RotationFidelity ----------------------------------------------------------------------------
def test_rotation_fidelity_readings(scene_d):
    scene = scene_d("rotation_fidelity")
    for s in scene.probes["vector"]:
        assert np.allclose(s["tip"], mathcore.rotate(s["v0"], s["phi"]), atol=TOL)
    ortho = [s for s in scene.probes["orthogonal"] if s["on_screen"]]
    assert len(ortho) > 30 and len({round(s["theta"], 6) for s in ortho}) > 10  # shown while θ turns
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
    assert scene.probes["ccw"][0]["shown"] == "θ取正值：逆时针转"  # Text drops spaces
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
    said = scene.plan.cue("seat_number").text
    # P2 (review 6): only the new part; RoPE's q and k were set beside the readings once, in rot_opening
    assert "PE(n)" in said and "x 不转" in said and "RoPE" not in said and "RoPE" not in "".join(seat["seat"])
    # M4 (review 6): "只剩转动" follows from both conditions, said and shown after both
    assert only_rotation_problems(scene.plan.cue("det").text, scene.probes["mirror_words"][0]["shown"]) == []
    # the crossed-out shape is the mirror image of F: a reflection, orthogonal with determinant −1
    flip = np.linalg.lstsq(np.array(rf_f_shape()), np.array(scene.probes["mirror_words"][0]["mirror"]), rcond=None)[0]
    assert np.allclose(flip.T @ flip, np.eye(2)) and np.linalg.det(flip) == pytest.approx(-1.0)
    # P6 (review 4): lesson 1 built R(θ) and showed it keeps length; this lesson recalls it and asks why
    machine = scene.plan.cue("machine").text
    assert machine.startswith("第一课见过 R(θ)") and "不改长度" in machine and "为什么" in machine
    for cue in scene.plan.cues:
        assert "内积" not in cue.text


def rf_f_shape():
    from scenes.rotation_fidelity import F_SHAPE

    return F_SHAPE


def only_rotation_problems(said: str, shown: list[str]) -> list[str]:
    """M4 (review 6): "只剩转动" comes after both conditions, orthogonal and determinant +1, in the voice and on
    screen; det = +1 alone (a shear has it too) is not enough."""
    out = []
    for where, text in (("voice", said), ("screen", "".join(shown))):
        text = text.replace(" ", "")
        if "只剩转动" not in text:
            out.append(f"{where}: no 只剩转动")
            continue
        end = text.index("只剩转动")
        head = text[:end]
        if "正交" not in head:
            out.append(f"{where}: 只剩转动 without 正交 before it")
        if not ("行列式是正1" in head or "行列式+1" in head):
            out.append(f"{where}: 只剩转动 without 行列式 +1 before it")
        if "剪切" not in text[: end + 4] and where == "voice":
            out.append(f"{where}: shear not ruled out")
    return out


def test_only_rotation_check_catches_the_determinant_alone():
    old_said = (
        "它的行列式是正 1。行列式是面积放大的倍数，带正负号，负号就是翻成镜像；正 1 就是面积不变、也不翻面，只剩转动。"
    )
    assert only_rotation_problems(old_said, ["不会翻成镜像", "只剩转动"])


# -- AssertionsLive ------------------------------------------------------------------------------
def test_assertions_live_rows(scene_d):
    scene = scene_d("assertions_live")
    rows = scene.probes["row"]
    want = checks.lesson_assertions()
    assert [r["key"] for r in rows] == [a.key for a in want]
    eps = np.finfo(np.float64).eps
    for r, a in zip(rows, want):
        assert r["error"] == a.error and r["bound"] == a.bound and r["passed"] == a.passed
        assert r["bound"] == 100 * eps  # one bound for all: 100 ε
        near = a.error > a.bound / 2  # near its bound: 3 significant digits
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
        # named as the voice names it: 结论一 … 结论五 (K4: not 断言; the lexicon reads A1 … A5 that way)
        assert r["shown_key"] == f"结论{'一二三四五'[int(a.key[1]) - 1]}"
        assert scene.plan.cue(a.key.lower()).text.startswith(r["shown_key"])
    intro = scene.probes["intro"][0]
    assert intro["eps"] == eps and intro["heads"] == ["结论", "内容", "实测偏差", "约合几个ε", "通过"]
    for cue in scene.plan.cues:  # no source document, no "当场重算", no A-codes in the voice
        assert "讲义" not in cue.text and "当场" not in cue.text and not re.search(r"A\d", cue.text)
    assert str(checks.BOUND_IN_EPS) in scene.plan.cue("intro").text
    assert "机器精度 ε" in scene.plan.cue("intro").text  # ε was defined in rot_composition.sweep
    assert (
        "epsilon = 2.2 times 10^(-16)" in intro["shown_unit"]
        and "100 epsilon = 2.2 times 10^(-14)" in intro["shown_unit"]
    )
    assert "机器精度" in intro["shown_unit"] and "机器精度" in scene.plan.cue("intro").text  # ε is machine epsilon
    assert "舍入单位" not in intro["shown_unit"]
    # L3 (review 6): a double is a 双精度浮点数, not a 小数
    assert "双精度浮点数" in intro["shown_unit"] and "小数" not in intro["shown_unit"]
    verdict = scene.probes["verdict"][0]
    assert verdict["passed"] == sum(a.passed for a in want) and re.sub(r"\s", "", verdict["shown"]).startswith(
        f"{verdict['passed']}/5"
    )
    # M4 (review 13): the voice and the screen give the ε column's range (1 ε … 12 ε), not one power of ten
    in_eps = [a.error_in_eps for a in want]
    shown_range = re.search(r"偏差在(\d+)到(\d+)个ε之间", re.sub(r"\s", "", verdict["shown"]))
    assert shown_range and shown_range.groups() == (f"{min(in_eps):.0f}", f"{max(in_eps):.0f}"), verdict["shown"]
    assert "上下" not in verdict["shown"]
    assert "一到十几个 ε" in scene.plan.cue("verdict").text and round(min(in_eps)) == 1 and max(in_eps) < 20
    # the row of cue aN appears within that cue
    frames = {r["key"]: r["frame"] for r in rows}
    for a in want:
        c = scene.plan.cue(a.key.lower())
        assert frames[a.key] == c.start_frame


def test_the_row_bug_is_seen_failing_its_bound(scene_d):
    """P8, M5: the same check run on the row/column bug of shift_machine fails, as drawn and as said; and the
    verdict says once that a numerical check is not a proof."""
    scene = scene_d("assertions_live")
    bug = one(scene, "bug")
    eps = np.finfo(np.float64).eps
    assert bug["error"] == checks.a4_row_bug() and bug["bound"] == checks.BOUND == 100 * eps
    assert not bug["passed"] and bug["mark"] == "cross"  # drawn as a cross, like a failed row
    # the error as drawn is the figure the voice says; the ε column is its size in ε, two significant digits
    assert bug["shown_error"].strip("$ ") == figures.value("row_bug_err")
    assert figures.parse_figure(figures.value("row_bug_err")) == pytest.approx(bug["error"], abs=0.05)
    assert sci_in(bug["shown_eps"]) == figures.parse_figure(figures.fmt_sci(bug["error"] / eps))
    said = scene.plan.cue("bug").text
    assert figures.value("row_bug_err") in said and "十几个数量级" in said
    assert 10 <= np.log10(bug["error"] / bug["bound"]) < 20  # "十几个数量级" is true
    assert bug["frame"] < scene.plan.cue("bug").end_frame
    verdict = one(scene, "verdict")
    assert verdict["not_proof"].startswith("验算不是证明") and "验算不是证明" in scene.plan.cue("verdict").text


def test_a_row_mark_check_catches_a_wrong_mark():
    """The rows' rule (a tick exactly when the error is within the bound) on the real rows passes, and on a
    row seeded with the bug's error and a tick it fails."""

    def wrong_marks(rows):
        return [r["key"] for r in rows if (r["mark"] == "tick") != (r["error"] <= r["bound"])]

    scene = narration_scene("assertions_live")
    rows = scene.probes["row"] + scene.probes["bug"]
    assert wrong_marks([{**r, "key": r.get("key", "bug")} for r in rows]) == []
    seeded = {**scene.probes["row"][3], "error": checks.a4_row_bug()}  # A4 with the bug's error, still ticked
    assert wrong_marks([seeded]) == ["A4"]


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
    assert shown[0] == cue_pause_seconds(think)  # starts at the pause's whole seconds
    assert shown[-1] == 0  # 0 on the cue's last frame
    assert all(a >= b for a, b in zip(shown, shown[1:]))  # never counts up
    assert sorted(set(shown)) == list(range(0, shown[0] + 1))  # every whole second shown
    for f in range(speech_end, cue.end_frame):
        left = cue.end_frame - 1 - f
        assert samples[f]["seconds"] == -(-left // fps)  # ceil of the time left
        assert samples[f]["on_screen"]
    # during the speech the full pause is shown
    for f in range(cue.start_frame + fps // 2 + 1, speech_end):
        assert samples[f]["seconds"] == cue_pause_seconds(think)


def cue_pause_seconds(think: str) -> int:
    """The cue's ``pause:`` in narration/rotation_matrix.yaml."""
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config

    course = load_course(load_config(None).lessons)
    (cue,) = [c for c in course.scene("exercises").cues if c.short_id == think]
    return int(cue.pause)


def turn_order(said: str) -> list[str]:
    """The angles in the order a worked answer says it turns by them ("先转 X，再倒转 Y" → [X, Y])."""
    found = re.search(r"先(?:倒)?转 (\S+?θ)，再(?:倒)?转 (\S+?θ)", said)
    return list(found.groups()) if found else []


def test_turn_order_check_catches_the_reversed_reading():
    assert turn_order("右边的先来：先转 nθ，再倒转 mθ，合起来") == ["nθ", "mθ"]
    assert turn_order("R(mθ) 的转置是 R(−mθ)：先倒转 mθ，再转 nθ，合起来") == ["mθ", "nθ"]  # review 5's M2
    assert turn_order("合起来是 (n − m)θ") == []


def test_exercise_worked_values(scene_d):
    scene = scene_d("exercises")
    # ex1: R(mθ)ᵀ R(nθ) = R((n − m)θ), checked at one of lesson 1's pairs
    ex1 = one(scene, "ex1")
    m, n, th = ex1["m"], ex1["n"], ex1["theta"]
    assert (m, n) in figures.ROPE_PAIRS and th == pytest.approx(np.radians(figures.THETA_DEG))
    product = np.array(ex1["product"])
    assert np.allclose(product, mathcore.rotation(m * th).T @ mathcore.rotation(n * th), atol=0)
    assert np.allclose(product, mathcore.rotation((n - m) * th), atol=1e-15)
    assert ex1["error"] == rf.relative_turn_error(m * th, n * th) < 1e-15
    gap_deg = (n - m) * figures.THETA_DEG
    assert gap_deg == 90 and ex1["shown_matrix"] == [["0", "-1"], ["1", "0"]]  # R(90°), entries rounded
    assert f"R({gap_deg:g} degree)" in ex1["shown"][2] and sci_in(ex1["shown"][2]) == figures.parse_figure(
        figures.fmt_sci(ex1["error"])
    )
    assert "R(m theta)^T R(n theta) = R(-m theta) R(n theta) = R((n - m) theta)" in ex1["steps"][0]
    said = scene.plan.cue("ex1").text
    assert "R(θ) 的转置是 R(−θ)" in said and "R((n − m)θ)" in said and "第一课" in said
    # M2 (review 5): the answer reads R(−mθ)R(nθ)k the course's way, the right-hand factor first
    assert turn_order(scene.plan.cue("ex1_work").text) == ["nθ", "mθ"]
    # ex2 (P3, review 4): R(90°)⁴, worked in the head (turns add: 4 × 90° = 360°, so I) and multiplied out
    ex2 = one(scene, "ex2")
    turn, times = ex2["turn_deg"], ex2["times"]
    assert (turn, times) == (90.0, 4)
    power = np.linalg.matrix_power(mathcore.rotation(np.radians(turn)), times)
    assert np.array_equal(np.array(ex2["power"]), power) and np.allclose(power, np.eye(2), atol=1e-15)
    assert ex2["error"] == rf.identity_error(power)
    assert shows_figure(ex2["shown_error"], "r90_pow4_err") and ex2["shown_error"].endswith("（舍入误差）")
    assert ex2["shown_matrix"] == [["1", "0"], ["0", "1"]]
    assert f"times {times} = {turn * times:g}°" in ex2["steps"][0] and turn * times == 360
    assert f"R({turn:g}°)^{times} = R(360°) = I" in ex2["steps"][1]
    # the arrow drawn is the vector R(90°)^j (1, 0): a quarter turn per multiplication, back at (1, 0) after four
    vec = [s for s in scene.probes["ex2_vector"] if s["on_screen"]]
    assert vec
    for s in vec:
        assert np.allclose(s["tip"], mathcore.rotate(s["v0"], s["phi"]), atol=TOL)
    work = scene.plan.cue("ex2_work")
    during = [s for s in vec if work.start_frame <= s["frame"] < work.end_frame]
    for j in range(times + 1):  # it rests on every quarter, where R(90°)^j puts it
        want = np.linalg.matrix_power(mathcore.rotation(np.radians(turn)), j) @ np.array([1.0, 0.0])
        assert any(np.allclose(s["tip"], want, atol=TOL) for s in during), j
    last = during[-1]
    assert last["phi"] == pytest.approx(2 * np.pi) and np.allclose(last["tip"], [1, 0], atol=TOL)
    said = {c: scene.plan.cue(c).text for c in ("ex2", "ex2_work")}
    # K8 (review 11): the question asks how many quarter turns bring it home, not seed 000 §7's "连转 4 次"
    assert "90°" in said["ex2"] and "几回" in said["ex2"] and "4 次" not in said["ex2"]
    # the voice says the shown error's power of ten in words (superscripts are not read, nor in the font)
    exp = -round(np.log10(figures.parse_figure(figures.value("r90_pow4_err"))))
    assert "360°" in said["ex2_work"] and f"10 的负 {exp} 次方" in fill(said["ex2_work"])
    # P3: no third run of lesson 1's before/after pair; K3: no "小部件" the videos never showed
    for cue in scene.plan.cues:
        assert "小部件" not in cue.text and "rope_swap_score" not in cue.text and "sin φ" not in cue.text
    ex3 = scene.probes["ex3"][0]
    assert ex3["answer"].endswith(figures.value("pe_norm_d512"))
    norms = np.linalg.norm(mathcore.sinusoidal_pe(ex3["positions"], ex3["d"]), axis=1)
    assert np.allclose(ex3["norms"], norms) and np.allclose(norms, np.sqrt(ex3["d"] / 2))
    assert all(
        t.endswith(figures.value("pe_norm_d512") + ".00") or t.endswith(figures.fmt_fixed(v))
        for t, v in zip(ex3["shown"], norms)
    )
    assert f"= {figures.value('pe_norm_d512')}$" in ex3["note"]
    # 16 holds for d = 512 only: the voice says which d, as the screen does
    assert f"以 {ex3['d']} 维为例" in scene.plan.cue("ex3_work").text and f"$d = {ex3['d']}$" in ex3["note"]
    assert f"{ex3['d']}维时" in ex3["answer"]  # Text drops spaces
    # P8: the question asks what the answer gives (does it grow, does it touch the content), not "how much"
    ask = scene.plan.cue("ex3").text
    # K8 (review 11): it starts from the expansion on screen, the cross terms first, then the length
    assert ask.index("剩下两项") < ask.index("越来越大") and "多少" not in ask
    assert ex3["answer"].startswith("不会越排越大") and "交叉" in ex3["question"][0] and "长度" in ex3["question"][1]


def build(scene_id: str):
    return narration_scene(scene_id)


def test_next_step_ends_on_the_course_thread():
    """P4 (review 7): the lesson ends on the course's own thread (through_projections), not on rank; P2 (review 9):
    it ends on the link, with no question lesson 2's quiz 4 and through_projections have already answered."""
    scene = build("next_step")
    recap = scene.probes["recap"][0]
    assert [r[0] for r in recap["rows"]] == ["第一课", "第二课", "第三课"]
    for cue in scene.plan.cues:
        assert "下一课" not in cue.text and "接下来" not in cue.text
    # M2: the readings' distance-only dot product is not put beside RoPE's without the projections between
    link = scene.plan.cue("link").text
    assert "查询矩阵、键矩阵" in link and "保不住" in link and "最后才转" in link
    # P2 (review 6): the recap rows do not set RoPE's q, k beside the readings added to x a second time
    assert "RoPE" not in recap["rows"][0][1] and "加到" not in recap["rows"][1][1]
    assert "RoPE" not in scene.plan.cue("recap").text
    assert [re.sub(r"\s", "", r) for r in recap["root"]] == [
        "那排钟：读数的点积只看距离，过了$W_Q$、$W_K$就保不住",
        "RoPE：最后才转，位置的影响只看$n-m$：隔几个、谁在前",
    ]
    # P2 (review 9): the link closes the course; nothing asks the moved-sentence question again
    assert [c.id.split(".")[-1] for c in scene.plan.cues] == ["recap", "link"]
    assert reasked_moved_sentence([c.text for c in scene.plan.cues]) == []


def reasked_moved_sentence(texts: list[str]) -> list[str]:
    """A cue that asks again whether a score changes when the whole pair or sentence moves on (lesson 2's quiz 4,
    answered with numbers by through_projections.readings … close)."""
    return [t for t in texts if re.search(r"往后挪", t) and re.search(r"变不变|会变吗", t)]


def test_the_reasked_question_check_sees_the_old_closing_question():
    old = (
        "最后留一道题，这三课讲过的就够用了。把“猫追狗”整句往后挪 300 个位置：每两个词隔几个、谁在前，都没变。"
        "用 RoPE 打分，分数变不变？换成把那排钟的读数加到 x 上，再乘查询矩阵、键矩阵，又变不变？"
    )
    assert reasked_moved_sentence([old]) == [old]
    # and what it repeated: quiz 4 of lesson 2, and the premise through_projections showed with numbers
    quiz = load_course(load_config(None).lessons).lesson("word_order")
    q4 = next(c.text for s in quiz.scenes for c in s.cues if s.id == "word_order_quiz" and c.short_id == "q4")
    assert reasked_moved_sentence([q4]) == [q4]
    head = seeded_head()
    for m, n in ((0, 1), (0, 2), (1, 2)):
        assert rope_score_after(head, m + 300, n + 300) == pytest.approx(rope_score_after(head, m, n), abs=1e-9)
        assert abs(additive_score(head, m + 300, n + 300) - additive_score(head, m, n)) > 0.1


def test_assertions_are_recomputed_in_construct():
    import inspect

    from scenes.assertions_live import AssertionsLive

    src = inspect.getsource(AssertionsLive.construct)
    assert "checks.lesson_assertions()" in src


@pytest.fixture(scope="module")
def lesson():
    return load_course(load_config(None).lessons).lesson("rotation_matrix")


def _cues(lesson):
    for scene in lesson.scenes:
        for cue in scene.cues:
            yield scene, cue, re.sub(r"\{@\w+\}", "", fill(cue.text))


@pytest.fixture(scope="module")
def cmap():
    from fontTools.ttLib import TTCollection

    fonts = TTCollection(FONT_FILE).fonts
    (font,) = [f for f in fonts if f["name"].getDebugName(1) == FONT_NAME]
    return font.getBestCmap()


def test_every_subtitle_character_is_in_the_course_font(lesson, cmap):
    missing = {}
    texts = (
        [(f"{s.id}.{c.short_id}", t) for s, c, t in _cues(lesson)]
        + [("title", lesson.title)]
        + [(s.id, s.title) for s in lesson.scenes]
    )
    for where, text in texts:
        for ch in text:
            if ch.strip() and ord(ch) not in cmap:
                missing.setdefault(ch, where)
    assert not missing, f"characters the course font lacks (the player falls back to another font): {missing}"
    # the check would see them: ᵀ ₖ ⁻ are not in the font
    assert all(ord(ch) not in cmap for ch in "ᵀₖ⁻⁵⁶")


@pytest.mark.parametrize("word", ["讲义", "规矩照旧", "当场", "下一课", "L5", "学习器", "repro", "表针", "戴一块表"])
def test_nothing_points_at_an_unseen_document_or_lesson(lesson, word):
    hits = [f"{s.id}.{c.short_id}" for s, c, t in _cues(lesson) if word in t]
    hits += ["title"] if word in lesson.title else []
    assert not hits, f"{word!r} in {hits}"


def test_the_voice_never_reads_an_assertion_code(lesson):
    # A1 … A5 are 断言一 … 断言五 in the subtitles too, so the voice and the subtitle say the same
    hits = [f"{s.id}.{c.short_id}" for s, c, t in _cues(lesson) if re.search(r"\bA[1-5]\b", t)]
    assert not hits


def test_lesson_three_follows_lessons_one_and_two(lesson):
    text = {f"{s.id}.{c.short_id}": t for s, c, t in _cues(lesson)}
    # the bridge: RoPE turned q and k; here the readings PE(n) are the turned vectors, added to x
    assert "前两课" in text["rot_opening.question"] and "RoPE" in text["rot_opening.question"]
    assert "PE(n)" in text["rot_opening.question"] and "x" in text["rot_opening.question"]
    # order-blindness is recalled in a sentence, not replayed
    assert "第一课" in text["order_entry.recall"] and "第二课的第二条" in text["order_entry.need"]
    # the link to lesson 2's requirements (3: the same step; 2: comparable size)
    assert "第二课的第三条要求" in text["shift_machine.formula"]
    assert "第二课的第二条要求" in text["exercises.ex3_work"]
    # the ending ties the three lessons together and frames the low-rank question as outside the course
    assert "第一课" in text["next_step.recap"] and "第二课" in text["next_step.recap"]
    # the move named once and then used: lesson 1's proof, the stripes, RoPE after the projections
    move = "两支一起转，点积不变"
    assert [k for k, t in text.items() if move in t] == [
        "rotation_fidelity.inner",
        "gram_stripes.dot",
        "through_projections.why",
    ]
    assert "那一招" in text["through_projections.rope"] and "第一课" in text["rotation_fidelity.inner"]
    # the closing beat refers back to lesson 2's reason and to its long-context explanation, in a clause each
    assert "第二课" in text["through_projections.close"] and "没见过的角度" in text["through_projections.close"]


def rounding_recitals(texts: dict[str, str]) -> list[str]:
    """The cues whose voice says a deviation is 舍入误差."""
    return [where for where, text in texts.items() if "舍入误差" in text]


def _voice(lesson) -> dict[str, str]:
    return {c.id: t for _, c, t in _cues(lesson)}


def test_rounding_recitals_catch_a_recited_check(lesson):
    """Seeded: the gram beat as it was before, saying it again."""
    texts = _voice(lesson)
    texts["gram_stripes.stripes"] = texts["gram_stripes.stripes"].replace("也对得上", "偏差只是舍入误差")
    assert rounding_recitals(texts) == ["rot_composition.eps", "gram_stripes.stripes", "assertions_live.verdict"]


def test_checks_are_not_recited_and_words_follow_the_course(lesson):
    """P8, M5, K4, L4, L5: the voice says "舍入误差" twice in the lesson, where ε is explained and at the verdict
    of the five checks (issue 39: not recited at every check); "验算不是证明" once; 结论, not 断言; 这一课, not
    这节课; "n − m" and "d = 8" spaced; no "所有角度" for a sweep, no "最可靠"."""
    assert rounding_recitals(_voice(lesson)) == ["rot_composition.eps", "assertions_live.verdict"]
    texts = [t for _, _, t in _cues(lesson)] + [lesson.title] + [s.title for s in lesson.scenes]
    assert sum(t.count("验算不是证明") for t in texts) == 1
    for bad in ("断言", "这节课", "n−m", "d=8", "所有角度", "最可靠", "不用学", "一千组", "承重墙"):
        assert not [t for t in texts if bad in t], bad


def unsigned_distance_claims(texts: dict[str, str]) -> list[str]:
    """M1 (review 4): a sentence saying something depends "only on the distance" loses the order unless it is
    about the readings' own dot product or their Gram matrix (even in n − m). RoPE's score "只看 n − m" keeps
    the sign."""
    out = []
    for where, text in texts.items():
        for sentence in re.split(r"[。；;]", text):
            readings = any(w in sentence for w in ("读数", "Gram", "PE("))
            if re.search(r"只(看|跟|随|依赖)(相对)?距离(?! n − m)", sentence) and not readings:
                out.append(f"{where}: {sentence}")
    return out


def bare_score_claims(texts: dict[str, str]) -> list[str]:
    """M4 (review 11): a sentence saying the score only sees n − m without saying it is the positions' part
    (位置…影响) or the readings' dot product: the words' own vectors change the score too."""
    out = []
    for where, text in texts.items():
        for sentence in re.split(r"[。；;]", text):
            flat = re.sub(r"[\s$]", "", sentence)
            if re.search(r"只看(“)?n[−-]m", flat) and not re.search(r"位置.{0,4}影响|读数|Gram", flat):
                out.append(f"{where}: {sentence}")
    return out


def test_rope_only_n_minus_m_keeps_the_order(lesson):
    text = {f"{s.id}.{c.short_id}": t for s, c, t in _cues(lesson)}
    assert unsigned_distance_claims(text) == []
    assert "只看 n − m：隔几个、谁在前" in text["next_step.link"]
    for key in ("rotation_fidelity.inner", "through_projections.learn", "through_projections.close"):
        assert "只看 n − m" in text[key], key
    # on screen: the closing line of through_projections and the recap's RoPE row
    close = narration_scene("through_projections").probes["close"][0]["shown"]
    assert close == "旋转紧挨着点积，位置对分数的影响才能一直只看n−m"  # Text drops spaces (as the voice says it)
    # M4 (review 11): the score as a whole depends on the words too; what only sees n − m is the positions' share
    screens = {
        f"{sid} on screen: {t.text}": t.text
        for sid in ("rotation_fidelity", "through_projections", "exercises", "next_step")
        for t in drawn_texts(sid)
    }
    assert any("n - m" in k or "n − m" in k for k in screens)  # the recorder saw the claims
    assert bare_score_claims({**text, **screens}) == []
    assert bare_score_claims({"old voice": "RoPE 最后才转，分数才只看 n − m：隔几个、谁在前"})
    assert bare_score_claims({"old screen": "RoPE：最后才转，分数只看$n-m$：隔几个、谁在前"})
    assert bare_score_claims({"old close": "旋转紧挨着点积，“只看n−m”才能一直保留到分数里"})
    assert bare_score_claims({"old exercise 1": "只看 $n - m$"})
    # the check sees the old wording
    assert unsigned_distance_claims({"x": "第一课证明 RoPE 只看距离，靠的就是它"})
    assert unsigned_distance_claims({"x": "“只看距离”才保得到分数里"})


# -- review 9, P3: under "词向量 x 不转" no arrow named x turns; the pointer that turns is PE(n) -----------------
def seat_pe_problems(samples: list[dict]) -> list[str]:
    """While an arrow named x, y, Rx or Ry is on screen, θ does not change (x does not turn); the arrow that turns
    is labelled PE(n), points at n·step from its start, keeps its length, and the n readout shows the seat."""
    out = []
    for a, b in zip(samples, samples[1:]):
        if (a["xy_on"] or b["xy_on"]) and abs(b["theta"] - a["theta"]) > 1e-9:
            out.append(f"frame {b['frame']}: an arrow named x turns under 词向量 x 不转")
    for s in samples:
        if not s["pe_on"]:
            continue
        want = s["n"] * np.radians(s["step_deg"])
        if not np.allclose(s["tip"], mathcore.rotate(s["v0"], want), atol=1e-6):
            out.append(f"frame {s['frame']}: the pointer is not at n·step (n = {s['n']:g})")
        if "PE" not in s["pe_label"]:
            out.append(f"frame {s['frame']}: the turning pointer is labelled {s['pe_label']!r}")
        if s["n_text"] != str(int(np.floor(s["n"] + 1e-9))):
            out.append(f"frame {s['frame']}: n reads {s['n_text']}, the pointer is on seat {s['n']:g}")
    return out


def test_seat_number_turns_a_pe_pointer_not_x(scene_d):
    scene = scene_d("rotation_fidelity")
    cue = scene.plan.cue("seat_number")
    samples = [s for s in scene.probes["seat_pe"] if cue.start_frame <= s["frame"] < cue.end_frame]
    assert "词向量 x 不转" in cue.text and "固定角度" in cue.text
    assert len({s["n"] for s in samples if s["pe_on"]}) > 4  # it steps seat by seat, on screen
    assert samples[-1]["n"] == scene.PE_SEATS and not samples[-1]["xy_on"]
    assert seat_pe_problems(samples) == []
    # seeded: the old drawing (the x, y pair turning on by 220° under the line) and a pointer named x
    old = [{**s, "xy_on": True, "pe_on": False, "theta": s["frame"] * 0.01} for s in samples]
    assert seat_pe_problems(old)
    assert seat_pe_problems([{**s, "pe_label": "$x$"} for s in samples])
    assert seat_pe_problems([{**s, "n": s["n"] + 1} for s in samples if s["pe_on"]])


# -- P4 (review 12): the length 16 is worked from the hands: d/2 hands, each 1, sum d/2, root ------------------
def norm_steps_skipped(said: str, d: int) -> list[str]:
    """The steps from "sin² + cos² = 1" to the length that the voice leaves out, for a d-dimension reading."""
    hands, total = d // 2, d // 2
    out = []
    if f"{hands} 根指针" not in said:
        out.append("how many hands")
    if f"加起来是 {total}" not in said:
        out.append("the sum of squares")
    if "开根号" not in said and "根号" not in said:
        out.append("the root")
    return out


def test_the_norm_is_worked_step_by_step(scene_d):
    scene = scene_d("exercises")
    ex3 = scene.probes["ex3"][0]
    pe = mathcore.sinusoidal_pe(ex3["positions"], ex3["d"])
    assert np.allclose(np.sum(pe**2, axis=1), ex3["d"] // 2)  # the sum the voice says, at every shown seat
    assert norm_steps_skipped(scene.plan.cue("ex3_work").text, ex3["d"]) == []
    old = "以 512 维为例，每根指针的 sin 平方加 cos 平方总是 1，不管在哪个位置，长度都是 16。"  # seeded
    assert norm_steps_skipped(old, ex3["d"]) == ["how many hands", "the sum of squares", "the root"]


# -- L6 (review 12): exercise 1's subtitle and voice say the same thing, the voice reading the formulas ----------
def voice_vs_subtitle(text: str, say: str) -> list[str]:
    """The parts of a cue's subtitle the voice does not say: the subtitle with each R(…) written as the voice
    reads it ("R(−mθ)" → "R 负 mθ", "R((n − m)θ)" → "R (n − m)θ"; lesson 1's R(θ) the lexicon reads) must be the
    voice's words, piece by piece between the sentence marks."""
    import re as _re

    def spoken(t: str) -> str:
        t = t.replace("R(θ)", "Rθ")
        t = _re.sub(r"R\(\((.+?)\)θ\)", r"R (\1)θ", t)
        t = _re.sub(r"R\(−(.+?)\)", r"R 负 \1", t)
        t = _re.sub(r"R\((.+?)\)", r"R \1", t)
        return t.replace("Rθ", "R(θ)")

    pieces = [p for p in _re.split(r"[。：，；]", spoken(text)) if p]
    said = [p for p in _re.split(r"[。：，；]", say) if p]
    return [p for p in pieces if p not in said] + [p for p in said if p not in pieces]


def test_exercise_one_voice_reads_its_subtitle():
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config

    lesson = load_course(load_config(None).lessons).lesson("rotation_matrix")
    cues = {c.id.split(".")[-1]: c for sc in lesson.scenes for c in sc.cues}
    for cid in ("ex1", "ex1_work"):
        assert voice_vs_subtitle(cues[cid].text, cues[cid].say) == [], cid
    old_text = "练习一：R(θ) 的转置是 R(−θ)。证明 R(mθ) 的转置乘 R(nθ)，等于 R((n − m)θ)。"  # seeded: review 12's L6
    old_say = "练习一：转 θ 的矩阵，转置以后就是倒转 θ。证明：先转 nθ、再倒转 mθ，就是一次转 (n − m)θ。"
    assert voice_vs_subtitle(old_text, old_say)


# -- L4 (review 12): the takeaway adds the angle ω·k, not "the k" ------------------------------------------------
def takeaway_confuses_steps(said: str) -> bool:
    return "k 补上" in said or "ω 的 k 倍" not in said  # "乘 k" is heard as 乘开 (review 6, L2)


def test_the_takeaway_adds_an_angle():
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config

    lesson = load_course(load_config(None).lessons).lesson("rotation_matrix")
    [said] = [c.text for sc in lesson.scenes for c in sc.cues if c.id == "rot_composition.takeaway"]
    assert not takeaway_confuses_steps(said)
    assert takeaway_confuses_steps("每根指针先转到位置 n 的角度，再把多出来的 k 补上")  # seeded: review 12's L4


# -- review 13: M1, L2, M4, L3 (lesson 3's wording against its own screens) ------------------------------------
def _cue_text(scene_id: str, cue_id: str) -> str:
    lesson = load_course(load_config(None).lessons).lesson("rotation_matrix")
    return next(
        c.text
        for s in lesson.scenes
        if s.id.split(".")[-1] == scene_id
        for c in s.cues
        if c.id.split(".")[-1] == cue_id
    )


def wrong_layout_called_right(texts: list[str]) -> list[str]:
    """M1 (review 13): the texts that call both layouts right (PE(n)ᵀ M_k lands k seats back, it only looks right),
    or do not say that one of them goes back."""
    return [t for t in texts if "都对" in t or "往回" not in t]


def block_turns_back_yet_forward(machine: str) -> bool:
    """L2 (review 13): the machine cue says the block turns back and the hands still go forward (it sounds like a
    contradiction); it must say that to go forward, each block is written as the backward turn."""
    return "照样往前" in machine or "成了倒转" in machine or not re.search(r"往前.*每一块.*倒转", machine)


def test_review_13_shift_machine_wording():
    from scenes import shift_machine

    lesson, machine = _cue_text("shift_machine", "lesson"), _cue_text("shift_machine", "machine")
    src = Path(shift_machine.__file__).read_text(encoding="utf-8")
    shown = re.search(r'body_text\("(两种写法[^"]*)"', src)[1]
    assert wrong_layout_called_right([lesson, shown]) == []
    old = ["两种写法，纸面上都对；是指针往回走，才看出错来。", "两种写法纸面上都对：指针往回走，才看出错"]
    assert wrong_layout_called_right(old) == old  # seeded: review 13's M1
    assert not block_turns_back_yet_forward(machine)
    assert block_turns_back_yet_forward("照第二课先 sin 的排法，同一块就成了倒转，指针照样往前走。")  # seeded: L2


def test_review_13_error_sizes_match_the_screens():
    """M4 (review 13): rotation_fidelity.norm says A2's error is about ten times A1's (the screen shows both), and
    assertions_live.verdict says the errors run from 1 to a dozen-odd ε (its ε column), not "10⁻¹⁵ 上下"."""
    a1, a2 = checks.a1_orthogonality(), checks.a2_preservation()
    norm, verdict = _cue_text("rotation_fidelity", "norm"), _cue_text("assertions_live", "verdict")
    assert "十来倍" in norm and "一样小" not in norm and 10 <= a2 / a1 < 20
    in_eps = [a.error_in_eps for a in checks.lesson_assertions()]
    assert "一到十几个 ε" in verdict and "上下" not in verdict
    assert round(min(in_eps), 1) == 1.0 and 10 <= max(in_eps) < 20
    old = "五条都通过，偏差都在 10 的负 15 次方上下，只是舍入误差。"
    assert "上下" in old and not 10**-16 <= max(a.error for a in checks.lesson_assertions()) <= 10**-15  # seeded


def test_review_13_bug_claim_says_which_side():
    """L3 (review 13): the wrong product on screen is written out, PE(n)ᵀ M_k, with no 左乘/右乘."""
    from scenes import assertions_live

    claim = assertions_live.BUG_CLAIM
    assert not re.search(r"[左右]乘", claim)
    assert re.search(r'"PE"\(n\)\^T M_k', claim)  # the row vector written on the left
    assert re.search(r"[左右]乘", "行向量左乘 $M_k$，当作往后拨")  # seeded: review 13's L3
