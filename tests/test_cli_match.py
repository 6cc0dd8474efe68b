"""``allfives match``: the numbers are solver.batch's for the same seed whatever runs them, bad
input is one line, the records replay, Ctrl-C ends it cleanly; and ``solve --jobs``."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from clirun import EXAMPLES, PROGRAM, assert_one_error_line, reaches, records, run, \
    workers_of
from cli.errors import Terminated
from solver.batch import run_duplicate, run_matches
from solver.executors import usable_cpus
from solver.errors import AllFivesError
from solver.records import read_records, replay

#: What differs between two runs of the same games: the times, and how they were run.
RUN_KEYS = ("times", "seconds", "jobs", "scheduler", "command")


def one(result) -> dict:
    [found] = records(result)
    return found


def games(found: dict) -> dict:
    return {k: v for k, v in found.items() if k not in RUN_KEYS}


def test_one_group_has_no_spread():
    """The spread of one group's difference is not known: null, not 0.0."""
    found = one(run("match", "heuristic", "random", "--deals", 1, "--json"))
    for key in ("difference", "bootstrap"):
        assert (found[key]["n"], found[key]["sd"], found[key]["low"]) == (1, None, None)
    assert (found["difference"]["method"], found["bootstrap"]["method"]) == ("t", "bca")


@pytest.mark.parametrize("groups", [2, 19, 20])
def test_a_bootstrap_interval_needs_twenty_groups(groups):
    """From fewer than 20 groups the percentile bootstrap is no 95% interval (of two groups it
    was their range: -1.0 .. +1.5 beside the paired t's -15.6 .. +16.1): none is given, said in
    the report and null in JSON, the mean and spread kept."""
    args = ("match", "heuristic", "random", "--deals", groups, "--duplicate", "--seed", 5)
    found = one(run(*args, "--json"))
    boot = found["bootstrap"]
    assert boot["n"] == groups and boot["mean"] == found["difference"]["mean"]
    text = run(*args).stdout
    if groups < 20:
        assert boot["low"] is None and boot["high"] is None
        assert "  95% interval, bootstrap:  none from fewer than 20 groups" in text.splitlines()
    else:
        assert boot["low"] < boot["mean"] < boot["high"]
        assert re.search(r"^  95% interval, bootstrap:  [-+]\d", text, re.M)


def test_duplicate_deals_are_solver_batch_s_numbers():
    found = one(run("match", "heuristic", "random", "--deals", "30", "--duplicate",
                    "--seed", "7", "--json"))
    direct = run_duplicate("heuristic", "random", players=2, groups=30, seed=7)
    t, boot = direct.interval(), direct.bootstrap()
    assert found["difference"] == {"mean": t.mean, "low": t.low, "high": t.high, "n": 30,
                                   "sd": t.sd, "confidence": 0.95, "method": "t"}
    assert (found["bootstrap"]["low"], found["bootstrap"]["high"]) == (boot.low, boot.high)
    assert found["points_per_deal"] == dict(zip(("heuristic", "random"), direct.kind_means()))
    assert {k: found[k] for k in ("a", "b", "players", "rules", "duplicate", "unit", "seed",
                                  "groups", "seatings", "games", "deals", "won")} == {
        "a": "heuristic", "b": "random", "players": 2, "rules": "all-fives",
        "duplicate": True, "unit": "deal", "seed": 7, "groups": 30, "seatings": 2,
        "games": 60, "deals": 60, "won": None}
    times = direct.time_summaries()
    for label in ("heuristic", "random"):
        assert found["times"][label]["decisions"] == times[label].count
        # (the run's own times, tallied as its chunks came: of other decisions, but as many)
        assert 0 < found["times"][label]["median"] <= found["times"][label]["p95"] <= \
            found["times"][label]["max"] <= found["times"][label]["total"]
        assert set(found["times"][label]) == {"decisions", "median", "p95", "max", "total",
                                              "cut_short"}
        assert found["times"][label]["cut_short"] == 0      # neither has a budget
    assert found["command"] == ("allfives match heuristic random --players 2 --deals 30 "
                                "--duplicate --rules all-fives --seed 7")
    assert found["jobs"] == 1 and found["scheduler"] is None and found["seconds"] >= 0


def test_without_duplicate_the_seats_go_in_turn():
    found = one(run("match", "heuristic", "random", "--players", "4", "--deals", "10",
                    "--json"))
    direct = run_duplicate("heuristic", "random", players=4, groups=10, seed=0, rotate=True)
    assert found["seed"] == 0 and found["seatings"] == 1 and found["games"] == 10
    assert found["difference"]["mean"] == direct.interval().mean
    assert found["difference"]["low"] == direct.interval().low


def test_whole_matches_count_matches_won():
    found = one(run("match", "heuristic", "random", "--matches", "3", "--duplicate",
                    "--players", "3", "--target", "21", "--seed", "2", "--json"))
    from solver.rules import Rules
    direct = run_matches("heuristic", "random", players=3, groups=3, seed=2,
                         rules=Rules().replace(target=21))
    won = direct.won()
    assert found["won"] == {"a": won.successes, "matches": 18, "share": won.share,
                            "low": won.low, "high": won.high, "confidence": 0.95,
                            "method": "wilson-t", "effective": won.effective, "pairs": None}

    assert found["unit"] == "match" and found["games"] == 18 and found["target"] == 21
    assert found["deals"] == sum(m.deals for m in direct.matches)
    assert found["difference"]["n"] == 3


def test_whole_matches_in_pairs_have_the_paired_interval():
    from solver.rules import Rules

    found = run("match", "heuristic", "random", "--matches", "12", "--duplicate", "--target",
                "21", "--seed", "4", "--json")
    won = one(found)["won"]
    direct = run_matches("heuristic", "random", players=2, groups=12, seed=4,
                         rules=Rules().replace(target=21))
    by_group: dict[int, list[float]] = {}
    for m in direct.matches:
        by_group.setdefault(m.group, []).append(m.a_share)
    tally = [sum(shares) for shares in by_group.values()]
    assert won["pairs"] == {"a": tally.count(2), "b": tally.count(0), "split": tally.count(1)}
    assert won["method"] == "bonett-price" and won["effective"] is None
    assert won["low"] < won["share"] < won["high"]
    shown = run("match", "heuristic", "random", "--matches", "12", "--duplicate", "--target",
                "21", "--seed", "4").stdout
    assert (f"Bonett and Price's, paired: heuristic won both matches of {tally.count(2)} "
            f"groups, random both of {tally.count(0)}, {tally.count(1)} split"
            in " ".join(shown.split()))
    assert f"matches won by heuristic: {won['a']:g} of 24 = {won['share']:.1%} " in shown


def test_a_long_player_spec_breaks_between_its_options_in_the_table(monkeypatch):
    """Into a file, 80 columns: 'pimc:worlds=8,time_limit=none,n' above 'ode_limit=200000'.
    Where it fits, it is as it is written."""
    spec = "pimc:worlds=8,time_limit=none,node_limit=200000"
    monkeypatch.setenv("COLUMNS", "160")
    wide = run("match", spec, "heuristic", "--deals", "2", "--duplicate").stdout
    assert re.search(rf"^{re.escape(spec)} +\d", wide, re.M)
    monkeypatch.setenv("COLUMNS", "80")
    shown = run("match", spec, "heuristic", "--deals", "2", "--duplicate").stdout
    words = shown.split("─" * 80 + "\n")[1].split("\nheuristic ")[0].split()
    # (where the name breaks hangs on the width of the times beside it)
    assert [w for w in words if not re.fullmatch(r"[\d.]+|µs|ms|s", w)] == [
        "pimc:worlds=8,", "time_limit=none,", "node_limit=200000"]
    assert f"Reproduce: allfives match {spec} heuristic " in shown


@pytest.mark.parametrize("width", [40, 50, 60, 70])
@pytest.mark.parametrize("a, b", [("heuristic", "random"),
                                  ("cheater:time_limit=0.2,node_limit=20000", "random"),
                                  ("heuristic", "cheater:time_limit=0.2,node_limit=20000")])
def test_the_report_is_laid_out_for_a_narrow_console(monkeypatch, a, b, width):
    """Below the table's width: no line longer than the console (the Reproduce line aside, to
    be copied whole), nothing cut ('poin…', 'decis…'), no player's name or option broken
    within itself ('heurist' above 'ic', 'node_limit=20' above '000'), and an interval's ends,
    a count and a number's unit never parted ('-4.661 ..' above '+2.261', '1' above 'job')."""
    monkeypatch.setenv("COLUMNS", str(width))
    shown = run("match", a, b, "--matches", "3", "--duplicate").stdout
    lines = [line for line in shown.splitlines() if not line.startswith("Reproduce: ")]
    assert max(len(line) for line in lines) <= width, shown
    assert "…" not in shown
    whole = {*a.split(","), *b.split(","), a, b}
    for word in " ".join(lines).split():
        bare = word.rstrip(",:")
        if bare != "=" and ("=" in bare or ":" in bare or bare in ("heurist", "rand")):
            assert bare in whole or all(piece in whole for piece in bare.split(",")), \
                (word, shown)
    assert re.search(r"paired t: +[-+]\d+\.\d{3} \.\. [-+]\d+\.\d{3}$|"
                     r"paired t:\n +[-+]\d+\.\d{3} \.\. [-+]\d+\.\d{3}$", shown, re.M), shown
    for before, line in zip(lines, lines[1:]):
        assert not re.search(r"( \.\.| =)$", before), before
        assert not re.match(r" *[-+]?[\d.,]+%?$", line), line      # a number alone
        if re.search(r"\d[\d.,]*%?$", before):                     # parted from its unit
            assert not re.match(r" *(job|jobs|ms|µs|wall|groups|deals|of)\b", line), line
    assert re.search(r"\d of 6 = \d", shown)


