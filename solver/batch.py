"""Many games, or many solves, over any ``concurrent.futures.Executor``.

One game
--------
``play_match(players_by_seat, match, seed)`` plays a whole match (``solver.game``) with one player
per seat and gives a ``MatchResult``: the game records, the returns, the points each side pegged
in each deal, and the seconds each decision took, per player name.  ``play_deals(players_by_seat,
match, deals, packs=...)`` plays a fixed number of deals instead, from 0-0 with the target raised
to ``MAX_TARGET`` so that no deal ends a game (the unit of duplicate play).  The runner hands
each player its seat's ``Observation``, and an omniscient player (``cheater``) the state too
(``solver.players.decide``).

Duplicate play
--------------
``run_duplicate(a, b, players, groups, seed)`` compares two player kinds A and B on deal groups.
A *deal group* is a number of deals (``deals``, 1 by default) played from the same packs, in the
same order and with the same dealer, once for every *seating* of the two kinds:

* 2 players: A as N and B as S, then B as N and A as S.
* 4 players: A as the partners N+S and B as E+W, then the partnerships swapped.
* 3 players: every seating in which each kind takes at least one seat, each counted once: the
  2**3 - 2 = 6 assignments AAB, ABA, ABB, BAA, BAB, BBA of the seats N E S.  Every seat is A's
  in three of them and B's in three.

With ``rotate=True`` a group plays only one seating, seating ``group % len(seatings(players))``
of the list above (2 players: A as N in the even groups, as S in the odd; 4 players: A as N+S in
the even groups, as E+W in the odd; 3 players: the six seatings in turn): A and B take turns at
the seats from group to group, and every group is a fresh deal played once, not a duplicate.

A pack given to a seating is the same for every seating of the group (``deal_pack`` of a state
made with ``auto_deal=False``); a deal thrown in (too many runs) takes the next pack of the
group's stream, so seatings whose calls differ still deal from one stream.  The *points per deal*
of a side are the points it pegs in the deal (take-one, turned-up Jack, captures, end points).
In one seating A's points are the mean over A's seats of their side's points, and B's likewise;
the group's *paired difference* is A's points minus B's, averaged over the group's seatings (and
divided by ``deals``: a difference per deal).  ``DuplicateResult.interval()`` is the mean of the
differences over the groups with a paired t interval; ``bootstrap()`` resamples the groups.

``run_matches(a, b, players, groups, seed)`` plays whole matches the same way: every seating of a
group plays a match from the same seed (the same cut for the first dealer and the same stream of
packs).  A's share of a match is the share of its winning sides held by A (1 or 0; a win shared
between an A and a B side is one half); ``MatchesResult.won()`` is A's total share with a Wilson
interval that takes a group's matches together: its seatings are dealt the same cards, so their
results go together (mostly each seating is won by the side given the better cards).  With two
seatings a group is a pair, won both ways by A, by B, or split, and the interval is Bonett and
Price's for paired outcomes (``stats.grouped_share_interval``).

Seeds and executors
-------------------
Work goes out in chunks of consecutive deal groups.  Everything a group does is drawn from
``random.Random(f"{seed}:{group}")`` (its dealer and its packs) and from players made fresh for
every game, player P at seat S of seating K seeded ``f"{seed}:{group}:{K}:{S}"``; chunks are
gathered back in order.  A run therefore gives the same games and the same numbers whatever runs
it and however it is cut: ``SerialExecutor()`` (the default), threads, a
``ProcessPoolExecutor``, or Dask's ``distributed.Client(address).get_executor()`` (``pip install
allfives[cluster]``).  Only the decision times differ, and the games of a ``cheater`` whose solve
hits its time limit (see ``solver.players.CheaterPlayer``).

``solve_many(positions, executor, **solve_options)`` solves positions (``solver.search.solve``)
over an executor and gives the solutions in the order of the positions.

Interrupts
----------
When waiting for results is interrupted (Ctrl-C, or any exception), every future not yet started
is cancelled before the exception goes on; calls already running in a worker of another
executor finish there (``executor_for``'s workers are stopped at once, and a cluster's chunks
run by ``cluster_chunk`` stop at their next deal or solve once Dask lets go of them).
The chunks that came back before are not lost: ``on_part`` had
each as it came, and ``duplicate_result`` / ``matches_result`` make a result of them.  ``executor_for(jobs)`` makes the executor for a number of worker
processes and, leaving on an exception, shuts it down without waiting, cancelling what is
queued, and on Ctrl-C stops its worker processes at once.
"""

from __future__ import annotations

import contextlib
import itertools
import functools
import math
import multiprocessing
import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field, replace
from numbers import Integral
from typing import Any

from .cards import Card
from .errors import AllFivesError, WorkersLost, counted, quoted, seeded, whole
from .game import Match, MatchState, cut_for_deal
from .players import Player, decide
from .registry import PlayerSpec, player_spec
from .records import match_records, record_pairs, replayed_matches
from .rules import MAX_TARGET, Rules, option_text
from .shuffle import shuffled_pack
from .signals import signals_held
from .stats import Interval, Proportion, TimeSummary, bootstrap_interval, mean_interval, \
    grouped_share_interval, time_summary
from .tricks import seat_names, side_count, side_of

__all__ = ["BatchError", "SerialExecutor", "executor_for", "MatchResult",
           "play_match", "play_deals", "seatings", "GroupResult", "DuplicateResult",
           "run_duplicate", "duplicate_result", "MatchOutcome", "MatchesResult", "run_matches",
           "matches_result", "solve_many", "gather", "PackStream", "DEFAULT_CHUNK", "usable_cpus"]

#: Deal groups (or matches' groups) per chunk of work by default.
DEFAULT_CHUNK = 25


class BatchError(AllFivesError):
    """Bad arguments to a batch run: a count, a table size, a chunk size."""


# ---- executors ------------------------------------------------------------------------------


class _LazyFuture(Future):
    """A future that runs its call in the thread that first asks for its result."""

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
        super().__init__()
        self._call = (fn, args, kwargs)

    def result(self, timeout: float | None = None) -> Any:
        self._run()
        return super().result(timeout)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        self._run()
        return super().exception(timeout)

    def _run(self) -> None:
        if self._call is None or not self.set_running_or_notify_cancel():
            return
        fn, args, kwargs = self._call
        self._call = None
        try:
            value = fn(*args, **kwargs)
        except BaseException as error:  # noqa: BLE001 - handed to the caller, as executors do
            self.set_exception(error)
            if not isinstance(error, Exception):
                raise
        else:
            self.set_result(value)


