"""Rook at the table through the Flask test client: presets, hand entry, refusals, the end."""
from __future__ import annotations

import re

import pytest

from helpers import attr, form_block, inputs, select, text_of
from japanese_tour import Step, Tour
from web_helpers import Phone, create_game_table, snapshot

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def create_rook(phone: Phone, names=NAMES, **settings) -> str:
    return create_game_table(phone, "rook", names, **settings)


def hand(phone: Phone, table_id: str, **fields):
    """Post a hand like the form does; with no form on the page (an entry waits for its
    confirmation), post what a stale form or a script would: the sheet's version."""
    page = phone.page(table_id)
    if 'id="entry-form"' in page:
        form = inputs(form_block(page, 'id="entry-form"'))
        data = {"sid": form["sid"], "version": form["version"]}
    else:
        version = attr(page, "[data-version]", "data-version")
        data = {"sid": f"script-{version}", "version": version}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


def test_teams_presets_and_house_rules_are_shown(ann):
    form = ann.get("/new/rook").get_data(as_text=True)
    assert "What each variant sets" in form and "Kentucky" in form
    table_id = create_rook(ann, variant="kentucky")
    page = text_of(ann.page(table_id))
    assert "Ann & Cid" in page and "Bob & Dee" in page          # teams seated alternately
    assert "Game target: 300" in page                          # the preset's values...
    assert "Higher total wins" in page                         # ...shown on every phone
    assert "70" in page and "120" in page                      # bid chips 70..120


def test_override_a_preset_value(ann):
    table_id = create_rook(ann, variant="family", target=500)
    assert "Game target: 500" in text_of(ann.page(table_id))


def test_five_players_are_refused(ann):
    data = {f"name_{i}": n for i, n in enumerate(NAMES + ["Eve"])}
    r = ann.post("/new/rook", {**data, "me": "0"})
    assert r.status_code == 422 and "4 or 6" in text_of(r.get_data(as_text=True))


def test_made_hand_with_other_team_filled_in(ann):
    table_id = create_rook(ann)
    r = hand(ann, table_id, bidder="Ann", bid=175, points_A=180)   # R1: B fills in as 70
    assert r.status_code == 200, text_of(r.get_data(as_text=True))
    page = r.get_data(as_text=True)
    assert 'data-team="A">180<' in page and 'data-team="B">70<' in page
    assert "RK-8" in page
    assert "dealer: <b>Bob</b>" in page                          # the deal moved on


def test_set_hand(ann):
    table_id = create_rook(ann)
    r = hand(ann, table_id, bidder="Ann", bid=200, points_A=195, points_B=55)   # R2
    page = r.get_data(as_text=True)
    assert 'data-team="A">-200<' in page and 'data-team="B">55<' in page


@pytest.mark.parametrize("fields, status, words", [
    ({"bidder": "Ann", "bid": 175, "points_A": 180, "points_B": 60}, 422, "RK-7"),   # R4
    ({"bidder": "Ann", "bid": 152, "points_A": 180}, 422, "RK-4"),                   # R5
    ({"bidder": "Ann", "bid": 255, "points_A": 180}, 422, "RK-4"),
    ({"bidder": "Zed", "bid": 175, "points_A": 180}, 422, "who won the bid"),
    ({"bidder": "Ann", "points_A": 180}, 422, "bid"),
    ({"bidder": "Ann", "bid": 175}, 422, "points"),
    ({"bidder": "Ann", "bid": "abc", "points_A": 180}, 422, "whole number"),
    ({"bidder": "Ann", "bid": 175, "bid_typed": 152, "points_A": 180}, 422, "RK-4"),  # typed
])
def test_bad_hands_are_refused_and_change_nothing(ann, db_path, fields, status, words):
    table_id = create_rook(ann)
    ann.page(table_id)            # the page was opened (its `opened_at`) before the hand
    before = snapshot(db_path)
    r = hand(ann, table_id, **fields)
    assert r.status_code == status
    assert words.lower() in text_of(r.get_data(as_text=True)).lower()
    assert snapshot(db_path) == before


def test_bad_discard_is_an_automatic_set(ann):
    table_id = create_rook(ann)
    r = hand(ann, table_id, bidder="Ann", bid=150, points_A=160, bad_discard="on")   # R8
    page = r.get_data(as_text=True)
    assert 'data-team="A">-150<' in page and 'data-team="B">90<' in page
    assert "bad discard" in page


