"""solver.pimc and solver.bidding: the Monte Carlo player.

The oracle for card play is the engine itself on the true deal: given the one world that is
the truth, the player's values are the engine's values and its card is one of the engine's
best.  The calls are checked against the game engine: each branch's value is the pegs the
rules give before play plus the double-dummy value of the deal the rules deal.  Whole random
games check that the player always acts legally, at every table and preset.
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from solver.advice import Budget
from solver.batch import play_deals, run_duplicate, run_matches
from solver.bidding import _branches, call_advice
from solver.calling import world_pack
from solver.errors import AllFivesError
from solver.game import BEG, PLAY, RUN, STAND, TAKE_ONE, Match
from solver import clock, reference
from solver.pimc import PLAYED_OUT, PLAYED_OUT_WORLDS, REPLIED, Advice, PimcPlayer, summarize
from solver.pimc import value_play as unpatched_value_play     # (some tests patch it)
from solver.heuristic import stand_or_beg, take_one_or_run
from solver.players import CheaterPlayer, PlayerError, decide, within_reach
from solver.registry import make_player, player_names, player_spec
from solver.rules import PRESETS, Rules
from solver.search import Solver
from solver.shuffle import deal_pack

OBJECTIVE = {2: "margin", 3: "points", 4: "margin"}


def side(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def check_advice(advice: Advice, legal) -> None:
    assert sorted(a.action for a in advice.actions) == sorted(legal)
    assert advice.best in legal
    if advice.worlds:
        for a in advice.actions:
            if advice.worlds == 1 and not advice.exact and advice.objective != "win":
                # no interval of a mean from one world (a chance has Wilson's)
                assert math.isnan(a.low) and math.isnan(a.high)
            else:
                assert a.low - 1e-9 <= a.mean <= a.high + 1e-9
            if advice.objective == "win":
                assert 0 <= a.low <= a.high <= 1
        assert sum(a.best for a in advice.actions) >= 1 - 1e-9
        means = [a.mean for a in advice.actions]
        if advice.objective != "win":
            assert means == sorted(means, reverse=True)


def to_play(players: int, seed: int, rules: Rules | None = None):
    """A fresh match after the heuristic's calls, in its play phase."""
    state = Match(players=players, rules=rules or Rules()).new_initial_state(seed=seed)
    heuristic = make_player("heuristic")
    while state.phase != PLAY:
        state.apply_action(decide(heuristic, state))
    return state


# ---- the statistics -----------------------------------------------------------------------


def test_summarize_equal_weights_is_the_plain_mean_and_t_interval():
    rng = random.Random(1)
    rows = [[rng.randint(-10, 10) for _ in range(20)] for _ in range(3)]
    out = summarize(rows, [1.0] * 20, exact=False)
    tops = [max(r[i] for r in rows) for i in range(20)]
    for row, (mean, low, high, best) in zip(rows, out):
        assert mean == pytest.approx(statistics.fmean(row))
        half = 2.0930240544 * statistics.stdev(row) / math.sqrt(20)    # t(0.975, 19), tables
        assert (low, high) == pytest.approx((mean - half, mean + half))
        assert best == pytest.approx(sum(v == t for v, t in zip(row, tops)) / 20)
    assert sum(o[3] for o in out) >= 1


def test_summarize_weights_count_as_repeated_worlds_for_the_mean():
    out = summarize([[1, 5], [2, 2]], [3.0, 1.0], exact=False)
    assert out[0][0] == pytest.approx((3 * 1 + 5) / 4)
    assert out[0][3] == pytest.approx(1 / 4) and out[1][3] == pytest.approx(3 / 4)
    exact = summarize([[1, 5], [2, 2]], [3.0, 1.0], exact=True)
    assert exact[0][1] == exact[0][0] == exact[0][2]


def test_summarize_gives_no_interval_from_one_world_unless_exact():
    (mean, low, high, best), = summarize([[4.0]], [2.5], exact=False)
    assert mean == 4.0 and best == 1.0 and math.isnan(low) and math.isnan(high)
    assert summarize([[4.0]], [2.5], exact=True)[0][:3] == (4.0, 4.0, 4.0)


def test_summarize_gives_no_point_interval_where_the_worlds_drawn_all_agree():
    """A card worth 1 in every world drawn had the interval 1 .. 1, which misses its mean
    wherever a world not drawn differs (some 8 in 10 of the misses, three players and 16
    worlds).  It reaches as far as the values spread, times the share of worlds that n alike
    leave unseen at 95% (the rule of three); where no value spreads at all it is not known."""
    (a, low_a, high_a, _), (b, low_b, high_b, _) = summarize([[1.0] * 16, [0, 2, 4, 1] * 4],
                                                               [1.0] * 16, exact=False)
    unseen = 1 - 0.05 ** (1 / 16)       # some 0.17, where 3 / 16 is 0.19
    assert a == 1.0 and (low_a, high_a) == pytest.approx((1 - 4 * unseen, 1 + 4 * unseen))
    half = 2.1314495455 * statistics.stdev([0, 2, 4, 1] * 4) / 4   # t(0.975, 15), as it was
    assert (low_b, high_b) == pytest.approx((b - half, b + half))
    (mean, low, high, _), _ = summarize([[6.0] * 4, [6.0] * 4], [1.0] * 4, exact=False)
    assert mean == 6.0 and math.isnan(low) and math.isnan(high)
    assert summarize([[6.0] * 4, [6.0] * 4], [1.0] * 4, exact=True)[0][:3] == (6.0,) * 3


def test_summarize_gives_no_interval_from_weights_worth_fewer_than_two_worlds():
    """Two worlds weighted 1 and 0.1 are worth 1.2 (Kish): a t of 0.2 degrees of freedom would
    make an interval of hundreds of thousands of points; none is given.  Two equal worlds are
    worth two: an interval, wide but finite."""
    (mean, low, high, _), = summarize([[-5.0, 6.0]], [1.0, 0.1], exact=False)
    assert mean == pytest.approx(-4.0) and math.isnan(low) and math.isnan(high)
    (mean, low, high, _), = summarize([[-5.0, 6.0]], [1.0, 1.0], exact=False)
    assert mean == 0.5 and -80 < low < mean < high < 80


@pytest.mark.parametrize("wins, worlds", [(3, 4), (4, 4), (0, 4), (1, 1), (37, 64)])
def test_a_chance_has_the_wilson_interval_within_0_and_1(wins, worlds):
    """A chance of winning (values 1 or 0) once had the normal interval, which ran past 100%
    (30% to 124% from 3 wins in 4), or shrank to a point when every world agreed."""
    from solver.stats import wilson_interval

    row = [1.0] * wins + [0.0] * (worlds - wins)
    (mean, low, high, _), = summarize([row], [1.0] * worlds, exact=False, chance=True)
    expected = wilson_interval(wins, worlds)
    assert mean == pytest.approx(wins / worlds)
    assert (low, high) == pytest.approx((expected.low, expected.high))
    assert 0 <= low <= mean <= high <= 1 and low < high
    # weighted worlds count as their effective number: two worlds of weight 3 as two
    (_, low2, high2, _), = summarize([[1.0, 0.0]], [3.0, 3.0], exact=False, chance=True)
    assert (low2, high2) == pytest.approx((wilson_interval(1, 2).low, wilson_interval(1, 2).high))


def test_unequal_weights_count_as_kishs_effective_number_of_worlds():
    """Worlds of weights 3, 1, 1, 1 count as (sum w)^2 / sum w^2 = 36 / 12 = 3 worlds, not 4:
    the t interval has 2 degrees of freedom and the chance Wilson's interval of 3.  Every test
    used equal weights, where the two counts agree."""
    from solver.stats import wilson_interval

    weights = [3.0, 1.0, 1.0, 1.0]
    (mean, low, high, _), = summarize([[0.0, 4.0, 8.0, 0.0]], weights, exact=False)
    assert mean == pytest.approx(2.0)                   # (0 + 4 + 8 + 0) / 6
    # weighted variance (3*4 + 4 + 36 + 4) / 6 = 28/3, times n/(n-1) = 3/2: 14
    t = 0.95 / math.sqrt(2 * 0.975 * 0.025)             # t(0.975, 2) in closed form, 4.3027
    half = t * math.sqrt(14 / 3)
    assert (low, high) == pytest.approx((2.0 - half, 2.0 + half))
    (mean, low, high, _), = summarize([[1.0, 0.0, 1.0, 0.0]], weights, exact=False,
                                      chance=True)
    expected = wilson_interval(2, 3)                     # 4/6 = 2/3 of 3 worlds
    assert mean == pytest.approx(2 / 3)
    assert (low, high) == pytest.approx((expected.low, expected.high))
    # the advice carries that number; one built without it, as many as its worlds
    from solver.advice import effective_worlds
    assert effective_worlds(weights) == pytest.approx(3.0) and effective_worlds([]) == 0.0
    assert Advice(0, "play", "margin", 32, False, True, ()).effective == 32.0


def test_equal_means_rank_the_heuristics_card_first_then_the_hands_order():
    """On equal means the card the heuristic plays comes first (exact worlds often tie late in
    a deal); putting it last went unnoticed."""
    from solver.advice import valued

    legal = [5, 20, 40]
    values = {c: [1.0, 2.0] for c in legal}
    for preferred, order in ((40, [40, 5, 20]), (20, [20, 5, 40]), (5, [5, 20, 40])):
        actions = valued(legal, values, [1.0, 1.0], exact=True, preferred=preferred)
        assert [a.action for a in actions] == order


