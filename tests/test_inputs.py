"""``cli.inputs`` on its own: the names on the command line read as files, parts of files,
one-line positions, standard input and game records, and the rules ``--rules`` names.  The
commands' tests run these through the program; here each piece is checked by itself, fast."""

from __future__ import annotations

import io
import json
import os
import random
import sys
from contextlib import nullcontext
from pathlib import Path
from types import SimpleNamespace

import pytest

import cli.inputs as inputs
from cli.inputs import ARGUMENT, STDIN, NothingPlayed, deal_number, deal_position, file_deal, \
    first_names, holds_records, is_file, is_record_file, is_record_text, is_standard_output, \
    is_stream, link_trouble, named, one_deal, one_of_several, read_input, read_inputs, \
    read_rules, read_text, record_and_deal, record_positions, refuse_no_number, \
    refuse_unknown_first_seat, split_deal, unplayed_why
from solver.deal import Position, load
from solver.errors import AllFivesError
from solver.game import BEG, REVOKE, RUN, STAND, TAKE_ONE, Match
from solver.records import match_records, records_text
from solver.rules import Rules

from clirun import EXAMPLES

TWO = EXAMPLES / "two-player.toml"
MID = EXAMPLES / "mid-trick.toml"
MATCH = EXAMPLES / "match.jsonl"
LINES = EXAMPLES / "positions.txt"


def error_of(call, *args, **kwargs) -> str:
    with pytest.raises(AllFivesError) as raised:
        call(*args, **kwargs)
    return str(raised.value)


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def two_deals(folder: Path, name: str = "deals.toml") -> str:
    text = f"{TWO.read_text(encoding='utf-8')}\n# ---\n{MID.read_text(encoding='utf-8')}"
    return write(folder, name, text)


def played_record(seed: int, target: int = 11, calls=(), revokes: float = 0.0,
                  until=lambda state: False):
    """A two-player match of random cards to ``target``, as a record's text (the match named
    by its seed), and its state: ``calls``, the calls made where one of them is legal; ``revokes``:
    the chance that a seat revokes at a card, where it can; the record ends early once
    ``until`` the state."""
    rng = random.Random(seed)
    state = Match(2, Rules.preset("all-fives", target=target)).new_initial_state(seed=seed)
    while not state.is_terminal() and not until(state):
        legal = state.legal_actions()
        if state.phase == "play":
            unfit = [c for c in state.hands[state.current_player()] if c not in legal]
            if unfit and rng.random() < revokes:
                state.apply_revoke(rng.choice(unfit))
                continue
        else:
            legal = [a for a in calls if a in legal] or legal
        state.apply_action(rng.choice(legal))
    return records_text(match_records(state, str(seed))), state


# ---- names and rules ------------------------------------------------------------------------

def test_an_empty_name_names_no_file_and_any_other_is_itself():
    assert error_of(named, "", "--record") == "--record: an empty name names no file"
    assert named(" ", "POSITION") == " " and named("-", "POSITION") == "-"


def test_the_rules_a_preset_names_with_options_and_a_target():
    assert read_rules("all-fives") == Rules.preset("all-fives")
    assert read_rules("all-fives", 31).target == 31
    assert read_rules("all-fives:target=21").target == 21
    assert read_rules("all-fours:target=21") == Rules.preset("all-fours", target=21)
    assert error_of(read_rules, "all-fives:target=21", 31) == \
        "--target: the target is given twice (--rules all-fives:target=21 gives target=21)"
    assert error_of(read_rules, "pitch").startswith("--rules: unknown preset 'pitch'")
    assert error_of(read_rules, "all-fives", 0).startswith("--target: ")


def test_a_file_is_a_name_that_is_there(tmp_path: Path):
    assert is_file(str(TWO)) and is_file(str(tmp_path)) and not is_file(str(tmp_path / "no"))
    assert is_file("x" * 5000) is False    # too long to ask the system about: no file


def test_the_trouble_with_a_link_that_leads_nowhere(tmp_path: Path):
    (tmp_path / "gone").symlink_to(tmp_path / "nothing")
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "good").symlink_to(TWO)
    assert link_trouble(tmp_path / "gone") == "No such file or directory"
    assert link_trouble(str(tmp_path / "a")) == "Too many levels of symbolic links"
    assert link_trouble(tmp_path / "good") is None
    assert link_trouble(tmp_path / "missing") is None      # no link: not a link's trouble
    assert link_trouble(TWO) is None


