"""What makes a puzzle sound, and the main line it is built on.

Words used here (README, "Puzzles"):

- A card *reaches the target* when its double-dummy value (``Solver.solve(...).moves``) for the
  solver's side and objective is at least the target: the target then holds against any
  defence.
- Two cards *play alike* when they are in the same hand, of the same suit, give the same points
  to the captor and the same pips toward Game, neither is a card whose captor pegs an end point
  on its own (objective ``win``: the Low to the captor, the Jack, the five-for-five Five), and no
  card still out in another hand or on the table ranks between them.  Cards that play alike have
  the same value in every line; they are one *class*, and count as one card.
- A turn has a *real choice* when the seat to play has two classes or more among its legal
  cards; otherwise its card is *forced*.
- The *toughest reply* of the defence is one of its best replies, those that hold the solver to
  the least value (so that the line never gives away what best defence keeps); among them, the
  one that leaves the solver the fewest winning classes at its next turn (with three players
  the other defender's replies in between are taken at their toughest too); ties are broken
  toward the reply after which the main line goes on for the most turns with a real choice,
  then toward the first such card in the hand's order.
- The *main line* from a position: at the solver's turns the one winning class (the first card
  of it), at the defence's the toughest reply; it stops before a solver turn with no winning
  class or two, or at the end of play.  A puzzle's line is the main line *trimmed*: it ends on
  the solver's last card that had a real choice.

``check_puzzle`` holds a puzzle to every rule and says, one line each, every one it breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..cards import Card, card_str, rank_of, suit_of
from ..deal import Deal, Position
from ..errors import AllFivesError, counted, quoted, whole
from ..game import observation_of
from ..players import HeuristicPlayer
from ..reference import final_value
from ..scoring import captor_cards, game_pips
from ..search import Solver, card_points
from ..solution import Solution
from .evidence import LADDER, RATING_KEYS, evidence_key, rating_of, solved_of
from .format import PUZZLE_OBJECTIVES, Puzzle, PuzzleError

__all__ = ["play_alike", "card_classes", "winning_cards", "toughest_reply", "refutation",
           "check_puzzle", "quick_problems", "start_problems", "main_line", "Turn", "Oracle",
           "heuristic_result", "defended", "observation_of", "oracle_for", "PRESSURE_DONE",
           "a_puzzle", "engine_of"]

#: The pressure of a reply after which the solver has no turn left (the least tough).
PRESSURE_DONE = 99


def _special_cards(position: Position, objective: str) -> set[Card]:
    """For objective ``win``: the cards whose captor pegs an end point as the trick closes."""
    if objective != "win":
        return set()
    return {card for _, card in captor_cards(position.deal)}


def play_alike(position: Position, a: Card, b: Card, objective: str = "points") -> bool:
    """Whether cards ``a`` and ``b`` of the hand to play play alike (see the module notes)."""
    if a == b:
        return True
    if suit_of(a) != suit_of(b):
        return False
    deal = position.deal
    seat = position.to_move
    hand = position.hands[seat]
    if a not in hand or b not in hand:
        return False
    points = card_points(deal, objective)
    if points[a] != points[b]:
        return False
    if deal.rules.game and game_pips(a, deal) != game_pips(b, deal):
        return False
    special = _special_cards(position, objective)
    if a in special or b in special:
        return False
    low, high = sorted((rank_of(a), rank_of(b)))
    suit = suit_of(a)
    out = [c for s, h in enumerate(position.hands) if s != seat for c in h]
    out += list(position.current.cards)
    return not any(suit_of(c) == suit and low < rank_of(c) < high for c in out)


def card_classes(position: Position, cards: Sequence[Card] | None = None,
                 objective: str = "points") -> list[tuple[Card, ...]]:
    """``cards`` (default: the legal cards) of the hand to play, grouped into the classes of
    cards that play alike, each in the hand's order, in the order of their first card."""
    if cards is None:
        cards = position.legal_moves()
    classes: list[list[Card]] = []
    for card in cards:
        for group in classes:
            if play_alike(position, group[0], card, objective):
                group.append(card)
                break
        else:
            classes.append([card])
    return [tuple(g) for g in classes]


