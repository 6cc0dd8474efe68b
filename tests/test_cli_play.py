"""``allfives play``: whole matches scripted through the input stream, the answers a person can
get wrong, hint, undo, and how a session ends (the match over, quit, end of input, Ctrl-C)."""

from __future__ import annotations

import io
import os
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console
from rich.text import Text

from cli.answers import AnswerError, choices, read_answer
from cli.errors import Terminated
from cli.playing import HELP, HINT_NODES, PAUSE_HELP, Session, Stop, judge_cards, make_setup, \
    play_command
from cli.table import peg_words, scores_text
from clirun import EXAMPLES, console, run
from solver.cards import card_str, parse_card
from solver.deal import Position
from solver.errors import AllFivesError, counted
from solver.game import BEG, RUN, STAND, TAKE_ONE, Match
from solver.players import decide
from solver.records import read_records, replay
from solver.rules import Rules
from solver.tricks import side_name

pytest.importorskip("solver.search")  # hints and the analysis after each deal use the engine


class Script:
    """An input stream that answers from a function of the session (or a list of lines), and
    notes what the person saw at every decision."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.session: Session | None = None
        self.seen: list = []

    def readline(self, size: int = -1) -> str:     # (its lines are short: whole)
        state = self.session.state
        obs = state.observation(self.session.me)
        self.seen.append(obs)
        line = self.answer(obs, len(self.seen))
        return "" if line is None else line + "\n"

    def isatty(self) -> bool:
        return False


def session(args: dict, answer, tmp_path: Path, width: int = 80) -> tuple[Session, Script,
                                                                          io.StringIO]:
    options = dict(players=2, seat=None, opponents=None, preset="all-fives", target=11,
                   seed=1, record=str(tmp_path / "match.jsonl"))
    options.update(args)
    setup = make_setup(**options)
    out_console, out = console(width)
    script = Script(answer)
    s = Session(setup, out_console, script, pretty=True)
    script.session = s
    return s, script, out


def last_words(text: str) -> str:
    """The last line, with the line before it when the record's name was put on a line of its
    own to keep it whole."""
    lines = text.splitlines()
    if lines[-1].lower().startswith("  the record is in ") and len(lines) > 1:
        return lines[-2] + " " + lines[-1].strip()
    return lines[-1]


def first_choice(obs, count):
    return "1"


# ---- whole matches ---------------------------------------------------------------------------

@pytest.mark.parametrize("players, opponents", [(2, ["random"]), (3, ["heuristic"]),
                                                (4, ["heuristic", "random", "heuristic"])])
def test_a_whole_scripted_match_and_its_record_replays(tmp_path, players, opponents):
    record = tmp_path / "match.jsonl"
    result = run("play", "--players", players, "--target", 11, "--seed", 5, "--record", record,
                 *[x for o in opponents for x in ("--opponents", o)], input="1\n" * 400)
    assert result.exit_code == 0, result.stderr
    last = last_words(result.stdout)
    assert re.fullmatch(r"(You win the match|\w+ wins? the match), .*\. The record is in "
                        + re.escape(str(record)) + r"\.", last), last
    state = replay(read_records(record.read_text(encoding="utf-8")))
    assert state.is_terminal()
    assert max(state.score) >= 11
    assert "Your cards, judged open-hand" in result.stdout
    assert "Traceback" not in result.stderr
    # what the play gave the person's side, deal by deal, is what the record's deal pegged,
    # said where the deal was played whole and judged by the points
    text = " ".join(result.stdout.split())
    ends = re.split(r"Deal \d+ is over", text)[1:]
    dealt = [deal for deal in state.deals if not deal.thrown_in]
    assert len(ends) == len(dealt)
    side = {2: 1, 3: 2, 4: 0}[players]      # S, or N+S
    said = 0
    for deal, end in zip(dealt, ends):
        end = re.split(r"Deal \d+ · ", end)[0]     # up to the next deal's heading
        took = re.findall(r"Your side took (\d+) in the play", end)
        if deal.winners or "judged open-hand by the match" in end:
            assert not took
            continue
        said += 1
        assert [int(t) for t in took] == [sum(
            p.points for p in deal.pegs
            if p.side == side and p.what not in ("take-one", "turn-up jack", "revoke"))]
    assert said or players == 4           # (the four-player match ends in its first deal)


def test_near_the_target_the_cards_are_judged_by_the_match(tmp_path):
    """Seed 7 to 11: S could be sure of winning the match in the first deal, and its cards
    are judged by the match (1, 0, -1), each checked against the reference solver's ``win``
    solves for both sides; the points it took are not said (they no longer count)."""
    from solver import reference

    s, script, out = session({"seed": 7}, first_choice, tmp_path)
    position = None
    real = Session.analysis

    def kept(self, played, whole=True):
        nonlocal position
        position = position or played
        return real(self, played, whole)

    Session.analysis = kept
    try:
        s.run()
    finally:
        Session.analysis = real
    text = out.getvalue()
    first = text.split("Deal 2 ·")[0]
    assert "Your cards, judged open-hand by the match, its target in reach" in first
    assert "Your side took" not in first
    # the key to the values on a line of its own, each value beside its meaning
    assert "\n1 sure to win it, -1 sure to lose it, 0 neither\n" in first
    rows = re.findall(r"^\d+ +S +(\S+) +(-?\d) +(-?\d) +(\S+)", first, re.M)
    deal = position.deal
    judged = []
    for index, card in enumerate(position.play):
        before = deal.position(position.play[:index])
        if before.to_move != 1:
            continue
        north, south = (reference.solve(before, side=side, objective="win").moves
                        for side in (0, 1))
        value = {c: south[c] - north[c] for c in south}    # S's side: won 1, lost -1
        best = max(value.values())
        cost = "·" if best == value[card] else str(best - value[card])
        judged.append((card_str(card, pretty=True), str(best), str(value[card]), cost))
    assert rows == judged and any(before == "1" for _, before, _, _ in rows)
    mistakes = sum(1 for *_, cost in rows if cost != "·")
    assert ("Your 2 mistakes made the match worse for your side, each against the best card "
            "at its turn." in " ".join(first.split())) == (mistakes == 2)


def test_a_mistake_known_only_in_part_is_counted_at_its_least(tmp_path, monkeypatch):
    """A card the limit left unjudged, but whose own value was found below the least its side
    could be sure of before it, is a mistake: counted, at the least it cost (it was left out
    of 'Your 3 mistakes cost 5 points', where its bounds showed it cost at least 2)."""
    import cli.playing

    judge = cli.playing.judge_cards
    judged = []

    def cut_short(*args, **kwargs):     # the first card: before known only as after+2 .. +5
        plays = judge(*args, **kwargs)
        first = plays[0]
        plays[0] = replace(first, before=None, best=(), lower=first.after + 2,
                           upper=first.after + 5, every_card=False)
        judged.append(plays)
        return plays

    monkeypatch.setattr(cli.playing, "judge_cards", cut_short)
    result = run("play", "--seed", 7, "--record", tmp_path / "r.jsonl", "--opponents",
                 "heuristic", input="1\n" * 8 + "quit\n")
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    plays = judged[0]
    after = plays[0].after
    assert f"{after + 2}..{after + 5} {after} ≥2 mistake; best not found" in text
    mistakes = 1 + sum(1 for p in plays[1:] if p.mistake)
    cost = 2 + sum(p.cost for p in plays[1:])
    assert f"Your {counted(mistakes, 'mistake')} cost at least {counted(cost, 'point')}, " in text
    assert "The search stopped at its limit (a..b: a value somewhere between a and b)." in text


def test_the_same_seed_plays_the_same_match(tmp_path):
    outs = []
    for name in ("a.jsonl", "b.jsonl"):
        result = run("play", "--seed", 9, "--target", 11, "--record", tmp_path / name,
                     input="1\n" * 400)
        outs.append(result.stdout.replace(name, "X"))
    assert outs[0] == outs[1]
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()


def test_the_bots_moves_are_shown_one_line_each(tmp_path):
    result = run("play", "--seed", 1, "--target", 11, "--record", tmp_path / "m.jsonl",
                 input="1\n" * 400)
    lines = result.stdout.splitlines()
    assert any(re.fullmatch(r"N plays [2-9TJQKA][♠♥♦♣]", line) for line in lines)
    assert any(re.fullmatch(r"N (stands|begs)", line) for line in lines)
    assert any(re.fullmatch(r"  (N|S \(you\)) wins trick \d+", line) for line in lines)
    assert any(re.fullmatch(r"  [NS] pegs \d+ \((trick \d+: .*|High: .*|Low: .*|Jack: .*|"
                            r"Game: .*)\)", line) for line in lines)
    assert any(line.startswith("Deal 1 is over: ") for line in lines)


def test_where_no_run_is_allowed_the_dealer_is_asked_to_take_one_and_told_why_not_run():
    """Under max_runs=0 the prompt offered 'Take one or run' and refused a run as 'not your
    call now', at the dealer's own call."""
    from cli.answers import AnswerError

    state = Match(2, Rules().replace(max_runs=0)).new_initial_state(seed=40)
    while state.phase != "dealer":
        state.apply_action(BEG if state.phase == "elder" else state.legal_actions()[0])
    obs = state.observation(state.current_player())
    assert obs.legal_actions == (TAKE_ONE,) or list(obs.legal_actions) == [TAKE_ONE]
    with pytest.raises(AnswerError, match=r"^these rules allow no run \(max_runs 0\): "
                                          r"take-one$"):
        read_answer("run", obs)
    # (with seed 40 the bot, the elder hand, begs: the person's first call is the dealer's)
    shown = run("play", "--seed", 40, "--rules", "all-fives:max_runs=0", input="run\nquit\n")
    assert re.search(r"^Take one: 1 take-one$", shown.stdout, re.M)
    assert "Take one or run" not in shown.stdout
    assert "  these rules allow no run (max_runs 0): take-one" in shown.stdout


def test_high_and_low_that_nobody_pegs_say_why():
    """No trump in any hand: High and Low went unscored without a word, where the Jack said
    it was in no hand."""
    from cli.table import unscored_lines

    bare = Position.from_line("N:A.K.Q.- 2.3.4.- dealer=S trump=C play=AS,2S,KH,3H,QD,4D")
    assert [line.plain for _, line in unscored_lines(bare, False)] == [
        "  Nobody pegs High: no trump was in any hand",
        "  Nobody pegs Low: no trump was in any hand",
        "  Nobody pegs Jack: JC was in no hand"]
    clubs = Position.from_line("N:A.K.-.J 2.3.-.4 dealer=S trump=C play=AS,2S,KH,3H,JC,4C")
    assert unscored_lines(clubs, False) == []


def test_every_peg_shows_what_it_is_for(tmp_path):
    """A capture lists the trumps it took, and they add up to its points; High, Low and Jack
    name a card of the trumps just fixed; Game gives every side's pips, the winner's the most;
    an end point nobody takes says why."""
    seen = {"trick": 0, "High": 0, "Low": 0, "Jack": 0, "Game": 0, "nobody": 0}
    for players, seed in ((2, 3), (3, 4), (4, 5)):
        result = run("play", "--players", players, "--seed", seed, "--target", 31,
                     "--record", tmp_path / "m.jsonl", "--no-color", input="1\n" * 600)
        assert result.exit_code == 0, result.stderr
        trump = None
        for line in result.stdout.splitlines():
            fixed = re.fullmatch(r"  Trumps are (\w+)\.", line)
            if fixed:
                trump = "♠♥♦♣"[["spades", "hearts", "diamonds", "clubs"].index(fixed[1])]
            peg = re.fullmatch(r"  (\w+) pegs (\d+) \((.*)\)", line)
            if peg is None:
                if line.startswith("  Nobody pegs "):
                    seen["nobody"] += 1
                    assert re.fullmatch(r"  Nobody pegs (Jack: J. was in no hand|Game: a tie "
                                        r"\((\w+ \d+ pips?, )+\w+ \d+ pips?\))", line), line
                continue
            points, why = int(peg[2]), peg[3]
            capture = re.fullmatch(r"trick \d+: (.*)", why)
            if capture:
                seen["trick"] += 1
                cards = capture[1].split()
                assert all(card[1] == trump for card in cards), line
                assert sum({"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10, "5": 5}[card[0]]
                           for card in cards) == points, line
                continue
            name, _, what = why.partition(": ")
            if name in ("High", "Low", "Jack"):
                seen[name] += 1
                assert re.fullmatch(r"[2-9TJQKA]" + trump, what), line
                assert name != "Jack" or what[0] == "J"
            elif name == "Game":
                seen[name] += 1
                pips = dict((side, int(p)) for side, p in
                            re.findall(r"(\w+) (\d+) pips?", what))
                assert pips[peg[1]] == max(pips.values()), line
                assert sorted(pips.values()).count(max(pips.values())) == 1, line
    assert all(seen.values()), seen


def beg_and_run(obs, count):
    """Beg and run the cards whenever the call is ours (long hands), else the first card."""
    return {"elder": "beg", "dealer": "run"}.get(obs.phase, "1")


def check_screen(text: str, obs, width: int, target: int) -> None:
    """The table screen of ``obs`` as laid out for ``width``: no line longer, and nothing a
    player needs left out."""
    from solver.cards import card_str, suit_of
    from solver.tricks import side_name

    lines = text.split("\n")
    assert max(len(line) for line in lines) <= width, "\n".join(lines)
    # the rule: as wide as the widest line below it, within the width
    widest = max(len(line) for line in lines[1:])
    assert lines[0] == "─" * min(width - 2, max(widest, 38)), "\n".join(lines)
    flat = " ".join(line.strip() for line in lines)
    assert f"Deal {obs.deal} · you are S" in flat and f"{target} to win" in flat
    # the pegboard: each side's score, and as many holes pegged as points up to the target
    board = lines[3:]
    named = [side_name(side, obs.players) for side in range(len(obs.score))]
    first = next(line for line in board if line.startswith(f"{named[0]} "))
    if not any(hole in first.replace(" · ", "  ") for hole in "●◆·"):
        # the holes left out where they would take a second row each: the scores on one line,
        # the goal after them where the heading had no room for it
        from cli.pegboard import row_length
        assert row_length(target) > width - 10
        assert first.split(" · ")[0].split() == [
            word for name, score in zip(named, obs.score) for word in (name, str(score))]
        board = []
    for side, score in enumerate(obs.score if board else ()):
        name = side_name(side, obs.players)
        start = next(k for k, line in enumerate(board) if line.startswith(f"{name} "))
        assert board[start].split()[1] == str(score)
        rows = [board[start]]
        for line in board[start + 1:]:  # the rows that go on under the first
            if not (line.startswith("   ") and line.strip()[0] in "●◆·"):
                break
            rows.append(line)
        holes = "".join(rows)
        assert holes.count("●") + holes.count("◆") == min(score, target)
        assert holes.count("●") + holes.count("◆") + holes.count("·") == target
    # every card played this deal is in the grid of tricks, under the seat that led it; the
    # card starred as winning a trick is the one whose seat the game had lead the next
    if obs.phase == "play":
        grid = " ".join(line for line in lines if line.startswith("  ") and
                        line.split()[0] in "NESW")
        for _, card in obs.play:
            assert card_str(card, True) in grid
        assert f"Trick {len(obs.play) // obs.players + 1}: " in flat
        led = " ".join(line.split(None, 1)[1] for line in lines if line.startswith("led ")).split()
        n = obs.players
        seats = "NESW" if n == 4 else "NES"[:n] if n == 3 else "NS"
        tricks = [obs.play[k:k + n] for k in range(0, len(obs.play), n)]
        assert led == [seats[trick[0][0]] for trick in tricks]
        starred = [seats[seat] for trick in tricks for seat, card in trick
                   if f"{card_str(card, True)}*" in grid]
        if tricks:
            assert starred == led[1:] + ([] if len(tricks[-1]) < n else starred[-1:])
    hand = lines[lines.index(next(x for x in lines if x.startswith("Your hand"))) + 1:]
    for card in obs.hand:
        row = hand[suit_of(card)].split()
        assert card_str(card)[0] in row[1:], (card_str(card), hand)


def test_a_four_player_screen_at_60_columns_fits_20_rows(tmp_path):
    """At 60 columns, where the pegboard's holes do not fit, the scores share a line and the
    goal goes after them: the heading takes one row, and a four-player screen of six cards, its
    choices and the prompt fit 20 rows."""
    from cli.table import table_screen

    s, script, out = session(dict(players=4, seed=3), lambda obs, count: "1", tmp_path,
                             width=60)
    s.run()
    screens = [table_screen(obs, 61, "peg-out", True, 60).plain.split("\n")
               for obs in script.seen if obs.phase == "play" and len(obs.play) >= 4]
    assert screens
    for lines in screens:
        assert lines[1].startswith("Deal ") and "to win" not in lines[1]
        assert lines[3].startswith("NS ") and lines[3].endswith("61 to win (first to peg out)")
        assert len(lines) + 2 <= 20, "\n".join(lines)


@pytest.mark.parametrize("width", [40, 60, 70, 80])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_table_is_laid_out_for_the_console_width(tmp_path, players, width):
    """Every screen of a match (long hands from runs among them) fits the console it is shown
    on, down to 40 columns, with nothing dropped but the pegboard's holes where they would take
    two rows a side (the scores stay; `score` shows the board); the legal cards are listed
    whole, each with its number, however many lines they take."""
    from cli.table import table_screen

    seed = {2: 22, 3: 20, 4: 22}[players]  # matches with runs in them
    s, script, out = session(dict(players=players, seed=seed, target=31), beg_and_run, tmp_path,
                             width=width)
    s.run()
    assert len(script.seen) > 10
    assert max(len(obs.hand) for obs in script.seen) > 6  # runs were made
    for obs in script.seen:
        check_screen(table_screen(obs, 31, "peg-out", True, width).plain, obs, width, 31)
    text = out.getvalue()
    lines = [line for line in text.splitlines() if "match.jsonl" not in line]  # a path is whole
    assert max(len(line) for line in lines) <= width, max(lines, key=len)
    # the screens were printed as laid out, not wrapped again by the console
    for obs in script.seen[:5]:
        screen = table_screen(obs, 31, "peg-out", True, width).plain
        assert screen in text
    # each list of choices reads 1 .. n in order, no number parted from its card
    listed = re.findall(r"(?:Your legal cards|Stand or beg|Take one or run): (.*?)\nYour "
                        r"(?:card|call):", text, re.S)
    assert len(listed) >= len(script.seen)
    for choices_text in listed:
        numbers = [int(n) for n in re.findall(r"(?:^|\s)(\d+) (?:\S+)", choices_text)]
        assert numbers == list(range(1, len(numbers) + 1)), choices_text


def test_the_pegboard_fits_its_width():
    """A strip of holes in rows no longer than the width, every hole there and as many pegged
    as the points reach (a hole of a long board counts once its last point is reached)."""
    from cli.pegboard import points_per_hole, strip

    for target in (7, 11, 31, 61, 121, 200):
        scale = points_per_hole(target)
        for width in (40, 50, 60, 70, 80):
            for score in (0, 1, target // 3, target - 1, target):
                rows = strip(score // 2, score, target, "", True, indent=" " * 7,
                             width=width).plain.split("\n")
                assert max(len(row) for row in rows) <= width
                assert all(row.startswith(" " * 7) for row in rows)
                holes = "".join(rows).replace(" ", "")
                assert len(holes) == -(-target // scale)
                pegged = len(holes) if score == target else score // scale
                assert holes.count("●") + holes.count("◆") == pegged
                assert holes == "".join(sorted(holes, key="●◆·".index))


@pytest.mark.parametrize("target, said", [(61, None), (125, None), (150, 2), (999, 8)])
def test_the_table_says_what_a_hole_is_worth_on_a_long_board(target, said):
    from cli.table import pegboard_lines

    state = Match(2, Rules.preset("all-fives", target=target)).new_initial_state(seed=4)
    text = pegboard_lines(state.observation(0), target, True).plain
    assert ("each hole" in text) == (said is not None)
    if said:
        assert text.splitlines()[-1] == f"each hole {said} points"


def test_the_hand_says_what_the_call_would_make_trumps():
    """Before trumps are fixed the hand marks the turn-up's suit, and says on what it becomes
    trumps: the elder's standing, or after a beg the dealer's giving one."""
    from cli.table import hand_lines

    state = Match(2).new_initial_state(seed=4)
    elder = state.observation(state.current_player())
    assert elder.phase == "elder"
    assert "(◂ trumps if you stand)" in hand_lines(elder, True).plain
    state.apply_action(BEG)
    dealer = state.observation(state.current_player())
    assert dealer.phase == "dealer"
    assert "(◂ trumps if you give one)" in hand_lines(dealer, True).plain
    state.apply_action(TAKE_ONE)
    assert "trumps if" not in hand_lines(state.observation(state.current_player()), True).plain


def test_help_is_wrapped_to_the_console(tmp_path):
    """``help`` is a few paragraphs broken to the console's width: every line full but the
    last of a paragraph, so that a narrow terminal does not show ragged halves of lines."""
    for width in (60, 80, 100):
        s, script, out = session({}, lambda obs, k: "help" if k == 1 else None, tmp_path,
                                 width=width)
        with pytest.raises(Stop):
            s.run()
        text = out.getvalue()
        shown = text[text.index(": help\n") + len(": help\n"):]
        shown = re.split(r"\n(?:Your legal cards|Stand or beg|Take one or run): ", shown)[0]
        shown = shown.splitlines()
        assert max(len(line) for line in shown) <= width
        words = " ".join(shown).split()
        assert words[:4] == ["Type", "a", "card", "as"] and words[-1] == "130."   # no more
        for line, after in zip(shown, shown[1:]):  # a line was broken only where it had to be
            if line and after and not after.startswith(("Commands", "Ctrl-D")):
                assert len(line.rstrip()) + 1 + len(after.split()[0]) > width, (line, after)


def test_a_side_that_pegs_out_in_the_play_is_told_the_deal_stops(tmp_path):
    """Peg-out: the side that reaches the target in the middle of the play wins at once; the
    table says so under the score it reached, and the record's last deal stops there."""
    s, script, out = session({}, first_choice, tmp_path)
    s.run()
    lines = out.getvalue().splitlines()
    state = s.state
    winner = "NS"[state.winners[0]]
    at = lines.index(f"  {winner} pegged out: the deal stops here.")
    assert re.fullmatch(r"  \w+ pegs \d+ \(.*\)", lines[at - 1])
    over = re.fullmatch(rf"Deal {len(state.deals)} is over: .*; the score is N (\d+), S (\d+)\..*",
                        lines[at + 1])
    assert over, lines[at + 1]
    assert lines[at + 1].endswith(f" {winner} wins the match.")    # not 'the game': one game
    assert int(over["NS".index(winner) + 1]) >= 11
    last = state.deals[-1]
    cards = [a for _, a in last.actions if a < 64]
    assert 0 < len(cards) < 12 and len(cards) % 2 == 0


