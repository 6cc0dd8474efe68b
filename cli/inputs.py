"""Reading the positions named on the command line: deal files, files of one-line positions,
and ``-`` for standard input."""

from __future__ import annotations

import sys

from solver.deal import Position, load_positions, read_positions

STDIN = "-"


def read_inputs(names: list[str]) -> list[tuple[str, Position]]:
    """Every position in every named file, in order, each with the name it is known by.

    All files are read before anything is solved, so a bad file is reported at once.
    """
    positions: list[tuple[str, Position]] = []
    for name in names:
        if name == STDIN:
            positions += read_positions(sys.stdin.read(), "<stdin>")
        else:
            positions += load_positions(name)
    return positions
