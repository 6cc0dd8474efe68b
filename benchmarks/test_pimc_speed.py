"""The Monte Carlo player's decision time on 6-card hands, with pytest-benchmark.

The observations are fixed and seeded: every decision with a choice (a call or a card) that a
seat meets in the first deal of heuristic-against-heuristic matches from seeds 0, 1, 2, ...,
when that deal is played on 6-card hands (no run), until ``ALLFIVES_BENCH_PIMC`` decisions
(default 200) are gathered per table.  One round is one ``PimcPlayer.advise`` with the default
options, or with ``trust=full,replies=heuristic`` (each world valued against the heuristic's
replies), and with four players ``trust=full,replies=heuristic,partner=heuristic`` (the
partner's cards the heuristic's too in that search); the player is made once per table, as
in a match (its table kept).  ``ALLFIVES_BENCH_WORLDS`` sets the worlds a decision values
(the player's option ``worlds``; by default its own, 128 with two players and 64 with four),
as the README's rows of 16 worlds were measured.  Run:

    .venv/bin/pip install '.[bench]'
    .venv/bin/pytest benchmarks/test_pimc_speed.py --benchmark-columns=median,mean,max,rounds

``extra_info`` holds the median and the 95th percentile of the decision times, by calls and
by card play.
"""

import itertools
import os

import pytest

from solver.game import PLAY, Match
from solver.pimc import PimcPlayer
from solver.players import decide
from solver.registry import make_player
from solver.stats import time_summary


def observations(players: int, count: int):
    out = []
    heuristic = make_player("heuristic")
    for seed in itertools.count():
        state = Match(players=players).new_initial_state(seed=seed)
        seen = []
        while state.deal_number == 1 and not state.is_terminal():
            obs = state.observation(state.current_player())
            if len(obs.legal_actions) > 1:
                seen.append(obs)
            state.apply_action(decide(heuristic, state))
            if state.phase == PLAY and len(state.deal.hands[0]) != 6:
                seen = []
                break
        out += seen
        if len(out) >= count:
            return out[:count]


def record_times(info, seconds, kind=""):
    """The median and the nearest-rank 95th percentile of ``seconds`` into ``info``, as
    ``match`` reports a player's decision times (``solver.stats.time_summary``)."""
    summary = time_summary(seconds)
    info[f"{kind}median_s"] = round(summary.median, 4)
    info[f"{kind}p95_s"] = round(summary.p95, 4)


@pytest.mark.parametrize("options", [{}, {"trust": "full", "replies": "heuristic"},
                                     {"trust": "full", "replies": "heuristic",
                                      "partner": "heuristic"}],
                         ids=["default", "replies", "partner"])
@pytest.mark.parametrize("players", [2, 4])
def test_pimc_decision(benchmark, players, options):
    if players == 2 and "partner" in options:
        pytest.skip("with two players there is no partner to model")
    benchmark.group = "pimc"
    count = int(os.environ.get("ALLFIVES_BENCH_PIMC", 200))
    feed = observations(players, count)
    worlds = os.environ.get("ALLFIVES_BENCH_WORLDS")
    player = PimcPlayer(seed=1, **options, **({"worlds": int(worlds)} if worlds else {}))
    items = iter(feed)
    times = {"call": [], "card": []}

    def one(obs):
        advice = player.advise(obs)
        assert advice.best in obs.legal_actions
        times["card" if obs.phase == PLAY else "call"].append(advice.seconds)

    benchmark.pedantic(one, setup=lambda: ((next(items),), {}), rounds=len(feed), iterations=1)
    every = times["call"] + times["card"]
    benchmark.extra_info["decisions"] = len(every)
    record_times(benchmark.extra_info, every)
    for kind, values in times.items():
        if values:
            record_times(benchmark.extra_info, values, f"{kind}_")
