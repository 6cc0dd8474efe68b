"""``allfives match``: two player kinds against each other over many deals or matches
(``solver.batch``), on this machine's processes or a Dask cluster (``cli.workers``), with a report
of who is ahead by how much and how sure that is (``cli.matchreport``; JSON for scripts).

The unit of comparison is the *deal group* (``solver.batch``'s notes): with ``--duplicate`` a
group is one deal (or one match) played in every seating of A and B from the same packs; without,
a group is one deal (or match) played once, A and B taking the seats in turn from group to group
(``rotate``).  ``--deals N`` and ``--matches N`` both count groups.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import shlex
import stat
import sys
from collections.abc import Iterator, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from solver import clock
from solver.errors import AllFivesError, WorkersLost, counted, quoted, shown_path
from solver.registry import PlayerSpec, player_spec
from solver.signals import signals_held

from .errors import note, stopped_by, unwritten
from .matchreport import BOOTSTRAP_GROUPS, show
from .recordfile import HELD, check_target, locked
from .records import file_text
from .workers import check_jobs, chunk_size, executor_of, workers_for

#: The seed of a run that names none: runs are repeatable by default.
DEFAULT_SEED = 0
#: Deal groups when neither ``--deals`` nor ``--matches`` is given.
DEFAULT_DEALS = 100
#: The confidence of every interval shown.
CONFIDENCE = 0.95
#: Deal groups from which ``match`` off a terminal (or with ``--json``) says that it is working
#: out the bootstrap interval: some 20 s of a core's time for 100,000 groups, after the last
#: group's progress had said it was nearly done.
NOTED_BOOTSTRAP = 20_000
#: Deal groups one run plays at most (``--deals``, ``--matches``): each is planned at the start.
MAX_GROUPS = 1_000_000


# ---- the command line's values ------------------------------------------------------------------

def spec_of(text: str, players: int) -> PlayerSpec:
    """A player spec, checked now by making one for the table (an unknown option, or one that
    would change nothing there, is found before any play)."""
    try:
        spec = player_spec(text)
        spec.make(seed=0, players=players)
    except AllFivesError as error:      # an unknown player's error lists the players itself
        raise AllFivesError(f"PLAYER {quoted(text)}: {error}") from None
    return spec


#: The words that run ``allfives`` in the commands a report gives to play a run again (a script
#: that runs the command line with players of its own says itself).
PROGRAM = ("allfives",)


@dataclass(frozen=True)
class Plan:
    a: PlayerSpec
    b: PlayerSpec
    players: int
    groups: int
    whole_matches: bool
    duplicate: bool
    #: The rules as ``--rules`` names them, but for the target: ``classic:skunk=true``.
    rules: str
    target: int | None
    seed: int
    jobs: int | None
    scheduler: str | None

    def command(self) -> str:
        """The command line that plays the same games again (without --json and --record)."""
        words = [*PROGRAM, "match", str(self.a), str(self.b), "--players", str(self.players),
                 "--matches" if self.whole_matches else "--deals", str(self.groups)]
        if self.duplicate:
            words.append("--duplicate")
        words += ["--rules", self.rules]
        if self.target is not None:
            words += ["--target", str(self.target)]
        words += ["--seed", str(self.seed)]
        if self.scheduler is not None:
            words += ["--scheduler", self.scheduler]
        elif self.jobs not in (None, 1):
            words += ["--jobs", str(self.jobs)]
        return shlex.join(words)


def make_plan(a: str, b: str, players: int, deals: int | None, matches: int | None,
              duplicate: bool, preset: str, target: int | None, seed: int | None,
              jobs: int | None, scheduler: str | None) -> Plan:
    if players not in (2, 3, 4):
        raise AllFivesError(f"--players: a table has 2, 3 or 4 players, not {quoted(players)}")
    if deals is not None and matches is not None:
        raise AllFivesError("--deals and --matches: give one or the other")
    for name, count in (("--deals", deals), ("--matches", matches)):
        if count is not None and count < 1:
            raise AllFivesError(f"{name}: {quoted(count)} is not a number of deal groups "
                                "(from 1)")
        if count is not None and count > MAX_GROUPS:
            raise AllFivesError(f"{name}: {count} deal groups is more than one run plays "
                                f"({MAX_GROUPS} at most; run more with other seeds)")
    if target is not None and matches is None:
        raise AllFivesError("--target: only whole matches (--matches) play to a target")
    if scheduler is None:
        check_jobs(jobs)
    from solver.rules import PRESETS, read_spec

    from .inputs import read_rules

    rules = read_rules(preset, target)
    if target is not None or "target" in read_spec(preset)[1]:
        # the target is the plan's own, given by --target or by --rules
        if matches is None:
            raise AllFivesError("--rules: only whole matches (--matches) play to a target")
        target = rules.target
        rules = rules.replace(target=PRESETS[rules.preset_name].target)
    return Plan(spec_of(a, players), spec_of(b, players), players,
                matches if matches is not None else deals or DEFAULT_DEALS,
                matches is not None, duplicate, rules.spec(), target,
                DEFAULT_SEED if seed is None else seed, jobs, scheduler)


# ---- playing ------------------------------------------------------------------------------------

def plan_rules(plan: Plan):
    from solver.rules import Rules

    rules = Rules.from_spec(plan.rules)
    return rules if plan.target is None else rules.replace(target=plan.target)


def play(plan: Plan, executor: Executor, keep_records: bool, progress=None, on_part=None,
         first: int = 0):
    """The ``solver.batch`` result of the plan: a ``DuplicateResult`` or a ``MatchesResult``;
    ``on_part`` has each chunk of groups as it comes back; groups before ``first`` are left
    out."""
    from solver.batch import DEFAULT_CHUNK, run_duplicate, run_matches

    rules = plan_rules(plan)
    left = plan.groups - first    # the chunks share out the groups still to play
    # (None: the cluster's, not known here)
    workers = None if plan.scheduler is not None else workers_for(plan.jobs, left)
    options: dict[str, Any] = dict(rules=rules, keep_records=keep_records, progress=progress,
                                   rotate=not plan.duplicate, on_part=on_part, first=first)
    if plan.whole_matches:
        return run_matches(plan.a, plan.b, plan.players, plan.groups, plan.seed, executor,
                           chunk_size=chunk_size(left, workers, max(1, DEFAULT_CHUNK // 5)),
                           **options)
    return run_duplicate(plan.a, plan.b, plan.players, plan.groups, plan.seed, executor,
                         chunk_size=chunk_size(left, workers, DEFAULT_CHUNK), **options)


def match_differences(result) -> tuple[list[float], tuple[float, float], int]:
    """For whole matches: per group A's points minus B's per deal (averaged over the group's
    seatings), A's and B's mean points per deal over every match, and the deals played."""
    from solver.tricks import side_of

    n = result.players
    by_group: dict[int, list[tuple[float, float]]] = {}
    for outcome in result.matches:
        totals, counts = [0.0, 0.0], [0, 0]
        for seat, kind in enumerate(outcome.seating):
            totals[kind] += outcome.score[side_of(seat, n)]
            counts[kind] += 1
        deals = max(outcome.deals, 1)
        by_group.setdefault(outcome.group, []).append(
            (totals[0] / counts[0] / deals, totals[1] / counts[1] / deals))
    differences = [math.fsum(pa - pb for pa, pb in pairs) / len(pairs)
                   for pairs in by_group.values()]
    pairs = [p for group in by_group.values() for p in group]
    means = (math.fsum(p[0] for p in pairs) / len(pairs), math.fsum(p[1] for p in pairs) / len(pairs))
    return differences, means, sum(o.deals for o in result.matches)


class Keeper:
    """The chunks of a run as they come back, in order: the records of each written to the
    record file at once, and the result of those so far, for a run stopped before its end."""

    def __init__(self, plan: Plan, out: TextIO | None) -> None:
        self.plan = plan
        self.out = out
        self.parts: list[Any] = []
        #: The groups read back from the record of a run resumed.
        self.resumed = 0
        #: Writing the record failed: the run ends with the groups kept.
        self.failed = False
        #: Where a record file there before is cut (its groups kept, or none) as the first
        #: chunk is written: a run that plays no group leaves it as it was.
        self.cut: int | None = None
        #: Each player's decision times, as the chunks come (let go from the chunks: a run of
        #: a million whole matches held some 5 KB of times a group).
        self.times: dict[str, Any] = {}

    def __call__(self, part: Any) -> Any:
        """Keep a chunk, its records written; the chunk without them, for ``gather`` to keep
        in its place."""
        # a chunk is counted only with its records in the file, all of them: a Ctrl-C waits
        text = "" if self.out is None else "".join(
            json.dumps(line, ensure_ascii=False) + "\n"
            for line in part_records(part, self.plan.whole_matches))
        kept = self._timed(without_records(part, self.plan.whole_matches))
        with signals_held():
            if self.out is not None:
                self._write(text)
            self.parts.append(kept)
        return kept

    def _timed(self, part: Any) -> Any:
        """The chunk with its decision times let go, each player's added to its tally."""
        from solver.stats import TimeTally

        def tallied(times: dict[str, Any]) -> dict:
            for label, seconds in times.items():
                self.times.setdefault(label, TimeTally()).add(seconds)
            return {}

        if self.plan.whole_matches:
            return [(outcomes, tallied(times), *rest) for outcomes, times, *rest in part]
        return [replace(group, times=tallied(group.times)) for group in part]

    def time_summaries(self) -> dict[str, Any]:
        """Each player's decision times summed up (``solver.stats.TimeSummary``)."""
        return {label: tally.summary() for label, tally in self.times.items()}

    def _write(self, text: str) -> None:
        """The chunk's records written whole or not at all: a write that fails (a full disk, a
        file too large) is cut off, so the file holds the records of the groups kept."""
        assert self.out is not None
        try:
            size = os.path.getsize(self.out.name)
        except (OSError, TypeError):
            size = None             # not a file (a pipe, standard output)
        try:
            if self.cut is not None:
                self.out.truncate(self.cut)     # (appending: what is written goes after it)
                size, self.cut = self.cut, None
            self.out.write(text)
            self.out.flush()
        except OSError as error:  # a write's error names no file
            self.failed = True
            with contextlib.suppress(OSError):
                self.out.close()
            if size is not None:
                with contextlib.suppress(OSError):
                    os.truncate(self.out.name, size)
            raise unwritten(error, self.out.name) from None

    def settle(self) -> None:
        """At the end of a run that wrote no chunk (every group read back): the cut the first
        chunk would have made, what follows the groups kept going."""
        if self.cut is not None:
            assert self.out is not None     # (a cut is made in a record resumed)
            self.out.truncate(self.cut)
            self.cut = None

    def result(self, seconds: float):
        """The ``solver.batch`` result of the chunks kept."""
        from solver.batch import duplicate_result, matches_result

        plan = self.plan
        if plan.whole_matches:
            return matches_result(plan.a, plan.b, plan.players, plan.seed, self.parts, seconds)
        return duplicate_result(plan.a, plan.b, plan.players, 1, plan.seed, self.parts, seconds)


