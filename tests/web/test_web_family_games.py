"""A family's evening, through the Flask test client: the Zock'n'Roll turn result at the top
of every phone, the rules answers of the tool pages, the trick helper's names and a calm
answer to a save that another phone beat."""
from __future__ import annotations

import re

import pytest

from helpers import form_block, inputs, select, select_one, text_of
from web_helpers import Phone, create_game_table

ZNR = ["Ann", "Bob", "Cid"]
# One guided turn with Jörg (dealer Ann): Bob drops in round 1, Ann in round 2, Cid and Jörg
# reveal in round 3 (Cid's Large Straight beats Jörg's Two Pair).
ZNR_TURN = [dict(kind="roll", white="2 2 5"), dict(kind="drop", player="Bob", own="26"),
            dict(kind="stay", player="Cid"), dict(kind="stay", player="Ann"),
            dict(kind="roll", white="4"), dict(kind="stay", player="Cid"),
            dict(kind="drop", player="Ann", own="5,5"), dict(kind="roll", white="5"),
            dict(kind="reveal", player="Cid", own="1 3"),
            dict(kind="reveal", player="Jörg", own="6 6")]


def act(phone: Phone, table_id: str, **fields):
    """Press a button of the entry form as it stands now (its sid and version)."""
    form = inputs(form_block(phone.page(table_id), 'id="entry-form"'))
    data = {"sid": form["sid"], "version": form["version"]}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


def test_znr_the_turn_result_stays_on_top_until_the_next_roll(ann, new_phone):
    table_id = create_game_table(ann, "zocknroll", ZNR)
    for step in ZNR_TURN:
        r = act(ann, table_id, **step)
        assert r.status_code == 200, text_of(r.get_data(as_text=True))[:400]
    watcher = new_phone("Watcher")
    watcher.join(ann.join_path(table_id))
    pages = {"seated": ann.page(table_id), "spectator": watcher.page(table_id)}
    for who, page in pages.items():
        boxes = select(page, "#turn-result")
        assert len(boxes) == 1, who
        box = text_of(boxes[0])
        assert "Turn 1: Cid wins round 3 with Large Straight" in box and "ZNR-4" in box
        cid = select_one(page, '#turn-result li[data-player="Cid"]')
        assert "winner" in cid["class"] and "Large Straight" in text_of(cid)
        assert [d["aria-label"] for d in select(cid, ".die-face")] == ["1", "3"]
        jorg = select_one(page, '#turn-result li[data-player="Jörg"]')
        assert "Two Pair" in text_of(jorg)
        assert [d["aria-label"] for d in select(jorg, ".die-face")] == ["6", "6"]
        dropped = text_of(page, "#turn-result")
        assert "Bob dropped (round 1)" in dropped and "Three of a Kind" in dropped
    # On a seated phone the result comes before the next dealer's roll, in the form.
    seated = pages["seated"]
    assert seated.index('id="turn-result"') < seated.index("Bob deals: roll 3 white dice")
    # The turn log names every reveal with its dice, the last one too.
    log = text_of(seated, "#turn-log")
    assert "Cid revealed 1, 3." in log and "Jörg revealed 6, 6." in log
    assert log.index("Jörg revealed 6, 6.") < log.index("Cid wins round 3")
    # The next roll starts the new turn: the result is gone.
    assert act(ann, table_id, kind="roll", white="1 2 3").status_code == 200
    assert not select(ann.page(table_id), "#turn-result")


# ------------------------------------------------------------------ the rules answers

@pytest.mark.parametrize("query, rule, label, words", [
    # ZNR-2: dice that make no hand still get a verdict: drop and check only Dropped Out.
    ("board=beginner&dice=1+2+3+4+6", "ZNR-2", "No hand",
     "1, 2, 3, 4, 6 make no hand on the beginner board: a player who drops out in round 1 "
     "checks only Dropped Out First Round."),
    ("board=beginner&dice=1+2+3+4+5", "ZNR-4", "Large Straight", "The best hand is"),
])
def test_znr_best_hand_tool_always_answers(ann, query, rule, label, words):
    r = ann.get(f"/zocknroll/best?{query}&check=1")
    assert r.status_code == 200
    box = text_of(r.get_data(as_text=True), "#best-hand")
    assert label in box and words in box and rule in box


