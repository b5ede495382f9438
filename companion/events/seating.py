"""Seating an event's next round on new companion tables: round 1 at random, later rounds by
the standings (Swiss pairing for pairs and teams, tables by standings for table games), in
the director's pairing method and odd-table choice.
"""
from __future__ import annotations

import contextlib
import json
import random
import secrets
import sqlite3
import time
from collections.abc import Callable

import sqlite_utils

from companion import tables
from companion.clock import now
from companion.rules.said import N_, message
from companion.storage import transaction
from companion.tables import TableError, retire

from .director import changeable_round, fixed_schedule, reseat_table, started_tables
from .brackets import knockout_seating, knockout_winner, round_robin_round, round_robin_rounds
from .entrants import entrants, least_entrants
from .event import Event, log_change, touch
from .pairing import (active_ranking, assign_tables, fix_table_numbers,
                      history_from_results, orient_pairs, random_pairing, random_tables,
                      seat_round, swiss_pairing)
from .restrictions import apart_members, fixed_tables
from .results import all_results, standings
from .rounds import rounds, seat_names


def seat_next_round(db: sqlite_utils.Database, event: Event, rng: random.Random | None = None,
                    *, admit: Callable[[int], None] | None = None) -> int:
    """Seat the next round on new companion tables; returns its number.

    Round 1 is drawn at random; later rounds are seated by standings (Swiss pairing or
    tables by standings), after the previous round is locked. Raises ValueError. With the
    event's check-in on, round 1 seats only the entrants checked in; the others become
    no-shows (dropped, shown as such, checked in late from the entrants' list). The
    director's keep-apart groups and fixed tables (:mod:`.restrictions`) are kept
    wherever the pairing allows.
    `admit(count)` is called with the number of tables the round needs before any is
    made, and refuses them by raising (the web's per-address quota on event tables).
    """
    done = rounds(db, event)
    if done and not done[-1].locked:
        raise ValueError(message("tournament", "Lock round {round} before seating the next one.",
                                 round=done[-1].number))
    number = len(done) + 1
    if number > event.total_rounds:
        raise ValueError(message("tournament", "All {rounds} rounds have been played.",
                                 rounds=event.total_rounds))
    everyone = entrants(db, event)
    people = [e for e in everyone if not e.dropped]
    no_shows: list[str] = []
    if number == 1 and event.config.get("checkin"):
        no_shows = [e.name for e in people if not e.checked_in]
        people = [e for e in people if e.checked_in]
    least = least_entrants(event.format)
    if no_shows and len(people) < least:
        raise ValueError(message("tournament", "A round needs at least {least} entrants; "
                                 "{count} of the list are checked in.", least=least,
                                 count=len(people)))
    if len(people) < least:
        if len(people) == 1:
            raise ValueError(message("tournament", "A round needs at least {least} entrants; "
                                     "{count} is on the list.", least=least, count=len(people)))
        raise ValueError(message("tournament", "A round needs at least {least} entrants; "
                                 "{count} are on the list.", least=least, count=len(people)))
    members = {e.name: e.members for e in people}
    plan: dict = {}     # what round 1 of a round robin fixes: its order and its rounds
    apart = apart_members(event)
    if event.cut and number > event.rounds:
        seating = _knockout_seating(db, event, number)
    elif event.plan == "round_robin":
        if number == 1:
            order = [e.name for e in people]
            (rng or random.Random(secrets.randbits(64))).shuffle(order)
            plan = {"order": order, "rounds": round_robin_rounds(len(order))}
        order = plan.get("order") or event.config.get("order") or []
        seating = round_robin_round(order, number,
                                    [e.name for e in everyone if e.dropped])
        if not seating["tables"]:
            raise ValueError(N_("Nobody is left to play in this round of the round robin."))
    elif number == 1:
        seating = seat_round(event.format, [e.name for e in people],
                             rng=rng or random.Random(secrets.randbits(64)), apart=apart)
    else:
        results = all_results(db, event)
        rows = standings(db, event)
        ranking = active_ranking(rows)
        ranking = [e for e in ranking if e in members]
        # Score groups come from the points the standings show (late points and the
        # director's adjustments included), so the ranking and the groups agree.
        points = {r["entrant"]: r["points"] for r in rows if r["entrant"] in members}
        seating = seat_by_standings(event, ranking, history_from_results(results),
                                    points, apart)
    seating, _misses = fix_table_numbers(seating, fixed_tables(db, event))
    seats = []
    for table in seating["tables"]:
        ids = table["entrants"]
        names = seat_names(event, ids, members)
        event.game.new(event.settings, names)   # every table is playable before any is made
        seats.append((table, ids, names))
    if admit is not None:
        admit(len(seats))
    created = []
    try:
        for table, ids, names in seats:
            try:
                # An event's table: no phone is seated; each entrant takes their own seat.
                made, _none = tables.create_table(db, event.game_slug, event.settings, names,
                                                  0, event.options, event_id=event.id,
                                                  group_id=_live_group(db, event))
            except TableError as exc:
                raise ValueError(exc.message) from None
            created.append((table["table"], made.id, ids))
            time.sleep(0)   # under gevent: other requests run between the tables of a big round
        try:
            with transaction(db):
                if plan:
                    config = {**event.config, "order": plan["order"]}
                    db.execute("UPDATE events SET config = ?, rounds = ? WHERE id = ?",
                               [json.dumps(config), plan["rounds"], event.id])
                db.execute("INSERT INTO event_rounds (event_id, round, byes, seated_at)"
                           " VALUES (?, ?, ?, ?)",
                           [event.id, number, json.dumps(seating["byes"]), now()])
                for table_no, table_id, ids in created:
                    db.execute("INSERT INTO event_seatings (event_id, round, table_no,"
                               " table_id, entrants) VALUES (?, ?, ?, ?, ?)",
                               [event.id, number, table_no, table_id, json.dumps(ids)])
                if no_shows:
                    db.execute("UPDATE event_entrants SET no_show = 1, dropped = 1 WHERE"
                               " event_id = ? AND name IN (SELECT value FROM json_each(?))",
                               [event.id, json.dumps(no_shows)])
                touch(db, event.id)
        except sqlite3.IntegrityError:
            raise ValueError(message("tournament", "Round {round} was just seated from another "
                                     "tap.", round=number)) from None
    except Exception:
        # Another tap seated this round a moment ago, or a table couldn't be made: the
        # tables made here belong to no seating and nobody knows them, so they go now
        # (should that fail too, `companion prune` removes them later).
        if created:
            with contextlib.suppress(sqlite3.Error), transaction(db):
                retire.forget_tables(db, [table_id for _n, table_id, _ids in created])
        raise
    return number


