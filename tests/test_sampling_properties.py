"""The world sampler over many real games (slow): 100,000 sampled worlds across every rule set
and player count, each replayed through the match engine, and the true world always among the
worlds enumerated.  Run with ``pytest -m slow tests/test_sampling_properties.py``."""

from __future__ import annotations

import random

import pytest

from solver.sampling import count_worlds, sample_worlds

from test_sampling import CASES, games, replays

pytestmark = pytest.mark.slow

WORLDS = 100_000


def test_a_hundred_thousand_worlds_replay_as_the_game():
    rng = random.Random(100_000)
    per_case = WORLDS // len(CASES) + 1
    drawn = enumerated = 0
    for players, rules in CASES:
        in_case = 0
        seed = 1000
        while in_case < per_case:
            for obs, truth, state, actions, start in games(players, rules, [seed],
                                                           revokes=0.03, every=3):
                worlds = sample_worlds(obs, 12, rng, bidding=True)
                for world in worlds:
                    assert replays(obs, world.hands, actions, start), (obs, world)
                in_case += len(worlds)
                if worlds.exact:
                    assert tuple(map(tuple, truth)) in {w.hands for w in worlds}
                    enumerated += 1
                elif count_worlds(obs) <= 2000:
                    every = sample_worlds(obs, 2000, rng)
                    assert every.exact and tuple(map(tuple, truth)) in {w.hands for w in every}
                    enumerated += 1
            seed += 1
        drawn += in_case
    assert drawn >= WORLDS and enumerated > 1000
