"""Reading the positions named on the command line: deal files, files of one-line positions,
a one-line position given as the argument itself, ``-`` for standard input, and game records
(``allfives play``'s JSON lines): every deal of one with card play, or ``RECORD#N`` its N-th.
And the rules ``--rules`` names."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.deal import Position, load_positions, position_of, read_positions
from solver.errors import AllFivesError, counted, counting_number, is_number, number_words, \
    upper
from solver.notation import COMPASS, MAX_TEXT_BYTES, is_line_form, is_toml_name, named_layouts, \
    read_file, read_limited
from solver.rules import Rules, read_spec

from .errors import note, option

if TYPE_CHECKING:
    from solver.game import MatchState

STDIN = "-"
#: The name a position given on the command line is known by in messages and JSON.
ARGUMENT = "<argument>"


def named(name: str, what: str) -> str:
    """``name`` as given for ``what`` (an argument or an option), refused when empty:
    ``Path("")`` is the current folder, which nobody means by typing nothing."""
    if name == "":
        raise AllFivesError(f"{what}: an empty name names no file")
    return name


def read_rules(spec: str, target: int | None = None) -> Rules:
    """The rules ``--rules`` names (a preset, options over it after a colon), with ``--target``'s
    ``target`` over them; a target given both ways is refused (the preset's own too)."""
    with option("--rules"):
        preset, options = read_spec(spec)
        rules = Rules.from_options(preset, options)
    if target is not None:
        if "target" in options:
            raise AllFivesError(f"--target: the target is given twice (--rules {spec} gives "
                                f"target={rules.target})")
        with option("--target"):
            rules = rules.replace(target=target)
    return rules


def is_file(name: str) -> bool:
    """Whether ``name`` names an existing file (a name too long to be one is not)."""
    try:
        return Path(name).exists()
    except OSError:
        return False


def link_trouble(name: str | Path) -> str | None:
    """What is wrong with a link that leads to nothing (``Too many levels of symbolic links``
    for a loop of links), or None where ``name`` is no such link."""
    try:
        Path(name).stat()
    except OSError as error:
        return error.strerror if os.path.islink(name) else None
    return None


def read_text(name: str, limit: int | None = MAX_TEXT_BYTES, records: bool = False) -> str:
    """The text of a file, or of standard input for ``-`` (a UTF-8 byte-order mark dropped);
    bytes that are not UTF-8, or more than ``limit`` of them (but for a game record, with
    ``records``), are an ``AllFivesError`` saying where."""
    if name != STDIN:
        return read_file(name, limit, records)
    if sys.stdin.isatty():
        note("reading standard input: type or paste it, then Ctrl-D on a line alone")
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:     # a text stream put in its place (a test's)
        return sys.stdin.read().removeprefix("\ufeff")
    # the bytes, as a file's are read: the stream's own decoding may let bytes that are not
    # UTF-8 through as stand-ins (surrogate escapes, under a C locale)
    return read_limited(raw, "<stdin>", limit, records)


def record_and_deal(name: str) -> tuple[str, int | None] | None:
    """``RECORD`` or ``RECORD#N`` when ``name`` names a game record (a ``.jsonl`` file, or JSON
    lines whose first object has a ``pack`` and ``actions``): the file and N; else None."""
    file, number = split_deal(name)
    if is_file(file) and Path(file).is_file() and is_record_file(Path(file)):
        return file, number
    return None


def split_deal(name: str) -> tuple[str, int | None]:
    """``FILE#N`` -> (``FILE``, N); a name that is an existing file, or that does not end in
    ``#`` and digits, -> (``name``, None)."""
    if is_file(name) or "#" not in name:
        return name, None
    file, _, tail = name.rpartition("#")
    return (file, deal_number(file, "#", tail)) if is_number(tail) else (name, None)


def deal_number(file: str, mark: str, tail: str) -> int:
    """The number of ``FILE#N`` or ``FILE:N`` (``mark``), written in digits (``tail``); too
    large a number is no deal of any file."""
    number = counting_number(tail)
    if number is None:
        raise AllFivesError(f"{file}{mark}{number_words(tail)}: no file holds so many "
                            f"{'lines' if mark == ':' else 'deals'}")
    return number


def one_deal(name: str, number: int | None, deal: int | None) -> int | None:
    """The deal ``name``'s ``#N`` (``number``) and ``--deal`` name, which must agree."""
    if deal is not None and number is not None and deal != number:
        raise AllFivesError(f"{name}: --deal {deal} and #{number} name different deals")
    return number if number is not None else deal


def record_positions(text: str, source: str, number: int | None = None,
                     played: bool = True, shown: bool = False) -> list[tuple[str, Position]]:
    """Deal ``number`` (from 1, counted through the file's matches) of a record as a position,
    named ``SOURCE#N``; without a number every deal with card play.  ``played``: with the
    cards played in it (to judge them), else at its first card (to solve it).  The whole
    record is replayed, and so checked, first; ``shown``: with a live line while it is (some
    seconds for thousands of deals), on a terminal."""
    from .status import reading

    said: list[str] = []
    with reading(f"reading {source}", shown):
        out = _record_positions(text, source, number, played, said)
    for line in said:
        note(line)
    return out


def _record_positions(text: str, source: str, number: int | None, played: bool,
                      said: list[str]) -> list[tuple[str, Position]]:
    """``record_positions``' work, what it says kept in ``said``."""
    from solver.game import REVOKE
    from solver.records import replay_text

    matches = replay_text(text, source)
    picked: list[tuple[str, MatchState, int]] = []
    if number is not None:
        index, k = file_deal([len(match.state.deals) for match in matches], number, source)
        log = matches[index].state.deals[k - 1]
        if not log.cards_played:    # (read_inputs says so: left out, or nothing to do)
            raise NothingPlayed(f"{source}#{number}: no card was played ({unplayed_why([log])})")
        picked.append((f"{source}#{number}", matches[index].state, k))
    else:
        first, unplayed, logs = 1, [], []
        for match in matches:
            for k, log in enumerate(match.state.deals, 1):
                name = f"{source}#{first + k - 1}"
                if log.cards_played:
                    picked.append((name, match.state, k))
                else:
                    unplayed.append(name)
                    logs.append(log)
            first += len(match.state.deals)
        if not picked:      # (read_inputs says so: left out, or nothing at all to do)
            deals = "its deal" if len(unplayed) == 1 else f"all {len(unplayed):,} of its deals"
            raise NothingPlayed(f"{source}: no card was played in {deals} ({unplayed_why(logs)})")
        if unplayed:
            said.append(f"{first_names(unplayed)}: no cards played ({unplayed_why(logs)}), "
                        f"left out")
    out = []
    for name, state, k in picked:
        position = deal_position(state, k, name, played)
        if played and any(action >= REVOKE for _, action in state.deals[k - 1].actions):
            # a position replays only legal play: the cards before the revoke are judged (a
            # lead is never a revoke, so there is at least one)
            said.append(f"{name}: judged up to its revoke (card {len(position.play) + 1}), "
                        f"which a position cannot replay")
        out.append((name, position if played else Position(position.deal)))
    return out


def deal_position(state: MatchState, number: int, name: str, played: bool = True) -> Position:
    """The card play of deal ``number`` of a replayed match, as ``position()`` gives it (named
    ``name`` in an error): the deal is played again from its pack on a fresh state at the score
    it started from, up to its first card, then its cards are played on the position up to its
    first revoke if it holds one (a position replays only legal play); ``played``: false for
    the position at its first card.  Its score is the one the deal was played at, as the
    table's position has it: none where a side has won at it (at or over the target by
    peg-out, a revoke's penalty having barred it), kept under hand-end."""
    from solver.game import REVOKE

    fresh, _ = state.deal_again(number)
    actions = [action for _, action in state.deals[number - 1].actions]
    for first, action in enumerate(actions):
        if fresh.phase == "play":
            break
        fresh.apply_action(action)
    else:
        raise AllFivesError(f"{name}: the deal was thrown in, or the match ended in the "
                            f"calls: no card was played")
    position = fresh.position()
    for action in actions[first:] if played else ():
        if action >= REVOKE:
            break
        position = position.after(action)
    return position


def unplayed_why(logs: list) -> str:
    """Why deals had no card play: thrown in, or the match ended in their calls."""
    thrown = sum(log.thrown_in for log in logs)
    if thrown == len(logs):
        return "the deal was thrown in" if thrown == 1 else "the deals were thrown in"
    return "the match ended in the calls" if not thrown else \
        "thrown in, or the match ended in the calls"


def first_names(names: list[str]) -> str:
    """The first three of ``names``, and how many more: ``a#1, a#2, a#3 and 4 more``."""
    return ", ".join(names[:3]) + (f" and {len(names) - 3:,} more" if len(names) > 3 else "")


def is_standard_output(path: str) -> bool:
    """Whether ``path`` is where standard output goes (``/dev/stdout``, say)."""
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):   # (no descriptor: a test's stream)
        return path in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


