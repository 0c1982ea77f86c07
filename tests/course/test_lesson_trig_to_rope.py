"""Lesson 1 (trig_to_rope), the scenes with one or two checks each: trig_opening (sin 30° and the pointer, and a
roadmap row for every scene of the lesson), attention_blind (the outputs only permute), summary_table (its rows
appear with their cues). The lesson's other scenes have files of their own,
tests/course/test_scene_<scene_id>.py.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import mathcore
from coursekit.content.cue_text import strip_bookmarks
from mathcore.toy_words import attention_scores, attention_weights, word_vectors
from narration import figures
from tests.support.course_scenes import narration_scene
from tests.support.course_text import course
from tests.support.scene_probes import bare, one

TOL = 1e-6


def build(scene_id: str):
    return narration_scene(scene_id)


# -- LessonOpening ----------------------------------------------------------------------
def test_trig_opening_sin30_and_pointer():
    scene = build("trig_opening")
    s = scene.probes["sin30"][0]
    assert s["value"] == pytest.approx(mathcore.pointer_tip(np.radians(30.0))[1], abs=TOL)
    assert s["shown"] == figures.value("sin30")
    assert float(s["shown"]) == pytest.approx(s["value"], abs=0.005)
    samples = scene.probes["pointer"]
    assert len(samples) > 30
    for t in samples:
        assert np.allclose(t["tip"], mathcore.rotate(t["v0"], t["phi"]), atol=TOL)
    assert max(t["phi"] for t in samples) > 2 * np.pi  # the pointer really turns during the plan


# the stage of the trig_opening roadmap (1-based row) each content scene of the lesson belongs to
TRIG_STAGES = {
    "unit_circle": 1,
    "angle_addition": 2,
    "attention_blind": 3,
    "rope_turns": 4,
    "rope_invariance": 4,
    "clock_row": 5,
    "minimal_rope": 6,
    "summary_table": 7,
}


def test_trig_opening_roadmap_has_a_row_for_every_scene_of_the_lesson():
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from scenes.trig_opening import LessonOpening

    scene = build("trig_opening")
    shown = scene.probes["roadmap"][0]["shown"]
    items = LessonOpening.PARAMS["trig_opening"]["roadmap"]
    assert shown == [bare(f"{i + 1}  {t}") for i, t in enumerate(items)]
    lesson = next(l for l in load_course(load_config().lessons).lessons if l.id == "trig_to_rope")
    assert scene.probes["title"][0]["shown"] == bare(lesson.title)  # the lesson's title, from its plan
    content = [s.id for s in lesson.scenes if s.id != "trig_opening"]
    assert content == list(TRIG_STAGES), "a scene was added, removed or moved: give it its roadmap row"
    stages = list(TRIG_STAGES.values())
    assert stages == sorted(stages) and set(stages) == set(range(1, len(items) + 1))
    plan = scene.plan.cue("plan").text
    assert "动手" in plan and "一张表" in plan  # the voice names the last two stages too (all: see PLAN_WORDS)


@pytest.fixture(scope="module")
def scene_b():
    return narration_scene


# -- AttentionIsBlind ----------------------------------------------------------------------------
@pytest.mark.parametrize("scene_id", ["attention_blind"])
def test_attention_outputs_only_permute(scene_b, scene_id):
    scene = scene_b(scene_id)
    params = scene.PARAMS[scene_id]
    words, perm = list(params["words"]), list(params["perm"])
    x = word_vectors(words, scene.D)
    inputs = one(scene, "inputs")
    assert inputs["words"] == words and np.allclose(inputs["x"], x, atol=TOL)
    assert np.allclose(one(scene, "scores")["values"], attention_scores(x), atol=TOL)
    w = np.array(one(scene, "weights")["values"])
    assert np.allclose(w, attention_weights(x), atol=TOL) and np.allclose(w.sum(axis=1), 1.0)
    out = np.array(one(scene, "outputs")["values"])
    assert np.allclose(out, mathcore.attention(x, x, x), atol=TOL)
    assert np.allclose(w @ x, out, atol=TOL)  # weights · x is the drawn output
    sh = one(scene, "shuffled")
    assert sh["tokens"] == [words[i] for i in perm] == sh["words"]
    assert np.allclose(sh["x"], x[perm], atol=TOL)
    assert np.allclose(sh["outputs"], mathcore.attention(x[perm], x[perm], x[perm]), atol=TOL)
    assert sh["drawn"] == [inputs["drawn"][i] for i in perm]  # the same rows, moved
    cmp = one(scene, "compare")
    assert np.abs(np.array(cmp["before_then_shuffle"]) - np.array(cmp["shuffle_then_after"])).max() <= 1e-12
    assert cmp["error"] == mathcore.permutation_error(x, perm)
    assert cmp["error_shown"] == figures.fmt_sci(cmp["error"])
    assert cmp["drawn_old"] == cmp["drawn_new"]  # colour for colour, row for row
    assert cmp["drawn_new"] == [one(scene, "outputs")["drawn"][i] for i in perm]
    # example (K4, review 6): the watched word's output row in each sentence, the same four numbers
    ex = one(scene, "example")
    word = params["watched"]
    assert ex["sentences"] == list(params["pair"]) == ["".join(words), "".join(words[i] for i in perm)]
    seats = [words.index(word), [words[i] for i in perm].index(word)]
    assert ex["seats"] == seats and seats[0] != seats[1]  # first in one sentence, elsewhere in the other
    assert np.allclose(ex["values"][0], mathcore.attention(x, x, x)[seats[0]], atol=TOL)
    assert np.allclose(ex["values"][1], mathcore.attention(x[perm], x[perm], x[perm])[seats[1]], atol=TOL)
    assert np.abs(np.subtract(*ex["values"])).max() <= 1e-12 and ex["drawn"][0] == ex["drawn"][1]
    assert all(ex["on_screen"])


def built(scene_id: str):
    return narration_scene(scene_id)


def nospace(text: str) -> str:
    """Manim's Text keeps its string without spaces."""
    return text.replace(" ", "")


