"""An event's entrants: the list as typed, late arrivals, drops, the players registering
themselves through the event's QR, finding a player by name, and the seats a player's pass
opens at an event's table.

A pass is a claim: which phone holds which player, with the players' claim codes, is
:mod:`.claims`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils

from companion import tables
from companion.rules.game import MAX_NAME_LENGTH, clean_name, name_key
from companion.rules.said import N_, message
from companion.storage import transaction

from .event import Event, get_event, give_codes, pass_hash, set_config_key, touch

MAX_ENTRANTS = 2500     # 500 tables of five
MAX_ROUND_ROBIN = 20    # 19 rounds: within an event's MAX_ROUNDS
LATE_CHOICES = ("zero", "bye")     # a late arrival starts with 0, or a bye per round missed


@dataclass(frozen=True)
class Entrant:
    """One entrant as listed: a player, or a team with its members."""

    name: str
    members: list
    dropped: bool
    late_from: int | None = None   # the first round a late arrival could play (None: from 1)
    checked_in: bool = False       # checked in for round 1 (while the event's check-in is on)
    no_show: bool = False          # not checked in when round 1 was seated (dropped too)
    fixed_table: int | None = None  # the table number kept every round (accessibility)


def parse_entrants(text: str, fmt: dict, *, allow_few: bool = False
                   ) -> list[tuple[str, list[str]]]:
    """Entrants from text typed or pasted one per line: (name, members).

    In a team game a line is one team, its players separated by commas ("Ann, Bob"); the
    team is called "Ann & Bob". Fewer entrants than a round needs are refused unless
    `allow_few` (the players will register themselves). Raises ValueError with a plain
    sentence.
    """
    lines = [clean_name(line) for line in (text or "").splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > MAX_ENTRANTS:
        raise ValueError(message("tournament", "An event has at most {most} entrants.",
                                 most=MAX_ENTRANTS))
    out: list[tuple[str, list[str]]] = []
    players: set[str] = set()
    for line in lines:
        if fmt["kind"] == "teams":
            members = [clean_name(m) for m in line.split(",") if clean_name(m)]
            if len(members) not in fmt["team_sizes"]:
                sizes = " or ".join(str(n) for n in fmt["team_sizes"])
                raise ValueError(message("tournament", "“{line}”: a team has {sizes} players, "
                                         "separated by commas.", line=line[:60], sizes=sizes))
            name = " & ".join(members)
        else:
            members, name = [line], line
        for member in members:
            if len(member) > MAX_NAME_LENGTH:
                raise ValueError(message("tournament", "“{name}…” is too long: a name has at "
                                         "most {most} characters.", name=member[:40],
                                         most=MAX_NAME_LENGTH))
            if name_key(member) in players:
                raise ValueError(message("tournament", "{name} is listed twice. Give each "
                                         "player a different name.", name=member))
            players.add(name_key(member))
        out.append((name, members))
    if fmt["kind"] == "teams" and len({len(m) for _n, m in out}) > 1:
        raise ValueError(N_("Every team needs the same number of players."))
    if len(out) < least_entrants(fmt) and not allow_few:
        raise ValueError(message("tournament", "List at least {least} entrants, one per line"
                                 " (or let the players register themselves).",
                                 least=least_entrants(fmt)))
    return out


def least_entrants(fmt: dict) -> int:
    """How many entrants a round needs: two (players or teams), or one table's minimum."""
    return 2 if fmt["kind"] != "tables" else fmt["min_table"]


def entrants(db: sqlite_utils.Database, event: Event) -> list[Entrant]:
    """The event's entrants in the order they were listed."""
    rows = db.execute("SELECT * FROM event_entrants WHERE event_id = ? ORDER BY pos",
                      [event.id]).fetchall()
    return [Entrant(r["name"], json.loads(r["members"]), bool(r["dropped"]), r["late_from"],
                    bool(r["checked_in"]), bool(r["no_show"]), r["fixed_table"])
            for r in rows]