def test_redeal_passes_the_deal(ann):
    table_id = create_rook(ann)
    r = hand(ann, table_id, kind="redeal")
    assert r.status_code == 200 and "dealer: <b>Bob</b>" in r.get_data(as_text=True)


def test_sheet_is_phone_first(ann):
    """Both totals big at the top ([data-total-for]), hands newest first, the
    usual rule tag once (not on every cell), a redeal that takes no hand number and names
    who deals next."""
    table_id = create_rook(ann)
    hand(ann, table_id, bidder="Ann", bid=150, points_A=180)          # Ann deals
    hand(ann, table_id, bidder="Bob", bid=160, points_A=150)          # Bob deals; set
    hand(ann, table_id, kind="redeal")                                # Cid deals, all pass
    page = hand(ann, table_id, bidder="Dee", bid=150, points_A=100).get_data(as_text=True)
    assert len(select(page, "[data-total-for]")) == 2
    assert attr(page, '[data-total-for="A"] [data-team="A"]', "data-team") == "A"
    assert text_of(page, '[data-total-for="A"] .num') == "430"         # 180 + 150 + 100
    assert text_of(page, '[data-total-for="B"] .num') == "60"          # 70 - 160 + 150
    numbers = [n.text.strip() for n in select(page, ".rook-hands tbody th")]
    assert numbers == ["3", "↻", "2", "1"]                             # newest first, no 3 twice
    words = text_of(page, ".rook-hands")
    assert "Everyone passed on Cid’s deal; Dee deals next." in words
    assert "Cid dealt again" not in words
    assert words.count("RK-8") == 1                                    # once, in the caption
    assert "dealer: <b>Ann</b>" in page                                 # deal 5: Ann again
    # Undo the last hand: its number goes with it, and the next hand takes it again.
    undo = inputs(form_block(page, 'class="undo"'))
    page = ann.undo(table_id, int(undo["target"]), sid=undo["sid"]).get_data(as_text=True)
    assert [n.text.strip() for n in select(page, ".rook-hands tbody th")] == ["↻", "2", "1"]
    page = hand(ann, table_id, bidder="Dee", bid=150, points_A=100).get_data(as_text=True)
    assert [n.text.strip() for n in select(page, ".rook-hands tbody th")] == ["3", "↻", "2", "1"]


def test_many_legal_bids_get_the_typed_box(ann):
    """A bid step of 1 would make 100 buttons: the typed bid box is offered, open."""
    table_id = create_rook(ann, bid_step=1)
    page = ann.page(table_id)
    assert not select(page, "#entry-form .bids .chip")
    assert attr(page, "details.rook-more", "open") is not None
    assert attr(page, 'input[name="bid_typed"]', "form") == "entry-form"
    r = hand(ann, table_id, bidder="Ann", bid_typed=151, points_A=180)
    assert r.status_code == 200 and 'data-team="A">180<' in r.get_data(as_text=True)


def test_bidder_goes_finish(ann):
    """R6 on a real table: A 590, B 440; Bob bids 160 and takes 165 (605), A takes 85 (675):
    both passed 600 and the bidders win (bidder goes, RK-9); no hand is taken after that."""
    table_id = create_rook(ann)
    for points_a in (70, 150, 150, 190, 250):          # Ann bids 150 each time
        assert hand(ann, table_id, bidder="Ann", bid=150, points_A=points_a).status_code == 200
    page = ann.page(table_id)
    assert 'data-team="A">590<' in page and 'data-team="B">440<' in page
    r = hand(ann, table_id, bidder="Bob", bid=160, points_A=85)
    page = r.get_data(as_text=True)
    assert 'data-team="A">675<' in page and 'data-team="B">605<' in page
    words = text_of(page)
    assert "Game over — winner: Bob & Dee" in words and "bidder goes" in words and "RK-9" in words
    assert 'id="rematch"' in page and 'id="entry-form"' not in page  # rematch replaces the form


