"""Reading the positions named on the command line: deal files, files of one-line positions,
a one-line position given as the argument itself, and ``-`` for standard input."""

from __future__ import annotations

import sys
from pathlib import Path

from solver.deal import Position, from_line, load_positions, read_positions

STDIN = "-"
#: The name a position given on the command line is known by in messages and JSON.
ARGUMENT = "<argument>"


def looks_like_a_line(text: str) -> bool:
    """A seat letter and a colon: ``N:AK5.9.32.- ...``."""
    text = text.lstrip()
    return len(text) >= 2 and text[0].upper() in "NESW" and text[1] == ":"


def read_input(name: str) -> list[tuple[str, Position]]:
    """The positions one argument names, each with the name it is known by.  An argument that
    is not an existing file but starts like a one-line position is read as one."""
    if name == STDIN:
        return list(read_positions(sys.stdin.read(), "<stdin>"))
    if looks_like_a_line(name) and not Path(name).exists():
        return [(ARGUMENT, from_line(name.strip(), ARGUMENT))]
    return load_positions(name)


def read_inputs(names: list[str]) -> list[tuple[str, Position]]:
    """Every position in every argument, in order.  All are read before anything is solved,
    so a bad file is reported at once."""
    positions: list[tuple[str, Position]] = []
    for name in names:
        positions += read_input(name)
    return positions