def entrant_counts(db: sqlite_utils.Database, event: Event) -> tuple[int, int, int]:
    """(entrants still playing, entrants dropped, no-shows). A no-show is stored dropped
    too (so every round leaves them out) but is counted apart: they never played."""
    row = db.execute("SELECT COUNT(*) - COALESCE(SUM(dropped), 0),"
                     " COALESCE(SUM(dropped AND NOT no_show), 0), COALESCE(SUM(no_show), 0)"
                     " FROM event_entrants WHERE event_id = ?", [event.id]).fetchone()
    return row[0], row[1], row[2]


def find_entrant(db: sqlite_utils.Database, event: Event, name: str) -> str | None:
    """The entrant called `name` as stored, matched exactly first, then ignoring case; in a
    team game a player's own name finds their team ("bob" finds "Ann & Bob")."""
    row = db.execute("SELECT name FROM event_entrants WHERE event_id = ? AND name = ?",
                     [event.id, name]).fetchone()
    if row is not None:
        return row[0]
    wanted = name_key(name)
    rows = db.execute("SELECT name, members FROM event_entrants WHERE event_id = ?",
                      [event.id]).fetchall()
    return next((r[0] for r in rows if name_key(r[0]) == wanted), None) or next(
        (r[0] for r in rows if any(name_key(m) == wanted for m in json.loads(r[1]))), None)


def find_player(db: sqlite_utils.Database, event: Event, name: str
                ) -> tuple[str, str | None] | None:
    """(entrant, member) for a name typed or tapped on the players' page: an entrant's
    name (member None), or in a team game one player's own name (member: that player)."""
    entrant = find_entrant(db, event, name)
    if entrant is None:
        return None
    wanted = name_key(name)
    rows = db.execute("SELECT members FROM event_entrants WHERE event_id = ? AND name = ?",
                      [event.id, entrant]).fetchone()
    member = next((m for m in json.loads(rows[0]) if name_key(m) == wanted), None)
    return entrant, (member if member != entrant else None)


def pass_holder(db: sqlite_utils.Database, event_id: str, secret: str | None
                ) -> tuple[str, str | None] | None:
    """(entrant, member) of the pass whose secret a phone's cookie holds, if any."""
    if not secret:
        return None
    row = db.execute("SELECT entrant, member FROM event_passes WHERE secret_hash = ?"
                     " AND event_id = ?", [pass_hash(secret, event_id), event_id]).fetchone()
    return (row[0], row[1]) if row else None


def seats_for_pass(db: sqlite_utils.Database, table: tables.Table, secret: str | None
                   ) -> set[int]:
    """The seats of an event's table that the phone holding this pass may take: its
    entrant's (in a team game its player's own seat when the pass names them). Empty for
    anyone else, and for a table of no event."""
    if table.event_id is None:
        return set()
    holder = pass_holder(db, table.event_id, secret)
    if holder is None:
        return set()
    entrant, member = holder
    row = db.execute("SELECT e.members FROM event_seatings s, json_each(s.entrants) j"
                     " JOIN event_entrants e ON e.event_id = s.event_id AND e.name = j.value"
                     " WHERE s.table_id = ? AND j.value = ?", [table.id, entrant]).fetchone()
    if row is None:
        return set()
    names = {member} if member else set(json.loads(row[0])) | {entrant}
    return {seat.pos for seat in tables.seats_of(db, table.id) if seat.name in names}


