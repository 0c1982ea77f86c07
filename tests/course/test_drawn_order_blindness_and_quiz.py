"""The scenes on order blindness and its fixes (order blindness, failing encodings, the learned table, where order enters, the quiz).

What they draw equals mathcore. Frames and layout are checked for every scene by
tests/test_viewer_check.py. Each scene is built once per session from its real narration plan
(``conftest.built_scene``).
"""
from __future__ import annotations


import numpy as np
import pytest

import mathcore
from narration import figures
from mathcore.toy_words import attention_scores, attention_weights, distance, dot, norm, word_vectors
from tests.support.course_scenes import narration_scene

TOL = 1e-6
SCENES = ["attention_blind", "blind_bag", "failing_encodings", "learned_table", "order_entry", "word_order_quiz"]


@pytest.fixture(scope="module")
def scene_b():
    return narration_scene


def one(scene, name):
    samples = scene.probes[name]
    assert len(samples) == 1, name
    return samples[0]


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
    assert np.allclose(w @ x, out, atol=TOL)                      # weights · x is the drawn output
    sh = one(scene, "shuffled")
    assert sh["tokens"] == [words[i] for i in perm] == sh["words"]
    assert np.allclose(sh["x"], x[perm], atol=TOL)
    assert np.allclose(sh["outputs"], mathcore.attention(x[perm], x[perm], x[perm]), atol=TOL)
    assert sh["drawn"] == [inputs["drawn"][i] for i in perm]        # the same rows, moved
    cmp = one(scene, "compare")
    assert np.abs(np.array(cmp["before_then_shuffle"]) - np.array(cmp["shuffle_then_after"])).max() <= 1e-12
    assert cmp["error"] == mathcore.permutation_error(x, perm)
    assert cmp["error_shown"] == figures.fmt_sci(cmp["error"])
    assert cmp["drawn_old"] == cmp["drawn_new"]                     # colour for colour, row for row
    assert cmp["drawn_new"] == [one(scene, "outputs")["drawn"][i] for i in perm]


def blind_bag_disagreements(samples, x) -> list[str]:
    """Each drawn output strip against attention of the sentence in the order its chips show, slot for slot
    (once the words stand still), and each strip under its own chip."""
    out = []
    for s in samples:
        for j, (strip, want) in enumerate(zip(s["shown"], s["recomputed"])):
            if abs(s["slot_x"][j] - s["slots"][j]) > 1e-6:
                continue                              # moving with its word
            if not np.allclose(strip, want, atol=TOL):
                out.append(f"frame {s['frame']}: slot {j}: the strip is not the output of the word shown there")
    return out


def test_blind_bag_recalls_the_shuffle(scene_b):
    """word_order's reminder: the outputs move with their words, recomputing on the new order gives the same
    strips (置换等变, named on screen), and a strip moved to another word's slot would be caught."""
    scene = scene_b("blind_bag")
    words, perm = list(scene.WORDS), list(scene.PERM)
    x = word_vectors(words, scene.D)
    samples = scene.probes["demo"]
    assert samples[0]["order"] == list(range(len(words))) and samples[-1]["order"] == perm
    assert np.allclose(samples[0]["shown"], mathcore.attention(x, x, x), atol=TOL)
    assert np.allclose(samples[-1]["shown"], mathcore.attention(x[perm], x[perm], x[perm]), atol=TOL)
    assert blind_bag_disagreements(samples, x) == []
    recall = one(scene, "recall")
    assert recall["term"] == "置换等变" and recall["perm"] == perm
    assert "置换等变" in scene.plan.cue("recall").text
    bad = [dict(s, shown=[s["shown"][1], s["shown"][0], *s["shown"][2:]]) for s in samples]
    assert blind_bag_disagreements(bad, x)