def test_the_first_solve_may_use_a_quarter_of_the_nodes_however_many_worlds():
    """The budget is shared over the first MIN_WORLDS (4) solves, not over every world: of 100
    worlds the first solve gets 1000 // 4 nodes, not 1000 // 100, so that four worlds are
    sure to be valued; after those, each solve may use what is left."""

    budget = Budget(None, 1000, 100)
    assert budget.limits(0) == (250, None)
    budget.used(250)
    assert budget.limits(1) == (250, None)              # 750 over the 3 still to come
    assert budget.limits(9) == (750, None)
    assert Budget(None, 1000, 2).limits(0) == (500, None)


# ---- card play against the engine -----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_one_true_world_gives_the_engines_values_and_a_best_card(players, preset):
    rules = Rules.preset(preset)
    checked = 0
    for seed in range(4):
        state = to_play(players, seed, rules)
        if len(state.hands[0]) > 6 and players == 4:
            continue
        player = PimcPlayer(seed=seed, time_limit=None, win=False)
        heuristic = make_player("heuristic")
        oracle = Solver(16)
        while state.phase == PLAY and state.deal_number == 1:
            seat = state.current_player()
            obs = state.observation(seat)
            if len(obs.legal_actions) > 1:
                advice = player.advise_positions(obs, [state.position()], [1.0], exact=True)
                truth = oracle.solve(state.position(), side(seat, players),
                                     OBJECTIVE[players], line=False, fresh=True)
                assert advice.complete and advice.worlds == 1
                assert advice.objective == OBJECTIVE[players]
                check_advice(advice, obs.legal_actions)
                for a in advice.actions:
                    assert a.mean == truth.moves[a.action] == a.low == a.high
                assert truth.moves[advice.best] == max(truth.moves.values())
                checked += 1
            state.apply_action(decide(heuristic, state))
    assert checked


def test_an_interval_of_points_is_never_below_0():
    """With three players the objective is points, which are never below 0: an interval of a
    mean near 0 reached below it (a hint showed '-0.02 to 0.02'); it is kept to 0 and above,
    where the interval about the mean would reach below."""
    kept = 0
    for seed in range(12):
        state = to_play(3, seed)
        player = PimcPlayer(seed=seed, worlds=16, time_limit=None, node_limit=2_000_000)
        heuristic = make_player("heuristic")
        while state.phase == PLAY and state.deal_number == 1:
            obs = state.observation(state.current_player())
            if len(obs.legal_actions) > 1:
                advice = player.advise(obs)
                assert advice.objective == "points"
                for a in advice.actions:
                    assert not a.low < 0 and not a.mean < a.low
                    kept += a.low == 0 and a.high - a.mean > a.mean > 0
            state.apply_action(decide(heuristic, state))
        if kept:
            break
    assert kept


def test_weighted_worlds_choose_by_the_weighted_mean():
    """Two worlds of weights 1 and 3: each card's mean is (v1 + 3 v2) / 4 of the engine's
    values in each.  (This test once gave the same world twice, where any weighting, or none,
    gives the same mean.)"""
    state = to_play(2, 5)
    obs = state.observation(state.current_player())
    first, second = sampling_worlds(obs, 2)
    assert first != second
    me = side(obs.seat, 2)
    advice = PimcPlayer(seed=1, time_limit=None).advise_positions(obs, [first, second],
                                                                  [1.0, 3.0])
    one = Solver(16).solve(first, me, "margin", line=False, fresh=True).moves
    two = Solver(16).solve(second, me, "margin", line=False, fresh=True).moves
    expected = {c: (one[c] + 3 * two[c]) / 4 for c in obs.legal_actions}
    assert any(one[c] != two[c] for c in obs.legal_actions)     # the weights matter here
    assert {a.action: a.mean for a in advice.actions} == pytest.approx(expected)
    assert advice.best in [c for c in expected if expected[c] == max(expected.values())]


def test_limits_are_respected_on_twelve_card_hands():
    rules = Rules()
    for seed in range(40):
        state = Match(players=4, rules=rules).new_initial_state(seed=seed)
        # beg and run twice when the heuristic would not: force the 12-card deal
        while state.phase != PLAY and state.deal_number == 1:
            if state.phase == "elder":
                state.apply_action(BEG)
            elif state.phase == "dealer":
                state.apply_action(RUN)
        if state.phase == PLAY and len(state.hands[0]) == 12:
            break
    else:
        pytest.fail("no 12-card deal in these seeds")
    obs = state.observation(state.current_player())
    player = PimcPlayer(seed=1, time_limit=0.3, worlds=8)
    advice = player.advise_positions(obs, [state.position()] * 8, [1.0] * 8)
    assert advice.seconds < 0.3 + 3.0
    check_advice(advice, obs.legal_actions)
    node_player = PimcPlayer(seed=1, time_limit=None, node_limit=50_000, worlds=8)
    advice = node_player.advise_positions(obs, [state.position()] * 8, [1.0] * 8)
    assert advice.nodes <= 50_000 + 8 * 1_000
    check_advice(advice, obs.legal_actions)
    assert advice.worlds
    if advice.method == PLAYED_OUT:     # not one world solved: the deals played out instead
        assert not advice.complete
    assert node_player.act(obs) in obs.legal_actions


def test_near_the_target_the_match_comes_first():
    checked = 0
    for players in (2, 4):
        for seed in range(6):
            state = Match(players=players).new_initial_state(seed=seed, score=(57, 58))
            heuristic = make_player("heuristic")
            while state.phase != PLAY and not state.is_terminal():
                state.apply_action(decide(heuristic, state))
            if state.phase != PLAY or len(state.hands[0]) > 6:
                continue
            obs = state.observation(state.current_player())
            me = side(obs.seat, players)
            advice = PimcPlayer(seed=1, time_limit=None).advise_positions(
                obs, [state.position()], [1.0])
            assert advice.objective == "win"
            check_advice(advice, obs.legal_actions)
            win = Solver(16).solve(state.position(), me, "win", line=False)
            points = Solver(16).solve(state.position(), me, "margin", line=False)
            for a in advice.actions:
                assert a.mean == win.moves[a.action] and a.points == points.moves[a.action]
                assert a.others_win is None     # (a third seat's chance: three players only)
            assert advice.complete and not advice.exact     # (one world, not every one)
            assert advice.drawn == (1 if len(obs.legal_actions) > 1 else 0)
            assert win.moves[advice.best] == max(win.moves.values())
            best = [c for c in win.moves if win.moves[c] == win.moves[advice.best]]
            assert points.moves[advice.best] == max(points.moves[c] for c in best)
            checked += 1
            without = PimcPlayer(seed=1, time_limit=None, win=False).advise_positions(
                obs, [state.position()], [1.0])
            assert without.objective == "margin"
    assert checked


def three_near_the_target(matches: int, cards: int):
    """Three-player matches each seat 1 to 21 points short of the target, played by the heuristic
    until at most ``cards`` cards are left in the hands: those where a seat still has a choice
    and some side could reach the target in the deal."""
    rng = random.Random(0)
    heuristic = make_player("heuristic")
    for seed in range(matches):
        score = tuple(rng.randrange(40, 61) for _ in range(3))
        state = Match(players=3).new_initial_state(seed=seed, score=score)
        while not state.is_terminal() and (state.phase != PLAY
                                           or sum(map(len, state.hands)) > cards):
            state.apply_action(decide(heuristic, state))
        if not state.is_terminal() and len(state.legal_actions()) > 1 \
                and within_reach(state.position()):
            yield state


def test_with_three_players_near_the_target_the_others_are_kept_from_winning():
    """Among the cards with the best chance of winning the match (often none at all), the card
    after which another seat can least win it comes before the points: checked against the
    reference solver's win for every seat, for the player's advice on the true deal and for
    the cheater."""
    checked = changed = 0
    for state in three_near_the_target(600, cards=8):
        position = state.position()
        me = position.to_move
        win = reference.solve(position, me, "win").moves
        lost = dict.fromkeys(win, 0)
        for other in {0, 1, 2} - {me}:
            for card, value in reference.solve(position, other, "win").moves.items():
                lost[card] = max(lost[card], value)
        points = reference.solve(position, me, "points").moves
        order = sorted(win, key=lambda c: (-win[c], lost[c], -points[c]))
        best = [c for c in order if (win[c], lost[c], points[c]) == (win[order[0]], lost[order[0]],
                                                                     points[order[0]])]
        obs = state.observation(me)
        advice = PimcPlayer(seed=1, time_limit=None).advise_positions(obs, [position], [1.0],
                                                                      exact=True)
        assert [(a.mean, a.others_win, a.points) for a in advice.actions] == \
            [(win[c], lost[c], points[c]) for c in order]
        assert advice.complete and advice.exact      # (no limit: every solve finished)
        assert advice.best in best
        assert CheaterPlayer(time_limit=None).act(obs, state) in best
        by_points = max((c for c in win if win[c] == win[order[0]]), key=lambda c: points[c])
        changed += lost[by_points] > lost[order[0]]
        checked += 1
    assert checked > 150 and changed     # (the points alone would have let another seat win)


