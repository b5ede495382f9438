"""An event places a table exactly as the table's game does (``Game.outcome``), whichever
way the game's scores go.

A small lowest-wins game ("fewest points", defined here and registered for these tests
only) is played through a tournament round on real tables: the lowest total is placed
first at every table, and the game-score tie-break puts the lower total ahead. A
Hypothesis property then checks every game in the registry: for any totals, winners and
direction, the event's places for a table are the game's own.
"""
from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import rules, tables
from companion.rules import GAMES, Game, RuleError
from companion.rules.game import check_seats, check_settings
from companion.storage import connect
from companion.storage.migrations import migrate
from companion.tables.tokens import new_submission_id
from companion.events.event import Event, create_event, get_event
from companion.events.results import standings
from companion.events.rounds import lock_round, result_from_summary, round_tables
from companion.events.seating import seat_next_round


# ---------------------------------------------------------------- a lowest-wins game

def _new(settings: dict | None, seats: list[str]) -> dict:
    return {"settings": check_settings((), settings, "Fewest points"),
            "seats": check_seats(seats, 2, 4, "Fewest points"), "rounds": []}


def _apply(state: dict, action: dict) -> dict:
    if _summary(state)["over"]:
        raise RuleError("The game is over.", "FP-2")
    points = action.get("points") if action.get("kind") == "round" else None
    if not isinstance(points, dict) or not all(isinstance(points.get(n), int)
                                               for n in state["seats"]):
        raise RuleError("A round needs every player's points.", "FP-1")
    return {**state, "rounds": [*state["rounds"], {n: points[n] for n in state["seats"]}]}


def _summary(state: dict) -> dict:
    totals = {n: sum(r[n] for r in state["rounds"]) for n in state["seats"]}
    over = bool(state["rounds"])
    low = min(totals.values())
    return {"totals": totals, "over": over,
            "winners": [n for n, t in totals.items() if t == low] if over else []}


FEWEST = Game(slug="fewest", name="Fewest points", min_players=2, max_players=4, teams=False,
              new=_new, apply=_apply, summary=_summary, lower_wins=True,
              rules={"FP-1": "Every player scores points in the one round.",
                     "FP-2": "The game ends after one round; the fewest points win."})


@contextlib.contextmanager
def registered(game: Game):
    """The game in the rules registry for the block (its rules only: these tests play it
    through the services, no page needs its adapter)."""
    assert game.slug not in rules.GAMES
    rules.GAMES[game.slug] = game           # the one dict every module reads the games from
    try:
        yield game
    finally:
        del rules.GAMES[game.slug]


# ---------------------------------------------------------------- a round on real tables

TOTALS = {"Ann": 5, "Bob": 33, "Cy": 12, "Dee": 6, "Eve": 40, "Fay": 7, "Gus": 25, "Hal": 9}


def _play(db, table_id: str, totals: dict[str, int]) -> None:
    """The player of seat 0 sits down and enters the one round: everybody's points."""
    table = tables.get_table(db, table_id)
    phone, _secret = tables.join(db, table, None)
    phone = tables.claim_seat(db, table_id, phone, 0, {0})
    version = tables.get_table(db, table_id).version
    tables.enter(db, table_id, phone, {"kind": "round", "points": totals}, version,
                 new_submission_id())


def test_a_lowest_wins_game_places_the_lowest_total_first(tmp_path):
    migrate(tmp_path / "event.db")
    db = connect(tmp_path / "event.db")
    with registered(FEWEST):
        event, _secret = create_event(
            db, "Low night", "fewest", {}, {}, 1, [(n, [n]) for n in TOTALS],
            config={"tiebreaks": ["game"]})
        assert seat_next_round(db, event, random.Random(7)) == 1
        rows = round_tables(db, event, 1)
        assert sorted(len(r.entrants) for r in rows) == [4, 4]
        for row in rows:
            _play(db, row.table_id, {n: TOTALS[n] for n in row.seats})
        rows = round_tables(db, event, 1)
        for row in rows:
            assert row.status == "finished" and row.source == "table"
            by_total = sorted(row.entrants, key=TOTALS.get)
            # Lowest first: 1st, 2nd, 3rd, 4th in order of the totals, as the table has it.
            assert [row.result["places"][row.entrants.index(e)] for e in by_total] == [1, 2, 3, 4]
            assert row.result["scores"] == [TOTALS[e] for e in row.entrants]
            table = tables.get_table(db, row.table_id)
            own = FEWEST.outcome(tables.sheet(db, table).state).places
            assert row.result["places"] == [own[e] for e in row.entrants]
        lock_round(db, event, 1)
        standing = standings(db, get_event(db, event.id))
        # Both tables' winners have 4 points; the game score (lower is better) ranks them.
        firsts = sorted((min(r.entrants, key=TOTALS.get) for r in rows), key=TOTALS.get)
        assert [r["entrant"] for r in standing[:2]] == firsts
        assert [r["points"] for r in standing[:2]] == [4, 4]
        assert standing[0]["game_score"] == TOTALS[firsts[0]]
        assert [r["rank"] for r in standing[:2]] == [1, 2]
    db.conn.close()


