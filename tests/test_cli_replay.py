"""``allfives replay`` and ``allfives analyze RECORD#N``: a game record played again by the
rules, a tampered one stopped at its first fault in one line, and a record's deal judged as the
same deal written as a deal file is."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from clirun import EXAMPLES, assert_one_error_line, records, run, shell
from solver.cards import SUIT_NAMES, card_str, parse_card, suit_of
from solver.deal import Deal, Position
from solver.game import Match
from solver.players import decide
from solver.registry import make_player
from solver.records import match_records, read_records, records_text
from solver.rules import Rules
from solver.tricks import seat_names, side_name

MATCH = EXAMPLES / "match.jsonl"


def bots_match(tmp_path: Path, players: int = 2, seed: int = 3, target: int = 31,
               kinds=("heuristic", "random"), preset: str = "all-fives", best_of: int = 1,
               finish: str = "peg-out") -> tuple[Path, object]:
    """A match of bots, written as a record."""
    match = Match(players, Rules.preset(preset, target=target, finish=finish), best_of=best_of)
    state = match.new_initial_state(seed=seed)
    bots = [make_player(kinds[s % len(kinds)], seed=s) for s in range(players)]
    while not state.is_terminal():
        state.apply_action(decide(bots[state.current_player()], state))
    path = tmp_path / "match.jsonl"
    path.write_text(records_text(match_records(state, "t")), encoding="utf-8")
    return path, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_record_of_bots_replays(tmp_path, players):
    path, state = bots_match(tmp_path, players)
    result = run("replay", path)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == str(path)
    assert "every action and score follows the rules" in lines[1]
    assert f"{len(state.deals)} deal" in lines[2]
    (row,) = records(run("replay", path, "--json"))
    assert row["deals"] == len(state.deals) and row["over"] is True
    assert row["winners"] == [state.seats[w] if players < 4 else ["NS", "EW"][w]
                              for w in state.winners]
    assert list(row["score"].values()) == list(state.score)


@pytest.mark.parametrize("name", ["a-folder-with-a-name-long-enough-to-pass-the-width-",
                                  "a folder with a name long enough to pass the width "])
def test_a_long_path_is_printed_whole_on_its_line(tmp_path, name):
    folder = tmp_path / (name * 2)
    folder.mkdir()
    path = folder / "match.jsonl"
    path.write_text(MATCH.read_text(encoding="utf-8"), encoding="utf-8")
    lines = run("replay", path, "--no-color").stdout.splitlines()
    assert len(str(path)) > 100 and lines[0] == str(path)
    assert lines[1].startswith("2 players, rules all-fives, 31 to win;")


PLAYED = re.compile(r"(\w)(?: \(you\))? (?:plays (\S+)(, a revoke)?|(stands|begs|gives one "
                    r"\(take-one\)|runs the cards)(?:: .*)?)")
CALL_WORDS = {"stands": "stand", "begs": "beg", "gives one (take-one)": "take-one",
              "runs the cards": "run"}


def told_deals(text: str) -> list[list[str]]:
    """The lines of each deal a play-by-play told."""
    deals: list[list[str]] = []
    telling = False
    for line in text.splitlines():
        if re.match(r"Deal \d+ · ", line):
            deals.append([])
            telling = True
        elif not line:
            telling = False  # a blank line after each deal
        if telling:
            deals[-1].append(line)
    return deals


def told_steps(lines: list[str]) -> list[str]:
    """The actions a deal's lines told, as a record writes them (``N:9S``, ``S:revoke:2C``,
    ``N:beg``)."""
    steps = []
    for line in lines:
        played = PLAYED.fullmatch(line)
        if played:
            seat, card, revoke, call = played.groups()
            steps.append(f"{seat}:{'revoke:' if revoke else ''}{card_str(parse_card(card))}"
                         if card else f"{seat}:{CALL_WORDS[call]}")
    return steps


@pytest.mark.parametrize("players, preset, seed", [(2, "all-fives", 3), (3, "all-fours", 4),
                                                   (4, "strict", 5), (2, "strict", 6),
                                                   (3, "all-fives", 7), (4, "all-fours", 8)])
def test_the_play_by_play_tells_every_action_of_the_record(tmp_path, players, preset, seed):
    """Read back from what it printed, the play-by-play gives every deal's actions exactly as
    the record holds them, each card from the hand the seat was dealt (after any runs), and
    the score after each deal as recorded; the summary follows it.  The hands dealt and the
    turn-up come first; the hands after the runs once, just before the first card, and only
    in a deal whose dealer ran the cards."""
    path, state = bots_match(tmp_path, players, seed=seed, preset=preset, kinds=("random",))
    result = run("replay", path, "--play-by-play", "--no-color")
    assert result.exit_code == 0, result.stderr
    recorded = read_records(path.read_text(encoding="utf-8"))
    deals = told_deals(result.stdout)
    assert len(deals) == len(recorded) == len(state.deals)
    runs = 0
    for told, record, log in zip(deals, recorded, state.deals):
        assert told[0].startswith(f"Deal {record['deal']} · {record['dealer']} deals · score ")
        hands: dict[str, set[str]] = {}
        for line in told:
            hand = re.fullmatch(r"  (\w)  ♠ (.*)  ♥ (.*)  ♦ (.*)  ♣ (.*)", line)
            if hand:
                held = {parse_card(rank + suit) for suit, ranks in zip("SHDC", hand.groups()[1:])
                        for rank in ranks.split() if rank != "—"}
                hands.setdefault(hand[1], set()).update(held)
            played = PLAYED.fullmatch(line)
            if played and played[2] is not None:
                assert parse_card(played[2]) in hands[played[1]], (line, hands[played[1]])
        steps = told_steps(told)
        assert steps == record["actions"]
        runs += steps.count(f"{record['dealer']}:run")
        turnup = log.turnups[0]
        assert told[1] == "Hands dealt"
        assert told[2 + players] == (f"Turn-up {card_str(turnup, pretty=True)}: "
                                     f"{SUIT_NAMES[suit_of(turnup)]} proposed for trumps")
        after = [k for k, line in enumerate(told) if line == "Hands after the runs"]
        first = next((k for k, line in enumerate(told) if " plays " in line), None)
        ran = f"{record['dealer']}:run" in steps
        assert after == ([first - players - 1] if ran and first is not None else []), told
        if log.thrown_in:
            assert told[-1].startswith("The cards are thrown in")
        else:
            score = ", ".join(f"{side} {points}" for side, points in record["score"].items())
            over = next(k for k, line in enumerate(told) if line.startswith(
                f"Deal {record['deal']} is over: "))
            assert re.fullmatch(rf"Deal {record['deal']} is over: .*; the score is {score}\..*",
                                " ".join(told[over:])), told[over:]
            assert not told[over - 1].startswith("  Score:"), told[over - 1]  # said once
            pegged = [int(m[2]) * (1 if m[1] == "pegs" else -1) for line in told
                      if (m := re.fullmatch(r"  \w+ (pegs|loses) (\d+) \(.*\)", line))]
            before = told[0].split(" · score ")[1]
            start = sum(int(x) for x in re.findall(r"\d+", before))
            assert start + sum(pegged) == sum(record["score"].values())
    assert runs > 0  # the hands after the runs were told too
    assert "every action and score follows the rules" in result.stdout.splitlines()[-2]


def test_the_play_by_play_tells_a_revoke(tmp_path):
    """A recorded revoke (strict follow: S plays 2C to a spade lead holding 2S) is told as one,
    with its penalty, and the tricks after it are told won as before."""
    from test_game import REVOKE_PLAY, replay_steps, revoke_deal

    state = revoke_deal((0, 0))
    replay_steps(state, *REVOKE_PLAY[4:])
    path = tmp_path / "revoke.jsonl"
    path.write_text(records_text(match_records(state, "r")), encoding="utf-8")
    result = run("replay", path, "--play-by-play", "--no-color")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "S plays 2♣, a revoke" in lines
    assert lines[lines.index("S plays 2♣, a revoke") + 1:][:2] == ["  N wins trick 2",
                                                                   "  S loses 3 (revoke)"]
    assert [line for line in lines if " wins trick " in line] == \
        [f"  N wins trick {k}" for k in range(1, 7)]
    (deal,) = told_deals(result.stdout)
    assert told_steps(deal) == ["N:stand", *REVOKE_PLAY]


def test_the_play_by_play_tells_a_revoke_of_the_card_numbered_0(tmp_path):
    """A revoke's action is the revoke mark plus the card: that of 2♠, the card numbered 0, is
    the mark itself, and is told as a revoke of 2♠ as any other is."""
    state = revoking_match(15, Rules.preset("strict", target=21), players=2)
    path = tmp_path / "revoke.jsonl"
    path.write_text(records_text(match_records(state, "r")), encoding="utf-8")
    result = run("replay", path, "--play-by-play", "--no-color")
    assert result.exit_code == 0, result.stderr
    recorded = read_records(path.read_text(encoding="utf-8"))
    assert [told_steps(deal) for deal in told_deals(result.stdout)] == \
        [record["actions"] for record in recorded]
    assert any(step.endswith(":revoke:2S") for record in recorded
               for step in record["actions"])


def test_the_play_by_play_of_the_bundled_record_on_a_narrow_console():
    from rich.console import Console

    from cli.replaying import tell_match
    from solver.records import read_records as read, replay as replayed

    state = replayed(read(MATCH.read_text(encoding="utf-8")))
    out = io.StringIO()
    tell_match(state, Console(file=out, width=60, color_system=None), True)
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 60
    assert sum(line.startswith("Deal ") and " · " in line for line in lines) == 6


def test_the_hands_told_show_the_trumps_in_bold():
    """Each hand dealt is told suit by suit, the ranks of the suit turned up for trumps bold
    and no other's."""
    from cli.replaying import deal_story
    from solver.records import replay as replayed

    state = replayed(read_records(MATCH.read_text(encoding="utf-8")))
    bold = 0
    for number, log in enumerate(state.deals, 1):
        trump = "♠♥♦♣"[suit_of(log.turnups[0])]
        for line in deal_story(state, number, True)[2:4]:     # N's and S's hands
            held = re.search(rf"{trump} ([^ ].*?)(?:  |$)", line.plain)
            assert held is not None, line.plain
            shown = [line.plain[span.start:span.end] for span in line.spans
                     if span.style == "bold" and line.plain[span.start] not in "♠♥♦♣"]
            assert shown == ([] if held[1] == "—" else [held[1]]), line.plain
            bold += bool(shown)
    assert bold > 3


