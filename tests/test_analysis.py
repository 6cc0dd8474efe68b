"""solver.analysis: a line trick by trick, the end-of-deal points, and a played hand judged card
by card, all checked against the reference solver and hand-worked deals."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

import solver
from solver import reference
from solver.analysis import analyze_play, cost_of, given_away, in_part, play_out, unjudged
from solver.cards import parse_card, parse_cards, parse_suit
from solver.deal import Deal, Position, load
from solver.shuffle import random_deal
from solver.rules import Rules
from solver.scoring import end_points, score_position

EXAMPLES = Path(solver.__file__).parent / "examples"
TWO = EXAMPLES / "two-player.toml"
MID = EXAMPLES / "mid-trick.toml"


def played(hands: list[str], trump: str, dealer: str, play: str = "", rules: str = "all-fives",
           **options) -> Position:
    names = {2: "NS", 3: "NES", 4: "NESW"}[len(hands)]
    deal = Deal(tuple(tuple(parse_cards(h)) for h in hands), parse_suit(trump),
                names.index(dealer), Rules.preset(rules).replace(**options))
    return deal.position(parse_cards(play))


# ---- play_out ---------------------------------------------------------------------------------

def test_play_out_of_a_hand_worked_deal():
    # N: AH 2H TC, S: JH 5H 3C; hearts; dealer S so N leads.
    # 1. AH JH: N wins 4 + 1 = 5.  2. 2H 5H: S wins 5.  3. 3C TC: N wins, no trumps.
    position = played(["AH 2H TC", "JH 5H 3C"], "H", "S")
    tricks = play_out(position, parse_cards("AH JH 2H 5H 3C TC"))
    assert [(t.number, t.leader, t.winner, t.pegged, t.totals) for t in tricks] == [
        (1, 0, 0, 5, (5, 0)), (2, 0, 1, 5, (5, 5)), (3, 1, 0, 0, (5, 5))]
    assert tricks[2].cards == tuple(parse_cards("3C TC"))
    assert all(t.earlier == 0 for t in tricks)


def test_play_out_from_the_middle_of_a_trick():
    position = load(MID)  # two tricks done, three cards of the third on the table
    best = reference.solve(position)
    tricks = play_out(position, best.line)
    assert [t.number for t in tricks] == [3, 4, 5, 6]
    assert tricks[0].earlier == 3 and tricks[0].cards[:3] == position.current.cards
    assert all(t.earlier == 0 for t in tricks[1:])
    after = position.after(*best.line)
    assert tricks[-1].totals == score_position(after).captures
    # running totals start from the captures of the tricks already played
    before = score_position(position).captures
    first = tricks[0]
    expected = list(before)
    expected[position.deal.side_of(first.winner)] += first.pegged
    assert first.totals == tuple(expected)


def test_play_out_of_a_line_that_stops_inside_a_trick():
    position = played(["AH 2H TC", "JH 5H 3C"], "H", "S")
    tricks = play_out(position, parse_cards("AH JH 2H"))
    assert tricks[-1].winner is None and tricks[-1].pegged == 0
    assert tricks[-1].totals == (5, 0)


# ---- end_points -------------------------------------------------------------------------------

def test_end_points_name_the_cards_and_the_tricks():
    position = played(["AH 2H TC", "JH 5H 3C"], "H", "S", "AH JH 2H 5H 3C TC")
    points = {p.name: p for p in end_points(position)}
    assert list(points) == ["high", "low", "jack", "game"]
    assert points["high"].side == 0 and points["high"].card == parse_card("AH")
    assert points["high"].holder == 0
    assert points["low"].side == 0 and points["low"].holder == 0  # 2H, dealt to N
    assert points["jack"].side == 0 and points["jack"].trick == 1
    assert points["game"].side == 0 and points["game"].card is None
    score = score_position(position)
    assert sum(p.points for p in end_points(position) if p.side == 0) + score.captures[0] \
        == score.totals()[0]


def test_end_points_under_other_rules():
    hands = ["AH 2H TC", "JH 5H 3C"]
    position = played(hands, "H", "S", "AH JH 2H 5H 3C TC", low_to="captor",
                      five_for_five=True)
    points = {p.name: p for p in end_points(position)}
    assert points["low"].side == 1 and points["low"].trick == 2 and points["low"].holder is None
    assert points["five"].side == 1 and points["five"].points == 5
    assert points["five"].card == parse_card("5H")
    assert end_points(played(hands, "H", "S", rules="classic")) == []
    # a Jack that was not dealt
    none = {p.name: p for p in end_points(played(["AS 2S", "KS 3S"], "S", "S", "AS KS 2S 3S"))}
    assert none["jack"].side is None and none["jack"].card is None


def test_end_points_before_the_play_is_over():
    points = {p.name: p for p in end_points(played(["AH 2H TC", "JH 5H 3C"], "H", "S"))}
    assert points["high"].side == 0  # known from the deal
    assert points["jack"].side is None and points["game"].side is None


# ---- cost_of ------------------------------------------------------------------------------------

def test_cost_from_the_movers_side_of_the_table():
    position = load(TWO)  # North to move
    for_north = reference.solve(position, side=0)
    for_south = reference.solve(position, side=1)
    for card in position.legal_moves():
        cost = cost_of(for_north, card, 0)
        assert cost == for_north.value - for_north.moves[card] >= 0
        # solved for South, North's card costs North what it gives South
        assert cost_of(for_south, card, 0) == for_south.moves[card] - for_south.value >= 0
    best = for_north.best_moves()[0]
    assert cost_of(for_north, best, 0) == 0


def test_a_cost_is_known_once_the_value_is_proved():
    position = load(TWO)
    whole = reference.solve(position, side=0)
    card, other = sorted(whole.moves)[:2]
    # a limit stopped the search with its bounds met, one card valued
    proved = replace(whole, moves={card: whole.moves[card]}, line=(), complete=False,
                     lower=whole.value, upper=whole.value)
    assert cost_of(proved, card, 0) == whole.value - whole.moves[card]
    assert cost_of(proved, other, 0) is None
    # its bounds apart: no card's cost is known, not even a card valued
    open_ = replace(proved, upper=whole.value + 1)
    assert cost_of(open_, card, 0) is None


# ---- analyze_play: a hand played badly on purpose -----------------------------------------------

def play_badly(position: Position, mistakes: set[int]) -> tuple[Position, dict[int, int]]:
    """Play ``position`` to the end: at the places in ``mistakes`` (counted in the play from
    here) the mover plays its worst card when that costs something, elsewhere a best card.
    Returns the played position and the cost of each mistake actually made, by the reference."""
    deal = position.deal
    play = list(position.play)
    costs = {}
    current = position
    while not current.is_over:
        side = deal.side_of(current.to_move)
        best = reference.solve(current, side=side)
        index = len(play)
        worst = min(best.moves, key=lambda c: (best.moves[c], c))
        if index - len(position.play) in mistakes and best.moves[worst] < best.value:
            card = worst
            costs[index] = best.value - best.moves[worst]
        else:
            card = best.best_moves()[-1]
        play.append(card)
        current = deal.position(play)
    return current, costs


def test_a_hand_played_badly_is_judged_card_by_card():
    position, costs = play_badly(load(TWO), {0, 3, 5, 9})
    # North leads the trump Ten into South's King (9 points), and later errs again; South errs
    # once; the card at 9 costs nothing by then
    assert costs == {0: 9, 3: 2, 5: 2}
    assert position.play[0] == parse_card("TH")
    plays = analyze_play(position, reference.solve)
    assert len(plays) == 12
    assert {p.index: p.cost for p in plays if p.mistake} == costs
    for play in plays:
        before = position.deal.position(position.play[:play.index])
        assert play.seat == before.to_move and play.card == position.play[play.index]
        check = reference.solve(before, side=play.side)
        assert (play.before, play.after) == (check.value, check.moves[play.card])
        assert set(play.best) == set(check.best_moves())
        assert play.trick == play.index // 2 + 1
    away = given_away(plays, 2)
    assert away == (sum(c for i, c in costs.items() if plays[i].side == 0),
                    sum(c for i, c in costs.items() if plays[i].side == 1))


@pytest.mark.parametrize("players, cards, seed", [(3, 3, 1), (4, 3, 2), (2, 5, 3)])
def test_random_hands_played_badly(players, cards, seed):
    rng = random.Random(seed)
    deal = random_deal(rng, players, cards)
    total = players * cards
    mistakes = set(rng.sample(range(total), total // 2))
    position, costs = play_badly(deal.position(), mistakes)
    plays = analyze_play(position, reference.solve)
    assert {p.index: p.cost for p in plays if p.mistake} == costs
    assert [p.side for p in plays] == [deal.side_of(p.seat) for p in plays]


def test_the_engine_judges_as_the_reference_does():
    search = pytest.importorskip("solver.search")
    # every card of the play is judged from the start, so the deal is kept small for the reference
    deal = random_deal(random.Random(5), 4, 4)
    position, costs = play_badly(deal.position(), set(range(0, 16, 2)))
    assert len(costs) >= 2
    fast = analyze_play(position, search.solve)
    slow = analyze_play(position, reference.solve)
    assert [(p.before, p.after, p.cost, set(p.best)) for p in fast] == \
        [(p.before, p.after, p.cost, set(p.best)) for p in slow]
    assert {p.index: p.cost for p in fast if p.mistake} == costs


def test_analyze_play_reports_progress_and_other_objectives():
    position, _ = play_badly(load(TWO), {0})
    seen = []
    plays = analyze_play(position, reference.solve, "tricks",
                         progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 12) for i in range(1, 13)]
    for play in plays:
        before = position.deal.position(position.play[:play.index])
        check = reference.solve(before, side=play.side, objective="tricks")
        assert play.before == check.value and play.after == check.moves[play.card]


# ---- analyze_play under a node or time limit ----------------------------------------------------

def cut_short(every: int):
    """The reference's solve, but every ``every``-th solve reported as a limit would leave it:
    bounds around the value, and only the worst card's value finished."""
    count = [0]

    def solve(position: Position, side: int | None = None, objective: str = "points"):
        solution = reference.solve(position, side=side, objective=objective)
        count[0] += 1
        if count[0] % every:
            return solution
        worst = min(solution.moves, key=lambda c: solution.moves[c])
        return replace(solution, value=solution.value - 1, moves={worst: solution.moves[worst]},
                       line=(), lower=solution.value - 1, upper=solution.value + 2,
                       complete=False)
    return solve


