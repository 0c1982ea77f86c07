"""``render.py studio``: the authoring studio, a local web app.

- ``/``: every lesson and scene, its planned duration, whether its preview is fresh, and how many
  findings the viewer check has for it (kept up to date as the background works them out);
- ``/scene/<id>``: the scene's latest 480p15 preview and, under it, its timeline from the plan, to
  scale and in step with the playhead (cues, pauses, bookmarks, subtitle events, viewer-check findings),
  with frame stepping, playback rate and a "listen" control per cue. Editing the scene's narration,
  its code or anything it imports plans and renders the preview again (``coursekit.studio.work``, told
  by ``coursekit.studio.watcher``) and the page updates itself through server-sent events (``/events``);
  a bad edit shows its one line and the last good preview stays. Under it, the recording lane
  (``coursekit.studio.recording``): each cue's teleprompter, its take (current, stale or missing) and the
  microphone; a take is sent to ``POST /api/scene/<id>/take/<cue>`` and served back at ``/take/<id>/<cue>``.

Because a request can start a render, the server listens on loopback unless told otherwise
(``check_bind``), answers only requests whose ``Host`` header names its own address (a web page
elsewhere cannot reach it by DNS rebinding), refuses requests a browser marks as coming from another
site, and takes the requests that change something (``POST .../build``, ``POST .../take/<cue>``) only with
its own header.
It answers HTTP Range requests (``parse_range``), which browsers need to seek an MP4.
"""

from __future__ import annotations

import ipaddress
import json
import mimetypes
import queue
import re
import socket
import sys
import threading
import urllib.parse
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from coursekit.core.errors import UserError
from coursekit.project.project import Project
from coursekit.studio.recording import MAX_UPLOAD_BYTES
from coursekit.studio.watcher import observe
from coursekit.studio.work import Work

ASSETS = Path(__file__).with_name("assets")
ASSET_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}
SCENE_ID = re.compile(r"[a-z][a-z0-9_]*")
KEEPALIVE_S = 15.0
#: the header the page's own POSTs carry: a form or an image on another site cannot send it
STUDIO_HEADER = "X-Coursekit-Studio"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


# -- what the server accepts ---------------------------------------------------------------------
def is_loopback(host: str) -> bool:
    """True if ``host`` (an address or a name) reaches only this machine."""
    bare = host.strip("[]")
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        pass
    if bare.lower() == "localhost":
        return True
    try:
        infos = socket.getaddrinfo(bare, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(i[4][0].split("%")[0]).is_loopback for i in infos)


def check_bind(host: str, public: bool) -> None:
    """Refuse an address beyond loopback unless ``public`` (``--public``) asks for it."""
    if not public and not is_loopback(host):
        raise UserError(
            f"studio: --host {host} is not a loopback address, and the studio starts renders and "
            "serves the course's files; use 127.0.0.1 (the default), or add --public to listen on "
            f"{host} anyway (anyone who reaches it can then use the studio)"
        )


