"""A screen's worth: the first of several layouts of the same thing that fits the width."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement

#: A width no screen has, to measure a layout at its natural width.
UNBOUNDED = 10_000


class Fitted:
    """Renders the first of ``layouts`` whose natural width fits the screen (with ``wrapping``,
    whose narrowest width: a layout whose text may wrap), else the last (the narrowest)."""

    def __init__(self, *layouts: RenderableType, wrapping: bool = False) -> None:
        self.layouts, self.wrapping = layouts, wrapping

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        unbounded = options.update_width(UNBOUNDED)
        for layout in self.layouts[:-1]:
            measured = Measurement.get(console, unbounded, layout)
            if (measured.minimum if self.wrapping else measured.maximum) <= options.max_width:
                yield layout
                return
        yield self.layouts[-1]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.layouts[0])
