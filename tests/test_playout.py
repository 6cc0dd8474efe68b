"""solver.playout: cards valued by playing the deal out, where the engine cannot solve in time.

The oracle is the slow, plain way of the same thing: the heuristic asked at every turn for the
game's observation of the seat to play (``observation_of``), the position rebuilt and checked by
``Position.after`` card by card, and the value of the finished deal by ``final_value``.
"""

from __future__ import annotations

import random
import re

import pytest

import cli.advising as advising
from clirun import run
from solver.game import Match, observation_of
from solver.pimc import PLAYED_OUT, SOLVED, Advice, ActionValue, PimcPlayer
from solver.players import HeuristicPlayer
from solver.playout import play_out, played_out_values
from solver.reference import final_value
from solver.rules import PRESETS, Rules
from solver.sampling import sample_worlds, world_position
from solver.shuffle import shuffle_deal

HEURISTIC = HeuristicPlayer()


def slow_play_out(position):
    p = position
    while not p.is_over:
        p = p.after(HEURISTIC.act(observation_of(p, p.to_move)))
    return p


def random_position(rng: random.Random, players: int, preset: str, runs: int = 0):
    """A deal with ``runs`` runs, some cards into it by random legal cards."""
    deal = shuffle_deal(rng, players, runs, Rules.preset(preset))
    p = deal.position()
    for _ in range(rng.randrange(len(deal.hands[0]) * players)):
        p = p.after(rng.choice(p.legal_moves()))
    return p


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_play_out_is_the_heuristic_at_every_seat(players, preset):
    rng = random.Random(f"{players}{preset}")
    for k in range(12):
        p = random_position(rng, players, preset, runs=k % 3)
        final = play_out(p)
        assert final.is_over
        assert final.play[:len(p.play)] == p.play
        assert final == slow_play_out(p)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_played_out_values_are_the_finished_deals_values(players):
    rng = random.Random(players)
    p = random_position(rng, players, "all-fives", runs=1)
    while len(p.legal_moves()) < 2:
        p = random_position(rng, players, "all-fives", runs=1)
    observation = observation_of(p, p.to_move)
    positions = [world_position(observation, w) for w in sample_worlds(observation, 3, rng)]
    legal = p.legal_moves()
    side = p.to_move % 2 if players == 4 else p.to_move
    objectives = ("margin", "points") if players != 3 else ("points",)
    values, kept = played_out_values(positions, [1.0, 2.0, 3.0], legal, side, objectives)
    assert kept == [1.0, 2.0, 3.0][:len(positions)]
    for objective in objectives:
        for card in legal:
            truth = [float(final_value(slow_play_out(w.after(card)), side, objective))
                     for w in positions]
            assert values[objective][card] == truth


def test_played_out_with_three_players_near_the_target_says_when_another_seat_wins():
    """With three players near the target each card also carries, from the same play-outs, 1
    where a seat other than the one deciding won the match in the deal, else 0: the finished
    deal's ``win`` for each of the others."""
    rng = random.Random(3)
    seen = 0
    for seed in range(40):
        score = tuple(rng.randrange(45, 61) for _ in range(3))
        state = Match(players=3).new_initial_state(seed=seed, score=score)
        while not state.is_terminal() and state.phase != "play":
            state.apply_action(HEURISTIC.act(state.observation(state.current_player())))
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        p = state.position()
        me = p.to_move
        legal = p.legal_moves()
        values, _ = played_out_values([p], [1.0], legal, me, ("win", "points"), others_win=True)
        for card in legal:
            final = slow_play_out(p.after(card))
            assert values["win"][card] == [float(final_value(final, me, "win"))]
            assert values["others_win"][card] == [float(max(
                final_value(final, other, "win") for other in {0, 1, 2} - {me}))]
            seen += values["others_win"][card][0]
    assert seen     # (some card lets another seat win)


