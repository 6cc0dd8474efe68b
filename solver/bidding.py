"""The Monte Carlo player's calls: stand or beg (the elder hand), take one or run (the dealer).

Solving the other player's reply with all cards open makes a call wrong: a dealer who "sees"
the elder hand's cards never lets a beg go cheaply.  So the calls are valued over sampled worlds
(``solver.sampling``: the other hands, weighted by what the calls so far suggest) in which

* the *other* player's call is the modelled call of a player who cannot see this seat's hand:
  the heuristic's rule 2 (``take_one_or_run``) applied to the dealer's sampled hand and
  observation, when the elder hand values a beg;
* the rest of the pack is dealt per world in a random order (the cards no hand holds, shuffled
  by the player's RNG), so that a run is played by the rules of ``solver.game``: the turn-up set
  aside, three more cards to each seat, the next card turned up, again while it is of the suit
  first proposed, and the deal thrown in when the pack or ``max_runs`` runs out;
* the value of a branch is the deal's result for this seat's side: the points pegged before
  play (take-one, turned-up Jack) and the double-dummy value of the deal that results
  (``margin`` with two sides, ``points`` with three; a thrown-in deal is worth 0, and a game
  won before play ``WIN_VALUE`` points).

A double-dummy value of the whole deal is the cheap proxy for the play to come: each world's
deal is solved once per branch.  After a run the hands hold 9 or 12 cards and a full solve can
take seconds with four players, so each solve is limited (``CALL_NODES`` nodes, and the
decision's time budget): a solve cut short is valued at the middle of its proved bounds, and
the Advice says so (``complete`` False).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import sampling
from .advice import Budget, ranked, summarize
from .calling import WIN_VALUE, advise_rollout, world_pack, world_state
from .game import BEG, PLAY, STAND, MatchState, Observation
from .heuristic import rules_call, take_one_or_run
from .players import deal_objective
from .tricks import side_of

__all__ = ["advise_call", "call_advice", "CALL_NODES"]

#: Engine nodes for each double-dummy solve of a call's branch.
CALL_NODES = 50_000
def _branches(observation: Observation, pack: list[int]) -> dict[int, MatchState]:
    """The state after each call this seat may make, the other player's reply by the model."""
    out = {}
    if observation.phase == "elder":
        for call in (STAND, BEG):
            state = world_state(observation, pack)
            state.apply_action(call)
            if call == BEG:
                reply = take_one_or_run(state.observation(state.current_player()))
                state.apply_action(reply)
            out[call] = state
    else:
        for call in observation.legal_actions:
            state = world_state(observation, pack)
            state.apply_action(BEG)
            state.apply_action(call)
            out[call] = state
    return out


def _pegged(state: MatchState, side: int, margin: bool) -> tuple[float, bool]:
    """The points this deal has pegged so far for ``side`` (less the others' with ``margin``),
    and whether the deal is over before play (thrown in, or a game won)."""
    if state.phase == PLAY:
        pegs, winners = state.pegs, ()
    else:
        log = state.deals[-1]
        pegs, winners = log.pegs, log.winners
    value = 0.0
    for peg in pegs:
        if peg.side == side:
            value += peg.points
        elif margin:
            value -= peg.points
    if winners:
        value = WIN_VALUE if side in winners else -WIN_VALUE
    return value, state.phase != PLAY


def call_advice(player, observation: Observation, hands: Sequence[Sequence[Sequence[int]]],
                weights: Sequence[float], exact: bool = False):
    """The Advice on a call over the worlds given as every seat's hand."""
    legal = list(observation.legal_actions)
    n = observation.players
    side = side_of(observation.seat, n)
    objective = deal_objective(n)
    margin = objective == "margin"
    turnup = observation.turnups[0]
    budget = Budget(player.time_limit, player.node_limit, len(hands))
    # every branch of every world, then the solves grouped by trumps (a table per trumps)
    branches = []
    for world, world_hands in enumerate(hands):
        pack = world_pack(world_hands, observation.dealer, turnup, player.rng)
        for call, state in _branches(observation, pack).items():
            pegged, over = _pegged(state, side, margin)
            branches.append((world, call, pegged, None if over else state.position()))
    values = {(w, c): p for w, c, p, _ in branches}
    todo = [(b[3].deal.trump, i) for i, b in enumerate(branches) if b[3] is not None]
    solver = player.solver
    complete = True
    solved: dict[tuple, float] = {}
    for done, (_, i) in enumerate(sorted(todo)):
        world, call, pegged, position = branches[i]
        key = (position.deal.hands, position.deal.trump, position.deal.rules)
        if key not in solved:
            solution = budget.solve(solver, position, side, objective, done,
                                    most_nodes=CALL_NODES, moves=False)
            if not solution.complete:
                complete = False
            solved[key] = (solution.lower + solution.upper) / 2
        values[(world, call)] = pegged + solved[key]
    rows = summarize([[values[(w, c)] for w in range(len(hands))] for c in legal], weights,
                     exact)
    actions = ranked(legal, dict(zip(legal, rows)), rules_call(observation))
    return player._advice(observation, objective, len(hands), exact, complete, actions, budget)


def advise_call(player, observation: Observation):
    """The PIMC player's Advice on a call, over worlds from ``solver.sampling``: each world's
    deal solved double-dummy (``call_advice``) with ``calls="pimc"``, else played out
    (``solver.calling.advise_rollout``)."""
    solved = player.calls == "pimc"
    count = player.call_worlds if solved else player.rollout_worlds
    worlds = sampling.sample_worlds(observation, count, player.rng,
                                    exact_limit=player.exact_limit, bidding=player.bidding)
    hands = [w.hands for w in worlds]
    weights = [float(w.weight) for w in worlds]
    value = call_advice if solved else advise_rollout
    return value(player, observation, hands, weights, bool(worlds.exact))

