"""Objective ``win``: positions worked by hand for the reference solver and the engine
(RULES.md, "What a double-dummy value means" and "Winning the match"), and the engine against
the reference on small random positions whose scores are near the target.

Seats play clockwise; the elder hand (dealer's left) leads.  Pips: A 4, K 3, Q 2, J 1, T 10, 5 5.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from handmade import make_position

from solver import clock
from solver.cards import parse_cards
from solver.deal import Position
from solver.errors import AllFivesError
from solver.pegging import match_after
from solver.reference import solve
from solver.rules import Rules
from solver.search import Solver
from solver.shuffle import random_position


def scored(position: Position, *score: int) -> Position:
    return dataclasses.replace(position.deal, score=score).position(position.play)


def win(position: Position, seat: str) -> int:
    """The seat's side's value by the reference solver, the engine agreeing."""
    deal = position.deal
    side = deal.side_of(deal.seats.index(seat))
    value = solve(position, side, "win").value
    assert Solver(table_bits=12).solve(position, side, "win").value == value
    return value


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


@pytest.mark.parametrize("score, n_wins", [(49, 1), (48, 0)])
def test_the_five_for_fives_end_point_is_worth_five(score, n_wins):
    # Five-for-five, the game ended by the hand: N's 5S wins the one trick over S's 2S, 5
    # captured, High, Game (5 pips to 0), and at the end the Five's 5 more: 12 points.
    # From 49 N ends at 61, from 48 at 60; S ends at 51 with Low.
    pos = scored(make_position(["5S", "2S"], "S", dealer="S", rules="five-for-five",
                               finish="hand-end"), score, 50)
    assert solve(pos, 0, "points").value == 12
    assert win(pos, "N") == n_wins


def test_three_players_x_against_the_other_two():
    # Two cards each, N leads, strict follow, no High or Low.  From 55-50-50 N needs 6: the
    # 5S and 4S with Game.  But E's KS takes the 5S whenever it is led, and on a 2H lead E
    # must follow 3H, S's QH wins and S's 4S lead brings out 5S and KS again.
    pos = scored(make_position(["5S 2H", "KS 3H", "4S QH"], "S", dealer="S", rules="strict",
                               high=False, low=False), 55, 50, 50)
    assert win(pos, "N") == 0


# ---- the engine against the reference -----------------------------------------------------------

def _near_target(rng: random.Random, players: int, preset: str, finish: str,
                 mid_trick: bool, cards: int | None = None) -> Position:
    """A small random position whose match score is within reach of the target."""
    rules = Rules.preset(preset)
    target = 7 if preset == "all-fours" else rng.choice([rules.target, 11, 21])
    options = {"finish": finish, "target": target}
    if preset not in ("classic", "all-fours") and rng.random() < 0.3:
        options["low_to"] = "captor"
    rules = rules.replace(**options)
    if cards is None:
        cards = {2: rng.choice([3, 4, 5]), 3: rng.choice([2, 3, 4]),
                 4: rng.choice([2, 3])}[players]
    total = players * cards
    if mid_trick:
        played = rng.choice([k for k in range(total) if k % players])
    else:
        played = rng.choice(range(0, total, players))
    pos = random_position(rng, players, cards, rules, played=played)
    span = min(target - 1, 20)
    # (under hand-end a take-one or a turned-up Jack may take a side to the target before play)
    top = target + 1 if finish == "hand-end" else target - 1
    score = tuple(rng.randint(target - span, top) for _ in range(pos.deal.sides))
    return scored(pos, *score)


def _agree(engine: Solver, pos: Position) -> int:
    """Engine and reference agree for every side: value, every legal card's value, and the
    engine's line, replayed, wins the match exactly when the value says so."""
    for side in range(pos.deal.sides):
        expected = solve(pos, side, "win")
        got = engine.solve(pos, side, "win")
        assert got.complete
        assert (got.value, got.moves) == (expected.value, expected.moves), (pos, side)
        end = pos.after(*got.line)
        assert end.is_over
        match = match_after(end)
        assert match is not None and int(side in match.winners) == got.value, (pos, side)
    return pos.deal.sides


PRESET_NAMES = ["all-fives", "strict", "classic", "all-fours", "five-for-five"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("finish", ["peg-out", "hand-end"])
def test_engine_agrees_with_reference(players, finish):
    rng = random.Random(f"win {players} {finish}")
    engine = Solver(table_bits=16)
    compared = 0
    for i in range(300):
        pos = _near_target(rng, players, PRESET_NAMES[i % len(PRESET_NAMES)], finish,
                           mid_trick=i % 2 == 1)
        compared += _agree(engine, pos)
    assert compared >= 600


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("finish", ["peg-out", "hand-end"])
def test_engine_agrees_with_reference_long(players, finish):
    rng = random.Random(f"win long {players} {finish}")
    engine = Solver(table_bits=18)
    for i in range(1500):
        pos = _near_target(rng, players, PRESET_NAMES[i % len(PRESET_NAMES)], finish,
                           mid_trick=rng.random() < 0.5)
        _agree(engine, pos)


@pytest.mark.slow
@pytest.mark.parametrize("players, cards", [(2, 6), (3, 5), (4, 4)])
def test_engine_agrees_with_reference_larger(players, cards):
    rng = random.Random(f"win larger {players}")
    engine = Solver()
    for i in range(40):
        pos = _near_target(rng, players, PRESET_NAMES[i % len(PRESET_NAMES)],
                           ("peg-out", "hand-end")[i % 2], mid_trick=rng.random() < 0.5,
                           cards=cards)
        _agree(engine, pos)


def test_engine_hand_made():
    engine = Solver(table_bits=12)
    pos = scored(make_position(["AS 2H", "3S TH"], "S", dealer="S", rules="strict", high=False),
                 57, 60)
    assert engine.solve(pos, 0, "win").value == 1
    assert engine.solve(pos, 1, "win").value == 0
    with pytest.raises(AllFivesError, match="needs the match score"):
        engine.solve(make_position(["AS 2H", "3S TH"], "S", dealer="S"), 0, "win")


def test_engine_decided_by_a_capture_already():
    # Peg-out: N's AS took the first trick and N out (57 + 4); the rest cannot change it.
    pos = scored(make_position(["AS 2H", "3S TH"], "S", dealer="S", rules="strict", high=False),
                 57, 60).after(*parse_cards("AS 3S"))
    engine = Solver(table_bits=12)
    for side, value in ((0, 1), (1, 0)):
        began = clock.now()
        got = engine.solve(pos, side, "win")
        took = clock.now() - began
        assert got.value == value and set(got.moves.values()) == {value}
        assert pos.after(*got.line).is_over
        # no search: no node, the bounds met, and the time it took
        assert (got.nodes, got.lower, got.upper, got.complete) == (0, value, value, True)
        assert 0 <= got.seconds <= took
