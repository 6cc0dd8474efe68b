"""The ``--help`` screens: no type placeholders, a readable usage line, help text the width of
the screen, examples that are printed as written and that run, and the shared options the same
in every command."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import textwrap

import pytest
import typer
from typer.main import get_command

from cli.helpscreen import spelled
from cli.main import Objective, app
from clirun import EXAMPLES, PROGRAM, PUZZLES, RUNNER, shell
from solver.solution import OBJECTIVES

GROUP = get_command(app)
COMMANDS = list(GROUP.commands)
SCREENS = [[], *([name] for name in COMMANDS)]
USAGE = {"": "Usage: allfives [OPTIONS] COMMAND [ARGS]...",
         "solve": "Usage: allfives solve [OPTIONS] POSITION...",
         "analyze": "Usage: allfives analyze [OPTIONS] POSITION...",
         "deal": "Usage: allfives deal [OPTIONS]",
         "bench": "Usage: allfives bench [OPTIONS]",
         "match": "Usage: allfives match [OPTIONS] PLAYER PLAYER",
         "play": "Usage: allfives play [OPTIONS]",
         "replay": "Usage: allfives replay [OPTIONS] RECORD",
         "puzzle": "Usage: allfives puzzle [OPTIONS] COMMAND [ARGS]...",
         "advise": "Usage: allfives advise [OPTIONS] [POSITION]"}


def screen(command: list[str], columns: int = 80, asked: str = "--help") -> str:
    result = RUNNER.invoke(app, [*command, asked], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


def ids(command: list[str]) -> str:
    return " ".join(command) or "allfives"


def panel_rows(text: str, title: str) -> dict[str, list[str]]:
    """The rows of a panel (``╭─ Options ─...``): each name with the lines its help took."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"╭─ {title} "))
    body = []
    for line in lines[start + 1:]:
        if line.startswith("╰"):
            break
        assert line.startswith("│ ") and line.endswith(" │"), line
        body.append(line[2:-2].rstrip())
    # the help column starts where the help of a row with a short name does
    offset = min(m.start(2) for line in body if (m := re.match(r"(\S.*?)\s{2,}(\S)", line)))
    rows: dict[str, list[str]] = {}
    name = ""
    for line in body:
        if line[:1] != " ":  # a name, and its help beside it unless the name is too long
            name = re.match(r"(\S.*?)(\s{2,}|$)", line).group(1)
            rows[name] = []
        if line[offset - 2:offset] == "  " and line[offset:].strip():
            rows[name].append(line[offset:].strip())
    return rows


@pytest.mark.parametrize("command", SCREENS, ids=ids)
def test_no_type_placeholders_and_a_readable_usage_line(command):
    text = screen(command)
    for placeholder in ("<bool>", "<list[str]>", "{POSITION}", "<str>", "<int>", "<float>",
                        "<points", "<engine"):
        assert placeholder not in text
    assert text.splitlines()[0] == USAGE[" ".join(command)]


@pytest.mark.parametrize("command", [*SCREENS, ["puzzle", "check"]], ids=ids)
def test_h_is_help_as_on_most_programs(command):
    assert screen(command, asked="-h") == screen(command)


def test_the_help_option_is_spelt_alike_in_every_process():
    """Click keeps the help option's names in a set: '-h, --help' in one process and
    '--help, -h' in the next, as the hash seed fell."""
    seen = set()
    for seed in ("1", "2", "3", "4"):
        done = subprocess.run([str(PROGRAM), "solve", "-h"], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed, "COLUMNS": "80"})
        seen.add(next(line for line in done.stdout.splitlines() if "Show this message" in line))
    assert len(seen) == 1 and "--help, -h" in seen.pop()


