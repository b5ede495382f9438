"""Entering rounds, the end of a game, rematch, undo and striking entries, the history."""
from __future__ import annotations


import pytest
from helpers import attr, form_block, forms, inputs, select, select_one, text_of, totals
from web_helpers import count, db_rows, round_rows, seq_saved, snapshot


def test_a_round_shows_in_every_phones_sheet(table, db_path):
    r = table.host.enter(table.id, {0: 12, 1: -5})  # Cy: the helper types 0 in her box
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="play"') and "<html" not in body
    assert "Saved as entry #" in text_of(body)
    assert totals(body) == {"Ann": 12, "Bob": -5, "Cy": 0}
    for phone in (table.host, table.bob):
        page = phone.page(table.id)
        assert totals(page) == {"Ann": 12, "Bob": -5, "Cy": 0}
        assert round_rows(page) == 1
        assert "Round 2" in text_of(page)  # the entry form moved on
    assert db_rows(db_path, "SELECT seat, kind, payload FROM actions WHERE kind = 'game'") == [
        (0, "game", '{"kind": "round", "scores": {"Ann": 12, "Bob": -5, "Cy": 0}}')]
    table.bob.enter(table.id, {0: "3", 1: "−2", 2: " 1 0 "})  # a typographic minus, spaces
    assert totals(table.host.page(table.id)) == {"Ann": 15, "Bob": -7, "Cy": 10}


def test_plain_form_post_without_htmx_redirects_to_the_page(table):
    r = table.host.enter(table.id, {0: 4}, hx=False)
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table.id}")
    assert totals(table.host.page(table.id))["Ann"] == 4


def test_game_over_banner_winners_and_rematch_keeps_seats(table, db_path):
    table.host.enter(table.id, {0: 30, 1: 20})
    r = table.bob.enter(table.id, {0: 10, 1: 35, 2: 5})  # Bob 55 >= target 50
    body = r.get_data(as_text=True)
    assert r.status_code == 200
    assert 'id="game-over"' in body
    banner = text_of(body, "div#game-over")
    assert "Game over — winner: Bob" in banner
    assert "Bob reached 55 (target 50)" in banner
    assert 'id="entry-form"' not in body and 'id="rematch"' in body
    assert db_rows(db_path, "SELECT status FROM tables") == [("over",)]
    # No more rounds once the game is over.
    before = count(db_path, "actions")
    page = table.host.page(table.id)
    version = attr(page, "[data-version]", "data-version")
    r = table.host.post(f"/t/{table.id}/actions", {"sid": "late", "version": version,
                                                  "score_0": "1", "score_1": "0",
                                                  "score_2": "0"}, hx=True)
    assert r.status_code == 409 and "This game is over" in text_of(r.get_data(as_text=True))
    assert count(db_path, "actions") == before
    # Rematch: totals back to zero, same seats, game 2, the old game kept.
    rematch = inputs(form_block(page, "/rematch"))
    r = table.host.post(f"/t/{table.id}/rematch", {"sid": rematch["sid"]}, hx=True)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert "A new game has started" in text_of(body)
    assert totals(body) == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert 'id="game-over"' not in body and 'id="entry-form"' in body
    assert "Earlier games (1)" in text_of(body) and "Bob — Ann 40, Bob 55, Cy 5" in text_of(body)
    for phone, name in ((table.host, "Ann"), (table.bob, "Bob")):
        page = phone.page(table.id)
        assert f"You are {name}" in text_of(page) and "Game 2" in text_of(page)
    assert db_rows(db_path, "SELECT status FROM tables") == [("playing",)]
    assert db_rows(db_path, "SELECT seat FROM phones ORDER BY seat") == [(0,), (1,)]
    assert table.bob.enter(table.id, {1: 1}).status_code == 200


def test_shared_win_on_tied_target(table):
    table.host.enter(table.id, {0: 50, 1: 50})
    body = table.bob.page(table.id)
    assert "Game over — shared win: Ann & Bob" in text_of(body)


