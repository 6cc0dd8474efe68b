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
        (lambda: Position.from_toml("x =\n", lines_before="2"),
         "lines_before: '2' is not a whole number of lines, 0 or more"),
        (lambda: Position.from_toml("x =\n", lines_before=-1),
         "lines_before: -1 is not a whole number of lines, 0 or more"),
        (lambda: load(None), "path: expected a file's name, not None"),
        (lambda: Solver(table_bits="21"), "table_bits: '21' is not a whole number from 8 to 26"),
        (lambda: Solver(table_bits=100), "table_bits: 100 is not a whole number from 8 to 26"),
        (lambda: Position.from_line(LINE).after(True), "play[0]: unknown card True"),
        # (a seat's name for a side was 'not at this 2-player table (sides: 0 (N), 1 (S))')
        (lambda: solve(Position.from_line(LINE), side="S"),
         "side: expected a side's number, not 'S' (at this 2-player table: 0 (N), 1 (S))"),
        (lambda: solve(Position.from_line(LINE), side=2),
         "side 2 is not at this 2-player table (sides: 0 (N), 1 (S))"),
        *_more_calls(),
    ]


def _more_calls():
    """Each of these once escaped as a TypeError, AttributeError or IndexError (or, for the
    seeds, ran as if a fixed seed had been given)."""
    from solver import Deal, Position, Rules, card_str, hand_str, parse_card, parse_cards, \
        parse_hand
    from solver.batch import run_duplicate, run_matches
    from solver.game import Match
    from solver.pimc import PimcPlayer
    from solver.registry import make_player
    from solver.puzzles import Puzzle, check_puzzle, examine, generate, load_puzzle, rate, \
        refutation, winning_cards
    from solver.puzzles.themes import themes_of

    position = Position.from_line(LINE)
    deal = position.deal
    puzzle = load_puzzle(Path(__file__).resolve().parents[1] / "puzzles" /
                         "001-save-the-ten.toml")
    return [
        (lambda: Deal(deal.hands, 1, 1, "strict"), "rules: 'strict' is not a Rules"),
        (lambda: Deal(deal.hands, "H"), "trump: 'H' is not a number"),
        (lambda: Deal(deal.hands, 1, "N"), "dealer: 'N' is not a number"),
        (lambda: Deal(None, 0), "hands: None is not a list of hands of cards"),
        (lambda: Deal(deal.hands, 1, 1, Rules(), None, 5), "score: 5 is not a list of points"),
        (lambda: card_str(13), "13 is not a card's number"),
        (lambda: hand_str([99]), "99 is not a card's number"),
        (lambda: parse_card(None), "unknown card None (a card to read is text"),
        (lambda: parse_hand(None), "hand: None is not text"),
        (lambda: parse_cards(None), "cards: None is neither text"),
        (lambda: winning_cards(position, 0, "points", "5"), "target: '5' is not a whole number"),
        (lambda: examine(position, solver="x"), "solver: 'x' is not a Solver"),
        (lambda: check_puzzle(puzzle, solver="x"), "solver: 'x' is not a Solver"),
        (lambda: refutation(position, 0, "points", solver="x"), "solver: 'x' is not a Solver"),
        (lambda: rate(None), "puzzle: expected a Puzzle"),
        (lambda: themes_of("x"), "puzzle: expected a Puzzle"),
        (lambda: list(generate(rules="strict")), "rules: 'strict' is not a Rules"),
        (lambda: list(generate(seed=None)), "seed: None is not a whole number from 0"),
        (lambda: examine(position, min_turns="2"), "min_turns: '2' is not a whole number"),
        (lambda: examine(position, "tricks"), "objective 'tricks' is not one of points"),
        (lambda: Puzzle(None, 0, "points", 18, ()), "position: None is not a Position"),
        (lambda: Puzzle(position, 0, "points", 18, ("2C",)), "line[0]: '2C' is not a card's"),
        (lambda: run_duplicate("random", "random", groups=1, seed=None),
         "seed: None is not a whole number or a text"),
        (lambda: run_matches("random", "random", groups=1, seed=[1]),
         "seed: [1] is not a whole number or a text"),
        (lambda: PimcPlayer(replies="heuristic", partner="best").act(
            position_observation(position)), "partner: only with four players"),
        (lambda: Match(2).new_initial_state(seed=1).legal_actions(seat=5),
         "seat 5 is not at a 2-player table"),
        (lambda: make_player("pimc", wolds=3),
         "player 'pimc' has no option 'wolds' (its options: worlds,"),
        (lambda: Position(deal, play="9H"), "play: '9H' is not a list of cards' numbers"),
        (lambda: Position(None), "deal: None is not a Deal"),
        (lambda: Puzzle(position, 0, "points", 18, (), title="Duck\x1b[2J"),
         "title: a control character ('\\x1b') in 'Duck\\x1b[2J'"),
        *_calls_of_research_code(position),
    ]


