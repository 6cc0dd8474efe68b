"""score_position on deals played out by hand: every end point, ties, three players, partnerships.

Seats clockwise N -> E -> S -> W; the elder hand (dealer's left) leads.  Pips: A 4, K 3, Q 2,
J 1, T 10, 5 5.  Sides: with 2 or 3 players one per seat (N=0, E=1, ...; with 2, N=0 and S=1);
with 4 players N+S = 0, E+W = 1.
"""

from __future__ import annotations

import pytest
from handmade import make_position

from solver.cards import parse_card, parse_cards
from solver.deal import Position
from solver.scoring import (END_POINTS, EndPoint, capture_points, captor_cards, end_points,
                            game_pips, score_position)


def played(hands: list[str], trump: str, dealer: str, play: str, rules: str = "all-fives",
           **options) -> Position:
    return make_position(hands, trump, dealer, rules, play, **options)


# Two players, hearts trumps, dealer S so N leads.  N: AH 2H TC, S: JH 5H 3C.
#  1. N AH, S JH (trump led, must follow): N wins, captures 4 + 1 = 5, takes the Jack.
#  2. N 2H, S 5H: S wins, captures 5.  Takes N's 2H: the Low, for the captor rule.
#  3. S 3C, N TC: N wins.
# Pips: N AH JH TC 3C = 4 + 1 + 10 = 15; S 2H 5H = 5.
# High AH (N), Low 2H (dealt to N, captured by S), Jack N, Game N, trump five won by S.
TWO = (["AH 2H TC", "JH 5H 3C"], "H", "S", "AH JH 2H 5H 3C TC")


def test_two_players_every_end_point():
    score = score_position(played(*TWO))
    assert score.captures == (5, 5)
    assert score.pips == (15, 5)
    assert (score.high, score.low, score.jack, score.game, score.five) == (0, 0, 0, 0, None)
    assert score.totals() == (9, 5)


def test_two_players_options():
    score = score_position(played(*TWO, low_to="captor"))
    assert score.low == 1 and score.totals() == (8, 6)
    score = score_position(played(*TWO, rules="five-for-five"))
    assert score.five == 1 and score.totals() == (9, 10)
    # all-fours: no captures, fives 0 toward Game (pips 15 v 0), High Low Jack Game to N.
    score = score_position(played(*TWO, rules="all-fours"))
    assert score.captures == (0, 0) and score.pips == (15, 0)
    assert score.totals() == (4, 0)
    # classic: captures only.
    score = score_position(played(*TWO, rules="classic"))
    assert (score.high, score.low, score.jack, score.game) == (None,) * 4
    assert score.totals() == (5, 5)
    for point in ("high", "low", "jack", "game"):
        score = score_position(played(*TWO, **{point: False}))
        assert getattr(score, point) is None
        assert score.totals() == (8, 5)


def test_game_tie_two_players():
    # Hearts trumps, none dealt.  N: TC 2D, S: TD 3C; N leads TC, S follows 3C, N wins 10; N
    # leads 2D, S's TD wins 10.  10 v 10: nobody scores Game; nothing else is scored.
    score = score_position(played(["TC 2D", "TD 3C"], "H", "S", "TC 3C 2D TD"))
    assert score.pips == (10, 10)
    assert (score.high, score.low, score.jack, score.game, score.five) == (None,) * 5
    assert score.totals() == (0, 0)


def test_no_trump_jack_dealt_no_jack_point():
    # Spades trumps, only the 2S and 3S dealt.  N: 2S 4D, S: 3S 5D; N leads 2S, S's 3S wins;
    # S leads 5D, N follows 4D, S wins.  High 3S (S), Low 2S (N), no Jack; Game S 5 v 0.
    score = score_position(played(["2S 4D", "3S 5D"], "S", "S", "2S 3S 5D 4D"))
    assert (score.high, score.low, score.jack, score.game) == (1, 0, None, 1)
    assert score.totals() == (1, 2)


