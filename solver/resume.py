"""A run's records read back: the deal groups that ``allfives match --record`` (or
``keep_records``) wrote, each game replayed and checked to be the run's, as the parts of a run
(``solver.batch``) that ``match --resume`` goes on from."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

from .batch import (GroupResult, MatchOutcome, MatchResult, checked_specs, checked_table,
                    deals_match, group_cards, group_seatings, kind_labels, labelled_spec,
                    match_for, match_result, points_by_kind, same_spec, seatings, share_of_a)
from .errors import counted, quoted, whole
from .executors import BatchError
from .records import record_pairs, replayed_matches
from .registry import PlayerSpec
from .rules import MAX_TARGET, Rules, option_text
from .tricks import seat_names

__all__ = ["records_parts"]


def records_parts(records: Iterable[Any], a: str | PlayerSpec,
                  b: str | PlayerSpec, players: int, seed: int | str, *,
                  rules: Rules | None = None, whole_matches: bool = False,
                  rotate: bool = False, deals: int = 1,
                  source: str | None = None) -> tuple[list, int, int]:
    """The groups a run's game records hold (as ``keep_records`` and ``allfives match
    --record`` write them), as one chunk of the run's parts, how many groups they are, and how
    many of the first records hold them: groups 0 to K - 1, each with every game it plays
    whole, checked against the run (``solver.records.replay_matches`` plays every game again).
    The groups' decision times are not in the records: they are left empty.  A record that
    does not belong to the run is a ``BatchError`` naming its game; one that does not replay,
    a ``RecordError`` naming ``source`` (and its line, records read by ``read_records``, or
    given as ``(line, record)`` pairs by ``numbered_records``: then they are read one match
    at a time, and only what each game scored is kept)."""
    a, b = checked_specs(a, b, players)
    if whole(deals) is None or deals < 1:
        raise BatchError(f"deals: {quoted(deals)} is not a whole number from 1")
    deals = int(deals)
    numbered = record_pairs(records)
    first = next(numbered, None)
    if first is None:
        return [[]], 0, 0
    labels = kind_labels(a, b)
    game = match_for(checked_table(players), rules, None)
    if not whole_matches:
        game = deals_match(game, players)
    games: dict[int, list[tuple[int, MatchResult, bool, int]]] = {}
    order: list[tuple[int, str]] = []      # each game's group and name, as read
    dealers: dict[int, int] = {}
    for played in replayed_matches(itertools.chain([first], numbered), source):
        where = (f"{source}:{played.line}: " if source and played.line is not None else "") + \
            f"game {quoted(played.match)}"
        group, k = _run_game(played, where, seed, players, rotate, labels, game.rules,
                             whole_matches)
        kinds = seatings(players)[k]
        state = played.state
        result = match_result(state, [labels[kind] for kind in kinds], ({}, {}), "",
                              deals if not whole_matches else None, records=False)
        dealt = sum(not log.thrown_in for log in state.deals)
        if not whole_matches and dealt > deals:
            raise BatchError(f"{where}: {counted(dealt, 'deal')} dealt, more than the run's "
                             f"{deals}")
        complete = state.is_terminal() if whole_matches else dealt == deals
        games.setdefault(group, []).append((k, result, complete, len(state.deals)))
        dealers.setdefault(group, state.deals[0].dealer)
        order.append((group, where))
    groups = _whole_groups(games, order, players, rotate)
    part: list[Any] = []      # (GroupResults, or whole matches' outcomes, times and cuts)
    for group in range(groups):
        table = group_seatings(players, group, rotate)
        results = [game[1] for game in games[group]]
        no_times: dict[str, tuple[float, ...]] = {labels[0]: (), labels[1]: ()}
        no_cuts = dict.fromkeys(labels, 0)
        if whole_matches:
            part.append(([MatchOutcome(group, kinds, share_of_a(kinds, r.winners, players),
                                       r.winners, r.score, r.games_won, r.deals)
                          for (_, kinds), r in zip(table, results)], no_times, no_cuts))
            continue
        kind_points = []
        for (_, kinds), r in zip(table, results):
            pa, pb = points_by_kind(kinds, r.points(), players)
            kind_points.append((pa / deals, pb / deals))
        dealer = dealers[group]
        part.append(GroupResult(group, dealer, tuple(kinds for _, kinds in table),
                                tuple(r.points() for r in results), tuple(kind_points),
                                math.fsum(pa - pb for pa, pb in kind_points) / len(kind_points),
                                no_times, (), no_cuts))
    used = sum(game[3] for group in range(groups) for game in games[group])
    return [part], groups, used


def _whole_groups(games: dict[int, list], order: Sequence[tuple[int, str]], players: int,
                  rotate: bool) -> int:
    """How many groups, from the first, the records read back hold whole (every seating's
    game, each played to its end); ``games`` by group (seating first in each), ``order`` each
    game's group and name as read.  A ``BatchError`` where the records cannot be a run's:
    a group past one not whole, or a game of a whole group after one of a group not whole."""
    groups = 0
    while groups in games:
        expected = [k for k, _ in group_seatings(players, groups, rotate)]
        if [game[0] for game in games[groups]] != expected or \
                not all(game[2] for game in games[groups]):
            break
        groups += 1
    if not rotate and all(len(games[g]) == 1 for g in games) and len(games) > 1:
        raise BatchError("a run without --duplicate: each group played in one seating")
    if set(games) - set(range(groups + 1)):
        played = games.get(groups, [])
        if sorted(game[0] for game in played) == \
                [k for k, _ in group_seatings(players, groups, rotate)] \
                and all(game[2] for game in played):
            raise BatchError(f"group {groups}: its seatings are out of order (a run writes "
                             f"them in turn)")
        raise BatchError(f"group {min(set(games) - set(range(groups + 1)))} is in the records, "
                         f"but group {groups} is not whole")
    # the groups read back are the first records (a run writes them in order): a game of them
    # after one of a group not whole is out of order, and the file could not be cut after them
    later = next((i for i, (group, _) in enumerate(order) if group >= groups), len(order))
    stray = next((where for group, where in order[later:] if group < groups), None)
    if stray is not None:
        raise BatchError(f"{stray}: after a game of group {order[later][0]}, which is not "
                         f"whole: the records are out of order")
    return groups


def _run_game(played, where: str, seed: int | str, players: int, rotate: bool,
              labels: Sequence[str], rules: Rules, whole_matches: bool) -> tuple[int, int]:
    """A replayed game's group and seating, checked against the run whose records are read
    back (its seed, table, seatings, players and rules, and whether it plays deals or whole
    matches); a ``BatchError`` naming the game (``where``) if it is not the run's."""
    named = _game_name(played.match)
    if named is None or named[0] != str(seed):
        raise BatchError(f"{where}: not a game of seed {seed} (its name is "
                         f"SEED:GROUP:SEATING)")
    _, group, k = named
    if k >= len(seatings(players)) or played.state.players != players:
        raise BatchError(f"{where}: not a game of a {players}-player run")
    if k not in [k2 for k2, _ in group_seatings(players, group, rotate)]:
        raise BatchError(f"{where}: a game of a run with --duplicate, every group played "
                         f"in every seating")
    kinds = seatings(players)[k]
    seated = {seat: labels[kind] for seat, kind in zip(seat_names(players), kinds)}
    if set(played.players) != set(seated) or not all(
            _same_player(played.players[seat], label) for seat, label in seated.items()):
        raise BatchError(f"{where}: its players are {_seated_words(played.players)}, not "
                         f"{_seated_words(seated)}")
    rules_played = played.state.match.rules
    if rules_played.target != rules.target and MAX_TARGET in (
            rules_played.target, rules.target) and \
            rules_played.replace(target=rules.target) == rules:
        raise BatchError(f"{where}: a game of a run of " + (
            "deals (--deals), not of whole matches" if whole_matches else
            "whole matches (--matches), not of deals"))
    if rules_played != rules:
        ours, theirs = rules.options(), rules_played.options()
        differ = [f"{name} {option_text(theirs[name])}, not {option_text(value)}"
                  for name, value in ours.items() if theirs.get(name) != value]
        if rules_played.preset_name != rules.preset_name:
            differ.insert(0, f"preset {rules_played.preset_name}, not "
                             f"{rules.preset_name}")
        raise BatchError(f"{where}: its rules are not the run's ({'; '.join(differ)})")
    dealer, packs = group_cards(seed, group, players, whole_matches)
    deals = played.state.deals
    if deals and deals[0].dealer != dealer:
        names = seat_names(players)
        raise BatchError(f"{where}: its first dealer is {names[deals[0].dealer]}, where seed "
                         f"{seed} makes {names[dealer]} deal group {group} first")
    for number, log in enumerate(deals):
        if tuple(log.pack) != tuple(packs[number]):
            raise BatchError(f"{where}: deal {number + 1}: its pack is not the one seed {seed} "
                             f"deals group {group}")
    return group, k


def _game_name(name: Any) -> tuple[str, int, int] | None:
    """A run's game name ``SEED:GROUP:SEATING``: its seed as written, group and seating."""
    seed, group, seating = (str(name).split(":") + ["", ""])[:3]
    if str(name).count(":") != 2 or not group.isdigit() or not seating.isdigit():
        return None
    return seed, int(group), int(seating)


def _same_player(recorded: str, label: str) -> bool:
    """Whether a record's player is the one labelled so: the same kind and options, in any
    order (``pimc:worlds=4,seed=1`` is ``pimc:seed=1,worlds=4``), and the same ``(A)`` or
    ``(B)`` where a run pits a kind against itself."""
    if recorded == label:
        return True
    one, two = labelled_spec(recorded), labelled_spec(label)
    return one is not None and two is not None and one[1] == two[1] and \
        same_spec(one[0], two[0])


def _seated_words(players: dict[str, str]) -> str:
    """``N pimc:worlds=4, S heuristic``."""
    return ", ".join(f"{seat} {name}" for seat, name in players.items())