# -- FailingEncodings ------------------------------------------------------------------------------
def test_failing_encodings_values(scene_b):
    scene = scene_b("failing_encodings")
    x_cat, x_dog = word_vectors([scene.WORD, scene.OTHER], scene.D)
    raw = lambda p: mathcore.raw_index_encoding([p], scene.D)[0]    # noqa: E731
    bars = [s for s in scene.probes["bars"] if s["on_screen"]]
    assert len(bars) > 100
    for s in bars:
        assert np.allclose(s["code"], raw(s["p"]), atol=TOL)
        assert np.allclose(s["word"], x_cat, atol=TOL)
        want = np.asarray(s["code"]) + x_cat
        assert np.allclose(s["drawn"], want, rtol=TOL, atol=TOL)
    assert min(s["p"] for s in bars) == scene.NEAR and max(s["p"] for s in bars) == scene.FAR
    assert one(scene, "seat_far")["p"] == scene.FAR and one(scene, "seat_far")["shown"] == str(scene.FAR)
    rows = one(scene, "raw_rows")
    assert np.allclose(rows["x"], x_cat) and np.allclose(rows["p"], raw(scene.NEAR))
    # vectors are written in parentheses, as in the overview: p = (3, 3, 3, 3)
    assert rows["shown"][1] == "p=(" + ",".join(figures.fmt_dec(v) for v in raw(scene.NEAR)) + ")"
    cat = one(scene, "raw_cat")
    assert cat["dot_word"] == pytest.approx(float(x_cat @ x_dog), abs=TOL)
    assert cat["dot_far"] == pytest.approx(float((x_cat + raw(scene.FAR)) @ (x_dog + raw(scene.FAR))), rel=1e-12)
    assert cat["dist_same_word"] == pytest.approx(np.linalg.norm(raw(scene.FAR) - raw(scene.NEAR)), abs=TOL)
    assert cat["dist_words"] == pytest.approx(np.linalg.norm(x_cat - x_dog), abs=TOL)
    assert cat["dist_same_word"] > 1000 * cat["dist_words"]
    assert figures.fmt_dec(cat["dot_word"]) in cat["shown"][0]
    far_dot = float((x_cat + raw(scene.FAR)) @ (x_dog + raw(scene.FAR)))
    assert f"≈{figures.fmt_dec(far_dot / 1e8, 1)}亿" in cat["shown"][1]            # ≈ 1 亿, not 8 digits
    assert len(cat["shown"][1].split("≈")[1]) <= 5                                  # a short figure, e.g. "1亿"
    assert "@" not in "".join(cat["shown"])
    codes = one(scene, "norm_codes")
    short_n, long_n = figures.NORM_LENGTHS
    assert np.allclose(codes["short_dots"], mathcore.length_normalised_encoding(np.arange(short_n), short_n, 1)[:, 0])
    assert np.allclose(codes["long_dots"], mathcore.length_normalised_encoding(np.arange(long_n), long_n, 1)[:, 0])
    assert codes["shown"] == [figures.value("norm_code_short"), figures.value("norm_code_long")]
    steps = one(scene, "norm_steps")
    assert steps["shown"] == [f"一步{figures.value('norm_step_short')}", f"一步{figures.value('norm_step_long')}"]
    assert np.allclose(steps["drawn"], [float(figures.value("norm_step_short")), float(figures.value("norm_step_long"))])
    # seats are counted 个座位 (not 座); the verdicts are led by a drawn cross (the course font has no ✗)
    assert f"第{scene.FAR}个座位" in cat["shown"][1] and f"第{scene.NEAR}个座位的{scene.WORD}" in cat["shown"][2]
    verdicts = scene.probes["verdict"]
    assert [v["text"].split("：")[0] for v in verdicts] == ["违反第二条", "违反第三条"]
    assert all(v["kind"] == "cross" and v["mark_left_of_text"] and "✗" not in v["text"] for v in verdicts)


