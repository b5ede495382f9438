"""A group's statistics: folding 2,000 recorded games, and reading the figures back.

    python tests/perf/bench_stats.py [--games 2000] [--players 8] [--seed 2029] [--repeat 20]

Makes `--games` random recorded games of a group of `--players` people (Rook with its
hands' facts, Zock'n'Roll with its turns, and score pads both ways), a week apart in fives,
then reports, in CPU time of this process (`time.process_time`):

- folding every game in one by one (`add`), per game;
- `view` of the whole total (every statistic of docs/STATS.md), median and worst of
  `--repeat` runs: what a group's page or stats.json costs on each view;
- taking the newest game out and putting it back (`remove` + `add`): an edited last hand;
- the total's size as JSON, and the time to load it back from JSON (a server that keeps
  the total in the database reads it once per request).

Not collected by pytest (tests/perf is in norecursedirs). Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.stats import add, empty, remove, view   # noqa: E402

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou"]
ROWS = ["winner", "yahtzee", "four_kind", "large_straight", "full_house", "three_kind",
        "two_pair", "pair", "dropped_out"]


def make(n: int, people: int, rnd: random.Random) -> list[tuple[dict, dict | None]]:
    names = NAMES[:people]
    out = []
    for i in range(n):
        day, minute = divmod(i, 5)
        when = f"2026-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T19:{minute * 10:02d}:00Z"
        kind = rnd.choice(["rook", "rook", "scorepad", "zocknroll"])
        record = {"id": i, "table_id": f"t{day}", "started_at": when, "finished_at": when}
        if kind == "rook":
            seats = rnd.sample(names, 4)
            teams = [seats[0::2], seats[1::2]]
            won = rnd.randrange(2)
            hands = [{"bidder": rnd.choice(seats), "bid": rnd.randrange(100, 205, 5),
                      "made": rnd.random() < .7,
                      "changes": {"A": rnd.randrange(-200, 250, 5),
                                  "B": rnd.randrange(-200, 250, 5)}}
                     for _ in range(rnd.randrange(4, 12))]
            for h in hands:
                h["team"] = "AB"[seats.index(h["bidder"]) % 2]
            record.update(game="rook", players=seats, teams=teams,
                          scores={"A": rnd.randrange(-100, 700), "B": rnd.randrange(-100, 700)},
                          winners=teams[won], settings={"variant": "family"})
            facts = {"game": "rook", "teams": {"A": teams[0], "B": teams[1]}, "hands": hands}
        elif kind == "zocknroll":
            seats = rnd.sample(names, rnd.randrange(3, 6))
            jorg = len(seats) == 3
            turns = []
            for _ in range(rnd.randrange(8, 20)):
                dropped = {p: rnd.randrange(1, 3) for p in seats if rnd.random() < .5}
                into = [p for p in seats if p not in dropped] + (["Jörg"] if jorg else [])
                turns.append({"dropped": dropped, "showdown": into,
                              "winner": rnd.choice(into) if into else None})
            marks = {p: {r: rnd.randrange(0, 4) for r in ROWS} for p in seats}
            record.update(game="zocknroll", players=seats, teams=None,
                          scores={p: rnd.randrange(0, 80) for p in seats},
                          winners=[rnd.choice(seats)], settings={"board": "beginner"})
            facts = {"game": "zocknroll", "board": "beginner", "jorg": jorg,
                     "jorg_total": rnd.randrange(0, 80) if jorg else None,
                     "jorg_won": False, "marks": marks, "turns": turns}
        else:
            seats = rnd.sample(names, rnd.randrange(2, 7))
            settings = {"low_wins": rnd.random() < .5, "name": rnd.choice(["Hearts", "Golf"])}
            record.update(game="scorepad", players=seats, teams=None,
                          scores={p: rnd.randrange(0, 200) for p in seats},
                          winners=[rnd.choice(seats)], settings=settings)
            facts = None
        out.append((record, facts))
    return out


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2029)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    games = make(args.games, args.players, random.Random(args.seed))
    total = empty()

    def fold_all():
        for record, facts in games:
            add(total, record, facts)

    folding = cpu(fold_all)
    views = [cpu(lambda: view(total)) for _ in range(args.repeat)]
    last = games[-1]
    edit = cpu(lambda: (remove(total, *last), add(total, *last)))
    text = json.dumps(total)
    loads = cpu(lambda: json.loads(text))
    print(f"| {args.games} games, {args.players} players | CPU time |")
    print("|---|---:|")
    print(f"| add, per game | {folding / args.games:.3f} ms |")
    print(f"| view, median of {args.repeat} | {statistics.median(views):.1f} ms |")
    print(f"| view, worst | {max(views):.1f} ms |")
    print(f"| remove + add of the newest game | {edit:.2f} ms |")
    print(f"| the total as JSON | {len(text) / 1024:.0f} KiB |")
    print(f"| json.loads of the total | {loads:.1f} ms |")


if __name__ == "__main__":
    main()