def test_the_bundled_record_and_standard_input():
    result = run("replay", MATCH)
    assert result.exit_code == 0
    assert "6 deals; final score N 31, S 28; N wins the match." in result.stdout
    same = run("replay", "-", "--json", input=MATCH.read_text(encoding="utf-8"))
    assert records(same)[0]["file"] == "<stdin>"


@pytest.mark.parametrize("players, seed, target, best_of, finish, winners, words", [
    (2, 0, 31, 1, "peg-out", ["S"], "10 deals (1 thrown in); final score N 25, S 42; S wins"),
    (3, 1, 31, 1, "peg-out", ["S"], "6 deals; final score N 26, E 4, S 33; S wins"),
    (4, 1, 31, 1, "peg-out", ["EW"], "4 deals; final score NS 21, EW 31; EW win"),
    (3, 40, 11, 1, "hand-end", ["N", "E"], "3 deals; final score N 16, E 16, S 9; N and E share"),
    (4, 138, 11, 1, "hand-end", ["NS", "EW"],
     "1 deal; final score NS 11, EW 11; NS and EW share"),
    (2, 3, 11, 3, "peg-out", ["N"],
     "6 deals (1 thrown in), best of 3; final score N 19, S 1; N wins"),
    (2, 3, 11, 2, "peg-out", ["N", "S"],        # (a game each)
     "4 deals (1 thrown in), best of 2; final score N 11, S 5; N and S share"),
])
def test_a_match_is_summed_up_as_it_ended(tmp_path, players, seed, target, best_of, finish,
                                          winners, words):
    """A match's line: its deals and those thrown in, how many games it is the best of, the
    final score, and who won it (a seat wins, a partnership win, two that reach the target
    alike under hand-end share); in a file of several, the same without "the match".  The
    --json summary holds the replayed state's count, winners and games; a deal of a match of
    several games is headed with its game."""
    path, state = bots_match(tmp_path, players, seed=seed, target=target, kinds=("random",),
                             best_of=best_of, finish=finish)
    assert [side_name(w, players) for w in state.winners] == winners
    out = " ".join(run("replay", path, "--no-color").stdout.split())
    seats = ", ".join(f"{seat} {seat}" for seat in seat_names(players))
    rules = "all-fives" if finish == "peg-out" else "all-fives (finish=hand-end)"
    table = f"{players} players, rules {rules}, {target} to win"
    assert out.endswith(f"{table}; every action and score follows the rules. {seats}: {words} "
                        f"the match.")
    (row,) = records(run("replay", path, "--json"))
    assert row["thrown_in"] == sum(log.thrown_in for log in state.deals) == \
        (1 if "thrown in" in words else 0)
    assert row["deals"] == len(state.deals) and row["over"] and not row["double"]
    assert row["winners"] == winners
    assert row["games"] == state.deals[-1].game == best_of
    for number, log in enumerate(state.deals, 1):
        head = run("replay", f"{path}#{number}", "--no-color").stdout.splitlines()[0]
        assert head.startswith(f"Deal {number}, game {log.game} · " if best_of > 1 else
                               f"Deal {number} · ")
    other = tmp_path / "other.jsonl"
    other.write_text(MATCH.read_text(encoding="utf-8") + path.read_text(encoding="utf-8"),
                     encoding="utf-8")
    both = " ".join(run("replay", other, "--no-color").stdout.split())
    alike = (players, target, finish) == (2, 31, "peg-out")     # (the bundled match's table)
    assert both.endswith(f"Match t ({seats}{'' if alike else '; ' + table}): {words}.")


