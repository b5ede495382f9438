"""A phone's places: the tables it hosts, sits at or watches and the events it directs or
plays in, listed on the start page ("Your tables") so a closed browser finds its way back.

A table's and an event's own rows keep only a hash of the phone's identity scoped to them
(`tokens.scoped_hash`), so nothing there lists one phone's tables. `phone_places` does:
a row per (phone, table or event), written in the same transaction as the phone creates,
joins or takes over a table, creates or directs an event or claims a player's pass there.
It keeps that promise of the scoped hashes: its phone is a hash of the identity scoped to
this list (`owner_of`), the place a hash scoped to the place (`place_of`), and which
table or event it is only **sealed** with the identity (XOR-ed with a stream made from
it, `_seal`). A copy of the database shows that some phone has so many places, not which,
and no timestamp or row order to match them with a table's phones by time (a WITHOUT
ROWID table in hash order; `n` counts within one phone only). What the phone may do at
a place is read live from the place's own rows (its seat and the host's seat, a
director's device, a pass), so the list never shows more than the phone may open now: a
place where the phone holds nothing any more is left out.

Removing a place from the list only hides it (`hidden`; the seat stays); joining the
table again shows it again. The list costs a few indexed reads however many tables the
database holds: the score line comes from the stored fold (`table_folds`), never from a
replay of a table's log.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import sqlite_utils

from companion.lru import LRU
from companion.storage import transaction

from . import fold as folds, tokens

TABLE = "table"
EVENT = "event"
#: A group the phone holds the link of (companion.groups): listed apart from the tables.
GROUP = "group"
KINDS = (TABLE, EVENT, GROUP)
#: Places shown on the start page (the newest); the rest are counted.
SHOWN = 30
#: Places kept per phone: the ones it joined longest ago go first.
KEPT = 300
#: Tables (or events) looked up at once when a phone's older places are found.
_CHUNK = 400

_lines = LRU(4096)    # (table id, version) -> (totals, winners) of its current game


def owner_of(secret: str) -> str:
    """What `phone_places` keeps of a phone's identity."""
    return tokens.scoped_hash(secret, "places")


def place_of(secret: str, kind: str, ref: str) -> str:
    """What `phone_places` keeps to name one of the phone's places (its key)."""
    return tokens.scoped_hash(secret, f"place:{kind}:{ref}")


def _stream(secret: str, place: str, size: int) -> bytes:
    return hashlib.shake_256(f"place-seal\n{secret}\n{place}".encode("utf-8")).digest(size)


def _seal(secret: str, place: str, kind: str, ref: str) -> str:
    """``kind:ref`` XOR-ed with a stream of the identity and the place (a stream of its
    own for every place), hex: only the phone's own cookie opens it."""
    data = f"{kind}:{ref}".encode("utf-8")
    return bytes(a ^ b for a, b in zip(data, _stream(secret, place, len(data)))).hex()


def _unseal(secret: str, place: str, sealed: str) -> tuple[str, str] | None:
    """(kind, ref) of a sealed place, or None when it doesn't open with this identity."""
    try:
        data = bytes.fromhex(sealed)
        text = bytes(a ^ b for a, b in zip(data, _stream(secret, place, len(data)))).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    kind, _, ref = text.partition(":")
    if kind not in KINDS or place_of(secret, kind, ref) != place:
        return None
    return kind, ref


def note(db: sqlite_utils.Database, secret: str | None, kind: str, ref: str) -> None:
    """The phone holding `secret` now has a place at table or event `ref` (inside the
    caller's write transaction): listed, shown again if it was removed, counted as its
    newest."""
    if not secret:
        return
    owner, place = owner_of(secret), place_of(secret, kind, ref)
    # `n`: the phone's newest place so far, plus one (the WHERE makes the upsert parse).
    db.execute("INSERT INTO phone_places (owner, place, sealed, n, hidden) SELECT ?, ?, ?,"
               " COALESCE(MAX(n), 0) + 1, 0 FROM phone_places WHERE owner = ?"
               " ON CONFLICT (owner, place) DO UPDATE SET n = excluded.n, hidden = 0",
               [owner, place, _seal(secret, place, kind, ref), owner])
    # A director's evening of a hundred tables must not make every later start page read
    # them all: the places joined longest ago go.
    db.execute("DELETE FROM phone_places WHERE owner = ? AND n <= (SELECT MAX(n) FROM"
               " phone_places WHERE owner = ?) - ?", [owner, owner, KEPT])


def hide(db: sqlite_utils.Database, secret: str | None, kind: str, ref: str) -> bool:
    """Take a place off the phone's list (it keeps its seat). False when the list has no
    such place."""
    if not secret or kind not in KINDS:
        return False
    with transaction(db):
        cur = db.execute("UPDATE phone_places SET hidden = 1 WHERE owner = ? AND place = ?",
                         [owner_of(secret), place_of(secret, kind, ref)])
    return cur.rowcount == 1


