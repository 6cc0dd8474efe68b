"""Type stub for the compiled engine (solver/_search.pyx)."""

from collections.abc import Sequence

class Engine:
    """A search engine with its own transposition table of 2**table_bits entries.
    Use one per thread."""

    def __init__(self, table_bits: int = 20) -> None: ...
    @property
    def table_bytes(self) -> int: ...
    def new_generation(self) -> None:
        """Forget every stored entry, in constant time."""
    def solve(
        self,
        hands: Sequence[int],
        trump: int,
        leader: int,
        trick: Sequence[int],
        sides: Sequence[int],
        xside: int,
        points: bytes,
        pips: bytes,
        trick_bonus: int = 0,
        game: bool = True,
        won_pips: Sequence[int] = (0, 0, 0),
        margin: bool = False,
        strict: bool = False,
        all_moves: bool = True,
        want_line: bool = True,
        node_limit: int = 0,
        time_limit: float = 0.0,
        fresh: bool = False,
    ) -> tuple[int, int, list[tuple[int, int, int]], list[int], int, bool]:
        """(lower, upper, [(card, lower, upper)...], line, nodes, stopped) for the future value
        (points still to come, Game included) of side ``xside``."""
