"""A 300-player Rook event end to end: 150 teams, 5 Swiss rounds of 75 tables.

Every table is played on its own sheet the way the room plays it: a player of each team
taps "This is me" on the players' page, "Open table" seats the phone, and hands are
entered until the game ends; one table per round is played on paper (the director enters
its result with scores) and one finished table is corrected. The director seats each
round, watches the dashboard, locks the round; the standings follow. Timed here: seating,
the dashboard (page and its 5-second fragment), the standings, the projector and the lock.

    python tests/perf/bench_event.py [--teams 150] [--rounds 5] [--seed 13]

It runs the app in-process (Flask's test client, a fresh SQLite database), so the figures
are the server's own time per request on this machine. `tests/web/test_web_event_scale.py`
runs the same event (with shorter games) as a test and checks the outcome.
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "web"))
sys.path.insert(0, str(HERE.parent))      # tests/: the shared test helpers (web_helpers uses them)

from web_helpers import Phone, make_app  # noqa: E402


def _db(app):
    return sqlite3.connect(app.config["DATABASE"])


def _rows(app, sql: str, params=()):
    conn = _db(app)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


class Timer:
    """Wall-clock time of named steps (milliseconds)."""

    def __init__(self):
        self.times: dict[str, list[float]] = {}

    def __call__(self, name: str, fn):
        start = time.perf_counter()
        result = fn()
        self.times.setdefault(name, []).append((time.perf_counter() - start) * 1000)
        return result

    def summary(self) -> dict[str, dict[str, float]]:
        out = {}
        for name, values in self.times.items():
            values = sorted(values)
            out[name] = {"n": len(values), "median_ms": round(statistics.median(values), 1),
                         "max_ms": round(values[-1], 1)}
        return out


def team_lines(teams: int) -> list[str]:
    return [f"P{2 * i + 1:03d}, P{2 * i + 2:03d}" for i in range(teams)]


def play_rook_table(app, event_id: str, table_id: str, rng: random.Random,
                    target: int | None, phones: dict | None = None) -> int:
    """A team A player sits down through the players' page and enters hands until the game
    is over. Returns the number of hands entered. `phones`: the players' phones by name,
    kept from round to round (a player's claim stays on their one phone)."""
    seat0 = _rows(app, "SELECT name FROM seats WHERE table_id = ? AND pos = 0", [table_id])[0][0]
    phones = {} if phones is None else phones
    phone = phones.get(seat0)
    if phone is None:
        phone = phones[seat0] = Phone(app, seat0)
        assert phone.pick(event_id, seat0).status_code == 303
    r = phone.post(f"/e/{event_id}/my-table")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table_id}"), \
        r.headers.get("Location")
    hands = 0
    form = phone.entry_form(table_id)
    while True:
        points_a = rng.randrange(60, 251, 5)
        data = {"sid": form["sid"], "version": form["version"], "bidder": seat0,
                "bid": "150", "points_A": str(points_a)}
        r = phone.post(f"/t/{table_id}/actions", data, hx=True)
        assert r.status_code == 200, r.get_data(as_text=True)[:500]
        hands += 1
        status = _rows(app, "SELECT status FROM tables WHERE id = ?", [table_id])[0][0]
        if status == "over":
            return hands
        assert hands < 40, "a Rook game that never ends"
        page = r.get_data(as_text=True)
        form = {"sid": re.search(r'name="sid" value="([^"]+)"', page).group(1),
                "version": re.search(r'name="version" value="(\d+)"', page).group(1)}