def test_a_card_a_limit_cut_short_is_not_judged():
    position, _ = play_badly(load(TWO), {0, 3, 5})
    exact = analyze_play(position, reference.solve)
    plays = analyze_play(position, cut_short(3))
    assert [p.complete for p in plays] == [i % 3 != 2 for i in range(12)]
    part = [p for p in plays if p.in_part]
    assert unjudged(plays) == 4 - len(part) and in_part(plays) == len(part) == 1
    for play, check in zip(plays, exact):
        if play.complete:
            assert play == replace(check, seconds=play.seconds)
            continue
        assert play.before is None and play.cost is None
        assert play.best == ()
        assert (play.lower, play.upper) == (check.before - 1, check.before + 2)
        # the card's own value, when it was finished, is known exactly
        assert play.after in (None, check.after)
        # and where it is below the least the side could be sure of: a mistake all the same,
        # its cost at least the difference
        if play.after is not None and play.lower > play.after:
            assert play.mistake and play.least_cost == play.lower - play.after <= check.cost
        else:
            assert play.mistake is None and play.least_cost is None and not play.in_part
    # what each side gave away counts the cards judged, a mistake known in part at its least
    assert given_away(plays, 2) == tuple(
        sum(p.cost if p.complete else p.least_cost or 0 for p in plays if p.side == side)
        for side in (0, 1))