def without_records(part: Any, whole_matches: bool) -> Any:
    """A chunk of groups with its games' records let go: they are in the record file, and a
    run of many groups would otherwise hold them all."""
    if whole_matches:
        return [([replace(outcome, records=()) for outcome in outcomes], *rest)
                for outcomes, *rest in part]
    return [replace(group, records=()) for group in part]


def part_records(part: Any, whole_matches: bool) -> Iterator[dict[str, Any]]:
    """Every game record of a chunk of groups, game by game, in order."""
    if whole_matches:
        for outcomes, *_ in part:
            for outcome in outcomes:
                yield from outcome.records
    else:
        for group in part:
            for game in group.records:
                yield from game


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def interval_record(interval) -> dict[str, Any]:
    return {"mean": interval.mean, "low": _finite(interval.low), "high": _finite(interval.high),
            "n": interval.n, "sd": _finite(interval.sd), "confidence": interval.confidence,
            "method": interval.method}


def seats_held(plan: Plan, groups: int) -> dict[str, int]:
    """The seats A and B held over the games of the first ``groups`` groups: equal but for
    three players without --duplicate over a number of groups not a multiple of 6."""
    from solver.batch import seatings

    table = seatings(plan.players)
    played = table * groups if plan.duplicate else \
        [table[group % len(table)] for group in range(groups)]
    return {"a": sum(s.count(0) for s in played), "b": sum(s.count(1) for s in played)}