# ---- text -----------------------------------------------------------------------------------

def test_text_read_from_a_file_or_standard_input(tmp_path: Path, monkeypatch):
    assert read_text(str(TWO)) == TWO.read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeffN = 1\n"))
    assert read_text(STDIN) == "N = 1\n"        # a stream of text: its byte-order mark dropped
    raw = io.TextIOWrapper(io.BytesIO("\ufeffabc\n".encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", raw)
    assert read_text(STDIN) == "abc\n"
    bad = io.TextIOWrapper(io.BytesIO(b"ab\xffc\n"), encoding="latin-1")
    monkeypatch.setattr(sys, "stdin", bad)      # the bytes are read, not the stream's decoding
    assert "<stdin>" in error_of(read_text, STDIN)
    big = "{" + "x" * 100   # 101 bytes: over the limit but for a record (its lines start so)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(big.encode()), encoding="utf-8"))
    assert "<stdin>" in error_of(read_text, STDIN, 100)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(big.encode()), encoding="utf-8"))
    assert read_text(STDIN, 100, records=True) == big
    path = write(tmp_path, "big.toml", big)
    assert path in error_of(read_text, path, 100)
    assert read_text(path, 100, records=True) == big


def test_standard_input_on_a_terminal_is_asked_for(monkeypatch):
    said = []
    stream = io.StringIO("abc")
    stream.isatty = lambda: True
    monkeypatch.setattr(sys, "stdin", stream)
    monkeypatch.setattr(inputs, "note", said.append)
    assert read_text(STDIN) == "abc"
    assert said == ["reading standard input: type or paste it, then Ctrl-D on a line alone"]
    said.clear()
    monkeypatch.setattr(sys, "stdin", io.StringIO("abc"))
    assert read_text(STDIN) == "abc" and said == []


# ---- FILE#N ---------------------------------------------------------------------------------

def test_a_deal_number_after_a_name(tmp_path: Path):
    assert split_deal("deals.toml#3") == ("deals.toml", 3)
    assert split_deal("deals.toml#007") == ("deals.toml", 7)
    assert split_deal("a#b#2") == ("a#b", 2)
    assert split_deal("deals.toml") == ("deals.toml", None)
    assert split_deal("deals.toml#x") == ("deals.toml#x", None)
    assert split_deal("deals.toml#") == ("deals.toml#", None)
    odd = write(tmp_path, "odd#2", "")     # a file of that very name is itself
    assert split_deal(odd) == (odd, None)
    assert error_of(split_deal, "f#" + "9" * 19) == \
        "f#999999…999999 (19 digits): no file holds so many deals"


def test_a_deal_or_line_number_too_large_for_any_file():
    assert deal_number("f", "#", "0012") == 12
    assert deal_number("f", ":", "9" * 18) == int("9" * 18)
    assert error_of(deal_number, "f", ":", "1" + "0" * 18) == \
        "f:100000…000000 (19 digits): no file holds so many lines"
    assert error_of(deal_number, "f", "#", "1" + "0" * 18) == \
        "f#100000…000000 (19 digits): no file holds so many deals"


def test_the_deal_of_a_name_and_of_deal_must_agree():
    assert one_deal("r", None, None) is None
    assert one_deal("r", 2, None) == 2 and one_deal("r", None, 3) == 3 and one_deal("r", 4, 4) == 4
    assert error_of(one_deal, "r#2", 2, 3) == "r#2: --deal 3 and #2 name different deals"


def test_a_files_deal_counted_through_its_matches():
    deals = [3, 1, 2]
    assert [file_deal(deals, k, "r") for k in range(1, 7)] == \
        [(0, 1), (0, 2), (0, 3), (1, 1), (2, 1), (2, 2)]
    assert error_of(file_deal, deals, 7, "r") == "r#7: no deal 7: the record holds 6 deals"
    assert error_of(file_deal, deals, 0, "r") == "r#0: no deal 0: the record holds 6 deals"
    assert error_of(file_deal, [1], 2, "r") == "r#2: no deal 2: the record holds 1 deal"


# ---- game records ---------------------------------------------------------------------------

