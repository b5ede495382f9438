"""Events (tournaments): seating rounds, ranking entrants, and running an event.

The pure part — plain data in, JSON-ready data out, like :mod:`companion.rules`; no Flask,
no SQLite — is what this package exports:

- :mod:`.formats` — how each game is seated and scored (pairs of players, pairs of teams,
  or tables of several players), derived from the game's rules, and the default scoring.
- :mod:`.pairing` — the first round at random (with a seeded ``random.Random``), Swiss
  pairing by standings (Dutch-style by score group) with byes, late arrivals and drops,
  keep-apart groups, who goes first at a table of two, table assignment for the table
  games, and table numbers kept for entrants with a fixed table.
- :mod:`.standings` — points per result, the director's adjustments, the game's own
  tie-breaks, Buchholz, Median-Buchholz and Sonneborn-Berger, shared places, and CSVs of
  every result and of the standings; parsers for a director's points list and tie-breaks.
- :mod:`.matching` — Edmonds' maximum matching, the exact look-ahead of Swiss pairing.
- :mod:`.brackets` — the other formats: a round robin's schedule (the circle method) and a
  top cut's knockout bracket (seeds, who goes on).

The service stores events and connects them to :mod:`companion.tables` (every table of a
round is a real companion table). Its modules own the ``events`` and ``event_*`` SQL and
their caches; import them by name, none is loaded with the package:

- :mod:`.event` — the event itself: loading, creating, its version (:func:`~.event.touch`),
  the director's and players' secrets, the director's log.
- :mod:`.entrants` — the entrants, late arrivals, drops, check-in before round 1 and
  no-shows, self-registration, players' passes; :mod:`.claims` — which phone holds which
  player (claim codes); :mod:`.restrictions` — keep-apart groups and fixed tables, and
  what a round broke of them.
- :mod:`.rounds` — rounds seated onto tables, each table's result read from its sheet in
  the game's own order, locking, corrections, pairings by name.
- :mod:`.results` — every result and the standings (cached per result set), as CSV too;
  :mod:`.seating` — seating the next round (at random, then by standings).
- :mod:`.devices` — the director's devices and links; :mod:`.director` — the director's
  penalties and bonuses, swaps, unseating a round, and the log read back.
- :mod:`.knockout` — a top cut after the Swiss rounds: starting it, the bracket as shown.
- :mod:`.round_clock` — the round clock (start, pause, resume, extend, stop);
  :mod:`.announcements` — the director's announcements to every phone of the event.

The web pages are the blueprint :mod:`companion.web.events`.

A round trip: ``fmt = event_format("rook")``; round 1:
``seat_round(fmt, teams, rng=random.Random(seed))``; results come back as result dicts;
``rows = standings(teams, results, default_scoring(fmt))``; the next round:
``seat_round(fmt, active_ranking(rows, dropped=..., late=late), history_from_results(results),
points={**{r["entrant"]: r["points"] for r in rows}, **late})`` (pair formats pair by score
group and turn each table so that ``entrants[0]`` goes first).
"""

from __future__ import annotations

from .formats import PREFERRED_TABLE, default_scoring, format_from_game, event_format
from .pairing import (
    ODD_TABLES,
    PAIR_KINDS,
    SWISS_METHODS,
    active_ranking,
    assign_tables,
    history_from_results,
    orient_pairs,
    random_pairing,
    random_tables,
    seat_round,
    swiss_pairing,
    table_sizes,
    team_seats,
)
from .standings import (
    TIEBREAK_NAMES,
    TIEBREAKS,
    match_scoring,
    parse_points_list,
    parse_tiebreak_order,
    place_scoring,
    places_from_scores,
    result_points,
    results_csv,
    score_totals,
    standings,
    standings_csv,
    tiebreak_columns,
)

__all__ = [
    "ODD_TABLES",
    "PAIR_KINDS",
    "PREFERRED_TABLE",
    "SWISS_METHODS",
    "TIEBREAKS",
    "TIEBREAK_NAMES",
    "active_ranking",
    "assign_tables",
    "default_scoring",
    "format_from_game",
    "history_from_results",
    "match_scoring",
    "orient_pairs",
    "parse_points_list",
    "parse_tiebreak_order",
    "place_scoring",
    "places_from_scores",
    "random_pairing",
    "random_tables",
    "result_points",
    "results_csv",
    "score_totals",
    "seat_round",
    "standings",
    "standings_csv",
    "swiss_pairing",
    "table_sizes",
    "team_seats",
    "tiebreak_columns",
    "event_format",
]
