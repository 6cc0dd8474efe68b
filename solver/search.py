"""The Python face of the engine: ``solve(position)`` and a reusable ``Solver``.

The engine counts only what is still to come: the points in the tricks not yet completed and
Game.  Everything else is worked out here from the rules: what each card gives the winner of
the trick it falls in, each card's pips toward Game, and the points already settled (completed
tricks, High, and Low when it goes to the holder), which are added back to every value.
"""

from __future__ import annotations

import threading
import time

from .cards import Card, make_card, mask_of, suit_of
from .deal import Deal, Position
from .scoring import FIVE, JACK, capture_points, game_pips, score_position
from .solution import Solution, check_objective, resolve_side

__all__ = ["Solver", "solve", "card_points", "DEFAULT_TABLE_BITS"]

#: 2**21 entries of 24 bytes: 48 MiB.
DEFAULT_TABLE_BITS = 21


def card_points(deal: Deal, objective: str) -> list[int]:
    """For each card number, the points it gives the side that wins the trick it falls in."""
    points = [0] * 64
    if objective == "tricks":
        return points
    rules = deal.rules
    trumps = deal.trumps_dealt()
    for c in trumps:
        points[c] += capture_points((c,), deal)
    if rules.jack and make_card(deal.trump, JACK) in trumps:
        points[make_card(deal.trump, JACK)] += 1
    if rules.five_for_five and make_card(deal.trump, FIVE) in trumps:
        points[make_card(deal.trump, FIVE)] += 5
    if rules.low and rules.low_to == "captor" and trumps:
        points[trumps[0]] += 1
    return points


def _game_pips(deal: Deal, objective: str) -> list[int]:
    if objective == "tricks" or not deal.rules.game:
        return [0] * 64
    return [game_pips(c, deal) if (c & 15) < 13 else 0 for c in range(64)]


def _settled(position: Position, side: int, objective: str) -> int:
    """What X has for certain before the engine's future: completed tricks and end points
    already decided (High, Low to the holder, a Jack or five or Low captured), Game aside."""
    deal = position.deal
    if objective == "tricks":
        return sum(1 for t in position.completed if deal.side_of(t.winner) == side)
    score = score_position(position)

    def total(s: int) -> int:
        return score.total(s) - (1 if score.game == s else 0)

    if objective == "margin":
        return total(side) - total(1 - side)
    return total(side)


class Solver:
    """An engine and its transposition table, kept between solves.

    The table is kept only while the problem stays the same (seats, trumps, side, objective
    and rules); positions of one deal, or many deals dealt under one rule set for one side,
    share it.  Use one Solver per thread.
    """

    def __init__(self, table_bits: int = DEFAULT_TABLE_BITS) -> None:
        from ._search import Engine
        self.engine = Engine(table_bits)

    @property
    def table_bytes(self) -> int:
        return self.engine.table_bytes

    def solve(self, position: Position, side: int | None = None, objective: str = "points", *,
              moves: bool = True, line: bool = True, node_limit: int = 0,
              time_limit: float = 0.0, fresh: bool = False) -> Solution:
        """Value, every legal card's value (``moves``) and an optimal line (``line``) for
        ``side`` (default: the side to move).  With a ``node_limit`` or ``time_limit`` (seconds)
        the search may stop early: the Solution is then marked incomplete and carries bounds.
        ``fresh`` forgets the table first."""
        start = time.perf_counter()
        check_objective(objective, position)
        side = resolve_side(position, side)
        deal = position.deal
        current = position.current
        pips_won = [0, 0, 0]
        won = position.won_cards()
        game_pips_by_card = _game_pips(deal, objective)
        for s, cards in enumerate(won):
            pips_won[s] = sum(game_pips_by_card[c] for c in cards)
        lower, upper, move_bounds, best_line, nodes = self.engine.solve(
            [mask_of(h) for h in position.hands], deal.trump, current.leader, current.cards,
            [deal.side_of(s) for s in range(deal.players)], side,
            card_points(deal, objective), game_pips_by_card,
            trick_bonus=1 if objective == "tricks" else 0,
            game=objective != "tricks" and deal.rules.game,
            won_pips=pips_won, margin=objective == "margin",
            strict=deal.rules.strict_follow, all_moves=moves, want_line=line,
            node_limit=node_limit, time_limit=time_limit, fresh=fresh)
        base = _settled(position, side, objective)
        complete = lower == upper
        move_values: dict[Card, int] = {}
        order = {c: i for i, c in enumerate(position.legal_moves())}
        for card, lo, hi in sorted(move_bounds, key=lambda m: order[m[0]]):
            if lo == hi:
                move_values[card] = base + lo
        return Solution(value=base + lower, side=side, objective=objective, moves=move_values,
                        line=tuple(best_line) if complete else (), nodes=nodes,
                        seconds=time.perf_counter() - start, lower=base + lower,
                        upper=base + upper, complete=complete)


_local = threading.local()


def _default_solver() -> Solver:
    solver = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = Solver()
    return solver


def solve(position: Position, side: int | None = None, objective: str = "points",
          **options) -> Solution:
    """Solve with this thread's shared Solver; see ``Solver.solve`` for the options."""
    return _default_solver().solve(position, side, objective, **options)
