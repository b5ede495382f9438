"""One URL, a page or its htmx fragment; the polling fallback; the live SSE stream."""
from __future__ import annotations

import time

from helpers import attr
from web_helpers import Phone, make_app, play_part


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",")}


def current_version(phone, table_id) -> int:
    return int(attr(phone.page(table_id), "[data-version]", "data-version"))


def test_table_page_vs_play_fragment(table):
    full = table.host.get(f"/t/{table.id}")
    frag = table.host.get(f"/t/{table.id}", hx=True)
    restore = table.host.get(f"/t/{table.id}", headers={"HX-Request": "true",
                                                        "HX-History-Restore-Request": "true"})
    for r in (full, frag, restore):
        assert r.status_code == 200
        assert "hx-request" in vary(r)
        assert r.mimetype == "text/html"
    full_html, frag_html, restore_html = (r.get_data(as_text=True) for r in (full, frag, restore))
    assert full_html.lstrip().lower().startswith("<!doctype html>") and "<html" in full_html
    assert 'id="play"' in full_html and 'id="invite"' in full_html
    assert frag_html.lstrip().startswith('<div id="play"')
    assert "<html" not in frag_html and "<head" not in frag_html and 'id="invite"' not in frag_html
    assert 'id="sheet"' in frag_html and 'id="entry"' in frag_html
    assert "<html" in restore_html and 'id="invite"' in restore_html  # history restore: full page
    # HX-Request: false is not an htmx request.
    other = table.host.get(f"/t/{table.id}", headers={"HX-Request": "false"}).get_data(as_text=True)
    assert "<html" in other


def test_play_fragment_answers_204_when_nothing_changed(table):
    host = table.host
    v = current_version(host, table.id)
    r = host.get(f"/t/{table.id}/play?since={v}", hx=True)
    assert r.status_code == 204 and r.get_data() == b""
    r = host.get(f"/t/{table.id}/play?since={v - 1}", hx=True)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="play"') and "<html" not in body
    assert play_part(body, "sheet").startswith('<section id="sheet"')
    assert f'data-version="{v}"' in play_part(body, "sheet")
    assert "hx-request" in vary(r)
    # Without htmx the fragment's URL sends the browser to the page.
    r = host.get(f"/t/{table.id}/play?since={v - 1}")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table.id}")
    # A change elsewhere makes the old version stale.
    table.bob.enter(table.id, {1: 3})
    assert host.get(f"/t/{table.id}/play?since={v}", hx=True).status_code == 200
    # The entry form comes with it.
    r = host.get(f"/t/{table.id}/play", hx=True)
    assert r.status_code == 200
    assert play_part(r.get_data(as_text=True), "entry").startswith('<section id="entry"')


def test_version_polling_fallback(table):
    """The page's polling (every 2 s while the stream is silent) asks /play with the
    version it shows: 204 until the table changes, then the new version."""
    host = table.host
    v = current_version(host, table.id)
    r = host.get(f"/t/{table.id}/play?since={v}", hx=True)
    assert r.status_code == 204
    r = host.get(f"/t/{table.id}/play?since={v - 1}", hx=True)
    assert r.status_code == 200 and r.mimetype == "text/html"
    assert attr(r.get_data(as_text=True), "[data-version]", "data-version") == str(v)
    table.bob.enter(table.id, {1: 3})
    r = host.get(f"/t/{table.id}/play?since={v}", hx=True)
    assert r.status_code == 200
    assert int(attr(r.get_data(as_text=True), "[data-version]", "data-version")) == v + 1
    # Not for strangers.
    stranger = Phone(host.app, "stranger")
    assert stranger.get(f"/t/{table.id}/play?since=0", hx=True).status_code == 403


def test_sse_stream_first_chunk_has_the_current_version(tmp_path):
    app = make_app(tmp_path, LIVE_MAX_SECONDS=0.5, LIVE_KEEPALIVE=0.1)
    ann = Phone(app, "Ann")
    table_id = ann.create_table(["Ann", "Bob"])
    ann.enter(table_id, {0: 1})
    version = current_version(ann, table_id)
    started = time.monotonic()
    r = ann.client.get(f"/t/{table_id}/stream", buffered=False)
    try:
        assert r.status_code == 200
        assert r.mimetype == "text/event-stream"
        assert r.headers["Cache-Control"] == "no-cache"
        assert "default-src 'self'" in r.headers["Content-Security-Policy"]
        chunks = iter(r.response)
        first = next(chunks)
        first = first.decode() if isinstance(first, bytes) else first
        assert "event: changed" in first
        assert f"data: {version}\n" in first
        # Keep-alives follow, and the stream ends by itself after LIVE_MAX_SECONDS.
        rest = "".join(c.decode() if isinstance(c, bytes) else c for c in chunks)
        assert "event: ping" in rest
    finally:
        r.close()
    assert time.monotonic() - started < 5
    # Strangers get no stream.
    assert Phone(app, "stranger").get(f"/t/{table_id}/stream").status_code == 403


def test_sse_stream_reports_a_change_made_meanwhile(tmp_path):
    app = make_app(tmp_path, LIVE_MAX_SECONDS=3, LIVE_KEEPALIVE=0.2)
    ann = Phone(app, "Ann")
    table_id = ann.create_table(["Ann", "Bob"])
    version = current_version(ann, table_id)
    r = ann.client.get(f"/t/{table_id}/stream", buffered=False)
    try:
        chunks = iter(r.response)
        assert f"data: {version}\n" in next(chunks).decode()
        ann.enter(table_id, {0: 5})
        seen = ""
        deadline = time.monotonic() + 3
        while f"data: {version + 1}\n" not in seen and time.monotonic() < deadline:
            seen += next(chunks).decode()
        assert f"event: changed\ndata: {version + 1}\n" in seen
    finally:
        r.close()
