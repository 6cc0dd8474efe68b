"""``allfives puzzle``: play (whole solves scripted through the input stream, wrong cards and
their refutations checked against the reference solver, hints, the solution, the end of
input), show (text, SVG, HTML), check (every problem one line), generate (seeded, reproducible)
and the errors a user can make."""

from __future__ import annotations

import dataclasses
import errno
import io
import random
import re
import time
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console

from clirun import EXAMPLES, PUZZLES, assert_one_error_line, console, run

pytest.importorskip("solver.search")  # puzzles are solved by the engine

from cli.faces import rules_words  # noqa: E402
from cli.puzzleplay import PuzzleSession  # noqa: E402
from cli.puzzlefiles import slug  # noqa: E402
from solver import reference  # noqa: E402
from solver.cards import SUIT_NAMES, card_str, suit_of  # noqa: E402
from solver.errors import AllFivesError  # noqa: E402
from solver.puzzles import (Oracle, Puzzle, check_puzzle, load_puzzle, main_line,  # noqa: E402
                            themes_of)
from solver.puzzles.evidence import rating_of  # noqa: E402
from solver.rules import Rules  # noqa: E402
from solver.search import Solver  # noqa: E402
from solver.shuffle import random_position  # noqa: E402

COLLECTION = Path(__file__).resolve().parents[1] / "puzzles"


def mined(players: int, seed: int, preset: str = "all-fives", cards: int = 4) -> Puzzle:
    """A sound puzzle found from ``seed``: a random small deal, its value as the target, the
    main line trimmed; the first that passes ``check_puzzle``."""
    rng = random.Random(f"{players}/{seed}/{preset}")
    solver = Solver()
    while True:
        position = random_position(rng, players, cards, Rules.preset(preset), played=0)
        side = position.deal.side_of(position.to_move)
        value = solver.solve(position, side, "points", line=False).value
        oracle = Oracle(side, "points", value, solver)
        line, turns = main_line(position, oracle)
        if sum(t.real for t in turns) < 2:
            continue
        puzzle = Puzzle(position, side, "points", value, line, title="Mined")
        if not check_puzzle(puzzle, solver):
            return dataclasses.replace(puzzle, themes=themes_of(puzzle, solver))


@pytest.fixture(scope="module")
def puzzles() -> dict[int, Puzzle]:
    return {n: mined(n, 1) for n in (2, 3, 4)}


class Script:
    """Answers from a function of the session's position, noting every prompt answered."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.session: PuzzleSession | None = None
        self.asked = 0

    def readline(self, size: int = -1) -> str:     # (its lines are short: whole)
        self.asked += 1
        line = self.answer(self.session, self.asked)
        return "" if line is None else line + "\n"

    def isatty(self) -> bool:
        return False


def solve_session(puzzle: Puzzle, answer, name: str = "007-mined.toml", width: int = 80):
    out_console, out = console(width)
    script = Script(answer)
    session = PuzzleSession(puzzle, out_console, script, Solver(), name=name)
    script.session = session
    result = session.run()
    return result, out.getvalue(), script


def line_card(session: PuzzleSession) -> str:
    """The line's card at the session's position (the person has followed the line)."""
    played = len(session.position.play) - len(session.puzzle.position.play)
    return card_str(session.puzzle.line[played])


# ---- play ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("width", [40, 50, 60])
def test_a_narrow_screen_folds_the_choices_between_them_and_indents_folded_lines(width):
    """At 50 columns the choices broke inside one ('7' at a line's end, 'K♣' at the next's
    start), and a folded title, goal or result went on flush left, as if a new line."""
    puzzle = load_puzzle(COLLECTION / "004-throw-them-in.toml")
    _, text, _ = solve_session(puzzle, lambda s, k: None, "004-throw-them-in.toml", width)
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines)
    start = next(k for k, line in enumerate(lines) if line.startswith("E to play: "))
    choices = lines[start:next(k for k in range(start + 1, len(lines))
                               if not lines[k].startswith("  "))]
    assert len(choices) > 1 or width > 50
    # each choice whole: a number and its card together
    assert re.findall(r"\d \S+", " ".join(choices)) == \
        ["1 J♥", "2 8♥", "3 5♥", "4 4♥", "5 8♦", "6 3♦", "7 K♣"]
    for line in choices:
        assert re.fullmatch(r"(E to play: | {2})(\d \S+)( {2}\d \S+)*", line), line
    # before the table, a line goes on indented: the title keeps its rating whole
    head = lines[:lines.index(next(line for line in lines if line.startswith("You play")))]
    words = [line for line in head if not line.startswith("  ")]
    assert [line.split()[0] for line in words] == ["004.", "East", "Scoring:", "Won", "Dealt:"]
    assert "rating 2073" in " ".join(" ".join(head).split())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_solve_typed_from_the_line(puzzles, players):
    puzzle = puzzles[players]
    result, text, script = solve_session(puzzle, lambda s, k: line_card(s).lower())
    assert result.solved and result.wrong == 0 and result.hints == 0
    real = sum(1 for i in puzzle.solver_turns()
               if len(Oracle(puzzle.side, "points", puzzle.target).classes(
                   puzzle.positions[i])) > 1)
    assert script.asked == real  # forced cards are never asked for
    assert text.count("(forced)") == len(puzzle.solver_turns()) - real
    assert text.splitlines()[-2].startswith("Solved: the goal is safe")
    assert text.splitlines()[-1] == "Tries: no wrong cards, no hints."
    # every card of the line is shown played, in order, with its seat
    deal = puzzle.position.deal
    shown = re.findall(r"^([NESW]) plays (\S+)", text, re.M)
    assert [s for s, _ in shown] == [deal.seats[p.to_move] for p in puzzle.positions[:-1]]


@pytest.mark.parametrize("width", [80, 60, 40])
@pytest.mark.parametrize("name", ["001-save-the-ten.toml", "006-ruff-the-ten.toml"])
def test_a_refutation_too_long_for_the_screen_wraps_under_itself(name, width):
    """Every wrong card at the first turn refuted, at 80, 60 and 40 columns: no line is wider
    than the screen, every line of a refutation keeps its indent, and the best play after a
    wrong card, to the end of play, goes on indented under itself."""
    puzzle = load_puzzle(COLLECTION / name)
    start = puzzle.position
    moves = Solver().solve(start, puzzle.side, puzzle.objective).moves
    wrong = [card_str(c) for c in start.legal_moves() if moves[c] < puzzle.target]

    def answer(session, asked):
        return wrong[asked - 1] if asked <= len(wrong) else None

    _, text, _ = solve_session(puzzle, answer, name=name, width=width)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    fails = [k for k, line in enumerate(lines) if " fails: " in line]
    starts = [k for k, line in enumerate(lines) if "The best play after it:" in line]
    assert len(starts) == len(fails) == len(wrong) > 1
    for k in fails:
        end = lines.index("  Try again.", k)
        assert all(line.startswith("  ") for line in lines[k:end]), lines[k:end + 1]
    for k in starts:
        end = lines.index("  Try again.", k)
        assert all(line.startswith("    ") for line in lines[k + 1:end]), lines[k:end + 1]
    # the whole of the best play, to the end of play (it stopped after a trick or so, before
    # the card that told why: 001's K♥, the T♠ led into the A♠)
    left = sum(len(hand) for hand in start.hands)
    for k in starts:
        said = " ".join(lines[k:lines.index("  Try again.", k)])
        assert len(re.findall(r"\b[NESW] \S+", said.split(": ", 1)[1])) == left
        assert "…" not in said


@pytest.mark.parametrize("players", [2, 3])
def test_a_wrong_card_is_refuted_with_the_reference_solvers_value(puzzles, players):
    puzzle = puzzles[players]
    start = puzzle.position
    moves = Solver().solve(start, puzzle.side, "points").moves
    wrong = next(c for c in start.legal_moves() if moves[c] < puzzle.target)
    truth = reference.solve(start.after(wrong), puzzle.side, "points").value
    assert truth < puzzle.target

    def answer(session, asked):
        return card_str(wrong) if asked == 1 else line_card(session)

    result, text, _ = solve_session(puzzle, answer)
    assert result.solved and result.wrong == 1
    assert f"{card_str(wrong, True)} fails: {truth} point{'s' if truth != 1 else ''} at most, " \
           f"short of {puzzle.target}." in text
    assert "Try again." in text
    assert text.splitlines()[-1] == "Tries: 1 wrong card, no hints."


def which_card(puzzle: Puzzle) -> str:
    """The hint to the first card, from the engine's value of every legal card: the suit of
    the winning cards, or, with one suit to play, high, low or the cards that miss."""
    start = puzzle.position
    moves = Solver().solve(start, puzzle.side, puzzle.objective).moves
    winning = [c for c in moves if moves[c] >= puzzle.target]
    missing = [c for c in moves if moves[c] < puzzle.target]
    suits = {suit_of(c) for c in moves}
    if len(suits) > 1:
        return f"Play a {SUIT_NAMES[suit_of(winning[0])][:-1]}."
    if all(w > m for w in winning for m in missing):  # one suit: its cards' order is the rank's
        return "Play high."
    if all(w < m for w in winning for m in missing):
        return "Play low."
    return "Not the " + ", the ".join(card_str(c, True) for c in missing).replace(
        ", the " + card_str(missing[-1], True), " or the " + card_str(missing[-1], True)) + "."


def test_hint_names_the_idea_then_the_card_and_solution_ends_it(puzzles):
    puzzle = dataclasses.replace(puzzles[2], themes=("draw-trumps",))
    answers = iter(["hint", "hint", "solution"])
    result, text, _ = solve_session(puzzle, lambda s, k: next(answers))
    assert "The idea: draw the defence's trumps before you cash your winners." in text
    assert which_card(puzzle) in text
    line = " ".join(re.findall(r"[NESW] (\S+)", text.split("The solution from here: ")[1]
                               .splitlines()[0]))
    assert line.split() == [card_str(c, True) for c in puzzle.line]
    assert not result.solved and result.shown and result.hints == 2
    assert text.splitlines()[-2:] == ["Not solved (the solution shown).",
                                      "Tries: no wrong cards, 2 hints."]


def test_what_the_solver_needs_is_not_dimmed():
    """On a terminal that shows dim text faintly, or not at all, the hints, the situation at
    the start and which seats are yours were lost: they were dim."""
    done = run("puzzle", "play", COLLECTION / "001-save-the-ten.toml", "--color",
               input="hint\nhint\nquit\n")
    assert done.exit_code == 0, done.stderr
    lines = done.stdout.splitlines()
    needed = [line for line in lines if re.search(
        r"Won so far|Dealt:|You play|The ideas?:|Play a |wins trick", line)]
    assert len(needed) >= 5, done.stdout
    assert not [line for line in needed if "\x1b[2m" in line], needed


@pytest.mark.parametrize("themes, given", [(("draw-trumps",), 2), ((), 1)])
def test_hints_beyond_the_last_say_so_and_are_not_counted(puzzles, themes, given):
    puzzle = dataclasses.replace(puzzles[2], themes=themes)
    answers = iter(["hint"] * 4 + ["solution"])
    result, text, _ = solve_session(puzzle, lambda s, k: next(answers))
    last = which_card(puzzle)
    assert ("The idea: " in text) == bool(themes)
    assert text.count(f"  No more hints here: {last[0].lower()}{last[1:]} Type solution to "
                      f"see the line.") == 4 - given
    assert result.hints == given


@pytest.mark.parametrize("name, played, hint", [
    ("006-ruff-the-ten.toml", 0, "Play high."), ("011-hunt-the-jack.toml", 0, "Play low."),
    ("034-lead-into-me.toml", 7, "Not the A♦ or the 2♦."), ("001-save-the-ten.toml", 0, None)])
def test_a_hint_to_the_card_says_more_than_the_suit_when_the_suit_is_forced(name, played, hint):
    puzzle = load_puzzle(COLLECTION / name)
    # from the main line's card ``played``, the puzzle as it stands there
    puzzle = dataclasses.replace(puzzle, position=puzzle.position.after(*puzzle.line[:played]),
                                 line=puzzle.line[played:])
    answers = iter(["hint", "hint", "solution"])
    _, text, _ = solve_session(puzzle, lambda s, k: next(answers))
    assert which_card(puzzle) in text
    if hint is not None:  # every legal card of one suit: 'Play a club.' would say nothing
        assert which_card(puzzle) == hint


def test_bad_answers_are_asked_again_and_the_end_of_input_stops(puzzles):
    puzzle = puzzles[2]
    start = puzzle.position
    mine = start.hands[start.to_move]
    other = next(c for h in start.hands for c in h if c not in mine)
    answers = iter(["zz", card_str(other), "99", "help", "q", None])
    result, text, _ = solve_session(puzzle, lambda s, k: next(answers))
    assert "unknown answer 'zz'" in text
    assert "'q' could be quit or a Queen" in text      # (as at play: never a Queen played)
    assert f"you do not hold {card_str(other, True)}" in text
    assert "there is no number 99" in text
    assert "Forced cards are played for you" in text
    assert result.quit and not result.solved
    assert text.splitlines()[-2:] == ["Not solved (stopped).", "Tries: no wrong cards, no hints."]


def test_a_card_of_the_partner_not_to_play_says_whose_it_is(puzzles):
    """The person plays both hands of a side: a card of the one not to play is named as that
    seat's, with the seat that is to play (it said "you do not hold" it), and asked again."""
    puzzle = puzzles[4]
    said = []

    def answer(session, asked):
        if asked > 1:
            return None
        position = session.position
        seats = position.deal.seats
        partner = next(s for s in position.deal.side_seats(puzzle.side)
                       if s != position.to_move and position.hands[s])
        card = position.hands[partner][0]
        said.append(f"  {card_str(card, True)} is {seats[partner]}'s; "
                    f"{seats[position.to_move]} is to play")
        return card_str(card).lower()

    result, text, script = solve_session(puzzle, answer)
    assert said[0] in text.splitlines() and "do not hold" not in text
    assert script.asked == 2 and result.wrong == 0


def test_play_from_the_command_line_with_piped_answers(tmp_path, puzzles):
    puzzle = puzzles[2]
    path = tmp_path / "001-mined.toml"
    path.write_text(puzzle.to_toml(), encoding="utf-8")
    answers = []
    oracle = Oracle(puzzle.side, "points", puzzle.target)
    for i in puzzle.solver_turns():
        if len(oracle.classes(puzzle.positions[i])) > 1:
            answers.append(card_str(puzzle.line[i]))
    result = run("puzzle", "play", path, input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("001. Mined  (2 players · all-fives")
    assert result.stdout.splitlines()[-2].startswith("Solved: ")


def test_play_needs_a_file_or_random():
    assert_one_error_line(run("puzzle", "play"), "name a puzzle FILE, or ask for --random")
    assert_one_error_line(run("puzzle", "play", "nowhere.toml"), "nowhere.toml",
                          "no such file")


def test_a_dash_reads_the_puzzles_of_standard_input(tmp_path):
    """``-`` is standard input, as for the other commands: its puzzles are ``<stdin>``, or
    ``<stdin>#1``, ``<stdin>#2``, ... for a text of several; ``play`` reads its answers there."""
    one = (COLLECTION / "012-the-five-falls.toml").read_text(encoding="utf-8")
    two = (COLLECTION / "001-save-the-ten.toml").read_text(encoding="utf-8")
    several = f"{one}# ---\n{two}"
    assert run("puzzle", "check", "-", input=one).stdout == "1 puzzle checked: all sound.\n"
    result = run("puzzle", "check", "-", COLLECTION / "003-endplay.toml", "--jobs", "2",
                 input=several)
    assert (result.exit_code, result.stdout) == (0, "3 puzzles checked: all sound.\n")
    broken = several.replace("target = 12", "target = 'ten'")
    result = run("puzzle", "check", "-", input=broken)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "<stdin>#2: puzzle.target: expected a whole number, not a string ('ten')",
        "1 puzzle checked, 1 not read as one: 1 problem in 1."]
    shown = run("puzzle", "show", "-", "--solution", input=several)
    assert shown.exit_code == 0 and "The five falls" in shown.stdout \
        and "Save the ten" in shown.stdout
    index = run("puzzle", "index", "-", COLLECTION / "003-endplay.toml", input=several)
    assert "| 012 |" not in index.stdout      # no number: standard input is no numbered file
    # (numbered in it, beside another file's puzzles with its name, as week#2 is; its '<'
    # escaped, which Markdown would take for a tag)
    assert "| \\<stdin>#1 | The five falls | 2 |" in index.stdout \
        and "](003-endplay.toml)" in index.stdout
    wrong = one.replace('side = "N"', 'side = "S"')
    assert_one_error_line(run("puzzle", "show", "-", input=wrong), "<stdin>: not a sound puzzle",
                          "'allfives puzzle check -'")
    assert_one_error_line(run("puzzle", "check", "-", "-", input=one),
                          "'-' (standard input) is named more than once")
    assert_one_error_line(run("puzzle", "play", "-", input=one),
                          "FILE: '-' (standard input) is where the answers are read from",
                          "name a puzzle file")


