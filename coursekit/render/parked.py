"""A Manim process parked at a cue's start, so that the studio's next edit of that cue draws only the cue.

An author edits one cue again and again. Rendering the edited cue's stretch costs a Manim process its start,
the scene built up to the cue and every frame before it stepped through (``coursekit.render.pieces``); only
then is the cue drawn. After the studio remakes a preview for an edit of a cue, ``Parking.park`` has a warm
Manim process (``coursekit.render.warm_manim``) do all of that ahead: it runs the scene's piece that starts at
the cue, steps up to the start (``NarratedScene._park_at``) and waits on a FIFO. At the next edit, ``draw``
hands it the new plan and the cue's new end, and it draws the cue's frames alone. The studio also parks one
where its page stops on a cue (``park_preview``), so that the first edit of the cue being read is quick too.

It is used only when what it stepped through is what the new plan gives (``Parking.take``): the same scene
code and settings (``preview_pieces.code_key``) and the same prefix signature at its start (every cue before
it: text, audio, frames, bookmarks). Otherwise it is ended and the stretch rendered afresh, as it is when the
process is gone. A scene that read before the cue what an edit there can change (its length, its cue list, a
later cue: ``narrated_scene.PrefixPlan``) does not park: it says so and exits. The stretch a parked process
draws is checked as any stretch is (``pieces.join_problems``).

One process per scene, for ``MAX_SCENES`` scenes at most, in the scene's Manim folder under
``stretches/parked``; a new park, ``discard`` or ``close`` ends it, and it dies with this process
(``setpriv --pdeathsig``, as every render).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.core.config import Config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.plan.model import ScenePlan, scene_plan_to_json
from coursekit.render import pieces, preview_pieces
from coursekit.render.manim_process import PARK_ENV, PARK_REFUSED, manim_command, manim_result, start_warm, wait_for
from coursekit.render.registry import find_scene_module
from coursekit.render.warm_manim import Warm

#: how often ``draw`` looks whether the parked process has reached its start (it may still be stepping)
POLL_S = 0.005
#: scenes with a parked process at most (each holds a Manim process with its scene built, about 230 MB):
#: parking for another ends the one parked longest ago
MAX_SCENES = 2


@dataclass
class Parked:
    """A process parked at frame ``start`` of scene ``scene_id``, for code key ``code`` and prefix signature
    ``sig``; its Manim folder, FIFO and plan file, and how it was started."""

    scene_id: str
    start: int
    code: str
    sig: str
    warm: Warm
    folder: Path
    module: Path
    quality: str
    memory_gb: float

    @property
    def fifo(self) -> Path:
        return self.folder / "go.fifo"

    def alive(self) -> bool:
        """Whether it still runs; a process that ended is not reaped here (``draw`` collects its output)."""
        return os.waitid(os.P_PID, self.warm.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None

    def end(self) -> None:
        self.warm.discard()


class Parking:
    """The parked processes of a studio, one per scene at most."""

    def __init__(self) -> None:
        self._by_scene: dict[str, Parked] = {}
        self._lock = threading.Lock()

    def park(
        self,
        layout: MediaLayout,
        scene: ScenePlan,
        module: Path,
        quality: str,
        memory_gb: float,
        start: int,
        end: int,
        code: str,
        sig: str,
    ) -> Parked | None:
        """Start a process parked at ``start`` of ``scene`` (its piece ``start..end`` in the plan as it is
        now); None when no process could be started."""
        self.discard(scene.id)
        folder = layout.manim_dir(scene.id) / "stretches" / "parked"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        os.mkfifo(folder / "go.fifo")
        plan_file = folder / "plan.json"
        write_text(plan_file, scene_plan_to_json(scene))
        args, env = manim_command(scene, module, plan_file, quality, folder, use_cache=False, piece=(start, end))
        env[PARK_ENV] = str(folder / "go.fifo")
        warm = start_warm(args, env, int(memory_gb * 2**30), fill=True)
        if warm is None:
            return None
        parked = Parked(scene.id, start, code, sig, warm, folder, module, quality, memory_gb)
        with self._lock:
            self._by_scene[scene.id] = parked
            oldest = list(self._by_scene)[: max(0, len(self._by_scene) - MAX_SCENES)]
            ended = [self._by_scene.pop(k) for k in oldest]
        for old in ended:
            old.end()
        return parked

    def _fitting(self, scene_id: str, start: int, code: str, sig: str) -> Parked | None:
        """The process parked for ``scene_id`` if it waits at ``start`` for this code key and prefix signature
        (the lock held)."""
        parked = self._by_scene.get(scene_id)
        return parked if parked is not None and (parked.start, parked.code, parked.sig) == (start, code, sig) else None

    def holds(self, scene_id: str, start: int, code: str, sig: str) -> bool:
        """Whether a process is parked for ``scene_id`` at ``start`` for this code key and prefix signature."""
        with self._lock:
            return self._fitting(scene_id, start, code, sig) is not None

    def take(self, scene_id: str, start: int, code: str, sig: str) -> Parked | None:
        """The process parked for ``scene_id`` if it was parked at ``start`` for this code key and prefix
        signature (it is no longer held here; ``draw`` says if it has gone since); else None, and it stays
        (``forget`` ends one that no longer fits)."""
        with self._lock:
            parked = self._fitting(scene_id, start, code, sig)
            if parked is not None:
                del self._by_scene[scene_id]
        return parked

    def forget(self, scene_id: str, code: str, sig_at: dict[int, str]) -> None:
        """End the process parked for ``scene_id`` unless it fits the new plan (``sig_at``: its prefix
        signatures) and code key."""
        with self._lock:
            parked = self._by_scene.get(scene_id)
            if parked is None or (parked.code == code and sig_at.get(parked.start) == parked.sig):
                return
            del self._by_scene[scene_id]
        parked.end()

    def discard(self, scene_id: str) -> None:
        with self._lock:
            parked = self._by_scene.pop(scene_id, None)
        if parked is not None:
            parked.end()

    def close(self) -> None:
        with self._lock:
            left, self._by_scene = list(self._by_scene.values()), {}
        for parked in left:
            parked.end()


def draw(parked: Parked, scene: ScenePlan, end: int, stats: dict | None = None) -> tuple[Path, dict] | str:
    """Hand ``parked`` the plan ``scene`` and its piece's end: the piece's video and report, or why it could
    not draw it (it refused to park, exited before its start, failed, or wrote other frames than asked)."""
    plan_file = parked.folder / "new-plan.json"
    write_text(plan_file, scene_plan_to_json(scene))
    while True:  # the FIFO opens for writing once the scene waits on it
        try:
            fd = os.open(parked.fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as exc:
            if exc.errno != errno.ENXIO:
                raise
        if not parked.alive():
            code, output, _, _ = wait_for(parked.warm.proc, parked.warm.out)
            refused = [l[len(PARK_REFUSED) :] for l in output.splitlines() if l.startswith(PARK_REFUSED)]
            return f"it did not park: {refused[-1]}" if refused else f"it exited with status {code} before its start"
        time.sleep(POLL_S)
    t0 = time.perf_counter()
    try:
        os.write(fd, (json.dumps({"plan": str(plan_file), "end": end}) + "\n").encode())
    finally:
        os.close(fd)
    piece = (parked.start, end)
    result = wait_for(parked.warm.proc, parked.warm.out)
    # anything wrong here and the stretch is made afresh: a failure of the scene itself fails there too, with
    # its own line
    if result[0] != 0:
        return f"it failed with status {result[0]}"
    try:
        video = manim_result(
            scene, parked.module, parked.quality, parked.folder, parked.memory_gb, result, t0, stats, piece
        )
    except (RuntimeError, UserError) as exc:
        return f"its video is not the piece: {exc}"
    return video, pieces.read_report(parked.folder / "piece.json")


PARKING = Parking()
"""The studio's parked processes (``one_scene.deliver_remade`` with ``warm``)."""


