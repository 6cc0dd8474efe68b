"""solver.pegging: the order points are pegged in, and the match after a deal under peg-out
and hand-end finishes, with a double game for a skunk."""

from __future__ import annotations

import re

import pytest

from solver.cards import parse_cards, parse_suit
from solver.deal import Deal, DealError, Position
from solver.pegging import Peg, is_double, match_after, pegged_out, pegs
from solver.rules import Rules

# N: AH 2H TC, S: JH 5H 3C; hearts; dealer S so N leads.
# 1. AH JH: N pegs 5.  2. 2H 5H: S pegs 5.  3. 3C TC: N, no trumps.
# Then High N (AH), Low N (2H dealt to N), Jack N (won in trick 1), Game N (15 to 5 pips).
# N 9, S 5.
HANDS = ("AH 2H TC", "JH 5H 3C")
PLAY = "AH JH 2H 5H 3C TC"


def deal(score=None, rules: str = "all-fives", **options) -> Deal:
    return Deal(tuple(tuple(parse_cards(h)) for h in HANDS), parse_suit("H"), 1,
                Rules.preset(rules).replace(**options), score=score)


def played(score=None, rules: str = "all-fives", **options) -> Position:
    return deal(score, rules, **options).position(parse_cards(PLAY))


def test_pegs_in_order():
    assert pegs(played()) == [Peg(0, 5, "trick 1"), Peg(1, 5, "trick 2"), Peg(0, 1, "high"),
                              Peg(0, 1, "low"), Peg(0, 1, "jack"), Peg(0, 1, "game")]
    # before the play is over only the captures so far are pegged
    assert pegs(deal().position(parse_cards("AH JH 2H"))) == [Peg(0, 5, "trick 1")]
    assert pegs(played(rules="five-for-five"))[-1] == Peg(1, 5, "five")


def test_no_score_no_match():
    assert match_after(played()) is None


def test_nobody_reaches_the_target():
    match = match_after(played((10, 20)))
    assert (match.target, match.before, match.after) == (61, (10, 20), (19, 25))
    assert match.winners == () and match.when is None and not match.double


def test_peg_out_the_first_to_the_target_wins_even_mid_deal():
    # S needs 5: pegs out at trick 2 although N ends the deal higher
    match = match_after(played((50, 56)))
    assert match.after == (59, 61)
    assert match.winners == (1,) and match.when == "trick 2"
    # N needs 6: trick 1 gives 5, the High the sixth
    match = match_after(played((55, 40)))
    assert match.winners == (0,) and match.when == "high"


def test_hand_end_the_highest_total_over_the_target_wins():
    match = match_after(played((58, 56), finish="hand-end"))
    assert match.winners == (0,) and match.when is None  # 67 beats 61
    shared = match_after(played((55, 59), finish="hand-end"))  # 64 and 64
    assert shared.after == (64, 64) and shared.winners == (0, 1)


def test_a_skunk_is_a_double_game():
    assert match_after(played((55, 20), skunk=True)).double
    assert not match_after(played((55, 40), skunk=True)).double
    assert not match_after(played((55, 20))).double  # the option is off by default


def test_a_skunk_is_judged_at_the_winning_peg_not_after_the_deal():
    """Under peg-out the pegs after the winner went out do not count: N goes out with trick 1
    (56 + 5) while S has 26, and S's 5 in trick 2 (to 31, the skunk line) comes too late to
    save S from a double game.  The one skunk test had the loser far from 31."""
    match = match_after(played((56, 26), skunk=True))
    assert match.winners == (0,) and match.when == "trick 1"
    assert match.after == (65, 31)
    assert match.double
    assert match_after(played((56, 30), skunk=True)).double        # S 30 at the win, 35 after
    assert not match_after(played((56, 31), skunk=True)).double    # S at the line already


def test_with_three_players_a_skunk_needs_every_loser_under_31():
    """A game is double only when every side that lost it is under 31: one loser past the
    line is enough to make it single (the three-player targets tested never let a loser
    reach 31)."""
    assert is_double(True, (0,), (61, 20, 25))
    assert not is_double(True, (0,), (61, 20, 40))
    assert not is_double(True, (0,), (61, 40, 20))
    assert not is_double(True, (1,), (31, 61, 0))
    assert not is_double(False, (0,), (61, 20, 25))


def test_the_target_of_all_fours():
    match = match_after(played((3, 0), rules="all-fours"))  # no captures; target 7
    assert match.target == 7 and match.after == (7, 0)
    assert match.winners == (0,) and match.when == "game"


def test_under_hand_end_a_score_at_the_target_before_the_play_stands():
    """A take-one or a turned-up Jack may take a side to the target before the play; under
    hand-end the match is decided by the totals after the deal."""
    match = match_after(played((61, 55), finish="hand-end"))    # N 9, S 5 in the deal
    assert match.before == (61, 55) and match.after == (70, 60) and match.winners == (0,)
    match = match_after(played((58, 61), finish="hand-end"))    # N passes S in the play
    assert match.after == (67, 66) and match.winners == (0,)
    assert match_after(played((57, 61), finish="hand-end")).winners == (0, 1)


@pytest.mark.parametrize("score, said", [((0, 1061), "S has 1061, more than 1060: no match to "
                                                     "61 gets there"),
                                         ((10**15, 0), "more than 1060"),
                                         ((-1061, 0), "N has -1061, less than -1060: no match to "
                                                      "61 gets there"),
                                         ((0, -3 * 10**9), "less than -1060"),
                                         ((10**1000, 0), "N has 100000000000000000...000000"
                                                         "0000000000000, more than 1060")])
def test_a_score_far_past_the_target_is_refused(score, said):
    """Under hand-end a score may be past the target as the play starts, but not so far that
    the engine's counts would overflow (a traceback, or a wrong value); below 0, by the
    revokes' penalties, neither (with objective win a traceback: no C int holds it).  A long
    number is quoted short."""
    with pytest.raises(DealError, match=re.escape(said)):
        played(score, finish="hand-end")
    assert played((-1060, 0)).deal.score == (-1060, 0)


@pytest.mark.parametrize("score", [(61, 0), (0, 61), (70, 65)])
def test_a_score_at_the_target_is_a_match_already_over(score):
    with pytest.raises(DealError, match=r"^score: [NS] has \d+, already at the target 61: "
                                        r"that match is over$"):
        played(score)


def test_hand_end_a_total_of_exactly_the_target_wins():
    match = match_after(played((52, 50), finish="hand-end"))       # N 61, S 55
    assert match.after == (61, 55) and match.winners == (0,)


def test_pegged_out_names_the_side_and_the_trick_that_took_it_out():
    """Under peg-out, the side whose capture took it to the target and the trick's number;
    None with no score, where nobody went out, where an end point took the side out, and
    under hand-end."""
    assert pegged_out(played((50, 56))) == (1, 2)
    assert pegged_out(played((56, 40))) == (0, 1)
    assert pegged_out(played((55, 40))) is None           # out on the High
    assert pegged_out(played((10, 20))) is None
    assert pegged_out(played()) is None
    assert pegged_out(played((50, 56), finish="hand-end")) is None
