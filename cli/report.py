"""``allfives solve`` for people: the table, every legal card's value and cost, the best line
trick by trick, the end-of-deal points and, when the deal carries a match score, the pegboard."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rich import box
from rich.console import ConsoleOptions, Group, RenderableType
from rich.table import Table
from rich.text import Text

from solver.analysis import cost_of, play_out
from solver.cards import sort_cards
from solver.deal import Position
from solver.errors import counted, without_controls
from solver.pegging import match_after, pegged_out
from solver.scoring import end_points, score_position
from solver.solution import Solution

from .faces import BAD, GOOD, KEEP, QUIET, card_face, cards_face, hanging, rules_words, \
    seat_face, side_face, trump_words
from .diagram import diagram
from .fitted import Fitted
from .pegboard import pegboard

END_WORDS = {"high": "High", "low": "Low", "jack": "Jack", "game": "Game",
             "five": "Five for five"}


def nothing(pretty: bool) -> str:
    """What stands in a cell for none: a nought, no cost, nobody's point."""
    return "·" if pretty else "-"


def state_words(position: Position) -> str:
    done = len(position.completed)
    if position.is_over:
        return f"play is over after {counted(done, 'trick')}"
    out = pegged_out(position)      # (a record's deal that a side pegged out in, mid-play)
    if out is not None:
        return f"{position.deal.side_name(out[0])} pegged out at trick {out[1]}: the deal " \
               f"stopped there"
    return f"{position.deal.seats[position.to_move]} to play to trick {done + 1}"


def heading(name: str, position: Position, pretty: bool) -> Group:
    """The name, then the players, rules and trumps, broken between words at the console's
    width."""
    deal = position.deal
    # The name is a path or a label; it is printed whole, never folded at the console's width.
    title = Text(without_controls(name), style="bold", no_wrap=True, overflow="ignore")
    text = Text(f"{deal.players} players, {counted(len(deal.hands[0]), 'card')} each; rules "
                f"{rules_words(deal.rules)}; dealer {deal.seats[deal.dealer]}\n")
    text.append_text(trump_words(deal, pretty))
    text.append(f"; {state_words(position)}")
    return Group(title, text)


class _SimpleHead(box.Box):
    """Rich's SIMPLE_HEAD, a rule under the titles and no walls between the columns, keeping
    its shape in ASCII (where Rich would wall every cell in) with a rule of hyphens."""

    def substitute(self, options: ConsoleOptions, safe: bool = True) -> box.Box:
        return _ASCII_HEAD if options.ascii_only else self


_HEAD = "    \n    \n {rule}{rule} \n    \n    \n    \n    \n    \n"
_SIMPLE_HEAD = _SimpleHead(_HEAD.format(rule="\u2500"))
_ASCII_HEAD = box.Box(_HEAD.format(rule="-"), ascii=True)


def table(*columns: str, right: tuple[int, ...] = ()) -> Table:
    grid = Table(box=_SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1),
                 header_style="bold")
    for i, title in enumerate(columns):
        grid.add_column(title, justify="right" if i in right else "left")
    return grid


def narrowing_table(wide: Sequence[str], narrow: Sequence[str],
                    rows: Callable[[bool], Iterable[Sequence]], right: tuple[int, ...] = ()
                    ) -> Fitted:
    """A ``table`` with the titles ``wide`` that, on a console too narrow for it, gives way to
    one with the titles ``narrow`` (shorter, or on two lines) and its columns closer; the rows
    of each are ``rows(narrow)``."""
    grids = []
    for titles, is_narrow in ((wide, False), (narrow, True)):
        grid = table(*titles, right=right)
        grid.collapse_padding = is_narrow
        for row in rows(is_narrow):
            grid.add_row(*row)
        grids.append(grid)
    return Fitted(*grids)


# ---- the value and the cards --------------------------------------------------------------------


def value_words(position: Position, solution: Solution) -> Text:
    deal = position.deal
    text = Text(f"{solution.objective.capitalize()} for ", style="bold")
    text.append_text(side_face(deal, solution.side))
    value = solution.value      # (cut short with its bounds met: the lower, which is it)
    if solution.proved and solution.objective == "win":
        text.append(f": {'yes' if value else 'no'} ({value})", style="bold")
    elif solution.proved:
        text.append(f": {value}", style="bold")
    else:
        text.append(f": between {solution.lower} and {solution.upper}", style="bold")
    if not solution.complete:
        what = stopped_before(position, solution) if solution.proved else \
            f"after {solution.nodes:,} nodes"
        text.append(f"  (the search stopped at its limit {what})", style=QUIET)
    return text


def stopped_before(position: Position, solution: Solution) -> str:
    """What a search stopped at its limit with its value proved did not do."""
    if all(c in solution.moves for c in position.legal_moves()):
        return "before its line was played out"
    return "before every card was valued"


