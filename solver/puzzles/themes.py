"""Themes: what a puzzle is about, detected from its line by rules.

The rules read three things (README, "Puzzles", where each theme has an example):

- the *line* and its solver turns (a turn with a *real choice* has two classes of cards or more);
- the *solution*: the line followed to the end of play by optimal cards (at each turn the first
  card, in the hand's order, of the best value for the side to play);
- the *refutations*: for each losing card at a solver turn of the line, the play up to that
  turn, the losing card, and optimal cards from there to the end.

A card is *captured* by the side that wins the trick it falls in.  The themes about one card
(``save-the-ten``, ``catch-the-five``, ``jack-hunt``) need the card to be worth something to its
captor by the rules in force (``worth``): under ``all-fours`` the trump Five, which neither
captures nor counts toward Game there, is no prize.
"""

from __future__ import annotations

from typing import Literal

from ..cards import FIVE, JACK, TEN, Card, make_card, rank_of, suit_of
from ..deal import Position
from ..pegging import match_after
from ..scoring import game_pips, score_position
from ..search import Solver, card_points
from ..tricks import trick_winner
from .soundness import Oracle, a_puzzle, oracle_for, card_classes
from .themelist import GAME_BY_A_PIP, LONG_PUZZLE, THEME_TITLES, THEMES

__all__ = ["themes_of", "title_of", "why_never_found", "optimal_play"]

def why_never_found(name: str | None, rules) -> str | None:
    """Why the theme (None: any puzzle) can never be found under ``rules`` (a ``Rules``), or
    None when it can."""
    low = rules.low and rules.low_to == "captor"  # any trump may be the lowest dealt
    # points a trick's winner takes with a card, and points that follow from every trick won
    in_tricks = rules.capture or rules.jack or rules.five_for_five or low
    if not (in_tricks or rules.game):
        return "nothing the play does scores (High and Low to the holder are the deal's)"
    ten_worth = rules.capture or rules.game or low
    five_worth = (rules.capture or rules.five_for_five or (rules.game and rules.game_counts_fives)
                  or low)
    reasons: dict[str | None, str | Literal[False]] = {
        "ruff-the-ten": rules.strict_follow and "the suit led must be followed, so no trump "
                                                "takes a Ten while its suit is held",
        "catch-the-five": not five_worth and "the trump Five is worth nothing",
        "save-the-ten": not ten_worth and "the trump Ten is worth nothing",
        "jack-hunt": not rules.jack and "there is no point for the Jack",
        "game-by-a-pip": not rules.game and "there is no Game",
        "sacrifice": not in_tricks and "no card gives points to the side that wins its trick",
    }
    return reasons.get(name) or None


def title_of(themes: tuple[str, ...]) -> str:
    """A title from the first theme that has one."""
    for theme in themes:
        if theme in THEME_TITLES and theme != "long":
            return THEME_TITLES[theme]
    return "Find the only line"


def optimal_play(position: Position, oracle: Oracle) -> tuple[Card, ...]:
    """Optimal cards to the end of play: at each turn the first card of the best value for the
    side to play (the most for the solver's side, the least for the defence)."""
    cards: list[Card] = []
    p = position
    while not p.is_over:
        moves = oracle.solve(p).moves
        legal = p.legal_moves()
        pick = max if oracle.is_solver_turn(p) else min
        best = pick(moves[c] for c in legal)
        card = next(c for c in legal if moves[c] == best)
        cards.append(card)
        p = p.after(card)
    return tuple(cards)


def _captor(final: Position, card: Card) -> int | None:
    for trick in final.completed:
        if card in trick.cards:
            assert trick.winner is not None
            return final.deal.side_of(trick.winner)
    return None


