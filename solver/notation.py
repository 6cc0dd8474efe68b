"""Deal files: the TOML form and the one-line form (README, "Deal files"), read and written without loss.

TOML::

    rules = "all-fives"     # optional preset
    dealer = "S"            # optional; default the last seat
    trump = "H"             # or turnup = "7H", or both if they agree
    play = ["AH", "4H"]     # optional cards played so far

    [hands]                 # N S, N E S or N E S W; a card list or a PBN holding each
    N = "AH KH 5H 9C 2D 3S"
    S = "TH QH 4H 8C JD 7S"

    [options]               # rule options over the preset
    follow = "strict"

    [score]                 # match score before the deal, per seat (or either partner)
    N = 52
    S = 58

One line, on the model of PBN's deal string: hands clockwise from the named seat as PBN holdings,
then ``key=value`` words::

    N:AK5.9.32.- T4Q.8.J.7 dealer=S turnup=7H play=AH,4H follow=strict score=52,58

A hand its writer cannot see may be hidden, for advice from one seat's view: ``"?"`` in TOML
and ``-`` on one line, as PBN writes an unknown hand.  Its size follows from the hands shown; the
cards it has played are in ``play``.  Only a reader asked for them (``hidden=True``) takes hidden
hands: a solve needs every hand.

A text may hold several deals in TOML, one after another, with a line ``# ---`` between two
(as ``allfives deal --count K`` writes them); ``read_positions`` and ``load_positions`` read them
all, the k-th named ``SOURCE#k``.

The functions here read text into a ``Layout`` (the hands, trumps, dealer, rules, turn-up,
score and play as plain values) and write a ``Layout`` back as text; ``solver.deal`` builds its
``Deal`` and ``Position`` from a layout, so this module knows nothing of the model above it.

Every mistake is a ``DealFileError`` whose message names the source, the key and the bad token:
``deal.toml: hands.E: unknown card 'ZZ'``.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from os import PathLike
from typing import Any, Literal, NamedTuple

from .cards import (SUIT_NAMES, Card, card_str, hand_str, holding_str, parse_card, parse_hand,
                    parse_suit, sort_cards, suit_of, suit_str)
from .errors import AllFivesError, as_typed, counted, lower, quoted, shown_path, upper, whole, \
    whole_number
from .rules import OPTION_TYPES, PRESETS, Rules, option_text, spelled_as
from .tricks import SEAT_NAMES, parse_seat, seat_names, side_count, side_name, side_of, side_seats

__all__ = ["DealFileError", "Layout", "HIDDEN", "parse_toml", "toml_str", "parse_line", "line_str",
           "read_layouts", "read_file", "is_toml_name", "is_line_form", "SEPARATOR",
           "toml_parts", "PUZZLE_KEYS", "EVIDENCE_KEYS", "check_puzzle_table", "value_kind",
           "named_layouts", "MAX_TEXT_BYTES", "read_limited", "BOM", "is_blank", "COMPASS",
           "text_lines", "MAX_DEAL_CHARACTERS", "check_deal_size", "check_toml_text"]

#: ``puzzle``: a puzzle file's own table, read by ``solver.puzzles``; the deal checks only its
#: shape and its keys, ``PUZZLE_KEYS``.
TOP_KEYS = ("rules", "dealer", "trump", "turnup", "aside", "calls", "hands", "play", "options",
            "score", "puzzle")
PUZZLE_KEYS = ("side", "objective", "target", "line", "title", "themes", "rating", "seed",
               "solved_by", "evidence")
#: What ``solver.puzzles.rating`` gathers as a rating's evidence (``[puzzle.evidence]``): which
#: of its ladder of players solve the puzzle, the Monte Carlo players' tries, and the line's
#: measures.
EVIDENCE_KEYS = ("solved_random", "solved_heuristic", "solved_search_200", "solved_pimc_2",
                 "solved_search_2000", "solved_pimc_8", "solved_cheater", "pimc_tries",
                 "real_choices", "wrong", "tempting", "nodes")
#: The four seats, in the order of play: a one-line position starts at one of them.
COMPASS = SEAT_NAMES[4]
#: The calls a deal may have had before its play, as a record spells them: the elder hand's
#: and, to a beg, the dealer's.
CALL_WORDS = (("stand",), ("beg", "take-one"), ("beg", "run"))
#: The line between two deals in one TOML text (trailing blanks allowed when reading).
SEPARATOR = "# ---"
#: The byte-order mark some editors put at the start of a UTF-8 file.
BOM = "\ufeff"
_SEPARATOR_LINE = re.compile("^" + re.escape(SEPARATOR) + r"[^\S\n]*$", re.MULTILINE)
_LINE_END = re.compile(r"\r\n|\r|\n")


def text_lines(text: str) -> list[str]:
    """The lines of a file's text as an editor and ``grep -n`` count them, parted at its line
    ends (``\n``, ``\r\n``, ``\r``) alone: a form feed, U+2028 and the other breaks that
    ``str.splitlines`` parts at are characters of a line (of a comment, say)."""
    lines = _LINE_END.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines
#: A hidden hand in TOML, and on one line (where ``?`` is read too).
HIDDEN = "?"
HIDDEN_LINE = "-"



class DealFileError(AllFivesError):
    """A deal file or one-line position that cannot be read; says where and quotes the token."""


class Layout(NamedTuple):
    """A position as a text gives it: the fields of a ``Deal``, the cards played, and the name
    of the text it came from (for messages).  Hands are in seat order, each sorted."""

    hands: tuple[tuple[Card, ...], ...]
    trump: int
    dealer: int | None
    rules: Rules
    turnup: Card | None = None
    score: tuple[int, ...] | None = None
    play: tuple[Card, ...] = ()
    source: str = "<string>"
    #: The seats whose hands are hidden (their entry in ``hands`` is empty), in seat order.
    hidden: tuple[int, ...] = ()
    #: The turn-ups set aside by runs, in no hand, in the order turned (the ``turnup`` is the
    #: last): cards every seat has seen, which a hidden hand cannot hold.
    aside: tuple[Card, ...] = ()
    #: The calls made before the play, one of ``CALL_WORDS`` (empty: not given).
    calls: tuple[str, ...] = ()


def check_puzzle_table(table: Any, source: str, error: type[AllFivesError] = DealFileError
                       ) -> None:
    """A ``[puzzle]`` table's shape and keys (``solver.puzzles`` reads the rest): raised as
    ``error``."""
    def known_keys(name: str, value: Any, keys: tuple[str, ...]) -> None:
        if not isinstance(value, dict):
            raise error(f"{source}: {name}: expected a table, not {quoted(value)}")
        for key in value:
            if key not in keys:
                raise error(f"{source}: {name}: unknown key {quoted(key)} (expected "
                            f"{', '.join(keys)})")

    known_keys("puzzle", table, PUZZLE_KEYS)
    known_keys("puzzle.evidence", table.get("evidence", {}), EVIDENCE_KEYS)


#: The most characters one deal (or puzzle) may take, comments and all: a deal of four hands
#: of 12 cards and its whole play take some hundreds, where a document of many megabytes took
#: TOML's reader a second and some 20 MB a megabyte before its first mistake was found.
MAX_DEAL_CHARACTERS = 2**20


def check_deal_size(text: str, source: str, error: type[AllFivesError] = DealFileError) -> None:
    """An ``error`` naming ``source`` where ``text``, one deal's, is longer than
    ``MAX_DEAL_CHARACTERS``."""
    if len(text) > MAX_DEAL_CHARACTERS:
        raise error(f"{source}: {len(text):,} characters, more than {MAX_DEAL_CHARACTERS:,}: "
                    f"too large for one deal")


#: The most parts a dotted key may have (``puzzle.evidence`` has two): TOML's reader takes time
#: and memory that grow with the square of a key's parts (a key of 20,000 parts, 40 KB of text,
#: took 23 s and 1.6 GB).
MAX_KEY_PARTS = 64
# (a bare part is matched from its start only, whole, and a quoted one whole: the search is
# then as long as the text, where letting it start inside a long word made it the square)
_KEY_PART = r"""(?:(?<![A-Za-z0-9_-])[A-Za-z0-9_-]++|"[^"\\\n]*+"|'[^'\n]*+')"""
_DOTTED_KEY = re.compile(rf"(?:{_KEY_PART}[ \t]*\.[ \t]*)+{_KEY_PART}")
_PART = re.compile(_KEY_PART)


