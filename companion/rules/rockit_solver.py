"""RockIt to Destiny: can these cards be split into valid tricks? (RULES.md §4.6)

The solver is the sweep-over-ranks dynamic programme of RULES.md §4.6 (after van Rijn, Takes
& Vis, "The Complexity of Rummikub Problems"), adapted to RockIt's rules:

- Ranks A..K form a cycle (K-A-2 is a legal run, RID-A3). The sweep starts at a chosen rank
  (the *cut*); runs that cross the cut are handled without guessing (see "Heads and tails").
- Per suit the state holds how many runs are open, by length capped at 3 (``c1, c2, c3``).
  A run shorter than 3 must go on at the next rank; a run of 3 or more may stop.
- Cards of a rank that no run takes go into sets (3 or 4 cards of different suits). A table
  gives the fewest jokers that complete the left-over cards of a rank into sets.
- Jokers are a budget. A joker may stand for any card, even one whose copies are all in
  play, so a run may use a joker where both copies of its card are in other runs: the
  open-run counts are not capped at the number of decks.
- The search is depth-first over (rank, suit) steps and stops at the first split found. A
  memo keeps, per step and state, the most jokers with which that state already failed:
  failing with more jokers means failing with fewer. So every state is expanded at most
  once per joker count (0–4), as in the table-filling DP, but a yes usually comes sooner.
- Three things keep the states few (each measured on hard random instances): a lower
  bound on the jokers still needed, per suit (:func:`_suit_bounds`), prunes states that
  cannot finish; a state is dropped when a state at least as good already failed
  (:func:`_better`); and the cut is chosen where heads can form in the fewest ways
  (:func:`_cut`). As the work from different cuts can differ a hundredfold, a slow search
  hands over, with doubling budgets, to cuts spread around the cycle (:func:`_portfolio`).

Heads and tails (the cycle). The sweep runs from rank 0 to 12 of the rotated order. A run
that crosses the cut is cut in two: its *tail* is still open after rank 12, its *head* is a
run that started at rank 0. Instead of guessing the tails up front (§4.6.3: up to 10,000
guesses with two decks and jokers), the state records the heads: how many stopped after 1
card (``n1``), after 2 cards (``n2``), and how many reached 3 cards (``a``). At the end, per
suit, tails and heads pair up so that each joined run has 3+ cards; a short tail left
unpaired is completed with spare jokers (2 for one card, 1 for two). One memo serves all.

Pruning (each is an exchange argument: none removes the last split):

- A run never *starts* with a joker except at rank 0: a leading joker can move to the
  other end of its run. At rank 0 a run may start with jokers only as a head that bridges
  a gap at the cut, so it must take a natural card before it may stop (field ``jh`` counts
  heads that have only jokers so far; they take the natural cards first). Joker tails are
  not needed: a short piece is completed with spare jokers at the end instead.
- A suit uses jokers at a rank only after all its natural cards of that rank went into
  runs (otherwise swap the joker into the set: never more jokers).
- A new run starts in a suit only when every open run of that suit goes on and no head
  stops there (going on is never worse than stopping one run and starting another).
- Jokers need not all be placed: a spare joker can always be added to a split that has a
  run holding a natural card (it extends a run of fewer than 13 cards, or a 13-card run is
  cut 7 + 6 first). So the sweep lets jokers go unused but requires such a run, and
  :func:`solve` places the spares afterwards. Splits with no run at all (sets only) are
  checked exactly by :func:`_all_sets`, where every joker must sit in a set: 5S 5H 5D with
  2 jokers has no split.
- The "no rank twice, at most 13 cards" limit of a run is ignored by the sweep: a longer
  line is cut into runs of 7 to 13 cards when the answer is written out (each then holds a
  natural card, as there are at most 4 jokers).

The per-suit transition lists, the end-pairing table and the set table are computed once
and shared by all calls. Cards here are ``Placed(rank, suit, joker)`` with rank 0..12 (A..K)
and suit 0..3 (S H D C); a joker's rank and suit are those of the card it stands for.
"""

from __future__ import annotations

import time
from functools import cache
from itertools import combinations
from typing import NamedTuple

__all__ = ["MAX_JOKERS", "N_RANKS", "N_SUITS", "Placed", "solve"]

