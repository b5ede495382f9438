"""Score pad (slug "scorepad"): settings, rounds, the end of the game and the sheet."""

import copy
import json

import pytest
from hypothesis import given, settings as hyp_settings
from hypothesis import strategies as st

from companion.rules import RuleError, find_game
from companion.rules.scorepad import RULES

GAME = find_game("scorepad")
SEATS = ["Ann", "Bob", "Cy"]


def play(settings, seats, actions):
    """Fold apply over actions from a new game; return the final state."""
    state = GAME.new(settings, seats)
    for action in actions:
        state = GAME.apply(state, action)
    return state


def rnd(**scores):
    return {"kind": "round", "scores": scores}


FINISH = {"kind": "finish"}

# ---------------------------------------------------------------------------------------
# Whole games, table-driven.

SCENARIOS = [
    # id, settings, actions, totals, over, winners, over rule
    ("high wins to target", {"target": 100},
     [rnd(Ann=60, Bob=30, Cy=10), rnd(Ann=50, Bob=40, Cy=0)],
     {"Ann": 110, "Bob": 70, "Cy": 10}, True, ["Ann"], "SP-2"),
    ("target reached exactly", {"target": 100},
     [rnd(Ann=99), rnd(Bob=100)],
     {"Ann": 99, "Bob": 100, "Cy": 0}, True, ["Bob"], "SP-2"),
    ("target not reached yet", {"target": 100},
     [rnd(Ann=60, Bob=30), rnd(Ann=39)],
     {"Ann": 99, "Bob": 30, "Cy": 0}, False, [], None),
    ("two reach target, highest wins", {"target": 100},
     [rnd(Ann=105, Bob=110, Cy=20)],
     {"Ann": 105, "Bob": 110, "Cy": 20}, True, ["Bob"], "SP-2"),
    ("low wins with target", {"target": 100, "low_wins": True},
     [rnd(Ann=60, Bob=30, Cy=45), rnd(Ann=50, Bob=40, Cy=45)],
     {"Ann": 110, "Bob": 70, "Cy": 90}, True, ["Bob"], "SP-2"),
    ("rounds limit", {"rounds": 2},
     [rnd(Ann=5, Bob=7), rnd(Ann=5, Cy=1)],
     {"Ann": 10, "Bob": 7, "Cy": 1}, True, ["Ann"], "SP-3"),
    ("rounds limit, low wins", {"rounds": 2, "low_wins": True},
     [rnd(Ann=5, Bob=7, Cy=3), rnd(Ann=5, Bob=0, Cy=1)],
     {"Ann": 10, "Bob": 7, "Cy": 4}, True, ["Cy"], "SP-3"),
    ("both set, target first", {"target": 50, "rounds": 3},
     [rnd(Ann=60)],
     {"Ann": 60, "Bob": 0, "Cy": 0}, True, ["Ann"], "SP-2"),
    ("both set, rounds first", {"target": 1000, "rounds": 2},
     [rnd(Ann=60), rnd(Bob=70)],
     {"Ann": 60, "Bob": 70, "Cy": 0}, True, ["Bob"], "SP-3"),
    ("both in the same round", {"target": 100, "rounds": 1},
     [rnd(Cy=100)],
     {"Ann": 0, "Bob": 0, "Cy": 100}, True, ["Cy"], "SP-2"),
    ("tie shares the win", {"rounds": 1},
     [rnd(Ann=10, Bob=10, Cy=5)],
     {"Ann": 10, "Bob": 10, "Cy": 5}, True, ["Ann", "Bob"], "SP-3"),
    ("low-wins tie", {"rounds": 1, "low_wins": True},
     [rnd(Ann=3, Bob=9, Cy=3)],
     {"Ann": 3, "Bob": 9, "Cy": 3}, True, ["Ann", "Cy"], "SP-3"),
    ("unnamed players score 0", {},
     [rnd(Ann=5), rnd()],
     {"Ann": 5, "Bob": 0, "Cy": 0}, False, [], None),
    ("negative scores allowed", {"rounds": 1, "low_wins": True},
     [rnd(Ann=-5, Bob=3, Cy=0)],
     {"Ann": -5, "Bob": 3, "Cy": 0}, True, ["Ann"], "SP-3"),
    ("score limits are inclusive", {},
     [rnd(Ann=1_000_000, Bob=-1_000_000)],
     {"Ann": 1_000_000, "Bob": -1_000_000, "Cy": 0}, False, [], None),
    ("no end: finish by hand", {},
     [rnd(Ann=1, Bob=4, Cy=4), FINISH],
     {"Ann": 1, "Bob": 4, "Cy": 4}, True, ["Bob", "Cy"], "SP-5"),
    ("finish before the target", {"target": 100},
     [rnd(Ann=10), FINISH],
     {"Ann": 10, "Bob": 0, "Cy": 0}, True, ["Ann"], "SP-5"),
]


