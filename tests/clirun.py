"""Running the command line in tests: through Typer's runner, or as the installed program; and
the checks that several test files make of what it printed."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import solver
from cli.main import app

try:
    RUNNER = CliRunner(mix_stderr=False)  # older Click mixes stderr into output by default
except TypeError:
    RUNNER = CliRunner()

#: The ``allfives`` executable installed beside this Python.
PROGRAM = Path(sys.executable).parent / ("allfives.exe" if sys.platform == "win32" else "allfives")
#: The bundled example deals.
EXAMPLES = Path(solver.__file__).parent / "examples"
#: The curated puzzle collection: a folder of the repository, not of the installed package.
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def console(width: int = 80) -> tuple[Console, io.StringIO]:
    """A plain console of ``width`` columns writing into the string buffer returned with it."""
    out = io.StringIO()
    return Console(file=out, width=width, color_system=None, highlight=False, markup=False,
                   emoji=False), out


def run(*args, input: str | None = None):
    """``allfives ARGS...`` through Typer's runner; stdout and stderr kept apart."""
    return RUNNER.invoke(app, [str(a) for a in args], input=input)


def records(result) -> list[dict]:
    """The JSON objects a successful run printed, one a line."""
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def assert_one_error_line(result, *fragments: str) -> str:
    """Bad input: status 2, nothing on stdout, one line ``allfives: error: ...`` on stderr
    holding every fragment, and no traceback.  The line."""
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("allfives: error: ")
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


def shell(command: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """A command line as a user types it (pipes and all) in bash, with the installed
    ``allfives`` first on the PATH, at a fixed width of 80 columns and without colour;
    stdout and stderr in one stream, in the order they were written."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("FORCE_COLOR", "PY_COLORS", "CLICOLOR_FORCE")}
    env.update(PATH=f"{PROGRAM.parent}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="80",
               NO_COLOR="1", TERM="dumb", PYTHONIOENCODING="utf-8")
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          encoding="utf-8", timeout=timeout)


def workers_of(program: subprocess.Popen, within: float = 60.0) -> list:
    """The worker processes (``psutil.Process``) of a program that forks two or more, once it
    has: at most ``within`` seconds waited."""
    import time

    import psutil

    deadline = time.monotonic() + within
    workers: list = []
    while time.monotonic() < deadline and len(workers) < 2:
        workers = psutil.Process(program.pid).children()
        time.sleep(0.1)
    assert len(workers) >= 2, "the program did not start its workers"
    return workers


def reaches(signum: int) -> pytest.MarkDecorator:
    """Skip where the tests run with ``signum`` ignored (SIGHUP under ``nohup``, SIGQUIT in a
    shell's background job): the program keeps a signal ignored as it found it, so that one
    sent to it does nothing there."""
    name = signal.Signals(signum).name
    return pytest.mark.skipif(signal.getsignal(signum) == signal.SIG_IGN,
                              reason=f"{name} is ignored where the tests run (nohup, a "
                                     f"background job), and the program keeps it so")


def signal_params(*signums: int) -> list:
    """``signums`` for ``parametrize``, each named and skipped where it is ignored."""
    return [pytest.param(s, id=signal.Signals(s).name, marks=reaches(s)) for s in signums]

