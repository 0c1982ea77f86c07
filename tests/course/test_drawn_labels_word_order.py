"""Label equals drawing in the word_order overview and the q/k widget.

Each scene records, on every drawn frame, the text of its labels exactly as drawn and the raw points of
the geometry they describe (``watch()``: arrow start/end points, the angle arc's centre and ends, the
clock hands, the seat chips on the strip). The checks below read the labels back as numbers and measure
the drawing with ``tests/drawn.py``; each is a function ``samples -> list of disagreements``, and each has
a second test that perturbs the samples (the drawing, and separately the label) and sees it complain.
The drawn starting directions and speeds are also compared with mathcore's.
"""
from __future__ import annotations

import copy
import re

import numpy as np
import pytest

import mathcore
from narration import figures
from mathcore.scores import angle_between
from tests.support.course_scenes import built_scene
from tests.support.drawn import arc_sweep_deg, direction_deg, disagreements, last_number, length, signed_gap_deg

ANGLE_TOL = 0.5 + 1e-6          # a whole-degree readout
SCORE_TOL = 0.005 + 1e-6        # a two-place readout
PAIR = re.compile(r"\(([−\-]?\d+(?:\.\d+)?),([−\-]?\d+(?:\.\d+)?)\)")


def probes(scene_id: str, name: str) -> list[dict]:
    samples = built_scene(scene_id)[0].probes[name]
    assert samples, f"{scene_id} recorded no {name!r} samples"
    return samples


def pair_in(text: str) -> tuple[float, float]:
    """The last ``(a, b)`` written in ``text`` (Text drops spaces): ``(m,n)=(2,5)`` -> (2.0, 5.0)."""
    found = PAIR.findall(text)
    if not found:
        raise ValueError(f"no (a, b) in {text!r}")
    a, b = found[-1]
    return float(a.replace("−", "-")), float(b.replace("−", "-"))


def places(number_text: str) -> int:
    return len(number_text.split(".")[1]) if "." in number_text else 0


def dir_of(s: dict, who: str) -> float:
    return direction_deg(s[f"{who}_start"], s[f"{who}_end"])


def drawn_gap(s: dict) -> float:
    """The angle between the drawn q and k arrows, in [0, 180]."""
    return abs(signed_gap_deg(dir_of(s, "q"), dir_of(s, "k")))


def turn_off(label_deg: float, from_deg: float, to_deg: float) -> float:
    """How far a turn label (any number of degrees) is from the drawn turn from ``from`` to ``to`` (mod 360)."""
    return abs(signed_gap_deg(label_deg % 360.0, signed_gap_deg(from_deg, to_deg) % 360.0))


def rotated(s: dict, who: str, deg: float) -> dict:
    """A copy of sample ``s`` with arrow ``who`` turned by ``deg`` about its start (a perturbed drawing)."""
    s = copy.deepcopy(s)
    a, b = np.asarray(s[f"{who}_start"]), np.asarray(s[f"{who}_end"])
    c, si = np.cos(np.radians(deg)), np.sin(np.radians(deg))
    d = b - a
    s[f"{who}_end"] = (a + np.array([c * d[0] - si * d[1], si * d[0] + c * d[1], d[2]])).tolist()
    return s


def perturbed(samples: list[dict], when, change) -> list[dict]:
    """``samples`` with ``change(sample)`` applied to the samples where ``when(sample)`` holds."""
    out, hit = [], 0
    for s in samples:
        if when(s):
            s, hit = change(copy.deepcopy(s)), hit + 1
        out.append(s)
    assert hit, "the perturbation touched no sample"
    return out


# =============================================================================================
# the overview's RoPE beat: angle readout, arc and score vs the drawn q and k; seats vs turns
# =============================================================================================
def rope_angle_disagreements(samples: list[dict]) -> list[str]:
    """The ``夹角`` readout vs the angle between the drawn arrows, and vs the arc drawn between them."""
    out = disagreements(samples, shown=lambda s: s["gap_on"], said=lambda s: last_number(s["gap_text"]),
                        drawn=drawn_gap, tol=ANGLE_TOL, what="angle readout vs arrows")
    out += disagreements(samples, shown=lambda s: s["gap_on"] and s["arc_on"] and drawn_gap(s) > 1.0,
                         said=lambda s: last_number(s["gap_text"]),
                         drawn=lambda s: abs(arc_sweep_deg(s["arc_center"], s["arc_start"], s["arc_end"])),
                         tol=ANGLE_TOL, what="angle readout vs arc")
    return out


