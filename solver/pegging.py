"""Pegging a deal's points onto the match score, in the order the rules peg them (README, "Rule sets").

Captures are pegged trick by trick, then High, Low, Jack, Game and five-for-five.  With the
``peg-out`` finish the first side to reach the target wins at once, even in the middle of a
deal; with ``hand-end`` the totals are compared after the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .deal import Position
from .scoring import capture_points, end_points

__all__ = ["Peg", "pegs", "MatchAfter", "match_after", "pegged_out", "is_double", "SKUNK_LINE"]

#: A side that wins before the loser reaches this wins a double game (option ``skunk``).
SKUNK_LINE = 31


@dataclass(frozen=True)
class Peg:
    side: int
    points: int
    #: ``"trick 3"`` for a capture, else the end point: ``"high"``, ``"low"``, ``"jack"``,
    #: ``"game"``, ``"five"``.
    what: str


def pegs(position: Position) -> list[Peg]:
    """The points of a position's completed tricks and settled end points, in pegging order.
    Points scored before play (take one, a turned-up Jack) are not part of a position."""
    deal = position.deal
    out = []
    for number, trick in enumerate(position.completed, 1):
        points = capture_points(trick, deal)
        if points:
            assert trick.winner is not None
            out.append(Peg(deal.side_of(trick.winner), points, f"trick {number}"))
    if position.is_over:
        out += [Peg(p.side, p.points, p.name) for p in end_points(position)
                if p.side is not None]
    return out


@dataclass(frozen=True)
class MatchAfter:
    """The match score before and after a deal, and who (if anyone) wins the match with it."""

    target: int
    before: tuple[int, ...]
    after: tuple[int, ...]
    #: The sides that win the match on this deal: one, several sharing a hand-end win, or none.
    winners: tuple[int, ...] = ()
    #: With peg-out, the peg that took the winner out (``"trick 4"``, ``"game"``).
    when: str | None = None
    #: A double game (option ``skunk``): the loser had not reached 31.
    double: bool = False


def match_after(position: Position) -> MatchAfter | None:
    """The match after a position's points are pegged; None when the deal carries no score."""
    deal = position.deal
    if deal.score is None:
        return None
    rules = deal.rules
    target = rules.target
    before = tuple(deal.score)
    running = list(before)
    order = pegs(position)
    for peg in order:
        running[peg.side] += peg.points
    after = tuple(running)
    winners: tuple[int, ...] = ()
    when = None
    at_win = after
    if rules.finish == "peg-out":
        running = list(before)
        for peg in order:
            running[peg.side] += peg.points
            if running[peg.side] >= target:
                winners, when, at_win = (peg.side,), peg.what, tuple(running)
                break
    else:
        reached = [points for points in after if points >= target]
        if reached:
            top = max(reached)
            winners = tuple(s for s, points in enumerate(after) if points == top)
    return MatchAfter(target, before, after, winners, when,
                      is_double(rules.skunk, winners, at_win))


def is_double(skunk: bool, winners: Sequence[int], score: Sequence[int]) -> bool:
    """Under ``skunk``, whether the game the ``winners`` won at ``score`` is a double: every
    side that lost it (there is one at least: a win that every side shares is none) had not
    reached ``SKUNK_LINE``."""
    losers = [points for side, points in enumerate(score) if side not in winners]
    return bool(skunk and winners and losers and all(p < SKUNK_LINE for p in losers))


def pegged_out(position: Position) -> tuple[int, int] | None:
    """Under ``peg-out``, the side whose captures took it to the target in a completed trick of
    the position, and that trick's number (the match ended there); else None (no score, or
    nobody out)."""
    after = match_after(position)
    if after is None or not after.winners or not (after.when or "").startswith("trick "):
        return None
    assert after.when is not None
    return after.winners[0], int(after.when.split()[1])
