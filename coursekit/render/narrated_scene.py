"""NarratedScene: a Manim scene that writes exactly the frames its plan asks for.

Audio is not added in Manim. The scene renders silent and the pipeline muxes
one pre-mixed narration track per scene afterwards, so sync depends only on
this: the scene writes ``plan.frames`` frames in total and each cue's beat
starts on ``cue.start_frame``.

How frames are counted
----------------------
Manim 0.22's Cairo renderer writes, per ``play`` (and per ``wait`` whose frame
is not frozen), one frame for each element of ``np.arange(0, run_time, 1/fps)``;
a frozen ``wait`` writes ``int(run_time * fps)``. ``renderer.time`` is a float
sum and, after a cache hit, advances by the exact run time instead of whole
frames, so it is not used. Instead this class:

* asks for ``n`` frames with ``run_time = (n - 0.5) / fps`` (``1/fps`` for one
  frame), a time in the middle of a frame, so float error cannot add or drop one;
* makes every ``wait`` unfrozen by default, so waits quantise like plays;
* counts the frames the renderer really hands to the file writer (a wrapper
  around ``renderer.add_frame``); a play served from Manim's cache, or skipped,
  counts the frames its cached segment holds, which is the same formula for the
  same run time;
* computes every requested duration (``cue.until``, ``cue.remaining``, holds)
  from the frame actually reached, so any difference is absorbed by the next
  hold; leaving a cue past its end, or ending the scene past ``plan.frames``,
  raises :class:`CueOverrunError`.

Example
-------
::
    class Sweep(NarratedScene):
        def construct(self):
            with self.cue("sweep") as cue:
                self.play(Rotate(arrow, PI / 6), run_time=cue.until("at30"))
                self.play(Rotate(arrow, PI / 3), run_time=cue.remaining())
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from manim import DEFAULT_WAIT_TIME, ManimColor, Scene, config
from manim.utils.exceptions import EndSceneEarlyException

from coursekit.core.paths import course_root
from coursekit.plan.model import CuePlan, ScenePlan, scene_plan_from_json
from coursekit.render import (
    manim_tuning,  # noqa: F401  (applies its changes to Manim)
    motion,
)
from coursekit.render.manim_process import CANNOT_CUT, PARK_ENV, PARK_REFUSED, PIECE_ENV, PIECE_REPORT_ENV, WHERE_MARK
from coursekit.render.viewer_check import DEFAULT_LOOK, RULES, Allowance, ViewerRules

PLAN_ENV = "COURSEKIT_SCENE_PLAN"
PROBES_ENV = "COURSEKIT_PROBES"
#: set (to anything) in a process that may build scenes in dry runs but must not render one: the test
#: suite sets it for every test not marked ``render``, so a test that renders without the mark fails
#: instead of slowing ``make test-fast`` (inherited by every render.py and Manim process it starts)
NO_RENDER_ENV = "COURSEKIT_NO_RENDER"
#: PIECE_ENV, ``START:END``: render only the frames START..END-1 of the scene, one piece of it
#: (``coursekit.render.pieces``); PIECE_REPORT_ENV: a file the piece's render writes its report to


class RenderForbidden(RuntimeError):
    """A scene was rendered (not a dry run) where ``COURSEKIT_NO_RENDER`` forbids it."""


def course_frame(exc: BaseException) -> str:
    """``file:line`` of the innermost traceback frame of ``exc`` in the course's code (not the engine's,
    not an installed package's), or ""."""
    root = course_root().resolve()
    found = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        path = Path(frame.filename).resolve()
        try:
            rel = path.relative_to(root)
        except ValueError:
            continue
        if rel.parts and rel.parts[0] not in ("coursekit", ".venv") and "site-packages" not in rel.parts:
            found = f"{path}:{frame.lineno}"
    return found


class PlanError(RuntimeError):
    """The scene and its plan do not fit together (missing cue, bookmark, plan …)."""


class CueOverrunError(PlanError):
    """A beat ran past the end of its cue, or the scene past its planned frames."""


