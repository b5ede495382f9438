"""The sheet is derived: fold the game's `apply` over the table's log.

A table's log grows without end (rematch after rematch, a whole evening), so the write path
doesn't replay it: each write that changes the fold stores the result (`FoldResult`, the
current game's state, the earlier games' summaries and replay errors) in `table_folds`, in
the same transaction as its action; the next write starts from it (`step`, `rematched`),
and an undo or a confirmation refolds only the current game when its target lies there
(`fold(..., start=...)`). A stored fold is trusted only while it is the fold of the log as
it stands: it names the newest action that changes the state (`seq`), the seats' names and
a fingerprint of the rules code that folded it (`fingerprint`), so a table whose rules
code changed with a deploy is replayed once in full, exactly as before. Every path gives
the same result as `fold` over the whole log (tests/tables/test_tables_fold_snapshot.py).
"""
from __future__ import annotations

import hashlib
import inspect
import io
import pickle
import secrets
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.lru import LRU
from companion.rules import Game, RuleError
from companion.rules.said import message, said_of

_cache = LRU(2048)    # (table id, version) -> FoldResult
_pasts = LRU(2048)    # (table id, past_seq) -> the earlier games' summaries, as stored


@dataclass(frozen=True)
class FoldResult:
    state: Any
    summary: dict
    past_games: list[dict]
    errors: list[str]
    # Where the current game starts: the seq of the (live) rematch that began it, 0 for
    # the table's first game; and the replay errors of the log before it.
    game_start: int = 0
    past_errors: list[str] = field(default_factory=list)
    # The stored earlier games these `past_games` are (`table_folds.past_seq`); None when
    # they came from a replay and are not stored yet.
    past_seq: int | None = None


def fold(game: Game, settings: dict, names: list[str], actions,
         start: FoldResult | None = None) -> FoldResult:
    """Replay the live actions of a log: game actions apply, a rematch starts afresh.

    Undone actions, undo markers and entries still waiting for the other team's
    confirmation are skipped; an entry changed in place is read as its change says
    (:func:`edits`; the changes must be among `actions`). An action the rules refuse on replay
    (which only a rules change could cause) is skipped and reported in `errors`, so a
    stored log never makes a table unreadable. (A table's fold at a version is kept by
    the service: :func:`remember`, :func:`cached`.)

    With `start` (the fold of the same log), only the current game is replayed: `actions`
    are then the log's actions after `start.game_start`, and the earlier games are taken
    from `start` (the result is the same as replaying the whole log, as long as nothing
    before the current game's start changed).
    """
    actions = list(actions)
    changed = edits(actions)
    past: list[dict] = list(start.past_games) if start is not None else []
    state = game.start_after(settings, names, past[-1] if past else None)
    errors: list[str] = list(start.past_errors) if start is not None else []
    game_start = start.game_start if start is not None else 0
    past_seq = start.past_seq if start is not None else None
    past_errors = list(errors)
    for action in actions:
        if action.undone_by is not None or getattr(action, "waiting", False):
            continue
        if action.row_kind == "rematch":
            past.append(ended_game(game.summary(state), getattr(action, "created_at", None)))
            state = game.start_after(settings, names, past[-1])
            game_start, past_errors, past_seq = action.seq, list(errors), None
        elif action.row_kind == "game":
            try:
                state = game.apply(state, changed.get(action.seq, action.payload))
            except (RuleError, ValueError) as exc:
                errors.append(message("table", "entry #{seq}: {why}", seq=action.seq,
                                      why=said_of(exc)))
    return FoldResult(state, game.summary(state), past, errors, game_start, past_errors,
                      past_seq)


def edits(actions) -> dict[int, dict]:
    """The entries changed in place among `actions`: each changed entry's seq to the rules
    action it now reads, from its newest change that counts (an "edit" row neither undone
    nor waiting for the other team's confirmation). The change is an action of its own,
    later in the log than its entry; the entry keeps its place, so the sheet keeps its
    order, numbering and dealers."""
    changed: dict[int, dict] = {}
    for action in actions:
        if (action.row_kind == "edit" and action.undone_by is None
                and not getattr(action, "waiting", False)):
            target, new = action.payload.get("target"), action.payload.get("action")
            if isinstance(target, int) and isinstance(new, dict):
                changed[target] = new     # the log is oldest first: the newest one wins
    return changed


def step(result: FoldResult, state: Any, summary: dict) -> FoldResult:
    """`result` after one more game action that applied cleanly and gave `state` (whose
    summary is `summary`)."""
    return replace(result, state=state, summary=summary)


def rematched(result: FoldResult, game: Game, settings: dict, names: list[str],
              seq: int, at: str | None = None) -> FoldResult:
    """`result` after a rematch (action `seq`, made at `at`): a new game (which may take
    something on from the one before: Game.start_after); the one before joins the past."""
    ended = ended_game(result.summary, at)
    state = game.start_after(settings, names, ended)
    return FoldResult(state, game.summary(state), result.past_games + [ended],
                      result.errors, seq, list(result.errors), None)


def ended_game(summary: dict, at: str | None) -> dict:
    """An earlier game's summary as the table keeps it: with ``ended_at``, when the rematch
    after it started (the date "Earlier games" shows)."""
    return {**summary, "ended_at": at} if at else summary


