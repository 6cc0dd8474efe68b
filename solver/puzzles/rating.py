"""Rating a puzzle from evidence: which of a ladder of players solve it, and how hard the line is.

*The ladder.*  Each player plays the solver's seats from the start, each seat seeing only its
own hand (``omniscient`` ones excepted), against best defence (at every defence turn a
card that minimises the side's double-dummy value, the first such in the hand's order); it
*solves* the puzzle when the side ends with at least the target.  The players, weakest first,
each with the rating it stands for (its anchor):

==============  ======  ==========================================================================
``random``      600     a uniformly random legal card (``RANDOM_TRIES`` seeds; its score is the
                        share of them that solve it)
``heuristic``   1200    ``solver.players.HeuristicPlayer`` (a sound puzzle always defeats it)
``search-200``  1300    the engine with the whole deal in view, stopped after 200 nodes a card
                        (the best card among those it valued; the heuristic's if none)
``pimc-2``      1450    2 worlds of the hidden hands sampled consistent with the play (voids
                        shown), each solved double-dummy; the best card on average
                        (``PIMC_TRIES`` tries, each of its own worlds; its score is the
                        share of them that solve it)
``search-2000`` 1600    as ``search-200``, 2,000 nodes a card
``pimc-8``      1800    as ``pimc-2``, 8 worlds
``cheater``     2400    the double-dummy engine itself (it always solves: it bounds the rating)
==============  ======  ==========================================================================

*The rating* is worked out from the evidence gathered here by ``solver.puzzles.evidence``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..cards import ALL_CARDS, Card, suit_of
from ..deal import Deal, Position
from ..players import HeuristicPlayer, RandomPlayer
from ..search import Solver
from .evidence import LADDER, PIMC_TRIES, RANDOM_TRIES, evidence_key, rating_of, tries_of
from .soundness import Oracle, a_puzzle, card_classes, defended, observation_of, oracle_for

__all__ = ["rate", "assess", "evaluate", "ladder_result", "sample_world", "Assessment"]

TEMPTING_MARGIN = 2

Chooser = Callable[[Position], Card]


def _heuristic() -> Chooser:
    player = HeuristicPlayer()
    return lambda p: player.act(observation_of(p, p.to_move))


def _random(seed: int) -> Chooser:
    player = RandomPlayer(seed)
    return lambda p: player.act(observation_of(p, p.to_move))


def _search(nodes: int, oracle: Oracle) -> Chooser:
    solver = Solver(16)
    fallback = _heuristic()

    def choose(p: Position) -> Card:
        solution = solver.solve(p, oracle.side, oracle.objective, line=False,
                                node_limit=nodes, fresh=True)
        if not solution.moves:
            return fallback(p)
        legal = [c for c in p.legal_moves() if c in solution.moves]
        return max(legal, key=lambda c: solution.moves[c])
    return choose


def _voids(position: Position) -> list[set[int]]:
    """The suits each seat has shown out of (by the follow rule in force)."""
    deal = position.deal
    trump = deal.trump
    strict = deal.rules.strict_follow
    voids: list[set[int]] = [set() for _ in range(deal.players)]
    for trick in position.tricks:
        led = suit_of(trick.cards[0])
        for i, card in enumerate(trick.cards[1:], 1):
            seat = trick.seat_of(i, deal.players)
            suit = suit_of(card)
            if suit != led and (strict or led == trump or suit != trump):
                voids[seat].add(led)
    return voids


def sample_world(position: Position, seat: int, rng: random.Random) -> Position:
    """The position with the hands ``seat`` cannot see dealt again at random from the cards it
    has not seen (hand sizes kept, no card of a suit a seat has shown out of)."""
    deal = position.deal
    seen = set(position.hands[seat]) | set(position.play)
    if deal.turnup is not None:
        seen.add(deal.turnup)
    pool = [c for c in ALL_CARDS if c not in seen]
    voids = _voids(position)
    others = [s for s in range(deal.players) if s != seat]
    for attempt in range(60):
        rng.shuffle(pool)
        free = list(pool)
        hands: dict[int, list[Card]] = {}
        ok = True
        for s in sorted(others, key=lambda s: -len(voids[s])):
            need = len(position.hands[s])
            allowed = [c for c in free if attempt >= 50 or suit_of(c) not in voids[s]]
            if len(allowed) < need:
                ok = False
                break
            hands[s] = allowed[:need]
            taken = set(hands[s])
            free = [c for c in free if c not in taken]
        if ok:
            break
    played: list[list[Card]] = [[] for _ in range(deal.players)]
    for trick in position.tricks:
        for i, card in enumerate(trick.cards):
            played[trick.seat_of(i, deal.players)].append(card)
    dealt = tuple(tuple(position.hands[s] if s == seat else hands[s]) + tuple(played[s])
                  for s in range(deal.players))
    world = Deal(dealt, deal.trump, deal.dealer, deal.rules, deal.turnup, deal.score)
    return Position(world, position.play)


def _pimc(worlds: int, oracle: Oracle, seed: str) -> Chooser:
    solver = Solver(18)
    rng = random.Random(f"allfives-pimc:{seed}")

    def choose(p: Position) -> Card:
        legal = p.legal_moves()
        totals = dict.fromkeys(legal, 0)
        for _ in range(worlds):
            world = sample_world(p, p.to_move, rng)
            moves = solver.solve(world, oracle.side, oracle.objective, line=False).moves
            for c in legal:
                totals[c] += moves[c]
        return max(legal, key=lambda c: totals[c])
    return choose


def ladder_result(puzzle, oracle: Oracle, name: str) -> float:
    """The share of tries in which ladder player ``name`` solves the puzzle (0 or 1 but for
    ``random`` and the Monte Carlo players)."""
    start, target = puzzle.position, puzzle.target
    if name == "random":
        wins = sum(defended(start, oracle, _random(i))[0] >= target for i in range(RANDOM_TRIES))
        return wins / RANDOM_TRIES
    if name.startswith("pimc-"):
        worlds, seed = int(name.split("-")[1]), puzzle.seed or "0"
        wins = sum(defended(start, oracle, _pimc(worlds, oracle, f"{seed}:{k}"))[0] >= target
                   for k in range(PIMC_TRIES))
        return wins / PIMC_TRIES
    if name == "cheater":
        return float(oracle.solve(start).value >= target)
    if name == "heuristic":
        chooser = _heuristic()
    elif name.startswith("search-"):
        chooser = _search(int(name.split("-")[1]), oracle)
    else:
        raise ValueError(f"no ladder player {name!r}")
    return float(defended(start, oracle, chooser)[0] >= target)


@dataclass(frozen=True)
class Assessment:
    rating: int
    solved_by: tuple[str, ...]
    evidence: tuple[tuple[str, int], ...]


def evaluate(puzzle, solver: Solver | Oracle | None = None) -> Assessment:
    """The ladder's results and the line's measures, and the rating from them."""
    oracle = oracle_for(a_puzzle(puzzle).side, puzzle.objective, puzzle.target, solver)
    tried = {"pimc_tries": PIMC_TRIES}
    evidence: dict[str, int] = {}
    solved = []
    for name, _ in LADDER:
        share = ladder_result(puzzle, oracle, name)
        evidence[evidence_key(name)] = round(share * tries_of(tried, name))
        if share >= 0.5:
            solved.append(name)
    evidence.update(tried)
    p = puzzle.position
    tempting = real = wrong = 0
    nodes = 0
    counting = Solver(18)
    for card in puzzle.line:
        if oracle.is_solver_turn(p):
            solution = counting.solve(p, oracle.side, oracle.objective, line=False, fresh=True)
            nodes += solution.nodes
            moves = solution.moves
            classes = card_classes(p, None, puzzle.objective)
            real += len(classes) > 1
            for group in classes:
                value = moves[group[0]]
                if value < puzzle.target:
                    wrong += 1
                    tempting += puzzle.target - value <= TEMPTING_MARGIN
        p = p.after(card)
    evidence.update(real_choices=real, wrong=wrong, tempting=tempting, nodes=nodes)
    return Assessment(rating_of(evidence), tuple(solved), tuple(evidence.items()))


def assess(puzzle, solver: Solver | Oracle | None = None):
    """The puzzle with its ``rating``, ``solved_by`` and ``evidence`` filled in."""
    a = evaluate(puzzle, solver)
    return replace(puzzle, rating=a.rating, solved_by=a.solved_by, evidence=a.evidence)


def rate(puzzle, solver: Solver | Oracle | None = None) -> int:
    """The puzzle's rating (module notes); ``evaluate`` gives the evidence behind it."""
    return evaluate(puzzle, solver).rating