def score_disagreements(samples: list[dict], *, shown: str = "score_on") -> list[str]:
    """The score readout vs |q||k|·cos(angle) measured from the drawn arrows (lengths in vector units)."""
    def drawn(s):
        lq = length(s["q_start"], s["q_end"]) / s["unit"]
        lk = length(s["k_start"], s["k_end"]) / s["unit"]
        return lq * lk * np.cos(np.radians(drawn_gap(s)))
    return disagreements(samples, shown=lambda s: s[shown] if isinstance(s[shown], bool) else s[shown][3],
                         said=lambda s: last_number(s["score_text"]), drawn=drawn, tol=SCORE_TOL,
                         what="score vs |q||k|cos(drawn angle)")


def rope_seat_disagreements(samples: list[dict]) -> list[str]:
    """The seat caption ``(m, n)`` with ``q 转 mθ，k 转 nθ（θ = 30°）``: from the frames captioned (0, 0), the
    drawn q has turned mθ and the drawn k nθ, so k has turned (n − m)θ more (mod 360)."""
    ref = [s for s in samples if any(on and pair_in(t) == (0.0, 0.0) for t, on in zip(s["seat_texts"], s["seats_on"]))]
    if not ref:
        return ["no frame shows the seats (0, 0): no drawn starting directions"]
    q0, k0 = dir_of(ref[0], "q"), dir_of(ref[0], "k")
    out = [f"frame {s['frame']}: at seats (0, 0) the arrows moved" for s in ref
           if abs(signed_gap_deg(q0, dir_of(s, "q"))) > 1e-6 or abs(signed_gap_deg(k0, dir_of(s, "k"))) > 1e-6]
    for s in samples:
        for text, on in zip(s["seat_texts"], s["seats_on"]):
            if not (on and s["rule_on"]):
                continue
            m, n = pair_in(text)
            theta = last_number(s["rule_text"])
            for who, seat, start in (("q", m, q0), ("k", n, k0)):
                off = turn_off(seat * theta, start, dir_of(s, who))
                if off > 1e-6:
                    out.append(f"frame {s['frame']}: caption says {who} turned {seat:g}·{theta:g}°, drawn differs by {off:.3g}°")
            if s["more_on"]:
                more = signed_gap_deg(signed_gap_deg(q0, dir_of(s, "q")), signed_gap_deg(k0, dir_of(s, "k")))
                if abs(signed_gap_deg(more % 360, ((n - m) * theta) % 360)) > 1e-6:
                    out.append(f"frame {s['frame']}: k turned {more:g}° more than q, not (n − m)θ = {(n - m) * theta:g}°")
    return out


def rope_lead_disagreements(samples: list[dict]) -> list[str]:
    """``开始：k 比 q 多偏 30°`` vs the drawn arrows: at the seats captioned (0, 0) the drawn k points that far
    counter-clockwise of the drawn q; at seats (m, n) captioned with the rule ``θ = 30°`` on screen, k is ahead by
    the lead plus (n − m)θ (mod 360). So the 120° on the readout is the lead plus the 90° k turned more."""
    out = []
    for s in samples:
        if not s["lead_on"]:
            continue
        lead = last_number(s["lead_text"])
        for text, on in zip(s["seat_texts"], s["seats_on"]):
            if not on:
                continue
            m, n = pair_in(text)
            if (m, n) != (0.0, 0.0) and not s["rule_on"]:
                continue
            more = (n - m) * last_number(s["rule_text"]) if (m, n) != (0.0, 0.0) else 0.0
            ahead = signed_gap_deg(dir_of(s, "q"), dir_of(s, "k"))
            off = abs(signed_gap_deg(ahead % 360.0, (lead + more) % 360.0))
            if off > 1e-6:
                out.append(f"frame {s['frame']}: at seats ({m:g}, {n:g}) k is drawn {ahead:.4g}° ahead of q, "
                           f"the lead {lead:g}° + (n − m)θ = {more:g}° says {lead + more:g}°")
    return out


