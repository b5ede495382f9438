"""A locked round is final, and the director can still correct it honestly.

- The lock holds: a lock raced by the director's corrections, results entered at a table
  and penalties or bonuses tied to the round, each from its own thread with its own
  connection to one real SQLite file, many times over (a fixed loop and a Hypothesis-drawn
  schedule): no correction, audit row or penalty is written after ``locked_at`` and the
  stored results after the race are the ones the lock stored.
- "Correct after lock": a locked round's result changes only through the explicit path,
  audited as made after the lock, with the standings and every tie-break recomputed and
  the later rounds' pairings left as they were (the dashboard says so); checked against a
  hand computation.
- The Enter-result form starts with no place chosen and refuses to save without places.
"""
from __future__ import annotations

import csv
import io
import json
import threading
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_web_events import create_event, event_rows, seat_round, seatings
from helpers import select, text_of
from web_helpers import db_rows

from companion import tables
from companion.storage import connect
from companion.events.director import add_adjustment, withdraw_adjustment
from companion.events.event import get_event
from companion.events.rounds import correct_result, lock_round

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def director(new_phone):
    return new_phone("Director")


def correct(director, event_id: str, rnd: int, table: int, places, scores=(), why="slip",
            **extra):
    """Post the correction form; returns the response."""
    data = {"round": str(rnd), "table": str(table), "why": why, **extra}
    data.update({f"place_{i}": str(p) for i, p in enumerate(places)})
    data.update({f"score_{i}": str(s) for i, s in enumerate(scores)})
    return director.post(f"/e/{event_id}/correct", data)


def done(response) -> None:
    assert response.status_code == 303, text_of(response.get_data(as_text=True))[:800]


def refused(response, words: str) -> str:
    assert response.status_code == 422, response.status_code
    page = response.get_data(as_text=True)
    assert 'role="alert"' in page and words in text_of(page), text_of(page)[:1500]
    return page


def lock(director, event_id: str, rnd: int) -> None:
    done(director.post(f"/e/{event_id}/lock", {"round": str(rnd)}))


def locked_at(db_path: str, event_id: str, rnd: int) -> str | None:
    return db_rows(db_path, "SELECT locked_at FROM event_rounds WHERE event_id = ? AND round = ?",
                   [event_id, rnd])[0][0]


def stored(db_path: str, event_id: str, rnd: int) -> dict[int, tuple]:
    """table -> (result, source, updated_at) of the round's stored results."""
    rows = db_rows(db_path, "SELECT table_no, result, source, updated_at FROM event_results "
                   "WHERE event_id = ? AND round = ?", [event_id, rnd])
    return {n: (json.loads(r), s, at) for n, r, s, at in rows}


def audit_of(db_path: str, event_id: str) -> list[dict]:
    rows = db_rows(db_path, "SELECT kind, round, table_no, old, new, created_at, after_lock, "
                   "paired FROM event_audit WHERE event_id = ? ORDER BY id", [event_id])
    return [{"kind": k, "round": r, "table": t, "old": json.loads(o) if o else None,
             "new": json.loads(n) if n else None, "at": at, "after_lock": a,
             "paired": json.loads(p) if p else None} for k, r, t, o, n, at, a, p in rows]


# ---------------------------------------------------------------- the Enter-result form

def test_the_enter_result_form_starts_empty_and_refuses_to_save_without_places(
        app, director, db_path):
    event_id = create_event(director, PLAYERS[:4])
    seat_round(director, event_id)
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Enter result" in text_of(dash)
    page = director.get(f"/e/{event_id}/correct?round=1&table=1").get_data(as_text=True)
    boxes = select(page, "#correct-form select")
    assert len(boxes) == 4
    for box in boxes:
        chosen = [o.get("value") for o in box.select("option") if o.get("selected") is not None]
        assert chosen == [""], chosen          # "—", not place 1
        assert box.get("required") is not None
    assert not select(page, "#prefilled") and not select(page, "#after-lock-warning")
    before = event_rows(db_path)
    # The form sent as it came (every place empty), or with one place left empty.
    for places in (["", "", "", ""], ["1", "2", "", "3"]):
        refused(correct(director, event_id, 1, 1, places, why="ran out of time"),
                "Give a place for everybody at the table.")
    refused(director.post(f"/e/{event_id}/correct", {"round": "1", "table": "1", "why": "x"}),
            "Give a place for everybody at the table.")
    assert event_rows(db_path) == before
    done(correct(director, event_id, 1, 1, [2, 1, 4, 3], why="ran out of time"))
    # A table with a result: the Correct-result form starts from it, and says so.
    page = director.get(f"/e/{event_id}/correct?round=1&table=1").get_data(as_text=True)
    assert "starts from the table’s current result" in text_of(page, "#prefilled")
    chosen = [[o.get("value") for o in box.select("option") if o.get("selected") is not None]
              for box in select(page, "#correct-form select")]
    assert chosen == [["2"], ["1"], ["4"], ["3"]]


