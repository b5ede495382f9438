"""One turn, one set of white dice (RULES.md §1.3 ZNR-2..4, §1.5 "Per turn").

3 white dice in round 1, the same 3 plus a 4th in round 2, those 4 plus a 5th in round 3.
Every drop and every showdown hand of a turn is its player's own dice plus its round's white
dice, so dice entered for one player constrain everyone else's: :func:`check_white_dice`
says whether the hands of a turn can share one set, and if not, which hand to check.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations_with_replacement
from typing import Any

from ..said import N_, listing, message
from ..verdict import RuleError, Verdict
from .board import WHITE_DICE, _is_int, _show

__all__ = ["check_white_dice"]

_ROUND_RULE = {1: "ZNR-2", 2: "ZNR-3", 3: "ZNR-4"}
_NO_LIMIT = (WHITE_DICE[3],) * 6


def _counts(dice: Iterable[int]) -> tuple[int, ...]:
    """How many dice show each face 1–6."""
    counts = [0] * 6
    for die in dice:
        counts[die - 1] += 1
    return tuple(counts)


def _within(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
    """Is ``small`` a sub-multiset of ``big`` (both as counts per face)?"""
    return all(a <= b for a, b in zip(small, big, strict=True))


def _faces(counts: tuple[int, ...]) -> list[int]:
    return [face for face in range(1, 7) for _ in range(counts[face - 1])]


def _plus(counts: tuple[int, ...], index: int) -> tuple[int, ...]:
    return counts[:index] + (counts[index] + 1,) + counts[index + 1:]


def _white_chains(hands: list[tuple[str, int, list[int]]], rolled: list[int] = ()
                  ) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every choice of the turn's white dice that fits ``hands``: ``(W1, W2, W3)`` as counts
    per face, W1 the 3 dice of round 1, W2 = W1 + the 4th, W3 = W2 + the 5th, such that each
    round-r hand holds W_r and the dice the dealer rolled (``rolled``, in order) come first.

    Only the dice every hand of a round shares can be white, so W_r is searched under the
    common dice of the round-r (and later) hands: at most 56 × 6 × 6 candidates.
    """
    caps = {1: _NO_LIMIT, 2: _NO_LIMIT, 3: _NO_LIMIT}
    for _who, round_no, dice in hands:
        caps[round_no] = tuple(map(min, caps[round_no], _counts(dice)))
    cap3 = caps[3]
    cap2 = tuple(map(min, caps[2], cap3))
    cap1 = tuple(map(min, caps[1], cap2))
    known = {r: _counts(rolled[:n]) for r, n in WHITE_DICE.items() if len(rolled) >= n}
    firsts = ([known[1]] if 1 in known else
              [_counts(c) for c in combinations_with_replacement(range(1, 7), WHITE_DICE[1])])
    for w1 in firsts:
        if not _within(w1, cap1):
            continue
        for fourth in range(6):
            w2 = _plus(w1, fourth)
            if (2 in known and w2 != known[2]) or not _within(w2, cap2):
                continue
            for fifth in range(6):
                w3 = _plus(w2, fifth)
                if (3 in known and w3 != known[3]) or not _within(w3, cap3):
                    continue
                yield w1, w2, w3


def _fits(hands: list[tuple[str, int, list[int]]], rolled: list[int] = ()) -> bool:
    return next(_white_chains(hands, rolled), None) is not None


def _common(a: list[int], b: list[int]) -> list[int]:
    return _faces(tuple(map(min, _counts(a), _counts(b))))


def _white_refusal(hand: tuple[str, int, list[int]],
                   earlier: list[tuple[str, int, list[int]]], rolled: list[int]) -> str:
    """Why ``hand`` cannot share the white dice with the ``earlier`` hands (which can), and
    what the table should check: the most precise of four sentences."""
    who, round_no, dice = hand
    shown = _show(sorted(dice))
    known = list(rolled[:WHITE_DICE[round_no]])
    if known and not _within(_counts(known), _counts(dice)):
        return message("zocknroll", "{player}'s dice {dice} must include the white dice {white} "
                       "the dealer rolled. Check {player}'s own dice and the white dice on "
                       "the table.", player=who, dice=shown, white=_show(known))
    others = listing(dict.fromkeys(w for w, _, _ in earlier), message("zocknroll", "and"))
    options = {chain[round_no - 1] for chain in _white_chains(earlier, rolled)}
    if len(options) == 1 and earlier:
        return message("zocknroll", "{player}'s dice {dice} don't hold the white dice {white} "
                       "that the dice entered for {others} show for round {round}. Check "
                       "those dice: everyone's dice this turn are their own dice plus the "
                       "same white dice.", player=who, dice=shown,
                       white=_show(_faces(options.pop())), others=others, round=round_no)
    for other, other_round, other_dice in earlier:
        if _fits([(other, other_round, other_dice), hand]):
            continue
        common = _common(dice, other_dice)
        if not common:
            shared = message("zocknroll", "no die")
        elif len(common) == 1:
            shared = message("zocknroll", "only the die {die}", die=common[0])
        else:
            shared = message("zocknroll", "only the dice {dice}", dice=_show(common))
        return message("zocknroll", "{player}'s dice {dice} and {other}'s dice {other_dice} "
                       "have {shared} in common, but both must hold the {count} white dice "
                       "of round {round}. Check the dice entered for {player} and {other}: "
                       "everyone's dice this turn are their own dice plus the same white "
                       "dice.", player=who, dice=shown, other=other,
                       other_dice=_show(sorted(other_dice)), shared=shared,
                       count=WHITE_DICE[min(round_no, other_round)],
                       round=min(round_no, other_round))
    return message("zocknroll", "{player}'s dice {dice} can't share one set of white dice "
                   "with the dice entered for {others}: no white dice fit them all. Check "
                   "those dice: everyone's dice this turn are their own dice plus the same "
                   "white dice.", player=who, dice=shown, others=others)


