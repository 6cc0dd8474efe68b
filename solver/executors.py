"""Work over any ``concurrent.futures.Executor``: in this thread, on worker processes, on a cluster.

``gather(executor, fn, calls)`` runs ``fn(*args)`` for each of ``calls`` and gives the results
in order, each handed to ``on_part`` as it comes back.  The executor may be a
``SerialExecutor()`` (the default: each call runs in the caller's thread when its result is
asked for), ``executor_for(jobs)``'s ``WorkerPool`` of worker processes on this machine, a
``ProcessPoolExecutor``, or Dask's ``distributed.Client(address).get_executor()`` (``pip install
allfives[cluster]``), whose chunks run through ``cluster_chunk``.

``solve_many(positions, executor, **solve_options)`` solves positions (``solver.search.solve``)
over an executor and gives the solutions in the order of the positions.

Interrupts
----------
When waiting for results is interrupted (Ctrl-C, or any exception), every future not yet started
is cancelled before the exception goes on; calls already running in a worker of another
executor finish there (``executor_for``'s workers are stopped at once, and a cluster's chunks
run by ``cluster_chunk`` stop at their next ``check_stop``, at each deal or solve, once Dask
lets go of them).  The chunks that came back before are not lost: ``on_part`` had each as it
came.  ``executor_for(jobs)`` makes the executor for a number of worker processes and,
leaving on an exception, shuts it down without waiting, cancelling what is queued, and on
Ctrl-C stops its worker processes at once.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import multiprocessing.pool
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future
from typing import Any

from .clock import count_stops
from .errors import AllFivesError, WorkersLost, quoted, whole
from .signals import hangup_signal, signals_held

__all__ = ["BatchError", "SerialExecutor", "WorkerPool", "executor_for", "gather",
           "usable_cpus", "solve_many", "cluster_chunk", "check_stop", "worker_version",
           "code_digest", "chunk_ranges", "DEFAULT_CHUNK"]

#: Deal groups (or matches' groups) per chunk of work by default.
DEFAULT_CHUNK = 25
#: The longest wait, in seconds, as a pool is stopped: for each of its processes to end once
#: killed, for its worker handler to see it is to stop, and for the tasks not read to be let go.
STOPPING_WAIT = 5.0


class BatchError(AllFivesError):
    """Bad arguments to a batch run: a count, a table size, a chunk size."""


# ---- executors ------------------------------------------------------------------------------


class _LazyFuture(Future):
    """A future that runs its call in the thread that first asks for its result."""

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
        super().__init__()
        self._call: tuple[Callable[..., Any], tuple, dict] | None = (fn, args, kwargs)

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

    #: ``gather`` hands it one call at a time: a million matches planned up front took 420 MB
    #: of calls waiting before the first was played.
    window = 1

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
    process group), and SIGTERM (and SIGHUP, where it is not ignored) ends the worker at once,
    whatever handler the parent had, as the parent's death does (``parent``: its process
    id).  The time a worker stands stopped (Ctrl-Z) is not counted in its decisions' times
    (``solver.clock``).  A worker that writes its result to a parent gone (killed as it
    finished its chunk, before it was seen gone) ends quietly by SIGPIPE, where the pool's
    worker printed two tracebacks of a broken pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    count_stops()
    hangup = hangup_signal()
    if hangup is not None:
        signal.signal(hangup, signal.SIG_DFL)       # (not the parent's handler, forked with it)
    if parent is not None:
        global _parent
        _parent = parent
        _die_with_parent(parent)


#: In a worker process, the process that made it (``_worker_signals``).
_parent: int | None = None


def _for_parent(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """``fn(*args, **kwargs)`` in a worker, its result sent back only while the parent is
    there: the pool's worker, writing it to a parent gone (killed, or hung up), printed two
    tracebacks of a broken pipe."""
    result = fn(*args, **kwargs)
    if _parent is not None and os.getppid() != _parent:
        os._exit(1)
    return result


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


def worker_context() -> Any:
    """How the worker processes are started: forked from this process on Linux, whatever the
    default (Python 3.14 made it the fork server there, whose children are not this process's
    own, so that each worker took this process for dead and ended at once: ``--jobs`` lost
    every worker); elsewhere the system's default (spawned on macOS, as children of this
    process too)."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


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
        context = worker_context()
        self._pool = pool = multiprocessing.pool.Pool.__new__(multiprocessing.pool.Pool)
        try:
            with signals_held():
                pool.__init__(workers, initializer=_worker_signals, initargs=(os.getpid(),),  # type: ignore[misc]
                              context=context)
        except BaseException as error:
            if hasattr(pool, "_terminate"):     # (made whole: a signal held came as it ended)
                self.shutdown(cancel_futures=True)
            else:
                _stop_half_made(pool)
            if isinstance(error, RuntimeError) and "can't start new thread" in str(error):
                raise MemoryError("no memory (or threads) left to start the worker "
                                  "processes' threads") from None
            raise
        self._seen = self.processes

    @property
    def window(self) -> int:
        """How many calls ``gather`` hands the pool at once: a few a worker."""
        return 4 * self.workers

    @property
    def processes(self) -> list:
        """The worker processes (for tests that check they are gone)."""
        return list(self._pool._pool)  # type: ignore[attr-defined]

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
        self._pool.apply_async(_for_parent, (fn, args, kwargs), callback=future.set_result,
                               error_callback=future.set_exception)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            self._free_queues()
            self._pool.terminate()
        else:
            self._pool.close()
        if wait or cancel_futures:
            self._pool.join()


    def _free_queues(self) -> None:
        """The workers killed, and a lock of the pool's queues that a dead one held let go.
        A worker waiting for work holds the lock of the queue of tasks the whole time, and one
        writing a result that of the queue of results; killed then (out of memory, or by a
        SIGTERM to the process group near the end of a run, when fewer chunks are left than
        workers), it never lets go, and ``Pool.terminate`` waits for the first lock (and puts
        to the second) before it stops anything: the run hung for ever."""
        # first the pool starts no more workers in dead ones' places (one forked as the others
        # are killed would take the lock, or die of terminate's SIGTERM in its initializer
        # with a traceback), nor sends more tasks; then none is left to hold a lock
        pool: Any = self._pool      # (its private parts, which are not typed)
        pool._worker_handler._state = pool._task_handler._state = multiprocessing.pool.TERMINATE
        for process in self.processes:
            if process.exitcode is None:
                process.kill()
        for process in self.processes:
            process.join(timeout=STOPPING_WAIT)
        for queue, lock in ((pool._inqueue, "_rlock"), (pool._outqueue, "_wlock")):
            held = getattr(queue, lock, None)
            if held is None:
                continue
            # a hold that lasts is a dead worker's (the pool's task sender, sending the
            # results' end, holds the second for a moment): let go of it, which any thread
            # may do with a process lock, so that one already waiting for it goes on too (a
            # new lock in its place left such a one waiting for ever)
            held.acquire(timeout=0.2)
            held.release()      # (ours, taken; or else the dead one's)
        # the tasks not read are let go, as bytes: a worker killed as it read one left the rest
        # of it in the queue, which terminate, reading on while the pool's task sender was
        # still there, took for a task (an EOFError); with the sender gone it reads nothing
        reader = pool._inqueue._reader.fileno()
        os.set_blocking(reader, False)
        try:
            deadline = time.monotonic() + STOPPING_WAIT
            while pool._task_handler.is_alive() and time.monotonic() < deadline:
                try:
                    while os.read(reader, 1 << 16):
                        pass
                except BlockingIOError:
                    time.sleep(0.01)
        finally:
            os.set_blocking(reader, True)


