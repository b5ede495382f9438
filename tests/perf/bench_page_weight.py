"""Page weight: a phone's cold and warm load of a Rook table page on slow 4G.

    python tests/perf/bench_page_weight.py [--runs 5] [--server gunicorn|serve]
                                           [--profiles br,gzip] [--app-dir DIR] [--json PATH]

Starts the real server on 127.0.0.1 (by default as in production:
`gunicorn -k gevent -w 2 --worker-connections 4000 "companion:create_app()"`, a temporary
COMPANION_INSTANCE_PATH; `--server serve` runs `companion serve` instead), creates a Rook
table for four from the new-table form (a plain form post with a phone's cookie: the host's
view, with the invite QR open on its first screen), and copies the start page, exactly as
served, with its stylesheet, script and icon into a folder served by a plain static server
(Python's http.server, brotli/gzip, long max-age for the assets): the **reference page**,
loaded side by side in the same run, on the same emulated phone, so a slow machine or a
noisy run shows in both.

Each load is a fresh Chromium context (390x844, touch, mobile; the seat cookie for the table
page) with, through the DevTools protocol:
- `Network.emulateNetworkConditions`: 150 ms latency, 1.6 Mbit/s down (200,000 bytes/s),
  750 kbit/s up;
- `Emulation.setCPUThrottlingRate`: 4;
- two profiles for the encodings the browser accepts. `br`: the pages are opened at
  http://127.0.0.1, to which Chromium offers br and zstd (as to any https:// or localhost
  origin). `gzip`: the same servers opened as http://lan.test (Chromium's
  `--host-resolver-rules` maps that name to 127.0.0.1, so nothing leaves the machine): a
  plain-http origin that isn't localhost, to which Chromium offers gzip and deflate only,
  which is what a phone at a real table gets from a LAN address.

Figures per load:
- bytes on the wire: the sum of `Network.loadingFinished.encodedDataLength` (response
  headers included, compressed as served) over every request that went to the network;
  the live stream, which never finishes, is counted apart (its headers and the messages
  that came during the load);
- requests: those that went to the network and finished, not those the cache answered
  (the live stream is counted apart);
- score UI visible: ms from navigation start until the frame after the one in which the
  score UI (the table page: both team totals `#rook-totals` and the entry form's save button
  `#save-hand`; the reference: the start page's `h1` and code box) was laid out with the
  page's stylesheet applied: an init script (injected through DevTools, so the page's CSP
  is untouched) checks on every animation frame. First contentful paint and largest
  contentful paint (the browser's own paint timing) are given beside it, and DOMContentLoaded
  (DCL: the page's deferred script has run by then);
- then a warm visit in the same context (the same page again, as a returning phone): bytes
  and requests. Fingerprinted static URLs with `immutable` mean only the page itself goes to
  the network.

`--runs` cold+warm loads of each page in each profile, table and reference taking turns;
medians are reported (and min/max). Before measuring, each page is loaded twice unmeasured
(every gunicorn worker builds its compressed copies once). Prints a table and writes JSON
(default test-artifacts/bench_page_weight.json). Not collected by pytest (`norecursedirs`
skips tests/perf). docs/BENCHMARKS.md, "A table page under 25 KB", has the figures.
"""
from __future__ import annotations

import argparse
import gzip
import http.server
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))      # tests/: the shared test helpers

from helpers import csrf_from, free_port, load_conftest, machine  # noqa: E402

try:
    import brotli
except ImportError:      # the reference server then offers gzip only
    brotli = None

LATENCY_MS = 150
DOWN_BYTES_PER_S = 1_600_000 // 8          # 1.6 Mbit/s
UP_BYTES_PER_S = 750_000 // 8              # 750 kbit/s
CPU_SLOWDOWN = 4
BUDGET_BYTES = 25_000
TARGET_MS = 600
TABLE_UI = ["#rook-totals", "#save-hand"]
REFERENCE_UI = ["h1", "#code"]
QUIET_MS = 1000          # a load is over when nothing but the stream moved for this long
LOAD_TIMEOUT_S = 30


