"""Rocca's figures at a group's table: its facts are read from the table's own log when a
game is recorded (a summary holds no draws nor forgotten Ones), as the table's fold reads
it: an undone entry doesn't count, a rematch starts the next game's entries. Checked
against a hand computation (docs/STATS.md, "Rocca Card Tower")."""
from __future__ import annotations

import json

import pytest

from companion import groups, stats, tables
from companion.storage import connect
from companion.storage.migrations import migrate
from companion.tables import tokens


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "rocca.db"
    migrate(path)
    return connect(path)


def play(player, card):
    return {"kind": "play", "player": player, "card": card}


# Five cards each. Ann draws once; Bob says One and goes out with his last card.
ROCCA = [play("Ann", "2S"), play("Bob", "3S"), {"kind": "draw", "player": "Ann"},
         play("Bob", "4S"), play("Ann", "5S"), play("Bob", "6S"), play("Ann", "7S"),
         play("Bob", "8S"), play("Ann", "9S"), {"kind": "one", "player": "Bob"},
         play("Bob", "10S")]


def _enter(db, table_id, phone, action):
    version = tables.get_table(db, table_id).version
    return tables.enter(db, table_id, phone, action, version,
                        tokens.new_submission_id()).action.seq


def test_rocca_facts_come_from_the_live_entries(db):
    secret = tokens.new_secret()
    group = groups.create_group(db, "Club", "Ann\nBob", secret)
    table, _ = tables.create_table(db, "rocca", {}, ["Ann", "Bob"], 0, secret=secret,
                                   group_id=group.id)
    phone = tables.phone_by_secret(db, table.id, secret)
    for action in ROCCA[:2]:
        _enter(db, table.id, phone, action)
    # A draw entered by mistake and undone: it is not one of the game's entries.
    mistake = _enter(db, table.id, phone, {"kind": "draw", "player": "Ann"})
    tables.undo(db, table.id, phone, mistake, tokens.new_submission_id())
    for action in ROCCA[2:]:
        _enter(db, table.id, phone, action)
    # By hand: Ann drew one card (the live draw), nobody forgot to say One, Bob won.
    expected = {"game": "rocca", "winner": "Bob", "one_penalties": {}, "drawn": {"Ann": 1},
                "complete": True}
    [row] = db.execute("SELECT facts FROM group_games").fetchall()
    assert json.loads(row[0]) == expected
    assert groups.records.game_actions(db, table.id, 1) == ROCCA
    # A rematch: the second game's entries are its own.
    tables.rematch(db, table.id, phone, tokens.new_submission_id(),
                   tables.get_table(db, table.id).version)
    for action in ROCCA:
        _enter(db, table.id, phone, action)
    rows = db.execute("SELECT game_no, facts FROM group_games ORDER BY game_no").fetchall()
    # Each finished game of a match is a record of its own: game 1 of the table's match 1,
    # then game 1 of match 2 (records.MATCH_GAMES).
    assert [(r[0], json.loads(r[1])) for r in rows] == [(1_000_001, expected),
                                                        (2_000_001, expected)]
    fig = stats.view(groups.kept_stats(db, group.id))["games"]["rocca"]["figures"]
    assert fig == {"games_counted": 2, "players": {
        "Ann": {"games": 2, "one_penalties": 0, "cards_drawn": 2, "average_cards_drawn": 1.0},
        "Bob": {"games": 2, "one_penalties": 0, "cards_drawn": 0, "average_cards_drawn": 0.0}}}
    # The kept total is the one its stored records and facts build.
    pairs = [(g, json.loads(db.execute("SELECT facts FROM group_games WHERE id = ?",
                                       [g["id"]]).fetchone()[0]))
             for g in sorted(groups.games(db, group.id), key=lambda g: g["id"])]
    assert groups.kept_stats(db, group.id) == stats.build(pairs)
    assert groups.records.game_actions(db, table.id, 2) == ROCCA
    assert groups.records.game_actions(db, table.id, 3) is None
