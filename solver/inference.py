"""What the cards the opponents played say about their hands: worlds weighted by the play.

A world (``solver.sampling``) that agrees with every hard fact may still be unlikely: the
opponents chose their cards from the hands it gives them.  Each opponent's card is scored under
a model of how it plays, the heuristic player (``solver.players.HeuristicPlayer``): in the world,
the opponent's observation when it played (its hand then, the play before) is rebuilt and the
heuristic asked; a card the heuristic would play there has likelihood ``1 - SLIP``, any other
``SLIP`` shared among the other legal cards.  A world's play weight is the product over the
opponents' cards of this deal, tempered like the sampler's bidding weights so that no world
weighs more than ``TEMPER`` times another: ``1/TEMPER + (1 - 1/TEMPER) * product``.  A player
that trusts the model fully (``FULL``) takes the heuristic at its word: a slip of
``FULL_SLIP`` and worlds up to ``FULL_TEMPER`` times as likely as others, so that a world where an
opponent would have played another card is all but ruled out.

``resample`` turns many uniformly drawn worlds into fewer weighted ones: it draws ``count``
times with replacement in proportion to (bidding weight x play weight) and gives each world
drawn its number of draws as its weight (importance resampling), so that the engine solves
only the worlds the play makes likely.  The partner's cards (four players) are not scored:
the partner plays like this seat, not like the heuristic.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from .game import Observation, turn_view
from .players import HeuristicPlayer
from .tricks import legal_plays

__all__ = ["play_weight", "resample", "Trust", "TEMPERED", "FULL", "SLIP", "TEMPER"]

#: The chance the model gives to the opponent playing another card than the heuristic's.
SLIP = 0.1
#: No world weighs more than this many times another.
TEMPER = 8.0

#: The same, for a player that trusts the model fully.
FULL_SLIP = 1e-3
FULL_TEMPER = 1e5


@dataclass(frozen=True)
class Trust:
    """How far the model of the opponents is trusted: the chance of a card other than the
    heuristic's, and how many times another world may weigh at most."""

    slip: float
    temper: float

    @property
    def negligible(self) -> float:
        """A likelihood below this leaves the tempered weight at the floor, to a thousandth."""
        return 1e-3 / self.temper


TEMPERED = Trust(SLIP, TEMPER)
FULL = Trust(FULL_SLIP, FULL_TEMPER)

_HEURISTIC = HeuristicPlayer()


def play_weight(observation: Observation, hands: Sequence[Sequence[int]],
                trust: Trust = TEMPERED) -> float:
    """The tempered likelihood of the opponents' cards of this deal in the world ``hands``
    (each seat's cards still held), the model trusted as far as ``trust`` says."""
    n = observation.players
    me = observation.seat
    if not observation.play:
        return 1.0
    held = [list(h) for h in hands]
    for seat, card in observation.play:
        held[seat].append(card)        # the hands as dealt, less nothing yet
    trump = observation.trump
    strict = observation.rules.strict_follow
    likelihood = 1.0
    played: list[tuple[int, int]] = []
    for seat, card in observation.play:
        opponent = (seat % 2 != me % 2) if n == 4 else seat != me
        k = len(played) % n
        trick = [c for _, c in played[len(played) - k:]] if k else []
        if opponent:
            legal = legal_plays(held[seat], trick, trump, strict)
            if len(legal) > 1:
                seen = turn_view(observation, seat, held[seat], played, legal)
                if _HEURISTIC.act(seen) == card:
                    likelihood *= 1.0 - trust.slip
                else:
                    likelihood *= trust.slip / (len(legal) - 1)
                    if likelihood < trust.negligible:
                        break       # the tempered weight is the floor already, or as good
        held[seat].remove(card)
        played.append((seat, card))
    floor = 1.0 / trust.temper
    return floor + (1.0 - floor) * likelihood


def resample(weights: Sequence[float], count: int, rng) -> list[tuple[int, int]]:
    """(index, times drawn) for ``count`` draws with replacement in proportion to ``weights``,
    by index."""
    cumulative = list(itertools.accumulate(weights))
    total = cumulative[-1]
    drawn: dict[int, int] = {}
    for _ in range(count):
        i = bisect.bisect_right(cumulative, rng.random() * total)
        i = min(i, len(weights) - 1)
        drawn[i] = drawn.get(i, 0) + 1
    return sorted(drawn.items())
