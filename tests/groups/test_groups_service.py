"""Groups below the web layer: making a group, joining by its link, removing a phone,
renaming a player (all audited), and the record of a group's table following its sheet
(a finished game recorded, an undone last hand taking the record away, an edited one
rewriting it, a rematch keeping it)."""
from __future__ import annotations

import csv
import io

import pytest

from companion import groups, tables
from companion.groups.group import audit_log
from companion.storage import connect
from companion.storage.migrations import migrate
from companion.tables import tokens
from companion.tables.errors import Forbidden, NotFound, TableError

ROOK_WIN = [{"kind": "hand", "bidder": "Ann", "bid": 150, "points": {"A": 150, "B": 30}}]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "groups.db"
    migrate(path)
    return connect(path)


@pytest.fixture
def made(db):
    secret = tokens.new_secret()
    group = groups.create_group(db, " Friday  circle ", "Ann\n\n Bob \nCid\nDee\n", secret)
    return group, secret


def test_create_cleans_names_and_lists_players(db, made):
    group, secret = made
    assert group.name == "Friday circle"
    assert [p.name for p in groups.players(db, group.id)] == ["Ann", "Bob", "Cid", "Dee"]
    assert groups.require_phone(db, group.id, secret)[1].creator
    assert [g.id for g in groups.groups_of(db, secret)] == [group.id]
    assert audit_log(db, group.id)[0]["kind"] == "create"


@pytest.mark.parametrize("name,players", [
    ("", "Ann"), ("x" * 61, "Ann"), ("Club", "Ann\nANN"), ("Club", "Ann\nＡｎｎ"),
    ("Club", "A" * 40), ("Club", "\n".join(f"P{i}" for i in range(61))),
    ("Club", "x\n" * 3000),
])
def test_bad_input_is_refused_and_writes_nothing(db, name, players):
    with pytest.raises(TableError) as exc:
        groups.create_group(db, name, players, tokens.new_secret())
    assert exc.value.status == 422
    assert db.execute("SELECT COUNT(*) FROM groups").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM group_players").fetchone()[0] == 0


def test_join_remove_and_rejoin(db, made):
    group, creator = made
    other = tokens.new_secret()
    with pytest.raises(Forbidden):
        groups.require_phone(db, group.id, other)
    with pytest.raises(NotFound):
        groups.join_by_token(db, "WRONG", other)
    assert groups.join_by_token(db, group.token.lower(), other).id == group.id
    groups.join_by_token(db, group.token, other)        # again: still one phone
    assert [p.n for p in groups.phones(db, group.id)] == [1, 2]
    with pytest.raises(Forbidden):
        groups.remove_phone(db, group.id, other, 1)     # only the creator removes phones
    with pytest.raises(TableError):
        groups.remove_phone(db, group.id, creator, 1)   # not itself
    groups.remove_phone(db, group.id, creator, 2)
    with pytest.raises(Forbidden):
        groups.require_phone(db, group.id, other)
    assert groups.groups_of(db, other) == []
    # Removing a phone replaces the link: the old one no longer adds it back; shown the
    # new one on purpose, it comes back as the same phone.
    with pytest.raises(NotFound):
        groups.join_by_token(db, group.token, other)
    assert groups.phone_of(db, group.id, other) is None
    groups.join_by_token(db, groups.get_group(db, group.id).token, other)
    assert groups.phone_of(db, group.id, other).n == 2
    kinds = [row["kind"] for row in audit_log(db, group.id)]
    assert kinds == ["create", "join", "remove_phone", "join"]


def test_rename_player(db, made):
    group, secret = made
    bob = groups.players(db, group.id)[1]
    with pytest.raises(TableError):
        groups.rename_player(db, group.id, secret, bob.id, "ann")   # taken
    with pytest.raises(TableError):
        groups.rename_player(db, group.id, secret, bob.id, "   ")
    with pytest.raises(Forbidden):
        groups.rename_player(db, group.id, tokens.new_secret(), bob.id, "Robert")
    groups.rename_player(db, group.id, secret, bob.id, " Robert ")
    assert groups.players(db, group.id)[1].name == "Robert"
    last = audit_log(db, group.id)[-1]
    assert (last["kind"], last["old"]["name"], last["new"]["name"]) == ("rename", "Bob", "Robert")


def _table(db, group, secret, slug, names, settings):
    table, _ = tables.create_table(db, slug, settings, names, 0, secret=secret,
                                   group_id=group.id)
    phone = tables.phone_by_secret(db, table.id, secret)
    return table, phone


def _enter(db, table_id, phone, action):
    version = tables.get_table(db, table_id).version
    return tables.enter(db, table_id, phone, action, version, tokens.new_submission_id())