def is_stream(name: str) -> bool:
    """Whether ``name`` is a pipe or a device (``<(...)``, a FIFO, ``/dev/stdin``): read once,
    and only then told apart, as standard input is."""
    path = Path(name)
    return is_file(name) and not path.is_file() and not path.is_dir()


def one_of_several(name: str, build=position_of, hidden: bool = False,
                   records: bool = True) -> list[tuple[str, Any]] | None:
    """The deal a file of several deals calls ``name`` (``FILE#N``, or ``FILE:LINE`` in a file
    of one-line positions), when ``name`` itself is no file: that deal alone, read alone (a
    mistake in another deal of the file is not its own); else None.  ``build`` makes the
    position of a ``Layout`` (read with ``hidden`` hands allowed, or not); ``records``: whether
    the command reads game records too (their deals are ``RECORD#N``)."""
    if is_file(name):
        return None
    for mark in "#:":
        file, found, tail = name.rpartition(mark)
        if found and is_number(tail) and is_file(file) and Path(file).is_dir():
            raise AllFivesError(f"{name}: {file} is a folder, not a file of deals")
        if found and is_number(tail) and is_file(file) and Path(file).is_file():
            if (mark == ":" or not records) and record_and_deal(file) is not None:
                raise AllFivesError(
                    f"{name}: {file} is a game record: its deals are picked as {file}#N, N "
                    f"counted from 1 through the file" if records else
                    f"{name}: {file} is a game record, not a position; 'allfives analyze' "
                    f"judges a record's play")
            number = deal_number(file, mark, tail)
            named = list(named_layouts(read_file(file), file,
                                       True if is_toml_name(file) else None, hidden=hidden))
            names = [known for known, _ in named]
            wanted = f"{file}{mark}{number}"        # FILE#02 is FILE#2
            if mark == "#" and number == 1 and names == [file]:
                return [(wanted, build(named[0][1]()))]    # the one deal of a file of one
            for known, read in named:
                if known == wanted:
                    return [(wanted, build(read()))]
            lines = [known.rpartition(":")[2] for known in names]
            held = counted(len(names), "deal")
            numbered = names == [f"{file}#{k}" for k in range(1, len(names) + 1)]
            by_line = names != [file] and all(known.startswith(f"{file}:") for known in names)
            on_lines = f"line {lines[0]}" if len(names) == 1 else \
                f"lines {', '.join(lines[:-1])} and {lines[-1]}" if len(names) <= 10 else \
                f"lines {lines[0]} to {lines[-1]}"
            if mark == "#" and by_line:     # (the other way of picking one: said so)
                raise AllFivesError(f"{name}: {file} holds one-line positions, picked by line "
                                    f"as {file}:LINE (on {on_lines})")
            if mark == ":" and numbered:
                raise AllFivesError(f"{name}: {file} holds deals in TOML, picked as {file}#N, "
                                    f"N from 1 to {len(names)}")
            if mark == ":" and by_line:
                held += f", on {on_lines}"
            which = f"on line {number}" if mark == ":" else number
            raise AllFivesError(f"{name}: no deal {which}: the file holds {held}")
    refuse_no_number(name, "#", "deal", "FILE#N counts the deals of a file from 1")
    refuse_no_number(name, ":", "line", "FILE:N is the deal on line N of a file of one-line "
                                        "positions")
    return None