def test_spent_stops_after_the_first_world_and_never_before_it():
    rng = random.Random(5)
    p = random_position(rng, 2, "all-fives")
    while len(p.legal_moves()) < 2:
        p = random_position(rng, 2, "all-fives")
    values, kept = played_out_values([p] * 4, [1.0] * 4, p.legal_moves(), 0, ("margin",),
                                     spent=lambda: True)
    assert kept == [1.0]
    assert all(len(v) == 1 for v in values["margin"].values())


def twelve_card_play(seed_range=range(40)):
    """A four-player match in the play of a 12-card deal (two runs forced)."""
    from solver.game import BEG, PLAY, RUN

    for seed in seed_range:
        state = Match(players=4, rules=Rules()).new_initial_state(seed=seed)
        while state.phase != PLAY and state.deal_number == 1:
            state.apply_action(BEG if state.phase == "elder" else RUN)
        if state.phase == PLAY and len(state.hands[0]) == 12:
            return state
    pytest.fail("no 12-card deal in these seeds")


def test_advice_on_hands_too_deep_to_solve_is_played_out():
    state = twelve_card_play()
    seat = state.current_player()
    obs = state.observation(seat)
    truth = state.position()
    player = PimcPlayer(seed=1, time_limit=None, node_limit=2_000, worlds=4)
    advice = player.advise_positions(obs, [truth] * 4, [1.0] * 4)
    assert advice.method == PLAYED_OUT and advice.worlds == 4 and not advice.complete
    values, _ = played_out_values([truth], [1.0], list(obs.legal_actions), seat % 2,
                                  ("margin",))
    assert {a.action: a.mean for a in advice.actions} == pytest.approx(
        {c: v[0] for c, v in values["margin"].items()})
    means = [a.mean for a in advice.actions]
    assert means == sorted(means, reverse=True)
    # the player's own card there is the played-out best, from worlds of what it sees
    def starved():
        return PimcPlayer(seed=2, time_limit=None, node_limit=2_000, worlds=4)

    advice = starved().advise(obs)
    assert advice.method == PLAYED_OUT and advice.worlds == 4
    assert starved().act(obs) == advice.best


@pytest.mark.parametrize("solved, use_win, players",
                         [(1, False, 2), (3, False, 2), (4, False, 2), (2, True, 2), (1, False, 3),
                          (2, True, 3)])
def test_too_few_worlds_solved_are_played_out_over_sixteen(monkeypatch, solved, use_win,
                                                           players):
    """Two or three worlds solved of many (the first fitted its share, the others not: the
    easier deals) were the advice, ties and all; fewer than four solved are played out instead,
    over 16 worlds at the least, the budget spent; four stand.  Near the target too, where the
    chance of winning is solved first (with three players, and another seat's chance).  Every
    world listed (``exact``) but not all played out: not exact."""
    import solver.pimc as pimc_module
    from solver.advice import Budget
    from solver.game import PLAY
    from solver.players import decide

    state = Match(players=players, rules=Rules()).new_initial_state(seed=3)
    while state.phase != PLAY:
        state.apply_action(decide(HEURISTIC, state))
    obs = state.observation(state.current_player())
    truth = state.position()
    real = pimc_module.value_play

    def few(solver, positions, weights, legal, side, objective, budget, kept_at=None):
        found = real(solver, positions[:solved], weights[:solved], legal, side, objective,
                     Budget(None, None, solved), kept_at)
        budget.deadline = 0.0       # spent on the worlds that did not fit
        return found

    monkeypatch.setattr(pimc_module, "value_play", few)
    monkeypatch.setattr(pimc_module, "within_reach", lambda position: use_win)
    advice = PimcPlayer(seed=1, time_limit=None, worlds=40).advise_positions(
        obs, [truth] * 40, [1.0] * 40, exact=True, budget=Budget(None, None, 40))
    if solved >= 4:
        assert (advice.method, advice.worlds, advice.solved) == (SOLVED, solved, 0)
    else:
        assert (advice.method, advice.worlds, advice.solved) == (PLAYED_OUT, 16, solved)
        assert advice.objective == ("win" if use_win else "points" if players == 3
                                    else "margin")
        assert not advice.exact and not advice.complete and advice.left_out == 0
        assert {a.others_win is None for a in advice.actions} == \
            {not (use_win and players == 3)}
        assert {a.points is None for a in advice.actions} == {not use_win}   # (ties' points)