def test_a_record_is_told_by_its_first_object():
    first = json.dumps({"pack": [], "actions": []})
    assert is_record_text(first + "\n")
    assert is_record_text("\ufeff\n  \n" + first + "\nnot json\n")
    assert not is_record_text(json.dumps({"pack": []}))
    assert not is_record_text(json.dumps({"actions": []}))
    assert not is_record_text(json.dumps([["pack", "actions"]]))
    assert not is_record_text("N = 'AH'\n" + first)
    assert not is_record_text("[" * 100_000)    # too deep to read: no record
    assert not is_record_text("") and not is_record_text("\n \n")
    assert is_record_text("") is False and is_record_text("{") is False


def test_a_record_file_by_its_name_or_its_first_line(tmp_path: Path):
    first = json.dumps({"pack": [], "actions": []}) + "\n"
    assert is_record_file(Path(write(tmp_path, "empty.jsonl", "")))
    assert not is_record_file(Path(write(tmp_path, "r.toml", first)))
    assert is_record_file(Path(write(tmp_path, "r.txt", "\n\n" + first)))
    assert not is_record_file(Path(write(tmp_path, "d.txt", "N:T.QJT92.-.- Q.AK5.7.4\n")))
    assert is_record_file(MATCH) and not is_record_file(TWO)
    assert holds_records(Path(write(tmp_path, "bom", "\ufeff" + first)))
    blank = Path(write(tmp_path, "blank", "\n  \n"))
    assert not holds_records(blank) and holds_records(blank, blank=True)
    (tmp_path / "bytes").write_bytes(b"\xff\xfe{")
    assert holds_records(tmp_path / "bytes") is False
    assert holds_records(tmp_path / "none") is False


def test_a_record_and_its_deal_by_name(tmp_path: Path):
    assert record_and_deal(str(MATCH)) == (str(MATCH), None)
    assert record_and_deal(f"{MATCH}#4") == (str(MATCH), 4)
    assert record_and_deal(str(TWO)) is None and record_and_deal(f"{TWO}#1") is None
    assert record_and_deal(str(tmp_path)) is None
    assert record_and_deal(str(tmp_path / "none.jsonl")) is None


def test_every_deal_of_a_record_with_card_play_is_a_position():
    text = MATCH.read_text(encoding="utf-8")
    found = record_positions(text, "m")
    assert [name for name, _ in found] == [f"m#{k}" for k in range(1, 7)]
    (one,) = record_positions(text, "m", 4)
    assert one[0] == "m#4" and one[1] == found[3][1]
    assert one[1].play and one[1].is_over
    (first,) = record_positions(text, "m", 4, played=False)
    assert first[1] == Position(one[1].deal) and not first[1].play


def a_seed_with(find, seeds: int = 200, **options):
    """The record and state of the first match ``played_record`` plays (seeds from 0) that
    ``find`` finds."""
    for seed in range(seeds):
        text, state = played_record(seed, **options)
        if find(state):
            return text, state
    raise AssertionError(f"no such match in {seeds} seeds")


def test_a_record_of_several_matches_counts_its_deals_through_them():
    first, a = played_record(1)
    second, b = played_record(2)
    found = record_positions(first + second, "r")
    deals = len(a.deals) + len(b.deals)
    assert [name for name, _ in found] == [f"r#{k}" for k in range(1, deals + 1)]
    (last,) = record_positions(first + second, "r", deals)
    assert last[1] == deal_position(b, len(b.deals), "r")
    assert error_of(record_positions, first + second, "r", deals + 1) == \
        f"r#{deals + 1}: no deal {deals + 1}: the record holds {deals} deals"


def test_deals_thrown_in_are_left_out_of_a_record_and_said(monkeypatch):
    said = []
    monkeypatch.setattr(inputs, "note", said.append)
    text, state = a_seed_with(lambda s: 1 <= sum(d.thrown_in for d in s.deals) < len(s.deals),
                              calls=(BEG, RUN))
    thrown = [k for k, log in enumerate(state.deals, 1) if log.thrown_in]
    found = record_positions(text, "r")
    assert [name for name, _ in found] == \
        [f"r#{k}" for k in range(1, len(state.deals) + 1) if k not in thrown]
    why = "the deal was thrown in" if len(thrown) == 1 else "the deals were thrown in"
    assert said == [f"{first_names([f'r#{k}' for k in thrown])}: no cards played ({why}), "
                    f"left out"]
    with pytest.raises(NothingPlayed) as raised:
        record_positions(text, "r", thrown[0])
    assert str(raised.value) == f"r#{thrown[0]}: no card was played (the deal was thrown in)"