def test_rematch_before_game_over_is_refused(table, db_path):
    table.host.enter(table.id, {0: 10})
    before = snapshot(db_path)
    r = table.host.post(f"/t/{table.id}/rematch", {"sid": "too-early"}, hx=True)
    assert r.status_code == 409
    assert "The game is still going" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before


def test_undo_last_restores_totals_and_game_state(table, db_path):
    table.host.enter(table.id, {0: 10, 1: 5})
    r = table.bob.enter(table.id, {0: 1, 1: 60})  # Bob wins
    seq = seq_saved(r)
    page = table.host.page(table.id)
    assert 'id="game-over"' in page
    undo_form = inputs(form_block(page, 'class="undo"'))
    assert undo_form["target"] == str(seq)
    assert "Undo last entry" in text_of(page) and f"#{seq} by Bob" in text_of(page)
    r = table.host.undo(table.id, seq, sid=undo_form["sid"])
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert f"Entry #{seq} was struck" in text_of(body)
    assert totals(body) == {"Ann": 10, "Bob": 5, "Cy": 0}
    assert 'id="game-over"' not in body and 'id="entry-form"' in body
    assert db_rows(db_path, "SELECT status FROM tables") == [("playing",)]
    # Nothing was deleted: the entry is still in the log, marked undone by the undo action.
    rows = db_rows(db_path, "SELECT seq, kind, undone_by, seat FROM actions WHERE kind IN ('game', 'undo')"
                            " ORDER BY seq")
    undo_seq = rows[-1][0]
    assert rows == [(seq - 1, "game", None, 0), (seq, "game", undo_seq, 1), (undo_seq, "undo", None, 0)]
    # A repeated tap of the same undo is harmless.
    r = table.host.undo(table.id, seq, sid=undo_form["sid"])
    assert r.status_code == 200 and "already struck (a repeated tap)" in text_of(r.get_data(as_text=True))
    assert count(db_path, "actions", "kind = 'undo'") == 1


def test_strike_an_earlier_entry_from_history(table, db_path):
    first = seq_saved(table.host.enter(table.id, {0: 10, 1: 1}))
    table.bob.enter(table.id, {0: 2, 1: 20})
    third = seq_saved(table.host.enter(table.id, {2: 7}))
    history = table.bob.get(f"/t/{table.id}/history").get_data(as_text=True)
    strike = inputs(strike_form(history, first))
    assert strike["target"] == str(first) and strike["from"] == "history"
    r = table.bob.post(f"/t/{table.id}/undo", {k: strike[k] for k in ("sid", "target", "from")},
                       hx=True)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="history"')
    assert f"Entry #{first} was struck" in text_of(body)
    select_one(body, f"#action-{first}")
    assert attr(body, f"#action-{first}", "class") == "h-game struck"
    assert f"struck by #{third + 1}" in text_of(body)
    assert totals(table.host.page(table.id)) == {"Ann": 2, "Bob": 20, "Cy": 7}
    # The plain (non-htmx) form goes back to the history page.
    history = table.bob.get(f"/t/{table.id}/history").get_data(as_text=True)
    strike = inputs(strike_form(history, third))
    r = table.bob.post(f"/t/{table.id}/undo", {k: strike[k] for k in ("sid", "target", "from")})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table.id}/history")
    assert totals(table.host.page(table.id)) == {"Ann": 2, "Bob": 20, "Cy": 0}


def strike_form(history_page: str, seq: int) -> str:
    for form in forms(history_page):
        if str(seq) in [i.get("value") for i in form.select('input[name="target"]')]:
            return form.html
    raise AssertionError(f"no strike form for #{seq}")


