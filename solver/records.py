"""Game records: a match played, written as JSON lines and read back, played again and checked
by the rules (``solver.game`` plays it).

A match is written as JSON lines, one object per deal (a thrown-in deal is a deal: its actions end
with the run that could not find a new suit, and the score stays)::

    {"match": "m1", "deal": 1, "game": 1, "best_of": 1,
     "rules": {"preset": "all-fives", "follow": "trump-anytime", ... every option ...},
     "players": {"N": "alice", "S": "bob"}, "dealer": "S",
     "pack": ["7H", "2C", ... all 52 cards in the order dealt ...],
     "actions": ["N:beg", "S:run", "N:TH", "S:5H", ...],
     "score": {"N": 12, "S": 20}}

``deal`` counts the packs dealt in the match from 1 and ``game`` the games from 1; ``score`` is the
match score after the deal, per side (seat letters, or ``NS`` and ``EW`` with four players),
before a new game starts again at 0.  A deal that ends a game also carries ``"winners": ["NS"]``
and ``"double": false``; the first deal of a match started at another score than 0
(``new_initial_state(score=...)``) carries it: ``"start": {"N": 10, "S": 20}``.
``match_records(state)`` gives a state's records (``deal_record`` one of them),
``records_text`` / ``read_records`` write and read the JSON lines, and ``replay(records)`` plays
a match again from them, checking every key, every action and every score, and raises one
``RecordError`` naming the deal and the action index (from 0) at the first thing that does not
follow the rules.  ``replay_matches`` does the same for a file of several matches, each a run of
consecutive records with one ``match`` name (as ``allfives match --record`` writes them);
``replayed_matches`` one match at a time from ``numbered_records`` (a file too large to hold as
records), and ``replay_text`` a whole text so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, cast

from .cards import card_str
from .errors import QUOTE_CHARACTERS, AllFivesError, control_problem, counted, quoted, whole
from .game import REVOKE, GameError, Match, MatchState, parse_step, score_problem, step_name
from .rules import OPTION_NAMES, Rules
from .tricks import seat_names, side_count, side_name

__all__ = ["RecordError", "deal_record", "match_records", "records_text", "read_records",
           "json_line", "replay", "replay_matches", "replay_text", "replayed_matches",
           "numbered_records", "record_lines", "record_pairs", "Records", "ReplayedMatch",
           "deal_opening", "RECORD_START", "cut_short"]

#: How every record's line begins, as ``deal_record`` writes it (the match first): a line a
#: writer stopped part-way through begins so too.
RECORD_START = b'{"match": '


def cut_short(line: bytes) -> bool:
    """Whether ``line``, a file's last, not ended, is a record a writer stopped part-way
    through: it begins as every record does (or is the start of that beginning)."""
    return RECORD_START.startswith(line) or line.startswith(RECORD_START)


class RecordError(AllFivesError):
    """A game record that does not replay: the message names the deal and the action."""


RECORD_KEYS = ("match", "deal", "game", "best_of", "rules", "players", "dealer", "pack",
               "actions", "score")
GAME_END_KEYS = ("winners", "double")
#: A match's first record of a match started at a score other than 0: that score, per side.
START_KEY = "start"


def _names(players: int, names: Mapping[str, str] | None) -> dict[str, str]:
    seats = seat_names(players)
    if names is None:
        return {s: s for s in seats}
    if not isinstance(names, Mapping) or set(names) != set(seats) or \
            not all(isinstance(names[s], str) for s in seats):
        raise GameError(f"names: one name (a text) per seat {' '.join(seats)}, not "
                        f"{quoted(names)}")
    for seat in seats:
        if control_problem(names[seat], "name"):
            raise GameError(f"names.{seat}: {control_problem(names[seat], 'name')}")
    return {s: names[s] for s in seats}


def _check_match_name(match: Any, where: str | None = None) -> None:
    """A record's ``match``: a name (text, not blank) or a whole number; else a GameError, or
    with ``where`` (a record read back: the value as JSON writes it) a RecordError that starts
    with it."""
    if isinstance(match, bool) or not isinstance(match, (str, int)) or \
            isinstance(match, str) and not match.strip():
        shown = quoted(match) if where is None else json.dumps(match, ensure_ascii=False)
        raise (GameError if where is None else RecordError)(
            f"{where or ''}match: {shown} is not a match's name (a text, as 'm1', or a whole "
            f"number)")
    if isinstance(match, str) and control_problem(match, "name"):
        # (printed as a match's heading: an escape sequence would reach the terminal)
        raise (GameError if where is None else RecordError)(
            f"{where or ''}match: {control_problem(match, 'name')}")


def _check_state(state: Any) -> MatchState:
    if not isinstance(state, MatchState):
        raise GameError(f"state: {quoted(state)} is not a MatchState")
    return state


def deal_record(state: MatchState, index: int, match: str | int = "1",
                names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The record of ``state.deals[index]`` (``names``: who played each seat, by seat letter)."""
    _check_state(state)
    _check_match_name(match)
    finished = len(state.deals)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < finished:
        raise GameError(f"index: {quoted(index)} is not a deal the state has finished "
                        + (f"(0 to {finished - 1})" if finished else "(none yet)"))
    log = state.deals[index]
    n = state.players
    record: dict[str, Any] = {
        "match": match, "deal": log.number, "game": log.game, "best_of": state.match.best_of,
        "rules": {"preset": state.rules.preset_name, **state.rules.options()},
        "players": _names(n, names), "dealer": seat_names(n)[log.dealer],
        "pack": [card_str(c) for c in log.pack],
        "actions": [step_name(seat, action, n) for seat, action in log.actions],
        "score": {side_name(s, n): points for s, points in enumerate(log.score)},
    }
    if log.winners:
        record["winners"] = [side_name(s, n) for s in log.winners]
        record["double"] = log.double
    if index == 0 and any(state.start_score):
        record["start"] = {side_name(s, n): points for s, points in enumerate(state.start_score)}
    return record


