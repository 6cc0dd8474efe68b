"""The calls valued by playing the deal out: stand or beg, take one or run.

A call is worth what the deal that follows it brings the caller's side when it is *played out*
by players who see only their own cards (the heuristic's card play, ``solver.players``), not
solved with every hand open.  Both branches of a call are played from the same full deal and
the same rest of the pack (paired), so their difference has a low variance.

*The value of a deal* for a side (``deal_result``) is the points it pegged in the deal (take
one, a turned-up Jack, captures, the end points) less the others': with two sides the margin,
with three the seat's points less the mean of the other two's (so that a point given away
counts against the giver).  A deal thrown in (no new suit within ``max_runs``, or the pack ran
out) is worth 0: the same dealer deals again.  A game won in the deal is worth ``WIN_VALUE``
(lost: minus it), so that near the target the chance to win the match comes first.

*The reply* of the other caller is the heuristic's rule on its own hand: after a beg, the
dealer's ``take_one_or_run``.  ``branch_results(observation, pack)`` plays each call of the
seat to act out from one pack; ``outcomes(...)`` plays stand, take-one and run from one pack,
which is what the learned table (``solver.calltable``) is made of.

Two ways to decide from it:

* ``rollout``: the calls valued over sampled worlds (``solver.sampling``: the hands this seat
  has not seen, the rest of the pack shuffled per world), each world played out once per
  branch; ``advise_rollout`` gives the ``Advice`` (means, 95% intervals, share of worlds best).
* ``table``: the sign of the mean difference between the branches in the learned table, looked
  up by the features of the caller's hand and the turn-up (``table_call``): microseconds, and
  no noise but the table's.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from functools import lru_cache

from . import sampling
from .advice import MIN_WORLDS, PLAYED_OUT, Budget, valued
from .cards import ACE, ALL_CARDS, FIVE, JACK, KING, QUEEN, TEN, rank_of, suit_of
from .game import BEG, DEALER, ELDER, PLAY, RUN, STAND, TAKE_ONE, DealLog, Match, MatchState, \
    Observation
from .heuristic import heuristic_action, rules_call, take_one_or_run
from .rules import PRESETS, Rules
from .tricks import side_of

__all__ = ["WIN_VALUE", "deal_result", "play_out", "branch_results", "outcomes",
           "hand_features", "cell_keys", "CallTable", "load_table", "table_call", "deal_preset",
           "DEAL_OPTIONS",
           "advise_rollout", "rollout_call", "near_target", "ROLLOUT_WORLDS", "world_pack",
           "world_state"]

#: The points the trumps captured can peg in one deal: A 4, K 3, Q 2, J 1, 10 10, 5 5.
CAPTURES_MOST = 25
#: Worlds played out per call by ``calls=rollout``.
ROLLOUT_WORLDS = 64

#: What a game won before play is worth, in points of the deal.
WIN_VALUE = 61


def world_pack(hands: Sequence[Sequence[int]], dealer: int, turnup: int, rng) -> list[int]:
    """A pack that deals ``hands`` (one per seat, 6 cards each) and turns up ``turnup``, the
    other cards after them in an order shuffled by ``rng``."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    hands = [sorted(h) for h in hands]
    pack: list[int] = []
    for start in (0, 3):
        for seat in order:
            pack += hands[seat][start:start + 3]
    pack.append(turnup)
    used = set(pack)
    rest = [c for c in ALL_CARDS if c not in used]
    rng.shuffle(rest)
    return pack + rest


def world_state(observation: Observation, pack: Sequence[int]) -> MatchState:
    """A match state at ``observation``'s table (players, rules, dealer, score) about to deal
    ``pack`` (``world_pack``): the calls come next."""
    match = Match(observation.players, observation.rules, observation.best_of)
    state = match.new_initial_state(dealer=observation.dealer, score=observation.score,
                                    auto_deal=False)
    state.deal_pack(pack)
    return state



def deal_result(log: DealLog, side: int, sides: int) -> float:
    """What the deal ``log`` brought ``side``: its points less the others' (their mean with
    three sides); ``WIN_VALUE`` for a game won in it, minus that for one lost; 0 if thrown in."""
    if log.winners:
        return float(WIN_VALUE if side in log.winners else -WIN_VALUE)
    points = [0] * sides
    for peg in log.pegs:
        points[peg.side] += peg.points
    others = [p for s, p in enumerate(points) if s != side]
    return points[side] - sum(others) / len(others)


