"""Score pad: any game, scored round by round (slug ``scorepad``).

settings: ``target`` (int, optional), ``rounds`` (int, optional), ``low_wins`` (bool).
actions: ``{"kind": "round", "scores": {player: int}}`` (players not named score 0) and
``{"kind": "finish"}`` (end the game now); ``{"kind": "paper", "paper": {"totals": {player:
int}}}`` as a game's first action goes on from a paper sheet (:func:`from_paper`). Rule IDs are in :data:`RULES`; the chosen
interpretations are written up in docs/RULES-NOTES.md.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from .game import PAPER, Game, Setting, check_seats, check_settings, paper_totals
from .said import N_, Said, message
from .text import join_names, number
from .verdict import RuleError

__all__ = ["GAME", "RULES", "SETTINGS", "MAX_ROUND_SCORE", "new", "apply", "summary",
           "from_paper"]

SLUG = "scorepad"
NAME = N_("Score pad")     # the only game name that is translated (the game chooser)
MIN_PLAYERS = 2
MAX_PLAYERS = 12
MAX_ROUND_SCORE = 1_000_000
#: The name in a sentence ("Score pad is for 2 to 12 players…"), looked up like the label.
_NAME = Said(NAME, template=NAME)

RULES: dict[str, str] = {
    "SP-1": N_("Each round adds every player's entered score to their total; "
               "a player left out of a round scores 0."),
    "SP-2": N_("The game ends as soon as a player's total reaches the target score or more."),
    "SP-3": N_("The game ends when the set number of rounds has been played."),
    "SP-4": N_("The best total wins (the highest, or the lowest when lowest total wins); "
               "players tied on the best total share the win."),
    "SP-5": N_("The game can be finished by hand after at least one round; "
               "it ends at once and the best total wins."),
    "SP-6": N_("A round score is a whole number from -1,000,000 to 1,000,000; "
               "negative scores are allowed."),
}

SETTINGS: tuple[Setting, ...] = (
    Setting("target", N_("Target score"), "int", None, 1, 1_000_000,
            help=N_("The game ends when someone's total reaches this score; leave empty for "
                    "none."),
            rule="SP-2"),
    Setting("rounds", N_("Number of rounds"), "int", None, 1, 1000,
            help=N_("The game ends after this many rounds; leave empty for no limit."),
            rule="SP-3"),
    Setting("low_wins", N_("Lowest total wins"), "bool", False,
            help=N_("Tick this for games like golf or Hearts, where the lowest total wins."),
            rule="SP-4"),
)


def new(settings: dict | None, seats: list[str]) -> dict:
    """Start a score pad: validated settings (ValueError if bad) and 2–12 named seats."""
    return {
        "game": SLUG,
        "settings": check_settings(SETTINGS, settings, _NAME),
        "seats": check_seats(seats, MIN_PLAYERS, MAX_PLAYERS, _NAME),
        "rounds": [],
        "finished": False,
    }


def _paper_entry(state: dict, paper: Any) -> dict:
    """A paper sheet's totals, one per player: whole numbers, negatives allowed (SP-6),
    none at or over the target, which would have ended that game (SP-2)."""
    return {"totals": paper_totals(paper, state["seats"], rule="SP-2",
                                   below=state["settings"]["target"])}


def from_paper(settings: dict | None, seats: list[str], paper: Any) -> dict:
    """A score pad that goes on from a paper sheet: ``paper`` is ``{"totals": {player:
    int}}``, every player's total so far (RuleError when one can't be). The paper's totals
    count toward the target; they are not a round (the number of rounds counts from here)."""
    state = new(settings, seats)
    state["paper"] = _paper_entry(state, paper)
    return state


def _play_round(state: dict, action: dict) -> dict:
    """A round's scores join the sheet (players not named score 0)."""
    fresh = _copy(state)
    fresh["rounds"].append(_round(state, action.get("scores")))
    return fresh


def _finish(state: dict, action: dict) -> dict:
    """The table ends the game after at least one round (SP-5)."""
    if not state["rounds"]:
        raise RuleError(N_("Play at least one round before finishing the game."), rule="SP-5")
    fresh = _copy(state)
    fresh["finished"] = True
    return fresh


#: Each move's kind to the function that returns the state after it (``(state, action)``).
_MOVES = {
    "round": _play_round,
    "finish": _finish,
}