class PieceCutError(PlanError):
    """A piece's start or end falls inside a play: the scene cannot be cut there."""


def frame_digest(pixels: Any) -> str:
    """sha256 of a frame's pixels (the RGBA array the renderer hands to the encoder)."""
    return hashlib.sha256(np.ascontiguousarray(pixels).tobytes()).hexdigest()


def piece_from_env() -> tuple[int, int] | None:
    text = os.environ.get(PIECE_ENV, "").strip()
    if not text:
        return None
    start, _, end = text.partition(":")
    return int(start), int(end)


def run_time_for_frames(n: int, fps: float) -> float:
    """A run time that makes ``play``/unfrozen ``wait`` write exactly ``n`` frames."""
    if n < 1:
        raise ValueError(f"need at least one frame, got {n}")
    return 1.0 / fps if n == 1 else (n - 0.5) / fps


def frames_for_run_time(run_time: float, fps: float, frozen: bool = False) -> int:
    """How many frames Manim 0.22's Cairo renderer writes for one play of ``run_time``."""
    if frozen:
        return int(run_time / (1.0 / fps))
    return len(np.arange(0, run_time, 1.0 / fps))


def load_plan_from_env() -> ScenePlan:
    path = os.environ.get(PLAN_ENV)
    if not path:
        raise PlanError(f"no scene plan: set {PLAN_ENV} to a ScenePlan JSON file (or pass plan=...)")
    return scene_plan_from_json(Path(path).read_text(encoding="utf-8"), str(path))


class PrefixPlan:
    """The plan as a parked piece's scene sees it before its start (``coursekit.render.parked``): every
    field, but it notes what it read that an edit at or after frame ``start`` can change (the scene's
    length, its cue list, a cue from ``start`` on), so that the process is not handed a new plan after
    having used the old one's."""

    #: fields an edit inside the scene does not change (its code key and prefix signature cover them)
    STEADY = frozenset({"id", "cls", "title", "source", "start_frame", "fps", "overview", "lesson_title"})

    def __init__(self, plan: ScenePlan, start: int) -> None:
        self._plan, self._start = plan, start
        self.read: list[str] = []

    def cue(self, short_or_full_id: str) -> CuePlan:
        c = self._plan.cue(short_or_full_id)
        if c.start_frame >= self._start:
            self.read.append(f"cue {c.id}")
        return c

    def __getattr__(self, name: str) -> Any:
        if name not in self.STEADY:
            self.read.append(name)
        return getattr(self._plan, name)