def refs_of(db: sqlite_utils.Database, secret: str | None, kind: str) -> list[str]:
    """The refs of the phone's listed places of one kind (e.g. its groups), unordered;
    whether the phone may still open each is the caller's to check."""
    if not secret:
        return []
    out = []
    for place, sealed in db.execute("SELECT place, sealed FROM phone_places WHERE owner = ?"
                                    " AND hidden = 0", [owner_of(secret)]).fetchall():
        opened = _unseal(secret, place, sealed)
        if opened is not None and opened[0] == kind:
            out.append(opened[1])
    return out


@dataclass(frozen=True)
class Place:
    """One line of the list. `role`: "host", "seat", "watch" (a table), "director" or
    "player" (an event). `totals`: (name, total) in seat order, team names for teams."""

    kind: str
    ref: str
    game: str
    role: str
    played_at: str
    finished: bool
    names: list[str] = field(default_factory=list)
    totals: list[tuple[str, object]] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    me: str | None = None           # the seat's (or the event's player's) name
    title: str | None = None        # an event's name
    round: int = 0                  # an event's rounds seated so far ...
    rounds: int = 0                 # ... of its rounds


@dataclass(frozen=True)
class Places:
    """The phone's newest places (`shown`, newest first) and how many it has in all."""

    shown: list[Place]
    count: int

    @property
    def playing(self) -> list[Place]:
        return [p for p in self.shown if not p.finished]

    @property
    def finished(self) -> list[Place]:
        return [p for p in self.shown if p.finished]


_TABLES = """
    SELECT t.id, t.game, t.status, t.retired_at, t.host_seat, t.event_id, t.version,
           MAX(t.created_at, COALESCE((SELECT a.created_at FROM actions a WHERE a.table_id = t.id
                                        ORDER BY a.seq DESC LIMIT 1), '')) AS played_at
    FROM tables t WHERE t.id IN (SELECT value FROM json_each(?))"""

_EVENTS = """
    SELECT e.id, e.name, e.game, e.rounds,
           (SELECT COUNT(*) FROM event_rounds r WHERE r.event_id = e.id) AS seated,
           (SELECT COUNT(*) FROM event_rounds r WHERE r.event_id = e.id
                AND r.locked_at IS NOT NULL) AS locked,
           MAX(e.created_at,
               COALESCE((SELECT MAX(r.seated_at) FROM event_rounds r WHERE r.event_id = e.id), ''),
               COALESCE((SELECT MAX(x.updated_at) FROM event_results x
                         WHERE x.event_id = e.id), '')) AS played_at
    FROM events e WHERE e.id IN (SELECT value FROM json_each(?))"""


def listing(db: sqlite_utils.Database, secret: str | None, limit: int = SHOWN) -> Places:
    """The phone's places, its events first, then its tables, each newest played first: at
    most `limit` of each, each one the phone may still open (its row at the table or event
    is there), and the count of all."""
    if not secret:
        return Places([], 0)
    refs: dict[str, list[str]] = {TABLE: [], EVENT: [], GROUP: []}
    for place, sealed in db.execute("SELECT place, sealed FROM phone_places WHERE owner = ?"
                                    " AND hidden = 0", [owner_of(secret)]).fetchall():
        opened = _unseal(secret, place, sealed)
        if opened is not None:
            refs[opened[0]].append(opened[1])
    rows = []
    if refs[TABLE]:
        rows += [(TABLE, r) for r in db.execute(_TABLES, [json.dumps(refs[TABLE])]).fetchall()]
    if refs[EVENT]:
        rows += [(EVENT, r) for r in db.execute(_EVENTS, [json.dumps(refs[EVENT])]).fetchall()]
    if not rows:
        return Places([], 0)
    rows.sort(key=lambda kr: (kr[1]["played_at"] or "", kr[1]["id"]), reverse=True)
    # Events first, each kind up to `limit`: a director who opened a hundred of an event's
    # tables still finds the event itself at the top, not pushed off by its own tables.
    rows.sort(key=lambda kr: kr[0] != EVENT)
    shown: list[Place] = []
    gone = 0
    taken = {TABLE: 0, EVENT: 0}
    for kind, row in rows:
        if taken[kind] == limit:
            continue
        place = _table(db, secret, row) if kind == TABLE else _event(db, secret, row)
        if place is None:
            gone += 1
        else:
            shown.append(place)
            taken[kind] += 1
    return Places(shown, len(rows) - gone)


def _table(db, secret: str, row) -> Place | None:
    phone = db.execute("SELECT seat FROM phones WHERE secret_hash = ? AND table_id = ?",
                       [tokens.phone_hash(secret, row["id"]), row["id"]]).fetchone()
    if phone is None:
        return None
    seats = db.execute("SELECT pos, name FROM seats WHERE table_id = ? ORDER BY pos",
                       [row["id"]]).fetchall()
    names = [s["name"] for s in seats]
    seat = phone["seat"]
    if seat is None:
        role = "watch"
    elif row["event_id"] is None and seat == row["host_seat"]:
        role = "host"
    else:
        role = "seat"
    totals, winners = _score(db, row, names)
    return Place(kind=TABLE, ref=row["id"], game=row["game"], role=role,
                 played_at=row["played_at"],
                 finished=row["status"] == "over" or row["retired_at"] is not None,
                 names=names, totals=totals, winners=winners,
                 me=names[seat] if seat is not None and 0 <= seat < len(names) else None)