@pytest.mark.parametrize("option", [["--players", "3"], ["--players", "2"],
                                    ["--rules", "classic"], ["--theme", "duck"],
                                    ["--seed", "5"]], ids=lambda o: o[0])
def test_a_random_puzzles_options_with_a_file_are_refused(option):
    # a puzzle file brings its own table: an option that would make a random one is a mistake,
    # even at its default value, not something to ignore
    path = PUZZLES / "012-the-five-falls.toml"
    assert_one_error_line(run("puzzle", "play", path, *option, input="quit\n"),
                          f"{option[0]}: only with --random")


@pytest.mark.parametrize("command", ["check", "show", "index"])
def test_a_folder_that_may_not_be_read_is_not_an_empty_one(tmp_path, monkeypatch, command):
    # the operating system's refusal stood in for: the tests may run as a user who reads all
    from pathlib import Path

    real = Path.iterdir

    def iterdir(self):
        if self == tmp_path:
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    assert_one_error_line(run("puzzle", command, tmp_path), f"{tmp_path}: Permission denied")


def test_a_title_is_for_a_sheet():
    path = PUZZLES / "012-the-five-falls.toml"
    for form in ("text", "svg"):
        assert_one_error_line(run("puzzle", "show", path, "--format", form, "--title", "x"),
                              "--title: only with --format html")
    assert "<title>x</title>" in run("puzzle", "show", path, "--format", "html",
                                     "--title", "x").stdout
    # a ♥ typed under the C locale, its UTF-8 bytes kept as escapes, is a ♥ on the sheet
    sheet = run("puzzle", "show", path, "--format", "html", "--title", "Club \udce2\udc99\udca5")
    assert sheet.exit_code == 0 and "<title>Club \u2665</title>" in sheet.stdout


# ---- show ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_show_text_has_every_card_the_goal_and_the_solution(tmp_path, puzzles, players):
    puzzle = puzzles[players]
    path = tmp_path / "012-mined.toml"
    path.write_text(puzzle.to_toml(), encoding="utf-8")
    result = run("puzzle", "show", path, "--solution")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert text.splitlines()[0] == "012. Mined"
    assert f"to make {puzzle.target} points or more" in text or \
           f"and make {puzzle.target} points or more" in text
    diagram, solution = text.split("Solution")
    for hand in puzzle.position.hands:
        for card in hand:
            assert card_str(card, True)[0] in diagram
    played = re.findall(r"[NESW] (\S+)", solution)
    assert played == [card_str(c, True) for c in puzzle.line]
    assert "Solution" not in run("puzzle", "show", path).stdout


def test_rule_options_are_spelt_as_deal_files_spell_them(tmp_path):
    """``skunk = true`` is ``skunk=true``, as solve's rules line has it, not Python's
    ``skunk True``."""
    text = (COLLECTION / "012-the-five-falls.toml").read_text(encoding="utf-8")
    path = tmp_path / "012-options.toml"
    path.write_text(text.replace("[hands]", '[options]\nskunk = true\nlow_to = "captor"\n\n'
                                            "[hands]", 1), encoding="utf-8")
    rules = "all-fives (low_to=captor, skunk=true)"
    assert f"2 players · {rules} · rating" in run("puzzle", "show", path).stdout
    assert f"| 2 | {rules} |" in run("puzzle", "index", path).stdout
    assert rules in run("puzzle", "show", path, "--format", "html").stdout
    assert "True" not in run("puzzle", "show", path, "--format", "svg").stdout


def test_show_svg_is_a_drawing_of_every_holding(tmp_path, puzzles):
    puzzle = puzzles[4]
    path = tmp_path / "003-mined.toml"
    path.write_text(puzzle.to_toml(), encoding="utf-8")
    result = run("puzzle", "show", path, "--format", "svg", "--solution")
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(result.stdout)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    words = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for name in ("North", "East", "South", "West"):
        assert name in words
    assert "003. Mined" in words and "Solution" in words
    # red suits are red, black ones black
    assert 'fill="#c8102e">♥' in result.stdout and 'fill="#1a1a1a">♠' in result.stdout


def test_svg_lines_stay_on_the_canvas(tmp_path):
    """A long title and a solution of many themes are wrapped, not cut off at the canvas's
    edge (each line measured at a generous 0.62 of its font size a character)."""
    text = (COLLECTION / "047-the-last-few-points.toml").read_text(encoding="utf-8")
    long = tmp_path / "001-long.toml"
    long.write_text(re.sub(r'title = ".*"', 'title = "' + "A very long title " * 4 + '"', text),
                    encoding="utf-8")
    ruled = tmp_path / "002-ruled.toml"      # the rules with options run long too
    ruled.write_text(text + '\n[options]\nskunk = true\nrevoke_penalty = "others"\n'
                            'max_runs = 5\n', encoding="utf-8")
    for path in (COLLECTION / "047-the-last-few-points.toml", long, ruled):
        drawing = run("puzzle", "show", path, "--format", "svg", "--solution").stdout
        root = ET.fromstring(drawing)
        width = float(root.get("width"))
        for t in root.iter("{http://www.w3.org/2000/svg}text"):
            words = "".join(t.itertext())
            size = float(t.get("font-size"))
            assert float(t.get("x")) + 0.62 * size * len(words) <= width, words
        assert "Solution (catch-the-five, draw-trumps," in drawing
    # a word of hyphens is not broken at them
    title = "The " + "over-the-top " * 2 + "and well-timed ruff"
    long.write_text(re.sub(r'title = ".*"', f'title = "{title}"', text), encoding="utf-8")
    _, texts = drawn(run("puzzle", "show", long, "--format", "svg").stdout)
    heading = [words for *_, size, words in texts if size == 15]
    assert len(heading) > 1 and " ".join(heading) == f"001. {title}"
    assert all(set(line.split()) <= set(f"001. {title}".split()) for line in heading), heading


SVG = "{http://www.w3.org/2000/svg}"


def drawn(drawing: str) -> tuple[ET.Element, list[tuple[ET.Element, float, float, float, str]]]:
    """An SVG drawing's root and each of its texts: the element, x, y, type size, words."""
    root = ET.fromstring(drawing)
    return root, [(t, float(t.get("x")), float(t.get("y")), float(t.get("font-size")),
                   "".join(t.itertext())) for t in root.iter(f"{SVG}text")]


def drawn_puzzles() -> list[tuple[str, Puzzle]]:
    """Puzzles to draw: every fourth of the collection (a turn-up or trumps named, cards on the
    table or none, 2 and 4 players) and a three-player one."""
    chosen = sorted(COLLECTION.glob("*.toml"))[::4]
    return [(str(path), load_puzzle(path)) for path in chosen] + [("005-three.toml", mined(3, 1))]


def on_paper(puzzle: Puzzle, path: Path) -> SimpleNamespace:
    """What a puzzle written to ``path`` says on paper, found from the puzzle itself (cards
    as ``10♥``): its heading, rules, goal and situation; each seat's name, marks and four
    suits; the trumps, and what else the middle holds; the solution's heading, its tricks as
    the text form writes them, and what its line leaves; the seats of the solver's side."""
    from solver.cards import RANKS, SUIT_SYMBOLS, sort_cards

    from cli.sheet import facts_of, face

    position, deal = puzzle.position, puzzle.position.deal
    facts = facts_of(puzzle, str(path))
    rating = f" · rating {puzzle.rating}" if puzzle.rating is not None else ""
    seats = {}
    for seat, hand in zip(deal.seats, position.hands):
        marks = [word for word, on in (("dealer", seat == deal.seats[deal.dealer]),
                                       ("to play", seat == deal.seats[position.to_move])) if on]
        suits = [f"{SUIT_SYMBOLS[suit]} " + (" ".join(RANKS[c & 15] for c in sort_cards(hand)
                                                      if suit_of(c) == suit).replace("T", "10")
                                             or "—") for suit in range(4)]
        seats[seat] = ({"N": "North", "E": "East", "S": "South", "W": "West"}[seat], marks,
                       suits)
    middle = [f"turn-up {face(deal.turnup)}"] if deal.turnup is not None else []
    trick = position.current
    if trick.cards:
        middle += ["on the table"] + [f"{deal.seats[trick.seat_of(i, deal.players)]} "
                                      f"{face(c)}" for i, c in enumerate(trick.cards)]
    shown = run("puzzle", "show", path, "--solution").stdout.split("\nSolution")[1]
    end = "the match is won" if puzzle.objective == "win" else "the goal is safe"
    return SimpleNamespace(
        heading=f"{path.stem[:3]}. {puzzle.title}",
        about=f"{deal.players} players · {rules_words(deal.rules)}{rating}", goal=facts.goal,
        situation=[re.sub("T(?=[♠♥♦♣])", "10", line) for line in facts.situation],
        seats=seats, trumps=f"{SUIT_SYMBOLS[deal.trump]} {SUIT_NAMES[deal.trump]}",
        middle=middle, themes=f" ({', '.join(puzzle.themes)})" if puzzle.themes else "",
        tricks=[" ".join(re.sub("T(?=[♠♥♦♣])", "10", line).split())
                for line in shown.splitlines()[1:-1]],
        outcome=f"Then {end} whatever the defence does.",
        side={s for k, s in enumerate(deal.seats) if deal.side_of(k) == puzzle.side})


def test_svg_draws_every_fact_of_the_puzzle(tmp_path):
    """The drawing says all a puzzle says, each in its place: the heading, the rules, the goal
    and the situation, each seat's name (the dealer and the seat to play marked) over its four
    suits (the trumps bold), the trumps and turn-up and the cards on the table in the middle,
    and the solution trick by trick as the text form has it, the solver's side's seats bold,
    then what the line leaves."""
    for name, puzzle in drawn_puzzles():
        path = tmp_path / Path(name).name
        path.write_text(puzzle.to_toml(), encoding="utf-8")
        _, texts = drawn(run("puzzle", "show", path, "--format", "svg", "--solution").stdout)
        paper = on_paper(puzzle, path)
        trump = puzzle.position.deal.trump
        words = [w for *_, w in texts]
        sizes = [size for _, _, _, size, _ in texts]
        # above the table: the heading (15), the rules (11), the goal (13), the situation (11)
        first_seat = next(k for k, (t, *_) in enumerate(texts) if t.get("font-size") == "12")
        groups: list[list[str]] = []
        for k in range(first_seat):
            if k == 0 or sizes[k] != sizes[k - 1]:
                groups.append([])
            groups[-1].append(words[k])
        assert [" ".join(g) for g in groups] == [paper.heading, paper.about, paper.goal,
                                                 " ".join(paper.situation)]
        # each hand: its seat's name and marks, then its four suits, the trumps' bold
        for word, marks, suits in paper.seats.values():
            k = words.index(word + (" (dealer)" if "dealer" in marks else "")
                            + (" to play" if "to play" in marks else ""))
            assert words[k + 1:k + 5] == suits
            assert [t.get("font-weight") for t, *_ in texts[k + 1:k + 5]] == [
                "bold" if suit == trump else "normal" for suit in range(4)]
        k = words.index("trumps")
        assert words[k + 1:k + 2 + len(paper.middle)] == [paper.trumps, *paper.middle]
        # the solution, as the text form writes it; then what its line leaves
        solution = next(k for k, w in enumerate(words) if w.startswith("Solution"))
        heading = [w for t, x, _, size, w in texts[solution:] if size == 13]
        assert " ".join(heading) == "Solution" + paper.themes
        numbers = [w for _, x, *_, w in texts if x == 30]
        tricks = [t for t in texts if t[1] == 34 and t[3] == 12]
        assert [f"{n} {' '.join(w.split())}" for n, (*_, w) in zip(numbers, tricks)] == \
            paper.tricks
        assert words[-1] == paper.outcome
        for element, *_ in tricks:
            bold = [span.text for span in element if span.get("font-weight") == "bold"]
            plain = [span.text for span in element if span.get("font-weight") == "normal"]
            assert set(bold) <= paper.side and not set(plain) & paper.side and bold + plain


def test_html_writes_every_fact_of_the_puzzle(tmp_path):
    """The sheet says all a puzzle says, as the drawing does: the heading, the rules, the goal,
    the situation, each seat's name and marks over its four suits (the trumps' line bold),
    the trumps, turn-up and cards on the table in the middle, every heart and diamond red and
    every spade and club black, and the solution trick by trick as the text form has it, the
    solver's side's seats bold, then what the line leaves."""
    def plain(html: str) -> str:
        return " ".join(re.sub(r"<[^>]*>", "", html).replace("&ensp;", " ").split())

    for name, puzzle in drawn_puzzles():
        path = tmp_path / Path(name).name
        path.write_text(puzzle.to_toml(), encoding="utf-8")
        sheet = run("puzzle", "show", path, "--format", "html", "--solution").stdout
        paper = on_paper(puzzle, path)
        trump = puzzle.position.deal.trump
        problem = re.search(r'<section class="puzzle">(.*?)</section>', sheet, re.S)[1]
        assert re.findall(r"<h2>([^<]*)</h2>", problem) == [paper.heading]
        assert re.findall(r'<p class="about">([^<]*)</p>', problem) == [paper.about]
        assert re.findall(r'<p class="goal">([^<]*)</p>', problem) == [paper.goal]
        assert [plain(p) for p in re.findall(r'<p class="situation">(.*?)</p>', problem)] == \
            paper.situation
        # every suit symbol in its colour
        for colour, symbol in re.findall(r'<span class="(\w+)">([♠♥♦♣])</span>', sheet):
            assert colour == ("red" if symbol in "♥♦" else "black"), (name, symbol)
        assert not re.search(r"[♠♥♦♣]", re.sub(r'<span class="(red|black)">[♠♥♦♣]</span>', "",
                                               sheet.split('<div class="solutions">')[0]))
        # each hand
        hands = re.findall(r'<td class="hand">(.*?)</td>', problem)
        assert sorted(plain(re.findall(r"<div[^>]*>(.*?)</div>", cell)[0]) for cell in hands) \
            == sorted(" ".join([word, ", ".join(marks)]).strip()
                      for word, marks, _ in paper.seats.values())
        for cell in hands:
            word, _, suits = paper.seats[plain(cell)[0]]
            lines = re.findall(r"<div( class=\"\w+\")?>(.*?)</div>", cell)[1:]
            assert [plain(line) for _, line in lines] == suits
            assert [attribute for attribute, _ in lines] == [
                ' class="trump"' if suit == trump else "" for suit in range(4)]
        [cell] = re.findall(r'<td class="middle">(.*?)</td>', problem)
        assert [plain(part) for part in cell.split("<br>")] == [f"trumps {paper.trumps}",
                                                                *paper.middle]
        # the solution
        solution = re.search(r'<div class="solution">(.*?)</div></div>', sheet, re.S)[0]
        assert plain(re.search(r"<h3>(.*?)</h3>", solution)[1]) == paper.heading + paper.themes
        tricks = re.findall(r'<div><b class="n">(.*?)</div>', solution)
        assert [plain(t) for t in tricks] == paper.tricks
        assert re.findall(r'<div class="outcome">([^<]*)</div>', solution) == [paper.outcome]
        for trick in tricks:
            ours = re.findall(r'<span class="ours">(\w)</span>', trick)
            them = re.findall(r'<span class="them">(\w)</span>', trick)
            assert set(ours) <= paper.side and not set(them) & paper.side and ours + them


