"""Scene jobs on Dask distributed (``--executor dask``), on a LocalCluster of 2 worker processes on loopback.

Determinism: a scene rendered as a Dask job has the **same decoded frames and audio samples** as the same
scene rendered by the local executor (``ffmpeg -f framemd5`` of the video, md5 of the s16le audio). Both
run the same Manim command with the thread counts pinned (coursekit.render.manim_process.ENCODER_THREADS and
RENDER_ENV), the same narration mix and bit-exact AAC encoder and the same ffmpeg mux, and nothing in
the file depends on the folder or machine it was rendered on. The MP4 *bytes* are usually identical
too, but not always: x264 with sliced threads is not byte-deterministic even between two local runs
(scene order_entry gave two variants over repeated local renders, one IDR packet one byte apart, both
decoding to the same frames), so bytes are reported (printed), while frames and samples are asserted.

What is rendered: the mini course (tests/fixtures/mini_course, copied into a temporary folder that is the
course root of this process and of the cluster's workers for the whole module): its one lesson's two
scenes, count_dots (6.2 s of video, 3 narrated cues) and closing (2.6 s, 1 cue), at 480p15 with the
espeak voice, so the narration track carries real samples. Two scenes are what the executor needs to show
its scheduling (two jobs at once on the two workers, one killed while the other goes on, one failing while
the other is received); that they come from one lesson changes nothing for it (jobs are per scene). The
short scenes keep the many renders here (Dask, killed worker, failing job and resume) cheap; closing, the
shortest, is the one that fails and is rendered again.

The local executor's outputs, the reference, are the made mini course's (conftest's ``made_mini``, made once
per test run by ``render.py course`` with the local executor, 2 jobs on two cores): its scenes/low/*.mp4 and its
logs/render-low.jsonl, used after checking that each scene's scene-cache key there is the key of the same
scene planned here (so they are what the local executor delivers for these plans, in any folder). Its espeak
clips (content-addressed, checked on use like any audio cache) are copied into the copy's audio cache, so
planning here synthesises nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from coursekit.core.layout import MediaLayout
from tests.support import mini_runs
from tests.support.media import video_frame_count
from tests.support.mini_runs import copy_mini_course

ROOT = Path(__file__).resolve().parents[3]
OUT = "media"  # the mini course's output folder, in its copy
A, B = "count_dots", "closing"  # B, the shorter, is the one that fails twice
SCENES = [A, B]
COURSE: Path  # the copy (set by the ``mini_root`` fixture)

pytestmark = pytest.mark.render


def _copy_new(src: Path, dst: Path) -> None:
    """Every file of ``src`` that ``dst`` lacks, each written to a temporary name and renamed."""
    if not src.is_dir():
        return
    dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(src.iterdir(), key=lambda f: f.suffix != ".wav"):  # a clip before the json vouching for it
        if f.is_file() and not (dst / f.name).exists():
            tmp = dst / f".{f.name}.{os.getpid()}.tmp"
            shutil.copyfile(f, tmp)
            os.replace(tmp, dst / f.name)


@pytest.fixture(scope="module")
def mini_root(tmp_path_factory, made_mini):
    """A copy of the mini course, the course root (COURSEKIT_COURSE) of this process and of every process
    started from it while the module runs: the cluster's workers (and a worker the nanny restarts), Manim,
    render.py. Its audio cache has the made mini course's espeak clips."""
    from coursekit.core.paths import COURSE_ENV

    global COURSE
    COURSE = copy_mini_course(tmp_path_factory.mktemp("dask_course") / "mini")
    _copy_new(made_mini.course / OUT / "cache" / "audio", COURSE / OUT / "cache" / "audio")
    before = os.environ.get(COURSE_ENV)
    os.environ[COURSE_ENV] = str(COURSE)
    try:
        yield COURSE
    finally:
        if before is None:
            os.environ.pop(COURSE_ENV, None)
        else:
            os.environ[COURSE_ENV] = before


