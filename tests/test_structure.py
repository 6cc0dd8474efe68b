"""How the modules depend on each other: imports run one way (the command line on the library,
never the reverse, and no cycle, imports inside functions counted), no module takes another's
private names, and each module's ``__all__`` names what the others take from it."""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for package in PACKAGES
           for p in sorted((ROOT / package).rglob("*.py"))}


@functools.cache
def imports(name: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each ``from M import a, b`` (M made absolute) and ``import M`` of module ``name``,
    anywhere in it, with the names taken (none for ``import M``)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [a.name for a in node.names]
            # ``from . import sampling``: the module solver.sampling
            submodules = [n for n in names if f"{target}.{n}" in MODULES]
            found += [(f"{target}.{n}", []) for n in submodules]
            found.append((target, [n for n in names if n not in submodules]))
        elif isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names]
    return [(target, tuple(names)) for target, names in found if target in MODULES]


def test_the_modules_are_found():
    assert {"solver.deal", "solver.pimc", "solver.puzzles.format", "cli.main"} <= set(MODULES)


def test_the_library_never_imports_the_command_line():
    wrong = [(name, target) for name in MODULES if name.startswith("solver")
             for target, _ in imports(name) if target.split(".")[0] == "cli"]
    assert wrong == []


def test_no_import_cycle():
    graph = {name: {t for t, _ in imports(name) if t != name} for name in MODULES}
    # a package imports its own modules to offer them; that is no cycle of theirs
    for name in graph:
        graph[name] = {t for t in graph[name] if not (MODULES[name].name == "__init__.py"
                                                      and t.startswith(name + "."))}
        graph[name] = {t for t in graph[name] if MODULES[t].name != "__init__.py"}
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(name: str, trail: list[str]) -> bool:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycle.extend(trail[trail.index(target):] + [name, target]
                             if target in trail else [name, target])
                return True
            if target not in state and visit(target, trail + [name]):
                return True
        state[name] = 2
        return False

    assert not any(visit(name, []) for name in sorted(graph) if name not in state), cycle


def test_no_module_takes_another_modules_private_names():
    taken = [(name, target, n) for name in MODULES for target, names in imports(name)
             if target != name for n in names if n.startswith("_") and not n.startswith("__")]
    assert taken == []


@pytest.mark.parametrize("name", [n for n in MODULES if n.startswith("solver")])
def test_all_names_what_other_modules_take(name):
    module = importlib.import_module(name)
    listed = getattr(module, "__all__", None)
    if listed is None:
        return
    assert [n for n in listed if not hasattr(module, n)] == []
    missing = sorted({n for other in MODULES for target, names in imports(other)
                      if target == name and other != name
                      for n in names if not n.startswith("_") and n not in listed})
    assert missing == []


def test_the_package_type_checks():
    """The package ships ``py.typed``: its annotations, and the engine's stub, agree with what
    the code does, by mypy's default checks (its settings in pyproject.toml)."""
    import os
    import subprocess
    import sys

    pytest.importorskip("mypy")
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", os.devnull, *PACKAGES],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
