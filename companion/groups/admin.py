"""Looking after a group's record: merging two players who are the same person, deleting
a game from the record, deleting the whole group. Each is confirmed on a page of its own
first (companion/web/groups.py), runs in one transaction and is audited; bad input
raises `TableError` (a plain 4xx) and changes nothing.

Who may do what: any phone of the group merges players and deletes a game (the group's
phones already see and rename everything in it); only the phone that made the group
deletes the group.
"""
from __future__ import annotations

import json
from types import SimpleNamespace

import sqlite_utils

from companion.clock import now
from companion.rules.game import name_key
from companion.rules.said import N_, message, revived, storable
from companion.storage import transaction
from companion.tables import tokens
from companion.tables.errors import Forbidden, NotFound, TableError

from .group import Player, audit, require_phone
from .records import FROM_ACTIONS, _game, _Kept, _write, rebuild_stats, renamed
from .transfer import IMPORTED, rename_record


def _player_row(db, group_id: str, player_id: int):
    if not 0 < player_id < 2**31:
        return None
    return db.execute("SELECT id, name, merged_into FROM group_players WHERE group_id = ?"
                      " AND id = ?", [group_id, player_id]).fetchone()


def merge_preview(db: sqlite_utils.Database, group_id: str, secret: str | None,
                  from_id: int, into_id: int) -> tuple[Player, Player, int]:
    """What merging player `from_id` into `into_id` would do: the two players and how
    many recorded games of the first would count for the second. `TableError` when the
    merge can't be done (the same refusals as :func:`merge_players`)."""
    require_phone(db, group_id, secret)
    src, dst, game_ids = _mergeable(db, group_id, from_id, into_id)
    return Player(src["id"], src["name"]), Player(dst["id"], dst["name"]), len(game_ids)


def _mergeable(db, group_id: str, from_id: int, into_id: int):
    """The two players' rows and the ids of the games the first played; `TableError` for a
    merge that can't be done."""
    if from_id == into_id:
        raise TableError(N_("A player can't be merged into themself. Pick the other "
                            "player, the one they are the same person as."), status=422)
    src, dst = _player_row(db, group_id, from_id), _player_row(db, group_id, into_id)
    if src is None or dst is None:
        raise NotFound(N_("There is no such player in the group."))
    if src["merged_into"] is not None:
        raise TableError(message("groups", "{name} was already merged into another player.",
                                 name=src["name"]), status=409)
    if dst["merged_into"] is not None:
        raise TableError(message("groups", "{name} was merged into another player: merge "
                                 "into that player instead.", name=dst["name"]), status=409)
    shared = db.execute("SELECT 1 FROM group_game_players a JOIN group_game_players b ON"
                        " a.game_id = b.game_id WHERE a.group_id = ? AND a.player_id = ?"
                        " AND b.player_id = ? LIMIT 1",
                        [group_id, from_id, into_id]).fetchone()
    if shared is not None:
        raise TableError(message("groups", "{a} and {b} played in the same game, so they "
                                 "can't be the same person.", a=src["name"], b=dst["name"]),
                         status=409)
    game_ids = [r[0] for r in db.execute(
        "SELECT DISTINCT game_id FROM group_game_players WHERE group_id = ? AND"
        " player_id = ? ORDER BY game_id", [group_id, from_id]).fetchall()]
    return src, dst, game_ids


class _NoTotal(_Kept):
    """A merge rewrites records without folding each: the total is built again after."""

    def fold(self, row, sign: int) -> None:
        return None


