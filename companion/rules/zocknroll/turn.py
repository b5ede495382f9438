"""One Zock'n'Roll turn: rounds 1 to 3, drop-outs, the showdown, Jörg (RULES.md §1.3, §1.5).

Each move of a turn becomes a log entry here (``_<kind>_entry(state, sheet, action)``: the
checks it gives, its history line and its rule), refused with a RuleError when the rules
forbid it. ``sheet`` is the game's replayed log (``game._fold``): its ``current`` turn is
the one the move belongs to. Paper mode's tapped circles are checked by :func:`check_mark`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..said import N_, message, said_of
from ..text import join_names
from ..verdict import RuleError, Verdict
from .board import (_BOARD_WORDS, _HAND_ROWS, _LABELS, _POINTS, DROPPED, JORG, OWN_DICE,
                    WHITE_DICE, WINNER, _board, _check_row, _dice, _is_int, _jorg_key,
                    _NOBODY, _ordinal, _said, _show, dice_count)
from .hands import _best, _found, _rank, showdown
from .white import _check_turn_white, check_white_dice

__all__ = ["check_mark"]


def check_mark(board: Any, round_no: int, row: str, dice: Iterable[int] | None = None,
               best_forced: bool = True) -> Verdict:
    """May a player check this row in this round (with these dice, when given)? (Paper mode.)

    Dropped Out First Round only in round 1 (ZNR-2; refused in round 2, ZNR-3, and round 3,
    ZNR-4); Winner of Third Round only in round 3 (ZNR-4); a hand row in any round. With
    dice (as many as the round gives: :func:`dice_count`) the row must be one they make,
    and their best one in round 3 or when ``best_forced`` (Z-A5). Whether the player may
    still drop out, or holds the single best hand, depends on the table: ``apply`` checks it.
    details: ``row``, ``round``, ``best`` and ``present`` (None without dice).
    """
    board = _board(board)
    _check_row(board, row)
    wanted = dice_count(board, round_no)
    label = _LABELS[board][row]
    details: dict[str, Any] = {"row": row, "round": round_no, "best": None, "present": None}
    rule = {1: "ZNR-2", 2: "ZNR-3", 3: "ZNR-4"}[round_no]
    if row == DROPPED:
        if round_no == 1:
            return Verdict(True, N_("A player who drops out in round 1 checks Dropped Out "
                                    "First Round."), "ZNR-2", details)
        if round_no == 2:
            return Verdict(False, N_("Dropping out in round 2 gives no check in Dropped Out "
                                     "First Round: check only the hand."), "ZNR-3", details)
        return Verdict(False, N_("Players still in at round 3 did not drop out: no check in "
                                 "Dropped Out First Round."), "ZNR-4", details)
    if row == WINNER:
        if round_no == 3:
            return Verdict(True, N_("Winner of Third Round goes to the only player holding "
                                    "the best hand in round 3."), "ZNR-4", details)
        return Verdict(False, message("zocknroll", "Winner of Third Round is checked only in "
                                      "round 3, not in round {round}.", round=round_no),
                       "ZNR-4", details)
    if dice is None:
        return Verdict(True, message("zocknroll", "{row} may be checked in round {round} by a "
                                     "player whose dice make it.", row=label, round=round_no),
                       rule, details)
    dice = _dice(dice, board)
    found = _found(dice, board)
    present = [r for r, _ in found]
    best = present[0] if present else None
    details.update(best=best, present=present)
    if len(dice) != wanted:
        return Verdict(False, message("zocknroll", "In round {round} of the {board} game a "
                                      "player has {wanted} dice ({own} own and {white} "
                                      "white), not {count}.", round=round_no,
                                      board=_BOARD_WORDS[board], wanted=wanted,
                                      own=OWN_DICE[board], white=WHITE_DICE[round_no],
                                      count=len(dice)), rule, details)
    if row not in present:
        return Verdict(False, message("zocknroll", "{dice} do not make {row}.",
                                      dice=_show(dice), row=label), rule, details)
    if row != best and (round_no == 3 or best_forced):
        best_label = _LABELS[board][best]
        return Verdict(False, message("zocknroll", "{dice} make {best}, which is higher than "
                                      "{row}: the best hand is the row to check.",
                                      dice=_show(dice), best=best_label, row=label),
                       "ZNR-4" if round_no == 3 else "Z-A5", details)
    if row != best:
        return Verdict(True, message("zocknroll", "{dice} make {row} ({points} points); the "
                                     "house rules allow it below the best hand, {best}.",
                                     dice=_show(dice), row=label,
                                     points=_POINTS[board][row], best=_LABELS[board][best]),
                       "Z-A5", details)
    return Verdict(True, message("zocknroll", "{dice} make {row}: check it ({points} points).",
                                 dice=_show(dice), row=label, points=_POINTS[board][row]),
                   rule, details)


# ---------------------------------------------------------------------------------------
# The turn in progress (``cur``: what ``game._fold`` keeps of the current turn).

def _new_turn(number_: int, seats: list[str]) -> dict:
    """A turn before anyone acted: its number, its dealer (the deal passes to the left after
    every turn, ZNR-7) and empty records of drops, stays, checks, white dice and hands."""
    return {"turn": number_, "dealer": seats[(number_ - 1) % len(seats)], "dropped": {},
            "dice_drops": [], "checked": {}, "round3": {}, "winner": None, "lines": [],
            "showdown": None, "ended_by": None, "white": [], "stayed": {}, "revealed": {},
            "hands": [], "drop_rows": {}}


def _order(seats: list[str], dealer: str) -> list[str]:
    """Decision order: from the dealer's left, clockwise, the dealer last (ZNR-2)."""
    start = seats.index(dealer) + 1
    return seats[start:] + seats[:start]