def test_with_three_players_near_the_target_a_limit_leaves_out_the_others_chance():
    """Where the node limit fits the chances of winning and the points in every world but not
    the other seats' chances, the advice has none of those (rather than a mean over fewer
    worlds than the weights) and says it was cut short; the cheater at a tiny limit still plays
    a legal card, and counts the decision stopped."""
    left_out = stopped = 0
    for state in three_near_the_target(400, cards=14):
        obs = state.observation(state.current_player())
        advice = PimcPlayer(seed=1, time_limit=None, node_limit=2000, worlds=16).advise(obs)
        check_advice(advice, obs.legal_actions)
        if advice.objective == "win" and advice.actions[0].points is not None:
            known = {a.others_win is not None for a in advice.actions}
            assert len(known) == 1
            if known == {False}:
                assert not advice.complete
                left_out += 1
        cheater = CheaterPlayer(time_limit=None, node_limit=50)
        assert cheater.act(obs, state) in obs.legal_actions
        stopped += cheater.stopped
        if left_out and stopped:
            break
    assert left_out and stopped


# ---- the calls ----------------------------------------------------------------------------


def test_world_pack_deals_the_world_and_its_turnup():
    rng = random.Random(3)
    for players in (2, 3, 4):
        state = Match(players=players).new_initial_state(seed=players)
        pack = world_pack(state.hands, state.dealer, state.turnups[0], rng)
        hands, turnups = deal_pack(pack, players, state.dealer)
        assert [sorted(h) for h in hands] == [sorted(h) for h in state.hands]
        assert turnups == state.turnups and sorted(pack) == sorted(set(pack)) and len(pack) == 52
        # the cards left after the turn-up (a run deals from them) come in an order the RNG
        # shuffles: not the pack's own order, and another for another RNG
        dealt = 6 * players + 1
        rest = pack[dealt:]
        assert rest != sorted(rest)
        assert world_pack(state.hands, state.dealer, state.turnups[0],
                          random.Random(4))[dealt:] != rest


@pytest.mark.parametrize("players", [2, 3, 4])
def test_call_branches_follow_the_rules(players):
    for seed in range(6):
        state = Match(players=players).new_initial_state(seed=seed)
        obs = state.observation(state.current_player())
        pack = list(state.pack)
        branches = _branches(obs, pack)
        assert set(branches) == {STAND, BEG}
        stand = branches[STAND]
        assert stand.phase == PLAY and stand.trump == obs.turnups[0] // 16
        begged = branches[BEG]
        dealer_call = begged.actions[1][1]
        # the modelled reply is the heuristic's call on the dealer's own hand
        replay = Match(players=players).new_initial_state(dealer=obs.dealer, auto_deal=False)
        replay.deal_pack(pack)
        replay.apply_action(BEG)
        assert dealer_call == take_one_or_run(replay.observation(replay.dealer))
        replay.apply_action(dealer_call)
        assert replay.pegs == begged.pegs and replay.phase == begged.phase
        if dealer_call == TAKE_ONE:
            assert begged.hands == stand.hands


def test_a_calls_branch_counts_what_the_deal_pegged_before_play():
    """``_pegged``: the take-one's point for the side that pegged it, less for the other with
    the margin, nothing for it without; a deal thrown in is over at 0; a match won in the
    calls is the fixed win, or loss, and over."""
    from solver.bidding import _pegged
    from solver.calling import WIN_VALUE

    state = Match(2, Rules(target=61)).new_initial_state(seed=1, dealer=1)
    state.apply_action(BEG)
    state.apply_action(TAKE_ONE)
    assert [_pegged(state, 0, True), _pegged(state, 1, True), _pegged(state, 1, False)] == \
        [(1.0, False), (-1.0, False), (0.0, False)]
    won = Match(2, Rules(target=1)).new_initial_state(seed=1, dealer=1)
    won.apply_action(BEG)
    won.apply_action(TAKE_ONE)
    assert won.is_terminal()
    assert [_pegged(won, 0, True), _pegged(won, 1, False)] == \
        [(WIN_VALUE, True), (-WIN_VALUE, True)]
    for seed in range(200):
        thrown = Match(2, Rules(target=61)).new_initial_state(seed=seed, dealer=1)
        thrown.apply_action(BEG)
        while not thrown.deals and RUN in thrown.legal_actions():
            thrown.apply_action(RUN)
        if thrown.deals and thrown.deals[-1].thrown_in:
            assert _pegged(thrown, 0, True) == _pegged(thrown, 1, True) == (0.0, True)
            return
    raise AssertionError("no deal thrown in")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_call_values_are_pegs_plus_the_deals_value(players):
    for seed in range(4):
        state = Match(players=players).new_initial_state(seed=seed)
        if state.phase != "elder":
            continue
        player = PimcPlayer(seed=seed, time_limit=None)
        obs = state.observation(state.current_player())
        advice = call_advice(player, obs, [state.hands], [1.0])
        check_advice(advice, obs.legal_actions)
        me = side(obs.seat, players)
        after = Match(players=players).new_initial_state(dealer=obs.dealer, auto_deal=False)
        after.deal_pack(state.pack)          # the rest of the pack does not matter to a stand
        after.apply_action(STAND)
        pegged = sum(p.points if p.side == me else (-p.points if players != 3 else 0)
                     for p in after.pegs)
        value = Solver(16).solve(after.position(), me, OBJECTIVE[players], moves=False,
                                 line=False, node_limit=50_000)
        stand = next(a for a in advice.actions if a.action == STAND)
        assert stand.mean == pegged + (value.lower + value.upper) / 2


def test_a_calls_advice_is_exact_only_when_asked_and_every_world_was_valued():
    """``exact`` as asked, where every world given was begun; ``complete`` only where no
    branch's solve was cut short."""
    state = Match(2).new_initial_state(seed=1)
    obs = state.observation(state.current_player())
    hands = [state.hands] * 3
    player = PimcPlayer(seed=1, time_limit=None)
    assert not call_advice(player, obs, hands, [1.0] * 3).exact      # not asked
    asked = call_advice(player, obs, hands, [1.0] * 3, exact=True)
    assert asked.exact and asked.complete
    cut = call_advice(PimcPlayer(seed=1, time_limit=None, node_limit=1), obs, hands, [1.0] * 3,
                      exact=True)
    assert not cut.complete


@pytest.mark.parametrize("players", [2, 3, 4])
def test_calls_are_valid_in_every_phase(players):
    for seed in range(5):
        state = Match(players=players).new_initial_state(seed=seed)
        player = PimcPlayer(seed=seed, time_limit=None, worlds=4)
        while state.phase in ("elder", "dealer") and state.deal_number == 1:
            obs = state.observation(state.current_player())
            advice = call_advice(player, obs, [state.hands] * 2, [1.0, 1.0])
            check_advice(advice, obs.legal_actions)
            assert advice.phase == obs.phase
            # the other call from the elder hand, to see the dealer's phase too
            state.apply_action(BEG if obs.phase == "elder" else advice.best)


def test_a_call_begins_no_batch_of_worlds_once_its_budget_is_spent():
    """The worlds of a call valued by solves are taken ``WORLD_BATCH`` at a time, a batch begun
    only while the budget lasts: before, every world's branches were solved, each solve given a
    tenth of a millisecond once the time was up (a hundred thousand call worlds under a
    0.1 s limit took 51 s)."""
    from solver.bidding import WORLD_BATCH

    state = next(s for s in map(lambda seed: Match(players=2).new_initial_state(seed=seed),
                                range(10)) if s.phase == "elder")
    obs = state.observation(state.current_player())
    player = PimcPlayer(seed=1)
    spent = Budget(0.0, None, 40)
    advice = call_advice(player, obs, [state.hands] * 40, [1.0] * 40, budget=spent)
    check_advice(advice, obs.legal_actions)
    assert advice.worlds == WORLD_BATCH and not advice.complete
    whole = call_advice(player, obs, [state.hands] * 40, [1.0] * 40,
                        budget=Budget(None, None, 40))
    assert whole.worlds == 40 and whole.complete
    assert [a.mean for a in whole.actions] == [a.mean for a in advice.actions]


@pytest.mark.parametrize("calls", ["pimc", "rollout"])
def test_call_worlds_are_drawn_within_their_share_of_the_time(monkeypatch, calls):
    import solver.advice as advice_module

    monkeypatch.setattr(advice_module, "DRAW_SHARE", 0.0)
    state = next(s for s in map(lambda seed: Match(players=2).new_initial_state(seed=seed),
                                range(10)) if s.phase == "elder")
    obs = state.observation(state.current_player())
    advice = PimcPlayer(seed=1, calls=calls, call_worlds=5000, time_limit=1.0).advise(obs)
    assert advice.worlds <= 16 and not advice.complete


def test_heuristic_calls_option_calls_by_the_rules():
    player = PimcPlayer(seed=1, calls="heuristic")
    for seed in range(10):
        state = Match(players=2).new_initial_state(seed=seed)
        obs = state.observation(state.current_player())
        assert player.act(obs) == stand_or_beg(obs)
        state.apply_action(BEG)
        if state.phase == "dealer":
            obs = state.observation(state.current_player())
            assert player.act(obs) == take_one_or_run(obs)


# ---- with the sampler: whole games ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_whole_games_are_played_legally(players, preset):
    rules = Rules.preset(preset)
    spec = player_spec("pimc:worlds=4,time_limit=none,node_limit=200000,calls=pimc")
    result = play_deals([spec.make(seed=s) if s % 2 == 0 else make_player("heuristic")
                         for s in range(players)], rules, deals=2, seed=players)
    assert len(result.deal_points) == 2


