"""``allfives solve``: JSON and plain output, --for, --objective, --engine, standard input, and
the one error boundary (exit 2, one line on stderr, never a traceback)."""

from __future__ import annotations

import json
import importlib.metadata
import io
import os
import re
import subprocess
from pathlib import Path

import pytest

import solver
from cli.main import app
from clirun import PROGRAM, PUZZLES, RUNNER, assert_one_error_line, console, records, run, shell
from solver import reference
from solver.cards import card_str
from solver.deal import load

EXAMPLES = Path(solver.__file__).parent / "examples"
TWO = EXAMPLES / "two-player.toml"
MID = EXAMPLES / "mid-trick.toml"
KEYS = {"file", "to_move", "for", "objective", "value", "moves", "line", "nodes", "seconds",
        "complete", "lower", "upper"}

def solve_ref(*args: str, input: str | None = None) -> list[dict]:
    return records(run("solve", *args, "--engine", "reference", "--json", input=input))


# ---- output ---------------------------------------------------------------------------------

def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"allfives {solver.__version__}"
    # the package's metadata takes its version from the same place
    assert importlib.metadata.version("allfives") == solver.__version__


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
    assert record["complete"] is True
    assert record["lower"] == record["upper"] == record["value"]
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


WIN = "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H"


@pytest.mark.parametrize("score, value", [("55,50", 1), ("30,50", 0)])
def test_objective_win(score, value):
    (record,) = records(run("solve", f"{WIN} score={score}", "--objective", "win", "--json"))
    assert record["objective"] == "win" and record["value"] == value
    assert set(record["moves"].values()) <= {0, 1}
    plain = run("solve", f"{WIN} score={score}", "--objective", "win")
    assert plain.exit_code == 0
    assert f"Win for N: {'yes' if value else 'no'} ({value})" in plain.stdout


def test_objective_win_needs_a_score():
    assert_one_error_line(run("solve", WIN, "--objective", "win"), "objective 'win'",
                          "match score")


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
    lines.write_text(f"# two positions\n{load(MID).to_line()}\n\n{load(TWO).to_line()}\n",
                     encoding="utf-8")
    found = solve_ref(TWO, lines)
    assert [r["file"] for r in found] == [str(TWO), f"{lines}:2", f"{lines}:4"]
    assert found[0]["value"] == found[2]["value"]
    assert found[1]["to_move"] == "E"


def test_standard_input():
    (from_toml,) = solve_ref("-", input=MID.read_text(encoding="utf-8"))
    (from_line,) = solve_ref("-", input=load(MID).to_line() + "\n")
    assert from_toml["file"] == "<stdin>" and from_line["file"] == "<stdin>:1"
    assert from_toml["value"] == from_line["value"]
    assert from_toml["moves"] == from_line["moves"]


def test_several_toml_deals_in_one_file_and_on_standard_input(tmp_path: Path):
    text = f"{TWO.read_text(encoding='utf-8')}\n# ---\n{MID.read_text(encoding='utf-8')}"
    path = write(tmp_path, "deals.toml", text)
    found = solve_ref(path, TWO)
    assert [r["file"] for r in found] == [f"{path}#1", f"{path}#2", str(TWO)]
    assert [found[0][key] for key in ("value", "moves", "line")] == \
        [found[2][key] for key in ("value", "moves", "line")]
    assert found[1]["value"] == reference.solve(load(MID)).value
    from_stdin = solve_ref("-", input=text)
    assert [r["file"] for r in from_stdin] == ["<stdin>#1", "<stdin>#2"]
    assert [r["moves"] for r in from_stdin] == [r["moves"] for r in found[:2]]
    assert plain(path).startswith(f"{path}#1\n")


@pytest.mark.parametrize("tail", ["x", "-1", "", "2x"])
def test_a_deal_number_that_is_none_names_the_number(tmp_path: Path, tail: str):
    """FILE#x, where FILE is there: not 'No such file', which it is not about."""
    text = f"{TWO.read_text(encoding='utf-8')}\n# ---\n{MID.read_text(encoding='utf-8')}"
    path = write(tmp_path, "deals.toml", text)
    for command in ("solve", "analyze"):
        line = assert_one_error_line(run(command, f"{path}#{tail}"))
        assert line == f"allfives: error: {path}#{tail}: no such file, and #{tail} is not a " \
                       f"deal number (FILE#N counts the deals of a file from 1)"


def test_a_bad_card_in_the_second_deal_names_it(tmp_path: Path):
    second = MID.read_text(encoding="utf-8").replace('N = "', 'N = "ZZ ')
    text = f"{TWO.read_text(encoding='utf-8')}\n# ---\n{second}"
    path = write(tmp_path, "deals.toml", text)
    for command in ("solve", "analyze"):
        line = assert_one_error_line(run(command, path, "--engine", "reference"))
        assert line == f"allfives: error: {path}#2: hands.N: unknown card 'ZZ'"


def test_an_empty_deal_between_separators_ends_in_one_line(tmp_path: Path):
    path = write(tmp_path, "deals.toml", f"{TWO.read_text(encoding='utf-8')}# ---\n\n# ---\n")
    assert_one_error_line(run("solve", path, "--engine", "reference"),
                          f"{path}#2: no deal: nothing but blank lines and comments between")


def plain(*args: str, input: str | None = None) -> str:
    result = run("solve", *args, "--engine", "reference", input=input)
    assert result.exit_code == 0, result.stderr
    assert "\x1b[" not in result.stdout  # no control codes into a pipe
    return result.stdout


