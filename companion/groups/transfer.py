"""Bringing a group's games from another server: ``/g/<id>/games.csv`` read back
(:data:`records.CSV_COLUMNS`, docs/GROUPS.md) into a group here. Each row becomes a
record of the group as the export showed it (players, teams, scores, winners, settings,
when); the game's own figures (Rook's bids...) need its hands, which the CSV doesn't
carry, so an imported game counts in the figures every game has. The whole file is read
and checked before anything is written: a bad row refuses the file (400, naming the
row), and nothing changes.
"""
from __future__ import annotations

import csv
import io
import json
from datetime import datetime

import sqlite_utils

from companion import stats
from companion.stats.core import check_record, lowest_wins, sides
from companion.rules import GAMES
from companion.rules.game import MAX_NAME_LENGTH, clean_name
from companion.rules.text import join_names
from companion.rules.said import N_, message
from companion.storage import transaction
from companion.tables.errors import TableError

from .group import add_players, audit, require_phone
from .records import CSV_COLUMNS, _facts, _Kept, _kept

#: The most games one file may bring (a bigger group imports in parts).
MAX_ROWS = 5000
#: Where an imported game's table id starts: no table here has it, so the record never
#: meets a live table's writes.
IMPORTED = "csv:"


def _bad(row: int, text: str) -> TableError:
    return TableError(message("groups", "Row {row} of the file: {problem}", row=row,
                              problem=text), status=400)


def _name(cell: str, row: int) -> str:
    """A name as the export wrote it: the apostrophe that kept a spreadsheet from reading a
    formula comes off."""
    cell = cell.strip()
    if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@"):
        cell = cell[1:]
    name = clean_name(cell)
    if not name or len(name) > MAX_NAME_LENGTH:
        raise _bad(row, message("groups", "a player's name is empty or longer than {n} "
                                "characters.", n=MAX_NAME_LENGTH))
    return name


def _names(cell: str, row: int) -> list[str]:
    return [_name(part, row) for part in cell.split(" | ")] if cell.strip() else []


def _when(cell: str, row: int) -> str:
    try:
        datetime.fromisoformat(cell.strip())
    except ValueError:
        raise _bad(row, message("groups", "a date isn't an ISO 8601 date and time.")) from None
    return cell.strip()


def _score(cell: str, row: int) -> int | float:
    try:
        value = float(cell.strip())
    except ValueError:
        raise _bad(row, message("groups", "a score isn't a number.")) from None
    if value != value or value in (float("inf"), float("-inf")) or abs(value) > 10**9:
        raise _bad(row, message("groups", "a score isn't a number."))
    return int(value) if value.is_integer() else value


