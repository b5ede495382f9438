"""Claims: which phone holds which player of an event.

A claim is one phone holding one player's pass (a row of ``event_passes``): that phone may
take the player's seat at the player's table, nothing more. Claims are per player: a table
game's entrant is one player; in a team game each member is claimed on their own and sits
in their own seat. At most one phone holds a player (a UNIQUE index, checked inside the
write transaction) and a phone holds at most one player per event (the pass's key is the
phone's secret hashed for the event).

Every player has a short claim code (``event_players``), a low-value secret like a table's
join code that the director hands out (dashboard, printable slips). While the event's
codes are on (the default; ``events.config`` ``"claim_codes": false`` switches them off
for a casual night) "This is me" asks for the code; without codes the first claim holds.
Either way a second phone is refused while the first holds the player; the refusal is
counted on the claim, so the director sees it. A player's own claims don't bump the
event's version: no public page shows them. A phone that registered itself holds its
claim at once. The director releases or reassigns a claim (audited, kind "claim"); the
phone itself gives its claim back ("Not me"). Releasing takes the phone off the seat it
took through the claim at the current round's table.

The web layer's callers are the blueprint :mod:`companion.web.events` and
:mod:`companion.web.table`.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

import sqlite_utils

from companion import tables
from companion.clock import now
from companion.rules.said import N_, message
from companion.storage import transaction
from companion.tables import tokens

from .event import Event, log_change, pass_hash, touch

LABEL_LENGTH = 6          # hex characters of a phone's pass hash shown as its label


@dataclass(frozen=True)
class PlayerClaim:
    """One player of an event as the dashboard's claims list and the slips show it."""

    player: str           # the player's own name (a table game's entrant)
    entrant: str          # the entrant they play for (their team in a team game)
    code: str             # the claim code
    phone: str | None     # the holding phone's short label; None: unclaimed
    at: str | None        # when the phone claimed the player
    via: str | None       # register, code, open (codes off) or kept (from before claims)
    refused: int          # second claims refused while this phone held the player
    refused_at: str | None


def codes_on(event: Event) -> bool:
    """Whether "This is me" asks for the player's claim code (the default)."""
    return event.config.get("claim_codes", True) is not False


def phone_label(secret_hash: str) -> str:
    """A phone's short, stable label within one event: the start of its pass hash (it
    says nothing of the phone's secret, nor of its rows at other events)."""
    return secret_hash[:LABEL_LENGTH]


def _new_code() -> str:
    return tokens.new_code()


def _player_key(entrant: str, member: str | None) -> str:
    return member or entrant


def _codes_on_now(db, event_id: str) -> bool:
    """The event's codes setting as stored now (inside a transaction: the director may
    have switched it since the request read the event)."""
    row = db.execute("SELECT config FROM events WHERE id = ?", [event_id]).fetchone()
    return json.loads(row[0] or "{}").get("claim_codes", True) is not False


def _held_by(db, event_id: str, entrant: str, member: str | None):
    return db.execute("SELECT secret_hash, via, refused FROM event_passes WHERE event_id = ? AND"
                      " entrant = ? AND COALESCE(member, '') = ?",
                      [event_id, entrant, member or ""]).fetchone()


def _own(db, hashed: str):
    return db.execute("SELECT entrant, member, via FROM event_passes WHERE secret_hash = ?",
                      [hashed]).fetchone()


def _team_members(db, event_id: str, entrant: str) -> list[str]:
    rows = db.execute("SELECT player FROM event_players WHERE event_id = ? AND entrant = ?"
                      " AND player != entrant ORDER BY rowid", [event_id, entrant]).fetchall()
    return [r[0] for r in rows]


class WrongCode(tables.Forbidden):
    """The claim code doesn't match the player's (counted against the address)."""


