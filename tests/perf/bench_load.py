"""A simulated tournament against the real server: N tables x 5 phones, all live.

    python tests/perf/bench_load.py [--tables 100,250,500] [--duration 150] [--clients 2]
                                    [--no-knee] [--no-throughput] [--json PATH]
                                    [--event [--event-players 50]]

For each N it makes a fresh instance folder and starts the tournament server exactly as
the README says, on loopback only:

    gunicorn -k gevent -w 2 --worker-connections 4000 -b 127.0.0.1:PORT "companion:create_app()"

(COMPANION_INSTANCE_PATH set; the instance's config.py raises JOIN_RATE_LIMIT, since
every simulated phone joins from 127.0.0.1). Then `--clients` load-generator processes
(tests/perf/load_client.py: gevent + raw sockets, each with its share of the tables)
create N score pads for five, join four more phones to each by its QR URL (/j#<TOKEN>)
and seat them, and open all 5N live streams. None of that setup is measured.

The measured part (`--duration` seconds, then up to `--drain` seconds to let the last
changes arrive): every table enters a round about every `--period` s (a random start,
then period +- jitter; the five seats take turns) against the version its phone shows;
at `--burst-at` s, `--burst-tables` tables (100) enter within the same second.

Figures, all from the client's CLOCK_MONOTONIC (shared by every process on Linux):
- entry latency: the POST /t/<id>/actions round trip (htmx request, CSRF token, fresh
  submission id): first byte sent -> last byte of the answer received;
- change on all five phones: from the POST being sent until the last of the table's five
  phones has received the new sheet fragment (`GET /t/<id>/play` answered with a
  `data-version` at least the new one; for the entering phone, the POST's own answer,
  which carries the new sheet). The SSE `changed` event's arrival on the other four
  phones is reported separately;
- errors: any answer outside 2xx/3xx-as-expected, connection errors and timeouts, a
  stream dropped before the server's own 300 s limit, a phone that never got the change,
  a sheet older than one already shown, an entry answered with the wrong version;
- server CPU: utime+stime of the gunicorn master and its workers (/proc/<pid>/stat), as
  cores in use averaged over the measured window, and the busiest one-second window;
- server memory: the sum of the workers' RSS (and of master + workers, and PSS), peak;
- client CPU, the same way, to show the load generator is not the bottleneck.

The knee: the largest N whose entry p99 is <= 250 ms with no errors. Unless `--no-knee`,
after the listed N the script tries larger N (x1.5 each step, up to `--knee-max`) while
they hold and the time budget (`--budget`) allows; the knee reported is bracketed by the
last N that held and the first that did not.

Throughput (unless `--no-throughput`): the score-entry route against a bare Flask route
with one SQLite write and one read (tests/perf/baseline_app.py), under the same gunicorn
command, with the same client and concurrency, in the same run: a closed loop of
`--conns` keep-alive connections (each sends its next request as soon as the last one
is answered) for `--tp-seconds` seconds after `--tp-warmup` seconds of warm-up. Entries
rotate over `--tp-tables` tables (one seated phone each, no streams open), each against
its table's fresh version, so none conflicts. Ratio = entries/s / baseline requests/s.

`--event`: each N is a real tournament's round, with its standings board and dashboard
open. Before the clients' setup (not measured) the bench, as the director (a browser
with a cookie jar), creates a score-pad event of 5N entrants at tables of five (3 rounds;
no target and no round limit, so no table ever ends), seats round 1 (POST /e/<id>/seat:
N new tables, seat 0 freed) and reads the N join tokens off the dashboard's "Open table"
buttons (the printed cards carry them only inside their QR codes). The clients then make
no tables: each table's five phones open /j#<token>, as the card's QR code does, and
claim seats 0..4. Everything after setup is the same as without `--event`. While
measured, a separate watcher process (load_client.py watch) polls the event the way its
open pages do (htmx's `every` restarts its timer once an answer is swapped in, so each
page asks, gets its answer, waits, asks again): the director's dashboard
(GET /e/<id>, HX-Request, the director's cookie, every 5 s), the projector
(GET /e/<id>/projector?page=K, HX-Request, every 10 s, following the page its answer
names next), the standings page (GET /e/<id>/standings, the full page, every 10 s) and
`--event-players` players' phones (GET /e/<id>/players?name=X, HX-Request, every 20 s).
Per kind of page: requests, latency p50/p95/p99/max (first byte sent -> last byte
received, as for entries), kB sent (gzip) and HTML kB, errors (non-200, timeouts,
connection errors, an answer without its page's element); every watcher error counts
in the run's errors, so in whether N held. The seating time of the N tables, and the
times of creating the event and of the cards and dashboard pages' first loads, are
reported too (not measured with the load). An event holds at most 2500 entrants, so
`--event` runs N <= 500 (larger knee steps are skipped). The watchers' CPU is in the
"client" column (and alone in the JSON's event.watch_cores_avg).

`--app-dir DIR` serves the `companion` package found in DIR instead of the installed one:
a snapshot (`git archive HEAD | tar -x -C DIR`), so that edits made in the working tree
during a run can't break it, or an older commit for a before/after comparison. The machine
is often shared: the "other" column is the CPU other processes used during each run, and a
run with more than 0.2 cores of it is marked DISTURBED.

Prints a summary and writes JSON (default test-artifacts/bench_load.json, and the summary
beside it as .txt). Every loop is bounded in count and time; each N has a hard deadline,
and the whole run stops itself. docs/BENCHMARKS.md ("Load") has the figures.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlsplit

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))      # tests/: the shared test helpers

from helpers import free_port, machine  # noqa: E402

CLIENT = HERE / "load_client.py"
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
KNEE_P99_MS = 250.0
EVENT_MAX_TABLES = 500    # --event: an event has at most 2500 entrants (companion/events/entrants.py)
WATCH_KINDS = ("dashboard", "projector", "standings", "players")
NOISY_CORES = 0.2     # other processes' CPU during a run above which its figures are suspect
now = time.monotonic


# ---------------------------------------------------------------- machine and processes


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []


def cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError):
        return 0.0


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (all CPUs), from /proc/stat."""
    with open("/proc/stat") as fh:
        f = [int(x) for x in fh.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal (guest time is inside user)
    return (f[0] + f[1] + f[2] + f[5] + f[6] + f[7]) / CLK_TCK


def rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * PAGE
    except (OSError, IndexError):
        return 0


def pss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Sampler(threading.Thread):
    """Every 0.5 s: CPU seconds and memory of the server's processes and the clients'."""

    def __init__(self, master: int, clients: list[int]):
        super().__init__(daemon=True)
        self.master, self.clients = master, clients
        self.samples: list[dict] = []
        self.stop_at = now() + 3600
        self._halt = threading.Event()

    def run(self) -> None:
        k = 0
        while not self._halt.is_set() and now() < self.stop_at:
            workers = children(self.master)
            sample = {
                "t": now(),
                "server_cpu": cpu_seconds(self.master) + sum(cpu_seconds(w) for w in workers),
                "workers_cpu": [cpu_seconds(w) for w in workers],
                "workers_rss": sum(rss_bytes(w) for w in workers),
                "server_rss": rss_bytes(self.master) + sum(rss_bytes(w) for w in workers),
                "client_cpu": sum(cpu_seconds(c) for c in self.clients),
                "clients_cpu": [cpu_seconds(c) for c in self.clients],
                "machine_busy": machine_busy(),
                "workers": len(workers),
            }
            if k % 4 == 0:
                sample["server_pss"] = pss_bytes(self.master) + sum(pss_bytes(w) for w in workers)
            self.samples.append(sample)
            k += 1
            self._halt.wait(0.5)

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=5)

    def window(self, start: float, end: float) -> dict:
        inside = [s for s in self.samples if start <= s["t"] <= end]
        if len(inside) < 2:
            return {}
        first, last = inside[0], inside[-1]
        wall = last["t"] - first["t"]
        peak = 0.0
        for i in range(len(inside)):     # the busiest ~1 s window
            j = next((j for j in range(i + 1, len(inside)) if inside[j]["t"] - inside[i]["t"] >= 0.95),
                     None)
            if j is not None:
                d = (inside[j]["server_cpu"] - inside[i]["server_cpu"]) / (inside[j]["t"] - inside[i]["t"])
                peak = max(peak, d)
        client_peak = 0.0             # the busiest client process in its busiest ~1 s
        for i in range(len(inside)):
            j = next((j for j in range(i + 1, len(inside)) if inside[j]["t"] - inside[i]["t"] >= 0.95),
                     None)
            if j is not None:
                dt = inside[j]["t"] - inside[i]["t"]
                client_peak = max([client_peak] + [(b - a) / dt for a, b in
                                   zip(inside[i]["clients_cpu"], inside[j]["clients_cpu"])])
        per_worker = []
        if len(first["workers_cpu"]) == len(last["workers_cpu"]):
            per_worker = [round((b - a) / wall, 3) for a, b in
                          zip(first["workers_cpu"], last["workers_cpu"])]
        pss = [s["server_pss"] for s in inside if "server_pss" in s]
        return {
            "seconds": round(wall, 1),
            "server_cores_avg": round((last["server_cpu"] - first["server_cpu"]) / wall, 3),
            "server_cores_peak_1s": round(peak, 3),
            "server_cores_per_worker": per_worker,
            "client_cores_avg": round((last["client_cpu"] - first["client_cpu"]) / wall, 3),
            "client_process_peak_1s": round(client_peak, 3),
            # Everything else the machine ran meanwhile (other people's tests, the kernel):
            "other_cores_avg": round((last["machine_busy"] - first["machine_busy"]
                                      - (last["server_cpu"] - first["server_cpu"])
                                      - (last["client_cpu"] - first["client_cpu"])) / wall, 3),
            "workers_rss_peak_mb": round(max(s["workers_rss"] for s in inside) / 2**20, 1),
            "server_rss_peak_mb": round(max(s["server_rss"] for s in inside) / 2**20, 1),
            "server_pss_peak_mb": round(max(pss) / 2**20, 1) if pss else None,
            "workers_rss_end_mb": round(last["workers_rss"] / 2**20, 1),
        }


