"""Themes on constructed positions, and the rating's evidence and monotonicity."""

from __future__ import annotations

import random

import pytest

from solver import reference
from solver.cards import Card, card_str, parse_card, rank_of, suit_of
from solver.deal import Position
from solver.puzzles import THEMES, Puzzle, check_puzzle, evaluate, examine, rate, rating_of
from solver.puzzles.evidence import LADDER, RANDOM_TRIES
from solver.puzzles.rating import _voids, sample_world
from solver.puzzles.themelist import check_theme
from solver.puzzles.themes import title_of, why_never_found
from solver.errors import AllFivesError
from solver.rules import Rules
from solver.search import Solver
from solver.shuffle import random_position

#: (position, objective, the line, the themes), each worked through by hand below.
CASES = {
    # N leads 4S to S's Queen; on S's JS, N throws 3D rather than ruff with the 5C (which would
    # win that trick): the ruff is kept for the Ten of diamonds.
    "duck": ("N:4.-.3.5 QJ.-.T.- dealer=S turnup=AC", "margin", "4S QS JS 3D", ("duck",)),
    # S leads the 8S, N wins and leads the Ten of diamonds; S trumps it with the King of clubs
    # although it holds the 8D.
    "ruff-the-ten": ("N:A.-.T7.- 8.-.8.K dealer=N turnup=QC", "points", "8S AS TD KC",
                     ("ruff-the-ten",)),
    # S throws the QH under N's Queen of spades, lets N's QC go to its King and then catches
    # N's Five with its Ten: the Ten is saved, the Five caught, and the QH play is a duck.
    "save-the-ten": ("N:Q.-.-.Q5 -.Q.-.KT dealer=S turnup=AC play=QS", "points",
                     "QH QC KC", ("save-the-ten", "catch-the-five", "duck")),
    # N leads its small club (a trump) while S still holds the Five of trumps: the Five falls.
    "catch-the-five": ("N:A6.-.-.7 K.7.-.5 dealer=S turnup=TC", "margin", "7C 5C AS",
                       ("catch-the-five", "draw-trumps")),
    # N wins S's 3S with the 7S and leads the Jack of trumps: S must follow with its Ten.
    "draw-trumps": ("N:7.J.-.J 43.T.-.- dealer=N turnup=4H play=3S", "margin", "7S JH",
                    ("draw-trumps",)),
    # N leads the 2H, a trump, into S's Jack (the trick and its Jack go to S) so that its TC and
    # 6C are good later.
    "sacrifice": ("N:-.2.-.T6 -.J.-.A2 dealer=S turnup=AH", "points", "2H JH AC 6C",
                  ("draw-trumps", "sacrifice")),
    # Game goes to N by few pips, and goes the other way after a wrong card.
    "game-by-a-pip": ("N:9.3.4.- -.6.Q.5 dealer=S turnup=8D", "points", "9S 6H 3H",
                      ("game-by-a-pip",)),
    # The score is 52 to 58 to 61: objective win.
    "peg-out": ("N:-.8.-.Q9 -.7.3.3 dealer=N turnup=5D score=52,58", "win", "7H 8H QC 3D",
                ("game-by-a-pip", "peg-out")),
    # Four players, strict follow: E's Jack of clubs falls to the side's trumps.
    "jack-hunt": ("N:-.4.A.- -.Q.-.J 3.-.-.K K.-.-.5 rules=strict dealer=E turnup=3C", "margin",
                  "KC 5C AD", ("jack-hunt", "draw-trumps")),
    # N leads its small trump into S's Eight; S, on lead with nothing but diamonds, must lead
    # one into N's Jack-Six over its Ace-Eight-Five, and N's Jack takes the trick.
    "endplay": ("N:-.2.J6.A -.8.A85.- dealer=S turnup=JH", "points", "2H 8H 8D JD AC",
                ("draw-trumps", "endplay")),
    # Four real choices.
    "long": ("N:K.A2.J.2 A4.T7.-.4 dealer=S turnup=9D play=2H", "points",
             "TH 4C 2C 7H AH KS AS", ("long",)),
}


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(18)


@pytest.fixture(scope="module")
def puzzles(solver) -> dict[str, Puzzle]:
    found = {}
    for name, (line, objective, _, _) in CASES.items():
        puzzle = examine(Position.from_line(line), objective, solver=solver)
        assert isinstance(puzzle, Puzzle), (name, puzzle)
        found[name] = puzzle
    return found


@pytest.mark.parametrize("name", CASES)
def test_theme_on_a_constructed_position(name, puzzles, solver):
    _, _, line, themes = CASES[name]
    puzzle = puzzles[name]
    assert " ".join(card_str(c) for c in puzzle.line) == line
    assert puzzle.themes == themes
    assert name in puzzle.themes
    assert check_puzzle(puzzle, solver) == []