def test_a_side_that_pegs_out_in_the_count_is_told_the_count_stops(tmp_path):
    """Seed 11 to 11: S reaches the target with the Jack's point after the last trick, and
    Game is not counted."""
    s, script, out = session({"seed": 11}, first_choice, tmp_path)
    s.run()
    lines = out.getvalue().splitlines()
    at = lines.index("  S pegged out: the count stops here.")
    assert lines[at - 1].startswith("  S pegs 1 (Jack: ")
    assert lines[at + 1].startswith("Deal 1 is over: N +0, S +11; the score is N 0, S 11.")
    assert [p.what for p in s.state.deals[0].pegs][-1] == "jack"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_deal_starts_with_its_dealer_and_turn_up(tmp_path, players):
    """Before the first call of each deal, one line says which deal it is, who deals and the
    card turned up, as the pack the record holds deals it."""
    from solver.cards import card_str
    from solver.shuffle import deal_pack

    s, script, out = session(dict(players=players, seed=30 + players), beg_and_run, tmp_path)
    s.run()
    lines = out.getvalue().splitlines()
    starts = [k for k, line in enumerate(lines) if re.match(r"Deal \d+ · \w deals · turn-up ", line)]
    assert len(starts) == len(s.state.deals)
    for k, log in zip(starts, s.state.deals):
        turnup = deal_pack(log.pack, players, log.dealer, 0)[1][0]
        assert lines[k] == f"Deal {log.number} · {s.state.seats[log.dealer]} deals · turn-up " \
            f"{card_str(turnup, True)}"
        first = log.actions[0]
        said = lines[k + 1]
        assert said.startswith(s.state.seats[first[0]] + " ") or said.startswith("────"), said


