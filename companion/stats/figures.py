"""Each game's own figures (docs/STATS.md, "Figures by game"): folded in and out of the
running total from a game's facts (:mod:`.facts`), and read back by :func:`view`.

Like the rest of the total, each is a count, a sum or a multiset, so taking a game out
undoes putting it in.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.zocknroll import JORG


def _core():
    from . import core      # core imports this module
    return core


def fold(stats: dict, base: tuple, record: Mapping[str, Any], facts: Mapping[str, Any],
         sign: int) -> None:
    """Fold one game's facts into (sign 1) or out of (-1) ``stats`` under ``base``."""
    folder = _FOLDERS.get(facts.get("game"))
    if folder is not None and facts.get("game") == record.get("game"):
        folder(stats, base, record, facts, sign)


def view(slug: str, node: Mapping[str, Any], lower: bool) -> dict:
    """A game's own figures from its part of the total ({} for a game without any)."""
    viewer = _VIEWS.get(slug)
    return viewer(node, lower) if viewer is not None else {}


# --- Rook -----------------------------------------------------------------------------

def _team_keys(facts: Mapping[str, Any]) -> dict[str, str]:
    core = _core()
    return {team: core.partnership(players) for team, players in facts["teams"].items()}


def _rook(stats: dict, base: tuple, record, facts, sign: int) -> None:
    core = _core()
    teams = _team_keys(facts)
    players = facts["teams"]
    core.bump(stats, base + ("hands",), sign * len(facts["hands"]))
    for hand in facts["hands"]:
        bidding = hand["team"]
        made = int(hand["made"])
        for group, who in (("players", hand["bidder"]), ("teams", teams[bidding])):
            path = base + (group, who)
            core.bump(stats, path + ("bids",), sign)
            core.bump(stats, path + ("bid_sum",), sign * hand["bid"])
            core.bump(stats, path + ("made",), sign * made)
            if made:
                core.tally(stats, path + ("made_bids",), hand["bid"], sign)
        for team, change in hand["changes"].items():
            for group, who in [("teams", teams[team])] + [("players", p)
                                                         for p in players[team]]:
                path = base + (group, who)
                core.bump(stats, path + ("hands",), sign)
                core.tally(stats, path + ("hand_points",), change, sign)


def _rook_row(node: Mapping[str, Any]) -> dict:
    core = _core()
    bids, made = node.get("bids", 0), node.get("made", 0)
    return {"hands": node.get("hands", 0), "bids_taken": bids,
            "average_bid": core.mean(node.get("bid_sum", 0), bids),
            "made": made, "sets": bids - made, "made_pct": core.pct(made, bids),
            "highest_bid_made": core.best_of(node.get("made_bids")),
            "biggest_hand": core.best_of(node.get("hand_points"))}


def _rook_view(node: Mapping[str, Any], lower: bool) -> dict:
    return {"hands": node.get("hands", 0),
            "players": {p: _rook_row(n) for p, n in sorted(node.get("players", {}).items())},
            "teams": {t: _rook_row(n) for t, n in sorted(node.get("teams", {}).items())}}


# --- Zock'n'Roll ----------------------------------------------------------------------

def _zocknroll(stats: dict, base: tuple, record, facts, sign: int) -> None:
    core = _core()
    turns = facts["turns"]
    core.bump(stats, base + ("turns",), sign * len(turns))
    for player, rows in facts["marks"].items():
        for row, checks in rows.items():
            core.bump(stats, base + ("rows", row), sign * checks)
            core.bump(stats, base + ("players", player, "rows", row), sign * checks)
    for player in record["players"]:
        core.bump(stats, base + ("players", player, "turns"), sign * len(turns))
    for turn in turns:
        for player, round_no in turn["dropped"].items():
            core.bump(stats, base + ("players", player, f"drops_round_{round_no}"), sign)
            core.bump(stats, base + (f"drops_round_{round_no}",), sign)
        for player in turn["showdown"]:
            who = ("jorg",) if player == JORG else ("players", player)
            core.bump(stats, base + who + ("showdowns",), sign)
            core.bump(stats, base + who + ("showdown_wins",),
                      sign * int(turn["winner"] == player))
    if facts.get("jorg"):
        core.bump(stats, base + ("jorg", "games"), sign)
        core.bump(stats, base + ("jorg", "turns"), sign * len(turns))


def _zocknroll_view(node: Mapping[str, Any], lower: bool) -> dict:
    core = _core()
    turns = node.get("turns", 0)

    def player(n: Mapping[str, Any]) -> dict:
        shown = n.get("showdowns", 0)
        own = n.get("turns", 0)
        one, two = n.get("drops_round_1", 0), n.get("drops_round_2", 0)
        return {"turns": own, "rows": dict(sorted(n.get("rows", {}).items())),
                "drops_round_1": one, "drops_round_2": two,
                "drop_pct_round_1": core.pct(one, own), "drop_pct_round_2": core.pct(two, own),
                "showdowns": shown, "showdown_wins": n.get("showdown_wins", 0),
                "showdown_win_pct": core.pct(n.get("showdown_wins", 0), shown)}

    jorg = node.get("jorg", {})
    shown = jorg.get("showdowns", 0)
    return {
        "turns": turns, "rows": dict(sorted(node.get("rows", {}).items())),
        "drops_round_1": node.get("drops_round_1", 0),
        "drops_round_2": node.get("drops_round_2", 0),
        "players": {p: player(n) for p, n in sorted(node.get("players", {}).items())},
        "jorg": {"games": jorg.get("games", 0), "turns": jorg.get("turns", 0),
                 "showdowns": shown, "showdown_wins": jorg.get("showdown_wins", 0),
                 "showdown_win_pct": core.pct(jorg.get("showdown_wins", 0), shown)},
    }