N_RANKS = 13
N_SUITS = 4
MAX_JOKERS = 4   # two decks' jokers
STEPS = N_RANKS * N_SUITS
_NEVER = 1 << 20   # "cannot finish" in the lower bound
# Search budgets, in states: the chosen cut alone first, then rounds over four cuts.
HEAD_START = 6000
ROUND_BUDGET = 2000
STATES_UNLIMITED = 1 << 62

# Per-suit state: seven 3-bit fields (each at most 6: 2 natural cards + 4 jokers).
_FIELDS = 7
_SUIT_BITS = 3 * _FIELDS
_SUIT_MASK = (1 << _SUIT_BITS) - 1
# A search key: bits 0-2 count the suits that left 1 card for sets at the current rank,
# bits 3-5 those that left 2; then one field per suit; then the "a run holds a natural" bit.
_K1, _K2 = 1, 8
_LOW_MASK = 63
_SHIFT = tuple(6 + _SUIT_BITS * s for s in range(N_SUITS))
_RUN_BIT = 1 << (6 + _SUIT_BITS * N_SUITS)


class Placed(NamedTuple):
    """One card as placed in a trick: rank 0..12, suit 0..3, and whether it is a joker
    (then rank and suit are the card it stands for)."""

    rank: int
    suit: int
    joker: bool


def _pack(c1: int, c2: int, c3: int, n1: int = 0, n2: int = 0, a: int = 0,
          jh: int = 0) -> int:
    return c1 | c2 << 3 | c3 << 6 | n1 << 9 | n2 << 12 | a << 15 | jh << 18


def _unpack(state: int) -> tuple[int, ...]:
    return tuple((state >> (3 * i)) & 7 for i in range(_FIELDS))


# ---------------------------------------------------------------------------------------
# Sets.

@cache
def _set_options(left: tuple[int, ...]) -> dict[int, tuple[tuple[tuple[int, ...], int], ...]]:
    """Every number of jokers with which sets of 3-4 different suits, each holding a
    natural card (RID-A5), cover exactly the natural cards ``left`` (count per suit) of one
    rank; one cover ``((suits of its natural cards, jokers), ...)`` for each number."""
    suits = [s for s in range(N_SUITS) if left[s]]
    if not suits:
        return {0: ()}
    first, others = suits[0], suits[1:]
    found: dict[int, tuple] = {}
    for size in range(min(3, len(others)) + 1):
        for extra in combinations(others, size):
            members = (first, *extra)
            rest = list(left)
            for s in members:
                rest[s] -= 1
            for more, sets in sorted(_set_options(tuple(rest)).items()):
                for jokers in range(max(0, 3 - len(members)), 4 - len(members) + 1):
                    found.setdefault(jokers + more, ((members, jokers), *sets))
    return found


def _set_jokers_by_counts() -> dict[int, int]:
    """The fewest jokers the sets of a rank need, by the low bits of a key (how many suits
    left 1 card, how many left 2): it depends only on these counts, not on the suits."""
    table = {}
    for k2 in range(N_SUITS + 1):
        for k1 in range(N_SUITS + 1 - k2):
            left = (2,) * k2 + (1,) * k1 + (0,) * (N_SUITS - k1 - k2)
            table[k1 * _K1 + k2 * _K2] = min(_set_options(left))
    return table


_SET_JOKERS = _set_jokers_by_counts()


def _sets_of(rank: int, left: tuple[int, ...], jokers: int) -> list[list[Placed]]:
    """The sets covering ``left`` at ``rank`` with exactly ``jokers`` jokers."""
    sets = []
    for members, count in _set_options(left)[jokers]:
        missing = [s for s in range(N_SUITS) if s not in members]
        sets.append([Placed(rank, s, False) for s in members]
                    + [Placed(rank, s, True) for s in missing[:count]])
    return sets


def _all_sets(cnt: list[list[int]], jokers: int) -> list[list[Placed]] | None:
    """A split of all the cards into sets only, using exactly ``jokers`` jokers, or None."""
    reach: list[dict[int, int]] = [{0: 0}]       # jokers used so far -> jokers at this rank
    for rank in range(N_RANKS):
        options = _set_options(tuple(cnt[rank]))
        nxt: dict[int, int] = {}
        for used in reach[-1]:
            for extra in options:
                if used + extra <= jokers:
                    nxt.setdefault(used + extra, extra)
        if not nxt:
            return None
        reach.append(nxt)
    if jokers not in reach[-1]:
        return None
    sets: list[list[Placed]] = []
    used = jokers
    for rank in range(N_RANKS - 1, -1, -1):
        extra = reach[rank + 1][used]
        used -= extra
        sets[:0] = _sets_of(rank, tuple(cnt[rank]), extra)
    return sets


