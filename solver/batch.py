"""Many games over any ``concurrent.futures.Executor``: whole matches, deals, duplicate play.

One game
--------
``play_match(players_by_seat, match, seed)`` plays a whole match (``solver.game``) with one player
per seat and gives a ``MatchResult``: the game records, the returns, the points each side pegged
in each deal, and the seconds each decision took, per player name.  ``play_deals(players_by_seat,
match, deals, packs=...)`` plays a fixed number of deals instead, from 0-0 with the target raised
to ``MAX_TARGET`` so that no deal ends a game (the unit of duplicate play).  The runner hands
each player its seat's ``Observation``, and an omniscient player (``cheater``) the state too
(``solver.players.decide``).

Duplicate play
--------------
``run_duplicate(a, b, players, groups, seed)`` compares two player kinds A and B on deal groups.
A *deal group* is a number of deals (``deals``, 1 by default) played from the same packs, in the
same order and with the same dealer, once for every *seating* of the two kinds:

* 2 players: A as N and B as S, then B as N and A as S.
* 4 players: A as the partners N+S and B as E+W, then the partnerships swapped.
* 3 players: every seating in which each kind takes at least one seat, each counted once: the
  2**3 - 2 = 6 assignments AAB, ABA, ABB, BAA, BAB, BBA of the seats N E S.  Every seat is A's
  in three of them and B's in three.

With ``rotate=True`` a group plays only one seating, seating ``group % len(seatings(players))``
of the list above (2 players: A as N in the even groups, as S in the odd; 4 players: A as N+S in
the even groups, as E+W in the odd; 3 players: the six seatings in turn): A and B take turns at
the seats from group to group, and every group is a fresh deal played once, not a duplicate.

A pack given to a seating is the same for every seating of the group (``deal_pack`` of a state
made with ``auto_deal=False``); a deal thrown in (too many runs) takes the next pack of the
group's stream, so seatings whose calls differ still deal from one stream.  The *points per deal*
of a side are the points it pegs in the deal (take-one, turned-up Jack, captures, end points).
In one seating A's points are the mean over A's seats of their side's points, and B's likewise;
the group's *paired difference* is A's points minus B's, averaged over the group's seatings (and
divided by ``deals``: a difference per deal).  ``DuplicateResult.interval()`` is the mean of the
differences over the groups with a paired t interval; ``bootstrap()`` resamples the groups.

``run_matches(a, b, players, groups, seed)`` plays whole matches the same way: every seating of a
group plays a match from the same seed (the same cut for the first dealer and the same stream of
packs).  A's share of a match is the share of its winning sides held by A (1 or 0; a win shared
between an A and a B side is one half); ``MatchesResult.won()`` is A's total share with a Wilson
interval that takes a group's matches together: its seatings are dealt the same cards, so their
results go together (mostly each seating is won by the side given the better cards).  With two
seatings a group is a pair, won both ways by A, by B, or split, and the interval is Bonett and
Price's for paired outcomes (``stats.grouped_share_interval``).

Seeds and executors
-------------------
Work goes out in chunks of consecutive deal groups (``solver.executors.gather``).  Everything a
group does is drawn from ``random.Random(f"{seed}:{group}")`` (its dealer and its packs) and from
players made fresh for every game, player P at seat S of seating K seeded
``f"{seed}:{group}:{K}:{S}"``; chunks are gathered back in order.  A run therefore gives the
same games and the same numbers whatever runs it and however it is cut:
``solver.executors.SerialExecutor()`` (the default), threads, a ``ProcessPoolExecutor``,
``solver.executors.executor_for(jobs)``'s worker processes, or a Dask cluster.  Only the
decision times differ, and the games of a ``cheater`` whose solve hits its time limit (see
``solver.players.CheaterPlayer``).

Stopped while it waits (Ctrl-C, or any exception), a run loses nothing that came back:
``on_part`` had each chunk as it came, and ``duplicate_result`` / ``matches_result`` make a
result of them.  A run's records read back are its parts again (``solver.resume``).
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from numbers import Integral
from typing import Any, cast

from .cards import Card
from .clock import now
from .errors import AllFivesError, quoted, seeded, whole
from .executors import DEFAULT_CHUNK, BatchError, check_stop, chunk_ranges, gather
from .game import Match, MatchState, cut_for_deal
from .players import Player, decide
from .registry import PlayerSpec, player_spec, set_options
from .records import match_records
from .rules import MAX_TARGET, Rules
from .shuffle import shuffled_pack
from .stats import Interval, Proportion, TimeSummary, bootstrap_interval, mean_interval, \
    grouped_share_interval, time_summary
from .tricks import seat_names, side_count, side_of

__all__ = ["MatchResult", "play_match", "play_deals", "seatings", "GroupResult",
           "DuplicateResult", "run_duplicate", "duplicate_result", "MatchOutcome",
           "MatchesResult", "run_matches", "matches_result", "PackStream",
           "same_spec", "labelled_spec", "DEFAULT_CHUNK",
           # the parts of a run that solver.resume builds again from its records
           "checked_specs", "checked_table", "deals_match", "group_cards", "group_seatings",
           "kind_labels", "match_for", "match_result", "points_by_kind", "share_of_a"]


# ---- one game -------------------------------------------------------------------------------


class PackStream:
    """Packs drawn one after another from ``random.Random(seed)``, each kept once drawn, so that
    several games can deal from one stream."""

    def __init__(self, seed: int | str | random.Random | None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else seeded(seed)
        self.packs: list[list[Card]] = []

    def __getitem__(self, index: int) -> list[Card]:
        while len(self.packs) <= index:
            self.packs.append(shuffled_pack(self.rng))
        return self.packs[index]

    def __iter__(self) -> Iterator[list[Card]]:
        return (self[i] for i in itertools.count())


@dataclass(frozen=True)
class MatchResult:
    """What one game (a match, or a number of deals) left."""

    #: The records of every deal (``solver.records.match_records``), thrown-in deals too.
    records: tuple[dict[str, Any], ...]
    #: Per seat (``MatchState.returns``): all 0 for ``play_deals``, whose match goes on.
    returns: tuple[int, ...]
    #: The sides that won the match (none for ``play_deals``).
    winners: tuple[int, ...]
    score: tuple[int, ...]
    games_won: tuple[int, ...]
    #: For every deal played (thrown-in deals left out), the points each side pegged in it.
    deal_points: tuple[tuple[int, ...], ...]
    #: Seconds of each decision, per player name, in order (left out of comparisons).
    times: dict[str, tuple[float, ...]] = field(compare=False)
    #: Packs dealt, thrown-in deals included.
    packs: int = 0
    #: Per player name, the decisions its budget cut short (see ``_play``).
    cut_short: dict[str, int] = field(default_factory=dict, compare=False)

    @property
    def deals(self) -> int:
        return len(self.deal_points)

    def points(self) -> tuple[int, ...]:
        """The points each side pegged over every deal."""
        return tuple(map(sum, zip(*self.deal_points))) if self.deal_points else ()


def _labels(players: Sequence[Player], names: Sequence[str] | None, n: int) -> list[str]:
    if len(players) != n:
        raise BatchError(f"{len(players)} players for a {n}-player table")
    for seat, player in enumerate(players):
        if not callable(getattr(player, "act", None)):
            raise BatchError(f"seat {seat}: {quoted(player)} is not a player (a name or spec "
                             f"makes one: solver.registry.make_player)")
    labels = list(names) if names is not None else [getattr(p, "name", type(p).__name__)
                                                    for p in players]
    if len(labels) != n:
        raise BatchError(f"{len(labels)} names for a {n}-player table")
    return [str(label) for label in labels]


def _play(state: MatchState, players: Sequence[Player], labels: Sequence[str],
          packs: Iterator[Sequence[Card]] | None, deals: int | None
          ) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Play on; the seconds of each decision per label, and per label the decisions its
    player's budget cut short (``player.stopped`` counts them: a solve stopped by a limit, a
    world left out, no world solved at all)."""
    times: dict[str, list[float]] = {label: [] for label in labels}
    cut = dict.fromkeys(labels, 0)
    played = 0
    logged = 0
    clock = now
    while not state.is_terminal():
        if len(state.deals) > logged:
            played += sum(not log.thrown_in for log in state.deals[logged:])
            logged = len(state.deals)
            if deals is not None and played >= deals:
                break
        if state.is_chance_node():
            check_stop()
            if packs is None:
                state.deal_pack()
            else:
                pack = next(packs, None)
                if pack is None:
                    raise BatchError(f"the packs ran out after {len(state.deals)} deals")
                state.deal_pack(pack)
            continue
        seat = state.current_player()
        stopped = getattr(players[seat], "stopped", 0)
        start = clock()
        action = decide(players[seat], state)
        times[labels[seat]].append(clock() - start)
        cut[labels[seat]] += getattr(players[seat], "stopped", 0) > stopped
        state.apply_action(action)
    return times, cut