def test_a_match_not_over_is_summed_up_so_far(tmp_path):
    """A record of a match's first deals: its score so far, and that the match is not over
    (in a file of several, its score and a full stop); in --json not over, no winners, no
    double game."""
    path, state = bots_match(tmp_path, 2, seed=0, kinds=("random",))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:2]), encoding="utf-8")
    score = ", ".join(f"{side} {points}" for side, points in json.loads(lines[1])[
        "score"].items())
    out = " ".join(run("replay", path, "--no-color").stdout.split())
    assert out.endswith(f"N N, S S: 2 deals (1 thrown in); score so far {score}; the match is "
                       f"not over.")
    (row,) = records(run("replay", path, "--json"))
    assert (row["over"], row["winners"], row["double"], row["deals"]) == (False, [], False, 2)
    other = tmp_path / "other.jsonl"
    other.write_text(path.read_text(encoding="utf-8") + MATCH.read_text(encoding="utf-8"),
                     encoding="utf-8")
    both = " ".join(run("replay", other, "--no-color").stdout.split())
    assert f"rules all-fives, 31 to win; every action and score follows the rules. Match t " \
           f"(N N, S S): 2 deals (1 thrown in); score {score}. Match example (N heuristic, " \
           f"S random): 6 deals; final score N 31, S 28; N wins." in both


def tampered(tmp_path: Path, change) -> Path:
    lines = [json.loads(line) for line in MATCH.read_text(encoding="utf-8").splitlines()]
    change(lines)
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


def swap_two_cards(lines):
    actions = lines[1]["actions"]
    cards = [i for i, a in enumerate(actions) if a.split(":")[1] not in
             ("stand", "beg", "take-one", "run")]
    i, j = cards[0], cards[1]
    actions[i], actions[j] = actions[j], actions[i]


@pytest.mark.parametrize("change, fragments", [
    (lambda r: r[2]["score"].update(N=99), ("deal 3", "score")),
    (swap_two_cards, ("deal 2, action",)),
    (lambda r: r[0]["actions"].pop(), ("deal 1", "the actions end before the deal does")),
    (lambda r: r[0]["actions"].append(r[0]["actions"][-1]),
     ("deal 1, action ", "the deal is over before it (its last trick was played)")),
    (lambda r: r[3].update(dealer="N" if r[3]["dealer"] == "S" else "S"), ("deal 4", "dealer")),
    (lambda r: r[1]["pack"].reverse(), ("deal 2",)),
    (lambda r: r.pop(2), ("deal 3",)),
    (lambda r: r[1]["actions"].__setitem__(3, "X:9S"),
     ("deal 2, action 3 'X:9S': unknown seat 'X' (seats here: N S)",)),
    (lambda r: r[1]["actions"].__setitem__(3, ":9S"), ("deal 2, action 3 ':9S'",)),
    (lambda r: r[1]["rules"].update(target=41),
     ("deal 2, rules.target: 41 differs from deal 1's 31",)),
    (lambda r: r[1]["rules"].pop("game"), ("deal 2, rules.game: missing, where deal 1 has true",)),
    (lambda r: r[1]["players"].update(S="bob"),
     ("deal 2, players.S: 'bob' differs from deal 1's 'random'",)),
    (lambda r: r[1].update(best_of=3), ("deal 2, best_of: 3 differs from deal 1's 1",)),
    # a seat added to every record's players: it was "not S's turn: E is to play a card"
    (lambda r: [record["players"].update(E="eve") for record in r],
     ("deal 1, players: 3 seats (N E S), where the score's sides (N S) are a 2-player "
      "table's",)),
    (lambda r: [record["players"].update(E="eve", W="will") for record in r],
     ("deal 1, players: 4 seats (N E S W), where the score's sides (N S)",)),
    # JSON's true is not 1, nor 1.0 1, nor "no" false, as Python's == and a rule option's
    # text would have them
    (lambda r: [record["rules"].update(capture="no") for record in r],
     ("deal 1, rules: option 'capture' takes true or false, not 'no'",)),
    (lambda r: r[1]["rules"].update(capture=1),
     ("deal 2, rules.capture: 1 differs from deal 1's true",)),
    (lambda r: r[0].update(deal=True), ("deal 1, deal: true, expected 1",)),
    (lambda r: r.insert(1, dict(r[0])),
     ("deal 2, deal: 1, expected 2 (deal 1 again: a line given twice?)",)),
    # a record is JSON: its values are told as JSON spells them (they were Python's None)
    (lambda r: r[1].update(dealer=None), ("deal 2, dealer: null, expected ",)),
    (lambda r: r[1]["rules"].update(skunk=None),
     ("deal 2, rules.skunk: null differs from deal 1's false",)),
    (lambda r: r[0].update(score={"N": None, "S": 1}),
     ('deal 1, score: recorded {"N": null, "S": 1}, the play gives',)),
    (lambda r: r[1].update(game=2.0 - 1), ("deal 2, game: 1.0, expected 1",)),
    (lambda r: r[0]["score"].update({side: float(p) for side, p in r[0]["score"].items()}),
     ("deal 1, score: recorded",)),
    # a number in the pack was read as the engine's card number ('3S is in it twice')
    (lambda r: r[1]["pack"].__setitem__(5, 1), ("deal 2, pack: 1 is not a card's name",)),
    (lambda r: r[0]["rules"].update(preset=["all-fives"]),
     ("deal 1, rules.preset: [\"all-fives\"] is not a preset's name",)),
    # a match named by none (null, a list, a fraction), as the Python API refuses to write it
    *[(lambda r, bad=bad: [record.update(match=bad) for record in r],
       (f":1: match: {shown} is not a match's name (a text, as 'm1', or a whole number)",))
      for bad, shown in ((None, "null"), ([1], "[1]"), ("", '""'), (3.5, "3.5"))],
])
def test_a_tampered_record_fails_in_one_line(tmp_path, change, fragments):
    path = tampered(tmp_path, change)
    assert_one_error_line(run("replay", path), str(path), *fragments)


