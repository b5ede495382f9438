"""Changing an entry in place below the web layer (tables.service.edit): the fold reads the
change in the entry's place, so order, numbering and dealers stay; the change is undone
and restored like any entry; a refused change writes nothing; where the other team
confirms entries, a change waits for them and taking it back needs their consent.

Every sheet is checked against a full replay of the log (`check`, from the stored-fold
tests), after the write and after a restart."""
from __future__ import annotations

import pytest

from companion import tables
from companion.tables import fold as folds

from test_tables_fold_snapshot import HANDS, PAD, ROOK, Table, check, db_path  # noqa: F401

REDEAL = {"kind": "redeal"}


def change(t: Table, seq: int, action: dict, seat: int = 0, **words) -> tables.Outcome:
    return tables.edit(t.db, t.id, t.phones[seat], seq, {"action": action, **words},
                       t.version, f"edit-{t.version}-{seq}")


def dealers(sheet: tables.Sheet) -> list[tuple]:
    """(kind, dealer, hand number) of each deal, and who deals next."""
    rows = [(h["kind"], h["dealer"], h["hand"]) for h in sheet.summary["hands"]]
    return rows + [("next", sheet.summary["dealer"], None)]


@pytest.fixture
def db(db_path):  # noqa: F811
    from companion.storage import connect
    return connect(db_path)


def five_deals(db, **options) -> tuple[Table, list[tables.Outcome]]:
    """Rook: hand 1 on Ann's deal, everyone passed on Bob's, hands 2-4."""
    t = Table(db, "rook", ROOK, {}, **options)
    done = []
    for action in (HANDS[0], REDEAL, HANDS[1], HANDS[2], HANDS[3]):
        done.append(t.enter(action))
        if options.get("confirm"):              # Bob's team confirms Ann's entries
            t.confirm(done[-1].action.seq, seat=1)
    return t, done


EXPECTED = [("hand", "Ann", 1), ("redeal", "Bob", None), ("hand", "Cid", 2),
            ("hand", "Dee", 3), ("hand", "Ann", 4), ("next", "Bob", None)]


def test_a_change_folds_in_the_entrys_place(db):
    t, done = five_deals(db)
    changed = dict(HANDS[1], points={"A": 90, "B": 160})
    out = change(t, done[2].action.seq, changed, number=2)
    check(t, out)
    assert out.action.row_kind == "edit"
    assert out.action.payload == {"action": changed, "number": 2,
                                  "target": done[2].action.seq, "was": HANDS[1]}
    assert dealers(out.sheet) == EXPECTED
    hand = out.sheet.summary["hands"][2]
    assert (hand["hand"], hand["points"]) == (2, {"A": 90, "B": 160})
    # Later totals follow: the change moves 10 points from A to B in every later row.
    before = done[-1].sheet.summary["hands"]
    for old, new in zip(before[2:], out.sheet.summary["hands"][2:]):
        assert new["running"] == {"A": old["running"]["A"] - 10, "B": old["running"]["B"] + 10}
    # Changed again: the newest change counts, and it says what the entry said until then.
    again = change(t, done[2].action.seq, HANDS[0])
    check(t, again)
    assert again.action.payload["was"] == changed
    assert again.sheet.summary["hands"][2]["bidder"] == "Ann"


def test_a_change_is_undone_and_restored_like_any_entry(db):
    t, done = five_deals(db)
    out = change(t, done[0].action.seq, dict(HANDS[0], points={"A": 160, "B": 90}))
    assert out.sheet.last_undoable.seq == out.action.seq      # "Undo last" takes it back
    undone = t.undo(out.action.seq)
    check(t, undone)
    assert undone.sheet.summary == done[-1].sheet.summary
    restored = t.undo(undone.action.seq)
    check(t, restored)
    assert restored.sheet.summary == out.sheet.summary
    # Striking the entry itself takes its change along; restoring it brings both back.
    struck = t.undo(done[0].action.seq)
    check(t, struck)
    assert struck.sheet.summary["hand_count"] == 3
    check(t, t.undo(struck.action.seq))
    assert tables.sheet(db, tables.get_table(db, t.id)).summary == out.sheet.summary


@pytest.mark.parametrize("which, action, error, words, rule", [
    (0, dict(HANDS[0], bid=95), tables.Refused, "bids start at 150", "RK-4"),
    (0, {"kind": "shuffle"}, tables.Refused, "not a Rook action", "RK-8"),
    (0, HANDS[0], tables.TableError, "already says that", None),
    (1, {"kind": "undo"}, tables.Refused, "not a Rook action", "RK-8"),
    ("strike", HANDS[0], tables.NotFound, r"no entry #\d+ to change", None),
    ("seat", HANDS[0], tables.NotFound, "no entry #1 to change", None),
    (99, HANDS[0], tables.NotFound, "no entry #99", None),
    ("text", HANDS[0], tables.NotFound, "no entry #4", None),
])
def test_a_refused_change_writes_nothing(db, which, action, error, words, rule):
    t, done = five_deals(db)
    strike = t.undo(done[-1].action.seq)        # a strike: no game entry
    seq = {"strike": strike.action.seq, "seat": 1, 99: 99, "text": "4"}.get(which)
    seq = seq if seq is not None else done[which].action.seq
    log, version = t.log(), t.version
    with pytest.raises(error, match=words) as refused:
        change(t, seq, action)
    assert refused.value.rule == rule
    assert (t.log(), t.version) == (log, version)
    check(t)


