"""solver.replies: cards valued against the heuristic's replies, every hand open.

Oracles: the definition itself, searched the slow way (every position rebuilt by
``Position.after``, the heuristic asked for the game's own ``observation_of`` at every turn of
the other side, the value of the finished deal by ``final_value``); and two bounds from other
code, since this side's best reply can do no worse than the double-dummy value (the engine),
where the other side plays its best, nor than the heuristic's play out (``solver.playout``).
"""

from __future__ import annotations

import random
import time

import pytest

from solver.game import observation_of
from solver.pimc import REPLIED, SOLVED, PimcPlayer
from solver.players import HeuristicPlayer, PlayerError
from solver.registry import make_player
from solver.playout import play_out
from solver.reference import final_value
from solver.replies import REPLY_NODES, Spent, reply_values, shared_reply_values
from solver.rules import PRESETS, Rules
from solver.sampling import sample_worlds, world_position
from solver.search import Solver
from solver.shuffle import random_position

HEURISTIC = HeuristicPlayer()


def slow_reply(position, side, objective, chooser=None):
    """The value for ``side`` when the seats of ``side`` (or ``chooser`` alone, where given)
    choose their best card and every other seat plays the heuristic's."""
    if position.is_over:
        return final_value(position, side, objective)
    legal = position.legal_moves()
    chooses = position.deal.side_of(position.to_move) == side if chooser is None \
        else position.to_move == chooser
    if not chooses and len(legal) > 1:
        legal = [HEURISTIC.act(observation_of(position, position.to_move))]
    return max(slow_reply(position.after(c), side, objective, chooser) for c in legal)


def slow_shared(positions, weights, side, objective, chooser):
    """Each world's value for ``side`` when ``chooser`` plays one card for all the worlds of
    ``positions`` (which it cannot tell apart: the same cards played) and every other seat the
    heuristic's: the worlds split by the heuristic's card, and ``chooser``'s card the first of
    best weighted sum."""
    first = positions[0]
    if first.is_over:
        return [final_value(p, side, objective) for p in positions]
    if first.to_move == chooser:
        best = None
        for card in first.legal_moves():
            values = slow_shared([p.after(card) for p in positions], weights, side, objective,
                                 chooser)
            total = sum(w * v for w, v in zip(weights, values))
            if best is None or total > best[0]:
                best = (total, values)
        return best[1]
    groups = {}
    for i, p in enumerate(positions):
        legal = p.legal_moves()
        card = legal[0] if len(legal) == 1 else \
            HEURISTIC.act(observation_of(p, p.to_move))
        groups.setdefault(card, []).append(i)
    values = [None] * len(positions)
    for card, members in groups.items():
        found = slow_shared([positions[i].after(card) for i in members],
                            [weights[i] for i in members], side, objective, chooser)
        for i, v in zip(members, found):
            values[i] = v
    return values


def _worlds(rng, players, cards, rules, count):
    """A position and ``count`` worlds of it drawn from its seat to move's view (some maybe
    alike), with weights."""
    position = random_position(rng, players, cards, rules)
    while len(position.legal_moves()) < 2:
        position = random_position(rng, players, cards, rules)
    observation = observation_of(position, position.to_move)
    worlds = sample_worlds(observation, count, rng)
    positions = [world_position(observation, w) for w in worlds]
    return position, positions, [rng.choice((0.5, 1.0, 2.0, 3.0)) for _ in positions]


#: The cards a hand holds in the small positions (a search of each world one by one) and in the
#: larger ones of the bounds.
SIZES = {2: (2, 3, 4), 3: (2, 3), 4: (2, 3)}
LARGER = {2: 6, 3: 6, 4: 4}


