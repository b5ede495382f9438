"""Helpers for the fault tests: the real server as a killable process, and plain HTTP phones.

Everything here uses the standard library and tests/helpers.py only (CI installs just the
`[test]` extra), talks to 127.0.0.1 only, and bounds every wait. The module name is unique across tests/ because
pytest imports test-side modules by basename (there are no __init__.py files under tests/).
"""
from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from helpers import attr, csrf_from, form_block, free_port, inputs, text_of

START_TIMEOUT = 30.0
#: How many seats each score pad this process created has (Client.create_table), so
#: Client.enter can type 0 in the boxes a test doesn't name.
SEATS: dict[str, int] = {}
REQUEST_TIMEOUT = 20.0

# Errors that mean "the server went away" (killed, restarting, not yet listening).
CONNECTION_ERRORS = (ConnectionError, http.client.HTTPException, socket.timeout, OSError)


# ---------------------------------------------------------------- the server process

@dataclass
class Server:
    """`companion serve` (kind "serve") or `gunicorn -k gevent -w 2` (kind "gunicorn").

    Every process runs in its own session, so `kill()` can SIGKILL the whole process
    group (gunicorn's master and its workers) at once. `start()` may be called again
    after `kill()`/`stop()`: the same port and the same instance folder (database).
    """

    instance: Path
    port: int = 0
    log: Path | None = None
    kind: str = "serve"
    process: subprocess.Popen | None = None
    starts: int = 0

    def __post_init__(self) -> None:
        self.port = self.port or free_port()
        self.log = self.log or self.instance / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def db_path(self) -> Path:
        return self.instance / "companion.db"

    def command(self) -> list[str]:
        if self.kind == "gunicorn":
            return [sys.executable, "-P", "-m", "gunicorn", "-k", "gevent", "-w", "2",
                    "--worker-connections", "1000", "--graceful-timeout", "3",
                    "-b", f"127.0.0.1:{self.port}", "--log-level", "warning",
                    "companion:create_app()"]
        return [sys.executable, "-P", "-m", "companion.cli", "serve",
                "--host", "127.0.0.1", "--port", str(self.port), "--quiet"]

    def start(self, kind: str | None = None) -> Server:
        """Start the server and wait (bounded) until it answers GET / with 200."""
        assert self.process is None or self.process.poll() is not None, "already running"
        if kind:
            self.kind = kind
        self.instance.mkdir(parents=True, exist_ok=True)
        config = self.instance / "config.py"   # every test phone is 127.0.0.1: lift quotas
        if not config.exists():
            config.write_text("TABLE_CREATE_LIMIT = (100_000, 60.0)\n"
                              "EVENT_CREATE_LIMIT = (100_000, 60.0)\n")
        env = {**os.environ, "COMPANION_INSTANCE_PATH": str(self.instance),
               "PYTHONUNBUFFERED": "1"}
        with open(self.log, "ab") as out:
            out.write(f"\n===== start #{self.starts + 1} ({self.kind})\n".encode())
            out.flush()
            # cwd = the instance folder and -P: import the installed `companion`.
            self.process = subprocess.Popen(self.command(), cwd=self.instance, env=env,
                                            stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        self.starts += 1
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n"
                                   f"{self.output()[-3000:]}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/")
                status = conn.getresponse().status
                conn.close()
                if status == 200:
                    return self
            except CONNECTION_ERRORS:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"the server did not answer on {self.url} within "
                                   f"{START_TIMEOUT:.0f} s:\n{self.output()[-3000:]}")
            time.sleep(0.05)

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the server's whole process group (no cleanup of any kind runs)."""
        if self.process is None or self.process.poll() is not None:
            return        # never started, or already gone (and reaped: its id may be reused)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)
        self._wait_port_free()

    def _wait_port_free(self) -> None:
        """Wait (bounded) until no process of the group still listens on the port: a
        gunicorn worker may outlive its master by a moment, and a restart needs the port."""
        deadline = time.monotonic() + 10
        while True:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                try:
                    s.bind(("127.0.0.1", self.port))
                    return
                except OSError:
                    if time.monotonic() > deadline:
                        raise
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop the server the polite way (SIGTERM, as Ctrl+C or a service manager would)."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()
            return
        self._wait_port_free()

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""


