"""``allfives solve``: choosing the engine and the side a value is for, then solving and
printing each position (JSON for scripts, a Rich report for people)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import typer

from solver.cards import card_str
from solver.deal import Position
from solver.errors import AllFivesError, upper
from solver.solution import Solution, Solve, check_limits, check_objective
from solver.tricks import parse_seat, side_count, side_name

from .errors import note


def solver_for(engine: str, node_limit: int | None = None,
               time_limit: float | None = None, fresh: bool = False) -> Solve:
    """``solve(position, side=..., objective=...)`` of the named engine, imported only now.
    ``fresh``, under a limit: each solve from an empty table, so that where a limit stops it
    does not hang on what was solved before it (or, over workers, where)."""
    check_limits(node_limit, time_limit, names=("--node-limit", "--time-limit"))
    if engine == "reference":
        if node_limit is not None or time_limit is not None:
            raise AllFivesError("--node-limit and --time-limit limit the engine, "
                                "not --engine reference")
        from solver import reference
        return reference.solve
    from solver.search import solve  # EngineMissing if it is not built
    if node_limit is None and time_limit is None:
        return solve
    return partial(solve, node_limit=node_limit, time_limit=time_limit, fresh=fresh)


def side_for(position: Position, name: str | None) -> int | None:
    """The side named by ``--for``: a seat, or with four players either partner or the
    partnership (``NS``); ``None`` leaves the choice to the solver (the side to move)."""
    if name is None:
        return None
    players = position.deal.players
    key = upper(name.strip())
    for side in range(side_count(players)):
        if len(key) > 1 and sorted(key) == sorted(side_name(side, players)):
            return side
    try:
        return position.deal.side_of(parse_seat(name, players))
    except AllFivesError as error:
        sides = f"; sides {side_name(0, players)} {side_name(1, players)}" if players == 4 \
            else ""
        raise AllFivesError(f"--for: {str(error).removesuffix(')')}{sides})") from None


def plan(positions: list[tuple[str, Position]], for_: str | None,
         objective: str, judged: bool = False) -> list[tuple[str, Position, int | None]]:
    """Each position with the side to solve it for, once ``--for`` and the objective are known
    to fit it; a misfit names the position.  A position whose play ended the match (a peg-out)
    has nothing to solve; one to be ``judged`` card by card may end there, but play no card
    after."""
    jobs = []
    for name, position in positions:
        try:
            check_not_over(position, judged)
            check_objective(objective, position)
            jobs.append((name, position, side_for(position, for_)))
        except AllFivesError as error:
            raise AllFivesError(f"{name}: {error}") from None
    return jobs


def check_not_over(position: Position, judged: bool = False) -> None:
    """An error if the position's play went on past the trick that pegged a side out (or, not
    ``judged``, reached it: the match is over, nothing is left to solve)."""
    from solver.pegging import pegged_out

    out = pegged_out(position)
    if out is None:
        return
    side, trick = out
    deal = position.deal
    last = trick * deal.players - 1
    if judged and len(position.play) == last + 1:
        return
    said = (f"{side_name(side, deal.players)} reaches the target {deal.rules.target} with trick {trick}: "
            f"the match is over")
    if judged:
        raise AllFivesError(f"play[{last + 1}]: {card_str(position.play[last + 1])} is played "
                            f"after {said}")
    raise AllFivesError(f"play[{last}]: {said}")


def solve_command(names: list[str], for_: str | None, objective: str, json: bool, engine: str,
                  node_limit: int | None, time_limit: float | None,
                  color: bool | None, workers: int | None = None,
                  scheduler: str | None = None, deal: int | None = None) -> list[str]:
    """Solve and print every position; the names of those a limit stopped.
    With ``workers`` (``--jobs``) or a ``scheduler`` the positions are solved over an executor
    (``solver.executors.solve_many``), each printed, in their order, as soon as it and those
    before it are solved."""
    from .inputs import read_inputs

    # every position is read and every --for checked before the first solve
    # (a record's deals whole: at their first card)
    jobs = plan(read_inputs(names, deal, played=False, shown=not json), for_, objective)
    run = solver_for(engine, node_limit, time_limit, fresh=True)
    spread = workers is not None or scheduler is not None
    if spread and engine == "reference":
        raise AllFivesError("--jobs and --scheduler solve with the engine, not "
                            "--engine reference")
    if json:
        from .records import solution_record
    else:
        from .console import can_show_suits, make_console
        from rich.console import Group
        from rich.text import Text

        from .report import solve_body, solve_head
        from .status import searching
        console = make_console(color)
        pretty = can_show_suits(console)
        status = make_console(color, stderr=True)
        progress = progress_of(engine)
        # on a terminal the table is shown while the search runs, with a live line under it
        live = console.is_terminal and status.is_terminal and not spread
    stopped = []

    def show(number: int, solved: Solution | None = None) -> None:
        """Position ``number``'s report: solved here, or ``solved`` (over the executor)."""
        name, position, side = jobs[number]
        # (let go once shown: 400,000 positions and their solves held to the end took 150 MB)
        jobs[number] = None  # type: ignore[call-overload]
        solve = run if solved is None else (lambda *_, **__: solved)
        if json:
            solution = solve_one(solve, name, position, side, objective)
            typer.echo(solution_record(name, position, solution))
        else:
            # a blank line between two reports, printed with the second, never ahead of it
            head = Group(Text(), solve_head(name, position, pretty)) if number \
                else solve_head(name, position, pretty)
            if live:
                console.print(head, crop=False)
                with searching(status, "searching", progress):
                    solution = solve_one(solve, name, position, side, objective)
                console.print(solve_body(position, solution, pretty, console.width),
                              crop=False)
            else:
                solution = solve_one(solve, name, position, side, objective)
                console.print(head, solve_body(position, solution, pretty, console.width),
                              crop=False)
        if not solution.complete:
            stopped.append(name)
            if solution.proved:
                from .report import stopped_before

                note(f"{name}: the value {solution.lower} is proved, but the search stopped at "
                     f"its limit {stopped_before(position, solution)}")
            else:
                note(f"{name}: no result: the search stopped at its limit (the value lies "
                     f"between {solution.lower} and {solution.upper})")

    if spread:
        # each report printed as soon as those before it are: Ctrl-C keeps what was solved
        ready: dict[int, Solution] = {}
        shown = 0

        def solved(number: int, solution: Solution) -> None:
            nonlocal shown
            ready[number] = solution
            while shown in ready:
                show(shown, ready.pop(shown))
                shown += 1

        solve_spread(jobs, objective, node_limit, time_limit, workers, scheduler, solved)
    else:
        for number in range(len(jobs)):
            show(number)
    return stopped


