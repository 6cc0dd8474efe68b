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
from .advice import MIN_WORLDS, Budget, ranked, summarize
from .calling import WIN_VALUE, advise_rollout, world_pack, world_state
from .game import BEG, PLAY, STAND, MatchState, Observation
from .heuristic import rules_call, take_one_or_run
from .players import deal_objective
from .tricks import side_of

__all__ = ["advise_call", "call_advice", "CALL_NODES"]

#: Engine nodes for each double-dummy solve of a call's branch.
CALL_NODES = 50_000
#: Worlds whose branches are solved together (grouped by trumps); a batch is begun only while
#: the decision's budget lasts.
WORLD_BATCH = 16


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
    winners: tuple[int, ...]
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
                weights: Sequence[float], exact: bool = False, budget: Budget | None = None):
    """The Advice on a call over the worlds given as every seat's hand: ``WORLD_BATCH`` of
    them at a time, a batch begun only while the ``budget`` lasts (the player's limits by
    default), so that ``MIN_WORLDS`` at the least are valued."""
    legal = list(observation.legal_actions)
    n = observation.players
    side = side_of(observation.seat, n)
    objective = deal_objective(n)
    if budget is None:
        budget = Budget(player.time_limit, player.node_limit, len(hands))
    values: dict[tuple[int, int], float] = {}
    complete = True
    done = 0
    solved: dict[tuple, float] = {}
    begun = 0
    while begun < len(hands) and (begun < MIN_WORLDS or not budget.spent()):
        batch = range(begun, min(begun + WORLD_BATCH, len(hands)))
        finished, done = _call_batch(player, observation, hands, batch, side, objective, budget,
                                     done, values, solved)
        complete = complete and finished
        begun = batch.stop
    complete = complete and begun == len(hands)
    exact = exact and begun == len(hands)
    rows = summarize([[values[(w, c)] for w in range(begun)] for c in legal], weights[:begun],
                     exact)
    actions = ranked(legal, dict(zip(legal, rows)), rules_call(observation))
    return player._advice(observation, objective, weights[:begun], exact, complete, actions,
                          budget)


def _call_batch(player, observation: Observation, hands: Sequence[Sequence[Sequence[int]]],
                batch: range, side: int, objective: str, budget: Budget, done: int,
                values: dict[tuple[int, int], float], solved: dict[tuple, float]
                ) -> tuple[bool, int]:
    """Each call's value in each world of ``batch`` into ``values``: every branch of every
    world, then the solves grouped by trumps (a table per trumps); whether no solve was cut
    short, and the branches valued in all (``done`` before)."""
    margin = objective == "margin"
    turnup = observation.turnups[0]
    branches = []
    for world in batch:
        pack = world_pack(hands[world], observation.dealer, turnup, player.rng)
        for call, state in _branches(observation, pack).items():
            pegged, over = _pegged(state, side, margin)
            branches.append((world, call, pegged, None if over else state.position()))
    values.update({(w, c): p for w, c, p, _ in branches})
    todo = [(b[3].deal.trump, i) for i, b in enumerate(branches) if b[3] is not None]
    solver = player.solver
    complete = True
    for _, i in sorted(todo):
        world, call, pegged, position = branches[i]
        assert position is not None     # (todo holds the branches played on)
        key = (position.deal.hands, position.deal.trump, position.deal.rules)
        if key not in solved:
            solution = budget.solve(solver, position, side, objective, done,
                                    most_nodes=CALL_NODES, moves=False)
            if not solution.complete:
                complete = False
            solved[key] = (solution.lower + solution.upper) / 2
        values[(world, call)] = pegged + solved[key]
        done += 1
    return complete, done


def advise_call(player, observation: Observation):
    """The PIMC player's Advice on a call, over worlds from ``solver.sampling``: each world's
    deal solved double-dummy (``call_advice``) with ``calls="pimc"``, else played out
    (``solver.calling.advise_rollout``)."""
    solved = player.calls == "pimc"
    count = player.call_worlds if solved else player.rollout_worlds
    budget = Budget(player.time_limit, player.node_limit if solved else None, count)
    worlds = sampling.sample_worlds(observation, count, player.rng,
                                    exact_limit=player.exact_limit, bidding=player.bidding,
                                    deadline=budget.draw_deadline, least=MIN_WORLDS)
    budget.drawn_short = not worlds.exact and len(worlds) < count
    hands = [w.hands for w in worlds]
    weights = [float(w.weight) for w in worlds]
    value = call_advice if solved else advise_rollout
    return value(player, observation, hands, weights, bool(worlds.exact), budget)