def test_trick_checker_on_the_table(ann):
    table_id = create_rook(ann)
    r = ann.get(f"/t/{table_id}/trick?trump=R&c1=14G&c2=5R&c3=ROOK&c4=10G&check=1")
    assert r.status_code == 200 and "5 Red" in text_of(r.get_data(as_text=True))   # R13
    assert "ranks Lowest trump" in text_of(r.get_data(as_text=True))   # the rule's words, not "low"
    stranger = Phone(ann.app, "stranger")
    assert stranger.get(f"/t/{table_id}/trick").status_code == 403


def test_trick_checker_without_a_table(ann):
    r = ann.get("/rook/trick?variant=kentucky&trump=R&c1=14G&c2=5R&c3=ROOK&c4=10G&check=1")
    assert "Rook bird" in text_of(r.get_data(as_text=True))                          # R14
    # The variants by their names, never their keys (a key such as "ones_180" means nothing to a player).
    choices = text_of(r.get_data(as_text=True), "#variant")
    assert "1s high (180 a hand)" in choices and "Kentucky Discard" in choices
    assert "ones_180" not in choices and "kentucky" not in choices
    assert attr(r.get_data(as_text=True), '#variant option[selected]', "value") == "kentucky"
    assert ann.get("/rook/trick?variant=nope").status_code == 404
    assert ann.get("/rook/trick?trump=Q&c1=99X&check=1").status_code == 422


def test_opponents_confirm_each_hand(ann, new_phone, db_path):
    """House rule: a hand entered by one team counts once a phone of the other team confirms
    it; until then it shows as pending, and no other hand can be entered."""
    table_id = create_rook(ann, confirm="on")
    path = ann.join_path(table_id)
    bob, cid = new_phone("Bob"), new_phone("Cid")
    for phone, seat in ((bob, 1), (cid, 2)):
        phone.join(path)
        assert phone.claim(table_id, seat).status_code == 303
    r = hand(ann, table_id, bidder="Ann", bid=175, points_A=180)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="waiting"' in page
    assert 'data-team="A">0<' in page                      # pending: it doesn't count yet
    assert 'id="confirm-entry"' not in ann.page(table_id)  # not for the team that made it
    assert 'id="confirm-entry"' in bob.page(table_id)
    seq = int(re.search(r"entry #(\d+) by Ann", text_of(page)).group(1))

    # Nothing else can be entered meanwhile: the form is gone, and a post is refused.
    assert 'id="entry-form"' not in bob.page(table_id)
    r = hand(bob, table_id, bidder="Bob", bid=150, points_A=100)
    assert r.status_code == 409 and "waiting for Bob & Dee to confirm" in text_of(r.get_data(as_text=True))
    # A teammate can't confirm; the other team can.
    sid = inputs(form_block(bob.page(table_id), 'confirm'))["sid"]
    r = cid.post(f"/t/{table_id}/confirm", {"sid": "cid-try", "target": str(seq)}, hx=True)
    assert r.status_code == 403
    r = bob.post(f"/t/{table_id}/confirm", {"sid": sid, "target": str(seq)}, hx=True)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="waiting"' not in page
    assert 'data-team="A">180<' in page and 'data-team="B">70<' in page
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert f"Confirmed entry #{seq}" in history


def test_a_rejected_hand_never_counts(ann, new_phone):
    table_id = create_rook(ann, confirm="on")
    bob = new_phone("Bob")
    bob.join(ann.join_path(table_id))
    bob.claim(table_id, 1)
    hand(ann, table_id, bidder="Ann", bid=175, points_A=180)
    page = bob.page(table_id)
    reject = inputs(form_block(page, 'hx-post="/t/' + table_id + '/undo"'))
    r = bob.undo(table_id, int(reject["target"]), sid=reject["sid"])
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert 'id="waiting"' not in page and 'data-team="A">0<' in page
    assert hand(ann, table_id, bidder="Ann", bid=175, points_A=170).status_code == 200


def test_zocknroll_best_hand_tool(ann):
    """'What's my best hand?' works without a table (the dice checker on the start page)."""
    r = ann.get("/zocknroll/best?board=beginner&d3=3&d5=2&d6=1&d1=1&check=1")
    words = text_of(r.get_data(as_text=True))
    assert r.status_code == 200 and "Full House" in words and "ZNR-4" in words
    assert ann.get("/zocknroll/best?board=advanced&d1=1&d2=1&d3=1&d4=1&d5=1&d6=1&check=1") \
        .status_code == 200
    assert ann.get("/zocknroll/best?d1=1&check=1").status_code == 422     # too few dice
    assert ann.get("/zocknroll/best?d1=99&check=1").status_code == 422
    assert ann.get("/zocknroll/best?board=giant").status_code == 404