def merge_players(db: sqlite_utils.Database, group_id: str, secret: str | None,
                  from_id: int, into_id: int) -> tuple[Player, int]:
    """A phone of the group merges player `from_id` into `into_id` (the same person):
    every recorded game of the first now names the second (seat names, teams, scores,
    winners, the final summary and its facts), the first is kept as merged (its name
    later recorded as the second's), the group's statistics are built again from the
    records, and the merge is audited. Returns the player kept and how many games moved.
    Refused, changing nothing: a player into themself (422), a player not in this group
    (404), either already merged (409), two players who played in the same game (409)."""
    with transaction(db):
        _group, me = require_phone(db, group_id, secret)
        src, dst, game_ids = _mergeable(db, group_id, from_id, into_id)
        kept = _NoTotal(db)
        for game_id in game_ids:
            row = db.execute("SELECT * FROM group_games WHERE id = ?", [game_id]).fetchone()
            seats = db.execute("SELECT seat, player_id FROM group_game_players WHERE"
                               " game_id = ? ORDER BY seat", [game_id]).fetchall()
            if row["table_id"].startswith(IMPORTED):
                _rename_imported(db, row, from_id, into_id, dst["name"])
                continue
            names, summary = json.loads(row["players"]), revived(json.loads(row["summary"]))
            ids = {}
            for seat, pid in seats:
                if seat < len(names):
                    ids[names[seat]] = pid
            [old] = [names[s] for s, pid in seats if pid == from_id and s < len(names)]
            facts = None
            if row["game"] in FROM_ACTIONS and row["facts"]:
                # Read from the table's log, which names the merged player as they sat:
                # the stored facts renamed, not read again.
                facts = renamed(names, json.loads(row["facts"]), old, dst["name"])[1]
            names, summary = renamed(names, summary, old, dst["name"])
            ids = {(dst["name"] if n == old else n): (into_id if p == from_id else p)
                   for n, p in ids.items()}
            table = SimpleNamespace(id=row["table_id"], group_id=group_id,
                                    game_slug=row["game"], settings=json.loads(row["settings"]))
            try:
                _write(db, table, names, row["game_no"], summary, row["started_at"],
                       row["finished_at"], kept, ids=ids, facts=facts)
            except (KeyError, TypeError, ValueError, AttributeError):
                # A name that is also a word of the game's own record (a team called "A"):
                # renamed, the record no longer reads. The transaction rolls back.
                raise TableError(message("groups", "{a} can't be merged automatically: the "
                                         "name is also a word the game's record uses.",
                                         a=src["name"]), status=409) from None
        db.execute("UPDATE group_players SET merged_into = ? WHERE group_id = ? AND"
                   " (id = ? OR merged_into = ?)", [into_id, group_id, from_id, from_id])
        rebuild_stats(db, group_id)
        audit(db, group_id, "merge", me.n, {"id": from_id, "name": src["name"]},
              {"id": into_id, "name": dst["name"], "games": len(game_ids)})
    return Player(dst["id"], dst["name"]), len(game_ids)


def rename_in_records(db: sqlite_utils.Database, group_id: str, player_id: int, old: str,
                      new: str) -> int:
    """Inside the caller's write transaction (a rename): every recorded game player
    `player_id` sat in is rewritten with `old` called `new` (seat names, teams, scores,
    winners, the final summary and the stored facts, so Rocca's facts from the log stay
    whole), the group's total is built again, and the old name is kept as an alias of the
    player (a row merged into them), so a live table still seating `old` records its later
    games under `new`. Returns how many (not deleted) games were rewritten."""
    count = 0
    rows = db.execute("SELECT g.*, p.seat FROM group_games g JOIN group_game_players p ON"
                      " p.game_id = g.id WHERE p.group_id = ? AND p.player_id = ?",
                      [group_id, player_id]).fetchall()
    for row in rows:
        record = _game(row)
        seated = record["players"][row["seat"]] if row["seat"] < len(record["players"]) \
            else old
        record = rename_record(record, seated, new)
        try:
            summary = revived(json.loads(row["summary"]))
            facts = json.loads(row["facts"]) if row["facts"] else None
        except (TypeError, ValueError):
            summary, facts = None, None
        names = json.loads(row["players"])
        if isinstance(summary, dict):
            _names, summary = renamed(names, summary, seated, new)
        if isinstance(facts, dict):
            _names, facts = renamed(names, facts, seated, new)
        db.execute("UPDATE group_games SET players = ?, teams = ?, scores = ?, winners = ?,"
                   " summary = ?, facts = ? WHERE id = ?",
                   [json.dumps(record["players"]),
                    json.dumps(record["teams"]) if record["teams"] is not None else None,
                    json.dumps(record["scores"]), json.dumps(record["winners"]),
                    json.dumps(storable(summary), default=str) if summary is not None
                    else row["summary"],
                    json.dumps(facts) if facts is not None else row["facts"], row["id"]])
        count += not row["deleted_at"]
    old_key = name_key(old)
    if old_key != name_key(new) and db.execute(
            "SELECT 1 FROM group_players WHERE group_id = ? AND key = ? AND merged_into = ?",
            [group_id, old_key, player_id]).fetchone() is None:
        pid = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM group_players WHERE"
                         " group_id = ?", [group_id]).fetchone()[0]
        db.execute("INSERT INTO group_players (group_id, id, name, key, created_at,"
                   " merged_into) VALUES (?, ?, ?, ?, ?, ?)",
                   [group_id, pid, old, old_key, now(), player_id])
    rebuild_stats(db, group_id)
    return count


