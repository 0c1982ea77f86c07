"""A Manim process started before it is needed (coursekit.render.warm_manim): it runs the job it is given,
with the job's environment, and is only handed to a job whose fixed environment it was started with."""

from __future__ import annotations

import os
import sys

from coursekit.render.manim_process import wait_for
from coursekit.render.warm_manim import WarmStarter


def test_a_warm_process_runs_the_job_with_its_environment_and_only_for_its_own_environment(tmp_path):
    starter = WarmStarter()
    env = {**os.environ, "COURSEKIT_SCENE_PLAN": "a.json"}
    prefix = (sys.executable,)
    try:
        starter.prepare(prefix, env, str(tmp_path), count=1)
        # another fixed variable (read when Python starts): not this process
        assert starter.take(prefix, {**env, "PYTHONHASHSEED": "7"}, str(tmp_path)) is None
        warm = starter.take(prefix, {**env, "COURSEKIT_SCENE_PLAN": "b.json"}, str(tmp_path))  # a job variable
        assert warm is not None
        warm.give(["--version"], {**env, "COURSEKIT_SCENE_PLAN": "b.json"})
        code, output, _, cpu = wait_for(warm.proc, warm.out)
        assert code == 0 and "Manim Community" in output, output
        assert cpu > 0.2  # its imports are counted with the job
        assert starter.take(prefix, env, str(tmp_path)) is None  # taken once; refill starts the next
    finally:
        starter.close()
