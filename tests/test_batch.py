"""solver.batch: games and duplicate play over executors (solver.executors), the same results
whatever runs them; a run's records read back (solver.resume); solve_many; interrupts.  The statistics are in test_stats.py."""

from __future__ import annotations

import math
import multiprocessing.pool
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from types import SimpleNamespace

import pytest

from clirun import workers_of

from solver.batch import (PackStream, duplicate_result, play_deals, play_match, run_duplicate,
                          run_matches, seatings)
from solver.errors import AllFivesError, WorkersLost
from solver.executors import (BatchError, SerialExecutor, WorkerPool, executor_for, gather,
                              solve_many, usable_cpus)
from solver.resume import records_parts
from solver.game import Match
from solver.registry import make_player
from solver.records import replay
from solver.rules import MAX_TARGET, Rules
from solver.shuffle import random_position


# ---- one game -------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _switch_interval():
    """A chunk run as on a cluster's worker sets the process's switch interval: each test
    leaves it as it found it."""
    before = sys.getswitchinterval()
    yield
    sys.setswitchinterval(before)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_play_match_gives_records_that_replay_and_points_that_add_up(n):
    players = [make_player("heuristic") if s % 2 == 0 else make_player("random", seed=s)
               for s in range(n)]
    result = play_match(players, Match(n), seed=7)
    state = replay(result.records)
    assert state.is_terminal()
    assert tuple(state.returns()) == result.returns
    assert state.score == result.score
    # one game from 0-0: the final score is the sum of every deal's points
    assert result.points() == result.score
    assert sorted(result.times) == sorted({p.name for p in players})
    decisions = sum(len(t) for t in result.times.values())
    assert decisions == sum(len(r["actions"]) for r in result.records)
    assert result.records[0]["players"]["N"] == "heuristic"


def test_play_match_deals_the_packs_given_in_order():
    """Given packs, a match deals them in order (the seed cuts for the first dealer only);
    given none, the packs of its seed."""
    stream = PackStream(9)
    players = [make_player("heuristic"), make_player("random", seed=1)]
    given = play_match(players, Match(2), seed=4, packs=iter(stream))
    assert [r["pack"] for r in given.records] == \
        [[_name(c) for c in stream[i]] for i in range(len(given.records))]
    seeded = play_match(players, Match(2), seed=4)
    assert [r["pack"] for r in seeded.records] != [r["pack"] for r in given.records]
    assert seeded.records[0]["dealer"] == given.records[0]["dealer"]


def test_play_match_is_repeatable():
    def run(records=True):
        return play_match([make_player("random", seed=1), make_player("random", seed=2)],
                          Match(2), seed=3, records=records)

    assert run() == run()
    # without the records (a run that writes none: they were made and thrown away, a tenth of
    # a cheap player's time), the same game
    bare = run(records=False)
    assert bare.records == () and replace(bare, records=run().records) == run()
    deals = play_deals([make_player("heuristic"), make_player("random", seed=1)], Rules(),
                       deals=3, packs=iter(PackStream(5)), records=False)
    assert deals.records == () and deals.deals == 3


def test_play_deals_plays_a_fixed_number_of_deals_from_given_packs():
    stream = PackStream(5)
    players = [make_player("heuristic"), make_player("random", seed=1)]
    result = play_deals(players, Rules(), deals=3, dealer=1, packs=iter(stream))
    assert result.deals == 3
    assert result.returns == (0, 0)
    assert result.records[0]["dealer"] == "S"
    assert result.records[0]["rules"]["target"] == MAX_TARGET
    played = [r for r in result.records]
    assert [r["pack"] for r in played] == [[_name(c) for c in stream[i]]
                                          for i in range(len(played))]
    assert result.points() == result.score
    # by default one deal, North dealing, its pack from the seed
    one = play_deals(players, Rules(), seed=5)
    assert (one.deals, one.records[0]["dealer"]) == (1, "N")
    assert one.records[0]["pack"] == [_name(c) for c in stream[0]]


def _name(card):
    from solver.cards import card_str
    return card_str(card)


def test_a_player_the_table_cannot_seat_is_refused_before_any_play():
    """A player's option that its table refuses (a partner's, with two players) is found as
    the players are checked, before any chunk is handed to the executor."""
    from solver.players import PlayerError

    class NoPlay(SerialExecutor):
        def submit(self, fn, /, *args, **kwargs):
            raise AssertionError("a chunk was handed out")

    for run in (run_duplicate, run_matches):
        with pytest.raises(PlayerError, match=r"^infer_partner: only with four players"):
            run("random", "pimc:infer_partner=1", players=2, groups=1, executor=NoPlay())


def test_a_run_given_a_match_plays_its_rules():
    """A run given a match plays it as one given its rules (and, of matches, its best of)."""
    rules = Rules.preset("all-fours", target=11)
    assert run_duplicate("heuristic", "random", groups=3, match=Match(2, rules)) == \
        run_duplicate("heuristic", "random", groups=3, rules=rules)
    assert run_matches("heuristic", "random", groups=2, match=Match(2, rules, best_of=3)) == \
        run_matches("heuristic", "random", groups=2, rules=rules, best_of=3)


def test_a_table_of_the_wrong_size_is_refused():
    with pytest.raises(BatchError, match="3 players for a 2-player table"):
        play_match([make_player("random")] * 3, Match(2))
    with pytest.raises(BatchError, match="number of deals"):
        play_deals([make_player("random")] * 2, Rules(), deals=0)
    for deals in (0, 2.5, "2"):
        with pytest.raises(BatchError, match=f"^{deals!r} is not a number of deals$"):
            run_duplicate("random", "random", groups=1, deals=deals)
    with pytest.raises(BatchError, match="2, 3 or 4 players"):
        run_duplicate("random", "random", players=5, groups=1)
    with pytest.raises(BatchError, match="chunk size"):
        run_duplicate("random", "random", groups=1, chunk_size=0)


# ---- duplicate ------------------------------------------------------------------------------


def test_the_seatings_are_as_documented():
    assert seatings(2) == [(0, 1), (1, 0)]
    assert seatings(4) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    three = seatings(3)
    assert len(three) == len(set(three)) == 6
    assert set(three) == {(0, 0, 1), (0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0)}
    for seat in range(3):  # every seat is A's in half the seatings
        assert sum(k[seat] == 0 for k in three) == 3
    for players in (1, 5):
        with pytest.raises(AllFivesError, match=f"^a table has 2, 3 or 4 players, not {players}$"):
            seatings(players)