@pytest.fixture(scope="module")
def cluster(mini_root):
    from distributed import Client

    from coursekit.render.executors.dask_cluster import loopback_cluster

    before = dict(os.environ)
    with loopback_cluster(2) as lc, Client(lc, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)
        # the nanny wrote its pre-spawn variables here; loopback_cluster has put this process's back
        assert dict(os.environ) == before
        yield lc.scheduler_address, client
    assert dict(os.environ) == before


@pytest.fixture(scope="module")
def course(cluster, mini_root):
    """Configs for both executors (the mini course's own config.yaml: espeak, low quality, output media/)
    and the espeak plan of its lesson."""
    from coursekit.core.config import load_config
    from coursekit.project.project import Project

    cfg_file = mini_root / "config.yaml"
    project = Project.open(None, cfg_file, say=lambda line: None)
    local = project.config
    dask = load_config(cfg_file, **{"render.executor": "dask", "render.scheduler": cluster[0]})
    plans = project.plans(15)
    scenes = {s.id: s for plan, _ in plans.values() for s in plan.scenes}
    assert set(SCENES) <= set(scenes) and scenes[B].frames < scenes[A].frames
    return {"file": cfg_file, "local": local, "dask": dask, "plans": [p for p, _ in plans.values()], "scenes": scenes}


def render(cfg, plans, ids=SCENES, **kw):
    from coursekit.render.batch import render_scenes

    return render_scenes(cfg, MediaLayout(cfg.output_dir), plans, ids, **kw)


def out_path(sid: str) -> Path:
    return COURSE / OUT / "scenes" / "low" / f"{sid}.mp4"


def clear_outputs() -> None:
    shutil.rmtree(COURSE / OUT / "scenes", ignore_errors=True)
    shutil.rmtree(COURSE / OUT / "logs", ignore_errors=True)