def test_plain_output():
    text = plain(MID)
    expected = reference.solve(load(MID))
    assert text.startswith(str(MID) + "\n")
    assert "4 players, 6 cards each; rules all-fives; dealer S" in text
    assert "2 players, 1 card each; rules all-fives" in plain("N:-.A.-.- -.5.-.- trump=H")
    assert "trumps ♦ diamonds (turn-up 6♦); E to play to trick 3" in text
    assert f"Points for EW: {expected.value}" in text
    # the table: every seat with its hand by suit, the seat to play and the dealer marked
    assert "E (EW)   to play" in text
    assert "S (NS) dealer" in text
    assert "♦ 7 5  ◂ trumps" in text
    assert "on the table:" in text and "S 8♣" in text and "W 6♣" in text and "N 5♠" in text
    # every legal card with its value and cost, best first
    rows = [line.split() for line in text.splitlines()
            if line[:2] in ("4♣", "5♦", "7♦")]
    values = {card_str(c, pretty=True): v for c, v in expected.moves.items()}
    assert [(r[0], int(r[1])) for r in rows] == sorted(values.items(), key=lambda kv: -kv[1])
    assert rows[0][2:] == ["·", "best"]
    for row in rows[1:]:
        assert int(row[2]) == expected.value - int(row[1])  # E plays for EW: cost = best - value
    # the line trick by trick, then the end of the deal
    assert "The best line" in text and "End of the deal" in text
    assert "1-2              played before" in text


def test_plain_output_of_the_line_and_the_end_of_the_deal():
    text = plain(TWO)
    lines = text.splitlines()
    position = load(TWO)
    best = reference.solve(position)
    after = position.after(*best.line)
    start = lines.index("The best line")
    assert lines[start + 1].split() == ["trick", "led", "by", "cards", "won", "by", "pegged",
                                        "N", "S"]
    rows = [line.split() for line in lines[start + 3:start + 9]]
    totals = [0, 0]
    for number, (row, trick) in enumerate(zip(rows, after.tricks), 1):
        pegged = sum(solver.cards.pip_value(c) for c in trick.cards if c >> 4 == 1)  # hearts
        totals[trick.winner] += pegged
        seats = "NS"
        assert row == [str(number), seats[trick.leader],
                       *(card_str(c, pretty=True) for c in trick.cards),
                       seats[trick.winner], str(pegged) if pegged else "·",
                       *map(str, totals)]
    assert lines[start + 9] == ""
    end = lines.index("End of the deal")
    table = {line.split()[0]: line.split()[1:] for line in lines[end + 3:end + 9]}
    assert table["captures"] == list(map(str, totals))
    assert table["High"][:3] == ["·", "1", "A♥"]
    assert table["Low"][:3] == ["1", "·", "2♥"]
    jack_side = next(t.winner for t in after.tricks if solver.parse_card("JH") in t.cards)
    assert table["Jack"][jack_side] == "1"
    assert table["total"] == [str(best.value), str(sum(map(int, (
        x for x in (table[k][1] for k in ("captures", "High", "Low", "Jack", "Game"))
        if x != "·"))))]
    assert "Match to" not in text  # no score, no pegboard


def test_the_cost_of_an_opponents_card_is_what_it_gives_away():
    # North to play, values for South: North's best card is the one that leaves South least
    text = plain(TWO, "--for", "S")
    expected = reference.solve(load(TWO), side=1)
    assert f"Points for S: {expected.value}" in text
    assert re.search(r"^card +value for S +gives S$", text, re.M)
    assert re.search(r"^card +value for N +cost to N$", plain(TWO), re.M)
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()
            if line[:2] in ("9♥", "T♥", "T♠")}
    assert rows["9♥"][:2] == [str(expected.value), "·"]
    assert rows["T♥"][:2] == [str(expected.moves[solver.parse_card("TH")]),
                              str(expected.moves[solver.parse_card("TH")] - expected.value)]


def test_the_pegboard_of_a_match(tmp_path: Path):
    line = load(TWO).to_line() + " score=45,50"
    text = plain(line)
    assert "Match to 61 (first to peg out wins)" in text
    assert re.search(r"^N  45 → 64  \(\+19\)  wins the match, pegging out at trick \d$", text,
                     re.MULTILINE)
    assert "S  50 → 60  (+10)" in text
    strips = [row.strip() for row in text.splitlines() if row.strip().startswith("●")]
    assert len(strips) == 2
    for strip, before, after in zip(strips, (45, 50), (61, 60)):
        holes = strip.replace(" ", "")
        assert len(holes) == 61
        assert holes == "●" * before + "◆" * (after - before) + "·" * (61 - after)
    assert "That is the match on the best line for points; --objective win plays for the " \
           "match." in " ".join(text.split())


def test_a_match_won_on_the_points_line_is_said_to_be_the_points_lines():
    """By points the board showed S winning the match, where N can win it first (52 + the
    King's 3, High 1 ... by --objective win): the board follows the line best for points."""
    line = "N:3.AK5.2.9 7.QT4.J.8 dealer=S trump=H play=AH,4H,9C follow=strict score=52,58"
    for objective, winner in (("points", "S"), ("win", "N")):
        text = " ".join(run("solve", line, "--objective", objective, "--for", "N",
                            "--no-color").stdout.split())
        assert f"{winner} " in text and "wins the match" in text
        assert re.search(rf"{winner} \d+ → \d+ \(\+\d+\) wins the match", text)
        said = "That is the match on the best line for points" in text
        assert said == (objective == "points")
    # a position played to its end has no line to choose: no note
    over = line.replace("play=AH,4H,9C", "play=AH,4H,9C,8C,3S,7S,QH,KH,5H,TH,JD,2D").replace(
        "score=52,58", "score=40,45")
    text = run("solve", over, "--no-color").stdout
    assert "wins the match" in text and "That is the match" not in text