def park_at(
    layout: MediaLayout,
    scene: ScenePlan,
    quality: str,
    memory_gb: float,
    module: Path,
    code: str,
    sigs: dict[int, str],
    start: int,
) -> bool:
    """A process parked at the cue that starts on frame ``start`` of ``scene`` (code key ``code``, prefix
    signatures ``sigs``), unless one already waits there for this plan; whether one does now."""
    if PARKING.holds(scene.id, start, code, sigs[start]):
        return True
    end = next(b for b in preview_pieces.boundaries(scene) if b > start)
    return PARKING.park(layout, scene, module, quality, memory_gb, start, end, code, sigs[start]) is not None


def park_preview(cfg: Config, layout: MediaLayout, scene: ScenePlan, quality: str, short: str) -> bool:
    """Have a process wait at cue ``short`` of the preview ``scene`` (the studio: the cue the author has stopped
    at), so that an edit of it draws only the cue; whether one does (none when the scene has no module, or
    previews are rendered whole)."""
    module = find_scene_module(scene.cls)
    if module is None or not pieces.switched_on():
        return False
    code = preview_pieces.code_key(scene, module, quality, cfg.course.font)
    sigs = preview_pieces.prefix_signatures(scene, code)
    return park_at(
        layout, scene, quality, cfg.render.worker_memory_gb, module, code, sigs, scene.cue(short).start_frame
    )