def test_a_runs_bootstrap_interval_is_the_bca_over_its_groups():
    """``DuplicateResult.bootstrap`` is ``solver.stats.bootstrap_interval`` over the groups'
    differences, by default at 95% with 2,000 resamples from seed 0."""
    from solver.stats import bootstrap_interval

    result = run_duplicate("heuristic", "random", players=2, groups=30, seed=2)
    differences = result.differences()
    assert result.bootstrap() == bootstrap_interval(differences, 0.95, 2000, 0)
    assert result.bootstrap(0.9, 500, 3) == bootstrap_interval(differences, 0.9, 500, 3)
    assert result.bootstrap() != bootstrap_interval(differences, 0.95, 2000, 1)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_seating_of_a_group_deals_the_same_packs_with_the_same_dealer(n):
    result = run_duplicate("heuristic", "random", players=n, groups=3, seed=4, keep_records=True)
    for group in result.groups:
        assert len(group.records) == len(seatings(n))
        firsts = [records[0] for records in group.records]
        assert len({tuple(r["pack"]) for r in firsts}) == 1
        assert {r["dealer"] for r in firsts} == {"NESW"[group.dealer] if n == 4 else
                                                 {2: "NS", 3: "NES"}[n][group.dealer]}
        for kinds, records in zip(group.seatings, group.records):
            names = records[0]["players"]
            assert [names[s] for s in sorted(names, key="NESW".index)] == \
                [("heuristic", "random")[k] for k in kinds]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_player_against_itself_shows_no_difference(n):
    # the heuristic is deterministic: each seat's games are the same whichever kind sits there
    result = run_duplicate("heuristic", "heuristic", players=n, groups=20, seed=2)
    assert result.differences() == [0.0] * 20
    assert set(result.times()) == {"heuristic (A)", "heuristic (B)"}


def test_the_paired_difference_is_the_mean_over_seatings():
    result = run_duplicate("heuristic", "random", players=3, groups=4, seed=1)
    for g in result.groups:
        assert g.difference == pytest.approx(
            sum(pa - pb for pa, pb in g.kind_points) / 6)
        for kinds, points, (pa, pb) in zip(g.seatings, g.side_points, g.kind_points):
            a_seats = [points[s] for s, k in enumerate(kinds) if k == 0]
            b_seats = [points[s] for s, k in enumerate(kinds) if k == 1]
            assert pa == pytest.approx(sum(a_seats) / len(a_seats))
            assert pb == pytest.approx(sum(b_seats) / len(b_seats))


def test_deals_per_group_divide_the_difference():
    result = run_duplicate("heuristic", "random", players=2, groups=3, seed=1, deals=2)
    for g in result.groups:
        assert g.difference == pytest.approx(
            ((g.side_points[0][0] - g.side_points[0][1])
             + (g.side_points[1][1] - g.side_points[1][0])) / 2 / 2)


def test_the_heuristic_beats_random_at_duplicate():
    result = run_duplicate("heuristic", "random", players=2, groups=150, seed=0)
    interval = result.interval()
    assert interval.low > 0
    assert result.kind_means()[0] > result.kind_means()[1]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_serial_threads_and_processes_give_identical_results(n):
    serial = run_duplicate("heuristic", "random", players=n, groups=12, seed="x", chunk_size=5)
    one = run_duplicate("heuristic", "random", players=n, groups=12, seed="x",
                        executor=SerialExecutor(), chunk_size=12)
    with ThreadPoolExecutor(3) as pool:
        threads = run_duplicate("heuristic", "random", players=n, groups=12, seed="x",
                                executor=pool, chunk_size=1)
    with ProcessPoolExecutor(2) as pool:
        processes = run_duplicate("heuristic", "random", players=n, groups=12, seed="x",
                                  executor=pool, chunk_size=4)
    assert serial == one == threads == processes
    assert serial.interval() == processes.interval()
    other = run_duplicate("heuristic", "random", players=n, groups=12, seed="y")
    assert other != serial


def test_whole_matches_are_identical_across_executors_and_counted_with_wilson():
    serial = run_matches("heuristic", "random", players=2, groups=6, seed=3)
    with ProcessPoolExecutor(2) as pool:
        processes = run_matches("heuristic", "random", players=2, groups=6, seed=3,
                                executor=pool, chunk_size=2)
    assert serial == processes
    assert len(serial.matches) == 12
    won = serial.won()
    assert won.n == 12 and won.low < won.share < won.high
    for m in serial.matches:
        a_won = any(m.seating[s] == 0 for s in m.winners)
        assert m.a_share == (1.0 if a_won else 0.0)
    # the two seatings of a group cut for the same first dealer and deal the same packs
    kept = run_matches("heuristic", "random", players=2, groups=1, seed=3, keep_records=True)
    first, second = kept.matches
    assert first.records[0]["pack"] == second.records[0]["pack"]
    assert first.records[0]["dealer"] == second.records[0]["dealer"]


def test_a_shared_win_counts_half():
    from solver.batch import share_of_a

    assert share_of_a((0, 1, 1), (0, 2), 3) == 0.5
    assert share_of_a((0, 1, 0, 1), (1,), 4) == 0.0
    assert share_of_a((0, 0, 1), (1,), 3) == 1.0
    assert share_of_a((0, 1), (), 2) == 0.5     # nobody won it


def test_the_deals_match_is_one_game_to_a_target_out_of_reach():
    """``deals_match``: a match given, or one of the players given (two by default) under the
    rules given, best of one, its target raised out of reach."""
    from solver.batch import deals_match

    for match, players, expected in ((Rules(target=31), None, 2), (Rules(), 3, 3),
                                     (Match(4, Rules(), best_of=3), None, 4)):
        game = deals_match(match, players)
        assert (game.players, game.best_of, game.rules.target) == (expected, 1, MAX_TARGET)
    with pytest.raises(BatchError, match=r"^'all-fives' is not a Match or Rules$"):
        deals_match("all-fives", 2)


def test_a_runs_results_are_values_that_leave_times_and_cut_counts_out_of_comparisons():
    """A match's, a group's, a run's results are frozen, and compare equal whatever their
    decision times and counts of decisions cut short (which vary from run to run)."""
    import dataclasses

    duplicate = run_duplicate("heuristic", "random", groups=2, seed=1)
    matches = run_matches("heuristic", "random", groups=1, seed=1)
    match = play_match([make_player("heuristic"), make_player("random", seed=1)], Match(2), 1)
    for result in (duplicate, duplicate.groups[0], matches, matches.matches[0], match):
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.seed = 5
    assert replace(match, times={}, cut_short={"x": 1}) == match
    assert replace(duplicate.groups[0], times={}, cut_short={"x": 1}) == duplicate.groups[0]
    assert replace(matches, time_parts=(), cut_parts=({"x": 1},), seconds=9.0) == matches
    assert replace(duplicate, seconds=9.0) == duplicate


def test_a_runs_seconds_and_decision_times_are_within_the_time_it_took():
    """A run's seconds and each of its decisions' lie within the time the run took, and its
    time summaries are those of its times."""
    from solver.stats import time_summary

    for run in (lambda: run_duplicate("heuristic", "random", groups=3, seed=1),
                lambda: run_matches("heuristic", "random", groups=1, seed=1)):
        start = time.perf_counter()
        result = run()
        took = time.perf_counter() - start
        assert 0 <= result.seconds <= took
        seconds = [t for times in result.times().values() for t in times]
        assert seconds and all(0 <= t <= took for t in seconds)
        assert sum(seconds) <= took
        assert result.time_summaries() == \
            {label: time_summary(times) for label, times in result.times().items()}


