"""The RockIt arrangement solver against a plain backtracking solver written here.

The backtracker knows only RULES.md §4.2: take the first natural card left; try every
trick that can hold it (a set of its rank with other suits and jokers; a run of its suit,
3 to 13 cards long, through K-A if need be, each other place a natural card or a joker);
recurse; every card must be used, and a trick needs a natural card. It shares no code with
the solver. Both must give the same yes/no on every instance, and every split `arrange`
returns must be exactly the input cards, each trick valid by `check_trick`.
"""

import random
import sys
from collections import Counter
from functools import cache
from itertools import combinations

import pytest

from companion.rules import rockit_solver
from companion.rules.rockit import arrange, check_trick

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
SUITS = "SHDC"
INSTANCES = 1200            # random instances of at most 24 cards
ALL_CUTS = 250              # of which this many also run the search from every cut


def backtrack(counts: tuple[int, ...], jokers: int) -> bool:
    """Can these cards (counts[rank * 4 + suit], plus jokers) be split into tricks?"""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    @cache
    def split(counts: tuple[int, ...], jokers: int) -> bool:
        first = next((i for i, n in enumerate(counts) if n), None)
        if first is None:
            return jokers == 0
        rank, suit = divmod(first, 4)
        rest = list(counts)
        rest[first] -= 1
        # Sets of this rank: other suits present, jokers for the missing ones.
        others = [s for s in range(4) if s != suit and rest[rank * 4 + s]]
        for k in range(len(others) + 1):
            for chosen in combinations(others, k):
                size = 1 + k
                if size > 4:
                    continue
                left = list(rest)
                for s in chosen:
                    left[rank * 4 + s] -= 1
                for used in range(max(0, 3 - size), min(4 - size, jokers) + 1):
                    if split(tuple(left), jokers - used):
                        return True
        # Runs of this suit through this card: every length and place in the run.
        for length in range(3, 14):
            for place in range(length):
                cells = [(rank - place + i) % 13 for i in range(length) if i != place]
                if fill(cells, 0, rest, jokers, suit):
                    return True
        return False

    def fill(cells, at, left, jokers, suit):
        if at == len(cells):
            return split(tuple(left), jokers)
        index = cells[at] * 4 + suit
        if left[index]:
            left[index] -= 1
            ok = fill(cells, at + 1, left, jokers, suit)
            left[index] += 1
            if ok:
                return True
        return bool(jokers) and fill(cells, at + 1, left, jokers - 1, suit)

    return split(counts, jokers)


def random_instance(rng: random.Random, most: int = 24) -> tuple[list[str], int]:
    """Random cards (and the number of decks): scattered cards, cards near each other, or
    valid tricks with one card taken away, added or turned into a joker, so that both
    answers come up often."""
    decks = rng.choice([1, 2])
    jokers_max = 2 * decks
    counts = Counter()
    jokers = 0
    mode = rng.random()
    target = rng.randint(1, most)
    if mode < 0.25:                                   # scattered
        for _ in range(target):
            card = rng.choice(RANKS) + rng.choice(SUITS)
            if counts[card] < decks:
                counts[card] += 1
        jokers = rng.randint(0, jokers_max)
    elif mode < 0.45:                                 # a few ranks and suits, dense
        ranks = rng.sample(range(13), rng.randint(2, 6))
        suits = rng.sample(SUITS, rng.randint(1, 4))
        for _ in range(target):
            card = RANKS[rng.choice(ranks)] + rng.choice(suits)
            if counts[card] < decks:
                counts[card] += 1
        jokers = rng.randint(0, jokers_max)
    else:                                             # from valid tricks, then perturbed
        total = tries = 0
        while total < target and tries < 60:
            tries += 1
            if rng.random() < 0.4:
                rank = rng.choice(RANKS)
                trick = [rank + s for s in rng.sample(SUITS, rng.choice([3, 3, 4]))]
            else:
                suit, start = rng.choice(SUITS), rng.randrange(13)
                trick = [RANKS[(start + i) % 13] + suit for i in range(rng.randint(3, 8))]
            trick = ["JK" if rng.random() < 0.12 else c for c in trick]
            need = Counter(trick)
            if total + len(trick) > most or all(c == "JK" for c in trick):
                continue
            if need["JK"] + jokers > jokers_max or any(
                    counts[c] + n > decks for c, n in need.items() if c != "JK"):
                continue
            jokers += need.pop("JK", 0)
            counts += need
            total += len(trick)
        change = rng.random()
        if change < 0.3 and counts:
            counts[rng.choice(sorted(counts))] -= 1
        elif change < 0.55:
            card = rng.choice(RANKS) + rng.choice(SUITS)
            if counts[card] < decks:
                counts[card] += 1
        elif change < 0.7 and counts and jokers < jokers_max:
            counts[rng.choice(sorted(counts))] -= 1
            jokers += 1
        elif change < 0.8 and jokers:
            jokers -= 1
    cards = [c for c, n in counts.items() for _ in range(n)] + ["JK"] * jokers
    rng.shuffle(cards)
    return cards, decks


