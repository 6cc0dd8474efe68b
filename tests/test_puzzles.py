"""Puzzles: the file format, the soundness rules against the reference solver, the generator's
acceptances and rejections (2, 3 and 4 players, several presets)."""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from solver import reference
from solver.cards import card_str, parse_card, rank_of, suit_of
from solver.deal import Position, load
from solver.errors import AllFivesError
from solver.players import HeuristicPlayer
from solver.puzzles import (Oracle, Puzzle, PuzzleError, candidate, card_classes, check_puzzle,
                            examine, generate, load_puzzle, main_line, observation_of,
                            play_alike, refutation, toughest_reply, winning_cards)
from solver.puzzles.soundness import engine_of, oracle_for
from solver.rules import Rules
from solver.scoring import game_pips
from solver.search import Solver, card_points
from solver.shuffle import random_position

PRESETS = ("all-fives", "strict", "all-fours")
#: Small deals the reference solver works out quickly: (players, cards a hand).
SMALL = ((2, 3), (2, 4), (3, 3), (4, 2))

COLLECTION = Path(__file__).resolve().parents[1] / "puzzles"


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(18)


def small_puzzles(players: int, cards: int, preset: str, count: int = 3, seed: int = 5,
                  solver: Solver | None = None) -> list[Puzzle]:
    return list(generate(players, Rules.preset(preset), count=count, seed=seed, cards=cards,
                         solver=solver, assess=False, max_tries=5000))


# ---- the format ----------------------------------------------------------------------------


SAMPLE = """\
dealer = "S"
trump = "H"

[hands]
N = "AH TH 2C"
S = "QH 5H 3C"

[puzzle]
side = "N"
objective = "points"
target = 18
line = ["2C", "5H", "QH", "AH"]
title = "Keep the ten"
themes = ["save-the-ten"]
rating = 1450
seed = "9/3"
solved_by = ["cheater"]

[puzzle.evidence]
real_choices = 2
"""


