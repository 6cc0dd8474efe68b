"""solver.players at its edges: ``decide`` where nobody is to act and for a player that does not
say whether it is omniscient, the on/off and objective helpers, which sides a deal leaves within
reach of the target (worked out by hand from the cards still to be won), the heuristic's calls
by its table or played out, and the cheater: its options, what it counts as stopped, and its
card among equals, near the target and against the heuristic's replies, each checked against
the reference solver (or the plain search of ``test_replies``).
"""

from __future__ import annotations

import random

import pytest

from solver.cards import parse_cards
from solver.deal import Deal
from solver.errors import AllFivesError
from solver.game import Match
from solver.players import (CheaterPlayer, HeuristicPlayer, PlayerError, check_switch, decide,
                            deal_objective, sides_within_reach, within_reach)
from solver.rules import Rules
from test_players import late_states, seen


# ---- decide ---------------------------------------------------------------------------------


def test_decide_where_nobody_is_to_act_says_so():
    """Before a pack is dealt (the shuffle phase: chance to act) and once the match is over,
    ``decide`` refuses with a PlayerError that names the phase."""
    heuristic = HeuristicPlayer()
    waiting = Match(2).new_initial_state(seed=1, auto_deal=False)
    with pytest.raises(PlayerError, match="nobody is to act: the state is in its shuffle phase"):
        decide(heuristic, waiting)
    over = Match(2, Rules().replace(target=5)).new_initial_state(seed=1)
    while not over.is_terminal():
        over.apply_action(decide(heuristic, over))
    with pytest.raises(PlayerError, match="nobody is to act: the state is in its over phase"):
        decide(heuristic, over)


def test_a_player_that_does_not_say_it_is_omniscient_sees_the_observation_only():
    """``omniscient`` is read where a player has it: a player without the attribute is asked
    ``act(observation)``, as one that is not omniscient."""
    class Plain:
        def act(self, observation):
            return observation.legal_actions[-1]

    state = Match(2).new_initial_state(seed=4)
    assert decide(Plain(), state) == state.legal_actions()[-1]


# ---- the helpers ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [True, False, 1, 0])
def test_an_on_off_option_takes_true_false_1_and_0(value):
    check_switch("infer", value)


@pytest.mark.parametrize("value", [2, -1, 1.0, 0.0, "1", "true", None])
def test_an_on_off_option_refuses_anything_else(value):
    with pytest.raises(PlayerError, match="^infer: .* is not true or false"):
        check_switch("infer", value)


def test_a_deal_is_played_for_the_margin_by_two_sides_and_for_points_by_three():
    assert [deal_objective(n) for n in (2, 3, 4)] == ["margin", "points", "margin"]


def test_the_sides_within_reach_count_every_point_still_to_be_had():
    """All-fives, two players, spades trumps: N holds the ace and jack of trumps and the heart
    ten, S the ten of trumps and two small cards.  Still to be had: A 4, J 1 + 1 for the Jack,
    T 10 (16 in the trumps; the heart ten's Game pips are no point) and High, Low and Game,
    19 in all.  N at 42 can reach 61, S at 41 cannot; the same after the first card, which is
    on the table still, and after the first trick, which N wins with the ace (14 won, 5 left)."""
    deal = Deal(tuple(tuple(parse_cards(h)) for h in ("AS JS TH", "TS 3H 4D")), 0, 1,
                Rules(), score=(42, 41))
    start = deal.position()
    assert sides_within_reach(start) == [0] and within_reach(start)
    ace, ten = parse_cards("AS TS")
    assert sides_within_reach(start.after(ace)) == [0]
    after_trick = start.after(ace).after(ten)
    assert sides_within_reach(after_trick) == [0]
    # one point fewer: nobody
    lower = Deal(deal.hands, 0, 1, Rules(), score=(41, 41))
    assert sides_within_reach(lower.position()) == [] and not within_reach(lower.position())
    # after the trick S, who won nothing, has 5 to come: 56 reaches 61, 55 does not
    for score, sides in (((42, 55), [0]), ((42, 56), [0, 1])):
        played = Deal(deal.hands, 0, 1, Rules(), score=score).position()
        assert sides_within_reach(played) == [0, 1]
        assert sides_within_reach(played.after(ace).after(ten)) == sides
    # without a match score nothing is within reach
    assert sides_within_reach(Deal(deal.hands, 0, 1, Rules()).position()) == []