def test_values_found_before_the_limit_judge_the_card():
    # a limit that stops the engine while it writes the line leaves every value found
    position = load(TWO)
    solution = reference.solve(position)
    stopped = replace(solution, line=(), lower=solution.value, upper=solution.value,
                      complete=False)
    (play,) = analyze_play(position.deal.position([parse_card("TH")]), lambda *a, **k: stopped)
    assert play.complete and (play.before, play.after, play.cost) == (19, 10, 9)
    assert play.every_card      # (every legal card's value was found)
    # the value proved and the card's own found, not every other card's: judged, its best
    # those of the cards valued that keep the value (here none)
    missing = replace(stopped, moves={parse_card("TH"): 10})
    (play,) = analyze_play(position.deal.position([parse_card("TH")]), lambda *a, **k: missing)
    assert play.complete and (play.before, play.after, play.cost, play.best) == (19, 10, 9, ())
    assert not play.every_card and play.mistake
    best = parse_card("9H")
    some = replace(stopped, moves={parse_card("TH"): 10, best: 19})
    (play,) = analyze_play(position.deal.position([parse_card("TH")]), lambda *a, **k: some)
    assert play.complete and play.best == (best,) and not play.every_card
    # the card's own value not found: not judged, whatever the others'
    other = replace(stopped, moves={best: 19})
    (play,) = analyze_play(position.deal.position([parse_card("TH")]), lambda *a, **k: other)
    assert not play.complete and play.cost is None and (play.lower, play.upper) == (19, 19)


