"""Reading the positions named on the command line: deal files, files of one-line positions,
a one-line position given as the argument itself, and ``-`` for standard input."""

from __future__ import annotations

import sys
from pathlib import Path

from solver.deal import Position, load_positions, read_positions
from solver.notation import is_line_form

STDIN = "-"
#: The name a position given on the command line is known by in messages and JSON.
ARGUMENT = "<argument>"


def is_file(name: str) -> bool:
    """Whether ``name`` names an existing file (a name too long to be one is not)."""
    try:
        return Path(name).exists()
    except OSError:
        return False


def read_input(name: str) -> list[tuple[str, Position]]:
    """The positions one argument names, each with the name it is known by.  An argument that
    is not an existing file but starts like a one-line position is read as one."""
    if name == STDIN:
        return list(read_positions(sys.stdin.read(), "<stdin>"))
    if "\n" not in name and is_line_form(name) and not is_file(name):
        return [(ARGUMENT, Position.from_line(name.strip(), ARGUMENT))]
    return load_positions(name)


def read_inputs(names: list[str]) -> list[tuple[str, Position]]:
    """Every position in every argument, in order.  All are read before anything is solved,
    so a bad file is reported at once."""
    positions: list[tuple[str, Position]] = []
    for name in names:
        positions += read_input(name)
    return positions
