"""The engine on the deep deals, where its table entries generalise most: late positions of the
benchmark classes' 9-, 12-, 15- and 21-card deals against the reference solver, and bridge
deals of 9 and 12 cards a hand against DDS."""

from __future__ import annotations

import random

import pytest

from solver import benchmark, reference
from solver.search import Solver
from test_engine import _check, _objectives

#: class, cards left in the hands (the reference solver's reach), positions
LATE = [("4x9", 12, 4), ("4x9", 13, 3), ("4x12", 12, 4), ("4x12", 14, 2), ("3x9", 11, 4),
        ("3x12", 12, 3), ("2x12", 10, 4), ("2x15", 11, 3), ("2x21", 10, 4)]


def _late(name: str, left: int, count: int, seed: int):
    """The class's first deals played on at random until ``left`` cards are in the hands (often
    mid-trick)."""
    rng = random.Random(f"{name}:{left}:{seed}")
    for position in benchmark.positions(name, count):
        cards = sum(len(h) for h in position.deal.hands)
        while cards - len(position.play) > left:
            position = position.after(rng.choice(position.legal_moves()))
        yield position


@pytest.mark.parametrize("name,left,count", LATE)
def test_late_positions_of_deep_deals(name, left, count):
    solver = Solver(table_bits=16)
    for k, position in enumerate(_late(name, left, count, 0)):
        objectives = _objectives(len(position.deal.hands))
        for objective in ("points", objectives[1 + k % (len(objectives) - 1)]):
            side = k % position.deal.sides
            _check(solver.solve(position, side, objective), position, side, objective)


@pytest.mark.slow
@pytest.mark.parametrize("name,left,count", LATE)
def test_late_positions_of_deep_deals_many(name, left, count):
    solver = Solver(table_bits=18)
    for seed in range(1, 6):
        for k, position in enumerate(_late(name, left, 3 * count, seed)):
            for objective in _objectives(len(position.deal.hands)):
                side = k % position.deal.sides
                _check(solver.solve(position, side, objective), position, side, objective)


@pytest.mark.parametrize("cards,count", [(9, 6), (12, 3)])
def test_bridge_deals_of_nine_and_twelve_cards_agree_with_dds(cards, count):
    pytest.importorskip("endplay")
    solver = Solver()
    for position in benchmark.bridge_positions(cards, count):
        ours = solver.solve(position, objective="tricks")
        assert ours.moves_str() == benchmark.dds_moves(position), position.deal


@pytest.mark.parametrize("off", ["bounds", "order", "classes", "points-first", "points-probe",
                                 "cashing", "partner-lead", "seats-after"])
def test_each_technique_off_gives_the_same_answers(monkeypatch, off):
    """ALLFIVES_ENGINE_OFF switches a technique off to measure what it buys: the answers stay
    exact."""
    monkeypatch.setenv("ALLFIVES_ENGINE_OFF", off)
    solver = Solver(table_bits=14)
    for k, position in enumerate(_late("4x9", 12, 3, 7)):
        for objective in ("points", "tricks"):
            _check(solver.solve(position, k % 2, objective), position, k % 2, objective)


def _probed(name: str, left: int, count: int, seed: str):
    """The class's first deals played on at random until ``left`` cards are in the hands."""
    rng = random.Random(seed)
    for position in benchmark.positions(name, count):
        cards = sum(len(h) for h in position.deal.hands)
        while cards - len(position.play) > left:
            position = position.after(rng.choice(position.legal_moves()))
        yield position


#: class, cards left, positions: where the reference solver reaches
PROBED = [("4x9", 12, 3), ("3x9", 11, 3), ("2x12", 10, 3), ("2x9", 12, 3)]


def _probe_everywhere(solver: Solver) -> Solver:
    # the engine searches the points alone first from 28 cards in the hands on; from 4 on
    # it does so at every trick start but the last, within the reference solver's reach
    solver.engine.probe_cards = 4
    return solver


@pytest.mark.parametrize("name,left,count", PROBED)
def test_the_points_searched_first_agree_with_the_reference(monkeypatch, name, left, count):
    """With the points alone searched first wherever Game is open: the reference solver's
    answers, and the probe did work (the nodes differ from a search without it)."""
    solver = _probe_everywhere(Solver(table_bits=16))
    positions = list(_probed(name, left, count, f"probe:{name}"))
    solved = []
    for k, position in enumerate(positions):
        side = k % position.deal.sides
        objective = "margin" if position.deal.sides == 2 and k % 2 else "points"
        solution = solver.solve(position, side, objective, fresh=True)
        _check(solution, position, side, objective)
        solved.append((side, objective, solution.nodes))
    monkeypatch.setenv("ALLFIVES_ENGINE_OFF", "points-probe")
    plain = _probe_everywhere(Solver(table_bits=16))
    assert any(plain.solve(position, side, objective, fresh=True).nodes != nodes
               for position, (side, objective, nodes) in zip(positions, solved))


@pytest.mark.slow
@pytest.mark.parametrize("name,left,count", PROBED)
def test_the_points_searched_first_agree_with_the_reference_many(name, left, count):
    solver = _probe_everywhere(Solver(table_bits=18))
    for seed in range(1, 6):
        for k, position in enumerate(_probed(name, left, 3 * count, f"probe:{name}:{seed}")):
            for objective in _objectives(len(position.deal.hands)):
                side = k % position.deal.sides
                _check(solver.solve(position, side, objective), position, side, objective)


@pytest.mark.parametrize("name,left,count", [("4x9", 32, 3), ("3x12", 33, 2)])
def test_the_points_searched_first_change_no_answer(monkeypatch, name, left, count):
    """Deep positions, beyond the reference solver, where the engine searches the points
    alone first as it stands: the same value and every card's value as without, and a line
    that plays out to the value."""
    positions = list(_probed(name, left, count, f"deep:{name}"))
    probed = Solver(table_bits=18)
    answers = []
    for k, position in enumerate(positions):
        side = k % position.deal.sides
        objective = "margin" if position.deal.sides == 2 and k % 2 else "points"
        solution = probed.solve(position, side, objective, fresh=True)
        end = position.after(*solution.line)
        assert end.is_over and reference.final_value(end, side, objective) == solution.value
        answers.append((side, objective, solution.value, solution.moves, solution.nodes))
    monkeypatch.setenv("ALLFIVES_ENGINE_OFF", "points-probe")
    plain = Solver(table_bits=18)
    nodes_differ = False
    for position, (side, objective, value, moves, nodes) in zip(positions, answers):
        solution = plain.solve(position, side, objective, fresh=True)
        assert (solution.value, solution.moves) == (value, moves), position.deal
        nodes_differ |= solution.nodes != nodes
    assert nodes_differ


def test_an_unknown_technique_is_refused(monkeypatch):
    monkeypatch.setenv("ALLFIVES_ENGINE_OFF", "bounds,telepathy")
    with pytest.raises(ValueError, match="telepathy"):
        Solver(table_bits=10)