support = load_conftest()   # the Chromium path, its flags and the phone's viewport

# Runs in every page before its own scripts (Page.addScriptToEvaluateOnNewDocument): on each
# animation frame, is the score UI laid out with the stylesheets loaded? Chromium paints that
# frame; `painted` is the start of the next one (the earliest moment it is certainly on screen).
PROBE = r"""
(() => {
  const want = %s;
  const t = window.__pageWeight = {ready: null, painted: null, fcp: null, lcp: null, inView: null};
  const styled = () => [...document.querySelectorAll('link[rel=stylesheet]')].every(l => l.sheet);
  const laidOut = () => want.every(s => {
    const el = document.querySelector(s);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  });
  const frame = () => {
    if (t.ready === null) {
      if (document.body && styled() && laidOut()) {
        t.ready = performance.now();
        const r = document.querySelector(want[0]).getBoundingClientRect();
        t.inView = r.top < innerHeight;
      }
    } else if (t.painted === null) {
      t.painted = performance.now();
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  try {
    new PerformanceObserver(list => { for (const e of list.getEntries())
      if (e.name === 'first-contentful-paint') t.fcp = e.startTime; })
      .observe({type: 'paint', buffered: true});
    new PerformanceObserver(list => { const all = list.getEntries();
      t.lcp = all[all.length - 1].startTime; })
      .observe({type: 'largest-contentful-paint', buffered: true});
  } catch (e) {}
})();
"""


# What the probe saw, and when the deferred scripts had run (DOMContentLoaded comes after them).
PROBE_READ = """({...window.__pageWeight,
  dcl: (performance.getEntriesByType('navigation')[0] || {}).domContentLoadedEventStart})"""


# ---------------------------------------------------------------- the app's server

class AppServer:
    """gunicorn as in production (or `companion serve`) on 127.0.0.1, its own instance."""

    def __init__(self, kind: str, app_dir: str | None):
        self.instance = Path(tempfile.mkdtemp(prefix="companion-weight-"))
        (self.instance / "config.py").write_text(
            "TABLE_CREATE_LIMIT = (100_000, 60.0)\nSTREAMS_PER_ADDRESS = 100_000\n")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "COMPANION_INSTANCE_PATH": str(self.instance),
               "PYTHONUNBUFFERED": "1"}
        if app_dir:
            env["PYTHONPATH"] = app_dir
        if kind == "gunicorn":
            self.cmd = [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "2",
                        "--worker-connections", "4000", "-b", f"127.0.0.1:{self.port}",
                        "--log-level", "warning", "companion:create_app()"]
        else:
            self.cmd = [sys.executable, "-P", "-m", "companion.cli", "serve", "--host",
                        "127.0.0.1", "--port", str(self.port), "--quiet"]
        self.log = self.instance / "server.log"
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(self.cmd, cwd=self.instance, env=env, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited:\n{self.log.read_text(errors='replace')}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"server did not answer:\n{self.log.read_text()}")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)      # streams are open: quick shutdown
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


# ---------------------------------------------------------------- the reference page