def test_matches_won_in_the_thousands_are_counted_with_separators():
    """'1089 of 1600' beside '1,600 matches': the report's counts alike."""
    args = ["match", "heuristic", "random", "--matches", "800", "--duplicate", "--rules",
            "all-fours"]
    won = one(run(*args, "--json"))["won"]
    assert won["a"] >= 1000
    shown = " ".join(run(*args).stdout.split())
    assert f"matches won by heuristic: {int(won['a']):,} of 1,600 = {won['share']:.1%} " in shown
    assert "1,600 matches" in shown


@pytest.mark.parametrize("won, said", [(12904, "12,904"), (10.5, "10.5"), (0, "0"),
                                       (1_234_567.5, "1,234,567.5"), (2 / 3, "0.67"),
                                       (0.999, "1")])
def test_matches_won_are_written_as_the_other_counts_are(won, said):
    """'12904 of 15000' beside '15,000 matches': the counts of a report alike."""
    from cli.matchreport import _count

    assert _count(won) == said


def test_two_jobs_give_the_numbers_of_one():
    args = ["match", "heuristic", "random", "--deals", "40", "--duplicate", "--seed", "3",
            "--json"]
    serial = one(run(*args))
    parallel = one(run(*args, "--jobs", "2"))
    assert games(parallel) == games(serial)
    assert parallel["jobs"] == 2 and parallel["command"].endswith("--jobs 2")
    assert {k: v["decisions"] for k, v in parallel["times"].items()} == \
        {k: v["decisions"] for k, v in serial["times"].items()}


def test_a_dask_cluster_gives_the_same_numbers():
    distributed = pytest.importorskip("distributed")
    args = ["match", "heuristic", "random", "--players", "4", "--deals", "6", "--duplicate",
            "--json"]
    serial = one(run(*args))
    # over TCP, as a cluster's address is given on the command line
    with distributed.LocalCluster(n_workers=1, processes=False, scheduler_port=0,
                                  protocol="tcp", dashboard_address=None) as cluster:
        dask = one(run(*args, "--scheduler", cluster.scheduler_address))
    assert games(dask) == games(serial)
    assert dask["scheduler"] == cluster.scheduler_address


@pytest.mark.parametrize("where, answer, said", [
    ("workers", {"tcp://10.0.0.2:4000": "0.0.1 (compiled engine)"},
     "--scheduler: the worker tcp://10.0.0.2:4000 runs allfives 0.0.1 (compiled engine), this "
     "is {mine}: a cluster plays with the allfives its scheduler and workers run"),
    ("workers", ModuleNotFoundError("No module named 'solver'"),
     "--scheduler: a worker of 'host:8786' cannot run allfives (ModuleNotFoundError: No module "
     "named 'solver'); install it there as here"),
    ("scheduler", "0.0.1 (no compiled engine)",
     "--scheduler: the scheduler 'host:8786' runs allfives 0.0.1 (no compiled engine), this is "
     "{mine}: a cluster plays with the allfives its scheduler and workers run"),
    ("scheduler", ModuleNotFoundError("No module named 'solver'"),
     "--scheduler: the scheduler 'host:8786' cannot run allfives (ModuleNotFoundError: No module "
     "named 'solver'); install it there as here"),
])
def test_a_scheduler_or_workers_that_run_another_allfives_or_none_are_refused(where, answer,
                                                                                said):
    """A worker without allfives crashed on each chunk and the run said 'no workers' after a
    minute; one of another version would have played other games without a word; a scheduler
    without it (it unpickles the work) failed the run in a traceback."""
    from cli.workers import _check_workers
    from solver.executors import worker_version

    def asked(there, fn):
        assert fn is worker_version
        if where != there:
            return worker_version() if there == "scheduler" else \
                {"tcp://10.0.0.1:4000": worker_version()}
        if isinstance(answer, Exception):
            raise answer
        return answer if there == "scheduler" else {"tcp://10.0.0.1:4000": worker_version(),
                                                    **answer}

    class Asked:
        def run(self, fn):
            return asked("workers", fn)

        def run_on_scheduler(self, fn):
            return asked("scheduler", fn)

    with pytest.raises(AllFivesError) as error:
        _check_workers(Asked(), "host:8786")
    assert str(error.value) == said.format(mine=worker_version())


def test_a_worker_that_joins_with_another_allfives_stops_the_run(monkeypatch):
    """Workers are asked which allfives they run before any work goes out; one that joins
    later is found by its first chunk: the run stops as when work is lost, with the groups
    finished reported, and the worker named."""
    distributed = pytest.importorskip("distributed")
    from cli import workers
    from solver.executors import worker_version

    made = workers.Cluster.__init__

    def elsewhere(self, client, version=None):      # this side runs another allfives
        made(self, client, "0.0.1 (compiled engine)")

    monkeypatch.setattr(workers.Cluster, "__init__", elsewhere)
    with distributed.LocalCluster(n_workers=1, processes=False, scheduler_port=0,
                                  protocol="tcp", dashboard_address=None) as cluster:
        result = run("match", "heuristic", "random", "--deals", "2", "--scheduler",
                     cluster.scheduler_address)
        worker = next(iter(cluster.workers.values())).address
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"allfives: error: --scheduler: {worker}, which joined the run, "
                             f"runs allfives {worker_version()}, this is 0.0.1 (compiled "
                             f"engine): a cluster plays with the allfives its scheduler and workers "
                             f"run\n")


def test_a_chunk_runs_on_a_worker_of_this_allfives():
    from solver.executors import cluster_chunk, worker_version
    from solver.errors import WorkersLost

    assert cluster_chunk(worker_version(), divmod, 7, 2) == (3, 1)
    with pytest.raises(WorkersLost, match=r"^--scheduler: a worker, which joined the run, "
                                          r"runs allfives .* this is 9\.9: "):
        cluster_chunk("9.9", divmod, 7, 2)


@pytest.mark.parametrize("how", ["cancelled", "client gone"])
def test_a_stopped_run_stops_the_chunks_its_workers_started(how):
    """Dask cannot stop a task midway: a chunk on a cluster looks at each deal whether Dask has
    let go of its task (the run stopped, or its client gone), and stops."""
    distributed = pytest.importorskip("distributed")
    from cli import workers
    from solver.batch import _duplicate_chunk
    from solver.executors import WORKER_SWITCH_INTERVAL
    from solver.game import Match
    from solver.registry import player_spec

    a, b = player_spec("heuristic"), player_spec("random")
    switch = sys.getswitchinterval()    # (the worker, in this process, makes it shorter)
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) \
            as cluster, contextlib.ExitStack() as stack:
        stack.callback(sys.setswitchinterval, switch)
        worker = next(iter(cluster.workers.values()))
        client = distributed.Client(cluster, set_as_default=False)
        # hours of play in one chunk
        future = workers.Cluster(client).submit(_duplicate_chunk, a, b, Match(2), 1, 0,
                                                range(10**7), False)
        started = time.monotonic()      # (under load the task may take seconds to begin)
        while not worker.state.executing_count and time.monotonic() < started + 30:
            time.sleep(0.05)
        time.sleep(0.5)
        assert not future.done() and worker.state.executing_count == 1
        asked = time.monotonic()
        if how == "cancelled":
            future.cancel()
        else:
            client.close()
        while worker.state.executing_count and time.monotonic() < asked + 20:
            time.sleep(0.05)
        assert worker.state.executing_count == 0       # the worker's thread is free again
        # (seconds, not the hours the chunk holds: the worker's messages share the process,
        # and its lock, with the chunk, and on a loaded machine come late)
        assert time.monotonic() - asked < 15
        assert sys.getswitchinterval() == WORKER_SWITCH_INTERVAL
        client.close()


class StandInClient:
    """What ``Cluster`` asks of a Dask client: its status and its workers' threads (none where
    the scheduler does not answer, ``silent``: Dask's timeout of the call)."""

    def __init__(self, status: str = "running", workers: int = 1) -> None:
        self.status, self.workers, self.silent = status, workers, False
        self.timeouts: list = []

    def get_executor(self):
        return None

    def nthreads(self, callback_timeout=None) -> dict:
        self.timeouts.append(callback_timeout)
        if self.silent:
            raise TimeoutError(f"timed out after {callback_timeout} s")
        return {f"tcp://worker-{k}": 2 for k in range(self.workers)}


