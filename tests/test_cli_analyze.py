"""``allfives analyze``: a hand played badly on purpose, judged card by card through the command
line and checked against the reference solver; JSON shape, plain output and errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import solver
from clirun import PROGRAM, assert_one_error_line, console, records, run
from solver import reference
from solver.analysis import analyze_play
from solver.cards import card_str, parse_card
from solver.deal import Position, load
from solver.game import DealLog

EXAMPLES = Path(solver.__file__).parent / "examples"
TWO = EXAMPLES / "two-player.toml"
RECORD_KEYS = {"file", "objective", "plays", "given_away", "nodes", "seconds", "complete"}
PLAY_KEYS = {"index", "trick", "seat", "for", "card", "before", "after", "cost", "least_cost",
             "mistake",
             "best", "every_card", "complete", "before_lower", "before_upper", "after_lower",
             "after_upper"}

# North leads the trump Ten into South's Ace, later ruffs a club with the trump Two, and South
# gives away points too: the places and costs come from the reference (see expected_mistakes).
BAD_PLAY = ["TH", "AH", "4C", "2H", "QH", "5H", "9H", "KH", "7D", "JH", "TS", "QS"]


def badly_played(tmp_path: Path) -> tuple[Path, Position]:
    position = load(TWO).deal.position([parse_card(c) for c in BAD_PLAY])
    path = tmp_path / "bad.toml"
    path.write_text("# The two-player deal played badly\n" + position.to_toml(), encoding="utf-8")
    return path, position


def expected_mistakes(position: Position) -> dict[int, tuple[str, int]]:
    """Straight from the reference: the position before each card solved for the mover's side."""
    out = {}
    for index, card in enumerate(position.play):
        before = position.deal.position(position.play[:index])
        solution = reference.solve(before, side=position.deal.side_of(before.to_move))
        cost = solution.value - solution.moves[card]
        if cost:
            out[index] = (before.deal.seats[before.to_move], cost)
    return out


def test_the_bad_hand_is_what_the_test_means():
    position = load(TWO).deal.position([parse_card(c) for c in BAD_PLAY])
    assert position.is_over
    mistakes = expected_mistakes(position)
    assert mistakes == {0: ("N", 9), 3: ("N", 2), 5: ("S", 2)}


