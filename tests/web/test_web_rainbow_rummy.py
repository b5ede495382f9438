"""Rainbow Rummy 333 through the Flask test client: the new table, the cut for
deal, end-of-hand entries as cards or quick points, refusals (422, nothing changed), the
sheet's explanations and the play checker page."""
from __future__ import annotations

import pytest

from helpers import alerts, attr, attrs, form_block, inputs, links, select, text_of
from japanese_tour import Step, Tour
from web_helpers import Phone, create_game_table, snapshot

NAMES = ["Ann", "Bob", "Cid", "Dee"]      # team A: Ann & Cid, team B: Bob & Dee
SEAT = {name: str(i) for i, name in enumerate(NAMES)}

# RULES.md RR11 (North, East, South, West = Ann, Bob, Cid, Dee): South (Cid) goes out.
RR11 = dict(kind="hand", went_out=SEAT["Cid"],
            hand_0="7E SJ", down_0="3M", hand_1="GN 1S", down_1="5E 6J",
            down_2="MV", hand_3="2N", down_3="SE")


def create(phone: Phone, names=NAMES, **fields) -> str:
    table_id = create_game_table(phone, "rainbow_rummy", names, **fields)
    phone.page(table_id)        # the host's phone opens the table (its opened_at is set)
    return table_id


def act(phone: Phone, table_id: str, **fields):
    """Press a button of the entry form as it stands now (its sid and version)."""
    form = inputs(form_block(phone.page(table_id), 'id="entry-form"'))
    data = {"sid": form["sid"], "version": form["version"]}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


def points(went_out: str | None, **players) -> dict:
    """A hand in quick points: each player is (hand points or None, down points)."""
    fields = {"kind": "hand", "went_out": SEAT[went_out] if went_out else "blocked"}
    for name, (hand, down) in players.items():
        if hand is not None:
            fields[f"hand_pts_{SEAT[name]}"] = hand
        fields[f"down_pts_{SEAT[name]}"] = down
    return fields


def team_totals(page: str) -> dict[str, int]:
    return {node.get("data-team-total"): int(node.text)
            for node in select(page, "[data-team-total]")}


def saved(response) -> str:
    body = text_of(response.get_data(as_text=True))
    assert response.status_code == 200, body[:600]
    return body


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


# ---------------------------------------------------------------- the new table

def test_new_table_offers_every_house_rule_and_seats_partners_opposite(ann):
    form = text_of(ann.get("/new/rainbow_rummy").get_data(as_text=True))
    for rule in ("RR-11", "RR-A1", "RR-A2", "RR-A3", "RR-A4", "RR-A5", "RR-A9"):
        assert rule in form
    table_id = create(ann)
    page = text_of(ann.page(table_id))
    assert "Ann & Cid" in page and "Bob & Dee" in page
    assert "Hand 1: Ann deals, Dee cuts, Bob plays first" in page
    assert "Who deals first? Cut for deal" in page
    assert "Game target: 100" in page


def test_exactly_four_players(ann):
    form = ann.get("/new/rainbow_rummy").get_data(as_text=True)
    assert 'name="name_3"' in form and 'name="name_4"' not in form
    data = {f"name_{i}": n for i, n in enumerate(NAMES[:3])}
    r = ann.post("/new/rainbow_rummy", {**data, "me": "0"})
    assert r.status_code == 422 and "4" in text_of(r.get_data(as_text=True))


# ---------------------------------------------------------------- the cut for deal (RR-2)

