"""Choosing the engine and the side a value is for."""

from __future__ import annotations

from collections.abc import Callable

from solver.deal import Position
from solver.solution import Solution, check_objective
from solver.tricks import parse_seat, side_count, side_name

from .errors import EngineMissing

Solve = Callable[..., Solution]


def solver_for(engine: str) -> Solve:
    """``solve(position, side=..., objective=...)`` of the named engine, imported only now."""
    if engine == "reference":
        from solver.reference import solve
        return solve
    try:
        from solver.search import solve
    except ModuleNotFoundError as error:
        if error.name not in ("solver.search", "solver._search"):
            raise
        raise EngineMissing("the engine is not part of this install "
                            "(--engine reference solves without it)") from None
    return solve


def side_for(position: Position, name: str | None) -> int | None:
    """The side named by ``--for``: a seat, or with four players either partner or the
    partnership (``NS``); ``None`` leaves the choice to the solver (the side to move)."""
    if name is None:
        return None
    players = position.deal.players
    key = name.strip().upper()
    for side in range(side_count(players)):
        if len(key) > 1 and sorted(key) == sorted(side_name(side, players)):
            return side
    try:
        return position.deal.side_of(parse_seat(name, players))
    except ValueError as error:
        raise ValueError(f"--for: {error}") from None


def plan(positions: list[tuple[str, Position]], for_: str | None,
         objective: str) -> list[tuple[str, Position, int | None]]:
    """Each position with the side to solve it for, once ``--for`` and the objective are known
    to fit it; a misfit names the position."""
    jobs = []
    for name, position in positions:
        try:
            check_objective(objective, position)
            jobs.append((name, position, side_for(position, for_)))
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
    return jobs