def test_reads_a_puzzle_file(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(SAMPLE)
    puzzle = load_puzzle(path)
    assert puzzle.side == 0 and puzzle.objective == "points" and puzzle.target == 18
    assert [card_str(c) for c in puzzle.line] == ["2C", "5H", "QH", "AH"]
    assert puzzle.title == "Keep the ten" and puzzle.themes == ("save-the-ten",)
    assert puzzle.rating == 1450 and puzzle.seed == "9/3"
    assert puzzle.solved_by == ("cheater",) and dict(puzzle.evidence) == {"real_choices": 2}
    # the deal readers take a puzzle file as the deal file it also is
    assert load(path) == puzzle.position
    assert Puzzle.from_toml(puzzle.to_toml()) == puzzle


def test_a_sample_puzzle_is_sound(solver):
    """Sound, but for its record: a rating and solved_by that no whole evidence gives (a file
    edited by hand, its evidence cut, once passed); written by hand without them, sound."""
    puzzle = Puzzle.from_toml(SAMPLE)
    assert check_puzzle(puzzle, solver) == [
        "puzzle.evidence: no solved_random (nor 6 others): rating and solved_by cannot be held "
        "to it"]
    assert check_puzzle(dataclasses.replace(puzzle, evidence=()), solver) == [
        "no [puzzle.evidence]: rating and solved_by cannot be held to it"]
    by_hand = dataclasses.replace(puzzle, rating=None, solved_by=(), evidence=())
    assert check_puzzle(by_hand, solver) == []
    assert check_puzzle(dataclasses.replace(by_hand, evidence=puzzle.evidence), solver) == []
    assert check_puzzle(dataclasses.replace(by_hand, rating=1450), solver) == [
        "no [puzzle.evidence]: rating cannot be held to it"]


def test_a_rating_its_evidence_does_not_give_is_a_problem():
    """The rating written in a puzzle file is held to the one its evidence gives; a file whose
    rating was changed by hand, its evidence whole, passed unnoticed."""
    from solver.puzzles.soundness import record_problems

    puzzle = load_puzzle(COLLECTION / "001-save-the-ten.toml")
    assert puzzle.rating == 1370 and record_problems(puzzle) == []
    assert record_problems(dataclasses.replace(puzzle, rating=1360)) == [
        "puzzle.rating: 1360, where its evidence gives 1370"]
    # evidence cut: the first key missing named, and how many others
    evidence = dict(puzzle.evidence)
    for cut, said in ((("nodes",), "no nodes: rating"),
                      (("tempting", "nodes"), "no tempting (nor 1 other): rating"),
                      (("solved_random", "solved_cheater", "nodes"),
                       "no solved_random (nor 1 other): rating and solved_by")):
        kept = tuple((k, v) for k, v in evidence.items() if k not in cut)
        assert record_problems(dataclasses.replace(puzzle, evidence=kept)) == [
            f"puzzle.evidence: {said} cannot be held to it"]


@pytest.mark.parametrize("players, cards", SMALL)
@pytest.mark.parametrize("preset", PRESETS)
def test_round_trip(players, cards, preset, solver):
    for puzzle in small_puzzles(players, cards, preset, count=2, solver=solver):
        text = puzzle.to_toml()
        again = Puzzle.from_toml(text, "p.toml")
        assert again == puzzle
        assert again.to_toml() == text
        full = dataclasses.replace(puzzle, title='Say "when" \\ now — or [never]',
                                   themes=("duck", "endplay"),
                                   rating=1234, solved_by=("pimc-8",),
                                   evidence=(("nodes", 77), ("tempting", 2)))
        assert Puzzle.from_toml(full.to_toml()) == full


def test_a_file_without_themes_is_written_without_them():
    """No ``themes`` key is no claim; writing the puzzle again must not turn it into a claim
    of none, which ``puzzle check`` would hold to the line."""
    listed = Puzzle.from_toml(SAMPLE)
    assert listed.themes_listed and "\nthemes = " in listed.to_toml()
    text = "\n".join(line for line in SAMPLE.splitlines() if not line.startswith("themes"))
    unlisted = Puzzle.from_toml(text)
    assert not unlisted.themes_listed and "themes" not in unlisted.to_toml()
    assert not Puzzle.from_toml(unlisted.to_toml()).themes_listed


def test_four_players_write_the_partnership(solver):
    (puzzle,) = small_puzzles(4, 2, "all-fives", count=1, solver=solver)
    name = puzzle.position.deal.side_name(puzzle.side)
    text = puzzle.to_toml()
    assert f'side = "{name}"' in text
    for spelling in (name[0], name[1], name[::-1], name.lower()):
        again = Puzzle.from_toml(text.replace(f'side = "{name}"', f'side = "{spelling}"'))
        assert again.side == puzzle.side


BAD = [
    ("side", 'side = "Q"', "puzzle.side: no seat or side 'Q'"),
    ("side", "side = 1", "puzzle.side: expected a string"),
    ("objective", 'objective = "tricks"', "puzzle.objective: 'tricks' is not one of"),
    ("objective", 'objective = "win"', "puzzle.objective: objective 'win' needs the match"),
    ("target", 'target = "ten"', "puzzle.target: expected a whole number"),
    ("target", "target = 1.5", "puzzle.target: expected a whole number, not a decimal number (1.5)"),
    ("line", 'line = ["ZZ"]', "puzzle.line[0]: unknown card 'ZZ'"),
    ("line", 'line = ["QH"]', "puzzle.line[0]: 'QH' is not in N's hand"),
    ("line", 'line = ["2C", "5H", "QH", "AH", "2C"]',
     "puzzle.line[4]: '2C' is played already (card 1 of the play)"),
    ("line", 'line = ["TH", "3C"]', "puzzle.line[1]: S may not play '3C' here"),
    ("line", 'line = []', "puzzle.line: expected an array of cards"),
    ("line", 'line = [1]', "puzzle.line[0]: expected a card"),
    ("line", 'line = ["2C", "5H", "QH", "AH", "TH", "3C", "2S"]',
     "puzzle.line[6]: '2S' is played after the last trick"),
    ("themes", 'themes = "duck"', "puzzle.themes: expected an array of strings"),
    ("themes", 'themes = [3]', "puzzle.themes[0]: expected a string"),
    ("themes", 'themes = ["duck", "pin"]', "puzzle.themes[1]: unknown theme 'pin' (expected "
                                           "one of save-the-ten, catch-the-five"),
    ("rating", "rating = true", "puzzle.rating: expected a whole number"),
    ("rating", "rating = -99999999999999999999", "puzzle.rating: expected a rating from 0 to "
                                                 "4000, not -99999999999999999999"),
    ("solved_by", 'solved_by = ["cheater", "nobody"]',
     "puzzle.solved_by[1]: 'nobody' is not a ladder player (expected random, heuristic, "),
    ("title", "title = 5", "puzzle.title: expected a string"),
    ("seed", "seed = 9", "puzzle.seed: expected a string"),
    ("colour", 'colour = "red"', "puzzle: unknown key 'colour'"),
]


@pytest.mark.parametrize("key, replacement, message", BAD)
def test_bad_puzzle_table_is_one_line(key, replacement, message, tmp_path):
    lines = [line for line in SAMPLE.splitlines() if not line.startswith(f"{key} =")]
    lines.insert(lines.index("[puzzle]") + 1, replacement)
    path = tmp_path / "bad.toml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(PuzzleError) as caught:
        load_puzzle(path)
    text = str(caught.value)
    assert isinstance(caught.value, AllFivesError)
    assert "\n" not in text
    assert text.startswith(f"{path}: ") and message in text, text
    assert text.count(str(path)) == 1 and text.count(f"puzzle.{key}") <= 1, text


@pytest.mark.parametrize("key", ["side", "objective", "target", "line"])
def test_missing_key(key):
    text = "\n".join(line for line in SAMPLE.splitlines() if not line.startswith(f"{key} ="))
    with pytest.raises(PuzzleError, match=rf"^x.toml: puzzle.{key}: missing$"):
        Puzzle.from_toml(text, "x.toml")


def test_no_puzzle_table_and_bad_deal():
    deal_only = SAMPLE.split("[puzzle]")[0]
    with pytest.raises(PuzzleError, match="^d.toml: no \\[puzzle\\] table$"):
        Puzzle.from_toml(deal_only, "d.toml")
    with pytest.raises(AllFivesError, match="^d.toml: hands.N: "):
        Puzzle.from_toml(SAMPLE.replace('N = "AH TH 2C"', 'N = "AH TH ZZ"'), "d.toml")
    with pytest.raises(PuzzleError, match="^d.toml: puzzle: expected a table"):
        Puzzle.from_toml("puzzle = 3\n" + deal_only, "d.toml")
    with pytest.raises(AllFivesError, match="^d.toml: not TOML"):
        Puzzle.from_toml(SAMPLE + "[[[", "d.toml")


def test_two_puzzles_in_one_file():
    """Puzzle files put together are told apart from other bad TOML: where each puzzle's
    table is, and how puzzles in one file are parted."""
    twice = SAMPLE + "\n" + SAMPLE
    first = SAMPLE.splitlines().index("[puzzle]") + 1
    second = first + len(SAMPLE.splitlines()) + 1
    with pytest.raises(PuzzleError, match=rf"^d.toml: 2 \[puzzle\] tables \(lines {first}, "
                                          rf"{second}\): puzzles in one file are parted by a "
                                          rf"line '# ---'$"):
        Puzzle.from_toml(twice, "d.toml")


def test_a_puzzle_is_checked_when_made():
    position = Puzzle.from_toml(SAMPLE).position
    with pytest.raises(PuzzleError, match="side 2 is not a side at this table"):
        Puzzle(position, 2, "points", 18, ())
    with pytest.raises(PuzzleError, match="objective 'tricks' is not one of"):
        Puzzle(position, 0, "tricks", 18, ())
    with pytest.raises(PuzzleError, match="target '18' is not a whole number"):
        Puzzle(position, 0, "points", "18", ())
    assert Puzzle(position, 0, "points", 18, [parse_card("2C")]).line == (parse_card("2C"),)


def test_evidence_must_be_numbers():
    with pytest.raises(PuzzleError, match="puzzle.evidence.real_choices: expected a whole"):
        Puzzle.from_toml(SAMPLE.replace("real_choices = 2", 'real_choices = "two"'))


@pytest.mark.parametrize("old, new, message", [
    ("real_choices = 2", "real_choices = -1", "puzzle.evidence.real_choices: expected a whole "
                                              "number from 0, not -1"),
    ("real_choices = 2", "nodes = -1000", "puzzle.evidence.nodes: expected a whole number from "
                                          "0, not -1000"),
    ("real_choices = 2", "solved_random = 17", "puzzle.evidence.solved_random: expected a whole "
                                               "number from 0 to 16 (the random player's tries), "
                                               "not 17"),
    ("real_choices = 2", "solved_random = -1", "puzzle.evidence.solved_random: expected a whole "
                                               "number from 0 to 16"),
    ("real_choices = 2", "solved_pimc_2 = 2", "puzzle.evidence.solved_pimc_2: expected 0 or 1, "
                                              "not 2"),
    ("real_choices = 2", "nodes = " + "9" * 30, "puzzle.evidence.nodes: expected a whole number "
                                                "from 0 to 9223372036854775807, not 9999"),
    ("real_choices = 2", "pimc_tries = 8\nsolved_pimc_8 = 9",
     "puzzle.evidence.solved_pimc_8: expected a whole number from 0 to 8 (pimc_tries), not 9"),
    ("real_choices = 2", "solved_pimc_2 = 2\npimc_tries = 1",
     "puzzle.evidence.solved_pimc_2: expected 0 or 1 (pimc_tries is 1), not 2"),
    ("real_choices = 2", "pimc_tries = 0", "puzzle.evidence.pimc_tries: expected a whole number "
                                           "from 1, not 0"),
])
def test_evidence_out_of_its_range_is_refused_when_read(old, new, message):
    """A negative count, or more solves than a ladder player's tries, would make a rating of
    nothing (the nodes' logarithm of a negative number): the file is refused, the key named."""
    assert old in SAMPLE
    with pytest.raises(PuzzleError, match=re.escape(message)):
        Puzzle.from_toml(SAMPLE.replace(old, new), "p.toml")
    if "pimc_tries" not in new:
        Puzzle.from_toml(SAMPLE.replace(old, new.split(" = ")[0] + " = 0"))


def test_the_monte_carlo_players_solves_are_counted_out_of_their_tries():
    """Evidence without pimc_tries is of one try (the files rated before there were eight);
    with it, a Monte Carlo player's solves are a share of its tries, and it solved the puzzle
    with half of them or more."""
    from solver.puzzles.evidence import rating_of, solved_of

    base = {"solved_random": 4, "solved_heuristic": 0, "solved_search_200": 1,
            "solved_search_2000": 1, "solved_cheater": 1, "real_choices": 2, "tempting": 0,
            "nodes": 100}
    one = {**base, "solved_pimc_2": 1, "solved_pimc_8": 0}
    same = {**base, "solved_pimc_2": 8, "solved_pimc_8": 0, "pimc_tries": 8}
    assert rating_of(one) == rating_of(same) and solved_of(one) == solved_of(same)
    half = {**same, "solved_pimc_8": 4}
    assert "pimc-8" in solved_of(half) and "pimc-8" not in solved_of(same)
    fewer = [rating_of({**same, "solved_pimc_8": k}) for k in range(9)]
    assert fewer == sorted(fewer, reverse=True) and len(set(fewer)) == 9


@pytest.mark.parametrize("seed", ["banana", "9/", "/3", "9/3/1", "-9/3", "９/3", "9 / 3", "",
                                  "1" * 300])
def test_a_seed_is_s_slash_k_as_generate_takes_it(seed):
    """The seed that makes the puzzle again is S/K, or S: anything else is refused, not kept
    as if it could."""
    with pytest.raises(PuzzleError, match=re.escape("p.toml: puzzle.seed: expected a seed S/K")):
        Puzzle.from_toml(SAMPLE.replace('seed = "9/3"', f'seed = "{seed}"'), "p.toml")
    for good in ("9/3", "9", "0/0"):
        assert Puzzle.from_toml(SAMPLE.replace('seed = "9/3"', f'seed = "{good}"')).seed == good


def test_evidence_and_the_line_are_checked_as_the_rest_is():
    with pytest.raises(PuzzleError, match="puzzle.evidence: unknown key 'real_choice' "
                                          r"\(expected solved_random, "):
        Puzzle.from_toml(SAMPLE.replace("real_choices = 2", "real_choice = 2"))
    with pytest.raises(PuzzleError, match="puzzle.line: expected an array of cards, not an "
                                          "empty one"):
        Puzzle.from_toml(re.sub(r"(?m)^line = .*$", "line = []", SAMPLE))


# ---- playing alike, winning cards: against the reference solver ---------------------------------


def independent_alike(position: Position, a: int, b: int, objective: str) -> bool:
    """The rule of the README written again: same hand and suit, same points and pips, not a
    card pegging an end point of its own (win), no card out elsewhere between them."""
    deal = position.deal
    if suit_of(a) != suit_of(b):
        return False
    points = card_points(deal, objective)
    if points[a] != points[b]:
        return False
    if deal.rules.game and game_pips(a, deal) != game_pips(b, deal):
        return False
    if objective == "win":
        trumps = deal.trumps_dealt()
        special = {parse_card("J" + "SHDC"[deal.trump])} if deal.rules.jack else set()
        if deal.rules.low and deal.rules.low_to == "captor" and trumps:
            special.add(trumps[0])
        if deal.rules.five_for_five:
            special.add(parse_card("5" + "SHDC"[deal.trump]))
        if {a, b} & special:
            return False
    lo, hi = sorted((rank_of(a), rank_of(b)))
    elsewhere = [c for s, hand in enumerate(position.hands) if s != position.to_move
                 for c in hand] + list(position.current.cards)
    return not any(suit_of(c) == suit_of(a) and lo < rank_of(c) < hi for c in elsewhere)


def random_small(rng: random.Random, preset: str) -> tuple[Position, str]:
    players, cards = rng.choice(SMALL)
    rules = Rules.preset(preset)
    position = random_position(rng, players, cards, rules)
    if rng.random() < 0.25:
        # near the end of a match: objective win
        score = tuple(rules.target - rng.randint(1, 6) for _ in range(position.deal.sides))
        deal = dataclasses.replace(position.deal, score=score)
        return Position(deal, position.play), "win"
    objective = rng.choice(["points", "margin"] if players != 3 else ["points"])
    return position, objective


@pytest.mark.parametrize("preset", PRESETS)
def test_winning_cards_match_the_reference(preset, solver):
    rng = random.Random(f"winning:{preset}")
    checked = 0
    for _ in range(150):
        position, objective = random_small(rng, preset)
        if position.is_over:
            continue
        side = position.deal.side_of(position.to_move)
        ref = reference.solve(position, side, objective)
        for target in (ref.value, ref.value - 1, ref.value + 1):
            classes = winning_cards(position, side, objective, target, solver)
            flat = sorted(c for g in classes for c in g)
            assert flat == sorted(c for c, v in ref.moves.items() if v >= target)
            for group in classes:
                # cards of one class play alike and share one value
                assert len({ref.moves[c] for c in group}) == 1
                for a, b in itertools.combinations(group, 2):
                    assert independent_alike(position, a, b, objective)
            for g1, g2 in itertools.combinations(classes, 2):
                assert not independent_alike(position, g1[0], g2[0], objective)
        checked += 1
    assert checked > 100


def test_alike_cards_share_their_value_in_the_reference(solver):
    rng = random.Random("alike")
    pairs = 0
    for _ in range(600):
        position, objective = random_small(rng, rng.choice(PRESETS))
        if position.is_over:
            continue
        side = position.deal.side_of(position.to_move)
        legal = position.legal_moves()
        ref = None
        for a, b in itertools.combinations(legal, 2):
            assert play_alike(position, a, b, objective) == \
                independent_alike(position, a, b, objective)
            if play_alike(position, a, b, objective):
                ref = ref or reference.solve(position, side, objective)
                assert ref.moves[a] == ref.moves[b]
                pairs += 1
    assert pairs > 20


# ---- generated puzzles are sound, checked again with the reference ------------------------------


def reference_winning(position: Position, puzzle: Puzzle) -> list[int]:
    ref = reference.solve(position, puzzle.side, puzzle.objective)
    return [c for c, v in ref.moves.items() if v >= puzzle.target]


def independent_classes(position: Position, cards: list[int], objective: str) -> int:
    groups: list[int] = []
    for card in cards:
        if not any(independent_alike(position, g, card, objective) for g in groups):
            groups.append(card)
    return len(groups)


def reference_pressure(position: Position, puzzle: Puzzle) -> int:
    """Winning classes at the side's next turn, the defence in between at its toughest, by
    the reference solver (99 when play ends first)."""
    if position.is_over:
        return 99
    if position.deal.side_of(position.to_move) == puzzle.side:
        return independent_classes(position, reference_winning(position, puzzle),
                                   puzzle.objective)
    return min(reference_pressure(position.after(c), puzzle)
               for c in reference_best_replies(position, puzzle))


def reference_best_replies(position: Position, puzzle: Puzzle) -> list[int]:
    """The defence's legal cards that hold the side to its least value by the reference."""
    moves = reference.solve(position, puzzle.side, puzzle.objective).moves
    least = min(moves.values())
    return [c for c in position.legal_moves() if moves[c] == least]


def reference_swing(puzzle: Puzzle) -> int:
    """The heuristic's result against a defence minimising the reference's value."""
    heuristic = HeuristicPlayer()
    p = puzzle.position
    deal = p.deal
    while not p.is_over:
        legal = p.legal_moves()
        if deal.side_of(p.to_move) == puzzle.side:
            card = legal[0] if len(legal) == 1 else heuristic.act(observation_of(p, p.to_move))
        else:
            moves = reference.solve(p, puzzle.side, puzzle.objective).moves
            card = min(legal, key=lambda c: moves[c])
        p = p.after(card)
    return reference.final_value(p, puzzle.side, puzzle.objective)


@pytest.mark.parametrize("players, cards", SMALL)
@pytest.mark.parametrize("preset", PRESETS)
def test_generated_puzzles_are_sound_by_the_reference(players, cards, preset, solver):
    puzzles = small_puzzles(players, cards, preset, count=3, solver=solver)
    assert len(puzzles) == 3
    for puzzle in puzzles:
        assert check_puzzle(puzzle, solver) == []
        start = puzzle.position
        assert reference.solve(start, puzzle.side, puzzle.objective).value >= puzzle.target
        p = start
        real = 0
        for card in puzzle.line:
            if p.deal.side_of(p.to_move) == puzzle.side:
                winning = reference_winning(p, puzzle)
                # exactly one class: every winning card plays alike with the line's card
                assert card in winning
                assert all(independent_alike(p, card, c, puzzle.objective) for c in winning)
                legal = p.legal_moves()
                real += any(not independent_alike(p, card, c, puzzle.objective) for c in legal)
            else:
                # the toughest defence: one of the best replies, and of those the one that
                # leaves the fewest winning classes at the next turn
                best = reference_best_replies(p, puzzle)
                assert card in best
                least = min(reference_pressure(p.after(c), puzzle) for c in best)
                assert reference_pressure(p.after(card), puzzle) == least
            p = p.after(card)
        assert real >= 2
        # the line ends on the solver's card
        last = puzzle.positions[-2]
        assert last.deal.side_of(last.to_move) == puzzle.side
        assert reference_swing(puzzle) < puzzle.target


@pytest.mark.parametrize("players, cards", SMALL)
def test_win_puzzles_near_the_end_of_a_match(players, cards, solver):
    puzzles = list(generate(players, count=2, seed=8, cards=cards, objective="win",
                            solver=solver, max_tries=20000))
    assert len(puzzles) == 2
    for puzzle in puzzles:
        assert puzzle.objective == "win" and puzzle.target == 1
        assert "peg-out" in puzzle.themes
        assert check_puzzle(puzzle, solver) == []
        assert reference.solve(puzzle.position, puzzle.side, "win").value == 1
        assert reference_swing(puzzle) == 0


def test_generated_puzzles_are_reproducible(solver):
    first = list(generate(2, count=3, seed=11, cards=4, solver=solver))
    again = list(generate(2, count=3, seed=11, cards=4, solver=Solver(16)))
    assert first == again
    for puzzle in first:
        assert candidate(puzzle.seed, 2, cards=4) == puzzle
    assert len({p.seed for p in first}) == 3


def test_generated_from_the_pack(solver):
    """Deals as the game engine deals them (runs as they come), every player count."""
    for players in (2, 3, 4):
        (puzzle,) = generate(players, count=1, seed=3, solver=solver, assess=False)
        assert check_puzzle(puzzle, solver) == []
        assert puzzle.position.deal.score is not None
        assert len(puzzle.position.deal.hands[0]) in (6, 9, 12, 15, 18, 21)


def test_progress_and_max_tries(solver):
    seen = []
    puzzles = list(generate(2, count=None, seed=2, cards=3, solver=solver, assess=False,
                            max_tries=40, progress=lambda tried, accepted: seen.append(
                                (tried, accepted))))
    assert [t for t, _ in seen] == list(range(1, 41))
    assert seen[-1][1] == len(puzzles) and 0 < len(puzzles) < 40


# ---- rejections ---------------------------------------------------------------------------------


def test_two_winning_cards_are_rejected(solver):
    position = Position.from_line("N:-.AK.-.- -.-.-.32 dealer=S trump=H")
    ref = reference.solve(position, 0, "points")
    assert ref.moves_str() == {"KH": 10, "AH": 10}  # two cards of different points both win
    assert not play_alike(position, parse_card("AH"), parse_card("KH"))
    assert examine(position, "points", solver=solver) == \
        "2 different cards reach the target at the first turn"
    puzzle = Puzzle(position, 0, "points", 10, (parse_card("AH"), parse_card("2C")))
    problems = check_puzzle(puzzle, solver)
    assert "line[0] AH: 2 different cards reach the target here (AH, KH)" in problems


def test_a_one_turn_puzzle_is_rejected(solver):
    position = Position.from_line("N:J.A.-.- 5.-.-.4 dealer=S turnup=6S")
    assert examine(position, "points", solver=solver).startswith("1 solver turn(s) with a real")
    side = 0
    value = reference.solve(position, side, "points").value
    (winning,) = winning_cards(position, side, "points", value, solver)
    line = (winning[0],)
    problems = check_puzzle(Puzzle(position, side, "points", value, line), solver)
    assert any("1 solver turn(s) with a real choice; a puzzle needs at least 2" in p
               for p in problems)


def test_a_puzzle_the_heuristic_solves_is_rejected(solver):
    position = Position.from_line("N:2.-.9.- 4.-.-.T dealer=N turnup=QS")
    reason = examine(position, "points", solver=solver)
    assert reason.startswith("no swing: the heuristic player reaches the target")
    side = position.deal.side_of(position.to_move)
    value = reference.solve(position, side, "points").value
    oracle = Oracle(side, "points", value, solver)
    line, _ = main_line(position, oracle, trim=False)
    problems = check_puzzle(Puzzle(position, side, "points", value, line), solver, min_turns=0)
    assert problems and problems[-1].startswith("no swing")


def test_an_accepted_handmade_puzzle(solver):
    position = Position.from_line("N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H")
    puzzle = examine(position, "points", solver=solver)
    assert isinstance(puzzle, Puzzle)
    assert [card_str(c) for c in puzzle.line] == ["2C", "5H", "QH", "AH"]
    assert puzzle.target == 18 == reference.solve(position, 0, "points").value
    assert check_puzzle(puzzle, solver) == []
    assert "save-the-ten" in puzzle.themes


def test_check_finds_each_broken_rule(solver):
    good = Puzzle.from_toml(SAMPLE)
    c = parse_card
    # (the first card off the main line is the one fault named: what follows it is judged by
    # nothing, and would only repeat it)
    def line_problems(puzzle: Puzzle) -> list[str]:
        return [p for p in check_puzzle(puzzle, solver) if p.startswith("line[")]

    # a losing card on the line
    bad = dataclasses.replace(good, line=(c("AH"), c("5H"), c("2C"), c("3C")))
    assert line_problems(bad) == ["line[0] AH: the line's card misses the target (value 10)"]
    # a defence that is not the toughest: S ruffing with the Queen instead of the Five
    bad = dataclasses.replace(good, line=(c("2C"), c("QH"), c("5H"), c("AH")))
    assert line_problems(bad) == ["line[1] QH: not the toughest defence (that is 5H)"]
    # a line that goes on past the main line's end, where several cards reach the target
    falls = load_puzzle(COLLECTION / "012-the-five-falls.toml")
    assert check_puzzle(falls, solver) == []
    assert check_puzzle(dataclasses.replace(falls, line=falls.line + (c("2C"),)), solver) == [
        "line[3] 2C: 4 different cards reach the target here (2S, 5D, 4D, 2C), where the main "
        "line ends: trim the 1 card(s) after the last real choice (line[2])"]
    # a target the defence can hold it under
    bad = dataclasses.replace(good, target=19)
    assert check_puzzle(bad, solver) == [
        "the target 19 does not hold against every defence: the value is 18"]
    # forced cards after the last real choice
    bad = dataclasses.replace(good, line=good.line + (c("TH"), c("3C")))
    assert any("does not end on the solver's last real choice" in p
               for p in check_puzzle(bad, solver))
    # the side not to play
    bad = dataclasses.replace(good, side=1)
    assert check_puzzle(bad, solver)[0].startswith("the solver's side S is not to play")


def test_check_counts_the_real_choices_and_faults_a_line_made_in_code(solver):
    """What ``load_puzzle`` refuses before the check (an illegal card, an empty line, a deal
    played out) is faulted by the check too, for a puzzle made in code; and the real choices
    are counted, the main line's still to come with those of a line that stops short."""
    c = parse_card
    by_hand = dataclasses.replace(Puzzle.from_toml(SAMPLE), rating=None, solved_by=(),
                                  evidence=())
    assert check_puzzle(by_hand, solver, min_turns=3) == [
        "2 solver turn(s) with a real choice; a puzzle needs at least 3"]
    assert check_puzzle(dataclasses.replace(by_hand, line=by_hand.line[:1]), solver) == [
        "the line stops before the solver's last real choice: the main line goes on with "
        "5H QH AH"]
    assert check_puzzle(dataclasses.replace(by_hand, line=()), solver) == [
        "0 solver turn(s) with a real choice; a puzzle needs at least 2"]
    assert check_puzzle(dataclasses.replace(by_hand, line=(c("3C"),)), solver) == [
        "line[0] 3C: not a legal card here"]
    last = by_hand.positions[-1]            # (after the line: N's TH and S's 3C left)
    over = last.after(c("TH")).after(c("3C"))
    assert check_puzzle(dataclasses.replace(by_hand, position=over, line=()), solver) == [
        "the position has no card left to play"]
    # a line past the main line's end whose one real choice is its first card: trimmed to it
    first = Position.from_line("N:Q.A3.2.- 8.9.Q.J dealer=N turnup=9S play=QD,QS,AH")
    assert check_puzzle(Puzzle(first, 1, "points", 2, (c("8S"), c("9H"))), solver) == [
        "line[1] 9H: 2 different cards reach the target here (9H, JC), where the main line "
        "ends: trim the 1 card(s) after the last real choice (line[0])"]
    # ... and one that goes on with forced cards after it: trimmed to it too
    forced = Position.from_line("N:-.K.T5.- -.82.-.Q dealer=N turnup=3H play=2H,KH,TD")
    assert check_puzzle(Puzzle(forced, 1, "points", 2, (c("8H"), c("QC"), c("5D"))),
                        solver)[0] == ("the line does not end on the solver's last real choice "
                                       "(line[0]): trim the 2 card(s) after it")
    # a line of forced cards alone: no real choice to trim it to
    assert check_puzzle(dataclasses.replace(by_hand, position=last, line=(c("TH"),)),
                        solver) == [
        "0 solver turn(s) with a real choice; a puzzle needs at least 2",
        "no swing: the heuristic player reaches the target (18 >= 18) against best defence"]


def test_cards_of_another_hand_never_play_alike_and_an_oracle_is_made_for_its_puzzle(solver):
    position = Puzzle.from_toml(SAMPLE).position        # N to play: AH TH 2C
    c = parse_card
    assert play_alike(position, c("2C"), c("3C")) is False      # (3C is S's)
    assert play_alike(position, c("3C"), c("2C")) is False
    assert play_alike(position, c("2C"), c("2C")) is True
    # an oracle is reused only for its own side, objective and target, over the same engine
    oracle = oracle_for(0, "points", 18, solver)
    assert oracle_for(0, "points", 18, oracle) is oracle and engine_of(oracle) is solver
    for side, objective, target in ((1, "points", 18), (0, "margin", 18), (0, "points", 17)):
        other = oracle_for(side, objective, target, oracle)
        assert (other.side, other.objective, other.target) == (side, objective, target)
        assert other.solver is solver
    assert engine_of(solver) is solver and isinstance(engine_of(None), Solver)


def test_a_line_played_on_to_the_end_is_told_how_much_to_trim_in_one_step(solver):
    """A collection puzzle's line played on to the end of the deal (the main line, then any
    card): the first problem check names says how many cards to trim, and trimmed so the line
    is the puzzle's again."""
    trimmed = 0
    for path in sorted(COLLECTION.glob("*.toml"))[:16]:
        puzzle = load_puzzle(path)
        oracle = oracle_for(puzzle.side, puzzle.objective, puzzle.target, solver)
        end = puzzle.positions[-1]
        more, _ = main_line(end, oracle, trim=False)
        longer = puzzle.line + more
        for card in more:
            end = end.after(card)
        if not end.is_over:
            longer += (end.legal_moves()[0],)
        problem = check_puzzle(dataclasses.replace(puzzle, line=longer), solver)[0]
        cut = int(re.search(r"trim the (\d+) card\(s\) after", problem).group(1))
        assert longer[:len(longer) - cut] == puzzle.line, (path.name, problem)
        trimmed += "different cards reach the target here" in problem
    assert trimmed     # (some stopped where several cards win, past the main line's end)


def test_toughest_reply_and_refutation(solver):
    position = Position.from_line("N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H play=2C")
    assert card_str(toughest_reply(position, 0, "points", 18, solver)) == "5H"
    with pytest.raises(PuzzleError, match=r"^N is to play, of the side solving"):
        toughest_reply(Position.from_line("N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H"), 0,
                       "points", 18, solver)
    wrong = Position.from_line("N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H play=AH")
    line, value = refutation(wrong, 0, "points", solver=solver)
    assert value == reference.solve(wrong, 0, "points").value < 18
    assert len(line) == 5


def test_classes_group_alike_cards():
    position = Position.from_line("N:-.-.986.- -.-.742.- dealer=S trump=H")
    groups = card_classes(position)
    assert {frozenset(card_str(c) for c in g) for g in groups} == {
        frozenset({"9D", "8D"}), frozenset({"6D"})}
    # the Five counts 5 toward Game: never alike with the Four beside it
    position = Position.from_line("N:-.-.54.- -.-.A2.- dealer=S trump=H")
    assert len(card_classes(position)) == 2


@pytest.mark.slow
@pytest.mark.parametrize("players, cards", SMALL)
@pytest.mark.parametrize("preset", PRESETS + ("five-for-five", "classic"))
def test_many_generated_puzzles_against_the_reference(players, cards, preset, solver):
    """The reference check of ``test_generated_puzzles_are_sound_by_the_reference`` on 40
    puzzles of each kind."""
    for puzzle in small_puzzles(players, cards, preset, count=40, seed=99, solver=solver):
        assert check_puzzle(puzzle, solver) == []
        p = puzzle.position
        for card in puzzle.line:
            if p.deal.side_of(p.to_move) == puzzle.side:
                winning = reference_winning(p, puzzle)
                assert card in winning
                assert all(independent_alike(p, card, c, puzzle.objective) for c in winning)
            p = p.after(card)
        assert reference_swing(puzzle) < puzzle.target


# ---- the toughest defence's tie-break and the trim, against the reference -----------------------


def reference_line_turns(position: Position, puzzle: Puzzle, lookahead: bool) -> list[bool]:
    """The main line from ``position`` by the reference solver, untrimmed: for each solver turn
    on it, whether it had a real choice.  It stops before a solver turn with no winning class
    or two.  The defence plays the toughest reply, ties broken by the real choices of the line
    after each (``lookahead``; inside that count, ties go to the first reply), then the first
    in the hand's order."""
    turns: list[bool] = []
    p = position
    while not p.is_over:
        legal = p.legal_moves()
        if p.deal.side_of(p.to_move) == puzzle.side:
            winning = reference_winning(p, puzzle)
            if independent_classes(p, winning, puzzle.objective) != 1:
                break
            turns.append(independent_classes(p, legal, puzzle.objective) > 1)
            card = winning[0]
        else:
            card = reference_toughest(p, puzzle, lookahead)
        p = p.after(card)
    return turns


def reference_toughest(p: Position, puzzle: Puzzle, lookahead: bool = True) -> int:
    replies: list[int] = []
    for c in reference_best_replies(p, puzzle):
        if not any(independent_alike(p, r, c, puzzle.objective) for r in replies):
            replies.append(c)
    pressures = [reference_pressure(p.after(r), puzzle) for r in replies]
    tied = [r for r, q in zip(replies, pressures) if q == min(pressures)]
    if not lookahead or len(tied) == 1:
        return tied[0]
    lengths = [sum(reference_line_turns(p.after(r), puzzle, False)) for r in tied]
    return tied[lengths.index(max(lengths))]


def tie_breaks_by_the_reference(puzzle: Puzzle) -> int:
    """Check every defence card of the line is the reference's toughest reply with its
    tie-break, and the line the reference's main line cut after its last real choice; the
    number of defence turns where the tie-break changed the reply."""
    broken = 0
    p = puzzle.position
    for card in puzzle.line:
        if p.deal.side_of(p.to_move) != puzzle.side:
            best = reference_toughest(p, puzzle)
            assert independent_alike(p, best, card, puzzle.objective), puzzle
            broken += reference_toughest(p, puzzle, False) != best
        p = p.after(card)
    turns = reference_line_turns(puzzle.position, puzzle, True)
    solver_cards = len(puzzle.solver_turns())
    assert turns[solver_cards - 1] and not any(turns[solver_cards:]), puzzle
    return broken


@pytest.mark.parametrize("line, side, target", [
    # the lines after both replies hold as many real choices: the first card in hand order
    ("N:J.5.-.Q 4.-.Q.6 76.J.-.- 8.98.-.- dealer=N turnup=4H play=6C,7S,9H,5H", 0, 5),
    ("N:2.T98.-.- 75.2.K.- rules=strict dealer=S turnup=QC play=2S", 0, 1),
    ("N:T.-.A.7 94.-.-.A -.6.-.KQ J2.J.-.- dealer=E turnup=4C play=KC", 0, 4),
])
def test_the_toughest_reply_where_the_tie_break_ties_too_is_the_references(line, side, target,
                                                                           solver):
    """Replies that leave as few winning classes and as long a line: the first in the hand's
    order, as the reference has it, with the tie-break by the line and without it (found by
    a search of random positions)."""
    position = Position.from_line(line)
    puzzle = SimpleNamespace(side=side, objective="points", target=target)
    oracle = oracle_for(side, "points", target, solver)
    assert len(oracle.best_replies(position)) > 1
    for lookahead in (True, False):
        assert oracle.toughest(position, lookahead) == \
            reference_toughest(position, puzzle, lookahead)


@pytest.mark.parametrize("players, cards", SMALL)
@pytest.mark.parametrize("preset", PRESETS)
def test_toughest_defence_tie_break_and_trim_by_the_reference(players, cards, preset, solver):
    puzzles = small_puzzles(players, cards, preset, count=3, seed=13, solver=solver)
    assert len(puzzles) == 3
    for puzzle in puzzles:
        tie_breaks_by_the_reference(puzzle)


@pytest.mark.parametrize("players, cards, preset", [(2, 5, "all-fives"), (4, 3, "strict")])
def test_the_tie_break_decides_some_lines_as_the_reference_does(players, cards, preset, solver):
    """On these deals some defence card of the line is not the first of the replies that
    leave the fewest winning cards: the tie-break decides it, as the reference's does."""
    puzzles = small_puzzles(players, cards, preset, count=6, seed=13, solver=solver)
    assert len(puzzles) == 6
    assert sum(tie_breaks_by_the_reference(puzzle) for puzzle in puzzles) > 0


@pytest.mark.parametrize("hands, options", [
    # fives count nothing toward Game: the trump Five and Four differ only in points
    (["5H 4H", "AH 5C"], {"game_counts_fives": False}),
    # Low to the captor: the Two of trumps is worth a point to whoever takes it, the Three not
    (["3H 2H", "AH 5C"], {"low_to": "captor"}),
])
def test_cards_of_different_points_never_play_alike(hands, options, solver):
    from handmade import make_position
    position = make_position(hands, "H", "S", **options)
    a, b = position.hands[0]
    assert game_pips(a, position.deal) == game_pips(b, position.deal)
    assert card_points(position.deal, "points")[a] != card_points(position.deal, "points")[b]
    assert not play_alike(position, a, b) and not independent_alike(position, a, b, "points")
    ref = reference.solve(position, 0, "points")
    assert ref.moves[a] != ref.moves[b]          # they do not play alike: their values differ
    assert len(card_classes(position)) == 2


@pytest.mark.parametrize("hands, options, off", [
    # Low to the captor: the Two of trumps pegs Low for whoever takes it, the Three nothing
    (["3H 2H", "AH 5C"], {"low_to": "captor"}, {"low_to": "holder"}),
    # no captures nor Game: the Jack and Queen of trumps differ only by the Jack's point
    (["QH JH", "AH 5C"], {"capture": False, "game": False}, {"capture": False, "game": False,
                                                              "jack": False}),
], ids=["low-to-captor", "jack"])
def test_under_win_a_card_pegging_an_end_point_as_the_trick_closes_never_plays_alike(
        hands, options, off):
    """For objective ``win`` the captures are all the points a card carries, so two trumps
    side by side look alike unless the one that pegs an end point for its captor (Low to the
    captor, the Jack) is set apart; no test ran ``play_alike`` there, so two genuinely
    different winning cards could have passed as one class and a puzzle with two solutions as
    sound.  With that end point off, they do play alike."""
    from handmade import make_position

    position = make_position(hands, "H", "S", **options)
    a, b = position.hands[0]
    assert card_points(position.deal, "win")[a] == card_points(position.deal, "win")[b]
    assert play_alike(position, a, b, "win") is False
    assert not independent_alike(position, a, b, "win")
    plain = make_position(hands, "H", "S", **off)
    assert play_alike(plain, a, b, "win") and independent_alike(plain, a, b, "win")


def test_a_line_that_stops_before_the_last_real_choice_is_faulted(solver):
    """Cut after an earlier real choice, a line still ends on a real choice and keeps two of
    them, but it leaves the last one out: the check says so."""
    position = Position.from_line("N:K.A2.J.2 A4.T7.-.4 dealer=S turnup=9D play=2H")
    puzzle = examine(position, "points", solver=solver)
    assert check_puzzle(puzzle, solver) == []
    real = [i for i in puzzle.solver_turns()
            if len(card_classes(puzzle.positions[i], None, "points")) > 1]
    assert len(real) == 4
    short = dataclasses.replace(puzzle, line=puzzle.line[:real[-2] + 1])
    rest = " ".join(card_str(c) for c in puzzle.line[real[-2] + 1:])
    assert check_puzzle(short, solver) == [
        f"the line stops before the solver's last real choice: the main line goes on with "
        f"{rest}"]
    # cut after a defender's card, or a forced card of the solver's, it stops short just the
    # same: the fix is the rest of the line, not cards trimmed, and its real choices count
    for end in range(real[-2] + 2, real[-1] + 1):
        short = dataclasses.replace(puzzle, line=puzzle.line[:end])
        rest = " ".join(card_str(c) for c in puzzle.line[end:])
        assert check_puzzle(short, solver) == [
            f"the line stops before the solver's last real choice: the main line goes on "
            f"with {rest}"], end


def test_the_readme_s_puzzle_file_is_what_examine_makes_of_its_position():
    """The README's sample puzzle file (under "The puzzle file") is the one ``examine`` makes
    of the position its "From Python" example gives it: the engine's counts and all."""
    from pathlib import Path

    from solver.deal import Position
    from solver.puzzles import examine

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### The puzzle file"):]
    block = section[section.index("```toml\n") + len("```toml\n"):]
    block = block[:block.index("```")]
    puzzle = examine(Position.from_line("N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H"), "points")
    assert puzzle.to_toml() == block


@pytest.mark.parametrize("options, message", [
    ({"count": -1}, "count: -1 is not a whole number from 1"),
    ({"count": "2"}, "count: '2' is not a whole number from 1"),
    ({"first": -1}, "first: -1 is not a whole number from 0"),
    ({"cards": 0}, "cards: 0 is not a whole number from 1"),
])
def test_generate_refuses_counts_that_are_none(options, message):
    """A count below 1 made nothing without a word; cards=0 said no pack held the hands."""
    with pytest.raises(AllFivesError, match=f"^{message}$"):
        list(generate(**options))


def test_evidence_of_no_tries_is_refused_from_python_too():
    """A Puzzle made in Python with pimc_tries 0 (the file reader refuses it) divided by
    zero when its record was checked: now an AllFivesError naming it."""
    from solver.puzzles.evidence import rating_of

    with pytest.raises(AllFivesError, match="pimc_tries 0 is not a whole number from 1"):
        rating_of({"solved_pimc_2": 0, "pimc_tries": 0})