# ---------------------------------------------------------------------------------------
# Per-suit steps at one rank.

class _Step(NamedTuple):
    new: int        # the new per-suit state
    jokers: int     # jokers this suit's runs take at this rank
    left: int       # natural cards left for sets (0, 1 or 2)
    extend3: int    # runs of 3+ that go on
    start: int      # runs started here
    close: int      # heads that stop here, short (phases 1 and 2 only)
    naturals: int   # natural cards put into runs


@cache
def _steps(state: int, n: int, phase: int) -> tuple[_Step, ...]:
    """Every useful way for one suit to use its ``n`` natural cards of a rank (plus jokers).

    ``phase`` is the rank's place in the sweep: 0 (the first rank: every run starts here
    and is a head), 1 (heads of 1 card may stop), 2 (heads of 2 cards may stop; heads that
    reach 3 cards are counted in ``a``), 3 (every later rank). Ordered for the search:
    fewest jokers first, then most natural cards in runs.
    """
    c1, c2, c3, n1, n2, a, jh = _unpack(state)
    steps = []
    if phase == 0:
        for y in range(n + 1):                       # heads of natural cards only
            steps.append(_Step(_pack(y, 0, 0), 0, n - y, 0, y, 0, y))
        for j in range(1, MAX_JOKERS + 1):           # heads that start with a joker
            steps.append(_Step(_pack(n + j, 0, 0, jh=j), j, 0, 0, n + j, 0, n))
    else:
        # Heads made of jokers only may not stop; at phase 3 they are among the 3+ runs.
        closable = (c1 - jh) if phase == 1 else (c2 - jh) if phase == 2 else 0
        must3 = jh if phase == 3 else 0
        for z in range(closable + 1):
            for x in range(must3, c3 + 1):
                extend = c1 + c2 - z + x
                for y in range(n + 1):
                    if y and (x < c3 or z):
                        continue                     # going on beats stop-and-restart
                    total = extend + y
                    if total <= n:
                        j, naturals = 0, total
                    else:
                        j, naturals = total - n, n   # jokers only extend runs
                        if j > extend or j > MAX_JOKERS:
                            continue
                    # Natural cards that extend runs go to joker-only heads first.
                    jh2 = max(0, jh - (naturals - y))
                    if phase == 1:
                        new = _pack(y, c1 - z, 0, n1 + z, n2, a, jh2)
                    elif phase == 2:
                        heads3 = c2 - z
                        new = _pack(y, c1, heads3, n1, n2 + z, heads3, jh2)
                    else:
                        new = _pack(y, c1, c2 + x, n1, n2, a, jh2)
                    steps.append(_Step(new, j, n - naturals, x, y, z, naturals))
    steps.sort(key=lambda step: (step.jokers, step.left, -step.extend3))
    return tuple(steps)


@cache
def _better(state: int) -> tuple[int, ...]:
    """One-step improvements of a per-suit state after phase 2, as deltas to add.

    Each is at least as good as ``state`` for every future (an exchange argument): a run
    one card longer (2 -> 3, 1 -> 2: a longer tail also joins more heads), one more run of
    3+ (it may stop at once), a head of 1 made a head of 2 (it joins any tail, and a tail
    of 1 too), a head of 2 made one of 3+ (it serves the same tails and needs none).
    Dropping a short head is *not* an improvement: it also serves a short tail.
    A state that failed with some jokers left makes every state it improves on fail with
    as many jokers or fewer. (Other improvements exist; these are the ones that pay for
    their look-ups, as measured.)
    """
    c1, c2, c3, n1, n2, a, jh = _unpack(state)
    if jh:
        return ()
    deltas = []
    if c2 and c3 < 7:
        deltas.append((1 << 6) - (1 << 3))
    if c1 and c2 < 7:
        deltas.append((1 << 3) - 1)
    if c3 < 7:
        deltas.append(1 << 6)
    if n1 and n2 < 7:
        deltas.append((1 << 12) - (1 << 9))
    if n2 and a < 7:
        deltas.append((1 << 15) - (1 << 12))
    return tuple(deltas)


