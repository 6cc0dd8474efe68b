"""The world sampler (solver.sampling) at its edges: what it refuses, where it turns from one
way of drawing to another, what it gives back, and its weights' arguments.  Each case here is
one that the sampler could get wrong (an operator or a constant changed, a check left out)
while every test in ``test_sampling.py`` still passed."""

from __future__ import annotations

import dataclasses
import inspect
import math
import random
import time
from dataclasses import replace

import pytest

from solver import sampling
from solver.cards import ALL_CARDS, make_card, parse_cards
from solver.game import STAND, Observation
from solver.rules import Rules
from solver.sampling import Clock, Constraints, Sampler, SamplingError, World, Worlds, \
    bidding_weight, call_weigher, constraints, count_worlds, sample_worlds, world_position, \
    world_positions
from solver.seen import read_seen
from solver.tricks import SeatError
from test_sampling import STRICT, observation

S, H, D, C = range(4)
NONE4 = (frozenset(),) * 4


def one_card_each(players: int) -> Observation:
    """N holds the ace of spades, every other seat one hidden card: 51 worlds at two players,
    51 * 50 = 2,550 at three."""
    return read_seen("N:A.-.-.- " + " ".join(["-"] * (players - 1)) + " trump=S").observation()


# ---- what the sampler gives back ---------------------------------------------------------------


def test_worlds_and_constraints_are_frozen_values():
    obs = one_card_each(2)
    worlds = sample_worlds(obs, 3, random.Random(1))
    c = constraints(obs)
    for value, field in ((worlds[0], "weight"), (worlds, "exact"), (c, "seat")):
        assert hash(value) == hash(replace(value))
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)
    assert len({worlds, sample_worlds(obs, 3, random.Random(1))}) == 1


def stood() -> Observation:
    """Two players; N stood on hearts proposed, and S (seat 1, the observer) sees it."""
    return Observation(
        seat=1, players=2, rules=Rules(), best_of=1, phase="play", current_player=0, game=1,
        deal=1, dealer=1, score=(0, 0), games_won=(0, 0),
        hand=tuple(parse_cards("2S 3S 4S 6S 7S 8S")), turnups=(make_card(H, 0),), trump=H,
        calls=((0, STAND),), play=(), revokes=(), pegs=(), legal_actions=())


WEAK = tuple(parse_cards("2D 3D 4D 6D 7D 8D"))      # no heart: no six of it stand
STRONG = tuple(parse_cards("AH KH 4D 6D 7D 8D"))    # every six stand


def test_the_weights_and_the_call_weigher_are_those_of_bidding_weight():
    obs = stood()
    worlds = sample_worlds(obs, 200, random.Random(2), bidding=True)
    assert worlds.weights == tuple(w.weight for w in worlds)
    assert worlds.weights == tuple(bidding_weight(obs, w) for w in worlds)
    assert set(worlds.weights) == {1 / 8, 1.0}
    weigh = call_weigher(obs)
    assert [weigh(w.hands) for w in worlds] == list(worlds.weights)
    assert sample_worlds(obs, 5, random.Random(2)).weights == (1.0,) * 5
    assert call_weigher(obs, 2)((WEAK, obs.hand)) == 0.5
    assert call_weigher(obs, 2)((STRONG, obs.hand)) == 1.0


def test_a_temper_from_1_up_is_taken_and_below_1_refused():
    obs = stood()
    weak, strong = World((WEAK, obs.hand)), World((STRONG, obs.hand))
    assert bidding_weight(obs, weak, 1) == bidding_weight(obs, strong, 1) == 1.0
    assert bidding_weight(obs, weak, 1.5) == 1 / 1.5
    assert set(sample_worlds(obs, 20, random.Random(3), bidding=True, temper=1).weights) == {1.0}
    for temper in (0.5, 0, -8, math.nan):
        with pytest.raises(SamplingError, match=f"^temper {temper!r} is not a number from 1 up"):
            bidding_weight(obs, weak, temper)


# ---- what a world must agree with ------------------------------------------------------------


def test_agrees_checks_the_observer_s_hand_each_void_and_each_suit_owed():
    """S played a club to N's ace of spades: a void under strict, a card still owed where that
    club was a revoke.  Each world is N's hand and one hidden hand of five."""
    void = constraints(observation("AS KC", STRICT))
    owed = constraints(observation("AS KC", STRICT, revokes=(1,)))
    assert void.voids[1] == {S} and owed.holds[1] == {S} and void.sizes == (5, 5)
    mine = void.hand
    hearts = tuple(parse_cards("AH KH QH JH TH"))
    with_spade = tuple(parse_cards("KS KH QH JH TH"))
    assert void.agrees([mine, hearts]) is True and owed.agrees([mine, with_spade]) is True
    assert void.agrees([mine, with_spade]) is False          # a void broken
    assert owed.agrees([mine, hearts]) is False              # the suit owed not held
    assert void.agrees([hearts, mine]) is False              # the observer's hand changed
    assert void.agrees([mine, hearts, ()]) is False          # a hand too many
    assert void.agrees([mine, hearts[:4]]) is False          # a hand too short
    assert void.agrees([mine, (*hearts[:4], mine[0])]) is False   # a card that is not unseen


