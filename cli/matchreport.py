"""The report of ``allfives match``: who is ahead by how much and how sure that is, the players'
points and decision times, the matches won, and the lines that reproduce and go on with the
run, broken to the console's width where a number and what it counts stay together; or the
same as one JSON object (``cli.matching``'s ``summary``)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from solver.errors import counted

if TYPE_CHECKING:
    from rich.text import Text

#: The fewest deal groups a bootstrap interval is given for: from fewer, the bootstrap covers
#: far less than its 95% (the percentile's at most 50% from two groups, some 80% from five).
BOOTSTRAP_GROUPS = 20


def show(found: dict[str, Any], as_json: bool, stopped: str = "interrupted") -> None:
    """The report, or the JSON object; ``stopped``: what a report of fewer groups than were
    asked for is headed by (``interrupted``, ``terminated``, ``stopped``)."""
    if as_json:
        import typer
        typer.echo(json.dumps(found))
    else:
        report(found, stopped)


def _won_method(won: dict[str, Any], a: str, b: str) -> str:
    """How the interval of the matches won was worked out, as the report says it."""
    from solver.stats import GROUPED

    pairs, effective = won["pairs"], won["effective"]
    if pairs is not None:
        return (f"Bonett and Price's, paired: {a} won both matches of "
                f"{counted(pairs['a'], 'group')}, "
                f"{b} both of {pairs['b']:,}, {pairs['split']:,} split")
    if won["method"] != GROUPED:
        return "Wilson"
    return (f"Wilson, with Student's t for z, as {effective:,.0f} independent "
            f"match{'' if round(effective) == 1 else 'es'}")


def _count(matches: float) -> str:
    """Matches won, a win shared counting its share: ``12,904``, ``10.5``."""
    return f"{int(matches):,}" if matches == int(matches) else \
        f"{matches:,.2f}".rstrip("0").rstrip(".")


def _signed(x: float | None) -> str:
    return "-inf" if x is None else f"{x:+.3f}"


#: A word of the report that is a number: ``3``, ``-4.661``, ``87.5%``, ``1,600``, ``0,``.
_NUMBER = re.compile(r"[-+]?\d[\d,]*(\.\d+)?%?[,;)]*")
#: A word that a number after it belongs to: ``seed 0``, ``median 21``, ``deal: +2.600``.
_NAMING = re.compile(r"[a-z][a-z0-9]*:?")


def _kept_together(words: list[str], k: int) -> bool:
    """Whether the report's line may not break between ``words[k]`` and the next: inside an
    interval (``-4.661 .. +2.261``) or a count (``7 of 8 = 87.5%``), between a number and its
    unit (``3 groups``, ``1.2 ms``), or a word and its number (``seed 0``)."""
    one, two = words[k], words[k + 1]
    if ".." in (one, two) or "=" in (one, two):
        return True
    if _NUMBER.fullmatch(one):
        if two == "of":
            return k + 2 < len(words) and bool(_NUMBER.fullmatch(words[k + 2]))
        return not one.endswith(",") and not _NUMBER.fullmatch(two) and not two.startswith("(")
    if one == "of" and k and _NUMBER.fullmatch(words[k - 1]):
        return True
    return bool(_NAMING.fullmatch(one) and _NUMBER.fullmatch(two))


def _flowed(words: str, width: int, head: str = "", style: str = "") -> Text:
    """``head`` and then ``words``, broken between words where the line would pass ``width``
    (``_kept_together`` kept so), going on four columns in from ``head``'s own indent; a word
    wider than the room (a long player spec) is broken after its commas."""
    from rich.text import Text

    from .table import flow

    indent = " " * (len(head) - len(head.lstrip(" "))) + "    "
    split = words.split()
    joined: list[str] = []
    if head:        # (a part of its own, its spaces kept: the line may break after it)
        joined.append(head[:-1] if head.endswith(" ") else head)
    for k, word in enumerate(split):
        if k and _kept_together(split, k - 1):
            joined[-1] += " " + word
        else:
            joined.append(word)
    parts = []
    for part in joined:
        if len(part) > width - len(indent) and "," in part:
            pieces = part.split(",")
            parts += [f"{piece}," for piece in pieces[:-1]] + [pieces[-1]]
        else:
            parts.append(part)
    return flow([Text(part, style=style) for part in parts if part], width, sep=" ",
                indent=indent)


def report(found: dict[str, Any], stopped: str = "interrupted") -> None:
    from rich.measure import Measurement
    from rich.text import Text

    from .benching import seconds_words
    from .console import can_show_suits, make_console
    from .report import table
    from .table import flow

    console = make_console(None)
    pretty = can_show_suits(console)
    a, b = found["a"], found["b"]
    unit = "match" if found["unit"] == "match" else "deal"
    groups = found["groups"]
    games = counted(found["games"], unit, "matches" if unit == "match" else "deals")
    if unit == "match":
        games += f", {counted(found['deals'], 'deal')}"
    if found["duplicate"]:
        how = f"each played in {found['seatings']} seatings (duplicate)"
    else:
        how = "each played once, A and B taking the seats in turn"
    target = f", target {found['target']}" if found["target"] is not None else ""
    console.print(_flowed(f"{a} against {b}: {found['players']} players, rules "
                          f"{found['rules']}{target}, seed {found['seed']}", console.width,
                          style="bold"))
    console.print(_flowed(f"{counted(groups, 'deal group')} of one {unit}, {how}",
                          console.width))
    if found["resumed"]:
        first = "the first group" if found["resumed"] == 1 else \
            f"the first {found['resumed']:,} groups"
        console.print(Text(f"resumed: {first} read back from the "
                           f"record (the decisions' times, and those cut short, are of the "
                           f"groups played now)",
                           style="bold"))
    seats = found["seats"]
    if seats["a"] != seats["b"]:
        console.print(Text(f"{a} held {seats['a']} seats and {b} {seats['b']}: without "
                           f"--duplicate three players' seatings are even only over a "
                           f"multiple of 6 groups", style="bold"))
    if found["interrupted"]:
        console.print(Text(f"{stopped}: these are the first {groups:,} of the "
                           f"{found['planned']:,} groups asked for", style="bold"))
    console.print()

    def players_table(spaced: bool):
        grid = table("player", "points per deal", "decisions", "median", "p95",
                     right=(1, 2, 3, 4))
        grid.columns[0].overflow = "fold"      # (a long name whole, on lines of its own)
        for label in (a, b):
            t = found["times"][label]
            grid.add_row(label.replace(",", ", ") if spaced else label,
                         f"{found['points_per_deal'][label]:.3f}", str(t["decisions"]),
                         seconds_words(t["median"], pretty) or "—",
                         seconds_words(t["p95"], pretty) or "—")
        return grid

    def players_lines() -> Text:
        # narrower than the table with every column whole: a line a player, broken between
        # its parts (a spec between its options)
        lines = []
        for label in (a, b):
            t = found["times"][label]
            parts = [Text(f"{part},") for part in label.split(",")]
            parts[-1] = Text(f"{label.split(',')[-1]}:", style="bold")
            for part in parts[:-1]:
                part.stylize("bold")
            parts += [Text(f"{found['points_per_deal'][label]:.3f} points per deal,"),
                      Text(f"{t['decisions']:,} decisions,"),
                      Text(f"median {seconds_words(t['median'], pretty) or '—'},"),
                      Text(f"p95 {seconds_words(t['p95'], pretty) or '—'}")]
            lines.append(flow(parts, console.width, sep=" ", indent="    "))
        return Text("\n").join(lines)

    grid = players_table(spaced=False)
    unbounded = console.options.update(max_width=10 ** 6)    # (else the width it is kept to)
    if Measurement.get(console, unbounded, grid).maximum > console.width:
        # too wide: a space after each comma, which a spec takes too, so that a long one
        # breaks between its options, not within one; where a column would still be cut, a
        # line a player
        grid = players_table(spaced=True)
        shown = "\n".join("".join(segment.text for segment in line)
                          for line in console.render_lines(grid, pad=False))
        words = [word for label in (a, b) for word in label.replace(",", ", ").split()]
        if "…" in shown or not all(word in shown for word in words):
            grid = players_lines()
    console.print(grid)
    for label in (a, b):
        t = found["times"].get(label, {})
        if t.get("cut_short"):
            console.print(_flowed(f"{t['cut_short']:,} of {t['decisions']:,} decisions cut "
                                  f"short by the budget (a solve stopped at its limit, a deal "
                                  f"of the unseen cards left out, or too few deals solved)",
                                  console.width, f"{label}: "))
    console.print()
    d, boot = found["difference"], found["bootstrap"]
    console.print(_flowed(f"{a} minus {b}, points per deal: {d['mean']:+.3f}", console.width))
    if d["low"] is None:
        console.print("  (one deal group: no interval)")
    else:
        for name, interval in (
                ("paired t:  ", f"{_signed(d['low'])} .. {_signed(d['high'])}"),
                ("bootstrap: ", "not worked out (the run was stopped)" if boot is None else
                 f"none from fewer than {BOOTSTRAP_GROUPS} groups" if boot["low"] is None
                 else f"{_signed(boot['low'])} .. {_signed(boot['high'])}")):
            console.print(_flowed(interval, console.width, f"  95% interval, {name} "))
    won = found["won"]
    if won is not None:
        console.print(_flowed(
            f"{_count(won['a'])} of {won['matches']:,} = "
            f"{won['share']:.1%} (95% interval {won['low']:.1%} .. {won['high']:.1%}, "
            f"{_won_method(won, a, b)})", console.width, f"matches won by {a}: "))
    console.print()
    jobs = (f"scheduler {found['scheduler']}" if found["scheduler"] is not None
            else counted(found["jobs"], "job"))
    wall = f"{seconds_words(found['seconds'], pretty)} wall"
    if found["resumed"]:        # (the wall is the play's, not the reading back's)
        games += (f" ({counted(found['resumed'], 'group')} read back from the record, "
                  f"{groups - found['resumed']:,} played in {wall})")
    else:
        games += f" in {wall}"
    console.print(_flowed(f"{games}, {jobs}", console.width, style="dim"))
    console.print(Text(f"Reproduce: {found['command']}", style="dim"), crop=False,
                  soft_wrap=True)
    if found["go_on"] is not None:
        console.print(Text(f"Go on: {found['go_on']}"), crop=False, soft_wrap=True)


__all__ = ["BOOTSTRAP_GROUPS", "show", "report"]
