"""place_segment draws exactly what put_start_and_end_on draws, for Line and DashedLine."""
import numpy as np
import pytest
from manim import DashedLine, Line

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