def _calls_of_research_code(position):
    """Found by using the library as research code does: each escaped as an AttributeError,
    TypeError or IndexError."""
    import random

    from solver import Rules, hand_str, shuffle
    from solver.deal import read_positions
    from solver.game import Match, observation_of
    from solver.registry import register_player
    from solver.sampling import count_worlds, sample_worlds, world_position
    from solver.seen import read_seen

    state = Match(2).new_initial_state(seed=1)
    while state.phase != "play":
        state.apply_action(state.legal_actions()[0])
    seen = state.observation(0)
    world = sample_worlds(seen, 1, random.Random(1))[0]
    hidden = read_seen("N:T.QJT92.-.- - dealer=S turnup=6H")
    return [
        (lambda: list(read_positions(None)), "<string>: None is not a text to read positions"),
        (lambda: read_seen(["x"]), "<string>: ['x'] is not a text to read positions from"),
        (lambda: hand_str(["TH"]), "'TH' is not a card's number"),
        (lambda: hand_str(None), "None is not a list of cards' numbers"),
        (lambda: count_worlds(None), "observation: None is not an Observation"),
        (lambda: world_position(None, world), "observation: None is not an Observation"),
        (lambda: world_position(seen, world.hands), "world: ((9, 6, 4, 26, 23, 48),"),
        (lambda: observation_of(position, 5), "seat 5 is not at a 2-player table"),
        (lambda: observation_of(None, 0), "position: None is not a Position"),
        (lambda: position.deal.position(None), "play: None is not a list of cards' numbers"),
        (lambda: position.to_line(aside=None), "aside: None is no turn-up set aside"),
        (lambda: shuffle.random_deal(None, 2, 6), "rng: None is not a random.Random"),
        (lambda: shuffle.shuffled_pack(None), "rng: None is not a random.Random"),
        (lambda: shuffle.random_position(random.Random(1), 2, 6, played=1.0),
         "cannot play 1.0 cards from hands holding 12"),
        (lambda: hidden.observation(9), "<string>:1: seat 9 is not at a 2-player table"),
        (lambda: Rules(preset_name="mine"), "unknown preset 'mine'"),
        (lambda: register_player("y", 5), "player 'y': its factory 5 is not callable"),
        (lambda: register_player(" ", print), "a player name is a word, not ' '"),
    ]


def position_observation(position):
    """What the seat to play sees of ``position``, as a match at its table would show it."""
    from solver.game import observation_of

    return observation_of(position, position.to_move)


def test_a_wrong_kind_of_argument_is_an_error_saying_what_was_expected():
    from solver.errors import AllFivesError

    # each once escaped as an AttributeError or TypeError from deep inside
    for call, message in _calls():
        with pytest.raises(AllFivesError) as caught:
            call()
        assert str(caught.value).startswith(message), caught.value


def test_a_player_is_anything_with_act(monkeypatch):
    """The README's word: a player is anything with act(observation).  The protocol asked for
    a name and omniscient too, so that a player of a few lines was no Player (and mypy
    refused it to play_match and register_player)."""
    from solver import registry
    from solver.players import Player
    from solver.registry import make_player, register_player

    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))   # (as it was after)
    class Lowest:
        def act(self, observation):
            return min(observation.legal_actions)

    assert isinstance(Lowest(), Player) and not isinstance(object(), Player)
    register_player("lowest-of-all", lambda seed=None: Lowest())
    assert isinstance(make_player("lowest-of-all", seed=1), Lowest)


def test_a_position_is_played_on_by_card_names_or_numbers():
    from solver import Position
    from solver.cards import parse_card

    position = Position.from_line(LINE)
    assert position.after("9H", "kh") == position.after(parse_card("9H"), parse_card("KH"))


def test_two_solves_of_one_position_are_equal_and_a_deal_keeps_no_callers_list():
    """Solutions (and advice) of the same position compare equal, whatever each took (their
    seconds made two identical solves unequal); a score given as a list is kept as a tuple
    (it stayed the caller's list: unhashable, and changed behind the deal's checks)."""
    from solver import Deal, Position, Solver
    from solver.game import observation_of
    from solver.pimc import PimcPlayer

    position = Position.from_line(LINE)
    assert Solver().solve(position) == Solver().solve(position)
    solver = Solver()       # a warm table searches fewer nodes: the same solution
    cold, warm = solver.solve(position, fresh=True), solver.solve(position)
    assert cold.nodes != warm.nodes and cold == warm
    seen = observation_of(position, position.to_move)
    advise = lambda: PimcPlayer(worlds=4, time_limit=None, seed=1).advise(seen)  # noqa: E731
    assert advise() == advise()
    deal = position.deal
    score = [50, 55]
    frozen = Deal(deal.hands, deal.trump, deal.dealer, deal.rules, deal.turnup, score)
    score[1] = 500
    assert frozen.score == (50, 55) and hash(frozen)


def test_the_engines_names_are_listed_with_the_package_s():
    """``solve`` and ``Solver`` load with the engine on first use; a shell's completion, which
    lists ``dir(solver)``, did not offer them."""
    import solver

    assert {"solve", "Solver", "Position", "Deal"} <= set(dir(solver))


def test_what_the_checks_let_through_as_before():
    """The checks of the wrong kinds of argument keep what was right: a seed for generate as
    its digits or numpy's number, numpy's card numbers, and a state's legal actions asked of
    its current player when that is chance or the end (none, as the OpenSpiel API has it)."""
    np = pytest.importorskip("numpy")
    from solver.cards import card_str
    from solver.game import Match
    from solver.puzzles import generate

    assert card_str(np.int64(26)) == card_str(26) == "QH"
    first = [next(generate(2, seed=seed, assess=False)).seed for seed in (7, "7", np.int64(7))]
    assert first == ["7/14"] * 3
    dealing = Match(2).new_initial_state(seed=1, auto_deal=False)
    assert dealing.current_player() < 0 and dealing.legal_actions(dealing.current_player()) == []
