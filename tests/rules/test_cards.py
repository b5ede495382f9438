"""Card notation (ARCHITECTURE.md §4): case-insensitive in, canonical upper case out."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.cards import (
    DECKS, Card, all_cards, format_card, is_joker, parse_card, parse_cards, rank_value,
    split_card,
)

VALID = [
    # deck, typed, canonical
    ("standard", "10H", "10H"),
    ("standard", "10h", "10H"),
    ("standard", "qs", "QS"),
    ("standard", "Ad", "AD"),
    ("standard", "  kc ", "KC"),
    ("standard", "2s", "2S"),
    ("standard", "jK", "JK"),
    ("standard", "jh", "JH"),
    ("rocca", "0s", "0S"),
    ("rocca", "0H", "0H"),
    ("rocca", "10d", "10D"),
    ("rocca", "jk", "JK"),
    ("ucd", "5j", "5J"),
    ("ucd", "gn", "GN"),
    ("ucd", "Ms", "MS"),
    ("ucd", "sm", "SM"),
    ("ucd", "1e", "1E"),
    ("ucd", "7V", "7V"),
    ("rook", "14r", "14R"),
    ("rook", "5y", "5Y"),
    ("rook", "1b", "1B"),
    ("rook", "10G", "10G"),
    ("rook", "rook", "ROOK"),
    ("rook", " Rook ", "ROOK"),
]

INVALID = [
    ("standard", "1H"), ("standard", "11S"), ("standard", "JKX"), ("standard", "0S"),
    ("standard", ""), ("standard", "   "), ("standard", "TH"), ("standard", "10"),
    ("standard", "H10"), ("standard", "10 H"), ("standard", "QX"), ("standard", "010H"),
    ("standard", "ROOK"), ("standard", "5Y"),
    ("rocca", "00S"), ("rocca", "1S"), ("rocca", "ROOK"), ("rocca", "JKS"),
    ("ucd", "8E"), ("ucd", "0E"), ("ucd", "5A"), ("ucd", "JK"), ("ucd", "10E"), ("ucd", "MX"),
    ("ucd", "M"), ("ucd", ""),
    ("rook", "15R"), ("rook", "0R"), ("rook", "ROOKY"), ("rook", "R14"), ("rook", "14X"),
    ("rook", "JK"), ("rook", "14H"), ("rook", ""), ("rook", "014R"),
]


@pytest.mark.parametrize("deck, typed, canonical", VALID)
def test_parse_valid(deck, typed, canonical):
    assert parse_card(typed, deck) == canonical


@pytest.mark.parametrize("deck, typed", INVALID)
def test_parse_invalid_names_the_card(deck, typed):
    with pytest.raises(ValueError) as error:
        parse_card(typed, deck)
    assert f"'{typed.strip()}'" in str(error.value)
    assert "is not a card" in str(error.value)


def test_zero_hint_in_standard_deck():
    with pytest.raises(ValueError, match="only in the Rocca deck"):
        parse_card("0s")


@pytest.mark.parametrize("bad", [None, 10, ["QS"]])
def test_parse_non_text(bad):
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(bad)


def test_unknown_deck():
    with pytest.raises(ValueError, match="Unknown deck"):
        parse_card("QS", "tarot")


@pytest.mark.parametrize("deck, given_cards, expected", [
    ("standard", "10h qs, ad,jk", ["10H", "QS", "AD", "JK"]),
    ("standard", ["10h", " qs "], ["10H", "QS"]),
    ("standard", ("kc",), ["KC"]),
    ("standard", "", []),
    ("standard", [], []),
    ("ucd", "ms sm\tgn\n5j", ["MS", "SM", "GN", "5J"]),
    ("rook", "14r, rook 5y", ["14R", "ROOK", "5Y"]),
    ("rocca", "0s,,0h", ["0S", "0H"]),
])
def test_parse_cards(deck, given_cards, expected):
    assert parse_cards(given_cards, deck) == expected


@pytest.mark.parametrize("deck, given_cards, bad", [
    ("standard", "10h 11h qs", "11h"),
    ("standard", ["QS", "0s"], "0s"),
    ("ucd", "5j 8e", "8e"),
    ("rook", ["14r", "rooky"], "rooky"),
])
def test_parse_cards_names_the_bad_card(deck, given_cards, bad):
    with pytest.raises(ValueError, match=f"'{bad}' is not a card"):
        parse_cards(given_cards, deck)


def test_parse_cards_rejects_other_types():
    with pytest.raises(ValueError):
        parse_cards(42)


@pytest.mark.parametrize("deck, card, expected", [
    ("standard", "10h", Card("10", "H")),
    ("standard", "JK", Card("JK", None)),
    ("rocca", "0s", Card("0", "S")),
    ("ucd", "MS", Card("M", "S")),
    ("ucd", "SM", Card("S", "M")),
    ("rook", "14r", Card("14", "R")),
    ("rook", "rook", Card("ROOK", None)),
])
def test_split_card(deck, card, expected):
    assert split_card(card, deck) == expected


@pytest.mark.parametrize("deck, card, value", [
    ("standard", "AS", 1), ("standard", "10H", 10), ("standard", "JD", 11),
    ("standard", "QC", 12), ("standard", "KS", 13), ("standard", "JK", None),
    ("rocca", "0S", 0), ("rocca", "AH", 1), ("rocca", "JK", None),
    ("ucd", "7E", 7), ("ucd", "MS", 8), ("ucd", "SM", 9), ("ucd", "GN", 10),
    ("rook", "14R", 14), ("rook", "1B", 1), ("rook", "ROOK", None),
])
def test_rank_value(deck, card, value):
    assert rank_value(card, deck) == value


@pytest.mark.parametrize("deck, card, joker", [
    ("standard", "jk", True), ("standard", "JH", False), ("rocca", "JK", True),
    ("rook", "ROOK", False), ("ucd", "GN", False),
])
def test_is_joker(deck, card, joker):
    assert is_joker(card, deck) is joker


@pytest.mark.parametrize("deck, card, label", [
    ("standard", "10h", "10♥"), ("standard", "QS", "Q♠"), ("standard", "ad", "A♦"),
    ("standard", "KC", "K♣"), ("standard", "JK", "Joker"), ("rocca", "0S", "0♠"),
    ("ucd", "MS", "Moon of S"), ("ucd", "SM", "Sun of M"), ("ucd", "GN", "Galaxy of N"),
    ("ucd", "5J", "5 of J"), ("rook", "14R", "14 Red"), ("rook", "5y", "5 Yellow"),
    ("rook", "1B", "1 Black"), ("rook", "9G", "9 Green"), ("rook", "ROOK", "Rook bird"),
])
def test_format_card(deck, card, label):
    assert format_card(card, deck) == label


@pytest.mark.parametrize("deck, size", [("standard", 53), ("rocca", 57), ("ucd", 60),
                                        ("rook", 57)])
def test_all_cards(deck, size):
    cards = all_cards(deck)
    assert len(cards) == len(set(cards)) == size


def test_rocca_zero_only_in_rocca():
    assert "0S" in all_cards("rocca") and "0S" not in all_cards("standard")
    assert set(all_cards("standard")) < set(all_cards("rocca"))


@given(st.sampled_from([(deck, card) for deck in DECKS for card in all_cards(deck)]),
       st.data())
def test_canonical_round_trip(deck_card, data):
    """Every canonical card parses back to itself from any casing, with whitespace around."""
    deck, card = deck_card
    assert parse_card(card.lower(), deck) == card
    typed = "".join(data.draw(st.sampled_from([ch.lower(), ch.upper()])) for ch in card)
    pad = data.draw(st.sampled_from(["", " ", "\t", "  "]))
    assert parse_card(pad + typed + pad, deck) == card
    assert split_card(card, deck) == split_card(typed, deck)
    assert format_card(typed, deck) == format_card(card, deck)


@pytest.mark.parametrize("deck", DECKS)
def test_every_card_parses_from_lower_case(deck):
    for card in all_cards(deck):
        assert parse_card(card.lower(), deck) == card
