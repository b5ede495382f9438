"""Tournament standings: points per result, director's adjustments, tie-breaks, shared
places, and CSVs of every result and of the standings.

Pure and JSON-ready. Shapes:

- **result** (one table of one round)::

      {"round": 2, "table": 3, "entrants": ["Ann", "Bob"], "scores": [320, 180]}
      {"round": 2, "table": 4, "entrants": ["Cid", "Dan", "Eve"], "places": [1, 2, 2]}
      {"round": 2, "table": None, "entrants": ["Fay"], "bye": True}

  ``places`` (1 = first; equal values share a place) are what the game decided; without
  them, places follow ``scores`` (higher is better). ``scores`` are optional but feed the
  CSV and :func:`score_totals`.
- **scoring**: :func:`match_scoring` (win / draw / loss / bye points, a table of two
  entrants) or :func:`place_scoring` (points by finishing place, any table size).
- **adjustment** (the director's bonus or penalty, outside any result)::

      {"entrant": "Ann", "points": -1, "reason": "late", "round": 2}   # round may be None

- **standings row** (one per entrant, best first; see :func:`standings`).

Numbers are kept as exact fractions inside, so shared places and tie-breaks compare
exactly; they come out as ints, or floats where a share is not whole.
"""

from __future__ import annotations

import csv
import io
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from companion.rules.said import N_, message

__all__ = [
    "TIEBREAKS",
    "TIEBREAK_NAMES",
    "match_scoring",
    "parse_points_list",
    "parse_tiebreak_order",
    "place_scoring",
    "places_from_scores",
    "result_points",
    "results_csv",
    "score_totals",
    "standings",
    "standings_csv",
    "tiebreak_columns",
]

#: Tie-break names, in the default order for match scoring. "game" is the game's own list.
TIEBREAKS = ("game", "buchholz", "median_buchholz", "sonneborn_berger")

#: What pages and CSV headers call each tie-break.
TIEBREAK_NAMES = {"game": "Game score", "buchholz": "Buchholz",
                  "median_buchholz": "Median-Buchholz", "sonneborn_berger": "Sonneborn-Berger"}

#: Sonneborn-Berger weighs a result against one opponent; a table of several is no such
#: result, so place scoring leaves it out by default (the value is then None).
_PLACE_TIEBREAKS = ("game", "buchholz", "median_buchholz")

#: What a value that must be a number is called in the sentence refusing it.
_WHAT = {"win": message("tournament", "Points for a win"),
         "draw": message("tournament", "Points for a draw"),
         "loss": message("tournament", "Points for a loss"),
         "bye": message("tournament", "Points for a bye"),
         "place": message("tournament", "Points for a place"),
         "score": message("tournament", "A score"),
         "initial": message("tournament", "Initial points"),
         "adjustment": message("tournament", "An adjustment's points"),
         "game": message("tournament", "A game tie-break")}


# Scoring.

def _finite(value: Any) -> bool:
    """Whether ``value`` is a finite int or float (not a bool)."""
    return not (isinstance(value, bool) or not isinstance(value, (int, float))
                or (isinstance(value, float) and not math.isfinite(value)))


def _number(value: Any, what: str) -> Fraction:
    """A finite int or float as an exact fraction (floats by their decimal text); ``what``
    (one of :data:`_WHAT`, or a Said) names it in the refusal."""
    if not _finite(value):
        raise ValueError(message("tournament", "{what} must be a number, not {value!r}.",
                                 what=what, value=value))
    return Fraction(value) if isinstance(value, int) else Fraction(str(value))


def _plain(value: Fraction | None) -> int | float | None:
    """An exact number back to JSON: an int when whole."""
    if value is None:
        return None
    return int(value) if value.denominator == 1 else float(value)


def match_scoring(win: float = 2, draw: float = 1, loss: float = 0,
                  bye: float | None = None) -> dict[str, Any]:
    """Scoring for head-to-head and team-against-team tables: points per win, draw, loss.

    A bye scores ``bye``, a win by default. Returns
    ``{"mode": "match", "win", "draw", "loss", "bye"}``.
    """
    for name, value in (("win", win), ("draw", draw), ("loss", loss)):
        _number(value, _WHAT[name])
    bye = win if bye is None else bye
    _number(bye, _WHAT["bye"])
    return {"mode": "match", "win": win, "draw": draw, "loss": loss, "bye": bye}


