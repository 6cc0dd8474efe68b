"""Deals and positions.

A ``Deal`` is the hands as dealt (after any runs), the trump suit, the dealer, the rules and an
optional match score.  A ``Position`` is a deal plus the cards played so far; building one replays
the play, checks every card against the follow rule and finds each trick's winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .cards import Card, CardError, card_str, hand_str, mask_of, sort_cards, suit_of, suit_str
from .errors import AllFivesError, quoted
from .rules import Rules
from .tricks import (legal_plays, seat_names, side_count, side_name, side_of, side_seats,
                     trick_winner)

__all__ = ["Deal", "Position", "Trick", "DealError", "PlayError"]


class DealError(AllFivesError):
    """A deal that cannot be: a card twice, unequal hands, a trump against the turn-up..."""


class PlayError(AllFivesError):
    """A card in the play that is not in the hand to play, or breaks the follow rule."""


def _is_card(c: object) -> bool:
    return isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 64 and (c & 15) <= 12


@dataclass(frozen=True)
class Deal:
    hands: tuple[tuple[Card, ...], ...]
    trump: int
    dealer: int | None = None
    rules: Rules = field(default_factory=Rules)
    turnup: Card | None = None
    #: Match score before this deal, one entry per side (for the match-aware objective).
    score: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        n = len(self.hands)
        names = seat_names(n)  # 2, 3 or 4 players
        for seat, hand in enumerate(self.hands):
            for c in hand:
                if not _is_card(c):
                    raise CardError(f"{names[seat]}'s hand: {quoted(c)} is not a card")
        hands = tuple(tuple(sort_cards(h)) for h in self.hands)
        object.__setattr__(self, "hands", hands)
        if self.dealer is None:
            object.__setattr__(self, "dealer", n - 1)
        elif not 0 <= self.dealer < n:
            raise DealError(f"dealer seat {self.dealer} is not at a {n}-player table")
        if not 0 <= self.trump < 4:
            raise DealError(f"trump suit {self.trump} is not a suit")
        sizes = {len(h) for h in hands}
        if len(sizes) != 1:
            detail = ", ".join(f"{names[i]} has {len(h)}" for i, h in enumerate(hands))
            raise DealError(f"hands must hold the same number of cards ({detail})")
        if not hands[0]:
            raise DealError("hands are empty")
        seen: dict[Card, int] = {}
        for seat, hand in enumerate(hands):
            for c in hand:
                if c in seen:
                    where = ("twice in " + names[seat] if seen[c] == seat
                             else f"in {names[seen[c]]} and {names[seat]}")
                    raise DealError(f"card {quoted(card_str(c))} is dealt {where}")
                seen[c] = seat
        if self.turnup is not None:
            if not _is_card(self.turnup):
                raise CardError(f"turn-up {quoted(self.turnup)} is not a card")
            if self.turnup in seen:
                raise DealError(f"turn-up {quoted(card_str(self.turnup))} is also in "
                                f"{names[seen[self.turnup]]}'s hand")
            if suit_of(self.turnup) != self.trump:
                raise DealError(f"trump {quoted(suit_str(self.trump))} contradicts turn-up "
                                f"{quoted(card_str(self.turnup))}")
        if self.score is not None and len(self.score) != side_count(n):
            raise DealError(f"score needs {side_count(n)} entries, one per side")

    @property
    def players(self) -> int:
        return len(self.hands)

    @cached_property
    def hand_masks(self) -> tuple[int, ...]:
        """Each hand as dealt, as a card mask."""
        return tuple(mask_of(h) for h in self.hands)

    @property
    def seats(self) -> str:
        return seat_names(self.players)

    @property
    def sides(self) -> int:
        return side_count(self.players)

    @property
    def elder(self) -> int:
        """The seat left of the dealer, who leads first."""
        return (self.dealer + 1) % self.players

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.players)

    def side_name(self, side: int) -> str:
        return side_name(side, self.players)

    def side_seats(self, side: int) -> list[int]:
        return side_seats(side, self.players)

    def holder(self, card: Card) -> int | None:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        return None

    def trumps_dealt(self) -> list[Card]:
        """The trumps in play (in some hand), low to high."""
        return sorted(c for h in self.hands for c in h if suit_of(c) == self.trump)

    def position(self, play: Sequence[Card] = ()) -> Position:
        return Position(self, tuple(play))

    def __str__(self) -> str:
        return " / ".join(f"{n}: {hand_str(h)}" for n, h in zip(self.seats, self.hands))


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]
    #: The winning seat, once every seat has played.
    winner: int | None = None

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players


@dataclass(frozen=True)
class Position:
    """A deal and the cards played so far, in order."""

    deal: Deal
    play: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = field(init=False, repr=False, compare=False)
    hands: tuple[tuple[Card, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        deal = self.deal
        n = deal.players
        names = deal.seats
        hands = [list(h) for h in deal.hands]
        tricks: list[Trick] = []
        leader, cards = deal.elder, []
        for i, card in enumerate(self.play):
            if not _is_card(card):
                raise CardError(f"play[{i}]: unknown card {quoted(card)}")
            seat = (leader + len(cards)) % n
            if card not in hands[seat]:
                if all(not h for h in hands):
                    raise PlayError(f"play[{i}]: {quoted(card_str(card))} is played after "
                                    f"the last trick")
                raise PlayError(f"play[{i}]: {quoted(card_str(card))} is not in "
                                f"{names[seat]}'s hand")
            if card not in legal_plays(hands[seat], cards, deal.trump, deal.rules.strict_follow):
                must = ("follow suit" if deal.rules.strict_follow or suit_of(cards[0]) == deal.trump
                        else "follow suit or trump")
                raise PlayError(f"play[{i}]: {names[seat]} may not play {quoted(card_str(card))} "
                                f"to {quoted(card_str(cards[0]))} led ({must})")
            hands[seat].remove(card)
            cards.append(card)
            if len(cards) == n:
                winner = (leader + trick_winner(cards, deal.trump)) % n
                tricks.append(Trick(leader, tuple(cards), winner))
                leader, cards = winner, []
        if cards:
            tricks.append(Trick(leader, tuple(cards)))
        object.__setattr__(self, "play", tuple(self.play))
        object.__setattr__(self, "tricks", tuple(tricks))
        object.__setattr__(self, "hands", tuple(tuple(h) for h in hands))

    # ---- the state of play ------------------------------------------------------------------

    @cached_property
    def completed(self) -> tuple[Trick, ...]:
        """The tricks every seat has played to."""
        return tuple(t for t in self.tricks if t.winner is not None)

    @cached_property
    def current(self) -> Trick:
        """The trick in progress (possibly no card yet)."""
        if self.tricks and self.tricks[-1].winner is None:
            return self.tricks[-1]
        leader = self.tricks[-1].winner if self.tricks else self.deal.elder
        return Trick(leader, ())

    @cached_property
    def to_move(self) -> int:
        cur = self.current
        return (cur.leader + len(cur.cards)) % self.deal.players

    @property
    def is_over(self) -> bool:
        return not any(self.hands)

    def legal_moves(self) -> list[Card]:
        if self.is_over:
            return []
        return legal_plays(self.hands[self.to_move], self.current.cards, self.deal.trump,
                           self.deal.rules.strict_follow)

    def after(self, *cards: Card) -> Position:
        return Position(self.deal, self.play + tuple(cards))

    def won_cards(self) -> list[list[Card]]:
        """The cards in each side's completed tricks."""
        won: list[list[Card]] = [[] for _ in range(self.deal.sides)]
        for t in self.completed:
            won[self.deal.side_of(t.winner)].extend(t.cards)
        return won


# The file forms of a position (TOML and one line) live in ``solver.notation``; they are part of
# this module's face so that ``from solver.deal import load`` works.
from .notation import (DealFileError, from_line, load, load_positions, read_positions,  # noqa: E402
                       read_toml, to_line, to_toml)

__all__ += ["DealFileError", "read_toml", "load", "to_toml", "from_line", "to_line",
            "read_positions", "load_positions"]
