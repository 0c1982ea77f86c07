"""Kill a render (SIGKILL / SIGINT) at points during a scene and during assembly: no final file is left
truncated, and the next run produces the same decoded frames and audio samples as an uninterrupted run.
On the mini course, `kill -9` during synthesis, during the `course` command's assembly and during
`subtitles`: the same command again gives byte-identical final outputs and no temporary file."""

import hashlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import mini_runs
from tests.support.mini_runs import copy_made, copy_mini_course

ROOT = Path(__file__).resolve().parents[3]
SCENE = "count_dots"
INJECTED: list[str] = []


def framemd5(path: Path) -> list[str]:
    out = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:v:0", "-f", "framemd5", "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [l.rsplit(",", 1)[1].strip() for l in out.splitlines() if l and not l.startswith("#")]


def audio_md5(path: Path) -> str:
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:a:0", "-f", "s16le", "-"], capture_output=True, check=True
    ).stdout
    return hashlib.md5(raw).hexdigest()


def complete(path: Path) -> bool:
    proc = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(path)],
        capture_output=True,
        text=True,
    )
    return proc.returncode == 0 and float(proc.stdout.strip() or 0) > 0


def _partial_movies(media: Path) -> list[Path]:
    return sorted((media / "manim" / SCENE).glob("**/videos/**/partial_movie_files/**/*.mp4"))


def _killed_mid_render(course: Path, tmp: Path, sig: signal.Signals, nth: int) -> None:
    """Run the preview until its Manim has handed every frame of its ``nth`` animation to the encoder (the
    animations before it written, this one's partial movie not sealed: mini_runs.manim_killpoint), then send
    ``sig`` to the whole group (render.py and its Manim child)."""
    media = course / "media"
    env, mark = mini_runs.manim_killpoint(course, tmp, nth)
    proc = mini_runs.start(course, "preview", SCENE, **env)  # its own session: render.py and its Manim child
    try:
        mini_runs.wait_for(lambda: mark.exists() or proc.poll() is not None, why=f"Manim's animation {nth}")
        assert mark.exists(), proc.communicate()[1][-2000:]
        # mid-render: Manim's in-progress marker is there, partial movies are written, no scene video yet
        assert list((media / "manim" / SCENE).rglob(".render-in-progress"))  # a stretch's Manim folder
        assert _partial_movies(media), list((media / "manim").rglob("*"))
        assert not (media / "preview" / f"{SCENE}.mp4").exists()
        os.killpg(proc.pid, sig)
        INJECTED.append(f"{sig.name} at the end of Manim's animation {nth}")
        proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=60)


def _forget_scene(media: Path) -> None:
    """The preview, the scene cache's keys and Manim's cache of the scene gone: the next preview renders
    every animation of the scene again."""
    shutil.rmtree(media / "preview", ignore_errors=True)
    shutil.rmtree(media / "manim" / SCENE, ignore_errors=True)
    for k in (media / "scenes").glob("*/.*.key"):
        k.unlink()


@pytest.mark.render
def test_scene_render_killed_then_resumed_is_identical(made_mini, tmp_path, monkeypatch, capfd):
    """On the mini course's longer scene (espeak, 480p15): killed in the middle of its render (at the end of
    its second animation with SIGKILL, of its third with SIGINT: the animations before it in Manim's cache,
    that one's partial movie unsealed), the next preview gives the uninterrupted render's frames and samples
    (the scene as the made mini course's quiet `course` rendered it at 480p15: the preview of one plan's
    scene decodes to the same frames and samples, its soft subtitles aside). The next preview runs in this
    process (``mini_runs.here``): it is what it finds on disk that matters, not the process."""
    # the voice's work done and the scene rendered once, uninterrupted; not the preview, which the kills
    # below are about
    course = copy_made(made_mini.course, tmp_path / "mini", without=("course",))
    media = course / "media"
    final = media / "preview" / f"{SCENE}.mp4"
    quiet = made_mini.course / "media" / "scenes" / "low" / f"{SCENE}.mp4"
    ref_frames, ref_audio = framemd5(quiet), audio_md5(quiet)
    for sig, nth in ((signal.SIGKILL, 2), (signal.SIGINT, 3)):
        _forget_scene(media)
        _killed_mid_render(course, tmp_path, sig, nth)
        assert not final.exists() or complete(final)  # never a truncated final file
        res = mini_runs.here(monkeypatch, capfd, "preview", SCENE, "--course", str(course))
        assert res.returncode == 0, (INJECTED[-1:], res.stderr[-1500:])
        assert framemd5(final) == ref_frames
        assert audio_md5(final) == ref_audio


