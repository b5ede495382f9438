"""Tournament pages in Japanese: a director's phone that asks for Japanese (Accept-Language:
ja) creates an event and sees the new-event form, the dashboard, the standings, the projector
and the players' page in Japanese; every string of templates/events/*.html and the room's
status words have a Japanese translation in the compiled catalogue."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.mofile import read_mo

from companion.web.events import pages as web_events
from helpers import text_of
from web_helpers import Phone

JA = {"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
PACKAGE = Path(web_events.__file__).resolve().parents[2]
CATALOGUE = PACKAGE / "translations" / "ja" / "LC_MESSAGES"
# The installed wheel carries templates/ inside the package; a checkout has it beside it.
TEMPLATES = next(p for p in (PACKAGE / "templates", PACKAGE.parent / "templates") if p.is_dir())
EVENT_TEMPLATES = sorted((TEMPLATES / "events").glob("*.html"))


def ok(response) -> str:
    body = response.get_data(as_text=True)
    assert response.status_code == 200, (response.status_code, text_of(body)[:600])
    return body


def create_event(director: Phone, players=PLAYERS, rounds=2, slug="scorepad", **settings) -> str:
    """Create an event from a Japanese phone (score pad: one round per table); its id."""
    data = {"event_name": "クラブの夜", "event_rounds": str(rounds),
            "entrants": "\n".join(players)}
    if slug == "scorepad":
        settings.setdefault("rounds", 1)
    data.update({k: str(v) for k, v in settings.items()})
    r = director.post(f"/events/new/{slug}", data, headers=JA)
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:1500]
    match = re.fullmatch(r"/e/([\w-]+)", urlsplit(r.headers["Location"]).path)
    assert match
    return match.group(1)


def seat_round(director: Phone, event_id: str) -> None:
    r = director.post(f"/e/{event_id}/seat", headers=JA)
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:1500]


def assert_shown(page: str, *words: str) -> None:
    shown = text_of(page)
    for w in words:
        assert w in shown, (w, shown[:2000])


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def test_the_event_chooser_and_the_new_event_form_in_japanese(director):
    page = ok(director.get("/", headers=JA))
    assert_shown(page, "大会を運営する")
    page = ok(director.get("/events/new", headers=JA))
    assert '<html lang="ja">' in page
    assert_shown(page, "新しい大会", "全テーブルで遊ぶゲームを選んでください")
    page = ok(director.get("/events/new/scorepad", headers=JA))
    assert '<html lang="ja">' in page
    assert_shown(page, "新しいスコア表の大会", "大会名", "ラウンド数", "プレイヤー（1行に1人）",
                 "1テーブルの人数", "大会を作成")
    page = ok(director.get("/events/new/rook", headers=JA))
    assert_shown(page, "チーム（1行に1チーム）", "半角コンマ")


def test_the_dashboard_in_japanese(director):
    event_id = create_event(director)
    page = ok(director.get(f"/e/{event_id}", headers=JA))
    assert '<html lang="ja">' in page and "クラブの夜" in page
    assert_shown(page, "全2ラウンド", "参加者8", "ラウンド1の組み合わせを決める", "ランダム",
                 "順位", "プロジェクター表示", "結果をダウンロード（CSV）", "参加者",
                 "途中参加", "プレイヤー向け", "プレイヤー用ページ", "登録を受け付ける")
    seat_round(director, event_id)
    page = ok(director.get(f"/e/{event_id}", headers=JA))
    assert_shown(page, "ラウンド1", "テーブル1", "テーブル2", "テーブルを開く", "結果を入力",
                 "テーブルカードを印刷",
                 "すべてのテーブルの結果が出たら、ラウンドを確定してください。")
    # The room's status word comes from STATUS_WORDS (code), translated in the template.
    assert page.count('data-status="missing">まだ誰もいない</span>') == 2
    room = ok(director.get(f"/e/{event_id}", hx=True, headers=JA))
    assert room.lstrip().startswith('<section id="room"') and "まだ誰もいない" in room
    english = ok(director.get(f"/e/{event_id}"))
    assert '<html lang="en">' in english and "Nobody here yet" in english
    assert "まだ誰もいない" not in english


def test_the_standings_and_the_projector_in_japanese(director, new_phone):
    event_id = create_event(director)
    seat_round(director, event_id)
    viewer = new_phone("projector")
    page = ok(viewer.get(f"/e/{event_id}/standings", headers=JA))
    assert '<html lang="ja">' in page
    # While round 1 is played its finished tables count already, and the caption says so.
    assert_shown(page, "全2ラウンド中ラウンド1の途中の順位：終わったテーブルはもう反映されています",
                 "ブッフホルツ", "名前", "勝ち点",
                 "試合数", "スコア")
    page = ok(viewer.get(f"/e/{event_id}/projector", headers=JA))
    assert '<html lang="ja">' in page and 'class="projector"' in page
    assert_shown(page, "ラウンド1 / 2", "勝ち点", "ブッフホルツ", "読み取って自分のテーブルを確認")
    fragment = ok(viewer.get(f"/e/{event_id}/projector", hx=True, headers=JA))
    assert fragment.lstrip().startswith('<section id="projector"') and "勝ち点" in fragment


def test_the_players_page_in_japanese(director, new_phone):
    event_id = create_event(director)
    player = new_phone("Cy's phone")
    page = ok(player.get(f"/e/{event_id}/players", headers=JA))
    assert '<html lang="ja">' in page
    assert_shown(page, "あなたは誰？", "名前をタップすると、自分のテーブルと順位を確認できます。")
    page = ok(player.get(f"/e/{event_id}/players?name=Cy", headers=JA))
    assert_shown(page, "まだテーブルはありません", "1位 / 8", "全体の順位", "別の人ですか？")
    seat_round(director, event_id)
    page = ok(player.get(f"/e/{event_id}/players?name=Cy", headers=JA))
    assert_shown(page, "ラウンド1", "これは自分")          # a phone that hasn't picked Cy
    assert player.pick(event_id, "Cy").status_code == 303
    page = ok(player.get(f"/e/{event_id}/players", headers=JA))
    assert re.search(r"テーブル\d+を開く", text_of(page)), text_of(page)[:1500]


def test_a_team_event_with_registration_and_a_bye_in_japanese(director, new_phone):
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee", "Eve, Fay"], slug="rook",
                            variant="family", registration="on")
    seat_round(director, event_id)
    page = ok(director.get(f"/e/{event_id}", headers=JA))
    assert_shown(page, "登録受付中", "不戦勝（お休み）：", "棄権にする", "登録を締め切る")
    page = ok(new_phone("newcomer").get(f"/e/{event_id}/players", headers=JA))
    assert_shown(page, "初めての方はこちらで登録", "あなたの名前", "パートナー", "登録",
                 "すでに登録済みですか？")


# ---------------------------------------------------------------- the catalogue

def _compiled() -> dict:
    with open(CATALOGUE / "messages.mo", "rb") as fh:
        return {(m.context.decode() if isinstance(m.context, bytes) else m.context,
                 m.id if isinstance(m.id, str) else tuple(m.id)): m.string
                for m in read_mo(fh) if m.id}


def _fields(text: str) -> list[str]:
    return sorted(re.findall(r"%\(\w+\)s", text))


def test_every_event_template_string_has_a_japanese_translation():
    assert EVENT_TEMPLATES, "no templates/events/*.html"
    compiled = _compiled()
    seen = 0
    for path in EVENT_TEMPLATES:
        for _line, message, _comments, context in extract_from_file(
                "jinja2", str(path)):
            msgid = message if isinstance(message, str) else tuple(message)
            key = (context or None, msgid)
            string = compiled.get(key)
            assert string, f"{path.name}: no Japanese for {message!r}"
            singular = string if isinstance(string, str) else string[0]
            english = msgid if isinstance(msgid, str) else msgid[0]
            assert _fields(singular) == _fields(english), (path.name, message)
            seen += 1
    assert seen > 50


def test_the_room_status_words_are_in_the_catalogue():
    compiled = _compiled()
    for word in web_events.STATUS_WORDS.values():
        assert compiled.get((None, word)), word