class StaticCopy:
    """A folder served by http.server: the saved page (no-store) and its assets (one year),
    brotli (quality 11) or gzip (level 9) as the browser accepts, compressed in advance."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.files: dict[str, dict] = {}
        for path in folder.rglob("*"):
            if path.is_file():
                body = path.read_bytes()
                url = "/" + path.relative_to(folder).as_posix()
                self.files[url] = {"identity": body, "gzip": gzip.compress(body, 9, mtime=0),
                                   "br": brotli.compress(body, quality=11) if brotli else None}
        files = self.files

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):  # noqa: N802 - http.server's name
                path = urlsplit(self.path).path
                if path == "/":
                    path = "/index.html"
                found = files.get(path)
                if found is None:
                    self.send_error(404)
                    return
                accept = self.headers.get("Accept-Encoding", "")
                encoding = ("br" if found["br"] and "br" in accept
                            else "gzip" if "gzip" in accept else "identity")
                body = found[encoding]
                types = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                         ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}
                self.send_response(200)
                self.send_header("Content-Type", types.get(Path(path).suffix,
                                                          "application/octet-stream"))
                self.send_header("Content-Length", str(len(body)))
                if encoding != "identity":
                    self.send_header("Content-Encoding", encoding)
                self.send_header("Cache-Control", "no-store" if path.endswith(".html")
                                 else "public, max-age=31536000, immutable")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()


def save_static_copy(request, base: str, folder: Path) -> None:
    """The start page and everything it links from /static/, as served (uncompressed)."""
    plain = {"Accept-Encoding": "identity"}
    html = request.get(base + "/", headers=plain).body()
    (folder / "index.html").write_bytes(html)
    for ref in sorted(set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', html))):
        url = ref.decode().replace("&amp;", "&")
        path = folder / urlsplit(url).path.lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(request.get(base + url, headers=plain).body())


# ---------------------------------------------------------------- the table

def create_rook_table(request, base: str) -> str:
    """The new-table form, posted as the host's phone would (4 names, the defaults)."""
    form = request.get(base + "/new/rook").text()
    data = {"csrf_token": csrf_from(form), "me": "0",
            **{f"name_{i}": name for i, name in enumerate(["Ann", "Bob", "Cy", "Di"])}}
    response = request.post(base + "/new/rook", form=data, max_redirects=0)
    location = response.headers.get("location", "")
    if response.status != 303 or "/t/" not in location:
        raise RuntimeError(f"creating the table: {response.status} {response.text()[:300]}")
    return base + urlsplit(location).path


# ---------------------------------------------------------------- one load

class Recorder:
    """The DevTools Network events of one page: what went to the network, and its bytes."""

    def __init__(self, cdp):
        self.requests: dict[str, dict] = {}
        self.last_activity = time.monotonic()
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.requestServedFromCache", self._cached)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.dataReceived", self._data)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.loadingFailed", self._failed)

    def _touch(self) -> None:
        self.last_activity = time.monotonic()

    def _sent(self, e) -> None:
        self._touch()
        self.requests[e["requestId"]] = {"url": e["request"]["url"], "type": e.get("type"),
                                         "cached": False, "done": False, "bytes": 0,
                                         "data": 0, "headers": 0, "status": None,
                                         "encoding": "-", "sent": e["timestamp"]}

    def _cached(self, e) -> None:
        if e["requestId"] in self.requests:
            self.requests[e["requestId"]]["cached"] = True

    def _response(self, e) -> None:
        self._touch()
        r = self.requests.get(e["requestId"])
        if r is not None:
            response = e["response"]
            headers = {k.lower(): v for k, v in response["headers"].items()}
            r.update(status=response["status"], encoding=headers.get("content-encoding", "-"),
                     first_byte=e["timestamp"],
                     headers=response.get("encodedDataLength", 0),
                     cached=r["cached"] or response.get("fromDiskCache", False)
                     or response.get("fromPrefetchCache", False),
                     stream="text/event-stream" in headers.get("content-type", ""))
            if r["stream"]:
                r["bytes"] = r["headers"]

    def _data(self, e) -> None:
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["data"] += e["dataLength"]
            if r.get("stream"):
                r["bytes"] += e.get("encodedDataLength", 0)
            else:
                self._touch()

    def _finished(self, e) -> None:
        self._touch()
        r = self.requests.get(e["requestId"])
        if r is not None:
            r.update(done=True, bytes=e["encodedDataLength"], finished=e["timestamp"])

    def _failed(self, e) -> None:
        self._touch()
        r = self.requests.get(e["requestId"])
        if r is not None:
            r.update(done=True, failed=e.get("errorText"))

    def busy(self) -> bool:
        return any(not r["done"] and not r.get("stream") for r in self.requests.values())

    def summary(self, base: str) -> dict:
        rows = []
        start = min((r["sent"] for r in self.requests.values()), default=0)

        def ms(r, key):
            return round((r[key] - start) * 1000) if r.get(key) else None

        for r in self.requests.values():
            if r["url"].startswith("data:"):
                continue
            rows.append({"url": r["url"].replace(base, ""), "type": r["type"],
                         "status": r["status"], "encoding": r["encoding"],
                         "from_cache": bool(r["cached"]), "stream": bool(r.get("stream")),
                         "wire_bytes": 0 if r["cached"] else r["bytes"],
                         "body_bytes": r["data"], "sent_ms": ms(r, "sent"),
                         "first_byte_ms": ms(r, "first_byte"), "done_ms": ms(r, "finished")})
        network = [r for r in rows if not r["from_cache"]]
        finished = [r for r in network if not r["stream"]]
        return {
            "requests": len(finished),
            "streams": len(network) - len(finished),
            "wire_bytes": sum(r["wire_bytes"] for r in finished),
            "stream_bytes": sum(r["wire_bytes"] for r in network if r["stream"]),
            "from_cache": len(rows) - len(network),
            "rows": rows,
        }