@pytest.mark.parametrize("settings, actions, totals, over, winners, rule",
                         [case[1:] for case in SCENARIOS], ids=[case[0] for case in SCENARIOS])
def test_scenarios(settings, actions, totals, over, winners, rule):
    sheet = GAME.summary(play(settings, SEATS, actions))
    assert sheet["totals"] == totals
    assert list(sheet["totals"]) == SEATS
    assert sheet["over"] is over
    assert sheet["winners"] == winners
    assert sheet["round_count"] == sum(1 for a in actions if a["kind"] == "round")
    if rule is None:
        assert sheet["over_reason"] is None and sheet["result"] is None
    else:
        assert sheet["over_reason"]["rule"] == rule
        assert sheet["winners"] == sheet["leaders"]
        assert sheet["result"]["rule"] == "SP-4"
    for key in ("end_rule", "over_reason", "result"):
        if sheet[key]:
            assert sheet[key]["rule"] in sheet["rules"]


def test_sheet_details():
    sheet = GAME.summary(play({"target": 100, "rounds": 5}, SEATS,
                              [rnd(Ann=60, Bob=30), rnd(Ann=50, Cy=-4)]))
    assert sheet["rounds"] == [{"Ann": 60, "Bob": 30, "Cy": 0}, {"Ann": 50, "Bob": 0, "Cy": -4}]
    assert sheet["running"] == [{"Ann": 60, "Bob": 30, "Cy": 0},
                                {"Ann": 110, "Bob": 30, "Cy": -4}]
    assert sheet["over_reason"] == {"text": "Ann reached 110 (target 100).", "rule": "SP-2"}
    assert sheet["result"] == {"text": "Ann wins with 110.", "rule": "SP-4"}
    assert sheet["rounds_left"] is None
    assert sheet["seats"] == SEATS
    assert sheet["settings"] == {"target": 100, "rounds": 5, "low_wins": False}
    assert set(sheet["rules"]) == set(RULES)


