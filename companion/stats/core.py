"""The running total of a group's games, and the figures read from it (docs/STATS.md).

The total holds only counts, sums, multisets (``{value: count}``, for bests) and, per
player and partnership, the ordered list of results (for streaks). Every one of them can be
taken back exactly, so :func:`remove` undoes :func:`add` to the byte: one function folds a
game in with the sign +1 and out with -1, and a count or sum that comes back to zero is
deleted with every container it leaves empty.
"""
from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Mapping
from typing import Any

from companion.rules import GAMES
from companion.rules.game import places_of
from companion.rules.text import join_names

from . import figures

VERSION = 1
#: A partnership's key: its players' names, sorted, joined by this.
PARTNERS = " & "


def empty() -> dict:
    """A running total with no game in it (JSON-ready). A count at zero is left out, so a
    total emptied by :func:`remove` is this again."""
    return {"version": VERSION}


# ------------------------------------------------------------------------------------
# Reversible containers

def bump(root: dict, path: tuple, delta: int | float) -> None:
    """Add ``delta`` to the number at ``path`` (created at 0); a number back at zero is
    deleted, and so is every dict on the path it leaves empty."""
    if not delta:
        return
    node, trail = root, []
    for key in path[:-1]:
        trail.append((node, key))
        node = node.setdefault(key, {})
    last = path[-1]
    value = node.get(last, 0) + delta
    if value:
        node[last] = value
        return
    node.pop(last, None)
    _prune(node, trail)


def _prune(node: dict, trail: list) -> None:
    while not node and trail:
        parent, key = trail.pop()
        del parent[key]
        node = parent


def tally(root: dict, path: tuple, value: Any, sign: int) -> None:
    """Count ``value`` once more (sign 1) or once less (-1) in the multiset at ``path``:
    ``{str(value): count}``, from which a best is read."""
    bump(root, path + (_number_key(value),), sign)


