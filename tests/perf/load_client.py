"""The load generator behind bench_load.py: one client process of simulated phones.

Not meant to be run by hand: bench_load.py starts one or more of these, each with its
share of the tables, and talks to it over stdin/stdout (one JSON line each way):

    client -> {"ready": ...}      setup done (tables made, phones seated, streams open)
    bench  -> {"go": T0}          T0 is a CLOCK_MONOTONIC time shared by every process
    client -> {"done": PATH}      raw results written to PATH

It is plain gevent with raw sockets (no HTTP library): a phone's idle stream is one
greenlet blocked in recv(), so thousands cost little CPU, and each request costs tens
of microseconds of Python rather than the hundreds a full client would. Every loop here
is bounded in count and in time (the process also has a hard deadline, `--deadline`).

Modes:
  load        N tables x 5 phones: setup, then the scheduled entries (bench_load.py).
              With --tokens (bench_load.py --event) the tables are an event's: no phone
              creates one, all five join by the table card's QR URL and claim their seats.
  watch       (bench_load.py --event) the event's open pages polling it during the
              measured window: the director's dashboard, the projector, the standings
              page and players' phones; each request timed like an entry.
  throughput  closed loop, K keep-alive connections, fixed duration, against either
              the bare baseline route (POST /write) or the score-entry route.
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse
import json
import os
import random
import re
import secrets
import socket
import sys
import time
import zlib
from urllib.parse import quote, urlsplit

import gevent
import gevent.event
import gevent.os
from gevent.pool import Pool

HOST = "127.0.0.1"
PORT = 0
REQUEST_TIMEOUT = 15.0          # any single request (connect to last byte)
STREAM_SILENCE = 40.0           # a stream silent this long is dead (server pings every 15 s)
MAX_RECONNECTS = 20             # per phone stream, over a whole run
USER_AGENT = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
              "Chrome/131.0 Mobile Safari/537.36 bench-load")

CSRF_RE = re.compile(rb'name="csrf_token" value="([^"]+)"')
VERSION_RE = re.compile(rb'id="sheet"[^>]*data-version="(\d+)"')
FORM_VERSION_RE = re.compile(rb'name="version" value="(\d+)"')
JOIN_RE = re.compile(rb'id="join-url"[^>]*>([^<]+)<')
TABLE_PATH_RE = re.compile(r"/t/([^/?#]+)")

now = time.monotonic


class HTTPFailure(Exception):
    """A request that failed: connection error, timeout, or an unexpected status."""

    def __init__(self, kind: str, detail: str = ""):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Response:
    __slots__ = ("status", "headers", "cookies", "body", "done")

    def __init__(self, status, headers, cookies, body, done):
        self.status, self.headers, self.cookies, self.body, self.done = (
            status, headers, cookies, body, done)

    def text(self) -> bytes:
        """The body, gunzipped if it was sent compressed."""
        if self.headers.get("content-encoding") == "gzip":
            return zlib.decompress(self.body, 16 + zlib.MAX_WBITS)
        return self.body


class Conn:
    """One HTTP/1.1 connection over a raw (gevent) socket."""

    def __init__(self, timeout: float = REQUEST_TIMEOUT):
        # A numeric address: no resolver (gevent's runs getaddrinfo in a thread pool).
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self.sock.connect((HOST, PORT))
        except BaseException:
            self.sock.close()
            raise
        self.buf = bytearray()
        self.requests = 0

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def _recv(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("connection closed by the server")
        self.buf += data

    def read_head(self):
        while True:
            i = self.buf.find(b"\r\n\r\n")
            if i >= 0:
                break
            if len(self.buf) > 65536:
                raise HTTPFailure("bad_response", "headers too long")
            self._recv()
        head = bytes(self.buf[:i]).decode("latin-1")
        del self.buf[:i + 4]
        lines = head.split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        cookies: list[str] = []
        for line in lines[1:]:
            key, _, value = line.partition(":")
            key = key.strip().lower()
            value = value.strip()
            if key == "set-cookie":
                cookies.append(value)
            else:
                headers[key] = value
        return status, headers, cookies

    def read_exact(self, n: int) -> bytes:
        while len(self.buf) < n:
            self._recv()
        data = bytes(self.buf[:n])
        del self.buf[:n]
        return data

    def read_line(self) -> bytes:
        while True:
            i = self.buf.find(b"\r\n")
            if i >= 0:
                line = bytes(self.buf[:i])
                del self.buf[:i + 2]
                return line
            self._recv()

    def read_chunk(self) -> bytes:
        """One chunk of a chunked body (b"" for the last one)."""
        size = int(self.read_line().split(b";")[0], 16)
        if size == 0:
            self.read_line()
            return b""
        data = self.read_exact(size)
        self.read_line()
        return data

    def read_body(self, method: str, status: int, headers: dict) -> bytes:
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            return b""
        if "content-length" in headers:
            return self.read_exact(int(headers["content-length"]))
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            for _ in range(100000):
                chunk = self.read_chunk()
                if not chunk:
                    break
                parts.append(chunk)
            return b"".join(parts)
        parts = [bytes(self.buf)]    # until the server closes
        self.buf.clear()
        for _ in range(100000):
            data = self.sock.recv(65536)
            if not data:
                break
            parts.append(data)
        return b"".join(parts)

    def send(self, method: str, path: str, headers: list[tuple[str, str]],
             body: bytes | None = None) -> None:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{PORT}"]
        lines += [f"{k}: {v}" for k, v in headers]
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        self.sock.sendall(raw + body if body else raw)
        self.requests += 1

    def request(self, method, path, headers, body=None) -> Response:
        self.send(method, path, headers, body)
        status, hdrs, cookies = self.read_head()
        data = self.read_body(method, status, hdrs)
        return Response(status, hdrs, cookies, data, now())


def form_body(fields: dict) -> bytes:
    return "&".join(f"{quote(str(k))}={quote(str(v))}" for k, v in fields.items()).encode()


# ---------------------------------------------------------------- the record of a run

class Record:
    """Counts and raw timings of one client process."""

    def __init__(self):
        self.errors: dict[str, int] = {}
        self.error_samples: list[str] = []
        self.requests: dict[str, int] = {}
        self.measuring = False

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
        if len(self.error_samples) < 30:
            self.error_samples.append(f"{kind}: {detail}"[:300])

    def count(self, what: str) -> None:
        self.requests[what] = self.requests.get(what, 0) + 1


REC = Record()


# ---------------------------------------------------------------- a phone

class Phone:
    """One simulated phone: its own cookie jar, its live stream, its fragment fetches.

    It behaves like the page's old script (today the page declares its refresh in
    templates/tables/_play.html: one GET /play?since=<version> per `changed`, morphed in,
    leaving a typed-in form alone): on `changed` with a version newer than its sheet it
    fetches /play (the sheet and a fresh form in one answer) when its form is older than that
    version too (the form is never being typed in here, but the phone whose own entry is on
    the way leaves its form alone), else /play read for its sheet alone (the app has no
    separate sheet or form fragment); after a fetch it catches up if a
    newer version was announced meanwhile. Each request opens a new connection, as a browser does after
    30 s of silence (gunicorn closes idle keep-alive connections after 2 s).
    """

    def __init__(self, table: "Table", seat: int):
        self.table = table
        self.seat = seat
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.sheet_version = -1
        self.form_version = -1
        self.latest = -1
        self.events: list[tuple[int, float]] = []    # (version, arrival) of `changed`
        self.sheets: list[tuple[int, float]] = []    # (version, arrival) of a full sheet
        self.sheet_busy = False
        self.entry_busy = False
        self.stream_conn: Conn | None = None
        self.stream_open = False
        self.stream_first = gevent.event.Event()
        self.reconnects = 0
        self.stream_greenlet = None
        self.quiet = False
        self.posting = False       # its own entry is on the way: its form isn't pristine

    # -- HTTP
    def _headers(self, hx: bool, extra=()) -> list[tuple[str, str]]:
        h = [("User-Agent", USER_AGENT), ("Accept", "text/html,*/*;q=0.8"),
             ("Accept-Encoding", "gzip, deflate"), ("Accept-Language", "en-GB,en;q=0.9"),
             ("Connection", "close")]
        if self.cookies:
            h.append(("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
        if hx:
            h += [("HX-Request", "true"), ("Sec-Fetch-Site", "same-origin")]
            if self.csrf:
                h.append(("X-CSRFToken", self.csrf))
        h.extend(extra)
        return h

    def _keep_cookies(self, cookies: list[str]) -> None:
        for c in cookies:
            pair = c.split(";", 1)[0]
            name, _, value = pair.partition("=")
            attrs = c.lower()
            if "max-age=0" in attrs or "expires=thu, 01 jan 1970" in attrs:
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = value.strip()

    def open_join_link(self, token: str) -> Response:
        """Scan a table's QR (/j#<token>) as a browser does: the /j page, then the POST
        its script makes with the fragment's token (answered with a 303 to the table)."""
        r = self.call("setup", "GET", "/j")
        self.csrf = CSRF_RE.search(r.text()).group(1).decode()
        return self.call("setup", "POST", "/j", ok=(303,),
                         form={"csrf_token": self.csrf, "token": token})

    def call(self, what: str, method: str, path: str, form: dict | None = None,
             hx: bool = False, ok=(200,)) -> Response:
        body = form_body(form) if form is not None else None
        extra = [("Content-Type", "application/x-www-form-urlencoded"),
                 ("Origin", f"http://{HOST}:{PORT}")] if form is not None else ()
        REC.count(what)
        try:
            with gevent.Timeout(REQUEST_TIMEOUT, HTTPFailure("timeout", f"{method} {path}")):
                conn = Conn()
                try:
                    r = conn.request(method, path, self._headers(hx, extra), body)
                finally:
                    conn.close()
        except HTTPFailure:
            raise
        except (OSError, ConnectionError, ValueError) as exc:
            raise HTTPFailure("connection", f"{what} {method} {path}: {exc!r}") from None
        self._keep_cookies(r.cookies)
        if r.status not in ok:
            raise HTTPFailure(f"status_{r.status}", f"{what} {method} {path}: {r.body[:200]!r}")
        return r

    # -- the live stream
    def start_stream(self) -> None:
        self.stream_greenlet = gevent.spawn(self._stream_loop)

    def stop_stream(self) -> None:
        self.stream_open = False
        if self.stream_conn is not None:
            self.stream_conn.close()
        if self.stream_greenlet is not None:
            self.stream_greenlet.kill(block=False)

    def _stream_loop(self) -> None:
        self.stream_open = True
        for attempt in range(MAX_RECONNECTS + 1):
            if not self.stream_open or now() > DEADLINE:
                return
            started = now()
            try:
                self._stream_once()
                reason = "ended"
            except gevent.GreenletExit:
                return
            except Exception as exc:  # noqa: BLE001 - every failure is counted
                reason = f"{type(exc).__name__}: {exc}"
            if not self.stream_open:
                return
            lived = now() - started
            # The server ends a stream after LIVE_MAX_SECONDS (300 s) and the page
            # reconnects: that is normal. Anything sooner is a dropped stream.
            if reason == "ended" and lived >= LIVE_MAX_SECONDS - 5:
                REC.count("stream_renewed")
            else:
                REC.error("stream_dropped", f"after {lived:.1f} s: {reason}")
            self.reconnects += 1
            gevent.sleep(1.0)   # the stream's `retry: 1000`

    def _stream_once(self) -> None:
        REC.count("events")
        conn = self.stream_conn = Conn(timeout=STREAM_SILENCE)
        try:
            conn.send("GET", f"/t/{self.table.id}/stream",
                      self._headers(True, [("Accept", "text/event-stream"),
                                           ("Cache-Control", "no-cache")]))
            status, headers, _cookies = conn.read_head()
            if status != 200:
                raise HTTPFailure(f"status_{status}", "events")
            chunked = headers.get("transfer-encoding", "").lower() == "chunked"
            pending = b""
            for _ in range(10_000_000):
                if chunked:
                    data = conn.read_chunk()
                    if not data:
                        return
                else:
                    data = bytes(conn.buf) or conn.sock.recv(65536)
                    conn.buf.clear()
                    if not data:
                        return
                arrived = now()
                pending += data
                while b"\n\n" in pending:
                    block, pending = pending.split(b"\n\n", 1)
                    self._on_event(block, arrived)
        finally:
            conn.close()
            self.stream_conn = None

    def _on_event(self, block: bytes, arrived: float) -> None:
        event, data = "message", b""
        for line in block.split(b"\n"):
            if line.startswith(b"event:"):
                event = line[6:].strip().decode()
            elif line.startswith(b"data:"):
                data = line[5:].strip()
        if event == "changed":
            version = int(data)
            self.events.append((version, arrived))
            self.stream_first.set()
            self.on_version(version)
        elif event == "ping":
            REC.count("pings")

    # -- what the page does on `changed`
    def on_version(self, version: int) -> None:
        if self.quiet:
            return
        if version > self.latest:
            self.latest = version
        need_sheet = version > self.sheet_version and not self.sheet_busy
        need_form = version > self.form_version and not self.entry_busy and not self.posting
        if need_sheet and need_form:
            # The page fetches /play (sheet and form together) when its form is untouched.
            self.sheet_busy = self.entry_busy = True
            gevent.spawn(self._fetch_play)
            return
        if need_sheet:
            self.sheet_busy = True
            gevent.spawn(self._fetch_sheet)
        if need_form:
            self.entry_busy = True
            gevent.spawn(self._fetch_entry)

    def _fetch_play(self) -> None:
        try:
            for _ in range(20):
                r = self.call("play", "GET", f"/t/{self.table.id}/play", hx=True)
                text = r.text()
                sheet, form = VERSION_RE.search(text), FORM_VERSION_RE.search(text)
                if sheet is None or form is None:
                    REC.error("bad_play", text[:200].decode(errors="replace"))
                    return
                v = int(sheet.group(1))
                if v < self.sheet_version:
                    REC.error("stale_sheet", f"{v} < {self.sheet_version}")
                self.sheets.append((v, r.done))
                self.sheet_version = max(self.sheet_version, v)
                self.form_version = max(self.form_version, int(form.group(1)))
                if self.latest <= min(self.sheet_version, self.form_version):
                    return
        except HTTPFailure as exc:
            REC.error(exc.kind, exc.detail)
        finally:
            self.sheet_busy = self.entry_busy = False

    def _fetch_sheet(self) -> None:
        try:
            for _ in range(20):
                r = self.call("sheet", "GET", f"/t/{self.table.id}/play", hx=True)
                m = VERSION_RE.search(r.text())
                if m is None:
                    REC.error("bad_sheet", r.text()[:200].decode(errors="replace"))
                    return
                v = int(m.group(1))
                if v < self.sheet_version:
                    REC.error("stale_sheet", f"{v} < {self.sheet_version}")
                self.sheets.append((v, r.done))
                self.sheet_version = max(self.sheet_version, v)
                if self.latest <= self.sheet_version:
                    return
        except HTTPFailure as exc:
            REC.error(exc.kind, exc.detail)
        finally:
            self.sheet_busy = False

    def _fetch_entry(self) -> None:
        try:
            for _ in range(20):
                r = self.call("entry", "GET", f"/t/{self.table.id}/play", hx=True)
                m = FORM_VERSION_RE.search(r.text())
                if m is None:
                    REC.error("bad_entry", r.text()[:200].decode(errors="replace"))
                    return
                self.form_version = max(self.form_version, int(m.group(1)))
                if self.latest <= self.form_version:
                    return
        except HTTPFailure as exc:
            REC.error(exc.kind, exc.detail)
        finally:
            self.entry_busy = False