def test_svg_lines_stand_apart_and_inside_the_drawing():
    """No two texts of a drawing overlap (each measured at a generous 0.62 of its type size a
    character, from 0.8 of its size above its line to 0.25 below); the words above the table
    and the solution's lines follow each other a little more than a line of their type apart,
    and no more than 6 px more (no empty line); the middle box holds its words and no hand's;
    the drawing begins near its top and ends a little under its last line."""
    def box(x, y, size, words, anchor):
        width = 0.62 * size * len(words)
        left = x - width if anchor == "end" else x
        return left, y - 0.8 * size, left + width, y + 0.25 * size

    def meet(a, b) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    for name, puzzle in drawn_puzzles():
        for solution in (False, True):
            path = Path(name)
            drawing = run("puzzle", "show", path if path.exists() else "-", "--format", "svg",
                          *(["--solution"] if solution else []),
                          input=None if path.exists() else puzzle.to_toml()).stdout
            root, texts = drawn(drawing)
            height = float(root.get("height"))
            boxes = [box(x, y, size, w, t.get("text-anchor")) for t, x, y, size, w in texts]
            for k, (a, (*_, words)) in enumerate(zip(boxes, texts)):
                assert a[1] >= 0 and a[3] <= height, (name, words)
                for b, (*_, other) in zip(boxes[k + 1:], texts[k + 1:]):
                    assert not meet(a, b), (name, words, other)
            assert boxes[0][1] <= 10 and 0 < height - max(b[3] for b in boxes) <= 16, name
            rect = next(r for r in root.iter(f"{SVG}rect") if r.get("rx"))
            middle = (float(rect.get("x")), float(rect.get("y")),
                      float(rect.get("x")) + float(rect.get("width")),
                      float(rect.get("y")) + float(rect.get("height")))
            inside = [b for b in boxes if meet(b, middle)]
            assert inside and all(middle[0] < b[0] and b[2] < middle[2] and middle[1] < b[1]
                                  and b[3] < middle[3] for b in inside), name
            # the lines at the left edge, above the table and in the solution, one by one
            for run_of in ([t for t in texts if t[1] == 10 and t[2] < middle[1] - 80],
                           [t for t in texts if t[1] in (10, 34) and t[2] > middle[3] + 70]):
                for (*_, y, size, _), (*_, below, under, words) in zip(run_of, run_of[1:]):
                    assert under + 1 <= below - y <= under + 6, (name, words)


def test_svg_and_html_write_the_dealt_line_s_cards_as_the_hands_do():
    """The situation's cards (High, Low) were ``T♣`` in grey where the hands wrote ``10♣``,
    the suit in its colour."""
    file = COLLECTION / "012-the-five-falls.toml"
    assert "Dealt: High T♣ N, Low 2♣ N, no Jack (J♣)." in run("puzzle", "show", file).stdout
    html = run("puzzle", "show", file, "--format", "html").stdout
    assert ('Dealt: High 10<span class="black">♣</span> N, Low 2<span class="black">♣</span> N, '
            'no Jack (J<span class="black">♣</span>).' in html)
    root = ET.fromstring(run("puzzle", "show", file, "--format", "svg").stdout)
    dealt = next(t for t in root.iter("{http://www.w3.org/2000/svg}text")
                 if "".join(t.itertext()).startswith("Dealt"))
    assert "".join(dealt.itertext()) == "Dealt: High 10♣ N, Low 2♣ N, no Jack (J♣)."
    assert [span.text for span in dealt] == ["10", "♣", "2", "♣", "J", "♣"]


def test_the_page_says_what_scores_under_its_rules():
    """A student does not know what "all-fours" means: the page says what scores and how cards
    follow, in every form."""
    from solver.rules import PRESETS, Rules

    from cli.sheet import scoring_words

    said = {preset: scoring_words(Rules.preset(preset)) for preset in PRESETS}
    trumps = "trumps taken (A 4, K 3, Q 2, J 1, 10 10, 5 5)"
    assert said == {
        "all-fives": f"Scoring: {trumps}; High, Low, Jack and Game 1 each. Follow suit or trump.",
        "strict": f"Scoring: {trumps}; High, Low, Jack and Game 1 each. Follow suit.",
        "classic": f"Scoring: {trumps}. Follow suit.",
        "all-fours": "Scoring: High, Low, Jack and Game (fives not counted) 1 each; no points "
                     "for trumps taken. Follow suit or trump.",
        "five-for-five": f"Scoring: {trumps}; High, Low, Jack and Game 1 each; the trump Five "
                         f"taken 5 more. Follow suit or trump."}
    assert scoring_words(Rules(low_to="captor", high=False, jack=False, game=False)) == \
        f"Scoring: {trumps}; Low (to its taker) 1. Follow suit or trump."
    assert scoring_words(Rules(capture=False, high=False, low=False, jack=False,
                               game=False)) == "Scoring: nothing. Follow suit or trump."
    assert scoring_words(Rules(capture=False, jack=False, game=False)) == \
        "Scoring: High and Low 1 each; no points for trumps taken. Follow suit or trump."
    path = COLLECTION / "007-game-by-a-pip.toml"
    for form in ("text", "svg", "html"):
        shown = re.sub(r"<[^>]+>|\s+", " ", run("puzzle", "show", path, "--format", form).stdout)
        assert "Scoring: High, Low, Jack and Game (fives not counted) 1 each; no points for " \
            "trumps taken. Follow suit or trump." in re.sub(" +", " ", shown), form


@pytest.mark.parametrize("hands, side, objective, target, goal", [
    ("-.J5.-.- 3.2.-.-", 0, "points", 9, "North to play and make 9 points or more in the deal"),
    ("-.J5.-.- 3.2.-.-", 1, "points", 1, "North to play; South to make 1 point or more in the "
                                         "deal"),
    ("-.J5.-.- 3.2.-.-", 0, "margin", 1, "North to play and outscore the other side by 1 or "
                                         "more in the deal"),
    ("-.J5.-.- 3.2.-.-", 1, "margin", 0, "North to play; South to score at least as many "
                                         "points as the other side in the deal"),
    ("-.J5.-.- 3.2.-.-", 0, "margin", -1, "North to play and lose the deal by no more than 1 "
                                          "point"),
    ("-.J5.-.- 3.2.-.-", 0, "margin", -2, "North to play and lose the deal by no more than 2 "
                                          "points"),
    ("-.J5.-.- 3.2.-.-", 1, "win", 0, "North to play; South to win the match in this deal"),
    ("-.J5.-.- 3.2.-.-", 0, "tricks", 1, "North to play and take 1 trick or more"),
    ("-.J5.-.- 3.2.-.- 4.6.-.-", 0, "tricks", 2, "North to play and take 2 tricks or more, "
                                                 "against the other two together"),
    ("-.J5.-.- 3.2.-.- 4.6.-.-", 1, "points", 4, "North to play; East to make 4 points or more "
                                                 "in the deal, against the other two together"),
    ("-.J5.-.- 3.2.-.- 4.6.-.- 7.8.-.-", 1, "margin", 2, "West to play; East-West to outscore "
                                                        "the other side by 2 or more in the "
                                                        "deal"),
    ("-.J5.-.- 3.2.-.- 4.6.-.- 7.8.-.-", 0, "tricks", 3, "West to play; North-South to take 3 "
                                                        "tricks or more")])
def test_the_goal_says_who_plays_for_which_side_to_what_end(hands, side, objective, target,
                                                             goal):
    """The goal in a sentence for each objective, at each table: the seat to play, and the
    side it plays for where that is not its own or the table has partners; three players play
    alone against the other two together."""
    from solver.deal import Deal

    from cli.sheet import goal_words

    position = Deal.from_line(f"N:{hands} dealer=S turnup=4H").position()
    assert goal_words(position, side, objective, target) == f"{goal}, whatever the defence."


def test_the_page_says_who_took_the_cards_that_score_their_captor():
    """A card whose captor scores a point (the Jack; Low where it goes to its captor; the Five
    under five-for-five) taken in a trick already played is off the diagram: the page says
    which side took it, or that it was not dealt (puzzle 007's +4 needs the Jack East-West
    took; 006's Jack was never dealt)."""
    from solver.cards import parse_cards
    from solver.deal import Deal

    from cli.sheet import situation_words

    assert "Won so far: NS no tricks; EW 2 tricks (game 7, Jack J♣)." in \
        run("puzzle", "show", COLLECTION / "007-game-by-a-pip.toml").stdout
    assert "Dealt: High K♦ EW, Low 5♦ NS, no Jack (J♦)." in \
        run("puzzle", "show", COLLECTION / "006-ruff-the-ten.toml").stdout
    deal = Deal.from_line("N:-.J5.-.- 3.2.-.- dealer=S turnup=4H five_for_five=true "
                          "low_to=captor")
    assert situation_words(deal.position()) == ["Dealt: High J♥ N."]   # (all in hand)
    assert situation_words(deal.position(tuple(parse_cards("JH 2H")))) == [
        "Won so far: N 1 trick (1 pt, game 1, Jack J♥, Low 2♥); S no tricks.",
        "Dealt: High J♥ N."]                                # (the Five still in N's hand)
    deal = Deal.from_line("N:-.J6.-.- 5.2.-.- dealer=S turnup=4H five_for_five=true "
                          "capture=false game=false high=false")
    assert situation_words(deal.position(tuple(parse_cards("6H 2H")))) == [
        "Won so far: N 1 trick; S no tricks.", "Dealt: Low 2♥ S, no Five (5♥)."]


@pytest.mark.parametrize("name", ["002-catch-the-five.toml", "025-by-a-nose.toml",
                                  "001-save-the-ten.toml"])