@dataclass
class Oracle:
    """The engine's values for one puzzle's side, objective and target, kept per position (a
    puzzle's line and its alternatives solve the same positions many times)."""

    side: int
    objective: str
    target: int
    solver: Solver = field(default_factory=Solver)
    solutions: dict[tuple[Deal, tuple[Card, ...]], Solution] = field(default_factory=dict)

    def solve(self, position: Position) -> Solution:
        key = (position.deal, position.play)
        solution = self.solutions.get(key)
        if solution is None:
            solution = self.solver.solve(position, self.side, self.objective, line=False)
            assert solution.complete
            if len(self.solutions) > 200_000:
                self.solutions.clear()
            self.solutions[key] = solution
        return solution

    def is_solver_turn(self, position: Position) -> bool:
        return position.deal.side_of(position.to_move) == self.side

    def winning(self, position: Position) -> list[tuple[Card, ...]]:
        """The classes of the solver's cards that reach the target."""
        moves = self.solve(position).moves
        return card_classes(position, [c for c in position.legal_moves()
                                       if moves[c] >= self.target], self.objective)

    def classes(self, position: Position) -> list[tuple[Card, ...]]:
        return card_classes(position, None, self.objective)

    def pressure(self, position: Position) -> int:
        """How many winning classes the solver has at its next turn, the defence between
        playing its toughest; ``PRESSURE_DONE`` when play ends first."""
        if position.is_over:
            return PRESSURE_DONE
        if self.is_solver_turn(position):
            return len(self.winning(position))
        return min(self.pressure(position.after(card)) for card in self.best_replies(position))

    def best_replies(self, position: Position) -> list[Card]:
        """The defence's best replies: a card of each class whose value for the solver is the
        least (what the defence can hold the solver to, whether or not it stops the target)."""
        moves = self.solve(position).moves
        replies = [group[0] for group in self.classes(position)]
        least = min(moves[card] for card in replies)
        return [card for card in replies if moves[card] == least]

    def toughest(self, position: Position, lookahead: bool = True) -> Card:
        """The defence's toughest reply (module notes); ``lookahead=False`` skips the tie-break
        by the length of the line (used inside that tie-break)."""
        replies = self.best_replies(position)
        if len(replies) == 1:
            return replies[0]
        pressures = [self.pressure(position.after(r)) for r in replies]
        least = min(pressures)
        tied = [r for r, p in zip(replies, pressures) if p == least]
        if len(tied) == 1 or not lookahead:
            return tied[0]
        lengths = [sum(t.real for t in main_line(position.after(r), self, lookahead=False)[1])
                   for r in tied]
        return tied[lengths.index(max(lengths))]


@dataclass(frozen=True)
class Turn:
    """One solver turn of a main line."""

    index: int                       # its card's index in the line
    classes: int                     # the classes among the legal cards

    @property
    def real(self) -> bool:
        return self.classes > 1


def main_line(position: Position, oracle: Oracle, lookahead: bool = True,
              trim: bool = True) -> tuple[tuple[Card, ...], list[Turn]]:
    """The main line from ``position`` (module notes) and its solver turns; ``trim`` cuts it
    after the last turn with a real choice (no such turn: an empty line)."""
    line: list[Card] = []
    turns: list[Turn] = []
    p = position
    while not p.is_over:
        if oracle.is_solver_turn(p):
            winning = oracle.winning(p)
            if len(winning) != 1:
                break
            card = winning[0][0]
            turns.append(Turn(len(line), len(oracle.classes(p))))
        else:
            card = oracle.toughest(p, lookahead)
        line.append(card)
        p = p.after(card)
    if trim:
        real = [t for t in turns if t.real]
        if not real:
            return (), []
        end = real[-1].index + 1
        line = line[:end]
        turns = [t for t in turns if t.index < end]
    return tuple(line), turns


# ---- the public helpers --------------------------------------------------------------------


def a_puzzle(puzzle: object) -> Puzzle:
    """``puzzle``, where it is one; else an ``AllFivesError`` saying what it is."""
    if not isinstance(puzzle, Puzzle):
        raise AllFivesError(f"puzzle: expected a Puzzle (load_puzzle reads one), not "
                            f"{quoted(puzzle)}")
    return puzzle


def engine_of(solver: Solver | Oracle | None) -> Solver:
    """The engine to solve with: an Oracle's, a Solver, or a fresh Solver for None."""
    if isinstance(solver, Oracle):
        return solver.solver
    if solver is not None and not isinstance(solver, Solver):
        raise AllFivesError(f"solver: {quoted(solver)} is not a Solver (None makes one)")
    return solver or Solver()


