"""The one base of every error a user can cause, and how a message quotes what it was given.

Every mistake in a card, a hand, a rule option, a seat, a deal file or a solve's arguments is an
``AllFivesError``; a ``ValueError`` too, so that ``except ValueError`` also catches it.  Anything
else that escapes the library is a bug, not bad input.
"""

from __future__ import annotations

__all__ = ["AllFivesError", "quoted", "QUOTE_CHARACTERS"]

#: The most of a bad input's text a message repeats.
QUOTE_CHARACTERS = 40


class AllFivesError(ValueError):
    """Bad input: the message says what is wrong and where, quoting the offending token."""


def quoted(value: object) -> str:
    """``repr(value)`` for a message, cut to about ``QUOTE_CHARACTERS`` characters: a 9 MB hand
    is quoted as ``'AH AH AH…' (9000000 characters)``."""
    text = repr(value)
    if len(text) <= QUOTE_CHARACTERS + 2:
        return text
    size = len(value) if isinstance(value, (str, bytes, list, tuple, dict)) else len(text)
    unit = "characters" if isinstance(value, (str, bytes)) else "items"
    return f"{text[:QUOTE_CHARACTERS]}… ({size} {unit})"
