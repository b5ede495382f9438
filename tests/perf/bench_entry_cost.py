"""CPU per score entry as a table's log grows (the twentieth game's must cost no more).

    python tests/perf/bench_entry_cost.py [--games 20] [--rounds 20] [--big 2000]
                                          [--app-dir DIR] [--json PATH]

In-process (Flask's test client on a fresh SQLite file, one process, no gunicorn), so the
figures are the server's own CPU time per request, measured with `time.process_time()`
around each request; the time spent inside `companion.tables.enter` (the service call,
which holds the write lock: `BEGIN IMMEDIATE` ... `COMMIT`) is measured the same way by
wrapping it. Nothing else runs in the process while a request is timed. Request
connections are kept open between requests, as in a server whose phones hold live
streams (the connection pool of companion/storage/db.py).

1. Growth: one score pad for five (house rule: `--rounds` rounds, so every game's sheet has
   the same size), `--games` games of `--rounds` rounds in a row with a rematch after
   each, every round a `POST /t/<id>/actions` the way htmx sends it (CSRF token, a fresh
   submission id, the version shown). Reported per game: the median CPU per entry of the
   route, of the service call and of drawing the answer (`render_template` in
   companion/web/table.py). The target: game `--games` <= 1.3 x game 2.
   It runs twice: "warm", where the process that takes the entry also made the table's
   previous change (its in-process caches know the table's current version), and "cold",
   where they are emptied before each entry (with gunicorn's two workers about every
   other entry lands on the worker that did not see the last change).
2. A long log: a table whose log holds `--big` actions (games of `--rounds` rounds and
   rematches, entered through the service, not timed) then enters `--rounds` rounds
   through the route, against a fresh table's first `--rounds` rounds. The target: as
   fast as the fresh one. (Its sheet lists every earlier game, so drawing the answer
   costs more there: the render is reported apart.)

`--app-dir DIR` imports the `companion` package from DIR (a snapshot of another commit,
for a before/after comparison). Writes JSON (default test-artifacts/bench_entry_cost.json)
and prints a summary. docs/BENCHMARKS.md ("An entry costs the same in the twentieth game")
has the figures. Not collected by pytest (`norecursedirs` skips tests/perf).
"""
from __future__ import annotations

import argparse
import gc
import json
import re
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
VERSION_RE = re.compile(r'id="sheet"[^>]*data-version="(\d+)"')
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def _setup_path(app_dir: str | None) -> None:
    if app_dir:
        sys.path.insert(0, str(Path(app_dir).resolve()))
    sys.path.insert(0, str(HERE.parent / "web"))
    sys.path.insert(0, str(HERE.parent))      # tests/: the shared helpers


class Meter:
    """CPU seconds spent inside `module.name` (wrapped), summed since `reset()`."""

    def __init__(self, module, name: str):
        self.inner = getattr(module, name)
        self.last = 0.0
        setattr(module, name, self._call)

    def reset(self) -> None:
        self.last = 0.0

    def _call(self, *args, **kwargs):
        start = time.process_time()
        try:
            return self.inner(*args, **kwargs)
        finally:
            self.last += time.process_time() - start


