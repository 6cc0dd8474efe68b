"""The reference solver: plain exhaustive minimax, slow on purpose, the oracle for the engine.

Every line of play is tried.  The side being solved for maximises, every other seat minimises
(with three players that is one seat against the other two together).  At the end of play the
deal is scored from scratch by ``solver.scoring`` — captures, High, Low, Jack, Game and
five-for-five as the rules count them — so nothing here knows how the engine splits the score.
The only shortcut is a memo keyed by the whole state of play: the cards in each hand, the trick
on the table, its leader, and the cards and tricks each side has won.

Objective ``win`` pegs the finished deal onto the match score with ``solver.pegging.match_after``.
Under ``peg-out`` a side can win the match in the middle of the deal; the order of the captures
then matters, which the state of play does not record, so each time a trick closes the captures
so far are pegged the same way and a side that has reached the target ends the search there.
A state that goes on therefore has no side at the target yet, and its value depends on the
state alone: the memo stays exact.
"""

from __future__ import annotations

from typing import cast

from . import clock
from .cards import Card
from .deal import Position
from .pegging import match_after
from .scoring import score_position
from .solution import Solution, check_objective, resolve_side
from .tricks import legal_plays, trick_winner

__all__ = ["solve", "final_value"]


def final_value(position: Position, side: int, objective: str) -> int:
    """The value for ``side`` of a position whose play is over."""
    if objective == "win":
        match = match_after(position)
        assert match is not None  # check_objective refuses a deal without a score
        return int(side in match.winners)
    if objective == "tricks":
        return sum(1 for t in position.completed
                   if position.deal.side_of(cast(int, t.winner)) == side)
    totals = score_position(position).totals()
    if objective == "margin":
        return totals[side] - totals[1 - side]
    return totals[side]


class _Search:
    def __init__(self, position: Position, side: int, objective: str) -> None:
        self.deal = position.deal
        self.side = side
        self.objective = objective
        self.memo: dict[tuple, int] = {}
        self.nodes = 0
        self.peg_out = objective == "win" and self.deal.rules.finish == "peg-out"

    def won_already(self, play: tuple[Card, ...]) -> int | None:
        """Under peg-out, at a trick's start: 1 or 0 if the captures so far have taken a side
        out (X or another), else None."""
        match = match_after(Position(self.deal, play))
        assert match is not None
        if not match.winners:
            return None
        return int(self.side in match.winners)

    def value(self, play: tuple[Card, ...], hands: tuple[frozenset, ...], trick: tuple[Card, ...],
              leader: int, won: tuple[frozenset, ...], counts: tuple[int, ...]) -> int:
        key = (hands, trick, leader, won, counts)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        deal = self.deal
        n = deal.players
        if not any(hands):
            result = final_value(Position(deal, play), self.side, self.objective)
        elif self.peg_out and play and not trick and (decided := self.won_already(play)) is not None:
            result = decided
        else:
            seat = (leader + len(trick)) % n
            values = [self.value(*self.child(play, hands, trick, leader, won, counts, card))
                      for card in legal_plays(sorted(hands[seat]), trick, deal.trump,
                                              deal.rules.strict_follow)]
            result = max(values) if deal.side_of(seat) == self.side else min(values)
        self.memo[key] = result
        return result

    def child(self, play, hands, trick, leader, won, counts, card):
        deal = self.deal
        n = deal.players
        seat = (leader + len(trick)) % n
        hands = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
        trick = trick + (card,)
        if len(trick) == n:
            winner = (leader + trick_winner(trick, deal.trump)) % n
            side = deal.side_of(winner)
            won = tuple(w | set(trick) if i == side else w for i, w in enumerate(won))
            counts = tuple(c + (i == side) for i, c in enumerate(counts))
            trick, leader = (), winner
        return play + (card,), hands, trick, leader, won, counts


def _state(position: Position) -> tuple[tuple[Card, ...], tuple[frozenset, ...],
                                         tuple[Card, ...], int, tuple[frozenset, ...],
                                         tuple[int, ...]]:
    deal = position.deal
    won = tuple(frozenset(w) for w in position.won_cards())
    counts = [0] * deal.sides
    for t in position.completed:
        assert t.winner is not None
        counts[deal.side_of(t.winner)] += 1
    cur = position.current
    return (position.play, tuple(frozenset(h) for h in position.hands), cur.cards, cur.leader,
            won, tuple(counts))


def solve(position: Position, side: int | None = None, objective: str = "points") -> Solution:
    """Value, the value of every legal card, and one optimal line, by trying everything."""
    start = clock.now()
    check_objective(objective, position)
    side = resolve_side(position, side)
    search = _Search(position, side, objective)
    state = _state(position)
    value = search.value(*state)
    moves: dict[Card, int] = {}
    line: list[Card] = []
    while any(state[1]):
        children = {card: search.child(*state, card)
                    for card in legal_plays(sorted(state[1][(state[3] + len(state[2]))
                                                            % position.deal.players]),
                                            state[2], position.deal.trump,
                                            position.deal.rules.strict_follow)}
        child_values = {card: search.value(*c) for card, c in children.items()}
        if not line:
            moves = child_values
        card = next(c for c, v in child_values.items() if v == value)
        line.append(card)
        state = children[card]
    return Solution(value=value, side=side, objective=objective, moves=moves, line=tuple(line),
                    nodes=search.nodes, seconds=clock.now() - start,
                    lower=value, upper=value)
