"""Players of the match in ``solver.game``: ``random``, ``heuristic`` and ``cheater``.

A player is anything with ``act(observation) -> action``: it is handed the ``Observation`` of its
own seat (``MatchState.observation(seat)``: its hand, the turn-ups, the calls, the cards played,
the score) and returns one of ``observation.legal_actions``.  It never sees another seat's cards.

An *omniscient* player (``omniscient = True``) is the one exception: the runner
(``solver.batch``, or any loop written the same way) calls ``act(observation, state)`` with the
true ``MatchState`` as well, which it may read but must not change.  ``cheater`` is one: it
plays the double-dummy best card, the upper bound of card play, not a fair opponent.  ``decide``
is that calling convention in one place::

    >>> from solver.game import Match
    >>> from solver.registry import make_player
    >>> state = Match(players=2).new_initial_state(seed=1)
    >>> players = [make_player("heuristic"), make_player("random", seed=2)]
    >>> while not state.is_terminal():
    ...     state.apply_action(decide(players[state.current_player()], state))
    >>> sorted(state.returns())
    [-1, 1]

Players are made by name through ``solver.registry`` (``make_player("heuristic")``), the
Monte Carlo player of ``solver.pimc`` among them.  The heuristic's rules are
``solver.heuristic``'s.  A player may keep state between decisions (``cheater`` keeps its
solver's table); make a new one for each match to repeat a run exactly.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from . import clock
from . import calling, solution
from .errors import AllFivesError, quoted, seeded, spelled
from .game import Observation
from .heuristic import heuristic_action

if TYPE_CHECKING:       # (the engine is loaded on first use)
    from .search import Solver

__all__ = ["Player", "PlayerError", "RandomPlayer", "HeuristicPlayer", "CheaterPlayer",
           "decide", "deal_objective", "legal_to_act",
           "within_reach", "check_replies", "sides_within_reach", "check_switch"]


class PlayerError(AllFivesError):
    """An unknown player name or option, or a player asked to act when it may not."""


@runtime_checkable
class Player(Protocol):
    """What the runner needs of a player: ``act(observation)``, the action it takes.  Two
    attributes are read where a player has them: ``name`` (in messages) and ``omniscient``
    (True: ``act(observation, state)``, the whole state too, as the cheater)."""

    def act(self, observation: Observation, *args: Any, **kwargs: Any) -> int: ...


def decide(player: Player, state) -> int:
    """The action ``player`` takes for the seat to act in ``state``: ``act(observation)``, or
    ``act(observation, state)`` for an omniscient player; checked against the legal actions."""
    seat = state.current_player()
    if seat < 0:
        raise PlayerError(f"nobody is to act: the state is in its {state.phase} phase")
    observation = state.observation(seat)
    action = (player.act(observation, state) if getattr(player, "omniscient", False)
              else player.act(observation))
    if action not in observation.legal_actions:
        raise PlayerError(f"player {quoted(getattr(player, 'name', player))} chose "
                          f"{quoted(action)}, which is not legal for {state.seats[seat]} now")
    return action


def legal_to_act(observation: Observation) -> tuple[int, ...]:
    """The legal actions of what a seat sees; a PlayerError for a seat not to act, or for
    anything else (a whole state)."""
    if not isinstance(observation, Observation):
        raise PlayerError(f"{type(observation).__name__} is not what a seat sees: give "
                          f"state.observation(seat)")
    if not observation.legal_actions:
        raise PlayerError(f"seat {observation.seat} is not to act (phase {observation.phase})")
    return tuple(observation.legal_actions)


# ---- random ---------------------------------------------------------------------------------


class RandomPlayer:
    """Uniform over the legal actions, from its own ``random.Random(seed)``."""

    omniscient = False

    def __init__(self, seed: int | str | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = seeded(seed)

    def act(self, observation: Observation) -> int:
        return self.rng.choice(legal_to_act(observation))

    def __repr__(self) -> str:
        return f"RandomPlayer(name={self.name!r})"


#: The heuristic's ways of calling (its option ``calls``).
HEURISTIC_CALLS = ("rules", "table", "rollout")
#: How the players that value cards with every hand open take the other side's replies (their
#: option ``replies``): the double-dummy best, or the heuristic's card (``solver.replies``).
REPLIES = ("double-dummy", "heuristic")


# ---- heuristic ------------------------------------------------------------------------------


class HeuristicPlayer:
    """A decent club player's rules; it sees only its own observation.

    Words used below: *trumps* are the proposed suit (the suit of the card turned up) before
    trumps are fixed, the trump suit after.  A *scoring trump* is the A, K, T or 5 of trumps.
    A card is *out* when this seat has not seen it: not in its hand, not turned up, not played
    (it is in another hand or in the pack).  A trump is a *master* when no higher trump is out.
    The *prize trumps* are those of the T, the 5 and the J of trumps worth a point or more to the
    winner of the trick by the rules in force (with the all-fives count T 10, 5 5, J 2).  A card's
    *value* is what it gives the side that wins the trick it falls in: capture pips if a trump,
    the Jack and five-for-five points if they count, and 0.1 a pip toward Game (any suit).
    A trick is *safe* for my side when my side wins it with the card I play and, unless nobody
    plays after me, no card that is out could take it over.  The *cheapest* card is the one of
    least value, a non-trump before a trump, a low rank before a high one.

    1. Elder hand: stand with two or more trumps, or with any scoring trump; otherwise beg.
    2. Dealer, after a beg: run the cards when the take-one point would bring the elder hand's
       side to the target, or when the dealer holds fewer than two trumps and no scoring trump
       (the turn-up is poor for the dealer); otherwise take one.  When no run is allowed, take
       one.
    3. Leading, draw trumps with the top one: when my highest trump is a master and a trump is
       still out, lead it.
    4. Leading otherwise, save the prize trumps and lead the cheapest card: never a prize trump
       while a higher trump is out (unless nothing else is left).
    5. Following, bank a prize trump: play a prize trump, the most valuable first, when the
       trick is then safe for my side.
    6. Following, throw points onto a partner's winner: when my partner is winning a trick that
       no card out can take from it (or nobody plays after me), play my most valuable card that
       keeps the trick safe, but no master trump (kept to draw trumps).
    7. Following, win a trick holding points as cheaply as possible: when the trumps on the
       table are worth a point or more (their capture pips, the Jack, five-for-five; Game pips
       are not counted here), play the lowest card that makes the trick safe for my side.
    8. Following, fight for captured trumps: when the trumps on the table are worth 2 or more
       and no card makes the trick safe, take the lead in it with my highest trump that does,
       other than a prize trump.
    9. Following, take Game pips when cheap: when the table holds Game pips, an opponent is
       winning and a non-trump makes the trick safe for my side, play the lowest such card (no
       trump is spent on Game pips alone).
    10. Otherwise duck: play the cheapest card (never a prize trump when another card may be
        played).

    ``explain(observation)`` gives the action and the number of the rule that chose it.  The
    thresholds of rules 1, 2, 7 and 9 were each kept over their neighbours (standing on three
    trumps, keeping trumps on one or three, chasing Game pips with trumps) by duplicate play
    against them, 2,000 deal groups with 2 and with 4 players.

    Option ``calls``: ``"rules"`` (rules 1 and 2, the default), ``"table"`` (the calls by the
    table learned from self-play, ``solver.calling.table_call``) or ``"rollout"`` (the calls
    valued by playing the deal out over sampled worlds, ``solver.calling.rollout_call``, from
    the player's ``random.Random(seed)``); card play is the same in every case.
    """

    omniscient = False

    def __init__(self, seed: int | str | None = None, name: str = "heuristic",
                 calls: str = "rules") -> None:
        if calls not in HEURISTIC_CALLS:
            raise PlayerError(f"calls: {quoted(calls)} is not one of "
                              f"{', '.join(repr(c) for c in HEURISTIC_CALLS)}")
        self.name = name
        self.calls = calls
        # only the rollout calls draw: the rules and the table are deterministic
        self.rng = seeded(seed)

    def act(self, observation: Observation) -> int:
        return self.explain(observation)[0]

    def explain(self, observation: Observation) -> tuple[int, int]:
        """(action, rule number) for the seat to act."""
        legal = legal_to_act(observation)
        if observation.phase in ("elder", "dealer") and self.calls != "rules" and len(legal) > 1:
            rule = 1 if observation.phase == "elder" else 2
            if self.calls == "table":
                return calling.table_call(observation), rule
            return calling.rollout_call(observation, self.rng), rule
        return heuristic_action(observation)

    def __repr__(self) -> str:
        return f"HeuristicPlayer(name={self.name!r}, calls={self.calls!r})"


# ---- cheater --------------------------------------------------------------------------------


class CheaterPlayer:
    """Sees every hand: plays the double-dummy best card for its side (``solver.search``).

    An omniscient player: the runner calls ``act(observation, state)`` with the true
    ``MatchState``.  In card play it solves ``state.position()`` for its side, objective
    ``margin`` with two sides (2 or 4 players) and ``points`` with three (the seat against the
    other two together), and plays a card of the best value; among equal best cards it plays
    the heuristic's choice when that is one of them, else the first in ``legal_actions``
    order.  When the match can end in this deal (``within_reach``) it first keeps the cards
    that win the match (objective ``win``); with three players, then those after which neither
    other seat can win it in the deal, where some can; then chooses among them by points.  A
    lone legal card is played without a solve.  The calls (stand or beg, take one or run) are
    the heuristic's rules 1 and 2: the pack and the runs stay hidden from it.

    Each of a decision's solves is limited (``time_limit`` seconds, 2.0 by default, and
    ``node_limit`` nodes, none by default; near the target a decision makes up to four), so
    that a 4-player 12-card deal cannot hang.  When a limit stops the search it plays the best
    card among those whose values were finished, or the heuristic's card when none was.  A run
    that never hits a limit is exactly repeatable; one that does depends on the machine's speed
    (give a ``node_limit`` and ``time_limit=None`` for runs repeatable everywhere).  Without a node limit the cheaters of one thread share one
    ``Solver`` per table size (``table_bits``: 2**20 entries of 32 bytes, 32 MiB, by default):
    a table only speeds a solve up and never changes a finished value, so sharing it changes
    no card played.  With a node limit each cheater has its own, kept across its decisions (the
    nodes a solve needs depend on what the table holds): make one per match.
    """

    omniscient = True

    def __init__(self, seed: int | str | None = None, name: str = "cheater",
                 time_limit: float | None = 2.0, node_limit: int | None = None,
                 table_bits: int = 20, replies: str = "double-dummy") -> None:
        solution.check_limits(node_limit, time_limit)
        solution.check_table_bits(table_bits, PlayerError)
        check_replies(replies)
        self.replies = replies
        self.name = name
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.table_bits = table_bits
        self._solver: Solver | None = None
        self._heuristic = HeuristicPlayer()
        #: Decisions a limit cut short (the card played was then the best of those valued).
        self.stopped = 0

    def act(self, observation: Observation, state=None) -> int:
        before = self.stopped
        try:
            return self._act(observation, state)
        finally:       # (a decision of several solves counted once, however many stopped)
            self.stopped = before + (self.stopped > before)

    def _act(self, observation: Observation, state) -> int:
        legal = legal_to_act(observation)
        if observation.phase != "play":
            return self._heuristic.act(observation)
        if len(legal) == 1:
            return legal[0]
        if state is None:
            raise PlayerError("the cheater is omniscient: call act(observation, state)")
        from .search import Solver

        if self._solver is None:
            self._solver = (Solver(self.table_bits) if self.node_limit is not None
                            else _shared_solver(self.table_bits))
        position = state.position()
        deal = position.deal
        side = deal.side_of(position.to_move)
        preferred = self._heuristic.act(observation)
        candidates: Sequence[int] = legal
        if within_reach(position):
            # near the target the match comes first: the cards that win it (or, if none does,
            # all of them), with three players then those after which no other seat can win it,
            # then the most points among those
            candidates = self._best(position, side, "win", candidates, preferred)
            if len(candidates) > 1 and deal.sides == 3:
                candidates = self._safest(position, side, candidates, preferred)
            if len(candidates) == 1:
                return candidates[0]
        objective = deal_objective(deal.players)
        if self.replies == "heuristic":
            replied = self._replied(position, side, objective, candidates, preferred)
            if replied is not None:
                return replied
        return self._best(position, side, objective, candidates, preferred)[0]

    def _replied(self, position, side: int, objective: str, candidates: Sequence[int],
                 preferred: int) -> int | None:
        """The best reply to the heuristic among ``candidates`` (the heuristic's card first
        among equals), or None when the search does not fit the limits."""

        from .replies import REPLY_NODES, Spent, reply_values

        deadline = None if self.time_limit is None else clock.now() + self.time_limit
        limit = None if self.node_limit is None else self.node_limit // REPLY_NODES
        try:
            values = reply_values(position, side, objective, self._heuristic, limit=limit,
                                  deadline=deadline)
        except Spent:
            self.stopped += 1
            return None
        return _top(values, candidates, preferred)[0]

    def _best(self, position, side: int, objective: str, candidates: Sequence[int],
              preferred: int) -> Sequence[int]:
        """The ``candidates`` of the best value by ``objective`` (the heuristic's card first
        when it is one of them); all of them when the solve valued none."""
        assert self._solver is not None     # (made by _act)
        solution = self._solver.solve(position, side, objective, line=False,
                                      node_limit=self.node_limit, time_limit=self.time_limit)
        if not solution.complete:
            self.stopped += 1
        valued = [c for c in candidates if c in solution.moves]
        if not valued:
            return [preferred] if preferred in candidates else candidates
        return _top(solution.moves, valued, preferred)

    def _safest(self, position, side: int, candidates: Sequence[int],
                preferred: int) -> Sequence[int]:
        """With three players, the ``candidates`` after which the other seats can least win
        the match in the deal (either of them, solved with every other seat against it; a
        seat that cannot reach the target in it is none); all of them when a limit leaves
        one unvalued."""
        assert self._solver is not None     # (made by _act)
        lost = dict.fromkeys(candidates, 0)
        for rival in sides_within_reach(position):
            if rival != side:
                solution = self._solver.solve(position, rival, "win", line=False,
                                              node_limit=self.node_limit,
                                              time_limit=self.time_limit)
                self.stopped += not solution.complete
                if not all(c in solution.moves for c in candidates):
                    return candidates
                for c in candidates:
                    lost[c] = max(lost[c], solution.moves[c])
        return _top({c: -v for c, v in lost.items()}, candidates, preferred)

    def __repr__(self) -> str:
        return (f"CheaterPlayer(name={self.name!r}, time_limit={self.time_limit}, "
                f"node_limit={self.node_limit}, replies={self.replies!r})")


def _top(values: dict[int, int], cards: Sequence[int], preferred: int) -> list[int]:
    """The ``cards`` of the best value, ``preferred`` first when it is one of them."""
    top = max(values[c] for c in cards)
    return sorted((c for c in cards if values[c] == top), key=lambda c: c != preferred)


def deal_objective(players: int) -> str:
    """What a player who solves plays a deal for: ``margin`` with two sides (2 or 4 players),
    ``points`` with three (the seat against the other two together)."""
    return "points" if players == 3 else "margin"


def within_reach(position) -> bool:
    """Whether some side could reach the target in this deal: its score when play started plus
    every point still to be had (each trump's capture, the end points) reaches it.  Near the
    target a cheater plays for the match (objective ``win``), elsewhere for points."""
    return bool(sides_within_reach(position))


def sides_within_reach(position) -> list[int]:
    """The sides that could reach the target in this deal (``within_reach``); none without a
    match score."""
    from .cardvalues import card_tables

    deal = position.deal
    if deal.score is None:
        return []
    rules = deal.rules
    points = card_tables(deal, "points")[0]     # (card_points, kept per rules and trumps)
    left = sum(points[c] for hand in position.hands for c in hand)
    # (Low to the captor is in the lowest trump's points already, as the Jack is in its own)
    low = rules.low_to_holder
    left += sum(points[c] for c in position.current.cards) + sum((rules.high, low, rules.game))
    won = [0] * deal.sides
    for trick in position.completed:
        won[deal.side_of(trick.winner)] += sum(points[c] for c in trick.cards)
    return [side for side, score in enumerate(deal.score)
            if score + won[side] + left >= rules.target]


_local = threading.local()

def check_replies(value: Any) -> None:
    """Option ``replies`` of the players that value cards with every hand open: the other
    side's replies ``double-dummy`` or the ``heuristic``'s (``solver.replies``)."""
    if value not in REPLIES:
        raise PlayerError(f"replies: {quoted(value)} is not 'double-dummy' or 'heuristic'")


def check_switch(name: str, value: Any) -> None:
    """An on/off option: True or False (1 or 0 from the command line)."""
    if value not in (True, False) or not isinstance(value, (bool, int)):
        raise PlayerError(f"{name}: {spelled(value)} is not true or false (1 or 0)")


def _shared_solver(table_bits: int) -> Solver:
    """This thread's Solver with a table of 2**table_bits entries."""
    from .search import Solver

    solvers = getattr(_local, "solvers", None)
    if solvers is None:
        solvers = _local.solvers = {}
    if table_bits not in solvers:
        solvers[table_bits] = Solver(table_bits)
    return solvers[table_bits]