@pytest.mark.parametrize("low_to", ["captor", "holder"])
def test_low_is_counted_once_within_reach_wherever_it_goes(low_to):
    """Spades trumps, N holds the only trump, the ace, and the heart nine, S two small cards:
    still to be had A 4, High, Low and Game, 7 points whether Low goes to the captor (then in
    the ace's points) or to its holder, as the reference solver finds N's most.  N at 54 can
    reach 61, at 53 cannot.  Over random deals, a side whose most reaches the target is
    always one within reach."""
    import random

    from solver import reference
    from solver.cards import ALL_CARDS

    rules = Rules().replace(low_to=low_to)
    hands = (tuple(parse_cards("AS 9H")), tuple(parse_cards("3H 4D")))
    assert reference.solve(Deal(hands, 0, 1, rules).position(), 0, "points").value == 7
    for score, sides in (((53, 0), []), ((54, 0), [0])):
        assert sides_within_reach(Deal(hands, 0, 1, rules, score=score).position()) == sides
    rng = random.Random(low_to)
    for _ in range(40):
        cards = rng.sample(ALL_CARDS, 6)
        hands = (tuple(cards[:3]), tuple(cards[3:]))
        trump = rng.randrange(4)
        for side in (0, 1):
            most = reference.solve(Deal(hands, trump, 1, rules).position(), side, "points").value
            if most == 0:       # (a score of 61 is a match over)
                continue
            score = [0, 0]
            score[side] = 61 - most
            assert side in sides_within_reach(Deal(hands, trump, 1, rules, score=score).position())


# ---- the heuristic's calls ------------------------------------------------------------------


@pytest.mark.parametrize("calls", ["table", "rollout"])
def test_the_calls_by_the_table_or_played_out_are_numbered_as_rules_1_and_2(calls):
    """Whatever makes the heuristic's calls, ``explain`` numbers the elder hand's call 1 and
    the dealer's 2, as rules 1 and 2 are."""
    player = HeuristicPlayer(seed=1, calls=calls)
    elder = seen("AS KS 4H 5D 9C 2C", phase="elder", seat="N", turnups="9S")
    dealer = seen("AS KS 4H 5D 9C 2C", phase="dealer", seat="S", turnups="9S")
    assert player.explain(elder)[1] == 1
    assert player.explain(dealer)[1] == 2


def test_a_forced_call_is_made_without_a_roll_out():
    """With no run allowed the dealer's only call is take-one: the rollout player makes it
    without drawing worlds from its seed, so what it draws later is as it would be without
    that call."""
    player = HeuristicPlayer(seed=1, calls="rollout")
    forced = seen("2H AH KH QH 2D 3D", phase="dealer", seat="S", turnups="9S",
                  rules=Rules().replace(max_runs=0))
    before = player.rng.getstate()
    assert player.explain(forced) == (forced.legal_actions[0], 2)
    assert player.rng.getstate() == before


# ---- the cheater ----------------------------------------------------------------------------


def test_the_cheater_refuses_a_limit_that_is_no_limit_and_sizes_its_table_as_documented():
    """A node limit is a whole number from 1, a time limit seconds above 0 (None for none);
    the table has 2**20 entries unless told."""
    for options, message in [({"node_limit": 0}, "^node_limit: 0 is not a number of nodes"),
                             ({"node_limit": 2.5}, "^node_limit: 2.5 is not a number of nodes"),
                             ({"time_limit": 0}, "^time_limit: 0 is not a number of seconds"),
                             ({"time_limit": -1.5}, "^time_limit: -1.5 is not a number of "),
                             ({"time_limit": "1"}, "^time_limit: .1. is not a number of ")]:
        with pytest.raises(AllFivesError, match=message):
            CheaterPlayer(**options)
    assert CheaterPlayer().table_bits == 20
    assert CheaterPlayer(node_limit=1, time_limit=None).node_limit == 1


