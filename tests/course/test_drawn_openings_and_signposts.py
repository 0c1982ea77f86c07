"""The opening and signpost scenes (openings, overview, seat card, further reading, next step): what they draw
equals mathcore. Frames and layout are checked for every scene by tests/test_viewer_check.py.

Each scene is built once per session from its real narration plan (``conftest.built_scene``).
"""
from __future__ import annotations


import numpy as np
import pytest

import mathcore
from narration import figures
from mathcore import checks
from mathcore.low_rank import head_dim, head_score_matrix, head_score_rank
from mathcore.shuffle import self_attention, t1_inputs
from mathcore.toy_words import word_vectors
from tests.support.course_scenes import narration_scene
from tests.support.drawn import card_disagreements

TOL = 1e-6
SCENES = ("trig_opening", "rot_opening", "word_order_overview", "seat_card", "further_reading", "next_step")


def bare(text: str) -> str:
    """Text as Manim's ``Text.text`` keeps it (without spaces)."""
    return "".join(text.split())


def wrap(a):
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


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
    assert max(t["phi"] for t in samples) > 2 * np.pi      # the pointer really turns during the plan


# the stage of the trig_opening roadmap (1-based row) each content scene of the lesson belongs to
TRIG_STAGES = {"unit_circle": 1, "angle_addition": 2, "attention_blind": 3, "rope_turns": 4, "rope_invariance": 4,
               "clock_row": 5, "minimal_rope": 6, "rope_visualisation": 6, "summary_table": 7}


def test_trig_opening_roadmap_has_a_row_for_every_scene_of_the_lesson():
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from scenes.lesson_opening import LessonOpening

    scene = build("trig_opening")
    shown = scene.probes["roadmap"][0]["shown"]
    items = LessonOpening.PARAMS["trig_opening"]["roadmap"]
    assert shown == [bare(f"{i + 1}  {t}") for i, t in enumerate(items)]
    lesson = next(l for l in load_course(load_config().lessons).lessons if l.id == "trig_to_rope")
    content = [s.id for s in lesson.scenes if s.id != "trig_opening"]
    assert content == list(TRIG_STAGES), "a scene was added, removed or moved: give it its roadmap row"
    stages = list(TRIG_STAGES.values())
    assert stages == sorted(stages) and set(stages) == set(range(1, len(items) + 1))
    plan = scene.plan.cue("plan").text
    assert "画出来" in plan and "一张表" in plan          # the voice names the last two stages too


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
            out.append(f"{name}: the label says seat {seat} (turns {turns}θ), the arrow turned {last[name]['phi']:g} rad")
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
    bad[-1]["rule"][0] = bad[-1]["rule"][0].replace("2", "3")          # the label names another seat
    assert rot_opening_rope_disagreements(bad, theta)
    bad = copy.deepcopy(samples)
    bad[-1]["k"]["phi"] += theta                                        # k turned one step too far
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
    from coursekit.core.config import load_config
    from coursekit.content.narration import load_course

    scene = build("rot_opening")
    lesson = load_course(load_config(None).lessons).lesson("rotation_matrix")
    assert scene.TITLE == lesson.title
    roadmap = scene.probes["roadmap"][0]["shown"]
    assert len(roadmap) == len(scene.ROADMAP) + 1 and roadmap[-1].startswith("规矩")
    plan = scene.plan.cue("plan").text
    assert "这一课有个规矩" in plan and "照旧" not in plan
    spin = [s for s in scene.probes["spin"] if s["on_screen"]]
    assert len(spin) > 20 and max(s["phi"] for s in spin) > np.pi
    for s in spin:
        assert np.allclose(s["tip"], mathcore.rotate(s["v0"], s["phi"]), atol=TOL)


# -- OverviewReel -----------------------------------------------------------------------
def test_overview_opens_with_the_lesson_title_and_the_lessons_sentence():
    """The overview's title is lesson 2's own (not the course's), and the sentence is cut into the same
    chips as everywhere in the lesson (借给 one chip), in the premise and the blind beat alike."""
    scene = build("word_order_overview")
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    cfg = load_config(root / "config.yaml")
    lesson = load_course(cfg.course.lessons, root / "narration").lesson("word_order")
    premise = scene.probes["premise"][0]
    assert premise["title"] == bare(lesson.title) != bare(cfg.course.title)
    seat_card = build("seat_card")
    from scenes.seat_number_card import SENTENCE

    assert premise["rows"][0] == list(SENTENCE) == list(type(scene).WORDS)
    assert premise["rows"][1] == [SENTENCE[i] for i in type(scene).SWAP]        # 小红 … 小明
    assert seat_card.probes["idea_seats"][0]["shown"] == [str(i) for i in range(len(SENTENCE))]


