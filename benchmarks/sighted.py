"""What sight is worth: how much of the four-player open-hand gap is the partner's hand, and
how much the opponents'; and how much better the calls could be made seeing the hands
(README, "The Monte Carlo player").

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

``foresight`` plays its cards as another player does (``play``: ``pimc`` by default, or
``heuristic``, ``cheater``..., with that player's options after the colon) but makes its
calls, stand or beg and take one or run, seeing what no caller sees: each call it may make is
played out by the heuristic (``solver.calling.branch_results``, the dealer answering a beg by
its rule 2) and it makes the one worth most to its side, its player's own call where that is
as good.  With ``see=pack`` (the default) the calls are played out from the very pack the deal
is dealt from, runs and all; with ``see=hands``, from every hand dealt, the rest of the pack
shuffled ``packs`` times (64 by default) and the values averaged: what the calls could gain
from reading the other hands perfectly, the pack's luck left out.

    python benchmarks/sighted.py match foresight:see=hands heuristic --duplicate --deals 2000 \\
        --players 2 --jobs 2 --record foresight.jsonl
    python benchmarks/paired.py foresight.jsonl pimc.jsonl --by-calls
"""
import multiprocessing
import random
import sys

from cli import matching
from cli.main import app
from solver import calling, sampling
from solver.pimc import PimcPlayer
from solver.players import PlayerError, legal_to_act
from solver.registry import make_player, register_player


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


class Foresight:
    """A player whose calls see the hands (and with ``see="pack"`` the pack): ``play`` plays
    its cards."""

    omniscient = True

    def __init__(self, play, see: str, packs: int, seed) -> None:
        self.play = play
        self.see = see
        self.packs = packs
        self.name = "foresight"
        self.rng = random.Random(f"foresight:{seed}")

    def __getattr__(self, name):        # (``stopped``, ``check_table``: the card player's)
        if name == "play":
            raise AttributeError(name)
        return getattr(self.play, name)

    def act(self, observation, state=None):
        legal = legal_to_act(observation)
        if observation.phase in ("elder", "dealer") and len(legal) > 1:
            values = self.call_values(observation, state)
            own = self.play.act(observation)
            return own if values[own] >= max(values.values()) else max(values, key=values.get)
        if getattr(self.play, "omniscient", False):
            return self.play.act(observation, state)
        return self.play.act(observation)

    def call_values(self, observation, state) -> dict[int, float]:
        """Each call's value for the caller's side, played out by the heuristic."""
        if self.see == "pack":
            return calling.branch_results(observation, state.pack)
        totals: dict[int, float] = {}
        for _ in range(self.packs):
            pack = calling.world_pack(state.hands, observation.dealer, state.turnups[0], self.rng)
            for call, value in calling.branch_results(observation, pack).items():
                totals[call] = totals.get(call, 0.0) + value
        return {call: total / self.packs for call, total in totals.items()}


def foresight(seed=None, play="pimc", see="pack", packs=64, **options):
    if see not in ("pack", "hands"):
        raise PlayerError(f"see: {see!r} is not 'pack' or 'hands'")
    if not isinstance(packs, int) or packs < 1:
        raise PlayerError(f"packs: {packs!r} is not a whole number of 1 or more")
    return Foresight(make_player(play, seed=seed, **options), see, packs, seed)


if __name__ == "__main__":
    if any(arg == "--scheduler" or arg.startswith("--scheduler=") for arg in sys.argv):
        # a cluster's workers import allfives afresh: 'sighted' is registered here alone
        print("allfives: error: --scheduler: the sighted and foresight players are known to "
              "this script and its --jobs workers only, not to a cluster's", file=sys.stderr)
        sys.exit(2)
    register_player("sighted", sighted)
    register_player("foresight", foresight)
    matching.PROGRAM = ("python", "benchmarks/sighted.py")   # (the command that knows it)
    # workers started afresh (spawn, forkserver) would not know the player registered here
    multiprocessing.set_start_method("fork")
    app(sys.argv[1:], prog_name="allfives")
