"""The voice backends there are, from their own declarations (``coursekit.core.voice_registry``): every
module of this package is imported with it, and each backend's class registers its ``spec``."""

from __future__ import annotations

from coursekit.core import voice_registry
from coursekit.core.errors import UserError
from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech.voices.base import Voice


def names() -> tuple[str, ...]:
    """Every backend, in ``auto``'s order, then those ``auto`` never picks."""
    return voice_registry.names()


def specs() -> tuple[VoiceSpec, ...]:
    return tuple(voice_registry.spec(n) for n in names())


def voice_class(name: str) -> type[Voice]:
    """The backend called ``name``, or one line listing those there are."""
    try:
        return voice_registry.impl(name)  # type: ignore[return-value]
    except KeyError:
        raise UserError(voice_registry.unknown(name)) from None