def _guided_round(cur: dict) -> int | None:
    """The round the rolled white dice open (3, 4, 5 dice → 1, 2, 3); None before a roll."""
    return {3: 1, 4: 2, 5: 3}.get(len(cur["white"]))


def _undecided(cur: dict, seats: list[str]) -> list[str]:
    """Players still in who have not yet said stay or drop in the current round."""
    round_no = _guided_round(cur)
    if round_no not in (1, 2):
        return []
    return [p for p in _order(seats, cur["dealer"])
            if p not in cur["dropped"] and cur["stayed"].get(p, 0) < round_no]


def _to_reveal(cur: dict, seats: list[str]) -> list[str]:
    """Round 3 of a guided turn: who still has to show their dice (Jörg last)."""
    if _guided_round(cur) != 3:
        return []
    still_in = [p for p in _order(seats, cur["dealer"]) if p not in cur["dropped"]]
    waiting = [p for p in still_in if p not in cur["revealed"]]
    if len(seats) == 3 and still_in and JORG not in cur["revealed"]:
        waiting.append(JORG)
    return waiting


# ---------------------------------------------------------------------------------------
# The moves: each checks one action against the turn so far and returns its log entry.

def _player(state: dict, name: Any, rule: str) -> str:
    """The seated player ``name`` names, or RuleError (Jörg has no seat to act from)."""
    seats = state["seats"]
    if isinstance(name, str) and name in seats:
        return name
    if len(seats) == 3 and _jorg_key(name):
        raise RuleError(N_("Jörg never drops out and has no board: he only reveals his dice "
                           "in round 3."), rule="ZNR-6")
    if not isinstance(name, str) or not name:
        raise RuleError(N_("Name the player."), rule)
    raise RuleError(message("zocknroll", "'{name}' is not playing at this table.", name=name),
                    rule)


def _round(value: Any, allowed: tuple[int, ...], rule: str) -> int:
    if not _is_int(value) or value not in allowed:
        if allowed == (1, 2) and value == 3 and _is_int(value):
            raise RuleError(N_("Nobody drops out in round 3: everyone still in reveals (enter "
                               "the showdown)."), rule="ZNR-4")
        if allowed == (1, 2):
            raise RuleError(N_("A player drops out in round 1 or round 2; in round 3 everyone "
                               "still in reveals (enter the showdown)."), rule)
        raise RuleError(N_("Name the round: 1, 2 or 3."), rule)
    return value


