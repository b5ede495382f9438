"""A group's own pages: a recorded game's read-only sheet (``/g/<id>/games/<game_id>``),
a player's page (``/g/<id>/players/<pid>``) and the per-game figures on the group page,
for a phone of the group only (403 in plain words otherwise; 404 for a game deleted from
the record). Every game is played at a table of the group through the real rules; the
figures are checked against hand computations."""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from companion import tables
from companion.storage import connect
from companion.tables import tokens
from helpers import select, text_of

from test_web_groups import make_group

ROOK_SEATS = ["Ann", "Bob", "Cid", "Dee"]          # A = Ann & Cid, B = Bob & Dee


def hand(bidder, bid, a, b):
    return {"kind": "hand", "bidder": bidder, "bid": bid, "points": {"A": a, "B": b}}


# Rook, family rules (250 a hand) to 500, by hand: Ann bids 150 and makes it (A +160,
# B +90), Bob bids 200 and is set (A +120, B -200), Cid bids 180 and makes it (A +200,
# B +50), Ann bids 160 and makes it (A +170, B +80): A 650, B 20.
ROOK = [hand("Ann", 150, 160, 90), hand("Bob", 200, 120, 130), hand("Cid", 180, 200, 50),
        hand("Ann", 160, 170, 80)]


def play(player, card):
    return {"kind": "play", "player": player, "card": card}


# Rocca, two players: Ann draws once, Bob says One and goes out (tests/stats/ has it too).
ROCCA = [play("Ann", "2S"), play("Bob", "3S"), {"kind": "draw", "player": "Ann"},
         play("Bob", "4S"), play("Ann", "5S"), play("Bob", "6S"), play("Ann", "7S"),
         play("Bob", "8S"), play("Ann", "9S"), {"kind": "one", "player": "Bob"},
         play("Bob", "10S")]
# Then a second game in the same match: both go out without having said One (refused,
# ROC-8: each draws the penalty), Ann draws once more, Bob wins.
ROCCA_2 = [{"kind": "new_game"}, play("Ann", "2H"), play("Bob", "3H"), play("Ann", "4H"),
           play("Bob", "5H"), play("Ann", "6H"), play("Bob", "7H"), play("Ann", "8H"),
           play("Bob", "9H"), play("Ann", "10H"), play("Bob", "2D"),
           {"kind": "draw", "player": "Ann"}, play("Bob", "3D"), play("Ann", "4D"),
           play("Bob", "5D"), play("Ann", "6D"), {"kind": "one", "player": "Bob"},
           play("Bob", "7D")]


def drop(player, rnd, dice):
    return {"kind": "drop", "player": player, "round": rnd, "dice": dice}


ZNR = [drop("Kate", 1, [1, 3, 1, 3, 6]), drop("Ann", 2, [6, 3, 1, 3, 6, 6]),
       {"kind": "showdown", "dice": {"Bob": [6, 6, 6, 6, 1, 2, 3], "Cy": [5, 5, 1, 2, 3, 6, 6]}}]


def rr_hand(went_out, **cards):
    return {"kind": "hand", "went_out": went_out,
            "cards": {n: {"hand_points": h, "down_points": d} for n, (h, d) in cards.items()}}


RR = [rr_hand("Ann", Ann=(0, 0), Bob=(20, 10), Cid=(5, 0), Dee=(15, 5)),
      rr_hand(None, Ann=(10, 0), Bob=(5, 0), Cid=(10, 10), Dee=(5, 5)),
      rr_hand("Dee", Ann=(30, 20), Bob=(10, 0), Cid=(40, 0), Dee=(0, 0))]


def come_in(player, cards):
    return {"kind": "come_in", "player": player, "cards": cards.split()}


ROCKIT = [come_in("Ann", "5S 5H 5D"), come_in("Bob", "7S 8S 9S 10S"),
          {"kind": "win", "player": "Ann"}, come_in("Bob", "KS KH KD"),
          {"kind": "win", "player": "Bob"}, come_in("Cid", "QS QH QD"),
          {"kind": "win", "player": "Cid", "how": "blocked",
           "hands": {"Ann": 4, "Bob": 6, "Cid": 2}},
          {"kind": "finish"}]


def group_table(phone, group_id, slug, names, **fields):
    data = {f"name_{i}": n for i, n in enumerate(names)} | {"me": "0"}
    data |= {k: str(v) for k, v in fields.items()}
    r = phone.post(f"/g/{group_id}/new/{slug}", data)
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:300]
    return urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]