def _number_key(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return repr(value)


def _number(key: str) -> int | float:
    return float(key) if "." in key or "e" in key else int(key)


def best_of(multiset: Mapping[str, int] | None, lowest: bool = False) -> int | float | None:
    """The highest value counted in a multiset (the lowest with ``lowest``); None if empty."""
    if not multiset:
        return None
    values = [_number(k) for k in multiset]
    return min(values) if lowest else max(values)


def _seq(root: dict, path: tuple, item: list, sign: int) -> None:
    """Put ``item`` into the sorted list at ``path`` (sign 1), or take it out (-1)."""
    node, trail = root, []
    for key in path[:-1]:
        trail.append((node, key))
        node = node.setdefault(key, {})
    items = node.setdefault(path[-1], [])
    if sign > 0:
        insort(items, item)
        return
    at = bisect_left(items, item)
    if at < len(items) and items[at] == item:
        del items[at]
    if not items:
        del node[path[-1]]
        _prune(node, trail)


# ------------------------------------------------------------------------------------
# Reading a record

def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def lowest_wins(record: Mapping[str, Any]) -> bool:
    """Which way this record's scores go: the game's own rule for its settings
    (``Game.lowest_wins``); an unknown game or unreadable settings count as highest wins."""
    game = GAMES.get(record.get("game"))
    if game is None:
        return False
    try:
        return game.lowest_wins(record.get("settings") or {})
    except ValueError:
        settings = record.get("settings") or {}
        return bool(settings.get("low_wins")) if isinstance(settings, Mapping) else False


def section_of(record: Mapping[str, Any]) -> str:
    """The key the record's game is counted under: its slug; for the score pad,
    ``"scorepad"``, plus ``":" + name`` when the table gave the game a name (the record's
    ``name``, else its settings' ``name``), plus ``":low"`` when the lowest total won (the
    two directions never mix)."""
    slug = record["game"]
    if slug != "scorepad":
        return slug
    key = "scorepad"
    name = _pad_name(record)
    if name:
        # A colon in the name is written as a full-width one in the key, so that a
        # highest-wins "X:low" and a lowest-wins "X" stay two sections.
        key += ":" + name.replace(":", "\uff1a")
    if lowest_wins(record):
        key += ":low"
    return key


def _pad_name(record: Mapping[str, Any]) -> str | None:
    """A score pad's game name: the record's ``name``, else its settings' (None: none)."""
    settings = record.get("settings") or {}
    for name in (record.get("name"),
                 settings.get("name") if isinstance(settings, Mapping) else None):
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None


def partnership(names) -> str:
    """A partnership's key: its players' names sorted and joined by " & "."""
    return PARTNERS.join(sorted(names))


def _team_score(scores: Mapping[str, Any], index: int, team: list[str]) -> Any:
    """A team's final score: keyed by the rules' label ("A", "B", ...), or by the team's
    name as the sheet shows it ("Ann & Cid", "Ann, Cid & Eve"), or by its players' names
    joined by " & " in seat order or sorted, or by one of its players."""
    for key in (chr(ord("A") + index), str(join_names(team, "&")), " & ".join(team),
                partnership(team), *team):
        if key in scores:
            return scores[key]
    return None


def sides(record: Mapping[str, Any]) -> list[dict]:
    """The record's sides: one per team in a team game, else one per player. Each side:
    ``{"key", "players", "score", "won"}``; ``key`` is the partnership's key or the name."""
    scores = record.get("scores") or {}
    winners = set(record.get("winners") or ())
    teams = record.get("teams")
    out = []
    if teams:
        for index, team in enumerate(teams):
            team = list(team)
            out.append({"key": partnership(team), "players": team,
                        "score": _team_score(scores, index, team),
                        "won": any(p in winners for p in team)})
    else:
        for name in record["players"]:
            out.append({"key": name, "players": [name], "score": scores.get(name),
                        "won": name in winners})
    return out


def check_record(record: Any) -> None:
    """ValueError unless ``record`` has the shape of a games.json item that stats read."""
    if not isinstance(record, Mapping):
        raise ValueError("A recorded game must be a dictionary.")
    if record.get("game") not in GAMES:
        raise ValueError(f"A recorded game names no known game: {record.get('game')!r}.")
    if record.get("id") is None:
        raise ValueError("A recorded game needs its id.")
    players = record.get("players")
    if not isinstance(players, list) or not players or \
            not all(isinstance(p, str) and p for p in players):
        raise ValueError("A recorded game needs its players' names, in seat order.")
    if len(set(players)) != len(players):
        raise ValueError("A recorded game names a player twice.")
    teams = record.get("teams")
    if teams is not None:
        named = [p for team in teams for p in team]
        if sorted(named) != sorted(players):
            raise ValueError("A recorded game's teams must hold its players, each once.")
    if not isinstance(record.get("winners") or [], list):
        raise ValueError("A recorded game's winners must be a list of names.")


# ------------------------------------------------------------------------------------
# Folding a game in and out

def add(stats: dict, record: Mapping[str, Any], facts: Mapping[str, Any] | None = None) -> dict:
    """Fold one finished game (a games.json item) and its facts (:func:`facts_of`, or None)
    into ``stats``, changing it in place; returns it."""
    return _fold(stats, record, facts, 1)


def remove(stats: dict, record: Mapping[str, Any],
           facts: Mapping[str, Any] | None = None) -> dict:
    """Take out of ``stats`` a game :func:`add` folded in, with the same record and facts
    (changing ``stats`` in place; returns it). Afterwards ``stats`` equals what it was
    before that ``add``."""
    return _fold(stats, record, facts, -1)


def _when(record: Mapping[str, Any]) -> list:
    """A record's place in time: when it finished, then its id (a stable order)."""
    return [str(record.get("finished_at") or ""), str(record["id"])]


def _fold(stats: dict, record: Mapping[str, Any], facts: Mapping[str, Any] | None,
          sign: int) -> dict:
    check_record(record)
    section = section_of(record)
    lower = lowest_wins(record)
    when = _when(record)
    if facts and facts.get("game") != record["game"]:
        raise ValueError("These facts are of another game than the recorded one.")
    if facts:
        # Bad facts raise here, on a scratch total, before the real one is touched.
        try:
            figures.fold({}, ("figures",), record, facts, 1)
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"These facts don't fit the recorded game: {exc!r}.") from None
    if sign < 0:
        name = record["players"][0]
        items = stats.get("players", {}).get(name, {}).get("seq", [])
        at = bisect_left(items, when + [0])
        if not any(item[:-1] == when for item in items[at:at + 2]):
            raise ValueError("This game is not in the statistics, so it can't be taken out.")
    bump(stats, ("count",), sign)
    sec = ("sections", section)
    bump(stats, sec + ("count",), sign)
    # What the key says, kept as counts so it is read back, never parsed from the key.
    bump(stats, sec + ("low",), sign * int(lower))
    if section != record["game"]:
        bump(stats, sec + ("names", _pad_name(record) or ""), sign)
    all_sides = sides(record)
    for side in all_sides:
        won = int(side["won"])
        groups = [("players", name) for name in side["players"]]
        if record.get("teams"):
            groups.append(("teams", side["key"]))
        for group in groups:
            base = sec + group
            bump(stats, base + ("games",), sign)
            bump(stats, base + ("wins",), sign * won)
            if _is_number(side["score"]):
                bump(stats, base + ("scored",), sign)
                bump(stats, base + ("score_sum",), sign * side["score"])
                tally(stats, base + ("scores",), side["score"], sign)
            _seq(stats, base + ("seq",), when + [won], sign)
        for name in side["players"]:
            base = ("players", name)
            bump(stats, base + ("games",), sign)
            bump(stats, base + ("wins",), sign * won)
            _seq(stats, base + ("seq",), when + [won], sign)
    _head_to_head(stats, sec + ("h2h",), all_sides, lower, sign)
    _head_to_head(stats, ("h2h",), all_sides, lower, sign)
    if facts:
        figures.fold(stats, sec + ("figures",), record, facts, sign)
    return stats


