"""solver.heuristic at its edges: card values under every count, the prize trumps each rule set
makes, and the heuristic's rules where a threshold, a tie or a seat that plays after decides.

The observations are hand-made by ``seen`` (from ``test_players``): spades are trumps unless
said, the seat to act is the one the play makes next.  Every expected card and rule number is
worked out by hand from the rules in ``HeuristicPlayer``'s docstring.
"""

from __future__ import annotations

import pytest

from solver.cards import ALL_CARDS, parse_card, parse_cards
from solver.heuristic import card_value, card_values, prize_trumps
from solver.rules import Rules
from test_players import explain, seen

SPADES = 0


# ---- what a card is worth -----------------------------------------------------------------


def test_five_for_five_adds_five_to_the_trump_five_only():
    """With five-for-five the trump Five is worth its 5 capture pips, 5 more for five-for-five
    and half a point of Game pips; no other trump gains anything from the rule."""
    rules = Rules.preset("five-for-five")
    assert card_value(parse_card("5S"), SPADES, rules) == pytest.approx(5 + 5 + 0.5)
    assert card_value(parse_card("TS"), SPADES, rules) == pytest.approx(10 + 1.0)
    assert card_value(parse_card("JS"), SPADES, rules) == pytest.approx(1 + 1 + 0.1)
    assert card_value(parse_card("5H"), SPADES, rules) == pytest.approx(0.5)     # no trump


def test_card_values_hold_every_card_number_from_0_to_63():
    """``card_values`` is ``card_value`` of each card, indexed by card number, with 0 for the
    numbers that are no card (ranks 13 to 15 of each suit)."""
    rules = Rules()
    values = card_values(SPADES, rules)
    assert len(values) == 64
    for number in range(64):
        if number in ALL_CARDS:
            assert values[number] == card_value(number, SPADES, rules)
        else:
            assert values[number] == 0
    # the aces: 4 capture pips and 0.4 of Game for the trump one, the Game pips alone otherwise
    assert values[parse_card("AS")] == pytest.approx(4.4)
    assert values[parse_card("AC")] == pytest.approx(0.4)


def test_the_prize_trumps_are_those_worth_a_point_or_more_most_valuable_first():
    """T 11, 5 5.5, J 2.1 by the all-fives count; in classic (no Game, no Jack point) the Jack is
    worth its one capture pip, exactly a point, and is still a prize; in all-fours (no capture,
    fives not counted for Game) the Jack is 1.1 and the Ten, its 10 Game pips, exactly 1.0,
    while the Five is worth nothing."""
    assert prize_trumps(SPADES, Rules()) == tuple(parse_cards("TS 5S JS"))
    assert prize_trumps(SPADES, Rules.preset("classic")) == tuple(parse_cards("TS 5S JS"))
    assert prize_trumps(SPADES, Rules.preset("all-fours")) == tuple(parse_cards("JS TS"))
    assert prize_trumps(1, Rules.preset("all-fours")) == tuple(parse_cards("JH TH"))


# ---- leading --------------------------------------------------------------------------------


def test_a_lone_legal_card_is_played_by_rule_4_leading_and_rule_10_following():
    """With one legal card there is nothing to choose: it is numbered 4 when leading and 10 when
    following, even where a rule would have picked it (the ace of trumps with a trump out,
    which rule 3 would lead; a ten of trumps banked last to play, rule 5)."""
    assert explain(seen("AS", players=2, seat="N")) == ("AS", 4)
    assert explain(seen("TS", players=2, play="N:4H")) == ("TS", 10)


def test_rule_4_keeps_the_jack_behind_a_higher_trump_and_leads_it_when_nothing_else_is_left():
    """The king and jack of trumps with the ace and queen out: neither is a master, so no draw;
    the jack is a prize trump and is kept though it is cheaper (2.1) than the king (3.3).  With
    only the ten and the five (both prizes, the ace out), the cheaper five is led."""
    assert explain(seen("KS JS", players=2, seat="N")) == ("KS", 4)
    assert explain(seen("TS 5S", players=2, seat="N")) == ("5S", 4)


# ---- following ------------------------------------------------------------------------------


def test_nothing_of_value_on_the_table_is_not_won_with_a_high_card():
    """A worthless nine of clubs led: S, last, could win it with the club ace but no rule asks
    for it (rule 9 needs Game pips on the table): the two ducks."""
    assert explain(seen("AC 2C 8D", players=2, play="N:9C")) == ("2C", 10)