def place_scoring(points: Sequence[float] | Mapping[Any, Sequence[float]] = (4, 2, 1, 0),
                  bye: float | None = None) -> dict[str, Any]:
    """Scoring for table games: points by finishing place.

    ``points`` lists the points for 1st, 2nd, … (places past its end score 0), or maps a
    table size to such a list when a 5-player table should score differently from a
    4-player one. Entrants sharing places share those places' points equally (a tie for
    2nd at a 4-table under 4/2/1/0 gives each 1.5), so a table always hands out the same
    total. A bye (sitting out) scores ``bye``: by default the points for first place (of the
    smallest listed table size). Returns ``{"mode": "places", "points", "bye"}``.
    """
    if isinstance(points, Mapping):
        if not points:
            raise ValueError(N_("Points by table size need at least one table size."))
        table = {}
        for size, row in points.items():
            if isinstance(size, bool) or not str(size).isdigit() or int(size) < 1:
                raise ValueError(message("tournament", "{size!r} is not a table size.", size=size))
            table[str(int(size))] = _point_list(row)
        smallest = table[min(table, key=int)]
        default_bye = smallest[0] if smallest else 0
        plain: Any = table
    else:
        plain = _point_list(points)
        default_bye = plain[0] if plain else 0
    bye = default_bye if bye is None else bye
    _number(bye, _WHAT["bye"])
    return {"mode": "places", "points": plain, "bye": bye}


def _point_list(row: Any) -> list:
    if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
        raise ValueError(N_("Points by place are a list: points for 1st, 2nd, and so on."))
    for value in row:
        _number(value, _WHAT["place"])
    return list(row)


#: The most values a director's list of points by place may hold, and their bounds.
_MOST_POINTS, _POINTS_BOUND = 12, 1000

_NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def parse_points_list(text: str) -> list[int | float]:
    """The points a director typed for 1st, 2nd, …: ``"4, 2, 1, 0"`` -> ``[4, 2, 1, 0]``.

    Values are separated by commas or spaces (or both), whole or decimal (``1.5``; a
    decimal comma is read as a separator), negative allowed; at most 12 values, each
    between -1000 and 1000. Full-width digits and commas (Japanese input) are read as
    plain ones. Whole values come back as ints, others as floats. Raises ValueError with
    a sentence for the director otherwise (nothing typed, a word, too many values).
    """
    if not isinstance(text, str):
        raise ValueError(N_("Points by place are typed as text, like 4, 2, 1, 0."))
    parts = [p for p in re.split(r"[,\s]+", unicodedata.normalize("NFKC", text)) if p]
    if not parts:
        raise ValueError(N_("Enter the points for 1st, 2nd and so on, like 4, 2, 1, 0."))
    if len(parts) > _MOST_POINTS:
        raise ValueError(message("tournament", "Enter at most {most} values for points by place.",
                                 most=_MOST_POINTS))
    values: list[int | float] = []
    for part in parts:
        if not _NUMBER_TEXT.fullmatch(part):
            raise ValueError(message("tournament", "{part!r} is not a number; enter points like 4, "
                                     "2, 1, 0.", part=part))
        value = Fraction(part)
        if not -_POINTS_BOUND <= value <= _POINTS_BOUND:
            raise ValueError(message("tournament", "Points by place lie between -{bound} and "
                                     "{bound}; {part} does not.", bound=_POINTS_BOUND,
                                     part=part))
        values.append(_plain(value))
    return values


def places_from_scores(scores: Sequence[float], higher_wins: bool = True) -> list[int]:
    """Finishing places from scores, equal scores sharing a place: [5, 9, 5] -> [2, 1, 2]."""
    values = [_number(s, _WHAT["score"]) for s in scores]
    sign = -1 if higher_wins else 1
    return [1 + sum(1 for other in values if sign * other < sign * value) for value in values]


# Reading one result.

