"""Working time: the time a process was not stopped.

A program stopped with Ctrl-Z (SIGTSTP) and taken up again with ``fg`` would otherwise count
the time it stood still as time worked: a decision under way would find its budget spent and be
cut short, and the times a run reports (a decision's, a solve's, the run's) would hold the
pause.  With ``count_stops`` the process stops itself on SIGTSTP by the default action, as it
would have, and on ``fg`` leaves the time it stood still out of ``now()`` (a
``time.perf_counter`` reading less the stopped time) and out of the clock the engine keeps its
time limits by.  Without it (a library caller, a thread), ``now()`` is ``time.perf_counter()``.
A stop that cannot be caught (SIGSTOP) still counts.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["now", "count_stops", "when_stopped"]

_stopped = 0.0
#: What to do before the process stops and after it goes on (``when_stopped``), in order.
_hooks: list[tuple[Callable[[], None], Callable[[], None]]] = []


def now() -> float:
    """Seconds on ``time.perf_counter``'s clock, less those the process was stopped."""
    return time.perf_counter() - _stopped


def _stop_signal() -> int | None:
    """SIGTSTP, where this thread may catch it: the main thread, on a system with job control,
    the signal not ignored; else None."""
    stop = getattr(signal, "SIGTSTP", None)
    if stop is None or threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(stop) is signal.SIG_IGN:
        return None
    return stop


def count_stops() -> bool:
    """From now on, in this process, leave the time it is stopped by SIGTSTP (Ctrl-Z) out of
    ``now()``; whether it could (from the main thread, where the system has job control and the
    signal is not ignored).  In a process forked from one that counted, the parent's
    ``when_stopped`` hooks are dropped."""
    stop = _stop_signal()
    _hooks.clear()
    if stop is None:
        return False
    signal.signal(stop, _stopped_here)
    return True


def _stopped_here(signum: int, frame: object) -> None:
    """SIGTSTP: the hooks, the stop itself (the default action), and once taken up again the
    time it stood still counted."""
    global _stopped
    for before, _ in list(_hooks):
        before()
    start = time.perf_counter()
    signal.signal(signum, signal.SIG_DFL)
    try:
        os.kill(os.getpid(), signum)        # stopped here until fg
    finally:
        signal.signal(signum, _stopped_here)
    gone = time.perf_counter() - start
    _stopped += gone
    engine = sys.modules.get("solver._search")      # (loaded on first use)
    if engine is not None:
        engine.add_stopped(gone)
    for _, after in reversed(list(_hooks)):
        after()


@contextmanager
def when_stopped(before: Callable[[], None], after: Callable[[], None]) -> Iterator[None]:
    """For the block: ``before()`` as the process stops (SIGTSTP) and ``after()`` as it goes
    on (the stop counted for the block, where ``count_stops`` was not called).  Outside the
    main thread, without job control or with SIGTSTP ignored the block runs as it is."""
    stop = _stop_signal()
    if stop is None:
        yield
        return
    hooks = (before, after)
    _hooks.append(hooks)
    handler = signal.signal(stop, _stopped_here)
    try:
        yield
    finally:
        _hooks.remove(hooks)
        signal.signal(stop, handler)