def _rename_imported(db, row, from_id: int, into_id: int, new: str) -> None:
    """A merge at a game brought from a CSV (no summary to rewrite): its record's names,
    and its seat rows' player."""
    record = _game(row)
    [seat] = [s for (s,) in db.execute("SELECT seat FROM group_game_players WHERE game_id = ?"
                                       " AND player_id = ?", [row["id"], from_id]).fetchall()]
    old = record["players"][seat]
    record = rename_record(record, old, new)
    db.execute("UPDATE group_games SET players = ?, teams = ?, scores = ?, winners = ?"
               " WHERE id = ?",
               [json.dumps(record["players"]),
                json.dumps(record["teams"]) if record["teams"] is not None else None,
                json.dumps(record["scores"]), json.dumps(record["winners"]), row["id"]])
    db.execute("UPDATE group_game_players SET player_id = ? WHERE game_id = ? AND"
               " player_id = ?", [into_id, row["id"], from_id])


def game_row(db: sqlite_utils.Database, group_id: str, secret: str | None, game_id: int):
    """A recorded game of the group (not deleted), for a phone of the group; `NotFound`
    for any other id."""
    require_phone(db, group_id, secret)
    row = None
    if 0 < game_id < 2**63:
        row = db.execute("SELECT * FROM group_games WHERE id = ? AND group_id = ? AND"
                         " deleted_at IS NULL", [game_id, group_id]).fetchone()
    if row is None:
        raise NotFound(N_("That game isn't in the group's record."))
    return row


def delete_game(db: sqlite_utils.Database, group_id: str, secret: str | None,
                game_id: int) -> None:
    """A phone of the group deletes a recorded game: it leaves the group's games and its
    statistics in the same transaction (audited with what it was). The row stays, marked
    deleted, so the table's later writes (an edit, an undone and replayed last hand) never
    record that game again."""
    with transaction(db):
        _group, me = require_phone(db, group_id, secret)
        row = game_row(db, group_id, secret, game_id)
        kept = _Kept(db)
        kept.fold(row, -1)
        db.execute("UPDATE group_games SET deleted_at = ? WHERE id = ?", [now(), game_id])
        kept.save()
        audit(db, group_id, "delete_game", me.n,
              {"id": game_id, "game": row["game"], "table": row["table_id"],
               "finished_at": row["finished_at"], "players": json.loads(row["players"]),
               "winners": json.loads(row["winners"])}, None)


def group_size(db: sqlite_utils.Database, group_id: str) -> int:
    """How many recorded games (not deleted) the group holds: what deleting it removes."""
    return db.execute("SELECT COUNT(*) FROM group_games WHERE group_id = ? AND deleted_at IS"
                      " NULL", [group_id]).fetchone()[0]


def delete_group(db: sqlite_utils.Database, group_id: str, secret: str | None) -> int:
    """The phone that made the group deletes it: its records, players, phones, statistics
    and audit log go; its tables play on, recording nowhere; its link stops working and
    it leaves every phone's start page. What stays is a tombstone (the id, no name) and
    one audit row saying which phone deleted it, when, and how many games, players and
    phones went. Returns how many games were deleted. 403 for any other phone."""
    with transaction(db):
        _group, me = require_phone(db, group_id, secret)
        if not me.creator:
            raise Forbidden(N_("Only the phone that made the group can delete it."))
        counts = {t: db.execute(f"SELECT COUNT(*) FROM {t} WHERE group_id = ?",   # noqa: S608
                                [group_id]).fetchone()[0]
                  for t in ("group_games", "group_players", "group_phones")}
        games = group_size(db, group_id)
        db.execute("UPDATE tables SET group_id = NULL WHERE group_id = ?", [group_id])
        db.execute("UPDATE events SET group_id = NULL WHERE group_id = ?", [group_id])
        for table in ("group_game_players", "group_games", "group_stats", "group_players",
                      "group_phones", "group_audit"):
            db.execute(f"DELETE FROM {table} WHERE group_id = ?", [group_id])  # noqa: S608
        stamp = now()
        db.execute("UPDATE groups SET name = '', token = ?, deleted_at = ? WHERE id = ?",
                   [tokens.new_token(), stamp, group_id])
        audit(db, group_id, "delete_group", me.n, None,
              {"games": games, "records": counts["group_games"],
               "players": counts["group_players"], "phones": counts["group_phones"]})
    return games


__all__ = ["rename_in_records", "merge_players", "merge_preview", "delete_game", "game_row",
           "group_size",
           "delete_group"]
