"""RockIt to Destiny through the Flask test client: the table (come in accepted or refused with
the points and the rule, wins, who starts the next game, finishing the match) and the
checker page (the board with a rearrangement and joker identities, a joker steal, a
come-in). Refusals are plain 422s that change nothing."""
from __future__ import annotations

import re
from urllib.parse import urlencode, urlsplit

import pytest

from helpers import attr, attrs, form_block, inputs, select, select_one, text_of
from japanese_tour import Step, Tour
from web_helpers import Phone, create_game_table, snapshot

NAMES = ["Ann", "Bob", "Cy"]


def create(phone: Phone, names=NAMES, **fields) -> str:
    table_id = create_game_table(phone, "rockit", names, **fields)
    phone.page(table_id)        # the host's phone opens the table (its opened_at is set)
    return table_id


def act(phone: Phone, table_id: str, form_id: str = "entry-form", **fields):
    """Press a button of a form as it stands now (its sid and version)."""
    form = inputs(form_block(phone.page(table_id), f'id="{form_id}"'))
    data = {"sid": form["sid"], "version": form["version"]}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


def come_in(phone: Phone, table_id: str, player: str, cards: str):
    return act(phone, table_id, kind="come_in", player=player, cards=cards)


def win(phone: Phone, table_id: str, player: str):
    return act(phone, table_id, "win-form", win=player)


def ok(response) -> str:
    body = response.get_data(as_text=True)
    assert response.status_code == 200, (response.status_code, text_of(body)[:600])
    return body


def notice(body: str) -> str:
    found = select(body, 'div[class^="notice"]')
    assert found, text_of(body)[:600]
    return found[0].text


def check(phone: Phone, status: int = 200, **args) -> str:
    r = phone.get("/rockit/check?" + urlencode({"check": "1", **args}))
    body = r.get_data(as_text=True)
    assert r.status_code == status, (r.status_code, text_of(body)[:800])
    return body


def section(body: str, id_: str) -> str:
    found = select(body, f"#{id_}")
    assert found, f"no #{id_}: {text_of(body)[:600]}"
    return found[0].text


def layout(body: str) -> list[str]:
    """The rearrangement's tricks as text, one per trick."""
    block = select(body, "#rearrangement ol")
    assert block, text_of(body)[:800]
    return [li.text for li in block[0].select("li")]


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


# ---------------------------------------------------------------- the new table

def test_decks_follow_the_players_and_the_sheet_says_who_starts(ann):
    two = text_of(ann.page(create(ann, ["Ann", "Bob"])))
    assert "One deck + 2 jokers (54 cards), 14 each" in two
    table_id = create(ann, starter="1")             # Bob starts the first game
    page = ann.page(table_id)
    assert "Two decks + 4 jokers (108 cards), 14 each" in text_of(page)
    assert text_of(page, "p#turn") == "Bob starts RID-2"
    assert section(page, "turn-order") == "Bob → Cy → Ann"
    assert "You are Ann" in text_of(page)


def test_one_deck_for_three_players_is_refused_on_the_form(ann, db_path):
    before = snapshot(db_path)
    r = ann.post("/new/rockit", {"name_0": "Ann", "name_1": "Bob", "name_2": "Cy", "me": "0",
                                 "decks": "1"})
    assert r.status_code == 422
    assert "One deck is for 2 players only" in text_of(r.get_data(as_text=True))
    assert 'value="Cy"' in r.get_data(as_text=True)
    assert snapshot(db_path) == before


# ---------------------------------------------------------------- coming in

@pytest.mark.parametrize("cards, words, rule", [
    ("7C 8C 9C", "This run is worth 24 points; coming in needs at least 30.", "RID-4"),
    ("QD KD AD", "This run is worth 21 points", "RID-4"),               # Ace high counts 1
    ("KS AS 2S", "This run is worth 13 points", "RID-4"),
    ("9C 10C JK", "Jokers are not allowed in the come-in trick.", "RID-4"),
    ("7H 7H 7S", "appears twice", "RID-3"),
    ("5H 6H", "a trick needs at least 3 cards; this one has 2", "RID-3"),
])
def test_a_refused_come_in_says_why_with_the_rule_and_changes_nothing(ann, db_path, cards,
                                                                        words, rule):
    table_id = create(ann)
    before = snapshot(db_path)
    r = come_in(ann, table_id, "Ann", cards)
    body = r.get_data(as_text=True)
    assert r.status_code == 422, text_of(body)[:500]
    assert words in notice(body) and notice(body).endswith(rule)
    assert f'value="{cards}"' in body                                    # nothing typed is lost
    assert 'name="player" value="Ann" checked' in body
    assert snapshot(db_path) == before
    assert 'data-out="Ann"' in ann.page(table_id)


