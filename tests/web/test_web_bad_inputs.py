"""Bad inputs get a 4xx with a plain message and change nothing (and never a 500).

Every `Phone` request already fails the test on a 5xx (see web_helpers.Phone._check).
"""
from __future__ import annotations

import re

import pytest

from helpers import form_block, inputs, text_of
from web_helpers import HX, count, snapshot


def assert_plain(response, *needles: str) -> str:
    """A readable sentence for the player: no traceback, no Python exception text."""
    body = response.get_data(as_text=True)
    text = text_of(body)
    for needle in needles:
        assert needle in text, (needle, text[:1500])
    for leak in ("Traceback", "invalid literal", "Exception", "KeyError", "ValueError",
                 "werkzeug", "jinja2"):
        assert leak not in body, (leak, text[:1500])
    return text



@pytest.fixture
def played(table):
    """The table with one round already entered (so stale versions can conflict)."""
    table.host.enter(table.id, {0: 5, 1: 5})
    return table


@pytest.mark.parametrize("raw", [
    "abc", "1.5", "1,5", "1e9", "1e3", "0x10", "five", "NaN", "inf", "∞", "5-", "½", "1_000",
    "--5", "+-5", "²", "٣٣٣٣٣٣٣٣٣٣", "9" * 10, "1" * 5000, "12345678901234567890", "<b>1</b>",
    "1;DROP TABLE actions", "\x00", "9999999",
])
def test_non_number_scores_are_refused_and_change_nothing(played, db_path, raw):
    before = snapshot(db_path)
    form = played.bob.entry_form(played.id)
    r = played.bob.enter(played.id, {0: "3", 1: raw}, form=form)
    assert r.status_code == 422, (raw, r.status_code)
    text = assert_plain(r)
    assert "Bob's score" in text, text[:500]
    assert snapshot(db_path) == before
    # The form comes back with what was typed (cut short for huge input), ready to fix.
    again = inputs(form_block(r.get_data(as_text=True), 'id="entry-form"'))
    assert again["score_0"] == "3"
    assert again["score_1"] == raw[:40]


def test_scores_out_of_range_name_the_rule(played, db_path):
    before = snapshot(db_path)
    r = played.bob.enter(played.id, {1: "1000001"})
    assert r.status_code == 422
    assert_plain(r, "Bob's score of 1,000,001 is too large", "SP-6")
    r = played.bob.enter(played.id, {1: "-1000001"})
    assert r.status_code == 422
    assert snapshot(db_path) == before
    assert played.bob.enter(played.id, {1: "-1000000"}).status_code == 200  # the limit itself is fine


def test_an_empty_round_is_refused(played, db_path):
    before = snapshot(db_path)
    r = played.bob.enter(played.id, {0: "", 1: "  ", 2: ""})
    assert r.status_code == 422
    assert_plain(r, "Type every player's score before saving the round")
    assert snapshot(db_path) == before


def test_unknown_seat_numbers_are_refused(played, db_path):
    before = snapshot(db_path)
    # A score only for seats this table doesn't have.
    for field in ("score_3", "score_99", "score_-1", "score_x"):
        r = played.bob.post(f"/t/{played.id}/actions",
                            {**played.bob.entry_form(played.id), field: "5"}, hx=True)
        assert r.status_code == 422, field
        assert_plain(r)
    # Sitting in a seat that doesn't exist.
    for seat in ("3", "99", "-1"):
        r = played.bob.claim(played.id, seat)
        assert r.status_code == 404
        assert_plain(r, "That seat doesn't exist")
    for seat in ("abc", "", "1.0"):
        assert played.bob.claim(played.id, seat).status_code == 400
    assert snapshot(db_path) == before


def test_a_score_for_an_unknown_seat_beside_valid_ones_is_refused(played, db_path):
    before = snapshot(db_path)
    r = played.bob.enter(played.id, {1: 4}, extra={"score_7": "9"})
    assert r.status_code == 422
    assert snapshot(db_path) == before


def test_stale_version_is_a_conflict_and_changes_nothing(played, db_path):
    form = played.bob.entry_form(played.id)
    played.host.enter(played.id, {0: 1})
    before = snapshot(db_path)
    r = played.bob.enter(played.id, {1: 2}, form=form)
    assert r.status_code == 409
    assert_plain(r, "Ann saved an entry", "Your entry is still here")
    assert snapshot(db_path) == before


