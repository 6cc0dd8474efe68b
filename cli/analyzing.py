"""``allfives analyze``: every card of a played hand judged against double-dummy play."""

from __future__ import annotations

import typer
from rich.console import Group, RenderableType
from rich.text import Text

from solver.analysis import CardPlayed, analyze_play, given_away, in_part, unjudged
from solver.deal import Position
from solver.errors import AllFivesError, counted
from solver.pegging import match_after, pegs
from solver.players import within_reach
from solver.scoring import score_position

from .faces import BAD, GOOD, QUIET, card_face, cards_face, hanging, seat_face, side_face
from .diagram import diagram
from .errors import note
from .fitted import Fitted
from .report import heading, nothing, table


def span(lower: int | None, upper: int | None) -> str:
    """Bounds as the report writes them: ``12..19`` (``-3..5`` for a margin), one number when
    they meet, ``?`` when unknown."""
    if lower is None or upper is None:
        return "?"
    if lower == upper:
        return str(lower)
    return f"{lower}..{upper}"


def judgement(play: CardPlayed, pretty: bool, trump: int) -> tuple[str, str, Text, Text]:
    """The before, after, cost and note cells of one card."""
    if play.in_part:        # (its value below the least the side could be sure of before)
        least = f"{'≥' if pretty else '>='}{play.least_cost}"
        return (span(play.lower, play.upper), str(play.after),
                Text().append(least, style=f"bold {BAD}"),
                Text().append("mistake", style=f"bold {BAD}").append("; best not found"))
    if not play.complete:
        return (span(play.lower, play.upper), span(play.after, play.after), Text("?"),
                Text("not judged", style=QUIET))
    if play.mistake:
        note = Text().append("mistake", style=f"bold {BAD}")
        if play.best:
            note.append("; best ")
            note.append_text(cards_face(play.best, pretty, trump, sort=True))
        if not play.every_card:     # (a limit left some cards not valued)
            note.append("; others not valued" if play.best else "; best not valued")
        cost = Text().append(str(play.cost), style=f"bold {BAD}")
    else:
        note, cost = Text(), Text().append(nothing(pretty), style=GOOD)
    return str(play.before), str(play.after), cost, note


#: The narrowest note column: ``mistake; best``, and cards under it.
NOTE_WIDTH = 14


def plays_table(position: Position, plays: list[CardPlayed], pretty: bool) -> RenderableType:
    """Each card judged, a row each; on a screen too narrow for a note column of
    ``NOTE_WIDTH``, the notes (a mistake's best cards) under the table, each after its trick
    and card."""
    deal = position.deal
    wide = table("trick", "seat", "card", "before", "after", "cost", "", right=(3, 4, 5))
    narrow = table("trick", "seat", "card", "before", "after", "cost", right=(3, 4, 5))
    narrow.collapse_padding = True
    notes = []
    last_trick = 0
    for play in plays:
        trick = str(play.trick) if play.trick != last_trick else ""
        last_trick = play.trick
        seat, card = seat_face(deal, play.seat), card_face(play.card, pretty, deal.trump)
        cells = judgement(play, pretty, deal.trump)
        wide.add_row(trick, seat, card, *cells)
        narrow.add_row(trick, seat, card, *cells[:-1])
        if cells[-1]:
            notes.append(hanging(Text(f"  trick {play.trick}, ").append_text(card)
                                 .append(": ").append_text(cells[-1])))
    if notes:
        wide.columns[-1].min_width = NOTE_WIDTH
    return Fitted(wide, Group(narrow, *notes), wrapping=True)


def side_words(plays: list[CardPlayed], side: int) -> str:
    """`` (1 mistake)``, `` (no mistakes; 2 cards not judged)``: a side's judged mistakes and
    the cards a limit left unjudged."""
    mistakes = sum(1 for p in plays if p.side == side and p.mistake)
    left = unjudged([p for p in plays if p.side == side])
    words = counted(mistakes, "mistake") if mistakes else "no mistakes"
    if left:
        words += f"; {counted(left, 'card')} not judged"
    return f" ({words})"


def away_words(points: int, unit: str, at_least: bool) -> str:
    """``2 points``, ``1 point``, ``at least 7 points`` (a mistake's cost known in part)."""
    return ("at least " if at_least else "") + (f"{points} {unit}" if points != 1 else
                                                f"1 {unit[:-1]}")


def limit_parts(plays: list[CardPlayed]) -> tuple[str | None, str | None]:
    """What a limit left undone: ``5 of 12 cards not judged`` and ``1 mistake's cost known
    only in part``, each None where there is none."""
    left, part = unjudged(plays), in_part(plays)
    return (f"{left} of {counted(len(plays), 'card')} not judged" if left else None,
            possessive(counted(part, 'mistake')) + " cost known only in part" if part else None)


def limit_words(plays: list[CardPlayed]) -> str | None:
    """What a limit left undone, in one line, or None."""
    return "; ".join(words for words in limit_parts(plays) if words) or None


def possessive(words: str) -> str:
    """``1 mistake's``, ``2 mistakes'``."""
    return words + ("'" if words.endswith("s") else "'s")