class Bench:
    def __init__(self, workdir: Path, rounds: int):
        from companion import tables
        from companion.web import fragments
        from companion.tables import fold as fold_module
        from web_helpers import Phone, make_app

        from companion.storage.db import pool

        self.tables = tables
        self.fold_module = fold_module
        self.app = make_app(workdir)
        # As in a server whose phones hold live streams: request connections are kept
        # open and lent to the next request (companion/storage/db.py, _Pool).
        pool.hold(self.app.config["DATABASE"])
        self.meter = Meter(tables, "enter")
        # The answer's HTML: drawn by the table's rendering caches (web/fragments.py).
        self.render = Meter(fragments, "render_template")
        self.rounds = rounds
        self.Phone = Phone
        self.seed = 0

    def new_table(self):
        host = self.Phone(self.app, "host")
        table_id = host.create_table(NAMES, me=0, rounds=self.rounds)
        page = host.get(f"/t/{table_id}/play", hx=True).get_data(as_text=True)
        return host, table_id, int(VERSION_RE.search(page).group(1))

    def forget(self) -> None:
        """Empty the in-process caches a table's previous change filled (the other worker)."""
        cache = getattr(self.fold_module, "_cache", None)
        if cache is not None:
            cache.clear()

    def entry(self, host, table_id: str, version: int, cold: bool) -> tuple[int, float, float,
                                                                           float]:
        """One round through the route: (new version, route CPU s, service CPU s, wall s);
        the CPU spent rendering the answer is left in `self.render.last`."""
        self.seed += 1
        data = {"sid": secrets.token_urlsafe(16), "version": str(version)}
        data.update({f"score_{p}": str((self.seed * 7 + p * 13) % 41 - 5) for p in range(5)})
        data["csrf_token"] = host.csrf()
        if cold:
            self.forget()
        gc.collect()
        self.meter.reset()
        self.render.reset()
        wall, cpu = time.perf_counter(), time.process_time()
        r = host.client.post(f"/t/{table_id}/actions", data=data, headers={"HX-Request": "true"})
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        body = r.get_data(as_text=True)
        assert r.status_code == 200 and "Saved as entry" in body, body[:500]
        return int(VERSION_RE.search(body).group(1)), cpu, self.meter.last, wall

    def rematch(self, host, table_id: str, version: int) -> int:
        r = host.post(f"/t/{table_id}/rematch", {"sid": secrets.token_urlsafe(16),
                                                 "version": str(version)}, hx=True)
        body = r.get_data(as_text=True)
        assert r.status_code == 200, body[:500]
        return int(VERSION_RE.search(body).group(1))


def ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1000, 3)


def growth(bench: Bench, games: int, cold: bool) -> list[dict]:
    host, table_id, version = bench.new_table()
    out = []
    for game in range(1, games + 1):
        route, service, render, wall = [], [], [], []
        for _ in range(bench.rounds):
            version, cpu, inner, w = bench.entry(host, table_id, version, cold)
            route.append(cpu)
            service.append(inner)
            render.append(bench.render.last)
            wall.append(w)
        out.append({"game": game, "entries": len(route), "route_cpu_ms": ms(route),
                    "service_cpu_ms": ms(service), "render_cpu_ms": ms(render),
                    "route_wall_ms": ms(wall),
                    "route_cpu_ms_mean": round(statistics.mean(route) * 1000, 3)})
        if game < games:
            version = bench.rematch(host, table_id, version)
    return out


def long_log(bench: Bench, big: int) -> dict:
    """A table whose log holds `big` actions, then `rounds` entries; and a fresh table's."""
    tables = bench.tables
    from companion.storage import connect
    from companion.tables.tokens import new_submission_id

    host, table_id, _version = bench.new_table()
    db = connect(bench.app.config["DATABASE"])
    row = db.execute("SELECT id FROM phones WHERE table_id = ? AND seat = 0", [table_id]).fetchone()
    phone = tables.Phone(id=row[0], table_id=table_id, seat=0)
    built = time.perf_counter()
    n, k, games = 0, 0, 0
    while n < big:
        for _ in range(bench.rounds):
            k += 1
            scores = {name: (k * 7 + i * 13) % 41 - 5 for i, name in enumerate(NAMES)}
            version = tables.get_table(db, table_id).version
            bench.meter.inner(db, table_id, phone, {"kind": "round", "scores": scores},
                              version, new_submission_id())
            n += 1
        tables.rematch(db, table_id, phone, new_submission_id())
        n += 1
        games += 1
    built = time.perf_counter() - built
    actions = db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", [table_id]).fetchone()[0]
    db.conn.close()
    version = int(VERSION_RE.search(host.get(f"/t/{table_id}/play", hx=True)
                                    .get_data(as_text=True)).group(1))
    out = {"actions_before": actions, "games_before": games, "build_seconds": round(built, 1)}
    for name, (h, tid, v) in (("long", (host, table_id, version)),
                              ("fresh", bench.new_table())):
        for cold in (False, True):
            route, service, render = [], [], []
            for _ in range(bench.rounds):
                v, cpu, inner, _w = bench.entry(h, tid, v, cold)
                route.append(cpu)
                service.append(inner)
                render.append(bench.render.last)
            out[f"{name}_{'cold' if cold else 'warm'}"] = {
                "route_cpu_ms": ms(route), "service_cpu_ms": ms(service),
                "render_cpu_ms": ms(render)}
            if not cold:
                v = bench.rematch(h, tid, v)
    return out



