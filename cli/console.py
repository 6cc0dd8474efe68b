"""The Rich console the human output is printed on: coloured on a terminal, plain otherwise.

``--color`` forces colour (and the terminal's control codes) even into a pipe; ``--no-color``
prints no control codes at all, like a pipe does.  Rich is imported only here, and only when a
console is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def make_console(color: bool | None = None, stderr: bool = False) -> Console:
    """A console on standard output (or standard error).  ``color``: None decides by the
    terminal (and the ``NO_COLOR`` convention), True forces colour, False prints plain text."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:  # Rich's own exits with status 1
            self.quiet = True
            raise BrokenPipeError  # the CLI's boundary ends the run quietly, status 141

    options: dict = {"highlight": False, "markup": False, "emoji": False, "stderr": stderr}
    if color is True:
        options["force_terminal"] = True
    elif color is False:
        options["color_system"] = None
    return _Console(**options)


def can_show_suits(console: Console) -> bool:
    """Whether the console's encoding has the suit symbols (otherwise cards are spelled TH)."""
    return console.encoding.lower().replace("-", "").startswith("utf")
