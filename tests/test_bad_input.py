"""Odd files and arguments that once escaped as tracebacks, hangs or guesses: each ends in one
clear line naming what and where, or is read as the text it is."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from pathlib import Path

import pytest

from clirun import EXAMPLES, PUZZLES, run, shell
from solver.deal import DealFileError, Position, load
from solver.errors import QUOTE_CHARACTERS, quoted
from solver.rules import OPTION_NAMES, Rules, option_text

TWO_LINE = "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H"
TWO_TOML = 'dealer = "S"\nturnup = "6H"\n\n[hands]\nN = "TS QH JH TH 9H 2H"\n' \
           'S = "QS AH KH 5H 7D 4C"\n'


#: How an unknown rule option is answered: with the options there are.
OPTIONS_LISTED = f"the options: {', '.join(OPTION_NAMES)}"


def one_error_line(result) -> str:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("allfives: error: ") and "Traceback" not in result.stderr
    return line


@pytest.mark.parametrize("text", [
    "x = " + "[" * 3000 + "]" * 3000 + "\n",
    "[hands]\nN = " + "[" * 5000 + "\n",
])
def test_toml_nested_too_deeply_is_one_line(tmp_path: Path, text: str):
    path = tmp_path / "deep.toml"
    path.write_text(text)
    line = one_error_line(run("solve", path))
    assert line == f"allfives: error: {path}: not TOML: arrays or tables nested too deeply"


@pytest.mark.parametrize("command, name, text, message", [
    ("replay", "deep.jsonl", "[" * 100_000 + "\n",
     "deep.jsonl:1: not JSON that can be read (arrays or objects nested too deeply)"),
    ("analyze", "long.jsonl", '{"deal": 1' + "0" * 5000 + "}\n",
     "long.jsonl:1: not JSON that can be read (a number of more than 4,300 digits)"),
    ("solve", "long.toml", TWO_TOML + "\n[score]\nN = " + "1" * 5000 + "\nS = 0\n",
     "long.toml: not TOML: a number of more than 4,300 digits"),
    ("puzzle show", "deep.toml", TWO_TOML + "x = " + "[" * 100_000 + "\n",
     "deep.toml: not TOML: arrays or tables nested too deeply"),
])
def test_json_and_toml_beyond_what_python_reads_are_one_line(tmp_path: Path, command: str,
                                                              name: str, text: str,
                                                              message: str):
    path = tmp_path / name
    path.write_text(text)
    assert one_error_line(run(*command.split(), path)) == f"allfives: error: {tmp_path}/{message}"


@pytest.mark.parametrize("text", ["a = " + "[" * 5000 + "]" * 5000 + "\n",
                                  "a = " + "9" * 5000 + "\n"])
@pytest.mark.parametrize("part", ["", "#2"])
def test_replay_of_toml_beyond_what_python_reads_is_one_line(tmp_path: Path, text: str,
                                                             part: str):
    """Read again to tell a deal file with a mistake from a record, TOML nested too deeply or
    holding a number of more than 4,300 digits ended in a traceback (RecursionError,
    ValueError): it is no record (JSON), and said so as of any other text."""
    path = tmp_path / "deep.toml"
    path.write_text(text)
    assert one_error_line(run("replay", f"{path}{part}")) == \
        f"allfives: error: {path}:1: not JSON (Expecting value at column 1)"


@pytest.mark.parametrize("text", ["# a comment\n", "\n# ---\n  # two\n\n"])
@pytest.mark.parametrize("command", ["solve", "analyze", "advise"])
def test_nothing_but_comments_is_no_position_as_nothing_at_all_is(command: str, text: str):
    """Empty input was 'empty: no position in it', comments alone 'no [hands]'."""
    assert one_error_line(run(command, "-", input=text)) == \
        "allfives: error: <stdin>: no position: nothing but blank lines and comments"
    assert one_error_line(run(command, "-", input="")) == \
        "allfives: error: <stdin>: empty: no position in it"


@pytest.mark.parametrize("command", ["solve", "analyze", "advise", "replay"])
def test_bytes_that_are_not_utf8_on_standard_input_say_where(tmp_path: Path, command: str):
    # under a C locale the stream's own decoding would let them through as stand-ins
    from clirun import shell

    done = shell(f"printf '{TWO_LINE}\\n\\xff\\n' | LC_ALL=C allfives {command} -", tmp_path)
    assert done.returncode == 2
    assert done.stdout == "allfives: error: <stdin>: not UTF-8 text (line 2, byte 43)\n"


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_standard_input_named_twice_is_one_line(command: str):
    line = one_error_line(run(command, "-", "-", input=TWO_LINE + "\n"))
    assert line == ("allfives: error: POSITION: '-' (standard input) is named more than once: "
                    "it can be read only once")


def test_a_first_line_nested_too_deeply_on_standard_input_is_not_a_record():
    line = one_error_line(run("analyze", "-", input="[" * 100_000 + "\n"))
    assert line.startswith("allfives: error: <stdin>: not TOML")


def test_dotted_tables_nested_deeply_are_one_short_line(tmp_path: Path):
    path = tmp_path / "deep.toml"
    path.write_text(TWO_TOML + "[options" + ".a" * 63 + "]\n")
    line = one_error_line(run("solve", path))
    assert line == f"allfives: error: {path}: options.a: unknown option 'a' ({OPTIONS_LISTED})"


@pytest.mark.parametrize("command", ["solve", "analyze", "advise --seat N", "puzzle show",
                                     "puzzle check", "replay"])
@pytest.mark.parametrize("key", ["[options" + ".a" * 64 + "]", "a" + ".a" * 64 + " = 1",
                                 "x = {a" + ' . "a"' * 64 + " = 1}",
                                 "[puzzle.evidence]\nx" + ".'a'" * 20_000 + " = 1"])
def test_a_key_of_thousands_of_dotted_parts_is_refused_before_toml_reads_it(
        tmp_path: Path, monkeypatch, command: str, key: str):
    """TOML's reader takes time and memory that grow with the square of a dotted key's parts:
    a key of 20,000 parts in 40 KB of a deal file took 23 s and 1.6 GB, one of 40,000 more than
    100 s and 6 GB, before the key was found unknown.  A key of more than 64 parts is refused
    first, naming its line; what is no record is not given to the reader to see if it is a
    deal file either."""
    import tomllib

    text = (PUZZLES / "001-save-the-ten.toml").read_text() if command.startswith("puzzle") else TWO_TOML
    path = tmp_path / "dotted.toml"
    path.write_text(text + "\n" + key + "\n")
    line = text.count("\n") + 2 + key.count("\n")
    monkeypatch.setattr(tomllib, "loads", lambda text: pytest.fail("TOML's reader was given it"))
    said = run(*command.split(), path)
    if command == "replay":
        assert one_error_line(said) == f"allfives: error: {path}:1: not JSON (Expecting value " \
                                       f"at column 1)"
        return
    expected = (f"{path}: line {line}: a key of more than 64 parts parted by dots: no deal has "
                f"one")
    if command == "puzzle check":
        assert said.exit_code == 1 and said.stdout.splitlines()[0] == expected
    else:
        assert one_error_line(said) == f"allfives: error: {expected}"


#: Letters of other scripts that Python's str.upper or str.lower makes Latin letters: the long
#: s (S), the ligature st (ST), the Kelvin sign (k), the dotless i (I).
CASE_MAPPED = ["\u017f", "\ufb06", "\u212a", "\u0131"]


@pytest.mark.parametrize("letter", CASE_MAPPED)
def test_a_letter_that_changes_script_with_its_case_is_not_read_as_a_latin_one(letter: str):
    """The long s was read as an S (a card, a suit, a seat), the ligature st as T♠, and the
    Kelvin sign as a k at a prompt: each is refused now, as any other unknown letter is."""
    from solver.cards import parse_card, parse_hand, parse_suit
    from solver.errors import AllFivesError, lower, upper

    assert upper(letter) == letter and lower(letter) == letter
    assert upper("tH ♥s") == "TH ♥S" and lower("Take-ONE") == "take-one"
    for read, text in [(parse_card, f"A{letter}"), (parse_card, f"{letter}A"),
                       (parse_suit, letter), (parse_hand, f"T{letter} QH"),
                       (parse_hand, letter)]:
        with pytest.raises(AllFivesError):
            read(text)
    for line in [TWO_LINE.replace("dealer=S", f"dealer={letter}"),
                 TWO_LINE.replace("N:", f"{letter}:"), TWO_LINE + f" trump={letter}",
                 TWO_LINE + f" play=T{letter}"]:
        one_error_line(run("solve", line))
    one_error_line(run("solve", TWO_LINE, "--for", letter))
    one_error_line(run("solve", TWO_LINE, "--rules", f"all-fives:five_for_five=t{letter}ue"
                       if letter == "\u0131" else f"stri{letter}t"))


@pytest.mark.parametrize("seed, answer", [(7, "A\u017f"), (7, "\ufb06"), (7, "\u212a"),
                                          (1, "ta\u212ae-one"), (1, "\u212a")])
def test_a_prompt_does_not_read_a_letter_of_another_script_as_a_latin_one(tmp_path: Path,
                                                                           seed: int,
                                                                           answer: str):
    """At a prompt, A followed by a long s had played A♠, the ligature st T♠, the Kelvin sign
    a King, and take-one spelled with it was taken: the answer is refused and asked again."""
    result = run("play", "--seed", seed, "--record", tmp_path / "r.jsonl",
                 input=f"{answer}\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert f"unknown answer {quoted(answer)}" in result.stdout


@pytest.mark.parametrize("mark", ["\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                  "\u2029", "\x0b"])
def test_a_line_is_parted_at_its_line_end_alone(tmp_path: Path, mark: str):
    """A form feed, U+2028 and the other breaks str.splitlines knows, in a comment, are
    characters of its line: they had been line ends, so that a file's lines were numbered
    otherwise than grep -n numbers them (FILE:N named another line), and half a comment
    read as TOML."""
    from solver.notation import text_lines

    assert text_lines(f"a{mark}b\nc\r\nd\re\n") == [f"a{mark}b", "c", "d", "e"]
    assert text_lines("") == [] and text_lines("\n\n") == ["", ""]
    bad = TWO_LINE.replace("turnup=6H", "turnup=XX")
    path = tmp_path / "lines.txt"
    path.write_text(f"# page{mark}two\n# three\n{TWO_LINE}\n{bad}\n", encoding="utf-8")
    assert f"{path}:4: turnup: unknown card 'XX'" in one_error_line(run("solve", f"{path}:4"))
    solved = run("solve", f"{path}:3", "--json")
    assert solved.exit_code == 0, solved.stderr
    assert json.loads(solved.stdout)["file"] == f"{path}:3"
    # a first comment with such a mark in it is not taken for TOML
    path.write_text(f"# club{mark}night\n{TWO_LINE}\n", encoding="utf-8")
    assert run("solve", path).exit_code == 0


def test_answers_from_a_file_begun_with_a_bom_are_read_as_typed(tmp_path: Path):
    """A file of answers an editor began with a byte-order mark: its first answer had been
    refused, and every later one answered the question before it."""
    played = run("play", "--seed", "7", "--record", tmp_path / "r.jsonl",
                 input="\ufeff3c\nquit\n")
    assert played.exit_code == 0, played.stderr
    assert "unknown answer" not in played.stdout and "S (you) plays 3♣" in played.stdout
    solved = run("puzzle", "play", PUZZLES / "012-the-five-falls.toml", input="\ufeffquit\n")
    assert solved.exit_code == 0 and "unknown answer" not in solved.stdout


def test_a_bom_is_read_as_the_text_it_is(tmp_path: Path):
    path = tmp_path / "windows.toml"
    path.write_bytes(b"\xef\xbb\xbf" + TWO_TOML.encode())
    assert load(path) == Position.from_line(TWO_LINE)
    (record,) = [json.loads(line) for line in run("solve", path, "--json").stdout.splitlines()]
    assert record["value"] == 19
    lines = tmp_path / "windows.txt"
    lines.write_bytes(b"\xef\xbb\xbf" + TWO_LINE.encode() + b"\n")
    assert run("solve", lines, "--json").exit_code == 0
    assert run("solve", "-", "--json", input="\ufeff" + TWO_TOML).exit_code == 0


def test_a_long_line_argument_is_a_position_not_a_file_name():
    # every option spelled out at its all-fives value
    line = TWO_LINE + " " + " ".join(f"{name}={option_text(value)}"
                                     for name, value in Rules().options().items())
    assert len(line.encode()) > 255
    result = run("solve", line, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["value"] == 19


def test_several_positions_given_as_arguments_are_told_apart():
    rows = [json.loads(line) for line in run("solve", TWO_LINE, TWO_LINE.replace("6H", "6D"),
                                             "--json").stdout.splitlines()]
    assert [row["file"] for row in rows] == ["<argument 1>", "<argument 2>"]
    assert one_error_line(run("solve", TWO_LINE, TWO_LINE + " bad=1")) == \
        "allfives: error: <argument 2>: unknown key 'bad'"


def test_a_long_bad_argument_is_quoted_short():
    result = run("solve", "N:" + "X" * 300)
    line = one_error_line(result)
    assert "File name too long" not in line and len(line) < 200


def test_error_lines_quote_a_few_dozen_characters_of_the_bad_input(tmp_path: Path):
    path = tmp_path / "huge.toml"
    hand = "ZZ" * 400_000         # (a deal of 800,000 characters: less than the most)
    path.write_text(TWO_TOML.replace("TS QH JH TH 9H 2H", hand))
    line = one_error_line(run("solve", path))
    assert line.startswith(f"allfives: error: {path}: hands.N: unknown card 'ZZZZ")
    assert line.endswith(" (800000 characters)") and len(line) < 150 + len(str(path))
    with pytest.raises(DealFileError) as caught:
        Position.from_line("N:" + "A" * 100_000 + " " + "K.-.-.-" + " trump=S")
    assert len(str(caught.value)) < 200


def test_quoted_is_short_and_exact_when_short():
    assert quoted("ZZ") == "'ZZ'" and quoted(61) == "61"
    assert len(quoted("x" * 10_000)) < QUOTE_CHARACTERS + 30
    deep: dict = {}
    for _ in range(5000):
        deep = {"a": deep}
    assert quoted(deep) == "{'a': {'a': {'a': {...}}}}"


def test_quoted_gives_bytes_the_locale_could_not_read_as_typed():
    """Python keeps an argument's bytes that the locale's encoding cannot read as surrogate
    escapes: quoted named them so ('6\\udce2\\udc99\\udca5'), where they are the UTF-8 of
    '6♥', and a byte that is no UTF-8 as '\\udcff' where a file's name shows '\\xff'."""
    assert quoted("6\udce2\udc99\udca5") == "'6\u2665'"
    assert quoted("a\udcffb") == "'a\\xffb'"
    # a backslash typed before 'udcff' is no such byte
    assert quoted("\\udcff") == "'\\\\udcff'" and quoted("\\\udcff") == "'\\\\\\xff'"
    from solver.errors import as_typed
    assert as_typed("A\udce2\udc99\udca5") == "A\u2665" and as_typed("\udcff") == "\udcff"
    # a stray byte leaves the rest read as typed
    assert as_typed("6\udce2\udc99\udca5\udcff") == "6\u2665\udcff"
    assert as_typed("\ud800\udcff") == "\ud800\udcff"     # (no bytes were read so)
    # a long one counted as typed: 200 hearts, not their 600 bytes
    assert quoted("\udce2\udc99\udca5" * 200).endswith(" (200 characters)")