def report(r: dict) -> str:
    m = r["machine"]
    lines = [f"{m['date']} · {m['nproc']} CPUs ({m['cpu']}) · Python {m['python']} · "
             f"SQLite {m['sqlite']} · load average before {' '.join(f'{x:.2f}' for x in m['loadavg_before'])}",
             f"command: {r['command']}", "",
             "CPU ms per entry (median of the game's entries): route = the whole POST "
             "/t/<id>/actions, service = inside tables.enter (holds the write lock), render = "
             "drawing the answer (templates)", "",
             f"{'game':>4} {'warm route':>10} {'service':>8} {'render':>7} {'cold route':>10} "
             f"{'service':>8} {'render':>7}"]
    for w, c in zip(r["growth"]["warm"], r["growth"]["cold"]):
        lines.append(f"{w['game']:>4} {w['route_cpu_ms']:>10} {w['service_cpu_ms']:>8} "
                     f"{w['render_cpu_ms']:>7} {c['route_cpu_ms']:>10} "
                     f"{c['service_cpu_ms']:>8} {c['render_cpu_ms']:>7}")
    for mode in ("warm", "cold"):
        g = r["growth"][f"ratio_{mode}"]
        lines.append(f"{mode}: game {r['settings']['games']} / game 2 = {g['route']} (route), "
                     f"{g['service']} (service)")
    big = r.get("long_log")
    if big:
        lines.append(f"\nlong log: {big['actions_before']} actions, {big['games_before']} "
                     f"earlier games on its sheet (built in {big['build_seconds']} s, not timed)")
        for key in ("long_warm", "fresh_warm", "long_cold", "fresh_cold"):
            lines.append(f"  {key:11} route {big[key]['route_cpu_ms']:>7} ms  service "
                         f"{big[key]['service_cpu_ms']:>7} ms  render "
                         f"{big[key]['render_cpu_ms']:>7} ms")
        for mode in ("warm", "cold"):
            x = big[f"ratio_{mode}"]
            lines.append(f"  {mode}: long / fresh = {x['route']} (route), {x['service']} "
                         f"(service), {x['render']} (render), {x['route_without_render']} "
                         "(route without the render)")
    lines.append(f"\ntotal wall time: {r['wall_seconds']} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--big", type=int, default=2000, help="actions in the long log (0: skip)")
    parser.add_argument("--app-dir")
    parser.add_argument("--json", default=str(REPO / "test-artifacts" / "bench_entry_cost.json"))
    args = parser.parse_args(argv)
    _setup_path(args.app_dir)
    started = time.perf_counter()
    from helpers import machine
    result: dict = {"machine": machine(), "settings": vars(args),
                    "command": "python tests/perf/bench_entry_cost.py " +
                    " ".join(argv if argv is not None else sys.argv[1:])}
    with tempfile.TemporaryDirectory(prefix="companion-entry-cost-") as tmp:
        bench = Bench(Path(tmp), args.rounds)
        import companion
        result["companion"] = str(Path(companion.__file__).parent)
        result["growth"] = {"warm": growth(bench, args.games, cold=False),
                            "cold": growth(bench, args.games, cold=True)}
        for mode in ("warm", "cold"):
            rows = result["growth"][mode]
            first = rows[1] if len(rows) > 1 else rows[0]
            result["growth"][f"ratio_{mode}"] = {
                key: round(rows[-1][f"{key}_cpu_ms"] / first[f"{key}_cpu_ms"], 3)
                for key in ("route", "service")}
        if args.big:
            big = long_log(bench, args.big)
            for mode in ("warm", "cold"):
                long_, fresh = big[f"long_{mode}"], big[f"fresh_{mode}"]
                big[f"ratio_{mode}"] = {
                    key: round(long_[f"{key}_cpu_ms"] / fresh[f"{key}_cpu_ms"], 3)
                    for key in ("route", "service", "render")}
                big[f"ratio_{mode}"]["route_without_render"] = round(
                    (long_["route_cpu_ms"] - long_["render_cpu_ms"])
                    / (fresh["route_cpu_ms"] - fresh["render_cpu_ms"]), 3)
            result["long_log"] = big
    result["wall_seconds"] = round(time.perf_counter() - started, 1)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    text = report(result)
    out.with_suffix(".txt").write_text(text + "\n")
    print(text)
    print(f"\nJSON: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
