"""``allfives deal``: random deals as from a shuffled pack, printed ready to solve."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import chain

import typer

from solver.errors import AllFivesError
from solver.notation import SEPARATOR
from solver.shuffle import shuffle_deal_aside
from solver.rules import Rules
from solver.tricks import parse_seat, seat_names

from .errors import note
from .inputs import read_rules


def deals(players: int, runs: int, seed: int, count: int, rules: Rules,
          dealer: str | None) -> Iterator:
    """``count`` deals from one shuffled stream, each with the turn-ups its runs set aside: the
    same arguments deal the same cards.  The options are checked (and the first deal dealt) at
    once; the rest are dealt as they are taken, so that the first is printed before the last is
    dealt."""
    try:
        seat_names(players)
    except AllFivesError as error:
        raise AllFivesError(f"--players: {error}") from None
    seat = None
    if dealer is not None:
        try:
            seat = parse_seat(dealer, players)
        except AllFivesError as error:
            raise AllFivesError(f"--dealer: {error}") from None
    rng = random.Random(seed)
    try:
        first = shuffle_deal_aside(rng, players, runs, rules, seat)
    except AllFivesError as error:
        raise AllFivesError(f"--runs: {error}") from None
    return chain([first], (shuffle_deal_aside(rng, players, runs, rules, seat)
                           for _ in range(count - 1)))


def deal_command(players: int, runs: int, seed: int | None, count: int, form: str,
                 spec: str, dealer: str | None) -> None:
    fresh = seed is None
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    rules = read_rules(spec)
    dealt = deals(players, runs, seed, count, rules, dealer)
    command = f"allfives deal --players {players} --runs {runs} --seed {seed}"
    if rules.spec() != "all-fives":
        command += f" --rules {rules.spec()}"
    if dealer is not None:
        command += f" --dealer {dealer.upper()}"
    if count > 1:
        command += f" --count {count}"
    if form == "line":
        if fresh:       # (the TOML form writes it in the deal; a line has no room for it)
            note(f"a fresh seed, {seed}: '{command} --format line' deals the same cards again")
        for deal, aside in dealt:
            typer.echo(deal.position().to_line(aside))
        return
    for number, (deal, aside) in enumerate(dealt, 1):
        runs_words = {0: "no runs", 1: "one run"}.get(runs, f"{runs} runs")
        where = f"deal {number} of {count}: " if count > 1 else ""
        between = f"\n{SEPARATOR}\n" if number > 1 else ""
        typer.echo(f"{between}# {where}{players} players, {len(deal.hands[0])} cards each "
                   f"({runs_words})\n# {command}\n" + deal.position().to_toml(aside), nl=False)