@pytest.mark.parametrize("target", ["1000000", "1000", "0"])
def test_a_target_beyond_any_match_is_refused_at_once(target: str):
    start = time.perf_counter()
    line = one_error_line(run("solve", f"{TWO_LINE} score=45,50 target={target}"))
    assert time.perf_counter() - start < 5
    assert line == (f"allfives: error: <argument>: target: option 'target' takes a whole number "
                    f"from 1 to 999, not {target}")


def test_a_long_target_is_drawn_to_scale():
    result = run("solve", f"{TWO_LINE} score=45,50 target=999")
    assert result.exit_code == 0, result.stderr
    board = result.stdout.split("Match to 999")[1]
    assert "each hole 8 points" in board
    assert len(board.splitlines()) < 12


def test_a_fractional_option_says_so(tmp_path: Path):
    path = tmp_path / "deal.toml"
    path.write_text(TWO_TOML + "[options]\ntarget = 1e9\n")
    line = one_error_line(run("solve", path))
    assert line == (f"allfives: error: {path}: options.target: expected a whole number, not "
                    f"the decimal number 1000000000.0")
    path.write_text(TWO_TOML + "[options]\nmax_runs = 2.5\n")
    line = one_error_line(run("solve", path))
    assert line == (f"allfives: error: {path}: options.max_runs: expected a whole number or "
                    f"\"none\", not the decimal number 2.5")
    path.write_text(TWO_TOML + "[options]\ntarget = [1]\n")
    line = one_error_line(run("solve", path))
    assert line.endswith("options.target: expected a whole number, not an array ([1])")
    for value in ("2.5", "[1]"):        # an unknown name is told as such, whatever its value
        path.write_text(TWO_TOML + f"[options]\ncolour = {value}\n")
        line = one_error_line(run("solve", path))
        assert line.endswith(f"options.colour: unknown option 'colour' ({OPTIONS_LISTED})")


@pytest.mark.parametrize("score,side", [("61,0", "N"), ("70,65", "N"), ("3,61", "S")])
def test_a_score_already_at_the_target_is_refused(score: str, side: str):
    line = one_error_line(run("solve", f"{TWO_LINE} score={score}"))
    assert f"score: {side} has" in line and "already at the target 61: that match is over" in line


# ---- a name left empty ----------------------------------------------------------------------

@pytest.mark.parametrize("args,what", [
    (["solve", ""], "POSITION"), (["analyze", ""], "POSITION"), (["advise", ""], "POSITION"),
    (["replay", ""], "RECORD"), (["puzzle", "check", ""], "FILE|DIR"),
    (["puzzle", "show", ""], "FILE|DIR"), (["puzzle", "index", ""], "FILE|DIR"),
    (["puzzle", "play", ""], "FILE"), (["puzzle", "generate", "--out", ""], "--out"),
    (["match", "heuristic", "random", "--deals", "1", "--record", ""], "--record"),
    (["play", "--record", ""], "--record"),
], ids=lambda value: " ".join(value) if isinstance(value, list) else value)
def test_an_empty_name_is_refused_not_read_as_the_current_folder(tmp_path: Path, monkeypatch,
                                                                  args: list[str], what: str):
    # Path("") is the current folder: typing nothing must not solve, check or fill it
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deal.toml").write_text(TWO_TOML)
    line = one_error_line(run(*args, input="quit\n"))
    assert line == f"allfives: error: {what}: an empty name names no file"
    assert [p.name for p in tmp_path.iterdir()] == ["deal.toml"]


def test_a_folder_named_as_a_position_to_advise_on_is_a_folder(tmp_path: Path):
    line = one_error_line(run("advise", tmp_path))
    assert line == f"allfives: error: {tmp_path}: Is a directory"