def refuse_no_number(name: str, mark: str, what: str, counts: str) -> None:
    """``FILE#x``, ``FILE#-1``, ``FILE#1#2`` (``mark`` ``#``) where FILE is a file and no file
    has the whole name: one line, that ``#x`` is not a ``what`` number, and how ``counts``
    them."""
    for at in (i for i, c in enumerate(name) if c == mark):
        file, tail = name[:at], name[at + 1:]
        if is_file(file) and Path(file).is_file():
            raise AllFivesError(f"{name}: no such file, and {mark}{tail} is not a {what} "
                                f"number ({counts})")


def read_input(name: str, deal: int | None = None, played: bool = True,
               label: str = ARGUMENT, shown: bool = False) -> list[tuple[str, Position]]:
    """The positions one argument names, each with the name it is known by.  An argument that
    is not an existing file but starts like a one-line position is read as one.  ``deal``
    picks that deal of a game record (the argument must be one); ``played``: a record's deals
    with their cards played, else at their first card.  ``label``: the name of a one-line
    position given as the argument itself; ``shown``: a live line while a record is read."""
    if name == STDIN or is_stream(name):
        source = "<stdin>" if name == STDIN else name
        text = read_text(name, records=True)
        if is_record_text(text) or deal is not None:
            return record_positions(text, source, deal, played, shown)
        return list(read_positions(text, source))
    record = record_and_deal(name)
    if record is not None:
        file, number = record
        return record_positions(read_text(file, None), file, one_deal(name, number, deal),
                                played, shown)
    if deal is not None:
        raise AllFivesError(f"--deal: {name} is not a game record (JSON lines, as 'allfives "
                            f"play' writes them)")
    if "\n" not in name and is_line_form(name) and not is_file(name):
        return [(label, Position.from_line(name.strip(), label))]
    refuse_unknown_first_seat(name, label)
    return one_of_several(name) or load_positions(name)


