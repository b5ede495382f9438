"""Rocca Card Tower through the Flask test client: the referee screen, the turn flow (reverse,
ace, K stacks, queen exchanges, joker lock, One, the stock running out, the next game),
refusals (422, nothing changed), the placement checker, and Japanese (Accept-Language and
the English/日本語 switch)."""
from __future__ import annotations

import copy
import html
import pickle
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from babel.messages.pofile import read_po

from companion.rules import rocca
from companion.rules.said import Said, fields_of, rebuild
from companion.translations import catalogue_dirs
from helpers import attrs, form_block, inputs, links, select, text_of
from japanese_tour import Step, Tour
from web_helpers import Phone, create_game_table, snapshot

NAMES = ["Ann", "Bob", "Cy"]
JA = {"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}
#: The app's catalogue and Rocca's own (companion/translations/games/rocca), as the web merges them.
CATALOGUES = [Path(folder) / "ja" / "LC_MESSAGES" for folder in catalogue_dirs(["rocca"])]


def create(phone: Phone, names=NAMES, **fields) -> str:
    table_id = create_game_table(phone, "rocca", names, **fields)
    phone.page(table_id)        # the host's phone opens the table (its opened_at is set)
    return table_id


def act(phone: Phone, table_id: str, form_id: str = "entry-form", headers=None, **fields):
    """Press a button of a form as it stands now (its sid and version)."""
    form = inputs(form_block(phone.page(table_id), f'id="{form_id}"'))
    data = {k: form[k] for k in ("sid", "version", "player") if k in form}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(f"/t/{table_id}/actions", data, hx=True, headers=headers)


def ok(response) -> str:
    body = response.get_data(as_text=True)
    assert response.status_code == 200, (response.status_code, text_of(body)[:600])
    return body


def hands(page: str) -> dict[str, int]:
    return {b.get("data-hand"): int(b.text) for b in select(page, "b[data-hand]")}


def turn(page: str) -> str:
    return text_of(page, "p#turn")


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


def test_the_starter_chosen_on_the_form_starts_and_seating_order_is_kept(ann):
    table_id = create(ann, starter="2")         # Cy (row 3) starts the first game
    page = ann.page(table_id)
    assert turn(page) == "Cy’s turn"
    assert text_of(page, "p#turn-order") == \
        "Cy → Ann → Bob"
    assert "You are Ann" in text_of(page)        # this phone is still Ann (the host)
    seats = text_of(ann.get(f"/t/{table_id}/seats").get_data(as_text=True))
    assert seats.index("Cy") < seats.index("Ann") < seats.index("Bob")


@pytest.mark.parametrize("starter", ["9", "x", "4", "9" * 5000, "٢"])
def test_a_starter_without_a_name_is_refused_on_the_form(ann, starter, db_path):
    before = snapshot(db_path)
    r = ann.post("/new/rocca", {"name_0": "Ann", "name_1": "Bob", "me": "0", "starter": starter})
    assert r.status_code == 422
    assert "beside the player who starts" in text_of(r.get_data(as_text=True))
    assert 'name="name_1" value="Bob"' in r.get_data(as_text=True)   # nothing typed is lost
    assert snapshot(db_path) == before


def test_a_turn_flow_reverse_ace_k_stack_queen_exchange_one_and_the_next_game(ann):
    table_id = create(ann)
    page = ann.page(table_id)
    assert turn(page) == "Your turn" and hands(page) == {"Ann": 5, "Bob": 5, "Cy": 5}
    assert "44 cards in the stock" in text_of(page) and 'data-direction="1"' in page
    assert 'id="start-card-hint"' in page                          # ROC-2, before any card

    page = ok(act(ann, table_id, kind="play", card="5H"))          # Ann → Bob
    assert 'id="start-card-hint"' not in page
    page = ok(act(ann, table_id, kind="play", card="0h"))          # Bob reverses: back to Ann
    assert 'data-direction="-1"' in page and "counter-clockwise" in text_of(page)
    assert turn(page) == "Your turn"
    page = ok(act(ann, table_id, kind="play", card="AH"))          # the ace plays again
    assert turn(page) == "Your turn" and "Ann plays again." in text_of(page)

    page = ok(act(ann, table_id, kind="play", card="KH"))          # K +2 for Cy
    stack = text_of(page, "#stack")
    assert "K +2" in stack and "Cy answers with a K" in stack
    page = ok(act(ann, table_id, kind="play", card="KS"))          # Cy stacks: K +4 for Bob
    assert "K +4" in text_of(page) and turn(page) == "Bob’s turn"
    assert 'value="draw" id="draw-card">Drew 4 cards' in page
    page = ok(act(ann, table_id, kind="draw"))                     # Bob takes the stack
    assert 'id="stack"' not in page and hands(page)["Bob"] == 8
    assert turn(page) == "Your turn"

    page = ok(act(ann, table_id, kind="play", card="7H"))          # Ann is down to 1 card
    assert hands(page)["Ann"] == 1 and "say One!" in text_of(page)
    page = ok(act(ann, table_id, kind="play", card="QC", to="Bob"))   # Cy's queen to Bob
    queen = text_of(page, "#queen")
    assert "Cy gave Bob 1 card." in queen and "giving 2 cards back" in queen
    assert turn(page) == "Bob’s turn" and 'id="take-cards"' in page and 'name="to"' not in page
    page = ok(act(ann, table_id, kind="play", card="QD"))          # Bob answers: 2 back to Cy
    assert "Bob gave Cy 2 cards." in text_of(page) and turn(page) == "Cy’s turn"
    assert hands(page) == {"Ann": 1, "Bob": 6, "Cy": 4}
    page = ok(act(ann, table_id, kind="accept"))                   # Cy takes them
    assert 'id="queen"' not in page and turn(page) == "Your turn"  # after Bob, going back

    page = ok(act(ann, table_id, form_id="one-form", one="Ann"))
    assert "One ✓" in text_of(page) and "Ann says One." in text_of(page)
    page = ok(act(ann, table_id, kind="play", card="9H"))          # Ann goes out
    assert "Ann won!" in text_of(page) and "1 win" in text_of(page)
    assert "Bob starts: the biggest loser" in text_of(page)        # 6 cards (ROC-A6)
    assert 'id="rematch"' not in page
    page = ok(act(ann, table_id, kind="new_game"))
    assert "Game 2" in text_of(page) and turn(page) == "Bob’s turn"
    assert hands(page) == {"Ann": 5, "Bob": 5, "Cy": 5}
    assert "Games won: Ann 1 · Bob 0 · Cy 0" in text_of(page)

    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    for line in ("Ann placed 5♥", "Bob drew", "Cy placed Q♣ → Bob", "Cy took the queen's cards",
                 "Ann said One", "The next game was dealt"):
        assert line in history, line


def test_going_out_without_one_draws_three(ann):
    table_id = create(ann, names=["Ann", "Bob"])
    for card in ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"):
        ok(act(ann, table_id, kind="play", card=card))
    page = ok(act(ann, table_id, kind="play", card="10H"))         # Ann's last card, no One
    assert hands(page)["Ann"] == 3 and "won" not in turn(page)
    assert "had not said One" in text_of(page) and "ROC-8" in text_of(page)


def test_say_one_is_no_longer_offered_once_the_game_is_over(ann):
    table_id = create(ann, names=["Ann", "Bob"])
    for card in ("2H", "3H", "4H", "5H", "6H", "7H", "8H"):      # Ann is down to 1 card
        ok(act(ann, table_id, kind="play", card=card))
    page = ann.page(table_id)
    assert "say One!" in text_of(page, "#players")
    assert "disabled" not in select(page, 'button.one-button[value="Ann"]')[0].attrs
    ok(act(ann, table_id, form_id="one-form", one="Ann"))
    ok(act(ann, table_id, kind="play", card="9H"))                # Bob is down to 1 card
    page = ann.page(table_id)
    assert "say One!" in text_of(page, "#players")                # Bob has not said it
    page = ok(act(ann, table_id, kind="play", card="10H"))        # Ann goes out
    assert "Ann won!" in text_of(page)
    for shown in (page, ann.page(table_id)):
        assert "say One!" not in text_of(shown)
        assert not select(shown, "button.one-button")
        assert text_of(shown, '#rocca-totals li[data-total-for="Bob"] b') == "1"


def test_the_one_call_sits_in_the_answer_to_the_move_that_left_one_card(ann):
    """The move that leaves Ann one card is answered with a One! button for her inside
    #entry, after the form (rocca.css draws it just above the notice the page scrolls to);
    it says One like the button in the players' list, then goes."""
    table_id = create(ann, names=["Ann", "Bob"])
    for card in ("2H", "3H", "4H", "5H", "6H", "7H"):
        page = ok(act(ann, table_id, kind="play", card=card))
        assert not select(page, "#one-call")                      # nobody holds one card
    page = ok(act(ann, table_id, kind="play", card="8H"))         # Ann is down to 1 card
    (button,) = select(page, "#entry form#one-call button")
    assert button.attrs["name"] == "one" and button.attrs["value"] == "Ann"
    assert text_of(button) == "One!" and "ROC-8" in text_of(page, "#one-call")
    assert "Ann has one card left: say One!" in text_of(page, "#one-call")
    page = ok(act(ann, table_id, form_id="one-call", one="Ann"))
    assert "One ✓" in text_of(page, "#players") and not select(page, "#one-call")


def test_a_name_with_a_long_word_takes_two_tiles(ann):
    """A tile holds a word of 8 letters on a 375 px phone; a longer one gets two tiles'
    room, so "Maximilian-Alexander" breaks at its hyphen, never inside a word."""
    table_id = create(ann, names=["Maximilian-Alexander", "Bob", "Christopher", "Jean Luc"])
    page = ann.page(table_id)
    wide = {li.attrs["data-total-for"] for li in select(page, "#rocca-totals li.long-name")}
    assert wide == {"Maximilian-Alexander", "Christopher"}


@pytest.mark.parametrize("name, longest", [("Maximilian-Alexander", 10), ("Jean Luc", 4),
                                           ("Ann & Cid", 3), ("山田太郎", 4), ("", 0)])
def test_longest_word(name, longest):
    from companion.web.filters import longest_word
    assert longest_word(name) == longest


def test_everyones_cards_and_wins_are_pinned_at_the_top(ann):
    table_id = create(ann)
    page = ann.page(table_id)
    totals = select(page, "#rocca-now #rocca-totals [data-total-for]")
    assert [(t.attrs["data-total-for"], text_of(t, "b")) for t in totals] == [
        ("Ann", "5"), ("Bob", "5"), ("Cy", "5")]


@pytest.mark.parametrize("fields, field", [
    (dict(kind="play"), "card"),
    (dict(kind="play", card="ZZ"), "card"),
    (dict(kind="play", card="JK"), "suit"),
    (dict(kind="play", card="QH"), "to"),
    (dict(kind="draw", card="7H"), "card"),
])
def test_a_refusal_marks_the_field_it_is_about(ann, fields, field):
    table_id = create(ann)
    body = act(ann, table_id, **fields).get_data(as_text=True)
    assert attrs(body, '[aria-invalid="true"]', "name") == [field]
    body = ok(act(ann, table_id, kind="play", card="KH"))           # Bob owes K +2
    assert not select(body, "[aria-invalid]")
    body = act(ann, table_id, kind="play", card="7H").get_data(as_text=True)   # the rules say no
    assert "ROC-A8" in text_of(body) and attrs(body, '[aria-invalid="true"]', "name") == ["card"]


def test_the_joker_lock_and_its_refusal(ann, db_path):
    table_id = create(ann)
    page = ok(act(ann, table_id, kind="play", card="JK", suit="S"))
    assert 'id="lock"' in page and "a ♠ card or another joker" in text_of(page)
    assert "lock=S" in page                                        # the checker link knows it
    before = snapshot(db_path)
    r = act(ann, table_id, kind="play", card="7H")
    assert r.status_code == 422 and "ROC-5" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before
    ok(act(ann, table_id, kind="play", card="7S"))


def test_the_stock_runs_out_players_are_eliminated_and_the_last_one_wins(ann):
    table_id = create(ann)
    page = ok(act(ann, table_id, kind="stock_out"))
    assert 'id="stock-out"' not in page and 'id="cannot-play"' in page
    assert "stock empty" in text_of(page) and 'id="draw-card"' not in page
    page = ok(act(ann, table_id, kind="cannot_play"))              # Ann is out
    assert "Ann cannot play and is out of this game." in text_of(page)
    assert turn(page) == "Bob’s turn"
    page = ok(act(ann, table_id, kind="cannot_play"))              # Bob too: Cy is left
    assert "Cy won!" in text_of(page)
    assert "Ann starts: the biggest loser" in text_of(page)        # the first one out


@pytest.mark.parametrize("fields, words", [
    (dict(kind="play", card=""), "Tap the card Ann placed"),
    (dict(kind="play", card="ZZ"), "is not a Rocca card"),
    (dict(kind="play", card="7H 8H"), "Tap one card"),
    (dict(kind="play", card="1" * 40), "Tap one card"),
    (dict(kind="play", card="JK"), "Tap the suit Ann declared for the joker"),
    (dict(kind="play", card="JK", suit="X"), "Tap the suit Ann declared for the joker"),
    (dict(kind="play", card="QH"), "Tap who gets a card from Ann's queen"),
    (dict(kind="play", card="QH", to="Ann"), "Tap who gets a card from Ann's queen"),
    (dict(kind="draw", card="7H"), "You tapped a card"),
    (dict(kind="fly"), "Tap one of the buttons"),
    (dict(one="Zed"), "Tap the “One!” button"),
    (dict(kind="bon", bon_player="Bob", bon_cards="7H 7D", bon_onto="7S"), "Bon is not among"),
    (dict(kind="new_game"), "A new game starts only after someone has won"),
    (dict(one="Ann"), "Say One with exactly 1 card in hand: Ann has 5 cards."),
    (dict(kind="play", card="7H", player="Bob"), "It is Ann's turn, not Bob's."),
    (dict(kind="accept"), "There is no queen to answer"),
    (dict(kind="cannot_play"), "A player is out only when the stock is empty"),
])
def test_refusals_are_plain_422s_that_change_nothing(ann, db_path, fields, words):
    table_id = create(ann)
    before = snapshot(db_path)
    r = act(ann, table_id, **fields)
    body = r.get_data(as_text=True)
    assert r.status_code == 422, (r.status_code, text_of(body)[:300])
    assert words in text_of(body)
    assert snapshot(db_path) == before
    if fields.get("card"):                                         # what was typed comes back
        assert f'value="{html.escape(fields["card"])}"' in body


def test_rule_refusals_name_the_rule_and_keep_the_card(ann, db_path):
    table_id = create(ann)
    ok(act(ann, table_id, kind="play", card="KH"))                 # Bob owes K +2
    before = snapshot(db_path)
    r = act(ann, table_id, kind="play", card="7H")
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and "ROC-A8" in text_of(body)
    assert "Bob can only answer the K with a K or draw 2 cards, not play 7♥." in text_of(body)
    assert 'value="7H"' in body and snapshot(db_path) == before
    r = act(ann, table_id, kind="play", card="KH")                 # KH is on the tower already
    assert r.status_code == 422 and "already on the tower" in text_of(r.get_data(as_text=True))


def test_bon_when_the_table_plays_it(ann):
    table_id = create(ann, bon="on")
    page = ann.page(table_id)
    assert 'id="bon"' in page and "Bon (optional rule): Yes" in text_of(page)
    ok(act(ann, table_id, kind="play", card="7S"))                 # Ann → Bob
    page = ok(act(ann, table_id, kind="bon", bon_player="Cy", bon_cards="7H 7D", bon_onto="7S"))
    assert "Cy called Bon: 7♥, 7♦ on 7♠." in text_of(page) and hands(page)["Cy"] == 3
    assert turn(page) == "Your turn"                               # play goes on after Cy
    r = act(ann, table_id, kind="bon", bon_player="Bob", bon_cards="7C", bon_onto="7S")
    assert r.status_code == 422 and "2 or 3 cards" in text_of(r.get_data(as_text=True))


def test_another_players_move_is_folded_on_this_phone_when_they_have_a_phone(ann, new_phone):
    table_id = create(ann)
    path = ann.join_path(table_id)
    bob = new_phone("Bob")
    assert bob.join(path).status_code == 303 and bob.claim(table_id, 1).status_code == 303
    ok(act(ann, table_id, kind="play", card="5H"))                 # Bob's turn now
    folded = select(ann.page(table_id), 'details[class="rocca-move"]#rocca-move')
    assert folded and "open" not in folded[0].attrs
    assert "Bob’s move: tap to enter it for them" in text_of(ann.page(table_id))
    assert '<div class="rocca-move" id="rocca-move">' in bob.page(table_id)
    ok(act(ann, table_id, kind="draw"))                            # Ann may still enter it
    ann_page = ann.page(table_id)                                  # Cy has no phone: open
    assert select(ann_page, 'details[class="rocca-move"]#rocca-move[open]')
    assert turn(ann_page) == "Cy’s turn" and hands(ann_page)["Bob"] == 6


EMPTYING_QUEEN = [
    # (Bob's reply, fields, Ann's hand after it, what the screen says, whose turn)
    ("Bob takes the card", dict(kind="accept"), 0,
     "Bob took the cards, so Ann has none left, goes out and wins game 1.", "Ann won!"),
    ("Bob answers with a queen", dict(kind="play", card="QH"), 2,
     "Bob gives 2 cards to Ann, who may answer with a queen (giving 3 cards back) or "
     "accept.", "Your turn"),
]


@pytest.mark.parametrize("reply, fields, ann_hand, words, after", EMPTYING_QUEEN,
                         ids=[row[0] for row in EMPTYING_QUEEN])
def test_a_queen_that_empties_the_hand_leaves_the_give_open(ann, reply, fields, ann_hand,
                                                            words, after):
    """ROC-A12 on the table screen: Ann's queen gives her last card to Bob; Bob can still
    answer or take it, and Ann goes out only if he takes it. No One is asked (2 → 0).

    The seed: 「*他のプレイヤーからカードをおしつけられた時、あなたの手札にクイーンがあれば、それを場の
    クイーンの「顔」に重ねて置き、カードをわたしてきたプレイヤーに1+1=2枚のカードを手札からわたします。」
    and 「- 最初に手札がなくなった人が勝者です。」
    """
    table_id = create(ann, names=["Ann", "Bob"])
    for card in ("2S", "3S", "4S"):                                # Ann down to 2 cards
        ok(act(ann, table_id, kind="play", card=card))
        ok(act(ann, table_id, kind="draw"))                        # Bob draws
    page = ok(act(ann, table_id, kind="play", card="QS", to="Bob"))
    assert hands(page) == {"Ann": 0, "Bob": 9}
    assert turn(page) == "Bob’s turn" and "won" not in text_of(page, "#rocca-now")
    queen = text_of(page, "#queen")
    assert "Ann gave Bob 1 card." in queen and "ROC-A12" in queen
    assert ("Ann has no cards left, but the give is still open: Ann goes out and wins only "
            "if Bob takes the cards.") in queen
    assert text_of(page, "#status") == (
        "Bob answers Ann's queen with a queen (giving 2 cards) or takes the cards; Ann has "
        "no cards left and goes out if Bob takes them. ROC-A12")
    assert "Ann goes out and wins if Bob takes them." in text_of(page, "#last-line")
    assert "no queen back: Ann goes out and wins" in text_of(page, "#take-cards")
    assert 'id="play-card"' in page                                # Bob may still answer
    assert select(page, '[data-player="Ann"] [data-out-if-taken]')
    assert not select(page, '[data-player="Bob"] [data-out-if-taken]')

    page = ok(act(ann, table_id, **fields))
    assert hands(page)["Ann"] == ann_hand and words in text_of(page)
    assert after in turn(page)
    assert not select(page, "[data-out-if-taken]") and 'id="queen-open-out"' not in page


def test_a_table_of_eleven_players(ann):
    """ROC-A13: 2 to 11 players; 11 hands of 5 and the start card leave 4 in the stock.

    The seed: 「2人以上、7歳以上向き」, 「(計60枚)」 and 「- カードをシャッフルし、5枚ずつ配ります。」
    """
    form = ann.get("/new/rocca").get_data(as_text=True)
    assert "2–11 players" in text_of(form)
    assert 'name="name_10"' in form and 'name="name_11"' not in form
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai"]
    table_id = create(ann, names=names, starter="10")             # Kai starts game 1
    page = ann.page(table_id)
    assert hands(page) == dict.fromkeys(names, 5)
    assert "4 cards in the stock" in text_of(page) and turn(page) == "Kai’s turn"
    assert text_of(page, "p#turn-order") == " → ".join(names[10:] + names[:10])
    page = ok(act(ann, table_id, kind="play", card="QS", to="Fay"))   # Kai → Fay
    assert turn(page) == "Fay’s turn" and hands(page)["Fay"] == 6
    page = ok(act(ann, table_id, kind="accept"))
    assert turn(page) == "Your turn"                               # after Kai: Ann
    for name in names[:4]:                                         # the stock runs out
        page = ok(act(ann, table_id, kind="draw"))
    assert "stock empty" in text_of(page) and turn(page) == "Eve’s turn"


def test_spectators_see_the_referee_screen_without_buttons(ann, new_phone):
    table_id = create(ann)
    path = ann.join_path(table_id)
    sam = new_phone("Sam")
    assert sam.join(path).status_code == 303
    page = sam.page(table_id)
    assert "Ann’s turn" in text_of(page) and 'data-hand="Bob"' in page
    assert 'name="one"' not in page and 'id="entry-form"' not in page


# ---------------------------------------------------------------- the placement checker

@pytest.mark.parametrize("query, state, words, rule", [
    ("card=7H&onto=7S", {"profile": "free", "head": "no"}, "7♥ may go on the profile of 7♠.",
     "ROC-3"),
    ("card=kh&onto=KS", {"face": "free"}, "K♥ may go on the face of K♠.", "ROC-3"),
    ("card=7H&onto=9H", {"head": "free"}, "7♥ may go on the head of 9♥.", "ROC-3"),
    ("card=AH&onto=7S&part=profile", {"profile": "no"},
     "does not fit the profile of 7♠: the profile takes the same number (0 or 2–10). "
     "The A is a letter", "ROC-3"),
    ("card=9H&onto=9S&blocked=profile", {"profile": "blocked"},
     "but the table marked that blocked", "ROC-4"),
    ("card=9H&onto=9S&inactive=on", {}, "has a card on its head", "ROC-4"),
    ("card=7S&onto=9D&lock=H", {}, "A joker declared ♥ was played", "ROC-5"),
    ("card=7H&onto=JK&suit=H", {"head": "free"}, "it is the declared suit, ♥", "ROC-5"),
    ("card=JK&onto=QC", {"head": "free"}, "A joker may go on the head of any active card",
     "ROC-5"),
    ("card=7S&onto=JK&suit=H", {}, "Only a ♥ card or another joker", "ROC-5"),
])
def test_the_placement_checker_says_which_part_or_why_not(ann, query, state, words, rule):
    r = ann.get(f"/rocca/check?{query}&check=1")
    body = r.get_data(as_text=True)
    assert r.status_code == 200
    verdict = text_of(body, "div#verdict")
    assert words in verdict and rule in verdict
    for part, expected in state.items():
        assert f'data-part="{part}" data-state="{expected}"' in body
    if "lock=" in query:
        assert "Every other card on the tower is retired." in text_of(body)


@pytest.mark.parametrize("query, words", [
    ("card=ZZ&onto=7S&check=1", "“ZZ” is not a Rocca card"),
    ("card=7H&check=1", "Tap the card in your hand and the active card"),
    ("card=7H&onto=7S&part=hat&check=1", "Tap head, face or profile"),
    ("card=7H&onto=7S&blocked=hat&check=1", "Blocked parts are head, face or profile"),
    ("card=7H&onto=JK&check=1", "tap the suit it declared"),
    ("card=7H&onto=7S&lock=Z&check=1", "tap ♠, ♥, ♦ or ♣"),
    ("card=" + "7" * 5000 + "&onto=7S&check=1", "tap one card"),
    ("start=0H%200S", "tap one card"),
])
def test_the_checker_refuses_bad_input_with_a_plain_422(ann, query, words):
    r = ann.get(f"/rocca/check?{query}")
    body = r.get_data(as_text=True)
    assert r.status_code == 422
    alert = text_of(body, '[role="alert"]')
    assert words in alert and len(alert) < 300                     # no echo of a huge input


def test_the_start_card_check_and_the_rule_sheet(ann):
    body = text_of(ann.get("/rocca/check?start=KH").get_data(as_text=True))
    assert "K♥ is a letter card: shuffle again" in body and "ROC-2" in body
    body = text_of(ann.get("/rocca/check?start=7d").get_data(as_text=True))
    assert "7♦ is a number card: it is the start card." in body
    assert "Rule sheet" in body and rocca.RULES["ROC-A6"] in body
    for rid in ("ROC-A12", "ROC-A13"):                             # the readings chosen (docs/RULES.md)
        assert rid in body and rocca.RULES[rid] in body


def test_the_checker_links_back_to_the_table_only_with_a_plausible_id(ann):
    table_id = create(ann)
    body = ann.get(f"/rocca/check?table={table_id}").get_data(as_text=True)
    assert f'href="/t/{table_id}" id="back-to-table"' in body
    body = ann.get("/rocca/check?table=../../x").get_data(as_text=True)
    assert 'id="back-to-table"' not in body


# ---------------------------------------------------------------- Japanese

def test_japanese_by_accept_language(ann, db_path):
    table_id = create(ann)
    page = ann.page(table_id, headers=JA)
    assert '<html lang="ja">' in page
    shown = text_of(page)
    for words in ("ロッカ・カードタワー", "あなたの番", "Annがカードを出すか、1枚引きます。",
                  "山札44枚", "ワン！", "このカードを置いた", "1枚引いた", "ハウスルール",
                  'aria-current="true">日本語'):
        assert words in shown or words in page, words
    ok(act(ann, table_id, kind="play", card="KH", headers=JA))
    page = ok(act(ann, table_id, kind="play", card="KS", headers=JA))   # Bob stacks
    assert "合計4枚です。CyはKで応じるか、それを引かなければなりません。" in text_of(page)
    assert "K +4" in text_of(page) and "Cyの番" in text_of(page)
    before = snapshot(db_path)
    r = act(ann, table_id, kind="play", card="7H", headers=JA)
    assert r.status_code == 422 and snapshot(db_path) == before
    assert "CyはKにKで応じるか4枚引くことしかできず、7♥は出せません。" in text_of(
        r.get_data(as_text=True))
    r = act(ann, table_id, kind="play", card="", headers=JA)       # the adapter's own words
    assert r.status_code == 422 and "Cyが置いたカードをタップしてください" in text_of(
        r.get_data(as_text=True))
    history = text_of(ann.get(f"/t/{table_id}/history", headers=JA).get_data(as_text=True))
    assert "AnnがK♥を置いた" in history and "履歴" in history
    seats = ann.get(f"/t/{table_id}/seats", headers=JA).get_data(as_text=True)
    assert "あなたは誰？" in text_of(seats) and '<html lang="ja">' in seats


def test_japanese_placement_checker_and_rule_sheet(ann):
    body = text_of(ann.get("/rocca/check?card=AH&onto=7S&part=profile&check=1",
                           headers=JA).get_data(as_text=True))
    assert "A♥は7♠の横顔に合いません。横顔には同じ数字（0または2〜10）が必要です。" \
           "Aは文字で、数字の1ではありません。" in body
    body = text_of(ann.get("/rocca/check?card=9H&onto=9S&blocked=profile&check=1",
                           headers=JA).get_data(as_text=True))
    assert "9♥は9♠の横顔に合いますが" in body
    body = text_of(ann.get("/rocca/check?card=KH&onto=KS&check=1",
                           headers=JA).get_data(as_text=True))
    assert "K♥はK♠の顔に置けます。" in body and "ルール表" in body


def test_the_language_switch_sets_a_cookie_and_wins_over_the_browser(ann):
    table_id = create(ann)
    r = ann.get(f"/language?to=ja&next=/t/{table_id}")
    assert r.status_code == 303 and urlsplit(r.headers["Location"]).path == f"/t/{table_id}"
    assert ann.cookie("lang") == "ja"
    page = ann.page(table_id)                                      # no Accept-Language at all
    assert '<html lang="ja">' in page and "あなたの番" in text_of(page)
    switch = links(page, "#lang-switch a")
    assert any(f"to=en&next=/t/{table_id}" in href for href in switch), switch
    ann.get("/language?to=en&next=/")
    page = ann.page(table_id, headers=JA)                          # the choice beats the browser
    assert '<html lang="en">' in page and "Your turn" in text_of(page)


@pytest.mark.parametrize("query, status, location", [
    ("to=fr&next=/", 400, None),
    ("to=ja&next=//evil.example/x", 303, "/"),
    ("to=ja&next=https://evil.example/", 303, "/"),
    ("to=ja&next=/\\evil.example", 303, "/"),
    ("to=ja", 303, "/"),
])
def test_the_language_switch_refuses_odd_input(ann, query, status, location):
    r = ann.get(f"/language?{query}")
    assert r.status_code == status
    if location is None:
        assert "Pick English or 日本語" in text_of(r.get_data(as_text=True))
        assert ann.cookie("lang") is None
    else:
        assert r.headers["Location"] in (location, "http://localhost" + location)


def test_vary_says_the_language_comes_from_headers(ann):
    r = ann.get("/")
    assert "Accept-Language" in r.headers["Vary"] and "Cookie" in r.headers["Vary"]


# ---------------------------------------------------------------- the catalogue

def _catalogue():
    merged = None
    for folder in CATALOGUES:
        with open(folder / "messages.po", "rb") as fh:
            found = read_po(fh, locale="ja")
        if merged is None:
            merged = found
        else:
            for message in found:
                if message.id:
                    merged[message.id] = message
    return merged


def test_every_rocca_sentence_and_rule_has_a_japanese_translation_with_the_same_fields():
    catalogue = _catalogue()
    for context, table in (("rocca", rocca.MESSAGES), ("rocca-rule", rocca.RULES)):
        for key, english in table.items():
            message = catalogue.get(english, context=context)
            assert message is not None and message.string, (context, key)
            assert fields_of(message.string) == fields_of(english), key


def test_the_rocca_words_shown_through_tr_are_in_the_catalogue():
    """The game's name and its house rule come from the rules library (tr() in templates)."""
    catalogue = _catalogue()
    for text in [rocca.NAME] + [t for s in rocca.SETTINGS for t in (s.label, s.help)]:
        message = catalogue.get(text)
        assert message is not None and message.string, text


# The whole catalogue (every message has Japanese, no fuzzy entry, the .mo compiled from the
# .po): tests/web/test_web_japanese.py.


def test_rules_sentences_are_saids_that_rebuild_to_the_same_english():
    state = rocca.new({"bon": True}, NAMES)
    for action in ({"kind": "play", "player": "Ann", "card": "AH"},
                   {"kind": "play", "player": "Ann", "card": "KH"},
                   {"kind": "play", "player": "Bob", "card": "KS"},
                   {"kind": "draw", "player": "Cy"},
                   {"kind": "play", "player": "Ann", "card": "QH", "to": "Bob"}):
        state = rocca.apply(state, action)
    summary = rocca.summary(state)
    texts = [line["text"] for line in summary["lines"]] + [summary["status"]["text"]]
    texts.append(rocca.check_placement("AH", "7S", "profile").reason)
    texts.append(rocca.check_placement("9H", "9S", blocked=["face"]).reason)
    for text in texts:
        assert isinstance(text, Said)
        assert rebuild(text, lambda context, template: template) == str(text)
        assert copy.deepcopy(text) is text and pickle.loads(pickle.dumps(text)) == text
        assert rebuild(pickle.loads(pickle.dumps(text)), lambda c, t: t) == str(text)
    with pytest.raises(rocca.RuleError) as refused:
        rocca.apply(state, {"kind": "draw", "player": "Cy"})
    assert isinstance(refused.value.args[0], Said)


# ---------------------------------------------------------------- its Japanese tour
# Every screen of the game in Japanese, after these taps (tests/web/test_web_japanese.py).

JAPANESE = Tour("rocca", ["Ann", "Bob", "Cy"], table={"bon": "on"}, steps=[
    Step(dict(kind="play", card="KH")),
    Step(dict(kind="play", card="KS")),                  # Bob stacks a K
    Step(dict(kind="play", card="7H"), 422),             # Cy must answer the K or draw
    Step(dict(kind="draw")),
    Step(dict(kind="play", card="JK", suit="H")),        # a joker: the lock
], tools=["/rocca/check?card=7H&onto=7S&check=1&start=5D",
          "/rocca/check?card=AH&onto=7S&part=profile&check=1",
          "/rocca/check?card=ZZ&onto=7S&check=1"])
