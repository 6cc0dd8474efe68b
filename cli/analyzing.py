"""``allfives analyze``: every card of a played hand judged against double-dummy play."""

from __future__ import annotations

import typer
from rich.console import Group, RenderableType
from rich.text import Text

from solver.analysis import CardPlayed, analyze_play, given_away
from solver.deal import Position
from solver.scoring import score_position
from solver.solution import check_objective

from .cards import BAD, GOOD, QUIET, card_face, cards_face, seat_face, side_face
from .diagram import diagram
from .report import OBJECTIVE_WORDS, heading, nothing, table


def plays_table(position: Position, plays: list[CardPlayed], pretty: bool) -> RenderableType:
    deal = position.deal
    grid = table("trick", "seat", "card", "before", "after", "cost", "", right=(3, 4, 5))
    last_trick = 0
    for play in plays:
        trick = str(play.trick) if play.trick != last_trick else ""
        last_trick = play.trick
        card = card_face(play.card, pretty, deal.trump)
        if play.mistake:
            note = Text().append("mistake", style=f"bold {BAD}")
            note.append("; best ")
            note.append_text(cards_face(play.best, pretty, deal.trump, sort=True))
            cost = Text().append(str(play.cost), style=f"bold {BAD}")
        else:
            note, cost = Text(), Text().append(nothing(pretty), style=GOOD)
        grid.add_row(trick, seat_face(deal, play.seat), card, str(play.before), str(play.after),
                     cost, note)
    return grid


def summary(position: Position, plays: list[CardPlayed], objective: str) -> Text:
    deal = position.deal
    unit = "tricks" if objective == "tricks" else "points"
    away = given_away(plays, deal.sides)
    text = Text().append("Given away", style="bold")
    for side in range(deal.sides):
        mistakes = sum(1 for p in plays if p.side == side and p.mistake)
        text.append("\n  ")
        text.append_text(side_face(deal, side))
        text.append(f"  {away[side]} {unit}" if away[side] != 1 else f"  1 {unit[:-1]}")
        text.append(f" ({mistakes} mistake{'s' if mistakes != 1 else ''})" if mistakes
                    else " (no mistakes)")
    if position.is_over and objective == "points":
        totals = score_position(position).totals()
        text.append("\n\nThe deal ended ")
        text.append(", ".join(f"{deal.side_name(s)} {t}" for s, t in enumerate(totals)))
        if plays:
            first = plays[0]
            text.append(f"; with best play from the start {deal.side_name(first.side)} could "
                        f"be sure of {first.before}.")
    return text


def analysis_report(name: str, position: Position, plays: list[CardPlayed], objective: str,
                    pretty: bool) -> RenderableType:
    deal = position.deal
    start = deal.position()
    note = Text(f"before, after: the {OBJECTIVE_WORDS[objective].lower()} its side can be sure "
                f"of before and after the card", style=QUIET)
    return Group(heading(name, position, pretty), Text(),
                 diagram(start, pretty, show_to_move=False), Text(),
                 Text().append(f"The play, card by card ({len(plays)} cards)", style="bold"),
                 plays_table(position, plays, pretty), note, Text(),
                 summary(position, plays, objective))


def analyze_command(names: list[str], objective: str, json: bool, engine: str,
                    color: bool | None) -> None:
    from .inputs import read_inputs
    from .solving import solver_for

    jobs = read_inputs(names)
    for name, position in jobs:
        try:
            check_objective(objective, position)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
        if not position.play:
            raise ValueError(f"{name}: play: no cards played, nothing to analyze")
    run = solver_for(engine)
    if json:
        from .records import analysis_record
    else:
        from .console import can_show_suits, make_console
        console = make_console(color)
        pretty = can_show_suits(console)
    for number, (name, position) in enumerate(jobs):
        try:
            plays = analyze_play(position, run, objective)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
        if json:
            typer.echo(analysis_record(name, position, objective, plays))
        else:
            if number:
                console.print()
            console.print(analysis_report(name, position, plays, objective, pretty), crop=False)
