"""The Rich console the human output is printed on: coloured on a terminal, plain otherwise.

``--color`` forces colour (and the terminal's control codes) even into a pipe; ``--no-color``
prints no control codes at all, like a pipe does.  The consoles on standard error carry only
live lines (a search's status, a progress bar), which show on a terminal alone, whatever
``--color`` says.  Rich is imported only here, and only when a
console is made.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from solver.clock import when_stopped

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType

    from rich.console import Console


_TRAILING_SPACES = re.compile(r"[ \t]+(?=\n)")
#: The narrowest width ``COLUMNS`` sets that is used: below it (0 even) the terminal's own
#: width is, or 80 (``DEFAULT_WIDTH``) off a terminal.
NARROWEST = 20
DEFAULT_WIDTH = 80


def make_console(color: bool | None = None, stderr: bool = False) -> Console:
    """A console on standard output (or standard error).  ``color``: None decides by the
    terminal (and the ``NO_COLOR`` convention), True forces colour, False prints plain text."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:  # Rich's own exits with status 1
            self.quiet = True
            raise BrokenPipeError  # the CLI's boundary ends the run quietly, status 141

        def _render_buffer(self, buffer):  # type: ignore[no-untyped-def]
            # plain text into a file or pipe carries no spaces at the ends of its lines (the
            # padding of Rich's tables and columns); on a terminal they may clear what a live
            # line showed before, and coloured they may carry a background
            text = super()._render_buffer(buffer)
            if self.color_system is None and not self.is_terminal:
                text = _TRAILING_SPACES.sub("", text)
            return text

    options: dict = {"highlight": False, "markup": False, "emoji": False, "stderr": stderr}
    if stderr and not on_terminal(sys.stderr):
        # its live lines and bars show on a terminal alone: not into a file under
        # FORCE_COLOR (or TTY_COMPATIBLE), which Rich takes for a terminal
        options["force_terminal"] = False
    elif color is True or color is None and os.environ.get("FORCE_COLOR"):
        if color is True:
            # asked for: over NO_COLOR too, as the convention has a flag overrule it
            options["force_terminal"], options["no_color"] = True, False
        if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
            options["color_system"] = "standard"    # (asked for: Rich gives such a one none)
    if color is False:
        options["color_system"] = None
    console = _Console(**options)
    width = width_instead(sys.stderr if stderr else sys.stdout)
    if width is not None:
        console.width = width
    return console


#: Signals whose default action ends the program at once, without Python's clean-up
#: (SIGQUIT is Ctrl-backslash): under a live line or a bar the cursor is shown again first.
ENDING_SIGNALS = ("SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM")


@contextlib.contextmanager
def cursor_back_when_stopped() -> Iterator[None]:
    """While the block shows a live line or a bar (which hide the terminal's cursor): Ctrl-Z
    (SIGTSTP) shows the cursor again before the program stops, and ``fg`` hides it again (the
    shell's prompt was left without one); a signal of ``ENDING_SIGNALS`` that would end the
    program where it is shows it again before it does (where the signal is not ignored or
    handled otherwise).  Not at a prompt: line editing handles Ctrl-Z."""
    if not on_terminal(sys.stderr):
        yield
        return
    ending: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}
    if threading.current_thread() is threading.main_thread():
        for name in ENDING_SIGNALS:
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
                ending[signum] = signal.signal(signum, _ended_by)
    try:
        with when_stopped(lambda: _control("\x1b[?25h"), lambda: _control("\x1b[?25l")):
            yield
    finally:
        for signum, handler in ending.items():
            signal.signal(signum, handler)


def _ended_by(signum: int, frame: object) -> None:
    """The cursor shown, then the signal's own default action: the program ends as it would
    have (a core dump of SIGQUIT, the status of the signal)."""
    _control("\x1b[?25h")
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _control(code: str) -> None:
    try:
        sys.stderr.write(code)
        sys.stderr.flush()
    except (OSError, ValueError):       # (the terminal gone)
        pass


def on_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal (not when closed, or none at all)."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):        # (none, or closed)
        return False


def width_instead(stream) -> int | None:
    """Where ``COLUMNS`` sets a width too narrow to print on (below ``NARROWEST``: 0 printed
    nothing at all, 1 a letter a line), the width to print ``stream`` at instead: its
    terminal's own, or 80 off a terminal; else None (the width is the console's to find)."""
    try:
        if int(os.environ.get("COLUMNS", NARROWEST)) >= NARROWEST:
            return None
    except ValueError:      # (not a number: no console reads it)
        return None
    try:
        return os.get_terminal_size(stream.fileno()).columns or DEFAULT_WIDTH
    except (AttributeError, ValueError, OSError):   # (no terminal, or a stream without a file)
        return DEFAULT_WIDTH


def can_show_suits(console: Console) -> bool:
    """Whether the console's encoding has the suit symbols (otherwise cards are spelled TH)."""
    return console.encoding.lower().replace("-", "").startswith("utf")