def test_the_cut_names_the_dealer_and_the_deal_rotates(ann):
    table_id = create(ann)
    # RR13: 3 E, Galaxy J, 7 E, Moon S: E is the highest suit, and 7 E beats 3 E.
    body = saved(act(ann, table_id, kind="cut", cut_0="3e", cut_1="GJ", cut_2="7E", cut_3="MS"))
    assert "Cid deals: E is the highest suit cut, and the 7 of E outranks the 3 of E." in body
    assert "Hand 1: Cid deals, Bob cuts, Dee plays first" in body
    assert "Who deals first?" not in body
    again = act(ann, table_id, kind="cut", cut_0="1E", cut_1="2E", cut_2="3E", cut_3="4E")
    assert again.status_code == 422
    assert "already recorded: Cid deals" in text_of(again.get_data(as_text=True))
    body = saved(act(ann, table_id, **RR11))
    assert "Hand 2: Dee deals, Cid cuts, Ann plays first" in body
    assert "Cid dealt" in body
    late = act(ann, table_id, kind="dealer", dealer="1")
    assert late.status_code == 422 and "RR-2" in text_of(late.get_data(as_text=True))


def test_the_first_dealer_can_be_tapped_without_a_cut(ann):
    table_id = create(ann)
    body = saved(act(ann, table_id, kind="dealer", dealer=SEAT["Dee"]))
    assert "The table chose Dee to deal the first hand." in body
    assert "Hand 1: Dee deals, Cid cuts, Ann plays first" in body


@pytest.mark.parametrize("fields, words", [
    (dict(cut_0="3E", cut_1="GJ", cut_2="7E"), "Dee has no card"),
    (dict(cut_0="3E", cut_1="GJ", cut_2="7E", cut_3="1E 2E"), "Dee has 2 cards"),
    (dict(cut_0="3E", cut_1="GJ", cut_2="3E", cut_3="MS"), "cut twice"),
    (dict(cut_0="3E", cut_1="GJ", cut_2="8E", cut_3="MS"), "Cid's cut card: '8E' is not a card"),
    (dict(kind="dealer"), "Tap who deals"),
    (dict(kind="dealer", dealer="7"), "Tap who deals"),
])
def test_bad_cuts_are_refused_and_change_nothing(ann, db_path, fields, words):
    table_id = create(ann)
    before = snapshot(db_path)
    r = act(ann, table_id, **{"kind": "cut", **fields})
    assert r.status_code == 422
    assert words in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before


def test_cut_cards_typed_but_not_saved_are_not_dropped(ann, db_path):
    table_id = create(ann)
    before = snapshot(db_path)
    r = act(ann, table_id, **RR11, cut_0="3E")
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert "did not save the cut" in text_of(page)
    assert 'id="rr-cut" open' in page and 'value="3E"' in page
    assert snapshot(db_path) == before


# ---------------------------------------------------------------- hands (RR-11)

def test_rr11_as_cards_is_a_tie_by_default(ann):
    table_id = create(ann)
    body = saved(act(ann, table_id, **RR11))
    assert "17×2 = 34" in body and "11×2 = 22" in body and "2×2 = 4" in body
    assert "Ann & Cid: 37 + 10 RR-11 47" in body and "Bob & Dee: 33 + 14 RR-11 47" in body
    assert "Both teams have 47: a tie, so nobody scores. RR-A7" in body
    page = ann.page(table_id)
    assert team_totals(page) == {"A": 0, "B": 0}
    # The cards are shown on the sheet in the deck's colours.
    assert 'class="ucd-card ucd-J" role="img" aria-label="Sun of J"' in page


def test_rr11_with_the_out_player_scoring_zero(ann):
    table_id = create(ann, out_counts_down="off")
    body = saved(act(ann, table_id, **RR11))
    assert "Ann & Cid: 37 + 0 RR-11 37" in body
    assert "Ann & Cid have fewer points and score the difference: 47 − 37 = +10 RR-11" in body
    assert "Running totals: Ann & Cid 10 · Bob & Dee 0 RR-11" in body
    page = ann.page(table_id)
    assert team_totals(page) == {"A": 10, "B": 0}
    assert any([n.text for n in td.select("s")] == ["10"]
               and [n.text for n in td.select("b")] == ["0"]
               and any(n.text.startswith("RR-A1") for n in td.select("span.rule")[:1])
               for td in select(page, "td.rr-down"))