def test_overview_rope_labels_equal_the_drawing():
    samples = probes("word_order_overview", "rope_drawn")
    assert sum(s["gap_on"] for s in samples) > 100 and sum(s["score_on"] for s in samples) > 50
    captioned = [s for s in samples if s["rule_on"] and any(s["seats_on"])]
    assert len(captioned) > 20 and sum(s["more_on"] for s in captioned) > 10
    assert not rope_angle_disagreements(samples)
    assert not score_disagreements(samples)
    assert not rope_seat_disagreements(samples)
    # the 30° lead is on screen before anything turns (seats (0, 0)) and stays while the pairs are shown
    lead_frames = [s for s in samples if s["lead_on"]]
    at_start = [s for s in lead_frames if any(on and pair_in(t) == (0.0, 0.0) for t, on in zip(s["seat_texts"], s["seats_on"]))]
    assert len(at_start) > 10 and sum(s["more_on"] for s in lead_frames) > 30
    assert not rope_lead_disagreements(samples)


def test_overview_rope_drawing_equals_mathcore():
    samples = probes("word_order_overview", "rope_drawn")
    theta = np.radians(figures.THETA_DEG)
    q, k = np.asarray(figures.ROPE_PAIR_Q), np.asarray(figures.ROPE_PAIR_K)
    start = samples[0]
    assert dir_of(start, "q") == pytest.approx(np.degrees(np.arctan2(q[1], q[0])), abs=1e-6)
    assert signed_gap_deg(dir_of(start, "q"), dir_of(start, "k")) == pytest.approx(figures.ROPE_PAIR_K_LEAD_DEG, abs=1e-6)
    seen = set()
    for s in samples:
        for text, on in zip(s["seat_texts"], s["seats_on"]):
            if on and s["score_on"]:
                m, n = pair_in(text)
                seen.add((int(m), int(n)))
                want = mathcore.rope_score(q, k, m, n, theta)
                assert last_number(s["score_text"]) == pytest.approx(want, abs=SCORE_TOL)
                assert last_number(s["gap_text"]) == pytest.approx(float(figures.value("rope_pair_gap_deg")), abs=ANGLE_TOL)
    assert seen == set(figures.ROPE_PAIRS)
    # the k-ahead-by-30° pair: the angle is 30° + (n − m)θ, not (n − m)θ; the lead on screen is mathcore's angle
    # between q and k, and the narration says the same number
    lead = [last_number(s["lead_text"]) for s in samples if s["lead_on"]]
    assert lead and set(lead) == {round(float(np.degrees(angle_between(q, k))))}
    rope_cue = built_scene("word_order_overview")[0].plan.cue("rope").text
    assert f"多偏 {lead[0]:g}°" in rope_cue and f"{lead[0]:g}" == figures.value("rope_pair_lead_deg")
    # the directed turn is named as such (夹角 is only the folded readout); q and k are named at first use
    assert {s["more_text"] for s in samples if s["more_on"]} == {"k相对q多转(n−m)θ"}
    assert "查询向量 q" in rope_cue and "键向量 k" in rope_cue
    assert "训练" in rope_cue                                   # distance-only comes with its length caveat
    assert float(figures.value("rope_pair_gap_deg")) != pytest.approx((figures.ROPE_PAIRS[0][1] - figures.ROPE_PAIRS[0][0]) * figures.THETA_DEG)


