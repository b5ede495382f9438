"""A group's pages with 2,000 recorded games: server time of ``/g/<id>``,
``/g/<id>/stats.json``, a player's page ``/g/<id>/players/<pid>`` and a recorded game's
read-only page ``/g/<id>/games/<game_id>``.

    python tests/perf/bench_group_pages.py [--games 2000] [--players 8] [--seed 2029] [--repeat 30]

Makes a group through the app (``POST /g/new``, the Flask test client being its first
phone), then writes `--games` recorded games into it directly (the same random mix as
tests/perf/bench_stats.py: Rook with its hands' facts, Zock'n'Roll with its turns, score
pads both ways), each row with its facts and its seats (``group_game_players``, what a
player's page lists), plus one Rook game played through the rules to 600 with its real
final summary (the game page draws its sheet), and the group's kept total
(``companion.stats.build``, as ``group_stats`` holds it after the games finished one by
one). Then it asks for each page `--repeat` times with the test client and reports the
median and worst wall time and CPU time of the whole request inside the app (routing,
the database, the template; no network). The issue's budget: under 50 ms.

Not collected by pytest (tests/perf is in norecursedirs). Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from bench_stats import make                      # noqa: E402

from companion import create_app, stats           # noqa: E402
from companion.rules import find_game             # noqa: E402
from companion.storage import connect             # noqa: E402


def rook_game(when: str) -> tuple[dict, dict, dict]:
    """A Rook game to 600 (family rules) played through the rules: its record, facts and
    final summary, as a group's table records them."""
    game = find_game("rook")
    seats = ["Ann", "Bob", "Cid", "Dee"]
    state = game.new({}, seats)
    hand = 0
    while not game.summary(state)["over"]:
        hand += 1
        bidder = seats[hand % 4]
        state = game.apply(state, {"kind": "hand", "bidder": bidder, "bid": 150 + 5 * (hand % 8),
                                   "points": {"A": 130 + 10 * (hand % 5),
                                              "B": 120 - 10 * (hand % 5)}})
    summary = game.summary(state)
    outcome = game.outcome(state)
    teams = [seats[0::2], seats[1::2]]
    labels = summary["team_names"]
    record = {"id": -1, "game": "rook", "table_id": "bench-rook", "started_at": when,
              "finished_at": when, "players": seats, "teams": teams,
              "scores": {labels[k]: v for k, v in outcome.totals.items()},
              "winners": [p for i, t in enumerate(teams) for p in t if "AB"[i] in outcome.winners],
              "settings": dict(summary["settings"])}
    return record, stats.facts_of_summary("rook", summary), summary


def fill(db_path: str, group_id: str, games: list[tuple[dict, dict | None]]) -> int:
    """Write the games as recorded games of the group, with their facts, seats and the
    kept total; then one Rook game with its real summary, whose id is returned."""
    db = connect(db_path)
    kept = []
    ids = {r[1]: r[0] for r in db.execute("SELECT id, name FROM group_players WHERE"
                                          " group_id = ?", [group_id]).fetchall()}
    record, facts, summary = rook_game(games[-1][0]["finished_at"])
    games = list(games) + [(record, facts)]
    with db.conn:
        for record, facts in games:
            game_id = db.execute(
                "INSERT INTO group_games (group_id, table_id, game_no, game, settings,"
                " started_at, finished_at, players, teams, scores, winners, lower_wins,"
                " summary, facts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                [group_id, f"bench-{record['id']}", 1, record["game"],
                 json.dumps(record["settings"]), record["started_at"], record["finished_at"],
                 json.dumps(record["players"]),
                 json.dumps(record["teams"]) if record["teams"] else None,
                 json.dumps(record["scores"]), json.dumps(record["winners"]),
                 int(bool(record["settings"].get("low_wins"))),
                 json.dumps(summary if record["id"] == -1 else {}),
                 json.dumps(facts or {"game": record["game"]})]).fetchone()[0]
            team_of = {p: "AB"[i] for i, t in enumerate(record["teams"] or []) for p in t}
            for seat, name in enumerate(record["players"]):
                score = record["scores"].get(name)
                db.execute("INSERT INTO group_game_players (game_id, group_id, player_id,"
                           " seat, team, score, place, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           [game_id, group_id, ids[name], seat, team_of.get(name),
                            score, None, int(name in record["winners"])])
            # The id the app gives the record, so the total matches what it serves.
            kept.append((dict(record, id=game_id), facts or {"game": record["game"]}))
        db.execute("INSERT OR REPLACE INTO group_stats (group_id, stats, games) VALUES (?, ?, ?)",
                   [group_id, json.dumps(stats.build(kept)), len(kept)])
    return game_id


def timed(client, url: str, repeat: int) -> tuple[list[float], list[float], int]:
    walls, cpus, size = [], [], 0
    for _ in range(repeat + 2):
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
        assert response.status_code == 200, (url, response.status_code)
        size = len(response.get_data())
    return walls[2:], cpus[2:], size      # the first two warm the caches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2029)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "INSTANCE_PATH": tmp, "SECRET_KEY": "bench",
                          "DATABASE": str(Path(tmp) / "bench.db")})
        client = app.test_client()
        page = client.get("/g/new").get_data(as_text=True)
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
        names = "\n".join(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida",
                           "Jon", "Kim", "Lou"][:args.players])
        r = client.post("/g/new", data={"name": "Bench", "players": names,
                                        "csrf_token": token})
        assert r.status_code == 303, r.status_code
        group_id = r.headers["Location"].rstrip("/").rsplit("/", 1)[1]
        rook_id = fill(app.config["DATABASE"], group_id,
                       make(args.games - 1, args.players, random.Random(args.seed)))
        print(f"| {args.games} games, {args.players} players, median of {args.repeat} "
              "| wall | CPU | worst wall | bytes |")
        print("|---|---:|---:|---:|---:|")
        for label, url in (("`/g/<id>`", f"/g/{group_id}"),
                           ("`/g/<id>/stats.json`", f"/g/{group_id}/stats.json"),
                           ("`/g/<id>/players/<pid>` (Ann)", f"/g/{group_id}/players/1"),
                           ("`/g/<id>/games/<game_id>` (Rook)",
                            f"/g/{group_id}/games/{rook_id}")):
            walls, cpus, size = timed(client, url, args.repeat)
            print(f"| {label} | {statistics.median(walls):.1f} ms | "
                  f"{statistics.median(cpus):.1f} ms | {max(walls):.1f} ms | {size:,} |")


if __name__ == "__main__":
    main()