def test_sheet_before_any_round():
    sheet = GAME.summary(GAME.new({"rounds": 3}, SEATS))
    assert sheet["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert (sheet["over"], sheet["winners"], sheet["leaders"]) == (False, [], [])
    assert sheet["rounds"] == [] and sheet["running"] == [] and sheet["round_count"] == 0
    assert sheet["rounds_left"] == 3
    assert "SP-2" not in sheet["rules"] and "SP-3" in sheet["rules"]


def test_leaders_follow_low_wins():
    high = GAME.summary(play({}, SEATS, [rnd(Ann=3, Bob=1, Cy=3)]))
    low = GAME.summary(play({"low_wins": True}, SEATS, [rnd(Ann=3, Bob=1, Cy=3)]))
    assert high["leaders"] == ["Ann", "Cy"] and low["leaders"] == ["Bob"]
    assert high["winners"] == low["winners"] == []


def test_tie_texts():
    sheet = GAME.summary(play({"target": 10}, SEATS, [rnd(Ann=12, Bob=12, Cy=11)]))
    assert sheet["over_reason"]["text"] == (
        "Ann (12), Bob (12) and Cy (11) reached the target of 10.")
    assert sheet["result"]["text"] == "Ann and Bob share the win with 12."


@pytest.mark.parametrize("settings, text, rule", [
    ({"target": 100}, "Ends when someone reaches 100; highest total wins.", "SP-2"),
    ({"target": 100, "low_wins": True}, "Ends when someone reaches 100; lowest total wins.",
     "SP-2"),
    ({"rounds": 10}, "Highest total after 10 rounds wins.", "SP-3"),
    ({"rounds": 10, "low_wins": True}, "Lowest total after 10 rounds wins.", "SP-3"),
    ({"rounds": 1}, "Highest total after 1 round wins.", "SP-3"),
    ({"target": 1000, "rounds": 10},
     "Ends when someone reaches 1,000 or after 10 rounds, whichever comes first; "
     "highest total wins.", "SP-2"),
    ({}, "No end set: finish the game by hand.", "SP-5"),
    ({"low_wins": True}, "No end set: finish the game by hand.", "SP-5"),
])
def test_end_rule(settings, text, rule):
    end = GAME.summary(GAME.new(settings, SEATS))["end_rule"]
    assert (end["text"], end["rule"]) == (text, rule)
    assert rule in end["rules"] and "SP-4" in end["rules"]


@pytest.mark.parametrize("settings, actions, text", [
    ({"rounds": 2}, [rnd(), rnd()], "All 2 rounds have been played."),
    ({"rounds": 1}, [rnd()], "The one round has been played."),
    ({}, [rnd(), rnd(), FINISH], "The game was finished by hand after 2 rounds."),
    ({}, [rnd(), FINISH], "The game was finished by hand after 1 round."),
])
def test_over_reason_text(settings, actions, text):
    assert GAME.summary(play(settings, SEATS, actions))["over_reason"]["text"] == text


# ---------------------------------------------------------------------------------------
# Refused actions.

REFUSED = [
    # id, settings, earlier actions, refused action, rule, words in the message
    ("unknown player", {}, [], rnd(Zed=5), "SP-1", "'Zed' is not playing"),
    ("score as text", {}, [], rnd(Ann="5"), "SP-6", "Ann's score must be a whole number"),
    ("score as float", {}, [], rnd(Ann=5.0), "SP-6", "whole number"),
    ("score as bool", {}, [], rnd(Ann=True), "SP-6", "whole number"),
    ("score as None", {}, [], rnd(Ann=None), "SP-6", "whole number"),
    ("score too high", {}, [], rnd(Ann=1_000_001), "SP-6", "1,000,001"),
    ("score too low", {}, [], rnd(Bob=-1_000_001), "SP-6", "-1,000,001"),
    ("scores not a dict", {}, [], {"kind": "round", "scores": [5, 3]}, "SP-1", "scores"),
    ("unknown kind", {}, [], {"kind": "undo"}, "SP-1", "'undo' is not a score pad action"),
    ("no kind", {}, [], {"scores": {}}, "SP-1", "not a score pad action"),
    ("not a dict", {}, [], "round", "SP-1", "not a score pad action"),
    ("finish before any round", {}, [], FINISH, "SP-5", "at least one round"),
    ("round after target", {"target": 10}, [rnd(Ann=10)], rnd(Bob=1), "SP-2",
     "The game is over: Ann won. Start a rematch to play again."),
    ("finish after target", {"target": 10}, [rnd(Ann=10)], FINISH, "SP-2", "The game is over"),
    ("round after rounds", {"rounds": 1}, [rnd(Ann=1, Bob=1)], rnd(), "SP-3",
     "The game is over: Ann and Bob won. Start a rematch to play again."),
    ("round after finish", {}, [rnd(Cy=2), FINISH], rnd(), "SP-5",
     "The game is over: Cy won."),
    ("finish after finish", {}, [rnd(Cy=2), FINISH], FINISH, "SP-5", "The game is over"),
    ("unknown kind after over", {"rounds": 1}, [rnd()], {"kind": "undo"}, "SP-3",
     "The game is over"),
]


@pytest.mark.parametrize("settings, earlier, action, rule, words",
                         [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED])
def test_refused_actions(settings, earlier, action, rule, words):
    state = play(settings, SEATS, earlier)
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, action)
    assert error.value.rule == rule
    assert words in str(error.value)
    assert isinstance(error.value, ValueError)
    assert state == before