LAN_NAME = "lan.test"      # the gzip profile's host name (see --host-resolver-rules below)


def as_profile(url: str, profile: str) -> str:
    """The URL as the profile opens it: 127.0.0.1 (br) or the LAN-like name (gzip)."""
    return url.replace("//127.0.0.1:", f"//{LAN_NAME}:") if profile == "gzip" else url


def cookies_for(state, profile: str):
    """The seat cookie, also for the LAN-like name (a cookie belongs to a host name)."""
    if state is None or profile != "gzip":
        return state
    return {**state, "cookies": [{**c, "domain": LAN_NAME} for c in state["cookies"]]}


def emulate(cdp) -> None:
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": LATENCY_MS, "downloadThroughput": DOWN_BYTES_PER_S,
        "uploadThroughput": UP_BYTES_PER_S, "connectionType": "cellular4g"})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def visit(page, cdp, recorder: Recorder, url: str) -> dict:
    """Navigate and wait until the score UI was painted and the network is quiet."""
    page.goto(url, wait_until="load", timeout=LOAD_TIMEOUT_S * 1000)
    deadline = time.monotonic() + LOAD_TIMEOUT_S
    while True:
        probe = cdp.send("Runtime.evaluate", {"expression": PROBE_READ,
                                              "returnByValue": True})["result"].get("value") or {}
        quiet = (time.monotonic() - recorder.last_activity) * 1000 >= QUIET_MS
        if probe.get("painted") is not None and quiet and not recorder.busy():
            return probe
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url}: never painted and quiet: {probe}")
        time.sleep(0.1)