def _stop_half_made(pool: multiprocessing.pool.Pool) -> None:
    """The workers of a pool whose making failed after it forked them (a thread of its own
    that could not start, under a tight memory limit), killed: ``terminate`` needs a whole
    pool, and left running they held up the exit for ever, the pool's worker handler, if it
    had started, forking others in their places."""
    for name in ("_worker_handler", "_task_handler", "_result_handler"):
        handler = getattr(pool, name, None)
        if handler is not None:
            handler._state = multiprocessing.pool.TERMINATE
    handler = getattr(pool, "_worker_handler", None)
    if handler is not None and handler.is_alive():
        handler.join(timeout=STOPPING_WAIT)     # (it forks no more once it has seen TERMINATE)
    for process in getattr(pool, "_pool", ()):
        if process.exitcode is None:
            process.kill()
        process.join(timeout=STOPPING_WAIT)


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
    file, lets the rest go), and ``progress(done, total)`` called then (and every half second
    while it waits on an executor that can be ``check``ed: a stalled run is seen); on any
    exception while waiting (Ctrl-C too) the futures not started are cancelled and it goes on
    up.  An executor with a ``window`` (a
    ``WorkerPool``'s, a ``SerialExecutor``'s, ``cli.workers.Cluster``'s) is handed that many
    calls at once, and as each comes back as many more as keep that many out: the window is
    read again each time (a cluster's grows as workers join it)."""
    executor = executor if executor is not None else SerialExecutor()
    if not callable(getattr(executor, "submit", None)):
        raise BatchError(f"executor: {quoted(executor)} is not an executor (None, executor_for's, "
                         f"or Dask's get_executor())")
    for name, given in (("progress", progress), ("on_part", on_part)):
        if given is not None and not callable(given):
            raise BatchError(f"{name}: {quoted(given)} is not a function")
    futures: list[Future | None] = []
    # a pool of this machine's is handed a few calls a worker at a time, not all at once: a
    # run of a million matches had planned every chunk, its tasks held in the pool's queue
    # (850 MB, and seconds to stop)
    def top_up(back: int) -> None:
        """Calls handed until ``window`` are out beyond the ``back`` that came back."""
        window = getattr(executor, "window", None) or len(calls)
        while len(futures) < min(back + window, len(calls)):
            futures.append(executor.submit(fn, *calls[len(futures)]))

    try:
        top_up(0)
        out = []
        check = getattr(executor, "check", None)  # a pool's workers may die under their work
        for done in range(1, len(calls) + 1):
            future = futures[done - 1]
            assert future is not None
            while check is not None:
                try:
                    future.result(timeout=0.5)
                    break
                except TimeoutError:
                    check()
                    if progress is not None:    # (as it waits too: a stalled run says so)
                        progress(done - 1, len(calls))
            out.append(future.result())
            futures[done - 1] = None         # the result is held once, in out
            top_up(done)
            if on_part is not None:
                kept = on_part(out[-1])
                if kept is not None:
                    out[-1] = kept
            if progress is not None:
                progress(done, len(calls))
        return out
    except BaseException:
        for future in futures:
            if future is not None:
                future.cancel()
        raise


def chunk_ranges(count: int, size: int | None, first: int = 0) -> list[range]:
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


# ---- on a cluster ---------------------------------------------------------------------------


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

#: Seconds a thread may hold Python's lock while another waits for it, on a worker that runs
#: a chunk (``sys.setswitchinterval``; Python's own is 0.005).  The worker's messages share the
#: process, and the lock, with the chunk: at each of its steps the worker's thread waits this
#: long, so that at Python's interval a stopped run's chunk ran on for seconds (tens, on a
#: loaded machine) before the worker heard that it was stopped.
WORKER_SWITCH_INTERVAL = 0.0005


def check_stop() -> None:
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
    run stopped, its client gone), the chunk stops at its next deal, and a solve under way
    stops within a hundredth of a second or so (the engine asks), Dask having no way to stop a
    task midway.  On a Dask worker, Python's switch interval is made
    ``WORKER_SWITCH_INTERVAL`` for the worker's process, so that the worker hears soon."""
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
    if _chunk.stop is not None and sys.getswitchinterval() > WORKER_SWITCH_INTERVAL:
        sys.setswitchinterval(WORKER_SWITCH_INTERVAL)
    engine_checks(check_stop if _chunk.stop is not None else None)
    try:
        return fn(*args)
    finally:
        _chunk.stop = None
        engine_checks(None)


def engine_checks(check: Callable[[], None] | None) -> None:
    """The engine's searches in this thread call ``check`` as they go (``solver._search``'s
    ``set_stop_check``), so that a solve under way on a cluster's worker stops too, not only
    the chunk's next one; without the compiled engine, nothing."""
    try:
        from ._search import set_stop_check
    except ImportError:
        return
    set_stop_check(check)


# ---- many solves ----------------------------------------------------------------------------


def _solve_chunk(positions: Sequence[Any], options: Mapping[str, Any]) -> list[Any]:
    from .search import solve

    out = []
    for position in positions:
        check_stop()
        out.append(solve(position, **options))
    return out


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
             for r in chunk_ranges(len(items), chunk_size)]
    parts = gather(executor, _solve_chunk, calls, progress, on_part)
    return [s for part in parts for s in part]