def test_overview_blind_is_the_short_swap_and_outputs_only_move():
    """The short version: the premise's sentence, one swap (小明 ↔ 小红), each strip the attention output of
    the word drawn above it (toy word vectors, as in the lesson's own blind_bag)."""
    scene = build("word_order_overview")
    cls = type(scene)
    x = word_vectors(cls.WORDS, cls.WORD_D)
    samples = scene.probes["blind"]
    assert samples and {tuple(s["order"]) for s in samples} <= {tuple(range(len(cls.WORDS))), tuple(cls.SWAP)}
    for s in samples:
        assert np.allclose(s["recomputed"], self_attention(x[s["order"]]), atol=TOL)
        for j, strip in enumerate(s["shown"]):      # a strip sitting on a slot is that slot's word's output
            if abs(s["slot_x"][j] - s["slots"][j]) < 1e-6:
                assert np.allclose(strip, s["recomputed"][j], atol=TOL), (s["frame"], j)
    end = [s for s in samples if s["frame"] <= scene.plan.cue("blind").end_frame][-1]
    assert end["order"] == list(cls.SWAP)
    assert np.allclose(end["slot_x"], end["slots"], atol=TOL)
    assert np.allclose(end["shown"], self_attention(x)[list(cls.SWAP)], atol=TOL)   # the same strips, moved
    assert "小明和小红" in scene.plan.cue("blind").text


def test_overview_and_seat_card_merge_x_and_p_into_one_row():
    for scene_id, probe, cue in (("word_order_overview", "seat", "seat"), ("seat_card", "card", "card")):
        scene = build(scene_id)
        samples = scene.probes[probe]
        assert sum(s["on_screen"] and not s["merged"] for s in samples) > 5
        assert sum(s["on_screen"] and s["merged"] for s in samples) > 5
        assert not card_disagreements(samples)
        end = [s for s in samples if s["frame"] <= scene.plan.cue(cue).end_frame][-1]
        assert end["merged"]                          # the beat ends on the one row
        merged = [s for s in samples if s["merged"] and s["on_screen"]]
        swapped = [dict(s, labels=[s["labels"][1], s["labels"][0], *s["labels"][2:]]) for s in merged]
        assert card_disagreements(swapped)
        lifted = [dict(s, centers=[[c[0], c[1] + 0.5 * (j == 2), c[2]] for j, c in enumerate(s["centers"])])
                  for s in merged]
        assert card_disagreements(lifted)
        rows = [s for s in samples if not s["merged"] and s["on_screen"]]
        upside_down = [dict(s, x=s["p"], p=s["x"]) for s in rows if s["x"][0][1] > s["p"][0][1] + 1e-6]
        assert upside_down and card_disagreements(upside_down)
    assert "只剩一行数" in build("seat_card").plan.cue("card").text


def test_overview_failures_from_mathcore():
    f = build("word_order_overview").probes["fail"][0]
    assert f["raw"] == mathcore.raw_index_encoding([5000], 4)[0].tolist()      # the far seat of failing_encodings
    assert f["word"] == word_vectors(["小明"], 4)[0][:2].tolist()                # the blind beat's 小明
    seat, lengths = figures.NORM_SEAT, figures.NORM_LENGTHS
    assert f["lengths"] == list(lengths)
    for n, code, step in zip(lengths, f["code"], f["step"]):
        assert code == pytest.approx(mathcore.length_normalised_encoding([seat], n, 1)[0, 0], abs=TOL)
        e = mathcore.length_normalised_encoding([seat, seat + 1], n, 1)[:, 0]
        assert step == pytest.approx(e[1] - e[0], abs=TOL)
    shown = " ".join(f["shown"])
    for n in lengths:     # the subtitles' written forms appear on screen
        assert bare(f"p = {figures.fmt_dec(mathcore.length_normalised_encoding([seat], n, 1)[0, 0], 3)}") in shown
    assert bare("p = (5000, 5000, …)") in shown


