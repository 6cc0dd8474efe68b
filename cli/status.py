"""A live line on standard error while a long search runs: elapsed time, nodes, and the bounds
on the value proved so far (or while a game record is read: the time).  Shown on a terminal
only, after about a second, and gone when the search ends; never in a pipe or with ``--json``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.live import Live
from rich.text import Text

from solver import clock
from solver.errors import without_controls

from .faces import QUIET

#: Seconds a search runs before the line appears: a quick solve shows nothing.
DELAY = 1.0

#: What the line reads: nodes so far and the bounds on the value, or None when unknown.
Progress = Callable[[], "tuple[int, int, int] | None"]


class _Line:
    """The line's text, read afresh at every refresh of the live display."""

    def __init__(self, what: str, progress: Progress | None) -> None:
        self.what = without_controls(what)  # (a file's name, say, as the messages write it)
        self.progress = progress
        self.start = clock.now()

    def __rich__(self) -> Text:
        elapsed = clock.now() - self.start
        if elapsed < DELAY:
            return Text()
        text = Text(f"{self.what}: {elapsed:.0f} s", style=QUIET)
        state = self.progress() if self.progress is not None else None
        if state is not None:
            nodes, lower, upper = state
            text.append(f", {nodes:,} nodes", style=QUIET)
            bounds = str(lower) if lower == upper else f"between {lower} and {upper}"
            text.append(f", value {bounds}", style=QUIET)
        return text


@contextmanager
def searching(console: Console, what: str, progress: Progress | None) -> Iterator[None]:
    """Show the live line on ``console`` (standard error) while the block runs, if it is a
    terminal; otherwise do nothing."""
    if not console.is_terminal:
        yield
        return
    from .console import cursor_back_when_stopped

    with cursor_back_when_stopped(), Live(_Line(what, progress), console=console,
                                          transient=True, refresh_per_second=4,
                                          redirect_stdout=False, redirect_stderr=False):
        yield


def reading(what: str, shown: bool = True):
    """``searching``'s line on standard error, with no progress but the time, while a file is
    read (a game record of thousands of deals is replayed by the rules: seconds); ``shown``:
    false for none (``--json``)."""
    from contextlib import nullcontext

    from .console import make_console

    return searching(make_console(None, stderr=True), what, None) if shown else nullcontext()