# ---- a record that cannot be written --------------------------------------------------------

@pytest.mark.parametrize("where", ["missing/match.jsonl", "."], ids=["missing folder", "folder"])
def test_play_refuses_a_record_it_cannot_write_before_the_first_deal(tmp_path: Path,
                                                                     where: str):
    # found at the start, not after a deal has been played and lost
    record = tmp_path / where
    result = run("play", "--seed", "1", "--record", record, input="1\n" * 200)
    line = one_error_line(result)
    if where == ".":
        assert line == f"allfives: error: --record: {record} is a folder, not a file"
    else:
        assert line == (f"allfives: error: --record: no folder {record.parent} to write "
                        f"{record.name} in")


@pytest.mark.parametrize("named", [True, False], ids=["--record", "default"])
def test_play_refuses_a_record_without_leave_to_write_it_before_the_first_deal(
        tmp_path: Path, monkeypatch, named: bool):
    # the file, or the folder it would be made in, not writable (the operating system's
    # answer stood in for: the tests may run as a user who may write anything)
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "match.jsonl"
    asked = []

    def refused(path, *args, **kwargs):
        asked.append(Path(path))
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr("cli.playing.open", refused, raising=False)
    line = one_error_line(run("play", "--seed", "1", *(["--record", record] if named else []),
                              input="1\n" * 200))
    assert line == (f"allfives: error: --record: {record}: Permission denied" if named else
                    "allfives: error: the record allfives-1.jsonl cannot be written here: "
                    "Permission denied (name another with --record FILE)")
    assert asked == [record if named else Path("allfives-1.jsonl")]


@pytest.mark.parametrize("exists", [True, False, "link"], ids=["file", "no file", "link"])
def test_play_tries_its_record_before_the_first_deal_and_leaves_it_as_it_was(tmp_path: Path,
                                                                          exists):
    record = tmp_path / "match.jsonl"
    if exists == "link":        # a link to nothing yet: refused; it stays, and nothing is made
        record.symlink_to(tmp_path / "target.jsonl")
    elif exists:
        kept = (EXAMPLES / "match.jsonl").read_text(encoding="utf-8").splitlines()[0] + "\n"
        record.write_text(kept, encoding="utf-8")
    assert run("play", "--seed", "1", "--record", record, input="quit\n").exit_code == \
        (2 if exists == "link" else 0)
    if exists == "link":
        assert record.is_symlink() and not (tmp_path / "target.jsonl").exists()
    else:
        assert (record.read_text(encoding="utf-8") == kept) if exists else not record.exists()


# ---- player options -------------------------------------------------------------------------

@pytest.mark.parametrize("spec,message", [
    ("heuristic:bogus=1", "player 'heuristic' has no option 'bogus' (its options: calls)"),
    ("random:x=1", "player 'random' has no option 'x' (it takes none)"),
    ("pimc:=3", "player 'pimc' has no option ''"),
    # nothing after the colon, as the rules say (it was plain pimc)
    ("pimc:", "no player option after the colon"),
    ("pimc:,", "no player option after the colon"),
    ("pimc:seed=3", "player 'pimc' has no option 'seed'"),
    ("cheater:name=x", "player 'cheater' has no option 'name'"),
    ("pimc:worlds=4,worlds=8", "player option 'worlds' is given twice"),
    ("pimc:table_bits=100", "table_bits: 100 is not a whole number from 8 to 26"),
    ("cheater:table_bits=abc", "table_bits: 'abc' is not a whole number from 8 to 26"),
    ("pimc:infer=maybe", "infer: 'maybe' is not true or false (1 or 0)"),
    ("pimc:bidding=2", "bidding: 2 is not true or false (1 or 0)"),
    # none is no switch's value (it was taken as off, where worlds=none is the default)
    ("pimc:infer=none", "infer: none is not true or false (1 or 0)"),
    ("pimc:win=none", "win: none is not true or false (1 or 0)"),
    ("pimc:exact_limit=abc", "exact_limit: 'abc' is not a whole number from 0"),
    ("pimc:worlds=99999999999", "worlds: 99999999999 is not a whole number from 1 to 100000"),
    ("pimc:call_worlds=1000000", "call_worlds: 1000000 is not a whole number from 1 to 100000"),
    # a value read as true, false or none is spelled back as given, not as Python's True
    ("pimc:chain=true", "chain: true is not a whole number from 0 to 64"),
    ("pimc:worlds=false", "worlds: false is not a whole number from 1 to 100000"),
    ("cheater:table_bits=true", "table_bits: true is not a whole number from 8 to 26"),
    # an option that would change nothing is an error too, never silently ignored
    ("pimc:partner=heuristic", "partner: only with replies=heuristic"),
    ("pimc:trust=full,infer=0", "trust: only with infer"),
    ("pimc:draws=8,infer=0", "draws: only with infer"),
    ("pimc:infer_partner=1,infer=0", "infer_partner: only with infer"),
    ("pimc:full_calls=1", "full_calls: only with trust=full and bidding"),
    ("pimc:full_calls=1,trust=full,bidding=0", "full_calls: only with trust=full and bidding"),
    # ... and so is a partner's option at a table of two, who have no partners
    ("pimc:infer_partner=1", "infer_partner: only with four players (a table of 2 has no "
                             "partners)"),
    # ... whatever its value: an option named, at its default or not
    ("pimc:partner=best", "partner: only with replies=heuristic"),
    ("pimc:chain=0,infer=0", "chain: only with infer"),
    ("pimc:trust=tempered,infer=0", "trust: only with infer"),
    ("pimc:full_calls=0", "full_calls: only with trust=full and bidding"),
    ("pimc:replies=heuristic,partner=best", "partner: only with four players"),
    ("pimc:infer_partner=0", "infer_partner: only with four players"),
])
def test_a_bad_player_option_is_one_line_naming_it(spec: str, message: str):
    # no Python call signature, no traceback, no option taken as something else
    start = time.perf_counter()
    line = one_error_line(run("match", spec, "random", "--deals", "1"))
    assert line.startswith(f"allfives: error: PLAYER {spec!r}: {message}")
    assert "__init__" not in line and "keyword" not in line
    line = one_error_line(run("play", "--opponents", spec, "--seed", "1", input="quit\n"))
    assert line.startswith(f"allfives: error: --opponents: {message}")
    assert time.perf_counter() - start < 30


@pytest.mark.parametrize("text,value", [("0", False), ("1", True), ("false", False),
                                        ("False", False), ("true", True)])
def test_a_player_switch_reads_true_and_false_as_they_are(text: str, value: bool):
    from solver.registry import player_spec

    # pimc:infer=false once read as the word 'false', which is true
    player = player_spec(f"pimc:infer={text},bidding={text},win={text}").make(seed=0)
    assert (player.infer, player.bidding, player.win) == (value, value, value)


@pytest.mark.parametrize("args,guess", [
    (["match", "--bogus"], ""),     # (Click's guess: --jobs)
    (["match", "--pl", "2"], " (did you mean --players?)"),    # (Click's: --help, --players)
    (["match", "--deal", "5"], " (did you mean --deals?)"),
    (["solve", "--tim", "3"], " (did you mean --time-limit?)"),     # (Click's: none)
    (["match", "--seeds", "3"], " (did you mean --seed?)"),
    (["puzzle", "generate", "--cout", "3"], " (did you mean --count or --out?)"),
    (["match", "--r", "1"], " (did you mean --record, --resume or --rules?)"),   # (three begin so)
    (["match", "--helps"], " (did you mean --help?)"),
    (["--verison"], " (did you mean --version?)"),
    (["solve", "-x"], ""),
])
def test_an_unknown_option_is_guessed_only_where_it_is_near_one(args, guess):
    result = run(*args)
    assert result.exit_code == 2
    typed = args[-2] if args[-1].isdigit() else args[-1]
    command = " ".join(["allfives", *args[:args.index(typed)]])
    assert one_error_line(result) == (f"allfives: error: No such option: {typed}{guess} "
                                      f"(see '{command} --help')")


@pytest.mark.parametrize("picked", ["-#2", "-:3"])
@pytest.mark.parametrize("command", ["solve", "analyze", "advise", "replay"])
def test_a_deal_of_standard_input_by_number_is_told_what_to_do(command, picked):
    """``-#2``, as ``<stdin>#2`` names a deal of standard input, was Click's 'No such option:
    -#'; a command that picks a record's deal by ``--deal`` says so."""
    result = run(command, picked, input=(EXAMPLES / "two-player.toml").read_text())
    assert result.exit_code == 2
    how = "its line" if picked[1] == ":" else "number"
    record = f" (of a game record: --deal {picked[2:]})" if picked[1] == "#" and \
        command != "advise" else ""
    assert one_error_line(result) == (
        f"allfives: error: {picked}: a deal of standard input is not picked by {how}: give "
        f"the one deal{record}, or save the input to a file and name FILE{picked[1:]}")
    # the puzzle commands pick puzzles; the commands that take no deal say no more than Click
    assert "a puzzle of standard input" in one_error_line(run("puzzle", "show", picked))
    assert one_error_line(run("match", picked, "random")).startswith(
        f"allfives: error: No such option: {picked[:2]}")