def enter_all(db_path, phone, table_id, actions):
    """The actions entered at the table by `phone`, through the tables service (the
    form's part is tested with each game)."""
    db = connect(db_path)
    try:
        me = tables.phone_by_secret(db, table_id, phone.secret())
        for action in actions:
            version = tables.get_table(db, table_id).version
            tables.enter(db, table_id, me, action, version, tokens.new_submission_id())
    finally:
        db.conn.close()


GAMES = [
    ("scorepad", ["Ann", "Bob"], {"target": 50}, None, ["Ann"]),
    ("rook", ROOK_SEATS, {"target": 500}, ROOK, ["Ann", "Cid"]),
    ("zocknroll", ["Kate", "Ann", "Bob", "Cy"], {}, ZNR * 6, ["Bob"]),
    ("rainbow_rummy", ["Ann", "Bob", "Cid", "Dee"], {}, RR, ["Bob", "Dee"]),
    ("rockit", ["Ann", "Bob", "Cid"], {"decks": "2"}, ROCKIT, ["Ann", "Bob", "Cid"]),
    ("rocca", ["Ann", "Bob"], {}, ROCCA, ["Bob"]),
]


@pytest.fixture
def family(new_phone, db_path):
    """A group that finished one game of each of the six games."""
    ann = new_phone("Ann")
    group_id = make_group(ann, players="Ann\nBob\nCid\nDee\n")
    for slug, names, fields, actions, _winners in GAMES:
        table_id = group_table(ann, group_id, slug, names, **fields)
        if actions is None:
            assert ann.enter(table_id, {0: 60, 1: 20}).status_code == 200
        else:
            enter_all(db_path, ann, table_id, actions)
    games = {g["game"]: g for g in ann.get(f"/g/{group_id}/games.json").get_json()}
    assert set(games) == {g[0] for g in GAMES}
    return group_id, ann, games


def _sheet_is_read_only(page):
    [sheet] = select(page, "#sheet")
    assert not select(sheet.html, "form") and not select(sheet.html, "button")
    assert not [i for i in select(sheet.html, "input, select, textarea")
                if i.attrs.get("type") != "hidden"]
    assert not select(page, "form[method=post]")


@pytest.mark.parametrize("slug,names,fields,actions,winners", GAMES)
def test_a_recorded_game_opens_its_final_sheet_read_only(family, slug, names, fields, actions,
                                                         winners):
    group_id, ann, games = family
    game = games[slug]
    assert game["winners"] == winners
    group_page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    [link] = select(group_page, f'.group-games li[data-game="{game["id"]}"] a:not(.game-delete)')
    assert link.attrs["href"] == f"/g/{group_id}/games/{game['id']}"
    r = ann.get(link.attrs["href"])
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    _sheet_is_read_only(page)
    facts = text_of(select(page, "#game-facts")[0])
    assert "Won: " + " & ".join(game["winners"]) in facts
    assert select(page, "#game-facts time.local-time")
    seats = [text_of(select(tr.html, "th")[0]).split(" ")[0]
             for tr in select(page, "#final-scores tbody tr")]
    assert seats == names
    # Each seat links to its player's page.
    assert all(a.attrs["href"].startswith(f"/g/{group_id}/players/")
               for a in select(page, "#final-scores tbody th a"))
    # The house rules with their rule IDs, and the sheet's own rule tags.
    assert select(page, "#game-rules li .rule") or slug == "scorepad"
    assert select(page, "#sheet .rule")


def test_the_rook_sheet_shows_every_hand_with_its_rule(family):
    group_id, ann, games = family
    page = ann.get(f"/g/{group_id}/games/{games['rook']['id']}").get_data(as_text=True)
    rows = select(page, "#rook-hands tbody tr")
    assert len(rows) == len(ROOK)
    assert "Bob 200" in text_of(rows[2]) and "set" in text_of(rows[2])
    assert [text_of(b) for b in select(page, "#rook-totals .num")] == ["650", "20"]
    assert select(page, "#rook-hands svg.chart")
    assert not select(page, "#table-help")      # the table's help pages need its phone
    assert games["rook"]["scores"] == {"Ann & Cid": 650, "Bob & Dee": 20}


