"""Scene-level cache keys: what they cover and when a scene counts as unchanged. The plan is unit_circle's
with the silent voice: a real plan of the course, without synthesising its lesson's audio."""

import dataclasses
from pathlib import Path

import pytest

from coursekit.core.config import DEFAULT_FONT
from coursekit.core.layout import MediaLayout
from coursekit.render import scene_cache
from coursekit.render.scene_cache import dependency_files, is_fresh, remember, scene_key
from tests.support.course_scenes import narration_scene_plan

ROOT = Path(__file__).resolve().parents[3]
MODULE = ROOT / "scenes" / "unit_circle.py"


def rel(paths):
    return {str(p.relative_to(ROOT)) for p in paths}


def test_dependencies_are_the_project_modules_imported_transitively():
    deps = rel(dependency_files(MODULE))
    assert {
        "scenes/unit_circle.py",
        "scenes/base.py",
        "scenes/theme.py",
        "scenes/mobjects/unit_circle_pointer.py",
        "mathcore/rotation.py",
    } <= deps
    assert "scenes/angle_addition.py" not in deps
    assert not any(d.startswith(".venv") for d in deps)


def test_key_changes_with_plan_quality_and_sources(tmp_path, monkeypatch):
    plan = narration_scene_plan("unit_circle", voice_name="silent")
    k = scene_key(plan, MODULE, "low")
    assert k == scene_key(plan, MODULE, "low")
    assert k != scene_key(plan, MODULE, "high")
    cue0 = dataclasses.replace(plan.cues[0], audio_sha256="0" * 64)
    assert k != scene_key(dataclasses.replace(plan, cues=[cue0] + plan.cues[1:]), MODULE, "low")
    cue1 = dataclasses.replace(plan.cues[1], start_frame=plan.cues[1].start_frame + 1)
    assert k != scene_key(dataclasses.replace(plan, cues=[plan.cues[0], cue1] + plan.cues[2:]), MODULE, "low")
    # moving the scene within its lesson (an earlier scene got longer) keeps the key
    assert k == scene_key(dataclasses.replace(plan, start_frame=plan.start_frame + 97), MODULE, "low")
    # a changed dependency changes the key
    copy = tmp_path / "unit_circle.py"
    copy.write_text(MODULE.read_text(encoding="utf-8"), encoding="utf-8")
    real = dependency_files(MODULE)
    monkeypatch.setattr(scene_cache, "dependency_files", lambda m: [*real, copy])
    k1 = scene_key(plan, MODULE, "low")
    copy.write_text(copy.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert scene_key(plan, MODULE, "low") != k1


def test_fresh_only_with_matching_key_and_output(tmp_path):
    out = tmp_path / "s.mp4"
    assert not is_fresh(out, "abc")
    out.write_bytes(b"x" * 10)
    assert not is_fresh(out, "abc")
    remember(out, "abc")
    assert is_fresh(out, "abc") and not is_fresh(out, "abd")
    out.write_bytes(b"x" * 9)  # truncated
    assert not is_fresh(out, "abc")
    out.write_bytes(b"y" * 10)  # same size, different bytes
    assert not is_fresh(out, "abc")
    out.write_bytes(b"")
    assert not is_fresh(out, "abc")


def test_the_scene_key_and_the_worker_check_share_one_fingerprint(monkeypatch):
    """A font file with other contents changes both the scene-cache key and what a Dask worker is
    checked against; its path or mtime alone changes neither."""
    from coursekit.plan.model import ScenePlan
    from coursekit.render import fingerprint, scene_job

    scene = ScenePlan(id="s", cls="S", title="t", source=[], start_frame=0, frames=15, fps=15, cues=[])
    module = Path(__file__)
    key_before = scene_key(scene, module, "low")
    env_before = scene_job.environment()
    assert {k: env_before[k] for k in fingerprint.render_environment()} == fingerprint.render_environment()

    real = fingerprint._fonts(DEFAULT_FONT)
    monkeypatch.setattr(fingerprint, "_fonts", lambda family: {**real, "font regular": "other.ttc sha256:0000"})
    assert scene_key(scene, module, "low") != key_before
    assert scene_job.differences(env_before, scene_job.environment())


def test_a_killed_render_leaves_nothing_manim_would_reuse(tmp_path, monkeypatch):
    """Manim reuses any partial movie or Text SVG found at its cache path. After a run that died (its
    marker is still there) every cached folder of that scene is gone before Manim starts again; after a
    run that finished, they are all kept."""
    from coursekit.core.config import load_config
    from coursekit.render import one_scene

    plan = narration_scene_plan("unit_circle", voice_name="silent")
    cfg = load_config(None)
    media = tmp_path / "manim" / "unit_circle"
    seen: list[set[str]] = []

    def fake_manim(scene, module, plan_file, quality, media_dir, memory_gb, **kw):
        seen.append({p.name for p in media_dir.iterdir()})
        return media_dir / "x.mp4"

    monkeypatch.setattr(one_scene, "run_manim", fake_manim)
    monkeypatch.setattr(one_scene, "_write_scene_plan", lambda layout, scene: tmp_path / "plan.json")
    for d in ("videos", "texts", "Tex"):
        (media / d).mkdir(parents=True)
        (media / d / "half.svg").write_bytes(b"<svg")
    layout = MediaLayout(tmp_path / "media")
    one_scene.render_silent(cfg, layout, plan, "low", media_dir=media)  # the last run finished: all kept
    assert seen[-1] == {"videos", "texts", "Tex", ".render-in-progress"}
    assert not (media / ".render-in-progress").exists()
    (media / ".render-in-progress").touch()  # the last run died
    one_scene.render_silent(cfg, layout, plan, "low", media_dir=media)
    assert seen[-1] == {".render-in-progress"}


def test_key_changes_with_the_encoder_settings(monkeypatch):
    from coursekit.render import manim_process

    plan = narration_scene_plan("unit_circle", voice_name="silent")
    k = scene_key(plan, MODULE, "low")
    course = manim_process.course_encoder_options()
    assert manim_process.encoder_options("low") == {"threads": "2", **course, "preset": "superfast"}
    assert manim_process.encoder_options("high") == {"threads": "2", **course}
    monkeypatch.setitem(manim_process.ENCODER_PRESET, "low", "ultrafast")
    assert scene_key(plan, MODULE, "low") != k


def test_the_course_manim_cfg_reaches_x264(tmp_path):
    """Manim replaces manim.cfg's [video_encoder.options] with the command line's --encoder-option pairs, so
    the engine passes the course's own with its pins. Seeded: the options as they were passed before
    (threads only: the course's preset never reached x264, which encoded at its default, medium)."""
    from coursekit.render import manim_process

    (tmp_path / "manim.cfg").write_text("[video_encoder.options]\ncrf = 30\npreset = ultrafast\n", encoding="utf-8")
    high = manim_process.encoder_options("high", tmp_path)
    assert high == {"threads": "2", "crf": "30", "preset": "ultrafast"}
    assert manim_process.encoder_options("low", tmp_path) == {"threads": "2", "crf": "30", "preset": "superfast"}
    assert encoder_faults({"threads": "2"}, tmp_path) == ["crf = 30", "preset = ultrafast"]  # seeded
    assert encoder_faults(high, tmp_path) == []
    # this course: every option its manim.cfg names is what Manim is told at the delivered qualities
    for quality in ("medium", "high", "4k"):
        assert encoder_faults(manim_process.encoder_options(quality), manim_process.course_root()) == []


def encoder_faults(passed: dict[str, str], root) -> list[str]:
    """The course's manim.cfg options that the options passed to Manim leave out or change."""
    import configparser

    parser = configparser.ConfigParser()
    parser.read(root / "manim.cfg", encoding="utf-8")
    named = dict(parser.items("video_encoder.options")) if parser.has_section("video_encoder.options") else {}
    return [f"{k} = {v}" for k, v in named.items() if passed.get(k) != v]


def test_a_broken_manim_cfg_is_one_clear_line(tmp_path):
    from coursekit.core.errors import UserError
    from coursekit.render import manim_process

    (tmp_path / "manim.cfg").write_text("preset = ultrafast\n", encoding="utf-8")  # no section header
    with pytest.raises(UserError, match=r"manim\.cfg: .*fix the file"):
        manim_process.encoder_options("high", tmp_path)


@pytest.mark.parametrize(
    "code, output, said",
    [
        (-11, "", "crashed (SIGSEGV), most likely out of its 0.25 GB"),
        (
            1,
            "SystemError: <function Command.__call__ at 0x7f> returned NULL without setting an exception",
            "ran out of its 0.25 GB",
        ),
        (1, "ImportError: libcairo.so.2: failed to map segment from shared object", "ran out of its 0.25 GB"),
        (1, "ValueError: a bug in the scene", "failed to render: ValueError: a bug in the scene"),
    ],
)
def test_how_a_failed_manim_process_is_reported(tmp_path, monkeypatch, code, output, said):
    """Under its data limit Manim fails in several ways; each memory failure names the setting to raise,
    and anything else is reported as the scene's own error."""
    from coursekit.core.errors import UserError
    from coursekit.render import manim_process

    monkeypatch.setattr(manim_process, "run_limited", lambda *a, **k: (code, output, 100 * 2**20, 0.1))
    with pytest.raises(UserError) as err:
        manim_process.run_manim(
            narration_scene_plan("unit_circle", voice_name="silent"), MODULE, tmp_path / "p.json", "low", tmp_path, 0.25
        )
    assert said in str(err.value)
    assert ("raise render.worker_memory_gb" in str(err.value)) == ("bug" not in output)
