"""No request may cost the room: an honest table's entries while phones hammer the RockIt
board check, and what a big event's standings and a long table's history cost.

    python tests/perf/bench_room.py [--seconds 30] [--attackers 4] [--cards 80]
                                    [--modes limited,unlimited] [--app-dir DIR]
                                    [--no-inprocess] [--entrants 2500] [--games 2000]
                                    [--json PATH]

Part 1, against the real server. For each mode it makes a fresh instance folder and starts
the tournament server as the README says, on loopback only:

    gunicorn -k gevent -w 2 --worker-connections 4000 -b 127.0.0.1:PORT "companion:create_app()"

(the instance's config.py lifts the table-creation quota; mode ``unlimited`` also lifts the
RockIt check's per-address limit, TOOL_RATE_LIMIT, so every attacking request reaches the
solver; mode ``limited`` keeps the shipped limit). One honest phone (a cookie jar, its
CSRF token) creates a score pad for two and enters a round, waits 0.2 s, enters the next,
and so on, each POST /t/<id>/actions as htmx sends it, against the version the last answer
showed. Its entry latency (request sent -> answer read) is measured for ``--seconds``
quiet, then for ``--seconds`` while ``--attackers`` keep-alive connections (threads of
a second process, so they share no GIL with the honest phone) each send GET /rockit/check
with the same ``--cards``-card board (see ``board()``: by default 80 natural cards that
can't be laid out, the hardest of 300 deals, all in the "every card on the board" box) as
fast as the answers come. Reported: entries, p50/p95/max per phase, p95 hammered / p95
quiet (target <= 2), and the attackers' answers by status. Every loop stops by itself
after its phase.

``--app-dir DIR`` serves the ``companion`` package found in DIR (e.g. a ``git archive`` of
an older commit, for the "before" figures: that code has no limit, so run it with
``--modes unlimited``).

Part 2, in-process (Flask's test client on a fresh SQLite file), unless ``--no-inprocess``:
- a score-pad event of 2,500 entrants at tables of 4, round 1 played (paper results) and
  locked, round 2 seated: an anonymous GET of the standings page and of the projector,
  cold (caches emptied, the whole standings on one page: what every GET cost before) and
  warm (the cached drawing, 200 places a page), median of 10, and the bytes;
- a score pad that played 2,000 one-round games: the history page (newest 100 entries)
  against the whole log on one page (HISTORY_PAGE lifted: what it was before), and
  striking the first game's entry (the bounded refold) against a full replay of the log
  (what the strike used to do inside the write lock).
Not collected by pytest (tests/perf is in norecursedirs).
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))             # tests/: the shared test helpers
sys.path.insert(0, str(HERE.parent / "web"))

import bench_load  # noqa: E402
from helpers import machine  # noqa: E402

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
PACK = [r + s for r in RANKS for s in "SHDC"] * 2 + ["JK"] * 4
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')


def board(seed: int, cards: int) -> list[str]:
    """The attackers' board: a choice of 0-2 jokers, then the rest natural cards of two
    decks, drawn with ``seed``. Seed 221 (80 cards): no jokers and no split exists, the
    slowest of 300 such deals for the solver (about 50 ms of CPU on this machine)."""
    rng = random.Random(seed)
    jokers = rng.choice([0, 1, 2])
    return rng.sample([c for c in PACK if c != "JK"], cards - jokers) + ["JK"] * jokers


def pct(values: list[float], p: float) -> float | None:
    return bench_load.pct(values, p)


class Browser:
    """One phone: a keep-alive connection, a cookie jar, its CSRF token."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def request(self, method: str, path: str, form: dict | None = None,
                hx: bool = False) -> tuple[int, dict, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if hx:
            headers["HX-Request"] = "true"
        if self.csrf and method == "POST":
            headers["X-CSRFToken"] = self.csrf
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode("utf-8", "replace")
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        for raw in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(raw)
            for key, morsel in cookie.items():
                self.cookies[key] = morsel.value
        found = CSRF.search(text)
        if found:
            self.csrf = found.group(1)
        return response.status, dict(response.headers), text


def honest_table(port: int, phases: list[tuple[str, float]], out: dict,
                 pause: float = 0.2) -> None:
    """Create a score pad for two and enter rounds until the phases are over; each entry's
    latency goes to out[phase]."""
    phone = Browser(port)
    status, _h, _t = phone.request("GET", "/new/scorepad")
    assert status == 200, status
    status, headers, text = phone.request("POST", "/new/scorepad", {
        "csrf_token": phone.csrf, "name_0": "Ann", "name_1": "Bob", "me": "0",
        "target": "", "rounds": ""})
    assert status == 303, (status, text[:300])
    table = urlsplit(headers["Location"]).path
    status, _h, text = phone.request("GET", table)
    assert status == 200, status
    version = VERSION.search(text).group(1)
    n = 0
    for phase, seconds in phases:
        times = out.setdefault(phase, [])
        errors = out.setdefault(phase + "_errors", [])
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            n += 1
            form = {"sid": uuid.uuid4().hex, "version": version,
                    "score_0": str(n % 7), "score_1": str(n % 5)}
            began = time.perf_counter()
            try:
                status, _h, text = phone.request("POST", f"{table}/actions", form, hx=True)
            except (http.client.HTTPException, OSError) as exc:
                errors.append(repr(exc))
                continue
            took = time.perf_counter() - began
            found = VERSION.search(text)
            if status != 200 or found is None:
                errors.append(f"{status}: {text[:120]}")
            else:
                version = found.group(1)
                times.append(took * 1000)
            time.sleep(pause)


def attacker(port: int, path: str, stop: threading.Event, out: dict) -> None:
    """GET the board check again and again on one keep-alive connection until `stop`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while not stop.is_set():
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            out[response.status] = out.get(response.status, 0) + 1
        except (http.client.HTTPException, OSError):
            out["error"] = out.get("error", 0) + 1
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.close()


def attackers(port: int, path: str, count: int, seconds: float, queue) -> None:
    """In a process of its own (so the honest phone's thread shares no GIL with them):
    `count` attacker threads for `seconds`; their answers by status go to `queue`."""
    stop = threading.Event()
    answers: dict = {}
    threads = [threading.Thread(target=attacker, args=(port, path, stop, answers))
               for _ in range(count)]
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(60)
    queue.put(answers)


def run_mode(mode: str, args, workdir: Path) -> dict:
    """Quiet, then hammered, against a fresh server; see the module docstring."""
    instance = workdir / mode
    server = bench_load.companion_server(instance)
    if mode == "unlimited":
        # The server has read config.py already: restart it with the limit lifted.
        server.stop()
        with open(instance / "config.py", "a") as fh:
            fh.write('TOOL_RATE_LIMIT = "1000000 per minute"\n')
        env = {"COMPANION_INSTANCE_PATH": str(instance)}
        if bench_load.APP_DIR:
            env["PYTHONPATH"] = bench_load.APP_DIR
        server = bench_load.Server("companion:create_app()", instance, env)
    try:
        deal = board(args.seed, args.cards)
        path = "/rockit/check?" + urlencode({"q": "board", "check": "1", "decks": "2",
                                             "all": " ".join(deal)})
        # Warm both workers' helper processes and the solver's tables (not measured).
        warm: dict = {}
        stop = threading.Event()
        threads = [threading.Thread(target=attacker, args=(server.port, path, stop, warm))
                   for _ in range(2)]
        for t in threads:
            t.start()
        time.sleep(2)
        stop.set()
        for t in threads:
            t.join()
        if mode == "limited":
            # The warm-up spent part of this address's allowance: let the window pass.
            time.sleep(61)
        out: dict = {}
        honest = threading.Thread(target=honest_table, args=(
            server.port, [("quiet", args.seconds), ("hammered", args.seconds)], out))
        honest.start()
        time.sleep(args.seconds)                 # the quiet phase
        context = multiprocessing.get_context("fork")
        queue = context.Queue()
        hammer = context.Process(target=attackers, args=(server.port, path, args.attackers,
                                                         args.seconds + 1, queue))
        hammer.start()
        honest.join(args.seconds * 3 + 60)
        answers = queue.get(timeout=120)
        hammer.join(60)
        problems = server.problems()
    finally:
        server.stop()
    quiet, hammered = out.get("quiet", []), out.get("hammered", [])
    result = {"mode": mode, "answers": {str(k): v for k, v in sorted(answers.items(),
                                                                     key=str)},
              "server_problems": problems[:5]}
    for name, values in (("quiet", quiet), ("hammered", hammered)):
        result[name] = {"entries": len(values), "p50_ms": pct(values, 50),
                        "p95_ms": pct(values, 95),
                        "max_ms": round(max(values), 1) if values else None,
                        "errors": len(out.get(name + "_errors", []))}
    q95, h95 = result["quiet"]["p95_ms"], result["hammered"]["p95_ms"]
    result["p95_ratio"] = round(h95 / q95, 2) if q95 and h95 else None
    return result


# ---------------------------------------------------------------- part 2, in-process

def median_ms(call, times: int = 10) -> float:
    taken = []
    for _ in range(times):
        began = time.perf_counter()
        call()
        taken.append((time.perf_counter() - began) * 1000)
    return round(statistics.median(taken), 1)


def standings_cost(workdir: Path, entrants: int = 2500) -> dict:
    from companion.storage import connect
    from companion.events.event import get_event
    from companion.events.rounds import correct_result, lock_round, round_tables
    import companion.web.events.pages as web_events
    from web_helpers import Phone, make_app

    app = make_app(workdir / "event")
    director = Phone(app, "director")
    names = "\n".join(f"Player {i:04d}" for i in range(entrants))
    r = director.post("/events/new/scorepad", {"event_name": "Big", "event_rounds": "3",
                                               "entrants": names, "rounds": "1"})
    event_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
    assert director.post(f"/e/{event_id}/seat").status_code == 303
    with app.app_context():
        db = connect(app.config["DATABASE"])
        event = get_event(db, event_id)
        rng = random.Random(1)
        for row in round_tables(db, event, 1):
            places = list(range(1, len(row.entrants) + 1))
            rng.shuffle(places)
            correct_result(db, event, 1, row.number, places, "Director", "paper",
                           [rng.randint(0, 99) for _ in row.entrants])
        lock_round(db, get_event(db, event_id), 1)
    assert director.post(f"/e/{event_id}/seat").status_code == 303
    anon = Phone(app, "anon")
    out: dict = {"entrants": entrants}
    for page in ("standings", "projector"):
        url = f"/e/{event_id}/{page}"
        anon.get(url)                            # the round's sheets folded once
        size = len(anon.get(url).data)
        warm = median_ms(lambda: anon.get(url))
        saved = web_events.STANDINGS_ROWS
        web_events.STANDINGS_ROWS = 10**6        # the whole standings on one page, as before

        def cold():
            web_events._drawings._items.clear()
            web_events._paired._items.clear()
            return anon.get(url)
        try:
            cold_size = len(cold().data)
            cold_ms = median_ms(cold)
        finally:
            web_events.STANDINGS_ROWS = saved
        out[page] = {"warm_ms": warm, "bytes": size, "before_ms": cold_ms,
                     "before_bytes": cold_size}
    return out


def history_cost(workdir: Path, games: int = 2000) -> dict:
    from companion import tables
    from companion.storage import connect
    from companion.tables import fold as folds, service as table_service
    from companion.tables.tokens import new_submission_id
    from web_helpers import Phone, make_app

    app = make_app(workdir / "history")
    ann = Phone(app, "Ann")
    table_id = ann.create_table(["Ann", "Bob"], me=0, rounds=1)
    with app.app_context():
        db = connect(app.config["DATABASE"])
        phone = tables.phone_by_secret(db, table_id, ann.cookie("tc"))
        assert phone is not None, "Ann's phone"
        first = None
        version = tables.get_table(db, table_id).version
        for game in range(games):
            done = tables.enter(db, table_id, phone, {"kind": "round",
                                                      "scores": {"Ann": game % 9, "Bob": 3}},
                                version, new_submission_id())
            first = first or done.action.seq
            version = tables.rematch(db, table_id, phone, new_submission_id()).sheet.table.version
        actions = len(tables.history(db, tables.get_table(db, table_id)))
    url = f"/t/{table_id}/history"
    ann.get(url)
    page_bytes = len(ann.get(url).data)
    page_ms = median_ms(lambda: ann.get(url), 5)
    app.config["HISTORY_PAGE"] = 10**6           # the whole log on one page, as before
    whole_bytes = len(ann.get(url).data)
    whole_ms = median_ms(lambda: ann.get(url), 3)
    app.config["HISTORY_PAGE"] = 100
    with app.app_context():
        db = connect(app.config["DATABASE"])
        table = tables.get_table(db, table_id)
        names = ["Ann", "Bob"]
        replay_ms = median_ms(lambda: folds.fold(table.game, table.settings,
                                                 names, table_service._actions(db, table_id)),
                              3)
        began = time.perf_counter()
        tables.undo(db, table_id, phone, first, new_submission_id())
        strike_ms = round((time.perf_counter() - began) * 1000, 1)
        strike = tables.history(db, tables.get_table(db, table_id))[-1].seq
        began = time.perf_counter()
        tables.undo(db, table_id, phone, strike, new_submission_id())      # restore it
        restore_ms = round((time.perf_counter() - began) * 1000, 1)
    return {"games": games, "actions": actions, "page_bytes": page_bytes,
            "page_ms": page_ms, "whole_bytes": whole_bytes, "whole_ms": whole_ms,
            "strike_first_ms": strike_ms, "restore_first_ms": restore_ms,
            "full_replay_ms": replay_ms}


def report(result: dict) -> str:
    lines = ["| mode | phase | entries | p50 ms | p95 ms | max ms | errors |",
             "|---|---|---|---|---|---|---|"]
    for run in result["runs"]:
        for phase in ("quiet", "hammered"):
            r = run[phase]
            lines.append(f"| {run['mode']} | {phase} | {r['entries']} | {r['p50_ms']} | "
                         f"{r['p95_ms']} | {r['max_ms']} | {r['errors']} |")
        lines.append(f"| {run['mode']} | p95 hammered ÷ quiet | **{run['p95_ratio']}** | | | "
                     f"| answers to the attackers: {run['answers']} |")
    text = "\n".join(lines)
    if "standings" in result:
        s = result["standings"]
        text += "\n\n" + "\n".join(
            [f"standings of {s['entrants']} entrants, one anonymous GET:"]
            + [f"- {page}: {s[page]['warm_ms']} ms, {s[page]['bytes']:,} bytes "
               f"(uncached, whole list: {s[page]['before_ms']} ms, "
               f"{s[page]['before_bytes']:,} bytes)" for page in ("standings", "projector")])
    if "history" in result:
        h = result["history"]
        text += (f"\n\nhistory of {h['games']} games ({h['actions']} actions): page "
                 f"{h['page_bytes']:,} bytes in {h['page_ms']} ms (whole log on one page: "
                 f"{h['whole_bytes']:,} bytes in {h['whole_ms']} ms); striking game 1's "
                 f"entry {h['strike_first_ms']} ms, restoring it {h['restore_first_ms']} ms "
                 f"(a full replay of the log: {h['full_replay_ms']} ms)")
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--attackers", type=int, default=4)
    parser.add_argument("--cards", type=int, default=80)
    parser.add_argument("--seed", type=int, default=221)
    parser.add_argument("--modes", default="limited,unlimited")
    parser.add_argument("--app-dir", default=None)
    parser.add_argument("--no-inprocess", action="store_true")
    parser.add_argument("--entrants", type=int, default=2500)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    bench_load.APP_DIR = args.app_dir
    # The in-process part imports the same code the server runs.
    sys.path.insert(0, args.app_dir or str(HERE.parents[1]))
    result: dict = {"machine": machine("gunicorn", "gevent", "flask"), "args": vars(args)
                    | {"json": str(args.json) if args.json else None}, "runs": []}
    with tempfile.TemporaryDirectory(prefix="bench-room-") as tmp:
        workdir = Path(tmp)
        for mode in [m for m in args.modes.split(",") if m]:
            result["runs"].append(run_mode(mode, args, workdir))
            print(json.dumps(result["runs"][-1]), flush=True)
        if not args.no_inprocess:
            result["standings"] = standings_cost(workdir, args.entrants)
            result["history"] = history_cost(workdir, args.games)
    result["loadavg_after"] = list(__import__("os").getloadavg())
    print(report(result))
    print(f"machine: {result['machine']}; load average after: {result['loadavg_after']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