def test_quick_points_cards_and_both_agreeing(ann):
    table_id = create(ann)
    # Ann's hand as cards and as the points they add up to: accepted, counted once.
    fields = points("Bob", Ann=(17, 3), Bob=(None, 5), Cid=(8, 4), Dee=(3, 0))
    fields["hand_0"] = "7E SJ"
    body = saved(act(ann, table_id, **fields))
    # A: 34 + 3 + 16 + 4 = 57; B: 0 + 5 + 6 + 0 = 11: Bob & Dee score 46.
    assert "Bob & Dee have fewer points and score the difference: 57 − 11 = +46" in body
    assert team_totals(ann.page(table_id)) == {"A": 0, "B": 46}
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "Hand: Bob went out; Ann hand 17 (7E SJ), down 3; Bob hand out, down 5" in history


def test_a_blocked_hand_scores_everyone(ann):
    table_id = create(ann)
    body = saved(act(ann, table_id, **points(None, Ann=(5, 0), Bob=(6, 0), Cid=(5, 0),
                                              Dee=(1, 0))))
    assert "blocked: nobody could go out RR-A6" in body
    assert "Bob & Dee have fewer points and score the difference: 20 − 14 = +6" in body


def test_rr12_the_first_team_to_reach_100_wins(ann):
    table_id = create(ann)
    # A: 0 + 2 = 2; B: 87 + 10 = 97: Ann & Cid score 95.
    saved(act(ann, table_id, **points("Ann", Ann=(None, 0), Bob=(40, 7), Cid=(1, 0), Dee=(5, 0))))
    assert team_totals(ann.page(table_id)) == {"A": 95, "B": 0}
    body = saved(act(ann, table_id, **points("Cid", Ann=(1, 0), Bob=(6, 0), Cid=(None, 0),
                                              Dee=(1, 0))))
    # A: 2; B: 12 + 2 = 14: Ann & Cid score 12 and reach 107.
    assert "Game over" in body and "Ann & Cid reached 107 (target 100). RR-11" in body
    page = ann.page(table_id)
    assert team_totals(page) == {"A": 107, "B": 0}
    assert 'id="rematch"' in page


REFUSALS = [
    (dict(RR11, went_out=""), "Tap who went out, or Blocked", None),
    (dict(RR11, went_out="9"), "Tap who went out, or Blocked", None),
    (dict(RR11, hand_1=""), "Enter Bob's cards in hand: their points (0 if none)", None),
    (dict(RR11, hand_3=""), "Enter Dee's cards in hand", None),
    (dict(RR11, hand_0="7E 9J"), "Ann's cards in hand: '9J' is not a card", None),
    (dict(RR11, hand_3="2N 7E"), "The 7 of E is entered for Ann and Dee", "RR-A8"),
    (dict(RR11, hand_0="", hand_pts_0="71"), "must be a whole number from 0 to 70", None),
    (dict(RR11, down_0="", down_pts_0="41"), "from 0 to 40", None),
    (dict(RR11, down_0="", down_pts_0="-3"), "from 0 to 40", None),
    (dict(RR11, down_0="", down_pts_0="x"), "from 0 to 40", None),
    (dict(RR11, hand_pts_0="12"), "add up to 17, but the points box says 12", None),
    (dict(RR11, hand_1="", hand_pts_1="0"), "Bob has no cards left in hand, but Cid went out",
     "RR-A2"),
    (dict(RR11, hand_pts_2="5"), "Cid went out, so Cid has no cards left in hand", "RR-10"),
    (dict(RR11, hand_0="1E 2E 3E 4E 5E 6E 7E 1J"), "Ann has 8 cards in hand", "RR-3"),
    (dict(RR11, down_0="1N 2N 3N 4N 5N"), "a board has only 4", "RR-3"),
    (dict(RR11, kind="fly"), "Tap one of the buttons", None),
]


@pytest.mark.parametrize("fields, words, rule", REFUSALS)
def test_refusals_are_plain_422s_that_change_nothing(ann, db_path, fields, words, rule):
    table_id = create(ann)
    before = snapshot(db_path)
    r = act(ann, table_id, **fields)
    body = text_of(r.get_data(as_text=True))
    assert r.status_code == 422, body[:500]
    assert words in body
    if rule:
        assert rule in body
    assert snapshot(db_path) == before