def thrown_in_only(deals: int):
    """A record (unfinished) of ``deals`` deals, each thrown in."""
    return a_seed_with(lambda s: len(s.deals) == deals and all(d.thrown_in for d in s.deals),
                       1000, calls=(BEG, RUN), until=lambda s: s.deals and (
                           len(s.deals) == deals or not s.deals[-1].thrown_in))


def test_a_record_with_no_card_played_in_any_deal(tmp_path: Path):
    for deals, words in [(1, "its deal (the deal was thrown in)"),
                         (2, "all 2 of its deals (the deals were thrown in)")]:
        text, _ = thrown_in_only(deals)
        with pytest.raises(NothingPlayed) as raised:
            record_positions(text, "r")
        assert str(raised.value) == f"r: no card was played in {words}"
    # the match won in the calls: the take-one's point to 1
    text, state = played_record(0, target=1, calls=(BEG, TAKE_ONE))
    assert state.is_terminal() and len(state.deals) == 1
    path = write(tmp_path, "r.jsonl", text)
    assert error_of(read_inputs, [path]) == \
        f"{path}: no card was played in its deal (the match ended in the calls): nothing to " \
        f"analyze"


def test_a_deal_with_a_revoke_is_judged_up_to_it(monkeypatch):
    said = []
    monkeypatch.setattr(inputs, "note", said.append)
    text, state = a_seed_with(lambda s: any(a >= REVOKE for log in s.deals[1:]
                                            for _, a in log.actions), revokes=0.2, target=21)
    found = dict(record_positions(text, "r"))
    told = []
    for k, log in enumerate(state.deals, 1):
        name = f"r#{k}"
        if log.thrown_in:
            assert name not in found
            continue
        cards = [a for _, a in log.actions if a < STAND or a >= REVOKE]
        revoked = [i for i, card in enumerate(cards) if card >= REVOKE]
        position = found[name]
        assert list(position.play) == cards[:revoked[0] if revoked else len(cards)]
        if revoked:     # a lead is never a revoke: some card is judged
            assert position.play and not position.is_over
            told.append(f"{name}: judged up to its revoke (card {revoked[0] + 1}), which a "
                        f"position cannot replay")
        else:
            assert position.is_over
    thrown = any(log.thrown_in for log in state.deals)     # (said first, as above)
    assert told and said[thrown:] == told and len(said) == thrown + len(told)
    # solving a deal, its cards are not played: the revoke does not matter
    assert all(not p.play for _, p in record_positions(text, "r", played=False))


def test_why_deals_had_no_card_play():
    thrown, ended = SimpleNamespace(thrown_in=True), SimpleNamespace(thrown_in=False)
    assert unplayed_why([thrown]) == "the deal was thrown in"
    assert unplayed_why([thrown, thrown]) == "the deals were thrown in"
    assert unplayed_why([ended]) == unplayed_why([ended, ended]) == \
        "the match ended in the calls"
    assert unplayed_why([thrown, ended]) == "thrown in, or the match ended in the calls"


def test_the_first_three_names_and_how_many_more():
    names = [f"a#{k}" for k in range(1, 1006)]
    assert first_names(names[:1]) == "a#1"
    assert first_names(names[:3]) == "a#1, a#2, a#3"
    assert first_names(names[:4]) == "a#1, a#2, a#3 and 1 more"
    assert first_names(names) == "a#1, a#2, a#3 and 1,002 more"


# ---- streams --------------------------------------------------------------------------------

def test_standard_output_by_its_name_or_its_file(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(sys, "stdout", io.StringIO())      # no descriptor: by name
    assert all(map(is_standard_output, ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]))
    assert not is_standard_output(str(TWO)) and not is_standard_output("/dev/stderr")
    path = tmp_path / "out"
    with path.open("w") as handle:
        monkeypatch.setattr(sys, "stdout", handle)     # the very file standard output writes
        assert is_standard_output(str(path))
        assert not is_standard_output(str(TWO))
        assert not is_standard_output(str(tmp_path / "none"))