def _head_to_head(stats: dict, base: tuple, all_sides: list[dict], lower: bool,
                  sign: int) -> None:
    """Every pair of players: as opponents, who placed ahead (places in the game's own
    order: winners first, then by score in its direction); as partners, games and wins."""
    scores = {s["key"]: s["score"] for s in all_sides}
    places = places_of(scores, [s["key"] for s in all_sides if s["won"]], lower)
    for mine in all_sides:
        for other in all_sides:
            for a in mine["players"]:
                for b in other["players"]:
                    if a == b:
                        continue
                    path = base + (a, b)
                    if mine is other:
                        bump(stats, path + ("partner_games",), sign)
                        bump(stats, path + ("partner_wins",), sign * int(mine["won"]))
                        continue
                    bump(stats, path + ("games",), sign)
                    ahead = places[mine["key"]] < places[other["key"]]
                    behind = places[mine["key"]] > places[other["key"]]
                    bump(stats, path + ("wins",), sign * int(ahead))
                    bump(stats, path + ("losses",), sign * int(behind))


# ------------------------------------------------------------------------------------
# The figures

def pct(part: int, whole: int) -> float | None:
    """``part`` of ``whole`` in per cent, to one decimal; None when ``whole`` is 0."""
    return round(100 * part / whole, 1) if whole else None


def mean(total: int | float, count: int) -> float | None:
    """The average to two decimals; None when ``count`` is 0."""
    return round(total / count, 2) if count else None


def streaks(seq: list) -> tuple[int, int]:
    """(longest run of wins, current streak: +n for n wins in a row up to the latest game,
    -n for n games without a win, 0 without games) from ordered ``[..., won]`` items."""
    longest = run = 0
    for item in seq:
        run = run + 1 if item[-1] else 0
        longest = max(longest, run)
    current = 0
    if seq:
        last = seq[-1][-1]
        for item in reversed(seq):
            if item[-1] != last:
                break
            current += 1
        current = current if last else -current
    return longest, current