# Three players, hearts trumps, dealer S so N leads.  N: TC 2D 2H, E: 3C 5D 3H, S: 4C 4D 4H.
#  1. N TC, E 3C, S 4C: N wins 10.
#  2. N 2D, E 5D, S 4D: E wins 5.
#  3. E 3H, S 4H (must follow trump), N 2H: S wins, 0 pips, no captures (all trumps 0 pips).
# High 4H (S), Low 2H (N as holder, S as captor), no Jack; Game: 10 v 5 v 0, N the strict maximum.
THREE = (["TC 2D 2H", "3C 5D 3H", "4C 4D 4H"], "H", "S", "TC 3C 4C 2D 5D 4D 3H 4H 2H")


def test_three_players():
    pos = played(*THREE)
    assert [t.winner for t in pos.completed] == [0, 1, 2]
    score = score_position(pos)
    assert score.pips == (10, 5, 0) and score.captures == (0, 0, 0)
    assert (score.high, score.low, score.jack, score.game) == (2, 0, None, 0)
    assert score.totals() == (2, 0, 1)
    score = score_position(played(*THREE, low_to="captor"))
    assert score.low == 2 and score.totals() == (1, 0, 2)
    # Without fives: 10 v 0 v 0, still N.
    score = score_position(played(*THREE, game_counts_fives=False))
    assert score.pips == (10, 0, 0) and score.game == 0


def test_three_players_tie_at_the_top():
    # As above but E holds the TD for its 5D: trick 2 is N 2D, E TD, S 4D: E wins 10.  10 v 10
    # v 0: the most is shared, nobody scores Game.
    pos = played(["TC 2D 2H", "3C TD 3H", "4C 4D 4H"], "H", "S",
                 "TC 3C 4C 2D TD 4D 3H 4H 2H")
    score = score_position(pos)
    assert score.pips == (10, 10, 0) and score.game is None
    assert score.totals() == (1, 0, 1)


# Four players, clubs trumps, dealer W so N leads.  N: 2C TD, E: JC KD, S: AC 5D, W: 3D AD.
#  1. N 2C, E JC (must follow trump), S AC, W 3D (void): S wins for N+S, captures 0 + 1 + 4 = 5.
#  2. S 5D, W AD, N TD, E KD: W wins for E+W: 5 + 4 + 10 + 3 = 22 pips.
# High AC (S), Low 2C (N), Jack won by N+S: N+S.  Game: N+S 5 pips v E+W 22: E+W.
FOUR = (["2C TD", "JC KD", "AC 5D", "3D AD"], "C", "W", "2C JC AC 3D 5D AD TD KD")


def test_four_players_partnerships():
    pos = played(*FOUR)
    assert [t.winner for t in pos.completed] == [2, 3]
    assert sorted(pos.won_cards()[1]) == sorted(parse_cards("5D AD TD KD"))
    score = score_position(pos)
    assert score.captures == (5, 0) and score.pips == (5, 22)
    assert (score.high, score.low, score.jack, score.game) == (0, 0, 0, 1)
    assert score.totals() == (8, 1)
    # all-fours: Game counts A K Q J T only, so 5 v 17, still E+W; no captures.
    score = score_position(played(*FOUR, rules="all-fours"))
    assert score.pips == (5, 17) and score.totals() == (3, 1)


def test_four_players_trump_five():
    # Clubs trumps.  N: 5C, E: 6C, S: 2D, W: 7C, dealer W, N leads the 5C; W's 7C wins.
    # E+W capture 5, win the five (five-for-five: 5 more), High (7C, W) and Game (5 v 0); Low
    # (5C) was dealt to N.
    pos = played(["5C", "6C", "2D", "7C"], "C", "W", "5C 6C 2D 7C", rules="five-for-five")
    score = score_position(pos)
    assert score.captures == (0, 5)
    assert (score.high, score.low, score.jack, score.game, score.five) == (1, 0, None, 1, 1)
    assert score.totals() == (1, 12)