def test_a_refused_hand_comes_back_as_typed(ann):
    table_id = create(ann)
    r = act(ann, table_id, **dict(RR11, hand_1="", down_pts_3="7", down_3="", hand_3="",
                                   hand_pts_3="2"))
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert select(page, 'input[name="went_out"][value="2"][checked]')
    assert 'value="7E SJ"' in page and 'value="5E 6J"' in page
    assert "7" in attrs(page, 'input#down_pts_3[name="down_pts_3"]', "value")
    assert page.count('class="rr-pick" open') == 3      # Ann, Bob and Cid had cards tapped


def test_an_empty_face_down_box_is_no_score_type_0_as_its_hint_says(ann, db_path):
    table_id = create(ann)
    page = ann.page(table_id)
    assert "(0 if none)" in text_of(page)
    # Ann goes out; nobody's face-down box is filled in: an empty box is never 0 points,
    # so nothing is saved and every empty box is named and marked.
    before = snapshot(db_path)
    r = act(ann, table_id, kind="hand", went_out="0", hand_pts_1="10", hand_pts_2="3",
            hand_pts_3="4")
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert ("no points typed for Ann's face-down cards, Bob's face-down cards, Cid's "
            "face-down cards and Dee's face-down cards") in text_of(body)
    assert attrs(body, '[aria-invalid="true"]', "id") == [f"down_pts_{i}" for i in range(4)]
    assert inputs(form_block(body, 'id="entry-form"'))["hand_pts_1"] == "10"   # kept
    assert snapshot(db_path) == before
    # Each typed 0 (RR-11).
    saved(act(ann, table_id, kind="hand", went_out="0", hand_pts_1="10", hand_pts_2="3",
              hand_pts_3="4", down_pts_0="0", down_pts_1="0", down_pts_2="0", down_pts_3="0"))
    page = ann.page(table_id)
    # A: 0 + 6 = 6; B: 20 + 8 = 28: Ann & Cid score 22.
    assert team_totals(page) == {"A": 22, "B": 0}
    assert [text_of(td).split()[0] for td in select(page, "#hand-1 td.rr-down")] == ["0"] * 4
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "Bob hand 10, down 0" in history


def test_a_refusal_marks_the_box_it_is_about(ann):
    table_id = create(ann)
    r = act(ann, table_id, kind="hand", went_out="0", hand_pts_1="10", hand_pts_2="3",
            down_pts_0="0", down_pts_1="0", down_pts_2="0", down_pts_3="0")
    assert r.status_code == 422 and "Enter Dee's cards in hand" in text_of(r.get_data(as_text=True))
    assert attrs(r.get_data(as_text=True), '[aria-invalid="true"]', "id") == ["hand_pts_3"]
    r = act(ann, table_id, kind="hand", went_out="0", hand_pts_1="10", hand_pts_2="3",
            hand_pts_3="4", down_pts_2="41")
    assert attrs(r.get_data(as_text=True), '[aria-invalid="true"]', "id") == ["down_pts_2"]
    r = act(ann, table_id, kind="hand", went_out="0", hand_pts_1="10", hand_pts_2="3",
            hand_pts_3="4", down_1="9J")
    body = r.get_data(as_text=True)
    assert attrs(body, '[aria-invalid="true"]', "id") == ["rr-down-1"]
    assert select(body, 'details.rr-pick[open] #rr-down-1')
    r = act(ann, table_id, kind="hand", hand_pts_1="10")
    assert attrs(r.get_data(as_text=True), '[aria-invalid="true"]', "name") == ["went_out"]


def test_the_new_table_hint_seats_four_players_in_two_teams(ann):
    text = text_of(ann.get("/new/rainbow_rummy").get_data(as_text=True))
    assert "players 1 and 3 are one team, players 2 and 4 the other" in text
    assert "1, 3, 5" not in text


