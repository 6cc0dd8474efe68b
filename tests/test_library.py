"""The README's Python session, run as a doctest in a fresh interpreter from a folder that is
not the checkout, as a user would paste it; and what the library says when it is given the
wrong kind of thing."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

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


# ---- what the library is given ---------------------------------------------------------------

LINE = "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H"


def _calls():
    from solver import Position, Solver, load, reference, solve
    from solver.puzzles import check_puzzle, examine

    return [
        (lambda: solve(LINE), "position: expected a Position (Position.from_line or load reads "
                              "one), not 'N:T.QJT92"),
        (lambda: Solver().solve(None), "position: expected a Position"),
        (lambda: reference.solve(LINE), "position: expected a Position"),
        (lambda: examine(LINE), "position: expected a Position"),
        (lambda: check_puzzle(LINE), "puzzle: expected a Puzzle (load_puzzle reads one)"),
        (lambda: Position.from_line(None), "<line>: expected the text of a position, not None"),
        (lambda: Position.from_toml(5, "x.toml"), "x.toml: expected the text of a position, "
                                                  "not 5"),
        (lambda: load(None), "path: expected a file's name, not None"),
        (lambda: Solver(table_bits="21"), "table_bits: '21' is not a whole number from 8 to 26"),
        (lambda: Solver(table_bits=100), "table_bits: 100 is not a whole number from 8 to 26"),
        (lambda: Position.from_line(LINE).after(True), "play[0]: unknown card True"),
        # (a seat's name for a side was 'not at this 2-player table (sides: 0 (N), 1 (S))')
        (lambda: solve(Position.from_line(LINE), side="S"),
         "side: expected a side's number, not 'S' (at this 2-player table: 0 (N), 1 (S))"),
        (lambda: solve(Position.from_line(LINE), side=2),
         "side 2 is not at this 2-player table (sides: 0 (N), 1 (S))"),
    ]


def test_a_wrong_kind_of_argument_is_an_error_saying_what_was_expected():
    from solver.errors import AllFivesError

    # each once escaped as an AttributeError or TypeError from deep inside
    for call, message in _calls():
        with pytest.raises(AllFivesError) as caught:
            call()
        assert str(caught.value).startswith(message), caught.value


def test_a_position_is_played_on_by_card_names_or_numbers():
    from solver import Position
    from solver.cards import parse_card

    position = Position.from_line(LINE)
    assert position.after("9H", "kh") == position.after(parse_card("9H"), parse_card("KH"))
