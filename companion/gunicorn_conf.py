"""Gunicorn settings for Table Companion, as one module:

    gunicorn -c python:companion.gunicorn_conf "companion:create_app()"

Environment variables (docs/SETTINGS.md):

- ``COMPANION_BIND``: where to listen (default ``0.0.0.0:8000``; behind a reverse proxy
  ``127.0.0.1:8000`` or ``unix:/run/companion/companion.sock``);
- ``COMPANION_WORKERS``: worker processes (default 2), each a gevent loop holding up to
  4,000 connections (every open table page holds one);
- ``COMPANION_LOG_FORMAT``: ``text`` (default) or ``json``, one JSON object per request.

Every request is logged to stdout, with the secret parts of paths replaced by
``<redacted>`` (old QR and director links carried a token in the path: ``/J/<token>``,
``/e/<id>/director/<token>``); headers that carry secrets are never logged.

A SIGTERM ends every live stream at once (the phones reconnect to whatever serves next)
and the worker exits within about two seconds; ``graceful_timeout`` caps the wait at 5 s.
"""
from __future__ import annotations

import json
import os
import re
import signal
import time

from gunicorn.glogging import Logger

bind = os.environ.get("COMPANION_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("COMPANION_WORKERS", "2"))
worker_class = "gevent"
worker_connections = 4000
graceful_timeout = 5
accesslog = "-"
errorlog = "-"
# gunicorn 23+'s control socket ($HOME/.gunicorn/gunicorn.ctl): unused here, and two
# instances of one user would share it.
control_socket_disable = True
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'

#: Path parts that are secrets: a join token, a director token. A prefix before them (a
#: proxy's path prefix) is kept.
SECRET_PATHS = (
    re.compile(r"(/[Jj]/)[^/?#\s\"]+"),
    re.compile(r"(/e/[^/?#\s\"]+/director/)[^/?#\s\"]+"),
)
#: Query parameters whose values are secrets or join codes.
SECRET_QUERY = re.compile(r"(?i)\b((?:token|code|key|secret|csrf_token)=)[^&\s\"#]*")
#: Headers never written to a log, whatever the format asks for.
SECRET_HEADERS = ("cookie", "authorization", "x-csrftoken", "set-cookie", "proxy-authorization")
REDACTED = "<redacted>"


def redact(text: str) -> str:
    """`text` (a path, a request line, a referrer) with its secret parts replaced."""
    for pattern in SECRET_PATHS:
        text = pattern.sub(r"\1" + REDACTED, text)
    return SECRET_QUERY.sub(r"\1" + REDACTED, text)


class RedactingLogger(Logger):
    """Gunicorn's logger, without secrets in access lines; JSON lines on request."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in list(atoms):
            if any(key in (f"{{{name}}}i", f"{{{name}}}o",
                           f"{{http_{name.replace('-', '_')}}}e")
                   for name in SECRET_HEADERS):
                atoms[key] = REDACTED
            elif isinstance(atoms[key], str):
                atoms[key] = redact(atoms[key])
        return atoms

    def access(self, resp, req, environ, request_time):
        if os.environ.get("COMPANION_LOG_FORMAT", "text").lower() != "json":
            return super().access(resp, req, environ, request_time)
        if not self.access_log_enabled:
            return
        atoms = self.atoms(resp, req, environ, request_time)
        query = atoms.get("q") or ""
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "remote": atoms.get("h"),
            "method": atoms.get("m"),
            "path": (atoms.get("U") or "") + (f"?{query}" if query else ""),
            "status": int(atoms["s"]) if str(atoms.get("s", "")).isdigit() else atoms.get("s"),
            "bytes": atoms.get("B") or 0,
            "ms": atoms.get("M"),
            "user_agent": atoms.get("a"),
        }
        try:
            # No arguments: logging does no %-formatting, so a "%" in a path is safe.
            self.access_log.info(json.dumps(line, ensure_ascii=False))
        except Exception:   # noqa: BLE001 - a log line must never fail a request
            self.exception("Could not write an access log line")


logger_class = RedactingLogger


def post_worker_init(worker) -> None:
    """Make SIGTERM end the worker's live streams at once, then stop it as gunicorn does.

    A live stream waits up to ``LIVE_KEEPALIVE`` between messages and lasts up to
    ``LIVE_MAX_SECONDS``: without this, gunicorn would wait out ``graceful_timeout`` with
    every phone connected. The streams are woken from a new greenlet (a signal handler
    must not wait on the locks they use).
    """
    import gevent

    from companion.web import streams

    stop = worker.handle_exit

    def handle_exit(sig, frame):
        gevent.spawn(streams.stop_all)
        stop(sig, frame)

    worker.handle_exit = handle_exit
    signal.signal(signal.SIGTERM, handle_exit)