# ---------------------------------------------------------------- a table

class Table:
    def __init__(self, index: int, token: str | None = None):
        self.index = index
        self.token = token          # an event's table (--tokens): join it, don't create one
        self.id = ""
        self.version = 0            # the version this client last made or saw
        self.phones: list[Phone] = []
        self.entries: list[dict] = []
        self.next_seat = 0

    def setup(self, seats: int = 5, streams: bool = True) -> None:
        """Create the table on a phone, join the others by the QR URL and seat them."""
        if self.token:
            self._join_event_table(seats)
        else:
            self._create(seats)
        for p in self.phones:   # the page's first load: its sheet and form
            r = p.call("setup", "GET", f"/t/{self.id}/play", hx=True)
            p.sheet_version = p.form_version = p.latest = int(VERSION_RE.search(r.text()).group(1))
        self.version = max(p.sheet_version for p in self.phones)
        if streams:
            for p in self.phones:
                p.start_stream()

    def _join_event_table(self, seats: int) -> None:
        """An event's table (bench_load.py --event): the director's seating made it and
        freed seat 0, so every phone scans the table's QR (/j#<token>) and claims its
        seat, phone 0 included, the way the joining phones do below."""
        for pos in range(seats):
            p = Phone(self, pos)
            r = p.open_join_link(self.token)
            path = urlsplit(r.headers["location"]).path
            table_id = TABLE_PATH_RE.match(path).group(1)
            if self.id and table_id != self.id:
                raise HTTPFailure("bad_join", f"/j#{self.token} led to {table_id}, not {self.id}")
            self.id = table_id
            r = p.call("setup", "GET", path)
            p.csrf = CSRF_RE.search(r.text()).group(1).decode()
            p.call("setup", "POST", f"/t/{self.id}/seats", ok=(303,),
                   form={"csrf_token": p.csrf, "seat": pos})
            self.phones.append(p)

    def _create(self, seats: int) -> None:
        host = Phone(self, 0)
        r = host.call("setup", "GET", "/new/scorepad")
        host.csrf = CSRF_RE.search(r.text()).group(1).decode()
        names = {f"name_{i}": f"P{i + 1}-{self.index}" for i in range(seats)}
        r = host.call("setup", "POST", "/new/scorepad", ok=(303,),
                      form={"csrf_token": host.csrf, **names, "me": 0, "target": "",
                            "rounds": "", "low_wins": "off"})
        self.id = urlsplit(r.headers["location"]).path.rstrip("/").split("/")[-1]
        self.phones.append(host)
        if seats > 1:
            r = host.call("setup", "GET", f"/t/{self.id}")
            token = urlsplit(JOIN_RE.search(r.text()).group(1).decode().strip()).fragment
            for pos in range(1, seats):
                p = Phone(self, pos)
                r = p.open_join_link(token)
                r = p.call("setup", "GET", urlsplit(r.headers["location"]).path)
                p.csrf = CSRF_RE.search(r.text()).group(1).decode()
                p.call("setup", "POST", f"/t/{self.id}/seats", ok=(303,),
                       form={"csrf_token": p.csrf, "seat": pos})
                self.phones.append(p)

    def enter(self, measured: bool, burst: bool = False, planned: float | None = None) -> None:
        """One phone (the seats take turns) saves a round against the version it shows."""
        phone = self.phones[self.next_seat % len(self.phones)]
        self.next_seat += 1
        before = self.version
        expect = before + 1
        form = {"csrf_token": phone.csrf, "sid": secrets.token_urlsafe(16), "version": before}
        form.update({f"score_{i}": random.randint(-20, 60) for i in range(len(self.phones))})
        record = {"table": self.index, "v": expect, "seat": phone.seat, "burst": burst,
                  "measured": measured, "planned": planned, "sent": now()}
        self.entries.append(record)
        phone.posting = True
        try:
            r = phone.call("entry_post", "POST", f"/t/{self.id}/actions", form=form, hx=True)
        except HTTPFailure as exc:
            record["error"] = exc.kind
            REC.error(exc.kind, exc.detail)
            self.resync(phone)
            return
        finally:
            phone.posting = False
        record["answered"] = r.done
        m = VERSION_RE.search(r.text())
        got = int(m.group(1)) if m else -1
        if got != expect:
            record["error"] = "unexpected_version"
            REC.error("unexpected_version", f"{got} != {expect}")
        self.version = max(self.version, got)
        phone.sheets.append((got, r.done))       # the answer carries the new sheet and form
        phone.sheet_version = max(phone.sheet_version, got)
        phone.form_version = max(phone.form_version, got)
        phone.latest = max(phone.latest, got)

    def resync(self, phone: Phone) -> None:
        try:
            r = phone.call("resync", "GET", f"/t/{self.id}/play", hx=True)
            self.version = int(VERSION_RE.search(r.text()).group(1))
        except Exception as exc:  # noqa: BLE001
            REC.error("resync", repr(exc))