@pytest.mark.parametrize("version", ["", "abc", "1.5", "1e3", " ", "1 2"])
def test_missing_or_unreadable_version_is_400(played, db_path, version):
    before = snapshot(db_path)
    form = played.bob.entry_form(played.id)
    r = played.bob.enter(played.id, {1: 2}, sid=form["sid"], version=version)
    assert 400 <= r.status_code < 500
    assert_plain(r)
    r = played.bob.post(f"/t/{played.id}/actions", {"sid": form["sid"], "score_1": "2"}, hx=True)
    assert r.status_code == 400
    assert_plain(r, "missing its sheet version")
    assert snapshot(db_path) == before


@pytest.mark.parametrize("version", ["-1", "999999", "9" * 40])
def test_a_version_the_table_never_had_is_refused(table, db_path, version):
    """Made-up versions: below the table's first or above its current one."""
    before = snapshot(db_path)
    r = table.bob.enter(table.id, {1: 2}, version=version, sid=f"made-up-{version[:8]}")
    assert 400 <= r.status_code < 500, r.status_code
    assert_plain(r)
    assert snapshot(db_path) == before


@pytest.mark.parametrize("sid", [None, "", "x" * 65])
def test_missing_or_oversized_submission_id_is_400(played, db_path, sid):
    before = snapshot(db_path)
    form = played.bob.entry_form(played.id)
    data = {"version": form["version"], "score_1": "2"}
    if sid is not None:
        data["sid"] = sid
    for url, extra in (("actions", {}), ("undo", {"target": "1"}), ("rematch", {})):
        r = played.bob.post(f"/t/{played.id}/{url}", {**data, **extra}, hx=True)
        assert r.status_code == 400, url
        assert_plain(r)
    assert snapshot(db_path) == before


POSTS = [
    ("/t/{id}/actions", {"sid": "s1", "version": "1", "score_0": "5"}),
    ("/t/{id}/undo", {"sid": "s2", "target": "1"}),
    ("/t/{id}/rematch", {"sid": "s3"}),
    ("/t/{id}/seats", {"seat": "2"}),
    ("/t/{id}/host/rejoin", {"seat": "1"}),
    ("/t/{id}/host/release", {"seat": "1"}),
    ("/t/{id}/host/pass", {"seat": "1"}),
    ("/join", {"code": "ABCDEF"}),
    ("/new/scorepad", {"name_0": "X", "name_1": "Y", "me": "0"}),
]


@pytest.mark.parametrize("url,data", POSTS)
def test_missing_or_wrong_csrf_token_is_400_and_changes_nothing(played, db_path, url, data):
    url = url.format(id=played.id)
    before = snapshot(db_path)
    for token, hx in ((None, False), (None, True), ("forged", False), ("", True)):
        payload = dict(data)
        if token is not None:
            payload["csrf_token"] = token
        r = played.host.post(url, payload, csrf=False, hx=hx)
        assert r.status_code == 400, (url, token, r.status_code)
        assert_plain(r, "nothing was saved")
        if hx:
            assert "<html" not in r.get_data(as_text=True)
    # Another phone's token doesn't work either (tokens are tied to the session).
    r = played.host.post(url, {**data, "csrf_token": played.bob.csrf()}, csrf=False)
    assert r.status_code == 400
    assert snapshot(db_path) == before


def test_csrf_token_in_the_htmx_header_is_accepted(played):
    form = played.bob.entry_form(played.id)
    r = played.bob.post(f"/t/{played.id}/actions",
                        {"sid": form["sid"], "version": form["version"], "score_0": "0",
                         "score_1": "4", "score_2": "0"},
                        csrf=False, hx=True, headers={"X-CSRFToken": form["csrf_token"]})
    assert r.status_code == 200


def test_a_foreign_tables_cookie_opens_nothing(table, new_phone, db_path):
    # Table B, hosted by Zed, has its own phones.
    zed = new_phone("Zed")
    b_id = zed.create_table(["Zed", "Yan"])
    before = snapshot(db_path)
    ann = table.host  # seated at table A only
    for url in ("", "/play", "/play?since=0", "/history", "/seats", "/stream"):
        r = ann.get(f"/t/{b_id}{url}")
        assert r.status_code == 403, url
        assert_plain(r, "private to the phones that joined it")
    # Even with A's secret in an old-style cookie for B (what a phone from before the one
    # cookie carried): it is adopted only where it proves a phone, and it proves none at B.
    ann.client.set_cookie(f"tc_{b_id}", ann.cookie("tc"))
    r = ann.get(f"/t/{b_id}")
    assert r.status_code == 403
    b_form = {"sid": "steal", "version": "1", "score_0": "5"}
    for url, data in (("actions", b_form), ("seats", {"seat": "1"}),
                      ("host/pass", {"seat": "0"}), ("host/rejoin", {"seat": "0"})):
        r = ann.post(f"/t/{b_id}/{url}", data, hx=True)
        assert r.status_code == 403, url
        assert "Zed" not in r.get_data(as_text=True)
    assert snapshot(db_path) == before
    # A's QR token only ever opens table A.
    r = ann.join(table.join_path)
    assert r.headers["Location"].endswith(f"/t/{table.id}")
    fresh = new_phone("fresh")
    r = fresh.join(table.join_path)
    assert f"/t/{table.id}/" in r.headers["Location"] and b_id not in r.headers["Location"]
    assert fresh.get(f"/t/{b_id}").status_code == 403
    # And B's page never shows A's token.
    token = table.join_path.rsplit("#", 1)[1]
    assert token not in zed.page(b_id)


