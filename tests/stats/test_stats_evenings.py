"""Three Friday evenings of Rook and the score pad, recorded, and every figure checked
against a hand computation (docs/STATS.md). The Rook facts come from the real rules
(``facts_of`` folds the hands), so a change in how Rook scores a hand shows up here."""
from __future__ import annotations

import copy
import json

import pytest

from companion.stats import add, empty, facts_of, remove, section_of, view

SEATS_1 = ["Ann", "Bob", "Cid", "Dee"]      # A = Ann & Cid, B = Bob & Dee
SEATS_2 = ["Ann", "Bob", "Dee", "Cid"]      # A = Ann & Dee, B = Bob & Cid


def hand(bidder, bid, a, b):
    return {"kind": "hand", "bidder": bidder, "bid": bid, "points": {"A": a, "B": b}}


ROOK_GAMES = {
    # Friday 1: A 160+100+200+250 = 710; B 90-200+50+0 = -60 (Bob set on 200).
    "r1": (SEATS_1, [hand("Ann", 150, 160, 90), {"kind": "redeal"},
                     hand("Bob", 200, 100, 150), hand("Cid", 180, 200, 50),
                     hand("Ann", 250, 250, 0)]),
    # Friday 2: A (Ann & Dee) 50+30+180+60 = 320; B (Bob & Cid) 200+220+70+190 = 680.
    "r2": (SEATS_2, [hand("Bob", 160, 50, 200), hand("Cid", 200, 30, 220),
                     hand("Dee", 150, 180, 70), hand("Bob", 170, 60, 190)]),
    # Friday 3: A 130+220+170 = 520; B -150+30+80 = -40 (Dee set on 150).
    "r3": (SEATS_1, [hand("Dee", 150, 130, 120), hand("Ann", 200, 220, 30),
                     hand("Cid", 160, 170, 80)]),
}


def rook_record(key, day, start, end, scores, winners):
    seats, _ = ROOK_GAMES[key]
    return {"id": key, "game": "rook", "table_id": "t" + day,
            "started_at": f"2026-11-{day}T{start}:00Z", "finished_at": f"2026-11-{day}T{end}:00Z",
            "players": seats, "teams": [seats[0::2], seats[1::2]],
            "scores": scores, "winners": winners, "settings": {"variant": "family"}}


def pad_record(key, day, start, end, scores, winners, name=None, low=False):
    settings = {"low_wins": low}
    if name:
        settings["name"] = name
    return {"id": key, "game": "scorepad", "table_id": "p" + day,
            "started_at": f"2026-11-{day}T{start}:00Z", "finished_at": f"2026-11-{day}T{end}:00Z",
            "players": ["Ann", "Bob", "Cid"], "teams": None, "scores": scores,
            "winners": winners, "settings": settings}


RECORDS = [
    rook_record("r1", "06", "19:00", "19:50", {"A": 710, "B": -60}, ["Ann", "Cid"]),
    pad_record("s1", "06", "20:00", "20:30", {"Ann": 40, "Bob": 25, "Cid": 61}, ["Bob"],
               "Hearts", low=True),
    # Team scores may also be keyed by the players' names (either spelling is read).
    rook_record("r2", "13", "19:00", "19:45", {"Ann & Dee": 320, "Bob & Cid": 680},
                ["Bob", "Cid"]),
    pad_record("s2", "13", "20:00", "20:20", {"Ann": 30, "Bob": 52, "Cid": 30},
               ["Ann", "Cid"], "Hearts", low=True),
    rook_record("r3", "20", "19:00", "19:40", {"A": 520, "B": -40}, ["Ann", "Cid"]),
    pad_record("s3", "20", "19:50", "20:10", {"Ann": 210, "Bob": 180, "Cid": 250}, ["Cid"]),
    pad_record("s4", "20", "20:15", "20:40", {"Ann": 12, "Bob": 60, "Cid": 27}, ["Ann"],
               "Hearts", low=True),
]


def facts(record):
    if record["game"] != "rook":
        return None
    seats, actions = ROOK_GAMES[record["id"]]
    return facts_of("rook", record["settings"], seats, actions)


