"""``allfives deal``: random deals as from a shuffled pack, in TOML and one-line forms, ready for
``allfives solve``; seeds repeat, and bad requests end in one line."""

from __future__ import annotations

import json
import subprocess

import pytest

from clirun import PROGRAM, run
from solver.deal import Position

def dealt(*args) -> str:
    result = run("deal", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


def test_one_deal_in_toml():
    text = dealt("--players", "2", "--seed", "7")
    assert text.startswith("# 2 players, 6 cards each (no runs)\n"
                           "# allfives deal --players 2 --runs 0 --seed 7\n")
    position = Position.from_toml(text)
    deal = position.deal
    assert deal.players == 2 and all(len(h) == 6 for h in deal.hands)
    assert deal.turnup is not None and deal.turnup >> 4 == deal.trump
    assert position.play == () and deal.rules.preset_name == "all-fives"
    assert dealt("--players", "2", "--seed", "7") == text  # the same seed, the same cards
    assert dealt("--players", "2", "--seed", "8") != text


@pytest.mark.parametrize("players, runs, size", [(2, 0, 6), (3, 1, 9), (4, 2, 12), (2, 2, 12)])
def test_players_and_runs(players, runs, size):
    deal = Position.from_toml(dealt("--players", players, "--runs", runs, "--seed", 1)).deal
    assert deal.players == players
    assert all(len(h) == size for h in deal.hands)
    assert deal.turnup not in [c for h in deal.hands for c in h]


def test_several_deals_in_toml_are_separated():
    text = dealt("--players", "3", "--seed", "5", "--count", "3")
    documents = text.split("\n# ---\n")
    assert len(documents) == 3
    for number, document in enumerate(documents, 1):
        assert document.startswith(f"# deal {number} of 3: 3 players, 6 cards each")
        assert Position.from_toml(document).deal.players == 3
    assert len({d.split("\n", 2)[2] for d in documents}) == 3  # three different deals


def test_line_form_is_solved_from_standard_input():
    text = dealt("--players", "4", "--seed", "11", "--count", "4", "--format", "line")
    lines = text.splitlines()
    assert len(lines) == 4 and all(line.startswith("N:") for line in lines)
    assert [Position.from_line(line).deal.players for line in lines] == [4] * 4
    # the TOML and the line forms deal the same cards
    toml = dealt("--players", "4", "--seed", "11", "--count", "4").split("\n# ---\n")
    assert [Position.from_toml(t).deal for t in toml] == [Position.from_line(line).deal for line in lines]
    pytest.importorskip("solver.search")
    solved = run("solve", "-", "--json", input=text)
    assert solved.exit_code == 0, solved.stderr
    records = [json.loads(line) for line in solved.stdout.splitlines()]
    assert [r["file"] for r in records] == [f"<stdin>:{i}" for i in range(1, 5)]


def test_preset_and_dealer():
    deal = Position.from_toml(dealt("--players", "2", "--runs", "3", "--preset", "classic",
                           "--dealer", "n", "--seed", "3")).deal
    assert deal.rules.preset_name == "classic"  # runs are unlimited in classic
    assert deal.dealer == 0 and all(len(h) == 15 for h in deal.hands)
    text = dealt("--players", "2", "--rules", "classic", "--dealer", "N", "--seed", "3")
    assert "# allfives deal --players 2 --runs 0 --seed 3 --rules classic --dealer N" in text
    # (--preset is the older name of --rules)
    assert text == dealt("--players", "2", "--preset", "classic", "--dealer", "N", "--seed", "3")


def test_rule_options_over_the_preset():
    """Options after the preset's colon are dealt under, written in the deal's [options] and in
    the command that deals it again (the options the preset has already left out)."""
    text = dealt("--players", "3", "--seed", "4",
                 "--rules", "classic:skunk=true, low-to=captor,finish=hand-end")
    deal = Position.from_toml(text).deal
    assert deal.rules.changes() == {"low_to": "captor", "skunk": True}
    command = text.splitlines()[1].removeprefix("# ")
    assert command.endswith("--rules classic:low_to=captor,skunk=true")
    again = run(*command.split()[1:])
    assert again.exit_code == 0 and again.stdout == text


def test_a_fresh_seed_is_shown():
    text = dealt("--players", "2")
    seed = text.splitlines()[1].split("--seed ")[1]
    assert dealt("--players", "2", "--seed", seed) == text


def test_a_fresh_seed_of_one_line_deals_is_said_on_standard_error():
    """The one-line form has no room for it: the deals could not be dealt again."""
    fresh = run("deal", "--players", "3", "--count", "2", "--format", "line")
    assert fresh.exit_code == 0
    seed = fresh.stderr.removeprefix("allfives: a fresh seed, ").split(":")[0]
    assert fresh.stderr == f"allfives: a fresh seed, {seed}: 'allfives deal --players 3 --runs " \
                           f"0 --seed {seed} --count 2 --format line' deals the same cards again\n"
    again = run("deal", "--players", "3", "--count", "2", "--format", "line", "--seed", seed)
    assert (again.stdout, again.stderr) == (fresh.stdout, "")


@pytest.mark.parametrize("args, message", [
    (["--players", "5"], "--players: a table has 2, 3 or 4 players, not 5"),
    (["--players", "2", "--runs", "3"],
     "--runs: 3 runs asked for, but these rules allow at most 2"),
    (["--players", "4", "--runs", "3", "--preset", "classic"],
     "--runs: 3 runs asked for, but with 4 players the pack supplies at most 2"),
    (["--players", "2", "--rules", "whist"], "--rules: unknown preset 'whist'"),
    (["--players", "2", "--rules", "skunk=true"],
     "--rules: 'skunk=true' names no preset (options go after one and a colon: "
     "all-fives:skunk=true)"),
    (["--players", "2", "--rules", "strict:skunk=maybe"],
     "--rules: option 'skunk' takes true or false, not 'maybe'"),
    (["--players", "2", "--dealer", "E"], "--dealer: no seat 'E' at a 2-player table"),
])
def test_bad_requests(args, message):
    result = run("deal", *args)
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"allfives: error: {message}")


