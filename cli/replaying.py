"""``allfives replay``: a game record played again by the rules, every action and score
checked; a short summary, or one line naming the first deal and action that does not follow."""

from __future__ import annotations

import json as json_module
from pathlib import Path

import typer
from rich.text import Text

from solver.game import read_records, replay
from solver.tricks import side_name


def replay_command(name: str, json: bool, color: bool | None) -> None:
    """Replay the record ``name`` (a file, or ``-`` for standard input) and print a summary; a
    record that does not replay ends in one line and status 2."""
    from .inputs import STDIN, named, read_text

    named(name, "RECORD")
    source = "<stdin>" if name == STDIN else name
    text = read_text(name)
    records = read_records(text, source)
    state = replay(records, source)  # RecordError: one line, status 2, at the boundary
    n = state.players
    deals = len(state.deals)
    thrown = sum(1 for log in state.deals if log.thrown_in)
    score = {side_name(s, n): p for s, p in enumerate(state.score)}
    winners = [side_name(s, n) for s in state.winners]
    over = state.is_terminal()
    if json:
        typer.echo(json_module.dumps({
            "file": source, "players": n, "match": records[0].get("match"), "deals": deals,
            "thrown_in": thrown, "games": state.game, "over": over, "score": score,
            "games_won": {side_name(s, n): g for s, g in enumerate(state.games_won)},
            "winners": winners, "double": state.double if over else False,
        }, ensure_ascii=False))
        return
    from .console import make_console

    console = make_console(color)
    text_out = Text().append(source, style="bold")
    text_out.append(f"\n{n} players, rules {state.rules.preset_name}, {state.rules.target} to "
                    f"win; every action and score follows the rules.\n")
    text_out.append(f"{deals} deal{'s' if deals != 1 else ''}"
                    + (f" ({thrown} thrown in)" if thrown else ""))
    if state.match.best_of > 1:
        text_out.append(f", best of {state.match.best_of}")
    text_out.append("; final score " if over else "; score so far ")
    text_out.append(", ".join(f"{k} {v}" for k, v in score.items()))
    if over:
        verb = "wins" if len(winners) == 1 and n < 4 else "win" if len(winners) == 1 else "share"
        text_out.append(f"; {' and '.join(winners)} {verb} the match"
                        + (" (a double game)" if state.double else "") + ".")
    else:
        text_out.append("; the match is not over.")
    console.print(text_out, crop=False)


def is_record_text(text: str) -> bool:
    """Whether ``text`` is JSON lines whose first object has a ``pack`` and ``actions``."""
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            first = json_module.loads(line)
        except ValueError:
            return False
        return isinstance(first, dict) and "pack" in first and "actions" in first
    return False


def is_record_file(path: Path) -> bool:
    if path.suffix == ".jsonl":
        return True
    try:
        with path.open(encoding="utf-8") as handle:
            head = handle.readline()
    except (OSError, UnicodeDecodeError):
        return False
    return is_record_text(head)


__all__ = ["replay_command", "is_record_text", "is_record_file"]