def match_records(state: MatchState, match: str | int = "1",
                  names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The records of every deal the state has finished, in order; ``match`` names the match
    (a text, or a whole number), ``names`` who played each seat (by seat letter)."""
    _check_state(state)
    _check_match_name(match)
    _names(state.players, names)
    return [deal_record(state, i, match, names) for i in range(len(state.deals))]


def records_text(records: Iterable[Mapping[str, Any]]) -> str:
    """Records as JSON lines."""
    _check_records(records)
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


class Records(list):
    """Records read from a text, each with the number of its line (``lines``), for errors."""

    lines: list[int]


def json_line(line: str) -> Any:
    """One line of JSON, or a ``ValueError`` saying what is wrong with it, and where:
    ``not JSON (Expecting value at column 12)``.  A line end after it is no part of it: the
    column of a line cut short is the line's, not 1 of a line after it."""
    try:
        return json.loads(line.removesuffix("\n").removesuffix("\r"),
                          object_pairs_hook=_one_of_each)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg.removesuffix(' at')} at column "
                         f"{error.colno})") from None
    except _KeyTwice as error:
        raise ValueError(str(error)) from None
    except RecursionError:
        raise ValueError("not JSON that can be read (arrays or objects nested too "
                         "deeply)") from None
    except ValueError:  # the one other: Python's cap on the digits of an int
        raise ValueError("not JSON that can be read (a number of more than 4,300 "
                         "digits)") from None