def play_out(state: MatchState, players: Sequence | None = None) -> DealLog:
    """Play the deal in ``state`` (made with ``auto_deal=False``) to its end by the heuristic's
    rules, every seat (or by ``players``, one a seat, each seeing its own observation), and
    give its log: a deal thrown in, a game won in it or the last trick all end it (the state
    then waits for a pack, or the match is over)."""
    if state.auto_deal:
        raise ValueError("play_out needs a state made with auto_deal=False")
    while state.phase in (ELDER, DEALER, PLAY):
        seat = state.current_player()
        observation = state.observation(seat)
        state.apply_action(heuristic_action(observation)[0] if players is None
                           else players[seat].act(observation))
    return state.deals[-1]


def deal_most(rules: Rules) -> int:
    """The most points one deal can peg under ``rules`` (without a revoke): the captures, High,
    Low, Jack and Game, the five for five, the take-one and a turned-up Jack, those the rules
    count."""
    return (CAPTURES_MOST * rules.capture + rules.high + rules.low + rules.jack + rules.game
            + 5 * rules.five_for_five + 1 + rules.turnup_jack)


def near_target(observation: Observation) -> bool:
    """Whether a side could reach the target in this deal: a game may be won or lost in it."""
    most = deal_most(observation.rules)
    return any(s + most >= observation.rules.target for s in observation.score)


def branch_results(observation: Observation, pack: Sequence[int]) -> dict[int, float]:
    """Each call the seat to act may make, played out from ``pack`` (the world's whole pack,
    this seat's hand and turn-up as observed): the deal's result for the seat's side.  After a
    beg the dealer's reply is the heuristic's rule on its hand."""
    n = observation.players
    side = side_of(observation.seat, n)
    sides = 3 if n == 3 else 2
    out: dict[int, float] = {}
    calls: list[tuple[int, ...]]
    if observation.phase == "elder":
        calls = [(STAND,), (BEG,)]
    else:
        calls = [(BEG, c) for c in observation.legal_actions]
    # far from the target no game ends in the deal, and a take-one is the stand's deal and
    # play (the card play reads no score) with the elder hand's point more
    far = not near_target(observation)
    for steps in calls:
        state = world_state(observation, pack)
        for step in steps:
            state.apply_action(step)
        if state.phase == DEALER:
            reply = take_one_or_run(state.observation(state.dealer))
            if reply == TAKE_ONE and far and STAND in out:
                out[BEG] = out[STAND] + 1
                continue
            state.apply_action(reply)
        out[steps[-1]] = deal_result(play_out(state), side, sides)
    return out


def outcomes(match: Match, dealer: int, pack: Sequence[int],
             score: Sequence[int] | None = None, players: Sequence | None = None
             ) -> dict[int, tuple[float, ...]]:
    """Stand, take-one and run (when the rules allow one) played out from one ``pack`` (by the
    heuristic, or ``players``): per call, the deal's result for each side (``deal_result``)."""
    n = match.players
    sides = 3 if n == 3 else 2
    out = {}
    for steps in ((STAND,), (BEG, TAKE_ONE), (BEG, RUN)):
        if steps[-1] == RUN and match.rules.max_runs == 0:
            continue
        state = match.new_initial_state(dealer=dealer, score=score, auto_deal=False)
        state.deal_pack(pack)
        for step in steps:
            state.apply_action(step)
        log = play_out(state, players)
        out[steps[-1]] = tuple(deal_result(log, s, sides) for s in range(sides))
    return out


# ---- the table --------------------------------------------------------------------------------

#: Turn-up ranks told apart by the features (the others are "low"): each is in no hand.
_TURNUP_RANKS = {ACE: "A", KING: "K", JACK: "J", TEN: "T", FIVE: "5"}