def claim(db: sqlite_utils.Database, event: Event, entrant: str, member: str | None,
          secret: str, code: str | None = None) -> tuple[str, str | None] | None:
    """The phone holding `secret` claims player `member` of `entrant` (a table game's
    entrant: member None) with the player's claim `code` (ignored while the event's codes
    are off). Returns the claim this phone gave up for it, (entrant, member), or None: the
    caller takes the phone off that claim's seat (:func:`free_own_seat`).

    Holding the player already changes nothing. In a team game a claim names one member;
    given the team only, the code says which member. Raises `WrongCode` (403) for a wrong
    or missing code, `tables.Conflict` (409) while another phone holds the player (the
    refusal is counted on that claim for the director), ValueError when a team's member
    is needed. Nothing changes when it raises.
    """
    hashed = pass_hash(secret, event.id)
    refused = None
    with transaction(db):
        on = _codes_on_now(db, event.id)
        given = tokens.normalize_code(code or "")
        members = _team_members(db, event.id, entrant)
        if members and member is None:
            if not (on and given):
                raise ValueError(message("tournament", "Tap your own name: {names}.",
                                         names=" / ".join(members)))
            member = next((m for m in members if _code_matches(db, event.id, m, given)), None)
            if member is None:
                raise WrongCode(_wrong_code_text(entrant))
        player = _player_key(entrant, member)
        row = db.execute("SELECT code FROM event_players WHERE event_id = ? AND player = ?"
                         " AND entrant = ?", [event.id, player, entrant]).fetchone()
        if row is None:
            raise tables.NotFound(N_("That name isn't on this event's list."))
        mine = _own(db, hashed)
        if mine is not None and (mine[0], mine[1]) == (entrant, member):
            return None
        holder = _held_by(db, event.id, entrant, member)
        if holder is not None:
            refused = message("tournament", "{name} is already claimed on another phone — ask "
                              "the director.", name=player)
            # Counted on the claim (not one audit row per attempt: a stranger's retries
            # mustn't grow the log), so the director sees it on the dashboard.
            db.execute("UPDATE event_passes SET refused = refused + 1, refused_at = ?"
                       " WHERE secret_hash = ?", [now(), holder[0]])
        elif on and not secrets.compare_digest(given.encode(), row[0].encode()):
            raise WrongCode(_wrong_code_text(player))
        else:
            if mine is not None:
                db.execute("DELETE FROM event_passes WHERE secret_hash = ?", [hashed])
            db.execute("INSERT INTO event_passes (secret_hash, event_id, entrant, member,"
                       " created_at, via) VALUES (?, ?, ?, ?, ?, ?)",
                       [hashed, event.id, entrant, member, now(), "code" if on else "open"])
            tables.places.note(db, secret, tables.places.EVENT, event.id)
    if refused is not None:
        raise tables.Conflict(refused)
    return (mine[0], mine[1]) if mine is not None else None


def _code_matches(db, event_id: str, player: str, given: str) -> bool:
    row = db.execute("SELECT code FROM event_players WHERE event_id = ? AND player = ?",
                     [event_id, player]).fetchone()
    return row is not None and secrets.compare_digest(given.encode(), row[0].encode())


def _wrong_code_text(name: str) -> str:
    return message("tournament", "That isn't {name}'s claim code. Check it on your slip, or "
                   "ask the director.", name=name)


def hold_registered(db: sqlite_utils.Database, event: Event, entrant: str,
                    member: str | None, secret: str) -> tuple[str, str | None] | None:
    """The phone that just registered `entrant` holds the claim of the registering player
    (`member` in a team game), with no code. Returns the claim it gave up for it, if any.
    A phone that registered somebody already claimed (the director typed them, a phone
    claimed them) is refused with `tables.Conflict`."""
    hashed = pass_hash(secret, event.id)
    with transaction(db):
        mine = _own(db, hashed)
        if mine is not None and (mine[0], mine[1]) == (entrant, member):
            return None
        if _held_by(db, event.id, entrant, member) is not None:
            raise tables.Conflict(message("tournament", "{name} is already claimed on another "
                                          "phone — ask the director.",
                                          name=_player_key(entrant, member)))
        db.execute("DELETE FROM event_passes WHERE secret_hash = ?", [hashed])
        db.execute("INSERT INTO event_passes (secret_hash, event_id, entrant, member,"
                   " created_at, via) VALUES (?, ?, ?, ?, ?, 'register')",
                   [hashed, event.id, entrant, member, now()])
        tables.places.note(db, secret, tables.places.EVENT, event.id)
    return (mine[0], mine[1]) if mine is not None else None


