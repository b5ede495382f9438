"""Two phones type a round at the same time: the second save is refused with a clear
conflict, keeps what was typed, and goes through when saved again (ARCHITECTURE §3)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def expect_inputs(page, values: dict[int, str]) -> None:
    for pos, value in values.items():
        expect(page.locator(f"#score_{pos}")).to_have_value(value)


def test_stale_save_is_refused_and_keeps_what_was_typed(phones, ui):
    a, b = phones("A"), phones("B")
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    ui.join(b.page, join_url, "Bob")

    # Both phones type a round against the same version of the sheet.
    ui.type_round(a.page, {0: 10, 1: 1})
    ui.type_round(b.page, {0: 20, 1: 2})

    # A saves first. B's sheet follows live, but B's half-typed form is left alone.
    ui.enter_round(a.page, {0: 10, 1: 1})
    expect(ui.total(b.page, "Ann")).to_have_text("10")
    expect_inputs(b.page, {0: "20", 1: "2"})

    # B saves: refused with a conflict that says what happened; nothing of B's was saved.
    refused = ui.save(b.page)
    assert refused.status == 409
    said = re.search(r"Ann saved an entry \(#\d+\)", refused.text()).group(0)
    notice = b.page.locator("#entry .notice.stale")
    expect(notice).to_contain_text(said)
    expect(notice).to_contain_text("just before you")
    expect(notice).to_contain_text("Your entry is still here")
    expect_inputs(b.page, {0: "20", 1: "2"})
    for phone in (a, b):
        expect(ui.total(phone.page, "Ann")).to_have_text("10")
        expect(phone.page.locator("#sheet tbody tr")).to_have_count(1)

    # Another change arrives while B looks at the refusal: B's typing still survives.
    ui.enter_round(a.page, {0: 5, 1: 5})
    expect(ui.total(b.page, "Ann")).to_have_text("15")
    expect_inputs(b.page, {0: "20", 1: "2"})
    refused_again = ui.save(b.page)
    assert refused_again.status == 409
    said_again = re.search(r"Ann saved an entry \(#\d+\)", refused_again.text()).group(0)
    assert said_again != said
    expect(b.page.locator("#entry .notice.stale")).to_contain_text(said_again)
    expect_inputs(b.page, {0: "20", 1: "2"})

    # B saves again, now against the sheet it has seen: accepted, and A sees it live.
    accepted = ui.save(b.page)
    assert accepted.status == 200
    expect(b.page.locator("#entry .notice.ok")).to_contain_text("Saved as entry #")
    expect_inputs(b.page, {0: "", 1: ""})
    for phone in (a, b):
        expect(ui.total(phone.page, "Ann")).to_have_text("35")
        expect(ui.total(phone.page, "Bob")).to_have_text("8")
        expect(phone.page.locator("#sheet tbody tr")).to_have_count(3)


def test_double_tap_enters_a_round_once(phones, ui):
    """The form's one-time submission id: the same form posted twice enters one round."""
    a = phones("A")
    ui.create_table(a.page, ["Ann", "Bob"])
    ui.type_round(a.page, {0: 3, 1: 4})
    form = a.page.locator("#entry-form")
    fields = {name: form.locator(f'input[name="{name}"]').input_value()
              for name in ("csrf_token", "sid", "version", "score_0", "score_1")}
    url = form.get_attribute("action")
    # The page's own cookies and CSRF token; the second post is the "double tap".
    first = a.page.request.post(url, form=fields, headers={"HX-Request": "true"})
    second = a.page.request.post(url, form=fields, headers={"HX-Request": "true"})
    assert first.status == 200, first.text()[:500]
    assert second.status == 200, second.text()[:500]
    assert "nothing was entered twice" in second.text()
    a.page.reload()
    expect(a.page.locator("#sheet tbody tr")).to_have_count(1)
    expect(ui.total(a.page, "Ann")).to_have_text("3")
