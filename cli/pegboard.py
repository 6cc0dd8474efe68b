"""The match as a cribbage board: one strip of holes per side up to the target (61 holes in
All Fives), the points before this deal and this deal's points pegged after them.  A target
beyond ``MOST_HOLES`` is drawn to scale, each hole standing for several points."""

from __future__ import annotations

from rich.text import Text

from solver.deal import Deal
from solver.pegging import MatchAfter

from .faces import QUIET, SIDE_STYLES, side_face

#: Holes: already pegged, pegged by this deal, still empty (suit-symbol consoles / plain ASCII).
PEGS = ("●", "◆", "·")
PEGS_PLAIN = ("o", "*", ".")
GROUP = 5          # holes are set in groups of five, as on a board
ROW = 70           # longer strips are cut into rows of 60 holes
MOST_HOLES = 125   # a longer board is drawn to scale


def points_per_hole(target: int) -> int:
    """1 up to a target of ``MOST_HOLES``; beyond it, as few as keep the strip that short."""
    return -(-target // MOST_HOLES)


def row_length(holes: int) -> int:
    """The columns a row of ``holes`` takes, a space after every group of five."""
    return holes + (holes - 1) // GROUP if holes else 0


def holes_per_row(holes: int, room: int | None) -> int:
    """Without ``room``: all the holes up to ``ROW`` of them, else rows of 60.  With ``room``
    (the columns left after the indent): all when they fit, else as few rows as fit, the holes
    shared out evenly among them in whole groups of five."""
    if room is None:
        return holes if holes <= ROW else 60
    if row_length(holes) <= room:
        return holes
    most = max(GROUP, (room + 1) // (GROUP + 1) * GROUP)
    rows = -(-holes // most)
    return min(most, -(-holes // (rows * GROUP)) * GROUP)


def strip(before: int, after: int, target: int, style: str, pretty: bool,
          indent: str = "", width: int | None = None) -> Text:
    """The holes up to ``target``: those up to ``before`` pegged earlier, up to ``after`` by
    this deal.  A hole is pegged once the last of the points it stands for is reached.  With
    ``width`` no row (its indent included) is longer than it."""
    old, new, empty = PEGS if pretty else PEGS_PLAIN
    scale = points_per_hole(target)
    holes = -(-target // scale)
    per_row = holes_per_row(holes, None if width is None else width - len(indent))
    text = Text(indent)
    for hole in range(1, holes + 1):
        if hole > 1:
            if (hole - 1) % per_row == 0:
                text.append("\n" + indent)
            elif (hole - 1) % GROUP == 0:
                text.append(" ")
        points = min(hole * scale, target)
        if points <= before:
            text.append(old, style=style)
        elif points <= after:
            text.append(new, style=f"bold {style}")
        else:
            text.append(empty, style=QUIET)
    return text


def _winning(match: MatchAfter, side: int) -> str:
    if side not in match.winners:
        return ""
    words = "shares the match" if len(match.winners) > 1 else "wins the match"
    if match.when:
        words += f", pegging out at {match.when}"
    if match.double:
        words += " (a double game)"
    return words


def pegboard(deal: Deal, match: MatchAfter, pretty: bool, width: int | None = None) -> Text:
    """A heading, then for each side its scores and its strip (in rows that fit ``width``)."""
    arrow = "→" if pretty else "->"
    finish = "first to peg out wins" if deal.rules.finish == "peg-out" else "counted at hand end"
    text = Text().append(f"Match to {match.target} ({finish})", style="bold")
    scale = points_per_hole(match.target)
    if scale > 1:
        text.append(f"  each hole {scale} points", style=QUIET)
    names = max(len(deal.side_name(s)) for s in range(deal.sides))
    for side in range(deal.sides):
        before, after = match.before[side], match.after[side]
        text.append("\n")
        label = side_face(deal, side)
        label.pad_right(names - len(label))
        text.append_text(label)
        scores = f"  {before:>2} {arrow} {after:>2}  (+{after - before})"
        text.append(scores)
        winning = _winning(match, side)
        if winning:  # on a line of its own where it would pass the width
            wide = width is not None and names + len(scores) + 2 + len(winning) > width
            text.append(("\n  " if wide else "  ") + winning, style="bold")
        text.append("\n")
        text.append_text(strip(before, min(after, match.target), match.target,
                               SIDE_STYLES[side], pretty, indent="  ", width=width))
    return text
