"""Mining puzzles: random deals, natural play to a random point, and every rule checked.

Each candidate is made from its own seed, ``"<seed>/<k>"`` for the k-th candidate of
``generate(seed=...)``, and from nothing else, so the same arguments give the same puzzles and
each puzzle records the seed that reproduces it (``candidate(puzzle.seed, ...)``).

A candidate: a match is started with the game engine (``solver.game``), its first deal dealt
from a shuffled pack, the calls (stand or beg, take one or run) made by the heuristic player's
rules, so that runs come as they come from the pack; a quarter of the candidates start the match
near its target instead of at 0.  With ``cards`` given, a random deal of that many cards a hand
is dealt instead (``solver.shuffle.random_deal``).  The heuristic then plays a random number of
cards for every seat, and the seat to play at that point is the solver's.

The objective: ``win`` when some side can reach the match's target in this deal
(``solver.players.within_reach``), else ``points`` or ``margin`` (two sides) at random, or
``points`` (three players); the target is the position's exact double-dummy value, so that the
winning cards are exactly the best ones.  Cheap rejections come first: one solve tells whether
the first turn has exactly one winning class and a real choice; then the heuristic's playout
(the swing); then the main line and its trim.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator

from ..deal import Position
from ..errors import AllFivesError, quoted, whole
from ..game import PLAY, Match
from ..players import HeuristicPlayer, within_reach
from ..rules import Rules
from ..search import Solver
from ..shuffle import random_deal
from ..solution import check_position
from .format import PUZZLE_OBJECTIVES, Puzzle, PuzzleError, is_seed
from .rating import assess as assess_puzzle
from .soundness import Oracle, engine_of, heuristic_result, main_line, observation_of
from .themelist import THEME_TITLES, check_theme
from .themes import themes_of, title_of, why_never_found

__all__ = ["generate", "candidate", "examine", "start_position", "seed_problems", "NEAR_TARGET",
           "NODE_LIMIT"]

#: The most nodes the first solve of a candidate may take (a deal after runs, with many cards
#: left, is passed over rather than solved for minutes).
NODE_LIMIT = 300_000
#: How far under the target a side starts a near-the-end match: 1 to this many points.
NEAR_TARGET = 12


def start_position(seed: str, players: int = 2, rules: Rules | None = None,
                   cards: int | None = None) -> Position | None:
    """The position a candidate seed gives (module notes), or None when the heuristic's play
    ended the match before the cut."""
    rules = rules or Rules()
    rng = random.Random(f"allfives-puzzle:{seed}")
    near = rng.random() < 0.25
    sides = 2 if players == 4 else players
    score = (tuple(rules.target - rng.randint(1, min(NEAR_TARGET, rules.target))
                   for _ in range(sides)) if near else None)
    heuristic = HeuristicPlayer()
    if cards is not None:
        deal = random_deal(rng, players, cards, rules)
        if score is not None:
            from dataclasses import replace
            deal = replace(deal, score=score)
        position = deal.position()
        total = players * cards
        cut = rng.randrange(0, max(1, total - 2 * players))
        for _ in range(cut):
            legal = position.legal_moves()
            card = legal[0] if len(legal) == 1 else heuristic.act(
                observation_of(position, position.to_move))
            position = position.after(card)
        return position
    state = Match(players, rules).new_initial_state(seed=rng.getrandbits(64), score=score)
    while state.phase != PLAY:
        if state.is_terminal():
            return None
        state.apply_action(heuristic.act(state.observation(state.current_player())))
    total = players * len(state.position().deal.hands[0])
    cut = rng.randrange(0, max(1, total - 2 * players))
    for _ in range(cut):
        state.apply_action(heuristic.act(state.observation(state.current_player())))
        if state.phase != PLAY:
            return None
    return state.position()


def seed_problems(puzzle) -> list[str]:
    """Whether the puzzle's ``seed`` still makes its start (hands, turn-ups, play so far, score
    and rules), dealt from the pack or as hands of its size (``generate(cards=...)``): a line
    saying it does not (a puzzle edited by hand keeps a seed that makes another), else ``[]``.
    No solve: the start is dealt and played by the heuristic."""
    if puzzle.seed is None:
        return []
    seed, _, first = puzzle.seed.partition("/")
    # as generate --seed reads it: 007/3 is 7/3, 7 alone 7/0
    name = f"{int(seed)}/{int(first or 0)}" if is_seed(puzzle.seed) else puzzle.seed
    position = puzzle.position
    deal = position.deal
    for cards in (None, len(deal.hands[0])):
        if start_position(name, deal.players, deal.rules, cards) == position:
            return []
    return [f"seed: {puzzle.seed} makes another start (the deal, the play or the score edited, "
            f"or the puzzle made by another version): a puzzle changed by hand drops its seed"]


def _objective(rng: random.Random, position: Position) -> str:
    if within_reach(position):
        return "win"
    if position.deal.sides == 2:
        return rng.choice(("points", "margin"))
    return "points"


def candidate(seed: str, players: int = 2, rules: Rules | None = None, min_turns: int = 2,
              solver: Solver | None = None, objective: str | None = None,
              cards: int | None = None, assess: bool = True,
              node_limit: int | None = NODE_LIMIT) -> Puzzle | None:
    """The puzzle the candidate ``seed`` gives, or None if its position breaks a rule or its
    first solve needs more than ``node_limit`` nodes.  ``assess``: work out the themes, the
    title and the rating too."""
    position = start_position(seed, players, rules, cards)
    if position is None or position.is_over:
        return None
    rng = random.Random(f"allfives-puzzle-objective:{seed}")
    found = examine(position, objective or _objective(rng, position), min_turns, solver,
                    assess=assess, node_limit=node_limit, seed=seed)
    return found if isinstance(found, Puzzle) else None


def examine(position: Position, objective: str = "points", min_turns: int = 2,
            solver: Solver | Oracle | None = None, *, assess: bool = True,
            node_limit: int | None = None, seed: str | None = None) -> Puzzle | str:
    """The puzzle ``position`` makes for the side to play, with the target its exact value:
    a ``Puzzle``, or the reason it is none (one line, the first rule it breaks, cheapest
    checks first)."""
    check_position(position)
    if objective not in PUZZLE_OBJECTIVES:
        raise PuzzleError(f"objective {quoted(objective)} is not one of "
                          f"{', '.join(PUZZLE_OBJECTIVES)}")
    _check_counts(min_turns=min_turns)
    solver = engine_of(solver)
    if position.is_over:
        return "no card left to play"
    deal = position.deal
    if objective == "win" and deal.score is None:
        return "objective 'win' needs the match score"
    if objective == "margin" and deal.sides != 2:
        return "objective 'margin' needs two sides"
    side = deal.side_of(position.to_move)
    # (from an empty table under a limit: whether a candidate is kept is its own, not what the
    # candidates before it left in the table)
    first = solver.solve(position, side, objective, line=False, node_limit=node_limit,
                         fresh=node_limit is not None)
    if not first.complete:
        return f"the first solve needs more than {node_limit} nodes"
    value = first.value
    oracle = Oracle(side, objective, value, solver)
    if len(oracle.classes(position)) < 2:
        return "the first card is forced"
    winning = len(oracle.winning(position))
    if winning != 1:
        return f"{winning} different cards reach the target at the first turn"
    reached = heuristic_result(position, oracle)[0]
    if reached >= value:
        return f"no swing: the heuristic player reaches the target ({reached})"
    line, turns = main_line(position, oracle)
    real = sum(t.real for t in turns)
    if real < min_turns:
        return f"{real} solver turn(s) with a real choice, fewer than {min_turns}"
    puzzle = Puzzle(position, side, objective, value, line, seed=seed)
    if assess:
        themes = themes_of(puzzle, oracle)
        puzzle = assess_puzzle(Puzzle(position, side, objective, value, line,
                                      title_of(themes), themes, seed=seed), oracle)
    return puzzle


#: The least each count ``generate`` and ``examine`` take may be (``seed`` too: a puzzle file
#: keeps its digits).
_LEAST = {"count": 1, "first": 0, "cards": 1, "max_tries": 1, "min_turns": 1, "seed": 0}


def _check_counts(**counts: object) -> None:
    """An ``AllFivesError`` for the first of ``counts`` that is not a whole number from its
    least (None is let be, none given, but for the seed, which may be its digits as text)."""
    for name, value in counts.items():
        if name == "seed" and isinstance(value, str) and is_seed(value) and "/" not in value:
            continue
        if (value is not None or name == "seed") and (
                whole(value) is None or value < _LEAST[name]):  # type: ignore[operator]
            raise AllFivesError(f"{name}: {quoted(value)} is not a whole number from "
                                f"{_LEAST[name]}")


def generate(players: int = 2, rules: Rules | None = None, count: int | None = 1,
             seed: int | str = 0, min_turns: int = 2, theme: str | None = None,
             progress: Callable[[int, int], None] | None = None,
             solver: Solver | None = None, *, objective: str | None = None,
             cards: int | None = None, max_tries: int | None = None,
             assess: bool = True, node_limit: int | None = NODE_LIMIT,
             first: int = 0) -> Iterator[Puzzle]:
    """Puzzles mined from the candidates ``"<seed>/0"``, ``"<seed>/1"``, ... (module notes),
    or from ``"<seed>/<first>"`` on (a puzzle's own seed makes it again):
    ``count`` of them (None: without end), each with a real choice at ``min_turns`` solver
    turns or more, and with the ``theme`` if one is given (and then titled by it).
    ``progress(tried, accepted)`` is called after every candidate; ``max_tries`` stops after
    that many candidates.
    ``objective`` fixes the objective; ``cards`` deals random hands of that size instead of
    dealing from the pack (6 cards a hand, 3 more a run); ``node_limit`` passes over the
    candidates whose first solve takes more nodes."""
    _check_counts(count=count, first=first, cards=cards, max_tries=max_tries,
                  min_turns=min_turns, seed=seed)
    if rules is not None and not isinstance(rules, Rules):
        raise AllFivesError(f"rules: {quoted(rules)} is not a Rules (Rules.preset(name) makes "
                            f"one)")
    if theme is not None:
        check_theme(theme)
    why = why_never_found(theme, rules or Rules())
    if why:
        asked = "no puzzle can be" if theme is None else f"theme {theme}: never"
        raise AllFivesError(f"{asked} found under these rules: {why}")
    solver = engine_of(solver)
    tried = accepted = 0
    while count is None or accepted < count:
        if max_tries is not None and tried >= max_tries:
            return
        name = f"{seed}/{first + tried}"
        tried += 1
        puzzle = candidate(name, players, rules, min_turns, solver, objective, cards,
                           assess or theme is not None, node_limit)
        if puzzle is not None and theme is not None:
            # a puzzle asked for by its theme is titled by it, not by the first theme it shows
            puzzle = dataclasses.replace(puzzle, title=THEME_TITLES[theme]) \
                if theme in puzzle.themes else None
        if puzzle is not None:
            accepted += 1
        if progress is not None:
            progress(tried, accepted)
        if puzzle is not None:
            yield puzzle
