"""``allfives advise``: what a seat can see read from a position with hidden hands or from a
call's options, every mistake one line, the report and the JSON record; and the advice itself
checked against every world of the unseen cards solved by the reference solver."""

from __future__ import annotations

import itertools
import dataclasses
import json
import re
import math

import pytest

import cli.advising as advising
from clirun import EXAMPLES, assert_one_error_line, run
from solver.advice import GAME_ASIDE, PLAYED_OUT
from solver.cards import card_str, parse_card, suit_of
from solver.game import BEG, RUN, TAKE_ONE, action_name
from solver.rules import Rules
from solver.pimc import ActionValue, Advice

TWO = "N:T.QJT92.-.- - dealer=S turnup=6H"
HIDDEN = EXAMPLES / "hidden" / "south.toml"


def stand_in(objective: str = "margin"):
    """An advice of made-up values (the k-th legal action worth k) in place of the player's,
    to see the report and the record take what an Advice holds."""
    made: list = []

    def advise(observation, worlds, seed, seen=None, node_limit=None):
        legal = observation.legal_actions
        actions = []
        for k, action in enumerate(reversed(legal)):
            mean = (len(legal) - k) / (len(legal) + 1) if objective == "win" else 3.0 - k
            # a chance's interval may reach past 0 or 1, as a normal approximation does
            actions.append(ActionValue(action, mean, mean - (0.4 if objective == "win" else 0.25),
                                       mean + (0.4 if objective == "win" else 0.5),
                                       1.0 if k == 0 else 0.125))
        advice = Advice(observation.seat, observation.phase, objective, worlds or 32, False,
                        True, tuple(actions))
        made.append((observation, worlds, seed, advice))
        return advice

    return advise, made


@pytest.fixture
def made(monkeypatch):
    advise, made = stand_in()
    monkeypatch.setattr(advising, "advice_for", advise)
    return made


# ---- reading what the seat sees ----------------------------------------------------------------

def test_a_position_with_a_hidden_hand(made):
    result = run("advise", TWO, "--json", "--worlds", "7", "--seed", "3")
    assert result.exit_code == 0, result.stderr
    (obs, worlds, seed, advice) = made[0]
    assert (worlds, seed) == (7, 3)
    assert obs.seat == 0 and obs.phase == "play" and obs.legal_actions
    record = json.loads(result.stdout)
    assert record["position"] == "<argument>" and record["seat"] == "N"
    assert record["for"] == "N" and record["phase"] == "play"
    assert record["best"] == card_str(advice.best)
    assert [a["action"] for a in record["actions"]] == [action_name(v.action)
                                                         for v in advice.actions]
    assert record["actions"][0] == {"action": card_str(advice.actions[0].action), "mean": 3.0,
                                    "low": 2.75, "high": 3.5, "best": 1.0}


def test_the_example_file_and_standard_input_are_read_alike(made):
    by_file = run("advise", HIDDEN, "--json")
    by_stdin = run("advise", "-", "--json", input=HIDDEN.read_text())
    assert by_file.exit_code == by_stdin.exit_code == 0, (by_file.stderr, by_stdin.stderr)
    first, second = json.loads(by_file.stdout), json.loads(by_stdin.stdout)
    assert first["position"] == str(HIDDEN) and second["position"] == "<stdin>"
    assert first["actions"] == second["actions"]
    assert made[0][0] == made[1][0]
    obs = made[0][0]
    assert obs.players == 4 and obs.seat == 2 and [c for _, c in obs.play] == \
        [parse_card(c) for c in ("7H", "6H", "9H")]
    assert set(obs.legal_actions) == {parse_card(c) for c in ("AH", "6S", "4S")}


def test_the_seat_may_be_named_if_it_is_the_seat_to_move(made):
    assert run("advise", TWO, "--seat", "n", "--json").exit_code == 0


@pytest.mark.parametrize("players, dealer, seat, phase", [
    (2, "S", "N", "elder"), (2, "S", "S", "dealer"), (4, "W", "N", "elder"),
    (4, "W", "W", "dealer"), (3, "E", "S", "elder"), (3, None, "N", "elder"),
    (4, None, None, "elder"),
])
def test_a_call_from_its_options(made, players, dealer, seat, phase):
    args = ["advise", "--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--players", players,
            "--json", "--score", ",".join(["5"] * (2 if players == 4 else players))]
    if dealer is not None:
        args += ["--dealer", dealer]
    if seat is not None:
        args += ["--seat", seat]
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    obs = made[0][0]
    names = "NESW" if players == 4 else "NES" if players == 3 else "NS"
    assert obs.phase == phase and obs.players == players
    assert obs.seat == (names.index(seat) if seat else (obs.dealer + 1) % players)
    assert obs.dealer == (names.index(dealer) if dealer else
                          (obs.seat - 1) % players if seat else players - 1)
    assert obs.hand == tuple(sorted(obs.hand, key=lambda c: (suit_of(c), -c)))
    assert {card_str(c) for c in obs.hand} == {"AH", "KH", "5H", "9C", "2D", "3S"}
    assert obs.score == (5,) * (2 if players == 4 else players)
    record = json.loads(result.stdout)
    assert record["phase"] == phase and {a["action"] for a in record["actions"]} == \
        ({"stand", "beg"} if phase == "elder" else {"take-one", "run"})


def test_the_rules_of_a_call(made):
    assert run("advise", "--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--seat", "S",
               "--dealer", "S", "--rules", "classic", "--target", "31", "--json"
               ).exit_code == 0
    rules = made[0][0].rules
    assert rules.preset_name == "classic" and rules.target == 31
    assert made[0][0].legal_actions == (TAKE_ONE, RUN) and made[0][0].calls == ((0, BEG),)
    assert run("advise", "--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--seat", "S",
               "--rules", "classic:five_for_five=true,target=21", "--json").exit_code == 0
    assert made[1][0].rules == Rules.preset("classic", five_for_five=True, target=21)