def test_assembly_killed_then_resumed_is_identical(tmp_path):
    """The synthetic lesson (tests/support/synthetic.py) assembled by a process killed with SIGKILL in the
    middle of its assembly, then assembled again, against the lesson assembled uninterrupted. The kill lands
    at a fixed point (mini_runs.killpoint): just before the joined scenes' video is renamed into the work
    folder (nothing of the lesson made yet), and just before the lesson's video is renamed into place (its
    subtitle files written, the video whole under its temporary name). Only the killed run needs a process
    of its own; the uninterrupted and the resumed ones run in this process (``build_assembled`` is all the
    script runs; what it makes does not depend on the process)."""
    from tests.support.synthetic import build_assembled

    script = tmp_path / "asm.py"
    script.write_text(
        "import sys; sys.path.insert(0, %r)\n"
        "from pathlib import Path\n"
        "from tests.support.synthetic import build_assembled\n"
        "build_assembled(Path(sys.argv[1]))\n" % str(ROOT),
        encoding="utf-8",
    )
    ref = tmp_path / "ref"
    ref.mkdir()
    build_assembled(ref)
    ref_mp4 = ref / "course" / "trig_to_rope" / "trig_to_rope.mp4"
    ref_frames, ref_audio = framemd5(ref_mp4), audio_md5(ref_mp4)
    for i, (pattern, temporary) in enumerate(
        (
            (r"/work/video\.mp4$", "work/.video.*.tmp.mp4"),
            (r"/trig_to_rope\.mp4$", "course/trig_to_rope/.trig_to_rope.*.tmp.mp4"),
        )
    ):
        run = tmp_path / f"run{i}"
        run.mkdir()
        env, mark = mini_runs.killpoint(tmp_path, pattern)
        proc = subprocess.Popen(
            [sys.executable, str(script), str(run)],
            cwd=ROOT,
            start_new_session=True,
            env=mini_runs.env(**env),
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            mini_runs.wait_for(lambda: mark.exists() or proc.poll() is not None, why=f"assembly to reach {pattern}")
            assert mark.exists(), proc.communicate()[1][-2000:]
            assert list(run.glob(temporary)), list(run.rglob("*"))  # mid-assembly: its temporary file
            os.killpg(proc.pid, signal.SIGKILL)
            INJECTED.append(f"SIGKILL during assembly, before the rename onto {pattern}")
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=60)
        out = run / "course" / "trig_to_rope"
        for f in out.glob("trig_to_rope.*") if out.exists() else []:
            if f.suffix == ".mp4":
                assert complete(f), f
        build_assembled(run)
        mp4 = out / "trig_to_rope.mp4"
        assert framemd5(mp4) == ref_frames
        assert audio_md5(mp4) == ref_audio
        assert (out / "trig_to_rope.vtt").read_bytes() == (
            ref / "course" / "trig_to_rope" / "trig_to_rope.vtt"
        ).read_bytes()


# -- kill -9 during synthesis, assembly and `subtitles`, on a copy of the mini course (issue 26) -------------
# Each kill lands at a fixed point: every Python process of the command stops for ever just before it renames
# a finished temporary file into place (tests/support/mini_runs.killpoint), and the whole group is killed there. The
# same command again must give byte-identical final outputs (plans, scene videos and their cache records,
# subtitle files, the lesson video, the manifest) and leave no temporary file behind: those of the mini course
# made once without interruption (conftest's made_mini: after its `course`, and after its `subtitles`).


@pytest.fixture(scope="module")
def quiet_mini(made_mini):
    """The mini course made once without interruption (`course`, then `subtitles`; conftest's made_mini)."""
    return made_mini.course