def as_counts(cards):
    counts = [0] * 52
    for card in cards:
        if card != "JK":
            counts[RANKS.index(card[:-1]) * 4 + SUITS.index(card[-1])] += 1
    return tuple(counts), cards.count("JK")


def search_from(grid, jokers, start):
    """The solver's search from the cut ``start`` to the end, with no budget: its steps,
    or None when no split exists."""
    return rockit_solver._searcher(grid, jokers, start)(None)


def is_split_of(split, cards):
    flat = [card for trick in split for card in trick]
    return Counter(flat) == Counter(cards) and all(check_trick(t) for t in split)


@pytest.mark.slow
def test_arrange_agrees_with_backtracking():
    rng = random.Random(20261121)
    answers = Counter()
    for n in range(INSTANCES):
        cards, decks = random_instance(rng)
        counts, jokers = as_counts(cards)
        expected = backtrack(counts, jokers)
        split = arrange(cards, decks)
        assert (split is not None) == expected, (cards, decks)
        if split is not None:
            assert is_split_of(split, cards), (cards, split)
        answers[expected] += 1
        if n < ALL_CUTS and any(counts):
            # The cycle is cut at one rank; the answer must not depend on which.
            grid = [list(counts[r * 4:r * 4 + 4]) for r in range(13)]
            if rockit_solver._all_sets(grid, jokers) is None:
                for start in range(13):
                    found = search_from(grid, jokers, start) is not None
                    assert found == expected, (cards, start)
    # Both answers come up plenty: the comparison means something.
    assert answers[True] > INSTANCES // 4 and answers[False] > INSTANCES // 4


@pytest.mark.parametrize("cards, expected", [
    # Jokers standing for cards whose copies are all in play (RULES-API.md).
    ("4H 5H 6H 4H 5H 6H JK", True),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH " * 2 + "JK", True),
    # A bridge across K-A with jokers, and a gap of three jokers.
    ("QH JK JK 2H", True),
    ("QH JK JK 3H", False),
    ("QH JK JK JK 3H", True),
    ("QH JK JK JK 4H", False),
    # A short piece on each side of the cut.
    ("KS AS 2S KH AH 2H KD AD 2D", True),
    ("KS 2S JK KH AH 2H", True),
    ("KS 2S JK KH AH", False),
    # Sets only: every joker must sit in a set.
    ("5S 5H 5D JK JK", False),
    ("5S 5H 5D 6S 6H 6D JK JK", True),
])
def test_hand_picked_instances(cards, expected):
    cards = cards.split()
    counts, jokers = as_counts(cards)
    assert backtrack(counts, jokers) is expected
    split = arrange(cards)
    assert (split is not None) is expected
    if split is not None:
        assert is_split_of(split, cards)