def test_advice_solved_in_time_says_so():
    state = Match(players=2, rules=Rules()).new_initial_state(seed=3)
    from solver.game import PLAY
    from solver.players import decide

    while state.phase != PLAY:
        state.apply_action(decide(HEURISTIC, state))
    advice = PimcPlayer(seed=1, worlds=4).advise(state.observation(state.current_player()))
    assert advice.method == SOLVED and advice.worlds == 4


def advised_with(monkeypatch, method, solved=0):
    """``allfives advise``'s report and record of one position, the advice made up with
    ``method`` (and incomplete; ``solved`` worlds solved before it was played out)."""
    def advise(observation, worlds, seed, seen=None, node_limit=None):
        actions = tuple(ActionValue(a, 1.0 - k, -2.0 - k, 4.0 - k, 0.5)
                        for k, a in enumerate(observation.legal_actions))
        return Advice(observation.seat, "play", "margin", 16, False, False, actions,
                      method=method, solved=solved)

    monkeypatch.setattr(advising, "advice_for", advise)
    position = "N:T.QJT92.-.- - dealer=S turnup=6H"
    report = run("advise", position, "--no-color")
    assert report.exit_code == 0, report.stderr
    record = run("advise", position, "--json")
    assert record.exit_code == 0, record.stderr
    return report.stdout, record.stdout


@pytest.mark.parametrize("solved, said", [(0, "not one"), (2, "only 2")])
def test_the_report_and_the_record_say_the_cards_were_played_out(monkeypatch, solved, said):
    report, record = advised_with(monkeypatch, PLAYED_OUT, solved)
    assert "played out by the heuristic's rules" in report
    assert (f"Too few deals could be solved within the node limit ({said}; four are needed"
            in " ".join(report.split()))
    assert "Some solves stopped" not in report
    assert '"method": "played out"' in record


def test_the_hint_lines_up_its_columns_past_nine_choices():
    """'  9 7♦  +13.41' above '  10 A♣   +9.21': the tenth row and on a column to the right."""
    state = twelve_card_play()
    obs = state.observation(state.current_player())
    legal = list(obs.legal_actions)
    assert len(legal) >= 10
    actions = tuple(ActionValue(a, 1.0 - k, -2.0 - k, 4.0 - k, 0.5) for k, a in enumerate(legal))
    advice = Advice(obs.seat, "play", "margin", 16, False, True, actions)
    rows = [line for line in advising.advice_lines(advice, obs, legal, False).plain.splitlines()
            if re.match(r" +\d+ \S", line)]
    assert len(rows) == len(legal)
    # each card under the one before it, and its value's end under the one before it too
    assert len({re.match(r" +\d+ ", line).end() for line in rows}) == 1
    assert len({re.match(r" +\d+ \S+ +[-+][\d.]+", line).end() for line in rows}) == 1
    assert [line[:5] for line in rows[8:10]] == ["   9 ", "  10 "]


def test_the_hint_says_the_cards_were_played_out():
    state = twelve_card_play()
    obs = state.observation(state.current_player())
    actions = tuple(ActionValue(a, 1.0 - k, -2.0 - k, 4.0 - k, 0.5)
                    for k, a in enumerate(obs.legal_actions))
    for method, said in ((PLAYED_OUT, True), (SOLVED, False)):
        advice = Advice(obs.seat, "play", "margin", 16, False, False, actions, method=method)
        text = advising.advice_lines(advice, obs, list(obs.legal_actions), False).plain
        assert ("each deal played out by the heuristic" in text) == said
        assert ("a search stopped at its limit" in text) == (not said)
