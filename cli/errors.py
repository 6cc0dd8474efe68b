"""The one error boundary: how every run of ``allfives`` ends, and with which status.

What a user can get wrong ends in one line on stderr, ``allfives: error: ...``, never a
traceback: the library's ``AllFivesError`` (a bad card, deal file, seat, option value ...), a
file named on the command line that cannot be read, and the command line's own usage errors (an
unknown option, a bad value).  Output that cannot be written (a full disk) is one line too,
with status 1.  Anything else is a bug and is left to show its traceback.

Exit statuses (the README's "Exit codes" lists the same):

    0    done
    1    a limit stopped a search without a value, the compiled engine is missing, or
         standard output or a record could not be written (a full disk), or a run's workers
         were lost (a worker process died, a cluster lost the work)
    2    bad input (and a --scheduler that is no Dask scheduler running this allfives)
    129  hung up (SIGHUP: the terminal closed), unless it is ignored (``nohup``)
    130  interrupted (Ctrl-C: SIGINT)
    141  standard output's reader (or a record's, in a pipe) went away (``allfives ... | head
         -1``: 128 + SIGPIPE), or standard output was closed from the start (``>&-``)
    143  terminated (SIGTERM)

Click's exceptions are caught through what Typer makes public: every one of them is a
``typer.TyperException`` (its ``exit_code`` and ``format_message()`` are all the boundary
needs), a usage error is the one that carries the ``ctx`` it happened in, and ``typer.Exit`` and
``typer.Abort`` are Typer's own.
"""

from __future__ import annotations

import difflib
import errno
import os
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

from solver.errors import AllFivesError, EngineMissing, WorkersLost, quoted, shown_path, \
    without_controls

from .console import on_terminal
from .helpscreen import HelpScreen

OK = 0
FAILURE = 1
BAD_INPUT = 2
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a program Ctrl-C ended
READER_GONE = 141  # 128 + SIGPIPE
TERMINATED = 143  # 128 + SIGTERM
HUNG_UP = 129  # 128 + SIGHUP

