"""A group's statistics kept as games finish: after every write to a group's table (a
game finished, its last hand edited or undone, a rematch, a Rook game with its hands), the
stored running total equals ``stats.build`` over the group's current records and their
stored facts, and the facts are those read from the record's own summary."""
from __future__ import annotations

import json

import pytest

from companion import groups, stats, tables
from companion.storage import connect
from companion.storage.migrations import migrate
from companion.tables import tokens


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "kept.db"
    migrate(path)
    return connect(path)


def _stored(db, group_id):
    row = db.execute("SELECT stats, games FROM group_stats WHERE group_id = ?",
                     [group_id]).fetchone()
    return (json.loads(row[0]), row[1]) if row is not None else (stats.empty(), 0)


def _rebuilt(db, group_id):
    rows = db.execute("SELECT * FROM group_games WHERE group_id = ? AND deleted_at IS NULL"
                      " ORDER BY id", [group_id]).fetchall()
    pairs = []
    for row in rows:
        [record] = [g for g in groups.games(db, group_id) if g["id"] == row["id"]]
        facts = json.loads(row["facts"])
        assert facts == stats.facts_of_summary(row["game"], json.loads(row["summary"]))
        pairs.append((record, facts))
    return stats.build(pairs), len(pairs)


def _check(db, group_id, games_expected):
    total, count = _stored(db, group_id)
    assert (total, count) == _rebuilt(db, group_id)
    assert count == games_expected


# Each step: (what, argument, recorded games after it). "enter" plays an action,
# "undo" takes back the last entered one, "edit" rewrites it, "rematch" moves on.
PAD = {"target": 100}
STEPS = [
    ("enter", {"kind": "round", "scores": {"Ann": 40, "Eve": 60}}, 0),
    ("enter", {"kind": "round", "scores": {"Ann": 70, "Eve": 10}}, 1),      # Ann wins
    ("edit", {"kind": "round", "scores": {"Ann": 10, "Eve": 50}}, 1),       # now Eve
    ("edit", {"kind": "round", "scores": {"Ann": 10, "Eve": 20}}, 0),       # not over
    ("enter", {"kind": "round", "scores": {"Ann": 90, "Eve": 0}}, 1),
    ("undo", None, 0),
    ("enter", {"kind": "round", "scores": {"Ann": 0, "Eve": 90}}, 1),
    ("rematch", None, 1),
    ("enter", {"kind": "round", "scores": {"Ann": 100, "Eve": 0}}, 2),
    ("undo", None, 1),
    ("enter", {"kind": "round", "scores": {"Ann": 100, "Eve": 5}}, 2),
]


def _step(db, table_id, phone, what, arg, last):
    version = tables.get_table(db, table_id).version
    sub = tokens.new_submission_id()
    if what == "enter":
        return tables.enter(db, table_id, phone, arg, version, sub).action.seq
    if what == "edit":
        tables.edit(db, table_id, phone, last, {"action": arg}, version, sub)
        return last
    if what == "undo":
        tables.undo(db, table_id, phone, last, sub)
        return None
    tables.rematch(db, table_id, phone, sub, version)
    return None


@pytest.mark.parametrize("upto", [len(STEPS)])
def test_score_pad_steps_keep_the_total_equal_to_a_rebuild(db, upto):
    secret = tokens.new_secret()
    group = groups.create_group(db, "Club", "Ann\nEve", secret)
    table, _ = tables.create_table(db, "scorepad", PAD, ["Ann", "Eve"], 0, secret=secret,
                                   group_id=group.id)
    phone = tables.phone_by_secret(db, table.id, secret)
    last = None
    for what, arg, expected in STEPS[:upto]:
        seq = _step(db, table.id, phone, what, arg, last)
        last = seq if seq is not None else last
        _check(db, group.id, expected)
    figures = stats.view(groups.kept_stats(db, group.id))
    assert figures                                  # the view reads the kept total


def test_rook_hands_are_kept_and_a_rewrite_takes_them_out(db):
    secret = tokens.new_secret()
    group = groups.create_group(db, "Friday", "Ann\nBob\nCid\nDee", secret)
    table, _ = tables.create_table(db, "rook", {"target": 300},
                                   ["Ann", "Bob", "Cid", "Dee"], 0, secret=secret,
                                   group_id=group.id)
    phone = tables.phone_by_secret(db, table.id, secret)
    hands = [{"kind": "hand", "bidder": "Ann", "bid": 150, "points": {"A": 150, "B": 100}},
             {"kind": "hand", "bidder": "Bob", "bid": 150, "points": {"A": 100, "B": 150}},
             {"kind": "hand", "bidder": "Cid", "bid": 160, "points": {"A": 160, "B": 90}}]
    seqs = [_step(db, table.id, phone, "enter", h, None) for h in hands]
    _check(db, group.id, 1)
    [row] = db.execute("SELECT facts FROM group_games").fetchall()
    assert [h["bid"] for h in json.loads(row[0])["hands"]] == [150, 150, 160]
    # The last hand set instead: Bob and Dee pass 300, and the record says so.
    _step(db, table.id, phone, "edit",
          {"kind": "hand", "bidder": "Cid", "bid": 160, "points": {"A": 100, "B": 150}},
          seqs[-1])
    _check(db, group.id, 1)
    assert sorted(groups.games(db, group.id)[0]["winners"]) == ["Bob", "Dee"]
    # Undone: the game goes on, and its hands leave the total.
    _step(db, table.id, phone, "undo", None, seqs[-1])
    _check(db, group.id, 0)
    assert _stored(db, group.id)[0] == stats.empty()


def test_a_group_recorded_before_totals_were_kept_is_built_from_its_records(db):
    secret = tokens.new_secret()
    group = groups.create_group(db, "Club", "Ann\nEve", secret)
    table, _ = tables.create_table(db, "scorepad", PAD, ["Ann", "Eve"], 0, secret=secret,
                                   group_id=group.id)
    phone = tables.phone_by_secret(db, table.id, secret)
    _step(db, table.id, phone, "enter", {"kind": "round", "scores": {"Ann": 100, "Eve": 0}},
          None)
    # As a database upgraded by m017 has it: records without facts, no kept total.
    db.execute("UPDATE group_games SET facts = NULL")
    db.execute("DELETE FROM group_stats")
    expected = stats.build((g, stats.facts_of_summary(g["game"], {})) for g in
                           groups.games(db, group.id))
    assert groups.kept_stats(db, group.id)["version"] == expected["version"]
    _step(db, table.id, phone, "rematch", None, None)
    _step(db, table.id, phone, "enter", {"kind": "round", "scores": {"Ann": 0, "Eve": 100}},
          None)
    total, count = _stored(db, group.id)
    assert count == 2
    assert stats.view(total) == stats.view(groups.kept_stats(db, group.id))
