"""How much a decision gains from more worlds (README, "The Monte Carlo player": how many
worlds).

At decisions of deals played by the heuristic (the first lead of each deal with ``first``,
else a decision at a random point of it), the card of best double-dummy mean over FEW worlds
and the card of best mean over MANY worlds (ties to the heuristic's card), each over worlds
of its own, are judged by their mean double-dummy value over JUDGE fresh worlds of what the
seat sees; prints how often they were the same card and the mean gain of MANY over FEW with
its 95% interval.  A yardstick of the worlds' noise alone: the deals are dealt with their
trumps named (no calls), the worlds drawn as ``advise`` draws them (no inference from the
cards), and each solved with no budget.

    python benchmarks/worlds_choice.py PLAYERS DECISIONS FEW MANY JUDGE [first]
"""
import random
import sys
import time

from solver import sampling
from solver.game import observation_of
from solver.players import HeuristicPlayer, deal_objective
from solver.rules import Rules
from solver.search import Solver
from solver.shuffle import shuffle_deal
from solver.stats import mean_interval
from solver.tricks import side_of


def means(observation, cards, count, rng, solver, objective):
    """Each card's mean double-dummy value for the seat's side over ``count`` worlds."""
    side = side_of(observation.seat, observation.players)
    totals = dict.fromkeys(cards, 0.0)
    worlds = sampling.sample_worlds(observation, count, rng)
    for world in worlds:
        solved = solver.solve(sampling.world_position(observation, world), side, objective,
                              line=False)
        for card in cards:
            totals[card] += solved.moves[card]
    return {card: total / len(worlds) for card, total in totals.items()}


def gains(players, decisions, few, many, judge, first, seed="worlds"):
    """The gain of MANY worlds' card over FEW's at each decision (0 where they agree), and at
    how many they agreed."""
    rng = random.Random(f"{seed}/{players}/{few}/{many}/{first}")
    heuristic, solver = HeuristicPlayer(), Solver()
    objective = deal_objective(players)
    out, same = [], 0
    while len(out) < decisions:
        position = shuffle_deal(rng, players, 0, Rules()).position()
        stop = 0 if first else rng.randrange(players * (len(position.hands[0]) - 2))
        for _ in range(stop):
            position = position.after(heuristic.act(observation_of(position,
                                                                     position.to_move)))
        legal = position.legal_moves()
        if len(legal) < 2:
            continue
        observation = observation_of(position, position.to_move)
        own = heuristic.act(observation)
        picked = [max(legal, key=lambda c, m=m: (m[c], c == own))
                  for m in (means(observation, legal, count, rng, solver, objective)
                            for count in (few, many))]
        if picked[0] == picked[1]:
            out.append(0.0)
            same += 1
            continue
        judged = means(observation, picked, judge, rng, solver, objective)
        out.append(judged[picked[1]] - judged[picked[0]])
    return out, same


def main(argv):
    if {"-h", "--help"} & set(argv):     # (the notes above say how to run it)
        print(__doc__.strip())
        return
    words = list(argv)
    first = bool(words) and words[-1] == "first"
    if first:
        words.pop()
    if len(words) != 5 or not all(w.isdigit() for w in words):
        sys.exit("worlds_choice.py: usage: worlds_choice.py PLAYERS DECISIONS FEW MANY JUDGE "
                 "[first] (whole numbers)")
    players, decisions, few, many, judge = (int(w) for w in words)
    if players not in (2, 3, 4) or decisions < 2 or not 1 <= few < many or judge < 1:
        sys.exit(f"worlds_choice.py: PLAYERS is 2, 3 or 4, DECISIONS 2 or more, "
                 f"1 <= FEW < MANY and JUDGE 1 or more, not {' '.join(words)}")
    start = time.perf_counter()
    found, same = gains(players, decisions, few, many, judge, first)
    interval = mean_interval(found, 0.95)
    where = "first leads" if first else "decisions"
    print(f"{players} players, {len(found)} {where}, the same card at {same}: "
          f"{many} worlds' card less {few} worlds' {interval.mean:+.4f} "
          f"({interval.low:+.4f} .. {interval.high:+.4f}), judged over {judge} worlds, "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