@pytest.mark.parametrize("args,message", [
    (["solve", "solver/examples/two-player.toml", "--for", "N", "--for", "S"],
     "--for is given twice (see 'allfives solve --help')"),
    (["solve", "solver/examples/two-player.toml", "--color", "--no-color"],
     "--color/--no-color is given twice"),
    (["deal", "--preset", "classic", "--rules", "strict"], "--rules/--preset is given twice"),
    (["match", "heuristic", "random", "--seed", "1", "--seed=2"], "--seed is given twice"),
    (["puzzle", "show", "puzzles", "--format", "text", "--format", "svg"],
     "--format is given twice (see 'allfives puzzle show --help')"),
])
def test_an_option_given_twice_is_refused(args: list[str], message: str):
    """Click takes the last of an option given twice without a word (a seed, an objective, a
    colour or the rules quietly overridden): refused as other conflicts are."""
    result = run(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert one_error_line(result) == f"allfives: error: {message}" or \
        one_error_line(result).startswith(f"allfives: error: {message} (see ")
    # --help twice is still help
    assert run(*args[:2], "--help", "--help").stdout.startswith("Usage: allfives ")


@pytest.mark.parametrize("args,message", [
    (["play", "--seat", "X"], "--seat: unknown seat 'X'"),
    (["play", "--rules", "nope"], "--rules: unknown preset 'nope'"),
    (["play", "--target", "0"], "--target: option 'target' takes a whole number from 1 to 999"),
    (["play", "--opponents", "nope"], "--opponents: unknown player 'nope'"),
    (["advise", "--hand", "AS KS QS JS TS 9S", "--turnup", "5H", "--rules", "nope"],
     "--rules: unknown preset 'nope'"),
    (["advise", "--hand", "AS KS QS JS TS 9S", "--turnup", "5H", "--target", "0"],
     "--target: option 'target' takes a whole number from 1 to 999"),
    (["advise", "--hand", "AS KS QS JS TS 9S", "--turnup", "5H", "--worlds", "99999999999"],
     "--worlds: 99999999999 is not a whole number from 1 to 100000"),
    (["puzzle", "generate", "--rules", "nope"], "--rules: unknown preset 'nope'"),
    (["puzzle", "play", "--random", "--rules", "nope"], "--rules: unknown preset 'nope'"),
])
def test_a_bad_option_value_names_the_option(args: list[str], message: str):
    start = time.perf_counter()
    line = one_error_line(run(*args, input="quit\n"))
    assert line.startswith(f"allfives: error: {message}")
    assert time.perf_counter() - start < 30


@pytest.mark.parametrize("args", [
    ["deal", "--players", "2"], ["play"], ["match", "heuristic", "random", "--deals", "1"],
    ["puzzle", "generate", "--count", "1"], ["puzzle", "play", "--random"],
    ["advise", "--hand", "AS KS QS JS TS 9S", "--turnup", "5H"],
], ids=lambda args: args[0] if args[0] != "puzzle" else " ".join(args[:2]))
def test_a_seed_below_zero_is_refused(args: list[str]):
    # Python's Random(-7) is Random(7): a negative seed would deal the positive one's cards
    line = one_error_line(run(*args, "--seed", "-7", input="quit\n"))
    assert line.startswith("allfives: error: --seed: '-7' is less than 0 (see 'allfives ")


@pytest.mark.parametrize("args, message", [
    (["play", "--players", "5"], "--players: '5' is more than 4 (see 'allfives play --help')"),
    (["deal", "--players=x"], "--players: 'x' is not a whole number (see 'allfives deal --help')"),
    (["bench", "--count", "0"], "--count: '0' is less than 1 (see 'allfives bench --help')"),
    (["deal", "--players", "2", "--count", "1000001"],     # (10**30 deals were taken)
     "--count: '1000001' is more than 1000000 (see 'allfives deal --help')"),
    (["puzzle", "generate", "--count", "10001"],
     "--count: '10001' is more than 10000 (see 'allfives puzzle generate --help')"),
    (["solve", TWO_LINE, "--time-limit", "abc"],
     "--time-limit: 'abc' is not a number (see 'allfives solve --help')"),
    (["deal", "--format", "nope"],
     "--format: 'nope' is not one of 'toml', 'line' (see 'allfives deal --help')"),
    # an option without its value: the parser names no command, the arguments do
    (["solve", TWO_LINE, "--for"],
     "Option '--for' requires an argument (see 'allfives solve --help')"),
    (["puzzle", "check", "--jobs"],
     "Option '--jobs' requires an argument (see 'allfives puzzle check --help')"),
    # the value quoted is the one typed for that option, however it was written
    (["deal", "--seed", "-7", "--players", "2"],
     "--seed: '-7' is less than 0 (see 'allfives deal --help')"),
    (["deal", "--seed=-7"], "--seed: '-7' is less than 0 (see 'allfives deal --help')"),
])
def test_a_value_the_parser_refuses_is_worded_as_the_programs_own_errors(args, message):
    assert one_error_line(run(*args)) == f"allfives: error: {message}"


def test_the_command_group_returns_its_status_when_asked_not_to_exit(capsys):
    """Run from Python with ``standalone_mode=False``, the program returns the status it would
    have ended with."""
    import typer.main

    from cli.main import app

    group = typer.main.get_command(app)
    assert group.main(["deal", "--players", "2", "--seed", "1"], standalone_mode=False) == 0
    assert group.main(["deal", "--players", "5"], standalone_mode=False) == 2
    assert capsys.readouterr().err == \
        "allfives: error: --players: a table has 2, 3 or 4 players, not 5\n"


@pytest.mark.parametrize("args, value, kind", [
    (["match", "heuristic", "random", "--deals"], "1_0", "whole number"),
    (["deal", "--players"], "2_0", "whole number"),      # (once 'not 20')
    (["advise", "--hand", "AS KS QS JS TS 9S", "--turnup", "5H", "--worlds"], "١٠",
     "whole number"),
    (["puzzle", "generate", "--count"], "１", "whole number"),
    (["bench", "--count"], "²", "whole number"),
    (["solve", TWO_LINE, "--time-limit"], "nan", "number"),
    (["solve", TWO_LINE, "--time-limit"], "1_0.5", "number"),
    (["solve", TWO_LINE, "--time-limit"], "٠.٥", "number"),
    (["deal", "--players"], "2.0", "whole number"),        # (once read as 2)
], ids=lambda x: x if isinstance(x, str) else None)
def test_a_number_is_read_only_as_digits_0_to_9_write_it(args, value, kind):
    """What Python's int and float read besides (underscores, other scripts' digits, nan) was
    once taken as the number it stood for; every number of a file or an answer is refused so."""
    name = args[-1]
    line = one_error_line(run(*args, value, input="quit\n"))
    assert line.startswith(f"allfives: error: {name}: {quoted(value)} is not a {kind} (see ")


def _commands(group):
    for command in group.commands.values():
        yield from _commands(command) if hasattr(command, "commands") else [command]


def test_every_option_that_takes_a_number_has_its_number_checked():
    """The check reads each option's kind from what the parser keeps (which Typer 0.28 and 0.29
    keep otherwise): every option whose function takes an int or a float is known for one."""
    import inspect
    import typing

    import typer.main

    from cli.helpscreen import number_kind
    from cli.main import app

    checked = 0
    for command in _commands(typer.main.get_command(app)):
        hints = typing.get_type_hints(inspect.unwrap(command.callback))
        for param in command.params:
            hint = hints[param.name]
            kinds = set(typing.get_args(hint)) - {type(None)} or {hint}
            declared = next((k for k in (int, float) if kinds == {k}), None)
            if param.param_type_name == "option":
                assert number_kind(param) is declared, (command.name, param.name)
                checked += declared is not None
    assert checked >= 30


def test_a_number_typed_in_digits_is_read():
    assert run("solve", TWO_LINE, "--time-limit", " .5").exit_code == 0
    assert run("deal", "--players", "2", "--seed", "+3").exit_code == 0
    # and asked for help, help is given whatever the numbers say
    assert run("deal", "--count", "1_0", "--help").stdout.startswith("Usage: allfives deal")


# ---- numbers too large to run ---------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["solve", TWO_LINE, "--jobs", "100000"],
    ["match", "heuristic", "random", "--deals", "4", "--jobs", "100000"],
    ["puzzle", "check", "PUZZLES", "--jobs", "100000"],
], ids=["solve", "match", "puzzle check"])
def test_more_worker_processes_than_a_few_a_cpu_are_refused(args: list[str], tmp_path: Path):
    # --jobs 99999 once started 99999 processes, and the machine with them
    from clirun import PUZZLES

    record = tmp_path / "kept.jsonl"
    record.write_text("kept\n")
    args = [str(PUZZLES) if a == "PUZZLES" else a for a in args]
    if args[0] == "match":
        args += ["--record", str(record)]
    line = one_error_line(run(*args))
    from solver.executors import usable_cpus

    limit = 8 * usable_cpus()
    assert line == (f"allfives: error: --jobs: 100000 worker processes is more than {limit} "
                    f"(8 a CPU; --jobs 0 starts one a CPU)")
    assert record.read_text() == "kept\n"  # refused before the record is opened
    if args[0] == "solve":  # the limit itself is a number of processes to start
        assert run(*args[:-1], str(limit), "--json").exit_code == 0


