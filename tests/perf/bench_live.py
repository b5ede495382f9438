"""Live-update latency and bytes on the wire, measured with two headless Chromium phones.

    python tests/perf/bench_live.py [--entries 50] [--json PATH]

Starts the real server (`companion serve` on 127.0.0.1 with a temporary instance folder,
exactly as the browser tests do), opens phone A and phone B (390x844 touch contexts in
Debian's Chromium), creates a score pad, seats B, and then:

1. Latency. For each of N rounds, A presses Enter in its last score box (one CDP key
   event, so the timer doesn't include Playwright's click checks) and we time how long
   until B shows the new sheet. Three clocks, all CLOCK_MONOTONIC on Linux, so they share
   one time line (checked below):
   - `cdp`: Chrome's own network timestamps (microseconds): A's POST leaving
     (Network.requestWillBeSent) -> B's SSE "changed" chunk arriving (Network.dataReceived)
     -> B's re-fetched sheet fully received (Network.loadingFinished). Excludes only htmx's
     few-millisecond work before the POST and B's parse-and-swap after the fragment.
   - `dom`: wall clock from just before A's key press until B's DOM has
     `#sheet[data-version=N+1]`, found by asking B's page for that locator's count in a
     tight loop (each ask is one round trip to Chromium, ~1-3 ms: that is the resolution;
     no MutationObserver, no page script, so the page's CSP stays untouched).
2. Bytes, as Chromium counts them (Network.loadingFinished.encodedDataLength: bytes on the
   wire, response headers included, compressed as served) plus Playwright's
   request.sizes() for the request side:
   - the first load of the table page with a cold cache (a new context holding B's seat
     cookie): document, CSS, JS, icons, manifest, whatever the browser fetches;
   - one live update on B: the SSE event chunk, the sheet fragment and the entry form
     fragment that B re-fetches.

Prints a report and writes JSON (default test-artifacts/bench_live.json). Baselines only.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))      # tests/: the shared test helpers

from helpers import load_conftest, machine  # noqa: E402

#: The live fragments a phone fetches after a change: /play (sheet and form in one answer);
#: /sheet and /entry in older copies (a copy run with --app-dir may use them).
FRAGMENTS = ("/play", "/sheet", "/entry")


support = load_conftest()   # start_server/stop_server and the Chromium settings


# ---------------------------------------------------------------- network recording

class NetLog:
    """Chrome's Network domain events for one page, keyed by request id."""

    def __init__(self, context, page):
        self.cdp = context.new_cdp_session(page)
        self.requests: dict[str, dict] = {}
        self.chunks: list[dict] = []
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.dataReceived", self._data)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.send("Network.enable")

    def _sent(self, e):
        self.requests[e["requestId"]] = {
            "id": e["requestId"], "url": e["request"]["url"], "method": e["request"]["method"],
            "sent": e["timestamp"], "type": e.get("type"), "data": 0, "encoded_data": 0,
        }

    def _response(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            headers = {k.lower(): v for k, v in e["response"]["headers"].items()}
            r.update(status=e["response"]["status"], mime=e["response"]["mimeType"],
                     encoding=headers.get("content-encoding", "-"), response_at=e["timestamp"])

    def _data(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["data"] += e["dataLength"]
            r["encoded_data"] += e["encodedDataLength"]
        self.chunks.append({"id": e["requestId"], "at": e["timestamp"],
                            "bytes": e["dataLength"], "encoded": e["encodedDataLength"]})

    def _finished(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            r.update(finished=e["timestamp"], encoded=e["encodedDataLength"])

    def clear(self) -> None:
        keep = {k: v for k, v in self.requests.items() if "finished" not in v}
        self.requests = keep        # streams still open (SSE) stay known
        self.chunks = []

    def find(self, suffix: str, method: str = "GET") -> list[dict]:
        return [r for r in self.requests.values()
                if r["method"] == method and r["url"].split("?")[0].endswith(suffix)]


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summary_ms(values: list[float]) -> dict:
    ms = [v * 1000 for v in values]
    return {"n": len(ms), "median": round(statistics.median(ms), 2), "p95": round(pct(ms, 95), 2),
            "min": round(min(ms), 2), "max": round(max(ms), 2)}


# ---------------------------------------------------------------- the phones

def new_phone(browser, base_url, **options):
    context = browser.new_context(**{**support.PHONE, "base_url": base_url, **options})
    return context, context.new_page()


def create_table(page, names):
    page.goto("/new/scorepad")
    for i, name in enumerate(names):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#me-bar")).to_contain_text(f"You are {names[0]}")
    return page.locator("#join-url").get_attribute("href")


def version_of(page) -> int:
    return int(page.locator("#sheet").get_attribute("data-version"))


def settle(page) -> None:
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-swapping")).to_have_count(0)


def save_round_by_enter(page, scores: dict[int, int]) -> float:
    """Type a round on A and submit it with Enter; returns the monotonic time of the press."""
    settle(page)
    last = max(scores)
    for pos, value in scores.items():
        page.locator(f"#score_{pos}").fill(str(value))
    page.locator(f"#score_{last}").focus()
    t0 = time.monotonic()
    page.keyboard.press("Enter")
    return t0


POLLS: list[float] = []     # duration of each "is it there yet?" round trip


def wait_for_version(page, version: int, timeout: float = 10.0) -> float:
    """Ask B's page for the new sheet in a tight loop; returns when it is in the DOM."""
    locator = page.locator(f'#sheet[data-version="{version}"]')
    deadline = time.monotonic() + timeout
    while True:
        before = time.monotonic()
        found = locator.count()
        now = time.monotonic()
        POLLS.append(now - before)
        if found:
            return now
        if now > deadline:
            raise TimeoutError(f"B never showed version {version}")


# ---------------------------------------------------------------- measurements

def first_load(browser, base_url, storage_state, table_url) -> dict:
    """Cold-cache load of the table page by a phone that already holds its seat cookie."""
    context, page = new_phone(browser, base_url, storage_state=storage_state)
    net = NetLog(context, page)
    sizes = {}

    def on_finished(request):
        try:
            sizes[request.url] = request.sizes()
        except Exception:       # noqa: BLE001 - a request without sizes is reported as such
            pass

    page.on("requestfinished", on_finished)
    page.goto(table_url, wait_until="load")
    expect(page.locator("#live-state")).to_have_text("live")
    page.wait_for_timeout(1500)     # late fetches (manifest, icons) and the stream's 1st event
    rows = []
    for r in net.requests.values():
        size = sizes.get(r["url"], {})
        stream = r["url"].endswith("/stream")
        rows.append({
            "url": r["url"].replace(base_url, ""), "type": r.get("type"), "status": r.get("status"),
            "encoding": r.get("encoding", "-"),
            "wire_bytes": r.get("encoded", r.get("encoded_data", 0)) if not stream else None,
            "body_bytes": r.get("data", 0),
            "request_header_bytes": size.get("requestHeadersSize"),
            "response_header_bytes": size.get("responseHeadersSize"),
            "open_stream": stream,
        })
    context.close()
    done = [r for r in rows if not r["open_stream"]]
    return {
        "requests": rows,
        "total_wire_bytes": sum(r["wire_bytes"] or 0 for r in done),
        "total_body_bytes": sum(r["body_bytes"] or 0 for r in done),
        "total_request_header_bytes": sum(r["request_header_bytes"] or 0 for r in done),
    }


def latency(a_page, b_page, a_net: NetLog, b_net: NetLog, entries: int) -> dict:
    dom, sse, sheet_done, clock_skew = [], [], [], []
    update_bytes = []
    for i in range(entries):
        v = version_of(a_page)
        expect(b_page.locator("#sheet")).to_have_attribute("data-version", str(v))
        settle(b_page)
        a_net.clear()
        b_net.clear()
        t0 = save_round_by_enter(a_page, {0: i + 1, 1: i % 7})
        t_dom = wait_for_version(b_page, v + 1)
        # Let A's own answer and B's entry refresh finish before the next round.
        expect(a_page.locator("#sheet")).to_have_attribute("data-version", str(v + 1))
        expect(a_page.locator("#entry .notice")).to_contain_text("Saved as entry #")
        b_page.wait_for_timeout(60)
        post = a_net.find("/actions", "POST")
        # The page refreshes /play (since=<its version>), morphing sheet and form in one go.
        sheets = [r for r in b_net.find("/play") + b_net.find("/sheet") if "finished" in r]
        entries_ = [r for r in b_net.find("/entry") if "finished" in r]
        stream_ids = {r["id"] for r in b_net.requests.values() if r["url"].endswith("/stream")}
        chunks = [c for c in b_net.chunks if c["id"] in stream_ids]
        if not (post and sheets and chunks):
            raise RuntimeError(f"round {i}: missing events post={post} sheet={sheets} sse={chunks}")
        sent = post[0]["sent"]
        clock_skew.append(sent - t0)     # key press -> request leaving A (same clock)
        dom.append(t_dom - t0)
        sse.append(chunks[0]["at"] - sent)
        sheet_done.append(sheets[0]["finished"] - sent)
        update_bytes.append({
            "sse_chunk_bytes": sum(c["bytes"] for c in chunks),
            "sse_chunk_wire_bytes": sum(c["encoded"] for c in chunks),
            "sheet_wire_bytes": sheets[0]["encoded"],
            "sheet_body_bytes": sheets[0]["data"],
            "sheet_encoding": sheets[0].get("encoding"),
            "entry_wire_bytes": entries_[0]["encoded"] if entries_ else 0,
            "entry_body_bytes": entries_[0]["data"] if entries_ else 0,
            "entry_encoding": entries_[0].get("encoding") if entries_ else None,
        })
    return {
        "key_press_to_post_sent": summary_ms(clock_skew),
        "post_sent_to_sse_chunk_on_B": summary_ms(sse),
        "post_sent_to_sheet_received_on_B": summary_ms(sheet_done),
        "key_press_to_B_dom_updated": summary_ms(dom),
        "update_bytes_first": update_bytes[0],
        "update_bytes_last": update_bytes[-1],
        "update_bytes_median": {k: statistics.median(u[k] for u in update_bytes)
                                for k in update_bytes[0] if not k.endswith("encoding")},
    }



def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=50)
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to serve on; a LAN address shows what phones on the "
                             "Wi-Fi get (Chromium offers br/zstd only to secure origins such "
                             "as 127.0.0.1, gzip/deflate to plain-http LAN ones)")
    parser.add_argument("--json", default=str(REPO / "test-artifacts" / "bench_live.json"))
    args = parser.parse_args(argv)

    info = machine("playwright", "gevent", "flask", "flask-compress", chromium=support.CHROMIUM)
    instance = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    server = support.start_server(instance, host=args.host)
    results: dict = {"machine": info, "entries": args.entries, "host": args.host,
                     "command": "python tests/perf/bench_live.py " + " ".join(argv or sys.argv[1:])}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=support.CHROMIUM,
                                         args=support.CHROMIUM_ARGS)
            results["machine"]["chromium_reported"] = browser.version
            a_ctx, a = new_phone(browser, server.url)
            b_ctx, b = new_phone(browser, server.url)
            a_net, b_net = NetLog(a_ctx, a), NetLog(b_ctx, b)   # before B opens its stream
            b_sizes: list[tuple[str, dict]] = []
            b.on("requestfinished", lambda req: b_sizes.append((req.url, req.sizes()))
                 if req.url.split("?")[0].endswith(FRAGMENTS) else None)
            join_url = create_table(a, ["Ann", "Bob"])
            b.goto(join_url)
            b.get_by_role("button", name="Bob free: tap to sit here").click()
            expect(b.locator("#me-bar")).to_contain_text("You are Bob")
            table_url = b.url
            # Warm up: three rounds, not measured (imports, first folds, connection reuse).
            results["latency_warmup"] = latency(a, b, a_net, b_net, 3)
            results["first_load_3_rounds"] = first_load(browser, server.url,
                                                         b_ctx.storage_state(), table_url)
            b_sizes.clear()
            POLLS.clear()
            results["latency"] = latency(a, b, a_net, b_net, args.entries)
            results["latency"]["dom_poll_round_trip"] = summary_ms(POLLS)
            for side in ("request", "response"):
                per_fragment = {suffix: [size[f"{side}HeadersSize"] for url, size in b_sizes
                                         if url.split("?")[0].endswith(suffix)]
                                for suffix in FRAGMENTS}
                results["latency"][f"fragment_{side}_header_bytes_median"] = {
                    suffix: statistics.median(sizes) for suffix, sizes in per_fragment.items()
                    if sizes}
            results["first_load_after_run"] = first_load(browser, server.url,
                                                         b_ctx.storage_state(), table_url)
            results["rounds_at_end"] = args.entries + 3
            browser.close()
    finally:
        support.stop_server(server)

    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    report(results)
    print(f"\nJSON: {out}")
    return 0


