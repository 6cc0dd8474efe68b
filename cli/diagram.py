"""The table as a diagram: each hand by suit at its compass seat, the dealer and the seat to
play marked, the trump suit marked in every hand, the trick on the table in the middle."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from solver.cards import suit_of
from solver.deal import Position

from .faces import QUIET, card_face, ranks_face, seat_face, suit_face, trump_words

#: Where each compass seat sits in a 3 x 3 grid: (row, column).
PLACES = {"N": (0, 1), "E": (1, 2), "S": (2, 1), "W": (1, 0)}
TRUMP_MARK = "◂ trumps"
TRUMP_MARK_PLAIN = "< trumps"


def hand_face(cards: Sequence[int], trump: int, pretty: bool) -> Text:
    """Four lines, one a suit (S H D C), the trump suit marked."""
    lines = []
    for suit in range(4):
        line = suit_face(suit, pretty, trump)
        held = [c for c in cards if suit_of(c) == suit]
        line.append(" ")
        line.append(ranks_face(held) if held else ("—" if pretty else "-"),
                    style="bold" if suit == trump and held else "")
        if suit == trump:
            line.append("  " + (TRUMP_MARK if pretty else TRUMP_MARK_PLAIN), style=QUIET)
        lines.append(line)
    return Text("\n").join(lines)


def seat_title(position: Position, seat: int, show_to_move: bool = True) -> Text:
    deal = position.deal
    title = seat_face(deal, seat)
    if deal.players == 4:
        title.append(f" ({deal.side_name(deal.side_of(seat))})", style=QUIET)
    if seat == deal.dealer:
        title.append(" dealer", style="italic")
    if show_to_move and not position.is_over and seat == position.to_move:
        title.append("  ")
        title.append(" to play ", style="reverse bold")
    return title


def middle(position: Position, pretty: bool) -> Text:
    """The trump suit and the cards on the table."""
    deal = position.deal
    text = trump_words(deal, pretty)
    current = position.current
    if current.cards:
        text.append("\n\non the table:")
        for i, card in enumerate(current.cards):
            text.append("\n  ")
            text.append_text(seat_face(deal, current.seat_of(i, deal.players)))
            text.append(" ")
            text.append_text(card_face(card, pretty, deal.trump))
    return text


def diagram(position: Position, pretty: bool, hands: Sequence[Sequence[int]] | None = None,
            show_to_move: bool = True) -> Table:
    """The hands of ``position`` (or ``hands``, e.g. as dealt) around the table."""
    deal = position.deal
    hands = position.hands if hands is None else hands
    grid = Table.grid(padding=(0, 2))
    for _ in range(3):
        grid.add_column(vertical="middle")
    cells: list[list] = [[Text(), Text(), Text()] for _ in range(3)]
    for seat, name in enumerate(deal.seats):
        row, column = PLACES[name]
        cell = seat_title(position, seat, show_to_move)
        cell.append("\n")
        cell.append_text(hand_face(hands[seat], deal.trump, pretty))
        cells[row][column] = cell
    table = middle(position, pretty) if show_to_move else trump_words(deal, pretty)
    cells[1][1] = Panel(table, box=box.ROUNDED if pretty else box.ASCII, expand=False,
                        padding=(0, 1), border_style=QUIET)
    for row in cells:
        grid.add_row(*row)
    return grid