def _trick_of(final: Position, index: int) -> int:
    """The side that wins the trick of ``final.play[index]``."""
    n = final.deal.players
    winner = final.completed[index // n].winner
    assert winner is not None
    return final.deal.side_of(winner)


class _Reading:
    """The solution and the refutations of one puzzle, worked out once."""

    def __init__(self, puzzle, oracle: Oracle) -> None:
        self.puzzle = puzzle
        self.oracle = oracle
        start = puzzle.position
        self.start = start
        self.deal = start.deal
        self.side = puzzle.side
        end = start.after(*puzzle.line)
        self.solution = start.after(*puzzle.line, *optimal_play(end, oracle))
        self.positions = [start]
        for card in puzzle.line:
            self.positions.append(self.positions[-1].after(card))
        self.offset = len(start.play)
        #: (index in the line, position before the turn, real choice?, refutations)
        self.turns: list[tuple[int, Position, bool, list[tuple[Card, Position]]]] = []
        for i, card in enumerate(puzzle.line):
            p = self.positions[i]
            if not oracle.is_solver_turn(p):
                continue
            moves = oracle.solve(p).moves
            wrong = [g[0] for g in card_classes(p, [c for c in p.legal_moves()
                                                    if moves[c] < puzzle.target],
                                                puzzle.objective)]
            refutations = [(c, p.after(c, *optimal_play(p.after(c), oracle))) for c in wrong]
            real = len(card_classes(p, None, puzzle.objective)) > 1
            self.turns.append((i, p, real, refutations))

    def holder_side(self, card: Card) -> int | None:
        for seat, hand in enumerate(self.start.hands):
            if card in hand:
                return self.deal.side_of(seat)
        return None

    def refutations(self) -> list[Position]:
        return [final for _, _, _, refs in self.turns for _, final in refs]


def worth(deal, card: Card) -> int:
    """What ``card`` gives its captor by the rules: its points (captures, the Jack, the
    five-for-five Five, Low to the captor) and its pips toward Game when Game counts."""
    pips = game_pips(card, deal) if deal.rules.game else 0
    return card_points(deal, "points")[card] + pips


def _card_fight(reading: _Reading, card: Card, ours: bool) -> bool:
    """The card, worth something to its captor, held at the start by the side (``ours``) or
    the defence, is captured by the side in the solution and by the defence in some
    refutation."""
    if not worth(reading.deal, card):
        return False
    holder = reading.holder_side(card)
    if holder is None or (holder == reading.side) != ours:
        return False
    side = reading.side
    if _captor(reading.solution, card) != side:
        return False
    return any(_captor(f, card) not in (side, None) for f in reading.refutations())


def _draw_trumps(reading: _Reading) -> bool:
    trump = reading.deal.trump
    for i, p, real, _ in reading.turns:
        card = reading.puzzle.line[i]
        if real and not p.current.cards and suit_of(card) == trump:
            defence = [c for s, h in enumerate(p.hands) if reading.deal.side_of(s) != reading.side
                       for c in h]
            if any(suit_of(c) == trump for c in defence):
                return True
    return False


def _ruff_the_ten(reading: _Reading) -> bool:
    trump = reading.deal.trump
    for i, p, _, _ in reading.turns:
        card = reading.puzzle.line[i]
        trick = p.current.cards
        if not trick or suit_of(card) != trump:
            continue
        led = suit_of(trick[0])
        ten = make_card(led, TEN)
        if led == trump or ten not in trick:
            continue
        played_by = p.current.seat_of(trick.index(ten), reading.deal.players)
        if reading.deal.side_of(played_by) == reading.side:
            continue
        if not any(suit_of(c) == led for c in p.hands[p.to_move]):
            continue
        if _trick_of(reading.solution, reading.offset + i) == reading.side:
            return True
    return False


def _duck(reading: _Reading) -> bool:
    trump = reading.deal.trump
    for i, p, real, refs in reading.turns:
        trick = p.current.cards
        if not real or not trick:
            continue
        if _trick_of(reading.solution, reading.offset + i) == reading.side:
            continue
        for wrong, _ in refs:
            if trick_winner(list(trick) + [wrong], trump) == len(trick):
                return True
    return False


def _sacrifice(reading: _Reading) -> bool:
    points = card_points(reading.deal, "points")
    n = reading.deal.players
    for i, p, real, refs in reading.turns:
        if not real:
            continue
        index = reading.offset + i
        if _trick_of(reading.solution, index) == reading.side:
            continue
        first = index - index % n
        trick = reading.solution.play[first:first + n]
        if sum(points[c] for c in trick) <= 0:
            continue
        if any(_trick_of(final, index) == reading.side for _, final in refs):
            return True
    return False


def _game_side(final: Position) -> tuple[int | None, int]:
    """Who wins Game at the end of play, and by how many pips over the next side."""
    score = score_position(final)
    pips = sorted(score.pips, reverse=True)
    return score.game, pips[0] - pips[1]


def _game_by_a_pip(reading: _Reading) -> bool:
    if not reading.deal.rules.game:
        return False
    winner, lead = _game_side(reading.solution)
    if winner != reading.side or lead > GAME_BY_A_PIP:
        return False
    return any(_game_side(f)[0] != reading.side for f in reading.refutations())


def _no_safe_exit(reading: _Reading, before: Position, lead: Card) -> bool:
    """The defender to lead at ``before`` had no safe exit from leading ``lead``: by the
    double-dummy values for the side, no card it could lead leaves the side less, and every
    card of another suit leaves the side more."""
    moves = reading.oracle.solve(before).moves
    value = moves[lead]
    for card in before.legal_moves():
        if moves[card] < value or (suit_of(card) != suit_of(lead) and moves[card] == value):
            return False
    return True


def _endplay(reading: _Reading) -> bool:
    final = reading.solution
    deal = reading.deal
    side = reading.side
    first_real = next((i for i, _, real, _ in reading.turns if real), None)
    if first_real is None:
        return False
    tricks = final.completed
    n = deal.players
    end = reading.offset + len(reading.puzzle.line)
    for k in range(1, len(tricks)):
        trick = tricks[k]
        start = k * n
        if start < reading.offset + first_real:
            continue
        if start >= end:    # (after the line the goal is safe whatever the defence does)
            break
        leader = trick.leader
        if deal.side_of(leader) == side or tricks[k - 1].winner != leader:
            continue
        if deal.side_of(trick.winner) != side:
            continue
        lead = trick.cards[0]
        winning = trick.cards[trick_winner(trick.cards, deal.trump)]
        if suit_of(winning) != suit_of(lead):
            continue
        before = final.deal.position(final.play[:start])
        outranked = any(suit_of(c) == suit_of(winning) and rank_of(c) > rank_of(winning)
                        for s, h in enumerate(before.hands) if deal.side_of(s) != side
                        for c in h)
        if outranked and _no_safe_exit(reading, before, lead):
            return True
    return False


def _peg_out(reading: _Reading) -> bool:
    if reading.puzzle.objective != "win":
        return False
    match = match_after(reading.solution)
    return match is not None and reading.side in match.winners


def themes_of(puzzle, solver: Solver | Oracle | None = None) -> tuple[str, ...]:
    """The themes of ``THEMES`` the puzzle shows, in that order."""
    oracle = oracle_for(a_puzzle(puzzle).side, puzzle.objective, puzzle.target, solver)
    reading = _Reading(puzzle, oracle)
    trump = reading.deal.trump
    rules = reading.deal.rules
    found = {
        "save-the-ten": _card_fight(reading, make_card(trump, TEN), True),
        "catch-the-five": _card_fight(reading, make_card(trump, FIVE), False),
        "jack-hunt": rules.jack and _card_fight(reading, make_card(trump, JACK), False),
        "draw-trumps": _draw_trumps(reading),
        "ruff-the-ten": _ruff_the_ten(reading),
        "duck": _duck(reading),
        "sacrifice": _sacrifice(reading),
        "game-by-a-pip": _game_by_a_pip(reading),
        "endplay": _endplay(reading),
        "peg-out": _peg_out(reading),
        "long": sum(real for _, _, real, _ in reading.turns) >= LONG_PUZZLE,
    }
    return tuple(name for name in THEMES if found[name])