# ---------------------------------------------------------------- load mode

def first_at_or_above(pairs: list[tuple[int, float]], version: int) -> float | None:
    best = None
    for v, t in pairs:
        if v >= version and (best is None or t < best):
            best = t
    return best


def analyse(tables: list[Table]) -> list[dict]:
    """Per entry: POST round trip, and when every phone of the table had the change."""
    out = []
    for table in tables:
        for e in table.entries:
            if "error" in e or not e["measured"]:
                out.append({k: e.get(k) for k in ("table", "v", "burst", "measured", "error")})
                continue
            row = {"table": e["table"], "v": e["v"], "burst": e["burst"], "measured": True,
                   "planned": e["planned"], "sent": e["sent"],
                   "post_ms": (e["answered"] - e["sent"]) * 1000}
            sheet_ms, event_ms, missing = [], [], 0
            for p in table.phones:
                t_sheet = first_at_or_above(p.sheets, e["v"])
                if t_sheet is None:
                    missing += 1
                else:
                    sheet_ms.append((t_sheet - e["sent"]) * 1000)
                if p.seat != e["seat"]:
                    t_event = first_at_or_above(p.events, e["v"])
                    if t_event is not None:
                        event_ms.append((t_event - e["sent"]) * 1000)
            row["all_phones_ms"] = max(sheet_ms) if not missing else None
            row["all_events_ms"] = max(event_ms) if len(event_ms) == len(table.phones) - 1 else None
            row["missing_phones"] = missing
            out.append(row)
    return out