def test_dask_gives_identical_results():
    distributed = pytest.importorskip("distributed")
    serial = run_duplicate("heuristic", "random", players=4, groups=8, seed=5, chunk_size=3)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        dask = run_duplicate("heuristic", "random", players=4, groups=8, seed=5,
                             executor=client.get_executor(), chunk_size=3)
        positions = [random_position(_rng(i), 2, 4, played=0) for i in range(4)]
        solutions = solve_many(positions, client.get_executor(), objective="margin")
    assert dask == serial
    assert [s.value for s in solutions] == [s.value for s in solve_many(positions,
                                                                         objective="margin")]


def _rng(i):
    import random
    return random.Random(i)


# ---- solve_many -----------------------------------------------------------------------------


def test_decisions_cut_short_by_the_budget_are_counted_per_player():
    starved = "pimc:time_limit=none,node_limit=1,worlds=2"
    result = run_duplicate(starved, "heuristic", players=2, groups=2, seed=3)
    cut, decisions = result.cut_short(), {k: t.count for k, t in result.time_summaries().items()}
    assert cut["heuristic"] == 0
    assert 0 < cut[result.a] <= decisions[result.a]
    # the count is the player's own: a budget that every 6-card solve fits cuts nothing
    roomy = run_duplicate("pimc:time_limit=none,worlds=2", "heuristic", players=2, groups=2,
                          seed=3)
    assert roomy.cut_short() == {roomy.a: 0, "heuristic": 0}
    matches = run_matches(starved, "heuristic", players=2, groups=1, seed=3,
                          match=Match(2, Rules(target=11)))
    assert 0 < matches.cut_short()[matches.a] <= len(matches.times()[matches.a])
    assert matches.cut_short()["heuristic"] == 0


def test_a_pool_is_handed_a_few_calls_a_worker_at_a_time():
    """gather hands an executor with a window (a WorkerPool's, four calls a worker) no more
    calls at once than that, one more as each comes back, the results in order: a run of a
    million matches had put every chunk's task in the pool's queue at once (850 MB)."""
    class Windowed(SerialExecutor):
        window = 3

        def __init__(self) -> None:
            super().__init__()
            self.handed = self.back = self.most = 0

        def submit(self, fn, /, *args, **kwargs):
            self.handed += 1
            self.most = max(self.most, self.handed - self.back)
            return super().submit(fn, *args, **kwargs)

    executor = Windowed()

    def call(k: int) -> int:
        executor.back += 1
        return k * k

    told = []
    assert gather(executor, call, [(k,) for k in range(10)],
                  progress=lambda done, total: told.append((done, total))) == \
        [k * k for k in range(10)]
    assert (executor.handed, executor.most) == (10, 3)
    assert told == [(k, 10) for k in range(1, 11)]      # (out of every call, not those handed)
    with executor_for(2) as pool:
        assert pool.window == 8
        assert gather(pool, abs, [(-k,) for k in range(30)]) == list(range(30))
    # the executor of a run without --jobs, one call at a time: a million matches had every
    # call waiting in it before the first was played (420 MB)
    class Counted(Windowed):
        window = SerialExecutor.window

    executor = Counted()
    assert gather(executor, call, [(k,) for k in range(10)]) == [k * k for k in range(10)]
    assert (executor.handed, executor.most) == (10, 1)
    assert gather(None, abs, [(-k,) for k in range(5)]) == list(range(5))


def test_a_window_that_grows_is_filled_as_the_calls_come_back():
    """A cluster's window grows as workers join it: gather reads it again as each call comes
    back and hands out as many more as keep that many out."""
    class Growing(SerialExecutor):
        def __init__(self) -> None:
            super().__init__()
            self.handed = self.back = 0
            self.out: list[int] = []       # calls out as each is handed

        @property
        def window(self) -> int:
            return 2 if self.back < 3 else 5

        def submit(self, fn, /, *args, **kwargs):
            self.handed += 1
            self.out.append(self.handed - self.back)
            return super().submit(fn, *args, **kwargs)

    executor = Growing()

    def call(k: int) -> int:
        executor.back += 1
        return -k

    assert gather(executor, call, [(k,) for k in range(12)]) == [-k for k in range(12)]
    assert executor.handed == 12
    assert max(executor.out[:4]) == 2 and max(executor.out) == 5


def test_progress_is_told_while_a_call_is_awaited():
    """A run whose workers stalled said nothing until a chunk came back: progress is told
    every half second as gather waits on an executor it can check, the calls done so far."""
    import threading
    from concurrent.futures import Future

    class Slow(SerialExecutor):
        window = 2
        checks = 0

        def submit(self, fn, /, *args, **kwargs):
            future: Future = Future()
            threading.Timer(1.3, lambda: future.set_result(fn(*args))).start()
            return future

        def check(self) -> None:
            self.checks += 1

    told = []
    executor = Slow()
    assert gather(executor, abs, [(-1,), (-2,)],
                  progress=lambda done, total: told.append((done, total))) == [1, 2]
    assert told.count((0, 2)) == executor.checks >= 2      # (1.3 s: checked at 0.5 and 1.0)
    assert told[-2:] == [(1, 2), (2, 2)]


def test_solve_many_keeps_the_order_of_the_positions():
    from solver.search import solve

    positions = [random_position(_rng(i), 2 + i % 3, 3, played=i % 4) for i in range(10)]
    expected = [solve(p, objective="points", fresh=True) for p in positions]
    serial = solve_many(positions, objective="points")
    with ProcessPoolExecutor(2) as pool:
        processes = solve_many(positions, pool, chunk_size=3, objective="points")
    for want, a, b in zip(expected, serial, processes):
        assert (want.value, want.moves, want.side) == (a.value, a.moves, a.side) \
            == (b.value, b.moves, b.side)
    assert solve_many([]) == []
    told = []       # one position a chunk by default
    solve_many(positions[:4], objective="points", progress=lambda done, total: told.append(
        (done, total)))
    assert told == [(1, 4), (2, 4), (3, 4), (4, 4)]


# ---- interrupts -----------------------------------------------------------------------------


