"""Timing the engine on the seeded deal classes of ``solver.benchmark``, without pytest.

Each timed solve is ``benchmark.solve_once`` (value, every root card and a line, from a fresh
table) with one ``Solver`` per class.  On the bridge class the same deals can be timed with DDS
(the ``endplay`` package) for a side-by-side ratio; on a class of at most 13 cards a hand, DDS
on as many seeded bridge deals of that hand size (``benchmark.bridge_positions``).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass

from . import benchmark, clock
from .errors import AllFivesError, quoted
from .stats import percentile

__all__ = ["ClassTiming", "time_class", "DEFAULT_CLASSES", "will_time_dds"]

#: The classes ``allfives bench`` times when none is named: the ones that take milliseconds.
DEFAULT_CLASSES = ("2x6", "3x6", "4x6", "2x9")


@dataclass(frozen=True)
class ClassTiming:
    """The seconds and nodes of every timed solve of one class (and DDS's seconds, if timed)."""

    name: str
    title: str
    objective: str
    seconds: tuple[float, ...]
    nodes: tuple[int, ...]
    dds_seconds: tuple[float, ...] = ()
    #: On how many deals DDS gave every root card the engine's value (the bridge class only:
    #: elsewhere DDS solves bridge deals of the class's hand size, not the class's deals).
    dds_agree: int | None = None
    #: The hand size of the deals DDS solved (0: none).
    dds_cards: int = 0

    @property
    def count(self) -> int:
        return len(self.seconds)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def p90(self) -> float:
        return percentile(self.seconds, 90)

    @property
    def p99(self) -> float:
        return percentile(self.seconds, 99)

    @property
    def median_nodes(self) -> int:
        """The nodes of the middle solve (the higher of the two middle ones of an even count)."""
        return statistics.median_high(self.nodes)

    @property
    def nodes_per_second(self) -> float:
        total = sum(self.seconds)
        return sum(self.nodes) / total if total > 0 else 0.0

    @property
    def dds_median(self) -> float | None:
        return statistics.median(self.dds_seconds) if self.dds_seconds else None

    @property
    def dds_ratio(self) -> float | None:
        """The engine's median time over DDS's (below 1: the engine is faster)."""
        dds = self.dds_median
        return self.median / dds if dds else None


def time_class(name: str, count: int, dds: bool = False,
               tick: Callable[[], None] | None = None) -> ClassTiming:
    """Time ``count`` deals of class ``name`` with a fresh ``Solver``.  With ``dds`` (honoured on
    the bridge class when ``endplay`` is installed) DDS solves the same deals too.  ``tick()`` is
    called after every timed solve (engine or DDS)."""
    from .search import Solver

    cls = benchmark.CLASSES.get(name)
    if cls is None:
        raise AllFivesError(f"unknown deal class {quoted(name)} (expected one of "
                         f"{', '.join(benchmark.CLASSES)})")
    if count < 1:
        raise AllFivesError(f"count must be at least 1, not {count}")
    solver = Solver()
    seconds, nodes = [], []
    moves = []          # (each bridge deal's, for DDS's to agree with; not every solution kept)
    for position in benchmark.each_position(name, count):     # (none kept)
        start = clock.now()
        solution = benchmark.solve_once(solver, position, name)
        seconds.append(clock.now() - start)
        nodes.append(solution.nodes)
        if cls.bridge:
            moves.append(solution.moves_str())
        if tick is not None:
            tick()
    dds_seconds: list[float] = []
    agree = None
    if dds and will_time_dds(name):
        bridge = benchmark.each_position(name, count) if cls.bridge else \
            benchmark.each_bridge_position(cls.cards, count)
        agree = 0 if cls.bridge else None
        for k, position in enumerate(bridge):
            start = clock.now()
            theirs = benchmark.dds_moves(position)
            dds_seconds.append(clock.now() - start)
            if cls.bridge:
                assert agree is not None
                agree += theirs == moves[k]
            if tick is not None:
                tick()
    return ClassTiming(name, cls.title, cls.objective, tuple(seconds), tuple(nodes),
                       tuple(dds_seconds), agree, cls.cards if dds_seconds else 0)


def will_time_dds(name: str) -> bool:
    """Whether ``time_class(name, ..., dds=True)`` times DDS too: on a class of at most 13
    cards a hand, where ``endplay`` is installed."""
    cls = benchmark.CLASSES.get(name)
    return cls is not None and cls.cards <= benchmark.DDS_MAX_CARDS \
        and benchmark.dds_available()