@pytest.fixture(scope="module")
def stats():
    total = empty()
    for record in RECORDS:
        add(total, record, facts(record))
    return view(total)


def test_the_rules_agree_with_the_recorded_scores():
    for key, (seats, actions) in ROOK_GAMES.items():
        f = facts_of("rook", {"variant": "family"}, seats, actions)
        sums = {t: sum(h["changes"][t] for h in f["hands"]) for t in "AB"}
        record = next(r for r in RECORDS if r["id"] == key)
        assert sorted(sums.values()) == sorted(record["scores"].values())


def test_sections():
    assert [section_of(r) for r in RECORDS] == [
        "rook", "scorepad:Hearts:low", "rook", "scorepad:Hearts:low", "rook", "scorepad",
        "scorepad:Hearts:low"]


def test_games_recorded(stats):
    assert stats["games_recorded"] == 7
    assert {k: (v["games"], v["lower_wins"], v["name"]) for k, v in stats["games"].items()} == {
        "rook": (3, False, None), "scorepad": (1, False, None),
        "scorepad:Hearts:low": (3, True, "Hearts")}


# (games, wins, losses, win_pct, average_score, best_score, longest_win_streak,
#  current_streak)
ROOK_PLAYERS = {
    "Ann": (3, 2, 1, 66.7, 516.67, 710, 1, 1),      # W L W: 710, 320, 520
    "Bob": (3, 1, 2, 33.3, 193.33, 680, 1, -1),     # L W L: -60, 680, -40
    "Cid": (3, 3, 0, 100.0, 636.67, 710, 3, 3),     # W W W: 710, 680, 520
    "Dee": (3, 0, 3, 0.0, 73.33, 320, 0, -3),       # L L L: -60, 320, -40
}
ROOK_TEAMS = {
    "Ann & Cid": (2, 2, 0, 100.0, 615.0, 710, 2, 2),
    "Ann & Dee": (1, 0, 1, 0.0, 320.0, 320, 0, -1),
    "Bob & Cid": (1, 1, 0, 100.0, 680.0, 680, 1, 1),
    "Bob & Dee": (2, 0, 2, 0.0, -50.0, -40, 0, -2),
}
HEARTS_PLAYERS = {   # lowest wins: best is the lowest
    "Ann": (3, 2, 1, 66.7, 27.33, 12, 2, 2),       # L(40) W(30, shared) W(12)
    "Bob": (3, 1, 2, 33.3, 45.67, 25, 1, -2),      # W(25) L(52) L(60)
    "Cid": (3, 1, 2, 33.3, 39.33, 27, 1, -1),      # L(61) W(30, shared) L(27)
}
PAD_PLAYERS = {
    "Ann": (1, 0, 1, 0.0, 210.0, 210, 0, -1),
    "Bob": (1, 0, 1, 0.0, 180.0, 180, 0, -1),
    "Cid": (1, 1, 0, 100.0, 250.0, 250, 1, 1),
}
KEYS = ("games", "wins", "losses", "win_pct", "average_score", "best_score",
        "longest_win_streak", "current_streak")


@pytest.mark.parametrize("section,group,expected", [
    ("rook", "players", ROOK_PLAYERS), ("rook", "teams", ROOK_TEAMS),
    ("scorepad:Hearts:low", "players", HEARTS_PLAYERS), ("scorepad", "players", PAD_PLAYERS),
])
def test_records_per_game(stats, section, group, expected):
    got = stats["games"][section][group]
    assert {name: tuple(row[k] for k in KEYS) for name, row in got.items()} == expected


def test_a_game_without_teams_has_no_partnerships(stats):
    assert stats["games"]["scorepad"]["teams"] == {}


def test_every_game_per_player():
    # Ann: R1 W, S1 L, R2 L, S2 W, R3 W, S3 L, S4 W.  Bob: L W W L L L L.
    # Cid: W L W W W W L.  Dee: L L L.
    total = empty()
    for record in RECORDS:
        add(total, record, facts(record))
    got = view(total)["players"]
    assert {p: (r["games"], r["wins"], r["losses"], r["longest_win_streak"],
                r["current_streak"]) for p, r in got.items()} == {
        "Ann": (7, 4, 3, 2, 1), "Bob": (7, 2, 5, 2, -4), "Cid": (7, 5, 2, 4, -1),
        "Dee": (3, 0, 3, 0, -3)}
    assert "best_score" not in got["Ann"]     # scores of different games don't mix