def test_every_theme_has_a_case():
    assert set(CASES) == set(THEMES)
    for name, description in THEMES.items():
        assert description and check_theme(name) == name
    with pytest.raises(AllFivesError, match="unknown theme 'pin'"):
        check_theme("pin")
    assert title_of(("long", "duck")) == "Duck" and title_of(()) == "Find the only line"


#: (position, objective, the line, endplay?): a defender on lead after winning the trick
#: before leads to a trick the side wins with a card a defender's card outranked; the theme
#: needs that lead to be into a tenace of the suit led and the defender to have no safe exit.
ENDPLAYS = [
    # S ruffs the Ace of clubs and leads its Five of diamonds into N's Jack-Six: the Queen of
    # spades, or the Ace of diamonds, would cost the defence a point of margin more.
    ("N:-.2.J6.A Q.8.A5.- dealer=S turnup=JH", "margin", "AC 8H 5D JD", True),
    # Four players: E trumps N's spade and, left with the King-Nine of hearts, must lead one
    # into N-S's hearts, and N's Queen wins the trick.
    ("N:9.Q4.-.- -.K9.-.7 -.AJ.8.- 6.3.K.- dealer=W turnup=5C", "points",
     "9S 7C 8D 6S 9H JH", True),
    # As the first, S holding the King of spades instead: leading it is as good for the
    # defence as the Five of diamonds, a safe exit, so the Jack's trick is no endplay.
    ("N:-.2.J6.A K.8.A5.- dealer=S turnup=JH", "points", "AC 8H 5D JD", False),
    ("N:-.2.J6.A K.8.A5.- dealer=S turnup=JH", "margin", "AC 8H 5D JD", False),
    # Three players: E, on lead, leads the JS and N trumps it with the 9D below S's JD: a
    # ruff, not a tenace (and E's JC was as good a lead).
    ("N:3.-.9.2 J4.-.-.J -.T4.J.- dealer=N turnup=KD play=4S,4H", "points", "3S JS TH 9D",
     False),
    # Three players: E, with nothing but hearts, must lead one, and N ruffs it with the Ten of
    # trumps below S's King: every lead costs the defence, but into a ruff, not a tenace.
    ("N:-.-.T.T6 -.J98.-.- K4.-.K.- dealer=N turnup=5D play=8H,4S", "points", "TC JH KS TD",
     False),
]


def _leads_to_an_outranked_winner(puzzle, solver, whole: bool = False
                                  ) -> list[tuple[Position, Card, Card]]:
    """The positions, in the solution, where a defender who won the trick before leads to a
    trick the side wins with a card some defender's card of its suit outranked, with the
    lead and the winning card: the theme's first condition, worked out here on its own, in
    the tricks begun before the line ends (``whole``: in the optimal play after it too)."""
    from solver.puzzles.themes import optimal_play
    from solver.puzzles.soundness import Oracle
    oracle = Oracle(puzzle.side, puzzle.objective, puzzle.target, solver)
    end = puzzle.position.after(*puzzle.line)
    final = end.after(*optimal_play(end, oracle))
    deal = final.deal
    found = []
    for k in range(1, len(final.completed)):
        if k * deal.players >= len(end.play) and not whole:
            break
        trick, last = final.completed[k], final.completed[k - 1]
        if deal.side_of(trick.leader) == puzzle.side or last.winner != trick.leader or \
                deal.side_of(trick.winner) != puzzle.side:
            continue
        before = deal.position(final.play[:k * deal.players])
        won = trick.cards[(trick.winner - trick.leader) % deal.players]
        if any(suit_of(c) == suit_of(won) and rank_of(c) > rank_of(won)
               for s, h in enumerate(before.hands) if deal.side_of(s) != puzzle.side
               for c in h):
            found.append((before, trick.cards[0], won))
    return found


@pytest.mark.parametrize("line, objective, cards, endplay", ENDPLAYS)
def test_endplay_needs_a_tenace_and_no_safe_exit(line, objective, cards, endplay, solver):
    puzzle = examine(Position.from_line(line), objective, solver=solver)
    assert isinstance(puzzle, Puzzle) and " ".join(puzzle.line_str()) == cards
    leads = _leads_to_an_outranked_winner(puzzle, solver)
    assert leads                                   # the first condition alone says endplay
    assert ("endplay" in puzzle.themes) == endplay

    # The rest by the reference solver: the trick's winner follows the suit led, and every
    # lead leaves the side at least what the lead in the solution does, and every lead of
    # another suit more.
    def no_safe_exit(before, lead):
        values = {c: reference.solve(before.after(c), puzzle.side, objective).value
                  for c in before.legal_moves()}
        return all(v > values[lead] or (v == values[lead] and suit_of(c) == suit_of(lead))
                   for c, v in values.items())
    assert any(suit_of(won) == suit_of(lead) and no_safe_exit(before, lead)
               for before, lead, won in leads) == endplay


