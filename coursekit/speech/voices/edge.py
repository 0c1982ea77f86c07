"""edge-tts 7.x (Microsoft's online neural voices).

Boundaries are requested explicitly (word boundaries by default; 7.2+ defaults to
sentences). Offsets arrive in 100-ns ticks and are mapped back to offsets in the spoken
text by sequential search. Transient failures (HTTP 403/429/5xx, NoAudioReceived, timeouts,
connection resets) are retried with capped exponential back-off; concurrent requests are
capped by a module-level semaphore. A failed or partial stream never produces a result.

The probe (``Edge.probe``: is the service there now?) is one tiny synthesis, after the service's host
(:data:`HOST`) is looked up with the standard library: a host that does not resolve is unreachable
without importing edge-tts and aiohttp (a third of a second), which is what an offline ``auto`` and
``render.py doctor`` would otherwise pay. With a proxy in the environment (edge-tts honours it) the
lookup is skipped: only the request through it can tell.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import os
import re
import socket
import threading
import time
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Callable

from pydantic import AfterValidator, Field, field_validator

from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech import audio
from coursekit.speech.voices.base import Voice, VoiceSettings, VoiceUnavailable

TICKS_PER_SECOND = 10_000_000
#: The host edge-tts speaks to (the host of ``edge_tts.constants.BASE_URL``; a test keeps them equal).
HOST = "speech.platform.bing.com"
RETRY_STATUS = {403, 429, 500, 502, 503, 504}

_SEMAPHORES: dict[int, threading.BoundedSemaphore] = {}
_SEM_LOCK = threading.Lock()


def semaphore(size: int) -> threading.BoundedSemaphore:
    """The process-wide cap on concurrent edge-tts requests (one semaphore per configured size)."""
    with _SEM_LOCK:
        if size not in _SEMAPHORES:
            _SEMAPHORES[size] = threading.BoundedSemaphore(size)
        return _SEMAPHORES[size]


def edge_version() -> str:
    try:
        return f"edge-tts {version('edge-tts')}"
    except PackageNotFoundError:
        import edge_tts  # the voice's runtime: only when it speaks

        return f"edge-tts {getattr(edge_tts, '__version__', 'unknown')}"


def _signed(unit: str, limit: int, what: str):
    """A validator for edge-tts's signed settings: '+0%', '-10%', '+50Hz' (sign, digits, ``unit``, at
    most ``limit`` either way)."""
    pattern = re.compile(rf"^[+-]\d{{1,{len(str(limit))}}}{re.escape(unit)}$")

    def check(v: str) -> str:
        if not pattern.match(v) or abs(int(v[: -len(unit)])) > limit:
            raise ValueError(
                f"must be a signed {what} between -{limit}{unit} and +{limit}{unit}, like '+0{unit}' or '-10{unit}'"
            )
        return v

    return AfterValidator(check)


Percent = Annotated[str, _signed("%", 100, "percentage")]
Hertz = Annotated[str, _signed("Hz", 500, "frequency")]


class EdgeSettings(VoiceSettings):
    """``voice.edge``: edge-tts settings, in edge-tts's own formats."""

    voice: str = Field("zh-CN-XiaoxiaoNeural", description="an edge-tts voice name, like zh-CN-XiaoxiaoNeural")
    rate: Percent = Field("+0%", description="signed percentage, -100% to +100%")
    pitch: Hertz = Field("+0Hz", description="signed frequency, -500Hz to +500Hz")
    volume: Percent = Field("+0%", description="signed percentage, -100% to +100%")
    max_concurrency: int = Field(2, ge=1, le=8)
    probe_timeout_s: float = Field(3.0, gt=0, le=30)

    @field_validator("voice")
    @classmethod
    def _voice(cls, v: str) -> str:
        if not re.match(r"^[a-z]{2,3}-[A-Z]{2}(-[A-Za-z]+)?-[A-Za-z]+Neural$", v):
            raise ValueError("must be an edge-tts voice name like 'zh-CN-XiaoxiaoNeural'")
        return v


