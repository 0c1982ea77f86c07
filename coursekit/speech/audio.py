"""One audio format for every voice, exact-sample mixing, loudness, atomic writes.

Every cue's audio is 24 kHz mono 16-bit PCM with its leading and trailing silence
trimmed the same way (``trim``), so backends are interchangeable. Scene and lesson
tracks are mixed on exact sample positions and normalised to -16 LUFS integrated with
true peaks at or below -1 dBTP.

A scene's track stays 24 kHz mono (``loudness_normalise``, ``encode_aac_atomic``). The delivered
lesson track is made by ``encode_delivery_aac``: the 24 kHz mono mix resampled once to 48 kHz
(soxr), copied to two identical channels, normalised after that upmix, encoded as AAC-LC stereo,
and the encoded file measured again with ffmpeg's ``ebur128``.
"""

from __future__ import annotations

import io
import math
import re
import shutil
import subprocess
import tempfile
from math import gcd
from pathlib import Path
from typing import TYPE_CHECKING

from coursekit.core.atomic import replacing, write_bytes
from coursekit.core.errors import UserError

if TYPE_CHECKING:
    import numpy as np

SAMPLE_RATE = 24000
SAMPLE_WIDTH = 2
SILENCE_DBFS = -50.0
KEEP_MS = 30
TRIM_CHUNK_MS = 5
TARGET_LUFS = -16.0
MAX_TRUE_PEAK = -1.0
MIN_LOUDNESS_SECONDS = 0.4
LIMIT_LINEAR = 10 ** (-1.5 / 20)  # the limiter's ceiling, at 4x oversampling
# The delivered lesson audio (encode_delivery_aac)
DELIVERY_RATE = 48000
DELIVERY_BITRATE = "192k"  # nominal; narration with its pauses measures 160-180 kb/s
DELIVERY_CEILING = -1.5  # dBTP aimed at before encoding; the AAC encoder adds a few tenths
DELIVERY_TOLERANCE = 0.5  # LU, integrated loudness of the encoded file
SILENT_LUFS = -70.0  # ebur128's absolute gate: a track this quiet is not normalised
# The one resampling of the delivered audio: soxr at its 28-bit ("very high quality") precision, in
# floating point, then the mono channel copied to both sides at unity gain (ffmpeg's own -ac 2 would
# copy it at -3 dB).
DELIVERY_RESAMPLE = f"aformat=sample_fmts=dbl,aresample={DELIVERY_RATE}:resampler=soxr:precision=28"
DELIVERY_UPMIX = f"{DELIVERY_RESAMPLE},pan=stereo|c0=c0|c1=c0"
# Two identical channels measure exactly 10·log10(2) LU louder than one (BS.1770 sums the channels'
# mean squares with weight 1) and have its true peak: the settings are found on the mono track, at
# half the cost, and the encoded stereo file is measured as it is.
STEREO_GAIN_LU = 10 * math.log10(2)
# AAC-LC with mid/side coding forced and intensity stereo and noise substitution off: two identical
# channels then decode to two identical channels (side = 0). With the encoder's defaults they differ
# by up to -42 dBFS (noise substitution is random per channel). The "fast" coder instead of ffmpeg's
# default "twoloop": 15 s instead of 36 s for an 11-minute lesson on this machine, and measured against
# the PCM it encodes, 44 dB SNR instead of 30 dB at 192 kbit/s (the channels still decode identical).
AAC_STEREO_ARGS = ["-profile:a", "aac_low", "-aac_coder", "fast", "-aac_ms", "1", "-aac_is", "0", "-aac_pns", "0"]
# Anything that changes the bytes a voice produces for the same input goes here, so that
# changing it changes every cache key.
FORMAT_ID = f"pcm_s16le/{SAMPLE_RATE}Hz/mono/trim{SILENCE_DBFS:g}dBFS/keep{KEEP_MS}ms/chunk{TRIM_CHUNK_MS}ms"


def _pydub():
    from pydub import AudioSegment  # audio library: only when mixing

    return AudioSegment