def apply(state: dict, action: dict) -> dict:
    """Return the state after ``action``; ``state`` is left untouched.

    Raises RuleError for an action after the game is over, an unknown kind, an unknown
    player, or a score that is not a whole number within ±1,000,000.
    """
    _check_state(state)
    outcome = _outcome(state)
    if outcome is not None:
        winners = join_names(_best(state, _totals(state)), nobody=_NOBODY)
        raise RuleError(message("scorepad", "The game is over: {winners} won. Start a rematch "
                                            "to play again.", winners=winners),
                        outcome["rule"])
    kind = action.get("kind") if isinstance(action, dict) else None
    if kind == PAPER:
        if state["rounds"] or state.get("paper"):
            raise RuleError(N_("A paper sheet's totals can only start a game, before its "
                               "first round."), rule="SP-1")
        fresh = _copy(state)
        fresh["paper"] = _paper_entry(state, action.get("paper"))
        return fresh
    move = _MOVES.get(kind) if isinstance(kind, str) else None
    if move is not None:
        return move(state, action)
    if kind:
        raise RuleError(message("scorepad", "'{kind}' is not a score pad action: enter a round "
                                            "or finish the game.", kind=kind), rule="SP-1")
    raise RuleError(N_("That is not a score pad action: enter a round or finish the game."),
                    rule="SP-1")


def summary(state: dict) -> dict:
    """The score sheet: totals, over, winners and everything the page shows.

    Keys: game, seats, settings, totals, over, winners, leaders, rounds, running,
    round_count, rounds_left, paper (``{"totals"}`` the game went on from, else None),
    end_rule, over_reason, result, rules.
    """
    _check_state(state)
    settings = state["settings"]
    totals = _totals(state)
    paper = state.get("paper")
    running, sums = [], dict(paper["totals"]) if paper else dict.fromkeys(state["seats"], 0)
    for scores in state["rounds"]:
        sums = {player: sums[player] + scores[player] for player in sums}
        running.append(sums)
    outcome = _outcome(state)
    leaders = _best(state, totals) if state["rounds"] or paper else []
    winners = leaders if outcome else []
    limit = settings["rounds"]
    shown = [rule for rule in RULES
             if (rule != "SP-2" or settings["target"] is not None)
             and (rule != "SP-3" or limit is not None)]
    return {
        "game": SLUG,
        "seats": list(state["seats"]),
        "settings": dict(settings),
        "totals": totals,
        "over": outcome is not None,
        "winners": winners,
        "leaders": leaders,
        "rounds": [dict(scores) for scores in state["rounds"]],
        "running": running,
        "round_count": len(state["rounds"]),
        "rounds_left": None if limit is None or outcome else limit - len(state["rounds"]),
        "paper": {"totals": dict(paper["totals"])} if paper else None,
        "end_rule": _end_rule(settings),
        "over_reason": outcome,
        "result": _result(winners, totals),
        "rules": {rule: RULES[rule] for rule in shown},
    }


def _check_state(state: Any) -> None:
    if not isinstance(state, dict) or state.get("game") != SLUG:
        raise ValueError(N_("This is not a score pad."))


def _copy(state: dict) -> dict:
    """A fresh state sharing no mutable object with ``state``."""
    fresh = {
        "game": SLUG,
        "settings": dict(state["settings"]),
        "seats": list(state["seats"]),
        "rounds": [dict(scores) for scores in state["rounds"]],
        "finished": state["finished"],
    }
    if state.get("paper"):
        fresh["paper"] = {"totals": dict(state["paper"]["totals"])}
    return fresh


def _round(state: dict, scores: Any) -> dict[str, int]:
    """Validate one round's entered scores and return them for every seat (SP-1, SP-6)."""
    if scores is None:
        scores = {}
    if not isinstance(scores, dict):
        raise RuleError(N_("A round's scores must list players and their points."), rule="SP-1")
    for player, score in scores.items():
        if player not in state["seats"]:
            raise RuleError(message("scorepad", "'{name}' is not playing at this table.",
                                    name=player), rule="SP-1")
        if not isinstance(score, int) or isinstance(score, bool):
            raise RuleError(message("scorepad", "{player}'s score must be a whole number.",
                                    player=player), rule="SP-6")
        if abs(score) > MAX_ROUND_SCORE:
            raise RuleError(message("scorepad", "{player}'s score of {score} is too large: a "
                                                "round score lies between -{most} and {most}.",
                                    player=player, score=number(score),
                                    most=number(MAX_ROUND_SCORE)), rule="SP-6")
    return {player: scores.get(player, 0) for player in state["seats"]}


