"""Empty boxes are never a score, and one bid is one value, through the Flask test client.

The score pad saves a round only when every player has a number (a deliberate 0 is typed);
Rainbow Rummy's point boxes likewise; Rook's bid chips and typed bid never silently
disagree. A refused entry saves nothing, names every empty box and keeps what was typed.
"""
from __future__ import annotations

import pytest

from helpers import attrs, form_block, inputs, select, text_of
from web_helpers import create_game_table, snapshot

FOUR = ["Ann", "Bob", "Cid", "Dee"]


def post(phone, table_id: str, **fields):
    """Press the entry form's button as it stands now (its sid and version), sending only
    `fields` (not the form's other boxes)."""
    form = inputs(form_block(phone.page(table_id), 'id="entry-form"'))
    data = {"sid": form["sid"], "version": form["version"]}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


def rounds(page: str) -> int:
    return len(select(page, "#sheet tbody tr[id^=round-]"))


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


# ---------------------------------------------------------------- score pad (SP)

def test_a_round_with_empty_boxes_is_refused_naming_them(ann, db_path):
    table_id = ann.create_table(FOUR)
    before = snapshot(db_path)
    r = post(ann, table_id, score_0="12", score_1="", score_2="  ", score_3="7")
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert ("Nothing saved: no score typed for Bob and Cid. Type a number in every box "
            "(type 0 for no points).") in text_of(body)
    # The empty boxes are marked (the page focuses the first); what was typed stays.
    assert attrs(body, '#entry-form [aria-invalid="true"]', "id") == ["score_1", "score_2"]
    typed = inputs(form_block(body, 'id="entry-form"'))
    assert (typed["score_0"], typed["score_1"], typed["score_3"]) == ("12", "", "7")
    assert snapshot(db_path) == before
    # A box never sent at all is just as empty (a client can't save blanks as 0).
    r = post(ann, table_id, score_0="12")
    assert r.status_code == 422
    assert "no score typed for Bob, Cid and Dee" in text_of(r.get_data(as_text=True))
    r = post(ann, table_id)
    assert r.status_code == 422
    assert ("Type every player's score before saving the round (type 0 for no points)."
            in text_of(r.get_data(as_text=True)))
    assert snapshot(db_path) == before


def test_a_deliberate_0_is_a_score(ann):
    table_id = ann.create_table(FOUR)
    r = post(ann, table_id, score_0="12", score_1="0", score_2="-0", score_3="7")
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:500]
    page = ann.page(table_id)
    assert rounds(page) == 1
    assert [text_of(page, f'#sheet tfoot td[data-player="{n}"]') for n in FOUR] == [
        "12", "0", "0", "7"]
    assert "Round: Ann +12, Bob 0, Cid 0, Dee +7" in text_of(
        ann.get(f"/t/{table_id}/history").get_data(as_text=True))


def test_the_score_boxes_show_no_value_like_hint(ann):
    """No grey "0" that reads as a typed score; Enter walks the boxes (app.js)."""
    table_id = ann.create_table(["Ann", "Bob", "Cid"])
    form = form_block(ann.page(table_id), 'id="entry-form"')
    boxes = select(form, '[data-fill-all] input[id^="score_"]')
    assert len(boxes) == 3
    assert [b.get("placeholder") for b in boxes] == [None, None, None]
    assert [b.get("enterkeyhint") for b in boxes] == ["next", "next", "done"]


# ---------------------------------------------------------------- Rainbow Rummy (RR-11)

def test_rainbow_rummy_went_out_face_down_box_may_stay_empty_when_it_counts_nothing(ann):
    # House rule RR-A1 switched: the player who went out doesn't count face-down cards, so
    # their box scores nothing either way; everyone else's still needs a number.
    table_id = create_game_table(ann, "rainbow_rummy", FOUR, out_counts_down="off")
    r = post(ann, table_id, kind="hand", went_out="0", hand_pts_1="10", hand_pts_2="3",
             hand_pts_3="4", down_pts_1="0", down_pts_2="0")
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert "Enter Dee's face-down cards: their points (0 if none)" in text_of(body)
    assert attrs(body, '[aria-invalid="true"]', "id") == ["down_pts_3"]
    r = post(ann, table_id, kind="hand", went_out="0", hand_pts_1="10", hand_pts_2="3",
             hand_pts_3="4", down_pts_1="0", down_pts_2="0", down_pts_3="0")
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:500]


def test_rainbow_rummy_picker_shows_the_running_total(ann):
    table_id = create_game_table(ann, "rainbow_rummy", FOUR)
    page = ann.page(table_id)
    total = select(page, '[data-card-picker]:has(#rr-hand-0) [data-card-total]')[0]
    # What each rank is worth (RR-11): the page's script adds the picked cards up.
    assert total.get("data-rank-points") == "1:1 2:2 3:3 4:4 5:5 6:6 7:7 M:10 S:10 G:10"
    assert total.get("data-text") == "Total: {points} pts" and text_of(total) == ""
    # A refused hand comes back with its picked cards counted by the server.
    r = post(ann, table_id, kind="hand", went_out="9", hand_0="5J GN")
    body = r.get_data(as_text=True)
    assert r.status_code == 422
    assert text_of(select(body, '[data-card-picker]:has(#rr-hand-0) [data-card-total]')[0]) \
        == "Total: 15 pts"


# ---------------------------------------------------------------- Rook (RK-4)

def test_rook_chip_and_typed_bid_are_one_value(ann, db_path):
    table_id = create_game_table(ann, "rook", FOUR, variant="family")
    # A typed 120 is refused (bids start at 150, RK-4) and comes back typed.
    r = post(ann, table_id, bidder="Ann", bid_typed="120", points_A="120")
    assert r.status_code == 422 and "RK-4" in r.get_data(as_text=True)
    # The 180 chip tapped while the stale 120 is still in the box (no script on the page
    # to empty it): neither silently wins; the answer says both and marks the typed box.
    before = snapshot(db_path)
    r = post(ann, table_id, bidder="Ann", bid="180", bid_typed="120", points_A="120")
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert ("Two bids: the 180 button and 120 typed. Tap one bid, or clear the typed box."
            in text_of(body))
    assert attrs(body, '[aria-invalid="true"]', "name") == ["bid_typed"]
    assert snapshot(db_path) == before
    # The chip alone (what the page sends: tapping it empties the box) saves the chip's bid.
    r = post(ann, table_id, bidder="Ann", bid="180", points_A="120")
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:500]
    assert "Hand: Ann bid 180" in text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    # The same bid in both is one value.
    r = post(ann, table_id, bidder="Bob", bid="150", bid_typed="150", points_B="150")
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:500]


# ---------------------------------------------------------------- RockIt (RID-4)

def test_rockit_come_in_tray_has_a_clear_button(ann):
    table_id = create_game_table(ann, "rockit", ["Ann", "Bob", "Cy"])
    ann.page(table_id)
    r = post(ann, table_id, kind="come_in", player="Ann", cards="2H 3H 4H")
    assert r.status_code == 422                   # under 30 (RID-4): the trick comes back
    body = r.get_data(as_text=True)
    tray = select(body, '[data-card-picker]:has(#come-in-cards) .tray')[0]
    assert inputs(tray)["cards"] == "2H 3H 4H"
    clear = select(tray, "button[data-card-clear]")
    assert len(clear) == 1 and text_of(clear[0]) == "Clear"