@pytest.mark.parametrize("command", [[c] for c in COMMANDS], ids=ids)
def test_every_option_is_named_as_it_is_typed(command):
    cmd = GROUP.commands[command[0]]
    rows = panel_rows(screen(command), "Options")
    names = set(rows)
    context = typer.Context(cmd, info_name=cmd.name, **GROUP.context_settings)
    for param in cmd.get_params(context):  # -h, --help too
        if param.param_type_name != "option":
            continue
        shown = " / ".join(filter(None, [spelled(param.opts), ", ".join(param.secondary_opts)]))
        if not param.is_flag:
            shown += f" {param.metavar}"  # every option that takes a value declares its metavar
            assert param.metavar, param.name
        assert shown in names, (shown, names)


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize("command", SCREENS, ids=ids)
def test_help_text_takes_the_width_of_the_screen(command, columns):
    text = screen(command, columns)
    assert max(len(line) for line in text.splitlines()) <= columns
    cmd = GROUP.commands[command[0]] if command else GROUP
    params = [p for p in cmd.params if p.help]
    for title in ("Arguments", "Options"):
        if f"╭─ {title} " not in text:
            continue
        rows = panel_rows(text, title)
        help_width = columns - 4 - min(26, columns // 3) - 2
        for name, parts in rows.items():
            whole = " ".join(parts)
            named = [p for p in params if name.split()[0] in (*p.opts, *p.secondary_opts)
                     or name.rstrip(".") == p.metavar]     # (match's two PLAYERs: either)
            if named:
                assert any(whole.startswith(" ".join(p.help.split())) for p in named), \
                    (name, whole)
            # every line but the last is filled to within a word of the column's width
            for part, following in zip(parts, parts[1:]):
                if not following.startswith("["):
                    assert len(part) + 1 + len(following.split()[0]) > help_width - 2, \
                        (name, part)


def test_a_whole_sentence_stays_on_one_line_at_100_columns():
    text = screen(["solve"], 100)
    lines = text.splitlines()
    for sentence in ("One JSON object a line, for scripts, instead of the report.",
                     "Stop each search after at most N nodes; one stopped without a value",
                     "Deal files (TOML, several deals separated by '# ---' lines, or one-line"):
        assert any(sentence in line for line in lines), sentence
    deal = screen(["deal"], 100)
    assert any("Players at the table: 2, 3 or 4 (4 play as partners).  [required]" in line
               for line in deal.splitlines())


def epilog_lines(command: list[str]) -> list[str]:
    cmd = GROUP.commands[command[0]] if command else GROUP
    return textwrap.dedent(cmd.epilog).strip("\n").splitlines()


@pytest.mark.parametrize("command", SCREENS, ids=ids)
def test_examples_are_printed_as_written_even_on_a_narrow_screen(command):
    example = epilog_lines(command)
    assert example[0] == "Examples:"
    block = example[1:example.index("")] if "" in example else example[1:]
    assert block and all(line.startswith("  allfives ") for line in block)
    prose = " ".join(example[len(block) + 2:])     # (after a blank line: the exit statuses)
    for columns in (80, 50):
        lines = screen(command, columns).splitlines()
        start = lines.index("Examples:")
        assert lines[start:start + len(block) + 1] == example[:len(block) + 1]
        # the prose after them is wrapped to the screen, the words as written
        after = lines[start + len(block) + 2:]
        assert " ".join(after) == prose and all(len(line) <= columns for line in after)


def examples() -> list[str]:
    found = []
    for command in SCREENS:
        for line in epilog_lines(command):
            if line.startswith("  allfives "):
                found.append(line.strip())
    return found


@pytest.mark.parametrize("example", examples())
def test_every_example_runs(example, tmp_path):
    # the examples' paths are the repository's (solver/examples/...)
    (tmp_path / "solver").symlink_to(EXAMPLES.parent, target_is_directory=True)
    # and the puzzle collection's (puzzles/...)
    (tmp_path / "puzzles").symlink_to(PUZZLES,
                                      target_is_directory=True)
    if not example.startswith("allfives deal") or "solve" in example:
        pytest.importorskip("solver.search")  # the engine, the default
    done = shell(example, tmp_path, timeout=120)  # stderr into stdout
    assert done.returncode == 0, (example, done.stdout)
    # (one-line deals without --seed say the fresh seed they were dealt from, on stderr)
    said = re.sub(r"(?m)^allfives: a fresh seed, \d+: '[^']*' deals the same cards again\n", "",
                  done.stdout)
    assert "allfives:" not in said and "Traceback" not in said
    assert done.stdout or ">" in shlex.split(example)


def test_no_command_prints_the_help_on_stderr_as_a_usage_error():
    result = RUNNER.invoke(app, [])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[0] == USAGE[""]
    assert "Traceback" not in result.stderr


def test_a_console_without_box_lines_gets_ascii_ones():
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "COLUMNS": "80"}
    done = subprocess.run([str(PROGRAM), "solve", "--help"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii()
    assert "| --json " in done.stdout


# ---- the shared options ------------------------------------------------------------------------

def test_shared_options_are_the_same_in_every_command():
    seen: dict[str, tuple] = {}
    for name, cmd in GROUP.commands.items():
        for param in cmd.params:
            key = param.opts[0] if param.param_type_name == "option" else param.name
            face = (param.help, param.metavar, param.secondary_opts, param.required)
            # deal's count of deals, bench's of each class; deal's players and seed deal hands,
            # play's and match's seat a match (2 players by default; match's seed is 0); play
            # always keeps a record (a default file), match only where --record names one;
            # advise's seat is the seat advised and its dealer a call's (not a random seat);
            # the target is the match's, in match with --matches only, in advise for a call;
            # replay tells its --deal where analyze judges it; match's --json is the run's one
            # report, where the others print an object for each position
            if (name, key) == ("match", "--json"):
                continue
            if key in seen and key not in ("--count", "--players", "--seed", "--record",
                                           "--seat", "--dealer", "--target", "--deal"):
                assert seen[key] == face, (name, key)
            seen.setdefault(key, face)


def test_the_objectives_are_the_librarys():
    assert [member.value for member in Objective] == list(OBJECTIVES)
    assert GROUP.commands["solve"].params[2].metavar == "|".join(OBJECTIVES)


@pytest.mark.parametrize("no_color, term, coloured", [
    (None, "xterm", True), ("1", "xterm", False), ("", "xterm", True), (None, "dumb", False)])
def test_help_is_coloured_on_a_terminal_as_the_reports_are(monkeypatch, no_color, term,
                                                           coloured):
    """NO_COLOR turns colour off when set and not empty, as Rich reads it for the reports (an
    empty NO_COLOR= turned it off in help screens alone); TERM=dumb takes none."""
    import io

    from rich.console import Console

    from cli.helpscreen import _stream_wants_colour

    class Screen(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setenv("TERM", term)
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert _stream_wants_colour(Screen()) is coloured
    if term != "dumb":
        report = Console(file=Screen(), force_terminal=True)
        assert (report.color_system is not None and not report.no_color) is coloured