# ---------------------------------------------------------------- the server

def gunicorn_command(port: int, app: str, chdir: Path | None = None) -> list[str]:
    cmd = [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "2",
           "--worker-connections", "4000", "-b", f"127.0.0.1:{port}", "--log-level", "warning"]
    if chdir is not None:
        cmd += ["--chdir", str(chdir)]
    cmd += os.environ.get("BENCH_GUNICORN_EXTRA", "").split()   # diagnostics only
    return cmd + [app]


class Server:
    def __init__(self, app: str, instance: Path, env: dict, chdir: Path | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.instance = instance
        self.log = instance / "gunicorn.log"
        self.cmd = gunicorn_command(self.port, app, chdir)
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(self.cmd, cwd=instance, env={**os.environ, **env},
                                         stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        deadline = now() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as r:
                    if r.status == 200 and len(children(self.proc.pid)) >= 2:
                        break
            except OSError:
                pass
            if now() > deadline:
                self.stop()
                raise RuntimeError(f"gunicorn did not answer:\n{self.output()}")
            time.sleep(0.2)
        # Both workers must have imported the app (each answers its first request lazily).
        for _ in range(8):
            try:
                urllib.request.urlopen(self.url + "/", timeout=5).read()
            except OSError:
                pass

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)      # quick shutdown: streams are open
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)

    def mark(self) -> None:
        """Remember how much the server had logged (before the shutdown's own noise)."""
        self.marked = len(self.output())

    def problems(self) -> list[str]:
        """Tracebacks, worker timeouts and errors the server logged while measured."""
        words = ("Traceback", "ERROR", "WORKER TIMEOUT", "CRITICAL", "Error handling request")
        text = self.output()[:getattr(self, "marked", None)]
        return [line for line in text.splitlines() if any(w in line for w in words)]


