"""What a decision over worlds found: every action's value (``ActionValue``), the whole of it
(``Advice``), the weighted means and intervals they are summed up in (``summarize``), and the
budget of time and engine nodes the worlds of one decision share (``Budget``).  The Monte Carlo
player (``solver.pimc``) and its ways of valuing the calls (``solver.bidding``,
``solver.calling``) build their advice from these.  The interval is the weighted mean plus or
minus Student's t quantile of n - 1 degrees of freedom times its standard error, both taken
over worlds with Kish's effective number of worlds n = ``(sum w)**2 / sum w**2`` (from 16
worlds 2.13 standard errors, not the normal 1.96, which covered some 93%); when every
consistent world was enumerated and valued the mean is exact and the interval is that point.
How often the intervals cover, measured by ``benchmarks/interval_coverage.py``: 94 to 96% at
the player's default worlds (the README, "The Monte Carlo player")."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import clock
from .stats import t_quantile, wilson_bounds

__all__ = ["ActionValue", "Advice", "Budget", "summarize", "effective_worlds", "too_few", "ranked",
           "tied", "valued", "unknown", "SOLVED", "GAME_ASIDE", "REPLIED", "PLAYED_OUT",
           "MIN_WORLDS", "EPSILON"]

#: Fewest worlds a decision's budget is shared out for.
MIN_WORLDS = 4
#: The share of a decision's time that drawing and weighing its worlds may take before they
#: are valued (with the defaults they take a twentieth of it or less).
DRAW_SHARE = 0.5
#: A world's value this close to its best counts as a best choice there (``Advice``'s share
#: of worlds a choice is best in); cards are ranked by their means rounded to 9 places.
EPSILON = 1e-9
#: ``Advice.method``: how the worlds were valued (see ``Advice.method``).
SOLVED = "solved"
GAME_ASIDE = "solved, Game aside"
REPLIED = "against the heuristic"
PLAYED_OUT = "played out"


@dataclass(frozen=True)
class ActionValue:
    """One action's value over the worlds, for the deciding seat's side."""

    #: A game action: a card in play; STAND, BEG, TAKE_ONE or RUN in the calls.
    action: int
    #: The weighted mean value, in ``Advice.objective`` units (points of margin, points, or for
    #: ``win`` the chance of winning the match, 0 to 1).
    mean: float
    #: The 95% interval of the mean over worlds (see the module notes).
    low: float
    high: float
    #: The weighted share of worlds in which this action is one of the best.
    best: float
    #: With objective ``win``: the mean by points (``margin`` or ``points``) that breaks ties.
    points: float | None = None
    #: With objective ``win`` and three players: the chance that another seat wins the match in
    #: the deal instead (in each world the larger of the two others' chances, each solved with
    #: every other seat against it), which ranks equal chances before the points do.
    others_win: float | None = None


@dataclass(frozen=True)
class Advice:
    """What ``PimcPlayer.advise`` found for one decision."""

    seat: int
    #: ``Observation.phase``: ``"elder"``, ``"dealer"`` or ``"play"``.
    phase: str
    #: ``"margin"``, ``"points"`` or ``"win"``.
    objective: str
    #: Worlds valued.
    worlds: int
    #: Every consistent world was enumerated, and every one valued: the means are exact.
    exact: bool
    #: No solve was cut short by a node or time limit, no world was left out for it, and every
    #: world asked for was drawn (``Budget.drawn_short``).
    complete: bool
    #: Best first.
    actions: tuple[ActionValue, ...]
    #: Engine nodes searched and seconds taken for the decision (the seconds left out of
    #: comparisons).
    nodes: int = 0
    seconds: float = field(default=0.0, compare=False)
    #: How the worlds were valued: ``SOLVED`` by the engine; ``REPLIED`` against the heuristic's
    #: replies (option ``replies``); ``GAME_ASIDE`` by the engine with Game left out (option
    #: ``aside``), when not one world could be solved with it in the budget; or ``PLAYED_OUT``
    #: by the heuristic's play (``solver.playout``) when fewer than ``MIN_WORLDS`` could be
    #: solved at all (fewer than all, where there are fewer).
    method: str = "solved"
    #: Near the target, but not one world's chance of winning the match could be found within
    #: the budget (while its points could): the values are by points instead.
    win_dropped: bool = False
    #: Worlds tried and left out, their solves cut short by the budget before every legal
    #: card was valued: the values are over the others, which may lean to the easier worlds.
    left_out: int = 0
    #: In card play, the worlds drawn to be valued (``worlds`` of them were, ``left_out`` left
    #: out, and the budget ran out before the rest); 0 where not counted (the calls).
    drawn: int = 0
    #: With ``PLAYED_OUT``, the worlds that were solved within the budget (too few to stand).
    solved: int = 0
    #: In card play, the worlds drawn were every consistent world, listed in order (``exact``
    #: where every one was valued; else the budget valued the first ``worlds`` of them only).
    enumerated: bool = False
    #: The worlds valued as their weights count them (``effective_worlds``): ``worlds`` where
    #: they weigh alike (and where not given).  From fewer than two, the intervals are not known
    #: unless the advice is exact or a chance of winning (Wilson's).
    effective: float | None = None

    def __post_init__(self) -> None:
        if self.effective is None:
            object.__setattr__(self, "effective", float(self.worlds))

    @property
    def best(self) -> int:
        """The action ranked first (in card play the one the player chooses; a call is chosen
        by the player's ``calls`` option)."""
        return self.actions[0].action


def effective_worlds(weights: Sequence[float]) -> float:
    """How many worlds the weights count as (Kish's effective number: the squared sum of the
    weights over the sum of their squares), as many as there are where they weigh alike; 0 for
    none."""
    squares = sum(w * w for w in weights)
    return float(sum(weights)) ** 2 / squares if squares else 0.0


def too_few(effective: float) -> bool:
    """Whether worlds of this effective number (``effective_worlds``) are too few for an
    interval: fewer than two, less than one degree of freedom."""
    return effective < 2 - EPSILON


def summarize(values: Sequence[Sequence[float]], weights: Sequence[float], exact: bool,
              chance: bool = False) -> list[tuple[float, float, float, float]]:
    """For each action (a row of per-world values, the same worlds for every row): its weighted
    mean, the low and high ends of its 95% interval, and its share of best worlds.  Exact, the
    interval is the mean; else from fewer than two worlds' worth of weight (Kish's effective
    number) it is not known (NaN); a ``chance`` (values 0 or
    1) has the Wilson score interval, kept to 0 .. 1, the weights counted as their effective
    number of worlds.  Where every world gave an action the same value, its interval is not that
    point: it reaches as far as any action's values spread, times the largest share of worlds
    that n worlds alike leave unseen at 95% (1 - 0.05 ** (1 / n), the rule of three); where
    every world gave every action one value, it is not known."""
    total = float(sum(weights))
    if not values or total <= 0:
        return [(math.nan, math.nan, math.nan, 0.0) for _ in values]
    n_eff = effective_worlds(weights)
    worlds = len(weights)
    tops = [max(row[i] for row in values) for i in range(worlds)]
    # the widest an action's value was seen to spread, and the largest share of worlds that
    # n worlds alike leave unseen at 95% (the rule of three: some 3 / n)
    spread = max(max(row) for row in values) - min(min(row) for row in values)
    unseen = 1 - 0.05 ** (1 / n_eff)
    out = []
    quantile = None
    for row in values:
        mean = sum(w * v for w, v in zip(weights, row)) / total
        best = sum(w for w, v, top in zip(weights, row, tops) if v >= top - EPSILON) / total
        if exact:
            low = high = mean
        elif chance:
            low, high = wilson_bounds(mean, n_eff)
        elif too_few(n_eff):
            low = high = math.nan
        else:
            variance = sum(w * (v - mean) ** 2 for w, v in zip(weights, row)) / total
            variance *= n_eff / (n_eff - 1)
            if quantile is None:    # (the same for every row: worked out once)
                quantile = t_quantile(0.975, n_eff - 1)
            half = quantile * math.sqrt(variance / n_eff)
            if max(row) == min(row):
                # every world alike: not a point (the worlds not drawn may differ), but as far
                # as the values spread, in as many worlds as n alike leave unseen (where no
                # value spread at all, not known)
                half = unseen * spread if spread else math.nan
            low, high = mean - half, mean + half
        out.append((mean, low, high, best))
    return out


class Budget:
    """A decision's time and nodes, shared out over its solves."""

    def __init__(self, time_limit: float | None, node_limit: int | None, worlds: int) -> None:
        self.start = clock.now()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.nodes_left = node_limit
        self.nodes = 0
        #: Worlds tried and left out (``Advice.left_out``).
        self.left_out = 0
        self.share = max(1, min(worlds, MIN_WORLDS))
        #: The time up to which the worlds may be drawn and weighed (``DRAW_SHARE``), or None.
        self.draw_deadline = (None if time_limit is None
                              else self.start + DRAW_SHARE * time_limit)
        #: Fewer worlds were drawn than asked for, the time to draw them up.
        self.drawn_short = False

    def spent(self) -> bool:
        if self.deadline is not None and clock.now() >= self.deadline:
            return True
        return self.nodes_left is not None and self.nodes_left <= 0

    def limits(self, done: int, parts: int | None = None) -> tuple[int | None, float | None]:
        """Node and time limits for the next solve, ``done`` solves made (or, given ``parts``,
        that share of what is left)."""
        parts = parts or max(1, self.share - done)
        nodes = None if self.nodes_left is None else max(1, self.nodes_left // parts)
        seconds = None
        if self.deadline is not None:
            seconds = max((self.deadline - clock.now()) / parts, 1e-4)
        return nodes, seconds

    def solve(self, solver, position, side: int, objective: str, done: int,
              most_nodes: int | None = None, **options: Any):
        """``solver.solve(position, side, objective)`` with the limits of the next solve
        (``done`` made; its nodes at most ``most_nodes``), its nodes counted as used."""
        node_limit, time_limit = self.limits(done)
        if most_nodes is not None:
            node_limit = most_nodes if node_limit is None else min(node_limit, most_nodes)
        solution = solver.solve(position, side, objective, line=False, node_limit=node_limit,
                                time_limit=time_limit, **options)
        self.used(solution.nodes)
        return solution

    def used(self, nodes: int) -> None:
        self.nodes += nodes
        if self.nodes_left is not None:
            self.nodes_left -= nodes

    @property
    def seconds(self) -> float:
        return clock.now() - self.start


def _known(value: float | None) -> float:
    """A value as the actions are ranked by it: to 9 places (sums of the same values in
    another order differ in their last bits), none or not known as 0."""
    return 0.0 if value is None or math.isnan(value) else round(value, 9)


def tied(one: float | None, other: float | None) -> bool:
    """Whether two values rank alike (``ranked``); a value not known (NaN) is tied with none,
    and none (None) with none."""
    if one is None or other is None:
        return one is other
    return not (math.isnan(one) or math.isnan(other)) and _known(one) == _known(other)


def ranked(legal: Sequence[int], rows: dict[int, tuple[float, float, float, float]],
            preferred: int | None, points: dict[int, float] | None = None,
            others_win: dict[int, float] | None = None) -> tuple[ActionValue, ...]:
    def key(c: int) -> tuple:
        return (-_known(rows[c][0]), _known(None if others_win is None else others_win[c]),
                -_known(None if points is None else points[c]), c != preferred,
                legal.index(c))

    return tuple(ActionValue(c, *rows[c], points=None if points is None else points[c],
                             others_win=None if others_win is None else others_win[c])
                 for c in sorted(legal, key=key))


def valued(legal: Sequence[int], values: dict[int, list[float]], weights: Sequence[float],
            exact: bool, preferred: int, points: dict[int, list[float]] | None = None,
            chance: bool = False, others_win: dict[int, list[float]] | None = None
            ) -> tuple[ActionValue, ...]:
    """The legal cards ranked by their values over the worlds (and, for ``win``, by the chance
    ``others_win`` that another seat wins next, then by their ``points``); ``chance``: the
    values are 1 for a match won, else 0."""
    rows = dict(zip(legal, summarize([values[c] for c in legal], weights, exact, chance)))

    def means(by_card: dict[int, list[float]] | None) -> dict[int, float] | None:
        if by_card is None:
            return None
        return {c: r[0] for c, r in zip(legal, summarize([by_card[c] for c in legal], weights,
                                                          exact))}

    return ranked(legal, rows, preferred, means(points), means(others_win))


def unknown(legal: Sequence[int], preferred: int) -> tuple[ActionValue, ...]:
    """Every legal card with its value unknown, the heuristic's card first."""
    return ranked(legal, {c: (math.nan, math.nan, math.nan, 0.0) for c in legal}, preferred)