def test_history_lists_every_entry_and_undo_with_who(table):
    a = seq_saved(table.host.enter(table.id, {0: 10, 1: 5}))
    b = seq_saved(table.bob.enter(table.id, {0: 1, 2: -4}))
    sid = inputs(form_block(table.bob.page(table.id), 'class="undo"'))["sid"]
    table.bob.undo(table.id, b, sid=sid)
    r = table.host.get(f"/t/{table.id}/history")
    assert r.status_code == 200 and "<html" in r.get_data(as_text=True)
    page = r.get_data(as_text=True)
    items = {int(li.id.removeprefix("action-")): li.text
             for li in select(page, 'li[class][id^="action-"]')}
    assert f"#{a}" in items[a] and "Ann" in items[a] and "Round: Ann +10, Bob +5" in items[a]
    assert "Bob" in items[b] and "Round: Ann +1, Bob 0, Cy -4" in items[b]
    assert f"struck by #{b + 1}" in items[b]
    assert "Bob" in items[b + 1] and f"Undid entry #{b}" in items[b + 1]
    # Seat events are there too, with who did them.
    assert any("Took the seat Bob" in text for text in items.values())
    # Every action in the log is listed (nothing is hidden or deleted).
    assert sorted(items) == list(range(1, b + 2))
    # As a fragment for htmx.
    frag = table.host.get(f"/t/{table.id}/history", hx=True).get_data(as_text=True)
    assert frag.lstrip().startswith('<section id="history"') and "<html" not in frag


def test_undoing_an_already_undone_entry_names_who_undid_it(table, db_path):
    seq = seq_saved(table.host.enter(table.id, {0: 10}))
    page_ann = table.host.page(table.id)  # Ann's page still offers to undo #seq
    sid_bob = inputs(form_block(table.bob.page(table.id), 'class="undo"'))["sid"]
    assert table.bob.undo(table.id, seq, sid=sid_bob).status_code == 200
    before = snapshot(db_path)
    sid_ann = inputs(form_block(page_ann, 'class="undo"'))["sid"]
    r = table.host.undo(table.id, seq, sid=sid_ann)
    assert r.status_code == 409
    assert f"Entry #{seq} was already undone by Bob." in text_of(r.get_data(as_text=True))
    r = table.host.undo(table.id, seq, sid="from-history-1", from_history=True)
    assert r.status_code == 409
    assert f"Entry #{seq} was already undone by Bob." in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before


def test_undo_of_nothing_or_a_seat_event_is_refused(table, db_path):
    before = snapshot(db_path)
    seat_seq = db_rows(db_path, "SELECT MIN(seq) FROM actions WHERE kind = 'seat'")[0][0]
    for target in (999, 0, -1, seat_seq):
        r = table.host.undo(table.id, target, sid=f"u{target}")
        assert r.status_code == 404
        assert f"There is no entry #{target} to undo" in text_of(r.get_data(as_text=True))
    for junk in ("abc", "", "1.0"):
        r = table.host.post(f"/t/{table.id}/undo", {"sid": "j", "target": junk}, hx=True)
        assert r.status_code == 400
    assert snapshot(db_path) == before


def test_finish_by_hand_when_no_end_is_set(new_phone):
    ann = new_phone("Ann")
    table_id = ann.create_table(["Ann", "Bob"], low_wins="on")
    page = ann.page(table_id)
    assert "Finish the game now" not in page  # not before a round
    ann.enter(table_id, {0: 3, 1: 8})
    page = ann.page(table_id)
    finish = inputs(form_block(page, 'class="finish"'))
    entry = inputs(form_block(page, 'id="entry-form"'))
    assert finish["sid"] != entry["sid"]
    r = ann.post(f"/t/{table_id}/actions", {k: finish[k] for k in ("sid", "version", "kind")}, hx=True)
    assert r.status_code == 200
    assert "Game over — winner: Ann" in text_of(r.get_data(as_text=True))  # lowest total wins


