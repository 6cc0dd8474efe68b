"""The README's Python session, run as a doctest in a fresh interpreter from a folder that is
not the checkout, as a user would paste it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

RUNNER = """
import doctest, sys
text = sys.stdin.read()
test = doctest.DocTestParser().get_doctest(text, {}, "README", "README.md", 0)
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
runner.run(test)
sys.exit(1 if runner.failures else 0)
"""


def sessions() -> list[str]:
    return re.findall(r"```pycon\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_a_python_session():
    assert any(">>> from solver import" in s for s in sessions())


def test_the_readme_python_session_runs(tmp_path: Path):
    for session in sessions():
        done = subprocess.run([sys.executable, "-c", RUNNER], input=session, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