# ---------------------------------------------------------------------------------------
# Settings and seats.

@pytest.mark.parametrize("settings, words", [
    ({"target": 0}, "Target score must be a whole number between 1 and 1,000,000."),
    ({"target": -5}, "Target score"),
    ({"target": 1_000_001}, "Target score"),
    ({"target": "100"}, "Target score"),
    ({"target": 1.5}, "Target score"),
    ({"target": True}, "Target score"),
    ({"rounds": 0}, "Number of rounds must be a whole number between 1 and 1,000."),
    ({"rounds": 1001}, "Number of rounds"),
    ({"low_wins": "yes"}, "Lowest total wins must be yes or no."),
    ({"low_wins": 1}, "Lowest total wins"),
    ({"colour": "red"}, "'colour' is not a setting of Score pad."),
    ("target=100", "dictionary"),
])
def test_bad_settings(settings, words):
    with pytest.raises(ValueError) as error:
        GAME.new(settings, SEATS)
    assert words in str(error.value)
    assert not isinstance(error.value, RuleError)


@pytest.mark.parametrize("settings, stored", [
    ({}, {"target": None, "rounds": None, "low_wins": False}),
    (None, {"target": None, "rounds": None, "low_wins": False}),
    ({"target": None, "rounds": 3}, {"target": None, "rounds": 3, "low_wins": False}),
    ({"target": 1, "rounds": 1000, "low_wins": True},
     {"target": 1, "rounds": 1000, "low_wins": True}),
    ({"target": 1_000_000}, {"target": 1_000_000, "rounds": None, "low_wins": False}),
])
def test_good_settings(settings, stored):
    assert GAME.summary(GAME.new(settings, SEATS))["settings"] == stored


@pytest.mark.parametrize("seats, words", [
    (["Ann"], "Score pad is for 2 to 12 players, not 1."),
    ([f"P{i}" for i in range(13)], "not 13"),
    (["Ann", "Bob", "ann"], "Player names must be different: 'Ann' appears twice."),
    (["Ann", " ANN ", "ann"], "'Ann' appears 3 times."),
    (["Ann", "  "], "one name is empty"),
    (["Ann", "x" * 33], "at most 32 characters"),
    (["Ann", 7], "Player names must be text."),
    ("Ann,Bob", "list of player names"),
])
def test_bad_seats(seats, words):
    with pytest.raises(ValueError) as error:
        GAME.new({}, seats)
    assert words in str(error.value)


def test_seats_are_stripped():
    sheet = GAME.summary(GAME.new({}, [" Ann ", "Bob", "x" * 24]))
    assert sheet["seats"] == ["Ann", "Bob", "x" * 24]


