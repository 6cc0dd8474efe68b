"""The double-dummy value each player gave up at its choices of card, from a match's records
(README, "The Monte Carlo player").

Every deal of ``allfives match ... --record FILE`` is played again; at each choice of card
(more than one legal) on hands of at most 6 cards, the position is solved with every hand open
for the side of the seat to play (objective ``margin``, or ``points`` with three players), and
the card played is charged the best card's value less its own.  Prints per player the choices,
the value given up in all and a choice, the share of choices that gave some up, and how often
the card played was the heuristic's own; with ``--by-place``, the same by trick and by place
in the trick (0 the lead).  A yardstick against an opponent who sees everything, not the
points a match scores: use it to see where a player loses, and the duplicate match to see how
much.

    python benchmarks/given_up.py FILE [DEALS] [--by-place]
"""
import sys
from collections import defaultdict

from solver.analysis import judge_card
from solver.errors import AllFivesError
from solver.game import REVOKE, parse_step
from solver.notation import read_file
from solver.players import HeuristicPlayer, deal_objective
from solver.records import deal_opening, read_records
from solver.search import Solver

#: Hands larger than this are left out (a deep solve would take the run's time).
MOST_CARDS = 6


def main(argv):
    if {"-h", "--help"} & set(argv):     # (the notes above say how to run it)
        print(__doc__.strip())
        return
    by_place = "--by-place" in argv
    args = [a for a in argv if a != "--by-place"]
    if not 1 <= len(args) <= 2 or any(a.startswith("--") for a in args):
        sys.exit("given_up.py: usage: given_up.py FILE [DEALS] [--by-place]")
    path = args[0]
    if len(args) > 1 and not (args[1].isdigit() and int(args[1]) >= 1):
        sys.exit(f"given_up.py: DEALS: {args[1]!r} is not a whole number from 1")
    deals = int(args[1]) if len(args) > 1 else None
    try:
        records = read_records(read_file(path), path)[:deals]
        given_up(records, path, by_place)
    except (AllFivesError, OSError) as error:
        sys.exit(f"given_up.py: {error}")


def given_up(records, path, by_place):
    solver, heuristic = Solver(), HeuristicPlayer()
    # (player, trick, place) -> [choices, given up, choices giving some up, the heuristic's]
    tally = defaultdict(lambda: [0, 0, 0, 0])
    for record in records:
        state = deal_opening(record)
        names = list(record["players"].values())
        n = len(names)
        objective = deal_objective(n)
        for step in record["actions"]:
            seat, action = parse_step(step, n)
            if action >= REVOKE:
                break                   # a revoke ends what a Position can hold
            if state.phase == "play" and len(state.legal_actions()) > 1:
                position = state.position()
                if max(len(h) for h in position.hands) <= MOST_CARDS:
                    solution = solver.solve(position, position.deal.side_of(seat), objective,
                                            line=False)
                    judged = judge_card(position, len(position.play), action, solution)
                    given = judged.cost
                    row = tally[(names[seat], judged.trick, len(position.current.cards))]
                    row[0] += 1
                    row[1] += given
                    row[2] += given > 0
                    row[3] += heuristic.act(state.observation(seat)) == action
            state.apply_action(action)
    players = sorted({k[0] for k in tally})
    width = max([40, *map(len, players)])        # (a long spec whole, not cut)
    print(f"{len(records)} deals of {path}, choices of card on hands of at most {MOST_CARDS}")
    print(f"{'player':{width}} {'choices':>8} {'given up':>9} {'a choice':>9} {'some':>6} "
          f"{'heuristic':>10}")
    for player in players:
        rows = [v for k, v in tally.items() if k[0] == player]
        c, g, some, same = (sum(r[i] for r in rows) for i in range(4))
        print(f"{player:{width}} {c:8} {g:9} {g / c:9.3f} {some / c:6.1%} {same / c:10.1%}")
        if by_place:
            for (who, trick, place), (c, g, some, _) in sorted(tally.items()):
                if who == player:
                    print(f"  trick {trick} place {place}: {c:6} choices, {g / c:.3f} a "
                          f"choice, {some / c:.1%} gave some up")


if __name__ == "__main__":
    main(sys.argv[1:])