def _case(players, k):
    """Case k's rules (the presets in turn) and objective (the table's in turn)."""
    objectives = ("points",) if players == 3 else ("margin", "points")
    return Rules.preset(sorted(PRESETS)[k % len(PRESETS)]), objectives[k % len(objectives)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reply_values_are_the_best_reply_to_the_heuristic(players):
    rng = random.Random(f"replies{players}")
    sizes = SIZES[players]
    for k in range(60):
        rules, objective = _case(players, k)
        position = random_position(rng, players, rng.choice(sizes), rules)
        side = rng.randrange(position.deal.sides)
        found = reply_values(position, side, objective, HEURISTIC)
        assert found == {c: slow_reply(position.after(c), side, objective)
                         for c in position.legal_moves()}, (position.deal, position.play)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_best_reply_is_no_worse_than_double_dummy_or_the_heuristics_play(players):
    rng = random.Random(f"bounds{players}")
    solver = Solver(table_bits=18)
    size = LARGER[players]
    for k in range(40):
        rules, objective = _case(players, k)
        position = random_position(rng, players, size, rules)
        side = position.deal.side_of(position.to_move)
        found = reply_values(position, side, objective, HEURISTIC)
        double_dummy = solver.solve(position, side, objective, line=False).moves
        for card, value in found.items():
            assert value >= double_dummy[card]
            assert value >= final_value(play_out(position.after(card)), side, objective)


def test_with_the_partner_modelled_only_the_seat_to_move_chooses():
    rng = random.Random("partner")
    for k in range(60):
        rules, objective = _case(4, k)
        position = random_position(rng, 4, rng.choice((2, 3)), rules)
        seat = position.to_move
        side = position.deal.side_of(seat)
        found = reply_values(position, side, objective, HEURISTIC, partner=True)
        assert found == {c: slow_reply(position.after(c), side, objective, chooser=seat)
                         for c in position.legal_moves()}, (position.deal, position.play)


def test_a_partner_modelled_is_worth_no_more_than_one_choosing_nor_less_than_its_play():
    rng = random.Random("partner-bounds")
    differ = 0
    for k in range(40):
        rules, objective = _case(4, k)
        position = random_position(rng, 4, 4, rules)
        side = position.deal.side_of(position.to_move)
        modelled = reply_values(position, side, objective, HEURISTIC, partner=True)
        choosing = reply_values(position, side, objective, HEURISTIC)
        for card, value in modelled.items():
            assert value <= choosing[card]
            assert value >= final_value(play_out(position.after(card)), side, objective)
        differ += modelled != choosing
    assert differ >= 1      # the search with the partner choosing found better somewhere


def test_with_two_or_three_players_the_partner_option_changes_nothing():
    rng = random.Random("no-partner")
    for players in (2, 3):
        for _ in range(10):
            position = random_position(rng, players, 3, Rules())
            side = position.deal.side_of(position.to_move)
            objective = _case(players, 0)[1]
            assert reply_values(position, side, objective, HEURISTIC, partner=True) == \
                reply_values(position, side, objective, HEURISTIC)


def _opening(players=2, size=6, seed=1):
    return random_position(random.Random(seed), players, size, Rules(), played=0)


def test_a_limit_stops_the_search_and_says_how_far_it_went():
    position = _opening()
    side = position.deal.side_of(position.to_move)
    told = []
    whole = reply_values(position, side, "margin", HEURISTIC, counted=told.append)
    assert told[0] > 300 and len(whole) == len(position.legal_moves())
    with pytest.raises(Spent):
        reply_values(position, side, "margin", HEURISTIC, limit=told[0] // 2,
                     counted=told.append)
    assert told[1] == told[0] // 2 + 1
    assert reply_values(position, side, "margin", HEURISTIC, limit=told[0]) == whole
    with pytest.raises(Spent):
        reply_values(position, side, "margin", HEURISTIC, deadline=time.perf_counter() - 1)


def test_pimc_values_its_worlds_against_the_replies():
    position = _opening()
    observation = observation_of(position, position.to_move)
    side = position.deal.side_of(position.to_move)
    player = PimcPlayer(seed=1, replies="heuristic", worlds=3, time_limit=None)
    advice = player.advise_positions(observation, [position] * 3, [1.0, 2.0, 3.0])
    assert advice.method == REPLIED and advice.worlds == 3 and advice.complete
    assert {a.action: a.mean for a in advice.actions} == pytest.approx(
        {c: float(v) for c, v in reply_values(position, side, "margin", HEURISTIC).items()})
    # its own worlds, drawn from what it sees
    advice = PimcPlayer(seed=2, replies="heuristic", time_limit=None).advise(observation)
    assert advice.method == REPLIED and advice.worlds >= 4


def test_pimc_solves_double_dummy_where_the_first_world_does_not_fit():
    for seed in range(1, 40):
        position = _opening(seed=seed)
        side = position.deal.side_of(position.to_move)
        told = []
        reply_values(position, side, "margin", HEURISTIC, counted=told.append)
        solution = Solver().solve(position, side, "margin", line=False, fresh=True)
        # a budget whose first share stops the search one position short, leaving enough for
        # every world's double-dummy solve
        budget = 4 * (told[0] - 1) * REPLY_NODES
        if 4 * solution.nodes < budget - told[0] * REPLY_NODES:
            break
    else:
        pytest.fail("no opening here whose solve is that much smaller than its search")
    observation = observation_of(position, position.to_move)
    player = PimcPlayer(seed=1, replies="heuristic", worlds=4, time_limit=None,
                        node_limit=budget)
    advice = player.advise_positions(observation, [position] * 4, [1.0] * 4)
    assert advice.method == SOLVED and advice.worlds == 4
    assert {a.action: a.mean for a in advice.actions} == pytest.approx(
        {c: float(v) for c, v in solution.moves.items()})


def test_the_option_names_its_choices():
    assert make_player("pimc").replies == "double-dummy"
    assert make_player("pimc", replies="heuristic").replies == "heuristic"
    with pytest.raises(PlayerError, match="replies: 'dd' is not 'double-dummy' or 'heuristic'"):
        make_player("pimc", replies="dd")
    assert make_player("pimc").partner == "best"
    assert make_player("pimc", replies="heuristic", partner="heuristic").partner == "heuristic"
    with pytest.raises(PlayerError, match="partner: only with replies=heuristic"):
        make_player("pimc", partner="heuristic")
    with pytest.raises(PlayerError, match="partner: 'x' is not 'best' or 'heuristic'"):
        make_player("pimc", partner="x")


def test_pimc_with_the_partner_modelled_values_a_four_player_opening_by_the_replies():
    position = _opening(players=4)
    observation = observation_of(position, position.to_move)
    side = position.deal.side_of(position.to_move)
    player = PimcPlayer(seed=1, replies="heuristic", partner="heuristic", worlds=2,
                        time_limit=None)
    advice = player.advise_positions(observation, [position] * 2, [1.0, 1.0])
    assert advice.method == REPLIED and advice.complete
    told = []
    assert {a.action: a.mean for a in advice.actions} == pytest.approx(
        {c: float(v) for c, v in
         reply_values(position, side, "margin", HEURISTIC, partner=True,
                      counted=told.append).items()})
    # the budget counts the positions of the search with the partner modelled, two worlds'
    assert advice.nodes == 2 * told[0] * REPLY_NODES
    choosing = []
    reply_values(position, side, "margin", HEURISTIC, counted=choosing.append)
    assert choosing[0] > 10 * told[0]
    with pytest.raises(ValueError, match="side of the seat to move"):
        reply_values(position, 1 - side, "margin", HEURISTIC, partner=True)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_cheater_replying_plays_a_best_reply_late_in_a_deal(n):
    from solver.game import Match
    from solver.players import CheaterPlayer, decide

    rng = random.Random(f"cheater{n}")
    objective = "points" if n == 3 else "margin"
    checked = 0
    for game in range(30):
        state = Match(n, Rules().replace(target=999)).new_initial_state(seed=100 * n + game)
        while state.phase != "play" or max(len(h) for h in state.hands) > 3:
            if state.phase == "play":
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(decide(HEURISTIC, state))
        position = state.position()
        if len(position.legal_moves()) < 2:
            continue
        side = position.deal.side_of(position.to_move)
        best = {c: slow_reply(position.after(c), side, objective)
                for c in position.legal_moves()}
        card = CheaterPlayer(time_limit=None, replies="heuristic").act(
            state.observation(state.current_player()), state)
        assert best[card] == max(best.values()), (position, card)
        # a search past its limit plays the double-dummy cheater's card instead
        stopped = CheaterPlayer(time_limit=None, node_limit=REPLY_NODES, replies="heuristic")
        plain = CheaterPlayer(time_limit=None, node_limit=REPLY_NODES)
        observation = state.observation(state.current_player())
        assert stopped.act(observation, state) == plain.act(observation, state)
        assert stopped.stopped >= 1
        checked += 1
    assert checked >= 10
    with pytest.raises(PlayerError, match="replies: 'x' is not"):
        make_player("cheater", replies="x")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shared_replies_choose_one_card_for_the_worlds_not_told_apart(players):
    rng = random.Random(f"shared{players}")
    sizes = SIZES[players]
    for k in range(40):
        rules, objective = _case(players, k)
        position, positions, weights = _worlds(rng, players, rng.choice(sizes), rules,
                                               rng.choice((1, 3, 6)))
        seat = position.to_move
        side = position.deal.side_of(seat)
        found = shared_reply_values(positions, weights, objective, HEURISTIC)
        assert found == {c: slow_shared([p.after(c) for p in positions], weights, side,
                                        objective, seat)
                         for c in position.legal_moves()}, (position.deal, position.play)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shared_replies_lie_between_the_heuristics_play_and_a_card_for_each_world(players):
    rng = random.Random(f"shared-bounds{players}")
    size = LARGER[players]
    fused = 0
    for k in range(16):
        rules, objective = _case(players, k)
        position, positions, weights = _worlds(rng, players, size, rules, 8)
        side = position.deal.side_of(position.to_move)
        found = shared_reply_values(positions, weights, objective, HEURISTIC)
        each = [reply_values(p, side, objective, HEURISTIC, partner=players == 4)
                for p in positions]
        for card, values in found.items():
            shared = sum(w * v for w, v in zip(weights, values))
            # the heuristic's own play is one card for the worlds not told apart
            played = sum(w * final_value(play_out(p.after(card)), side, objective)
                         for w, p in zip(weights, positions))
            apart = sum(w * e[card] for w, e in zip(weights, each))
            assert played <= shared <= apart
            fused += shared < apart
        # one world alone: the search of each world by itself
        assert shared_reply_values(positions[:1], [2.0], objective, HEURISTIC) == \
            {c: [v] for c, v in each[0].items()}
    # the worlds told apart were worth more somewhere (with four players three seats' cards
    # tell nearly every world apart within a trick: not in these cases)
    assert fused >= 1 or players == 4


def test_shared_replies_stop_at_a_limit_and_count_a_position_once_a_world():
    rng = random.Random("shared-limit")
    position, positions, weights = _worlds(rng, 2, 4, Rules(), 5)
    told = []
    whole = shared_reply_values(positions, weights, "margin", HEURISTIC, counted=told.append)
    alone = []
    shared_reply_values(positions[:1], [1.0], "margin", HEURISTIC, counted=alone.append)
    assert told[0] > alone[0]
    with pytest.raises(Spent):
        shared_reply_values(positions, weights, "margin", HEURISTIC, limit=told[0] // 2)
    assert shared_reply_values(positions, weights, "margin", HEURISTIC, limit=told[0]) == whole
    with pytest.raises(Spent):
        shared_reply_values(positions, weights, "margin", HEURISTIC,
                            deadline=time.perf_counter() - 1)


def test_pimc_with_shared_replies_values_its_worlds_together():
    rng = random.Random("shared-pimc")
    position, positions, weights = _worlds(rng, 2, 6, Rules(), 6)
    observation = observation_of(position, position.to_move)
    player = PimcPlayer(seed=1, replies="heuristic", fusion="shared", time_limit=None)
    advice = player.advise_positions(observation, positions, weights)
    assert advice.method == REPLIED and advice.worlds == 6 and advice.complete
    found = shared_reply_values(positions, weights, "margin", HEURISTIC)
    total = sum(weights)
    assert {a.action: a.mean for a in advice.actions} == pytest.approx(
        {c: sum(w * v for w, v in zip(weights, values)) / total
         for c, values in found.items()})
    # a budget too small for the worlds together, but not for some worlds one by one (in half
    # of it): those worlds against the replies, the decision cut short
    told = []
    shared_reply_values(positions, weights, "margin", HEURISTIC, counted=told.append)
    limit = told[0] * REPLY_NODES * 3 // 2
    stopped = PimcPlayer(seed=1, replies="heuristic", fusion="shared", time_limit=None,
                         node_limit=limit)
    after = stopped.advise_positions(observation, positions, weights)
    assert after.method == REPLIED and 1 <= after.worlds < 6
    assert not after.complete and stopped.stopped == 1
    # too small for either: solved double-dummy, and cut short still
    stopped = PimcPlayer(seed=1, replies="heuristic", fusion="shared", time_limit=None,
                         node_limit=told[0] * REPLY_NODES // 2)
    after = stopped.advise_positions(observation, positions, weights)
    assert after.method != REPLIED and not after.complete and stopped.stopped == 1
    # the partner's cards the heuristic's, whichever search values the worlds
    assert PimcPlayer(replies="heuristic", fusion="shared").partner == "heuristic"
    with pytest.raises(PlayerError, match="partner: 'best' not with fusion=shared"):
        make_player("pimc", replies="heuristic", fusion="shared", partner="best")
    with pytest.raises(PlayerError, match="fusion: 'shared' only with replies=heuristic"):
        make_player("pimc", fusion="shared")
    with pytest.raises(PlayerError, match="fusion: 'x' is not 'none', 'postpone' or 'shared'"):
        make_player("pimc", fusion="x")
