"""How a run of ``allfives`` ends: the one error boundary (the user's mistakes in one line, a bug
with its traceback), a reader of the output that goes away, Ctrl-C and SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import pytest

from clirun import EXAMPLES, PROGRAM, reaches, run, signal_params
from solver.errors import AllFivesError

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
        raise OSError(22, "Invalid argument")

    monkeypatch.setattr("cli.solving.solve_command", broken)
    result = run("solve", TWO)
    assert isinstance(result.exception, OSError)
    assert "allfives: error" not in result.stderr


@pytest.mark.parametrize("command", [
    "allfives deal --players 2 --seed 1", "allfives --help", "allfives --version",
    "allfives solve TWO", "allfives solve TWO --json", "allfives replay MATCH --play-by-play",
    "allfives match heuristic random --deals 3", "allfives puzzle show PUZZLE"])
def test_output_that_cannot_be_written_is_one_line_and_status_1(tmp_path, command):
    """A full disk is nobody's mistake and no bug: one line, status 1 (``/dev/full`` fails
    every write with ENOSPC)."""
    from clirun import PUZZLES, shell

    command = (command.replace("TWO", str(TWO)).replace("MATCH", str(EXAMPLES / "match.jsonl"))
               .replace("PUZZLE", str(PUZZLES / "012-the-five-falls.toml")))
    done = shell(f"{command} > /dev/full", tmp_path, timeout=60)
    assert done.returncode == 1
    assert done.stdout == ("allfives: error: cannot write the output: No space left on "
                           "device\n")


@pytest.mark.parametrize("command,code,last", [
    ("allfives solve - <&-", 2, "allfives: error: <stdin>: empty: no position in it"),
    ("allfives replay - <&-", 2, "allfives: error: <stdin>: no records"),
    ("allfives play --seed 1 --record r.jsonl <&-", 0,
     "You left the match in deal 1; no deal is over yet, so there is no record."),
    ("allfives puzzle play PUZZLE <&-", 0, "Tries: no wrong cards, no hints."),
    ("allfives deal --players 2 >&-", READER_GONE, None),
    ("allfives solve TWO --json >&-", READER_GONE, None),
])
def test_a_closed_standard_stream_is_not_a_traceback(tmp_path, command: str, code: int,
                                                      last: str | None):
    # started with standard input closed (<&-), the program reads it as at its end; with
    # standard output closed (>&-) there is nobody to write to, as when the reader has gone
    from clirun import PUZZLES, shell

    command = command.replace("PUZZLE", str(PUZZLES / "012-the-five-falls.toml"))
    done = shell(command.replace("TWO", str(TWO)), tmp_path, timeout=60)
    assert done.returncode == code, done.stdout
    assert "Traceback" not in done.stdout
    assert (done.stdout.splitlines()[-1] if last is not None else done.stdout) == (last or "")


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


@pytest.mark.parametrize("form", ["line", "toml"])
def test_a_million_deals_into_head_end_with_the_first(form):
    # the deals once were all dealt before the first was printed: head -1 waited for ever
    import selectors

    program = subprocess.Popen([str(PROGRAM), "deal", "--players", "2", "--count", "1000000",
                                "--format", form, "--seed", "1"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        with selectors.DefaultSelector() as waiting:
            waiting.register(program.stdout, selectors.EVENT_READ)
            assert waiting.select(timeout=20), "no deal printed within 20 s"
        line = program.stdout.readline()
        program.stdout.close()
        code = program.wait(timeout=20)
    finally:
        if program.poll() is None:
            program.kill()
            program.wait()
    assert line.startswith("N:" if form == "line" else "# deal 1 of 1000000: 2 players")
    assert code == READER_GONE and program.stderr.read() == ""


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


# ---- Ctrl-C and SIGTERM: one line, status 130 or 143, promptly --------------------------------

#: A four-player deal the reference solver takes far longer than a few seconds over.
LONG = "N:-.Q74.-.Q62 A7.JT.52.- KT54.-.AK.- J.A8.8.KT dealer=E turnup=9D"
STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}
#: The one line each says.
SAID = {signal.SIGINT: "allfives: interrupted\n", signal.SIGTERM: "allfives: terminated\n",
        signal.SIGHUP: "allfives: hung up\n"}


@pytest.fixture
def start(tmp_path):
    """``start(ARGS..., input=TEXT)``: the program at work in the background; whatever is
    still running at the end of the test is killed."""
    started = []

    def start(*args: str, input: str | None = None) -> subprocess.Popen:
        stdin = None
        if input is not None:
            stdin = tmp_path / f"stdin{len(started)}"
            stdin.write_text(input, encoding="utf-8")
        with open(stdin or os.devnull, encoding="utf-8") as source:
            program = subprocess.Popen([str(PROGRAM), *map(str, args)], stdin=source,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True)
        started.append(program)
        return program

    yield start
    for program in started:
        if program.poll() is None:
            program.kill()
        program.communicate()


def stop(program: subprocess.Popen, signum: int, wait: float = 5.0) -> tuple[str, str, float]:
    """Send the signal to a program still at work; what it printed (after what was read
    already), and how long it took to end after the signal, waiting at most ``wait``
    seconds.  Its output is small: it all fits in the pipes while it runs."""
    assert program.poll() is None, "it ended before the signal"
    sent = time.monotonic()
    program.send_signal(signum)
    try:
        program.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"still running {wait} s after the signal") from None
    took = time.monotonic() - sent
    return program.stdout.read(), program.stderr.read(), took


def masked(text: str) -> str:
    """Output with the time each solve took masked, the one thing two runs differ in."""
    text = re.sub(r'"seconds": [0-9.e-]+', '"seconds": T', text)
    return re.sub(r"(\d+ nodes), \d+\.\d+ s", r"\1, T s", text)


def test_the_long_deal_is_long(start):
    # the tests below need a solve still running seconds after it starts
    program = start("solve", LONG, "--engine", "reference")
    with pytest.raises(subprocess.TimeoutExpired):
        program.wait(timeout=3.5)


@pytest.mark.parametrize("signum", signal_params(signal.SIGINT, signal.SIGTERM, signal.SIGHUP))
def test_a_signal_ends_a_long_solve_at_once(start, signum):
    """SIGHUP (a terminal closed) too: it ended the program with no line and a status the
    exit codes did not list."""
    program = start("solve", LONG, "--engine", "reference")
    time.sleep(1.0)
    out, errors, took = stop(program, signum)
    assert program.returncode == STATUS[signum]
    assert errors == SAID[signum]  # one line, no traceback
    assert out == ""  # nothing half printed
    assert took < 1.0


def test_sighup_ignored_as_nohup_ignores_it_stays_ignored():
    program = subprocess.Popen([str(PROGRAM), "solve", LONG, "--engine", "reference"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    try:
        time.sleep(1.0)
        program.send_signal(signal.SIGHUP)
        with pytest.raises(subprocess.TimeoutExpired):
            program.wait(timeout=1.5)
        out, errors, _ = stop(program, signal.SIGTERM)
        assert program.returncode == 143 and errors == SAID[signal.SIGTERM]
    finally:
        if program.poll() is None:
            program.kill()
        program.communicate()


@pytest.mark.parametrize("form", [["--json"], []], ids=["json", "report"])
@pytest.mark.parametrize("signum", signal_params(signal.SIGINT, signal.SIGTERM, signal.SIGHUP))
def test_what_was_printed_before_the_signal_stays_printed_whole(start, signum, form):
    whole = run("solve", TWO, "--engine", "reference", *form)
    assert whole.exit_code == 0
    program = start("solve", TWO, LONG, "--engine", "reference", *form)
    first = program.stdout.readline()  # the first position is solved and printed ...
    out, errors, took = stop(program, signum)  # ... and the second is under way
    assert program.returncode == STATUS[signum]
    assert errors == SAID[signum]
    assert masked(first + out) == masked(whole.stdout)  # the first whole, none of the second
    assert took < 1.0


def test_a_signal_ends_a_long_engine_search(start):
    pytest.importorskip("solver.search")
    deal = run("deal", "--players", "4", "--runs", "2", "--seed", "3", "--format", "line")
    assert deal.exit_code == 0
    program = start("solve", "-", "--json", input=deal.stdout)  # minutes of search
    time.sleep(1.0)
    out, errors, took = stop(program, signal.SIGINT, wait=3.0)
    assert program.returncode == 130
    assert errors == "allfives: interrupted\n" and out == ""
    assert took < 1.0


def test_a_ctrl_c_that_comes_as_the_run_ends_on_one_is_not_said_again(monkeypatch, capsys):
    """A Ctrl-C pressed again came after the command had said 'interrupted' and before the
    program ended: main said it again (seen once in a full test run, under load)."""
    import cli.main as main_module
    from cli import errors

    def app():
        stop = KeyboardInterrupt()
        errors.say_stopped(stop)        # as the command's boundary says the first
        raise KeyboardInterrupt         # the second, as it returns

    monkeypatch.setattr(main_module, "app", app)
    monkeypatch.setattr(signal, "signal", lambda *args: None)     # (the test's own kept)
    with pytest.raises(SystemExit) as ended:
        main_module.main()
    assert ended.value.code == 130
    assert capsys.readouterr().err == "allfives: interrupted\n"


def test_ctrl_c_pressed_again_as_the_workers_stop_is_still_one_line(tmp_path):
    """Ctrl-C at a terminal goes to the worker processes too, and an impatient user presses it
    two or three times: the later ones came while the workers were stopped, or while the
    program waited for them at its exit, and broke in with a traceback."""
    deals = run("deal", "--players", "4", "--runs", "1", "--count", "40", "--seed", "1",
                "--format", "line")
    assert deals.exit_code == 0
    path = tmp_path / "deals.txt"
    path.write_text(deals.stdout, encoding="utf-8")
    for _ in range(2):
        program = subprocess.Popen([str(PROGRAM), "solve", str(path), "--jobs", "2"],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            time.sleep(2.0)
            for _ in range(3):      # to the whole process group, as a terminal sends it
                os.killpg(program.pid, signal.SIGINT)
                time.sleep(0.005)
            errors = program.communicate(timeout=10)[1]
        finally:
            if program.poll() is None:
                os.killpg(program.pid, signal.SIGKILL)
                program.communicate()
        assert program.returncode == 130
        assert errors == "allfives: interrupted\n"


@pytest.mark.parametrize("signum", signal_params(signal.SIGTERM, signal.SIGHUP))
def test_a_stop_signal_while_the_modules_load_is_one_line(signum):
    """SIGTERM or SIGHUP before ``main`` had set its handlers (the modules take a fraction of
    a second to load) ended the program without a word."""
    import sys

    script = ("import os, signal, sys\n"
              "class Terminating:\n"
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name == 'cli.main':\n"
              f"            os.kill(os.getpid(), {int(signum)})\n"
              "        return None\n"
              "sys.meta_path.insert(0, Terminating())\n"
              "from cli import start\n"
              "start()\n")
    done = subprocess.run([sys.executable, "-c", script, "solve", "-"], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stderr, done.stdout) == (STATUS[signum], SAID[signum], "")


def test_a_stop_whose_last_words_cannot_be_written_ends_as_the_stop(monkeypatch):
    """The terminal closed under a run (SIGHUP): what the run wrote as it stopped (a match's
    report) failed with an I/O error, which became the end, 'cannot write the output' and
    status 1, where it is the hang-up's, 129."""
    import errno

    from cli.errors import HungUp

    def closed(*args, **kwargs):
        try:
            raise HungUp()
        except HungUp:
            raise OSError(errno.EIO, "Input/output error") from None

    monkeypatch.setattr("cli.solving.solve_command", closed)
    result = run("solve", TWO)
    assert (result.exit_code, result.stderr) == (129, "allfives: hung up\n")


