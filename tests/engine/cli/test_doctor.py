"""`render.py doctor` (coursekit/cli/doctor.py): on this machine every check passes (edge-tts may only
warn: this machine cannot reach its service), and each of five missing pieces makes it exit 1 with a
line naming the piece and its fix: ffmpeg off PATH, a model file (in this checkout, and for an engine
installed from its wheel: where it looked, and the command that assembles them), the course font,
Chromium, and a narration character the font has no glyph for. What makes it fast is checked for what it
keeps and when it lets go: the course's facts (glyph check, lengths) kept until a source, a module its
figures import or the font changes; the voice choice without building or importing a voice; doctor
without the commands' module. Its timing is measured in bench/run.py (phase doctor), not here.

Doctor runs as a real `render.py doctor` where the process is what is checked (all passing on this machine, the
modules a fresh process imports); each missing piece is seen through the command line's entry in this process
(``in_process``, ``mini_runs.here``): the same checks and lines, without a new Python for each."""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coursekit.cli import doctor, preflight
from coursekit.cli.main import main
from coursekit.content.glyphs import font_cmap
from coursekit.core.config import DEFAULT_FONT
from coursekit.core.errors import UserError
from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.project.project import Project
from coursekit.speech import model_files as models
from tests.support.mini_runs import copy_mini_course, here

ROOT = Path(__file__).resolve().parents[3]
CHECKS = ("ffmpeg", "pyav", "font", "glyphs", "typst", "models", "espeak-ng", "chromium", "voice", "disk")


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in (COURSE_ENV, NARRATION_ENV)}
    return {**env, **extra}


def doctor_run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "doctor", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env or _env(),
        timeout=300,
    )


def status(out: str, name: str) -> str | None:
    """The status doctor printed for the check ``name`` (ok, warn, FAIL, skip), or None."""
    m = re.search(rf"^(ok|warn|FAIL|skip)\s+{re.escape(name)}\s", out, re.M)
    return m.group(1) if m else None