# bids_taken, average_bid, made, sets, made_pct, highest_bid_made, biggest_hand, hands
ROOK_BIDDERS = {
    "Ann": (3, 200.0, 3, 0, 100.0, 250, 250, 11),    # 150, 250, 200 all made
    "Bob": (3, 176.67, 2, 1, 66.7, 170, 220, 11),    # 200 set, 160, 170
    "Cid": (3, 180.0, 3, 0, 100.0, 200, 250, 11),    # 180, 200, 160
    "Dee": (2, 150.0, 1, 1, 50.0, 150, 180, 11),     # 150 made, 150 set
}
ROOK_BID_TEAMS = {
    "Ann & Cid": (5, 188.0, 5, 0, 100.0, 250, 250, 7),
    "Ann & Dee": (1, 150.0, 1, 0, 100.0, 150, 180, 4),
    "Bob & Cid": (3, 176.67, 3, 0, 100.0, 200, 220, 4),
    "Bob & Dee": (2, 175.0, 0, 2, 0.0, None, 90, 7),
}
ROOK_KEYS = ("bids_taken", "average_bid", "made", "sets", "made_pct", "highest_bid_made",
             "biggest_hand", "hands")


@pytest.mark.parametrize("group,expected", [("players", ROOK_BIDDERS),
                                            ("teams", ROOK_BID_TEAMS)])
def test_rook_figures(stats, group, expected):
    fig = stats["games"]["rook"]["figures"]
    assert fig["hands"] == 11     # the redeal is no hand
    assert {n: tuple(r[k] for k in ROOK_KEYS) for n, r in fig[group].items()} == expected


def test_head_to_head(stats):
    h2h = stats["head_to_head"]
    assert h2h["Ann"]["Bob"] == {"games": 7, "wins": 5, "losses": 2, "draws": 0,
                                 "partner_games": 0, "partner_wins": 0}
    # R2 L; S1 W (Ann 40 before Cid 61, lowest wins); S2 shared win: a draw; S3 L; S4 W.
    assert h2h["Ann"]["Cid"] == {"games": 5, "wins": 2, "losses": 2, "draws": 1,
                                 "partner_games": 2, "partner_wins": 2}
    assert h2h["Cid"]["Ann"] == {"games": 5, "wins": 2, "losses": 2, "draws": 1,
                                 "partner_games": 2, "partner_wins": 2}
    assert h2h["Ann"]["Dee"] == {"games": 2, "wins": 2, "losses": 0, "draws": 0,
                                 "partner_games": 1, "partner_wins": 0}
    assert "Dee" not in stats["games"]["scorepad"]["head_to_head"]
    assert stats["games"]["rook"]["head_to_head"]["Ann"]["Bob"]["wins"] == 2


def test_an_edited_game_is_taken_out_and_put_back():
    total = empty()
    for record in RECORDS:
        add(total, record, facts(record))
    before = copy.deepcopy(total)
    # The last Hearts game's last hand is edited: Cid now wins it.
    old = RECORDS[-1]
    new = {**old, "scores": {"Ann": 32, "Bob": 60, "Cid": 27}, "winners": ["Cid"]}
    remove(total, old, None)
    add(total, new, None)
    got = view(total)["games"]["scorepad:Hearts:low"]["players"]
    assert (got["Ann"]["wins"], got["Ann"]["best_score"], got["Ann"]["current_streak"]) == \
        (1, 30, -1)
    assert (got["Cid"]["wins"], got["Cid"]["current_streak"]) == (2, 2)   # S2 W, S4 W
    remove(total, new, None)
    add(total, old, None)
    assert total == before


def test_the_total_is_json():
    total = empty()
    for record in RECORDS:
        add(total, record, facts(record))
    assert json.loads(json.dumps(total)) == total
    assert json.loads(json.dumps(view(total))) == view(total)