def load_twice(browser, url: str, storage_state, profile: str, ui: list[str], base: str) -> dict:
    """A cold load in a new context, then a warm visit of the same page in that context."""
    url, base = as_profile(url, profile), as_profile(base, profile)
    context = browser.new_context(**support.PHONE,
                                  storage_state=cookies_for(storage_state, profile))
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        emulate(cdp)
        cdp.send("Page.enable")
        cdp.send("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE % json.dumps(ui)})
        result = {}
        for visit_name in ("cold", "warm"):
            recorder = Recorder(cdp)
            probe = visit(page, cdp, recorder, url)
            summary = recorder.summary(base)
            summary.update(visible_ms=round(probe["painted"], 1),
                           laid_out_ms=round(probe["ready"], 1),
                           fcp_ms=round(probe["fcp"], 1) if probe.get("fcp") else None,
                           lcp_ms=round(probe["lcp"], 1) if probe.get("lcp") else None,
                           scripts_done_ms=round(probe["dcl"], 1) if probe.get("dcl") else None,
                           ui_in_first_screen=probe.get("inView"))
            result[visit_name] = summary
            cdp.remove_listener("Network.requestWillBeSent", recorder._sent)
            for name, handler in (("Network.requestServedFromCache", recorder._cached),
                                  ("Network.responseReceived", recorder._response),
                                  ("Network.dataReceived", recorder._data),
                                  ("Network.loadingFinished", recorder._finished),
                                  ("Network.loadingFailed", recorder._failed)):
                cdp.remove_listener(name, handler)
        return result
    finally:
        context.close()


# ---------------------------------------------------------------- report

def stats(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarise(loads: list[dict]) -> dict:
    out = {}
    for visit_name in ("cold", "warm"):
        rows = [load[visit_name] for load in loads]
        out[visit_name] = {key: stats([r[key] for r in rows])
                           for key in ("wire_bytes", "stream_bytes", "requests", "streams",
                                       "visible_ms", "fcp_ms", "lcp_ms", "scripts_done_ms")
                           if all(r.get(key) is not None for r in rows)}
        out[visit_name]["ui_in_first_screen"] = all(r["ui_in_first_screen"] for r in rows)
        out[visit_name]["example"] = rows[len(rows) // 2]["rows"]
    return out



def report(results: dict) -> None:
    m = results["machine"]
    print(f"{m['date']} · {m['nproc']} CPUs ({m['cpu']}) · {m['os']} · {m['chromium']}")
    print(f"emulated: {LATENCY_MS} ms latency, {DOWN_BYTES_PER_S * 8 / 1e6:g} Mbit/s down, "
          f"{UP_BYTES_PER_S * 8 / 1e3:g} kbit/s up, CPU x{CPU_SLOWDOWN}, 390x844; "
          f"{results['runs']} runs, medians (min-max)\n")
    head = (f"{'profile':7} {'page':10} {'visit':5} {'bytes on the wire':>24} {'req':>4} "
            f"{'+stream':>8} {'UI visible ms':>18} {'FCP ms':>7} {'LCP ms':>7} {'DCL ms':>7}")
    print("req: requests that went to the network and finished; +stream: the live stream's "
          "bytes during the load (it stays open)")
    print(head)
    print("-" * len(head))
    for profile, pages in results["profiles"].items():
        for page_name, s in pages.items():
            for visit_name in ("cold", "warm"):
                v = s[visit_name]
                b, t = v["wire_bytes"], v["visible_ms"]
                print(f"{profile:7} {page_name:10} {visit_name:5} "
                      f"{b['median']:>8.0f} ({b['min']:.0f}-{b['max']:.0f}) "
                      f"{v['requests']['median']:>4.0f} {v['stream_bytes']['median']:>8.0f} "
                      f"{t['median']:>6.0f} ({t['min']:.0f}-{t['max']:.0f}) "
                      f"{v.get('fcp_ms', {}).get('median', float('nan')):>7.0f} "
                      f"{v.get('lcp_ms', {}).get('median', float('nan')):>7.0f} "
                      f"{v.get('scripts_done_ms', {}).get('median', float('nan')):>7.0f}")
    shown = [(page_name, visit_name) for page_name in ("table", "reference")
             for visit_name in ("cold", "warm")]
    for (profile, pages), (page_name, visit_name) in (
            (item, pv) for item in results["profiles"].items() for pv in shown):
        print(f"\n{profile}: the {page_name} page's {visit_name} load (one run), request by "
              "request (ms after the first request: sent / first byte / done):")
        for row in pages[page_name][visit_name]["example"]:
            print(f"  {row['url'][:64]:64} {row['status']!s:4} {row['encoding']:5} "
                  f"wire {row['wire_bytes']:>6} body {row['body_bytes']:>6} "
                  f"ms {row['sent_ms']}/{row['first_byte_ms']}/{row['done_ms']}"
                  f"{'  (stream, open)' if row['stream'] else ''}")
    print()
    for profile, pages in results["profiles"].items():
        cold, ref = pages["table"]["cold"], pages["reference"]["cold"]
        ok_bytes = cold["wire_bytes"]["median"] <= BUDGET_BYTES
        ok_time = cold["visible_ms"]["median"] <= TARGET_MS
        print(f"{profile}: table page cold {cold['wire_bytes']['median']:.0f} bytes "
              f"({'within' if ok_bytes else 'OVER'} {BUDGET_BYTES}), score UI visible "
              f"{cold['visible_ms']['median']:.0f} ms ({'within' if ok_time else 'OVER'} "
              f"{TARGET_MS} ms; the static reference: {ref['visible_ms']['median']:.0f} ms); "
              f"warm visit {pages['table']['warm']['wire_bytes']['median']:.0f} bytes in "
              f"{pages['table']['warm']['requests']['median']:.0f} request(s)")
    print(f"load average before/after: {m['loadavg_before']} / {m.get('loadavg_after')}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--server", choices=("gunicorn", "serve"), default="gunicorn")
    parser.add_argument("--app-dir", help="serve the `companion` package found in this folder "
                        "(e.g. `git archive HEAD | tar -x -C DIR`) for a before/after run")
    parser.add_argument("--profiles", default="br,gzip")
    parser.add_argument("--json", default=str(REPO / "test-artifacts" / "bench_page_weight.json"))
    args = parser.parse_args(argv)

    results = {"machine": machine("playwright", "flask", "gunicorn", "gevent",
                                  chromium=support.CHROMIUM), "runs": args.runs, "server": args.server,
               "app_dir": args.app_dir, "profiles": {},
               "command": "python tests/perf/bench_page_weight.py " + " ".join(
                   argv if argv is not None else sys.argv[1:]),
               "emulation": {"latency_ms": LATENCY_MS, "down_bytes_per_s": DOWN_BYTES_PER_S,
                             "up_bytes_per_s": UP_BYTES_PER_S, "cpu_slowdown": CPU_SLOWDOWN,
                             "viewport": "390x844"}}
    app_dir = str(Path(args.app_dir).resolve()) if args.app_dir else None
    server = AppServer(args.server, app_dir)
    copy_dir = Path(tempfile.mkdtemp(prefix="companion-reference-"))
    reference = None
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=support.CHROMIUM,
                args=[*support.CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"])
            results["machine"]["chromium_reported"] = browser.version
            setup = browser.new_context(**support.PHONE)
            table_url = create_rook_table(setup.request, server.url)
            state = setup.storage_state()
            save_static_copy(setup.request, server.url, copy_dir)
            setup.close()
            reference = StaticCopy(copy_dir)
            pages = {"table": (table_url, state, TABLE_UI, server.url),
                     "reference": (reference.url + "/", None, REFERENCE_UI, reference.url)}
            for profile in args.profiles.split(","):
                for url, st, ui, base in pages.values():     # warm-up, not measured
                    for _ in range(2):
                        load_twice(browser, url, st, profile, ui, base)
                loads: dict[str, list] = {name: [] for name in pages}
                for _ in range(args.runs):
                    for name, (url, st, ui, base) in pages.items():
                        loads[name].append(load_twice(browser, url, st, profile, ui, base))
                results["profiles"][profile] = {name: summarise(runs)
                                                for name, runs in loads.items()}
                results["profiles"][profile]["raw"] = {
                    name: [{v: {k: load[v][k] for k in load[v] if k != "rows"}
                            for v in ("cold", "warm")} for load in runs]
                    for name, runs in loads.items()}
            browser.close()
    finally:
        if reference:
            reference.stop()
        server.stop()
    results["machine"]["loadavg_after"] = os.getloadavg()
    raw = {p: results["profiles"][p].pop("raw") for p in results["profiles"]}
    results["loads"] = raw
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    report(results)
    print(f"\nJSON: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