def _pairs(result) -> dict[str, int]:
    """How the groups of two matches went: won both by A, both by B, or split."""
    shares = [sum(group) for group in result.group_shares().values()]
    return {"a": shares.count(2), "b": shares.count(0), "split": shares.count(1)}


def summary(plan: Plan, result, seconds: float, resumed: int = 0,
            record: str | None = None, bootstrap: bool = True,
            times: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Everything the run found, as the JSON object (the report shows the same); ``resumed``:
    the groups read back from the record of the run resumed; ``record``: its record file;
    without ``bootstrap``, no bootstrap interval (null: a run stopped reports at once, where
    the bootstrap of a large run takes a minute or more); ``times``: each player's decision
    times summed up (``Keeper.time_summaries``), where the result holds none."""
    from solver.batch import seatings
    from solver.rules import Rules
    from solver.stats import PAIRED, bootstrap_interval, mean_interval

    labels = (result.a, result.b) if result.a != result.b else (f"{result.a} (A)",
                                                                 f"{result.b} (B)")
    won = None
    if plan.whole_matches:
        differences, means, deals = match_differences(result)
        paired = mean_interval(differences, CONFIDENCE)
        boot = bootstrap_interval(differences, CONFIDENCE) if bootstrap else None
        share = result.won(CONFIDENCE)
        won = {"a": share.successes, "matches": share.n, "share": share.share,
               "low": share.low, "high": share.high, "confidence": share.confidence,
               "method": share.method, "effective": share.effective,
               "pairs": _pairs(result) if share.method == PAIRED else None}
        games = len(result.matches)
        played = len({m.group for m in result.matches})
    else:
        paired = result.interval(CONFIDENCE)
        boot = result.bootstrap(CONFIDENCE) if bootstrap else None
        means = result.kind_means()
        games = sum(len(g.seatings) for g in result.groups)
        deals = games * result.deals
        played = len(result.groups)
    cut = result.cut_short()
    # (none timed, every group read back from a record: the times null)
    summaries = result.time_summaries() if times is None else times
    times = {label: {"decisions": t.count, "median": t.median if t.count else None,
                     "p95": t.p95 if t.count else None, "max": t.max if t.count else None,
                     "total": t.total, "cut_short": cut.get(label, 0)} if t is not None else
             {"decisions": 0, "median": None, "p95": None, "max": None, "total": 0.0,
              "cut_short": 0}
             for label in labels for t in [summaries.get(label)]}
    # whole matches are played to the preset's target unless --target says otherwise
    target = (plan.target or Rules.from_spec(plan.rules).target) if plan.whole_matches else None
    return {
        "command": replace(plan, groups=played).command(),  # the games reported
        "a": labels[0], "b": labels[1], "players": plan.players, "rules": plan.rules,
        "target": target, "duplicate": plan.duplicate,
        "unit": "match" if plan.whole_matches else "deal",
        "seed": plan.seed, "groups": played, "planned": plan.groups,
        "interrupted": played < plan.groups, "resumed": resumed,
        # what plays the rest, the record kept
        "go_on": shlex.join([*shlex.split(plan.command()), "--record", file_text(record),
                             "--resume"])
        if played < plan.groups and record is not None and os.path.isfile(record) else None,
        "seatings": len(seatings(plan.players)) if plan.duplicate else 1,
        "seats": seats_held(plan, played),
        "games": games, "deals": deals,
        "points_per_deal": {labels[0]: means[0], labels[1]: means[1]},
        "difference": interval_record(paired),
        # few groups have no bootstrap interval: its resamples are those groups again (one
        # group's, that group; two groups', their range)
        "bootstrap": None if boot is None else interval_record(boot)
        if paired.n >= BOOTSTRAP_GROUPS else {**interval_record(boot), "low": None, "high": None},
        "won": won,
        "times": times,
        "seconds": round(seconds, 6),
        "jobs": None if plan.scheduler is not None else
        workers_for(plan.jobs, plan.groups - resumed),
        "scheduler": plan.scheduler,
    }


# ---- the command --------------------------------------------------------------------------------

def open_record(path: str | None, resume: bool = False) -> TextIO | None:
    """The record file, opened before any play, so that a path that cannot be written is found
    at once; for appending, so that nothing in it is lost before the work can start (the run
    empties it then, or, resumed, cuts it after the groups it keeps)."""
    from .inputs import STDIN, named

    if path is None:
        if resume:
            raise AllFivesError("--resume: goes on from a run's --record FILE: give --record")
        return None
    if path == STDIN:  # '-' is standard input or output elsewhere, never a file named so
        raise AllFivesError("--record: '-' names no file (standard output is the report's: "
                            "give the record a file)")
    if resume:
        try:
            os.stat(path)
        except FileNotFoundError:
            raise AllFivesError(f"--resume: {quoted(path)} is not there: no run to go on from "
                                f"(without --resume the run starts afresh)") from None
        except OSError as error:     # (a name too long, a loop of links, a folder unread)
            raise AllFivesError(f"--resume: {quoted(path)}: {error.strerror}") from None
    if resume and not os.path.isfile(path):
        raise AllFivesError(f"--resume: {quoted(path)} is not a file: a run goes on only from "
                            f"a record written to a file")
    held = None
    if not resume:
        check_target(Path(named(path, "--record")), pipe=True)
        held = _pipe_held(path)
    try:
        out = open(named(path, "--record"), "a" if os.path.isfile(path) else "w",
                   encoding="utf-8")
    except OSError as error:
        raise AllFivesError(f"--record: {shown_path(path)}: {error.strerror or error}") from None
    finally:
        if held is not None:
            os.close(held)
    if not locked(out):
        out.close()
        raise AllFivesError(f"--record: {shown_path(path)}: {HELD}")
    return out


def _pipe_held(path: str) -> int | None:
    """Where ``path`` is a pipe that a program reads already, a writer's end of it, to hold
    until the record's own is open: a reader that saw a writer come and go between the two
    would take it for the record's end.  Where nothing reads it yet, the run says that it waits
    for a reader (to open it for writing waits until one comes)."""
    try:
        if stat.S_ISFIFO(os.stat(path).st_mode):
            return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as error:
        if error.errno == errno.ENXIO:
            note(f"--record: {shown_path(path)} is a pipe that nothing reads yet: waiting for "
                 f"a reader (Ctrl-C stops)")
    return None


def _made_for_nothing(out: TextIO) -> str | None:
    """The file a record this run made (``mode`` ``w``) and wrote nothing into (a scheduler
    that did not answer, Ctrl-C before the first chunk came back), to be taken away again:
    the file itself, where a link named it (the link stays, as it was)."""
    try:
        found = os.fstat(out.fileno())
    except (OSError, ValueError):
        return None
    if out.mode != "w" or not stat.S_ISREG(found.st_mode) or found.st_size or out.tell():
        return None
    return os.path.realpath(out.name)


def resumed(plan: Plan, path: str) -> tuple[list, int, int]:
    """What a run's record FILE holds of the plan: the chunk of its whole groups (as
    ``solver.resume.records_parts`` reads them back, a match at a time), their number, and the
    length in bytes of the file's lines that hold them (a line the run was writing when it
    stopped, or a group not whole, is played again)."""
    from solver.resume import records_parts
    from solver.records import RECORD_START, cut_short, numbered_records

    ends = [0]                  # the byte after each line, by line number
    numbers: list[int] = []     # each record's line

    def lines(file):
        for raw in file:
            if not raw.endswith(b"\n"):
                # cut off as the run stopped, as it wrote a record: a line that does not begin
                # as a record does is no run's (a file with no line end at all, say)
                cut = raw.removeprefix(b"\xef\xbb\xbf") if len(ends) == 1 else raw
                if not cut_short(cut):
                    raise AllFivesError(f"{path}:{len(ends)}: not a record (a line a stopped "
                                        f"run cut short begins {RECORD_START.decode()}...)")
                return
            try:    # (a byte-order mark read as replay reads it)
                line = raw.decode("utf-8-sig" if len(ends) == 1 else "utf-8")
            except UnicodeDecodeError as error:
                mark = 3 if len(ends) == 1 and raw.startswith(b"\xef\xbb\xbf") else 0
                raise AllFivesError(f"{path}: not UTF-8 text (line {len(ends)}, byte "
                                    f"{ends[-1] + mark + error.start})") from None
            ends.append(ends[-1] + len(raw))
            yield line

    def records(file):
        for number, record in numbered_records(lines(file), path):  # (errors: FILE:LINE)
            numbers.append(number)
            yield number, record

    try:
        with open(path, "rb") as file:
            parts, done, used = records_parts(records(file), plan.a, plan.b, plan.players,
                                              plan.seed, rules=plan_rules(plan),
                                              whole_matches=plan.whole_matches,
                                              rotate=not plan.duplicate, source=path)
    except AllFivesError as error:
        raise AllFivesError(f"--resume: {error}" if str(error).startswith(f"{path}:") else
                            f"--resume: {path}: {error}") from None
    if done > plan.groups:
        raise AllFivesError(f"--resume: {path} holds {done} deal groups, more than the "
                            f"{plan.groups} asked for")
    return parts, done, ends[numbers[used - 1]] if used else 0


def record_spelling(plan: Plan, path: str) -> Plan:
    """The plan with A and B spelt as the record of the run resumed spells them, where its
    first game names the same players with their options in another order: the games played
    on are recorded as the first were, so that a record names each player one way.  A record
    that cannot be read so is left for ``resumed`` to say what is wrong with it."""
    from solver.batch import labelled_spec, same_spec, seatings
    from solver.records import json_line
    from solver.tricks import seat_names

    try:
        with open(path, "rb") as file:
            line = next((raw for raw in file if raw.strip()), b"")
        first = json_line(line.decode("utf-8-sig"))
        seated = first["players"]
        kinds = seatings(plan.players)[int(str(first["match"]).split(":")[2])]
        written = [seated[seat] for seat in seat_names(plan.players)]
    except (OSError, ValueError, LookupError, TypeError):
        return plan
    specs = [plan.a, plan.b]
    for kind, name in zip(kinds, written):
        spelt = labelled_spec(name)
        if spelt is not None and same_spec(spelt[0], specs[kind]):
            specs[kind] = spelt[0]
    return replace(plan, a=specs[0], b=specs[1])


def match_command(a: str, b: str, players: int, deals: int | None, matches: int | None,
                  duplicate: bool, preset: str, target: int | None, seed: int | None,
                  jobs: int | None, scheduler: str | None, record: str | None,
                  as_json: bool, resume: bool = False) -> None:
    from .inputs import is_standard_output
    from .status import reading

    plan = make_plan(a, b, players, deals, matches, duplicate, preset, target, seed, jobs,
                     scheduler)
    if record is not None and is_standard_output(record):
        raise AllFivesError(f"--record {record}: the report{' (--json)' if as_json else ''} "
                            f"goes there too (it is standard output), the record's lines would "
                            f"come among its lines: give the record a file")
    if resume and deals is None and matches is None:
        # (the default 100 would lengthen a shorter run, a guess no longer to be undone)
        raise AllFivesError("--resume: give the run's --deals N or --matches N, as its 'Go on' "
                            "line does: the number of groups is the run's own")
    out = open_record(record, resume)
    keeper = Keeper(plan, out)
    done = keep = 0
    if resume:
        assert record is not None and out is not None     # (open_record refuses else)
        # every game of the record is replayed by the rules: a few seconds for thousands
        try:
            plan = keeper.plan = record_spelling(plan, record)
            with reading(f"reading back {record}", not as_json):
                parts, done, keep = resumed(plan, record)
                keeper.parts = [without_records(part, plan.whole_matches) for part in parts]
        except BaseException:       # a record refused, or Ctrl-C: its file and lock let go
            out.close()
            raise
        keeper.resumed = done
    if out is not None and out.mode == "a":     # a file there before: the run's once it plays
        keeper.cut = keep
    start = clock.now()
    try:
        with executor_of(None if jobs is None else workers_for(jobs, plan.groups - done),
                         scheduler) as executor:
            start = clock.now()
            _play_shown(plan, executor, out is not None, keeper, done, bar=not as_json)
            seconds = clock.now() - start
            result = keeper.result(seconds)
            keeper.settle()
    except (KeyboardInterrupt, WorkersLost, OSError) as error:
        # Ctrl-C, work lost with a worker, or the record that could not be written: what the
        # groups finished so far show, then the interrupt, the loss or the error goes on up
        if isinstance(error, OSError) and not keeper.failed:
            raise
        # (the heading says what stopped the run: Ctrl-C, SIGTERM, or the loss or error)
        word = stopped_by(error) if isinstance(error, KeyboardInterrupt) else "stopped"
        if any(keeper.parts):     # (a record read back may hold no whole group)
            seconds = clock.now() - start
            with signals_held():    # (a second Ctrl-C, close behind the first, waits for it)
                show(summary(plan, keeper.result(seconds), seconds, keeper.resumed, record,
                             times=keeper.time_summaries(),
                             bootstrap=False), as_json, word)
        elif not as_json and isinstance(error, KeyboardInterrupt):
            from rich.text import Text

            from .console import make_console

            asked = "the one group asked for was not" if plan.groups == 1 else \
                f"none of the {plan.groups:,} groups asked for was"
            make_console(None).print(Text(f"{word}: {asked} finished, so there is "
                                          f"nothing to report", style="bold"), soft_wrap=True)
        raise
    finally:
        if out is not None:
            made = _made_for_nothing(out)
            if made is not None:       # (taken away while its lock is still held)
                with contextlib.suppress(OSError):
                    os.remove(made)
            try:
                out.close()
            except OSError as error:  # what was left to write: a full disk names no file
                raise unwritten(error, out.name) from None
    try:
        # (the bootstrap of a large run takes a while: a line says so on a terminal, and
        # elsewhere a note, where the groups are many)
        from .console import on_terminal

        groups = len(result.group_shares() if plan.whole_matches else result.groups)
        if (as_json or not on_terminal(sys.stderr)) and groups >= NOTED_BOOTSTRAP:
            note(f"working out the bootstrap interval over {counted(groups, 'deal group')} "
                 f"(a second for every 5,000 or so)")
        with reading("working out the bootstrap interval", not as_json):
            found = summary(plan, result, seconds, keeper.resumed, record,
                            times=keeper.time_summaries())
    except KeyboardInterrupt as stop:
        # every group was played: the report without the bootstrap, then the interrupt
        with signals_held():
            show(summary(plan, result, seconds, keeper.resumed, record, bootstrap=False,
                         times=keeper.time_summaries()),
                 as_json, stopped_by(stop))
        raise
    show(found, as_json)


#: Off a terminal (a run under nohup, a batch job's log), a line on how far the run is at most
#: this often, in seconds.
PROGRESS_EVERY = 60.0


class Ticker:
    """Off a terminal, a line on standard error at most every ``PROGRESS_EVERY`` seconds: the
    groups done of those asked for, and the time gone and (at that pace) left."""

    def __init__(self, plan: Plan, first: int) -> None:
        self.plan, self.first = plan, first
        self.start = self.last = clock.now()

    def __call__(self, done: int, total: int) -> None:
        now = clock.now()
        if now - self.last < PROGRESS_EVERY or done == total:
            return
        self.last = now
        groups = self.plan.groups - self.first
        played = round(groups * done / total)
        left = (now - self.start) * (groups - played) / max(played, 1)
        print(f"allfives match: {self.first + played:,} of {self.plan.groups:,} deal groups, "
              f"{_minutes(now - self.start)} gone, about {_minutes(left)} left",
              file=sys.stderr, flush=True)


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 100 else f"{seconds / 60:.0f} min"


def _play_shown(plan: Plan, executor: Executor, keep_records: bool, on_part=None,
                first: int = 0, bar: bool = True):
    """Play with a progress bar on standard error on a terminal (``bar``), and off one a line
    now and then."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
        TimeElapsedColumn, TimeRemainingColumn

    from .console import cursor_back_when_stopped, make_console

    errors = make_console(None, stderr=True)
    if not bar or not errors.is_terminal:
        return play(plan, executor, keep_records, Ticker(plan, first), on_part, first)
    shown = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                     TimeElapsedColumn(), TimeRemainingColumn(), console=errors,
                     transient=True, get_time=clock.now)
    with cursor_back_when_stopped(), shown:
        task = shown.add_task("deal groups", total=plan.groups, completed=first)
        def advance(done: int, total: int) -> None:
            shown.update(task, completed=first + round((plan.groups - first) * done / total))

        return play(plan, executor, keep_records, advance, on_part, first)