def test_no_color_and_color(tmp_path: Path):
    plain_text = run("solve", TWO, "--no-color").stdout
    assert "\x1b[" not in plain_text
    coloured = run("solve", TWO, "--color").stdout
    assert "\x1b[31m" in coloured  # red hearts
    assert "\x1b[" not in run("solve", TWO, "--color", "--json").stdout
    # asked for, colour is given under TERM=dumb too, where Rich gives none
    dumb = RUNNER.invoke(app, ["solve", str(TWO), "--color"], env={"TERM": "dumb"}).stdout
    assert "\x1b[31m" in dumb
    assert "\x1b[" not in RUNNER.invoke(app, ["solve", str(TWO)], env={"TERM": "dumb"}).stdout
    # and over NO_COLOR, as the convention has a flag overrule it (the red was lost: bold alone)
    over = RUNNER.invoke(app, ["solve", str(TWO), "--color"], env={"NO_COLOR": "1"}).stdout
    assert "\x1b[1;31m" in over
    # FORCE_COLOR under TERM=dumb colours too, as --color does (it gave none)
    forced = RUNNER.invoke(app, ["solve", str(TWO)], env={"TERM": "dumb", "FORCE_COLOR": "1",
                                                          "NO_COLOR": ""}).stdout
    assert "\x1b[31m" in forced or "\x1b[1;31m" in forced


@pytest.mark.parametrize("setting", ["FORCE_COLOR", "TTY_COMPATIBLE"])
@pytest.mark.parametrize("args", [["solve", TWO, "--no-color"], ["solve", TWO],
                                  ["match", "heuristic", "random", "--deals", "300"],
                                  ["puzzle", "generate", "--seed", "1"]])
def test_a_setting_that_forces_colour_puts_no_live_line_into_a_file(setting, args):
    """FORCE_COLOR (or TTY_COMPATIBLE), which Rich takes for a terminal, colours the output
    but puts no live line or bar into standard error off a terminal (their control codes went
    into the file)."""
    result = RUNNER.invoke(app, [str(a) for a in args], env={setting: "1", "NO_COLOR": ""})
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    if "--no-color" not in args and args[0] != "puzzle":
        assert "\x1b[" in result.stdout


def test_plain_output_of_several_positions_is_separated_by_a_blank_line():
    result = run("solve", TWO, MID, "--engine", "reference")
    assert result.exit_code == 0
    assert f"\n\n{MID}\n" in result.stdout


def test_a_long_file_name_is_printed_whole_on_its_own_line(tmp_path):
    folder = tmp_path.joinpath(*["a-folder-with-a-long-name"] * 6)
    folder.mkdir(parents=True)
    path = folder / "mid-trick.toml"
    path.write_bytes(MID.read_bytes())
    assert len(str(path)) > 160
    for command in ("solve", "analyze"):
        result = run(command, path)
        assert result.exit_code == 0, result.stderr
        assert result.stdout.splitlines()[0] == str(path)


def test_a_one_line_position_as_the_argument():
    (record,) = solve_ref(load(MID).to_line())
    assert record["file"] == "<argument>"
    assert record["value"] == reference.solve(load(MID)).value
    line, toml = solve_ref(load(MID).to_line(), MID)
    assert line["file"] == "<argument 1>" and toml["file"] == str(MID)
    assert line["moves"] == toml["moves"] == record["moves"]


def test_a_file_wins_over_a_line(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "N:x").write_text(TWO.read_text(encoding="utf-8"), encoding="utf-8")
    (record,) = solve_ref("N:x")
    assert record["file"] == "N:x" and record["to_move"] == "N"


def test_a_bad_one_line_argument():
    assert_one_error_line(run("solve", "N:AK.-.-.- QJ.-.-.- trump=H bogus", "--engine",
                              "reference"), "<argument>: expected key=value, not 'bogus'")


# ---- limits: exit 1 with bounds -------------------------------------------------------------

FOUR = EXAMPLES / "four-player.toml"


def test_a_node_limit_without_a_result_shows_bounds_and_exits_1():
    pytest.importorskip("solver.search")
    from solver.search import Solver

    result = run("solve", FOUR, "--json", "--node-limit", "50")
    text = run("solve", FOUR, "--node-limit", "50")
    value = Solver().solve(load(FOUR)).value  # the reference takes long on four whole hands
    assert result.exit_code == 1
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert set(record) == KEYS
    assert record["complete"] is False and record["value"] is None
    assert record["line"] == []
    assert record["lower"] <= value <= record["upper"] and record["lower"] < record["upper"]
    (line,) = result.stderr.splitlines()
    assert line == (f"allfives: {FOUR}: no result: the search stopped at its limit "
                    f"(the value lies between {record['lower']} and {record['upper']})")
    assert text.exit_code == 1
    lower, upper = map(int, re.search(r"Points for NS: between (\d+) and (\d+)",
                                      text.stdout).groups())
    assert lower <= value <= upper
    assert "not known" in text.stdout and "The best line" not in text.stdout


