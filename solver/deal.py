"""Deals and positions: the model every command works on.

A ``Deal`` is the hands as dealt (after any runs), the trump suit, the dealer, the rules and an
optional match score.  A ``Position`` is a deal plus the cards played so far; building one replays
the play, checks every card against the follow rule and finds each trick's winner.

Both forms of text a position is written in (``solver.notation``) are read and written here:
``Position.from_toml`` / ``to_toml``, ``Position.from_line`` / ``to_line``, ``load`` for a deal
file and ``load_positions`` / ``read_positions`` for a file or text of several.  A position's
``repr`` is its one-line form, ready to paste back::

    >>> Position.from_line("N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H")
    Position.from_line('N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING
from os import PathLike

from .cards import Card, CardError, card_str, hand_str, is_card, mask_of, parse_card, sort_cards, \
    suit_of, suit_str
from .errors import AllFivesError, quoted, whole
from .notation import (DealFileError, Layout, is_toml_name, line_str, parse_line, parse_toml,
                       read_file, read_layouts, toml_str)
from .rules import MAX_TARGET, Rules
from .tricks import Seated, follow_rule, legal_plays, seat_names, side_count, side_name, \
    trick_winner

__all__ = ["Deal", "Position", "Trick", "DealError", "PlayError", "DealFileError", "load",
           "load_positions", "read_positions", "position_of", "has_won"]


def has_won(rules: Rules, points: int) -> bool:
    """Whether a side with ``points`` as the play starts has won the match already: at the
    target under ``peg-out``.  Under ``hand-end`` the totals are compared after the deal, so a
    side that a take-one or a turned-up Jack took to the target before the play has not."""
    return points >= rules.target and rules.finish == "peg-out"


class DealError(AllFivesError):
    """A deal that cannot be: a card twice, unequal hands, a trump against the turn-up..."""


class PlayError(AllFivesError):
    """A card in the play that is not in the hand to play, or breaks the follow rule."""


@dataclass(frozen=True)
class Deal(Seated):
    """The cards as dealt for play: ``hands``, a tuple of cards' numbers for each seat from N
    clockwise (``solver.cards``: suit * 16 + rank, suits S H D C 0 to 3, ranks 2 to A 0 to
    12); ``trump``, a suit 0 to 3 in that order; ``dealer``, a seat's number (default the
    seat before the first); ``rules``; the ``turnup`` that fixed trumps (None: not known); and
    the match ``score`` before the deal, one entry per side (None: no match).  Frozen; each
    field is checked as the deal is made (a ``DealError`` says what is wrong)."""

    hands: tuple[tuple[Card, ...], ...]
    trump: int
    dealer: int = None  # type: ignore[assignment]  # (None given: set as the deal is made)
    rules: Rules = field(default_factory=Rules)
    turnup: Card | None = None
    #: Match score before this deal, one entry per side (for the match-aware objective).
    score: tuple[int, ...] | None = None

    if TYPE_CHECKING:
        # What a deal is made of, which it keeps as the fields above: hands of any kind of
        # sequence, no dealer (the seat before the first), a score of any sequence.
        def __init__(self, hands: Sequence[Iterable[Card]], trump: int, dealer: int | None = None,
                     rules: Rules = ..., turnup: Card | None = None,
                     score: Sequence[int] | None = None) -> None: ...

    def __post_init__(self) -> None:
        if type(self.hands) is not tuple or type(self.trump) is not int or \
                type(self.dealer) not in (int, type(None)) or \
                any(type(hand) is not tuple for hand in self.hands):  # (else as a deal is made)
            self._check_kinds()
        if not isinstance(self.rules, Rules):
            raise DealError(f"rules: {quoted(self.rules)} is not a Rules (Rules.preset(name) "
                            f"makes one)")
        if self.score is not None and type(self.score) is not tuple:
            if isinstance(self.score, (str, bytes)) or not isinstance(self.score, Iterable):
                raise DealError(f"score: {quoted(self.score)} is not a list of points, one a "
                                f"side")
            object.__setattr__(self, "score", tuple(self.score))  # (a caller's list, frozen)
        n = len(self.hands)
        names = seat_names(n)  # 2, 3 or 4 players
        for seat, hand in enumerate(self.hands):
            for c in hand:
                if not is_card(c):
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
            if not is_card(self.turnup):
                raise CardError(f"turn-up {quoted(self.turnup)} is not a card")
            if self.turnup in seen:
                raise DealError(f"turn-up {quoted(card_str(self.turnup))} is also in "
                                f"{names[seen[self.turnup]]}'s hand")
            if suit_of(self.turnup) != self.trump:
                raise DealError(f"trump {quoted(suit_str(self.trump))} contradicts turn-up "
                                f"{quoted(card_str(self.turnup))}")
        if self.score is not None:
            self._check_score()

    def _check_kinds(self) -> None:
        """The kinds of what the deal was given, where they are not the usual ones: hands a
        list of lists of cards, trump and dealer whole numbers (numpy's too, kept as Python's)."""
        if isinstance(self.hands, (str, bytes)) or not isinstance(self.hands, Sequence) or \
                any(isinstance(h, (str, bytes)) or not isinstance(h, Iterable)
                    for h in self.hands):
            raise DealError(f"hands: {quoted(self.hands)} is not a list of hands of cards "
                            f"(parse_hand reads a hand's text)")
        for name in ("trump", "dealer"):
            value = getattr(self, name)
            if (value is not None or name == "trump") and whole(value) is None:
                raise DealError(f"{name}: {quoted(value)} is not a number (0 to 3 for a suit, a "
                                f"seat's index for the dealer)")
            if value is not None:
                object.__setattr__(self, name, whole(value))

    def _check_score(self) -> None:
        assert self.score is not None
        n = len(self.hands)
        if len(self.score) != side_count(n):
            raise DealError(f"score needs {side_count(n)} entries, one per side")
        target = self.rules.target
        for side, points in enumerate(self.score):
            if isinstance(points, bool) or not isinstance(points, int):
                raise DealError(f"score: {quoted(points)} is not a whole number")
            if has_won(self.rules, points):
                raise DealError(f"score: {side_name(side, n)} has {quoted(points)}, already at "
                                f"the target {target}: that match is over")
            # (hand-end: past the target, but not so far; below 0 by revokes, but not so far)
            if not -(target + MAX_TARGET) <= points <= target + MAX_TARGET:
                more = points > 0
                raise DealError(f"score: {side_name(side, n)} has {quoted(points)}, "
                                f"{'more' if more else 'less'} than "
                                f"{(1 if more else -1) * (target + MAX_TARGET)}: no match to "
                                f"{target} gets there")

    @property
    def players(self) -> int:
        return len(self.hands)

    @cached_property
    def hand_masks(self) -> tuple[int, ...]:
        """Each hand as dealt, as a card mask."""
        return tuple(mask_of(h) for h in self.hands)

    def holder(self, card: Card) -> int | None:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        return None

    def trumps_dealt(self) -> list[Card]:
        """The trumps in play (in some hand), low to high."""
        return sorted(c for h in self.hands for c in h if suit_of(c) == self.trump)

    def position(self, play: Sequence[Card] = ()) -> Position:
        """The deal with ``play`` played (cards, in order)."""
        return Position(self, play)

    @classmethod
    def from_line(cls, text: str, source: str = "<line>") -> Deal:
        """The deal of a one-line position (any cards played are left aside)."""
        return Position.from_line(text, source).deal

    def __str__(self) -> str:
        return " / ".join(f"{n}: {hand_str(h)}" for n, h in zip(self.seats, self.hands))

    def __repr__(self) -> str:
        return f"Deal.from_line({self.position().to_line()!r})"


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]
    #: The winning seat, once every seat has played.
    winner: int | None = None

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players

    def __repr__(self) -> str:
        cards = ", ".join(card_str(c) for c in self.cards)
        return f"Trick(leader={self.leader}, cards=({cards}), winner={self.winner})"


def _replayed(deal: Deal, play: Sequence[Card], check: Callable[..., None] | None = None
              ) -> tuple[tuple[Trick, ...], tuple[tuple[Card, ...], ...]]:
    """The tricks of ``play`` (the last one open, if any) and each seat's cards left;
    ``check(i, card, seat, hands, cards)`` before each card is played, where one is given."""
    n = deal.players
    hands = [list(h) for h in deal.hands]
    tricks: list[Trick] = []
    cards: list[Card]
    leader, cards = deal.elder, []
    for i, card in enumerate(play):
        seat = (leader + len(cards)) % n
        if check is not None:
            check(i, card, seat, hands, cards)
        hands[seat].remove(card)
        cards.append(card)
        if len(cards) == n:
            winner = (leader + trick_winner(cards, deal.trump)) % n
            tricks.append(Trick(leader, tuple(cards), winner))
            leader, cards = winner, []
    if cards:
        tricks.append(Trick(leader, tuple(cards)))
    return tuple(tricks), tuple(tuple(h) for h in hands)


@dataclass(frozen=True)
class Position:
    """A deal and the cards played so far, in order."""

    deal: Deal
    play: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = field(init=False, repr=False, compare=False)
    hands: tuple[tuple[Card, ...], ...] = field(init=False, repr=False, compare=False)

    if TYPE_CHECKING:
        # (the play of any sequence of cards, kept as a tuple)
        def __init__(self, deal: Deal, play: Sequence[Card] = ()) -> None: ...

    def __post_init__(self) -> None:
        deal = self.deal
        if not isinstance(deal, Deal):
            raise DealError(f"deal: {quoted(deal)} is not a Deal (Position.from_line reads a "
                            f"position whole)")
        if type(self.play) is not tuple:        # (as after() makes it, else checked)
            if isinstance(self.play, (str, bytes)) or not isinstance(self.play, Iterable):
                raise PlayError(f"play: {quoted(self.play)} is not a list of cards' numbers "
                                f"(position.after('9H') plays a card by its name)")
            object.__setattr__(self, "play", tuple(self.play))
        tricks, hands = _replayed(deal, self.play, self._check_card)
        object.__setattr__(self, "play", tuple(self.play))
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "hands", hands)

    def _check_card(self, i: int, card: Card, seat: int, hands: list[list[Card]],
                    cards: list[Card]) -> None:
        """A ``PlayError`` (or ``CardError``) where ``play[i]``, ``card``, is not one ``seat``
        may play from ``hands[seat]`` to the trick's ``cards``."""
        deal = self.deal
        names = deal.seats
        if not is_card(card):
            raise CardError(f"play[{i}]: unknown card {quoted(card)}")
        if card not in hands[seat]:
            if all(not h for h in hands):
                raise PlayError(f"play[{i}]: {quoted(card_str(card))} is played after "
                                f"the last trick")
            face = quoted(card_str(card))
            if card in self.play[:i]:
                raise PlayError(f"play[{i}]: {face} is played twice (also "
                                f"play[{list(self.play).index(card)}])")
            holder = deal.holder(card)
            where = f" (it is in {names[holder]}'s)" if holder is not None else ""
            raise PlayError(f"play[{i}]: {face} is not in {names[seat]}'s hand{where}")
        if card not in legal_plays(hands[seat], cards, deal.trump, deal.rules.strict_follow):
            must = follow_rule(cards[0], deal.trump, deal.rules.strict_follow)
            raise PlayError(f"play[{i}]: {names[seat]} may not play {quoted(card_str(card))} "
                            f"to {quoted(card_str(cards[0]))} led ({must})")

    @classmethod
    def of_legal_play(cls, deal: Deal, play: tuple[Card, ...]) -> Position:
        """The position after ``play``, every card of which is known to be legal in turn (as a
        play-out that chose each among the legal cards has it): the tricks and hands worked out
        as the constructor works them out, without checking each card again."""
        tricks, hands = _replayed(deal, play)
        position = object.__new__(cls)
        position.__dict__.update(deal=deal, play=tuple(play), tricks=tricks, hands=hands)
        return position

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
        assert leader is not None
        return Trick(leader, ())

    @cached_property
    def to_move(self) -> int:
        cur = self.current
        return (cur.leader + len(cur.cards)) % self.deal.players

    @property
    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not any(self.hands)

    def legal_moves(self) -> list[Card]:
        """The cards the seat to move may play, by the follow rule (none once over)."""
        if self.is_over:
            return []
        return legal_plays(self.hands[self.to_move], self.current.cards, self.deal.trump,
                           self.deal.rules.strict_follow)

    def after(self, *cards: Card | str) -> Position:
        """The position after ``cards`` (numbers, or names: ``"9H"``) are played in turn."""
        played = list(self.play)
        for card in cards:
            if isinstance(card, str):
                try:
                    card = parse_card(card)
                except CardError as error:      # (at its place in the play, as any other)
                    raise CardError(f"play[{len(played)}]: {error}") from None
            played.append(card)
        return Position(self.deal, tuple(played))

    # ---- text forms ---------------------------------------------------------------------------

    @classmethod
    def from_toml(cls, text: str, source: str = "<string>", lines_before: int = 0) -> Position:
        """Read the TOML form of one position; ``source`` names it in error messages (and
        ``lines_before``, the lines of a larger text above it, counts in their line numbers)."""
        return position_of(parse_toml(text, source, lines_before=lines_before))

    @classmethod
    def from_line(cls, text: str, source: str = "<line>") -> Position:
        """Read the one-line form: ``N:<hand> <hand> ... key=value ...``."""
        return position_of(parse_line(text, source))

    def to_toml(self, aside: Sequence[Card] = ()) -> str:
        """The canonical TOML form; ``from_toml`` reads it back to an equal position.
        ``aside``: the turn-ups runs set aside, to write with it (a Position does not keep
        them)."""
        return toml_str(self._layout(aside))

    def to_line(self, aside: Sequence[Card] = ()) -> str:
        """The one-line form; ``from_line`` reads it back to an equal position (``aside`` as
        for ``to_toml``)."""
        return line_str(self._layout(aside))

    def _layout(self, aside: Sequence[Card] = ()) -> Layout:
        deal = self.deal
        if isinstance(aside, (str, bytes)) or not isinstance(aside, Iterable):
            aside = (aside,)  # type: ignore[assignment]  # (one value, which the check below names)
        aside = tuple(aside)
        held = {c for hand in deal.hands for c in hand}
        for card in aside:
            if not is_card(card) or card in held or card == deal.turnup or \
                    aside.count(card) > 1 or deal.turnup is None:
                name = card_str(card) if is_card(card) else quoted(card)
                raise AllFivesError(f"aside: {name} is no turn-up set aside (a card in no "
                                    f"hand, once, not the turn-up, with a turn-up)")
        return Layout(deal.hands, deal.trump, deal.dealer, deal.rules, deal.turnup, deal.score,
                      self.play, aside=aside)

    def __repr__(self) -> str:
        return f"Position.from_line({self.to_line()!r})"

    def won_cards(self) -> list[list[Card]]:
        """The cards in each side's completed tricks."""
        won: list[list[Card]] = [[] for _ in range(self.deal.sides)]
        for t in self.completed:
            assert t.winner is not None
            won[self.deal.side_of(t.winner)].extend(t.cards)
        return won