def test_an_endplay_in_the_play_after_the_line_is_none(solver):
    """Three players: E's 12 is safe once the line ends (its J♥ overtrumps N's T♥); in the
    play after it N, with only diamonds left, leads the 2♦ to a trick E wins with the 7♦
    below N's A♦ J♦, where the goal is safe whatever the defence does: no endplay (a generated
    puzzle was titled one)."""
    position = Position.from_line("N:-.T3.AJ42.- -.J7.73.98 A97.A.-.J4 dealer=E turnup=QH "
                                  "play=AH,3H")
    puzzle = examine(position, "points", solver=solver)
    assert isinstance(puzzle, Puzzle) and " ".join(puzzle.line_str()) == "7H 9S TH JH"
    assert _leads_to_an_outranked_winner(puzzle, solver, whole=True)
    assert not _leads_to_an_outranked_winner(puzzle, solver)
    assert "endplay" not in puzzle.themes


def test_ruff_the_ten_needs_the_suit_led_in_hand(puzzles):
    puzzle = puzzles["ruff-the-ten"]
    p = puzzle.positions[3]                      # S to play to N's Ten of diamonds
    assert card_str(p.current.cards[0]) == "TD"
    assert any(suit_of(c) == suit_of(p.current.cards[0]) for c in p.hands[p.to_move])
    assert suit_of(puzzle.line[3]) == p.deal.trump


def test_themes_with_follow_strict_never_ruff(solver):
    """The ruff-the-ten case under strict follow: S, holding a diamond, may not trump N's Ten
    of diamonds, so the theme's card is never legal, and the theme is said never to be found
    (a generated sample rarely holds the theme even under the default rules)."""
    line, _, played, _ = CASES["ruff-the-ten"]
    strict = Position.from_line(line + " follow=strict")
    to_the_ten = strict.after(*(parse_card(c) for c in played.split()[:3]))
    assert card_str(to_the_ten.current.cards[-1]) == "TD"
    assert parse_card("KC") not in to_the_ten.legal_moves()
    assert parse_card("KC") in Position.from_line(line).after(
        *(parse_card(c) for c in played.split()[:3])).legal_moves()
    assert "followed" in why_never_found("ruff-the-ten", strict.deal.rules)
    assert why_never_found("ruff-the-ten", Rules.preset("all-fives")) is None


def test_a_card_theme_needs_a_card_worth_something(solver):
    """Under all-fours the trump Five neither captures nor counts toward Game: no prize."""
    from solver.puzzles.themes import worth
    fours = Position.from_line("N:-.5T.-.- -.AJ.-.- rules=all-fours dealer=S trump=H").deal
    fives = Position.from_line("N:-.5T.-.- -.AJ.-.- dealer=S trump=H").deal
    assert worth(fours, parse_card("5H")) == 0 < worth(fives, parse_card("5H")) == 10
    assert worth(fours, parse_card("TH")) == 10 and worth(fours, parse_card("JH")) == 2
    for puzzle in generate_small(2, 4, "all-fours", 12, solver):
        assert "catch-the-five" not in puzzle.themes


def test_peg_out_only_with_objective_win(solver):
    """The peg-out case's position pegs out by its line whatever the objective, but only a
    puzzle whose objective is the match says so."""
    line = CASES["peg-out"][0]
    for objective in ("win", "points", "margin"):
        puzzle = examine(Position.from_line(line), objective, solver=solver)
        assert isinstance(puzzle, Puzzle), puzzle
        assert ("peg-out" in puzzle.themes) == (objective == "win"), (objective, puzzle.themes)


def generate_small(players, cards, preset, count, solver):
    from solver.puzzles import generate
    return list(generate(players, Rules.preset(preset), count=count, seed=21, cards=cards,
                         solver=solver, max_tries=5000))


# ---- rating ----------------------------------------------------------------------------------


BASE = {"solved_random": 8, "solved_heuristic": 0, "solved_search_200": 1, "solved_pimc_2": 1,
        "solved_search_2000": 1, "solved_pimc_8": 1, "solved_cheater": 1, "real_choices": 2,
        "tempting": 1, "nodes": 500}

HARDER = [
    {"solved_random": 3}, {"solved_random": 0}, {"solved_search_200": 0}, {"solved_pimc_2": 0},
    {"solved_search_2000": 0}, {"solved_pimc_8": 0}, {"real_choices": 3}, {"real_choices": 6},
    {"tempting": 2}, {"tempting": 7}, {"nodes": 5000}, {"nodes": 500_000},
]