def check_toml_text(text: str, source: str, lines_before: int = 0,
                    error: type[AllFivesError] = DealFileError) -> None:
    """An ``error`` naming ``source`` where ``text`` is more than TOML's reader is to be given:
    longer than one deal (``check_deal_size``), or holding words parted by more than
    ``MAX_KEY_PARTS`` - 1 dots (a dotted key of TOML, or what would read as one: the line is
    named)."""
    check_deal_size(text, source, error)
    for run in _DOTTED_KEY.finditer(text):
        if len(_PART.findall(run.group())) > MAX_KEY_PARTS:
            line = text.count("\n", 0, run.start()) + 1 + lines_before
            raise error(f"{source}: line {line}: a key of more than {MAX_KEY_PARTS} parts "
                        f"parted by dots: no deal has one")


def _check_text(text: object, source: str) -> None:
    if not isinstance(text, str):
        raise _fail(source, None, f"expected the text of a position, not {quoted(text)}")
    check_deal_size(text, source)


def _fail(source: str, key: str | None, message: str) -> DealFileError:
    where = f"{source}: {key}: " if key else f"{source}: "
    return DealFileError(where + message)


class _At:
    """Turns the model's errors raised inside it into a ``DealFileError`` at ``source: key``."""

    def __init__(self, source: str, key: str | None) -> None:
        self.source, self.key = source, key

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, tb) -> Literal[False]:
        if error is not None and isinstance(error, AllFivesError):
            raise _fail(self.source, self.key, str(error)) from error
        return False


# ---- the parts common to both forms ----------------------------------------------------------


