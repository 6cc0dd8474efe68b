"""How often the advice's 95% interval covers the mean over every world (README, "The Monte
Carlo player").

At positions late in deals the heuristic plays from 0-0 (the seat to play holding 2 or 3
cards, with 256 to 300,000 consistent worlds), every consistent world is listed and solved:
each legal card's true mean over them.  Then SAMPLES times for each K, K worlds drawn at random
among them (no repeats, no weights) are summed up by ``solver.advice.summarize`` as the player
sums them up, and each card's interval is checked against its true mean; and again as the
intervals were before a card that every world drawn gave one value had no point for its
interval.  Prints for each K the share of intervals that cover (each position's share, the
positions averaged, with a 95% interval over them), where an interval not known (NaN) counts
as covering, and the share not known.

    python benchmarks/interval_coverage.py PLAYERS POSITIONS [K ...] [--samples S] [--remedies]

K defaults to 16, 32 and 128 (64 with four players), SAMPLES to 20.  With ``--remedies``, for
the same samples, the coverage of two remedies that were measured and not kept, and how much
wider their intervals are than the player's (the sum of the widths known): Johnson's
correction for skewness (the interval moved by the third moment over 6 s^2 n), and an interval
never narrower than the rule of three's (the widest spread of any card's values times
1 - 0.05^(1/n)), or than that of the card's own spread where it has one.
"""
import math
import random
import sys

from solver.advice import summarize
from solver.game import Match
from solver.players import HeuristicPlayer, deal_objective
from solver.sampling import sample_worlds, world_positions
from solver.search import Solver
from solver.stats import mean_interval

LEAST_WORLDS, MOST_WORLDS = 256, 300_000

words = sys.argv[1:]
if {"-h", "--help"} & set(words):     # (the notes above say how to run it)
    print(__doc__.strip())
    sys.exit(0)
samples = 20
remedies = "--remedies" in words
words = [w for w in words if w != "--remedies"]
if "--samples" in words:
    at = words.index("--samples")
    given = words[at + 1:at + 2]
    if not given or not given[0].isdigit() or int(given[0]) < 1:
        sys.exit("interval_coverage.py: --samples takes a whole number from 1")
    samples = int(given[0])
    del words[at:at + 2]
if len(words) < 2 or not all(w.isdigit() for w in words):
    sys.exit("interval_coverage.py: usage: interval_coverage.py PLAYERS POSITIONS [K ...] "
             "[--samples S] [--remedies] (whole numbers)")
players, count = int(words[0]), int(words[1])
ks = [int(w) for w in words[2:]] or [16, 32, 64 if players == 4 else 128]
if players not in (2, 3, 4) or count < 2 or not all(2 <= k <= LEAST_WORLDS for k in ks):
    sys.exit(f"interval_coverage.py: PLAYERS is 2, 3 or 4, POSITIONS 2 or more and each K 2 to "
             f"{LEAST_WORLDS}, not {' '.join(words)}")

heuristic = HeuristicPlayer()
solver = Solver()
objective = deal_objective(players)


def late_position(rng: random.Random):
    """The observation of the seat to play once it holds 2 or 3 cards, in a deal the heuristic
    plays from 0-0; None where the deal ends first."""
    state = Match(players=players).new_initial_state(seed=rng.random())
    held = rng.choice((2, 3))
    while not state.is_terminal():
        if state.phase == "play" and len(state.hands[state.current_player()]) == held:
            return state.observation(state.current_player())
        if state.phase == "play" and min(map(len, state.hands)) < held:
            return None
        state.apply_action(heuristic.act(state.observation(state.current_player())))
        if state.deal_number > 1:
            return None
    return None


def true_values(seen):
    """Every legal card's value in each consistent world, or None where the worlds are too few
    or too many."""
    if not LEAST_WORLDS <= sample_worlds(seen, 1, random.Random(0)).total <= MOST_WORLDS:
        return None         # (counted, not drawn)
    worlds = sample_worlds(seen, MOST_WORLDS, random.Random(0), exact_limit=MOST_WORLDS)
    side = seen.seat % 2 if players == 4 else seen.seat
    values = {c: [] for c in seen.legal_actions}
    for position in world_positions(seen, list(worlds)):
        moves = solver.solve(position, side=side, objective=objective, line=False).moves
        for c in values:
            values[c].append(float(moves[c]))
    return values


