"""solver.shuffle: deals as from a shuffled pack, random deals of any size, random positions."""

from __future__ import annotations

import random
import re

import pytest

from solver.cards import ALL_CARDS, suit_of
from solver.shuffle import max_runs_in_pack, random_deal, random_position, shuffle_deal
from solver.rules import PRESETS, Rules

CLASSIC = Rules.preset("classic")  # runs unlimited


class RecordingRandom(random.Random):
    """A Random that keeps a copy of every pack it shuffles."""

    def __init__(self, seed):
        super().__init__(seed)
        self.packs = []

    def shuffle(self, x):
        super().shuffle(x)
        self.packs.append(list(x))


def check_deal(deal, players, size):
    assert deal.players == players
    assert all(len(h) == size for h in deal.hands)
    cards = [c for h in deal.hands for c in h]
    assert len(set(cards)) == len(cards) == players * size
    assert set(cards) <= set(ALL_CARDS)
    assert deal.turnup is not None and deal.turnup not in cards
    assert deal.trump == suit_of(deal.turnup)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shuffle_deal_sizes(players):
    rng = random.Random(players)
    for runs in range(max_runs_in_pack(players) + 1):
        for _ in range(5):
            deal = shuffle_deal(rng, players, runs, CLASSIC)
            check_deal(deal, players, 6 + 3 * runs)
            assert deal.rules is CLASSIC


def test_max_runs_in_pack():
    # RULES.md: with 2 players up to 5 runs fit (21 cards each).
    assert [max_runs_in_pack(p) for p in (2, 3, 4)] == [5, 3, 2]
    assert 2 * (6 + 3 * 5) + 5 + 1 <= 52  # 5 turn-ups set aside, one face up


def test_shuffle_deal_order_of_dealing():
    # No runs: 3 cards to each seat from the elder hand, twice, then the turn-up.
    for players in (2, 3, 4):
        for dealer in range(players):
            rng = RecordingRandom(50 + dealer)
            deal = shuffle_deal(rng, players, 0, dealer=dealer)
            assert len(rng.packs) == 1
            pack = rng.packs[0]
            assert deal.dealer == dealer
            for k in range(players):
                seat = (dealer + 1 + k) % players
                first, second = pack[3 * k:3 * k + 3], pack[3 * (players + k):3 * (players + k) + 3]
                assert sorted(deal.hands[seat]) == sorted(first + second)
            assert deal.turnup == pack[6 * players]


def test_runs_respected():
    # A deal after R runs: each of the first R - 1 runs turned up the suit first proposed again,
    # and the R-th a new suit, which is trumps.  Each run deals 3 more cards to each seat from the
    # elder hand and the next card is turned up; earlier turn-ups are out of play.
    for players in (2, 3, 4):
        for runs in range(1, max_runs_in_pack(players) + 1):
            rng = RecordingRandom(100 * players + runs)
            dealer = runs % players
            deal = shuffle_deal(rng, players, runs, CLASSIC, dealer=dealer)
            pack = rng.packs[-1]  # earlier shuffles were thrown in
            check_deal(deal, players, 6 + 3 * runs)
            first = 6 * players
            turnups = [pack[first + r * (3 * players + 1)] for r in range(runs + 1)]
            proposed = suit_of(turnups[0])
            assert [suit_of(t) == proposed for t in turnups[1:]] == [True] * (runs - 1) + [False]
            assert deal.turnup == turnups[-1] and deal.trump != proposed
            for set_aside in turnups[:-1]:
                assert all(set_aside not in h for h in deal.hands)
            for r in range(runs):
                start = first + 1 + r * (3 * players + 1)
                for k in range(players):
                    seat = (dealer + 1 + k) % players
                    assert set(pack[start + 3 * k:start + 3 * k + 3]) <= set(deal.hands[seat])


def test_runs_limits():
    rng = random.Random(1)
    all_fives = Rules()
    assert all_fives.max_runs == 2
    check_deal(shuffle_deal(rng, 2, 2, all_fives), 2, 12)
    with pytest.raises(ValueError, match="3 runs asked for, but these rules allow at most 2"):
        shuffle_deal(rng, 2, 3, all_fives)      # beyond max_runs
    with pytest.raises(ValueError, match="with 3 players the pack supplies at most 3"):
        shuffle_deal(rng, 3, 4, CLASSIC)        # the pack cannot supply a fourth run
    with pytest.raises(ValueError, match="with 4 players the pack supplies at most 2"):
        shuffle_deal(rng, 4, 3, CLASSIC)
    with pytest.raises(ValueError, match="runs must be a whole number, not -1"):
        shuffle_deal(rng, 2, -1, CLASSIC)
    with pytest.raises(ValueError, match="a table has 2, 3 or 4 players, not 5"):
        shuffle_deal(rng, 5, 0)
    with pytest.raises(ValueError, match="dealer seat 2 is not at a 2-player table"):
        shuffle_deal(rng, 2, 0, dealer=2)