def test_rook_260_for_one_team_says_a_hand_holds_250(ann):
    """RK-7: a hand holds 250 points in all (family); the typed box stays marked."""
    table_id = create_game_table(ann, "rook", ["Ann", "Bob", "Cid", "Dee"])
    form = inputs(form_block(ann.page(table_id), 'id="entry-form"'))
    r = ann.post(f"/t/{table_id}/actions", {"sid": form["sid"], "version": form["version"],
                                            "bidder": "Ann", "bid": "150", "points_A": "260"},
                 hx=True)
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    said = text_of(page, "#entry .notice.error")
    assert "A hand holds 250 points in all, so no team takes 260." in said and "RK-7" in said
    assert "0 or more" not in said
    assert select_one(page, "#points_A").get("aria-invalid") == "true"
    assert select_one(page, "#points_A")["value"] == "260"
    assert select_one(page, "#points_B").get("aria-invalid") is None


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164 \u3164", "\u115f\u1160", "\uffa0",
                                  "\u200b\u034f\ufe0f", "\U000e0041\U000e0042", "\u17b4\u180e"])
def test_a_name_of_invisible_characters_is_refused(ann, name):
    r = ann.post("/new/scorepad", {"name_0": "Ann", "name_1": name, "me": "0"})
    assert r.status_code == 422
    assert "Every player needs a name: one name is empty." in text_of(r.get_data(as_text=True))


# ------------------------------------------------------------------ the trick helper

def test_trick_helper_one_box_per_player_and_the_winner_by_name(ann):
    table_id = create_game_table(ann, "rook", ["Ann", "Bob", "Cid", "Dee"])
    page = ann.get(f"/t/{table_id}/trick?open=trick").get_data(as_text=True)
    assert len(select(page, "#trick select")) == 4
    assert [text_of(x) for x in select(page, "#trick-leader label")] == ["Ann", "Bob", "Cid",
                                                                          "Dee"]
    # Cid led; Dee, Ann and Bob followed: Ann's 14 Red (trump) wins.
    r = ann.get(f"/t/{table_id}/trick?trump=R&leader=2&c1=5G&c2=10G&c3=14R&c4=14G&check=trick")
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    assert text_of(page, "#trick-winner") == "Ann wins the trick with 14 Red."
    assert [text_of(x) for x in select(page, "#trick .field label")] == [
        "Cid (led)", "Dee", "Ann", "Bob"]
    assert "card 3" not in text_of(page, "#trick-verdict")


@pytest.mark.parametrize("query, boxes, words", [
    ("players=4&trump=R&c1=5G&c2=10G&c3=14R&c4=14G", 4,
     "14 Red wins: the card of the player 2 seats to the leader's left."),
    ("players=6&trump=R&c1=14R&c2=10G", 6, "14 Red wins: the leader's card."),
    ("players=6&trump=R&c1=5G&c2=14R", 6,
     "14 Red wins: the card of the player 1 seat to the leader's left."),
])
def test_trick_helper_without_a_table_says_where_the_winner_sits(ann, query, boxes, words):
    r = ann.get(f"/rook/trick?variant=family&{query}&check=trick")
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    assert len(select(page, "#trick select")) == boxes
    assert text_of(page, "#trick-winner") == words


# ------------------------------------------------------------------ a save another phone beat

def test_a_save_beaten_by_another_phone_is_a_calm_notice_that_keeps_the_typing(ann, new_phone):
    table_id = ann.create_table(["Ann", "Bob"])
    bob = new_phone("Bob")
    bob.join(ann.join_path(table_id))
    bob.claim(table_id, 1)
    bob_form = bob.entry_form(table_id)
    assert ann.enter(table_id, {0: 10, 1: 4}).status_code == 200
    r = bob.enter(table_id, {0: 5, 1: 7}, form=bob_form)
    assert r.status_code == 409
    page = r.get_data(as_text=True)
    note = select_one(page, "#entry .notice")
    assert note["class"].split() == ["notice", "stale"] and note["role"] == "status"
    assert not select(page, "#entry .notice.error")
    said = text_of(note)
    assert re.search(r"Ann saved an entry \(#\d+\) just before you\. Your entry is still here: "
                     r"check it against the sheet, then save again\.", said), said
    kept = bob.entry_form(table_id, page)
    assert kept["score_0"] == "5" and kept["score_1"] == "7"


@pytest.mark.parametrize("leader", ["x", "-1", "9", "²", "٣", "1" * 40])
def test_trick_helper_reads_no_leader_from_odd_input(ann, leader):
    table_id = create_game_table(ann, "rook", ["Ann", "Bob", "Cid", "Dee"])
    r = ann.get(f"/t/{table_id}/trick", query_string={
        "trump": "R", "leader": leader, "c1": "5G", "c2": "14R", "check": "trick"})
    assert r.status_code == 200
    assert text_of(r.get_data(as_text=True), "#trick-winner") == (
        "14 Red wins: the card of the player 1 seat to the leader's left.")