def _check_result(result: Mapping[str, Any]) -> dict[str, Any]:
    """Validate one result and return it normalised (scores/places lists or None)."""
    if not isinstance(result, Mapping):
        raise ValueError(N_("A result is a dictionary."))
    rnd = result.get("round")
    if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
        raise ValueError(message("tournament", "A result's round is a whole number of at least 1, "
                                 "not {round!r}.", round=rnd))
    entrants = result.get("entrants")
    if isinstance(entrants, (str, bytes)) or not isinstance(entrants, Sequence) \
            or not entrants or not all(isinstance(e, str) and e for e in entrants):
        raise ValueError(message("tournament", "Round {round}: a result lists its entrants by "
                                 "name.", round=rnd))
    if len(set(entrants)) != len(entrants):
        raise ValueError(message("tournament", "Round {round}: an entrant appears twice at one "
                                 "table.", round=rnd))
    table = result.get("table")
    if table is not None and (isinstance(table, bool) or not isinstance(table, int) or table < 1):
        raise ValueError(message("tournament", "Round {round}: a table number is a whole number "
                                 "from 1, not {table!r}.", round=rnd, table=table))
    bye = bool(result.get("bye"))
    scores = result.get("scores")
    places = result.get("places")
    for name, values in (("scores", scores), ("places", places)):
        if values is not None and (isinstance(values, (str, bytes))
                                   or not isinstance(values, Sequence)
                                   or len(values) != len(entrants)):
            if name == "scores":
                raise ValueError(message("tournament", "Round {round}: scores must list one "
                                         "value per entrant.", round=rnd))
            raise ValueError(message("tournament", "Round {round}: places must list one value "
                                     "per entrant.", round=rnd))
    if scores is not None:
        for s in scores:
            if not _finite(s):
                _number(s, message("tournament", "Round {round}: a score", round=rnd))
    if places is not None:
        for p in places:
            if isinstance(p, bool) or not isinstance(p, int) or p < 1:
                raise ValueError(message("tournament", "Round {round}: places are whole "
                                         "numbers from 1, not {place!r}.", round=rnd, place=p))
    if bye and len(entrants) != 1:
        raise ValueError(message("tournament", "Round {round}: a bye is for one entrant.",
                                 round=rnd))
    if not bye and len(entrants) < 2:
        raise ValueError(message("tournament", "Round {round}: a table needs at least two entrants "
                                 "(or a bye).", round=rnd))
    if not bye and places is None and scores is None:
        raise ValueError(message("tournament", "Round {round}: a result needs places or scores.",
                                 round=rnd))
    return {"round": rnd, "table": table, "entrants": list(entrants),
            "scores": None if scores is None else list(scores),
            "places": None if places is None else list(places), "bye": bye}


def _positions(places: Sequence[int]) -> list[tuple[int, int]]:
    """(first position, how many share it) per entrant: places [1, 1, 2] -> 1st, 1st, 3rd.

    Places are read by their order, not their values, so a dense ranking [1, 1, 2] and a
    competition ranking [1, 1, 3] mean the same.
    """
    start, position = {}, 1
    for value in sorted(set(places)):
        start[value] = position
        position += places.count(value)
    return [(start[p], places.count(p)) for p in places]


def _place_points(scoring: Mapping[str, Any], size: int, start: int, shared: int) -> Fraction:
    table = scoring["points"]
    if isinstance(table, Mapping):
        if str(size) not in table:
            raise ValueError(message("tournament", "Place scoring has no points for a table of "
                                     "{size}.", size=size))
        table = table[str(size)]
    row = [_number(v, _WHAT["place"]) for v in table]
    taken = [row[i] if i < len(row) else Fraction(0) for i in range(start - 1, start - 1 + shared)]
    return sum(taken, Fraction(0)) / shared