def test_overview_clocks_table_rope_close():
    scene = build("word_order_overview")
    cls = type(scene)
    w = mathcore.frequencies(512)[list(cls.CLOCK_INDICES)]
    clocks = scene.probes["clocks"]
    for s in clocks:
        assert np.allclose(s["w"], w)
        assert np.all(np.abs(wrap(np.array(s["hand_angles"]) - s["p"] * w)) <= TOL)
    assert [s for s in clocks if s["frame"] <= scene.plan.cue("clocks").end_frame][-1]["p"] == cls.CLOCK_STEPS[-1]

    t = scene.probes["table"][0]
    want = mathcore.learned_table(cls.TABLE_LEN, cls.TABLE_D)[t["rows"]]
    assert np.allclose(t["values"], want, atol=TOL) and np.allclose(t["drawn"], want, atol=TOL)
    assert t["rows"][-1] == cls.TABLE_LEN - 1

    theta = np.radians(figures.THETA_DEG)
    rope = scene.probes["rope"]
    for s in rope:
        assert np.allclose(s["q_tip"], mathcore.rope_2d(s["q"], s["m"], theta), atol=TOL)
        assert np.allclose(s["k_tip"], mathcore.rope_2d(s["k"], s["n"], theta), atol=TOL)
        if s["score_on_screen"]:
            assert s["score"] == pytest.approx(mathcore.rope_score(s["q"], s["k"], s["m"], s["n"], theta), abs=TOL)
    end = [s for s in rope if s["frame"] <= scene.plan.cue("rope").end_frame][-1]
    assert (end["m"], end["n"]) == figures.ROPE_PAIRS[-1]
    assert end["score"] == pytest.approx(figures.rope_pair_scores()[0], abs=TOL)

    close = scene.probes["close"]
    wc = mathcore.frequencies(cls.CLOSE_D)
    for s in close:
        assert np.allclose(s["w"], wc)
        for i, a in enumerate(s["arrows"]):
            assert a["phi"] == pytest.approx(s["p"] * wc[i], abs=TOL)            # the arrow turns by the reading
            assert np.allclose(a["tip"], mathcore.rotate(a["v0"], s["p"] * wc[i]), atol=TOL)
        assert np.all(np.abs(wrap(np.array(s["hand_angles"]) - s["p"] * wc)) <= TOL)
        for a, hand in zip(s["arrows"], s["hand_angles"]):                   # q starts where a hand starts
            assert a["v0"] == [1.0, 0.0] and np.allclose(a["tip"], [np.cos(hand), np.sin(hand)], atol=TOL)
    assert close[-1]["p"] == cls.CLOSE_POSITION


def first_drawn(scene, text: str):
    """The first record of ``text`` on screen (``DrawnText``: its frame and cue), or None."""
    hits = [t for t in scene.drawn_texts if bare(t.text) == bare(text)]
    return min(hits, key=lambda t: t.frame) if hits else None


def test_overview_stands_alone():
    """Published alone as overview.mp4: the close points to the full lesson, not to a "next section"; the
    paper is named at its first mention (the year, the one that introduced the Transformer), in the voice
    and in the caption; and RoPE's distance-only score comes with its length caveat, drawn only once the
    voice reaches it."""
    scene = build("word_order_overview")
    plan = scene.plan
    close = plan.cue("close").text
    assert "完整的课里" in close and not any(w in close for w in ("接下来", "下面", "下一节"))
    nxt = first_drawn(scene, "完整的课里：一节一节展开，最后四道小题")
    assert nxt is not None and nxt.cue.endswith("close")
    clocks = plan.cue("clocks").text
    assert clocks.index("2017") < clocks.index("原论文") and "提出 Transformer" in clocks
    assert "绝对值" in clocks                                       # |reading| ≤ 1, readings reach −1
    caption = first_drawn(scene, "原论文（2017）：一排钟")
    assert caption is not None and caption.cue.endswith("clocks")
    rope = plan.cue("rope")
    assert "训练" in rope.text[rope.text.index("只看两个词隔了几个座位"):]
    caveat = first_drawn(scene, "超出训练时的长度：效果会打折扣")
    assert caveat is not None and caveat.cue.endswith("rope") and caveat.frame >= rope.bookmarks["caveat"]


def test_word_order_names_the_paper_at_its_first_mention():
    from tests.support.course_text import narration_places

    cues = [p for p in narration_places() if p.lesson == "word_order" and p.channel == "subtitles"]
    first = next(p for p in cues if "原论文" in p.text)
    assert "2017" in first.text and "Transformer" in first.text, first.where