@cache
def _moves(state: int, n: int, phase: int) -> tuple[tuple[int, int, int, int, _Step], ...]:
    """:func:`_steps` as plain tuples for the search's inner loop: (jokers, new state,
    what to add to the key's low bits, the run bit or 0, the step)."""
    return tuple((step.jokers, step.new, (0, _K1, _K2)[step.left],
                  _RUN_BIT if step.naturals else 0, step)
                 for step in _steps(state, n, phase))


# ---------------------------------------------------------------------------------------
# The end of the sweep: pair tails with heads, per suit.

@cache
def _pairing(state: int) -> tuple[int, tuple[int, ...]] | None:
    """How the tails (runs still open after the last rank) and the heads of one suit join.

    A tail of 1 card needs a head of 2+; a tail of 2 any head; a tail of 3+ may stay alone.
    A head of 1 needs a tail of 2+, a head of 2 any tail; a head of 3+ may stay alone.
    A short tail left alone is completed with jokers after it: 2 for 1 card, 1 for 2 cards.
    A short head must be joined (a head completed with jokers is the same as a run that
    went on with jokers, which the search already tries).
    Returns ``(jokers, (t1h2, t1h3, t2h1, t2h2, t2h3, t3h1, t3h2))`` — the numbers of each
    kind of pair — using the fewest jokers, or None if the state cannot end here.
    """
    t1, t2, t3, h1, h2, a, jh = _unpack(state)
    if jh:
        return None
    best = None
    for p12 in range(min(t1, h2) + 1):
        for p13 in range(min(t1 - p12, a) + 1):
            for q21 in range(min(t2, h1) + 1):
                for q22 in range(min(t2 - q21, h2 - p12) + 1):
                    for q23 in range(min(t2 - q21 - q22, a - p13) + 1):
                        left_h1, left_h2 = h1 - q21, h2 - p12 - q22
                        if left_h1 + left_h2 > t3:
                            continue
                        r1, r2 = left_h1, left_h2
                        jokers = 2 * (t1 - p12 - p13) + (t2 - q21 - q22 - q23)
                        if best is None or jokers < best[0]:
                            best = (jokers, (p12, p13, q21, q22, q23, r1, r2))
    return best


# ---------------------------------------------------------------------------------------
# The search.

def _cut(cnt: list[list[int]]) -> int:
    """The rank to start the sweep at.

    Heads (runs that start at the cut) ride along to the end of the sweep and multiply the
    states, so pick the start with the fewest ways to make heads: per suit, the distinct
    head records its natural cards of the first three ranks can give (jokers left out),
    multiplied over the suits; ties go to the rank with fewer cards. Measured: on hard
    instances this roughly halves the worst search against "the rank with fewest cards".
    """
    def head_ways(first: int) -> tuple[int, int]:
        ways = 1
        for s in range(N_SUITS):
            states = {0}
            for r in range(3):
                n = cnt[(first + r) % N_RANKS][s]
                states = {step.new for state in states for step in _steps(state, n, r)
                          if not step.jokers}
            ways *= len({(state >> 9) & 511 for state in states})   # fields n1, n2, a
        return ways, sum(cnt[first])
    return min(range(N_RANKS), key=head_ways)


def _suit_bounds(cnt: list[list[int]], start: int):
    """A lower bound on the jokers still needed, suit by suit, in half jokers.

    ``bound(s, r, state)`` is the fewest half jokers suit ``s`` needs from sweep rank ``r``
    on, in state ``state``, counting its own runs exactly (jokers, the end pairing) and
    charging each of its cards that goes into a set the least share of set jokers it could
    cost: a set with m natural cards needs 3 - m jokers, (3 - m) / m per card, and m is at
    most 1 + the partner cards of other suits at that rank (2 jokers for a card alone at
    its rank, half a joker with one partner, none with two). The sum over suits
    never exceeds the jokers a full split needs, so a state whose sum exceeds twice the
    jokers left cannot succeed. This catches early the heads that can never be paired.
    """
    share = (4, 1, 0)   # half jokers per card of a set with 0, 1, 2+ partner cards
    charge = []
    for r in range(N_RANKS):
        counts = cnt[(start + r) % N_RANKS]
        row = []
        for s in range(N_SUITS):
            others = [counts[t] for t in range(N_SUITS) if t != s]
            suits = sum(1 for c in others if c)
            cards = sum(others)
            # The first copy's set has at most 2 useful partners, from different suits;
            # the second copy's set can only use partner cards the first one left.
            first = min(2, suits)
            second = min(2, suits, cards - first)
            row.append((0, share[first], share[first] + share[second]))
        charge.append((counts, row))
    tables = [[{} for _ in range(N_RANKS + 1)] for _ in range(N_SUITS)]

    def bound(s: int, r: int, state: int) -> int:
        table = tables[s][r]
        value = table.get(state)
        if value is None:
            if r == N_RANKS:
                pairing = _pairing(state)
                value = _NEVER if pairing is None else 2 * pairing[0]
            else:
                counts, row = charge[r]
                value = _NEVER
                nxt = tables[s][r + 1]
                for step in _steps(state, counts[s], min(r, 3)):
                    if 2 * step.jokers >= value:
                        break
                    cost = 2 * step.jokers + row[s][step.left]
                    if cost < value:
                        later = nxt.get(step.new)
                        if later is None:
                            later = bound(s, r + 1, step.new)
                        cost += later
                        value = min(value, cost)
            table[state] = value
        return value

    return tables, bound


