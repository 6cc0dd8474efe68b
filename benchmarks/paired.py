"""Two duplicate runs against the same opponent compared group by group (README, "The Monte
Carlo player": the "group by group" differences).

Each FILE is the ``--record`` of one ``allfives match A B --duplicate`` run, both with the same
``--deals``, ``--players`` and ``--seed`` (so the same packs) and the same B.  For each deal
group, A's side's points less B's, summed over the group's seatings and divided by their number
(the score of each seating's last record, so that a deal thrown in and dealt again counts
once), as ``match`` reports it; prints each run's mean with its 95% interval, then the mean of
the first run's difference less the second's over the groups both played, group by group,
with its paired t interval.  Runs dealt other packs are refused.  With ``--by-calls`` the
groups are also split by how the heuristic's rules call the first deal of each (``stand``,
``take-one``, or ``run`` when the dealer runs the pack), each part's group-by-group difference
on a line of its own: with four players the deals after a run, a sixth of them, hold most of
the variance.  Those calls depend on the pack alone, so the split is the same in every run,
whoever called the deals there (split by the players' own calls, a player that calls
otherwise would choose its own groups).
Several pairs of runs (each pair on its own packs: another ``--seed``, say; a group dealt in two
pairs is refused) are compared pair by pair, then pooled: each side's runs against their B,
then the group-by-group differences, every pair's groups together as one sample.

    python benchmarks/paired.py FIRST SECOND [FIRST SECOND ...] [--by-calls]
    python benchmarks/paired.py RUN [--by-calls]

Given one run alone, its mean and interval group by group (a run stopped before its end too).
A file that is not such a record (each game is held to the run as ``match --resume`` holds
it: runs of two seeds joined in one file, a game's players swapped or a group not whole before
the last are not one run's), a run of whole matches (``--matches``), or two runs whose
``--duplicate`` or packs differ is one line on standard error and status 1, with nothing
shown; two runs against different Bs, or of different numbers of groups, are compared with a
note on standard error.
"""
import os
import re
import sys
from collections import defaultdict

from solver.errors import AllFivesError
from solver.game import action_name
from solver.players import HeuristicPlayer
from solver.registry import register_player
from solver.batch import seatings
from solver.resume import records_parts
from solver.records import RECORD_START, Records, cut_short, deal_opening, numbered_records, \
    record_lines
from solver.rules import MAX_TARGET
from solver.stats import mean_interval

# sighted.py's yardsticks are players of that script alone: their runs are read as any run's
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sighted import foresight, sighted  # noqa: E402

register_player("sighted", sighted)
register_player("foresight", foresight)

KEYS = ("match", "players", "rules", "pack", "actions", "score")


#: Notes on standard error, said once every run is read and found to pair (a run refused
#: after them would have said more than its one line).
NOTES = []


def fail(message):
    sys.exit(f"paired.py: {message}")


def note(message):
    NOTES.append(f"paired.py: {message}")


def notes_said():
    for message in NOTES:
        print(message, file=sys.stderr)
    NOTES.clear()


