"""The table's chrome through the test client: a strike restored from the history,
destructive actions that ask first, the live history, and the me-bar, invite and host tools
carried by every live answer so host changes and removals reach each phone."""
from __future__ import annotations

from helpers import attr, forms, inputs, select, text_of, totals
from web_helpers import count, db_rows, seq_saved


def history(phone, table_id: str, **kw) -> str:
    r = phone.get(f"/t/{table_id}/history", **kw)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def form_for(page: str, button_id: str) -> dict:
    """The fields of the form holding the button `button_id`."""
    for form in forms(page):
        if form.select(f"#{button_id}"):
            return inputs(form.html)
    raise AssertionError(f"no form with #{button_id}")


def post_form(phone, table_id: str, fields: dict, hx: bool = True):
    return phone.post(f"/t/{table_id}/undo",
                      {k: fields[k] for k in ("sid", "target", "from")}, hx=hx)


def test_a_strike_asks_first_and_can_be_restored_from_the_history(table, db_path):
    first = seq_saved(table.host.enter(table.id, {0: 10, 1: 1}))
    table.bob.enter(table.id, {0: 2, 1: 20})
    page = history(table.bob, table.id)
    # Strike asks first (htmx's hx-confirm: the browser's own confirm box, no page script).
    strike_form = [f for f in forms(page) if f.select(f"#strike-{first}")][0]
    assert f"Strike entry #{first}" in strike_form.get("hx-confirm")
    r = post_form(table.bob, table.id, form_for(page, f"strike-{first}"))
    assert r.status_code == 200 and f"Entry #{first} was struck" in text_of(r.get_data(as_text=True))
    strike = first + 2
    assert totals(table.host.page(table.id)) == {"Ann": 2, "Bob": 20, "Cy": 0}

    # The strike offers "Restore" (no confirm: nothing is lost by it).
    page = history(table.host, table.id)
    restore_form = [f for f in forms(page) if f.select(f"#restore-{first}")][0]
    assert restore_form.get("hx-confirm") is None
    fields = form_for(page, f"restore-{first}")
    assert fields["target"] == str(strike)
    r = post_form(table.host, table.id, fields)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="history"')
    assert f"Entry #{first} is back on the sheet." in text_of(body)
    assert select(body, "[data-answer]"), "the answer is marked to be brought into view"
    restore = strike + 1
    # The trail: who restored what, when; the strike marked taken back; the entry live.
    line = text_of(body, f"#action-{restore}")
    assert f"Restored entry #{first}" in line and "Ann" in line
    assert f"taken back by #{restore}" in text_of(body, f"#action-{strike}")
    assert attr(body, f"#action-{first}", "class") == "h-game"
    assert not select(body, f"#restore-{first}")            # nothing left to restore
    assert select(body, f"#strike-{first}")                 # it can be struck again
    assert totals(table.host.page(table.id)) == {"Ann": 12, "Bob": 21, "Cy": 0}
    assert db_rows(db_path, "SELECT seq, kind, undone_by FROM actions WHERE kind != 'seat'"
                            " ORDER BY seq") == [
        (first, "game", None), (first + 1, "game", None), (strike, "undo", restore),
        (restore, "undo", None)]
    # A repeated tap is harmless; the plain form (no htmx) goes back to the history page.
    r = post_form(table.host, table.id, fields)
    assert r.status_code == 200 and count(db_path, "actions", "kind = 'undo'") == 2


def test_a_restore_the_sheet_cannot_take_is_refused_plainly(table, db_path):
    first = seq_saved(table.host.enter(table.id, {0: 45}))
    page = history(table.host, table.id)
    post_form(table.host, table.id, form_for(page, f"strike-{first}"))
    table.host.enter(table.id, {0: 45})          # Ann 45 again: without #1 the game goes on
    table.bob.enter(table.id, {1: 3})
    before = db_rows(db_path, "SELECT * FROM actions")
    page = history(table.bob, table.id)
    r = post_form(table.bob, table.id, form_for(page, f"restore-{first}"))
    assert r.status_code == 422
    text = text_of(r.get_data(as_text=True))
    assert f"Entry #{first} can't be restored" in text and "The game is over" in text
    assert db_rows(db_path, "SELECT * FROM actions") == before


