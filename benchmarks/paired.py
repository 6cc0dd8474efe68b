"""Two duplicate runs against the same opponent compared group by group (README, "The Monte
Carlo player": the "group by group" differences).

Each FILE is the ``--record`` of one ``allfives match A B --duplicate`` run, both with the same
``--deals``, ``--players`` and ``--seed`` (so the same packs) and the same B.  For each deal
group, A's side's points less B's, summed over the group's seatings and divided by their number
(the score of each seating's last record, so that a deal thrown in and dealt again counts
once), as ``match`` reports it; prints each run's mean with its 95% interval, then the mean of
the first run's difference less the second's over the groups both played, group by group,
with its paired t interval.  Runs dealt other packs are refused.  With ``--by-calls`` the
groups are also split by how the first deal of each was called (``stand``, ``take-one``, or
``run`` when the dealer ran the pack), each part's group-by-group difference on a line of its
own: with four players the deals after a run, a sixth of them, hold most of the variance.
Several pairs of runs (each pair on its own packs: another ``--seed``, say) are compared pair by
pair, then pooled: each side's runs against their B, then the group-by-group differences,
every pair's groups together as one sample.

    python benchmarks/paired.py FIRST SECOND [FIRST SECOND ...] [--by-calls]
"""
import json
import sys
from collections import defaultdict

from solver.stats import mean_interval


def group_differences(path):
    """A's name, {group: A's points less B's, a deal} and {group: its table, rules, first
    pack and how its first deal was called}, A being the player in the first seat of the run's
    first record (every table seats A there first)."""
    last = {}                   # (group, seating): the seating's last record, its score final
    packs = {}
    with open(path, encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    first = records[0]["players"][next(iter(records[0]["players"]))]
    for record in records:
        _, group, seating = record["match"].split(":")
        last[group, seating] = record
        packs.setdefault(group, (len(record["players"]), record["rules"], record["pack"],
                                 called(record["actions"])))
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
    return first, {g: sums[g] / seatings[g] for g in sums}, packs


def called(actions):
    """How a deal was called: ``run`` if the dealer ran the pack, else the last call."""
    calls = [a.split(":")[1] for a in actions
             if a.split(":")[1] in ("stand", "beg", "take-one", "run")]
    return "run" if "run" in calls else calls[-1]


def show(label, values):
    interval = mean_interval(values, 0.95)
    print(f"{label}: {interval.mean:+.3f} ({interval.low:+.3f} .. {interval.high:+.3f}), "
          f"{len(values)} groups")


def paired(first, second, alone):
    """Each run's mean, then first less second group by group (split by the calls with
    ``by_calls``): the differences of the groups both played, with their first deal's calls.
    Each run's own differences (A's points less B's) go on the lists in ``alone``."""
    (name_a, one, packs_one), (name_b, two, packs_two) = (group_differences(path)
                                                          for path in (first, second))
    show(f"{name_a} ({first})", list(one.values()))
    show(f"{name_b} ({second})", list(two.values()))
    alone[0].extend(one.values())
    alone[1].extend(two.values())
    common = sorted(set(one) & set(two), key=int)
    unlike = [g for g in common if packs_one[g][:3] != packs_two[g][:3]]
    if unlike:
        sys.exit(f"paired.py: group {unlike[0]} was played at another table, by other rules or "
                 f"with other cards in the two runs: not the same --players, --rules or --seed")
    return [(one[g] - two[g], packs_one[g][3]) for g in common]


def show_differences(label, differences, by_calls):
    show(label, [d for d, _ in differences])
    for kind in ("stand", "take-one", "run") if by_calls else ():
        part = [d for d, called_as in differences if called_as == kind]
        if part:
            show(f"  first deal {kind}", part)


def main(argv):
    by_calls = "--by-calls" in argv
    paths = [a for a in argv if a != "--by-calls"]
    if len(paths) < 2 or len(paths) % 2:
        sys.exit("paired.py: give the runs in pairs: FIRST SECOND [FIRST SECOND ...]")
    pooled, alone = [], ([], [])
    for k in range(0, len(paths), 2):
        differences = paired(paths[k], paths[k + 1], alone)
        show_differences("first less second, group by group", differences, by_calls)
        pooled += differences
    if len(paths) > 2:
        show("the first runs pooled, each against its B", alone[0])
        show("the second runs pooled, each against its B", alone[1])
        show_differences(f"pooled over the {len(paths) // 2} pairs, group by group", pooled,
                         by_calls)


if __name__ == "__main__":
    main(sys.argv[1:])
