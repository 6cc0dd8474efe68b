"""Deals and positions at their edges: what a deal is made of in the wrong kinds (hands, trump,
dealer, score and play) refused as a deal or play error and not a crash, whole numbers of
other kinds kept as Python's, the last suit, deals, positions and tricks as frozen values, a
play given as an iterator, a deal played out, and a deal's own text forms."""

import dataclasses

import pytest

from solver.cards import parse_cards
from solver.deal import Deal, DealError, PlayError, Position
from solver.errors import AllFivesError
from solver.rules import Rules

HEARTS = 1
#: N holds AH KH, S holds QS 2C; hearts are trumps and S deals, so N leads.
HANDS = (tuple(parse_cards("AH KH")), tuple(parse_cards("QS 2C")))


def two_tricks() -> Deal:
    return Deal(HANDS, HEARTS)


@pytest.mark.parametrize("hands", [5, [5, 6], ["AH KH", "QS 2C"], {(1, 2), (3, 4)}, (5, 6),
                                   ("AH KH", "QS 2C")],
                         ids=["number", "list of numbers", "list of texts", "set of hands",
                              "tuple of numbers", "tuple of texts"])
def test_hands_that_are_not_a_list_of_hands_of_cards_are_refused(hands):
    with pytest.raises(DealError, match="is not a list of hands of cards"):
        Deal(hands, HEARTS)


@pytest.mark.parametrize("trump, dealer", [(1.0, 1), (True, 1), (None, 1), (HEARTS, 1.0),
                                           (HEARTS, True)])
def test_a_trump_or_dealer_that_is_no_whole_number_is_refused(trump, dealer):
    """Hands as the tuples a deal keeps, so only the trump or the dealer is of the wrong kind."""
    with pytest.raises(DealError, match="is not a number"):
        Deal(HANDS, trump, dealer)


def test_numpys_whole_numbers_are_kept_as_pythons():
    np = pytest.importorskip("numpy")
    deal = Deal(HANDS, np.int64(HEARTS), np.int64(0))
    assert (deal.trump, deal.dealer) == (HEARTS, 0)
    assert type(deal.trump) is int and type(deal.dealer) is int


def test_trumps_are_spades_to_clubs_and_the_dealer_a_seat_at_the_table():
    assert [Deal(HANDS, suit).trump for suit in (0, 3)] == [0, 3]
    for suit in (-1, 4):
        with pytest.raises(DealError, match=f"trump suit {suit} is not a suit"):
            Deal(HANDS, suit)
    assert [Deal(HANDS, HEARTS, seat).dealer for seat in (0, 1)] == [0, 1]
    for seat in (-1, 2):
        with pytest.raises(DealError, match=f"dealer seat {seat} is not at a 2-player table"):
            Deal(HANDS, HEARTS, seat)


def test_a_score_to_play_to_the_hands_end_may_be_the_target_plus_999_either_way():
    """Under ``finish=hand-end`` a side may be past the target, or below 0 by revokes, but by
    no more than the largest target: to 11, from -1010 to 1010."""
    rules = Rules().replace(finish="hand-end", target=11)
    for points in (-1010, 1010):
        assert Deal(HANDS, HEARTS, rules=rules, score=(points, 0)).score == (points, 0)
    for points, said in ((-1011, "less than -1010"), (1011, "more than 1010")):
        with pytest.raises(DealError, match=said):
            Deal(HANDS, HEARTS, rules=rules, score=(0, points))


def test_a_score_is_kept_as_a_tuple_of_whole_numbers():
    deal = Deal(HANDS, HEARTS, score=[3, 4])
    assert type(deal.score) is tuple and deal.score == (3, 4)
    for score in (5, "34"):
        with pytest.raises(DealError, match="is not a list of points"):
            Deal(HANDS, HEARTS, score=score)
    for score in ((True, 0), (3.5, 0)):
        with pytest.raises(DealError, match="is not a whole number"):
            Deal(HANDS, HEARTS, score=score)


def test_deals_positions_and_tricks_are_frozen_values():
    position = two_tricks().position(parse_cards("AH QS"))
    for value, name in ((position.deal, "trump"), (position, "play"),
                        (position.tricks[0], "winner")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)
    again = Position(Deal([list(h) for h in HANDS], HEARTS), parse_cards("AH QS"))
    assert hash(again) == hash(position) and hash(again.tricks[0]) == hash(position.tricks[0])
    assert len({position, again}) == 1


@pytest.mark.parametrize("play", ["AH", 5, 2.5])
def test_a_play_that_is_not_a_list_of_cards_is_refused(play):
    with pytest.raises(PlayError, match="is not a list of cards' numbers"):
        Position(two_tricks(), play)


def test_a_play_given_as_an_iterator_is_kept_whole():
    play = parse_cards("AH QS KH")
    position = Position(two_tricks(), iter(play))
    assert position.play == tuple(play) and position == Position(two_tricks(), play)
    assert position.hands == ((), tuple(parse_cards("2C")))


def test_a_deal_played_out_leaves_no_legal_moves():
    position = two_tricks().position(parse_cards("AH QS KH 2C"))
    assert position.is_over and position.legal_moves() == []
    # N's ace wins the first trick, the trump king the second (S cannot follow)
    assert [sorted(won) for won in position.won_cards()] == [
        sorted(parse_cards("AH QS KH 2C")), []]


def test_a_deal_reads_as_each_seats_hand_and_from_a_line_without_its_play():
    deal = two_tricks()
    assert str(deal) == "N: AH KH / S: QS 2C"
    line = "N:-.AK.-.- Q.-.-.2 dealer=S trump=H play=AH,QS"
    assert Deal.from_line(line) == deal
    assert Deal.from_line(line).position().play == ()


@pytest.mark.parametrize("aside", [2.5, None])
def test_an_aside_that_is_no_list_is_named_as_no_turnup_set_aside(aside):
    position = Deal(HANDS, HEARTS, turnup=parse_cards("5H")[0]).position()
    for write in (position.to_line, position.to_toml):
        with pytest.raises(AllFivesError, match=f"aside: {aside} is no turn-up set aside"):
            write(aside)


def test_a_card_dealt_twice_is_named_with_the_hands_it_is_in():
    three, four, five = parse_cards("3S 4S 5S")
    with pytest.raises(DealError, match="card '3S' is dealt twice in N$"):
        Deal([[three, three], [four, five]], HEARTS)
    with pytest.raises(DealError, match="card '3S' is dealt in N and S$"):
        Deal([[three, four], [three, five]], HEARTS)


def test_a_revoke_is_told_by_the_card_led_not_the_last_played():
    """Three players, trumps playable at any time: E trumps N's spade lead, and S, holding a
    spade, may not discard a club; the rule named is the one for the spade led."""
    deal = Deal([parse_cards("2S 3S"), parse_cards("AH 4C"), parse_cards("KS 5C")], HEARTS)
    with pytest.raises(PlayError) as error:
        deal.position(parse_cards("2S AH 5C"))
    assert str(error.value) == "play[2]: S may not play '5C' to '2S' led (follow suit or trump)"