def point_where_alike(row, summed):
    """An interval as it was: a point where every world gave the card one value."""
    mean, low, high, best = summed
    return (mean, mean, mean, best) if max(row) == min(row) else (mean, low, high, best)


def skew_corrected(row, summed):
    """Johnson's interval: the t interval moved by mu3 / (6 s^2 n)."""
    mean, low, high, best = summed
    n = len(row)
    if math.isnan(low) or max(row) == min(row):
        return summed
    third = sum((v - mean) ** 3 for v in row) / n
    shift = third / (6 * (sum((v - mean) ** 2 for v in row) / (n - 1)) * n)
    return (mean, low + shift, high + shift, best)


def at_least(summed, n, spread):
    """The interval made no narrower than the rule of three's over ``spread``."""
    mean, low, high, best = summed
    if math.isnan(low):
        return summed
    half = max((high - low) / 2, (1 - 0.05 ** (1 / n)) * spread)
    return (mean, mean - half, mean + half, best)


def covers(summed, truth) -> bool:
    """Whether the interval covers the true mean (one not known counts as covering)."""
    _, low, high, _ = summed
    return math.isnan(low) or low - 1e-9 <= truth <= high + 1e-9


def width(summed) -> float:
    _, low, high, _ = summed
    return 0.0 if math.isnan(low) else high - low


REMEDIES = ("skewness", "floor", "own floor")
rng = random.Random(f"coverage{players}")
shares = {k: ([], [], []) for k in ks}     # per position: covered now, before, not known now
tried = {k: {name: [] for name in REMEDIES} for k in ks}    # per position: covered
widths = {k: {name: 0.0 for name in ("now", *REMEDIES)} for k in ks}
found = 0
while found < count:
    seen = late_position(rng)
    if seen is None or len(seen.legal_actions) < 2:
        continue
    values = true_values(seen)
    if values is None:
        continue
    found += 1
    cards = list(values)
    truth = {c: math.fsum(values[c]) / len(values[c]) for c in cards}
    for k in ks:
        covered = before = unknown = 0
        remedied = dict.fromkeys(REMEDIES, 0)
        for _ in range(samples):
            drawn = rng.sample(range(len(values[cards[0]])), k)
            rows = [[values[c][i] for i in drawn] for c in cards]
            spread = max(map(max, rows)) - min(map(min, rows))
            for c, row, summed in zip(cards, rows, summarize(rows, [1.0] * k, exact=False)):
                if remedies:
                    widths[k]["now"] += width(summed)
                    for name, other in zip(REMEDIES, (
                            skew_corrected(row, summed), at_least(summed, k, spread),
                            at_least(summed, k, (max(row) - min(row)) or spread))):
                        remedied[name] += covers(other, truth[c])
                        widths[k][name] += width(other)
                unknown += math.isnan(summed[1])
                covered += covers(summed, truth[c])
                before += covers(point_where_alike(row, summed), truth[c])
        items = samples * len(cards)
        for kept, n in zip(shares[k], (covered, before, unknown)):
            kept.append(n / items)
        for name in REMEDIES:
            tried[k][name].append(remedied[name] / items)
print(f"{players} players, {count} positions, {samples} samples of K worlds each")
print("   K   covered now          covered before       not known now")
for k in ks:
    now, then, unknown = (mean_interval(s) for s in shares[k])
    print(f"{k:4d}   {now.mean:6.1%} ({now.low:.1%} .. {now.high:.1%})   "
          f"{then.mean:6.1%} ({then.low:.1%} .. {then.high:.1%})   {unknown.mean:6.1%}")
if remedies:
    print("   K   remedy      covered              width over now's")
    for k in ks:
        for name in REMEDIES:
            got = mean_interval(tried[k][name])
            ratio = (f"{widths[k][name] / widths[k]['now']:.3f}" if widths[k]["now"]
                     else "n/a")        # (every interval not known or a point)
            print(f"{k:4d}   {name:<10}  {got.mean:6.1%} ({got.low:.1%} .. {got.high:.1%})   "
                  f"{ratio}")
