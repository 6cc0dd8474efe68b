"""``allfives bench``: the engine timed on the seeded deal classes, with a progress bar on
stderr and a table (or one JSON object per class) on stdout."""

from __future__ import annotations

from contextlib import nullcontext

import typer

from solver import clock
from solver.benchmark import CLASSES
from solver.errors import AllFivesError, counted, quoted
from solver.timing import DEFAULT_CLASSES, ClassTiming, time_class, will_time_dds


def class_names(given: list[str] | None) -> list[str]:
    """The classes asked for (``--class`` repeated, or comma-separated), known ones only, each
    once in the order first named."""
    if not given:
        return list(DEFAULT_CLASSES)
    expected = f"(expected one of {', '.join(CLASSES)})"
    for word in given:
        named = [n.strip() for n in word.split(",")]
        if not any(named):
            raise AllFivesError(f"--class: no deal class named {expected}")
        if not all(named):
            raise AllFivesError(f"--class {quoted(word)}: a deal class is missing between "
                                f"commas {expected}")
    names = list(dict.fromkeys(n.strip() for word in given for n in word.split(",")))
    for name in names:
        if name not in CLASSES:
            raise AllFivesError(f"--class: unknown deal class {quoted(name)} {expected}")
    return names


def seconds_words(seconds: float | None, pretty: bool = True) -> str:
    if seconds is None:
        return ""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} {'µs' if pretty else 'us'}"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def seconds_short(seconds: float | None, pretty: bool = True) -> str:
    """``seconds`` to three figures, at most 7 characters (``812 µs``, ``12.3 ms``, ``1.23 s``):
    the bench table's columns keep one width, so that its header fits 80 columns whatever the
    times."""
    if seconds is None:
        return ""
    for unit, size in (("s", 1.0), ("ms", 1e-3), ("µs" if pretty else "us", 1e-6)):
        value = float(f"{seconds / size:.3g}")     # (rounded first: 0.9996 s is 1.00 s)
        if value >= 1 or size == 1e-6:
            break
    figures = 0 if value >= 100 else 1 if value >= 10 else 2
    return f"{value:.{figures}f} {unit}"


def rate_words(per_second: float) -> str:
    for size, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= size:
            return f"{per_second / size:.2f} {unit}"
    return f"{per_second:.0f}"


def ratio_words(ratio: float) -> str:
    """``26.7x``; below 1, two places (``0.04x``: one showed 0.0x), and below a hundredth
    ``<0.01x``."""
    return f"{ratio:.1f}x" if ratio >= 0.95 else f"{ratio:.2f}x" if ratio >= 0.01 else "<0.01x"


def bench_table(timings: list[ClassTiming], pretty: bool):
    from .report import table

    dds = any(t.dds_seconds for t in timings)
    columns = ["class", "deals", "median", "p90", "p99", "median nodes"]
    if dds:
        columns += ["DDS median", "vs DDS"]
    grid = table(*columns, right=tuple(range(1, len(columns))))
    grid.collapse_padding = True    # (two spaces between columns: 80 columns hold every class)
    for t in timings:
        row = [t.name, str(t.count), seconds_short(t.median, pretty),
               seconds_short(t.p90, pretty), seconds_short(t.p99, pretty),
               f"{t.median_nodes:,}" if t.median_nodes < 100_000 else rate_words(t.median_nodes)]
        if dds:
            row += [seconds_short(t.dds_median, pretty),
                    ratio_words(t.dds_ratio) if t.dds_ratio is not None else ""]
        grid.add_row(*row)
    return grid


def bench_command(given: list[str] | None, count: int, json: bool, color: bool | None) -> None:
    names = class_names(given)
    if json:
        from .records import timing_record
        for name in names:
            typer.echo(timing_record(time_class(name, count, dds=True)))
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
        TimeElapsedColumn
    from rich.text import Text

    from .console import can_show_suits, cursor_back_when_stopped, make_console

    console = make_console(color)
    pretty = can_show_suits(console)
    errors = make_console(color, stderr=True)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=errors, transient=True,
                        get_time=clock.now,
                        disable=not errors.is_terminal)
    timings = []
    try:
        # (off a terminal the bar is not begun at all: a disabled one ended with a blank line
        # on standard error, before rich 14.3)
        with cursor_back_when_stopped(), progress if errors.is_terminal else nullcontext():
            for name in names:
                dds = will_time_dds(name)
                task = progress.add_task(f"{name}{' and DDS' if dds else ''}",
                                         total=count * (2 if dds else 1))
                timings.append(time_class(name, count, dds=True,
                                          tick=lambda task=task: progress.advance(task)))  # type: ignore[misc]
    except KeyboardInterrupt:
        # Ctrl-C: the classes timed so far are shown, as --json has them printed already
        if timings:
            show_timings(console, timings, pretty)
            console.print(Text(f"interrupted: {counted(len(timings), 'class', 'classes')} of "
                               f"{len(names)} timed", style="bold"))
        raise
    show_timings(console, timings, pretty)


def show_timings(console, timings: list[ClassTiming], pretty: bool) -> None:
    from rich.text import Text

    from .faces import BAD

    console.print(bench_table(timings, pretty))
    legend = "; ".join(f"{t.name}: {t.title}" for t in timings)
    console.print(Text(f"{legend}.\nSeconds a deal, wall clock: one solver per class, a fresh "
                       "table for each deal (the value, every legal card and a line).",
                       style="dim"))
    if any(t.dds_seconds for t in timings):
        console.print(Text("DDS median: DDS (endplay, every card) on as many seeded bridge deals "
                           "with hands of the class's size; on the bridge class, the same "
                           "deals.", style="dim"))
    for t in timings:
        if t.dds_agree is not None:
            console.print(Text(f"{t.name}: DDS gave every card the engine's value on "
                               f"{t.dds_agree} of {t.count} deals.",
                               style="dim" if t.dds_agree == t.count else f"bold {BAD}"))
