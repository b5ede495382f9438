"""The action log below the web layer: folds, undo, conflicts and idempotency (no Flask)."""
from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import tables
from companion.storage import connect
from companion.storage.migrations import migrate
from companion.tables.tokens import new_submission_id

NAMES = ["Ann", "Bob", "Cid"]


@pytest.fixture
def db_path(tmp_path):
    path = tmp_path / "log.db"
    migrate(path)
    return path


def _new_table(db, **settings):
    table, secret = tables.create_table(db, "scorepad", settings, NAMES, host_seat=0)
    host = tables.phone_by_secret(db, table.id, secret)
    return table, host


def _seated(db, table, pos):
    phone, _secret = tables.join(db, table, None)
    return tables.claim_seat(db, table.id, phone, pos)


def _round(db, table_id, phone, scores):
    version = tables.get_table(db, table_id).version
    return tables.enter(db, table_id, phone, {"kind": "round", "scores": scores}, version,
                        new_submission_id())


def test_create_binds_host_and_seats(db_path):
    db = connect(db_path)
    table, host = _new_table(db, target=100)
    assert host.seat == 0
    assert [s.name for s in tables.seats_of(db, table.id)] == NAMES
    assert tables.seats_of(db, table.id)[0].has_phone
    assert len(table.code) == 6 and table.code.isalpha() and not set(table.code) & set("ILO")
    assert len(table.token) == 32  # 160 bits in base32


def test_round_undo_and_history(db_path):
    db = connect(db_path)
    table, host = _new_table(db)
    first = _round(db, table.id, host, {"Ann": 5, "Bob": 3})
    second = _round(db, table.id, host, {"Cid": 7})
    assert second.sheet.summary["totals"] == {"Ann": 5, "Bob": 3, "Cid": 7}
    undone = tables.undo(db, table.id, host, first.action.seq, new_submission_id())
    assert undone.sheet.summary["totals"] == {"Ann": 0, "Bob": 0, "Cid": 7}
    log = tables.history(db, tables.get_table(db, table.id))
    struck = next(a for a in log if a.seq == first.action.seq)
    assert struck.undone_by == undone.action.seq          # kept, only marked
    assert [a.row_kind for a in log] == ["game", "game", "undo"]


def test_stale_version_is_a_conflict_that_names_the_writer(db_path):
    db = connect(db_path)
    table, host = _new_table(db)
    bob = _seated(db, table, 1)
    stale = tables.get_table(db, table.id).version
    _round(db, table.id, host, {"Ann": 1})
    with pytest.raises(tables.Conflict, match="Ann saved an entry"):
        tables.enter(db, table.id, bob, {"kind": "round", "scores": {"Bob": 2}}, stale,
                     new_submission_id())
    assert tables.sheet(db, tables.get_table(db, table.id)).summary["round_count"] == 1


def test_seat_changes_do_not_make_an_entry_stale(db_path):
    db = connect(db_path)
    table, host = _new_table(db)
    version = tables.get_table(db, table.id).version
    _seated(db, table, 2)  # Cid's phone sits down: the version moves, the game doesn't
    outcome = tables.enter(db, table.id, host, {"kind": "round", "scores": {"Ann": 4}}, version,
                           new_submission_id())
    assert outcome.sheet.summary["totals"]["Ann"] == 4


def test_same_submission_twice_is_stored_once(db_path):
    db = connect(db_path)
    table, host = _new_table(db)
    version = tables.get_table(db, table.id).version
    sid = new_submission_id()
    one = tables.enter(db, table.id, host, {"kind": "round", "scores": {"Ann": 9}}, version, sid)
    two = tables.enter(db, table.id, host, {"kind": "round", "scores": {"Ann": 9}}, version, sid)
    assert not one.duplicate and two.duplicate and two.action.seq == one.action.seq
    assert two.sheet.summary["totals"]["Ann"] == 9