# -- summary_table -----------------------------------------------------------------------------------------
#: the scene of the lesson each row of the summary table shows (K2, review 7: the table is the lesson's own path)
ROW_SCENES = {
    "pointer": "unit_circle",
    "turn": "angle_addition",
    "blind": "attention_blind",
    "seats": "rope_turns",
    "planes": "clock_row",
}


def path_faults(row_scenes: list[str], lesson_scenes: list[str]) -> list[str]:
    """Why a table's rows do not walk the lesson's path: each row must show a different scene of the lesson,
    in the order the lesson shows them."""
    faults = [f"{s}: not a scene of the lesson" for s in row_scenes if s not in lesson_scenes]
    seats = [lesson_scenes.index(s) for s in row_scenes if s in lesson_scenes]
    if len(set(seats)) != len(seats):
        faults.append("two rows show the same scene")
    if seats != sorted(seats):
        faults.append("the rows are not in the lesson's order")
    return faults


def column_faults(left: list[float], right: list[float], edge: float) -> list[str]:
    """Columns that overlap the next one or leave the frame (``edge``: how far right of the centre content may go)."""
    faults = [f"column {i + 1} runs into column {i + 2}" for i in range(len(left) - 1) if right[i] >= left[i + 1]]
    if left[0] < -edge or right[-1] > edge:
        faults.append("the table leaves the frame")
    return faults


def test_summary_table_path_and_columns_checks_catch_a_seeded_case():
    lesson = [s.id for s in course()[1].lessons[0].scenes]
    # seeded: review 7's table (sin/cos, matrix, angle addition, speeds, dot product): angle_addition twice,
    # and the dot product (rope_invariance) after the speeds (clock_row)
    old = ["unit_circle", "angle_addition", "angle_addition", "clock_row", "rope_invariance"]
    assert path_faults(old, lesson) == ["two rows show the same scene", "the rows are not in the lesson's order"]
    assert path_faults(["clock_row", "unit_circle"], lesson) == ["the rows are not in the lesson's order"]
    assert column_faults([-6.7, -2.5, 3.0], [-3.0, 3.2, 7.6], 7.1) == [
        "column 2 runs into column 3",
        "the table leaves the frame",
    ]


def planes_claim_faults(text: str) -> list[str]:
    """What ``text`` claims about distances 0 and 44 on the four d = 8 planes, against the hands' angles: a plane
    "分不开" the two when its hand at 44 is within 5° of home, "分开" them when it is over 90° away. A claim about
    "慢的" as a whole holds only if every plane but the fastest separates them (the slowest is at 2.5°: it does not)."""
    w = mathcore.frequencies(8)
    gap = [min(g, 360.0 - g) for g in (np.degrees(44 * w) % 360.0)]
    text = text.replace(" ", "")
    out = []
    if "慢的能分开" in text and not all(g > 90.0 for g in gap[1:]):
        out.append(f"'慢的能分开', but the slower planes' hands at 44 are {[round(g, 1) for g in gap[1:]]}°")
    plain = text.replace("平面", "")
    if "最快的分不开" in plain:  # M5 (review 11): its hand is near home, not on it
        out.append(f"'最快的分不开' without 几乎, but its hand at 44 is {gap[0]:.1f}° from home, not on it")
    if "最快的几乎分不开" in plain and not gap[0] < 5.0:
        out.append(f"'最快的几乎分不开', but its hand at 44 is {gap[0]:.1f}° from home")
    if "平面1" in text and not gap[1] > 90.0:
        out.append(f"'平面 1' separates them, but its hand at 44 is {gap[1]:.1f}° from home")
    if "最快的" not in text and "平面1" not in text:
        out.append("names no plane that shows the difference")
    return out