def test_the_play_by_play_is_text():
    assert_one_error_line(run("replay", MATCH, "--play-by-play", "--json"),
                          "--play-by-play: not with --json")


def test_a_record_that_is_not_json_or_not_there(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"match": 1}\nnot json\n', encoding="utf-8")
    assert_one_error_line(run("replay", path), "bad.jsonl:2: not JSON")
    assert_one_error_line(run("replay", tmp_path / "none.jsonl"), "No such file")


def test_a_record_that_is_not_text_is_one_line(tmp_path):
    """Bytes that are not UTF-8 (a binary file, a record saved in another encoding) are named
    with where they start, for replay and for analyze alike; a UTF-8 byte-order mark is fine."""
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b'{"match": "\xff\xfe"}\n')
    assert_one_error_line(run("replay", path), "binary.jsonl", "not UTF-8 text (line 1, byte 11)")
    assert_one_error_line(run("analyze", path), "binary.jsonl", "not UTF-8 text (line 1, byte 11)")
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + MATCH.read_bytes())
    result = run("replay", marked)
    assert result.exit_code == 0, result.stderr
    assert "N wins the match" in result.stdout


# ---- analyze RECORD#N ------------------------------------------------------------------------

def deal_file(position: Position, path: Path) -> Path:
    path.write_text(position.to_toml(), encoding="utf-8")
    return path


def test_analyze_of_a_records_deal_equals_analyze_of_the_deal_file(tmp_path):
    from solver.records import read_records, replay

    state = replay(read_records(MATCH.read_text(encoding="utf-8")))
    log = state.deals[1]
    # deal 2 played again by hand: the hands as dealt, trumps, dealer and the cards played
    fresh = state.match.new_initial_state(dealer=log.dealer, score=state.deals[0].score,
                                          auto_deal=False)
    fresh.deal_pack(log.pack)
    for _, action in log.actions[:-1]:
        fresh.apply_action(action)
    position = fresh.position().after(log.actions[-1][1])
    assert isinstance(position.deal, Deal)
    path = deal_file(position, tmp_path / "deal2.toml")
    by_record = run("analyze", f"{MATCH}#2", "--json")
    by_option = run("analyze", MATCH, "--deal", 2, "--json")
    by_file = run("analyze", path, "--json")
    rows = [records(r)[0] for r in (by_record, by_option, by_file)]
    for row in rows:
        row.pop("file"), row.pop("nodes"), row.pop("seconds")
        for play in row["plays"]:
            play.pop("nodes", None), play.pop("seconds", None)
    assert rows[0] == rows[1] == rows[2]
    assert records(by_record)[0]["file"] == f"{MATCH}#2"
    report = run("analyze", f"{MATCH}#2")
    assert report.exit_code == 0
    assert report.stdout.splitlines()[0] == f"{MATCH}#2"


def test_analyze_of_a_whole_record_judges_every_deal(tmp_path):
    result = run("analyze", MATCH, "--json")
    names = [row["file"] for row in records(result)]
    assert names == [f"{MATCH}#{k}" for k in range(1, 7)]


def test_a_record_read_by_its_first_line_and_on_standard_input(tmp_path):
    path = tmp_path / "match.txt"
    path.write_text(MATCH.read_text(encoding="utf-8"), encoding="utf-8")
    assert records(run("analyze", f"{path}#3", "--json"))[0]["file"] == f"{path}#3"
    piped = run("analyze", "-", "--deal", 3, "--json", input=path.read_text(encoding="utf-8"))
    assert records(piped)[0]["file"] == "<stdin>#3"


def test_a_record_through_a_pipe_is_read_as_a_record(tmp_path):
    # <(cat RECORD) names a pipe, not a regular file: once read as a deal file
    result = shell(f"allfives analyze <(cat {MATCH}) --deal 2 --json && "
                   f"allfives solve <(cat {MATCH}) --json", tmp_path)
    assert result.returncode == 0, result.stdout
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[0]["file"].endswith("#2") and len(rows[0]["plays"]) == 12
    assert [row["file"].rsplit("#", 1)[1] for row in rows[1:]] == [str(k) for k in range(1, 7)]