def schedule_for(rng: random.Random, duration: float, period: float, jitter: float,
                 burst_at: float | None) -> list[tuple[float, bool]]:
    """Entry times for one table: about every `period` s, jittered; one burst entry."""
    times = []
    t = rng.uniform(0, period)
    for _ in range(100000):
        if t >= duration:
            break
        if burst_at is None or abs(t - burst_at) > period / 2:
            times.append((t, False))
        t += rng.uniform(period - jitter, period + jitter)
    if burst_at is not None:
        times.append((burst_at + rng.uniform(0, 1.0), True))
        times.sort()
    return times


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def wait_go() -> float:
    """Read bench_load.py's go line without blocking the streams' greenlets."""
    gevent.os.make_nonblocking(0)
    data = b""
    while b"\n" not in data:
        if now() > DEADLINE:
            sys.exit(2)
        chunk = gevent.os.nb_read(0, 4096)
        if not chunk:
            sys.exit(2)
        data += chunk
    return float(json.loads(data.split(b"\n", 1)[0])["go"])


def run_load(args) -> dict:
    rng = random.Random(args.seed)
    tokens: list = [None] * args.tables
    if args.tokens:     # an event's tables (bench_load.py --event): this client's share
        with open(args.tokens) as fh:
            tokens = json.load(fh)["tokens"][args.first:args.first + args.tables]
        if len(tokens) != args.tables:
            raise SystemExit(f"--tokens has {len(tokens)} tables for this client, not {args.tables}")
    tables = [Table(args.first + i, tokens[i]) for i in range(args.tables)]
    t_setup = now()
    pool = Pool(args.setup_concurrency)
    for table in tables:
        pool.spawn(_setup_one, table)
    pool.join(timeout=max(1.0, DEADLINE - now()))
    failed_setup = [t.index for t in tables if len(t.phones) != 5 or not t.id]
    tables = [t for t in tables if t.id and len(t.phones) == 5]
    phones = [p for t in tables for p in t.phones]
    for p in phones:     # each stream's first event (the catch-up version)
        p.stream_first.wait(timeout=max(0.1, min(60.0, DEADLINE - now())))
    setup_seconds = now() - t_setup
    # Warm-up (not measured): a few entries so each worker has compiled every template.
    warm = tables[:args.warmup]
    gevent.joinall([gevent.spawn(t.enter, False) for t in warm], timeout=30)
    gevent.sleep(2.0)
    streams_open = sum(1 for p in phones if p.stream_conn is not None)
    send({"ready": {"tables": len(tables), "phones": len(phones), "streams_open": streams_open,
                    "setup_seconds": setup_seconds, "failed_setup": len(failed_setup),
                    "errors": dict(REC.errors)}})
    t0 = wait_go()
    errors_before = dict(REC.errors)
    REC.errors.clear()
    REC.measuring = True
    burst_tables = set(range(min(args.burst_tables, len(tables))))
    greenlets = []
    for i, table in enumerate(tables):
        plan = schedule_for(rng, args.duration, args.period, args.jitter,
                            args.burst_at if i in burst_tables else None)
        greenlets.append(gevent.spawn(_table_loop, table, t0, plan))
    open_samples = []
    end = t0 + args.duration + args.drain
    for _ in range(100000):
        if now() >= end or now() > DEADLINE:
            break
        open_samples.append(sum(1 for p in phones if p.stream_conn is not None))
        gevent.sleep(min(1.0, max(0.0, end - now())))
    gevent.joinall(greenlets, timeout=max(0.1, DEADLINE - now()))
    REC.measuring = False
    for p in phones:
        p.stop_stream()
    rows = analyse(tables)
    return {"tables": len(tables), "phones": len(phones), "setup_seconds": setup_seconds,
            "failed_setup": failed_setup, "setup_errors": errors_before,
            "errors": REC.errors, "error_samples": REC.error_samples,
            "requests": REC.requests, "streams_open_min": min(open_samples or [0]),
            "streams_open_max": max(open_samples or [0]),
            "reconnects": sum(p.reconnects for p in phones), "t0": t0, "entries": rows}