def oracle_for(side: int, objective: str, target: int, solver: Solver | Oracle | None) -> Oracle:
    """The oracle of ``side``, ``objective`` and ``target``: ``solver`` itself when it is that
    one, else a new one over ``solver``'s engine (an Oracle's, a Solver, or a fresh Solver)."""
    if objective not in PUZZLE_OBJECTIVES:
        raise PuzzleError(f"objective {quoted(objective)} is not one of "
                          f"{', '.join(PUZZLE_OBJECTIVES)}")
    for name, value in (("side", side), ("target", target)):
        if whole(value) is None:
            raise PuzzleError(f"{name}: {quoted(value)} is not a whole number")
    if isinstance(solver, Oracle) and (solver.side, solver.objective, solver.target) == \
            (side, objective, target):
        return solver
    return Oracle(side, objective, target, engine_of(solver))


def winning_cards(position: Position, side: int, objective: str, target: int,
                  solver: Solver | None = None) -> list[tuple[Card, ...]]:
    """The classes of cards (those that play alike grouped) of the hand to play that reach
    ``target`` for ``side``."""
    return oracle_for(side, objective, target, solver).winning(position)


def toughest_reply(position: Position, side: int, objective: str, target: int,
                   solver: Solver | None = None) -> Card:
    """The defence's card on the main line: the toughest reply (module notes); at the turn of
    ``side`` itself, there is none to give (a PuzzleError)."""
    oracle = oracle_for(side, objective, target, solver)
    if not position.is_over and oracle.is_solver_turn(position):
        raise PuzzleError(f"{position.deal.seats[position.to_move]} is to play, of the side "
                          f"solving: no defence's reply here")
    return oracle.toughest(position)


def refutation(position: Position, side: int, objective: str, *, solver: Solver | None = None
               ) -> tuple[tuple[Card, ...], int]:
    """After a wrong card: an optimal line from ``position`` to the end of play (the defence
    holding ``side`` to the least it can, the solver doing its best) and the value reached."""
    solution = engine_of(solver).solve(position, side, objective)
    return solution.line, solution.value


# ---- the swing: natural play fails ----------------------------------------------------------


def defended(position: Position, oracle: Oracle, choose: Callable[[Position], Card]
             ) -> tuple[int, tuple[Card, ...]]:
    """The value ``side`` ends with when ``choose`` picks the card of each of its turns (where
    more than one is legal) from ``position`` and the defence plays, at every turn, a card that
    minimises the side's double-dummy value (the first such in the hand's order); and the cards
    played."""
    p = position
    while not p.is_over:
        legal = p.legal_moves()
        if oracle.is_solver_turn(p):
            card = legal[0] if len(legal) == 1 else choose(p)
        else:
            moves = oracle.solve(p).moves
            card = min(legal, key=lambda c: moves[c])
        p = p.after(card)
    return final_value(p, oracle.side, oracle.objective), p.play[len(position.play):]


def heuristic_result(position: Position, oracle: Oracle, player=None) -> tuple[int, tuple[Card, ...]]:
    """``defended`` with ``player`` (default the heuristic) playing the side's seats."""
    if player is None:
        player = HeuristicPlayer()
    return defended(position, oracle, lambda p: player.act(observation_of(p, p.to_move)))


# ---- the check ------------------------------------------------------------------------------


def start_problems(puzzle: Puzzle) -> list[str]:
    """What is wrong with the start, before any solve: no card left, or the side to play not
    the solver's (``check_puzzle`` says no more then)."""
    start = puzzle.position
    deal = start.deal
    if start.is_over:
        return ["the position has no card left to play"]
    if deal.side_of(start.to_move) != puzzle.side:
        return [f"the solver's side {deal.side_name(puzzle.side)} is not to play at the start "
                f"({deal.seats[start.to_move]} is)"]
    return []


def quick_problems(puzzle: Puzzle) -> list[str]:
    """The rules of ``check_puzzle`` that need no solve: the start's, then the file's record of
    its rating (``record_problems``).  The line's cards are legal already (``load_puzzle``)."""
    return start_problems(puzzle) or record_problems(puzzle)