# ---------------------------------------------------------------- plain writes after the lock

def test_a_locked_round_refuses_plain_corrections_and_its_penalties(app, director, db_path):
    event_id = create_event(director, PLAYERS[:4], rounds=3)
    seat_round(director, event_id)
    done(correct(director, event_id, 1, 1, [1, 2, 3, 4], [40, 30, 20, 10]))
    (_n, _t, ids), = seatings(db_path, event_id, 1)
    done(director.post(f"/e/{event_id}/adjustments", {"action": "add", "entrant": ids[0],
                                                      "points": "-1", "reason": "late"}))
    done(director.post(f"/e/{event_id}/adjustments", {"action": "add", "entrant": ids[1],
                                                      "points": "-2", "reason": "slow",
                                                      "round": "1"}))
    lock(director, event_id, 1)
    before = event_rows(db_path)
    adjustments = db_rows(db_path, "SELECT * FROM event_adjustments")
    for response, words in (
            (correct(director, event_id, 1, 1, [2, 1, 3, 4]), "Round 1 is locked"),
            # Only after_lock=1 takes the after-lock path; any other value is a plain
            # correction.
            (correct(director, event_id, 1, 1, [2, 1, 3, 4], after_lock="yes"),
             "Round 1 is locked"),
            (director.post(f"/e/{event_id}/adjustments", {
                "action": "add", "entrant": ids[2], "points": "1", "reason": "x",
                "round": "1"}), "Round 1 is locked, so its penalties and bonuses are final"),
            (director.post(f"/e/{event_id}/adjustments", {"action": "withdraw", "id": "2"}),
             "Round 1 is locked, so its penalties and bonuses are final")):
        refused(response, words)
    assert event_rows(db_path) == before
    assert db_rows(db_path, "SELECT * FROM event_adjustments") == adjustments
    # Without a round, or for a round not locked, a penalty or bonus still goes in.
    for data in ({"entrant": ids[2], "points": "1", "reason": "fair play"},
                 {"entrant": ids[3], "points": "-1", "reason": "slow", "round": "2"}):
        r = director.post(f"/e/{event_id}/adjustments", {"action": "add", **data})
        assert r.status_code == 303
    r = director.post(f"/e/{event_id}/adjustments", {"action": "withdraw", "id": "1"})
    assert r.status_code == 303
    # Nothing of the locked round moved: its stored result, its corrections, its penalty.
    assert db_rows(db_path, "SELECT * FROM event_results") == before["event_results"]
    assert [a for a in audit_of(db_path, event_id) if a["kind"] == "result"] == \
        [a for a in audit_of(db_path, event_id) if a["kind"] == "result"
         and a["at"] <= locked_at(db_path, event_id, 1)]
    assert db_rows(db_path, "SELECT points FROM event_adjustments WHERE id = 2") == [(-2,)]


# ---------------------------------------------------------------- the lock race

def _enter_at_table(db, table_id: str, scores: list[int]) -> tuple[tables.Phone, int]:
    """Seat 0's phone sits down and enters the score pad's one round at the table (the
    table's own result). Returns the phone and the entry's number."""
    table = tables.get_table(db, table_id)
    phone, _secret = tables.join(db, table, None)
    phone = tables.claim_seat(db, table_id, phone, 0, allowed=[0])
    names = [seat.name for seat in tables.seats_of(db, table_id)]
    version = tables.get_table(db, table_id).version
    outcome = tables.enter(db, table_id, phone,
                           {"kind": "round", "scores": dict(zip(names, scores))}, version,
                           uuid.uuid4().hex)
    return phone, outcome.action.seq