@pytest.mark.parametrize("engine", ["reference", "engine"])
def test_a_badly_played_hand_is_flagged_card_by_card(tmp_path: Path, engine: str):
    if engine == "engine":
        pytest.importorskip("solver.search")
    path, position = badly_played(tmp_path)
    (record,) = records(run("analyze", path, "--json", "--engine", engine))
    assert set(record) == RECORD_KEYS
    assert record["file"] == str(path) and record["objective"] == "points"
    plays = record["plays"]
    assert len(plays) == 12
    for play in plays:
        assert set(play) == PLAY_KEYS
        assert play["cost"] == play["before"] - play["after"] >= 0
        assert play["mistake"] == (play["cost"] > 0)
        assert play["complete"] is True
        assert play["before_lower"] == play["before_upper"] == play["before"]
        assert play["after_lower"] == play["after_upper"] == play["after"]
    assert record["complete"] is True
    assert [p["card"] for p in plays] == BAD_PLAY
    assert [p["trick"] for p in plays] == [i // 2 + 1 for i in range(12)]
    flagged = {p["index"]: (p["seat"], p["cost"]) for p in plays if p["mistake"]}
    expected = expected_mistakes(position)
    assert flagged == expected
    # the best cards are the reference's best cards, the values its values
    for play in plays:
        before = position.deal.position(position.play[:play["index"]])
        check = reference.solve(before, side=position.deal.side_of(before.to_move))
        assert play["before"] == check.value
        assert play["after"] == check.moves[parse_card(play["card"])]
        assert sorted(play["best"]) == sorted(card_str(c) for c in check.best_moves())
    assert record["given_away"] == {
        seat: sum(cost for s, cost in expected.values() if s == seat) for seat in "NS"}


def test_plain_output(tmp_path: Path):
    path, position = badly_played(tmp_path)
    result = run("analyze", path, "--engine", "reference")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "\x1b[" not in text
    assert text.startswith(f"{path}\n")
    assert "to play" not in text    # (the diagram is the deal's start: the table plays it)
    assert "The play, card by card (12 cards)" in text
    rows = [line.split() for line in text.splitlines() if "mistake;" in line]
    expected = expected_mistakes(position)
    assert len(rows) == len(expected)
    first = rows[0]
    assert first[:7] == ["1", "N", "T♥", "19", "10", "9", "mistake;"]
    assert first[7:] == ["best", "9♥"]
    assert "Given away" in text
    north = sum(cost for seat, cost in expected.values() if seat == "N")
    mistakes = sum(1 for seat, _ in expected.values() if seat == "N")
    assert f"Given away\n  N  {north} points ({mistakes} mistake" in text
    totals = solver.scoring.score_position(position).totals()
    assert f"The play ended N {totals[0]}, S {totals[1]}; with best play from the start N " \
           f"could be sure of 19." in text


def test_a_partial_hand_from_a_line_argument_and_stdin():
    line = load(TWO).to_line() + " play=TH,AH,4C"
    (record,) = records(run("analyze", line, "--json", "--engine", "reference"))
    assert record["file"] == "<argument>"
    assert [p["card"] for p in record["plays"]] == ["TH", "AH", "4C"]
    assert record["plays"][0]["cost"] == 9
    (again,) = records(run("analyze", "-", "--json", "--engine", "reference",
                           input=line + "\n"))
    assert again["plays"] == record["plays"] and again["file"] == "<stdin>:1"


def test_the_reports_of_several_positions_are_a_blank_line_apart(tmp_path: Path):
    path, _ = badly_played(tmp_path)
    one, two = run("analyze", path), run("analyze", path, path)
    assert one.exit_code == two.exit_code == 0
    assert one.stdout.startswith(f"{path}\n") and not one.stdout.endswith("\n\n")
    assert two.stdout == one.stdout + "\n" + one.stdout


def test_a_mistakes_note_is_never_squeezed_at_any_width(tmp_path: Path):
    """The note column is never narrower than ``mistake; best``: where it cannot be, the
    notes go under the table."""
    _, position = badly_played(tmp_path)
    plays = analyze_play(position, reference.solve)
    forms = set()
    for width in range(36, 81):
        lines = table_lines(position, plays, width)
        noted = [line for line in lines if "mistak" in line]
        assert len(noted) == 3 and all("mistake; best " in line for line in noted), width
        forms.add(lines[0].endswith("cost"))
    assert forms == {True, False}       # (both the narrow table and the wide one)


def test_the_count_of_a_finished_play_is_told_for_points_only(tmp_path: Path):
    path, _ = badly_played(tmp_path)
    for objective in ("tricks", "margin"):
        result = run("analyze", path, "--engine", "reference", "--objective", objective)
        assert result.exit_code == 0 and "Given away" in result.stdout
        assert "The play ended" not in result.stdout and "could be sure of" not in result.stdout


def test_other_objectives():
    line = load(TWO).to_line() + " play=TH,AH"
    (tricks,) = records(run("analyze", line, "--json", "--engine", "reference",
                            "--objective", "tricks"))
    assert tricks["objective"] == "tricks"
    position = load(TWO)
    check = reference.solve(position, side=0, objective="tricks")
    assert tricks["plays"][0]["before"] == check.value
    assert tricks["plays"][0]["after"] == check.moves[parse_card("TH")]


def test_nothing_played_is_bad_input():
    result = run("analyze", TWO, "--engine", "reference")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"allfives: error: {TWO}: play: no cards played, nothing to " \
                            f"analyze\n"
    # of several, none played: all of them named, not the first alone
    several = run("analyze", TWO, EXAMPLES / "four-player.toml")
    assert several.exit_code == 2 and several.stderr == (
        f"allfives: error: {TWO}, {EXAMPLES / 'four-player.toml'}: none of the 2 positions has "
        f"a card played: nothing to analyze\n")


def test_a_record_with_no_card_played_is_nothing_to_analyze(tmp_path):
    """A match won before any card was played (60-60, a beg given one) leaves no deal to
    judge: one line, as for a deal file without play (it was an IndexError)."""
    from solver.game import BEG, TAKE_ONE, Match
    from solver.records import match_records, records_text

    state = Match(2).new_initial_state(seed=7, score=[60, 60])
    state.apply_action(BEG)
    state.apply_action(TAKE_ONE)
    assert state.is_terminal()
    record = tmp_path / "won.jsonl"
    record.write_text(records_text(match_records(state)))
    for command, other in (("analyze", PLAYED), ("solve", TWO)):   # (solve said nothing)
        result = run(command, record)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr == f"allfives: error: {record}: no card was played in its deal " \
                                f"(the match ended in the calls): nothing to {command}\n"
        # beside a file of play, it is left out, as a deal of no play is (the run goes on)
        both = run(command, record, other, "--json")
        assert both.exit_code == 0 and len(both.stdout.splitlines()) == 1
        assert both.stderr == f"allfives: {record}: no card was played in its deal (the match " \
                              f"ended in the calls): left out\n"
        # so is the deal named by its number
        both = run(command, f"{record}#1", other, "--json")
        assert both.exit_code == 0 and len(both.stdout.splitlines()) == 1
        assert both.stderr == f"allfives: {record}#1: no card was played (the match ended in " \
                              f"the calls): left out\n"
    result = run("solve", f"{record}#1")
    assert result.exit_code == 2 and result.stderr == (
        f"allfives: error: {record}#1: no card was played (the match ended in the calls): "
        f"nothing to solve\n")


def test_a_deal_with_a_revoke_is_judged_up_to_it(tmp_path):
    """A record whose deal holds a revoke (which a position cannot replay) is judged up to the
    revoke, said on stderr, and solved from its first card; the other deals as ever (a revoke
    anywhere stopped the whole file)."""
    from solver.records import match_records, records_text
    from test_game import PACK, REVOKE_PLAY, replay_steps, revoke_deal

    state = revoke_deal((0, 0))
    replay_steps(state, *REVOKE_PLAY[4:])
    state.deal_pack(PACK)           # a second deal, played to its end
    while len(state.deals) < 2:
        state.apply_action(state.legal_actions()[0])
    record = tmp_path / "revoke.jsonl"
    record.write_text(records_text(match_records(state, "r")), encoding="utf-8")
    judged = run("analyze", record, "--json")
    assert judged.exit_code == 0, judged.stderr
    found = records(judged)
    assert found[0]["file"] == f"{record}#1"
    assert [p["card"] for p in found[0]["plays"]] == \
        [step.split(":")[1] for step in REVOKE_PLAY[:3]]
    assert judged.stderr.splitlines()[0] == (f"allfives: {record}#1: judged up to its revoke "
                                             f"(card 4), which a position cannot replay")
    assert found[1]["file"] == f"{record}#2" and len(found[1]["plays"]) == 12
    solved = run("solve", record, "--json")
    assert solved.exit_code == 0 and solved.stderr == ""
    assert [r["file"] for r in records(solved)] == [f"{record}#1", f"{record}#2"]


def test_of_several_positions_those_not_played_are_left_out_and_said_so():
    """The bundled file of one-line positions holds deals with card play and deals without:
    those with it are judged, each of the others named on standard error."""
    positions = EXAMPLES / "positions.txt"
    lines = [n for n, line in enumerate(positions.read_text().splitlines(), 1)
             if line.strip() and not line.startswith("#")]
    played = [n for n in lines if "play=" in positions.read_text().splitlines()[n - 1]]
    assert played and len(played) < len(lines)
    result = run("analyze", positions, "--json")
    assert result.exit_code == 0, result.stderr
    assert [row["file"] for row in records(result)] == [f"{positions}:{n}" for n in played]
    assert result.stderr.splitlines() == [f"allfives: {positions}:{n}: no cards played, left out"
                                          for n in lines if n not in played]
    both = run("analyze", TWO, EXAMPLES / "played.toml", "--json")
    assert [row["file"] for row in records(both)] == [str(EXAMPLES / "played.toml")]
    assert both.stderr == f"allfives: {TWO}: no cards played, left out\n"


# ---- --node-limit and --time-limit ---------------------------------------------------------------

PLAYED = EXAMPLES / "played.toml"


def reference_values(position: Position) -> list[tuple[int, int]]:
    """Before and after of every card of the play, by the reference."""
    out = []
    for index, card in enumerate(position.play):
        before = position.deal.position(position.play[:index])
        check = reference.solve(before, side=position.deal.side_of(before.to_move))
        out.append((check.value, check.moves[card]))
    return out


def test_a_card_judged_before_every_card_was_valued_says_so():
    """At 200 nodes N's 2♥ is judged (the value before it proved, its own found) though not
    every card was valued: its best are some of the best, and the table says so."""
    pytest.importorskip("solver.search")
    found = json.loads(run("analyze", PLAYED, "--json", "--node-limit", 200).stdout)
    full = json.loads(run("analyze", PLAYED, "--json").stdout)
    partly = [(p, q) for p, q in zip(found["plays"], full["plays"])
              if not p["every_card"] and p["complete"]]
    assert partly
    # a card left unjudged had every_card true: not every card was valued there either
    assert not any(p["every_card"] for p in found["plays"] if not p["complete"])
    for play, truth in partly:
        assert (play["before"], play["after"], play["cost"]) == \
            (truth["before"], truth["after"], truth["cost"])
        assert set(play["best"]) <= set(truth["best"])
    assert all(p["every_card"] for p in full["plays"])
    text = " ".join(run("analyze", PLAYED, "--node-limit", 200, "--no-color").stdout.split())
    assert "mistake; best Q♥ J♥; others not valued" in text


@pytest.mark.parametrize("limit", ["1", "30", "120"])
def test_a_node_limit_leaves_cards_unjudged_with_bounds(limit: str):
    """A card a limit cut short is not judged, but where its own value is below the least its
    side could be sure of before it (with 120 nodes, N's 2♥: 10..11, then 8): a mistake whose
    cost is known only in part, counted at its least."""
    pytest.importorskip("solver.search")
    result = run("analyze", PLAYED, "--json", "--node-limit", limit)
    assert result.exit_code == 1
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert set(record) == RECORD_KEYS and record["complete"] is False
    plays = record["plays"]
    left = [p for p in plays if p["mistake"] is None]
    part = [p for p in plays if not p["complete"] and p["mistake"]]
    assert 0 < len(left) + len(part) < len(plays) and (limit == "120") == bool(part)
    undone = [f"{len(left)} of 12 cards not judged"] if left else []
    undone += ["1 mistake's cost known only in part"] if part else []
    assert result.stderr == f"allfives: {PLAYED}: {'; '.join(undone)}: the search stopped at " \
                            f"its limit\n"
    truth = reference_values(load(PLAYED))
    for play, (before, after) in zip(plays, truth):
        assert set(play) == PLAY_KEYS
        assert play["before_lower"] <= before <= play["before_upper"]
        if play["complete"]:
            assert (play["before"], play["after"]) == (before, after)
            assert play["cost"] == play["least_cost"] == before - after
            assert play["mistake"] == (before > after)
        else:
            assert play["before"] is play["after"] is play["cost"] is None
            assert play["best"] == []
            if play["mistake"]:
                assert play["least_cost"] == play["before_lower"] - play["after_lower"]
                assert 0 < play["least_cost"] <= before - after
            else:
                assert play["mistake"] is play["least_cost"] is None
                assert play["after_lower"] is None or play["after_lower"] >= \
                    play["before_lower"]
        if play["after_lower"] is not None:
            assert play["after_lower"] == play["after_upper"] == after
        else:
            assert play["after_upper"] is None
    # what was given away counts the cards judged, a mistake known in part at its least
    for side in "NS":
        assert record["given_away"][side] == sum(
            p["least_cost"] or 0 for p in plays if p["for"] == side)


def test_a_record_whose_only_card_cut_short_is_a_mistake_known_in_part_is_not_complete():
    """The record's complete followed the cards not judged alone, so that where the one card
    a limit cut short was a mistake known in part it said true, while the card's own said
    false and the command exited 1."""
    from functools import partial

    from cli.records import analysis_record

    search = pytest.importorskip("solver.search")
    position = load(PLAYED)
    plays = analyze_play(position, partial(search.solve, node_limit=120))
    kept = [p for p in plays if p.mistake is not None]
    assert any(p.in_part for p in kept) and not all(p.complete for p in kept)
    assert json.loads(analysis_record("x", position, "points", kept))["complete"] is False
    whole = analyze_play(position, search.solve)
    assert json.loads(analysis_record("x", position, "points", whole))["complete"] is True


def test_plain_output_of_a_mistake_known_only_in_part():
    pytest.importorskip("solver.search")
    result = run("analyze", PLAYED, "--node-limit", "120")
    flat = " ".join(result.stdout.split())
    assert result.exit_code == 1
    assert "N 2♥ 10..11 8 ≥2 mistake; best not found" in flat
    assert "N at least 2 points (1 mistake; 1 card not judged)" in flat
    assert "1 mistake's cost known only in part, the search stopped at its limit: the least " \
           "it cost is counted" in flat
    assert "?: not known (the search stopped at its limit before the card was judged); ≥n: at " \
           "least n" in flat


def test_plain_output_of_cards_not_judged():
    pytest.importorskip("solver.search")
    result = run("analyze", PLAYED, "--node-limit", "1")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"allfives: {PLAYED}: ") and result.stderr.count("\n") == 1
    text = result.stdout
    lines = text.splitlines()
    table = lines.index("The play, card by card (12 cards)") + 3
    rows = [line.split() for line in lines[table:table + 12]]
    truth = reference_values(load(PLAYED))
    unjudged = 0
    for row, (before, after) in zip(rows, truth):
        if row[-2:] != ["not", "judged"]:
            continue
        unjudged += 1
        shown_before, shown_after, cost = row[-5:-2]
        low, _, high = shown_before.partition("..")
        assert int(low) <= before <= int(high or low)
        assert shown_after in ("?", str(after)) and cost == "?"
    assert unjudged
    assert rows[0][:6] == ["1", "N", "T♥", "1..21", "?", "?"]
    assert "mistake" not in " ".join(rows[0])
    flat = " ".join(text.split())
    assert f"{unjudged} of 12 cards not judged: the search stopped at its limit" in flat
    assert "cards not judged)" in flat
    assert "N could be sure of between 1 and 21." in flat
    # the key says what a..b and ? mean (no cost here is known only in part: no ≥n)
    assert "a..b: somewhere between a and b; ?: not known" in flat
    assert "cost known only in part" not in flat and "n: at least n" not in flat