def test_a_time_limit_alone_stops_the_search():
    """Four hands of 12 cards (two runs): minutes of search, stopped by --time-limit alone."""
    pytest.importorskip("solver.search")
    import random

    from solver.shuffle import shuffle_deal

    line = shuffle_deal(random.Random(3), 4, 2).position().to_line()
    result = run("solve", line, "--json", "--time-limit", "0.2")
    assert result.exit_code == 1
    (record,) = [json.loads(text) for text in result.stdout.splitlines()]
    assert record["complete"] is False and record["lower"] < record["upper"]
    assert result.stderr == (f"allfives: <argument>: no result: the search stopped at its "
                             f"limit (the value lies between {record['lower']} and "
                             f"{record['upper']})\n")


def test_a_limit_that_stops_after_the_value_is_proved_gives_it():
    """Stopped with its bounds met, a solve has its value (the reference's), and the cards
    valued before the limit keep their values, in the text as in the JSON."""
    pytest.importorskip("solver.search")
    # one card each: the bounds meet at once, and no card is valued within one node
    one = run("solve", "N:-.A.-.- -.5.-.- trump=H", "--json", "--node-limit", 1)
    assert one.exit_code == 1       # (not every card valued)
    record = json.loads(one.stdout)
    assert (record["complete"], record["lower"], record["upper"], record["value"]) == \
        (False, 11, 11, 11)
    from solver.search import Solver

    oracle = reference.solve(load(TWO))
    value, legal = oracle.value, load(TWO).legal_moves()
    told = set()
    for limit in range(100, 20_000, 100):     # a fresh engine, as a fresh program has
        found = Solver().solve(load(TWO), node_limit=limit)
        if found.complete:
            break
        if found.lower != found.upper:
            continue
        # stopped with its bounds met: some card not valued yet, or only the line not found
        what = "its line was played out" if all(c in found.moves for c in legal) else \
            "every card was valued"
        if what in told:
            continue
        told.add(what)
        text = shell(f"allfives solve {TWO} --node-limit {limit}; echo status $?", Path.cwd())
        assert text.stdout.rstrip().endswith(
            f"allfives: {TWO}: the value {value} is proved, but the search stopped at its "
            f"limit before {what}\nstatus 1")
        assert f"Points for N: {value}  (the search stopped at its limit before {what})" \
            in " ".join(text.stdout.split("\n"))
        # the cards valued before the limit, with their costs: the value is proved
        rows = re.findall(r"^(\S+)\s+(\d+)\s+(\d+|·)", text.stdout, re.MULTILINE)
        assert len(rows) == len(found.moves)
        for face, card_value, cost in rows:
            card = next(c for c in legal if card_str(c, True) == face)
            assert oracle.moves[card] == int(card_value), face
            assert (0 if cost == "·" else int(cost)) == value - int(card_value), face
        assert len(re.findall(r"\?\s+\?\s+not known", text.stdout)) == \
            len(legal) - len(found.moves)
    assert told == {"its line was played out", "every card was valued"}


def test_a_limit_with_room_to_spare_gives_the_value():
    pytest.importorskip("solver.search")
    (record,) = records(run("solve", TWO, "--json", "--node-limit", "10000000",
                            "--time-limit", "60"))
    assert record["complete"] is True
    assert record["value"] == reference.solve(load(TWO)).value


def test_a_node_limit_gives_each_position_the_same_answer_wherever_it_is_solved(tmp_path):
    """Under --node-limit a position's answer is its own: the same in a file as alone, the
    same after any other position, and the same over workers (the shared table had let a
    search that stopped alone finish after another had filled it)."""
    pytest.importorskip("solver.search")
    a = "N:A5.7.3.J4 K92.6.T5.- 8.K52.Q.T -.A94.8.A9 dealer=E turnup=3H play=QD,8D,3D,5D"
    b = a + ",8S,AC,7H,2S,4C,TD,TC"
    lines = tmp_path / "mix.txt"
    lines.write_text("\n".join([a, b, b, b, a, b, a, a]) + "\n", encoding="utf-8")

    def answers(given, *args):
        result = run("solve", given, "--for", "NS", "--json", "--node-limit", "10000", *args)
        assert result.exit_code in (0, 1), result.stderr     # (1: a search stopped)
        return [{k: v for k, v in json.loads(line).items() if k not in ("seconds", "file")}
                for line in result.stdout.splitlines()]

    alone = {line: answers(line) for line in (a, b)}
    serial = answers(lines)
    assert serial == [alone[line][0] for line in (a, b, b, b, a, b, a, a)]
    assert answers(lines, "--jobs", "2") == serial
    assert any(not answer["complete"] for answer in serial)      # the limit bites