def _killed_at(course: Path, tmp: Path, pattern: str, *args: str) -> list[str]:
    """Run the command until it reaches a rename onto ``pattern``, kill its whole group with SIGKILL; return
    the temporary files the kill left."""
    env, mark = mini_runs.killpoint(tmp, pattern)
    proc = mini_runs.start(course, *args, **env)
    try:
        mini_runs.wait_for(lambda: mark.exists() or proc.poll() is not None, why=f"{args} to reach {pattern}")
        assert mark.exists(), proc.communicate()[1][-2000:]
        os.killpg(proc.pid, signal.SIGKILL)
        INJECTED.append(f"SIGKILL before the rename onto {pattern}")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    return mini_runs.temporaries(course)


def _copy_media(src: Path, dst: Path, without: tuple[str, ...] = (), only: tuple[str, ...] = ()) -> None:
    def ignore(d, names):
        return [n for n in names if Path(d) == src / "media" and (n in without or only and n not in only)]

    shutil.copytree(src / "media", dst / "media", ignore=ignore, dirs_exist_ok=True)


@pytest.mark.render
def test_synthesis_killed_then_resumed_is_identical(made_mini, quiet_mini, tmp_path):
    course = copy_mini_course(tmp_path / "mini")
    left = _killed_at(course, tmp_path, r"cache/audio/[0-9a-f]+\.wav$", "course")
    assert any(p.startswith("cache/audio/") for p in left), left  # killed in the middle of a write
    # the quiet run's scene cache (the scene videos, their keys, the scene plans they were rendered from)
    # beside what the kill left: the scenes are what synthesis feeds, and their keys cover the plan's audio
    # hashes, so a resumed synthesis that made other audio (or another plan) renders them again and differs
    # below; one that made the same reuses them instead of rendering them twice
    _copy_media(quiet_mini, course, only=("scenes",))
    shutil.copytree(quiet_mini / "media" / "plan" / "15fps" / "scenes", course / "media" / "plan" / "15fps" / "scenes")
    mini_runs.ok(mini_runs.run(course, "course"))
    assert mini_runs.temporaries(course) == []
    assert mini_runs.finals(course) == made_mini.after_course


@pytest.mark.render
@pytest.mark.parametrize(
    "pattern",
    [
        # while the lesson's video is written beside the delivery (its work folder's delivery/): nothing
        # delivered has changed yet, and the half-written file is a temporary
        r"work/.+/delivery/counting\.mp4$",
        # while the made files are put in place: some of the lesson's files are delivered, the rest are
        # still staged, the manifest is not written
        r"course/counting/counting\.mp4$",
    ],
    ids=["staging", "putting-in-place"],
)
def test_assembly_of_the_course_command_killed_then_resumed_is_identical(made_mini, quiet_mini, tmp_path, pattern):
    course = copy_mini_course(tmp_path / "mini")
    _copy_media(quiet_mini, course, without=("course",))  # scenes rendered: `course` assembles
    left = _killed_at(course, tmp_path, pattern, "course")
    staged = sorted(p.name for p in (course / "media" / "work").rglob("delivery/*"))
    if "delivery" in pattern:
        assert any("/delivery/" in p for p in left), left  # killed in the middle of a write
        assert not (course / "media" / "course").exists()  # nothing delivered yet
    else:
        assert left == [] and "counting.mp4" in staged, (left, staged)  # killed between two renames
    mini_runs.ok(mini_runs.run(course, "course"))
    assert mini_runs.temporaries(course) == []
    assert mini_runs.finals(course) == made_mini.after_course


@pytest.mark.render
def test_subtitles_killed_then_resumed_is_identical(quiet_mini, tmp_path):
    course = copy_mini_course(tmp_path / "mini")
    _copy_media(quiet_mini, course)
    left = _killed_at(course, tmp_path, r"course/counting/counting\.mp4$", "subtitles")
    assert any(p.startswith("course/counting/") for p in left), left
    mini_runs.ok(mini_runs.run(course, "subtitles"))
    assert mini_runs.temporaries(course) == []
    assert mini_runs.finals(course) == mini_runs.finals(quiet_mini)


@pytest.mark.render  # it counts the faults the render tests above inject
def test_report_faults_injected():
    print(f"faults injected: {len(INJECTED)}: {INJECTED}")
    assert len(INJECTED) >= 3
