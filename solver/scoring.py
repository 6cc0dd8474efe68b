"""What each side scores in a deal: captures trick by trick, then High, Low, Jack, Game and
five-for-five at the end, exactly as the rules count them (README, "Rule sets")."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import FIVE, JACK, Card, make_card, pip_value, rank_of, suit_of
from .deal import Deal, Position, Trick
from .notation import Layout

__all__ = ["DealScore", "capture_points", "game_pips", "score_position", "END_POINTS"]

#: End-of-deal points in the order they are counted.
END_POINTS = ("high", "low", "jack", "game", "five")


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


def _captor(card: Card, position: Position) -> int | None:
    for t in position.completed:
        if card in t.cards:
            return position.deal.side_of(t.winner)
    return None


def score_position(position: Position) -> DealScore:
    """The score of the tricks completed so far; the end points need the deal played out
    (High and Low-to-holder are known from the start and are always given)."""
    deal, rules = position.deal, position.deal.rules
    sides = deal.sides
    captures = [0] * sides
    pips = [0] * sides
    for t in position.completed:
        side = deal.side_of(t.winner)
        captures[side] += capture_points(t, deal)
        pips[side] += sum(game_pips(c, deal) for c in t.cards)
    trumps = deal.trumps_dealt()
    over = position.is_over
    high = low = jack = game = five = None
    if trumps and rules.high:
        high = deal.side_of(deal.holder(trumps[-1]))
    if trumps and rules.low:
        if rules.low_to == "holder":
            low = deal.side_of(deal.holder(trumps[0]))
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