def test_many_positions_go_to_the_workers_in_chunks_and_come_back_in_order(tmp_path,
                                                                           monkeypatch):
    """--jobs sent each position to a worker alone: with 400,000 small positions the parent
    was the bottleneck, and two workers took 1.8 times as long as one process.  A few
    positions (each may be a deep deal) still go one at a time."""
    from cli.solving import spread_chunk
    from solver import executors

    # (some 16 parts a worker, of at most 256 positions each, as the README says)
    assert [spread_chunk(n, 2) for n in (1, 8, 63, 64, 3200, 8191, 8224, 400_000)] == \
        [1, 1, 1, 2, 100, 255, 256, 256]
    assert spread_chunk(1000, 32) == 1 and spread_chunk(1280, None) == 10
    sizes = []
    solve_many = executors.solve_many

    def spy(positions, *args, chunk_size=1, **options):
        sizes.append(chunk_size)
        return solve_many(positions, *args, chunk_size=chunk_size, **options)

    monkeypatch.setattr(executors, "solve_many", spy)
    lines = tmp_path / "many.txt"
    dealt = run("deal", "--players", "2", "--count", "300", "--format", "line", "--seed", "4")
    lines.write_text(dealt.stdout, encoding="utf-8")

    def answers(*args):
        result = run("solve", lines, "--json", *args)
        assert result.exit_code == 0, result.stderr
        return [{k: v for k, v in json.loads(line).items() if k not in ("seconds", "nodes")}
                for line in result.stdout.splitlines()]

    serial = answers()
    assert len(serial) == 300 and answers("--jobs", "2") == serial and sizes == [9]
    # --for S is another side of a table of two (1) than of four (0, N and S): a batch each,
    # and each position is let go once shown (a later batch found the first's gone)
    two = "N:AK.5.-.- QJ.4.-.- trump=H"
    four = run("deal", "--players", "4", "--format", "line", "--seed", "2").stdout.strip()
    lines.write_text("\n".join([two, four, two, four]) + "\n", encoding="utf-8")
    serial = answers("--for", "S")
    assert [answer["for"] for answer in serial] == ["S", "NS", "S", "NS"]
    assert answers("--for", "S", "--jobs", "2") == serial


@pytest.mark.parametrize("args, fragment", [
    (["--node-limit", "0"], "--node-limit"),
    (["--time-limit", "0"], "--time-limit: 0 is not a number of seconds above 0"),
    (["--time-limit", "soon"], "--time-limit"),
    (["--time-limit", "nan"], "--time-limit: 'nan' is not a number"),
    # a number too large for a float was told as 'inf', which nobody typed
    (["--time-limit", "1e400"], "--time-limit: too large a number to be seconds"),
    (["--time-limit=-1e400"], "--time-limit: too large a number to be seconds"),
    (["--node-limit", str(2 ** 63)], "--node-limit"),
    (["--engine", "reference", "--node-limit", "5"], "not --engine reference"),
])
def test_bad_limits(args, fragment):
    assert_one_error_line(run("solve", TWO, *args), fragment)


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
     "hands.S: 1 card, but N has 2"),
    ("unknown seat", 'trump = "H"\n[hands]\nN = "AH"\nQ = "QH"\n', "hands.Q: unknown seat 'Q'"),
    ("a key below [hands]", 'trump = "H"\n[hands]\nN = "AH"\nS = "QH"\ncalls = "stand"\n',
     "hands.calls: calls written below [hands] is in that table, where TOML puts it: write it "
     "above [hands]"),
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
    path = write(tmp_path, "positions.txt", f"{load(TWO).to_line()}\nN:A.-.-.- K.-.-.- trump=X\n")
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
                          f"{TWO}: --for: no seat 'E' at a 2-player table (seats here: N S)")
    # with four players the sides are named too
    assert_one_error_line(run("solve", FOUR, "--for", "NE", "--engine", "reference"),
                          f"{FOUR}: --for: unknown seat 'NE' (seats here: N E S W; sides NS EW)")


def test_margin_needs_two_sides(tmp_path: Path):
    path = write(tmp_path, "three.toml", 'trump = "H"\n[hands]\nN = "AH"\nE = "KH"\nS = "QH"\n')
    assert_one_error_line(run("solve", TWO, path, "--objective", "margin", "--engine",
                              "reference"), f"{path}: objective 'margin' needs two sides")


@pytest.mark.parametrize("args, fragment", [
    (["solve", str(TWO), "--objective", "glory"], "'glory' is not one of"),
    (["solve", str(TWO), "--engine", "abacus"], "'abacus' is not one of"),
    (["solve", str(TWO), "--colour"], "No such option: --colour"),
    (["solve"], "Missing argument 'POSITION'"),
    (["deal"], "Missing option '--players'"),
    (["analyze"], "Missing argument 'POSITION'"),
    (["bench", "--count", "0"], "--count"),
    (["shuffle"], "No such command 'shuffle'"),
])
def test_usage_errors_end_in_one_line(args, fragment):
    line = assert_one_error_line(RUNNER.invoke(app, args), fragment)
    assert line.endswith("--help')")
    assert "Value error" not in line


def test_no_command_shows_the_help():
    result = RUNNER.invoke(app, [])
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr + result.stdout
    for command in ("solve", "analyze", "deal", "bench"):
        assert command in result.stdout + result.stderr


@pytest.mark.parametrize("command", ["solve", "analyze", "deal", "bench"])
def test_every_command_and_option_has_help(command):
    from typer.main import get_command

    result = RUNNER.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    group = get_command(app)
    params = group.commands[command].params
    assert group.commands[command].help
    for param in params:
        assert getattr(param, "help", None) or param.name == "help", (command, param.name)


# ---- the installed program ---------------------------------------------------------------------



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


