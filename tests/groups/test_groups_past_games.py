"""A table that joins a group after some games: its earlier, finished games are recorded
as games 1, 2, ... of the table (dated by their rematches), and games finished after that
go on being recorded as they finish."""
from __future__ import annotations

import pytest

from companion import groups, tables
from companion.storage import connect, transaction
from companion.storage.migrations import migrate
from companion.tables import tokens

SETTINGS = {"target": 100, "rounds": None, "low_wins": False}


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "past.db"
    migrate(path)
    return connect(path)


def _enter(db, table_id, phone, scores):
    version = tables.get_table(db, table_id).version
    return tables.enter(db, table_id, phone, {"kind": "round", "scores": scores}, version,
                        tokens.new_submission_id())


def _rematch(db, table_id, phone):
    version = tables.get_table(db, table_id).version
    tables.rematch(db, table_id, phone, tokens.new_submission_id(), version)


def test_past_games_are_recorded_when_a_table_joins_a_group(db):
    secret = tokens.new_secret()
    table, _ = tables.create_table(db, "scorepad", SETTINGS, ["Ann", "Eve"], 0, secret=secret)
    phone = tables.phone_by_secret(db, table.id, secret)
    _enter(db, table.id, phone, {"Ann": 120, "Eve": 30})
    _rematch(db, table.id, phone)
    _enter(db, table.id, phone, {"Ann": 20, "Eve": 110})
    _rematch(db, table.id, phone)
    _enter(db, table.id, phone, {"Ann": 5, "Eve": 5})   # the third game, not over yet
    group = groups.create_group(db, "Friday", "Ann\n", secret)
    db.execute("UPDATE tables SET group_id = ? WHERE id = ?", [group.id, table.id])
    table = tables.get_table(db, table.id)
    sheet = tables.sheet(db, table)
    names = [s.name for s in sheet.seats]
    with transaction(db):
        assert groups.record_past_games(db, table, names, sheet.past_games) == 2
    # Newest first, as the group's pages list them; two games ended in the same second
    # keep the order they were played in.
    games = groups.games(db, group.id)[::-1]
    assert [g["winners"] for g in games] == [["Ann"], ["Eve"]]
    assert [g["scores"] for g in games] == [{"Ann": 120, "Eve": 30}, {"Ann": 20, "Eve": 110}]
    assert games[0]["started_at"] <= games[0]["finished_at"] <= games[1]["started_at"]
    assert games[1]["started_at"] <= games[1]["finished_at"]
    assert [p.name for p in groups.players(db, group.id)] == ["Ann", "Eve"]
    # Done again, nothing doubles; the current game, once finished, is game 3.
    with transaction(db):
        assert groups.record_past_games(db, table, names, sheet.past_games) == 2
    assert len(groups.games(db, group.id)) == 2
    _enter(db, table.id, phone, {"Ann": 100, "Eve": 0})
    assert sorted(g["winners"] for g in groups.games(db, group.id)) == [["Ann"], ["Ann"], ["Eve"]]
    # The group's kept statistics count each recorded game once, past ones included.
    from test_groups_kept_stats import _check
    _check(db, group.id, 3)


def test_a_table_without_a_group_records_no_past_games(db):
    secret = tokens.new_secret()
    table, _ = tables.create_table(db, "scorepad", SETTINGS, ["Ann", "Eve"], 0, secret=secret)
    phone = tables.phone_by_secret(db, table.id, secret)
    _enter(db, table.id, phone, {"Ann": 120, "Eve": 30})
    _rematch(db, table.id, phone)
    sheet = tables.sheet(db, tables.get_table(db, table.id))
    with transaction(db):
        assert groups.record_past_games(db, table, ["Ann", "Eve"], sheet.past_games) == 0
    assert db.execute("SELECT COUNT(*) FROM group_games").fetchone()[0] == 0


def test_keep_these_players_makes_a_group_of_the_table(db):
    from companion.groups.group import audit_log
    from companion.tables.errors import Forbidden, TableError
    secret, other = tokens.new_secret(), tokens.new_secret()
    table, _ = tables.create_table(db, "scorepad", SETTINGS, ["Ann", "Eve"], 0, secret=secret)
    phone = tables.phone_by_secret(db, table.id, secret)
    _enter(db, table.id, phone, {"Ann": 20, "Eve": 30})
    _enter(db, table.id, phone, {"Ann": 100, "Eve": 30})
    _rematch(db, table.id, phone)
    _enter(db, table.id, phone, {"Ann": 20, "Eve": 110})   # the second game, over
    with pytest.raises(Forbidden):
        groups.keep_table(db, table.id, other, "Friday")
    with pytest.raises(TableError):
        groups.keep_table(db, table.id, secret, "   ")
    assert db.execute("SELECT COUNT(*) FROM groups").fetchone()[0] == 0
    assert groups.keepable(db, table.id, secret) == ["Ann", "Eve"]
    group, recorded = groups.keep_table(db, table.id, secret, " Friday ")
    assert (group.name, recorded) == ("Friday", 2)
    assert tables.get_table(db, table.id).group_id == group.id
    assert [p.name for p in groups.players(db, group.id)] == ["Ann", "Eve"]
    # Newest first, as the group's pages list them; two games ended in the same second
    # keep the order they were played in.
    games = groups.games(db, group.id)[::-1]
    assert [g["winners"] for g in games] == [["Ann"], ["Eve"]]
    assert [e["kind"] for e in audit_log(db, group.id)] == ["create", "attach"]
    assert groups.require_phone(db, group.id, secret)   # the keeping phone is the group's
    with pytest.raises(TableError, match="already records"):
        groups.keep_table(db, table.id, secret, "Again")
    # Later writes follow the sheet: the last hand undone takes game 2's record away.
    last = db.execute("SELECT MAX(seq) FROM actions WHERE table_id = ? AND kind = 'game'",
                      [table.id]).fetchone()[0]
    tables.undo(db, table.id, phone, last, tokens.new_submission_id())
    assert [g["winners"] for g in groups.games(db, group.id)] == [["Ann"]]