def test_svg_and_html_name_the_cards_on_the_table(name):
    """A puzzle begun mid-trick says, in the middle of the table, which cards are already on
    it, as the text diagram does; one begun with a lead has no such words."""
    puzzle = load_puzzle(COLLECTION / name)
    trick = puzzle.position.current.cards
    svg = run("puzzle", "show", COLLECTION / name, "--format", "svg").stdout
    html = run("puzzle", "show", COLLECTION / name, "--format", "html").stdout
    text = run("puzzle", "show", COLLECTION / name).stdout
    root = ET.fromstring(svg)
    words = [("".join(t.itertext())) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert ("on the table" in words) == bool(trick) == ("on the table" in html) == \
        ("on the table:" in text)
    if trick:
        label = words.index("on the table")
        seat = puzzle.position.deal.seats[puzzle.position.current.leader]
        from cli.sheet import face
        assert words[label + 1] == f"{seat} {face(trick[0])}"
    # the middle box ends above the name of the hand below it
    svg_ns = "{http://www.w3.org/2000/svg}"
    box = next(r for r in root.iter(f"{svg_ns}rect") if r.get("rx"))
    south = next(t for t in root.iter(f"{svg_ns}text") if float(t.get("y")) > float(box.get("y"))
                 and "".join(t.itertext()).startswith("South"))
    assert float(box.get("y")) + float(box.get("height")) + 12 <= float(south.get("y"))


@pytest.mark.parametrize("name, trick", [
    ("002-catch-the-five.toml", "1. (N 2♦  E 3♦)  S T♦  → S"),
    ("025-by-a-nose.toml", "3. (W 2♦  N 7♥  E 8♦)  S 3♦  → N"),
    ("006-ruff-the-ten.toml", "4. W A♣  N 9♦  E 9♣  S Q♣  → N")])
def test_the_cards_on_the_table_are_in_brackets_in_the_solution(name, trick):
    """Without colour, the cards already on the table when the puzzle starts are set apart
    from the solution's in brackets, as solve's line has them (they were only dimmed, which
    plain text does not show); in colour too, and dimmed."""
    plain = run("puzzle", "show", COLLECTION / name, "--solution").stdout
    assert f"  {trick}" in plain.splitlines()
    coloured = run("puzzle", "show", COLLECTION / name, "--solution", "--color").stdout
    assert trick in re.sub(r"\x1b\[[0-9;]*m", "", coloured)


def test_the_solution_s_trick_numbers_are_lined_up():
    """Tricks 8, 9 and 10 of a line: the numbers right-aligned, so that the cards line up."""
    text = run("puzzle", "show", COLLECTION / "065-a-ten-for-a-trump.toml", "--solution").stdout
    tricks = [line for line in text.split("Solution")[1].splitlines()
              if re.match(r" +\d+\.", line)]
    assert [line.split(".")[0].strip() for line in tricks][:3] == ["8", "9", "10"]
    assert {line.index(". ") for line in tricks} == {4}, tricks


@pytest.mark.parametrize("form", ["text", "svg", "html"])
def test_a_solution_ends_on_what_its_line_leaves(form):
    """After the line, which stops at the solver's last real choice (often mid-trick, or on a
    trick the other side wins), the solution says what it leaves: the goal safe, or where the
    goal is the match, the match won, whatever the defence does."""
    for name, objective in (("006-ruff-the-ten.toml", "margin"),
                            ("015-out-in-one.toml", "win")):
        assert load_puzzle(COLLECTION / name).objective == objective
        shown = run("puzzle", "show", COLLECTION / name, "--solution", "--format", form)
        assert shown.exit_code == 0, shown.stderr
        end = "the match is won" if objective == "win" else "the goal is safe"
        said = f"Then {end} whatever the defence does."
        assert shown.stdout.count(said) == 1
        if form == "text":
            assert shown.stdout.splitlines()[-1] == f"  {said}"
        unsolved = run("puzzle", "show", COLLECTION / name, "--format", form).stdout
        assert "whatever the defence does." not in unsolved


@pytest.mark.parametrize("width", [40, 30])
def test_to_play_on_a_line_of_its_own_is_flush_under_its_seat(width):
    """A narrow screen folds the diagram, "to play" on a line under the seat's name: flush
    with it, not one space in (the reverse video's margin, which reads as a stray indent)."""
    from cli.sheet import facts_of, text_view

    puzzle = load_puzzle(COLLECTION / "006-ruff-the-ten.toml")
    screen, out = console(width)
    screen.print(text_view(facts_of(puzzle, "006-ruff-the-ten.toml"), puzzle.position, False))
    lines = out.getvalue().splitlines()
    seat = next(k for k, line in enumerate(lines) if line.startswith("W (EW)"))
    assert lines[seat].rstrip() == "W (EW)" or "to play" not in lines[seat]
    assert lines[seat + 1].startswith("to play"), lines[seat:seat + 2]


def test_in_print_only_the_suit_symbols_are_red(tmp_path):
    """Printed in black and white, red comes out grey, as the cards already on the table do in
    the solutions: so red is kept to the suit symbols, and every rank is black unless dimmed."""
    from cli.sheet import RED
    name = COLLECTION / "017-the-ten-comes-home.toml"    # a heart on the line, a spade before
    svg = run("puzzle", "show", name, "--format", "svg", "--solution").stdout
    html = run("puzzle", "show", name, "--format", "html", "--solution").stdout
    red = re.findall(rf'<tspan fill="{RED}">([^<]*)</tspan>', svg)
    assert red and set(red) <= {"♥", "♦"}, red
    red = re.findall(r'<span class="red">([^<]*)</span>', html)
    assert red and set(red) <= {"♥", "♦"}, red
    # (and in brackets, as in text: on paper grey may not show)
    assert re.search(r'<span class="before">\(S 9♠\)</span>', html)
    assert re.search(r'<tspan fill="#999">\(S 9♠\)</tspan>', svg)


def test_a_suit_too_long_for_its_room_in_the_drawing_is_drawn_to_fit_it(tmp_path):
    """Twelve clubs in West's hand ran under the middle box, twelve hearts in East's past the
    canvas's edge; North's and South's have room.  No puzzle of the collection needs it."""
    from cli.sheet import SVG_WIDTH, hand_line_width

    path = tmp_path / "long.toml"
    path.write_text('dealer = "S"\ntrump = "H"\nrules = "classic"\n\n[hands]\n'
                    'N = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"\n'
                    'E = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H"\n'
                    'S = "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D"\n'
                    'W = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C"\n\n'
                    '[puzzle]\nside = "EW"\nobjective = "points"\ntarget = 3\n'
                    'line = ["AC", "AS", "AH"]\n', encoding="utf-8")
    drawing = run("puzzle", "show", path, "--format", "svg").stdout
    fitted = re.findall(r'<text x="([\d.]+)" [^>]*textLength="([\d.]+)"[^>]*>(.*?)</text>',
                        drawing)
    assert [(re.sub("<[^>]*>", "", line)[0], x) for x, _, line in fitted] == [("♥", "282"),
                                                                             ("♣", "10")]
    for x, room, _ in fitted:
        assert float(x) + float(room) < (SVG_WIDTH if x != "10" else SVG_WIDTH / 2 - 58)
    assert hand_line_width("♠ A K Q J 10 9 8 7 6 5 4 3", False) < SVG_WIDTH - 8 - 175
    assert not any("textLength" in run("puzzle", "show", file, "--format", "svg").stdout
                   for file in sorted(COLLECTION.glob("*.toml"))[::6])


@pytest.mark.parametrize("form", ["text", "svg", "html"])
def test_the_cards_on_the_table_are_in_brackets_in_every_form(form):
    """The README says --solution shows the cards already on the table in brackets; only the
    text did, and in print the other forms had grey alone to tell them."""
    shown = run("puzzle", "show", COLLECTION / "002-catch-the-five.toml", "--solution",
                "--format", form).stdout
    words = " ".join(re.sub(r"<[^>]*>", " ", shown).replace("&ensp;", " ").split())
    assert "1. (N 2♦ E 3♦) S " + ("T♦" if form == "text" else "10 ♦") + " → S" in words


class _Balance(HTMLParser):
    """Whether every element opened is closed, in order (``<br>``, ``<meta>``: none to)."""

    VOID = {"br", "meta"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.wrong: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if not self.open or self.open.pop() != tag:
            self.wrong.append(tag)


@pytest.mark.parametrize("solution", [False, True])
def test_a_sheet_closes_every_element_it_opens(solution):
    """A browser forgives a page left open at its end; a program reading the sheet may not:
    every element is closed, the page's and the solutions' too."""
    sheet = run("puzzle", "show", COLLECTION, "--format", "html",
                *(["--solution"] if solution else [])).stdout
    balance = _Balance()
    balance.feed(sheet)
    assert (balance.open, balance.wrong) == ([], [])
    assert sheet.startswith("<!DOCTYPE html>\n<html") and sheet.endswith("</body>\n</html>\n")


class _Sections(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.classes: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.classes += dict(attrs).get("class", "").split()


def test_show_html_is_one_sheet_of_a_whole_folder(tmp_path, puzzles):
    for n, puzzle in puzzles.items():
        (tmp_path / f"00{n}-mined.toml").write_text(puzzle.to_toml(), encoding="utf-8")
    result = run("puzzle", "show", tmp_path, "--format", "html", "--solution",
                 "--title", "Club night")
    assert result.exit_code == 0, result.stderr
    page = result.stdout
    parser = _Sections()
    parser.feed(page)
    assert parser.classes.count("puzzle") == 3
    assert parser.classes.count("solution") == 3
    assert "<title>Club night</title>" in page and "@page { size: A4" in page
    assert page.index("002. Mined") < page.index("003. Mined") < page.index("004. Mined")
    assert '<span class="red">♥</span>' in page


def test_a_sheet_speaks_of_its_solutions_only_when_it_has_them():
    path = COLLECTION / "012-the-five-falls.toml"
    heading = re.compile(r'<header class="sheet">.*?</header>', re.S)
    bare = heading.search(run("puzzle", "show", path, "--format", "html").stdout)[0]
    solved = heading.search(run("puzzle", "show", path, "--format", "html",
                                "--solution").stdout)[0]
    assert "solution" not in bare.lower() and "every hand is open" in bare
    assert "Bold seats in the solutions are the side that solves." in solved


def test_an_empty_title_leaves_the_heading_out():
    """--title '' was taken as no --title: the default heading."""
    path = COLLECTION / "012-the-five-falls.toml"
    heading = re.compile(r'<header class="sheet">(.*?)</header>', re.S)
    page = run("puzzle", "show", path, "--format", "html", "--title", "").stdout
    assert "<h1>" not in heading.search(page)[1] and "1 puzzle, solved" in page
    assert "<title>All Fives puzzles</title>" in page
    named = run("puzzle", "show", path, "--format", "html", "--title", "Club <night>").stdout
    assert "<h1>Club &lt;night&gt;</h1>" in heading.search(named)[1]


class _Pages(HTMLParser):
    """What each ``div.page`` of a sheet holds: its puzzles and whether the sheet's heading."""

    def __init__(self) -> None:
        super().__init__()
        self.pages: list[dict] = []
        self.depth = 0      # the open divs, the page's own among them
        self.inside = False

    def handle_starttag(self, tag, attrs):
        classes = dict(attrs).get("class", "").split()
        if tag == "div":
            if "page" in classes:
                self.pages.append({"puzzles": 0, "heading": False})
                self.inside, self.depth = True, 0
            self.depth += 1
        if self.inside and tag == "section" and "puzzle" in classes:
            self.pages[-1]["puzzles"] += 1
        if self.inside and tag == "header" and "sheet" in classes:
            self.pages[-1]["heading"] = True

    def handle_endtag(self, tag):
        if tag == "div" and self.inside:
            self.depth -= 1
            self.inside = self.depth > 0


def test_a_sheet_has_four_puzzles_to_every_page_the_first_too():
    """The heading shares the first page with four puzzles (its two rows were pushed onto the
    next page): each page a block no taller than A4 leaves within the margins, of two rows
    that share its height."""
    page = run("puzzle", "show", COLLECTION, "--format", "html").stdout
    parser = _Pages()
    parser.feed(page)
    count = len(sorted(COLLECTION.glob("*.toml")))
    held = [p["puzzles"] for p in parser.pages]
    assert sum(held) == count and held[:-1] == [4] * (len(held) - 1) and 1 <= held[-1] <= 4
    assert [p["heading"] for p in parser.pages] == [True] + [False] * (len(held) - 1)
    margin = float(re.search(r"@page \{ size: A4; margin: ([\d.]+)mm", page)[1])
    height = float(re.search(r"\.page \{[^}]*height: ([\d.]+)mm", page)[1])
    assert height <= 297 - 2 * margin
    assert "grid-template-rows: 1fr 1fr" in page


def test_a_sheet_draws_long_hands_smaller_to_fit_the_puzzle_s_box():
    """A box cuts off what goes past its edge: the hands of nine cards or more whose suits are
    long are drawn smaller until the table fits (East's A K Q J 10 9 of trumps lost its 9);
    every hand of the collection fits at the sheet's size."""
    from dataclasses import replace

    from solver.cards import parse_hand

    from cli.sheet import HAND_EMS, HTML_ROOM, facts_of, html_hands_scale, html_puzzle

    for path in sorted(COLLECTION.glob("*.toml")):
        assert html_hands_scale(facts_of(load_puzzle(path), path.name)) == 1
    facts = facts_of(load_puzzle(COLLECTION / "006-ruff-the-ten.toml"), "006-ruff-the-ten.toml")
    assert 'class="table">' in html_puzzle(facts)
    hands = [parse_hand(h) for h in ("AKQ.432.432.432", "65.AKQJT9.65.65", "87.87.AKQJT9.87",
                                     "JT9.5.87.AKQJT9")]
    long = replace(facts, hands=tuple(hands), trump=1)
    scale = html_hands_scale(long)
    assert 0.4 <= scale < 1 and f'class="table" style="font-size: {scale:.0%}">' in \
        html_puzzle(long)
    # East's trumps, bold, and West's clubs beside the middle box, at that size
    def wide(east: str, west: str, scale: float) -> float:
        """The table's width in mm: East's trumps, bold, West's suit and the middle box."""
        em = 10.5 * 25.4 / 72 * scale
        widths = [sum(HAND_EMS.get(c, 0.636) for c in line) * em + 3 for line in (east, west)]
        return widths[0] * 1.1 + 22 + widths[1]

    assert wide("♥ A K Q J 10 9", "♣ A K Q J 10 9", scale) <= HTML_ROOM
    thirteen = replace(facts, hands=(facts.hands[0], parse_hand("AKQJT98765432..."),
                                     facts.hands[2], parse_hand("...AKQJT98765432")), trump=0)
    smaller = html_hands_scale(thirteen)
    assert 0.4 <= smaller < scale     # (thirteen cards of a suit fit too)
    assert wide("♠ A K Q J 10 9 8 7 6 5 4 3 2", "♣ A K Q J 10 9 8 7 6 5 4 3 2", smaller) <= \
        HTML_ROOM < wide("♠ A K Q J 10 9 8 7 6 5 4 3 2", "♣ A K Q J 10 9 8 7 6 5 4 3 2",
                         smaller + 0.05)


def test_the_room_a_sheet_s_table_has_is_what_its_page_leaves():
    """The sizes the hands are fitted to are the sheet's own, as its CSS sets them: half of
    A4 within the page's margins, less the gap between the columns and the puzzle's padding
    and border, and 2 mm to spare; a cell's least width and padding, the middle box's width,
    an em of the sheet's type."""
    from cli.sheet import CSS, HTML_CELL, HTML_EM, HTML_MIDDLE, HTML_PAD, HTML_ROOM

    def mm(pattern: str) -> list[float]:
        found = re.search(pattern, CSS, re.S)
        assert found, pattern
        return [float(n) for n in found.groups()]

    [margin] = mm(r"@page \{ size: A4; margin: ([\d.]+)mm; \}")
    [gap] = mm(r"\.puzzles \{[^}]*gap: ([\d.]+)mm;")
    padding, border = mm(r"\.puzzle \{[^}]*padding: [\d.]+mm ([\d.]+)mm; border: ([\d.]+)mm")
    pad, least = mm(r"table\.table td \{[^}]*padding: [\d.]+mm ([\d.]+)mm; min-width: "
                    r"([\d.]+)mm;")
    [middle] = mm(r"\.middle \{[^}]*width: ([\d.]+)mm;")
    [points] = mm(r"body \{[^}]*font-size: ([\d.]+)pt;")
    assert HTML_ROOM == pytest.approx((210 - 2 * margin - gap) / 2 - 2 * padding - 2 * border - 2)
    assert (HTML_PAD, HTML_CELL, HTML_MIDDLE) == (pad, least, middle)
    assert HTML_EM == pytest.approx(points * 25.4 / 72)


@pytest.mark.slow
def test_no_puzzle_goes_past_its_box_in_a_browser(tmp_path):
    """Laid out by a headless Chromium, where there is one: no puzzle's box holds more than it
    shows (a box cuts off what goes past it), the collection's nor those of long hands."""
    import shutil
    import subprocess
    from dataclasses import replace

    from solver.cards import parse_hand

    from cli.sheet import facts_of, html_sheet

    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                                   "google-chrome"))), None)
    if browser is None:
        pytest.skip("no headless browser to lay the sheet out")
    facts = [facts_of(load_puzzle(path), path.name) for path in sorted(COLLECTION.glob("*.toml"))]
    long = ["AKQ.432.432.432", "65.AKQJT9.65.65", "87.87.AKQJT9.87", "JT9.5.87.AKQJT9",
            "AKQJT98765432...", "...AKQJT98765432"]
    facts += [replace(facts[5], hands=tuple(parse_hand(h) for h in long[:4]), trump=trump)
              for trump in range(4)]
    facts.append(replace(facts[5], hands=(facts[5].hands[0], parse_hand(long[4]),
                                          facts[5].hands[2], parse_hand(long[5])), trump=0))
    script = ("<script>addEventListener('load', () => document.body.dataset.over = "
              "[...document.querySelectorAll('.puzzle')].filter(p => p.scrollHeight > "
              "p.clientHeight + 1 || p.scrollWidth > p.clientWidth + 1).map(p => "
              "p.querySelector('h2').textContent).join('|') + '/' + "
              "document.querySelectorAll('.puzzle').length)</script></body>")
    sheet = tmp_path / "sheet.html"
    sheet.write_text(html_sheet(facts, "Sheet", True).replace("</body>", script),
                     encoding="utf-8")
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                          "--dump-dom", sheet.as_uri()], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert re.search(r'data-over="([^"]*)"', dom)[1] == f"/{len(facts)}"


@pytest.mark.slow
def test_a_sheet_printed_has_four_puzzles_to_every_page(tmp_path):
    """Printed to PDF by a headless Chromium, where there is one: four puzzles on the first
    page, under the heading, and on every page after it but the last."""
    import shutil
    import subprocess

    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                                   "google-chrome"))), None)
    if browser is None or shutil.which("pdftotext") is None:
        pytest.skip("no headless browser or pdftotext to print the sheet")
    sheet = tmp_path / "sheet.html"
    sheet.write_text(run("puzzle", "show", COLLECTION, "--format", "html", "--title",
                         "A title long enough to take two lines of the sheet's heading, or "
                         "nearly").stdout, encoding="utf-8")
    pdf = tmp_path / "sheet.pdf"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                    "--no-pdf-header-footer", f"--print-to-pdf={pdf}", sheet.as_uri()],
                   capture_output=True, timeout=120, check=True)
    text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True,
                          check=True).stdout
    held = [len(re.findall(r"(?m)^\d{3}\. ", page)) for page in text.split("\f") if page.strip()]
    count = len(sorted(COLLECTION.glob("*.toml")))
    assert sum(held) == count and held == [4] * (len(held) - 1) + [held[-1]], held


def test_svg_draws_one_puzzle_only(tmp_path, puzzles):
    for n, puzzle in puzzles.items():
        (tmp_path / f"00{n}-mined.toml").write_text(puzzle.to_toml(), encoding="utf-8")
    assert_one_error_line(run("puzzle", "show", tmp_path, "--format", "svg"),
                          "--format svg draws one puzzle, not 3")
    assert_one_error_line(run("puzzle", "show", tmp_path / "nothing"), "no such file")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert_one_error_line(run("puzzle", "show", empty), "no puzzle files")


# ---- check --------------------------------------------------------------------------------------

def test_check_says_when_the_themes_are_not_the_ones_the_line_shows(tmp_path):
    """A puzzle file that lists its themes must list the ones its line shows, no more and no
    fewer; one without the key is not asked."""
    text = (COLLECTION / "012-the-five-falls.toml").read_text(encoding="utf-8")
    assert 'themes = ["catch-the-five", "duck"]' in text
    for name, themes in [("001-more", '["catch-the-five", "duck", "endplay"]'),
                         ("002-fewer", '["duck"]'), ("003-right", '["catch-the-five", "duck"]'),
                         ("006-in-any-order", '["duck", "catch-the-five"]')]:
        (tmp_path / f"{name}.toml").write_text(
            text.replace('themes = ["catch-the-five", "duck"]', f"themes = {themes}"))
    (tmp_path / "004-none.toml").write_text(
        text.replace('themes = ["catch-the-five", "duck"]\n', ""))
    (tmp_path / "005-empty.toml").write_text(
        text.replace('themes = ["catch-the-five", "duck"]', "themes = []"))
    result = run("puzzle", "check", tmp_path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{tmp_path / '001-more.toml'}: puzzle.themes: the file lists catch-the-five, duck, endplay; "
        f"the line shows catch-the-five, duck",
        f"{tmp_path / '002-fewer.toml'}: puzzle.themes: the file lists duck; the line shows "
        f"catch-the-five, duck",
        f"{tmp_path / '005-empty.toml'}: puzzle.themes: the file lists none; the line shows "
        f"catch-the-five, duck",
        "6 puzzles checked: 3 problems in 3."]


def test_check_holds_the_rating_and_solved_by_to_the_evidence(tmp_path):
    """The rating is worked out from the evidence, and solved_by is the ladder players it says
    solved the puzzle; a sound puzzle defeats the heuristic."""
    text = (COLLECTION / "012-the-five-falls.toml").read_text(encoding="utf-8")
    solved = 'solved_by = ["search-200", "search-2000", "cheater"]'
    for name, old, new in [
            ("001-rating", "rating = 1564", "rating = 3999"),
            ("002-heuristic", solved, 'solved_by = ["random", "heuristic"]'),
            ("003-fewer", solved, 'solved_by = ["cheater"]'),
            ("004-evidence", "solved_pimc_8 = 0", "solved_pimc_8 = 8"),
            ("005-right", "", ""),
            ("006-in-any-order", solved, 'solved_by = ["cheater", "search-2000", "search-200"]')]:
        assert old in text
        (tmp_path / f"{name}.toml").write_text(text.replace(old, new))
    evidence = dict(load_puzzle(tmp_path / "004-evidence.toml").evidence)
    changed = rating_of(evidence)
    assert evidence["solved_pimc_8"] == evidence["pimc_tries"] == 8 and changed != 1564
    lines = run("puzzle", "check", tmp_path).stdout.splitlines()
    assert lines == [
        f"{tmp_path / '001-rating.toml'}: puzzle.rating: 3999, where its evidence gives 1564",
        f"{tmp_path / '002-heuristic.toml'}: puzzle.solved_by: names the heuristic, which a sound "
        f"puzzle defeats",
        f"{tmp_path / '002-heuristic.toml'}: puzzle.solved_by: random, heuristic, where its evidence "
        f"gives search-200, search-2000, cheater",
        f"{tmp_path / '003-fewer.toml'}: puzzle.solved_by: cheater, where its evidence gives "
        f"search-200, search-2000, cheater",
        f"{tmp_path / '004-evidence.toml'}: puzzle.rating: 1564, where its evidence gives {changed}",
        f"{tmp_path / '004-evidence.toml'}: puzzle.solved_by: search-200, search-2000, cheater, where "
        f"its evidence gives search-200, search-2000, pimc-8, cheater",
        "6 puzzles checked: 6 problems in 4."]


