"""A group's recorded games: every game finished at a table of the group, written in the
same transaction as the entry that finished it (:func:`record_table`, called by the
table's write paths), so the record follows the sheet as an event's results do: an undone
or edited last hand rewrites the record or removes it, until a rematch moves the table on
(the finished game is then one of the table's past games and its record stays).

What a record keeps is the game's own verdict (:meth:`Game.outcome_of
<companion.rules.game.Game.outcome_of>` under the table's house rules): totals, places,
winners and the direction, plus the final summary for figures computed later.
"""
from __future__ import annotations

import csv
import io
import json
from collections import OrderedDict
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import sqlite_utils

from companion import stats
from companion.clock import now
from companion.rules import find_game
from companion.rules.game import name_key
from companion.rules.said import N_, revived, storable
from companion.rules.text import join_names
from companion.tables.errors import NotFound
from companion.tables.fold import edits

from .group import add_players

#: The columns of ``/g/<id>/games.csv``, one row per recorded game (docs in
#: docs/GROUPS.md): lists are joined with " | ", teams as "Ann & Cid | Bob & Dee", scores
#: as "name: total" pairs.
CSV_COLUMNS = ("id", "game", "started_at", "finished_at", "minutes", "table_id", "players",
               "teams", "scores", "winners", "settings")


def _started_at(db, table_id: str, game_start: int) -> str:
    """When the table's current game began: the rematch that began it, else the table's
    opening."""
    if game_start:
        row = db.execute("SELECT created_at FROM actions WHERE table_id = ? AND seq = ?",
                         [table_id, game_start]).fetchone()
        if row is not None:
            return row[0]
    row = db.execute("SELECT COALESCE(opened_at, created_at) FROM tables WHERE id = ?",
                     [table_id]).fetchone()
    return row[0] if row is not None else now()


def _teams(summary: dict, names: list[str]) -> dict[str, list[str]] | None:
    teams = summary.get("teams")
    if isinstance(teams, dict) and teams and all(isinstance(v, list) for v in teams.values()):
        return {str(k): [str(n) for n in v] for k, v in teams.items()}
    seat_teams = summary.get("seat_teams")
    if isinstance(seat_teams, list) and len(seat_teams) == len(names) and any(seat_teams):
        out: dict[str, list[str]] = {}
        for name, team in zip(names, seat_teams):
            out.setdefault(str(team), []).append(name)
        return out
    return None


def record_table(db: sqlite_utils.Database, table, names: list[str], result) -> None:
    """Inside the write transaction that stored `result` (the table's fold): bring the
    group's record of the table's current game in line with its sheet. A finished game is
    recorded (or its record rewritten: an edited last hand); a game not finished has no
    record (an undone last hand takes it away). Past games keep theirs, and so do a
    match's finished games while its next is played (:data:`IN_MATCH`)."""
    group_id = getattr(table, "group_id", None)
    if not group_id:
        return
    # A group deleted since the table was read: the table no longer records anywhere.
    if db.execute("SELECT 1 FROM groups WHERE id = ? AND deleted_at IS NULL",
                  [group_id]).fetchone() is None:
        return
    kept = _kept(db, group_id)
    _record(db, table, names, result, group_id, kept)
    kept.save()


def _kept(db, group_id: str) -> "_Kept":
    """The running totals a write is about to change. A group with no stored total yet has
    it built now, before the write changes its records, so the write's fold counts once."""
    kept = _Kept(db)
    if db.execute("SELECT 1 FROM group_stats WHERE group_id = ?",
                  [group_id]).fetchone() is None:
        kept.totals[group_id] = _load(db, group_id)
    return kept


#: Games a table plays one after another inside one of its games (a match: Rocca deals
#: the next game with "new game", no rematch between them; RULES.md §ROC-9 ends each one).
#: Each finished game of the match is a record of its own, stored as game
#: ``n * MATCH_GAMES + k`` of its table: game k of the match that is the table's game n.
#: The numbers keep the table's order, so "every record after this one" stays a range.
IN_MATCH = frozenset({"rocca"})
MATCH_GAMES = 1_000_000