def test_game_pages_are_for_the_group_only(family, new_phone, db_path):
    group_id, ann, games = family
    game_id = games["rook"]["id"]
    eve = new_phone("Eve")
    r = eve.get(f"/g/{group_id}/games/{game_id}")
    assert r.status_code == 403 and "can't open this group" in text_of(r.get_data(as_text=True))
    other = make_group(ann, name="Club", players="Zed\n")
    for path in (f"/g/{other}/games/{game_id}", f"/g/{group_id}/games/0",
                 f"/g/{group_id}/games/999999", f"/g/{group_id}/games/{10 ** 30}"):
        r = ann.get(path)
        assert r.status_code == 404, path
        assert "isn't in the group's record" in text_of(r.get_data(as_text=True))
    db = connect(db_path)
    with db.conn:
        db.execute("UPDATE group_games SET deleted_at = '2026-12-01T00:00:00Z' WHERE id = ?",
                   [game_id])
    db.conn.close()
    assert ann.get(f"/g/{group_id}/games/{game_id}").status_code == 404


def test_rocca_figures_come_from_the_actions(new_phone, db_path):
    """Rocca: by hand, game 1: Ann drew 1 (a draw), no One penalty; Bob said One and went
    out. The second game of the same match (ROCCA_2: Ann drew 1 + the 3 of her refused
    play, Bob the 3 of his) is a record of its own: both count, the first kept when the
    second was dealt."""
    ann = new_phone("Ann")
    group_id = make_group(ann, players="Ann\nBob\n")
    table_id = group_table(ann, group_id, "rocca", ["Ann", "Bob"])
    enter_all(db_path, ann, table_id, ROCCA)
    fig = ann.get(f"/g/{group_id}/stats.json").get_json()["games"]["rocca"]["figures"]
    assert fig == {"games_counted": 1, "players": {
        "Ann": {"games": 1, "one_penalties": 0, "cards_drawn": 1, "average_cards_drawn": 1.0},
        "Bob": {"games": 1, "one_penalties": 0, "cards_drawn": 0, "average_cards_drawn": 0.0}}}
    enter_all(db_path, ann, table_id, ROCCA_2[:1])          # the next game dealt
    [first] = ann.get(f"/g/{group_id}/games.json").get_json()
    assert first["winners"] == ["Bob"]
    enter_all(db_path, ann, table_id, ROCCA_2[1:])
    fig = ann.get(f"/g/{group_id}/stats.json").get_json()["games"]["rocca"]["figures"]
    players = {p: (r["one_penalties"], r["cards_drawn"]) for p, r in fig["players"].items()}
    assert fig["games_counted"] == 2 and players == {"Ann": (1, 5), "Bob": (1, 3)}
    second, again = ann.get(f"/g/{group_id}/games.json").get_json()
    assert again == first and second["winners"] == ["Bob"]
    assert second["started_at"] == first["finished_at"]
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    [sec] = select(page, '#stats .group-stats[data-section="rocca"]')
    rows = {text_of(select(tr.html, "th")[0]): [text_of(td) for td in select(tr.html, "td")]
            for tr in select(sec.html, ".game-figures tbody tr")}
    assert rows["Ann"][-2:] == ["1", "5"] and rows["Bob"][-2:] == ["1", "3"]
    # Each opens its own final sheet, numbered in the match.
    page = ann.get(f"/g/{group_id}/games/{second['id']}").get_data(as_text=True)
    assert "Game 2 of the match" in text_of(select(page, "#game-facts")[0])
    # Undoing the play that won the second game takes its record away; the first stays.
    db = connect(db_path)
    try:
        me = tables.phone_by_secret(db, table_id, ann.secret())
        last = db.execute("SELECT MAX(seq) FROM actions WHERE table_id = ? AND kind = 'game'",
                          [table_id]).fetchone()[0]
        tables.undo(db, table_id, me, last, tokens.new_submission_id())
    finally:
        db.conn.close()
    assert ann.get(f"/g/{group_id}/games.json").get_json() == [first]


def _figures(page, section):
    """A game's own figures on the group page: each row's cells by its first cell."""
    [sec] = select(page, f'#stats .group-stats[data-section="{section}"]')
    return {text_of(select(tr.html, "th")[0]): [text_of(td) for td in select(tr.html, "td")]
            for tr in select(sec.html, ".game-figures tbody tr")}