def test_word_order_distance_only_always_comes_with_the_length_caveat():
    """Wherever lesson 2 says that the score only depends on the distance, the same scene says that beyond
    the training length it works less well (the caveat is drawn too, where the scene draws the claim)."""
    from tests.support.course_text import narration_places

    claims = ("只看两个词隔", "只由距离决定", "只看距离", "只看隔了几个座位", "只由两个座位的距离")
    by_scene: dict[str, list[str]] = {}
    for p in narration_places():
        if p.lesson == "word_order" and p.channel == "subtitles" and p.scene:
            by_scene.setdefault(p.scene, []).append(p.text)
    claiming = sorted(s for s, texts in by_scene.items() if any(c in t for t in texts for c in claims))
    assert {"word_order_overview", "qk_widget", "word_order_quiz"} <= set(claiming)
    for s in claiming:
        assert any("训练" in t and ("长度" in t or "长" in t) for t in by_scene[s]), s
    widget = build("qk_widget")
    slide = widget.plan.cue("slide")
    drawn = first_drawn(widget, "超出训练时的长度：效果会打折扣")
    assert drawn is not None and drawn.cue.endswith("slide") and drawn.frame >= slide.bookmarks["caveat"]


# -- SeatNumberCard, FurtherReading, NextStep --------------------------------------------
def test_seat_card_numbers():
    scene = build("seat_card")
    assert scene.probes["idea_seats"][0]["shown"] == ["0", "1", "2", "3", "4"]
    hops = scene.probes["hops"][0]
    assert hops["shown"] == [[str(a), str(b)] for a, b in hops["pairs"]]
    assert all(b - a == 1 for a, b in hops["pairs"])
    for (start, end), (xa, xb) in zip(hops["hop_ends"], hops["ticks"]):      # each hop goes from its seat to the next
        assert start == pytest.approx(xa, abs=0.02) and end == pytest.approx(xb, abs=0.02)
    text = scene.plan.cue("req_steady").text
    assert all(str(s) in text for pair in hops["pairs"] for s in pair)


def test_further_reading_matches_narration():
    scene = build("further_reading")
    entries = scene.probes["entries"][0]
    plan = scene.plan
    assert "2017" in entries["titles"][0] and "2017" in plan.cue("paper").text
    assert bare("Attention Is All You Need") in entries["titles"][0]
    assert "3.5" in entries["section"] and "3.5" in plan.cue("section").text
    assert "RoFormer" in entries["titles"][1] and "2021" in entries["titles"][1]
    assert "RoFormer" in plan.cue("roformer").text and "2021" in plan.cue("roformer").text
    assert "EleutherAI" in plan.cue("blogs").text
    assert len(entries["titles"]) == 4


def test_next_step_rank_is_measured():
    scene = build("next_step")
    n = scene.probes["numbers"][0]
    assert n["d_k"] == head_dim(n["d_model"], n["heads"]) == 64
    assert n["rank"] == head_score_rank(n["d_model"], n["d_k"]) == n["d_k"]
    shown = scene.probes["shown"][0]
    assert shown["heads"] == [bare(f"{n['d_k']} 维")] * n["heads"]
    assert shown["measured"].endswith(f"={n['rank']}")
    assert shown["thin_over_side"] == pytest.approx(n["d_k"] / n["d_model"])
    assert "8 个头" in scene.plan.cue("question").text and "64" in scene.plan.cue("question").text
    # the course ends here: a recap of the three lessons, and the low-rank question framed as 课外思考
    recap = scene.probes["recap"][0]
    assert [r[0] for r in recap["rows"]] == ["第一课", "第二课", "第三课"]
    q = scene.probes["question"][0]
    assert q["tag"] == "课外思考" and "课外思考" in scene.plan.cue("question").text
    for cue in scene.plan.cues:
        assert "下一课" not in cue.text and "接下来" not in cue.text


# -- the new mathcore modules ---------------------------------------------------------------
def test_low_rank():
    assert head_dim(512, 8) == 64
    with pytest.raises(ValueError):
        head_dim(512, 7)
    m = head_score_matrix(16, 3, seed=1)
    assert m.shape == (16, 16)
    assert head_score_rank(16, 3, seed=1) == 3 == np.linalg.matrix_rank(m)
    assert head_score_rank(8, 8) == 8                   # full rank when d_k = d_model


def test_shuffle_inputs_are_t1():
    x, perm = t1_inputs()
    assert mathcore.permutation_error(x, perm) == checks.t1_permutation()
    assert np.allclose(self_attention(x), mathcore.attention(x, x, x))
    assert np.allclose(self_attention(x[perm]), self_attention(x)[perm], atol=1e-12)
