"""The time of one piece of ``allfives advise``'s card advice (README, "Advice from what a seat
can see"): the first card of the first deal of heuristic-against-heuristic matches from seeds
0 to 19, for 2 and 4 players, with 16, 64 and 128 deals of the unseen cards (128 is the
default with two or three players, 64 with four), the advice's own 100-million-node budget, after
one advice untimed (the first in a process is slower: the engine's table is made).  Prints the median and worst seconds over
the deals played on 6-card hands, and each deeper deal's (after a run) on its own.

    python benchmarks/advice_time.py [SEEDS]
"""
import statistics
import sys
import time

from cli.advising import advice_for
from solver.game import PLAY, Match
from solver.players import decide
from solver.registry import make_player


def first_cards(players, seeds):
    """The observation of the first card of each seed's first deal."""
    heuristic = make_player("heuristic")
    for seed in range(seeds):
        state = Match(players=players).new_initial_state(seed=seed)
        while state.phase != PLAY:
            state.apply_action(decide(heuristic, state))
        yield state.observation(state.current_player())


def main(argv):
    if {"-h", "--help"} & set(argv):     # (the notes above say how to run it)
        print(__doc__.strip())
        return
    if len(argv) > 1 or argv and not (argv[0].isdigit() and int(argv[0]) >= 1):
        sys.exit("advice_time.py: usage: advice_time.py [SEEDS] (a whole number from 1)")
    seeds = int(argv[0]) if argv else 20
    advice_for(next(first_cards(2, 1)), 16, 0)      # (untimed: the first sets the engine up)
    for players in (2, 4):
        for worlds in (16, 64, 128):
            six, deep = [], []
            for observation in first_cards(players, seeds):
                start = time.perf_counter()
                advice_for(observation, worlds, 0)
                seconds = time.perf_counter() - start
                if len(observation.hand) == 6:
                    six.append(seconds)
                else:
                    deep.append(f"{len(observation.hand)} cards {seconds:.2f} s")
            print(f"{players} players, {worlds} deals: 6-card hands ({len(six)}) median "
                  f"{statistics.median(six):.3f} s, worst {max(six):.3f} s; deeper: "
                  f"{', '.join(deep) or 'none'}")


if __name__ == "__main__":
    main(sys.argv[1:])