@pytest.mark.parametrize("limit", [["--node-limit", "100000000"], ["--time-limit", "600"]])
def test_a_generous_limit_changes_nothing(limit: list[str]):
    pytest.importorskip("solver.search")
    plain, limited = run("analyze", PLAYED), run("analyze", PLAYED, *limit)
    assert limited.exit_code == 0 and limited.stderr == ""
    assert limited.stdout == plain.stdout
    (whole,) = records(run("analyze", PLAYED, "--json"))
    (again,) = records(run("analyze", PLAYED, "--json", *limit))
    del whole["seconds"], again["seconds"]
    assert again == whole and again["complete"] is True


def test_a_limited_deal_is_judged_as_it_is_alone(tmp_path: Path):
    """Under a node limit each deal of a record is judged as it is alone, whatever was solved
    before it (the engine's table had carried what an earlier deal found into the next)."""
    pytest.importorskip("solver.search")
    record = tmp_path / "games.jsonl"
    made = run("match", "heuristic", "random", "--duplicate", "--deals", "3", "--players", "4",
               "--seed", "3", "--record", record)
    assert made.exit_code == 0, made.stderr

    def judged(*args):
        result = run("analyze", record, "--json", "--node-limit", "20000", *args)
        assert result.exit_code in (0, 1), result.stderr     # (1: a card left unjudged)
        return [{k: v for k, v in json.loads(line).items() if k not in ("seconds", "file")}
                for line in result.stdout.splitlines()]

    whole = judged()
    assert len(whole) == 6 and not all(r["complete"] for r in whole)   # the limit bites
    for deal in (3, 2, 1, 6, 5, 4):
        assert judged("--deal", str(deal)) == [whole[deal - 1]], deal
    assert judged() == whole