# -- LearnedTable ----------------------------------------------------------------------------------
def test_learned_table_rows(scene_b):
    scene = scene_b("learned_table")
    table = one(scene, "table")
    want = mathcore.learned_table(scene.MAX_LEN, scene.D, seed=scene.SEED)
    assert np.array_equal(np.array(table["values"]), want)
    drawn = table["drawn"]
    assert len(drawn) == scene.MAX_LEN and all(len(r) == scene.D for r in drawn)
    # darker cell ⇔ smaller value: the colour order follows the value order in every row
    flat_v, flat_c = want.ravel(), [c for r in drawn for c in r]
    assert flat_c[int(np.argmax(flat_v))] != flat_c[int(np.argmin(flat_v))]
    assert one(scene, "lookups")["lit"] == one(scene, "lookups")["seats"]
    ghost = one(scene, "ghost")
    assert ghost["seat"] == ghost["rows"] == want.shape[0]          # the first seat with no row
    # the pro and the con, each led by a drawn mark (the course font has no ✗; the tick is drawn to match)
    assert [(v["kind"], v["text"]) for v in one(scene, "verdicts")["lines"]] == [("tick", "贴合训练数据"),
                                                                             ("cross", "长度写死了")]
    w = mathcore.frequencies(scene.D)
    clocks = [s for s in scene.probes["clocks"] if s["on_screen"]]
    for s in clocks:
        diff = (np.array(s["hand_angles"]) - s["p"] * w + np.pi) % (2 * np.pi) - np.pi
        assert np.all(np.abs(diff) <= TOL)
    assert clocks[-1]["p"] == scene.CLOCK_TO > scene.MAX_LEN
    # paper_choice: the screen follows the voice: tried both (a tie) → chose the clocks (any seat) → unseen
    # lengths go badly anyway; each line appears after its bookmark
    cue = scene.plan.cue("paper_choice")
    lines = scene.probes["paper_line"]
    assert [s["frame"] for s in lines] == sorted(s["frame"] for s in lines)
    keys = ("两种都试了", "选了那排钟", "更长的句子", "没见过")
    assert all(k in s["text"] for k, s in zip(keys, lines)) and len(lines) == len(keys)
    spoken = [cue.text.index(k) for k in keys]
    assert spoken == sorted(spoken)
    assert lines[1]["frame"] > cue.bookmarks["pick"] and lines[3]["frame"] > cue.bookmarks["but"]


# -- WhereOrderEnters --------------------------------------------------------------------------------
def test_where_order_enters_values(scene_b):
    scene = scene_b("order_entry")
    x = word_vectors(scene.WORDS, scene.D)
    assert np.allclose(one(scene, "scores")["values"], attention_scores(x), atol=TOL)
    wts = one(scene, "weights")
    assert np.allclose(wts["values"], mathcore.softmax(attention_scores(x)), atol=TOL)
    assert np.allclose(wts["row_sums"], 1.0, atol=TOL)
    bars = [s for s in scene.probes["bars"] if s["on_screen"]]
    for s in bars:
        assert np.allclose(s["code"], mathcore.raw_index_encoding([s["p"]], scene.D)[0], atol=TOL)
        assert np.allclose(s["drawn"], np.asarray(s["code"]) + np.asarray(s["word"]), rtol=TOL, atol=TOL)
    assert one(scene, "seat_big")["p"] == scene.BIG and one(scene, "seat_big")["shown"] == str(scene.BIG)
    pol = one(scene, "pollute")
    x_cat = word_vectors([scene.CAT], scene.D)[0]
    for p, v, n in zip(scene.SEATS, pol["want"], pol["norms"]):
        assert np.allclose(v, x_cat + mathcore.raw_index_encoding([p], scene.D)[0])
        assert n == pytest.approx(np.linalg.norm(v))
    for shown, n in zip(pol["shown"], pol["norms"]):
        assert shown[2].endswith(figures.fmt_dec(n))
    # the word's share of the vector: 比重 (fèn liàng would read as "component") on screen and in the voice
    assert "比重" in pol["meant"] and "比重" in scene.plan.cue("raw_pollute").text and "分量" not in pol["meant"]
    turn = [s for s in scene.probes["turn"] if s["on_screen"]]
    assert turn
    for s in turn:
        assert np.allclose(s["tip"], mathcore.rotate(s["v0"], s["phi"]), atol=TOL)
    assert one(scene, "length")["shown"] == "1.00"