def test_a_pipe_is_a_stream_and_a_file_or_folder_is_not(tmp_path: Path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert is_stream(str(fifo))
    assert not is_stream(str(TWO)) and not is_stream(str(tmp_path))
    assert not is_stream(str(tmp_path / "none"))


# ---- one deal of several --------------------------------------------------------------------

def test_one_deal_of_a_file_of_several(tmp_path: Path):
    path = two_deals(tmp_path)
    ((name, position),) = one_of_several(f"{path}#2")
    assert name == f"{path}#2" and position == load(MID)
    ((name, _),) = one_of_several(f"{path}#02")
    assert name == f"{path}#2"      # FILE#02 is FILE#2
    assert one_of_several(path) is None
    assert one_of_several(str(tmp_path / "none.toml")) is None
    assert error_of(one_of_several, f"{path}#3") == \
        f"{path}#3: no deal 3: the file holds 2 deals"
    assert error_of(one_of_several, f"{path}:2") == \
        f"{path}:2: {path} holds deals in TOML, picked as {path}#N, N from 1 to 2"


def test_the_one_deal_of_a_file_of_one(tmp_path: Path):
    ((name, position),) = one_of_several(f"{TWO}#1")
    assert name == f"{TWO}#1" and position == load(TWO)
    assert error_of(one_of_several, f"{TWO}#2") == f"{TWO}#2: no deal 2: the file holds 1 deal"
    ((name, position),) = one_of_several(f"{TWO}#1", build=lambda layout: "built")
    assert position == "built"


def test_one_line_of_a_file_of_one_line_positions(tmp_path: Path):
    text = LINES.read_text(encoding="utf-8")
    lines = [k for k, line in enumerate(text.splitlines(), 1)
             if line.strip() and not line.startswith("#")]
    ((name, position),) = one_of_several(f"{LINES}:{lines[1]}")
    assert name == f"{LINES}:{lines[1]}"
    assert position == Position.from_line(text.splitlines()[lines[1] - 1].strip(), name)
    held = f"{len(lines)} deals, on lines {', '.join(map(str, lines[:-1]))} and {lines[-1]}"
    assert error_of(one_of_several, f"{LINES}:1") == f"{LINES}:1: no deal on line 1: the file " \
                                                     f"holds {held}"
    assert error_of(one_of_several, f"{LINES}#1") == \
        f"{LINES}#1: {LINES} holds one-line positions, picked by line as {LINES}:LINE (on " \
        f"lines {', '.join(map(str, lines[:-1]))} and {lines[-1]})"
    one = write(tmp_path, "one.txt", "\n\n" + text.splitlines()[lines[0] - 1] + "\n")
    assert error_of(one_of_several, f"{one}:1") == \
        f"{one}:1: no deal on line 1: the file holds 1 deal, on line 3"
    assert error_of(one_of_several, f"{one}#2") == \
        f"{one}#2: {one} holds one-line positions, picked by line as {one}:LINE (on line 3)"
    position = text.splitlines()[lines[0] - 1] + "\n"
    for count, on in [(10, "lines 1, 2, 3, 4, 5, 6, 7, 8, 9 and 10"), (11, "lines 1 to 11")]:
        many = write(tmp_path, "many.txt", position * count)
        assert error_of(one_of_several, f"{many}:12") == \
            f"{many}:12: no deal on line 12: the file holds {count} deals, on {on}"
        assert error_of(one_of_several, f"{many}#1") == \
            f"{many}#1: {many} holds one-line positions, picked by line as {many}:LINE (on {on})"


def test_a_toml_file_whose_name_ends_in_a_number_is_no_file_of_lines(tmp_path: Path):
    path = write(tmp_path, "deal:12", TWO.read_text(encoding="utf-8"))
    assert error_of(one_of_several, f"{path}:1") == f"{path}:1: no deal on line 1: the file " \
                                                    f"holds 1 deal"


def test_hidden_hands_only_where_they_are_asked_for():
    south = EXAMPLES / "hidden" / "south.toml"
    ((_, layout),) = one_of_several(f"{south}#1", build=lambda layout: layout, hidden=True)
    assert layout is not None
    with pytest.raises(AllFivesError):
        one_of_several(f"{south}#1", build=lambda layout: layout)


def test_a_deal_of_a_record_or_a_folder_is_no_deal_of_several(tmp_path: Path):
    assert error_of(one_of_several, f"{MATCH}:2") == \
        f"{MATCH}:2: {MATCH} is a game record: its deals are picked as {MATCH}#N, N counted " \
        f"from 1 through the file"
    assert error_of(one_of_several, f"{MATCH}#2", records=False) == \
        f"{MATCH}#2: {MATCH} is a game record, not a position; 'allfives analyze' judges a " \
        f"record's play"
    assert error_of(one_of_several, f"{tmp_path}#1") == \
        f"{tmp_path}#1: {tmp_path} is a folder, not a file of deals"


def test_a_name_whose_number_is_none(tmp_path: Path):
    path = two_deals(tmp_path)
    for tail in ("x", "-1", "", "2x", "1#2"):
        assert error_of(one_of_several, f"{path}#{tail}") == \
            f"{path}#{tail}: no such file, and #{tail} is not a deal number (FILE#N counts " \
            f"the deals of a file from 1)"
    assert error_of(one_of_several, f"{LINES}:x") == \
        f"{LINES}:x: no such file, and :x is not a line number (FILE:N is the deal on line N " \
        f"of a file of one-line positions)"
    refuse_no_number(str(tmp_path / "none#x"), "#", "deal", "")   # no file before the mark
    refuse_no_number(f"{tmp_path}#x", "#", "deal", "")             # a folder: no file
    assert one_of_several(str(tmp_path / "none#x")) is None


# ---- whole arguments ------------------------------------------------------------------------

def test_an_argument_read_as_a_file_a_line_or_a_record(tmp_path: Path, monkeypatch):
    assert read_input(str(TWO)) == [(str(TWO), load(TWO))]
    line = load(MID).to_line()
    assert read_input(line) == [(ARGUMENT, Position.from_line(line, ARGUMENT))]
    assert read_input(f"  {line} ", label="<argument 2>")[0][0] == "<argument 2>"
    path = two_deals(tmp_path)
    assert [name for name, _ in read_input(path)] == [f"{path}#1", f"{path}#2"]
    assert read_input(f"{path}#2") == [(f"{path}#2", load(MID))]
    whole = read_input(str(MATCH))
    assert [name for name, _ in whole] == [f"{MATCH}#{k}" for k in range(1, 7)]
    assert all(position.play for _, position in whole)     # with the cards played, by default
    assert [name for name, _ in read_input(f"{MATCH}#3")] == [f"{MATCH}#3"]
    assert [name for name, _ in read_input(str(MATCH), deal=5)] == [f"{MATCH}#5"]
    assert error_of(read_input, f"{MATCH}#3", deal=5) == \
        f"{MATCH}#3: --deal 5 and #3 name different deals"
    assert error_of(read_input, str(TWO), deal=1) == \
        f"--deal: {TWO} is not a game record (JSON lines, as 'allfives play' writes them)"
    (unplayed,) = read_input(f"{MATCH}#3", played=False)
    assert not unplayed[1].play


def test_standard_input_or_a_pipe_read_as_deals_or_a_record(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(MID.read_text(encoding="utf-8")))
    assert read_input(STDIN) == [("<stdin>", load(MID))]
    monkeypatch.setattr(sys, "stdin", io.StringIO(MATCH.read_text(encoding="utf-8")))
    assert [name for name, _ in read_input(STDIN)] == [f"<stdin>#{k}" for k in range(1, 7)]
    monkeypatch.setattr(sys, "stdin", io.StringIO(MATCH.read_text(encoding="utf-8")))
    assert [name for name, _ in read_input(STDIN, deal=2)] == ["<stdin>#2"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(MID.read_text(encoding="utf-8")))
    assert error_of(read_input, STDIN, deal=2).startswith("<stdin>")   # read as a record
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    import threading

    def feed():
        with fifo.open("w", encoding="utf-8") as handle:
            handle.write(MATCH.read_text(encoding="utf-8"))

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        found = read_input(str(fifo), deal=6)
    finally:
        feeder.join()
    assert [name for name, _ in found] == [f"{fifo}#6"]


def test_a_one_line_position_with_an_unknown_first_seat_is_named(tmp_path: Path):
    line = load(MID).to_line()
    bad = "Q" + line[1:]
    assert error_of(read_input, bad, label="<argument 2>") == \
        "<argument 2>: no such file, and not a one-line position: Q: is no seat (a position " \
        "starts N:, E:, S: or W:)"
    refuse_unknown_first_seat("n" + line[1:], ARGUMENT)      # a seat in lower case is one
    refuse_unknown_first_seat("Q:notes.txt", ARGUMENT)      # a name, not a position
    refuse_unknown_first_seat("Q:" + line[2:].replace(" ", "_"), ARGUMENT)
    path = write(tmp_path, bad.replace("/", "_"), "")        # a file of that name is a file
    refuse_unknown_first_seat(path, ARGUMENT)
    refuse_unknown_first_seat(bad + "\n", ARGUMENT)


def test_every_argument_in_order_each_named_by_its_place(tmp_path: Path, monkeypatch):
    line = load(MID).to_line()
    found = read_inputs([str(TWO), line, line])
    assert [name for name, _ in found] == [str(TWO), "<argument 2>", "<argument 3>"]
    assert [name for name, _ in read_inputs([line, line])] == ["<argument 1>", "<argument 2>"]
    assert read_inputs([line])[0][0] == ARGUMENT
    monkeypatch.setattr(sys, "stdin", io.StringIO(MID.read_text(encoding="utf-8")))
    assert read_inputs([STDIN]) == [("<stdin>", load(MID))]
    assert error_of(read_inputs, [STDIN, str(TWO), STDIN]) == \
        "POSITION: '-' (standard input) is named more than once: it can be read only once"
    assert error_of(read_inputs, [str(TWO), ""]) == "POSITION: an empty name names no file"


def test_a_record_of_no_card_play_among_other_arguments_is_left_out_and_said(tmp_path: Path,
                                                                              monkeypatch):
    said = []
    monkeypatch.setattr(inputs, "note", said.append)
    text, _ = thrown_in_only(1)
    record = write(tmp_path, "r.jsonl", text)
    found = read_inputs([record, str(TWO)])
    assert [name for name, _ in found] == [str(TWO)]
    assert said == [f"{record}: no card was played in its deal (the deal was thrown in): left "
                    f"out"]
    assert error_of(read_inputs, [record], played=False) == \
        f"{record}: no card was played in its deal (the deal was thrown in): nothing to solve"


def test_a_deal_of_a_record_at_the_score_it_was_played_at():
    _, state = played_record(4, target=21)
    before = (0, 0)
    for k, log in enumerate(state.deals, 1):
        if not log.thrown_in:
            position = deal_position(state, k, "r")
            assert deal_position(state, k, "r", played=False) == Position(position.deal)
            assert list(position.play) == [a for _, a in log.actions if a < STAND]
            assert position.deal.score is not None and \
                sum(position.deal.score) - sum(before) == \
                sum(p.points for p in log.pegs if p.what in ("take-one", "turn-up jack"))
        before = log.score


def test_a_record_is_read_with_a_live_line_only_when_asked(monkeypatch):
    import cli.status

    lines = []

    def reading(what, shown=True):
        lines.append((what, shown))
        return nullcontext()

    monkeypatch.setattr(cli.status, "reading", reading)
    record_positions(MATCH.read_text(encoding="utf-8"), "m")
    read_input(str(MATCH))
    read_inputs([str(MATCH)])
    assert lines == [("reading m", False)] + [(f"reading {MATCH}", False)] * 2
    lines.clear()
    read_inputs([str(MATCH)], shown=True)
    assert lines == [(f"reading {MATCH}", True)]


def test_standard_input_is_read_as_a_record_may_be_whatever_its_size(monkeypatch):
    asked = []

    def read_limited(raw, source, limit, records):
        asked.append((source, records))
        return raw.read().decode()

    monkeypatch.setattr(inputs, "read_limited", read_limited)
    text = MATCH.read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()),
                                                       encoding="utf-8"))
    assert len(read_input(STDIN)) == 6 and asked == [("<stdin>", True)]


def test_a_revoke_of_the_lowest_card_is_a_revoke(monkeypatch):
    """A revoke is recorded as ``REVOKE`` and the card: of card 0, ``REVOKE`` itself."""
    said = []
    monkeypatch.setattr(inputs, "note", said.append)
    for seed in range(300):
        state = Match(2, Rules.preset("all-fives", target=11)).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == "play" and 0 in state.hands[state.current_player()] \
                    and 0 not in legal:
                state.apply_revoke(0)
                break
            state.apply_action(rng.choice(legal))
        if not state.is_terminal():
            break
    state.apply_action(state.legal_actions()[0])    # the trick goes on: a legal card
    while state.phase == "play":
        state.apply_action(state.legal_actions()[0])
    text = records_text(match_records(state, "t"))
    k = len(state.deals)
    cards = [a for _, a in state.deals[-1].actions if a < STAND or a >= REVOKE]
    assert REVOKE in cards
    position = deal_position(state, k, "r")
    assert list(position.play) == cards[:cards.index(REVOKE)]
    (found,) = record_positions(text, "r", k)
    assert found[1] == position
    assert said == [f"r#{k}: judged up to its revoke (card {len(position.play) + 1}), which a "
                    f"position cannot replay"]