def test_an_empty_total():
    assert view(empty()) == {"version": 1, "games_recorded": 0, "players": {},
                             "head_to_head": {}, "games": {}}


@pytest.mark.parametrize("bad", [
    None, {}, {"id": 1, "game": "chess", "players": ["A", "B"]},
    {"id": 1, "game": "scorepad", "players": []},
    {"id": 1, "game": "scorepad", "players": ["A", "A"]},
    {"game": "scorepad", "players": ["A", "B"]},
    {"id": 1, "game": "rook", "players": ["A", "B", "C", "D"], "teams": [["A", "B"], ["C"]]},
])
def test_bad_records_change_nothing(bad):
    total = empty()
    add(total, RECORDS[1])
    before = copy.deepcopy(total)
    with pytest.raises(ValueError):
        add(total, bad)
    assert total == before


def test_a_game_never_added_is_not_taken_out():
    total = empty()
    add(total, RECORDS[1])
    before = copy.deepcopy(total)
    with pytest.raises(ValueError):
        remove(total, RECORDS[3])
    assert total == before


def test_facts_that_dont_fit_change_nothing():
    total = empty()
    add(total, RECORDS[1])
    before = copy.deepcopy(total)
    with pytest.raises(ValueError):
        add(total, RECORDS[0], {"game": "rook", "teams": {"A": ["Ann"]}, "hands": [{}]})
    assert total == before


def test_facts_of_another_game_are_refused():
    total = empty()
    with pytest.raises(ValueError):
        add(total, RECORDS[0], {"game": "zocknroll", "marks": {}, "turns": []})
    assert total == empty()


def test_a_score_pad_named_on_the_record():
    record = {**RECORDS[5], "name": "Yahtzee"}
    assert section_of(record) == "scorepad:Yahtzee"


def test_a_players_page_and_chart():
    from companion.stats import build, player, timeline
    total = build((record, facts(record)) for record in RECORDS)
    page = player(view(total), "Dee")
    assert page["record"]["games"] == 3 and list(page["games"]) == ["rook"]
    assert page["head_to_head"]["Ann"] == {"games": 2, "wins": 0, "losses": 2, "draws": 0,
                                           "partner_games": 1, "partner_wins": 0}
    assert player(view(total), "Zed") is None
    # Ann: Nov 6 R1 W, S1 L; Nov 13 R2 L, S2 W; Nov 20 R3 W, S3 L, S4 W.
    assert timeline(total, "Ann") == [{"date": "2026-11-06", "games": 2, "wins": 1},
                                      {"date": "2026-11-13", "games": 4, "wins": 2},
                                      {"date": "2026-11-20", "games": 7, "wins": 4}]
    assert timeline(total, "Zed") == []


def test_six_player_rook_scores_by_the_sheets_team_names():
    seats = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    record = {"id": 9, "game": "rook", "players": seats, "teams": [seats[0::2], seats[1::2]],
              "scores": {"Ann, Cid & Eve": 620, "Bob, Dee & Fay": 300},
              "winners": ["Ann", "Cid", "Eve"], "finished_at": "2026-11-27T21:00:00Z"}
    teams = view(add(empty(), record))["games"]["rook"]["teams"]
    assert teams["Ann & Cid & Eve"]["best_score"] == 620
    assert teams["Bob & Dee & Fay"]["average_score"] == 300.0


def test_a_score_pad_called_low_is_not_lowest_wins():
    record = {**RECORDS[5], "name": "low"}
    section = view(add(empty(), record))["games"]["scorepad:low"]
    assert (section["name"], section["lower_wins"]) == ("low", False)
    assert section["players"]["Cid"]["best_score"] == 250


def test_a_colon_in_a_score_pads_name():
    high = {**RECORDS[5], "name": "Hearts:low"}
    total = add(add(empty(), high), RECORDS[1])
    games = view(total)["games"]
    assert games["scorepad:Hearts\uff1alow"]["name"] == "Hearts:low"
    assert games["scorepad:Hearts\uff1alow"]["lower_wins"] is False
    assert games["scorepad:Hearts:low"]["games"] == 1