@pytest.mark.parametrize("unit", ["--deals", "--matches"])
def test_more_deal_groups_than_a_run_can_hold_are_refused(unit: str):
    # --deals 10**20 once planned every chunk of groups at once, a gigabyte in seconds
    start = time.perf_counter()
    line = one_error_line(run("match", "heuristic", "random", unit, str(10 ** 20)))
    assert line == (f"allfives: error: {unit}: {10 ** 20} deal groups is more than one run "
                    f"plays (1000000 at most; run more with other seeds)")
    assert time.perf_counter() - start < 10


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("args", [
    ["play", "--seed", "1", "--record", "/dev/full"],
    ["match", "heuristic", "random", "--deals", "30", "--record", "/dev/full"],
], ids=["play", "match"])
def test_a_record_on_a_full_disk_is_one_line_naming_it(args: list[str]):
    # a write's OSError names no file: it once escaped as a traceback
    result = run(*args, input="1\n" * 200)
    assert result.exit_code == 1 and "Traceback" not in result.stderr  # nobody's mistake
    # (named by the option, as the checks before the run name it)
    assert result.stderr.splitlines() == [
        "allfives: error: --record: /dev/full: No space left on device"]


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null here")
def test_play_keeps_its_record_nowhere_when_asked():
    """play --record /dev/null plays on past its first deals (going back over the record, a
    device without a size, was 'Invalid argument')."""
    result = run("play", "--seed", "1", "--record", "/dev/null", input="1\n" * 40)
    assert result.exit_code == 0, result.stderr
    assert "after 5 deals; the record is in /dev/null." in result.stdout


# ---- found by trying to break each command ---------------------------------------------------

def test_an_unknown_engine_technique_in_the_environment_is_one_line(tmp_path: Path):
    # a fresh process: a solver made before the setting would not read it
    result = shell(f"ALLFIVES_ENGINE_OFF=bounds,telepathy allfives solve '{TWO_LINE}'",
                   tmp_path)
    assert result.returncode == 2
    assert result.stdout == "allfives: error: ALLFIVES_ENGINE_OFF: unknown technique 'telepathy'\n"


def test_more_deals_than_bench_makes_are_refused_at_once():
    # every deal of a class is made before the first is timed: 10**20 once ate the memory
    line = one_error_line(run("bench", "--count", str(10 ** 20)))
    assert line == (f"allfives: error: --count: '{10 ** 20}' is more than 100000 "
                    f"(see 'allfives bench --help')")


def test_color_does_not_put_the_live_line_into_standard_error_that_is_not_a_terminal():
    result = run("solve", TWO_LINE, "--color")
    assert result.exit_code == 0 and "\x1b[" in result.stdout
    assert result.stderr == ""


def test_a_record_written_to_a_pipe_whose_reader_goes_ends_quietly(tmp_path: Path):
    # (standard output is the report's: the record goes to a pipe of its own)
    result = shell("mkfifo records; head -1 records >/dev/null & allfives match heuristic "
                   "random --deals 20 --record records >/dev/null; echo status $?", tmp_path)
    assert result.stdout == "status 141\n"


def test_a_record_to_a_pipe_nothing_reads_says_it_waits_for_a_reader(tmp_path: Path):
    """A pipe with no reader left the run waiting without a word (opening it to write waits for
    one): it says so, and goes on when a reader comes."""
    # (the reader comes once the note is said, or after 20 s without it)
    result = shell("mkfifo records; (for i in $(seq 200); do [ -s said ] && break; sleep 0.1; "
                   "done; head -c 9 records) & "
                   "allfives match heuristic random --deals 2 --record records >/dev/null "
                   "2>said; echo; cat said", tmp_path, timeout=60)
    assert result.stdout == '{"match":\nallfives: --record: records is a pipe that nothing reads ' \
                            'yet: waiting for a reader (Ctrl-C stops)\n'
    read = shell("mkfifo read; cat read > /dev/null & sleep 0.5; allfives match heuristic random "
                 "--deals 2 --record read >/dev/null; echo status $?", tmp_path)
    assert read.stdout == "status 0\n"     # (and nothing said: it had a reader)


def test_a_pipe_read_already_is_held_open_until_the_record_is(tmp_path: Path, monkeypatch):
    """The run looked for a reader by opening the pipe and closing it again: a reader already
    there saw a writer come and go, took it for the record's end, and left, and the run waited
    for a reader ever after (on a loaded machine).  A reader that opened the pipe first reads
    the record."""
    from cli import matching

    fifo = tmp_path / "records"
    os.mkfifo(fifo)
    said: list[str] = []
    monkeypatch.setattr(matching, "note", said.append)

    def slow_open(*args, **kwargs):     # (the reader has time to see the end, were it shown one)
        time.sleep(0.3)
        assert reader.is_alive(), f"the reader saw the pipe's end before the record: {read}"
        return open(*args, **kwargs)

    monkeypatch.setattr(matching, "open", slow_open, raising=False)
    for attempt in range(20):           # (until the reader is waiting when the run looks)
        read: list[bytes] = []
        reader = threading.Thread(target=lambda: read.append(fifo.read_bytes()), daemon=True)
        reader.start()
        time.sleep(0.1 * (attempt + 1))
        out = matching.open_record(str(fifo))
        with out:
            out.write("a record\n")
        reader.join(10)
        assert read == [b"a record\n"]
        if not said:
            break
        said.clear()
    assert attempt < 19


@pytest.mark.parametrize("command", [["play", "--seed", "7"],
                                     ["match", "heuristic", "random", "--deals", "2"]])
def test_a_record_named_by_a_link_to_no_file_is_refused(tmp_path: Path, command: list[str]):
    """A link to nothing as the record made a file where it pointed: a name planted in a shared
    folder put the record, or an empty file of the planter's choosing, elsewhere."""
    link = tmp_path / "run.jsonl"
    link.symlink_to(tmp_path / "elsewhere" / "made")
    result = run(*command, "--record", link, input="quit\n")
    assert one_error_line(result) == (f"allfives: error: --record: {link} is a link to no file "
                                      f"({tmp_path}/elsewhere/made): name the record's file "
                                      f"itself")
    (tmp_path / "elsewhere").mkdir()
    assert one_error_line(run(*command, "--record", link, input="quit\n")) == \
        one_error_line(result)
    assert not (tmp_path / "elsewhere" / "made").exists()


@pytest.mark.parametrize("command, when", [("play", "."), ("match", ", with --matches."),
                                           ("advise", ", for a call.")])
def test_the_target_says_what_it_does_for_each_command(command: str, when: str):
    words = " ".join(run(command, "--help").stdout.replace("│", " ").split())
    assert f"The points that win the match{when[:-1]}, 1 to 999 (or target=N in --rules). " \
           f"Default: the preset's" in words


@pytest.mark.parametrize("command", ["solve", "advise"])
def test_a_deal_picked_from_a_file_is_read_alone(tmp_path: Path, command: str):
    """FILE#N and FILE:LINE pick that deal alone (README): a mistake in another deal of the
    file is that deal's, not the one picked (it stopped the pick with the other's error)."""
    several = tmp_path / "deals.toml"
    several.write_text(TWO_TOML + "# ---\n" + TWO_TOML.replace("6H", "ZZ"))
    lines = tmp_path / "deals.txt"
    lines.write_text(f"{TWO_LINE}\n{TWO_LINE} play=ZZ\n")
    for good, bad, message in ((f"{several}#1", f"{several}#2", "turnup: unknown card 'ZZ'"),
                               (f"{lines}:1", f"{lines}:2", "play[0]: unknown card 'ZZ'")):
        assert run(command, good).exit_code == 0
        assert one_error_line(run(command, bad)) == f"allfives: error: {bad}: {message}"
        assert one_error_line(run(command, str(good).rpartition(good[-2])[0])) == \
            f"allfives: error: {bad}: {message}"     # the whole file: the mistake is told


def test_a_deal_of_a_file_of_several_is_named_as_the_output_names_it(tmp_path: Path):
    several = tmp_path / "deals.toml"
    several.write_text(TWO_TOML + "# ---\n" + TWO_TOML.replace("6H", "6D"))
    lines = tmp_path / "deals.txt"
    lines.write_text(f"# two deals\n{TWO_LINE}\n\n{TWO_LINE.replace('6H', '6D')}\n")
    for path in (several, lines):
        every = {row["file"]: row for row in map(json.loads, run(
            "solve", path, "--json").stdout.splitlines())}
        assert len(every) == 2
        for name, row in every.items():
            (alone,) = map(json.loads, run("solve", name, "--json").stdout.splitlines())
            for work in ("seconds", "nodes"):  # one solver's table serves the whole file
                alone.pop(work), row.pop(work)
            assert alone == row
    assert one_error_line(run("solve", f"{several}#3")) == (
        f"allfives: error: {several}#3: no deal 3: the file holds 2 deals")
    assert one_error_line(run("solve", f"{lines}:3")) == (
        f"allfives: error: {lines}:3: no deal on line 3: the file holds 2 deals, on lines 2 "
        f"and 4")
    assert one_error_line(run("solve", f"{lines}#2")) == (     # named by line, not by number
        f"allfives: error: {lines}#2: {lines} holds one-line positions, picked by line as "
        f"{lines}:LINE (on lines 2 and 4)")
    assert one_error_line(run("solve", f"{several}:2")) == (   # and TOML deals by number
        f"allfives: error: {several}:2: {several} holds deals in TOML, picked as {several}#N, "
        f"N from 1 to 2")
    # a number written with a leading zero is that number; digits of other scripts are none
    for picked, name in ((f"{several}#02", f"{several}#2"), (f"{lines}:004", f"{lines}:4")):
        (row,) = map(json.loads, run("solve", picked, "--json").stdout.splitlines())
        assert row["file"] == name
    assert one_error_line(run("solve", f"{several}#²")).endswith(
        f"{several}#²: no such file, and #² is not a deal number (FILE#N counts the deals of a "
        f"file from 1)")
    assert one_error_line(run("solve", f"{several}#1#2")).endswith(   # (once: no file #1)
        f"{several}#1#2: no such file, and #1#2 is not a deal number (FILE#N counts the deals "
        f"of a file from 1)")
    assert one_error_line(run("solve", f"{lines}:2:4")).endswith(
        f"{lines}:2:4: no such file, and :2:4 is not a line number (FILE:N is the deal on line "
        f"N of a file of one-line positions)")
    assert one_error_line(run("solve", f"{lines}:³")).endswith(
        f"{lines}:³: no such file, and :³ is not a line number (FILE:N is the deal on line N "
        f"of a file of one-line positions)")
    # a game record's deals are picked by number, not by line; a folder holds no deals
    record = tmp_path / "games.jsonl"
    assert run("match", "heuristic", "random", "--deals", 1, "--record", record).exit_code == 0
    assert one_error_line(run("solve", f"{record}:1")) == (
        f"allfives: error: {record}:1: {record} is a game record: its deals are picked as "
        f"{record}#N, N counted from 1 through the file")
    for picked in (f"{record}:1", f"{record}#1"):   # advise takes no record
        assert one_error_line(run("advise", picked)) == (
            f"allfives: error: {picked}: {record} is a game record, not a position; "
            f"'allfives analyze' judges a record's play")
    assert one_error_line(run("solve", f"{tmp_path}#1")) == (
        f"allfives: error: {tmp_path}#1: {tmp_path} is a folder, not a file of deals")
    # the one deal of a file of one is #1 too, as the output of a file of several names it
    one = tmp_path / "one.toml"
    one.write_text(several.read_text(encoding="utf-8").split("# ---")[0], encoding="utf-8")
    (alone,) = map(json.loads, run("solve", f"{one}#01", "--json").stdout.splitlines())
    (whole,) = map(json.loads, run("solve", one, "--json").stdout.splitlines())
    assert alone.pop("file") == f"{one}#1" and whole.pop("file") == str(one)
    assert {k: v for k, v in alone.items() if k not in ("seconds", "nodes")} == \
        {k: v for k, v in whole.items() if k not in ("seconds", "nodes")}
    assert one_error_line(run("solve", f"{one}#2")).endswith(f"{one}#2: no deal 2: the file "
                                                              f"holds 1 deal")