def solve_spread(jobs: list[tuple[str, Position, int | None]], objective: str,
                 node_limit: int | None, time_limit: float | None, workers: int | None,
                 scheduler: str | None, solved: Callable[[int, Solution], None]) -> None:
    """Every position solved over the executor of ``--jobs`` / ``--scheduler``, each handed
    to ``solved`` (its number among ``jobs``, its solution) as it comes back."""
    from solver.executors import solve_many

    from .workers import executor_of, workers_for

    batches: dict[int | None, list[int]] = {}     # one batch per side
    for number, (_, _, side) in enumerate(jobs):
        batches.setdefault(side, []).append(number)
    with executor_of(workers, scheduler) as executor:
        for side, at in batches.items():     # (a batch's jobs are there until it is solved)
            numbers = iter(at)

            def each(part: list[Solution], numbers=numbers) -> tuple:
                for solution in part:
                    solved(next(numbers), solution)
                return ()       # (handed on, not kept)

            solve_many([jobs[i][1] for i in at], executor, side=side, objective=objective,
                       node_limit=node_limit, time_limit=time_limit,
                       fresh=node_limit is not None or time_limit is not None, on_part=each,
                       chunk_size=spread_chunk(len(at), workers_for(workers, len(at))
                                               if scheduler is None else None))


#: The most positions sent to a worker at once.
MOST_CHUNK = 256


def spread_chunk(count: int, workers: int | None) -> int:
    """Positions sent to a worker at once, of ``count``, over ``workers`` (None: a cluster's,
    taken as 8): one each where they are few (each may be a deep deal of seconds), else up to
    ``MOST_CHUNK`` (400,000 small positions one at a time made the parent the bottleneck:
    ``--jobs 2`` took 1.8 times as long as one process), some 16 parts a worker so that the
    workers share the work evenly."""
    return max(1, min(MOST_CHUNK, count // (16 * (workers or 8))))


def solve_one(run: Solve, name: str, position: Position, side: int | None,
              objective: str) -> Solution:
    try:
        return run(position, side=side, objective=objective)
    except AllFivesError as error:
        raise AllFivesError(f"{name}: {error}") from None


def progress_of(engine: str):
    """What the live line reads while ``engine`` searches (None for the reference solver,
    which only shows the time)."""
    if engine == "reference":
        return None
    from solver.search import default_solver
    return default_solver().progress
