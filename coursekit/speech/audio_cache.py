"""A content-addressed cache of synthesised speech, safe to share between renders.

Key = sha256 of the canonical JSON of ``voice.identity()`` and the spoken text. An entry is
``<key>.wav`` plus ``<key>.json`` (duration, timings, voice, the wav's sha256 and size); the
json is written last, both atomically (temp file in the same folder, fsync, os.replace).
A hit re-checks the json and the wav's size and sha256 and writes nothing; a missing,
corrupt or truncated entry is rebuilt under a per-key file lock (locks live in ``locks/``).
The silent voice stores the json only.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from filelock import FileLock

from coursekit.core.atomic import replacing, write_bytes
from coursekit.core.digest import file_sha256_cached
from coursekit.speech.voices.base import Speech, Voice

ENTRY_FORMAT = 1


def cache_key(voice: Voice, spoken: str) -> str:
    doc = {"identity": voice.identity(), "spoken": spoken}
    blob = json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _sha256_file(path: Path) -> tuple[str, int]:
    return file_sha256_cached(path), Path(path).stat().st_size


class AudioCache:
    def __init__(self, root: Path, lock_timeout_s: float = 600.0) -> None:
        self.root = Path(root)
        self.lock_timeout_s = lock_timeout_s

    def paths(self, key: str) -> tuple[Path, Path]:
        return self.root / f"{key}.wav", self.root / f"{key}.json"

    def get(self, voice: Voice, spoken: str) -> Speech:
        """The cached speech for ``spoken`` in ``voice``, synthesising it on a miss."""
        key = cache_key(voice, spoken)
        hit = self._read(key, voice)
        if hit is not None:
            return hit
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "locks").mkdir(exist_ok=True)
        with FileLock(str(self.root / "locks" / f"{key}.lock"), timeout=self.lock_timeout_s):
            hit = self._read(key, voice)  # another process may have made it meanwhile
            if hit is not None:
                return hit
            return self._build(key, voice, spoken)

    def _read(self, key: str, voice: Voice) -> Speech | None:
        wav, meta = self.paths(key)
        try:
            doc = json.loads(meta.read_text(encoding="utf-8"))
            if doc.get("format") != ENTRY_FORMAT or doc.get("key") != key:
                return None
            timings = [(int(o), float(t)) for o, t in doc["timings"]]
            duration = float(doc["duration"])
            if doc["wav_sha256"] is None:
                if voice.spec.makes_audio:  # an entry without its audio: make it again
                    return None
                return Speech(None, duration, timings, str(doc["voice"]))
            if not wav.exists() or wav.stat().st_size != int(doc["wav_bytes"]):
                return None
            if _sha256_file(wav) != (doc["wav_sha256"], int(doc["wav_bytes"])):
                return None
            return Speech(wav, duration, timings, str(doc["voice"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _build(self, key: str, voice: Voice, spoken: str) -> Speech:
        wav, meta = self.paths(key)
        meta.unlink(missing_ok=True)  # a stale json must never vouch for a new wav
        with replacing(wav) as tmp:
            speech = voice.synthesize(spoken, tmp)
            if speech.wav is None:
                tmp.unlink(missing_ok=True)  # a voice without audio leaves no wav behind
            elif not tmp.exists() or tmp.stat().st_size <= 44:
                raise RuntimeError(f"voice {voice.name} returned no audio for {spoken[:30]!r}")
        digest, size = _sha256_file(wav) if speech.wav is not None else (None, None)
        timings = [[int(o), round(float(t), 6)] for o, t in speech.timings]
        doc = {
            "format": ENTRY_FORMAT,
            "key": key,
            "backend": voice.name,
            "voice": speech.voice,
            "duration": round(float(speech.duration), 6),
            "timings": timings,
            "wav_sha256": digest,
            "wav_bytes": size,
            "spoken": spoken,
        }
        write_bytes(meta, json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8"))
        return Speech(wav if digest else None, doc["duration"], [(o, t) for o, t in timings], speech.voice)