def test_spectators_cannot_enter_hands(ann, new_phone, db_path):
    table_id = create(ann)
    watcher = new_phone("watcher")
    assert watcher.join(ann.join_path(table_id)).status_code == 303
    page = watcher.page(table_id)
    assert 'id="entry-form"' not in page and "pick a seat" in text_of(page)
    form = inputs(form_block(ann.page(table_id), 'id="entry-form"'))
    before = snapshot(db_path)
    r = watcher.post(f"/t/{table_id}/actions", {"sid": "w-1", "version": form["version"],
                                                **{k: str(v) for k, v in RR11.items()}}, hx=True)
    assert r.status_code == 403
    assert snapshot(db_path) == before


# ---------------------------------------------------------------- the play checker

CHECKER = "/rainbow-rummy/check"

# RULES.md §3.5 examples RR1-RR10 as the page takes them: (query, Yes/No, rule).
CHECKER_EXAMPLES = [
    ("q=build&card=5J&onto=6S", "Yes", "RR-4"),                                 # RR1
    ("q=build&card=5J&onto=6J", "No", "RR-4"),                                  # RR2
    ("q=build&card=SN&onto=GN", "No", "RR-6"),                                  # RR3
    ("q=build&card=SV&onto=GN", "Yes", "RR-4"),
    ("q=build&card=7E&onto=MM", "Yes", "RR-4"),
    ("q=bar&card=1V&nopile=on", "Yes", "RR-8"),                                 # RR4
    ("q=bar&card=2V&top=1V", "Yes", "RR-8"),
    ("q=bar&card=2E&top=1V", "No", "RR-8"),
    ("q=build&card=GS&empty=on", "Yes", "RR-6"),                                # RR5
    ("q=build&card=SS&empty=on", "No", "RR-6"),
    ("q=move&column=7M+6N+5E&down=on&onto=MS&pickup=5E", "No", "RR-5"),         # RR6
    ("q=move&column=7M+6N+5E&down=on&onto=MS", "Yes", "RR-5"),
    ("q=turn&first=bar&first_turn=on", "No", "RR-9"),                           # RR7
    ("q=turn&first=bar&second=bar", "No", "RR-9"),                              # RR8
    ("q=turn&first=opponents&second=opponents", "No", "RR-9"),
    ("q=out&last=opponents", "No", "RR-10"),                                    # RR9
    ("q=slip&card=7M&top=6M", "No", "RR-7"),                                    # RR10
    ("q=slip&card=7N&top=6M&down=on", "No", "RR-7"),
    ("q=slip&card=7N&top=6M", "Yes", "RR-7"),
    ("q=out&last=team&earlier=opponents", "Yes", "RR-10"),
    ("q=turn&first=team&second=opponents&first_turn=on&in_hand=7", "Yes", "RR-9"),
    # House rules change the verdicts.
    ("q=build&card=GS&empty=on&empty_space=move", "No", "RR-A5"),
    ("q=move&column=GS+SN&onto=&empty=on&empty_space=hand", "No", "RR-A5"),
    ("q=move&column=6N&onto=7E&stage=before", "No", "RR-A4"),
    ("q=move&column=6N&onto=7E&stage=before&building=before_too", "Yes", "RR-5"),
    ("q=out&last=team&earlier=team", "No", "RR-A3"),
    ("q=out&last=team&earlier=team&going_out_exempt=on", "Yes", "RR-A3"),
    ("q=turn&first=opponents&second=team", "No", "RR-A9"),
    ("q=turn&first=opponents&second=team&second_card_team=on", "Yes", "RR-A9"),
    ("q=move&column=6N&onto=7E&board=other", "No", "RR-5"),
]


@pytest.mark.parametrize("query, answer, rule", CHECKER_EXAMPLES)
def test_checker_settles_the_worked_examples(ann, query, answer, rule):
    r = ann.get(f"{CHECKER}?{query}&check=1")
    body = r.get_data(as_text=True)
    assert r.status_code == 200, text_of(body)[:500]
    verdict = select(body, "#rr-verdict")
    assert verdict, text_of(body)[:500]
    text = verdict[0].text
    assert text.startswith(f"{answer}.") and text.endswith(rule), text


