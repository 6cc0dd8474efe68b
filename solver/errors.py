"""The one base of every error a user can cause, how a message quotes what it was given and
counts things, and how a whole number and a letter's case typed are read.

Every mistake in a card, a hand, a rule option, a seat, a deal file or a solve's arguments is an
``AllFivesError``; a ``ValueError`` too, so that ``except ValueError`` also catches it.  Anything
else that escapes the library is a bug, not bad input.
"""

from __future__ import annotations

import random
import re
import reprlib
import string
from numbers import Integral
from pathlib import Path

__all__ = ["AllFivesError", "EngineMissing", "WorkersLost", "quoted", "as_typed", "counted",
           "QUOTE_CHARACTERS", "whole_number", "written_as_number", "is_number", "spec_options",
           "counting_number", "number_words", "MOST_DIGITS", "shown_path",
           "whole", "seeded", "control_problem", "without_controls", "spelled", "upper", "lower"]

#: The most of a bad input's text a message repeats.
QUOTE_CHARACTERS = 40


class AllFivesError(ValueError):
    """Bad input: the message says what is wrong and where, quoting the offending token."""


class WorkersLost(RuntimeError):
    """Not bad input: the work cannot come back, a worker process having died under it (killed,
    out of memory) or a cluster having lost it.  What came back before stands."""


class EngineMissing(ModuleNotFoundError):
    """The compiled engine (``solver._search``) cannot be imported: not built, or a source tree
    without it shadows the installed package."""

    @classmethod
    def here(cls) -> EngineMissing:
        package = Path(__file__).resolve().parent
        if (package / "_search.pyx").exists() and (package.parent / "setup.py").exists():
            message = (f"the compiled engine is not built in the source tree {package}, which "
                       f"shadows any installed copy: run from another folder, or build it in "
                       f"place with 'pip install -e .'")
        else:
            message = ("the compiled engine is not part of this install: reinstall from the "
                       "source with a C compiler at hand ('pip install .' in the checkout)")
        return cls(message, name=f"{__package__}._search")


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = QUOTE_CHARACTERS
_REPR.maxlevel, _REPR.maxlist, _REPR.maxtuple, _REPR.maxdict = 3, 8, 8, 4


def counted(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 deal``, ``2 deals``, ``2,000 deals``: a count and its noun, plural (``nouns``, else
    with an s) but for one."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


_ESCAPED = re.compile("[\udc80-\udcff]")
#: Such a byte as ``repr`` writes it (``\udcff``), after an even number of backslashes (a
#: backslash typed is written doubled).
_KEPT_BYTE = re.compile(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])")


def as_typed(text: str) -> str:
    """``text`` with the bytes the locale's encoding could not read (which Python keeps as
    surrogate escapes: a ``♥`` in an argument under the C locale without UTF-8 mode) read as
    the UTF-8 they were typed in; a byte that is no part of UTF-8 stays an escape."""
    if not _ESCAPED.search(text):
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    except UnicodeError:    # (another surrogate alone, which no bytes were read as)
        return text


def quoted(value: object) -> str:
    """``repr(value)`` for a message, at most about ``QUOTE_CHARACTERS`` characters of it: a 9 MB
    hand is quoted ``'AH AH AH AH A...H AH AH AH AH' (9000000 characters)``, a table nested
    deeply as ``{'a': {'a': {'a': {...}}}}``; text typed in UTF-8 that the locale could not
    read, as typed (``as_typed``), and a byte that is no UTF-8 as ``\\xff``."""
    if isinstance(value, str):
        value = as_typed(value)
    # a byte that is no UTF-8 as a file's name shows it (``\xff``), not as Python keeps it
    text = _KEPT_BYTE.sub(r"\1\\x\2", _REPR.repr(value))
    if isinstance(value, str) and len(value) > QUOTE_CHARACTERS:
        text += f" ({len(value)} characters)"
    return text


#: A control character: a terminal takes it for a command (an escape sequence clears the
#: screen), and an XML file will not hold it.  With them the characters that would make a line
#: of text other than it reads: a line or paragraph separator, the embeddings, overrides and
#: isolates of the direction of writing (a right-to-left override shows the rest of a line
#: backwards; the marks alone, U+200E, U+200F and U+061C, are ordinary in Hebrew, Arabic and
#: Persian text, and pass), half of a surrogate pair alone (no text at all), and the
#: characters Unicode sets aside as none (U+FFFE, U+FFFF and the like, which XML will not hold
#: either).
_NONCHARACTERS = "".join(chr(plane << 16 | low) for plane in range(17) for low in (0xFFFE, 0xFFFF))
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
                      "\ufdd0-\ufdef" + _NONCHARACTERS + "]")


def control_in(text: str) -> str | None:
    """The first control character in ``text`` (a line break too), or None."""
    found = _CONTROL.search(text)
    return found.group() if found else None


def control_problem(text: str, what: str) -> str | None:
    """Where ``text`` holds a control character, what a message says of it (``a control
    character ('\\x1b') in 'Duck\\x1b[2J': a title is a line of plain text``, ``what`` being
    ``title``); else None."""
    found = control_in(text)
    return None if found is None else \
        f"a control character ({quoted(found)}) in {quoted(text)}: a {what} is a line of plain text"


def without_controls(text: str) -> str:
    r"""``text`` with each control character written as its escape (``\x1b``), as a message
    shows what it quotes; a byte that was no text in a name the system gave (a stand-in,
    U+DC80 to U+DCFF, as Python reads it) as that byte (``\xff``), and so the controls U+0080
    to U+009F, which ``repr`` writes alike, as ``\u0085``."""
    return _CONTROL.sub(lambda found: _escaped(found.group()), text)


