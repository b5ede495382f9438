"""Merging two players of a group at the service level, on a Rook table (teams, team
labels, every hand's bidder): the records, their summaries and facts name the kept player,
the kept total equals a rebuild, and the table's later writes keep recording the merged
name as the kept player. Deleting a game folds it out in the same transaction."""
from __future__ import annotations

import json

import pytest

from companion import groups, stats, tables
from companion.tables import tokens
from companion.tables.errors import NotFound, TableError
from test_groups_kept_stats import _check, _step, db  # noqa: F401  (the fixture)

HANDS = [{"kind": "hand", "bidder": "Ann", "bid": 150, "points": {"A": 150, "B": 100}},
         {"kind": "hand", "bidder": "Bobby", "bid": 150, "points": {"A": 100, "B": 150}},
         {"kind": "hand", "bidder": "Bobby", "bid": 160, "points": {"A": 90, "B": 160}}]


@pytest.fixture
def rook(db):  # noqa: F811
    secret = tokens.new_secret()
    group = groups.create_group(db, "Friday", "Ann\nBob\nCid\nDee", secret)
    table, _ = tables.create_table(db, "rook", {"target": 300},
                                   ["Ann", "Bobby", "Cid", "Dee"], 0, secret=secret,
                                   group_id=group.id)
    phone = tables.phone_by_secret(db, table.id, secret)
    seqs = [_step(db, table.id, phone, "enter", h, None) for h in HANDS]
    _check(db, group.id, 1)
    return group, secret, table, phone, seqs


def _ids(db, group_id):
    return {p.name: p.id for p in groups.players(db, group_id)}


def test_merge_rewrites_a_rook_record_everywhere(db, rook):  # noqa: F811
    group, secret, table, phone, seqs = rook
    ids = _ids(db, group.id)
    assert sorted(groups.games(db, group.id)[0]["winners"]) == ["Bobby", "Dee"]
    kept, moved = groups.merge_players(db, group.id, secret, ids["Bobby"], ids["Bob"])
    assert (kept.name, moved) == ("Bob", 1)
    [game] = groups.games(db, group.id)
    assert game["players"] == ["Ann", "Bob", "Cid", "Dee"]
    assert game["teams"] == [["Ann", "Cid"], ["Bob", "Dee"]]
    assert sorted(game["winners"]) == ["Bob", "Dee"]
    assert "Bob & Dee" in game["scores"]
    [row] = db.execute("SELECT summary, facts FROM group_games").fetchall()
    # Every field that names a player says Bob; the sheet's sentences ("Bobby bid 150
    # and made it") stay as they were written.
    summary = json.loads(row["summary"])
    assert summary["teams"]["B"] == ["Bob", "Dee"] and summary["team_names"]["B"] == "Bob & Dee"
    assert [h["bidder"] for h in summary["hands"]] == ["Ann", "Bob", "Bob"]
    assert "Bobby" not in row["facts"]
    assert [h["bidder"] for h in json.loads(row["facts"])["hands"]] == ["Ann", "Bob", "Bob"]
    _check(db, group.id, 1)
    rook_figures = stats.view(groups.kept_stats(db, group.id))["games"]["rook"]
    assert "Bobby" not in json.dumps(rook_figures)
    # The table still seats "Bobby": its last hand edited, the record still says Bob.
    _step(db, table.id, phone, "edit",
          {"kind": "hand", "bidder": "Bobby", "bid": 160, "points": {"A": 80, "B": 170}},
          seqs[-1])
    [game] = groups.games(db, group.id)
    assert game["players"] == ["Ann", "Bob", "Cid", "Dee"]
    _check(db, group.id, 1)
    assert sorted(_ids(db, group.id)) == ["Ann", "Bob", "Cid", "Dee"]
    kinds = [a["kind"] for a in groups.audit_log(db, group.id)]
    assert kinds.count("merge") == 1


def test_refused_merges_change_nothing(db, rook):  # noqa: F811
    group, secret, _table, _phone, _seqs = rook
    ids = _ids(db, group.id)
    def rows():
        return [list(map(tuple, db.execute(f"SELECT * FROM {t} WHERE group_id = ?",
                                           [group.id]).fetchall()))
                for t in ("group_games", "group_players", "group_stats", "group_audit")]

    before = rows()
    with pytest.raises(TableError) as same:
        groups.merge_players(db, group.id, secret, ids["Bob"], ids["Bob"])
    assert same.value.status == 422
    with pytest.raises(TableError) as together:
        groups.merge_players(db, group.id, secret, ids["Bobby"], ids["Ann"])
    assert together.value.status == 409
    with pytest.raises(NotFound):
        groups.merge_players(db, group.id, secret, ids["Bobby"], 999)
    other = groups.create_group(db, "Club", "Zed", secret)
    with pytest.raises(NotFound):     # another group's player is no player of this one
        groups.merge_players(db, group.id, secret, ids["Bobby"],
                             _ids(db, other.id)["Zed"] + 10)
    assert rows() == before


def test_delete_a_game_folds_it_out(db, rook):  # noqa: F811
    group, secret, table, phone, seqs = rook
    [game] = groups.games(db, group.id)
    groups.delete_game(db, group.id, secret, game["id"])
    _check(db, group.id, 0)
    assert stats.view(groups.kept_stats(db, group.id))["games"] == {}
    # The last hand undone and entered again: still deleted.
    _step(db, table.id, phone, "undo", None, seqs[-1])
    _step(db, table.id, phone, "enter", HANDS[-1], None)
    assert groups.games(db, group.id) == []
    _check(db, group.id, 0)
