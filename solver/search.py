"""The Python face of the engine: ``solve(position)`` and a reusable ``Solver``.

The engine counts only what is still to come: the points in the tricks not yet completed and
Game.  Everything else is worked out here from the rules: what each card gives the winner of
the trick it falls in, each card's pips toward Game, and the points already settled (completed
tricks, High, and Low when it goes to the holder), which are added back to every value.

Objective ``win`` (1 if the side can force winning the match in this deal, else 0) has a search
of its own in the engine, which pegs the match as the deal goes (see ``_win``): here the engine
is given the captures alone as each card's points, the match score with the completed tricks
pegged, who pegs High and Low-to-the-holder, and which cards give their captor an end point.
A position in which a capture has already taken a side out (peg-out) is decided without it.
"""

from __future__ import annotations

import threading
from typing import cast

from . import clock
from .cardvalues import card_points, card_tables
from .cards import Card
from .deal import Position
from .errors import EngineMissing
from .pegging import match_after
from .scoring import captor_cards
from .solution import Solution, check_limits, check_objective, check_table_bits, resolve_side
from .tricks import side_of

try:
    from ._search import Engine, Problem, Win
except ModuleNotFoundError as error:
    if error.name != f"{__package__}._search":
        raise
    raise EngineMissing.here() from None

__all__ = ["Solver", "solve", "default_solver", "card_points", "DEFAULT_TABLE_BITS",
           "card_tables", "settled_before"]

#: 2**21 entries of 32 bytes: 64 MiB.
DEFAULT_TABLE_BITS = 21


def settled_before(position: Position, side: int, objective: str, points: bytes,
             pips: bytes) -> tuple[int, list[int]]:
    """What X has for certain before the engine's future — the completed tricks, High, and Low
    when it goes to the holder — and the Game pips each side has won so far."""
    deal = position.deal
    bonus = 1 if objective == "tricks" else 0
    margin = objective == "margin"
    settled = 0
    pips_won = [0, 0, 0]
    n = deal.players
    sides = [side_of(s, n) for s in range(n)]
    for t in position.completed:
        assert t.winner is not None
        s = sides[t.winner]
        pips_won[s] += sum(map(pips.__getitem__, t.cards))
        if s == side:
            settled += bonus + sum(map(points.__getitem__, t.cards))
        elif margin:
            settled -= bonus + sum(map(points.__getitem__, t.cards))
    if objective != "tricks":
        rules = deal.rules
        lanes = [(m >> (16 * deal.trump)) & 0x1FFF for m in deal.hand_masks]
        in_play = 0
        for lane in lanes:
            in_play |= lane
        if in_play:
            high = 1 << (in_play.bit_length() - 1)
            low = in_play & -in_play
            for wanted, card in ((rules.high, high),
                                 (rules.low_to_holder, low)):
                if wanted:
                    s = sides[next(i for i, lane in enumerate(lanes) if lane & card)]
                    settled += 1 if s == side else (-1 if margin else 0)
    return settled, pips_won


def _win(position: Position, side: int, points: bytes) -> Win | int:
    """The match as the engine takes it for objective ``win``; or the value itself, 1 or 0,
    when a capture of the completed tricks has already taken a side out (peg-out)."""
    deal = position.deal
    rules = deal.rules
    match = match_after(deal.position(position.play[:len(position.completed) * deal.players]))
    assert match is not None  # check_objective refuses a deal without a score
    if match.winners and rules.finish == "peg-out":
        return int(side in match.winners)
    assert deal.score is not None  # (and so the deal has a score)
    run = [deal.score[s] for s in range(deal.sides)]
    won = [0] * deal.sides
    for t in position.completed:
        assert t.winner is not None
        s = deal.side_of(t.winner)
        run[s] += sum(points[c] for c in t.cards)
        for c in t.cards:
            won[s] |= 1 << c
    trumps = deal.trumps_dealt()
    high = deal.side_of(cast(int, deal.holder(trumps[-1]))) if trumps and rules.high else -1
    low = deal.side_of(cast(int, deal.holder(trumps[0]))) \
        if trumps and rules.low_to_holder else -1
    # (the engine's three places: Low to its captor, the Jack, the Five; -1 where none)
    captured = dict(captor_cards(deal))
    specials = [captured.get(name, -1) for name in ("low", "jack", "five")]
    return Win(rules.target, rules.finish == "peg-out", run, high, low, specials, [1, 1, 5], won)


def _decided(position: Position, side: int, value: int, objective: str, moves: bool,
             line: bool, start: float) -> Solution:
    """The Solution of a position whose value no card can change: every legal card has it, and
    any line keeps it."""
    legal = position.legal_moves()
    best_line: list[Card] = []
    if line:
        after = position
        while not after.is_over:
            card = after.legal_moves()[0]
            best_line.append(card)
            after = after.after(card)
    return Solution(value=value, side=side, objective=objective,
                    moves={c: value for c in legal} if moves else {}, line=tuple(best_line),
                    nodes=0, seconds=clock.now() - start, lower=value, upper=value)


