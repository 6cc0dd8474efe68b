"""Play inference's cost, with pytest-benchmark: weighing worlds by the opponents' cards.

The observations are fixed and seeded: seat 0's view at each of its turns in card play in
the first deal of heuristic-against-heuristic matches from seeds 0, 1, 2, ... (6-card hands),
``ALLFIVES_BENCH_PIMC`` of them (default 200) per table, each with 256 worlds drawn.  One
round is one observation's worlds weighed by ``PlayWeigher`` with ``trust=full`` (or as the
weighing was first written, ``tests/test_inference.reference_weight``).  The
decision time of ``pimc:trust=full`` itself (draws 16 and 64) is timed on the observations
of ``test_pimc_speed``.  Run:

    .venv/bin/pytest benchmarks/test_inference_speed.py --benchmark-columns=median,mean,rounds

``extra_info`` holds the microseconds per world, and for the player the median and 95th
percentile of its decision times.
"""

import itertools
import os
import random
import sys
from pathlib import Path

import pytest

from solver.game import PLAY, Match
from solver.inference import FULL, PlayWeigher
from solver.players import decide
from solver.registry import make_player, player_spec
from solver.sampling import sample_worlds

from test_pimc_speed import observations as decisions, record_times

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_inference import reference_weight  # noqa: E402  the weighing as first written

WORLDS = 256


def seat_zero_views(players: int, count: int):
    rng = random.Random(players)
    out = []
    heuristic = make_player("heuristic")
    for seed in itertools.count():
        state = Match(players=players).new_initial_state(seed=seed)
        while state.deal_number == 1 and not state.is_terminal():
            if state.phase == PLAY and len(state.deal.hands[0]) != 6:
                break
            if state.phase == PLAY and state.current_player() == 0:
                obs = state.observation(0)
                if obs.play and not obs.revokes:
                    out.append((obs, [w.hands for w in sample_worlds(obs, WORLDS, rng)]))
                    if len(out) >= count:
                        return out
            state.apply_action(decide(heuristic, state))


@pytest.mark.parametrize("way", ["weigher", "as first written"])
@pytest.mark.parametrize("players", [2, 4])
def test_weighing(benchmark, players, way):
    benchmark.group = "inference"
    feed = seat_zero_views(players, int(os.environ.get("ALLFIVES_BENCH_PIMC", 200)))
    items = iter(feed)

    def one(obs, worlds):
        if way == "weigher":
            weigher = PlayWeigher(obs, FULL)
            for hands in worlds:
                assert 0 < weigher.weight(hands) <= 1
        else:
            for hands in worlds:
                assert 0 < reference_weight(obs, hands, FULL) <= 1

    benchmark.pedantic(one, setup=lambda: (next(items), {}), rounds=len(feed), iterations=1)
    benchmark.extra_info["us_per_world"] = round(1e6 * benchmark.stats.stats.mean / WORLDS, 1)


@pytest.mark.parametrize("draws", [16, 64])
@pytest.mark.parametrize("players", [2, 4])
def test_full_trust_decision(benchmark, players, draws):
    benchmark.group = "inference"
    feed = decisions(players, int(os.environ.get("ALLFIVES_BENCH_PIMC", 200)))
    player = player_spec(f"pimc:trust=full,draws={draws}").make(seed=1)
    items = iter(feed)
    times = []

    def one(obs):
        advice = player.advise(obs)
        times.append(advice.seconds)

    benchmark.pedantic(one, setup=lambda: ((next(items),), {}), rounds=len(feed), iterations=1)
    record_times(benchmark.extra_info, times)