def _live_group(db, event: Event) -> str | None:
    """The group the event records into, if it still exists (a deleted group's event
    plays on, recording nowhere)."""
    if event.group_id is None:
        return None
    row = db.execute("SELECT 1 FROM groups WHERE id = ? AND deleted_at IS NULL",
                     [event.group_id]).fetchone()
    return event.group_id if row is not None else None


def _knockout_seating(db, event: Event, number: int) -> dict:
    """Round `number` of the top cut: the seeds in bracket order, then the winners (and
    byes) of the round before (its results are locked: the round was locked to seat this
    one). A team that dropped doesn't play on: its opponent goes on with a bye."""
    seeds = event.cut["seeds"]
    step = number - event.rounds
    gone = [e.name for e in entrants(db, event) if e.dropped]
    if step == 1:
        alive = list(seeds)
    else:
        before = next(r for r in rounds(db, event) if r.number == number - 1)
        alive = [knockout_winner(r, seeds) for r in all_results(db, event)
                 if r["round"] == number - 1 and not r.get("bye")] + list(before.byes)
        if len(alive) < 2:
            raise ValueError(N_("The final has been played: the cut is over."))
    return knockout_seating(seeds, step, alive, gone)


def seat_by_standings(event: Event, ranking: list[str], history: dict, points: dict,
                      apart: list | None = None) -> dict:
    """A later round's seating: Swiss pairing by score groups in the director's method
    (team games; each pair turned so the team that went first less often is team A), or
    tables by standings with the director's odd tables (table games); `apart`: the
    keep-apart groups."""
    method = event.config.get("pairing", "dutch")
    if event.format["kind"] != "tables" and method != "dutch":
        # seat_round pairs Dutch-style; the other method is the library's swiss_pairing.
        seating = swiss_pairing(ranking, history, points=points, method=method, apart=apart)
        return orient_pairs(seating, history)
    return seat_round(event.format, ranking, history, points=points, apart=apart)