def path_without(tmp_path: Path, *names: str) -> str:
    """A PATH of one folder holding a link to every program on the present PATH except ``names``."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if not d or not Path(d).is_dir():
            continue
        for exe in Path(d).iterdir():
            link = folder / exe.name
            if exe.name in names or link.exists() or link.is_symlink():
                continue
            if exe.is_file() and os.access(exe, os.X_OK):
                link.symlink_to(exe)
    return str(folder)


def in_process(capsys, *args: str) -> tuple[int, str]:
    code = main(["doctor", *args])
    return code, capsys.readouterr().out


@pytest.fixture()
def home(monkeypatch):
    """In-process runs of the main course: no --course from the environment, restored afterwards."""
    monkeypatch.delenv(COURSE_ENV, raising=False)
    monkeypatch.delenv(NARRATION_ENV, raising=False)


def test_doctor_passes_on_this_machine():
    res = doctor_run()
    out = res.stdout
    assert res.returncode == 0, out + res.stderr
    for name in CHECKS:
        assert status(out, name) == "ok", f"{name}: {status(out, name)}\n{out}"
    # edge-tts's service is out of reach here: a warning with its reason, never a failure
    assert status(out, "edge-tts") in ("ok", "warn"), out
    assert "auto would choose" in out and "doctor: all" in out


def test_no_ffmpeg_on_path(tmp_path, monkeypatch, capfd):
    res = here(monkeypatch, capfd, "doctor", PATH=path_without(tmp_path, "ffmpeg", "ffprobe"))
    assert res.returncode == 1, res.stdout + res.stderr
    assert status(res.stdout, "ffmpeg") == "FAIL"
    assert "ffmpeg not found on PATH" in res.stdout and "apt-get install ffmpeg" in res.stdout


def test_a_missing_model(tmp_path, monkeypatch, capsys, home):
    monkeypatch.setattr(models, "search_roots", lambda: [tmp_path / "models"])
    code, out = in_process(capsys)
    assert code == 1, out
    assert status(out, "models") == "FAIL"
    assert "models/kokoro/kokoro-v1.0.int8.onnx (the kokoro voice) is missing" in out and "make setup" in out
    (tmp_path / "models" / "kokoro").mkdir(parents=True)  # a folder that has the model, but not all of it
    code, out = in_process(capsys)
    assert code == 1 and f"{tmp_path}/models/kokoro/kokoro-v1.0.int8.onnx is missing" in out, out


def test_an_installed_engine_says_where_it_looked_for_the_models(tmp_path, monkeypatch, capsys, home):
    """No checkout (coursekit from its wheel), a course without models/ and an empty user folder: the line
    names each folder looked in and the command that assembles them; with the models in the user folder
    the check passes and says where they are."""
    course = copy_mini_course(tmp_path / "mini")
    monkeypatch.setattr(models, "checkout_dir", lambda: None)
    monkeypatch.setenv(models.MODELS_ENV, str(tmp_path / "user-models"))
    monkeypatch.setenv(COURSE_ENV, str(course))
    code, out = in_process(capsys, "--course", str(course))
    assert code == 1 and status(out, "models") == "FAIL", out
    assert (
        f"kokoro/kokoro-v1.0.int8.onnx (the kokoro voice) is missing: no kokoro/ in models/, {tmp_path}/user-models/"
    ) in out
    assert "(and 1 more)" in out  # whisper-base, missing too
    assert "fix: run coursekit models" in out and f"into {tmp_path}/user-models" in out
    (tmp_path / "user-models").symlink_to(ROOT / "models")
    code, out = in_process(capsys, "--course", str(course))
    assert status(out, "models") == "ok", out
    assert f"(kokoro, whisper-base in {tmp_path}/user-models/)" in out


def test_a_missing_font(tmp_path, monkeypatch, capfd):
    course = copy_mini_course(tmp_path / "mini")
    cfg = course / "config.yaml"
    cfg.write_text(
        cfg.read_text(encoding="utf-8").replace(
            "  lessons: [counting]\n", "  lessons: [counting]\n  font: No Such Family\n"
        ),
        encoding="utf-8",
    )
    res = here(monkeypatch, capfd, "doctor", "--course", str(course))
    assert res.returncode == 1, res.stdout + res.stderr
    assert status(res.stdout, "font") == "FAIL"
    assert "font 'No Such Family' not found" in res.stdout and "apt-get install fonts-noto-cjk" in res.stdout


def test_no_chromium(tmp_path, monkeypatch, capsys, home):
    monkeypatch.setenv("PATH", path_without(tmp_path, "chromium"))
    monkeypatch.setattr(doctor, "CHROMIUM_FALLBACK", tmp_path / "no-chromium")
    code, out = in_process(capsys)
    assert code == 1, out
    assert status(out, "chromium") == "FAIL"
    assert "Chromium not found" in out and "apt-get install chromium" in out


RARE = "\U00020000"  # 𠀀, CJK Extension B: not in Noto Sans CJK SC


def test_a_narration_character_the_font_lacks(tmp_path, monkeypatch, capfd):
    assert ord(RARE) not in font_cmap(DEFAULT_FONT)
    course = copy_mini_course(tmp_path / "mini")
    lesson = course / "narration" / "counting.yaml"
    text = lesson.read_text(encoding="utf-8")
    assert text.count("今天就到这里。") == 1
    lesson.write_text(text.replace("今天就到这里。", f"今天就到这里{RARE}。"), encoding="utf-8")
    res = here(monkeypatch, capfd, "doctor", "--course", str(course))
    assert res.returncode == 1, res.stdout + res.stderr
    assert status(res.stdout, "glyphs") == "FAIL"
    assert "U+20000" in res.stdout and "cue 'closing.bye'" in res.stdout and "write a plain form" in res.stdout


def test_preflight_raises_the_doctors_lines():
    """One definition of each check: preflight raises the same line doctor prints."""
    with pytest.raises(UserError) as exc:
        preflight.need_tool("no-such-tool-here", "some-package")
    assert (
        str(exc.value)
        == doctor.tool("no-such-tool-here", "some-package").line()
        == (
            "no-such-tool-here not found on PATH; install the Debian package some-package: apt-get install some-package"
        )
    )
    with pytest.raises(UserError, match="font 'No Such Family' not found; install the Debian package fonts-noto-cjk"):
        preflight.need_font("No Such Family")


def test_model_hashes_are_cached_by_size_and_mtime(tmp_path, monkeypatch):
    import hashlib

    blob = b"weights" * 1000
    monkeypatch.setattr(
        models, "FILES", (models.ModelFile("m/w.bin", (), hashlib.sha256(blob).hexdigest(), len(blob)),)
    )
    monkeypatch.setattr(models.KS, "MANDARIN", {})
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "w.bin").write_bytes(blob)
    (tmp_path / "kokoro" / "voices").mkdir(parents=True)
    (tmp_path / "kokoro" / "voices" / "LICENSE").write_text("Apache-2.0")
    assert models.check_files(tmp_path) == (1, [])
    assert (tmp_path / models.HASH_CACHE).is_file()
    hashed = []
    monkeypatch.setattr(models, "file_sha256", lambda p: hashed.append(p) or "x")
    assert models.check_files(tmp_path) == (1, []) and hashed == []  # cached: not read again
    (tmp_path / "m" / "w.bin").write_bytes(blob[::-1])  # altered, same size: hashed again
    good, problems = models.check_files(tmp_path)
    assert good == 0 and hashed and "sha256" in problems[0]
    (tmp_path / "m" / "w.bin").write_bytes(blob[:10])  # truncated: fails on its size
    assert "has 10 bytes, not the pinned" in models.check_files(tmp_path)[1][0]


# ---------------------------------------------------------------- what makes it fast, and still true


@pytest.fixture()
def mini(tmp_path, monkeypatch):
    """A copy of the mini course, made the course of this process; doctor's cache in a folder of its own.
    Its figures import a package of the course (mini_numbers), as this course's import mathcore."""
    course = copy_mini_course(tmp_path / "mini")
    (course / "mini_numbers").mkdir()
    (course / "mini_numbers" / "__init__.py").write_text("DOTS = 3\n", encoding="utf-8")
    figures = course / "narration" / "figures.py"
    text = figures.read_text(encoding="utf-8")
    assert "DOTS = 3" in text
    figures.write_text(text.replace("DOTS = 3", "from mini_numbers import DOTS"), encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(models.MODELS_ENV, raising=False)
    monkeypatch.setenv(COURSE_ENV, str(course))
    monkeypatch.delenv(NARRATION_ENV, raising=False)
    monkeypatch.syspath_prepend(str(course))
    yield course
    sys.modules.pop("mini_numbers", None)


def _facts(project):
    facts = doctor.CourseFacts(project)
    got = doctor.glyphs(project.config, True, facts), facts.lessons(), doctor.planned_seconds(project, facts)
    facts.save()
    return facts, got


def test_the_course_facts_are_kept_until_what_they_come_from_changes(mini, monkeypatch):
    project = Project.open()
    first, got = _facts(project)
    assert first.loaded and got[0].status == "ok" and doctor.facts_file().is_file()
    assert got[1]["counting"]["scenes"] == 2 and got[1]["counting"]["cues"] > 0
    again, same = _facts(project)
    assert not again.loaded and same == got  # kept: the course is not read at all

    # a module the figures import changes: read again
    time.sleep(0.01)
    (mini / "mini_numbers" / "__init__.py").write_text("DOTS = 4\n", encoding="utf-8")
    third, _ = _facts(project)
    assert third.loaded
    # the font's files change (fontconfig picks another file): the glyph check runs again
    faces = doctor.font_files(DEFAULT_FONT)
    with monkeypatch.context() as m:
        m.setattr(doctor, "font_files", lambda family: [(faces[0][0], 99)])
        fourth, _ = _facts(project)
    assert fourth.loaded
    # a narration edit: read again, and what it says is seen at once
    lesson = mini / "narration" / "counting.yaml"
    lesson.write_text(
        lesson.read_text(encoding="utf-8").replace("今天就到这里。", f"今天就到这里{RARE}。"), encoding="utf-8"
    )
    fifth, (glyph, lessons, _) = _facts(project)
    assert fifth.loaded and glyph.status == doctor.FAIL and "U+20000" in glyph.detail
    assert lessons["counting"]["chars"] == got[1]["counting"]["chars"] + 1


def test_the_course_facts_read_a_plan_once_and_again_when_it_changes(mini, monkeypatch):
    project = Project.open()
    from coursekit.plan import model as plan_model

    plan = project.layout.lesson_plan("counting", project.config.video.frame_rate)
    plan.parent.mkdir(parents=True)
    plan.write_text("{}", encoding="utf-8")
    reads = []
    real = plan_model.LessonPlan.read
    monkeypatch.setattr(plan_model.LessonPlan, "read", staticmethod(lambda p: reads.append(p) or real(p)))
    _, (_, _, (seconds, source)) = _facts(project)
    assert reads == [plan] and "estimated from the narration" in source  # an unreadable plan: estimated
    _, (_, _, again) = _facts(project)
    assert reads == [plan] and again == (seconds, source)  # kept by its size and mtime
    plan.write_text("{ }", encoding="utf-8")
    _facts(project)
    assert reads == [plan, plan]


def test_doctor_imports_neither_the_renderer_nor_onnx(monkeypatch, capfd):
    """The doctor path: no Manim, no onnx/onnxruntime (the kokoro check finds them), not the commands'
    module (renderer, studio, assembler); a course whose facts are kept does not load its figures (and so
    none of its math) nor numpy."""
    here(monkeypatch, capfd, "doctor")  # the main course's facts kept (saved by doctor in this process)
    code = (
        "import sys, runpy; sys.argv = ['render.py', 'doctor']\n"
        "try:\n    runpy.run_path('render.py', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "print('MODULES', sorted(m for m in ('manim', 'onnx', 'onnxruntime', 'coursekit.cli.commands', "
        "'mathcore', 'numpy') if m in sys.modules))"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=300
    )
    assert "MODULES []" in res.stdout, res.stdout[-2000:] + res.stderr[-2000:]


def test_the_voice_check_builds_no_voice(monkeypatch):
    """doctor_voices says what auto would choose and why, the same as resolve_voice, without building an
    offline voice (kokoro's build reads its speaker with numpy) or importing onnx."""
    from coursekit.cli import doctor_voices
    from coursekit.core.config import VoiceConfig
    from coursekit.speech.voices import auto

    built = []
    real = auto.make_voice
    monkeypatch.setattr(auto, "make_voice", lambda name, *a, **k: built.append(name) or real(name, *a, **k))
    from coursekit.speech.voices import edge

    monkeypatch.setattr(edge.Edge, "probe", lambda self, t: (False, "DNS error"))
    got = doctor_voices.report(VoiceConfig())
    assert built == ["edge"], built  # the online voice, to probe it; no offline one
    _, why = auto.resolve_voice(VoiceConfig(), probe=lambda v, t: (False, "DNS error"))
    assert got["auto"] == why


def test_the_edge_probe_of_a_host_that_does_not_resolve_imports_no_edge_tts():
    """Offline, the probe says 'DNS error' from the standard library's lookup, without importing edge-tts
    or aiohttp (a third of a second); the host it looks up is the one edge-tts speaks to."""
    code = (
        "import sys; from coursekit.speech.voices import edge; edge.HOST = 'no-such-host.invalid'; "
        "print(edge.Edge().probe(1.0), sorted(m for m in ('edge_tts', 'aiohttp') if m in sys.modules))"
    )
    env = {k: v for k, v in _env().items() if not k.lower().endswith("_proxy")}
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert res.stdout.strip() == "(False, 'DNS error') []", res.stdout + res.stderr
    from edge_tts import constants

    from coursekit.speech.voices import edge

    assert constants.BASE_URL.split("/")[0] == edge.HOST


def test_with_a_proxy_the_edge_probe_asks_the_service_itself(monkeypatch):
    from coursekit.speech.voices import edge

    monkeypatch.setattr(edge, "HOST", "no-such-host.invalid")
    asked = []
    monkeypatch.setattr(edge.Edge, "_request", lambda self, text, timeout: asked.append(timeout) or (b"", []))
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    assert edge.Edge().probe(1.0)[0] is True and len(asked) == 1
    monkeypatch.delenv("HTTPS_PROXY")
    for k in [k for k in os.environ if k.lower().endswith("_proxy")]:
        monkeypatch.delenv(k)
    assert edge.Edge().probe(1.0) == (False, "DNS error") and len(asked) == 1