@pytest.mark.parametrize("cards, points, rule", [
    ("2S 2H 2D", 30, "RID-4"),             # any three of a kind counts 30
    ("2S 2H 2D 2C", 30, "RID-A1"),
    ("10H JH QH", 30, "RID-4"),
    ("9H 10H JH QH", 39, "RID-A2"),
    ("jd qd kd ad 2d", 33, "RID-A2"),      # typed in lower case
])
def test_an_accepted_come_in_is_recorded_for_everyone(ann, new_phone, cards, points, rule):
    table_id = create(ann)
    bob = new_phone("Bob")
    bob.join(ann.join_path(table_id))
    bob.claim(table_id, 1)
    body = ok(come_in(ann, table_id, "Ann", cards))
    # The answer repeats what was saved, then the history's reference.
    assert re.fullmatch(r"Ann came in: .+ ?Saved as entry #\d+\.", notice(body)), notice(body)
    page = bob.page(table_id)
    assert section(page, "last-line").startswith("Just now: Ann came in")
    assert f"accepted, {points} points {rule}" in section(page, "last-line")
    assert text_of(page, '[data-in="Ann"]') == f"in ✓ {points}"
    shown = " ".join(card.text for card in select(form_block(page, 'id="win-form"'),
                                                  'span[class^="playing-card"]')
                     if not card.select("*"))
    assert shown.startswith(" ".join(_symbols(cards)))
    # Ann is off the come-in chips; Bob's phone starts on Bob.
    entry = form_block(page, 'id="entry-form"')
    assert 'name="player" value="Ann"' not in entry and 'name="player" value="Bob" checked' in entry


def _symbols(cards: str) -> list[str]:
    marks = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return [c[:-1].upper() + marks[c[-1].upper()] for c in cards.split()]


def test_a_second_come_in_and_bad_input_are_refused(ann, db_path):
    table_id = create(ann)
    ok(come_in(ann, table_id, "Ann", "2S 2H 2D"))
    ok(come_in(ann, table_id, "Bob", "2S 2H 2C"))      # two decks: a second 2♠ is fine
    before = snapshot(db_path)
    for fields, words in [
        (dict(kind="come_in", player="Ann", cards="3S 3H 3D"), "Ann has already come in"),
        (dict(kind="come_in", player="Zed", cards="3S 3H 3D"), "Tap who comes in."),
        (dict(kind="come_in", player="Cy", cards=""), "Tap the cards of Cy's trick"),
        (dict(kind="come_in", player="Cy", cards="1H 2H 3H"), "'1H' is not a card"),
        (dict(kind="come_in", player="Cy", cards="2S " * 300), "at most 13 cards"),
        (dict(kind="come_in", player="Cy", cards="2S 2D 2C"), "already on the board"),
        (dict(kind="fly"), "Tap one of the buttons"),
        (dict(kind="blocked", blocked_player="Bob", cards="3S"), "press Come in"),
    ]:
        r = act(ann, table_id, **fields)
        assert r.status_code == 422, (fields, r.status_code)
        assert words in notice(r.get_data(as_text=True)), (fields, notice(r.get_data(as_text=True)))
    assert snapshot(db_path) == before


# ---------------------------------------------------------------- winning

def test_a_win_before_coming_in_is_refused_and_changes_nothing(ann, db_path):
    table_id = create(ann)
    assert 'name="win"' not in ann.page(table_id)          # no won button before coming in
    before = snapshot(db_path)
    r = win(ann, table_id, "Bob")
    assert r.status_code == 422
    assert notice(r.get_data(as_text=True)) == (
        "Bob has not come in this game, so Bob cannot have won it: a player must come in "
        "first. RID-4")
    assert snapshot(db_path) == before