def _stored_no(slug: str, n: int, summary: dict) -> int:
    """The record number of the table's game `n` as `summary` stands: `n`, or for a game
    played in a match, the match's last finished game (its summary's ``games``: the
    current one once over; 0 while the first is played)."""
    if slug not in IN_MATCH:
        return n
    return n * MATCH_GAMES + len(summary.get("games") or ())


def table_game_no(stored: int) -> int:
    """The table's game (1 = its first) a record number belongs to."""
    return stored // MATCH_GAMES if stored >= MATCH_GAMES else stored


def shown_game_no(stored: int) -> int:
    """A record's number as a page shows it: the game at its table, or in its match."""
    return stored % MATCH_GAMES if stored >= MATCH_GAMES else stored


def _record(db, table, names: list[str], result, group_id: str, kept: "_Kept") -> None:
    summary = result.summary or {}
    n = len(result.past_games) + 1
    game_no = _stored_no(table.game_slug, n, summary)
    # A game brought back by an undone rematch is this number again: later ones go. A
    # record deleted from the group's games stays (deleted) in its place, so the table's
    # later writes, finishing that game again, never bring it back.
    for row in db.execute("SELECT * FROM group_games WHERE table_id = ? AND game_no > ?"
                          " AND deleted_at IS NULL", [table.id, game_no]).fetchall():
        kept.fold(row, -1)
    db.execute("DELETE FROM group_games WHERE table_id = ? AND game_no > ? AND deleted_at"
               " IS NULL", [table.id, game_no])
    if not summary.get("over"):
        if table.game_slug in IN_MATCH:
            # The match's next game is being played: the finished ones keep their records
            # (an undone last play took its game's away above).
            return
        row = db.execute("SELECT * FROM group_games WHERE table_id = ? AND game_no = ?",
                         [table.id, game_no]).fetchone()
        if row is not None and not row["deleted_at"]:
            kept.fold(row, -1)
            db.execute("DELETE FROM group_games WHERE id = ?", [row["id"]])
        return
    row = db.execute("SELECT started_at, finished_at FROM group_games WHERE table_id = ?"
                     " AND game_no = ?", [table.id, game_no]).fetchone()
    before = None
    if row is None and game_no > n * MATCH_GAMES + 1:
        # A match's later game began when the one before it ended.
        before = db.execute("SELECT finished_at FROM group_games WHERE table_id = ? AND"
                            " game_no = ?", [table.id, game_no - 1]).fetchone()
    started = row["started_at"] if row is not None else before[0] if before is not None \
        else _started_at(db, table.id, result.game_start)
    finished = row["finished_at"] if row is not None else now()
    _write(db, table, names, game_no, summary, started, finished, kept,
           result.past_games[-1] if result.past_games else None)


def record_past_games(db: sqlite_utils.Database, table, names: list[str],
                      past_games: list[dict], kept: "_Kept | None" = None) -> int:
    """Inside the caller's write transaction: record the finished ones among `past_games`
    (a table's fold's earlier games, oldest first) as games 1, 2, ... of the table, for a
    table that joins a group after they were played. Each began when the one before it
    ended (the first, when the table opened) and ended at its rematch (``ended_at``). A
    game already recorded is rewritten in place. Returns how many were recorded."""
    if not getattr(table, "group_id", None):
        return 0
    own = kept is None
    kept = _kept(db, table.group_id) if own else kept
    opened = _started_at(db, table.id, 0)
    started, recorded = opened, 0
    for game_no, summary in enumerate(past_games, start=1):
        finished = (summary or {}).get("ended_at") or now()
        if (summary or {}).get("over"):
            _write(db, table, names, _stored_no(table.game_slug, game_no, summary), summary,
                   started, finished, kept, past_games[game_no - 2] if game_no > 1 else None)
            recorded += 1
        started = finished
    if own:
        kept.save()
    return recorded