def _action_dice(board: str, round_no: int, dice: Any, who: str, rule: str) -> list[int]:
    """The dice of one player in one round, or RuleError naming the player."""
    try:
        dice = _dice(dice, board)
    except ValueError as error:
        raise RuleError(message("zocknroll", "{player}'s dice: {error}", player=who,
                                error=_said(said_of(error))), rule) from None
    wanted = dice_count(board, round_no)
    if len(dice) != wanted:
        raise RuleError(message("zocknroll", "In round {round} of the {board} game {player} "
                                "has {wanted} dice ({own} own and {white} white), not "
                                "{count}.", round=round_no, board=_BOARD_WORDS[board],
                                player=who, wanted=wanted, own=OWN_DICE[board],
                                white=WHITE_DICE[round_no], count=len(dice)), rule)
    return dice


def _not_out_again(cur: dict, player: str, round_no: int) -> None:
    """Refuse a second drop (or a drop after round-3 checks) by the same player."""
    rule = "ZNR-2" if round_no == 1 else "ZNR-3"
    dropped = cur["dropped"].get(player)
    if dropped is not None:
        raise _dropped_once(player, dropped, rule)
    if player in cur["round3"] or cur["winner"] == player:
        raise _stayed_in(player)


def _dropped_once(player: str, dropped: int, rule: str) -> RuleError:
    """The refusal of a second drop by ``player`` in one turn (raise it)."""
    return RuleError(message("zocknroll", "{player} already dropped out in round {round} of "
                             "this turn: a player drops out at most once per turn.",
                             player=player, round=dropped), rule)


def _stayed_in(player: str) -> RuleError:
    """The refusal of a drop by a player with round-3 checks (raise it)."""
    return RuleError(message("zocknroll", "{player} has round-3 checks this turn, so {player} "
                             "stayed in to round 3 and cannot drop out.", player=player),
                     rule="ZNR-4")


def _stayed_already(player: str, round_no: int, rule: str) -> RuleError:
    """The refusal of a second stay (or a drop after a stay) in one round (raise it)."""
    return RuleError(message("zocknroll", "{player} already stayed in for round {round}.",
                             player=player, round=round_no), rule)


def _check_guided_drop(cur: dict, player: str, round_no: int, dice: list[int]) -> None:
    """Once white dice are rolled, a drop belongs to the current round and uses them."""
    current = _guided_round(cur)
    if current is None:
        return  # dice not followed on the phones: drops come in any order (RULES-API)
    rule = "ZNR-2" if round_no == 1 else "ZNR-3"
    if current != round_no:
        raise RuleError(message("zocknroll", "The dealer has rolled {count} white dice, so "
                                "this is round {current}, not round {round}.",
                                count=len(cur["white"]), current=current, round=round_no),
                        rule)
    if cur["stayed"].get(player, 0) >= round_no:
        raise _stayed_already(player, round_no, rule)
    # That the dice include the rolled white dice is check_white_dice's job (_drop_entry).


def _roll_entry(state: dict, sheet: dict, action: dict) -> dict:
    """The dealer rolls white dice: 3 to open the turn, then one at a time."""
    cur = sheet["current"]
    seats = state["seats"]
    rolled = len(cur["white"])
    if rolled >= WHITE_DICE[3]:
        raise RuleError(N_("All 5 white dice are rolled: round 3 is the showdown."), rule="ZNR-4")
    waiting = _undecided(cur, seats)
    if waiting:
        raise RuleError(message("zocknroll", "{players} must say stay or drop before the dealer "
                                "rolls again.", players=join_names(waiting, nobody=_NOBODY)),
                        "ZNR-3" if rolled == 4 else "ZNR-2")
    wanted = WHITE_DICE[1] if rolled == 0 else 1
    rule = {0: "ZNR-2", 3: "ZNR-3", 4: "ZNR-4"}[rolled]
    dice = action.get("dice")
    if isinstance(dice, int) and not isinstance(dice, bool):
        dice = [dice]
    if (not isinstance(dice, list) or len(dice) != wanted
            or any(not _is_int(d) or not 1 <= d <= 6 for d in dice)):
        if wanted == 3:
            raise RuleError(N_("The dealer rolls 3 white dice: enter 3 numbers from 1 to 6."),
                            rule)
        raise RuleError(message("zocknroll", "The dealer rolls the {ordinal} white die: enter 1 "
                                "number from 1 to 6.", ordinal=_ordinal(rolled + 1)), rule)
    fit = check_white_dice(cur["hands"], cur["white"] + list(dice))
    if not fit:
        raise RuleError(message("zocknroll", "The white dice {white} don't fit the dice "
                                "already entered this turn. {reason}",
                                white=_show(cur["white"] + list(dice)), reason=fit.reason),
                        rule)
    if rolled == 0:
        text = message("zocknroll", "{dealer} rolled the white dice: {dice}. Round 1.",
                       dealer=cur["dealer"], dice=_show(dice))
    else:
        text = message("zocknroll", "{dealer} rolled the {ordinal} white die: {die}. Round "
                       "{round}.", dealer=cur["dealer"], ordinal=_ordinal(rolled + 1),
                       die=dice[0], round=_guided_round({"white": cur["white"] + dice}))
    return {"kind": "roll", "dice": list(dice), "checks": [], "text": text, "rule": rule}


