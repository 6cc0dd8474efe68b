"""Solver speed on fixed, seeded deal classes (solver.benchmark), with pytest-benchmark.

One round is one deal: value, every legal card's value and an optimal line, from a fresh
table.  The median over rounds is the median over deals.  Run:

    .venv/bin/pip install '.[bench]'
    .venv/bin/pytest benchmarks --benchmark-columns=median,mean,max,rounds
"""

import itertools
import resource

import pytest
from conftest import deals

from solver import benchmark as classes
from solver import reference
from solver.search import Solver

FAST = ["2x6", "3x6", "4x6", "2x9"]
SLOW = ["2x12", "2x15", "2x21", "3x9", "3x12", "4x9", "bridge"]


def _time_class(benchmark, name: str, count: int) -> None:
    positions = classes.positions(name, count)
    solver = Solver()
    feed = itertools.cycle(positions)
    nodes = []

    def one(position):
        solution = classes.solve_once(solver, position, name)
        assert solution.complete
        nodes.append(solution.nodes)

    benchmark.pedantic(one, setup=lambda: ((next(feed),), {}), rounds=count, iterations=1)
    if benchmark.stats is None:
        return  # --benchmark-disable: the deals were solved and checked, nothing was timed
    seconds = benchmark.stats.stats.total
    benchmark.extra_info["deals"] = count
    benchmark.extra_info["nodes_per_second"] = round(sum(nodes) / seconds)
    benchmark.extra_info["median_nodes"] = sorted(nodes)[len(nodes) // 2]
    benchmark.extra_info["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


@pytest.mark.parametrize("name", FAST)
def test_engine(benchmark, name):
    benchmark.group = "engine"
    _time_class(benchmark, name, deals("fast"))


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_engine_slow_classes(benchmark, name):
    benchmark.group = "engine"
    _time_class(benchmark, name, deals("slow"))


@pytest.mark.slow
def test_engine_4x12(benchmark):
    """Four hands after two runs: minutes a deal."""
    benchmark.group = "engine"
    _time_class(benchmark, "4x12", deals("deep"))


def test_reference_2x6(benchmark):
    """The plain solver on the 2x6 class, for the engine's speed-up."""
    benchmark.group = "reference"
    count = deals("reference")
    feed = itertools.cycle(classes.positions("2x6", count))
    benchmark.pedantic(lambda p: reference.solve(p), setup=lambda: ((next(feed),), {}),
                       rounds=count, iterations=1)


@pytest.mark.slow
def test_dds_bridge(benchmark):
    """DDS (through endplay) on the same bridge deals as the engine's bridge class."""
    pytest.importorskip("endplay")
    benchmark.group = "dds"
    count = deals("slow")
    feed = itertools.cycle(classes.positions("bridge", count))
    benchmark.pedantic(classes.dds_moves, setup=lambda: ((next(feed),), {}), rounds=count,
                       iterations=1)


@pytest.mark.slow
@pytest.mark.parametrize("cards", [6, 9, 12])
def test_dds_bridge_deals_of_a_hand_size(benchmark, cards):
    """DDS on seeded bridge deals with hands of a class's size, as many as the slow classes
    time: the yardstick for that class."""
    pytest.importorskip("endplay")
    benchmark.group = "dds"
    count = deals("slow")
    feed = itertools.cycle(classes.bridge_positions(cards, count))
    benchmark.pedantic(classes.dds_moves, setup=lambda: ((next(feed),), {}), rounds=count,
                       iterations=1)