def test_planes_claim_check_catches_review_9s_wording():
    # seeded: the screen and the voice review 9 read (M3)
    assert planes_claim_faults("0、44：只有慢的能分开")
    assert planes_claim_faults(
        "最后是快慢不同的平面；像刚才的 0 和 44，快的分不开，慢的能分开；合起来，每种距离都不一样。"
    )
    # seeded: review 11's recap (M5), the fastest hand said to be home while it is about 1° off
    assert planes_claim_faults("像刚才的 0 和 44，最快的平面分不开，平面 1 一下就分开了")
    assert planes_claim_faults("0、44：最快的几乎分不开，平面 1 分得开") == []


def test_summary_table_rows_walk_the_lesson_and_appear_with_their_cues():
    from scenes import theme

    scene = built("summary_table")
    cls = type(scene)
    lesson = next(l for l in course()[1].lessons if l.id == "trig_to_rope")
    assert [r[0] for r in cls.ROWS] == list(ROW_SCENES)
    assert path_faults(list(ROW_SCENES.values()), [s.id for s in lesson.scenes]) == []
    for short, _, picture, saw, took in cls.ROWS:
        row = scene.probes[f"row_{short}"][0]
        assert row["shown"] == [nospace(t) for t in (picture, saw, took)]
        assert all(row["on_screen"])
        assert row["frame"] <= scene.plan.cue(short).end_frame
        assert cue_text("summary_table", short).count("；") == 2  # three parts: picture, what it showed, what we took
        assert column_faults(row["left"], row["right"], theme.content_right()) == []
    # the figures in the cells are the lesson's: the two turns of angle_addition add up, the length stays 1
    from scenes.angle_addition import AngleAddition
    from scenes.attention_is_blind import AttentionIsBlind

    a, b = AngleAddition.FIRST, AngleAddition.SECOND
    e1 = np.array([1.0, 0.0])
    two = mathcore.rotate(mathcore.rotate(e1, np.radians(a)), np.radians(b))
    assert np.allclose(two, mathcore.rotate(e1, np.radians(a + b)), atol=TOL)
    assert np.linalg.norm(two) == pytest.approx(1.0, abs=TOL)
    assert f"{a:g}° 再 {b:g}° = {a + b:g}°" in cls.ROWS[1][3]
    assert f"{a:g}° 再转 {b:g}°" in cue_text("summary_table", "turn").replace("°再", "° 再")
    assert f"{a + b:g}°" in cue_text("summary_table", "turn")
    four = "四个数"  # the watched word's output row in attention_blind.example
    assert AttentionIsBlind.D == 4 and four in cls.ROWS[2][3] and four in cue_text("summary_table", "blind")
    # the planes row: at d = 8 the fastest plane tells distance 1 from 2 (a radian apart) but sees 0 and 44 almost
    # alike; the next one tells 0 from 44 (clock_row's table shows these distances)
    from scenes.clock_row import ClockSpeeds

    assert {0, 1, 2, 44} <= set(ClockSpeeds.PARAMS["clock_row"]["positions"])
    w = mathcore.frequencies(8)

    def apart(plane: int, p: int, r: int) -> float:  # degrees between the hands at distances p and r
        gap = np.degrees((r - p) * w[plane]) % 360.0
        return min(gap, 360.0 - gap)

    assert apart(0, 0, 44) < 5.0 and apart(1, 0, 44) > 90.0  # P3 (review 8): clock_row's pair, recalled
    assert "0、44：" in cls.ROWS[4][3] and "0 和 44" in cue_text("summary_table", "planes")
    # M3 (review 9): what the row claims about 0 and 44 is what the four hands show
    assert planes_claim_faults(cls.ROWS[4][3]) == []
    assert planes_claim_faults(cue_text("summary_table", "planes")) == []
    for short, _, text in cls.RECAPS:
        assert scene.probes[short][0]["shown"] == nospace(text)
    # P1 (review 8): the seats row says rope_invariance's 110° (recap_one went); the recap gives minimal_rope's
    # figures and the swap's with its reason (k starts ahead of q); the voice says the numbers the screen shows
    said = {c.id.split(".")[-1]: c.text for c in scene.plan.cues}
    gap, score, swap, lead = (
        figures.value(n) for n in ("rope_pair_gap_deg", "rope_pair_score", "rope_swap_score", "rope_pair_lead_deg")
    )
    assert f"{gap}°" in said["seats"] and [s for s in said if s.startswith("recap")] == ["recap_two", "recap_three"]
    same = [figures.value(f"same_word_d{g}") for g in range(3)]
    assert "、".join(same) in said["recap_two"] and "、".join(same) in cls.RECAPS[0][2]
    # P2 (review 10): the voice says one of the swap's figures; the screen keeps all three
    assert f"{swap}" in said["recap_three"] and f"{lead}°" not in said["recap_three"]
    assert all(f"{v}" in cls.RECAPS[1][2] for v in (score, swap, f"{lead}°"))


