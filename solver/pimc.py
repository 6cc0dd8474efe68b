"""The Monte Carlo player ``pimc``: it values each action over worlds sampled from what its seat
knows, every world solved with all cards open by the engine, and takes the best on average.

Card play
---------
``solver.sampling`` deals the cards this seat has not seen to the other hands, consistently
with everything it has seen (its hand, the turn-ups, the play, the voids the follow rule
reveals), by default weighted by what the calls suggest.  Each world is solved once by the
engine for the deciding seat's side with every legal card valued (``Solver.solve(...,
moves=True)``), the same worlds for every card (common random numbers).  One ``Solver`` is kept
by the player across worlds and decisions: its table stays valid while the rules, trumps and
side stay the same.  The card played has the best weighted mean; equal means go to the card the
heuristic would play (when it is one of them), then to the first in ``legal_actions`` order.

The objective is ``margin`` (the side's points minus the other side's) with 2 or 4 players and
``points`` with 3 (the seat against the other two together), as for the cheater.  When either
side could reach the target in this deal (``solver.players.within_reach``) the match comes
first: every world is solved for ``win`` too, and the cards with the best chance of winning the
match are kept, then (with three players) those with the least chance that another seat wins
it in the deal instead, then the best by points among them (``Advice.objective`` is then
``"win"``).

Budget
------
A decision values up to ``worlds`` worlds within ``time_limit`` seconds (and ``node_limit``
engine nodes in all, when given; the node limit alone makes a decision repeatable on any
machine).  The worlds are drawn and weighed within ``advice.DRAW_SHARE`` of the time (with
the defaults a twentieth of it or less; with play inference the drawing ``DRAWN_SHARE`` of
that); where more are asked for than that allows, the worlds valued are taken from those drawn
and weighed by then (``PLAYED_OUT_WORLDS`` drawn at the least), and the decision is not
``Advice.complete``.  Each solve gets a share of what is left, so that at least
``min(worlds, 4)`` worlds are tried: on 6-card hands every world finishes well inside the
budget, on the 9 and 12-card hands after a run a solve may be cut short.  A world whose solve
was cut short before every legal card was valued is left out (``Advice.complete`` is False,
``Advice.worlds`` counts the worlds used).  When the first world does not fit its share no other is tried (the worlds of a
decision are alike in size).  With fewer than ``min(worlds, 4)`` worlds solved (none, or a
few easier than the rest) every card is then valued by playing each world's deal out with
the heuristic's card play instead (``solver.playout``; ``Advice.method`` is ``PLAYED_OUT``),
over ``PLAYED_OUT_WORLDS`` worlds at the least and as many more as the rest of the budget
allows.  On 12-card hands with four players this is the rule until the hands shrink.  With
``aside`` (off by default: measured within noise of off, the README's "The Monte Carlo
player"), where not one world is solved, the worlds are first solved again with Game set
aside, before any play-out (``Advice.method`` is ``GAME_ASIDE``): under the deal's rules
without Game, so that every value leaves Game's one point out.  With Game open each card that
is not the best needs a search of its own on the pips of every card, and those searches are
most of a deep solve (README, "Benchmarks"); without them the first ten 4 x 9 deals of the benchmark classes
take 8 to 390 times fewer nodes (median about 20).

Replies
-------
With ``replies="heuristic"`` each world is valued against the heuristic's replies instead
(``solver.replies``; ``Advice.method`` is ``REPLIED``): the other side's seats play the
heuristic's card from their own view, this side's seats the best card with the world open.
Against the heuristic that is the world's true value; against anyone else it is a bet on their
play.  With ``partner="heuristic"`` (four players) the partner plays the heuristic's card from
its own view in that search as well, and only this seat chooses: a partner who cannot see the
world is not credited with playing as if it could, and the search is far smaller (measured
within noise of the partner choosing, so off by default).  With ``fusion="shared"`` the worlds
are searched together (``solver.replies.shared_reply_values``): each later card of this seat is
one card for all the worlds it cannot tell apart, the partner's the heuristic's, so that no
world is valued as if this seat could see it; that search has half of the budget, and where it
does not finish the worlds are searched one by one.  Where the first world's search does not
fit its share, the worlds are solved by the engine as above.

The calls
---------
Stand or beg and take one or run are decided by the heuristic's rules 1 and 2
(``calls="heuristic"``, the default), by the table learned from self-play
(``calls="table"``, ``solver.calling.table_call``), or valued over worlds: each world's deal
played out by the heuristic once per call (``calls="rollout"``, ``solver.calling``) or
solved double-dummy (``calls="pimc"``, ``solver.bidding``).  ``advise`` values the calls
either way: by play-outs unless ``calls="pimc"``.

Advice
------
``advise(observation)`` is the analysis ``act`` acts on: every legal action with its mean value
for the deciding seat's side, a 95% interval and the share of worlds in which it is one of the
best (``solver.advice``: the interval is over the worlds, weighted; when every consistent world
was enumerated, ``Advice.exact``, the mean is exact and the interval is that point).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .advice import (GAME_ASIDE, MIN_WORLDS, PLAYED_OUT, REPLIED, SOLVED, ActionValue, Advice,
                     Budget, effective_worlds, summarize, unknown, valued)
from .bidding import advise_call
from .calling import ROLLOUT_WORLDS, table_call
from .deal import Position
from .errors import quoted, seeded, spelled, whole
from .game import Observation
from . import chain, clock, inference, playout, sampling
from .players import (HeuristicPlayer, PlayerError, check_replies, check_switch,
                      deal_objective, legal_to_act, sides_within_reach, within_reach)
from .solution import check_limits, check_table_bits

if TYPE_CHECKING:       # (the engine is loaded on first use)
    from .search import Solver

__all__ = ["ActionValue", "Advice", "PimcPlayer", "value_play", "value_play_postponed",
           "summarize", "game_aside", "value_replies", "value_shared_replies", "DEFAULT_WORLDS",
           "FOUR_PLAYER_WORLDS", "SOLVED", "GAME_ASIDE", "REPLIED", "PLAYED_OUT",
           "DEFAULT_TIME_LIMIT", "MAX_WORLDS"]

#: Worlds valued per decision by default with two or three players (the knee of the two-player
#: ladder against the heuristic, and a gain with three: see the README, "The Monte Carlo
#: player").
DEFAULT_WORLDS = 128
#: The same with four players, where a world's solve costs more and the budget holds fewer: the
#: knee of the four-player ladder.
FOUR_PLAYER_WORLDS = 64
#: The most worlds a decision may ask for: each is drawn before any is valued.
MAX_WORLDS = 100_000
#: Worlds valued per call (stand or beg, take one or run) by default, with ``calls="pimc"``.
DEFAULT_CALL_WORLDS = 16
#: The player's ways of calling (its option ``calls``).
PIMC_CALLS = ("heuristic", "table", "rollout", "pimc")
#: Seconds a decision may take by default.
DEFAULT_TIME_LIMIT = 0.5
#: Worlds played out at the least where too few are solved within the budget (all where there
#: are fewer), the budget spent or not: some 0.4 s at the most, on 12-card hands with four
#: players (measured against valuing the few solved: the README, "The Monte Carlo player").
PLAYED_OUT_WORLDS = 16
#: With play inference, worlds drawn uniformly for each world solved (``solver.inference``).
INFER_DRAWS = 2
#: With play inference, the share of the time the worlds may take (``advice.DRAW_SHARE``)
#: that drawing them may take, the rest left to weighing them (which costs about one and a
#: half times as much a world).
DRAWN_SHARE = 0.4
#: The same, the model trusted fully: most worlds drawn then weigh next to nothing (the knee
#: measured against the heuristic; 64 measured within noise of it since, the README's "The
#: Monte Carlo player").
FULL_TRUST_DRAWS = 16
#: How the partner plays in a search against the heuristic's replies (option ``partner``).
PIMC_PARTNER = ("best", "heuristic")
#: The player's remedies for strategy fusion (its option ``fusion``).
PIMC_FUSION = ("none", "postpone", "shared")
#: The player's ways of trusting its model of the opponents (its option ``trust``).
PIMC_TRUST = ("tempered", "full")


def value_play(solver, positions: Sequence[Position], weights: Sequence[float],
               legal: Sequence[int], side: int, objective: str, budget: Budget,
               kept_at: list[int] | None = None
               ) -> tuple[dict[int, list[float]], list[float], bool]:
    """Every legal card's value in each world the budget allows: ({card: values}, the weights
    of the worlds kept, complete).  A world is kept only when every legal card was valued;
    ``kept_at``, when given, is told the index of each world kept."""
    values: dict[int, list[float]] = {c: [] for c in legal}
    kept: list[float] = []
    complete = True
    for done, (position, weight) in enumerate(zip(positions, weights)):
        if done and budget.spent():
            complete = False
            break
        solution = budget.solve(solver, position, side, objective, done)
        if not solution.complete:
            complete = False
        if all(c in solution.moves for c in legal):
            for c in legal:
                values[c].append(float(solution.moves[c]))
            kept.append(weight)
            if kept_at is not None:
                kept_at.append(done)
        else:
            complete = False
            if not kept:
                break       # the first world does not fit its share: nor will the others
            budget.left_out += 1
    return values, kept, complete


def others_win(solver, positions: Sequence[Position], weights: Sequence[float],
               legal: Sequence[int], side: int, budget: Budget
               ) -> tuple[dict[int, list[float]] | None, bool]:
    """With three players, every legal card's chance in each world that another seat wins the
    match in the deal: the larger of the two others' ``win`` values, each solved with every
    other seat against it (none for a seat that cannot reach the target in any world).
    (None, False) when the budget does not fit them in every world."""
    chances: dict[int, list[float]] = {c: [0.0] * len(positions) for c in legal}
    every = True
    reach = {s for p in positions for s in sides_within_reach(p)}
    for other in sorted(reach - {side}):
        values, kept, complete = value_play(solver, positions, weights, legal, other, "win",
                                            budget)
        if len(kept) != len(positions):
            return None, False
        every = every and complete
        for c in legal:
            chances[c] = [max(a, b) for a, b in zip(chances[c], values[c])]
    return chances, every


def value_replies(positions: Sequence[Position], weights: Sequence[float], legal: Sequence[int],
                  side: int, objective: str, model, budget: Budget, partner: bool = False
                  ) -> tuple[dict[int, list[float]], list[float], bool]:
    """``value_play`` with each world valued against ``model``'s replies (the heuristic's;
    ``solver.replies``; with ``partner`` the partner's cards are ``model``'s too), each position
    searched counted as ``REPLY_NODES`` engine nodes of the budget.  Nothing is kept when the
    first world does not fit its share."""
    from .replies import REPLY_NODES, Spent, reply_values

    def used(positions: int) -> None:
        budget.used(positions * REPLY_NODES)

    values: dict[int, list[float]] = {c: [] for c in legal}
    kept: list[float] = []
    for done, (position, weight) in enumerate(zip(positions, weights)):
        if done and budget.spent():
            return values, kept, False
        node_limit, time_limit = budget.limits(done)
        deadline = None if time_limit is None else clock.now() + time_limit
        try:
            found = reply_values(position, side, objective, model, partner=partner,
                                 deadline=deadline, counted=used,
                                 limit=None if node_limit is None else node_limit // REPLY_NODES)
        except Spent:
            return values, kept, False
        for c in legal:
            values[c].append(float(found[c]))
        kept.append(weight)
    return values, kept, True


def value_shared_replies(positions: Sequence[Position], weights: Sequence[float],
                         legal: Sequence[int], objective: str, model, budget: Budget
                         ) -> tuple[dict[int, list[float]], list[float], bool]:
    """``value_replies`` with this seat's later cards chosen once for the worlds it cannot tell
    apart (``solver.replies.shared_reply_values``: the worlds searched together, the partner's
    cards ``model``'s too), within half of what is left of the budget (the other half for
    ``value_replies``); nothing is kept when it does not finish."""
    from .replies import REPLY_NODES, Spent, shared_reply_values

    node_limit, time_limit = budget.limits(0, parts=2)
    try:
        found = shared_reply_values(
            positions, weights, objective, model,
            deadline=None if time_limit is None else clock.now() + time_limit,
            limit=None if node_limit is None else node_limit // REPLY_NODES,
            counted=lambda searched: budget.used(searched * REPLY_NODES))
    except Spent:
        return {c: [] for c in legal}, [], False
    return {c: [float(v) for v in found[c]] for c in legal}, list(weights), True


def value_play_postponed(solver, positions: Sequence[Position], weights: Sequence[float],
                         legal: Sequence[int], seat: int, side: int, objective: str,
                         budget: Budget) -> tuple[dict[int, list[float]], list[float], bool]:
    """``value_play`` with the perfect-information evaluation postponed to this seat's next
    card (a remedy for strategy fusion): after each card of ours, the other seats play their
    double-dummy best in each world until it is our turn again; there our next card must be one
    card for all the worlds we cannot tell apart (the same cards seen since), the one of best
    weighted mean among them.  A world is kept only when every solve in it finished; at the
    first that does not, nothing is kept and the caller falls back to ``value_play``.  When the
    budget is spent before the last world, the worlds kept are valued and ``complete`` is
    False."""
    # per card: {seen since: [(world, value or {our next card: value})]}
    groups: dict[int, dict[tuple, list]] = {c: {} for c in legal}
    kept: list[float] = []
    complete = True
    for world, (position, weight) in enumerate(zip(positions, weights)):
        if world and budget.spent():
            complete = False
            break
        root = budget.solve(solver, position, side, objective, world)
        if not root.complete or any(c not in root.moves for c in legal):
            return {}, [], False
        outcome = {}
        for card in legal:
            after = position.after(card)
            seen: list[int] = []
            value: Any = float(root.moves[card])
            while not after.is_over:
                solution = budget.solve(solver, after, side, objective, world)
                moves = solution.moves
                options = after.legal_moves()
                if not solution.complete or any(c not in moves for c in options):
                    return {}, [], False
                if after.to_move == seat:
                    value = {c: float(moves[c]) for c in options}
                    break
                partner = after.deal.side_of(after.to_move) == side
                pick = (max if partner else min)(options, key=lambda c: moves[c])
                seen.append(pick)
                after = after.after(pick)
                if after.is_over:
                    value = float(moves[pick])
                    break
            outcome[card] = (tuple(seen), value)
        for card, (since, value) in outcome.items():
            groups[card].setdefault(since, []).append((len(kept), value))
        kept.append(weight)
    values: dict[int, list[float]] = {c: [0.0] * len(kept) for c in legal}
    for card in legal:
        for members in groups[card].values():
            if isinstance(members[0][1], float):
                for world, value in members:
                    values[card][world] = value
                continue
            options = list(members[0][1])
            best = max(options, key=lambda c: (sum(kept[w] * v[c] for w, v in members),
                                               -options.index(c)))
            for world, value in members:
                values[card][world] = value[best]
    return values, kept, complete


def game_aside(position: Position) -> Position:
    """``position`` under its rules without Game: every value then leaves Game's point out."""
    deal = position.deal
    return Position(replace(deal, rules=replace(deal.rules, game=False)), position.play)


