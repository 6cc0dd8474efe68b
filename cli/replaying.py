"""``allfives replay``: a game record played again by the rules, every action and score
checked; a short summary, or one line naming the first deal and action that does not follow.
With ``--play-by-play`` every deal is told first as it went at the table: the hands dealt, the
turn-up, then each call and card in the lines ``allfives play`` prints, every trick won and every
point pegged with what it is for; ``RECORD#N`` (or ``--deal N``) tells deal N alone.  A file of
several matches (``allfives match --record``) is replayed match by match, its deals counted
through the file."""

from __future__ import annotations

import json as json_module
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import typer
from rich.text import Text

from solver.cards import SUIT_NAMES, suit_of
from solver.errors import AllFivesError, counted, without_controls
from solver.game import REVOKE, RUN, MatchState, step_name
from solver.records import ReplayedMatch
from solver.tricks import seat_names, side_name

from .faces import KEEP, card_face, hanging, ranks_face, rules_words, suit_face
from .inputs import STDIN, file_deal, is_file, is_record_text, named, one_deal, read_text, \
    refuse_no_number, split_deal
from .records import file_text
from .status import reading
from .table import deal_over_line, scores_text, seat_text, what_happened

if TYPE_CHECKING:
    from rich.console import Console


def replay_command(name: str, json: bool, color: bool | None,
                   play_by_play: bool = False, deal: int | None = None) -> None:
    """Replay the record ``name`` (a file, ``FILE#N`` for its deal N, or ``-`` for standard
    input) and print a summary, after every deal told action by action with ``play_by_play``,
    or deal ``deal`` alone when one is named (``--json``: that deal's actions and pegs too);
    a record that does not replay ends in one line and status 2 (before anything is told).
    A file of several matches (``allfives match --record``) gets a summary of each; its deals
    are counted through the file."""
    named(name, "RECORD")
    name, deal = _record_and_deal(name, deal)
    source = "<stdin>" if name == STDIN else name
    text = read_text(name, records=True)   # (a record: no limit but memory)
    if not is_record_text(text) and _is_position_text(text):
        raise AllFivesError(f"{source}: a deal file or position, not a game record (JSON "
                            f"lines, as 'allfives play' writes them); 'allfives solve' solves it")
    with reading(f"reading {source}", not json):   # (seconds for thousands of deals)
        matches = told_matches(text, source, json, play_by_play, deal)
    del text
    found = file_deal([match.deals for match in matches], deal, source) \
        if deal is not None else None
    if json:
        for index, match in enumerate(matches):
            summary = match.summary
            if found is not None and found[0] == index:
                assert summary is not None and match.state is not None  # (--json, the deal's)
                summary["deal"] = deal_summary(match.state, found[1])
            typer.echo(json_module.dumps(summary))
        return
    from .console import can_show_suits, make_console

    console = make_console(color)
    pretty = can_show_suits(console)
    several = len(matches) > 1
    if found is not None:
        index, number = found
        if several:
            console.print(match_heading(matches[index]), crop=False)
        for line in deal_story(cast(MatchState, matches[index].state), number, pretty):
            console.print(hanging(line), crop=False)
        console.print()
    elif play_by_play:
        for index, match in enumerate(matches):
            if several:
                console.print(match_heading(match), crop=False)
            assert match.state is not None      # (kept, with --play-by-play)
            tell_match(match.state, console, pretty)
            matches[index] = match._replace(state=None)     # (told: let go)
    # The name is a path; it is printed whole, never folded at the console's width.
    console.print(Text(without_controls(source), style="bold"), no_wrap=True, overflow="ignore",
                  crop=False)
    text_out = Text()
    tables = {match.table for match in matches}
    alike = len(tables) == 1
    if several:
        text_out.append(f"{len(matches)} matches, ")
    if alike:
        text_out.append(f"{tables.pop()}; ")
    text_out.append("every action and score follows the rules.")
    # (of a file of several, deal N is followed by its own match's line, not every match's)
    for match in matches if found is None else [matches[found[0]]]:
        text_out.append("\n")
        if several:
            text_out.append_text(match_heading(match, not alike)).append(": ")
        else:       # (who played it, as a heading of several says it)
            text_out.append(", ".join(f"{seat}{KEEP}{player}"
                                      for seat, player in match.players.items()) + ": ")
        text_out.append_text(cast(Text, match.brief if several else match.words))
    console.print(hanging(text_out), crop=False)