def test_a_change_the_later_entries_cant_follow_is_refused(db):
    t = Table(db, "scorepad", PAD, {"target": 50})
    first = t.round(10, 5)
    t.round(20, 5)
    log = t.log()
    with pytest.raises(tables.TableError, match=r"entry #\d+ after it would no longer be "
                                                r"legal \(The game is over") as refused:
        change(t, first.action.seq, {"kind": "round", "scores": {"Ann": 60}})
    assert refused.value.status == 422 and refused.value.rule
    assert t.log() == log


def test_a_struck_or_stale_entry_is_not_changed(db):
    t, done = five_deals(db)
    struck = t.undo(done[3].action.seq)
    with pytest.raises(tables.Conflict, match="restore it in the history first"):
        change(t, done[3].action.seq, HANDS[0])
    with pytest.raises(tables.Conflict, match=r"Your other screen undid an entry"):
        tables.edit(db, t.id, t.phones[0], done[2].action.seq, {"action": HANDS[0]},
                    struck.sheet.table.version - 1, "stale")


@pytest.mark.parametrize("which, action, expected", [
    # The redeal on Bob's deal was a hand after all: the hands after it renumber, and
    # every deal keeps its dealer.
    (1, HANDS[1], [("hand", "Ann", 1), ("hand", "Bob", 2), ("hand", "Cid", 3),
                   ("hand", "Dee", 4), ("hand", "Ann", 5), ("next", "Bob", None)]),
    # Hand 1 was a deal everyone passed on: two redeals, Ann's and Bob's.
    (0, REDEAL, [("redeal", "Ann", None), ("redeal", "Bob", None), ("hand", "Cid", 1),
                 ("hand", "Dee", 2), ("hand", "Ann", 3), ("next", "Bob", None)]),
    # A hand after the redeal: the redeal still names Bob's deal.
    (2, HANDS[3], EXPECTED),
])
def test_dealers_stay_right_when_hand_2_of_5_changes(db, which, action, expected):
    t, done = five_deals(db)
    out = change(t, done[which].action.seq, action)
    check(t, out)
    assert dealers(out.sheet) == expected
    redeals = [h["text"] for h in out.sheet.summary["hands"] if h["kind"] == "redeal"]
    if ("redeal", "Bob", None) in expected:
        assert "Everyone passed on Bob's deal: Cid deals next." in redeals


def test_an_earlier_games_entry_is_changed_in_its_game(db):
    t = Table(db, "scorepad", PAD, {"target": 50})
    first = t.round(10, 5)
    t.round(45, 5)                     # Ann reaches 55: over
    t.rematch()
    t.round(1, 2)
    out = change(t, first.action.seq, {"kind": "round", "scores": {"Ann": 20, "Bob": 5}})
    check(t, out)
    assert out.sheet.past_games[0]["totals"] == {"Ann": 65, "Bob": 10}
    assert out.sheet.summary["totals"] == {"Ann": 1, "Bob": 2}
    check(t, t.undo(out.action.seq))
    assert tables.sheet(db, tables.get_table(db, t.id)).past_games[0]["totals"] == \
        {"Ann": 55, "Bob": 10}


def test_where_the_other_team_confirms_a_change_waits_for_them(db):
    t, done = five_deals(db, confirm=True)
    agreed = tables.sheet(db, tables.get_table(db, t.id)).summary
    asked = change(t, done[2].action.seq, dict(HANDS[1], points={"A": 90, "B": 160}))
    check(t, asked)
    assert asked.action.pending and asked.sheet.waiting.seq == asked.action.seq
    assert asked.sheet.summary == agreed                       # nothing counts yet
    with pytest.raises(tables.Forbidden):
        t.confirm(asked.action.seq, seat=2)                    # Cid: Ann's own team
    done_change = t.confirm(asked.action.seq, seat=3)
    check(t, done_change)
    assert done_change.sheet.summary["hands"][2]["points"] == {"A": 90, "B": 160}
    # Taking a confirmed change back is a request the other team agrees to, like a strike.
    request = t.undo(asked.action.seq, seat=0)
    assert request.action.pending and request.sheet.summary == done_change.sheet.summary
    check(t, t.confirm(request.action.seq, seat=1))
    assert tables.sheet(db, tables.get_table(db, t.id)).summary == agreed


def test_fold_reads_only_live_changes():
    row = tables.ActionRow
    log = [row(1, 1, 0, "game", {"kind": "round"}, None, "", None),
           row(2, 2, 0, "edit", {"target": 1, "action": {"a": 1}}, None, "", None),
           row(3, 3, 0, "edit", {"target": 1, "action": {"a": 2}}, None, "", 4),
           row(4, 4, 0, "undo", {"target": 3}, None, "", None),
           row(5, 5, 0, "edit", {"target": 1, "action": {"a": 3}}, None, "", None, True),
           row(6, 6, 0, "edit", {"target": "1", "action": {"a": 4}}, None, "", None)]
    assert folds.edits(log) == {1: {"a": 1}}
