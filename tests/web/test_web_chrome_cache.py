"""The chrome (me-bar, invite, host tools) is shared per what it shows, not per table
version (web/fragments.py `Chrome`): an entry reuses it, while a seat change, a host pass, a removed phone, a
phone sitting down or another language draws it afresh, and two phones never get each
other's chrome. An answer carries it only to a phone whose page is older than the last
change to it (`tables.chrome_version`): an entry's answer and the refreshes after an entry
leave it out."""
from __future__ import annotations

import re

from companion.web import fragments
from helpers import select, text_of

VERSION = re.compile(r'id="sheet"[^>]*data-version="(\d+)"')


def play(phone, table_id: str, since: int | None = None) -> str:
    query = "" if since is None else f"?since={since}"
    r = phone.get(f"/t/{table_id}/play{query}", hx=True)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def version_of(body: str) -> int:
    return int(VERSION.search(body).group(1))


def has_chrome(body: str) -> bool:
    return all(f'id="{part}" hx-swap-oob' in body for part in ("me-bar", "first-screen",
                                                               "table-tools"))


def chrome_of(body: str) -> str:
    """The out-of-band chrome appended after #play."""
    return body[body.index('id="me-bar"'):]


def test_an_entry_reuses_the_chrome_and_its_answers_leave_it_out(table):
    first = play(table.host, table.id)           # no `since`: the chrome always comes
    assert has_chrome(first) and "You are Ann · host" in text_of(first, "#me-bar")
    play(table.bob, table.id)
    fragments.clear()
    r = table.host.enter(table.id, {0: 5, 1: 3})
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and "Saved as entry" in body
    # The form was drawn after the last seat change: the phone has this chrome already.
    assert not has_chrome(body) and 'id="me-bar"' not in body
    assert fragments.chrome_stats == {"hits": 0, "misses": 0}
    # Bob's live refresh from the version before the entry: the sheet, not the chrome.
    bob = play(table.bob, table.id, since=version_of(first))
    assert version_of(bob) == version_of(body) and not has_chrome(bob)
    # A page older than the chrome gets it, drawn once and then shared per what it shows.
    for _ in range(2):
        again = play(table.host, table.id, since=0)
        assert has_chrome(again) and "You are Ann · host" in text_of(again, "#me-bar")
        assert table.host.csrf().split(".")[0] in again[again.index('id="me-bar"'):]
    assert fragments.chrome_stats == {"hits": 1, "misses": 1}
    bob = play(table.bob, table.id, since=0)
    assert "You are Bob" in text_of(bob, "#me-bar") and not select(bob, "#host")
    assert "You are Ann" not in text_of(bob) and table.host.csrf().split(".")[0] not in bob


def test_a_seat_change_reaches_a_phone_in_its_next_answer(table, new_phone):
    """The chrome comes with the first answer after a seat change, a refresh's or a
    write's, whichever the phone makes first, and not again after it."""
    shown = version_of(play(table.host, table.id))
    cy = new_phone("Cy")
    assert cy.join(table.join_path).status_code == 303
    assert cy.claim(table.id, 2).status_code == 303
    # Ann saves a round from the form she had before Cy sat down: the answer brings Cy.
    body = table.host.enter(table.id, {0: 1, 1: 0, 2: 0}, version=shown,
                            sid="seat-change-1").get_data(as_text=True)
    assert "Saved as entry" in body and has_chrome(body)
    assert select(body, "#remove-phone-2") and "no phone" not in text_of(body, "#host")
    # Her next entry, from the form that answer drew: no chrome.
    body = table.host.enter(table.id, {0: 2, 1: 0, 2: 0}, version=version_of(body),
                            sid="seat-change-2").get_data(as_text=True)
    assert "Saved as entry" in body and not has_chrome(body)
    # Bob's refresh from before Cy sat down brings it; from after, not.
    assert select(play(table.bob, table.id, since=shown), "#me-bar")
    after = play(table.bob, table.id, since=version_of(body) - 1)
    assert not has_chrome(after)


def test_two_phones_never_get_each_others_chrome(table, new_phone):
    watcher = new_phone("Watcher")
    assert watcher.join(table.join_path).status_code == 303
    fragments.clear()
    for _ in range(2):
        table.host.enter(table.id, {0: 1})
        ann, bob, watching = (play(p, table.id) for p in (table.host, table.bob, watcher))
        assert "You are Ann · host" in text_of(ann, "#me-bar") and select(ann, "#host")
        assert "You are Bob" in text_of(bob, "#me-bar") and not select(bob, "#host")
        assert "You are watching." in text_of(watching, "#me-bar")
        assert not select(watching, "#host")
        for body, phone in ((ann, table.host), (bob, table.bob), (watching, watcher)):
            others = {p.csrf().split(".")[0] for p in (table.host, table.bob, watcher)
                      if p is not phone}
            assert not any(token in body for token in others)
            assert "\x00" not in body
        # The host's tools are forms: they carry the host's own token.
        assert table.host.csrf().split(".")[0] in chrome_of(ann)


def test_a_seat_change_redraws_the_chrome(table, new_phone):
    table.host.enter(table.id, {0: 1})
    before = play(table.host, table.id)
    assert "no phone" in text_of(before, "#host")          # Cy's seat is free
    cy = new_phone("Cy")
    assert cy.join(table.join_path).status_code == 303
    assert cy.claim(table.id, 2).status_code == 303
    after = play(table.host, table.id)
    assert "no phone" not in text_of(after, "#host")
    assert select(after, "#remove-phone-2")
    # Bob moves to the free seat... (Cy's now): he takes watch, then his chrome says so.
    r = table.bob.post(f"/t/{table.id}/seats", {"seat": "watch"})
    assert r.status_code == 303
    assert "You are watching." in text_of(play(table.bob, table.id), "#me-bar")
    assert not select(play(table.host, table.id), "#remove-phone-1")


def test_a_host_pass_and_a_removal_redraw_the_chrome(table):
    table.host.enter(table.id, {0: 1})
    assert select(play(table.host, table.id), "#host")
    assert not select(play(table.bob, table.id), "#host")
    r = table.host.post(f"/t/{table.id}/host/pass", {"seat": "1"}, hx=True)
    assert r.status_code == 200
    ann, bob = play(table.host, table.id), play(table.bob, table.id)
    assert not select(ann, "#host") and "host" not in text_of(ann, "#me-bar")
    assert select(bob, "#host") and "You are Bob · host" in text_of(bob, "#me-bar")
    # The entry after it reuses the new chrome, not the one from before the pass.
    body = play(table.host, table.id, since=0)
    assert not select(body, "#host")
    r = table.bob.post(f"/t/{table.id}/host/release", {"seat": "0"}, hx=True)
    assert r.status_code == 200
    assert "You are watching." in text_of(play(table.host, table.id), "#me-bar")
    assert not select(play(table.bob, table.id), "#remove-phone-0")


def test_another_language_gets_its_own_chrome(table):
    table.host.enter(table.id, {0: 1})
    english = play(table.host, table.id)
    assert "Host tools" in text_of(english, "#host")
    table.host.client.set_cookie("lang", "ja")
    japanese = play(table.host, table.id)
    assert "Host tools" not in text_of(japanese) and select(japanese, "#host")
    assert text_of(japanese, "#me-bar") != text_of(english, "#me-bar")
    table.host.enter(table.id, {0: 2})
    assert "Host tools" not in text_of(play(table.host, table.id, since=0))
    table.host.client.set_cookie("lang", "en")
    table.host.enter(table.id, {0: 3})
    assert "Host tools" in text_of(play(table.host, table.id, since=0), "#host")
