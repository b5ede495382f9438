"""A Said kept in JSON (a group's recorded summary) comes back as a Said that a translation
layer can remake: its template, values, parts and conjunction survive the round trip."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.said import Said, joined, listing, message, rebuild, revived, storable


def _round_trip(value):
    return revived(json.loads(json.dumps(storable(value))))


def _upper(_context, template):
    """A "translation": the template's words in capitals, its {fields} as they are."""
    return re.sub(r"[^{}]+(?=\{|$)|(?<=\})[^{}]+", lambda m: m.group(0).upper(), template)


BID = message("rook", "{name} bid {bid}", name="Bob", bid=150)
CASES = [
    ("a message", BID, "Bob BID 150"),
    ("joined", joined([BID, message("rook", "{n} over", n=5)], "; "), "Bob BID 150; 5 OVER"),
    ("a listing", listing(["Ann", "Bob"], message("list", "and")), "Ann AND Bob"),
    ("nested in values", message("x", "{name} said", name=BID), "Bob BID 150 SAID"),
]


@pytest.mark.parametrize("label,said,translated", CASES, ids=[c[0] for c in CASES])
def test_a_said_survives_json(label, said, translated):
    """Remade in another language after the trip, it reads as the original remade."""
    back = _round_trip({"over_reason": {"text": said, "rule": "RK-9"}, "hands": [said]})
    for value in (back["over_reason"]["text"], back["hands"][0]):
        assert isinstance(value, Said) and str(value) == str(said)
        assert (value.template, value.context, value.sep) == (said.template, said.context,
                                                             said.sep)
        assert str(rebuild(value, _upper)) == str(rebuild(said, _upper)) == translated
    assert back["over_reason"]["rule"] == "RK-9"


def test_plain_values_are_unchanged_and_a_malformed_entry_is_left_alone():
    plain = {"a": [1, "two", None, {"b": 3.5}], "said": "a key that is only a word"}
    assert _round_trip(plain) == plain
    assert revived({"said": ["too", "short"]}) == {"said": ["too", "short"]}


@given(st.recursive(st.none() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=12))
def test_json_without_saids_round_trips_unchanged(value):
    assert _round_trip(value) == json.loads(json.dumps(value))