# ---------------------------------------------------------------------------------------
# Points on the grid of 5 (RK-7b), the trick tool knows the deck (RK-1b), and
# the table help page (bidding RK-4, discard RK-5, following RK-6).

def notice(page: str, selector: str) -> str:
    return text_of(page, selector)


@pytest.mark.parametrize("fields, words", [
    ({"points_A": 183}, "183 and 67 are not multiples of 5"),               # B fills in 67
    ({"points_A": 183, "points_B": 67}, "183 and 67 are not multiples of 5"),
    ({"points_A": 183, "points_B": 70}, "183 is not a multiple of 5"),
])
def test_rk7b_points_off_the_grid_are_refused_on_the_screen(ann, db_path, fields, words):
    """RK-7b: 183/67 adds up to 250 but is a miscount; the hand is refused with RK-7
    ("recount") and nothing is stored."""
    table_id = create_rook(ann)
    ann.page(table_id)
    before = snapshot(db_path)
    r = hand(ann, table_id, bidder="Ann", bid=150, **fields)
    words_shown = text_of(r.get_data(as_text=True))
    assert r.status_code == 422
    assert words in words_shown and "recount" in words_shown and "RK-7" in words_shown
    assert snapshot(db_path) == before
    assert hand(ann, table_id, bidder="Ann", bid=150, points_A=185).status_code == 200


def test_the_sheet_links_to_each_part_of_the_table_help(ann):
    table_id = create_rook(ann)
    page = ann.page(table_id)
    links = {a.attrs["id"]: a.attrs["href"] for a in select(page, "#table-help a")}
    assert links == {f"help-{part}": f"/t/{table_id}/trick?open={part}#{part}"
                     for part in ("bidding", "discard", "trick", "follow")}
    r = ann.get(f"/t/{table_id}/trick?open=discard")
    assert r.status_code == 200
    assert [d.attrs["id"] for d in select(r.get_data(as_text=True), "details[open]")] \
        == ["discard"]


@pytest.mark.parametrize("names, query, ok, words", [
    (NAMES, "c1=4R&c2=5R", False, "There is no 4 Red with 4 players"),
    (NAMES + ["Eve", "Fay"], "c1=4R&c2=5R", True,
     "5 Red wins: the card of the player 1 seat to the leader's left."),
    (NAMES + ["Eve", "Fay"], "c1=4R&c2=4R", False, "only one 4 Red"),
    (NAMES, "c1=5G&c2=6G&c3=7G&c4=8G&c5=9G", False, "at most 4"),
])
def test_rk1b_the_tables_trick_tool_knows_its_players(ann, names, query, ok, words):
    """RK-1b on a table: the trick tool takes the number of players from the table (the
    page's players box, if any, is not asked)."""
    table_id = create_rook(ann, names=names)
    r = ann.get(f"/t/{table_id}/trick?trump=R&{query}&players=6&check=trick")
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    assert f"{len(names)} players at this table" in text_of(page)
    assert not select(page, 'input[name="players"]')
    assert words in notice(page, "#trick-verdict")
    assert ("RK-1b" in notice(page, "#trick-verdict")) is (not ok and "at most" not in words)
    four = bool(select(page, '#c1 option[value="4R"]'))
    assert four is (len(names) == 6)


@pytest.mark.parametrize("query, status, words", [
    ("variant=family&players=4&trump=R&c1=4R&check=trick", 200, "no 4 Red with 4 players"),
    ("variant=family&players=6&trump=R&c1=4R&c2=5G&check=trick", 200, "4 Red"),
    ("variant=kentucky&players=6&trump=R&c1=14G&c2=14G&check=trick", 200, "only one 14 Green"),
    ("variant=family&trump=R&c1=4R&check=trick", 200, "no 4 Red with 4 players"),  # 4 by default
    ("variant=family&players=5&trump=R&c1=5R&check=trick", 422, "4 or 6 players"),
])
def test_rk1b_the_standalone_trick_tool_asks_variant_and_players(ann, query, status, words):
    r = ann.get(f"/rook/trick?{query}")
    page = r.get_data(as_text=True)
    assert r.status_code == status and words in text_of(page)
    assert select(page, 'input[name="players"][value="4"]')                 # the page asks


