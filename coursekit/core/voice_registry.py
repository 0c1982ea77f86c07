"""The voices the engine knows: each backend's declaration (``VoiceSpec``), in one registry.

A backend is one module of ``coursekit/speech/voices/``: its ``Voice`` subclass carries a ``spec``, and
defining the class registers it (``Voice.__init_subclass__``); importing the package
``coursekit.speech.voices`` imports every module in it, so every backend is registered as soon as any voice
module is imported. Everything that names the voices asks here: the config's ``voice.backend`` and its
sections ``voice.<name>`` (each voice's ``settings`` model, declared in its module), the CLI's ``--voice``
choices, ``auto``'s order, docs/settings.md's table, how synthesis runs in parallel, the licence a plan
records.

The registry lives in core so that the config and the CLI can name the voices, and check their settings,
without importing speech: the voices register themselves here (speech imports core, never the other way).
It holds declarations only (names, licences, the settings models: cheap data, no backend's runtime).
Nothing here imports a backend.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: How a voice's missing cues are synthesised ahead of the plan (``coursekit.speech.synthesis``):
#: ``processes``: in a pool of worker processes, each building the voice again from its ``process_recipe``;
#: ``threads``: in threads of this process, as many as the voice's ``concurrency()``;
#: ``worker``: not ahead: the voice runs its own worker process, and the plan asks it one cue at a time;
#: ``serial``: one after another in this process;
#: ``none``: not ahead: it makes no audio, its cues cost nothing.
Parallel = Literal["processes", "threads", "worker", "serial", "none"]
PARALLEL: tuple[str, ...] = ("processes", "threads", "worker", "serial", "none")
AUTO = "auto"


@dataclass(frozen=True)
class VoiceSpec:
    """What the engine needs to know of a backend without building it."""

    name: str  #: ``voice.backend`` and ``--voice``; the config section ``voice.<name>``, if any
    licence: str  #: the terms its audio may be used under (recorded in the plan and the manifest)
    reads_latin: bool = False  #: reads Latin script itself (the lexicon gives the others transliterations)
    parallel: Parallel = "serial"
    #: with ``processes``: the fewest missing cues worth a pool; fewer are synthesised in this process (a
    #: worker process costs its imports and its voice's start-up, seconds of CPU, before its first cue)
    pool_from: int = 2
    makes_audio: bool = True  #: False: durations only (its cache entries have no WAV)
    needs: str = ""  #: how to install what it needs, said when ``auto`` passes it over ("make setup")
    auto: int | None = None  #: its place in ``auto``'s order, lowest first; None: ``auto`` never picks it
    online: bool = False  #: a network service: ``auto`` probes it, and falls back from it if it gives up
    label: str = ""  #: what messages call it ("edge-tts"); default: its name
    #: the model of its config section ``voice.<name>`` (a pydantic model, declared in the voice's module:
    #: every key with a default, unknown keys refused); None: it takes no settings
    settings: type | None = None

    def __post_init__(self) -> None:
        if not self.name or not self.name.replace("_", "").isalnum() or self.name != self.name.lower():
            raise ValueError(f"voice name {self.name!r}: use lowercase letters, digits and _")
        if self.name == AUTO:
            raise ValueError("'auto' chooses a voice; it cannot be one")
        if self.parallel not in PARALLEL:
            raise ValueError(f"voice {self.name}: parallel {self.parallel!r} is not one of {', '.join(PARALLEL)}")
        if self.pool_from < 2:
            raise ValueError(f"voice {self.name}: pool_from {self.pool_from} is under 2 (a pool of one cue is no pool)")
        if self.settings is not None:
            _check_settings(self.name, self.settings)

    @property
    def called(self) -> str:
        return self.label or self.name


def _check_settings(name: str, model: type) -> None:
    """A voice's settings model is a pydantic model that refuses unknown keys (a misspelt key is an error,
    not ignored) and gives every key a default (a config may leave the section out)."""
    fields = getattr(model, "model_fields", None)
    if not isinstance(fields, dict):
        raise ValueError(f"voice {name}: settings {model!r} is not a pydantic model")
    if model.model_config.get("extra") != "forbid":
        raise ValueError(f"voice {name}: settings {model.__name__} must refuse unknown keys (extra='forbid')")
    required = [key for key, field in fields.items() if field.is_required()]
    if required:
        raise ValueError(f"voice {name}: settings {model.__name__} give no default for {', '.join(required)}")


_SPECS: dict[str, VoiceSpec] = {}
_IMPLS: dict[str, object] = {}


def register(spec: VoiceSpec, impl: object) -> None:
    """Record ``spec`` and what builds it (the backend's class). Defining a class again under the same name
    (a module reloaded) replaces it; two different modules claiming one name is an error."""
    old = _IMPLS.get(spec.name)
    if old is not None and (getattr(old, "__module__", None), getattr(old, "__qualname__", None)) != (
        getattr(impl, "__module__", None),
        getattr(impl, "__qualname__", None),
    ):
        raise ValueError(f"two voices are called {spec.name!r}: {old!r} and {impl!r}")
    _SPECS[spec.name] = spec
    _IMPLS[spec.name] = impl


def unregister(name: str) -> None:
    """Forget a voice (for tests that define one)."""
    _SPECS.pop(name, None)
    _IMPLS.pop(name, None)


def names() -> tuple[str, ...]:
    """The registered voices, in ``auto``'s order, then the others by name."""
    return tuple(s.name for s in sorted(_SPECS.values(), key=lambda s: (s.auto is None, s.auto or 0, s.name)))


def choices() -> tuple[str, ...]:
    """What ``voice.backend`` and ``--voice`` accept: ``auto`` and every voice."""
    return (AUTO, *names())


def spec(name: str) -> VoiceSpec:
    try:
        return _SPECS[name]
    except KeyError:
        raise KeyError(unknown(name)) from None


def impl(name: str) -> object:
    spec(name)
    return _IMPLS[name]


def sections() -> dict[str, type]:
    """Each registered voice that takes settings -> its settings model (``voice.<name>``), in ``names()``'s
    order."""
    return {n: _SPECS[n].settings for n in names() if _SPECS[n].settings is not None}


def auto_order() -> tuple[VoiceSpec, ...]:
    """The voices ``auto`` tries, in order."""
    return tuple(s for s in map(_SPECS.__getitem__, names()) if s.auto is not None)


def unknown(name: str) -> str:
    """The line for a voice nobody registered."""
    return f"unknown voice {name!r}; use one of {', '.join(choices())}"


def check_backend(name: str) -> str:
    """``name`` if it is ``auto`` or a registered voice, else ValueError listing them. Before any voice is
    registered (a process that never imported ``coursekit.speech.voices``, so builds no voice) any name
    passes: building the voice checks it again."""
    if name != AUTO and _SPECS and name not in _SPECS:
        raise ValueError(unknown(name))
    return name