def test_solve_of_a_records_deal_solves_it_from_its_first_card():
    from solver.records import read_records, replay
    from solver.search import Solver

    state = replay(read_records(MATCH.read_text(encoding="utf-8")))
    log = state.deals[1]
    fresh = state.match.new_initial_state(dealer=log.dealer, score=state.deals[0].score,
                                          auto_deal=False)
    fresh.deal_pack(log.pack)
    for _, action in log.actions:  # the calls, up to the first card
        if fresh.phase == "play":
            break
        fresh.apply_action(action)
    row = records(run("solve", f"{MATCH}#2", "--json"))[0]
    assert row["file"] == f"{MATCH}#2" and len(row["line"]) == 12
    assert row["value"] == Solver().solve(fresh.position()).value
    # --deal, as analyze and replay take it (it was refused as an unknown option)
    by_option = records(run("solve", MATCH, "--deal", 2, "--json"))
    assert [(r["file"], r["value"], r["line"]) for r in by_option] == \
        [(row["file"], row["value"], row["line"])]
    assert_one_error_line(run("solve", MATCH, "--deal", 7), "no deal 7: the record holds 6 deals")
    assert_one_error_line(run("solve", f"{MATCH}#2", "--deal", 3), "different deals")
    assert_one_error_line(run("solve", EXAMPLES / "two-player.toml", "--deal", 1),
                          "not a game record")


def test_bad_deal_numbers_and_records(tmp_path):
    assert_one_error_line(run("analyze", f"{MATCH}#9"), "no deal 9: the record holds 6 deals")
    assert_one_error_line(run("analyze", MATCH, "--deal", 0), "--deal")
    assert_one_error_line(run("analyze", f"{MATCH}#2", "--deal", 3), "different deals")
    assert_one_error_line(run("analyze", EXAMPLES / "played.toml", "--deal", 1),
                          "not a game record")
    bad = tampered(tmp_path, lambda r: r[2]["score"].update(N=99))
    assert_one_error_line(run("analyze", f"{bad}#1"), "deal 3", "score")


def test_a_thrown_in_deal_has_no_play_to_analyze(tmp_path):
    # a record in which the dealer runs every time finds a throw-in soon
    for seed in range(40):
        match = Match(2, Rules.preset("all-fives", target=11))
        state = match.new_initial_state(seed=seed)
        while not state.is_terminal() and not any(d.thrown_in for d in state.deals):
            legal = state.legal_actions()
            state.apply_action(65 if 65 in legal else 67 if 67 in legal else legal[0])
        thrown = [k for k, d in enumerate(state.deals, 1) if d.thrown_in]
        if thrown:
            break
    assert thrown
    path = tmp_path / "t.jsonl"
    path.write_text(records_text(match_records(state)), encoding="utf-8")
    assert_one_error_line(run("analyze", f"{path}#{thrown[0]}"),
                          "no card was played (the deal was thrown in): nothing to analyze")


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 4), (4, 5)])
def test_replay_of_one_deal_tells_that_deal_as_the_whole_play_by_play_does(tmp_path, players,
                                                                          seed):
    """``RECORD#N`` and ``--deal N`` tell deal N alone, line for line as the play-by-play of
    the whole record tells it, then the summary; ``--json`` gives that deal's actions, pegs and
    scores as the record and the replayed state hold them."""
    path, state = bots_match(tmp_path, players, seed=seed, kinds=("random",))
    whole = told_deals(run("replay", path, "--play-by-play", "--no-color").stdout)
    recorded = read_records(path.read_text(encoding="utf-8"))
    for number in {1, len(state.deals) // 2 + 1, len(state.deals)}:
        by_hash = run("replay", f"{path}#{number}", "--no-color")
        assert by_hash.exit_code == 0, by_hash.stderr
        assert told_deals(by_hash.stdout) == [whole[number - 1]]
        assert by_hash.stdout.splitlines()[-3:] == run("replay", path, "--no-color").stdout \
            .splitlines()[-3:]
        assert run("replay", path, "--deal", number, "--no-color").stdout == by_hash.stdout
        (row,) = records(run("replay", f"{path}#{number}", "--json"))
        told, log, record = row["deal"], state.deals[number - 1], recorded[number - 1]
        assert told["number"] == number and told["dealer"] == record["dealer"]
        assert told["actions"] == record["actions"] and told["score"] == record["score"]
        previous = recorded[number - 2]["score"] if number > 1 else None
        assert told["score_before"] == (previous if previous and log.game == state.deals[
            number - 2].game else dict.fromkeys(record["score"], 0))
        if not told["thrown_in"]:  # every point of the deal is a peg
            assert sum(p["points"] for p in told["pegs"]) == sum(told["score"].values()) - sum(
                told["score_before"].values())
        assert [(p["side"], p["points"], p["for"]) for p in told["pegs"]] == [
            (side_name(p.side, players), p.points, p.what) for p in log.pegs]


def test_bad_deal_numbers_for_replay(tmp_path):
    assert_one_error_line(run("replay", f"{MATCH}#9"),
                          f"{MATCH}#9: no deal 9: the record holds 6 deals")
    assert_one_error_line(run("replay", MATCH, "--deal", 9),     # named as #9 would name it
                          f"{MATCH}#9: no deal 9: the record holds 6 deals")
    assert_one_error_line(run("replay", f"{MATCH}#0"), "no deal 0: the record holds 6 deals")
    assert_one_error_line(run("replay", f"{MATCH}#x"), (
        "no such file, and #x is not a deal number (RECORD#N counts the deals of a record "
        "from 1)"))
    assert_one_error_line(run("replay", f"{MATCH}#1#2"), (       # (once: MATCH#1 no file)
        f"{MATCH}#1#2: no such file, and #1#2 is not a deal number (RECORD#N counts the deals "
        f"of a record from 1)"))
    assert_one_error_line(run("replay", f"{MATCH}:3"), (     # (it said: no such file)
        f"{MATCH}:3: a record's deals are picked as {MATCH}#N, N counted from 1 through the "
        f"file"))
    assert_one_error_line(run("replay", f"{MATCH}#2", "--deal", 3), "different deals")
    assert_one_error_line(run("replay", MATCH, "--deal", 0), "--deal")
    assert_one_error_line(run("replay", f"{tmp_path}/none.jsonl#2"), "none.jsonl")
    piped = run("replay", "-", "--deal", 2, "--json", input=MATCH.read_text(encoding="utf-8"))
    assert records(piped)[0]["deal"]["number"] == 2


# ---- a file of several matches (allfives match --record) ------------------------------------

def matches_by_name(path: Path) -> list[tuple[str, list[dict]]]:
    """The oracle: the records of a file grouped by match name, in the order first met."""
    groups: dict[str, list[dict]] = {}
    for line in read_records(path.read_text(encoding="utf-8")):
        groups.setdefault(line["match"], []).append(line)
    return list(groups.items())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_match_runs_record_replays_match_by_match(tmp_path, players):
    from solver.records import replay

    path = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--duplicate", "--deals", 3, "--players",
               players, "--record", path).exit_code == 0
    groups = matches_by_name(path)
    assert len(groups) == 3 * (2 if players != 3 else 6)
    summaries = records(run("replay", path, "--json"))
    assert [s["match"] for s in summaries] == [name for name, _ in groups]
    for summary, (name, deals) in zip(summaries, groups):
        state = replay(deals)
        assert summary["deals"] == len(state.deals) == len(deals)
        assert summary["score"] == deals[-1]["score"]
        assert summary["players"] == players and summary["file"] == str(path)
    text = run("replay", path, "--no-color")
    assert text.exit_code == 0
    lines = text.stdout.splitlines()
    assert " ".join(" ".join(lines[1:3]).split()) == (
        f"{len(groups)} matches, {players} players, rules all-fives, 999 to win; every action "
        f"and score follows the rules.")
    heads = [line for line in lines if line.startswith("Match ")]
    assert [h.split()[1] for h in heads] == [name for name, _ in groups]
    # the first deal of the fourth match, counted through the file, is told and summarized
    # as the same deal of a file of that match alone
    name, deals = groups[3]
    number = sum(len(d) for _, d in groups[:3]) + 1
    alone = tmp_path / "alone.jsonl"
    alone.write_text("".join(json.dumps(d) + "\n" for d in deals), encoding="utf-8")
    told = records(run("replay", f"{path}#{number}", "--json"))
    assert told[3]["deal"] == records(run("replay", f"{alone}#1", "--json"))[0]["deal"]
    assert all("deal" not in s for k, s in enumerate(told) if k != 3)
    story = run("replay", f"{path}#{number}", "--no-color").stdout
    assert story.startswith(f"Match {name} (")
    assert run("replay", f"{alone}#1", "--no-color").stdout.split("\n\n")[0] in story
    by_file = records(run("analyze", path, "--json"))
    every = [deal for _, deals in groups for deal in deals]
    played = [k for k, deal in enumerate(every, 1)
              if any(a.split(":")[1] not in ("stand", "beg", "take-one", "run")
                     for a in deal["actions"])]     # a deal thrown in has no play
    assert [row["file"] for row in by_file] == [f"{path}#{k}" for k in played]
    mine, single = records(run("analyze", f"{path}#{number}", "--json"))[0], \
        records(run("analyze", f"{alone}#1", "--json"))[0]
    for row in (mine, single):
        row.pop("file"), row.pop("nodes"), row.pop("seconds")
        for play in row["plays"]:
            play.pop("nodes", None), play.pop("seconds", None)
    assert mine == single