def test_overview_rope_checks_catch_a_wrong_drawing_or_label():
    samples = probes("word_order_overview", "rope_drawn")
    late = lambda s: s["score_on"] and s["gap_on"]                               # noqa: E731
    k_off = perturbed(samples, late, lambda s: rotated(s, "k", 10.0))
    assert rope_angle_disagreements(k_off) and score_disagreements(k_off) and rope_seat_disagreements(k_off)
    q_off = perturbed(samples, late, lambda s: rotated(s, "q", -10.0))
    assert rope_seat_disagreements(q_off)
    said_90 = perturbed(samples, late, lambda s: {**s, "gap_text": "90"})          # "the angle is (n − m)θ"
    assert rope_angle_disagreements(said_90)
    said_0 = perturbed(samples, late, lambda s: {**s, "score_text": "0.00"})       # cos 90°
    assert score_disagreements(said_0)
    leading = lambda s: s["lead_on"]                                             # noqa: E731
    assert rope_lead_disagreements(perturbed(samples, leading, lambda s: {**s, "lead_text": "开始：k比q多偏0°"}))
    assert rope_lead_disagreements(perturbed(samples, leading, lambda s: rotated(s, "k", 10.0)))
    assert rope_lead_disagreements(perturbed(samples, lambda s: s["lead_on"] and not s["score_on"],
                                             lambda s: rotated(s, "q", 5.0)))     # at (0, 0) too

    def wrong_seats(s):
        s["seat_texts"] = [t.replace("(2,5)", "(2,6)") for t in s["seat_texts"]]
        return s
    assert rope_seat_disagreements(perturbed(samples, lambda s: any("(2,5)" in t for t in s["seat_texts"]), wrong_seats))
    longer = perturbed(samples, late, lambda s: {**s, "k_end": (np.asarray(s["k_start"]) + 1.5 * (
        np.asarray(s["k_end"]) - np.asarray(s["k_start"]))).tolist()})
    assert score_disagreements(longer)


# =============================================================================================
# the overview's clocks (counter and one-turn labels vs the hands) and close (q arrows vs the hands)
# =============================================================================================
def seat_from_hands(hands: list, w: np.ndarray, slow: int) -> float:
    """The seat the drawn hands stand at, read from clock ``slow`` (slow enough not to have wrapped)."""
    return float(forward_rad(direction_deg(*hands[slow])) / w[slow])


def forward_rad(deg: float) -> float:
    """A direction as an angle turned counter-clockwise from 0, in [0, 2π) (−1e-9° counts as 0)."""
    return float(np.radians(deg % 360.0 if deg < -1e-6 else max(deg, 0.0)))


def clock_counter_disagreements(samples: list[dict], w: np.ndarray, *, slow: int = 1, rounding: str = "round") -> list[str]:
    """The seat counter vs the drawn hands: every hand sits at s·ω (mod 360°) for one seat s, and the counter
    shows s rounded (``round``) or floored (``floor``)."""
    out = []
    for s in samples:
        if not (s["counter_on"] and s["hands_on"]):
            continue
        seat = seat_from_hands(s["hands"], w, slow)
        for i, hand in enumerate(s["hands"]):
            off = abs(signed_gap_deg(np.degrees(seat * w[i]) % 360, direction_deg(*hand) % 360))
            if off > 0.05:
                out.append(f"frame {s['frame']}: hand {i} is {off:.3g}° off seat {seat:.3f}")
        shown = last_number(s["counter_text"])
        want = np.floor(seat + 1e-6) if rounding == "floor" else np.round(seat)
        if abs(shown - want) > 1e-9 and not (rounding == "round" and abs(abs(seat - shown) - 0.5) < 1e-3):
            out.append(f"frame {s['frame']}: counter says {shown:g}, the hands stand at seat {seat:.3f}")
    return out


def wavelength_value(text: str) -> tuple[float, float]:
    """The positions per turn a clock label states, and half a unit of its last digit (``万`` understood)."""
    match = re.search(r"([\d][\d,]*(?:\.\d+)?)\s*(万)?", text)
    if not match:
        raise ValueError(f"no number in {text!r}")
    scale = 1e4 if match.group(2) else 1.0
    number = match.group(1).replace(",", "")
    return float(number) * scale, 0.5 * 10.0 ** -places(number) * scale


def wavelength_disagreements(samples: list[dict], w: np.ndarray) -> list[str]:
    """Each clock's one-turn label vs its hand: one turn every 2π/ω seats, within the label's rounding."""
    out = []
    for s in samples:
        for i, (text, on) in enumerate(zip(s["wavelength_texts"], s["wavelengths_on"])):
            if on:
                said, half = wavelength_value(text)
                turn = 2 * np.pi / w[i]
                if abs(said - turn) > half + 1e-9:
                    out.append(f"frame {s['frame']}: clock {i} says one turn per {said:g} seats, the hand turns "
                               f"once per {turn:.4g}")
    return out