def test_a_cluster_without_workers_or_scheduler_stops_the_run(monkeypatch, capsys):
    """A run on a cluster stops (the work lost) when the scheduler is gone (the client closed,
    or reconnecting past its time), or when no worker has been there for NO_WORKERS_WAIT
    seconds; it says that it waits for workers (once while they are away), and workers come
    back in time go on."""
    from cli import workers
    from solver.errors import WorkersLost

    clock = [1000.0]
    monkeypatch.setattr(workers.time, "monotonic", lambda: clock[0])
    client = StandInClient(workers=0)
    cluster = workers.Cluster(client)
    cluster.check()
    assert capsys.readouterr().err == \
        "allfives: the cluster has no workers: waiting 60 s for some\n"
    clock[0] += 30
    cluster.check()
    client.workers = 2                      # back in time: the wait starts again later
    clock[0] += 29
    cluster.check()
    client.workers = 0
    for step in (3, workers.NO_WORKERS_WAIT - 1):
        clock[0] += step
        cluster.check()
    clock[0] += 3
    with pytest.raises(WorkersLost, match="the cluster has had no workers for 60 s"):
        cluster.check()
    assert capsys.readouterr().err.count("waiting") == 1
    with pytest.raises(WorkersLost, match="the scheduler went away"):
        workers.Cluster(StandInClient("closed")).check()
    cluster = workers.Cluster(StandInClient("connecting"))
    cluster.check()                         # reconnecting: it may, for a while
    clock[0] += workers.CONNECT_TIMEOUT + 3
    with pytest.raises(WorkersLost, match="the scheduler went away"):
        cluster.check()


def test_a_scheduler_that_stops_answering_stops_the_run(monkeypatch, capsys):
    """A scheduler stopped (or cut off by the network, its connection left open) never
    answers: the run had waited on it silently for as long as it lasted.  Each question is
    given CONNECT_TIMEOUT seconds; the run says once that it waits, and stops after
    NO_WORKERS_WAIT seconds without an answer, where one that answers again in time goes on."""
    from cli import workers
    from solver.errors import WorkersLost

    clock = [1000.0]
    monkeypatch.setattr(workers.time, "monotonic", lambda: clock[0])
    client = StandInClient(workers=2)
    cluster = workers.Cluster(client)
    cluster.check()
    assert capsys.readouterr().err == "" and cluster.window == 64
    client.silent = True
    for step in (3, 30, 20):
        clock[0] += step
        cluster.check()
    assert capsys.readouterr().err == \
        "allfives: the scheduler does not answer: waiting 60 s for it\n"
    client.silent = False                   # answers again in time: the wait starts again
    clock[0] += 3
    cluster.check()
    client.silent = True
    for step in (3, workers.NO_WORKERS_WAIT - 1):
        clock[0] += step
        cluster.check()
    clock[0] += 3
    with pytest.raises(WorkersLost, match="the scheduler has not answered for 60 s"):
        cluster.check()
    assert capsys.readouterr().err.count("waiting") == 1
    assert set(client.timeouts) == {workers.CONNECT_TIMEOUT}
    clock[0] += workers.WINDOW_AGE
    assert cluster.window == workers.FEWEST_IN_FLIGHT       # (no answer: the least)


def test_the_report_and_no_progress_bar_into_a_pipe():
    result = run("match", "heuristic", "random", "--deals", "8", "--duplicate")
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert "heuristic against random: 2 players, rules all-fives, seed 0" in out
    assert "8 deal groups of one deal, each played in 2 seatings (duplicate)" in out
    assert re.search(r"95% interval, paired t: +[-+]\d+\.\d{3} \.\. [-+]\d+\.\d{3}", out)
    assert "95% interval, bootstrap:" in out
    assert re.search(r"16 deals in \d+\.\d+ (ms|s|µs) wall, 1 job", out)
    assert out.rstrip().endswith("Reproduce: allfives match heuristic random --players 2 "
                                 "--deals 8 --duplicate --rules all-fives --seed 0")


def test_the_record_file_replays(tmp_path):
    path = tmp_path / "games.jsonl"
    found = one(run("match", "heuristic", "random", "--deals", "3", "--duplicate",
                    "--record", path, "--json"))
    lines = read_records(path.read_text(encoding="utf-8"), str(path))
    by_match: dict[str, list[dict]] = {}
    for line in lines:
        by_match.setdefault(line["match"], []).append(line)
    assert len(by_match) == found["games"] == 6
    for name, deals in by_match.items():
        state = replay(deals, name)
        assert len(state.deals) == len(deals)


def test_whole_matches_record_every_deal(tmp_path):
    path = tmp_path / "games.jsonl"
    found = one(run("match", "random", "random", "--matches", "2", "--target", "11",
                    "--record", path, "--json"))
    lines = read_records(path.read_text(encoding="utf-8"))
    assert found["a"] == "random (A)" and found["b"] == "random (B)"
    for name in {line["match"] for line in lines}:
        state = replay([line for line in lines if line["match"] == name])
        assert state.is_terminal()


@pytest.mark.parametrize("args, fragments", [
    (["nobody", "random"], ["unknown player 'nobody'", "random, heuristic, cheater"]),
    (["heuristic", "cheater:speed=3"], ["cheater:speed=3", "no option 'speed'"]),
    (["heuristic", "random", "--players", "5"], ["--players", "2, 3 or 4"]),
    (["heuristic", "random", "--deals", "0"], ["--deals", "0 is not"]),
    (["heuristic", "random", "--matches", "-1"], ["--matches"]),
    (["heuristic", "random", "--deals", "5", "--matches", "5"], ["--deals and --matches"]),
    (["heuristic", "random", "--rules", "bridge"], ["--rules", "unknown preset 'bridge'"]),
    (["heuristic", "random", "--matches", "2", "--target", "0"], ["--target"]),
    (["heuristic", "random", "--target", "21"], ["--target", "--matches"]),
    (["heuristic", "random", "--rules", "strict:target=21"], ["--rules", "--matches"]),
    (["heuristic", "random", "--rules", "strict:target=61"], ["--rules", "--matches"]),
    (["heuristic", "random", "--matches", "2", "--rules", "strict:target=61", "--target", "31"],
     ["--target: the target is given twice (--rules strict:target=61 gives target=61)"]),
    (["heuristic", "random", "--matches", "2", "--rules", "strict:target=21", "--target", "31"],
     ["--target: the target is given twice (--rules strict:target=21 gives target=21)"]),
    (["heuristic", "random", "--rules", "strict:skunk"], ["--rules", "'skunk' is not key=value"]),
    (["heuristic", "random", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"],
     ["--jobs and --scheduler"]),
    (["heuristic", "random", "--record", "/nonexistent/dir/games.jsonl"],
     ["/nonexistent/dir/games.jsonl"]),
    (["heuristic"], ["Missing argument 'PLAYER'"]),
])
def test_bad_input_is_one_line(args, fragments):
    assert_one_error_line(run("match", *args), *fragments)


def test_an_unreachable_scheduler_is_one_line(monkeypatch, tmp_path):
    """... and a record file the run made for it is taken away again (it was left empty)."""
    pytest.importorskip("distributed")
    monkeypatch.setattr("cli.workers.CONNECT_TIMEOUT", 1.0)
    start = time.monotonic()
    result = run("match", "heuristic", "random", "--scheduler", "tcp://127.0.0.1:1",
                 "--record", tmp_path / "new.jsonl")
    assert time.monotonic() - start < 20
    assert_one_error_line(result, "--scheduler: cannot reach 'tcp://127.0.0.1:1': nothing "
                          "listens on port 1 there (the connection was refused)")
    assert not list(tmp_path.iterdir())
    # a link named as the record stays, and the file it made for it goes
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "target.jsonl")
    run("match", "heuristic", "random", "--scheduler", "tcp://127.0.0.1:1",
        "--record", tmp_path / "link.jsonl")
    assert [p.name for p in tmp_path.iterdir()] == ["link.jsonl"]
    assert (tmp_path / "link.jsonl").is_symlink()