@pytest.mark.parametrize("form, parsed", [
    ({}, {"low_wins": False}),
    ({"target": "100"}, {"target": 100, "low_wins": False}),
    ({"target": " 250 ", "rounds": "", "low_wins": ""}, {"target": 250, "low_wins": False}),
    ({"target": "+7"}, {"target": 7, "low_wins": False}),
    ({"rounds": "10", "low_wins": "on"}, {"rounds": 10, "low_wins": True}),
    ({"low_wins": "TRUE"}, {"low_wins": True}),
    ({"low_wins": "1"}, {"low_wins": True}),
    ({"low_wins": "yes"}, {"low_wins": True}),
    ({"low_wins": "off"}, {"low_wins": False}),
    ({"low_wins": "false"}, {"low_wins": False}),
    ({"low_wins": "0"}, {"low_wins": False}),
    ({"low_wins": "No"}, {"low_wins": False}),
    ({"csrf_token": "abc", "seats": "Ann"}, {"low_wins": False}),
])
def test_parse_settings(form, parsed):
    assert GAME.parse_settings(form) == parsed
    GAME.new(parsed, SEATS)  # what the form gives, new accepts


@pytest.mark.parametrize("form, words", [
    ({"target": "abc"}, "Target score must be a whole number between 1 and 1,000,000."),
    ({"target": "1.5"}, "Target score must be a whole number"),
    ({"target": "0"}, "Target score"),
    ({"target": "1000001"}, "Target score"),
    ({"target": "1_000"}, "Target score"),
    ({"target": "1e3"}, "Target score"),
    ({"rounds": "-1"}, "Number of rounds must be a whole number between 1 and 1,000."),
    ({"rounds": "ten"}, "Number of rounds"),
    ({"low_wins": "maybe"}, "Lowest total wins must be yes or no."),
])
def test_parse_settings_rejects(form, words):
    with pytest.raises(ValueError) as error:
        GAME.parse_settings(form)
    assert words in str(error.value)


def test_describe_settings():
    assert GAME.describe_settings({"target": 1000}) == [
        {"name": "target", "label": "Target score", "value": "1,000", "rule": "SP-2"},
        {"name": "rounds", "label": "Number of rounds", "value": "Not set", "rule": "SP-3"},
        {"name": "low_wins", "label": "Lowest total wins", "value": "No", "rule": "SP-4"},
    ]
    described = GAME.describe_settings({"rounds": 5, "low_wins": True})
    assert [d["value"] for d in described] == ["Not set", "5", "Yes"]


# ---------------------------------------------------------------------------------------
# Purity.

def test_apply_does_not_mutate_and_shares_nothing():
    state = play({"target": 100}, SEATS, [rnd(Ann=5)])
    before = copy.deepcopy(state)
    after = GAME.apply(state, rnd(Bob=7))
    assert state == before
    GAME.summary(after)
    assert state == before
    after["rounds"][0]["Ann"] = 999
    after["seats"].append("Zed")
    after["settings"]["target"] = 1
    assert state == before
    sheet = GAME.summary(state)
    sheet["rounds"][0]["Ann"] = 999
    sheet["totals"]["Ann"] = 999
    assert state == before


def test_finish_does_not_mutate():
    state = play({}, SEATS, [rnd(Ann=5)])
    before = copy.deepcopy(state)
    GAME.apply(state, FINISH)
    assert state == before
    assert GAME.summary(state)["over"] is False


def test_summary_rejects_foreign_state():
    with pytest.raises(ValueError):
        GAME.summary({"game": "rook"})


# ---------------------------------------------------------------------------------------
# Properties.

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


@st.composite
def seats_and_rounds(draw, low=-1_000_000, high=1_000_000, max_rounds=12):
    seats = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=6, unique=True))
    rounds = draw(st.lists(
        st.dictionaries(st.sampled_from(seats), st.integers(low, high)), max_size=max_rounds))
    return seats, rounds


@st.composite
def end_settings(draw):
    return {
        "target": draw(st.none() | st.integers(1, 150)),
        "rounds": draw(st.none() | st.integers(1, 8)),
        "low_wins": draw(st.booleans()),
    }