def test_rk4_bidding_helper_on_the_help_page(ann):
    """Tap 150, Pass, 160; a typed 155 is refused (RK-4), the auction kept; New auction."""
    def call(calls, **args):
        query = "&".join(f"{k}={v}" for k, v in {"calls": calls, **args}.items())
        r = ann.get(f"/rook/trick?{query}")
        assert r.status_code == 200, text_of(r.get_data(as_text=True))[:300]
        page = r.get_data(as_text=True)
        return page, attr(page, 'input[name="calls"]', "value")

    page = ann.get("/rook/trick?open=bidding").get_data(as_text=True)
    assert "No bid yet: the opening bid is 150 or more" in text_of(page, "#bidding")
    assert [b.attrs["value"] for b in select(page, "#bidding .bid-call")][:3] \
        == ["150", "155", "160"]
    page, calls = call("", call="150")
    assert calls == "150" and text_of(page, "#high-bid") == "150"
    page, calls = call(calls, call="pass")
    assert calls == "150 pass"
    page, calls = call(calls, call="160")
    assert "The high bid is 160: the next bid must be 165 or more" in notice(page, "#bid-verdict")
    assert "RK-4" in notice(page, "#bid-verdict")
    assert select(page, "#bidding[open]") and not select(page, "#trick[open]")
    page, calls = call(calls, call="typed", bid="155")
    assert calls == "150 pass 160"                                   # the refused call is not kept
    assert "155 is not a raise" in notice(page, "#bid-verdict")
    assert "error" in attr(page, "#bid-verdict", "class")
    page, calls = call(calls, check="auto", bid="170")               # Enter in the bid box
    assert calls == "150 pass 160 170"
    page, calls = call(calls, call="new")
    assert calls == "" and "No bid yet" in notice(page, "#bid-verdict")
    r = ann.get("/rook/trick?call=typed&bid=abc")
    assert r.status_code == 422 and "whole number" in text_of(r.get_data(as_text=True))
    r = ann.get("/rook/trick?calls=pass+pass+pass&call=pass&players=4")
    assert "Everyone passed: the next dealer deals again." in notice(r.get_data(as_text=True),
                                                                     "#bid-verdict")


@pytest.mark.parametrize("query, status, selector, words", [
    ("d_cards=6&d_trump=0", 200, "#discard-verdict", "The discard is legal: 6 cards."),
    ("d_cards=5&d_trump=0", 200, "#discard-verdict", "exactly 6 cards, not 5"),
    ("d_cards=6&d_trump=1&d_held=12", 200, "#discard-verdict", "Automatic set"),
    ("d_cards=6&d_trump=1&d_held=20", 200, "#discard-verdict", "1 trump had to go"),
    ("d_cards=6&d_trump=1", 422, "#discard-error", "how many trump the bidder held"),
    ("d_cards=x", 422, "#discard-error", "whole numbers"),
])
def test_rk5_discard_check_on_the_help_page(ann, query, status, selector, words):
    table_id = create_rook(ann)
    r = ann.get(f"/t/{table_id}/trick?check=discard&{query}")
    page = r.get_data(as_text=True)
    assert r.status_code == status and words in notice(page, selector)
    assert "exactly 6 cards" in text_of(page, "#discard .hint")
    assert "more trump than the 19 cards kept" in text_of(page, "#discard .hint")


@pytest.mark.parametrize("variant, query, status, selector, words", [
    ("family", "f_led=14G&f_played=5B&f_held1=9G", 200, "#follow-verdict",
     "Renege: Green was led and they held the 9 Green"),
    ("family", "f_led=14R&f_played=5G&f_held1=ROOK", 200, "#follow-verdict",
     "they had to play it"),
    ("family", "f_led=14G&f_played=5B&f_held1=9B", 200, "#follow-verdict", "Legal"),
    ("kentucky", "f_led=14G&f_played=ROOK&f_held1=9G", 200, "#follow-verdict", "at any time"),
    ("family", "f_led=14G", 422, "#follow-error", "the card they played"),
    ("kentucky", "f_led=14G&f_played=5B&f_held1=5B", 422, "#follow-error", "only one 5 Black"),
])
def test_rk6_did_they_have_to_follow_on_the_help_page(ann, variant, query, status, selector,
                                                      words):
    r = ann.get(f"/rook/trick?variant={variant}&trump=R&check=follow&{query}")
    page = r.get_data(as_text=True)
    assert r.status_code == status and words in notice(page, selector)
    if status == 200:
        assert "RK-6" in notice(page, selector)
    assert select(page, "#follow[open]")


