"""The puzzle files that ``allfives puzzle`` reads and writes: a folder stands for the puzzle
files in it (``*.toml``, in the order of their numbers), a file of several puzzles (``# ---``
between two) for each of them, ``FILE#1``, ``FILE#2``, ..., and ``-`` for standard input; each
is read once; a puzzle written gets the folder's next number and a name from its title."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Iterator
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from solver.errors import AllFivesError, counted, counting_number, number_words, shown_path

if TYPE_CHECKING:
    from solver.puzzles import Puzzle


def puzzle_paths(paths: Iterable[str | PathLike[str]]) -> list[Path]:
    """The puzzles named, each by its file's name: a file of one puzzle, ``FILE#N`` for each
    puzzle of a file of several (``# ---`` between two, as ``puzzle generate`` writes them to
    standard output) or the one named so, a folder's ``*.toml`` files by their numbers."""
    from .inputs import STDIN, named

    _read_once.clear()
    out: list[Path] = []
    for name in paths:
        path = Path(named(str(name), "FILE|DIR"))
        if str(name) == STDIN:
            out += _from_stdin()
        elif path.is_dir():
            try:
                # (a link to nothing is named, to be said so; hidden files are not puzzles)
                found = sorted((p for p in path.iterdir() if p.suffix == ".toml"
                                and not p.name.startswith(".")
                                and (p.is_file() or p.is_symlink() and not p.exists())),
                               key=_by_number)
            except OSError as error:    # a folder that may not be read: not an empty one
                raise OSError(error.errno, error.strerror, str(path)) from None
            if not found:
                raise AllFivesError(f"{path}: no puzzle files (*.toml) in this folder")
            out += [p for file in found for p in _puzzles_in(file)]
        elif path.exists() and not path.is_file():   # a pipe (<(...)), a FIFO: read once
            out += _read_stream(str(path), str(path))
        elif path.exists():
            out += _puzzles_in(path)
        elif (one := _one_of_several(str(name))) is not None:
            out.append(one)
        else:
            from .inputs import link_trouble

            trouble = link_trouble(path) or "no such file or folder"
            raise AllFivesError(f"{shown_path(path)}: {trouble}")
    return out


#: The name standard input's puzzles go by: ``<stdin>``, or ``<stdin>#1``, ``<stdin>#2``, ...
STDIN_NAME = "<stdin>"
#: The puzzles of what can be read only once (standard input, a pipe), by the name they are
#: shown by: each TOML document with the lines above it.
_read_once: dict[str, list[tuple[str, int]]] = {}


def _from_stdin() -> list[Path]:
    """The puzzles of standard input (``-``), read once: ``<stdin>``, or ``<stdin>#N`` for
    each of several."""
    from .inputs import STDIN

    if STDIN_NAME in _read_once:
        raise AllFivesError("FILE|DIR: '-' (standard input) is named more than once: it can be "
                            "read only once")
    return _read_stream(STDIN, STDIN_NAME)


def _read_stream(source: str, name: str) -> list[Path]:
    """The puzzles of standard input or a pipe, read once and kept: ``name``, or ``name#N``
    for each of several."""
    from solver.notation import toml_parts

    from .inputs import read_text

    if name in _read_once:
        raise AllFivesError(f"{name}: named more than once: a pipe can be read only once")
    parts = _read_once[name] = toml_parts(read_text(source))
    if len(parts) == 1:
        return [Path(name)]
    return [Path(f"{name}#{k}") for k in range(1, len(parts) + 1)]


def given_text(path: str | PathLike[str]) -> tuple[str, int] | None:
    """The text of a puzzle of standard input or a pipe that ``puzzle_paths`` named, with the
    lines above it; None for a file's."""
    name = str(path)
    if name in _read_once:
        return _read_once[name][0]
    found = _NUMBERED.fullmatch(name)
    if found is None or found[1] not in _read_once:
        return None
    return _read_once[found[1]][int(found[2]) - 1]


_NUMBERED = re.compile(r"(.+)#([0-9]+)")
#: The number a puzzle file's name starts with: ``012-the-five-falls.toml``.
_NUMBER = re.compile(r"(\d+)-")


def _by_number(path: Path) -> tuple:
    """A folder's puzzle files in the order of their numbers (``999-`` before ``1000-``), then
    the files without one, by name."""
    found = _NUMBER.match(path.name)
    return (0, int(found[1]), path.name) if found else (1, 0, path.name)


def _documents(path: str | PathLike[str]) -> list[tuple[str, int]]:
    """The TOML documents of a file, each with the lines above it (``toml_parts``), read once
    while it is unchanged (a file of many puzzles is counted, then each of its puzzles
    loaded)."""
    stat = os.stat(path)
    return _read_documents(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=4)
def _read_documents(path: str, _mtime: int, _size: int) -> list[tuple[str, int]]:
    from solver.notation import read_file, toml_parts

    return toml_parts(read_file(path))


def _puzzles_in(path: Path) -> list[Path]:
    """``path``, or ``path#1``, ``path#2`` ... when it holds several puzzles."""
    try:
        count = len(_documents(path))
    except (AllFivesError, OSError):
        return [path]       # loading it will say what is wrong
    return [path] if count == 1 else [Path(f"{path}#{k}") for k in range(1, count + 1)]


