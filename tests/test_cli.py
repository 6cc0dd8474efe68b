"""``allfives solve``: JSON and plain output, --for, --objective, --engine, standard input, and
the one error boundary (exit 2, one line on stderr, never a traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import solver
from cli.main import app
from solver import reference
from solver.cards import card_str
from solver.deal import load, to_line

EXAMPLES = Path(solver.__file__).parent / "examples"
TWO = EXAMPLES / "two-player.toml"
MID = EXAMPLES / "mid-trick.toml"
KEYS = {"file", "to_move", "for", "objective", "value", "moves", "line", "nodes", "seconds"}

try:
    RUNNER = CliRunner(mix_stderr=False)  # older Click mixes stderr into output by default
except TypeError:
    RUNNER = CliRunner()


def run(*args: str, input: str | None = None):
    return RUNNER.invoke(app, [str(a) for a in args], input=input)


def records(result) -> list[dict]:
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def solve_ref(*args: str, input: str | None = None) -> list[dict]:
    return records(run("solve", *args, "--engine", "reference", "--json", input=input))


def assert_one_error_line(result, *fragments: str) -> str:
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("allfives: error: ")
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


# ---- output ---------------------------------------------------------------------------------

def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"allfives {solver.__version__}"


def test_json_shape_and_values():
    (record,) = solve_ref(TWO)
    assert set(record) == KEYS
    position = load(TWO)
    expected = reference.solve(position)
    assert record["file"] == str(TWO)
    assert record["to_move"] == "N" and record["for"] == "N"
    assert record["objective"] == "points"
    assert record["value"] == expected.value
    assert record["moves"] == {card_str(c): v for c, v in expected.moves.items()}
    assert list(record["moves"]) == ["TS", "QH", "JH", "TH", "9H", "2H"]  # canonical order
    assert record["value"] == max(record["moves"].values())
    assert isinstance(record["nodes"], int) and record["nodes"] > 0
    assert isinstance(record["seconds"], float) and record["seconds"] >= 0
    # the line is legal play to the end of the deal, starting with a best card
    assert record["moves"][record["line"][0]] == record["value"]
    after = position
    for card in record["line"]:
        assert card in [card_str(c) for c in after.legal_moves()]
        after = after.after(solver.parse_card(card))
    assert after.is_over


def test_for_the_other_side_and_other_objectives():
    position = load(TWO)
    (south,) = solve_ref(TWO, "--for", "S")
    assert south["for"] == "S" and south["to_move"] == "N"
    assert south["value"] == reference.solve(position, side=1).value
    # North is to move and plays against South: South's value is the least over North's cards
    assert south["value"] == min(south["moves"].values())
    (margin,) = solve_ref(TWO, "--objective", "margin")
    (tricks,) = solve_ref(TWO, "--objective", "tricks", "--for", "s")
    assert margin["objective"] == "margin"
    assert margin["value"] == reference.solve(position, objective="margin").value
    assert tricks["objective"] == "tricks" and tricks["for"] == "S"
    assert tricks["value"] == reference.solve(position, side=1, objective="tricks").value
    assert 0 <= tricks["value"] <= 6


@pytest.mark.parametrize("seat, side, index", [(None, "EW", 1), ("N", "NS", 0), ("S", "NS", 0),
                                               ("E", "EW", 1), ("w", "EW", 1), ("NS", "NS", 0),
                                               ("we", "EW", 1)])
def test_for_names_a_partnership_by_either_partner(seat, side, index):
    args = [MID] + (["--for", seat] if seat else [])
    (record,) = solve_ref(*args)
    assert record["to_move"] == "E"
    assert record["for"] == side
    assert record["value"] == reference.solve(load(MID), side=index).value
    assert len(record["line"]) == 13  # one card to end trick 3, then three tricks of four


def test_several_files_and_a_file_of_lines(tmp_path: Path):
    lines = tmp_path / "positions.txt"
    lines.write_text(f"# two positions\n{to_line(load(MID))}\n\n{to_line(load(TWO))}\n",
                     encoding="utf-8")
    found = solve_ref(TWO, lines)
    assert [r["file"] for r in found] == [str(TWO), f"{lines}:2", f"{lines}:4"]
    assert found[0]["value"] == found[2]["value"]
    assert found[1]["to_move"] == "E"


def test_standard_input():
    (from_toml,) = solve_ref("-", input=MID.read_text(encoding="utf-8"))
    (from_line,) = solve_ref("-", input=to_line(load(MID)) + "\n")
    assert from_toml["file"] == "<stdin>" and from_line["file"] == "<stdin>:1"
    assert from_toml["value"] == from_line["value"]
    assert from_toml["moves"] == from_line["moves"]


def test_plain_output():
    result = run("solve", MID, "--engine", "reference")
    assert result.exit_code == 0
    text = result.stdout
    expected = reference.solve(load(MID))
    assert text.startswith(str(MID) + "\n")
    assert f"points for EW: {expected.value}" in text
    assert "E to play to trick 3" in text
    assert "on the table: 8C (S) 6C (W) 5S (N)" in text
    for card, value in expected.moves_str().items():
        assert f"{card} {value}" in text
    best = card_str(expected.line[0])
    assert f"{best} {expected.value}*" in text
    assert "line:  " + best + " | " in text


def test_plain_output_of_several_positions_is_separated_by_a_blank_line():
    result = run("solve", TWO, MID, "--engine", "reference")
    assert result.exit_code == 0
    assert f"\n\n{MID}\n" in result.stdout


# ---- errors: exit 2, one line, no traceback --------------------------------------------------

def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


BAD_FILES = [
    ("unknown card", 'trump = "H"\n[hands]\nN = "AH ZZ"\nS = "KH QH"\n',
     "hands.N: unknown card 'ZZ'"),
    ("duplicated card", 'trump = "H"\n[hands]\nN = "AH KH"\nS = "QH AH"\n',
     "hands.S: card 'AH' is also in N's hand"),
    ("unequal hands", 'trump = "H"\n[hands]\nN = "AH KH"\nS = "QH"\n',
     "hands.S: 1 cards, but N has 2"),
    ("unknown seat", 'trump = "H"\n[hands]\nN = "AH"\nQ = "QH"\n', "hands.Q: unknown seat 'Q'"),
    ("unknown key", 'trump = "H"\nfoo = 1\n[hands]\nN = "AH"\nS = "QH"\n',
     "unknown key 'foo'"),
    ("unknown preset", 'rules = "whist"\ntrump = "H"\n[hands]\nN = "AH"\nS = "QH"\n',
     "rules: unknown preset 'whist'"),
    ("illegal play", 'trump = "S"\nplay = ["AH", "2C"]\n[hands]\nN = "AH KH"\nS = "QH 2C"\n',
     "play[1]: S may not play '2C' to 'AH' led"),
    ("trump against turn-up", 'trump = "S"\nturnup = "7H"\n[hands]\nN = "AH"\nS = "QH"\n',
     "trump: 'S' contradicts turn-up '7H'"),
    ("not TOML", 'trump = "S\n[hands]\n', "not TOML: "),
]


@pytest.mark.parametrize("what, text, fragment", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_malformed_files_end_in_one_line(tmp_path: Path, what, text, fragment):
    path = write(tmp_path, "deal.toml", text)
    line = assert_one_error_line(run("solve", path, "--engine", "reference"), fragment)
    assert line.startswith(f"allfives: error: {path}: ")


def test_a_bad_file_stops_before_anything_is_solved(tmp_path: Path):
    bad = write(tmp_path, "bad.toml", "foo = 1\n")
    assert_one_error_line(run("solve", TWO, bad, "--engine", "reference", "--json"),
                          f"{bad}: unknown key 'foo'")


def test_a_bad_line_names_the_file_and_line(tmp_path: Path):
    path = write(tmp_path, "positions.txt", f"{to_line(load(TWO))}\nN:A.-.-.- K.-.-.- trump=X\n")
    assert_one_error_line(run("solve", path, "--engine", "reference"),
                          f"{path}:2: trump: unknown suit 'X'")


def test_missing_file(tmp_path: Path):
    path = tmp_path / "nowhere.toml"
    assert_one_error_line(run("solve", path, "--engine", "reference"),
                          f"{path}: No such file or directory")


def test_a_directory_is_not_a_deal_file(tmp_path: Path):
    assert_one_error_line(run("solve", tmp_path, "--engine", "reference"), str(tmp_path))


def test_bad_standard_input():
    assert_one_error_line(run("solve", "-", "--engine", "reference", input="rules = 3\n"),
                          "<stdin>: rules: expected a string")


def test_for_a_seat_not_at_the_table():
    # East sits at the four-player table of MID but not at TWO's; nothing is solved
    assert_one_error_line(run("solve", MID, TWO, "--for", "E", "--engine", "reference"),
                          f"{TWO}: --for: unknown seat 'E'")


def test_margin_needs_two_sides(tmp_path: Path):
    path = write(tmp_path, "three.toml", 'trump = "H"\n[hands]\nN = "AH"\nE = "KH"\nS = "QH"\n')
    assert_one_error_line(run("solve", TWO, path, "--objective", "margin", "--engine",
                              "reference"), f"{path}: objective 'margin' needs two sides")


@pytest.mark.parametrize("args", [["solve", str(TWO), "--objective", "glory"],
                                  ["solve", str(TWO), "--engine", "abacus"],
                                  ["solve", str(TWO), "--colour"],
                                  ["solve"],
                                  ["deal"]])
def test_usage_errors_exit_2(args):
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr + result.stdout


def test_without_the_engine_the_default_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "solver.search", None)  # as if it were not installed
    result = run("solve", TWO)
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith("allfives: error: the engine is not part of this install")
    assert records(run("solve", TWO, "--engine", "reference", "--json"))  # the reference works


# ---- the installed program ---------------------------------------------------------------------

PROGRAM = Path(sys.executable).parent / ("allfives.exe" if sys.platform == "win32" else "allfives")


def test_the_installed_program():
    assert PROGRAM.exists(), PROGRAM
    done = subprocess.run([str(PROGRAM), "solve", str(MID), "--json", "--for", "S",
                           "--engine", "reference"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert set(record) == KEYS
    assert record["for"] == "NS"
    assert record["value"] == reference.solve(load(MID), side=0).value


def test_the_installed_program_on_a_bad_file(tmp_path: Path):
    path = write(tmp_path, "deal.toml", 'trump = "H"\n[hands]\nN = "AH ZZ"\nS = "KH QH"\n')
    done = subprocess.run([str(PROGRAM), "solve", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"allfives: error: {path}: hands.N: unknown card 'ZZ'\n"


# ---- the engine (the default) ----------------------------------------------------------------

def test_the_engine_agrees_with_the_reference():
    pytest.importorskip("solver.search")
    for path in (TWO, MID):
        for side in ("N", "S"):
            for objective in ("points", "margin", "tricks"):
                args = (path, "--for", side, "--objective", objective, "--json")
                (fast,) = records(run("solve", *args))
                (slow,) = solve_ref(*args[:-1])
                assert fast["value"] == slow["value"]
                assert fast["moves"] == slow["moves"]
                assert fast["for"] == slow["for"]


def test_the_engine_is_the_default():
    pytest.importorskip("solver.search")
    (record,) = records(run("solve", TWO, "--json"))
    assert record["value"] == reference.solve(load(TWO)).value
