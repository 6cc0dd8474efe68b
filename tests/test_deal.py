"""The deal model refuses what is not a card, and files that are not text."""

import pytest

from solver.cards import CardError
from solver.deal import Deal, DealFileError, Position, load
from solver.errors import AllFivesError


@pytest.mark.parametrize("bad", [14, 70, -1, True, "AH"])
def test_a_hand_of_numbers_that_are_no_cards_is_refused(bad):
    with pytest.raises(CardError, match="is not a card"):
        Deal(hands=[[1, 2], [3, bad]], trump=0)


def test_a_turnup_that_is_no_card_is_refused():
    with pytest.raises(CardError, match="turn-up"):
        Deal(hands=[[1, 2], [3, 4]], trump=0, turnup=99)


@pytest.mark.parametrize("cards, message", [(("ZZ",), "play[0]: unknown card 'ZZ'"),
                                            (("TS", "ZZ"), "play[1]: unknown card 'ZZ'"),
                                            ((1.5,), "play[0]: unknown card 1.5")])
def test_a_card_played_that_is_no_card_is_named_by_its_place(cards, message):
    """``after("ZZ")`` said 'unknown card' without its place, which ``after(1.5)`` had."""
    position = Position.from_line("N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H")
    with pytest.raises(CardError) as error:
        position.after(*cards)
    assert str(error.value) == message


def test_a_file_that_is_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "deal.toml"
    path.write_bytes(b'trump = "H"\n\xff\xfe\n')
    with pytest.raises(DealFileError, match="deal.toml: not UTF-8"):
        load(path)


def test_turnups_set_aside_are_checked_as_they_are_written():
    """to_toml and to_line write only what their readers take back: an 'aside' card in a hand,
    the turn-up, twice, or no card is one error (a file the reader refused was written)."""
    import random

    from solver.shuffle import shuffle_deal_aside

    deal, aside = shuffle_deal_aside(random.Random(3), 2, 2)
    position = deal.position()
    assert Position.from_toml(position.to_toml(aside)) == position
    for bad in ([deal.hands[0][0]], [deal.turnup], [aside[0], aside[0]], [999], "AS"):
        for write in (position.to_toml, position.to_line):
            with pytest.raises(AllFivesError, match="is no turn-up set aside"):
                write(bad)


def test_a_position_of_legal_play_is_the_position_checked_card_by_card():
    """``Position.of_legal_play`` (play known legal, as a play-out's) gives what the checked
    constructor gives, at every point of deals of 2, 3 and 4 players."""
    import random

    rng = random.Random(5)
    for players in (2, 3, 4):
        for _ in range(20):
            pack = rng.sample([s * 16 + r for s in range(4) for r in range(13)], 6 * players)
            deal = Deal(tuple(tuple(pack[6 * i:6 * i + 6]) for i in range(players)),
                        trump=rng.randrange(4))
            position = Position(deal, ())
            while not position.is_over:
                checked = position
                made = Position.of_legal_play(deal, checked.play)
                for part in ("deal", "play", "tricks", "hands", "completed", "current",
                             "to_move", "is_over"):
                    assert getattr(made, part) == getattr(checked, part), part
                card = rng.choice(position.legal_moves())
                position = Position(deal, position.play + (card,))
            assert Position.of_legal_play(deal, position.play).tricks == position.tricks