def match_result(state: MatchState, labels: Sequence[str],
                 played: tuple[Mapping[str, list[float]], Mapping[str, int]],
                 match_name: str | int, deals: int | None = None,
                 records: bool = True) -> MatchResult:
    """What the game left; ``records``: with its records (not for a game read back)."""
    times, cut = played
    n = state.players
    names = dict(zip(seat_names(n), labels))
    logs = list(state.deals)
    written = match_records(state, match_name, names) if records else ()
    points = []
    for log in logs:
        if log.thrown_in:
            continue
        side_points = [0] * side_count(n)
        for peg in log.pegs:
            side_points[peg.side] += peg.points
        points.append(tuple(side_points))
    if deals is not None:
        points = points[:deals]
    return MatchResult(tuple(written), tuple(state.returns()), tuple(state.winners),
                       state.score, state.games_won, tuple(points),
                       {k: tuple(v) for k, v in times.items()}, len(logs), dict(cut))


def play_match(players_by_seat: Sequence[Player], match: Match, seed: int | str | None = None,
               *, names: Sequence[str] | None = None, dealer: int | None = None,
               packs: Iterable[Sequence[Card]] | None = None,
               match_name: str | int = "1", records: bool = True) -> MatchResult:
    """Play a whole match: ``players_by_seat[s]`` at seat ``s``.  ``seed`` seeds the state
    (the cut for the first dealer, unless ``dealer`` is given, and every pack, unless ``packs``
    gives them in order).  ``names`` label the players in the records and the times (by
    default each player's ``name``); ``records``: the result holds the deals' records (else
    none, ``MatchResult.records`` empty: a tenth of the time of a cheap player's play)."""
    if not isinstance(match, Match):    # (play_deals takes Rules too: its target is raised)
        raise BatchError(f"{quoted(match)} is not a Match")
    labels = _labels(players_by_seat, names, match.players)
    state = match.new_initial_state(seed, dealer=dealer, auto_deal=packs is None)
    played = _play(state, players_by_seat, labels,
                   iter(packs) if packs is not None else None, None)
    return match_result(state, labels, played, match_name, records=records)