def test_striking_an_entry_that_later_ones_depend_on_is_refused(table, db_path):
    """Target 50: Ann -20 then +60 (40, still playing), Bob +5. Striking the -20 would end
    the game at the +60 round, so Bob's later round could not have been entered."""
    first = seq_saved(table.host.enter(table.id, {0: -20}))
    table.host.enter(table.id, {0: 60})
    table.bob.enter(table.id, {1: 5})
    before = snapshot(db_path)
    r = table.bob.undo(table.id, first, sid="strike-first", from_history=True)
    assert r.status_code == 422
    text = text_of(r.get_data(as_text=True))
    assert f"Entry #{first} can't be struck" in text and "Undo the later ones first" in text
    assert snapshot(db_path) == before
    assert totals(table.host.page(table.id)) == {"Ann": 40, "Bob": 5, "Cy": 0}


def test_spectators_can_neither_undo_nor_rematch(table, new_phone, db_path):
    seq = seq_saved(table.host.enter(table.id, {0: 60}))
    sam = new_phone("Sam")
    sam.join(table.join_path)
    page = sam.page(table.id)
    assert 'class="undo"' not in page and "/rematch" not in page
    history = sam.get(f"/t/{table.id}/history").get_data(as_text=True)
    assert "Strike #" not in history and f'id="action-{seq}"' in history
    before = snapshot(db_path)
    r = sam.undo(table.id, seq, sid="sam-undo")
    assert r.status_code == 403
    r = sam.post(f"/t/{table.id}/rematch", {"sid": "sam-rematch"}, hx=True)
    assert r.status_code == 403
    assert "Spectators can watch" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before


# ---------------------------------------------------------------- a score far beyond the target
# The score pad asks once before a round with an implausible score ends the game
# (companion/web/games/scorepad.py): more than twice the target, or, from the third round on,
# more than 3x the biggest earlier round score. The table's target is 50.

def test_a_score_far_beyond_the_target_asks_before_it_ends_the_game(table, db_path):
    table.host.enter(table.id, {0: 10, 1: 5})
    before = snapshot(db_path)
    form = table.bob.entry_form(table.id)
    r = table.bob.enter(table.id, {0: 250, 1: 7}, form=form)  # a typo for 25
    assert r.status_code == 422
    text = text_of(r.get_data(as_text=True))
    assert "Ann's 250 would end the game (target 50). Save anyway?" in text
    assert snapshot(db_path) == before                      # nothing saved
    body = r.get_data(as_text=True)
    assert 'id="game-over"' not in body
    # The form comes back with the typed boxes and a "Save anyway" button after Save.
    again = inputs(form_block(body, 'id="entry-form"'))
    assert again["score_0"] == "250" and again["score_1"] == "7"
    anyway = select_one(body, "#save-anyway")
    assert anyway.attrs["name"] == "confirm" and anyway.attrs["value"] == "end"
    assert body.index('id="save-round"') < body.index('id="save-anyway"')  # Enter = Save
    # Confirmed: the same boxes with the flag end the game.
    r = table.bob.enter(table.id, {0: 250, 1: 7}, form=again, extra={"confirm": "end"})
    assert r.status_code == 200
    banner = text_of(r.get_data(as_text=True), "div#game-over")
    assert "Ann reached 260 (target 50)" in banner
    assert totals(table.host.page(table.id)) == {"Ann": 260, "Bob": 12, "Cy": 0}


def test_a_corrected_score_saves_without_a_question(table):
    table.host.enter(table.id, {0: 10, 1: 5})
    r = table.bob.enter(table.id, {0: 250})
    assert r.status_code == 422 and "Save anyway?" in text_of(r.get_data(as_text=True))
    again = inputs(form_block(r.get_data(as_text=True), 'id="entry-form"'))
    r = table.bob.enter(table.id, {0: 25}, form=again)
    assert r.status_code == 200 and "Saved as entry #" in text_of(r.get_data(as_text=True))
    assert 'id="save-anyway"' not in r.get_data(as_text=True)
    assert totals(r.get_data(as_text=True))["Ann"] == 35