def cue_text(scene_id: str, cue_id: str) -> str:
    return next(c.text for c in course()[1].scenes[scene_id].cues if c.short_id == cue_id)


# -- M1, M2, M3 (review 7): claims lesson 1 must not make, heard or drawn --------------------------------------
OVERCLAIMS = {
    # M1: one turned arrow does not tell its seat (its start is unknown; a full turn later it points the same way)
    "M1": r"(看|凭)[^。；]{0,8}(指向|方向)[^。；]{0,12}(就|便)(知道|能读出|读得出)[^。；]{0,8}第几",
    # M2: keeping the length is what rotation gives, not a rule every position encoding obeys (lesson 2 adds x + p)
    "M2": r"不能动|往词上加位置|多长[^。；]{0,4}不能",
    # M3: a pair of words keeps its score when both move; only a change of distance changes it
    "M3": r"换个位置[，,]?\s*分数",
}


def overclaims(text: str) -> list[str]:
    return [fid for fid, pattern in OVERCLAIMS.items() if re.search(pattern, text)]


def test_overclaim_check_catches_review_7s_wording():
    assert overclaims("反过来，只看箭头指向哪，就知道这个词坐在第几个位置。") == ["M1"]
    assert overclaims("看指向，就知道坐在第几") == ["M1"]
    assert overclaims("后面要往词上加位置，可词向量原来多长，不能动。") == ["M2"]
    assert overclaims("词向量多长不能动：旋转做得到") == ["M2"]
    assert overclaims("同一个词换个位置，分数就跟着变") == ["M3"]
    assert overclaims("换个位置，分数就变") == ["M3"]
    assert overclaims("可单拿一支转好的箭头，不知道它原来朝哪，也就读不出位置。") == []


def test_lesson_1_makes_none_of_review_7s_overclaims():
    from tests.support.course_text import drawn_texts, narration_places, scenes_of

    heard = [p for p in narration_places() if p.lesson == "trig_to_rope"]
    assert heard and all(overclaims(p.text) == [] for p in heard), [p.where for p in heard if overclaims(p.text)]
    for sid in ("rope_turns", "angle_addition", "minimal_rope"):
        assert sid in scenes_of("trig_to_rope")
        drawn = [t.text for t in drawn_texts(sid)]
        assert drawn and [t for t in drawn if overclaims(t)] == [], sid
    # the drawn replacements, as the probes recorded them on screen
    note = one(build("rope_turns"), "same_word_note")
    assert "读不出位置" in note["shown"][1] and note["on_screen"]
    # K5 (review 11): the note says what the drawing shows (the tip stays on the dashed circle), not the seed's line
    assert one(build("angle_addition"), "length_note")["shown"] == "箭尖还在圆上"
    take = one(build("minimal_rope"), "takeaway_line")
    assert take["shown"] == "距离变了，分数就变" and take["on_screen"]


def test_one_arrow_alone_cannot_tell_its_seat():
    """Why M1's claim went: at θ = 30°, seats 0 and 12 turn a vector to the same direction."""
    v, theta = np.array([0.8, 0.3]), np.radians(30.0)
    assert np.allclose(mathcore.rope_2d(v, 0, theta), mathcore.rope_2d(v, 12, theta), atol=TOL)


def test_the_biggest_shuffle_change_comes_with_a_change_of_distance():
    """M3: the takeaway says a change of distance changes the score; the pair it points at did change distance."""
    before, after = (int(figures.value(n)) for n in ("shuffle_gap_before", "shuffle_gap_after"))
    assert before != after
    assert "远近" in cue_text("minimal_rope", "takeaway")


# -- L1 (review 5): a distance is said as 距离 N or 相距 N 个位置, never as 隔 N 个 ----------------------------
def counted_gaps(text: str) -> list[str]:
    """Places where a distance is counted with 隔 ("隔 0 个" is heard as "nothing in between", i.e. neighbours);
    每隔 5° (a step of a sweep) and the uncounted 隔多远 / 隔几个 (lesson 2's term) are plain Chinese."""
    return re.findall(r"(?<![每相])隔\s*(?:[0-9]+|\{[a-z0-9_]+\}|[一二两三四五六七八九十])", text)


def test_distances_are_not_counted_with_ge():
    assert counted_gaps("比如隔 0 个和隔 44 个位置") == ["隔 0", "隔 44"]  # review 5's wording, seeded
    assert counted_gaps("原来隔 {shuffle_gap_before} 个位置") == ["隔 {shuffle_gap_before}"]
    assert counted_gaps("每隔 5° 扫一遍；隔得一样远；隔多远；隔几个、谁在前") == []
    _, lessons = course()
    for lesson in ("trig_to_rope", "rotation_matrix"):
        for scene in lessons.scenes.values():
            if scene.lesson != lesson:
                continue
            for cue in scene.cues:
                assert counted_gaps(cue.text) == [], cue.id
    labels = {lab for s in build("clock_row").probes["clocks"] for lab in s["table_labels"]}
    assert labels == {f"距离{p}" for p in (0, 1, 2, 3, 44)}  # Text drops the space


