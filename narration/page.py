"""This course's live widgets on its page (media/course/index.html): each names its kind, a folder of
widgets/ (markup, script, style), and gives its data; the engine places it (coursekit/deliver/widgets.py).
Their numbers are the ones the videos use, from ``figures``."""

import math

from narration.figures import THETA_DEG, WIDGET_K, WIDGET_Q, WIDGET_SEATS


def rotation_pair(*, theta_deg: float, seats: int, q, k, m: int, n: int) -> dict:
    """The data of widgets/rotation_pair/: q on seat m and k on seat n (as in the videos), each arrow turned
    by its seat times θ, ``seats`` seats on the dial; checked, a ValueError saying what to fix."""
    theta_deg, seats, m, n = float(theta_deg), int(seats), int(m), int(n)
    q, k = [float(x) for x in q], [float(x) for x in k]
    bad = []
    if not (math.isfinite(theta_deg) and 0 < abs(theta_deg) <= 360):
        bad.append("theta_deg must be a number of degrees, 0 < |θ| <= 360")
    if not 2 <= seats <= 1000:
        bad.append("seats must be 2 to 1000")
    if len(q) != 2 or len(k) != 2 or not all(map(math.isfinite, q + k)):
        bad.append("q and k must be 2-D vectors")
    if not (0 <= m < seats and 0 <= n < seats):
        bad.append("m and n must be seats, 0 to seats - 1")
    if bad:
        raise ValueError("rotation_pair: " + "; ".join(bad))
    return {"theta_deg": theta_deg, "seats": seats, "q": q, "k": k, "m": m, "n": n}


WIDGETS = [
    {  # the source article's q/k widget: q on seat m, k on seat n (as in the videos); k's turn relative to
        # q, (n−m)θ, signed; the angle between them folded into [0°, 180°]; the score cos((n−m)θ)
        "kind": "rotation_pair",
        "lesson": "word_order",
        "scene": "qk_widget",  # the chapter it goes with
        "title": "动手转一转：q 坐座位 m，k 坐座位 n",
        "data": rotation_pair(
            theta_deg=THETA_DEG,
            seats=round(360 / THETA_DEG),  # one full turn of seats
            q=WIDGET_Q,
            k=WIDGET_K,
            m=WIDGET_SEATS[0][0],
            n=WIDGET_SEATS[0][1],
        ),
    },
]
