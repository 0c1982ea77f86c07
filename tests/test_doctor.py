"""`render.py doctor` (coursekit/cli/doctor.py): on this machine every check passes (edge-tts may only
warn: this machine cannot reach its service), and each of five missing pieces makes it exit 1 with a
line naming the piece and its fix: ffmpeg off PATH, a model file, the course font, Chromium, and a
narration character the font has no glyph for. Its timing is measured in bench/run.py (phase doctor),
not here."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coursekit.cli import doctor, preflight
from coursekit.cli.main import main
from coursekit.content.glyphs import font_cmap
from coursekit.core.config import DEFAULT_FONT
from coursekit.core.errors import UserError
from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.speech import models
from tests.conftest import copy_mini_course

ROOT = Path(__file__).resolve().parent.parent
CHECKS = ("ffmpeg", "pyav", "font", "glyphs", "typst", "models", "espeak-ng", "chromium", "voice", "disk")


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in (COURSE_ENV, NARRATION_ENV)}
    return {**env, **extra}


def doctor_run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "render.py"), "doctor", *args], cwd=ROOT,
                          capture_output=True, text=True, env=env or _env(), timeout=300)


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


def test_no_ffmpeg_on_path(tmp_path):
    res = doctor_run(env=_env(PATH=path_without(tmp_path, "ffmpeg", "ffprobe")))
    assert res.returncode == 1, res.stdout + res.stderr
    assert status(res.stdout, "ffmpeg") == "FAIL"
    assert "ffmpeg not found on PATH" in res.stdout and "apt-get install ffmpeg" in res.stdout


def test_a_missing_model(tmp_path, monkeypatch, capsys, home):
    monkeypatch.setattr(models, "MODELS_DIR", tmp_path / "models")
    code, out = in_process(capsys)
    assert code == 1, out
    assert status(out, "models") == "FAIL"
    assert "models/kokoro/kokoro-v1.0.int8.onnx is missing" in out and "make setup" in out


def test_a_missing_font(tmp_path):
    course = copy_mini_course(tmp_path / "mini")
    cfg = course / "config.yaml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("  lessons: [counting]\n",
                                                          "  lessons: [counting]\n  font: No Such Family\n"),
                   encoding="utf-8")
    res = doctor_run("--course", str(course))
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


RARE = "\U00020000"    # 𠀀, CJK Extension B: not in Noto Sans CJK SC


def test_a_narration_character_the_font_lacks(tmp_path):
    assert ord(RARE) not in font_cmap(DEFAULT_FONT)
    course = copy_mini_course(tmp_path / "mini")
    lesson = course / "narration" / "counting.yaml"
    text = lesson.read_text(encoding="utf-8")
    assert text.count("今天就到这里。") == 1
    lesson.write_text(text.replace("今天就到这里。", f"今天就到这里{RARE}。"), encoding="utf-8")
    res = doctor_run("--course", str(course))
    assert res.returncode == 1, res.stdout + res.stderr
    assert status(res.stdout, "glyphs") == "FAIL"
    assert "U+20000" in res.stdout and "cue 'closing.bye'" in res.stdout and "write a plain form" in res.stdout


def test_preflight_raises_the_doctors_lines():
    """One definition of each check: preflight raises the same line doctor prints."""
    with pytest.raises(UserError) as exc:
        preflight.need_tool("no-such-tool-here", "some-package")
    assert str(exc.value) == doctor.tool("no-such-tool-here", "some-package").line() == (
        "no-such-tool-here not found on PATH; install the Debian package some-package: apt-get install some-package")
    with pytest.raises(UserError, match="font 'No Such Family' not found; install the Debian package fonts-noto-cjk"):
        preflight.need_font("No Such Family")


def test_model_hashes_are_cached_by_size_and_mtime(tmp_path, monkeypatch):
    import hashlib

    blob = b"weights" * 1000
    monkeypatch.setattr(models, "FILES", (models.ModelFile("m/w.bin", (), hashlib.sha256(blob).hexdigest(), len(blob)),))
    monkeypatch.setattr(models.KS, "MANDARIN", {})
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "w.bin").write_bytes(blob)
    (tmp_path / "kokoro" / "voices").mkdir(parents=True)
    (tmp_path / "kokoro" / "voices" / "LICENSE").write_text("Apache-2.0")
    assert models.check_files(tmp_path) == (1, [])
    assert (tmp_path / models.HASH_CACHE).is_file()
    hashed = []
    monkeypatch.setattr(models, "file_sha256", lambda p: hashed.append(p) or "x")
    assert models.check_files(tmp_path) == (1, []) and hashed == []      # cached: not read again
    (tmp_path / "m" / "w.bin").write_bytes(blob[::-1])                      # altered, same size: hashed again
    good, problems = models.check_files(tmp_path)
    assert good == 0 and hashed and "sha256" in problems[0]
    (tmp_path / "m" / "w.bin").write_bytes(blob[:10])                       # truncated: fails on its size
    assert "has 10 bytes, not the pinned" in models.check_files(tmp_path)[1][0]