def test_a_label_s_style_does_not_run_into_what_follows():
    """``Your legal cards:`` is bold and a choice's number dim, but not the cards after them;
    ``Trick 2:`` is bold, not the seats and cards of the trick; ``led`` is dim, not the seats."""
    from cli.table import choices_line, played_lines, table_screen, trick_line

    obs = decision_in_play()
    plain = Console(width=80)

    def style_of(text, fragment):
        return text.get_style_at_offset(plain, text.plain.index(fragment))

    line = choices_line(obs, True, 80, first=Text("Your legal cards: ", style="bold"))
    for action in choices(obs):
        face = card_str(action, True)
        assert not style_of(line, face).dim and not style_of(line, face[1]).dim
    assert style_of(line, "Your").bold
    trick = trick_line(obs, True, 80)
    led = card_str(obs.play[-1][1], True)
    assert style_of(trick, "Trick").bold and not style_of(trick, led).bold
    grid = played_lines(obs, True, 80)
    assert style_of(grid, "led").dim
    start = grid.plain.index("led") + 7
    assert not grid.get_style_at_offset(plain, start).dim
    assert table_screen(obs, 61, "peg-out", True, 80).plain.count("Trick") == 2


def test_the_tricks_go_on_in_blocks_each_headed_as_the_first():
    from cli.table import played_lines, tricks_played

    from solver.game import BEG, RUN

    state = Match(2).new_initial_state(seed=1)
    while state.phase != "play" or len(state.position().tricks) < 8:  # the elder begs, a run
        legal = state.legal_actions()
        state.apply_action(next((a for a in legal if a in (BEG, RUN)), legal[0]))
    obs = state.observation(state.current_player())
    assert len(tricks_played(obs)) == 8
    narrow = played_lines(obs, True, 40).plain.splitlines()  # seven tricks to a block
    heads = [line.split() for line in narrow if line.startswith("Trick")]
    assert heads == [["Trick", *map(str, range(1, 8))], ["Trick", "8"]]


def test_score_shows_the_target_the_board_and_what_each_side_still_needs(tmp_path):
    answers = iter(["1"] * 20 + ["score"])

    def answer(obs, count):
        return next(answers, None)

    s, script, out = session(dict(target=31), answer, tmp_path)
    with pytest.raises(Stop):
        s.run()
    obs = script.seen[-2]  # the decision at which score was asked
    text = out.getvalue()
    shown = text[text.rindex(": score\n") + len(": score\n"):].splitlines()
    assert shown[0] == "Match to 31 (first to peg out wins)"
    assert shown[1].split()[:2] == ["N", str(obs.score[0])]
    assert shown[2].split()[:2] == ["S", str(obs.score[1])]
    assert shown[3] == f"Still to go: N {31 - obs.score[0]}, S {31 - obs.score[1]}"
    assert shown[4].startswith("This deal: ")
    assert max(obs.score) > 0


def test_the_screen_fits_80_columns(tmp_path):
    result = run("play", "--players", 4, "--seed", 2, "--target", 31, "--record",
                 tmp_path / "m.jsonl", input="1\n" * 400)
    assert result.exit_code == 0
    lines = [line for line in result.stdout.splitlines() if "m.jsonl" not in line]
    assert max(len(line.rstrip()) for line in lines) <= 80


# ---- answers -------------------------------------------------------------------------------

def decision_in_play(seed: int = 1, players: int = 2):
    """The observation of the seat to play at the first card decision that follows a lead."""
    state = Match(players).new_initial_state(seed=seed)
    while state.phase != "play" or not state.trick:
        state.apply_action(state.legal_actions()[0])
    return state.observation(state.current_player())


def test_cards_in_any_spelling_by_prefix_and_by_number():
    obs = decision_in_play()
    legal = choices(obs)
    card = legal[0]
    from solver.cards import card_str
    text = card_str(card)
    for spelling in (text, text.lower(), text.replace("T", "10"), card_str(card, True)):
        assert read_answer(spelling, obs) == card
    for number, action in enumerate(legal, 1):
        assert read_answer(str(number), obs) == action
    lone = replace(obs, legal_actions=(card,))
    assert read_answer("", lone) == card
    assert read_answer(text[0], lone) == card  # the rank alone


def test_an_answer_echoed_from_a_pipe_cannot_move_the_cursor(tmp_path):
    answers = iter(["x\x1b[2J\x1b[H", None])
    s, _, out = session({}, lambda obs, count: next(answers), tmp_path)
    with pytest.raises(Stop):
        s.run()
    text = out.getvalue()
    assert "\x1b" not in text
    assert ": x\\x1b[2J\\x1b[H\n" in text          # echoed as typed, escaped
    assert "unknown answer 'x\\x1b[2J\\x1b[H'" in text     # quoted as typed


def test_a_lowercase_q_at_a_card_is_asked_again_and_never_played(tmp_path):
    """'q' alone could be quit or a Queen: asked again, whatever the hand holds; 'Q' plays the
    lone legal Queen as a rank alone does."""
    answers = iter(["q", None])
    seen = []

    def answer(obs, count):
        if obs.phase != "play":
            return "1"
        seen.append(len(obs.play))
        return next(answers)

    s, _, out = session({}, answer, tmp_path)
    with pytest.raises(Stop):
        s.run()
    text = " ".join(out.getvalue().split())
    assert "'q' could be quit or a Queen: type quit to stop" in text
    assert len(seen) == 2 and seen[0] == seen[1]        # asked again, nothing played between


@pytest.mark.parametrize("legal, said", [
    ("QC 4C", ", or Q (or the card, QC) to play a Queen"),
    ("4C 9C", " (no Queen is yours to play)"),
])
def test_a_lowercase_q_names_the_queen_to_play_only_when_there_is_one(legal, said):
    cards = tuple(parse_card(c) for c in legal.split())
    obs = replace(decision_in_play(), hand=cards, legal_actions=cards, play=(), trump=2,
                  phase="play")
    with pytest.raises(AnswerError) as caught:
        read_answer("q", obs)
    assert str(caught.value) == "'q' could be quit or a Queen: type quit to stop" + said


def test_an_illegal_card_gives_the_follow_suit_reason():
    th, tc, fc = parse_card("TH"), parse_card("4C"), parse_card("9C")
    obs = replace(decision_in_play(), hand=(th, tc), legal_actions=(tc,),
                  play=((0, fc),), trump=2, phase="play")
    obs = replace(obs, rules=obs.rules.replace(follow="strict"))
    with pytest.raises(AnswerError, match=r"you hold a club: follow suit"):
        read_answer("TH", obs)
    with pytest.raises(AnswerError, match="you do not hold"):
        read_answer("AS", obs)
    # a suit typed alone: every card of it named, not the first (J♥ named for 'h' and 8♥ too)
    eh = parse_card("8H")
    both = replace(obs, hand=(th, eh, tc))
    with pytest.raises(AnswerError) as caught:
        read_answer("h", both)
    assert str(caught.value) == "you hold a club: follow suit (T♥ and 8♥ may not be played " \
                                "to 9♣ led)"
    with pytest.raises(AnswerError, match="^9♣ is played already$"):
        read_answer("9C", obs)      # (on the table: it said "you do not hold 9♣")


@pytest.mark.parametrize("hand, said", [("TH 4C", "follow suit"),
                                        ("TH 4C 2D", "follow suit or trump")])
def test_or_trump_is_offered_only_to_a_hand_that_holds_one(hand, said):
    """Trumps may be played anytime: to a club lead a hand without a diamond (trumps) was told
    to 'follow suit or trump'."""
    cards = tuple(parse_card(c) for c in hand.split())
    obs = replace(decision_in_play(), hand=cards, legal_actions=cards[1:],
                  play=((0, parse_card("9C")),), trump=2, phase="play")
    assert obs.rules.follow == "trump-anytime"
    with pytest.raises(AnswerError) as caught:
        read_answer("TH", obs)
    assert str(caught.value) == f"you hold a club: {said} (T♥ may not be played to 9♣ led)"