@pytest.mark.parametrize("options", [
    ["--node-limit", "0"], ["--node-limit", "-5"], ["--node-limit", "many"],
    ["--time-limit", "0"], ["--time-limit", "-1.5"], ["--time-limit", "soon"],
    ["--engine", "reference", "--node-limit", "1000"],
    ["--engine", "reference", "--time-limit", "10"],
])
def test_bad_limits_are_refused_as_solve_refuses_them(options: list[str]):
    result = run("analyze", PLAYED, *options)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("allfives: error: ") and result.stderr.count("\n") == 1
    solved = run("solve", PLAYED, *options)
    assert solved.exit_code == 2
    assert result.stderr == solved.stderr.replace("allfives solve", "allfives analyze")


def test_errors_end_in_one_line(tmp_path: Path):
    three = tmp_path / "three.toml"
    three.write_text('trump = "H"\nplay = ["AH"]\n[hands]\nN = "AH"\nE = "KH"\nS = "QH"\n',
                     encoding="utf-8")
    result = run("analyze", three, "--objective", "margin")
    assert result.exit_code == 2
    assert result.stderr == f"allfives: error: {three}: objective 'margin' needs two sides " \
                            f"(2 or 4 players)\n"
    result = run("analyze", tmp_path / "missing.toml")
    assert result.exit_code == 2 and result.stderr.startswith("allfives: error: ")
    assert "No such file or directory" in result.stderr