class Interrupt:
    """A progress callback that raises KeyboardInterrupt after ``after`` chunks."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.calls = 0
        self.pool = None
        self.processes = []

    def __call__(self, done: int, total: int) -> None:
        self.calls += 1
        if self.pool is not None:
            self.processes = self.pool.processes
        if done >= self.after:
            raise KeyboardInterrupt


def test_an_interrupt_stops_a_serial_run_between_chunks():
    stop = Interrupt(2)
    with pytest.raises(KeyboardInterrupt):
        run_duplicate("heuristic", "random", groups=100, chunk_size=1, progress=stop)
    assert stop.calls == 2


def test_an_interrupt_cancels_pending_work_and_stops_the_pool_promptly():
    groups, chunk = 3000, 2     # some 10 seconds of play on two workers
    stop = Interrupt(1)
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        with executor_for(2) as pool:
            stop.pool = pool
            run_duplicate("heuristic", "random", players=3, groups=groups, chunk_size=chunk,
                          executor=pool, progress=stop)
    elapsed = time.perf_counter() - start
    # the whole run takes many seconds; the interrupt ends it in well under that
    assert elapsed < 3
    assert stop.calls == 1
    assert stop.processes
    for process in stop.processes:
        process.join(timeout=5)
        assert not process.is_alive()


def test_executor_for_one_job_is_serial():
    with executor_for(1) as pool:
        assert isinstance(pool, SerialExecutor)
    with executor_for(0) as pool:       # one a CPU
        assert isinstance(pool, WorkerPool) and pool.workers == usable_cpus()
    with pytest.raises(BatchError, match="jobs"):
        with executor_for(-1):
            pass


def test_packs_that_run_out_are_a_batch_error():
    stream = PackStream(1)
    players = [make_player("random", seed=1), make_player("random", seed=2)]
    with pytest.raises(BatchError, match="packs ran out"):
        play_deals(players, Rules(), deals=3, packs=iter([stream[0]]))


# ---- runs, pools and workers ----------------------------------------------------------------


def test_rotate_plays_one_seating_a_group_in_turn():
    full = run_duplicate("heuristic", "random", players=3, groups=7, seed=2)
    turns = run_duplicate("heuristic", "random", players=3, groups=7, seed=2, rotate=True)
    table = seatings(3)
    for group, whole in zip(turns.groups, full.groups):
        k = group.group % len(table)
        assert group.seatings == (table[k],)
        assert group.side_points == (whole.side_points[k],)  # the same deal, the same players
        assert group.difference == whole.kind_points[k][0] - whole.kind_points[k][1]
    matches = run_matches("heuristic", "random", players=2, groups=4, seed=2, rotate=True)
    assert [m.seating for m in matches.matches] == [(0, 1), (1, 0), (0, 1), (1, 0)]


def test_a_run_by_default_is_100_groups_from_seed_0_each_at_every_seating():
    """``run_duplicate`` and ``run_matches`` by default: two players, 100 groups of seed 0,
    every seating, no records kept; of deals, one deal a group; of matches, best of one, in
    chunks of five groups."""
    chunks = []
    default = run_duplicate("random", "random")
    assert default == run_duplicate("random", "random", players=2, groups=100, seed=0,
                                    deals=1, rotate=False, keep_records=False)
    assert len(default.groups) == 100 and {g.seatings for g in default.groups} == \
        {tuple(seatings(2))}
    matches = run_matches("random", "random",
                          progress=lambda done, total: chunks.append((done, total)))
    assert matches == run_matches("random", "random", players=2, groups=100, seed=0,
                                  best_of=1, rotate=False, chunk_size=5, keep_records=False)
    assert len(matches.matches) == 200 and chunks == [(i, 20) for i in range(1, 21)]


def test_a_runs_records_read_back_give_its_groups_and_no_other_runs():
    """``records_parts`` of a run's records gives the run's own differences; read as a run of
    another number of deals a game, they are refused rather than counted otherwise."""
    run = run_duplicate("heuristic", "random", groups=4, seed=7, keep_records=True, deals=2)
    records = [r for group in run.groups for seating in group.records for r in seating]
    parts, groups, used = records_parts(records, "heuristic", "random", 2, 7, deals=2)
    assert (groups, used) == (4, len(records))
    assert duplicate_result("heuristic", "random", 2, 2, 7, parts).differences() == \
        run.differences()
    with pytest.raises(BatchError, match=r"^game '7:0:0': 2 deals dealt, more than the run's 1"):
        records_parts(records, "heuristic", "random", 2, 7, deals=1)
    for deals in (0, "2", True):
        with pytest.raises(BatchError, match=r"^deals: .* is not a whole number from 1"):
            records_parts(records, "heuristic", "random", 2, 7, deals=deals)


def test_a_record_of_a_player_against_itself_keeps_its_a_and_b_apart():
    """In a run of a kind against itself the players are told apart by " (A)" and " (B)": a
    record with the two swapped is not the run's (it was taken as the run's own)."""
    run = run_duplicate("heuristic", "heuristic", groups=1, seed=7, keep_records=True, deals=1)
    records = [r for group in run.groups for seating in group.records for r in seating]
    assert records_parts(records, "heuristic", "heuristic", 2, 7, deals=1)[1:] == (1, 2)
    swap = {"heuristic (A)": "heuristic (B)", "heuristic (B)": "heuristic (A)"}
    swapped = [dict(r, players={s: swap[p] for s, p in r["players"].items()}) for r in records]
    with pytest.raises(BatchError, match=re.escape(
            "game '7:0:0': its players are N heuristic (B), S heuristic (A), not "
            "N heuristic (A), S heuristic (B)")):
        records_parts(swapped, "heuristic", "heuristic", 2, 7, deals=1)


def test_a_record_dealt_first_by_another_seat_than_the_seeds_is_not_the_runs():
    """The same game with N and S changed over (its dealer, actions and score) replays, on the
    very packs the seed deals; but the seed makes N deal first, not S, so it is not a game of
    the run (the first dealer went unchecked)."""
    run = run_duplicate("heuristic", "random", groups=1, seed=7, keep_records=True, deals=1)
    records = [r for group in run.groups for seating in group.records for r in seating]
    other = {"N": "S", "S": "N"}
    first = records[0]
    assert first["dealer"] == "N"
    mirrored = dict(first, dealer="S", actions=[other[a[0]] + a[1:] for a in first["actions"]],
                    score={other[s]: p for s, p in first["score"].items()})
    replay([mirrored])          # a game that can be played: only the run's seed tells
    with pytest.raises(BatchError, match=re.escape(
            "game '7:0:0': its first dealer is S, where seed 7 makes N deal group 0 first")):
        records_parts([mirrored] + records[1:], "heuristic", "random", 2, 7, deals=1)


def test_rules_or_best_of_beside_a_match_are_refused_not_dropped():
    """A ``match`` holds its rules and its best of: given beside it they were silently unused
    (a best of 3 played as a best of 1)."""
    with pytest.raises(BatchError, match=r"^best_of: given with match, which holds its own"):
        run_matches("heuristic", "random", groups=1, match=Match(), best_of=3)
    with pytest.raises(BatchError, match=r"^rules: given with match"):
        run_duplicate("heuristic", "random", groups=1, match=Match(), rules=Rules())
    played = run_matches("heuristic", "random", groups=1, match=Match(best_of=3))
    assert max(played.matches[0].games_won) == 2


def test_the_wrong_things_given_as_players_or_a_match_are_refused_in_one_line():
    """A spec string where a Player is wanted, or Rules where play_match wants a Match, were
    AttributeErrors from deep inside; an empty run's means are not known (NaN)."""
    players = [make_player("heuristic"), make_player("random", seed=1)]
    with pytest.raises(BatchError, match=r"^seat 0: 'heuristic' is not a player"):
        play_match(["heuristic", "random"], Match(), 1)
    with pytest.raises(BatchError, match=r"is not a Match$"):
        play_match(players, Rules(), 1)
    empty = run_duplicate("heuristic", "random", groups=0)
    assert all(math.isnan(mean) for mean in empty.kind_means())
    # an executor, a match or a function that is none: AttributeError, TypeError from inside
    for options, said in (({"executor": "x"}, "executor: 'x' is not an executor"),
                          ({"match": "x"}, "match: 'x' is not a Match"),
                          ({"progress": 3}, "progress: 3 is not a function")):
        with pytest.raises(BatchError, match=f"^{re.escape(said)}"):
            run_duplicate("heuristic", "random", groups=2, **options)