def _stay_entry(state: dict, sheet: dict, action: dict) -> dict:
    """A player stays in for the current round of a guided turn."""
    cur = sheet["current"]
    round_no = _guided_round(cur)
    if round_no is None:
        raise RuleError(N_("The dealer rolls the white dice first."), rule="ZNR-2")
    if round_no == 3:
        raise RuleError(N_("In round 3 everyone still in reveals: there is no staying or "
                           "dropping."), rule="ZNR-4")
    rule = "ZNR-2" if round_no == 1 else "ZNR-3"
    player = _player(state, action.get("player"), rule)
    if player in cur["dropped"]:
        raise RuleError(message("zocknroll", "{player} already dropped out in round {round} of "
                                "this turn.", player=player, round=cur["dropped"][player]),
                        rule)
    if cur["stayed"].get(player, 0) >= round_no:
        raise _stayed_already(player, round_no, rule)
    return {"kind": "stay", "player": player, "round": round_no, "checks": [],
            "text": message("zocknroll", "{player} stays in (round {round}).", player=player,
                            round=round_no),
            "rule": rule}


def _reveal_entry(state: dict, sheet: dict, action: dict) -> dict:
    """Round 3 of a guided turn: one player's own dice; the last one settles the showdown."""
    seats, board = state["seats"], state["settings"]["board"]
    cur = sheet["current"]
    if _guided_round(cur) != 3:
        raise RuleError(N_("Dice are revealed in round 3, once the dealer has rolled all 5 "
                           "white dice."), rule="ZNR-4")
    waiting = _to_reveal(cur, seats)
    name = action.get("player")
    if _jorg_key(name) and len(seats) == 3:
        player = JORG
    else:
        player = _player(state, name, "ZNR-4")
    if player not in waiting:
        if player in cur["dropped"]:
            raise _no_showdown_dice(player, cur["dropped"][player])
        raise RuleError(message("zocknroll", "{player}'s dice are already in.", player=player),
                        rule="ZNR-4")
    own = action.get("dice")
    if (not isinstance(own, list) or len(own) != OWN_DICE[board]
            or any(not _is_int(d) or not 1 <= d <= 6 for d in own)):
        raise RuleError(message("zocknroll", "On the {board} board {player} has {own} own "
                                "dice: enter {own} numbers from 1 to 6.",
                                board=_BOARD_WORDS[board], player=player, own=OWN_DICE[board]),
                        rule="ZNR-1")
    own = sorted(own)
    revealed = {**cur["revealed"], player: own}
    if len(waiting) > 1:
        return {"kind": "reveal", "player": player, "dice": own, "checks": [],
                "text": _revealed_text(player, own), "rule": _reveal_rule(player)}
    hands = {p: sorted(d + cur["white"]) for p, d in revealed.items()}
    entry = _showdown_entry(state, sheet, {"kind": "showdown", "dice": hands})
    entry["revealed"] = {"player": player, "dice": own}
    return entry


def _revealed_text(player: str, own: list[int]) -> Any:
    """The history line of one round-3 reveal: the player and the own dice shown. The last
    reveal's entry is the showdown, so ``game._fold`` writes its line from here too."""
    return message("zocknroll", "{player} revealed {dice}.", player=player, dice=_show(own))


def _reveal_rule(player: str) -> str:
    """Jörg's reveal is his rule (ZNR-6); everyone else's is round 3's (ZNR-4)."""
    return "ZNR-6" if player == JORG else "ZNR-4"


