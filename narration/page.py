"""This course's live widgets on its page (media/course/index.html; the kinds and keys are in
coursekit/deliver/page.py). Their numbers are the ones the videos use, from ``figures``."""
from narration.figures import THETA_DEG, WIDGET_K, WIDGET_Q, WIDGET_SEATS

WIDGETS = [
    {   # the source article's q/k widget: q on seat i, k on seat j, the angle and the score cos((j−i)θ)
        "kind": "rotation_pair",
        "lesson": "word_order",
        "scene": "qk_widget",               # the chapter it goes with
        "title": "动手转一转：q 坐座位 i，k 坐座位 j",
        "theta_deg": THETA_DEG,
        "seats": round(360 / THETA_DEG),    # one full turn of seats
        "q": WIDGET_Q,
        "k": WIDGET_K,
        "i": WIDGET_SEATS[0][0],
        "j": WIDGET_SEATS[0][1],
    },
]
