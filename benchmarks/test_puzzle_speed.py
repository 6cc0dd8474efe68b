"""Puzzle mining speed: accepted puzzles a second, deals from the pack (runs as they come),
with the themes and the rating worked out for each, with pytest-benchmark.

One round mines ``ALLFIVES_BENCH_PUZZLES`` puzzles (default 20) from one seed; the rounds use
seeds 0, 1, 2.  Run:

    .venv/bin/pytest benchmarks/test_puzzle_speed.py --benchmark-columns=median,mean,rounds
"""

import itertools
import os

import pytest

from solver.puzzles import generate
from solver.search import Solver

PUZZLES = int(os.environ.get("ALLFIVES_BENCH_PUZZLES", 20))
ROUNDS = 3


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("assess", [True, False], ids=["rated", "unrated"])
def test_puzzles_per_second(benchmark, players, assess):
    benchmark.group = "puzzles"
    solver = Solver()
    seeds = itertools.count()
    tried = []

    def mine(seed):
        counts = {}
        found = list(generate(players, count=PUZZLES, seed=seed, solver=solver, assess=assess,
                              progress=lambda t, a: counts.update(tried=t, accepted=a)))
        assert len(found) == PUZZLES
        tried.append(counts["tried"])

    benchmark.pedantic(mine, setup=lambda: ((next(seeds),), {}), rounds=ROUNDS, iterations=1)
    seconds = benchmark.stats.stats.total
    benchmark.extra_info["puzzles_per_second"] = round(PUZZLES * ROUNDS / seconds, 2)
    benchmark.extra_info["candidates_per_second"] = round(sum(tried) / seconds, 1)
    benchmark.extra_info["accepted_share"] = round(PUZZLES * ROUNDS / sum(tried), 4)
