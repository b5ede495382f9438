"""The chrome (me-bar, invite, host tools) is shared per what it shows, not per table
version (issue 18): an entry reuses it, also for the phone that posted the entry, while a
seat change, a host pass, a removed phone, a phone sitting down or another language draws
it afresh, and two phones never get each other's chrome."""
from __future__ import annotations

from companion.web import fragments
from helpers import select, text_of


def play(phone, table_id: str) -> str:
    r = phone.get(f"/t/{table_id}/play", hx=True)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def chrome_of(body: str) -> str:
    """The out-of-band chrome appended after #play."""
    return body[body.index('id="me-bar"'):]


def test_an_entry_reuses_the_chrome_for_the_poster_and_the_others(table):
    play(table.host, table.id)
    play(table.bob, table.id)
    fragments.clear()
    r = table.host.enter(table.id, {0: 5, 1: 3})
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and "Saved as entry" in body
    assert fragments.chrome_stats == {"hits": 0, "misses": 1}    # the poster's chrome, drawn once
    assert "You are Ann · host" in text_of(body, "#me-bar") and select(body, "#host")
    r = table.host.enter(table.id, {0: 1, 1: 1})
    assert r.status_code == 200
    assert fragments.chrome_stats == {"hits": 1, "misses": 1}    # the next entry: from the cache
    assert chrome_of(r.get_data(as_text=True)).count("csrf_token") >= 1
    own = table.host.csrf().split(".")[0]
    assert own in chrome_of(r.get_data(as_text=True))
    # Bob's refresh: his sheet is new (a miss), his chrome too (another seat), then shared.
    bob = play(table.bob, table.id)
    assert "You are Bob" in text_of(bob, "#me-bar") and not select(bob, "#host")
    assert "You are Ann" not in text_of(bob) and table.host.csrf().split(".")[0] not in bob
    table.bob.enter(table.id, {0: 2, 1: 2})
    hits = fragments.chrome_stats["hits"]
    table.bob.enter(table.id, {0: 2, 1: 2})
    assert fragments.chrome_stats["hits"] == hits + 1


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
    body = table.host.enter(table.id, {0: 2}).get_data(as_text=True)
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
    body = table.host.enter(table.id, {0: 2}).get_data(as_text=True)
    assert "Host tools" not in text_of(body)
    table.host.client.set_cookie("lang", "en")
    body = table.host.enter(table.id, {0: 3}).get_data(as_text=True)
    assert "Host tools" in text_of(body, "#host")
