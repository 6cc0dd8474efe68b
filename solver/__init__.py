"""allfives: double-dummy solving and analysis for All Fives, All Fours and their kin."""

from .cards import CardError, card_str, hand_str, parse_card, parse_cards, parse_hand
from .deal import (Deal, DealError, DealFileError, PlayError, Position, from_line, load,
                   read_toml, to_line, to_toml)
from .rules import PRESETS, Rules, RulesError
from .solution import OBJECTIVES, Solution

__all__ = ["CardError", "card_str", "hand_str", "parse_card", "parse_cards", "parse_hand",
           "Deal", "DealError", "DealFileError", "PlayError", "Position", "from_line", "load",
           "read_toml", "to_line", "to_toml", "PRESETS", "Rules", "RulesError",
           "OBJECTIVES", "Solution"]
__version__ = "0.1.0"
