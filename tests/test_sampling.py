"""The world sampler (solver.sampling) against real games: every world it draws is a deal the
game's own rules accept, the true deal is among those it enumerates, and a world's position is
the game's."""

from __future__ import annotations

import random

import pytest

from solver.cards import ALL_CARDS, sort_cards
from solver.deal import Deal, Position
from solver.game import PLAY, Match
from solver.players import decide, make_player
from solver.rules import PRESETS, Rules
from solver.sampling import SamplingError, World, constraints, count_worlds, sample_worlds, \
    world_position


def observations(players: int, rules: Rules, seeds, every: int = 1):
    """(observation, true hands, state phase, position or None) at points of real games played
    by a mix of random and heuristic players."""
    for seed in seeds:
        state = Match(players, rules).new_initial_state(seed)
        seats = [make_player("heuristic" if (seed + i) % 2 else "random", seed=seed * 7 + i)
                 for i in range(players)]
        step = 0
        while not state.is_terminal() and step < 120:
            if step % every == 0:
                for seat in range(players):
                    yield state.observation(seat), state.hands, state
            state.apply_action(decide(seats[state.current_player()], state))
            step += 1


def replays(obs, hands) -> bool:
    """An independent check of a world: the deal it makes (each seat's cards played and held)
    is a deal, the observer's hand is its own, no turn-up is in a hand, and the play so far
    replays by the follow rule (solver.deal.Position)."""
    if sort_cards(hands[obs.seat]) != list(obs.hand):
        return False
    dealt = [list(h) for h in hands]
    for seat, card in obs.play:
        dealt[seat].append(card)
    if any(t in h for t in obs.turnups for h in dealt):
        return False
    if obs.trump is None:
        cards = [c for h in dealt for c in h]
        return len(set(cards)) == len(cards) and len({len(h) for h in dealt}) == 1
    try:
        Position(Deal(tuple(map(tuple, dealt)), obs.trump, obs.dealer, obs.rules),
                 tuple(c for _, c in obs.play))
    except Exception:
        return False
    return True


CASES = [(n, preset) for n in (2, 3, 4) for preset in PRESETS]


@pytest.mark.parametrize("players,preset", CASES)
def test_worlds_agree_with_the_observation(players, preset):
    rng = random.Random(f"{players}{preset}")
    drawn = 0
    for obs, truth, state in observations(players, Rules.preset(preset), range(1), every=4):
        if obs.revokes:
            continue
        worlds = sample_worlds(obs, 8, rng)
        assert len(worlds) == 8 or worlds.exact
        for world in worlds:
            assert replays(obs, world.hands), world
            drawn += 1
        assert replays(obs, truth)
    assert drawn > 100


@pytest.mark.parametrize("players,preset", CASES)
def test_the_true_world_is_among_those_enumerated(players, preset):
    enumerated = 0
    for obs, truth, state in observations(players, Rules.preset(preset), range(2), every=2):
        if count_worlds(obs) > 500:
            continue
        worlds = sample_worlds(obs, 500, random.Random(0))
        if worlds.exact:
            enumerated += 1
            hands = {w.hands for w in worlds}
            assert len(hands) == len(worlds) == worlds.total == count_worlds(obs)
            assert tuple(map(tuple, truth)) in hands
    assert enumerated > 10


@pytest.mark.parametrize("players,preset", CASES)
def test_the_true_world_is_the_games_position(players, preset):
    positions = 0
    for obs, truth, state in observations(players, Rules.preset(preset), range(3), every=2):
        if state.phase == PLAY and not obs.revokes:
            assert world_position(obs, World(truth)) == state.position()
            positions += 1
    assert positions > 20


def test_sampling_is_seeded():
    obs = Match(4).new_initial_state(5).observation(2)
    first = sample_worlds(obs, 20, random.Random(9))
    again = sample_worlds(obs, 20, random.Random(9))
    other = sample_worlds(obs, 20, random.Random(10))
    assert first == again and first != other
    assert len({w.hands for w in first}) == 20        # drawn without replacement


def test_call_phase_worlds_are_six_card_hands():
    state = Match(3).new_initial_state(2)
    obs = state.observation(state.current_player())
    assert obs.phase == "elder"
    for world in sample_worlds(obs, 10, random.Random(1)):
        assert [len(h) for h in world.hands] == [6, 6, 6]
    with pytest.raises(SamplingError):
        world_position(obs, sample_worlds(obs, 1, random.Random(1))[0])


def test_unseen_cards_and_sizes():
    state = Match(2).new_initial_state(4)
    obs = state.observation(0)
    c = constraints(obs)
    assert set(c.unseen) == set(ALL_CARDS) - set(obs.hand) - set(obs.turnups)
    assert c.sizes == (6, 6) and c.undealt == 52 - 12 - 1
