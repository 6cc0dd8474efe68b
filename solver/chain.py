"""Worlds read from the play by a Markov chain over the hidden cards.

Play inference (``solver.inference``) weighs worlds drawn independently and resamples them:
when the model of the opponents is trusted fully, few of many worlds drawn agree with every
card they played, and a decision is made over a handful of distinct worlds drawn many times.
``chain_worlds`` walks from one likely world instead (Metropolis): each step swaps one card
between two of the places the observer cannot see (another seat's hand, or the pack not
dealt), keeps every hard fact (a seat is not given a card of a suit it has shown void in;
hand sizes stay), and is taken with the chance ``min(1, w' / w)``, ``w`` being the world's
weight (the calls' and the play's).  A swap is as likely as its reverse, so the chain's worlds
come in proportion to the weight, and every ``thin``-th one, after ``burn`` steps, is kept.
Worlds a swap away from each other are alike, so the worlds kept are correlated; they are
many distinct ones where independent draws would give a few.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .cards import Card, sort_cards, suit_of
from .sampling import Clock, Constraints

__all__ = ["chain_worlds"]


def chain_worlds(c: Constraints, start: Sequence[Sequence[Card]], count: int,
                 weight: Callable[[Sequence[Sequence[Card]]], float], rng: random.Random,
                 thin: int = 4, burn: int | None = None, clock: Clock | None = None
                 ) -> list[tuple[tuple[Card, ...], ...]]:
    """``count`` worlds (each seat's hand, sorted) walked from ``start`` (a world that agrees
    with ``c``), every ``thin``-th step after ``burn`` (default ``count * thin // 4``), in
    proportion to ``weight`` (see the module notes); fewer where the ``clock`` (a
    ``sampling.Clock``) says the time is up."""
    if not c.agrees(start):
        raise ValueError("the chain starts from a world that does not agree with the "
                         "observation")
    places: list[list[Card]] = [list(h) for h in start]
    held = {card for seat, hand in enumerate(start) if seat != c.seat for card in hand}
    places.append([card for card in c.unseen if card not in held])     # the pack not dealt
    hidden = [p for p in range(len(places)) if p != c.seat]
    voids = list(c.voids) + [frozenset()]
    holds = list(c.holds) + [frozenset()]
    current = weight(places[:-1])
    burn = count * thin // 4 if burn is None else burn
    out: list[tuple[tuple[Card, ...], ...]] = []
    steps = burn + count * thin
    for step in range(1, steps + 1):
        if clock is not None and step % clock.EVERY == 0 and clock.past():
            if step < burn:
                burn = step         # the time is up: no more burn-in
            elif len(out) >= clock.least:
                break
        a, b = rng.sample(hidden, 2)
        if places[a] and places[b]:
            i, j = rng.randrange(len(places[a])), rng.randrange(len(places[b]))
            x, y = places[a][i], places[b][j]
            if suit_of(y) not in voids[a] and suit_of(x) not in voids[b]:
                places[a][i], places[b][j] = y, x
                proposed = weight(places[:-1]) if _holds(places, holds, a, b) else 0.0
                if proposed >= current or rng.random() * current < proposed:
                    current = proposed
                else:
                    places[a][i], places[b][j] = x, y
        if step > burn and (step - burn) % thin == 0:
            out.append(tuple(tuple(sort_cards(h)) for h in places[:-1]))
            if len(out) == count:       # (the burn-in cut short: the walk has steps to spare)
                break
    return out


def _holds(places: list[list[Card]], holds: list[frozenset[int]], *changed: int) -> bool:
    """Whether the places changed still hold a card of each suit a revoke says they must."""
    return all(holds[p] <= {suit_of(card) for card in places[p]} for p in changed if holds[p])