def test_a_finished_game_is_recorded_and_follows_the_sheet(db, made):
    group, secret = made
    table, phone = _table(db, group, secret, "scorepad", ["Ann", "Eve"],
                          {"target": 100, "rounds": None, "low_wins": False})
    _enter(db, table.id, phone, {"kind": "round", "scores": {"Ann": 40, "Eve": 60}})
    assert groups.games(db, group.id) == []
    done = _enter(db, table.id, phone, {"kind": "round", "scores": {"Ann": 70, "Eve": 10}})
    [game] = groups.games(db, group.id)
    assert game["game"] == "scorepad" and game["table_id"] == table.id
    assert game["players"] == ["Ann", "Eve"] and game["teams"] is None
    assert game["scores"] == {"Ann": 110, "Eve": 70} and game["winners"] == ["Ann"]
    assert game["started_at"] <= game["finished_at"]
    # Eve, new to the group, joined it with her first recorded game.
    assert "Eve" in [p.name for p in groups.players(db, group.id)]
    # The last hand undone: no record; entered otherwise: the record says so.
    version = tables.get_table(db, table.id).version
    tables.undo(db, table.id, phone, done.action.seq, tokens.new_submission_id())
    assert groups.games(db, group.id) == []
    _enter(db, table.id, phone, {"kind": "round", "scores": {"Ann": 10, "Eve": 50}})
    [game] = groups.games(db, group.id)
    assert game["scores"] == {"Ann": 50, "Eve": 110} and game["winners"] == ["Eve"]
    # A rematch moves the table on: the finished game's record stays.
    version = tables.get_table(db, table.id).version
    tables.rematch(db, table.id, phone, tokens.new_submission_id(), version)
    assert len(groups.games(db, group.id)) == 1
    _enter(db, table.id, phone, {"kind": "round", "scores": {"Ann": 100, "Eve": 0}})
    assert [g["winners"] for g in groups.games(db, group.id)] == [["Ann"], ["Eve"]]
    csv_text = groups.games_csv(db, group.id)
    assert csv_text.splitlines()[0] == ",".join(groups.CSV_COLUMNS)
    assert len(csv_text.splitlines()) == 3


def test_a_rook_game_records_teams_and_both_winners(db, made):
    group, secret = made
    table, phone = _table(db, group, secret, "rook", ["Ann", "Bob", "Cid", "Dee"],
                          {"target": 150})
    _enter(db, table.id, phone,
           {"kind": "hand", "bidder": "Ann", "bid": 150, "points": {"A": 150, "B": 100}})
    [game] = groups.games(db, group.id)
    assert game["teams"] == [["Ann", "Cid"], ["Bob", "Dee"]]
    assert sorted(game["winners"]) == ["Ann", "Cid"]
    assert len(game["scores"]) == 2 and sorted(game["scores"].values()) == [100, 150]
    won = db.execute("SELECT p.name, r.won, r.team FROM group_game_players r JOIN group_players"
                     " p ON p.group_id = r.group_id AND p.id = r.player_id ORDER BY r.seat"
                     ).fetchall()
    assert [tuple(r) for r in won] == [("Ann", 1, "A"), ("Bob", 0, "B"), ("Cid", 1, "A"),
                                       ("Dee", 0, "B")]
    [row] = list(csv.DictReader(io.StringIO(groups.games_csv(db, group.id))))
    assert row["teams"] == "Ann & Cid | Bob & Dee"
    assert sorted(row["winners"].split(" | ")) == ["Ann", "Cid"]
    assert row["scores"].count(": ") == 2 and row["minutes"] == "0"


def test_a_name_that_looks_like_a_formula_is_quoted_in_the_csv(db):
    secret = tokens.new_secret()
    group = groups.create_group(db, "Club", "", secret)
    table, phone = _table(db, group, secret, "scorepad", ["=1+1", "Eve"], {"target": 10})
    _enter(db, table.id, phone, {"kind": "round", "scores": {"=1+1": 40, "Eve": 0}})
    [row] = list(csv.DictReader(io.StringIO(groups.games_csv(db, group.id))))
    assert row["players"] == "'=1+1 | Eve" and row["winners"] == "'=1+1"
    assert groups.games(db, group.id)[0]["winners"] == ["=1+1"]     # the JSON as it is


def test_a_table_without_a_group_records_nothing(db, made):
    table, _ = tables.create_table(db, "scorepad", {"target": 10}, ["Ann", "Eve"], 0)
    phone = tables.phone_by_secret(db, table.id, _)
    _enter(db, table.id, phone, {"kind": "round", "scores": {"Ann": 40, "Eve": 60}})
    assert db.execute("SELECT COUNT(*) FROM group_games").fetchone()[0] == 0


def test_prune_keeps_a_group_table(db, made):
    from datetime import timedelta

    from companion.tables.prune import stale_tables

    group, secret = made
    table, phone = _table(db, group, secret, "scorepad", ["Ann", "Eve"], {"target": 10})
    _enter(db, table.id, phone, {"kind": "round", "scores": {"Ann": 40, "Eve": 60}})
    lone, lone_secret = tables.create_table(db, "scorepad", {"target": 10}, ["Ann", "Eve"], 0)
    _enter(db, lone.id, tables.phone_by_secret(db, lone.id, lone_secret),
           {"kind": "round", "scores": {"Ann": 40, "Eve": 60}})
    stale = stale_tables(db, timedelta(days=-1))
    assert lone.id in stale and table.id not in stale


def test_an_edited_last_hand_rewrites_the_record(db, made):
    group, secret = made
    table, phone = _table(db, group, secret, "scorepad", ["Ann", "Eve"], {"target": 100})
    done = _enter(db, table.id, phone, {"kind": "round", "scores": {"Ann": 120, "Eve": 10}})
    [first] = groups.games(db, group.id)
    assert first["winners"] == ["Ann"]
    version = tables.get_table(db, table.id).version
    tables.edit(db, table.id, phone, done.action.seq,
                {"action": {"kind": "round", "scores": {"Ann": 10, "Eve": 130}}}, version,
                tokens.new_submission_id())
    [game] = groups.games(db, group.id)
    assert (game["id"], game["finished_at"]) == (first["id"], first["finished_at"])
    assert game["scores"] == {"Ann": 10, "Eve": 130} and game["winners"] == ["Eve"]
    # Edited so that nobody reaches the target: the game goes on, and has no record.
    version = tables.get_table(db, table.id).version
    tables.edit(db, table.id, phone, done.action.seq,
                {"action": {"kind": "round", "scores": {"Ann": 10, "Eve": 30}}}, version,
                tokens.new_submission_id())
    assert groups.games(db, group.id) == []
    assert db.execute("SELECT COUNT(*) FROM group_game_players").fetchone()[0] == 0