# --- Rainbow Rummy --------------------------------------------------------------------

def _rainbow_rummy(stats: dict, base: tuple, record, facts, sign: int) -> None:
    core = _core()
    teams = _team_keys(facts)
    core.bump(stats, base + ("hands",), sign * len(facts["hands"]))
    for hand in facts["hands"]:
        core.bump(stats, base + ("blocked",), sign * int(hand["blocked"]))
        if hand.get("went_out"):
            core.bump(stats, base + ("players", hand["went_out"], "went_out"), sign)
        for team, change in hand["changes"].items():
            if team not in teams:
                continue
            path = base + ("teams", teams[team])
            core.bump(stats, path + ("hands",), sign)
            core.bump(stats, path + ("hand_sum",), sign * change)
            core.tally(stats, path + ("hand_points",), change, sign)
            for player in facts["teams"][team]:
                path = base + ("players", player)
                core.bump(stats, path + ("hands",), sign)
                core.bump(stats, path + ("hand_sum",), sign * change)


def _rainbow_rummy_view(node: Mapping[str, Any], lower: bool) -> dict:
    core = _core()

    def row(n: Mapping[str, Any]) -> dict:
        out = {"hands": n.get("hands", 0),
               "average_hand_score": core.mean(n.get("hand_sum", 0), n.get("hands", 0)),
               "went_out": n.get("went_out", 0)}
        if "hand_points" in n:
            out["best_hand_score"] = core.best_of(n.get("hand_points"))
        return out

    hands = node.get("hands", 0)
    return {"hands": hands, "blocked_hands": node.get("blocked", 0),
            "blocked_pct": core.pct(node.get("blocked", 0), hands),
            "players": {p: row(n) for p, n in sorted(node.get("players", {}).items())},
            "teams": {t: row(n) for t, n in sorted(node.get("teams", {}).items())}}


# --- RockIt ---------------------------------------------------------------------------

def _rockit(stats: dict, base: tuple, record, facts, sign: int) -> None:
    core = _core()
    core.bump(stats, base + ("deals",), sign * len(facts["games"]))
    for game in facts["games"]:
        if game.get("winner"):
            core.bump(stats, base + ("players", game["winner"], "game_wins"), sign)
        if game.get("how") == "blocked":
            core.bump(stats, base + ("blocked",), sign)
        for order, player in enumerate(game["came_in"], start=1):
            path = base + ("players", player)
            core.bump(stats, path + ("came_in",), sign)
            core.bump(stats, path + ("came_in_order_sum",), sign * order)
        for player in record["players"]:
            core.bump(stats, base + ("players", player, "deals"), sign)
        for player, left in game["cards_left"].items():
            path = base + ("players", player)
            core.bump(stats, path + ("left_counted",), sign)
            core.bump(stats, path + ("cards_left",), sign * left)


def _rockit_view(node: Mapping[str, Any], lower: bool) -> dict:
    core = _core()

    def row(n: Mapping[str, Any]) -> dict:
        deals = n.get("deals", 0)
        return {"games": deals, "game_wins": n.get("game_wins", 0),
                "game_win_pct": core.pct(n.get("game_wins", 0), deals),
                "came_in": n.get("came_in", 0),
                "came_in_pct": core.pct(n.get("came_in", 0), deals),
                "average_come_in_order": core.mean(n.get("came_in_order_sum", 0),
                                                   n.get("came_in", 0)),
                "blocked_games_counted": n.get("left_counted", 0),
                "average_cards_left": core.mean(n.get("cards_left", 0),
                                                n.get("left_counted", 0))}

    return {"games": node.get("deals", 0), "blocked_games": node.get("blocked", 0),
            "players": {p: row(n) for p, n in sorted(node.get("players", {}).items())}}


# --- Rocca ----------------------------------------------------------------------------

def _rocca(stats: dict, base: tuple, record, facts, sign: int) -> None:
    core = _core()
    if not facts.get("complete"):
        return
    core.bump(stats, base + ("counted",), sign)
    for player in record["players"]:
        path = base + ("players", player)
        core.bump(stats, path + ("games",), sign)
        core.bump(stats, path + ("one_penalties",),
                  sign * facts["one_penalties"].get(player, 0))
        core.bump(stats, path + ("drawn",), sign * facts["drawn"].get(player, 0))


def _rocca_view(node: Mapping[str, Any], lower: bool) -> dict:
    core = _core()

    def row(n: Mapping[str, Any]) -> dict:
        games = n.get("games", 0)
        return {"games": games, "one_penalties": n.get("one_penalties", 0),
                "cards_drawn": n.get("drawn", 0),
                "average_cards_drawn": core.mean(n.get("drawn", 0), games)}

    return {"games_counted": node.get("counted", 0),
            "players": {p: row(n) for p, n in sorted(node.get("players", {}).items())}}


_FOLDERS = {
    "rook": _rook,
    "zocknroll": _zocknroll,
    "rainbow_rummy": _rainbow_rummy,
    "rockit": _rockit,
    "rocca": _rocca,
}

_VIEWS = {
    "rook": _rook_view,
    "zocknroll": _zocknroll_view,
    "rainbow_rummy": _rainbow_rummy_view,
    "rockit": _rockit_view,
    "rocca": _rocca_view,
}