def _choices(n: int, games: int, **options):
    """``late_states`` of ``games`` matches (seeds from 300 n, cards a little into a trick) where
    the seat to act has two legal cards or more, with its observation."""
    rng = random.Random(f"late{n}")
    for state in late_states(n, range(300 * n, 300 * n + games), rng, into_trick=True,
                             **options):
        observation = state.observation(state.current_player())
        if len(observation.legal_actions) >= 2:
            yield state, observation


@pytest.mark.parametrize("n", [2, 4])
def test_among_equal_best_cards_the_cheater_plays_the_heuristics(n):
    """The cheater plays a card of the best double-dummy value (the reference solver's), the
    heuristic's card when it is one of them, else the first of them in the order of the legal
    actions."""
    from solver import reference

    heuristic = HeuristicPlayer()
    ties = 0
    for state, observation in _choices(n, 30):
        position = state.position()
        truth = reference.solve(position, position.deal.side_of(position.to_move), "margin")
        best = [c for c in observation.legal_actions if truth.moves[c] == truth.value]
        preferred = heuristic.act(observation)
        expected = preferred if preferred in best else best[0]
        assert CheaterPlayer(time_limit=None).act(observation, state) == expected
        ties += len(best) > 1 and expected != best[-1]
    assert ties >= 3


def test_a_cheater_counts_the_decisions_a_limit_cut_short_once_each():
    """Without a limit no decision is cut short: ``stopped`` stays 0.  With a limit of one node
    a decision is counted once when cut short, however many solves it made (near the target
    a decision makes several); nothing was valued then, so the card played is the
    heuristic's.  A lone legal card is played without a solve (nor the state): never cut
    short."""
    heuristic = HeuristicPlayer()
    free = CheaterPlayer(time_limit=None)
    limited = CheaterPlayer(time_limit=None, node_limit=1)
    cut = lone = 0
    for state in late_states(3, range(900, 912), random.Random("late3"), cards=4, target=21,
                             score=15, into_trick=True):
        observation = state.observation(state.current_player())
        before = limited.stopped
        free.act(observation, state)
        card = limited.act(observation, state)
        assert limited.stopped - before in (0, 1)
        if len(observation.legal_actions) == 1:
            lone += 1
            assert limited.stopped == before
            assert CheaterPlayer(node_limit=1).act(observation) == card
        elif limited.stopped > before:
            cut += 1
            assert card == heuristic.act(observation)
    assert cut >= 5 and lone >= 1
    assert free.stopped == 0


def _first_best(values: dict, cards, preferred):
    """The cards of ``cards`` of the best value: ``preferred`` when it is one, else the first."""
    top = max(values[c] for c in cards)
    best = [c for c in cards if values[c] == top]
    return best, (preferred if preferred in best else best[0])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_near_the_target_the_cheater_keeps_the_winning_cards_then_the_safest_then_the_best(n):
    """By the reference solver: the cards of the best value of objective win; with three
    players, among those, the ones after which the other seats within reach can least win
    the match; among those the best for points (margin with two sides), the heuristic's card
    first among equals, else the first legal one."""
    from solver import reference

    heuristic = HeuristicPlayer()
    checked = narrowed = 0
    for state, observation in _choices(n, 80 if n == 3 else 40, target=21, score=15):
        position = state.position()
        if not within_reach(position):
            continue
        side = position.deal.side_of(position.to_move)
        preferred = heuristic.act(observation)
        legal = list(observation.legal_actions)
        candidates, _ = _first_best(reference.solve(position, side, "win").moves, legal,
                                    preferred)
        if n == 3 and len(candidates) > 1:
            lost = dict.fromkeys(candidates, 0)
            for rival in sides_within_reach(position):
                if rival != side:
                    moves = reference.solve(position, rival, "win").moves
                    for c in candidates:
                        lost[c] = max(lost[c], moves[c])
            safest, _ = _first_best({c: -v for c, v in lost.items()}, candidates, preferred)
            narrowed += len(safest) < len(candidates)
            candidates = safest
        objective = "points" if n == 3 else "margin"
        _, expected = _first_best(reference.solve(position, side, objective).moves,
                                  candidates, preferred)
        assert CheaterPlayer(time_limit=None).act(observation, state) == expected, position
        checked += len(candidates) > 1
    assert checked >= 3
    if n == 3:
        assert narrowed >= 1