def test_overview_clocks_labels_equal_the_hands():
    scene = built_scene("word_order_overview")[0]
    w = mathcore.frequencies(512)[list(type(scene).CLOCK_INDICES)]
    samples = probes("word_order_overview", "clocks_drawn")
    assert sum(s["counter_on"] for s in samples) > 30
    assert not clock_counter_disagreements(samples, w)
    assert not wavelength_disagreements(samples, w)
    # the slowest clock's turn is shown as it is said in the lesson (约 6.1 万), not as five digits
    shown = [s for s in samples if s["wavelengths_on"][-1]]
    assert shown and {s["wavelength_texts"][-1] for s in shown} == {f"一圈≈{figures.value('wl_slow_512_wan')}万个座位"}
    # 座 is not a counter for seats: every one-turn label counts 个座位
    assert all(t.endswith("个座位") for s in samples for t in s["wavelength_texts"])
    moved = perturbed(samples, lambda s: s["counter_on"], lambda s: {**s, "counter_text": str(int(last_number(s["counter_text"])) + 1)})
    assert clock_counter_disagreements(moved, w)

    def turn_fast_hand(s):
        a, b = np.asarray(s["hands"][0][0]), np.asarray(s["hands"][0][1])
        s["hands"][0][1] = (a + np.array([-(b - a)[1], (b - a)[0], 0.0])).tolist()      # +90°
        return s
    assert clock_counter_disagreements(perturbed(samples, lambda s: s["counter_on"], turn_fast_hand), w)
    wrong = perturbed(samples, lambda s: any(s["wavelengths_on"]),
                      lambda s: {**s, "wavelength_texts": ["一圈 7.3 步"] + s["wavelength_texts"][1:]})
    assert wavelength_disagreements(wrong, w)


def same_angle_disagreements(samples: list[dict], *, arrows: str, hands: str, on) -> list[str]:
    """Each drawn q arrow points where the clock hand above it points (the angle RoPE turns by)."""
    out = []
    for s in samples:
        if not on(s):
            continue
        for i, (arrow, hand) in enumerate(zip(s[arrows], s[hands])):
            off = abs(signed_gap_deg(direction_deg(*hand), direction_deg(*arrow)))
            if off > 1e-3:
                out.append(f"frame {s['frame']}: arrow {i} is {off:.3g}° off its hand")
    return out


def test_overview_close_arrows_turn_with_the_hands():
    samples = probes("word_order_overview", "close")
    on = lambda s: all(s["on_screen"])                                           # noqa: E731
    assert sum(on(s) for s in samples) > 50
    assert not same_angle_disagreements(samples, arrows="arrow_points", hands="hand_points", on=on)

    def turn_arrow(s):
        a, b = np.asarray(s["arrow_points"][0][0]), np.asarray(s["arrow_points"][0][1])
        s["arrow_points"][0][1] = (a + np.array([-(b - a)[1], (b - a)[0], 0.0])).tolist()
        return s
    assert same_angle_disagreements(perturbed(samples, on, turn_arrow), arrows="arrow_points", hands="hand_points", on=on)


# =============================================================================================
# the q/k widget
# =============================================================================================
def arrow_label_disagreements(samples: list[dict]) -> list[str]:
    """``长度 = 1`` vs the drawn q; ``q = (1, 0)`` and ``q = (0, 1)`` vs the drawn tip (vector units); and the
    premise that k starts on q: while k is drawn before any seat turns it, it coincides with q."""
    out = disagreements(samples, shown=lambda s: s["len_on"], said=lambda s: last_number(s["len_text"]),
                        drawn=lambda s: length(s["q_start"], s["q_end"]) / s["unit"], tol=0.5 + 1e-6,
                        what="length label vs q")
    for s in samples:
        tip = (np.asarray(s["q_end"]) - np.asarray(s["q_start"]))[:2] / s["unit"]
        for text, on in zip(s["name_texts"], s["names_on"]):
            if on:
                said = np.array(pair_in(text))
                if np.abs(said - tip).max() > 0.005 + 1e-6:
                    out.append(f"frame {s['frame']}: label says q = {tuple(said)}, drawn tip is {tuple(np.round(tip, 3))}")
    return out