def test_a_stop_behind_another_error_ends_as_the_stop(monkeypatch):
    """The stop is looked for down the chain of errors being handled: a hang-up, then another
    error while it was handled, then the write that failed."""
    import errno

    from cli.errors import HungUp

    def closed(*args, **kwargs):
        try:
            raise HungUp()
        except HungUp:
            try:
                raise ValueError("while stopping")
            except ValueError:
                raise OSError(errno.EIO, "Input/output error") from None

    monkeypatch.setattr("cli.solving.solve_command", closed)
    result = run("solve", TWO)
    assert (result.exit_code, result.stderr) == (129, "allfives: hung up\n")


def stderr_on(monkeypatch, terminal: bool, term: str):
    """Standard error as a terminal of kind ``term`` (or a file), its text kept to be read."""
    import io

    class Screen(io.StringIO):
        def isatty(self):
            return terminal

    screen = Screen()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setenv("TERM", term)
    return screen


@pytest.mark.parametrize("terminal, term, start", [(False, "xterm", ""),
                                                   (True, "xterm", "\r\x1b[K"),
                                                   (True, "dumb", "\r")])
def test_ctrl_c_while_the_modules_load_is_one_line(monkeypatch, terminal, term, start):
    """The program's modules take a fraction of a second to load: Ctrl-C then was a traceback
    of whatever import it fell in.  On a terminal the line starts over the echoed ^C, as
    later (a carriage return alone where the terminal takes no control codes)."""
    import sys

    import cli

    screen = stderr_on(monkeypatch, terminal, term)

    class Interrupting:
        def find_spec(self, name, path=None, target=None):
            if name == "cli.main":
                raise KeyboardInterrupt
            return None

    monkeypatch.delitem(sys.modules, "cli.main")
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    with pytest.raises(SystemExit) as stop:
        cli.start()
    assert stop.value.code == 130
    assert screen.getvalue() == f"{start}allfives: interrupted\n"


