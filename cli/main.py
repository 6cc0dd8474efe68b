"""``allfives``: the command line.

    allfives solve FILE... [--for SEAT] [--objective points|margin|tricks] [--json]
                           [--engine engine|reference]
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from .errors import user_errors

app = typer.Typer(
    name="allfives",
    help="Double-dummy solver for All Fives, All Fours and their kin.",
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
)


class Objective(str, Enum):
    points = "points"
    margin = "margin"
    tricks = "tricks"


class Engine(str, Enum):
    engine = "engine"
    reference = "reference"


def _version(value: bool) -> None:
    if value:
        from solver import __version__
        typer.echo(f"allfives {__version__}")
        raise typer.Exit()


@app.callback()
def allfives(
    version: Annotated[Optional[bool], typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and exit.")] = None,
) -> None:
    """Double-dummy solver for All Fives, All Fours and their kin."""


@app.command()
def solve(
    files: Annotated[list[str], typer.Argument(
        metavar="FILE",
        help="Deal files: TOML, or one-line positions one per line; '-' reads standard input.")],
    for_: Annotated[Optional[str], typer.Option(
        "--for", metavar="SEAT",
        help="The seat (with 4 players either partner) whose value is computed. "
             "Default: the side to move.")] = None,
    objective: Annotated[Objective, typer.Option(
        help="points: what the side can be sure of scoring in the deal; margin: its points "
             "minus the other side's; tricks: the tricks it wins.")] = Objective.points,
    json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per position, one per line.")] = False,
    engine: Annotated[Engine, typer.Option(
        help="engine: the fast search; reference: the plain exhaustive solver.")] = Engine.engine,
) -> None:
    """Solve positions double-dummy: the value, the value of every legal card, and a best line."""
    from .inputs import read_inputs
    from .render import solution_json, solution_text
    from .solving import plan, solver_for

    with user_errors():
        # every file is read and every --for checked before the first solve
        jobs = plan(read_inputs(files), for_, objective.value)
        run = solver_for(engine.value)
        for number, (name, position, side) in enumerate(jobs):
            try:
                solution = run(position, side=side, objective=objective.value)
            except ValueError as error:
                raise ValueError(f"{name}: {error}") from None
            if json:
                typer.echo(solution_json(name, position, solution))
            else:
                if number:
                    typer.echo()
                typer.echo(solution_text(name, position, solution))


def main() -> None:
    app()
