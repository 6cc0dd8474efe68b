"""Properties of the match engine over many random games (a game: a match of one game to the
target, played by uniform random choices), every player count, preset, finish rule and several
option variants.  The default run plays 1,000 games; ``pytest -m slow`` plays 100,000 more.

- no illegal action is ever offered (every offered action is applied without complaint, and an
  action not offered is refused);
- every point pegged is accounted for by the rules: in a deal played out, the points pegged in
  card play are each side's score of the deal by ``solver.scoring``; a take-one and a turned-up
  Jack are 1 each, to the elder hand's side and the dealer's;
- a side's score never decreases (random play never revokes);
- the match ends exactly when the rules say: under peg-out the moment a side reaches the target,
  under hand-end after the deal in which one does, with the highest such total winning;
- every record replays, to the same score.
"""

from __future__ import annotations

import random

import pytest

from solver.game import GameError, Match
from solver.records import match_records, replay
from solver.rules import PRESETS, Rules
from solver.scoring import score_position

VARIANTS = [dict(), dict(target=11), dict(target=21, skunk=True), dict(max_runs=None),
            dict(max_runs=0, turnup_jack=True), dict(five_for_five=True, low_to="captor"),
            dict(follow="strict", target=7)]


def random_rules(rng: random.Random) -> Rules:
    options = dict(rng.choice(VARIANTS))
    options["finish"] = rng.choice(["peg-out", "hand-end"])
    return Rules.preset(rng.choice(list(PRESETS)), **options)


def play_a_game(seed: int) -> int:
    """One random game with every property checked as it goes; the deals it took."""
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4])
    rules = random_rules(rng)
    state = Match(players, rules).new_initial_state(seed=seed)
    target = rules.target
    score = list(state.score)
    deal_start = list(score)
    last_position = None
    deals_done = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, state
        if rng.random() < 0.05:
            refused = next(a for a in rng.sample(range(68), 68) if a not in legal)
            with pytest.raises(GameError):
                state.clone().apply_action(refused)
        action = rng.choice(legal)
        if state.phase == "play" and sum(map(len, state.hands)) == 1:  # the deal's last card
            last_position = state.position()
        state.apply_action(action)
        now = list(state.score)
        assert all(b >= a for a, b in zip(score, now)), (seed, score, now)
        score = now
        if len(state.deals) > deals_done:               # a deal (or a throw-in) has ended
            deals_done = len(state.deals)
            log = state.deals[-1]
            assert list(log.score) == score
            if last_position is not None:
                finished = last_position.after(action)
                if finished.is_over:
                    pegged_in_play = [s - b for s, b in zip(score, deal_start)]
                    before_play = [0] * len(score)
                    for seat, taken in log.actions:
                        if taken == 66:                 # take-one: the elder hand's side
                            before_play[state.side_of((log.dealer + 1) % players)] += 1
                    expected = score_position(finished).totals()
                    if rules.turnup_jack and (finished.deal.turnup or 0) & 15 == 9:
                        before_play[state.side_of(log.dealer)] += 1
                    # peg-out may end the match before every point is pegged
                    got = [p - q for p, q in zip(pegged_in_play, before_play)]
                    if rules.finish == "hand-end" or not any(p >= target for p in score):
                        assert got == list(expected), (seed, got, expected)
                    else:
                        assert all(g <= e for g, e in zip(got, expected)), (seed, got, expected)
            deal_start = list(score)
            last_position = None
            if rules.finish == "hand-end":   # over with the first deal taking a side there
                assert state.is_terminal() == any(s >= target for s in score), (seed, score)
        # the end of the match, exactly when the rules say
        reached = [s for s in score if s >= target]
        if rules.finish == "peg-out":
            assert state.is_terminal() == bool(reached), (seed, score)
        elif state.is_terminal():
            assert reached and len(state.deals) == deals_done
            top = max(score)
            winners = tuple(side for side, s in enumerate(score) if s == top)
            assert state.winners == winners
    if rules.finish == "peg-out":
        assert len(state.winners) == 1 and score[state.winners[0]] >= target
    again = replay(match_records(state))
    assert again.score == state.score and again.winners == state.winners
    return deals_done


def test_a_thousand_random_games():
    deals = sum(play_a_game(seed) for seed in range(1000))
    assert deals > 5_000


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_a_hundred_thousand_random_games(block: int):
    for seed in range(10_000 + block * 10_000, 20_000 + block * 10_000):
        play_a_game(seed)