def summary(position: Position, plays: list[CardPlayed], objective: str) -> Text:
    deal = position.deal
    unit = {"tricks": "tricks", "win": "wins"}.get(objective, "points")
    away = given_away(plays, deal.sides)
    text = Text().append("Given away", style="bold")
    for side in range(deal.sides):
        text.append("\n  ")
        text.append_text(side_face(deal, side))
        text.append("  " + away_words(away[side], unit,
                                      any(p.in_part for p in plays if p.side == side)))
        text.append(side_words(plays, side))
    left, part = limit_parts(plays)
    if left:
        text.append(f"\n{left}: the search stopped at its limit; what "
                    f"{'it' if unjudged(plays) == 1 else 'they'} gave away is not counted")
    if part:
        text.append(f"\n{part}, the search stopped at its limit: the least "
                    f"{'it' if in_part(plays) == 1 else 'each'} cost is counted")
    out = pegged_out_at(position)
    if objective == "points" and (position.is_over or out is not None):
        def points(totals) -> str:
            return ", ".join(f"{deal.side_name(s)} {t}" for s, t in enumerate(totals))

        if out is None:
            text.append(f"\n\nThe play ended {points(score_position(position).totals())}")
        else:
            side, when, pegged = out
            text.append(f"\n\n{deal.side_name(side)} pegged out {when}, the count stopping at "
                        f"{points(pegged)}")
            if position.is_over:
                totals = score_position(position).totals()
                text.append(f"; counted to the end, the play gave {points(totals)}")
        if plays:
            first = plays[0]
            sure = first.before if first.complete else \
                f"between {first.lower} and {first.upper}"
            text.append(f"; with best play from the start {deal.side_name(first.side)} could "
                        f"be sure of {sure}.")
    if objective != "win" and within_reach(deal.position()):
        text.append("\n\nA side could reach the target in this deal: --objective win judges the "
                    "cards by the match.", style=QUIET)
    return text


def pegged_out_at(position: Position) -> tuple[int, str, list[int]] | None:
    """Where the deal carries the match score and a side pegged out in it (``peg-out``): that
    side, when (``at trick 6``, ``with Game``) and the deal's points pegged up to then."""
    after = match_after(position)
    if after is None or after.when is None:
        return None
    pegged = [0] * position.deal.sides
    for peg in pegs(position):
        pegged[peg.side] += peg.points
        if peg.what == after.when:
            break
    when = f"at {after.when}" if after.when.startswith("trick") else \
        f"with {after.when.capitalize()}"
    return after.winners[0], when, pegged


def analysis_report(name: str, position: Position, plays: list[CardPlayed], objective: str,
                    pretty: bool) -> RenderableType:
    deal = position.deal
    start = deal.position()
    sure = "1 if its side can be sure of winning the match, else 0," if objective == "win" \
        else f"the {objective} its side can be sure of"
    key = Text(f"before, after: {sure} before and after the card", style=QUIET)
    if unjudged(plays) or in_part(plays):
        key.append("\na..b: somewhere between a and b; ?: not known (the search stopped at its "
                   "limit before the card was judged)")
    if in_part(plays):
        key.append(f"; {'≥' if pretty else '>='}n: at least n")
    return Group(heading(name, position, pretty), Text(),
                 diagram(start, pretty, show_to_move=False), Text(),
                 Text().append(f"The play, card by card ({counted(len(plays), 'card')})",
                              style="bold"),
                 plays_table(position, plays, pretty), key, Text(),
                 summary(position, plays, objective))


def afresh(run):
    """The engine's ``run`` with its first solve from an empty table: a deal is judged, and
    what a limit leaves unjudged, as it is alone, not after what was solved before it."""
    first = True

    def solve(position: Position, **options):
        nonlocal first
        fresh, first = first, False
        return run(position, fresh=fresh, **options)
    return solve


def analyze_command(names: list[str], objective: str, json: bool, engine: str,
                    node_limit: int | None, time_limit: float | None,
                    color: bool | None, deal: int | None = None) -> list[str]:
    """Judge and print every position's play; the names of those with a card a limit left
    unjudged.  ``deal``: that deal of each game record named."""
    from .inputs import first_names, read_inputs
    from .solving import plan, solver_for

    jobs = [(name, position) for name, position, _ in
            plan(read_inputs(names, deal, shown=not json), None, objective, judged=True)]
    # a file of several deals may hold some not yet played: each is left out, and said so
    unplayed = [name for name, position in jobs if not position.play]
    if len(unplayed) == len(jobs) == 1:
        raise AllFivesError(f"{unplayed[0]}: play: no cards played, nothing to analyze")
    if len(unplayed) == len(jobs):
        raise AllFivesError(f"{first_names(unplayed)}: none of the {len(jobs):,} positions has a card played: "
                            f"nothing to analyze")
    run = solver_for(engine, node_limit, time_limit)   # (options that clash: before the notes)
    for name in unplayed:
        note(f"{name}: no cards played, left out")
    jobs = [(name, position) for name, position in jobs if position.play]
    if json:
        from .records import analysis_record
    else:
        from .console import can_show_suits, make_console
        console = make_console(color)
        pretty = can_show_suits(console)
    stopped = []
    for number, (name, position) in enumerate(jobs):
        try:
            plays = analyze_play(position, run if engine == "reference" else afresh(run),
                                 objective)
        except AllFivesError as error:
            raise AllFivesError(f"{name}: {error}") from None
        if json:
            typer.echo(analysis_record(name, position, objective, plays))
        else:
            if number:
                console.print()
            console.print(analysis_report(name, position, plays, objective, pretty), crop=False)
        undone = limit_words(plays)
        if undone:
            stopped.append(name)
            note(f"{name}: {undone}: the search stopped at its limit")
    return stopped