def _one_of_several(name: str) -> Path | None:
    """``FILE#N`` when FILE is a file of at least N puzzles (``FILE#02`` as ``FILE#2``, and
    ``FILE#1`` of a file of one as FILE); None when FILE is no file."""
    from .inputs import refuse_no_number

    found = _NUMBERED.fullmatch(name)
    if found is None:
        refuse_no_number(name, "#", "puzzle", "FILE#N counts the puzzles of a file from 1")
    if found is None or not Path(found[1]).is_file():
        return None
    count = len(_puzzles_in(Path(found[1])))
    number = counting_number(found[2])
    if count == 1 and _put_together(Path(found[1])):
        return Path(found[1])       # loading it says how its puzzles are to be parted
    if number is None or not 1 <= number <= count:
        if not _holds_puzzles(Path(found[1])):     # (it says what it holds instead)
            load_named(_puzzles_in(Path(found[1]))[0])
        said = number_words(found[2])
        raise AllFivesError(f"{found[1]}#{said}: no puzzle {said}: the file holds "
                            f"{counted(count, 'puzzle')}")
    return Path(found[1]) if count == 1 else Path(f"{found[1]}#{number}")


def _holds_puzzles(path: Path) -> bool:
    """Whether any TOML document of a file holds a ``[puzzle]`` table (a game record, or a
    file of deals, holds none)."""
    from solver.puzzles.format import puzzle_tables

    try:
        return any(puzzle_tables(text) for text, _ in _documents(path))
    except (AllFivesError, OSError):
        return False


def _put_together(path: Path) -> bool:
    """Whether a file of one TOML document holds several ``[puzzle]`` tables (files put
    together without a ``# ---`` line between them)."""
    from solver.puzzles.format import puzzle_tables

    try:
        return len(puzzle_tables(_documents(path)[0][0])) > 1
    except (AllFivesError, OSError):
        return False


def load_named(path: str | PathLike[str], text: tuple[str, int] | None = None) -> Puzzle:
    """The puzzle ``puzzle_paths`` named: a file's, or ``FILE#N``, the Nth puzzle of FILE when
    FILE holds several (before a file of that very name); ``text``: its text and the lines
    above it, given (a puzzle of standard input, ``given_text``: ``<stdin>`` its whole text,
    ``<stdin>#N`` one of several)."""
    from solver.notation import is_blank
    from solver.puzzles import Puzzle, PuzzleError, load_puzzle

    name = str(path)
    text = text if text is not None else given_text(path)
    if text is None:
        if Path(path).is_symlink() and not Path(path).exists():
            raise PuzzleError(f"{path}: a link to nothing ({os.readlink(path)})")
        found = _NUMBERED.fullmatch(name)
        documents = _documents(found[1]) if found is not None and Path(found[1]).is_file() \
            else []
        number = counting_number(found[2]) if found is not None and documents else None
        if not 1 < len(documents) or number is None or not 1 <= number <= len(documents):
            return load_puzzle(path)        # a whole file (an empty one says so)
        text = documents[number - 1]
    several = name not in _read_once    # one puzzle of a file of several, or the whole text
    if several and is_blank(text[0]):
        raise PuzzleError(f"{path}: no puzzle: nothing but blank lines and comments (a "
                          f"'# ---' line too many?)")
    return Puzzle.from_toml(text[0], name, text[1])


def load_all(paths: Iterable[str | PathLike[str]],
             checked: bool = False) -> list[tuple[Path, Puzzle]]:
    """The puzzles named; ``checked``: each refused (``refuse_unsound``) where it breaks a rule
    of a sound puzzle that needs no solve (``solver.puzzles.quick_problems``), as ``show`` and
    ``index`` take them."""
    out = []
    for path in puzzle_paths(paths):
        puzzle = load_named(path)
        if checked:
            from solver.puzzles import quick_problems

            refuse_unsound(path, quick_problems(puzzle))
        out.append((path, puzzle))
    return out


def refuse_unsound(path: str | PathLike[str], problems: list[str]) -> None:
    """The first of a puzzle's problems as an error, naming the command that lists them all."""
    if problems:
        again = "-" if given_text(path) is not None else path
        raise AllFivesError(f"{path}: not a sound puzzle: {problems[0]} ('allfives puzzle "
                            f"check {again}' lists every problem)")


def slug(title: str) -> str:
    """``draw-before-you-cash`` of ``Draw before you cash!``."""
    words = re.sub(r"[^a-z0-9]+", "-", title.lower().replace("'", "")).strip("-")
    return words[:60].rstrip("-") or "puzzle"


def file_name(number: int, puzzle: Puzzle) -> str:
    return f"{number:03d}-{slug(puzzle.title)}.toml"


def next_number(folder: Path, listing: Iterable[Path] | None = None) -> int:
    """One more than the highest number a puzzle file in ``folder`` starts with (of the
    ``listing`` of its ``*.toml`` files, where it is given)."""
    paths = folder.glob("*.toml") if listing is None else listing
    numbers = [int(m.group(1)) for p in paths if (m := _NUMBER.match(p.name))]
    return max(numbers, default=0) + 1


def puzzle_keys(paths: Iterable[Path]) -> Iterator[tuple[Path, tuple]]:
    """What tells the puzzles named apart: the position, the goal and the line (title, themes
    and record aside), for each that can be read, in turn."""
    for path in paths:
        try:
            puzzle = load_named(path)
        except (AllFivesError, OSError):
            continue    # (check names what is wrong with it)
        yield path, puzzle_key(puzzle)


def puzzle_key(puzzle: Puzzle) -> tuple:
    return puzzle.position, puzzle.side, puzzle.objective, puzzle.target, puzzle.line


def file_of(path: Path) -> tuple[str, str]:
    """The name of the file that holds a puzzle ``puzzle_paths`` named, and ``#N`` when it is
    the Nth puzzle of a file of several (a link leads to the file: ``FILE#N`` is no page's
    anchor), else ``""``."""
    found = _NUMBERED.fullmatch(str(path))
    if found is None or not Path(found[1]).is_file() or len(_documents(found[1])) < 2:
        return path.name, ""
    return Path(found[1]).name, f"#{found[2]}"
