"""The ``--help`` screens, drawn in Typer's style (panels of arguments, options and commands) from
what Click keeps on each parameter: its option names, ``metavar``, ``help``, default and whether it
is a flag.

Typer's own Rich help shows a type beside every parameter (``--json <bool>``, ``POSITION
<list[str]>``), a usage line with ``{POSITION}...``, and splits the width among six columns, so
that each help sentence is squeezed into a strip a few words wide.  Here a flag shows no
metavar, an option the metavar it declares (``--for SEAT``, ``--objective
points|margin|tricks``), the usage line reads ``allfives solve [OPTIONS] POSITION...``, and the
help text takes the whole width beside a column of names.  An epilog's examples are printed as
written, line by line, never re-wrapped (to be copied whole); its prose is wrapped to the width.

Rich is imported only when a help screen is drawn.
"""

from __future__ import annotations

import inspect
import io
import os
import shutil
import sys
import textwrap
from enum import Enum
from typing import TYPE_CHECKING, Any

from typer.core import TyperCommand

from solver.errors import quoted, written_as_number

from .console import width_instead
from .streams import PLAIN

if TYPE_CHECKING:
    # (the Context Typer's commands are written for: a typer.Context is one)
    from typer._click import Context

#: Help is easier to read in lines no longer than this, however wide the terminal.
MAX_WIDTH = 100
#: A name column wider than this would narrow the help of every row: a longer name is given
#: its own line, its help below it.
NAME_WIDTH = 26

OPTION, QUIET, BORDER = "bold cyan", "dim", "dim"
STYLES = {"option": OPTION, "secondary": "bold magenta", "metavar": "yellow", "": ""}


def paragraphs(text: str) -> list[str]:
    """A help text's paragraphs, each on one line (single newlines are only line breaks of the
    source)."""
    return [" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n") if p.strip()]


def argument_usage(param: Any) -> str:
    """``POSITION...``: the argument's metavar (or name), ``...`` if it takes several values,
    in brackets if it may be left out."""
    name = param.metavar or param.name.upper()
    if param.nargs != 1:
        name += "..."
    return name if param.required else f"[{name}]"


def spelled(names: list[str]) -> str:
    """An option's names as its column shows them, long names first (``--help, -h``): Click
    gathers the help option's names in a set, in another order in each process."""
    return ", ".join(sorted(names, key=lambda name: (not name.startswith("--"), name)))


def option_names(param: Any) -> list[tuple[str, str]]:
    """The pieces of an option's name column with the kind of each: ``--for SEAT``, ``--json``,
    ``--color / --no-color``.  A flag takes no value and shows none."""
    pieces = [(spelled(param.opts), "option")]
    if param.secondary_opts:
        pieces += [(" / ", ""), (", ".join(param.secondary_opts), "secondary")]
    if not (param.is_flag or param.count):
        pieces += [(" ", ""), (param.metavar or param.name.upper(), "metavar")]
    return pieces


def default_words(param: Any) -> str | None:
    """``[default: points]``, or None where there is nothing to say: no default, a flag (off
    unless given), or ``show_default=False``."""
    show = getattr(param, "show_default", False)
    if isinstance(show, str):
        return f"[default: {show}]"
    default = param.default
    if (not show or default is None or getattr(param, "is_flag", False)
            or default in ((), []) or callable(default)):
        return None
    if isinstance(default, Enum):
        default = default.value
    return f"[default: {default}]"


class HelpScreen:
    """Mixed into a Typer command or group: its usage line and help screen."""

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []  # type: ignore[attr-defined]
        pieces += [argument_usage(p) for p in self.get_params(ctx)  # type: ignore[attr-defined]
                   if p.param_type_name == "argument" and not getattr(p, "hidden", False)]
        if getattr(self, "subcommand_metavar", None):
            pieces.append(self.subcommand_metavar)  # type: ignore[attr-defined]
        return pieces

    def format_help(self, ctx: Context, formatter: Any) -> None:
        formatter.write(render_help(self, ctx))


class Command(HelpScreen, TyperCommand):
    """A command of ``allfives``: pass as ``cls=`` to ``app.command``.  An option given twice
    (``--seed 1 --seed 2``, ``--color --no-color``, an option and its other name) is a usage
    error, where Click would take the last without a word; so is a number written otherwise
    than in digits 0 to 9 (``--deals 1_0``, other scripts' digits, ``--time-limit nan``), which
    Python's ``int`` and ``float`` would read."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            values, _, order = self.make_parser(ctx).parse_args(args=list(args))
            if not any(param.is_eager and param.name == "help" for param in order):
                seen: set[str] = set()
                for param in order:
                    if param.param_type_name != "option" or param.multiple \
                            or param.count or param.is_eager:  # type: ignore[attr-defined]
                        continue
                    if param.name in seen:
                        ctx.fail(f"{'/'.join(param.opts + param.secondary_opts)} is given "
                                 f"twice")
                    seen.add(param.name)
                    _check_number(ctx, param, values.get(param.name))
        return super().parse_args(ctx, args)


def number_kind(param: Any) -> type | None:
    """``int`` or ``float`` for an option that takes a whole number or a number, else None:
    by the annotation Typer keeps (0.29), or by the type of the parser's parameter (0.28)."""
    kind = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if kind in (int, float):
        return kind
    names = {cls.__name__ for cls in type(getattr(param, "type", None)).__mro__}
    return int if "IntParamType" in names else float if "FloatParamType" in names else None


