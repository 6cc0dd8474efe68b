"""The puzzle file: a deal file (any position, mid-trick allowed) with a ``[puzzle]`` table.

::

    [puzzle]
    side = "N"                 # a seat of the side the solver plays for (or "NS"/"EW")
    objective = "points"       # points | margin | win
    target = 19                # at least this value, against any defence
    line = ["9H", "KH"]        # the main line: the solver's cards and the toughest defence
    title = "Draw before you cash"
    themes = ["draw-trumps", "save-the-ten"]
    rating = 1450
    seed = "0/17"              # the generator seed that reproduces it
    solved_by = ["cheater"]    # the ladder players that reach the target from the start

    [puzzle.evidence]          # what the rating was worked out from
    real_choices = 2
    tempting = 3

The target is in the units of ``Solution.value`` for the objective: the whole deal's points for
the side (tricks already completed, High and Low included, as the engine counts them), its
margin over the other side, or 1 for winning the match in this deal.

Every mistake in the table is a ``PuzzleError`` naming the file and the key:
``p.toml: puzzle.target: expected a whole number, not 'ten'``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from os import PathLike
from typing import Any, cast

from ..cards import Card, card_str, is_card, parse_card
from ..deal import Position
from ..errors import AllFivesError, control_problem, is_number, quoted, upper
from ..notation import (BOM, PUZZLE_KEYS, SEPARATOR, check_puzzle_table, check_toml_text,
                        is_blank, read_file, text_lines, value_kind)
from ..solution import OBJECTIVES, check_objective
from ..tricks import seat_names, side_name, side_seats
from .evidence import LADDER, RANDOM_TRIES
from .themelist import check_theme

__all__ = ["Puzzle", "PuzzleError", "load_puzzle", "PUZZLE_KEYS", "PUZZLE_OBJECTIVES",
           "side_text", "parse_side", "is_seed", "puzzle_tables"]

#: The objectives a puzzle may set (``tricks`` is not one).
PUZZLE_OBJECTIVES = ("points", "margin", "win")
REQUIRED_KEYS = ("side", "objective", "target", "line")
_PUZZLE_TABLE = re.compile(r"\s*\[\s*puzzle\s*\]\s*(#.*)?$")


class PuzzleError(AllFivesError):
    """A puzzle file or table that cannot be read; says the file and the key."""


def puzzle_tables(text: str) -> list[int]:
    """The lines a text's ``[puzzle]`` tables start on: more than one where puzzle files were
    put together without a ``# ---`` line between them (which TOML refuses)."""
    return [n for n, line in enumerate(text_lines(text), 1) if _PUZZLE_TABLE.match(line)]


def side_text(side: int, players: int) -> str:
    """How a side is written in a puzzle file: its seat with 2 or 3 players, the partnership
    (``NS``, ``EW``) with 4."""
    return side_name(side, players)


def parse_side(text: str, players: int) -> int:
    """A side from a seat letter (any seat of the side) or a partnership (``NS``, ``EW``)."""
    names = seat_names(players)
    key = upper(text.strip())
    for side in range(2 if players == 4 else players):
        seats = "".join(names[s] for s in side_seats(side, players))
        if key == seats or (len(key) == 1 and key in seats) or \
                (len(key) == 2 and sorted(key) == sorted(seats)):
            return side
    raise PuzzleError(f"no seat or side {quoted(text)} at a {players}-player table "
                      f"(seats {' '.join(names)})")


