"""A 300-player Rook event (150 teams, 5 Swiss rounds, 75 tables a round), scripted through
the Flask test client: every table seated, played on its own sheet (games to 300
here, so the run stays short), one paper result and one correction a round, every round
locked, the standings checked against the results. The timed version of the same run is
`python tests/perf/bench_event.py` (figures in docs/BENCHMARKS.md).
"""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "perf"))
from bench_event import run_event  # noqa: E402
from web_helpers import standings  # noqa: E402

TEAMS, ROUNDS = 150, 5


@pytest.mark.slow
def test_a_300_player_rook_swiss_runs_end_to_end(app):
    out = run_event(app, TEAMS, ROUNDS, seed=2026, target=300)
    seatings, results = out["seatings"], out["results"]
    # Every round: 75 tables, every team at exactly one, no byes (an even field).
    for rnd in range(1, ROUNDS + 1):
        tables = [entrants for r, entrants in seatings if r == rnd]
        assert len(tables) == TEAMS // 2
        seated = Counter(e for entrants in tables for e in entrants)
        assert len(seated) == TEAMS and set(seated.values()) == {1}
    assert all(byes == [] for byes in out["byes"])
    # Swiss over five rounds of 150 teams: no pair of teams meets twice.
    pairs = Counter(frozenset(entrants) for _r, entrants in seatings)
    assert max(pairs.values()) == 1
    # Rook: team A deals first; across the rounds the teams take turns at it. Pairing keeps
    # almost everyone within one of half their tables (2 or 3 of 5); a team may miss that
    # only where a pairing without a rematch leaves no other way (round 1 is drawn at random).
    first = Counter(entrants[0] for _r, entrants in seatings)
    assert all(1 <= first[team] <= 4 for team in seated), first.most_common(3)
    assert sum(not 2 <= first[team] <= 3 for team in seated) <= TEAMS // 20
    # Every table has a stored result after its lock; points follow win 2 / loss 0.
    assert len(results) == ROUNDS * TEAMS // 2
    points = Counter()
    for result in results:
        winner = result["entrants"][result["places"].index(1)]
        points[winner] += 2
        assert result["scores"] is not None
    page = out["standings_page"]
    shown = standings(page)
    assert len(shown) == TEAMS
    assert {name: int(float(p)) for name, p in shown} == \
        {team: points.get(team, 0) for team in seated}
    assert [int(float(p)) for _n, p in shown] == sorted((int(float(p)) for _n, p in shown),
                                                      reverse=True)
