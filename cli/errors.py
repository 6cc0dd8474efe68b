"""The one error boundary: what a user can get wrong ends in one line on stderr, never a trace.

Bad input (the model's ``ValueError``s, a ``DealFileError``, a file that cannot be read) exits 2,
like a usage error.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer

BAD_INPUT = 2
FAILURE = 1


class EngineMissing(RuntimeError):
    """The compiled engine is not part of this install."""


def message_of(error: BaseException) -> str:
    """One line saying what went wrong, and where."""
    if isinstance(error, OSError) and error.strerror:
        text = f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    else:
        text = str(error) or type(error).__name__
    return " ".join(text.splitlines())


def fail(message: str, code: int = BAD_INPUT) -> typer.Exit:
    typer.echo(f"allfives: error: {message}", err=True)
    return typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    try:
        yield
    except (ValueError, OSError) as error:
        raise fail(message_of(error)) from None
    except EngineMissing as error:
        raise fail(message_of(error), FAILURE) from None