def k_starts_on_q(samples: list[dict]) -> list[str]:
    out = []
    for s in samples:
        if s["k_on"] and not s.get("turned", False):
            if abs(signed_gap_deg(dir_of(s, "q"), dir_of(s, "k"))) > 1e-6 or \
                    abs(length(s["q_start"], s["q_end"]) - length(s["k_start"], s["k_end"])) > 1e-6:
                out.append(f"frame {s['frame']}: k is drawn apart from q before any seat turns it")
    return out


def widget_turn_disagreements(samples: list[dict], q0: float, k0: float) -> list[str]:
    """``q 转 60°`` / ``k 转 120°`` vs how far each drawn arrow turned from where it started (``q0``, ``k0``), and
    vs the seat its chip is drawn on times the θ on screen."""
    out = []
    for s in samples:
        theta = last_number(s["theta_text"]) if s["theta_on"] else None
        seat_w = s["seat1_x"] - s["seat0_x"]
        for who, start, label_on, text, chip_x, chip_on in (
                ("q", q0, s["readouts_on"][0], s["q_turn_text"], s["q_chip_x"], s["chips_on"][0]),
                ("k", k0, s["readouts_on"][1], s["k_turn_text"], s["k_chip_x"], s["chips_on"][1])):
            if not label_on:
                continue
            said = last_number(text)
            off = turn_off(said, start, dir_of(s, who))
            if off > ANGLE_TOL:
                out.append(f"frame {s['frame']}: label says {who} turned {said:g}°, the drawn arrow {off:.3g}° off")
            if chip_on and theta is not None:
                seat = (chip_x - s["seat0_x"]) / seat_w
                if abs(said - seat * theta) > ANGLE_TOL:
                    out.append(f"frame {s['frame']}: {who} sits at seat {seat:.3f} (θ = {theta:g}°) but the label "
                               f"says it turned {said:g}°")
    return out


def plane_disagreements(samples: list[dict]) -> list[str]:
    """The planes: every drawn arrow has turned s·θᵢ for one seat s (θᵢ as its label states, radians per
    seat), and the seat counter shows s (whole seats reached)."""
    out = []
    for s in samples:
        if not (s["arrows_on"] and all(s["speeds_on"])):
            continue
        thetas = [last_number(t) for t in s["speed_texts"]]
        # "θ = 0.1" claims the value; "θ ≈ 0.0001" only to half a unit of its last place
        halves = [0.5 * 10.0 ** -places(numbers_in_text(t)) if "≈" in t else 0.0 for t in s["speed_texts"]]
        seat = forward_rad(direction_deg(*s["arrows"][1])) / thetas[1]
        for i, (arrow, th, half) in enumerate(zip(s["arrows"], thetas, halves)):
            tol = 0.05 + np.degrees(seat * half)
            off = abs(signed_gap_deg(np.degrees(seat * th) % 360, direction_deg(*arrow) % 360))
            if off > tol:
                out.append(f"frame {s['frame']}: plane {i} (θ = {th:g}) is {off:.3g}° off seat {seat:.3f}")
        if s["counter_on"] and abs(last_number(s["counter_text"]) - np.floor(seat + 1e-6)) > 1e-9:
            out.append(f"frame {s['frame']}: counter says {s['counter_text']}, the arrows stand at seat {seat:.3f}")
    return out


def numbers_in_text(text: str) -> str:
    return re.findall(r"\d+(?:\.\d+)?", text)[-1]


@pytest.fixture(scope="module")
def widget():
    arrow = probes("qk_widget", "arrow_drawn")
    drawn = probes("qk_widget", "widget_drawn")
    return arrow, drawn, dir_of(arrow[0], "q"), dir_of(drawn[0], "k")