# -- Quiz ----------------------------------------------------------------------------------------------
def test_quiz_countdown_reaches_zero_at_pause_end(scene_b):
    scene = scene_b("word_order_quiz")
    fps = scene.plan.fps
    for n in range(1, 5):
        think = scene.plan.cue(f"q{n}_think")
        pause = round((think.frames - think.speech_frames) / fps)
        assert pause == 5                                            # the narration's `pause: 5`
        samples = {s["frame"]: s for s in scene.probes[f"countdown{n}"] if s["on_screen"]}
        frames = range(think.start_frame + 1, think.end_frame + 1)
        assert set(frames) <= set(samples), "the countdown is drawn on every frame of the pause"
        for f in frames:
            s = samples[f]
            left = think.end_frame - f
            assert s["shown"] == min(pause, -(-left // fps)), f
            assert s["visible"] == [s["shown"]], f                     # one glyph drawn, the right one
            assert s["fraction"] == pytest.approx(min(1.0, left / (pause * fps)))
        assert samples[think.end_frame]["shown"] == 0 and samples[think.end_frame]["fraction"] == 0
        assert samples[think.end_frame - 1]["shown"] == 1
        speech_end = think.start_frame + think.speech_frames
        assert samples[speech_end]["shown"] == pause                 # full count when the silence starts
        assert {samples[f]["shown"] for f in frames} == set(range(pause + 1))
        # each whole second is shown for exactly one second of the pause
        for k in range(1, pause + 1):
            assert sum(1 for f in range(speech_end, think.end_frame) if samples[f]["shown"] == k) == fps


def test_quiz_answers_use_the_course_terms(scene_b):
    """The key points on screen say what the spoken answers say, in the glossary's words (转速, 指针, k 相对 q
    转过的角), 'mostly' near ±1, and the length caveat after RoPE's distance-only score."""
    scene = scene_b("word_order_quiz")
    q3 = scene.plan.cue("q3").text
    assert "转速不同的钟" in q3 and "走速" not in q3
    assert "大多在正负 1 附近" in scene.plan.cue("q2_answer").text and "大多在 ±1 附近" in scene.ANSWERS[2][0]
    assert "快的指针" in scene.plan.cue("q3_answer").text and scene.ANSWERS[3][1].startswith("快的指针")
    q4 = scene.plan.cue("q4_answer").text
    assert "k 相对 q 多转了 (n−m)θ" in q4 and "训练" in q4 and "v 不转" in q4
    assert any("训练" in line for line in scene.ANSWERS[4]) and any("v 不转" in line for line in scene.ANSWERS[4])


def test_quiz_questions_are_the_cue_text(scene_b):
    scene = scene_b("word_order_quiz")
    shown = {s["n"]: s["shown"] for s in scene.probes["question"]}
    for n in range(1, 5):
        text = scene.plan.cue(f"q{n}").text.replace(" ", "")      # Text.text drops spaces
        assert text == f"第{'一二三四'[n - 1]}题：" + shown[n]
    # as wrapped on screen: no line starts with a closing mark (，。？ …)
    from scenes.quiz import NO_LINE_START, wrap_cjk

    for n in range(1, 5):
        question = scene.plan.cue(f"q{n}").text.split("：", 1)[1]
        lines = wrap_cjk(question, scene.WRAP)
        assert "".join(lines) == question and not any(line[0] in NO_LINE_START for line in lines[1:]), lines


# -- helpers ----------------------------------------------------------------------------------------------
def test_toy_words_and_countdown_helpers():
    a, b = word_vectors(["猫", "追", "狗"]), word_vectors(["狗", "追", "猫"])
    assert np.array_equal(a[[2, 1, 0]], b)                        # a word's vector ignores its seat
    assert np.array_equal(word_vectors(["猫"], seed=0), word_vectors(["猫"], seed=0))
    assert not np.array_equal(word_vectors(["猫"], seed=0), word_vectors(["猫"], seed=1))
    assert np.allclose(attention_weights(a) @ a, mathcore.attention(a, a, a))
    assert dot([1, 2], [3, 4]) == 11.0 and distance([0, 0], [3, 4]) == 5.0 and norm([3, 4]) == 5.0
    with pytest.raises(ValueError):
        word_vectors(["猫"], d=0)
    from scenes.mobjects.countdown import Countdown
    from scenes.quiz import wrap_cjk

    assert [Countdown.whole_seconds_left(n, 15) for n in (75, 61, 60, 16, 15, 1, 0, -3)] == [5, 5, 4, 2, 1, 1, 0, 0]
    assert wrap_cjk("一二三，四五六七", 5) == ["一二三，", "四五六七"]
    assert "".join(wrap_cjk("问" * 50, 24)) == "问" * 50