# -- M1, M2, P1 (review 8): the swap claim names its condition; angle differences read distances only with a
# -- condition, and only once words have angles; the plan's voice names every stop; every recap gives figures ---
#: a claim that RoPE tells which word comes first, and the conditions that make it true (k starts in another
#: direction than q; with q = k both orders score alike)
ORDER_CLAIM = re.compile(r"谁在前[^。？]{0,10}(分得出|分得清|分辨|记下)|(记下|分得出|分得清|分辨)[^。？]{0,16}谁在前")
ORDER_CONDITION = re.compile(r"方向不同|不在一条直线上|多偏|q\s*=\s*k|q、k\s*一样")


def unconditioned_order_claims(texts: list[str]) -> list[str]:
    """The texts that claim RoPE tells which word is first and name no condition for it."""
    return [t for t in texts if ORDER_CLAIM.search(t) and not ORDER_CONDITION.search(t)]


#: reading a distance off an angle difference: true within one turn, and only once words have angles
DISTANCE_FROM_ANGLES = re.compile(r"角度一减[^。]*(相距|距离|隔)")


def distance_from_angle_faults(sentences: list[tuple[bool, str]]) -> list[str]:
    """``(words have angles yet, sentence)``: a sentence reading a distance off an angle difference must say
    within one turn (一圈), and, before words have angles, that the angles come later (等 / 后面)."""
    out = []
    for placed, text in sentences:
        for sentence in re.split(r"(?<=[。？！])", text):
            if not DISTANCE_FROM_ANGLES.search(sentence):
                continue
            if "一圈" not in sentence:
                out.append(f"no turn condition: {sentence}")
            if not placed and not re.search(r"等|后面|到时候", sentence):
                out.append(f"before words have angles: {sentence}")
    return out


def test_order_and_angle_checks_catch_review_8s_wording():
    old_swap = "隔得一样远，先后一换，点积就变了。所以 RoPE 记下的不只是隔多远，还有谁在前、谁在后。"
    old_recap = "第三组：同样相距 3，k 在后，点积是 −0.34；k 到了前面，就是正的 0.34。谁在前，RoPE 也记下了。"
    assert unconditioned_order_claims([old_swap, old_recap, "它知道谁在前吗？"]) == [old_swap, old_recap]
    assert unconditioned_order_claims(["RoPE 连谁在前也能分辨。前提是 q、k 本来方向不同。"]) == []
    old_take = "剩下的 40° 就是第二步。两个词的角度一减，就知道它们相距几个位置。"
    old_turn = "接着让箭头转；长度不变；两个角度一减，就是相距几个位置。"
    assert len(distance_from_angle_faults([(False, old_take)])) == 2
    assert distance_from_angle_faults([(True, old_turn)]) == [f"no turn condition: {old_turn}"]
    assert (
        distance_from_angle_faults([(False, "后面词会按位置带上角度，不满一圈时，角度一减，就能读出相距多远。")]) == []
    )


def test_lesson_1_names_the_conditions_of_its_order_and_distance_claims():
    from tests.support.course_text import drawn_texts, narration_places, scenes_of

    heard = [p for p in narration_places() if p.lesson == "trig_to_rope"]
    assert unconditioned_order_claims([p.text for p in heard]) == []
    assert unconditioned_order_claims([t.text for t in drawn_texts("summary_table")]) == []
    scenes = scenes_of("trig_to_rope")
    placed = scenes.index("rope_turns")  # from here on each word has an angle
    sentences = [(scenes.index(p.scene) >= placed, p.text) for p in heard if p.scene in scenes]
    assert distance_from_angle_faults(sentences) == []
    # the swap cue itself claims the order and names both sides of the condition
    swap = cue_text("rope_invariance", "swap")
    assert ORDER_CLAIM.search(swap) and "不在一条直线上" in swap and re.search(r"同向或反向[^。]*不变", swap)
    assert bare_sameness_faults(swap) == []
    # M1 (review 14): q and k pointing opposite ways are blind to the swap too (−cos(±Δ) alike), so the
    # condition is "not on one line", not "different directions"; the facts from mathcore
    q, theta = np.array(figures.ROPE_PAIR_Q), np.radians(figures.THETA_DEG)
    for k in (0.8 * q, -0.8 * q):
        assert mathcore.rope_score(q, k, 3, 0, theta) == pytest.approx(mathcore.rope_score(q, k, 0, 3, theta))
    k = np.array(figures.ROPE_PAIR_K)
    assert abs(mathcore.rope_score(q, k, 3, 0, theta) - mathcore.rope_score(q, k, 0, 3, theta)) > 0.5
    assert swap_condition_faults(swap) == []
    assert swap_condition_faults("前提是 q、k 本来方向不同；方向一样的话，对调了也不变。")  # seeded: round 13


