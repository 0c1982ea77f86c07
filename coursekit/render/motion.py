"""Which way drawn things turn, recorded while a narrated scene is built, and whether the words agree.

A label can equal what is drawn and the picture still contradict the narration: the words say
"counter-clockwise" while the pointer turns back the other way. This module records every turn a
viewer sees and checks it against the cue's words.

Recording
    :class:`MotionRecorder`, attached to a narrated scene before it renders (a dry run is enough:
    every mobject still moves as in the video), looks at every drawn frame. It follows the direction
    of every *line-like* mobject on screen: Manim's ``Line`` and what derives from it (``Arrow``,
    ``Vector``, ``DashedLine``), and any mobject with a ``motion_heading()`` method that returns its
    ``(start, end)`` points (a pointer drawn some other way). Between two drawn frames the direction
    changes by the smaller angle, as a viewer sees it; the changes add up, unwrapped, so a turn of
    270° in one ``play`` is 270° counter-clockwise, not 90° clockwise. Each run of one line turning
    one way in one ``play`` is a :class:`Turn` (degrees > 0: counter-clockwise).

    A line is followed only while it is drawn and at least ``MIN_LENGTH`` long. A change of more than
    ``MAX_STEP_DEG`` between two frames is not seen as a turn (a cut, or a segment shrinking through
    zero length and growing on the other side), and a line hidden, changed and shown again did not
    turn on screen either.

Checking
    :func:`check` reads each cue's words (its subtitle text and what the voice reads) for turn words:
    plain Mandarin's two (``coursekit.zh.turns.TURN_WORDS``), and a course's own phrasing for turning
    "back" or "forward", which names a direction only against the course's convention, so the course
    passes it (``words=``). Rule ``turn``: while a cue says one way, nothing drawn turns the other way
    (by ``MIN_TURN_DEG`` or more). A cue that says a direction while nothing turns states a rule, which
    is fine; a cue that says both ways constrains nothing. A scene declares an intended exception with
    its reason, ``self.allow("turn", mobject, reason=...)``, in the cue it covers; one that excuses
    nothing is a finding (``unused_exception``).

Example
-------
::

    recorder = attach(scene)          # before scene.render()
    scene.render()
    turns = recorder.finish()
    for finding in check(turns, scene.plan.cues, allowances=scene.motion_allowances):
        print(finding.line())
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from coursekit.zh.turns import CLOCKWISE, COUNTER_CLOCKWISE, TURN_WORDS, said_ways

__all__ = [
    "CLOCKWISE",
    "COUNTER_CLOCKWISE",
    "TURN_WORDS",
    "MotionAllowance",
    "MotionFinding",
    "MotionRecorder",
    "Turn",
    "attach",
    "check",
    "check_scene",
    "said_ways",
    "where",
]

WAY = {COUNTER_CLOCKWISE: "counter-clockwise", CLOCKWISE: "clockwise"}

RULES = ("turn",)
MIN_LENGTH = 0.05  #: scene units: a shorter line shows no direction
MAX_STEP_DEG = 90.0  #: between two drawn frames: a larger change is a jump, not a turn
MIN_TURN_DEG = 2.0  #: a smaller turn is float dust or a line stretched with its group, not a motion
_STILL_DEG = 1e-6  #: a change this small between two frames is no change


@dataclass(frozen=True)
class Turn:
    """One line turning one way through one ``play``, as drawn."""

    scene: str
    cue: str  #: the cue's full id, or "(before the first cue)" / "(after <cue>)"
    frame: int  #: the frame it starts on (the frame before its first change)
    frames: int  #: how many frames it lasts
    mobject: str  #: where the line is in the scene, and its colour: "Dial.pointer (#f2f2f2)"
    degrees: float  #: signed and unwrapped: > 0 counter-clockwise
    subject: Any = field(default=None, compare=False, repr=False)  #: the line itself

    @property
    def way(self) -> int:
        return COUNTER_CLOCKWISE if self.degrees > 0 else CLOCKWISE

    def line(self) -> str:
        return (
            f"{self.scene} · {self.cue} · frames {self.frame}–{self.frame + self.frames}: {self.mobject} "
            f"turns {abs(self.degrees):.1f}° {WAY[self.way]}"
        )


@dataclass
class MotionAllowance:
    """An intended exception to the ``turn`` rule, declared in a scene with its reason."""

    rule: str
    cue: str | None  #: the cue it was declared in (None: before any cue, so every cue)
    mobjects: tuple[Any, ...]  #: the lines it covers (and their parts); empty: every line
    reason: str
    declared_in: str
    used: int = 0

    def covers(self, turn: Turn) -> bool:
        if self.cue is not None and turn.cue != self.cue:
            return False
        return not self.mobjects or any(turn.subject in m.get_family() for m in self.mobjects)


@dataclass(frozen=True)
class MotionFinding:
    scene: str
    cue: str
    frame: int
    rule: str
    message: str

    def line(self) -> str:
        return f"{self.scene} · {self.cue} · frame {self.frame}: {self.rule}: {self.message}"


# -- recording -----------------------------------------------------------------------------------
def heading(mob) -> tuple[Any, Any] | None:
    """``(start, end)`` of a line-like mobject, or None for anything else."""
    if not _line_like(type(mob)):
        return None
    own = getattr(mob, "motion_heading", None)
    if callable(own):
        return own()
    pts = mob.points  # its own path (an arrow's shaft: the tip goes on in the same direction)
    return (pts[0], pts[-1]) if len(pts) else (mob.get_start(), mob.get_end())  # a DashedLine: its dashes'


@lru_cache(maxsize=None)
def _line_like(cls: type) -> bool:
    """A ``Line`` (``Arrow``, ``Vector``, ``DashedLine`` …), or a class with a ``motion_heading()`` method."""
    from manim import Line  # Manim: heavy, only when a scene is built

    return issubclass(cls, Line) or callable(getattr(cls, "motion_heading", None))


def _drawn(mob) -> bool:
    for m in mob.get_family():
        if len(m.points) and ((m.get_stroke_width() > 0 and m.get_stroke_opacity() > 0) or m.get_fill_opacity() > 0):
            return True
    return False


@dataclass
class _Track:
    """One line followed from frame to frame: its last direction and the run of turning it is in."""

    mob: Any
    angle: float  #: the last direction seen (degrees, unwrapped)
    run_start: int = 0  #: frame the current run started on
    run_from: float = 0.0  #: direction when it started
    run_cue: str = ""
    way: int = 0  #: the run's way (0: still)
    seen: int = 0  #: the sample it was last seen in
    frame: int = 0  #: the frame it was last seen on


class MotionRecorder:
    """Attached to a narrated scene (anything with ``renderer``, ``mobjects``, ``plan``, ``frame``,
    ``step_hooks`` and ``play_hooks``); ``turns`` holds what it has seen turn, in order."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.turns: list[Turn] = []
        self._tracks: dict[int, _Track] = {}
        self._names: dict[int, str] = {}
        self._sample = 0
        renderer = scene.renderer
        original_render = renderer.render

        def render(s: Any, time: float, moving_mobjects: Any = None) -> None:
            self.sample(moving_mobjects if moving_mobjects is not None else None)
            original_render(s, time, moving_mobjects)

        renderer.render = render  # type: ignore[method-assign]
        scene.step_hooks.append(lambda kind="step": self.sample())
        scene.play_hooks.append(lambda animations: self._close_all())

    def _cue(self) -> str:
        scene = self.scene
        beat = getattr(scene, "_active_beat", None)
        if beat is not None:
            return beat.id
        done = getattr(scene, "_cues_done", [])
        return f"(after {done[-1]})" if done else "(before the first cue)"

    def sample(self, mobjects: Iterable[Any] | None = None) -> None:
        """Look at the lines on screen now and carry each one's turning on: every line (after each ``play``),
        or those among ``mobjects`` (on a drawn frame: what Manim redraws, the rest stands still)."""
        self._sample += 1
        full = mobjects is None
        frame, cue = int(self.scene.frame), self._cue()
        parts: set[int] = set()  # the dashes of a dashed line: the line is followed, not each dash
        for mob in self.scene.get_mobject_family_members() if full else mobjects:
            if not _line_like(type(mob)) or id(mob) in parts:
                continue
            if mob.submobjects:
                parts.update(id(m) for m in mob.get_family()[1:])
            track = self._tracks.get(id(mob))
            if track is not None and track.seen == self._sample:
                continue  # met twice in one look (a part shared by two groups)
            ends = heading(mob)
            (x0, y0), (x1, y1) = ends[0][:2], ends[1][:2]
            if math.hypot(x1 - x0, y1 - y0) < MIN_LENGTH or not _drawn(mob):
                if track is not None:  # hidden: a line that comes back starts afresh
                    self._close(track)
                    del self._tracks[id(mob)]
                continue
            raw = math.degrees(math.atan2(y1 - y0, x1 - x0))
            if track is None or track.mob is not mob:
                self._tracks[id(mob)] = _Track(mob, raw, frame, raw, cue, 0, self._sample, frame)
                continue
            step = (raw - track.angle + 180.0) % 360.0 - 180.0
            track.seen = self._sample
            if abs(step) > MAX_STEP_DEG:  # a jump: what came before ends here, and a new run may start
                self._close(track)
                self._tracks[id(mob)] = _Track(mob, raw, frame, raw, cue, 0, self._sample, frame)
                continue
            way = 0 if abs(step) <= _STILL_DEG else (COUNTER_CLOCKWISE if step > 0 else CLOCKWISE)
            if way and way != track.way:
                self._close(track)
                track.way, track.run_from, track.run_start, track.run_cue = way, track.angle, track.frame, cue
                self._name(mob)
            track.angle += step
            track.frame = frame
        if full:
            for key, track in list(self._tracks.items()):
                if track.seen != self._sample:  # no longer in the scene
                    self._close(track)
                    del self._tracks[key]

    def _close(self, track: _Track) -> None:
        if track.way:
            degrees = track.angle - track.run_from
            if abs(degrees) >= _STILL_DEG:
                self.turns.append(
                    Turn(
                        self.scene.plan.id,
                        track.run_cue,
                        track.run_start,
                        max(track.frame - track.run_start, 1),
                        self._names.get(id(track.mob), type(track.mob).__name__),
                        degrees,
                        track.mob,
                    )
                )
        track.way, track.run_from = 0, track.angle

    def _close_all(self) -> None:
        """A new ``play`` starts: each run of turning ends with the one before."""
        for track in self._tracks.values():
            self._close(track)

    def finish(self) -> list[Turn]:
        """Close what is still turning (call after ``render()``); the turns, in order."""
        self._close_all()
        return self.turns

    def _name(self, mob) -> None:
        if id(mob) not in self._names:
            colour = mob.get_stroke_color() if hasattr(mob, "get_stroke_color") else None
            shown = f" ({colour.to_hex().lower()})" if colour is not None else ""
            self._names[id(mob)] = where(self.scene.mobjects, mob) + shown