def test_a_console_without_suit_symbols_gets_plain_ascii():
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([str(PROGRAM), "solve", str(TWO), "--engine", "reference"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii()
    assert "H Q J T 9 2  < trumps" in done.stdout and "Points for N: 19" in done.stdout


@pytest.mark.parametrize("encoding, args, answers", [
    ("ascii", ["play", "--seed", "5", "--players", "4"], "1\n1\nquit\n"),
    ("ascii", ["puzzle", "play", "PUZZLES/012-the-five-falls.toml"], "quit\n"),
    ("latin-1", ["puzzle", "show", "PUZZLES/006-ruff-the-ten.toml", "--solution"], ""),
    ("cp437", ["replay", "EXAMPLES/match.jsonl", "--play-by-play"], ""),
    ("ascii", ["play", "--help"], ""),
])
def test_every_screen_prints_in_an_encoding_without_the_symbols(encoding, args, answers):
    """Where the output's encoding lacks a character (the suits, the dots between the parts of
    a heading), it is written in ASCII, as the cards are spelled there: the table's middle dot
    was a UnicodeEncodeError and a traceback under ASCII, the dealt High and Low under
    Latin-1; no character falls to ``?`` for want of an ASCII form."""
    args = [a.replace("PUZZLES", str(PUZZLES)).replace("EXAMPLES", str(EXAMPLES)) for a in args]
    texts = {}
    for code in (encoding, "utf-8"):
        done = subprocess.run([str(PROGRAM), *args], input=answers.encode(),
                              capture_output=True, timeout=300,
                              env={**os.environ, "PYTHONIOENCODING": code})
        assert done.returncode == 0, done.stderr.decode(code)
        assert "Traceback" not in done.stderr.decode(code)
        texts[code] = done.stdout.decode(code)
    text = texts[encoding]
    assert text.count("?") == texts["utf-8"].count("?")
    assert all(symbol not in text for symbol in "♠♥♦♣")
    if encoding == "ascii":
        assert text.isascii()


@pytest.mark.parametrize("args", [
    ["puzzle", "show", "PUZZLES/012-the-five-falls.toml", "--format", "svg"],
    ["puzzle", "show", "PUZZLES/012-the-five-falls.toml", "PUZZLES/006-ruff-the-ten.toml",
     "--format", "html"],
    ["puzzle", "index", "PUZZLES"],
    ["puzzle", "generate", "--seed", "2"],
    ["replay", "NAMED", "--json"],
])
def test_a_file_format_is_the_same_bytes_in_every_encoding(args, tmp_path):
    """SVG, HTML, Markdown, TOML and JSON on standard output are the same bytes under any
    encoding of the output: in UTF-8 (JSON in ASCII, as every --json), not the locale's
    (Latin-1 bytes under an HTML page's charset="utf-8", an SVG no XML reader took), nor
    spelled in ASCII (suit symbols drawn as letters; a match's name with its accent lost)."""
    named = tmp_path / "named.jsonl"
    named.write_text((EXAMPLES / "match.jsonl").read_text(encoding="utf-8").replace(
        '"match": "example"', '"match": "José ♠ 漢"'), encoding="utf-8")
    args = [a.replace("PUZZLES", str(PUZZLES)).replace("NAMED", str(named)) for a in args]
    outputs = set()
    for code in ("utf-8", "latin-1", "ascii"):
        done = subprocess.run([str(PROGRAM), *args], capture_output=True, timeout=300,
                              env={**os.environ, "PYTHONIOENCODING": code})
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    (output,) = outputs
    text = output.decode("utf-8")
    if "--json" in args:
        assert output.isascii()
        if args[0] == "replay":
            assert json.loads(text)["match"] == "José ♠ 漢"
    elif args[1] != "generate":
        assert not output.isascii()


def test_a_file_format_under_a_progress_bar_goes_through_the_bar(monkeypatch):
    """Under puzzle generate's bar on a terminal, standard output is Rich's stand-in, which
    puts what is written above the bar: a puzzle written to the stream's bytes had gone past
    it, onto the bar's line."""
    from cli.streams import write_utf8

    class Stand:        # (as rich.file_proxy.FileProxy: the terminal's bytes behind it)
        rich_proxied_file = None
        encoding = "ascii"

        def __init__(self):
            self.buffer, self.written = io.BytesIO(), []

        def write(self, text):
            self.written.append(text)

        def flush(self):
            pass

    stand = Stand()
    monkeypatch.setattr("sys.stdout", stand)
    write_utf8("dealer = \"N\"\n")
    assert stand.written == ["dealer = \"N\"\n"] and stand.buffer.getvalue() == b""


def test_a_file_name_beyond_ascii_is_text_in_json_under_an_ascii_locale(tmp_path):
    """Under the C locale without UTF-8 mode a name's bytes beyond ASCII came out in JSON as
    stand-ins ("d\\udcc3\\udca9al"), which no JSON reader takes for text: the name is the
    text its bytes spell in UTF-8 now, under any locale."""
    deal = tmp_path / "déal ♠.toml"
    deal.write_bytes(TWO.read_bytes())
    record = tmp_path / "mé.jsonl"
    record.write_bytes((EXAMPLES / "match.jsonl").read_bytes())
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env.pop("PYTHONIOENCODING", None)
    for args, key, name in [(["solve", str(deal)], "file", str(deal)),
                            (["analyze", f"{record}#1"], "file", f"{record}#1"),
                            (["replay", str(record)], "file", str(record))]:
        done = subprocess.run([str(PROGRAM), *args, "--json"], capture_output=True,
                              timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout.splitlines()[0])[key] == name


def test_a_c_locale_without_utf8_mode_prints_the_table_in_ascii():
    """With the C locale and Python's UTF-8 mode off the streams are ASCII with
    surrogateescape, which cli.streams left alone: the middle dot was a traceback."""
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env.pop("PYTHONIOENCODING", None)
    done = subprocess.run([str(PROGRAM), "puzzle", "show", str(PUZZLES / "006-ruff-the-ten.toml")],
                          capture_output=True, timeout=300, env=env)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert done.stdout.isascii() and b"4 players - all-fives - rating" in done.stdout


def test_a_c_locale_without_utf8_mode_reads_suit_signs_in_arguments():
    """There the arguments' bytes beyond ASCII come as surrogate escapes: a turn-up of '6♥'
    was an 'unknown card' named in escapes, and a title 'Été' a control character."""
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env.pop("PYTHONIOENCODING", None)

    def run_here(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(PROGRAM), *args], capture_output=True, timeout=300, env=env)

    done = run_here("solve", "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6\u2665", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == 19
    done = run_here("advise", "--hand", "9\u2665 4C 3C 8D 2S QS", "--turnup", "7\u2665",
                    "--seat", "S", "--json", "--worlds", "8")
    assert done.returncode == 0, done.stderr
    done = run_here("puzzle", "show", str(PUZZLES / "001-save-the-ten.toml"), "--format", "html",
                    "--title", "\u00c9t\u00e9")
    assert done.returncode == 0 and "<title>\u00c9t\u00e9</title>" in done.stdout.decode()
    # a message quotes what was typed, not its escapes
    done = run_here("solve", "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6\u2665\u2665")
    assert done.returncode == 2 and b"\\udc" not in done.stderr, done.stderr


def test_a_table_in_ascii_keeps_its_shape_a_rule_under_the_titles():
    """In ASCII a table was walled in cell by cell (Rich's substitute for the rule under the
    titles): 'card | value for N | cost to N |', the last column with a wall and no title."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([str(PROGRAM), "solve", str(EXAMPLES / "two-player.toml")],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    at = lines.index("card   value for N   cost to N")
    assert set(lines[at + 1]) == {"-"} and lines[at + 2].split() == ["9H", "19", "-", "best"]
    rows = lines[at:lines.index("", at)]
    assert len(rows) == 8 and not any("|" in row for row in rows)


def test_an_answer_not_text_in_the_inputs_encoding_is_asked_again():
    """A Latin-1 byte typed where the input is read as strict UTF-8 (as PYTHONIOENCODING=utf-8
    sets it) was a UnicodeDecodeError and a traceback: now the answer is refused, its byte
    shown, and asked again."""

    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([str(PROGRAM), "puzzle", "play", str(PUZZLES / "012-the-five-falls.toml")],
                          input=b"\xe9\nquit\n", capture_output=True, timeout=300, env=env)
    assert done.returncode == 0 and "Traceback" not in done.stderr.decode(), done.stderr
    assert "unknown answer '\\xe9'" in done.stdout.decode()


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"},
                                 {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}])
def test_an_answer_in_utf8_is_read_as_utf8_under_an_ascii_input(env):
    """A♠ piped or typed where the input is read as ASCII is the card, as in a deal file (it was
    an unknown answer); a byte that is not UTF-8 is still refused."""
    environment = {**os.environ, **env}
    if "LC_ALL" in env:
        environment.pop("PYTHONIOENCODING", None)
    for answer, said in [("A♠".encode(), "S (you) plays AS"),
                         (b"A\xe9", "unknown answer 'A\\xe9'")]:
        done = subprocess.run([str(PROGRAM), "play", "--seed", "7", "--record", os.devnull],
                              input=answer + b"\nquit\n", capture_output=True, timeout=300,
                              env=environment)
        assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
        assert said in done.stdout.decode("utf-8", "replace")


def test_a_deal_played_out_shows_its_end():
    played = EXAMPLES / "played.toml"
    (record,) = solve_ref(played)
    assert record["to_move"] is None and record["moves"] == {} and record["line"] == []
    text = plain(played)
    assert "play is over after 6 tricks" in text and "The best line" not in text
    assert "play is over after 1 trick\n" in plain("N:-.A.-.- -.2.-.- trump=H dealer=S play=AH,2H")
    assert [line.split() for line in text.splitlines() if line.startswith("total")] == \
        [["total", "10", "19"]]


# ---- the report at the console's width ----------------------------------------------------------

#: Deals of every player count with a match score, under rules that lengthen the heading.
WIDE_DEALS = {
    2: load(TWO).to_line() + " score=45,50",
    3: "N:KJ.A7.-.Q2 -.-.A843.63 -.T6.Q7.AJ dealer=S turnup=3H follow=strict target=121 "
       "score=100,96,118",
    4: "N:-.T6.73.Q2 -.9853.K.8 64.A.2.K3 KJ.7.84.5 rules=all-fours dealer=S turnup=AS "
       "score=5,6",
}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("width", [40, 60, 80])
def test_the_report_is_laid_out_for_the_console_width(players, width):
    """No line of the report is longer than the console (the name of the position aside), no
    title is cut short (at 40 columns the line's were), and the pegboard is drawn for that
    width, not folded again by the console."""
    search = pytest.importorskip("solver.search")
    from cli.pegboard import pegboard
    from solver.deal import Position
    from solver.pegging import match_after

    line = WIDE_DEALS[players]
    result = RUNNER.invoke(app, ["solve", line], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()[1:]
    assert max(len(row.rstrip()) for row in lines) <= width, result.stdout
    assert "…" not in result.stdout
    position = Position.from_line(line)
    after = position.after(*search.solve(position).line)  # the engine's line, as printed
    board = pegboard(position.deal, match_after(after), True, width).plain
    assert board in result.stdout
    assert all(len(row) <= width for row in board.splitlines())


def test_text_in_a_cell_is_never_narrower_than_its_longest_word():
    """``hanging(text, step=0)``, as a table's cell holds it: its words kept whole where the
    column could be narrower, a blank line among its lines too."""
    from rich.table import Table
    from rich.text import Text

    from cli.faces import KEEP, hanging

    screen, out = console(30)
    grid = Table.grid(padding=(0, 1))
    grid.add_column()
    grid.add_column()
    grid.add_row("x" * 18, hanging(Text(f"pips won: NS{KEEP}34,\n\nEW{KEEP}11"), step=0))
    screen.print(grid)
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert any(line.endswith("NS 34,") for line in lines) and lines[-1].endswith("EW 11"), lines


@pytest.mark.parametrize("width", [40, 36, 32, 28])
def test_a_side_and_its_pips_stay_on_one_line(width):
    """The end of the deal's ``pips won: NS 34, EW 11`` is broken between sides, never between
    a side and its pips (at 40 columns ``EW`` and ``11`` parted)."""
    pytest.importorskip("solver.search")
    result = RUNNER.invoke(app, ["solve", WIDE_DEALS[4]], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    start = next(i for i, row in enumerate(lines) if "pips" in row)
    end = next(i for i, row in enumerate(lines) if row.startswith("total"))
    cell = " ".join(row[lines[start].index("pips"):].strip() for row in lines[start:end])
    assert re.fullmatch(r"pips won: NS \d+, EW \d+", cell), cell
    assert all(re.search(r"\b(NS|EW)$", row.rstrip()) is None for row in lines[start:end]), \
        "\n".join(lines[start:end])


@pytest.mark.parametrize("columns", ["0", "1", "19", "-5"])
def test_a_width_too_narrow_to_print_on_is_not_used(columns):
    """COLUMNS below the narrowest console (0 printed nothing at all, and status 0; 1 a letter
    a line, the help too) gives the report and the help as a pipe has them, 80 columns wide;
    20 is used as it is."""
    from clirun import EXAMPLES

    for args in (["solve", str(EXAMPLES / "two-player.toml")], ["deal", "--help"]):
        wide = RUNNER.invoke(app, args, env={"COLUMNS": "80"})
        result = RUNNER.invoke(app, args, env={"COLUMNS": columns})
        # (but for a solve's last line, its nodes and time: the engine's table is kept)
        assert result.exit_code == 0
        assert result.stdout.splitlines()[:-1] == wide.stdout.splitlines()[:-1]
        narrow = RUNNER.invoke(app, args, env={"COLUMNS": "20"}).stdout.splitlines()
        assert narrow[0] == "Usage: allfives deal" if args[0] == "deal" else \
            max(len(row) for row in narrow[1:]) <= 20


def test_a_terminal_narrower_than_that_keeps_its_own_width(monkeypatch):
    """Where COLUMNS is too narrow, the terminal's own width is the width, narrow as it is (80
    for a terminal that gives none); a width COLUMNS may set, or none, is the console's."""
    import fcntl
    import struct
    import termios

    from cli.console import width_instead

    master, slave = os.openpty()
    try:
        tty = os.fdopen(slave, "w", closefd=False)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 15, 0, 0))
        monkeypatch.setenv("COLUMNS", "0")
        assert width_instead(tty) == 15
        assert width_instead(io.StringIO()) == 80
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 0, 0, 0, 0))
        assert width_instead(tty) == 80
        monkeypatch.setenv("COLUMNS", "20")
        assert width_instead(tty) is None
        monkeypatch.delenv("COLUMNS")
        assert width_instead(tty) is None
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("command", [
    "solve EXAMPLES/two-player.toml", "analyze EXAMPLES/played.toml",
    "replay EXAMPLES/match.jsonl --play-by-play", "advise EXAMPLES/hidden/south.toml",
    "puzzle show PUZZLES/012-the-five-falls.toml --solution", "deal --players 4 --seed 3"])