def test_whole_matches_are_counted_through_the_file(tmp_path):
    path = tmp_path / "matches.jsonl"
    assert run("match", "random", "random", "--matches", 2, "--target", 11,
               "--record", path).exit_code == 0
    (first, one), (second, two) = matches_by_name(path)
    summaries = records(run("replay", path, "--json", "--deal", len(one) + 2))
    assert [s["over"] for s in summaries] == [True, True]
    assert summaries[1]["deal"]["number"] == 2 and "deal" not in summaries[0]
    assert summaries[1]["deal"]["actions"] == two[1]["actions"]
    # told in text, the deal is followed by its own match's line (of 600 lines in a long run)
    told = run("replay", f"{path}#{len(one) + 2}", "--no-color").stdout.splitlines()
    assert sum(line.startswith("Match ") for line in told) == 2      # (its heading and line)
    assert told[-1].startswith(f"Match {second} (") or told[-2].startswith(f"Match {second} (")
    assert not any(line.startswith(f"Match {first} ") for line in told)
    # the play-by-play of the whole file heads each match's deals with the match
    whole = run("replay", path, "--play-by-play", "--no-color").stdout.splitlines()
    heads = [k for k, line in enumerate(whole) if line.startswith("Match ")]
    assert [whole[k].split()[1] for k in heads[:2]] == [first, second]
    assert all(whole[k + 1].startswith("Deal 1 · ") for k in heads[:2])
    assert sum(bool(re.match(r"Deal \d+ · ", line)) for line in whole[heads[0]:heads[1]]) == \
        len(one)
    assert_one_error_line(run("replay", f"{path}#{len(one) + len(two) + 1}"),
                          f"no deal {len(one) + len(two) + 1}: the record holds "
                          f"{len(one) + len(two)} deals")


def test_a_match_split_or_started_late_fails_in_one_line(tmp_path):
    path = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 2, "--record", path).exit_code == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    split = tmp_path / "split.jsonl"
    split.write_text("\n".join(lines + lines[:1]) + "\n", encoding="utf-8")
    assert_one_error_line(run("replay", split), f"split.jsonl:{len(lines) + 1}: match '0:0:0'",
                          "again after other matches")
    late = tmp_path / "late.jsonl"
    second = json.loads(lines[1])
    second["deal"] = 2
    late.write_text("\n".join([lines[0], json.dumps(second)]) + "\n", encoding="utf-8")
    assert_one_error_line(run("analyze", late), "late.jsonl:2: match '0:1:1': deal 1,",
                          "deal: 2, expected 1")