APP_DIR: str | None = None      # --app-dir: serve another checkout (before/after runs)


def companion_server(instance: Path) -> Server:
    instance.mkdir(parents=True, exist_ok=True)
    (instance / "config.py").write_text(
        "# bench_load.py: every simulated phone joins from 127.0.0.1\n"
        'JOIN_RATE_LIMIT = "100000 per minute"\n'
        "TABLE_CREATE_LIMIT = (100_000, 60.0)\nEVENT_CREATE_LIMIT = (100_000, 60.0)\n"
        "EVENT_TABLE_LIMIT = (1_000_000, 60.0)\nSTREAMS_PER_ADDRESS = 100_000\n")   # every simulated phone is one address
    env = {"COMPANION_INSTANCE_PATH": str(instance)}
    if APP_DIR:
        env["PYTHONPATH"] = APP_DIR
    return Server("companion:create_app()", instance, env)


# ---------------------------------------------------------------- the event (--event)

class Director:
    """The tournament director's browser: a cookie jar over plain http.client. Not measured."""

    CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')

    def __init__(self, url: str):
        u = urlsplit(url)
        self.host, self.port = u.hostname, u.port
        self.cookies: dict[str, str] = {}

    def call(self, method: str, path: str, form: dict | None = None, ok=(200,),
             timeout: float = 600.0):
        headers = {"User-Agent": "bench-load director", "Accept": "text/html",
                   "Connection": "close"}
        body = None
        if form is not None:
            body = "&".join(f"{quote(str(k))}={quote(str(v))}" for k, v in form.items()).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"http://{self.host}:{self.port}"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.request(method, path, body, headers)
            r = conn.getresponse()
            data = r.read()
        finally:
            conn.close()
        for c in r.headers.get_all("Set-Cookie") or []:
            name, _, value = c.split(";", 1)[0].partition("=")
            if "max-age=0" in c.lower():
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = value.strip()
        if r.status not in ok:
            raise RuntimeError(f"director: {method} {path} answered {r.status}: {data[:300]!r}")
        return r, data

    def csrf(self, page: bytes) -> str:
        m = self.CSRF.search(page)
        if m is None:
            raise RuntimeError(f"director: no CSRF token in {page[:300]!r}")
        return m.group(1).decode()


def setup_event(url: str, n: int, where: Path) -> dict:
    """Create an event of 5N entrants at tables of five, seat round 1 (N new score pads)
    and read the N tables' join tokens. Writes the JSON file the clients and the watchers
    read (event id, the director's cookies, names, tokens); returns the setup figures."""
    d = Director(url)
    names = [f"P{i:05d}" for i in range(1, 5 * n + 1)]
    t = now()
    _r, page = d.call("GET", "/events/new/scorepad")
    # Score-pad house rules: no target and no round limit, so no table ever ends.
    r, _ = d.call("POST", "/events/new/scorepad", ok=(303,), form={
        "csrf_token": d.csrf(page), "event_name": "Bench cup", "event_rounds": "3",
        "entrants": "\n".join(names), "table_size": "5", "target": "", "rounds": "",
        "low_wins": "off"})
    m = re.search(r"/e/([^/?#]+)", r.headers.get("Location", ""))
    if m is None:
        raise RuntimeError(f"director: creating the event led to {r.headers.get('Location')!r}")
    event_id = m.group(1)
    if "tc" not in d.cookies:
        raise RuntimeError(f"director: no phone cookie (got {sorted(d.cookies)})")
    create_seconds = now() - t
    _r, page = d.call("GET", f"/e/{event_id}")           # the empty dashboard
    t = now()
    d.call("POST", f"/e/{event_id}/seat", ok=(303,), form={"csrf_token": d.csrf(page)})
    seat_seconds = now() - t
    t = now()
    _r, cards = d.call("GET", f"/e/{event_id}/cards")
    cards_seconds = now() - t
    t = now()
    _r, dash = d.call("GET", f"/e/{event_id}")           # the dashboard, N tables seated
    dashboard_seconds = now() - t

    def tokens_in(page: bytes) -> list[str]:
        found = re.findall(rb'(?:/[Jj]#|name="token" value=")([A-Za-z0-9_-]+)', page)
        return list(dict.fromkeys(x.decode() for x in found))

    # The cards carry each table's join URL in its QR code only (and the join code, typed
    # on the start page); the dashboard's "Open table" buttons POST the token (a hidden
    # field). The phones open /j#<token> as the QR code does: the /j page, then its POST.
    tokens, source = tokens_in(cards), "cards"
    if len(tokens) != n:
        tokens, source = tokens_in(dash), "dashboard"
    if len(tokens) != n:
        raise RuntimeError(f"director: {len(tokens)} join tokens on the dashboard, not {n}")
    info = {"event_id": event_id, "director_cookies": d.cookies, "names": names,
            "tokens": tokens}
    (where / "event.json").write_text(json.dumps(info))
    return {"event_id": event_id, "entrants": len(names),
            "create_seconds": round(create_seconds, 2), "seat_seconds": round(seat_seconds, 2),
            "cards_seconds": round(cards_seconds, 2), "cards_kb": round(len(cards) / 1024, 1),
            "cards_tables": cards.count(b'class="table-card"'),
            "dashboard_seconds": round(dashboard_seconds, 2),
            "dashboard_kb": round(len(dash) / 1024, 1), "tokens_from": source}


