"""How a run of ``allfives`` ends: the one error boundary (the user's mistakes in one line, a bug
with its traceback), a reader of the output that goes away, Ctrl-C and SIGTERM."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from clirun import PROGRAM, run
from solver.errors import AllFivesError

EXAMPLES = Path(solver.__file__).parent / "examples"
TWO = EXAMPLES / "two-player.toml"
PLAYED = EXAMPLES / "played.toml"
READER_GONE = 141  # 128 + SIGPIPE, what a shell reports for a program a closed pipe ended


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


# ---- a reader that goes away: status 141, nothing said ----------------------------------------

def read_one_line(args: list[str], input: str | None = None) -> tuple[str, int, str]:
    """``allfives ARGS | head -1``: the first line, then the read end closed; the program's
    exit status and standard error."""
    program = subprocess.Popen([str(PROGRAM), *map(str, args)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE,
                               stdin=subprocess.PIPE if input is not None else None, text=True)
    if input is not None:
        program.stdin.write(input)
        program.stdin.close()
    line = program.stdout.readline()
    program.stdout.close()
    code = program.wait(timeout=300)
    return line, code, program.stderr.read()


def into_a_closed_pipe(args: list[str], **options) -> tuple[int, str]:
    """The program with its standard output a pipe whose reader has gone before it starts:
    its first write finds the pipe closed."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([str(PROGRAM), *map(str, args)], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=300, **options)
    finally:
        os.close(write)
    return done.returncode, done.stderr


def test_deal_into_head():
    line, code, errors = read_one_line(["deal", "--players", "4", "--count", "2000", "--format",
                                        "line", "--seed", "1"])
    assert line.startswith("N:")
    assert code == READER_GONE and errors == ""


@pytest.mark.parametrize("form", [["--json"], []], ids=["json", "report"])
def test_solve_into_head(form):
    pytest.importorskip("solver.search")
    deals = run("deal", "--players", "2", "--count", "1000", "--format", "line", "--seed", "2")
    assert deals.exit_code == 0
    line, code, errors = read_one_line(["solve", "-", *form], input=deals.stdout)
    assert line.startswith("{" if form else "<stdin>:1")
    assert code == READER_GONE and errors == ""


def test_help_into_head():
    # all of a help screen may fit in the pipe before the reader goes: then the program ends
    # as usual; either way it says nothing
    line, code, errors = read_one_line(["--help"])
    assert line.startswith("Usage: allfives")
    assert code in (0, READER_GONE) and errors == ""


@pytest.mark.parametrize("args", [
    ["--help"], ["--version"], ["solve", "--help"], ["analyze", "--help"], ["deal", "--help"],
    ["bench", "--help"],
    ["solve", TWO, "--engine", "reference"], ["solve", TWO, "--engine", "reference", "--json"],
    ["analyze", PLAYED, "--engine", "reference"], ["deal", "--players", "3"],
    ["bench", "--class", "2x6", "--count", "1", "--json"],
], ids=lambda args: " ".join(map(str, args)).replace(str(EXAMPLES) + "/", ""))
def test_every_command_into_a_closed_pipe(args):
    if args[0] == "bench" and len(args) > 1:
        pytest.importorskip("solver.search")
    code, errors = into_a_closed_pipe(args)
    assert code == READER_GONE
    assert errors == ""


def test_output_still_buffered_at_the_end_finds_the_reader_gone_quietly():
    # a command that leaves its output in the buffer: the pipe is found closed when it is
    # flushed, after the command, not with a message at interpreter exit
    script = ("import sys, cli.dealing, cli.main\n"
              "cli.dealing.deal_command = lambda *a: sys.stdout.write('N:' * 10)\n"
              "sys.argv = ['allfives', 'deal', '--players', '2']\n"
              "cli.main.main()\n")
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-c", script], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == READER_GONE
    assert done.stderr == ""


def test_a_broken_pipe_inside_a_command_is_not_bad_input(monkeypatch):
    def closed(*args):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("cli.solving.solve_command", closed)
    result = run("solve", TWO)
    assert result.exit_code == READER_GONE
    assert result.stderr == ""