def test_widget_labels_equal_the_drawing(widget):
    arrow, drawn, q0, k0 = widget
    assert sum(s["len_on"] for s in arrow) > 20 and sum(any(s["names_on"]) for s in arrow) > 20
    assert not arrow_label_disagreements(arrow)
    assert sum(s["k_on"] for s in arrow) > 20
    rule_end = built_scene("qk_widget")[0].plan.cue("rule").end_frame
    assert not k_starts_on_q([s for s in arrow if s["frame"] <= rule_end])
    assert sum(s["readouts_on"][2] for s in drawn) > 100 and sum(s["readouts_on"][3] for s in drawn) > 50
    assert not rope_angle_disagreements([{**s, "gap_on": s["readouts_on"][2]} for s in drawn])
    assert not score_disagreements(drawn, shown="readouts_on")
    assert sum(s["readouts_on"][0] and s["chips_on"][0] and s["theta_on"] for s in drawn) > 100
    assert not widget_turn_disagreements(drawn, q0, k0)
    planes = probes("qk_widget", "planes_drawn")
    assert sum(s["arrows_on"] and all(s["speeds_on"]) for s in planes) > 20
    assert not plane_disagreements(planes)
    on = lambda s: s["hands_on"] and s["arrows_on"]                                # noqa: E731
    assert sum(on(s) for s in planes) > 20
    assert not same_angle_disagreements(planes, arrows="arrows", hands="hands", on=on)


def test_widget_drawing_equals_mathcore(widget):
    arrow, drawn, q0, k0 = widget
    q, k = figures.WIDGET_Q, figures.WIDGET_K
    assert q0 == pytest.approx(np.degrees(np.arctan2(q[1], q[0])), abs=1e-9)      # q = (1, 0) points right
    assert k0 == pytest.approx(np.degrees(np.arctan2(k[1], k[0])), abs=1e-9)      # and k starts on it
    assert length(arrow[0]["q_start"], arrow[0]["q_end"]) / arrow[0]["unit"] == pytest.approx(np.linalg.norm(q))
    theta_deg = figures.THETA_DEG
    scene = built_scene("qk_widget")[0]
    (i0, j0), (i1, j1) = figures.WIDGET_SEATS
    for cue, (m, n) in (("score", (i0, j0)), ("slide", (i1, j1))):
        s = [x for x in drawn if x["frame"] < scene.plan.cue(cue).end_frame][-1]
        assert last_number(s["q_turn_text"]) == m * theta_deg and last_number(s["k_turn_text"]) == n * theta_deg
        assert last_number(s["gap_text"]) == float(figures.value("widget_gap_deg"))
        assert last_number(s["score_text"]) == pytest.approx(mathcore.rope_score(q, k, m, n, np.radians(theta_deg)), abs=SCORE_TOL)
    planes = [s for s in probes("qk_widget", "planes_drawn") if all(s["speeds_on"])]
    w = mathcore.frequencies(scene.PLANE_D)[list(scene.PLANE_INDICES)]
    shown = [last_number(t) for t in planes[-1]["speed_texts"]]
    assert np.allclose(shown, w, atol=0.5e-4)                                     # ω = 1, 0.1, …, ≈ 0.0001 rad/seat
    assert all(t.startswith("ω") for t in planes[-1]["speed_texts"])             # a plane's speed is ω (转速), not θ
    # one attention head's q and k, as the narration says: PLANE_D dimensions, half as many planes
    said = scene.plan.cue("planes").text
    assert f"{scene.PLANE_D} 维" in said and f"{len(mathcore.frequencies(scene.PLANE_D))} 个平面" in said
    assert "注意力头" in said and "转速 ω" in said


