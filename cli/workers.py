"""Where the work of a run goes: this machine's worker processes (``--jobs``) or an existing Dask
cluster (``--scheduler``), for ``allfives match``, ``solve`` and ``puzzle check``.  A cluster's
scheduler and workers are asked first which allfives they run; each chunk checks its worker
again, and stops at its next deal or solve once Dask lets go of it, the run stopped
(``solver.executors.cluster_chunk``).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from concurrent.futures import CancelledError, Executor
from contextlib import contextmanager

from solver.errors import AllFivesError, WorkersLost, quoted

from .errors import note

#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 5.0
#: Seconds a run waits on a cluster that has no worker left before it stops (its record keeps
#: the groups finished, for --resume once there are workers again), or on a scheduler that
#: does not answer (stopped, or cut off by the network with its connection left open).
NO_WORKERS_WAIT = 60.0

#: Worker processes a CPU at most (``--jobs``): more only share the same CPUs.
JOBS_PER_CPU = 8


def check_jobs(jobs: int | None) -> None:
    """``--jobs`` a number of worker processes this machine can start."""
    if jobs is None:
        return
    if jobs < 0:
        raise AllFivesError(f"--jobs: {quoted(jobs)} is not a number of worker processes")
    from solver.executors import usable_cpus

    limit = JOBS_PER_CPU * usable_cpus()
    if jobs > limit:
        raise AllFivesError(f"--jobs: {jobs} worker processes is more than {limit} "
                            f"({JOBS_PER_CPU} a CPU; --jobs 0 starts one a CPU)")


@contextmanager
def executor_of(jobs: int | None, scheduler: str | None) -> Iterator[Executor]:
    """The executor for ``--jobs J`` (1 or none: in this process, serially; 0: a process per
    CPU) or ``--scheduler ADDRESS`` (an existing Dask cluster); every worker process or
    connection is gone when it is left, on Ctrl-C too."""
    from solver.executors import executor_for

    if scheduler is None:
        check_jobs(jobs)
        with executor_for(jobs) as executor:
            yield executor
        return
    if jobs is not None:
        raise AllFivesError("--jobs and --scheduler: give one or the other (a cluster has "
                            "its own workers)")
    check_address(scheduler)
    try:
        import distributed
    except ImportError:
        raise AllFivesError("--scheduler: Dask's distributed is not installed (pip install "
                            "'.[cluster]' in the checkout)") from None
    client = _connect(distributed, scheduler)
    try:
        _check_workers(client, scheduler)
        yield Cluster(client)
    except (CancelledError, distributed.KilledWorker) as error:
        # the scheduler gone, or a chunk that kept killing its workers
        raise WorkersLost(f"--scheduler: the cluster lost the work: the scheduler went away, "
                          f"or a worker kept dying under it ({type(error).__name__})") from None
    finally:
        client.close(timeout=2)


def _check_workers(client, scheduler: str) -> None:
    """The cluster's scheduler and workers run this allfives, or one line says which do not: a
    scheduler without it failed the run in a traceback, a worker that cannot import it crashed
    on each chunk (the run then said 'no workers' after a minute), and one of another version
    would play other games.  A worker that joins later is found by its first chunk
    (``Cluster.submit``)."""
    from solver.executors import worker_version

    def asked(who: str, ask):
        try:
            return ask(worker_version)
        except Exception as error:  # noqa: BLE001 - raised over there: its words say what
            detail = " ".join(str(error).split())[:200] or type(error).__name__
            raise AllFivesError(f"--scheduler: {who} cannot run allfives "
                                f"({type(error).__name__}: {detail}); install it there as "
                                f"here") from None

    # (the scheduler unpickles the work as it comes: it needs allfives too)
    there = f"the scheduler {quoted(scheduler)}"
    found = {there: asked(there, client.run_on_scheduler)}
    found.update((f"the worker {worker}", version) for worker, version in
                 asked(f"a worker of {quoted(scheduler)}", client.run).items())
    mine = worker_version()
    other = next(((name, version) for name, version in sorted(found.items())
                  if version != mine), None)
    if other is not None:
        raise AllFivesError(f"--scheduler: {other[0]} runs allfives {other[1]}, this is {mine}: "
                            f"a cluster plays with the allfives its scheduler and workers run")


#: The fewest chunks kept out on a cluster (``Cluster.window``), whatever its workers.
FEWEST_IN_FLIGHT = 64

#: Seconds for which ``Cluster.window`` holds the scheduler's count of threads.
WINDOW_AGE = 1.0


class Cluster(Executor):
    """Dask's executor, with the ``check`` that ``solver.executors.gather`` makes while it waits:
    the scheduler gone (the client closed, or reconnecting for longer than it may), or no worker
    for ``NO_WORKERS_WAIT`` seconds, or no answer from the scheduler for as long, is a
    ``WorkersLost``; each time it is left with no worker, or without an answer, the run says so
    on standard error.  Each chunk checks first that its worker runs this
    allfives, and stops early when the run was stopped (``solver.executors.cluster_chunk``)."""

    def __init__(self, client, version: str | None = None) -> None:
        from solver.executors import worker_version

        self.client = client
        self.executor = client.get_executor()
        #: The allfives each chunk's worker must run (``solver.executors.cluster_chunk``).
        self.version = version or worker_version()
        self.since: dict[str, float] = {}      # what has been so since when: no link, no worker
        self.asked = 0.0
        self._window: tuple[float, int] | None = None     # (when asked, the window)

    @property
    def window(self) -> int:
        """How many chunks ``gather`` keeps out on the cluster: four for each thread of its
        workers, ``FEWEST_IN_FLIGHT`` at the least (a million groups had been handed over as
        200,000 tasks at once); the scheduler is asked again after ``WINDOW_AGE`` seconds, so
        that workers that join in the run get work too."""
        now = time.monotonic()
        if self._window is None or now - self._window[0] >= WINDOW_AGE:
            threads = self._threads()       # (none: check() says why as the run waits)
            self._window = (now, max(FEWEST_IN_FLIGHT, 4 * sum((threads or {}).values())))
        return self._window[1]

    def _threads(self) -> dict[str, int] | None:
        """Each worker's threads, as the scheduler counts them; None where it does not answer
        within ``CONNECT_TIMEOUT`` seconds (a scheduler stopped, or cut off by the network,
        leaves its connection open and never answers), or is gone."""
        try:
            return dict(self.client.nthreads(callback_timeout=CONNECT_TIMEOUT))
        except Exception:  # noqa: BLE001 - no answer, of whatever kind
            return None

    def submit(self, fn, /, *args, **kwargs):
        from functools import partial

        from solver.executors import cluster_chunk

        return self.executor.submit(cluster_chunk, self.version,
                                    partial(fn, **kwargs) if kwargs else fn, *args)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.executor.shutdown(wait=wait)       # (Dask's takes no cancel_futures)

    def check(self) -> None:
        now = time.monotonic()
        status = self.client.status
        if status in ("closing", "closed") or status != "running" and \
                now - self.since.setdefault("link", now) > CONNECT_TIMEOUT + 2:
            raise WorkersLost("--scheduler: the cluster lost the work: the scheduler went away")
        if status != "running":
            return
        self.since.pop("link", None)
        if now - self.asked < 2:
            return
        threads = self._threads()
        now = self.asked = time.monotonic()
        if threads is None:
            if "answer" not in self.since:
                note(f"the scheduler does not answer: waiting {NO_WORKERS_WAIT:g} s for it")
            if now - self.since.setdefault("answer", now) > NO_WORKERS_WAIT:
                raise WorkersLost(f"--scheduler: the scheduler has not answered for "
                                  f"{NO_WORKERS_WAIT:g} s")
            return
        self.since.pop("answer", None)
        if threads:
            self.since.pop("workers", None)
            return
        if "workers" not in self.since:
            note(f"the cluster has no workers: waiting {NO_WORKERS_WAIT:g} s for some")
        if now - self.since.setdefault("workers", now) > NO_WORKERS_WAIT:
            raise WorkersLost(f"--scheduler: the cluster has had no workers for "
                              f"{NO_WORKERS_WAIT:g} s")


def _connect(distributed, scheduler: str):
    """A client of the scheduler at ``scheduler``, or one line saying why not, within about
    ``CONNECT_TIMEOUT`` seconds: the connection is made in a thread of its own, so that a
    service that answers but is not a scheduler (one that never finishes the handshake) cannot
    hang the run, nor keep Ctrl-C waiting."""
    import logging
    import threading

    unreachable = _unreachable(scheduler)
    if unreachable:
        raise AllFivesError(f"--scheduler: cannot reach {quoted(scheduler)}: {unreachable}")
    # the client's own logging of a lost connection is tracebacks: the run says it in one line
    # (and tornado's, under it, of a callback that failed as the connection went)
    for name in ["distributed", "tornado", *logging.root.manager.loggerDict]:
        if name.startswith(("distributed", "tornado")):
            logging.getLogger(name).setLevel(logging.CRITICAL)
    made: list = []

    class Client(distributed.Client):
        def __del__(self) -> None:
            # a client the handshake left half-made would wait 10 s on its way out, and say
            # so in a traceback; one that connected is closed by executor_of
            if getattr(self, "status", None) == "running":
                super().__del__()

    lock = threading.Lock()

    def connect() -> None:
        outcome: object
        try:
            outcome = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except OSError as error:    # refused, timed out: nothing there to talk to
            outcome = error
        except Exception:           # noqa: BLE001 - it answered, but as something else
            # (its exception says little: a reply read as Dask's protocol is a MemoryError)
            outcome = AllFivesError(f"--scheduler: {quoted(scheduler)} answered, but not as a "
                                    f"Dask scheduler")
        with lock:
            if made:                # given up on: a client made too late is closed
                if isinstance(outcome, distributed.Client):
                    outcome.close(timeout=2)
                return
            made.append(outcome)

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(CONNECT_TIMEOUT + 2)
    with lock:
        if not made:
            made.append(None)       # given up on
            raise AllFivesError(f"--scheduler: {quoted(scheduler)} did not answer as a Dask "
                                f"scheduler within {CONNECT_TIMEOUT + 2:g} s")
    if isinstance(made[0], AllFivesError):
        raise made[0]
    if isinstance(made[0], Exception):
        # (Dask names its connection first: 'in <TCP (closed) local=... remote=...>: ...')
        detail = re.sub(r"^in <[^>]*>: ", "", " ".join(str(made[0]).split()))[:200] \
            or type(made[0]).__name__
        # (a connection closed at once: Dask's client says so, or tries again until its time
        # is up, by the load of the machine; a plain connection was made, _unreachable says)
        if "ConnectionResetError" in detail or "closed" in detail.lower() \
                or detail.startswith("Timed out trying to connect"):
            detail = f"it took the connection, but closed it, or did not answer as a Dask " \
                     f"scheduler within {CONNECT_TIMEOUT:g} s"
        raise AllFivesError(f"--scheduler: cannot reach {quoted(scheduler)}: {detail}")
    return made[0]


def _unreachable(scheduler: str) -> str | None:
    """Why nothing can be reached at ``scheduler``, where a plain connection tells at once
    (Dask's client tries for ``CONNECT_TIMEOUT`` and says it timed out, whatever the reason): no
    such host, or nothing listening.  None where something answers, or says nothing."""
    import socket

    host, port = _host_port(scheduler)
    try:
        socket.create_connection((host.strip("[]"), port), timeout=1).close()
    except socket.gaierror:
        return f"no host {quoted(host)} is known"
    except ConnectionRefusedError:
        return f"nothing listens on port {port} there (the connection was refused)"
    except OSError:
        pass
    return None


def _host_port(scheduler: str) -> tuple[str, int]:
    """``[tcp://]HOST:PORT`` parted, or one line saying it is no such address."""
    match = re.fullmatch(r"(?:tcp://)?(\[[^\]]+\]|[^\s:/\[\]]+):(\d{1,5})", scheduler)
    if match is None or not 1 <= int(match.group(2)) <= 65535:
        raise AllFivesError(f"--scheduler: {quoted(scheduler)} is not a scheduler's address "
                            f"([tcp://]HOST:PORT, the port from 1 to 65535, e.g. "
                            f"tcp://10.0.0.5:8786)")
    return match.group(1), int(match.group(2))


def check_address(scheduler: str) -> None:
    """A scheduler's address is ``[tcp://]HOST:PORT``: anything else is an error now, before a
    connection is tried (Dask's client, left half-made by an address it cannot use, would stall
    on its way out; other protocols need settings this command does not take)."""
    _host_port(scheduler)


def workers_for(jobs: int | None, left: int) -> int:
    """The worker processes a run starts: one in this process without --jobs, else --jobs (0:
    one a CPU this process may use), but never more than the work ``left`` (groups to play,
    files to check)."""
    from solver.executors import usable_cpus

    if jobs is None:
        return 1
    return max(1, min(jobs or usable_cpus(), left))


def chunk_size(groups: int, workers: int | None, largest: int) -> int:
    """Groups per chunk: at most ``largest``, and small enough for about four chunks per
    worker (a hundred in one process, for the progress bar); the results do not depend on it."""
    spread = 100 if workers == 1 else 4 * (workers or 8)
    return max(1, min(largest, math.ceil(groups / spread)))