def _hand_entries(hands: Any) -> list[tuple[str, int, list[int]]]:
    """Validated ``(player, round, dice)`` triples (ValueError in plain words)."""
    if isinstance(hands, (str, bytes, Mapping)) or not isinstance(hands, Iterable):
        raise ValueError(N_("The hands must be a list of (player, round, dice)."))
    checked = []
    for item in hands:
        if isinstance(item, (str, bytes, Mapping)) or not isinstance(item, Iterable) \
                or len(item := list(item)) != 3:
            raise ValueError(message("zocknroll", "Each hand is (player, round, dice), not "
                                     "{item!r}.", item=item))
        who, round_no, dice = item
        if not _is_int(round_no) or round_no not in WHITE_DICE:
            raise ValueError(message("zocknroll", "A turn has rounds 1, 2 and 3, not "
                                     "{round!r}.", round=round_no))
        dice = _white_list(dice)
        if len(dice) < WHITE_DICE[round_no]:
            raise ValueError(message("zocknroll", "{player}'s dice {dice} are fewer than the "
                                     "{count} white dice of round {round}.", player=who,
                                     dice=_show(dice), count=WHITE_DICE[round_no],
                                     round=round_no))
        checked.append((who, round_no, dice))
    return checked


def _white_list(dice: Any) -> list[int]:
    if isinstance(dice, (str, bytes, Mapping)) or not isinstance(dice, Iterable):
        raise ValueError(N_("Dice must be a list of numbers from 1 to 6."))
    dice = list(dice)
    for die in dice:
        if not _is_int(die) or not 1 <= die <= 6:
            raise ValueError(message("zocknroll", "A die shows a number from 1 to 6, not "
                                     "{die!r}.", die=die))
    return dice


def check_white_dice(hands: Iterable[Any], rolled: Iterable[int] = ()) -> Verdict:
    """Can all the hands of one turn share the turn's white dice? (ZNR-2, ZNR-3, ZNR-4)

    ``hands``: ``(player, round, dice)`` for each drop (round 1 or 2: own + 3 or 4 white
    dice), each round-3 hand of the showdown (own + 5 white; Jörg's too) and each tapped
    check that came with dice, in the order they were entered. ``rolled``: the white dice the
    dealer rolled, in order, when the phones follow them (a guided turn; up to 5).

    Own dice may show anything; the white dice are one set for the whole turn: 3 in round 1,
    the same 3 plus a 4th in round 2, those 4 plus a 5th in round 3. So the hands fit when
    there are white dice W1 ⊂ W2 ⊂ W3 (3, 4, 5 dice, the rolled ones first) with every
    round-r hand holding W_r. ok True then, ``details["white"]`` one such set in rolling
    order, as many dice as the latest round entered has (or the dealer rolled, if more).
    Otherwise the reason names the first hand, in the order given, that cannot share the
    white dice with the hands before it (and the dealer's roll) and says what the table
    should check; the rule is that hand's round's (ZNR-2, ZNR-3 or ZNR-4) and
    ``details`` has its ``player`` and ``round``. ValueError for malformed hands or dice.
    """
    entries = _hand_entries(hands)
    rolled = _white_list(rolled)
    if len(rolled) not in (0, *WHITE_DICE.values()):
        raise ValueError(message("zocknroll", "The dealer rolls 3 white dice, then a 4th and "
                                 "a 5th: {count} white dice cannot have been rolled.",
                                 count=len(rolled)))
    chain = next(_white_chains(entries, rolled), None)
    if chain is not None:
        last = max((r for _, r, _ in entries), default=0)
        need = max(WHITE_DICE.get(last, 0), len(rolled))
        white = list(rolled) or _faces(chain[0])
        for before, after in zip(chain, chain[1:]):
            if len(white) < min(need, sum(after)):
                white.append(next(f for f in range(1, 7) if after[f - 1] > before[f - 1]))
        white = white[:need]
        reason = (message("zocknroll", "The dice entered this turn share the white dice "
                          "{white}.", white=_show(white)) if white
                  else N_("No dice are entered this turn yet."))
        return Verdict(True, reason,
                       _ROUND_RULE[max(last, 1)],
                       {"white": white, "player": None, "round": None})
    for index, hand in enumerate(entries):
        if not _fits(entries[:index + 1], rolled):
            reason = _white_refusal(hand, entries[:index], rolled)
            return Verdict(False, reason, _ROUND_RULE[hand[1]],
                           {"white": None, "player": hand[0], "round": hand[1]})
    raise AssertionError("unreachable: the hands fit one by one but not together")


def _check_turn_white(cur: dict, new_hands: list[tuple[str, int, list[int]]]) -> None:
    """Refuse (RuleError) hands that cannot share the white dice of the turn so far."""
    verdict = check_white_dice(list(cur["hands"]) + list(new_hands), cur["white"])
    if not verdict:
        raise RuleError(verdict.reason, verdict.rule)

