"""The bounds from the side on lead cashing its sure winners at a trick's start, against the
reference solver on positions made for them: a side holding runs of top cards (trumps and side
suits, in the leader's hand and in its partner's, with a card for the leader to reach the
partner), under both follow rules, with 2, 3 and 4 players, on points, margin and tricks.  A
wrong bound would give a wrong value on some of them; each test also checks that the bound did
work (the nodes differ from a search without it)."""

from __future__ import annotations

import random

import pytest

from solver import benchmark, reference
from solver.cards import ALL_CARDS, rank_of, sort_cards, suit_of
from solver.deal import Deal
from solver.rules import Rules
from solver.search import Solver
from test_engine import _check, _objectives

PRESETS = ["all-fives", "strict", "classic", "all-fours", "five-for-five"]
VARIANTS = [{}, {"low_to": "captor"}, {"follow": "strict"}, {"follow": "trump-anytime"}]
#: players -> hand sizes within the reference solver's reach
SIZES = {2: (4, 5, 6), 3: (3, 4), 4: (2, 3)}


def _runs_deal(rng: random.Random, players: int, cards: int, rules: Rules) -> Deal:
    """A deal where the elder hand, or with four players its partner or both, holds the top
    cards of a suit or two, trumps half the time; with a partner holding a run, the elder
    holds a low card of its suit to reach it by; half the time the next seat holds none of
    the runs' side suits but a trump."""
    trump = rng.randrange(4)
    dealer = rng.randrange(players)
    elder = (dealer + 1) % players
    pack = set(ALL_CARDS)
    hands: list[list[int]] = [[] for _ in range(players)]
    holders = [elder]
    if players == 4:
        holders = rng.choice(([elder], [(elder + 2) % 4], [(elder + 2) % 4, elder]))
    for holder in holders:
        suit = trump if rng.random() < 0.5 else rng.randrange(4)
        top = sorted((c for c in pack if suit_of(c) == suit), key=rank_of, reverse=True)
        run = rng.randint(1, max(1, min(len(top), cards - len(hands[holder]) - 1)))
        for c in top[:run]:
            if len(hands[holder]) < cards:
                hands[holder].append(c)
                pack.discard(c)
        if holder != elder:
            low = sorted((c for c in pack if suit_of(c) == suit), key=rank_of)
            if low and len(hands[elder]) < cards:
                hands[elder].append(low[0])
                pack.discard(low[0])
    # half the time an opponent is void in the runs' suits and holds a trump, ready to ruff
    rest = sorted(pack)
    rng.shuffle(rest)
    if rng.random() < 0.5:
        ruffer = hands[(elder + 1) % players]
        run_suits = {suit_of(c) for h in hands for c in h}
        trumps = [c for c in rest if suit_of(c) == trump]
        if trump in run_suits and trumps:
            run_suits.discard(trump)
        for c in trumps[:1] + [c for c in rest if suit_of(c) not in run_suits]:
            if len(ruffer) < cards and c in pack:
                ruffer.append(c)
                pack.discard(c)
        rest = [c for c in rest if c in pack]
    for hand in hands:
        while len(hand) < cards:
            hand.append(rest.pop())
    return Deal(tuple(tuple(sort_cards(h)) for h in hands), trump, dealer, rules)