def test_the_winner_scores_a_game_and_starts_the_next(ann):
    table_id = create(ann)
    ok(come_in(ann, table_id, "Bob", "10H JH QH"))
    ok(come_in(ann, table_id, "Cy", "4S 4H 4D"))
    page = ann.page(table_id)
    assert attrs(page, '[name="win"]', "value") == ["Bob", "Cy"]
    page = ok(win(ann, table_id, "Bob"))
    assert "Game 2" in section(page, "rk-now")
    assert text_of(page, "p#turn") == "Bob starts — won game 1 RID-2"
    assert section(page, "turn-order") == "Bob → Cy → Ann"
    assert "Just now: 🏆 Bob won game 1 RID-9 — Bob starts game 2." == section(page, "last-line")
    wins = select_one(page, '[data-wins="Bob"]')
    assert wins.text == "1 win" and [s.text for s in wins.select("small")] == ["win"]
    assert not select(page, "[data-in]")                       # nobody is in in game 2
    assert 'name="win"' not in page
    assert "Game 1: Bob went out (Ann started) RID-9" in section(page, "tally")
    # Cy came in during game 1; in game 2 Cy must come in again before winning.
    r = win(ann, table_id, "Cy")
    assert r.status_code == 422 and "Cy has not come in this game" in notice(r.get_data(as_text=True))


def test_went_out_and_finishing_the_match_ask_first(ann):
    """One tap on "went out" ends the game, so the button asks first (hx-confirm: the
    browser's own dialog, which the CSP allows); so does "Finish the match now"."""
    table_id = create(ann)
    ok(come_in(ann, table_id, "Bob", "10H JH QH"))
    page = ann.page(table_id)
    button = select_one(page, 'button[name="win"][value="Bob"]')
    assert button.attrs["hx-confirm"] == "Bob went out and won game 1? This ends the game."
    assert button.attrs["hx-post"] == f"/t/{table_id}/actions"
    assert button.attrs["hx-target"] == "#play"
    page = ok(win(ann, table_id, "Bob"))
    assert attr(page, "form#finish-form", "hx-confirm").startswith("Finish the match now?")


def test_a_refused_come_in_marks_the_trick_box(ann):
    table_id = create(ann)
    body = come_in(ann, table_id, "Ann", "7C 8C 9C").get_data(as_text=True)
    assert attrs(body, '[aria-invalid="true"]', "id") == ["come-in-cards"]
    body = come_in(ann, table_id, "Ann", "").get_data(as_text=True)
    assert attrs(body, '[aria-invalid="true"]', "id") == ["come-in-cards"]
    body = act(ann, table_id, kind="come_in", cards="7C 8C 9C").get_data(as_text=True)
    assert "Tap who comes in" in notice(body)
    assert attrs(body, '[aria-invalid="true"]', "name") == ["player"]
    assert not select(ann.page(table_id), '[aria-invalid]')       # only on the refusal


def test_a_blocked_game_and_finishing_the_match(ann):
    table_id = create(ann, target="")
    ok(come_in(ann, table_id, "Cy", "KS KH KD"))
    page = ok(act(ann, table_id, kind="blocked", blocked_player="Cy"))
    assert "Cy starts — won game 1" in text_of(page)
    assert "Game 1: Cy had the fewest cards (Ann started) RID-A7" in section(page, "tally")
    ok(act(ann, table_id, "finish-form", kind="finish"))
    page = ann.page(table_id)
    assert "Game over — winner: Cy" in text_of(page)
    assert 'id="rematch"' in page and 'id="win-form"' in page and 'name="win"' not in page
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "Cy came in: K♠ K♥ K♦" in history
    assert "Cy won the game: fewest cards, the draw pile empty" in history
    assert "The table finished the match" in history


def test_a_target_ends_the_match(ann):
    table_id = create(ann, target="1")
    ok(come_in(ann, table_id, "Ann", "KS KH KD"))
    page = ok(win(ann, table_id, "Ann"))
    assert "Game over — winner: Ann" in text_of(page)
    assert "Ann has won 1 game, the target. RID-9" in text_of(page)


def test_a_spectator_sees_the_come_ins_but_no_buttons(ann, new_phone):
    table_id = create(ann)
    ok(come_in(ann, table_id, "Ann", "KS KH KD"))
    watcher = new_phone("Zed")
    watcher.join(ann.join_path(table_id))
    watcher.claim(table_id, "watch")
    page = watcher.page(table_id)
    assert 'data-in="Ann"' in page
    assert 'name="win"' not in page and 'id="entry-form"' not in page


def test_the_table_links_to_the_checker_with_its_decks(ann):
    table_id = create(ann, ["Ann", "Bob"])
    page = ann.page(table_id)
    href = attr(page, "#checker-link", "href")
    assert href.startswith("/rockit/check?") and f"t={table_id}" in href and "decks=1" in href
    body = ok(ann.get(href))
    assert f'href="/t/{table_id}" id="back-to-table"' in body
    assert 'name="decks" value="1" checked' in body
    assert 'data-copies="1"' in body


