"""Seats, sides and the play of a trick: who may play what, and who wins.

Seats are numbered clockwise from 0 and named by compass letters: ``N S`` for two players,
``N E S`` for three, ``N E S W`` for four (partners N+S against E+W).  A side is one seat, or one
partnership with four players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from numbers import Integral
from typing import TYPE_CHECKING

from .cards import Card, rank_of, suit_of
from .errors import AllFivesError, quoted, upper

__all__ = ["Table", "Seated", "SEAT_NAMES", "SEAT_WORDS", "seat_names", "side_of", "side_count",
           "side_name", "side_seats", "parse_seat", "legal_plays", "follow_rule", "shows_void", "trick_winner", "SeatError"]

SEAT_NAMES = {2: "NS", 3: "NES", 4: "NESW"}
#: Each seat's letter spelled out.
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


class SeatError(AllFivesError):
    """A seat or side name that does not exist at this table."""


def seat_names(players: int) -> str:
    if isinstance(players, bool) or not isinstance(players, Integral) \
            or players not in SEAT_NAMES:     # (2.0 and True are not 2)
        raise SeatError(f"a table has 2, 3 or 4 players, not {quoted(players)}")
    return SEAT_NAMES[players]


def parse_seat(name: str, players: int) -> int:
    """``"E"`` -> 1 at a 3- or 4-player table; ``"S"`` -> 1 with two players."""
    names = seat_names(players)
    key = upper(name.strip())
    if len(key) == 1 and key in SEAT_NAMES[4] and key not in names:  # a seat, not at this table
        raise SeatError(f"no seat {quoted(name)} at a {players}-player table (seats here: "
                        f"{' '.join(names)})")
    if len(key) != 1 or key not in names:
        raise SeatError(f"unknown seat {quoted(name)} (seats here: {' '.join(names)})")
    return names.index(key)


def side_of(seat: int, players: int) -> int:
    """Partners share a side with four players; otherwise every seat is its own side."""
    return seat % 2 if players == 4 else seat


def side_count(players: int) -> int:
    return 2 if players == 4 else players


def side_seats(side: int, players: int) -> list[int]:
    return [s for s in range(players) if side_of(s, players) == side]


def side_name(side: int, players: int) -> str:
    names = seat_names(players)
    return "".join(names[s] for s in side_seats(side, players))


class Table:
    """The seats and sides of a table, for a class with ``players`` (a ``Match``)."""

    if TYPE_CHECKING:
        # (read here only: a Deal's is a property)
        @property
        def players(self) -> int: ...

    @property
    def seats(self) -> str:
        return seat_names(self.players)

    @property
    def sides(self) -> int:
        return side_count(self.players)

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.players)

    def side_name(self, side: int) -> str:
        return side_name(side, self.players)

    def side_seats(self, side: int) -> list[int]:
        return side_seats(side, self.players)


class Seated(Table):
    """A table with a ``dealer`` seat (a ``Deal``, a match in play), and so an elder hand."""

    dealer: int

    @property
    def elder(self) -> int:
        """The seat left of the dealer, who leads first."""
        return (self.dealer + 1) % self.players


def legal_plays(hand: Iterable[Card], trick: Sequence[Card], trump: int,
                strict: bool) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards so far, lead first).

    ``strict``: follow the suit led if you can.  Otherwise (trump-anytime): to a trump lead follow
    with a trump if you can; to another lead follow suit or trump; a seat void in the suit led
    may play anything.
    """
    hand = list(hand)
    if not trick:
        return hand
    led = suit_of(trick[0])
    following = [c for c in hand if suit_of(c) == led]
    if not following:
        return hand
    if strict or led == trump:
        return following
    return [c for c in hand if suit_of(c) in (led, trump)]


def follow_rule(led: Card, trump: int, strict: bool) -> str:
    """What ``legal_plays`` asks of a seat holding the suit led, in words: ``follow suit``, or
    ``follow suit or trump`` (to a plain suit when trumps may be played anytime)."""
    return "follow suit" if strict or suit_of(led) == trump else "follow suit or trump"


def shows_void(led: Card, card: Card, trump: int, strict: bool) -> bool:
    """Whether ``card`` played (not as a revoke) to a trick led with ``led`` shows by the follow
    rule of ``legal_plays`` that its seat holds none of the suit led: any card off that suit
    does, but a trump to a plain-suit lead when trumps may be played anytime."""
    if suit_of(card) == suit_of(led):
        return False
    return strict or suit_of(led) == trump or suit_of(card) != trump


def trick_winner(trick: Sequence[Card], trump: int) -> int:
    """Index in ``trick`` of the winning card: the highest trump, else the highest of the suit led."""
    led = suit_of(trick[0])
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if suit_of(c) == suit_of(b):
            if rank_of(c) > rank_of(b):
                best = i
        elif suit_of(c) == trump:
            best = i
    assert suit_of(trick[best]) in (led, trump)
    return best