def test_the_installed_program(tmp_path: Path):
    path, position = badly_played(tmp_path)
    done = subprocess.run([str(PROGRAM), "analyze", str(path), "--json", "--engine",
                           "reference"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert {p["index"]: (p["seat"], p["cost"]) for p in record["plays"] if p["mistake"]} == \
        expected_mistakes(position)


def test_the_bundled_example_is_the_bad_hand():
    played = EXAMPLES / "played.toml"
    assert [card_str(c) for c in load(played).play] == BAD_PLAY
    (record,) = records(run("analyze", played, "--json"))
    assert record["given_away"] == {"N": 11, "S": 2}


def played_at_random(line: str, seed: int) -> str:
    """The deal of ``line`` played out with random legal cards: a hand full of mistakes."""
    import random

    rng = random.Random(seed)
    position = Position.from_line(line)
    while not position.is_over:
        position = position.after(rng.choice(position.legal_moves()))
    return position.to_line()


#: Played hands of every player count, under rules that lengthen the heading.
PLAYED_BY = {
    2: lambda: load(TWO).deal.position([parse_card(c) for c in BAD_PLAY]).to_line(),
    3: lambda: played_at_random("N:KJ.A7.-.Q2 -.-.A843.63 -.T6.Q7.AJ dealer=S turnup=3H "
                                "follow=strict target=121 score=100,96,98", 3),
    4: lambda: played_at_random("N:-.T6.73.Q2 -.9853.K.8 64.A.2.K3 KJ.7.84.5 "
                                "rules=all-fours dealer=S turnup=AS low_to=captor", 2),
}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("width", [60, 80])
def test_the_report_is_laid_out_for_the_console_width(players: int, width: int):
    """No line longer than the console (the name aside); a note the table folds keeps its
    cards whole, under the note, and every mistake's best cards are there."""
    from clirun import RUNNER
    from cli.main import app

    line = PLAYED_BY[players]()
    (record,) = records(run("analyze", line, "--json"))
    result = RUNNER.invoke(app, ["analyze", line], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(row.rstrip()) for row in lines[1:]) <= width, result.stdout
    head = next(i for i, row in enumerate(lines) if row.startswith("trick "))
    note_at = lines[head].rstrip().index("cost") + len("cost") + 3
    rows: list[str] = []  # the rows of the table, each with its note unfolded
    for row in lines[head + 2:]:
        if not row.strip() or row.startswith("before, after"):
            break  # the key under the table
        if row[:note_at].strip():
            rows.append(row.rstrip())
        elif rows:
            assert row[note_at:note_at + 1].strip(), row  # folded under the note
            rows[-1] += " " + row.strip()
    mistakes = [play for play in record["plays"] if play["mistake"]]
    assert mistakes
    assert len(rows) == len(record["plays"])
    for play, row in zip(record["plays"], rows):
        words = row.split()
        assert card_str(parse_card(play["card"]), pretty=True) in words[:3]
        if play["mistake"]:
            note = row[note_at:].split()
            assert note[:2] == ["mistake;", "best"]
            assert note[2:] == [card_str(parse_card(c), pretty=True) for c in play["best"]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_on_a_narrow_screen_the_notes_go_under_the_table(players: int):
    """Below some 50 columns the table has no note column: a line under it for each mistake
    names its trick and card and the best cards, and no line is longer than the screen."""
    from clirun import RUNNER
    from cli.main import app

    line = PLAYED_BY[players]()
    (record,) = records(run("analyze", line, "--json"))
    result = RUNNER.invoke(app, ["analyze", line], env={"COLUMNS": "44"})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(row.rstrip()) for row in lines[1:]) <= 44, result.stdout
    head = next(i for i, row in enumerate(lines) if row.startswith("trick "))
    # (the columns closer: two spaces between them where the wide table has three)
    assert lines[head].rstrip() == "trick  seat  card  before  after  cost"
    rows = lines[head + 2:head + 2 + len(record["plays"])]
    assert [row.split()[-3:] for row in rows] == [
        [str(play["before"]), str(play["after"]), str(play["cost"]) if play["cost"] else "·"]
        for play in record["plays"]]
    notes = [row for row in lines if row.startswith("  trick ")]
    mistakes = [play for play in record["plays"] if play["mistake"]]
    assert mistakes and len(notes) == len(mistakes)
    for play, note in zip(mistakes, notes):
        best = " ".join(card_str(parse_card(c), pretty=True) for c in play["best"])
        card = card_str(parse_card(play["card"]), pretty=True)
        assert note == f"  trick {play['trick']}, {card}: mistake; best {best}", note


def test_judged_for_the_match_the_unit_is_a_win():
    """With --objective win a card given away is a match that was sure, and the key says what
    0 and 1 mean."""
    hand = ("N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H score=45,43 "
            "play=TH,AH,4C,2H,QH,5H,9H,KH,7D,JH,TS,QS")
    text = " ".join(run("analyze", hand, "--objective", "win").stdout.split())
    record = json.loads(run("analyze", hand, "--objective", "win", "--json").stdout)
    mistakes = [p for p in record["plays"] if p["seat"] == "N" and p["mistake"]]
    assert mistakes
    assert "before, after: 1 if its side can be sure of winning the match, else 0, before and " \
           "after the card" in text
    assert f"N {len(mistakes)} win{'s' if len(mistakes) != 1 else ''} (" in text
    assert "points" not in text.split("Given away")[1]


def test_play_past_a_peg_out_is_refused_and_play_up_to_it_is_judged():
    """Under peg-out a side whose captures reach the target ends the match: a position there
    has nothing to solve, and a card after it was never played (solve gave a value and analyze
    judged on, where advise refused the same position)."""
    line = "N:2.A.-.- 3.K.-.- dealer=S turnup=9H score=55,0 play=AH,KH"
    over = "<argument>: play[1]: N reaches the target 61 with trick 1: the match is over"
    solved = run("solve", line)
    assert solved.exit_code == 2 and solved.stderr == f"allfives: error: {over}\n"
    judged = run("analyze", line, "--json")
    assert judged.exit_code == 0 and len(records(judged)[0]["plays"]) == 2
    after = run("analyze", line + ",2S")
    assert after.exit_code == 2 and after.stderr == (
        "allfives: error: <argument>: play[2]: 2S is played after N reaches the target 61 with "
        "trick 1: the match is over\n")
    # hand-end counts at the end of the deal: nothing ends in the play
    assert run("solve", line + " finish=hand-end").exit_code == 0
    advised = run("advise", line.replace("3.K.-.-", "-"))
    assert advised.exit_code == 2 and over.split(": ", 1)[1] in advised.stderr


def test_a_deal_of_a_record_with_no_card_played_is_said_to_be_left_out(tmp_path):
    """A deal thrown in (no card played) between deals played is left out of a record's
    analysis, and solve's, and said so on stderr, as a deal file's unplayed deal is."""
    from solver.batch import play_match
    from solver.game import Match
    from solver.players import HeuristicPlayer
    from solver.records import records_text

    result = play_match([HeuristicPlayer()] * 2, Match(2), 47)   # its second deal thrown in
    record = tmp_path / "run.jsonl"
    record.write_text(records_text(result.records[:3]))     # (the match goes on)
    for command in ("analyze", "solve"):
        done = run(command, record, "--json")
        assert done.exit_code == 0, done.stderr
        assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == \
            [f"{record}#1", f"{record}#3"]
        assert done.stderr == f"allfives: {record}#2: no cards played (the deal was thrown " \
                              f"in), left out\n"


def test_a_record_named_toml_is_read_as_toml(tmp_path):
    """A file named .toml is always read as TOML (README): a record copied to one is not read
    as a record by solve or analyze, though replay, which reads records only, takes it."""
    from solver.game import Match
    from solver.records import match_records, records_text

    state = Match(2).new_initial_state(seed=3)
    while not state.is_terminal() and state.deal_number < 2:
        state.apply_action(state.legal_actions()[0])
    named = tmp_path / "run.toml"
    named.write_text(records_text(match_records(state)))
    for command in ("solve", "analyze"):
        line = assert_one_error_line(run(command, named))
        assert line.startswith(f"allfives: error: {named}: not TOML: ") and \
            "it starts like JSON" in line
    assert run("replay", named).exit_code == 0


def pegged_out_in_one_deal(tmp_path, score, ended) -> tuple[DealLog, str]:
    """The first heuristic match from ``score`` (seed 0 on) that a side won in its first deal,
    at the peg that ``ended`` (the deal's log) takes; that deal's log, and ``analyze``'s report
    of it read from the match's record, on one line."""
    from solver.game import Match
    from solver.players import HeuristicPlayer
    from solver.records import match_records, records_text

    for seed in range(60):
        state = Match(2).new_initial_state(seed=seed, score=score)
        bots = [HeuristicPlayer(), HeuristicPlayer()]
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(bots[seat].act(state.observation(seat)))
        log = state.deals[-1]
        if len(state.deals) == 1 and log.cards_played and ended(log):
            break
    else:
        raise AssertionError("no match ended so")
    record = tmp_path / "out.jsonl"
    record.write_text(records_text(match_records(state)), encoding="utf-8")
    return log, " ".join(run("analyze", f"{record}#1").stdout.split())


def test_a_deal_a_side_pegged_out_in_says_where_the_count_stopped(tmp_path):
    """A record's deal that ended the match by peg-out said "The deal ended" with the points
    of the whole deal, High, Low and Game that were never pegged among them.  The game engine's
    own pegs are the oracle: the deal's points (no take-one) up to the peg that took the side
    out; and the note points to --objective win, which judges the cards by the match."""
    from solver.tricks import side_name

    log, shown = pegged_out_in_one_deal(
        tmp_path, [55, 50], lambda log: log.pegs[-1].what in ("high", "low", "jack"))
    pegged = [0, 0]
    for peg in log.pegs:
        if peg.what.startswith("trick") or peg.what in ("high", "low", "jack", "game"):
            pegged[peg.side] += peg.points
    winner = side_name(log.winners[0], 2)
    when = f"with {log.pegs[-1].what.capitalize()}"
    assert f"{winner} pegged out {when}, the count stopping at N {pegged[0]}, S {pegged[1]};" \
        in shown, shown
    assert "counted to the end, the play gave" in shown
    assert "A side could reach the target in this deal: --objective win judges the cards by " \
           "the match." in shown
    far = " ".join(run("analyze", PLAYED).stdout.split())
    assert "pegged out" not in far and "could reach the target" not in far


def test_a_deal_a_side_pegged_out_in_mid_play_says_so_and_where_the_count_stopped(tmp_path):
    """A peg-out at trick 2 ended the report with no last line, and its heading said the
    next seat was to play to trick 3.  The engine's pegs are the oracle again."""
    from solver.tricks import side_name

    def before_the_last_trick(log) -> bool:
        tricks = 6 + 3 * (len(log.turnups) - 1)        # (each run deals three more)
        return log.pegs[-1].what.startswith("trick") and \
            int(log.pegs[-1].what.split()[1]) < tricks

    log, shown = pegged_out_in_one_deal(tmp_path, [58, 50], before_the_last_trick)
    pegged = [0, 0]
    for peg in log.pegs:
        if peg.what.startswith("trick"):
            pegged[peg.side] += peg.points
    winner, trick = side_name(log.winners[0], 2), log.pegs[-1].what
    assert f"; {winner} pegged out at {trick}: the deal stopped there" in shown
    assert f"{winner} pegged out at {trick}, the count stopping at N {pegged[0]}, " \
           f"S {pegged[1]}; with best play from the start " in shown, shown
    assert "counted to the end" not in shown


def test_options_that_clash_are_said_before_a_deal_left_out():
    """A limit with the reference solver was refused after the note that a deal without play
    was left out: two lines for one mistake."""
    deal = "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H"
    result = run("analyze", "--engine", "reference", "--node-limit", "5", deal,
                 f"{deal} play=TH")
    assert_one_error_line(result, "--node-limit and --time-limit limit the engine, not "
                                  "--engine reference")


# ---- the report's parts, given the plays --------------------------------------------------------


def test_bounds_are_written_as_a_span_one_number_or_unknown():
    from cli.analyzing import span

    assert [span(12, 19), span(-3, 5), span(4, 4), span(0, 0)] == ["12..19", "-3..5", "4", "0"]
    assert span(None, None) == span(None, 3) == span(3, None) == "?"


def test_a_mistakes_best_cards_are_named_in_order_whatever_order_they_came_in():
    from cli.analyzing import judgement
    from solver.analysis import CardPlayed

    trump = load(TWO).deal.trump
    cards = [parse_card(c) for c in ("9H", "AH", "4C")]
    notes = set()
    for best in (tuple(cards), tuple(reversed(cards))):
        play = CardPlayed(index=0, trick=1, seat=0, side=0, card=parse_card("TH"), before=19,
                          after=10, best=best, lower=19, upper=19)
        before, after, cost, note = judgement(play, False, trump)
        assert (before, after, cost.plain) == ("19", "10", "9")
        notes.add(note.plain)
    assert notes == {"mistake; best AH 9H 4C"}


def table_lines(position: Position, plays: list, width: int) -> list[str]:
    """The table of the play's cards judged (``plays``), as a plain console ``width`` wide
    prints it."""
    from cli.analyzing import plays_table

    shown, out = console(width)
    shown.print(plays_table(position, plays, False))
    return out.getvalue().splitlines()


@pytest.mark.parametrize("width", [100, 44])
def test_the_tables_numbers_are_right_aligned_under_their_titles(tmp_path: Path, width: int):
    """trick, seat and card start under their titles; before, after and cost end under theirs
    (every cell narrower than its title, so that the alignment shows), in the wide table and
    in the narrow one."""
    _, position = badly_played(tmp_path)
    lines = table_lines(position, analyze_play(position, reference.solve), width)
    head, rows = lines[0], lines[2:14]
    assert head.split() == ["trick", "seat", "card", "before", "after", "cost"]
    assert [row[:5].strip() for row in rows] == ["1", "", "2", "", "3", "", "4", "", "5", "",
                                                 "6", ""]     # (a trick's number once)
    for title in ("trick", "seat", "card"):
        start = head.index(title)
        filled = [row for row in rows if row[start:start + len(title)].strip()]
        assert len(filled) >= 6 and all(row[start] != " " for row in filled)
    for title in ("before", "after", "cost"):
        end = head.index(title) + len(title) - 1
        assert all(row[end] != " " and row[end + 1:end + 2] in ("", " ") for row in rows)