class EdgeUnavailable(VoiceUnavailable):
    """edge-tts kept failing after every retry (the caller may fall back to an offline voice)."""


class IncompleteStream(Exception):
    """The stream ended without audio, or the audio could not be decoded."""


def transient_reason(exc: BaseException) -> str | None:
    """A short reason if ``exc`` is worth retrying, else None."""
    import aiohttp  # the voice's runtime: only when it speaks
    from edge_tts import exceptions as ex  # the voice's runtime: only when it speaks

    if isinstance(exc, ex.NoAudioReceived):
        return "no audio received"
    if isinstance(exc, IncompleteStream):
        return str(exc) or "incomplete stream"
    if isinstance(exc, (ex.WebSocketError, ex.UnexpectedResponse)):
        return f"{type(exc).__name__}"
    if isinstance(exc, aiohttp.ClientResponseError):
        return f"HTTP {exc.status}" if exc.status in RETRY_STATUS else None
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return "DNS error"
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError, aiohttp.ServerTimeoutError)):
        return "timeout"
    if isinstance(exc, (ConnectionResetError, aiohttp.ServerDisconnectedError)):
        return "connection reset"
    if isinstance(exc, (aiohttp.ClientConnectionError, ConnectionError)):
        return "connection error"
    return None


def unresolved(host: str, timeout: float) -> str | None:
    """Why ``host`` cannot be reached by name ('DNS error', or no answer within ``timeout``), or None if
    it resolves, or if a proxy is set in the environment (the request goes through it instead)."""
    if any(k.lower().endswith("_proxy") and v for k, v in os.environ.items()):
        return None
    found: list[bool] = []

    def look_up() -> None:
        try:
            socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
            found.append(True)
        except (OSError, UnicodeError):
            found.append(False)

    worker = threading.Thread(target=look_up, name="edge-dns", daemon=True)  # getaddrinfo has no timeout
    worker.start()
    worker.join(timeout)
    if not found:
        return f"no answer within {timeout:g} s"
    return None if found[0] else "DNS error"


def _run(coro_factory: Callable, timeout: float | None):
    """Run an async function to completion from sync code, even inside a running loop."""

    async def bounded():
        return await asyncio.wait_for(coro_factory(), timeout)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(bounded())
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, bounded()).result()