def test_a_seed_repeats_the_play():
    spec = "pimc:worlds=6,time_limit=none,node_limit=300000,calls=pimc"
    first = run_duplicate(spec, "heuristic", 2, 3, seed=4)
    again = run_duplicate(spec, "heuristic", 2, 3, seed=4)
    assert first.differences() == again.differences()
    records = run_duplicate(spec, "random", 4, 1, seed=5, keep_records=True)
    assert records == run_duplicate(spec, "random", 4, 1, seed=5, keep_records=True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_default_worlds_depend_on_the_table(players):
    """Unasked, a decision values 128 worlds with two or three players and 64 with four (where
    each costs more), and plays as the player that asks for that many; asked for, the count
    holds at every table."""
    from solver.pimc import DEFAULT_WORLDS, FOUR_PLAYER_WORLDS

    assert (DEFAULT_WORLDS, FOUR_PLAYER_WORLDS) == (128, 64)     # (the README's knees)
    count = FOUR_PLAYER_WORLDS if players == 4 else DEFAULT_WORLDS
    assert PimcPlayer().worlds_for(players) == count
    assert PimcPlayer(worlds=5).worlds_for(players) == 5
    state = Match(players=players).new_initial_state(seed=players)
    while state.phase != PLAY:
        state.apply_action(decide(make_player("heuristic"), state))
    observation = state.observation(state.current_player())
    advice = PimcPlayer(seed=1, time_limit=None, infer=False).advise(observation)
    assert advice.worlds == count and advice.complete
    limits = "time_limit=none,node_limit=300000"

    def plays(spec):
        run = run_duplicate(spec, "heuristic", players, 1, seed=7, keep_records=True)
        return [[r["actions"] for r in seating] for g in run.groups for seating in g.records]

    assert plays(f"pimc:{limits}") == plays(f"pimc:worlds={count},{limits}")


def test_registry_and_options():
    assert "pimc" in player_names()
    player = player_spec("pimc:worlds=16,calls=heuristic").make(seed=1)
    assert isinstance(player, PimcPlayer) and player.worlds == 16 and player.calls == "heuristic"
    assert player_spec("pimc:trust=full").make(seed=1).trust == "full"
    assert player_spec("pimc").make(seed=1).trust == "tempered"
    from solver.pimc import FULL_TRUST_DRAWS, INFER_DRAWS

    assert player_spec("pimc").make(seed=1).draws == INFER_DRAWS
    assert player_spec("pimc:trust=full").make(seed=1).draws == FULL_TRUST_DRAWS
    assert player_spec("pimc:trust=full,draws=64").make(seed=1).draws == 64
    assert player_spec("pimc:infer_partner=1").make(seed=1).infer_partner
    assert not player_spec("pimc").make(seed=1).infer_partner
    for bad in ("pimc:worlds=0", "pimc:calls=never", "pimc:colour=red", "pimc:trust=blind",
                "pimc:draws=0", "pimc:draws=1.5", "pimc:worlds=16,draws=7000",
                "pimc:full_calls=maybe", "pimc:infer_partner=maybe"):
        with pytest.raises(PlayerError):
            player_spec(bad).make(seed=1)


def test_the_options_defaults_and_bounds_are_the_readmes():
    """The numbers of the README's table of the player's options, as written there (the
    tests above compare with the module's own constants)."""
    plain, full = PimcPlayer(seed=1), PimcPlayer(seed=1, trust="full")
    assert [plain.worlds_for(n) for n in (2, 3, 4)] == [128, 128, 64]
    assert (plain.draws, full.draws, plain.chain, plain.time_limit) == (2, 16, 0, 0.5)
    assert (plain.exact_limit, plain.table_bits, plain.aside) == (10_000, 20, False)
    assert (plain.partner, plain.fusion, plain.replies) == ("best", "none", "double-dummy")
    assert PimcPlayer(calls="pimc").call_worlds == 16
    assert PimcPlayer(calls="pimc", worlds=8).call_worlds == 8
    assert PimcPlayer(calls="rollout").rollout_worlds == 64
    # worlds 1 to 100,000; draws times worlds (or 128) at most 100,000; chain 0 to 64
    # (and the options' other checks: limits, replies, table_bits, what needs what)
    for good in ({"worlds": 100_000}, {"call_worlds": 100_000}, {"draws": 781},
                 {"worlds": 1000, "draws": 100}, {"chain": 64}, {"exact_limit": 0},
                 {"worlds": 1}, {"call_worlds": 1}, {"draws": 1}, {"chain": 0},
                 {"replies": "heuristic", "partner": "best"},
                 {"replies": "heuristic", "fusion": "shared"},
                 {"trust": "full", "full_calls": 1}, {"table_bits": 8}):
        PimcPlayer(seed=1, **good)
    for bad in ({"worlds": 100_001}, {"call_worlds": 100_001}, {"draws": 782},
                {"worlds": 1000, "draws": 101}, {"chain": 65}, {"exact_limit": -1},
                {"worlds": 0}, {"call_worlds": 0}, {"draws": 0}, {"chain": -1},
                {"call_worlds": 1.5}, {"chain": 1.5}, {"exact_limit": 1.5},
                {"time_limit": -1}, {"node_limit": 0}, {"replies": "never"},
                {"table_bits": 7}, {"fusion": "shared"},
                {"replies": "heuristic", "fusion": "shared", "partner": "best"},
                {"full_calls": 1}, {"trust": "full", "full_calls": 1, "bidding": 0}):
        with pytest.raises(AllFivesError):      # (a PlayerError, or the limits' own)
            PimcPlayer(seed=1, **bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_partners_option_is_for_four_players(players):
    """``partner`` and ``infer_partner`` are checked against the table before any play: with
    two or three players, who have no partners, they would change nothing."""
    for spec in ("pimc:replies=heuristic,partner=heuristic", "pimc:infer_partner=1"):
        if players == 4:
            assert player_spec(spec).make(seed=1, players=players).name == "pimc"
            continue
        with pytest.raises(PlayerError, match=f"a table of {players} has no partners"):
            run_duplicate(spec, "heuristic", players, 1)
        with pytest.raises(PlayerError, match=f"a table of {players} has no partners"):
            run_matches("heuristic", spec, players, 1)
        # and asked for a call, a card or advice at such a table (as from Python)
        for state in (Match(players).new_initial_state(seed=0), to_play(players, 0)):
            observation = state.observation(state.current_player())
            for ask in ("act", "advise"):
                with pytest.raises(PlayerError, match=f"a table of {players} has no partners"):
                    getattr(player_spec(spec).make(seed=1), ask)(observation)
    # made without a table, as from Python, a player is not checked
    assert player_spec("pimc:infer_partner=1").make(seed=1).infer_partner


@pytest.mark.parametrize("players", [2, 4])
def test_full_calls_draws_and_weighs_by_the_calls_sharply_from_the_first_card(players,
                                                                            monkeypatch):
    """With ``trust=full,full_calls=1`` (and bidding) a decision draws ``draws`` worlds per
    world solved even before any card is played, weighs them by the calls with the sharp temper,
    and resamples; without ``full_calls``, and by default, it draws only the worlds it solves
    there."""
    import solver.sampling as sampling
    from solver.inference import FULL

    asked = []
    real = sampling.sample_worlds

    def recording(obs, count, rng, **options):
        asked.append((count, options.get("temper", sampling.TEMPER)))
        return real(obs, count, rng, **options)

    monkeypatch.setattr(sampling, "sample_worlds", recording)
    state = to_play(players, 3)
    obs = state.observation(state.current_player())
    assert not obs.play
    spec = "pimc:worlds=4,draws=8,time_limit=none,node_limit=200000"
    full = player_spec(spec + ",trust=full,full_calls=1").make(seed=1)
    advice = full.advise(obs)
    assert asked == [(32, FULL.temper)] and advice.worlds <= 4
    for plain in (spec + ",trust=full", spec):
        asked.clear()
        player_spec(plain).make(seed=1).advise(obs)
        assert asked == [(4, sampling.TEMPER)]


# ---- play inference -------------------------------------------------------------------------


@pytest.mark.parametrize("trust", ["tempered", "full"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_weight_is_the_tempered_chance_of_the_opponents_cards(players, trust):
    """Each opponent's choice counts 1 - slip where it is the heuristic's card, slip shared
    among the others where it is not (the first choice below is not), tempered."""
    from solver.inference import FULL, TEMPERED, play_weight

    model = FULL if trust == "full" else TEMPERED
    checked = 0
    for seed in range(6):
        state = to_play(players, seed)
        heuristic = make_player("heuristic")
        me, likelihood, strayed = 0, 1.0, False
        while state.phase == PLAY and len(state.play) < 2 * players + 1:
            seat = state.current_player()
            obs = state.observation(seat)
            legal = obs.legal_actions
            opponent = (seat % 2 != me % 2) if players == 4 else seat != me
            card = decide(heuristic, state)
            if opponent and len(legal) > 1:
                if not strayed:
                    card = next(c for c in legal if c != card)
                    likelihood *= model.slip / (len(legal) - 1)
                    strayed = True
                else:
                    likelihood *= 1 - model.slip
            state.apply_action(card)
        if state.phase != PLAY or not strayed:
            continue
        obs = state.observation(me)
        floor = 1 / model.temper
        expected = floor + (1 - floor) * likelihood
        assert play_weight(obs, state.hands, model) == pytest.approx(expected, rel=1e-3,
                                                                    abs=floor * 1e-3)
        checked += 1
    assert checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_true_world_of_heuristic_opponents_has_the_play_weight_of_no_slip(players):
    from solver.inference import FULL, SLIP, TEMPER, play_weight

    for seed in range(4):
        state = to_play(players, seed)
        heuristic = make_player("heuristic")
        me, choices = 0, 0
        while state.phase == PLAY and len(state.play) < 2 * players + 1:
            seat = state.current_player()
            obs = state.observation(seat)
            opponent = (seat % 2 != me % 2) if players == 4 else seat != me
            if opponent and len(obs.legal_actions) > 1:
                choices += 1
            state.apply_action(decide(heuristic, state))
        if state.phase != PLAY:
            continue
        obs = state.observation(me)
        expected = 1 / TEMPER + (1 - 1 / TEMPER) * (1 - SLIP) ** choices
        assert play_weight(obs, state.hands) == pytest.approx(expected)
        floor = 1 / FULL.temper
        expected = floor + (1 - floor) * (1 - FULL.slip) ** choices
        assert play_weight(obs, state.hands, FULL) == pytest.approx(expected)


def test_resample_draws_in_proportion():
    from solver.inference import resample

    drawn = resample([1.0, 0.0, 3.0], 4000, random.Random(2))
    counts = dict(drawn)
    assert sum(counts.values()) == 4000 and 1 not in counts
    assert counts[2] / 4000 == pytest.approx(0.75, abs=0.03)


# ---- the fusion remedy ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_postponed_values_are_the_engines_in_one_world_and_never_above_plain_pimc(players):
    from solver.pimc import value_play, value_play_postponed

    for seed in range(3):
        state = to_play(players, seed)
        if len(state.hands[0]) > 6:
            continue
        heuristic = make_player("heuristic")
        state.apply_action(decide(heuristic, state))
        seat = state.current_player()
        obs = state.observation(seat)
        legal = list(obs.legal_actions)
        me = side(seat, players)
        solver = Solver(18)
        one, kept, complete = value_play_postponed(solver, [state.position()], [1.0], legal,
                                                   seat, me, "margin", Budget(None, None, 1))
        truth = Solver(16).solve(state.position(), me, "margin", line=False)
        assert complete and {c: v[0] for c, v in one.items()} == truth.moves
        worlds = sampling_worlds(obs, 6)
        post, kept, complete = value_play_postponed(solver, worlds, [1.0] * 6, legal, seat, me,
                                                    "margin", Budget(None, None, 6))
        plain, _, _ = value_play(solver, worlds, [1.0] * 6, legal, me, "margin",
                                 Budget(None, None, 6))
        assert complete and len(kept) == 6
        for c in legal:
            assert sum(post[c]) <= sum(plain[c]) + 1e-9
        # at this seat's last card, the deal ending before its next
        while len(state.hands[state.current_player()]) > 1:
            state.apply_action(decide(heuristic, state))
        if state.phase != PLAY:
            continue
        seat = state.current_player()
        me = side(seat, players)
        legal = list(state.legal_actions())
        one, kept, complete = value_play_postponed(solver, [state.position()], [1.0], legal,
                                                   seat, me, "margin", Budget(None, None, 1))
        truth = Solver(16).solve(state.position(), me, "margin", line=False)
        assert complete and {c: v[0] for c, v in one.items()} == truth.moves


def test_postponed_values_cut_short_by_the_budget_say_so():
    """The worlds valued before the budget ran out are kept, and the values are not complete
    (a player counts the decision as cut short)."""
    from solver.pimc import value_play_postponed

    state = to_play(2, 0)
    state.apply_action(decide(make_player("heuristic"), state))
    seat = state.current_player()
    obs = state.observation(seat)
    legal = list(obs.legal_actions)
    budget = Budget(None, None, 6)
    budget.spent = lambda: True         # spent once the first world is valued
    values, kept, complete = value_play_postponed(Solver(16), sampling_worlds(obs, 6),
                                                  [1.0] * 6, legal, seat, side(seat, 2),
                                                  "margin", budget)
    assert kept == [1.0] and not complete and all(len(values[c]) == 1 for c in legal)
    # a solve that does not finish, the first world's or one after a card of it: nothing kept
    # (the caller falls back to the plain values)
    _, seat, obs, legal, me = a_choice()
    for cut in (1, 2):
        assert value_play_postponed(Solver(16), sampling_worlds(obs, 6), [1.0] * 6, legal, seat,
                                    me, "margin", CutAt(cut, 6)) == ({}, [], False)


def test_a_lone_legal_card_is_advised_from_no_world():
    """One legal card: advice valued in no world, not exact but complete, its value not
    known (near the target too, where no chance of winning is said to be dropped), and the
    player plays it; two are valued in the worlds drawn."""
    heuristic = make_player("heuristic")
    found = twos = 0
    for players, score in ((2, None), (3, None), (4, None), (2, (59, 59)), (3, (59, 59, 59))):
        state = Match(players=players).new_initial_state(seed=2, score=score)
        while state.phase != PLAY:
            state.apply_action(decide(heuristic, state))
        while state.phase == PLAY:
            if len(state.legal_actions()) == 1:
                obs = state.observation(state.current_player())
                advice = PimcPlayer(seed=1).advise(obs)
                assert (advice.phase, advice.worlds, advice.exact, advice.complete) == \
                    ("play", 0, False, True)
                assert (advice.drawn, advice.enumerated, advice.win_dropped) == (0, False, False)
                (action,) = advice.actions
                assert action.action == obs.legal_actions[0] and action.best == 1.0
                assert all(math.isnan(v) for v in (action.mean, action.low, action.high))
                assert PimcPlayer(seed=1).act(obs) == obs.legal_actions[0]
                found += 1
            elif len(state.legal_actions()) == 2:      # (two: valued in the worlds drawn)
                obs = state.observation(state.current_player())
                advice = PimcPlayer(seed=1, worlds=4, time_limit=None).advise(obs)
                assert advice.worlds == advice.drawn > 0 and len(advice.actions) == 2
                twos += 1
            state.apply_action(decide(heuristic, state))
    assert found > 3 and twos


def test_after_a_revoke_the_advice_is_the_heuristics_card_unvalued():
    """A deal holding a revoke has no position to solve: the heuristic's card, from no world,
    neither exact nor complete."""
    heuristic = make_player("heuristic")
    advised = 0
    for seed in range(12):
        state = to_play(2, seed)
        state.apply_action(decide(heuristic, state))        # the lead
        seat = state.current_player()
        illegal = [c for c in state.hands[seat] if c not in state.legal_actions()]
        if not illegal:
            continue
        state.apply_revoke(illegal[0])
        while state.phase == PLAY and len(state.legal_actions()) < 2:
            state.apply_action(decide(heuristic, state))
        if state.phase != PLAY:
            continue
        obs = state.observation(state.current_player())
        assert obs.revokes
        advice = PimcPlayer(seed=1).advise(obs)
        assert (advice.worlds, advice.exact, advice.complete) == (0, False, False)
        assert sorted(a.action for a in advice.actions) == sorted(obs.legal_actions)
        assert advice.best == heuristic.act(obs) == PimcPlayer(seed=1).act(obs)
        advised += 1
    assert advised > 5


@pytest.mark.parametrize("options", [{}, {"infer": False}, {"trust": "full", "chain": 4},
                                     {"replies": "heuristic"},
                                     {"replies": "heuristic", "fusion": "shared"},
                                     {"fusion": "postpone"}],
                         ids=["inference", "uniform", "chain", "replies", "shared", "postpone"])
def test_advice_given_the_time_to_draw_every_world_is_complete(options):
    """Without a time limit every world asked for is drawn (and weighed) and valued: the
    advice is complete, exact only where every consistent world was enumerated; so too against
    the heuristic's replies, searched together or not, and with the valuing postponed."""
    heuristic = make_player("heuristic")
    state = to_play(2, 1)
    state.apply_action(decide(heuristic, state))
    seen = set()
    while state.phase == PLAY:
        obs = state.observation(state.current_player())
        if len(obs.legal_actions) > 1:
            advice = PimcPlayer(seed=1, time_limit=None, worlds=64, **options).advise(obs)
            assert advice.complete and advice.worlds
            seen.add(advice.exact)
        state.apply_action(decide(heuristic, state))
    assert seen == {False, True}        # (drawn early in the deal, enumerated late)


def test_plain_values_are_the_engines_and_say_when_the_budget_cut_them():
    """``value_play``: each world's values are the engine's own solve's; a budget spent once
    the first world is valued keeps that one and says cut short; a world whose solve is cut
    short (one node, by an engine whose table has not seen it) is left out and counted, the
    worlds after it valued."""
    from solver.pimc import value_play

    _, _, obs, legal, me = a_choice()
    worlds = sampling_worlds(obs, 6)
    solver = Solver(16)
    kept_at: list[int] = []
    values, kept, complete = value_play(solver, worlds, [1.0] * 6, legal, me, "margin",
                                        Budget(None, None, 6), kept_at)
    assert complete and kept == [1.0] * 6 and kept_at == list(range(6))
    for i, world in enumerate(worlds):
        truth = Solver(16).solve(world, me, "margin", line=False).moves
        assert {c: values[c][i] for c in legal} == {c: float(truth[c]) for c in legal}
    budget = Budget(None, None, 6)
    budget.spent = lambda: True         # spent once the first world is valued
    values, kept, complete = value_play(solver, worlds, [1.0] * 6, legal, me, "margin", budget)
    assert kept == [1.0] and not complete and all(len(values[c]) == 1 for c in legal)
    budget, kept_at = CutAt(3, 6), []
    values, kept, complete = value_play(Solver(16), worlds, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                                        legal, me, "margin", budget, kept_at)
    assert not complete and budget.left_out == 1
    assert kept == [1.0, 2.0, 4.0, 5.0, 6.0] and kept_at == [0, 1, 3, 4, 5]
    assert all(len(values[c]) == 5 for c in legal)


def test_values_against_the_replies_are_the_searches_own_and_stop_with_the_budget():
    """``value_replies`` and ``value_shared_replies`` over worlds: each world's values are
    ``solver.replies``' own search's; the budget spent once the first world is valued keeps
    that one and says cut short; the worlds searched together keep nothing when they do not
    finish in their share."""
    from solver.pimc import value_replies, value_shared_replies
    from solver.replies import REPLY_NODES, reply_values, shared_reply_values

    heuristic = make_player("heuristic")
    _, _, obs, legal, me = a_choice()
    worlds = sampling_worlds(obs, 4)
    weights = [1.0, 2.0, 3.0, 4.0]
    budget = Budget(60.0, None, 4)      # (a time limit, not reached)
    values, kept, complete = value_replies(worlds, weights, legal, me, "margin", heuristic,
                                           budget)
    assert complete and kept == weights
    assert budget.nodes > 0 and budget.nodes % REPLY_NODES == 0     # (positions counted)
    for i, world in enumerate(worlds):
        truth = reply_values(world, me, "margin", heuristic)
        assert {c: values[c][i] for c in legal} == {c: float(truth[c]) for c in legal}
    budget = Budget(None, None, 4)
    budget.spent = lambda: True         # spent once the first world is valued
    values, kept, complete = value_replies(worlds, weights, legal, me, "margin", heuristic,
                                           budget)
    assert kept == [1.0] and not complete and all(len(values[c]) == 1 for c in legal)
    # no node left for the first world's search: nothing kept
    assert value_replies(worlds, weights, legal, me, "margin", heuristic,
                         Budget(None, 1, 4)) == ({c: [] for c in legal}, [], False)
    values, kept, complete = value_shared_replies(worlds, weights, legal, "margin", heuristic,
                                                  Budget(60.0, None, 4))
    truth = shared_reply_values(worlds, weights, "margin", heuristic)
    assert complete and kept == weights
    assert values == {c: [float(v) for v in truth[c]] for c in legal}
    values, kept, complete = value_shared_replies(worlds, weights, legal, "margin", heuristic,
                                                  Budget(None, 1, 4))
    assert (values, kept, complete) == ({c: [] for c in legal}, [], False)


def test_the_worlds_searched_together_have_half_of_what_is_left_of_the_budget(monkeypatch):
    """``value_shared_replies`` gives the search of the worlds together half of the nodes and
    of the time left (the other half is for the worlds one by one, should it not finish)."""
    from solver import replies
    from solver.pimc import value_shared_replies

    heuristic = make_player("heuristic")
    _, _, obs, legal, _ = a_choice()
    worlds = sampling_worlds(obs, 4)
    asked = []

    def spy(positions, weights, objective, model, deadline=None, limit=None, counted=None):
        asked.append((deadline, limit))
        raise replies.Spent(0)

    monkeypatch.setattr(replies, "shared_reply_values", spy)
    nodes = 1000 * replies.REPLY_NODES
    budget = Budget(None, nodes, 4)
    budget.used(200 * replies.REPLY_NODES)
    assert value_shared_replies(worlds, [1.0] * 4, legal, "margin", heuristic, budget) == \
        ({c: [] for c in legal}, [], False)
    assert asked == [(None, 400)]
    budget = Budget(60.0, None, 4)
    before = clock.now()
    value_shared_replies(worlds, [1.0] * 4, legal, "margin", heuristic, budget)
    (deadline, limit), after = asked[-1], clock.now()
    assert limit is None
    assert before + (budget.deadline - before) / 2 <= deadline <= \
        after + (budget.deadline - after) / 2


def test_an_advice_against_the_replies_cut_short_by_the_budget_says_so():
    """Against the heuristic's replies, a budget that runs out once five of six worlds are
    valued leaves an advice over those five, cut short; given the time for all six it is
    complete."""
    _, _, obs, legal, _ = a_choice(most_cards=4)
    worlds = sampling_worlds(obs, 6)
    player = PimcPlayer(seed=1, time_limit=None, replies="heuristic")
    assert player.advise_positions(obs, worlds, [1.0] * 6).complete
    budget = Budget(None, None, 6)
    asked = iter(range(1, 100))
    budget.spent = lambda: next(asked) >= 5     # asked before each world after the first
    advice = player.advise_positions(obs, worlds, [1.0] * 6, budget=budget)
    assert (advice.method, advice.worlds, advice.complete) == (REPLIED, 5, False)


def a_choice_near_the_target():
    """What the seat sees at the first choice of two cards in a two-player deal at 59 all."""
    heuristic = make_player("heuristic")
    for seed in range(1, 40):
        state = Match(players=2).new_initial_state(seed=seed, score=(59, 59))
        while state.phase != PLAY:
            state.apply_action(decide(heuristic, state))
        while state.phase == PLAY and len(state.legal_actions()) != 2:
            state.apply_action(decide(heuristic, state))
        if state.phase == PLAY:
            return state.observation(state.current_player())
    raise AssertionError("no choice of two")


def valued_in(monkeypatch, objective: str, worlds: int) -> None:
    """The player's ``value_play`` by ``objective`` in the first ``worlds`` worlds only, cut
    short after (by the other objectives as it is)."""
    import solver.pimc as pimc

    def value_play(solver, positions, weights, legal, side, asked, budget, kept_at=None):
        if asked == objective:
            found = unpatched_value_play(solver, positions[:worlds], weights[:worlds], legal,
                                         side, asked, budget, kept_at)
            return found[0], found[1], False
        return unpatched_value_play(solver, positions, weights, legal, side, asked, budget,
                                    kept_at)

    monkeypatch.setattr(pimc, "value_play", value_play)


@pytest.mark.parametrize("late", ["drawing", "weighing", "walk"])
def test_worlds_drawn_weighed_or_walked_out_of_time_cut_the_advice_short(monkeypatch, late):
    """Where the time to draw and weigh the worlds is up, the advice is over the worlds there
    were and cut short: up as the drawing starts (the least, 16, drawn and weighed), as the
    weighing starts (all drawn, 16 weighed), or, with a chain, only for its walk (the worlds
    drawn and weighed in full, the walk stopped at 16 of 64)."""
    from solver import inference, sampling

    _, _, obs, _, _ = a_choice()
    options = {"chain": 4} if late == "walk" else {}

    def advice():
        return PimcPlayer(seed=1, time_limit=None, worlds=64, **options).advise(obs)

    assert advice().complete

    def time_up() -> None:
        monkeypatch.setattr(sampling.Clock, "past", lambda self: True)

    if late == "weighing":
        weigher = inference.PlayWeigher

        class DrawnInTime(weigher):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                time_up()

        monkeypatch.setattr(inference, "PlayWeigher", DrawnInTime)
    else:
        time_up()
    if late == "walk":
        monkeypatch.setattr(sampling.Clock, "late", lambda self, drawn: False)
    short = advice()
    assert short.effective < 64 and not short.complete


def test_near_the_target_a_choice_of_two_says_the_chance_was_dropped(monkeypatch):
    """Near the target, where no world's chance of winning fits the budget, a choice of two
    cards is advised by points over the worlds drawn and says the chance was dropped."""
    valued_in(monkeypatch, "win", 0)
    advice = PimcPlayer(seed=1, time_limit=None, worlds=8).advise(a_choice_near_the_target())
    assert (advice.objective, advice.win_dropped) == ("margin", True)
    assert advice.drawn == advice.worlds >= 2 and not advice.enumerated
    assert len(advice.actions) == 2


def test_near_the_target_a_chance_valued_in_one_world_is_played_out(monkeypatch):
    """Near the target, where the chance of winning fits the budget in one world of several,
    that is too few: the deals are played out for the chance, the one world counted solved."""
    valued_in(monkeypatch, "win", 1)
    advice = PimcPlayer(seed=1, time_limit=None, worlds=8).advise(a_choice_near_the_target())
    assert (advice.objective, advice.method, advice.solved) == ("win", PLAYED_OUT, 1)
    assert advice.worlds == advice.drawn >= 2 and not advice.complete     # (every world drawn)


def test_with_three_players_a_points_interval_is_raised_to_0_and_no_further():
    """With three players, whose points are never below 0, a card's interval is the t
    interval over the worlds with its low end raised to 0 where it falls below, and left as it
    is above 0 (here one card's below and another's between 0 and 1)."""
    from solver.advice import valued
    from solver.pimc import value_play

    heuristic = make_player("heuristic")
    state = to_play(3, 3)
    while len(state.play) < 7:
        state.apply_action(decide(heuristic, state))
    obs = state.observation(state.current_player())
    legal = list(obs.legal_actions)
    worlds = sampling_worlds(obs, 8)
    values, kept, _ = value_play(Solver(16), worlds, [1.0] * 8, legal, obs.seat, "points",
                                 Budget(None, None, 8))
    raw = {a.action: a.low for a in valued(legal, values, kept, False, legal[0])}
    assert any(low < 0 for low in raw.values()) and any(0 < low < 1 for low in raw.values())
    advice = PimcPlayer(seed=1, time_limit=None).advise_positions(obs, worlds, [1.0] * 8)
    assert advice.objective == "points"
    assert {a.action: a.low for a in advice.actions} == \
        pytest.approx({c: max(0.0, low) for c, low in raw.items()})


@pytest.mark.parametrize("players", [2, 4])
def test_each_way_of_valuing_the_cards_gives_its_own_values(players):
    """The player's advice over given worlds is the weighted mean of the values of the way
    its options name: the engine's (``value_play``), the heuristic's replies (one world at a
    time, or searched together), or the evaluation postponed; and says which way it was."""
    from solver.pimc import SOLVED, value_play, value_play_postponed, value_replies, \
        value_shared_replies

    heuristic = make_player("heuristic")
    # (four cards left at most: the replies are searched in Python)
    _, seat, obs, legal, me = a_choice(players, most_cards=4)
    worlds = sampling_worlds(obs, 4)
    weights = [1.0, 2.0, 3.0, 4.0]
    budget = Budget(None, None, 4)
    expected = {
        (): (SOLVED, value_play(Solver(16), worlds, weights, legal, me, "margin", budget)),
        (("fusion", "postpone"),): (SOLVED, value_play_postponed(
            Solver(16), worlds, weights, legal, seat, me, "margin", budget)),
        (("replies", "heuristic"),): (REPLIED, value_replies(
            worlds, weights, legal, me, "margin", heuristic, budget)),
        (("replies", "heuristic"), ("partner", "heuristic")): (REPLIED, value_replies(
            worlds, weights, legal, me, "margin", heuristic, budget, partner=True)),
        (("replies", "heuristic"), ("fusion", "shared")): (REPLIED, value_shared_replies(
            worlds, weights, legal, "margin", heuristic, budget)),
    }
    for options, (method, (values, kept, complete)) in expected.items():
        if ("partner", "heuristic") in options and players != 4:
            continue
        advice = PimcPlayer(seed=1, time_limit=None, **dict(options)).advise_positions(
            obs, worlds, weights)
        assert (advice.method, advice.worlds, advice.complete) == (method, 4, True), options
        means = {c: sum(w * v for w, v in zip(kept, values[c])) / sum(kept) for c in legal}
        assert {a.action: a.mean for a in advice.actions} == pytest.approx(means), options


def sampling_worlds(obs, count):
    from solver.sampling import sample_worlds, world_position

    return [world_position(obs, w) for w in sample_worlds(obs, count, random.Random(7))]


def a_choice(players: int = 2, most_cards: int = 6):
    """Seed 1's match after the heuristic's calls and lead, played on by the heuristic to a
    seat with a choice of cards and at most ``most_cards`` in hand (with two players, six
    legal cards, and no world settled without a search): the state, the seat, its
    observation, its legal cards and its side."""
    heuristic = make_player("heuristic")
    state = to_play(players, 1)
    state.apply_action(decide(heuristic, state))
    while len(state.legal_actions()) < 2 or \
            len(state.hands[state.current_player()]) > most_cards:
        state.apply_action(decide(heuristic, state))
    seat = state.current_player()
    obs = state.observation(seat)
    return state, seat, obs, list(obs.legal_actions), side(seat, players)


class CutAt(Budget):
    """A budget without limits but for its ``cut``-th solve (from 1), which may search one
    node: by an engine whose table has not seen the position, it does not finish."""

    def __init__(self, cut: int, worlds: int) -> None:
        super().__init__(None, None, worlds)
        self.cut, self.solves = cut, 0

    def solve(self, solver, position, side, objective, done, most_nodes=None, **options):
        self.solves += 1
        return super().solve(solver, position, side, objective, done,
                             1 if self.solves == self.cut else most_nodes, **options)


def test_infer_partner_weighs_the_worlds_by_the_partners_cards_too(monkeypatch):
    from solver import inference

    told = []
    weigher = inference.PlayWeigher

    class Spy(weigher):
        def __init__(self, observation, trust=inference.TEMPERED):
            told.append(trust)
            super().__init__(observation, trust)

    monkeypatch.setattr(inference, "PlayWeigher", Spy)
    state = Match(players=4).new_initial_state(seed=3)
    heuristic = make_player("heuristic")
    while state.phase != PLAY or len(state.play) < 5 or len(state.legal_actions()) < 2:
        state.apply_action(decide(heuristic, state))
    observation = state.observation(state.current_player())
    for options, slip in (({"infer_partner": 1}, inference.PARTNER_SLIP), ({}, None),
                          ({"infer_partner": 1, "trust": "full"}, inference.PARTNER_SLIP)):
        PimcPlayer(seed=1, worlds=4, **options).advise(observation)
        assert told[-1].partner_slip == slip


def test_a_chance_of_winning_not_found_in_the_budget_is_said_so(monkeypatch):
    """Near the target the cards are valued by their chance of winning the match, the points
    breaking ties; where no world's chance fits the budget but their points do, the advice is by
    points and says the chance was dropped; where the points do not fit, the chance stands."""
    import solver.pimc as pimc

    def observed(target: int):
        state = Match(4, Rules.preset("all-fives", target=target)).new_initial_state(seed=2)
        while state.phase != PLAY:
            state.apply_action(state.legal_actions()[0])
        return state.observation(state.current_player())

    def advice(target: int):
        return PimcPlayer(seed=0, node_limit=50_000_000, time_limit=None,
                          worlds=4).advise(observed(target))

    whole = advice(5)
    assert whole.objective == "win" and whole.complete and not whole.win_dropped
    assert all(a.points is not None for a in whole.actions)
    valued_in(monkeypatch, "win", 0)
    dropped = advice(5)
    assert (dropped.objective, dropped.win_dropped, dropped.worlds) == ("margin", True, 4)
    valued_in(monkeypatch, "margin", 0)
    ties = advice(5)        # the chance, without the points to break its ties
    assert (ties.objective, ties.win_dropped, ties.complete) == ("win", False, False)
    assert sorted((a.action, a.mean) for a in ties.actions) == \
        sorted((a.action, a.mean) for a in whole.actions)
    assert all(a.points is None for a in ties.actions)
    monkeypatch.setattr(pimc, "value_play", unpatched_value_play)
    far = advice(61)        # no side can reach the target: points, nothing dropped
    assert (far.objective, far.win_dropped) == ("margin", False)


def test_a_whole_state_given_for_what_a_seat_sees_is_refused():
    from solver.registry import make_player, player_names

    state = Match(2).new_initial_state(seed=1)
    for call in (PimcPlayer().advise, *(make_player(name).act for name in player_names())):
        with pytest.raises(PlayerError, match=r"^MatchState is not what a seat sees: give "
                                              r"state\.observation\(seat\)"):
            call(state)


def test_near_the_target_a_world_left_out_is_counted_once_and_the_points_are_of_the_worlds_kept():
    """A world whose solve never finishes is left out of the chances, counted once, and the
    points that rank equal chances are solved on the worlds kept (not that one again)."""
    from types import SimpleNamespace

    from solver.sampling import world_position
    from solver.seen import read_seen

    seen = read_seen("N:- -.T4.5.JT4 rules=classic dealer=S turnup=KS "
                     "play=3D,5D,TC,KH,4C,AD score=49,60")
    obs = seen.observation()
    positions = [world_position(obs, w) for w in seen.worlds(obs.seat, 6, random.Random(1))]
    real, solved = Solver(16), []

    class CutShort:
        """The engine, but never finishing the second world."""

        def solve(self, position, side, objective, **limits):
            solved.append((positions.index(position), objective))
            if position is positions[1]:
                return SimpleNamespace(nodes=1, complete=False, moves={})
            return real.solve(position, side, objective, line=False)

    player = PimcPlayer(seed=0, time_limit=None, infer=False)
    player._solver = CutShort()
    advice = player.advise_positions(obs, positions, [1.0] * len(positions))
    assert advice.objective == "win" and (advice.worlds, advice.left_out, advice.drawn) == (5, 1, 6)
    assert [w for w, objective in solved if objective != "win"] == [0, 2, 3, 4, 5]
    assert all(v.points is not None for v in advice.actions)


# ---- the weights the default player hands on to its solves ----------------------------------


def after_one_card(players: int = 2, seed: int = 1):
    """What the seat to play sees after the heuristic's first card of a fresh match."""
    state = to_play(players, seed)
    state.apply_action(decide(make_player("heuristic"), state))
    return state.observation(state.current_player())


def spy_on_the_solves(monkeypatch) -> dict:
    """``PimcPlayer.advise_positions`` replaced by a spy: what ``advise`` hands on is kept."""
    told: dict = {}

    def spy(self, observation, positions, weights, exact=False, budget=None):
        told.update(positions=list(positions), weights=list(weights), exact=exact)
        return "advised"

    monkeypatch.setattr(PimcPlayer, "advise_positions", spy)
    return told


def test_exact_worlds_weigh_their_calls_weight_times_their_play_weight(monkeypatch):
    """By default (``bidding`` and ``infer`` on) each world enumerated exactly is solved with
    its calls' weight times its play weight.  Nothing checked the weights handed on before:
    dropping either factor (the calls' weight, or the play weights once the worlds are exact)
    passed every test."""
    import solver.sampling as sampling
    from solver.inference import play_weight

    obs = after_one_card()
    drawn = sampling.sample_worlds(obs, 3, random.Random(3))
    calls = (2.0, 0.5, 1.0)     # weights the calls might give; any unequal ones will do
    worlds = [sampling.World(w.hands, weight) for w, weight in zip(drawn, calls)]
    monkeypatch.setattr(sampling, "sample_worlds",
                        lambda o, count, rng, **options: sampling.Worlds(tuple(worlds), True, 3))
    told = spy_on_the_solves(monkeypatch)
    assert PimcPlayer(seed=1, worlds=4).advise(obs) == "advised"
    plays = [play_weight(obs, w.hands) for w in worlds]
    assert len(set(plays)) > 1 or plays[0] != 1.0      # the play weighs these worlds
    assert told["exact"]
    assert told["weights"] == pytest.approx([c * p for c, p in zip(calls, plays)])
    assert told["positions"] == [sampling.world_position(obs, w) for w in worlds]


def test_resampled_worlds_weigh_the_times_they_were_drawn(monkeypatch):
    """Where the worlds are not all enumerated, they are resampled by their weights and each
    world solved weighs the number of times it was drawn (a world drawn 3 times was solved
    with the same weight as one drawn once, unnoticed)."""
    import solver.inference as inference
    import solver.sampling as sampling

    obs = after_one_card()
    drawn = []
    real = sampling.sample_worlds

    def recording(o, count, rng, **options):
        worlds = real(o, count, rng, **options)
        drawn.append(worlds)
        return worlds

    monkeypatch.setattr(sampling, "sample_worlds", recording)
    monkeypatch.setattr(inference, "resample", lambda weights, count, rng: [(0, 3), (2, 1)])
    told = spy_on_the_solves(monkeypatch)
    PimcPlayer(seed=1, worlds=4).advise(obs)
    worlds, = drawn
    assert not worlds.exact
    assert told["weights"] == [3.0, 1.0] and not told["exact"]
    assert told["positions"] == [sampling.world_position(obs, worlds[i]) for i in (0, 2)]


@pytest.mark.parametrize("options", [{}, {"trust": "full"}, {"trust": "full", "full_calls": 1}])
def test_once_a_card_is_played_the_calls_keep_the_samplers_temper_unless_full_calls(
        options, monkeypatch):
    """``trust=full`` sharpens the play's weights only; the calls keep the sampler's temper
    (README: no world weighs more than 8 times another) unless ``full_calls``.  This was
    checked only before the first card, on a path that skips play inference."""
    import solver.sampling as sampling
    from solver.inference import FULL

    temper = FULL.temper if options.get("full_calls") else 8.0
    asked = []
    real = sampling.sample_worlds

    def recording(o, count, rng, **kw):
        asked.append(kw.get("temper", sampling.TEMPER))
        return real(o, count, rng, **kw)

    monkeypatch.setattr(sampling, "sample_worlds", recording)
    spy_on_the_solves(monkeypatch)
    obs = after_one_card()
    assert obs.play
    PimcPlayer(seed=1, worlds=4, **options).advise(obs)
    assert asked == [temper]


def test_a_chain_starts_from_the_likeliest_world_drawn(monkeypatch):
    """With ``chain``, the Markov chain starts from the world of most weight (the calls' times
    the play's); starting it from the least likely one went unnoticed."""
    import solver.chain as chain
    import solver.sampling as sampling

    obs = after_one_card()
    drawn = sampling.sample_worlds(obs, 3, random.Random(3))
    # the calls' weights far apart: no play weight (1/8 to 1) can reorder them
    worlds = [sampling.World(w.hands, weight) for w, weight in zip(drawn, (1.0, 100.0, 0.5))]
    monkeypatch.setattr(sampling, "sample_worlds",
                        lambda o, count, rng, **options: sampling.Worlds(tuple(worlds), False,
                                                                         None))
    starts = []

    def walked(c, start, count, weight, rng, thin=4, burn=None, clock=None):
        starts.append(tuple(start))
        return [tuple(start)] * count

    monkeypatch.setattr(chain, "chain_worlds", walked)
    told = spy_on_the_solves(monkeypatch)
    PimcPlayer(seed=1, worlds=4, chain=2).advise(obs)
    assert starts == [worlds[1].hands]
    assert told["weights"] == [1.0] * 4


@pytest.mark.parametrize("options", [{"infer": False}, {}, {"trust": "full", "draws": 50},
                                     {"trust": "full", "draws": 50, "chain": 64}],
                         ids=["uniform", "inference", "full", "chain"])
def test_worlds_drawn_past_their_share_of_the_time_are_cut_and_said_to_be(monkeypatch,
                                                                          options):
    """The worlds are drawn and weighed within a share of the decision's time
    (``advice.DRAW_SHARE``, here none of it): then ``PLAYED_OUT_WORLDS`` are drawn, not the
    thousands asked for, and the decision counts as cut short.  Without a time limit every
    world asked for is drawn."""
    import solver.advice as advice_module

    monkeypatch.setattr(advice_module, "DRAW_SHARE", 0.0)
    obs = next(o for o in map(lambda seed: after_one_card(4, seed), range(1, 50))
               if len(o.legal_actions) > 1)
    player = PimcPlayer(seed=1, worlds=1000, time_limit=1.0, **options)
    advice = player.advise(obs)
    assert 1 <= advice.drawn <= PLAYED_OUT_WORLDS and not advice.complete
    assert player.stopped == 1
    told = spy_on_the_solves(monkeypatch)
    PimcPlayer(seed=1, worlds=1000, time_limit=None, **options).advise(obs)
    resampled = "infer" not in options and "chain" not in options
    asked = sum(told["weights"]) if resampled else len(told["positions"])
    assert asked == 1000


def test_with_inference_the_drawing_leaves_the_weighing_most_of_its_time(monkeypatch):
    """Drawn and weighed to one deadline, a drawing that ran to it left the weighing 16 worlds
    of some 60,000 drawn (11 valued); the drawing now stops at ``DRAWN_SHARE`` of the time the
    worlds may take, the weighing at the end of it."""
    import solver.pimc as pimc
    import solver.sampling as sampling

    obs = next(o for o in map(lambda seed: after_one_card(2, seed), range(1, 50))
               if len(o.legal_actions) > 1)
    asked = {}
    sample_worlds = sampling.sample_worlds

    def spy(*args, **options):
        asked.update(options)
        return sample_worlds(*args, **options)

    monkeypatch.setattr(sampling, "sample_worlds", spy)
    told = spy_on_the_solves(monkeypatch)
    spied = PimcPlayer.advise_positions

    def kept(self, observation, positions, weights, exact=False, budget=None):
        told["budget"] = budget
        return spied(self, observation, positions, weights, exact, budget)

    monkeypatch.setattr(PimcPlayer, "advise_positions", kept)
    PimcPlayer(seed=1, time_limit=2.0).advise(obs)
    budget = told["budget"]
    share = (asked["deadline"] - budget.start) / (budget.draw_deadline - budget.start)
    assert share == pytest.approx(pimc.DRAWN_SHARE) and 0 < pimc.DRAWN_SHARE < 1
    PimcPlayer(seed=1, time_limit=2.0, infer=False).advise(obs)      # no weighing: all of it
    assert asked["deadline"] == told["budget"].draw_deadline


def test_postponed_fusion_picks_the_next_card_by_the_weighted_mean_of_the_worlds():
    """Under ``fusion=postpone`` our next card is one card for the worlds we cannot tell
    apart, the one of best weighted mean.  The only test gave every world weight 1, so the
    weights could be dropped unnoticed.  Here two worlds alike in the cards seen weigh 1 and 9;
    our next card ``a`` is worth 10 in the first and 0 in the second, ``b`` 0 and 2: weighted,
    b is best (10 against 18), unweighted a would be (10 against 2)."""
    from types import SimpleNamespace

    from solver.cards import parse_card, parse_cards, parse_suit
    from solver.deal import Deal, Position
    from solver.pimc import value_play_postponed

    def dealt():
        return Deal((tuple(parse_cards("AH 2C 3C 4D")), tuple(parse_cards("KH QH 5D 6D"))),
                    parse_suit("S"), 1, Rules())

    first, second = Position(dealt()), Position(dealt())      # the same cards: two worlds

    class Stub:
        """Every card worth 0, but for N's next card after N's first."""

        def solve(self, position, side, objective, **limits):
            moves = {c: 0.0 for c in position.legal_moves()}
            if position.play and position.to_move == 0 and len(moves) > 1:
                a, b = position.legal_moves()[:2]
                moves[a], moves[b] = (10.0, 0.0) if position.deal is first.deal else (0.0, 2.0)
            return SimpleNamespace(nodes=1, complete=True, moves=moves)

    legal = list(first.legal_moves())
    values, kept, complete = value_play_postponed(Stub(), [first, second], [1.0, 9.0], legal,
                                                  0, 0, "margin", Budget(None, None, 2))
    assert complete and kept == [1.0, 9.0]
    # N leads AH, S follows with a heart and N leads again: b in both worlds
    assert values[parse_card("AH")] == [0.0, 2.0]
