"""Running the command line in tests: through Typer's runner, or as the installed program."""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app

try:
    RUNNER = CliRunner(mix_stderr=False)  # older Click mixes stderr into output by default
except TypeError:
    RUNNER = CliRunner()

#: The ``allfives`` executable installed beside this Python.
PROGRAM = Path(sys.executable).parent / ("allfives.exe" if sys.platform == "win32" else "allfives")


def run(*args, input: str | None = None):
    """``allfives ARGS...`` through Typer's runner; stdout and stderr kept apart."""
    return RUNNER.invoke(app, [str(a) for a in args], input=input)