def run_event(app, teams: int = 150, rounds: int = 5, seed: int = 13,
              target: int | None = None, timer: Timer | None = None) -> dict:
    """Run the whole event; returns what a test checks (seatings, results, standings)."""
    timer = timer or Timer()
    rng = random.Random(seed)
    director = Phone(app, "Director")
    settings = {"variant": "family"}
    if target:
        settings["target"] = str(target)
    data = {"event_name": "Rook open", "event_rounds": str(rounds),
            "entrants": "\n".join(team_lines(teams)), **settings}
    r = timer("create event", lambda: director.post("/events/new/rook", data))
    assert r.status_code == 303, r.get_data(as_text=True)[:800]
    event_id = r.headers["Location"].rsplit("/", 1)[1]
    hands = 0
    phones: dict = {}
    for rnd in range(1, rounds + 1):
        r = timer("seat round", lambda: director.post(f"/e/{event_id}/seat"))
        assert r.status_code == 303, r.get_data(as_text=True)[:800]
        seated = _rows(app, "SELECT table_no, table_id, entrants FROM event_seatings WHERE"
                       " event_id = ? AND round = ? ORDER BY table_no", [event_id, rnd])
        timer("dashboard page (round seated)", lambda: director.get(f"/e/{event_id}"))
        paper, corrected = seated[-1], seated[0]
        for table_no, table_id, _entrants in seated:
            if table_no == paper[0]:
                continue
            hands += play_rook_table(app, event_id, table_id, rng, target, phones)
            if table_no % 25 == 0:          # the director's room, polled while tables play
                timer("dashboard fragment (playing)",
                      lambda: director.get(f"/e/{event_id}", hx=True))
        # The paper table: the director types its result with the scores from the sheet.
        r = timer("enter a result", lambda: director.post(f"/e/{event_id}/correct", {
            "round": str(rnd), "table": str(paper[0]), "place_0": "1", "place_1": "2",
            "score_0": "620", "score_1": "410", "why": "played on paper"}))
        assert r.status_code == 303, r.get_data(as_text=True)[:800]
        # A finished table's slip was misread: corrected, with the scores swapped.
        r = timer("correct a result", lambda: director.post(f"/e/{event_id}/correct", {
            "round": str(rnd), "table": str(corrected[0]), "place_0": "2", "place_1": "1",
            "why": "wrong team recorded"}))
        assert r.status_code == 303, r.get_data(as_text=True)[:800]
        for _ in range(3):
            page = timer("dashboard page (all finished)", lambda: director.get(f"/e/{event_id}"))
            timer("dashboard fragment (all finished)",
                  lambda: director.get(f"/e/{event_id}", hx=True))
        assert page.get_data(as_text=True).count('data-status="finished"') == len(seated)
        timer("standings page", lambda: director.get(f"/e/{event_id}/standings"))
        timer("projector", lambda: director.get(f"/e/{event_id}/projector"))
        r = timer("lock round", lambda: director.post(f"/e/{event_id}/lock", {"round": str(rnd)}))
        assert r.status_code == 303, r.get_data(as_text=True)[:800]
    page = timer("standings page", lambda: director.get(f"/e/{event_id}/standings"))
    seatings = [(rnd, json.loads(e)) for rnd, e in _rows(
        app, "SELECT round, entrants FROM event_seatings WHERE event_id = ?", [event_id])]
    byes = [json.loads(b) for (b,) in _rows(
        app, "SELECT byes FROM event_rounds WHERE event_id = ? ORDER BY round", [event_id])]
    results = [json.loads(r) for (r,) in _rows(
        app, "SELECT result FROM event_results WHERE event_id = ?", [event_id])]
    return {"event_id": event_id, "seatings": seatings, "byes": byes, "results": results,
            "standings_page": page.get_data(as_text=True), "hands": hands,
            "director": director}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(Path(tmp))
        timer = Timer()
        started = time.perf_counter()
        out = run_event(app, args.teams, args.rounds, args.seed, timer=timer)
        wall = time.perf_counter() - started
    print(f"# {args.teams} Rook teams ({2 * args.teams} players), {args.rounds} rounds,"
          f" {len(out['results'])} results, {out['hands']} hands entered on table sheets")
    print(f"# python {platform.python_version()}, {platform.machine()}, wall {wall:.1f} s")
    print(f"{'step':36} {'n':>4} {'median ms':>10} {'max ms':>9}")
    for name, row in timer.summary().items():
        print(f"{name:36} {row['n']:>4} {row['median_ms']:>10} {row['max_ms']:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