# ---- mistakes ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args, fragments", [
    ([], ["--hand: a call is advised on a hand: give --hand and --turnup, or a POSITION"]),
    ([TWO, "--hand", "AH"], ["--hand: a POSITION describes the table itself"]),
    ([TWO, "--players", "4"], ["--players: a POSITION describes the table itself"]),
    # a call is played out, not searched: --nodes would change nothing (it was let be)
    (["--hand", "9H 4C 3C 8D 2S QS", "--turnup", "7H", "--nodes", "5"],
     ["--nodes: bounds the engine's search for a card's advice; a call is valued by playing "
      "its deals out, which searches nothing (give a POSITION, or leave --nodes out)"]),
    # past what the engine counts: named as the option, not as the player's node_limit
    ([TWO, "--nodes", str(2 ** 63)],
     [f"--nodes: {2 ** 63} is not a number of nodes from 1 to {2 ** 63 - 1}"]),
    ([TWO, "--seat", "S"], ["<argument>: S is not to play: N is (advice is for the seat to move)"]),
    ([TWO, "--seat", "E"], ["--seat: no seat 'E' at a 2-player table (seats here: N S)"]),
    (["N:- Q.AK5.7.4 dealer=S turnup=6H"],
     ["<argument>: hands.N: N is to play, but the hand is hidden: show the hand advised"]),
    (["N:- - dealer=S turnup=6H"], ["<argument>: hands: every hand is hidden"]),
    ([TWO + " play=TH,QH"], ["<argument>: play[1]: 'QH' is in N's hand, but S plays it"]),
    (["N:AK.-.-.- - dealer=S trump=H play=AS,2C,KS,3S"],
     ["play[3]: S plays '3S', but showed no spades at play[1]"]),
    (["N:A.A.A.AKQ - K2.K2.K2.- - dealer=W trump=D follow=strict "
      "play=AS,2C,2S,3C,AH,4C,2H,5C,AD,6C,2D,7C"],
     ["hands: E and W must still hold 6 cards, but only 4 unseen cards can be theirs"]),
    (["N:A.-.-.- - dealer=S trump=S play=AS,2C"], ["play: the play is over"]),
    (["no-such-file.toml"], ["no-such-file.toml"]),
    (["nothing-here"], ["nothing-here: no such file, and not a one-line position"]),
    (["-"], ["<stdin>: empty: no position in it"]),
    (["--hand", "AH KH 5H 9C 2D 3S"], ["--turnup: a call is advised on the turn-up too"]),
    (["--hand", "AH KH 5H 9C 2D ZZ", "--turnup", "7H"], ["--hand: ", "'ZZ'"]),
    (["--hand", "AH KH 5H 9C 2D", "--turnup", "7H"],
     ["--hand: the hand holds 5 cards: a call is made on the 6 cards dealt"]),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "XX"], ["--turnup: ", "'XX'"]),
    (["--hand", "AH KH 5H 9C 2D 7H", "--turnup", "7H"],
     ["--turnup: the turn-up 7H is also in the hand"]),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--players", "4", "--dealer", "W",
      "--seat", "E"], ["--seat: E has no call: with W dealing, the elder hand N stands or begs "
                       "and the dealer W takes one or runs"]),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--seat", "E"],
     ["--seat: no seat 'E' at a 2-player table (seats here: N S)"]),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--dealer", "X"],
     ["--dealer: unknown seat 'X'"]),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--score", "3,x"],
     ["--score: expected whole numbers separated by commas (52,58), not 'x'"]),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--score", "3"],
     ["--score: the score takes 2 entries, one a side (N S), not 1"]),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--score", "61,3"],
     ["--score: N has 61, already at the target 61"]),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--rules", "bridge"],
     ["unknown preset 'bridge'"]),
])
def test_every_mistake_is_one_line(made, args, fragments):
    assert_one_error_line(run("advise", *args, input=""), *fragments)
    assert not made


@pytest.mark.parametrize("form", ["toml", "line"])
def test_a_file_of_several_positions_is_one_line(made, tmp_path, form):
    path = tmp_path / ("deals.toml" if form == "toml" else "deals.txt")
    done = run("deal", "--players", 2, "--count", 2, "--seed", 1, "--format", form)
    path.write_text(done.stdout)
    first, second = (f"{path}#1", f"{path}#2") if form == "toml" else (f"{path}:1", f"{path}:2")
    assert_one_error_line(run("advise", path), f"{path}: 2 positions, not one: a seat is "
                                                f"advised on one position at a time (name one: "
                                                f"{first} or {second})")
    assert_one_error_line(run("advise", "-", input=path.read_text()),
                          "<stdin>: 2 positions, not one: a seat is advised on one position "
                          "at a time (write them to a file, and name one of it: FILE#N or "
                          "FILE:LINE)")
    if form == "line":      # a comment between two: the lines that hold them are named
        lines = path.read_text().splitlines()
        gapped = tmp_path / "gapped.txt"
        gapped.write_text(f"{lines[0]}\n# the second\n{lines[1]}\n")
        assert_one_error_line(run("advise", gapped), f"(name one: {gapped}:1 or {gapped}:3)")
    assert not made
    # each named as solve names it, and advised as the file of that one position alone
    alone = tmp_path / ("one.toml" if form == "toml" else "one.txt")
    for name, text in zip((first, second), done.stdout.split("# ---\n") if form == "toml"
                          else done.stdout.splitlines()):
        alone.write_text(text)
        picked = run("advise", name, "--json", "--worlds", 3)
        assert picked.exit_code == 0, picked.stderr
        row = json.loads(picked.stdout)
        assert row["position"] == name
        row.pop("position"), row.pop("seconds")
        by_itself = json.loads(run("advise", alone, "--json", "--worlds", 3).stdout)
        by_itself.pop("position"), by_itself.pop("seconds")
        assert row == by_itself
    assert_one_error_line(run("advise", f"{path}#3" if form == "toml" else f"{path}:3"),
                          "no deal ")


def test_what_is_not_a_position_is_one_line(made, tmp_path):
    """A game record, whole or one of its deals, a link that leads to nothing and a one-line
    position but for its first seat are each named for what they are."""
    record = EXAMPLES / "match.jsonl"
    assert_one_error_line(run("advise", record), f"{record}: a game record, not a position (a "
                          f"deal file or a one-line position); 'allfives analyze' judges a "
                          f"record's play")
    assert_one_error_line(run("advise", f"{record}#2"), f"{record}#2: {record} is a game "
                          f"record, not a position; 'allfives analyze' judges a record's play")
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    assert_one_error_line(run("advise", tmp_path / "gone"),
                          f"{tmp_path / 'gone'}: No such file or directory")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    assert_one_error_line(run("advise", tmp_path / "loop"),
                          f"{tmp_path / 'loop'}: Too many levels of symbolic links")
    assert_one_error_line(run("advise", "X:AK.-.-.- - dealer=S trump=H"),
                          "X:AK.-.-.- - dealer=S trump=H: no such file, and not a one-line "
                          "position: X: is no seat (a position starts N:, E:, S: or W:)")
    assert not made


def test_a_deal_with_hidden_hands_is_picked_from_a_file_of_several(tmp_path):
    """``FILE#N`` of deal files whose hidden hands are "?": advised as that deal alone."""
    deals = [f'trump = "H"\ndealer = "S"\n[hands]\nN = "{hand}"\nS = "?"\n'
             for hand in ("T.QJT92.-.-", "K.QJT92.-.-")]
    several, alone = tmp_path / "several.toml", tmp_path / "alone.toml"
    several.write_text("# ---\n".join(deals), encoding="utf-8")
    alone.write_text(deals[1], encoding="utf-8")
    picked, by_itself = (json.loads(run("advise", name, "--json", "--worlds", 3).stdout)
                         for name in (f"{several}#2", alone))
    assert picked["position"] == f"{several}#2"
    for row in (picked, by_itself):
        row.pop("position"), row.pop("seconds")
    assert picked == by_itself and {a["action"] for a in picked["actions"]} >= {"KS"}


def test_advice_searches_a_hundred_million_nodes_unless_told(monkeypatch):
    """``--nodes`` is 100,000,000 by default, as the README says; a limit given is passed on,
    up to the most the engine counts."""
    advise, _ = stand_in()
    limits = []

    def spy(observation, worlds, seed, seen=None, node_limit=None):
        limits.append(node_limit)
        return advise(observation, worlds, seed, seen)

    monkeypatch.setattr(advising, "advice_for", spy)
    for extra in ([], ["--nodes", 5], ["--nodes", 2 ** 63 - 1]):
        assert run("advise", TWO, "--json", *extra).exit_code == 0
    assert limits == [100_000_000, 5, 2 ** 63 - 1]


@pytest.mark.parametrize("worlds", [1, 100_000])
def test_the_fewest_and_the_most_worlds_are_taken(worlds):
    line = "N:KQ.T.-.- - dealer=S trump=S play=TH,2H"     # (1,128 deals fit)
    record = json.loads(run("advise", line, "--json", "--worlds", worlds).stdout)
    assert record["worlds"] == min(worlds, 1128) and record["exact"] == (worlds > 1128)


# ---- the report ------------------------------------------------------------------------------

def test_the_score_says_what_this_deal_has_pegged_in_it():
    # the score given is before the deal; the trick N took has pegged A 4 and K 3 since
    text = " ".join(run("advise", "N:AKQ.-.-.- - dealer=S trump=S play=AS,2S,KS,3S "
                                  "score=50,10").stdout.split())
    assert "score N 57 (+7 this deal), S 10 (61 to win)" in text