def test_solve_many_takes_what_solve_takes():
    import inspect

    from solver import executors
    from solver.deal import Position

    search = pytest.importorskip("solver.search")
    assert executors.SOLVE_OPTIONS == tuple(inspect.signature(search.solve).parameters)[1:]
    position = Position.from_line("N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H")
    with pytest.raises(AllFivesError, match=r"^solve_many: no option 'foo' \(solve takes side"):
        executors.solve_many([position], foo=1)
    with pytest.raises(AllFivesError, match="^positions: None is not a list of positions"):
        executors.solve_many(None)


def _sigint_handler():
    import signal

    return signal.getsignal(signal.SIGINT)


def test_ctrl_c_while_the_workers_start_stops_them(monkeypatch):
    """A Ctrl-C that comes while the pool forks its workers waits until the pool can be
    stopped, and stops it (it stopped the parent inside the pool's making, and the workers ran
    on: the run hung); the handlers are as they were after, and the workers ignore Ctrl-C."""
    import multiprocessing
    import os
    import signal

    from solver import executors

    made = []
    making = multiprocessing.pool.Pool.__init__

    def starting(pool, *args, **kwargs):
        making(pool, *args, **kwargs)
        made.append(pool)
        os.kill(os.getpid(), signal.SIGINT)      # as the workers start
        time.sleep(0.1)

    handler = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(multiprocessing.pool.Pool, "__init__", starting)
    with pytest.raises(KeyboardInterrupt):
        executors.WorkerPool(2)
    (pool,) = made
    assert not any(p.is_alive() for p in pool._pool)
    assert signal.getsignal(signal.SIGINT) is handler
    monkeypatch.undo()
    with executor_for(2) as executor:
        assert executor.submit(_sigint_handler).result(timeout=30) == signal.SIG_IGN


@pytest.mark.parametrize("error, said", [
    ("can't start new thread", (MemoryError, "left to start the worker processes' threads")),
    ("another fault", (RuntimeError, "^another fault$"))])
def test_a_pool_whose_threads_cannot_start_leaves_no_worker(monkeypatch, error, said):
    """Under a tight memory limit the pool's making can fail after it has forked its workers
    (a thread of its own that cannot start): they are stopped, and none is forked again in
    their place (left running, they held the exit up for ever), and the error is one of
    memory, said so (another error is left as it is)."""
    import multiprocessing.pool
    import threading

    from solver import executors

    before = set(multiprocessing.active_children())
    starting = threading.Thread.start

    def start(thread):
        if getattr(thread, "_target", None) is multiprocessing.pool.Pool._handle_results:
            raise RuntimeError(error)
        starting(thread)

    monkeypatch.setattr(threading.Thread, "start", start)
    with pytest.raises(said[0], match=said[1]):
        executors.WorkerPool(2)
    monkeypatch.undo()
    time.sleep(0.3)         # (time for a worker handler left running to fork another)
    assert set(multiprocessing.active_children()) == before
    assert not [t for t in threading.enumerate()
                if getattr(t, "_target", None) is multiprocessing.pool.Pool._handle_workers]


def test_a_lock_a_dead_worker_held_is_let_go_for_a_thread_waiting_on_it():
    """The pool's task sender, waiting to send the results' end on a lock that a killed worker
    held (here taken and kept, as such a worker keeps it), goes on when the pool is stopped:
    the lock had been made anew, the sender waited on the old one for ever, and the stopping
    with it (a run out of memory under --jobs hung)."""
    import threading

    from solver import executors

    pool = executors.WorkerPool(2)
    pool._pool._outqueue._wlock.acquire()           # as a worker killed writing a result
    pool._pool._taskqueue.put(None)                 # the sender's end: to the results' end
    time.sleep(0.2)
    stopping = threading.Thread(target=pool.shutdown, kwargs={"cancel_futures": True},
                                daemon=True)
    stopping.start()
    stopping.join(timeout=30)
    assert not stopping.is_alive()
    assert not any(p.is_alive() for p in pool.processes)


class Noted:
    """A pool's thread, worker process or lock, standing in for it: what is done to it is noted
    in ``log`` as (name, what, timeout)."""

    def __init__(self, log: list, name: str, alive: bool = True, exitcode=None) -> None:
        self.log, self.name, self.alive, self.exitcode, self._state = log, name, alive, \
            exitcode, None

    def is_alive(self) -> bool:
        return self.alive

    def kill(self) -> None:
        self.log.append((self.name, "kill", None))

    def join(self, timeout=None) -> None:
        self.log.append((self.name, "join", timeout))

    def acquire(self, timeout=None) -> bool:
        self.log.append((self.name, "acquire", timeout))
        return True

    def release(self) -> None:
        self.log.append((self.name, "release", None))


def test_a_half_made_pool_has_its_living_workers_killed_each_waited_for_a_while():
    """``_stop_half_made``: each of the pool's threads told to stop, the worker handler (which
    forks workers in dead ones' places) waited for a while first; then each worker, killed if
    it lives, waited for a while (``STOPPING_WAIT``): a part the making never reached is
    passed over."""
    from solver.executors import STOPPING_WAIT, _stop_half_made

    log: list = []
    handlers = [Noted(log, "workers"), Noted(log, "tasks")]
    pool = SimpleNamespace(_worker_handler=handlers[0], _task_handler=handlers[1],
                           _pool=[Noted(log, "a"), Noted(log, "b", exitcode=0)])
    _stop_half_made(pool)
    assert all(h._state == multiprocessing.pool.TERMINATE for h in handlers)
    assert log == [("workers", "join", STOPPING_WAIT), ("a", "kill", None),
                   ("a", "join", STOPPING_WAIT), ("b", "join", STOPPING_WAIT)]
    log.clear()
    pool = SimpleNamespace(_worker_handler=Noted(log, "workers", alive=False),
                           _pool=[Noted(log, "a")])
    _stop_half_made(pool)       # a handler that has ended is not waited for
    assert log == [("a", "kill", None), ("a", "join", STOPPING_WAIT)]
    log.clear()
    _stop_half_made(SimpleNamespace(_pool=[Noted(log, "a", exitcode=-9)]))   # no handler yet
    assert log == [("a", "join", STOPPING_WAIT)]


class Clock:
    """``time`` as ``_free_queues`` reads it: each sleep, whatever it asks, moves the clock on
    by half a second (so that the deadline is met exactly), and is noted."""

    def __init__(self) -> None:
        self.now, self.sleeps = 100.0, []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += 0.5