def record_sheet(db: sqlite_utils.Database, table, names: list[str], sheet) -> int:
    """Inside the caller's write transaction, for a table that has just joined a group:
    record its finished games as they stand on `sheet` (:class:`companion.tables.Sheet`),
    the earlier ones (:func:`record_past_games`) and the current one if it is over (begun
    when the last earlier game ended; finished now). From then on the table's writes keep
    the current game's record in step (:func:`record_table`). Returns how many."""
    if not getattr(table, "group_id", None):
        return 0
    kept = _kept(db, table.group_id)
    recorded = record_past_games(db, table, names, sheet.past_games, kept)
    summary = sheet.summary or {}
    if summary.get("over"):
        past = sheet.past_games
        started = (past[-1].get("ended_at") if past else None) or _started_at(db, table.id, 0)
        _write(db, table, names, _stored_no(table.game_slug, len(past) + 1, summary),
               summary, started, now(), kept, past[-1] if past else None)
        recorded += 1
    kept.save()
    return recorded


def _write(db, table, names: list[str], game_no: int, summary: dict, started: str,
           finished: str, kept: "_Kept", previous: dict | None = None,
           ids: dict[str, int] | None = None, facts: dict | None = None) -> None:
    """Insert or rewrite the record of game `game_no` of the group's `table`, its group's
    running total following (`kept`). `previous`: the summary of the table's game before
    it (None for its first), from which the table folded this one. `ids`: each name's
    player id, when the caller knows them (a merge rewriting old records); else the names
    are matched to the group's players, a name merged into another player recorded as that
    player. `facts`: the game's facts when the caller has them (a merge renames the stored
    ones: a log still names the old player); else they are read now."""
    group_id = table.group_id
    summary = {k: v for k, v in summary.items() if k != "ended_at"}
    if ids is None:
        names, summary = _aliased(db, group_id, names, summary)
    game = find_game(table.game_slug)
    outcome = game.outcome_of(summary, table.settings)
    teams = _teams(summary, names) if getattr(game, "teams", False) else None
    labels = summary.get("team_names") or {}
    scores = {str(labels.get(k, k)): v for k, v in outcome.totals.items()}
    winners: list[str] = []
    for key in outcome.winners:
        if teams is not None and key in teams:
            winners += teams[key]
        else:
            winners.append(str(key))
    row = db.execute("SELECT * FROM group_games WHERE table_id = ? AND game_no = ?",
                     [table.id, game_no]).fetchone()
    if row is not None:
        kept.fold(row, -1)
    values = [group_id, table.id, game_no, game.slug, json.dumps(table.settings), started,
              finished, json.dumps(names),
              json.dumps(list(teams.values())) if teams is not None else None,
              json.dumps(scores), json.dumps(winners), int(outcome.lower_wins),
              json.dumps(storable(summary), default=str),
              json.dumps(facts if facts is not None
                         else _game_facts(db, table, names, game_no, summary, previous))]
    if row is None:
        game_id = db.execute(
            "INSERT INTO group_games (group_id, table_id, game_no, game, settings, started_at,"
            " finished_at, players, teams, scores, winners, lower_wins, summary, facts)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            values).fetchone()[0]
    else:
        game_id = row["id"]
        db.execute("UPDATE group_games SET group_id = ?, table_id = ?, game_no = ?, game = ?,"
                   " settings = ?, started_at = ?, finished_at = ?, players = ?, teams = ?,"
                   " scores = ?, winners = ?, lower_wins = ?, summary = ?, facts = ?"
                   " WHERE id = ?", values + [game_id])
        db.execute("DELETE FROM group_game_players WHERE game_id = ?", [game_id])
    kept.fold(db.execute("SELECT * FROM group_games WHERE id = ?", [game_id]).fetchone(), 1)
    # The names are already aliased (above): one still a merged player's shares the
    # table with the player it was merged into, so it is recorded as a player of its own.
    ids = ids if ids is not None else add_players(db, group_id, names, aliases=False)
    seat_team = {}
    if teams is not None:
        for key, members in teams.items():
            for name in members:
                seat_team[name] = key
    for seat, name in enumerate(names):
        key = seat_team.get(name, name)
        score = outcome.totals.get(key)
        db.execute("INSERT INTO group_game_players (game_id, group_id, player_id, seat, team,"
                   " score, place, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [game_id, group_id, ids[name], seat, seat_team.get(name),
                    score if isinstance(score, (int, float)) and not isinstance(score, bool)
                    else None, outcome.places.get(key), int(name in winners)])


