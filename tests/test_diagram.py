"""The table diagram on screens of every width: it fits, folds where it must, and still shows
every card of every hand whole, the trump suit, the dealer and the seat to play."""

from __future__ import annotations

import random

import pytest

from clirun import console
from cli.diagram import diagram
from cli.faces import ranks_face
from solver.cards import SUIT_NAMES, card_str, suit_of, suit_str
from solver.shuffle import random_position


def render(position, width: int, pretty: bool = True) -> list[str]:
    screen, out = console(width)
    screen.print(diagram(position, pretty))
    return out.getvalue().splitlines()


def holdings(position, pretty: bool = True) -> list[str]:
    """Each suit held as the diagram writes it, ``♥ J 8 5 4``."""
    out = []
    for hand in position.hands:
        for suit in range(4):
            held = [c for c in hand if suit_of(c) == suit]
            if held:
                out.append(f"{suit_str(suit, pretty)} {ranks_face(held)}")
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("width", [80, 60, 50, 40, 30])
def test_the_diagram_fits_and_keeps_every_holding_whole(players, width):
    rng = random.Random(f"{players}/{width}")
    for _ in range(10):
        cards = rng.choice([6, 9, 12])
        position = random_position(rng, players, cards, played=rng.randrange(players * 2))
        lines = render(position, width)
        assert all(len(line.rstrip()) <= width for line in lines), "\n".join(lines)
        text = "\n".join(line.rstrip() for line in lines)
        for holding in holdings(position):
            assert holding in text, (holding, text)
        assert SUIT_NAMES[position.deal.trump] in text
        assert "dealer" in text and "to play" in text
        assert "…" not in text


def test_the_diagram_folds_only_where_it_must():
    """At 80 columns a four-player diagram is laid out whole, the trump mark worded; at 60 it
    folds (the mark an arrow), still around the table; at 30 its parts stack."""
    position = random_position(random.Random(4), 4, 6, played=1)
    wide, folded, stacked = (render(position, w) for w in (80, 60, 30))
    assert any("◂ trumps" in line for line in wide)
    assert not any("◂ trumps" in line for line in folded)
    assert any("◂" in line for line in folded)
    # around the table: W's hand beside the middle box
    assert any(line.startswith("♠") and "│" in line for line in folded)
    assert not any("│" in line and line.startswith("♠") for line in stacked)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("width", [80, 50, 30])
def test_without_suit_symbols_the_seats_are_spelled_out(players, width):
    """Where suits are letters the seats are words (``South dealer`` above ``S T 4``), so that
    a seat is not read as the suit under it; with the symbols they stay letters."""
    rng = random.Random(f"plain {players}/{width}")
    for _ in range(5):
        position = random_position(rng, players, rng.choice([6, 9]), played=rng.randrange(1, 3))
        deal = position.deal
        plain, pretty = render(position, width, pretty=False), render(position, width)
        assert all(len(line.rstrip()) <= width for line in plain), "\n".join(plain)
        text = "\n".join(line.strip() for line in plain)
        for holding in holdings(position, pretty=False):
            assert holding in text, (holding, text)
        words = {"N": "North", "E": "East", "S": "South", "W": "West"}
        for seat in deal.seats:
            assert words[seat] in text, text
            assert not any(words[seat] in line for line in pretty)
        # on the table, each card beside its seat's word
        for i, card in enumerate(position.current.cards):
            seat = deal.seats[position.current.seat_of(i, players)]
            assert f"{words[seat]} {card_str(card)}" in text, text