# ---------------------------------------------------------------- the board check

def test_a_wrong_layout_gets_a_rearrangement(ann):
    body = check(ann, trick_0="9D 10D JD QD KD", trick_1="8D AD JS JH")
    assert section(body, "rk-verdict").startswith("No. Trick 2 is not valid")
    assert "The same cards can be laid out validly, as 3 tricks. RID-7" in section(body, "rk-verdict")
    rows = [(li.get("class").removeprefix("rk-row "), li.get("data-trick"))
            for li in select(body, 'li[class^="rk-row "][data-trick]')]
    assert rows == [("ok", "1"), ("bad", "2")]
    assert "neither a set (one rank, different suits) nor a run" in section(body, "board-tricks")
    assert layout(body) == ["✓ 8♦ 9♦ 10♦", "✓ Q♦ K♦ A♦", "✓ J♠ J♥ J♦"]


def test_a_valid_board_may_say_rockit(ann):
    body = check(ann, trick_0="QC KC AC 2C 3C", trick_1="7S 7H 7D")
    assert section(body, "rk-verdict") == ("Yes. The board is valid: 2 tricks, 8 cards. "
                                           "“RockIt” may be said. RID-7")
    assert 'id="rearrangement"' not in body
    assert "A valid run through the Ace" in section(body, "board-tricks")


def test_no_valid_layout_means_put_the_board_back(ann):
    body = check(ann, trick_0="9D 10D JD QD KD", trick_1="JS JH")
    assert "No layout of these cards is valid: put the board back" in section(body, "rk-verdict")
    assert section(body, "rk-verdict").endswith("RID-A6")
    assert 'id="rearrangement"' not in body


def test_joker_identities_on_the_board_and_in_the_layout(ann):
    body = check(ann, trick_0="AD 2D JK 4D", trick_1="QC QH JK", trick_2="5H 6H",
                 trick_3="7H 8H 9H")
    tricks = section(body, "board-tricks")
    assert "A♦ 2♦ Joker = 3♦ 4♦" in tricks
    assert "Q♣ Q♥ Joker = Q♠ or Q♦" in tricks
    assert "Trick 3 5♥ 6♥ A trick needs at least 3 cards" in tricks
    assert section(body, "rk-verdict").startswith("No. Trick 3 is not valid")
    assert any("Joker = 3♦" in trick for trick in layout(body))


def test_cards_from_hand_that_can_join_the_board(ann):
    body = check(ann, trick_0="5H 6H 7H", trick_1="7S 7D 7C", hand="7H")       # RK10
    assert section(body, "rk-verdict") == ("Yes. Your card can join the board: all 7 cards "
                                           "fit in valid tricks, one way shown below. RID-6")
    assert sorted(layout(body)) == ["✓ 5♥ 6♥ 7♥", "✓ 7♠ 7♥ 7♦ 7♣"]
    assert len(select(body, '[class="playing-card suit-H rk-hand"]')) == 1

    body = check(ann, trick_0="KS AS 2S", hand="AS")                             # RK11
    assert section(body, "rk-verdict") == ("No. Your card cannot join the board: no layout "
                                           "of these 4 cards is valid. Keep it in hand. RID-7")
    assert 'id="rearrangement"' not in body

    body = check(ann, trick_0="9D 10D JD QD KD", hand="8D AD JS JH")             # RK9
    assert "Your 4 cards can join the board" in section(body, "rk-verdict")
    body = check(ann, trick_0="9D 10D JD QD KD", hand="JS JH")
    assert "Your 2 cards cannot all join the board" in section(body, "rk-verdict")


def test_every_card_in_one_box(ann):
    body = check(ann, all="JD QD KD AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD")       # RK12
    assert section(body, "rk-verdict") == ("Yes. All 14 cards can be laid out in valid "
                                           "tricks, one way shown below. RID-3")
    assert len(layout(body)) >= 2
    body = check(ann, trick_0="JD QD KD", all="AD")
    assert section(body, "rk-verdict") == ("No. 1 card is not in a trick yet. All 4 cards can "
                                           "be laid out in valid tricks, one way shown below. "
                                           "RID-7")
    assert layout(body) == ["✓ J♦ Q♦ K♦ A♦"]
    body = check(ann, trick_0="JD QD KD", all="5S 9H")
    assert section(body, "rk-verdict") == ("No. 2 cards are not in a trick yet. No layout of "
                                           "these 5 cards is valid: put the board back as it "
                                           "was at the start of the turn. RID-A6")
    body = check(ann, all="KS AS 2S AS")
    assert section(body, "rk-verdict").startswith("No. No layout of these 4 cards is valid")