def swap_condition_faults(text: str) -> list[str]:
    """Review 14, M1: the swap's condition given as "方向不同" (opposite q, k differ in direction and are still
    blind to the swap) or its symmetric case as "方向一样" alone."""
    return [m.group(0) for m in re.finditer(r"方向不同|方向一样", text)]


def bare_sameness_faults(text: str) -> list[str]:
    """Review 13, M5: the swap's symmetric case is q and k pointing the same way (cos(±Δ) alike), not q and k
    being equal: a bare "q、k 一样" hides the condition (this q and k differ in length)."""
    return [m.group(0) for m in re.finditer(r"q、k\s*一样", text)]


def test_bare_sameness_check_catches_review_13s_swap():
    old = "前提是 q、k 本来方向不同；q、k 一样的话，对调了也不变。"
    assert bare_sameness_faults(old) == ["q、k 一样"]
    assert bare_sameness_faults("前提是 q、k 本来方向不同；方向一样的话，对调了也不变。") == []


def test_the_swap_tells_the_order_only_because_k_starts_ahead():
    """M1: rope_invariance's pair scores differently before and after the swap because k starts 20° ahead of
    q; with q = k (minimal_rope's words) the two orders score alike, so F's table is symmetric."""
    theta = np.radians(figures.THETA_DEG)
    q, k = np.array(figures.ROPE_PAIR_Q), np.array(figures.ROPE_PAIR_K)
    (m, n), (m1, n1) = figures.ROPE_PAIRS[0], figures.ROPE_SWAP
    assert (m1, n1) == (n, m)
    assert abs(mathcore.rope_score(q, k, m, n, theta) - mathcore.rope_score(q, k, m1, n1, theta)) > 0.5
    assert mathcore.rope_score(q, q, m, n, theta) == pytest.approx(mathcore.rope_score(q, q, m1, n1, theta))
    table = figures.minimal_rope_same_word_scores()
    assert np.allclose(table, table.T, atol=TOL)
    assert "q = k" in cue_text("minimal_rope", "diagonals") and "对称" in cue_text("minimal_rope", "diagonals")
    assert "q 和 k 都等于词向量" in cue_text("minimal_rope", "setup")


#: each stop of trig_opening's roadmap and the word the plan's voice names it by (a word of the stop itself)
PLAN_WORDS = {
    "单位圆上的指针": "指针",
    "旋转矩阵：角度相加": "旋转矩阵",
    "注意力看不见顺序": "注意力",
    "RoPE：按位置转，只看相对位置": "RoPE",
    "快慢不同的平面": "快慢",
    "动手算一遍": "动手",
    "一张表串起全课": "一张表",
}


def unsaid_stops(voice: str, words: dict[str, str]) -> list[str]:
    """The roadmap's stops the voice does not name, or names out of the roadmap's order."""
    seen, out, at = {s: voice.find(w) for s, w in words.items()}, [], -1
    for stop, pos in seen.items():
        if pos <= at:
            out.append(stop)
        else:
            at = pos
    return out


def test_the_plans_voice_names_every_stop_of_the_roadmap():
    from scenes.trig_opening import LessonOpening

    roadmap = LessonOpening.PARAMS["trig_opening"]["roadmap"]
    assert list(PLAN_WORDS) == list(roadmap) and all(w in s for s, w in PLAN_WORDS.items())
    old = "路线是：单位圆上的指针，旋转矩阵，注意力为什么分不清次序，再让词按位置转起来，这就是 RoPE，旋转位置编码。最后动手算一遍，用一张表收尾。"
    assert unsaid_stops(old, PLAN_WORDS) == ["快慢不同的平面"]  # seeded: review 8's plan
    assert unsaid_stops(cue_text("trig_opening", "plan"), PLAN_WORDS) == []


def test_every_recap_of_the_summary_gives_figures():
    """P1 (review 8): a recap line quotes the lesson's figures (review 8's recap_two announced a number and gave
    none); the one quoted pair of rope_invariance is said once in the summary."""
    cues = {c.short_id: c.text for c in course()[1].scenes["summary_table"].cues}
    recaps = [t for cid, t in cues.items() if cid.startswith("recap")]
    old_two = "第二组：F 坐满六个位置，打分表每条斜线上的数都一样。"
    assert [t for t in [old_two, *recaps] if not re.search(r"\{[a-z0-9_]+\}", t)] == [old_two]
    assert recaps and all("组" not in t for t in recaps)
    assert sum("{rope_pair_gap_deg}" in t for t in cues.values()) == 1


# -- M2 (review 9): the swap's −0.34 / +0.34 are opposite only because the pair is 90° apart ------------------
#: M3 (review 12): words that say two scores are exact opposites (equal size, opposite sign), not merely of
#: opposite sign, which any extra turn between 70° and 110° gives
EXACT_OPPOSITE = re.compile(r"相反数|大小[^。；，]{0,3}(一样|相同|相等)")


