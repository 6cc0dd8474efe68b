"""How much of the four-player open-hand gap is the partner's hand (README, "The Monte Carlo
player").

``sighted`` is the Monte Carlo player that sees its partner's hand as well as its own: its
worlds deal only the opponents' hands (``sample_worlds`` with ``shown``), the rest as ``pimc``
(with ``infer`` off: the worlds are weighed by the calls only, as ``advise`` weighs them when
other hands are shown).  Like ``cheater`` it breaks the rules: a yardstick, not a player.  The
script registers it and runs ``allfives`` in this process with the arguments given (so
``--jobs 1``); ``sighted`` takes ``pimc``'s options after a colon.

    python benchmarks/sighted.py match sighted heuristic --duplicate --deals 500 --players 4 \\
        --jobs 1 --record sighted.jsonl
    python benchmarks/paired.py sighted.jsonl pimc.jsonl
"""
import sys

from cli.main import app
from solver import sampling
from solver.pimc import PimcPlayer
from solver.players import register_player


class SightedPlayer(PimcPlayer):
    """``pimc`` that sees its partner's hand in card play with four players."""

    omniscient = True

    def act(self, observation, state=None):
        legal = observation.legal_actions
        if observation.phase != "play" or len(legal) == 1 or observation.players != 4:
            return super().act(observation)
        partner = (observation.seat + 2) % 4
        worlds = sampling.sample_worlds(observation, self.worlds_for(4), self.rng,
                                        exact_limit=self.exact_limit, bidding=self.bidding,
                                        shown={partner: state.hands[partner]})
        positions = [sampling.world_position(observation, world) for world in worlds]
        return self.advise_positions(observation, positions, list(worlds.weights),
                                     worlds.exact).best


def sighted(seed=None, **options):
    return SightedPlayer(seed=seed, name="sighted", infer=False, **options)


if __name__ == "__main__":
    register_player("sighted", sighted)
    app(sys.argv[1:], prog_name="allfives")