def test_copies_beyond_the_decks_are_a_rid_1_verdict(ann):
    body = check(ann, decks="1", trick_0="7H 8H 9H", trick_1="7H 7S 7D")
    assert section(body, "rk-verdict") == ("No. One deck has only one 7♥, but it appears "
                                           "twice. RID-1")
    body = check(ann, decks="2", trick_0="7H 8H 9H", trick_1="7H 7S 7D")
    assert section(body, "rk-verdict").startswith("Yes.")


@pytest.mark.parametrize("args, words", [
    ({}, "Tap the cards of each trick on the board"),
    ({"trick_0": "7H 8H XX"}, "Trick 1: 'XX' is not a card"),
    ({"trick_1": "7H 8H 9H", "decks": "3"}, "Decks: tap one deck (2 players) or two decks."),
    ({"hand": "ZZ"}, "Cards from hand: 'ZZ' is not a card"),
    ({"trick_0": "7H " * 300}, "Trick 1: that is more cards than two decks hold."),
])
def test_bad_board_input_is_a_plain_422_with_the_form_refilled(ann, args, words):
    body = check(ann, 422, **args)
    assert words in section(body, "rk-error")
    if "trick_0" in args:
        assert args["trick_0"].strip()[:20] in body


def test_add_a_trick_keeps_what_was_typed_and_opens_a_new_box(ann):
    r = ann.get("/rockit/check?" + urlencode({"n": "3", "trick_0": "7H 8H 9H", "trick_1": "KS KH KD",
                                              "trick_2": "2C 3C 4C", "add": "1"}))
    body = ok(r)
    assert 'name="n" value="4"' in body
    assert select(body, 'details[class="rk-slot"][name="rk-tricks"]#slot-3[open]')
    assert 'value="KS KH KD"' in body and 'id="rk-verdict"' not in body
    ok(ann.get("/rockit/check?n=99&trick_40=7H"))               # clamped, never a 500


# ---------------------------------------------------------------- the steal and come-in checks

def test_a_legal_and_an_illegal_joker_steal(ann):
    base = {"q": "steal", "trick": "AD 2D JK 4D", "replacement": "3D", "new_trick": "JK 8C 9C"}
    body = check(ann, **base)                                                    # RK14
    assert section(body, "rk-verdict").startswith("Yes. Legal: 3♦ takes the joker's place")
    assert section(body, "joker-identity") == ("On the board: A♦ 2♦ Joker 4♦ — The joker in "
                                               "place 3 is 3♦. RID-8")
    assert "A♦ 2♦ 3♦ 4♦" in text_of(body)
    body = check(ann, **base, taken="8C 9C")                                      # RK15
    assert section(body, "rk-verdict") == (
        "No. The new trick must be only cards from your hand plus the joker: 8♣ and 9♣ are "
        "not from your hand. RID-8")
    body = check(ann, **base, source="board")
    assert "must come from your hand" in section(body, "rk-verdict")


def test_a_set_joker_takes_either_missing_suit(ann):
    base = {"q": "steal", "trick": "QC QH JK", "new_trick": "JK 8C 9C"}
    assert section(check(ann, **base, replacement="QD"), "rk-verdict").startswith("Yes.")
    assert section(check(ann, **base, replacement="QS"), "rk-verdict").startswith("Yes.")
    assert section(check(ann, **base, replacement="QC"), "rk-verdict") == (
        "No. Q♣ is already in that trick: the joker stands for Q♠ or Q♦. RID-A5")
    assert "may be Q♠ or Q♦" in section(check(ann, **base, replacement="QC"), "joker-identity")
    assert section(check(ann, **base, replacement="QS", declared="QD"), "rk-verdict") \
        .startswith("No.")


@pytest.mark.parametrize("args, words", [
    ({"replacement": "3D", "new_trick": "JK 8C 9C"}, "Tap the board trick"),
    ({"trick": "AD 2D JK 4D", "new_trick": "JK 8C 9C"}, "Tap the card put in the joker's place"),
    ({"trick": "AD 2D JK 4D", "replacement": "3D 4D", "new_trick": "JK 8C 9C"}, "tap one card"),
    ({"trick": "AD 2D JK 4D", "replacement": "3D"}, "Tap the new trick"),
    ({"trick": "AD 2D JK 4D", "replacement": "3D", "new_trick": "JK 8C 9C", "taken": "10C"},
     "10♣ is not in the new trick"),
    ({"trick": "AD 2D JK 4D", "replacement": "3D", "new_trick": "JK 8C 9C", "source": "x"},
     "Tap where the card put in the joker's place came from"),
])
def test_bad_steal_input_is_a_plain_422(ann, args, words):
    assert words in section(check(ann, 422, q="steal", **args), "rk-error")


