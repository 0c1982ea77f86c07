"""This course's live widgets on its page (media/course/index.html): each names its kind, a folder of
widgets/ (markup, script, style), and gives its data; the engine places it (coursekit/deliver/widgets.py).
Their numbers are the ones the videos use, from ``figures``, and every number a widget shows is computed
here, with ``mathcore``, and written with the figures' own formatters: the widget's script only looks
them up and draws."""

import math

import numpy as np

import mathcore
from mathcore.scores import angle_between
from narration.figures import (
    ROPE_PAIR_K_LEAD_DEG,
    ROPE_PAIRS,
    THETA_DEG,
    WIDGET_K,
    WIDGET_Q,
    WIDGET_SEATS,
    fmt_dec,
)

#: the note under the q/k widget's switch: why arrows that start aligned score k after q and k before q
#: alike, and how a k that starts ahead tells them apart; {name} is filled from the widget's own tables
ROTATION_PAIR_NOTE = (
    "两支箭头起初叠在一起时，k 在 q 后面 {gap} 个座位，就比 q 多转 {turn}°；在前面 {gap} 个座位，就少转 {turn}°。"
    "方向相反，夹角却一样，都是 {aligned}°，分数也一样。所以分不出谁先谁后。"
    "让 k 起初多偏 {lead}°，先后就分开了：k 在后面，夹角 {after}°，分数 {after_score}；"
    "在前面，夹角 {before}°，分数 {before_score}。"
)


def _state(q: list[float], k: list[float], theta: float, seats: int) -> dict:
    """One start of k: each arrow's tip at each seat, and for q on seat m, k on seat n the angle between
    them (degrees, 0 to 180, as written) and the score q·k (and as written), tables indexed [m][n]."""
    q_at = [mathcore.rope_2d(q, s, theta) for s in range(seats)]
    k_at = [mathcore.rope_2d(k, s, theta) for s in range(seats)]
    angle = [[math.degrees(angle_between(q_at[m], k_at[n])) for n in range(seats)] for m in range(seats)]
    score = [[mathcore.rope_score(q, k, m, n, theta) for n in range(seats)] for m in range(seats)]
    return {
        "k": [float(c) for c in k],
        "q_at": [[float(c) for c in v] for v in q_at],
        "k_at": [[float(c) for c in v] for v in k_at],
        "angle_text": [[fmt_dec(a) for a in row] for row in angle],
        "score": score,
        "score_text": [[fmt_dec(s) for s in row] for row in score],
    }


def rotation_pair(
    *, theta_deg: float, seats: int, q, k, m: int, n: int, lead_deg: float | None = None, lead_on: bool = False
) -> dict:
    """The data of widgets/rotation_pair/: q on seat m and k on seat n (as in the videos), each arrow turned
    by its seat times θ, ``seats`` seats on the dial. With ``lead_deg``, a switch starts k that many degrees
    further round (counter-clockwise) than ``k``, on at first if ``lead_on``. Every number shown is here:
    the seats' turns, each start's arrows, angles and scores (``_state``). Checked: a ValueError saying
    what to fix."""
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
    if lead_deg is not None and not (math.isfinite(float(lead_deg)) and 0 < abs(float(lead_deg)) < 360):
        bad.append("lead_deg must be a number of degrees, 0 < |lead| < 360, or None for no switch")
    if bad:
        raise ValueError("rotation_pair: " + "; ".join(bad))
    theta = math.radians(theta_deg)
    unit = all(abs(float(np.linalg.norm(v)) - 1) < 1e-12 for v in (q, k))
    starts = [k] if lead_deg is None else [k, [float(c) for c in mathcore.rotate(k, math.radians(lead_deg))]]
    return {
        "theta_deg": theta_deg,
        "theta_text": fmt_dec(theta_deg),
        "seats": seats,
        "q": q,
        "k": k,
        "m": m,
        "n": n,
        "dial": [[float(c) for c in mathcore.pointer_tip(s * theta)] for s in range(seats)],
        "turn_text": [fmt_dec(s * theta_deg) for s in range(seats)],  # mθ, nθ
        "gap_text": [fmt_dec(d * theta_deg) for d in range(1 - seats, seats)],  # (n − m)θ, from 1 − seats up
        # k's turn relative to q with the switch on: the lead plus (n − m)θ (what the arrows show), same index
        "lead_gap_text": None
        if lead_deg is None
        else [fmt_dec(float(lead_deg) + d * theta_deg) for d in range(1 - seats, seats)],
        "lead_deg": None if lead_deg is None else float(lead_deg),
        "lead_text": None if lead_deg is None else fmt_dec(lead_deg),
        "lead_on": bool(lead_on) and lead_deg is not None,
        # unit arrows, k starting along q: the score is cos((n − m)θ), or cos(lead + (n − m)θ) with the lead
        "rule": unit and angle_between(q, k) < 1e-6,
        "states": [_state(q, start, theta, seats) for start in starts],  # [k as given, k led by lead_deg]
    }


def with_note(data: dict, gap: int, note: str = ROTATION_PAIR_NOTE) -> dict:
    """``data`` with its note: ``note`` filled from its own tables for q on seat 0 and k ``gap`` seats after
    it, and k ``gap`` seats before q (on seat 0)."""
    aligned, led = data["states"]
    fill = {
        "gap": str(gap),
        "turn": data["turn_text"][gap],
        "aligned": aligned["angle_text"][0][gap],
        "lead": data["lead_text"],
        "after": led["angle_text"][0][gap],
        "after_score": led["score_text"][0][gap],
        "before": led["angle_text"][gap][0],
        "before_score": led["score_text"][gap][0],
    }
    return {**data, "note": note.format(**fill)}


WIDGETS = [
    {  # the source article's q/k widget: q on seat m, k on seat n (as in the videos); k's turn relative to
        # q, (n−m)θ, signed; the angle between them folded into [0°, 180°]; the score q·k. Its switch starts
        # k ahead of q as lesson 1's pair does, so that k after q and k before q score differently
        "kind": "rotation_pair",
        "lesson": "word_order",
        "scene": "qk_widget",  # the chapter it goes with
        "title": "动手转一转：q 坐座位 m，k 坐座位 n",
        "data": with_note(
            rotation_pair(
                theta_deg=THETA_DEG,
                seats=round(360 / THETA_DEG),  # one full turn of seats
                q=WIDGET_Q,
                k=WIDGET_K,
                m=WIDGET_SEATS[0][0],
                n=WIDGET_SEATS[0][1],
                lead_deg=ROPE_PAIR_K_LEAD_DEG,  # lesson 1's pair: k starts this far ahead of q
                lead_on=False,  # both arrows start pointing right; the switch gives lesson 1's lead, as the video
            ),
            gap=ROPE_PAIRS[0][1] - ROPE_PAIRS[0][0],  # lesson 1's pairs: k three seats after q
        ),
    },
]