def _cases(seed: int, count: int, sizes: dict[int, tuple[int, ...]] = SIZES):
    """Trick starts mostly (a fresh deal, or after whole tricks played at random), some in the
    middle of a trick; every objective, both sides."""
    rng = random.Random(seed)
    for i in range(count):
        players = (2, 3, 4)[i % 3]
        rules = Rules.preset(PRESETS[(i // 3) % len(PRESETS)],
                             **VARIANTS[(i // 15) % len(VARIANTS)])
        cards = rng.choice(sizes[players])
        position = _runs_deal(rng, players, cards, rules).position()
        played = rng.choice((0, 0, players, 2 * players, rng.randrange(players * cards)))
        for _ in range(min(played, players * (cards - 1))):
            position = position.after(rng.choice(position.legal_moves()))
        objectives = _objectives(players)
        yield position, rng.randrange(position.deal.sides), objectives[i % len(objectives)]


def _solve_both(monkeypatch, cases, table_bits=16):
    """Each case solved with the bounds and without; the answers of the first, checked, and
    whether the nodes ever differed."""
    with_cashing = Solver(table_bits=table_bits)
    monkeypatch.setenv("ALLFIVES_ENGINE_OFF", "cashing")
    without = Solver(table_bits=table_bits)
    monkeypatch.delenv("ALLFIVES_ENGINE_OFF")
    differ = 0
    for position, side, objective in cases:
        ours = with_cashing.solve(position, side, objective, fresh=True)
        plain = without.solve(position, side, objective, fresh=True)
        yield ours, plain, position, side, objective
        differ += ours.nodes != plain.nodes
    assert differ, "the bounds never changed the search"


@pytest.mark.parametrize("seed", range(3))
def test_cashing_bounds_agree_with_the_reference(monkeypatch, seed):
    for ours, plain, position, side, objective in _solve_both(monkeypatch,
                                                              _cases(3100 + seed, 300)):
        _check(ours, position, side, objective)
        assert (plain.value, plain.moves) == (ours.value, ours.moves)


def test_cashing_bounds_agree_with_the_reference_on_larger_hands(monkeypatch):
    sizes = {2: (7, 8), 3: (5,), 4: (4,)}
    for ours, plain, position, side, objective in _solve_both(monkeypatch,
                                                              _cases(3200, 36, sizes), 18):
        _check(ours, position, side, objective)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_cashing_bounds_agree_with_the_reference_many(monkeypatch, seed):
    for ours, plain, position, side, objective in _solve_both(monkeypatch,
                                                              _cases(3300 + seed, 600)):
        _check(ours, position, side, objective)


@pytest.mark.parametrize("name,left,count", [("4x9", 24, 3), ("3x12", 27, 2), ("2x12", 20, 3)])
def test_cashing_bounds_change_no_answer_on_deep_positions(monkeypatch, name, left, count):
    """Beyond the reference solver: the benchmark deals played on at random, solved with the
    bounds and without, on points and margin: the same value and every card's, and a line that
    plays out to the value."""
    rng = random.Random(f"cash:{name}")
    cases = []
    for k, position in enumerate(benchmark.positions(name, count)):
        while sum(len(h) for h in position.deal.hands) - len(position.play) > left:
            position = position.after(rng.choice(position.legal_moves()))
        side = k % position.deal.sides
        objective = "margin" if position.deal.sides == 2 and k % 2 else "points"
        cases.append((position, side, objective))
    for ours, plain, position, side, objective in _solve_both(monkeypatch, cases, 18):
        assert (ours.value, ours.moves) == (plain.value, plain.moves), position.deal
        end = position.after(*ours.line)
        assert end.is_over and reference.final_value(end, side, objective) == ours.value


def test_cashing_bounds_agree_with_dds_on_bridge_deals(monkeypatch):
    pytest.importorskip("endplay")
    cases = [(p, p.deal.side_of(p.to_move), "tricks") for p in benchmark.bridge_positions(9, 6)]
    for ours, plain, position, side, objective in _solve_both(monkeypatch, cases):
        assert ours.moves_str() == benchmark.dds_moves(position), position.deal


def test_partner_winners_agree_with_the_reference(monkeypatch):
    """Four players, the partner of the leader holding the top cards of a suit, often an
    opponent void in it with a trump: whether the leader can reach the partner's winners."""
    rng = random.Random(3400)
    cases = []
    for i in range(600):
        rules = Rules.preset(PRESETS[i % len(PRESETS)], **VARIANTS[(i // 5) % len(VARIANTS)])
        position = _runs_deal(rng, 4, 3, rules).position()
        objective = ("tricks", "points", "margin")[i % 3]
        cases.append((position, rng.randrange(2), objective))
    for ours, plain, position, side, objective in _solve_both(monkeypatch, cases):
        _check(ours, position, side, objective)
