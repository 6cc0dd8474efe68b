"""Advice for a seat at its edges: what an ``Advice`` built with its worlds only says of the rest,
cards of unknown value, how values rank and tie, the means and intervals ``summarize`` gives
(worked out here by hand), and the budget's limits and deadline on a clock set by the test."""

import dataclasses
import math

import pytest

from solver import advice as advice_module
from solver.advice import SOLVED, ActionValue, Advice, Budget, ranked, summarize, tied, unknown, \
    valued


def test_an_advice_built_with_its_worlds_only_counts_nothing_else():
    """As the advice on a single legal card is built, with no more than its worlds and values:
    no nodes, no worlds left out, drawn or solved, not enumerated, the worlds solved by the
    engine, and as many effective worlds as worlds."""
    actions = (ActionValue(5, 1.0, 0.5, 1.5, 1.0), ActionValue(20, 0.0, -0.5, 0.5, 0.0))
    advice = Advice(0, "play", "margin", 16, False, True, actions)
    assert (advice.nodes, advice.left_out, advice.drawn, advice.solved) == (0, 0, 0, 0)
    assert advice.method == SOLVED and not advice.win_dropped and not advice.enumerated
    assert advice.effective == 16.0 and advice.best == 5
    # the seconds taken are left out of comparisons
    assert advice == Advice(0, "play", "margin", 16, False, True, actions, seconds=2.5)


def test_cards_of_unknown_value_come_heuristics_card_first_then_in_the_hands_order():
    actions = unknown([5, 20, 40], 20)
    assert [a.action for a in actions] == [20, 5, 40]
    for a in actions:
        assert all(math.isnan(v) for v in (a.mean, a.low, a.high)) and a.best == 0.0
        assert a.points is None and a.others_win is None