# ---- positions from text and files ------------------------------------------------------------


def position_of(layout: Layout) -> Position:
    """The position a text describes; what the model refuses is said at the text's name."""
    try:
        deal = Deal(layout.hands, layout.trump, layout.dealer, layout.rules, layout.turnup,
                    layout.score)
        return Position(deal, layout.play)
    except AllFivesError as error:
        raise DealFileError(f"{layout.source}: {error}") from error


def load(path: str | PathLike[str]) -> Position:
    """Read a deal file of one deal: a ``.toml`` file is TOML, any other file is told by its
    text, TOML or one position on one line (``load_positions`` reads a file of several)."""
    (layout,) = read_layouts(read_file(path), str(path), True if is_toml_name(path) else None,
                             one=True)
    return position_of(layout)


def read_positions(text: str, source: str = "<string>",
                   toml: bool | None = None) -> Iterator[tuple[str, Position]]:
    """Every position in a text, each with the name it is known by: one TOML deal named
    ``source``, several separated by ``# ---`` lines named ``source#1``, ..., or one-line
    positions named ``source:LINE``.  ``toml=None`` tells the forms apart by the text."""
    for layout in read_layouts(text, source, toml):
        yield layout.source, position_of(layout)


def load_positions(path: str | PathLike[str]) -> list[tuple[str, Position]]:
    """Every position in a file: a ``.toml`` file is TOML, any other file is told by its text."""
    return list(read_positions(read_file(path), str(path), True if is_toml_name(path) else None))