def mirror_faults(text: str) -> list[str]:
    """Why a filled swap text may make its opposite pair of scores sound like a rule: it must say that they are
    exact opposites only because the extra turn is a right angle (M3, review 12: opposite signs alone are not
    special to 90°), and give a pair (one seat apart) whose two orders are not opposite: both positive, or one of
    mathcore's figures for it (P2, review 12: the voice need not say them; both are on screen)."""
    faults = []
    turn = figures.fill("{rope_pair_turn_deg}°")
    reason = re.search(rf"([^。；]*)只因为?[^。；]*正好[^。；]*{turn}", text)
    if not reason:
        faults.append(f"does not say the scores are opposite only because of {turn}")
    elif not EXACT_OPPOSITE.search(reason.group(1)):
        faults.append(f"credits {turn} with the opposite signs, which any extra turn between 70° and 110° gives")
    near = [figures.fmt_dec(v) for v in figures.rope_near_scores()]
    if not re.search(rf"相距 1[^。]*({re.escape(near[0])}|{re.escape(near[1])}|都是正)", text):
        faults.append(f"gives no pair whose two orders are not opposite ({near[0]}, {near[1]})")
    return faults


#: P2 (review 10): the figures one spoken cue of the swap may carry (70°, +0.34, 90° twice)
SWAP_FIGURES = 4


def swap_packing_faults(swap: str, special: str) -> list[str]:
    """The swap cue and the cue after it (unfilled texts): the swap itself carries at most SWAP_FIGURES figures
    and none of the one-seat pair's; the special case says at most one of the one-seat pair's two scores."""
    faults = []
    said = re.findall(r"\{([a-z0-9_]+)\}", swap)
    if len(said) > SWAP_FIGURES:
        faults.append(f"the swap cue says {len(said)} figures: {said}")
    if any(n.startswith("rope_near") for n in said):
        faults.append("the swap cue says the one-seat pair's scores")
    near = [n for n in re.findall(r"\{([a-z0-9_]+)\}", special) if n.startswith("rope_near")]
    if len(near) > 1:
        faults.append(f"the special case says {len(near)} of the one-seat pair's scores")
    return faults


def test_the_swap_says_its_opposite_scores_are_a_special_case():
    theta = np.radians(figures.THETA_DEG)
    q, k = np.array(figures.ROPE_PAIR_Q), np.array(figures.ROPE_PAIR_K)
    (m, n), swap = figures.ROPE_PAIRS[0], figures.ROPE_SWAP
    # the fact: opposite at 3 × 30° = 90°, not opposite one seat apart
    assert (n - m) * figures.THETA_DEG == 90
    assert mathcore.rope_score(q, k, *swap, theta) == pytest.approx(-mathcore.rope_score(q, k, m, n, theta))
    behind, ahead = figures.rope_near_scores()
    assert figures.ROPE_NEAR == ((0, 1), (1, 0))
    assert behind == mathcore.rope_score(q, k, 0, 1, theta) and ahead == mathcore.rope_score(q, k, 1, 0, theta)
    assert abs(behind + ahead) > 0.5 and behind > 0 and ahead > 0
    # seeded: review 8's swap cue, which gave ±0.34 alone
    old = (
        "再把先后对调：q 在 3，k 在 0，还是相距 3，只是 k 跑到了 q 前面。这回夹角是 70°，点积是正的 0.34：k 一开始就多偏 "
        "20°，在 q 后面要再加 90°，在前面就是减去 90°。隔得一样远，先后一换，点积就变了。"
    )
    assert len(mirror_faults(old)) == 2
    special = cue_text("rope_invariance", "right_angle")
    assert mirror_faults(figures.fill(strip_bookmarks(special)[0])) == []


def test_the_right_angle_gives_exact_opposites_not_just_opposite_signs():
    """M3 (review 12): with k leading by 20°, the two orders score |q||k| cos(20° ± Δ). Opposite signs come with any
    extra turn Δ between 70° and 110°; only Δ = 90° makes them exact opposites. The cue says the latter."""
    q, k = np.array(figures.ROPE_PAIR_Q), np.array(figures.ROPE_PAIR_K)
    for delta in (75.0, 80.0, 100.0, 105.0):  # one seat with θ = Δ: behind and ahead
        behind, ahead = (mathcore.rope_score(q, k, m, n, np.radians(delta)) for m, n in ((0, 1), (1, 0)))
        assert behind * ahead < 0 and abs(behind + ahead) > 0.05
    (m, n), swap = figures.ROPE_PAIRS[0], figures.ROPE_SWAP
    theta = np.radians(figures.THETA_DEG)
    assert mathcore.rope_score(q, k, m, n, theta) == pytest.approx(-mathcore.rope_score(q, k, *swap, theta))
    # seeded: round 11's cue, which credited 90° with the signs alone
    old = figures.fill(
        "一负一正，只因为相距 3 正好多转 {rope_pair_turn_deg}°，是个巧合。相距 1 就不是：k 在后是 {rope_near_behind}，在前也是正的。"
    )
    assert mirror_faults(old) == [
        f"credits {figures.fill('{rope_pair_turn_deg}°')} with the opposite signs, which any extra turn between 70° and 110° gives"
    ]
    said = figures.fill(strip_bookmarks(cue_text("rope_invariance", "right_angle"))[0])
    assert EXACT_OPPOSITE.search(said) and mirror_faults(said) == []