def test_a_card_judged_by_the_match_against_every_sides_chance():
    """``judge_for_match``: the card's worth to the mover's side, its own side's ``win``
    value less the best other side's (1, 0 or -1), in the trick it is played to; left
    unjudged, -1 .. 1, where any side's solve was cut short."""
    from solver.analysis import judge_for_match
    from solver.solution import Solution

    position = load(TWO)
    before = position.deal.position(position.play)
    legal = before.legal_moves()
    mine, other = legal[0], legal[1]
    side = position.deal.side_of(before.to_move)
    own = Solution(1, side, "win", {mine: 1, other: 0})
    theirs = Solution(0, 1 - side, "win", {mine: 0, other: 0})
    solutions = [own, theirs] if side == 0 else [theirs, own]
    judged = judge_for_match(before, 0, other, solutions)
    assert (judged.before, judged.after, judged.best, judged.trick) == \
        (1, 0, (mine,), len(before.completed) + 1)
    assert judged.mistake and judged.cost == 1
    cut = replace(theirs, complete=False, lower=-1, upper=1)
    unjudged_card = judge_for_match(before, 0, other, [own, cut] if side == 0 else [cut, own])
    assert not unjudged_card.complete and (unjudged_card.lower, unjudged_card.upper) == (-1, 1)


def test_a_card_left_unjudged_shows_no_mistake_where_its_value_meets_the_least_before():
    from solver.analysis import CardPlayed

    card = CardPlayed(0, 1, 0, 0, parse_card("TH"), None, 10, (), lower=10, upper=19,
                      every_card=False)
    assert card.least_cost is None and not card.in_part
    assert replace(card, lower=12).least_cost == 2 and replace(card, lower=12).in_part


def test_the_engine_under_a_node_limit_bounds_the_reference():
    search = pytest.importorskip("solver.search")
    position, _ = play_badly(load(TWO), {0, 3, 5})
    exact = analyze_play(position, reference.solve)
    plays = analyze_play(position, partial(search.solve, node_limit=30))
    assert 0 < unjudged(plays) < len(plays)
    for play, check in zip(plays, exact):
        assert play.lower <= check.before <= play.upper
        if play.complete:
            assert (play.before, play.after, play.cost) == \
                (check.before, check.after, check.cost)
            # the best cards, all of them where every card was valued, else some
            assert set(play.best) == set(check.best) if play.every_card else \
                set(play.best) <= set(check.best)
        elif play.after is not None:
            assert play.after == check.after
    # every limit: what is judged agrees with the reference, and some limit judges a card
    # whose best is not every card's (a card left unjudged before, its cost known)
    partly = 0
    for limit in (50, 100, 200, 400, 1000, 3000):
        for play, check in zip(analyze_play(position, partial(search.solve, node_limit=limit)),
                               exact):
            if play.complete:
                assert (play.before, play.after, play.cost) == \
                    (check.before, check.after, check.cost)
                assert set(play.best) <= set(check.best)
                partly += not play.every_card
    assert partly
    roomy = analyze_play(position, partial(search.solve, node_limit=10 ** 9))
    assert [(p.before, p.after, set(p.best)) for p in roomy] == \
        [(p.before, p.after, set(p.best)) for p in exact]
