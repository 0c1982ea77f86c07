"""What the scenes draw with: place_segment draws exactly what put_start_and_end_on draws, for Line and
DashedLine; the glyph number and the think timer (scenes/mobjects); the quiz's countdown and line breaks, and
the toy words they show (mathcore.toy_words)."""

import numpy as np
import pytest
from manim import DashedLine, Line

import mathcore
from mathcore.toy_words import attention_weights, distance, dot, norm, word_vectors
from scenes.mobjects.segment import place_segment


@pytest.mark.parametrize("cls", [Line, DashedLine])
def test_same_points_as_put_start_and_end_on(cls):
    rng = np.random.default_rng(3)
    slow, fast = cls([0, 0, 0], [1, 0, 0]), cls([0, 0, 0], [1, 0, 0])
    for _ in range(200):
        s = np.append(rng.uniform(-4, 4, 2), 0.0)
        e = s + np.append(rng.uniform(-3, 3, 2), 0.0)
        slow.put_start_and_end_on(s, e)
        place_segment(fast, s, e)
        a, b = slow.family_members_with_points(), fast.family_members_with_points()
        assert len(a) == len(b)
        for x, y in zip(a, b):
            np.testing.assert_allclose(y.points, x.points, atol=1e-9)
        np.testing.assert_allclose(fast.get_start(), s, atol=1e-9)
        np.testing.assert_allclose(fast.get_end(), e, atol=1e-9)


def test_toy_words_and_countdown_helpers():
    a, b = word_vectors(["猫", "追", "狗"]), word_vectors(["狗", "追", "猫"])
    assert np.array_equal(a[[2, 1, 0]], b)  # a word's vector ignores its seat
    assert np.array_equal(word_vectors(["猫"], seed=0), word_vectors(["猫"], seed=0))
    assert not np.array_equal(word_vectors(["猫"], seed=0), word_vectors(["猫"], seed=1))
    assert np.allclose(attention_weights(a) @ a, mathcore.attention(a, a, a))
    assert dot([1, 2], [3, 4]) == 11.0 and distance([0, 0], [3, 4]) == 5.0 and norm([3, 4]) == 5.0
    with pytest.raises(ValueError):
        word_vectors(["猫"], d=0)
    from scenes.mobjects.countdown import Countdown
    from scenes.word_order_quiz import wrap_cjk

    assert [Countdown.whole_seconds_left(n, 15) for n in (75, 61, 60, 16, 15, 1, 0, -3)] == [5, 5, 4, 2, 1, 1, 0, 0]
    assert wrap_cjk("一二三，四五六七", 5) == ["一二三，", "四五六七"]
    assert "".join(wrap_cjk("问" * 50, 24)) == "问" * 50


def test_glyph_number_and_timer():
    from manim import VGroup

    from scenes.mobjects.glyph_number import GlyphNumber, fixed
    from scenes.mobjects.think_timer import ThinkTimer, seconds_left

    n = GlyphNumber(fixed(3), 0.0, max_chars=7)
    for v in (-0.0004, 1.23456, -12.5, 0.5):
        n.set_value(v)
        assert n.text == fixed(3)(v) and "−0.000" not in n.text
        drawn = [m for m in n.slots if np.ptp(m.points, axis=0).max() > 0]  # unused slots: one point
        assert len(drawn) == len(n.text.replace(" ", "")) == len(n.glyph_pairs())
        assert len({len(m.points) > 0 for m in n.slots}) == 1  # every slot keeps points (animations zip them)
    slots = list(n.submobjects)
    n.set_value(-3.25)
    assert n.submobjects == slots  # same mobjects: a running play keeps drawing the right ones
    assert [seconds_left(f, 15) for f in (120, 119, 106, 105, 15, 14, 1, 0, -3)] == [8, 8, 8, 7, 1, 1, 1, 0, 0]
    group = VGroup(n)
    left = n.get_left()[0]
    group.shift(np.array([1.0, 2.0, 0.0]))  # moved as part of a group ...
    n.set_value(123.4)  # ... the next string starts there too
    assert n.get_left()[0] == pytest.approx(left + 1.0, abs=1e-9)
    t = ThinkTimer(120, 15)
    t.set_frames_left(119)
    assert t.shown_seconds() == 8
    t.set_frames_left(0)
    assert t.shown_seconds() == 0 and t.probe_values()["ring_fraction"] == 0