@pytest.mark.parametrize("args, said", [
    (["N:AK5.9.32.KQJ - dealer=S turnup=7C aside=8H"],
     "trumps ♣ clubs (turn-up 7♣; set aside 8♥); N to play to trick 1\n"),
    (["N:AK5.9.32.KQJT98 - dealer=S turnup=7C aside=8H,3H"],
     "trumps ♣ clubs (turn-up 7♣; set aside 8♥ 3♥); N to play to trick 1\n"),
    (["N:AK5.9.32.KQJ - dealer=S turnup=7C aside=8H play=AS,4S"],    # (N won trick 1)
     "; N to play to trick 2\n"),
    (["N:- 654.9.32.KQJ dealer=N turnup=7C aside=8H play=4S,AS,KS"],
     "; S to play to trick 2: N K♠\n"),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--players", "4", "--dealer", "W"],
     "N is the elder hand, to stand or beg; turn-up 7♥\n"),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--players", "3", "--seat", "E",
      "--dealer", "E"], "E is the dealer, to take one or run; turn-up 7♥; S begged\n"),
])
def test_what_the_seat_sees_is_said(made, args, said):
    """The trumps with the turn-up and any the runs set aside, the trick to play to and its
    cards so far; for a call, whose call it is and who begged."""
    result = run("advise", *args, "--no-color")
    assert result.exit_code == 0, result.stderr
    assert said in result.stdout, result.stdout


@pytest.mark.parametrize("args, bold", [
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7C"], ["9♣"]),
    (["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H"], ["A♥", "K♥", "5♥"]),
    (["N:AK5.9.32.KQJ - dealer=S turnup=7C aside=8H"], ["K♣", "Q♣", "J♣"]),
])
def test_the_trumps_held_are_bold(made, args, bold):
    """In color, the cards of the trump suit held (for a call, the suit the turn-up proposes)
    are bold, and no other."""
    out = run("advise", *args, "--color").stdout
    held = next(line for line in out.splitlines() if " holds " in line)
    assert re.findall(r"\x1b\[1(?:;31)?m(\S+?)\x1b\[0m", held) == bold, held
    assert held.count("\x1b[1") == len(bold), held


def test_the_calls_are_said_and_weigh_the_deals():
    """A position's calls (given, or a beg and a run that its turn-ups set aside tell) are
    said under the table, and the deals of the unseen cards are weighed by them."""
    told = "N:7654.K3.-.- - dealer=N turnup=7H play=AS"
    plain = run("advise", told, "--json", "--worlds", "64")
    begged = run("advise", f"{told} calls=beg,take-one", "--json", "--worlds", "64")
    assert plain.exit_code == begged.exit_code == 0, begged.stderr
    assert json.loads(plain.stdout)["actions"] != json.loads(begged.stdout)["actions"]
    assert "\ncalls: S beg, N take-one\n" in run("advise", f"{told} calls=beg,take-one").stdout
    assert "calls:" not in run("advise", told).stdout
    ran = "N:- - - KJ4.AJ9.Q954.KQ dealer=E turnup=6D aside=7H,8H play=AS,4S,5S,3S,5C"
    assert "\ncalls: S beg, E run\n" in run("advise", ran, "--worlds", "4").stdout


def test_the_report_lists_every_choice_best_first(made):
    result = run("advise", HIDDEN, "--worlds", "5")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    advice = made[0][3]
    lines = text.splitlines()
    assert lines[0] == str(HIDDEN)
    assert "4 players; rules all-fives; dealer S; score NS 0, EW 0 (61 to win)" in text
    assert "S to play to trick 1: W 7♥, N 6♥, E 9♥" in text
    assert "hidden: N (5 cards), E (5 cards), W (5 cards)" in text
    assert "S holds 6♠ 4♠ A♥ 2♦ K♣ 3♣" in text
    assert "Advice for S: NS's points in the deal minus EW's\nover 5 deals of the unseen " \
           "cards, drawn at random among those that fit" in text
    rows = [line.split() for line in lines if line[:2] in ("A♥", "6♠", "4♠")]
    assert [row[0] for row in rows] == [card_str(v.action, True) for v in advice.actions]
    faces = [card_str(v.action, True) for v in advice.actions]
    assert rows[0] == [faces[0], "+3.00", "+2.75", "to", "+3.50", "100%", "best"]
    assert rows[2] == [faces[2], "+1.00", "+0.75", "to", "+1.50", "12%"]
    assert max(len(line) for line in lines[1:]) <= 80   # the heading is the path, any length


def test_a_long_name_heads_the_report_whole(made, tmp_path):
    folder = tmp_path / ("a folder with a name long enough to pass the width " * 2)
    folder.mkdir()
    path = folder / "south.toml"
    path.write_text(HIDDEN.read_text(encoding="utf-8"), encoding="utf-8")
    lines = run("advise", path, "--no-color").stdout.splitlines()
    assert len(str(path)) > 100 and lines[0] == str(path)


def test_the_report_of_a_call_and_of_a_chance_to_win(monkeypatch):
    advise, made = stand_in("win")
    monkeypatch.setattr(advising, "advice_for", advise)
    result = run("advise", "--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--seat", "S",
                 "--dealer", "S", "--score", "55,58")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "S is the dealer, to take one or run; turn-up 7♥; N begged" in text
    assert "Advice for S: S's chance of winning the match" in text
    rows = {line.split()[0]: line.split() for line in text.splitlines()
            if line.split()[:1] in (["take-one"], ["run"])}
    assert rows["run"][1:6] == ["67%", "27%", "to", "100%", "100%"]
    assert rows["take-one"][1:5] == ["33%", "0%", "to", "73%"]


def test_a_lone_choice_and_values_not_known(monkeypatch):
    def advise(observation, worlds, seed, seen=None, node_limit=None):
        actions = tuple(ActionValue(a, math.nan, math.nan, math.nan, 1.0 / len(
            observation.legal_actions)) for a in observation.legal_actions)
        return Advice(observation.seat, "play", "margin", 0, False, False, actions)

    monkeypatch.setattr(advising, "advice_for", advise)
    one = "N:T.-.-.- - dealer=S trump=H play=2H"    # N holds the Ten of spades alone
    result = run("advise", one.replace("play=2H", ""))
    assert result.exit_code == 0, result.stderr
    assert "T♠" in result.stdout and "nan" not in result.stdout.lower()
    assert "the only choice" in result.stdout
    record = json.loads(run("advise", one.replace("play=2H", ""), "--json").stdout)
    assert record["actions"][0]["mean"] is None and record["complete"] is False


def advised_as(monkeypatch, change, objective: str = "margin") -> None:
    """The stand-in advice, made over by ``change`` (an advice to an advice), in place of the
    player's."""
    advise, _ = stand_in(objective)

    def changed(observation, worlds, seed, seen=None, node_limit=None):
        return change(advise(observation, worlds, seed, seen))

    monkeypatch.setattr(advising, "advice_for", changed)


def told(monkeypatch, *args: str, objective: str = "margin", **change) -> str:
    """The report of the stand-in advice with ``change`` made to it, its words run together."""
    advised_as(monkeypatch, lambda advice: dataclasses.replace(advice, **change), objective)
    result = run("advise", *(args or (TWO,)), "--no-color")
    assert result.exit_code == 0, result.stderr
    return " ".join(result.stdout.split())


CALL = ("--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H")


