"""How a solution is shown: one JSON object per position, or a short plain-text report."""

from __future__ import annotations

import json
from typing import Any

from solver.cards import card_str, hand_str, sort_cards, suit_str
from solver.deal import Position
from solver.solution import Solution

SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def to_move_name(position: Position) -> str | None:
    return None if position.is_over else position.deal.seats[position.to_move]


def solution_json(name: str, position: Position, solution: Solution) -> str:
    record: dict[str, Any] = {
        "file": name,
        "to_move": to_move_name(position),
        "for": position.deal.side_name(solution.side),
        "objective": solution.objective,
        "value": solution.value,
        "moves": {card_str(c): solution.moves[c] for c in sort_cards(solution.moves)},
        "line": [card_str(c) for c in solution.line],
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 6),
    }
    return json.dumps(record)


def _word(value: object) -> str:
    """An option's value as it is written in a deal file: ``true``, ``none``, ``strict``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def _line_by_trick(position: Position, line: tuple[int, ...]) -> str:
    """The line with a bar between tricks: ``AH 4H | 9C 8C | ...``."""
    n = position.deal.players
    first = (n - len(position.current.cards)) % n or n
    groups, rest = [line[:first]], line[first:]
    while rest:
        groups.append(rest[:n])
        rest = rest[n:]
    return " | ".join(" ".join(card_str(c) for c in g) for g in groups if g)


def solution_text(name: str, position: Position, solution: Solution) -> str:
    deal = position.deal
    seats = deal.seats
    side = deal.side_name(solution.side)
    rules = deal.rules.preset_name
    changes = deal.rules.changes()
    if changes:
        rules += " (" + ", ".join(f"{k}={_word(v)}" for k, v in changes.items()) + ")"
    out = [name,
           f"  trumps {SUIT_WORDS[deal.trump]} ({suit_str(deal.trump)}), dealer "
           f"{seats[deal.dealer]}, rules {rules}"]
    for seat, hand in enumerate(position.hands):
        out.append(f"  {seats[seat]}  {hand_str(hand) or '-'}")
    current = position.current
    if current.cards:
        played = " ".join(f"{card_str(c)} ({seats[current.seat_of(i, deal.players)]})"
                          for i, c in enumerate(current.cards))
        out.append(f"  on the table: {played}")
    done = len(position.completed)
    if position.is_over:
        out.append(f"  play is over after {done} tricks")
    else:
        out.append(f"  {seats[position.to_move]} to play to trick {done + 1}")
    out.append(f"  {solution.objective} for {side}: {solution.value}")
    if solution.moves:
        best = set(solution.best_moves())
        width = max(len(str(v)) for v in solution.moves.values())
        cells = [f"{card_str(c)} {solution.moves[c]:>{width}}{'*' if c in best else ' '}"
                 for c in sort_cards(solution.moves)]
        out.append("  cards: " + "  ".join(cells).rstrip())
    if solution.line:
        out.append("  line:  " + _line_by_trick(position, solution.line))
    out.append(f"  {solution.nodes} nodes, {solution.seconds:.3f} s")
    return "\n".join(out)
