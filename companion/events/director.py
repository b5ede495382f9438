"""The director's actions on a running event, each kept in the director's log: penalties and
bonuses, and changing the current round's seating before play begins there (swapping two
entrants, or unseating the round to seat it again). :func:`audit` reads the log back.
"""
from __future__ import annotations

import json

import sqlite_utils

from companion import tables
from companion.clock import now
from companion.rules.game import MAX_NAME_LENGTH, clean_name
from companion.rules.said import N_, message
from companion.storage import transaction
from companion.tables import TableError, retire

from .entrants import entrants
from .event import MAX_REASON, Event, log_change, touch
from .rounds import Round, rounds, seat_names

#: How often one round may be unseated: a director re-pairs a round once or twice; a loop
#: of seat and unseat (each seating makes up to 1,250 tables) stops here.
MAX_UNSEATS = 5
MAX_ADJUSTMENT = 1000              # points one penalty or bonus may take or give


def audit(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """Every change the director made, newest first: corrected results (kind "result"),
    swaps, unseated rounds and penalties or bonuses. Round and table are None where the
    change has none (stored as 0). A correction of a locked round has ``after_lock`` True
    and ``paired``: the later rounds already seated then, whose pairings stand."""
    rows = db.execute("SELECT * FROM event_audit WHERE event_id = ? ORDER BY id DESC",
                      [event.id]).fetchall()
    return [{"kind": r["kind"], "round": r["round"] or None, "table": r["table_no"] or None,
             "who": r["who"], "why": r["why"],
             "old": json.loads(r["old"]) if r["old"] else None, "new": json.loads(r["new"]),
             "at": r["created_at"], "after_lock": bool(r["after_lock"]),
             "paired": json.loads(r["paired"]) if r["paired"] else []} for r in rows]


def _plain(value: float):
    """A stored REAL back to what was typed: 2.0 -> 2."""
    return int(value) if float(value).is_integer() else value


def adjustments(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """The director's penalties and bonuses in force, oldest first: id, entrant, points,
    reason, round (None: no round), who, at. A withdrawn one keeps its row with 0 points
    (nothing of an event is deleted but an unseated round), so it is left out here."""
    rows = db.execute("SELECT * FROM event_adjustments WHERE event_id = ? AND points != 0"
                      " ORDER BY id", [event.id]).fetchall()
    return [{"id": r["id"], "entrant": r["entrant"], "points": _plain(r["points"]),
             "reason": r["reason"], "round": r["round"], "who": r["who"],
             "at": r["created_at"]} for r in rows]


def add_adjustment(db: sqlite_utils.Database, event: Event, entrant: str, points: float,
                   reason: str, who: str, round: int | None = None) -> int:
    """Add a penalty (negative points) or a bonus to an entrant's total, with the
    director's reason (audited, kind "penalty"). Returns its id. One tied to a locked
    round is refused: that round's results are final."""
    reason, who = (reason or "").strip(), clean_name(who or "")
    if not reason:
        raise ValueError(N_("Say why: the reason is shown with the penalty or bonus."))
    if len(reason) > MAX_REASON or len(who) > MAX_NAME_LENGTH:
        raise ValueError(message("tournament", "Keep the reason under {reason} characters and "
                                 "the name under {name}.", reason=MAX_REASON,
                                 name=MAX_NAME_LENGTH))
    if isinstance(points, bool) or not isinstance(points, (int, float)) or points == 0 \
            or not abs(points) <= MAX_ADJUSTMENT:
        raise ValueError(message("tournament", "A penalty or bonus is a number of points from "
                                 "-{most} to {most}, not 0.", most=MAX_ADJUSTMENT))
    with transaction(db):
        known = db.execute("SELECT 1 FROM event_entrants WHERE event_id = ? AND name = ?",
                           [event.id, entrant]).fetchone()
        if known is None:
            raise ValueError(N_("Pick an entrant from the list."))
        _refuse_locked_round(db, event, round)
        at = now()
        cur = db.execute("INSERT INTO event_adjustments (event_id, entrant, points, reason,"
                         " round, who, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [event.id, entrant, points, reason, round, who or "Director", at])
        new = {"id": cur.lastrowid, "entrant": entrant, "points": points, "reason": reason,
               "round": round}
        log_change(db, event, "penalty", round, None, who, reason, None, new)
        touch(db, event.id)
    return cur.lastrowid


def withdraw_adjustment(db: sqlite_utils.Database, event: Event, adjustment_id: int,
                        who: str) -> None:
    """Take a penalty or bonus back (audited: the log keeps what it was). Its row stays,
    with 0 points. One tied to a locked round stays: that round's results are final."""
    with transaction(db):
        row = db.execute("SELECT * FROM event_adjustments WHERE event_id = ? AND id = ?"
                         " AND points != 0", [event.id, adjustment_id]).fetchone()
        if row is None:
            raise ValueError(N_("That penalty or bonus was already taken back. Reload the "
                                "dashboard."))
        _refuse_locked_round(db, event, row["round"])
        db.execute("UPDATE event_adjustments SET points = 0 WHERE id = ?", [adjustment_id])
        old = {"id": row["id"], "entrant": row["entrant"], "points": _plain(row["points"]),
               "reason": row["reason"], "round": row["round"]}
        log_change(db, event, "penalty", row["round"], None, who, row["reason"], old, None)
        touch(db, event.id)


def _refuse_locked_round(db, event: Event, number: int | None) -> None:
    """A penalty or bonus tied to round `number` belongs to that round's results: once
    the round is locked it can't be given or taken back (one without a round still can).
    Call it inside the write transaction."""
    if number is None:
        return
    row = db.execute("SELECT locked_at FROM event_rounds WHERE event_id = ? AND round = ?",
                     [event.id, number]).fetchone()
    if row is not None and row["locked_at"] is not None:
        raise ValueError(message("tournament", "Round {round} is locked, so its penalties and "
                                 "bonuses are final. Give this one without a round.",
                                 round=number))


def edit_refusal(db: sqlite_utils.Database, event: Event) -> str | None:
    """Why the current round can't be unseated any more (None: it still can).

    A round may be unseated until it is locked, any of its tables has a result (the
    director's, or a finished sheet) or anybody made an entry at any of its tables: after
    that the tables' sheets hold the names they were played under. Swaps and pairing
    again go on among the tables that haven't started (:func:`started_tables`).
    """
    done = rounds(db, event)
    if not done:
        return N_("No round has been seated yet.")
    current = done[-1]
    if current.locked:
        return message("tournament", "Round {round} is locked; its seating can't change any "
                       "more.", round=current.number)
    stored = db.execute("SELECT table_no FROM event_results WHERE event_id = ? AND round = ?"
                        " ORDER BY table_no LIMIT 1", [event.id, current.number]).fetchone()
    # A finished sheet needs entries, so one look at the round's tables' logs covers both
    # (one query for a round of 500 tables; seat changes don't count as play).
    played = db.execute("SELECT s.table_no FROM event_seatings s JOIN actions a"
                        " ON a.table_id = s.table_id WHERE s.event_id = ? AND s.round = ?"
                        " AND a.kind != ? ORDER BY s.table_no LIMIT 1",
                        [event.id, current.number, tables.SEAT]).fetchone()
    if stored is not None or played is not None:
        table_no = (stored or played)[0]
        return message("tournament", "Play has begun in round {round} (table {table}), so the "
                       "round can't be unseated any more. Swap or pair again among the "
                       "tables that haven't started, or correct results.",
                       round=current.number, table=table_no)
    return None


def _editable_round(db, event: Event, number: int) -> Round:
    """The current round, which must be round `number` (the form the director saw) and
    still editable; raises ValueError otherwise. Call it under the write lock."""
    refusal = edit_refusal(db, event)
    if refusal:
        raise ValueError(refusal)
    current = rounds(db, event)[-1]
    if current.number != number:
        raise ValueError(message("tournament", "Round {round} isn't the current round any "
                                 "more (round {current} is). Reload the dashboard.",
                                 round=number, current=current.number))
    return current


def started_tables(db: sqlite_utils.Database, event: Event, number: int) -> set[int]:
    """The table numbers of round `number` where play has begun: a result is stored (the
    director's, or the lock's) or anybody made an entry (seat changes don't count). Their
    entrants stay where they are; the other tables' may still be swapped or paired again."""
    stored = db.execute("SELECT table_no FROM event_results WHERE event_id = ? AND round = ?",
                        [event.id, number]).fetchall()
    # One look per table (the first entry that isn't a seat change), not its whole log.
    played = db.execute("SELECT s.table_no FROM event_seatings s WHERE s.event_id = ? AND"
                        " s.round = ? AND EXISTS (SELECT 1 FROM actions a WHERE a.table_id ="
                        " s.table_id AND a.kind != ?)",
                        [event.id, number, tables.SEAT]).fetchall()
    return {row[0] for row in stored} | {row[0] for row in played}


def fixed_schedule(event: Event, number: int) -> str | None:
    """Why round `number`'s tables can't be paired again or swapped (a round robin's
    schedule, a knockout's bracket), or None when they can."""
    if event.cut and number > event.rounds:
        return N_("A knockout round is paired by the bracket: its tables can't change. "
                  "Correct a result instead.")
    if event.plan == "round_robin":
        return N_("A round robin follows its schedule: its tables can't change.")
    return None


def changeable_round(db, event: Event, number: int) -> Round:
    """The current round, which must be round `number` (the form the director saw) and not
    locked; raises ValueError otherwise. Its tables that haven't started may still change
    (:func:`started_tables`). Call it under the write lock."""
    done = rounds(db, event)
    if not done:
        raise ValueError(N_("No round has been seated yet."))
    current = done[-1]
    if current.number != number:
        raise ValueError(message("tournament", "Round {round} isn't the current round any "
                                 "more (round {current} is). Reload the dashboard.",
                                 round=number, current=current.number))
    if current.locked:
        raise ValueError(message("tournament", "Round {round} is locked; its seating can't "
                                 "change any more.", round=number))
    return current


def reseat_table(db, event: Event, number: int, table_no: int, table_id: str, ids: list,
                 members: dict, published: list) -> None:
    """Give table `table_no` of round `number` the entrants `ids` (in seat order): its
    seating row and its companion table's seat names (a phone in a seat whose name changes
    goes back to watching, see :func:`tables.rename_seat`). Inside the caller's write
    transaction; (table id, version) pairs to publish after its commit go to `published`."""
    db.execute("UPDATE event_seatings SET entrants = ? WHERE event_id = ? AND round = ?"
               " AND table_no = ?", [json.dumps(ids), event.id, number, table_no])
    names = seat_names(event, ids, members)
    for seat, name in zip(tables.seats_of(db, table_id), names):
        if seat.name != name:
            try:
                version = tables.rename_seat(db, table_id, seat.pos, name, final=names)
            except TableError as exc:
                raise ValueError(exc.message) from None
            published.append((table_id, version))


def swap_entrants(db: sqlite_utils.Database, event: Event, number: int, first: str,
                  second: str, who: str = "Director") -> None:
    """Swap two entrants between tables of round `number` (in a team game whole teams)
    while neither of their tables has started (:func:`started_tables`), whatever the
    round's other tables do; either may be sitting out (a bye), not both. The seats of
    the companion tables take the new names (a phone already in a moved entrant's seat
    goes back to watching, see :func:`tables.rename_seat`). Audited (kind "swap")."""
    if first == second:
        raise ValueError(N_("Pick two different entrants to swap."))
    fixed = fixed_schedule(event, number)
    if fixed:
        raise ValueError(fixed)
    published = []
    with transaction(db):
        current = changeable_round(db, event, number)
        people = entrants(db, event)
        members = {e.name: e.members for e in people}
        for name in (first, second):
            if name not in members:
                raise ValueError(N_("Pick both entrants from the list."))
        rows = db.execute("SELECT DISTINCT s.table_no, s.table_id, s.entrants FROM"
                          " event_seatings s, json_each(s.entrants) j WHERE s.event_id = ?"
                          " AND s.round = ? AND j.value IN (?, ?)",
                          [event.id, number, first, second]).fetchall()
        spot: dict[str, tuple | None] = {}   # name -> (table_no, table_id, ids); None: a bye
        for row in rows:
            ids = json.loads(row["entrants"])
            for name in (first, second):
                if name in ids:
                    spot[name] = (row["table_no"], row["table_id"], ids)
        for name in (first, second):
            if name not in spot:
                if name not in current.byes:
                    raise ValueError(message("tournament", "{name} has no table and no bye in "
                                             "round {round}: add them to the next round "
                                             "instead.", name=name, round=number))
                spot[name] = None
        a, b = spot[first], spot[second]
        if a is None and b is None:
            raise ValueError(message("tournament", "{first} and {second} both sit out round "
                                     "{round}; swapping them changes nothing.", first=first,
                                     second=second, round=number))
        if a is not None and b is not None and a[0] == b[0]:
            raise ValueError(message("tournament", "{first} and {second} sit at the same "
                                     "table; swapping them changes nothing.", first=first,
                                     second=second))
        started = started_tables(db, event, number)
        for name, place in ((first, a), (second, b)):
            if place is not None and place[0] in started:
                raise tables.Conflict(message(
                    "tournament", "Table {table} has started (an entry or a result), so "
                    "{name} stays there. Swap entrants whose tables haven't started.",
                    table=place[0], name=name))
        trade = {first: second, second: first}
        for place in (a, b):
            if place is None:
                continue
            table_no, table_id, ids = place
            reseat_table(db, event, number, table_no, table_id, [trade.get(e, e) for e in ids],
                         members, published)
        if a is None or b is None:
            byes = [trade.get(e, e) for e in current.byes]
            db.execute("UPDATE event_rounds SET byes = ? WHERE event_id = ? AND round = ?",
                       [json.dumps(byes), event.id, number])
        where = {first: a and a[0], second: b and b[0]}   # a table number; None: a bye
        old = {"round": number, "entrants": [{"entrant": e, "table": where[e]}
                                             for e in (first, second)]}
        new = {"round": number, "entrants": [{"entrant": e, "table": where[trade[e]]}
                                             for e in (first, second)]}
        log_change(db, event, "swap", number, a[0] if a else b[0], who, "", old, new)
        touch(db, event.id)
    for table_id, version in published:
        tables.live.publish(table_id, version)


def unseat_round(db: sqlite_utils.Database, event: Event, number: int,
                 who: str = "Director") -> None:
    """Take back the seating of round `number` before play begins, to seat it again (with
    the entrants' list as it is now). Its seatings and byes are deleted, the one delete an
    event allows. The companion tables made for it go too: deleted when no phone ever
    opened them, else retired (:func:`tables.retire.retire_tables`: they take no entries
    and their phones are told at once that the table no longer counts). Late arrivals
    added meanwhile may play this round after all. A round is unseated at most
    :data:`MAX_UNSEATS` times (a loop of seat and unseat is stopped there). Audited (kind
    "unseat") with every table and bye that was taken back."""
    with transaction(db):
        current = _editable_round(db, event, number)
        unseated = db.execute("SELECT COUNT(*) FROM event_audit WHERE event_id = ? AND"
                              " kind = 'unseat' AND round = ?", [event.id, number]).fetchone()[0]
        if unseated >= MAX_UNSEATS:
            raise ValueError(message("tournament", "Round {round} was unseated {most} times "
                                     "already, the most a round allows. Swap entrants "
                                     "instead, or play it as it is seated.", round=number,
                                     most=MAX_UNSEATS))
        rows = db.execute("SELECT table_no, table_id, entrants FROM event_seatings WHERE"
                          " event_id = ? AND round = ? ORDER BY table_no",
                          [event.id, number]).fetchall()
        old = {"round": number, "byes": current.byes,
               "tables": [{"table": r["table_no"], "entrants": json.loads(r["entrants"])}
                          for r in rows]}
        db.execute("DELETE FROM event_seatings WHERE event_id = ? AND round = ?",
                   [event.id, number])
        retired = retire.retire_tables(db, [r["table_id"] for r in rows], {"round": number})
        db.execute("DELETE FROM event_rounds WHERE event_id = ? AND round = ?",
                   [event.id, number])
        db.execute("UPDATE event_entrants SET late_from = NULLIF(?, 1) WHERE event_id = ?"
                   " AND late_from > ?", [number, event.id, number])
        if number == 1:
            # Round 1 is seated again: its no-shows are back on the list, to check in.
            db.execute("UPDATE event_entrants SET no_show = 0, dropped = 0 WHERE"
                       " event_id = ? AND no_show = 1", [event.id])
        log_change(db, event, "unseat", number, None, who, "", old, None)
        touch(db, event.id)
    retire.publish(retired)