@pytest.mark.parametrize("players, runs, dealer, message", [
    (5, 0, 0, "a table has 2, 3 or 4 players, not 5"),
    (2, -1, 0, "runs: -1 is not a whole number from 0"),
    (2, 1.5, 0, "runs: 1.5 is not a whole number from 0"),
    (2, True, 0, "runs: True is not a whole number from 0"),
    (4, 0, 4, "dealer: 4 is not a seat of 4 (0 to 3)"),
    (4, 0, -1, "dealer: -1 is not a seat of 4 (0 to 3)"),
    (3, 0, "N", "dealer: 'N' is not a seat of 3 (0 to 2)"),
    (2, 0, 1.0, "dealer: 1.0 is not a seat of 2 (0 to 1)")])
def test_pack_dealt_only_to_a_table(players, runs, dealer, message):
    """cards_used and deal_pack refuse a table, a number of runs or a dealer that is none (a
    count for five players, or hands dealt to a seat that is not there)."""
    from solver.errors import AllFivesError
    from solver.shuffle import cards_used, deal_pack, shuffled_pack

    if dealer == 0:     # (the table and the runs: each function checks them)
        with pytest.raises(AllFivesError, match=f"^{re.escape(message)}$"):
            cards_used(players, runs)
    with pytest.raises(AllFivesError, match=f"^{re.escape(message)}$"):
        deal_pack(shuffled_pack(random.Random(1)), players, dealer, runs)


def test_shuffle_deal_deterministic():
    for players in (2, 3, 4):
        for runs in (0, 1, 2):
            a = [shuffle_deal(random.Random(seed), players, runs, CLASSIC) for seed in range(5)]
            b = [shuffle_deal(random.Random(seed), players, runs, CLASSIC) for seed in range(5)]
            assert a == b
            assert len({d.hands for d in a}) == 5


def test_shuffle_deal_dealer_and_no_global_random():
    random.seed(0)
    before = random.getstate()
    dealers = {shuffle_deal(random.Random(seed), 4).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert random.getstate() == before
    deal = shuffle_deal(random.Random(3), 3, dealer=1)
    assert deal.dealer == 1 and deal.elder == 2


def test_shuffle_deal_trumps_spread():
    # Every suit turns up as trumps.
    rng = random.Random(9)
    assert {shuffle_deal(rng, 2).trump for _ in range(60)} == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_deal(players):
    rng = random.Random(players * 7)
    largest = 51 // players
    for cards in (1, 2, 5, largest):
        deal = random_deal(rng, players, cards)
        check_deal(deal, players, cards)
    with pytest.raises(ValueError, match=f"{players} hands of {largest + 1} cards and a turn-up "
                                         f"do not fit"):
        random_deal(rng, players, largest + 1)
    with pytest.raises(ValueError, match=f"{players} hands of 0 cards"):
        random_deal(rng, players, 0)
    assert {random_deal(rng, players, 3).trump for _ in range(60)} == {0, 1, 2, 3}
    assert {random_deal(rng, players, 3).dealer for _ in range(60)} == set(range(players))
    assert random_deal(rng, players, 3, dealer=0).dealer == 0


def test_random_deal_deterministic_and_rules():
    for name, rules in PRESETS.items():
        a = random_deal(random.Random(name), 3, 4, rules)
        assert a == random_deal(random.Random(name), 3, 4, rules)
        assert a.rules is rules


def test_random_position():
    rng = random.Random(77)
    mid_trick = 0
    for i in range(200):
        players, cards = ((2, 3), (3, 2), (4, 3), (2, 6))[i % 4]
        pos = random_position(rng, players, cards)
        assert len(pos.play) < players * cards and not pos.is_over
        assert pos.legal_moves()
        mid_trick += bool(pos.current.cards)
        # The play is legal: rebuilding the position from the deal replays and checks it.
        assert pos.deal.position(pos.play) == pos
    assert mid_trick > 50
    pos = random_position(rng, 3, 2, played=0)
    assert pos.play == () and pos.to_move == pos.deal.elder
    pos = random_position(rng, 4, 3, played=12)
    assert pos.is_over and pos.legal_moves() == []
    pos = random_position(rng, 2, 5, played=3)
    assert len(pos.play) == 3 and len(pos.current.cards) == 1
    with pytest.raises(ValueError, match="cannot play 7 cards from hands holding 6"):
        random_position(rng, 2, 3, played=7)
    assert random_position(random.Random(5), 4, 4, Rules.preset("strict")) == \
        random_position(random.Random(5), 4, 4, Rules.preset("strict"))