def read_csv(text: str) -> list[dict]:
    """The games of a ``games.csv`` file, each a record as ``games.json`` gives it (its
    ``id`` the record's id on the other server); `TableError` (400) for a file that isn't
    one, naming the first row that can't be read."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise TableError(N_("That file is empty."), status=400) from None
    except csv.Error:
        header = []
    if tuple(h.strip().lstrip("\ufeff") for h in header) != CSV_COLUMNS:
        raise TableError(N_("That file isn't a group's games.csv: its first row should name "
                            "the columns the group's CSV has."), status=400)
    out = []
    try:
        for row_no, cells in enumerate(reader, start=2):
            if not any(c.strip() for c in cells):
                continue
            if len(out) >= MAX_ROWS:
                raise TableError(message("groups", "A file may bring at most {n} games.",
                                         n=MAX_ROWS), status=400)
            out.append(_row(dict(zip(CSV_COLUMNS, cells)), len(cells), row_no))
    except csv.Error:
        raise TableError(N_("That file isn't a group's games.csv."), status=400) from None
    return out


def _row(cells: dict, width: int, row: int) -> dict:
    if width != len(CSV_COLUMNS):
        raise _bad(row, message("groups", "it doesn't have the group's columns."))
    slug = cells["game"].strip()
    if slug not in GAMES:
        raise _bad(row, message("groups", "it names no game this server has."))
    try:
        source_id = int(cells["id"])
        settings = json.loads(cells["settings"] or "{}")
    except ValueError:
        raise _bad(row, message("groups", "its id or its house rules can't be "
                                "read.")) from None
    if not isinstance(settings, dict) or source_id <= 0 or source_id >= 2**53:
        raise _bad(row, message("groups", "its id or its house rules can't be read."))
    players = _names(cells["players"], row)
    teams = None
    if cells["teams"].strip():
        teams = [[_name(n, row) for n in team.split(" & ")]
                 for team in cells["teams"].split(" | ")]
    scores = {}
    for pair in cells["scores"].split(" | ") if cells["scores"].strip() else []:
        key, sep, value = pair.rpartition(": ")
        if not sep:
            raise _bad(row, message("groups", "a score isn't written as “name: total”."))
        label = key.strip()
        if label[:1] == "'" and label[1:2] in ("=", "+", "-", "@"):
            label = label[1:]
        scores[label] = _score(value, row)
    record = {"id": source_id, "game": slug, "started_at": _when(cells["started_at"], row),
              "finished_at": _when(cells["finished_at"], row),
              "table_id": cells["table_id"].strip()[:64], "players": players, "teams": teams,
              "scores": scores, "winners": _names(cells["winners"], row),
              "settings": settings}
    try:
        check_record(record)
    except ValueError:
        raise _bad(row, message("groups", "its players, teams and winners don't fit "
                                "together.")) from None
    if not set(record["winners"]) <= set(players):
        raise _bad(row, message("groups", "its players, teams and winners don't fit "
                                "together."))
    return record


def import_games(db: sqlite_utils.Database, group_id: str, secret: str | None,
                 text: str) -> tuple[int, int]:
    """A phone of the group brings the games of a ``games.csv`` into it: their players
    join the group by name, each game is recorded (table id ``csv:<its table id there>``)
    and folded into the kept statistics, in one transaction, audited. A game this group
    already brought (the same file again) is skipped. Returns (games added, skipped)."""
    require_phone(db, group_id, secret)
    games = read_csv(text)
    added = skipped = 0
    with transaction(db):
        _group, me = require_phone(db, group_id, secret)
        kept = _kept(db, group_id)
        for g in games:
            table_id, game_no = IMPORTED + g["table_id"], -g["id"]
            if db.execute("SELECT 1 FROM group_games WHERE table_id = ? AND game_no = ?",
                          [table_id, game_no]).fetchone() is not None:
                skipped += 1
                continue
            _insert(db, group_id, table_id, game_no, g, kept, me.n)
            added += 1
        kept.save()
        audit(db, group_id, "import", me.n, None, {"games": added, "skipped": skipped})
    return added, skipped


def _insert(db, group_id: str, table_id: str, game_no: int, g: dict, kept: _Kept,
            phone: int) -> None:
    summary: dict = {}
    game_id = db.execute(
        "INSERT INTO group_games (group_id, table_id, game_no, game, settings, started_at,"
        " finished_at, players, teams, scores, winners, lower_wins, summary, facts)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        [group_id, table_id, game_no, g["game"], json.dumps(g["settings"]), g["started_at"],
         g["finished_at"], json.dumps(g["players"]),
         json.dumps(g["teams"]) if g["teams"] is not None else None, json.dumps(g["scores"]),
         json.dumps(g["winners"]), int(lowest_wins(g)), json.dumps(summary),
         json.dumps(_facts(g["game"], summary))]).fetchone()[0]
    kept.fold(db.execute("SELECT * FROM group_games WHERE id = ?", [game_id]).fetchone(), 1)
    # The names as the file wrote them: one a player here was merged away from becomes a
    # player again (to merge again), never two seats of one player.
    ids = add_players(db, group_id, g["players"], phone, aliases=False)
    team_of = {}
    for index, team in enumerate(g["teams"] or []):
        for name in team:
            team_of[name] = chr(ord("A") + index)
    side_of = {p: s for s in sides(g) for p in s["players"]}
    for seat, name in enumerate(g["players"]):
        score = side_of[name]["score"]
        db.execute("INSERT INTO group_game_players (game_id, group_id, player_id, seat, team,"
                   " score, place, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [game_id, group_id, ids[name], seat, team_of.get(name),
                    score if isinstance(score, (int, float)) else None, None,
                    int(name in g["winners"])])


def rename_record(record: dict, old: str, new: str) -> dict:
    """An imported game's record with player `old` called `new` (a merge): players,
    teams, winners, and the scores' keys (a team's label rebuilt from its players)."""
    out = dict(record)
    out["players"] = [new if p == old else p for p in record["players"]]
    out["winners"] = [new if p == old else p for p in record["winners"]]
    scores = dict(record["scores"])
    if record.get("teams"):
        out["teams"] = [[new if p == old else p for p in team] for team in record["teams"]]
        for team, renamed_team in zip(record["teams"], out["teams"]):
            if old not in team:
                continue
            for joined, again in ((str(join_names(team, "&")), str(join_names(renamed_team, "&"))),
                                  (" & ".join(team), " & ".join(renamed_team))):
                if joined in scores:
                    scores[again] = scores.pop(joined)
    if old in scores:
        scores[new] = scores.pop(old)
    out["scores"] = scores
    return out
