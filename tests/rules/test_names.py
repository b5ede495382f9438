"""Names are names: invisible and control characters go, a name blank after that is
refused, and two names that look the same are refused at one table (a player must be able to
tell the seats apart, and no name may hide text or reorder a sentence)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import find_game
from companion.rules.game import MAX_NAME_LENGTH, check_seats, clean_name, name_key


@pytest.mark.parametrize("raw, clean", [
    ("Ann", "Ann"),
    ("  Ann  ", "Ann"),
    ("Ann\x00", "Ann"),                       # NUL
    ("An\x1b[31mn", "An[31mn"),               # an escape character
    ("A\u200bnn", "Ann"),                     # zero-width space
    ("A\u200dnn\ufeff", "Ann"),               # zero-width joiner, byte-order mark
    ("\u202eAnn\u202c", "Ann"),               # right-to-left override and its end
    ("\u2067Ann\u2069", "Ann"),               # bidirectional isolates
    ("Ann\u00adLee", "AnnLee"),               # soft hyphen
    ("Ann \n\t Lee", "Ann Lee"),              # line breaks and tabs: one space
    ("Ann\u2028Lee", "Ann Lee"),              # a line separator
    ("Zoe\u0308", "Zoë"),                     # composed (NFC)
    ("Ｚｏｅ", "Ｚｏｅ"),                      # full width stays as typed...
    ("\u200b\u200b", ""),                     # nothing visible: no name
    ("\x00 \u202e", ""),
])
def test_clean_name(raw, clean):
    assert clean_name(raw) == clean


@pytest.mark.parametrize("a, b", [
    ("Ann", "ann"), ("Ann", "ＡＮＮ"), ("Ann", "A\u200bnn"), ("Ann", "\u202eAnn"),
    ("Zoë", "Zoe\u0308"), ("ﬁona", "Fiona"), ("STRASSE", "straße"),
])
def test_names_that_look_the_same_have_one_key(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize("seats, words", [
    (["Ann", "ＡＮＮ"], "must be different"),
    (["Ann", "A\u200bnn"], "must be different"),
    (["Zoë", "Zoe\u0308", "Bob"], "must be different"),
    (["Ann", "\u200b\u202e"], "needs a name"),
    (["Ann", "\x00"], "needs a name"),
])
def test_a_table_refuses_blank_and_look_alike_names(seats, words):
    with pytest.raises(ValueError, match=words):
        check_seats(seats, 2, 4)


def test_seats_come_back_clean_and_the_rules_play_with_them():
    names = check_seats(["\u202eAnn\x00", " Bob\u200b "], 2, 4)
    assert names == ["Ann", "Bob"]
    state = find_game("scorepad").new({}, ["\u202eAnn\x00", " Bob\u200b "])
    assert state["seats"] == ["Ann", "Bob"]


@given(st.text(max_size=60))
def test_a_clean_name_is_clean_and_stable(raw):
    name = clean_name(raw)
    assert name == clean_name(name)                      # idempotent
    assert name == name.strip() and "  " not in name
    assert not any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in name)
    assert not any(c in name for c in "\u200b\u200c\u200d\u202a\u202b\u202c\u202d\u202e"
                   "\u2066\u2067\u2068\u2069\ufeff")
    if name and len(name) < MAX_NAME_LENGTH:
        assert check_seats([name, name + "x"], 2, 2) == [name, name + "x"]