def add_entrant(db: sqlite_utils.Database, event: Event, line: str, *,
                checked_in: bool = False) -> str:
    """A late arrival (a player, or a team line "Ann, Bob"): seated from the next round,
    with no points for the rounds missed. `checked_in`: the director added them at the
    desk, so before round 1 they count as checked in. Returns the entrant's name."""
    line = (line or "").strip()
    if not line or "\n" in line or "\r" in line:
        raise ValueError(N_("Type one name (or one team) to add."))
    # Checked against the list inside the write lock: two players registering the same
    # name at once get one entry and one plain refusal.
    ((name, members),) = parse_entrants(line, event.format, allow_few=True)
    with transaction(db):
        known = entrants(db, event)
        if len(known) >= MAX_ENTRANTS:
            raise ValueError(message("tournament", "An event has at most {most} entrants.",
                                     most=MAX_ENTRANTS))
        taken = {name_key(m): m for e in known for m in e.members}
        if event.format["kind"] == "teams" and known and \
                len(members) != len(known[0].members):
            raise ValueError(message("tournament", "Every team needs the same number of "
                                     "players: {size}.", size=len(known[0].members)))
        for member in members:
            if name_key(member) in taken:
                raise ValueError(message("tournament", "{name} is already on the list. If "
                                         "that's somebody else, add a last name or an "
                                         "initial.", name=taken[name_key(member)]))
        pos = db.execute("SELECT COALESCE(MAX(pos), -1) + 1 FROM event_entrants WHERE event_id = ?",
                         [event.id]).fetchone()[0]
        # Once round 1 is seated an arrival is late: they play from the next round, and
        # late_from says how many rounds they missed (see late_points).
        seated = db.execute("SELECT COUNT(*) FROM event_rounds WHERE event_id = ?",
                            [event.id]).fetchone()[0]
        if event.plan == "round_robin":
            # The schedule is drawn for the entrants of round 1: a later one would meet
            # nobody it still has.
            if seated:
                raise ValueError(N_("A round robin's entries closed when round 1 was seated."))
            if len(known) >= MAX_ROUND_ROBIN:
                raise ValueError(message("tournament", "A round robin has at most {most} "
                                         "entrants.", most=MAX_ROUND_ROBIN))
        db.execute("INSERT INTO event_entrants (event_id, pos, name, members, late_from,"
                   " checked_in) VALUES (?, ?, ?, ?, ?, ?)",
                   [event.id, pos, name, json.dumps(members), seated + 1 if seated else None,
                    int(checked_in)])
        give_codes(db, event.id, name, members)
        touch(db, event.id)
    return name


def register(db: sqlite_utils.Database, event_id: str, line: str) -> str:
    """A player registering themselves (or their team, "Ann, Bob") through the event's QR,
    while the director keeps registration open. Returns the entrant's name."""
    event = get_event(db, event_id)      # fresh: registration may have closed meanwhile
    if not event.registration:
        raise ValueError(N_("Registration is closed. Ask the director to add you."))
    return add_entrant(db, event, line)


def set_registration(db: sqlite_utils.Database, event: Event, open_: bool) -> None:
    """Open or close self-registration through the event's QR."""
    with transaction(db):
        db.execute("UPDATE events SET registration = ? WHERE id = ?", [int(open_), event.id])
        touch(db, event.id)


def set_dropped(db: sqlite_utils.Database, event: Event, name: str, dropped: bool) -> None:
    """Drop an entrant from the next rounds (their results so far stay), or take them back
    (a no-show taken back is checked in late: see :func:`check_in`)."""
    with transaction(db):
        row = db.execute("SELECT no_show FROM event_entrants WHERE event_id = ? AND name = ?",
                         [event.id, name]).fetchone()
        if row is None:
            raise tables.NotFound(N_("That name isn't on this event's list."))
        if row[0] and not dropped:
            _check_in_late(db, event, name)
        else:
            db.execute("UPDATE event_entrants SET dropped = ? WHERE event_id = ? AND name = ?",
                       [int(dropped), event.id, name])
        touch(db, event.id)


def _seated_rounds(db: sqlite_utils.Database, event: Event) -> int:
    return db.execute("SELECT COUNT(*) FROM event_rounds WHERE event_id = ?",
                      [event.id]).fetchone()[0]


def set_check_in(db: sqlite_utils.Database, event: Event, on: bool) -> None:
    """Switch the event's check-in on or off before round 1: while it is on, round 1 seats
    only the entrants checked in (the others become no-shows)."""
    with transaction(db):
        if _seated_rounds(db, event):
            raise ValueError(N_("Check-in is for round 1, which is seated already. A no-show "
                                "is checked in from the entrants' list."))
        set_config_key(db, event.id, "checkin", True if on else None)
        touch(db, event.id)