def test_plain_text_into_a_pipe_has_no_spaces_at_the_ends_of_its_lines(tmp_path, command):
    from clirun import EXAMPLES, PUZZLES, shell

    command = command.replace("EXAMPLES", str(EXAMPLES)).replace("PUZZLES", str(PUZZLES))
    done = shell(f"allfives {command} | cat", tmp_path)
    assert done.returncode == 0 and done.stdout.count("\n") > 5
    assert [line for line in done.stdout.splitlines() if line != line.rstrip()] == []


class _Keyboard(io.BytesIO):
    """Standard input at a terminal: what is typed, then Ctrl-D."""

    def isatty(self) -> bool:
        return True

    @property
    def buffer(self):
        return self


@pytest.mark.parametrize("tty", [True, False])
def test_standard_input_at_a_terminal_says_it_is_read(tty, monkeypatch, capsys):
    from cli.inputs import read_text
    typed = _Keyboard(b'trump = "H"\n') if tty else io.TextIOWrapper(io.BytesIO(b'trump = "H"\n'))
    monkeypatch.setattr("sys.stdin", typed)
    assert read_text("-") == 'trump = "H"\n'
    said = capsys.readouterr().err
    assert said == ("allfives: reading standard input: type or paste it, then Ctrl-D on a line "
                    "alone\n" if tty else "")
