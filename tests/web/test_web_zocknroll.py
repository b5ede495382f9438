"""Zock'n'Roll through the Flask test client: the guided turn, paper mode, refusals."""
from __future__ import annotations

import pytest

from helpers import attr, form_block, inputs, text_of
from japanese_tour import Step, Tour
from web_helpers import Phone, create_game_table, db_rows, seq_saved, snapshot

NAMES = ["Ann", "Bob", "Cid"]


# One guided turn with Jörg, after the dealer's first roll (2 2 5): Bob drops in round 1,
# Ann in round 2, Cid and Jörg reveal in round 3.
AFTER_THE_FIRST_ROLL = [dict(kind="drop", player="Bob", own="26"),
                        dict(kind="stay", player="Cid"), dict(kind="stay", player="Ann"),
                        dict(kind="roll", white="4"), dict(kind="stay", player="Cid"),
                        dict(kind="drop", player="Ann", own="5,5"), dict(kind="roll", white="5"),
                        dict(kind="reveal", player="Cid", own="1 3"),
                        dict(kind="reveal", player="Jörg", own="6 6")]


def create(phone: Phone, names=NAMES, **fields) -> str:
    return create_game_table(phone, "zocknroll", names, **fields)


def act(phone: Phone, table_id: str, **fields):
    """Press a button of the entry form as it stands now (its sid and version)."""
    form = inputs(form_block(phone.page(table_id), 'id="entry-form"'))
    data = {"sid": form["sid"], "version": form["version"]}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


def test_a_guided_turn_with_jorg(ann):
    table_id = create(ann)
    page = text_of(ann.page(table_id))
    assert "You deal: roll 3 white dice" in page and "Jörg" in page
    steps = [dict(kind="roll", white="2 2 5")] + AFTER_THE_FIRST_ROLL
    for step in steps:
        r = act(ann, table_id, **step)
        assert r.status_code == 200, text_of(r.get_data(as_text=True))[:400]
    page = text_of(ann.page(table_id))
    assert "Cid wins round 3 with Large Straight" in page
    assert "Turn 2 · dealer Bob" in page
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "White dice: 2, 2, 5" in history and "Jörg reveals 6, 6" in history


@pytest.mark.parametrize("fields, words", [
    (dict(kind="roll", white=""), "Tap the white dice"),
    (dict(kind="roll", white="2 2 9"), "numbers from 1 to 6"),
    (dict(kind="roll", white="2 2"), "3 white dice"),
    (dict(kind="roll", white="1" * 50), "numbers from 1 to 6"),
    (dict(kind="stay", player="Bob"), "rolls the white dice first"),
    (dict(kind="stay", player="Zed"), "Tap whose turn"),
    (dict(kind="fly"), "Tap one of the buttons"),
    (dict(mark="pair", player="Ann", round="1"), None),   # allowed: paper taps still work
])
def test_refusals_are_plain_422s_that_change_nothing(ann, fields, words):
    table_id = create(ann)
    before = ann.page(table_id)
    r = act(ann, table_id, **fields)
    if words is None:
        assert r.status_code == 200
        return
    assert r.status_code == 422, r.status_code
    assert words in text_of(r.get_data(as_text=True))
    version = attr(before, "[data-version]", "data-version")
    assert f'data-version="{version}"' in ann.page(table_id)


def test_typed_dice_with_stay_are_not_silently_dropped(ann):
    table_id = create(ann)
    act(ann, table_id, kind="roll", white="123")
    r = act(ann, table_id, kind="stay", player="Bob", own="4 4")
    assert r.status_code == 422
    assert "press Drop out" in text_of(r.get_data(as_text=True))


def test_rule_refusals_name_the_rule(ann):
    table_id = create(ann)
    act(ann, table_id, kind="roll", white="1 2 3")
    r = act(ann, table_id, kind="roll", white="4")
    body = text_of(r.get_data(as_text=True))
    assert r.status_code == 422 and "must say stay or drop" in body and "ZNR-2" in body


