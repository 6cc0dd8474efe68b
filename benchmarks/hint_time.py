"""The time of a hint in ``allfives play`` against ``allfives advise`` on the deep hands after a
run (README, "Advice at the table"): the first card of each deal with more than six cards a hand,
in heuristic-against-heuristic matches of PLAYERS from seed 0 on, until DEALS are found.  Each
is advised twice, with ``advise``'s budget (``cli.advising.ADVICE_NODES``) and with the hint's
(``cli.playing.HINT_NODES``), after one advice untimed (the first in a process sets the engine
up).  A line a deal: the seconds, how each valued the deals, and whether the best card is the
same; then the medians.

    python benchmarks/hint_time.py [PLAYERS] [DEALS]
"""
import statistics
import sys
import time

from cli.advising import ADVICE_NODES, advice_for
from cli.playing import HINT_NODES
from solver.game import PLAY, Match
from solver.players import decide
from solver.registry import make_player


def deep_first_cards(players: int, deals: int):
    """The seed and the observation of the first card of each deal whose hands hold more than
    six cards, in matches played by the heuristic from seed 0 on."""
    heuristic = make_player("heuristic")
    seed = 0
    while deals:
        state = Match(players=players).new_initial_state(seed=seed)
        told = None
        while not state.is_terminal() and deals:
            if state.phase == PLAY and told != state.deal_number:
                observation = state.observation(state.current_player())
                told = state.deal_number
                if len(observation.hand) > 6:
                    yield seed, observation
                    deals -= 1
            state.apply_action(decide(heuristic, state))
        seed += 1


def timed(observation, nodes: int):
    start = time.perf_counter()
    advice = advice_for(observation, None, 0, node_limit=nodes)
    return advice, time.perf_counter() - start


def main(argv):
    if {"-h", "--help"} & set(argv):     # (the notes above say how to run it)
        print(__doc__.strip())
        return
    if len(argv) > 2 or not all(a.isdigit() for a in argv) or \
            argv and int(argv[0]) not in (2, 3, 4) or len(argv) == 2 and int(argv[1]) < 1:
        sys.exit("hint_time.py: usage: hint_time.py [PLAYERS] [DEALS] (2, 3 or 4 players; "
                 "deals from 1)")
    players = int(argv[0]) if argv else 4
    deals = int(argv[1]) if len(argv) == 2 else 20
    state = Match(players=2).new_initial_state(seed=0)
    while state.phase != PLAY:
        state.apply_action(decide(make_player("heuristic"), state))
    advice_for(state.observation(state.current_player()), 16, 0)      # (untimed)
    advised, hinted, same = [], [], 0
    for seed, observation in deep_first_cards(players, deals):
        full, full_seconds = timed(observation, ADVICE_NODES)
        hint, hint_seconds = timed(observation, HINT_NODES)
        advised.append(full_seconds)
        hinted.append(hint_seconds)
        same += full.best == hint.best
        print(f"seed {seed}, {len(observation.hand)} cards: advise {full_seconds:.2f} s "
              f"({full.method}, {full.worlds} deals), hint {hint_seconds:.2f} s ({hint.method}, "
              f"{hint.worlds} deals), {'same' if full.best == hint.best else 'another'} card",
              flush=True)
    print(f"{players} players, {deals} deals: median advise {statistics.median(advised):.2f} s, "
          f"hint {statistics.median(hinted):.2f} s; the same best card in {same}")


if __name__ == "__main__":
    main(sys.argv[1:])
