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

Each world's search lets this side choose every later card knowing the world (strategy fusion),
where a seat at the table cannot tell apart the worlds in which the same cards have been played.
``shared_reply_values`` searches a seat's worlds together: where an opponent's card differs
between worlds they part, and at each of the seat's turns one card is chosen for all the worlds
still together, the best by weighted sum; the partner's cards are the heuristic's.  Against the
heuristic with the worlds drawn from what the seat has seen, that is the seat's best reply to
the heuristic.  A position counts once for each world it is searched in: 4,000 to 10,000 at a
two-player opening with 16 worlds, as many as the worlds' searches one by one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import clock
from .cards import Card
from .deal import Position
from .game import observation_of, turn_view
from .search import card_tables, settled_before
from .tricks import legal_plays, trick_winner

__all__ = ["REPLY_NODES", "Spent", "reply_values", "shared_reply_values"]

#: Engine nodes a position searched here counts as in a budget of nodes (about its time).
REPLY_NODES = 100
#: Positions between looks at the clock.
_CLOCK_EVERY = 256


class Spent(Exception):
    """The search reached its limit before every card was valued."""

    def __init__(self, positions: int) -> None:
        super().__init__(f"stopped after {positions} positions")
        self.positions = positions


def _table(position: Position, seat: int, side: int, objective: str):
    """What both searches take from the deal: the number of seats, trumps, the follow rule,
    whether the objective is a margin, each seat's side, Game's point for ``side`` by the pips
    each side won (``margin``: -1 when another side has the most), and what ``seat`` has seen."""
    deal = position.deal
    game = deal.rules.game
    margin = objective == "margin"
    others = [s for s in range(deal.sides) if s != side]

    def game_point(won: tuple[int, ...]) -> int:
        if not game:
            return 0
        x = won[side]
        if all(x > won[s] for s in others):
            return 1
        return -1 if margin and any(won[s] > x for s in others) else 0

    return (deal.players, deal.trump, deal.rules.strict_follow, margin,
            [deal.side_of(s) for s in range(deal.players)], game_point,
            observation_of(position, seat))