#: What writing the output can meet that is nobody's mistake: a full disk or quota, a file too
#: large, an I/O error.
WRITE_ERRORS = frozenset((errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO))


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, as Ctrl-C raises ``KeyboardInterrupt``: a search
    that polls for signals ends the same way for both."""


class HungUp(Terminated):
    """SIGHUP (the terminal or the session closed), raised as SIGTERM is."""


def stopped_by(stop: KeyboardInterrupt) -> str:
    """``interrupted`` (Ctrl-C), ``terminated`` (SIGTERM) or ``hung up`` (SIGHUP): what the
    line on stderr says."""
    return "hung up" if isinstance(stop, HungUp) else \
        "terminated" if isinstance(stop, Terminated) else "interrupted"


#: On a terminal, back to the start of the line and clear it (``\r`` alone would leave what
#: was typed on it showing past the end of the line written over it); on one that takes no
#: control codes (``TERM=dumb``), ``\r`` alone.
LINE_START = "\r\x1b[K"


#: The stops said so far (``say_stopped``): ``cli.main.main`` says none twice.
stops_said = 0


def say_stopped(stop: KeyboardInterrupt, tail: str = "") -> None:
    """The line a stop leaves on stderr, ``tail`` after its word.  On a terminal it takes the
    place of the line the terminal echoed ``^C`` onto, which it would otherwise run on from
    (``^Callfives: interrupted``)."""
    global stops_said
    stops_said += 1
    start = "" if isinstance(stop, Terminated) or not on_terminal(sys.stderr) else \
        "\r" if os.environ.get("TERM") == "dumb" else LINE_START
    _stderr(f"allfives: {stopped_by(stop)}{tail}", start)


def stop_status(stop: KeyboardInterrupt) -> int:
    """The exit status of a run that Ctrl-C (130), SIGTERM (143) or SIGHUP (129) ended."""
    return HUNG_UP if isinstance(stop, HungUp) else \
        TERMINATED if isinstance(stop, Terminated) else INTERRUPTED


def on_stop_signal(signum: int, frame: Any) -> NoReturn:
    """SIGTERM or SIGHUP, raised where the program is, as Ctrl-C is."""
    raise HungUp() if signum == getattr(signal, "SIGHUP", None) else Terminated()


class Unwritten(OSError):
    """A record that could not be written (a full disk): said with the option that named
    it, ``--record: NAME: why``, as the checks before the run say it."""


def unwritten(error: OSError, name: str) -> OSError:
    """``error`` of a write, which names no file, naming the record ``name`` (a pipe whose
    reader went away stays a broken pipe, which ends the run quietly)."""
    kind = BrokenPipeError if isinstance(error, BrokenPipeError) else Unwritten
    return kind(error.errno, error.strerror, name)


def message_of(error: BaseException) -> str:
    """One line saying what went wrong, and where."""
    if isinstance(error, OSError) and error.strerror:
        text = f"{shown_path(error.filename)}: {error.strerror}" if error.filename else \
            error.strerror
        if isinstance(error, Unwritten):
            text = f"--record: {text}"
    else:
        text = str(error) or type(error).__name__
    return " ".join(text.splitlines())


def _stderr(line: str, start: str = "") -> None:
    """``line`` on stderr after ``start`` (a terminal's control codes, written as they are)."""
    # (written to the stream itself, not through Click, which swaps an ASCII stream for UTF-8,
    # where cli.streams spells what the encoding lacks in ASCII)
    try:        # (a control character read from the input, in a key, written as its escape)
        sys.stderr.write(start + without_controls(line) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # nowhere to say it
        pass


def say(message: str) -> None:
    _stderr(f"allfives: error: {message}")


def note(message: str) -> None:
    """A line on stderr that is not an error: ``allfives: ...``."""
    _stderr(f"allfives: {message}")


def fail(message: str, code: int = BAD_INPUT) -> typer.Exit:
    say(message)
    return typer.Exit(code)


@contextmanager
def user_errors(engine_option: bool = False) -> Iterator[None]:
    """Around a command: the user's mistakes become one line on stderr and exit status 2; the
    engine missing, status 1 (with ``engine_option``, for a command that has ``--engine``, the
    line says that the reference solver works without it)."""
    try:
        yield
    except AllFivesError as error:
        raise fail(message_of(error)) from None
    except OSError as error:
        # not a file the user named (standard output closed or full), or a named one whose
        # reader went away (--record FIFO, its reader gone): the boundary's to end
        if error.filename is None or isinstance(error, BrokenPipeError):
            raise
        # a file named that cannot be read or made is bad input; one that cannot be written
        # (a full disk) is nobody's mistake
        raise fail(message_of(error),
                   FAILURE if error.errno in WRITE_ERRORS else BAD_INPUT) from None
    except EngineMissing as error:
        hint = " (--engine reference solves without it)" if engine_option else ""
        raise fail(f"{error}{hint}", FAILURE) from None
    except WorkersLost as error:
        raise fail(str(error), FAILURE) from None


@contextmanager
def option(name: str) -> Iterator[None]:
    """An ``AllFivesError`` from the value of the option ``name``, with the option named."""
    try:
        yield
    except AllFivesError as error:
        raise AllFivesError(f"{name}: {error}") from None


def _stop_behind(error: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C, SIGTERM or SIGHUP that was being handled when ``error`` came, if one was."""
    seen = error.__context__
    while seen is not None and not isinstance(seen, KeyboardInterrupt):
        seen = seen.__context__
    return seen


def reader_gone() -> int:
    """Standard output's reader has gone (``allfives deal ... | head``): stop quietly, with
    nothing left to flush at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (a test's stdout)
        pass
    return READER_GONE


#: A bad option value as the parser words it, and as this program does: the value quoted.
_BOUND_WORDS = (
    (re.compile(r"Invalid value for '(-[\w-]+)': Input should be greater than or equal to "
                r"(-?\d+)"), "{value} is less than {0}"),
    (re.compile(r"Invalid value for '(-[\w-]+)': Input should be less than or equal to "
                r"(-?\d+)"), "{value} is more than {0}"),
    (re.compile(r"Invalid value for '(-[\w-]+)': Input should be a valid integer\b.*"),
     "{value} is not a whole number"),
    (re.compile(r"Invalid value for '(-[\w-]+)': Input should be a valid number\b.*"),
     "{value} is not a number"),
)


def _typed_value(args: list[str], option: str) -> str | None:
    """The value typed for ``option`` (``--seed -1`` or ``--seed=-1``), the last one given."""
    found = None
    for i, arg in enumerate(args):
        if arg == option and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith(option + "="):
            found = arg.split("=", 1)[1]
    return found


def _options_like(typed: str, params: list) -> str:
    """The options (``params``, a command's) that ``typed`` may have meant, in brackets (or
    nothing): those it begins (the first three), else those that differ from it by a letter or
    two."""
    names = sorted({name for param in params
                    for name in [*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())]
                    if name.startswith("--") == typed.startswith("--")})
    like = [name for name in names if name.startswith(typed)][:3] \
        or difflib.get_close_matches(typed, names, n=3, cutoff=0.75)
    if not like:
        return ""
    if len(like) == 1:
        return f" (did you mean {like[0]}?)"
    return f" (did you mean {', '.join(like[:-1])} or {like[-1]}?)"


#: The commands that read deals, ``FILE#N`` one of several.
DEAL_COMMANDS = ("solve", "analyze", "advise", "replay")
#: Those that pick a game record's deal by ``--deal N`` too.
RECORD_COMMANDS = ("solve", "analyze", "replay")


def usage_message(error: typer.TyperException, args: Sequence[str] = (), group: Any = None,
                  prog_name: str = "allfives") -> str:
    """A Click error in one line; a usage error ends with the command to ask for help.  A
    value out of range or not a number is worded as the program's own errors are:
    ``--seed: '-1' is less than 0``."""
    text = message_of(Exception(error.format_message())).replace("Value error, ", "")
    if type(error).__name__ == "NoSuchOption" and error.ctx is not None:  # type: ignore[attr-defined]
        # (Click's own guesses reach far: --bogus for --jobs, --pl for --help)
        params = error.ctx.command.get_params(error.ctx)  # type: ignore[attr-defined]
        text = error.message + _options_like(error.option_name, params)  # type: ignore[attr-defined]
    picked = next((arg for arg in args if re.fullmatch(r"-[#:].*", arg)), None)
    command = next((arg for arg in args if not arg.startswith("-")), None)
    what = "puzzle" if command == "puzzle" else "deal" if command in DEAL_COMMANDS else None
    if picked is not None and what and text.startswith(f"No such option: {picked[:2]}"):
        # (the deals of standard input are named <stdin>#2 and <stdin>:3)
        how = "its line" if picked[1] == ":" else "number"
        record = f" (of a game record: --deal {picked[2:]})" if picked[1] == "#" and \
            command in RECORD_COMMANDS else ""
        return (f"{picked}: a {what} of standard input is not picked by {how}: give the one "
                f"{what}{record}, or save the input to a file and name FILE{picked[1:]}")
    for pattern, words in _BOUND_WORDS:
        found = pattern.fullmatch(text)
        value = _typed_value(list(args), found[1]) if found else None
        if found and value is not None:
            text = f"{found[1]}: " + words.format(*found.groups()[1:], value=quoted(value))
            break
    else:   # any other bad value: the option first, as the program's own errors put it
        text = re.sub(r"^Invalid value for '(-[\w-]+)': (.*?)\.?$", r"\1: \2", text)
        # (Python's int reads no more than 4,300 digits at once: its words say no limit)
        text = text.replace("Unable to parse input string as an integer, exceeded maximum size",
                            "a number of more than 4,300 digits: too large")
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        text = text.rstrip(".") + f" (see '{ctx.command_path} --help')"
    elif getattr(error, "exit_code", None) == BAD_INPUT and group is not None:
        # the parser leaves out its command for some errors (an option without its value):
        # the command is the words of the arguments that name one, a group's and then its own
        path = [prog_name]
        for arg in args:
            group = getattr(group, "commands", {}).get(arg)
            if group is None:
                break
            path.append(arg)
        text = text.rstrip(".") + f" (see '{' '.join(path)} --help')"
    return text


class Boundary(HelpScreen, TyperGroup):
    """The command group: parses and runs a command, and ends every run with one of the exit
    statuses above, whatever happened on the way."""

    def main(self, args: Any = None, prog_name: str | None = None,  # type: ignore[override]
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        code = self.run(sys.argv[1:] if args is None else list(args),
                        prog_name or self.name or "allfives", **extra)
        if not standalone_mode:
            return code
        sys.exit(code)

    def run(self, args: list[str], prog_name: str, **extra: Any) -> int:
        if sys.stdout is None:  # started with standard output closed (>&-): nobody to write to
            return READER_GONE
        if sys.stdin is None:  # started with standard input closed (<&-): read as at its end
            sys.stdin = open(os.devnull, encoding="utf-8")
        try:
            try:
                with self.make_context(prog_name, args, **extra) as ctx:
                    self.invoke(ctx)
                code = OK
            except typer.Exit as done:
                code = done.exit_code
            except typer.TyperException as error:  # Click's errors: usage, bad values
                say(usage_message(error, args, self, prog_name))
                code = error.exit_code
            except typer.Abort:
                note("aborted")
                code = FAILURE
            sys.stdout.flush()  # a reader gone is found here, not at interpreter exit
            return code
        except BrokenPipeError:
            return reader_gone()
        except OSError as error:
            if error.errno not in WRITE_ERRORS or error.filename is not None:
                raise
            reader_gone()   # what is left to write goes nowhere, rather than fail at exit
            stop = _stop_behind(error)
            if stop is not None:
                # the terminal closed (SIGHUP), or a stop came, and what the run said as it
                # stopped could not be written: the stop is what ended it
                say_stopped(stop)
                return stop_status(stop)
            say(f"cannot write the output: {error.strerror}")
            return FAILURE
        except MemoryError as error:    # (an input without end: a record of /dev/zero)
            # (the engine's says for what: a table too large for the memory left)
            say(f"out of memory{f': {error}' if str(error) else ''}")
            return FAILURE
        except KeyboardInterrupt as stop:
            say_stopped(stop)
            return stop_status(stop)