def test_the_group_page_shows_each_games_figures(family):
    """Rook by hand (ROOK): Ann bid twice (150, 160), made both; Bob bid 200, set; Cid bid
    180, made. Team Ann & Cid: 3 bids, average 163.33 (163.3 on the page), 100 % made,
    biggest hand +200."""
    group_id, ann, _games = family
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    [rook] = select(page, '#stats .group-stats[data-section="rook"]')
    tables_ = select(rook.html, ".game-figures table")
    rows = {}
    for t in tables_:
        for tr in select(t.html, "tbody tr"):
            rows[text_of(select(tr.html, "th")[0])] = [text_of(td) for td in select(tr.html, "td")]
    # Bids taken, average bid, made %, sets, biggest hand.
    assert rows["Ann"] == ["2", "155", "100", "0", "200"]
    assert rows["Bob"] == ["1", "200", "0", "1", "90"]
    assert rows["Ann & Cid"] == ["3", "163.3", "100", "0", "200"]
    assert rows["Bob & Dee"] == ["1", "200", "0", "1", "90"]
    assert select(page, '#stats .group-stats[data-section="scorepad"]')
    # Zock'n'Roll by hand (ZNR, six turns): Kate drops in round 1 every turn, Ann in
    # round 2; Bob beats Cy at every showdown. Turns, drop 1 %, drop 2 %, showdowns won
    # of played, won %; each row checked six times.
    znr = _figures(page, "zocknroll")
    assert znr["Kate"] == ["6", "100", "0", "0/0", "–"]
    assert znr["Ann"] == ["6", "0", "100", "0/0", "–"]
    assert znr["Bob"] == ["6", "0", "0", "6/6", "100"]
    assert znr["Cy"] == ["6", "0", "0", "0/6", "0"]
    assert {znr[row][0] for row in ("Winner of Third Round", "Four of a Kind", "Full House",
                                    "Two Pair", "Dropped Out First Round")} == {"6"}
    # Rainbow Rummy by hand (RR): A +75, B +25, B +140; the second hand blocked.
    # Teams: games, wins, hands, average hand, best hand; players: hands, average, went out.
    rr = _figures(page, "rainbow_rummy")
    assert rr["Ann & Cid"] == ["1", "0", "3", "25", "75"]
    assert rr["Bob & Dee"] == ["1", "1", "3", "55", "140"]
    assert (rr["Ann"], rr["Dee"], rr["Bob"]) == (["3", "25", "1"], ["3", "55", "1"],
                                                 ["3", "55", "0"])
    assert "Blocked hands: 1 of 3" in text_of(
        select(page, '#stats .group-stats[data-section="rainbow_rummy"]')[0])
    # RockIt by hand (ROCKIT, three games): each won one; Bob came in twice (2nd, then
    # 1st); the blocked game left Ann 4 cards, Bob 6, Cid 2. Games, wins, in %, in turn,
    # cards left.
    rockit = _figures(page, "rockit")
    assert rockit == {"Ann": ["3", "1", "33.3", "1", "4"], "Bob": ["3", "1", "66.7", "1.5", "6"],
                      "Cid": ["3", "1", "33.3", "1", "2"]}
    # Every player's name on the page leads to their page.
    names = {text_of(a): a.attrs["href"] for a in select(page, "#stats tbody th a")}
    assert {"Ann", "Bob", "Cid", "Dee"} <= set(names)
    assert all(re.fullmatch(rf"/g/{group_id}/players/\d+", h) for h in names.values())


def test_a_players_page(family, new_phone):
    group_id, ann, games = family
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    [link] = [a for a in select(page, ".group-players a") if "/players/" in a.attrs["href"]][:1]
    r = ann.get(link.attrs["href"])
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert text_of(select(page, "#player-name")[0]) == "Ann"
    # Ann played all six games, in this order: she won the score pad and Rook, lost
    # Zock'n'Roll and Rainbow Rummy, shared RockIt's win (one game each) and lost Rocca.
    record = text_of(select(page, "#record")[0])
    assert "6 games · 3 wins · 50 %" in record
    assert "1 game without a win · longest run: 2" in record
    assert select(page, "#wins-chart svg.wins-chart polyline.line-wins")
    played = select(page, "#played li")
    assert len(played) == 6
    assert {a.attrs["href"] for a in select(page, "#played li a")} == \
        {f"/g/{group_id}/games/{g['id']}" for g in games.values()}
    h2h = {text_of(select(tr.html, "th")[0]): [text_of(td) for td in select(tr.html, "td")]
           for tr in select(page, "#head-to-head tbody tr")}
    # Ann and Cid were partners at Rook (won) and at Rainbow Rummy (lost).
    assert h2h["Cid"][-1] == "1/2"
    assert ann.get(f"/g/{group_id}/players/999").status_code == 404
    assert ann.get(f"/g/{group_id}/players/{10 ** 30}").status_code == 404
    assert ann.get(link.attrs["href"] + "?page=x").status_code == 200
    assert new_phone("Eve").get(link.attrs["href"]).status_code == 403