class _Parts:
    """The pieces of a position as read, before they become a ``Deal``."""

    def __init__(self, source: str, hidden: bool = False) -> None:
        self.source = source
        self.hands: dict[str, list[Card]] = {}   # seat letter -> cards
        #: Whether hidden hands are allowed, and the seats given as hidden.
        self.allow_hidden = hidden
        self.hidden: set[str] = set()
        self.rules = "all-fives"
        self.options: dict[str, Any] = {}
        self.dealer: str | None = None
        self.trump: str | None = None
        self.turnup: str | None = None
        self.aside: list[Card] = []
        self.calls: tuple[str, ...] = ()
        self.play: list[Card] = []
        self.score: dict[str, int] | list[int] | None = None
        #: How an option is named in messages: ``options.follow`` in TOML, ``follow`` on a line.
        self.option_key = "options.{}"

    def seats(self) -> str:
        letters = set(self.hands)
        n = len(letters)
        if n not in (2, 3, 4):
            raise _fail(self.source, "hands", f"a table has 2, 3 or 4 players, not {n}")
        names = seat_names(n)
        for seat in self.hands:
            if seat not in names:
                # a hand left out of a larger table (N S W: E's), rather than a seat too many
                larger = next((seat_names(m) for m in range(n + 1, 5)
                               if letters <= set(seat_names(m))), None)
                if larger is not None:
                    missing, given = (" ".join(s for s in larger if (s in letters) == held)
                                      for held in (False, True))
                    raise _fail(self.source, "hands",
                                f"no hand for {missing}: {given} are {n} of the seats of a "
                                f"{len(larger)}-player table ({' '.join(larger)}), and a "
                                f"{n}-player table is {' '.join(names)}")
                raise _fail(self.source, f"hands.{seat}",
                            f"no seat {quoted(seat)} at a {n}-player table (seats {' '.join(names)})")
        return names

    def layout(self) -> Layout:
        src = self.source
        names = self.seats()
        n = len(names)
        hands = [self.hands[s] for s in names]
        hidden = tuple(i for i, s in enumerate(names) if s in self.hidden)
        _check_hands(src, names, hands, hidden)
        preset, colon, _ = self.rules.partition(":")
        if colon and preset.strip() in PRESETS:     # the command line's spec, written here
            where = "go in an [options] table" if self.option_key.startswith("options") else \
                "are words of their own on the line (skunk=true)"
            raise _fail(src, "rules", f"{quoted(self.rules)}: here rules name a preset alone; "
                                      f"its options {where}")
        with _At(src, "rules"):
            Rules.preset(self.rules)
        for name, value in self.options.items():
            with _At(src, self.option_key.format(name)):
                Rules.from_options(self.rules, {name: value})
        rules = Rules.from_options(self.rules, self.options)
        dealer = None
        if self.dealer is not None:
            with _At(src, "dealer"):
                dealer = parse_seat(self.dealer, n)
        trump, turnup = self._trumps(hands)
        self._check_aside(names, hands, turnup, rules)
        self._check_calls(hands, turnup)
        score = self._score(n)
        return Layout(tuple(tuple(sort_cards(h)) for h in hands), trump, dealer, rules, turnup,
                      score, tuple(self.play), src, hidden, tuple(self.aside), self.calls)

    def read_calls(self, key: str, value: object) -> None:
        """``calls``: ``"beg, run"`` (words parted by commas or spaces) or an array of them;
        ``take one`` and ``take_one`` are ``take-one``."""
        items = value if isinstance(value, list) else [value]
        text = lower(" ".join(_text(self.source, key, item) for item in items))
        calls = tuple(re.sub(r"take[\s_-]*one", "take-one", text).replace(",", " ").split())
        if calls not in CALL_WORDS:
            known = [repr(", ".join(c)) for c in CALL_WORDS]
            raise _fail(self.source, key, f"{quoted(', '.join(calls))} is not "
                                          f"{', '.join(known[:-1])} or {known[-1]} (the elder "
                                          f"hand's call, and the dealer's to a beg)")
        self.calls = calls

    def _check_calls(self, hands: list[list[Card]], turnup: Card | None) -> None:
        """Calls that fit the deal: made on a turn-up; after a stand or a take-one no turn-up
        set aside and hands of 6 as dealt; after a run the turn-ups it set aside (``aside``,
        which holds the suit first proposed; ``_check_runs`` fits the hands to them)."""
        if not self.calls:
            return
        calls = quoted(", ".join(self.calls))
        if turnup is None:
            raise _fail(self.source, "calls", f"{calls}: calls are made on a turn-up: give "
                                              f"turnup")
        if self.calls[-1] == "run" and not self.aside:
            raise _fail(self.source, "calls", f"{calls}: give aside, the turn-ups the runs set "
                                              f"aside (the suit first proposed is theirs)")
        if self.calls[-1] != "run" and self.aside:
            raise _fail(self.source, "calls", f"{calls}, but aside holds turn-ups set aside by "
                                              f"a run")
        size = max(len(hand) for hand in hands)     # (a hidden hand is empty)
        if self.calls[-1] != "run" and size != 6:
            raise _fail(self.source, "calls", f"after {calls} the hands as dealt hold 6 cards, "
                                              f"not {size}")

    def _check_aside(self, names: str, hands: list[list[Card]], turnup: Card | None,
                     rules: Rules) -> None:
        """The turn-ups set aside: each once, in no hand, and not the turn-up, which must be
        given (the last card turned up, after them)."""
        if self.aside and turnup is None:
            raise _fail(self.source, "aside", "the cards set aside by runs come with the turn-up "
                                              "after them: give turnup")
        for i, card in enumerate(self.aside):
            key, face = f"aside[{i}]", quoted(card_str(card))
            if card in self.aside[:i]:
                raise _fail(self.source, key, f"{face} is set aside twice")
            if card == turnup:
                raise _fail(self.source, key, f"{face} is the turn-up, not one set aside")
            for seat, hand in zip(names, hands):
                if card in hand:
                    raise _fail(self.source, key, f"{face} is set aside, but is in {seat}'s "
                                                  f"hand")
            if suit_of(card) != suit_of(self.aside[0]):
                raise _fail(self.source, key, f"{face} is not of the suit first proposed "
                                              f"({SUIT_NAMES[suit_of(self.aside[0])]}): a run "
                                              f"sets aside only turn-ups of that suit")
        if self.aside:
            assert turnup is not None   # (a run's cards set aside come with the turn-up)
            self._check_runs(hands, turnup, rules)

    def _check_runs(self, hands: list[list[Card]], turnup: Card, rules: Rules) -> None:
        """As many runs as turn-ups set aside: no more than the rules allow, the last card
        turned up of another suit, and every hand 3 cards a run larger than 6."""
        runs, suit = len(self.aside), suit_of(self.aside[0])
        if suit_of(turnup) == suit:
            raise _fail(self.source, "turnup", f"{quoted(card_str(turnup))} is of the suit set "
                                               f"aside ({SUIT_NAMES[suit]}), which a run turns "
                                               f"up again only to run again")
        if rules.max_runs is not None and runs > rules.max_runs:
            raise _fail(self.source, "aside", f"{counted(runs, 'turn-up')} set aside, but the "
                                              f"rules allow {counted(rules.max_runs, 'run')}")
        size = max(len(hand) for hand in hands)     # (a hidden hand is empty)
        if size != 6 + 3 * runs:
            raise _fail(self.source, "aside", f"{counted(runs, 'run')} "
                                              f"deal{'s' if runs == 1 else ''} hands of "
                                              f"{6 + 3 * runs} cards, not {size}")

    def hide(self, seat: str, key: str) -> None:
        """``seat``'s hand is given as hidden (at ``key`` of the text)."""
        if not self.allow_hidden:
            raise _fail(self.source, key, "the hand is hidden, but this needs every hand "
                                          "(hidden hands are for advice from one seat)")
        self.hidden.add(seat)
        self.hands[seat] = []

    def _trumps(self, hands: list[list[Card]]) -> tuple[int, Card | None]:
        src = self.source
        turnup = trump = None
        if self.turnup is not None:
            with _At(src, "turnup"):
                turnup = parse_card(self.turnup)
            for seat, hand in zip(seat_names(len(hands)), hands):
                if turnup in hand:
                    raise _fail(src, "turnup", f"{quoted(self.turnup)} is also in {seat}'s hand")
        if self.trump is not None:
            with _At(src, "trump"):
                trump = parse_suit(self.trump)
            if turnup is not None and suit_of(turnup) != trump:
                raise _fail(src, "trump",
                            f"{quoted(self.trump)} contradicts turn-up {quoted(self.turnup)}")
        if trump is None:
            if turnup is None:
                raise _fail(src, None, "no trumps: give 'trump' (a suit) or 'turnup' (a card)")
            trump = suit_of(turnup)
        return trump, turnup

    def _score(self, n: int) -> tuple[int, ...] | None:
        src, given = self.source, self.score
        if given is None:
            return None
        sides = side_count(n)
        if isinstance(given, list):
            if len(given) != sides:
                raise _fail(src, "score", f"{counted(len(given), 'entry', 'entries')} given, "
                                          f"but the table has "
                                          f"{sides} sides ({_side_list(n)})")
            return tuple(given)
        names = seat_names(n)
        score: list[int | None] = [None] * sides
        for seat, points in given.items():
            if seat not in names:
                raise _fail(src, f"score.{seat}",
                            f"no seat {quoted(seat)} at a {n}-player table (seats {' '.join(names)})")
            side = side_of(names.index(seat), n)
            if score[side] is not None and score[side] != points:
                raise _fail(src, f"score.{seat}", f"{points} disagrees with partner's "
                                                  f"{score[side]}")
            score[side] = points
        missing = [side_name(s, n) for s in range(sides) if score[s] is None]
        if missing:
            raise _fail(src, "score", f"no score for {' '.join(missing)}")
        return tuple(score)  # type: ignore[arg-type]