# ---------------------------------------------------------------- every game, any outcome

def _settings_of(game: Game):
    """The game's settings with every yes/no and choice house rule drawn (the score pad's
    "lowest total wins" among them: the direction is drawn too)."""
    drawn = {}
    for setting in game.settings_fields:
        if setting.kind == "bool":
            drawn[setting.name] = st.booleans()
        elif setting.kind == "choice":
            drawn[setting.name] = st.sampled_from([v for v, _label in setting.choices])
    return st.fixed_dictionaries(drawn).map(lambda chosen: {
        **game.check_settings({}), **chosen})


@st.composite
def tables_of_any_game(draw):
    game = draw(st.sampled_from([*sorted(GAMES.values(), key=lambda g: g.slug), FEWEST]))
    settings = draw(_settings_of(game))
    if game.teams:
        keys, entrants = ["A", "B"], ["Ann & Cy", "Bob & Dee"]
    else:
        count = draw(st.integers(game.min_players, min(game.max_players, 6)))
        keys = entrants = [f"P{i}" for i in range(count)]
    totals = {k: draw(st.integers(-200, 1000)) for k in keys}
    winners = draw(st.lists(st.sampled_from(keys), unique=True, max_size=len(keys)))
    summary = {"over": True, "totals": totals, "winners": winners}
    if draw(st.booleans()):          # a game that gives its own places (Rocca's cards left)
        summary["places"] = {k: draw(st.integers(1, len(keys))) for k in keys}
    return game, settings, keys, entrants, summary


@settings(max_examples=300, deadline=None)
@given(tables_of_any_game())
def test_an_events_places_for_a_table_are_the_games_own(drawn):
    game, house_rules, keys, entrants, summary = drawn
    event = Event(id="x", name="x", game_slug=game.slug, settings=house_rules, options={},
                  rounds=1, created_at="")
    with registered(FEWEST):
        result = result_from_summary(event, 1, 1, entrants, summary)
    own = game.outcome_of(summary, house_rules)
    assert result["places"] == [own.places[k] for k in keys]
    assert result["scores"] == [summary["totals"][k] for k in keys]
    # And the game's places go its way: among the non-winners of a table that gives no
    # places of its own, the better total never places behind.
    if "places" not in summary:
        low = game.lowest_wins(house_rules)
        others = [k for k in keys if k not in summary["winners"]]
        for a in others:
            for b in others:
                better = (summary["totals"][a] < summary["totals"][b]) == low \
                    and summary["totals"][a] != summary["totals"][b]
                if better:
                    assert own.places[a] < own.places[b]


@pytest.mark.parametrize("slug, low", [("fewest", True), ("zocknroll", False)])
def test_the_game_score_tiebreak_follows_the_games_direction(slug, low):
    event = Event(id="x", name="x", game_slug=slug, settings={}, options={}, rounds=1,
                  created_at="")
    with registered(FEWEST):
        assert event.game.lowest_wins(event.settings) is low


def test_an_entrant_missing_from_the_totals_still_gets_a_place():
    # A summary that leaves an entrant out of its totals: the winners first, everybody else
    # on no points, in the game's direction (the lowest first here).
    event = Event(id="x", name="x", game_slug="fewest", settings={}, options={}, rounds=1,
                  created_at="")
    summary = {"over": True, "totals": {"Ann": 3, "Bob": -2}, "winners": ["Ann"]}
    with registered(FEWEST):
        result = result_from_summary(event, 1, 1, ["Ann", "Bob", "Cy"], summary)
    assert result["places"] == [1, 2, 3] and result["scores"] is None