def test_the_come_in_check(ann):
    body = check(ann, q="come_in", cards="QD KD AD")
    assert section(body, "rk-verdict") == ("No. This run is worth 21 points; coming in needs "
                                           "at least 30. RID-4")
    assert section(body, "come-in-points") == ("21 points (run); 30 needed. RID-4 The Ace "
                                               "counts 1, even high. RID-A8")
    body = check(ann, q="come_in", cards="2S 2H 2D 2C")
    assert section(body, "rk-verdict") == "Yes. Comes in: any set counts 30. RID-A1"
    assert "Tap the cards of the trick" in section(check(ann, 422, q="come_in"), "rk-error")


def test_the_checker_without_a_table(ann):
    start = ann.get("/").get_data(as_text=True)
    assert select(start, '[href="/rockit/check"]#rockit-check-link')
    body = ok(ann.get("/rockit/check"))
    assert 'id="rk-board-form"' in body and 'id="rk-verdict"' not in body
    assert 'id="rule-sheet"' in body and "RID-A8" in body
    assert text_of(body).startswith("Is the board valid? · RockIt to Destiny ‹ Start")
    assert 'name="decks" value="2" checked' in body and 'data-copies="2"' in body
    assert ann.get("/rockit/check?q=teleport").status_code == 404
    assert 'id="back-to-table"' not in ok(ann.get("/rockit/check?t=../x"))


# ---------------------------------------------------------------- blocked games, declared jokers

def blocked(phone: Phone, table_id: str, **fields):
    return act(phone, table_id, kind="blocked", **fields)


def test_a_blocked_game_is_won_by_a_player_who_never_came_in(ann, new_phone):
    """RID-A7 (docs/RULES.md §4.5): when everyone passes with the draw pile empty, the fewest
    cards in hand wins, come in or not, as a blocked game is not a going-out. The rule sheet
    names only the win by going out (seeds/000_a31bb5430319cf88.txt §WINNING THE GAME).
    """
    table_id = create(ann)
    page = ann.page(table_id)
    assert select(page, "#entry-form details#blocked")            # even before anyone is in
    ok(come_in(ann, table_id, "Ann", "KS KH KD"))
    page = ann.page(table_id)
    assert "Draw pile empty, everyone passed?" in section(page, "blocked")
    assert attrs(page, '#blocked [name="blocked_player"]', "value") == NAMES
    assert attrs(page, "#blocked-left input", "name") == ["left_0", "left_1", "left_2"]
    page = ok(blocked(ann, table_id, blocked_player="Bob", left_0="5", left_1="2", left_2="7"))
    assert "Game 1: Bob had the fewest cards (2) (Ann started) RID-A7" in section(page, "tally")
    assert text_of(page, "p#turn") == "Bob starts — won game 1 RID-2"
    assert "Just now: 🏆 Bob won game 1 (fewest cards) RID-A7" in section(page, "last-line")
    bob = new_phone("Bob")
    bob.join(ann.join_path(table_id))
    assert select_one(bob.page(table_id), '[data-wins="Bob"]').text == "1 win"
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "Bob won the game: fewest cards, the draw pile empty" in history