def _seats(result: Mapping[str, Any], scoring: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What one checked result means for each entrant at its table."""
    entrants = result["entrants"]
    if result["bye"]:
        return [{"entrant": entrants[0], "round": result["round"], "table": result["table"],
                 "opponents": [], "outcome": "bye", "place": None, "share": {},
                 "points": _number(scoring["bye"], _WHAT["bye"])}]
    places = result["places"] or places_from_scores(result["scores"])
    positions = _positions(places)
    mode = scoring.get("mode")
    if mode == "match" and len(entrants) != 2:
        raise ValueError(message("tournament", "Round {round}: match scoring is for tables of two.",
                                 round=result["round"]))
    if mode not in ("match", "places"):
        raise ValueError(message("tournament", "Unknown scoring mode {mode!r}.", mode=mode))
    seats = []
    for k, entrant in enumerate(entrants):
        start, shared = positions[k]
        # Sonneborn-Berger weight against each table-mate: 1 ahead, 1/2 level, 0 behind.
        share = {other: Fraction(1) if positions[k][0] < positions[j][0]
                 else Fraction(1, 2) if positions[k][0] == positions[j][0] else Fraction(0)
                 for j, other in enumerate(entrants) if j != k}
        if mode == "match":
            outcome = "draw" if shared == 2 else "win" if start == 1 else "loss"
            points = _number(scoring[outcome], _WHAT[outcome])
        else:
            outcome = "place"
            points = _place_points(scoring, len(entrants), start, shared)
        seats.append({"entrant": entrant, "round": result["round"], "table": result["table"],
                      "opponents": [e for e in entrants if e != entrant], "outcome": outcome,
                      "place": start, "share": share, "points": points})
    return seats


def result_points(result: Mapping[str, Any], scoring: Mapping[str, Any]) -> dict[str, Any]:
    """The points each entrant of one result scores: ``{entrant: points}``."""
    return {seat["entrant"]: _plain(seat["points"])
            for seat in _seats(_check_result(result), scoring)}


def score_totals(results: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Each entrant's own scores summed over all results: a ready-made game tie-break
    (pass ``{e: [total]}`` as ``game_tiebreaks``). Byes and results without scores add 0."""
    totals: dict[str, Fraction] = {}
    for result in map(_check_result, results):
        for k, entrant in enumerate(result["entrants"]):
            score = result["scores"][k] if result["scores"] is not None else 0
            totals[entrant] = totals.get(entrant, Fraction(0)) + _number(score, _WHAT["score"])
    return {entrant: _plain(total) for entrant, total in totals.items()}


# Standings.

def standings(entrants: Sequence[str], results: Iterable[Mapping[str, Any]],
              scoring: Mapping[str, Any], *,
              game_tiebreaks: Mapping[str, Sequence[float]] | None = None,
              initial_points: Mapping[str, float] | None = None,
              order: Sequence[str] | None = None,
              adjustments: Iterable[Mapping[str, Any]] | None = None
              ) -> list[dict[str, Any]]:
    """Rank every entrant: points, then the tie-breaks in ``order``; exact ties share a place.

    ``entrants`` are all registered entrants (dropped ones too: they keep their row).
    ``initial_points`` adds points outside any result (a late arrival granted a score).
    ``adjustments`` are the director's bonuses and penalties (module doc): each adds its
    ``points`` (negative for a penalty) to the entrant's points after the results; a
    reason defaults to "" and a round to None.
    ``game_tiebreaks`` maps an entrant to the game's own tie-break values, most important
    first, higher is better (negate a "lower is better" value); a missing list counts as
    zeros. ``order`` picks from :data:`TIEBREAKS` (default: all of them for match scoring,
    all but Sonneborn-Berger for place scoring). Tie-breaks:

    - **buchholz**: the sum over rounds of the opponent's points (match scoring) or of the
      table-mates' average points (place scoring, so a big table weighs no more than a small
      one), over the rounds played: a bye adds nothing (no opponent was met), nor does
      a round missed by a late arrival. The points are the
      ones the standings show, initial points and adjustments included: a penalty lowers
      the Buchholz of everyone who played the penalised entrant, as it lowers that
      entrant's place (Sonneborn-Berger alike).
    - **median_buchholz**: the same without the highest and the lowest round played (with
      at least three rounds played; with fewer it equals the Buchholz).
    - **sonneborn_berger**: the points of opponents beaten plus half the points of those
      drawn, over games played (match scoring only).

    Returns rows best first::

        {"rank": 1, "entrant": "Ann", "points": 6, "played": 3, "byes": 1,
         "wins": 3, "draws": 0, "losses": 0,          # None under place scoring
         "adjustment": -1,                             # the adjustments' total
         "adjustments": [{"points": -1, "reason": "late", "round": 2}],
         "game_tiebreaks": [310], "buchholz": 11, "median_buchholz": 5,
         "sonneborn_berger": 8,                        # None under place scoring
         "results": [{"round": 1, "table": 2, "opponents": ["Bob"], "outcome": "win",
                      "place": 1, "points": 2}, ...]}

    ``outcome`` is win / draw / loss / bye (match scoring) or place / bye. Rows that tie on
    everything keep the order of ``entrants``.
    """
    ids = _check_entrants(entrants)
    mode = scoring.get("mode")
    order = _check_order(order, mode)
    initial_points = dict(initial_points or {})
    unknown = sorted(set(initial_points) - set(ids))
    if unknown:
        raise ValueError(message("tournament", "{entrant!r} is not an entrant.",
                                 entrant=unknown[0]))
    adjusted = _check_adjustments(adjustments, ids)
    seats_of = _collect(ids, results, scoring)
    extra = {e: sum((a["points"] for a in adjusted[e]), Fraction(0)) for e in ids}
    points = {e: sum((s["points"] for s in seats_of[e]), Fraction(0))
              + _number(initial_points.get(e, 0), _WHAT["initial"]) + extra[e] for e in ids}
    game = _game_values(ids, game_tiebreaks)
    rows = [{**_row(e, seats_of[e], points, game[e], mode), "adjustment": extra[e],
             "adjustments": adjusted[e]} for e in ids]
    keys = [_sort_key(row, points[row["entrant"]], order) for row in rows]
    ranked = sorted(range(len(ids)), key=lambda i: (keys[i], i))
    out = []
    for position, i in enumerate(ranked):
        first_equal = next(p for p in range(position + 1) if keys[ranked[p]] == keys[i])
        out.append({"rank": first_equal + 1, **_publish(rows[i])})
    return out


def _check_entrants(entrants: Sequence[str]) -> list[str]:
    ids = list(entrants)
    if not all(isinstance(e, str) and e for e in ids):
        raise ValueError(N_("Entrants are named by non-empty strings."))
    if len(set(ids)) != len(ids):
        raise ValueError(N_("An entrant is listed twice."))
    return ids


def _check_order(order: Sequence[str] | None, mode: Any) -> tuple[str, ...]:
    if order is None:
        return TIEBREAKS if mode == "match" else _PLACE_TIEBREAKS
    order = tuple(order)
    for name in order:
        if name not in TIEBREAKS:
            raise ValueError(message("tournament", "{name!r} is not a tie-break; choose from "
                                     "{choices}.", name=name, choices=", ".join(TIEBREAKS)))
    if mode != "match" and "sonneborn_berger" in order:
        raise ValueError(N_("Sonneborn-Berger needs match scoring (tables of two)."))
    return order


def tiebreak_columns(order: Sequence[str] | None, mode: Any) -> tuple[str, ...]:
    """The tie-breaks a standings table of scoring ``mode`` ("match" or "places") uses, in
    order: ``order`` checked as :func:`standings` checks it, or the mode's default order
    when None. Pages and CSV show these (named by :data:`TIEBREAK_NAMES`), and no others.
    """
    return _check_order(order, mode)


def parse_tiebreak_order(values: Iterable[Any], mode: Any) -> tuple[str, ...]:
    """The tie-break order a director picked in a form, checked: ``["buchholz", "",
    "game"]`` -> ``("buchholz", "game")``.

    ``values`` are tie-break keys (:data:`TIEBREAKS`) or their names
    (:data:`TIEBREAK_NAMES`, any case), most important first; blank values (``""``, None,
    spaces) are skipped. Each may appear once, and Sonneborn-Berger only under match
    scoring. An empty choice is allowed: ranks then follow points alone. Raises
    ValueError with a sentence otherwise.
    """
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError(N_("Tie-breaks are chosen as a list."))
    by_name = {name.casefold(): key for key, name in TIEBREAK_NAMES.items()}
    order: list[str] = []
    for value in values:
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        if not isinstance(value, str):
            raise ValueError(message("tournament", "{name!r} is not a tie-break.", name=value))
        text = value.strip()
        key = text if text in TIEBREAKS else by_name.get(text.casefold())
        if key is None:
            names = ", ".join(TIEBREAK_NAMES.values())
            raise ValueError(message("tournament", "{name!r} is not a tie-break; choose from "
                                     "{choices}.", name=text, choices=names))
        if key in order:
            raise ValueError(message("tournament", "{name} is chosen twice.",
                                     name=TIEBREAK_NAMES[key]))
        order.append(key)
    return _check_order(order, mode)


def _check_adjustments(adjustments: Iterable[Mapping[str, Any]] | None,
                       ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """Each entrant's adjustments, in the order given, with exact points."""
    out: dict[str, list[dict[str, Any]]] = {e: [] for e in ids}
    if adjustments is None:
        return out
    if isinstance(adjustments, (str, bytes, Mapping)) or not isinstance(adjustments, Iterable):
        raise ValueError(N_("Adjustments are a list."))
    for item in adjustments:
        if not isinstance(item, Mapping):
            raise ValueError(N_("An adjustment is a dictionary."))
        entrant = item.get("entrant")
        if entrant not in out:
            raise ValueError(message("tournament", "{entrant!r} is not an entrant.",
                                     entrant=entrant))
        points = _number(item.get("points"), _WHAT["adjustment"])
        reason = item.get("reason") or ""
        if not isinstance(reason, str):
            raise ValueError(N_("An adjustment's reason is text."))
        rnd = item.get("round")
        if rnd is not None and (isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1):
            raise ValueError(message("tournament", "An adjustment's round is a whole number of at "
                                     "least 1 (or none), not {round!r}.", round=rnd))
        out[entrant].append({"points": points, "reason": reason, "round": rnd})
    return out


def _collect(ids: Sequence[str], results: Iterable[Mapping[str, Any]],
             scoring: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Every entrant's seats in round order; an entrant plays at most once per round."""
    known = set(ids)
    seats_of: dict[str, list[dict[str, Any]]] = {e: [] for e in ids}
    checked = sorted(map(_check_result, results), key=lambda r: r["round"])
    for result in checked:
        for seat in _seats(result, scoring):
            entrant = seat["entrant"]
            if entrant not in known:
                raise ValueError(message("tournament", "Round {round}: {entrant!r} is not an "
                                         "entrant.", round=result["round"], entrant=entrant))
            if any(s["round"] == seat["round"] for s in seats_of[entrant]):
                raise ValueError(message("tournament", "Round {round}: {entrant!r} has two "
                                         "results.", round=result["round"], entrant=entrant))
            seats_of[entrant].append(seat)
    return seats_of


def _game_values(ids: Sequence[str], given: Mapping[str, Sequence[float]] | None
                 ) -> dict[str, list[Fraction]]:
    given = dict(given or {})
    unknown = sorted(set(given) - set(ids))
    if unknown:
        raise ValueError(message("tournament", "{entrant!r} is not an entrant.",
                                 entrant=unknown[0]))
    lengths = {len(v) for v in given.values()}
    if len(lengths) > 1:
        raise ValueError(N_("Every entrant needs the same number of game tie-break values."))
    width = lengths.pop() if lengths else 0
    return {e: [_number(v, _WHAT["game"]) for v in given.get(e, [0] * width)]
            for e in ids}


def _opponent_values(seats: Sequence[Mapping[str, Any]], points: Mapping[str, Fraction]
                     ) -> list[Fraction]:
    """Per round played: the opponents' average points (one opponent at a pair table).

    A bye adds no value: no opponent was met. Its points already count in the entrant's
    own points; counting them again as an opponent's (the bye "as an opponent holding the
    entrant's own points") would let a bye raise its own tie-breaks. So Buchholz is the
    points of the opponents met, Median-Buchholz drops the best and the worst of those
    rounds, and Sonneborn-Berger counts games played only.
    """
    values = []
    for seat in seats:
        if seat["outcome"] == "bye":
            continue
        opponents = seat["opponents"]
        values.append(sum((points[o] for o in opponents), Fraction(0)) / len(opponents))
    return values


def _row(entrant: str, seats: Sequence[Mapping[str, Any]], points: Mapping[str, Fraction],
         game: list[Fraction], mode: Any) -> dict[str, Any]:
    """One entrant's standings row, with exact numbers (see :func:`_publish`)."""
    own = points[entrant]
    values = _opponent_values(seats, points)
    buchholz = sum(values, Fraction(0))
    median = buchholz - max(values) - min(values) if len(values) >= 3 else buchholz
    played = [s for s in seats if s["outcome"] != "bye"]
    match = mode == "match"
    berger = sum((w * points[o] for s in played for o, w in s["share"].items()),
                 Fraction(0)) if match else None
    return {
        "entrant": entrant,
        "points": own,
        "played": len(played),
        "byes": len(seats) - len(played),
        "wins": sum(s["outcome"] == "win" for s in seats) if match else None,
        "draws": sum(s["outcome"] == "draw" for s in seats) if match else None,
        "losses": sum(s["outcome"] == "loss" for s in seats) if match else None,
        "game_tiebreaks": game,
        "buchholz": buchholz,
        "median_buchholz": median,
        "sonneborn_berger": berger,
        "results": [{"round": s["round"], "table": s["table"], "opponents": s["opponents"],
                     "outcome": s["outcome"], "place": s["place"], "points": s["points"]}
                    for s in seats],
    }


def _sort_key(row: Mapping[str, Any], points: Fraction, order: Sequence[str]) -> tuple:
    """Smaller is better: negated points, then negated tie-breaks in order."""
    key = [-points]
    for name in order:
        if name == "game":
            key.extend(-v for v in row["game_tiebreaks"])
        else:
            key.append(-row[name])
    return tuple(key)


def _publish(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row with its exact numbers turned into JSON numbers."""
    out = dict(row)
    for name in ("points", "buchholz", "median_buchholz", "sonneborn_berger", "adjustment"):
        out[name] = _plain(row[name])
    out["adjustments"] = [{**a, "points": _plain(a["points"])} for a in row["adjustments"]]
    out["game_tiebreaks"] = [_plain(v) for v in row["game_tiebreaks"]]
    out["results"] = [{**r, "points": _plain(r["points"])} for r in row["results"]]
    return out


# CSV export.

#: A cell starting with one of these is a formula to a spreadsheet (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """Text that a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _outcome_text(seats: Sequence[Mapping[str, Any]]) -> str:
    if seats[0]["outcome"] == "bye":
        return "bye"
    if len(seats) == 2 and seats[0]["outcome"] in ("win", "loss", "draw"):
        a, b = seats
        if a["outcome"] == "draw":
            return f"{a['entrant']} drew with {b['entrant']}"
        winner, loser = (a, b) if a["outcome"] == "win" else (b, a)
        return f"{winner['entrant']} beat {loser['entrant']}"
    first = [s["entrant"] for s in seats if s["place"] == 1]
    if len(first) == 1:
        return f"{first[0]} won"
    return f"{', '.join(first[:-1])} and {first[-1]} shared first"


def results_csv(results: Iterable[Mapping[str, Any]], scoring: Mapping[str, Any]) -> str:
    """Every result as CSV text, one row per table, rounds and tables in order.

    Columns: ``round, table, outcome`` then, per seat, ``entrant N, score N, place N,
    points N`` for as many seats as the largest table (smaller tables leave them empty).
    ``outcome`` is a sentence ("Ann beat Bob", "Cid won", "bye"). Names that a spreadsheet
    would read as a formula are prefixed with an apostrophe.
    """
    checked = [_check_result(r) for r in results]
    checked.sort(key=lambda r: (r["round"], r["table"] is None, r["table"] or 0))
    width = max((len(r["entrants"]) for r in checked), default=2)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    header = ["round", "table", "outcome"]
    for n in range(1, width + 1):
        header += [f"entrant {n}", f"score {n}", f"place {n}", f"points {n}"]
    writer.writerow(header)
    for result in checked:
        seats = _seats(result, scoring)
        row = [result["round"], "" if result["table"] is None else result["table"],
               _cell(_outcome_text(seats))]
        for k, seat in enumerate(seats):
            score = result["scores"][k] if result["scores"] is not None else ""
            row += [_cell(seat["entrant"]), score,
                    "" if seat["place"] is None else seat["place"],
                    _blank(_plain(seat["points"]))]
        row += [""] * (3 + 4 * width - len(row))
        writer.writerow(row)
    return buffer.getvalue()


def standings_csv(rows: Sequence[Mapping[str, Any]], order: Sequence[str] | None, *,
                  members: Mapping[str, Sequence[str]] | None = None,
                  dropped: Iterable[str] = (), final: bool = False) -> str:
    """The standings as CSV text, one row per standings row, in the rows' order.

    ``rows`` are what :func:`standings` returns and ``order`` the tie-breaks it used (None:
    the default order of the rows' scoring, match scoring when the rows have wins).
    Columns::

        place, entrant, members, points, played, wins, draws, losses, byes, adjustment,
        <one per tie-break in order, headed by its name in TIEBREAK_NAMES>, dropped

    ``members`` maps an entrant (a team) to its players, joined with " & " (empty for
    others); numbers are rounded to :data:`CSV_DECIMALS` decimals (as the pages show them);
    ``wins``/``draws``/``losses`` are empty under place scoring; ``dropped``
    entrants say "yes". The game's own tie-break is one "Game score" column, or "Game
    score", "Game score 2", … when the game gives several values. Names that a spreadsheet
    would read as a formula are prefixed with an apostrophe (as in :func:`results_csv`).
    ``final`` changes nothing in the text (the pages say "final"); it is accepted so
    callers can pass what they show.
    """
    del final  # the same CSV either way
    rows = list(rows)
    if order is None:
        mode = "match" if any(r.get("wins") is not None for r in rows) or not rows \
            else "places"
        order = _check_order(None, mode)
    else:
        order = tuple(order)
        for name in order:
            if name not in TIEBREAKS:
                raise ValueError(message("tournament", "{name!r} is not a tie-break; choose from "
                                         "{choices}.", name=name, choices=", ".join(TIEBREAKS)))
    members = members or {}
    gone = set(dropped)
    width = max((len(r.get("game_tiebreaks") or ()) for r in rows), default=0)
    header = ["place", "entrant", "members", "points", "played", "wins", "draws", "losses",
              "byes", "adjustment"]
    for name in order:
        if name == "game":
            header += [TIEBREAK_NAMES["game"]] + [f"{TIEBREAK_NAMES['game']} {n}"
                                                  for n in range(2, width + 1)]
        else:
            header.append(TIEBREAK_NAMES[name])
    header.append("dropped")
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    for row in rows:
        entrant = row["entrant"]
        team = " & ".join(str(m) for m in members.get(entrant, ()))
        line = [row["rank"], _cell(entrant), _cell(team), _blank(row["points"]), row["played"]]
        line += [_blank(row.get(k)) for k in ("wins", "draws", "losses")]
        line += [row["byes"], _blank(row.get("adjustment", 0))]
        for name in order:
            if name == "game":
                values = list(row.get("game_tiebreaks") or ())
                line += [_blank(v) for v in values] + [""] * (max(width, 1) - len(values))
            else:
                line.append(_blank(row.get(name)))
        line.append("yes" if entrant in gone else "")
        writer.writerow(line)
    return buffer.getvalue()


#: Decimals a CSV number keeps, as the standings pages show them: an average of several
#: opponents (Buchholz at tables of three) is 15.33, not 15.333333333333334. Ranking uses
#: the exact values; only the text is rounded.
CSV_DECIMALS = 2


def _blank(value: Any) -> Any:
    """A CSV cell of a number: empty for None, a float rounded to CSV_DECIMALS (2.0 as 2)."""
    if value is None:
        return ""
    if isinstance(value, float):
        value = round(value, CSV_DECIMALS)
        return int(value) if value.is_integer() else value
    return value
