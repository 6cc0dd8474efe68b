"""allfives: double-dummy solving and analysis for All Fives, All Fours and their kin.

    >>> from solver import Position, solve
    >>> position = Position.from_line("N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H")
    >>> solve(position).value
    19

``solve`` and ``Solver`` come from ``solver.search``, which loads the compiled engine; it is
imported on first use, so that the rest of the library works without it.
"""

from typing import TYPE_CHECKING, Any

from .cards import CardError, card_str, hand_str, parse_card, parse_cards, parse_hand
from .deal import (Deal, DealError, DealFileError, PlayError, Position, Trick, load,
                   load_positions, read_positions)
from .errors import AllFivesError
from .rules import PRESETS, Rules, RulesError
from .solution import OBJECTIVES, Solution

__all__ = ["AllFivesError", "CardError", "card_str", "hand_str", "parse_card", "parse_cards",
           "parse_hand", "Deal", "DealError", "DealFileError", "PlayError", "Position", "Trick",
           "load", "load_positions", "read_positions", "PRESETS", "Rules", "RulesError",
           "OBJECTIVES", "Solution", "solve", "Solver"]
__version__ = "0.1.0"

_ENGINE_NAMES = ("solve", "Solver")

if TYPE_CHECKING:       # (for type checkers: at run time they load on first use, below)
    from .search import Solver, solve


def __getattr__(name: str) -> Any:
    if name in _ENGINE_NAMES:
        from . import search
        return getattr(search, name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, ``solve`` and ``Solver`` among them (for completion in a shell)."""
    return sorted({*globals(), *_ENGINE_NAMES})
