"""The Markov chain over the hidden cards (``solver.chain``): every world it walks to agrees
with the observation's hard facts, and its worlds come in proportion to the weight it is
given.  Oracle: the exact enumeration of every consistent world (``Sampler.every``), each
world's share of the weight summed over them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from solver.chain import chain_worlds
from solver.pimc import PimcPlayer
from solver.players import PlayerError
from solver.rules import Rules
from solver.sampling import constraints, sample_worlds
from test_sampling import CASES, case_id, games, void_cases


def arbitrary(hands) -> float:
    """A weight that differs from world to world, from 0.05 to 1."""
    return 0.05 + (hash(tuple(tuple(sorted(h)) for h in hands)) % 1000) / 1052


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_world_walked_to_agrees_with_the_observation(case):
    players, rules = case
    rng = random.Random(case_id(case))
    walked = 0
    for obs, truth, *_ in games(players, rules, range(2), every=3):
        if obs.revokes or not obs.legal_actions:
            continue
        c = constraints(obs)
        start = [tuple(h) for h in truth]
        for hands in chain_worlds(c, start, 20, arbitrary, rng, thin=2):
            assert c.agrees(hands)
            walked += 1
    assert walked > 100


def test_the_chain_starts_only_from_a_world_that_agrees():
    obs = next(o for o, *_ in games(4, Rules(), [3]))
    c = constraints(obs)
    world = sample_worlds(obs, 1, random.Random(1))[0]
    bad = list(world.hands)
    bad[(c.seat + 1) % 4] = bad[(c.seat + 1) % 4][:-1]
    with pytest.raises(ValueError, match="does not agree"):
        chain_worlds(c, bad, 4, arbitrary, random.Random(1))


def test_the_worlds_come_in_proportion_to_the_weight():
    # small observations of real games, voids and revokes among them: the chain's share of
    # each world against its share of the weight over every consistent world
    rng = random.Random(2026)
    for obs, sampler in void_cases():
        every = list(sampler.every())
        total = sum(arbitrary(h) for h in every)
        target = {h: arbitrary(h) / total for h in every}
        walked = chain_worlds(sampler.c, every[0], 40_000, arbitrary, rng, thin=2)
        counts = Counter(walked)
        assert set(counts) <= set(target)
        distance = sum(abs(counts[h] / len(walked) - p) for h, p in target.items()) / 2
        assert distance < 0.05, (len(every), distance)


def test_a_chain_out_of_time_ends_its_burn_in_and_keeps_the_least_asked_for():
    import time

    from solver.sampling import Clock

    obs, sampler = next(void_cases())
    start = next(sampler.every())
    clock = Clock(time.perf_counter() - 1, 16)
    walked = chain_worlds(sampler.c, start, 4000, arbitrary, random.Random(1), thin=64,
                          clock=clock)
    assert len(walked) == 16
    assert len(chain_worlds(sampler.c, start, 40, arbitrary, random.Random(1), thin=2,
                            clock=Clock(None, 16))) == 40
    # no more than asked for, where that is fewer than the least (the burn-in cut short left
    # the walk steps to spare: 9 worlds of 8, 17 of 16)
    for count, thin in ((8, 100), (16, 8), (12, 16)):
        assert len(chain_worlds(sampler.c, start, count, arbitrary, random.Random(1),
                                thin=thin, clock=Clock(time.perf_counter() - 1, 16))) == count


class Steps(random.Random):
    """A seeded generator that counts the chain's steps (one pair of places drawn a step)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.steps = 0

    def sample(self, population, k, **options):
        self.steps += 1
        return super().sample(population, k, **options)


def test_a_chain_burns_in_a_quarter_of_its_walk_then_keeps_every_thin_th_world():
    """By default ``thin`` 4 and a burn-in of ``count * thin // 4`` steps: 8 worlds take 8 +
    8 * 4 steps; the first is kept at step ``burn + thin``."""
    obs, sampler = next(void_cases())
    start = next(sampler.every())
    for thin, burn, count in ((None, None, 8), (3, 5, 7), (1, 0, 5)):
        rng = Steps(1)
        options = {} if thin is None else {"thin": thin, "burn": burn}
        walked = chain_worlds(sampler.c, start, count, arbitrary, rng, **options)
        thin, burn = (4, 8) if thin is None else (thin, burn)
        assert len(walked) == count and rng.steps == burn + count * thin


class Past:
    """A ``sampling.Clock`` whose time is up from its ``at``-th look on."""
    EVERY = 4

    def __init__(self, at: int, least: int) -> None:
        self.at, self.least, self.looks = at, least, 0

    def past(self) -> bool:
        self.looks += 1
        return self.looks >= self.at


def test_a_chain_out_of_time_looks_at_its_clock_every_so_many_steps():
    """The clock read at every ``EVERY``-th step: out of time at the first look (step 4), the
    burn-in ends there; then a world every ``thin`` steps (8 and 12) until ``least`` are kept,
    and the walk ends at the next look (step 16)."""
    obs, sampler = next(void_cases())
    start = next(sampler.every())
    rng = Steps(1)
    clock = Past(1, 2)
    walked = chain_worlds(sampler.c, start, 8, arbitrary, rng, clock=clock)
    assert len(walked) == 2 and rng.steps == 15 and clock.looks == 4


def test_a_place_holding_just_the_suits_a_revoke_says_it_must_still_holds_them():
    from solver.cards import parse_cards, suit_of
    from solver.chain import _holds

    hearts, mixed = parse_cards("2H 9H"), parse_cards("2H 3C")
    holds = [frozenset({suit_of(hearts[0])}), frozenset()]
    assert _holds([hearts, mixed], holds, 0, 1) and _holds([mixed, hearts], holds, 0)
    assert not _holds([parse_cards("3C 4C"), hearts], holds, 0, 1)


def test_a_chain_is_an_option_of_play_inference():
    with pytest.raises(PlayerError, match="chain: only with infer"):
        PimcPlayer(chain=4, infer=False)
    with pytest.raises(PlayerError, match="chain: 65 is not a whole number from 0 to 64"):
        PimcPlayer(chain=65)
    player = PimcPlayer(seed=1, trust="full", draws=2, chain=4, time_limit=None,
                        node_limit=200_000)
    for obs, *_ in games(4, Rules(), [5], every=2):
        if obs.phase == "play" and len(obs.play) >= 6 and len(obs.legal_actions) > 1:
            advice = player.advise(obs)
            assert advice.worlds >= 1 and advice.best in obs.legal_actions
            break
    else:
        raise AssertionError("no decision found")