def log_rows() -> list[dict]:
    path = COURSE / OUT / "logs" / "render-low.jsonl"
    return [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def cli(*argv: str, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """``render.py ARGV --course COPY`` (the copy is this process's course root too)."""
    return subprocess.run(
        [sys.executable, "render.py", *argv, "--course", str(COURSE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )


def cli_here(monkeypatch, capfd, *argv: str, env: dict | None = None) -> tuple[int, str]:
    """``render.py ARGV --course COPY`` through the command line's entry in this process (``mini_runs.here``),
    which has the command's imports (Dask's among them) loaded already: (exit status, stderr). A real
    process runs the first of the one-line refusals (no scheduler): what a fresh process prints, its imports
    included, is one line."""
    res = mini_runs.here(monkeypatch, capfd, *argv, "--course", str(COURSE), **(env or {}))
    return res.returncode, res.stderr


def audio_samples(path: Path) -> bytes:
    return subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:a:0", "-f", "s16le", "-"], capture_output=True, check=True
    ).stdout


def framemd5(path: Path) -> list[str]:
    out = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:v:0", "-f", "framemd5", "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [l.rsplit(",", 1)[1].strip() for l in out.splitlines() if l and not l.startswith("#")]


def decoded(path: Path) -> tuple[list[str], str]:
    """Per-frame md5 of the decoded video and md5 of the decoded audio samples."""
    return framemd5(path), hashlib.md5(audio_samples(path)).hexdigest()


def assert_same_as_reference(reference: dict, course: dict, what: str) -> None:
    for sid in SCENES:
        frames, audio = decoded(out_path(sid))
        assert len(frames) == course["scenes"][sid].frames, sid
        assert frames == reference["frames"][sid], f"{sid}: decoded frames differ from the local executor's"
        assert audio == reference["audio"][sid], f"{sid}: audio samples differ from the local executor's"
        same = out_path(sid).read_bytes() == reference["bytes"][sid]
        print(f"{what}: {sid}: decoded frames and audio identical to local; bytes {'identical' if same else 'differ'}")


@pytest.fixture(scope="module")
def reference(course, made_mini):
    """The local executor's outputs, the made mini course's (read only): bytes, decoded frames and
    audio per scene, and its render log's rows. Each was made under the scene-cache key that the same scene
    planned here has (``is_fresh``: that key recorded beside it, and these bytes), so it is what the local
    executor delivers for these plans."""
    from coursekit.render.one_scene import scene_cache_key
    from coursekit.render.scene_cache import is_fresh

    made = made_mini.course / OUT
    ref: dict = {"bytes": {}, "frames": {}, "audio": {}}
    for sid in SCENES:
        plan, path = course["scenes"][sid], made / "scenes" / "low" / f"{sid}.mp4"
        _, key = scene_cache_key(plan, "low", False, course["local"].course.font)
        assert key and is_fresh(path, key), f"{sid}: the made mini course's video is not of this plan's key"
        assert video_frame_count(path) == plan.frames
        samples = np.frombuffer(audio_samples(path), dtype=np.int16)  # 24 kHz mono
        assert len(samples) >= 0.99 * plan.duration * 24000 and np.mean(samples != 0) > 0.2  # narration, not silence
        ref["bytes"][sid] = path.read_bytes()
        ref["frames"][sid], ref["audio"][sid] = decoded(path)
    rows = [json.loads(l) for l in (made / "logs" / "render-low.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["scene"] for r in rows} == set(SCENES) and {r["executor"] for r in rows} == {"local"}
    assert all(r["reused"] is False for r in rows)  # rendered there, not reused
    return {**ref, "rows": rows}


def counting_jobs(monkeypatch, wrap=None) -> list[str]:
    """Record (and optionally change) every job the dask executor builds."""
    from coursekit.render import scene_job

    sent: list[str] = []
    real = scene_job.make_job

    def make_job(scene, *args, **kw):
        sent.append(scene.id)
        job = real(scene, *args, **kw)
        return wrap(scene, job) if wrap else job

    monkeypatch.setattr(scene_job, "make_job", make_job)
    return sent


def test_dask_without_scheduler_is_one_line(course):
    proc = cli("render", "--scene", A, "--executor", "dask")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--scheduler tcp://HOST:8786" in lines[0] and "Traceback" not in proc.stderr


def test_unreachable_scheduler_is_one_line(course, monkeypatch, capfd):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    code, err = cli_here(
        monkeypatch,
        capfd,
        "render",
        "--scene",
        A,
        "--executor",
        "dask",
        "--scheduler",
        f"tcp://127.0.0.1:{port}",
        env={"COURSEKIT_DASK_TIMEOUT_S": "2"},
    )
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 2 s" in lines[0]
    assert "dask scheduler" in lines[0]


def test_scheduler_without_workers_is_one_line(course, monkeypatch, capfd):
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None) as empty:
        code, err = cli_here(
            monkeypatch,
            capfd,
            "render",
            "--scene",
            A,
            "--executor",
            "dask",
            "--scheduler",
            empty.scheduler_address,
            env={"COURSEKIT_DASK_TIMEOUT_S": "2"},
        )
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert f"the Dask scheduler at {empty.scheduler_address} has no workers (waited 2 s)" in lines[0]


def test_version_mismatch_is_refused(cluster, course, monkeypatch, capfd):
    """One worker reports another Manim version (its version reader is patched in that worker process):
    the client refuses before sending anything, and a job sent there anyway refuses on the worker."""
    from coursekit.render import scene_job
    from coursekit.render.one_scene import scene_cache_key

    address, client = cluster
    worker = sorted(client.scheduler_info()["workers"])[0]

    def patch():
        from coursekit.render import fingerprint as fp

        real = fp._libraries
        fake = {**real(), "manim": "0.0.0-other"}
        fp._real_libraries = real
        fp._libraries = lambda: fake

    def unpatch():
        from coursekit.render import fingerprint as fp

        fp._libraries = fp._real_libraries

    clear_outputs()
    client.run(patch, workers=[worker])
    try:
        code, err = cli_here(monkeypatch, capfd, "render", "--scene", A, "--executor", "dask", "--scheduler", address)
        assert code == 2, err
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        manim = scene_job.environment()["manim"]
        assert (
            f"Dask worker {worker} does not match this machine: manim: {manim} here, 0.0.0-other on the worker"
            in lines[0]
        )
        assert not out_path(A).exists() and log_rows() == []
        # the worker's own check, for a worker that joins after the client checked
        s = course["scenes"][A]
        _, key = scene_cache_key(s, "low")
        job = scene_job.make_job(s, "low", key, 1.5, scene_job.environment(), None)
        fut = client.submit(scene_job.run_scene_job, job, workers=[worker], allow_other_workers=False, pure=False)
        with pytest.raises(
            scene_job.SceneJobError,
            match=rf"this worker does not match the client: manim: {manim} here, "
            rf"0.0.0-other on the worker \(on worker {worker}\)",
        ):
            fut.result(timeout=60)
    finally:
        client.run(unpatch, workers=[worker])
    assert client.run(scene_job.environment)[worker]["manim"] == manim


def _patch_libraries(value: str) -> None:
    from coursekit.render import fingerprint as fp

    if not hasattr(fp, "_real_libraries"):
        fp._real_libraries = fp._libraries
    fake = {**fp._real_libraries(), "manim": value}
    fp._libraries = lambda: fake


def _unpatch_libraries() -> None:
    from coursekit.render import fingerprint as fp

    fp._libraries = getattr(fp, "_real_libraries", fp._libraries)


def test_change_on_this_machine_during_the_run_is_named(cluster, course, monkeypatch):
    """Workers sharing this machine's disk see an edit made after the run began; the run stops and says
    that this machine changed, not that the worker is wrong."""
    from coursekit.core.errors import UserError
    from coursekit.render import scene_job
    from coursekit.render.executors.dask_cluster import DaskExecutor

    address, client = cluster
    clear_outputs()
    with DaskExecutor(course["dask"], MediaLayout(COURSE / OUT)) as ex:  # versions checked and equal here
        client.run(_patch_libraries, "0.0.0-edited")  # ... then "the sources change" everywhere
        _patch_libraries("0.0.0-edited")
        try:
            with pytest.raises(UserError) as err:
                list(ex.deliver([course["scenes"][A]], "low", COURSE / OUT / "scenes" / "low", 2))
        finally:
            client.run(_unpatch_libraries)
            _unpatch_libraries()
    manim = scene_job.environment()["manim"]
    assert str(err.value) == (
        f"scene '{A}' was refused by its worker because this machine changed during the run "
        f"(manim: {manim} at the start, 0.0.0-edited now); scenes already received are kept; "
        f"run again"
    )
    assert not out_path(A).exists()


def test_dask_matches_local_frames_and_samples(course, reference):
    clear_outputs()
    render(course["dask"], course["plans"])
    assert_same_as_reference(reference, course, "dask")
    rows = log_rows()
    assert {r["scene"] for r in rows} == set(SCENES)
    assert all(r["executor"] == "dask" and r["reused"] is False for r in rows)
    assert {frozenset(r) for r in rows} == {frozenset(r) for r in reference["rows"]}  # same log keys


def test_dask_renders_a_scene_in_pieces_with_the_local_frames_and_samples(course, reference, monkeypatch):
    """One scene on the 2-worker cluster, cut in two (pieces of at least half a second): one job per piece,
    joined and muxed here; the same decoded frames and samples as the local executor's whole render."""
    from coursekit.render.pieces import MIN_PIECE_ENV

    clear_outputs()
    monkeypatch.setenv(MIN_PIECE_ENV, "0.5")
    sent = counting_jobs(monkeypatch)
    render(course["dask"], course["plans"], ids=[A])
    assert sent == [A, A]
    (row,) = log_rows()
    assert row["pieces"] == 2 and row["executor"] == "dask", row
    frames, audio = decoded(out_path(A))
    assert len(frames) == course["scenes"][A].frames
    assert frames == reference["frames"][A], "decoded frames differ from the local executor's whole render"
    assert audio == reference["audio"][A]


def test_unchanged_scene_is_not_sent(course, reference, monkeypatch, capfd):
    """Same scene-cache key as the local path: nothing is sent, and the local executor reuses them too."""
    if any(not out_path(sid).exists() for sid in SCENES):  # when run on its own
        render(course["dask"], course["plans"])
    shutil.rmtree(COURSE / OUT / "logs", ignore_errors=True)
    sent = counting_jobs(monkeypatch)
    render(course["dask"], course["plans"])
    assert sent == []
    assert [r["reused"] for r in log_rows()] == [True, True]
    render(course["local"], course["plans"])
    assert [r["reused"] for r in log_rows()] == [True, True, True, True]
    proc = mini_runs.here(
        monkeypatch,
        capfd,
        "render",
        "--scene",
        A,
        "--executor",
        "dask",
        "--scheduler",
        course["dask"].render.scheduler,
        "--course",
        str(COURSE),
    )
    assert proc.returncode == 0, proc.stderr
    assert f"{A}: unchanged, reused" in proc.stdout
    assert sent == []  # the command sent nothing either


def _manim_children(pid: int) -> list:
    import psutil

    try:
        return [p for p in psutil.Process(pid).children(recursive=True) if "manim" in " ".join(p.cmdline())]
    except psutil.Error:
        return []


def _worker_running(client, sid: str) -> str | None:
    """The address of the worker that has scene ``sid``'s job (keys are ``scene-<id>-<quality>-<run>``)."""
    for addr, keys in client.processing().items():
        if any(str(k).startswith(f"scene-{sid}-") for k in keys):
            return addr
    return None


def test_killed_worker_mid_job_still_completes(cluster, course, reference):
    """The worker that renders A (the longer scene) is killed while its Manim runs; B goes on on the other
    worker; A is run again elsewhere and both come out as the local executor made them."""
    import psutil

    address, client = cluster
    clear_outputs()
    pids = client.run(os.getpid)
    result: dict = {}

    def run():
        try:
            result["paths"] = render(course["dask"], course["plans"])
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            result["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    victim, children = None, []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and victim is None:
        addr = _worker_running(client, A)
        children = _manim_children(pids[addr]) if addr in pids else []
        if children:
            victim = (addr, pids[addr])
            break
        time.sleep(0.1)
    assert victim is not None, f"no worker started Manim for {A}"
    time.sleep(0.5)  # Manim under way (a short scene: it lasts a few s)
    assert t.is_alive() and _manim_children(victim[1])
    # Manim on the worker runs with the client's malloc settings, not the nanny's, and pinned threads
    env = children[0].environ()
    assert "MALLOC_TRIM_THRESHOLD_" not in env or env["MALLOC_TRIM_THRESHOLD_"] == os.environ.get(
        "MALLOC_TRIM_THRESHOLD_"
    )
    assert env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == "1"
    assert "threads=2" in children[0].cmdline()
    os.kill(victim[1], signal.SIGKILL)
    t.join(timeout=600)
    assert not t.is_alive()
    assert "error" not in result, result.get("error")
    assert_same_as_reference(reference, course, "after a killed worker")
    # the killed worker's Manim died with it (no orphan keeps rendering)
    time.sleep(1.0)
    for p in children:
        assert not p.is_running() or p.status() == psutil.STATUS_ZOMBIE
    client.wait_for_workers(2, timeout=120)  # the nanny restarted it


def test_job_failing_twice_stops_keeps_received_and_resumes(course, reference, monkeypatch):
    """B's job gets a narration clip that is not audio (hash consistent, so it fails only when mixed,
    after Manim): it fails, is retried, fails again; the run stops naming B and the worker's error.
    A, received meanwhile, is kept; the next run sends only B (its narration by hash, from a shared store)."""
    from coursekit.core.errors import UserError
    from coursekit.render.one_scene import scene_cache_key
    from coursekit.render.scene_cache import is_fresh

    def poison(scene, job):
        if scene.id != B:
            return job
        plan = json.loads(job["plan"])
        cue = next(c for c in plan["cues"] if c["audio_sha256"])
        bad = b"this is not a WAV file"
        sha = hashlib.sha256(bad).hexdigest()
        job["audio"].pop(cue["audio_sha256"])
        job["audio"][sha] = bad
        cue["audio_sha256"] = sha
        return {**job, "plan": json.dumps(plan, ensure_ascii=False)}

    clear_outputs()
    sent = counting_jobs(monkeypatch, poison)
    with pytest.raises(UserError) as err:
        render(course["dask"], course["plans"])
    msg = str(err.value)
    assert msg.startswith(f"scene '{B}' failed twice on the cluster: ") and "\n" not in msg
    assert "Decod" in msg and "(on worker tcp://127.0.0.1:" in msg, msg
    assert sorted(sent) == sorted(SCENES)
    assert not out_path(B).exists()
    _, key_a = scene_cache_key(course["scenes"][A], "low")
    assert is_fresh(out_path(A), key_a) and decoded(out_path(A)) == (reference["frames"][A], reference["audio"][A])

    # the next run, this time with a shared store: only B is sent, with its narration as hashes only
    monkeypatch.undo()
    from coursekit.core.config import load_config

    shutil.rmtree(COURSE / OUT / "store", ignore_errors=True)
    cfg = load_config(
        course["file"],
        **{
            "render.executor": "dask",
            "render.scheduler": course["dask"].render.scheduler,
            "render.shared_store": f"{OUT}/store",
        },
    )
    jobs: list[dict] = []
    sent = counting_jobs(monkeypatch, lambda scene, job: jobs.append(job) or job)
    render(cfg, course["plans"])
    assert sent == [B]
    clips = {c.audio_sha256 for c in course["scenes"][B].cues if c.audio_sha256}
    assert clips and jobs[0]["audio"] == dict.fromkeys(clips)
    assert {p.stem for p in (COURSE / OUT / "store" / "audio").glob("*.wav")} == clips
    assert decoded(out_path(B)) == (reference["frames"][B], reference["audio"][B])


def _dask_settings(keys: list[str]) -> list:
    import dask

    return [dask.config.get(k) for k in keys]


def test_loopback_cluster_runs_with_the_render_settings(cluster):
    """The scheduler and both workers run with coursekit/render/executors/dask-render.yaml (the settings the
    docs/cluster.md gives for a render cluster), not Dask's defaults."""
    import yaml

    from coursekit.render.executors.dask_cluster import RENDER_CLUSTER_CONFIG, _dotted

    wanted = _dotted(yaml.safe_load(RENDER_CLUSTER_CONFIG.read_text(encoding="utf-8")))
    assert "distributed.worker.profile.enabled" in wanted and len(wanted) == 5
    keys = sorted(wanted)
    client = cluster[1]
    got = client.run(_dask_settings, keys)
    assert len(got) == 2
    for values in [*got.values(), client.run_on_scheduler(_dask_settings, keys)]:
        assert dict(zip(keys, values)) == wanted


def _manim_env_on_worker() -> tuple[dict, dict]:
    """Run on a worker: its own environment, and the one its scene job would start Manim with."""
    from coursekit.render import scene_job
    from coursekit.render.manim_process import manim_env

    return dict(os.environ), manim_env(Path("plan.json"), scene_job._nanny_env())


def test_manim_on_a_worker_runs_in_the_local_environment(cluster, monkeypatch):
    """On a real worker, which the nanny started with MALLOC_TRIM_THRESHOLD_=65536, PYTHONHASHSEED=6640 and
    OMP_NUM_THREADS=1: Manim gets none of the first two and the pinned thread counts, exactly as a local
    render from this process does, even when this process has the nanny's values too (as a LocalCluster's
    host does after a worker restart). With MALLOC_TRIM_THRESHOLD_, Manim spent 3x as long in the kernel."""
    from coursekit.render.manim_process import RENDER_ENV, RENDER_ENV_UNSET, manim_env

    worker_env, env = cluster[1].submit(_manim_env_on_worker, pure=False).result(timeout=60)
    assert worker_env.get("MALLOC_TRIM_THRESHOLD_") == "65536" and worker_env.get("PYTHONHASHSEED") == "6640"
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    monkeypatch.setenv("PYTHONHASHSEED", "6640")
    local = manim_env(Path("plan.json"))
    for e in (env, local):
        assert not set(RENDER_ENV_UNSET) & set(e)
        assert {k: e[k] for k in RENDER_ENV} == RENDER_ENV
    assert set(worker_env) - set(env) <= set(RENDER_ENV_UNSET)  # nothing else of the worker's is dropped
