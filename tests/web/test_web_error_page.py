"""The error page never fails itself, and downloads are never cached (a shared computer must not keep a CSV of someone's event)."""
from __future__ import annotations

import pytest
from helpers import text_of
from test_web_events import create_event

import companion.web.errors as errors


def _no_files_left(*_args, **_kwargs):
    raise OSError(24, "Too many open files")


def test_an_error_page_that_cannot_be_drawn_is_still_a_page(new_phone, monkeypatch):
    monkeypatch.setattr(errors, "render_template", _no_files_left)
    r = new_phone("Ann").get("/t/no-such-table")
    assert r.status_code == 404
    page = r.get_data(as_text=True)
    assert "There is no such table" in text_of(page) and 'role="alert"' in page


def test_an_unexpected_fault_while_the_page_is_broken_is_a_plain_500(app, monkeypatch):
    monkeypatch.setattr(errors, "render_template", _no_files_left)
    monkeypatch.setattr(errors, "gettext", _no_files_left)

    @app.get("/boom-for-test")
    def boom():
        raise OSError(24, "Too many open files")

    r = app.test_client().get("/boom-for-test")   # (the Phone helper refuses any 500)
    assert r.status_code == 500
    assert "Something went wrong on the server" in text_of(r.get_data(as_text=True))


@pytest.mark.parametrize("download", ["results.csv", "standings.csv"])
def test_downloads_are_never_cached(new_phone, download):
    director = new_phone("Director")
    event_id = create_event(director)
    r = director.get(f"/e/{event_id}/{download}")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    assert r.headers["Cache-Control"] == "no-store"
