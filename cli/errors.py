"""The one error boundary: what a user can get wrong ends in one line on stderr, never a trace.

Exit codes: 0 done; 1 a limit was reached without a result (or the engine is missing); 2 bad
input — the model's ``ValueError``s, a ``DealFileError``, a file that cannot be read, and the
command line's own usage errors (an unknown option, a bad value), each one line
``allfives: error: ...`` on stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from typer.core import TyperGroup

try:  # Typer 0.2x carries its own copy of Click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older Typer on Click
    from click import exceptions as click_errors

OK = 0
FAILURE = 1
BAD_INPUT = 2


class EngineMissing(RuntimeError):
    """The compiled engine is not part of this install."""


def message_of(error: BaseException) -> str:
    """One line saying what went wrong, and where."""
    if isinstance(error, OSError) and error.strerror:
        text = f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    else:
        text = str(error) or type(error).__name__
    return " ".join(text.splitlines())


def say(message: str) -> None:
    typer.echo(f"allfives: error: {message}", err=True)


def note(message: str) -> None:
    """A line on stderr that is not an error: ``allfives: ...``."""
    typer.echo(f"allfives: {message}", err=True)


def fail(message: str, code: int = BAD_INPUT) -> typer.Exit:
    say(message)
    return typer.Exit(code)


def reader_gone() -> typer.Exit:
    """Standard output's reader has gone (``allfives deal ... | head``): stop quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing more to flush at exit
    except (OSError, ValueError):
        pass
    return typer.Exit(FAILURE)


@contextmanager
def user_errors() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        raise reader_gone() from None
    except (ValueError, OSError) as error:
        raise fail(message_of(error)) from None
    except EngineMissing as error:
        raise fail(message_of(error), FAILURE) from None


def usage_message(error: Exception) -> str:
    """A usage error in one line, with the command to ask for help."""
    text = message_of(Exception(error.format_message())).replace("Value error, ", "")
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        text += f" (see '{ctx.command_path} --help')"
    return text


class Boundary(TyperGroup):
    """The command group, with usage errors said in one line like every other error."""

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click_errors.NoArgsIsHelpError as error:
            typer.echo(error.format_message(), err=True, nl=False)
            code = BAD_INPUT
        except click_errors.ClickException as error:
            say(usage_message(error) if isinstance(error, click_errors.UsageError)
                else message_of(Exception(error.format_message())))
            code = error.exit_code
        except typer.Abort:
            typer.echo("allfives: aborted", err=True)
            code = FAILURE
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else OK)