def hand_features(hand: Sequence[int], turnup: int) -> dict[str, object]:
    """What the table knows of a caller's hand: the number of cards of the proposed suit (the
    turn-up's; 4 for four or more), which of its A K Q J T 5 are held, the turn-up's rank (A K J
    T 5 or low), and the aces and tens held in the other suits (0, 1, 2 for two or more)."""
    suit = suit_of(turnup)
    trumps = [rank_of(c) for c in hand if suit_of(c) == suit]
    side_cards = sum(1 for c in hand if suit_of(c) != suit and rank_of(c) in (ACE, TEN))
    return {"trumps": min(len(trumps), 4),
            "held": "".join(name for rank, name in _HELD if rank in trumps) or "-",
            "turnup": _TURNUP_RANKS.get(rank_of(turnup), "low"),
            "side": min(side_cards, 2)}


_HELD = ((ACE, "A"), (KING, "K"), (QUEEN, "Q"), (JACK, "J"), (TEN, "T"), (FIVE, "5"))


def cell_keys(features: dict[str, object]) -> list[str]:
    """The cells a hand falls in, coarsest first: the number of trumps; with the top trumps
    (A or K) and the prize trumps (T or 5) held; with the A K T 5 each; with every high trump
    and the turn-up's rank; with the aces and tens of the other suits."""
    held = str(features["held"])
    count = f"n{features['trumps']}"
    top = ("A" if "A" in held or "K" in held else "") + ("T" if "T" in held or "5" in held
                                                         else "")
    scoring = "".join(r for r in "AKT5" if r in held)
    return [count,
            f"{count} top:{top or '-'}",
            f"{count} scoring:{scoring or '-'}",
            f"{count} held:{held} up:{features['turnup']}",
            f"{count} held:{held} up:{features['turnup']} side:{features['side']}"]


#: How many deals' worth of weight a coarser cell's mean carries in a finer cell's estimate.
PRIOR = 200


class CallTable:
    """Per (preset, players, phase) and cell: the deals counted, and the sum and the sum of
    squares of the difference between the branches (stand less beg for the elder hand, take
    one less run for the dealer), for the caller's side."""

    def __init__(self, cells: dict[str, list[float]], meta: dict[str, object]) -> None:
        self.cells = cells
        self.meta = meta

    @staticmethod
    def table_key(preset: str, players: int, phase: str) -> str:
        return f"{preset}/{players}/{phase}"

    def estimate(self, preset: str, players: int, phase: str,
                 features: dict[str, object]) -> tuple[float, int] | None:
        """The difference between the branches for a hand with ``features``: each cell's mean
        shrunk toward the coarser cell's estimate by ``PRIOR`` deals (the coarsest toward 0),
        down to the finest cell that holds any deal; and that cell's count.  None when the
        table holds no deal of this kind."""
        base = self.table_key(preset, players, phase)
        estimate, count, found = 0.0, 0, False
        for key in cell_keys(features):
            cell = self.cells.get(f"{base}|{key}")
            if cell is None:
                break
            n, total = cell[0], cell[1]
            estimate = (total + PRIOR * estimate) / (n + PRIOR)
            count, found = int(n), True
        return (estimate, count) if found else None


#: The options that change a deal's play and points (the rest: the target, the finish, skunk,
#: the revoke's penalty, only change the match around it).
DEAL_OPTIONS = ("follow", "capture", "high", "low", "jack", "game", "low_to",
                "game_counts_fives", "five_for_five", "turnup_jack", "max_runs")


def deal_preset(rules: Rules) -> str | None:
    """The preset whose deals ``rules`` plays (every option of ``DEAL_OPTIONS`` as the preset
    has it), or None."""
    for name, preset in PRESETS.items():
        if all(getattr(rules, o) == getattr(preset, o) for o in DEAL_OPTIONS):
            return name
    return None


@lru_cache(maxsize=1)
def load_table() -> CallTable:
    """The table shipped with the package (``solver/data/calls.json.gz``, made by
    ``python -m solver.calltable``)."""
    from importlib import resources     # (some 20 ms to load, only for the table)

    packed = resources.files("solver").joinpath("data/calls.json.gz").read_bytes()
    text = gzip.decompress(packed).decode("utf-8")
    data = json.loads(text)
    return CallTable(data["cells"], data["meta"])