@pytest.mark.parametrize("alive_for", [3, None])
def test_a_broken_pools_queues_are_freed_after_every_worker_is_killed(monkeypatch, alive_for):
    """``_free_queues``: the pool told to start no more workers and send no more tasks; every
    living worker killed, and only then each waited for a while (a worker waited for before
    the others were killed would cost a wait each); each lock a dead worker may hold taken
    for a moment, or not, and let go; the tasks not read drained from the queue while the
    task sender lives, sleeping between reads, for ``STOPPING_WAIT`` at most; the queue's
    reader left blocking, as it was."""
    from solver import executors
    from solver.executors import STOPPING_WAIT

    log: list = []
    checks: list = []

    class Sender(Noted):
        def is_alive(self) -> bool:
            checks.append(clock.now)
            assert len(checks) < 1000, "the tasks not read are drained for ever"
            return alive_for is None or len(checks) <= alive_for

    clock = Clock()
    monkeypatch.setattr(executors, "time", clock)
    reader, writer = os.pipe()
    try:
        os.write(writer, b"x" * 50_000)         # tasks not read, or half read
        pool = SimpleNamespace(
            _worker_handler=Noted(log, "workers"), _task_handler=Sender(log, "tasks"),
            _inqueue=SimpleNamespace(_rlock=Noted(log, "task lock"),
                                     _reader=SimpleNamespace(fileno=lambda: reader)),
            _outqueue=SimpleNamespace(_wlock=Noted(log, "result lock")))
        workers = [Noted(log, "a"), Noted(log, "b", exitcode=-9), Noted(log, "c")]
        WorkerPool._free_queues(SimpleNamespace(_pool=pool, processes=workers))
        assert pool._worker_handler._state == pool._task_handler._state == \
            multiprocessing.pool.TERMINATE
        assert log == [("a", "kill", None), ("c", "kill", None),
                       ("a", "join", STOPPING_WAIT), ("b", "join", STOPPING_WAIT),
                       ("c", "join", STOPPING_WAIT),
                       ("task lock", "acquire", 0.2), ("task lock", "release", None),
                       ("result lock", "acquire", 0.2), ("result lock", "release", None)]
        assert os.get_blocking(reader)
        os.set_blocking(reader, False)
        with pytest.raises(BlockingIOError):
            os.read(reader, 1)                  # drained
        assert set(clock.sleeps) == {0.01}
        if alive_for is None:   # read up to the deadline, not at it
            assert len(clock.sleeps) == 2 * STOPPING_WAIT and clock.now == 100 + STOPPING_WAIT
        else:
            assert len(checks) == alive_for + 1 and len(clock.sleeps) == alive_for
    finally:
        os.close(reader)
        os.close(writer)
    log.clear()
    pool._inqueue._rlock = pool._outqueue._wlock = None     # (queues without such a lock)
    pool._task_handler.alive = False
    reader, writer = os.pipe()
    pool._inqueue._reader = SimpleNamespace(fileno=lambda: reader)
    try:
        WorkerPool._free_queues(SimpleNamespace(_pool=pool, processes=[]))
    finally:
        os.close(reader)
        os.close(writer)
    assert log == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent's death is told "
                                                                 "to workers on Linux")
def test_workers_end_with_a_script_stopped_by_sigterm(tmp_path):
    """A script using executor_for, stopped by SIGTERM (which runs no clean-up), leaves no
    worker playing its chunk out alone (they ran on, then died on a broken pipe)."""
    import signal
    import subprocess

    psutil = pytest.importorskip("psutil")
    script = tmp_path / "run.py"
    script.write_text(
        "from solver.batch import run_duplicate\n"
        "from solver.executors import executor_for\n"
        "if __name__ == '__main__':\n"
        "    with executor_for(2) as pool:\n"
        "        run_duplicate('cheater:time_limit=0.2', 'heuristic', players=4, groups=400,\n"
        "                      executor=pool)\n", encoding="utf-8")
    program = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path,
                               stderr=subprocess.PIPE, text=True)
    try:
        workers = workers_of(program)
        program.send_signal(signal.SIGTERM)
        program.wait(10)
        gone, alive = psutil.wait_procs(workers, timeout=10)
        assert alive == []
        assert "Traceback" not in program.stderr.read()
    finally:
        program.kill()
        program.wait()


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_workers_start_whatever_the_default_start_method(tmp_path, method):
    """Python 3.14 makes the fork server the default way to start processes on Linux; its
    workers are the server's children, took the run for dead and ended at once (a worker
    lost at the first chunk).  A program that sets another default keeps working too."""
    import subprocess

    script = tmp_path / "run.py"
    script.write_text(
        "import multiprocessing\n"
        "from solver.batch import run_duplicate\n"
        "from solver.executors import executor_for\n"
        "if __name__ == '__main__':\n"
        f"    multiprocessing.set_start_method({method!r})\n"
        "    with executor_for(2) as pool:\n"
        "        print(len(run_duplicate('heuristic', 'random', groups=40, executor=pool,\n"
        "                                chunk_size=5).groups))\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "40\n", "")


def test_every_signal_held_is_acted_on():
    """A SIGTERM and a Ctrl-C held by signals_held both reach their handlers as it ends (only
    the first did)."""
    import os
    import signal

    from solver.signals import signals_held

    got = []
    before = signal.signal(signal.SIGTERM, lambda s, f: got.append("TERM"))
    try:
        with pytest.raises(KeyboardInterrupt):
            with signals_held():
                os.kill(os.getpid(), signal.SIGTERM)
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)
        assert got == ["TERM"]
    finally:
        signal.signal(signal.SIGTERM, before)


@pytest.mark.parametrize("fn", ["solves", "deals"])
def test_a_chunk_whose_run_was_stopped_stops_before_its_next_deal_or_solve(monkeypatch, fn):
    """On a cluster (``cluster_chunk``) a chunk looks at each deal and before each solve whether
    its run was stopped; elsewhere nothing asks."""
    from solver import batch, executors
    from solver.registry import player_spec

    calls = {"solves": (executors._solve_chunk, [random_position(_rng(1), 2, 2, played=0)], {}),
             "deals": (batch._duplicate_chunk, player_spec("random"), player_spec("random"),
                       Match(2), 1, 0, range(3), False)}[fn]
    version = executors.worker_version()
    assert executors.cluster_chunk(version, *calls)        # off a Dask worker: nothing asks
    monkeypatch.setattr(executors, "_task_cancelled", lambda: lambda: True)
    with pytest.raises(WorkersLost, match="this chunk's run was stopped"):
        executors.cluster_chunk(version, *calls)
    assert calls[0](*calls[1:])      # the check is the chunk's own: none is left behind


def test_a_solve_under_way_on_a_cluster_stops_with_its_run(monkeypatch):
    """A chunk whose run was stopped (Ctrl-C on ``solve --scheduler``) stopped only before its
    next solve: a deep one under way held the worker minutes after.  The engine now asks, in
    the worker's thread too; once the chunk is done nothing is left asking."""
    import threading

    from solver import executors

    deep = random_position(_rng(9), 4, 12, played=0)
    start = time.monotonic()
    monkeypatch.setattr(executors, "_task_cancelled",
                        lambda: lambda: time.monotonic() > start + 0.3)
    found: dict = {}

    def chunk() -> None:
        try:
            executors.cluster_chunk(executors.worker_version(), executors._solve_chunk, [deep],
                                    {"time_limit": 20.0})
        except WorkersLost as error:
            found["error"] = error
        found["seconds"] = time.monotonic() - start
        found["after"] = executors._solve_chunk([deep], {"node_limit": 2000})

    worker = threading.Thread(target=chunk)     # (as a Dask worker runs it: not the main one)
    worker.start()
    worker.join(30)
    assert "this chunk's run was stopped" in str(found.get("error")), found
    assert found["seconds"] < 2.0
    assert found["after"][0].nodes > 0