@pytest.mark.parametrize("query, words", [
    ("q=build&check=1", "Pick the card you want to play."),
    ("q=build&card=9E&onto=6S&check=1", "'9E' is not a card"),
    ("q=build&card=5J+6J&onto=6S&check=1", "pick one card, not 2"),
    ("q=build&card=5J&check=1", "or tick Empty space"),
    ("q=build&card=5J&onto=6S&empty=on&check=1", "clear one of them"),
    ("q=move&column=7M+5E&onto=MS&check=1", "That column moved cannot occur"),
    ("q=move&column=7M+6N&onto=MS&pickup=1E&check=1", "is not a face-up card of that column"),
    ("q=move&column=7M&onto=MS&board=sideways&check=1", "Tap whose board"),
    ("q=move&column=7M&onto=MS&stage=never&check=1", "Tap when in the turn"),
    ("q=bar&card=2E&check=1", "Pick the top card of the E pile, or tick No pile yet."),
    ("q=turn&check=1", "Tap where the first card went"),
    ("q=turn&first=none&second=bar&check=1", "A second card needs a first one"),
    ("q=turn&first=team&second=moon&check=1", "Tap where the card went"),
    ("q=turn&first=team&in_hand=9&check=1", "from 1 to 7"),
    ("q=turn&first=team&in_hand=" + "9" * 5000 + "&check=1", "from 1 to 7"),
    ("q=turn&first=bar&first_turn=on&in_hand=3&check=1", "all 7 cards"),
    ("q=out&check=1", "Tap where the last card went."),
    ("q=build&card=5J&onto=6S&building=sometimes&check=1", "Moving columns must be one of"),
    ("q=build&card=5J&onto=6S&going_out_exempt=perhaps&check=1", "must be yes or no"),
])
def test_checker_bad_input_is_a_plain_422(ann, query, words):
    r = ann.get(f"{CHECKER}?{query}")
    body = r.get_data(as_text=True)
    assert r.status_code == 422
    said = alerts(body)
    assert said and words in said[0], text_of(body)[:600]


def test_checker_pages_and_unknown_checks(ann):
    for q in ("build", "slip", "move", "bar", "turn", "out"):
        r = ann.get(f"{CHECKER}?q={q}")
        assert r.status_code == 200 and 'id="rr-check-form"' in r.get_data(as_text=True)
    assert ann.get(f"{CHECKER}?q=teleport").status_code == 404
    start = ann.get("/").get_data(as_text=True)
    assert f'href="{CHECKER}"' in start


def test_the_table_links_the_checker_with_its_house_rules(ann):
    table_id = create(ann, empty_space="move", going_out_exempt="on")
    page = ann.page(table_id)
    link = attr(page, "#rr-checker", "href")
    assert f"t={table_id}" in link and "empty_space=move" in link
    assert "going_out_exempt=on" in link
    r = ann.get(link + "&card=GS&empty=on&check=1")
    body = r.get_data(as_text=True)
    assert r.status_code == 200
    assert f'href="/t/{table_id}">‹ Table' in body
    assert "By your house rules an empty space is filled only by moving" in text_of(body)
    # The tabs keep the table's house rules.
    tab = next(href for href in links(body, "[href]") if "q=out" in href)
    assert "going_out_exempt=on" in tab and f"t={table_id}" in tab
    # A made-up table id is not linked back.
    assert "‹ Table" not in ann.get(f"{CHECKER}?t=../../x").get_data(as_text=True)


# ---------------------------------------------------------------- Japanese