@pytest.mark.parametrize("terminal, term", [(True, "xterm"), (True, "dumb"), (False, "xterm")])
def test_on_a_terminal_the_stop_line_is_written_over_the_echoed_ctrl_c(monkeypatch, terminal,
                                                                       term):
    """The terminal echoes Ctrl-C as '^C' where the cursor is: the line ran on from it,
    '^Callfives: interrupted'.  SIGTERM echoes nothing; into a file nothing is echoed.  A
    terminal that takes no control codes (TERM=dumb) is sent a carriage return alone."""
    from cli.errors import Terminated, say_stopped

    screen = stderr_on(monkeypatch, terminal, term)
    say_stopped(KeyboardInterrupt())
    say_stopped(Terminated())
    say_stopped(KeyboardInterrupt(), "; the record is in m.jsonl")
    start = "" if not terminal else "\r" if term == "dumb" else "\r\x1b[K"
    assert screen.getvalue() == f"{start}allfives: interrupted\nallfives: terminated\n" \
        f"{start}allfives: interrupted; the record is in m.jsonl\n"


def test_ctrl_c_while_the_commands_are_built_is_one_line(monkeypatch, capsys):
    """Typer builds the commands (their type hints read) before any runs: Ctrl-C then was a
    traceback out of Typer."""
    import typer.main

    from cli.main import main

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(typer.main, "get_command", interrupted)
    monkeypatch.setattr(sys, "argv", ["allfives", "solve", str(TWO)])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 130
    assert capsys.readouterr().err == "allfives: interrupted\n"