def pair_open_tables(db: sqlite_utils.Database, event: Event, number: int,
                     who: str = "Director", rng: random.Random | None = None) -> int:
    """Pair the tables of round `number` that haven't started again, among their own
    entrants only (director.started_tables: the tables where play began keep theirs),
    as the round was seated: round 1 at random (`rng`), a later round by standings in the
    director's pairing method, avoiding rematches. The tables stay (their numbers, their
    sizes, their companion tables): their seats take the new names, and a phone in a seat
    whose name changes goes back to watching. Audited (kind "pair_again"); returns how many
    tables changed. The byes stay as they are."""
    published: list = []
    fixed = fixed_schedule(event, number)
    if fixed:
        raise ValueError(fixed)
    with transaction(db):
        changeable_round(db, event, number)
        started = started_tables(db, event, number)
        rows = db.execute("SELECT table_no, table_id, entrants FROM event_seatings WHERE"
                          " event_id = ? AND round = ? ORDER BY table_no",
                          [event.id, number]).fetchall()
        open_ = [(r["table_no"], r["table_id"], json.loads(r["entrants"])) for r in rows
                 if r["table_no"] not in started]
        if len(open_) < 2:
            raise ValueError(N_("Fewer than two tables haven't started: there is nothing to "
                                "pair again."))
        ids = [e for _n, _t, table in open_ for e in table]
        members = {e.name: e.members for e in entrants(db, event)}
        history = history_from_results(all_results(db, event))
        apart = apart_members(event)
        fmt = event.format
        sizes = {"min_size": fmt.get("min_table") or 2, "max_size": fmt.get("max_table") or 2,
                 "preferred": fmt.get("preferred_table"),
                 "odd": fmt.get("odd_tables") or "closest",
                 "sizes": [len(table) for _n, _t, table in open_]}
        if number == 1:
            rng = rng or random.Random(secrets.randbits(64))
            if fmt["kind"] == "tables":
                seating = random_tables(ids, rng, history, apart=apart, **sizes)
            else:
                seating = orient_pairs(random_pairing(ids, rng, history, apart=apart),
                                       history)
        else:
            wanted = set(ids)
            rows_ = standings(db, event)
            ranking = [r["entrant"] for r in rows_ if r["entrant"] in wanted]
            ranking += [e for e in ids if e not in set(ranking)]
            if fmt["kind"] == "tables":
                seating = assign_tables(ranking, history, apart=apart, **sizes)
            else:
                points = {r["entrant"]: r["points"] for r in rows_ if r["entrant"] in wanted}
                seating = seat_by_standings(event, ranking, history, points, apart)
        if seating["byes"]:     # every entrant had a seat: pairing them again keeps that
            raise ValueError(N_("These tables can't be paired again without a bye."))
        # The new tables, best first, go to the open table numbers in order (the same size:
        # a companion table's seats are fixed); a table with an entrant whose fixed table
        # is open goes there first.
        free = list(open_)
        fixed = fixed_tables(db, event)
        old, new, changed = [], [], 0
        wants = [next((row for row in free for e in table["entrants"]
                       if row[0] == fixed.get(e) and len(row[2]) == len(table["entrants"])),
                      None) for table in seating["tables"]]
        order = sorted(range(len(wants)), key=lambda k: wants[k] is None)
        for k in order:
            table = seating["tables"][k]
            spot = wants[k] if wants[k] in free else None
            spot = spot or next(row for row in free
                                if len(row[2]) == len(table["entrants"]))
            free.remove(spot)
            table_no, table_id, before = spot
            after = list(table["entrants"])
            old.append({"table": table_no, "entrants": before})
            new.append({"table": table_no, "entrants": after})
            if after != before:
                changed += 1
                reseat_table(db, event, number, table_no, table_id, after, members, published)
        old.sort(key=lambda t: t["table"])
        new.sort(key=lambda t: t["table"])
        log_change(db, event, "pair_again", number, None, who, "",
                   {"round": number, "tables": old}, {"round": number, "tables": new})
        touch(db, event.id)
    for table_id, version in published:
        tables.live.publish(table_id, version)
    return changed