def test_concurrent_writers_one_wins_rest_conflict(db_path):
    db = connect(db_path)
    table, host = _new_table(db)
    phones = [host, _seated(db, table, 1), _seated(db, table, 2)] * 2
    version = tables.get_table(db, table.id).version
    results: list[str] = []
    barrier = threading.Barrier(len(phones))

    def write(phone):
        own = connect(db_path)  # one connection per thread, like one per request
        barrier.wait()
        try:
            tables.enter(own, table.id, phone, {"kind": "round", "scores": {"Ann": 1}}, version,
                         new_submission_id())
            results.append("ok")
        except tables.Conflict:
            results.append("conflict")
        finally:
            own.conn.close()

    threads = [threading.Thread(target=write, args=(p,)) for p in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict"] * (len(phones) - 1) + ["ok"]
    assert tables.sheet(db, tables.get_table(db, table.id)).summary["totals"]["Ann"] == 1


def test_striking_an_entry_that_later_ones_depend_on_is_refused(db_path):
    db = connect(db_path)
    table, host = _new_table(db, target=10)
    first = _round(db, table.id, host, {"Ann": 10})      # game over: Ann reached 10
    tables.rematch(db, table.id, host, new_submission_id())
    _round(db, table.id, host, {"Bob": 3})
    # Striking round 1 would put the game back in play before the rematch; that is fine,
    # the rematch still starts a new game. The totals of game 2 are unchanged.
    out = tables.undo(db, table.id, host, first.action.seq, new_submission_id())
    assert out.sheet.summary["totals"]["Bob"] == 3
    assert out.sheet.past_games[0]["totals"]["Ann"] == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(
    st.one_of(
        st.tuples(st.just("round"), st.dictionaries(st.sampled_from(NAMES),
                                                    st.integers(-50, 50), min_size=1)),
        st.tuples(st.just("undo"), st.integers(0, 30)),
    ),
    max_size=15))
def test_sheet_is_always_the_sum_of_live_rounds(tmp_path_factory, ops):
    """Property: after any mix of rounds and undos, totals are the sum of the rounds not struck,
    and undoing the last entry restores exactly the summary from before it."""
    path = tmp_path_factory.mktemp("prop") / "p.db"
    migrate(path)
    db = connect(path)
    table, host = _new_table(db)
    live: dict[int, dict] = {}
    just_entered: tuple[int, dict] | None = None   # (seq, summary before it) of the last op
    for kind, arg in ops:
        current = tables.sheet(db, tables.get_table(db, table.id))
        if kind == "round":
            out = _round(db, table.id, host, arg)
            live[out.action.seq] = arg
            just_entered = (out.action.seq, current.summary)
        elif live:
            seqs = sorted(live)
            target = seqs[arg % len(seqs)]
            out = tables.undo(db, table.id, host, target, new_submission_id())
            if just_entered and just_entered[0] == target:
                assert out.sheet.summary == just_entered[1]
            del live[target]
            just_entered = None
        expected = {n: sum(r.get(n, 0) for r in live.values()) for n in NAMES}
        assert tables.sheet(db, tables.get_table(db, table.id)).summary["totals"] == expected
    db.conn.close()


def test_undo_last_restores_previous_summary_exactly(db_path):
    db = connect(db_path)
    table, host = _new_table(db, rounds=3)
    _round(db, table.id, host, {"Ann": 2})
    before = tables.sheet(db, tables.get_table(db, table.id)).summary
    last = _round(db, table.id, host, {"Bob": 5})
    after_undo = tables.undo(db, table.id, host, last.action.seq, new_submission_id())
    assert after_undo.sheet.summary == before


def test_seat_rows_written_before_m014_say_change(db_path):
    """m014 rewrites a seat row's old "event" key as "change", which every reader uses
    (the history page, an event's claims); entries and other rows are left as they were."""
    db = connect(db_path)
    table, host = _new_table(db)
    bob = _seated(db, table, 1)
    _round(db, table.id, host, {"Ann": 3})
    tables.leave_seat(db, table.id, bob)
    # As a database from before m014 holds them.
    db.execute("UPDATE actions SET payload = json_set(json_remove(payload, '$.change'),"
               " '$.event', json_extract(payload, '$.change')) WHERE kind = 'seat'")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm014_seat_rows_say_change'")
    db.conn.close()
    migrate(db_path)
    db = connect(db_path)
    log = tables.history(db, tables.get_table(db, table.id))
    assert [a.payload for a in log if a.row_kind == tables.SEAT] == [
        {"change": "claim", "seat": 1}, {"change": "leave", "seat": 1}]
    assert [a.payload for a in log if a.row_kind == "game"] == [
        {"kind": "round", "scores": {"Ann": 3}}]