def _no_showdown_dice(player: str, dropped: int) -> RuleError:
    """The refusal of showdown dice from a player who dropped out (raise it)."""
    return RuleError(message("zocknroll", "{player} dropped out in round {round} of this turn, "
                             "so {player} has no dice in the showdown.", player=player,
                             round=dropped), rule="ZNR-4")


def _drop_entry(state: dict, sheet: dict, action: dict) -> dict:
    s = state["settings"]
    board = s["board"]
    cur = sheet["current"]
    round_no = _round(action.get("round"), (1, 2), "ZNR-2")
    rule = "ZNR-2" if round_no == 1 else "ZNR-3"
    player = _player(state, action.get("player"), rule)
    _not_out_again(cur, player, round_no)
    dice = _action_dice(board, round_no, action.get("dice"), player, rule)
    _check_guided_drop(cur, player, round_no, dice)
    _check_turn_white(cur, [(player, round_no, dice)])
    present = [row for row, _ in _found(dice, board)]
    best = present[0] if present else None
    row = action.get("row")
    if row is None:
        row = best
    else:
        if row not in _HAND_ROWS[board]:
            raise RuleError(message("zocknroll", "{row!r} is not a hand on the {board} board.",
                                    row=row, board=_BOARD_WORDS[board]), rule)
        if row not in present:
            raise RuleError(message("zocknroll", "{player}'s dice {dice} do not make {row}.",
                                    player=player, dice=_show(dice),
                                    row=_LABELS[board][row]), rule)
        if row != best and s["best_forced"]:
            raise RuleError(message("zocknroll", "{player}'s dice {dice} make {best}, which is "
                                    "higher than {row}: a dropping player checks the best "
                                    "hand.", player=player, dice=_show(dice),
                                    best=_LABELS[board][best], row=_LABELS[board][row]),
                            rule="Z-A5")
    checks = []
    hand_rule = "Z-A5" if row is not None and row != best else rule
    if row is not None:
        checks.append([player, row, hand_rule])
    if round_no == 1:
        checks.append([player, DROPPED, "ZNR-2"])
    if row is None:
        text = message("zocknroll", "{player} dropped out in round 1 with no hand ({dice}): "
                       "Dropped Out First Round only.", player=player, dice=_show(dice))
    elif round_no == 1:
        text = message("zocknroll", "{player} dropped out in round 1 with {row} ({dice}) and "
                       "checks Dropped Out First Round.", player=player,
                       row=_LABELS[board][row], dice=_show(dice))
    else:
        text = message("zocknroll", "{player} dropped out in round {round} with {row} "
                       "({dice}).", player=player, round=round_no, row=_LABELS[board][row],
                       dice=_show(dice))
    return {"kind": "drop", "player": player, "round": round_no, "dice": dice, "row": row,
            "checks": checks, "text": text, "rule": hand_rule if row else rule}