def test_an_unknown_scheduler_host_is_one_line(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("cli.workers.CONNECT_TIMEOUT", 1.0)
    result = run("match", "heuristic", "random", "--scheduler", "no-such-host.invalid:8786")
    assert_one_error_line(result, "--scheduler: cannot reach 'no-such-host.invalid:8786': no "
                          "host 'no-such-host.invalid' is known")


@pytest.mark.parametrize("address", ["nonsense", "tcp://host", "foo:bar", "", "tcp://h:99999",
                                     "tls://h:8786", "h:0"])
def test_a_malformed_scheduler_address_is_one_line_at_once(address):
    start = time.monotonic()
    for command in (["match", "heuristic", "random"], ["solve", EXAMPLES / "two-player.toml"]):
        result = run(*command, "--scheduler", address)
        assert_one_error_line(result, f"--scheduler: {address!r} is not a scheduler's address",
                              "[tcp://]HOST:PORT")
    assert time.monotonic() - start < 5


def test_a_scheduler_without_distributed_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    assert_one_error_line(run("match", "heuristic", "random", "--scheduler", "tcp://x:8786"),
                          "--scheduler", "distributed is not installed",
                          "'.[cluster]' in the checkout")


def test_a_record_path_that_cannot_be_written_stops_before_play(tmp_path, monkeypatch):
    played = []
    monkeypatch.setattr("cli.matching.play", lambda *a, **k: played.append(a))
    result = run("match", "heuristic", "random", "--record", tmp_path)  # a directory
    assert_one_error_line(result, str(tmp_path))
    assert played == []


def masked_solve(text: str) -> str:
    text = re.sub(r'"seconds": [0-9.e-]+', '"seconds": T', text)
    text = re.sub(r'"nodes": \d+', '"nodes": N', text)
    return re.sub(r"\d+ nodes, \d+\.\d+ s", "N nodes, T s", text)


@pytest.mark.parametrize("form", [["--json"], []], ids=["json", "report"])
def test_solve_with_jobs_prints_what_solve_prints(form):
    pytest.importorskip("solver.search")
    positions = EXAMPLES / "positions.txt"
    alone = run("solve", positions, *form)
    spread = run("solve", positions, *form, "--jobs", "2")
    assert spread.exit_code == alone.exit_code == 0
    assert masked_solve(spread.stdout) == masked_solve(alone.stdout)
    assert spread.stderr == alone.stderr


def test_solve_with_jobs_prints_each_position_as_it_is_solved(tmp_path):
    """With --jobs a report is printed as soon as it and those before it are solved: Ctrl-C
    during a deep deal keeps the reports of the positions before it (it printed nothing)."""
    pytest.importorskip("solver.search")
    quick = EXAMPLES / "positions.txt"
    deep = tmp_path / "deep.toml"       # four hands of 12 cards: a minute or more to solve
    made = run("deal", "--players", "4", "--runs", "2", "--seed", "5")
    assert made.exit_code == 0
    deep.write_text(made.stdout)
    alone = run("solve", quick, "--json").stdout.splitlines()
    start = time.monotonic()
    status, out, errors = interrupted(["solve", str(quick), str(deep), "--jobs", "2", "--json"],
                                      lambda program: time.monotonic() > start + 5)
    assert status == 130 and errors == "allfives: interrupted\n"
    assert [masked_solve(line) for line in out.splitlines()] == \
        [masked_solve(line) for line in alone]


def test_solve_with_jobs_refuses_the_reference_solver():
    assert_one_error_line(run("solve", EXAMPLES / "two-player.toml", "--engine", "reference",
                              "--jobs", "2"), "--engine reference")


def interrupted(args: list[str], ready, group: bool = False) -> tuple[int, str, str]:
    """Run ``allfives ARGS``, wait until ``ready(process)`` (at most 30 s), and stop it with
    SIGINT, to the program alone or (as a terminal's Ctrl-C) to its whole process group: its
    status, standard output and standard error."""
    program = subprocess.Popen([str(PROGRAM), *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=group)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not ready(program):
            time.sleep(0.1)
        assert ready(program), "the program did not get to work"
        assert program.poll() is None
        if group:
            os.killpg(program.pid, signal.SIGINT)
        else:
            program.send_signal(signal.SIGINT)
        out, errors = program.communicate(timeout=10)
    finally:
        if program.poll() is None:
            program.kill()
            program.communicate()
    return program.returncode, out, errors


@pytest.mark.parametrize("stop, word, status", [(KeyboardInterrupt, "interrupted", 130),
                                                 (Terminated, "terminated", 143)],
                         ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("form", [[], ["--json"]], ids=["report", "json"])
@pytest.mark.parametrize("groups, said", [
    (3, "none of the 3 groups asked for was finished"),
    (1, "the one group asked for was not finished")])
@pytest.mark.parametrize("unit", ["--matches", "--deals"])
@pytest.mark.parametrize("resume", [False, True], ids=["new", "resumed-from-nothing"])
def test_a_stop_before_any_group_is_finished_says_so(monkeypatch, tmp_path, form, groups, said,
                                                      stop, word, status, unit, resume):
    """A run stopped before its first group has nothing to report, and says that rather than
    nothing (the JSON reader has the status alone), in the words of what stopped it; so does
    one resumed from a record that holds no whole group (what a run stopped before its first
    group leaves), which was a ZeroDivisionError with --matches and 'no values to take a mean
    of' with --deals."""
    from cli import matching

    def stopped(*args, **kwargs):
        raise stop

    monkeypatch.setattr(matching, "_play_shown", stopped)
    record = tmp_path / "run.jsonl"
    record.write_text("", encoding="utf-8")
    more = ["--record", record, "--resume"] if resume else []
    result = run("match", "heuristic", "random", unit, groups, *form, *more)
    assert result.exit_code == status and result.stderr == f"allfives: {word}\n"
    assert result.stdout == ("" if form else f"{word}: {said}, so there is nothing to "
                                             f"report\n")


@pytest.mark.parametrize("stop, word", [(KeyboardInterrupt, "interrupted"),
                                        (Terminated, "terminated")], ids=["ctrl-c", "sigterm"])
def test_the_report_of_a_stopped_run_is_headed_by_what_stopped_it(monkeypatch, stop, word):
    """The groups finished before Ctrl-C or SIGTERM are reported, headed by the same word as
    the line on standard error."""
    from cli import matching

    played = matching._play_shown

    def stopped(plan, executor, records, keeper, *args, **kwargs):
        played(replace(plan, groups=3), executor, records, keeper, *args, **kwargs)
        raise stop

    monkeypatch.setattr(matching, "_play_shown", stopped)
    result = run("match", "heuristic", "random", "--deals", "5", "--jobs", "1")
    assert result.stderr == f"allfives: {word}\n"
    assert f"{word}: these are the first 3 of the 5 groups asked for" in result.stdout


@pytest.mark.parametrize("group", [False, True], ids=["to-the-program", "to-its-group"])
def test_ctrl_c_ends_a_match_and_its_workers(group: bool):
    """One line, status 130, no worker left and no worker's traceback."""
    psutil = pytest.importorskip("psutil")
    workers: list = []
    started: list[float] = []

    def at_work(program) -> bool:
        workers[:] = [p for p in psutil.Process(program.pid).children(recursive=True)
                      if p.is_running()]
        if len(workers) >= 2 and not started:
            started.append(time.monotonic())
        return bool(started) and time.monotonic() > started[0] + 1.0

    status, out, errors = interrupted(["match", "heuristic", "random", "--deals", "100000",
                                       "--jobs", "2"], at_work, group)
    assert status == 130
    assert errors == "allfives: interrupted\n"
    assert out == "" or "interrupted: these are the first " in out  # the groups finished
    gone, alive = psutil.wait_procs(workers, timeout=5)
    assert alive == []


@pytest.mark.parametrize("signum", [pytest.param(signal.SIGKILL, id="kill"),
                                    pytest.param(signal.SIGHUP, id="hangup",
                                                 marks=reaches(signal.SIGHUP))])
def test_workers_whose_parent_is_gone_end_quietly(signum):
    """The main process killed (or hung up, its workers with it where the terminal closed:
    here the main process alone): a worker that finished its chunk wrote to a parent gone,
    and printed two tracebacks of a broken pipe."""
    psutil = pytest.importorskip("psutil")
    program = subprocess.Popen([str(PROGRAM), "match", "heuristic", "random", "--deals",
                                "100000", "--jobs", "2"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        workers = workers_of(program)
        time.sleep(1.0)
        program.send_signal(signum)
        _, errors = program.communicate(timeout=30)    # (the workers hold the pipe open)
        assert "Traceback" not in errors and "BrokenPipeError" not in errors, errors
        assert psutil.wait_procs(workers, timeout=5)[1] == []
    finally:
        if program.poll() is None:
            program.kill()
            program.communicate()


def test_a_worker_that_writes_to_a_parent_gone_ends_quietly(tmp_path):
    """The test above failed now and then: killed as a worker finished its chunk, the parent
    was not yet seen gone (its files are closed before its children are handed on), and the
    worker's write met a broken pipe and printed its tracebacks.  A worker's write to a pipe
    no one reads ends it by SIGPIPE, quietly."""
    code = ("import os; from solver.executors import _worker_signals; _worker_signals(); "
            "r, w = os.pipe(); os.close(r); os.write(w, b'result'); print('went on')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (-signal.SIGPIPE, "", "")


@pytest.mark.parametrize("unit", ["--deals", "--matches"])
def test_ctrl_c_keeps_the_groups_finished(tmp_path, unit):
    """Stopped by SIGINT, a run reports the groups that came back (the numbers solver.batch
    gives for that many groups) and its record file holds their games, which replay."""
    path = tmp_path / "run.jsonl"
    status, out, errors = interrupted(
        ["match", "heuristic", "random", unit, "100000", "--record", str(path), "--json"],
        lambda program: path.exists() and path.stat().st_size >= 20_000)
    assert status == 130
    assert errors == "allfives: interrupted\n"
    found = json.loads(out)
    assert found["interrupted"] is True and found["planned"] == 100000
    assert found["bootstrap"] is None     # the report comes at once, without the bootstrap
    played = found["groups"]
    assert 0 < played < 100000
    assert found["command"] == (f"allfives match heuristic random --players 2 {unit} {played} "
                                "--rules all-fives --seed 0")
    if unit == "--deals":
        expected = run_duplicate("heuristic", "random", 2, played, 0, rotate=True)
        assert found["difference"]["mean"] == pytest.approx(expected.interval().mean)
        assert found["games"] == played
    else:
        expected = run_matches("heuristic", "random", 2, played, 0, rotate=True)
        assert found["won"]["a"] == pytest.approx(expected.won().successes)
    by_match: dict[str, list[dict]] = {}
    for line in read_records(path.read_text(encoding="utf-8"), str(path)):
        by_match.setdefault(line["match"], []).append(line)
    assert set(by_match) == {f"0:{g}:{g % 2}" for g in range(played)}
    for name, deals in by_match.items():
        replay(deals, name)


def test_decisions_cut_short_by_the_budget_are_reported():
    starved = "pimc:time_limit=none,node_limit=1,worlds=2"
    result = run("match", starved, "heuristic", "--deals", "2", "--duplicate", "--seed", "3")
    assert result.exit_code == 0, result.stderr
    direct = run_duplicate(starved, "heuristic", players=2, groups=2, seed=3)
    cut = direct.cut_short()[direct.a]
    decisions = direct.time_summaries()[direct.a].count
    assert f"{direct.a}: {cut:,} of {decisions:,} decisions cut short by the budget" in \
        " ".join(result.stdout.split())
    assert "heuristic: 0 of" not in result.stdout     # a player never cut short says nothing
    # a warning, not dimmed where dim text is faint (nor is the command that goes on)
    from clirun import RUNNER
    from cli.main import app

    shown = RUNNER.invoke(app, ["match", starved, "heuristic", "--deals", "2", "--duplicate",
                                "--seed", "3"], env={"FORCE_COLOR": "1", "NO_COLOR": ""}).stdout
    warning = next(line for line in shown.splitlines() if "cut short" in line)
    assert "\x1b[2m" not in warning and "\x1b[" in shown, warning
    found = json.loads(run("match", starved, "heuristic", "--deals", "2", "--duplicate",
                           "--seed", "3", "--json").stdout)
    assert found["times"][direct.a]["cut_short"] == cut
    assert found["times"]["heuristic"]["cut_short"] == 0


def test_a_chunk_is_counted_only_with_all_its_records_written():
    """Ctrl-C while a chunk's records are being written waits until they all are and the
    chunk is counted: the report of the groups finished and the record file agree."""
    import io

    from cli.matching import Keeper, make_plan
    from solver.batch import run_duplicate as duplicate

    class Interrupting(io.StringIO):
        name = "run.jsonl"

        def write(self, text):
            os.kill(os.getpid(), signal.SIGINT)     # Ctrl-C as the records go out
            time.sleep(0.05)
            return super().write(text)

    plan = make_plan("heuristic", "random", 2, 3, None, True, "all-fives", None, 0, None, None)
    part = duplicate("heuristic", "random", 2, 3, 0, keep_records=True).groups
    out = Interrupting()
    keeper = Keeper(plan, out)
    with pytest.raises(KeyboardInterrupt):
        keeper(list(part))
    # kept without the records, which are in the file
    assert keeper.parts == [[replace(g, records=()) for g in part]]
    assert len(out.getvalue().splitlines()) == sum(len(game) for g in part for game in g.records)


# ---- what the run says of itself, and work lost -----------------------------------------------

@pytest.mark.parametrize("args, target, jobs", [
    (["--matches", "2"], 61, 1), (["--matches", "2", "--rules", "all-fours"], 7, 1),
    (["--matches", "2", "--target", "11"], 11, 1), (["--deals", "4"], None, 1),
    (["--deals", "4", "--jobs", "0"], None, min(4, usable_cpus())),
    (["--deals", "2", "--jobs", "8"], None, 2),   # no more workers than groups to play
])
def test_the_json_gives_the_target_played_to_and_the_workers_used(args, target, jobs):
    found = one(run("match", "heuristic", "random", *args, "--json"))
    assert (found["target"], found["jobs"]) == (target, jobs)


def test_a_record_named_as_standard_output_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_one_error_line(run("match", "heuristic", "random", "--record", "-"),
                          "--record: '-' names no file")
    assert not list(tmp_path.iterdir())


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_that_dies_under_its_work_ends_the_wait():
    from solver.executors import gather, executor_for
    from solver.errors import WorkersLost

    # a pool starts another worker, but the dead one's task never came back: once a hang
    start = time.monotonic()
    with pytest.raises(WorkersLost, match="a worker process died"):
        with executor_for(2) as executor:
            gather(executor, _die, [()])
    assert time.monotonic() - start < 20


IDLE_WORKER_DIES = """
import os, signal, sys, time
from solver.errors import WorkersLost
from solver.executors import executor_for, gather

def busy(seconds):
    time.sleep(seconds)
    return os.getpid()

def pid():
    return os.getpid()

try:
    with executor_for(2) as pool:
        # one worker at a long task, the other idle, waiting for work on the pool's queue (it
        # holds the queue's lock while it waits); the idle one dies
        first = pool.submit(pid).result()
        pool.submit(busy, 30)
        time.sleep(0.5)
        idle = [p for p in pool.processes if p.pid == first][0]
        assert idle.is_alive()
        os.kill(idle.pid, signal.SIGKILL if sys.argv[1] == "kill" else signal.SIGTERM)
        gather(pool, busy, [(30,)])
except WorkersLost as lost:
    print("lost:", lost)
"""


@pytest.mark.parametrize("how", ["kill", "term"])
def test_a_worker_that_dies_while_it_waits_for_work_ends_the_run(tmp_path, how):
    """An idle worker holds the lock of the pool's queue of tasks while it waits on it; killed
    then (out of memory, a SIGTERM to the process group near the end of a run, when fewer
    chunks are left than workers), the pool's terminate waited for that lock for ever: no
    report, no status, and Ctrl-C ignored."""
    script = tmp_path / "idle.py"
    script.write_text(IDLE_WORKER_DIES, encoding="utf-8")
    start = time.monotonic()
    done = subprocess.run([sys.executable, str(script), how], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("lost: a worker process died (exit status -"), done.stdout
    assert time.monotonic() - start < 20


def test_a_service_that_is_no_scheduler_is_one_line_in_seconds(monkeypatch):
    pytest.importorskip("distributed")
    import socket
    import threading

    monkeypatch.setattr("cli.workers.CONNECT_TIMEOUT", 1.0)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held = []  # it takes the connection and says nothing, as a web server waits for a request
    threading.Thread(target=lambda: held.append(listener.accept()), daemon=True).start()
    address = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    start = time.monotonic()
    result = run("match", "heuristic", "random", "--scheduler", address)
    assert time.monotonic() - start < 20
    assert_one_error_line(result, f"--scheduler: '{address}' did not answer as a Dask "
                                  f"scheduler within 3 s")
    listener.close()


def run_at_a_service(answer) -> subprocess.CompletedProcess:
    """``allfives match`` given as its scheduler a service that does ``answer(connection)``
    with each connection it takes."""
    pytest.importorskip("distributed")
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            answer(connection)

    threading.Thread(target=serve, daemon=True).start()
    address = f"127.0.0.1:{listener.getsockname()[1]}"
    try:
        return subprocess.run([str(PROGRAM), "match", "heuristic", "random", "--scheduler",
                               address], capture_output=True, text=True, timeout=60)
    finally:
        listener.close()


def test_a_service_that_speaks_first_is_one_line_at_once():
    """A service that greets before it is asked (an SSH server) made Dask's client read its
    greeting as a frame's length: 'Unable to allocate 2.82 EiB', then a traceback 10 s later
    from the client left half-made."""
    start = time.monotonic()
    done = run_at_a_service(lambda c: c.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n"))
    assert time.monotonic() - start < 8
    address = done.args[-1]
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"allfives: error: --scheduler: '{address}' answered, but "
                                  f"not as a Dask scheduler")
    assert done.stderr.count("\n") == 1, done.stderr


def test_a_service_that_closes_the_connection_at_once_is_one_plain_line():
    """One that takes the connection and closes it: Dask's words of its connection ('in <TCP
    (closed) local=... remote=...>: ConnectionResetError: ...') were the message; by the
    machine's load Dask's client sees it closed, or tries again until its time is up."""
    done = run_at_a_service(lambda connection: connection.close())
    address = done.args[-1]
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"allfives: error: --scheduler: cannot reach '{address}': it took " \
                          f"the connection, but closed it, or did not answer as a Dask " \
                          f"scheduler within 5 s\n"


# ---- a run stopped, and resumed --------------------------------------------------------------

def _without_times(found: dict) -> dict:
    return {k: v for k, v in found.items() if k not in ("times", "seconds", "resumed")}


@pytest.mark.parametrize("players, args", [
    (2, ["--deals", "24", "--duplicate"]), (2, ["--deals", "25"]),
    (3, ["--deals", "9", "--duplicate"]), (3, ["--matches", "5"]),
    (4, ["--deals", "16", "--duplicate"]), (4, ["--matches", "2", "--duplicate"])])
def test_a_resumed_run_is_the_run_played_through(tmp_path, players, args):
    """A record cut anywhere (in the middle of a line, as a run killed while it wrote leaves
    it) goes on with --resume to the very record and numbers of the run played through: the
    groups it holds whole are read back from it, a group not whole is played again."""
    whole = tmp_path / "whole.jsonl"
    through = run("match", "heuristic", "random", "--players", players, *args, "--record",
                  whole, "--json")
    assert through.exit_code == 0, through.stderr
    data = whole.read_bytes()
    lines = data.splitlines(keepends=True)
    for cut in (0, len(lines[0]) // 2, len(b"".join(lines[:len(lines) // 2])) + 7, len(data)):
        cut_short = tmp_path / "cut.jsonl"
        cut_short.write_bytes(data[:cut])
        resumed = run("match", "heuristic", "random", "--players", players, *args,
                      "--record", cut_short, "--resume", "--json")
        assert resumed.exit_code == 0, resumed.stderr
        assert cut_short.read_bytes() == data
        found, expected = json.loads(resumed.stdout), json.loads(through.stdout)
        assert _without_times(found) == _without_times(expected)
        # the groups all of whose lines were whole before the cut
        group_of = [int(json.loads(line)["match"].split(":")[1]) for line in lines]
        whole_lines = data[:cut].count(b"\n")
        last_line = {g: i for i, g in enumerate(group_of)}
        assert found["resumed"] == sum(1 for g in set(group_of) if last_line[g] < whole_lines)
        if found["resumed"] == expected["groups"]:      # nothing played: no times to show
            assert all(t["decisions"] == 0 and t["median"] is None and t["p95"] is None
                       for t in found["times"].values())


@pytest.mark.parametrize("groups, words", [(1, "the first group"), (2, "the first 2 groups")])
def test_the_report_of_a_run_resumed_says_how_many_groups_were_read_back(tmp_path, groups,
                                                                          words):
    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 3, "--record", record).exit_code == 0
    lines = record.read_text().splitlines(keepends=True)
    record.write_text("".join(line for line in lines
                              if int(json.loads(line)["match"].split(":")[1]) < groups))
    resumed = run("match", "heuristic", "random", "--deals", 3, "--record", record, "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert f"resumed: {words} read back from the record" in resumed.stdout
    assert re.search(rf"3 deals \({words.split()[-2] if groups > 1 else 1} groups? read back "
                     rf"from the record, {3 - groups} played in \S+ \S+ wall\), 1 job",
                     " ".join(resumed.stdout.split()))


def test_a_run_every_group_of_which_is_read_back_times_no_decision(tmp_path):
    """Every group read back from the record, none played: the report's times were '0 µs' and
    its JSON's an empty object, where each player's are none: '—' and null."""
    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 3, "--record", record).exit_code == 0
    again = run("match", "heuristic", "random", "--deals", 3, "--record", record, "--resume")
    rows = [line.split() for line in again.stdout.splitlines()
            if line.startswith(("heuristic  ", "random  "))]
    assert [row[2:] for row in rows] == [["0", "—", "—"], ["0", "—", "—"]], again.stdout
    found = one(run("match", "heuristic", "random", "--deals", 3, "--record", record,
                    "--resume", "--json"))
    assert found["times"] == {
        name: {"decisions": 0, "median": None, "p95": None, "max": None, "total": 0.0,
               "cut_short": 0} for name in ("heuristic", "random")}


def test_an_interrupted_run_says_how_to_go_on(tmp_path):
    record = tmp_path / "run.jsonl"
    started = subprocess.Popen([str(PROGRAM), "match", "heuristic", "pimc", "--deals", "120",
                                "--record", str(record)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not record.exists() or record.stat().st_size == 0):
        time.sleep(0.05)
    started.send_signal(signal.SIGINT)
    out, err = started.communicate(timeout=60)
    assert started.returncode == 130, err
    go_on = re.search(r"^Go on: (.*)$", out, re.M)
    assert go_on and go_on[1] == (f"allfives match heuristic pimc --players 2 --deals 120 "
                                  f"--rules all-fives --seed 0 --record {record} --resume")
    done = int(re.search(r"these are the first (\d+) of the 120", out)[1])
    resumed = subprocess.run([str(PROGRAM), *go_on[1].split()[1:], "--json"],
                             capture_output=True, text=True, timeout=600)
    found = json.loads(resumed.stdout)
    assert found["resumed"] == done and found["groups"] == 120 and not found["interrupted"]


@pytest.mark.parametrize("args, fragments", [
    (["--deals", "6"], ["--resume: goes on from a run's --record FILE: give --record"]),
    ([], ["--resume: give the run's --deals N or --matches N"]),
    (["--deals", "6", "--record", "MISSING"], ["--resume: ", "is not there"]),
    (["--deals", "6", "--record", "LONG"], ["--resume: ", ": File name too long"]),
    (["--deals", "6", "--record", "/dev/null"],
     ["--resume: '/dev/null' is not a file: a run goes on only from a record written to a "
      "file"]),
    (["--deals", "6", "--seed", "3"], ["game '0:0:0': not a game of seed 3"]),
    (["--deals", "6", "--players", "4"], ["not a game of a 4-player run"]),
    (["--deals", "6", "--duplicate"], ["a run without --duplicate"]),
    (["--matches", "6"], ["a game of a run of deals (--deals), not of whole matches"]),
    (["--deals", "6", "--rules", "strict"],
     ["its rules are not the run's (preset all-fives, not strict; follow trump-anytime, not "
      "strict)"]),
    (["--deals", "3"], ["holds 6 deal groups, more than the 3 asked for"]),
    (["--deals", "5"], ["holds 6 deal groups, more than the 5 asked for"]),     # one more
])
def test_a_record_of_another_run_is_not_resumed(tmp_path, args, fragments):
    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 6, "--record", record).exit_code == 0
    before = record.read_bytes()
    args = [str(tmp_path / "missing.jsonl") if a == "MISSING" else
            str(tmp_path / ("a" * 300)) if a == "LONG" else a for a in args]
    if "--record" not in args and "give --record" not in fragments[0]:
        args += ["--record", record]
    assert_one_error_line(run("match", "heuristic", "random", *args, "--resume"), *fragments)
    assert record.read_bytes() == before
    swapped = run("match", "random", "heuristic", "--deals", 6, "--record", record, "--resume")
    assert_one_error_line(swapped, "its players are N heuristic, S random, not N random, "
                                   "S heuristic")


def test_a_record_is_held_to_the_cards_its_seed_deals(tmp_path):
    """The games read back are of the packs and first dealer the run's seed deals each group:
    another seed's games renamed, or a pack whose undealt cards were shuffled by hand, are
    refused in one line, the file left as it was."""
    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 6, "--seed", 1, "--duplicate",
               "--record", record).exit_code == 0
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]

    def resumed(changed: list[dict], seed: int) -> list[str]:
        path = tmp_path / "changed.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in changed), encoding="utf-8")
        before = path.read_bytes()
        result = run("match", "heuristic", "random", "--deals", 6, "--seed", seed,
                     "--duplicate", "--record", path, "--resume")
        assert path.read_bytes() == before
        return result

    renamed = [{**r, "match": "0" + r["match"][1:]} for r in lines]
    assert_one_error_line(resumed(renamed, 0), "changed.jsonl:1: game '0:0:0': ")
    assert resumed(lines, 1).exit_code == 0
    shuffled = [dict(r) for r in lines]
    pack = list(shuffled[2]["pack"])
    pack[-1], pack[-2] = pack[-2], pack[-1]        # (cards no seat was dealt)
    shuffled[2]["pack"] = pack
    assert_one_error_line(resumed(shuffled, 1), "changed.jsonl:3: game '1:1:0': deal 1: its "
                                                "pack is not the one seed 1 deals group 1")


def test_a_record_resumed_with_a_players_options_in_another_order(tmp_path):
    """The same player, its options written in another order, is the record's, and the games
    played on name it as the record does (they named it as the resumed run spelt it, so that
    replay found two players); another value is not."""
    record = tmp_path / "run.jsonl"
    spec = "pimc:worlds=2,time_limit=none,node_limit=2000"
    assert run("match", spec, "heuristic", "--deals", 4, "--record", record).exit_code == 0
    whole = record.read_text()
    record.write_text("".join(whole.splitlines(keepends=True)[:2]))
    again = run("match", "pimc:node_limit=2000,worlds=2,time_limit=none", "heuristic",
                "--deals", 4, "--record", record, "--resume", "--json")
    assert again.exit_code == 0, again.stderr
    found = json.loads(again.stdout)
    assert found["resumed"] == 2 and found["a"] == spec
    assert record.read_text() == whole
    assert {name for line in whole.splitlines()
            for name in json.loads(line)["players"].values()} == {spec, "heuristic"}
    other = run("match", "pimc:node_limit=3000,worlds=2,time_limit=none", "heuristic",
                "--deals", 4, "--record", record, "--resume")
    assert_one_error_line(other, "its players are N pimc:worlds=2,time_limit=none,"
                                 "node_limit=2000, S heuristic, not N pimc:node_limit=3000,")


def test_a_record_resumed_with_a_players_default_option_spelt_out(tmp_path):
    """An option given its default value (``infer=1``, ``win=true``) sets nothing the record's
    player did not have: the run goes on, naming the player as the record does; the option
    given another value is another player."""
    record = tmp_path / "run.jsonl"
    spec = "pimc:worlds=2,time_limit=none,node_limit=2000"
    assert run("match", spec, "heuristic", "--deals", 4, "--record", record).exit_code == 0
    whole = record.read_text()
    record.write_text("".join(whole.splitlines(keepends=True)[:2]))
    again = run("match", spec + ",infer=1,win=true,calls=heuristic", "heuristic", "--deals", 4,
                "--record", record, "--resume", "--json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["a"] == spec and record.read_text() == whole
    other = run("match", spec + ",infer=0", "heuristic", "--deals", 4, "--record", record,
                "--resume")
    assert_one_error_line(other, "its players are N pimc:worlds=2,time_limit=none,"
                                 "node_limit=2000, S heuristic, not N pimc:worlds=2,")


def test_a_record_line_that_is_not_json_is_named(tmp_path):
    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 4, "--record", record).exit_code == 0
    lines = record.read_text().splitlines(keepends=True)
    record.write_text("".join(lines[:2]) + "{garbage\n" + "".join(lines[2:]))
    assert_one_error_line(run("match", "heuristic", "random", "--deals", 4, "--record", record,
                              "--resume"), f"--resume: {record}:3: not JSON")
    # a line cut short and then ended: the column is the line's own, as replay says it (it
    # was 'column 1', of the line end taken for a line after it)
    cut = lines[2][:300]
    record.write_text("".join(lines[:2]) + cut + "\n" + "".join(lines[3:]))
    resumed = run("match", "heuristic", "random", "--deals", 4, "--record", record, "--resume")
    replayed = run("replay", record)
    column = re.search(r"at column (\d+)\)", replayed.stderr)
    assert column is not None and int(column[1]) > 200, replayed.stderr
    assert_one_error_line(resumed, f"--resume: {record}:3: not JSON", f"at column {column[1]})")


@pytest.mark.parametrize("text", [b"PNG\x89 a photo, no line end", b'{"deal": 1, "mat',
                                  b"\xef\xbb\xbfnot a record", b"x"])
def test_a_file_of_no_whole_line_that_is_no_record_is_not_written_over(tmp_path, text):
    """A last line not ended is taken as a record cut short by the run that stopped while it
    wrote it, and played again; a file whose only line does not begin as a record does was
    taken so too, and written over. It is refused, and left as it was."""
    path = tmp_path / "photo.png"
    path.write_bytes(text)
    assert_one_error_line(run("match", "heuristic", "random", "--deals", 4, "--record", path,
                              "--resume"), f"--resume: {path}:1: not a record")
    assert path.read_bytes() == text
    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 4, "--record", record).exit_code == 0
    whole = record.read_bytes()
    from solver.records import RECORD_START
    assert all(line.startswith(RECORD_START) for line in whole.splitlines())
    for cut in (1, 5, 30):      # a record's first line cut short is one, played again
        record.write_bytes(whole[:cut])
        result = run("match", "heuristic", "random", "--deals", 4, "--record", record,
                     "--resume")
        assert result.exit_code == 0, result.stderr
        assert record.read_bytes() == whole


def test_a_record_byte_that_is_not_utf8_is_named(tmp_path):
    """The record is read back a line at a time; a byte that is not UTF-8 is named by where it
    is in the file, and the record is left as it was."""
    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 4, "--record", record).exit_code == 0
    lines = record.read_bytes().splitlines(keepends=True)
    at = len(b"".join(lines[:2])) + 20
    data = b"".join(lines)
    record.write_bytes(data[:at] + b"\xff" + data[at + 1:])
    before = record.read_bytes()
    assert_one_error_line(run("match", "heuristic", "random", "--deals", 4, "--record", record,
                              "--resume"),
                          f"--resume: {record}: not UTF-8 text (line 3, byte {at})")
    assert record.read_bytes() == before


def test_a_record_is_emptied_only_once_the_work_can_start(tmp_path, monkeypatch):
    """A run that cannot start (here a scheduler that does not answer) leaves the record of
    an earlier run as it was; one that starts writes its own over it."""
    pytest.importorskip("distributed")
    monkeypatch.setattr("cli.workers.CONNECT_TIMEOUT", 1.0)
    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 4, "--record", record).exit_code == 0
    before = record.read_bytes()
    failed = run("match", "heuristic", "random", "--deals", 2, "--record", record,
                 "--scheduler", "tcp://127.0.0.1:1")
    assert failed.exit_code != 0 and record.read_bytes() == before
    assert run("match", "heuristic", "random", "--deals", 2, "--record", record).exit_code == 0
    assert record.read_bytes() == b"".join(before.splitlines(keepends=True)[:2])


def test_a_run_whose_groups_are_all_read_back_cuts_what_follows_them(tmp_path):
    """Resumed with no group left to play, nothing is written, and the cut made with the first
    chunk written was not made: a line cut short, or half a group, stayed after the groups."""
    record = tmp_path / "r.jsonl"
    assert run("match", "heuristic", "random", "--duplicate", "--deals", 6, "--record",
               record).exit_code == 0
    lines = record.read_bytes().splitlines(keepends=True)
    record.write_bytes(b"".join(lines[:9]) + lines[9][:20])     # 4 groups, half a 5th, a cut
    result = run("match", "heuristic", "random", "--duplicate", "--deals", 4, "--record",
                 record, "--resume")
    assert result.exit_code == 0, result.stderr
    assert record.read_bytes() == b"".join(lines[:8])
    assert run("replay", record).exit_code == 0


@pytest.mark.parametrize("stop", ["lost", "interrupt"])
def test_a_run_that_plays_no_group_leaves_the_record_as_it_was(tmp_path, monkeypatch, stop):
    """A cluster that has no workers for a minute, or Ctrl-C, before the first chunk is
    back: the record of an earlier run stays whole (it was emptied as the work began)."""
    from solver.errors import WorkersLost

    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 4, "--record", record).exit_code == 0
    before = record.read_bytes()

    def stopped(*args, **kwargs):
        raise WorkersLost("--scheduler: the cluster has had no workers for 60 s") \
            if stop == "lost" else KeyboardInterrupt

    monkeypatch.setattr("cli.matching._play_shown", stopped)
    for resume in ([], ["--resume"]):
        result = run("match", "heuristic", "random", "--deals", 6, "--record", record, *resume)
        assert result.exit_code != 0 and record.read_bytes() == before


@pytest.mark.skipif(sys.platform == "win32", reason="ulimit is a POSIX shell's")
def test_a_record_that_cannot_be_written_keeps_the_groups_before_it(tmp_path):
    """A file too large (a full disk) in the middle of a run: the report of the groups whose
    records were written, status 1, and a record of whole lines that --resume goes on from."""
    record = tmp_path / "run.jsonl"
    command = f"'{PROGRAM}' match heuristic random --deals 40 --duplicate --record '{record}'"
    done = subprocess.run(["bash", "-c", f"ulimit -f 20; {command}"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == \
        f"allfives: error: --record: {record}: File too large"
    kept = int(re.search(r"these are the first (\d+) of the 40", done.stdout)[1])
    data = record.read_bytes()
    assert data.endswith(b"\n") and len(data.splitlines()) == 2 * kept
    resumed = run("match", "heuristic", "random", "--deals", 40, "--duplicate", "--record",
                  record, "--resume", "--json")
    whole = tmp_path / "whole.jsonl"
    assert run("match", "heuristic", "random", "--deals", 40, "--duplicate", "--record",
               whole).exit_code == 0
    assert json.loads(resumed.stdout)["resumed"] == kept
    assert record.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("players, args, seats", [
    (3, ["--matches", "4"], (7, 5)), (3, ["--deals", "12"], (18, 18)),
    (3, ["--deals", "2", "--duplicate"], (18, 18)), (2, ["--deals", "5"], (5, 5)),
    (4, ["--deals", "3", "--duplicate"], (12, 12))])
def test_the_seats_each_player_held_and_an_uneven_share_is_said(players, args, seats):
    """Without --duplicate three players' seatings give A two seats in three of every six
    groups: over 4 groups (AAB, ABA, ABB, BAA) A held 7 seats and B 5, which the report says."""
    found = json.loads(run("match", "heuristic", "random", "--players", players, *args,
                           "--json").stdout)
    assert (found["seats"]["a"], found["seats"]["b"]) == seats
    report = run("match", "heuristic", "random", "--players", players, *args).stdout
    said = f"heuristic held {seats[0]} seats and random {seats[1]}"
    assert (said in " ".join(report.split())) == (seats[0] != seats[1])


def test_off_a_terminal_a_long_run_says_how_far_it_is(monkeypatch):
    """Under nohup or in a batch job's log there is no bar: a line on standard error now and
    then (here after every chunk but the last) says how many groups are done."""
    monkeypatch.setattr("cli.matching.PROGRESS_EVERY", 0.0)
    monkeypatch.setattr("cli.matching.chunk_size", lambda groups, workers, largest: 10)
    result = run("match", "heuristic", "random", "--deals", 40, "--json")
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert len(lines) == 3
    for done, line in zip((10, 20, 30), lines):
        assert re.fullmatch(rf"allfives match: {done} of 40 deal groups, \d+ s gone, about "
                            rf"\d+ s left", line), line
    monkeypatch.setattr("cli.matching.PROGRESS_EVERY", 60.0)
    assert run("match", "heuristic", "random", "--deals", 40, "--json").stderr == ""


def test_a_resumed_run_shares_out_the_groups_left(tmp_path, monkeypatch):
    """The chunks of a resumed run are cut for the groups still to play, not for the whole
    run (2,000 groups resumed at 1,900 on 8 workers were 4 chunks)."""
    import cli.matching as matching

    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 40, "--record", record).exit_code == 0
    kept = record.read_text().splitlines(keepends=True)
    record.write_text("".join(kept[:30]))
    asked = []
    real = matching.chunk_size
    monkeypatch.setattr(matching, "chunk_size",
                        lambda groups, workers, largest: asked.append(groups) or
                        real(groups, workers, largest))
    found = records(run("match", "heuristic", "random", "--deals", 40, "--record", record,
                        "--resume", "--json"))[0]
    assert asked == [40 - found["resumed"]] and found["resumed"] >= 25


@pytest.mark.parametrize("form", [["--json"], []], ids=["json", "report"])
def test_a_record_to_standard_output_is_refused(tmp_path, form):
    # the record's lines came out among the report's JSON, or its text (which replay refused)
    said = f"--record /dev/stdout: the report{' (--json)' if form else ''} goes there too (it " \
           f"is standard output), the record's lines would come among its lines: give the " \
           f"record a file"
    assert_one_error_line(run("match", "heuristic", "random", "--deals", 2, "--record",
                              "/dev/stdout", *form), said)
    done = subprocess.run([str(PROGRAM), "match", "heuristic", "random", "--deals", "2",
                           "--record", "/dev/stdout", *form], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert said in done.stderr


def test_jobs_count_the_cpus_this_process_may_use(monkeypatch):
    # taskset, or a batch system's share of a node: the process's affinity, not the machine
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {3}, raising=False)
    found = one(run("match", "heuristic", "random", "--deals", "1", "--jobs", "0", "--json"))
    assert found["jobs"] == 1
    assert_one_error_line(run("match", "heuristic", "random", "--deals", "1", "--jobs", "9"),
                          "--jobs: 9 worker processes is more than 8 (8 a CPU")


def test_a_record_another_run_is_writing_is_refused(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    path = tmp_path / "run.jsonl"
    path.write_text("", encoding="utf-8")
    with open(path, "a", encoding="utf-8") as other:      # the other run's
        fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        for extra in ([], ["--resume"]):
            assert_one_error_line(run("match", "heuristic", "random", "--deals", "2",
                                      "--record", path, *extra),
                                  f"--record: {path}: another run is writing this record")
    assert run("match", "heuristic", "random", "--deals", "2", "--record", path).exit_code == 0
    assert path.read_text(encoding="utf-8").count("\n") == 2     # one seating a group


def test_records_out_of_order_are_refused_not_cut_wrongly(tmp_path, monkeypatch):
    """Two lines swapped across the end of the groups read back (a game of a group not whole
    before one of a whole group): the file could not be cut after the groups, and the run
    ended with a game lost and another twice; it is refused, the file as it was.  A name
    like the start of a message keeps its place in the error, with the game's line."""
    monkeypatch.chdir(tmp_path)
    assert run("match", "heuristic", "random", "--deals", 40, "--duplicate", "--record",
               "full.jsonl").exit_code == 0
    lines = (tmp_path / "full.jsonl").read_bytes().splitlines(keepends=True)
    swapped = lines[:28] + [lines[29], lines[28]]
    record = tmp_path / "game"
    record.write_bytes(b"".join(swapped))
    assert_one_error_line(run("match", "heuristic", "random", "--deals", 40, "--duplicate",
                              "--record", "game", "--resume"),
                          "--resume: game:30: game '0:13:1': after a game of group 14, which "
                          "is not whole: the records are out of order")
    assert record.read_bytes() == b"".join(swapped)
    # a group's two seatings swapped, with later groups whole: out of order, not 'not whole'
    record.write_bytes(b"".join(lines[:20] + [lines[21], lines[20]] + lines[22:]))
    assert_one_error_line(run("match", "heuristic", "random", "--deals", 40, "--duplicate",
                              "--record", "game", "--resume"),
                          "--resume: game: group 10: its seatings are out of order (a run "
                          "writes them in turn)")
    # a byte-order mark is read as replay reads it
    for name, mark in (("plain.jsonl", b""), ("bom.jsonl", b"\xef\xbb\xbf")):
        (tmp_path / name).write_bytes(mark + b"".join(lines[:30]))
    found = [json.loads(run("match", "heuristic", "random", "--deals", 40, "--duplicate",
                            "--record", name, "--resume", "--json").stdout)
             for name in ("plain.jsonl", "bom.jsonl")]
    assert found[0]["resumed"] == found[1]["resumed"] > 10


def test_a_record_of_matches_to_another_target_says_so(tmp_path):
    record = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--matches", 2, "--target", 21,
               "--record", record).exit_code == 0
    again = run("match", "heuristic", "random", "--matches", 2, "--target", 31,
                "--record", record, "--resume")
    assert_one_error_line(again, "its rules are not the run's (target 21, not 31)")


def test_rule_options_over_the_preset_are_played_recorded_and_resumed(tmp_path):
    """--rules with options: the games are played under them (as the same rules given in
    Python), the record carries them, the command to reproduce spells them, the target among
    them is the match's, and --resume finds a record of other options."""
    from solver.rules import Rules

    record = tmp_path / "run.jsonl"
    found = one(run("match", "heuristic", "random", "--matches", 3, "--players", 3,
                    "--rules", "all-fives:target=21, skunk=true,low_to=captor",
                    "--record", record, "--json"))
    rules = Rules.preset("all-fives", target=21, skunk=True, low_to="captor")
    direct = run_matches("heuristic", "random", players=3, groups=3, seed=0, rules=rules,
                         rotate=True)
    assert found["deals"] == sum(m.deals for m in direct.matches)
    assert found["won"]["a"] == direct.won().successes
    assert found["target"] == 21 and found["rules"] == "all-fives:low_to=captor,skunk=true"
    assert found["command"].endswith("--rules all-fives:low_to=captor,skunk=true --target 21 "
                                     "--seed 0")
    lines = read_records(record.read_text(encoding="utf-8"))
    assert {Rules.from_options(line["rules"].pop("preset"), line["rules"]) for line in lines} \
        == {rules}
    again = run("match", "heuristic", "random", "--matches", 3, "--players", 3, "--target", 21,
                "--rules", "all-fives:low_to=holder,skunk=true", "--record", record, "--resume")
    assert_one_error_line(again, "its rules are not the run's (low_to captor, not holder)")


def test_a_script_that_runs_the_command_line_is_the_program_to_run_again(monkeypatch):
    from cli import matching

    monkeypatch.setattr(matching, "PROGRAM", ("python", "benchmarks/sighted.py"))
    plan = matching.make_plan("pimc", "heuristic", 4, 10, None, True, "all-fives", None, None,
                              None, None)
    assert plan.command().startswith("python benchmarks/sighted.py match pimc heuristic ")


@pytest.mark.parametrize("as_json", [True, False])
def test_ctrl_c_while_the_bootstrap_is_worked_out_keeps_the_report(monkeypatch, as_json):
    """Every group played, a Ctrl-C while the bootstrap interval is worked out (a while, for a
    large run) still gives the report, the bootstrap said not worked out, then status 130."""
    import cli.matching as matching

    whole_summary = matching.summary

    def stopped_in_bootstrap(*args, bootstrap=True, **options):
        if bootstrap:
            raise KeyboardInterrupt
        return whole_summary(*args, bootstrap=bootstrap, **options)

    monkeypatch.setattr(matching, "summary", stopped_in_bootstrap)
    result = run("match", "heuristic", "random", "--duplicate", "--deals", "30", "--seed", "2",
                 *(["--json"] if as_json else []))
    assert result.exit_code == 130
    assert "interrupted" in result.stderr
    if as_json:
        (found,) = records_of(result.stdout)
        assert found["groups"] == 30 and found["interrupted"] is False
        assert found["bootstrap"] is None and found["difference"]["low"] is not None
    else:
        assert "bootstrap: not worked out (the run was stopped)" in " ".join(result.stdout.split())
        assert "these are the first" not in result.stdout


def records_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("args", [["--deals"], ["--matches"]])
def test_the_wait_for_the_bootstrap_of_many_groups_is_said(monkeypatch, args):
    """After the last of 100,000 groups the bootstrap interval took some 50 s in silence (the
    progress had said "about 5 s left"); from NOTED_BOOTSTRAP groups a line says what the
    wait is for."""
    import cli.matching

    monkeypatch.setattr(cli.matching, "NOTED_BOOTSTRAP", 6)
    said = "allfives: working out the bootstrap interval over 6 deal groups"
    result = run("match", "heuristic", "random", *args, "6")
    assert result.exit_code == 0 and said in result.stderr
    fewer = run("match", "heuristic", "random", *args, "5")
    assert fewer.exit_code == 0 and "bootstrap" not in fewer.stderr


def test_a_cluster_is_handed_a_few_chunks_a_thread_at_a_time(monkeypatch):
    """gather handed a cluster every chunk at once (a million groups: 200,000 tasks); it keeps
    four a thread of its workers out, 64 at the least, the workers counted again as it goes."""
    import cli.workers as workers_module
    from cli.workers import FEWEST_IN_FLIGHT, WINDOW_AGE, Cluster

    class Client:
        def __init__(self, threads):
            self.threads = threads

        def get_executor(self):
            return None

        def nthreads(self, callback_timeout=None):
            if self.threads is None:
                raise OSError("the scheduler is gone")
            return self.threads

    assert Cluster(Client({"a": 2, "b": 30}), "v").window == 128
    assert Cluster(Client({}), "v").window == FEWEST_IN_FLIGHT == 64
    assert Cluster(Client(None), "v").window == 64
    # workers that join in the run: the scheduler is asked again after WINDOW_AGE seconds
    client = Client({"a": 2})
    cluster = Cluster(client, "v")
    clock = [100.0]
    monkeypatch.setattr(workers_module.time, "monotonic", lambda: clock[0])
    assert cluster.window == 64
    client.threads = {"a": 2, "b": 30, "c": 8}
    assert cluster.window == 64                 # (asked a moment ago)
    clock[0] += WINDOW_AGE
    assert cluster.window == 160