def test_bad_answers_each_say_why():
    ah, kh, ad = parse_card("AH"), parse_card("KH"), parse_card("AD")
    obs = replace(decision_in_play(), hand=(ah, kh, ad), legal_actions=(ah, kh, ad), play=(),
                  phase="play", trump=1)
    with pytest.raises(AnswerError, match=r"which Ace\? A♥ and A♦ are legal"):
        read_answer("A", obs)  # an ambiguous prefix: two aces
    with pytest.raises(AnswerError, match=r"which heart\? A♥ and K♥ are legal"):
        read_answer("h", obs)
    assert read_answer("K", obs) == kh
    assert read_answer("d", obs) == ad
    # a suit sign typed as an emoji (U+FE0F after it), alone or in a card
    assert read_answer("♦\ufe0f", obs) == ad and read_answer("K♥\ufe0f", obs) == kh
    with pytest.raises(AnswerError, match=r"which heart\? A♥ and K♥ are legal"):
        read_answer("♥\ufe0f", obs)
    with pytest.raises(AnswerError, match="there is no number 4: choose 1 to 3$"):
        read_answer("4", obs)
    nine = replace(obs, hand=(ah, kh, parse_card("9D")), legal_actions=(ah, kh, parse_card("9D")))
    with pytest.raises(AnswerError, match=r"there is no number 9: choose 1 to 3 \(for 9♦ type "
                                          r"9d\)$"):
        read_answer("9", nine)
    # 10 is a number too, whether or not the list is that long
    ten = replace(obs, hand=(ah, kh, parse_card("TD")), legal_actions=(ah, kh, parse_card("TD")))
    with pytest.raises(AnswerError, match=r"there is no number 10: choose 1 to 3 \(for T♦ type "
                                          r"td\)$"):
        read_answer("10", ten)
    assert read_answer("10d", ten) == read_answer("T", ten) == parse_card("TD")
    # every legal card of that rank is named, not the first alone
    tens = replace(obs, hand=(ah, parse_card("TC"), parse_card("TD")),
                   legal_actions=(ah, parse_card("TC"), parse_card("TD")))
    with pytest.raises(AnswerError, match=r"there is no number 10: choose 1 to 3 \(for T♦ or T♣ "
                                          r"type td or tc\)$"):
        read_answer("10", tens)
    long = replace(obs, hand=tuple(range(12)), legal_actions=tuple(range(12)))
    assert read_answer("10", long) == choices(long)[9]
    call = Match(2).new_initial_state(seed=1)
    assert len(call.legal_actions()) == 2      # stand or beg
    with pytest.raises(AnswerError, match="there is no number 3: choose 1 or 2$"):
        read_answer("3", call.observation(call.current_player()))
    # a call's answer quoted as typed
    with pytest.raises(AnswerError, match="unknown answer '1C'"):
        read_answer("1C", call.observation(call.current_player()))
    lone = replace(obs, hand=(ah,), legal_actions=(ah,))
    with pytest.raises(AnswerError, match="there is no number 2: choose 1$"):
        read_answer("2", lone)
    # bytes that were no UTF-8 (kept by surrogateescape) are quoted as the bytes
    with pytest.raises(AnswerError, match=r"unknown answer '\\xff\\xfe'"):
        read_answer("\udcff\udcfe", obs)
    with pytest.raises(AnswerError, match="unknown answer 'xyzzy'"):
        read_answer("xyzzy", obs)
    with pytest.raises(AnswerError, match="unknown answer '²'"):   # a digit, but not 0-9
        read_answer("²", obs)
    # an answer is quoted cut short, and with its control characters escaped
    with pytest.raises(AnswerError, match="unknown answer 'y{23}…': type"):
        read_answer("y" * 5000, obs)
    with pytest.raises(AnswerError, match="unknown answer '漢{11}…': type"):   # 2 cells each
        read_answer("漢" * 100, obs)
    with pytest.raises(AnswerError, match=r"unknown answer 'x\\x1b\[2J': type"):
        read_answer("x\x1b[2J", obs)
    with pytest.raises(AnswerError, match="you hold no Queen"):
        read_answer("Q", obs)
    with pytest.raises(AnswerError, match="Enter alone"):
        read_answer("", obs)


def test_calls_by_name_prefix_and_number():
    state = Match(2).new_initial_state(seed=1)
    obs = state.observation(state.current_player())
    assert obs.phase == "elder"
    for text, action in (("stand", STAND), ("s", STAND), ("B", BEG), ("beg", BEG), ("1", STAND),
                         ("2", BEG), ("stands", STAND), ("begs", BEG)):
        assert read_answer(text, obs) == action
    with pytest.raises(AnswerError, match="not your call now"):
        read_answer("run", obs)
    with pytest.raises(AnswerError, match="no card is played yet"):
        read_answer("TH", obs)
    # a lone q is the start of quit (it names no call), as at a card
    for q in ("q", "Q"):
        with pytest.raises(AnswerError, match="^'q' could be quit: type quit to stop, or stand "
                                              "or beg$"):
            read_answer(q, obs)
    state.apply_action(BEG)
    obs = state.observation(state.current_player())
    for text, action in (("t", TAKE_ONE), ("take one", TAKE_ONE), ("take-one", TAKE_ONE),
                         ("take_one", TAKE_ONE), ("TakeOne", TAKE_ONE), ("take  o", TAKE_ONE),
                         ("r", RUN), ("run", RUN),
                         # as the table says them: 'gives one (take-one)', 'runs the cards'
                         ("give one", TAKE_ONE), ("Gives one", TAKE_ONE), ("g", TAKE_ONE),
                         ("giveone", TAKE_ONE), ("runs", RUN), ("runs the cards", RUN),
                         ("run the cards", RUN)):
        assert read_answer(text, obs) == action
    # a space only where the call's name has its hyphen: 'r u n' was read as run
    for text in ("r u n", "ru n", "t ake", "-", "take one more", "give two", "runs the card s"):
        with pytest.raises(AnswerError, match=f"^unknown answer '{text}'"):
            read_answer(text, obs)


def test_bad_answers_are_asked_again_in_a_session(tmp_path):
    def answer(obs, count):
        if count > 40:
            return None
        if obs.phase != "play":
            return "1"
        if count < 10:
            return ["xyzzy", "99", "zz", "1"][count % 4]
        return None

    s, script, out = session({}, answer, tmp_path)
    with pytest.raises(Stop):
        s.run()
    text = out.getvalue()
    assert "unknown answer 'xyzzy'" in text
    assert "there is no number 99" in text
    assert "Traceback" not in text


def test_an_illegal_card_in_a_session_is_asked_again_with_the_reason(tmp_path):
    tried = []

    def answer(obs, count):
        if obs.phase != "play":
            return "1"
        legal = set(obs.legal_actions)
        wrong = [c for c in obs.hand if c not in legal]
        if wrong and not tried:
            tried.append(wrong[0])
            from solver.cards import card_str
            return card_str(wrong[0])
        if tried and count > 60:
            return None
        return "1"

    for seed in range(1, 20):
        tried.clear()
        s, script, out = session({"seed": seed, "preset": "strict"}, answer, tmp_path)
        try:
            s.run()
        except Stop:
            pass
        if tried:
            break
    assert tried
    assert re.search(r"you hold an? \w+: follow suit", out.getvalue())


# ---- hint and undo ---------------------------------------------------------------------------

def hinted_session(tmp_path, monkeypatch, seed: int = 6, players: int = 2):
    """A session that asks for a hint at its first call and its first card, then quits; the
    advice behind every hint, with the observation it was asked for."""
    import cli.advising

    asked: list = []
    real = cli.advising.advice_for

    def advice_for(obs, worlds, seed, seen=None, node_limit=cli.advising.ADVICE_NODES):
        advice = real(obs, worlds, seed, seen, node_limit)
        asked.append((obs, worlds, seed, advice, node_limit))
        return advice

    monkeypatch.setattr(cli.advising, "advice_for", advice_for)
    phases: list[str] = []

    def answer(obs, count):
        if obs.phase not in phases:
            phases.append(obs.phase)
            return "hint"
        if obs.phase == "play":
            return "quit"
        return "1"

    s, script, out = session({"seed": seed, "players": players}, answer, tmp_path)
    with pytest.raises(Stop):
        s.run()
    return s, script, out.getvalue(), asked


def test_hint_shows_the_advice_from_what_you_can_see(tmp_path, monkeypatch):
    from solver.cards import card_str
    from solver.game import CALLS

    s, script, text, asked = hinted_session(tmp_path, monkeypatch)
    assert [obs.phase for obs, *_ in asked] == ["elder", "play"]    # S is the elder hand
    hints = text.split("Advice from what you can see")[1:]
    assert len(hints) == len(asked)
    for (obs, worlds, seed, advice, nodes), hint in zip(asked, hints):
        assert nodes == HINT_NODES
        # the advice is of what the person saw at that decision, nothing more
        assert obs in script.seen and obs.seat == s.me
        values = {v.action: v for v in advice.actions}
        assert set(values) == set(obs.legal_actions)
        rows = re.findall(r"^  (\d+) (\S+)\s+([-+]?\d+\.\d\d|\d+%)", hint, re.M)
        assert [int(n) for n, _, _ in rows] == list(range(1, len(obs.legal_actions) + 1))
        for (_, face, mean), action in zip(rows, choices(obs)):
            assert face == (CALLS[action] if action in CALLS else card_str(action, True))
            win = advice.objective == "win"
            assert float(mean.rstrip("%")) == pytest.approx(
                values[action].mean * (100 if win else 1), abs=0.5 if win else 0.006)
        best = [line.split()[1] for line in hint.splitlines() if line.endswith("  best")]
        top = advice.best
        assert (CALLS[top] if top in CALLS else card_str(top, True)) in best
    assert "Open-hand values" not in text


def test_a_hint_is_the_same_when_the_match_is_played_again(tmp_path, monkeypatch):
    first = hinted_session(tmp_path, monkeypatch, seed=6, players=4)[2]
    second = hinted_session(tmp_path, monkeypatch, seed=6, players=4)[2]
    assert first == second and "Advice from what you can see" in first


def test_a_hint_reads_nothing_but_the_observation(tmp_path):
    s, script, out = session({"seed": 3}, lambda obs, count: None, tmp_path)
    state = s.state
    while state.phase != "play" or state.current_player() != s.me:
        state.apply_action(state.legal_actions()[0])
    obs = state.observation(s.me)
    s.state = None          # the hint cannot look at the hands
    text = s.hint(obs).plain
    assert "Advice from what you can see" in text and text.count("\n  ") >= len(obs.legal_actions)


@pytest.mark.parametrize("width", [40, 60, 80])
def test_a_hint_is_broken_to_the_console_width(tmp_path, width):
    """The hint's words break between words at the console's width, indented under
    themselves, and say all they said at full width; on a narrow screen each choice's interval
    is on a line of its own under it."""
    s, script, out = session({"seed": 3, "players": 4}, lambda obs, count: None, tmp_path,
                             width=width)
    state = s.state
    while state.phase != "play" or state.current_player() != s.me:
        state.apply_action(state.legal_actions()[0])
    text = s.hint(state.observation(s.me)).plain
    lines = text.split("\n")
    assert max(len(line) for line in lines) <= width, text
    assert all(line.startswith("  ") for line in lines)
    words = " ".join(line.strip() for line in lines)
    # (S, the elder hand, stood: no other seat's call to weigh the deals by)
    assert "Advice from what you can see, over 64 deals of the cards you have not seen:" in words
    # the interval follows the value it is of: a chance, before the points that rank equals
    assert re.search(r"chance of winning the match in this deal, 95% interval, then NS's "
                     r"points in the "
                     r"deal minus EW's, share of deals best", words), words
    # the note under a played-out table too
    from cli.advising import advice_lines
    from solver.pimc import PLAYED_OUT, ActionValue, Advice

    obs = state.observation(s.me)
    actions = tuple(ActionValue(a, 1.0, 0.0, 2.0, 0.5) for a in obs.legal_actions)
    advice = Advice(obs.seat, "play", "margin", 16, False, False, actions, method=PLAYED_OUT)
    lines = advice_lines(advice, obs, list(obs.legal_actions), True, width).plain.split("\n")
    assert max(len(line) for line in lines) <= width, max(lines, key=len)
    intervals = [k for k, line in enumerate(lines) if "+0.00 to +2.00" in line]
    assert len(intervals) == len(actions)
    rows = [k for k, line in enumerate(lines) if re.match(r"  \d+ ", line)]
    assert intervals == ([k + 1 for k in rows] if width < 60 else rows)
    assert "(too deep to solve in time: each deal played out by the heuristic)" in \
        " ".join(line.strip() for line in lines)
    # and the note of a chance of winning dropped for the budget
    dropped = replace(advice, method="solved", complete=True, win_dropped=True)
    lines = advice_lines(dropped, obs, list(obs.legal_actions), True, width).plain.split("\n")
    assert max(len(line) for line in lines) <= width, max(lines, key=len)
    assert "(near the target, but no chance of winning fitted the limit: valued by points)" in \
        " ".join(line.strip() for line in lines)