def test_matches_at_different_tables_are_each_named_with_theirs(tmp_path):
    path = tmp_path / "run.jsonl"
    assert run("match", "heuristic", "random", "--deals", 1, "--players", 3,
               "--record", path).exit_code == 0
    both = tmp_path / "both.jsonl"
    both.write_text(MATCH.read_text(encoding="utf-8") + path.read_text(encoding="utf-8"),
                    encoding="utf-8")
    out = " ".join(run("replay", both, "--no-color").stdout.split())
    assert "2 matches, every action and score follows the rules." in out
    assert ("Match example (N heuristic, S random; 2 players, rules all-fives, 31 to win): 6 deals; "
            "final score N 31, S 28; N wins.") in out
    assert "Match 0:0:0 (N heuristic, E heuristic, S random; 3 players, rules all-fives, 999 " \
           "to win): 1 deal; score" in out


@pytest.mark.parametrize("change", ["no players", "not a record"])
def test_a_later_match_of_a_file_without_its_keys_is_one_error_line(tmp_path, change):
    # a file of several matches read a later match's players before checking its keys: a
    # KeyError traceback
    path = tmp_path / "games.jsonl"
    assert run("match", "heuristic", "random", "--deals", 2, "--duplicate",
               "--record", path).exit_code == 0
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    second = next(i for i, row in enumerate(rows) if row["match"] != rows[0]["match"])
    if change == "no players":
        del rows[second]["players"]
    else:
        rows[second:] = [{"a": 1}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for command in ("replay", "analyze"):
        assert_one_error_line(run(command, path), *(
            ("missing key", "deal 1") if change == "no players" else
            (f":{second + 1}: not a game record (an object of a; a record is a line",)))


def test_json_lines_of_another_command_are_no_record(tmp_path):
    """solve's --json lines given as a record: not a game record (it said a key was missing
    from deal 1)."""
    path = tmp_path / "solved.jsonl"
    path.write_text(run("solve", EXAMPLES / "two-player.toml", "--json").stdout)
    for command in ("replay", "analyze", "solve"):
        assert_one_error_line(run(command, path),
                              f"{path}:1: not a game record (an object of file, to_move, for, "
                              f"objective, ...; a record is a line that 'allfives match "
                              f"--record' or 'play --record' writes)")


def test_a_record_at_fault_is_named_by_its_line_in_the_file(tmp_path):
    """A deal's number counts within its match; the line counts through the file (blank lines
    too), as an editor shows it."""
    rows = [json.loads(line) for line in MATCH.read_text(encoding="utf-8").splitlines()]
    rows[3]["score"]["N"] = 99
    path = tmp_path / "spaced.jsonl"
    path.write_text("\n\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    for command in ("replay", "analyze"):
        assert_one_error_line(run(command, path), f"{path}:7: deal 4, score: recorded")


@pytest.mark.parametrize("name", ["two-player.toml", "positions.txt"])
def test_a_deal_file_is_told_apart_from_a_record(name):
    # it was "two-player.toml:1: not JSON (Expecting value)"
    assert_one_error_line(run("replay", EXAMPLES / name),
                          f"{EXAMPLES / name}: a deal file or position, not a game record",
                          "'allfives solve' solves it")


def test_a_deal_file_with_a_mistake_is_told_apart_from_a_record(tmp_path):
    """A deal file that 'allfives solve' would refuse (a card twice) was 'not JSON' here."""
    path = tmp_path / "twice.toml"
    path.write_text('trump = "H"\n[hands]\nN = "AH AH"\nS = "KH QH"\n', encoding="utf-8")
    assert_one_error_line(run("replay", path), f"{path}: a deal file or position, not a game "
                                                f"record")
    (tmp_path / "other.toml").write_text('title = "a note"\n', encoding="utf-8")
    assert_one_error_line(run("replay", tmp_path / "other.toml"), "not JSON")


def test_a_record_of_any_name_is_told_by_its_first_line_that_is_not_blank(tmp_path):
    """``analyze FILE#N`` of a record not named .jsonl, starting with a byte-order mark and a
    blank line, is read as the record ``replay`` reads it as (it was 'not TOML')."""
    record = tmp_path / "games.jsonl"
    assert run("match", "heuristic", "random", "--deals", 3, "--record", record).exit_code == 0
    odd = tmp_path / "games.txt"
    odd.write_bytes(b"\xef\xbb\xbf\n" + record.read_bytes())
    plain = run("analyze", f"{record}#2", "--json")
    assert plain.exit_code == 0, plain.stderr
    found = run("analyze", f"{odd}#2", "--json")
    assert found.exit_code == 0, found.stderr
    assert json.loads(found.stdout)["plays"] == json.loads(plain.stdout)["plays"]


def revoking_match(seed: int, rules: Rules, players: int = 4,
                   positions: dict[int, Position] | None = None):
    """A match of random cards in which a seat now and then revokes (as only a record can
    show), to its end; ``positions`` takes each deal's position at its first card, by the
    deal's number."""
    import random

    state = Match(players, rules).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if positions is not None and state.phase == "play" and not state.play:
            positions.setdefault(state.deal_number, state.position())
        legal = state.legal_actions()
        if state.phase == "play" and rng.random() < 0.05:
            unfit = [c for c in state.hands[state.current_player()] if c not in legal]
            if unfit:
                state.apply_revoke(rng.choice(unfit))
                continue
        state.apply_action(rng.choice(legal))
    return state


@pytest.mark.parametrize("finish", ["hand-end", "peg-out"])
def test_a_deal_of_a_record_is_judged_at_the_score_the_table_played_it_at(finish):
    """A deal read back from a record (``analyze RECORD#N``) has the position the table had at
    its first card: where a revoke left a side at or over the target, its score under
    hand-end, where that side has not won (it was dropped, and ``--objective win`` told the
    deal had no score), and none under peg-out, where it has."""
    from cli.inputs import deal_position

    rules = Rules.preset("all-fives", target=11, finish=finish)
    past = 0
    for seed in range(60):
        table: dict[int, Position] = {}
        state = revoking_match(seed, rules, positions=table)
        for number, position in table.items():
            again = deal_position(state, number, f"r#{number}")
            assert again.deal == position.deal
            if state.deal_again(number)[1] is None:
                past += 1
                assert (again.deal.score is None) == (finish == "peg-out")
    assert past >= 3


@pytest.mark.parametrize("finish", ["hand-end", "peg-out"])
def test_the_play_by_play_tells_the_match_s_score_past_a_revoke(tmp_path, finish):
    """A revoke can leave the side that made it at or over the target without winning; the
    next deal, which no match may start from that score, is told at the match's score all the
    same (it said 'not shown' and counted from 0): at the start, at every trick, each point
    as the match pegged it, and a peg-out where the match had one (it was not told)."""
    rules = Rules.preset("all-fives", target=11, finish=finish)
    found = []
    for seed in range(200):
        state = revoking_match(seed, rules)
        over = [k for k in range(1, len(state.deals) + 1) if state.deal_again(k)[1] is None]
        if over:
            found.append((state, over[0]))
        if len(found) == 3:
            break
    assert len(found) == 3
    for state, number in found:
        path = tmp_path / "revokes.jsonl"
        path.write_text(records_text(match_records(state, "r")), encoding="utf-8")
        result = run("replay", f"{path}#{number}", "--no-color")
        assert result.exit_code == 0, result.stderr
        lines = result.stdout.splitlines()
        before = state.score_before(number)
        said = ", ".join(f"{side_name(s, 4)} {p}" for s, p in enumerate(before))
        assert lines[0].endswith(f" · score {said}")
        scores = [[int(p) for p in re.findall(r"-?\d+", line)] for line in lines
                  if line.startswith("  Score: ")]
        # each score told is the start's with the points pegged so far, in the order pegged
        running, totals = list(before), []
        for peg in state.deals[number - 1].pegs:
            running[peg.side] += peg.points
            totals.append(list(running))
        assert all(told in totals for told in scores)
        assert [totals.index(told) for told in scores] == \
            sorted(totals.index(told) for told in scores)
        log = state.deals[number - 1]
        assert totals[-1] == list(log.score)
        pegged = [line for line in lines if re.fullmatch(r"  \w+ (pegs|loses) \d+ \(.*\)", line)]
        assert len(pegged) == len(log.pegs)
        assert any("pegged out" in line for line in lines) == \
            (finish == "peg-out" and bool(log.winners))


@pytest.mark.parametrize("command", [["solve"], ["analyze"], ["replay"]])
def test_a_record_read_has_a_live_line_and_its_notes_after_it(tmp_path, monkeypatch, command):
    """Thousands of deals take seconds to replay before the first is solved, judged or told:
    a live line says the record is being read (on a terminal, not with --json), and what is
    said of its deals (those thrown in, left out) comes after it, not under it."""
    from contextlib import contextmanager

    record = tmp_path / "m.jsonl"
    assert run("match", "heuristic", "random", "--deals", 60, "--record", record).exit_code == 0
    lines, inside = [], []

    @contextmanager
    def live(console, what, progress):
        lines.append(what)
        inside.append(True)
        yield
        inside.pop()

    said = []
    monkeypatch.setattr("cli.status.searching", live)
    monkeypatch.setattr("cli.inputs.note", lambda text: said.append((text, bool(inside))))
    limit = [] if command == ["replay"] else ["--node-limit", 1]
    run(*command, record, *limit)
    assert lines == [f"reading {record}"]
    if command != ["replay"]:
        assert said and not any(under for _, under in said)
        assert "no cards played (the deal was thrown in), left out" in said[0][0] or \
            "no cards played (the deals were thrown in), left out" in said[0][0]
    run(*command, record, *limit, "--json")
    assert lines == [f"reading {record}"]


def test_the_live_line_writes_a_file_names_control_characters_as_escapes(tmp_path):
    """A record's name went into the terminal's live line as it was: a name holding ESC
    sequences set the window's title, cleared the screen and turned the text red.  It is
    written as the messages write it."""
    import io

    from rich.console import Console

    from cli import status

    name = "rec\x1b]0;PWNED\x1b\\\x1b[2J\x1b[31mRED\u202e.jsonl"
    line = status._Line(f"reading {name}", None)
    line.start -= 2 * status.DELAY
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=200, color_system=None)
    console.print(line)
    shown, _, seconds = screen.getvalue().rpartition(": ")
    assert shown == "reading rec\\x1b]0;PWNED\\x1b\\\\x1b[2J\\x1b[31mRED\\u202e.jsonl"
    assert seconds.endswith(" s\n")


def test_replay_keeps_a_matchs_state_only_where_its_deals_are_told():
    """Every match's whole state was held to the end (some 40 KB a match: a 190 MB record took
    1.1 GB); what replay tells of a match is kept as it comes, and its state only with
    --play-by-play, or for the match that holds the deal asked for."""
    from cli.replaying import told_matches

    text = "".join((EXAMPLES / "match.jsonl").read_text(encoding="utf-8").replace(
        '"match": "example"', f'"match": "m{k}"') for k in range(3))
    deals = told_matches(text, "f", False, False, None)[0].deals
    assert [m.state for m in told_matches(text, "f", True, False, None)] == [None] * 3
    kept = told_matches(text, "f", False, False, deals + 2)
    assert [m.state is not None for m in kept] == [False, True, False]
    for number, held in ((deals, [True, False, False]), (deals + 1, [False, True, False]),
                         (3 * deals, [False, False, True])):     # (a match's first and last)
        assert [m.state is not None for m in told_matches(text, "f", False, False, number)] \
            == held
    assert all(m.state is not None for m in told_matches(text, "f", False, True, None))
    assert [m.match for m in kept] == ["m0", "m1", "m2"] and kept[0].summary is None
