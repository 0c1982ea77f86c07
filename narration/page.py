"""This course's live widgets on its page (media/course/index.html; the kinds and keys are in
coursekit/deliver/page.py). Their numbers are the ones the videos use, from ``figures``."""
from narration.figures import THETA_DEG, WIDGET_K, WIDGET_Q, WIDGET_SEATS

WIDGETS = [
    {   # the source article's q/k widget: q on seat m, k on seat n (as in the videos); k's turn relative to
        # q, (n−m)θ, signed; the angle between them folded into [0°, 180°]; the score cos((n−m)θ)
        "kind": "rotation_pair",
        "lesson": "word_order",
        "scene": "qk_widget",               # the chapter it goes with
        "title": "动手转一转：q 坐座位 m，k 坐座位 n",
        "theta_deg": THETA_DEG,
        "seats": round(360 / THETA_DEG),    # one full turn of seats
        "q": WIDGET_Q,
        "k": WIDGET_K,
        "m": WIDGET_SEATS[0][0],
        "n": WIDGET_SEATS[0][1],
    },
]