@pytest.mark.parametrize("args, objective, change, said, unsaid", [
    ((), "margin", {}, "expected: the mean over the deals of the double-dummy value after the "
     "card 95% interval: of that mean;", "Game's point"),
    ((), "margin", {"method": GAME_ASIDE}, "expected: the mean over the deals of the "
     "double-dummy value after the card, Game's point left out 95% interval: of that mean; "
     "best in: the deals in which it is one of the best Not one deal could be solved with Game "
     "within the limit (these hands are deep): the deals are solved with Game set aside "
     "instead.", "node limit"),
    ((), "margin", {"method": PLAYED_OUT}, "expected: the mean over the deals of the points of "
     "the deal after the card, played out by the heuristic's rules, each seat seeing only its "
     "own cards 95% interval: of that mean; best in: the deals in which it is one of the best "
     "Too few deals could be solved within the node limit (not one; four are needed", "Game"),
    ((), "margin", {"method": PLAYED_OUT, "solved": 2}, "within the node limit (only 2; four "
     "are needed, or all where there are fewer): the cards are valued by playing the deals out "
     "instead (--nodes raises the limit).", "not one"),
    ((), "win", {}, "win chance: the share of the deals in which N can be sure of winning the "
     "match in the deal after the card 95% interval: of that share;", "played out"),
    ((), "win", {"method": PLAYED_OUT}, "win chance: the share of the deals that win the match "
     "after the card, played out by the heuristic's rules, each seat seeing only its own "
     "cards", "sure of"),
    (CALL, "win", {}, "win chance: the share of the deals that win the match after the call, "
     "played out by the heuristic's rules", "sure of"),
    (CALL, "margin", {}, "expected: the mean over the deals of the points of the deal after "
     "the call, played out by the heuristic's rules", "double-dummy"),
])
def test_the_key_says_how_the_values_were_found(monkeypatch, args, objective, change, said,
                                                 unsaid):
    text = told(monkeypatch, *args, objective=objective, **change)
    assert said in text and unsaid not in text


def test_the_key_of_a_call_near_the_target_says_what_a_match_counts():
    from solver.calling import WIN_VALUE

    text = " ".join(run("advise", *CALL, "--seat", "S", "--dealer", "S", "--score", "55,58",
                        "--worlds", 8).stdout.split())
    assert (f"points: the mean of S's points in the deal minus N's (a deal that wins the match "
            f"counting a fixed {WIN_VALUE}, one that loses it -{WIN_VALUE}) over the same "
            f"deals, which ranks equal chances") in text


def test_a_lone_choice_or_none_valued_is_said_so(monkeypatch):
    lone = "N:T.-.-.- - dealer=S trump=H"
    assert "Advice for N: the only legal choice" in told(monkeypatch, lone)
    assert "Advice for N: no deal of the unseen cards could be valued within the limit" in \
        told(monkeypatch, worlds=0)
    # a choice not valued among others: its row says so, the key stays
    def one_unknown(advice):
        last = dataclasses.replace(advice.actions[-1], mean=math.nan, low=math.nan,
                                   high=math.nan)
        return dataclasses.replace(advice, actions=(*advice.actions[:-1], last))

    advised_as(monkeypatch, one_unknown)
    text = run("advise", TWO, "--no-color").stdout
    assert "not known" in text and "95% interval: of that mean" in text
    rows = [line for line in text.splitlines() if line[1:2] in ("♠", "♥", "♦", "♣") and
            line.endswith(("best", "not known"))]
    assert len(rows) == 2 and rows[0].index("best") == rows[1].index("not known"), rows


def test_no_interval_from_one_deal_is_said_so(monkeypatch):
    advised_as(monkeypatch, lambda advice: dataclasses.replace(advice, worlds=1, actions=tuple(
        dataclasses.replace(v, low=math.nan, high=math.nan) for v in advice.actions)))
    assert "?: no interval from one deal" in run("advise", TWO).stdout


def test_the_node_limit_is_said_reached_only_before_the_last_deal_drawn():
    cut = Advice(0, "play", "margin", 3, False, False, (), left_out=1, drawn=4)
    assert advising.limit_words(cut) == [
        "1 deal of the 4 tried could not be solved within the node limit and is left out: the "
        "values are over the other 3, and may lean to the easier deals (--nodes raises the "
        "limit)."]
    assert advising.limit_words(dataclasses.replace(cut, drawn=5))[1] == \
        "The node limit was reached after 4 of the 5 deals drawn."


def test_the_record_rounds_its_numbers_to_six_places(monkeypatch):
    advised_as(monkeypatch, lambda advice: dataclasses.replace(
        advice, seconds=1 / 3, effective=31 + 2 / 3, actions=tuple(
            dataclasses.replace(v, mean=v.mean + 1 / 3) for v in advice.actions)))
    record = json.loads(run("advise", TWO, "--json").stdout)
    assert record["seconds"] == 0.333333 and record["actions"][0]["mean"] == 3.333333
    assert record["effective_worlds"] == 31.666667


def test_the_table_s_numbers_stand_under_their_titles():
    """Each number ends where its title does, in the wide table and in the stacked one (a
    title over two lines, each interval under its mean, the columns two apart)."""
    def ends(line: str) -> list[tuple[int, str]]:
        return [(m.end(), m[0]) for m in re.finditer(r"\S+(?: to \S+)?", line)]

    for args, titles in (([HIDDEN, "--worlds", 8], ("expected", "95% interval", "best in")),
                         ([NEAR, "--worlds", 5000], ("win chance", "95% interval", "they win",
                                                     "points", "best in"))):
        wide = run("advise", *args, "--no-color").stdout.splitlines()
        title = next(line for line in wide if line.startswith("card "))
        rows = [ends(line) for line in wide if line[1:2] in ("♠", "♥", "♦", "♣")]
        assert len(rows) == 3
        for row in rows:
            assert [end for end, _ in row[1:len(titles) + 1]] == [
                title.index(word) + len(word) for word in titles], row
    from cli.main import app
    from clirun import RUNNER

    narrow = RUNNER.invoke(app, ["advise", str(HIDDEN), "--worlds", "8", "--no-color"],
                           env={"COLUMNS": "40"}).stdout.splitlines()
    head = next(k for k, line in enumerate(narrow) if line.startswith("card "))
    top, title = narrow[head - 1], narrow[head]
    mean_end, best_end = top.index("expected") + 8, top.index("best") + 4
    assert (title.index("95% interval") + 12, title.rindex("in") + 2) == (mean_end, best_end)
    assert best_end - mean_end == 2 + len("best")      # (two apart, "best" its widest)
    for k, line in enumerate(narrow):
        if line[:2] in ("A♥", "6♠", "4♠"):
            row = ends(line)
            assert [end for end, _ in row[1:3]] == [mean_end, best_end], line
            assert re.fullmatch(r" +[-+]\d+\.\d\d\.\.[-+]\d+\.\d\d", narrow[k + 1]) and \
                len(narrow[k + 1]) == mean_end, narrow[k + 1]


# ---- the advice as play's hint shows it ----------------------------------------------------------

def hint_of(line: str, worlds: int = 16, columns: int | None = None, **change):
    """The advice to the seat to move in ``line`` (``change`` made to it), and the lines of its
    hint (at ``columns``, else the default)."""
    from solver.seen import read_seen

    seen = read_seen(line)
    observation = seen.observation()
    advice = dataclasses.replace(advising.advice_for(observation, worlds, 0, seen), **change)
    order = list(observation.legal_actions)
    width = {} if columns is None else {"columns": columns}
    return advice, order, advising.advice_lines(advice, observation, order, False,
                                                **width).plain.splitlines()


NEAR = "N:4.K8.Q65.- J7.-.K7.Q7 - turnup=JD play=4S,7S,9S,4H,8H,7C,6D,7D,2D,JS,9H score=47,56,51"


