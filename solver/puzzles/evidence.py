"""What a puzzle's evidence says: the rating it gives, and which ladder players solved it.

The evidence (``[puzzle.evidence]`` in a puzzle file) is what ``solver.puzzles.rating``
gathers: each ladder player's result, the tempting cards, the real choices and the engine's
nodes.  Working the rating out from it is plain arithmetic, which the file format checks a
file's record against without the engine.

*The rating* is Elo's: each ladder player is one game between it and the puzzle, scored 1 when
it solves (random and the Monte Carlo players, which draw: the share of their tries that
solve), and a prior game, drawn, against a 1500 puzzle.  The puzzle's
base rating is the maximum-likelihood one: the R at which the players' expected solves,
``1 / (1 + 10 ** ((R - anchor) / 400))`` summed, equal their actual solves.  Fewer solves give a
higher R.  To it are added ``TEMPTING_POINTS`` for each tempting card (a losing class at a turn
of the line that misses the target by at most ``rating.TEMPTING_MARGIN``; at most 10),
``CHOICE_POINTS`` for each real choice past the second (at most 8) and ``NODE_POINTS`` times
``log2(1 + nodes / 1000)`` (at most 10 of them) for the engine's effort: the nodes it searched
solving every turn of the line.  Each part only grows with its evidence, so the rating is
monotone in all of it.
"""

from __future__ import annotations

import math

from ..errors import AllFivesError, quoted

__all__ = ["LADDER", "RANDOM_TRIES", "PIMC_TRIES", "RATING_KEYS", "evidence_key", "tries_of",
           "rating_of", "solved_of"]

#: The random player's tries: its result is the share of them that solve the puzzle.
RANDOM_TRIES = 16
#: Each Monte Carlo ladder player's tries, each drawing its own worlds: its result is the share
#: of them that solve the puzzle (one try left a rating hanging on one draw: rated under six
#: seeds, a collection puzzle's rating had a standard deviation of 52 points on average, its
#: widest spread 394; with 8 tries 19 and 184).  Evidence without ``pimc_tries`` is of one try.
PIMC_TRIES = 8
TEMPTING_POINTS = 15
CHOICE_POINTS = 20
NODE_POINTS = 10
PRIOR = 1500
#: The evidence the rating reads besides the ladder's results.
RATING_KEYS = ("tempting", "real_choices", "nodes")

#: (name, anchor rating): the ladder, weakest first.
LADDER: tuple[tuple[str, int], ...] = (
    ("random", 600), ("heuristic", 1200), ("search-200", 1300), ("pimc-2", 1450),
    ("search-2000", 1600), ("pimc-8", 1800), ("cheater", 2400))


def _elo(results: list[tuple[int, float]]) -> float:
    """The maximum-likelihood rating of the puzzle (module notes)."""
    games = results + [(PRIOR, 0.5)]

    def excess(r: float) -> float:
        return sum(1 / (1 + 10 ** ((r - anchor) / 400)) - s for anchor, s in games)

    low, high = -2000.0, 6000.0
    for _ in range(60):
        mid = (low + high) / 2
        if excess(mid) > 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def evidence_key(name: str) -> str:
    """``solved_search_200``: the evidence's key for ladder player ``name``."""
    return f"solved_{name.replace('-', '_')}"


def tries_of(evidence: dict[str, int], name: str) -> int:
    """How many tries of ladder player ``name`` the evidence counts its solves out of."""
    if name == "random":
        return RANDOM_TRIES
    if not name.startswith("pimc-"):
        return 1
    tries = evidence.get("pimc_tries", 1)
    if isinstance(tries, bool) or not isinstance(tries, int) or tries < 1:
        raise AllFivesError(f"evidence: pimc_tries {quoted(tries)} is not a whole number from 1")
    return tries


def _share(evidence: dict[str, int], name: str) -> float:
    """The share of tries ladder player ``name`` solved, as the evidence gives it."""
    return evidence[evidence_key(name)] / tries_of(evidence, name)


def solved_of(evidence: dict[str, int]) -> tuple[str, ...] | None:
    """The ladder players that solved the puzzle (half their tries or more), as ``evaluate``
    lists them, by the evidence; None when it lacks a ladder player's result."""
    if not all(evidence_key(name) in evidence for name, _ in LADDER):
        return None
    return tuple(name for name, _ in LADDER if _share(evidence, name) >= 0.5)


def rating_of(evidence: dict[str, int]) -> int:
    """The rating from the evidence ``assess`` gathers (module notes): ``solved_<player>``
    (out of ``tries_of`` tries: ``RANDOM_TRIES`` for random, ``pimc_tries`` for the Monte Carlo
    players, else 0 or 1), ``tempting``, ``real_choices`` and ``nodes``."""
    results = []
    for name, anchor in LADDER:
        if evidence_key(name) in evidence:
            results.append((anchor, _share(evidence, name)))
    base = _elo(results)
    extra = (TEMPTING_POINTS * min(evidence.get("tempting", 0), 10)
             + CHOICE_POINTS * min(max(evidence.get("real_choices", 2) - 2, 0), 8)
             + NODE_POINTS * min(math.log2(1 + evidence.get("nodes", 0) / 1000), 10))
    return round(base + extra)