def deals_match(match: Match | Rules, players: int | None) -> Match:
    """The match of ``play_deals``: ``match``, or a match of ``players`` under the rules
    given."""
    if isinstance(match, Rules):
        match = Match(players or 2, match)
    elif not isinstance(match, Match):
        raise BatchError(f"{quoted(match)} is not a Match or Rules")
    return replace(match, rules=match.rules.replace(target=MAX_TARGET), best_of=1)


def play_deals(players_by_seat: Sequence[Player], match: Match | Rules, deals: int = 1,
               seed: int | str | None = None, *, dealer: int = 0,
               packs: Iterable[Sequence[Card]] | None = None,
               names: Sequence[str] | None = None, match_name: str | int = "1",
               records: bool = True) -> MatchResult:
    """Play ``deals`` deals (thrown-in deals not counted) from 0-0, the target raised to
    ``MAX_TARGET`` so that none ends a game; the first dealer is ``dealer`` and the deal passes
    to the left.  Packs come from ``packs`` in order, or else from ``random.Random(seed)``;
    ``records`` as for ``play_match``."""
    if whole(deals) is None or deals < 1:
        raise BatchError(f"{quoted(deals)} is not a number of deals")
    deals = int(deals)
    match = deals_match(match, len(players_by_seat))
    labels = _labels(players_by_seat, names, match.players)
    stream = iter(packs) if packs is not None else iter(PackStream(seed))
    state = match.new_initial_state(seed, dealer=dealer, auto_deal=False)
    return match_result(state, labels, _play(state, players_by_seat, labels, stream, deals),
                        match_name, deals, records)


# ---- duplicate ------------------------------------------------------------------------------


def seatings(players: int) -> list[tuple[int, ...]]:
    """The seatings of duplicate play: for each, the kind at every seat, 0 for A and 1 for B
    (see the module notes)."""
    seat_names(players)
    if players == 2:
        return [(0, 1), (1, 0)]
    if players == 4:
        return [(0, 1, 0, 1), (1, 0, 1, 0)]
    return [k for k in itertools.product((0, 1), repeat=3) if 0 < sum(k) < 3]


