"""solver.cards: every notation of FORMAT.md in, one canonical spelling out."""

from __future__ import annotations

import pytest

from solver.cards import (ALL_CARDS, FULL_PACK, CardError, card_str, cards_of, hand_str,
                          make_card, mask_of, parse_card, parse_cards, parse_hand, parse_suit,
                          holding_str, pip_value, rank_of, sort_cards, suit_of)

TEN_OF_HEARTS = make_card(1, 8)


@pytest.mark.parametrize("token", ["TH", "th", "Th", "tH", "10h", "10H", "HT", "ht", "H10",
                                   "h10", "T♥", "t♥", "10♥", "♥T", "♥10", " TH ", "T♡",
                                   # the suit sign asked for as an emoji (a phone's keyboard
                                   # puts U+FE0F after it), or as text
                                   "T♥\ufe0f", "♥\ufe0fT", "10♥\ufe0e"])
def test_every_spelling_of_the_ten_of_hearts(token):
    assert parse_card(token) == TEN_OF_HEARTS


def test_a_suit_sign_with_its_selector_is_the_suit():
    assert parse_suit("♥\ufe0f") == parse_suit("♥\ufe0e") == parse_suit("H") == 1


@pytest.mark.parametrize("token", ["\ufe0f", "T\ufe0f", "♥\ufe0f", "TH\ufe0fX"])
def test_a_selector_is_no_card(token):
    with pytest.raises(CardError, match="unknown card"):
        parse_card(token)


@pytest.mark.parametrize("suit, letter, symbol", [(0, "S", "♠"), (1, "H", "♥"), (2, "D", "♦"),
                                                  (3, "C", "♣")])
def test_suit_letters_and_symbols(suit, letter, symbol):
    assert parse_suit(letter) == parse_suit(letter.lower()) == parse_suit(symbol) == suit
    assert parse_card("A" + letter) == parse_card(symbol + "a") == make_card(suit, 12)


@pytest.mark.parametrize("rank, char", list(enumerate("23456789TJQKA")))
def test_every_rank(rank, char):
    card = parse_card(char + "C")
    assert rank_of(card) == rank and suit_of(card) == 3
    assert card_str(card) == char + "C"


def test_canonical_spelling_round_trips_for_the_whole_pack():
    assert len(ALL_CARDS) == 52
    spellings = {card_str(c) for c in ALL_CARDS}
    assert len(spellings) == 52
    for card in ALL_CARDS:
        assert parse_card(card_str(card)) == card
        assert parse_card(card_str(card, pretty=True)) == card
        assert parse_card(card_str(card).lower()) == card
    assert card_str(TEN_OF_HEARTS) == "TH"
    assert card_str(TEN_OF_HEARTS, pretty=True) == "T♥"
    assert card_str(parse_card("10s"), pretty=True) == "T♠"


def test_masks():
    assert mask_of(ALL_CARDS) == FULL_PACK
    assert cards_of(FULL_PACK) == sorted(ALL_CARDS)
    assert cards_of(mask_of([parse_card("AS"), parse_card("2C")])) == sorted(
        [parse_card("AS"), parse_card("2C")])


def test_pip_values_total_100():
    assert {card_str(c)[0]: pip_value(c) for c in ALL_CARDS if pip_value(c)} == {
        "A": 4, "K": 3, "Q": 2, "J": 1, "T": 10, "5": 5}
    assert sum(pip_value(c) for c in ALL_CARDS) == 100


@pytest.mark.parametrize("token", ["ZZ", "1H", "11H", "T", "H", "", "AX", "XA", "TT", "HH",
                                   "AHS", "10"])
def test_unknown_cards_quote_the_token(token):
    with pytest.raises(CardError) as caught:
        parse_card(token)
    assert repr(token) in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_unknown_suit_quotes_the_token():
    with pytest.raises(CardError, match="'X'"):
        parse_suit("X")


def test_card_lists_keep_their_order():
    assert [card_str(c) for c in parse_cards("AH 10h,♣5  qs")] == ["AH", "TH", "5C", "QS"]
    assert [card_str(c) for c in parse_cards(["th", "2c"])] == ["TH", "2C"]


def test_card_list_errors():
    with pytest.raises(CardError, match="'KX'"):
        parse_cards("AH KX")
    with pytest.raises(CardError, match="'AH'.*twice"):
        parse_cards("AH KH ah")


def test_sorting_and_hand_strings():
    hand = parse_hand("2C TH AH 5H 3S KD")
    assert [card_str(c) for c in sort_cards(hand)] == ["3S", "AH", "TH", "5H", "KD", "2C"]
    assert hand_str(hand) == "3S AH TH 5H KD 2C"
    assert hand_str(hand, pretty=True) == "3♠ A♥ T♥ 5♥ K♦ 2♣"


@pytest.mark.parametrize("holding", ["K3.AQ5.-.T98", "K3.AQ5..T98", "k3.aq5.-.t98",
                                     "K3.AQ5.-.1098", "3K.5QA..89T"])
def test_holding_strs(holding):
    assert hand_str(parse_hand(holding)) == "KS 3S AH QH 5H TC 9C 8C"


def test_holding_str_written_canonically():
    assert holding_str(parse_hand("KS 3S AH QH 5H TC 9C 8C")) == "K3.AQ5.-.T98"
    assert holding_str(parse_hand("2C")) == "-.-.-.2"
    assert holding_str([]) == "-.-.-.-"
    for text in ["AKQJT98765432.-.-.-", "-.-.-.AKQJT98765432", "T.5.A.2"]:
        assert holding_str(parse_hand(text)) == text


@pytest.mark.parametrize("holding, bad", [("K3.AQ5.T98", "'K3.AQ5.T98'"),
                                          ("K3.AQ5.-.T9.8", "'K3.AQ5.-.T9.8'"),
                                          ("K3.AX5.-.T98", "'X'"),
                                          ("K3.AQ5.-.T9T", "'TC'")])
def test_holding_str_errors_quote_the_token(holding, bad):
    with pytest.raises(CardError) as caught:
        parse_hand(holding)
    assert bad in str(caught.value)
