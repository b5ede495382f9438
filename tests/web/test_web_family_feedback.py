"""Honest feedback at the table: every answer says what was saved or struck in the game's own
words (GameUI.entry_words), the taps that undo or end something ask first
(templates/_ask.html), "Earlier games" names the teams and dates each game (the one just
finished included), and a Rook rematch passes the deal on (RULES.md §RK-3)."""
from __future__ import annotations

import re

import pytest

from helpers import attr, form_block, inputs, select, select_one, text_of
from web_helpers import Phone, create_game_table

FOUR = ["Ann", "Bob", "Cid", "Dee"]
THREE = ["Ann", "Bob", "Cy"]


def act(phone: Phone, table_id: str, **fields):
    """Save the entry form as it stands now with these fields."""
    form = inputs(form_block(phone.page(table_id), 'id="entry-form"'))
    data = {"sid": form["sid"], "version": form["version"]}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


def said(response) -> str:
    """The answer's words (the bold first line of the notice) and its reference line."""
    body = response.get_data(as_text=True)
    assert response.status_code == 200, text_of(body)[:600]
    return text_of(body, "b.said") + " | " + text_of(body, "span.ref")


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


# One row per game: the table, the entries before, the entry, and how its answer reads.
GAMES = [
    ("scorepad", THREE, {}, [], dict(score_0=12, score_1=-5, score_2=0),
     "Round 1: Ann +12, Bob -5, Cy 0"),
    ("rook", FOUR, {}, [], dict(bidder="Ann", bid=150, points_A=175),
     "Hand 1: Ann bid 150 and made it: Ann & Cid +175, Bob & Dee +75."),
    ("rook", FOUR, {}, [], dict(kind="redeal"), "Everyone passed on Ann's deal: Bob deals next."),
    ("rainbow_rummy", FOUR, {}, [dict(kind="dealer", dealer="0")],
     dict(kind="hand", went_out="2", hand_0="7E SJ", down_0="3M", hand_1="GN 1S",
          down_1="5E 6J", down_2="MV", hand_3="2N", down_3="SE"),
     "Hand 1: Cid went out."),
    ("rockit", THREE, {}, [], dict(kind="come_in", player="Ann", cards="2S 2H 2D"),
     "Ann came in:"),
    ("rocca", THREE, {}, [], dict(kind="play", card="5H"), "Ann placed"),
    ("zocknroll", FOUR, {}, [], dict(kind="roll", white="2 2 5"), "2, 2, 5"),
]


@pytest.mark.parametrize("slug, names, settings, before, entry, words", GAMES,
                         ids=[f"{g[0]}-{i}" for i, g in enumerate(GAMES)])
def test_a_save_says_what_was_saved_in_the_games_words(ann, slug, names, settings, before,
                                                        entry, words):
    table_id = create_game_table(ann, slug, names, **settings)
    for fields in before:
        assert act(ann, table_id, **fields).status_code == 200
    answer = said(act(ann, table_id, **entry))
    shown, ref = answer.split(" | ")
    assert words in shown, answer
    # The history's reference stays below, in small print.
    assert re.fullmatch(r"Saved as entry #\d+\.", ref), answer


def test_a_strike_says_which_round_and_its_values(table):
    table.host.enter(table.id, {0: 12, 1: -5, 2: 0})
    table.host.enter(table.id, {0: 7, 1: 3, 2: 1})
    history = table.host.get(f"/t/{table.id}/history").get_data(as_text=True)
    # Each live round's Strike button names it; its question repeats the values first.
    first = int(re.search(r'id="strike-(\d+)"[^>]*>Strike Round 1<', history).group(1))
    assert re.search(r'id="strike-\d+"[^>]*>Strike Round 2<', history)
    form = next(f for f in select(history, "form") if f'value="{first}"' in f.html)
    question = form.attrs["hx-confirm"]
    assert question.startswith("Round 1: Ann +12, Bob -5, Cy 0\n\nStrike entry #")
    r = table.host.undo(table.id, first, sid="strike-1", from_history=True)
    assert said(r) == f"Round 1: Ann +12, Bob -5, Cy 0 | Entry #{first} was struck."
    # The round left is round 1 now; the struck one has no button but Restore.
    history = r.get_data(as_text=True)
    assert "Strike Round 2" not in history and "Strike Round 1" in history
    restore = int(re.search(r'id="restore-(\d+)"', history).group(1))
    assert restore == first
    strike = max(int(n) for n in re.findall(r'name="target" value="(\d+)"', history))
    r = table.host.undo(table.id, strike, sid="restore-1", from_history=True)
    assert said(r) == f"Round 1: Ann +12, Bob -5, Cy 0 | Entry #{first} is back on the sheet."


# ---------------------------------------------------------------- asking first

def test_undo_last_asks_first_naming_the_hand(ann):
    table_id = create_game_table(ann, "rook", FOUR)
    act(ann, table_id, bidder="Ann", bid=150, points_A=175)
    page = ann.page(table_id)
    box = select_one(page, "details#undo-last-box")
    assert "open" not in box.attrs                      # the first tap only opens it
    assert text_of(box.html, "summary#undo-last-ask") == "↶ Undo last entry"
    question = text_of(box.html, ".ask-question")
    assert question == ("Undo this entry? Hand 1: Ann bid 150 and made it: Ann & Cid +175, "
                        "Bob & Dee +75.")
    assert text_of(box.html, "button#undo-last") == "Yes, undo it"
    # The redeal asks too, and sits in the hand's card, apart from the undo (another part).
    redeal = select_one(page, "details#redeal-box")
    assert "Nobody bid on Bob’s deal?" in text_of(redeal.html, ".ask-question")
    assert text_of(redeal.html, "button#redeal") == "Yes, redeal"
    assert "redeal-box" in text_of(page, "section#entry") or \
        'id="redeal-box"' in select_one(page, "section#entry").html
    assert 'id="undo-last-box"' not in select_one(page, "section#entry").html
    # The second tap sends it: the answer says what was undone.
    form = inputs(form_block(page, 'class="undo"'))
    r = ann.post(f"/t/{table_id}/undo", {"sid": form["sid"], "target": form["target"]}, hx=True)
    assert said(r) == ("Hand 1: Ann bid 150 and made it: Ann & Cid +175, Bob & Dee +75. | "
                       f"Entry #{form['target']} was struck.")


