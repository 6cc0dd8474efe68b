"""Type stub for the compiled engine (solver/_search.pyx).

Cards are numbered ``suit * 16 + rank`` (rank 0 is the two, 12 the ace), a hand is a mask over
those numbers, seats are numbered clockwise from 0.  Values are *future* values for side
``xside``: the points still to come in the tricks not yet completed, and Game.
"""

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeAlias

class Win(NamedTuple):
    """The match, for objective win: the value is then 1 if X wins it in this deal, else 0
    (``Problem.points`` give the captures alone, pegged as each trick closes)."""

    target: int
    peg_out: bool  # the first side to reach the target wins at once; else hand-end
    run: Sequence[int]  # each side's match score, the completed tricks' captures pegged
    high_side: int  # the side that pegs High (-1: none)
    low_side: int  # the side dealt Low when it goes to the holder (-1: none)
    special_cards: Sequence[int]  # Low to the captor, the Jack, the five (-1: none)
    special_points: Sequence[int]  # what each of them is worth to its captor
    won: Sequence[int]  # a mask per side of the cards it has won

class Problem(NamedTuple):
    """What stays the same through the positions of a deal solved for one side."""

    sides: Sequence[int]  # each seat's side, 0 to 2
    xside: int  # the side solved for (the maximiser)
    trump: int  # 0 to 3, or 4 for none
    points: bytes  # 64 bytes by card number: what the card gives the winner of its trick
    pips: bytes  # 64 bytes by card number: the card's count toward Game
    trick_bonus: int = 0  # points for winning a trick itself (1 for the tricks objective)
    game: bool = True  # the Game point is at stake
    margin: bool = False  # value = X's points less the other side's (two sides only)
    strict: bool = False  # follow suit if able; else a trump may be played at any time
    win: Win | None = None  # objective win: the match

class Result(NamedTuple):
    """A solve's answer; the value is exact when ``lower == upper``."""

    lower: int
    upper: int
    moves: list[tuple[int, int, int]]  # (card, lower, upper) for every legal card, if asked
    line: list[int]  # an optimal continuation, if asked (partial or empty if stopped)
    nodes: int
    stopped: bool  # a node or time limit cut the work short

# (inside Engine its attributes Problem and Win would shadow the classes in annotations)
_Problem: TypeAlias = Problem
_Win: TypeAlias = Win

class Engine:
    """A search engine with its own transposition table of 2**table_bits entries.
    Use one per thread."""

    Problem: type[_Problem]
    Win: type[_Win]
    def __init__(self, table_bits: int = 20) -> None: ...
    # Where Game is open, the points alone are searched first at trick starts with at least
    # this many cards in the hands (28 unless set; tests lower it to where the reference
    # solver reaches).
    probe_cards: int
    @property
    def table_bytes(self) -> int: ...
    @property
    def loads(self) -> int:
        """The solves loaded so far."""
    @property
    def progress(self) -> tuple[int, int, int] | None:
        """``(nodes, lower, upper)``: the nodes searched so far and the bounds proved so far on
        the root's future value, as ``solve`` returns them; None until the search has bounds.
        Another thread may read it while ``solve`` runs; between solves it is the last solve's
        final numbers."""
    @property
    def trick_nodes(self) -> int:
        """Of the nodes of the solve under way (or the last one), those at a trick's start:
        the count DDS reports as its nodes (its ``futureTricks.nodes``)."""
    def new_generation(self) -> None:
        """Forget every stored entry, in constant time."""
    def solve(
        self,
        problem: _Problem,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int] = (),
        won_pips: Sequence[int] = (0, 0, 0),
        *,
        all_moves: bool = True,
        want_line: bool = True,
        node_limit: int = 0,
        time_limit: float = 0.0,
        fresh: bool = False,
    ) -> Result:
        """Solve ``problem`` at the position: ``hands`` (a mask per seat), the cards of the
        ``trick`` on the table played from ``leader`` on, and the Game pips each side has won.

        ``all_moves`` values every legal card; ``want_line`` follows an optimal line; a
        ``node_limit`` or ``time_limit`` (seconds; 0: none) may stop the search early;
        ``fresh`` forgets the table first (a new problem always does).  Raises ValueError for
        a bad problem or position, RuntimeError while the Engine is solving in another thread.
        A signal handler that raises during the search (Ctrl-C's does) stops it within
        milliseconds, in the main thread, and its exception comes out of here; the Engine
        stays usable."""


def add_stopped(seconds: float) -> None:
    """Leave ``seconds`` more out of the clock the time limits are kept by (``solver.clock``)."""


def set_stop_check(check: Callable[[], object] | None) -> None:
    """In the calling thread, ``check()`` is called while the engine searches; where it raises
    the search stops and its exception comes out of ``solve`` (None: no check)."""
