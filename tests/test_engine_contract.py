"""The engine's entry: signals stop a search at once, progress can be read while it runs, and
the Python interface holds what solver/_search.pyi says."""

from __future__ import annotations

import _thread
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from solver import clock, reference
from solver.deal import Position
from solver.shuffle import random_position, shuffle_deal
from solver.rules import Rules
from solver.search import Solver


# Four players with two runs (a seed, players, runs): minutes of search, so a signal always
# finds it running.
LONG_DEAL = (3, 4, 2)


def _long_position():
    seed, players, runs = LONG_DEAL
    return shuffle_deal(random.Random(seed), players, runs).position()


CHILD = textwrap.dedent(f"""
    import random, signal, sys, threading, time
    from solver.shuffle import shuffle_deal
    from solver.search import Solver

    class Terminated(Exception):
        pass

    def on_term(signum, frame):
        raise Terminated

    def busy():
        while True:
            pass

    signal.signal(signal.SIGTERM, on_term)
    if sys.argv[1:] == ["busy"]:
        # another thread running Python code keeps the GIL in demand
        threading.Thread(target=busy, daemon=True).start()
    seed, players, runs = {LONG_DEAL}
    position = shuffle_deal(random.Random(seed), players, runs).position()
    solver = Solver()
    print("solving", flush=True)
    try:
        solver.solve(position)
    except BaseException as e:
        print(type(e).__name__, time.monotonic(), solver.engine.progress[0], flush=True)
        sys.exit(0)
    print("finished", flush=True)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum,raised,busy", [(signal.SIGINT, "KeyboardInterrupt", False),
                                                (signal.SIGTERM, "Terminated", False),
                                                (signal.SIGINT, "KeyboardInterrupt", True)])
def test_a_signal_stops_a_long_solve_at_once(signum, raised, busy, tmp_path):
    """A real signal, sent a second into a search that would take minutes, ends it with the
    exception its handler raises, well within a second (the search polls less often while
    another thread wants the GIL)."""
    # the package as installed, from a folder that is not the checkout (whose solver/ may hold
    # no compiled engine)
    child = subprocess.Popen([sys.executable, "-c", CHILD] + (["busy"] if busy else []),
                             stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert child.stdout.readline().strip() == "solving"
        time.sleep(1.0)
        sent = time.monotonic()
        os.kill(child.pid, signum)
        out, _ = child.communicate(timeout=10)
        ended = time.monotonic()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    name, caught, nodes = out.split()
    assert name == raised
    assert int(nodes) > 0
    assert float(caught) - sent < (0.5 if busy else 0.2)
    assert ended - sent < 1.0
    assert child.returncode == 0


def _interrupt_soon(seconds: float) -> threading.Timer:
    # interrupt_main only sets the flag that the signal's C handler would: the search sees it
    # the next time it runs the handlers
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_an_interrupted_solver_solves_again_and_stays_exact():
    solver = Solver(table_bits=18)
    position = _long_position()
    timer = _interrupt_soon(0.3)
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(position, side=0)
    assert time.perf_counter() - start < 0.3 + 0.5
    timer.join()
    assert solver.engine.progress[0] > 0
    # the same problem later in play keeps the table: whatever the interrupted search stored
    # must hold
    rng = random.Random(4)
    late = position
    while len(late.play) < 4 * 12 - 4 * 4:
        late = late.after(rng.choice(late.legal_moves()))
    kept = solver.solve(late, side=0)
    fresh = Solver(table_bits=18).solve(late, side=0)
    assert (kept.value, kept.moves, kept.complete) == (fresh.value, fresh.moves, True)
    for _ in range(10):
        small = random_position(rng, 3, 4, Rules(), played=rng.randrange(5))
        answer = solver.solve(small)
        expected = reference.solve(small, answer.side)
        assert (answer.value, answer.moves) == (expected.value, expected.moves)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX interval timers")
def test_a_handler_that_raises_is_what_solve_raises():
    class Alarm(Exception):
        pass

    def on_alarm(signum, frame):
        raise Alarm

    previous = signal.signal(signal.SIGALRM, on_alarm)
    solver = Solver(table_bits=16)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(Alarm):
            solver.solve(_long_position())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert solver.progress() is None        # (a solve stopped has no numbers to give)
    position = random_position(random.Random(6), 2, 6, Rules(), played=0)
    assert solver.solve(position).moves == reference.solve(position).moves


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX interval timers")
def test_a_handler_that_returns_lets_the_search_go_on():
    calls = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: calls.append(signum))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)
        solution = Solver(table_bits=16).solve(_long_position(), time_limit=0.5)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert len(calls) >= 3
    assert not solution.complete and solution.lower <= solution.upper


@pytest.mark.parametrize("moves", [True, False])
def test_progress_can_be_read_while_solving(moves):
    solver = Solver(table_bits=18)
    engine = solver.engine
    samples = []
    done = threading.Event()

    def sample():
        time.sleep(0.05)
        while not done.is_set():
            samples.append(engine.progress)
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        solution = solver.solve(_long_position(), moves=moves, time_limit=1.0)
    finally:
        done.set()
        sampler.join()
    nodes, lower, upper = engine.progress  # the future value's: solution's less what is settled
    assert (nodes, upper - lower) == (solution.nodes, solution.upper - solution.lower)
    assert len(samples) > 20
    counts = [n for n, _, _ in samples]
    assert counts == sorted(counts) and counts[-1] > counts[0] > 0
    # the bounds only narrow, so each sample's hold the final ones
    for _, sampled_lower, sampled_upper in samples:
        assert sampled_lower <= lower <= upper <= sampled_upper


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX interval timers")
def test_progress_read_as_the_search_runs_is_the_engines_with_what_is_settled():
    """Read in a signal handler, while the search waits: Solver.progress is the engine's nodes
    and bounds on the future value, with what is settled before it added back (High: 1 point
    to the side to move, and a margin of 0)."""
    solver = Solver(table_bits=18)
    position = _long_position()
    for objective, settled in (("points", 1), ("margin", 0)):
        read = []
        previous = signal.signal(signal.SIGALRM, lambda signum, frame: read.append(
            (solver.engine.progress, solver.progress())))
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)
            solution = solver.solve(position, objective=objective, time_limit=0.5)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        assert solution.lower - solver.engine.progress[1] == settled
        running = [(engine, mine) for engine, mine in read if engine is not None]
        assert len(running) >= 3
        if objective == "margin":       # (bounds off 0, so that adding back 0 shows)
            assert all(lower < 0 < upper for (_, lower, upper), _ in running)
        for (nodes, lower, upper), mine in running:
            assert mine == (nodes, settled + lower, settled + upper)


def test_progress_says_none_until_the_solve_under_way_has_bounds(monkeypatch):
    """Read as a solve began, Solver.progress gave the last solve's numbers (or (0, 0, 0) from
    a new Solver), its bounds met and the value outside them: None until this solve's search
    has bounds, then its own; after it, the solution's; after one stopped, None."""
    import solver.search as search

    solver = Solver(table_bits=16)
    assert solver.progress() is None and solver.engine.progress is None
    small = Position.from_line("N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H")
    first = solver.solve(small)
    assert solver.progress() == (first.nodes, first.lower, first.upper) == (first.nodes, 19, 19)
    seen = []
    settled = search.settled_before

    def reading(*args):             # the solve under way, before its search begins
        seen.append(solver.progress())
        return settled(*args)

    monkeypatch.setattr(search, "settled_before", reading)
    second = solver.solve(small, side=1)
    assert seen == [None] and solver.progress() == (second.nodes, 10, 10)
    monkeypatch.setattr(search, "settled_before", settled)

    def stop(*args):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        monkeypatch.setattr(search, "settled_before", stop)
        solver.solve(small)
    assert solver.progress() is None