@pytest.mark.parametrize("line", [TWO, NEAR, "N:KQ.T.-.- - dealer=S trump=S play=TH,2H"])
def test_the_hint_numbers_every_choice_with_its_value_in_columns(line):
    """A line a choice, numbered as the choices are listed: its face, its mean, its interval
    (one value where it has no spread), its share of best, and with three players near the
    target the others' chance and the points; best marked.  Narrow, each interval goes on a
    line of its own under its value, and the words never pass the width."""
    advice, order, lines = hint_of(line, worlds=2000)      # (every deal of the last: exact)
    assert lines == hint_of(line, 2000, columns=80)[2] and max(map(len, lines)) <= 80
    values = {v.action: v for v in advice.actions}
    rows = [line for line in lines if re.match(r"  \d ", line)]
    assert [row.split()[:2] for row in rows] == [[str(k), card_str(card, False)]
                                                 for k, card in enumerate(order, 1)]
    share = advising.percent
    for number, (row, card) in enumerate(zip(rows, order), 1):
        value = values[card]
        low, high = (advising.value_text(advice, x) for x in (value.low, value.high))
        interval = low if low == high else f"{low} to {high}"
        ties = [] if advice.objective != "win" else [share(value.others_win),
                                                     f"{value.points:.2f}"]
        best = " best" if advising.is_best(advice, value) else ""
        assert " ".join(row.split()) == (
            f"{number} {card_str(card)} {advising.value_text(advice, value.mean)} {interval} "
            f"{' '.join(ties) + ' ' if ties else ''}best in {share(value.best)}{best}"), row
    assert len({len(row.split("  ")[1]) for row in rows}) == 1     # (faces padded alike)
    assert len({row.index("best in") for row in rows}) == 1, rows     # (in a column)
    widest = max(len(row) for row in rows)     # (a console just as wide holds them unfolded)
    assert [row for row in hint_of(line, 2000, columns=widest)[2]
            if re.match(r"  \d ", row)] == rows
    folded = hint_of(line, 2000, columns=40)[2]
    assert max(map(len, folded)) <= 40
    rows = [k for k, line in enumerate(folded) if re.match(r"  \d ", line)]
    assert len(rows) == len(order)
    for k, card in zip(rows, order):
        value = values[card]
        assert folded[k].split()[3:6] == ["best", "in", share(value.best)], folded[k]
        under = folded[k + 1].split()
        low = advising.value_text(advice, value.low)
        assert under[0] == low and folded[k + 1].startswith(" " * 8), folded[k + 1]


@pytest.mark.parametrize("change, note", [
    ({"method": PLAYED_OUT}, "(too deep to solve in time: each deal played out by the "
     "heuristic)"),
    ({"method": GAME_ASIDE}, "(too deep to solve with Game in time: each deal solved with "
     "Game's point left out)"),
    ({"complete": False, "left_out": 2, "worlds": 14, "drawn": 16},
     "(2 deals too deep to solve within the limit left out: the values may lean to the "
     "easier deals)"),
    ({"complete": False, "drawn": 20}, "(the limit was reached after 16 of the 20 deals)"),
    ({"complete": False}, "(a search stopped at its limit)"),
    ({"win_dropped": True}, "(near the target, but no chance of winning fitted the limit: "
     "valued by points)"),
])
def test_the_hint_says_how_its_values_were_found(change, note):
    words = " ".join(" ".join(hint_of(TWO, **change)[2]).split())
    assert note in words
    assert "(" not in " ".join(" ".join(hint_of(TWO)[2]).split())


def test_the_hint_of_a_call_near_the_target_says_what_a_match_counts():
    """A call's points near the target count a match won or lost as a fixed number, said under
    the choices; their values stand in one column, whatever the call's name."""
    from solver.calling import WIN_VALUE

    def call(score: str):
        return advising.call_observation_of("AH KH 5H 9C 2D 3S", "7H", None, 2, None, score,
                                            "all-fives", None, 0)

    def lines(observation, advice, columns: int = 80) -> list[str]:
        return advising.advice_lines(advice, observation, list(observation.legal_actions),
                                     False, columns).plain.splitlines()

    def words(observation, advice) -> str:
        return " ".join(" ".join(lines(observation, advice, 200)).split())

    won = f"(the points: a deal that wins the match counts as a fixed {WIN_VALUE}, one that " \
          f"loses it -{WIN_VALUE})"
    lost = f"(near the target: a deal that loses the match counts as a fixed -{WIN_VALUE})"
    near, far = call("55,58"), call("5,8")
    advice = advising.advice_for(near, 8, 0)
    said = words(near, advice)
    assert won in said and lost not in said
    by_points = dataclasses.replace(advice, objective="margin", actions=tuple(
        dataclasses.replace(v, points=None) for v in advice.actions))
    said = words(near, by_points)
    assert lost in said and won not in said
    said = words(far, advising.advice_for(far, 8, 0))
    assert won not in said and lost not in said
    means = [re.match(r"  \d (stand|beg) +\S+", row) for row in lines(near, advice)]
    assert sum(map(bool, means)) == 2 and len({m.end() for m in means if m}) == 1


def test_the_hint_s_columns_line_up_whatever_the_width_of_the_intervals():
    from solver.seen import read_seen

    observation = read_seen(NEAR).observation()
    cards = list(observation.legal_actions)
    advice = Advice(observation.seat, "play", "win", 8, True, True, tuple(
        ActionValue(card, mean, mean, mean, 1.0, 4.0, 0.25)
        for card, mean in zip(cards, (1.0, 0.5, 0.0))))
    rows = [line for line in advising.advice_lines(advice, observation, cards, False).plain
            .splitlines() if re.match(r"  \d ", line)]
    assert [row.split()[2] for row in rows] == ["100%", "50%", "0%"]
    for cell in ("25%", "4.00", "best in"):
        assert len({row.index(cell) for row in rows}) == 1, rows


def test_a_hint_s_value_not_known_is_a_question_mark():
    advice, order, _ = hint_of(TWO)
    last = advice.actions[-1]
    unknown = dataclasses.replace(last, mean=math.nan, low=math.nan, high=math.nan)
    lines = hint_of(TWO, actions=(*advice.actions[:-1], unknown))[2]
    row = next(line for line in lines if re.match(rf"  \d {card_str(last.action)} ", line))
    assert row.split()[2:] == ["?"], row


def test_a_hint_of_one_choice_says_so():
    advice, order, lines = hint_of("N:T.-.-.- - dealer=S trump=H")
    assert lines == ["  Advice from what you can see: there is only one choice."]


def test_the_hint_s_words_break_at_twenty_columns_at_the_least():
    """Narrower than 20 columns the hint's words break as at 20 (its rows are wider still)."""
    lines = hint_of(TWO, columns=20)[2]
    words = [line for line in lines if not re.match(r" +(\d |[-+]\d)", line)]
    assert max(map(len, words)) <= 20 and max(map(len, words)) > 16, words
    assert hint_of(TWO, columns=12)[2] == lines


def test_a_lone_legal_card_is_valued_in_no_deal():
    """A lone legal card draws no deal (its JSON said 128 drawn and none valued), shows no
    column notes under its row of '?', and a hidden hand with no card left is not listed."""
    last = "N:Q6.T.A2.K - - dealer=S turnup=3D play=AD,4D,6D,2D,9D,7C,AC,9H,KC,KS,8H,6S,8S,7H"
    record = json.loads(run("advise", last, "--json").stdout)
    assert (record["worlds"], record["drawn"], record["left_out"], record["exact"]) == \
        (0, 0, 0, False)
    shown = run("advise", last).stdout
    assert "the only choice" in shown and "expected:" not in shown
    assert "hidden: E (1 card), S (1 card)" in shown
    end = run("advise", "N:2.T3.4.K3 - dealer=S turnup=TS play=TH,KS,5H,2S,3C,9C,6H,3H,QS,4D,9D")
    assert end.exit_code == 0, end.stderr
    assert "hidden" not in end.stdout


