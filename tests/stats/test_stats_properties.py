"""Properties of the running total (docs/STATS.md): wins + losses = games, the
partnerships' sums, the lowest-wins direction, and add then remove = unchanged."""
from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.stats import add, empty, remove, view

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


@st.composite
def records(draw, ident=st.integers(0, 10**6)):
    """A recorded game: a score pad (either direction, maybe named) or a Rook game, with
    scores, winners and the Rook facts."""
    rook = draw(st.booleans())
    players = draw(st.permutations(NAMES))[:4 if rook else draw(st.integers(2, 6))]
    day = draw(st.integers(1, 28))
    when = f"2026-02-{day:02d}T{draw(st.integers(10, 23))}:{draw(st.integers(10, 59))}:00Z"
    record = {"id": draw(ident), "finished_at": when, "started_at": when,
              "table_id": "t", "players": list(players)}
    score = st.integers(-300, 900)
    if rook:
        teams = [players[0::2], players[1::2]]
        scores = {"A": draw(score), "B": draw(score)}
        won = draw(st.sampled_from("AB"))
        hands = [{"bidder": bidder, "team": "AB"[players.index(bidder) % 2],
                  "bid": draw(st.sampled_from(range(100, 205, 5))), "made": draw(st.booleans()),
                  "changes": {"A": draw(score), "B": draw(score)}}
                 for bidder in draw(st.lists(st.sampled_from(players), max_size=6))]
        facts = {"game": "rook", "teams": {"A": teams[0], "B": teams[1]}, "hands": hands}
        record.update(game="rook", teams=teams, scores=scores,
                      winners=teams["AB".index(won)], settings={"variant": "family"})
        return record, facts
    low = draw(st.booleans())
    settings_ = {"low_wins": low}
    name = draw(st.sampled_from([None, "Hearts", "Golf"]))
    if name:
        settings_["name"] = name
    scores = {p: draw(score) for p in players}
    winners = draw(st.lists(st.sampled_from(players), min_size=1, max_size=2, unique=True))
    record.update(game="scorepad", teams=None, scores=scores, winners=winners,
                  settings=settings_)
    return record, None


games = st.lists(records(), max_size=12)


def total_of(pairs):
    total = empty()
    for record, facts in pairs:
        add(total, record, facts)
    return total


@settings(max_examples=60, deadline=None)
@given(games)
def test_wins_and_losses_make_the_games(pairs):
    seen = view(total_of(pairs))
    rows = list(seen["players"].values())
    for section in seen["games"].values():
        rows += list(section["players"].values()) + list(section["teams"].values())
    for row in rows:
        assert row["wins"] + row["losses"] == row["games"]
        assert 0 <= row["longest_win_streak"] <= row["wins"]
        assert -row["losses"] <= row["current_streak"] <= row["longest_win_streak"]
    assert seen["games_recorded"] == len(pairs)
    assert sum(s["games"] for s in seen["games"].values()) == len(pairs)
    for a, row in seen["head_to_head"].items():
        for b, h in row.items():
            back = seen["head_to_head"][b][a]
            assert (h["wins"], h["losses"], h["draws"]) == \
                (back["losses"], back["wins"], back["draws"])
            assert h["draws"] >= 0


@settings(max_examples=60, deadline=None)
@given(games)
def test_partnership_sums(pairs):
    seen = view(total_of(pairs))
    rook = seen["games"].get("rook")
    if rook is None:
        return
    teams = rook["teams"]
    assert sum(t["games"] for t in teams.values()) == 2 * rook["games"]
    assert sum(t["wins"] for t in teams.values()) == rook["games"]   # one team wins each
    for name, row in rook["players"].items():
        mine = [t for key, t in teams.items() if name in key.split(" & ")]
        assert row["games"] == sum(t["games"] for t in mine)
        assert row["wins"] == sum(t["wins"] for t in mine)
    fig = rook["figures"]
    if fig:
        assert sum(p["bids_taken"] for p in fig["players"].values()) == \
            sum(t["bids_taken"] for t in fig["teams"].values()) == fig["hands"]
        for row in list(fig["players"].values()) + list(fig["teams"].values()):
            assert row["made"] + row["sets"] == row["bids_taken"]


@settings(max_examples=60, deadline=None)
@given(games)
def test_best_follows_the_direction(pairs):
    seen = view(total_of(pairs))
    for key, section in seen["games"].items():
        for name, row in section["players"].items():
            scores = []
            for record, _ in pairs:
                if record["game"] != section["game"] or name not in record["players"]:
                    continue
                low = bool(record["settings"].get("low_wins"))
                mine = record["settings"].get("name")
                if record["game"] == "scorepad" and (low != section["lower_wins"]
                                                    or mine != section["name"]):
                    continue
                if record["teams"]:
                    index = next(i for i, t in enumerate(record["teams"]) if name in t)
                    scores.append(record["scores"]["AB"[index]])
                else:
                    scores.append(record["scores"][name])
            best = min(scores) if section["lower_wins"] else max(scores)
            assert row["best_score"] == best
            assert row["games"] == len(scores)


@settings(max_examples=30, deadline=None)
@given(games, st.lists(records(), max_size=6), st.randoms(use_true_random=False))
def test_add_then_remove_is_unchanged(kept, passing, rnd):
    total = total_of(kept)
    before = copy.deepcopy(total)
    order = list(passing)
    rnd.shuffle(order)
    for record, facts in order:
        add(total, record, facts)
    rnd.shuffle(order)
    for record, facts in order:
        remove(total, record, facts)
    assert total == before
    assert total_of(passing) == total_of(reversed(passing))   # order of adding is no matter
    if not kept:
        assert total == empty()
