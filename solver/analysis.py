"""Reading a deal's play: an optimal line trick by trick, and the cards of a played hand judged
one by one against double-dummy play (the end-of-deal points are ``scoring.end_points``).

Nothing here searches by itself: ``analyze_play`` takes any ``solve(position, side=...,
objective=...)`` (the engine's or the reference solver's) and asks it about the position before
each card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .cards import Card
from .deal import Position
from .scoring import capture_points, score_position
from .solution import Solution, Solve

__all__ = ["TrickPlayed", "play_out", "CardPlayed", "analyze_play",
           "judge_for_match", "given_away", "unjudged", "in_part", "cost_of", "judge_card"]


# ---- a line, trick by trick ---------------------------------------------------------------------


@dataclass(frozen=True)
class TrickPlayed:
    """One trick of a line: who led, the cards in order, who won and what the winner pegged."""

    number: int                 # 1 for the first trick of the deal
    leader: int
    cards: tuple[Card, ...]
    #: How many of ``cards`` were already on the table when the line began.
    earlier: int
    winner: int | None          # None if the line stops before the trick is complete
    pegged: int
    #: Each side's captures so far in the deal, this trick included.
    totals: tuple[int, ...]


def play_out(position: Position, line: Sequence[Card]) -> list[TrickPlayed]:
    """The tricks that ``line`` plays from ``position``: the trick under way (with the cards
    already on the table) and every trick after it."""
    deal = position.deal
    totals = list(score_position(position).captures)
    done = len(position.completed)
    after = position.after(*line)
    out = []
    for number, trick in enumerate(after.tricks[done:], done + 1):
        earlier = len(position.current.cards) if number == done + 1 else 0
        pegged = 0
        if trick.winner is not None:
            pegged = capture_points(trick, deal)
            totals[deal.side_of(trick.winner)] += pegged
        out.append(TrickPlayed(number, trick.leader, trick.cards, earlier, trick.winner, pegged,
                               tuple(totals)))
    return out


# ---- a played hand, card by card ----------------------------------------------------------------

def cost_of(solution: Solution, card: Card, mover_side: int) -> int | None:
    """What playing ``card`` costs the seat to move, by ``solution`` (solved for any side):
    how much worse its value is than the best card's, from the mover's side of the table.
    None when the solution does not know the card's value or the best (a limit stopped the
    search before its value was proved)."""
    if card not in solution.moves or not solution.proved:
        return None
    value = solution.moves[card]
    if solution.side == mover_side:
        return solution.value - value
    return value - solution.value


@dataclass(frozen=True)
class CardPlayed:
    """One card of a played hand, judged double-dummy for the side of the seat that played it.

    A node or time limit may stop the solve before the card is judged (``complete`` False):
    ``before`` is then None and only its bounds ``lower`` .. ``upper`` are known, ``after`` is
    the card's value if the search finished it (else None), ``best`` is empty, ``cost`` and
    ``mistake`` are None, and ``every_card`` is False; but where the card's value is below
    ``lower`` it is a mistake all the same, its cost at least ``least_cost`` (``in_part``).  A
    limit may also stop it once ``before`` is proved and the card's own value found, but not
    every other card's: the card is judged, and ``best`` holds the cards valued that keep
    ``before`` (``every_card`` False).
    """

    index: int                  # its place in the play, from 0
    trick: int                  # 1 for the first trick
    seat: int
    side: int
    card: Card
    #: The best the side could be sure of before the card, and what it is sure of after it
    #: (None where a limit left them unknown).
    before: int | None
    after: int | None
    #: The cards that would have kept ``before``.
    best: tuple[Card, ...]
    nodes: int = 0
    seconds: float = 0.0
    #: Bounds on the best the side could be sure of before the card: both ``before`` when the
    #: card is judged.
    lower: int | None = None
    upper: int | None = None
    #: Whether every legal card was valued, so that ``best`` is all the best cards.
    every_card: bool = True

    @property
    def complete(self) -> bool:
        """Whether the card is judged: its ``before`` and ``after`` both known."""
        return self.before is not None and self.after is not None

    @property
    def cost(self) -> int | None:
        if self.before is None or self.after is None:
            return None
        return self.before - self.after

    @property
    def least_cost(self) -> int | None:
        """The cost where it is known, else the least it can be where that shows a mistake: a
        card whose own value was found, below the least the side could be sure of before it
        (``lower - after``, over 0); None where nothing shows a mistake."""
        if self.cost is not None:
            return self.cost
        if self.after is None or self.lower is None or self.lower <= self.after:
            return None
        return self.lower - self.after

    @property
    def in_part(self) -> bool:
        """Whether the card is a mistake whose cost a limit left known only in part (at least
        ``least_cost``)."""
        return self.cost is None and self.least_cost is not None

    @property
    def mistake(self) -> bool | None:
        """Whether the card gave something away; None where a limit left that unknown."""
        cost = self.least_cost
        return None if cost is None else cost > 0


def values_found(before: Position, solution: Solution) -> bool:
    """Whether ``solution`` holds all a judgement needs: the position's value and every legal
    card's.  A limit may stop the engine after these were found, while it writes out the line
    (the solution is then not ``complete``, but its bounds meet)."""
    if solution.complete:
        return True
    return solution.lower == solution.upper and \
        all(card in solution.moves for card in before.legal_moves())


def judge_card(before: Position, index: int, card: Card, solution: Solution) -> CardPlayed:
    """``card``, played from ``before``, judged by ``solution`` (solved for the mover's side);
    a solution a limit cut short leaves the card unjudged, with the bounds it reached."""
    side = solution.side
    trick = len(before.completed) + 1
    if not values_found(before, solution):
        if solution.proved and card in solution.moves:  # its cost known, if not every card's
            return CardPlayed(index, trick, before.to_move, side, card, solution.value,
                              solution.moves[card], tuple(solution.best_moves()),
                              solution.nodes, solution.seconds, solution.value, solution.value,
                              every_card=False)
        return CardPlayed(index, trick, before.to_move, side, card, None,
                          solution.moves.get(card), (), solution.nodes, solution.seconds,
                          solution.lower, solution.upper, every_card=False)
    if card not in solution.moves:
        raise RuntimeError(f"play[{index}]: the solver gave no value for the card played")
    return CardPlayed(index, trick, before.to_move, side, card, solution.value,
                      solution.moves[card], tuple(solution.best_moves()), solution.nodes,
                      solution.seconds, solution.value, solution.value)


def judge_for_match(before: Position, index: int, card: Card,
                    solutions: Sequence[Solution]) -> CardPlayed:
    """``card``, played from ``before``, judged by the match: ``solutions`` are the position
    solved with objective ``win`` for every side, and a card is worth 1 to the mover's side if
    that side can then be sure of winning the match, -1 if another side can, else 0.  Where a
    limit cut any solution short the card is left unjudged (its bounds the widest, -1 .. 1)."""
    side = before.deal.side_of(before.to_move)
    trick = len(before.completed) + 1
    nodes = sum(s.nodes for s in solutions)
    seconds = sum(s.seconds for s in solutions)
    if not all(values_found(before, s) for s in solutions):
        return CardPlayed(index, trick, before.to_move, side, card, None, None, (), nodes,
                          seconds, -1, 1)
    own = solutions[side].moves
    values = {c: own[c] - max(s.moves[c] for i, s in enumerate(solutions) if i != side)
              for c in own}
    best = max(values.values())
    return CardPlayed(index, trick, before.to_move, side, card, best, values[card],
                      tuple(c for c, v in values.items() if v == best), nodes, seconds,
                      best, best)


def analyze_play(position: Position, solve: Solve, objective: str = "points",
                 progress: Callable[[int, int], None] | None = None) -> list[CardPlayed]:
    """Every card of ``position.play`` judged by ``solve`` for the side that played it: the
    position before the card is solved for that side, and the card's value is compared with the
    best.  ``solve`` may carry a node or time limit (``functools.partial``); a card whose solve
    the limit stopped is left unjudged (``CardPlayed.complete`` False).  ``progress(done,
    total)`` is called after each card."""
    deal = position.deal
    out = []
    total = len(position.play)
    for index, card in enumerate(position.play):
        before = deal.position(position.play[:index])
        solution = solve(before, side=deal.side_of(before.to_move), objective=objective)
        out.append(judge_card(before, index, card, solution))
        if progress is not None:
            progress(index + 1, total)
    return out


def unjudged(plays: Sequence[CardPlayed]) -> int:
    """How many of ``plays`` a limit left unjudged: not known to be a mistake or not."""
    return sum(1 for play in plays if play.mistake is None)


def in_part(plays: Sequence[CardPlayed]) -> int:
    """How many of ``plays`` are mistakes whose cost a limit left known only in part."""
    return sum(1 for play in plays if play.in_part)


def given_away(plays: Sequence[CardPlayed], sides: int) -> tuple[int, ...]:
    """The total cost of each side's judged cards, a mistake known only in part counting the
    least it cost (a card a limit left unjudged counts nothing)."""
    totals = [0] * sides
    for play in plays:
        totals[play.side] += play.least_cost or 0
    return tuple(totals)