# ---- a worker process's own ends ------------------------------------------------------------


class _Ended(Exception):
    """``os._exit`` called (its status the argument)."""


def _exit(status):
    raise _Ended(status)


def test_a_worker_leaves_ctrl_c_to_its_parent_and_ends_at_sigterm_sighup_or_sigpipe(
        monkeypatch):
    """In a worker: Ctrl-C ignored, SIGTERM, SIGPIPE and SIGHUP (where it is not ignored) to
    their default, ending it; the time it stands stopped not counted; its parent watched."""
    import signal

    from solver import executors

    set_to, counted, watched = {}, [], []
    monkeypatch.setattr(signal, "signal", lambda signum, to: set_to.__setitem__(signum, to))
    monkeypatch.setattr(executors, "count_stops", lambda: counted.append(True))
    monkeypatch.setattr(executors, "_die_with_parent", watched.append)
    monkeypatch.setattr(executors, "_parent", None)
    monkeypatch.setattr(executors, "hangup_signal", lambda: signal.SIGHUP)
    executors._worker_signals(4321)
    assert set_to == {signal.SIGINT: signal.SIG_IGN, signal.SIGTERM: signal.SIG_DFL,
                      signal.SIGPIPE: signal.SIG_DFL, signal.SIGHUP: signal.SIG_DFL}
    assert (counted, watched, executors._parent) == ([True], [4321], 4321)
    set_to.clear()
    monkeypatch.setattr(executors, "hangup_signal", lambda: None)     # ignored (nohup)
    executors._worker_signals()
    assert signal.SIGHUP not in set_to and watched == [4321]


def test_a_worker_ends_once_its_parent_is_gone(monkeypatch):
    """A worker whose parent is gone as it starts ends at once; else a thread of it looks
    every second and ends it once the parent is gone; a result finished for a parent gone is
    not sent."""
    from types import SimpleNamespace

    from solver import executors

    parent = [7]
    monkeypatch.setattr(executors, "os", SimpleNamespace(getppid=lambda: parent[0],
                                                         _exit=_exit))
    with pytest.raises(_Ended, match="^1$"):
        executors._die_with_parent(8)
    started, slept = [], []

    class Thread:
        def __init__(self, target, name, daemon):
            self.target, self.name, self.daemon = target, name, daemon

        def start(self):
            started.append(self)

    monkeypatch.setattr(executors, "threading", SimpleNamespace(Thread=Thread))
    executors._die_with_parent(7)
    (watch,) = started
    assert (watch.name, watch.daemon) == ("parent-watch", True)

    def sleep(seconds):
        slept.append(seconds)
        if len(slept) == 3:
            parent[0] = 1           # (the parent gone: the worker is the init process's)

    monkeypatch.setattr(executors, "time", SimpleNamespace(sleep=sleep))
    with pytest.raises(_Ended, match="^1$"):
        watch.target()
    assert slept == [1.0, 1.0, 1.0]
    monkeypatch.setattr(executors, "_parent", 7)
    with pytest.raises(_Ended, match="^1$"):
        executors._for_parent(divmod, (7, 2), {})
    parent[0] = 7
    assert executors._for_parent(divmod, (7, 2), {}) == (3, 1)
    monkeypatch.setattr(executors, "_parent", None)     # (not in a worker)
    parent[0] = 1
    assert executors._for_parent(divmod, (7, 2), {}) == (3, 1)


def test_workers_are_forked_on_linux_and_started_by_the_systems_default_elsewhere(monkeypatch):
    import multiprocessing
    from types import SimpleNamespace

    from solver import executors

    monkeypatch.setattr(executors, "sys", SimpleNamespace(platform="linux"))
    assert executors.worker_context() is multiprocessing.get_context("fork")
    monkeypatch.setattr(executors, "sys", SimpleNamespace(platform="darwin"))
    assert executors.worker_context() is multiprocessing.get_context()


def test_leaving_executor_for_lets_the_workers_finish_and_end():
    with executor_for(2) as pool:
        future = pool.submit(divmod, 7, 2)
        processes = pool.processes
    assert future.result(timeout=5) == (3, 1)
    assert len(processes) == 2 and all(p.exitcode is not None for p in processes)


def test_leaving_executor_for_on_an_exception_stops_the_workers_at_once():
    with pytest.raises(RuntimeError, match="^stop$"):
        with executor_for(2) as pool:
            pool.submit(time.sleep, 60)
            processes = pool.processes
            start = time.monotonic()
            raise RuntimeError("stop")
    assert time.monotonic() - start < 20        # (not the minute the call would take)
    assert len(processes) == 2 and all(p.exitcode is not None for p in processes)


def test_a_serial_future_runs_its_call_when_its_result_or_exception_is_asked_for():
    executor = SerialExecutor()
    assert executor.submit(divmod, 7, 2).result(timeout=5) == (3, 1)
    failing = executor.submit(int, "x")
    assert isinstance(failing.exception(timeout=5), ValueError)
    with pytest.raises(ValueError):
        failing.result()
    fine = executor.submit(divmod, 7, 2)
    assert fine.exception(timeout=5) is None and fine.result() == (3, 1)
    executor.shutdown()
    with pytest.raises(RuntimeError, match="^cannot submit after shutdown$"):
        executor.submit(divmod, 7, 2)


def test_a_serial_executor_is_handed_one_call_at_a_time():
    handed, seen = [], []

    class Counting(SerialExecutor):
        def submit(self, fn, /, *args, **kwargs):
            handed.append(args)
            return super().submit(fn, *args, **kwargs)

    def call(i):
        seen.append((i, len(handed)))
        return i

    assert gather(Counting(), call, [(i,) for i in range(5)]) == list(range(5))
    assert seen == [(i, i + 1) for i in range(5)]


def test_a_block_uninterrupted_ignores_ctrl_c_in_the_main_thread_only():
    import signal
    import threading

    from solver.executors import _uninterrupted

    before = signal.getsignal(signal.SIGINT)
    with _uninterrupted():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is before
    ran = []

    def elsewhere():        # (a thread other than the main one cannot set a handler)
        with _uninterrupted():
            ran.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join(5)
    assert ran == [before]


def test_a_chunk_off_a_cluster_changes_neither_the_switch_interval_nor_the_engines_checks(
        monkeypatch):
    """Off a Dask worker a chunk runs as it is, the engine asking no check; where Dask could
    let go of its task, the engine asks ``check_stop`` while it runs, and nothing after."""
    from solver import executors

    checks = []
    monkeypatch.setattr(executors, "engine_checks", checks.append)
    sys.setswitchinterval(0.005)        # (Python's own; the fixture puts back what it was)
    version = executors.worker_version()
    assert executors.cluster_chunk(version, divmod, 7, 2) == (3, 1)
    assert sys.getswitchinterval() == 0.005 and checks == [None, None]
    checks.clear()
    monkeypatch.setattr(executors, "_task_cancelled", lambda: (lambda: False))
    assert executors.cluster_chunk(version, divmod, 7, 2) == (3, 1)
    assert sys.getswitchinterval() == executors.WORKER_SWITCH_INTERVAL
    assert checks == [executors.check_stop, None]