def test_a_summary_the_sheet_cant_draw_leaves_the_record(family, db_path):
    """A record made before a rules change whose summary no longer fits the game's sheet:
    the page shows the record (winners, seats, scores) without the sheet, not an error."""
    group_id, ann, games = family
    game_id = games["rook"]["id"]
    db = connect(db_path)
    with db.conn:
        db.execute("UPDATE group_games SET summary = ? WHERE id = ?",
                   ['{"hands": 5, "totals": []}', game_id])
    db.conn.close()
    r = ann.get(f"/g/{group_id}/games/{game_id}")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert not select(page, "#sheet")
    assert "Won: Ann & Cid" in text_of(select(page, "#game-facts")[0])
    assert len(select(page, "#final-scores tbody tr")) == 4


def test_a_paper_rook_game_is_recorded_with_its_totals_but_not_as_a_hand(new_phone, db_path):
    """Rook from a paper sheet at 340-285 at a group's table (target 600): Bob bids 150
    and his team takes 180 (A 410, B 465), Ann bids 190 and takes 200 (A 610, B 515). The
    record's scores are the sheet's totals, paper included; the Rook figures count the two
    hands played here only (the paper line is no hand: nobody bid in it). The game's page
    offers its picture, the paper line first."""
    ann = new_phone("Ann")
    group_id = make_group(ann, players="Ann\nBob\nCid\nDee\n")
    table_id = group_table(ann, group_id, "rook", ROOK_SEATS, paper_A=340, paper_B=285)
    enter_all(db_path, ann, table_id, [hand("Bob", 150, 70, 180), hand("Ann", 190, 200, 50)])
    [game] = ann.get(f"/g/{group_id}/games.json").get_json()
    assert game["scores"] == {"Ann & Cid": 610, "Bob & Dee": 515}
    assert game["winners"] == ["Ann", "Cid"]
    rook = ann.get(f"/g/{group_id}/stats.json").get_json()["games"]["rook"]
    figures = rook["figures"]
    assert figures["hands"] == 2
    by_hand = {"Ann": (1, 190, 1, 200), "Bob": (1, 150, 1, 180), "Cid": (0, None, 0, 200),
               "Dee": (0, None, 0, 180), "Ann & Cid": (1, 190, 1, 200),
               "Bob & Dee": (1, 150, 1, 180)}
    rows = figures["players"] | figures["teams"]
    assert {k: (r["bids_taken"], r["average_bid"], r["made"], r["biggest_hand"])
            for k, r in rows.items()} == by_hand
    assert all(r["hands"] == 2 for r in rows.values())
    page = ann.get(f"/g/{group_id}/games/{game['id']}").get_data(as_text=True)
    assert any("/js/sheet-image.js" in s.attrs.get("src", "") for s in select(page, "script"))
    assert select(page, "#share-sheet button[data-sheet-image=sheet-image-data]")
    data = json.loads(select(page, "script#sheet-image-data")[0].text)
    assert [(r["label"], r["running"]) for r in data["rows"]] == [
        ("From the paper sheet", [340, 285]), ("Hand 1", [410, 465]), ("Hand 2", [610, 515])]
    assert data["totals"] == [610, 515] and data["winners"] == ["Ann & Cid"]


def test_group_pages_show_dates_in_the_phones_time_the_table_page_doesnt_load_it(family):
    """The group's page, a game's and a player's load js/local-time.js (the UTC text stays
    for a phone without scripts); the table page, whose weight is budgeted, doesn't."""
    group_id, ann, games = family
    game = games["rook"]
    group_page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    [player] = [a.attrs["href"] for a in select(group_page, ".group-players a")
                if "/players/" in a.attrs["href"]][:1]
    for url in (f"/g/{group_id}", f"/g/{group_id}/games/{game['id']}", player):
        page = ann.get(url).get_data(as_text=True)
        assert any("/js/local-time.js" in s.attrs.get("src", "")
                   for s in select(page, "script")), url
        when = text_of(select(page, "time.local-time")[0])
        assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", when)
    assert "local-time.js" not in ann.page(game["table_id"])
    js = ann.get("/static/js/local-time.js")
    assert js.status_code == 200 and b"time.local-time" in js.get_data()