def _side_list(n: int) -> str:
    return " ".join(side_name(s, n) for s in range(side_count(n)))


def _check_hands(source: str, names: str, hands: list[list[Card]],
                 hidden: tuple[int, ...] = ()) -> None:
    """Every card once, every hand shown the same size; the message names the seat at fault."""
    if len(hidden) == len(names):
        raise _fail(source, "hands", "every hand is hidden: the hand size follows from the "
                                     "hands shown")
    shown = [(seat, hand) for i, (seat, hand) in enumerate(zip(names, hands)) if i not in hidden]
    holder: dict[Card, str] = {}
    for seat, hand in zip(names, hands):
        for card in hand:
            if card in holder:
                raise _fail(source, f"hands.{seat}",
                            f"card {quoted(card_str(card))} is also in {holder[card]}'s hand")
            holder[card] = seat
    first, size = shown[0][0], len(shown[0][1])
    if size == 0:
        raise _fail(source, f"hands.{first}", "the hand is empty")
    for seat, hand in shown:
        if len(hand) != size:
            raise _fail(source, f"hands.{seat}",
                        f"{counted(len(hand), 'card')}, but {first} has {size}")


# ---- TOML ----------------------------------------------------------------------------------


def value_kind(value: object) -> str:
    """What a TOML value is, for a message: ``a string``, ``a decimal number``, ``an array``."""
    return {str: "a string", bool: "true or false", int: "a whole number",
            float: "a decimal number",
            list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


def _text(source: str, key: str, value: object) -> str:
    if not isinstance(value, str):
        raise _fail(source, key, f"expected a string, not {value_kind(value)} ({quoted(value)})")
    return value


def _table(source: str, key: str, value: object) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _fail(source, key, f"expected a table, not {value_kind(value)} ({quoted(value)})")
    return value


def _cards(source: str, key: str, value: object, ordered: bool = False) -> list[Card]:
    """A card list given as a TOML array of cards or a string of cards (a hand also as a PBN
    holding; not cards in an order, ``ordered``, which a holding does not keep)."""
    if isinstance(value, str):
        if ordered and "." in value:
            raise _fail(source, key, f"{quoted(value)} is a hand's holding, which keeps no "
                                     f"order: the cards are written in turn (\"AH 3C\")")
        with _At(source, key):
            return parse_hand(value)
    if not isinstance(value, list):
        raise _fail(source, key, f"expected cards, not {value_kind(value)} ({quoted(value)})")
    cards = []
    for i, token in enumerate(value):
        if not isinstance(token, str):
            raise _fail(source, f"{key}[{i}]", f"expected a card, not {quoted(token)}")
        with _At(source, f"{key}[{i}]"):
            cards.append(parse_card(token))
    return cards


def parse_toml(text: str, source: str = "<string>", hidden: bool = False,
               lines_before: int = 0) -> Layout:
    """Read the TOML form of one position; ``source`` names it in error messages.  With
    ``hidden`` a hand may be ``"?"``: hidden (``Layout.hidden``).  ``lines_before``: the lines
    of a larger text above it (``toml_parts``), which the messages' line numbers count."""
    before = whole(lines_before)
    if before is None or before < 0:
        raise DealFileError(f"lines_before: {quoted(lines_before)} is not a whole number of "
                            f"lines, 0 or more")
    return _parse_toml(text, source, before, hidden)


_TOML_LINE = re.compile(r"\(at line (\d+),")
#: tomllib's words for a table given twice, the table's name as Python's tuple of its keys.
_TWICE = re.compile(r"Cannot declare \((.*?)\) twice")
_TABLE_NAME = re.compile(r"'([^']*)'")
#: A line that looks meant as a separator of deals: ``#---``, `` # ---``, ``# --- next``.
_NEAR_SEPARATOR = re.compile(r"^\s*#\s*-{2,}")


def _unparted(text: str, error: str) -> int | None:
    """The line (from 1) of ``text`` that looks meant to part two deals (``#---``, ``# ---
    next``) but does not, the last between a first key and the line of tomllib's ``error``."""
    at = _TOML_LINE.search(error)
    lines = text_lines(text)[:int(at[1]) - 1 if at else 0]
    written = [i for i, line in enumerate(lines)
               if line.strip() and not line.lstrip().startswith("#")]
    return next((i + 1 for i in range(len(lines) - 1, -1, -1)
                 if written and i > written[0] and _NEAR_SEPARATOR.match(lines[i])
                 and not _SEPARATOR_LINE.match(lines[i])), None)


def _key_at(text: str, error: str) -> str | None:
    """The key written at the start of the line of tomllib's ``error`` (``dealer`` of
    ``dealer = "N"``), where the line has one."""
    at = _TOML_LINE.search(error)
    lines = text_lines(text)
    if not at or not 0 < int(at[1]) <= len(lines):
        return None
    key = lines[int(at[1]) - 1].partition("=")[0].strip()
    return key if key and "=" in lines[int(at[1]) - 1] and len(key) <= 40 else None


def _parse_toml(text: str, source: str, lines_before: int, hidden: bool = False) -> Layout:
    """``parse_toml`` of a text that starts after ``lines_before`` lines of a larger one: TOML's
    line numbers are given as lines of the whole."""
    _check_text(text, source)
    data = _toml_data(text, source, lines_before)
    parts = _Parts(source, hidden)
    for key in data:
        if key not in TOP_KEYS:
            hint = f" (a hand goes in the [hands] table: [hands] on a line, then {key} = ...)" \
                if upper(key.strip()) in COMPASS and len(key.strip()) == 1 else ""
            raise _fail(source, None, f"unknown key {quoted(key)}{hint}")
    if "puzzle" in data:
        check_puzzle_table(data["puzzle"], source)
    if "rules" in data:
        parts.rules = _text(source, "rules", data["rules"]).strip()
    if "dealer" in data:
        parts.dealer = _text(source, "dealer", data["dealer"])
    if "trump" in data:
        parts.trump = _text(source, "trump", data["trump"])
    if "turnup" in data:
        parts.turnup = _text(source, "turnup", data["turnup"])
    if "aside" in data:
        parts.aside = _cards(source, "aside", data["aside"], ordered=True)
    if "calls" in data:
        parts.read_calls("calls", data["calls"])
    if "hands" not in data:
        raise _fail(source, None, "no [hands]")
    data = _read_hands(parts, data)
    if "play" in data:
        parts.play = _cards(source, "play", data["play"], ordered=True)
    if "options" in data:
        _read_options(parts, data["options"])
    if "score" in data:
        parts.score = _score_table(source, data["score"])
    return parts.layout()


def _toml_data(text: str, source: str, lines_before: int) -> dict[str, Any]:
    """The TOML of a deal's text, or a ``DealFileError`` that says what is wrong with it in the
    whole file's lines, and what it looks like instead."""
    check_toml_text(text, source, lines_before)
    try:
        data = tomllib.loads(text.removeprefix(BOM))
    except tomllib.TOMLDecodeError as error:
        message = _TOML_LINE.sub(lambda m: f"(at line {int(m[1]) + lines_before},", str(error))
        # the end of a deal of several is a line of the whole file too
        message = message.replace("(at end of document)", f"(at the end, line "
                                  f"{max(1, len(text_lines(text))) + lines_before})")
        message = _TWICE.sub(lambda m: f"[{'.'.join(_TABLE_NAME.findall(m[1]))}] is declared "
                                       f"twice", message)
        # a key or table given twice: two deals, maybe, not parted
        twice = "declared twice" in message or "Cannot overwrite" in message
        key = _key_at(text, str(error)) if "Cannot overwrite a value" in message else None
        if key:     # (a key given twice: named, as a table given twice is)
            message = message.replace("Cannot overwrite a value", f"{key} is given twice")
        near = _unparted(text, str(error)) if twice else None
        if near is not None:
            message += (f"; line {near + lines_before} does not part two deals: a separator "
                        f"is '{SEPARATOR}' alone on its line")
        if is_line_form(text):  # one-line positions in a file named .toml
            message += "; it starts like a one-line position, which a file not named .toml holds"
        elif text.removeprefix(BOM).lstrip().startswith("{"):   # (a command's --json, say)
            message += ("; it starts like JSON, which a position is not (a deal file is TOML, "
                        "or one position on a line)")
        raise _fail(source, None, f"not TOML: {message}") from None
    except RecursionError:
        raise _fail(source, None, "not TOML: arrays or tables nested too deeply") from None
    except ValueError:  # the one other thing tomllib lets through: Python's cap on int digits
        raise _fail(source, None, "not TOML: a number of more than 4,300 digits") from None
    return data


def _read_hands(parts: _Parts, data: dict[str, Any]) -> dict[str, Any]:
    """The ``[hands]`` table into ``parts``; ``data`` with a ``play`` written below
    ``[hands]`` (where TOML puts it in that table) taken out of it."""
    source = parts.source
    hands = dict(_table(source, "hands", data["hands"]))
    if "play" in hands:
        # ``play = [...]`` written after ``[hands]`` lands in that table (as the README allows)
        if "play" in data:
            where = "a [play] table" if isinstance(data["play"], dict) else "play = [...] above"
            raise _fail(source, "hands.play", f"play is given twice (in [hands] and as {where})")
        data = {**data, "play": hands.pop("play")}
    for key, value in hands.items():
        seat = upper(key.strip())
        if key in TOP_KEYS:     # (calls = "beg" below [hands], say)
            raise _fail(source, f"hands.{key}", f"{key} written below [hands] is in that table, "
                                                f"where TOML puts it: write it above [hands]")
        if len(seat) != 1 or seat not in COMPASS:
            raise _fail(source, f"hands.{key}", f"unknown seat {quoted(key)} (seats are N E S W)")
        if seat in parts.hands:
            raise _fail(source, f"hands.{key}", f"seat {seat} is given twice")
        if not isinstance(value, (str, list)):
            raise _fail(source, f"hands.{key}", f"expected cards, not {value_kind(value)} ({quoted(value)})")
        if isinstance(value, str) and value.strip() in (HIDDEN, HIDDEN_LINE):
            parts.hide(seat, f"hands.{key}")    # refused where every hand is needed
            if value.strip() == HIDDEN_LINE:
                raise _fail(source, f"hands.{key}", f"'{HIDDEN_LINE}' hides a hand in the "
                                                    f"one-line form; in a deal file a hidden "
                                                    f"hand is \"{HIDDEN}\"")
            continue
        parts.hands[seat] = _cards(source, f"hands.{key}", value)
    return data


def _read_options(parts: _Parts, table: Any) -> None:
    """The ``[options]`` table into ``parts``, each value of its option's type."""
    source = parts.source
    for name, value in _table(source, "options", table).items():
        kind = OPTION_TYPES.get(name)
        if kind is None:        # an unknown name is told as such (by Rules), whatever its value
            parts.options[name] = value
            continue
        expected = _OPTION_VALUES[kind]
        if isinstance(value, float):
            raise _fail(source, f"options.{name}",
                        f"expected {expected}, not the decimal number {value!r}")
        if isinstance(value, (list, dict)):
            raise _fail(source, f"options.{name}",
                        f"expected {expected}, not {value_kind(value)} ({quoted(value)})")
        _check_option_type(source, name, value)
        parts.options[name] = value


def _score_table(source: str, table: Any) -> dict[str, int]:
    """The ``[score]`` table: points by seat, each seat once."""
    score: dict[str, int] = {}
    for key, value in _table(source, "score", table).items():
        if isinstance(value, bool) or not isinstance(value, int):
            shown = _toml_value(value) if isinstance(value, bool) else quoted(value)
            raise _fail(source, f"score.{key}", f"expected a whole number, not {shown}")
        seat = upper(key.strip())
        named = seat if len(seat) == 1 and seat in COMPASS else key
        if named in score:      # (N and n: one seat, written in two cases)
            raise _fail(source, f"score.{key}", f"seat {named} is given twice")
        # (a key that is no seat is told with the table's seats, once the hands make it)
        score[named] = value
    return score


#: What a TOML file writes for each type of rule option.
_OPTION_VALUES = {"bool": "true or false", "int": "a whole number",
                  "int | None": 'a whole number or "none"', "str": "a word in quotes"}


def _check_option_type(source: str, name: str, value: Any) -> None:
    """A rule option of a TOML file is written as its type (``capture = true``, not
    ``capture = "no"`` or ``0``; ``target = 61``, not ``"61"``); an unknown name is left to
    ``Rules``."""
    kind = OPTION_TYPES.get(name)
    number = isinstance(value, int) and not isinstance(value, bool)
    if kind is None or {"bool": isinstance(value, bool), "int": number,
                        "int | None": number or value == "none",
                        "str": isinstance(value, str)}[kind]:
        return
    raise _fail(source, f"options.{name}",
                f"expected {_OPTION_VALUES[kind]}, not {_toml_value(value)}")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if value is None:
        return '"none"'
    return _toml_string(str(value))


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _dealer(layout: Layout) -> int:
    return len(layout.hands) - 1 if layout.dealer is None else layout.dealer


def toml_str(layout: Layout) -> str:
    """The canonical TOML form; ``parse_toml`` reads it back to an equal layout."""
    n = len(layout.hands)
    names = seat_names(n)
    rules = layout.rules
    lines = []
    if rules.preset_name != "all-fives":
        lines.append(f"rules = {_toml_string(rules.preset_name)}")
    lines.append(f"dealer = {_toml_string(names[_dealer(layout)])}")
    lines.append(f"trump = {_toml_string(suit_str(layout.trump))}")
    if layout.turnup is not None:
        lines.append(f"turnup = {_toml_string(card_str(layout.turnup))}")
    if layout.aside:
        lines.append("aside = [" + ", ".join(_toml_string(card_str(c)) for c in layout.aside)
                     + "]")
    if layout.calls:
        lines.append("calls = [" + ", ".join(map(_toml_string, layout.calls)) + "]")
    if layout.play:
        lines.append("play = [" + ", ".join(_toml_string(card_str(c)) for c in layout.play)
                     + "]")
    lines += ["", "[hands]"]
    lines += [f"{seat} = {_toml_string(HIDDEN if i in layout.hidden else hand_str(hand))}"
              for i, (seat, hand) in enumerate(zip(names, layout.hands))]
    changes = rules.changes()
    if changes:
        lines += ["", "[options]"]
        lines += [f"{name} = {_toml_value(value)}" for name, value in changes.items()]
    if layout.score is not None:
        lines += ["", "[score]"]
        lines += [f"{names[side_seats(side, n)[0]]} = {points}"
                  for side, points in enumerate(layout.score)]
    return "\n".join(lines) + "\n"


# ---- one line --------------------------------------------------------------------------------


def parse_line(text: str, source: str = "<line>", hidden: bool = False) -> Layout:
    """Read the one-line form: ``N:<hand> <hand> ... key=value ...``.  With ``hidden`` a hand
    may be ``-`` (or ``?``): hidden (``Layout.hidden``)."""
    _check_text(text, source)
    text = as_typed(text)       # (``♥`` in an argument under the C locale: ``as_typed``)
    words = text.split()
    if not words or len(words[0]) < 2 or words[0][1] != ":" or \
            upper(words[0][0]) not in COMPASS:
        first = words[0] if words else ""
        raise _fail(source, None, f"expected 'N:', 'E:', 'S:' or 'W:' and the hands, "
                                  f"not {quoted(first)}")
    first_seat = COMPASS.index(upper(words[0][0]))
    words[0] = words[0][2:]
    if not words[0]:
        words.pop(0)
    holdings = []
    while words and "=" not in words[0]:
        holdings.append(words.pop(0))
    n = len(holdings)
    if n not in (2, 3, 4):
        raise _fail(source, None, f"a table has 2, 3 or 4 players: {counted(n, 'hand')} given")
    names = seat_names(n)
    start = COMPASS[first_seat]
    if start not in names:
        raise _fail(source, None, f"no seat {quoted(start)} at a {n}-player table "
                                  f"(seats {' '.join(names)})")
    parts = _Parts(source, hidden)
    parts.option_key = "{}"
    for i, holding in enumerate(holdings):
        seat = names[(names.index(start) + i) % n]
        if holding in (HIDDEN_LINE, HIDDEN):
            parts.hide(seat, f"hands.{seat}")
            continue
        if "." not in holding:
            raise _fail(source, f"hands.{seat}",
                        f"expected a PBN holding (S.H.D.C), not {quoted(holding)}")
        with _At(source, f"hands.{seat}"):
            parts.hands[seat] = parse_hand(holding)
    seen: set[str] = set()
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise _fail(source, None, f"expected key=value, not {quoted(word)}")
        if key in seen:
            raise _fail(source, key, "given twice")
        seen.add(key)
        if key == "rules":
            parts.rules = value
        elif key == "dealer":
            parts.dealer = value
        elif key == "trump":
            parts.trump = value
        elif key == "turnup":
            parts.turnup = value
        elif key == "play":
            parts.play = _line_cards(source, value)
        elif key == "aside":
            parts.aside = _line_cards(source, value, "aside")
        elif key == "calls":
            parts.read_calls(key, value)
        elif key == "score":
            parts.score = _line_score(source, value)
        else:
            if key not in Rules().options():
                raise _fail(source, None, f"unknown key {quoted(key)}{spelled_as(key)}")
            parts.options[key] = value
    return parts.layout()


def _line_cards(source: str, value: str, key: str = "play") -> list[Card]:
    if not value.strip():
        raise _fail(source, key, f"no cards after '{key}=' (the cards are parted by commas: "
                                 f"{key}=AH,4H)")
    cards = []
    for i, token in enumerate(value.split(",")):
        with _At(source, f"{key}[{i}]"):
            cards.append(parse_card(token))
    return cards


def _line_score(source: str, value: str) -> list[int]:
    points = []
    for token in value.split(","):
        try:
            points.append(whole_number(token))
        except ValueError:
            raise _fail(source, "score", f"expected whole numbers, not {quoted(token)}") from None
    return points


def line_str(layout: Layout) -> str:
    """The one-line form; ``parse_line`` reads it back to an equal layout."""
    rules = layout.rules
    words = ["N:" + " ".join(HIDDEN_LINE if i in layout.hidden else holding_str(h)
                             for i, h in enumerate(layout.hands))]
    if rules.preset_name != "all-fives":
        words.append(f"rules={rules.preset_name}")
    words.append(f"dealer={seat_names(len(layout.hands))[_dealer(layout)]}")
    if layout.turnup is not None:
        words.append(f"turnup={card_str(layout.turnup)}")
    else:
        words.append(f"trump={suit_str(layout.trump)}")
    if layout.aside:
        words.append("aside=" + ",".join(card_str(c) for c in layout.aside))
    if layout.calls:
        words.append("calls=" + ",".join(layout.calls))
    if layout.play:
        words.append("play=" + ",".join(card_str(c) for c in layout.play))
    words += [f"{name}={option_text(value)}" for name, value in rules.changes().items()]
    if layout.score is not None:
        words.append("score=" + ",".join(map(str, layout.score)))
    return " ".join(words)


# ---- files of either form ----------------------------------------------------------------------


def is_line_form(text: str) -> bool:
    """Whether the first line that is not blank or a ``#`` comment starts with a seat and ``:``
    (``N:AK5.9.32.- ...``): a text of one-line positions, or one such position."""
    for line in text_lines(text.removeprefix(BOM)):
        line = line.strip()
        if line and not line.startswith("#"):
            return len(line) >= 2 and upper(line[0]) in COMPASS and line[1] == ":"
    return False


def is_blank(text: str) -> bool:
    """Nothing but blank lines and ``#`` comments (a byte-order mark apart)."""
    return all(not line.strip() or line.lstrip().startswith("#")
               for line in text_lines(text.removeprefix(BOM)))


class _Document(NamedTuple):
    """One deal of a TOML text that may hold several."""
    text: str
    lines_before: int        # lines of the whole text before ``text`` begins
    above: int | None        # the line of the separator above it, if any
    below: int | None        # the line of the separator below it, if any

    def is_empty(self) -> bool:
        return is_blank(self.text)

    def emptiness(self) -> str:
        """Where the empty document lies, by the lines of its separators."""
        where = {(True, True): f"between the '{SEPARATOR}' lines {self.above} and {self.below}",
                 (True, False): f"after the '{SEPARATOR}' on line {self.above}",
                 (False, True): f"before the '{SEPARATOR}' on line {self.below}"}
        return ("no deal: nothing but blank lines and comments "
                + where[self.above is not None, self.below is not None])


def _documents(text: str) -> list[_Document]:
    """The deals of a TOML text, split at its ``# ---`` lines; one if it has none."""
    documents: list[_Document] = []
    start = lines = 0           # where the document begins, and the lines before it
    above = None
    for separator in _SEPARATOR_LINE.finditer(text):
        line = lines + text.count("\n", start, separator.start()) + 1
        documents.append(_Document(text[start:separator.start()], lines, above, line))
        start, lines, above = separator.end(), line - 1, line
    documents.append(_Document(text[start:], lines, above, None))
    return documents


def toml_parts(text: str) -> list[tuple[str, int]]:
    """The documents of a TOML text split at its ``# ---`` lines (one if it has none), each with
    the number of lines of the text above it (``parse_toml``'s ``lines_before``, so that an
    error in one names its line of the whole text)."""
    return [(d.text, d.lines_before) for d in _documents(text.removeprefix(BOM))]


def _named_documents(text: str, source: str, one: bool, hidden: bool = False
                     ) -> Iterator[tuple[str, Callable[[], Layout]]]:
    """The deals of a TOML text, each named and read when asked: one named ``source``, or
    several named ``source#1``, ... (``one``: a text of several is an error)."""
    documents = _documents(text)
    if len(documents) == 1:
        yield source, functools.partial(parse_toml, text, source, hidden)
        return
    if one:
        raise _fail(source, None, f"{len(documents)} deals separated by '{SEPARATOR}' lines, "
                                  f"not one (load_positions reads them all)")
    for number, document in enumerate(documents, 1):
        yield f"{source}#{number}", functools.partial(_read_document, document,
                                                        f"{source}#{number}", hidden)


def _read_document(document: _Document, name: str, hidden: bool) -> Layout:
    if document.is_empty():
        raise _fail(name, None, document.emptiness())
    return _parse_toml(document.text, name, document.lines_before, hidden)


def named_layouts(text: str, source: str = "<string>", toml: bool | None = None,
                  one: bool = False, hidden: bool = False
                  ) -> Iterator[tuple[str, Callable[[], Layout]]]:
    """Every position in a text as ``read_layouts`` names it, with what reads it when called:
    a deal picked by its name is read alone (another's mistake is not its own)."""
    if not isinstance(text, str):
        raise DealFileError(f"{source}: {quoted(text)} is not a text to read positions from")
    text = text.removeprefix(BOM)
    if not text.strip():
        raise _fail(source, None, "empty: no position in it")
    if is_blank(text):      # (the TOML reader would say it has no [hands])
        raise _fail(source, None, "no position: nothing but blank lines and comments")
    if toml is None:
        toml = not is_line_form(text)
    if toml:
        yield from _named_documents(text, source, one, hidden)
        return
    lines = [(number, line) for number, line in enumerate(text_lines(text), 1)
             if line.split("#", 1)[0].strip()]
    if one and len(lines) > 1:
        raise _fail(source, None, f"{len(lines)} positions, one on each line, not one "
                                  f"(load_positions reads them all)")
    for number, line in lines:
        yield f"{source}:{number}", functools.partial(_line_layout, line, f"{source}:{number}",
                                                      hidden)


def _line_layout(line: str, source: str, hidden: bool) -> Layout:
    """A file's line of one position, its comment and spaces counted in its size."""
    check_deal_size(line, source)
    return parse_line(line.split("#", 1)[0].strip(), source, hidden)


def read_layouts(text: str, source: str = "<string>", toml: bool | None = None,
                 one: bool = False, hidden: bool = False) -> Iterator[Layout]:
    """Every position in a text, each named (``Layout.source``) as it is known.

    A TOML text is one position, named ``source``, or several with a line ``# ---`` between
    two, named ``source#1``, ``source#2``, ...  A text in the one-line form holds one position on
    each line that is not blank or a ``#`` comment, named ``source:LINE``.  ``toml=None`` tells
    the two apart by the first such line.  ``one``: a text of several positions is an error.
    ``hidden``: hands may be hidden (``"?"``, ``-``).
    """
    for _, read in named_layouts(text, source, toml, one, hidden):
        yield read()


#: The most of a file of deals that is read: some 200,000 deals (one takes about 300 bytes).
#: A file larger than that (or a stream without end, ``/dev/zero``) is refused.
MAX_TEXT_BYTES = 64 * 2**20
#: Bytes read at a time, so that an interrupt is felt at once however large the input.
READ_CHUNK = 2**20
#: The longest line of a game record that is read: a record's line, one game, takes some
#: kilobytes, and a record may be larger than ``MAX_TEXT_BYTES``, so that a stream of one
#: endless line would otherwise be read until the memory ran out.
MAX_RECORD_LINE = 16 * 2**20


def read_limited(stream: Any, source: str, limit: int | None = MAX_TEXT_BYTES,
                 records: bool = False) -> str:
    """A binary stream's text, read a chunk at a time (a UTF-8 byte-order mark dropped): more
    than ``limit`` bytes, or bytes that are not UTF-8, are a ``DealFileError`` naming
    ``source``.  With ``records``, a text that starts as JSON lines do (game records, which
    may be far larger than any file of deals) has no limit but ``MAX_RECORD_LINE`` a line."""
    chunks: list[bytes] = []
    size = lines = line_size = 0
    record = None           # (whether the text starts as a game record's, with ``records``)
    # read1 where there is one: a terminal's end of input (Ctrl-D) then ends the text at once,
    # where read waits for an end of input to each chunk
    read = getattr(stream, "read1", stream.read)
    while chunk := read(READ_CHUNK):
        size += len(chunk)
        if records and record is None and (start := chunk.lstrip(BOM.encode() + b" \t\r\n")):
            record = start.startswith(b"{")
        if limit is not None and size > limit:
            if record:
                limit = None
            else:
                most = f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit:,} bytes"
                hint = " (and no game record, whose lines start with '{')" if records else ""
                raise _fail(source, None,
                            f"more than {most}: too large for a file of deals{hint}")
        # the line running on into this chunk, to its end here or to the chunk's end
        first = chunk.find(b"\n")
        if record and line_size + (len(chunk) if first < 0 else first) > MAX_RECORD_LINE:
            raise _fail(source, None, f"line {lines + 1}: more than "
                                      f"{MAX_RECORD_LINE // 2**20} MiB without a line's end: no "
                                      f"game record has a line so long")
        line_size = line_size + len(chunk) if first < 0 else len(chunk) - chunk.rfind(b"\n") - 1
        lines += chunk.count(b"\n")
        chunks.append(chunk)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        # (the place is counted after a byte-order mark the decoding dropped)
        start = error.start + (len(BOM.encode()) if data.startswith(BOM.encode()) else 0)
        line = data[:start].count(b"\n") + 1
        raise _fail(source, None, f"not UTF-8 text (line {line}, byte {start})") from None


def read_file(path: str | PathLike[str], limit: int | None = MAX_TEXT_BYTES,
              records: bool = False) -> str:
    """A deal file's text (a UTF-8 byte-order mark, as Windows editors write, is dropped); a
    file that cannot be read, or is over ``limit`` bytes (``read_limited``: a record may be
    larger with ``records``), is a ``DealFileError`` naming it."""
    if not isinstance(path, (str, PathLike)):
        raise DealFileError(f"path: expected a file's name, not {quoted(path)}")
    try:
        with open(path, "rb") as stream:
            return read_limited(stream, str(path), limit, records)
    except OSError as error:
        raise _fail(shown_path(path), None, error.strerror or type(error).__name__) from error


def is_toml_name(path: str | PathLike[str]) -> bool:
    """A file named ``*.toml`` is TOML whatever it holds; any other is told by its text."""
    return str(path).endswith(".toml")