def cards_table(position: Position, solution: Solution, pretty: bool) -> Table:
    """Every legal card, best first: its value for the solved side and what it costs the seat
    to play (for an opponent of the solved side, a cost is value given to that side)."""
    deal = position.deal
    mover = position.to_move
    mover_side = deal.side_of(mover)
    side_name = deal.side_name(solution.side)
    legal = sort_cards(position.legal_moves())
    order = {c: i for i, c in enumerate(legal)}
    costs = {c: cost_of(solution, c, mover_side) for c in legal}
    ranked = sorted(legal, key=lambda c: (costs[c] is None, costs[c] or 0, order[c]))
    # for the side not to move a card's cost is what it gives that side, and says so
    cost_title = f"cost to {deal.seats[mover]}" if solution.side == mover_side else \
        f"gives {side_name}"
    grid = table("card", f"value for {side_name}", cost_title, "", right=(1, 2))
    for card in ranked:
        value, cost = solution.moves.get(card), costs[card]
        if cost is None:    # (a card valued before the limit keeps its value)
            grid.add_row(card_face(card, pretty, deal.trump), "?" if value is None else str(value),
                         "?", Text("not known" if value is None else "", QUIET))
        elif cost == 0:
            grid.add_row(card_face(card, pretty, deal.trump), str(value), nothing(pretty),
                         Text("best", style=f"bold {GOOD}"))
        else:
            grid.add_row(card_face(card, pretty, deal.trump), str(value),
                         Text(str(cost), style=BAD), "")
    return grid


# ---- the line -----------------------------------------------------------------------------------


def line_table(position: Position, solution: Solution, pretty: bool) -> Fitted:
    """The best line trick by trick; on a narrow console with shorter titles, on two lines,
    and its columns closer."""
    deal = position.deal
    sides = [deal.side_name(s) for s in range(deal.sides)]
    return narrowing_table(("trick", "led by", "cards", "won by", "pegged", *sides),
                           ("trick", "led\nby", "cards", "won\nby", "pegs", *sides),
                           lambda narrow: line_rows(position, solution, pretty),
                           right=tuple(range(4, 5 + len(sides))))


def line_rows(position: Position, solution: Solution, pretty: bool):
    deal = position.deal
    done = len(position.completed)
    if done:
        before = score_position(position).captures
        played = "1" if done == 1 else f"1-{done}"
        yield (played, "", Text("played before", QUIET), "", "", *(str(t) for t in before))
    for trick in play_out(position, solution.line):
        cards = Text()
        if trick.earlier:
            cards.append("(", style=QUIET)
            cards.append_text(cards_face(trick.cards[:trick.earlier], pretty, deal.trump))
            cards.append(")", style=QUIET)
            cards.append(" ")
        cards.append_text(cards_face(trick.cards[trick.earlier:], pretty, deal.trump))
        winner = seat_face(deal, trick.winner) if trick.winner is not None else Text("")
        pegged = str(trick.pegged) if trick.pegged else nothing(pretty)
        yield (str(trick.number), seat_face(deal, trick.leader), cards, winner, pegged,
               *(str(t) for t in trick.totals))


# ---- the end of the deal ------------------------------------------------------------------------


def _why(point, position: Position, pretty: bool) -> RenderableType:
    deal = position.deal
    if point.name == "game":
        pips = score_position(position).pips
        text = Text("pips won: " + ", ".join(f"{deal.side_name(s)}{KEEP}{p}"
                                             for s, p in enumerate(pips)))
        if point.side is None and position.is_over:
            text.append(" (a tie: nobody)")
        return hanging(text, step=0)    # (a side and its pips are kept together)
    if point.card is None:
        return Text("not dealt", style=QUIET)
    text = card_face(point.card, pretty, deal.trump)
    if point.holder is not None:
        text.append(f" dealt to {deal.seats[point.holder]}")
    elif point.trick is not None:
        text.append(f" won in trick {point.trick}")
    return text


def end_table(position: Position, pretty: bool) -> Table:
    """Captures, High, Low, Jack, Game (and five-for-five) per side, and the totals."""
    deal = position.deal
    score = score_position(position)
    sides = [deal.side_name(s) for s in range(deal.sides)]
    grid = table("", *sides, "", right=tuple(range(1, 1 + len(sides))))
    grid.add_row("captures", *(str(c) if c else nothing(pretty) for c in score.captures), "")
    for point in end_points(position):
        cells = [str(point.points) if point.side == s else nothing(pretty)
                 for s in range(deal.sides)]
        grid.add_row(END_WORDS[point.name], *cells, _why(point, position, pretty))
    grid.add_row(Text("total", style="bold"),
                 *(Text(str(t), style="bold") for t in score.totals()), "")
    return grid


# ---- the whole report ---------------------------------------------------------------------------


def solve_head(name: str, position: Position, pretty: bool) -> RenderableType:
    """What a report shows before the search: the heading and the table."""
    return Group(heading(name, position, pretty), Text(), diagram(position, pretty))


def solve_body(position: Position, solution: Solution, pretty: bool,
               width: int | None = None) -> RenderableType:
    """What the search found: the value, the cards, the line, the end of the deal, the match
    (its pegboard in rows that fit ``width``)."""
    parts: list[RenderableType] = [Text(), value_words(position, solution)]
    if not position.is_over:
        parts += [Text(), cards_table(position, solution, pretty)]
    if solution.complete:
        after = position.after(*solution.line)
        if solution.line:
            parts += [Text(), Text("The best line", style="bold"),
                      line_table(position, solution, pretty)]
        parts += [Text(), Text("End of the deal", style="bold"), end_table(after, pretty)]
        match = match_after(after)
        if match is not None:
            parts += [Text(), pegboard(position.deal, match, pretty, width)]
            if match.winners and solution.line and solution.objective != "win":
                # (the line is best for the objective, not for the match: it may lose one
                # that another line wins)
                parts.append(Text(f"That is the match on the best line for "
                                  f"{solution.objective}; --objective win plays for the match.",
                                  style=QUIET))
    parts.append(Text())
    parts.append(Text(f"{counted(solution.nodes, 'node')}, {solution.seconds:.3f} s", style=QUIET))
    return Group(*parts)