@pytest.mark.parametrize("fields, status, winner, words", [
    # Tapped, no counts: the table's word is taken (RID-A7), come in or not.
    (dict(blocked_player="Cy"), 200, "Cy", None),
    # Counts for everyone, nobody tapped: the fewest wins.
    (dict(left_0="4", left_1="6", left_2="1"), 200, "Cy", None),
    # The player tapped does not hold the fewest.
    (dict(blocked_player="Cy", left_0="1", left_2="3"), 422, None,
     "Cy holds 3 cards, but Ann holds 1 card: the fewest cards in hand wins. RID-A7"),
    # A tie on counts: the points decide, so the table taps who wins.
    (dict(left_0="2", left_1="2", left_2="5"), 422, None,
     "Ann and Bob hold the fewest cards (2): the fewest points in hand wins"),
    (dict(blocked_player="Bob", left_1="x"), 422, None,
     "Bob's cards in hand: a number from 0 to 108."),
    (dict(blocked_player="Bob", left_0="3"), 422, None, "Count Bob's cards in hand too"),
    (dict(), 422, None, "Tap who has the fewest cards in hand."),
])
def test_the_blocked_game_form(ann, db_path, fields, status, winner, words):
    """RID-A7: the fewest cards in hand wins; a tie goes to the fewest points in hand, counted
    with the come-in values (seeds/000_a31bb5430319cf88.txt §COMING IN).
    """
    table_id = create(ann)
    ok(come_in(ann, table_id, "Ann", "KS KH KD"))
    before = snapshot(db_path)
    r = blocked(ann, table_id, **fields)
    body = r.get_data(as_text=True)
    assert r.status_code == status, text_of(body)[:600]
    if status == 200:
        assert f"Game 1: {winner} had the fewest cards" in section(body, "tally")
        return
    assert words in notice(body)
    assert snapshot(db_path) == before
    assert select(body, "details#blocked[open]")                    # the form stays open
    for key, value in fields.items():
        assert f'name="{key}" value="{value}"' in body or (
            key == "blocked_player" and f'value="{value}" checked' in body)


def test_a_declared_joker_in_the_checker_follows_the_declaration(ann):
    """RID-A5: a joker stands for the card declared when it is laid (docs/RULES.md §4.5;
    seeds/000_a31bb5430319cf88.txt §PLAYING A JOKER). "5♥ 6♥ JK, joker = 4♥" is the run
    4-5-6♥, as "JK 5♥ 6♥" is.
    """
    for typed in ("5♥ 6♥ JK, joker = 4♥", "JK 5♥ 6♥", "5H 6H JK=4H"):
        body = check(ann, trick_0=typed)
        assert section(body, "rk-verdict").startswith("Yes."), typed
        assert "Joker = 4♥" in section(body, "board-tricks"), typed
    body = check(ann, trick_0="5♥ 6♥ JK, joker = 8♥")
    assert section(body, "board-tricks").endswith(
        "With the joker as 8♥ the trick is not valid: these cards are not in a row: 5♥ 6♥ "
        "8♥. RID-A5")
    assert "No layout" not in section(body, "rk-verdict")       # the cards themselves fit
    body = check(ann, trick_0="5H 6H JK, jokers = 4H 7H")
    assert "2 jokers declared, but this trick has 1 joker." in section(body, "board-tricks")


@pytest.mark.parametrize("args", [
    {"trick": "5♥ 6♥ JK, joker = 4♥"},
    {"trick": "5H 6H JK", "declared": "4H"},
    {"trick": "JK 5H 6H"},
])
def test_a_declared_jokers_steal_is_legal_in_any_order(ann, args):
    """RID-8: a board joker is taken by putting its card from hand in its place and using
    the joker in a new trick of hand cards (seeds/000_a31bb5430319cf88.txt §PLAYING A JOKER).
    The joker declared 4♥ represents 4♥ however it was typed."""
    body = check(ann, q="steal", replacement="4H", new_trick="JK 2C 3C", **args)
    assert section(body, "rk-verdict").startswith("Yes. Legal: 4♥ takes the joker's place")
    assert "is 4♥" in section(body, "joker-identity")


def test_a_declared_joker_never_comes_in(ann, db_path):
    """RID-4: no jokers in the come-in trick (seeds/000_a31bb5430319cf88.txt §COMING IN).
    The declaration is read (no notation error), and the verdict is the rule's."""
    body = check(ann, q="come_in", cards="5♥ 6♥ JK, joker = 4♥")
    assert section(body, "rk-verdict") == "No. Jokers are not allowed in the come-in trick. RID-4"
    table_id = create(ann)
    before = snapshot(db_path)
    r = come_in(ann, table_id, "Ann", "5♥ 6♥ JK, joker = 4♥")
    assert r.status_code == 422
    assert notice(r.get_data(as_text=True)) == "Jokers are not allowed in the come-in trick. RID-4"
    assert snapshot(db_path) == before
    r = come_in(ann, table_id, "Ann", "9♥ 10♥ J♥ joker = 8♥")
    assert "a joker's card was declared, but the trick has no joker" in notice(
        r.get_data(as_text=True))
    ok(come_in(ann, table_id, "Ann", "10♥ J♥ Q♥"))                  # suit symbols read too
    assert "Ann came in 10♥ J♥ Q♥ — accepted, 30 points" in section(ann.page(table_id),
                                                                    "last-line")