class Edge(Voice):
    spec = VoiceSpec(
        name="edge",
        licence="Microsoft online service terms (edge-tts)",
        reads_latin=True,
        parallel="threads",
        online=True,
        auto=0,
        label="edge-tts",
        needs="the network",
        settings=EdgeSettings,
    )

    def __init__(
        self,
        cfg: EdgeSettings | None = None,
        *,
        boundary: str = "WordBoundary",
        attempts: int = 5,
        backoff_s: float = 0.5,
        backoff_cap_s: float = 8.0,
        timeout_s: float | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if boundary not in ("WordBoundary", "SentenceBoundary"):
            raise ValueError("boundary must be 'WordBoundary' or 'SentenceBoundary'")
        self.cfg = cfg or EdgeSettings()
        self.boundary = boundary
        self.attempts = max(1, attempts)
        self.backoff_s = backoff_s
        self.backoff_cap_s = backoff_cap_s
        self.timeout_s = timeout_s
        self.sleep = sleep

    @classmethod
    def from_config(cls, cfg, lexicon) -> "Edge":
        return cls(cfg.section("edge"))

    @property
    def probe_timeout_s(self) -> float:
        return self.cfg.probe_timeout_s

    def concurrency(self) -> int:
        return self.cfg.max_concurrency

    def version(self) -> str:
        return edge_version()

    def describe(self) -> str:
        c = self.cfg
        return f"{self.version()} {c.voice} rate{c.rate} pitch{c.pitch} volume{c.volume}"

    def identity(self) -> dict:
        c = self.cfg
        return {
            "backend": self.name,
            "version": self.version(),
            "voice": c.voice,
            "rate": c.rate,
            "pitch": c.pitch,
            "volume": c.volume,
            "boundary": self.boundary,
            "format": audio.FORMAT_ID,
        }

    # -- one request

    async def _stream(self, spoken: str) -> tuple[bytes, list[tuple[int, int, str]]]:
        import edge_tts  # the voice's runtime: only when it speaks

        c = self.cfg
        com = edge_tts.Communicate(spoken, c.voice, rate=c.rate, volume=c.volume, pitch=c.pitch, boundary=self.boundary)
        data = bytearray()
        marks: list[tuple[int, int, str]] = []
        async for chunk in com.stream():
            kind = chunk.get("type")
            if kind == "audio":
                data += chunk["data"]
            elif kind in ("WordBoundary", "SentenceBoundary"):
                marks.append((int(chunk["offset"]), int(chunk["duration"]), str(chunk.get("text", ""))))
        if not data:
            raise IncompleteStream("stream ended without audio")
        return bytes(data), marks

    def _request(self, spoken: str, timeout: float | None):
        timeout = timeout if timeout is not None else (self.timeout_s or 30.0 + len(spoken) * 0.5)
        return _run(lambda: self._stream(spoken), timeout)

    def probe(self, timeout: float) -> tuple[bool, str]:
        """A tiny synthesis bounded by ``timeout`` seconds, no retries: (ok, reason). A host that does not
        resolve answers at once (:func:`unresolved`)."""
        t0 = time.monotonic()
        why = unresolved(HOST, timeout)
        if why is not None:
            return False, why
        try:
            self._request("你好", max(0.05, timeout - (time.monotonic() - t0)))
        except BaseException as exc:  # noqa: BLE001 - any failure means "not usable now"
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
                return False, f"no answer within {timeout:g} s"
            return False, transient_reason(exc) or f"{type(exc).__name__}: {str(exc)[:80]}"
        return True, f"answered in {time.monotonic() - t0:.1f} s"

    # -- the interface

    def _prepare(self, spoken: str) -> str:
        if not spoken.strip():
            raise ValueError("nothing to say")
        return spoken

    def _session(self):
        return semaphore(self.cfg.max_concurrency)

    def _render(self, spoken: str, attempt: int):
        mp3, marks = self._request(spoken, None)
        seg, shift = audio.normalise_with_shift(_decode_mp3(mp3))
        if not len(audio.samples(seg)):
            raise IncompleteStream("audio is silent")
        return seg, map_boundaries(spoken, marks, shift)

    def _retry_reason(self, exc: Exception) -> str | None:
        return transient_reason(exc)

    def _before_retry(self, attempt: int) -> None:
        self.sleep(min(self.backoff_cap_s, self.backoff_s * (2**attempt)))

    def _gave_up(self, reasons: list[str]) -> Exception:
        return EdgeUnavailable(
            f"edge-tts failed {len(reasons)} times (last: {reasons[-1]}); check the network, "
            "or set voice.backend to espeak or auto in config.yaml"
        )


def _decode_mp3(data: bytes):
    from pydub import AudioSegment  # audio library: only when mixing
    from pydub.exceptions import CouldntDecodeError  # audio library: only when mixing

    audio.ffmpeg_binary()
    try:
        return AudioSegment.from_file(io.BytesIO(data), format="mp3")
    except CouldntDecodeError as exc:
        raise IncompleteStream(f"MP3 could not be decoded ({str(exc).splitlines()[0][:80]})") from None


def map_boundaries(spoken: str, marks: list[tuple[int, int, str]], shift: float = 0.0) -> list[tuple[int, float]]:
    """Boundary events (offset ticks, duration ticks, text) -> (offset in ``spoken``, seconds),
    found by sequential search; a boundary whose text cannot be found is skipped."""
    out: list[tuple[int, float]] = []
    cursor = 0
    for ticks, _dur, text in marks:
        text = text.strip()
        if not text:
            continue
        idx = spoken.find(text, cursor)
        if idx < 0:
            continue
        out.append((idx, max(0.0, ticks / TICKS_PER_SECOND + shift)))
        cursor = idx + len(text)
    return out
