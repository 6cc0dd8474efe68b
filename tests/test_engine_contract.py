"""The engine's entry: the Python interface holds what solver/_search.pyi says."""

from __future__ import annotations

import pytest


def test_the_python_interface():
    from solver._search import Engine, Problem, Result

    engine = Engine(12)
    assert engine.Problem is Problem
    points = bytearray(64)
    points[12] = 1  # the ace of suit 0 gives a point
    problem = Problem(sides=(0, 1), xside=0, trump=0, points=bytes(points), pips=bytes(64))
    assert (problem.trick_bonus, problem.game, problem.margin, problem.strict) == \
        (0, True, False, False)
    # seat 0 holds the ace and the two of suit 0, seat 1 the king and three
    result = engine.solve(problem, [1 << 12 | 1 << 0, 1 << 11 | 1 << 1], 0)
    assert isinstance(result, Result)
    assert (result.lower, result.upper, result.stopped) == (1, 1, False)
    assert sorted(result.moves) == [(0, 1, 1), (12, 1, 1)]
    assert len(result.line) == 4 and result.nodes > 0
    # mid-trick: seat 1 has led the two
    result = engine.solve(problem, [1 << 12 | 1 << 1, 1 << 11], 1, [0], (0, 0, 0),
                          all_moves=False, want_line=False)
    assert (result.lower, result.upper, result.moves, result.line) == (1, 1, [], [])
    for bad, message in (
            ((problem._replace(sides=(0,)), [1, 2], 0), "2 to 4 seats"),
            ((problem._replace(pips=bytes(3)), [1, 2], 0), "64 bytes"),
            ((problem._replace(trump=5), [1, 2], 0), "trump is 0 to 4"),
            ((problem, [1, 2], 2), "the leader a seat"),
            ((problem, [1, 2], 0, [3, 4]), "fewer cards than seats"),
            ((problem, [1, 2], 0, (), (0, 0, 0, 0)), "Game pips for at most three"),
            ((problem._replace(sides=(0, 3)), [1, 2], 0), "sides are numbered"),
            ((problem._replace(xside=2), [1, 2], 0), "the side solved for"),
            ((problem, [1, 1], 0), r"hands\[1\] holds a card twice"),
            ((problem, [1, 6], 0), "hands hold 1 cards each")):
        with pytest.raises(ValueError, match=message):
            engine.solve(*bad)
    with pytest.raises(ValueError, match="a node limit of 0 or more"):
        engine.solve(problem, [1, 2], 0, node_limit=-1)
    assert engine.solve(problem, [1, 2], 0).lower == 0