def give_back(db: sqlite_utils.Database, event: Event, secret: str | None
              ) -> tuple[str, str | None] | None:
    """"Not me": the phone holding `secret` gives its claim back. Returns the claim given
    back, (entrant, member), or None when the phone held none; the caller takes the phone
    off that claim's seat (:func:`free_own_seat`)."""
    if not secret:
        return None
    hashed = pass_hash(secret, event.id)
    with transaction(db):
        mine = _own(db, hashed)
        if mine is None:
            return None
        db.execute("DELETE FROM event_passes WHERE secret_hash = ?", [hashed])
    return mine[0], mine[1]


def _current_table(db, event_id: str, entrant: str) -> str | None:
    """The table id where `entrant` sits in the latest round seated (None: none)."""
    row = db.execute("SELECT s.table_id FROM event_seatings s, json_each(s.entrants) j"
                     " WHERE s.event_id = ? AND j.value = ? AND s.round ="
                     " (SELECT MAX(round) FROM event_rounds WHERE event_id = ?)",
                     [event_id, entrant, event_id]).fetchone()
    return row[0] if row else None


def _player_seats(db, table_id: str, entrant: str, member: str | None) -> set[int]:
    names = {member} if member else {entrant}
    return {s.pos for s in tables.seats_of(db, table_id) if s.name in names}


def free_own_seat(db: sqlite_utils.Database, event: Event, secret: str | None,
                  given_up: tuple[str, str | None] | None) -> None:
    """Take the phone holding `secret` off the seat of the claim it gave up (`given_up`)
    at the current round's table, if it sits there (logged at the table as leaving)."""
    if given_up is None or not secret:
        return
    table_id = _current_table(db, event.id, given_up[0])
    if table_id is None:
        return
    phone = tables.phone_by_secret(db, table_id, secret)
    if phone is not None and phone.seat in _player_seats(db, table_id, *given_up):
        tables.leave_seat(db, table_id, phone)


def _free_claimed_seat(db, event: Event, entrant: str, member: str | None,
                       label: str) -> bool:
    """Take the phone that sat down through the claim labelled `label` off the player's
    seat at the current round's table: the seat's newest seat entry is that claim's (a
    phone the director let in with a rejoin code stays). Whether a phone left."""
    table_id = _current_table(db, event.id, entrant)
    if table_id is None:
        return False
    left = False
    for pos in sorted(_player_seats(db, table_id, entrant, member)):
        last = db.execute("SELECT payload FROM actions WHERE table_id = ? AND kind = ? AND"
                          " json_extract(payload, '$.seat') = ? AND json_extract(payload,"
                          " '$.change') IN ('claim', 'rejoin', 'leave', 'release', 'rename')"
                          " ORDER BY seq DESC LIMIT 1", [table_id, tables.SEAT, pos]).fetchone()
        if last is None:
            continue
        payload = json.loads(last[0])
        held = (payload.get("claim") or {}).get("phone")
        if payload.get("change") != "claim" or held not in (None, label):
            continue
        row = db.execute("SELECT id FROM phones WHERE table_id = ? AND seat = ?",
                         [table_id, pos]).fetchone()
        if row is not None:
            tables.leave_seat(db, table_id, tables.Phone(id=row[0], table_id=table_id, seat=pos))
            left = True
    return left


