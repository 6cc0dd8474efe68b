"""The lead to the partner's winner (on tricks, a low card led to a suit whose top card the
leader's partner holds, where no opponent can trump it, is tried early): it orders the moves
only, so every answer must stay exact.  Checked against the reference solver on positions
where a partner holds top cards, and against DDS on bridge deals; each test also checks that
the rule did work (the nodes differ from a search without it)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from solver import benchmark
from solver.rules import Rules
from solver.search import Solver
from test_engine import _check
from test_engine_cashing import PRESETS, VARIANTS, _runs_deal


def _pair(monkeypatch, table_bits=16):
    with_rule = Solver(table_bits=table_bits)
    monkeypatch.setenv("ALLFIVES_ENGINE_OFF", "partner-lead")
    without = Solver(table_bits=table_bits)
    monkeypatch.delenv("ALLFIVES_ENGINE_OFF")
    return with_rule, without


def _partner_cases(seed: int, count: int, sizes=(3, 4)):
    """Four players (the only count with partners), every preset and follow rule, the leader's
    partner often holding a run; fresh deals and positions after whole tricks or mid-trick."""
    rng = random.Random(seed)
    for i in range(count):
        rules = Rules.preset(PRESETS[i % len(PRESETS)], **VARIANTS[(i // 5) % len(VARIANTS)])
        position = _runs_deal(rng, 4, rng.choice(sizes), rules).position()
        played = rng.choice((0, 0, 4, rng.randrange(4 * (len(position.deal.hands[0]) - 1))))
        for _ in range(played):
            position = position.after(rng.choice(position.legal_moves()))
        yield position, rng.randrange(position.deal.sides)


@pytest.mark.parametrize("seed", range(2))
def test_partner_lead_agrees_with_the_reference_on_tricks(monkeypatch, seed):
    with_rule, without = _pair(monkeypatch)
    differ = 0
    for position, side in _partner_cases(4100 + seed, 150):
        ours = with_rule.solve(position, side, "tricks", fresh=True)
        _check(ours, position, side, "tricks")
        plain = without.solve(position, side, "tricks", fresh=True)
        assert (plain.value, plain.moves) == (ours.value, ours.moves)
        differ += ours.nodes != plain.nodes
    assert differ, "the rule never changed the search"


@pytest.mark.parametrize("objective", ["points", "margin", "win"])
def test_partner_lead_leaves_the_other_objectives_alone(monkeypatch, objective):
    """On points, margin and win the rule is not used: the same answers from the same nodes."""
    with_rule, without = _pair(monkeypatch)
    rng = random.Random(f"alone:{objective}")
    for position, side in _partner_cases(4200, 60, sizes=(3,)):
        if objective == "win":  # scores near the target, so that the deal can decide it
            target = position.deal.rules.target
            score = tuple(target - rng.randint(1, 4) for _ in range(position.deal.sides))
            position = dataclasses.replace(position.deal, score=score).position(position.play)
        ours = with_rule.solve(position, side, objective, fresh=True)
        _check(ours, position, side, objective)
        plain = without.solve(position, side, objective, fresh=True)
        assert (ours.value, ours.moves, ours.nodes) == (plain.value, plain.moves, plain.nodes)


def test_partner_lead_agrees_with_dds_on_bridge_deals(monkeypatch):
    pytest.importorskip("endplay")
    with_rule, without = _pair(monkeypatch, 20)
    differ = 0
    for position in benchmark.bridge_positions(9, 6):
        ours = with_rule.solve(position, objective="tricks", fresh=True)
        assert ours.moves_str() == benchmark.dds_moves(position), position.deal
        differ += ours.nodes != without.solve(position, objective="tricks", fresh=True).nodes
    assert differ, "the rule never changed the search"