# ---------------------------------------------------------------- a phone over plain HTTP

@dataclass
class Response:
    status: int
    headers: dict
    text: str

    @property
    def location(self) -> str:
        return urlsplit(self.headers.get("location", "")).path

    @property
    def plain(self) -> str:
        return text_of(self.text)


@dataclass
class Client:
    """One phone: its own cookie jar, a new loopback connection per request.

    `base` may be changed (e.g. a restarted server on another port); cookies stay.
    """

    base: str
    name: str = "phone"
    cookies: dict = field(default_factory=dict)
    _csrf: str | None = None

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        """A new connection to `base` (a subclass may speak TLS, from another address)."""
        parts = urlsplit(self.base)
        return http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)

    def answered(self, raw: http.client.HTTPResponse) -> None:
        """Called with every raw answer (a subclass may keep statuses or headers)."""

    def request(self, method: str, path: str, data: dict | None = None, *, hx: bool = False,
                timeout: float = REQUEST_TIMEOUT, headers: dict | None = None,
                body: str | None = None) -> Response:
        """One request with this phone's cookies: a form (`data`) or a raw `body`."""
        conn = self.connection(timeout)
        headers = {"Connection": "close", **(headers or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if hx:
            headers["HX-Request"] = "true"
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            raw = conn.getresponse()
            text = raw.read().decode("utf-8", "replace")
            for value in raw.headers.get_all("Set-Cookie") or []:
                self._take_cookie(value)
            self.answered(raw)
            return Response(raw.status, {k.lower(): v for k, v in raw.headers.items()}, text)
        finally:
            conn.close()

    def _take_cookie(self, header: str) -> None:
        pair, _, attrs = header.partition(";")
        name, _, value = pair.strip().partition("=")
        gone = re.search(r"max-age=0\b|expires=thu, 01 jan 1970", attrs, re.I)
        if gone:
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = value

    def get(self, path: str, **kw) -> Response:
        return self.request("GET", path, **kw)

    def post(self, path: str, data: dict, **kw) -> Response:
        data = dict(data)
        data.setdefault("csrf_token", self.csrf())
        return self.request("POST", path, data, **kw)

    def csrf(self) -> str:
        """A CSRF token for this phone's session (the secret key lives in the instance
        folder, so the token stays good across server restarts)."""
        if self._csrf is None:
            r = self.get("/")
            assert r.status == 200, (r.status, r.plain[:300])
            self._csrf = csrf_from(r.text)
        return self._csrf

    # ------------------------------------------------------------ flows
    def create_table(self, names: list[str], me: int = 0, **settings) -> str:
        """Create a score pad; this phone sits at row `me` and hosts. Returns the table id."""
        data = {f"name_{i}": n for i, n in enumerate(names)}
        data["me"] = str(me)
        data.update({k: str(v) for k, v in settings.items()})
        r = self.post("/new/scorepad", data)
        assert r.status == 303, (r.status, r.plain[:500])
        match = re.fullmatch(r"/t/([\w-]+)", r.location)
        assert match, r.location
        SEATS[match.group(1)] = len(names)
        return match.group(1)

    def join_path(self, table_id: str) -> str:
        """The QR's join link without its base ("/j#<TOKEN>"), read from `#join-url` on
        the table page."""
        parts = urlsplit(attr(self.page(table_id), "a#join-url", "href"))
        return f"{parts.path}#{parts.fragment}"

    def join(self, join_path: str, table_id: str, seat: int) -> None:
        """Open the QR's link as its page's script does (POST the fragment's token to its
        path; gets this phone's cookie) and sit down in `seat`."""
        path, _, token = join_path.partition("#")
        r = self.post(path, {"token": token})
        assert r.status == 303, (r.status, r.plain[:500])
        r = self.post(f"/t/{table_id}/seats", {"seat": str(seat)})
        assert r.status == 303, (r.status, r.plain[:500])

    def page(self, table_id: str) -> str:
        r = self.get(f"/t/{table_id}")
        assert r.status == 200, (r.status, r.plain[:500])
        return r.text

    def entry_form(self, table_id: str) -> dict[str, str]:
        """The entry form's fields (sid, version, boxes) from a fresh live fragment."""
        r = self.get(f"/t/{table_id}/play", hx=True)
        assert r.status == 200, (r.status, r.plain[:500])
        return entry_form_of(r.text)

    def version(self, table_id: str) -> int:
        """The table's current version, as its live fragment (/play) shows it."""
        r = self.get(f"/t/{table_id}/play", hx=True)
        assert r.status == 200, (r.status, r.plain[:300])
        return int(attr(r.text, "[data-version]", "data-version"))

    def enter(self, table_id: str, scores: dict[int, int], *, sid: str, version: int,
              hx: bool = True) -> Response:
        """Post one round. An empty box is never a score, so, as a player must, this types
        0 in every seat's box that `scores` doesn't name (for a table this process made)."""
        data = {"sid": sid, "version": str(version)}
        data.update({f"score_{pos}": "0" for pos in range(SEATS.get(table_id, 0))})
        data.update({f"score_{pos}": str(v) for pos, v in scores.items()})
        return self.post(f"/t/{table_id}/actions", data, hx=hx)


def new_sid(prefix: str = "") -> str:
    return f"{prefix}{uuid.uuid4().hex}"[:64]


# ---------------------------------------------------------------- reading pages

def entry_form_of(page: str) -> dict[str, str]:
    """The fields of the `<form id="entry-form">` in a page or fragment."""
    return inputs(form_block(page, 'id="entry-form"'))


def saved_seq(text: str) -> int | None:
    match = re.search(r"Saved as entry #(\d+)\.", text_of(text))
    return int(match.group(1)) if match else None


# ---------------------------------------------------------------- the database, read directly

def connect_ro(db_path: Path) -> sqlite3.Connection:
    """A plain connection for checks (WAL: reading never blocks the running server)."""
    conn = sqlite3.connect(str(db_path), timeout=10)
    conn.execute("PRAGMA busy_timeout=10000")
    return conn


def integrity(db_path: Path) -> str:
    conn = connect_ro(db_path)
    try:
        return "; ".join(row[0] for row in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


def game_rows(db_path: Path) -> list[tuple]:
    """(table_id, seq, version, seat, payload, submission_id, undone_by) of every game entry."""
    import json

    conn = connect_ro(db_path)
    try:
        rows = conn.execute("SELECT table_id, seq, version, seat, payload, submission_id, "
                            "undone_by FROM actions WHERE kind = 'game' ORDER BY table_id, seq"
                            ).fetchall()
    finally:
        conn.close()
    return [(t, s, v, seat, json.loads(p), sid, u) for t, s, v, seat, p, sid, u in rows]


def log_problems(db_path: Path) -> list[str]:
    """Structural checks of every table's log: seqs 1..n with no gap, versions rising with
    seq, the table's version equal to its newest action's, no submission id twice."""
    conn = connect_ro(db_path)
    problems: list[str] = []
    try:
        versions = dict(conn.execute("SELECT id, version FROM tables"))
        for table_id, version in versions.items():
            rows = conn.execute("SELECT seq, version FROM actions WHERE table_id = ? ORDER BY seq",
                                [table_id]).fetchall()
            seqs = [r[0] for r in rows]
            if seqs != list(range(1, len(seqs) + 1)):
                problems.append(f"{table_id}: seqs not contiguous: {seqs[:5]}...{seqs[-5:]}")
            vs = [r[1] for r in rows]
            if vs != sorted(set(vs)):
                problems.append(f"{table_id}: versions not rising with seq")
            if rows and vs[-1] != version:
                problems.append(f"{table_id}: table version {version} != newest action's {vs[-1]}")
        doubled = conn.execute("SELECT table_id, submission_id, COUNT(*) FROM actions WHERE "
                               "submission_id IS NOT NULL GROUP BY 1, 2 HAVING COUNT(*) > 1"
                               ).fetchall()
        problems += [f"submission {sid} stored {n} times at {t}" for t, sid, n in doubled]
    finally:
        conn.close()
    return problems