def test_rule_6_throws_onto_a_partners_non_trump_winner_that_no_card_out_can_beat():
    """Four players, 9 cards each.  Every trump has been seen: eight played in two tricks, the
    three turned up, and S holds the rest.  N (S's partner) leads the ace of hearts, E follows;
    W is still to play but nothing out beats the ace, so the trick is safe and S throws the
    heart ten onto it (S's trumps are all masters, kept; the rest are worthless)."""
    tricks = "N:AS E:KS S:QS W:JS N:TS E:9S S:8S W:5S"
    observation = seen("7S 6S 4S 2S TH 2H 9C", players=4, turnups="3S",
                       play=f"{tricks} N:AH E:4H")
    assert explain(observation) == ("TH", 6)
    # the heart king led is as safe when S holds the ace (the aces of other suits out beat
    # nothing: only a higher heart or a trump takes a heart)
    observation = seen("7S 6S 4S 2S TH AH 9C", players=4, turnups="3S",
                       play=f"{tricks} N:KH E:4H")
    assert explain(observation) == ("TH", 6)
    # but the heart queen led, with the king out, W could take (though no trump is out): S
    # does not throw the ten, and ducks with the two
    observation = seen("7S 6S 4S 2S TH AH 2H", players=4, turnups="3S",
                       play=f"{tricks} N:QH E:4H")
    assert explain(observation) == ("2H", 10)


def test_a_non_trump_winner_is_not_safe_while_any_trump_is_out():
    """W's partner E leads the heart ace and S follows; N is still to play.  Every low trump
    has been seen (the two to the nine: played, turned up or in W's hand), but the J, Q, K and
    A are out and N may trump with one: the trick is not safe and W ducks the two of hearts
    rather than throw the ten."""
    observation = seen("7S 6S 4S 2S TH 2H 9C", players=4, turnups="3S",
                       play="W:5S N:8S E:TS S:9S E:AH S:4H")
    assert explain(observation) == ("2H", 10)


def test_rule_6_never_throws_a_master_trump():
    """W, last, holds the ace of trumps (a master) and the heart ten; E, W's partner, is winning
    with the heart ace: W throws the ten, not the ace, though the ace is worth more."""
    observation = seen("AS TH 3C", players=4, play="N:4H E:AH S:5H")
    assert explain(observation) == ("TH", 6)


def test_rule_7_wins_with_a_non_trump_before_a_trump_of_the_same_worth():
    """E (W's partner) has trumped N's diamond with the ace; W, last and void in diamonds,
    has nothing worth throwing (rule 6), so rule 7 plays the lowest card that keeps the trick:
    every card does, and a non-trump comes before a trump, the low heart before the low club."""
    observation = seen("2S 3H 6C", players=4, play="N:4D E:AS S:3D")
    assert explain(observation) == ("3H", 7)


def test_a_trump_winner_is_safe_when_no_higher_trump_is_out():
    """Three players, the ace of trumps turned up: E's king over N's queen cannot be beaten by
    any trump out (the aces of other suits do not count), so rule 7 wins the trick with it
    though S plays after."""
    observation = seen("KS 4S 9D", players=3, play="N:QS", turnups="AS")
    assert explain(observation) == ("KS", 7)


def test_rule_8_takes_the_lead_with_a_trump_that_may_yet_be_beaten():
    """Four players: N leads the trump Jack (2 points); E's queen takes the lead but the ace
    and king are out with two seats to play, so nothing is safe: rule 8 plays the queen."""
    observation = seen("QS 3S 8H", players=4, play="N:JS")
    assert explain(observation) == ("QS", 8)


def test_a_trump_worth_exactly_one_point_is_won_by_rule_7():
    """Classic rules (no Game, no Jack point): the trump Jack is worth exactly 1, enough for
    rule 7.  N leads it; S, last, wins it with the queen rather than duck with the two."""
    classic = Rules.preset("classic")
    assert explain(seen("QS 2S 9H", players=2, play="N:JS", rules=classic)) == ("QS", 7)


def test_rule_8_does_not_fight_for_a_trump_worth_only_one_point():
    """Classic rules, four players: N leads the trump Jack (1 point, below rule 8's 2); E
    could take the lead with the queen, but the ace and king are out with two seats to play:
    not safe, and not worth fighting for: E ducks with the three."""
    classic = Rules.preset("classic")
    observation = seen("QS 3S 8H", players=4, play="N:JS", rules=classic)
    assert explain(observation) == ("3S", 10)


def test_game_pips_of_a_trump_on_the_table_are_not_trump_points():
    """All-fours has no capture: the trump ten on the table is worth its 10 Game pips (1.0)
    and no trump points, so rules 7 and 8 do not apply, rule 9 spends no trump, and S ducks
    with the two of trumps rather than take the ten with the ace."""
    fours = Rules.preset("all-fours")
    assert explain(seen("AS 2S 9H", players=2, play="N:TS", rules=fours)) == ("2S", 10)


# ---- the calls ------------------------------------------------------------------------------


def test_rule_2_with_three_players_looks_at_the_elder_hands_score():
    """Three players, S deals, so N is the elder hand: N one point short of the target makes S
    run however good its trumps; E one point short does not (the take-one point is N's)."""
    def call(score):
        return explain(seen("AS KS TS 5S QH 2D", players=3, phase="dealer", seat="S",
                            dealer="S", turnups="9S", score=score))

    assert call((60, 0, 0)) == ("run", 2)
    assert call((0, 60, 0)) == ("take-one", 2)
    assert call((0, 0, 60)) == ("take-one", 2)