def _totals(state: dict) -> dict[str, int]:
    """Each player's total over all rounds (and the paper sheet's, where the game went on
    from one), in seat order (SP-1)."""
    paper = (state.get("paper") or {}).get("totals") or {}
    return {player: paper.get(player, 0) + sum(scores[player] for scores in state["rounds"])
            for player in state["seats"]}


def _best(state: dict, totals: dict[str, int]) -> list[str]:
    """The players on the best total, in seat order (SP-4)."""
    pick = min if state["settings"]["low_wins"] else max
    best = pick(totals.values())
    return [player for player, total in totals.items() if total == best]


def _outcome(state: dict) -> dict | None:
    """Why the game is over, as ``{"text", "rule"}``, or None while it goes on."""
    settings, count = state["settings"], len(state["rounds"])
    if state["finished"]:
        return {"text": message("scorepad", "The game was finished by hand after {rounds}.",
                                rounds=_n_rounds(count)), "rule": "SP-5"}
    target = settings["target"]
    if target is not None:
        totals = _totals(state)
        reached = [player for player, total in totals.items() if total >= target]
        if len(reached) == 1:
            player = reached[0]
            return {"text": message("scorepad", "{player} reached {total} (target {target}).",
                                    player=player, total=number(totals[player]),
                                    target=number(target)), "rule": "SP-2"}
        if reached:
            who = join_names([message("scorepad", "{player} ({total})", player=player,
                                      total=number(totals[player])) for player in reached],
                             nobody=_NOBODY)
            return {"text": message("scorepad", "{players} reached the target of {target}.",
                                    players=who, target=number(target)), "rule": "SP-2"}
    limit = settings["rounds"]
    if limit is not None and count >= limit:
        text = (message("scorepad", "The one round has been played.") if limit == 1
                else message("scorepad", "All {rounds} have been played.",
                             rounds=_n_rounds(limit)))
        return {"text": text, "rule": "SP-3"}
    return None


def _n_rounds(count: int) -> Said:
    """"1 round", "3 rounds", a Said so that a translation counts them its own way."""
    if count == 1:
        return message("scorepad", "1 round")
    return message("scorepad", "{n} rounds", n=number(count))


#: "nobody" in the score pad's sentences (join_names' word for no names).
_NOBODY = message("scorepad", "nobody")


def _end_rule(settings: dict) -> dict:
    """What ends the game, in one sentence, with the rule IDs involved."""
    target, limit = settings["target"], settings["rounds"]
    low = settings["low_wins"]
    if target is not None and limit is not None:
        values = {"target": number(target), "rounds": _n_rounds(limit)}
        text = (message("scorepad", "Ends when someone reaches {target} or after {rounds}, "
                                    "whichever comes first; lowest total wins.", **values)
                if low else
                message("scorepad", "Ends when someone reaches {target} or after {rounds}, "
                                    "whichever comes first; highest total wins.", **values))
        return {"text": text, "rule": "SP-2", "rules": ["SP-2", "SP-3", "SP-4"]}
    if target is not None:
        text = (message("scorepad", "Ends when someone reaches {target}; lowest total wins.",
                        target=number(target))
                if low else
                message("scorepad", "Ends when someone reaches {target}; highest total wins.",
                        target=number(target)))
        return {"text": text, "rule": "SP-2", "rules": ["SP-2", "SP-4"]}
    if limit is not None:
        text = (message("scorepad", "Lowest total after {rounds} wins.",
                        rounds=_n_rounds(limit))
                if low else
                message("scorepad", "Highest total after {rounds} wins.",
                        rounds=_n_rounds(limit)))
        return {"text": text, "rule": "SP-3", "rules": ["SP-3", "SP-4"]}
    return {"text": message("scorepad", "No end set: finish the game by hand."), "rule": "SP-5",
            "rules": ["SP-5", "SP-4"]}


def _result(winners: list[str], totals: dict[str, int]) -> dict | None:
    """Who won, in one sentence (SP-4), or None while the game goes on."""
    if not winners:
        return None
    score = number(totals[winners[0]])
    if len(winners) == 1:
        text = message("scorepad", "{winner} wins with {score}.", winner=winners[0],
                       score=score)
    else:
        text = message("scorepad", "{winners} share the win with {score}.",
                       winners=join_names(winners, nobody=_NOBODY), score=score)
    return {"text": text, "rule": "SP-4"}


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
    lower_wins=lambda settings: settings["low_wins"],
    from_paper=from_paper,
    paper_fields=("totals",),
)