def _setup_one(table: Table) -> None:
    try:
        with gevent.Timeout(120):
            table.setup()
    except BaseException as exc:  # noqa: BLE001 - a failed setup is reported, not fatal
        REC.error("setup", repr(exc))
        for p in table.phones:
            p.stop_stream()
        table.phones = []


def _table_loop(table: Table, t0: float, plan: list[tuple[float, bool]]) -> None:
    for at, burst in plan:
        delay = t0 + at - now()
        if delay > 0:
            gevent.sleep(delay)
        if now() > DEADLINE:
            return
        table.enter(True, burst, at)


# ---------------------------------------------------------------- throughput mode

def run_throughput(args) -> dict:
    """Closed loop: K connections, each sends its next request as soon as the last returns."""
    tables: list[Table] = []
    if args.target == "entry":
        pool = Pool(args.setup_concurrency)
        tables = [Table(args.first + i) for i in range(args.tables)]
        for t in tables:
            pool.spawn(_setup_throughput_table, t)
        pool.join(timeout=max(1.0, DEADLINE - now()))
        tables = [t for t in tables if t.id and t.phones]
        for t in tables:
            t.phones[0].stream_first.wait(timeout=max(0.1, min(30.0, DEADLINE - now())))
    send({"ready": {"tables": len(tables), "errors": dict(REC.errors)}})
    t0 = wait_go()
    warm_end, stop = t0 + args.warmup_seconds, t0 + args.warmup_seconds + args.seconds
    results = [dict(ok=0, errors=0, lat=[]) for _ in range(args.conns)]
    share = [tables[i::args.conns] for i in range(args.conns)] if tables else None
    while now() < t0:
        gevent.sleep(min(0.05, t0 - now()))
    gevent.joinall([gevent.spawn(_closed_loop, i, args, results[i], share[i] if share else None,
                                 warm_end, stop) for i in range(args.conns)],
                   timeout=max(0.1, DEADLINE - now()))
    lat = sorted(x for r in results for x in r["lat"])
    for t in tables:
        t.phones[0].stop_stream()
    return {"target": args.target, "conns": args.conns, "seconds": args.seconds,
            "ok": sum(r["ok"] for r in results), "errors": sum(r["errors"] for r in results),
            "error_kinds": REC.errors, "error_samples": REC.error_samples,
            "latency_ms": lat[::max(1, len(lat) // 20000)], "t_measure": [warm_end, stop]}


def _setup_throughput_table(table: Table) -> None:
    try:
        with gevent.Timeout(60):
            _creator_only(table)
    except BaseException as exc:  # noqa: BLE001
        REC.error("setup", repr(exc))
        table.id = ""


def _creator_only(table: Table) -> None:
    """A score pad for five at which only the creating phone is seated (no streams)."""
    host = Phone(table, 0)
    r = host.call("setup", "GET", "/new/scorepad")
    host.csrf = CSRF_RE.search(r.text()).group(1).decode()
    names = {f"name_{i}": f"P{i + 1}-{table.index}" for i in range(5)}
    r = host.call("setup", "POST", "/new/scorepad", ok=(303,),
                  form={"csrf_token": host.csrf, **names, "me": 0, "target": "", "rounds": "",
                        "low_wins": "off"})
    table.id = urlsplit(r.headers["location"]).path.rstrip("/").split("/")[-1]
    r = host.call("setup", "GET", f"/t/{table.id}/play", hx=True)
    table.version = host.sheet_version = host.form_version = host.latest = \
        int(VERSION_RE.search(r.text()).group(1))
    table.phones = [host]
    host.quiet = True    # holds its stream like a phone, but fetches nothing on `changed`
    host.start_stream()


def _closed_loop(i: int, args, result: dict, tables: list[Table] | None, warm_end: float,
                 stop: float) -> None:
    conn = None
    k = 0
    # Open the keep-alive connections one after another over the first half of the
    # warm-up: opened all at once, they could all be accepted by one of gunicorn's two
    # workers (whichever was waiting in accept), which then serves the whole run alone.
    gevent.sleep(i * max(0.0, warm_end - now()) / 2 / max(1, args.conns))
    for _ in range(10_000_000):
        if now() >= stop or now() > DEADLINE:
            break
        if tables:
            table = tables[k % len(tables)]
            phone = table.phones[0]
            k += 1
            form = {"csrf_token": phone.csrf, "sid": secrets.token_urlsafe(16),
                    "version": table.version}
            form.update({f"score_{p}": random.randint(-20, 60) for p in range(5)})
            path = f"/t/{table.id}/actions"
            headers = [h for h in phone._headers(True) if h[0] != "Connection"]
        else:
            form = {"sid": secrets.token_urlsafe(16), "score": random.randint(-20, 60)}
            path = args.path
            headers = [("User-Agent", USER_AGENT), ("Accept", "text/html,*/*;q=0.8"),
                       ("Accept-Encoding", "gzip, deflate"), ("HX-Request", "true")]
        headers += [("Content-Type", "application/x-www-form-urlencoded"),
                    ("Origin", f"http://{HOST}:{PORT}")]
        body = form_body(form)
        started = now()
        try:
            with gevent.Timeout(REQUEST_TIMEOUT, HTTPFailure("timeout", path)):
                if conn is None:
                    conn = Conn()
                r = conn.request("POST", path, headers, body)
            if r.headers.get("connection", "").lower() == "close":
                conn.close()
                conn = None
            if r.status != 200:
                raise HTTPFailure(f"status_{r.status}", r.body[:200].decode(errors="replace"))
            if tables:
                m = VERSION_RE.search(r.text())
                table.version = int(m.group(1))
        except (HTTPFailure, OSError, ConnectionError, ValueError) as exc:
            if conn is not None:
                conn.close()
                conn = None
            if started >= warm_end:
                result["errors"] += 1
                REC.error(getattr(exc, "kind", type(exc).__name__), str(exc))
            if tables:
                table.resync(phone)
            continue
        if warm_end <= started and r.done <= stop:
            result["ok"] += 1
            result["lat"].append((r.done - started) * 1000)
    if conn is not None:
        conn.close()


# ---------------------------------------------------------------- watch mode (--event)

PROJECTOR_NEXT_RE = re.compile(rb'id="projector"[^>]*hx-get="([^"]+)"')


class Watcher:
    """One open page of the event that polls it the way it does in a browser.

    htmx's `every Ns` on an element swapped by outerHTML starts its next timer once the
    answer is swapped in, so a page asks, waits for the answer, waits N s, and asks again.
    Each request opens a new connection (the keep-alive one has long been closed), with
    the page's cookies; `hx` ones carry HX-Request and get the fragment.
    """

    def __init__(self, kind: str, path: str, period: float, hx: bool, cookies: dict,
                 marker: bytes):
        self.kind, self.path, self.period, self.hx = kind, path, period, hx
        self.cookies = dict(cookies)
        self.marker = marker
        self.samples: list[tuple[float, float, int, int]] = []  # start, ms, wire, html bytes
        self.errors: dict[str, int] = {}
        self.error_samples: list[str] = []
        self.setup_errors: dict[str, int] = {}

    def _headers(self) -> list[tuple[str, str]]:
        h = [("User-Agent", USER_AGENT), ("Accept", "text/html,*/*;q=0.8"),
             ("Accept-Encoding", "gzip, deflate"), ("Accept-Language", "en-GB,en;q=0.9"),
             ("Connection", "close")]
        if self.cookies:
            h.append(("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
        if self.hx:
            h += [("HX-Request", "true"), ("Sec-Fetch-Site", "same-origin")]
        return h

    def _error(self, measured: bool, kind: str, detail: str) -> None:
        into = self.errors if measured else self.setup_errors
        into[kind] = into.get(kind, 0) + 1
        if len(self.error_samples) < 5:
            self.error_samples.append(f"{self.kind} {kind}: {detail}"[:300])

    def fetch(self, measured: bool) -> bytes | None:
        """One poll; its timing is kept when `measured`. The page's HTML, or None."""
        REC.count(f"watch_{self.kind}")
        started = now()
        try:
            with gevent.Timeout(REQUEST_TIMEOUT, HTTPFailure("timeout", f"GET {self.path}")):
                conn = Conn()
                try:
                    r = conn.request("GET", self.path, self._headers())
                finally:
                    conn.close()
        except HTTPFailure as exc:
            self._error(measured, exc.kind, exc.detail)
            return None
        except (OSError, ConnectionError, ValueError) as exc:
            self._error(measured, "connection", f"GET {self.path}: {exc!r}")
            return None
        for c in r.cookies:     # a player's phone keeps its name cookie
            name, _, value = c.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        if r.status != 200:
            self._error(measured, f"status_{r.status}", f"GET {self.path}: {r.body[:200]!r}")
            return None
        try:
            text = r.text()
        except zlib.error as exc:
            self._error(measured, "bad_body", f"GET {self.path}: {exc!r}")
            return None
        if self.marker not in text:
            self._error(measured, "bad_body", f"GET {self.path}: no {self.marker!r}: {text[:200]!r}")
            return None
        if measured:
            self.samples.append((started, (r.done - started) * 1000, len(r.body), len(text)))
        return text

    def follow(self, text: bytes) -> None:
        """The projector's answer names the page it shows next (hx-get)."""
        m = PROJECTOR_NEXT_RE.search(text)
        if m is None:
            self._error(True, "bad_body", "projector: no hx-get with the next page")
            return
        self.path = m.group(1).decode().replace("&amp;", "&")

    def loop(self, start: float, stop: float) -> None:
        """Poll from `start` until `stop` (no request starts later)."""
        if start > now():
            gevent.sleep(start - now())
        for _ in range(1_000_000):
            if now() >= stop or now() > DEADLINE:
                return
            text = self.fetch(True)
            if text is not None and self.kind == "projector":
                self.follow(text)
            wake = now() + self.period
            if wake >= stop:
                return
            gevent.sleep(wake - now())


def run_watch(args) -> dict:
    """The event's open pages during the measured window: the director's dashboard, the
    projector, the standings page and `--players` players' phones."""
    with open(args.event) as fh:
        event = json.load(fh)
    eid, director = event["event_id"], event["director_cookies"]
    names = event["names"]
    rng = random.Random(args.seed)
    watchers = [
        Watcher("dashboard", f"/e/{eid}", 5.0, True, director, b'id="room"'),
        # 15 rows a screen: what a 1080p projector's script measures (static/js/event.js).
        Watcher("projector", f"/e/{eid}/projector?page=1&rows=15", 10.0, True, {},
                b'id="projector"'),
        Watcher("standings", f"/e/{eid}/standings", 10.0, False, {}, b'id="standings-table"'),
    ]
    step = max(1, len(names) // max(1, args.players)) if names else 1
    for name in names[::step][:args.players]:
        watchers.append(Watcher("players", f"/e/{eid}/players?name={quote(name)}", 20.0, True,
                                {}, b'id="mine"'))
    # Not measured: each page's first load (the players' phones get their name cookie).
    pool = Pool(8)
    for w in watchers:
        pool.spawn(w.fetch, False)
    pool.join(timeout=max(1.0, min(120.0, DEADLINE - now())))
    send({"ready": {"watchers": len(watchers),
                    "setup_errors": {w.kind: w.setup_errors for w in watchers if w.setup_errors}}})
    t0 = wait_go()
    stop = t0 + args.duration
    # Pages were opened at different moments: each starts somewhere in its first period.
    greenlets = [gevent.spawn(w.loop, t0 + rng.uniform(0, w.period), stop) for w in watchers]
    gevent.joinall(greenlets, timeout=max(0.1, DEADLINE - now()))
    out: dict = {}
    for w in watchers:
        k = out.setdefault(w.kind, {"pages": 0, "latency_ms": [], "bytes": [], "html_bytes": [],
                                    "errors": {}, "setup_errors": {}, "error_samples": []})
        k["pages"] += 1
        k["latency_ms"] += [ms for _s, ms, _b, _h in w.samples]
        k["bytes"] += [b for _s, _ms, b, _h in w.samples]
        k["html_bytes"] += [h for _s, _ms, _b, h in w.samples]
        for into, errs in ((k["errors"], w.errors), (k["setup_errors"], w.setup_errors)):
            for kind, count in errs.items():
                into[kind] = into.get(kind, 0) + count
        k["error_samples"] = (k["error_samples"] + w.error_samples)[:10]
    return {"watch": out, "t0": t0, "requests": REC.requests}


# ---------------------------------------------------------------- main

DEADLINE = float("inf")
LIVE_MAX_SECONDS = 300.0


def main() -> int:
    global HOST, PORT, DEADLINE, LIVE_MAX_SECONDS
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("load", "throughput", "watch"))
    parser.add_argument("--url", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--deadline", type=float, required=True, help="hard limit, seconds")
    parser.add_argument("--tables", type=int, default=0)
    parser.add_argument("--first", type=int, default=0, help="index of this client's 1st table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setup-concurrency", type=int, default=16)
    parser.add_argument("--warmup", type=int, default=4, help="unmeasured entries (load)")
    parser.add_argument("--duration", type=float, default=150.0)
    parser.add_argument("--drain", type=float, default=10.0)
    parser.add_argument("--period", type=float, default=30.0)
    parser.add_argument("--jitter", type=float, default=5.0)
    parser.add_argument("--burst-tables", type=int, default=0)
    parser.add_argument("--burst-at", type=float, default=75.0)
    parser.add_argument("--live-max-seconds", type=float, default=300.0)
    parser.add_argument("--target", choices=("baseline", "entry"), default="entry")
    parser.add_argument("--path", default="/write", help="the baseline route")
    parser.add_argument("--conns", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup-seconds", type=float, default=2.0)
    parser.add_argument("--tokens", help="load: a JSON file whose \"tokens\" are an event's "
                        "tables (join tokens); this client joins tokens[first:first+tables]")
    parser.add_argument("--event", help="watch: the JSON file bench_load.py wrote about the event")
    parser.add_argument("--players", type=int, default=50, help="watch: players' phones")
    args = parser.parse_args()
    u = urlsplit(args.url)
    HOST, PORT = u.hostname, u.port
    DEADLINE = now() + args.deadline
    LIVE_MAX_SECONDS = args.live_max_seconds
    with gevent.Timeout(args.deadline + 5, False):
        run = {"load": run_load, "throughput": run_throughput, "watch": run_watch}[args.mode]
        result = run(args)
        result["client_pid"] = os.getpid()
        with open(args.out, "w") as fh:
            json.dump(result, fh)
        send({"done": args.out})
        return 0
    send({"done": None, "error": "deadline"})
    return 3


if __name__ == "__main__":
    sys.exit(main())