def read_run(path):
    """The game records of a ``match --record`` file of ``--deals``, each line checked, and
    each match played again by the rules (a score edited by hand is found, as ``match
    --resume`` and ``replay`` find it)."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        fail(f"{path}: {error.strerror or error}")
    except UnicodeDecodeError:
        fail(f"{path}: not UTF-8 text")
    lines = record_lines(text)
    if lines and not text.endswith("\n"):
        # the last line, cut short as the run was stopped, as --resume reads it: a line that
        # does not begin as a record does is no run's
        if not cut_short(lines[-1].removeprefix("\ufeff").encode("utf-8")):
            fail(f"{path}:{len(lines)}: not a record (a line a stopped run cut short begins "
                 f"{RECORD_START.decode()}...)")
        lines.pop()
        note(f"{path}: its last line, cut short as the run was stopped, left out")
    records = Records()
    records.lines = []
    try:
        for number, record in numbered_records(lines, path):
            if any(key not in record for key in KEYS):
                fail(f"{path}:{number}: not a game record (JSON lines of 'allfives match "
                     f"--record')")
            name = str(record["match"]).split(":")
            if len(name) != 3 or not all(part.isdigit() for part in name):
                fail(f"{path}:{number}: game {record['match']!r} is not of 'allfives match "
                     f"--record' (its games are named SEED:GROUP:SEATING)")
            if record["rules"].get("target") != MAX_TARGET:
                fail(f"{path}:{number}: a game of whole matches (--matches): paired.py "
                     f"compares runs of --deals")
            records.append(record)
            records.lines.append(number)
    except AllFivesError as error:
        fail(str(error))
    if not records:
        fail(f"{path}: no game records in it")
    used = run_records(records, path)
    if not used:
        fail(f"{path}: no whole group in it (a run stopped in its first group)")
    if used < len(records):     # (one group at most: one past it is refused)
        group = records[used]["match"].split(":")[1]
        note(f"{path}: group {group} not whole left out (a run stopped before its end)")
    return records[:used]


def run_records(records, path):
    """How many of the first ``records`` hold whole groups of one run, each record checked
    against the run as ``match --resume`` checks it (``solver.resume.records_parts``: the seed
    of every game, its seating, its players in their seats, its rules) and each match played
    again by the rules (a score edited by hand is found).  The run's A is the player in the
    first seat of the first record, B the other; it is ``--duplicate`` unless every group was
    played in the one seating that a run without it gives that group."""
    seed = records[0]["match"].split(":")[0]
    seats = list(records[0]["players"])
    names = [kind(name) for name in records[0]["players"].values()]
    a = names[0]
    b = next((name for name in names[1:] if name != a), a)
    table = {}
    for record in records:
        group, seating = (int(part) for part in record["match"].split(":")[1:])
        table.setdefault(group, set()).add(seating)
    # (a run stopped in its first group's first seating reads as one without --duplicate)
    rotate = all(played == {group % len(seatings(len(seats)))} for group, played in table.items())
    try:
        rules = deal_opening(records[0]).match.rules
        _, _, used = records_parts(list(zip(records.lines, records)), a, b, len(seats), seed,
                                   rules=rules, rotate=rotate, source=path)
    except AllFivesError as error:
        fail(str(error) if str(error).startswith(f"{path}:") else f"{path}: {error}")
    return used


def group_differences(path):
    """A's name, {group: A's points less B's, a deal} and {group: its table, rules, first
    pack and how its first deal was called}, A being the player in the first seat of the run's
    first record (every table seats A there first); then B's name and the seatings of each
    group."""
    last = {}                   # (group, seating): the seating's last record, its score final
    packs = {}
    records = read_run(path)
    first = records[0]["players"][next(iter(records[0]["players"]))]
    others = {name for record in records for name in record["players"].values()} - {first}
    for record in records:
        _, group, seating = record["match"].split(":")
        last[group, seating] = record
        if group not in packs:
            packs[group] = (len(record["players"]), record["rules"], record["pack"],
                            called_by_rule(record, path))
    sums = defaultdict(float)
    seatings = defaultdict(int)
    for (group, _), record in last.items():
        players = record["players"]
        # a side is named by its seats' letters (NS, EW), or is one seat
        mine = {side: first in {players[seat] for seat in side} for side in record["score"]}
        a = [p for side, p in record["score"].items() if mine[side]]
        b = [p for side, p in record["score"].items() if not mine[side]]
        sums[group] += sum(a) / len(a) - sum(b) / len(b)
        seatings[group] += 1
    second = ", ".join(sorted(others)) or first
    return first, {g: sums[g] / seatings[g] for g in sums}, packs, second, \
        {seatings[g] for g in sums}


def kind(name):
    """A player's name without the ``(A)`` or ``(B)`` that tells self-play's two apart."""
    return re.sub(r" \((A|B)\)$", "", name)


def called_by_rule(record, path):
    """How the heuristic's rules call the deal a match's first record deals: ``run`` if the
    dealer runs the pack, else the last call (``stand`` or ``take-one``)."""
    try:
        state = deal_opening(record)
    except AllFivesError as error:
        fail(f"{path}: game {record['match']}: {error}")
    heuristic, calls = HeuristicPlayer(), []
    while state.phase in ("elder", "dealer"):  # a deal thrown in waits for a pack
        action = heuristic.act(state.observation(state.current_player()))
        calls.append(action_name(action))
        state.apply_action(action)
    return "run" if "run" in calls else calls[-1]


def show(label, values):
    if not values:
        print(f"{label}: no whole group")
        return
    interval = mean_interval(values, 0.95)
    if len(values) < 2:
        print(f"{label}: {interval.mean:+.3f} (one group: no interval), 1 group")
        return
    print(f"{label}: {interval.mean:+.3f} ({interval.low:+.3f} .. {interval.high:+.3f}), "
          f"{len(values)} groups")


def paired(first, second, alone):
    """First less second group by group: the differences of the groups both played, with
    their first deal's calls; their first packs; and each run's own differences (A's points
    less B's) under its label, to show.  These go on the lists in ``alone`` too."""
    if os.path.exists(first) and os.path.exists(second) and os.path.samefile(first, second):
        note(f"{first} and {second} are the same file: a run less itself is nothing")
    (name_a, one, packs_one, b_one, tables_one), (name_b, two, packs_two, b_two, tables_two) \
        = (group_differences(path) for path in (first, second))
    if kind(b_one) != kind(b_two):     # a difference of differences still: said, not refused
        note(f"{first} is against {b_one}, {second} against {b_two}: not the same B")
    if tables_one != tables_two:
        def seatings_words(tables):
            return " or ".join(f"{n} seating{'s' if n != 1 else ''}" for n in sorted(tables))
        fail(f"{first} plays each group in {seatings_words(tables_one)}, {second} in "
             f"{seatings_words(tables_two)}: one run is --duplicate, the other not")
    if set(one) != set(two):
        note(f"{first} has {len(one)} groups, {second} {len(two)}: compared over the "
             f"{len(set(one) & set(two))} both played")
    alone[0].extend(one.values())
    alone[1].extend(two.values())
    common = sorted(set(one) & set(two), key=int)
    unlike = [g for g in common if packs_one[g][:3] != packs_two[g][:3]]
    if unlike:
        fail(f"group {unlike[0]} was played at another table, by other rules or with other "
             f"cards in {first} and {second}: not the same --players, --rules or --seed")
    shown = [(f"{name_a} ({first})", list(one.values())),
             (f"{name_b} ({second})", list(two.values()))]
    return [(one[g] - two[g], packs_one[g][3]) for g in common], \
        {tuple(packs_one[g][2]): g for g in common}, shown


def show_differences(label, differences, by_calls):
    show(label, [d for d, _ in differences])
    for kind in ("stand", "take-one", "run") if by_calls else ():
        part = [d for d, called_as in differences if called_as == kind]
        if part:
            show(f"  first deal {kind}", part)


def main(argv):
    NOTES.clear()
    if {"-h", "--help"} & set(argv):     # (the notes above say how to run it)
        print(__doc__.strip())
        return
    by_calls = "--by-calls" in argv
    paths = [a for a in argv if a != "--by-calls"]
    for arg in paths:
        if arg.startswith("--"):
            fail(f"unknown option {arg} (the one option is --by-calls)")
    if len(paths) == 1:
        name, one, packs, b, _ = group_differences(paths[0])
        notes_said()
        show_differences(f"{name} less {b} ({paths[0]})",
                         [(one[g], packs[g][3]) for g in sorted(one, key=int)], by_calls)
        return
    if not paths or len(paths) % 2:
        fail("give one run, or runs in pairs: FIRST SECOND [FIRST SECOND ...]")
    pooled, alone = [], ([], [])
    dealt = {}      # each group's first pack: the pair and group that played it
    shown = []      # what to show, once every pair is read and found to pair
    for k in range(0, len(paths), 2):
        differences, packs, runs = paired(paths[k], paths[k + 1], alone)
        shown += [lambda label=label, values=values: show(label, values)
                  for label, values in runs]
        again = next((pack for pack in packs if pack in dealt), None)
        if again is not None:
            pair, group = dealt[again]
            fail(f"pairs {pair} and {k // 2 + 1} both hold deal group {group}'s packs (as group "
                 f"{packs[again]}): pooled, it would count twice; give each pair packs of its "
                 f"own (another --seed)")
        dealt.update((pack, (k // 2 + 1, group)) for pack, group in packs.items())
        shown.append(lambda differences=differences: show_differences(
            "first less second, group by group", differences, by_calls))
        pooled += differences
    if len(paths) > 2:
        shown += [lambda: show("the first runs pooled, each against its B", alone[0]),
                  lambda: show("the second runs pooled, each against its B", alone[1]),
                  lambda: show_differences(f"pooled over the {len(paths) // 2} pairs, group "
                                           f"by group", pooled, by_calls)]
    notes_said()
    for told in shown:
        told()


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:
        print("paired.py: interrupted", file=sys.stderr)
        sys.exit(130)