# -- M6 (review 12): cos and sin are read with a sign before the sweep reads −0.87 and −1 -----------------------
SIGN_RULES = {
    "左": re.compile(r"左[^。；]{0,12}负|负[^。；]{0,6}左"),
    "下": re.compile(r"(低于|下)[^。；]{0,12}负|负[^。；]{0,6}下"),
}


def unsigned_reading_faults(text: str) -> list[str]:
    """A text that introduces cos θ and sin θ as the seat's readings must say which side counts negative."""
    return [
        f"does not say that {side} of the axle reads negative"
        for side, rule in SIGN_RULES.items()
        if not rule.search(text)
    ]


def test_the_readings_carry_a_sign_before_they_go_negative():
    sweep = figures.fill(strip_bookmarks(cue_text("unit_circle", "sweep"))[0])
    assert re.search(r"-|−", sweep)  # the sweep reads negative coordinates (150°, 270°) …
    assert unsigned_reading_faults(cue_text("unit_circle", "readout")) == []  # … after the readout gave the sign
    # seeded: round 11's readout, distances with no sign
    old = "轮子逆时针转过一个角，记作 θ，这里 θ 是 50°。座舱往右偏出多少，读作 cos θ；比轮轴高出多少，读作 sin θ。角度都从正右边算起，逆时针算正。"
    assert len(unsigned_reading_faults(old)) == 2


# -- L3 (review 12): the spoken cos(α + β) keeps the sum inside ---------------------------------------------------
def heard_cos_of_sum_faults(say: str) -> list[str]:
    """'扣赛因阿尔法加贝塔' is heard as cos α + β; the sum must be said as inside (a bracket, or 'the sum's cosine')."""
    if re.search(r"扣赛因阿尔法加贝塔", say):
        return ["says cos α + β with no bracket"]
    if not re.search(r"扣赛因括号阿尔法加贝塔|阿尔法加贝塔[^。；，]{0,4}的扣赛因", say):
        return ["does not say the cosine of α + β"]
    return []


def test_the_angle_sum_is_said_inside_the_cosine():
    cue = next(c for c in course()[1].scenes["angle_addition"].cues if c.short_id == "one_turn")
    assert "cos(α+β)" in cue.text and heard_cos_of_sum_faults(cue.say) == []
    old = "把这两个矩阵乘开，左上角正是扣赛因阿尔法加贝塔的展开式，课本上的和角公式说的就是这件事。"  # seeded: round 11
    assert heard_cos_of_sum_faults(old) == ["says cos α + β with no bracket"]


def test_the_swap_is_said_in_two_cues_that_a_listener_can_hold():
    """P2 (review 10): the swap itself (70°, +0.34, the 90° taken off) in one cue, the special case of 90° with
    the one-seat pair in the next; the summary's recap does not pack them again."""
    swap, special = cue_text("rope_invariance", "swap"), cue_text("rope_invariance", "right_angle")
    assert swap_packing_faults(swap, special) == []
    assert "不在一条直线上" in swap and "{rope_swap_gap_deg}°" in swap and "{rope_swap_score}" in swap
    # seeded: review 10's swap cue, all of it in one breath
    old = (
        "再把先后对调：q 在 3，k 在 0，还是相距 3，只是 k 跑到了 q 前面。{@angle}夹角是 {rope_swap_gap_deg}°，点积是正的 "
        "{rope_swap_score}：k 本来多偏 {rope_pair_lead_deg}°，在后面要加 {rope_pair_turn_deg}°，在前面就减 "
        "{rope_pair_turn_deg}°。一负一正刚好相反，只因为相距 3 正好多转 {rope_pair_turn_deg}°；相距 1 个位置时，两种先后是 "
        "{rope_near_behind} 和 {rope_near_ahead}。{@changed}隔得一样远，先后一换，点积就变了。"
    )
    faults = swap_packing_faults(old, old)
    assert len(faults) == 3 and "8 figures" in faults[0]
    # the recap says one of the swap's figures, not the lead, the score behind and the score ahead again
    recap = cue_text("summary_table", "recap_three")
    assert re.findall(r"\{([a-z0-9_]+)\}", recap) == ["rope_swap_score"] and "不在一条直线上" in recap
    old_recap = (
        "前面那对 k 起初多偏 {rope_pair_lead_deg}°，相距 3，k 在后是 {rope_pair_score}，在前是正的 {rope_swap_score}"
    )
    assert len(re.findall(r"\{([a-z0-9_]+)\}", old_recap)) == 3