def record_view(node: Mapping[str, Any], lower: bool | None) -> dict:
    """One player's or partnership's record: games, wins, losses, win %, streaks, and with
    a direction (``lower``, not None) the average and best score."""
    games, wins = node.get("games", 0), node.get("wins", 0)
    longest, current = streaks(node.get("seq", []))
    out = {"games": games, "wins": wins, "losses": games - wins, "win_pct": pct(wins, games),
           "longest_win_streak": longest, "current_streak": current}
    if lower is not None:
        out["average_score"] = mean(node.get("score_sum", 0), node.get("scored", 0))
        out["best_score"] = best_of(node.get("scores"), lowest=lower)
    return out


def _h2h_view(node: Mapping[str, Any]) -> dict:
    return {a: {b: {"games": r.get("games", 0), "wins": r.get("wins", 0),
                    "losses": r.get("losses", 0),
                    "draws": r.get("games", 0) - r.get("wins", 0) - r.get("losses", 0),
                    "partner_games": r.get("partner_games", 0),
                    "partner_wins": r.get("partner_wins", 0)}
                for b, r in sorted(row.items())}
            for a, row in sorted(node.items())}


def _section_game(section: str, sec: Mapping[str, Any]) -> tuple[str, str | None, bool]:
    """(slug, score pad name or None, lowest wins) of a section."""
    slug = section.split(":")[0]
    names = [n for n in sec.get("names", {}) if n]
    return slug, names[0] if names else None, bool(sec.get("low"))


def view(stats: Mapping[str, Any]) -> dict:
    """Every figure of docs/STATS.md, by its key: what ``stats.json`` serves."""
    sections = {}
    for key, sec in sorted(stats.get("sections", {}).items()):
        slug, name, lower = _section_game(key, sec)
        sections[key] = {
            "game": slug, "name": name, "lower_wins": lower, "games": sec.get("count", 0),
            "players": {p: record_view(n, lower)
                        for p, n in sorted(sec.get("players", {}).items())},
            "teams": {t: record_view(n, lower) for t, n in sorted(sec.get("teams", {}).items())},
            "head_to_head": _h2h_view(sec.get("h2h", {})),
            "figures": figures.view(slug, sec.get("figures", {}), lower),
        }
    return {
        "version": VERSION,
        "games_recorded": stats.get("count", 0),
        "players": {p: record_view(n, None) for p, n in sorted(stats.get("players", {}).items())},
        "head_to_head": _h2h_view(stats.get("h2h", {})),
        "games": sections,
    }


def build(games) -> dict:
    """A running total of ``games``: ``(record, facts)`` pairs (facts may be None), e.g. to
    make a group's total again from its stored records and facts, without any log."""
    total = empty()
    for record, facts in games:
        add(total, record, facts)
    return total


def player(figures_: Mapping[str, Any], name: str) -> dict | None:
    """One player's page from :func:`view`'s figures: ``record`` (PLAYER), ``games`` (their
    RECORD in each section they played), ``head_to_head`` (against each other player);
    None for a name the figures don't know."""
    record = figures_.get("players", {}).get(name)
    if record is None:
        return None
    return {"record": record,
            "games": {key: sec["players"][name] for key, sec in figures_["games"].items()
                      if name in sec["players"]},
            "head_to_head": figures_.get("head_to_head", {}).get(name, {})}


def timeline(stats: Mapping[str, Any], name: str) -> list[dict]:
    """A player's games and wins over time, for the chart: one ``{"date", "games", "wins"}``
    per day they played (``date``: the first 10 characters of ``finished_at``, the day in
    the time zone it was written in), the counts running totals up to that day."""
    out: list[dict] = []
    games = wins = 0
    for item in stats.get("players", {}).get(name, {}).get("seq", []):
        day = item[0][:10]
        games, wins = games + 1, wins + item[-1]
        if out and out[-1]["date"] == day:
            out[-1].update(games=games, wins=wins)
        else:
            out.append({"date": day, "games": games, "wins": wins})
    return out
