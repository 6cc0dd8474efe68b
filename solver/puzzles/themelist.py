"""The themes a puzzle may show: each one's name, what it means and its title.

``solver.puzzles.themes`` detects them from a puzzle's line; the file format checks the names a
file lists against these.
"""

from __future__ import annotations

from ..errors import AllFivesError, quoted

__all__ = ["THEMES", "THEME_TITLES", "check_theme", "GAME_BY_A_PIP", "LONG_PUZZLE"]

#: The most pips the solver's side may lead Game by for ``game-by-a-pip``.
GAME_BY_A_PIP = 4
#: Real choices from which a puzzle is ``long``.
LONG_PUZZLE = 4

THEMES: dict[str, str] = {
    "save-the-ten": "the side's trump Ten is captured by it in the solution and lost to the "
                    "defence after some wrong card",
    "catch-the-five": "the defence's trump Five is captured by the side in the solution and "
                      "kept by the defence after some wrong card",
    "jack-hunt": "the defence's trump Jack (the Jack point on) is captured by the side in the "
                 "solution and kept by the defence after some wrong card",
    "draw-trumps": "at a real choice the side leads a trump while the defence still holds one",
    "ruff-the-ten": "the side trumps a trick holding the defence's Ten of the plain suit led "
                    "although it holds that suit, and wins the trick",
    "duck": "at a real choice the side, following, lets the defence win a trick although one of "
            "its wrong cards would have taken the lead in it",
    "sacrifice": "at a real choice the side gives the defence a trick with points, which it "
                 "wins after some wrong card",
    "game-by-a-pip": f"the side wins Game by {GAME_BY_A_PIP} pips or fewer in the solution and "
                     f"loses it after some wrong card",
    "endplay": "a defender, put on lead by winning the trick before, leads to a trick the side "
               "wins with a card of the suit led that a defender's card of that suit outranked, "
               "and had no safe exit: no card it held did better for the defence, and every "
               "card of another suit did worse",
    "peg-out": "objective win: the side wins the match in this deal",
    "long": f"{LONG_PUZZLE} real choices or more",
}

THEME_TITLES = {
    "save-the-ten": "Save the ten", "catch-the-five": "Catch the five",
    "jack-hunt": "Hunt the jack", "draw-trumps": "Draw trumps first",
    "ruff-the-ten": "Ruff the ten", "duck": "Duck", "sacrifice": "Give a little, take more",
    "game-by-a-pip": "Game by a pip", "endplay": "Endplay", "peg-out": "Peg out",
    "long": "The long way home",
}


def check_theme(name: str) -> str:
    if name not in THEMES:
        raise AllFivesError(f"unknown theme {quoted(name)} (expected one of "
                            f"{', '.join(THEMES)})")
    return name