# ---------------------------------------------------------------- Japanese

def test_a_rockit_table_and_the_checker_in_japanese(ann, new_phone):
    """On a Japanese phone every sentence of the sheet, the refusals, the history and the
    checker is Japanese; names, cards and rule IDs stay as they are."""
    ann.client.set_cookie("lang", "ja")
    table_id = create(ann)
    r = come_in(ann, table_id, "Ann", "5H 6H 7H")               # a run worth 18: refused
    assert r.status_code == 422
    refusal = notice(r.get_data(as_text=True))
    assert "このランは18点です。初出しには30点以上必要です。" in refusal and refusal.endswith("RID-4")
    r = come_in(ann, table_id, "Bob", "2S 2H")                  # two cards: no trick
    assert "正しい役ではないので初出しできません：役には3枚以上必要ですが、これは2枚です。" in notice(
        r.get_data(as_text=True))
    ok(come_in(ann, table_id, "Bob", "10H JH QH"))
    page = text_of(ann.page(table_id))
    assert "直前： Bob が初出し 10♥ J♥ Q♥ — 承認、30点 RID-4" in page
    assert "誰が初出し？" in page and "まだ初出しなし" in page and "初出し ✓ 30" in page
    assert "目標なし：テーブルでマッチを終えるまでゲームを続け、一番多く勝った人が勝ちます。" in page
    page = text_of(ok(win(ann, table_id, "Bob")))
    assert "ゲーム2" in page and "Bobから — ゲーム1の勝者 RID-2" in page
    assert "ゲーム1： Bob が上がり （Annから開始） RID-9" in page
    r = win(ann, table_id, "Cy")
    assert "Cyはこのゲームでまだ初出ししていないので、勝つことはできません。" in notice(
        r.get_data(as_text=True))
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "Bobが初出し：10♥ J♥ Q♥" in history and "Bobがゲームに勝利：上がり" in history
    for english in ("This run is worth", "came in", "Just now", "won game", "not in yet",
                    "No target", "went out", "not a valid trick", "has not come in"):
        assert english not in page + refusal + history, english
    # The checker: verdicts, the tricks as laid out, a layout, the rule sheet.
    body = check(ann, trick_0="KS KH KD", trick_1="5C 6C", trick_2="7C 8C 9C")
    verdict = section(body, "rk-verdict")
    assert verdict.startswith("いいえ。 役2は正しくありません：役には3枚以上必要ですが、これは2枚です。")
    assert "同じカードで2組の役に正しく並べられます。" in verdict and verdict.endswith("RID-7")
    tricks = section(body, "board-tricks")
    assert "正しいセット：K♠ K♥ K♦。" in tricks and "正しいラン：7♣ 8♣ 9♣。" in tricks
    sheet = section(body, "rule-sheet")
    assert "ジョーカーは1枚のカードの代わりになる。" in sheet and "RID-8" in sheet
    body = check(ann, q="steal", trick="AD 2D JK 4D", replacement="3D", new_trick="JK 5S 5H")
    assert section(body, "rk-verdict").startswith("はい。 OK：3♦がジョーカーの代わりに入り")
    assert "3番目のジョーカーは3♦。" in section(body, "joker-identity")
    body = check(ann, 422, q="come_in", cards="5H ZZ")
    assert section(body, "rk-error").startswith("役：「ZZ」はカードではありません")  # in Japanese
    shown = text_of(body) + verdict + tricks + sheet
    for english in ("Trick 2 is not valid", "A valid set", "The same cards can", "Rule sheet",
                    "A joker stands for", "Legal:", "The trick:", "Does it come in?"):
        assert english not in shown, english


# ---------------------------------------------------------------- its Japanese tour
# Every screen of the game in Japanese, after these taps (tests/web/test_web_japanese.py).

JAPANESE = Tour("rockit", ["Ann", "Bob", "Cy"], steps=[
    Step(dict(kind="come_in", player="Ann", cards="7C 8C 9C"), 422),
    Step(dict(kind="come_in", player="Bob", cards="10H JH QH")),
    Step(dict(kind="come_in", player="Cy", cards="4S 4H 4D")),
    Step(dict(win="Bob"), form='id="win-form"'),
], tools=["/rockit/check?trick_0=9D+10D+JD+QD+KD&trick_1=8D+AD+JS+JH&check=1",
          "/rockit/check?trick_0=ZZ&check=1"])