def watch_summary(raw: dict) -> dict:
    """The watchers' figures per kind of page."""
    out = {}
    for kind in WATCH_KINDS:
        k = raw.get(kind)
        if k is None:
            continue
        count = len(k["latency_ms"])
        out[kind] = {
            "pages": k["pages"], "count": count, "latency_ms": dist(k["latency_ms"]),
            "kb_avg": round(sum(k["bytes"]) / count / 1024, 1) if count else None,
            "html_kb_avg": round(sum(k["html_bytes"]) / count / 1024, 1) if count else None,
            "kb_total": round(sum(k["bytes"]) / 1024, 1),
            "errors": k["errors"], "setup_errors": k["setup_errors"],
            "error_count": sum(k["errors"].values()) + sum(k["setup_errors"].values()),
            "error_samples": k["error_samples"],
        }
    return out


# ---------------------------------------------------------------- the clients

class Client:
    def __init__(self, mode: str, url: str, out: Path, deadline: float, extra: list[str]):
        self.out = out
        self.cmd = [sys.executable, str(CLIENT), mode, "--url", url, "--out", str(out),
                    "--deadline", str(deadline)] + extra
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=open(str(out) + ".stderr", "wb"), bufsize=0,
                                     start_new_session=True)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        self.buf = b""

    def read(self, timeout: float) -> dict:
        end = now() + timeout
        while b"\n" not in self.buf:
            left = end - now()
            if left <= 0 or not self.sel.select(left):
                if left <= 0:
                    raise TimeoutError(f"client {self.proc.pid} said nothing in {timeout:.0f} s")
                continue
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError(f"client exited ({self.proc.poll()}): {self.stderr()}")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def go(self, t0: float) -> None:
        self.proc.stdin.write((json.dumps({"go": t0}) + "\n").encode())
        self.proc.stdin.flush()

    def result(self) -> dict:
        return json.loads(self.out.read_text())

    def stderr(self) -> str:
        try:
            return Path(str(self.out) + ".stderr").read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=10)


# ---------------------------------------------------------------- statistics

