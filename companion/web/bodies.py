"""A deadline for request bodies: a client has BODY_TIMEOUT seconds to send its whole body.

Gunicorn's gevent worker bounds how long a client may take over its headers, but not
over its body: the app reads it when a view asks for the form, and a client that sends
headers and one byte of a 100-byte body holds a greenlet and a descriptor for as long as
it likes. Thousands of such connections filled both workers of a server. This WSGI
middleware reads every body (``Content-Length`` > 0, or chunked) before the app runs:

- under gevent (gunicorn's gevent worker, ``companion serve``) the whole read runs under
  one ``gevent.Timeout``;
- under a threaded server that exposes its socket (Werkzeug's development server, as
  ``werkzeug.socket``) each read waits at most the time left (a socket timeout);
- elsewhere (the test client; servers that read the body themselves) the body is read
  as it is, without a deadline.

A body not complete in time gets a 408 with one plain sentence and the connection is
closed. The answer deliberately lacks the app's ``X-Companion`` header: to the page it is
"no answer", so an entry waiting in the outbox is kept and sent again. The app then reads
the body from memory; bodies are small (``MAX_CONTENT_LENGTH``, 200 kB): a longer one is
not read here and the app refuses it (413) as before.
"""
from __future__ import annotations

import io
import socket
import time
from typing import Callable, Iterable

#: What a client whose body stalled reads (no request context here, so not translated).
TIMEOUT_TEXT = ("The request took too long to arrive, so nothing was saved. "
                "Check the connection and try again.\n")
CHUNK = 65536


class BodyTimeout(Exception):
    """The body did not arrive within the deadline."""


def _under_gevent() -> bool:
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


class BodyDeadline:
    """WSGI middleware: read the request body within ``config["BODY_TIMEOUT"]`` seconds."""

    def __init__(self, app: Callable, config) -> None:
        self.app = app
        self.config = config

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0      # Werkzeug answers a malformed length itself
        chunked = "chunked" in (environ.get("HTTP_TRANSFER_ENCODING") or "").lower()
        if chunked:
            length = 0      # Transfer-Encoding overrides any Content-Length (RFC 9112 6.3)
        limit = self.config.get("MAX_CONTENT_LENGTH")
        seconds = self.config.get("BODY_TIMEOUT")
        if not seconds or (length <= 0 and not chunked) or (limit and length > limit):
            return self.app(environ, start_response)
        try:
            body = self._read(environ, length if length > 0 else None,
                              (limit + 1) if limit else None, float(seconds))
        except BodyTimeout:
            start_response("408 Request Timeout",
                           [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(TIMEOUT_TEXT.encode()))),
                            ("Connection", "close")])
            return [TIMEOUT_TEXT.encode()]
        environ["wsgi.input"] = io.BytesIO(body)
        if chunked:
            # Read whole (or cut at the limit, so the app answers 413): now it has a length.
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = False
        # A body shorter than its Content-Length (the client hung up) stays short: the
        # app answers it as before (400).
        return self.app(environ, start_response)

    @staticmethod
    def _read(environ: dict, length: int | None, cap: int | None, seconds: float) -> bytes:
        """The body: `length` bytes, or up to `cap` of a chunked one, within `seconds`."""
        stream = environ["wsgi.input"]
        wanted = length if length is not None else cap
        if _under_gevent():
            import gevent

            with gevent.Timeout(seconds, BodyTimeout):
                return _read_all(stream, wanted)
        sock = environ.get("werkzeug.socket")
        if isinstance(sock, socket.socket):
            return _read_with_socket_timeout(stream, sock, wanted, time.monotonic() + seconds)
        return _read_all(stream, wanted)


def _read_all(stream, wanted: int | None) -> bytes:
    parts, got = [], 0
    while wanted is None or got < wanted:
        chunk = stream.read(CHUNK if wanted is None else min(CHUNK, wanted - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _read_with_socket_timeout(stream, sock: socket.socket, wanted: int | None,
                              deadline: float) -> bytes:
    before = sock.gettimeout()
    parts, got = [], 0
    try:
        while wanted is None or got < wanted:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BodyTimeout
            sock.settimeout(left)
            try:
                chunk = stream.read(CHUNK if wanted is None else min(CHUNK, wanted - got))
            except (socket.timeout, TimeoutError):
                raise BodyTimeout from None
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
    finally:
        try:
            sock.settimeout(before)
        except OSError:
            pass
    return b"".join(parts)


def init_app(app) -> None:
    """Read every request body within BODY_TIMEOUT seconds (0 or None: no deadline)."""
    app.wsgi_app = BodyDeadline(app.wsgi_app, app.config)
