"""RockIt to Destiny: how long `arrange` takes, against a plain backtracking solver.

    python tests/perf/bench_rockit.py [--per-band 100] [--seed 2026] [--timeout 10]
                                      [--backtrack 25] [--json PATH]

Random instances drawn from the full two-deck pack (104 cards + 4 jokers), a fixed seed,
`--per-band` instances in each size band (40–59, 60–79, 80–99, 100–108 cards). For each
band it reports the median, 95th percentile and worst time of `arrange` (parsing and the
written-out split included, one call each, after a short warm-up), and how many instances
can be split. Times are CPU time of this process (`time.process_time`), which a busy
machine disturbs far less than wall-clock time; the worst wall-clock time is shown too.

The plain backtracker (no memo, no bound: take the first card left, try every trick that
holds it, recurse) runs on the first `--backtrack` instances of each band ("all" for every
one), each with a `--timeout` in CPU seconds checked inside the search. The ratio is its time
over `arrange`'s on the instances it finished; the ones it did not finish are counted.
Not collected by pytest (tests/perf is in norecursedirs). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.rules.rockit import arrange, check_trick

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
SUITS = "SHDC"
PACK = [r + s for r in RANKS for s in SUITS] * 2 + ["JK"] * 4
BANDS = ((40, 59), (60, 79), (80, 99), (100, 108))


class OutOfTime(Exception):
    pass


def backtrack(cards: list[str], timeout: float) -> bool:
    """Plain backtracking: True if the cards split into valid tricks. Raises OutOfTime."""
    counts = [0] * 52
    for card in cards:
        if card != "JK":
            counts[RANKS.index(card[:-1]) * 4 + SUITS.index(card[-1])] += 1
    deadline = time.process_time() + timeout
    nodes = [0]

    def split(jokers: int) -> bool:
        nodes[0] += 1
        if not nodes[0] % 2000 and time.process_time() > deadline:
            raise OutOfTime
        first = next((i for i, n in enumerate(counts) if n), None)
        if first is None:
            return jokers == 0
        rank, suit = divmod(first, 4)
        counts[first] -= 1
        try:
            others = [s for s in range(4) if s != suit and counts[rank * 4 + s]]
            for k in range(len(others) + 1):
                for chosen in combinations(others, k):
                    size = 1 + k
                    if size > 4:
                        continue
                    for s in chosen:
                        counts[rank * 4 + s] -= 1
                    try:
                        for used in range(max(0, 3 - size), min(4 - size, jokers) + 1):
                            if split(jokers - used):
                                return True
                    finally:
                        for s in chosen:
                            counts[rank * 4 + s] += 1
            for length in range(3, 14):
                for place in range(length):
                    cells = [(rank - place + i) % 13 for i in range(length) if i != place]
                    if fill(cells, 0, jokers, suit):
                        return True
            return False
        finally:
            counts[first] += 1

    def fill(cells, at, jokers, suit):
        if at == len(cells):
            return split(jokers)
        index = cells[at] * 4 + suit
        if counts[index]:
            counts[index] -= 1
            try:
                if fill(cells, at + 1, jokers, suit):
                    return True
            finally:
                counts[index] += 1
        return bool(jokers) and fill(cells, at + 1, jokers - 1, suit)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    return split(cards.count("JK"))


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-band", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--backtrack", default="25",
                        help="instances per band for the backtracker, or 'all'")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bands = {band: [rng.sample(PACK, rng.randint(*band)) for _ in range(args.per_band)]
             for band in BANDS}
    for cards in bands[BANDS[0]][:20]:                 # warm the shared tables up
        arrange(cards)
    limit = args.per_band if args.backtrack == "all" else int(args.backtrack)
    rows = []
    every = []
    for band, instances in bands.items():
        times, walls, yes, worst = [], [], 0, (0.0, 0, None)
        ratios, unfinished, disagree = [], 0, 0
        for n, cards in enumerate(instances):
            wall, cpu = time.perf_counter(), time.process_time()
            split = arrange(cards)
            took = (time.process_time() - cpu) * 1000
            walls.append((time.perf_counter() - wall) * 1000)
            times.append(took)
            yes += split is not None
            if split is not None:
                assert sorted(c for t in split for c in t) == sorted(cards)
                assert all(check_trick(t) for t in split)
            if took > worst[0]:
                worst = (took, len(cards), split is not None)
            if n < limit:
                cpu = time.process_time()
                try:
                    answer = backtrack(cards, args.timeout)
                except OutOfTime:
                    unfinished += 1
                else:
                    slow = (time.process_time() - cpu) * 1000
                    ratios.append(slow / max(took, 1e-3))
                    disagree += answer != (split is not None)
        every += times
        rows.append({
            "band": f"{band[0]}–{band[1]}", "instances": len(instances), "splittable": yes,
            "median_ms": statistics.median(times), "p95_ms": percentile(times, 0.95),
            "worst_ms": worst[0], "worst_cards": worst[1], "worst_answer": worst[2],
            "worst_wall_ms": max(walls),
            "backtracked": min(limit, len(instances)), "bt_finished": len(ratios),
            "bt_unfinished": unfinished, "bt_disagree": disagree,
            "ratio_median": statistics.median(ratios) if ratios else None,
            "ratio_max": max(ratios) if ratios else None,
        })
    command = "python " + " ".join([sys.argv[0], *sys.argv[1:]])
    print(f"Command: `{command}`")
    print(f"Machine: {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the end "
          f"(other work may share the machine). Times: CPU ms of arrange per instance.")
    print()
    print(f"| cards | instances | splittable | median ms | p95 ms | worst ms (cards, answer) "
          f"| worst wall-clock ms | backtracker finished / tried (≤ {args.timeout:g} s CPU) "
          f"| backtracker ÷ arrange, median / max |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        ratio = ("—" if row["ratio_median"] is None else
                 f"{row['ratio_median']:,.0f}× / {row['ratio_max']:,.0f}×")
        answer = "yes" if row["worst_answer"] else "no"
        print(f"| {row['band']} | {row['instances']} | {row['splittable']} | "
              f"{row['median_ms']:.2f} | {row['p95_ms']:.2f} | {row['worst_ms']:.1f} "
              f"({row['worst_cards']}, {answer}) | {row['worst_wall_ms']:.1f} | "
              f"{row['bt_finished']} / {row['backtracked']} | {ratio} |")
    print(f"| all | {len(every)} | {sum(r['splittable'] for r in rows)} | "
          f"{statistics.median(every):.2f} | {percentile(every, 0.95):.2f} | "
          f"{max(every):.1f} | {max(r['worst_wall_ms'] for r in rows):.1f} | | |")
    if any(row["bt_disagree"] for row in rows):
        print("\nWARNING: the backtracker and arrange disagreed on some instance.")
        return 1
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"command": command, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