class Told(NamedTuple):
    """What replay tells of a match played again: its name, players and table, how it went
    (in words, the first match's also as it is told alone; with ``--json`` its summary
    instead), its number of deals, and its state only where its deals are told (with
    ``--play-by-play``, or the one holding the deal asked for): a state held for every match
    of a large record took some 40 KB a match."""

    match: Any
    players: Mapping[str, str]
    table: str
    words: Text | None
    brief: Text | None
    summary: dict[str, Any] | None
    deals: int
    state: MatchState | None


def told_matches(text: str, source: str, json: bool, play_by_play: bool,
                 deal: int | None) -> list[Told]:
    """Each match of a record's text played again (``solver.records.replayed_matches``, one
    at a time), and what replay tells of it kept as it comes."""
    from solver.records import numbered_records, record_lines, replayed_matches

    out: list[Told] = []
    before = 0          # the file's deals before the match
    for match in replayed_matches(numbered_records(record_lines(text), source), source):
        state = match.state
        count = len(state.deals)
        kept = play_by_play or deal is not None and before < deal <= before + count
        # (the words of a match alone only for the first: with a second they are the brief's;
        # with --json neither is told)
        out.append(Told(match.match, match.players, table_words(state),
                        None if json or out else match_words(state),
                        None if json else match_words(state, True),
                        match_summary(source, match) if json else None, count,
                        state if kept else None))
        before += count
    return out


def match_summary(source: str, match: ReplayedMatch) -> dict[str, Any]:
    """A replayed match for ``--json``: its file, players, name, deals, games, score and
    winners."""
    state = match.state
    n = state.players
    over = state.is_terminal()
    return {
        "file": file_text(source), "players": n, "match": match.match, "deals": len(state.deals),
        "thrown_in": sum(1 for log in state.deals if log.thrown_in), "games": state.game,
        "over": over, "score": {side_name(s, n): p for s, p in enumerate(state.score)},
        "games_won": {side_name(s, n): g for s, g in enumerate(state.games_won)},
        "winners": [side_name(s, n) for s in state.winners],
        "double": state.double if over else False,
    }


def table_words(state: MatchState) -> str:
    """``2 players, rules all-fives, 61 to win``."""
    return (f"{state.players} players, rules {rules_words(state.rules, target=False)}, "
            f"{state.rules.target} to win")


def match_heading(match: Told, table: bool = True) -> Text:
    """``Match 0:1:1 (N heuristic, S random; 2 players, rules all-fives, 61 to win)``, without
    the table's words when not ``table``."""
    who = ", ".join(f"{seat} {player}" for seat, player in match.players.items())
    more = f"; {match.table}" if table else ""
    return Text(f"Match {match.match}", style="bold").append(f" ({who}{more})")


def match_words(state: MatchState, brief: bool = False) -> Text:
    """``6 deals; final score N 31, S 28; N wins the match.``; ``brief``: without ``the match``
    and, for a match not over, with ``score`` for ``score so far; ... the match is not
    over.``"""
    n = state.players
    deals = len(state.deals)
    thrown = sum(1 for log in state.deals if log.thrown_in)
    score = {side_name(s, n): p for s, p in enumerate(state.score)}
    winners = [side_name(s, n) for s in state.winners]
    over = state.is_terminal()
    out = Text(counted(deals, "deal")
               + (f" ({thrown} thrown in)" if thrown else ""))
    if state.match.best_of > 1:
        out.append(f", best of {state.match.best_of}")
    out.append("; final score " if over else "; score " if brief else "; score so far ")
    out.append(", ".join(f"{k}{KEEP}{v}" for k, v in score.items()))
    if over:
        verb = "wins" if len(winners) == 1 and n < 4 else "win" if len(winners) == 1 else "share"
        out.append(f"; {' and '.join(winners)} {verb}" + ("" if brief else " the match")
                   + (" (a double game)" if state.double else "") + ".")
    else:
        out.append("." if brief else "; the match is not over.")
    return out


def _record_and_deal(name: str, deal: int | None) -> tuple[str, int | None]:
    """The file and the deal that ``RECORD`` or ``RECORD#N`` and ``--deal`` name."""
    if name == STDIN:
        return name, deal
    held, mark, line = name.rpartition(":")
    if mark and line.isdigit() and not is_file(name) and is_file(held):
        raise AllFivesError(f"{name}: a record's deals are picked as {held}#N, N counted from 1 "
                            f"through the file")
    file, number = split_deal(name)
    if not is_file(file):   # (RECORD#x, or RECORD#1#2 where RECORD#1 is no file)
        refuse_no_number(name, "#", "deal", "RECORD#N counts the deals of a record from 1")
    return file, one_deal(name, number, deal)