def points_by_kind(kinds: Sequence[int], side_points: Sequence[int], n: int) -> tuple[float, float]:
    """A's and B's points in one seating: the mean over each kind's seats of its side's points."""
    totals = [0.0, 0.0]
    counts = [0, 0]
    for seat, kind in enumerate(kinds):
        totals[kind] += side_points[side_of(seat, n)]
        counts[kind] += 1
    return totals[0] / counts[0], totals[1] / counts[1]


def labelled_spec(name: object) -> tuple[PlayerSpec, str] | None:
    """A record's label of a player, ``pimc:worlds=4 (A)``: its spec and its mark (`` (A)``,
    `` (B)`` or none, ``""``); None where it names no player."""
    if not isinstance(name, str):
        return None
    spec, mark = re.fullmatch(r"(.*?)( \([AB]\))?", name, re.S).groups()  # type: ignore[union-attr]
    try:
        return player_spec(spec), mark or ""
    except AllFivesError:
        return None


def same_spec(one: PlayerSpec, two: PlayerSpec) -> bool:
    """The same kind of player with the same options, written in any order, an option given
    its default value or left out (``pimc:infer=1,worlds=16`` is ``pimc:worlds=16``)."""
    return one.name == two.name and set_options(one) == set_options(two)


def kind_labels(a: PlayerSpec, b: PlayerSpec) -> tuple[str, str]:
    """A's and B's labels in the results: their specs, marked `` (A)`` and `` (B)`` where
    they are the same."""
    if str(a) != str(b):
        return str(a), str(b)
    return f"{a} (A)", f"{b} (B)"


@dataclass(frozen=True)
class GroupResult:
    """One deal group: its dealer, and per seating the points each side pegged over its deals."""

    group: int
    dealer: int
    seatings: tuple[tuple[int, ...], ...]
    #: Per seating, the points of each side over the group's deals.
    side_points: tuple[tuple[int, ...], ...]
    #: Per seating, A's and B's points per deal (means over their seats).
    kind_points: tuple[tuple[float, float], ...]
    #: A's points minus B's per deal, averaged over the seatings.
    difference: float
    #: Seconds of each decision per player label (left out of comparisons: they vary by run).
    times: dict[str, tuple[float, ...]] = field(compare=False)
    #: Per seating, the games' records (``keep_records``), else empty.
    records: tuple[tuple[dict[str, Any], ...], ...] = ()
    #: Decisions cut short by the budget, per player label.
    cut_short: dict[str, int] = field(default_factory=dict, compare=False)


def group_seatings(players: int, group: int, rotate: bool) -> list[tuple[int, tuple[int, ...]]]:
    """The seatings a group plays, each with its number in ``seatings(players)``: all of them,
    or with ``rotate`` only number ``group % len(seatings(players))``."""
    table = list(enumerate(seatings(players)))
    return [table[group % len(table)]] if rotate else table


def group_cards(seed: int | str, group: int, players: int,
                whole_matches: bool = False) -> tuple[int, PackStream]:
    """A deal group's first dealer and its packs, from ``seed`` and the group's number alone:
    of deals, the dealer drawn and the packs after it; of whole matches, as a match state
    seeded with ``f"{seed}:{group}"`` has them (the cut for the dealer, then a pack a deal)."""
    rng = random.Random(f"{seed}:{group}")
    if whole_matches:
        dealer = cut_for_deal(rng, players)[0]
    else:
        dealer = rng.randrange(players)
    return dealer, PackStream(rng)


