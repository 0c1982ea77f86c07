"""The author's own voice: each cue with a current take (``coursekit.speech.takes``) is its take; every
other cue is read by the fallback voice the config names (``voice.recorded.fallback``).

The plan's timing follows a take's length like any synthesis. A bookmark inside a recorded cue is never
guessed: the take must carry its place (``render.py record import … --mark NAME=SECONDS``), else the plan
stops with one line saying so; placed bookmarks are the take's timings, so the bookmark's frame is its place.
"""

from __future__ import annotations

from pydantic import Field, field_validator

from coursekit.core import voice_registry
from coursekit.core.errors import UserError
from coursekit.core.paths import shown
from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech import takes
from coursekit.speech.voices.auto import make_voice, offline_voice, voice_class
from coursekit.speech.voices.base import Speech, Voice, VoiceSettings, clean_timings

NAME = "recorded"
SAID = "recorded: the author's own take"  # ``Speech.voice`` of a recorded cue


class RecordedSettings(VoiceSettings):
    """``voice.recorded``: the voice that reads every cue without a current take of the author's."""

    fallback: str = Field(
        voice_registry.AUTO,
        description="auto (the offline voice auto would choose) | the name of another voice: it reads the cues "
        "that have no current take",
    )

    @field_validator("fallback")
    @classmethod
    def _fallback(cls, v: str) -> str:
        if v == NAME:
            raise ValueError("the recorded voice cannot fall back on itself; name a synthetic voice, or auto")
        return voice_registry.check_backend(v)


class Recorded(Voice):
    spec = VoiceSpec(
        name=NAME,
        licence="the author's own voice",
        parallel="serial",
        label="the author's recordings",
        settings=RecordedSettings,
    )

    def __init__(self, fallback: Voice, reason: str = "") -> None:
        self.fallback = fallback
        self.reason = reason  # which fallback voice, and why (``resolve_voice``'s line)
        self.reads_latin = fallback.reads_latin  # a cue without a take is read as its fallback reads it

    @classmethod
    def from_config(cls, cfg, lexicon) -> "Recorded":
        name = cfg.section(NAME).fallback
        if name == voice_registry.AUTO:  # the offline voice auto would choose: a fallback is never probed
            fallback, reason = offline_voice(cfg, lexicon)
            return cls(fallback, reason)
        return cls(make_voice(name, _fallback_config(cfg), lexicon), f"voice.recorded.fallback = {name}")

    @classmethod
    def check_files(cls, cfg) -> None:
        name = cfg.section(NAME).fallback
        if name != voice_registry.AUTO:
            voice_class(name).check_files(_fallback_config(cfg))

    def version(self) -> str:
        return f"recorded 1 + {self.fallback.version()}"

    def describe(self) -> str:
        return f"the author's takes, else {self.fallback.describe()}"

    def identity(self) -> dict:
        return {"backend": self.name, "version": 1, "fallback": self.fallback.identity()}

    def licence_line(self) -> str:
        own = f"{self.name}: {self.licence}"
        other = self.fallback.licence_line()
        return f"{own}; the other cues {other}" if other else own

    # -- the plan

    def cue_speech(self, lesson: str, cue, text, cache, where: str) -> Speech:
        take = takes.current(lesson, cue)
        if take is None:
            return cache.get(self.fallback, text.spoken)
        unplaced = [name for name in text.bookmarks_spoken if name not in take.bookmarks]
        if unplaced:
            name = unplaced[0]
            raise UserError(
                f"{where}: bookmark {{@{name}}} has no place in the take {shown(take.audio)}, and the plan does "
                f"not guess one; place it: render.py record import {lesson} {cue.id} FILE --mark {name}=SECONDS "
                "(seconds from the take's start), or take the bookmark out of the cue"
            )
        timings = [(text.bookmarks_spoken[name], take.bookmarks[name]) for name in text.bookmarks_spoken]
        return Speech(
            take.audio, take.duration, clean_timings(timings, len(text.spoken), take.duration), SAID, recorded=True
        )

    def synthesising(self) -> Voice:
        return self.fallback

    def voices_itself(self, lesson: str, cue) -> bool:
        return takes.current(lesson, cue) is not None

    # -- anything else asks the fallback (the listening check synthesises through it)

    def synthesize(self, spoken, out_wav=None) -> Speech:
        return self.fallback.synthesize(spoken, out_wav)

    def close(self) -> None:
        self.fallback.close()


def _fallback_config(cfg):
    """The voice config with the fallback voice as its backend."""
    return cfg.model_copy(update={"backend": cfg.section(NAME).fallback})


def fell_back_line(voice: Recorded, plans) -> str:
    """The plan's one line on the recorded voice: how many cues of ``plans`` (``LessonPlan``s) are the
    author's takes, and which cues fell back on the synthetic voice."""
    every = [c.id for plan in plans for scene in plan.scenes for c in scene.cues]
    own = {c for plan in plans for c in plan.recorded}
    fell = [c for c in every if c not in own]
    head = f"recorded voice: {len(own)} of {len(every)} cues are the author's takes"
    if not fell:
        return head
    return f"{head}; {len(fell)} fell back on {voice.fallback.name}: {', '.join(fell)}"