def test_a_hint_at_a_call_near_the_target_says_what_its_points_count(tmp_path):
    """Near the target a call's points rank equal chances, a lost match counting -61 (a
    margin of -31 in a match to 5): the hint says so, as advise's key does (it did not)."""
    s, script, out = session({"seed": 21, "target": 5}, lambda obs, count: None, tmp_path)
    observation = s.state.observation(s.me)
    assert observation.phase == "elder"
    words = " ".join(s.hint(observation).plain.split())
    assert "chance of winning the match in this deal, 95% interval, then S's points in the " \
           "deal minus N's" in words
    assert words.endswith("(the points: a deal that wins the match counts as a fixed 61, one "
                          "that loses it -61)")


def test_a_slow_bot_shows_that_it_is_thinking_on_a_terminal(tmp_path, monkeypatch):
    """While a bot decides, a live line on the terminal's standard error says who is thinking;
    it is gone from the screen once the move is made, and never printed among the moves."""
    import time

    import cli.playing
    import cli.status

    monkeypatch.setattr(cli.status, "DELAY", 0.0)
    original = cli.playing.decide

    def slow(bot, state):
        time.sleep(0.6)
        return original(bot, state)

    monkeypatch.setattr(cli.playing, "decide", slow)
    status_out = io.StringIO()
    status = Console(file=status_out, force_terminal=True, width=80, color_system=None)
    setup = make_setup(2, None, None, "all-fives", 11, 3, str(tmp_path / "m.jsonl"))
    out_console, out = console()
    script = Script(lambda obs, k: "1" if k < 3 else None)
    s = Session(setup, out_console, script, pretty=True, status=status)
    script.session = s
    with pytest.raises(Stop):
        s.run()
    assert "N is thinking: 0 s" in status_out.getvalue()
    assert "thinking" not in out.getvalue()
    # undo plays the match again, every bot's move worked out afresh: said too
    status_out.truncate(0)
    script = Script(lambda obs, k: {1: "1", 2: "1", 3: "undo"}.get(k))
    s = Session(setup, out_console, script, pretty=True, status=status)
    script.session = s
    with pytest.raises(Stop):
        s.run()
    assert "going back: the match played again to your previous decision: " in \
        status_out.getvalue()


def test_pimc_plays_at_the_table(tmp_path):
    record = tmp_path / "match.jsonl"
    result = run("play", "--seed", 5, "--opponents", "pimc:worlds=4,time_limit=none",
                 "--target", 11, "--record", record, input="1\n" * 60)
    assert result.exit_code == 0, result.stderr
    assert "  N  pimc:worlds=4,time_limit=none" in result.stdout
    records = read_records(record.read_text(encoding="utf-8"))
    assert records and records[0]["players"]["N"] == "pimc:worlds=4,time_limit=none"
    replay(records)


def test_undo_returns_to_the_previous_decision_with_the_same_cards(tmp_path):
    def answer(obs, count):
        return {1: "1", 2: "1", 3: "undo", 4: "undo"}.get(count) or None

    s, script, out = session({"seed": 2}, answer, tmp_path)
    with pytest.raises(Stop):
        s.run()
    first, second, third, after_one, after_two = script.seen[:5]
    assert after_one == second      # back to the previous decision
    assert after_two == first       # and once more to the one before it
    assert third != second
    assert out.getvalue().count("Back to your previous decision.") == 2


def test_after_an_undo_the_bots_go_on_as_they_would_have(tmp_path):
    """Undo plays the match again with fresh bots, each bot's moves worked out again, so that
    a bot that draws at random draws as it did: answered alike, the match goes on alike."""
    def straight(obs, count):
        return "1" if count <= 30 else None

    def undoing(obs, count):      # the third answer taken back and given again
        return {4: "undo"}.get(count) or ("1" if count <= 32 else None)

    ends = []
    for k, answer in enumerate((straight, undoing)):
        s, script, _ = session({"seed": 4, "opponents": ["random"], "target": 61,
                                "record": str(tmp_path / f"{k}.jsonl")}, answer, tmp_path)
        with pytest.raises(Stop):
            s.run()
        ends.append(s.history)
    assert ends[0] == ends[1] and len(ends[0]) > 40


def test_undo_passes_over_a_card_that_was_the_only_legal_one(tmp_path, monkeypatch):
    """At the pause after a deal, undo went back to the deal's last card, the only one left in
    the hand: a second undo was needed to reach a choice.  Now it goes back to the last
    decision with two or more legal actions."""
    s, prompts, out = terminal_session(tmp_path, monkeypatch, ["undo"])
    facing = []
    real_undo = s.undo

    def undo():
        real_undo()
        facing.append(len(s.state.legal_actions()))
        raise Stop("seen")

    s.undo = undo
    with pytest.raises(Stop):
        s.run()
    assert facing and facing[0] > 1 and s.state.current_player() == s.me


def test_undo_into_a_deal_already_recorded_names_the_record_written_before(tmp_path):
    undone = []

    def answer(obs, count):
        if undone:
            return None                     # the end of input, back in the first deal
        if s.state.deals:                   # the first decision of the second deal
            undone.append(count)
            return "undo"
        return "1"

    s, script, out = session({"seed": 2}, answer, tmp_path)
    with pytest.raises(Stop):
        s.run()
    assert undone and not s.state.deals
    record = tmp_path / "match.jsonl"
    assert s.where() == (f"no deal is over since your undo; the record written before it is "
                         f"in {record}")
    assert len(replay(read_records(record.read_text(encoding="utf-8"))).deals) == 1


def test_undo_at_the_first_decision_has_nothing_to_undo(tmp_path):
    s, script, out = session({}, lambda obs, count: "undo" if count == 1 else None, tmp_path)
    with pytest.raises(Stop):
        s.run()
    said = out.getvalue().split(": undo\n", 1)[1].split("\n")
    # the choice asked again at once: the word is not taken for an answer
    assert said[0] == "  Nothing to undo: this is your first decision."
    assert said[1].startswith(("Stand or beg: ", "Your legal cards: ", "Take one"))


# ---- how it ends -----------------------------------------------------------------------------

def test_the_end_of_input_saves_the_record_and_stops_cleanly(tmp_path):
    record = tmp_path / "m.jsonl"
    result = run("play", "--seed", 1, "--record", record, input="1\n" * 40)
    assert result.exit_code == 0, result.stderr
    last = last_words(result.stdout)
    assert re.fullmatch(rf"You left the match after \d+ deals?; the record is in "
                        rf"{re.escape(str(record))}\.", last), last
    records = read_records(record.read_text(encoding="utf-8"))
    assert records
    state = replay(records)
    assert not state.is_terminal()


def test_no_deal_finished_writes_no_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "--seed", 1, input="")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == ("You left the match in deal 1; no deal is "
                                              "over yet, so there is no record.")
    assert not list(tmp_path.iterdir())


def test_quit_saves_to_the_default_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "--seed", 7, input="1\n" * 40 + "quit\n")
    assert result.exit_code == 0
    assert "the record is in allfives-7.jsonl." in last_words(result.stdout)
    first = (tmp_path / "allfives-7.jsonl").read_text(encoding="utf-8")
    # the same seed again never writes over a record: the next free name is taken
    (tmp_path / "allfives-7-2.jsonl").write_text("kept\n", encoding="utf-8")
    again = run("play", "--seed", 7, input="1\n" * 40 + "quit\n")
    assert "the record is in allfives-7-3.jsonl." in last_words(again.stdout)
    assert (tmp_path / "allfives-7-2.jsonl").read_text(encoding="utf-8") == "kept\n"
    assert (tmp_path / "allfives-7-3.jsonl").read_text(encoding="utf-8") == first
    # a record named is written over, as asked; a file that holds no record is not
    (tmp_path / "allfives-7.jsonl").write_text(first.replace('"you"', '"me"'), encoding="utf-8")
    named = run("play", "--seed", 7, "--record", "allfives-7.jsonl", input="1\n" * 40 + "quit\n")
    assert "the record is in allfives-7.jsonl." in last_words(named.stdout)
    assert (tmp_path / "allfives-7.jsonl").read_text(encoding="utf-8") == first
    refused = run("play", "--seed", 7, "--record", "allfives-7-2.jsonl", input="quit\n")
    assert refused.exit_code == 2 and refused.stderr == (
        "allfives: error: --record: allfives-7-2.jsonl holds something other than a game "
        "record: not written over (name another file, or remove it first)\n")
    assert (tmp_path / "allfives-7-2.jsonl").read_text(encoding="utf-8") == "kept\n"


def test_a_default_record_name_taken_meanwhile_goes_to_the_next(tmp_path, monkeypatch):
    """Two sessions of one seed begun at once both found allfives-SEED.jsonl free, and the
    later one's record replaced the earlier's: the name is taken as the first deal ends, and
    one taken meanwhile is passed over."""
    monkeypatch.chdir(tmp_path)
    setup = make_setup(2, None, None, "all-fives", 11, 3, None)
    assert str(setup.record) == "allfives-3.jsonl"
    (tmp_path / "allfives-3.jsonl").write_text("another's\n", encoding="utf-8")
    setup.record.write("one\n")
    setup.record.close()
    assert str(setup.record) == "allfives-3-2.jsonl"
    assert (tmp_path / "allfives-3.jsonl").read_text(encoding="utf-8") == "another's\n"
    assert (tmp_path / "allfives-3-2.jsonl").read_text(encoding="utf-8") == "one\n"


