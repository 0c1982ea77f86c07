"""The studio's background: while nothing builds, each scene's status for the list, then the viewer check
of the scenes whose findings are not cached for their key.

Statuses come first (the scene just built, then the scenes open in a page, then the rest); then the checks,
in the same order. Each check runs in a child process (``python -m coursekit.studio.checks check``: scene
code is imported there, fresh, never in the studio) at low priority; a build that starts kills that child,
and the check runs again later. The findings are cached per scene under its scene-cache key, in the output
folder's ``studio/findings/<scene>.json`` (``coursekit.studio.status``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.plan.model import scene_plan_from_json, scene_plan_to_json
from coursekit.render.manim_process import manim_env
from coursekit.render.registry import scene_class
from coursekit.render.scene_contract import building
from coursekit.render.viewer_check import check_scene
from coursekit.studio.freshness import Freshness
from coursekit.studio.state import Shared, one_line, read_json
from coursekit.studio.status import Status


class Checks:
    """The background thread (``run``) and the viewer check's child process; ``enabled=False`` works out
    the statuses only."""

    def __init__(self, shared: Shared, fresh: Freshness, status: Status, enabled: bool = True) -> None:
        self.shared = shared
        self.fresh = fresh
        self.status = status
        self.enabled = enabled
        self._proc: subprocess.Popen | None = None
        self._first: list[str] = []  # scenes just built: their status and check first

    def first(self, scene_id: str) -> None:
        """Work out ``scene_id`` (just built) before the others."""
        with self.shared.lock:
            if scene_id not in self._first:
                self._first.insert(0, scene_id)

    def kill(self) -> None:
        """Stop the check that runs, if one does (a build starts, or the studio stops)."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass

    # -- what to do next ----------------------------------------------------------------------------
    def _order(self) -> list[str]:
        shared = self.shared
        course = shared.last_course
        every = list(course.scenes) if course else []
        with shared.lock:
            first = [s for s in self._first if s in every]
        opened = [s for s in sorted(shared.open_scenes()) if s in every and s not in first]
        return first + opened + [s for s in every if s not in first and s not in opened]

    def _next_task(self) -> tuple[str, str] | None:
        order = self._order()
        stale = self.status.stale(order)
        if stale:
            return "status", stale[0]
        self.fresh.save()
        if not self.enabled:
            return None
        scene_id = self.status.unchecked(order)
        return ("check", scene_id) if scene_id is not None else None

    def run(self) -> None:
        """The background thread: one task at a time while nothing builds, until the studio stops."""
        shared, status = self.shared, self.status
        while not shared.stopping.is_set():
            shared.idle.wait()
            if shared.stopping.is_set():
                return
            try:
                task = self._next_task()
            except Exception as exc:
                shared.say(f"studio: scene status: {one_line(exc)}")
                task = None
            if task is None:
                shared.wake.wait(timeout=5)
                shared.wake.clear()
                continue
            kind, scene_id = task
            try:
                if kind == "status":
                    before = status.row(scene_id)
                    status.refresh(scene_id)
                    after = status.row(scene_id)
                    if {k: v for k, v in before.items() if k != "pending"} != {
                        k: v for k, v in after.items() if k != "pending"
                    } or before["pending"]:
                        shared.publish({"type": "status", "scene": scene_id, "row": after})
                else:
                    self._check(scene_id)
            except Exception as exc:  # keep going; mark it so it is not retried in a loop
                status.failed(scene_id, one_line(exc))
                shared.say(f"studio: {scene_id}: {one_line(exc)}")

    # -- one check ------------------------------------------------------------------------------
    def _check(self, scene_id: str) -> None:
        """The viewer check of one scene in a child process; its findings cached under the scene's key."""
        shared, status = self.shared, self.status
        key = status.key_of(scene_id)
        course = shared.last_course
        lp = shared.lesson_plan(course.lesson_of(scene_id).id)
        scene = lp.scene(scene_id)
        layout = shared.layout
        work = layout.studio_check
        plan_file = write_text(work / f"{scene_id}.plan.json", scene_plan_to_json(scene))
        out = work / f"{scene_id}.out.json"
        out.unlink(missing_ok=True)
        args = [sys.executable, "-m", "coursekit.studio.checks", "check", str(plan_file), str(out), str(layout.inspect)]
        env = manim_env(plan_file)  # the course's and the engine's packages on the path, threads pinned
        with shared.lock:
            if not shared.idle.is_set():
                return
            status.checking = scene_id
            self._proc = proc = subprocess.Popen(
                args,
                env=env,
                cwd=shared.project.root,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
            try:
                os.setpriority(os.PRIO_PROCESS, proc.pid, 10)  # behind renders and the author's own work
            except OSError:
                pass
        shared.publish({"type": "status", "scene": scene_id, "row": status.row(scene_id)})
        try:
            _, err = proc.communicate()
        finally:
            with shared.lock:
                self._proc = None
                status.checking = None
        if proc.returncode < 0:  # killed for a build: run again later
            shared.publish({"type": "status", "scene": scene_id, "row": status.row(scene_id)})
            return
        if proc.returncode == 0 and (got := read_json(out)) is not None:
            result = {"key": key, "steps": got["steps"], "findings": got["findings"]}
        else:
            lines = [l for l in err.decode("utf-8", "replace").splitlines() if l.strip()]
            result = {"key": key, "error": lines[-1] if lines else f"the check exited with {proc.returncode}"}
        write_text(shared.layout.studio_findings(scene_id), json.dumps(result, ensure_ascii=False) + "\n")
        with shared.lock:
            if scene_id in self._first:
                self._first.remove(scene_id)
            status.found(scene_id, key, result)
        shared.publish({"type": "findings", "scene": scene_id, "row": status.row(scene_id)})


# -- the child process of a viewer check --------------------------------------------------------
def check_main(argv: Iterable[str]) -> int:
    """``check PLAN.json OUT.json MEDIA_DIR``: the viewer check of the scene in PLAN.json (a dry run),
    its findings written to OUT.json; a failure is one line on stderr and exit status 1."""
    _, plan_file, out, media_dir = list(argv)
    try:
        plan = scene_plan_from_json(Path(plan_file).read_text(encoding="utf-8"))
        with building(plan.id, plan.cls):
            cls = scene_class(plan.cls)
            report = check_scene(cls, plan, cls.viewer_rules(), media_dir=Path(media_dir))
    except Exception as exc:
        print(one_line(exc), file=sys.stderr)
        return 1
    write_text(
        Path(out),
        json.dumps(
            {"steps": report.steps, "findings": [dataclasses.asdict(f) for f in report.findings]}, ensure_ascii=False
        )
        + "\n",
    )
    return 0


if __name__ == "__main__":
    sys.exit(check_main(sys.argv[1:]))
