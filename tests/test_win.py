"""Objective ``win``: positions worked by hand for the reference solver (RULES.md, "What a
double-dummy value means" and "Winning the match").

Seats play clockwise; the elder hand (dealer's left) leads.  Pips: A 4, K 3, Q 2, J 1, T 10, 5 5.
"""

from __future__ import annotations

import dataclasses

import pytest
from handmade import make_position

from solver.deal import Position
from solver.errors import AllFivesError
from solver.reference import solve


def scored(position: Position, *score: int) -> Position:
    return dataclasses.replace(position.deal, score=score).position(position.play)


def win(position: Position, seat: str) -> int:
    deal = position.deal
    return solve(position, deal.side_of(deal.seats.index(seat)), "win").value


def test_win_needs_a_score():
    pos = make_position(["AS 2H", "3S TH"], "S", dealer="S")
    with pytest.raises(AllFivesError, match="needs the match score"):
        solve(pos, 0, "win")


@pytest.mark.parametrize("finish", ["peg-out", "hand-end"])
def test_capture_takes_x_out_before_the_other_side_ends_higher(finish):
    # Strict follow, no High.  Whichever card N leads, N wins the spade trick: A 4 captured, N
    # 57 -> 61, out at once under peg-out.  S takes the heart trick (no trumps in it), Low (3S
    # dealt to S) and Game (S 10 pips, N 4): S ends 60 + 2 = 62 against N's 61, which wins
    # under hand-end.
    pos = scored(make_position(["AS 2H", "3S TH"], "S", dealer="S", rules="strict", high=False,
                               finish=finish), 57, 60)
    peg_out = finish == "peg-out"
    assert win(pos, "N") == int(peg_out)
    assert win(pos, "S") == int(not peg_out)
    # every card N can lead gives the same
    assert set(solve(pos, 0, "win").moves.values()) == {int(peg_out)}


@pytest.mark.parametrize("finish, n_wins, s_wins", [("peg-out", 0, 1), ("hand-end", 1, 0)])
def test_high_pegged_first_takes_the_other_side_out(finish, n_wins, s_wins):
    # All Fours (no captures, target 7), strict.  Each side wins one trick whatever the order:
    # N the TH (10 pips), S the AS (4 pips).  High (AS) goes to S, Low (3S) to N, Game to N.
    # At 6-6 High is pegged first and takes S out before N's Low and Game; after the deal N
    # has 8, S 7.
    pos = scored(make_position(["TH 3S", "AS 2H"], "S", dealer="S", rules="all-fours",
                               follow="strict", finish=finish), 6, 6)
    assert win(pos, "N") == n_wins
    assert win(pos, "S") == s_wins


def test_hand_end_shared_win():
    # The same play from 5-6: N ends 5 + 2 = 7, S 6 + 1 = 7, equal highest at the target, a
    # shared win for both.  Under peg-out S's High takes it out first.
    pos = make_position(["TH 3S", "AS 2H"], "S", dealer="S", rules="all-fours", follow="strict",
                        finish="hand-end")
    pos = scored(pos, 5, 6)
    assert win(pos, "N") == 1 and win(pos, "S") == 1
    peg = scored(make_position(["TH 3S", "AS 2H"], "S", dealer="S", rules="all-fours",
                               follow="strict"), 5, 6)
    assert win(peg, "N") == 0 and win(peg, "S") == 1


@pytest.mark.parametrize("score, finish, winners", [
    ((60, 52, 60), "peg-out", "E"), ((60, 52, 60), "hand-end", "E"),
    ((60, 51, 60), "peg-out", "S"), ((60, 51, 60), "hand-end", "ES")])
def test_three_players(score, finish, winners):
    # One card each, N leads: E's KS wins the trick, 5 + 3 = 8 captured.  High (KS) to E, Low
    # (2S) to S, Game to E (8 pips).  From 60-52-60 E pegs 60 with the capture and goes out
    # with High before S's Low; after the deal E has 62.  From 60-51-60 E reaches only 60
    # with High, and S's Low takes S out; after the deal E and S both have 61 and share it.
    pos = scored(make_position(["5S", "KS", "2S"], "S", dealer="S", finish=finish), *score)
    assert "".join(seat for seat in "NES" if win(pos, seat)) == winners


def test_three_players_x_against_the_other_two():
    # Two cards each, N leads, strict follow, no High or Low.  From 55-50-50 N needs 6: the
    # 5S and 4S with Game.  But E's KS takes the 5S whenever it is led, and on a 2H lead E
    # must follow 3H, S's QH wins and S's 4S lead brings out 5S and KS again.
    pos = scored(make_position(["5S 2H", "KS 3H", "4S QH"], "S", dealer="S", rules="strict",
                               high=False, low=False), 55, 50, 50)
    assert win(pos, "N") == 0