def test_finishing_a_score_pad_asks_first(ann):
    table_id = create_game_table(ann, "scorepad", THREE)
    assert 'id="finish-game-box"' not in ann.page(table_id)       # not before a round
    act(ann, table_id, score_0=3, score_1=1, score_2=2)
    page = ann.page(table_id)
    box = select_one(page, "details#finish-game-box")
    assert text_of(box.html, "summary") == "Finish the game now"
    assert text_of(box.html, "button#finish-game") == "Yes, finish the game"
    form = inputs(form_block(box.html, 'class="finish"'))
    assert form["kind"] == "finish"
    r = ann.post(f"/t/{table_id}/actions", {k: form[k] for k in ("sid", "version", "kind")},
                 hx=True)
    assert "Finished the game by hand" in said(r)


def test_a_rematch_says_how_to_take_it_back(table):
    table.host.enter(table.id, {0: 60})
    page = table.host.page(table.id)
    r = table.host.post(f"/t/{table.id}/rematch",
                        {"sid": inputs(form_block(page, "/rematch"))["sid"]}, hx=True)
    body = text_of(r.get_data(as_text=True))
    assert "A new game has started. Good luck! Started by mistake? “Undo last entry” takes " \
           "it back." in body
    # ...and the undo names the rematch.
    page = table.host.page(table.id)
    assert text_of(page, "details#undo-last-box .ask-question") == \
        "Undo this entry? The rematch (a new game)"


# ---------------------------------------------------------------- earlier games

def test_earlier_games_name_the_teams_date_each_game_and_list_the_one_just_finished(ann):
    table_id = create_game_table(ann, "rook", FOUR, target=200)
    act(ann, table_id, bidder="Ann", bid=150, points_A=200)             # Ann & Cid win
    page = ann.page(table_id)
    earlier = text_of(page, "details.past")
    assert re.fullmatch(r"Earlier games \(1\) Game 1 · \d{4}-\d\d-\d\d \d\d:\d\d · just "
                        r"finished Ann & Cid — Ann & Cid 200, Bob & Dee 50", earlier), earlier
    assert "A 200" not in earlier
    r = ann.post(f"/t/{table_id}/rematch", {"sid": inputs(form_block(page, "/rematch"))["sid"]},
                 hx=True)
    earlier = text_of(r.get_data(as_text=True), "details.past")
    assert re.fullmatch(r"Earlier games \(1\) Game 1 · \d{4}-\d\d-\d\d \d\d:\d\d Ann & Cid — "
                        r"Ann & Cid 200, Bob & Dee 50", earlier), earlier
    # The history names the teams too.
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "Hand: Ann bid 150; points Ann & Cid 200, Bob & Dee 50" in history


def test_a_rook_rematch_passes_the_deal_on(ann):
    """RULES.md §RK-3: deal and dealer rotate clockwise, from game to game as from deal to
    deal: game 1 had two deals (Ann's redeal, Bob's hand), so Cid deals game 2 first."""
    table_id = create_game_table(ann, "rook", FOUR, target=200)
    act(ann, table_id, kind="redeal")
    act(ann, table_id, bidder="Bob", bid=150, points_B=200)
    page = ann.page(table_id)
    r = ann.post(f"/t/{table_id}/rematch", {"sid": inputs(form_block(page, "/rematch"))["sid"]},
                 hx=True)
    body = r.get_data(as_text=True)
    assert "dealer: Cid" in text_of(body, ".dealer-line")
    # The first deal of game 2 is Cid's: a redeal there says so, and Dee deals next.
    said_now = said(act(ann, table_id, kind="redeal"))
    assert "Everyone passed on Cid's deal: Dee deals next." in said_now


@pytest.mark.parametrize("names, deals, first", [
    (FOUR, ["hand"], "Bob"),                        # one deal by Ann: Bob deals next
    (FOUR, ["redeal", "hand"], "Cid"),              # Ann's redeal, Bob's hand
    (FOUR, ["hand"] * 4, "Ann"),                    # round the table and back to Ann
    (FOUR + ["Eve", "Fay"], ["hand"] * 5, "Fay"),   # six players: the sixth seat
])
def test_rook_next_game_starts_with_the_next_dealer(names, deals, first):
    """RULES.md §RK-3 (deal and dealer rotate clockwise), across a rematch: the rules'
    next_game reads who deals next off the finished game's summary."""
    from companion.rules import rook

    state = rook.new({"target": 100_000}, names)
    for kind in deals:
        action = ({"kind": "redeal"} if kind == "redeal" else
                  {"kind": "hand", "bidder": names[0], "bid": 150, "points": {"A": 200, "B": 50}})
        state = rook.apply(state, action)
    after = rook.GAME.start_after({"target": 100_000}, names, rook.summary(state))
    assert rook.summary(after)["dealer"] == first
    assert rook.summary(after)["hands"] == []
    # The table's first game starts with the first seat, as before.
    assert rook.summary(rook.GAME.start_after({}, names, None))["dealer"] == "Ann"
