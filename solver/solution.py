"""What a solve returns, and the choice of the side and objective it is for."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, card_str
from .deal import Position

__all__ = ["Solution", "OBJECTIVES", "check_objective", "resolve_side"]

#: ``points``: what the side can be sure of scoring in this deal; ``margin``: its points minus the
#: other side's (two sides only); ``tricks``: the tricks it wins.
OBJECTIVES = ("points", "margin", "tricks")


def check_objective(objective: str, position: Position) -> str:
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r} (expected one of "
                         f"{', '.join(OBJECTIVES)})")
    if objective == "margin" and position.deal.sides != 2:
        raise ValueError("objective 'margin' needs two sides (2 or 4 players)")
    return objective


def resolve_side(position: Position, side: int | None) -> int:
    """The side a value is for: the side of ``side``'s seat... given as a side index, or by
    default the side to move (at the end of play, the elder hand's)."""
    if side is None:
        seat = position.to_move if not position.is_over else position.deal.elder
        return position.deal.side_of(seat)
    if not 0 <= side < position.deal.sides:
        raise ValueError(f"side {side} is not at a {position.deal.players}-player table")
    return side


@dataclass(frozen=True)
class Solution:
    """The double-dummy value of a position for one side.

    ``value`` and every entry of ``moves`` count the whole deal, tricks already completed
    included.  ``line`` is one optimal continuation to the end of play.  An ``incomplete``
    solution (a node or time limit was reached) has only bounds: ``lower <= value <= upper``.
    """

    value: int
    side: int
    objective: str
    moves: dict[Card, int] = field(default_factory=dict)
    line: tuple[Card, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    lower: int | None = None
    upper: int | None = None
    complete: bool = True

    def best_moves(self) -> list[Card]:
        return [c for c, v in self.moves.items() if v == self.value]

    def moves_str(self) -> dict[str, int]:
        return {card_str(c): v for c, v in self.moves.items()}
