"""A family's evening, through the Flask test client: the Zock'n'Roll turn result at the top
of every phone, the rules answers of the tool pages, the trick helper's names and a calm
answer to a save that another phone beat."""
from __future__ import annotations

import re

import pytest

from helpers import form_block, inputs, select, select_one, text_of
from web_helpers import Phone, create_game_table

ZNR = ["Ann", "Bob", "Cid"]
# One guided turn with Jörg (dealer Ann): Bob drops in round 1, Ann in round 2, Cid and Jörg
# reveal in round 3 (Cid's Large Straight beats Jörg's Two Pair).
ZNR_TURN = [dict(kind="roll", white="2 2 5"), dict(kind="drop", player="Bob", own="26"),
            dict(kind="stay", player="Cid"), dict(kind="stay", player="Ann"),
            dict(kind="roll", white="4"), dict(kind="stay", player="Cid"),
            dict(kind="drop", player="Ann", own="5,5"), dict(kind="roll", white="5"),
            dict(kind="reveal", player="Cid", own="1 3"),
            dict(kind="reveal", player="Jörg", own="6 6")]


def act(phone: Phone, table_id: str, **fields):
    """Press a button of the entry form as it stands now (its sid and version)."""
    form = inputs(form_block(phone.page(table_id), 'id="entry-form"'))
    data = {"sid": form["sid"], "version": form["version"]}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


@pytest.fixture
def ann(new_phone):
    return new_phone("Ann")


def test_znr_the_turn_result_stays_on_top_until_the_next_roll(ann, new_phone):
    table_id = create_game_table(ann, "zocknroll", ZNR)
    for step in ZNR_TURN:
        r = act(ann, table_id, **step)
        assert r.status_code == 200, text_of(r.get_data(as_text=True))[:400]
    watcher = new_phone("Watcher")
    watcher.join(ann.join_path(table_id))
    pages = {"seated": ann.page(table_id), "spectator": watcher.page(table_id)}
    for who, page in pages.items():
        boxes = select(page, "#turn-result")
        assert len(boxes) == 1, who
        box = text_of(boxes[0])
        assert "Turn 1: Cid wins round 3 with Large Straight" in box and "ZNR-4" in box
        cid = select_one(page, '#turn-result li[data-player="Cid"]')
        assert "winner" in cid["class"] and "Large Straight" in text_of(cid)
        assert [d["aria-label"] for d in select(cid, ".die-face")] == ["1", "3"]
        jorg = select_one(page, '#turn-result li[data-player="Jörg"]')
        assert "Two Pair" in text_of(jorg)
        assert [d["aria-label"] for d in select(jorg, ".die-face")] == ["6", "6"]
        dropped = text_of(page, "#turn-result")
        assert "Bob dropped (round 1)" in dropped and "Three of a Kind" in dropped
    # On a seated phone the result comes before the next dealer's roll, in the form.
    seated = pages["seated"]
    assert seated.index('id="turn-result"') < seated.index("Bob deals: roll 3 white dice")
    # The turn log names every reveal with its dice, the last one too.
    log = text_of(seated, "#turn-log")
    assert "Cid revealed 1, 3." in log and "Jörg revealed 6, 6." in log
    assert log.index("Jörg revealed 6, 6.") < log.index("Cid wins round 3")
    # The next roll starts the new turn: the result is gone.
    assert act(ann, table_id, kind="roll", white="1 2 3").status_code == 200
    assert not select(ann.page(table_id), "#turn-result")