def test_a_named_record_there_already_is_held_from_the_start(tmp_path):
    """A record named that is there already is locked as the session begins, not as its first
    deal ends: a match begun on it meanwhile had ended the session after its first deal."""
    import fcntl

    path = tmp_path / "kept.jsonl"
    path.write_text((EXAMPLES / "match.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    before = path.read_bytes()
    setup = make_setup(2, None, None, "all-fives", 11, 3, str(path))
    with open(path, "ab") as other:
        with pytest.raises(BlockingIOError):
            fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        setup.record.close()
        fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    assert path.read_bytes() == before      # (held, not written until a deal ends)


def test_the_record_holds_every_finished_deal_at_every_decision(tmp_path):
    """The record is written as each deal ends, a deal thrown in too, not when the session
    ends: at every decision of the person's the file holds every deal over so far.  (Seed 0
    against random play: the second deal is thrown in, and the person decides in the third.)"""
    path = tmp_path / "match.jsonl"
    held = []

    def answer(obs, count):
        deals = len(s.state.deals)
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        held.append((len(read_records(text)) if text else 0, deals))
        if deals == 3:
            return None
        if obs.phase == "elder":
            return "beg"
        return "run" if obs.phase == "dealer" and len(obs.legal_actions) > 1 else "1"

    s, _, out = session(dict(seed=0, opponents=["random"]), answer, tmp_path)
    with pytest.raises(Stop):
        s.run()
    thrown = [k for k, log in enumerate(s.state.deals) if log.thrown_in]
    assert thrown == [1] and any(deals == 2 for _, deals in held)
    dealer = "NS"[s.state.deals[1].dealer]
    assert f"The cards are thrown in; {dealer} deals again." in out.getvalue()
    assert all(written == deals for written, deals in held) and len(held) > 10


def test_the_record_grows_at_its_end_and_is_written_whole_after_an_undo(tmp_path):
    """A deal more is added at the end of the record (it was written whole at every deal, so
    that a run killed as it saved left the file empty); a record that is not the one before
    with more at its end (an undo took a deal back) is written in its place."""
    from cli.recordfile import PlayRecord

    path = tmp_path / "r.jsonl"
    record = PlayRecord(path, True, 1)
    record.write("a\n")
    path.write_text("z\n", encoding="utf-8")     # (changed behind it: not written again)
    record.write("a\nb\n")
    assert path.read_text(encoding="utf-8") == "z\nb\n"
    record.write("c\n")
    assert path.read_text(encoding="utf-8") == "c\n"
    record.close()


@pytest.mark.parametrize("named", [True, False])
def test_a_record_removed_while_the_game_goes_on_is_made_again(tmp_path, monkeypatch, named):
    """The record was removed (or replaced) between deals: the later deals went into the file
    removed, nothing was said, and the last line named a record that was not there. It is made
    again, whole; a folder put in its place is said, in one line."""
    from cli.recordfile import PlayRecord

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "r.jsonl" if named else Path("allfives-1.jsonl")
    record = PlayRecord(path, named, 1)
    record.write("a\n")
    path.unlink()
    record.write("a\nb\n")
    assert path.read_text(encoding="utf-8") == "a\nb\n"
    path.unlink()
    path.write_text("z\n", encoding="utf-8")       # (another file in its place: kept)
    if named:
        with pytest.raises(AllFivesError, match="holds something other than a game record"):
            record.write("a\nb\nc\n")
    else:
        record.write("a\nb\nc\n")
        assert str(record) == "allfives-1-2.jsonl"
        assert Path(str(record)).read_text(encoding="utf-8") == "a\nb\nc\n"
    assert path.read_text(encoding="utf-8") == "z\n"
    record.close()
    # in a session: the folder in the record's place is said when the next deal ends
    folder = tmp_path / "held.jsonl"
    calls = {"n": 0}
    import cli.playing

    save = cli.playing.Session.save

    def removed_after_the_first(self) -> bool:
        if calls["n"] == 1:
            folder.unlink()
            folder.mkdir()
        calls["n"] += 1
        return save(self)

    monkeypatch.setattr(cli.playing.Session, "save", removed_after_the_first)
    result = run("play", "--seed", 7, "--record", folder, "--opponents", "heuristic",
                 input="1\n" * 40 + "quit\n")
    assert result.exit_code == 2 and calls["n"] == 2      # (a folder named as a file: 2)
    assert result.stderr == f"allfives: error: --record: {folder}: Is a directory\n"


def test_a_record_another_run_is_writing_or_a_pipe_is_refused(tmp_path):
    """play took no lock: naming the record a match was writing put its own over the match's
    lines (4 MB of NULs between them); a pipe as play's record waited for a reader for ever
    (match writes into one, for another program to read)."""
    import fcntl

    held = tmp_path / "held.jsonl"
    with open(held, "w", encoding="utf-8") as out:
        fcntl.flock(out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        for args in (["play", "--seed", "7"], ["match", "heuristic", "random", "--deals", "2"]):
            result = run(*args, "--record", held, input="quit\n")
            assert result.exit_code == 2 and result.stderr == (
                f"allfives: error: --record: {held}: another run is writing this record (two "
                f"runs would write over each other's lines)\n")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    result = run("play", "--seed", "7", "--record", pipe, input="quit\n")
    assert result.exit_code == 2 and result.stderr == (
        f"allfives: error: --record: {pipe} is a pipe, not a file: a record is written to "
        f"a file\n")
    deal = tmp_path / "deal.toml"
    deal.write_text("[hands]\n", encoding="utf-8")
    result = run("match", "heuristic", "random", "--deals", "2", "--record", deal)
    assert result.exit_code == 2 and "holds something other than a game record" in result.stderr
    assert deal.read_text(encoding="utf-8") == "[hands]\n"
    # blank lines alone are no other content: written over
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n \n", encoding="utf-8")
    assert run("match", "heuristic", "random", "--deals", "2", "--record", blank).exit_code == 0
    assert blank.read_text(encoding="utf-8").startswith('{"')


@pytest.mark.parametrize("stop, status, said", [(KeyboardInterrupt, 130, "interrupted"),
                                                 (Terminated, 143, "terminated")],
                         ids=["ctrl-c", "sigterm"])
def test_ctrl_c_saves_the_record_and_exits_130(tmp_path, monkeypatch, stop, status, said):
    record = tmp_path / "m.jsonl"
    calls = []
    original = Session.ask

    def ask(self, prompt):
        calls.append(1)
        if len(calls) > 30:
            raise stop
        return original(self, prompt)

    monkeypatch.setattr(Session, "ask", ask)
    result = run("play", "--seed", 1, "--record", record, input="1\n" * 100)
    assert result.exit_code == status
    assert result.stderr == f"allfives: {said}; the record is in {record}\n"
    replay(read_records(record.read_text(encoding="utf-8")))


def test_bad_options_are_one_line(tmp_path):
    result = run("play", "--seat", "E", "--record", tmp_path / "m.jsonl", input="")
    assert result.exit_code == 2 and "seat" in result.stderr
    result = run("play", "--opponents", "nobody", input="")
    assert result.exit_code == 2 and "unknown player 'nobody'" in result.stderr
    result = run("play", "--players", 3, "--opponents", "random", "--opponents", "random",
                 "--opponents", "random", input="")
    assert result.exit_code == 2 and "--opponents" in result.stderr
    result = run("play", "--opponents", "random", "--opponents", "random", input="")
    assert result.exit_code == 2 and result.stderr.endswith(
        "--opponents: give one player, for the one bot, not 2\n")


@pytest.mark.parametrize("answers", ["", "1\n" * 8, "1\n" * 8 + "quit\n", "1\n" * 400])
def test_the_last_lines_break_between_words_and_keep_the_record_name_whole(tmp_path, answers):
    """On a console narrower than the last sentence no word is broken, and the record's name
    (a path, to be copied) is never parted."""
    width = 40
    record = tmp_path / "a-rather-long-folder-name" / "match.jsonl"
    record.parent.mkdir()
    out_console, out = console(width)
    play_command(2, None, ["random"], "all-fives", 11, 3, str(record), None,
                 stream=io.StringIO(answers), console=out_console)
    tail = out.getvalue().splitlines()[-3:]
    for line in tail:  # a terminal breaks a longer line anywhere, inside a word
        assert len(line) <= width or line.lower() == f"  the record is in {record}.", tail
    # a line broken goes on indented, so that it is not read as a new one
    assert all(line.startswith("  ") for line in tail[tail.index(next(
        line for line in tail if line.startswith(("You left", "N wins", "S wins")))) + 1:]), tail
    said = last_words(out.getvalue())
    if answers == "":
        left = tail[next(k for k, line in enumerate(tail) if line.startswith("You left")):]
        assert " ".join(line.strip() for line in left) == "You left the match in deal 1; " \
            "no deal is over yet, so there is no record."
    else:
        assert said.endswith(f"the record is in {record}.") or \
            said.endswith(f"The record is in {record}."), tail


def test_play_command_takes_a_stream_and_a_console(tmp_path):
    out_console, out = console()
    import fcntl

    path = tmp_path / "r.jsonl"
    play_command(2, None, ["random"], "all-fives", 11, 3, str(path), None,
                 stream=io.StringIO("1\n" * 400), console=out_console)
    assert "The record is in" in last_words(out.getvalue())
    with open(path, "ab") as other:     # the record's lock is let go as the command ends
        fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_the_cards_of_a_deal_are_judged_by_the_points_unless_asked_by_the_match(tmp_path):
    """``judge_cards`` as ``analyze`` judges: each of the seat's cards against the points its
    side could be sure of before it (the reference solver's), or, asked, by the match."""
    from cli.inputs import deal_position
    from solver import reference
    from solver.search import solve

    state = Match(2, Rules.preset("all-fives", target=61)).new_initial_state(seed=5)
    while not state.deals:
        state.apply_action(state.legal_actions()[0])
    position = deal_position(state, 1, "d")
    plays = judge_cards(position, 0, solve, 1_000_000)
    mine = [k for k in range(len(position.play))
            if position.deal.position(position.play[:k]).to_move == 0]
    assert [p.index for p in plays] == mine and len(mine) >= 5
    for p in plays:
        before = position.deal.position(position.play[:p.index])
        assert p.before == reference.solve(before, side=0).value
    by_match = judge_cards(position, 0, solve, 1_000_000, for_match=True)
    assert {p.before for p in by_match} <= {-1, 0, 1}


def test_one_mistake_is_against_the_best_card_and_several_each_against_it(tmp_path):
    """The analysis after a deal: ``Your 1 mistake cost 2 points, against the best card at its
    turn``; ``Your 3 mistakes cost 5 points, each against the best card at its turn``."""
    counts = set()
    for seed in range(1, 6):
        s, _, out = session({"seed": seed, "target": 61,
                             "record": str(tmp_path / f"{seed}.jsonl")},
                            lambda obs, count: "1" if count <= 40 else None,
                            tmp_path)
        with pytest.raises(Stop):
            s.run()
        text = " ".join(out.getvalue().split())
        for count, against in re.findall(r"Your (\d+) mistakes? cost [^,]+, (each against|"
                                          r"against) the best card at its turn", text):
            assert (against == "against") == (count == "1")
            counts.add(min(int(count), 2))
    assert counts == {1, 2}


@pytest.mark.parametrize("preset", ["all-fives", "strict", "classic", "all-fours",
                                    "five-for-five"])
def test_the_opening_line_names_the_game_the_preset_plays(tmp_path, preset):
    """All Fours under its own preset (the parent game: no captures), All Fives under the
    others; the preset and the match's target follow."""
    from solver.rules import PRESETS

    result = run("play", "--rules", preset, "--seed", 3, "--record", tmp_path / "m.jsonl",
                 input="quit\n")
    lines = result.stdout.splitlines()
    game = "All Fives" if PRESETS[preset].capture else "All Fours"
    target = PRESETS[preset].target
    assert lines[0] == f"{game}, 2 players, rules {preset}, {target} to win; seed 3.", lines[0]
    assert "Type help for how to play, quit to stop." in lines[1:5]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_score_at_the_end_of_a_deal_is_said_once(tmp_path, players):
    """The line that ends a deal gives the score: the points pegged just above it are not
    followed by a score line of their own; within a deal the score follows each peg."""
    s, script, out = session({"players": players, "seed": 4, "target": 31}, first_choice,
                             tmp_path)
    s.run()
    lines = out.getvalue().splitlines()
    overs = [k for k, line in enumerate(lines) if re.match(r"Deal \d+ is over: ", line)]
    played = [log for log in s.state.deals if not log.thrown_in]
    assert len(overs) == len(played) > 1
    for k, log in zip(overs, played):
        assert not lines[k - 1].startswith("  Score:"), lines[k - 1]
        assert f"; the score is {scores_text(players, log.score)}." in lines[k]
    assert any(line.startswith("  Score:") for line in lines)  # pegs within a deal


def test_on_a_narrow_screen_what_happened_keeps_its_indent(tmp_path):
    """At 30 columns the lines that say what happened at the table wrap under themselves,
    indented two more so as not to read as a new line: a peg's reason, the score."""
    s, script, out = session({"players": 4, "seed": 5, "target": 31}, first_choice, tmp_path,
                             width=30)
    s.run()
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert max(len(line) for line in lines if "record" not in line) <= 30  # a path kept whole
    pegs = [k for k, line in enumerate(lines) if re.match(r"  \w+ pegs \d+ \(", line)]
    assert pegs
    for k in pegs:
        end = next(j for j in range(k, len(lines)) if lines[j].endswith(")"))
        assert lines[k][2] != " " and all(line.startswith("    ") and line[4] != " "
                                          for line in lines[k + 1:end + 1]), lines[k:end + 1]
    wrapped = [k for k in pegs if not lines[k].endswith(")")]
    assert wrapped   # some reason was too long for the line


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_run_that_throws_the_cards_in_shows_what_it_turned_up(players):
    # the oracle: the pack itself, dealt as the runs deal it (solver.shuffle)
    from cli.table import what_happened
    from solver.cards import suit_of
    from solver.rules import Rules
    from solver.shuffle import deal_pack

    found = 0
    for seed in range(300):
        state = Match(players, Rules()).new_initial_state(seed=seed)
        state.apply_action(BEG)
        if RUN not in state.legal_actions():
            continue
        lines, _ = what_happened(state, RUN, False)
        log = state.deals[-1] if state.deals else None
        if log is None or not log.thrown_in:
            continue
        runs = len(log.turnups) - 1
        assert runs == Rules().max_runs
        assert deal_pack(log.pack, players, log.dealer, runs)[1] == log.turnups
        assert {suit_of(c) for c in log.turnups} == {suit_of(log.turnups[0])}
        shown = " ".join(card_str(c) for c in log.turnups[1:])
        assert lines[0].plain.endswith(f"runs the cards: turn-up{'s' * (runs > 1)} {shown}, "
                                       f"no new suit")
        found += 1
        if found == 3:
            break
    assert found


def test_rule_options_over_the_preset_are_the_match_s(tmp_path):
    s, script, out = session(dict(preset="classic:skunk=true,low_to=captor", target=31,
                                  opponents=["random"]), first_choice, tmp_path)
    assert s.setup.match.rules == Rules.preset("classic", skunk=True, low_to="captor", target=31)
    opening = " ".join(s.opening().plain.split())
    assert "rules classic (low_to=captor, skunk=true), 31 to win" in opening


def test_the_cut_says_who_tied_and_cut_again():
    """The cuts for the first deal are told round by round, the seats tied for the highest
    rank named before they cut again; checked against cut_for_deal over many seeds."""
    import random as random_module

    from cli.playing import cut_words
    from solver.game import cut_for_deal
    from solver.tricks import seat_names

    cuts = [(0, parse_card("4H")), (1, parse_card("8H")), (2, parse_card("8S")),
            (1, parse_card("9C")), (2, parse_card("AH"))]
    assert cut_words(cuts, 3, False) == "N 4H, E 8H, S 8S; E and S tie and cut again: E 9C, S AH"
    three = [(0, parse_card("8D")), (1, parse_card("8H")), (2, parse_card("8S")),
             (3, parse_card("2C")), (0, parse_card("3C")), (1, parse_card("3D")),
             (2, parse_card("JH"))]
    assert cut_words(three, 4, False) == \
        "N 8D, E 8H, S 8S, W 2C; N, E and S tie and cut again: N 3C, E 3D, S JH"
    for seed in range(300):
        for players in (2, 3, 4):
            dealer, made = cut_for_deal(random_module.Random(seed), players)
            words = cut_words(made, players, False)
            # a round starts again wherever the seats cutting start again from the first
            starts = [k for k in range(1, len(made)) if made[k][0] <= made[k - 1][0]]
            parts = words.split(" tie and cut again: ")
            assert len(parts) == len(starts) + 1
            for part, start, end in zip(parts[1:], starts, [*starts[1:], len(made)]):
                named = part.split(";")[0].split(", ")
                assert [name.split()[0] for name in named] == \
                    [seat_names(players)[seat] for seat, _ in made[start:end]]


@pytest.mark.parametrize("record", ["-", "/dev/stdout"])
def test_a_record_on_standard_output_is_refused(record):
    """Standard output is the game's: '-' made a file named '-', and /dev/stdout would put the
    record's lines among the table's (match refuses both too)."""
    result = run("play", "--seed", 1, "--record", record, input="quit\n")
    assert result.exit_code == 2 and result.stderr == (
        f"allfives: error: --record: '{record}' names no file of its own (standard output is "
        f"the game's: give the record a file)\n")


def terminal_session(tmp_path: Path, monkeypatch, pauses: list[str | None], seed: int = 1):
    """A two-player session to 11 as on a terminal (``input`` asked), the person begging or
    running at each call and playing each first card, and answering the pauses between deals
    with ``pauses`` in turn (None: the end of input), then Enter; the session, the prompts it
    gave and its screen."""
    setup = make_setup(players=2, seat=None, opponents=None, preset="all-fives", target=11,
                       seed=seed, record=str(tmp_path / "match.jsonl"))
    out_console, out = console(80)
    prompts: list[str] = []
    answers = iter(pauses)

    def typed(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Enter for the next deal"):
            answer = next(answers, "")
            if answer is None:
                raise EOFError
            return answer
        return "2" if prompt == "Your call: " else "1"

    monkeypatch.setattr("builtins.input", typed)
    return Session(setup, out_console, io.StringIO(), interactive=True), prompts, out


def test_on_a_terminal_a_deal_s_result_waits_for_enter(tmp_path, monkeypatch):
    """On a terminal each deal's result stays on the screen until Enter (the next deal's
    table pushed it off a small one): asked after every deal played but the last, asked again
    after any other word, and not after a deal thrown in."""
    s, prompts, out = terminal_session(tmp_path, monkeypatch, ["next"], seed=47)
    s.run()
    played = sum(not log.thrown_in for log in s.state.deals)
    assert played > 2 and any(log.thrown_in for log in s.state.deals)
    assert prompts.count("Enter for the next deal: ") == played - 1 + 1
    assert out.getvalue().count("Press Enter for the next deal; or undo, score, help, "
                                "quit.") == 1
    assert len(re.findall(r"^Deal \d+ is over", out.getvalue(), re.M)) == played


def test_undo_score_and_help_at_the_pause_between_deals(tmp_path, monkeypatch):
    """The commands the help names work at the pause after a deal too: score and help as at
    a decision, undo back to the person's last decision of the deal just over (the moment a
    mistake has been shown)."""
    s, prompts, out = terminal_session(tmp_path, monkeypatch, ["score", "help", "undo"])
    rewound = []
    real_undo = s.undo

    def undo():
        mine = s.choices_made()
        rewound.append((mine[-1], s.state.deal_number, len(s.state.deals)))
        real_undo()
        rewound.append((len(s.history), s.state.deal_number))

    s.undo = undo
    s.run()
    # back to just before the person's last decision, in the deal just over (deal 1)
    (last, pause_deal, deals_over), (history, now) = rewound
    assert deals_over == 1 and pause_deal == 2 and history == last and now == 1
    screen = out.getvalue()
    assert "Press Enter for the next deal" not in screen
    assert PAUSE_HELP[0][:40] in screen and HELP[0][:40] not in screen
    assert HELP[-1] in " ".join(screen.split()) and HELP[1][:40] not in screen   # (Ctrl-D's)
    assert screen.count("Still to go: ") == 1
    # the score there tells the deal just over (it said "This deal: nothing pegged yet")
    first = s.state.deals[0].pegs[0]
    shown = " ".join(screen.split("Still to go: ")[1].split())
    assert f"Deal 1: {side_name(first.side, s.state.players)} {first.points:+d} " \
           f"({peg_words(first)})" in shown
    assert screen.count("Back to your previous decision.") == 1
    # after the undo, the person's last decision of deal 1 is asked again
    pause = prompts.index("Enter for the next deal: ")
    assert prompts[pause:pause + 4] == ["Enter for the next deal: "] * 3 + \
        [prompts[pause - 1]]
    # the match went on to its end, the deal played again the same way
    assert s.state.is_terminal()
    record = (tmp_path / "match.jsonl").read_text(encoding="utf-8")
    s.setup.record.close()      # (its lock let go, as play_command does at the end)
    plain, _, _ = terminal_session(tmp_path, monkeypatch, [])
    plain.run()
    assert (tmp_path / "match.jsonl").read_text(encoding="utf-8") == record


@pytest.mark.parametrize("word", ["quit", "exit", None])
def test_quit_at_the_pause_between_deals_stops_with_the_deal_recorded(tmp_path, monkeypatch,
                                                                         word):
    """quit (or exit, or the end of input) at the pause after a deal stops the match there,
    the deal in the record."""
    s, prompts, out = terminal_session(tmp_path, monkeypatch, [word])
    with pytest.raises(Stop):
        s.run()
    assert prompts[-1] == "Enter for the next deal: "
    records = read_records((tmp_path / "match.jsonl").read_text(encoding="utf-8"))
    assert len(records) == len(s.state.deals) >= 1 and not s.state.is_terminal()


@pytest.mark.parametrize("width", range(40, 61, 2))
def test_a_narrow_screen_keeps_each_score_with_its_side_and_the_seed_with_its_number(
        tmp_path, width):
    """The start line was broken between 'seed' and its number (the number a player copies to
    play the match again), and a deal's end between a side and its points."""
    def answer(obs, count):
        return None if count > 30 else "1"

    s, script, out = session({"players": 3, "preset": "strict", "seed": 9, "target": 61},
                             answer, tmp_path, width)
    with pytest.raises(Stop):
        s.run()
    screen = out.getvalue()
    assert "seed 9." in " ".join(screen.split()) and "\u00a0" not in screen
    lines = screen.splitlines()
    assert not any(line.rstrip().endswith("seed") for line in lines)
    over = next(k for k, line in enumerate(lines) if line.startswith("Deal 1 is over: "))
    told = " ".join(" ".join(lines[over:over + 3]).split())
    assert re.search(r"the score is N \d+, E \d+, S \d+\.", told)
    for line in lines[over:over + 3]:
        assert not re.search(r"\b[NES]$", line.rstrip()), line
        assert not re.match(r"\s*[+-]?\d", line), line


def test_help_in_ascii_leaves_out_its_example_spelled_with_a_suit_sign():
    """Where the suit signs are not shown, 'TH, th, 10h, T♥' read 'TH, th, 10h, TH': the
    example spelled with a sign is left out there, from play's help and puzzle play's."""
    from cli.faces import spelled_here
    from cli.puzzleplay import HELP as PUZZLE_HELP

    for text in (HELP[0], PUZZLE_HELP):
        assert "(TH, th, 10h, T♥)" in spelled_here(text, True)
        assert "(TH, th, 10h)" in spelled_here(text, False) and "♥" not in spelled_here(
            text, False)


# ---- the session's own lines ---------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4])
def test_the_opening_names_the_seats_the_partners_and_the_cut(tmp_path, players):
    from cli.playing import cut_words
    from solver.tricks import seat_names

    s, _, _ = session({"players": players, "seed": 3}, first_choice, tmp_path)
    lines = s.opening().plain.split("\n")
    names = seat_names(players)
    assert lines[1:1 + players] == [f"  {name}  {'you' if name == 'S' else 'heuristic'}"
                                    for name in names]
    rest = lines[1 + players:]
    if players == 4:
        assert rest.pop(0) == f"  partners: {side_name(0, 4)} against {side_name(1, 4)}"
    assert s.state.cuts     # (no dealer given: the seats cut for it)
    assert rest == [f"Cut for deal: {cut_words(s.state.cuts, players, True)}; "
                    f"{names[s.state.dealer]} deals first.",
                    "Type help for how to play, quit to stop."]


def test_the_bots_sit_from_the_persons_left_in_the_order_given(tmp_path):
    setup = make_setup(4, "S", ["random", "heuristic", "cheater"], "all-fives", None, 1,
                       str(tmp_path / "r.jsonl"))
    assert [str(spec) for spec in setup.specs] == ["heuristic", "cheater", "None", "random"]
    setup.record.close()


def test_a_double_game_is_said_with_the_result(tmp_path):
    from solver.registry import make_player

    s, _, _ = session({"preset": "all-fives:skunk=true", "target": None}, first_choice,
                      tmp_path)
    for seed in range(20):
        state = s.setup.match.new_initial_state(seed=seed)
        bots = [make_player("heuristic", seed=1), make_player("random", seed=2)]
        while not state.is_terminal():
            state.apply_action(decide(bots[state.current_player()], state))
        s.state = state
        said = s.result().plain
        assert said.endswith(" (a double game).") == state.double
        if state.double:
            assert said.startswith("N wins the match")
            return
    raise AssertionError("no double game in 20 matches")


def test_a_deal_in_which_the_person_played_no_card_says_so(tmp_path):
    s, _, _ = session({}, first_choice, tmp_path)
    while s.state.phase != "play":
        s.state.apply_action(s.state.legal_actions()[0])
    assert s.analysis(s.state.position(), True).plain == "You played no card this deal."


def test_cards_the_analysis_could_not_judge_are_counted(tmp_path, monkeypatch):
    import cli.playing

    monkeypatch.setattr(cli.playing, "ANALYSIS_NODES", 50)
    s, _, out = session({"seed": 2, "target": 61}, lambda obs, count: "1" if count <= 8 else None,
                        tmp_path)
    with pytest.raises(Stop):
        s.run()
    text = " ".join(out.getvalue().split())
    found = re.search(r" (\d+) cards? not judged: the search stopped at its limit \(a\.\.b: a "
                      r"value somewhere between a and b\)\.", text)
    assert found and int(found.group(1)) >= 1


def test_the_record_goes_on_the_last_line_when_it_fits_to_the_column(tmp_path):
    s, _, out = session({}, first_choice, tmp_path, width=40)
    record = "The record is in r.jsonl."
    words = "x" * (40 - 1 - len(record))        # to the last column
    s.say_last(words, record)
    s.say_last(words + "x", record)             # one column more: on a line of its own
    assert out.getvalue().split("\n")[:3] == [f"{words} {record}", words + "x", f"  {record}"]


def test_undo_goes_back_to_a_choice_of_two(tmp_path):
    """A decision between two legal actions is a choice to go back to, after one of more."""
    marked = []

    def answer(obs, count):
        if len(marked) == 2:
            return None
        if len(marked) == 1:        # the decision after the choice of two: undo
            marked.append(count)
            return "undo"
        if len(obs.legal_actions) == 2 and any(len(o.legal_actions) > 2 for o in script.seen):
            marked.append(count)
        return "1"

    s, script, _ = session({"seed": 3, "target": 61}, answer, tmp_path)
    with pytest.raises(Stop):
        s.run()
    two, undo = marked
    assert script.seen[undo] == script.seen[two - 1]


def test_score_at_a_later_pause_tells_the_deal_just_over(tmp_path, monkeypatch):
    s, _, out = terminal_session(tmp_path, monkeypatch, ["", "score", None])
    with pytest.raises(Stop):
        s.run()
    second = s.state.deals[1]
    assert second.pegs and not second.thrown_in
    shown = " ".join(out.getvalue().split("Still to go: ")[1].split())
    peg = second.pegs[0]
    assert f"Deal 2: {side_name(peg.side, 2)} {peg.points:+d} ({peg_words(peg)})" in shown


def test_undo_plays_the_match_again_without_a_word(tmp_path):
    """Nothing is printed as the match is played again to the previous decision: the next
    line after the answer ``undo`` is the one saying it is back."""
    s, _, out = session({"seed": 2}, lambda obs, count: {3: "undo"}.get(count, "1")
                        if count <= 4 else None, tmp_path)
    with pytest.raises(Stop):
        s.run()
    after = out.getvalue().split("undo\n", 1)[1]
    assert after.startswith("Back to your previous decision.\n")


def test_two_bots_of_three_players_each_as_given(tmp_path):
    setup = make_setup(3, "S", ["random", "cheater"], "all-fives", None, 1,
                       str(tmp_path / "r.jsonl"))
    assert [str(spec) for spec in setup.specs] == ["random", "cheater", "None"]
    setup.record.close()


def test_without_the_engine_a_deal_is_not_analysed(tmp_path, monkeypatch):
    import sys
    import types

    from solver.errors import EngineMissing

    class NoEngine(types.ModuleType):
        def __getattr__(self, name):
            raise EngineMissing.here()

    s, _, _ = session({}, first_choice, tmp_path)
    while s.state.phase != "play":
        s.state.apply_action(s.state.legal_actions()[0])
    monkeypatch.setitem(sys.modules, "solver.search", NoEngine("solver.search"))
    assert s.analysis(s.state.position(), True).plain == \
        "(no analysis: the compiled engine is not installed)"


def test_the_analysis_says_what_the_side_could_be_sure_of_from_the_first_card(tmp_path):
    """``Your side took 11 in the play; from your first card it could be sure of 17``: the
    points the side could be sure of before the person's first card (the reference solver's),
    of a deal played out whole and judged by the points."""
    from cli.inputs import deal_position
    from solver import reference

    s, _, _ = session({"target": 61}, first_choice, tmp_path)
    while not s.state.deals:
        s.state.apply_action(s.state.legal_actions()[0])
    position = deal_position(s.state, 1, "d")
    first = next(k for k in range(len(position.play))
                 if position.deal.position(position.play[:k]).to_move == s.me)
    sure = reference.solve(position.deal.position(position.play[:first]),
                           side=position.deal.side_of(s.me)).value

    def said(whole: bool) -> str:
        shown, out = console(200)
        shown.print(s.analysis(position, whole))
        return " ".join(out.getvalue().split())

    assert f"; from your first card it could be sure of {sure}." in said(True)
    assert "from your first card" not in said(False)


def test_undo_after_forced_moves_alone_goes_back_to_the_last_of_them(tmp_path):
    """Under max_runs=0 the person, dealer, may only take one when the elder hand begs (seed
    40); undo at the first card goes back to that forced call, there being no choice before
    it."""
    s, script, out = session({"seed": 40, "preset": "all-fives:max_runs=0", "target": 61},
                             lambda obs, count: {1: "1", 2: "undo", 3: "1"}.get(count), tmp_path)
    with pytest.raises(Stop):
        s.run()
    forced, card, again = script.seen[:3]
    assert list(forced.legal_actions) == [TAKE_ONE] and card.phase == "play"
    assert again == forced and "Back to your previous decision." in out.getvalue()


def test_cards_judged_by_the_match_say_something_where_one_could_settle_it():
    from cli.playing import decided_by_the_match

    def judged(*pairs):
        return [SimpleNamespace(before=before, after=after) for before, after in pairs]

    assert not decided_by_the_match(judged((0, 0), (0, 0)))
    assert decided_by_the_match(judged((0, 0), (1, 0)))      # a sure win thrown away
    assert decided_by_the_match(judged((0, -1)))             # a card that lost the match
    assert decided_by_the_match(judged((1, 1)))
    assert not decided_by_the_match([])


@pytest.mark.skipif(not Path("/proc/version").is_file(), reason="a file no one may write to")
def test_a_named_record_there_already_that_cannot_be_written_is_refused_up_front():
    """Opened to append before the first deal (``/proc/version`` refuses it, even to root)."""
    with pytest.raises(AllFivesError, match=r"^--record: /proc/version: Invalid argument$"):
        make_setup(2, None, None, "all-fives", None, 1, "/proc/version")


def test_ctrl_c_at_a_terminal_leaves_the_prompts_line_first(tmp_path, capsys):
    """On a terminal the line of the prompt Ctrl-C came at is ended before the one line that
    says so (on standard error), so that it does not run into the prompt."""
    import typer

    from cli.playing import _play

    s, _, out = session({}, first_choice, tmp_path)

    def interrupted():
        raise KeyboardInterrupt

    s.run = interrupted
    for interactive, printed in ((True, "\n"), (False, "")):
        out.truncate(0)
        out.seek(0)
        with pytest.raises(typer.Exit):
            _play(s, interactive, s.console)
        assert out.getvalue() == printed
        assert capsys.readouterr().err.startswith("allfives: interrupted; ")


def test_on_a_terminal_the_live_line_goes_to_standard_error(tmp_path, monkeypatch):
    import cli.console

    made = []
    real = cli.console.make_console

    def make_console(color, stderr=False):
        made.append(stderr)
        return real(color, stderr=stderr)

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    def typed(prompt):
        raise EOFError

    monkeypatch.setattr(cli.console, "make_console", make_console)
    monkeypatch.setattr("builtins.input", typed)
    monkeypatch.setattr("sys.stdin", Terminal())
    out_console, _ = console()
    play_command(2, None, None, "all-fives", 11, 3, str(tmp_path / "r.jsonl"), None,
                 console=out_console)
    assert made == [True]       # (the table's console given; the live line's on stderr)