@dataclass(frozen=True)
class Puzzle:
    """A position, the side the solver plays for, the goal and the main line.

    ``line`` is the solver's cards and the toughest defence, in order, forced cards included,
    ending on the solver's last card that had a real choice.  ``seed`` reproduces it with
    ``solver.puzzles.generate``; ``solved_by`` and ``evidence`` are what ``rate`` found.
    """

    position: Position
    side: int
    objective: str
    target: int
    line: tuple[Card, ...]
    title: str = ""
    themes: tuple[str, ...] = ()
    rating: int | None = None
    seed: str | None = None
    solved_by: tuple[str, ...] = ()
    #: What the rating was worked out from, as (name, number) pairs (``dict(evidence)``).
    evidence: tuple[tuple[str, int], ...] = ()
    #: Whether ``themes`` is a claim (the file lists them, ``themes = []`` for none), which
    #: ``puzzle check`` then holds to the themes the line shows.
    themes_listed: bool = field(default=True, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise PuzzleError(f"position: {quoted(self.position)} is not a Position "
                              f"(Position.from_line reads one)")
        sides = self.position.deal.sides
        if isinstance(self.side, bool) or not isinstance(self.side, int) or \
                not 0 <= self.side < sides:
            raise PuzzleError(f"side {quoted(self.side)} is not a side at this table "
                              f"(0 to {sides - 1})")
        if self.objective not in PUZZLE_OBJECTIVES:
            raise PuzzleError(f"objective {quoted(self.objective)} is not one of "
                              f"{', '.join(PUZZLE_OBJECTIVES)}")
        if isinstance(self.target, bool) or not isinstance(self.target, int):
            raise PuzzleError(f"target {quoted(self.target)} is not a whole number")
        if not isinstance(self.title, str):
            raise PuzzleError(f"title: {quoted(self.title)} is not a text")
        if control_problem(self.title, "title"):     # (an escape sequence would reach the
            # terminal, and an SVG or HTML sheet could not hold it)
            raise PuzzleError(f"title: {control_problem(self.title, 'title')}")
        if isinstance(self.line, (str, bytes)):
            raise PuzzleError(f"line: {quoted(self.line)} is not a list of cards")
        object.__setattr__(self, "line", tuple(self.line))
        for i, card in enumerate(self.line):
            if not is_card(card):
                raise PuzzleError(f"line[{i}]: {quoted(card)} is not a card's number "
                                  f"(parse_card reads one: parse_card('TH'))")
        object.__setattr__(self, "themes", tuple(self.themes))
        object.__setattr__(self, "solved_by", tuple(self.solved_by))
        object.__setattr__(self, "evidence", tuple(tuple(e) for e in self.evidence))

    # ---- reading and writing ------------------------------------------------------------

    @classmethod
    def from_toml(cls, text: str, source: str = "<string>", lines_before: int = 0) -> Puzzle:
        """Read a puzzle file's text; ``source`` names it in error messages (and
        ``lines_before``, the lines of a larger text above it, counts in their line
        numbers)."""
        if is_blank(text):
            raise PuzzleError(f"{source}: empty: no puzzle in it")
        check_toml_text(text, source, lines_before, PuzzleError)
        try:
            data = tomllib.loads(text.removeprefix(BOM))
        except (ValueError, RecursionError):     # TOMLDecodeError is a ValueError
            data = None  # the deal reader says what is wrong with it
        if data is None and (tables := puzzle_tables(text))[1:]:  # files put together, say
            raise PuzzleError(f"{source}: {len(tables)} [puzzle] tables (lines "
                              f"{', '.join(str(t + lines_before) for t in tables)}): puzzles "
                              f"in one file are parted by a line '{SEPARATOR}'")
        if data is not None and "puzzle" in data:
            check_puzzle_table(data["puzzle"], source, PuzzleError)
        position = Position.from_toml(text, source, lines_before)
        if data is None or "puzzle" not in data:
            raise PuzzleError(f"{source}: no [puzzle] table")
        return _read_table(position, data["puzzle"], source)

    def to_toml(self) -> str:
        """The puzzle file: the position's canonical TOML and the ``[puzzle]`` table;
        ``from_toml`` reads it back to an equal puzzle."""
        players = self.position.deal.players
        lines = [self.position.to_toml().rstrip("\n"), "", "[puzzle]",
                 f"side = {_string(side_text(self.side, players))}",
                 f"objective = {_string(self.objective)}",
                 f"target = {self.target}",
                 "line = [" + ", ".join(_string(card_str(c)) for c in self.line) + "]"]
        if self.title:
            lines.append(f"title = {_string(self.title)}")
        if self.themes_listed:      # (a file that made no claim of its themes makes none)
            lines.append("themes = [" + ", ".join(_string(t) for t in self.themes) + "]")
        if self.rating is not None:
            lines.append(f"rating = {self.rating}")
        if self.seed is not None:
            lines.append(f"seed = {_string(self.seed)}")
        if self.solved_by or self.evidence:
            lines.append("solved_by = [" + ", ".join(_string(t) for t in self.solved_by) + "]")
        if self.evidence:
            lines += ["", "[puzzle.evidence]"]
            lines += [f"{key} = {value}" for key, value in self.evidence]
        return "\n".join(lines) + "\n"

    # ---- what the line holds --------------------------------------------------------------

    @property
    def positions(self) -> list[Position]:
        """The start and the position after each card of the line."""
        out = [self.position]
        for card in self.line:
            out.append(out[-1].after(card))
        return out

    def solver_turns(self) -> list[int]:
        """Indexes into ``line`` of the solver's cards."""
        deal = self.position.deal
        return [i for i, p in enumerate(self.positions[:-1])
                if deal.side_of(p.to_move) == self.side]

    def line_str(self) -> list[str]:
        return [card_str(c) for c in self.line]



def load_puzzle(path: str | PathLike[str]) -> Puzzle:
    """Read a puzzle file."""
    return Puzzle.from_toml(read_file(path), str(path))


# ---- the [puzzle] table -------------------------------------------------------------------------


def _string(text: str) -> str:
    """A TOML basic string: quotes and backslashes escaped, and the control characters TOML
    does not allow in one (a newline in a title)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif (ord(ch) < 0x20 and ch != "\t") or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


#: The highest rating a file may give: ``solver.puzzles.rating`` gives from about 550 (every
#: ladder player solves) to about 2,850 (none does).
MAX_RATING = 4000


#: The most a count of the evidence may be: a TOML integer's most.
MAX_COUNT = 2**63 - 1


def _evidence_most(key: str, tries: int) -> int:
    """The most ``[puzzle.evidence]`` may give for ``key``: the random player's tries, the
    Monte Carlo players' ``tries``, 1 for another ladder player (it solves or not), else any
    count."""
    if key == "solved_random":
        return RANDOM_TRIES
    if key.startswith("solved_pimc_"):
        return tries
    return 1 if key.startswith("solved_") else MAX_COUNT


def is_seed(text: str) -> bool:
    """Whether ``text`` is a generator seed as a puzzle file keeps it: ``S/K``, candidate K of
    seed S (or ``S`` alone, its first), in digits 0 to 9 (``generate --seed`` reads one)."""
    seed, mark, first = text.partition("/")
    # (and not so many digits that Python will not read them as a number)
    return is_number(seed) and (not mark or is_number(first)) and len(text) <= 200


def _read_table(position: Position, table: Any, source: str) -> Puzzle:
    def fail(key: str | None, message: str) -> PuzzleError:
        return PuzzleError(f"{source}: puzzle.{key}: {message}" if key
                           else f"{source}: puzzle: {message}")

    def text(key: str) -> str:
        value = table[key]
        if not isinstance(value, str):
            raise fail(key, f"expected a string, not {value_kind(value)} ({quoted(value)})")
        return value

    def whole(key: str) -> int:
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(key, f"expected a whole number, not {value_kind(value)} ({quoted(value)})")
        return value

    def words(key: str) -> tuple[str, ...]:
        value = table[key]
        if not isinstance(value, list):
            raise fail(key, f"expected an array of strings, not {value_kind(value)} "
                            f"({quoted(value)})")
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise fail(f"{key}[{i}]", f"expected a string, not {value_kind(item)} "
                                          f"({quoted(item)})")
        return tuple(value)

    for key in REQUIRED_KEYS:
        if key not in table:
            raise fail(key, "missing")
    players = position.deal.players
    name = text("side")
    try:
        side = parse_side(name, players)
    except PuzzleError as error:
        raise fail("side", str(error)) from None
    objective = text("objective")
    if objective not in PUZZLE_OBJECTIVES:
        raise fail("objective", f"{quoted(objective)} is not one of "
                                f"{', '.join(PUZZLE_OBJECTIVES)}")
    assert objective in OBJECTIVES
    try:
        check_objective(objective, position)
    except AllFivesError as error:
        raise fail("objective", str(error)) from None
    target = whole("target")
    line_value = table["line"]
    if line_value == []:
        raise fail("line", "expected an array of cards, not an empty one (the line is the "
                           "solution's cards)")
    if not isinstance(line_value, list):
        raise fail("line", f"expected an array of cards, not {value_kind(line_value)} "
                           f"({quoted(line_value)})")
    line: list[Card] = []
    after = position
    for i, token in enumerate(line_value):
        key = f"line[{i}]"
        if not isinstance(token, str):
            raise fail(key, f"expected a card, not {value_kind(token)} ({quoted(token)})")
        try:
            card = parse_card(token)
        except AllFivesError as error:
            raise fail(key, str(error)) from None
        if after.is_over:
            raise fail(key, f"{quoted(token)} is played after the last trick")
        if card not in after.legal_moves():
            seat = after.deal.seats[after.to_move]
            if card in after.play:
                raise fail(key, f"{quoted(token)} is played already (card "
                                f"{after.play.index(card) + 1} of the play)")
            if card not in after.hands[after.to_move]:
                raise fail(key, f"{quoted(token)} is not in {seat}'s hand")
            raise fail(key, f"{seat} may not play {quoted(token)} here (the follow rule)")
        line.append(card)
        after = after.after(card)
    title = text("title") if "title" in table else ""
    if control_problem(title, "title"):
        raise fail("title", cast(str, control_problem(title, "title")))
    themes = words("themes") if "themes" in table else ()
    for i, theme in enumerate(themes):
        try:
            check_theme(theme)
        except AllFivesError as error:
            raise fail(f"themes[{i}]", str(error)) from None
    rating = whole("rating") if "rating" in table else None
    if rating is not None and not 0 <= rating <= MAX_RATING:
        raise fail("rating", f"expected a rating from 0 to {MAX_RATING}, not {quoted(rating)}")
    seed = text("seed") if "seed" in table else None
    if seed is not None and not is_seed(seed):
        raise fail("seed", f"expected a seed S/K (candidate K of seed S, or S alone, from 0, "
                           f"as 'allfives puzzle generate --seed' takes it), not {quoted(seed)}")
    solved_by = words("solved_by") if "solved_by" in table else ()
    names = [name for name, _ in LADDER]
    for i, name in enumerate(solved_by):
        if name not in names:
            raise fail(f"solved_by[{i}]", f"{quoted(name)} is not a ladder player (expected "
                                          f"{', '.join(names)})")
    evidence: dict[str, int] = {}
    if "evidence" in table:
        value = table["evidence"]       # (a table of known keys: check_puzzle_table)
        tries = value.get("pimc_tries", 1)      # (checked first: the pimc counts are of it)
        for key, item in sorted(value.items(), key=lambda pair: pair[0] != "pimc_tries"):
            if isinstance(item, bool) or not isinstance(item, int):
                raise fail(f"evidence.{key}", f"expected a whole number, not {value_kind(item)} "
                                              f"({quoted(item)})")
            least, most = int(key == "pimc_tries"), _evidence_most(key, tries)
            if not least <= item <= most:
                if most == 1:
                    expected = "0 or 1" + (" (pimc_tries is 1)" if key.startswith("solved_pimc_")
                                        and "pimc_tries" in value else "")
                elif most < MAX_COUNT or item > most:
                    why = " (the random player's tries)" if key == "solved_random" else \
                        " (pimc_tries)" if key.startswith("solved_pimc_") else ""
                    expected = f"a whole number from 0 to {most}{why}"
                else:
                    expected = f"a whole number from {least}"
                raise fail(f"evidence.{key}", f"expected {expected}, not {quoted(item)}")
            evidence[key] = item
        evidence = {key: evidence[key] for key in value}      # (in the file's order)
    return Puzzle(position, side, objective, target, tuple(line), title, themes, rating, seed,
                  solved_by, tuple(evidence.items()), "themes" in table)