def _play_group(a: PlayerSpec, b: PlayerSpec, match: Match, deals: int, seed: int | str,
                group: int, keep_records: bool, rotate: bool = False) -> GroupResult:
    n = match.players
    dealer, stream = group_cards(seed, group, n)
    labels = kind_labels(a, b)
    times: dict[str, list[float]] = {labels[0]: [], labels[1]: []}
    cut = dict.fromkeys(labels, 0)
    table = group_seatings(n, group, rotate)
    side_points, kind_points, records = [], [], []
    for k, kinds in table:
        players = [(a, b)[kind].make(seed=f"{seed}:{group}:{k}:{seat}")
                   for seat, kind in enumerate(kinds)]
        result = play_deals(players, match, deals, dealer=dealer, packs=iter(stream),
                            names=[labels[kind] for kind in kinds],
                            match_name=f"{seed}:{group}:{k}", records=keep_records)
        for label, seconds in result.times.items():
            times[label].extend(seconds)
            cut[label] += result.cut_short[label]
        points = result.points()
        side_points.append(points)
        pa, pb = points_by_kind(kinds, points, n)
        kind_points.append((pa / deals, pb / deals))
        if keep_records:
            records.append(result.records)
    difference = math.fsum(pa - pb for pa, pb in kind_points) / len(kind_points)
    return GroupResult(group, dealer, tuple(kinds for _, kinds in table), tuple(side_points),
                       tuple(kind_points),
                       difference, {k: tuple(v) for k, v in times.items()}, tuple(records),
                       cut)


def _duplicate_chunk(a: PlayerSpec, b: PlayerSpec, match: Match, deals: int, seed: int | str,
                     groups: range, keep_records: bool,
                     rotate: bool = False) -> list[GroupResult]:
    return [_play_group(a, b, match, deals, seed, g, keep_records, rotate) for g in groups]


def _merge_times(parts: Iterable[Mapping[str, Sequence[float]]]) -> dict[str, tuple[float, ...]]:
    merged: dict[str, list[float]] = {}
    for part in parts:
        for label, seconds in part.items():
            merged.setdefault(label, []).extend(seconds)
    return {k: tuple(v) for k, v in merged.items()}


@dataclass(frozen=True)
class DuplicateResult:
    """A duplicate run: the groups in order, and what they add up to."""

    a: str
    b: str
    players: int
    deals: int
    seed: int | str
    groups: tuple[GroupResult, ...]
    seconds: float = field(default=0.0, compare=False)

    def differences(self) -> list[float]:
        """A's points minus B's per deal, one per group."""
        return [g.difference for g in self.groups]

    def interval(self, confidence: float = 0.95) -> Interval:
        """The mean paired difference per deal with its paired t interval."""
        return mean_interval(self.differences(), confidence)

    def bootstrap(self, confidence: float = 0.95, resamples: int = 2000,
                  seed: int | str = 0) -> Interval:
        """The same mean with a bootstrap interval (BCa) over the groups."""
        return bootstrap_interval(self.differences(), confidence, resamples, seed)

    def kind_means(self) -> tuple[float, float]:
        """A's and B's mean points per deal (not a number, NaN, with no group played)."""
        pairs = [kp for g in self.groups for kp in g.kind_points]
        if not pairs:
            return math.nan, math.nan
        return (math.fsum(p[0] for p in pairs) / len(pairs),
                math.fsum(p[1] for p in pairs) / len(pairs))

    def times(self) -> dict[str, tuple[float, ...]]:
        return _merge_times(g.times for g in self.groups)

    def time_summaries(self) -> dict[str, TimeSummary]:
        return {label: time_summary(seconds) for label, seconds in self.times().items()}

    def cut_short(self) -> dict[str, int]:
        """Decisions cut short by the budget, per player label."""
        return _merge_counts(g.cut_short for g in self.groups)


def _merge_counts(parts: Iterable[Mapping[str, int]]) -> dict[str, int]:
    merged: dict[str, int] = {}
    for part in parts:
        for label, count in part.items():
            merged[label] = merged.get(label, 0) + count
    return merged


def _run_seed(seed: object) -> int | str:
    """A run's seed, which names its games (``SEED:GROUP:SEATING``): a whole number or a text;
    anything else (None too: a run is repeatable by its seed) a ``BatchError``."""
    if isinstance(seed, str):
        return seed
    if whole(seed) is None:
        raise BatchError(f"seed: {quoted(seed)} is not a whole number or a text (a run is "
                         f"made again from its seed)")
    return cast(int, whole(seed))


def checked_table(players: int) -> int:
    """``players``, checked to be a table's 2, 3 or 4."""
    if isinstance(players, bool) or not isinstance(players, Integral) or players not in (2, 3, 4):
        raise BatchError(f"a table has 2, 3 or 4 players, not {quoted(players)}")
    return int(players)