def _race(db_path: str, jobs: list) -> list:
    """Run each job(db) at once from its own thread with its own connection; returns
    what each returned or raised."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)

    def run(i, job):
        db = connect(db_path)
        try:
            barrier.wait(timeout=10)
            results[i] = job(db)
        except Exception as exc:  # noqa: BLE001 - every outcome is checked by the caller
            results[i] = exc
        finally:
            db.conn.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    return results


def _ready_round(director, db_path: str) -> dict:
    """A fresh event with round 1 seated on two score-pad tables of four: table 1's result
    comes from its sheet (40, 30, 20, 10), table 2's from the director; one round-1 penalty
    to take back. Nothing is locked."""
    event_id = create_event(director, PLAYERS, rounds=2)
    seat_round(director, event_id)
    (_n1, table_1, ids_1), (_n2, _t2, ids_2) = seatings(db_path, event_id, 1)
    db = connect(db_path)
    try:
        event = get_event(db, event_id)
        phone, seq = _enter_at_table(db, table_1, [40, 30, 20, 10])
        correct_result(db, event, 1, 2, [1, 2, 3, 4], "Jo", "slip", [9, 8, 7, 6])
        penalty = add_adjustment(db, event, ids_2[0], -1, "slow", "Jo", 1)
    finally:
        db.conn.close()
    return {"event_id": event_id, "table_1": table_1, "ids": (ids_1, ids_2),
            "phone": phone, "seq": seq, "penalty": penalty}


def _jobs(ready: dict, plan: list[tuple]) -> list:
    """The race's contenders: the lock first, then one job per step of `plan`:
    ("correct", table, places), ("penalty", points), ("withdraw",), ("undo",)."""
    event_id = ready["event_id"]

    def lock_job(db):
        lock_round(db, get_event(db, event_id), 1)
        return "locked"

    jobs = [lock_job]
    for i, step in enumerate(plan):
        if step[0] == "correct":
            def job(db, table=step[1], places=step[2], i=i):
                correct_result(db, get_event(db, event_id), 1, table,
                               list(places), "Jo", f"race {i}")
                return "corrected"
        elif step[0] == "penalty":
            def job(db, points=step[1], i=i):
                add_adjustment(db, get_event(db, event_id), ready["ids"][0][1],
                               points, f"race {i}", "Jo", 1)
                return "penalised"
        elif step[0] == "withdraw":
            def job(db):
                withdraw_adjustment(db, get_event(db, event_id),
                                    ready["penalty"], "Jo")
                return "withdrawn"
        else:   # a result changed at the table itself: its one entry struck
            def job(db):
                tables.undo(db, ready["table_1"], ready["phone"], ready["seq"],
                            uuid.uuid4().hex)
                return "undone"
        jobs.append(job)
    return jobs


LOCKED_WORDS = ("Round 1 is locked", "Round 1 is already locked")


def _check_race(director, db_path: str, ready: dict, plan: list[tuple], outcomes: list) -> bool:
    """Check one race: nothing was written after the lock and the stored results are the
    ones the lock stored. Returns whether the lock won its place in the race (it loses
    only when the table's entry was struck before it and nobody corrected table 1)."""
    event_id = ready["event_id"]
    lock_outcome, rest = outcomes[0], outcomes[1:]
    for step, outcome in zip(plan, rest):
        if isinstance(outcome, Exception):
            # A refusal, in plain words: the lock came first (or the penalty was gone).
            assert isinstance(outcome, ValueError), repr(outcome)
            assert step[0] != "undo", outcome
            assert any(w in str(outcome) for w in LOCKED_WORDS), (step, str(outcome))
    if lock_outcome != "locked":
        # The table's own result was struck first: nothing to lock on table 1.
        assert isinstance(lock_outcome, ValueError), repr(lock_outcome)
        assert "Table 1 has no result yet" in str(lock_outcome)
        assert locked_at(db_path, event_id, 1) is None
        done(correct(director, event_id, 1, 1, [4, 3, 2, 1], why="struck at the table"))
        lock(director, event_id, 1)
    at = locked_at(db_path, event_id, 1)
    assert at is not None
    audit = audit_of(db_path, event_id)
    # Nothing of the event was logged after the lock (the lock itself logs nothing).
    late = [a for a in audit if a["at"] > at]
    assert late == [], (at, late)
    # Every correction that said it was saved is in the log, none that was refused.
    # (One before the race, on table 2; one more after a lost lock, on table 1.)
    saved = sum(o == "corrected" for o in rest)
    fixes = [a for a in audit if a["kind"] == "result"]
    assert len(fixes) == saved + 1 + (lock_outcome != "locked")
    assert not any(a["after_lock"] for a in audit)
    penalties = sum(o in ("penalised", "withdrawn") for o in rest)
    assert len([a for a in audit if a["kind"] == "penalty"]) == penalties + 1
    # The stored results are what the round had at the lock: per table, the last
    # correction before it, or else the sheet's result.
    results = stored(db_path, event_id, 1)
    assert sorted(results) == [1, 2]
    for table_no, (result, source, updated) in results.items():
        assert updated <= at
        fixes = [a for a in audit if a["kind"] == "result" and a["table"] == table_no]
        if fixes:
            assert source == "director" and result == fixes[-1]["new"]
        else:
            assert table_no == 1 and source == "table"
            assert result["places"] == [1, 2, 3, 4] and result["scores"] == [40, 30, 20, 10]
    # Penalties of round 1: none made or taken back after the lock.
    for made, points in db_rows(db_path, "SELECT created_at, points FROM event_adjustments "
                                "WHERE event_id = ? AND round = 1", [event_id]):
        assert made <= at
    # And a late write now is refused and changes nothing.
    before = event_rows(db_path)
    db = connect(db_path)
    try:
        event = get_event(db, event_id)
        with pytest.raises(ValueError, match="locked"):
            correct_result(db, event, 1, 1, [1, 1, 3, 4], "Jo", "late")
        with pytest.raises(ValueError, match="locked"):
            add_adjustment(db, event, ready["ids"][0][0], 3, "late", "Jo", 1)
    finally:
        db.conn.close()
    assert event_rows(db_path) == before
    return lock_outcome == "locked"


# Every contender of the fixed race: both tables corrected (twice), a penalty for the
# round, the round's penalty taken back, and the table's own entry struck.
PLAN = [("correct", 1, (2, 1, 3, 4)), ("correct", 2, (4, 3, 2, 1)),
        ("correct", 1, (1, 1, 3, 4)), ("correct", 2, (2, 1, 4, 3)),
        ("penalty", -2), ("withdraw",), ("undo",)]


def test_the_lock_raced_by_corrections_results_and_penalties_writes_nothing_after_it(
        app, director, db_path):
    won = 0
    for race in range(20):
        ready = _ready_round(director, db_path)
        # Half the races strike the table's entry too (a result changing at the table).
        plan = PLAN if race % 2 else PLAN[:-1]
        outcomes = _race(db_path, _jobs(ready, plan))
        won += _check_race(director, db_path, ready, plan, outcomes)
    assert won >= 10     # the races without the strike always lock


steps = st.one_of(
    st.tuples(st.just("correct"), st.sampled_from([1, 2]),
              st.permutations([1, 2, 3, 4]).map(tuple)),
    st.tuples(st.just("penalty"), st.sampled_from([-2, -1, 1])),
    st.just(("withdraw",)),
    st.just(("undo",)))


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(plan=st.lists(steps, min_size=1, max_size=6).filter(
    lambda p: sum(s == ("undo",) for s in p) <= 1 and sum(s == ("withdraw",) for s in p) <= 1))
def test_any_schedule_of_writes_racing_the_lock_finds_none_after_it(app, director, db_path,
                                                                    plan):
    ready = _ready_round(director, db_path)
    outcomes = _race(db_path, _jobs(ready, plan))
    _check_race(director, db_path, ready, plan, outcomes)


# ---------------------------------------------------------------- correct after lock

def standings_csv(director, event_id: str) -> dict[str, dict]:
    r = director.get(f"/e/{event_id}/standings.csv")
    assert r.status_code == 200
    rows = csv.DictReader(io.StringIO(r.get_data(as_text=True)))
    return {row["entrant"]: row for row in rows}


def test_correct_after_lock_recomputes_every_tiebreak_and_keeps_later_pairings(
        app, director, db_path):
    """A 4-team Rook Swiss of 3 rounds (win 2, draw 1, loss 0). Round 1 is found wrong
    after round 2 was paired: the director corrects it after the lock."""
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee", "Eve, Fay", "Gus, Hal"],
                            rounds=3, slug="rook", variant="family")
    seat_round(director, event_id)
    # Name the teams by round 1's seating: A meets B at table 1, C meets D at table 2.
    (_n1, _t1, (A, B)), (_n2, _t2, (C, D)) = seatings(db_path, event_id, 1)
    # As entered: A beat B 180-120 (the slip was misread), C beat D 200-100.
    done(correct(director, event_id, 1, 1, [1, 2], [180, 120], why="slip"))
    done(correct(director, event_id, 1, 2, [1, 2], [200, 100], why="slip"))
    lock(director, event_id, 1)
    seat_round(director, event_id)
    # The Swiss pairs the winners and the losers.
    round_2 = seatings(db_path, event_id, 2)
    assert {frozenset(ids) for _n, _t, ids in round_2} == {frozenset((A, C)), frozenset((B, D))}
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert select(dash, "#correct-locked-form")

    # The plain form refuses; the form of a locked round warns and asks for the box.
    refused(correct(director, event_id, 1, 1, [2, 1], [120, 180], why="B won"),
            "Round 1 is locked")
    page = director.get(f"/e/{event_id}/correct?round=1&table=1").get_data(as_text=True)
    warning = text_of(page, "#after-lock-warning")
    assert "Round 1 is locked" in warning
    assert "Round 2 was paired before this correction; its pairings stand." in warning
    assert select(page, 'input[name="after_lock"][value="1"]')
    before_locked_at = locked_at(db_path, event_id, 1)
    done(correct(director, event_id, 1, 1, [2, 1], [120, 180], why="B won: slip misread",
                 who="Jo", after_lock="1"))
    assert locked_at(db_path, event_id, 1) == before_locked_at     # still locked
    assert seatings(db_path, event_id, 2) == round_2               # pairings stand
    result, source, _at = stored(db_path, event_id, 1)[1]
    assert (result["entrants"], result["places"], result["scores"], source) == \
        ([A, B], [2, 1], [120, 180], "director")
    last = audit_of(db_path, event_id)[-1]
    assert (last["kind"], last["round"], last["table"], last["after_lock"], last["paired"]) == \
        ("result", 1, 1, 1, [2])
    assert last["old"]["places"] == [1, 2] and last["new"]["places"] == [2, 1]
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    entry = text_of(dash, "#audit li.audit-result")
    assert "Corrected after the lock." in entry and "B won: slip misread" in entry
    assert "Round 2 was paired before this correction; its pairings stand." in entry

    # Round 2: A beat C 190-110, D beat B 160-140; round 3 is paired on the corrected
    # standings (all four on 2 points; the one pairing without a rematch: A-D, B-C).
    for n, _t, ids in round_2:
        outcome = {A: ([1, 2], [190, 110]), D: ([1, 2], [160, 140])}
        winner = A if A in ids else D
        places, scores = outcome[winner]
        if ids[0] != winner:
            places, scores = places[::-1], scores[::-1]
        done(correct(director, event_id, 2, n, places, scores))
    lock(director, event_id, 2)
    seat_round(director, event_id)
    round_3 = seatings(db_path, event_id, 3)
    assert {frozenset(ids) for _n, _t, ids in round_3} == {frozenset((A, D)), frozenset((B, C))}
    # Round 3: D beat A 170-130, C beat B 175-125.
    for n, _t, ids in round_3:
        winner, w, l = (D, 170, 130) if D in ids else (C, 175, 125)
        places, scores = ([1, 2], [w, l]) if ids[0] == winner else ([2, 1], [l, w])
        done(correct(director, event_id, 3, n, places, scores))
    lock(director, event_id, 3)

    # By hand, with round 1 corrected (B beat A):
    #   points:  A 0+2+0 = 2   B 2+0+0 = 2   C 2+0+2 = 4   D 0+2+2 = 4
    #   game:    A 120+190+130 = 440   B 180+140+125 = 445
    #            C 200+110+175 = 485   D 100+160+170 = 430
    #   Buchholz (opponents' points): A: B+C+D = 2+4+4 = 10   B: A+D+C = 2+4+4 = 10
    #                                 C: D+A+B = 4+2+2 = 8    D: C+B+A = 4+2+2 = 8
    #   Median-Buchholz (3 rounds: without the highest and lowest opponent):
    #            A: 10-4-2 = 4   B: 10-4-2 = 4   C: 8-4-2 = 2   D: 8-4-2 = 2
    #   Sonneborn-Berger (points of opponents beaten): A beat C: 4   B beat A: 2
    #            C beat D and B: 4+2 = 6   D beat B and A: 2+2 = 4
    #   order: points, then game score: C (4, 485), D (4, 430), B (2, 445), A (2, 440)
    expected = {C: (1, 4, 485, 8, 2, 6), D: (2, 4, 430, 8, 2, 4),
                B: (3, 2, 445, 10, 4, 2), A: (4, 2, 440, 10, 4, 4)}
    rows = standings_csv(director, event_id)
    shown = {e: tuple(float(rows[e][k]) for k in (
        "place", "points", "Game score", "Buchholz", "Median-Buchholz", "Sonneborn-Berger"))
        for e in rows}
    assert shown == {e: tuple(float(v) for v in values) for e, values in expected.items()}
    assert [e for e, _row in sorted(rows.items(), key=lambda kv: int(kv[1]["place"]))] == \
        [C, D, B, A]
    # Without the correction A would lead: the stored round 1 is the corrected one.
    assert rows[A]["wins"] == "1" and rows[B]["wins"] == "1"