@pytest.mark.parametrize("args", [["--players", "2", "--count", "0"],
                                  ["--players", "2", "--runs", "-1"],
                                  ["--players", "two"],
                                  ["--players", "2", "--format", "pbn"]])
def test_usage_errors(args):
    result = run("deal", *args)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("allfives: error: ")




def test_the_installed_program_deals_into_solve():
    pytest.importorskip("solver.search")
    deal = subprocess.run([str(PROGRAM), "deal", "--players", "3", "--seed", "2", "--count",
                           "2", "--format", "line"], capture_output=True, text=True, timeout=300)
    assert deal.returncode == 0, deal.stderr
    solve = subprocess.run([str(PROGRAM), "solve", "-", "--json"], input=deal.stdout,
                           capture_output=True, text=True, timeout=300)
    assert solve.returncode == 0, solve.stderr
    assert len(solve.stdout.splitlines()) == 2


def test_several_deals_in_toml_are_solved_from_a_file_and_from_standard_input(tmp_path):
    pytest.importorskip("solver.search")
    text = dealt("--players", "3", "--seed", "9", "--count", "3")
    path = tmp_path / "deals.toml"
    path.write_text(text, encoding="utf-8")
    lines = dealt("--players", "3", "--seed", "9", "--count", "3", "--format", "line")

    def solved(*args, input=None):
        result = run("solve", *args, "--json", input=input)
        assert result.exit_code == 0, result.stderr
        return [json.loads(line) for line in result.stdout.splitlines()]

    from_file = solved(path)
    from_stdin = solved("-", input=text)
    from_lines = solved("-", input=lines)  # the same deals, one a line
    assert [r["file"] for r in from_file] == [f"{path}#{k}" for k in (1, 2, 3)]
    assert [r["file"] for r in from_stdin] == ["<stdin>#1", "<stdin>#2", "<stdin>#3"]
    for records in (from_file, from_stdin):
        assert [(r["value"], r["moves"]) for r in records] == \
            [(r["value"], r["moves"]) for r in from_lines]


def test_the_installed_program_deals_toml_into_solve():
    pytest.importorskip("solver.search")
    deal = subprocess.run([str(PROGRAM), "deal", "--players", "2", "--seed", "2", "--count",
                           "3"], capture_output=True, text=True, timeout=300)
    assert deal.returncode == 0, deal.stderr
    solve = subprocess.run([str(PROGRAM), "solve", "-", "--json"], input=deal.stdout,
                           capture_output=True, text=True, timeout=300)
    assert solve.returncode == 0, solve.stderr
    assert [json.loads(line)["file"] for line in solve.stdout.splitlines()] == \
        ["<stdin>#1", "<stdin>#2", "<stdin>#3"]


@pytest.mark.parametrize("players, runs", [(2, 1), (2, 2), (3, 2), (4, 1), (4, 2)])
def test_the_turnups_set_aside_are_written(players, runs):
    """Each run's turn-up but the last is set aside: written in both forms (``aside``), in no
    hand, and read back with the deal as one that advise keeps out of hidden hands."""
    from solver.cards import suit_of
    from solver.notation import parse_line, parse_toml

    args = ["--players", str(players), "--runs", str(runs), "--seed", "11", "--count", "4"]
    tomls = dealt(*args).split("# ---\n")
    lines = dealt(*args, "--format", "line").splitlines()
    for toml, line in zip(tomls, lines, strict=True):
        layout = parse_toml(toml, "<toml>")
        assert layout == parse_line(line, "<line>")._replace(source="<toml>")
        held = {c for hand in layout.hands for c in hand}
        assert len(layout.aside) == runs and not held & set(layout.aside)
        assert layout.turnup not in layout.aside and len(held) == players * (6 + 3 * runs)
        # each run turned up the suit first proposed again, but the last, which fixed trumps
        assert len({suit_of(card) for card in layout.aside}) == 1
        assert suit_of(layout.turnup) != suit_of(layout.aside[0])