def checked_specs(a: str | PlayerSpec, b: str | PlayerSpec,
                  players: int) -> tuple[PlayerSpec, PlayerSpec]:
    """A's and B's specs, each checked by making a player for the table (a bad option is
    found before any play)."""
    specs = player_spec(a), player_spec(b)
    table = checked_table(players)
    for spec in specs:
        spec.make(seed=0, players=table)
    return specs


def match_for(players: int, rules: Rules | None, match: Match | None,
              best_of: int = 1) -> Match:
    """The match a run plays: ``match``, checked against the table and the arguments beside
    it, or one of ``players`` under ``rules`` (default All Fives), best of ``best_of``."""
    if match is not None:
        if not isinstance(match, Match):
            raise BatchError(f"match: {quoted(match)} is not a Match")
        if match.players != players:
            raise BatchError(f"the match is for {match.players} players, not {players}")
        # the match holds its rules and its best of: given beside it they would go unused
        if rules is not None or best_of != 1:
            raise BatchError(f"{'rules' if rules is not None else 'best_of'}: given with "
                             f"match, which holds its own")
        return match
    return Match(players, rules if rules is not None else Rules(), best_of)


def run_duplicate(a: str | PlayerSpec, b: str | PlayerSpec, players: int = 2, groups: int = 100,
                  seed: int | str = 0, executor: Executor | None = None, *,
                  rules: Rules | None = None, match: Match | None = None, deals: int = 1,
                  chunk_size: int | None = None, keep_records: bool = False,
                  progress: Callable[[int, int], None] | None = None,
                  rotate: bool = False,
                  on_part: Callable[[list[GroupResult]], None] | None = None,
                  first: int = 0) -> DuplicateResult:
    """Duplicate play of A against B over ``groups`` deal groups of ``deals`` deals each (see
    the module notes), chunks of ``chunk_size`` groups sent to ``executor``.  ``progress(done,
    total)`` is called as each chunk comes back, in order, after ``on_part(chunk's groups)``
    (``duplicate_result`` makes a result of the chunks so far, as a run stopped early can
    report them).  With ``rotate`` each group plays one seating, in turn, instead of every
    seating.  ``first``: the groups before it are left out (played before:
    ``solver.resume.records_parts`` gives them back from their records)."""
    players = checked_table(players)
    a, b = checked_specs(a, b, players)
    seed = _run_seed(seed)
    game = deals_match(match_for(players, rules, match), players)
    if whole(deals) is None or deals < 1:
        raise BatchError(f"{quoted(deals)} is not a number of deals")
    deals = int(deals)
    start = now()
    calls = [(a, b, game, deals, seed, chunk, keep_records, rotate)
             for chunk in chunk_ranges(groups, chunk_size, first)]
    parts = gather(executor, _duplicate_chunk, calls, progress, on_part)
    return duplicate_result(a, b, players, deals, seed, parts, now() - start)


def duplicate_result(a: str | PlayerSpec, b: str | PlayerSpec, players: int, deals: int,
                     seed: int | str, parts: Iterable[Sequence[GroupResult]],
                     seconds: float = 0.0) -> DuplicateResult:
    """The ``DuplicateResult`` of the chunks of groups ``parts``, in order."""
    return DuplicateResult(str(a), str(b), players, deals, seed,
                           tuple(g for part in parts for g in part), seconds)


# ---- whole matches --------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchOutcome:
    """One match of a group: its seating, A's share of the win, and how it went."""

    group: int
    seating: tuple[int, ...]
    a_share: float
    winners: tuple[int, ...]
    score: tuple[int, ...]
    games_won: tuple[int, ...]
    deals: int
    records: tuple[dict[str, Any], ...] = ()


def share_of_a(kinds: Sequence[int], winners: Sequence[int], n: int) -> float:
    """A's share of a match won (``kinds``: A's seats 0, B's 1): a half where nobody won it."""
    if not winners:
        return 0.5
    held = sum(1 for side in winners
               if any(kind == 0 and side_of(seat, n) == side for seat, kind in enumerate(kinds)))
    return held / len(winners)