def _showdown_entry(state: dict, sheet: dict, action: dict) -> dict:
    s, seats = state["settings"], state["seats"]
    board = s["board"]
    cur = sheet["current"]
    jorg = len(seats) == 3
    if cur["round3"] or cur["winner"]:
        raise RuleError(N_("Round 3 of this turn was already checked by hand: end the turn "
                           "instead of entering a showdown."), rule="ZNR-4")
    given = action.get("dice")
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise RuleError(N_("The showdown needs the dice of each player still in, by "
                           "player."), rule="ZNR-4")
    still_in = [p for p in seats if p not in cur["dropped"]]
    hands: dict[str, list[int]] = {}
    jorg_dice = None
    for name, dice in given.items():
        if isinstance(name, str) and name in seats:
            if name not in still_in:
                raise _no_showdown_dice(name, cur["dropped"][name])
            hands[name] = _action_dice(board, 3, dice, name, "ZNR-4")
        elif _jorg_key(name):
            if not jorg:
                raise RuleError(N_("Jörg plays only when there are exactly 3 players."),
                                rule="ZNR-6")
            jorg_dice = _action_dice(board, 3, dice, JORG, "ZNR-6")
        else:
            raise RuleError(message("zocknroll", "'{name}' is not playing at this table.",
                                    name=name), rule="ZNR-4")
    missing = [p for p in still_in if p not in hands]
    if len(missing) > 1:
        raise RuleError(message("zocknroll", "{players} stayed in to round 3, so the showdown "
                                "needs their dice.", players=join_names(missing, nobody=_NOBODY)),
                        rule="ZNR-4")
    if missing:
        raise RuleError(message("zocknroll", "{player} stayed in to round 3, so the showdown "
                                "needs the dice.", player=missing[0]), rule="ZNR-4")
    if jorg and still_in and jorg_dice is None:
        raise RuleError(N_("Jörg always stays in to round 3: enter his dice too."), rule="ZNR-6")
    ordered = {p: hands[p] for p in still_in}
    if jorg_dice is not None:
        ordered[JORG] = jorg_dice
    _check_turn_white(cur, [(p, 3, d) for p, d in ordered.items()])
    equal = s["equal_points"] == "tie"
    result = showdown(ordered, board, equal_points=equal)
    row_of = {p: _best(d, board)[0] for p, d in ordered.items()}
    checks, holders, winner = [], result["holders"], result["winner"]
    mixed = len({row_of[p] for p in holders}) > 1
    for p in holders:
        if p != JORG or not jorg:
            checks.append([p, row_of[p], "Z-A3" if mixed else "ZNR-4"])
    if winner is not None and winner in seats:
        checks.append([winner, WINNER, "ZNR-4"])
    label = _LABELS[board]
    if not ordered:
        text, rule = N_("Nobody stayed in to round 3: nothing is checked."), "Z-A6"
    elif not still_in:
        text, rule = N_("Only Jörg stayed in to round 3: nothing happens."), "Z-A6"
    elif winner == JORG and jorg:
        text, rule = (message("zocknroll", "Jörg wins round 3 with {row}: nobody checks "
                              "anything.", row=label[result["best"]]), "ZNR-6")
    elif winner is not None:
        text, rule = (message("zocknroll", "{player} wins round 3 with {row} and checks it and "
                              "Winner of Third Round.", player=winner,
                              row=label[result["best"]]), "ZNR-4")
    else:
        hands_text = join_names((message("zocknroll", "{player} ({row})", player=p,
                                         row=label[row_of[p]]) for p in holders),
                                nobody=_NOBODY)
        scoring = [p for p in holders if p != JORG or not jorg]
        if len(scoring) == 1:
            text = message("zocknroll", "Tie in round 3: {hands}. {player} checks the hand; "
                           "nobody checks Winner of Third Round.", hands=hands_text,
                           player=scoring[0])
        else:
            text = message("zocknroll", "Tie in round 3: {hands}. {players} check the hand; "
                           "nobody checks Winner of Third Round.", hands=hands_text,
                           players=join_names(scoring, nobody=_NOBODY))
        rule = "Z-A3" if mixed else ("ZNR-6" if jorg and JORG in holders else "ZNR-4")
    return {"kind": "showdown", "dice": ordered, "rows": row_of, "best": result["best"],
            "holders": holders, "winner": winner, "checks": checks, "text": text,
            "rule": rule}