@pytest.fixture
def screen(monkeypatch):
    """A terminal for standard error (each test puts it there: the capture of the output
    takes standard error back as a test begins), and the signals the program sends itself
    (each with its handler then and what was on the screen) noted instead of sent."""
    import io

    class Screen(io.StringIO):
        def isatty(self):
            return True

    shown = Screen()
    shown.sent = []
    monkeypatch.setattr("os.kill", lambda pid, signum: shown.sent.append(
        (signum, signal.getsignal(signum), shown.getvalue())))
    return shown


@pytest.mark.skipif(not hasattr(signal, "SIGTSTP"), reason="no job control here")
def test_ctrl_z_under_a_live_line_shows_the_cursor_and_fg_hides_it_again(screen, monkeypatch):
    """A live line or bar hides the cursor: Ctrl-Z stopped the program with it hidden, and
    the shell's prompt was left without one.  The stop itself is the default one."""
    from cli.console import cursor_back_when_stopped

    monkeypatch.setattr(sys, "stderr", screen)
    before = signal.getsignal(signal.SIGTSTP)
    with cursor_back_when_stopped():
        handler = signal.getsignal(signal.SIGTSTP)
        handler(signal.SIGTSTP, None)
        assert signal.getsignal(signal.SIGTSTP) is handler
    assert screen.sent == [(signal.SIGTSTP, signal.SIG_DFL, "\x1b[?25h")]
    assert screen.getvalue() == "\x1b[?25h\x1b[?25l"
    assert signal.getsignal(signal.SIGTSTP) is before


@pytest.mark.skipif(not hasattr(signal, "SIGQUIT"), reason="no SIGQUIT here")
@reaches(getattr(signal, "SIGQUIT", signal.SIGTERM))
def test_a_signal_that_ends_the_program_under_a_live_line_shows_the_cursor_first(screen,
                                                                                 monkeypatch):
    """Ctrl-backslash (SIGQUIT), SIGUSR1 and the like end the program without Python's
    clean-up: the cursor was left hidden.  A signal ignored stays ignored."""
    from cli.console import cursor_back_when_stopped

    monkeypatch.setattr(sys, "stderr", screen)
    usr1 = signal.getsignal(signal.SIGUSR1)
    usr2 = signal.signal(signal.SIGUSR2, signal.SIG_IGN)
    try:
        with cursor_back_when_stopped():
            assert signal.getsignal(signal.SIGUSR2) is signal.SIG_IGN
            signal.getsignal(signal.SIGQUIT)(signal.SIGQUIT, None)
    finally:
        signal.signal(signal.SIGUSR2, usr2)
    assert screen.sent == [(signal.SIGQUIT, signal.SIG_DFL, "\x1b[?25h")]
    assert signal.getsignal(signal.SIGUSR1) is usr1