def where(tops: Iterable[Any], mob) -> str:
    """A readable path to ``mob`` among the scene's mobjects: the outermost one's class, then the attributes
    (or indices) on the way down, taking the shortest way an attribute offers: ``Dial.pointer``,
    ``Pair.q_spin.arrow``, ``Clocks.hands[2]``."""
    tops = list(tops)
    parent: dict[int, Any] = {}

    def walk(m) -> None:
        for sub in m.submobjects:
            if id(sub) not in parent:
                parent[id(sub)] = m
                walk(sub)

    for top in tops:
        walk(top)
    chain = [mob]
    while id(chain[-1]) in parent and not any(chain[-1] is t for t in tops):
        chain.append(parent[id(chain[-1])])
    chain.reverse()
    out, i = type(chain[0]).__name__, 0
    while i < len(chain) - 1:
        named = {id(v): k for k, v in vars(chain[i]).items() if not k.startswith("_") and k != "submobjects"}
        j = next((j for j in range(len(chain) - 1, i, -1) if id(chain[j]) in named), None)
        if j is None:
            out += f"[{chain[i].submobjects.index(chain[i + 1])}]"
            i += 1
        else:
            out += f".{named[id(chain[j])]}"
            i = j
    return out


def attach(scene) -> MotionRecorder:
    """Record what ``scene`` turns from now on (call before ``render()``, then ``finish()``)."""
    return MotionRecorder(scene)