def test_unknown_table_is_404(played, new_phone, db_path):
    before = snapshot(db_path)
    for url in ("/t/nope", "/t/nope/play", "/t/nope/history", "/t/nope/play?since=1",
                "/t/" + "x" * 300, "/t/nope/stream"):
        r = played.host.get(url)
        assert r.status_code == 404, url
        assert_plain(r, "no such table")
    r = played.host.post("/t/nope/actions", {"sid": "s", "version": "1", "score_0": "1"}, hx=True)
    assert r.status_code == 404
    assert "<html" not in r.get_data(as_text=True)  # an htmx request gets the small fragment
    assert played.host.get("/nowhere").status_code == 404
    assert played.host.get("/new/no-such-game").status_code == 404
    assert snapshot(db_path) == before


NEW_TABLE_CASES = [
    ({"target": "-3"}, "Target score must be a whole number between 1 and 1,000,000"),
    ({"target": "abc"}, "Target score must be a whole number"),
    ({"target": "1.5"}, "Target score must be a whole number"),
    ({"target": "0"}, "Target score must be a whole number between 1 and 1,000,000"),
    ({"target": "99999999999999999999"}, "Target score must be a whole number"),
    ({"rounds": "0"}, "Number of rounds must be a whole number"),
    ({"rounds": "ten"}, "Number of rounds must be a whole number"),
    ({"low_wins": "maybe"}, "Lowest total wins must be yes or no"),
    ({"name_1": "ann"}, "Player names must be different: 'Ann' appears twice"),
    ({"name_1": " Ann "}, "Player names must be different"),
    ({"name_1": ""}, "Score pad is for 2 to 12 players, not 1"),
    ({"name_0": "", "name_1": ""}, None),
    ({"me": "5"}, "Mark which player you are"),
    ({"name_1": "B" * 33}, "is too long"),
]


@pytest.mark.parametrize("change,message", NEW_TABLE_CASES)
def test_bad_new_table_form_is_422_with_the_message(new_phone, db_path, change, message):
    ann = new_phone("Ann")
    before = snapshot(db_path)
    data = {"name_0": "Ann", "name_1": "Bob", "me": "0", **change}
    r = ann.post("/new/scorepad", data)
    assert r.status_code == 422
    text = assert_plain(r, *( [message] if message else []))
    assert "New Score pad table" in text
    # The form comes back filled in, so the player only fixes the one thing.
    values = inputs(r.get_data(as_text=True))
    assert values["name_0"] == data["name_0"]
    assert snapshot(db_path) == before
    assert count(db_path, "tables") == 0


def test_oversized_and_odd_requests_never_500(played, db_path):
    before = snapshot(db_path)
    host = played.host
    huge = "9" * 200_000
    r = host.post(f"/t/{played.id}/actions", {"sid": "big", "version": huge, "score_0": huge}, hx=True)
    assert 400 <= r.status_code < 500
    r = host.post("/join", {"code": "A" * 100_000})
    assert 400 <= r.status_code < 500
    r = host.get(f"/t/{played.id}/play", query_string={"since": huge}, headers=HX)
    assert r.status_code == 200
    assert host.client.put(f"/t/{played.id}/actions").status_code == 405
    assert host.client.delete(f"/t/{played.id}").status_code == 405
    r = host.post(f"/t/{played.id}/actions", {"sid": "\x00\x01", "version": "1\x00", "score_0": "\ud7ff"},
                  hx=True)
    assert 400 <= r.status_code < 500
    assert snapshot(db_path) == before


def test_strangers_without_any_cookie_get_403_not_data(played, new_phone):
    stranger = new_phone("stranger")
    r = stranger.get(f"/t/{played.id}")
    assert r.status_code == 403
    body = r.get_data(as_text=True)
    assert "Ann" not in body and "Bob" not in body
    assert not re.search(r"/[Jj][/#][A-Z2-7]{20,}", body)
