"""The Project (coursekit/project/, issue 40): the one object the command line and the studio run on.

Checked here: ``Project.open`` makes its folder the course of the processes it starts and holds the one
layout of the config's output folder; ``Speech`` resolves the voice once per voice config (edge-tts probed
once), builds it again by name when only the lexicon says something else, and keeps the offline voice after
a fallback. The fallback itself, mid-plan, is tests/engine/speech/test_voice_fallback.py's; the commands and the
studio on the project are the command line's and the studio's tests.
"""

import subprocess
import sys

from coursekit.core.config import VoiceConfig
from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.project import speech as speech_mod
from coursekit.project.project import Project
from coursekit.speech.voices.silent import Silent
from coursekit.zh.lexicon import Lexicon
from tests.support.mini_runs import copy_mini_course


def test_open_makes_the_course_that_of_the_processes_it_starts(tmp_path, monkeypatch):
    mini = copy_mini_course(tmp_path / "mini")
    monkeypatch.setenv(COURSE_ENV, str(tmp_path))  # put back after the test, with the sys.path the course joins
    monkeypatch.delenv(NARRATION_ENV, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    project = Project.open(mini, overrides={"output": "made", "voice.backend": None})
    assert project.root == mini.resolve() and project.config_file == mini.resolve() / "config.yaml"
    assert project.layout.root == mini.resolve() / "made" == project.config.output_dir
    assert project.config.voice.backend == "espeak"  # the course's own config; a None override is none
    assert project.lessons() == ["counting"] and project.course.scene("count_dots").cls
    child = subprocess.run(
        [sys.executable, "-c", "from coursekit.core.paths import course_root; print(course_root())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.strip() == str(mini.resolve())


class _Made:
    """resolve_voice and make_voice, counted: the voice they would give is the silent one."""

    def __init__(self) -> None:
        self.resolved: list[str] = []
        self.made: list[str] = []

    def resolve(self, cfg: VoiceConfig, lexicon: Lexicon):
        self.resolved.append(cfg.backend)
        return Silent.from_config(cfg, lexicon), f"voice: silent (probe {len(self.resolved)})"

    def make(self, name: str, cfg: VoiceConfig, lexicon: Lexicon):
        self.made.append(name)
        return Silent.from_config(cfg, lexicon)


def test_the_voice_is_resolved_once_per_config_and_built_again_for_another_lexicon(tmp_path, monkeypatch):
    made = _Made()
    monkeypatch.setattr(speech_mod, "resolve_voice", made.resolve)
    monkeypatch.setattr(speech_mod, "make_voice", made.make)
    said: list[str] = []
    speech = speech_mod.Speech(said.append)
    cfg = VoiceConfig(backend="silent")
    lexicon = Lexicon(terms={"θ": "西塔"})

    first = speech.load(cfg, tmp_path / "audio", lexicon).voice
    assert made.resolved == ["silent"] and said == ["voice: silent (probe 1)"]
    assert speech.cache.root == tmp_path / "audio" and speech.lexicon is lexicon

    again = speech.load(cfg, tmp_path / "audio", Lexicon(terms={"θ": "西塔"})).voice  # read again, the same
    assert again is first and made.resolved == ["silent"] and made.made == []

    other = speech.load(cfg, tmp_path / "audio", Lexicon(terms={"θ": "赛塔"})).voice  # the lexicon changed
    assert other is not first and made.made == ["silent"] and made.resolved == ["silent"]

    slower = VoiceConfig(backend="silent", silent={"chars_per_second": 3.0})
    speech.load(slower, tmp_path / "audio", Lexicon(terms={"θ": "赛塔"}))  # the voice's config changed
    assert made.resolved == ["silent", "silent"] and len(said) == 2


def test_after_a_fallback_the_offline_voice_is_kept(tmp_path, monkeypatch):
    made = _Made()
    monkeypatch.setattr(speech_mod, "resolve_voice", made.resolve)
    monkeypatch.setattr(speech_mod, "make_voice", made.make)
    offline = Silent.from_config(VoiceConfig(), Lexicon())
    monkeypatch.setattr(speech_mod, "offline_voice", lambda cfg, lexicon: (offline, "voice: espeak (offline)"))
    said: list[str] = []
    speech = speech_mod.Speech(said.append)
    cfg = VoiceConfig(backend="auto")
    speech.load(cfg, tmp_path / "audio", Lexicon())
    assert speech.fall_back(cfg, TimeoutError("no answer")) is offline
    assert said[-1].endswith("gave up mid-plan (no answer); falling back: voice: espeak (offline)")
    assert speech.load(cfg, tmp_path / "audio", Lexicon()).voice is offline and made.resolved == ["auto"]
