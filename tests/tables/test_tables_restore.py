"""Taking a strike back: an undo of an undo restores the entry it struck.

Table-driven: each case is a short script of steps on a 3-player score pad and what the
sheet, the log and the answers say afterwards. Steps: ("round", {name: points}) saves a
round; ("strike", n) strikes the n-th step's action; ("restore", n) takes back the strike
made at step n (an undo of that undo). A step that must be refused names the error class
and words of its message.
"""
from __future__ import annotations

import pytest

from companion import tables
from companion.storage import connect
from companion.storage.migrations import migrate
from companion.tables.tokens import new_submission_id

NAMES = ["Ann", "Bob", "Cid"]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "restore.db"
    migrate(path)
    return connect(path)


def play(db, settings: dict, steps: list[tuple]):
    """Run `steps` on a new table; returns (table id, host phone, outcomes by step)."""
    table, secret = tables.create_table(db, "scorepad", settings, NAMES, host_seat=0)
    host = tables.phone_by_secret(db, table.id, secret)
    done: list[tables.Outcome | None] = []
    for kind, arg, *refusal in steps:
        def run():
            if kind == "round":
                version = tables.get_table(db, table.id).version
                return tables.enter(db, table.id, host, {"kind": "round", "scores": arg},
                                    version, new_submission_id())
            return tables.undo(db, table.id, host, done[arg].action.seq, new_submission_id())
        if refusal:
            error, words = refusal
            with pytest.raises(error, match=words):
                run()
            done.append(None)
        else:
            done.append(run())
    return table.id, host, done


CASES = [
    # (name, settings, steps, totals afterwards, status afterwards)
    ("strike then restore counts the entry again", {},
     [("round", {"Ann": 5, "Bob": 3}), ("round", {"Cid": 7}), ("strike", 0), ("restore", 2)],
     {"Ann": 5, "Bob": 3, "Cid": 7}, "playing"),
    ("restore an earlier entry under later ones", {},
     [("round", {"Ann": 5}), ("strike", 0), ("round", {"Bob": 4}), ("restore", 1)],
     {"Ann": 5, "Bob": 4, "Cid": 0}, "playing"),
    ("restore, strike again, restore again", {},
     [("round", {"Ann": 5}), ("strike", 0), ("restore", 1), ("strike", 0), ("restore", 3)],
     {"Ann": 5, "Bob": 0, "Cid": 0}, "playing"),
    ("a restored winning round ends the game again", {"target": 50},
     [("round", {"Ann": 60}), ("strike", 0), ("restore", 1)],
     {"Ann": 60, "Bob": 0, "Cid": 0}, "over"),
    ("a strike restored twice is refused the second time", {},
     [("round", {"Ann": 5}), ("strike", 0), ("restore", 1),
      ("restore", 1, tables.Conflict, "already back on the sheet")],
     {"Ann": 5, "Bob": 0, "Cid": 0}, "playing"),
    ("a restore can't be taken back itself", {},
     [("round", {"Ann": 5}), ("strike", 0), ("restore", 1),
      ("restore", 2, tables.TableError, "can't be taken back itself")],
     {"Ann": 5, "Bob": 0, "Cid": 0}, "playing"),
    ("a restore the sheet couldn't fold is refused plainly", {"target": 50},
     [("round", {"Ann": 60}), ("strike", 0), ("round", {"Bob": 10}),
      ("restore", 1, tables.TableError, r"Entry #1 can't be restored.*The game is over")],
     {"Ann": 0, "Bob": 10, "Cid": 0}, "playing"),
    ("a restore that would leave the game going on reopens it", {"target": 50},
     [("round", {"Ann": 30}), ("strike", 0), ("round", {"Ann": 55}), ("strike", 2),
      ("restore", 1)],
     {"Ann": 30, "Bob": 0, "Cid": 0}, "playing"),
]


@pytest.mark.parametrize("name, settings, steps, totals, status", CASES,
                         ids=[c[0] for c in CASES])
def test_restore(db, name, settings, steps, totals, status):
    table_id, _host, _done = play(db, settings, steps)
    table = tables.get_table(db, table_id)
    assert tables.sheet(db, table).summary["totals"] == totals
    assert table.status == status


def test_restore_keeps_the_whole_trail(db):
    table_id, host, done = play(db, {}, [("round", {"Ann": 5}), ("round", {"Bob": 2}),
                                         ("strike", 0), ("restore", 2)])
    entry, strike, restore = done[0].action, done[2].action, done[3].action
    log = {a.seq: a for a in tables.history(db, tables.get_table(db, table_id))}
    assert [a.row_kind for a in log.values()] == ["game", "game", "undo", "undo"]   # nothing deleted
    assert restore.payload == {"target": strike.seq, "restores": entry.seq}
    assert restore.seat == host.seat                                        # who restored
    assert log[strike.seq].undone_by == restore.seq                         # the strike, taken back
    assert log[entry.seq].undone_by is None                                 # the entry counts
    # "Undo last" takes back the newest live entry again, restored or not.
    newest = next(a for a in reversed(list(log.values()))
                  if a.row_kind in ("game", "rematch") and a.undone_by is None)
    assert newest.seq == done[1].action.seq
    assert tables.sheet(db, tables.get_table(db, table_id)).last_undoable.seq == newest.seq


def test_a_repeated_restore_tap_is_stored_once(db):
    table_id, host, done = play(db, {}, [("round", {"Ann": 5}), ("strike", 0)])
    sid = new_submission_id()
    first = tables.undo(db, table_id, host, done[1].action.seq, sid)
    again = tables.undo(db, table_id, host, done[1].action.seq, sid)
    assert not first.duplicate and again.duplicate and again.action.seq == first.action.seq
    assert sum(a.row_kind == "undo" for a in tables.history(db, tables.get_table(db, table_id))) == 2


def test_a_writer_who_missed_a_restore_is_told_so(db):
    table_id, host, done = play(db, {}, [("round", {"Ann": 5}), ("strike", 0)])
    stale = tables.get_table(db, table_id).version
    tables.undo(db, table_id, host, done[1].action.seq, new_submission_id())
    bob, _secret = tables.join(db, tables.get_table(db, table_id), None)
    bob = tables.claim_seat(db, table_id, bob, 1)
    with pytest.raises(tables.Conflict, match="restored an entry"):
        tables.enter(db, table_id, bob, {"kind": "round", "scores": {"Bob": 1}}, stale,
                     new_submission_id())