class Solver:
    """An engine and its transposition table, kept between solves.

    The table is kept while the problem stays the same: seats, trumps, rules, objective and
    the side solved for.  Positions of one deal, or many deals dealt under one rule set, share
    it when solved for one fixed side (with ``side=None`` the side to move is solved for, which
    changes as play goes round and starts the table afresh).  Use one Solver per thread.
    """

    def __init__(self, table_bits: int = DEFAULT_TABLE_BITS) -> None:
        check_table_bits(table_bits)
        self.engine = Engine(table_bits)
        self._table_bits = table_bits
        self._settled = 0
        self._since: int | None = None     # the engine's loads as the solve under way began
        self._final: tuple[int, int, int] | None = None     # the last solve's progress

    def __reduce__(self) -> tuple:
        """Pickled (or copied) as a new Solver of the same table size: the table, a cache of
        what was solved, is not carried, and the values solved are the same without it (a
        player holding a Solver may be pickled, to send to another process)."""
        return (Solver, (self._table_bits,))

    @property
    def table_bytes(self) -> int:
        return self.engine.table_bytes

    def progress(self) -> tuple[int, int, int] | None:
        """``(nodes, lower, upper)`` of the solve under way (or the last one): the nodes searched
        so far and the bounds proved on the value, counted as ``Solution.value`` is; None until
        the solve under way has bounds (or where none has been made, or the last was stopped).
        Safe to call from another thread while ``solve`` runs."""
        if self._since is None:
            return self._final
        state = self.engine.progress if self.engine.loads > self._since else None
        if state is None:           # (its search not begun: the engine's are the last one's)
            return None
        nodes, lower, upper = state
        return nodes, self._settled + lower, self._settled + upper

    def solve(self, position: Position, side: int | None = None, objective: str = "points", *,
              moves: bool = True, line: bool = True, node_limit: int | None = None,
              time_limit: float | None = None, fresh: bool = False) -> Solution:
        """Value, every legal card's value (``moves``) and an optimal line (``line``) for
        ``side`` (default: the side to move).  With a ``node_limit`` or ``time_limit`` (seconds)
        the search may stop early: the Solution is then marked incomplete and carries bounds
        (and the values of the cards it finished, but no line).
        ``fresh`` forgets the table first.  Ctrl-C (or any signal handler that raises) stops
        the search within a fraction of a second and raises here."""
        self._final, self._since = None, self.engine.loads
        try:
            solution = self._solve(position, side, objective, moves, line, node_limit,
                                   time_limit, fresh)
        finally:
            self._since = None
        assert solution.lower is not None and solution.upper is not None  # (a solve sets both)
        self._final = solution.nodes, solution.lower, solution.upper
        return solution

    def _solve(self, position: Position, side: int | None, objective: str, moves: bool,
               line: bool, node_limit: int | None, time_limit: float | None,
               fresh: bool) -> Solution:
        start = clock.now()
        node_limit, time_limit = check_limits(node_limit, time_limit)
        check_objective(objective, position)
        side = resolve_side(position, side)
        deal = position.deal
        current = position.current
        points, pips = card_tables(deal, objective)
        win = None
        if objective == "win":
            win = _win(position, side, points)
            if isinstance(win, int):
                self._settled = 0
                return _decided(position, side, win, objective, moves, line, start)
            settled, pips_won = 0, settled_before(position, side, "points", points, pips)[1]
        else:
            settled, pips_won = settled_before(position, side, objective, points, pips)
        self._settled = settled
        assert not isinstance(win, int)     # (a match already decided is returned above)
        played = 0
        for c in position.play:
            played |= 1 << c
        lower, upper, move_bounds, best_line, nodes, stopped = self.engine.solve(
            Problem([side_of(s, deal.players) for s in range(deal.players)], side, deal.trump,
                                points, pips, trick_bonus=1 if objective == "tricks" else 0,
                                game=objective != "tricks" and deal.rules.game,
                                margin=objective == "margin", strict=deal.rules.strict_follow,
                                win=win),
            [m & ~played for m in deal.hand_masks], current.leader, current.cards, pips_won,
            all_moves=moves, want_line=line, node_limit=node_limit, time_limit=time_limit,
            fresh=fresh)
        move_values: dict[Card, int] = {}
        order = {c: i for i, c in enumerate(position.legal_moves())}
        for card, lo, hi in sorted(move_bounds, key=lambda m: order[m[0]]):
            if lo == hi:
                move_values[card] = settled + lo
        # a limit may also have cut the line short after the values were found
        complete = lower == upper and not stopped
        return Solution(value=settled + lower, side=side, objective=objective, moves=move_values,
                        line=tuple(best_line) if complete else (), nodes=nodes,
                        seconds=clock.now() - start, lower=settled + lower,
                        upper=settled + upper, complete=complete)


_local = threading.local()


def default_solver() -> Solver:
    """This thread's shared Solver, the one ``solve`` uses."""
    solver = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = Solver()
    return solver


def solve(position: Position, side: int | None = None, objective: str = "points", *,
          moves: bool = True, line: bool = True, node_limit: int | None = None,
          time_limit: float | None = None, fresh: bool = False) -> Solution:
    """Solve with this thread's shared Solver; see ``Solver.solve``."""
    return default_solver().solve(position, side, objective, moves=moves, line=line,
                                   node_limit=node_limit, time_limit=time_limit, fresh=fresh)
