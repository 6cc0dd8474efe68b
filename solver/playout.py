"""Cards valued by playing the deal out, where the engine cannot solve the hands in time.

On the 12-card hands that two runs make with four players, one double-dummy solve of a world
takes longer than a decision's whole budget (README, "Benchmarks"), so the Monte Carlo player
would have no world valued at all.  There it values each legal card the way its calls are
valued by play-outs (``solver.calling``): in each world, the card is played and the deal is
played to its end by the heuristic's card play, every seat choosing from its own observation
(its own hand and the cards played; not the other hands), and the card is worth the deal's
value for the side (``solver.reference.final_value``, the engine's scale).  The worlds are the
same for every card, as with the solves.

A play-out is cheaper than a solve by orders of magnitude but no better than the heuristic's
judgement after the first card: its values are estimates of how the deal goes between players
like the heuristic, not of best play.  ``PimcPlayer`` uses them only when too few worlds could
be solved within the budget (fewer than four, or than all where there are fewer), and says so
(``Advice.method`` is ``"played out"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import Card
from .deal import Position
from .game import observation_of, turn_view
from .players import HeuristicPlayer, Player
from .reference import final_value
from .tricks import legal_plays, trick_winner

__all__ = ["play_out", "played_out_values"]

_HEURISTIC = HeuristicPlayer()


def play_out(position: Position, player: Player | None = None) -> Position:
    """``position`` played to the end of the deal by ``player`` (default the heuristic) at every
    seat, each seeing its own observation; the finished position."""
    player = player or _HEURISTIC
    deal = position.deal
    n = deal.players
    trump, strict = deal.trump, deal.rules.strict_follow
    hands = [list(h) for h in position.hands]
    current = position.current
    leader, trick = current.leader, list(current.cards)
    base = observation_of(position, position.to_move)
    seen = list(base.play)
    cards: list[Card] = []
    while any(hands):
        seat = (leader + len(trick)) % n
        legal = legal_plays(hands[seat], trick, trump, strict)
        if len(legal) == 1:
            card = legal[0]
        else:
            card = player.act(turn_view(base, seat, hands[seat], seen, legal))
        hands[seat].remove(card)
        trick.append(card)
        seen.append((seat, card))
        cards.append(card)
        if len(trick) == n:
            leader = (leader + trick_winner(trick, trump)) % n
            trick = []
    return Position.of_legal_play(deal, position.play + tuple(cards))  # (each chosen legal)


def played_out_values(positions: Sequence[Position], weights: Sequence[float],
                      legal: Sequence[int], side: int, objectives: Sequence[str],
                      spent: Callable[[], bool] | None = None, others_win: bool = False,
                      least: int = 1) -> tuple[dict[str, dict[int, list[float]]], list[float]]:
    """Every legal card's played-out value in each world, by each of ``objectives`` from the
    same play-outs (``{objective: {card: values}}``), and the weights of the worlds valued;
    ``others_win``: under the key ``"others_win"`` too, 1 where another side won the match.
    ``spent()``, asked before each world after the first ``least``, stops early."""
    keys = [*objectives, *(["others_win"] if others_win else [])]
    values: dict[str, dict[int, list[float]]] = {k: {c: [] for c in legal} for k in keys}
    others = [s for s in range(positions[0].deal.sides) if s != side] if positions else []
    kept: list[float] = []
    for done, (position, weight) in enumerate(zip(positions, weights)):
        if done >= least and spent is not None and spent():
            break
        for card in legal:
            final = play_out(position.after(card))
            for objective in objectives:
                values[objective][card].append(float(final_value(final, side, objective)))
            if others_win:
                values["others_win"][card].append(
                    float(max(final_value(final, other, "win") for other in others)))
        kept.append(weight)
    return values, kept