def _trick_taken(cards: tuple[Card, ...], wins: int, side: int, margin: bool, points: bytes,
                 pips: bytes, won: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """A finished trick taken by side ``wins``: what it is worth to ``side`` (``margin``: less
    what it gives another side), and the Game pips each side has won with it."""
    gain = sum(points[c] for c in cards)
    gain = gain if wins == side else (-gain if margin else 0)
    return gain, won[:wins] + (won[wins] + sum(pips[c] for c in cards),) + won[wins + 1:]


def reply_values(position: Position, side: int, objective: str, model, *,
                 partner: bool = False, limit: int | None = None, deadline: float | None = None,
                 counted: Callable[[int], None] | None = None) -> dict[Card, int]:
    """Every legal card's value for ``side`` (``margin`` or ``points``, on the engine's scale)
    when the other sides' seats play ``model``'s card (a player of ``solver.players``: the
    heuristic) from their own view and ``side``'s seats the best card for it; with ``partner``
    the partner of the seat to move (four players) plays ``model``'s card too, and only the
    seat to move chooses.  At most
    ``limit`` positions are searched and none after ``deadline`` (``solver.clock.now``): past
    either, ``Spent``.  ``counted`` is told the positions searched, whether or not the search
    finished."""
    n, trump, strict, margin, side_of, game_point, base = _table(position, position.to_move,
                                                                 side, objective)
    points, pips = card_tables(position.deal, objective)
    settled, won_pips = settled_before(position, side, objective, points, pips)
    if partner and side_of[position.to_move] != side:
        raise ValueError("with partner, the side valued is the side of the seat to move")
    choosers = {position.to_move} if partner else {s for s in range(n) if side_of[s] == side}
    memo: dict[tuple, int] = {}
    searched = 0

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
                and clock.now() > deadline:
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
        gain, won = _trick_taken(cards, side_of[winner], side, margin, points, pips, won)
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


def shared_reply_values(positions: Sequence[Position], weights: Sequence[float], objective: str,
                        model, *, limit: int | None = None, deadline: float | None = None,
                        counted: Callable[[int], None] | None = None
                        ) -> dict[Card, list[int]]:
    """Every legal card's value in each of the worlds ``positions`` (one deal as the seat to
    move might face it: the same play, that seat's hand the same) for that seat's side, when
    every other seat plays ``model``'s card from its own view (the partner's too) and the seat
    to move chooses each of its later cards once for all the worlds it cannot tell apart: those
    in which every card played since was the same.  A card is chosen for its best sum over
    those worlds, weighted by ``weights``: strategy fusion (a card for each world, as if the
    world were open) is left out.  ``limit``, ``deadline`` and ``counted`` as for
    ``reply_values``, a position counted once for each world it is searched in."""
    first = positions[0]
    chooser = first.to_move
    side = first.deal.side_of(chooser)
    n, trump, strict, margin, side_of, game_point, base = _table(first, chooser, side,
                                                                 objective)
    # the worlds told apart by their hands, equal ones weighed together
    unique: dict[tuple, int] = {}
    index: list[int] = []
    weight: list[float] = []
    tables: list[tuple[bytes, bytes]] = []
    settled: list[int] = []
    start_hands: list[tuple[frozenset, ...]] = []
    start_won: list[tuple[int, ...]] = []
    for position, w in zip(positions, weights):
        hands = tuple(frozenset(h) for h in position.hands)
        i = unique.get(hands)
        if i is None:
            i = unique[hands] = len(weight)
            points, pips = card_tables(position.deal, objective)
            sure, won = settled_before(position, side, objective, points, pips)
            weight.append(0.0)
            tables.append((points, pips))
            settled.append(sure)
            start_hands.append(hands)
            start_won.append(tuple(won))
        weight[i] += w
        index.append(i)
    memo: dict[tuple, tuple[int, ...]] = {}
    replies: dict[tuple, Card] = {}
    searched = 0
    left = sum(len(h) for h in first.hands)

    def value(block: tuple[int, ...], leader: int, trick: tuple[Card, ...], won: tuple,
              seen: list, gone: frozenset) -> tuple[int, ...]:
        """The value from here to the end of the deal in each world of ``block`` (the cards
        ``gone`` played since the search began)."""
        nonlocal searched
        if len(gone) == left:
            return tuple(game_point(w) for w in won)
        key = (block, leader, trick, won, gone)
        found = memo.get(key)
        if found is not None:
            return found
        searched += len(block)
        if limit is not None and searched > limit:
            raise Spent(searched)
        if deadline is not None and clock.now() > deadline:
            raise Spent(searched)
        seat = (leader + len(trick)) % n
        if seat == chooser:
            legal = legal_plays(sorted(start_hands[block[0]][seat] - gone), list(trick), trump,
                                strict)
            best, best_sum = None, None
            for card in legal:
                values = after(block, leader, trick, won, seen, gone, seat, card)
                total = sum(weight[w] * v for w, v in zip(block, values))
                if best_sum is None or total > best_sum:
                    best, best_sum = values, total
            assert best is not None     # (a seat to play has a card it may play)
            found = best
        else:
            groups: dict[Card, list[int]] = {}
            for i, w in enumerate(block):
                card = reply(seat, start_hands[w][seat] - gone, leader, trick, seen, gone)
                groups.setdefault(card, []).append(i)
            if len(groups) == 1:
                found = after(block, leader, trick, won, seen, gone, seat, card)
            else:
                parts = [0] * len(block)
                for card, members in groups.items():
                    part = after(tuple(block[i] for i in members), leader, trick,
                                 tuple(won[i] for i in members), seen, gone, seat, card)
                    for i, v in zip(members, part):
                        parts[i] = v
                found = tuple(parts)
        memo[key] = found
        return found

    def reply(seat: int, hand: frozenset, leader: int, trick: tuple[Card, ...], seen: list,
              gone: frozenset) -> Card:
        """``model``'s card for ``seat`` holding ``hand``: the same in every world."""
        key = (seat, hand, leader, trick, gone)
        card = replies.get(key)
        if card is None:
            legal = legal_plays(sorted(hand), list(trick), trump, strict)
            card = legal[0] if len(legal) == 1 else \
                model.act(turn_view(base, seat, hand, seen, legal))
            replies[key] = card
        return card

    def after(block: tuple[int, ...], leader: int, trick: tuple[Card, ...], won: tuple,
              seen: list, gone: frozenset, seat: int, card: Card) -> tuple[int, ...]:
        cards = trick + (card,)
        seen = seen + [(seat, card)]
        gone = gone | {card}
        if len(cards) < n:
            return value(block, leader, cards, won, seen, gone)
        winner = (leader + trick_winner(list(cards), trump)) % n
        gains, later_won = zip(*(_trick_taken(cards, side_of[winner], side, margin, *tables[w],
                                              so_far) for w, so_far in zip(block, won)))
        later = value(block, winner, (), later_won, seen, gone)
        return tuple(g + v for g, v in zip(gains, later))

    everyone = tuple(range(len(weight)))
    current = first.current
    try:
        found = {c: after(everyone, current.leader, tuple(current.cards), tuple(start_won),
                          list(base.play), frozenset(), chooser, c)
                 for c in first.legal_moves()}
    finally:
        if counted is not None:
            counted(searched)
    return {c: [settled[i] + found[c][i] for i in index] for c in found}