def _netloc(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def own_hosts(host: str, port: int) -> set[str]:
    """The ``Host`` headers that name this server: its address and, on loopback, the loopback names;
    on another address, also this machine's names and their addresses."""
    names = {host.strip("[]").lower()}
    if is_loopback(host):
        names |= {"localhost", "127.0.0.1", "::1"}
    else:
        for name in {socket.gethostname(), socket.getfqdn()}:
            names.add(name.lower())
            try:
                names |= {i[4][0].split("%")[0] for i in socket.getaddrinfo(name, None)}
            except OSError:
                pass
    return {_netloc(n, port) for n in names if n not in ("0.0.0.0", "::")}


def host_allowed(header: str | None, allowed: set[str]) -> bool:
    """True if a request's ``Host`` header is one of ``allowed`` (see ``own_hosts``)."""
    return header is not None and header.strip().lower() in allowed


class RangeNotSatisfiable(Exception):
    """The request's byte range lies outside the file (answered with 416)."""


def parse_range(header: str | None, size: int) -> tuple[int, int] | None:
    """The first and last byte (inclusive) a ``Range`` header asks for in a file of ``size`` bytes, or
    None for the whole file: no header, another unit, several ranges or a malformed one (RFC 9110 lets
    a server ignore those and send everything). Raises RangeNotSatisfiable when no byte of the range
    is in the file."""
    if not header:
        return None
    m = re.fullmatch(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*", header)
    if not m or m.group(1) == m.group(2) == "":
        return None
    first, last = m.groups()
    if first == "":  # the last N bytes
        n = int(last)
        if n == 0 or size == 0:
            raise RangeNotSatisfiable(header)
        return max(0, size - n), size - 1
    a = int(first)
    if last and int(last) < a:  # malformed
        return None
    if a >= size:
        raise RangeNotSatisfiable(header)
    return a, min(int(last) if last else size - 1, size - 1)


# -- server-sent events ----------------------------------------------------------------------------
class Hub:
    """The open pages' event streams: each subscriber gets every event; a scene page names its scene."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[int, tuple[str | None, queue.Queue]] = {}
        self._next = 0

    def subscribe(self, scene: str | None) -> tuple[int, queue.Queue]:
        with self._lock:
            self._next += 1
            q: queue.Queue = queue.Queue()
            self._subs[self._next] = (scene, q)
            return self._next, q

    def unsubscribe(self, token: int) -> None:
        with self._lock:
            self._subs.pop(token, None)

    def publish(self, event: dict) -> None:
        with self._lock:
            for _, q in self._subs.values():
                q.put(event)

    def open_scenes(self) -> set[str]:
        with self._lock:
            return {s for s, _ in self._subs.values() if s}

    def close(self) -> None:
        with self._lock:
            for _, q in self._subs.values():
                q.put(None)


# -- HTTP ----------------------------------------------------------------------------------------
class StudioServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], work: Work, hub: Hub) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, Handler)
        self.work, self.hub = work, hub
        self.allowed_hosts = own_hosts(address[0], self.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{_netloc(self.server_address[0], self.server_address[1])}/"

    def handle_error(self, request, client_address):
        """Browsers cancel range requests and event streams: a reset or broken pipe is normal."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    server: StudioServer
    server_version = "coursekit-studio"

    def log_message(self, fmt, *args):  # the terminal is for the studio's own lines
        pass

    # -- guards
    def _refuse(self, status: HTTPStatus, why: str) -> None:
        body = (why + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _guarded(self, navigation: bool) -> bool:
        """The Host check, and no request a browser sends on another site's behalf (except following a
        link to a page: ``navigation``)."""
        if not host_allowed(self.headers.get("Host"), self.server.allowed_hosts):
            self._refuse(
                HTTPStatus.MISDIRECTED_REQUEST,
                f"this is the course studio at {self.server.url}; the Host header "
                f"{self.headers.get('Host')!r} names another address",
            )
            return False
        site = self.headers.get("Sec-Fetch-Site")
        if site in ("cross-site", "same-site") and not navigation:
            self._refuse(HTTPStatus.FORBIDDEN, "the studio answers only its own pages")
            return False
        return True

    # -- answers
    def _json(self, obj, status: HTTPStatus = HTTPStatus.OK) -> None:
        body = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _file(self, path: Path, ctype: str, cache: str = "no-cache") -> None:
        try:
            f = path.open("rb")
        except OSError:
            self._refuse(HTTPStatus.NOT_FOUND, "not found")
            return
        with f:
            size = path.stat().st_size
            try:
                span = parse_range(self.headers.get("Range"), size)
            except RangeNotSatisfiable:
                self.send_response(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            first, last = span if span else (0, size - 1)
            self.send_response(HTTPStatus.PARTIAL_CONTENT if span else HTTPStatus.OK)
            self.send_header("Content-Type", ctype)
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("Content-Length", str(max(0, last - first + 1)))
            if span:
                self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
            self.send_header("Cache-Control", cache)
            self.end_headers()
            if self.command == "HEAD":
                return
            f.seek(first)
            left = last - first + 1
            while left > 0:
                chunk = f.read(min(256 * 1024, left))
                if not chunk:
                    break
                self.wfile.write(chunk)
                left -= len(chunk)

    def end_headers(self) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    def _events(self, scene: str | None) -> None:
        hub = self.server.hub
        token, q = hub.subscribe(scene)
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(b"retry: 1000\n: hello\n\n")
            self.wfile.flush()
            while True:
                try:
                    event = q.get(timeout=KEEPALIVE_S)
                except queue.Empty:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                    continue
                if event is None:
                    return
                self.wfile.write(f"data: {json.dumps(event, ensure_ascii=False)}\n\n".encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            hub.unsubscribe(token)

    # -- routes
    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        path, query = url.path, urllib.parse.parse_qs(url.query)
        page = path == "/" or re.fullmatch(r"/scene/[a-z][a-z0-9_]*", path) is not None
        if not self._guarded(navigation=page):
            return
        work = self.server.work
        if page:
            self._file(ASSETS / "studio.html", ASSET_TYPES[".html"])
        elif m := re.fullmatch(r"/assets/([a-z_]+\.(?:js|css))", path):
            self._file(ASSETS / m.group(1), ASSET_TYPES[Path(m.group(1)).suffix])
        elif path == "/api/scenes":
            self._json(work.scene_list())
        elif m := re.fullmatch(r"/api/scene/([a-z][a-z0-9_]*)", path):
            view = work.scene_view(m.group(1))
            self._json(view) if view is not None else self._refuse(HTTPStatus.NOT_FOUND, "no such scene")
        elif m := re.fullmatch(r"/preview/([a-z][a-z0-9_]*)\.mp4", path):
            self._file(work.preview_path(m.group(1)), "video/mp4")
            if self.command == "GET" and (version := (query.get("v") or [None])[0]):
                work.preview_served(m.group(1), version)  # the page has this video: the builder goes on
        elif m := re.fullmatch(r"/audio/([a-z][a-z0-9_]*)/([a-z][a-z0-9_]*)", path):
            clip = work.cue_audio(m.group(1), m.group(2))
            if clip is None:
                self._refuse(HTTPStatus.NOT_FOUND, "no narration for that cue")
            else:
                self._file(clip, mimetypes.guess_type(clip.name)[0] or "application/octet-stream")
        elif m := re.fullmatch(r"/take/([a-z][a-z0-9_]*)/([a-z][a-z0-9_]*)", path):
            take = work.take_audio(m.group(1), m.group(2))
            if take is None:
                self._refuse(HTTPStatus.NOT_FOUND, "no take of that cue")
            else:
                self._file(take, "audio/flac")
        elif path == "/favicon.ico":
            self.send_response(HTTPStatus.NO_CONTENT)
            self.end_headers()
        elif path == "/events" and self.command == "HEAD":
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.end_headers()
        elif path == "/events":
            scene = (query.get("scene") or [None])[0]
            self._events(scene if scene and SCENE_ID.fullmatch(scene) else None)
        else:
            self._refuse(HTTPStatus.NOT_FOUND, "not found")

    def do_POST(self) -> None:
        if not self._guarded(navigation=False):
            return
        origin = self.headers.get("Origin")
        if self.headers.get(STUDIO_HEADER) != "1" or (
            origin is not None and origin.rstrip("/") != f"http://{self.headers['Host']}"
        ):
            self._refuse(HTTPStatus.FORBIDDEN, "the studio takes this only from its own page")
            return
        url = urllib.parse.urlsplit(self.path)
        if m := re.fullmatch(r"/api/scene/([a-z][a-z0-9_]*)/take/([a-z][a-z0-9_]*)", url.path):
            self._take(m.group(1), m.group(2), urllib.parse.parse_qs(url.query))
            return
        work = self.server.work
        if m := re.fullmatch(r"/api/scene/([a-z][a-z0-9_]*)/focus/([a-z][a-z0-9_]*)", url.path):
            course = work.course()
            if course is None or m.group(1) not in course.scenes:
                self._refuse(HTTPStatus.NOT_FOUND, "no such scene")
                return
            work.focus(m.group(1), m.group(2))
            self._json({"focus": f"{m.group(1)}.{m.group(2)}"}, HTTPStatus.ACCEPTED)
            return
        m = re.fullmatch(r"/api/scene/([a-z][a-z0-9_]*)/build", url.path)
        course = work.course()
        if not m or course is None or m.group(1) not in course.scenes:
            self._refuse(HTTPStatus.NOT_FOUND, "no such scene")
            return
        work.request_build(m.group(1), "asked on its page")
        self._json({"queued": m.group(1)}, HTTPStatus.ACCEPTED)

    def _take(self, scene_id: str, short: str, query: dict) -> None:
        """A take recorded on the scene's page: stored (``Work.store_take``), answered with the scene's
        lane; a bad one is ``{"error": one line}`` and nothing is written."""
        try:
            size = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            size = -1
        if not 0 <= size <= MAX_UPLOAD_BYTES:
            self.close_connection = True
            self._json(
                {"error": f"the recording is over {MAX_UPLOAD_BYTES // 2**20} MB; record the cue alone"},
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
            )
            return
        body = self.rfile.read(size) if size else b""
        marks = (query.get("marks") or [""])[0]
        status, answer = self.server.work.store_take(
            scene_id, short, body, self.headers.get("Content-Type") or "", marks
        )
        self._json(answer, status)


def make_studio(
    project: Project,
    host: str = "127.0.0.1",
    port: int = 8100,
    *,
    public: bool = False,
    say: Callable[[str], None] = print,
    background_checks: bool = True,
) -> StudioServer:
    """The studio's server (not yet serving) and its work on ``project`` (not yet started), bound to
    ``host:port`` after ``check_bind``."""
    check_bind(host, public)
    hub = Hub()
    work = Work(project, hub.publish, hub.open_scenes, say, background_checks)
    try:
        return StudioServer((host.strip("[]"), port), work, hub)
    except OSError as exc:
        raise UserError(
            f"cannot listen on {_netloc(host, port)} ({exc.strerror}); pass --port with a free port"
        ) from None


def run_studio(server: StudioServer, say: Callable[[str], None] = print) -> None:
    """Serve until interrupted: watch every file a scene's preview depends on (``Work.watched_paths``,
    with ``coursekit.studio.watcher``, which ``preview --watch`` uses too), start the work, print the address."""
    work = server.work
    stop_watching = observe(work.watched_paths(), work.file_changed)
    work.start()
    say(f"studio: {server.url}  (Ctrl-C to stop)")
    try:  # SIGTERM and SIGINT end it (coursekit.core.stopping, installed by the command line)
        server.serve_forever()
    finally:
        stop_watching()
        server.hub.close()
        work.stop()
        server.server_close()