def _matches_chunk(a: PlayerSpec, b: PlayerSpec, match: Match, seed: int | str, groups: range,
                   keep_records: bool,
                   rotate: bool = False) -> list[tuple[list[MatchOutcome], dict, dict]]:
    out = []
    labels = kind_labels(a, b)
    for group in groups:
        outcomes = []
        times: dict[str, list[float]] = {labels[0]: [], labels[1]: []}
        cut = dict.fromkeys(labels, 0)
        for k, kinds in group_seatings(match.players, group, rotate):
            players = [(a, b)[kind].make(seed=f"{seed}:{group}:{k}:{seat}")
                       for seat, kind in enumerate(kinds)]
            result = play_match(players, match, f"{seed}:{group}",
                                names=[labels[kind] for kind in kinds],
                                match_name=f"{seed}:{group}:{k}", records=keep_records)
            for label, seconds in result.times.items():
                times[label].extend(seconds)
                cut[label] += result.cut_short[label]
            outcomes.append(MatchOutcome(group, kinds,
                                         share_of_a(kinds, result.winners, match.players),
                                         result.winners, result.score, result.games_won,
                                         result.deals, result.records))
        out.append((outcomes, times, cut))
    return out


@dataclass(frozen=True)
class MatchesResult:
    """Whole matches of A against B, every seating of every group."""

    a: str
    b: str
    players: int
    seed: int | str
    matches: tuple[MatchOutcome, ...]
    time_parts: tuple[dict[str, tuple[float, ...]], ...] = field(default=(), repr=False,
                                                                 compare=False)
    seconds: float = field(default=0.0, compare=False)
    #: Per group, the decisions cut short by the budget, per player label.
    cut_parts: tuple[dict[str, int], ...] = field(default=(), repr=False, compare=False)

    def won(self, confidence: float = 0.95) -> Proportion:
        """A's matches won (shared wins count their share) with an interval that takes the
        matches of a group (its seatings, dealt the same cards) together
        (``stats.grouped_share_interval``)."""
        return grouped_share_interval(list(self.group_shares().values()), confidence)

    def group_shares(self) -> dict[int, list[float]]:
        """A's share of each match, group by group, in the order of the group's seatings."""
        groups: dict[int, list[float]] = {}
        for m in self.matches:
            groups.setdefault(m.group, []).append(m.a_share)
        return groups

    def times(self) -> dict[str, tuple[float, ...]]:
        return _merge_times(self.time_parts)

    def cut_short(self) -> dict[str, int]:
        """Decisions cut short by the budget, per player label."""
        return _merge_counts(self.cut_parts)

    def time_summaries(self) -> dict[str, TimeSummary]:
        return {label: time_summary(seconds) for label, seconds in self.times().items()}


def run_matches(a: str | PlayerSpec, b: str | PlayerSpec, players: int = 2, groups: int = 100,
                seed: int | str = 0, executor: Executor | None = None, *,
                rules: Rules | None = None, match: Match | None = None, best_of: int = 1,
                chunk_size: int | None = None, keep_records: bool = False,
                progress: Callable[[int, int], None] | None = None,
                rotate: bool = False,
                on_part: Callable[[list], None] | None = None,
                first: int = 0) -> MatchesResult:
    """Whole matches of A against B: for each of ``groups`` groups, one match per seating, all
    from the seed ``f"{seed}:{group}"`` (see the module notes); with ``rotate`` one match per
    group, the seatings in turn.  ``progress``, ``on_part`` and ``first`` as for
    ``run_duplicate`` (``matches_result`` makes a result of the chunks so far)."""
    players = checked_table(players)
    a, b = checked_specs(a, b, players)
    seed = _run_seed(seed)
    game = match_for(players, rules, match, best_of)
    start = now()
    calls = [(a, b, game, seed, chunk, keep_records, rotate)
             for chunk in chunk_ranges(groups, DEFAULT_CHUNK // 5 if chunk_size is None
                                  else chunk_size, first)]
    parts = gather(executor, _matches_chunk, calls, progress, on_part)
    return matches_result(a, b, players, seed, parts, now() - start)


def matches_result(a: str | PlayerSpec, b: str | PlayerSpec, players: int, seed: int | str,
                   parts: Iterable[Sequence[tuple[list[MatchOutcome], dict, dict]]],
                   seconds: float = 0.0) -> MatchesResult:
    """The ``MatchesResult`` of the chunks of groups ``parts``, in order."""
    parts = list(parts)
    outcomes = tuple(m for part in parts for group, _, _ in part for m in group)
    times = tuple({k: tuple(v) for k, v in t.items()} for part in parts for _, t, _ in part)
    cut = tuple(dict(c) for part in parts for _, _, c in part)
    return MatchesResult(str(a), str(b), players, seed, outcomes, times, seconds, cut)
