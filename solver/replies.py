"""Cards valued against the heuristic's replies, every hand open.

A double-dummy value assumes that the other side plays its best with every hand open too: it
knows where our cards are.  Opponents who play from their own view do not, and against them
the double-dummy value is too gloomy.  ``reply_values`` values each legal card in one deal
with the other side's seats playing the heuristic's card, each from its own view (its hand,
the cards played and the trick, as ``solver.playout`` asks it), and this side's seats the best
card for the side: the value of the best reply to the heuristic.  Against the heuristic itself
that is the deal's true value when this side plays its best (an open-hand player who replies so
is some 0.4 points a deal better against it than the double-dummy cheater: README, "The Monte
Carlo player"); against another player it is a bet on that player's play.

The search is plain maximisation with a memo: the heuristic's card depends only on its hand,
the cards out of its sight and the trick, so a position is the hands, the leader, the trick and
each side's Game pips so far.  Its size grows fast with the cards this side chooses among:
hundreds of positions for two 6-card hands, tens of thousands for four (some 44,000 at the
opening, the median of eight), so a ``limit`` (positions, and a deadline) stops it
(``Spent``).  With ``partner`` the partner of the seat to move plays the heuristic's card too,
and only that seat chooses: about a thousand positions at a four-player opening.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .cards import Card
from .deal import Position
from .game import observation_of, turn_view
from .search import _card_tables, _settled
from .tricks import legal_plays, trick_winner

__all__ = ["REPLY_NODES", "Spent", "reply_values"]

#: Engine nodes a position searched here counts as in a budget of nodes (about its time).
REPLY_NODES = 100
#: Positions between looks at the clock.
_CLOCK_EVERY = 256


class Spent(Exception):
    """The search reached its limit before every card was valued."""

    def __init__(self, positions: int) -> None:
        super().__init__(f"stopped after {positions} positions")
        self.positions = positions


def reply_values(position: Position, side: int, objective: str, model, *,
                 partner: bool = False, limit: int | None = None, deadline: float | None = None,
                 counted: Callable[[int], None] | None = None) -> dict[Card, int]:
    """Every legal card's value for ``side`` (``margin`` or ``points``, on the engine's scale)
    when the other sides' seats play ``model``'s card (a player of ``solver.players``: the
    heuristic) from their own view and ``side``'s seats the best card for it; with ``partner``
    the partner of the seat to move (four players) plays ``model``'s card too, and only the
    seat to move chooses.  At most
    ``limit`` positions are searched and none after ``deadline`` (``time.perf_counter``): past
    either, ``Spent``.  ``counted`` is told the positions searched, whether or not the search
    finished."""
    deal = position.deal
    n = deal.players
    trump, strict = deal.trump, deal.rules.strict_follow
    points, pips = _card_tables(deal, objective)
    settled, won_pips = _settled(position, side, objective, points, pips)
    margin = objective == "margin"
    game = deal.rules.game
    side_of = [deal.side_of(s) for s in range(n)]
    if partner and side_of[position.to_move] != side:
        raise ValueError("with partner, the side valued is the side of the seat to move")
    choosers = {position.to_move} if partner else {s for s in range(n) if side_of[s] == side}
    others = [s for s in range(deal.sides) if s != side]
    base = observation_of(position, position.to_move)
    memo: dict[tuple, int] = {}
    searched = 0

    def game_point(won: tuple[int, ...]) -> int:
        if not game:
            return 0
        x = won[side]
        if all(x > won[s] for s in others):
            return 1
        return -1 if margin and any(won[s] > x for s in others) else 0

    def value(hands: tuple[frozenset, ...], leader: int, trick: tuple[Card, ...],
              won: tuple[int, ...], seen: list) -> int:
        """The value from here to the end of the deal, for ``side``."""
        nonlocal searched
        if not trick and not hands[leader]:
            return game_point(won)
        key = (hands, leader, trick, won)
        found = memo.get(key)
        if found is not None:
            return found
        searched += 1
        if limit is not None and searched > limit:
            raise Spent(searched)
        if deadline is not None and searched % _CLOCK_EVERY == 0 \
                and time.perf_counter() > deadline:
            raise Spent(searched)
        seat = (leader + len(trick)) % n
        hand = hands[seat]
        legal = legal_plays(sorted(hand), list(trick), trump, strict)
        if seat not in choosers and len(legal) > 1:
            legal = [model.act(turn_view(base, seat, hand, seen, legal))]
        best = max(after(hands, leader, trick, won, seen, seat, c) for c in legal)
        memo[key] = best
        return best

    def after(hands: tuple[frozenset, ...], leader: int, trick: tuple[Card, ...],
              won: tuple[int, ...], seen: list, seat: int, card: Card) -> int:
        rest = hands[:seat] + (hands[seat] - {card},) + hands[seat + 1:]
        cards = trick + (card,)
        seen = seen + [(seat, card)]
        if len(cards) < n:
            return value(rest, leader, cards, won, seen)
        winner = (leader + trick_winner(list(cards), trump)) % n
        wins = side_of[winner]
        gain = sum(points[c] for c in cards)
        won = won[:wins] + (won[wins] + sum(pips[c] for c in cards),) + won[wins + 1:]
        gain = gain if wins == side else (-gain if margin else 0)
        return gain + value(rest, winner, (), won, seen)

    hands = tuple(frozenset(h) for h in position.hands)
    current = position.current
    seat = position.to_move
    try:
        return {c: settled + after(hands, current.leader, tuple(current.cards),
                                   tuple(won_pips), list(base.play), seat, c)
                for c in position.legal_moves()}
    finally:
        if counted is not None:
            counted(searched)
