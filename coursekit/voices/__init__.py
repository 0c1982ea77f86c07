"""Speech backends behind one interface (``Voice.synthesize``): edge-tts, espeak-ng, silent."""
from coursekit.voices.auto import make_voice, resolve_voice
from coursekit.voices.base import Speech, Voice

__all__ = ["Speech", "Voice", "make_voice", "resolve_voice"]
