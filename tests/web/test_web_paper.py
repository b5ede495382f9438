"""Going on from a paper sheet (Game.from_paper) through the new-table form: the totals
written on paper start the table, show as the sheet's first line and in History (who
entered them), count toward the target, and bad totals are refused in plain words with
the rule, creating nothing."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from helpers import select, text_of
from web_helpers import count, snapshot

from test_web_groups import make_group
from test_web_rook import hand

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def _form(names, **fields) -> dict:
    data = {f"name_{i}": n for i, n in enumerate(names)}
    data.update({"me": "0", **{k: str(v) for k, v in fields.items()}})
    return data


def _table_id(response) -> str:
    assert response.status_code == 303, text_of(response.get_data(as_text=True))[:500]
    return re.fullmatch(r"/t/([\w-]+)", urlsplit(response.headers["Location"]).path).group(1)


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


def test_the_form_offers_a_paper_sheet_where_the_game_has_one(ann):
    rook = ann.get("/new/rook").get_data(as_text=True)
    paper = select(rook, "details#paper")[0]
    assert "open" not in paper.attrs
    assert text_of(paper, "summary") == "Start from a paper sheet"
    assert [n.attrs["name"] for n in select(paper, "input")] == ["paper_A", "paper_B"]
    assert "Players 1, 3, 5" in text_of(paper)       # 4 or 6 seats
    pad = ann.get("/new/scorepad").get_data(as_text=True)
    assert [n.attrs["name"] for n in select(pad, "details#paper input")] == [
        f"paper_{i}" for i in range(12)]
    for slug in ("rockit", "rocca"):      # where they stand is the cards, not on paper
        assert not select(ann.get(f"/new/{slug}").get_data(as_text=True), "details#paper")


def test_rook_resumes_at_340_285_and_plays_on_to_600(ann):
    table_id = _table_id(ann.post("/new/rook", _form(NAMES, paper_A=340, paper_B=285)))
    page = ann.page(table_id)
    assert text_of(page, '[data-team="A"]') == "340" and text_of(page, '[data-team="B"]') == "285"
    line = select(page, "#paper-line")[0]
    assert "From the paper sheet" in text_of(line) and "RK-9" in text_of(line)
    assert [text_of(b) for b in select(line, "b")] == ["340", "285"]
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "From the paper sheet: Ann & Cid 340, Bob & Dee 285" in history
    assert re.search(r"#1 · .* · Ann", history)           # who entered it, and when
    # Bob bids 150 and makes it (B 465, A 410); Ann bids 190 and takes 200: A 610 (RK-9).
    assert hand(ann, table_id, bidder="Bob", bid=150, points_A=70, points_B=180).status_code == 200
    assert hand(ann, table_id, bidder="Ann", bid=190, points_A=200, points_B=50).status_code == 200
    page = ann.page(table_id)
    assert text_of(page, '[data-team="A"]') == "610" and text_of(page, '[data-team="B"]') == "515"
    assert "Game over — winner: Ann & Cid" in text_of(page, "#game-over")


REFUSED = [
    # (slug, names, fields, words, rule)
    ("rook", NAMES, {"paper_A": 343, "paper_B": 285}, "must be a multiple of 5", "RK-7"),
    ("rook", NAMES, {"paper_A": 600, "paper_B": 285}, "already reaches the target of 600",
     "RK-9"),
    ("rook", NAMES, {"paper_A": 340}, "Enter the total of Bob & Dee", "RK-9"),
    ("rook", NAMES, {"paper_A": "three forty", "paper_B": 285}, "must be a whole number",
     "RK-9"),
    ("rainbow_rummy", NAMES, {"paper_A": -5, "paper_B": 20}, "can't be below 0", "RR-11"),
    ("scorepad", ["Ann", "Bob"], {"target": 100, "paper_0": 100, "paper_1": 3},
     "already reaches the target of 100", "SP-2"),
    ("scorepad", ["Ann", "Bob"], {"paper_0": 5, "paper_1": 3, "paper_2": 9},
     "Row 3 has a total from the paper sheet but no player's name.", None),
    ("rockit", ["Ann", "Bob"], {"paper_0": 5}, "can't start from a paper sheet", None),
    ("zocknroll", ["Ann", "Bob", "Cy"], {"paper_0_pair": 6}, "check 6 in one row ends the game",
     "ZNR-8"),
    ("zocknroll", ["Ann", "Bob", "Cy"], {"board": "advanced", "paper_1_pair": 2},
     "Bob's board: Pair is not a row of the advanced board", "ZNR-9"),
    ("zocknroll", ["Ann", "Bob", "Cy"], {"paper_2_yahtzee": "x"}, "must be a whole number",
     "ZNR-9"),
    ("zocknroll", ["Ann", "Bob", "Cy"], {"paper_4_pair": 1},
     "Row 5 has a total from the paper sheet but no player's name.", None),
]


@pytest.mark.parametrize("slug, names, fields, words, rule", REFUSED,
                         ids=[f"{r[0]}-{r[3][:20]}" for r in REFUSED])
def test_bad_paper_totals_are_refused_and_create_nothing(ann, db_path, slug, names, fields,
                                                         words, rule):
    ann.get("/")
    before = snapshot(db_path)
    r = ann.post(f"/new/{slug}", _form(names, **fields))
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    notice = text_of(html, "[role=alert]")
    assert words in notice
    if rule is not None:
        assert rule in notice
    assert snapshot(db_path) == before
    if select(html, "details#paper"):            # the form again, the fold open, the totals kept
        assert "open" in select(html, "details#paper")[0].attrs
        for key, value in fields.items():
            if key.startswith("paper_") and select(html, f"input[name={key}]"):
                assert select(html, f"input[name={key}]")[0].attrs["value"] == str(value)


def test_zocknroll_goes_on_from_the_paper_boards(ann):
    form = ann.get("/new/zocknroll").get_data(as_text=True)
    boards = select(form, "details#paper details.paper-board")
    assert len(boards) == 6 and text_of(boards[0], "summary") == "Board of player 1"
    labels = [text_of(n) for n in select(boards[0], "label")]
    assert labels[0] == "Winner of Third Round" and "Pair" in labels and "Royal Pairs" in labels
    assert select(boards[0], "li.only-board-advanced") and select(boards[0], "li.only-board-beginner")
    table_id = _table_id(ann.post("/new/zocknroll", _form(
        ["Ann", "Bob", "Cy"], paper_0_winner=2, paper_0_pair=5, paper_1_yahtzee=1)))
    page = ann.page(table_id)
    assert text_of(page, '[data-total-for="Ann"]') == "16"        # 2 x 3 + 5 x 2 (ZNR-9)
    assert text_of(page, '[data-total-for="Bob"]') == "12"
    assert "From the paper sheet: Ann 16 · Bob 12 · Cy 0" in text_of(page, "#paper-line")
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "From the paper sheet: Ann ✓7, Bob ✓1" in history


def test_blank_paper_boxes_start_an_ordinary_game(ann, db_path):
    table_id = _table_id(ann.post("/new/rook", _form(NAMES, paper_A="", paper_B=" ")))
    assert count(db_path, "actions", "table_id = ?", [table_id]) == 0
    assert not select(ann.page(table_id), "#paper-line")


def test_score_pad_totals_by_player_count_toward_the_target(ann):
    # The starter's row goes first: the totals follow the names, not the rows.
    table_id = _table_id(ann.post("/new/scorepad", _form(
        ["Ann", "Bob", "Cy"], target=100, paper_0=90, paper_1=-20, paper_2=40)))
    page = ann.page(table_id)
    line = select(page, "#paper-line")[0]
    assert [text_of(td) for td in select(line, "td")] == ["90", "-20", "40"]
    assert text_of(page, '[data-player="Ann"]') == "90"
    assert ann.enter(table_id, {0: 10, 1: 0, 2: 0}).status_code == 200
    page = ann.page(table_id)
    assert text_of(page, '[data-player="Ann"]') == "100" and "Game over — winner: Ann" in text_of(page, "#game-over")


def test_a_groups_table_goes_on_from_paper_too(new_phone):
    ann = new_phone("Ann")
    group_id = make_group(ann, players="Ann\nBob\nCid\nDee\n")
    table_id = _table_id(ann.post(f"/g/{group_id}/new/rainbow_rummy",
                                  _form(NAMES, paper_A=95, paper_B=60)))
    page = ann.page(table_id)
    assert text_of(page, '[data-team-total="A"]') == "95"
    assert "From the paper sheet" in text_of(page, "#paper-line")


# ---------------------------------------------------------------- the sheet as a picture

def _image_data(html: str) -> dict:
    import json
    return json.loads(select(html, "script#sheet-image-data")[0].text)


def test_a_finished_sheet_offers_its_picture_on_history_only(ann):
    table_id = _table_id(ann.post("/new/rook", _form(NAMES, paper_A=340, paper_B=285)))
    history = ann.get(f"/t/{table_id}/history").get_data(as_text=True)
    assert not select(history, "#share-sheet")                 # not while the game goes on
    assert "sheet-image.js" not in history
    hand(ann, table_id, bidder="Bob", bid=150, points_A=70, points_B=180)
    hand(ann, table_id, bidder="Ann", bid=190, points_A=200, points_B=50)
    page = ann.page(table_id)
    assert "sheet-image.js" not in page                         # the table page stays light
    link = select(page, "#share-sheet-link")[0]
    assert link.attrs["href"] == f"/t/{table_id}/history#share-sheet"
    history = ann.get(f"/t/{table_id}/history").get_data(as_text=True)
    assert any("/js/sheet-image.js" in s.attrs.get("src", "") for s in select(history, "script"))
    box = select(history, "#share-sheet")[0]
    assert "hidden" in box.attrs                                # shown by the script
    button = select(box, "button[data-sheet-image]")[0]
    assert button.attrs["data-sheet-image"] == "sheet-image-data"
    data = _image_data(history)
    assert data["title"] == "Rook" and re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", data["date"])
    assert data["columns"] == ["Ann & Cid", "Bob & Dee"] and data["players"] == NAMES
    assert [(r["label"], r["note"], r["changes"], r["running"]) for r in data["rows"]] == [
        ("From the paper sheet", "", [None, None], [340, 285]),
        ("Hand 1", "Bob bid 150", [70, 180], [410, 465]),
        ("Hand 2", "Ann bid 190", [200, 50], [610, 515]),
    ]
    assert data["totals"] == [610, 515] and data["winners"] == ["Ann & Cid"]
    assert data["result"] == "Game over — winner: Ann & Cid"
    assert re.fullmatch(r"rook-\d{4}-\d\d-\d\d\.png", data["filename"])
    js = ann.get("/static/js/sheet-image.js")
    assert js.status_code == 200 and b"toBlob" in js.get_data()


def test_the_picture_of_a_score_pad_in_japanese_keeps_the_names(ann):
    table_id = _table_id(ann.post("/new/scorepad", _form(["花子", "太郎"], target=50)))
    ann.enter(table_id, {0: 30, 1: 10})
    ann.enter(table_id, {0: 25, 1: 5})
    ann.get("/language?to=ja&next=/")
    data = _image_data(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert data["columns"] == ["花子", "太郎"] and data["players"] == []
    assert [r["running"] for r in data["rows"]] == [[30, 10], [55, 15]]
    assert data["totals"] == [55, 15] and data["winners"] == ["花子"]


def test_after_a_rematch_history_offers_the_game_before(ann):
    table_id = _table_id(ann.post("/new/rook", _form(NAMES, paper_A=340, paper_B=285)))
    hand(ann, table_id, bidder="Ann", bid=250, points_A=250, points_B=0)    # 590: not yet
    hand(ann, table_id, bidder="Bob", bid=150, points_A=70, points_B=180)   # A 660: over
    page = ann.page(table_id)
    rematch = select(page, "form[action$='/rematch']")[0]
    fields = {n.attrs["name"]: n.attrs.get("value", "") for n in select(rematch, "input[name]")}
    assert ann.post(f"/t/{table_id}/rematch", fields, hx=True).status_code == 200
    data = _image_data(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert data["totals"] == [660, 465] and data["winners"] == ["Ann & Cid"]
    assert data["rows"][0]["label"] == "From the paper sheet" and len(data["rows"]) == 3
    assert data["date"]


def test_striking_the_paper_line_starts_the_game_from_nothing(ann):
    """The paper line is an entry like any other: struck (audited), the sheet starts at 0."""
    table_id = _table_id(ann.post("/new/rook", _form(NAMES, paper_A=340, paper_B=285)))
    page = ann.page(table_id)
    undo = select(page, "form[action$='/undo']")[0]
    fields = {n.attrs["name"]: n.attrs.get("value", "") for n in select(undo, "input[name]")}
    assert ann.post(f"/t/{table_id}/undo", fields, hx=True).status_code == 200
    page = ann.page(table_id)
    assert text_of(page, '[data-team="A"]') == "0" and not select(page, "#paper-line")
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "From the paper sheet: Ann & Cid 340, Bob & Dee 285" in history
