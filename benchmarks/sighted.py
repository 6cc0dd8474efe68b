"""How much of the four-player open-hand gap is the partner's hand, and how much the
opponents' (README, "The Monte Carlo player").

``sighted`` is the Monte Carlo player that sees its partner's hand as well as its own: its
worlds deal only the opponents' hands (``sample_worlds`` with ``shown``), the rest as ``pimc``
(with ``infer`` off: the worlds are weighed by the calls only).  Like ``cheater`` it breaks the rules: a yardstick, not a player.  The
script registers it and runs ``allfives`` in this process with the arguments given, its
``--jobs`` workers forked from it so that they know the player too; ``sighted`` takes ``pimc``'s options after a colon, and ``see=opponents`` for the
player that sees both opponents' hands instead of its partner's (the partner's hand is then
dealt from the cards left, the pack not dealt among them).

    python benchmarks/sighted.py match sighted heuristic --duplicate --deals 500 --players 4 \\
        --jobs 2 --record sighted.jsonl
    python benchmarks/paired.py sighted.jsonl pimc.jsonl
"""
import multiprocessing
import sys

from cli import matching
from cli.main import app
from solver import sampling
from solver.pimc import PimcPlayer
from solver.players import PlayerError
from solver.registry import register_player


#: What ``sighted`` may see besides its own hand: its partner's, or the two opponents'.
SEE = {"partner": (2,), "opponents": (1, 3)}


class SightedPlayer(PimcPlayer):
    """``pimc`` that sees its partner's hand (or its opponents', ``see``) in card play with
    four players."""

    omniscient = True
    see = "partner"

    def act(self, observation, state=None):
        legal = observation.legal_actions
        if observation.phase != "play" or len(legal) == 1 or observation.players != 4:
            return super().act(observation)
        shown = {seat: state.hands[seat]
                 for seat in ((observation.seat + k) % 4 for k in SEE[self.see])}
        worlds = sampling.sample_worlds(observation, self.worlds_for(4), self.rng,
                                        exact_limit=self.exact_limit, bidding=self.bidding,
                                        shown=shown)
        positions = [sampling.world_position(observation, world) for world in worlds]
        return self.advise_positions(observation, positions, list(worlds.weights),
                                     worlds.exact).best


def sighted(seed=None, see="partner", **options):
    if see not in SEE:
        raise PlayerError(f"see: {see!r} is not 'partner' or 'opponents'")
    player = SightedPlayer(seed=seed, name="sighted", infer=False, **options)
    player.see = see
    return player


if __name__ == "__main__":
    if any(arg == "--scheduler" or arg.startswith("--scheduler=") for arg in sys.argv):
        # a cluster's workers import allfives afresh: 'sighted' is registered here alone
        print("allfives: error: --scheduler: the sighted player is known to this script and "
              "its --jobs workers only, not to a cluster's", file=sys.stderr)
        sys.exit(2)
    register_player("sighted", sighted)
    matching.PROGRAM = ("python", "benchmarks/sighted.py")   # (the command that knows it)
    # workers started afresh (spawn, forkserver) would not know the player registered here
    multiprocessing.set_start_method("fork")
    app(sys.argv[1:], prog_name="allfives")