@pytest.mark.parametrize("change", HARDER)
def test_harder_evidence_rates_higher(change):
    assert rating_of({**BASE, **change}) > rating_of(BASE)


def test_rating_is_monotone_in_every_piece_of_evidence():
    rng = random.Random("ratings")
    keys = [k for k in BASE]
    for _ in range(300):
        a = {"solved_random": rng.randint(0, RANDOM_TRIES), "real_choices": rng.randint(2, 12),
             "tempting": rng.randint(0, 14), "nodes": rng.randint(0, 10 ** 7)}
        for name, _ in LADDER[1:]:
            a[f"solved_{name.replace('-', '_')}"] = rng.randint(0, 1)
        b = dict(a)
        key = rng.choice(keys)
        if key.startswith("solved_"):
            b[key] = max(0, b[key] - rng.randint(0, 2))
        else:
            b[key] += rng.randint(0, 5) * (1000 if key == "nodes" else 1)
        assert rating_of(b) >= rating_of(a)


def test_ladder_extremes():
    everyone = {f"solved_{n.replace('-', '_')}": 1 for n, _ in LADDER}
    everyone["solved_random"] = RANDOM_TRIES
    nobody = {k: 0 for k in everyone}
    nobody["solved_cheater"] = 1
    assert rating_of(everyone) < 1200 < 1800 < rating_of(nobody)


def test_rate_gathers_evidence(puzzles, solver):
    puzzle = puzzles["long"]
    assessment = evaluate(puzzle, solver)
    evidence = dict(assessment.evidence)
    assert evidence["solved_cheater"] == 1 and evidence["solved_heuristic"] == 0
    assert evidence["real_choices"] == 4 and evidence["nodes"] > 0
    assert 0 <= evidence["solved_random"] <= RANDOM_TRIES
    assert evidence["tempting"] <= evidence["wrong"]
    assert "cheater" in assessment.solved_by and "heuristic" not in assessment.solved_by
    assert rate(puzzle, solver) == assessment.rating == rating_of(evidence)
    assert puzzle.rating == assessment.rating       # examine filled it in
    # a puzzle file takes exactly the evidence the rating gathers
    from solver.notation import EVIDENCE_KEYS

    assert [key for key, _ in assessment.evidence] == list(EVIDENCE_KEYS)


def test_harder_puzzle_rates_higher_on_constructed_cases(puzzles, solver):
    """The four-turn puzzle asks more of the solver than the two-turn one."""
    long, short = evaluate(puzzles["long"], solver), evaluate(puzzles["draw-trumps"], solver)
    assert dict(long.evidence)["real_choices"] > dict(short.evidence)["real_choices"]
    assert long.rating > short.rating


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", ["all-fives", "strict"])
def test_sampled_worlds_are_consistent(players, preset):
    rng = random.Random(f"worlds:{players}:{preset}")
    for _ in range(60):
        position = random_position(rng, players, rng.randint(2, 6), Rules.preset(preset))
        if position.is_over:
            continue
        seat = position.to_move
        world = sample_world(position, seat, rng)
        assert world.play == position.play
        assert world.hands[seat] == position.hands[seat]
        voids = _voids(position)
        for s in range(players):
            assert len(world.hands[s]) == len(position.hands[s])
            if s != seat:
                assert not set(world.hands[s]) & set(position.hands[seat])
                assert not {suit_of(c) for c in world.hands[s]} & voids[s]
        assert position.deal.turnup not in {c for h in world.hands for c in h}


@pytest.mark.parametrize("values, safe", [
    ({"KS": 3, "AD": 2, "5D": 2}, False),    # every other lead as good or worse: no safe exit
    ({"KS": 2, "AD": 3, "5D": 2}, True),     # the King of spades does as well: a safe exit
    ({"KS": 3, "AD": 1, "5D": 2}, True),     # the Ace of diamonds does better for the defence
])
def test_no_safe_exit_rule_on_given_values(values, safe):
    """The rule by itself, on values given for each lead of S (on lead with the KS, AD and
    5D after ruffing the Ace of clubs), the lead in the line being the 5D."""
    from types import SimpleNamespace
    from solver.puzzles.themes import _no_safe_exit
    before = Position.from_line("N:-.2.J6.A K.8.A5.- dealer=S turnup=JH play=AC,8H")
    assert sorted(card_str(c) for c in before.legal_moves()) == ["5D", "AD", "KS"]
    moves = {parse_card(c): v for c, v in values.items()}
    oracle = SimpleNamespace(solve=lambda p: SimpleNamespace(moves=moves))
    assert _no_safe_exit(SimpleNamespace(oracle=oracle), before, parse_card("5D")) == (not safe)
