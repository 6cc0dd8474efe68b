"""What each side scores in a deal: captures trick by trick, then High, Low, Jack, Game and
five-for-five at the end, exactly as the rules count them (README, "Rule sets")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

from .cards import FIVE, JACK, Card, make_card, pip_value, rank_of, suit_of
from .deal import Deal, Trick

if TYPE_CHECKING:
    from .notation import Layout

__all__ = ["DealScore", "capture_points", "game_pips", "score_position", "END_POINTS", "EndPoint",
           "end_points", "captor_cards"]

#: End-of-deal points in the order they are counted.
END_POINTS = ("high", "low", "jack", "game", "five")


class Played(Protocol):
    """What the scoring reads of a position: a ``Position``, or the engine's own tricks of a
    deal played out (which may hold a revoke)."""

    @property
    def deal(self) -> Deal: ...
    @property
    def completed(self) -> tuple[Trick, ...]: ...
    @property
    def is_over(self) -> bool: ...


def capture_points(trick: Trick | tuple[Card, ...], deal: Deal | Layout) -> int:
    """Pips of the trumps in a trick, pegged by its winner when ``capture`` is on (``deal`` gives
    the rules and the trumps: a ``Layout`` does as well as a ``Deal``)."""
    cards = trick.cards if isinstance(trick, Trick) else trick
    if not deal.rules.capture:
        return 0
    return sum(pip_value(c) for c in cards if suit_of(c) == deal.trump)


def game_pips(card: Card, deal: Deal) -> int:
    """A card's count toward Game (fives count 0 where ``game_counts_fives`` is off)."""
    if rank_of(card) == FIVE and not deal.rules.game_counts_fives:
        return 0
    return pip_value(card)


@dataclass(frozen=True)
class DealScore:
    """Points per side: ``captures[side]``, and the side that took each end point (or None)."""

    captures: tuple[int, ...]
    high: int | None
    low: int | None
    jack: int | None
    game: int | None
    five: int | None
    #: Game pips won by each side.
    pips: tuple[int, ...]

    def total(self, side: int) -> int:
        t = self.captures[side]
        t += sum(1 for p in (self.high, self.low, self.jack, self.game) if p == side)
        t += 5 if self.five == side else 0
        return t

    def totals(self) -> tuple[int, ...]:
        return tuple(self.total(s) for s in range(len(self.captures)))


def _captor(card: Card, position: Played) -> int | None:
    for t in position.completed:
        if card in t.cards:
            assert t.winner is not None
            return position.deal.side_of(t.winner)
    return None


def score_position(position: Played) -> DealScore:
    """The score of the tricks completed so far; the end points need the deal played out
    (High and Low-to-holder are known from the start and are always given)."""
    deal, rules = position.deal, position.deal.rules
    sides = deal.sides
    captures = [0] * sides
    pips = [0] * sides
    for t in position.completed:
        assert t.winner is not None
        side = deal.side_of(t.winner)
        captures[side] += capture_points(t, deal)
        pips[side] += sum(game_pips(c, deal) for c in t.cards)
    trumps = deal.trumps_dealt()
    over = position.is_over
    high = low = jack = game = five = None
    if trumps and rules.high:
        high = deal.side_of(cast(int, deal.holder(trumps[-1])))     # (a trump dealt is held)
    if trumps and rules.low:
        if rules.low_to == "holder":
            low = deal.side_of(cast(int, deal.holder(trumps[0])))
        else:
            low = _captor(trumps[0], position)
    jack_card = make_card(deal.trump, JACK)
    if rules.jack and jack_card in trumps:
        jack = _captor(jack_card, position)
    five_card = make_card(deal.trump, FIVE)
    if rules.five_for_five and five_card in trumps:
        five = _captor(five_card, position)
    if rules.game and over:
        best = max(pips)
        if pips.count(best) == 1:
            game = pips.index(best)
    return DealScore(tuple(captures), high, low, jack, game, five, tuple(pips))


# ---- the end of the deal ------------------------------------------------------------------------


@dataclass(frozen=True)
class EndPoint:
    """One end-of-deal point (High, Low, Jack, Game, five-for-five) and who takes it."""

    name: str                   # "high", "low", "jack", "game", "five"
    side: int | None            # None: nobody (a tie for Game, a card not dealt, play not over)
    points: int                 # what it is worth: 1, or 5 for five-for-five
    card: Card | None = None    # the trump it is about (none for Game)
    #: The seat dealt the card (High, Low to the holder), or the trick it was won in.
    holder: int | None = None
    trick: int | None = None


def _trick_of(card: Card, position: Played) -> int | None:
    for number, trick in enumerate(position.completed, 1):
        if card in trick.cards:
            return number
    return None


def captor_cards(deal: Deal) -> list[tuple[str, Card]]:
    """The cards dealt whose captor scores an end point under the deal's rules, each with its
    name, in the order they are pegged: Low where it goes to its captor, the Jack, the Five
    under five-for-five."""
    rules, trumps = deal.rules, deal.trumps_dealt()
    out = [("low", trumps[0])] if trumps and rules.low_to_captor else []
    for wanted, name, rank in ((rules.jack, "jack", JACK), (rules.five_for_five, "five", FIVE)):
        card = make_card(deal.trump, rank)
        if wanted and card in trumps:
            out.append((name, card))
    return out


def end_points(position: Played) -> list[EndPoint]:
    """The end-of-deal points the rules count, in the order they are pegged.  For a position
    whose play is not over only what is already settled has a side."""
    deal, rules = position.deal, position.deal.rules
    score = score_position(position)
    trumps = deal.trumps_dealt()
    out = []
    if rules.high:
        card = trumps[-1] if trumps else None
        out.append(EndPoint("high", score.high, 1, card,
                            holder=deal.holder(card) if card is not None else None))
    if rules.low:
        card = trumps[0] if trumps else None
        if rules.low_to == "holder":
            out.append(EndPoint("low", score.low, 1, card,
                                holder=deal.holder(card) if card is not None else None))
        else:
            out.append(EndPoint("low", score.low, 1, card,
                                trick=_trick_of(card, position) if card is not None else None))
    if rules.jack:
        card = make_card(deal.trump, JACK)
        dealt = card in trumps
        out.append(EndPoint("jack", score.jack, 1, card if dealt else None,
                            trick=_trick_of(card, position) if dealt else None))
    if rules.game:
        out.append(EndPoint("game", score.game, 1))
    if rules.five_for_five:
        card = make_card(deal.trump, FIVE)
        dealt = card in trumps
        out.append(EndPoint("five", score.five, 5, card if dealt else None,
                            trick=_trick_of(card, position) if dealt else None))
    return out