#: Keys whose values are never a player's name (what kind of row, which game, which row
#: of a board, a rule id), so a rename leaves them be even when a name happens to match.
_NOT_NAMES = frozenset({"kind", "game", "how", "row", "rule", "rule_id", "status"})


def renamed(names: list[str], summary: dict, old: str, new: str) -> tuple[list[str], dict]:
    """A recorded game's seat names and final summary with player `old` called `new`
    everywhere the summary names them (list items, dict keys and values; team labels such
    as "Ann & Cid" rebuilt from their players)."""
    def walk(value, key=None):
        if isinstance(value, str):
            return new if value == old and key not in _NOT_NAMES else value
        if isinstance(value, dict):
            return {(new if k == old else k): walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        return value

    out = walk(summary)
    labels, teams = summary.get("team_names"), summary.get("teams")
    if isinstance(labels, dict) and isinstance(teams, dict):
        for team, members in teams.items():
            if isinstance(members, list) and old in members and \
                    labels.get(team) == str(join_names(members, "&")):
                out["team_names"][team] = str(join_names(out["teams"][team], "&"))
    return [new if n == old else n for n in names], out


def _aliased(db, group_id: str, names: list[str], summary: dict) -> tuple[list[str], dict]:
    """A game about to be recorded: a seat whose name is a player merged into another
    (the same person) is recorded under that player's name, unless that player sits at
    the table too."""
    rows = db.execute("SELECT id, name, key, merged_into FROM group_players WHERE"
                      " group_id = ?", [group_id]).fetchall()
    merged = {r["key"]: r["merged_into"] for r in rows if r["merged_into"] is not None}
    if not merged:
        return names, summary
    by_id = {r["id"]: r for r in rows}
    live = {r["key"] for r in rows if r["merged_into"] is None}
    for name in list(names):
        key = name_key(name)
        if key in live or key not in merged:
            continue
        target = by_id.get(merged[key])
        for _ in range(len(rows)):          # a chain of merges ends at a player kept
            if target is None or target["merged_into"] is None:
                break
            target = by_id.get(target["merged_into"])
        if target is None or any(name_key(n) == target["key"] for n in names):
            continue
        names, summary = renamed(names, summary, name, target["name"])
    return names, summary


def _facts(slug: str, summary: dict) -> dict:
    """The game's facts for its own figures, read once from its final summary. A summary
    the reader can't follow still records the game: its facts then carry the slug only
    (the common figures need no facts), rather than refusing the hand that finished it."""
    try:
        return stats.facts_of_summary(slug, summary)
    except (KeyError, TypeError, ValueError, AttributeError):
        return {"game": slug}


#: The games whose figures need more than the final summary: their facts are read from
#: the game's own actions (Rocca's draws and forgotten Ones are in no summary).
FROM_ACTIONS = frozenset({"rocca"})


def _game_facts(db, table, names: list[str], game_no: int, summary: dict,
                previous: dict | None) -> dict:
    """The facts of game `game_no` of `table`: from its live actions for a game in
    :data:`FROM_ACTIONS`, else (or when the rules refuse the actions on replay, which only
    a rules change could cause) from its summary."""
    if table.game_slug in FROM_ACTIONS:
        actions = game_actions(db, table.id, table_game_no(game_no))
        if actions is not None:
            try:
                return stats.facts_of(table.game_slug, table.settings, names, actions,
                                      previous)
            except (KeyError, TypeError, ValueError, AttributeError):
                pass
    return _facts(table.game_slug, summary)


def game_actions(db: sqlite_utils.Database, table_id: str, game_no: int) -> list[dict] | None:
    """The rules actions of game `game_no` (1 = the table's first) as the table's fold reads
    them (companion/tables/fold.py): its live game entries in log order, each as its newest
    counted change reads it; undone ones and those still waiting for the other team's
    confirmation left out; a live rematch ends a game. None for a game the log hasn't got."""
    rows = [{"seq": r["seq"], "row_kind": r["kind"], "payload": json.loads(r["payload"]),
             "undone_by": r["undone_by"],
             "waiting": bool(r["pending"]) and r["confirmed_by"] is None
             and r["undone_by"] is None}
            for r in db.execute("SELECT seq, kind, payload, undone_by, pending, confirmed_by"
                                " FROM actions WHERE table_id = ? ORDER BY seq",
                                [table_id]).fetchall()]
    rows = [SimpleNamespace(**r) for r in rows]
    changed = edits(rows)
    games: list[list[dict]] = [[]]
    for row in rows:
        if row.undone_by is not None or row.waiting:
            continue
        if row.row_kind == "rematch":
            games.append([])
        elif row.row_kind == "game":
            games[-1].append(changed.get(row.seq, row.payload))
    return games[game_no - 1] if 0 < game_no <= len(games) else None


def _row_facts(row) -> dict | None:
    """The facts stored with a record; a record made before they were kept has them read
    from its summary now (the same reading as at record time)."""
    if row["facts"]:
        return json.loads(row["facts"])
    try:
        summary = revived(json.loads(row["summary"]))
    except (TypeError, ValueError):
        return None
    return _facts(row["game"], summary if isinstance(summary, dict) else {})


def _load(db: sqlite_utils.Database, group_id: str) -> dict:
    """The group's running total as stored; a group without one has it built from its
    recorded games (those made before totals were kept)."""
    row = db.execute("SELECT stats FROM group_stats WHERE group_id = ?",
                     [group_id]).fetchone()
    if row is not None:
        return json.loads(row[0])
    rows = db.execute("SELECT * FROM group_games WHERE group_id = ? AND deleted_at IS NULL"
                      " ORDER BY id", [group_id]).fetchall()
    return stats.build((_game(r), _row_facts(r)) for r in rows)


class _Kept:
    """The running totals one write changes, loaded when first touched and written back
    once (:meth:`save`), so a hand that finishes no game reads no total."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db
        self.totals: dict[str, dict] = {}

    def fold(self, row, sign: int) -> None:
        """Fold a stored record into (sign 1) or out of (-1) its group's total; a record
        deleted from the group's games is in no total."""
        if row["deleted_at"]:
            return
        group_id = row["group_id"]
        if group_id not in self.totals:
            self.totals[group_id] = _load(self.db, group_id)
        record, facts = _game(row), _row_facts(row)
        if sign > 0:
            stats.add(self.totals[group_id], record, facts)
        else:
            stats.remove(self.totals[group_id], record, facts)

    def save(self) -> None:
        for group_id, total in self.totals.items():
            count = self.db.execute("SELECT COUNT(*) FROM group_games WHERE group_id = ? AND"
                                    " deleted_at IS NULL", [group_id]).fetchone()[0]
            self.db.execute(
                "INSERT INTO group_stats (group_id, stats, games) VALUES (?, ?, ?)"
                " ON CONFLICT (group_id) DO UPDATE SET stats = excluded.stats,"
                " games = excluded.games", [group_id, json.dumps(total), count])


def rebuild_stats(db: sqlite_utils.Database, group_id: str) -> dict:
    """Inside the caller's write transaction: the group's running total built again from
    its records and their stored facts, and stored (after a merge, which rewrites many
    records at once; merges are rare)."""
    db.execute("DELETE FROM group_stats WHERE group_id = ?", [group_id])
    kept = _Kept(db)
    kept.totals[group_id] = _load(db, group_id)
    kept.save()
    return kept.totals[group_id]


def kept_stats(db: sqlite_utils.Database, group_id: str) -> dict:
    """The group's running total of statistics (companion.stats), kept as games finish;
    ``stats.view`` of it is what ``/g/<id>/stats.json`` serves. A fresh copy: the caller
    may change it (see :func:`kept_figures` for the pages' shared, read-only one)."""
    return _load(db, group_id)


#: The pages' total and its view per group, in this process: ``group_id -> (stored text,
#: total, view)``, newest used last. A page reads the stored total's text (one SELECT) and,
#: while it is the text the cache was made from, uses the total and view made from it: no
#: ``json.loads`` of the whole total and no ``stats.view`` over it. Any write (a game
#: finished, edited, deleted; a merge or rename) stores a new text, so a stale entry is
#: never used; each process keeps its own.
_FIGURES: "OrderedDict[str, tuple[str, dict, dict]]" = OrderedDict()
#: How many groups' figures a process keeps (each ~1 MB with 2,000 games).
FIGURES_KEPT = 16


def kept_figures(db: sqlite_utils.Database, group_id: str) -> tuple[dict, dict]:
    """The group's running total and ``stats.view`` of it, for its pages: shared between
    requests, so READ-ONLY (copy before changing anything). Made again only when the
    stored total changed since (its text compared); a group without a stored total has it
    built (not cached: the next write stores it)."""
    row = db.execute("SELECT stats FROM group_stats WHERE group_id = ?",
                     [group_id]).fetchone()
    if row is None:
        total = _load(db, group_id)
        return total, stats.view(total)
    text = row[0]
    hit = _FIGURES.get(group_id)
    if hit is not None and hit[0] == text:
        _FIGURES.move_to_end(group_id)
        return hit[1], hit[2]
    total = json.loads(text)
    figures = stats.view(total)
    _FIGURES[group_id] = (text, total, figures)
    _FIGURES.move_to_end(group_id)
    while len(_FIGURES) > FIGURES_KEPT:
        _FIGURES.popitem(last=False)
    return total, figures


def record_of(row) -> dict[str, Any]:
    """A stored ``group_games`` row as ``games.json`` gives it."""
    return _game(row)


def _game(row) -> dict[str, Any]:
    return {"id": row["id"], "game": row["game"], "started_at": row["started_at"],
            "finished_at": row["finished_at"], "table_id": row["table_id"],
            "players": json.loads(row["players"]),
            "teams": json.loads(row["teams"]) if row["teams"] else None,
            "scores": json.loads(row["scores"]), "winners": json.loads(row["winners"]),
            "settings": json.loads(row["settings"])}


def games(db: sqlite_utils.Database, group_id: str, limit: int | None = None) -> list[dict]:
    """The group's recorded games, newest finished first, as ``/g/<id>/games.json`` gives
    them: id, game (slug), started_at, finished_at (ISO 8601, UTC), table_id, players
    (names in seat order), teams (lists of names, or None), scores (name or team label ->
    final score), winners (names), settings."""
    sql = ("SELECT * FROM group_games WHERE group_id = ? AND deleted_at IS NULL"
           " ORDER BY finished_at DESC, id DESC")
    params: list[Any] = [group_id]
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [_game(r) for r in db.execute(sql, params).fetchall()]


def _minutes(started: str, finished: str) -> int | str:
    try:
        span = datetime.fromisoformat(finished) - datetime.fromisoformat(started)
    except (TypeError, ValueError):
        return ""
    return max(0, round(span.total_seconds() / 60))


def games_csv(db: sqlite_utils.Database, group_id: str) -> str:
    """The group's recorded games as CSV (:data:`CSV_COLUMNS`), newest first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for g in games(db, group_id):
        writer.writerow([
            g["id"], g["game"], g["started_at"], g["finished_at"],
            _minutes(g["started_at"], g["finished_at"]), g["table_id"],
            " | ".join(_cell(p) for p in g["players"]),
            " | ".join(" & ".join(_cell(p) for p in team) for team in g["teams"] or []),
            " | ".join(f"{_cell(k)}: {v}" for k, v in g["scores"].items()),
            " | ".join(_cell(w) for w in g["winners"]),
            json.dumps(g["settings"], sort_keys=True, ensure_ascii=False)])
    return out.getvalue()


def _cell(text: str) -> str:
    """A name as a CSV cell shows it: a leading = + - @ would make a spreadsheet read the
    cell as a formula, so it is quoted with an apostrophe."""
    text = str(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


#: The largest id a record or a player can have (SQLite's integers): a bigger number in
#: a link is no record, not an overflow.
MAX_ID = 2 ** 63 - 1


def game_record(db: sqlite_utils.Database, group_id: str, game_id: int) -> dict[str, Any]:
    """One recorded game of the group, for its read-only page: the ``games.json`` fields,
    plus ``game_no`` (its number at its table), ``minutes`` (how long it took),
    ``lower_wins``, ``summary`` (the final sheet as the rules summed it up) and ``seats``
    (per seat, in seat order: ``name``, ``player_id``, ``team``, ``score``, ``place``,
    ``won``). `NotFound` for an unknown game, another group's, or one deleted from the
    record."""
    row = None
    if 0 < game_id <= MAX_ID:
        row = db.execute("SELECT * FROM group_games WHERE id = ? AND group_id = ? AND"
                         " deleted_at IS NULL", [game_id, group_id]).fetchone()
    if row is None:
        raise NotFound(N_("This game isn't in the group's record (it may have been deleted)."))
    out = _game(row)
    try:
        summary = revived(json.loads(row["summary"]))
    except (TypeError, ValueError):
        summary = {}
    out.update(game_no=shown_game_no(row["game_no"]), in_match=row["game_no"] >= MATCH_GAMES,
               lower_wins=bool(row["lower_wins"]),
               minutes=_minutes(row["started_at"], row["finished_at"]),
               summary=summary if isinstance(summary, dict) else {})
    names = out["players"]
    out["seats"] = [
        {"name": names[r["seat"]] if r["seat"] < len(names) else "", "player_id": r["player_id"],
         "team": r["team"], "score": r["score"], "place": r["place"], "won": bool(r["won"])}
        for r in db.execute("SELECT * FROM group_game_players WHERE game_id = ? ORDER BY seat",
                            [row["id"]]).fetchall()]
    return out


def player_games(db: sqlite_utils.Database, group_id: str, player_id: int,
                 limit: int | None = None) -> list[dict[str, Any]]:
    """The recorded games player `player_id` of the group sat in, newest finished first:
    ``id``, ``game``, ``finished_at``, ``score``, ``place``, ``won``, ``winners``,
    ``scores``, ``players``, ``settings`` (a score pad's name is there)."""
    if not 0 < player_id <= MAX_ID:
        return []
    sql = ("SELECT g.id, g.game, g.finished_at, g.winners, g.scores, g.players, g.settings,"
           " p.score, p.place, p.won FROM group_game_players p JOIN group_games g"
           " ON g.id = p.game_id WHERE p.group_id = ? AND p.player_id = ? AND"
           " g.deleted_at IS NULL ORDER BY g.finished_at DESC, g.id DESC")
    params: list[Any] = [group_id, player_id]
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [{"id": r["id"], "game": r["game"], "finished_at": r["finished_at"],
             "score": r["score"], "place": r["place"], "won": bool(r["won"]),
             "winners": json.loads(r["winners"]), "scores": json.loads(r["scores"]),
             "players": json.loads(r["players"]), "settings": json.loads(r["settings"])}
            for r in db.execute(sql, params).fetchall()]