def test_a_hidden_hand_may_take_every_unseen_card():
    full = read_seen("N:AKQJT98765432.AKQJT98765432.-.- - trump=S").observation()
    c = constraints(full)
    assert c.agrees([c.hand, c.unseen]) is True


def test_a_table_of_five_has_no_constraints():
    with pytest.raises(SeatError, match="a table has 2, 3 or 4 players, not 5"):
        constraints(replace(one_card_each(2), players=5))


# ---- hand-made constraints that no world meets ---------------------------------------------


def test_hand_made_constraints_no_world_meets_count_none():
    unseen = tuple(ALL_CARDS[10:20])

    def total(hand, sizes, voids=NONE4) -> int:
        sampler = Sampler(Constraints(0, hand, unseen, sizes, voids, NONE4))
        assert sampler.total == len(list(sampler.every()))
        return sampler.total

    assert total((0, 1), (2, 2, 2, 2)) == math.comb(10, 2) * math.comb(8, 2) * math.comb(6, 2)
    assert total((0,), (2, 2, 2, 2)) == 0               # the observer's hand is not its size
    assert total((0, 1), (2, 4, 4, 3)) == 0             # 11 cards for 10 unseen
    all_suits = (frozenset(), frozenset(range(4)), frozenset(), frozenset())
    assert total((0, 1), (2, 2, 2, 2), all_suits) == 0  # void in every suit, yet holds two
    assert total((0, 1), (2, 0, 2, 2), all_suits) == math.comb(10, 2) * math.comb(8, 2)


def test_the_whole_pack_unseen_is_counted():
    """No card seen at all: 52 cards to deal, the largest count there is."""
    sampler = Sampler(Constraints(0, (), ALL_CARDS, (0, 6, 6, 6), NONE4, NONE4))
    assert sampler.total == math.comb(52, 6) * math.comb(46, 6) * math.comb(40, 6)


# ---- the arguments -------------------------------------------------------------------------


def test_what_is_no_observation_or_no_world_of_it_is_refused():
    obs = one_card_each(2)
    good = sample_worlds(obs, 2, random.Random(1))
    with pytest.raises(SamplingError, match="^observation: None is not an Observation"):
        count_worlds(None)
    with pytest.raises(SamplingError, match="^observation: 'x' is not an Observation"):
        world_position("x", good[0])
    other = World((good[0].hands[1], good[0].hands[0]))
    with pytest.raises(SamplingError, match="gives seat 0 other cards than its own hand"):
        world_positions(obs, [good[0], other])


@pytest.mark.parametrize("seat", [-1, 3])
def test_a_hand_shown_for_a_seat_off_a_three_player_table_is_refused(seat):
    obs = one_card_each(3)
    with pytest.raises(SamplingError, match=f"^shown: seat {seat} is not another seat"):
        sample_worlds(obs, 2, random.Random(1), shown={seat: parse_cards("KS")})


def test_a_card_shown_that_is_seen_already_is_named():
    obs = read_seen("N:A.-.-.- - trump=S").observation()
    with pytest.raises(SamplingError, match="^shown: seat 1's AS is not a card"):
        sample_worlds(obs, 2, random.Random(1), shown={1: parse_cards("AS")})


# ---- exact, distinct or with repeats ---------------------------------------------------------


def test_every_world_is_taken_up_to_10_000_by_default():
    assert inspect.signature(sample_worlds).parameters["exact_limit"].default == 10_000


def test_none_asked_for_is_none_drawn():
    worlds = sample_worlds(one_card_each(2), 0, random.Random(1))
    assert len(worlds) == 0 and not worlds.exact and worlds.total == 51


def test_half_the_worlds_past_the_exact_limit_are_drawn_distinct():
    """2,550 worlds, more than the exact limit: half of them (or a third and one) asked for
    are drawn one by one, each a world not drawn before."""
    obs = one_card_each(3)
    assert count_worlds(obs) == 2_550
    for count in (1_275, 851):
        worlds = sample_worlds(obs, count, random.Random(count), exact_limit=10)
        assert len({w.hands for w in worlds}) == len(worlds) == count and not worlds.exact


def test_more_than_half_of_the_exact_limit_s_worlds_are_drawn_distinct():
    """51 worlds, as many as the exact limit: 40 asked for are 40 distinct worlds."""
    worlds = sample_worlds(one_card_each(2), 40, random.Random(1), exact_limit=51)
    assert len({w.hands for w in worlds}) == len(worlds) == 40 and not worlds.exact


# ---- the deadline ----------------------------------------------------------------------------


def test_a_deadline_already_past_still_draws_a_world():
    """One world at the least by default; the clock is read at every 16th."""
    worlds = sample_worlds(one_card_each(3), 100, random.Random(1),
                           deadline=time.perf_counter() - 1)
    assert len(worlds) == Clock.EVERY == 16


def test_the_clock_is_past_at_its_deadline(monkeypatch):
    monkeypatch.setattr(sampling, "now", lambda: 5.0)
    assert Clock(5.0, 1).past() and Clock(4.0, 1).past()
    assert not Clock(5.5, 1).past() and not Clock(None, 1).past()
    assert Clock(5.0, 1).late(16) and not Clock(5.0, 1).late(15)
    assert not Clock(5.0, 1).late(0) and Clock(5.0, 0).late(0)
