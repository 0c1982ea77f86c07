"""Serve the course page on loopback with HTTP Range support (browsers need it to seek MP4)."""

from __future__ import annotations

import functools
import http.server
import sys
from pathlib import Path

from RangeHTTPServer import RangeRequestHandler

from coursekit.core.errors import UserError


class _Quiet(RangeRequestHandler):
    def log_message(self, fmt, *args):  # keep the terminal readable
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """Browsers cancel range requests while seeking: a reset or broken pipe is normal, not an error."""

        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def make_server(directory: Path, port: int = 8000, host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    if not (directory / "index.html").exists():
        raise UserError(f"{directory / 'index.html'} does not exist yet; run `make video` (or render.py course) first")
    handler = functools.partial(_Quiet, directory=str(directory))
    try:
        return _Server((host, port), handler)
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port} ({exc.strerror}); pass --port with a free port") from None


def serve(directory: Path, port: int = 8000) -> None:
    server = make_server(directory, port)
    host, real_port = server.server_address[:2]
    print(f"serving {directory} at http://{host}:{real_port}/  (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