def test_unfinished_position():
    # Mid-deal: captures so far, High and Low-to-holder known, Jack once captured; no Game yet.
    pos = played(*TWO[:3], "AH JH 2H")
    score = score_position(pos)
    assert score.captures == (5, 0)
    assert (score.high, score.low, score.jack, score.game) == (0, 0, 0, None)
    assert score.totals() == (8, 0)


def test_capture_points_and_game_pips():
    deal = played(*TWO).deal
    assert capture_points(tuple(parse_cards("AH JH")), deal) == 5
    assert capture_points(tuple(parse_cards("TC 5C AC")), deal) == 0   # no trumps
    assert capture_points(tuple(parse_cards("TH 5H QH KH")), deal) == 20
    assert game_pips(parse_card("5C"), deal) == 5
    fours = played(*TWO, rules="all-fours").deal
    assert game_pips(parse_card("5C"), fours) == 0
    assert game_pips(parse_card("TC"), fours) == 10
    assert capture_points(tuple(parse_cards("AH JH")), fours) == 0


@pytest.mark.parametrize("name", END_POINTS)
def test_end_point_names(name):
    assert hasattr(score_position(played(*TWO)), name)


def test_the_cards_whose_captor_pegs_and_where_each_end_point_was_settled():
    """Low to its captor is the lowest trump dealt, pegged first, with the trick it fell in;
    to its holder, the seat dealt it.  (TWO: the 2H dealt to N, won by S in trick 2; the Jack
    won by N in trick 1; the Five by S in trick 2.)"""
    low, jack, five = parse_card("2H"), parse_card("JH"), parse_card("5H")
    holder, captor = played(*TWO), played(*TWO, low_to="captor")
    assert captor_cards(holder.deal) == [("jack", jack)]
    assert captor_cards(captor.deal) == [("low", low), ("jack", jack)]
    assert captor_cards(played(*TWO, rules="five-for-five", low_to="captor").deal) == \
        [("low", low), ("jack", jack), ("five", five)]
    assert [p for p in end_points(holder) if p.name in ("low", "jack")] == \
        [EndPoint("low", 0, 1, low, holder=0), EndPoint("jack", 0, 1, jack, trick=1)]
    assert [p for p in end_points(captor) if p.name in ("low", "jack")] == \
        [EndPoint("low", 1, 1, low, trick=2), EndPoint("jack", 0, 1, jack, trick=1)]


def test_low_to_its_captor_follows_the_lowest_trump_alone():
    """N: 2H KH TC, S: 3H QH 3C, N leading.  S's Queen takes the 2H (Low), N's King the 3H:
    Low goes to the side that won the lowest trump, not the one that won the next."""
    deal = (["2H KH TC", "3H QH 3C"], "H", "S", "2H QH 3H KH TC 3C")
    assert score_position(played(*deal, low_to="captor")).low == 1
    assert score_position(played(*deal)).low == 0       # to its holder: N was dealt it


def test_each_end_point_names_its_card_and_where_it_was_settled():
    """High the top trump dealt and its holder; Game no card; the Five under five-for-five
    with the trick it was won in (TWO: AH dealt to N; the 5H won by S in trick 2)."""
    high, low, jack, five = (parse_card(c) for c in ("AH", "2H", "JH", "5H"))
    assert end_points(played(*TWO, rules="five-for-five")) == [
        EndPoint("high", 0, 1, high, holder=0), EndPoint("low", 0, 1, low, holder=0),
        EndPoint("jack", 0, 1, jack, trick=1), EndPoint("game", 0, 1),
        EndPoint("five", 1, 5, five, trick=2)]
    # no trump Five dealt: no card, no trick, nobody
    unfived = played(["AH 2H TC", "JH 4H 3C"], "H", "S", "AH JH 2H 4H 3C TC",
                     rules="five-for-five")
    assert end_points(unfived)[-1] == EndPoint("five", None, 5)