class PimcPlayer:
    """Perfect-information Monte Carlo: see the module notes.

    Options (also as ``pimc:worlds=16,calls=heuristic`` on the command line):

    ``worlds``      worlds valued per decision (``DEFAULT_WORLDS``, ``FOUR_PLAYER_WORLDS`` with
                    four players: ``worlds_for``);
    ``time_limit``  seconds per decision (``DEFAULT_TIME_LIMIT``; ``None`` for none);
    ``node_limit``  engine nodes per decision (none by default; with ``time_limit=None`` the
                    play is exactly repeatable everywhere);
    ``calls``       ``"heuristic"`` (rules 1 and 2, the default: see the README for why),
                    ``"table"`` (the table learned from self-play, ``solver.calling``),
                    ``"rollout"`` (each call played out over worlds, ``solver.calling``) or
                    ``"pimc"`` (each call's deal solved double-dummy, ``solver.bidding``);
    ``bidding``     weight the worlds by what the calls suggest (``solver.sampling``);
    ``win``         near the target, keep the cards most likely to win the match first;
    ``call_worlds`` worlds valued per call: with ``calls="pimc"`` ``DEFAULT_CALL_WORLDS`` (or
                    ``worlds`` if fewer), else ``ROLLOUT_WORLDS`` played out;
    ``exact_limit`` enumerate every consistent world when there are at most this many, and no
                    more than ``worlds``;
    ``infer``       weight the worlds by the opponents' cards played, under the heuristic as
                    their model (``solver.inference``): ``INFER_DRAWS`` times as many worlds
                    drawn, ``worlds`` of them resampled by weight;
    ``trust``       how far that model is trusted: ``"tempered"`` (the default: no world
                    weighs over 8 times another) or ``"full"`` (the heuristic taken at its
                    word, ``FULL_TRUST_DRAWS`` times as many worlds drawn), which pays against
                    the heuristic itself;
    ``infer_partner`` with ``infer`` and four players, weight the worlds by the partner's
                    cards played too, the heuristic as its model with a slip of its own
                    (``solver.inference.PARTNER_SLIP``);
    ``draws``       with ``infer``, worlds drawn for each world solved (``INFER_DRAWS``, or
                    ``FULL_TRUST_DRAWS`` with ``trust="full"``);
    ``chain``       with ``infer``, the worlds solved are walked by a Markov chain from the
                    likeliest world drawn (``solver.chain``), ``chain`` steps for each, rather
                    than resampled from the worlds drawn (0, the default: no chain);
    ``full_calls``  with ``trust="full"``, the calls taken at the heuristic's word too: the
                    worlds weighed by them as sharply as by the cards played (no world over
                    100,000 times another), and drawn, weighed and resampled from the first
                    card (off by default: measured within noise of off);
    ``aside``       where not one world solves within the budget, solve them with Game set
                    aside before playing the deals out (``GAME_ASIDE``);
    ``replies``     ``"heuristic"``: value each world against the heuristic's replies
                    (``value_replies``, ``solver.replies``), the engine's double-dummy solves
                    only where the first world does not fit its share; ``"double-dummy"``
                    (the default): the engine's solves;
    ``partner``     with ``replies="heuristic"`` and four players, how the partner plays in
                    that search: ``"best"`` (the default: the side's best card, the world
                    open) or ``"heuristic"`` (the heuristic's card from its own view, as the
                    opponents do, so that only this seat chooses);
    ``fusion``      ``"postpone"``: value each card with our next card chosen once for the
                    worlds we cannot tell apart (``value_play_postponed``); ``"shared"``, with
                    ``replies="heuristic"``: every later card of ours chosen so, the worlds
                    searched together (``value_shared_replies``), the partner's cards the
                    heuristic's (``partner`` is ``"heuristic"``); ``"none"``: plain;
    ``table_bits``  the engine's table: 2**table_bits entries of 32 bytes.

    An option given where it would change nothing (``partner`` without ``replies="heuristic"``,
    ``trust``, ``draws``, ``chain`` or ``infer_partner`` without ``infer``, ``full_calls``
    without ``trust="full"`` and ``bidding``) is a ``PlayerError``, and so are the partner's
    options at a table of two or three (``check_table``).
    """

    omniscient = False

    def __init__(self, seed: int | str | None = None, name: str = "pimc",
                 worlds: int | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
                 node_limit: int | None = None, calls: str = "heuristic",
                 bidding: bool | int = True,
                 win: bool | int = True, exact_limit: int = 10_000, call_worlds: int | None = None,
                 fusion: str = "none", infer: bool | int = True, trust: str | None = None,
                 draws: int | None = None, full_calls: bool | int | None = None,
                 aside: bool | int = False, replies: str = "double-dummy",
                 partner: str | None = None, infer_partner: bool | int | None = None,
                 chain: int | None = None, table_bits: int = 20) -> None:
        check_limits(node_limit, time_limit)
        if worlds is not None and (whole(worlds) is None or not 1 <= worlds <= MAX_WORLDS):
            raise PlayerError(f"worlds: {spelled(worlds)} is not a whole number from 1 to "
                              f"{MAX_WORLDS}")
        if calls not in PIMC_CALLS:
            raise PlayerError(f"calls: {quoted(calls)} is not one of "
                              f"{', '.join(repr(c) for c in PIMC_CALLS)}")
        if fusion not in PIMC_FUSION:
            raise PlayerError(f"fusion: {quoted(fusion)} is not "
                              f"{', '.join(repr(f) for f in PIMC_FUSION[:-1])} or "
                              f"{PIMC_FUSION[-1]!r}")
        if trust is not None and trust not in PIMC_TRUST:
            raise PlayerError(f"trust: {quoted(trust)} is not 'tempered' or 'full'")
        check_replies(replies)
        if fusion == "shared" and replies != "heuristic":
            raise PlayerError("fusion: 'shared' only with replies=heuristic (the worlds are "
                              "searched together against the heuristic's replies)")
        if fusion == "shared" and partner == "best":
            raise PlayerError("partner: 'best' not with fusion=shared (the worlds searched "
                              "together take the partner's cards as the heuristic's)")
        if partner is not None and partner not in PIMC_PARTNER:
            raise PlayerError(f"partner: {quoted(partner)} is not 'best' or 'heuristic'")
        if call_worlds is not None and (whole(call_worlds) is None
                                        or not 1 <= call_worlds <= MAX_WORLDS):
            raise PlayerError(f"call_worlds: {spelled(call_worlds)} is not a whole number from 1 "
                              f"to {MAX_WORLDS}")
        most = worlds or max(DEFAULT_WORLDS, FOUR_PLAYER_WORLDS)
        if draws is not None and (whole(draws) is None or not 1 <= draws <= MAX_WORLDS // most):
            raise PlayerError(f"draws: {spelled(draws)} is not a whole number from 1 to "
                              f"{MAX_WORLDS // most} (at most {MAX_WORLDS} worlds drawn "
                              f"in all)")
        if chain is not None and (whole(chain) is None or not 0 <= chain <= 64):
            raise PlayerError(f"chain: {spelled(chain)} is not a whole number from 0 to 64")
        if whole(exact_limit) is None or exact_limit < 0:
            raise PlayerError(f"exact_limit: {spelled(exact_limit)} is not a whole number from 0")
        # (full_calls and infer_partner are None when not given; the others have no none)
        for switch, on in (("bidding", bidding), ("win", win), ("infer", infer),
                           ("full_calls", full_calls), ("aside", aside),
                           ("infer_partner", infer_partner)):
            if on is not None or switch not in ("full_calls", "infer_partner"):
                check_switch(switch, on)
        check_table_bits(table_bits, PlayerError)
        # (numpy's whole numbers as Python's, for the records and labels made of them)
        worlds, call_worlds, draws, chain, exact_limit, table_bits = (  # type: ignore[assignment]
            None if v is None else int(v)
            for v in (worlds, call_worlds, draws, chain, exact_limit, table_bits))
        # an option named (whatever its value) where it changes nothing is an error
        for option, given, needs, met in (
                ("partner", partner, "replies=heuristic", replies == "heuristic"),
                ("trust", trust, "infer", bool(infer)),
                ("draws", draws, "infer", bool(infer)),
                ("infer_partner", infer_partner, "infer", bool(infer)),
                ("chain", chain, "infer", bool(infer)),
                ("full_calls", full_calls, "trust=full and bidding",
                 trust == "full" and bool(bidding))):
            if given is not None and not met:
                raise PlayerError(f"{option}: only with {needs} (without it, it changes nothing)")
        #: The partner's options named, which change nothing without partners (``check_table``).
        self.partner_options = tuple(option for option, given in (
            ("partner", partner), ("infer_partner", infer_partner)) if given is not None)
        self.name = name
        self.rng = seeded(seed)
        #: Worlds per decision as asked for: None for the table's default (``worlds_for``).
        self.worlds = worlds
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.calls = calls
        self.bidding = bool(bidding)
        self.win = bool(win)
        self.exact_limit = exact_limit
        self.call_worlds = call_worlds or min(worlds or DEFAULT_CALL_WORLDS, DEFAULT_CALL_WORLDS)
        #: Worlds played out per call when the calls are valued by play-outs.
        self.rollout_worlds = call_worlds or ROLLOUT_WORLDS
        self.fusion = fusion
        self.infer = bool(infer)
        self.trust = trust or "tempered"
        #: With ``infer``, worlds drawn for each world solved.
        self.draws = draws or (FULL_TRUST_DRAWS if self.trust == "full" else INFER_DRAWS)
        #: With ``trust="full"``: the calls weigh the worlds as sharply as the cards.
        self.full_calls = bool(full_calls)
        self.aside = bool(aside)
        self.replies = replies
        self.partner = partner or ("heuristic" if fusion == "shared" else "best")
        self.infer_partner = bool(infer_partner)
        #: With ``infer``, steps of the chain a world kept (``solver.chain``); 0: no chain.
        self.chain = chain or 0
        self.table_bits = table_bits
        self._solver: Solver | None = None
        self._aside_solver: Solver | None = None
        self._heuristic = HeuristicPlayer()
        #: Decisions whose budget cut a solve short or left a world out.
        self.stopped = 0

    def check_table(self, players: int) -> None:
        """A ``PlayerError`` for an option that changes nothing at a table of ``players``: the
        partner's options with two or three players, who have no partner."""
        for option in self.partner_options:
            if players != 4:
                raise PlayerError(f"{option}: only with four players (a table of {players} "
                                  "has no partners)")

    def worlds_for(self, players: int) -> int:
        """Worlds valued per decision at a table of ``players``: ``worlds`` when asked for,
        else ``DEFAULT_WORLDS``, or ``FOUR_PLAYER_WORLDS`` with four players."""
        if self.worlds is not None:
            return self.worlds
        return FOUR_PLAYER_WORLDS if players == 4 else DEFAULT_WORLDS

    @property
    def solver(self) -> Solver:
        if self._solver is None:
            from .search import Solver

            self._solver = Solver(self.table_bits)
        return self._solver

    @property
    def aside_solver(self) -> Solver:
        """The Solver for the worlds with Game set aside: a table of its own, so that neither
        problem starts the other's table afresh."""
        if self._aside_solver is None:
            from .search import Solver

            self._aside_solver = Solver(self.table_bits)
        return self._aside_solver

    def act(self, observation: Observation) -> int:
        legal = legal_to_act(observation)
        self.check_table(observation.players)
        if len(legal) == 1:
            return legal[0]
        if observation.phase != "play":
            if self.calls == "heuristic":
                return self._heuristic.act(observation)
            if self.calls == "table":
                return table_call(observation)
        return self.advise(observation).best

    def advise(self, observation: Observation) -> Advice:
        """Every legal action valued over sampled worlds, best first (see the module notes)."""
        legal = legal_to_act(observation)
        self.check_table(observation.players)
        if observation.phase in ("elder", "dealer"):
            return advise_call(self, observation)
        count = self.worlds_for(observation.players)
        budget = Budget(self.time_limit, self.node_limit, count)
        if observation.revokes:
            # a deal holding a revoke has no Position to solve: the heuristic's card
            return self._advice(observation, deal_objective(observation.players), (), False,
                                False, unknown(list(legal), self._heuristic.act(observation)),
                                budget)
        full = self.trust == "full"
        sharp_calls = self.full_calls
        # drawn and weighed within a share of the budget, PLAYED_OUT_WORLDS at the least
        clock = sampling.Clock(budget.draw_deadline, PLAYED_OUT_WORLDS)
        if not self.infer or not (observation.play or sharp_calls):
            worlds = sampling.sample_worlds(observation, count, self.rng,
                                            exact_limit=self.exact_limit, bidding=self.bidding,
                                            deadline=clock.deadline, least=clock.least)
            chosen = list(worlds)
            weights = [float(w.weight) for w in worlds]
            short = not worlds.exact and len(worlds) < count
        else:
            trust = inference.FULL if full else inference.TEMPERED
            if self.infer_partner:
                trust = replace(trust, partner_slip=inference.PARTNER_SLIP)
            temper = trust.temper if sharp_calls else sampling.TEMPER
            asked = min(count * self.draws, MAX_WORLDS)
            # (the drawing leaves the weighing most of that time: cut at the same time, it
            # left 16 weighed of 60,000 drawn)
            drawing = None if clock.deadline is None else \
                budget.start + DRAWN_SHARE * (clock.deadline - budget.start)
            worlds = sampling.sample_worlds(observation, asked, self.rng,
                                            exact_limit=self.exact_limit, bidding=self.bidding,
                                            temper=temper, deadline=drawing, least=clock.least)
            weigher = inference.PlayWeigher(observation, trust)
            likely: list[float] = []
            for world in worlds:
                if not worlds.exact and clock.late(len(likely)):
                    break
                likely.append(float(world.weight) * weigher.weight(world.hands))
            short = not worlds.exact and len(likely) < asked
            if worlds.exact:
                chosen, weights = list(worlds), likely
            elif self.chain:
                chosen = self._chained(observation, worlds[:len(likely)], likely, weigher,
                                       temper, count, clock)
                weights = [1.0] * len(chosen)
                short = short or len(chosen) < count
            else:
                drawn = inference.resample(likely, count, self.rng)
                chosen = [worlds[i] for i, _ in drawn]
                weights = [float(times) for _, times in drawn]
        budget.drawn_short = short
        positions = sampling.world_positions(observation, chosen)
        return self.advise_positions(observation, positions, weights, bool(worlds.exact),
                                     budget)

    def _chained(self, observation: Observation, worlds, likely: list[float], weigher,
                 temper: float, count: int, clock: sampling.Clock) -> list:
        """``count`` worlds walked by ``solver.chain`` from the likeliest of ``worlds``, in
        proportion to the calls' and the play's weights (fewer where the ``clock`` says the
        time is up)."""
        calls = sampling.call_weigher(observation, temper) if self.bidding else None

        def weight(hands) -> float:
            return (calls(hands) if calls else 1.0) * weigher.weight(hands)

        start = worlds[max(range(len(worlds)), key=likely.__getitem__)]
        hands = chain.chain_worlds(sampling.constraints(observation), start.hands, count,
                                   weight, self.rng, self.chain, clock=clock)
        return [sampling.World(h) for h in hands]

    def advise_positions(self, observation: Observation, positions: Sequence[Position],
                         weights: Sequence[float], exact: bool = False,
                         budget: Budget | None = None) -> Advice:
        """``advise`` in card play over the worlds given as positions (each the deal as this
        seat might face it, with the play so far) and their weights."""
        # the match comes first where some side could reach the target in some world: the
        # points still to be had are in the hands, and each world deals them otherwise
        use_win = self.win and any(within_reach(p) for p in positions)
        advice = self._advise_positions(observation, positions, weights, exact, budget, use_win)
        if len(advice.actions) > 1:     # (a lone legal card is valued in no deal: none drawn)
            advice = replace(advice, drawn=len(positions), enumerated=exact)
        if advice.objective != "win" and len(advice.actions) > 1 and use_win:
            return replace(advice, win_dropped=True)
        return advice

    def _advise_positions(self, observation: Observation, positions: Sequence[Position],
                          weights: Sequence[float], exact: bool, budget: Budget | None,
                          use_win: bool) -> Advice:
        legal = list(observation.legal_actions)
        if budget is None:
            budget = Budget(self.time_limit, self.node_limit, len(positions))
        n = observation.players
        side = observation.seat % 2 if n == 4 else observation.seat
        objective = deal_objective(observation.players)
        preferred = self._heuristic.act(observation)
        first = positions[0]

        def every(valued_in: int) -> bool:
            """Whether the advice over the worlds valued is exact: every consistent world was
            listed, and every one valued (a budget that ran out values the first only)."""
            return exact and valued_in == len(positions)
        # fewer worlds valued than this (the easier ones): the deals are played out instead
        enough = min(len(positions), MIN_WORLDS)
        if len(legal) == 1:
            action = ActionValue(legal[0], math.nan, math.nan, math.nan, 1.0)
            return Advice(observation.seat, "play", objective, 0, False, True, (action,))
        solver = self.solver
        if use_win:
            kept_at: list[int] = []
            wins, kept, complete = value_play(solver, positions, weights, legal, side, "win",
                                              budget, kept_at)
            done = len(kept)
            if 0 < done < enough:
                return self._played_out(observation, positions, weights, legal, side, "win",
                                        objective, exact, preferred, budget, done)
            if done:
                # the same worlds, by points, to break ties: left out if they do not all fit
                # (a world left out there is not one of the advice's)
                left_out = budget.left_out
                points, kept_p, complete_p = value_play(
                    solver, [positions[i] for i in kept_at], kept, legal, side, objective,
                    budget)
                all_kept = len(kept_p) == done
                others, complete_o = None, True
                if all_kept and n == 3:
                    others, complete_o = others_win(solver, [positions[i] for i in kept_at],
                                                    kept, legal, side, budget)
                budget.left_out = left_out
                actions = valued(legal, wins, kept, every(done), preferred,
                                 points if all_kept else None, chance=True, others_win=others)
                return self._advice(observation, "win", kept, every(done),
                                    complete and all_kept and complete_p and complete_o, actions,
                                    budget)
        values: dict[int, list[float]]
        values, kept, complete = {}, [], False
        cut = False         # the worlds searched together did not finish: cut short, whatever
        if self.replies == "heuristic":
            if self.fusion == "shared":
                values, kept, complete = value_shared_replies(positions, weights, legal,
                                                              objective, self._heuristic, budget)
                cut = not kept
            if not kept:
                values, kept, complete = value_replies(positions, weights, legal, side,
                                                       objective, self._heuristic, budget,
                                                       self.partner == "heuristic")
            if len(kept) >= enough:
                return self._advice(observation, objective, kept, every(len(kept)),
                                    complete and not cut,
                                    valued(legal, values, kept, every(len(kept)), preferred),
                                    budget, REPLIED)
            values, kept = {}, []       # too few: solved as below, or played out
        if self.fusion == "postpone":
            values, kept, complete = value_play_postponed(solver, positions, weights, legal,
                                                          observation.seat, side, objective,
                                                          budget)
        if not kept:
            values, kept, complete = value_play(solver, positions, weights, legal, side,
                                                objective, budget)
        method = SOLVED
        if not kept and self.aside and first.deal.rules.game:
            method = GAME_ASIDE
            values, kept, complete = value_play(self.aside_solver,
                                                [game_aside(p) for p in positions], weights,
                                                legal, side, objective, budget)
            complete = False
        if len(kept) < enough:
            return self._played_out(observation, positions, weights, legal, side,
                                    "win" if use_win else objective, objective, exact,
                                    preferred, budget, len(kept))
        whole = every(len(kept)) and method == SOLVED     # (Game set aside: not the values)
        return self._advice(observation, objective, kept, whole, complete and not cut,
                            valued(legal, values, kept, whole, preferred), budget, method)

    def _played_out(self, observation: Observation, positions: Sequence[Position],
                    weights: Sequence[float], legal: list[int], side: int, objective: str,
                    points: str, exact: bool, preferred: int, budget: Budget, solved: int
                    ) -> Advice:
        """Fewer worlds solved within the budget than it is shared out for (``MIN_WORLDS``, or
        every world where there are fewer): every card valued over the worlds by playing the
        deal out (``solver.playout``), over ``PLAYED_OUT_WORLDS`` of them at the least (all where
        there are fewer), the budget spent or not, and as many more as it leaves time for;
        ``solved``: the worlds that were solved (``Advice.solved``)."""
        objectives = (objective, points) if objective != points else (objective,)
        others = objective == "win" and observation.players == 3
        values, kept = playout.played_out_values(positions, weights, legal, side, objectives,
                                                 budget.spent, others_win=others,
                                                 least=PLAYED_OUT_WORLDS)
        exact = exact and len(kept) == len(positions)
        actions = valued(legal, values[objective], kept, exact, preferred,
                         values[points] if objective != points else None,
                         chance=objective == "win", others_win=values.get("others_win"))
        return replace(self._advice(observation, objective, kept, exact, False, actions,
                                    budget, PLAYED_OUT), solved=solved)

    def _advice(self, observation: Observation, objective: str, weights: Sequence[float],
                exact: bool, complete: bool, actions: tuple[ActionValue, ...], budget: Budget,
                method: str = SOLVED) -> Advice:
        """The Advice on the actions valued over worlds of these ``weights`` (an interval of
        ``points``, which are never below 0, kept to 0 and above)."""
        complete = complete and not budget.drawn_short
        if objective == "points":
            actions = tuple(replace(a, low=0.0) if a.low < 0 else a for a in actions)
        if not complete:
            self.stopped += 1
        return Advice(observation.seat, observation.phase, objective, len(weights), exact,
                      complete, actions, budget.nodes, budget.seconds, method,
                      left_out=budget.left_out if method != PLAYED_OUT else 0,
                      effective=effective_worlds(weights))

    def __repr__(self) -> str:
        worlds = self.worlds or f"{DEFAULT_WORLDS}/{FOUR_PLAYER_WORLDS}"
        return (f"PimcPlayer(name={self.name!r}, worlds={worlds}, "
                f"time_limit={self.time_limit}, node_limit={self.node_limit}, "
                f"calls={self.calls!r})")
