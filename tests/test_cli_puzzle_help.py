"""The help screens of ``allfives puzzle``'s commands, held to what every command's are (see
test_cli_help.py): a readable usage line, options named as typed, the width of the screen,
examples printed as written, and examples that run."""

from __future__ import annotations

import shlex
import textwrap

import pytest
import typer
from typer.main import get_command

from cli.helpscreen import spelled
from cli.main import app
from clirun import EXAMPLES, PUZZLES, RUNNER, shell

GROUP = get_command(app).commands["puzzle"]
COMMANDS = list(GROUP.commands)
USAGE = {"generate": "Usage: allfives puzzle generate [OPTIONS]",
         "check": "Usage: allfives puzzle check [OPTIONS] FILE|DIR|-...",
         "make": "Usage: allfives puzzle make [OPTIONS] POSITION...",
         "play": "Usage: allfives puzzle play [OPTIONS] [FILE]",
         "show": "Usage: allfives puzzle show [OPTIONS] FILE|DIR|-...",
         "index": "Usage: allfives puzzle index [OPTIONS] FILE|DIR|-..."}
SHARED = {"--rules", "--color", "--jobs"}


def screen(name: str, columns: int = 80) -> str:
    result = RUNNER.invoke(app, ["puzzle", name, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_every_command_is_listed():
    assert set(COMMANDS) == set(USAGE)
    text = RUNNER.invoke(app, ["puzzle", "--help"]).stdout
    for name in COMMANDS:
        assert f"│ {name} " in text


def test_no_command_is_a_usage_error():
    result = RUNNER.invoke(app, ["puzzle"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == "Usage: allfives puzzle [OPTIONS] COMMAND [ARGS]..."


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("columns", [80, 100])
def test_usage_options_and_width(name, columns):
    text = screen(name, columns)
    assert text.splitlines()[0] == USAGE[name]
    assert max(len(line) for line in text.splitlines()) <= columns
    for placeholder in ("<bool>", "<list[str]>", "<str>", "<int>", "<float>"):
        assert placeholder not in text
    cmd = GROUP.commands[name]
    for param in cmd.get_params(typer.Context(cmd, info_name=name)):
        if param.param_type_name != "option":
            continue
        shown = " / ".join(filter(None, [spelled(param.opts), ", ".join(param.secondary_opts)]))
        if not param.is_flag:
            assert param.metavar, param.name
            shown += f" {param.metavar}"
        assert shown in text, shown


def test_shared_options_are_the_top_level_ones():
    top = get_command(app).commands
    seen = {p.opts[0]: (p.help, p.metavar) for c in top.values() for p in c.params
            if p.param_type_name == "option"}
    for name, cmd in GROUP.commands.items():
        for param in cmd.params:
            if param.param_type_name == "option" and param.opts[0] in SHARED:
                assert (param.help, param.metavar) == seen[param.opts[0]], (name, param.opts)


def examples() -> list[str]:
    found = []
    for cmd in [GROUP, *GROUP.commands.values()]:
        lines = textwrap.dedent(cmd.epilog).strip("\n").splitlines()
        assert lines[0] == "Examples:"
        assert all(line.startswith("  allfives puzzle ") for line in lines[1:])
        found += [line.strip() for line in lines[1:]]
    return found


@pytest.mark.parametrize("example", examples())
def test_every_example_runs(example, tmp_path):
    (tmp_path / "solver").symlink_to(EXAMPLES.parent, target_is_directory=True)
    (tmp_path / "puzzles").symlink_to(PUZZLES, target_is_directory=True)
    done = shell(example, tmp_path, timeout=300)
    assert done.returncode == 0, (example, done.stdout)
    assert "allfives: error" not in done.stdout and "Traceback" not in done.stdout
    assert done.stdout or ">" in shlex.split(example)