def test_paper_mode_taps_circles_and_refuses_what_the_rules_forbid(ann):
    table_id = create(ann, paper="on", board="advanced")
    page = text_of(ann.page(table_id))
    assert "paper mode" in page and "Royal Pairs" in page
    assert act(ann, table_id, mark="dropped_out", player="Bob", round="1").status_code == 200
    assert act(ann, table_id, mark="two_pair", player="Bob", round="1").status_code == 200
    r = act(ann, table_id, mark="three_kind", player="Bob", round="2")
    assert r.status_code == 422 and "at most once per turn" in text_of(r.get_data(as_text=True))
    r = act(ann, table_id, mark="dropped_out", player="Cid", round="2")
    assert r.status_code == 422 and "ZNR-3" in text_of(r.get_data(as_text=True))
    for player in ("Cid", "Ann"):
        r = act(ann, table_id, mark="full_house", player=player, round="3")
        assert r.status_code == 200
    assert act(ann, table_id, kind="end_turn").status_code == 200
    page = text_of(ann.page(table_id))
    assert "Turn 2 · dealer Bob" in page


def test_the_final_scoring_is_shown(ann):
    """Six drops by Bob in round 1 end the game (ZNR-8); the final table shows rows × points."""
    table_id = create(ann, paper="on")
    for _ in range(6):
        assert act(ann, table_id, mark="dropped_out", player="Bob", round="1").status_code == 200
        for player in ("Cid", "Ann"):
            assert act(ann, table_id, mark="pair", player=player, round="3").status_code == 200
        assert act(ann, table_id, kind="end_turn").status_code == 200
    page = text_of(ann.page(table_id))
    assert "Final scoring" in page and "Game over" in page
    assert "6×2" in page and "6×1" in page
    assert "Ann and Cid share the win with 12" in page


@pytest.mark.parametrize("query, status, words", [
    ("board=advanced&dice=1+1+2+2+3+3+4+4&check=1", 200, "Royal Pairs"),        # Z1
    ("board=advanced&dice=2,2,2,2,5,5,1,3&check=1", 200, "Large Full House"),    # Z2
    ("board=beginner&dice=4444522&check=1", 200, "Four of a Kind"),
    ("board=beginner&dice=2+9&check=1", 422, "numbers from 1 to 6"),
    ("board=beginner&dice=12&check=1", 422, "5 to 7 dice"),
])
def test_best_hand_tool_takes_tapped_dice(ann, query, status, words):
    r = ann.get(f"/zocknroll/best?{query}")
    assert r.status_code == status
    assert words in text_of(r.get_data(as_text=True))


def test_dice_that_contradict_the_turns_white_dice_are_refused(ann, db_path):
    """ZNR-2: one turn, one set of white dice. A dropping player's hand is their own dice
    combined with the white dice on the table (seeds/004_73b200f00e2d05f5.txt §GAME PLAY ›
    First Round), so every hand of a turn holds the same white dice.

    On the phones a drop always carries the white dice rolled, so white dice that contradict a
    drop can only come from striking the roll after the drop: Bob's drop (2, 2, 2, 5, 6) stays
    on the sheet and a new roll of 1, 1, 3 cannot be the white dice of his round. It is
    refused with a plain 422 naming the rule, and nothing is saved; restoring a struck drop
    that contradicts the turn is refused the same way.
    """
    table_id = create(ann)
    roll = seq_saved(act(ann, table_id, kind="roll", white="2 2 5"))
    drop = seq_saved(act(ann, table_id, kind="drop", player="Bob", own="2 6"))
    assert ann.undo(table_id, roll, sid="strike-the-roll").status_code == 200
    before, page = snapshot(db_path), ann.page(table_id)
    version = attr(page, "[data-version]", "data-version")
    assert "roll 3 white dice" in text_of(page)
    r = act(ann, table_id, kind="roll", white="1 1 3")
    assert r.status_code == 422
    body = text_of(r.get_data(as_text=True))
    assert ("The white dice 1, 1, 3 don't fit the dice already entered this turn. Bob's dice "
            "2, 2, 2, 5, 6 must include the white dice 1, 1, 3 the dealer rolled. Check Bob's "
            "own dice and the white dice on the table.") in body
    assert "ZNR-2" in body
    assert snapshot(db_path) == before
    assert f'data-version="{version}"' in ann.page(table_id)
    # White dice Bob's drop holds are fine; Cid's drop then shares them.
    assert act(ann, table_id, kind="roll", white="6 2 2").status_code == 200
    assert act(ann, table_id, kind="drop", player="Cid", own="1 1").status_code == 200
    # Strike both drops and the roll, roll again and drop Cid with other white dice: Bob's
    # old drop can't come back into this turn.
    strikes = {}
    for seq in (drop, *(row[0] for row in db_rows(
            db_path, "SELECT seq FROM actions WHERE table_id = ? AND kind = 'game' AND seq > ?",
            [table_id, drop]))):
        r = ann.undo(table_id, seq, sid=f"strike-{seq}")
        assert r.status_code == 200, text_of(r.get_data(as_text=True))[:300]
        strikes[seq] = db_rows(db_path, "SELECT MAX(seq) FROM actions WHERE table_id = ?",
                               [table_id])[0][0]
    assert act(ann, table_id, kind="roll", white="1 1 3").status_code == 200
    assert act(ann, table_id, kind="drop", player="Cid", own="4 4").status_code == 200
    before = snapshot(db_path)
    r = ann.undo(table_id, strikes[drop], sid="restore-bobs-drop")
    assert r.status_code == 422
    body = text_of(r.get_data(as_text=True))
    assert f"Entry #{drop} can't be restored" in body and "Bob's dice 2, 2, 2, 5, 6" in body
    assert snapshot(db_path) == before