def test_a_task_counts_as_let_go_once_its_worker_has_cancelled_or_forgotten_it(monkeypatch):
    """On a Dask worker, the task this thread runs is let go where the worker's state has it
    cancelled or no longer has it; off a worker nothing is asked."""
    from types import SimpleNamespace

    distributed = pytest.importorskip("distributed")
    import distributed.worker

    from solver import executors

    assert executors._task_cancelled() is None
    tasks = {"k": SimpleNamespace(state="executing")}
    worker = SimpleNamespace(state=SimpleNamespace(tasks=tasks))
    monkeypatch.setattr(distributed, "get_worker", lambda: worker)
    monkeypatch.setattr(distributed.worker, "thread_state", SimpleNamespace(key="k"))
    cancelled = executors._task_cancelled()
    assert cancelled() is False
    tasks["k"].state = "cancelled"
    assert cancelled() is True
    del tasks["k"]
    assert cancelled() is True


def test_a_pool_finds_a_dead_worker_and_no_living_one():
    import signal

    pool = WorkerPool(1)
    try:
        assert pool.submit(divmod, 7, 2).result(timeout=5) == (3, 1)
        pool.check()        # (alive, waiting for work)
        (worker,) = pool.processes
        os.kill(worker.pid, signal.SIGKILL)
        # (the pool's own thread may reap it first, its exit status stored a moment after:
        # until then a join here returns, and the status reads as not known yet)
        deadline = time.monotonic() + 10
        while worker.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(WorkersLost, match=r"^a worker process died \(exit status -9\): "
                                              r"the work it held is lost$"):
            pool.check()
    finally:
        pool.shutdown(cancel_futures=True)


def test_a_pool_shut_down_waits_for_its_workers_to_end_by_default():
    pool = WorkerPool(1)
    future = pool.submit(divmod, 7, 2)
    processes = pool.processes
    pool.shutdown()
    assert future.result(timeout=5) == (3, 1)
    assert processes and all(p.exitcode is not None for p in processes)


def test_gather_hands_each_result_on_in_order_and_keeps_what_comes_back_in_its_place():
    calls = [(7, 2), (9, 4), (5, 5)]
    seen = []
    assert gather(None, divmod, calls, on_part=lambda r: seen.append(r)) == \
        [(3, 1), (2, 1), (1, 0)] == seen        # (None back: the result kept)
    assert gather(None, divmod, calls, on_part=lambda r: ("kept", r)) == \
        [("kept", (3, 1)), ("kept", (2, 1)), ("kept", (1, 0))]
    assert gather(None, divmod, calls, on_part=lambda r: ()) == [(), (), ()]


def test_gather_cancels_the_calls_not_started_when_one_fails():
    handed = []

    class Recording(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            handed.append(super().submit(fn, *args, **kwargs))
            return handed[-1]

    def call(i):
        time.sleep(0.2)
        if i == 0:
            raise ValueError("the first")
        return i

    with Recording(1) as executor:
        with pytest.raises(ValueError, match="^the first$"):
            gather(executor, call, [(i,) for i in range(4)])
    # (the second may have started as the first ended, on the one thread; the others not)
    assert len(handed) == 4 and all(f.cancelled() for f in handed[2:])


def test_the_code_digest_tells_other_code_under_one_version(tmp_path):
    """A cluster's workers are compared by version, engine and code: a checkout of other code
    under the same version number is found."""
    import shutil
    from pathlib import Path

    import solver
    from solver.executors import code_digest, worker_version

    copy = tmp_path / "solver"
    shutil.copytree(Path(solver.__file__).parent, copy,
                    ignore=shutil.ignore_patterns("*.so", "__pycache__", "data"))
    assert code_digest(str(copy)) == code_digest()
    assert re.fullmatch(r"[0-9a-f]{12}", code_digest())
    assert worker_version().endswith(f", code {code_digest()})")
    (copy / "batch.py").write_text((copy / "batch.py").read_text() + "\n# changed\n")
    changed = code_digest.__wrapped__(str(copy))
    assert changed != code_digest()     # (read again, not cached)
    (copy / "batch.py").rename(copy / "batches.py")   # the same code under another name
    assert code_digest.__wrapped__(str(copy)) != changed


def test_the_usable_cpus_are_those_of_the_affinity_else_the_machines(monkeypatch):
    """The CPUs this process may run on (its affinity), at least one; where the system has no
    affinity, the machine's count, at least one."""
    import os


    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 2, 5} if pid == 0 else {1},
                        raising=False)    # (this process's: 0)
    assert usable_cpus() == 3
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set())
    assert usable_cpus() == 1

    def no_affinity(pid):
        raise OSError("no affinity here")

    monkeypatch.setattr(os, "sched_getaffinity", no_affinity)
    assert usable_cpus() == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert usable_cpus() == 1
    monkeypatch.delattr(os, "sched_getaffinity")
    assert usable_cpus() == 1


def test_chunk_ranges_share_out_the_groups_from_the_first_given():
    """Groups ``first`` to ``count - 1`` in ranges of the chunk size (25 by default, the
    last range shorter); a count, a size or a first group out of bounds is refused."""
    from solver.executors import DEFAULT_CHUNK, chunk_ranges

    assert DEFAULT_CHUNK == 25
    assert chunk_ranges(60, None) == [range(0, 25), range(25, 50), range(50, 60)]
    assert chunk_ranges(10, 4, first=3) == [range(3, 7), range(7, 10)]
    assert chunk_ranges(10, 4, first=10) == [] == chunk_ranges(0, 1)
    for args, message in (((-1, 5), r"^-1 is not a number of groups$"),
                          ((2.5, 5), r"^2\.5 is not a number of groups$"),
                          ((10, 0), r"^chunk size 0 must be a whole number from 1$"),
                          ((10, 5, 11), r"^first group 11 must lie between 0 and 10$"),
                          ((10, 5, -1), r"^first group -1 must lie between 0 and 10$"),
                          ((10, 5, 1.5), r"^first group 1\.5 must lie between 0 and 10$")):
        with pytest.raises(BatchError, match=message):
            chunk_ranges(*args)


# ---- long runs (pytest -m slow) -------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_heuristic_beats_random_over_2000_deal_groups(n):
    with ProcessPoolExecutor(2) as pool:
        result = run_duplicate("heuristic", "random", players=n, groups=2000, seed=2024,
                               executor=pool)
    assert result.interval().low > 1
    assert result.bootstrap().low > 1


@pytest.mark.slow
def test_the_heuristic_wins_most_matches_against_random():
    with ProcessPoolExecutor(2) as pool:
        result = run_matches("heuristic", "random", players=2, groups=100, seed=2024,
                             executor=pool)
    assert result.won().low > 0.7


@pytest.mark.slow
def test_the_cheater_beats_the_heuristic_at_duplicate():
    with ProcessPoolExecutor(2) as pool:
        result = run_duplicate("cheater", "heuristic", players=2, groups=200, seed=2024,
                               executor=pool, chunk_size=5)
    assert result.interval().low > 0