def test_shares_of_all_and_none_and_near_them():
    """Only all is 100% and only none 0%: a card best in 99.8% of the deals was shown best in
    100%, and a call sure to win the match had '94% to >99%' beside its 100%."""
    assert [advising.percent(s) for s in (1.0, 1 - 1e-12, 0.998, 0.5, 0.004, 1e-12, 0.0)] == \
        ["100%", "100%", ">99%", "50%", "<1%", "0%", "0%"]
    sure = run("advise", "--hand", "AH KH QH JH TH 5H", "--turnup", "7H", "--seat", "S",
               "--dealer", "S", "--score", "30,60")
    assert sure.exit_code == 0, sure.stderr
    assert re.search(r"take-one +100% +\d+% to 100% ", sure.stdout), sure.stdout


def test_a_dealer_with_one_call_is_told_so():
    """Where no run is allowed the dealer is not asked to take one or run."""
    one = run("advise", "--hand", "AH KH QH JH TH 5H", "--turnup", "7H", "--seat", "S",
              "--dealer", "S", "--rules", "all-fives:max_runs=0", "--worlds", 8)
    assert one.exit_code == 0, one.stderr
    assert "S is the dealer, to take one (no other call)" in one.stdout
    assert "Advice for S: the only legal choice" in one.stdout     # (valued all the same)
    assert "expected: the mean over the deals of the points of the deal after the call" in \
        " ".join(one.stdout.split())


def test_far_from_the_target_no_note_says_it_is_near():
    """All-fours from 0 to 0 (a deal pegs 5 at most for a side, the target is 7), all-fives at
    30 (30 at most): the note that a lost match counts -61 was there (a bound of 36 for every
    rule set); at 31 it is."""
    note = "A side could reach the target"
    hand = ("--hand", "AS KH 5H 9C 2D 3S", "--turnup", "7H", "--worlds", 8)
    assert note not in run("advise", *hand, "--rules", "all-fours").stdout
    assert note not in run("advise", *hand, "--score", "30,0").stdout
    assert note in run("advise", *hand, "--score", "31,0").stdout


# ---- the advice against every world, solved by the reference solver ------------------------------

def every_world(seen):
    """Every deal of the unseen cards into the hidden hands that fits what the seat saw, as
    positions: found by trying every hand for each hidden seat (not by the sampler)."""
    from solver.deal import Deal, Position

    layout = seen.layout
    hidden = list(seen.hidden)
    unseen = seen.unseen()

    def deal_out(k, used, hands):
        if k == len(hidden):
            yield hands
            return
        seat = hidden[k]
        allowed = [c for c in unseen if c not in used and suit_of(c) not in seen.voids[seat]]
        for combo in itertools.combinations(allowed, seen.counts[seat]):
            yield from deal_out(k + 1, used | set(combo), {**hands, seat: combo})

    played = {}
    for seat, card in seen.play:
        played.setdefault(seat, []).append(card)
    for hands in deal_out(0, set(), {}):
        dealt = tuple(tuple(played.get(s, ())) + hands[s] if s in hands else layout.hands[s]
                      for s in range(seen.players))
        deal = Deal(dealt, layout.trump, layout.dealer, layout.rules, layout.turnup,
                    layout.score)
        yield Position(deal, layout.play)


@pytest.mark.parametrize("line", [
    # 2 players: S's last two cards unknown
    "N:KQ.T.-.- - dealer=S trump=S play=TH,2H",
    # 3 players: E's last two cards unknown, N to lead
    "N:K.5.-.9 - J2.4.-.- dealer=S trump=H play=5H,2H,4H",
    # 4 players, strict: E's last two cards unknown, and E showed no clubs
    "N:AJ.-.-.K - Q.-.-.T2 9.-.7.4 dealer=W trump=S follow=strict play=KC,3D,2C,4C",
])
def test_exact_advice_is_the_mean_over_every_world(line):
    """With every consistent world enumerated the advice is exact: each card's mean is its
    double-dummy value averaged over every world, each solved by the reference solver, and
    its share of best the share of worlds in which no card is worth more."""
    from solver.reference import solve
    from solver.seen import read_seen

    seen = read_seen(line)
    obs = seen.observation()
    record = json.loads(run("advise", line, "--json", "--worlds", "5000").stdout)
    assert record["exact"] is True and record["complete"] is True
    objective = record["objective"]
    side = obs.seat % 2 if obs.players == 4 else obs.seat
    values = {c: [] for c in obs.legal_actions}
    for position in every_world(seen):
        moves = solve(position, side=side, objective=objective).moves
        for c in values:
            values[c].append(moves[c])
    worlds = len(next(iter(values.values())))
    assert record["worlds"] == worlds
    tops = [max(v[i] for v in values.values()) for i in range(worlds)]
    for action in record["actions"]:
        card = parse_card(action["action"])
        mean = sum(values[card]) / worlds
        assert action["mean"] == pytest.approx(mean, abs=1e-6)
        assert action["low"] == action["high"] == action["mean"]
        best = sum(1 for v, top in zip(values[card], tops) if v == top) / worlds
        assert action["best"] == pytest.approx(best, abs=1e-6)
    means = [a["mean"] for a in record["actions"]]
    assert means == sorted(means, reverse=True)


@pytest.mark.parametrize("nodes", ["25", "3000"])
def test_advice_over_some_of_the_worlds_listed_is_not_exact(nodes):
    """Every consistent world listed, but the node limit reached before the last was valued:
    the advice said it was exact, over every one of the deals that fit, each mean a point (Q♠
    +6.00 where it is +7.52 over the 1,128 deals).  The first are valued, in the order listed."""
    line = "N:KQ.T.-.- - dealer=S trump=S play=TH,2H"
    record = json.loads(run("advise", line, "--json", "--worlds", "2000", "--nodes",
                            nodes).stdout)
    assert record["exact"] is False and record["complete"] is False
    assert record["drawn"] == 1128 and record["worlds"] < 1128
    assert all(a["low"] is None or a["low"] < a["high"] for a in record["actions"])
    said = run("advise", line, "--worlds", "2000", "--nodes", nodes, "--no-color").stdout
    assert "every one" not in said
    assert f"over {record['worlds']:,} deals of the 1,128 of the unseen cards that fit, in " \
           "the order they are listed, not drawn at random" in " ".join(said.split())
    whole = json.loads(run("advise", line, "--json", "--worlds", "2000").stdout)
    assert whole["exact"] is True and whole["worlds"] == 1128


def test_the_deals_valued_are_said_as_they_were_found():
    one = Advice(0, "play", "margin", 1, True, True, ())
    assert advising.worlds_words(one) == "the one deal of the unseen cards that fits"
    assert advising.worlds_words(dataclasses.replace(one, worlds=2)) == \
        "every one of the 2 deals of the unseen cards that fit"
    assert advising.worlds_words(dataclasses.replace(one, exact=False)) == \
        "1 deal of the unseen cards, drawn at random among those that fit"


def test_three_players_far_from_the_target_are_advised_by_their_own_points():
    """With three players each seat is for itself: a card's value is the seat's points in the
    deal, not a margin, written without a sign."""
    line = NEAR.replace(" score=47,56,51", "")
    record = json.loads(run("advise", line, "--json", "--worlds", 16).stdout)
    assert record["objective"] == "points"
    text = run("advise", line, "--worlds", 16, "--no-color").stdout
    assert "Advice for N: N's points in the deal\n" in text
    rows = {row.split()[0]: row.split()[1:] for row in text.splitlines()
            if row[:2] in ("5♦", "K♥", "Q♦")}
    for action in record["actions"]:
        row = rows[card_str(parse_card(action["action"]), True)]
        assert row[:4] == [f"{action['mean']:.2f}", f"{action['low']:.2f}", "to",
                           f"{action['high']:.2f}"], row