@pytest.mark.parametrize("key", ["tempting", "real_choices", "nodes", "solved_pimc_2"])
def test_evidence_cut_short_is_named_where_the_rating_needs_it(tmp_path, key):
    """A rating needs every key of the evidence; solved_by the ladder's alone.  A missing
    tempting or nodes was blamed on the rating, and a missing real_choices passed."""
    text = (COLLECTION / "012-the-five-falls.toml").read_text(encoding="utf-8")
    cut = re.sub(rf"(?m)^{key} = .*\n", "", text)
    assert cut != text
    (tmp_path / "p.toml").write_text(cut)
    held = "rating and solved_by" if key.startswith("solved_") else "rating"
    assert run("puzzle", "check", tmp_path / "p.toml").stdout.splitlines() == [
        f"{tmp_path / 'p.toml'}: puzzle.evidence: no {key}: {held} cannot be held to it",
        "1 puzzle checked: 1 problem in 1."]
    # without a rating (and solved_by) there is nothing to hold
    (tmp_path / "p.toml").write_text(re.sub(r"(?m)^(rating|solved_by) = .*\n", "", cut))
    assert run("puzzle", "check", tmp_path / "p.toml").exit_code == 0


def test_evidence_out_of_range_is_one_line_and_check_goes_on(tmp_path):
    """Nodes of -1000 made the rating a logarithm of a negative number: a traceback, and the
    check of a folder stopped there."""
    text = (COLLECTION / "012-the-five-falls.toml").read_text(encoding="utf-8")
    nodes = re.search(r"(?m)^nodes = .*$", text)[0]
    (tmp_path / "001-bad.toml").write_text(text.replace(nodes, "nodes = -1000"))
    (tmp_path / "002-good.toml").write_text(text)
    result = run("puzzle", "check", tmp_path)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert result.stdout.splitlines() == [
        f"{tmp_path / '001-bad.toml'}: puzzle.evidence.nodes: expected a whole number from 0, "
        f"not -1000",
        "1 puzzle checked, 1 not read as one: 1 problem in 1."]
    assert_one_error_line(run("puzzle", "play", tmp_path / "001-bad.toml", input=""),
                          "001-bad.toml: puzzle.evidence.nodes: expected a whole number from 0")


def test_a_folder_skips_hidden_files_and_names_a_link_to_nothing(tmp_path):
    """A dotfile (an editor's backup, a copy put aside) is not one of the puzzles; a link to
    nothing is not skipped without a word: it is a problem ``check`` counts, and an error for
    ``show`` and ``index``."""
    text = (COLLECTION / "012-the-five-falls.toml").read_text(encoding="utf-8")
    (tmp_path / ".hidden.toml").write_text(text.replace("The five falls", "Hidden"))
    (tmp_path / "002-good.toml").write_text(text)
    (tmp_path / "001-x.toml").symlink_to(tmp_path.parent / "nowhere.toml")
    result = run("puzzle", "check", tmp_path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{tmp_path / '001-x.toml'}: a link to nothing ({tmp_path.parent / 'nowhere.toml'})",
        "1 puzzle checked, 1 not read as one: 1 problem in 1."]
    for command in ("show", "index"):
        assert_one_error_line(run("puzzle", command, tmp_path), "001-x.toml: a link to nothing")
    (tmp_path / "001-x.toml").unlink()
    index = run("puzzle", "index", tmp_path).stdout
    assert "1 puzzle." in index and "Hidden" not in index


def test_an_empty_file_says_so(tmp_path):
    for name, text in [("e.toml", ""), ("c.toml", "# a comment only\n\n")]:
        (tmp_path / name).write_text(text)
        result = run("puzzle", "check", tmp_path / name)
        assert result.stdout.splitlines()[0] == f"{tmp_path / name}: empty: no puzzle in it"
        assert_one_error_line(run("puzzle", "show", tmp_path / name), "empty: no puzzle in it")
    result = run("puzzle", "check", "-", input="")
    assert result.stdout.splitlines()[0] == "<stdin>: empty: no puzzle in it"
    # told by the name alone, as a worker process is given it (with no state of the parent's)
    from cli.puzzlefiles import load_named
    from cli.puzzling import problems_of

    assert problems_of("<stdin>", "# c\n") == (False, ["<stdin>: empty: no puzzle in it"])
    assert problems_of("<stdin>#2", "# c\n")[1][0].startswith("<stdin>#2: no puzzle: nothing "
                                                               "but")
    with pytest.raises(AllFivesError, match="No such file"):   # not an OSError
        load_named(tmp_path / "missing.toml")


def test_check_counts_no_file_that_is_no_puzzle_as_a_puzzle_checked():
    """Deal files without a [puzzle] table were '5 puzzles checked: 5 problems in 5.'"""
    files = sorted(EXAMPLES.glob("*.toml"))
    result = run("puzzle", "check", *files)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == \
        f"0 puzzles checked, {len(files)} not read as puzzles: {len(files)} problems in " \
        f"{len(files)}."


def test_check_says_every_problem_on_its_own_line(tmp_path, puzzles):
    good = puzzles[2]
    (tmp_path / "001-good.toml").write_text(good.to_toml(), encoding="utf-8")
    high = Puzzle(good.position, good.side, "points", good.target + 1, good.line, "High")
    (tmp_path / "002-high.toml").write_text(high.to_toml(), encoding="utf-8")
    short = Puzzle(good.position, good.side, "points", good.target, good.line[:1], "Short")
    (tmp_path / "003-short.toml").write_text(short.to_toml(), encoding="utf-8")
    (tmp_path / "004-broken.toml").write_text("[puzzle]\nside = 3\n", encoding="utf-8")
    result = run("puzzle", "check", tmp_path)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    expected = {
        "002-high.toml": check_puzzle(high),
        "003-short.toml": check_puzzle(short),
    }
    for name, problems in expected.items():
        assert problems
        for problem in problems:
            assert f"{tmp_path / name}: {problem}" in lines
    assert sum(1 for line in lines if "001-good.toml" in line) == 0
    assert sum(1 for line in lines if "004-broken.toml" in line) == 1
    bad = sum(len(p) for p in expected.values()) + 1
    assert lines[-1] == f"3 puzzles checked, 1 not read as one: {bad} problems in 3."
    assert len(lines) == bad + 1


def test_check_of_sound_puzzles_in_worker_processes(tmp_path, puzzles):
    for n, puzzle in puzzles.items():
        (tmp_path / f"00{n}-mined.toml").write_text(puzzle.to_toml(), encoding="utf-8")
    for jobs in ([], ["--jobs", "2"]):
        result = run("puzzle", "check", tmp_path, *jobs)
        assert result.exit_code == 0, result.stdout
        assert result.stdout == "3 puzzles checked: all sound.\n"


# ---- generate -----------------------------------------------------------------------------------

def test_names_are_numbers_and_titles():
    assert slug("Draw trumps first!") == "draw-trumps-first"
    assert slug("  ") == "puzzle"


def test_a_folder_s_puzzles_come_in_the_order_of_their_numbers(tmp_path):
    text = (COLLECTION / "012-the-five-falls.toml").read_text(encoding="utf-8")
    for name in ("1000-late.toml", "999-early.toml", "0998-earlier.toml", "plain.toml"):
        (tmp_path / name).write_text(text, encoding="utf-8")
    index = run("puzzle", "index", tmp_path).stdout
    order = [m for m in re.findall(r"\]\(([^)]+)\)", index) if m.endswith(".toml")]
    assert order == ["0998-earlier.toml", "999-early.toml", "1000-late.toml", "plain.toml"]


def test_fewer_turns_than_a_sound_puzzle_has_are_refused():
    result = run("puzzle", "generate", "--min-turns", "1")
    assert result.exit_code == 2 and "--min-turns" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not result.stdout


def test_bad_options_are_one_line():
    from solver.puzzles import THEMES

    assert_one_error_line(run("puzzle", "generate", "--rules", "nonsense"), "nonsense")
    assert assert_one_error_line(run("puzzle", "generate", "--theme", "nonsense")) == (
        f"allfives: error: --theme: unknown theme 'nonsense' (expected one of "
        f"{', '.join(THEMES)})")
    assert_one_error_line(run("puzzle", "generate", "--players", "5"), "--players")