def test_renaming_a_player_moves_their_figures_to_the_new_name(family):
    """Ann, who played all six games, becomes Annie: stats.json and her page show one
    player with every game (each game's own figures too, Rook's partnership and Rocca's
    facts from the log included), nothing left under the old name."""
    group_id, ann, games = family
    before = ann.get(f"/g/{group_id}/stats.json").get_json()
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    [pid] = [li.attrs["data-player"] for li in select(page, ".group-players li[data-player]")
             if text_of(select(li.html, "summary")[0]) == "Ann"]
    r = ann.post(f"/g/{group_id}/players/{pid}/rename", {"name": "Annie"})
    assert r.status_code == 303
    after = ann.get(f"/g/{group_id}/stats.json").get_json()
    assert "Ann" not in after["players"] and after["players"]["Annie"] == before["players"]["Ann"]
    text = json.dumps(after)
    assert '"Ann"' not in text and "Ann &" not in text and "& Ann" not in text
    rook = after["games"]["rook"]["figures"]
    assert rook["players"]["Annie"] == before["games"]["rook"]["figures"]["players"]["Ann"]
    assert rook["teams"]["Annie & Cid"] == before["games"]["rook"]["figures"]["teams"]["Ann & Cid"]
    rocca = after["games"]["rocca"]["figures"]
    assert json.dumps(rocca) == json.dumps(before["games"]["rocca"]["figures"]).replace(
        '"Ann"', '"Annie"')
    assert all("Ann" not in g["players"] for g in ann.get(f"/g/{group_id}/games.json").get_json())
    page = ann.get(f"/g/{group_id}/players/{pid}").get_data(as_text=True)
    assert text_of(select(page, "#player-name")[0]) == "Annie"
    assert "6 games · 3 wins · 50 %" in text_of(select(page, "#record")[0])
    assert len(select(page, "#played li")) == 6


def _player_ids(phone, group_id):
    page = phone.get(f"/g/{group_id}").get_data(as_text=True)
    return {text_of(select(li.html, "summary")[0]): li.attrs["data-player"]
            for li in select(page, ".group-players li[data-player]")}


def test_merging_or_renaming_keeps_roccas_facts_from_the_log(new_phone, db_path):
    """Rocca's facts come from the table's log, which names the players as they sat: a
    merge (Bob into Rob) and a rename (Ann to Annie) carry the stored facts over renamed,
    so the game stays counted with its draws (by hand as in ROCCA: Ann drew 1)."""
    ann = new_phone("Ann")
    group_id = make_group(ann, players="Ann\nBob\nRob\n")
    table_id = group_table(ann, group_id, "rocca", ["Ann", "Bob"])
    enter_all(db_path, ann, table_id, ROCCA)
    ids = _player_ids(ann, group_id)
    assert ann.post(f"/g/{group_id}/players/{ids['Bob']}/merge",
                    {"into": ids["Rob"]}).status_code == 303
    assert ann.post(f"/g/{group_id}/players/{ids['Ann']}/rename",
                    {"name": "Annie"}).status_code == 303
    fig = ann.get(f"/g/{group_id}/stats.json").get_json()["games"]["rocca"]["figures"]
    assert fig == {"games_counted": 1, "players": {
        "Annie": {"games": 1, "one_penalties": 0, "cards_drawn": 1, "average_cards_drawn": 1.0},
        "Rob": {"games": 1, "one_penalties": 0, "cards_drawn": 0, "average_cards_drawn": 0.0}}}
    [game] = ann.get(f"/g/{group_id}/games.json").get_json()
    assert game["players"] == ["Annie", "Rob"] and game["winners"] == ["Rob"]


def test_a_recorded_games_sentences_are_in_the_readers_language(family):
    """The record keeps each sentence as it was made (rules/said.py `storable`), so a
    Japanese phone reads the game's end in Japanese, not the English of the evening."""
    group_id, ann, games = family
    url = f"/g/{group_id}/games/{games['rook']['id']}"
    english = text_of(ann.get(url).get_data(as_text=True))
    assert re.search(r"reached \d+ \(target \d+\)", english)
    ann.get("/language?to=ja&next=/")
    japanese = text_of(ann.get(url).get_data(as_text=True))
    assert "reached" not in japanese
    assert re.search(r"が-?\d+点に達しました（目標\d+点）", japanese)