@given(seats_and_rounds(), st.data())
def test_totals_are_sums_of_kept_rounds(seats_rounds, data):
    """(a) Striking rounds out: totals are the per-player sums of the rounds kept."""
    seats, rounds = seats_rounds
    keep = data.draw(st.lists(st.booleans(), min_size=len(rounds), max_size=len(rounds)))
    kept = [scores for scores, k in zip(rounds, keep) if k]
    sheet = GAME.summary(play({}, seats, [{"kind": "round", "scores": s} for s in kept]))
    assert sheet["totals"] == {p: sum(s.get(p, 0) for s in kept) for p in seats}
    assert sheet["round_count"] == len(kept)
    assert sheet["over"] is False


def accepted_actions(settings, seats, candidates):
    """Apply candidates in order, keeping those accepted; stop at the first refusal after over."""
    state, actions, sheets = GAME.new(settings, seats), [], []
    sheets.append(GAME.summary(state))
    for action in candidates:
        try:
            state = GAME.apply(state, action)
        except RuleError:
            if sheets[-1]["over"]:
                break
            continue
        actions.append(action)
        sheets.append(GAME.summary(state))
    return state, actions, sheets


def with_finishes(rounds, data):
    actions = []
    for scores in rounds:
        actions.append({"kind": "round", "scores": scores})
        if data.draw(st.integers(0, 24)) == 0:
            actions.append({"kind": "finish"})
    return actions


@given(end_settings(), seats_and_rounds(low=-20, high=60), st.data())
def test_undo_restores_previous_summary(settings, seats_rounds, data):
    """(b) Dropping the last action restores the summary shown before it."""
    seats, rounds = seats_rounds
    _, actions, sheets = accepted_actions(settings, seats, with_finishes(rounds, data))
    for i in range(1, len(actions) + 1):
        assert GAME.summary(play(settings, seats, actions[:i - 1])) == sheets[i - 1]
        assert GAME.summary(play(settings, seats, actions[:i])) == sheets[i]


@given(end_settings(), seats_and_rounds(low=-20, high=60), st.data())
def test_over_exactly_when_end_condition_holds(settings, seats_rounds, data):
    """(c) Over iff a total reached the target, the rounds ran out or someone finished;
    nothing is accepted afterwards."""
    seats, rounds = seats_rounds
    state = GAME.new(settings, seats)
    totals, count, finished = dict.fromkeys(seats, 0), 0, False
    for action in with_finishes(rounds, data):
        sheet = GAME.summary(state)
        ended = (finished
                 or (settings["target"] is not None
                     and any(t >= settings["target"] for t in totals.values()))
                 or (settings["rounds"] is not None and count >= settings["rounds"]))
        assert sheet["over"] is ended
        assert sheet["totals"] == totals
        if ended:
            pick = min if settings["low_wins"] else max
            assert sheet["winners"] == [p for p in seats if totals[p] == pick(totals.values())]
            for refused in (action, {"kind": "round", "scores": {}}, {"kind": "finish"}):
                with pytest.raises(RuleError) as error:
                    GAME.apply(state, refused)
                assert error.value.rule == sheet["over_reason"]["rule"]
            return
        assert sheet["winners"] == []
        if action["kind"] == "finish" and count == 0:
            with pytest.raises(RuleError):
                GAME.apply(state, action)
            continue
        state = GAME.apply(state, action)
        if action["kind"] == "finish":
            finished = True
        else:
            count += 1
            totals = {p: totals[p] + action["scores"].get(p, 0) for p in seats}


@hyp_settings(max_examples=50)
@given(end_settings(), seats_and_rounds(low=-20, high=60), st.data())
def test_state_and_summary_are_json(settings, seats_rounds, data):
    """(d) State and summary survive a JSON round trip unchanged, and play on the same."""
    seats, rounds = seats_rounds
    state, actions, _ = accepted_actions(settings, seats, with_finishes(rounds, data))
    assert json.loads(json.dumps(state)) == state
    sheet = GAME.summary(state)
    assert json.loads(json.dumps(sheet)) == sheet
    reloaded = json.loads(json.dumps(state))
    assert GAME.summary(reloaded) == sheet