#: Three players near the target (21): the seat to play has two cards alike for the match and
#: for points; after the heuristic's another seat can be sure of winning the match, after the
#: other none can.
SAFER_OF_TWO = ("N:9.32.J9.Q Q4.-.865.K T6.T98.-.6 dealer=E turnup=JS "
                "play=8H,3H,KC,TH,2H,4S,6D,6S,9D,6C target=21 score=15,15,15")


def test_near_the_target_of_two_cards_the_cheater_plays_the_one_no_other_seat_wins_after():
    """By the reference solver: of two cards alike for the match, the cheater plays the one
    after which no other seat can be sure of winning it, not the one the points and then the
    heuristic prefer; where a limit cuts the other seats' solves short, it plays that one, and
    the decision counts as cut short once."""
    from types import SimpleNamespace

    from solver import reference
    from solver.deal import Position
    from solver.game import observation_of
    from solver.search import Solver

    position = Position.from_line(SAFER_OF_TWO)
    side = position.deal.side_of(position.to_move)
    observation = observation_of(position, position.to_move)
    state = SimpleNamespace(position=lambda: position)
    wins = reference.solve(position, side, "win").moves
    two = [c for c in observation.legal_actions if wins[c] == max(wins.values())]
    lost = dict.fromkeys(two, 0)
    for rival in set(sides_within_reach(position)) - {side}:
        moves = reference.solve(position, rival, "win").moves
        lost = {c: max(lost[c], moves[c]) for c in two}
    points = reference.solve(position, side, "points").moves
    (safe,), (unsafe,) = ([c for c in two if lost[c] == v] for v in (0, 1))
    assert _first_best(points, two, HeuristicPlayer().act(observation))[1] == unsafe
    cheater = CheaterPlayer(time_limit=None)
    assert cheater.act(observation, state) == safe and cheater.stopped == 0

    class RivalsCut:
        """The engine, each other seat's solve cut to one node (before it has seen them)."""

        def __init__(self) -> None:
            self.solver = Solver(16)

        def solve(self, position, for_side, objective, **limits):
            if for_side != side:
                limits["node_limit"] = 1
            return self.solver.solve(position, for_side, objective, **limits)

    cheater._solver = RivalsCut()
    assert cheater.act(observation, state) == unsafe and cheater.stopped == 1


@pytest.mark.parametrize("n", [2, 4])
def test_the_cheater_replying_with_a_time_limit_plays_the_best_reply_heuristics_first(n):
    """With a time limit the search that fits it is not cut short: ``stopped`` stays 0 and the
    card is one of the best against the heuristic's replies (each seat of the other side
    playing the heuristic's card), the heuristic's own card when it is one of them, else the
    first legal one."""
    from test_replies import slow_reply

    heuristic = HeuristicPlayer()
    ties = 0
    for state, observation in _choices(n, 20):
        position = state.position()
        side = position.deal.side_of(position.to_move)
        values = {c: slow_reply(position.after(c), side, "margin")
                  for c in observation.legal_actions}
        best, expected = _first_best(values, list(observation.legal_actions),
                                     heuristic.act(observation))
        cheater = CheaterPlayer(time_limit=60.0, replies="heuristic")
        assert cheater.act(observation, state) == expected
        assert cheater.stopped == 0
        ties += len(best) > 1 and expected != best[-1]
    assert ties >= 1
    if n == 2:
        # at the start of a two-player deal the search reaches some hundreds of positions (the
        # clock is looked at every 256) in a few milliseconds: a minute is far from over
        for seed in range(3):
            state = Match(n, Rules().replace(target=999)).new_initial_state(seed=seed)
            while state.phase != "play":
                state.apply_action(decide(heuristic, state))
            observation = state.observation(state.current_player())
            timed = CheaterPlayer(time_limit=60.0, replies="heuristic")
            card = timed.act(observation, state)
            assert timed.stopped == 0
            assert card == CheaterPlayer(time_limit=None,
                                         replies="heuristic").act(observation, state)
