"""Without the compiled engine: the library says why in one line, the command line exits 1 with
that line, and the reference solver still works.  Each case runs a copy of the installed
packages with the compiled module left out, in a fresh interpreter."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cli
import solver

TWO = "solver/examples/two-player.toml"


def copy_without_engine(root: Path, source_tree: bool) -> Path:
    """``root/solver`` and ``root/cli`` as installed, less the compiled engine; with
    ``source_tree`` also a ``setup.py`` beside them, as in a checkout."""
    for package in (solver, cli):
        here = Path(package.__file__).parent
        shutil.copytree(here, root / here.name,
                        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    assert not list((root / "solver").glob("_search*.so"))
    if source_tree:
        (root / "setup.py").write_text("# a checkout's build script\n")
    else:
        (root / "solver" / "_search.pyx").unlink(missing_ok=True)
    return root


def run_python(root: Path, code: str, *args: str) -> subprocess.CompletedProcess:
    """``python -c CODE ARGS`` with ``root``'s packages first on the path (as at the top of a
    checkout), then this interpreter's site-packages for Typer and Rich.  ``-S`` skips the
    ``.pth`` files, so that an editable install's import hook cannot find the engine of the
    checkout it points at."""
    site = [p for p in sys.path if p.endswith("site-packages")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *site])}
    return subprocess.run([sys.executable, "-S", "-c", code, *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)


CLI = "import sys; from cli.main import main; sys.argv[0] = 'allfives'; main()"


@pytest.mark.parametrize("source_tree", [False, True])
def test_the_command_line_says_the_engine_is_missing_and_exits_1(tmp_path: Path,
                                                                 source_tree: bool):
    root = copy_without_engine(tmp_path, source_tree)
    done = run_python(root, CLI, "solve", TWO)
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert "Traceback" not in done.stderr
    if source_tree:
        assert line.startswith("allfives: error: the compiled engine is not built in the "
                               f"source tree {root / 'solver'}, which shadows any installed copy")
    else:
        assert line.startswith("allfives: error: the compiled engine is not part of this install")
    assert line.endswith("(--engine reference solves without it)")
    reference = run_python(root, CLI, "solve", TWO, "--engine", "reference", "--json")
    assert reference.returncode == 0, reference.stderr
    assert json.loads(reference.stdout)["value"] == 19
    # a command without --engine does not name it
    done = run_python(root, CLI, "advise", TWO, "--seat", "N")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert "compiled engine" in line and "--engine" not in line


def test_analyze_by_the_reference_solver_needs_no_engine(tmp_path: Path):
    """analyze --engine reference had asked for the engine all the same (its summary's 'a
    side could reach the target' read the cards' points from the engine's module), and said
    to use --engine reference."""
    root = copy_without_engine(tmp_path, source_tree=False)
    played = str(Path(solver.__file__).parent / "examples" / "played.toml")
    done = run_python(root, CLI, "analyze", played, "--engine", "reference")
    assert done.returncode == 0, done.stderr
    assert "N  11 points (2 mistakes)" in done.stdout
    done = run_python(root, CLI, "analyze", played, "--engine", "reference", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["given_away"] == {"N": 11, "S": 2}


def test_the_library_says_why_it_cannot_solve(tmp_path: Path):
    root = copy_without_engine(tmp_path, source_tree=True)
    done = run_python(root, "import solver\nsolver.load('" + TWO + "')\n"
                            "try:\n    solver.solve\nexcept ImportError as error:\n"
                            "    print(type(error).__name__, error.name, error)\n")
    assert done.returncode == 0, done.stderr
    kind, name, message = done.stdout.split(" ", 2)
    assert (kind, name) == ("EngineMissing", "solver._search")
    assert "not built in the source tree" in message


def test_a_module_the_engine_imports_missing_is_not_the_engine_missing(tmp_path: Path):
    """Only the engine's own module missing is ``EngineMissing``: a module it needs that is
    missing is raised as it is, naming that module."""
    root = copy_without_engine(tmp_path, source_tree=False)
    (root / "solver" / "_search.py").write_text("import allfives_no_such_module\n")
    done = run_python(root, "import solver.search")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == \
        "ModuleNotFoundError: No module named 'allfives_no_such_module'"
