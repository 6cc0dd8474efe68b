"""Signals held back for a few lines that must be done whole: ``signals_held``."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["signals_held", "hangup_signal"]


def hangup_signal() -> int | None:
    """SIGHUP (a terminal or session closed), where the system has it and it is not ignored
    (``nohup`` ignores it, and it is left so); else None."""
    hangup = getattr(signal, "SIGHUP", None)
    if hangup is None or signal.getsignal(hangup) is signal.SIG_IGN:
        return None
    return hangup


@contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held back for the block (a few lines that must be done
    whole, as a chunk's records written and the chunk counted, or a pool's workers forked),
    and acted on as it ends, by the handlers there were.  Python runs signal handlers in the main thread only,
    whichever thread the signal reaches; elsewhere the block runs as it is.  A process forked
    in the block keeps the holding handler until it sets its own.  Each signal held is acted
    on once, in the order it came (a SIGTERM and a Ctrl-C: both handlers run)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held: list[int] = [signal.SIGINT, signal.SIGTERM]
    hangup = hangup_signal()
    if hangup is not None:
        held.append(hangup)
    before = {signum: signal.signal(signum, lambda signum, frame: caught.append(signum))
              for signum in held}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(caught):     # (a handler that raises ends the rest)
            handler = before[signum]
            if callable(handler):
                handler(signum, None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), signum)