def _escaped(character: str) -> str:
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}" if 0x80 <= code <= 0x9F else repr(character)[1:-1]


#: A file's name longer than this is shortened in a message (no file system takes a name of
#: more than 255 bytes; a path may be longer, but seldom is).
LONGEST_NAME = 300


def shown_path(name: object) -> str:
    """A file's name for a message: as it is, or ``quoted`` where it is longer than
    ``LONGEST_NAME`` (a name too long for the system is said to be so in one short line)."""
    text = str(name)
    return quoted(text) if len(text) > LONGEST_NAME else text


_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def upper(text: str) -> str:
    """``text`` with its letters a to z in capitals, and no other character changed: one that
    Python's ``str.upper`` makes a Latin capital (``ſ`` an ``S``, ``ﬆ`` ``ST``) stays itself,
    to be refused, not read as a card, a suit or a seat."""
    return text.translate(_UPPER)


def lower(text: str) -> str:
    """``text`` with its letters A to Z in small letters, and no other character changed (the
    Kelvin sign is no ``k``)."""
    return text.translate(_LOWER)


def spelled(value: object) -> str:
    """An option's value for a message as a spec spells it: ``none``, ``true`` and ``false``
    for ``None`` and the booleans (``chain=true`` is not quoted back as ``True``), else
    ``quoted``."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    return quoted(value)


def whole(value: object) -> int | None:
    """``value`` as a Python int where it is a whole number (numpy's too), not a truth value;
    else None."""
    return int(value) if isinstance(value, Integral) and not isinstance(value, bool) else None


def seeded(seed: object) -> random.Random:
    """``random.Random(seed)`` of a seed as the library takes one: None, a whole number (numpy's
    too, as Python's own: ``np.int64(3)`` is 3), a float, a text or bytes; anything else one
    ``AllFivesError``."""
    number = whole(seed)
    if number is not None:
        return random.Random(number)
    if seed is None or isinstance(seed, (float, str, bytes, bytearray)):
        return random.Random(seed)
    raise AllFivesError(f"seed: {quoted(seed)} is not a seed (a whole number, or a text)")


_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def written_as_number(text: str, whole: bool = False) -> bool:
    """Whether ``text`` writes a number as one is typed: digits 0 to 9 with a sign or not and,
    unless ``whole``, a point and an exponent; spaces around allowed.  Not what else Python's
    ``int`` and ``float`` read: ``1_000``, other scripts' digits, ``inf``, ``nan``."""
    return bool((_WHOLE if whole else _DECIMAL).fullmatch(text.strip()))


def spec_options(spec: str, what: str, error: type[AllFivesError] = AllFivesError,
                 named: bool = True) -> dict[str, str]:
    """The options a spec writes after its colon, ``key=value,key=value``: each key (``-`` read
    as ``_``) with its value's text; none without a colon (a comma too many is let be, as
    typed: ``a=1,``).  No option after the colon, a part without ``=``, or a key given twice,
    is an ``error`` that names ``what`` (``player option``), and the spec too where ``named``
    (the one without options; a caller that names it itself says not)."""
    options: dict[str, str] = {}
    _, colon, text = spec.partition(":")
    items = [item for item in (part.strip() for part in text.split(",")) if item]
    if colon and not items:
        raise error(f"{quoted(spec) + ' names ' if named else ''}no {what} after the colon")
    for item in items:
        key, eq, value = item.partition("=")
        if not eq:
            raise error(f"{what} {quoted(item)} is not key=value")
        key = key.strip().replace("-", "_")
        if key in options:
            raise error(f"{what} {quoted(key)} is given twice")
        options[key] = value.strip()
    return options


def is_number(text: str) -> bool:
    """Digits 0 to 9 only, as a number is written in a name or an answer (``FILE#2``, ``12-``);
    not what else ``str.isdigit`` takes (``'²'.isdigit()`` is true)."""
    return text.isascii() and text.isdigit()


#: The most digits, after its leading zeros, of a number written in a name or typed as an answer
#: (``FILE#2``, ``12``) that is read: no file holds 10**18 deals, no list that many choices (and
#: Python's ``int`` reads no more than 4,300 digits at once).
MOST_DIGITS = 18


def counting_number(text: str) -> int | None:
    """The number ``text`` writes in digits 0 to 9 (``is_number``), or None where it has more
    than ``MOST_DIGITS`` digits after its leading zeros: more than anything counted here."""
    digits = text.lstrip("0")
    return int(digits or "0") if len(digits) <= MOST_DIGITS else None


def number_words(text: str) -> str:
    """A number written in digits, for a message: as written, its leading zeros off, or, past
    ``MOST_DIGITS`` digits, its first and last few and how many (``123456…654321 (4301
    digits)``)."""
    digits = text.lstrip("0") or "0"
    if len(digits) <= MOST_DIGITS:
        return digits
    return f"{digits[:6]}…{digits[-6:]} ({len(digits)} digits)"


def whole_number(text: str) -> int:
    """A whole number as typed: digits 0 to 9 with a sign or not, spaces around allowed; not
    what else Python's ``int`` takes (``1_000``, other scripts' digits).  A ``ValueError``
    otherwise."""
    if not written_as_number(text, whole=True):
        raise ValueError(f"not a whole number: {text!r}")
    return int(text)
