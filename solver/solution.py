"""What a solve returns, and the checks of what it is asked: the position, the side, the
objective, the limits, the table's size.

Every solver — the engine's ``solver.search.solve``, the reference ``solver.reference.solve`` —
is a ``Solve``: ``solve(position, side=None, objective="points", ...) -> Solution``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from .cards import Card, card_str
from .deal import Position
from .errors import AllFivesError, quoted, spelled, whole

__all__ = ["Solution", "Solve", "OBJECTIVES", "check_objective", "check_position",
           "resolve_side", "check_limits", "check_table_bits", "MAX_NODES", "TABLE_BITS"]

#: ``points``: what the side can be sure of scoring in this deal; ``margin``: its points minus the
#: other side's (two sides only); ``tricks``: the tricks it wins; ``win``: 1 if it can force
#: winning the match in this deal (from the deal's match score, under the ``finish`` rule), else 0.
OBJECTIVES = ("points", "margin", "tricks", "win")
#: The most nodes a search can count.
MAX_NODES = 2 ** 63 - 1


#: The engine's table sizes: 2**8 to 2**26 entries (2 GiB), as ``solver.search.Solver`` takes.
TABLE_BITS = range(8, 27)


def check_table_bits(table_bits: object, error: type[AllFivesError] = AllFivesError) -> None:
    """A size of the engine's table, raised as ``error`` when it is none."""
    if whole(table_bits) not in TABLE_BITS:
        raise error(f"table_bits: {spelled(table_bits)} is not a whole number from "
                    f"{TABLE_BITS.start} to {TABLE_BITS.stop - 1}")


def check_position(position: object) -> None:
    """What a solve is given to solve must be a ``Position``."""
    if not isinstance(position, Position):
        raise AllFivesError(f"position: expected a Position (Position.from_line or load reads "
                            f"one), not {quoted(position)}")


def check_objective(objective: str, position: Position) -> str:
    """The objective, which must fit the position (itself checked to be one)."""
    check_position(position)
    if objective not in OBJECTIVES:
        raise AllFivesError(f"unknown objective {quoted(objective)} (expected one of "
                         f"{', '.join(OBJECTIVES)})")
    if objective == "margin" and position.deal.sides != 2:
        raise AllFivesError("objective 'margin' needs two sides (2 or 4 players)")
    if objective == "win" and position.deal.score is None:
        raise AllFivesError("objective 'win' needs the match score when play starts "
                            "(the deal has none)")
    return objective


def resolve_side(position: Position, side: int | None) -> int:
    """The side a value is for: ``side`` itself (a side number: 0 and 1 are NS and EW with four
    players, otherwise each seat is its own side), or by default the side to move (once play
    is over, the elder hand's)."""
    deal = position.deal
    if side is None:
        seat = position.to_move if not position.is_over else deal.elder
        return deal.side_of(seat)
    if type(side) is int and 0 <= side < deal.sides:
        return side             # (the usual case: the message's names are not needed)
    names = ", ".join(f"{i} ({deal.side_name(i)})" for i in range(deal.sides))
    if whole(side) is None:     # (a seat's name, say: sides are numbered)
        raise AllFivesError(f"side: expected a side's number, not {quoted(side)} (at this "
                            f"{deal.players}-player table: {names})")
    if not 0 <= side < deal.sides:
        raise AllFivesError(f"side {quoted(side)} is not at this {deal.players}-player table "
                            f"(sides: {names})")
    return int(side)


def check_limits(node_limit: int | None = None, time_limit: float | None = None,
                 names: tuple[str, str] = ("node_limit", "time_limit")) -> tuple[int, float]:
    """A node limit (a whole number from 1 to ``MAX_NODES``) and a time limit (seconds above 0),
    each ``None`` for none, checked; as the engine takes them, 0 for none.  ``names`` name them
    in the message (``--node-limit`` on the command line)."""
    if node_limit is not None and (whole(node_limit) is None
                                   or not 1 <= node_limit <= MAX_NODES):
        raise AllFivesError(f"{names[0]}: {spelled(node_limit)} is not a number of nodes from 1 "
                            f"to {MAX_NODES}")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
            raise AllFivesError(f"{names[1]}: {spelled(time_limit)} is not a number of seconds")
        if math.isinf(time_limit):      # (1e400 as typed)
            raise AllFivesError(f"{names[1]}: too large a number to be seconds")
        if not 0 < time_limit < math.inf:  # nan included
            raise AllFivesError(f"{names[1]}: {time_limit:g} is not a number of seconds above 0")
    return int(node_limit or 0), float(time_limit or 0.0)


@dataclass(frozen=True, repr=False)
class Solution:
    """The double-dummy value of a position for one side.

    ``value`` and every entry of ``moves`` count the whole deal, tricks already completed
    included.  ``line`` is one optimal continuation to the end of play.  When a node or time
    limit cut the search short, ``complete`` is False: the true value lies in
    ``lower .. upper`` (``value`` is then ``lower``, what the side is sure of so far), ``moves``
    holds only the cards whose values were finished, and ``line`` is empty.
    """

    value: int
    side: int
    objective: str
    moves: dict[Card, int] = field(default_factory=dict)
    line: tuple[Card, ...] = ()
    #: (the nodes and the seconds left out of comparisons: two solves of one position are
    #: equal, whatever they took, the table cold or warm)
    nodes: int = field(default=0, compare=False)
    seconds: float = field(default=0.0, compare=False)
    lower: int | None = None
    upper: int | None = None
    complete: bool = True

    @property
    def proved(self) -> bool:
        """The value is known: the search finished, or a limit stopped it after its bounds met
        (some card not valued)."""
        return self.complete or self.lower == self.upper

    def best_moves(self) -> list[Card]:
        """The cards worth the value: the best.  No card (an empty list) where the value is not
        proved (``value`` is then only the lower bound, which a card short of the best may be
        worth)."""
        return [c for c, v in self.moves.items() if v == self.value] if self.proved else []

    def moves_str(self) -> dict[str, int]:
        """``moves`` with the cards spelled: ``{"9H": 19, "QH": 18, ...}``."""
        return {card_str(c): v for c, v in self.moves.items()}

    def line_str(self) -> list[str]:
        """``line`` with the cards spelled."""
        return [card_str(c) for c in self.line]

    def __repr__(self) -> str:
        moves = ", ".join(f"{card}: {value}" for card, value in self.moves_str().items())
        bounds = "" if self.complete else f", lower={self.lower}, upper={self.upper}"
        return (f"Solution(value={self.value}, side={self.side}, objective={self.objective!r}, "
                f"moves={{{moves}}}, line=({' '.join(self.line_str())}), nodes={self.nodes}, "
                f"complete={self.complete}{bounds})")


#: A solver: ``solve(position, side=None, objective="points", ...) -> Solution``.
Solve = Callable[..., Solution]