def report(r: dict) -> None:
    m = r["machine"]
    print(f"{m['date']} · {m['nproc']} CPUs ({m['cpu']}) · {m['os']} · Python {m['python']} · "
          f"{m['chromium']} · Playwright {m['playwright']}")
    lat = r["latency"]
    print(f"\nLatency over {lat['post_sent_to_sheet_received_on_B']['n']} rounds (ms):")
    for key in ("key_press_to_post_sent", "post_sent_to_sse_chunk_on_B",
                "post_sent_to_sheet_received_on_B", "key_press_to_B_dom_updated"):
        s = lat[key]
        print(f"  {key:34} median {s['median']:7.2f}  p95 {s['p95']:7.2f}  "
              f"min {s['min']:7.2f}  max {s['max']:7.2f}")
    s = lat["dom_poll_round_trip"]
    print(f"  (one DOM poll of B: median {s['median']} ms, p95 {s['p95']} ms, {s['n']} polls)")
    for name in ("first_load_3_rounds", "first_load_after_run"):
        load = r[name]
        print(f"\n{name}: {load['total_wire_bytes']} bytes on the wire "
              f"({load['total_body_bytes']} decoded), requests:")
        for row in load["requests"]:
            wire = "open" if row["open_stream"] else row["wire_bytes"]
            print(f"  {row['url'][:60]:60} {str(row['status']):4} {row['encoding']:5} "
                  f"wire {wire!s:>6}  body {row['body_bytes']:>6}  "
                  f"req.hdr {row['request_header_bytes']}")
    print("\nOne live update on B (median over the run):")
    for k, v in lat["update_bytes_median"].items():
        print(f"  {k:24} {v}")
    print(f"  request headers B sends per fragment fetch: "
          f"{lat['fragment_request_header_bytes_median']}; response headers: "
          f"{lat['fragment_response_header_bytes_median']}")
    print(f"  encodings: sheet {lat['update_bytes_last']['sheet_encoding']}, "
          f"entry {lat['update_bytes_last']['entry_encoding']}")


if __name__ == "__main__":
    sys.exit(main())