def test_widget_checks_catch_a_wrong_drawing_or_label(widget):
    arrow, drawn, q0, k0 = widget
    has_len = lambda s: s["len_on"]                                              # noqa: E731
    assert arrow_label_disagreements(perturbed(arrow, has_len, lambda s: {**s, "len_text": "2"}))
    assert arrow_label_disagreements(perturbed(arrow, has_len, lambda s: {**s, "q_end": (
        np.asarray(s["q_start"]) + 1.3 * (np.asarray(s["q_end"]) - np.asarray(s["q_start"]))).tolist()}))
    named = lambda s: any(s["names_on"])                                        # noqa: E731
    assert arrow_label_disagreements(perturbed(arrow, named, lambda s: rotated(s, "q", 20.0)))
    assert arrow_label_disagreements(perturbed(arrow, named, lambda s: {**s, "name_texts": ["q=(0,1)", "q=(1,0)"]}))
    k_shown = lambda s: s["k_on"]                                               # noqa: E731
    assert k_starts_on_q(perturbed(arrow, k_shown, lambda s: rotated(s, "k", 5.0)))

    gap_rows = [{**s, "gap_on": s["readouts_on"][2]} for s in drawn]
    late = lambda s: s["readouts_on"][2] and s["readouts_on"][3]                 # noqa: E731
    assert rope_angle_disagreements(perturbed(gap_rows, late, lambda s: rotated(s, "k", 15.0)))
    assert rope_angle_disagreements(perturbed(gap_rows, late, lambda s: {**s, "gap_text": "90"}))
    assert score_disagreements(perturbed(drawn, late, lambda s: rotated(s, "k", 15.0)), shown="readouts_on")
    assert score_disagreements(perturbed(drawn, late, lambda s: {**s, "score_text": "0.87"}), shown="readouts_on")
    turning = lambda s: s["readouts_on"][0]                                      # noqa: E731
    assert widget_turn_disagreements(perturbed(drawn, turning, lambda s: rotated(s, "q", 30.0)), q0, k0)
    assert widget_turn_disagreements(perturbed(drawn, turning, lambda s: {**s, "k_turn_text": "90"}), q0, k0)
    assert widget_turn_disagreements(perturbed(drawn, lambda s: s["readouts_on"][0] and s["chips_on"][0],
                                               lambda s: {**s, "q_chip_x": s["q_chip_x"] + (s["seat1_x"] - s["seat0_x"])}),
                                     q0, k0)

    planes = probes("qk_widget", "planes_drawn")
    shown = lambda s: s["arrows_on"] and all(s["speeds_on"])                     # noqa: E731
    assert plane_disagreements(perturbed(planes, shown, lambda s: {**s, "speed_texts": ["θ=1"] * 5}))
    assert plane_disagreements(perturbed(planes, lambda s: shown(s) and s["counter_on"],
                                         lambda s: {**s, "counter_text": str(int(last_number(s["counter_text"])) + 1)}))

    def turn_plane(s):
        a, b = np.asarray(s["arrows"][2][0]), np.asarray(s["arrows"][2][1])
        s["arrows"][2][1] = (a + np.array([-(b - a)[1], (b - a)[0], 0.0])).tolist()
        return s
    assert plane_disagreements(perturbed(planes, shown, turn_plane))
    on = lambda s: s["hands_on"] and s["arrows_on"]                                # noqa: E731
    assert same_angle_disagreements(perturbed(planes, on, turn_plane), arrows="arrows", hands="hands", on=on)


def test_pair_and_number_readers():
    assert pair_in("(m,n)=(2,5)") == (2.0, 5.0) and pair_in("q=(0,−1)") == (0.0, -1.0)
    assert wavelength_value("一圈 60,611 步") == (60611.0, 0.5)
    assert wavelength_value("一圈 ≈6.28 座") == (6.28, 0.005)
    assert wavelength_value("一圈约 6.1 万座") == (61000.0, 500.0)
    assert turn_off(210.0, 0.0, -150.0) == pytest.approx(0.0)


def test_widget_names_q_k_v_and_keeps_v_unturned():
    """Lesson 2 first uses q, k, v in qk_widget.placement: named there (voice and screen), and v stays unturned
    (said in after_qk, shown under the chain) before the quiz's answer relies on it."""
    from tests.support.drawn import typst_plain

    scene = built_scene("qk_widget")[0]
    shown = scene.probes["placement"][0]
    legend = typst_plain(shown["legend"])
    for name in ("q查询向量", "k键向量", "v值向量"):
        assert name in legend, legend
    assert shown["v_note"].startswith("v不转")
    said = scene.plan.cue("placement").text
    assert all(name in said for name in ("查询向量 q", "键向量 k", "值向量 v"))
    assert "v 不转" in scene.plan.cue("after_qk").text
    assert "训练" in scene.plan.cue("slide").text                  # distance-only comes with its length caveat