def test_equal_chances_are_best_only_with_the_top_points_and_the_least_others_chance():
    """A chance of winning shown with what ranks equals: a card is best only where that ties
    with the top card's too."""
    def value(card: str, others_win: float, points: float) -> ActionValue:
        return ActionValue(parse_card(card), 0.5, 0.4, 0.6, 0.5, points, others_win)

    by_points = Advice(0, "play", "win", 16, False, True,
                       (value("AS", 0.1, 3.0), value("KS", 0.1, 2.0), value("QS", 0.1, 3.0)))
    assert [advising.is_best(by_points, v) for v in by_points.actions] == [True, False, True]
    by_others = Advice(0, "play", "win", 16, False, True,
                       (value("AS", 0.1, 3.0), value("KS", 0.2, 3.0), value("QS", 0.1, 3.0)))
    assert [advising.is_best(by_others, v) for v in by_others.actions] == [True, False, True]


def test_cards_whose_means_differ_in_their_last_bit_are_both_best():
    """Two cards of one value, summed in other orders, differ in the last bit of their means:
    both are ranked as equals, and both are marked best (the second was not)."""
    mean = -2.7639388489208607
    twin = math.nextafter(mean, 0)
    advice = Advice(0, "play", "margin", 64, False, True,
                    (ActionValue(parse_card("AC"), mean, -3.75, -1.78, 0.95),
                     ActionValue(parse_card("5S"), twin, -3.75, -1.78, 0.95),
                     ActionValue(parse_card("TC"), -2.89, -3.85, -1.93, 0.87)))
    assert [advising.is_best(advice, a) for a in advice.actions] == [True, True, False]


@pytest.mark.parametrize("line", [
    "N:K.5.-.9 - J2.4.-.- dealer=S trump=H play=5H,2H,4H score=55,58,60",
    # N to play, S's hand hidden: three cards none of which wins, the least chance that E or
    # S wins instead not the most points
    "N:4.K8.Q65.- J7.-.K7.Q7 - turnup=JD play=4S,7S,9S,4H,8H,7C,6D,7D,2D,JS,9H score=47,56,51",
])
def test_exact_advice_near_the_target_with_three_players(line):
    """Near the target with three players each card carries, beside its chance of winning, the
    chance that another seat wins instead (in each world the larger of the two, each solved
    with every other seat against it) and the seat's points: each the mean over every world by
    the reference solver, and the cards ranked by them in that order."""
    from solver.reference import solve
    from solver.seen import read_seen

    seen = read_seen(line)
    obs = seen.observation()
    me, names = obs.seat, "NES"
    record = json.loads(run("advise", line, "--json", "--worlds", "5000").stdout)
    assert record["exact"] is True and record["objective"] == "win"
    sums = {c: [0, 0, 0] for c in obs.legal_actions}
    others = [s for s in range(3) if s != me]
    for position in every_world(seen):
        win, points = (solve(position, me, objective).moves for objective in ("win", "points"))
        first, second = (solve(position, side, "win").moves for side in others)
        for c, row in sums.items():
            row[0] += win[c]
            row[1] += max(first[c], second[c])
            row[2] += points[c]
    worlds = record["worlds"]
    expected = {c: tuple(v / worlds for v in row) for c, row in sums.items()}
    got = {parse_card(a["action"]): (a["mean"], a["others_win"], a["points"])
           for a in record["actions"]}
    assert got == {c: pytest.approx(v, abs=1e-6) for c, v in expected.items()}
    keys = [(-a["mean"], a["others_win"], -a["points"]) for a in record["actions"]]
    assert keys == sorted(keys)
    table = run("advise", line, "--worlds", "5000", "--no-color").stdout
    top = keys[0]
    for action in record["actions"]:        # (exact: each interval is its mean)
        row = next(row.split() for row in table.splitlines()
                   if row.startswith(card_str(parse_card(action["action"]), True) + " "))
        is_top = (-action["mean"], action["others_win"], -action["points"]) == \
            pytest.approx(top, abs=1e-9)
        share = advising.percent     # (as tested above)
        assert row[1:] == [share(action["mean"])] * 2 + [
            share(action["others_win"]), f"{action['points']:.2f}", share(action["best"])] + \
            ["best"] * is_top, row
    observation = seen.observation()
    advice = advising.advice_for(observation, 5000, 0, seen)
    hint = " ".join(advising.advice_lines(advice, observation, list(observation.legal_actions),
                                          False).plain.split())
    assert (f"expected {names[me]}'s chance of winning the match in this deal, 95% interval, "
            f"then the chance that {names[others[0]]} or {names[others[1]]} wins instead, then "
            f"{names[me]}'s points in the deal, share of deals best") in hint
    text = " ".join(table.split())
    assert "they win points best in" in text
    assert (f"they win: the share of the deals in which {names[others[0]]} or "
            f"{names[others[1]]} can be sure of winning") in text


def test_a_budget_that_solves_no_deal_plays_the_deals_out_with_status_0():
    """No budget leaves a card unadvised: deals not solved within it are played out (a
    status 1 for 'no deal valued' was promised and could not happen)."""
    for extra in ([], ["--json"]):
        result = run("advise", TWO, "--nodes", "1", *extra)
        assert result.exit_code == 0 and result.stderr == ""
        if extra:
            record = json.loads(result.stdout)
            assert record["method"] == "played out" and record["worlds"] >= 16
            assert all(a["mean"] is not None for a in record["actions"])
        else:
            assert "playing the deals out instead" in " ".join(result.stdout.split())


def test_a_chance_of_winning_dropped_for_the_budget_is_said_so(monkeypatch):
    text = told(monkeypatch, win_dropped=True)
    assert "A side could reach the target in this deal, but no chance of winning the " \
           "match could be worked out within the limit: the cards are valued by points." in text
    assert json.loads(run("advise", TWO, "--json").stdout)["win_dropped"] is True
    advised_as(monkeypatch, lambda advice: advice)
    assert json.loads(run("advise", TWO, "--json").stdout)["win_dropped"] is False
    assert "A side could" not in run("advise", TWO).stdout


@pytest.mark.parametrize("args", [
    [str(HIDDEN), "--worlds", "8"],
    ["N:T.QJT92.-.- - dealer=S turnup=6H score=55,58", "--worlds", "4"],
    ["N:7654.K3.-.- - dealer=N turnup=7H play=AS calls=beg,take-one", "--worlds", "8"],
    ["--hand", "AH KH 5H 9C 2D 3S", "--turnup", "7H", "--players", "4", "--score", "50,58"],
    ["--hand", "AS KS 5S 2D 3C 4C", "--turnup", "7S", "--players", "3", "--score", "58,57,40",
     "--worlds", "16"]])