def table_call(observation: Observation, table: CallTable | None = None) -> int:
    """The call the table makes for the seat to act: stand unless the elder hand's table says a
    beg is better, take one unless the dealer's says a run is.  Where the table holds nothing
    for the rules (a rule set it was not made for, options changed over a preset) the
    heuristic's rule decides; so does the score when the take-one point would bring the elder
    hand's side to the target (the dealer runs)."""
    if table is None:
        table = load_table()
    phase = observation.phase
    rule = rules_call(observation)
    if phase == "dealer":
        if RUN not in observation.legal_actions:
            return TAKE_ONE
        elder_side = side_of((observation.dealer + 1) % observation.players,
                             observation.players)
        if observation.score[elder_side] + 1 >= observation.rules.target:
            return RUN
    preset = deal_preset(observation.rules)
    if preset is None:
        return rule
    found = table.estimate(preset, observation.players, phase,
                           hand_features(observation.hand, observation.turnups[-1]))
    if found is None:
        return rule
    difference = found[0]
    if phase == "elder":
        return STAND if difference >= 0 else BEG
    return TAKE_ONE if difference >= 0 else RUN


# ---- the rollout --------------------------------------------------------------------------------


def _world_rows(observation: Observation, hands: Sequence[Sequence[Sequence[int]]],
                rng, budget=None) -> dict[int, list[float]]:
    """Per legal call, its value in each world (given as every seat's hand), each world's pack
    (``world_pack``, the rest shuffled by ``rng``) played out once per call;
    with a ``budget`` (``solver.advice.Budget``), no world is begun once it is spent and
    ``MIN_WORLDS`` are done."""
    rows: dict[int, list[float]] = {c: [] for c in observation.legal_actions}
    for done, world_hands in enumerate(hands):
        if budget is not None and done >= MIN_WORLDS and budget.spent():
            break
        pack = world_pack(world_hands, observation.dealer, observation.turnups[0], rng)
        for call, value in branch_results(observation, pack).items():
            rows[call].append(value)
    return rows


def rollout_call(observation: Observation, rng, worlds: int = ROLLOUT_WORLDS) -> int:
    """The call of best weighted mean over ``worlds`` worlds drawn by ``rng``
    (``solver.sampling``, weighted by the calls made), each played out once per call; equal
    means go to the heuristic's rule."""
    drawn = sampling.sample_worlds(observation, worlds, rng, bidding=True)
    rows = _world_rows(observation, [w.hands for w in drawn], rng)
    weights = [float(w.weight) for w in drawn]
    total = sum(weights)
    rule = rules_call(observation)

    def key(call: int) -> tuple:
        mean = sum(w * v for w, v in zip(weights, rows[call])) / total
        return (round(mean, 9), call == rule)

    return max(observation.legal_actions, key=key)


def advise_rollout(player, observation: Observation, hands: Sequence[Sequence[Sequence[int]]],
                   weights: Sequence[float], exact: bool = False, budget=None):
    """The PIMC player's Advice on a call over the worlds given as every seat's hand, each
    played out once per call (``branch_results``), the rest of the pack shuffled by the
    player's RNG: the means, their 95% intervals, the share of worlds best.  The player's
    ``time_limit`` (the ``budget``, where the decision's began before its worlds were drawn)
    stops the play-outs (after ``MIN_WORLDS`` worlds at least): the Advice
    then counts the worlds played and says ``complete`` False.  When the deal wins the match
    for the seat's side in some world the objective is ``win``, as for the cards: each call's
    chance that the deal wins the match, the deal's value (``deal_result``, a match lost in it
    counted as ``-WIN_VALUE``) breaking ties; else the deal's value, a match lost in it counted
    so (``near_target``)."""
    legal = list(observation.legal_actions)
    if budget is None:
        budget = Budget(player.time_limit, None, len(hands))
    rows = _world_rows(observation, hands, player.rng, budget)
    done = len(rows[legal[0]])
    exact = exact and done == len(hands)
    # a played-out call's value is a margin (``deal_result``; with three sides the seat's
    # points less the mean of the other two's)
    objective, points = "margin", None
    if any(v == WIN_VALUE for c in legal for v in rows[c]):
        objective, points = "win", rows
        rows = {c: [1.0 if v == WIN_VALUE else 0.0 for v in rows[c]] for c in legal}
    actions = valued(legal, rows, weights[:done], exact, rules_call(observation), points,
                      chance=objective == "win")
    return player._advice(observation, objective, weights[:done], exact, done == len(hands),
                          actions, budget, PLAYED_OUT)
