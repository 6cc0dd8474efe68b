"""The Monte Carlo player's middle tier on deep hands: worlds solved with Game set aside.

The oracle is the reference solver on the same deal under its rules without Game, and on the
deal as it is: Game is one point to one side (or to none), so the value with Game lies within a
point of the value without it.
"""

from __future__ import annotations

import random

import pytest

import cli.advising as advising
from solver import benchmark, reference
from solver.game import observation_of
from solver.pimc import GAME_ASIDE, PLAYED_OUT, SOLVED, ActionValue, Advice, PimcPlayer, \
    game_aside
from solver.players import PlayerError
from solver.registry import make_player
from solver.rules import Rules
from solver.search import Solver
from solver.shuffle import random_position
from test_playout import advised_with

WITH_GAME = ("all-fives", "strict", "all-fours", "five-for-five")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_deal_with_game_aside_is_solved_as_the_reference_solves_it(players):
    rng = random.Random(f"aside{players}")
    solver = Solver(table_bits=16)
    sizes = {2: (3, 4, 5), 3: (3, 4), 4: (2, 3)}[players]
    objectives = ("points",) if players == 3 else ("margin", "points")
    for k in range(60):
        rules = Rules.preset(WITH_GAME[k % len(WITH_GAME)])
        position = random_position(rng, players, rng.choice(sizes), rules)
        aside = game_aside(position)
        assert aside.play == position.play and aside.deal.hands == position.deal.hands
        assert not aside.deal.rules.game
        assert aside.deal.rules.replace(game=True) == position.deal.rules
        objective = objectives[k % len(objectives)]
        side = rng.randrange(position.deal.sides)
        found = solver.solve(aside, side, objective)
        expected = reference.solve(aside, side, objective)
        assert (found.value, found.moves) == (expected.value, expected.moves)
        # Game is a point at most: the value with it lies within that of the value without
        truth = reference.solve(position, side, objective)
        least = 0 if objective == "points" else -1
        for card, value in truth.moves.items():
            assert expected.moves[card] + least <= value <= expected.moves[card] + 1


def _deep():
    """A four-player 9-card deal whose solve with Game does not fit in 1,000,000 nodes and
    whose solve with Game aside fits in 500,000, and the seat's observation of it."""
    for position in benchmark.positions("4x9", 10):
        side = position.to_move % 2
        if Solver().solve(position, side, "margin", line=False, node_limit=1_000_000).complete:
            continue
        aside = Solver().solve(game_aside(position), side, "margin", line=False,
                               node_limit=500_000)
        if aside.complete:
            return position, observation_of(position, position.to_move), aside
    pytest.fail("no 9-card deal here that needs Game aside")


def test_deep_worlds_are_solved_with_game_aside_before_they_are_played_out():
    position, observation, aside = _deep()
    player = PimcPlayer(seed=1, time_limit=None, node_limit=4_000_000, worlds=4, aside=True)
    advice = player.advise_positions(observation, [position] * 4, [1.0] * 4)
    assert advice.method == GAME_ASIDE and advice.worlds == 4 and not advice.complete
    assert {a.action: a.mean for a in advice.actions} == pytest.approx(
        {c: float(v) for c, v in aside.moves.items()})
    means = [a.mean for a in advice.actions]
    assert means == sorted(means, reverse=True)
    # without the tier the same decision is played out
    without = PimcPlayer(seed=1, time_limit=None, node_limit=4_000_000, worlds=4, aside=False)
    assert without.advise_positions(observation, [position] * 4, [1.0] * 4).method == PLAYED_OUT
    # and with a budget that solves them with Game, Game is not set aside
    roomy = PimcPlayer(seed=1, time_limit=None, node_limit=400_000_000, worlds=1, aside=True)
    assert roomy.advise_positions(observation, [position], [1.0]).method == SOLVED


def test_rules_without_game_have_nothing_to_set_aside():
    position, observation, _ = _deep()
    classic = game_aside(position)
    player = PimcPlayer(seed=1, time_limit=None, node_limit=2_000, worlds=4, aside=True)
    advice = player.advise_positions(observation_of(classic, classic.to_move), [classic] * 4,
                                     [1.0] * 4)
    assert advice.method == PLAYED_OUT


def test_the_option_is_a_switch():
    assert make_player("pimc", aside=1).aside
    assert not make_player("pimc").aside
    with pytest.raises(PlayerError, match="aside: 2 is not true or false"):
        make_player("pimc", aside=2)


def test_the_report_and_the_record_say_game_was_set_aside(monkeypatch):
    report, record = advised_with(monkeypatch, GAME_ASIDE)
    assert "Game's point left out" in report
    assert "solved with Game set aside instead" in report
    assert "Some solves stopped" not in report and "played out by" not in report
    assert '"method": "solved, Game aside"' in record
    report, _ = advised_with(monkeypatch, SOLVED)
    assert "Game set aside" not in report and "Game's point" not in report


def test_the_hint_says_game_was_set_aside():
    position, observation, _ = _deep()
    legal = list(observation.legal_actions)
    actions = tuple(ActionValue(a, 1.0 - k, -2.0 - k, 4.0 - k, 0.5) for k, a in enumerate(legal))
    for method in (GAME_ASIDE, PLAYED_OUT, SOLVED):
        advice = Advice(observation.seat, "play", "margin", 16, False, False, actions,
                        method=method)
        text = " ".join(advising.advice_lines(advice, observation, legal, False).plain.split())
        assert ("with Game's point left out" in text) == (method == GAME_ASIDE)
        assert ("played out by the heuristic" in text) == (method == PLAYED_OUT)
        assert ("a search stopped at its limit" in text) == (method == SOLVED)
