"""The world sampler (solver.sampling) against real games.

Observations come from matches played by random and heuristic players (runs and, in some games,
revokes happen).  The checker of a world is the game itself: the world's deal is turned back into
a pack, the deal's actions are replayed on it by ``MatchState``, and the seat must see exactly the
observation it saw.  It shares no code with the sampler's constraints."""

from __future__ import annotations

import itertools
import math
import random
import re
import signal
import threading
from collections import Counter
from dataclasses import replace

import pytest

from solver.cards import ALL_CARDS, FIVE, RANKS, make_card, parse_cards, rank_of, sort_cards, \
    suit_of
from solver.game import BEG, PLAY, REVOKE, RUN, SHUFFLE, STAND, TAKE_ONE, GameError, Match, \
    Observation
from solver.players import decide
from solver.registry import make_player
from solver.rules import PRESETS, Rules
from solver.sampling import TEMPER, Constraints, Sampler, SamplingError, World, all_worlds, \
    bidding_weight, calls_weigh, constraints, count_worlds, sample_worlds, world_position, \
    world_positions
from solver.tricks import trick_winner

#: Every preset, and the follow rules the other way round on two of them.
RULE_SETS = [Rules.preset(p) for p in PRESETS] + [
    Rules.preset("classic", follow="trump-anytime"),
    Rules.preset("all-fours", follow="strict", revoke_penalty="others")]
CASES = [(n, rules) for n in (2, 3, 4) for rules in RULE_SETS]


def case_id(case) -> str:
    n, rules = case
    return f"{n}-{rules.preset_name}-{rules.follow}"


def games(players: int, rules: Rules, seeds, *, revokes: float = 0.0, steps: int = 150,
          caller: str = "mixed", every: int = 1):
    """(observation, true hands, state, actions, state before the deal) for every seat at every
    ``every``-th step of seeded matches.  ``revokes``: the chance a seat plays a card the follow
    rule forbids when it holds one."""
    for seed in seeds:
        state = Match(players, rules).new_initial_state(seed, auto_deal=False)
        rng = random.Random(seed)
        kinds = ["heuristic", "random"] if caller == "mixed" else [caller]
        seats = [make_player(kinds[(seed + i) % len(kinds)], seed=seed * 7 + i)
                 for i in range(players)]
        start = state
        for step in range(steps):
            if state.is_terminal():
                break
            if state.phase == SHUFFLE:
                start = state.clone()
                # a replay of one deal needs neither the match's past nor the shuffling RNG
                # (it deals the pack it is given): a light copy to clone for every world
                start.deals, start._rng = [], None
                state.deal_pack()
                continue
            if step % every == 0:
                for seat in range(players):
                    yield state.observation(seat), state.hands, state, state.actions, start
            seat = state.current_player()
            if revokes and state.phase == PLAY and rng.random() < revokes:
                illegal = [c for c in state.hands[seat] if c not in state.legal_actions()]
                if illegal:
                    state.apply_revoke(rng.choice(illegal))
                    continue
            state.apply_action(decide(seats[seat], state))


def pack_of(obs: Observation, hands) -> list[int] | None:
    """A pack that deals this world: each seat's cards played and held, the turn-ups in place."""
    n = obs.players
    dealt = [list(h) for h in hands]
    for seat, card in obs.play:
        dealt[seat].append(card)
    runs = len(obs.turnups) - 1
    if any(len(h) != 6 + 3 * runs for h in dealt):
        return None
    order = [(obs.dealer + 1 + i) % n for i in range(n)]
    pack = [c for r in range(2) for seat in order for c in dealt[seat][3 * r:3 * r + 3]]
    pack.append(obs.turnups[0])
    for k in range(1, runs + 1):
        pack += [c for seat in order for c in dealt[seat][3 + 3 * k:6 + 3 * k]]
        pack.append(obs.turnups[k])
    pack += [c for c in ALL_CARDS if c not in pack]
    return pack if len(set(pack)) == 52 else None


def replays(obs: Observation, hands, actions, start) -> bool:
    """Whether the game, dealt this world, shows the seat exactly this observation."""
    pack = pack_of(obs, hands)
    if pack is None:
        return False
    game = start.clone()
    try:
        game.deal_pack(pack)
        for seat, action in actions:
            if seat != game.current_player():
                return False
            if action >= REVOKE:
                game.apply_revoke(action - REVOKE)
            else:
                game.apply_action(action)
    except GameError:
        return False
    return game.observation(obs.seat) == obs and game.hands == tuple(map(tuple, hands))


