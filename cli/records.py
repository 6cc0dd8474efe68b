"""The machine output: one JSON object per line, kept apart from everything printed for people."""

from __future__ import annotations

import json
import os
from typing import Any, cast, overload

from solver.analysis import CardPlayed, given_away
from solver.cards import card_str, sort_cards
from solver.deal import Position
from solver.solution import Solution
from solver.timing import ClassTiming


@overload
def file_text(name: str) -> str: ...
@overload
def file_text(name: None) -> None: ...
def file_text(name: str | None) -> str | None:
    """A file's name as JSON carries it: the text its bytes spell in UTF-8.  Under an ASCII
    locale Python keeps a name's bytes beyond ASCII as stand-ins (``\\udcc3``), which no JSON
    reader takes for text; a byte that is no UTF-8 stays one (the name is kept whole)."""
    if name is None:
        return None
    try:
        return os.fsencode(name).decode("utf-8", "surrogateescape")
    except UnicodeError:    # (a name made of text, not of a file's bytes: itself)
        return name


def to_move_name(position: Position) -> str | None:
    return None if position.is_over else position.deal.seats[position.to_move]


def solution_record(name: str, position: Position, solution: Solution) -> str:
    """``value`` is null when a limit stopped the search; ``lower`` and ``upper`` bound it."""
    record: dict[str, Any] = {
        "file": file_text(name),
        "to_move": to_move_name(position),
        "for": position.deal.side_name(solution.side),
        "objective": solution.objective,
        "value": solution.value if solution.proved else None,
        "moves": {card_str(c): solution.moves[c] for c in sort_cards(solution.moves)},
        "line": [card_str(c) for c in solution.line],
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 6),
        "complete": solution.complete,
        "lower": solution.lower if solution.lower is not None else solution.value,
        "upper": solution.upper if solution.upper is not None else solution.value,
    }
    return json.dumps(record)


def play_record(position: Position, play: CardPlayed) -> dict[str, Any]:
    """One card: ``before``, ``after``, ``cost`` and ``mistake`` are null when a limit left it
    unjudged (``mistake`` true and ``least_cost`` the least it cost where its value is below
    ``before_lower``); ``before_lower`` .. ``before_upper`` and ``after_lower`` .. ``after_upper`` bound
    the two values (null where nothing is known)."""
    deal = position.deal
    return {
        "index": play.index,
        "trick": play.trick,
        "seat": deal.seats[play.seat],
        "for": deal.side_name(play.side),
        "card": card_str(play.card),
        "before": play.before if play.complete else None,
        "after": play.after if play.complete else None,
        "cost": play.cost,
        "least_cost": play.least_cost,
        "mistake": play.mistake,
        "best": [card_str(c) for c in play.best],
        "every_card": play.every_card,
        "complete": play.complete,
        "before_lower": play.lower,
        "before_upper": play.upper,
        "after_lower": play.after,
        "after_upper": play.after,
    }


def analysis_record(name: str, position: Position, objective: str,
                    plays: list[CardPlayed]) -> str:
    """``complete`` is false when a limit left any card unjudged, or a mistake's cost known
    only in part."""
    deal = position.deal
    record: dict[str, Any] = {
        "file": file_text(name),
        "objective": objective,
        "plays": [play_record(position, p) for p in plays],
        "given_away": {deal.side_name(s): points
                       for s, points in enumerate(given_away(plays, deal.sides))},
        "nodes": sum(p.nodes for p in plays),
        "seconds": round(sum(p.seconds for p in plays), 6),
        "complete": all(p.complete for p in plays),
    }
    return json.dumps(record)


def timing_record(timing: ClassTiming) -> str:
    record: dict[str, Any] = {
        "class": timing.name,
        "title": timing.title,
        "objective": timing.objective,
        "deals": timing.count,
        "median": round(timing.median, 9),
        "p90": round(timing.p90, 9),
        "p99": round(timing.p99, 9),
        "nodes": sum(timing.nodes),
        "median_nodes": timing.median_nodes,
        "seconds": round(sum(timing.seconds), 6),
        "nodes_per_second": round(timing.nodes_per_second),
        "dds": None,
    }
    if timing.dds_seconds:
        record["dds"] = {"median": round(cast(float, timing.dds_median), 9),
                         "ratio": round(cast(float, timing.dds_ratio), 4),
                         "agree": timing.dds_agree, "cards": timing.dds_cards}
    return json.dumps(record)
