"""Play-the-hand puzzles: the file format, the soundness check, the generator, themes, rating.

A puzzle is a position, the side the solver plays for, an objective and a target that holds
against any defence, and the main line: at every solver turn exactly one class of cards reaches
the target, the defence plays its toughest reply, and natural play (the heuristic player) fails.
See the README's "Puzzles" section for every rule.

- ``format``: ``Puzzle``, ``load_puzzle``, the ``[puzzle]`` table;
- ``soundness``: ``check_puzzle``, ``winning_cards``, ``toughest_reply``, ``refutation``;
- ``generator``: ``generate``, ``candidate``;
- ``themes``: ``themes_of``; ``themelist``: ``THEMES``, their titles and ``check_theme``;
- ``rating``: ``rate``, ``evaluate``, ``assess``; ``evidence``: the ladder and ``rating_of``.
"""

from .evidence import LADDER, rating_of
from .format import PUZZLE_OBJECTIVES, Puzzle, PuzzleError, load_puzzle, parse_side, side_text
from .generator import candidate, examine, generate, seed_problems, start_position
from .rating import Assessment, assess, evaluate, rate
from .soundness import (Oracle, Turn, card_classes, check_puzzle, heuristic_result, main_line,
                        observation_of, play_alike, quick_problems, refutation, toughest_reply,
                        winning_cards)
from .themelist import THEME_TITLES, THEMES, check_theme
from .themes import optimal_play, themes_of, title_of

__all__ = ["Puzzle", "PuzzleError", "load_puzzle", "PUZZLE_OBJECTIVES", "parse_side",
           "side_text", "check_puzzle", "quick_problems", "winning_cards", "toughest_reply",
           "refutation", "play_alike", "card_classes", "main_line", "Turn", "Oracle",
           "heuristic_result", "observation_of", "generate", "candidate", "examine",
           "start_position", "seed_problems", "THEMES", "THEME_TITLES", "themes_of", "title_of",
           "check_theme", "optimal_play", "rate", "evaluate", "assess", "rating_of", "LADDER",
           "Assessment"]