def chi_square_limit(df: int, z: float = 3.72) -> float:
    """The chi-square value a fair draw exceeds with chance about 1e-4 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi_square(counts: Counter, cells: int, draws: int) -> float:
    expected = draws / cells
    return sum((counts.get(i, 0) - expected) ** 2 / expected for i in range(cells))


#: Seconds any one test here may take (each takes well under one): a sampler that counts more
#: worlds than there are draws for ever, looking for distinct worlds that do not exist.
TEST_SECONDS = 30


@pytest.fixture(autouse=True)
def bounded():
    """A counting error in the sampler once made these tests hang, not fail: each test here
    fails after ``TEST_SECONDS`` instead (where the platform has ``SIGALRM``)."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum, frame):
        raise TimeoutError(f"the test took over {TEST_SECONDS} s: is a count of worlds wrong?")

    before = signal.signal(signal.SIGALRM, expired)
    signal.alarm(TEST_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


def test_the_worlds_are_counted_as_by_hand():
    """Checked first, being cheap: the other seats' hands of unseen cards with no constraint
    but their sizes, the rest in the pack, counted by hand as products of binomials."""
    assert hand_sizes_only(2, 12, (2,)).total == math.comb(12, 2)
    assert hand_sizes_only(3, 7, (2, 2)).total == math.comb(7, 2) * math.comb(5, 2)
    assert hand_sizes_only(4, 6, (2, 2, 1)).total == \
        math.comb(6, 2) * math.comb(4, 2) * math.comb(2, 1)


# ---- every world is a deal the game accepts --------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_world_replays_as_the_game(case):
    players, rules = case
    rng = random.Random(case_id(case))
    drawn = 0
    for obs, truth, state, actions, start in games(players, rules, range(2), revokes=0.08,
                                                   steps=50, every=6):
        assert replays(obs, truth, actions, start)       # the checker accepts the truth
        for world in sample_worlds(obs, 6, rng):
            assert replays(obs, world.hands, actions, start), (obs, world)
            drawn += 1
    assert drawn > 60


def test_runs_and_revokes_are_among_the_observations():
    seen = Counter()
    for players, rules in CASES:
        for obs, *_ in games(players, rules, range(2), revokes=0.08, steps=60, every=3):
            seen["run"] += len(obs.turnups) > 1
            seen["revoke"] += bool(obs.revokes)
            seen["holds"] += any(constraints(obs).holds)
            seen["void"] += any(constraints(obs).voids)
    assert min(seen.values()) > 10, seen


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_true_world_is_among_those_enumerated(case):
    players, rules = case
    enumerated = 0
    for obs, truth, state, actions, start in games(players, rules, range(2), revokes=0.05,
                                                   every=2):
        if len(obs.hand) > 2:
            continue
        total = count_worlds(obs)
        if total > 300:
            continue
        worlds = sample_worlds(obs, 300, random.Random(0))
        assert worlds.exact and worlds.total == total == len(worlds)
        hands = [w.hands for w in worlds]
        assert len(set(hands)) == total
        assert tuple(map(tuple, truth)) in hands
        for world in hands[::max(1, total // 3)]:
            assert replays(obs, world, actions, start)
        enumerated += 1
    assert enumerated > 10


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_hand_shown_deals_the_worlds_that_hold_it(case):
    """With another seat's hand shown, the worlds are exactly those of the observation alone
    that give that seat that hand (the enumeration filtered), and a draw of fewer holds it in
    each."""
    players, rules = case
    checked = 0
    for obs, truth, state, actions, start in games(players, rules, range(2), revokes=0.05,
                                                   every=2):
        if len(obs.hand) > 2 or count_worlds(obs) > 300:
            continue
        for other in range(players):
            if other == obs.seat or not truth[other]:
                continue
            shown = {other: truth[other]}
            hold = tuple(sort_cards(truth[other]))
            expected = {w.hands for w in all_worlds(obs) if w.hands[other] == hold}
            worlds = sample_worlds(obs, 300, random.Random(0), shown=shown)
            assert worlds.exact and worlds.total == len(expected)
            assert {w.hands for w in worlds} == expected and tuple(map(tuple, truth)) in expected
            few = sample_worlds(obs, 2, random.Random(1), shown=shown)
            assert {w.hands for w in few} <= expected and len(few) == min(2, len(expected))
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_true_world_gives_the_games_position(case):
    players, rules = case
    positions = 0
    for obs, truth, state, *_ in games(players, rules, range(2), every=4):
        if state.phase == PLAY:
            assert world_position(obs, World(truth)) == state.position()
            positions += 1
    assert positions > 10


@pytest.mark.parametrize("finish", ["hand-end", "peg-out"])
def test_a_side_at_the_target_before_the_play_keeps_the_score_under_hand_end(finish):
    """A take-one that takes a side to the target: under hand-end the match is decided after
    the deal, and a world's position keeps the score, as the game's does (the player dropped it
    and played for points where the deal decides the match); under peg-out that match is
    over before any play."""
    from solver.game import Match, parse_action
    from solver.rules import Rules

    state = Match(2, Rules(finish=finish)).new_initial_state(seed=1, dealer=1, score=(60, 55))
    state.apply_action(parse_action("beg"))
    state.apply_action(parse_action("take-one"))
    if finish == "peg-out":
        assert state.is_terminal()
        return
    obs = state.observation(state.current_player())
    truth = tuple(tuple(sort_cards(h)) for h in state.hands)
    position = world_position(obs, World(truth))
    assert position == state.position() and position.deal.score == (61, 55)


# ---- the distribution ----------------------------------------------------------------------


def void_cases(low: int = 8, high: int = 60, per_count: int = 2):
    """Observations of real games with ``low`` to ``high`` worlds and a seat constrained by a
    void or a revoke."""
    for players in (2, 3, 4):
        found = 0
        for obs, *_ in games(players, Rules.preset("strict"), range(8), revokes=0.05, every=2):
            if len(obs.hand) > 3 or not any(constraints(obs).voids):
                continue
            sampler = Sampler.of(obs)
            if sampler.bound and low <= sampler.total <= high:
                yield obs, sampler
                found += 1
                if found == per_count:
                    break
        assert found == per_count


def hand_sizes_only(players: int, unseen: int, sizes: tuple[int, ...]) -> Sampler:
    """Seat 0 holds two cards; the other seats ``sizes`` of ``unseen`` cards, the rest is the
    pack: no constraint but the sizes."""
    return Sampler(Constraints(0, (0, 1), tuple(ALL_CARDS[10:10 + unseen]), (2,) + sizes,
                               (frozenset(),) * players, (frozenset(),) * players))


def uniform(sampler: Sampler, rng: random.Random, per_world: int = 30) -> None:
    """Chi-square of the sampler's draws against the uniform distribution over every world
    the enumerator lists (a draw that is not listed is a KeyError)."""
    every = {hands: i for i, hands in enumerate(sampler.every())}
    assert len(every) == sampler.total
    draws = per_world * sampler.total
    counts = Counter(every[sampler.draw(rng)] for _ in range(draws))
    assert chi_square(counts, sampler.total, draws) < chi_square_limit(sampler.total - 1)


@pytest.mark.parametrize("players,unseen,sizes,total", [
    (2, 12, (2,), 66), (3, 7, (2, 2), 210), (4, 6, (2, 2, 1), 180)])
def test_with_no_constraint_but_the_sizes_every_world_comes_alike(players, unseen, sizes, total):
    sampler = hand_sizes_only(players, unseen, sizes)
    assert sampler.total == total
    uniform(sampler, random.Random(players))


def test_two_crossed_voids_every_world_comes_alike():
    """E void in spades and S in hearts, 55 worlds: a draw that took a pick equal to a running
    total for the option before it drew one world never and another half as often again (the
    worlds of real games' voids had not shown it)."""
    unseen = tuple(parse_cards("AS KS AH KH AD KD QD"))
    c = Constraints(seat=0, hand=(), unseen=unseen, sizes=(0, 2, 2),
                    voids=(frozenset(), frozenset({0}), frozenset({1})),
                    holds=(frozenset(),) * 3)
    sampler = Sampler(c)
    assert sampler.total == 55
    for seed in range(3):
        uniform(sampler, random.Random(seed))


def test_the_observer_has_no_voids_nor_cards_it_must_hold():
    """Constraints.voids and holds say nothing of the observer's own hand (it is seen): its
    own voids shown by the follow rule were left in."""
    shown = 0       # observers that had shown a void of their own
    for players in (2, 3, 4):
        for obs, *_ in games(players, Rules.preset("strict"), range(3), revokes=0.05, every=3):
            c = constraints(obs)
            assert c.voids[obs.seat] == frozenset() and c.holds[obs.seat] == frozenset()
            tricks = [obs.play[i:i + players] for i in range(0, len(obs.play), players)]
            shown += any(seat == obs.seat and card >> 4 != trick[0][1] >> 4
                         for trick in tricks for seat, card in trick)
    assert shown


def test_with_voids_and_revokes_the_sampler_matches_the_enumerator():
    rng = random.Random(2026)
    for obs, sampler in void_cases():
        uniform(sampler, rng)


def tiny_constraints(rng: random.Random) -> Constraints:
    """A few unseen cards of the four suits among 2 to 4 seats and the pack, with random voids
    and revokes owed."""
    players = rng.choice((2, 3, 4))
    unseen = tuple(sorted(rng.sample(ALL_CARDS, rng.randint(3, 6))))
    others = list(range(1, players))
    sizes = [0] * players
    for _ in range(len(unseen) - rng.randint(0, 2)):
        sizes[rng.choice(others)] += 1
    voids = [frozenset()] + [frozenset(x for x in range(4) if rng.random() < 0.2)
                             for _ in others]
    holds = [frozenset()] + [frozenset(x for x in range(4) if rng.random() < 0.1)
                             for _ in others]
    return Constraints(0, (), unseen, (0, *sizes[1:]), tuple(voids), tuple(holds))


def brute_force(c: Constraints) -> set:
    """Every world, by trying every seat (or the pack) for every unseen card."""
    holders = list(range(1, c.players)) + [None]
    worlds = set()
    for owners in itertools.product(holders, repeat=len(c.unseen)):
        hands = [[card for card, o in zip(c.unseen, owners) if o == seat]
                 for seat in range(c.players)]
        if any(len(hands[s]) != c.sizes[s] for s in range(c.players)):
            continue
        suits = [{card >> 4 for card in h} for h in hands]
        if any(suits[s] & c.voids[s] or not c.holds[s] <= suits[s] for s in range(c.players)):
            continue
        worlds.add(tuple(tuple(sort_cards(h)) for h in hands))
    return worlds


def test_the_count_and_the_enumeration_against_brute_force():
    rng = random.Random(99)
    nonempty = 0
    for _ in range(80):
        c = tiny_constraints(rng)
        expected = brute_force(c)
        sampler = Sampler(c)
        listed = list(sampler.every())
        assert sampler.total == len(expected) and set(listed) == expected
        assert len(set(listed)) == len(listed)
        if expected:
            nonempty += 1
            assert all(sampler.draw(rng) in expected for _ in range(20))
    assert nonempty > 40


def test_with_a_revoke_owed_the_sampler_matches_the_enumerator():
    spades, hearts = ALL_CARDS[:3], ALL_CARDS[13:16]
    # E has no hearts, W no spades, S owes a spade; one card is in the pack
    c = Constraints(0, (), spades + hearts + ALL_CARDS[26:27], (0, 2, 2, 2),
                    (frozenset(), frozenset({1}), frozenset(), frozenset({0})),
                    (frozenset(), frozenset(), frozenset({0}), frozenset()))
    sampler = Sampler(c)
    assert sampler.total == len(brute_force(c)) == 63
    uniform(sampler, random.Random(11))


def test_a_seat_marginal_matches_the_count_in_a_large_case():
    """Where there are too many worlds to list: how often a void seat holds each card it may
    hold, against its exact share (by counting the worlds that put the card there)."""
    for obs, *_ in games(4, Rules.preset("strict"), range(20)):
        c = constraints(obs)
        void_seats = [s for s in range(4) if c.voids[s] and c.sizes[s] >= 3]
        if void_seats and count_worlds(obs) > 10**6:
            break
    else:
        pytest.fail("no large case with a void")
    seat = void_seats[0]
    sampler = Sampler.of(obs)
    rng = random.Random(7)
    draws = 6000
    counts = Counter(card for _ in range(draws) for card in sampler.draw(rng)[seat])
    for card in c.unseen[::3]:
        # the worlds with the card in the seat's hand, counted exactly
        if card >> 4 in c.voids[seat]:
            share = 0.0
        else:
            sizes = tuple(k - (i == seat) for i, k in enumerate(c.sizes))
            rest = tuple(x for x in c.unseen if x != card)
            share = Sampler(replace(c, unseen=rest, sizes=sizes)).total / sampler.total
        expected = draws * share
        spread = 5 * math.sqrt(draws * share * (1 - share)) + 1
        assert abs(counts[card] - expected) <= spread, (card, counts[card], expected)


# ---- sample_worlds -------------------------------------------------------------------------


def test_sampling_is_seeded_and_without_replacement():
    obs = Match(4).new_initial_state(5).observation(2)
    first = sample_worlds(obs, 40, random.Random(9))
    assert first == sample_worlds(obs, 40, random.Random(9))
    assert first != sample_worlds(obs, 40, random.Random(10))
    assert len({w.hands for w in first}) == 40 and not first.exact
    assert first.total == math.comb(45, 6) * math.comb(39, 6) * math.comb(33, 6)


def test_few_worlds_are_all_returned_and_more_are_distinct():
    for obs, sampler in void_cases(low=20, high=200, per_count=1):
        total = sampler.total
        every = set(sampler.every())
        worlds = sample_worlds(obs, total + 5, random.Random(1))
        assert worlds == all_worlds(obs)
        assert worlds.exact and {w.hands for w in worlds} == every and len(worlds) == total
        for count in (total // 3, total - 1):
            some = sample_worlds(obs, count, random.Random(count))
            assert not some.exact and some.total == total and len(some) == count
            assert len({w.hands for w in some}) == count and {w.hands for w in some} <= every
        assert sample_worlds(obs, total, random.Random(1), exact_limit=total - 1).exact is False


def test_a_deadline_stops_the_drawing_with_the_least_asked_for_drawn():
    """A drawing that would outlast its decision's time (a hundred thousand worlds asked for
    under a time limit of 0.1 s took 3 to 9 s) stops once its deadline is past: the worlds drawn
    by then, ``least`` of them at the least, as uniform as before.  Every world, where that is
    what is asked for, is taken whatever the time."""
    import time

    past = time.perf_counter() - 1
    obs = Match(4).new_initial_state(5).observation(2)
    for count, least in ((1000, 16), (1000, 40), (10, 16)):
        worlds = sample_worlds(obs, count, random.Random(9), deadline=past, least=least)
        # (the clock is read every 16th world)
        assert len(worlds) == min(count, -(-least // 16) * 16) and not worlds.exact
        assert len({w.hands for w in worlds}) == len(worlds)
        assert worlds[:] == sample_worlds(obs, len(worlds), random.Random(9))[:]
    assert len(sample_worlds(obs, 1000, random.Random(9),
                             deadline=time.perf_counter() + 60)) == 1000
    for obs, sampler in void_cases(low=20, high=200, per_count=1):
        total = sampler.total
        assert sample_worlds(obs, total, random.Random(1), deadline=past) == all_worlds(obs)
        # with repeats (more than half of over exact_limit worlds asked for)
        worlds = sample_worlds(obs, total, random.Random(1), exact_limit=2, deadline=past,
                               least=16)
        assert len(worlds) == 16 and not worlds.exact
        break


def test_call_phase_worlds_are_six_card_hands():
    state = Match(3).new_initial_state(2)
    obs = state.observation(state.current_player())
    assert obs.phase == "elder"
    worlds = sample_worlds(obs, 10, random.Random(1))
    for world in worlds:
        assert [len(h) for h in world.hands] == [6, 6, 6]
        assert world.hands[obs.seat] == obs.hand
    with pytest.raises(SamplingError, match="no trump suit"):
        world_position(obs, worlds[0])


def test_unseen_cards_and_hand_sizes():
    state = Match(2).new_initial_state(4)
    obs = state.observation(0)
    c = constraints(obs)
    assert set(c.unseen) == set(ALL_CARDS) - set(obs.hand) - set(obs.turnups)
    assert c.sizes == (6, 6) and c.undealt == 52 - 12 - 1


# ---- constraints from the follow rule, on hand-made observations ----------------------------


def observation(play: str, rules: Rules, trump: int = 1, revokes=()) -> Observation:
    """Two players, S dealing: N (seat 0, the observer) holds six cards less those it played
    (diamonds) and the play is given as cards in order, N leading the first trick."""
    cards = parse_cards(play)
    played, leader = [], 0
    for i in range(0, len(cards), 2):
        trick = cards[i:i + 2]
        played += [((leader + k) % 2, card) for k, card in enumerate(trick)]
        if len(trick) == 2:
            leader = (leader + trick_winner(trick, trump)) % 2
    turnup = make_card(trump, 0)
    mine = sum(1 for seat, _ in played if seat == 0)
    pool = [c for c in ALL_CARDS if c not in cards and c >> 4 == 2 and c != turnup]
    return Observation(
        seat=0, players=2, rules=rules, best_of=1, phase="play", current_player=0,
        game=1, deal=1, dealer=1, score=(0, 0), games_won=(0, 0),
        hand=tuple(sort_cards(pool[:6 - mine])), turnups=(turnup,), trump=trump, calls=(),
        play=tuple(played), revokes=tuple(revokes), pegs=(), legal_actions=())


STRICT = Rules.preset("strict")
ANYTIME = Rules.preset("all-fives")
S, H, D, C = range(4)


@pytest.mark.parametrize("play,rules,voids", [
    ("AS KH", STRICT, {S}),          # off the suit led: void in it
    ("AS KS", STRICT, set()),
    ("AS KH", ANYTIME, set()),       # a trump to a plain lead shows nothing
    ("AS KC", ANYTIME, {S}),         # a third suit: void in the suit led, not in trumps
    ("AH KC", ANYTIME, {H}),         # failing a trump lead: no trumps
    ("AH KC", STRICT, {H}),
])
def test_what_a_card_off_the_suit_led_shows(play, rules, voids):
    c = constraints(observation(play, rules))
    assert c.voids[1] == voids and not c.voids[0] and not any(c.holds)


def test_a_revoke_shows_no_void_but_a_card_still_held():
    obs = observation("AS KC", STRICT, revokes=(1,))
    c = constraints(obs)
    assert not c.voids[1] and c.holds[1] == {S}
    for world in sample_worlds(obs, 30, random.Random(3)):
        assert any(card >> 4 == S for card in world.hands[1])
    # made good: the revoking seat has played a spade since
    later = observation("AS KC QS 3S", STRICT, revokes=(1,))
    assert not constraints(later).holds[1] and not constraints(later).voids[1]
    # ... at once: S trumped in, won the trick and led a spade to the next
    led = observation("AS 3H 3S QS", STRICT, revokes=(1,))
    assert not constraints(led).holds[1] and count_worlds(led) == 123_410


def test_an_observation_no_world_fits_is_refused():
    # S shows no spade, then revokes to a spade lead: it held one, yet it had none
    obs = observation("AS KC QS 2C", STRICT, revokes=(3,))
    assert constraints(obs).voids[1] == {S} and constraints(obs).holds[1] == {S}
    assert count_worlds(obs) == 0
    # a seat that has played one card more than the observer's hand and play allow
    two = observation("AS KS", STRICT)
    more = replace(two, hand=(), play=two.play + ((1, parse_cards("QS")[0]),))
    with pytest.raises(SamplingError, match="played more cards"):
        constraints(more)
    with pytest.raises(SamplingError, match="no deal"):
        sample_worlds(obs, 4, random.Random(1))
    with pytest.raises(SamplingError, match="count"):
        sample_worlds(observation("", STRICT), -1, random.Random(1))


def test_a_hand_made_observation_without_calls_or_pegs():
    obs = observation("AS KS 2C 3C", ANYTIME)
    worlds = sample_worlds(obs, 5, random.Random(4), bidding=True)
    assert all(w.weight == 1.0 for w in worlds)
    position = world_position(obs, worlds[0])
    assert position.play == tuple(c for _, c in obs.play) and position.deal.score == (0, 0)


# ---- the bidding ---------------------------------------------------------------------------


def strong_by_rule(six, proposed: int) -> bool:
    """heuristic.stand_or_beg's rule, written again: two of the suit proposed, or A K T 5 of it."""
    trumps = [c for c in six if c >> 4 == proposed]
    return len(trumps) >= 2 or any(c & 15 in (12, 11, 8, FIVE) for c in trumps)


def test_a_call_weighs_a_world_by_the_six_cards_it_was_made_on():
    """With runs, the chance that the call agrees, against every six-card subset counted."""
    checked = 0
    for obs, truth, state, *_ in games(2, Rules.preset("all-fives", max_runs=None), range(40),
                                       steps=4, caller="heuristic"):
        others = [(s, a) for s, a in obs.calls if s != obs.seat]
        if len(obs.turnups) < 2 or not others or obs.phase != PLAY:
            continue
        proposed = obs.turnups[0] >> 4
        world = sample_worlds(obs, 1, random.Random(checked))[0]
        p = 1.0
        for seat, action in others:
            if action == RUN and obs.score[1 - seat] + 1 >= obs.rules.target:
                continue
            dealt = list(world.hands[seat]) + [c for s, c in obs.play if s == seat]
            subsets = list(itertools.combinations(dealt, 6))
            strong = sum(strong_by_rule(six, proposed) for six in subsets) / len(subsets)
            p *= strong if action in (STAND, TAKE_ONE) else 1 - strong
        expected = 1 / TEMPER + (1 - 1 / TEMPER) * p
        assert bidding_weight(obs, world) == pytest.approx(expected)
        sharp = 1e-5 + (1 - 1e-5) * p
        assert bidding_weight(obs, world, 1e5) == pytest.approx(sharp, rel=1e-9, abs=1e-12)
        hands = [w.hands for w in sample_worlds(obs, 3, random.Random(checked), bidding=True,
                                               temper=1e5)]
        for hands_, w in zip(hands, sample_worlds(obs, 3, random.Random(checked), bidding=True,
                                                  temper=1e5)):
            assert w.weight == bidding_weight(obs, World(hands_), 1e5)
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_heuristics_calls_fit_the_true_world_best(players):
    """Without runs the true world's calls are the heuristic's own, so it weighs the most; every
    weight stays within the tempered range; ``bidding=False`` weighs all alike."""
    weighed = 0
    for obs, truth, state, *_ in games(players, Rules(), range(6), steps=40, every=2,
                                       caller="heuristic"):
        if not any(s != obs.seat for s, _ in obs.calls) or len(obs.turnups) != 1:
            continue
        assert bidding_weight(obs, World(truth)) == 1.0
        worlds = sample_worlds(obs, 20, random.Random(weighed), bidding=True)
        assert all(1 / TEMPER <= w.weight <= 1.0 for w in worlds)
        assert all(w.weight == 1.0 for w in sample_worlds(obs, 5, random.Random(1)))
        weighed += 1
    assert weighed > 10


def test_a_forced_run_says_nothing():
    """Three players, N dealing: E begged, N ran; S observes.  At 1 point from the target the
    run was forced and only the beg weighs; otherwise the run weighs too."""
    hand = parse_cards("2D 3D 4D 6D 7D 8D 9D TD JD")
    beg_only = Observation(
        seat=2, players=3, rules=Rules(target=5), best_of=1, phase="play", current_player=1,
        game=1, deal=1, dealer=0, score=(0, 0, 0), games_won=(0, 0, 0), hand=tuple(hand),
        turnups=(make_card(S, 0), make_card(H, 0)), trump=H, calls=((1, BEG),), play=(),
        revokes=(), pegs=(), legal_actions=())
    forced = replace(beg_only, calls=((1, BEG), (0, RUN)), score=(0, 4, 0))
    free = replace(forced, score=(0, 3, 0))
    differ = 0
    for world in sample_worlds(beg_only, 40, random.Random(5)):
        assert bidding_weight(forced, world) == bidding_weight(beg_only, world)
        differ += bidding_weight(free, world) != bidding_weight(beg_only, world)
    assert differ > 10


def test_a_take_one_that_brings_the_elder_to_the_target_says_nothing():
    """Under hand-end a dealer may take one though the point brings the elder's side to the
    target (the rules would run whatever the dealer holds): that take-one is no rule's and
    says nothing of the dealer's hand; the elder's beg still weighs.  At a point further off
    the take-one weighs too."""
    for elder_score, weighs in ((60, False), (59, True)):
        state = Match(3, Rules.preset("classic")).new_initial_state(
            seed=1, dealer=2, score=[elder_score, 0, 0])
        state.apply_action(BEG)
        state.apply_action(TAKE_ONE)
        obs = state.observation(1)
        trump = suit_of(obs.turnups[0])

        def strong(hand):
            trumps = [c for c in hand if suit_of(c) == trump]
            return len(trumps) >= 2 or any(RANKS[rank_of(c)] in "AKT5" for c in trumps)

        by_dealer = {}
        for world in sample_worlds(obs, 400, random.Random(0), bidding=True):
            by_dealer.setdefault(strong(world.hands[2]), set()).add(round(world.weight, 9))
        assert (by_dealer[True] != by_dealer[False]) == weighs
        # (where the take-one says nothing the elder's beg still weighs; where it weighs, a
        # weak dealer's take-one breaks the rules, every such world at 1/8)
        assert len(by_dealer[False]) == (1 if weighs else 2)


def test_a_take_one_where_no_run_is_allowed_says_nothing():
    """Under ``max_runs=0`` the dealer must take one when the elder hand begs: the take-one
    shows nothing of the dealer's hand and weighs no world; where a run was allowed it does.
    Reading a forced take-one as evidence went unnoticed."""
    for rules, weighs in ((Rules(max_runs=0), False), (Rules(), True)):
        state = Match(2, rules).new_initial_state(seed=1, dealer=1)
        state.apply_action(BEG)          # N, the elder hand, begs (its own call weighs nothing)
        assert TAKE_ONE in state.legal_actions() and (RUN in state.legal_actions()) == weighs
        state.apply_action(TAKE_ONE)
        obs = state.observation(0)
        assert calls_weigh(obs) == weighs
        weights = {bidding_weight(obs, w) for w in sample_worlds(obs, 32, random.Random(1))}
        assert (weights != {1.0}) == weighs


def test_no_world_weighs_more_than_8_times_another_by_the_calls():
    """The README's promise, with its number: a world that cannot make a call weighs 1/8 of a
    world that must make it.  N stood on hearts proposed; S sees it.  Where N holds no heart,
    none of its six cards are strong (weight 1/8); holding the A and K of hearts, every six
    are (weight 1)."""
    hand = parse_cards("2S 3S 4S 6S 7S 8S")
    obs = Observation(
        seat=1, players=2, rules=Rules(), best_of=1, phase="play", current_player=0, game=1,
        deal=1, dealer=1, score=(0, 0), games_won=(0, 0), hand=tuple(hand),
        turnups=(make_card(H, 0),), trump=H, calls=((0, STAND),), play=(), revokes=(), pegs=(),
        legal_actions=())
    weak = World((tuple(parse_cards("2D 3D 4D 6D 7D 8D")), tuple(hand)))
    strong = World((tuple(parse_cards("AH KH 4D 6D 7D 8D")), tuple(hand)))
    assert bidding_weight(obs, weak) == 1 / 8
    assert bidding_weight(obs, strong) == 1.0


def test_the_module_examples_run():
    import doctest

    import solver.sampling
    assert doctest.testmod(solver.sampling).failed == 0


def test_a_hand_shown_or_a_world_that_cannot_be_is_refused():
    """Hands shown that no deal could hold (another seat's cards, too few, a seat not at the
    table, the observer's own) and a world that changes the observer's hand are refused, where
    they gave worlds with a card twice or a hand of the wrong size."""
    state = Match(players=4).new_initial_state(seed=3)
    state.apply_action(state.legal_actions()[0])
    me = state.current_player()
    obs, other = state.observation(me), (me + 1) % 4
    hand = list(state.hands[other])
    for shown, message in (({other: state.hands[me]}, r"is not a card this seat has not seen"),
                           ({other: hand[:5] + hand[:1]}, r"or is shown twice"),
                           ({other: hand[:2]}, rf"seat {other} holds 6 cards, not 2"),
                           ({9: hand}, r"seat 9 is not another seat"),
                           ({me: state.hands[me]}, rf"seat {me} is not another seat"),
                           ({other: ["AS"] * 6}, r"'AS' is not a card")):
        with pytest.raises(SamplingError, match=r"^shown: .*" + message):
            sample_worlds(obs, 2, random.Random(1), shown=shown)
    (world,) = sample_worlds(obs, 1, random.Random(1))
    hands = list(world.hands)
    hands[me], hands[other] = hands[other], hands[me]
    with pytest.raises(SamplingError, match=rf"gives seat {me} other cards than its own hand"):
        world_position(obs, World(tuple(hands)))


def test_what_is_no_observation_or_random_source_is_one_sampling_error():
    """A random source that is none (None, a seed given where a random.Random goes) or no
    observation was an AttributeError from inside the sampler."""
    state = Match(2).new_initial_state(seed=1)
    while state.phase != PLAY:
        state.apply_action(state.legal_actions()[0])
    observation = state.observation(state.current_player())
    for rng, said in ((None, "rng: None is not a random.Random"),
                      (1, "rng: 1 is not a random.Random")):
        with pytest.raises(SamplingError, match=re.escape(said)):
            sample_worlds(observation, 4, rng)
    with pytest.raises(SamplingError, match="observation: None is not an Observation"):
        sample_worlds(None, 4, random.Random(1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_calls_weigh_the_worlds_where_another_seat_s_call_is_read(players):
    """``calls_weigh`` (what a hint says of its deals) is true where some world weighs other
    than 1 by the calls, over many tables and calls: never by a seat's own call alone (a
    two-player elder hand that stood weighs nothing), and a take-one or run only where the
    elder hand's side did not need the point."""
    rng = random.Random(players)
    said = {True: 0, False: 0}
    for seed in range(40):
        state = Match(players, Rules(target=11 if seed % 4 else 61)).new_initial_state(
            seed=seed, score=(10,) * (2 if players == 4 else players) if seed % 4 == 1 else None)
        while state.phase != PLAY and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        for seat in range(players):
            obs = state.observation(seat)
            others = [s for s, _ in obs.calls if s != seat]
            weights = {bidding_weight(obs, w) for w in sample_worlds(obs, 64, rng)}
            weigh = calls_weigh(obs)
            said[weigh] += 1
            assert weigh == (weights != {1.0}) or weigh and len(weights) == 1, \
                (seed, seat, obs.calls, weights)
            if not others:
                assert not weigh
    assert said[True] and said[False]


POSITION_PARTS = ("deal", "play", "tricks", "hands", "completed", "current", "to_move")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_world_positions_are_world_position_of_each_world(players):
    """The positions made together for a decision's worlds (the first checked, the others
    made from it) are each the one ``world_position`` makes and checks alone: before the
    first card, mid-trick and between tricks, after runs, under both follow rules."""
    rng = random.Random(players)
    heuristic = make_player("heuristic")
    compared = 0
    for seed in range(6):
        rules = Rules().replace(follow="strict" if seed % 2 else "trump-anytime")
        state = Match(players=players, rules=rules).new_initial_state(seed=seed)
        while state.phase != PLAY:
            state.apply_action(decide(heuristic, state))
        while state.phase == PLAY:
            seen = state.observation(state.current_player())
            worlds = sample_worlds(seen, 5, rng)
            for made, alone in zip(world_positions(seen, worlds),
                                   [world_position(seen, w) for w in worlds], strict=True):
                assert [getattr(made, k) for k in POSITION_PARTS] == \
                    [getattr(alone, k) for k in POSITION_PARTS]
                assert made.legal_moves() == alone.legal_moves()
                compared += 1
            state.apply_action(decide(heuristic, state))
    assert compared > 100
    assert world_positions(seen, []) == []


def test_a_world_whose_hidden_hand_holds_a_card_seen_or_held_twice_does_not_agree():
    """``Constraints.agrees`` (the check of a chain's first world) let a hidden hand hold the
    observer's own card, or the card of another hidden hand."""
    from solver.seen import read_seen

    two = constraints(read_seen("N:A.-.-.- - trump=S").observation())
    assert two.agrees([parse_cards("AS"), parse_cards("KS")])
    assert not two.agrees([parse_cards("AS"), parse_cards("AS")])
    three = constraints(read_seen("N:A.-.-.- - - trump=S").observation())
    assert three.agrees([parse_cards("AS"), parse_cards("KS"), parse_cards("QS")])
    assert not three.agrees([parse_cards("AS"), parse_cards("KS"), parse_cards("KS")])


def test_hidden_hands_that_take_every_unseen_card_are_one_world():
    """A position whose hidden hand holds all the cards not seen is one world, not refused."""
    from solver.seen import read_seen

    full = read_seen("N:AKQJT98765432.AKQJT98765432.-.- - trump=S").observation()
    assert count_worlds(full) == 1
    [world] = sample_worlds(full, 5, random.Random(0))
    assert set(world.hands[1]) == set(ALL_CARDS) - set(full.hand)


def test_more_worlds_asked_than_there_are_past_the_exact_limit_come_with_repeats():
    """Past ``exact_limit`` worlds, more than half of them asked for are drawn with repeats
    (as many as asked), never sought as distinct worlds there are too few of."""
    from solver.seen import read_seen

    observation = read_seen("N:A.-.-.- - trump=S").observation()
    assert count_worlds(observation) == 51
    worlds = sample_worlds(observation, 60, random.Random(1), exact_limit=10)
    assert len(worlds) == 60 and not worlds.exact
    assert 1 < len({w.hands for w in worlds}) < 51 + 1
    checker = constraints(observation)
    assert all(checker.agrees(w.hands) for w in worlds)