def release(db: sqlite_utils.Database, event: Event, player: str, who: str,
            *, reassign: bool = False) -> str | None:
    """The director frees player `player`'s claim (the phone holding it goes off the
    player's seat at the current round's table); `reassign` also gives the player a new
    claim code, so the phone released can't come back with the old one. Audited (kind
    "claim"). Returns the new code when reassigned. NotFound for a name not on the list;
    ValueError when there is nothing to release."""
    with transaction(db):
        row = db.execute("SELECT entrant FROM event_players WHERE event_id = ? AND player = ?",
                         [event.id, player]).fetchone()
        if row is None:
            raise tables.NotFound(N_("That name isn't on this event's list."))
        entrant = row[0]
        member = None if player == entrant else player
        held = _held_by(db, event.id, entrant, member)
        if held is None and not reassign:
            raise ValueError(message("tournament", "No phone holds {name}'s claim.",
                                     name=player))
        label = phone_label(held[0]) if held is not None else None
        if held is not None:
            db.execute("DELETE FROM event_passes WHERE secret_hash = ?", [held[0]])
        code = None
        if reassign:
            code = _new_code()
            db.execute("UPDATE event_players SET code = ? WHERE event_id = ? AND player = ?",
                       [code, event.id, player])
        log_change(db, event, "claim", None, None, who, "",
                   {"player": player, "phone": label,
                    "refused": held[2] if held is not None else 0},
                   {"player": player, "released": held is not None,
                    "new_code": bool(reassign)})
        touch(db, event.id)
    if label is not None:
        _free_claimed_seat(db, event, entrant, member, label)
    return code


def set_codes(db: sqlite_utils.Database, event: Event, on: bool, who: str) -> None:
    """Switch the event's claim codes on or off (audited, kind "claim"). Claims held stay
    held either way."""
    with transaction(db):
        row = db.execute("SELECT config FROM events WHERE id = ?", [event.id]).fetchone()
        config = json.loads(row[0] or "{}")
        was = config.get("claim_codes", True) is not False
        if was == on:
            return
        if on:
            config.pop("claim_codes", None)
        else:
            config["claim_codes"] = False
        db.execute("UPDATE events SET config = ? WHERE id = ?", [json.dumps(config), event.id])
        log_change(db, event, "claim", None, None, who, "", {"codes": was}, {"codes": on})
        touch(db, event.id)


def player_claims(db: sqlite_utils.Database, event: Event) -> list[PlayerClaim]:
    """Every player of the event in the entrants' order, with their code and claim."""
    rows = db.execute(
        "SELECT p.player, p.entrant, p.code, c.secret_hash, c.created_at, c.via, c.refused,"
        " c.refused_at FROM event_players p JOIN event_entrants e ON e.event_id = p.event_id"
        " AND e.name = p.entrant LEFT JOIN event_passes c ON c.event_id = p.event_id AND"
        " c.entrant = p.entrant AND COALESCE(c.member, c.entrant) = p.player"
        " WHERE p.event_id = ? ORDER BY e.pos, p.rowid", [event.id]).fetchall()
    return [PlayerClaim(r[0], r[1], r[2], phone_label(r[3]) if r[3] else None, r[4], r[5],
                        r[6] or 0, r[7]) for r in rows]


def partner_codes(db: sqlite_utils.Database, event: Event, secret: str | None
                  ) -> list[tuple[str, str]]:
    """(player, code) of the unclaimed team mates of the player this phone registered: the
    registering phone passes them on. Empty for any other phone."""
    if not secret:
        return []
    mine = _own(db, pass_hash(secret, event.id))
    if mine is None or mine[2] != "register" or mine[1] is None:
        return []
    rows = db.execute("SELECT p.player, p.code FROM event_players p WHERE p.event_id = ? AND"
                      " p.entrant = ? AND p.player != ? AND NOT EXISTS (SELECT 1 FROM"
                      " event_passes c WHERE c.event_id = p.event_id AND c.entrant = p.entrant"
                      " AND c.member = p.player) ORDER BY p.rowid",
                      [event.id, mine[0], mine[1]]).fetchall()
    return [(r[0], r[1]) for r in rows]


def seat_note(db: sqlite_utils.Database, table: tables.Table, secret: str | None
              ) -> dict | None:
    """What a seat entry at an event's table records of the claim the phone sits down
    through: the player and the phone's label (as the dashboard's claims list shows
    it). None at a table of no event, or for a phone holding no claim."""
    if table.event_id is None or not secret:
        return None
    hashed = pass_hash(secret, table.event_id)
    mine = _own(db, hashed)
    if mine is None:
        return None
    return {"player": _player_key(mine[0], mine[1]), "phone": phone_label(hashed)}