def deal_summary(state: MatchState, number: int) -> dict[str, Any]:
    """Deal ``number`` of a replayed match for ``--json``: who dealt, the score it started
    from and ended at, every action as the record writes it, and every point pegged."""
    log = state.deals[number - 1]
    n = state.players
    start = state.score_before(number)
    return {
        "number": number, "game": log.game, "dealer": seat_names(n)[log.dealer],
        "score_before": {side_name(s, n): p for s, p in enumerate(start)},
        "actions": [step_name(seat, action, n) for seat, action in log.actions],
        "pegs": [{"side": side_name(p.side, n), "points": p.points, "for": p.what}
                 for p in log.pegs],
        "score": {side_name(s, n): p for s, p in enumerate(log.score)},
        "thrown_in": log.thrown_in, "winners": [side_name(s, n) for s in log.winners],
    }


def tell_match(state: MatchState, console: Console, pretty: bool) -> None:
    """Every deal of a replayed match, action by action, as the table told it."""
    for number in range(1, len(state.deals) + 1):
        for line in deal_story(state, number, pretty):
            console.print(hanging(line), crop=False)
        console.print()


def deal_story(state: MatchState, number: int, pretty: bool) -> list[Text]:
    """Deal ``number`` of a replayed match told line by line: it is dealt again from its pack
    on a fresh state at the score it started from, and each action is taken and told."""
    log = state.deals[number - 1]
    n = state.players
    fresh, _ = state.deal_again(number)
    head = Text(f"Deal {number}", style="bold")
    if state.match.best_of > 1:
        head.append(f", game {log.game}")
    head.append(f" · {seat_names(n)[log.dealer]} deals · score "
                f"{scores_text(n, state.score_before(number))}")
    lines = [head, *hands_lines(fresh, "Hands dealt", pretty)]
    turnup = fresh.turnups[-1]
    lines.append(Text("Turn-up ").append_text(card_face(turnup, pretty, suit_of(turnup)))
                 .append(f": {SUIT_NAMES[suit_of(turnup)]} proposed for trumps"))
    ran = False
    for _, action in log.actions:
        if fresh.phase == "play" and not fresh.play and ran:
            lines += hands_lines(fresh, "Hands after the runs", pretty)
            ran = False
        ran = ran or action == RUN
        told, _ = what_happened(fresh, action - REVOKE if action >= REVOKE else action, pretty,
                                revoke=action >= REVOKE)
        lines += told
    lines.append(deal_over_line(log, n, state.match.best_of) if not log.thrown_in else
                 Text(f"The cards are thrown in; {seat_names(n)[log.dealer]} deals again.",
                      style="bold"))
    return lines


def hands_lines(state: MatchState, title: str, pretty: bool) -> list[Text]:
    """``Hands dealt`` and each seat's hand on a line, suit by suit."""
    n = state.players
    trump = state.trump if state.trump is not None else suit_of(state.turnups[-1])
    lines = [Text(title, style="bold")]
    for seat, hand in enumerate(state.hands):
        line = Text("  ").append_text(seat_text(n, seat))
        for suit in range(4):
            held = [c for c in hand if suit_of(c) == suit]
            line.append("  ").append_text(suit_face(suit, pretty, trump)).append(" ")
            line.append(ranks_face(held) if held else ("—" if pretty else "-"),
                        style="bold" if suit == trump and held else "")
        lines.append(line)
    return lines


def _is_position_text(text: str) -> bool:
    """Whether ``text`` reads as deal files or one-line positions, or is TOML with a deal's
    hands (a deal file with a mistake in it, which 'allfives solve' names)."""
    import tomllib

    from solver.deal import read_positions
    from solver.notation import check_toml_text

    try:
        next(iter(read_positions(text, "<text>")))
    except (AllFivesError, StopIteration):
        try:
            check_toml_text(text, "<text>")
        except AllFivesError:       # (more than TOML's reader should be given)
            return False
        try:
            return "hands" in tomllib.loads(text)
        except (ValueError, RecursionError):    # (not TOML, or beyond what Python reads)
            return False
    return True


__all__ = ["replay_command", "tell_match", "deal_story"]