class _OutOfBudget(Exception):
    """The search from one cut used up the states it was given this round."""


def _searcher(cnt: list[list[int]], jokers: int, start: int,
              deadline: float | None = None):
    """A depth-first search over the (rank, suit) steps from the cut ``start``.

    Returns ``attempt(budget)``: the chosen steps, None when no split exists, or raises
    :class:`_OutOfBudget` after ``budget`` states (None: no limit). The memo of failed
    states survives between attempts, so a later attempt with a larger budget goes on
    from where the last one stopped instead of starting over. Raises TimeoutError once
    ``time.monotonic()`` passes ``deadline`` (checked every 256 states).

    Only splits in which some run holds a natural card are accepted: those can take any
    spare joker. Splits into sets alone are :func:`_all_sets`'s.
    """
    counts = [cnt[(start + i // N_SUITS) % N_RANKS][i % N_SUITS] for i in range(STEPS)]
    phases = [min(i // N_SUITS, 3) for i in range(STEPS)]
    failed: list[dict[int, int]] = [{} for _ in range(STEPS + 1)]
    path: list[_Step] = []
    set_jokers = _SET_JOKERS
    tables, bound = _suit_bounds(cnt, start)

    def end_ok(key: int, spare: int) -> bool:
        if not key & _RUN_BIT:
            return False
        need = 0
        for shift in _SHIFT:
            pairing = _pairing((key >> shift) & _SUIT_MASK)
            if pairing is None:
                return False
            need += pairing[0]
        return need <= spare

    ticks = [0, 0]      # states visited in this attempt, the attempt's limit

    def go(i: int, key: int, spare: int, need: int) -> bool:
        """Can step ``i`` on, from ``key`` with ``spare`` jokers, finish? ``need`` is the
        bound of ``key`` (half jokers), checked against ``spare`` by the caller."""
        if i == STEPS:
            return end_ok(key, spare)
        ticks[0] += 1
        if ticks[0] > ticks[1]:
            raise _OutOfBudget
        if deadline is not None and not ticks[0] & 255 and time.monotonic() > deadline:
            raise TimeoutError("The arrangement search ran out of time.")
        memo = failed[i]
        if memo.get(key, -1) >= spare:
            return False
        suit = i % N_SUITS
        r = i // N_SUITS
        if r >= 3:
            # A state that is at least as good as this one already failed?
            # (Only the suit the last step changed: checking all four finds a little more
            # but costs more than it saves, as measured.)
            shift = _SHIFT[suit - 1]
            for delta in _better((key >> shift) & _SUIT_MASK):
                if memo.get(key + (delta << shift), -1) >= spare:
                    memo[key] = spare
                    return False
        shift = _SHIFT[suit]
        state = (key >> shift) & _SUIT_MASK
        base = key - (state << shift)
        # The bound's other terms stay; this suit's term moves on to rank r + 1. (Suits
        # done with rank r leave their set jokers unpaid until the rank ends: the bound
        # is weaker there, never wrong.)
        others = need - tables[suit][r][state]       # filled when this state was made
        after = tables[suit][r + 1]
        last = suit == N_SUITS - 1
        for jokers_used, new, add, bit, step in _moves(state, counts[i], phases[i]):
            if jokers_used > spare:
                break                                 # moves come sorted by jokers
            k = (base + (new << shift) + add) | bit
            left = spare - jokers_used
            if last:
                low = k & _LOW_MASK
                left -= set_jokers[low]
                if left < 0:
                    continue
                k -= low
            later = after.get(new)
            if later is None:
                later = bound(suit, r + 1, new)
            child = others + later
            if child <= 2 * left and go(i + 1, k, left, child):
                path.append(step)
                return True
        memo[key] = spare
        return False

    root = sum(bound(s, 0, 0) for s in range(N_SUITS))

    def attempt(budget: int | None) -> list[_Step] | None:
        ticks[0], ticks[1] = 0, STATES_UNLIMITED if budget is None else budget
        path.clear()
        if root > 2 * jokers or not go(0, 0, jokers, root):
            return None
        path.reverse()
        return list(path)

    return attempt


def _cuts(first: int) -> list[int]:
    """The cuts to try, spread around the cycle from the chosen one."""
    return [(first + shift) % N_RANKS for shift in (0, 6, 3, 9)]


def _portfolio(cnt: list[list[int]], jokers: int,
               deadline: float | None) -> tuple[int, list[_Step] | None]:
    """Search from the chosen cut; if it is slow, from cuts spread around the cycle in
    turn, with budgets that double each round. Any cut gives the right answer, but the
    work needed can differ a hundredfold between cuts and no cheap rule predicts it well;
    taking turns bounds the work by a small multiple of what the best of the four needs.
    Returns (the cut, the chosen steps or None)."""
    cuts = _cuts(_cut(cnt))
    searches = {}

    def run(cut: int, budget: int) -> list[_Step] | None:
        if cut not in searches:
            searches[cut] = _searcher(cnt, jokers, cut, deadline)
        return searches[cut](budget)

    try:
        return cuts[0], run(cuts[0], HEAD_START)
    except _OutOfBudget:
        pass
    budget = ROUND_BUDGET
    while True:
        for cut in cuts:
            try:
                return cut, run(cut, budget)
            except _OutOfBudget:
                continue
        budget *= 2


# ---------------------------------------------------------------------------------------
# Writing the answer out.

class _Run:
    __slots__ = ("cards", "head", "natural", "suit")

    def __init__(self, suit: int, head: bool) -> None:
        self.suit = suit
        self.cards: list[Placed] = []
        self.head = head          # started at the cut (rank 0 of the sweep)
        self.natural = False      # holds a natural card

    def add(self, card: Placed) -> None:
        self.cards.append(card)
        self.natural = self.natural or not card.joker

    @property
    def size(self) -> int:
        return min(len(self.cards), 3)


def _replay(start: int, steps: list[_Step]) -> tuple[list[list[Placed]], list[list[Placed]]]:
    """Rebuild the runs (as lines of cards, joined across the cut) and sets the search
    chose, and complete short pieces with jokers as :func:`_pairing` says."""
    open_runs: list[list[_Run]] = [[] for _ in range(N_SUITS)]
    done: list[_Run] = []
    sets: list[list[Placed]] = []
    for r in range(N_RANKS):
        rank = (start + r) % N_RANKS
        left = [0] * N_SUITS
        for s in range(N_SUITS):
            step = steps[r * N_SUITS + s]
            runs = open_runs[s]
            stopping = []
            if step.close:   # short heads with a natural card (phase r: heads of r cards)
                stopping = [run for run in runs if len(run.cards) == r and run.natural]
                stopping = stopping[:step.close]
            long_runs = [run for run in runs if len(run.cards) >= 3]
            long_runs.sort(key=lambda run: run.natural)     # joker-only heads must go on
            going = [run for run in runs if len(run.cards) < 3 and run not in stopping]
            going += long_runs[:step.extend3]
            done += stopping + long_runs[step.extend3:]
            fresh = [_Run(s, head=(r == 0)) for _ in range(step.start)]
            going.sort(key=lambda run: run.natural)         # joker-only heads first
            naturals = step.naturals
            # Natural cards start the new runs (a run never starts with a joker except at
            # rank 0), then go to joker-only heads, then to the rest; jokers fill the rest.
            for run in fresh + going:
                run.add(Placed(rank, s, not naturals))
                naturals -= 1 if naturals else 0
            open_runs[s] = going + fresh
            left[s] = step.left
        left_t = tuple(left)
        sets += _sets_of(rank, left_t, min(_set_options(left_t)))
    return _join(open_runs, done), sets


def _join(open_runs: list[list[_Run]], done: list[_Run]) -> list[list[Placed]]:
    """Join each tail (a run open after the last rank) to the head it continues into, as
    :func:`_pairing` counted them; complete lone short pieces with jokers; return lines.

    A run open from the first rank to the last is both a tail and a head; pairs never join
    two 3+ pieces, so no line loops. A line may pass a rank twice: it is split later.
    """
    nxt: dict[int, _Run] = {}
    continued: set[int] = set()
    for s in range(N_SUITS):
        tails: dict[int, list[_Run]] = {1: [], 2: [], 3: []}
        for run in open_runs[s]:
            tails[run.size].append(run)
        heads: dict[int, list[_Run]] = {1: [], 2: [], 3: []}
        for run in done + open_runs[s]:
            if run.head and run.suit == s:
                heads[run.size].append(run)
        state = _pack(len(tails[1]), len(tails[2]), len(tails[3]),
                      len(heads[1]), len(heads[2]), len(heads[3]))
        pairing = _pairing(state)
        if pairing is None:  # pragma: no cover - the search checked this very state
            raise AssertionError("the search's end check and the replay disagree")
        kinds = ((1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2))
        for (tail_size, head_size), number in zip(kinds, pairing[1]):
            for _ in range(number):
                tail, head = tails[tail_size].pop(), heads[head_size].pop()
                nxt[id(tail)] = head
                continued.add(id(head))
        # Short tails left alone take jokers after their last card.
        for piece in tails[1] + tails[2]:
            while len(piece.cards) < 3:
                last = piece.cards[-1]
                piece.add(Placed((last.rank + 1) % N_RANKS, last.suit, True))
    lines = []
    for run in done + [run for runs in open_runs for run in runs]:
        if id(run) in continued:
            continue
        line = list(run.cards)
        while id(run) in nxt:
            run = nxt[id(run)]
            line.extend(run.cards)
        lines.append(line)
    return lines


def _split_line(line: list[Placed]) -> list[list[Placed]]:
    """Cut a line of consecutive cards into runs of at most 13 (each of 7+ cards when cut,
    so each holds a natural card: there are at most 4 jokers)."""
    if len(line) <= N_RANKS:
        return [line]
    parts = -(-len(line) // N_RANKS)
    size, extra = divmod(len(line), parts)
    pieces, at = [], 0
    for i in range(parts):
        take = size + (1 if i < extra else 0)
        pieces.append(line[at:at + take])
        at += take
    return pieces


def _place_spare(runs: list[list[Placed]], spare: int) -> None:
    """Add spare jokers to the runs (there is at least one, holding a natural card): each
    extends a run of fewer than 13 cards; when all have 13, one is split 7 + 6 first."""
    for _ in range(spare):
        short_run = next((run for run in runs if len(run) < N_RANKS), None)
        if short_run is None:
            full = runs.pop()
            runs.extend([full[:7], full[7:]])
            short_run = runs[-1]
        last = short_run[-1]
        short_run.append(Placed((last.rank + 1) % N_RANKS, last.suit, True))


def solve(cnt: list[list[int]], jokers: int,
          deadline: float | None = None) -> list[list[Placed]] | None:
    """Split natural cards ``cnt[rank][suit]`` (0..2 each) plus ``jokers`` (0..4) into valid
    RockIt tricks; return the tricks (runs, then sets) or None when no split exists.

    No cards at all give an empty split; jokers alone cannot make a trick (RID-A5).
    ``deadline`` (a ``time.monotonic()`` value) makes the search raise TimeoutError when
    it runs past it.
    """
    if not any(map(any, cnt)):
        return [] if jokers == 0 else None
    only_sets = _all_sets(cnt, jokers)
    if only_sets is not None:
        return only_sets
    start, steps = _portfolio(cnt, jokers, deadline)
    if steps is None:
        return None
    lines, sets = _replay(start, steps)
    used = sum(card.joker for trick in lines + sets for card in trick)
    runs: list[list[Placed]] = []
    for line in lines:
        if any(not card.joker for card in line):
            runs.extend(_split_line(line))
        else:
            used -= len(line)          # a run of jokers only: its jokers are spare again
    _place_spare(runs, jokers - used)
    return runs + sets
