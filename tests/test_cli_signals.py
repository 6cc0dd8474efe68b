"""How a run of ``allfives`` ends: the one error boundary (the user's mistakes in one line, a bug
with its traceback), a reader of the output that goes away, Ctrl-C and SIGTERM."""

from __future__ import annotations

from pathlib import Path

import pytest

import solver
from clirun import run
from solver.errors import AllFivesError

EXAMPLES = Path(solver.__file__).parent / "examples"
TWO = EXAMPLES / "two-player.toml"


# ---- the error boundary ------------------------------------------------------------------------

def test_an_allfives_error_is_one_line_and_status_2(monkeypatch):
    def bad(*args):
        raise AllFivesError("somewhere: something the user got wrong")

    monkeypatch.setattr("cli.solving.solve_command", bad)
    result = run("solve", TWO)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "allfives: error: somewhere: something the user got wrong\n"


@pytest.mark.parametrize("error", [ValueError("a bug, not bad input"), KeyError("bug")])
def test_any_other_error_is_a_bug_and_not_dressed_as_bad_input(monkeypatch, error):
    def broken(*args):
        raise error

    monkeypatch.setattr("cli.solving.solve_command", broken)
    result = run("solve", TWO)
    assert result.exception is error  # left to show its traceback
    assert "allfives: error" not in result.stderr


def test_an_os_error_without_a_file_is_not_bad_input(monkeypatch):
    def broken(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("cli.solving.solve_command", broken)
    result = run("solve", TWO)
    assert isinstance(result.exception, OSError)
    assert "allfives: error" not in result.stderr