def test_ctrl_c_at_the_prompt_ends_with_status_130(tmp_path, puzzles):
    import signal
    import subprocess
    import time

    from clirun import PROGRAM

    path = tmp_path / "001-mined.toml"
    path.write_text(puzzles[2].to_toml(), encoding="utf-8")
    program = subprocess.Popen([str(PROGRAM), "puzzle", "play", str(path)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        program.stdin.write("hint\n")
        program.stdin.flush()
        deadline = time.monotonic() + 60
        seen = ""
        while seen.count("'s card: ") < 2 and time.monotonic() < deadline:
            seen += program.stdout.read(1)  # the second prompt: waiting for a line
        program.send_signal(signal.SIGINT)
        out, err = program.communicate(timeout=10)
    finally:
        if program.poll() is None:
            program.kill()
    assert program.returncode == 130
    assert err == "allfives: interrupted\n"
    assert "Traceback" not in seen + out


# ---- generate, and play --random --------------------------------------------------------------

def test_generate_is_seeded_and_numbers_its_files(tmp_path):
    out = tmp_path / "made"
    first = run("puzzle", "generate", "--count", "2", "--seed", "5", "--out", out)
    assert first.exit_code == 0, first.stderr
    paths = [Path(line) for line in first.stdout.splitlines()]
    assert [p.name[:4] for p in paths] == ["001-", "002-"]
    texts = [p.read_text(encoding="utf-8") for p in paths]
    for path in paths:
        puzzle = load_puzzle(path)
        assert path.name == f"{path.name[:3]}-{slug(puzzle.title)}.toml"
        assert puzzle.seed.startswith("5/")
    # the same seed again makes the same puzzles, which are not written twice
    again = run("puzzle", "generate", "--count", "2", "--seed", "5", "--out", out)
    assert again.stdout == "" and again.stderr.count("is this puzzle already") == 2
    more = run("puzzle", "generate", "--count", "2", "--seed", "6", "--out", out)
    assert [Path(line).name[:4] for line in more.stdout.splitlines()] == ["003-", "004-"]
    piped = run("puzzle", "generate", "--count", "2", "--seed", "5")
    assert piped.stdout.split("# ---\n") == texts
    # a puzzle's own seed makes it again
    second = load_puzzle(paths[1]).seed
    assert run("puzzle", "generate", "--seed", second).stdout == texts[1]
    for bad in ["5/", "/3", "5/x", "-1/2", "5/3/1", "５", "1" * 5000, "1/" + "2" * 5000]:
        assert_one_error_line(run("puzzle", "generate", "--seed", bad), "is not a seed", "S/K")
    checked = run("puzzle", "check", out)
    assert checked.stdout == "4 puzzles checked: all sound.\n"
    # what generate writes to standard output the other commands read: FILE#N each
    several = tmp_path / "several.toml"
    several.write_text(piped.stdout, encoding="utf-8")
    assert run("puzzle", "check", several).stdout == "2 puzzles checked: all sound.\n"
    assert run("puzzle", "check", f"{several}#2").stdout == "1 puzzle checked: all sound.\n"
    index = run("puzzle", "index", several).stdout     # a link to the file: #1 is no anchor
    rows = [line.split(" | ")[:2] for line in index.splitlines() if "](" in line]
    assert rows == [["| 1", f"[{load_puzzle(paths[0]).title}](several.toml) (#1)"],
                    ["| 2", f"[{load_puzzle(paths[1]).title}](several.toml) (#2)"]]
    numbered = tmp_path / "012-set.toml"       # a numbered file's puzzles: 012#1, 012#2
    numbered.write_text(re.sub(r'title = ".*"\n', "", piped.stdout, count=1), encoding="utf-8")
    rows = [line for line in run("puzzle", "index", numbered).stdout.splitlines()
            if line.startswith("| 012")]
    assert [row.split(" | ")[:2] for row in rows] == [
        ["| 012#1", "[012-set#1](012-set.toml) (#1)"],
        ["| 012#2", f"[{load_puzzle(paths[1]).title}](012-set.toml) (#2)"]]
    shown = run("puzzle", "show", f"{several}#2").stdout
    assert shown.split("\n", 1)[1] == run("puzzle", "show", paths[1]).stdout.split("\n", 1)[1]
    assert_one_error_line(run("puzzle", "check", f"{several}#3"),
                          f"{several}#3: no puzzle 3: the file holds 2 puzzles")
    for tail in ("x", "-1", ""):    # the file is there: not 'no such file or folder'
        assert_one_error_line(run("puzzle", "show", f"{several}#{tail}"),
                              f"{several}#{tail}: no such file, and #{tail} is not a puzzle "
                              f"number (FILE#N counts the puzzles of a file from 1)")
    # the one puzzle of a file of one is #1 too, as solve's FILE#1 is
    assert run("puzzle", "check", f"{paths[0]}#1").stdout == "1 puzzle checked: all sound.\n"
    assert run("puzzle", "show", f"{paths[0]}#01").stdout == \
        run("puzzle", "show", paths[0]).stdout      # its number and title too
    assert_one_error_line(run("puzzle", "show", f"{paths[0]}#2"),
                          f"{paths[0]}#2: no puzzle 2: the file holds 1 puzzle")
    # a file that holds no puzzles says what it holds, not a count of puzzles it has not
    deals = tmp_path / "deals.toml"
    deals.write_text(run("deal", "--players", "2", "--count", "3").stdout, encoding="utf-8")
    record = EXAMPLES / "match.jsonl"
    for name, said in [(f"{deals}#4", f"{deals}#1: no [puzzle] table"),
                       (f"{record}#2", f"{record}: not TOML: Invalid statement (at line 1, "
                                       f"column 1); it starts like JSON")]:
        assert run("puzzle", "show", name).stderr.startswith(f"allfives: error: {said}")
    # where it holds puzzles, one of them bad, the count is said still, not that one's mistake
    bad = tmp_path / "bad.toml"
    bad.write_text(paths[0].read_text(encoding="utf-8") + "# ---\n" + re.sub(
        r'objective = ".*"', 'objective = "bogus"', paths[1].read_text(encoding="utf-8")),
        encoding="utf-8")
    assert_one_error_line(run("puzzle", "show", f"{bad}#5"),
                          f"{bad}#5: no puzzle 5: the file holds 2 puzzles")
    assert_one_error_line(run("puzzle", "play", several, input="quit\n"),
                          f"{several}: a file of 2 puzzles: name one, as {several}#1")
    # a '# ---' line too many leaves a puzzle that is none
    several.write_text(piped.stdout + "# ---\n", encoding="utf-8")
    assert run("puzzle", "check", several).stdout.splitlines()[0] == (
        f"{several}#3: no puzzle: nothing but blank lines and comments (a '# ---' line too "
        f"many?)")
    # a puzzle of several is named so, its lines counted through the whole file
    at = piped.stdout.rindex('side = "')
    broken = piped.stdout[:at] + "side = = 1\n" + piped.stdout[at:]
    several.write_text(broken, encoding="utf-8")
    line = broken[:at].count("\n") + 1
    problems = run("puzzle", "check", several)
    assert problems.exit_code == 1 and problems.stdout.startswith(
        f"{several}#2: not TOML: Invalid value (at line {line}, column 8)\n")


def test_play_random_shows_its_seed(tmp_path):
    result = run("puzzle", "play", "--random", "--players", "3", "--seed", "2",
                 input="solution\n")
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert "3 players" in first and first.endswith(" · seed 2)")
    assert result.stdout.splitlines()[-2] == "Not solved (the solution shown)."
    # the seed shown is the one --seed takes: without it, a fresh one, shown to be typed back
    fresh = run("puzzle", "play", "--random", "--players", "3", input="solution\n").stdout
    seed = re.search(r" · seed (\d+)\)$", fresh.splitlines()[0])[1]
    again = run("puzzle", "play", "--random", "--players", "3", "--seed", seed,
                input="solution\n").stdout
    assert again == fresh


def test_two_runs_writing_into_one_folder_number_apart_and_write_no_puzzle_twice(tmp_path,
                                                                                    capsys):
    """Two runs into one folder at once had each numbered their files from what was there as
    they began (two files 010-..., one puzzle written over another), and wrote a puzzle the
    other had just written: each looks at the folder again as it writes (here two writers in
    turn; between processes the folder's lock keeps the look and the write together)."""
    from cli.puzzling import _Writer

    first, second = (load_puzzle(COLLECTION / name)
                     for name in ("001-save-the-ten.toml", "006-ruff-the-ten.toml"))
    one, two = _Writer(tmp_path, False), _Writer(tmp_path, False)
    one(first)
    two(first)
    two(second)
    one(second)
    assert sorted(p.name[:4] for p in tmp_path.iterdir()) == ["001-", "002-"]
    written = capsys.readouterr()
    assert written.out.count(str(tmp_path)) == 2
    assert written.err.count("is this puzzle already: not written again") == 2


def test_out_as_a_link_to_nothing_says_so(tmp_path):
    """--out naming a link to nothing (or a loop of links) said 'cannot make DIR: File
    exists'."""
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere" / "x")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for name, why in (("gone", "No such file or directory"),
                      ("loop", "Too many levels of symbolic links")):
        for command in (["generate"], ["make", "N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H"]):
            assert_one_error_line(run("puzzle", *command, "--out", tmp_path / name),
                                  f"--out: {tmp_path / name} is a link that leads to no "
                                  f"folder: {why}")


def test_generate_stops_after_its_tries_with_what_it_found():
    """--tries N tries candidates S/0 .. S/N-1 and no more: fewer puzzles than asked is a note
    and status 1; enough tries give what the search without them gives."""
    whole = run("puzzle", "generate", "--count", "2", "--seed", "1")
    assert whole.exit_code == 0, whole.stderr
    seeds = re.findall(r'^seed = "1/(\d+)"$', whole.stdout, re.M)
    last = int(seeds[-1])
    short = run("puzzle", "generate", "--count", "2", "--seed", "1", "--tries", last)
    assert short.exit_code == 1
    assert short.stdout == whole.stdout.split("# ---\n")[0]
    assert short.stderr == f"allfives: 1 of 2 puzzles found in {last:,} deals tried\n"
    enough = run("puzzle", "generate", "--count", "2", "--seed", "1", "--tries", last + 1)
    assert (enough.exit_code, enough.stdout, enough.stderr) == (0, whole.stdout, "")
    # begun at a candidate, the tries count from it
    later = run("puzzle", "generate", "--seed", f"1/{seeds[0]}", "--tries", 1)
    assert later.exit_code == 0 and later.stdout == short.stdout
    assert_one_error_line(run("puzzle", "generate", "--tries", "0"), "--tries", "less than 1")


def test_play_random_takes_a_seed_as_generate_does():
    """``S/K``, the seed a puzzle file keeps, makes that puzzle at the console as ``generate
    --seed S/K`` makes its file, and the title line names it so, to be typed back."""
    from cli.puzzling import play_command

    text = run("puzzle", "generate", "--seed", "3/7").stdout
    made = Puzzle.from_toml(text)
    out, buffer = console()
    play_command(None, True, 2, "all-fives", None, "3/7", False, io.StringIO("solution\n"),
                 out)
    first = buffer.getvalue().splitlines()[0]
    assert first.startswith(f"{made.title}  (") and first.endswith(f" · seed {made.seed})")
    assert made.seed == "3/7"
    with pytest.raises(AllFivesError, match="--seed: '3/x' is not a seed"):
        play_command(None, True, 2, "all-fives", None, "3/x", False, io.StringIO(""), out)
    # and so from the command line
    played = run("puzzle", "play", "--random", "--seed", "3/7", input="quit\n")
    assert played.exit_code == 0 and played.stdout.splitlines()[0] == first
    # a seed alone too: the first puzzle generate makes of it (seed 2's has two turns, the
    # fewest: the search asks for no more than generate does)
    made = Puzzle.from_toml(run("puzzle", "generate", "--seed", "2").stdout)
    played = run("puzzle", "play", "--random", "--seed", "2", input="quit\n")
    assert played.stdout.splitlines()[0] == (f"{made.title}  (2 players · all-fives · rating "
                                             f"{made.rating} · seed 2)")
    assert run("puzzle", "play", "--random", "--seed", "-1").stderr == (
        "allfives: error: --seed: '-1' is less than 0 (see 'allfives puzzle play --help')\n")


def test_a_wrong_card_in_a_match_puzzle():
    path = next(p for p in sorted(COLLECTION.glob("*.toml"))
                if load_puzzle(p).objective == "win")
    puzzle = load_puzzle(path)
    start = puzzle.position
    moves = Solver().solve(start, puzzle.side, "win").moves
    wrong = next(c for c in start.legal_moves() if moves[c] < 1)
    answers = iter([card_str(wrong), None])
    result, text, _ = solve_session(puzzle, lambda s, k: next(answers), path.name)
    assert f"{card_str(wrong, True)} fails: the defence stops the match being won in this " \
           f"deal." in text
    assert "win the match in this deal" in text and "Match: " in text
    assert result.wrong == 1 and not result.solved


#: A peg-out puzzle (``generate --players 2 --theme peg-out --seed 1/341``) whose first trick
#: pegged South 5 (the Five), from 54 of the deal's score to 59.
PEGGED_IN_PLAY = """\
dealer = "S"
trump = "C"
turnup = "3C"
play = ["7S", "5C"]

[hands]
N = "7S QH KD TD 9D 9C"
S = "QD 8D 7D 2D 5C 2C"

[score]
N = 55
S = 54

[puzzle]
side = "S"
objective = "win"
target = 1
line = ["2C", "9C", "QH", "8D", "KD", "7D", "TD", "QD"]
title = "Peg out"
themes = ["draw-trumps", "peg-out", "long"]
rating = 1497
seed = "1/341"
solved_by = ["search-200", "search-2000", "pimc-8", "cheater"]

[puzzle.evidence]
solved_random = 2
solved_heuristic = 0
solved_search_200 = 1
solved_pimc_2 = 0
solved_search_2000 = 1
solved_pimc_8 = 1
solved_cheater = 1
real_choices = 4
wrong = 5
tempting = 5
nodes = 180
"""


def test_a_match_puzzle_s_score_is_the_score_now(tmp_path):
    """The match score a puzzle shows counts what the tricks already played have pegged, as
    ``advise`` does, in every form and in ``play`` (it was the score before the deal: S 54)."""
    path = tmp_path / "pegout.toml"
    path.write_text(PEGGED_IN_PLAY, encoding="utf-8")
    said = "Match: N 55, S 59 (+5 this deal); 61 to win (first to peg out)."
    assert said in run("puzzle", "show", path).stdout.splitlines()
    assert said in run("puzzle", "play", path, input="quit\n").stdout.splitlines()
    assert f'<p class="situation">{said}</p>' in \
        run("puzzle", "show", path, "--format", "html").stdout
    root = ET.fromstring(run("puzzle", "show", path, "--format", "svg").stdout)
    words = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert said in words


def test_the_progress_bar_counts_a_puzzle_before_it_is_written():
    """The bar is drawn again as soon as a puzzle is made, not at its next tick: it read 0/3
    with the first file's name printed under it."""
    from cli.puzzling import progress_bar

    screen = io.StringIO()
    terminal = Console(file=screen, width=80, force_terminal=True)
    with progress_bar(terminal, 3, "puzzles") as advance:
        advance(7, 1)
        assert "1/3" in screen.getvalue()
        advance(8, 2)
        assert "2/3" in screen.getvalue()


def test_the_progress_bar_keeps_the_puzzles_found_on_a_narrow_screen():
    """At 40 columns the line showed only the description and '…': the bar goes first, then
    the time, then the description is cut short; the count of puzzles found stays whole.  At
    every width from 20 to 130 the line is the widest of these that fits, three columns short
    of the screen's edge (room for the ^C a terminal echoes), the bar 10 to 40 wide."""
    from cli.puzzling import progress_bar

    said = "4-player puzzles (1,234 deals tried)"
    for width in range(20, 131):
        screen = io.StringIO()
        terminal = Console(file=screen, width=width, force_terminal=True, color_system=None)
        with progress_bar(terminal, 3, "4-player puzzles") as advance:
            advance(1234, 2)
            plain = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", screen.getvalue())
        line = [part for part in re.split(r"[\r\n]", plain) if part.strip()][-1].rstrip()
        room = max(width - 3, 20)
        time = r"\d+:\d\d:\d\d"
        if room >= len(said) + 1 + 10 + 1 + 3 + 1 + 7:
            bar = min(40, room - len(said) - 13)
            expected = rf"{re.escape(said)} [━╸╺ ]{{{bar}}} 2/3 {time}"
        elif room >= len(said) + 1 + 3 + 1 + 7:
            expected = rf"{re.escape(said)} 2/3 {time}"
        elif room >= len(said) + 4:
            expected = rf"{re.escape(said)} 2/3"
        else:
            expected = rf"{re.escape(said[:room - 5])}… 2/3"
        assert re.fullmatch(expected, line), (width, line)


def test_the_progress_bar_is_for_a_terminal_only(tmp_path):
    from cli.puzzling import progress_bar

    piped = Console(file=io.StringIO(), width=80)
    with progress_bar(piped, 3, "puzzles") as advance:
        assert advance is None
    screen = io.StringIO()
    terminal = Console(file=screen, width=80, force_terminal=True)
    with progress_bar(terminal, 3, "puzzles") as advance:
        advance(7, 2)
        advance(9, 3)
    assert "9 deals tried" in screen.getvalue()
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    assert_one_error_line(run("puzzle", "generate", "--out", tmp_path / "a-file"),
                          "is a file, not a folder")


def test_make_takes_a_record_s_deal_at_its_first_card():
    """``make RECORD#N`` examines deal N as it was dealt, at its first card (as ``solve``
    reads a record), not after its last card, where no card is left to play."""
    name = f"{EXAMPLES / 'match.jsonl'}#1"
    result = run("puzzle", "make", name)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (f"allfives: {name}: no puzzle (points): 5 different cards reach "
                             f"the target at the first turn\n")


def test_an_out_folder_that_cannot_be_made_says_why(tmp_path, monkeypatch):
    """--out naming a folder the system will not make (a full disk, a folder of another's):
    one line with the system's reason, before the search."""
    real = Path.mkdir

    def mkdir(self, *args, **options):
        if self == tmp_path / "new":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, *args, **options)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    assert_one_error_line(run("puzzle", "generate", "--out", tmp_path / "new"),
                          f"--out: cannot make {tmp_path / 'new'}: No space left on device")


@pytest.mark.parametrize("denied", ["W_OK", "X_OK"])
def test_an_out_folder_that_cannot_be_written_to_is_refused_before_the_search(tmp_path,
                                                                             monkeypatch,
                                                                             denied):
    # once: the search for the first puzzle, then 'Permission denied' (the tests run as root,
    # whom every folder lets write: the folder's answer is the one the program asks for); a
    # folder that lets one read its names but not add a file (W_OK), or add but not reach it
    # (X_OK), takes none
    import os

    folder = tmp_path / "kept"
    folder.mkdir()
    asked, access = [], os.access

    def refused(path, mode, **options):     # (this folder alone: every other path as it is)
        if Path(path) != folder:
            return access(path, mode, **options)
        asked.append(path)
        return not mode & getattr(os, denied)

    monkeypatch.setattr(os, "access", refused)
    start = time.perf_counter()
    assert_one_error_line(run("puzzle", "generate", "--out", folder, "--seed", "1"),
                          f"--out: {folder}: the folder cannot be written to")
    assert asked == [folder] and time.perf_counter() - start < 5


@pytest.mark.parametrize("players,rules,most", [(2, "all-fives", 11), (3, "classic", 14),
                                                (4, "all-fives", 22), (2, "classic", 20)])
def test_more_turns_than_a_deal_holds_are_refused_at_once(players: int, rules: str,
                                                          most: int):
    # --min-turns 99 once mined candidates for ever: no deal gives a side that many choices
    start = time.perf_counter()
    result = run("puzzle", "generate", "--players", str(players), "--rules", rules,
                 "--min-turns", str(most + 1))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"allfives: error: --min-turns: {most + 1} turns with a real "
                             f"choice are more than a side has in a deal ({most} at most with "
                             f"{players} players under {rules})\n")
    assert time.perf_counter() - start < 10
    # as many as that is a search, here of one deal
    searched = run("puzzle", "generate", "--players", str(players), "--rules", rules,
                   "--min-turns", str(most), "--tries", "1")
    assert (searched.exit_code, searched.stdout, searched.stderr) == (
        1, "", "allfives: 0 of 1 puzzles found in 1 deal tried\n")


def test_out_makes_its_folder_but_not_a_missing_parent(tmp_path):
    """``--out`` makes the folder named, inside a folder that is there; a folder whose parent
    is missing too (a mistyped path) is refused in one line, and nothing is made."""
    made = run("puzzle", "generate", "--count", "1", "--seed", "5", "--out", tmp_path / "new")
    assert made.exit_code == 0, made.stderr
    assert [p.name for p in (tmp_path / "new").iterdir()] == [Path(made.stdout.strip()).name]
    missing = tmp_path / "nowhere" / "mine"
    line = assert_one_error_line(run("puzzle", "generate", "--seed", "5", "--out", missing),
                                 "--out", "no folder", str(tmp_path / "nowhere"))
    assert "mine" in line and not (tmp_path / "nowhere").exists()


def test_out_makes_its_folder_again_where_another_run_took_it_away(tmp_path, monkeypatch):
    """Two runs into one new folder: the one that made it, stopped before its first puzzle,
    takes it away again, empty; the other's first puzzle could then not be written (a missing
    folder).  It makes the folder again."""
    from cli import puzzling

    out = tmp_path / "new"
    write = puzzling._Writer.__call__

    def after_the_other_run(self, puzzle):
        if not self.made:
            out.rmdir()         # (the other run, stopped, takes its empty folder away)
        write(self, puzzle)

    monkeypatch.setattr(puzzling._Writer, "__call__", after_the_other_run)
    made = run("puzzle", "generate", "--count", "2", "--seed", "5", "--out", out)
    assert made.exit_code == 0, made.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(Path(p).name
                                                           for p in made.stdout.split())


def test_out_lists_its_folder_once_a_puzzle(tmp_path, monkeypatch):
    """Each puzzle written listed the whole folder twice, for the puzzles there and for the
    next number (with 10,000 files there, 44 ms a puzzle): once now, under the folder's lock,
    so that another run's files are still seen."""
    out = tmp_path / "out"
    out.mkdir()
    for k in range(1, 31):
        (out / f"{k:03d}-other.toml").write_text("", encoding="utf-8")
    listed = []
    glob = Path.glob

    def counted(self, pattern):
        if self == out:
            listed.append(pattern)
        return glob(self, pattern)

    monkeypatch.setattr(Path, "glob", counted)
    made = run("puzzle", "generate", "--count", "3", "--seed", "5", "--out", out)
    assert made.exit_code == 0, made.stderr
    assert [Path(p).name[:4] for p in made.stdout.split()] == ["031-", "032-", "033-"]
    assert len(listed) == 1 + 3         # (the first to find the puzzles there)


