"""The played-out choice against the heuristic's card (README, "The Monte Carlo player").

At decisions taken at random points of deals played by the heuristic, the seat's card of best
mean over 16 worlds played out (``solver.playout``) and the heuristic's card are each judged by
their mean double-dummy value over 64 fresh worlds of what the seat sees (the Monte Carlo
player's own yardstick); prints the mean difference with its 95% interval.  With ``--solved K``
the played-out card is judged against the card of best mean over K worlds solved double-dummy
instead (a decision on deep hands that solved only K worlds within its budget), ties going to
the heuristic's card.

    python benchmarks/playout_choice.py PLAYERS DECISIONS [RUNS] [--solved K]
"""
import math
import random
import sys

from solver.shuffle import shuffle_deal
from solver.rules import Rules
from solver.game import observation_of
from solver.players import HeuristicPlayer, deal_objective
from solver.playout import played_out_values
from solver import sampling
from solver.search import Solver

words = sys.argv[1:]
if {"-h", "--help"} & set(words):     # (the notes above say how to run it)
    print(__doc__.strip())
    sys.exit(0)
solved = 0
if len(words) >= 2 and words[-2] == "--solved" and words[-1].isdigit() and int(words[-1]) > 0:
    solved = int(words.pop())
    words.pop()
if not 2 <= len(words) <= 3 or not all(w.isdigit() for w in words):
    sys.exit("playout_choice.py: usage: playout_choice.py PLAYERS DECISIONS [RUNS] [--solved K] "
             "(whole numbers, K from 1)")
players, count = int(words[0]), int(words[1])
runs = int(words[2]) if len(words) > 2 else 0
if players not in (2, 3, 4) or count < 2 or runs > Rules().max_runs:
    sys.exit(f"playout_choice.py: PLAYERS is 2, 3 or 4, DECISIONS 2 or more and RUNS 0 to "
             f"{Rules().max_runs}, not {' '.join(words)}")
rng = random.Random(f"proxy{players}{runs}")
heuristic = HeuristicPlayer()
solver = Solver()
objective = deal_objective(players)
diffs, agree = [], 0
while len(diffs) < count:
    deal = shuffle_deal(rng, players, runs, Rules())
    p = deal.position()
    # a decision point some cards into a heuristic-played deal
    stop = rng.randrange(0, players * (len(deal.hands[0]) - 2))
    for _ in range(stop):
        p = p.after(heuristic.act(observation_of(p, p.to_move)))
    legal = p.legal_moves()
    if len(legal) < 2:
        continue
    seat = p.to_move
    side = seat % 2 if players == 4 else seat
    obs = observation_of(p, seat)
    ws = sampling.sample_worlds(obs, 16, rng)
    pos = [sampling.world_position(obs, w) for w in ws]
    vals, kept = played_out_values(pos, [1.0] * len(pos), legal, side, (objective,))
    mean = {c: sum(vals[objective][c]) / len(kept) for c in legal}
    rolled = max(legal, key=lambda c: (mean[c], c == heuristic.act(obs)))
    heur = heuristic.act(obs)
    if solved:      # the card of best mean over the few worlds solved instead
        few = {c: 0.0 for c in legal}
        for w in sampling.sample_worlds(obs, solved, rng):
            sol = solver.solve(sampling.world_position(obs, w), side, objective, line=False)
            for c in legal:
                few[c] += sol.moves[c]
        heur = max(legal, key=lambda c: (few[c], c == heur))
    if rolled == heur:
        agree += 1
        diffs.append(0.0)
        continue
    judge = sampling.sample_worlds(obs, 64, rng)
    tot = {rolled: 0.0, heur: 0.0}
    for w in judge:
        sol = solver.solve(sampling.world_position(obs, w), side, objective, line=False)
        for c in tot:
            tot[c] += sol.moves[c]
    diffs.append((tot[rolled] - tot[heur]) / len(judge))
n = len(diffs)
m = sum(diffs) / n
sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1))
other = f"solved over {solved}" if solved else "heuristic"
print(f"{players}p runs={runs}: {n} decisions, same card {agree}; played-out minus {other} "
      f"(DD mean over 64 worlds) {m:+.3f} ({m - 1.96*sd/math.sqrt(n):+.3f} .. {m + 1.96*sd/math.sqrt(n):+.3f})")