def check_puzzle(puzzle, solver: Solver | None = None, min_turns: int = 2) -> list[str]:
    """Every rule the puzzle breaks, one line each; ``[]`` when it is sound (README,
    "Puzzles")."""
    problems = start_problems(a_puzzle(puzzle))
    if problems:
        return problems
    oracle = oracle_for(puzzle.side, puzzle.objective, puzzle.target, solver)
    start = puzzle.position
    target = puzzle.target
    value = oracle.solve(start).value
    if value < target:
        problems.append(f"the target {target} does not hold against every defence: the "
                        f"value is {value}")
        return problems
    p = start
    real = 0
    last_real = -1
    left = False        # the line left the main line
    for i, card in enumerate(puzzle.line):
        where = f"line[{i}] {card_str(card)}"
        if card not in p.legal_moves():
            problems.append(f"{where}: not a legal card here")
            return problems
        if oracle.is_solver_turn(p):
            winning = oracle.winning(p)
            if len(winning) > 1:
                shown = ", ".join("=".join(card_str(c) for c in g) for g in winning)
                cut = len(puzzle.line) - 1 - last_real
                end = f", where the main line ends: trim the {cut} card(s) after the last real " \
                      f"choice (line[{last_real}])" if last_real >= 0 else ""
                problems.append(f"{where}: {len(winning)} different cards reach the target "
                                f"here ({shown}){end}")
            elif not winning:
                problems.append(f"{where}: no card reaches the target here")
            if not any(card in g for g in winning):
                problems.append(f"{where}: the line's card misses the target "
                                f"(value {oracle.solve(p).moves[card]})")
            if len(oracle.classes(p)) > 1:
                real += 1
                last_real = i
        else:
            best = oracle.toughest(p)
            if not play_alike(p, best, card, puzzle.objective):
                problems.append(f"{where}: not the toughest defence (that is "
                                f"{card_str(best)})")
        left = bool(problems)
        if left:
            # the line has left the main line: what follows it is judged by nothing
            break
        p = p.after(card)
    more, turns = main_line(p, oracle) if puzzle.line and not left else ((), [])
    if more:
        # real choices are still to come: the line stops short (its count with them)
        problems.append(f"the line stops before the solver's last real choice: the main "
                        f"line goes on with {' '.join(card_str(c) for c in more)}")
        real += sum(t.real for t in turns)
    elif puzzle.line and not left and 0 <= last_real != len(puzzle.line) - 1:
        # (a line with no real choice at all is faulted by the count below)
        problems.append(f"the line does not end on the solver's last real choice "
                        f"(line[{last_real}]): trim the {len(puzzle.line) - 1 - last_real} "
                        f"card(s) after it")
    if real < min_turns and not left:
        problems.append(f"{real} solver turn(s) with a real choice; a puzzle needs at least "
                        f"{min_turns}")
    reached, _ = heuristic_result(start, oracle)
    if reached >= target:
        problems.append(f"no swing: the heuristic player reaches the target ({reached} >= "
                        f"{target}) against best defence")
    return problems + record_problems(puzzle)


def record_problems(puzzle: Puzzle) -> list[str]:
    """Where the file's record of its rating disagrees with itself: ``solved_by`` naming the
    heuristic (which a sound puzzle defeats), or a ``rating`` or ``solved_by`` (when given)
    that its ``[puzzle.evidence]`` does not give, or cannot give, lacking a ladder player's
    result (or, for the rating, one of ``RATING_KEYS``); a puzzle written by hand, with neither
    rating nor solved_by, has nothing to hold."""
    problems = []
    if "heuristic" in puzzle.solved_by:
        problems.append("puzzle.solved_by: names the heuristic, which a sound puzzle defeats")
    evidence = dict(puzzle.evidence)
    ladder = [evidence_key(name) for name, _ in LADDER if evidence_key(name) not in evidence]
    # the ladder's results, which both need; then what the rating needs besides
    missing = ladder or [key for key in RATING_KEYS if key not in evidence]
    held = [key for key, given in (("rating", puzzle.rating is not None),
                                   ("solved_by", bool(puzzle.solved_by and ladder))) if given]
    if missing and held:
        others = f" (nor {counted(len(missing) - 1, 'other')})" if len(missing) > 1 else ""
        where = f"puzzle.evidence: no {missing[0]}{others}" if evidence else \
            "no [puzzle.evidence]"
        problems.append(f"{where}: {' and '.join(held)} cannot be held to it")
    if ladder:
        return problems
    solved = solved_of(evidence)
    assert solved is not None       # (every ladder player's result is in the evidence)
    rating = rating_of(evidence) if not missing else None
    if puzzle.rating is not None and rating is not None and puzzle.rating != rating:
        problems.append(f"puzzle.rating: {puzzle.rating}, where its evidence gives {rating}")
    if puzzle.solved_by and set(solved) != set(puzzle.solved_by):   # (in any order)
        problems.append(f"puzzle.solved_by: {', '.join(puzzle.solved_by)}, where its evidence "
                        f"gives {', '.join(solved)}")
    return problems