def _one_of_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once: a record that says two things of one key
    contradicts itself (Python's reader would keep the last)."""
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise _KeyTwice(f"not a record that can be read (the key {quoted(key)} is given "
                            f"twice in one object)")
        seen.add(key)
    return dict(pairs)


class _KeyTwice(Exception):
    """A key given twice in a JSON object."""


def record_lines(text: str) -> list[str]:
    """The lines of JSON-lines text: parted at each newline alone, as they are written (a
    record's strings may hold other line breaks, U+2028 say, written as they are)."""
    if not isinstance(text, str):
        raise RecordError(f"text: {quoted(text)} is not a text of JSON lines")
    return text.split("\n")


def _check_records(records: Any) -> None:
    """Records are given as a list of them (any iterable but a text or one record)."""
    if isinstance(records, (str, bytes, Mapping)) or not isinstance(records, Iterable):
        raise RecordError(f"records: {quoted(records)} is not a list of records (JSON "
                          f"objects)")


def numbered_records(lines: Iterable[str], source: str = "<records>"
                     ) -> Iterator[tuple[int, dict[str, Any]]]:
    """The records of JSON lines, one at a time with the number of its line (blank lines
    skipped); a line that is not a JSON object is a RecordError naming ``source`` and the
    line."""
    if isinstance(lines, (str, bytes)) or not isinstance(lines, Iterable):
        raise RecordError(f"{source}: lines: {quoted(lines)} is not a list of lines")
    for number, line in enumerate(lines, 1):
        if not isinstance(line, str):
            raise RecordError(f"{source}:{number}: {quoted(line)} is not a line of text")
        if not line.strip():
            continue
        try:
            record = json_line(line)
        except ValueError as error:
            raise RecordError(f"{source}:{number}: {error}") from None
        if not isinstance(record, dict):
            raise RecordError(f"{source}:{number}: a record is a JSON object, not "
                              f"{as_json(record)}")
        yield number, record


def read_records(text: str, source: str = "<records>") -> Records:
    """The records of JSON-lines text (blank lines skipped), their lines' numbers kept for
    ``replay_matches`` to name; a line that is not a JSON object is a RecordError naming
    ``source`` and the line."""
    out = Records()
    out.lines = []
    for number, record in numbered_records(record_lines(text), source):
        out.append(record)
        out.lines.append(number)
    return out


class ReplayedMatch(NamedTuple):
    """One match of a file of records, played again: its ``match`` name, who played each seat
    (by seat letter) and the state after its last record."""

    match: Any
    players: Mapping[str, str]
    state: MatchState
    #: The line of its first record, where known.
    line: int | None = None


def replay_matches(records: Iterable[Mapping[str, Any]], source: str | None = None
                   ) -> list[ReplayedMatch]:
    """Every match of a file of records played again (``replay``), in order: a match's deals
    are consecutive records of one ``match`` name (``allfives match --record`` writes one match
    for each seating of each deal group).  The first thing that does not follow is one
    RecordError, naming the match too where the records hold more than one, and the line of
    the record at fault where they were read by ``read_records``."""
    return list(replayed_matches(records, source))


def replay_text(text: str, source: str = "<records>") -> list[ReplayedMatch]:
    """``replay_matches`` of the records of JSON-lines text, read and played again one match
    at a time (only the states after them are kept)."""
    return list(replayed_matches(numbered_records(record_lines(text), source), source))


def record_pairs(records: Iterable[Any]) -> Iterator[tuple[int | None, Any]]:
    """Records with the numbers of their lines: ``read_records``' (its ``lines``), pairs as
    ``numbered_records`` gives them, or records alone (their lines not known, None)."""
    _check_records(records)
    lines = getattr(records, "lines", None)
    if lines is not None:
        return zip(lines, records)
    return (item if isinstance(item, tuple) and len(item) == 2 else (None, item)
            for item in records)


def replayed_matches(numbered: Iterable[Any], source: str | None = None
                     ) -> Iterator[ReplayedMatch]:
    """``replay_matches`` one match at a time, from the records as ``record_pairs`` takes
    them: each match is played again as its last record is read, so that no more than one
    match's records are held at once."""
    seen: set[str] = set()
    name: Any = None
    group: list[tuple[int | None, Any]] = []
    alone = True                # no other match yet: the first is named in errors only then

    def played(name: Any, group: list[tuple[int | None, Any]], named: bool) -> ReplayedMatch:
        lines = [line for line, _ in group]
        records = [record for _, record in group]
        state = replay(records, source, None if None in lines else cast("list[int]", lines),
                       name if named else None)   # (its keys checked before its players)
        return ReplayedMatch(name, records[0]["players"], state, lines[0])

    for line, record in record_pairs(numbered):
        this = record.get("match") if isinstance(record, Mapping) else None
        if isinstance(record, Mapping) and "match" in record:
            _check_match_name(this, _located(source, line))
        if group and (not isinstance(record, Mapping) or this == name):
            group.append((line, record))
            continue
        if group:
            yield played(name, group, True)
            alone = False
        key = json.dumps(this, sort_keys=True)
        if key in seen:
            raise RecordError(f"{_located(source, line)}match {quoted(this)}: again after "
                              f"other matches (a match's deals are consecutive records)")
        seen.add(key)
        name, group = this, [(line, record)]
    if not group:
        replay([], source)
    yield played(name, group, not alone)


def _located(source: str | None, line: int | None) -> str:
    """``FILE:LINE: ``, ``FILE: ``, ``line LINE: `` or nothing, to begin an error."""
    if source and line is not None:
        return f"{source}:{line}: "
    if source:
        return f"{source}: "
    return f"line {line}: " if line is not None else ""


def replay(records: Iterable[Mapping[str, Any]], source: str | None = None,
           lines: Sequence[int] | None = None, match: Any = None) -> MatchState:
    """Play a match again from its records, checking each against the rules; the state after
    the last record.  The first thing that does not follow is one RecordError, e.g.
    ``deal 3, action 7 'E:TH': E may not play TH to 5C led (follow suit)``, after ``source``
    and the record's line (``lines``: the records' own) and the ``match`` named, where given:
    ``games.jsonl:12: match '0:5:1': deal 1, ...``."""
    try:
        _check_records(records)
    except RecordError as error:
        raise RecordError(f"{_located(source, None)}{error}") from None
    state: MatchState | None = None
    first: Mapping[str, Any] = {}
    for index, record in enumerate(records):
        where = located = _located(source, None if lines is None else lines[index])
        if match is not None:
            where += f"match {quoted(match)}: "
        where += f"deal {state.deal_number + 1 if state else 1}"

        def fail(detail: str) -> RecordError:
            return RecordError(f"{where}, {detail}")

        _check_keys(record, where, located)
        if START_KEY in record and state is not None:
            raise fail(f"{START_KEY}: the score a match starts from is on its first record only")
        if state is None:
            _check_match_name(record["match"], located)
            first = record
            state = _start(record, fail)
        else:
            for key in ("match", "best_of", "rules", "players"):
                if not _same(record[key], first[key]):
                    raise fail(_first_difference(key, record[key], first[key], first["deal"]))
        n = state.players
        if state.is_terminal():
            raise RecordError(f"{where}: the match was over after the deal before")
        if not _same(record["deal"], state.deal_number + 1):
            again = record["deal"] if whole(record["deal"]) is not None \
                and 1 <= record["deal"] <= state.deal_number else None
            raise fail(f"deal: {as_json(record['deal'])}, expected {state.deal_number + 1}"
                       + (f" (deal {again} again: a line given twice?)" if again else ""))
        if not _same(record["game"], state.game):
            raise fail(f"game: {as_json(record['game'])}, expected {state.game}")
        if record["dealer"] != seat_names(n)[state.dealer]:
            raise fail(f"dealer: {as_json(record['dealer'])}, expected "
                       f"{seat_names(n)[state.dealer]}")
        if not isinstance(record["pack"], list):
            raise fail(f"pack: {as_json(record['pack'])} is not a list of cards")
        named = next((c for c in record["pack"] if not isinstance(c, str)), None)
        if named is not None:   # a number would be read as the engine's card number
            raise fail(f"pack: {as_json(named)} is not a card's name (as \"7H\")")
        try:
            state.deal_pack(record["pack"])
        except GameError as error:
            raise fail(str(error)) from None
        actions = record["actions"]
        if not isinstance(actions, list):
            raise fail(f"actions: {as_json(actions)} is not a list")
        logged = len(state.deals)
        for at, step in enumerate(actions):
            try:
                if len(state.deals) > logged:
                    over = state.deals[-1]
                    why = ("the match was won in it" if state.is_terminal()
                           else "a game was won in it" if over.winners
                           else "its cards were thrown in" if over.thrown_in
                           else "its last trick was played")
                    raise GameError(f"the deal is over before it ({why})")
                seat, action = parse_step(step, n)
                if seat != state.current_player():
                    raise GameError(f"not {seat_names(n)[seat]}'s turn: {state._who_acts()}")
                if action >= REVOKE:
                    state.apply_revoke(action - REVOKE)
                else:
                    state.apply_action(action)
            except GameError as error:
                raise fail(f"action {at} {as_json(step)}: {error}") from None
        if len(state.deals) == logged:
            raise fail(f"action {len(actions)}: the actions end before the deal does "
                       f"({state._who_acts()})")
        log = state.deals[-1]
        score = {side_name(s, n): p for s, p in enumerate(log.score)}
        if not _same(record["score"], score):
            raise fail(f"score: recorded {as_json(record['score'])}, the play gives "
                       f"{as_json(score)}")
        winners = [side_name(s, n) for s in log.winners]
        if log.winners or "winners" in record or "double" in record:
            if not _same(record.get("winners"), winners):
                gives = as_json(winners) if winners else "no winner (the game goes on)"
                raise fail(f"winners: recorded {as_json(record.get('winners'))}, the play "
                           f"gives {gives}")
            if not _same(record.get("double"), log.double):
                raise fail(f"double: recorded {as_json(record.get('double'))}, the play gives "
                           f"{as_json(log.double)}")
    if state is None:
        raise RecordError(f"{_located(source, None)}no records")
    return state


def as_json(value: Any) -> str:
    """A value read from a record, for a message, as JSON spells it (``null``, ``true``,
    ``{"N": 3}``): the record is JSON, not Python; a text quoted as every message quotes one
    (``'X'``), long ones cut short as ``quoted`` cuts them."""
    if isinstance(value, str):
        return quoted(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):     # (no JSON value: an object a Python caller gave)
        return quoted(value)
    return text if len(text) <= 2 * QUOTE_CHARACTERS else \
        f"{text[:QUOTE_CHARACTERS]}...{text[-QUOTE_CHARACTERS // 2:]}"


def _check_keys(record: Any, where: str, located: str = "") -> None:
    """A record is an object of the keys a record has, every one of them; ``located``: the
    file and line alone, where an object of none of them is said to be no record."""
    if not isinstance(record, Mapping):
        raise RecordError(f"{where}: a record is an object, not {as_json(record)}")
    missing = [k for k in RECORD_KEYS if k not in record]
    if "pack" in missing and "actions" in missing:  # (a solve's --json line, say)
        keys = ", ".join(map(str, list(record)[:4])) + (", ..." if len(record) > 4 else "")
        raise RecordError(f"{located}not a game record (an object of {keys or 'no keys'}; a "
                          f"record is a line that 'allfives match --record' or 'play "
                          f"--record' writes)")
    if missing:
        raise RecordError(f"{where}: missing key {quoted(missing[0])}")
    extra = [k for k in record if k not in (*RECORD_KEYS, *GAME_END_KEYS, START_KEY)]
    if extra:
        raise RecordError(f"{where}: unknown key {quoted(extra[0])}")


def _same(mine: Any, theirs: Any) -> bool:
    """Whether two values read from JSON are the same value of the same type: ``true`` is not
    ``1``, nor ``1.0`` ``1``, as Python's ``==`` would have them."""
    if type(mine) is not type(theirs):
        return False
    if isinstance(mine, Mapping):
        return mine.keys() == theirs.keys() and all(_same(mine[k], theirs[k]) for k in mine)
    if isinstance(mine, list):
        return len(mine) == len(theirs) and all(map(_same, mine, theirs))
    return bool(mine == theirs)


def _first_difference(key: str, mine: Any, theirs: Any, deal: Any) -> str:
    """How a record's ``key`` differs from deal ``deal``'s: inside two objects (the rules, the
    players) the first entry that does (``rules.target: 41 differs from deal 1's 31``), else
    the whole values."""
    if isinstance(mine, Mapping) and isinstance(theirs, Mapping):
        for entry in list(theirs) + [k for k in mine if k not in theirs]:
            if entry not in mine:
                return f"{key}.{entry}: missing, where deal {deal} has {as_json(theirs[entry])}"
            if entry not in theirs:
                return f"{key}.{entry}: {as_json(mine[entry])}, where deal {deal} has none"
            if not _same(mine[entry], theirs[entry]):
                key, mine, theirs = f"{key}.{entry}", mine[entry], theirs[entry]
                break
    return f"{key}: {as_json(mine)} differs from deal {deal}'s {as_json(theirs)}"


def deal_opening(record: Mapping[str, Any]) -> MatchState:
    """The state a match's first record starts from, its pack dealt: ready for the record's
    actions (``replay`` checks a whole match; this lets a caller step through one deal)."""
    where = f"deal {record.get('deal', 1) if isinstance(record, Mapping) else 1}"
    _check_keys(record, where)

    def fail(detail: str) -> RecordError:
        return RecordError(f"{where}, {detail}")

    state = _start(record, fail)
    try:
        state.deal_pack(record["pack"])
    except GameError as error:
        raise fail(str(error)) from None
    return state


def _table_of(score: Any) -> int | None:
    """The table a record's ``score`` is of, by its sides (``N S``: 2 players, ``NS EW``: 4),
    or None where they are no table's."""
    if not isinstance(score, Mapping):
        return None
    return next((n for n in (2, 3, 4)
                 if set(score) == {side_name(s, n) for s in range(side_count(n))}), None)


def _start(record: Mapping[str, Any], fail) -> MatchState:
    """The state a match's first record starts from."""
    players = record["players"]
    if not isinstance(players, Mapping) or len(players) not in (2, 3, 4):
        raise fail(f"players: {as_json(players)} is not one name per seat")
    n = len(players)
    if set(players) != set(seat_names(n)) or not all(isinstance(v, str) for v in players.values()):
        raise fail(f"players: {as_json(players)} is not one name per seat "
                   f"{' '.join(seat_names(n))}")
    for seat, name in players.items():
        if control_problem(name, "name"):
            raise fail(f"players.{seat}: {control_problem(name, 'name')}")
    scored = _table_of(record["score"])
    if scored not in (None, n):
        raise fail(f"players: {counted(n, 'seat')} ({' '.join(seat_names(n))}), where the "
                   f"score's sides ({' '.join(record['score'])}) are a {scored}-player table's")
    rules_in = record["rules"]
    if not isinstance(rules_in, Mapping):
        raise fail(f"rules: {as_json(rules_in)} is not an object")
    options = {k: v for k, v in rules_in.items() if k != "preset"}
    missing = [k for k in OPTION_NAMES if k not in options]
    if missing:
        raise fail(f"rules: missing option {quoted(missing[0])}")
    preset = rules_in.get("preset", "all-fives")
    if not isinstance(preset, str):
        raise fail(f"rules.preset: {as_json(preset)} is not a preset's name")
    try:  # as written, not read from text: a record's true is true, not "yes" or 1
        rules = Rules.preset(preset).replace(**options)
    except AllFivesError as error:
        raise fail(f"rules: {error}") from None
    try:
        match = Match(n, rules, record["best_of"])
    except AllFivesError as error:
        raise fail(f"best_of: {error}") from None
    dealer = record["dealer"]
    if not isinstance(dealer, str) or len(dealer) != 1 or dealer not in seat_names(n):
        raise fail(f"dealer: {as_json(dealer)} is not a seat ({' '.join(seat_names(n))})")
    start = record.get(START_KEY)
    score = None
    if start is not None:
        sides = [side_name(s, n) for s in range(match.sides)]
        if not isinstance(start, Mapping) or sorted(start) != sorted(sides):
            raise fail(f"{START_KEY}: {as_json(start)} is not one score a side ({' '.join(sides)})")
        score = [start[side] for side in sides]
        problem = score_problem(score, match.sides, match.rules.target)
        if problem is not None:     # (as the record writes it, not as Python would)
            raise fail(f"{START_KEY}: {as_json(start)}: {problem}")
    try:
        return match.new_initial_state(dealer=seat_names(n).index(dealer), score=score,
                                       auto_deal=False)
    except GameError as error:
        raise fail(f"{START_KEY}: {error}") from None