def test_out_passes_over_what_in_its_folder_is_no_puzzle_file(tmp_path):
    """A FIFO named *.toml in the ``--out`` folder made puzzle make and generate wait for a
    writer for ever; a folder, a link in a loop or to a device, or a file too large to read,
    so named, ended the run before a puzzle was written.  They are passed over, as check
    passes over them."""
    import os

    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "a.toml")
    (out / "sub.toml").mkdir()
    (out / "self.toml").symlink_to("self.toml")
    (out / "z.toml").symlink_to("/dev/zero")
    with open(out / "big.toml", "wb") as big:
        big.truncate(65 * 2**20)
    (out / "broken.toml").write_text("[puzzle\n", encoding="utf-8")
    position = "N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H"
    made = run("puzzle", "make", position, "--out", out)
    assert made.exit_code == 0, made.stderr
    assert Path(made.stdout.strip()).name == "001-save-the-ten.toml"
    again = run("puzzle", "make", position, "--out", out)      # the one written is seen
    assert again.exit_code == 0 and again.stdout == "" and "already" in again.stderr
    generated = run("puzzle", "generate", "--count", "1", "--seed", "3", "--out", out)
    assert generated.exit_code == 0, generated.stderr
    assert Path(generated.stdout.strip()).name.startswith("002-")


@pytest.mark.parametrize("change, problem", [
    (("target = 12", "target = 99"), "the target 99 does not hold against every defence"),
    (('"6H", "TD", "TS"]', '"6H"]'), "the line stops before the solver's last real choice"),
    # themes the line does not show (a hint would name them)
    (('themes = ["save-the-ten", "draw-trumps", "duck"]', 'themes = ["endplay"]'),
     "puzzle.themes: the file lists endplay; the line shows save-the-ten, draw-trumps, duck"),
])
def test_play_refuses_an_unsound_puzzle_in_one_line(tmp_path, change, problem):
    """A puzzle file that ``puzzle check`` would fault cannot be played (its hints and
    refutations would have nothing to stand on): one line, the first problem, status 2."""
    text = (COLLECTION / "001-save-the-ten.toml").read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(change[0], change[1]), encoding="utf-8")
    result = run("puzzle", "play", path, input="hint\nhint\n4s\nsolution\n")
    assert_one_error_line(result, str(path), "not a sound puzzle", problem,
                          "allfives puzzle check")


@pytest.mark.parametrize("change, problem", [
    (('side = "S"', 'side = "N"'), "the solver's side N is not to play at the start (S is)"),
    (("rating = 1370", "rating = 1700"), "puzzle.rating: 1700, where its evidence gives 1370"),
    (('solved_by = ["search-200"', 'solved_by = ["heuristic", "search-200"'),
     "puzzle.solved_by: names the heuristic"),
])
@pytest.mark.parametrize("command", [("show",), ("show", "--format", "html", "--solution"),
                                     ("show", "--format", "svg"), ("index",)])
def test_show_and_index_make_the_checks_that_need_no_solve(tmp_path, change, problem, command):
    """What ``play`` would refuse without solving anything (the side to play, the file's record
    of its rating) ``show`` and ``index`` refuse too, in the same words, rather than print a
    puzzle that is none; the rest needs the engine and stays ``check``'s."""
    text = (COLLECTION / "001-save-the-ten.toml").read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(change[0], change[1]), encoding="utf-8")
    message = assert_one_error_line(run("puzzle", *command, path), str(path),
                                    "not a sound puzzle", problem, "allfives puzzle check")
    assert message == assert_one_error_line(run("puzzle", "play", path, input=""))


@pytest.mark.parametrize("theme, preset, why", [
    ("ruff-the-ten", "strict", "suit led must be followed"),
    ("catch-the-five", "all-fours", "trump Five is worth nothing"),
    ("jack-hunt", "classic", "no point for the Jack"),
    ("game-by-a-pip", "classic", "no Game"),
    ("sacrifice", "all-fours:jack=false", "no card gives points to the side that wins its trick"),
    (None, "all-fours:high=false,low=false,jack=false,game=false", "nothing the play does scores"),
    ("duck", "classic:capture=false", "nothing the play does scores"),
])
def test_a_theme_the_rules_never_allow_is_refused_at_once(theme, preset, why):
    """Mining for a theme that cannot occur under the rules, or for any puzzle under rules in
    which the play scores nothing, would never end: one line (the rules with their options)."""
    from solver.rules import Rules

    words = rules_words(Rules.from_spec(preset))
    asked = ["--theme", theme] if theme else []
    for command in (["generate"], ["play", "--random"]):
        result = run("puzzle", *command, *asked, "--rules", preset, "--seed", "1")
        assert_one_error_line(result, *(asked or ["--rules: no puzzle can be found"]), words, why)


@pytest.mark.parametrize("name, turned", [("001-save-the-ten.toml", True),
                                          ("002-catch-the-five.toml", True),
                                          ("001-save-the-ten.toml", False)])
def test_svg_and_html_show_the_turn_up_as_the_text_view_does(tmp_path, name, turned):
    """The card turned up to fix trumps is in the middle of the table in every form; a deal
    whose trumps were named without one shows none."""
    from cli.sheet import face

    path = COLLECTION / name
    if not turned:  # the same puzzle with its trump suit named, not turned up
        text = re.sub(r'(?m)^turnup = ".*"\n', "", path.read_text("utf-8"))
        assert text != path.read_text("utf-8")
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
    deal = load_puzzle(path).position.deal
    assert (deal.turnup is not None) == turned
    shown = run("puzzle", "show", path)
    svg = run("puzzle", "show", path, "--format", "svg").stdout
    html = run("puzzle", "show", path, "--format", "html").stdout
    assert shown.exit_code == 0, shown.stderr
    root = ET.fromstring(svg)
    words = [("".join(t.itertext())) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    plain_html = re.sub(r"<[^>]+>", "", html)
    if turned:
        card = face(deal.turnup)
        assert f"(turn-up {card_str(deal.turnup, True)})" in shown.stdout
        assert f"turn-up {card}" in words, words
        assert f"turn-up {card}" in plain_html
    else:
        assert "turn-up" not in shown.stdout
        assert not any("turn-up" in w for w in words)
        assert "turn-up" not in plain_html
    # the middle box still ends above the name of the hand below it
    svg_ns = "{http://www.w3.org/2000/svg}"
    box = next(r for r in root.iter(f"{svg_ns}rect") if r.get("rx"))
    below = [t for t in root.iter(f"{svg_ns}text") if float(t.get("y")) > float(box.get("y"))
             and "".join(t.itertext()).startswith("South")]
    assert float(box.get("y")) + float(box.get("height")) + 12 <= float(below[0].get("y"))


@pytest.mark.parametrize("players, theme, seed", [(3, "duck", 1), (4, "duck", 2),
                                                  (3, "long", 2), (2, "sacrifice", 1)])
def test_a_puzzle_asked_for_by_theme_is_titled_by_it(tmp_path, players, theme, seed):
    """Seeds whose puzzle shows another theme before the one asked for (``draw-trumps`` before
    ``duck``): the file, its name and the play screen are titled by the theme asked for."""
    from solver.puzzles import THEME_TITLES

    args = ["--players", players, "--theme", theme, "--seed", seed]
    made = run("puzzle", "generate", *args, "--out", tmp_path)
    assert made.exit_code == 0, made.stderr
    (path,) = [Path(line) for line in made.stdout.splitlines()]
    puzzle = load_puzzle(path)
    assert theme in puzzle.themes and puzzle.themes[0] != theme  # the case in point
    assert puzzle.title == THEME_TITLES[theme]
    assert path.name == f"001-{slug(THEME_TITLES[theme])}.toml"
    played = run("puzzle", "play", "--random", *args, input="solution\n")
    assert played.exit_code == 0, played.stderr
    assert played.stdout.splitlines()[0].startswith(THEME_TITLES[theme] + "  ("), played.stdout


def test_goal_shows_the_goal_again_where_a_short_screen_lost_it(puzzles):
    """At 20 rows the goal had scrolled away before the first prompt, and 'goal' was an unknown
    answer: it prints the goal and where the deal stood at the start, and asks again."""
    answers = iter(["goal", None])
    _, text, _ = solve_session(puzzles[2], lambda s, k: next(answers))
    lines = text.splitlines()
    goal = next(line for line in lines if " to play and " in line)
    first, again = [i for i, line in enumerate(lines) if line == goal]
    assert lines[first + 1] == lines[again + 1] and lines[again + 1].startswith("Scoring: ")
    dealt = next(k for k in range(again, len(lines)) if lines[k].startswith("Dealt: "))
    assert lines[first:first + dealt - again + 1] == lines[again:dealt + 1]
    assert "unknown answer" not in text


@pytest.mark.parametrize("width", [60, 100])
def test_help_is_broken_to_the_screen_s_width(puzzles, width):
    answers = iter(["help", None])
    _, text, _ = solve_session(puzzles[2], lambda s, k: next(answers), width=width)
    start = text.index("Type a card of the side")
    said = text[start:text.index("again.", start) + 6]
    lines = said.splitlines()
    assert all(len(line) <= width for line in lines)
    assert max(map(len, lines)) > width - 12  # the width used, not a fixed 80


@pytest.mark.parametrize("group", [False, True], ids=["to-the-program", "to-its-group"])
def test_ctrl_c_ends_a_check_and_its_workers(group):
    """SIGINT to the program alone (as `timeout` and `kill` send it) or to its whole group (a
    terminal's Ctrl-C): status 130 at once, one line, no worker left (a check with --jobs 2
    waited for every file's check before)."""
    psutil = pytest.importorskip("psutil")
    from test_cli_match import interrupted

    workers: list = []

    def at_work(program) -> bool:
        workers[:] = [p for p in psutil.Process(program.pid).children(recursive=True)
                      if p.is_running()]
        return len(workers) >= 2

    many = [str(PUZZLES)] * 8
    status, out, errors = interrupted(["puzzle", "check", *many, "--jobs", "2"], at_work, group)
    assert status == 130
    assert errors == "allfives: interrupted\n"
    gone, alive = psutil.wait_procs(workers, timeout=5)
    assert alive == []


@pytest.mark.parametrize("name, number", [
    ("puzzles/017-draw-before-you-cash.toml", "017"),
    ("017-some.toml#2", "017#2"),
    ("class/week-3.toml#2", "2"),     # a file of several without a number: numbered in it
    ("week-3.toml", ""),
    ("1000-x.toml", "1000"),
    ("<stdin>#2", "2"),               # several puzzles piped in (they had no number)
    ("class/week-3#2", "2"),          # a file of several not named .toml
])
def test_a_puzzle_s_number_on_a_sheet(name, number):
    from cli.sheet import number_of

    assert number_of(name) == number


def test_puzzles_piped_in_are_numbered_on_a_sheet():
    files = sorted(PUZZLES.glob("*.toml"))[:2]
    text = "# ---\n".join(p.read_text(encoding="utf-8") for p in files)
    shown = run("puzzle", "show", "-", input=text).stdout
    assert shown.startswith("1. ") and "\n2. " in shown
    assert shown.count("\n\n") == 1 and "\n\n2. " in shown     # (a blank line between them)
    sheet = run("puzzle", "show", "-", "--format", "html", input=text).stdout
    assert "<h2>1. " in sheet and "<h2>2. " in sheet


def test_the_puzzles_of_a_file_of_several_are_numbered_on_a_sheet(tmp_path):
    files = sorted(PUZZLES.glob("*.toml"))[:2]
    several = tmp_path / "week.toml"
    several.write_text("# ---\n".join(p.read_text(encoding="utf-8") for p in files),
                       encoding="utf-8")
    shown = run("puzzle", "show", several, "--solution").stdout
    assert shown.startswith("1. ") and "\n2. " in shown and "week" not in shown
    sheet = run("puzzle", "show", several, "--format", "html").stdout
    assert "<h2>1. " in sheet and "<h2>2. " in sheet and "week" not in sheet
    drawing = run("puzzle", "show", f"{several}#2", "--format", "svg").stdout
    assert 'font-weight="bold" text-anchor="start" fill="#1a1a1a">2. ' in drawing
    # beside another file's puzzles, each keeps its file's name: no two numbers alike
    other = tmp_path / "month.toml"
    other.write_text(several.read_text(encoding="utf-8"), encoding="utf-8")
    both = run("puzzle", "show", several, other, "--format", "html", "--solution").stdout
    assert [f"<h2>{n}. " in both for n in ("week#1", "week#2", "month#1", "month#2")] == \
        [True] * 4 and "<h2>1. " not in both
    rows = run("puzzle", "index", several, other).stdout
    assert "| week#2 | " in rows and "| month#1 | " in rows


def test_a_puzzle_without_a_title_is_titled_by_its_file_s_name_alone(tmp_path):
    """An untitled puzzle is headed by its file's name, without its folders or ``.toml``; one
    read from standard input or through a pipe (``<(...)``: ``/dev/fd/63``, whose digits are
    no number of the puzzle) by ``Puzzle``, not ``<stdin>`` or ``63``; a pipe's titled puzzle
    by its title alone."""
    import os

    text = (COLLECTION / "012-the-five-falls.toml").read_text(encoding="utf-8")
    untitled = re.sub(r"(?m)^title = .*\n", "", text)
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "017-duck.toml").write_text(untitled, encoding="utf-8")
    (folder / "week.toml").write_text(untitled + "# ---\n" + untitled, encoding="utf-8")

    def headings(*names: object, input: str | None = None) -> list[str]:
        shown = run("puzzle", "show", *names, "--format", "html", input=input)
        assert shown.exit_code == 0, shown.stderr
        return re.findall(r"<h2>([^<]*)</h2>", shown.stdout)

    def piped(text: str) -> str:
        read, write = os.pipe()
        os.write(write, text.encode("utf-8"))
        os.close(write)
        return f"/dev/fd/{read}"

    assert headings(folder / "017-duck.toml") == ["017. 017-duck"]
    assert headings(folder / "week.toml") == ["1. week#1", "2. week#2"]
    assert headings("-", input=untitled) == ["Puzzle"]
    assert headings("-", input=untitled + "# ---\n" + untitled) == ["1. Puzzle", "2. Puzzle"]
    assert headings(piped(untitled)) == ["Puzzle"]
    assert headings(piped(text)) == ["The five falls"]
    for form in ("svg", "text"):       # (a drawing named the pipe's digits its number)
        shown = run("puzzle", "show", piped(text), "--format", form).stdout
        assert re.search(r"(?m)(^|>)The five falls(\n|</text>)", shown), shown[:400]
    index = run("puzzle", "index", piped(untitled)).stdout
    assert re.search(r"(?m)^\| · \| Puzzle \| 2 \|", index), index


def test_puzzles_of_files_without_numbers_are_headed_by_their_titles_alone(tmp_path):
    """Two files whose names hold no number, shown together: each puzzle is headed by its
    title, with no number to tell apart (none is alike)."""
    for name, source in (("duck.toml", "012-the-five-falls.toml"),
                         ("hunt.toml", "011-hunt-the-jack.toml")):
        (tmp_path / name).write_text((COLLECTION / source).read_text(encoding="utf-8"),
                                     encoding="utf-8")
    shown = run("puzzle", "show", tmp_path / "duck.toml", tmp_path / "hunt.toml",
                "--format", "html").stdout
    assert re.findall(r"<h2>([^<]*)</h2>", shown) == ["The five falls", "Hunt the jack"]


def test_a_file_that_fails_to_read_is_a_problem_of_that_file(monkeypatch):
    """A read that fails (a disk's error, a file gone between listing and reading) is said as
    that file's problem, with the system's words where it has them, and the file counted as not
    read: the check goes on to the next."""
    import errno

    import cli.puzzling
    from cli.puzzling import problems_of

    def failing(error: OSError):
        def load(path, text=None):
            raise error
        return load

    monkeypatch.setattr(cli.puzzling, "load_named", failing(OSError(errno.EIO, "Input/output "
                                                                                "error")))
    assert problems_of("week.toml") == (False, ["week.toml: Input/output error"])
    monkeypatch.setattr(cli.puzzling, "load_named", failing(OSError("no words of the system")))
    assert problems_of("week.toml") == (False, ["week.toml: no words of the system"])