def refuse_unknown_first_seat(name: str, label: str) -> None:
    """A one-line position but for its first seat (``Q:KQ.T.-.- - trump=S``): one line naming
    the seat, not a file name gone wrong."""
    if ("\n" not in name and not is_file(name) and upper(name[0]) not in COMPASS
            and re.match(r"[A-Za-z]:[^\s/\\]*\.[^\s]*\.[^\s]*\.[^\s]*\s", name)):
        raise AllFivesError(f"{label}: no such file, and not a one-line position: {name[:2]} "
                            f"is no seat (a position starts N:, E:, S: or W:)")


def read_inputs(names: list[str], deal: int | None = None, played: bool = True,
                shown: bool = False) -> list[tuple[str, Position]]:
    """Every position in every argument, in order.  All are read before anything is solved,
    so a bad file is reported at once; ``shown``: a live line while a record is read."""
    positions: list[tuple[str, Position]] = []
    if names.count(STDIN) > 1:
        raise AllFivesError("POSITION: '-' (standard input) is named more than once: it can be "
                            "read only once")
    unplayed: list[NothingPlayed] = []
    for number, name in enumerate(names, 1):
        # several positions given as arguments are told apart by their places
        label = f"<argument {number}>" if len(names) > 1 else ARGUMENT
        try:
            positions += read_input(named(name, "POSITION"), deal, played, label, shown)
        except NothingPlayed as record:     # a record of no card play: left out, as a deal is
            unplayed.append(record)
    if unplayed and not positions:
        raise AllFivesError(f"{unplayed[0]}: nothing to {'analyze' if played else 'solve'}")
    for skipped in unplayed:
        note(f"{skipped}: left out")
    return positions


class NothingPlayed(AllFivesError):
    """A game record none of whose deals has card play."""


def file_deal(deals: Sequence[int], deal: int, source: str) -> tuple[int, int]:
    """The match (its index) and the deal in it that a file's deal ``deal`` is, the file's
    deals counted from 1 through its matches in order (``deals``: each match's number of
    them)."""
    total = sum(deals)
    if not 1 <= deal <= total:
        raise AllFivesError(f"{source}#{deal}: no deal {deal}: the record holds "
                            f"{counted(total, 'deal')}")
    for index, count in enumerate(deals):
        if deal <= count:
            return index, deal
        deal -= count
    raise AssertionError("unreachable")


def is_record_text(text: str) -> bool:
    """Whether ``text`` is JSON lines whose first object has a ``pack`` and ``actions``."""
    from solver.records import record_lines

    for line in record_lines(text.removeprefix("\ufeff")):
        if not line.strip():
            continue
        try:
            first = json.loads(line)
        except (ValueError, RecursionError):
            return False
        return isinstance(first, dict) and "pack" in first and "actions" in first
    return False


def is_record_file(path: Path) -> bool:
    """A ``.jsonl`` file, or JSON lines whose first object is a record; a ``.toml`` file is
    never one (it is always read as TOML)."""
    if path.suffix == ".jsonl" or is_toml_name(path):
        return path.suffix == ".jsonl"
    return holds_records(path)


def holds_records(path: Path, blank: bool = False) -> bool:
    """Whether the file's first line that is not blank (a byte-order mark dropped) is a game
    record, whatever the file's name (``blank``: what a file of blank lines alone is)."""
    try:
        with path.open(encoding="utf-8-sig", newline="\n") as handle:
            head = next((line for line in handle if line.strip()), "")
    except (OSError, UnicodeDecodeError):
        return False
    return is_record_text(head) if head else blank
