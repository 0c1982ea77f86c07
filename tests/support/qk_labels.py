"""Reading the q and k arrows, their angle and score labels, the clock hands and the seat chips, shared by the
label checks of lesson 2's overview and of the q/k widget (tests/course/test_scene_word_order_overview.py,
tests/course/test_scene_qk_widget.py). Each check is a function ``samples -> list of disagreements``.
"""

from __future__ import annotations

import copy
import re

import numpy as np

import mathcore
from tests.support.course_scenes import built_scene
from tests.support.drawn import arc_sweep_deg, direction_deg, disagreements, last_number, length, signed_gap_deg

ANGLE_TOL = 0.5 + 1e-6  # a whole-degree readout
SCORE_TOL = 0.005 + 1e-6  # a two-place readout
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
    out = disagreements(
        samples,
        shown=lambda s: s["gap_on"],
        said=lambda s: last_number(s["gap_text"]),
        drawn=drawn_gap,
        tol=ANGLE_TOL,
        what="angle readout vs arrows",
    )
    out += disagreements(
        samples,
        shown=lambda s: s["gap_on"] and s["arc_on"] and drawn_gap(s) > 1.0,
        said=lambda s: last_number(s["gap_text"]),
        drawn=lambda s: abs(arc_sweep_deg(s["arc_center"], s["arc_start"], s["arc_end"])),
        tol=ANGLE_TOL,
        what="angle readout vs arc",
    )
    return out


def score_disagreements(samples: list[dict], *, shown: str = "score_on", tol: float = SCORE_TOL) -> list[str]:
    """The score readout vs |q||k|·cos(angle) measured from the drawn arrows (lengths in vector units), within
    ``tol`` (half a unit of the readout's last place)."""

    def drawn(s):
        lq = length(s["q_start"], s["q_end"]) / s["unit"]
        lk = length(s["k_start"], s["k_end"]) / s["unit"]
        return lq * lk * np.cos(np.radians(drawn_gap(s)))

    return disagreements(
        samples,
        shown=lambda s: s[shown] if isinstance(s[shown], bool) else s[shown][3],
        said=lambda s: last_number(s["score_text"]),
        drawn=drawn,
        tol=tol,
        what="score vs |q||k|cos(drawn angle)",
    )


def forward_rad(deg: float) -> float:
    """A direction as an angle turned counter-clockwise from 0, in [0, 2π) (−1e-9° counts as 0)."""
    return float(np.radians(deg % 360.0 if deg < -1e-6 else max(deg, 0.0)))


def wavelength_value(text: str) -> tuple[float, float]:
    """The positions per turn a clock label states, and half a unit of its last digit (``万`` understood)."""
    match = re.search(r"([\d][\d,]*(?:\.\d+)?)\s*(万)?", text)
    if not match:
        raise ValueError(f"no number in {text!r}")
    scale = 1e4 if match.group(2) else 1.0
    number = match.group(1).replace(",", "")
    return float(number) * scale, 0.5 * 10.0 ** -places(number) * scale


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


def formula_pair_problems(clock_names: list[str], plane_names: list[str], row_d: int, head_d: int) -> list[str]:
    """Clocks of the ``row_d`` row drawn over planes of a ``head_d`` head, column by column ("钟 64" over "平面 16"):
    the two turn alike only when the formula's exponent 2i/d is the same, i_clock / row_d == i_plane / head_d
    (mathcore.frequencies); a column pairing clock i with plane i, for row_d != head_d, says what is false."""
    out = []
    if len(clock_names) != len(plane_names):
        return [f"{len(clock_names)} clocks over {len(plane_names)} planes"]
    for clock, plane in zip(clock_names, plane_names):
        c, p = int(last_number(clock)), int(last_number(plane))
        w_clock = mathcore.frequencies(row_d)[c]
        w_plane = mathcore.frequencies(head_d)[p]
        if abs(w_clock - w_plane) > 1e-12 * max(w_clock, w_plane):
            out.append(f"{clock!r} (ω = {w_clock:.4g}) over {plane!r} (ω = {w_plane:.4g}): they do not turn alike")
    return out