def _mark_entry(state: dict, sheet: dict, action: dict) -> dict:
    s = state["settings"]
    board = s["board"]
    cur = sheet["current"]
    row = action.get("row")
    if not isinstance(row, str) or row not in _LABELS[board]:
        raise RuleError(message("zocknroll", "{row!r} is not a row of the {board} board.",
                                row=row, board=_BOARD_WORDS[board]), rule="ZNR-1")
    round_no = action.get("round")
    if round_no is None and row in (DROPPED, WINNER):
        round_no = 1 if row == DROPPED else 3
    round_no = _round(round_no, (1, 2, 3), "ZNR-4")
    rule = {1: "ZNR-2", 2: "ZNR-3", 3: "ZNR-4"}[round_no]
    player = _player(state, action.get("player"), rule)
    dice = action.get("dice")
    if dice is not None:
        dice = _action_dice(board, round_no, dice, player, rule)
    verdict = check_mark(board, round_no, row, dice, s["best_forced"])
    if not verdict:
        raise RuleError(verdict.reason, verdict.rule)
    label = _LABELS[board]
    dropped = cur["dropped"].get(player)
    r3 = cur["round3"]
    if round_no in (1, 2):
        if dropped is not None and (dropped != round_no or player in cur["dice_drops"]):
            raise _dropped_once(player, dropped, rule)
        if player in r3 or cur["winner"] == player:
            raise _stayed_in(player)
        if row != DROPPED and any(r in _HAND_ROWS[board]
                                  for r in cur["checked"].get(player, [])):
            raise RuleError(message("zocknroll", "{player} already checked a hand this turn: a "
                                    "dropping player checks one hand.", player=player), rule)
        text = message("zocknroll", "{player} dropped out in round {round}: {row}.",
                       player=player, round=round_no, row=label[row])
    else:
        if dropped is not None:
            raise RuleError(message("zocknroll", "{player} dropped out in round {round} of this "
                                    "turn and checks nothing in round 3.", player=player,
                                    round=dropped), rule="ZNR-4")
        if row == WINNER:
            if cur["winner"] is not None:
                raise RuleError(message("zocknroll", "{player} already checked Winner of Third "
                                        "Round this turn: only one player can win round 3.",
                                        player=cur["winner"]), rule="ZNR-4")
            others = [p for p in r3 if p != player]
            if others:
                raise RuleError(message("zocknroll", "{players} also checked a round-3 hand: a "
                                        "tie gives nobody Winner of Third Round.",
                                        players=join_names(others, nobody=_NOBODY)),
                                        rule="ZNR-4")
            text = message("zocknroll", "{player} won round 3: Winner of Third Round.",
                           player=player)
        else:
            if player in r3:
                raise RuleError(message("zocknroll", "{player} already checked {row} in round "
                                        "3: one hand per player.", player=player,
                                        row=label[r3[player]]), rule="ZNR-4")
            if cur["winner"] is not None and cur["winner"] != player:
                raise RuleError(message("zocknroll", "{player} won round 3 alone, so nobody "
                                        "else checks a hand in round 3.",
                                        player=cur["winner"]), rule="ZNR-4")
            equal = s["equal_points"] == "tie"
            for other, other_row in r3.items():
                if _rank(other_row, board, equal) != _rank(row, board, equal):
                    raise RuleError(
                        message("zocknroll", "{other} checked {other_row} in round 3: only the "
                                "best hand scores, so {player} can check a hand only on a tie "
                                "with it.", other=other, other_row=label[other_row],
                                player=player),
                        "Z-A3" if equal else "ZNR-4")
            text = message("zocknroll", "{player} checked {row} in round 3.", player=player,
                           row=label[row])
    if row in cur["checked"].get(player, []):
        raise RuleError(message("zocknroll", "{player} already checked {row} this turn: a row "
                                "is checked at most once per turn.", player=player,
                                row=label[row]), rule)
    if dice is not None:
        _check_turn_white(cur, [(player, round_no, dice)])
    hand_rule = verdict.rule
    return {"kind": "mark", "player": player, "row": row, "round": round_no, "dice": dice,
            "checks": [[player, row, hand_rule]], "text": text, "rule": hand_rule}


def _end_turn_entry(state: dict, sheet: dict, action: dict | None = None) -> dict:
    """The turn ends (after round 3 was tapped by hand, or when nobody could win it)."""
    seats = state["seats"]
    cur = sheet["current"]
    jorg = len(seats) == 3
    r3, winner = cur["round3"], cur["winner"]
    still_in = [p for p in seats if p not in cur["dropped"]]
    if winner is not None and winner not in r3:
        raise RuleError(message("zocknroll", "{player} checked Winner of Third Round but no "
                                "hand: check the row of the hand too.", player=winner),
                        rule="ZNR-4")
    if not jorg:
        if still_in and not r3:
            raise RuleError(message("zocknroll", "{players} stayed in to round 3, so the best "
                                    "hand among them must be checked before the turn ends.",
                                    players=join_names(still_in, nobody=_NOBODY)),
                                    rule="ZNR-4")
        if len(r3) == 1 and winner is None:
            alone = next(iter(r3))
            raise RuleError(message("zocknroll", "{player} alone holds the best hand of round "
                                    "3, so {player} also checks Winner of Third Round.",
                                    player=alone), rule="ZNR-4")
    dealer = cur["dealer"]
    return {"kind": "end_turn", "checks": [], "rule": "ZNR-7",
            "text": message("zocknroll", "Turn {turn} ({dealer} dealt) is over.",
                            turn=cur["turn"], dealer=dealer)}