def test_puzzles_of_other_files_numbered_alike_are_told_apart_by_their_files(tmp_path):
    """``index FOLDER other/001-x.toml``: two rows numbered 001 and nothing to tell which is
    which; each has its file's name instead, and its folders as far as they tell them apart
    (one file named twice is one puzzle, its number kept)."""
    from cli.sheet import numbers_of

    first, second = sorted(PUZZLES.glob("*.toml"))[:2]
    for folder, source, name in (("gen", first, first.name), ("gen", second, second.name),
                                 ("other", second, "001-x.toml"), ("old", first, first.name)):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / name).write_text(source.read_text(encoding="utf-8"),
                                              encoding="utf-8")
    gen, other, old = (tmp_path / n for n in ("gen", "other", "old"))
    rows = run("puzzle", "index", gen, other / "001-x.toml").stdout
    numbers = re.findall(r"(?m)^\| (\S+) \| \[", rows)
    assert numbers == [first.stem, "002", "001-x"]
    shown = run("puzzle", "show", gen / first.name, old / first.name).stdout
    assert f"\ngen/{first.stem}. " in "\n" + shown and f"\nold/{first.stem}. " in shown
    sheet = run("puzzle", "show", gen, other, "--format", "html").stdout
    assert f"<h2>{first.stem}. " in sheet and "<h2>001-x. " in sheet
    assert numbers_of([gen / first.name, gen / first.name]) == ["001", "001"]
    assert numbers_of([gen / first.name, gen / first.name], titled=False) == ["001", "001"]
    assert numbers_of([f"{gen}/week.toml#2", f"{old}/week.toml#2", "a/007-x.toml"]) == \
        ["gen/week#2", "old/week#2", "007"]


def test_files_put_together_without_a_separator_say_so_when_one_is_named_by_number(tmp_path):
    """``cat a.toml b.toml > week.toml``: FILE#N says what FILE alone says, how puzzles are
    parted in a file (it said the file held 1 puzzle, as if there were no second)."""
    files = sorted(PUZZLES.glob("*.toml"))[:2]
    week = tmp_path / "week.toml"
    week.write_text("".join(p.read_text(encoding="utf-8") for p in files), encoding="utf-8")
    said = "2 [puzzle] tables (lines"
    for command in ("show", "play", "check"):
        whole = run("puzzle", command, week)
        assert said in whole.stdout + whole.stderr, whole.stderr
        for number in (1, 2):
            named = run("puzzle", command, f"{week}#{number}")
            assert (named.exit_code, named.stdout, named.stderr) == \
                   (whole.exit_code, whole.stdout, whole.stderr)
    # a file of one puzzle has no second
    assert_one_error_line(run("puzzle", "show", f"{files[0]}#2"),
                          "no puzzle 2: the file holds 1 puzzle")


def test_puzzles_to_a_file_stay_out_of_the_bar_on_the_terminal(monkeypatch, capsys):
    """With the bar on a terminal (standard error) and standard output a file, the puzzles go
    to the file, not through the bar's console onto the screen (they went to the screen)."""
    from rich.console import Console

    import cli.console
    from cli.puzzling import generate_command

    screen = io.StringIO()
    monkeypatch.setattr(cli.console, "make_console", lambda color=None, stderr=False: Console(
        file=screen, force_terminal=True, width=80))
    generate_command(2, "all-fives", 1, "1", 2, None, None)
    written = capsys.readouterr().out
    assert "[puzzle]" in written and "[puzzle]" not in screen.getvalue()


def test_the_index_counts_the_rules_with_their_options(tmp_path):
    """A folder of puzzles under one preset with and without options counts them apart, as the
    table names them (all were counted under the preset)."""
    text = (COLLECTION / "001-save-the-ten.toml").read_text(encoding="utf-8")
    (tmp_path / "001-plain.toml").write_text(text, encoding="utf-8")
    (tmp_path / "002-skunk.toml").write_text(text + "\n[options]\nskunk = true\n",
                                             encoding="utf-8")
    shown = run("puzzle", "index", tmp_path)
    assert shown.exit_code == 0, shown.stderr
    summary = " ".join(shown.stdout.split())
    half = summary.count("| all-fives |")
    assert half and f"Rules: all-fives (skunk=true): {half}, all-fives: {half}." in summary


def test_the_idea_is_given_once_a_puzzle(puzzles):
    """The idea, hinted at one turn, is not given (nor counted) again at a later turn: the
    first hint there is to the card (it was the idea again, and a hint more)."""
    puzzle = dataclasses.replace(puzzles[2], themes=("draw-trumps",))
    answers = iter(["hint", card_str(puzzle.line[0]), "hint", "solution"])
    result, text, _ = solve_session(puzzle, lambda s, k: next(answers))
    assert text.count("The idea: ") == 1
    assert result.hints == 2 and "Play a " in text.split("The idea: ")[1]


def test_check_holds_the_seed_to_the_start(tmp_path):
    """A puzzle's seed makes its start again (every collection puzzle's does); one edited by
    hand (its score, a card moved between hands) keeps a seed that makes another,
    and check says so; the same hands written in another order, or no seed, are no problem."""
    from solver.puzzles import seed_problems

    for path in sorted(COLLECTION.glob("*.toml")):
        assert seed_problems(load_puzzle(path)) == [], path
    text = (COLLECTION / "002-catch-the-five.toml").read_text(encoding="utf-8")
    north, east = 'N = "KS TS 8S 2D TC 4C"', 'E = "QS AH QH AD 3D 5C"'
    seed = 'seed = "95/434"'
    assert north in text and east in text and seed in text and "\nN = 0\n" in text
    for name, old, new in [
            ("001-score", "\nN = 0\n", "\nN = 2\n"),
            ("002-moved", north + "\n" + east, 'N = "KS TS 8S 2D TC 5C"\nE = "QS AH QH AD 3D 4C"'),
            ("004-reordered", north, 'N = "4C TC 2D 8S TS KS"'),
            ("005-zeros", seed, 'seed = "0095/00434"'),
            ("006-no-seed", seed, "")]:
        assert old in text
        (tmp_path / f"{name}.toml").write_text(text.replace(old, new))
    lines = run("puzzle", "check", tmp_path).stdout.splitlines()
    edited = ": seed: 95/434 makes another start (the deal, the play or the score edited, " \
             "or the puzzle made by another version): a puzzle changed by hand drops its seed"
    assert [line for line in lines if ": seed: " in line] == [
        f"{tmp_path / name}.toml{edited}" for name in ("001-score", "002-moved")]
    # play takes a puzzle whose seed has gone stale: it is still the puzzle it is
    played = run("puzzle", "play", tmp_path / "001-score.toml", input="quit\n")
    assert played.exit_code == 0, played.stderr


def test_generate_stopped_before_a_puzzle_leaves_no_folder_it_made(tmp_path, monkeypatch,
                                                                    puzzles):
    """Ctrl-C before the first puzzle takes back the folder --out made for it (empty); a
    folder that was there, or one that holds a puzzle, stays."""
    import cli.puzzling as puzzling

    def stopped_after(count):
        def make(*args, **kwargs):
            yield from [puzzles[2]] * count
            raise KeyboardInterrupt
        return make

    for count, there in ((0, False), (0, True), (1, False)):
        out = tmp_path / f"out-{count}-{there}"
        if there:
            out.mkdir()
        monkeypatch.setattr(puzzling, "make_puzzles", stopped_after(count))
        result = run("puzzle", "generate", "--count", "2", "--seed", "1", "--out", out)
        assert result.exit_code == 130 and result.stderr == "allfives: interrupted\n"
        assert out.is_dir() == (there or count > 0)
        assert len(list(out.glob("*.toml")) if out.is_dir() else []) == count


def test_no_titles_names_each_problem_by_its_number_alone():
    """A class's handout: the titles may name the idea ('Duck', 'Endplay'), so --no-titles
    leaves them out of the problems, in every form, and in play; a solution keeps its own."""
    file = COLLECTION / "012-the-five-falls.toml"
    assert run("puzzle", "show", file).stdout.startswith("012. The five falls\n")
    text = run("puzzle", "show", file, "--no-titles").stdout
    assert text.startswith("012.\n") and "five falls" not in text
    assert "Solution: The five falls (catch-the-five, duck)" in run(
        "puzzle", "show", file, "--no-titles", "--solution").stdout
    html = run("puzzle", "show", COLLECTION, "--format", "html", "--no-titles",
               "--solution").stdout
    problems, solutions = html.split('<div class="solutions">')
    assert re.findall(r"<h2>([^<]*)</h2>", problems) == [
        f"{path.name[:3]}." for path in sorted(COLLECTION.glob("*.toml"))]
    assert "<h3>012. The five falls <span" in solutions
    drawing = run("puzzle", "show", file, "--format", "svg", "--no-titles").stdout
    assert ">012.</text>" in drawing and "five falls" not in drawing
    played = run("puzzle", "play", file, "--no-titles", input="quit\n").stdout
    assert played.startswith("012.  (2 players · all-fives · rating 1564)\n")
    assert "five falls" not in played


@pytest.mark.parametrize("form", ["text", "html"])
def test_no_titles_numbers_puzzles_of_folders_numbered_alike_by_their_places(tmp_path, form):
    """Two folders of a handout, each numbered from 001: their puzzles were told apart by
    their files' names, which hold the titles ('001-duck.'), --no-titles or not."""
    import shutil

    names = ["001-save-the-ten.toml", "006-ruff-the-ten.toml", "012-the-five-falls.toml"]
    for folder, name in zip(["a", "b", "b"], names):
        (tmp_path / folder).mkdir(exist_ok=True)
        shutil.copy(COLLECTION / name, tmp_path / folder / f"00{1 + (name[1] == '1')}-"
                                                            f"{name[4:]}")
    shown = run("puzzle", "show", tmp_path / "a", tmp_path / "b", "--no-titles", "--format",
                form).stdout
    headings = re.findall(r"<h2>([^<]*)</h2>" if form == "html" else r"^(\d+\.)\n", shown, re.M)
    assert headings == ["1.", "2.", "3."]
    assert not any(word in shown.lower() for word in ("save", "ruff", "falls"))
    titled = run("puzzle", "show", tmp_path / "a", tmp_path / "b", "--format", form).stdout
    assert "001-save-the-ten." in titled and "001-ruff-the-ten." in titled


def test_one_puzzle_twice_is_not_written_again_and_check_names_it(tmp_path):
    """generate --out with the seed of a puzzle already in the folder added an identical
    copy, and check passed the two."""
    folder = tmp_path / "class"
    first = run("puzzle", "generate", "--count", 1, "--seed", 7, "--out", folder)
    assert first.exit_code == 0
    [one] = first.stdout.split()
    again = run("puzzle", "generate", "--count", 2, "--seed", 7, "--out", folder)
    assert again.exit_code == 0
    [two] = again.stdout.split()
    assert again.stderr == (f"allfives: {one} is this puzzle already: not written again "
                            f"(another --seed makes others)\n")
    assert sorted(p.name for p in folder.iterdir()) == sorted([Path(one).name, Path(two).name])
    copy = folder / "009-copy.toml"
    copy.write_text(Path(one).read_text(encoding="utf-8").replace("title = ", "title = 'x' #"),
                    encoding="utf-8")
    result = run("puzzle", "check", folder)
    assert result.exit_code == 0 and result.stdout == "3 puzzles checked: all sound.\n"
    assert result.stderr == (f"allfives: {copy} is the same puzzle as {one} (its deal, play, "
                             f"goal and line)\n")
    twice = run("puzzle", "check", one, one)
    assert twice.exit_code == 0 and twice.stdout == "2 puzzles checked: all sound.\n"
    assert twice.stderr == f"allfives: {one} is named twice\n"


@pytest.mark.parametrize("command", [("check",), ("show",), ("index",)])
def test_a_pipe_of_puzzles_is_read_once(tmp_path, command):
    """A pipe (a FIFO, or the shell's <(...)) can be read once: its puzzles are counted and
    loaded from that one reading (it was read twice, to count them and to load each: a second
    reading found it empty, or waited for ever on a FIFO)."""
    import os
    import threading

    texts = [(COLLECTION / name).read_text(encoding="utf-8")
             for name in ("001-save-the-ten.toml", "012-the-five-falls.toml")]
    fifo = tmp_path / "puzzles.toml"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w", encoding="utf-8") as pipe:
            pipe.write("# ---\n".join(texts))
        time.sleep(1.0)     # a second reading would wait here for ever: it is given an end
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:     # nobody reading: the pipe was read once
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    result = run("puzzle", *command, fifo)
    writer.join(timeout=5)
    assert result.exit_code == 0, result.stderr
    if command == ("check",):
        assert result.stdout == "2 puzzles checked: all sound.\n"
    else:
        assert "Save the ten" in result.stdout and "The five falls" in result.stdout


# ---- make ---------------------------------------------------------------------------------------

def _made(stdout: str) -> list[Puzzle]:
    from solver.notation import SEPARATOR

    return [Puzzle.from_toml(text) for text in stdout.split(SEPARATOR + "\n") if text.strip()]


@pytest.mark.parametrize("margin", [False, True])
def test_make_finds_each_collection_puzzle_again_from_its_position(tmp_path, margin):
    """Every puzzle of the collection, its position given on one line: ``puzzle make`` makes
    the same puzzle (side, objective, target and line), taking ``win`` where either side could
    reach the target and ``points`` elsewhere unless told (the margin puzzles are told), and
    what it writes is sound by ``check``."""
    puzzles = [load_puzzle(path) for path in sorted(COLLECTION.glob("*.toml"))]
    chosen = [p for p in puzzles if (p.objective == "margin") == margin]
    assert len(chosen) >= 5
    listed = tmp_path / "positions.txt"
    listed.write_text("".join(p.position.to_line() + "\n" for p in chosen), encoding="utf-8")
    result = run("puzzle", "make", listed, *(["--objective", "margin"] if margin else []))
    assert (result.exit_code, result.stderr) == (0, "")
    made = _made(result.stdout)
    key = lambda p: (p.position, p.side, p.objective, p.target, p.line)  # noqa: E731
    assert [key(p) for p in made] == [key(p) for p in chosen]
    assert all(p.title and p.rating for p in made)
    assert {p.objective for p in made} == ({"margin"} if margin else {"points", "win"})
    assert run("puzzle", "check", "-", input=result.stdout).stdout == \
        f"{len(chosen)} puzzles checked: all sound.\n"


def test_make_says_why_a_position_makes_no_puzzle(tmp_path):
    """One line for each position that is no puzzle (the first rule it breaks), status 1, and
    the puzzles of the others; --out numbers the files on, takes none twice, and a folder it
    made for none is taken away again."""
    from clirun import EXAMPLES

    positions = EXAMPLES / "positions.txt"
    result = run("puzzle", "make", positions)
    lines = result.stderr.splitlines()
    assert result.exit_code == 1 and lines and len(_made(result.stdout)) >= 1
    assert all(re.fullmatch(rf"allfives: {re.escape(str(positions))}:\d+: no puzzle "
                            rf"\((points|win)\): .+", line) for line in lines)
    assert any("different cards reach the target at the first turn" in line for line in lines)
    one = "N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H"
    folder = tmp_path / "mine"
    assert run("puzzle", "make", one, "--min-turns", 3, "--out", folder).stderr == \
        "allfives: <argument>: no puzzle (points): 2 solver turn(s) with a real choice, " \
        "fewer than 3\n"
    assert not folder.exists()
    assert run("puzzle", "make", one, "--out", folder).stdout == \
        f"{folder / '001-save-the-ten.toml'}\n"
    again = run("puzzle", "make", one, "--out", folder)
    assert again.exit_code == 0 and again.stdout == "" and again.stderr == \
        f"allfives: {folder / '001-save-the-ten.toml'} is this puzzle already: not written again\n"
    assert [p.name for p in folder.iterdir()] == ["001-save-the-ten.toml"]
    twice = run("puzzle", "make", one, one, "--out", tmp_path / "two")    # in one run too
    assert twice.stdout == f"{tmp_path / 'two' / '001-save-the-ten.toml'}\n"
    assert "is this puzzle already: not written again" in twice.stderr


@pytest.mark.parametrize("args, fragment", [
    (["N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H", "--objective", "win"],
     "<argument>: --objective win needs the match score"),
    (["N:-.AT.-.2 -.Q5.-.3 -.KJ.-.4 dealer=S trump=H", "--objective", "margin"],
     "--objective margin needs two sides, not 3 players"),
    (["N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H", "--objective", "tricks"],
     "'tricks' is not one of"),
    (["EXAMPLES/hidden/south.toml"], "the hand is hidden"),
    (["N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H", "--min-turns", "1"], "--min-turns"),
    (["N:-.AT.-.2 -.Q5.-.QQ dealer=S trump=H"], "<argument>: hands.S: card 'QC' appears twice"),
])
def test_make_refuses_bad_input_in_one_line(args, fragment):
    from clirun import EXAMPLES

    args = [a.replace("EXAMPLES", str(EXAMPLES)) for a in args]
    assert_one_error_line(run("puzzle", "make", *args), fragment)
