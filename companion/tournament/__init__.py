"""Tournament logic: seating rounds and ranking entrants (pure; no Flask, no SQLite).

Plain data in, JSON-ready data out, like :mod:`companion.rules`, so the web layer only
stores and renders what these functions return.

- :mod:`.formats` — how each game is seated and scored (pairs of players, pairs of teams,
  or tables of several players) and the default scoring.
- :mod:`.pairing` — the first round at random (with a seeded ``random.Random``), Swiss
  pairing by standings with byes, late arrivals and drops, and table assignment for the
  table games.
- :mod:`.standings` — points per result, the game's own tie-breaks, Buchholz,
  Median-Buchholz and Sonneborn-Berger, shared places, and a CSV of every result.
- :mod:`.matching` — Edmonds' maximum matching, the exact look-ahead of Swiss pairing.

A round trip: ``fmt = tournament_format("rook")``; round 1:
``seat_round(fmt, teams, rng=random.Random(seed))``; results come back as result dicts;
``rows = standings(teams, results, default_scoring(fmt))``; the next round:
``seat_round(fmt, active_ranking(rows, dropped=..., late=...), history_from_results(results))``.
"""

from __future__ import annotations

from .formats import FORMATS, default_scoring, format_from_game, tournament_format
from .pairing import (
    PAIR_KINDS,
    active_ranking,
    assign_tables,
    history_from_results,
    random_pairing,
    random_tables,
    seat_round,
    swiss_pairing,
    table_sizes,
    team_seats,
)
from .standings import (
    TIEBREAKS,
    match_scoring,
    place_scoring,
    places_from_scores,
    result_points,
    results_csv,
    score_totals,
    standings,
)

__all__ = [
    "FORMATS",
    "PAIR_KINDS",
    "TIEBREAKS",
    "active_ranking",
    "assign_tables",
    "default_scoring",
    "format_from_game",
    "history_from_results",
    "match_scoring",
    "place_scoring",
    "places_from_scores",
    "random_pairing",
    "random_tables",
    "result_points",
    "results_csv",
    "score_totals",
    "seat_round",
    "standings",
    "swiss_pairing",
    "table_sizes",
    "team_seats",
    "tournament_format",
]
