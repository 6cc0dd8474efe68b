"""Rules of the move ordering that read the other hands: the lead to the partner's winner (a
low card led to a suit whose top card the leader's partner holds, where no opponent can trump
it, is tried early; on points in trumps only) and the play to a trick that weighs what the
seats still to play hold (a partner who wins whatever the opponents do is fed, not overtaken;
a partner an opponent may still beat is overtaken; a winner no later opponent may beat is
played as in the last seat).  They order the moves only, so every answer must stay exact: checked
against the reference solver on positions where a side holds top cards, and against DDS on
bridge deals; each test also checks that the rule did work (the nodes differ without it)."""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from solver import benchmark
from solver.rules import Rules
from solver.search import Solver
from test_engine import _check, _objectives
from test_engine_cashing import PRESETS, VARIANTS, _runs_deal

RULES = ["partner-lead", "seats-after"]
#: The seeds of the checks against the reference: the first in the default run, the second
#: under ``-m slow`` (a minute more of the reference's solves).
SEEDS = [0, pytest.param(1, marks=pytest.mark.slow)]


def _pair(monkeypatch, rule: str, table_bits=16):
    with_rule = Solver(table_bits=table_bits)
    monkeypatch.setenv("ALLFIVES_ENGINE_OFF", rule)
    without = Solver(table_bits=table_bits)
    monkeypatch.delenv("ALLFIVES_ENGINE_OFF")
    return with_rule, without


def _scored(position, rng: random.Random):
    """The position with match scores near the target, so that the deal can decide the match
    (objective ``win`` needs them)."""
    target = position.deal.rules.target
    score = tuple(target - rng.randint(1, 4) for _ in range(position.deal.sides))
    return dataclasses.replace(position.deal, score=score).position(position.play)


def _cases(seed: int, count: int, players=(4,), sizes=(3, 4)):
    """Every preset and follow rule, a side often holding runs of top cards; fresh deals and
    positions after whole tricks or in the middle of one."""
    rng = random.Random(seed)
    for i in range(count):
        n = players[i % len(players)]
        rules = Rules.preset(PRESETS[i % len(PRESETS)], **VARIANTS[(i // 5) % len(VARIANTS)])
        position = _runs_deal(rng, n, rng.choice(sizes), rules).position()
        cards = len(position.deal.hands[0])
        played = rng.choice((0, 0, n, rng.randrange(n * (cards - 1))))
        for _ in range(played):
            position = position.after(rng.choice(position.legal_moves()))
        yield position, rng.randrange(position.deal.sides), rng


def _agree(monkeypatch, rule, cases, objectives):
    with_rule, without = _pair(monkeypatch, rule)
    differ = 0
    for i, (position, side, rng) in enumerate(cases):
        objective = objectives(position)[i % len(objectives(position))]
        if objective == "win":
            position = _scored(position, rng)
        ours = with_rule.solve(position, side, objective, fresh=True)
        _check(ours, position, side, objective)
        plain = without.solve(position, side, objective, fresh=True)
        assert (plain.value, plain.moves) == (ours.value, ours.moves)
        differ += ours.nodes != plain.nodes
    assert differ, "the rule never changed the search"


@pytest.mark.parametrize("seed", SEEDS)
def test_partner_lead_agrees_with_the_reference_on_tricks(monkeypatch, seed):
    _agree(monkeypatch, "partner-lead", _cases(4100 + seed, 150), lambda p: ["tricks"])


@pytest.mark.parametrize("seed", SEEDS)
def test_seats_after_agrees_with_the_reference(monkeypatch, seed):
    """Three players (on tricks a sure winner is played cheaply) and four (partners too), on
    every objective."""
    def objectives(position):
        return _objectives(len(position.deal.hands)) + ["win"]
    _agree(monkeypatch, "seats-after", _cases(4300 + seed, 200, players=(3, 4)), objectives)


@pytest.mark.parametrize("seed", SEEDS)
def test_partner_lead_agrees_with_the_reference_on_points_margin_and_win(monkeypatch, seed):
    """On points, margin and win the lead to the partner's winner is tried in trumps only."""
    def objectives(position):
        return ["points", "margin", "win"]
    _agree(monkeypatch, "partner-lead", _cases(4200 + seed, 120), objectives)


@pytest.mark.parametrize("rule", RULES)
def test_order_rules_agree_with_dds_on_bridge_deals(monkeypatch, rule):
    pytest.importorskip("endplay")
    with_rule, without = _pair(monkeypatch, rule, 20)
    differ = 0
    for position in benchmark.bridge_positions(9, 6):
        ours = with_rule.solve(position, objective="tricks", fresh=True)
        assert ours.moves_str() == benchmark.dds_moves(position), position.deal
        differ += ours.nodes != without.solve(position, objective="tricks", fresh=True).nodes
    assert differ, "the rule never changed the search"


def test_seats_after_changes_no_answer_on_deep_positions(monkeypatch):
    """Beyond the reference solver: 4 x 9 deals played on at random to 20 cards, on points and
    margin, with the rule and without: the same value and every card's."""
    with_rule, without = _pair(monkeypatch, "seats-after", 18)
    rng = random.Random("seats-after")
    differ = 0
    for k, position in enumerate(benchmark.positions("4x9", 4)):
        while sum(len(h) for h in position.deal.hands) - len(position.play) > 20:
            position = position.after(rng.choice(position.legal_moves()))
        objective = ("points", "margin")[k % 2]
        ours = with_rule.solve(position, k % 2, objective, fresh=True)
        plain = without.solve(position, k % 2, objective, fresh=True)
        assert (ours.value, ours.moves) == (plain.value, plain.moves), position.deal
        differ += ours.nodes != plain.nodes
    assert differ, "the rule never changed the search"


def test_side_by_side_counts_what_each_solve_counts(monkeypatch):
    """benchmark.side_by_side, the measurement the README's tables come from: its nodes are the
    sums of the solves' own, with the rules and without, and it leaves the setting as it was."""
    monkeypatch.delenv("ALLFIVES_ENGINE_OFF", raising=False)
    positions = benchmark.positions("4x6", 20)
    result = benchmark.side_by_side("partner-lead,seats-after", positions)
    with_rule, without = _pair(monkeypatch, "partner-lead,seats-after", 20)
    for label, solver in (("on", with_rule), ("off", without)):
        nodes = trick_nodes = 0
        for position in positions:
            nodes += solver.solve(position, fresh=True).nodes
            trick_nodes += solver.engine.trick_nodes
        assert (result[label]["nodes"], result[label]["trick_nodes"]) == (nodes, trick_nodes)
    assert result["on"]["nodes"] != result["off"]["nodes"]
    assert "ALLFIVES_ENGINE_OFF" not in os.environ