def test_the_python_interface():
    from solver._search import Engine, Problem, Result

    engine = Engine(12)
    assert engine.Problem is Problem
    points = bytearray(64)
    points[12] = 1  # the ace of suit 0 gives a point
    problem = Problem(sides=(0, 1), xside=0, trump=0, points=bytes(points), pips=bytes(64))
    assert (problem.trick_bonus, problem.game, problem.margin, problem.strict) == \
        (0, True, False, False)
    # seat 0 holds the ace and the two of suit 0, seat 1 the king and three
    result = engine.solve(problem, [1 << 12 | 1 << 0, 1 << 11 | 1 << 1], 0)
    assert isinstance(result, Result)
    assert (result.lower, result.upper, result.stopped) == (1, 1, False)
    assert sorted(result.moves) == [(0, 1, 1), (12, 1, 1)]
    assert len(result.line) == 4 and result.nodes > 0
    assert engine.progress == (result.nodes, 1, 1)
    # mid-trick: seat 1 has led the two
    result = engine.solve(problem, [1 << 12 | 1 << 1, 1 << 11], 1, [0], (0, 0, 0),
                          all_moves=False, want_line=False)
    assert (result.lower, result.upper, result.moves, result.line) == (1, 1, [], [])
    for bad, message in (
            ((problem._replace(sides=(0,)), [1, 2], 0), "2 to 4 seats"),
            ((problem._replace(pips=bytes(3)), [1, 2], 0), "64 bytes"),
            ((problem._replace(trump=5), [1, 2], 0), "trump is 0 to 4"),
            ((problem, [1, 2], 2), "the leader a seat"),
            ((problem, [1, 2], 0, [3, 4]), "fewer cards than seats"),
            ((problem, [1, 2], 0, (), (0, 0, 0, 0)), "Game pips for at most three"),
            ((problem._replace(sides=(0, 3)), [1, 2], 0), "sides are numbered"),
            ((problem._replace(xside=2), [1, 2], 0), "the side solved for"),
            ((problem, [1, 1], 0), r"hands\[1\] holds a card twice"),
            ((problem, [1, 6], 0), "hands hold 1 cards each")):
        with pytest.raises(ValueError, match=message):
            engine.solve(*bad)
    with pytest.raises(ValueError, match="a node limit of 0 or more"):
        engine.solve(problem, [1, 2], 0, node_limit=-1)
    # a refused solve leaves the last one's progress
    assert engine.progress == (result.nodes, 1, 1)
    assert engine.solve(problem, [1, 2], 0).lower == 0


@pytest.mark.parametrize("bits", [7, 27, 20.5, "20", True])
def test_a_solver_refuses_a_table_size_it_cannot_have(bits):
    from solver.errors import AllFivesError

    with pytest.raises(AllFivesError, match=r"^table_bits: .* is not a whole number from 8 to "
                                            r"26$"):
        Solver(table_bits=bits)


def test_a_solutions_seconds_are_the_time_its_solve_took():
    position = random_position(random.Random(4), 2, 6, Rules(), played=0)
    began = clock.now()
    solution = Solver(table_bits=16).solve(position)
    took = clock.now() - began
    assert solution.nodes > 0 and 0 < solution.seconds <= took


def test_the_table_holds_its_entries_of_32_bytes_and_64_mib_by_default():
    """As the README's engine section says: 2**table_bits entries of 32 bytes, 2**21 unless
    told otherwise."""
    assert Solver(table_bits=10).table_bytes == 32 << 10
    assert Solver().table_bytes == 64 << 20