class SerialExecutor(Executor):
    """An Executor that runs nothing in the background: each call runs in the caller's thread
    when its result is first asked for (so a run over it can be interrupted between calls)."""

    def __init__(self) -> None:
        self._shutdown = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        if self._shutdown:
            raise RuntimeError("cannot submit after shutdown")
        return _LazyFuture(fn, args, kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._shutdown = True


def _worker_signals(parent: int | None = None) -> None:
    """In a worker process: Ctrl-C is the parent's to handle (a terminal sends it to the whole
    process group), and SIGTERM ends the worker at once, whatever handler the parent had, as
    the parent's death does (``parent``: its process id)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if parent is not None:
        _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    """A worker ends itself once the process that made it is gone (a script stopped by
    SIGTERM, which runs no clean-up, would leave it playing its chunk out alone): a thread of
    the worker looks every second.  (Not Linux's PR_SET_PDEATHSIG, which fires when the
    *thread* that forked the worker ends: a pool forks the workers it adds from a thread of
    its own, which ends as the pool is stopped, and a worker killed so while it held the
    pool's queue left the pool's terminate waiting for ever.)"""
    if os.getppid() != parent:                  # the parent died before it was asked
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class WorkerPool(Executor):
    """An ``Executor`` over worker processes on this machine, which, unlike
    ``ProcessPoolExecutor``, can be stopped at once: ``shutdown(cancel_futures=True)`` (or
    leaving ``executor_for`` on an exception, Ctrl-C included) ends every worker where it is."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        # Ctrl-C (or SIGTERM) is held back while the workers are forked: one that reached a
        # worker before its initializer ignores it killed the worker, and one that stopped the
        # parent inside Pool() left a pool nothing could stop (the run then hung); a signal
        # held is acted on as the block ends, when the pool can be stopped
        try:
            with signals_held():
                self._pool = multiprocessing.get_context().Pool(
                    workers, initializer=_worker_signals, initargs=(os.getpid(),))
        except BaseException:
            if hasattr(self, "_pool"):
                self.shutdown(cancel_futures=True)
            raise
        self._seen = self.processes

    @property
    def processes(self) -> list:
        """The worker processes (for tests that check they are gone)."""
        return list(self._pool._pool)

    def check(self) -> None:
        """A ``WorkersLost`` if a worker process has died: the pool starts another, but the
        task the dead one held never comes back."""
        self._seen += [p for p in self.processes if p not in self._seen]
        dead = next((p for p in self._seen if p.exitcode not in (None, 0)), None)
        if dead is not None:
            raise WorkersLost(f"a worker process died (exit status {dead.exitcode}): the work "
                              f"it held is lost")

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        future.set_running_or_notify_cancel()
        self._pool.apply_async(fn, args, kwargs, callback=future.set_result,
                               error_callback=future.set_exception)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            self._pool.terminate()
        else:
            self._pool.close()
        if wait or cancel_futures:
            self._pool.join()


def usable_cpus() -> int:
    """The CPUs this process may run on: those of its affinity (``taskset``, a batch system's
    share of a node), not every CPU of the machine."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):    # no affinity on this system
        return os.cpu_count() or 1


@contextlib.contextmanager
def executor_for(jobs: int | None) -> Iterator[Executor]:
    """The executor for ``jobs`` worker processes: a ``SerialExecutor`` for 1 (or None), a
    ``WorkerPool(jobs)`` otherwise (0: one per CPU).  Leaving on an exception, Ctrl-C
    included, stops the workers at once; leaving normally lets them finish."""
    if jobs is None or jobs == 1:
        yield SerialExecutor()
        return
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise BatchError(f"jobs {quoted(jobs)} must be a whole number of workers (0: one per CPU)")
    pool = WorkerPool(jobs or usable_cpus())
    try:
        yield pool
    except BaseException:
        with _uninterrupted():      # (a second Ctrl-C would break into the workers' stopping)
            pool.shutdown(cancel_futures=True)
        raise
    pool.shutdown(wait=True)


@contextlib.contextmanager
def _uninterrupted() -> Iterator[None]:
    """Ctrl-C ignored while the block runs (in the main thread; elsewhere it never comes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)


def gather(executor: Executor | None, fn: Callable[..., Any], calls: Sequence[tuple],
            progress: Callable[[int, int], None] | None = None,
            on_part: Callable[[Any], Any] | None = None) -> list[Any]:
    """``fn(*args)`` for each of ``calls`` over ``executor``, results in order, each handed to
    ``on_part`` as it comes back (what ``on_part`` returns, if not None, is kept in the
    result's place: a caller that has taken what it needs, the games' records written to a
    file, lets the rest go); on any exception while waiting (Ctrl-C too) the futures not
    started are cancelled and it goes on up."""
    executor = executor if executor is not None else SerialExecutor()
    if not callable(getattr(executor, "submit", None)):
        raise BatchError(f"executor: {quoted(executor)} is not an executor (None, executor_for's, "
                         f"or Dask's get_executor())")
    for name, given in (("progress", progress), ("on_part", on_part)):
        if given is not None and not callable(given):
            raise BatchError(f"{name}: {quoted(given)} is not a function")
    futures: list[Future] = []
    try:
        for args in calls:
            futures.append(executor.submit(fn, *args))
        out = []
        check = getattr(executor, "check", None)  # a pool's workers may die under their work
        for done, future in enumerate(futures, 1):
            while check is not None:
                try:
                    future.result(timeout=0.5)
                    break
                except TimeoutError:
                    check()
            out.append(future.result())
            futures[done - 1] = None         # the result is held once, in out
            if on_part is not None:
                kept = on_part(out[-1])
                if kept is not None:
                    out[-1] = kept
            if progress is not None:
                progress(done, len(futures))
        return out
    except BaseException:
        for future in futures:
            if future is not None:
                future.cancel()
        raise


def _chunks(count: int, size: int | None, first: int = 0) -> list[range]:
    """Items ``first`` to ``count - 1`` in ranges of ``size``."""
    if whole(count) is None or count < 0:
        raise BatchError(f"{quoted(count)} is not a number of groups")
    size = DEFAULT_CHUNK if size is None else size
    if whole(size) is None or size < 1:
        raise BatchError(f"chunk size {quoted(size)} must be a whole number from 1")
    if whole(first) is None or not 0 <= first <= count:
        raise BatchError(f"first group {quoted(first)} must lie between 0 and {count}")
    count, size, first = int(count), int(size), int(first)
    return [range(start, min(count, start + size)) for start in range(first, count, size)]


# ---- one game -------------------------------------------------------------------------------


class PackStream:
    """Packs drawn one after another from ``random.Random(seed)``, each kept once drawn, so that
    several games can deal from one stream."""

    def __init__(self, seed: int | str | random.Random) -> None:
        self.rng = seed if isinstance(seed, random.Random) else seeded(seed)
        self.packs: list[list[Card]] = []

    def __getitem__(self, index: int) -> list[Card]:
        while len(self.packs) <= index:
            self.packs.append(shuffled_pack(self.rng))
        return self.packs[index]

    def __iter__(self) -> Iterator[list[Card]]:
        return (self[i] for i in itertools.count())


@dataclass(frozen=True)
class MatchResult:
    """What one game (a match, or a number of deals) left."""

    #: The records of every deal (``solver.records.match_records``), thrown-in deals too.
    records: tuple[dict[str, Any], ...]
    #: Per seat (``MatchState.returns``): all 0 for ``play_deals``, whose match goes on.
    returns: tuple[int, ...]
    #: The sides that won the match (none for ``play_deals``).
    winners: tuple[int, ...]
    score: tuple[int, ...]
    games_won: tuple[int, ...]
    #: For every deal played (thrown-in deals left out), the points each side pegged in it.
    deal_points: tuple[tuple[int, ...], ...]
    #: Seconds of each decision, per player name, in order (left out of comparisons).
    times: dict[str, tuple[float, ...]] = field(compare=False)
    #: Packs dealt, thrown-in deals included.
    packs: int = 0
    #: Per player name, the decisions its budget cut short (see ``_play``).
    cut_short: dict[str, int] = field(default_factory=dict, compare=False)

    @property
    def deals(self) -> int:
        return len(self.deal_points)

    def points(self) -> tuple[int, ...]:
        """The points each side pegged over every deal."""
        return tuple(map(sum, zip(*self.deal_points))) if self.deal_points else ()


def _labels(players: Sequence[Player], names: Sequence[str] | None, n: int) -> list[str]:
    if len(players) != n:
        raise BatchError(f"{len(players)} players for a {n}-player table")
    for seat, player in enumerate(players):
        if not callable(getattr(player, "act", None)):
            raise BatchError(f"seat {seat}: {quoted(player)} is not a player (a name or spec "
                             f"makes one: solver.registry.make_player)")
    labels = list(names) if names is not None else [getattr(p, "name", type(p).__name__)
                                                    for p in players]
    if len(labels) != n:
        raise BatchError(f"{len(labels)} names for a {n}-player table")
    return [str(label) for label in labels]


def _play(state: MatchState, players: Sequence[Player], labels: Sequence[str],
          packs: Iterator[Sequence[Card]] | None, deals: int | None
          ) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Play on; the seconds of each decision per label, and per label the decisions its
    player's budget cut short (``player.stopped`` counts them: a solve stopped by a limit, a
    world left out, no world solved at all)."""
    times: dict[str, list[float]] = {label: [] for label in labels}
    cut = dict.fromkeys(labels, 0)
    played = 0
    logged = 0
    clock = time.perf_counter
    while not state.is_terminal():
        if len(state.deals) > logged:
            played += sum(not log.thrown_in for log in state.deals[logged:])
            logged = len(state.deals)
            if deals is not None and played >= deals:
                break
        if state.is_chance_node():
            _check_stop()
            if packs is None:
                state.deal_pack()
            else:
                pack = next(packs, None)
                if pack is None:
                    raise BatchError(f"the packs ran out after {len(state.deals)} deals")
                state.deal_pack(pack)
            continue
        seat = state.current_player()
        stopped = getattr(players[seat], "stopped", 0)
        start = clock()
        action = decide(players[seat], state)
        times[labels[seat]].append(clock() - start)
        cut[labels[seat]] += getattr(players[seat], "stopped", 0) > stopped
        state.apply_action(action)
    return times, cut


def _result(state: MatchState, labels: Sequence[str],
            played: tuple[Mapping[str, list[float]], Mapping[str, int]],
            match_name: str | int, deals: int | None = None,
            records: bool = True) -> MatchResult:
    """What the game left; ``records``: with its records (not for a game read back)."""
    times, cut = played
    n = state.players
    names = dict(zip(seat_names(n), labels))
    logs = list(state.deals)
    written = match_records(state, match_name, names) if records else ()
    points = []
    for log in logs:
        if log.thrown_in:
            continue
        side_points = [0] * side_count(n)
        for peg in log.pegs:
            side_points[peg.side] += peg.points
        points.append(tuple(side_points))
    if deals is not None:
        points = points[:deals]
    return MatchResult(tuple(written), tuple(state.returns()), tuple(state.winners),
                       state.score, state.games_won, tuple(points),
                       {k: tuple(v) for k, v in times.items()}, len(logs), dict(cut))


def play_match(players_by_seat: Sequence[Player], match: Match, seed: int | str | None = None,
               *, names: Sequence[str] | None = None, dealer: int | None = None,
               packs: Iterable[Sequence[Card]] | None = None,
               match_name: str | int = "1") -> MatchResult:
    """Play a whole match: ``players_by_seat[s]`` at seat ``s``.  ``seed`` seeds the state
    (the cut for the first dealer, unless ``dealer`` is given, and every pack, unless ``packs``
    gives them in order).  ``names`` label the players in the records and the times (by
    default each player's ``name``)."""
    if not isinstance(match, Match):    # (play_deals takes Rules too: its target is raised)
        raise BatchError(f"{quoted(match)} is not a Match")
    labels = _labels(players_by_seat, names, match.players)
    state = match.new_initial_state(seed, dealer=dealer, auto_deal=packs is None)
    played = _play(state, players_by_seat, labels,
                   iter(packs) if packs is not None else None, None)
    return _result(state, labels, played, match_name)


def _deals_match(match: Match | Rules, players: int | None) -> Match:
    if isinstance(match, Rules):
        match = Match(players or 2, match)
    elif not isinstance(match, Match):
        raise BatchError(f"{quoted(match)} is not a Match or Rules")
    return replace(match, rules=match.rules.replace(target=MAX_TARGET), best_of=1)


def play_deals(players_by_seat: Sequence[Player], match: Match | Rules, deals: int = 1,
               seed: int | str | None = None, *, dealer: int = 0,
               packs: Iterable[Sequence[Card]] | None = None,
               names: Sequence[str] | None = None, match_name: str | int = "1") -> MatchResult:
    """Play ``deals`` deals (thrown-in deals not counted) from 0-0, the target raised to
    ``MAX_TARGET`` so that none ends a game; the first dealer is ``dealer`` and the deal passes
    to the left.  Packs come from ``packs`` in order, or else from ``random.Random(seed)``."""
    if whole(deals) is None or deals < 1:
        raise BatchError(f"{quoted(deals)} is not a number of deals")
    deals = int(deals)
    match = _deals_match(match, len(players_by_seat))
    labels = _labels(players_by_seat, names, match.players)
    stream = iter(packs) if packs is not None else iter(PackStream(seed))
    state = match.new_initial_state(seed, dealer=dealer, auto_deal=False)
    return _result(state, labels, _play(state, players_by_seat, labels, stream, deals),
                   match_name, deals)


# ---- duplicate ------------------------------------------------------------------------------


def seatings(players: int) -> list[tuple[int, ...]]:
    """The seatings of duplicate play: for each, the kind at every seat, 0 for A and 1 for B
    (see the module notes)."""
    seat_names(players)
    if players == 2:
        return [(0, 1), (1, 0)]
    if players == 4:
        return [(0, 1, 0, 1), (1, 0, 1, 0)]
    return [k for k in itertools.product((0, 1), repeat=3) if 0 < sum(k) < 3]


def _kind_points(kinds: Sequence[int], side_points: Sequence[int], n: int) -> tuple[float, float]:
    """A's and B's points in one seating: the mean over each kind's seats of its side's points."""
    totals = [0.0, 0.0]
    counts = [0, 0]
    for seat, kind in enumerate(kinds):
        totals[kind] += side_points[side_of(seat, n)]
        counts[kind] += 1
    return totals[0] / counts[0], totals[1] / counts[1]


def _same_player(recorded: str, label: str) -> bool:
    """Whether a record's player is the one labelled so: the same kind and options, in any
    order (``pimc:worlds=4,seed=1`` is ``pimc:seed=1,worlds=4``), and the same ``(A)`` or
    ``(B)`` where a run pits a kind against itself."""
    if recorded == label:
        return True
    one, two = labelled_spec(recorded), labelled_spec(label)
    return one is not None and two is not None and one[1] == two[1] and \
        same_spec(one[0], two[0])


def labelled_spec(name: object) -> tuple[PlayerSpec, str] | None:
    """A record's label of a player, ``pimc:worlds=4 (A)``: its spec and its mark (`` (A)``,
    `` (B)`` or none, ``""``); None where it names no player."""
    if not isinstance(name, str):
        return None
    spec, mark = re.fullmatch(r"(.*?)( \([AB]\))?", name, re.S).groups()
    try:
        return player_spec(spec), mark or ""
    except AllFivesError:
        return None


def same_spec(one: PlayerSpec, two: PlayerSpec) -> bool:
    """The same kind of player with the same options, written in any order."""
    return one.name == two.name and sorted(one.options) == sorted(two.options)


def _seated_words(players: dict[str, str]) -> str:
    """``N pimc:worlds=4, S heuristic``."""
    return ", ".join(f"{seat} {name}" for seat, name in players.items())


def _kind_labels(a: PlayerSpec, b: PlayerSpec) -> tuple[str, str]:
    if str(a) != str(b):
        return str(a), str(b)
    return f"{a} (A)", f"{b} (B)"


@dataclass(frozen=True)
class GroupResult:
    """One deal group: its dealer, and per seating the points each side pegged over its deals."""

    group: int
    dealer: int
    seatings: tuple[tuple[int, ...], ...]
    #: Per seating, the points of each side over the group's deals.
    side_points: tuple[tuple[int, ...], ...]
    #: Per seating, A's and B's points per deal (means over their seats).
    kind_points: tuple[tuple[float, float], ...]
    #: A's points minus B's per deal, averaged over the seatings.
    difference: float
    #: Seconds of each decision per player label (left out of comparisons: they vary by run).
    times: dict[str, tuple[float, ...]] = field(compare=False)
    #: Per seating, the games' records (``keep_records``), else empty.
    records: tuple[tuple[dict[str, Any], ...], ...] = ()
    #: Decisions cut short by the budget, per player label.
    cut_short: dict[str, int] = field(default_factory=dict, compare=False)


def _group_seatings(players: int, group: int, rotate: bool) -> list[tuple[int, tuple[int, ...]]]:
    """The seatings a group plays, each with its number in ``seatings(players)``: all of them,
    or with ``rotate`` only number ``group % len(seatings(players))``."""
    table = list(enumerate(seatings(players)))
    return [table[group % len(table)]] if rotate else table


def _group_cards(seed: int | str, group: int, players: int,
                 whole_matches: bool = False) -> tuple[int, PackStream]:
    """A deal group's first dealer and its packs, from ``seed`` and the group's number alone:
    of deals, the dealer drawn and the packs after it; of whole matches, as a match state
    seeded with ``f"{seed}:{group}"`` has them (the cut for the dealer, then a pack a deal)."""
    rng = random.Random(f"{seed}:{group}")
    if whole_matches:
        dealer = cut_for_deal(rng, players)[0]
    else:
        dealer = rng.randrange(players)
    return dealer, PackStream(rng)


def _play_group(a: PlayerSpec, b: PlayerSpec, match: Match, deals: int, seed: int | str,
                group: int, keep_records: bool, rotate: bool = False) -> GroupResult:
    n = match.players
    dealer, stream = _group_cards(seed, group, n)
    labels = _kind_labels(a, b)
    times: dict[str, list[float]] = {labels[0]: [], labels[1]: []}
    cut = dict.fromkeys(labels, 0)
    table = _group_seatings(n, group, rotate)
    side_points, kind_points, records = [], [], []
    for k, kinds in table:
        players = [(a, b)[kind].make(seed=f"{seed}:{group}:{k}:{seat}")
                   for seat, kind in enumerate(kinds)]
        result = play_deals(players, match, deals, dealer=dealer, packs=iter(stream),
                            names=[labels[kind] for kind in kinds],
                            match_name=f"{seed}:{group}:{k}")
        for label, seconds in result.times.items():
            times[label].extend(seconds)
            cut[label] += result.cut_short[label]
        points = result.points()
        side_points.append(points)
        pa, pb = _kind_points(kinds, points, n)
        kind_points.append((pa / deals, pb / deals))
        if keep_records:
            records.append(result.records)
    difference = math.fsum(pa - pb for pa, pb in kind_points) / len(kind_points)
    return GroupResult(group, dealer, tuple(kinds for _, kinds in table), tuple(side_points),
                       tuple(kind_points),
                       difference, {k: tuple(v) for k, v in times.items()}, tuple(records),
                       cut)


def _duplicate_chunk(a: PlayerSpec, b: PlayerSpec, match: Match, deals: int, seed: int | str,
                     groups: range, keep_records: bool,
                     rotate: bool = False) -> list[GroupResult]:
    return [_play_group(a, b, match, deals, seed, g, keep_records, rotate) for g in groups]


def _merge_times(parts: Iterable[Mapping[str, Sequence[float]]]) -> dict[str, tuple[float, ...]]:
    merged: dict[str, list[float]] = {}
    for part in parts:
        for label, seconds in part.items():
            merged.setdefault(label, []).extend(seconds)
    return {k: tuple(v) for k, v in merged.items()}


@dataclass(frozen=True)
class DuplicateResult:
    """A duplicate run: the groups in order, and what they add up to."""

    a: str
    b: str
    players: int
    deals: int
    seed: int | str
    groups: tuple[GroupResult, ...]
    seconds: float = field(default=0.0, compare=False)

    def differences(self) -> list[float]:
        """A's points minus B's per deal, one per group."""
        return [g.difference for g in self.groups]

    def interval(self, confidence: float = 0.95) -> Interval:
        """The mean paired difference per deal with its paired t interval."""
        return mean_interval(self.differences(), confidence)

    def bootstrap(self, confidence: float = 0.95, resamples: int = 2000,
                  seed: int | str = 0) -> Interval:
        """The same mean with a bootstrap interval (BCa) over the groups."""
        return bootstrap_interval(self.differences(), confidence, resamples, seed)

    def kind_means(self) -> tuple[float, float]:
        """A's and B's mean points per deal (not a number, NaN, with no group played)."""
        pairs = [kp for g in self.groups for kp in g.kind_points]
        if not pairs:
            return math.nan, math.nan
        return (math.fsum(p[0] for p in pairs) / len(pairs),
                math.fsum(p[1] for p in pairs) / len(pairs))

    def times(self) -> dict[str, tuple[float, ...]]:
        return _merge_times(g.times for g in self.groups)

    def time_summaries(self) -> dict[str, TimeSummary]:
        return {label: time_summary(seconds) for label, seconds in self.times().items()}

    def cut_short(self) -> dict[str, int]:
        """Decisions cut short by the budget, per player label."""
        return _merge_counts(g.cut_short for g in self.groups)


def _merge_counts(parts: Iterable[Mapping[str, int]]) -> dict[str, int]:
    merged: dict[str, int] = {}
    for part in parts:
        for label, count in part.items():
            merged[label] = merged.get(label, 0) + count
    return merged


def _check_table(players: int) -> int:
    if isinstance(players, bool) or not isinstance(players, Integral) or players not in (2, 3, 4):
        raise BatchError(f"a table has 2, 3 or 4 players, not {quoted(players)}")
    return int(players)


def _specs(a: str | PlayerSpec, b: str | PlayerSpec, players: int) -> tuple[PlayerSpec,
                                                                            PlayerSpec]:
    """A's and B's specs, each checked by making a player for the table (a bad option is
    found before any play)."""
    specs = player_spec(a), player_spec(b)
    table = _check_table(players)
    for spec in specs:
        spec.make(seed=0, players=table)
    return specs


def _match_for(players: int, rules: Rules | None, match: Match | None,
               best_of: int = 1) -> Match:
    if match is not None:
        if not isinstance(match, Match):
            raise BatchError(f"match: {quoted(match)} is not a Match")
        if match.players != players:
            raise BatchError(f"the match is for {match.players} players, not {players}")
        # the match holds its rules and its best of: given beside it they would go unused
        if rules is not None or best_of != 1:
            raise BatchError(f"{'rules' if rules is not None else 'best_of'}: given with "
                             f"match, which holds its own")
        return match
    return Match(players, rules if rules is not None else Rules(), best_of)


def run_duplicate(a: str | PlayerSpec, b: str | PlayerSpec, players: int = 2, groups: int = 100,
                  seed: int | str = 0, executor: Executor | None = None, *,
                  rules: Rules | None = None, match: Match | None = None, deals: int = 1,
                  chunk_size: int | None = None, keep_records: bool = False,
                  progress: Callable[[int, int], None] | None = None,
                  rotate: bool = False,
                  on_part: Callable[[list[GroupResult]], None] | None = None,
                  first: int = 0) -> DuplicateResult:
    """Duplicate play of A against B over ``groups`` deal groups of ``deals`` deals each (see
    the module notes), chunks of ``chunk_size`` groups sent to ``executor``.  ``progress(done,
    total)`` is called as each chunk comes back, in order, after ``on_part(chunk's groups)``
    (``duplicate_result`` makes a result of the chunks so far, as a run stopped early can
    report them).  With ``rotate`` each group plays one seating, in turn, instead of every
    seating.  ``first``: the groups before it are left out (played before: ``records_parts``
    gives them back from their records)."""
    players = _check_table(players)
    a, b = _specs(a, b, players)
    game = _deals_match(_match_for(players, rules, match), players)
    if whole(deals) is None or deals < 1:
        raise BatchError(f"{quoted(deals)} is not a number of deals")
    deals = int(deals)
    start = time.perf_counter()
    calls = [(a, b, game, deals, seed, chunk, keep_records, rotate)
             for chunk in _chunks(groups, chunk_size, first)]
    parts = gather(executor, _duplicate_chunk, calls, progress, on_part)
    return duplicate_result(a, b, players, deals, seed, parts, time.perf_counter() - start)


def duplicate_result(a: str | PlayerSpec, b: str | PlayerSpec, players: int, deals: int,
                     seed: int | str, parts: Iterable[Sequence[GroupResult]],
                     seconds: float = 0.0) -> DuplicateResult:
    """The ``DuplicateResult`` of the chunks of groups ``parts``, in order."""
    return DuplicateResult(str(a), str(b), players, deals, seed,
                           tuple(g for part in parts for g in part), seconds)


# ---- whole matches --------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchOutcome:
    """One match of a group: its seating, A's share of the win, and how it went."""

    group: int
    seating: tuple[int, ...]
    a_share: float
    winners: tuple[int, ...]
    score: tuple[int, ...]
    games_won: tuple[int, ...]
    deals: int
    records: tuple[dict[str, Any], ...] = ()


def _a_share(kinds: Sequence[int], winners: Sequence[int], n: int) -> float:
    if not winners:
        return 0.5
    held = sum(1 for side in winners
               if any(kind == 0 and side_of(seat, n) == side for seat, kind in enumerate(kinds)))
    return held / len(winners)


def _matches_chunk(a: PlayerSpec, b: PlayerSpec, match: Match, seed: int | str, groups: range,
                   keep_records: bool,
                   rotate: bool = False) -> list[tuple[list[MatchOutcome], dict, dict]]:
    out = []
    labels = _kind_labels(a, b)
    for group in groups:
        outcomes = []
        times: dict[str, list[float]] = {labels[0]: [], labels[1]: []}
        cut = dict.fromkeys(labels, 0)
        for k, kinds in _group_seatings(match.players, group, rotate):
            players = [(a, b)[kind].make(seed=f"{seed}:{group}:{k}:{seat}")
                       for seat, kind in enumerate(kinds)]
            result = play_match(players, match, f"{seed}:{group}",
                                names=[labels[kind] for kind in kinds],
                                match_name=f"{seed}:{group}:{k}")
            for label, seconds in result.times.items():
                times[label].extend(seconds)
                cut[label] += result.cut_short[label]
            outcomes.append(MatchOutcome(group, kinds,
                                         _a_share(kinds, result.winners, match.players),
                                         result.winners, result.score, result.games_won,
                                         result.deals, result.records if keep_records else ()))
        out.append((outcomes, times, cut))
    return out


@dataclass(frozen=True)
class MatchesResult:
    """Whole matches of A against B, every seating of every group."""

    a: str
    b: str
    players: int
    seed: int | str
    matches: tuple[MatchOutcome, ...]
    time_parts: tuple[dict[str, tuple[float, ...]], ...] = field(default=(), repr=False,
                                                                 compare=False)
    seconds: float = field(default=0.0, compare=False)
    #: Per group, the decisions cut short by the budget, per player label.
    cut_parts: tuple[dict[str, int], ...] = field(default=(), repr=False, compare=False)

    def won(self, confidence: float = 0.95) -> Proportion:
        """A's matches won (shared wins count their share) with an interval that takes the
        matches of a group (its seatings, dealt the same cards) together
        (``stats.grouped_share_interval``)."""
        return grouped_share_interval(list(self.group_shares().values()), confidence)

    def group_shares(self) -> dict[int, list[float]]:
        """A's share of each match, group by group, in the order of the group's seatings."""
        groups: dict[int, list[float]] = {}
        for m in self.matches:
            groups.setdefault(m.group, []).append(m.a_share)
        return groups

    def times(self) -> dict[str, tuple[float, ...]]:
        return _merge_times(self.time_parts)

    def cut_short(self) -> dict[str, int]:
        """Decisions cut short by the budget, per player label."""
        return _merge_counts(self.cut_parts)

    def time_summaries(self) -> dict[str, TimeSummary]:
        return {label: time_summary(seconds) for label, seconds in self.times().items()}


def run_matches(a: str | PlayerSpec, b: str | PlayerSpec, players: int = 2, groups: int = 100,
                seed: int | str = 0, executor: Executor | None = None, *,
                rules: Rules | None = None, match: Match | None = None, best_of: int = 1,
                chunk_size: int | None = None, keep_records: bool = False,
                progress: Callable[[int, int], None] | None = None,
                rotate: bool = False,
                on_part: Callable[[list], None] | None = None,
                first: int = 0) -> MatchesResult:
    """Whole matches of A against B: for each of ``groups`` groups, one match per seating, all
    from the seed ``f"{seed}:{group}"`` (see the module notes); with ``rotate`` one match per
    group, the seatings in turn.  ``progress``, ``on_part`` and ``first`` as for
    ``run_duplicate`` (``matches_result`` makes a result of the chunks so far)."""
    players = _check_table(players)
    a, b = _specs(a, b, players)
    game = _match_for(players, rules, match, best_of)
    start = time.perf_counter()
    calls = [(a, b, game, seed, chunk, keep_records, rotate)
             for chunk in _chunks(groups, DEFAULT_CHUNK // 5 if chunk_size is None
                                  else chunk_size, first)]
    parts = gather(executor, _matches_chunk, calls, progress, on_part)
    return matches_result(a, b, players, seed, parts, time.perf_counter() - start)


def matches_result(a: str | PlayerSpec, b: str | PlayerSpec, players: int, seed: int | str,
                   parts: Iterable[Sequence[tuple[list[MatchOutcome], dict, dict]]],
                   seconds: float = 0.0) -> MatchesResult:
    """The ``MatchesResult`` of the chunks of groups ``parts``, in order."""
    parts = list(parts)
    outcomes = tuple(m for part in parts for group, _, _ in part for m in group)
    times = tuple({k: tuple(v) for k, v in t.items()} for part in parts for _, t, _ in part)
    cut = tuple(dict(c) for part in parts for _, _, c in part)
    return MatchesResult(str(a), str(b), players, seed, outcomes, times, seconds, cut)


# ---- a run's records, read back ---------------------------------------------------------------


def records_parts(records: Iterable[Any], a: str | PlayerSpec,
                  b: str | PlayerSpec, players: int, seed: int | str, *,
                  rules: Rules | None = None, whole_matches: bool = False,
                  rotate: bool = False, deals: int = 1,
                  source: str | None = None) -> tuple[list, int, int]:
    """The groups a run's game records hold (as ``keep_records`` and ``allfives match
    --record`` write them), as one chunk of the run's parts, how many groups they are, and how
    many of the first records hold them: groups 0 to K - 1, each with every game it plays
    whole, checked against the run (``solver.records.replay_matches`` plays every game again).
    The groups' decision times are not in the records: they are left empty.  A record that
    does not belong to the run is a ``BatchError`` naming its game; one that does not replay,
    a ``RecordError`` naming ``source`` (and its line, records read by ``read_records``, or
    given as ``(line, record)`` pairs by ``numbered_records``: then they are read one match
    at a time, and only what each game scored is kept)."""
    a, b = _specs(a, b, players)
    if whole(deals) is None or deals < 1:
        raise BatchError(f"deals: {quoted(deals)} is not a whole number from 1")
    deals = int(deals)
    numbered = record_pairs(records)
    first = next(numbered, None)
    if first is None:
        return [[]], 0, 0
    labels = _kind_labels(a, b)
    game = _match_for(_check_table(players), rules, None)
    if not whole_matches:
        game = _deals_match(game, players)
    games: dict[int, list[tuple[int, MatchResult, bool, int]]] = {}
    order: list[tuple[int, str]] = []      # each game's group and name, as read
    dealers: dict[int, int] = {}
    for played in replayed_matches(itertools.chain([first], numbered), source):
        where = (f"{source}:{played.line}: " if source and played.line is not None else "") + \
            f"game {quoted(played.match)}"
        group, k = _run_game(played, where, seed, players, rotate, labels, game.rules,
                             whole_matches)
        kinds = seatings(players)[k]
        state = played.state
        result = _result(state, [labels[kind] for kind in kinds], ({}, {}), "",
                         deals if not whole_matches else None, records=False)
        dealt = sum(not log.thrown_in for log in state.deals)
        if not whole_matches and dealt > deals:
            raise BatchError(f"{where}: {counted(dealt, 'deal')} dealt, more than the run's "
                             f"{deals}")
        complete = state.is_terminal() if whole_matches else dealt == deals
        games.setdefault(group, []).append((k, result, complete, len(state.deals)))
        dealers.setdefault(group, state.deals[0].dealer)
        order.append((group, where))
    groups = _whole_groups(games, order, players, rotate)
    part = []
    for group in range(groups):
        table = _group_seatings(players, group, rotate)
        results = [game[1] for game in games[group]]
        no_times = {labels[0]: (), labels[1]: ()}
        no_cuts = dict.fromkeys(labels, 0)
        if whole_matches:
            part.append(([MatchOutcome(group, kinds, _a_share(kinds, r.winners, players),
                                       r.winners, r.score, r.games_won, r.deals)
                          for (_, kinds), r in zip(table, results)], no_times, no_cuts))
            continue
        kind_points = []
        for (_, kinds), r in zip(table, results):
            pa, pb = _kind_points(kinds, r.points(), players)
            kind_points.append((pa / deals, pb / deals))
        dealer = dealers[group]
        part.append(GroupResult(group, dealer, tuple(kinds for _, kinds in table),
                                tuple(r.points() for r in results), tuple(kind_points),
                                math.fsum(pa - pb for pa, pb in kind_points) / len(kind_points),
                                no_times, (), no_cuts))
    used = sum(game[3] for group in range(groups) for game in games[group])
    return [part], groups, used


def _whole_groups(games: dict[int, list], order: Sequence[tuple[int, str]], players: int,
                  rotate: bool) -> int:
    """How many groups, from the first, the records read back hold whole (every seating's
    game, each played to its end); ``games`` by group (seating first in each), ``order`` each
    game's group and name as read.  A ``BatchError`` where the records cannot be a run's:
    a group past one not whole, or a game of a whole group after one of a group not whole."""
    groups = 0
    while groups in games:
        expected = [k for k, _ in _group_seatings(players, groups, rotate)]
        if [game[0] for game in games[groups]] != expected or \
                not all(game[2] for game in games[groups]):
            break
        groups += 1
    if not rotate and all(len(games[g]) == 1 for g in games) and len(games) > 1:
        raise BatchError("a run without --duplicate: each group played in one seating")
    if set(games) - set(range(groups + 1)):
        played = games.get(groups, [])
        if sorted(game[0] for game in played) == \
                [k for k, _ in _group_seatings(players, groups, rotate)] \
                and all(game[2] for game in played):
            raise BatchError(f"group {groups}: its seatings are out of order (a run writes "
                             f"them in turn)")
        raise BatchError(f"group {min(set(games) - set(range(groups + 1)))} is in the records, "
                         f"but group {groups} is not whole")
    # the groups read back are the first records (a run writes them in order): a game of them
    # after one of a group not whole is out of order, and the file could not be cut after them
    later = next((i for i, (group, _) in enumerate(order) if group >= groups), len(order))
    stray = next((where for group, where in order[later:] if group < groups), None)
    if stray is not None:
        raise BatchError(f"{stray}: after a game of group {order[later][0]}, which is not "
                         f"whole: the records are out of order")
    return groups


def _run_game(played, where: str, seed: int | str, players: int, rotate: bool,
              labels: Sequence[str], rules: Rules, whole_matches: bool) -> tuple[int, int]:
    """A replayed game's group and seating, checked against the run whose records are read
    back (its seed, table, seatings, players and rules, and whether it plays deals or whole
    matches); a ``BatchError`` naming the game (``where``) if it is not the run's."""
    named = _game_name(played.match)
    if named is None or named[0] != str(seed):
        raise BatchError(f"{where}: not a game of seed {seed} (its name is "
                         f"SEED:GROUP:SEATING)")
    _, group, k = named
    if k >= len(seatings(players)) or played.state.players != players:
        raise BatchError(f"{where}: not a game of a {players}-player run")
    if k not in [k2 for k2, _ in _group_seatings(players, group, rotate)]:
        raise BatchError(f"{where}: a game of a run with --duplicate, every group played "
                         f"in every seating")
    kinds = seatings(players)[k]
    seated = {seat: labels[kind] for seat, kind in zip(seat_names(players), kinds)}
    if set(played.players) != set(seated) or not all(
            _same_player(played.players[seat], label) for seat, label in seated.items()):
        raise BatchError(f"{where}: its players are {_seated_words(played.players)}, not "
                         f"{_seated_words(seated)}")
    rules_played = played.state.match.rules
    if rules_played.target != rules.target and MAX_TARGET in (
            rules_played.target, rules.target) and \
            rules_played.replace(target=rules.target) == rules:
        raise BatchError(f"{where}: a game of a run of " + (
            "deals (--deals), not of whole matches" if whole_matches else
            "whole matches (--matches), not of deals"))
    if rules_played != rules:
        ours, theirs = rules.options(), rules_played.options()
        differ = [f"{name} {option_text(theirs[name])}, not {option_text(value)}"
                  for name, value in ours.items() if theirs.get(name) != value]
        if rules_played.preset_name != rules.preset_name:
            differ.insert(0, f"preset {rules_played.preset_name}, not "
                             f"{rules.preset_name}")
        raise BatchError(f"{where}: its rules are not the run's ({'; '.join(differ)})")
    dealer, packs = _group_cards(seed, group, players, whole_matches)
    deals = played.state.deals
    if deals and deals[0].dealer != dealer:
        names = seat_names(players)
        raise BatchError(f"{where}: its first dealer is {names[deals[0].dealer]}, where seed "
                         f"{seed} makes {names[dealer]} deal group {group} first")
    for number, log in enumerate(deals):
        if tuple(log.pack) != tuple(packs[number]):
            raise BatchError(f"{where}: deal {number + 1}: its pack is not the one seed {seed} "
                             f"deals group {group}")
    return group, k


def _game_name(name: Any) -> tuple[str, int, int] | None:
    """A run's game name ``SEED:GROUP:SEATING``: its seed as written, group and seating."""
    seed, group, seating = (str(name).split(":") + ["", ""])[:3]
    if str(name).count(":") != 2 or not group.isdigit() or not seating.isdigit():
        return None
    return seed, int(group), int(seating)


# ---- many solves ----------------------------------------------------------------------------


def _solve_chunk(positions: Sequence[Any], options: Mapping[str, Any]) -> list[Any]:
    from .search import solve

    out = []
    for position in positions:
        _check_stop()
        out.append(solve(position, **options))
    return out


def worker_version() -> str:
    """The allfives a worker process runs: its version, whether the compiled engine is there,
    and a digest of its code (``code_digest``: one version number may stand for other code),
    which a cluster's scheduler and workers are asked before any work is sent."""
    from . import __version__

    try:
        from . import search  # noqa: F401
        engine = "compiled engine"
    except ImportError:
        engine = "no compiled engine"
    return f"{__version__} ({engine}, code {code_digest()})"


@functools.lru_cache(maxsize=4)
def code_digest(package: str | None = None) -> str:
    """The first 12 hex digits of SHA-256 over the Python and Cython source files of this
    package (or of the folder ``package``), each with its path in it."""
    import hashlib
    from pathlib import Path

    root = Path(package or __file__).resolve()
    root = root if package else root.parent
    digest = hashlib.sha256()
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.pyx"), *root.rglob("*.pxd")]):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


#: The stop check of the chunk this thread runs (``cluster_chunk``).
_chunk = threading.local()


def _check_stop() -> None:
    """A ``WorkersLost`` where the run of the chunk this thread runs on a cluster was stopped
    (never outside ``cluster_chunk``); asked at each deal, and before each solve."""
    check = getattr(_chunk, "stop", None)
    if check is not None and check():
        raise WorkersLost("this chunk's run was stopped")


def _task_cancelled() -> Callable[[], bool] | None:
    """Whether Dask has let go of the task this thread runs on one of its workers (its run
    stopped: Ctrl-C, or its client gone, even killed); None off a Dask worker.  The worker's
    own state says it: no question goes to the scheduler."""
    try:
        from distributed import get_worker
        from distributed.worker import thread_state

        worker, key = get_worker(), thread_state.key
    except (ImportError, ValueError, AttributeError):
        return None

    def cancelled() -> bool:
        task = worker.state.tasks.get(key)      # (forgotten soon after it is cancelled)
        return task is None or task.state == "cancelled"

    return cancelled


def cluster_chunk(version: str, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` on a worker of a cluster: the worker must run the allfives ``version``
    (``worker_version``), else a ``WorkersLost`` names it (the workers are asked before any
    work goes out: this finds one that joined later); and where Dask lets go of the task (the
    run stopped, its client gone), the chunk stops at its next deal or solve, Dask having no
    way to stop a task midway."""
    found = worker_version()
    if found != version:
        try:
            from distributed import get_worker

            worker = get_worker().address
        except (ImportError, ValueError):
            worker = "a worker"
        raise WorkersLost(f"--scheduler: {worker}, which joined the run, runs allfives "
                          f"{found}, this is {version}: a cluster plays with the allfives its "
                          f"scheduler and workers run")
    _chunk.stop = _task_cancelled()
    try:
        return fn(*args)
    finally:
        _chunk.stop = None


#: What ``solver.search.solve`` takes beside the position, for ``solve_many``.
SOLVE_OPTIONS = ("side", "objective", "moves", "line", "node_limit", "time_limit", "fresh")


def solve_many(positions: Iterable[Any], executor: Executor | None = None, *,
               chunk_size: int = 1, progress: Callable[[int, int], None] | None = None,
               on_part: Callable[[list[Any]], Any] | None = None,
               **solve_options: Any) -> list[Any]:
    """``solver.search.solve(position, **solve_options)`` for every position, over
    ``executor`` (default: serial), in chunks of ``chunk_size``; the solutions in the order of
    the positions.  Each worker thread or process solves with its own table.  ``on_part``: as
    for ``gather``, each chunk's solutions handed on in order as they come back (what it
    returns, if not None, is kept in their place: ``()`` keeps nothing)."""
    if isinstance(positions, (str, bytes)) or not isinstance(positions, Iterable):
        raise AllFivesError(f"positions: {quoted(positions)} is not a list of positions")
    unknown = [key for key in solve_options if key not in SOLVE_OPTIONS]
    if unknown:
        raise AllFivesError(f"solve_many: no option {quoted(unknown[0])} (solve takes "
                            f"{', '.join(SOLVE_OPTIONS)})")
    items = list(positions)
    calls = [(items[r.start:r.stop], dict(solve_options))
             for r in _chunks(len(items), chunk_size)]
    parts = gather(executor, _solve_chunk, calls, progress, on_part)
    return [s for part in parts for s in part]