@pytest.mark.parametrize("table, message", [
    ("puzzle = 5\n", "puzzle: expected a table, not 5"),
    ('[puzzle]\ncolour = "N"\n', "puzzle: unknown key 'colour' (expected side, objective, "),
])
def test_a_puzzle_table_out_of_shape_is_refused_by_every_command(tmp_path: Path, table: str,
                                                                 message: str):
    path = tmp_path / "deal.toml"
    path.write_text(table + TWO_TOML if table.startswith("puzzle") else TWO_TOML + table)
    for command in ("solve", "advise"):
        line = one_error_line(run(command, path))
        assert line.startswith(f"allfives: error: {path}: {message}")
    checked = run("puzzle", "check", path)
    assert checked.exit_code == 1 and f"{path}: {message}" in checked.stdout


def test_a_lone_card_is_best_in_no_deal_valued():
    (row,) = map(json.loads, run("advise", "N:-.T.-.- - trump=H", "--json").stdout.splitlines())
    assert row["worlds"] == 0
    assert row["actions"] == [{"action": "TH", "mean": None, "low": None, "high": None,
                               "best": None}]


@pytest.mark.parametrize("args, words", [
    (["match", "heuristic", "random", "--deals", "1"], "1 deal in "),
    (["match", "heuristic", "random", "--matches", "1"], "1 match, "),
    (["advise", "--hand", "AS", "--turnup", "7H"], "the hand holds 1 card: "),
])
def test_one_is_counted_as_one(args: list[str], words: str):
    result = run(*args)
    assert words in result.stdout + result.stderr


# ---- input without end ----------------------------------------------------------------------

@pytest.mark.parametrize("command", ["solve", "analyze", "advise"])
def test_a_file_of_deals_too_large_is_refused_not_read_without_end(tmp_path: Path, command):
    """A stream without end (``/dev/zero``) or a file far larger than any file of deals is
    refused once 64 MiB are read, at once and in one line, where it was read whole first (4 GB
    of memory in seconds, deaf to a signal, and a traceback at the end)."""
    from solver.notation import MAX_TEXT_BYTES

    big = tmp_path / "big.toml"
    with big.open("wb") as file:
        file.truncate(MAX_TEXT_BYTES + 1)
    assert one_error_line(run(command, big)) == (
        f"allfives: error: {big}: more than 64 MiB: too large for a file of deals")
    if os.path.exists("/dev/zero"):
        started = time.monotonic()
        assert "/dev/zero: more than 64 MiB" in one_error_line(run(command, "/dev/zero"))
        assert time.monotonic() - started < 30


def test_a_stream_too_large_for_deals_and_no_record_says_so():
    """replay reads records (without a limit but memory): what is neither was refused as 'too
    large for a file of deals' alone."""
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    assert one_error_line(run("replay", "/dev/zero")) == (
        "allfives: error: /dev/zero: more than 64 MiB: too large for a file of deals (and no "
        "game record, whose lines start with '{')")


def test_a_stream_without_end_on_standard_input_is_refused():
    from solver.notation import read_limited

    class Endless:
        def read(self, size: int) -> bytes:
            return b"a" * size

    with pytest.raises(DealFileError, match=r"^<stdin>: more than 1 MiB: too large"):
        read_limited(Endless(), "<stdin>", 2**20)


@pytest.mark.parametrize("head", [b"", b'{"match": "1"}\n' * 3])
def test_a_record_without_end_on_one_line_is_refused_at_its_longest_line(head: bytes):
    """A record past the size of any file of deals is read on (a run's may be far larger), but
    one line without end (``{"match": "xxx...`` from a program gone wrong) was read until the
    memory ran out (3 GB in 19 s under a limit): a line of more than 16 MiB is refused, named,
    as soon as it is read."""
    from solver.notation import MAX_RECORD_LINE, MAX_TEXT_BYTES, READ_CHUNK, read_limited

    class Endless:
        def __init__(self) -> None:
            self.chunks = [head + b'{"match": "']
            self.size = 0

        def read(self, size: int) -> bytes:
            chunk = self.chunks.pop() if self.chunks else b"x" * size
            self.size += len(chunk)
            return chunk

    stream = Endless()
    with pytest.raises(DealFileError, match=rf"^<stdin>: line {head.count(b'{') + 1}: more than "
                                            r"16 MiB without a line's end: no game record has a "
                                            r"line so long$"):
        read_limited(stream, "<stdin>", records=True)
    assert MAX_RECORD_LINE < stream.size <= MAX_RECORD_LINE + 2 * READ_CHUNK < MAX_TEXT_BYTES
    lines = b'{"match": "1"}\n' * (MAX_RECORD_LINE // 15 + 1)
    assert len(read_limited(io.BytesIO(lines * 5), "x", records=True)) == len(lines) * 5


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")
def test_one_end_of_input_at_a_terminal_ends_the_text():
    """Text typed at a terminal, then Ctrl-D once at the start of a line, is the whole text
    (it took a second Ctrl-D)."""
    import threading

    from solver.notation import read_limited

    main, side = os.openpty()
    typed = os.fdopen(side, "rb")
    read: list[str] = []
    reader = threading.Thread(target=lambda: read.append(read_limited(typed, "<stdin>")),
                              daemon=True)
    reader.start()
    os.write(main, b"x = 1\n")
    time.sleep(0.2)
    os.write(main, b"\x04")
    reader.join(5)
    try:
        assert read == ["x = 1\n"]
    finally:
        os.write(main, b"\x04")        # (a reader still waiting has its end)
        reader.join(5)
        typed.close()
        os.close(main)


def test_a_record_is_read_whole_however_large_and_a_bom_kept_out_of_the_count():
    """On standard input a game record may be larger than any file of deals (analyze - of a
    run's record); a byte not UTF-8 after a byte-order mark is counted from the file's start."""
    import io

    from solver.notation import read_limited

    record = b'{"match": "1"}\n' * 100_000
    assert read_limited(io.BytesIO(record), "<stdin>", 2**20, records=True).count("\n") == 100_000
    with pytest.raises(DealFileError, match="more than 1 MiB"):
        read_limited(io.BytesIO(b"dealer = 'S'\n" * 100_000), "<stdin>", 2**20, records=True)
    assert read_limited(io.BytesIO(b"{" * 2000), "x", 100, records=True) == "{" * 2000
    with pytest.raises(DealFileError, match=r"^x: more than 100 bytes: too large"):
        read_limited(io.BytesIO(b"a" * 2000), "x", 100)
    with pytest.raises(DealFileError, match=r"not UTF-8 text \(line 2, byte 8\)$"):
        read_limited(io.BytesIO(b"\xef\xbb\xbfab\ncd\xff"), "x.jsonl", records=True)


def test_out_of_memory_is_one_line(monkeypatch):
    """A record read without a limit (``replay``) that fills the memory ends in one line."""
    def no_room(name, limit=None, records=False):
        raise MemoryError

    monkeypatch.setattr("cli.replaying.read_text", no_room)
    result = run("replay", "records.jsonl")
    assert result.exit_code == 1 and result.stderr == "allfives: error: out of memory\n"


def test_out_of_memory_for_the_engines_table_says_so(monkeypatch):
    """The engine's table that finds no memory (a large table_bits, many workers) is named."""
    pytest.importorskip("solver.search")

    class NoRoom:
        def __init__(self, table_bits=20):
            raise MemoryError("no memory for the transposition table")

    monkeypatch.setattr("solver.search.Solver", NoRoom)
    # (and no table made by a test before in this process, which the cheater would share)
    monkeypatch.setattr("solver.players._local", threading.local())
    result = run("match", "cheater", "heuristic", "--deals", "1")
    assert result.exit_code == 1
    assert result.stderr == "allfives: error: out of memory: no memory for the transposition table\n"


#: More digits than Python's int reads at once (4,300): it was a traceback.
HUGE = "1" * 4301


@pytest.mark.parametrize("command, name, said", [
    ("solve", f"positions.txt:{HUGE}", "positions.txt:111111…111111 (4301 digits): no file "
                                       "holds so many lines"),
    ("advise", f"positions.txt:{HUGE}", "positions.txt:111111…111111 (4301 digits): no file "
                                        "holds so many lines"),
    ("solve", f"two-player.toml#{HUGE}", "two-player.toml#111111…111111 (4301 digits): no "
                                         "file holds so many deals"),
    ("analyze", f"match.jsonl#{HUGE}", "match.jsonl#111111…111111 (4301 digits): no file "
                                       "holds so many deals"),
    ("replay", f"match.jsonl#{HUGE}", "match.jsonl#111111…111111 (4301 digits): no file "
                                      "holds so many deals"),
])
def test_a_deal_number_of_thousands_of_digits_is_one_line(command, name, said):
    line = one_error_line(run(command, f"{EXAMPLES}/{name}"))
    assert line.endswith(said) and len(line) < 100 + len(str(EXAMPLES))   # (the path whole)


def test_a_deal_number_of_thousands_of_leading_zeros_is_the_number():
    result = run("solve", f"{EXAMPLES}/positions.txt:{'0' * 5000}3", "--json")
    assert result.exit_code == 0 and "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [["deal", "--seed", HUGE],
                                  ["solve", "two-player.toml", "--node-limit", HUGE],
                                  ["match", "random", "random", "--deals", HUGE]])