def test_an_advice_and_its_values_are_frozen():
    value = ActionValue(5, 1.0, 0.5, 1.5, 1.0)
    advice = Advice(0, "play", "margin", 16, False, True, (value,))
    for frozen, name in ((value, "mean"), (advice, "worlds")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(frozen, name, 0)
    assert hash(advice) == hash(Advice(0, "play", "margin", 16, False, True, (value,)))


def test_values_tie_to_nine_places_and_not_known_ties_with_nothing():
    assert tied(None, None) and tied(1.0, 1.0 + 4e-10) and tied(-0.5, -0.5)
    assert not tied(1.0, 1.0 + 4e-9) and not tied(1.0, 2.0)
    assert not tied(None, 1.0) and not tied(1.0, None) and not tied(None, math.nan)
    assert not tied(math.nan, math.nan) and not tied(math.nan, 1.0) and not tied(1.0, math.nan)
    assert not tied(math.nan, 0.0) and not tied(0.0, math.nan)


def test_means_rank_to_nine_places_before_the_heuristics_card():
    """Means apart in the ninth place rank by the mean; apart only past it, they tie and the
    heuristic's card comes first."""
    def order(apart):
        rows = {5: (1.0, 0.0, 2.0, 0.5), 20: (1.0 + apart, 0.0, 2.0, 0.5)}
        return [a.action for a in ranked([5, 20], rows, preferred=5)]

    assert order(4e-9) == [20, 5]
    assert order(4e-10) == [5, 20]


def two_cards():
    """Card 5 worth 4 in each of four worlds; card 20 worth 0 or 10 (mean 5), best in two."""
    return [5, 20], {5: [4.0] * 4, 20: [0.0, 10.0, 0.0, 10.0]}


def test_cards_rank_by_their_means_not_their_intervals_or_best_shares():
    """Card 20's mean (5) is above card 5's (4), while its interval starts lower and both are
    best in half the worlds: 20 comes first whichever card the heuristic plays."""
    legal, values = two_cards()
    for preferred in legal:
        actions = valued(legal, values, [1.0] * 4, exact=False, preferred=preferred)
        assert [a.action for a in actions] == [20, 5]
        assert [a.mean for a in actions] == [5.0, 4.0] and actions[0].low < actions[1].low


def test_equal_chances_rank_by_the_mean_of_their_points():
    """With the chance of winning alike, the points break the tie: their means (5 for card 20,
    4 for card 5), not the interval's low end or the share of worlds best."""
    legal, points = two_cards()
    wins = {5: [1.0, 0.0, 1.0, 0.0], 20: [1.0, 0.0, 1.0, 0.0]}
    actions = valued(legal, wins, [1.0] * 4, exact=False, preferred=5, points=points,
                     chance=True)
    assert [(a.action, a.points) for a in actions] == [(20, 5.0), (5, 4.0)]


def test_card_values_have_the_t_interval_unless_asked_for_a_chance():
    """Not a chance, the values 0 and 1 have the t interval, which runs past 0 and 1 here."""
    (value,) = valued([5], {5: [1.0, 0.0, 1.0, 0.0]}, [1.0] * 4, exact=False, preferred=5)
    half = 3.182446305284263 * math.sqrt(1 / 3) / 2     # t(0.975, 3), tables; s = sqrt(1/3)
    assert (value.mean, value.low, value.high) == pytest.approx((0.5, 0.5 - half, 0.5 + half))


def test_summarize_over_worlds_of_no_weight_knows_nothing():
    assert summarize([[1.0, 2.0], [3.0, 4.0]], [0.0, 0.0], exact=False) == [
        pytest.approx((math.nan, math.nan, math.nan, 0.0), nan_ok=True)] * 2
    assert summarize([], [1.0, 1.0], exact=False) == []


def test_summarize_takes_weights_that_sum_to_one():
    """Worlds weighted 1/2 each are two worlds: the same values as with weights 1 and 1."""
    rows = [[0.0, 4.0], [1.0, 3.0]]
    for halves, ones in zip(summarize(rows, [0.5, 0.5], exact=False),
                            summarize(rows, [1.0, 1.0], exact=False)):
        assert halves == pytest.approx(ones)
    (mean, low, high, best), _ = summarize(rows, [0.5, 0.5], exact=False)
    assert (mean, best) == (2.0, 0.5) and low < mean < high


def test_a_value_alike_in_every_world_reaches_as_far_as_the_values_spread():
    """Card one is worth 3 in every world, card two 2, 4, 6 or 8: the values spread over 6 (2 to
    8), and the first card's interval is 3 plus or minus 6 times 1 - 0.05 ** (1 / 4)."""
    (mean, low, high, _), _ = summarize([[3.0] * 4, [2.0, 4.0, 6.0, 8.0]], [1.0] * 4,
                                        exact=False)
    half = 6 * (1 - 0.05 ** 0.25)
    assert mean == 3.0 and (low, high) == pytest.approx((3.0 - half, 3.0 + half))


class Clock:
    """``clock.now`` as the test sets it."""

    def __init__(self, monkeypatch, start: float) -> None:
        self.time = start
        monkeypatch.setattr(advice_module.clock, "now", lambda: self.time)


def test_a_budget_shares_its_time_and_is_spent_at_the_deadline(monkeypatch):
    clock = Clock(monkeypatch, 100.0)
    budget = Budget(8.0, None, 10)
    assert (budget.deadline, budget.draw_deadline) == (108.0, 104.0)
    assert budget.limits(0) == (None, 2.0)          # 8 s over the first four solves
    clock.time = 103.0
    assert budget.limits(2) == (None, 2.5) and budget.seconds == 3.0
    assert not budget.spent()
    clock.time = 108.0
    assert budget.spent() is True
    assert budget.limits(0)[1] == 1e-4              # past the deadline: a tenth of a millisecond
    assert Budget(None, None, 10).deadline is None and Budget(None, None, 10).draw_deadline is None


def test_a_budget_of_nodes_is_shared_over_the_first_four_solves_at_most():
    budget = Budget(None, 1000, 4)
    assert (budget.nodes, budget.left_out, budget.drawn_short) == (0, 0, False)
    assert budget.limits(0) == (250, None) and budget.limits(6) == (1000, None)
    assert Budget(None, 1000, 1).limits(0) == (1000, None)     # one world: all of it


def test_a_budget_of_nodes_is_spent_when_none_is_left_and_still_gives_one():
    budget = Budget(None, 10, 4)
    assert budget.limits(0) == (2, None)            # 10 // 4
    budget.used(9)
    assert not budget.spent() and budget.limits(0) == (1, None)   # 1 left over 4
    budget.used(1)
    assert budget.spent() is True and budget.limits(3) == (1, None)
    budget.used(5)
    assert budget.nodes == 15 and budget.nodes_left == -5 and budget.limits(0) == (1, None)
    assert not Budget(None, None, 4).spent() and Budget(None, 0, 4).spent()


class CountingSolver:
    """Records the limits each solve is given and says it searched 7 nodes."""

    def __init__(self) -> None:
        self.asked: list[dict] = []

    def solve(self, position, side, objective, **limits):
        self.asked.append(limits)
        return type("Solution", (), {"nodes": 7})()


def test_a_budgets_solve_is_given_the_next_share_at_most_the_nodes_asked():
    solver = CountingSolver()
    budget = Budget(None, 1000, 4)
    assert budget.solve(solver, None, 0, "margin", 0).nodes == 7
    budget.solve(solver, None, 0, "margin", 1, most_nodes=100)
    budget.solve(solver, None, 0, "margin", 2, most_nodes=1000)
    Budget(None, None, 4).solve(solver, None, 0, "margin", 0, most_nodes=50)
    assert [a["node_limit"] for a in solver.asked] == [250, 100, 493, 50]   # 986 // 2
    assert all(a["line"] is False and a["time_limit"] is None for a in solver.asked)
    assert budget.nodes == 21 and budget.nodes_left == 979
