"""The deal model refuses what is not a card, and files that are not text."""

import pytest

from solver.cards import CardError
from solver.deal import Deal, DealFileError, load


@pytest.mark.parametrize("bad", [14, 70, -1, True, "AH"])
def test_a_hand_of_numbers_that_are_no_cards_is_refused(bad):
    with pytest.raises(CardError, match="is not a card"):
        Deal(hands=[[1, 2], [3, bad]], trump=0)


def test_a_turnup_that_is_no_card_is_refused():
    with pytest.raises(CardError, match="turn-up"):
        Deal(hands=[[1, 2], [3, 4]], trump=0, turnup=99)


def test_a_file_that_is_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "deal.toml"
    path.write_bytes(b'trump = "H"\n\xff\xfe\n')
    with pytest.raises(DealFileError, match="deal.toml: not UTF-8"):
        load(path)