def ffmpeg_binary() -> str:
    exe = shutil.which("ffmpeg")
    if not exe:
        raise UserError("ffmpeg not found; install the Debian package ffmpeg: apt-get install ffmpeg")
    return exe


# ---------------------------------------------------------------- format


def samples(segment) -> np.ndarray:
    """The segment's samples as int16 (mono) numpy array."""
    import numpy as np  # numpy: only when samples are computed

    return (
        np.frombuffer(segment.raw_data, dtype=np.int16)
        if segment.sample_width == 2
        else np.array(segment.get_array_of_samples())
    )


def from_samples(x: np.ndarray, rate: int = SAMPLE_RATE):
    import numpy as np  # numpy: only when samples are computed

    x = np.asarray(x)
    if x.dtype != np.int16:
        x = np.clip(np.round(x), -32768, 32767).astype(np.int16)
    return _pydub()(data=x.tobytes(), sample_width=2, frame_rate=rate, channels=1)


def conform(source):
    """Load (path) or take (AudioSegment) audio and convert it to 24 kHz mono 16-bit, untrimmed.

    Resampling uses a polyphase filter (scipy.signal.resample_poly), not pydub's linear one.
    """
    import numpy as np  # numpy: only when samples are computed

    AudioSegment = _pydub()
    seg = source if isinstance(source, AudioSegment) else AudioSegment.from_file(str(source))
    if seg.channels != 1:
        seg = seg.set_channels(1)
    if seg.sample_width != SAMPLE_WIDTH:
        seg = seg.set_sample_width(SAMPLE_WIDTH)
    if seg.frame_rate != SAMPLE_RATE:
        from scipy.signal import resample_poly  # scipy: heavy, only when resampling

        g = gcd(SAMPLE_RATE, seg.frame_rate)
        x = samples(seg).astype(np.float64)
        y = resample_poly(x, SAMPLE_RATE // g, seg.frame_rate // g)
        seg = from_samples(y)
    return seg


def trim(segment, threshold_dbfs: float = SILENCE_DBFS) -> tuple[object, float]:
    """Trim leading/trailing silence (chunks quieter than ``threshold_dbfs``, -50 dBFS for every voice),
    keeping exactly 30 ms of silence at each end (padding if there was less). Returns (segment, shift) where
    ``shift`` seconds must be added to a time measured on the input to land on the output.
    An all-silent input becomes an empty segment."""
    from pydub.silence import detect_leading_silence  # audio library: only when mixing

    AudioSegment = _pydub()
    n = len(segment)  # ms
    lead = detect_leading_silence(segment, silence_threshold=threshold_dbfs, chunk_size=TRIM_CHUNK_MS)
    if lead >= n:
        return segment[:0], 0.0
    tail = detect_leading_silence(segment.reverse(), silence_threshold=threshold_dbfs, chunk_size=TRIM_CHUNK_MS)
    body = segment[lead : n - tail]
    pad = AudioSegment.silent(duration=KEEP_MS, frame_rate=segment.frame_rate).set_sample_width(segment.sample_width)
    before = segment[max(0, lead - KEEP_MS) : lead]
    after = segment[n - tail : min(n, n - tail + KEEP_MS)]
    if len(before) < KEEP_MS:
        before = pad[: KEEP_MS - len(before)] + before
    if len(after) < KEEP_MS:
        after = after + pad[: KEEP_MS - len(after)]
    out = before + body + after
    shift = (KEEP_MS - lead) / 1000.0
    return out, shift


def normalise(source):
    """24 kHz, mono, 16-bit, silence trimmed the same way for every backend."""
    seg, _ = normalise_with_shift(source)
    return seg


def normalise_with_shift(source):
    """Like ``normalise`` but also returns the time shift (seconds) the trim applied."""
    return trim(conform(source))


def duration_of(segment) -> float:
    return len(samples(segment)) / segment.frame_rate


def silence(seconds: float):
    import numpy as np  # numpy: only when samples are computed

    return from_samples(np.zeros(int(round(seconds * SAMPLE_RATE)), dtype=np.int16))


# ---------------------------------------------------------------- mixing


def mix_track(items: list[tuple[Path | None, float]], total_seconds: float):
    """Place each WAV at its start time (sample ``round(t*24000)``) on silence exactly
    ``round(total_seconds*24000)`` samples long. ``None`` entries (silent voice) are skipped.
    A clip may overrun the end by at most 1 ms (rounding); more is a planning bug."""
    import numpy as np  # numpy: only when samples are computed

    total = int(round(total_seconds * SAMPLE_RATE))
    acc = np.zeros(total, dtype=np.int32)
    for path, start in items:
        if path is None:
            continue
        if start < 0:
            raise ValueError(f"{path}: negative start time {start}")
        x = samples(conform(Path(path))).astype(np.int32)
        s = int(round(start * SAMPLE_RATE))
        end = s + len(x)
        if end > total:
            over = end - total
            if over > SAMPLE_RATE // 1000:
                raise ValueError(
                    f"{path}: starts at {start:.3f} s and runs {over / SAMPLE_RATE:.3f} s past the "
                    f"track's end at {total_seconds:.3f} s"
                )
            x = x[: len(x) - over]
        acc[s : s + len(x)] += x
    return from_samples(np.clip(acc, -32768, 32767).astype(np.int16))


# ---------------------------------------------------------------- loudness


def _float(segment) -> np.ndarray:
    import numpy as np  # numpy: only when samples are computed

    return samples(conform(segment)).astype(np.float64) / 32768.0


def integrated_loudness(segment) -> float:
    """ITU-R BS.1770 integrated loudness (LUFS), via pyloudnorm."""
    import pyloudnorm  # audio analysis: only when mixing

    x = _float(segment)
    if len(x) < int(MIN_LOUDNESS_SECONDS * SAMPLE_RATE):
        return float("-inf")
    return float(pyloudnorm.Meter(SAMPLE_RATE).integrated_loudness(x))


def true_peak(segment) -> float:
    """True peak in dBTP, estimated by 4x polyphase oversampling (BS.1770 annex 2 style)."""
    import numpy as np  # numpy: only when samples are computed
    from scipy.signal import resample_poly  # scipy: heavy, only when resampling

    x = _float(segment)
    if not len(x):
        return float("-inf")
    peak = float(np.max(np.abs(resample_poly(x, 4, 1))))
    return 20 * math.log10(peak) if peak > 0 else float("-inf")


def _gain(segment, db: float):
    import numpy as np  # numpy: only when samples are computed

    x = samples(segment).astype(np.float64) * (10 ** (db / 20))
    return from_samples(x)


def _limit(src_wav: Path, dst_wav: Path, gain_db: float) -> None:
    """Gain, then ffmpeg's look-ahead limiter (alimiter, delay compensated, auto-level off) run
    at 4x the sample rate so it catches inter-sample peaks; output 24 kHz 16-bit."""
    ff = ffmpeg_binary()
    up = 4 * SAMPLE_RATE
    graph = (
        f"aformat=sample_fmts=dbl,volume={gain_db:.4f}dB,aresample={up},"
        f"alimiter=limit={LIMIT_LINEAR:.6f}:attack=5:release=50:level=false:latency=true,"
        f"aresample={SAMPLE_RATE}"
    )
    res = subprocess.run(
        [
            ff,
            "-nostdin",
            "-hide_banner",
            "-loglevel",
            "error",
            "-y",
            "-i",
            str(src_wav),
            "-af",
            graph,
            "-ac",
            "1",
            "-c:a",
            "pcm_s16le",
            str(dst_wav),
        ],
        capture_output=True,
        text=True,
    )
    if res.returncode:
        raise RuntimeError(f"ffmpeg alimiter failed: {res.stderr.strip()[-300:]}")


def loudness_normalise(segment):
    """Bring a scene or lesson track to -16 LUFS integrated with true peak <= -1 dBTP.

    Loudness is measured with pyloudnorm (BS.1770). A plain gain is used when the peaks
    allow it; otherwise the gain is followed by ffmpeg's look-ahead limiter (alimiter) at
    4x oversampling, and the gain is corrected from the measured result by secant steps
    (up to five passes, usually three). Shorter than 0.4 s or silent: returned unchanged.
    The length and timing never change.
    """
    import numpy as np  # numpy: only when samples are computed

    seg = conform(segment)
    n = len(samples(seg))
    loud = integrated_loudness(seg)
    if n < MIN_LOUDNESS_SECONDS * SAMPLE_RATE or not math.isfinite(loud):
        return segment
    gain = TARGET_LUFS - loud
    out = _gain(seg, gain)
    if true_peak(out) <= MAX_TRUE_PEAK:
        return out
    best = None
    prev: tuple[float, float] | None = None
    with tempfile.TemporaryDirectory(prefix="coursekit-loud-") as tmp:
        src = Path(tmp) / "in.wav"
        dst = Path(tmp) / "out.wav"
        src.write_bytes(wav_bytes(seg))
        for _ in range(5):
            _limit(src, dst, gain)
            x = samples(conform(_pydub().from_file(str(dst))))
            cand = from_samples(np.pad(x, (0, max(0, n - len(x))))[:n])
            tp = true_peak(cand)
            if tp > MAX_TRUE_PEAK:
                cand = _gain(cand, MAX_TRUE_PEAK - 0.05 - tp)
            err = integrated_loudness(cand) - TARGET_LUFS
            if best is None or abs(err) < abs(best[0]):
                best = (err, cand)
            if abs(err) <= 0.1:
                break
            # secant step: limiting makes loudness grow slower than the gain
            slope = 1.0
            if prev is not None and abs(gain - prev[0]) > 1e-6:
                slope = min(1.0, max(0.2, (err - prev[1]) / (gain - prev[0])))
            prev = (gain, err)
            gain -= err / slope
    return best[1]


def plain_normalise(segment):
    """A quick stand-in for ``loudness_normalise``: one plain gain towards -16 LUFS, lowered so that no
    sample passes -1 dBFS (the sample peak: a peak between samples may pass it), with no limiter and no
    oversampled peak measure; 0.07 s instead of 0.55 s on a 99 s scene. For a provisional preview, which
    the normalised track replaces seconds later: where the peaks leave no room, it is quieter than the
    target. Shorter than 0.4 s or silent: returned unchanged. The length and timing never change."""
    import numpy as np  # numpy: only when samples are computed

    seg = conform(segment)
    loud = integrated_loudness(seg)
    if not math.isfinite(loud):
        return segment
    peak = int(np.max(np.abs(samples(seg).astype(np.int32)))) / 32768.0
    room = MAX_TRUE_PEAK - 20 * math.log10(peak)
    return _gain(seg, min(TARGET_LUFS - loud, room))


# ---------------------------------------------------------------- writing


def wav_bytes(segment) -> bytes:
    buf = io.BytesIO()
    segment.export(buf, format="wav")
    return buf.getvalue()


def write_wav_atomic(segment, path: Path) -> Path:
    """Write a WAV atomically (``coursekit.core.atomic``)."""
    write_bytes(Path(path), wav_bytes(segment))
    return Path(path)


def _wav_file(source, folder: Path) -> Path:
    """``source`` as a WAV file ffmpeg can read: the file itself, or a segment written into ``folder``."""
    if isinstance(source, (str, Path)):
        return Path(source)
    src = folder / "in.wav"
    src.write_bytes(wav_bytes(source))
    return src


def encode_aac_atomic(source, path: Path) -> Path:
    """Encode a segment or WAV file to AAC 160 kbit/s (.m4a/.mp4 container, or raw .aac ADTS), with ffmpeg's
    fast coder as the delivered audio (``AAC_STEREO_ARGS``): a scene's 99 s track in 0.32 s instead of 0.69 s
    with its default search, which the studio waits for after each edit."""
    ff = ffmpeg_binary()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fmt = "adts" if path.suffix.lower() == ".aac" else "mp4"
    with tempfile.TemporaryDirectory(prefix="coursekit-aac-") as td, replacing(path) as tmp:
        src = _wav_file(source, Path(td))
        args = [
            ff,
            "-nostdin",
            "-hide_banner",
            "-loglevel",
            "error",
            "-y",
            "-i",
            str(src),
            "-vn",
            "-c:a",
            "aac",
            "-aac_coder",
            "fast",
            "-b:a",
            "160k",
            "-map_metadata",
            "-1",
            "-fflags",
            "+bitexact",
            "-flags:a",
            "+bitexact",
            "-f",
            fmt,
            str(tmp),
        ]
        res = subprocess.run(args, capture_output=True, text=True)
        if res.returncode:
            raise RuntimeError(f"ffmpeg could not encode {path.name}: {res.stderr.strip()[-300:]}")
    return path


# ---------------------------------------------------------------- delivery

_EBUR128_I = re.compile(r"^\s*I:\s+(-?(?:\d+(?:\.\d+)?|inf))\s+LUFS", re.M)
_EBUR128_PEAK = re.compile(r"^\s*Peak:\s+(-?(?:\d+(?:\.\d+)?|inf))\s+dBFS", re.M)


def ebur128(source: Path, graph: str | None = None) -> tuple[float, float]:
    """(integrated loudness in LUFS, true peak in dBTP) of a file's first audio stream, after the
    filter ``graph`` if one is given, as ffmpeg's ``ebur128`` filter (BS.1770-4, true peak by
    oversampling) measures them. Both are given to 0.1; silence is (-70, -inf)."""
    af = f"{graph + ',' if graph else ''}ebur128=peak=true:framelog=verbose"
    res = subprocess.run(
        [
            ffmpeg_binary(),
            "-nostdin",
            "-hide_banner",
            "-nostats",
            "-i",
            str(source),
            "-map",
            "0:a:0",
            "-af",
            af,
            "-f",
            "null",
            "-",
        ],
        capture_output=True,
        text=True,
    )
    loud, peak = _EBUR128_I.findall(res.stderr), _EBUR128_PEAK.findall(res.stderr)
    if res.returncode or not loud or not peak:
        raise RuntimeError(
            f"ffmpeg ebur128 could not measure {Path(source).name}: {res.stderr.strip()[-300:] or 'no summary'}"
        )
    return float(loud[-1]), float(peak[-1])


def _delivery_graph(gain_db: float, limit_db: float | None, stereo: bool = True) -> str:
    graph = f"{DELIVERY_UPMIX if stereo else DELIVERY_RESAMPLE},volume={gain_db:.3f}dB:precision=double"
    if limit_db is not None:
        # ffmpeg's look-ahead limiter at 48 kHz, delay compensated, auto-level off. It sees sample
        # peaks only; the ceiling is lowered by whatever true peak the measurement finds above it.
        graph += f",alimiter=limit={10 ** (limit_db / 20):.6f}:attack=5:release=50:level=false:latency=true"
    return graph


def _delivery_settings(src: Path) -> tuple[float, float | None] | None:
    """Gain and limiter ceiling that bring the upmixed 48 kHz track to -16 LUFS with its true peak
    at or below DELIVERY_CEILING, found by measuring the filtered PCM (no encoding) with ebur128.
    A plain gain when the peaks allow it (one measurement); otherwise gain plus limiter, the gain
    corrected by secant steps and the ceiling lowered by any true-peak excess (up to six passes).
    None for a track too quiet or short to measure (ebur128's gate)."""

    def measure(graph: str) -> tuple[float, float]:  # as the stereo upmix would measure
        loud, peak = ebur128(src, graph)
        return loud + STEREO_GAIN_LU if math.isfinite(loud) else loud, peak

    loud, peak = measure(DELIVERY_RESAMPLE)
    if not math.isfinite(loud) or loud - STEREO_GAIN_LU <= SILENT_LUFS:
        return None
    gain = TARGET_LUFS - loud
    if peak + gain <= DELIVERY_CEILING:
        return gain, None
    limit = DELIVERY_CEILING
    best: tuple[float, float, float] | None = None  # (|error|, gain, limit)
    prev: tuple[float, float] | None = None
    for _ in range(6):
        loud, peak = measure(_delivery_graph(gain, limit, stereo=False))
        err = loud - TARGET_LUFS
        if peak <= DELIVERY_CEILING and (best is None or abs(err) < best[0]):
            best = (abs(err), gain, limit)
        if peak > DELIVERY_CEILING:
            limit -= peak - DELIVERY_CEILING + 0.05
        if abs(err) <= 0.1 and peak <= DELIVERY_CEILING:
            break
        slope = 1.0  # limiting makes loudness grow slower than the gain
        if prev is not None and abs(gain - prev[0]) > 1e-6:
            slope = min(1.0, max(0.2, (err - prev[1]) / (gain - prev[0])))
        prev = (gain, err)
        gain -= err / slope
    if best is None:
        raise RuntimeError(f"{src.name}: no limiter setting brought the true peak under {DELIVERY_CEILING} dBTP")
    return best[1], best[2]


def encode_delivery_aac(source, path: Path) -> tuple[Path, float, float]:
    """Encode a lesson's 24 kHz mono mix (a segment or WAV file) as the delivered audio, atomically:
    resampled once to 48 kHz with soxr, copied to two identical channels, normalised after the
    upmix to -16 LUFS integrated with true peak at or below -1 dBTP, AAC-LC stereo at 192 kbit/s
    in an .m4a. The encoded file itself is measured (ebur128); if the encoder pushed it out of
    bounds the gain or ceiling is corrected and it is encoded again (twice at most), else it is
    an error. Returns (path, integrated LUFS, true peak dBTP) as measured on the encoded file.
    A silent mix, or one too short to measure, is encoded as it is."""
    ff = ffmpeg_binary()
    path = Path(path)
    with tempfile.TemporaryDirectory(prefix="coursekit-delivery-") as td, replacing(path) as tmp:
        src = _wav_file(source, Path(td))
        settings = _delivery_settings(src)
        silent = settings is None
        gain, limit = settings or (0.0, None)
        for attempt in range(3):
            res = subprocess.run(
                [
                    ff,
                    "-nostdin",
                    "-hide_banner",
                    "-loglevel",
                    "error",
                    "-y",
                    "-i",
                    str(src),
                    "-vn",
                    "-af",
                    _delivery_graph(gain, limit),
                    "-c:a",
                    "aac",
                    *AAC_STEREO_ARGS,
                    "-b:a",
                    DELIVERY_BITRATE,
                    "-map_metadata",
                    "-1",
                    "-fflags",
                    "+bitexact",
                    "-flags:a",
                    "+bitexact",
                    "-f",
                    "mp4",
                    str(tmp),
                ],
                capture_output=True,
                text=True,
            )
            if res.returncode:
                raise RuntimeError(f"ffmpeg could not encode {path.name}: {res.stderr.strip()[-300:]}")
            loud, peak = ebur128(tmp)
            # aim inside the tolerance while corrections remain, accept the whole tolerance at the end
            margin = 0.0 if attempt == 2 else 0.2
            if silent or (abs(loud - TARGET_LUFS) <= DELIVERY_TOLERANCE - margin and peak <= MAX_TRUE_PEAK):
                break
            if attempt == 2:
                raise RuntimeError(
                    f"{path.name}: encoded at {loud:.1f} LUFS, true peak {peak:.1f} dBTP; wanted "
                    f"{TARGET_LUFS:g} ± {DELIVERY_TOLERANCE:g} LUFS and at most {MAX_TRUE_PEAK:g} dBTP"
                )
            if peak > MAX_TRUE_PEAK:
                limit = (DELIVERY_CEILING if limit is None else limit) - (peak - MAX_TRUE_PEAK) - 0.2
            gain += TARGET_LUFS - loud
    return path, loud, peak