# -- checking ------------------------------------------------------------------------------------
def check(
    turns: Iterable[Turn],
    cues: Iterable[Any],
    *,
    words: Mapping[str, int] = TURN_WORDS,
    allowances: Iterable[MotionAllowance] = (),
    min_degrees: float = MIN_TURN_DEG,
    scene: str = "",
) -> list[MotionFinding]:
    """Findings of rule ``turn`` (see the module doc) for ``turns`` against ``cues`` (each with ``id``,
    ``text`` and ``spoken``: a plan's cues), and of ``unused_exception`` for ``allowances`` (of ``scene``)."""
    turns = list(turns)
    allowances = list(allowances)
    out: list[MotionFinding] = []
    for cue in cues:
        said = said_ways(f"{cue.text}\n{cue.spoken}", words)
        if len(said) != 1:
            continue  # no turn words, or both ways: nothing the drawing could contradict
        [(way, named)] = said.items()
        for t in turns:
            if t.cue != cue.id or t.way == way or abs(t.degrees) < min_degrees:
                continue
            allowance = next((a for a in allowances if a.covers(t)), None)
            if allowance is not None:
                allowance.used += 1
                continue
            out.append(
                MotionFinding(
                    t.scene,
                    t.cue,
                    t.frame,
                    "turn",
                    f"{t.mobject} turns {abs(t.degrees):.1f}° {WAY[t.way]} (frames {t.frame}–{t.frame + t.frames}) "
                    f"while the cue says {'、'.join(named)} ({WAY[way]})",
                )
            )
    for a in allowances:
        if not a.used:
            out.append(
                MotionFinding(
                    scene,
                    a.cue or "(scene)",
                    0,
                    "unused_exception",
                    f"{a.rule} exception declared at {a.declared_in} excused nothing ({a.reason})",
                )
            )
    return out


def check_scene(scene, *, words: Mapping[str, int] = TURN_WORDS, min_degrees: float = MIN_TURN_DEG):
    """``check`` for a scene built with a recorder attached (``scene.turns``, as ``build_dry_run`` leaves it)."""
    return check(
        scene.turns,
        scene.plan.cues,
        words=words,
        allowances=getattr(scene, "motion_allowances", ()),
        min_degrees=min_degrees,
        scene=scene.plan.id,
    )