def test_spectators_see_the_history_but_no_strike_or_restore(table, new_phone):
    first = seq_saved(table.host.enter(table.id, {0: 5}))
    page = history(table.host, table.id)
    post_form(table.host, table.id, form_for(page, f"strike-{first}"))
    watcher = new_phone("Watcher")
    watcher.join(table.join_path)
    page = history(watcher, table.id)
    assert f"Undid entry #{first}" in text_of(page)
    assert not select(page, "#history form")


def test_the_history_refreshes_live(table):
    page = history(table.bob, table.id)
    section = select(page, "#history")[0]
    assert "changed from:#live" in section.get("hx-trigger")
    assert select(page, "#live[data-stream]") and select(page, "#live-state")
    url = section.get("hx-get")
    assert table.bob.get(url, hx=True).status_code == 204        # nothing new yet
    table.host.enter(table.id, {0: 5})
    r = table.bob.get(url, hx=True)
    assert r.status_code == 200 and "Round: Ann +5" in text_of(r.get_data(as_text=True))


def test_make_host_and_remove_phone_ask_first_and_answer_with_the_chrome(table, new_phone):
    page = table.host.page(table.id)
    for button in ("make-host-1", "remove-phone-1"):
        form = [f for f in forms(page) if f.select(f"#{button}")][0]
        assert form.get("hx-confirm") and "Bob" in form.get("hx-confirm"), button
        assert form.get("hx-swap") == "none"
    # Make host, the htmx way: this phone's chrome comes back, out of band, without tools.
    fields = form_for(page, "make-host-1")
    r = table.host.post(f"/t/{table.id}/host/pass", {"seat": fields["seat"]}, hx=True)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert attr(body, "#me-bar", "hx-swap-oob") == "outerMorph"
    assert "Bob is the host now." in text_of(body, "#flash")
    assert not select(body, "#host")
    # Bob's next live refresh carries his new tools (no reload).
    r = table.bob.get(f"/t/{table.id}/play", hx=True)
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="play"')
    assert "You are Bob · host" in text_of(body, "#me-bar")
    assert select(body, "#table-tools #host")
    # Bob removes Ann's phone: Ann's refresh shows her as a spectator.
    r = table.bob.post(f"/t/{table.id}/host/release", {"seat": "0"}, hx=True)
    assert r.status_code == 200 and "Ann’s phone was removed" in text_of(r.get_data(as_text=True))
    body = table.host.get(f"/t/{table.id}/play", hx=True).get_data(as_text=True)
    assert "You are watching." in text_of(body, "#me-bar")
    assert "You are Ann" not in text_of(body)


def test_the_hosts_first_screen_shows_the_qr_until_a_second_phone_sits(new_phone):
    ann = new_phone("Ann")
    table_id = ann.create_table(["Ann", "Bob"], me=0)
    page = ann.page(table_id)
    assert select(page, "#first-screen #invite[open] svg.qr")
    assert page.index('id="first-screen"') < page.index('id="play"')
    bob = new_phone("Bob")
    bob.join(ann.join_path(table_id))
    assert not select(bob.page(table_id), "#first-screen #invite")   # not the host's phone
    bob.claim(table_id, 1)
    body = ann.get(f"/t/{table_id}/play", hx=True).get_data(as_text=True)
    assert not select(body, "#first-screen #invite")
    invite = select(body, "#table-tools #invite")[0]
    assert invite.get("open") is None and invite.get("data-keep-open") is not None


def test_copy_on_the_chrome(new_phone, app):
    ann = new_phone("Ann")
    page = text_of(ann.get("/new").get_data(as_text=True))
    assert "on the way" not in page and "4–4" not in page
    app.config["PUBLIC_URL"] = "http://192.168.1.23:8000"
    table_id = ann.create_table(["Ann", "Bob"], me=0)
    page = ann.page(table_id)
    assert attr(page, "#live-state", "data-polling") == "updates every 2 s"
    assert not select(page, "#loopback-warning")
    # Served on loopback only: the invite says phones can't reach it, and what to do.
    app.config["PUBLIC_URL"] = "http://127.0.0.1:8000"
    page = ann.page(table_id)
    assert "companion serve --host 0.0.0.0" in text_of(page, "#loopback-warning")
    assert "Change seat" in text_of(page, "#me-bar")