def _check_number(ctx: Context, param: Any, value: Any) -> None:
    """A number option's value as typed, in digits 0 to 9, or a usage error naming it."""
    kind = number_kind(param)
    if not isinstance(value, str) or kind is None:
        return
    whole = kind is int
    if not written_as_number(value, whole):
        ctx.fail(f"{param.opts[0]}: {quoted(value)} is not a "
                 f"{'whole number' if whole else 'number'}")


def _stream_wants_colour(stream: Any) -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":   # (set, not empty)
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _Page(io.StringIO):
    """The page a help screen is drawn on, in the encoding of the stream it will be written to
    (box lines fall back to ASCII where that cannot show them)."""

    def __init__(self, encoding: str) -> None:
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding


def render_help(command: Any, ctx: Context, stderr: bool = False) -> str:
    """The help screen of ``command`` as text, coloured if it is bound for a terminal."""
    from rich import box
    from rich.console import Console, Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    stream = sys.stderr if stderr else sys.stdout
    colour = _stream_wants_colour(stream)
    width = min(width_instead(stream) or shutil.get_terminal_size((80, 24)).columns, MAX_WIDTH)
    page = _Page(getattr(stream, "encoding", None) or "utf-8")
    console = Console(file=page, width=width, force_terminal=colour,
                      color_system="auto" if colour else None, highlight=False, markup=False,
                      emoji=False, legacy_windows=False)

    def rows(entries: list[tuple[Text, Text, list[str]]], name_width: int) -> Group:
        help_width = width - 4 - name_width - 2  # the panel's borders and padding, the gap
        lines: list[Text | Table] = []
        for name, help_text, extra in entries:
            for words in extra:  # on the help's last line if it fits there whole, else below
                last = help_text.wrap(console, help_width)[-1].cell_len if help_text else 0
                gap = "" if not help_text else \
                    "  " if last + 2 + len(words) <= help_width else "\n"
                help_text.append(gap + words, style=QUIET)
            grid = Table.grid(padding=(0, 2), expand=True)
            grid.add_column(width=name_width, no_wrap=True)
            grid.add_column(ratio=1)
            if name.cell_len > name_width:
                lines.append(name)
                grid.add_row("", help_text)
            else:
                grid.add_row(name, help_text)
            lines.append(grid)
        return Group(*lines)

    def panel(title: str, entries: list[tuple[Text, Text, list[str]]]) -> None:
        if not entries:
            return
        name_width = min(max(name.cell_len for name, _, _ in entries), NAME_WIDTH, width // 3)
        console.print(Panel(rows(entries, name_width), title=title, title_align="left",
                            border_style=BORDER, box=box.ROUNDED, padding=(0, 1)))

    def help_of(param: Any) -> Text:
        return Text(" ".join(paragraphs(param.help or "")))

    usage = Text("Usage: ", style="bold yellow")
    usage.append(ctx.command_path, style="bold")
    usage.append(" " + " ".join(command.collect_usage_pieces(ctx)))
    console.print(usage)
    if command.help:
        for paragraph in paragraphs(command.help):
            console.print()
            console.print(Text(paragraph))
    console.print()

    arguments, options = [], []
    for param in command.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        if param.param_type_name == "argument":
            name = Text(argument_usage(param).strip("[]"), style=OPTION)
            arguments.append((name, help_of(param), ["[required]"] if param.required else []))
        else:
            name = Text()
            for piece, kind in option_names(param):
                name.append(piece, style=STYLES[kind])
            extra = [w for w in (default_words(param),) if w]
            if param.required:
                extra.append("[required]")
            options.append((name, help_of(param), extra))
    panel("Arguments", arguments)
    panel("Options", options)

    commands = getattr(command, "commands", None)
    if commands:
        entries: list[tuple[Text, Text, list[str]]] = []
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            summary = paragraphs(sub.help)[0] if sub.help else ""
            entries.append((Text(name, style=OPTION), Text(summary), []))
        panel("Commands", entries)

    if command.epilog:
        console.print()
        for at, block in enumerate(textwrap.dedent(command.epilog).strip("\n").split("\n\n")):
            if at:
                console.print()
            lines = block.splitlines()
            if any(line[:1].isspace() for line in lines):    # examples: each whole
                console.print(Text(block), no_wrap=True, overflow="ignore", crop=False)
            else:                                           # prose, wrapped to the width
                console.print(Text(" ".join(lines)))
    text = "\n".join(line.rstrip() for line in page.getvalue().splitlines())
    try:        # what the stream's encoding lacks, in ASCII (``T♥`` as ``TH``: cli.streams)
        return text.encode(page.encoding, PLAIN).decode(page.encoding)
    except LookupError:     # (an encoding Python does not know)
        return text