class Beat:
    """The running beat of one cue: frame arithmetic against the plan.

    Every method measures from the frame the scene has actually reached.
    """

    def __init__(self, scene: "NarratedScene", plan: CuePlan, short_id: str) -> None:
        self.scene = scene
        self.plan = plan
        self.short_id = short_id

    # -- frames -------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.plan.id

    @property
    def start_frame(self) -> int:
        return self.plan.start_frame

    @property
    def end_frame(self) -> int:
        return self.plan.end_frame

    @property
    def speech_end_frame(self) -> int:
        """Last frame + 1 of the speech (the cue end if the plan has no speech length)."""
        if self.plan.speech_frames > 0:
            return min(self.plan.start_frame + self.plan.speech_frames, self.plan.end_frame)
        return self.plan.end_frame

    @property
    def duration(self) -> float:
        return self.plan.frames / self.scene.fps

    def bookmark(self, name: str) -> int:
        """The frame (relative to the scene) of a bookmark of this cue."""
        try:
            return self.plan.bookmarks[name]
        except KeyError:
            raise PlanError(
                f"scene {self.scene.plan.id} ({type(self.scene).__name__}): cue {self.id} has no "
                f"bookmark {name!r} (it has {sorted(self.plan.bookmarks) or 'none'})"
            ) from None

    def frames_until(self, name: str) -> int:
        return self.bookmark(name) - self.scene.frame

    def frames_remaining(self, to: str = "speech") -> int:
        end = self.speech_end_frame if to == "speech" else self.end_frame
        return end - self.scene.frame

    # -- run times -----------------------------------------------------------
    def until(self, name: str) -> float:
        """Seconds from now until bookmark ``name``; a play of this run time ends on it."""
        n = self.frames_until(name)
        if n < 1:
            raise CueOverrunError(
                f"beat {self.id} reached bookmark {name!r} (frame {self.bookmark(name)}) late: "
                f"already at frame {self.scene.frame}"
            )
        return run_time_for_frames(n, self.scene.fps)

    def remaining(self, to: str = "speech") -> float:
        """Seconds from now until the end of the cue's speech (``to="cue"``: of the whole cue)."""
        n = self.frames_remaining(to)
        if n < 1:
            raise CueOverrunError(
                f"beat {self.id} has no time left: at frame {self.scene.frame}, "
                f"its {'speech' if to == 'speech' else 'cue'} ends at frame "
                f"{self.speech_end_frame if to == 'speech' else self.end_frame}"
            )
        return run_time_for_frames(n, self.scene.fps)

    def share(self, fraction: float, *, of: str = "speech") -> float:
        """Seconds for ``fraction`` of the cue's speech (whole frames, at least one)."""
        total = (self.speech_end_frame if of == "speech" else self.end_frame) - self.start_frame
        n = max(1, int(round(fraction * total)))
        return run_time_for_frames(n, self.scene.fps)

    # -- holds ---------------------------------------------------------------
    def hold_until(self, name: str, leave: float = 0.0) -> float:
        """Hold until ``leave`` seconds before bookmark ``name``; return the run time left.

        Use it to make a motion *arrive* on the bookmark::
            self.play(turn, run_time=cue.hold_until("at30", leave=0.8))
        """
        n = self.frames_until(name)
        keep = max(1, min(n, int(round(leave * self.scene.fps))))
        self.scene.hold_frames(n - keep)
        return self.until(name)

    def hold(self, to: str = "speech") -> None:
        """Stand still (updaters running) until the end of the speech or of the cue."""
        self.scene.hold_frames(self.frames_remaining(to))