def remember(table_id: str, version: int, result: FoldResult) -> None:
    """Cache `result` as the fold of the table at `version` (in this process)."""
    _cache.put((table_id, version), result)


def cached(table_id: str, version: int) -> FoldResult | None:
    return _cache.get((table_id, version))


# ---------------------------------------------------------------- the stored fold

def _digest(paths: list[Path]) -> str | None:
    digest = hashlib.sha256()
    try:
        for path in paths:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return None
    return digest.hexdigest()[:32]


def _rules_dir() -> Path:
    import companion.rules as rules

    return Path(rules.__file__).resolve().parent


_BASE = _digest(sorted(_rules_dir().glob("*.py")) + [Path(__file__).resolve().parent / name
                                                      for name in ("fold.py", "service.py")])
_fingerprints: dict[tuple[str, int], str] = {}


def fingerprint(game: Game) -> str:
    """A hash of the code a stored fold of `game` depends on: the rules package, this
    module and the service (and the module of a game registered from elsewhere).

    A deploy that changes any of them makes the stored folds stale (each table is replayed
    once). Where the sources can't be read, every process gets its own random value, so a
    stored fold is only ever reused by the process that wrote it.
    """
    key = (game.slug, id(game.apply))
    value = _fingerprints.get(key)
    if value is not None:
        return value
    extra: str | None = None
    if _BASE is not None:
        try:
            source = inspect.getsourcefile(game.apply)
        except TypeError:
            source = None
        if source is not None:
            path = Path(source).resolve()
            extra = "" if path.parent == _rules_dir() else _digest([path])
    if extra is None:
        value = "random-" + secrets.token_hex(8)
    else:
        value = hashlib.sha256(f"{_BASE}:{game.slug}:{extra}".encode()).hexdigest()[:32]
    _fingerprints[key] = value
    return value


class _Unpickler(pickle.Unpickler):
    """Plain data only (dicts, lists, tuples, sets, str, numbers), plus the rules' sentences
    (`Said`, which pickles through `companion.rules.said._remake`): a stored fold never
    names any other callable, so nothing else may be loaded from the database."""

    ALLOWED = {("companion.rules.said", "_remake")}

    def find_class(self, module: str, name: str):
        if (module, name) not in self.ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a stored fold")
        return super().find_class(module, name)


def _dumps(value) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _loads(data: bytes):
    return _Unpickler(io.BytesIO(data)).load()


def dump_game(result: FoldResult, names: list[str]) -> bytes:
    """The current game of `result` (and the names it was folded with): `table_folds.game`."""
    return _dumps((list(names), result.state, result.summary, result.errors,
                   result.game_start, result.past_errors))


def dump_past(result: FoldResult) -> bytes:
    """The earlier games' summaries of `result`: `table_fold_pasts.past`, a list of one
    pickle per game. A game's pickle is made once per summary (`_game_bytes`), so storing
    the past of a table's 2,000th game (a rematch, or a strike in game 1) copies 2,000
    ready pickles rather than pickling 2,000 summaries inside the write lock."""
    return _dumps([_game_bytes(summary) for summary in result.past_games])


_pickled = LRU(16384)   # id(summary) -> (summary, its pickle): see _game_bytes


def _game_bytes(summary: dict) -> bytes:
    """The pickle of one earlier game's summary, made once per summary object: the folds
    pass the same summary objects on from write to write (earlier games never change in
    place; a changed game is a new summary). The entry holds the summary, so its id can't
    be reused while the entry lives."""
    hit = _pickled.get(id(summary))
    if hit is not None and hit[0] is summary:
        return hit[1]
    data = _dumps(summary)
    _pickled.put(id(summary), (summary, data))
    return data


def load_game(data: bytes, names: list[str], past_games: list[dict],
              past_seq: int) -> FoldResult | None:
    """The stored fold, or None when it can't be read or was folded with other names."""
    try:
        stored_names, state, summary, errors, game_start, past_errors = _loads(data)
    except Exception:      # noqa: BLE001 - a stored fold is a cache: replay instead
        return None
    if stored_names != list(names):
        return None
    return FoldResult(state, summary, past_games, errors, game_start, past_errors, past_seq)


def load_past(table_id: str, past_seq: int, data: bytes) -> list[dict] | None:
    """The earlier games' summaries stored by write `past_seq` (kept in this process)."""
    try:
        pickles = _loads(data)
        if not isinstance(pickles, list) or not all(isinstance(p, bytes) for p in pickles):
            return None
        past = [_loads(p) for p in pickles]
    except Exception:      # noqa: BLE001
        return None
    for summary, pickled in zip(past, pickles):     # the next write stores them as they are
        _pickled.put(id(summary), (summary, pickled))
    _pasts.put((table_id, past_seq), past)
    return past


def cached_past(table_id: str, past_seq: int) -> list[dict] | None:
    return _pasts.get((table_id, past_seq))


def remember_past(table_id: str, past_seq: int, result: FoldResult) -> None:
    """After the commit that stored `result`'s earlier games as `past_seq`."""
    _pasts.put((table_id, past_seq), result.past_games)