# ---------------------------------------------------------------- Japanese

def _shown(response) -> str:
    return text_of(response.get_data(as_text=True))


def test_a_japanese_phone_plays_zocknroll_in_japanese(ann):
    """On a Japanese phone the guided turn, the refusals (rule IDs kept), the board,
    the turn log, the history, the house rules, the final scoring and the best-hand tool are
    Japanese; names, dice and "Jörg" stay as typed."""
    ann.client.set_cookie("lang", "ja")
    table_id = create(ann)
    page = text_of(ann.page(table_id))
    assert "あなたが親：白いサイコロを3個振る" in page and "ターン1 · 親 Ann" in page
    assert "第3ラウンド勝者" in page and "ヤッツィー！" in page and "第1ラウンド降り" in page
    assert "初級（自分のサイコロ2個）" in page and "Jörg" in page          # the house rules
    # Refusals: the entry form's, the rules' fixed one, and one with names in it.
    r = act(ann, table_id, kind="roll", white="2 2 9")
    assert r.status_code == 422
    assert "白いサイコロ：サイコロをタップするか、1〜6の数を入力してください。" in _shown(r)
    r = act(ann, table_id, kind="roll", white="2 2")
    assert r.status_code == 422
    body = _shown(r)
    assert "親は白いサイコロを3個振ります。1〜6の数を3個入力してください。" in body and "ZNR-2" in body
    assert act(ann, table_id, kind="roll", white="2 2 5").status_code == 200
    r = act(ann, table_id, kind="roll", white="4")
    assert r.status_code == 422
    body = _shown(r)
    assert "親が次を振る前に、Bob、CidとAnnが残るか降りるかを決めてください。" in body
    assert "ZNR-2" in body and "must say stay or drop" not in body
    r = act(ann, table_id, kind="drop", player="Bob", own="1 2 3 4 5")
    assert r.status_code == 422
    assert ("Bobのサイコロ：初級ボードではプレイヤーのサイコロは5〜7個（自分の2個と白3〜5個）です"
            "（8個ではありません）。") in _shown(r)
    for step in AFTER_THE_FIRST_ROLL:
        r = act(ann, table_id, **step)
        assert r.status_code == 200, _shown(r)[:400]
    page = text_of(ann.page(table_id))
    assert ("Cidが「ラージストレート」でラウンド3に勝ち、その役と「第3ラウンド勝者」をチェックします。"
            in page)
    assert ("Bobがラウンド1で「スリーカード」（2, 2, 2, 5, 6）で降り、「第1ラウンド降り」もチェックします。"
            in page)
    assert "ターン2 · 親 Bob" in page and "Bobが親：白いサイコロを3個振る" in page
    assert "誰かが1行で6個目のチェックをしたターンが最後です。" in page
    for english in ("Winner of Third Round", "Dropped Out First Round", "wins round 3 with",
                    "dropped out in round", "rolled the white dice", "Turn 2", "dealer",
                    "White dice", "The turn in which", "roll 3 white dice", "Large Straight",
                    "Your board", "points"):
        assert english not in page, english
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "白いサイコロ：2, 2, 5" in history and "Jörgが6, 6を公開" in history
    assert "Bobがラウンド1で降りる：2, 6, 2, 2, 5" in history
    assert "White dice:" not in history and "reveals" not in history