class NarratedScene(Scene):
    """A scene whose beats follow a :class:`~coursekit.plan.model.ScenePlan` to the frame.

    The plan comes from ``plan=`` (tests), else the class attribute ``PLAN``,
    else the JSON file named by ``$COURSEKIT_SCENE_PLAN``.

    Attributes
    ----------
    plan : ScenePlan
    probes : dict[str, list[dict]]
        Values recorded by :meth:`probe` and by watches (:meth:`watch`), each with
        the ``frame`` on which they were drawn.
    """

    PLAN: ScenePlan | None = None
    #: the course's look as the viewer check sees it (background, subtitle band, margins, text sizes);
    #: a course sets it once on its own base class
    LOOK: ViewerRules = DEFAULT_LOOK
    #: scene ids (plan ids) this class renders; the first is the default
    SCENE_IDS: tuple[str, ...] = ()
    #: the short cue ids of its beats, in order, and the bookmarks each expects
    CUES: tuple[str, ...] = ()
    BOOKMARKS: dict[str, tuple[str, ...]] = {}

    def __init__(
        self, *args: Any, plan: ScenePlan | None = None, piece: tuple[int, int] | None = None, **kwargs: Any
    ) -> None:
        #: whether ``watch`` samples are recorded: in this process (tests, the viewer check's dry runs),
        #: not in a Manim process that renders a delivery (a plan from the environment), where nobody
        #: reads them and sampling every frame costs about a tenth of the render (COURSEKIT_PROBES=1 asks)
        self.record_probes: bool = plan is not None or self.PLAN is not None or os.environ.get(PROBES_ENV) == "1"
        self.plan: ScenePlan = plan or self.PLAN or load_plan_from_env()
        if os.environ.get(NO_RENDER_ENV) and not config.dry_run:
            raise RenderForbidden(
                f"scene {self.plan.id} was rendered where {NO_RENDER_ENV} allows dry runs "
                f"only ({os.environ[NO_RENDER_ENV]}); mark the test that renders it 'render'"
            )
        super().__init__(*args, **kwargs)
        self.camera.background_color = ManimColor.parse(self.LOOK.background)
        self.camera.init_background()
        self.camera.reset()
        if abs(float(config.frame_rate) - self.plan.fps) > 1e-9:
            raise PlanError(
                f"scene {self.plan.id} was planned at {self.plan.fps} fps but Manim renders at {config.frame_rate} fps"
            )
        self.fps: int = self.plan.fps
        self.probes: dict[str, list[dict[str, Any]]] = {}
        self._frame = 0  # frames written (or served from cache) before the current play
        self._written = 0  # frames the renderer really handed to the file writer
        self._play_start_written = 0
        self._in_play = False
        self._watches: list[tuple[str, Callable[[], dict[str, Any]]]] = []
        self._drawn_now: set[int] | None = None  # ids of what is drawn, while the watches sample a frame
        self._active_beat: Beat | None = None
        self._cues_done: list[str] = []
        #: called after every play and wait (Manim's wait is a play), e.g. by the viewer check
        self.step_hooks: list[Callable[[str], None]] = []
        #: called with a play's animations just before it runs (the viewer check's crossfade rule)
        self.play_hooks: list[Callable[[tuple], None]] = []
        #: intentional exceptions to the viewer check, declared with :meth:`allow`
        self.viewer_allowances: list[Any] = []
        #: intentional exceptions to the motion check (``coursekit.render.motion``), declared with :meth:`allow`
        self.motion_allowances: list[motion.MotionAllowance] = []
        #: (start, end): only frames start..end-1 are written (module ``coursekit.render.pieces``); the plays
        #: before ``start`` are stepped through frame by frame without drawing (see :meth:`play`)
        self.piece: tuple[int, int] | None = piece if piece is not None else piece_from_env()
        if self.piece is not None and not 0 <= self.piece[0] < self.piece[1] <= self.plan.frames:
            raise PlanError(f"scene {self.plan.id}: piece {self.piece} is not inside its {self.plan.frames} frames")
        #: a parked piece (``coursekit.render.parked``): the FIFO it waits on at its start for the plan it draws
        self._park: str | None = os.environ.get(PARK_ENV) or None if self.piece is not None else None
        if self._park:
            self.plan = PrefixPlan(self.plan, self.piece[0])  # type: ignore[assignment]
        self._stepping = False  # in a play before the piece's start
        self._step_frames = 0  # frames that play would have written
        self._step_time0 = 0.0
        self._time_rebased = False
        self.piece_before: str | None = None  # digest of frame start-1 as this process computed it
        self.piece_after: str | None = None  # digest of frame end (the next piece's first) as computed here
        self._first_written: Any = None  # the first frame handed to the file writer
        self._last_written: Any = None  # the last frame handed to the file writer
        self._instrument_renderer()

    # -- frame bookkeeping ---------------------------------------------------
    def _instrument_renderer(self) -> None:
        renderer = self.renderer
        original_add_frame = renderer.add_frame
        original_render = renderer.render

        def add_frame(frame: Any, num_frames: int = 1) -> None:
            if self._stepping:
                self._step_over(num_frames, frame)
                return
            if not renderer.skip_animations:
                self._written += num_frames
                self._last_written = frame
                if self._first_written is None:
                    self._first_written = frame
            original_add_frame(frame, num_frames)

        def render(scene: Any, time: float, moving_mobjects: Any = None) -> None:
            if self._stepping:
                assert self.piece is not None
                if self._frame + self._step_frames in (self.piece[0] - 1, self.piece[1]):
                    original_render(scene, time, moving_mobjects)  # a frame beside a cut, to compare
                else:
                    self._step_over(1, None)  # not drawn
                return
            self._sample_watches()
            original_render(scene, time, moving_mobjects)

        renderer.add_frame = add_frame  # type: ignore[method-assign]
        renderer.render = render  # type: ignore[method-assign]

    @property
    def frame(self) -> int:
        """Index of the frame being drawn now (= frames written so far)."""
        if not self._in_play:
            return self._frame
        if self._stepping:
            return self._frame + self._step_frames
        if self.renderer.skip_animations:
            # skipped or cached play: only its end state is computed
            return self._frame + self._predicted_frames()
        return self._frame + (self._written - self._play_start_written)

    def _predicted_frames(self) -> int:
        frozen = bool(self.animations) and self.is_current_animation_frozen_frame()
        return frames_for_run_time(self.duration, self.fps, frozen=frozen)

    def play(self, *args: Any, **kwargs: Any) -> None:
        # before the piece's start: stepped; at its end: stepped up to the first frame of the next piece
        # (drawn, its digest kept, then the scene ends: the rest is another piece's)
        stepping = self.piece is not None and (self._frame < self.piece[0] or self._frame >= self.piece[1])
        for hook in self.play_hooks:
            hook(args)
        self._play_start_written = self._written
        self._in_play = True
        if stepping:
            self._begin_stepping()
        try:
            super().play(*args, **kwargs)
        finally:
            self._in_play = False
            if stepping:
                self._end_stepping()
        if stepping:
            if not self.is_current_animation_frozen_frame():
                self.update_mobjects(0)  # what Manim's play_internal does after a play it renders
            self._frame += self._step_frames
        elif self.renderer.skip_animations:
            self._frame += self._predicted_frames()
        else:
            self._frame += self._written - self._play_start_written
        if self.piece is not None:
            self._check_cut(stepping)
        for hook in self.step_hooks:
            hook("step")

    # -- pieces --------------------------------------------------------------
    # A piece runs ``construct`` from the start. Each play before the piece's start is run the way
    # Manim renders it, frame by frame (every ``update_to_time``, every updater with its ``dt``,
    # ``renderer.time`` advanced as each frame would advance it, the ``update_mobjects(0)`` that closes a
    # rendered play), but nothing is drawn or encoded; Manim's own skipping (``-n``, a cache hit) instead
    # jumps to the end of a play in one step, where an updater that integrates ``dt`` gets one ``dt``
    # of the whole play and ``renderer.time`` the float run time, so its state would drift from the
    # whole render's. The last frame before the start and the first at the end are drawn (not written)
    # and their digests kept, to be compared with the pieces beside it (``pieces.join_problems``).
    def _begin_stepping(self) -> None:
        renderer = self.renderer
        self._stepping = True
        self._step_frames = 0
        self._step_time0 = renderer.time
        self._time_rebased = False
        renderer._original_skipping_status = True

    def _end_stepping(self) -> None:
        renderer = self.renderer
        self._stepping = False
        renderer._original_skipping_status = False
        renderer.skip_animations = False
        self._rebase_time()
        self._time_rebased = False

    def _rebase_time(self) -> None:
        """Undo Manim's ``renderer.time += duration`` of a skipped play: time advances by frames."""
        if self._stepping and not self._time_rebased:
            self.renderer.time = self._step_time0
            self._time_rebased = True

    def _step_over(self, n: int, pixels: Any) -> None:
        """Count ``n`` frames of a stepped play as the renderer would write them (``add_frame``); keep the
        digest of the frame before the piece's start, and end the scene on the frame at its end."""
        self._rebase_time()
        assert self.piece is not None
        first = self._frame + self._step_frames
        if pixels is not None and first <= self.piece[0] - 1 < first + n:
            self.piece_before = frame_digest(pixels)
        if first <= self.piece[1] < first + n and self.piece[1] < self.plan.frames:
            if pixels is not None:
                self.piece_after = frame_digest(pixels)
            raise EndSceneEarlyException()
        self._step_frames += n
        self.renderer.time += n * (1 / self.renderer.camera.frame_rate)  # as CairoRenderer.add_frame

    def get_time_progression(
        self, run_time: float, description: str, n_iterations: int | None = None, override_skip_animations: bool = False
    ) -> Any:
        """Manim's, but every frame's time while stepping (a skipped play has only its end time)."""
        return super().get_time_progression(
            run_time, description, n_iterations, override_skip_animations or self._stepping
        )

    def update_to_time(self, t: float) -> None:
        self._rebase_time()
        super().update_to_time(t)

    def _check_cut(self, stepped: bool) -> None:
        assert self.piece is not None
        start, end = self.piece
        if stepped and start < self._frame:
            raise PieceCutError(
                f"scene {self.plan.id} {CANNOT_CUT} at frame {start}: a play runs across it; cut it at a cue's start"
            )
        if not stepped and self._frame > end:
            raise PieceCutError(
                f"scene {self.plan.id} {CANNOT_CUT} at frame {end}: a play runs across it; cut it at a cue's start"
            )

    def _park_at(self, short_id: str) -> None:
        """A parked piece, at the cue that starts it: hold up to the start (stepped), then wait for the
        message ``{"plan": FILE, "end": FRAME}`` on the FIFO and go on with that plan and piece end. A scene
        that read, before its start, what an edit there can change is refused: the process says why on
        stderr and exits with status 3, and the render is made afresh."""
        assert self._park and self.piece is not None
        prefix = self.plan
        assert isinstance(prefix, PrefixPlan)
        try:
            start = prefix._plan.cue(short_id).start_frame
        except KeyError:
            return  # cue_plan says it
        if start < self.piece[0]:
            return
        if start > self.piece[0] or prefix.read:
            why = f"its piece does not start at a cue ({start})" if start > self.piece[0] else ", ".join(prefix.read)
            print(f"{PARK_REFUSED}{why}", file=sys.stderr, flush=True)
            os._exit(3)
        self.hold_to(start)
        with open(self._park, encoding="utf-8") as fifo:
            message = json.loads(fifo.readline() or "null")
        if not message:
            os._exit(0)  # discarded
        plan = scene_plan_from_json(Path(message["plan"]).read_text(encoding="utf-8"), message["plan"])
        end = int(message["end"])
        if plan.id != prefix._plan.id or not start < end <= plan.frames:
            raise PlanError(f"scene {prefix._plan.id}: a parked piece was handed {plan.id} up to frame {end}")
        self.plan, self.piece, self._park = plan, (start, end), None

    def piece_report(self) -> dict[str, Any]:
        """What the join checks of this piece: its frames and the digests of the frames beside its cuts."""
        assert self.piece is not None
        return {
            "scene": self.plan.id,
            "start": self.piece[0],
            "end": self.piece[1],
            "frames": self._frame - self.piece[0],
            "before": self.piece_before,
            "first": frame_digest(self._first_written) if self._first_written is not None else None,
            "last": frame_digest(self._last_written) if self._last_written is not None else None,
            "after": self.piece_after,
        }

    def _write_piece_report(self) -> None:
        path = os.environ.get(PIECE_REPORT_ENV)
        if path:
            Path(path).write_text(json.dumps(self.piece_report(), sort_keys=True) + "\n", encoding="utf-8")

    def wait(
        self,
        duration: float = DEFAULT_WAIT_TIME,
        stop_condition: Callable[[], bool] | None = None,
        frozen_frame: bool | None = False,
    ) -> None:
        """Like :meth:`Scene.wait`, but unfrozen by default (updaters run, same quantisation as play)."""
        super().wait(duration, stop_condition=stop_condition, frozen_frame=frozen_frame)

    def allow(self, rule: str, *mobjects: Any, reason: str) -> None:
        """Declare an intentional exception to the viewer check (``coursekit.render.viewer_check``).

        ``rule`` is one of its rules ("overlap", "contrast", "size", "frame", "subtitle_band"); the
        exception covers findings that involve every mobject given (or a part of it), from now on.
        A declaration that never excuses anything is itself reported.

        ``rule="turn"`` is the motion check's (``coursekit.render.motion``): a line given (or a part of
        it) may turn against the words of the cue it is declared in.
        """

        if rule not in RULES + motion.RULES:
            raise ValueError(f"unknown viewer-check rule {rule!r}; one of {RULES + motion.RULES}")
        if not reason.strip():
            raise ValueError("an exception to the viewer check needs a one-line reason")
        caller = inspect.stack()[1]
        where = f"{Path(caller.filename).name}:{caller.lineno}"
        if rule in motion.RULES:
            cue = self._active_beat.id if self._active_beat is not None else None
            self.motion_allowances.append(motion.MotionAllowance(rule, cue, tuple(mobjects), reason, where))
            return
        self.viewer_allowances.append(Allowance(rule, tuple(mobjects), reason, where))

    def swap(self, old: Any, *arrivals: Any, run_time: float, out_share: float = 0.3) -> None:
        """Fade ``old`` (a mobject or a list of them) out, then play ``arrivals`` (animations), in the
        same whole frames one ``play(FadeOut(old), *arrivals, run_time=run_time)`` would take.

        A plain crossfade puts the old text and the new one on screen together for the whole
        animation; the viewer check reports that (rule ``crossfade``). ``out_share`` of the frames
        go to the fade-out (at least one), the rest to the arrivals."""
        from manim import FadeOut  # Manim: heavy, only when a scene is built

        olds = list(old) if isinstance(old, (list, tuple)) else [old]
        n = frames_for_run_time(run_time, self.fps)
        if n < 2:
            raise ValueError(f"swap needs at least two frames, got {n}")
        first = min(n - 1, max(1, round(out_share * n)))
        self.play_frames(*(FadeOut(m) for m in olds), frames=first)
        self.play_frames(*arrivals, frames=n - first)

    def play_frames(self, *animations: Any, frames: int, **kwargs: Any) -> None:
        """Play for exactly ``frames`` frames."""
        self.play(*animations, run_time=run_time_for_frames(frames, self.fps), **kwargs)

    def hold_frames(self, n: int) -> None:
        """Stand still for exactly ``n`` frames.

        When nothing on screen has a time-based updater (one taking ``dt``), nothing can change
        while no animation plays: the frame is drawn once and written ``n`` times (Manim's frozen
        frame), which saves a full Cairo redraw per frame. So an updater that depends on time or
        on ``self.frame`` (a countdown, a spinning hand) must take ``dt``; then every frame is drawn.
        """
        if n < 0:
            raise CueOverrunError(f"scene {self.plan.id}: cannot hold for {n} frames")
        if not n:
            return
        if self._still():
            start = self.frame
            drawn = self._sample_all()  # what every held frame shows
            # a frozen wait writes int(duration · fps) frames: ask for n + ½ frames to get exactly n
            self.wait((n + 0.5) / self.fps, frozen_frame=True)
            for k in range(n):
                for name, values in drawn:
                    self.probes.setdefault(name, []).append({"frame": start + k, **values})
        else:
            self.wait(run_time_for_frames(n, self.fps), frozen_frame=False)

    def _still(self) -> bool:
        """True if nothing can move without an animation: no time-based updaters anywhere."""
        return not self.updaters and not any(m.has_time_based_updater() for m in self.get_mobject_family_members())

    def hold_to(self, frame: int) -> None:
        """Stand still until ``frame``."""
        self.hold_frames(frame - self.frame)

    # -- cues ----------------------------------------------------------------
    def cue_plan(self, short_id: str) -> CuePlan:
        try:
            return self.plan.cue(short_id)
        except KeyError:
            full = short_id if "." in short_id else f"{self.plan.id}.{short_id}"
            raise PlanError(
                f"scene {self.plan.id} ({type(self).__name__}) has no cue {full!r} in its plan; "
                f"planned cues: {[c.id for c in self.plan.cues]}"
            ) from None

    @contextmanager
    def cue(self, short_id: str) -> Iterator[Beat]:
        """Run one beat: hold until the cue starts, yield its :class:`Beat`, check the end."""
        if self._active_beat is not None:
            raise PlanError(f"cue {short_id!r} opened inside beat {self._active_beat.id}")
        if self._park:
            self._park_at(short_id)
        plan = self.cue_plan(short_id)
        if self.frame > plan.start_frame:
            raise CueOverrunError(
                f"beat {plan.id} should start at frame {plan.start_frame} but the scene is "
                f"already at frame {self.frame}"
            )
        self.hold_to(plan.start_frame)
        beat = Beat(self, plan, short_id)
        self._active_beat = beat
        try:
            yield beat
        finally:
            self._active_beat = None
        if self.frame > plan.end_frame:
            raise CueOverrunError(f"beat {plan.id} overran its cue by {self.frame - plan.end_frame} frames")
        self._cues_done.append(plan.id)

    def render(self, *args: Any, **kwargs: Any) -> Any:
        """Manim's render; on an error, one line ``coursekit-where: FILE:LINE`` on stderr first: the
        innermost frame in the course's own code (a scene, its mobjects, its math), which the engine
        names in its one-line report (``manim_process``; Manim's own traceback wraps long paths)."""
        try:
            return super().render(*args, **kwargs)
        except BaseException as exc:
            where = course_frame(exc) if os.environ.get(PLAN_ENV) else ""  # only in a Manim process
            if where:
                print(f"{WHERE_MARK}{where}", file=sys.stderr, flush=True)
            raise

    def tear_down(self) -> None:
        """Pad with a still hold so the scene ends exactly on ``plan.frames``."""
        super().tear_down()
        end = self.plan.frames if self.piece is None else self.piece[1]
        try:
            missing = [c.id for c in self.plan.cues if c.id not in self._cues_done and c.start_frame < end]
            if missing:
                raise PlanError(f"scene {self.plan.id} never played cues {missing}")
            if self.frame > end:
                raise CueOverrunError(
                    f"scene {self.plan.id} wrote {self.frame} frames, {self.frame - end} past its planned {end}"
                )
            if end < self.plan.frames and self.frame != end:
                raise PieceCutError(
                    f"scene {self.plan.id} {CANNOT_CUT} at frame {end}: its piece ended on {self.frame}"
                )
            self.hold_to(end)
            if self.piece is not None:
                self._write_piece_report()
        except BaseException:
            # Manager.render does not clean up after tear_down: do it here so
            # no encoder thread keeps the process alive.
            abort = getattr(self.renderer.file_writer, "abort_encode_jobs", None)
            if abort is not None:
                abort()
            raise

    # -- probes --------------------------------------------------------------
    def settle(self, *groups) -> None:
        """Make each group one top-level mobject again (its parts may have been faded in one by one),
        drawn first.

        A later ``FadeOut(group)`` then removes every part, and static groups go before the
        moving ones in the draw list, so Manim draws them once per play instead of every frame.
        """
        for g in groups:
            self.remove(*[m for m in g.get_family()[1:] if m in self.mobjects])
        self.bring_to_back(*groups)

    def probe(self, name: str, **values: Any) -> None:
        """Record drawn values (tip coordinates, readouts, angles …) at the current frame."""
        self.probes.setdefault(name, []).append({"frame": self.frame, **values})

    def watch(self, name: str, sample: Callable[[], dict[str, Any]]) -> None:
        """Call ``sample()`` on every drawn frame and record its values under ``name``."""
        self._watches.append((name, sample))

    def on_screen(self, mob: Any) -> bool:
        """Whether ``mob`` is drawn now (in the scene and not in a fade that froze it)."""
        drawn = self._drawn_now if self._drawn_now is not None else {id(m) for m in self.get_mobject_family_members()}
        return id(mob) in drawn and not mob.updating_suspended

    def _sample_all(self) -> list[tuple[str, dict[str, Any]]]:
        """Every watch's values now. The scene's family is gathered once for all of them (a watch
        asks ``on_screen`` for a dozen mobjects per frame)."""
        if not self._watches or not self.record_probes:
            return []
        self._drawn_now = {id(m) for m in self.get_mobject_family_members()}
        try:
            return [(name, sample()) for name, sample in self._watches]
        finally:
            self._drawn_now = None

    def _sample_watches(self) -> None:
        for name, values in self._sample_all():
            self.probe(name, **values)

    @classmethod
    def viewer_rules(cls) -> ViewerRules:
        """The figures the viewer check applies to this scene (the course's ``LOOK``)."""
        return cls.LOOK
