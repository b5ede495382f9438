"""Zock'n'Roll as a game: settings, new, apply, summary and :data:`GAME` (RULES.md §1).

The state is the seats, the settings and a log of entries (one per move, made by
:mod:`.turn`); :func:`_fold` replays the log into the marks, the turns and the end
(ZNR-8), and :func:`summary` reads the score sheet off it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..game import PAPER, Game, Setting, check_seats, check_settings
from ..said import N_, Said, joined, message
from ..text import join_names, number
from ..verdict import RuleError
from .board import (_BOARD_ROWS, _BOARD_WORDS, _LABELS, _ROWS, DROPPED, JORG, MAX_PLAYERS,
                    MIN_PLAYERS, NAME, OWN_DICE, SLUG, WINNER, _NOBODY, _final, _jorg_key, _ordinal)
from .hands import _best
from .turn import (_drop_entry, _end_turn_entry, _guided_round, _mark_entry, _new_turn,
                   _order, _reveal_entry, _reveal_rule, _revealed_text, _roll_entry,
                   _showdown_entry, _stay_entry, _to_reveal, _undecided)

__all__ = ["GAME", "RULES", "SETTINGS", "apply", "from_paper", "new", "reveal_default",
           "summary"]

RULES: dict[str, str] = {
    "ZNR-1": "3 to 6 players each use a board and dice of their colour: 2 on the beginner "
             "board, 3 on the advanced board; the dealer holds the 5 white dice.",
    "ZNR-2": "Round 1 (3 white dice): a player who drops out reveals and checks Dropped Out "
             "First Round plus the row of the best hand made with own and white dice, if "
             "the dice make one.",
    "ZNR-3": "Round 2 (4 white dice): a player who drops out checks only the row of the best "
             "hand; Dropped Out First Round cannot be checked in round 2.",
    "ZNR-4": "Round 3 (5 white dice): everyone still in reveals; whoever holds the best hand, "
             "the highest row on the board, checks it, a single holder also checks Winner of "
             "Third Round, and the others still in check nothing.",
    "ZNR-5": "Dice values never break ties: a Full House is a Full House whatever the "
             "numbers.",
    "ZNR-6": "With exactly 3 players the imaginary player Jörg rolls too, never drops out and "
             "can win or tie round 3, but he has no board and scores nothing.",
    "ZNR-7": "After every turn the deal passes to the left.",
    "ZNR-8": "When a player makes the 6th check in any one row (the 7th if the house rules "
             "say so), the turn is played to the end of round 3 and then the game ends.",
    "ZNR-9": "Final score: checks times the row's points, 1 per Dropped Out First Round check "
             "and N per Winner of Third Round check (N players); the highest total wins, a "
             "tie goes to the most Winner checks, and a tie after that shares the win.",
    "Z-A1": "The game ends at the 6th check in one row, as the rule sheet says; the house "
            "rules may make it the 7th, the last circle.",
    "Z-A2": "In a 3-player game a Winner of Third Round check is worth 3, as Jörg has no "
            "board; the house rules may count Jörg and make it 4.",
    "Z-A3": "Different hands worth the same points are ranked by their place on the board; "
            "the house rules may make equal points a tie.",
    "Z-A4": "Advanced rows: Royal Pairs is four different pairs, Large Full House four of a "
            "kind plus a pair of another number, Highway 1 to 6, Double Trips two different "
            "triples, Three Pairs three different pairs, Short Straight four in a row; a four "
            "of a kind is never two pairs.",
    "Z-A5": "A dropping player checks the row of the best hand the dice make; the house rules "
            "may allow any row the dice make.",
    "Z-A6": "If nobody stays in to round 3, nothing is checked in round 3; if only Jörg stays, "
            "nothing happens.",
    "Z-A7": "Several players making the ending check in the same turn changes nothing: the "
            "game ends after that turn.",
    "Z-A8": "The game is by Jörg von Rüden; the imaginary player Jörg is named after him.",
}

SETTINGS: tuple[Setting, ...] = (
    Setting("board", N_("Board"), "choice", "beginner",
            choices=(("beginner", N_("Beginner (2 own dice)")),
                     ("advanced", N_("Advanced (3 own dice)"))),
            help=N_("The beginner side of the boards with 2 dice each, or the advanced side "
                    "with 3 dice each and more hands."),
            rule="ZNR-1"),
    Setting("end_at", N_("Check in one row that ends the game"), "int", 6, 6, 7,
            help=N_("The game ends after the turn in which someone makes this check in one "
                    "row: the 6th as the rule sheet says, or the 7th, the last circle."),
            rule="Z-A1"),
    Setting("jorg_counts", N_("Jörg counts for Winner points"), "bool", False,
            help=N_("With 3 players, each Winner of Third Round check is worth 4 points "
                    "instead of 3."),
            rule="Z-A2"),
    Setting("equal_points", N_("Different hands with equal points"), "choice", "board",
            choices=(("board", N_("The higher row wins")), ("tie", N_("They tie"))),
            help=N_("In round 3, whether a hand higher on the board beats a different hand "
                    "worth the same points, or the two tie."),
            rule="Z-A3"),
    Setting("best_forced", N_("A dropping player must check the best hand"), "bool", True,
            help=N_("Untick to let a player who drops out check any row the dice make."),
            rule="Z-A5"),
)


def new(settings: dict | None, seats: list[str]) -> dict:
    """Start a game: validated settings (ValueError if bad) and 3–6 named seats in seating
    order. With 3 seats Jörg joins, so no player may be called Jörg."""
    settings = check_settings(SETTINGS, settings, NAME)
    names = check_seats(seats, MIN_PLAYERS, MAX_PLAYERS, NAME)
    if len(names) == 3 and any(_jorg_key(name) for name in names):
        raise ValueError(N_("With 3 players the imaginary player Jörg joins the game: please "
                            "give the player called Jörg another name."))
    return {"game": SLUG, "settings": settings, "seats": names, "log": []}


def _paper_entry(state: dict, paper: Any) -> dict:
    """A paper board's checks, checked: ``{player: {row: checks}}`` for players of this
    table (Jörg keeps no board), rows of this board, whole numbers from 0 (ZNR-9) and
    fewer than the check that ends the game (ZNR-8, Z-A1: that game would be over). A row
    or a player left out has no checks. Every player and row comes back, in board order."""
    s, seats = state["settings"], state["seats"]
    board, end_at = s["board"], s["end_at"]
    given = paper.get("checks") if isinstance(paper, Mapping) else None
    if not isinstance(given, Mapping):
        raise RuleError(N_("Write down each player's checks from the paper boards."),
                        rule="ZNR-9")
    for player in given:
        if player not in seats:
            raise RuleError(message("zocknroll", "'{player}' has no board at this table.",
                                    player=str(player)), rule="ZNR-1")
    checks: dict[str, dict[str, int]] = {}
    for player in seats:
        rows = given.get(player) or {}
        if not isinstance(rows, Mapping):
            raise RuleError(message("zocknroll", "{player}'s board must list rows and their "
                                    "checks.", player=player), rule="ZNR-9")
        for row in rows:
            if row not in _ROWS[board]:
                label = next((_LABELS[b][row] for b in _LABELS if row in _LABELS[b]),
                             str(row))     # the other board's row, by its printed name
                raise RuleError(message("zocknroll", "{player}'s board: {row} is not a row "
                                        "of the {board} board.", player=player, row=label,
                                        board=_BOARD_WORDS[board]), rule="ZNR-9")
        checks[player] = {}
        for row in _ROWS[board]:
            count = rows.get(row, 0)
            label = _LABELS[board][row]
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise RuleError(message("zocknroll", "{player}'s checks in {row} must be a "
                                        "whole number of 0 or more.", player=player, row=label),
                                rule="ZNR-9")
            if count >= end_at:
                raise RuleError(message("zocknroll", "{player} has {count} checks in {row}: "
                                        "check {end} in one row ends the game, so that game "
                                        "is over.", player=player, count=count, row=label,
                                        end=end_at),
                                rule="ZNR-8")
            checks[player][row] = count
    return {"checks": checks}


def from_paper(settings: dict | None, seats: list[str], paper: Mapping[str, Any]) -> dict:
    """A game that goes on from the players' paper boards: ``paper`` is ``{"checks":
    {player: {row: checks}}}`` (RuleError when a board can't be: see _paper_entry). The
    checks count in the final score and toward the end (ZNR-8, ZNR-9); the turns count
    from 1 again, dealt by the first seat."""
    state = new(settings, seats)
    state["paper"] = _paper_entry(state, paper)
    return state


def _check_state(state: Any) -> None:
    if not isinstance(state, dict) or state.get("game") != SLUG:
        raise ValueError(N_("This is not a Zock'n'Roll game."))


def _multiplier(settings: Mapping[str, Any], seats: list[str]) -> int:
    """Points per Winner check: the players with a board, plus Jörg if he counts (Z-A2)."""
    return len(seats) + (1 if len(seats) == 3 and settings["jorg_counts"] else 0)


def _fold(state: dict) -> dict:
    """Replay the log: marks, the turns played, the turn in progress and the end."""
    s, seats = state["settings"], state["seats"]
    board = s["board"]
    paper = (state.get("paper") or {}).get("checks") or {}
    marks = {p: {row: (paper.get(p) or {}).get(row, 0) for row in _ROWS[board]} for p in seats}
    turns: list[dict] = []
    cur = _new_turn(1, seats)
    triggers: list[dict] = []
    over = False
    for entry in state["log"]:
        kind = entry["kind"]
        player = entry.get("player")
        if kind == "drop":
            cur["dropped"][player] = entry["round"]
            cur["drop_rows"][player] = entry.get("row")
            cur["dice_drops"].append(player)
            cur["hands"].append((player, entry["round"], entry["dice"]))
        elif kind == "mark":
            row, rnd = entry["row"], entry["round"]
            if entry.get("dice") is not None:
                cur["hands"].append((player, rnd, entry["dice"]))
            if row == WINNER:
                cur["winner"] = player
            elif rnd == 3:
                cur["round3"][player] = row
            else:
                cur["dropped"][player] = rnd
        elif kind == "showdown":
            cur["showdown"] = {key: entry[key] for key in
                               ("dice", "rows", "best", "holders", "winner")}
            last = entry.get("revealed")
            if last:
                # The last reveal is logged as the showdown it settles: its own line first,
                # so every reveal is in the turn log with its dice.
                cur["revealed"][last["player"]] = last["dice"]
                cur["lines"].append({"kind": "reveal",
                                     "text": _revealed_text(last["player"], last["dice"]),
                                     "rule": _reveal_rule(last["player"]), "checks": []})
            cur["hands"].extend((who, 3, dice) for who, dice in entry["dice"].items())
        elif kind == "roll":
            cur["white"].extend(entry["dice"])
        elif kind == "stay":
            cur["stayed"][player] = entry["round"]
        elif kind == "reveal":
            cur["revealed"][player] = entry["dice"]
        for who, row, _rule in entry["checks"]:
            marks[who][row] += 1
            cur["checked"].setdefault(who, []).append(row)
            if marks[who][row] == s["end_at"]:
                triggers.append({"player": who, "row": row, "label": _LABELS[board][row],
                                 "turn": cur["turn"], "checks": s["end_at"]})
        cur["lines"].append({"kind": kind, "text": entry["text"], "rule": entry["rule"],
                             "checks": [{"player": who, "row": row, "rule": rule}
                                        for who, row, rule in entry["checks"]]})
        if kind in ("showdown", "end_turn"):
            cur["ended_by"] = kind
            turns.append(cur)
            if triggers:
                over = True
                break
            cur = _new_turn(cur["turn"] + 1, seats)
    return {"marks": marks, "turns": turns, "current": None if over else cur,
            "triggers": triggers, "over": over}


#: Each move's kind to the function that makes its log entry (``(state, sheet, action)``).
_MOVES = {
    "drop": _drop_entry,
    "showdown": _showdown_entry,
    "mark": _mark_entry,
    "end_turn": _end_turn_entry,
    "roll": _roll_entry,
    "stay": _stay_entry,
    "reveal": _reveal_entry,
}


def apply(state: dict, action: dict) -> dict:
    """Return the state after ``action``; ``state`` is left untouched.

    Raises RuleError after the game is over (ZNR-8), for an unknown action or player,
    a second drop by one player in a turn, dice that do not fit the round, dice (or a roll)
    that cannot share one set of white dice with the rest of the turn (:func:`check_white_dice`),
    a showdown that leaves out (or adds) a player, or a tapped circle the rules forbid.
    """
    _check_state(state)
    sheet = _fold(state)
    if sheet["over"]:
        winners = _final(sheet["marks"], state["settings"]["board"],
                         _multiplier(state["settings"], state["seats"]))["winners"]
        raise RuleError(message("zocknroll", "The game is over: {players} won. Start a "
                                "rematch to play again.",
                                players=join_names(winners, nobody=_NOBODY)), rule="ZNR-8")
    kind = action.get("kind") if isinstance(action, dict) else None
    if kind == PAPER:
        if state["log"] or state.get("paper"):
            raise RuleError(N_("The paper boards can only start a game, before its first "
                               "move."), rule="ZNR-9")
        fresh = json.loads(json.dumps(state))
        _keep_texts(state["log"], fresh["log"])
        fresh["paper"] = _paper_entry(state, action.get("paper"))
        return fresh
    move = _MOVES.get(kind) if isinstance(kind, str) else None
    if move is None:
        if isinstance(kind, str) and kind:
            raise RuleError(message("zocknroll", "'{kind}' is not a Zock'n'Roll action: enter a "
                                    "roll, a stay, a drop, a reveal, a showdown, a mark or the "
                                    "end of a turn.", kind=kind), rule="ZNR-1")
        raise RuleError(N_("That is not a Zock'n'Roll action: enter a roll, a stay, a drop, a "
                           "reveal, a showdown, a mark or the end of a turn."), rule="ZNR-1")
    entry = move(state, sheet, action)
    # A JSON copy (the state stays JSON-ready and apply never mutates), keeping the history
    # lines' Saids, which a JSON round trip would turn into plain English strings.
    fresh = json.loads(json.dumps(state))
    _keep_texts(state["log"], fresh["log"])
    fresh["log"].append(json.loads(json.dumps(entry)) | {"text": entry["text"]})
    return fresh


def _keep_texts(original: list, copied: list) -> list:
    """``copied``, a JSON copy of the dicts ``original``, with their ``text`` Saids put back
    (a history line keeps its template, so the web can say it in the phone's language)."""
    for old, new in zip(original, copied):
        if isinstance(old, Mapping) and isinstance(new, dict) \
                and isinstance(old.get("text"), Said):
            new["text"] = old["text"]
    return copied


def _keep_said(result: dict | None) -> dict | None:
    """A JSON copy of a turn result with its headline Said kept (see :func:`_keep_texts`)."""
    if result is None:
        return None
    copied = json.loads(json.dumps(result))
    copied["text"] = result["text"]
    for part in ("hands", "drops"):
        for old, new in zip(result[part], copied[part]):
            new["label"] = old["label"]
    return copied


def _end_rule(s: Mapping[str, Any], multiplier: int) -> dict:
    text = message("zocknroll", "The turn in which someone makes the {ordinal} check in one "
                   "row is the last. Then each check scores its row's points (Winner of Third "
                   "Round {multiplier}); the highest total wins, ties go to the most Winner "
                   "checks.", ordinal=_ordinal(s["end_at"]), multiplier=multiplier)
    return {"text": text, "rule": "ZNR-8", "rules": ["ZNR-8", "ZNR-9", "Z-A1"]}


def _guided_summary(cur: dict | None, seats: list[str], board: str) -> dict:
    """Where the guided turn stands, for the phones.

    ``phase``: ``roll`` (the dealer rolls ``roll_count`` white dice), ``decide`` (``next``
    says stay or drop; ``waiting`` lists everyone still to decide), ``reveal`` (``waiting``
    still show their dice in round 3), ``empty`` (nobody is left in: end the turn) or
    ``over``. Also ``round`` (None before the first roll), ``white`` (the white dice),
    ``order`` (decision order), ``stayed`` and ``revealed`` (own dice by player).
    """
    if cur is None:
        return {"phase": "over", "round": None, "white": [], "order": [], "next": None,
                "waiting": [], "roll_count": 0, "stayed": {}, "revealed": {},
                "own_dice": OWN_DICE[board]}
    round_no = _guided_round(cur)
    still_in = [p for p in seats if p not in cur["dropped"]]
    waiting = _undecided(cur, seats) if round_no in (1, 2) else _to_reveal(cur, seats)
    if round_no is None:
        phase = "roll"
    elif not still_in:
        phase = "empty"
    elif round_no == 3:
        phase = "reveal"
    else:
        phase = "decide" if waiting else "roll"
    return {"phase": phase, "round": round_no, "white": list(cur["white"]),
            "order": _order(seats, cur["dealer"]),
            "next": waiting[0] if phase == "decide" else None,
            "waiting": waiting if phase in ("decide", "reveal") else [],
            "roll_count": (3 if round_no is None else 1) if phase == "roll" else 0,
            "stayed": dict(cur["stayed"]),
            "revealed": {p: list(d) for p, d in cur["revealed"].items()},
            "own_dice": OWN_DICE[board]}


def _own(dice: list[int], white: list[int]) -> list[int] | None:
    """A player's own dice: ``dice`` (own and white) less the white dice, or None when the
    white dice are not all among them (a turn whose white dice the phones did not follow)."""
    rest = list(dice)
    for die in white:
        if die not in rest:
            return None
        rest.remove(die)
    return sorted(rest)


def _turn_result(turn: dict | None, board: str) -> dict | None:
    """What a finished turn came to, for the top of every phone until the next turn's first
    move: the headline (the showdown's sentence, or the end of a turn tapped on paper), the
    white dice, every round-3 hand (own dice, all dice, the row they make, who holds the best
    hand and who won) and every drop (its round, dice and row). None without a turn."""
    if turn is None:
        return None
    label = _LABELS[board]
    white = list(turn["white"])
    headline = turn["lines"][-1]
    if turn["ended_by"] == "end_turn":
        # Tapped on paper: the round-3 winner's check says who won, else the turn's end.
        headline = next((line for line in reversed(turn["lines"])
                         if any(c["row"] == WINNER for c in line["checks"])), headline)
    hands = []
    shown = turn["showdown"]
    if shown is not None:
        for player, dice in shown["dice"].items():
            row = shown["rows"][player]
            found = _best(dice, board)
            hands.append({"player": player, "dice": list(dice),
                          "own": _own(dice, white) if len(white) == 5 else None,
                          "used": list(found[1]) if found else [],
                          "row": row, "label": label[row] if row else None,
                          "best": player in shown["holders"],
                          "winner": player == shown["winner"]})
    else:   # a turn tapped on paper: the round-3 checks, no dice
        for player, row in turn["round3"].items():
            hands.append({"player": player, "dice": [], "own": None, "used": [], "row": row,
                          "label": label[row], "best": True,
                          "winner": player == turn["winner"]})
    drops = []
    for player, round_no, dice in turn["hands"]:
        if round_no == 3 or player not in turn["drop_rows"]:
            continue
        row = turn["drop_rows"][player]
        drops.append({"player": player, "round": round_no, "dice": list(dice),
                      "own": (_own(dice, white[:round_no + 2])
                              if len(white) >= round_no + 2 else None),
                      "row": row, "label": label[row] if row else None})
    for player, round_no in turn["dropped"].items():
        if player not in turn["drop_rows"]:     # tapped on paper: the row, no dice
            row = next((r for r in turn["checked"].get(player, []) if r != DROPPED), None)
            drops.append({"player": player, "round": round_no, "dice": [], "own": None,
                          "row": row, "label": label[row] if row else None})
    return {"turn": turn["turn"], "dealer": turn["dealer"], "text": headline["text"],
            "rule": headline["rule"], "white": white, "hands": hands, "drops": drops}


def reveal_default(summary: dict, viewer: str | None) -> str | None:
    """Whose dice a phone held by ``viewer`` (a player's name, or None for a spectator) is
    asked for first in the round-3 reveal of a guided turn (``summary`` is
    :func:`summary`'s result): the viewer's own while they still have to show them, else
    Jörg's on the dealer's phone, else the first player still to show; None when nobody
    is waiting."""
    waiting = summary["guided"]["waiting"]
    if viewer in waiting:
        return viewer
    if JORG in waiting and viewer is not None and viewer == summary["dealer"]:
        return JORG
    return waiting[0] if waiting else None


def summary(state: dict) -> dict:
    """The score sheet.

    Keys: game, board, seats, settings, house_rules, jorg (Jörg plays), multiplier, rows
    (``[{"key", "label", "points"}]`` top to bottom), marks (``{player: {row: checks}}``, every
    row), totals, over, winners, leaders, tie_break, dealer (of the turn in progress; None
    once over), turn (its number; once over, the last turn's), turns_played, dropped (this
    turn: ``{player: round}``), still_in (players who have not dropped this turn),
    showdown_players (still_in plus Jörg), checked (this turn: ``{player: [rows]}``),
    last_turn (the end was announced), guided (the guided turn: see
    :func:`_guided_summary`), end (the announcement: ``{"player", "row", "label",
    "turn", "checks", "text", "rule", "triggers"}`` or None), turns (every turn: number,
    dealer, dropped, showdown, ended_by, lines), turn_result (the last finished turn's
    outcome from its end until the next turn's first move, else None: see
    :func:`_turn_result`), paper (``{"checks", "totals"}``: the paper boards the game
    went on from and what they score, else None), end_rule, over_reason, result, rules.
    """
    _check_state(state)
    s, seats = state["settings"], state["seats"]
    board = s["board"]
    sheet = _fold(state)
    multiplier = _multiplier(s, seats)
    final = _final(sheet["marks"], board, multiplier)
    totals = final["scores"]
    over = sheet["over"]
    cur = sheet["current"]
    turns = sheet["turns"] + ([cur] if cur is not None and cur["lines"] else [])
    any_checks = any(any(row.values()) for row in sheet["marks"].values())
    triggers = sheet["triggers"]
    end = None
    if triggers:
        first = triggers[0]
        parts = [message("zocknroll", "{player} made the {ordinal} check in {row}: turn "
                         "{turn} is the last.", player=first["player"],
                         ordinal=_ordinal(first["checks"]), row=first["label"],
                         turn=first["turn"])]
        if len(triggers) > 1:
            others = join_names((message("zocknroll", "{player} ({row})", player=t["player"],
                                         row=t["label"]) for t in triggers[1:]),
                                nobody=_NOBODY)
            parts.append(message("zocknroll", "Also a {ordinal} check: {others}.",
                                 ordinal=_ordinal(first["checks"]), others=others))
        parts.append(message("zocknroll", "The game is scored.") if over
                     else message("zocknroll", "Play it to the end of round 3, then the game "
                                  "is scored."))
        text = joined(parts)
        end = {**{k: first[k] for k in ("player", "row", "label", "turn", "checks")},
               "text": text, "rule": "ZNR-8", "triggers": [dict(t) for t in triggers]}
    winners = final["winners"] if over else []
    over_reason = result = None
    if over:
        over_reason = {"text": message("zocknroll", "{player} made the {ordinal} check in "
                                       "{row}, and turn {turn} has been played out.",
                                       player=triggers[0]["player"],
                                       ordinal=_ordinal(triggers[0]["checks"]),
                                       row=triggers[0]["label"], turn=triggers[0]["turn"]),
                       "rule": "ZNR-8"}
        score = number(totals[winners[0]])
        if len(winners) == 1 and final["tie_break"]:
            beaten = join_names((p for p in final["tied"] if p != winners[0]), nobody=_NOBODY)
            text = message("zocknroll", "{player} wins with {score}, tied with {others} but "
                           "with more Winner of Third Round checks ({wins}).",
                           player=winners[0], score=score, others=beaten,
                           wins=final["wins"][winners[0]])
        elif len(winners) == 1:
            text = message("zocknroll", "{player} wins with {score}.", player=winners[0],
                           score=score)
        else:
            text = message("zocknroll", "{players} share the win with {score}.",
                           players=join_names(winners, nobody=_NOBODY), score=score)
        result = {"text": text, "rule": "ZNR-9"}
    still_in = [] if cur is None else [p for p in seats if p not in cur["dropped"]]
    jorg = len(seats) == 3
    guided = _guided_summary(cur, seats, board)
    return {
        "game": SLUG,
        "board": board,
        "seats": list(seats),
        "settings": dict(s),
        "house_rules": GAME.describe_settings(s),
        "jorg": jorg,
        "multiplier": multiplier,
        "rows": [{"key": key, "label": label,
                  "points": multiplier if key == WINNER else points}
                 for key, label, points in _BOARD_ROWS[board]],
        "marks": {p: dict(row) for p, row in sheet["marks"].items()},
        "totals": dict(totals),
        "over": over,
        "winners": list(winners),
        "leaders": list(final["winners"]) if any_checks else [],
        "tie_break": bool(over and final["tie_break"]),
        "dealer": None if cur is None else cur["dealer"],
        "turn": turns[-1]["turn"] if cur is None else cur["turn"],
        "turns_played": len(sheet["turns"]),
        "dropped": {} if cur is None else dict(cur["dropped"]),
        "still_in": still_in,
        "showdown_players": still_in + ([JORG] if jorg and cur is not None else []),
        "checked": {} if cur is None else {p: list(r) for p, r in cur["checked"].items()},
        "last_turn": bool(triggers) and not over,
        "guided": guided,
        "end": end,
        "turns": [{"turn": t["turn"], "dealer": t["dealer"], "dropped": dict(t["dropped"]),
                   "showdown": json.loads(json.dumps(t["showdown"])),
                   "ended_by": t["ended_by"],
                   "lines": _keep_texts(t["lines"], json.loads(json.dumps(t["lines"])))}
                  for t in turns],
        "turn_result": _keep_said(_turn_result(
            sheet["turns"][-1] if sheet["turns"] and (cur is None or not cur["lines"])
            else None, board)),
        "paper": ({"checks": {p: dict(rows) for p, rows in state["paper"]["checks"].items()},
                   "totals": _final(state["paper"]["checks"], board, multiplier)["scores"]}
                  if state.get("paper") else None),
        "end_rule": _end_rule(s, multiplier),
        "over_reason": over_reason,
        "result": result,
        "rules": dict(RULES),
    }


GAME = Game(
    slug=SLUG,
    name=NAME,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    teams=False,
    new=new,
    apply=apply,
    summary=summary,
    settings_fields=SETTINGS,
    rules=MappingProxyType(RULES),
    from_paper=from_paper,
    paper_fields=("checks",),
)