def test_japanese_paper_mode_final_scoring_and_best_hand(ann):
    ann.client.set_cookie("lang", "ja")
    table_id = create(ann, paper="on")
    page = text_of(ann.page(table_id))
    assert "チェックをタップ" in page and "紙モード" in page and "paper mode" not in page
    r = act(ann, table_id, mark="dropped_out", player="Cid", round="2")
    assert r.status_code == 422
    body = _shown(r)
    assert "ラウンド2で降りても「第1ラウンド降り」はチェックしません。役だけをチェックしてください。" in body
    assert "ZNR-3" in body
    for turn in range(1, 7):
        assert act(ann, table_id, mark="dropped_out", player="Bob", round="1").status_code == 200
        if turn == 6:
            last = text_of(ann.page(table_id), "#last-turn")
            assert last.startswith("最後のターン！ Bobが「第1ラウンド降り」で6個目のチェックをしました。"
                                   "ターン6が最後です。 ラウンド3の終わりまでプレイしたら、"), last
        for player in ("Cid", "Ann"):
            assert act(ann, table_id, mark="pair", player=player, round="3").status_code == 200
        assert act(ann, table_id, kind="end_turn").status_code == 200
    page = ann.page(table_id)
    assert text_of(page, "#result").startswith("AnnとCidが12点で同点優勝です。")
    final = text_of(page, "#final-scoring")
    assert "最終得点" in final and "ワンペア" in final and "6×2" in final
    assert "Final scoring" not in final and "Pair" not in final
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "Bobが「第1ラウンド降り」をチェック（ラウンド1）" in history
    assert "Annが「ワンペア」をチェック（ラウンド3）" in history and "checks" not in history
    r = ann.get("/zocknroll/best?board=advanced&dice=1+1+2+2+3+3+4+4&check=1")
    shown = _shown(r)
    assert r.status_code == 200
    assert "最高の役は「ロイヤルペア」（12点）で、4, 4, 3, 3, 2, 2, 1, 1でできています。" in shown
    assert "自分の最高の役は？" in shown and "The best hand is" not in shown
    r = ann.get("/zocknroll/best?board=beginner&dice=12&check=1")
    assert r.status_code == 422
    assert "初級ボードではプレイヤーのサイコロは5〜7個（自分の2個と白3〜5個）です（2個ではありません）。" \
        in _shown(r)


def test_every_zocknroll_row_key_names_its_row_in_the_history():
    """The history line of a tapped circle names its row by key in English, and the
    catalogue gives each key the row's name: every row key of both boards is covered."""
    from companion.web.games.zocknroll import _ROW_KEYS
    from companion.rules import zocknroll
    keys = set(zocknroll.rows("beginner")) | set(zocknroll.rows("advanced"))
    assert set(_ROW_KEYS) == keys
    assert all(str(said) == key for key, said in _ROW_KEYS.items())


# ---------------------------------------------------------------- its Japanese tour
# Every screen of the game in Japanese, after these taps (tests/web/test_web_japanese.py).

JAPANESE = Tour("zocknroll", ["Ann", "Bob", "Cid"], steps=[
    Step(dict(kind="roll", white="2 2 9"), 422),
    Step(dict(kind="roll", white="2 2 5")), Step(dict(kind="drop", player="Bob", own="26")),
    Step(dict(kind="stay", player="Cid")), Step(dict(kind="stay", player="Ann")),
    Step(dict(kind="roll", white="4")), Step(dict(kind="stay", player="Cid")),
    Step(dict(kind="drop", player="Ann", own="5,5")), Step(dict(kind="roll", white="5")),
    Step(dict(kind="reveal", player="Cid", own="1 3")),
    Step(dict(kind="reveal", player="Jörg", own="6 6")),
], tools=["/zocknroll/best?board=beginner&d3=3&d5=2&check=1",
          "/zocknroll/best?board=beginner&d1=9&check=1"])