def _score(db, row, names: list[str]) -> tuple[list, list]:
    """The current game's totals and winners, from this process's fold or the stored one
    (never a replay: a table without a current stored fold shows its players only)."""
    key = (row["id"], row["version"])
    hit = _lines.get(key)
    if hit is not None:
        return hit
    result = folds.cached(row["id"], row["version"])
    summary = result.summary if result is not None else None
    if summary is None:
        stored = db.execute("SELECT game FROM table_folds WHERE table_id = ?",
                            [row["id"]]).fetchone()
        loaded = folds.load_game(stored[0], names, [], 0) if stored is not None else None
        summary = loaded.summary if loaded is not None else None
    if summary is None:
        # No entry yet (nothing stored), or a fold stored for other names: the players only.
        return [], []
    labels = summary.get("team_names") or {}
    totals = [(labels.get(k, k), v) for k, v in (summary.get("totals") or {}).items()]
    winners = [labels.get(w, w) for w in summary.get("winners") or []]
    _lines.put(key, (totals, winners))
    return totals, winners


def _event(db, secret: str, row) -> Place | None:
    from companion.events.event import director_hash, pass_hash  # events build on tables

    event_id = row["id"]
    director = db.execute("SELECT 1 FROM event_directors WHERE secret_hash = ? AND event_id = ?"
                          " AND revoked_at IS NULL",
                          [director_hash(secret, event_id), event_id]).fetchone()
    player = db.execute("SELECT entrant, member FROM event_passes WHERE secret_hash = ? AND"
                        " event_id = ?", [pass_hash(secret, event_id), event_id]).fetchone()
    if director is None and player is None:
        return None
    count = db.execute("SELECT COUNT(*) FROM event_entrants WHERE event_id = ? AND dropped = 0",
                       [event_id]).fetchone()[0]
    return Place(kind=EVENT, ref=event_id, game=row["game"],
                 role="director" if director is not None else "player",
                 played_at=row["played_at"],
                 finished=row["rounds"] > 0 and row["locked"] >= row["rounds"],
                 names=[str(count)], title=row["name"],
                 me=(player["member"] or player["entrant"]) if player is not None else None,
                 round=row["seated"], rounds=row["rounds"])


def find_older(db: sqlite_utils.Database, secret: str | None) -> None:
    """List the phone's places at the tables and events that were there before this list
    was kept (migration m015), once per phone: their rows hold only scoped hashes, so each
    is tried with this phone's identity. Tables and events made since are listed as the
    phone joins them."""
    if not secret:
        return
    bounds = dict(db.execute("SELECT kind, last_rowid FROM phone_places_older").fetchall())
    if not bounds:
        return      # an install that began with the list: nothing older to find
    owner = owner_of(secret)
    if db.execute("SELECT 1 FROM phone_places_scanned WHERE owner = ?",
                  [owner]).fetchone() is not None:
        return
    from companion.events.event import director_hash, pass_hash

    found: list[tuple[str, str, str]] = []
    table_ids = [r[0] for r in db.execute("SELECT id FROM tables WHERE rowid <= ?",
                                          [bounds.get(TABLE, 0)]).fetchall()]
    for start in range(0, len(table_ids), _CHUNK):
        hashes = [tokens.phone_hash(secret, tid) for tid in table_ids[start:start + _CHUNK]]
        marks = ",".join("?" * len(hashes))
        found += [(TABLE, r[0], r[1]) for r in db.execute(
            f"SELECT table_id, seen_at FROM phones WHERE secret_hash IN ({marks})",
            hashes).fetchall()]
    event_ids = [r[0] for r in db.execute("SELECT id FROM events WHERE rowid <= ?",
                                          [bounds.get(EVENT, 0)]).fetchall()]
    for start in range(0, len(event_ids), _CHUNK):
        chunk = event_ids[start:start + _CHUNK]
        directors = [director_hash(secret, eid) for eid in chunk]
        passes = [pass_hash(secret, eid) for eid in chunk]
        found += [(EVENT, r[0], r[1]) for r in db.execute(
            f"SELECT event_id, created_at FROM event_directors WHERE revoked_at IS NULL AND"
            f" secret_hash IN ({','.join('?' * len(directors))}) UNION ALL SELECT event_id,"
            f" created_at FROM event_passes WHERE secret_hash IN ({','.join('?' * len(passes))})",
            directors + passes).fetchall()]
    found.sort(key=lambda place: place[2] or "")       # the phone's oldest first
    with transaction(db):
        cur = db.execute("INSERT OR IGNORE INTO phone_places_scanned (owner) VALUES (?)",
                         [owner])
        if cur.rowcount == 0:
            return      # another request of this phone got here first
        for kind, ref, _seen in found:
            note(db, secret, kind, ref)
