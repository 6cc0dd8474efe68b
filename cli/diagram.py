"""The table as a diagram: each hand by suit at its compass seat, the dealer and the seat to
play marked, the trump suit marked in every hand, the trick on the table in the middle.  On a
screen too narrow for it the diagram folds: the trump mark is an arrow alone, the turn-up and
"to play" go on lines of their own; on the narrowest its parts go one under another."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from solver.cards import suit_of
from solver.deal import Position

from .faces import QUIET, card_face, ranks_face, seat_face, suit_face, trump_words
from .fitted import Fitted

#: Where each compass seat sits in a 3 x 3 grid: (row, column).
PLACES = {"N": (0, 1), "E": (1, 2), "S": (2, 1), "W": (1, 0)}
TRUMP_MARK = "◂ trumps"
TRUMP_MARK_PLAIN = "< trumps"


def hand_face(cards: Sequence[int], trump: int, pretty: bool, narrow: bool = False) -> Text:
    """Four lines, one a suit (S H D C), the trump suit marked (``narrow``: by an arrow)."""
    lines = []
    for suit in range(4):
        line = suit_face(suit, pretty, trump)
        held = [c for c in cards if suit_of(c) == suit]
        line.append(" ")
        line.append(ranks_face(held) if held else ("—" if pretty else "-"),
                    style="bold" if suit == trump and held else "")
        if suit == trump:
            mark = TRUMP_MARK if pretty else TRUMP_MARK_PLAIN
            line.append("  " + (mark.split()[0] if narrow else mark), style=QUIET)
        lines.append(line)
    return Text("\n").join(lines)


def seat_title(position: Position, seat: int, pretty: bool, show_to_move: bool = True,
               narrow: bool = False) -> Text:
    """``S dealer  to play``; without suit symbols the seat is spelled out (``South``), so as
    not to be read as the suit letter under it."""
    deal = position.deal
    title = seat_face(deal, seat, whole=not pretty)
    if deal.players == 4:
        title.append(f" ({deal.side_name(deal.side_of(seat))})", style=QUIET)
    if seat == deal.dealer:
        title.append(" dealer", style="italic")
    if show_to_move and not position.is_over and seat == position.to_move:
        # (folded, on a line of its own, flush under the seat: no margin that reads as an indent)
        title.append("\n" if narrow else "  ")
        title.append("to play" if narrow else " to play ", style="reverse bold")
    return title


def middle(position: Position, pretty: bool, narrow: bool = False) -> Text:
    """The trump suit and the cards on the table."""
    deal = position.deal
    text = trump_words(deal, pretty, narrow)
    current = position.current
    if current.cards:
        text.append("\n\non the table:")
        for i, card in enumerate(current.cards):
            text.append("\n  ")
            text.append_text(seat_face(deal, current.seat_of(i, deal.players), whole=not pretty))
            text.append(" ")
            text.append_text(card_face(card, pretty, deal.trump))
    return text


def diagram(position: Position, pretty: bool, hands: Sequence[Sequence[int]] | None = None,
            show_to_move: bool = True) -> Fitted:
    """The hands of ``position`` (or ``hands``, e.g. as dealt) around the table; on a narrow
    screen folded, and on the narrowest its parts one under another."""
    parts = Parts(position, pretty, position.hands if hands is None else hands, show_to_move)
    return Fitted(parts.grid(narrow=False), parts.grid(narrow=True), parts.stacked())


class Parts:
    """The diagram's parts: the middle box and each seat's hand, whole or folded."""

    def __init__(self, position: Position, pretty: bool, hands: Sequence[Sequence[int]],
                 show_to_move: bool) -> None:
        self.position, self.pretty, self.hands = position, pretty, hands
        self.show_to_move = show_to_move

    def stacked(self) -> Table:
        """The folded diagram's parts one under another, for the narrowest screens: the middle,
        then each hand in seat order."""
        grid = Table.grid()
        grid.add_column()
        grid.add_row(self.centre(narrow=True))
        for seat in range(self.position.deal.players):
            grid.add_row(Text())
            grid.add_row(self.seat(seat, narrow=True))
        return grid

    def centre(self, narrow: bool) -> Panel:
        position, pretty = self.position, self.pretty
        table = (middle(position, pretty, narrow) if self.show_to_move
                 else trump_words(position.deal, pretty, narrow))
        return Panel(table, box=box.ROUNDED if pretty else box.ASCII, expand=False,
                     padding=(0, 1), border_style=QUIET)

    def seat(self, seat: int, narrow: bool) -> Text:
        cell = seat_title(self.position, seat, self.pretty, self.show_to_move, narrow)
        cell.append("\n")
        cell.append_text(hand_face(self.hands[seat], self.position.deal.trump, self.pretty,
                                   narrow))
        return cell

    def grid(self, narrow: bool) -> Table:
        grid = Table.grid(padding=(0, 2))
        for _ in range(3):
            grid.add_column(vertical="middle")
        cells: list[list] = [[Text(), Text(), Text()] for _ in range(3)]
        for seat, name in enumerate(self.position.deal.seats):
            row, column = PLACES[name]
            cells[row][column] = self.seat(seat, narrow)
        cells[1][1] = self.centre(narrow)
        for line in cells:
            grid.add_row(*line)
        return grid