def pct(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-p / 100 * len(ordered) // 1))))
    return round(ordered[rank - 1], 1)


def dist(values: list[float]) -> dict:
    return {"n": len(values), "p50": pct(values, 50), "p95": pct(values, 95),
            "p99": pct(values, 99), "max": round(max(values), 1) if values else None}


# ---------------------------------------------------------------- one tournament

def run_load(n: int, args, workdir: Path, duration: float | None = None) -> dict:
    if duration is not None and duration != args.duration:
        args = argparse.Namespace(**{**vars(args), "duration": duration,
                                     "burst_at": duration / 2})
    instance = workdir / f"load-{n}"
    server = companion_server(instance)
    clients: list[Client] = []
    watch: Client | None = None
    event: dict | None = None
    sampler = None
    hard = args.setup_limit + args.duration + args.drain + 60
    try:
        tokens: list[str] = []
        if args.event:      # a real tournament: round 1 seated onto N tables (not measured)
            event = setup_event(server.url, n, instance)
            tokens = ["--tokens", str(instance / "event.json")]
        k = max(1, min(args.clients, n))
        per = [n // k + (1 if i < n % k else 0) for i in range(k)]
        burst = min(args.burst_tables, n)
        burst_per = [burst // k + (1 if i < burst % k else 0) for i in range(k)]
        first = 0
        for i in range(k):
            clients.append(Client("load", server.url, instance / f"client{i}.json", hard, [
                "--tables", str(per[i]), "--first", str(first), "--seed", str(args.seed + i),
                "--duration", str(args.duration), "--drain", str(args.drain),
                "--period", str(args.period), "--jitter", str(args.jitter),
                "--burst-tables", str(burst_per[i]), "--burst-at", str(args.burst_at),
                "--warmup", str(args.warmup)] + tokens))
            first += per[i]
        if event is not None:   # the event's open pages, in a process of their own
            watch = Client("watch", server.url, instance / "watch.json", hard, [
                "--event", str(instance / "event.json"), "--duration", str(args.duration),
                "--players", str(args.event_players), "--seed", str(args.seed)])
        sampler = Sampler(server.proc.pid, [c.proc.pid for c in clients + ([watch] if watch else [])])
        sampler.start()
        t_setup = now()
        for c in clients:
            c.read(args.setup_limit + 30)          # {"ready": ...}: setup done, streams open
        setup_seconds = now() - t_setup
        if watch is not None:
            watch.read(args.setup_limit + 30)
        t0 = now() + 2.0
        for c in clients + ([watch] if watch else []):
            c.go(t0)
        for c in clients:
            c.read(args.duration + args.drain + 60)  # {"done": path}
        if watch is not None:
            watch.read(args.duration + args.drain + 60)
        t_end = now()
        server.mark()
        results = [c.result() for c in clients]
        watched = watch.result() if watch is not None else None
    finally:
        for stop in ([sampler.stop] if sampler is not None else []) + \
                [c.kill for c in clients + ([watch] if watch else [])] + [server.stop]:
            try:
                stop()
            except Exception as exc:  # noqa: BLE001 - go on stopping the rest
                print(f"while stopping: {exc!r}", file=sys.stderr)

    rows = [r for res in results for r in res["entries"]]
    measured = [r for r in rows if r.get("measured")]
    ok = [r for r in measured if "error" not in r or r.get("error") is None]
    ok = [r for r in ok if "post_ms" in r]
    regular = [r for r in ok if not r["burst"]]
    burst_rows = [r for r in ok if r["burst"]]
    errors: dict[str, int] = {}
    for res in results:
        for kind, count in res["errors"].items():
            errors[kind] = errors.get(kind, 0) + count
    missing = sum(r.get("missing_phones", 0) for r in ok)
    if missing:
        errors["phone_never_got_change"] = missing
    if event is not None:
        event["watch"] = watch_summary(watched["watch"])
        for kind, w in event["watch"].items():
            for where, errs in (("", w["errors"]), ("setup_", w["setup_errors"])):
                for err, count in errs.items():
                    errors[f"watch_{kind}_{where}{err}"] = count
        # The watchers' own CPU (the last client process in the sampler's list).
        inside = [x for x in sampler.samples if t0 <= x["t"] <= t0 + args.duration + 1.0]
        if len(inside) >= 2:
            event["watch_cores_avg"] = round(
                (inside[-1]["clients_cpu"][-1] - inside[0]["clients_cpu"][-1])
                / (inside[-1]["t"] - inside[0]["t"]), 3)
    server_problems = server.problems()
    if server_problems:
        errors["server_log"] = len(server_problems)
    window = sampler.window(t0, t0 + args.duration + 1.0)
    burst_window = sampler.window(t0 + args.burst_at - 1, t0 + args.burst_at + 4)
    out = {
        "tables": n, "phones": sum(r["phones"] for r in results),
        "streams_open_min": sum(r["streams_open_min"] for r in results),
        "setup_seconds": round(setup_seconds, 1),
        "setup_errors": [r["setup_errors"] for r in results],
        "duration": args.duration,
        "entries_measured": len(measured), "entries_ok": len(ok),
        "entries_per_second": round(len(measured) / args.duration, 1),
        "entry_ms": dist([r["post_ms"] for r in ok]),
        "entry_ms_regular": dist([r["post_ms"] for r in regular]),
        "entry_ms_burst": dist([r["post_ms"] for r in burst_rows]),
        "all_phones_ms": dist([r["all_phones_ms"] for r in ok if r["all_phones_ms"] is not None]),
        "all_phones_ms_regular": dist([r["all_phones_ms"] for r in regular
                                       if r["all_phones_ms"] is not None]),
        "all_phones_ms_burst": dist([r["all_phones_ms"] for r in burst_rows
                                     if r["all_phones_ms"] is not None]),
        "sse_event_ms": dist([r["all_events_ms"] for r in ok if r["all_events_ms"] is not None]),
        "errors": errors, "error_count": sum(errors.values()),
        "error_samples": ([s for res in results for s in res["error_samples"]]
                          + [s for w in (event or {}).get("watch", {}).values()
                             for s in w["error_samples"]])[:20],
        "server_log_problems": server_problems[:20],
        "requests": {k: sum(r["requests"].get(k, 0) for r in results)
                     for k in sorted({k for r in results for k in r["requests"]})},
        "reconnects": sum(r["reconnects"] for r in results),
        "resources": window, "resources_burst": burst_window,
        "wall_seconds": round(t_end - t_setup, 1),
        # Every measured entry: [planned s after start, burst?, POST ms, all five ms, SSE ms]
        "entries": sorted([[round(r["planned"], 3), int(r["burst"]), round(r["post_ms"], 1),
                            None if r["all_phones_ms"] is None else round(r["all_phones_ms"], 1),
                            None if r["all_events_ms"] is None else round(r["all_events_ms"], 1)]
                           for r in ok]),
        "t0": t0,
    }
    if event is not None:
        out["event"] = event
    out["held"] = (out["entry_ms"]["p99"] is not None and out["entry_ms"]["p99"] <= KNEE_P99_MS
                   and out["error_count"] == 0)
    if not args.keep:
        shutil.rmtree(instance, ignore_errors=True)
    return out


# ---------------------------------------------------------------- throughput

def run_throughput(args, workdir: Path) -> dict:
    out: dict = {"conns": args.conns, "seconds": args.tp_seconds, "warmup": args.tp_warmup,
                 "clients": args.tp_clients}
    k = args.tp_clients
    conns = [args.conns // k + (1 if i < args.conns % k else 0) for i in range(k)]
    base_dir = workdir / "baseline"
    base_dir.mkdir(parents=True, exist_ok=True)
    server = Server("baseline_app:app", base_dir, {"BASELINE_DB": str(base_dir / "baseline.db")},
                    chdir=HERE)
    out["baseline_command"] = " ".join(server.cmd[2:])
    try:
        for path in ("/write", "/write-reused"):
            out[path] = closed_loop(server, "baseline", conns, args, base_dir, ["--path", path])
        server.mark()
    finally:
        server.stop()
    out["baseline_server_problems"] = server.problems()[:10]
    server = companion_server(workdir / "entry")
    out["entry_command"] = " ".join(server.cmd[2:])
    try:
        tables = [args.tp_tables // k + (1 if i < args.tp_tables % k else 0) for i in range(k)]
        out["entry"] = closed_loop(server, "entry", conns, args, workdir / "entry", [],
                                   tables=tables)
        server.mark()
    finally:
        server.stop()
    out["entry_server_problems"] = server.problems()[:10]
    for path in ("/write", "/write-reused"):
        base = out[path]["per_second"]
        out[f"ratio_vs_{path.strip('/')}"] = round(out["entry"]["per_second"] / base, 3) if base else None
    if not args.keep:
        shutil.rmtree(workdir / "entry", ignore_errors=True)
        shutil.rmtree(base_dir, ignore_errors=True)
    return out


def closed_loop(server: Server, target: str, conns: list[int], args, where: Path,
                extra: list[str], tables: list[int] | None = None) -> dict:
    clients = []
    hard = 120 + args.tp_warmup + args.tp_seconds
    first = 0
    try:
        for i, c in enumerate(conns):
            more = ["--target", target, "--conns", str(c), "--seconds", str(args.tp_seconds),
                    "--warmup-seconds", str(args.tp_warmup), "--seed", str(args.seed + i)] + extra
            if tables:
                more += ["--tables", str(tables[i]), "--first", str(first)]
                first += tables[i]
            clients.append(Client("throughput", server.url, where / f"tp-{target}-{i}.json",
                                  hard, more))
        sampler = Sampler(server.proc.pid, [c.proc.pid for c in clients])
        sampler.start()
        for c in clients:
            c.read(100)
        t0 = now() + 1.0
        for c in clients:
            c.go(t0)
        for c in clients:
            c.read(args.tp_warmup + args.tp_seconds + 60)
        sampler.stop()
        results = [c.result() for c in clients]
    finally:
        for c in clients:
            c.kill()
    lat = [x for r in results for x in r["latency_ms"]]
    ok = sum(r["ok"] for r in results)
    res = sampler.window(t0 + args.tp_warmup, t0 + args.tp_warmup + args.tp_seconds)
    return {"ok": ok, "errors": sum(r["errors"] for r in results),
            "error_samples": [s for r in results for s in r["error_samples"]][:5],
            "per_second": round(ok / args.tp_seconds, 1), "latency_ms": dist(lat),
            "server_cores": res.get("server_cores_avg"), "client_cores": res.get("client_cores_avg"),
            "server_cores_per_worker": res.get("server_cores_per_worker"),
            "other_cores": res.get("other_cores_avg"),
            "server_cpu_ms_per_request": (round(res["server_cores_avg"] * args.tp_seconds * 1000 / ok, 3)
                                          if ok and res.get("server_cores_avg") else None),
            "workers_rss_peak_mb": res.get("workers_rss_peak_mb")}


# ---------------------------------------------------------------- report

TARGETS = {"tables": 500, "entry_p99_ms": 100, "all_phones_p95_ms": 250, "errors": 0,
           "workers_rss_mb": 300, "throughput_ratio": 0.5}


def targets(r: dict) -> dict | None:
    """The load targets (`TARGETS`), checked against the run at N = 500 (if there was one)."""
    x = next((x for x in r["load"] if x["tables"] == TARGETS["tables"]), None)
    if x is None:
        return None
    out = {
        "entry_p99_ms": [x["entry_ms"]["p99"], x["entry_ms"]["p99"] is not None
                         and x["entry_ms"]["p99"] <= TARGETS["entry_p99_ms"]],
        "all_phones_p95_ms": [x["all_phones_ms"]["p95"], x["all_phones_ms"]["p95"] is not None
                              and x["all_phones_ms"]["p95"] <= TARGETS["all_phones_p95_ms"]],
        "errors": [x["error_count"], x["error_count"] == 0],
        "workers_rss_mb": [x["resources"].get("workers_rss_peak_mb"),
                           (x["resources"].get("workers_rss_peak_mb") or 1e9)
                           <= TARGETS["workers_rss_mb"]],
    }
    tp = r.get("throughput")
    if tp:
        for key in ("ratio_vs_write", "ratio_vs_write-reused"):
            out[key] = [tp[key], tp[key] is not None and tp[key] >= TARGETS["throughput_ratio"]]
    return out


def report(r: dict) -> str:
    m = r["machine"]
    lines = [f"{m['date']} · {m['nproc']} CPUs ({m['cpu']}) · {m['memory_gib']} GiB · {m['os']} · "
             f"Python {m['python']} · gunicorn {m['gunicorn']} · gevent {m['gevent']} · "
             f"SQLite {m['sqlite']} · load average before {' '.join(f'{x:.2f}' for x in m['loadavg_before'])}",
             f"command: {r['command']}", f"server:  {r['server_command']}", "",
             "times in ms; cores = CPU cores busy on average over the measured window "
             "(peak = busiest second); RSS = both workers",
             ""]
    if r["settings"].get("event"):
        lines[-1:-1] = [("--event: each N is a tournament's round (5N entrants at N tables); "
                         "its dashboard (5 s), projector (10 s), standings (10 s) and "
                         f"{r['settings'].get('event_players')} players' phones (20 s) poll "
                         "it; client = load generators + watchers"), ""]
    head = (f"{'N':>5} {'streams':>7} {'entries':>7} {'entry p50':>9} {'p99':>6} "
            f"{'all5 p50':>8} {'p95':>6} {'sse p50':>7} {'p95':>6} {'errors':>6} "
            f"{'server':>6} {'peak':>5} {'RSS MB':>6} {'client':>6} {'other':>5} {'held':>4}")
    lines.append(head)
    for x in r["load"]:
        res = x["resources"]
        lines.append(
            f"{x['tables']:>5} {x['streams_open_min']:>7} {x['entries_ok']:>7} "
            f"{x['entry_ms']['p50']!s:>9} {x['entry_ms']['p99']!s:>6} "
            f"{x['all_phones_ms']['p50']!s:>8} {x['all_phones_ms']['p95']!s:>6} "
            f"{x['sse_event_ms']['p50']!s:>7} {x['sse_event_ms']['p95']!s:>6} "
            f"{x['error_count']:>6} {res.get('server_cores_avg')!s:>6} "
            f"{res.get('server_cores_peak_1s')!s:>5} {res.get('workers_rss_peak_mb')!s:>6} "
            f"{res.get('client_cores_avg')!s:>6} {res.get('other_cores_avg')!s:>5} "
            f"{'yes' if x['held'] else 'NO':>4}")
        if x["errors"]:
            lines.append(f"      errors: {x['errors']}")
        if (res.get("other_cores_avg") or 0) > NOISY_CORES:
            lines.append(f"      DISTURBED: other processes used {res['other_cores_avg']} cores "
                         "meanwhile; rerun this N on a quiet machine")
        lines.append(f"      {x['duration']:.0f} s, {x['entries_per_second']} entries/s; burst "
                     f"({x['entry_ms_burst']['n']} entries): entry p50 "
                     f"{x['entry_ms_burst']['p50']} p99 {x['entry_ms_burst']['p99']}, all five "
                     f"p50 {x['all_phones_ms_burst']['p50']} p95 {x['all_phones_ms_burst']['p95']}"
                     f"; outside it: entry p99 {x['entry_ms_regular']['p99']}, all five p95 "
                     f"{x['all_phones_ms_regular']['p95']}")
        ev = x.get("event")
        if ev:
            lines.append(f"      event of {ev['entrants']} entrants: seating round 1 onto "
                         f"{x['tables']} tables took {ev['seat_seconds']} s (creating the event "
                         f"{ev['create_seconds']} s, cards {ev['cards_seconds']} s / "
                         f"{ev['cards_kb']} kB, dashboard {ev['dashboard_seconds']} s / "
                         f"{ev['dashboard_kb']} kB); watchers {ev.get('watch_cores_avg')} cores")
            for kind, w in ev.get("watch", {}).items():
                lat = w["latency_ms"]
                lines.append(f"      watch {kind:9} {w['pages']:>3} page(s) {w['count']:>5} req  "
                             f"p50 {lat['p50']!s:>6} p95 {lat['p95']!s:>6} p99 {lat['p99']!s:>6} "
                             f"max {lat['max']!s:>6} ms  {w['kb_avg']} kB sent "
                             f"({w['html_kb_avg']} kB HTML)  errors {w['error_count']}")
    knee = r.get("knee") or {}
    if knee:
        lines.append(f"\nknee ({knee['criterion']}): largest N held {knee['largest_held']}, "
                     f"smallest N not held {knee['smallest_failed']}")
    tp = r.get("throughput")
    if tp:
        lines.append(f"\nthroughput, closed loop, {tp['conns']} keep-alive connections, "
                     f"{tp['seconds']:.0f} s after {tp['warmup']:.0f} s warm-up:")
        for key in ("/write", "/write-reused", "entry"):
            t = tp[key]
            per_worker = " / ".join(str(c) for c in t.get("server_cores_per_worker") or [])
            lines.append(f"  {key:14} {t['per_second']:>8} req/s  p50 {t['latency_ms']['p50']} ms"
                         f"  p99 {t['latency_ms']['p99']} ms  errors {t['errors']}  server "
                         f"{t['server_cores']} cores (workers {per_worker}; "
                         f"{t['server_cpu_ms_per_request']} ms CPU per "
                         f"request)  client {t['client_cores']} cores  other "
                         f"{t.get('other_cores')} cores")
            if (t.get("other_cores") or 0) > NOISY_CORES:
                lines.append(f"  {'':14} DISTURBED: other processes used {t['other_cores']} "
                             "cores meanwhile")
        lines.append(f"  ratio entry / baseline: {tp['ratio_vs_write']} against /write, "
                     f"{tp['ratio_vs_write-reused']} against /write-reused")
    t = r.get("targets")
    if t:
        lines.append("\ntargets at N = 500: " + ", ".join(
            f"{k} {v[0]} ({'met' if v[1] else 'NOT met'})" for k, v in t.items()))
    lines.append(f"\ntotal wall time: {r['wall_seconds']} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="100,250,500", help="comma-separated N values")
    parser.add_argument("--duration", type=float, default=150.0, help="measured seconds per N")
    parser.add_argument("--drain", type=float, default=8.0)
    parser.add_argument("--period", type=float, default=30.0)
    parser.add_argument("--jitter", type=float, default=5.0)
    parser.add_argument("--burst-tables", type=int, default=100)
    parser.add_argument("--burst-at", type=float, default=None, help="default: duration / 2")
    parser.add_argument("--clients", type=int, default=2, help="load-generator processes")
    parser.add_argument("--warmup", type=int, default=4, help="unmeasured entries per client")
    parser.add_argument("--setup-limit", type=float, default=240.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-knee", dest="knee", action="store_false")
    parser.add_argument("--knee-steps", default="750,1000,1500",
                        help="larger N tried after the listed ones, while they hold")
    parser.add_argument("--knee-duration", type=float, default=90.0,
                        help="measured seconds of each knee step")
    parser.add_argument("--budget", type=float, default=1380.0,
                        help="seconds; a knee step that would end past this is skipped")
    parser.add_argument("--no-throughput", dest="throughput", action="store_false")
    parser.add_argument("--conns", type=int, default=32)
    parser.add_argument("--tp-clients", type=int, default=1)
    parser.add_argument("--tp-seconds", type=float, default=10.0)
    parser.add_argument("--tp-warmup", type=float, default=3.0)
    parser.add_argument("--tp-tables", type=int, default=1000)
    parser.add_argument("--event", action="store_true",
                        help="each N is a tournament: an event seats its round 1 onto the N "
                        "tables, and its open pages poll it while measured")
    parser.add_argument("--event-players", type=int, default=50,
                        help="--event: players' phones polling their own page")
    parser.add_argument("--keep", action="store_true", help="keep the instance folders")
    parser.add_argument("--app-dir", help="serve the `companion` package found in this folder "
                        "(another checkout, for before/after comparisons)")
    parser.add_argument("--json", default=str(REPO / "test-artifacts" / "bench_load.json"))
    args = parser.parse_args(argv)
    if args.event and any(int(x) > EVENT_MAX_TABLES for x in args.tables.split(",") if x.strip()):
        parser.error(f"--event: an event seats at most {EVENT_MAX_TABLES} tables of five")
    if args.burst_at is None:
        args.burst_at = args.duration / 2
    global APP_DIR
    APP_DIR = str(Path(args.app_dir).resolve()) if args.app_dir else None
    started = now()
    results: dict = {"machine": machine("gunicorn", "gevent", "greenlet", "flask"), "command": "python tests/perf/bench_load.py " +
                     " ".join(argv if argv is not None else sys.argv[1:]),
                     "server_command": 'gunicorn -k gevent -w 2 --worker-connections 4000 '
                                       '-b 127.0.0.1:PORT "companion:create_app()"',
                     "settings": {k: v for k, v in vars(args).items() if k != "json"},
                     "load": []}
    workdir = Path(tempfile.mkdtemp(prefix="companion-load-"))
    try:
        if args.throughput:
            results["throughput"] = run_throughput(args, workdir)
            print(f"throughput done at {now() - started:.0f} s", flush=True)
        ns = [int(x) for x in args.tables.split(",") if x.strip()]
        for n in ns:
            results["load"].append(run_load(n, args, workdir))
            x = results["load"][-1]
            print(f"N={n}: entry p99 {x['entry_ms']['p99']} ms, all five p95 "
                  f"{x['all_phones_ms']['p95']} ms, errors {x['error_count']}, "
                  f"{x['wall_seconds']} s (at {now() - started:.0f} s)", flush=True)
        held = [x["tables"] for x in results["load"] if x["held"]]
        failed = [x["tables"] for x in results["load"] if not x["held"]]
        if args.knee:
            per_run = max([x["wall_seconds"] for x in results["load"]] or [300.0])
            steps = [int(x) for x in args.knee_steps.split(",") if x.strip()]
            for n in steps:
                if n in held or n in failed:
                    continue
                if held and n < max(held):
                    continue
                if failed and n > min(failed):
                    break
                if args.event and n > EVENT_MAX_TABLES:
                    results.setdefault("knee_skipped", []).append(n)
                    continue
                # A larger N needs a longer setup; stop if the budget can't take it.
                if now() - started + per_run * n / max(ns + [1]) * 1.2 > args.budget:
                    results.setdefault("knee_skipped", []).append(n)
                    continue
                x = run_load(n, args, workdir, duration=args.knee_duration)
                results["load"].append(x)
                print(f"knee step N={n}: entry p99 {x['entry_ms']['p99']} ms, errors "
                      f"{x['error_count']}, held {x['held']} (at {now() - started:.0f} s)",
                      flush=True)
                (held if x["held"] else failed).append(n)
                if not x["held"]:
                    break
        best = max(held) if held else None
        above = min([f for f in failed if best is None or f > best], default=None)
        results["knee"] = {"largest_held": best, "smallest_failed": above,
                           "criterion": f"entry p99 <= {KNEE_P99_MS:.0f} ms and no errors"}
    finally:
        results["wall_seconds"] = round(now() - started, 1)
        results["targets"] = targets(results)
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        out = Path(args.json)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=2) + "\n")
    text = report(results)
    print("\n" + text)
    Path(args.json).with_suffix(".txt").write_text(text + "\n")
    print(f"\nJSON: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
