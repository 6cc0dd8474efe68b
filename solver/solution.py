"""What a solve returns, and the choice of the side and objective it is for."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, card_str
from .deal import Position
from .errors import AllFivesError, quoted

__all__ = ["Solution", "OBJECTIVES", "check_objective", "resolve_side"]

#: ``points``: what the side can be sure of scoring in this deal; ``margin``: its points minus the
#: other side's (two sides only); ``tricks``: the tricks it wins.
OBJECTIVES = ("points", "margin", "tricks")


def check_objective(objective: str, position: Position) -> str:
    if objective not in OBJECTIVES:
        raise AllFivesError(f"unknown objective {quoted(objective)} (expected one of "
                         f"{', '.join(OBJECTIVES)})")
    if objective == "margin" and position.deal.sides != 2:
        raise AllFivesError("objective 'margin' needs two sides (2 or 4 players)")
    return objective


def resolve_side(position: Position, side: int | None) -> int:
    """The side a value is for: ``side`` itself (a side number: 0 and 1 are NS and EW with four
    players, otherwise each seat is its own side), or by default the side to move (once play
    is over, the elder hand's)."""
    deal = position.deal
    if side is None:
        seat = position.to_move if not position.is_over else deal.elder
        return deal.side_of(seat)
    if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < deal.sides:
        names = ", ".join(f"{i} ({deal.side_name(i)})" for i in range(deal.sides))
        raise AllFivesError(f"side {quoted(side)} is not at this {deal.players}-player table "
                         f"(sides: {names})")
    return side


@dataclass(frozen=True)
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
    nodes: int = 0
    seconds: float = 0.0
    lower: int | None = None
    upper: int | None = None
    complete: bool = True

    def best_moves(self) -> list[Card]:
        return [c for c, v in self.moves.items() if v == self.value]

    def moves_str(self) -> dict[str, int]:
        return {card_str(c): v for c, v in self.moves.items()}
