"""Every key stats.json serves is defined in docs/STATS.md (as `key`)."""
from __future__ import annotations

import re
from pathlib import Path

from companion.stats import add, empty, view

from test_stats_evenings import RECORDS, facts
from test_stats_games import (JORG_TURNS, KATE, KATE_TURN, ROCCA_1, ROCKIT, RR_HANDS, RR_SEATS,
                              played)

DOC = Path(__file__).resolve().parents[2] / "docs" / "STATS.md"
#: Containers whose keys are names, sections or row keys, not figures, and how many levels
#: of such keys they hold (head_to_head[a][b]).
NAMED = {"players": 1, "teams": 1, "head_to_head": 2, "games": 1, "rows": 1}


def keys_of(node, out, levels=0):
    if isinstance(node, dict):
        for key, value in node.items():
            if levels:
                keys_of(value, out, levels - 1)
            else:
                out.add(key)
                keys_of(value, out, NAMED.get(key, 0))
    return out


def test_every_key_is_documented():
    total = empty()
    for record in RECORDS:
        add(total, record, facts(record))
    add(total, *played("zocknroll", {}, KATE, KATE_TURN * 6, "z1", 1))
    add(total, *played("zocknroll", {}, ["Ann", "Bob", "Cy"], JORG_TURNS, "z2", 2))
    add(total, *played("rainbow_rummy", {}, RR_SEATS, RR_HANDS, "rr", 3))
    add(total, *played("rockit", {"decks": 2}, ["Ann", "Bob", "Cid"], ROCKIT, "rk", 4))
    add(total, *played("rocca", {}, ["Ann", "Bob"], ROCCA_1, "ro", 5))
    keys = keys_of(view(total), set())
    documented = set(re.findall(r"`([a-z_0-9]+)`", DOC.read_text(encoding="utf-8")))
    assert keys - documented == set()
    assert {"bids_taken", "made_pct", "current_streak", "blocked_hands", "one_penalties",
            "average_come_in_order", "showdown_wins"} <= keys