def check_in(db: sqlite_utils.Database, event: Event, name: str, on: bool = True) -> None:
    """Check an entrant in (or, before round 1, out again: a mistaken tap). Before round 1
    this needs the event's check-in on; after it only a no-show is checked in, late: they
    join from the next round as a late arrival would (:func:`add_entrant`)."""
    with transaction(db):
        row = db.execute("SELECT no_show FROM event_entrants WHERE event_id = ? AND name = ?",
                         [event.id, name]).fetchone()
        if row is None:
            raise tables.NotFound(N_("That name isn't on this event's list."))
        if _seated_rounds(db, event):
            if not row[0] or not on:
                raise ValueError(N_("Round 1 is seated: only a no-show can be checked in "
                                    "now."))
            _check_in_late(db, event, name)
        else:
            if not _check_in_on(db, event):
                raise ValueError(N_("Check-in is off: every entrant on the list plays "
                                    "round 1."))
            db.execute("UPDATE event_entrants SET checked_in = ? WHERE event_id = ? AND"
                       " name = ?", [int(on), event.id, name])
        touch(db, event.id)


def _check_in_on(db: sqlite_utils.Database, event: Event) -> bool:
    """Whether check-in is on, read inside the write lock (it may have just changed)."""
    row = db.execute("SELECT config FROM events WHERE id = ?", [event.id]).fetchone()
    return bool(json.loads(row[0] or "{}").get("checkin"))


def _check_in_late(db: sqlite_utils.Database, event: Event, name: str) -> None:
    # A round robin's schedule was drawn for the entrants of round 1: nobody joins it later.
    if event.plan == "round_robin":
        raise ValueError(N_("A round robin's entries closed when round 1 was seated: a "
                            "no-show can't join it now."))
    db.execute("UPDATE event_entrants SET dropped = 0, no_show = 0, checked_in = 1,"
               " late_from = ? WHERE event_id = ? AND name = ?",
               [_seated_rounds(db, event) + 1, event.id, name])


def player_check_in(db: sqlite_utils.Database, event_id: str, secret: str | None) -> str:
    """A player's own phone checks its entrant in (the pass it holds says who), before
    round 1 while the event's check-in is on; once round 1 is seated a no-show is refused
    (the director checks them in late) and anyone else plays already. Returns the
    entrant's name."""
    holder = pass_holder(db, event_id, secret)
    if holder is None:
        raise ValueError(N_("This phone hasn't picked a player yet: pick your name first."))
    event = get_event(db, event_id)
    with transaction(db):
        if _seated_rounds(db, event):
            row = db.execute("SELECT no_show FROM event_entrants WHERE event_id = ? AND"
                             " name = ?", [event.id, holder[0]]).fetchone()
            if row and row[0]:
                raise ValueError(N_("Round 1 is seated already. Ask the director to check "
                                    "you in: you play from the next round."))
            return holder[0]    # playing already (a late tap): nothing to check in
        if not _check_in_on(db, event):
            raise ValueError(N_("Check-in is off: every entrant on the list plays round 1."))
        db.execute("UPDATE event_entrants SET checked_in = 1 WHERE event_id = ? AND name = ?",
                   [event.id, holder[0]])
        touch(db, event.id)
    return holder[0]


def is_checked_in(db: sqlite_utils.Database, event: Event, name: str) -> bool:
    """Whether the entrant called `name` is checked in."""
    row = db.execute("SELECT checked_in FROM event_entrants WHERE event_id = ? AND name = ?",
                     [event.id, name]).fetchone()
    return bool(row and row[0])


def check_in_count(people: list[Entrant]) -> tuple[int, int]:
    """(entrants checked in, entrants on the list not dropped)."""
    playing = [e for e in people if not e.dropped]
    return sum(e.checked_in for e in playing), len(playing)


def late_points(event: Event, people: list[Entrant]) -> dict[str, float]:
    """The points late arrivals start with: none, or when the director chose so, a bye's
    points for every round they missed (late_from - 1 rounds)."""
    if event.config.get("late") != "bye":
        return {}
    bye = event.scoring["bye"]
    return {e.name: bye * (e.late_from - 1) for e in people
            if e.late_from is not None and e.late_from > 1}