def test_several_players_far_beyond_are_named_in_one_question(table):
    r = table.host.enter(table.id, {0: 101, 1: 300, 2: 100})
    assert r.status_code == 422
    assert ("Ann's 101 and Bob's 300 would end the game (target 50). Save anyway?"
            in text_of(r.get_data(as_text=True)))                 # Cy's 100 is not > 2x50


def test_three_times_the_biggest_earlier_score_asks_from_round_three(table, db_path):
    table.host.enter(table.id, {0: 8, 1: 6})
    table.host.enter(table.id, {0: 12, 1: 4})                      # biggest so far: 12
    before = snapshot(db_path)
    r = table.bob.enter(table.id, {1: 40})                          # Bob 50: 40 > 3x12
    assert r.status_code == 422
    assert "Bob's 40 would end the game (target 50)" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before
    assert table.bob.enter(table.id, {1: 36}).status_code == 200    # 36 = 3x12: plausible


@pytest.mark.parametrize("scores", [
    {0: 30, 1: 20},            # nobody reaches the target: no question however big
    {0: 100},                  # 2x the target exactly, first round: plausible
    {0: 10, 1: 60},            # past the target with less than 2x it
])
def test_plausible_rounds_are_saved_at_once(table, scores):
    r = table.host.enter(table.id, scores)
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:300]
    assert 'id="save-anyway"' not in r.get_data(as_text=True)


def test_no_question_without_a_target_or_with_a_refused_box(new_phone):
    ann = new_phone("Ann")
    table_id = ann.create_table(["Ann", "Bob"], me=0)              # no target
    assert ann.enter(table_id, {0: 5000}).status_code == 200
    capped = new_phone("Cy")
    table_id = capped.create_table(["Ann", "Bob"], me=0, target=10)
    r = capped.enter(table_id, {0: 250, 1: "x"})                    # a bad box says so first
    assert r.status_code == 422
    text = text_of(r.get_data(as_text=True))
    assert "Bob's score must be a whole number" in text and "Save anyway" not in text


def test_the_score_pad_in_japanese(table):
    """On a Japanese phone the sheet, the form, the refusals, the "Save anyway?"
    question, the end of the game and the history are Japanese; names and numbers stay."""
    phone = table.host
    phone.client.set_cookie("lang", "ja")
    r = phone.enter(table.id, {0: "12a"})
    assert r.status_code == 422
    shown = text_of(r.get_data(as_text=True))
    assert "Annのスコアは12や-5のような整数で入力してください。" in shown
    phone.enter(table.id, {0: 30, 1: 20})
    page = text_of(phone.enter(table.id, {0: 5, 1: 10}).get_data(as_text=True))
    assert "ラウンド3を保存" in page and "ラウンド3" in page
    assert "合計 SP-1" in page and "トップ： Ann (35) SP-4" in page
    assert "誰かが50に達したら終了。合計が一番高い人の勝ち。 SP-2" in page
    r = phone.enter(table.id, {0: 1, 1: 200})                      # far beyond the target
    assert r.status_code == 422
    question = text_of(r.get_data(as_text=True))
    assert "Bobの200でゲームが終わります（目標50）。このまま保存しますか？" in question
    assert "このまま保存" in question and "このラウンドでゲームが終わります。" in question
    r = phone.enter(table.id, {0: 1, 1: 25})
    over = text_of(r.get_data(as_text=True), "div#game-over")
    assert "Bobが55に到達（目標50）。 SP-2" in over
    history = text_of(phone.get(f"/t/{table.id}/history").get_data(as_text=True))
    assert "ラウンド：Ann +30, Bob +20" in history and "ラウンド：Ann +1, Bob +25" in history
    for english in ("Round", "Total", "Leading", "Save round 3", "Bob reached 55 (target 50)",
                    "would end the game", "Save anyway", "must be a whole number",
                    "Ends when someone reaches", "No rounds yet"):
        assert english not in shown + page + question + over + history, english