def test_an_option_of_thousands_of_digits_says_how_many_are_read(args):
    args = [f"{EXAMPLES}/{a}" if a.endswith(".toml") else a for a in args]
    line = one_error_line(run(*args))
    assert f"{args[-2]}: a number of more than 4,300 digits: too large" in line, line


def test_a_player_option_of_hundreds_of_digits_is_one_line():
    line = one_error_line(run("match", f"pimc:worlds={'9' * 400}", "random"))
    assert line.endswith("99 is not a whole number from 1 to 100000") and len(line) < 200


def test_an_answer_of_thousands_of_digits_is_asked_again():
    from clirun import PUZZLES

    result = run("puzzle", "play", PUZZLES / "001-save-the-ten.toml", input=f"{HUGE}\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert "there is no number 111111…111111 (4301 digits): choose 1 to " in result.stdout


def test_an_answer_line_of_thousands_of_characters_is_cut_and_asked_again():
    from clirun import PUZZLES

    result = run("puzzle", "play", PUZZLES / "001-save-the-ten.toml",
                 input="x" * 50_000 + "\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert "unknown answer 'xxx" in result.stdout and "Not solved (stopped)." in result.stdout
    assert result.stdout.count("x") < 10_100     # (the answer read: its first 10,000 characters)


@pytest.mark.parametrize("command", [["play", "--seed", "1"], ["puzzle", "play", "001"]])
def test_an_answer_line_without_end_is_the_end_of_the_answers(command, tmp_path):
    """A line of answers that never ends (standard input from /dev/zero) is read no further than
    a MiB: then it is the end of the answers, as at the end of the input (it had filled the
    memory)."""
    from clirun import PUZZLES

    if command[0] == "puzzle":
        command = ["puzzle", "play", PUZZLES / "001-save-the-ten.toml"]
    else:
        command = [*command, "--record", tmp_path / "games.jsonl"]
    result = run(*command, input="\0" * (3 << 20))
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert "an answer line of more than 1 MiB: taken as the end of the answers" in result.stderr


@pytest.mark.parametrize("command", [["solve"], ["analyze"], ["replay"], ["advise"],
                                     ["puzzle", "check"], ["puzzle", "show"]])
def test_a_loop_of_links_says_so(tmp_path, command):
    """A name that is a loop of links is not 'no such file'."""
    (tmp_path / "one").symlink_to(tmp_path / "two")
    (tmp_path / "two").symlink_to(tmp_path / "one")
    line = one_error_line(run(*command, tmp_path / "one"))
    assert line.endswith("one: Too many levels of symbolic links"), line


@pytest.mark.parametrize("command", [["play", "--seed", "7"],
                                     ["match", "heuristic", "random", "--deals", "2"]])
def test_a_record_named_by_a_loop_of_links_says_so(tmp_path: Path, command: list[str]):
    """``play`` took such a record's name apart with a traceback (a symlink loop)."""
    (tmp_path / "one").symlink_to(tmp_path / "two")
    (tmp_path / "two").symlink_to(tmp_path / "one")
    assert one_error_line(run(*command, "--record", tmp_path / "one", input="quit\n")) == \
        f"allfives: error: --record: {tmp_path / 'one'}: Too many levels of symbolic links"


@pytest.mark.parametrize("command", [["solve"], ["puzzle", "check"], ["puzzle", "show"]])
def test_a_file_name_of_thousands_of_characters_is_shortened(tmp_path, command):
    name = str(tmp_path / ("x" * 3000 + ".toml"))
    line = one_error_line(run(*command, name))
    assert "(3" in line and " characters)" in line and len(line) < 200


@pytest.mark.parametrize("command", [["play", "--seed", "7"], ["match", "heuristic", "random",
                                                                 "--deals", "2"]])
def test_a_record_name_too_long_is_named_by_its_option_and_shortened(tmp_path, command):
    """play said the name without --record (an error of the file system, as the first check
    asked the name); match named the option but printed the whole name."""
    name = str(tmp_path / ("x" * 300 + ".jsonl"))
    line = one_error_line(run(*command, "--record", name, input="quit\n"))
    assert line.startswith("allfives: error: --record: '") and line.endswith(
        " characters): File name too long") and len(line) < 200


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_a_one_line_position_with_no_seat_first_says_so(command, tmp_path):
    """'X:AK.5.-.- ...' was read as a file name: 'No such file or directory'."""
    result = run(command, "X:AK.5.-.- QJ.4.-.- trump=H")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "allfives: error: <argument>: no such file, and not a one-line " \
                            "position: X: is no seat (a position starts N:, E:, S: or W:)\n"
    several = run(command, "N:AK.5.-.- QJ.4.-.- trump=H\nN:AK.5.-.- QJ.4.-.- trump=S")
    assert "is no seat" not in several.stderr       # (N: is one: this is no one-line position)
    named = tmp_path / "X:AK.5.-.- QJ.4.-.- trump=H"       # a file so named is read as one
    named.write_text("N:AK.5.-.- QJ.4.-.- trump=H\n", encoding="utf-8")
    assert run("solve", named).exit_code == 0


def test_a_position_to_advise_on_with_no_seat_first_names_the_seat():
    """'Q:KQ.T.-.- - trump=S' was only 'not a one-line position', the seat unnamed."""
    result = run("advise", "Q:KQ.T.-.- - trump=S", "--seat", "N")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "allfives: error: Q:KQ.T.-.- - trump=S: no such file, and not a " \
                            "one-line position: Q: is no seat (a position starts N:, E:, S: " \
                            "or W:)\n"


@pytest.mark.parametrize("padding", [" " * 2**20, "# " + "x" * 2**20])
def test_a_one_line_position_of_megabytes_is_refused_with_its_comment(tmp_path, padding):
    """A line padded with spaces or a comment past the megabyte was read (its spaces and
    comment left out before the size was told), where a TOML deal so padded is refused; a
    line picked by its name is read alone, another's size none of its own."""
    line = "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H"
    path = tmp_path / "deals.txt"
    path.write_text(f"{line}\n{line} {padding}\n", encoding="utf-8")
    result = run("solve", path)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"allfives: error: {path}:2: {len(line) + 1 + len(padding):,} " \
                            f"characters, more than 1,048,576: too large for one deal\n"
    assert run("solve", f"{path}:1", "--json").exit_code == 0


@pytest.mark.parametrize("command", [["solve"], ["puzzle", "check"], ["puzzle", "show"]])
def test_a_deal_of_megabytes_is_refused_before_it_is_read(tmp_path: Path, command: list[str]):
    """A deal (or puzzle) of 60 MB, its play a long list, took TOML's reader 38 s and 1.2 GB
    before its first mistake was said (puzzle check ran out of its minute at 2.4 GB); one deal
    holds some hundreds of characters, and more than a megabyte is refused as it is read."""
    text = (EXAMPLES / "two-player.toml").read_text(encoding="utf-8")
    path = tmp_path / "big.toml"
    path.write_text(text.replace("[hands]", "# " + "x" * 2**20 + "\n[hands]"), encoding="utf-8")
    result = run(*command, path)
    assert result.exit_code == (1 if command == ["puzzle", "check"] else 2)
    said = f"{path}: {len(path.read_text(encoding='utf-8')):,} characters, more than 1,048,576: " \
           f"too large for one deal"
    assert said in result.stdout + result.stderr
    several = tmp_path / "several.toml"         # a file of many deals is many documents
    several.write_text("\n# ---\n".join([text] * 5000), encoding="utf-8")
    assert len(several.read_text(encoding="utf-8")) > 2**20
    assert run("solve", f"{several}#4999", "--json").exit_code == 0


# ---- control characters ---------------------------------------------------------------------

#: A puzzle of the collection, its [puzzle.evidence] table last.
PUZZLE = PUZZLES / "001-save-the-ten.toml"


@pytest.mark.parametrize("command", [["puzzle", "show"], ["puzzle", "show", "--format", "svg"],
                                     ["puzzle", "play"]])
def test_a_title_with_a_control_character_is_refused(tmp_path: Path, command: list[str]):
    """An escape sequence in a title reached the terminal (ESC[2J clears the screen) and made
    the SVG no XML; a line break split the title: one line now, the character escaped."""
    path = tmp_path / "p.toml"
    path.write_text(PUZZLE.read_text(encoding="utf-8").replace(
        'title = "Save the ten"', 'title = "Save\\u001b[2J the ten"'), encoding="utf-8")
    result = run(*command, path)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"allfives: error: {path}: puzzle.title: a control character "
                             f"('\\x1b') in 'Save\\x1b[2J the ten': a title is a line of plain "
                             f"text\n")
    sheet = run("puzzle", "show", PUZZLE, "--format", "html", "--title", "Sheet\x1b[2J")
    assert sheet.exit_code == 2 and "--title: a control character ('\\x1b')" in sheet.stderr


def test_a_players_name_with_a_control_character_is_refused(tmp_path: Path):
    record = (EXAMPLES / "match.jsonl").read_text(encoding="utf-8").replace(
        '"N": "heuristic"', '"N": "heu\\u001b[2Jristic\\nX"', 1)
    path = tmp_path / "m.jsonl"
    path.write_text(record, encoding="utf-8")
    result = run("replay", path)
    assert result.exit_code == 2 and result.stdout == ""
    assert "players.N: a control character ('\\x1b') in 'heu\\x1b[2Jristic\\nX'" in \
        result.stderr and "\x1b" not in result.stderr


@pytest.mark.parametrize("name, escaped", [
    ("m\u001b]0;PWNED\u0007\u001b[2J", "'m\\x1b]0;PWNED\\x07\\x1b[2J'"),
    ("ok\u202eabc", "'ok\\u202eabc'"),
    ("lone\ud800", "'lone\\ud800'")])
def test_a_match_name_or_a_players_name_that_is_no_plain_text_is_refused(tmp_path: Path, name,
                                                                         escaped):
    """A record's match name, printed as its heading by replay, passed an escape sequence to
    the terminal (it cleared the screen and set the window's title), and a right-to-left
    override or half a surrogate pair passed as text; names were checked for control
    characters alone."""
    import json

    lines = (EXAMPLES / "match.jsonl").read_text(encoding="utf-8").splitlines()
    for key in ("match", "players"):
        path = tmp_path / f"{key}.jsonl"
        records = [json.loads(line) for line in lines]
        for record in records:
            if key == "match":
                record["match"] = name
            else:
                record["players"]["N"] = name
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        result = run("replay", path)
        assert result.exit_code == 2 and result.stdout == ""
        where = "match" if key == "match" else "deal 1, players.N"
        assert f"{path}:1: {where}: a control character" in result.stderr
        assert f"in {escaped}: a name is a line of plain text" in result.stderr
        assert result.stderr.isascii() and "\x1b" not in result.stderr


def test_a_files_name_is_printed_with_its_control_characters_escaped(tmp_path: Path):
    """The name of a file read was printed as it is, in the headings of solve, analyze,
    advise and replay and in puzzle check's problems: an escape sequence in it reached the
    terminal."""
    odd = "x\x1b]0;T\x07\x1b[2Jy"
    deal = tmp_path / f"{odd}.toml"
    deal.write_text((EXAMPLES / "two-player.toml").read_text(encoding="utf-8"), encoding="utf-8")
    hidden = tmp_path / f"{odd}-hidden.toml"
    hidden.write_text((EXAMPLES / "hidden" / "south.toml").read_text(encoding="utf-8"),
                      encoding="utf-8")
    record = tmp_path / f"{odd}.jsonl"
    record.write_text((EXAMPLES / "match.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    puzzle = tmp_path / f"{odd}-puzzle.toml"
    puzzle.write_text(PUZZLE.read_text(encoding="utf-8").replace("target = ", "target = 1 + "),
                      encoding="utf-8")
    untitled = tmp_path / f"{odd}-untitled.toml"      # shown under its file's name
    untitled.write_text("\n".join(line for line in PUZZLE.read_text(encoding="utf-8").splitlines()
                                  if not line.startswith("title")), encoding="utf-8")
    shown = "x\\x1b]0;T\\x07\\x1b[2Jy"
    for command in (["solve", deal], ["analyze", record], ["advise", hidden],
                    ["replay", record], ["puzzle", "check", puzzle],
                    ["puzzle", "show", untitled]):
        result = run(*command)
        assert "\x1b" not in result.stdout + result.stderr, command
        assert shown in result.stdout, command
    index = run("puzzle", "index", untitled).stdout     # (the title's cell escapes \ and [)
    assert "\x1b" not in index and r"[x\\x1b\]0;T\\x07\\x1b\[2Jy-untitled]" in index


def test_a_byte_of_a_files_name_that_is_no_text_is_printed_as_that_byte(tmp_path: Path):
    """A name's byte that is no UTF-8 (\\xff) reaches Python as a stand-in character, which
    was printed as its escape ``\\udcff``: the byte is written as itself now."""
    deal = tmp_path / "deal\udcff.toml"
    try:
        deal.write_text((EXAMPLES / "two-player.toml").read_text(encoding="utf-8"),
                        encoding="utf-8")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes no name that is not UTF-8")
    assert os.fsencode(deal).endswith(b"deal\xff.toml")
    solved = run("solve", deal)
    assert solved.exit_code == 0 and "deal\\xff.toml" in solved.stdout
    missing = run("solve", tmp_path / "gone\udcfe.toml")
    assert missing.exit_code == 2
    assert missing.stderr.endswith("gone\\xfe.toml: No such file or directory\n")
    assert "udc" not in solved.stdout + missing.stderr
    # (a control of U+0080 .. U+009F, which repr writes as such a byte, is told apart)
    from solver.errors import without_controls
    assert without_controls("a\x85b\udc85\x1b") == "a\\u0085b\\x85\\x1b"


def test_a_puzzle_files_name_cannot_break_out_of_its_link_in_the_index(tmp_path: Path):
    """puzzle index wrote a file's name into a Markdown link as it is, in angle brackets:
    ``">`` closed them, and the rest of the name was HTML (a script tag), or a line break and
    ``|`` a new row; the name is now written with percent escapes where it could end the
    link, the cell or begin a tag."""
    folder = tmp_path / "set"
    folder.mkdir()
    text = PUZZLE.read_text(encoding="utf-8")
    (folder / '001-"><script>alert(1)<script>.toml').write_text(text, encoding="utf-8")
    (folder / "002-c\nd|e) [x](y.toml").write_text(text.replace("Save the ten", "Two"),
                                                     encoding="utf-8")
    (folder / "003-a#b?c&d.toml").write_text(text.replace("Save the ten", "Three"),
                                             encoding="utf-8")
    (folder / "javascript:alert(document.domain).toml").write_text(
        text.replace("Save the ten", "Four"), encoding="utf-8")
    result = run("puzzle", "index", folder)
    assert result.exit_code == 0, result.stderr
    assert "<script" not in result.stdout and "](y.toml" not in result.stdout
    assert "(001-%22%3E%3Cscript%3Ealert%281%29%3Cscript%3E.toml)" in result.stdout
    assert "(002-c%0Ad%7Ce%29%20%5Bx%5D%28y.toml)" in result.stdout
    assert "(003-a%23b%3Fc%26d.toml)" in result.stdout      # (# and ? end a file's part of a URL)
    # (a colon made the name a URL of its own, a script's where a renderer let it through)
    assert "(javascript%3Aalert%28document.domain%29.toml)" in result.stdout
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == 4 and all(row.count("|") == 8 for row in rows)


def test_what_is_no_plain_text_is_told_apart_from_text_in_any_script():
    """The characters refused in names and titles, against those of ordinary text: emoji and
    their joiners, accents, CJK, and the direction marks of Hebrew, Arabic and Persian."""
    from solver.errors import control_in

    for text in ("José", "漢字", "👨\u200d👩\u200d👧", "🇫🇷", "1\ufe0f\u20e3", "עברית\u200f",
                 "سلام\u061c", "a\u200eb", "soft\u00adhyphen", "\ufeffbom", "\U000ffffd"):
        assert control_in(text) is None, text
    for text, found in (("a\u202eb", "\u202e"), ("a\u2066b", "\u2066"), ("a\u2028b", "\u2028"),
                        ("a\ud800", "\ud800"), ("a\ufffe", "\ufffe"),
                        ("a\U0010ffff", "\U0010ffff"), ("a\x85", "\x85")):
        assert control_in(text) == found, text


def test_a_key_with_a_control_character_is_escaped_in_the_message(tmp_path: Path):
    """The quoted key was escaped, the key's path before it was not: ESC reached stderr."""
    path = tmp_path / "d.toml"
    path.write_text((EXAMPLES / "two-player.toml").read_text(encoding="utf-8") +
                    '\n[options]\n"fo\\u001bo" = 1\n', encoding="utf-8")
    result = run("solve", path)
    assert result.exit_code == 2 and "\x1b" not in result.stderr
    assert f"{path}: options.fo\\x1bo: unknown option 'fo\\x1bo'" in result.stderr


@pytest.mark.parametrize("command", [["solve"], ["puzzle", "make"]])
def test_an_unknown_key_of_the_evidence_is_refused_as_one_of_the_puzzle_is(tmp_path: Path,
                                                                          command: list[str]):
    """solve and puzzle make read [puzzle]'s keys and passed over [puzzle.evidence]'s, which
    puzzle show and check refused."""
    path = tmp_path / "p.toml"
    path.write_text(PUZZLE.read_text(encoding="utf-8") + "foo = 1\n", encoding="utf-8")
    result = run(*command, path)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"allfives: error: {path}: puzzle.evidence: unknown key "
                                    f"'foo' (expected solved_random,")