def test_a_japanese_phone_reads_the_whole_game_in_japanese(ann):
    """On a Japanese phone the sheet, the entry form, a refusal, the history and the checker
    are Japanese after real entries; names, card notation and rule IDs stay as they are."""
    ann.client.set_cookie("lang", "ja")
    form = text_of(ann.get("/new/rainbow_rummy").get_data(as_text=True))
    assert "目標点" in form and "上がったプレイヤーも裏向きのカードを数える" in form
    assert "Game target" not in form and "Moving columns" not in form
    table_id = create(ann)
    saved(act(ann, table_id, kind="cut", cut_0="1E", cut_1="5J", cut_2="GJ", cut_3="3E"))
    saved(act(ann, table_id, **RR11))
    # A refusal from the rules (RR-A2) and one from the entry form, in Japanese.
    r = act(ann, table_id, **dict(RR11, hand_1="", hand_pts_1="0"))
    body = text_of(r.get_data(as_text=True))
    assert r.status_code == 422, body[:500]
    assert "Bobの手札はもうありませんが、上がったのはCidです。" in body and "RR-A2" in body
    assert "has no cards left in hand" not in body
    r = act(ann, table_id, **dict(RR11, hand_0="", hand_pts_0="71"))
    body = text_of(r.get_data(as_text=True))
    assert r.status_code == 422
    assert "Annの手札の点数は0〜70の整数でなければなりません。" in body
    assert "must be a whole number" not in body

    page = text_of(ann.page(table_id))
    for japanese in ("Deeが配ります。カットされた中で一番強いスートはEで、Eの3はEの1よりランクが上です。",
                     "先に100点以上に達したチームの勝ちです。", "誰が上がった？", "ハンド2の終了",
                     "同点なので、どちらも得点しません。", "Cidが上がった", "累計："):
        assert japanese in page, japanese
    for english in ("Dee deals: E is the highest suit cut", "The first team to reach",
                    "Who went out?", "End of hand", "a tie, so nobody scores", "went out",
                    "Running totals", "Hand 2: Ann deals"):
        assert english not in page, english
    assert "Ann & Cid" in page and "RR-11" in page       # names and rule IDs as they are

    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "ディーラー決めのカット：Ann 1E, Bob 5J, Cid GJ, Dee 3E" in history
    assert "ハンド：Cidが上がり" in history and "Cid：手札なし（上がり）" in history
    assert "Cut for deal" not in history and "Hand: Cid went out" not in history

    r = ann.get(f"{CHECKER}?q=build&card=5J&onto=6M&check=1")
    checker = text_of(r.get_data(as_text=True))
    assert r.status_code == 200
    assert "Jの5はMの6の下に置けます。ランクが1つ下で、スートが違います。" in checker
    assert "Rainbow Rummy：プレイを確認" in checker and "RR-4" in checker
    assert "may go on the" not in checker and "Can this card go on" not in checker
    r = ann.get(f"{CHECKER}?q=build&card=5J&check=1")
    assert "列の一番下のカードを選ぶか" in text_of(r.get_data(as_text=True))

    # Another table: a team scores the difference and reaches the target, in Japanese.
    short = create(ann, target="10", out_counts_down="off")
    saved(act(ann, short, **RR11))
    over = text_of(ann.page(short))
    assert "の点数が少ないので、差を得点します：" in over
    assert "Ann & Cidが10点に達しました（目標10点）。" in over
    assert "reached" not in over and "score the difference" not in over


# ---------------------------------------------------------------- its Japanese tour
# Every screen of the game in Japanese, after these taps (tests/web/test_web_japanese.py).

JA_HAND = dict(kind="hand", went_out="2", hand_0="7E SJ", down_0="3M", hand_1="GN 1S",
               down_1="5E 6J", down_2="MV", hand_3="2N", down_3="SE")
JAPANESE = Tour("rainbow_rummy", ["Ann", "Bob", "Cid", "Dee"], steps=[
    Step(dict(kind="cut", cut_0="3e", cut_1="GJ", cut_2="8E", cut_3="MS"), 422),
    Step(dict(kind="cut", cut_0="3e", cut_1="GJ", cut_2="7E", cut_3="MS")),
    Step(JA_HAND),
], tools=["/rainbow-rummy/check?q=build&card=5J&onto=6S&check=1",
          "/rainbow-rummy/check?q=build&card=ZZ&onto=6S&check=1"])
