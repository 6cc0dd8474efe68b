"""Seeded deal classes for measuring the engine, shared by ``benchmarks/`` and ``allfives bench``.

A class is a kind of deal (players, runs, rules, objective); ``positions(name, count)`` gives the
same deals every time.  One timed solve is a whole answer from a fresh table: the value, every
legal card's value and an optimal line.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from .cards import ALL_CARDS, card_str, parse_card, holding_str
from .deal import Deal, Position
from .errors import AllFivesError, quoted
from .shuffle import shuffle_deal
from .rules import Rules
from .solution import Solution

__all__ = ["DealClass", "CLASSES", "positions", "each_position", "bridge_positions",
           "each_bridge_position", "solve_once", "dds_moves",
           "dds_available", "DDS_MAX_CARDS", "side_by_side"]

#: DDS solves bridge deals of up to 13 cards a hand.
DDS_MAX_CARDS = 13


@dataclass(frozen=True)
class DealClass:
    name: str
    players: int
    runs: int = 0
    preset: str = "all-fives"
    objective: str = "points"
    #: Bridge: four 13-card hands, strict follow, the tricks objective, no turn-up.
    bridge: bool = False
    seed: int = 2026

    @property
    def cards(self) -> int:
        return 13 if self.bridge else 6 + 3 * self.runs

    @property
    def title(self) -> str:
        if self.bridge:
            return "bridge, 13 cards, tricks, every root card"
        words = {1: "one run", 2: "two runs", 3: "three runs", 4: "four runs", 5: "five runs"}
        runs = f" ({words.get(self.runs, f'{self.runs} runs')})" if self.runs else ""
        preset = "" if self.preset == "all-fives" else f", {self.preset}"
        return f"{self.players} players x {self.cards} cards{runs}{preset}"


CLASSES: dict[str, DealClass] = {c.name: c for c in (
    DealClass("2x6", 2),
    DealClass("3x6", 3),
    DealClass("4x6", 4),
    DealClass("2x9", 2, runs=1),
    DealClass("2x12", 2, runs=2),
    DealClass("2x15", 2, runs=3, preset="classic"),
    DealClass("2x21", 2, runs=5, preset="classic"),
    DealClass("3x9", 3, runs=1),
    DealClass("3x12", 3, runs=2),
    DealClass("4x9", 4, runs=1),
    DealClass("4x12", 4, runs=2),
    DealClass("bridge", 4, preset="strict", objective="tricks", bridge=True),
)}


def positions(name: str, count: int = 200) -> list[Position]:
    """The first ``count`` deals of a class, from the start of play; the same every time."""
    return list(each_position(name, count))


def each_position(name: str, count: int = 200) -> Iterator[Position]:
    """``positions(name, count)`` one by one, each made as it is asked for (a run of many holds
    none of those before)."""
    try:
        cls = CLASSES[name]
    except KeyError:
        raise AllFivesError(f"unknown deal class {quoted(name)} (expected one of "
                         f"{', '.join(CLASSES)})") from None
    return _each_position(cls, count)


def _each_position(cls, count: int) -> Iterator[Position]:
    rng = random.Random(f"{cls.name}:{cls.seed}")
    if cls.bridge:
        yield from _bridge_deals(rng, 13, count)
        return
    rules = Rules.preset(cls.preset)
    for _ in range(count):
        yield shuffle_deal(rng, cls.players, cls.runs, rules).position()


def bridge_positions(cards: int, count: int = 200, seed: int = 2026) -> list[Position]:
    """The first ``count`` seeded bridge deals of ``cards`` cards a hand (four hands from one
    shuffled pack, a random trump suit, strict follow): DDS's yardstick at a class's hand size.
    Objective ``tricks``."""
    return list(each_bridge_position(cards, count, seed))


def each_bridge_position(cards: int, count: int = 200, seed: int = 2026) -> Iterator[Position]:
    """``bridge_positions(cards, count, seed)`` one by one, each made as it is asked for."""
    if not 1 <= cards <= DDS_MAX_CARDS:
        raise AllFivesError(f"bridge deals have 1 to {DDS_MAX_CARDS} cards a hand, not {cards}")
    return _bridge_deals(random.Random(f"bridge{cards}:{seed}"), cards, count)


def _bridge_deals(rng: random.Random, cards: int, count: int) -> Iterator[Position]:
    rules = Rules.preset("strict")
    for _ in range(count):
        pack = list(ALL_CARDS)
        rng.shuffle(pack)
        deal = Deal(hands=[pack[cards * k:cards * (k + 1)] for k in range(4)],
                    trump=rng.randrange(4), dealer=rng.randrange(4), rules=rules)
        yield deal.position()


def solve_once(solver, position: Position, name: str) -> Solution:
    """One timed solve: value, every root card and the line, from a fresh table."""
    return solver.solve(position, objective=CLASSES[name].objective, fresh=True)


def dds_available() -> bool:
    try:
        import endplay.dds  # noqa: F401
    except ImportError:
        return False
    return True


def dds_moves(position: Position) -> dict[str, int]:
    """DDS's trick count for every legal card at the start of a bridge-class deal, for the side
    on lead (needs the ``endplay`` package)."""
    from endplay.dds import solve_board
    from endplay.types import Deal as BridgeDeal, Denom, Player

    deal = position.deal
    pbn = "N:" + " ".join(holding_str(h).replace("-", "") for h in deal.hands)
    # seats N E S W and suits S H D C are numbered alike in endplay
    bridge = BridgeDeal(pbn, first=Player(deal.elder), trump=Denom(deal.trump))
    return {card_str(parse_card(str(card))): tricks for card, tricks in solve_board(bridge)}


def side_by_side(off: str, positions: list[Position], objective: str = "points") -> dict:
    """The same deals solved one by one from a fresh table with the techniques ``off`` names
    switched off (as ``ALLFIVES_ENGINE_OFF`` takes them) and with the engine whole, in this
    process: for each, ``{"nodes", "trick_nodes", "cpu"}`` summed over the deals (CPU seconds).
    The answers must agree; a difference raises."""
    import os
    import time

    from .search import Solver

    saved = os.environ.get("ALLFIVES_ENGINE_OFF")
    try:
        os.environ["ALLFIVES_ENGINE_OFF"] = off
        without = Solver()
        os.environ.pop("ALLFIVES_ENGINE_OFF")
        whole = Solver()
    finally:
        if saved is None:
            os.environ.pop("ALLFIVES_ENGINE_OFF", None)
        else:
            os.environ["ALLFIVES_ENGINE_OFF"] = saved
    out = {}
    answers: dict[str, list[tuple[int, dict[int, int]]]] = {}
    for label, solver in (("off", without), ("on", whole)):
        total = {"nodes": 0, "trick_nodes": 0, "cpu": 0.0}
        answers[label] = []
        for position in positions:
            start = time.process_time()
            solution = solver.solve(position, objective=objective, fresh=True)
            total["cpu"] += time.process_time() - start
            total["nodes"] += solution.nodes
            total["trick_nodes"] += solver.engine.trick_nodes
            answers[label].append((solution.value, solution.moves))
        out[label] = total
    if answers["off"] != answers["on"]:
        raise AllFivesError(f"with {quoted(off)} off the answers differ")
    return out
