"""Working time (``solver.clock``): the time a process stands stopped (Ctrl-Z until ``fg``)
is left out of decisions' budgets and times, a search's time limit and the times reported."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
import types

import pytest

from clirun import run
from solver import clock
from solver.batch import play_deals
from solver.players import HeuristicPlayer
from solver.rules import Rules

needs_job_control = pytest.mark.skipif(not hasattr(signal, "SIGTSTP"),
                                       reason="no job control here")


@pytest.fixture
def stopped_for(monkeypatch):
    """The stop itself (the default action of SIGTSTP, sent by the process to itself) made a
    sleep of the seconds given, with what happened around it noted; the counted time and the
    engine's kept apart from the other tests'."""
    monkeypatch.setattr(clock, "_stopped", 0.0)
    monkeypatch.setattr(clock, "_hooks", [])
    told: list[float] = []
    try:
        from solver import _search as engine
    except ImportError:       # (no engine built: a stand-in is told)
        engine = types.SimpleNamespace(add_stopped=lambda seconds: None)
        monkeypatch.setitem(sys.modules, "solver._search", engine)
    real = engine.add_stopped
    monkeypatch.setattr(engine, "add_stopped", lambda seconds: (told.append(seconds),
                                                                real(seconds)))
    seen = []

    def stop_for(seconds: float):
        def stop(pid, signum):
            seen.append(("stopped", signum, signal.getsignal(signum)))
            time.sleep(seconds)
        monkeypatch.setattr(clock.os, "kill", stop)
        return seen, told
    return stop_for


@needs_job_control
def test_a_stop_is_left_out_of_the_working_time(stopped_for):
    seen, engine = stopped_for(0.5)
    before = signal.getsignal(signal.SIGTSTP)
    with clock.when_stopped(lambda: seen.append("before"), lambda: seen.append("after")):
        handler = signal.getsignal(signal.SIGTSTP)
        start, wall = clock.now(), time.perf_counter()
        handler(signal.SIGTSTP, None)
        worked, passed = clock.now() - start, time.perf_counter() - wall
        assert signal.getsignal(signal.SIGTSTP) is handler
    assert signal.getsignal(signal.SIGTSTP) is before
    assert seen == ["before", ("stopped", signal.SIGTSTP, signal.SIG_DFL), "after"]
    assert passed >= 0.5 and worked < 0.1
    assert len(engine) == 1 and engine[0] >= 0.5     # the engine's clock told too


@needs_job_control
def test_a_decision_stopped_half_way_is_timed_without_the_stop(stopped_for):
    stopped_for(1.0)

    class Stopped(HeuristicPlayer):
        """The heuristic, stopped (Ctrl-Z) in its first decision."""
        stops = 1

        def act(self, observation, *args):
            if self.stops:
                self.stops -= 1
                clock._stopped_here(signal.SIGTSTP, None)
            return super().act(observation, *args)

    result = play_deals([Stopped(), HeuristicPlayer()], Rules(), 1, seed=1, records=False)
    times = [t for seconds in result.times.values() for t in seconds]
    assert times and max(times) < 0.5       # not the second it stood stopped


def test_working_time_without_stops_counted_is_the_counter():
    assert abs(clock.now() - clock._stopped - time.perf_counter()) < 0.01


def test_count_stops_outside_the_main_thread_leaves_the_signal_alone():
    import threading

    before = signal.getsignal(signal.SIGTSTP) if hasattr(signal, "SIGTSTP") else None
    answers = []
    worker = threading.Thread(target=lambda: answers.append(clock.count_stops()))
    worker.start()
    worker.join()
    assert answers == [False]
    if before is not None:
        assert signal.getsignal(signal.SIGTSTP) is before


@needs_job_control
def test_a_search_stopped_half_way_keeps_the_time_it_had_left(tmp_path):
    """A solve of 1 s stopped (Ctrl-Z) 0.3 s in and taken up 2 s later goes on for the rest of
    its second; it used to find its time spent the moment it went on."""
    pytest.importorskip("solver.search")
    deal = run("deal", "--players", "4", "--runs", "2", "--seed", "3", "--format", "line")
    assert deal.exit_code == 0      # a search of minutes: it stops at its time limit
    script = textwrap.dedent(f"""
        import os, sys, time
        from solver import Position, clock
        from solver.search import Solver

        def stood_still(pid, signum):    # the stop, as fg would end it 2 s later
            time.sleep(2.0)
        clock.os.kill = stood_still
        assert clock.count_stops()
        position = Position.from_line({deal.stdout.strip()!r})
        solver = Solver()
        print("solving", flush=True)
        wall = time.perf_counter()
        solution = solver.solve(position, time_limit=1.0)
        print(solution.seconds, time.perf_counter() - wall, flush=True)
    """)
    # (run from elsewhere than the checkout: the package as it is installed, engine and all)
    program = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert program.stdout.readline() == "solving\n"
        time.sleep(0.3)
        program.send_signal(signal.SIGTSTP)
        out, errors = program.communicate(timeout=60)
    finally:
        if program.poll() is None:
            program.kill()
    assert program.returncode == 0, errors
    worked, passed = map(float, out.split())
    assert passed >= 2.5            # it stood still inside the search ...
    assert worked >= 0.9            # ... and then searched for the rest of its second
    assert worked < passed - 1.5    # the stop not counted


@needs_job_control
def test_a_monte_carlo_decision_stopped_half_way_is_not_cut_short(stopped_for):
    """Stopped 3 s into a decision of 2.5 s, it used to find its budget spent on ``fg``."""
    import threading

    from solver.game import Match
    from solver.pimc import PimcPlayer

    stopped_for(3.0)
    state = Match(players=2).new_initial_state(seed=4)
    heuristic = HeuristicPlayer()
    while state.phase != "play":
        state.apply_action(heuristic.act(state.observation(state.current_player())))
    seen = state.observation(state.current_player())
    player = PimcPlayer(worlds=2000, time_limit=2.5, seed=1)
    main = threading.main_thread().ident
    with clock.when_stopped(lambda: None, lambda: None):
        timer = threading.Timer(0.05, signal.pthread_kill, (main, signal.SIGTSTP))
        wall = time.perf_counter()
        timer.start()
        try:
            advice = player.advise(seen)
        finally:
            timer.join()        # (the stop taken here, if not in the decision)
        passed = time.perf_counter() - wall
    assert passed >= 3.0            # the stop came during the decision ...
    assert advice.complete and advice.worlds == 2000    # ... and took none of its time


@needs_job_control
@pytest.mark.parametrize("editor", ["readline", "another"])
def test_ctrl_z_at_a_prompt_gives_the_terminal_back_and_takes_it_up_again(
        stopped_for, monkeypatch, capsys, editor):
    """Python has the line editor leave signals alone: after ``fg`` the keys of an answer came
    out as they are (``^[[D``) and the prompt was not shown again.  The editor's own calls now
    do what it would have; another editor, without them, has the prompt and what was typed
    shown again."""
    from cli import answers

    seen, _ = stopped_for(0.0)
    calls = []
    library = types.SimpleNamespace(**{name: (lambda name=name: calls.append(name)) for name in (
        "rl_cleanup_after_signal", "rl_reset_after_signal", "rl_forced_update_display")})
    if editor == "another":
        del library.rl_reset_after_signal
    monkeypatch.setattr("ctypes.CDLL", lambda path: library)
    monkeypatch.setitem(sys.modules, "readline", types.SimpleNamespace(
        __file__="readline.so", get_line_buffer=lambda: "ta"))

    def typed(prompt):
        calls.append(("asked", prompt))
        clock._stopped_here(signal.SIGTSTP, None)       # Ctrl-Z, then fg
        return "take"

    monkeypatch.setattr("builtins.input", typed)
    console = types.SimpleNamespace(file=sys.stdout)
    assert answers.ask_line("Your call: ", console, sys.stdin, True) == "take"
    assert [s for s in seen if s[0] == "stopped"]
    if editor == "readline":
        assert calls == [("asked", "Your call: "), "rl_cleanup_after_signal",
                         "rl_reset_after_signal", "rl_forced_update_display"]
        assert capsys.readouterr().out == ""
    else:
        assert calls == [("asked", "Your call: ")]
        assert capsys.readouterr().out == "Your call: ta"