@pytest.mark.parametrize("width", [40, 46, 60, 80])
def test_the_advice_is_laid_out_for_the_console_width(args, width):
    """No line passes the width (the position's name aside), nothing is cut short with an
    ellipsis, and an interval is never broken over two lines: on a narrow console the table's
    titles go on two lines and an interval is written low..high, at the narrowest under its
    mean (at 40 columns its end was cut to '+4.…')."""
    from cli.main import app
    from clirun import RUNNER

    result = RUNNER.invoke(app, ["advise", *args, "--no-color"], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()[(0 if args[0].startswith("--") else 1):]
    assert max(len(line) for line in lines) <= width, result.stdout
    assert "…" not in result.stdout, result.stdout
    rows = [k for k, line in enumerate(lines)
            if re.match(r"^(\S[♠♥♦♣]|stand|beg|take-one|run) ", line)]
    interval = r"\d%?( to |\.\.)[-+]?\d"
    assert rows and all(re.search(interval, lines[k]) or re.fullmatch(
        rf" +\S*{interval}\S*", lines[k + 1]) for k in rows), result.stdout
    # a line of what the seat sees, wrapped, goes on indented (the first of them, the table's)
    head = lines[:lines.index("")]
    starts = r"^(  \S|\d players; |trumps |[NESW] (holds|is the|to play) |hidden: |calls: )"
    assert all(re.match(starts, line) for line in head), head


def test_near_the_target_the_kind_of_advice_follows_the_position_not_the_seed():
    """Whether the match comes first is asked of every deal of the unseen cards, not the first
    drawn: the same position gives chances of winning whatever the seed (with the points that
    rank equal chances, in the JSON and as a column of the table)."""
    position = ("N:- -.T4.5.JT4 rules=classic dealer=S turnup=KS play=3D,5D,TC,KH,4C,AD "
                "score=49,60")
    found = [json.loads(run("advise", position, "--json", "--seed", seed).stdout)
             for seed in range(8)]
    assert {advice["objective"] for advice in found} == {"win"}
    for advice in found:
        points = [action["points"] for action in advice["actions"]]
        means = [action["mean"] for action in advice["actions"]]
        assert list(zip(means, points)) == sorted(zip(means, points), reverse=True)
    table = run("advise", position, "--no-color").stdout
    assert re.search(r"^card +win chance +95% interval +points +best in", table, re.M), table
    assert "points: the mean of S's points in the deal minus N's over the same deals" in table


def test_deals_too_deep_for_the_node_limit_are_said_to_be_left_out():
    """A deal whose solve does not fit its share of --nodes is left out of the values, and
    the advice says how many, of how many tried and drawn (not that its values are bounds);
    where fewer than four are solved, the deals are played out instead (two or three of the
    easier ones were the advice, every card's chance alike)."""
    deep = "N:- - 64.72.93.KJ3 - dealer=E turnup=7S aside=AH"
    found = json.loads(run("advise", deep, "--nodes", "1600000", "--json").stdout)
    assert found["left_out"] > 0 and found["worlds"] >= 4 and not found["complete"]
    assert found["method"] == "solved"
    tried = found["worlds"] + found["left_out"]
    assert tried < found["drawn"] == 64
    few = json.loads(run("advise", "N:- - AQT8.T752.KT2.5 - dealer=E turnup=6D score=55,50",
                         "--nodes", "3000000", "--json").stdout)
    assert (few["method"], few["worlds"], few["left_out"]) == ("played out", 16, 0)
    assert 0 <= few["solved"] < 4 and found["solved"] is None      # (said before playing out)
    table = " ".join(run("advise", deep, "--nodes", "1600000", "--no-color").stdout.split())
    assert (f"{found['left_out']} deals of the {tried} tried could not be solved within the "
            f"node limit and are left out: the values are over the other {found['worlds']}"
            in table), table
    assert f"The node limit was reached after {tried} of the 64 deals drawn." in table
    assert "bounds" not in table
    calm = json.loads(run("advise", TWO, "--json").stdout)
    assert calm["left_out"] == 0 and calm["complete"]


def test_more_deals_asked_for_than_fit_are_every_one_of_them_once():
    """--worlds past the deals that fit values each of them once (here 11,480, past the 10,000
    the player lists), and a chance short of certain is not written 100%."""
    position = "N:3.AK5.2.9 - dealer=S turnup=7H play=9C,8C,3S,JS,TD score=47,52"
    found = json.loads(run("advise", position, "--worlds", "50000", "--json").stdout)
    # S's 3 cards of the 42 N has not seen (its 4, the 5 played and the turn-up aside)
    assert found["exact"] and found["worlds"] == math.comb(42, 3) == 11480
    top = found["actions"][0]
    assert 0.99 < top["mean"] < 1
    assert re.search(r"^5♥ +>99% +>99%", run("advise", position, "--worlds", "50000",
                                               "--no-color").stdout, re.M)


def test_cards_that_tie_are_shown_by_suit_high_first():
    """Cards equal in every figure the table shows come by suit, high before low, as a hand
    is shown, the card chosen still first; the JSON keeps the ranking as it is."""
    from solver.advice import ActionValue, Advice

    position = "N:AKQJT9.-.-.- - dealer=S trump=S"
    lines = run("advise", position).stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("─")) + 1
    assert json.loads(run("advise", position, "--json").stdout)["best"] == "AS"
    assert [line.split()[0] for line in lines[start:start + 6]] == \
        ["A♠", "K♠", "Q♠", "J♠", "T♠", "9♠"]
    ranked = [ActionValue(parse_card(c), 1.5, 1.0, 2.0, 0.5)
              for c in ("9S", "AH", "TS", "2H", "QS", "KS")]

    def shown(actions):
        advice = Advice(0, "play", "margin", 16, False, False, tuple(actions))
        return [card_str(v.action) for v in advising.shown_in_order(advice, 2)]

    assert shown(ranked) == ["9S", "KS", "QS", "TS", "AH", "2H"]
    # a row written otherwise parts the runs of rows alike; a mean that differs past what
    # the table writes does not
    apart = ranked[:2] + [dataclasses.replace(ranked[2], high=2.5)] + ranked[3:]
    assert shown(apart) == ["9S", "AH", "TS", "KS", "QS", "2H"]
    close = [dataclasses.replace(v, mean=1.5 - k * 1e-4) for k, v in enumerate(ranked)]
    assert shown(close) == ["9S", "KS", "QS", "TS", "AH", "2H"]


def test_deals_whose_weights_count_as_fewer_than_two_give_no_interval():
    """Two deals weighted by the calls, one of them next to nothing, gave an interval of
    -165,199 .. +165,198 points (a t of a fraction of a degree of freedom): now none, and the
    note says why."""
    call = ["advise", "--hand", "9H 4C 3C 8D 2S QS", "--turnup", "7H", "--dealer", "N",
            "--seat", "N", "--worlds", "2"]
    found = json.loads(run(*call, "--json").stdout)
    assert found["worlds"] == 2 and found["effective_worlds"] < 2
    assert all(a["low"] is None and a["high"] is None for a in found["actions"]), found
    table = " ".join(run(*call, "--no-color").stdout.split())
    assert "?: no interval: the 2 deals, by their weights, count as fewer than two" in table


def test_deals_that_show_no_spread_give_no_interval_and_say_so():
    """E holds the last two trumps and wins both tricks whatever the other hands: every deal
    drawn gives both cards +21, so no interval is given, and the note says so (it used to say
    that 16 deals of equal weight counted as fewer than two)."""
    position = ("N:- 9.9.KQT5.- - - dealer=N turnup=3D calls=stand "
                "play=9S,2S,3S,4D,2C,9H,3C,4C,7S,9D,QD,8S,KD,8C,7H,6C")
    found = json.loads(run("advise", position, "--worlds", "16", "--json").stdout)
    assert (found["worlds"], found["effective_worlds"], found["exact"]) == (16, 16.0, False)
    assert [(a["mean"], a["low"], a["high"]) for a in found["actions"]] == [(21.0, None, None)] * 2
    table = " ".join(run("advise", position, "--worlds", "16", "--no-color").stdout.split())
    assert ("?: no interval: every choice has one and the same value in all 16 deals, so there "
            "is no spread to measure (the deals not valued may differ)") in table
    assert "fewer than two" not in table
    # play's hint says it too
    _, seen, observation = advising.position_observation(position, None)
    advice = advising.advice_for(observation, 16, 0, seen)
    hint = " ".join(advising.advice_lines(advice, observation, list(observation.legal_actions),
                                          False).plain.split())
    assert "(?: no interval: every choice has one and the same value in all 16 deals," in hint