def test_correct_after_lock_of_the_current_round_and_its_refusals(app, director, db_path,
                                                                   new_phone):
    event_id = create_event(director, PLAYERS[:4], rounds=2)
    seat_round(director, event_id)
    done(correct(director, event_id, 1, 1, [1, 2, 3, 4], [40, 30, 20, 10]))
    lock(director, event_id, 1)
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    links = [a.get("href") for a in select(dash, "#table-1 a")]
    assert f"/e/{event_id}/correct?round=1&table=1" in links
    page = director.get(f"/e/{event_id}/correct?round=1&table=1").get_data(as_text=True)
    assert "was paired before" not in text_of(page, "#after-lock-warning")
    before = event_rows(db_path)
    # Bad input with the box ticked is refused like any correction; a stranger gets 403.
    refused(correct(director, event_id, 1, 1, [2, 1, 3, 4], why="", after_lock="1"),
            "Say why")
    refused(correct(director, event_id, 1, 1, ["", "", "", ""], why="x", after_lock="1"),
            "Give a place for everybody")
    assert correct(new_phone(), event_id, 1, 1, [2, 1, 3, 4], why="x",
                   after_lock="1").status_code == 403
    assert director.get(f"/e/{event_id}/correct?round=1&table=9").status_code == 404
    assert director.get(f"/e/{event_id}/correct?round=5&table=1").status_code == 404
    assert event_rows(db_path) == before
    r = correct(director, event_id, 1, 1, [2, 1, 3, 4], why="slip", after_lock="1")
    assert r.status_code == 303 and r.headers["Location"].endswith("#audit")
    (_n, _t, ids), = seatings(db_path, event_id, 1)
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    points = {row.get("data-entrant"): text_of(row, 'td[class="points"]')
              for row in select(page, "tr[data-entrant]")}
    assert points[ids[0]] == "2" and points[ids[1]] == "4"
    last = audit_of(db_path, event_id)[-1]
    assert last["after_lock"] == 1 and last["paired"] is None
    entry = text_of(director.get(f"/e/{event_id}").get_data(as_text=True), "#audit li")
    assert "Corrected after the lock." in entry and "paired before" not in entry
