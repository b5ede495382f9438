"""The sheet's "Earlier games" list is drawn once per stored set of earlier games and
language (web/fragments.py earlier_games): a table that has played many games
doesn't draw them all into every answer, and the list still follows every change to it
(a rematch, a struck or restored rematch, an undo in an earlier game, another language)."""
from __future__ import annotations

import re

import pytest

import companion.web.fragments as fragments
from helpers import form_block, inputs, text_of


@pytest.fixture
def drawn(monkeypatch) -> list[int]:
    """How many times tables/_earlier_games.html was drawn (one list entry per drawing)."""
    calls: list[int] = []
    render = fragments.render_template

    def counting(template, **context):
        if template == "tables/_earlier_games.html":
            calls.append(len(context["past_games"]))
        return render(template, **context)

    monkeypatch.setattr(fragments, "render_template", counting)
    return calls


def past(body: str) -> str:
    """The list's text, or "" when the sheet has none; each game's date (when it ended)
    reads "<date>"."""
    if 'class="past"' not in body:
        return ""
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d", "<date>", text_of(body, "details.past"))


def finish_and_rematch(table, scores: dict[int, int]) -> int:
    """End the game with `scores` (target 50) and start the next; the rematch's seq."""
    assert table.host.enter(table.id, scores).status_code == 200
    page = table.host.page(table.id)
    r = table.host.post(f"/t/{table.id}/rematch",
                        {"sid": inputs(form_block(page, "/rematch"))["sid"]}, hx=True)
    assert r.status_code == 200 and "A new game has started" in text_of(r.get_data(as_text=True))
    history = text_of(table.host.get(f"/t/{table.id}/history").get_data(as_text=True))
    return max(int(n) for n in re.findall(r"#(\d+)", history))


def test_the_list_is_drawn_once_and_follows_every_change(table, drawn):
    finish_and_rematch(table, {0: 10, 1: 55})                  # game 1: Bob wins
    drawn.clear()
    rematch = finish_and_rematch(table, {0: 60, 2: 3})         # game 2: Ann wins
    both = ("Earlier games (2) Game 1 · <date> Bob — Ann 10, Bob 55, Cy 0 Game 2 · <date> "
            "Ann — Ann 60, Bob 0, Cy 3")
    assert past(table.bob.page(table.id)) == both
    # Game 2's last entry drew the list once with game 2 in it, just finished (the page
    # after it, at the same version, drew nothing new); the rematch drew the list of two,
    # once.
    assert drawn == [1, 2]
    # Striking the rematch: game 2 is the current game again (over), one earlier game, and
    # game 2 listed after it as just finished.
    r = table.host.undo(table.id, rematch, sid="strike-rematch")
    body = r.get_data(as_text=True)
    assert r.status_code == 200, text_of(body)[:300]
    assert past(body) == ("Earlier games (2) Game 1 · <date> Bob — Ann 10, Bob 55, Cy 0 "
                          "Game 2 · <date> · just finished Ann — Ann 60, Bob 0, Cy 3")
    assert "Game over — winner: Ann" in text_of(body)
    # Restored: two earlier games again.
    r = table.host.undo(table.id, rematch + 1, sid="restore-rematch")
    assert r.status_code == 200 and "is back on the sheet" in text_of(r.get_data(as_text=True))
    assert past(r.get_data(as_text=True)) == both
    assert drawn == [1, 2, 1, 2]
    # Game 3's entries and everybody's pages don't draw it again.
    bodies = [table.host.enter(table.id, {0: n}).get_data(as_text=True) for n in (1, 2, 3)]
    bodies += [table.bob.page(table.id), table.host.page(table.id)]
    assert all(past(body) == both for body in bodies)
    assert drawn == [1, 2, 1, 2]


def test_another_language_gets_its_own_list(table):
    finish_and_rematch(table, {0: 10, 1: 55})
    english = table.host.page(table.id)
    assert past(english) == "Earlier games (1) Game 1 · <date> Bob — Ann 10, Bob 55, Cy 0"
    table.host.client.set_cookie("lang", "ja")
    japanese = table.host.page(table.id)
    assert "Earlier games" not in past(japanese) and "これまでのゲーム（1）" in past(japanese)
    assert "Bob — Ann 10, Bob 55, Cy 0" in past(japanese)
    table.host.client.set_cookie("lang", "en")
    assert past(table.host.page(table.id)) == past(english)