def test_a_rook_table_in_japanese(ann):
    """On a Japanese phone every Rook sentence is Japanese, from the new-table
    form to the sheet, the history and the table help; names, numbers and rule IDs stay."""
    ann.client.set_cookie("lang", "ja")
    form = text_of(ann.get("/new/rook").get_data(as_text=True))
    assert "各バリアントの設定" in form and "ゲームの目標点" in form           # presets, labels
    assert "What each variant sets" not in form and "Game target" not in form
    table_id = create_rook(ann)
    # A made hand: the sheet and its words.
    r = hand(ann, table_id, bidder="Ann", bid=175, points_A=180)
    assert r.status_code == 200
    page = text_of(r.get_data(as_text=True))
    assert "ハンド（新しい順）" in page and "成功" in page
    assert "先に600点に達したチームの勝ちです" in page and "RK-9" in page     # the end rule
    assert "The first team to reach" not in page and "Hands, newest first" not in page
    # A refused hand: the rules' sentence in Japanese, its values and rule ID kept.
    r = hand(ann, table_id, bidder="Ann", bid=152, points_A=180)
    assert r.status_code == 422
    page = text_of(r.get_data(as_text=True))
    assert "152はビッドにできません。ビッドは150から250まで5刻みです。" in page
    assert "RK-4" in page and "is not a bid" not in page
    r = hand(ann, table_id, bidder="Ann", bid=150, points_A=183)              # RK-7b
    page = text_of(r.get_data(as_text=True))
    assert "183と67は5の倍数ではありません。" in page and "RK-7" in page
    assert "not multiples" not in page
    # The table: house rules, trump colours.
    page = text_of(ann.page(table_id))
    assert "ゲームの目標点: 600" in page and "1ハンドの点数: 250" in page
    assert "黒" in page and "Black" not in page and "Game target" not in page
    # The history line of the hand (context "entry").
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "ハンド：Annが175をビッド、点数 Ann&Cid 180、Bob&Dee 70" in history
    assert "Hand: Ann bid" not in history
    # The table help: who won the trick, card labels and colours translated.
    r = ann.get(f"/t/{table_id}/trick?trump=R&c1=14G&c2=5R&c3=ROOK&c4=10G&check=trick")
    page = text_of(r.get_data(as_text=True))
    assert "赤の5の勝ちです。出た中で最強の切り札です（赤が切り札。鳥のカードは最弱の切り札）。" \
        in page and "RK-6" in page
    assert "鳥のカードの強さは 最弱の切り札 です。" in page                  # <b>the rank</b>
    assert "wins: it is the highest" not in page and "Rook bird" not in page
    assert "5 Red" not in page and "Lowest trump" not in page
    r = ann.get(f"/t/{table_id}/trick?check=discard&d_cards=5&d_trump=0")
    page = text_of(r.get_data(as_text=True))
    assert "自動失敗：ビッダーはちょうど6枚捨てなければならず、5枚ではありません。" in page
    assert "Automatic set" not in page


# ---------------------------------------------------------------- its Japanese tour
# Every screen of the game in Japanese, after these taps (tests/web/test_web_japanese.py).

JAPANESE = Tour(
    "rook", ["Ann", "Bob", "Cid", "Dee"], table={"variant": "family", "confirm": "on"},
    steps=[
        Step({"bidder": "Ann", "bid": 152, "points_A": 180}, 422),          # RK-4
        Step({"bidder": "Ann", "bid": 175, "points_A": 180}),   # waits for team B
        Step({}, form="/confirm", by="guest"),                  # Bob confirms it
        Step({"bidder": "Bob", "bid": 160, "points_B": 165}),        # waits again
    ],
    tools=["/rook/trick?variant=family&c1=14R&c2=5Y&c3=ROOK&trump=Y&check=1",
           "/rook/trick?variant=family&c1=99X&c2=5Y&check=1"],
    table_tools=["/trick?c1=14R&c2=5Y&c3=ROOK&c4=1B&check=1"])
