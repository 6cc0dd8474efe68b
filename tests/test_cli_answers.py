"""How a person's answer is read from a stream that is no terminal (a file or pipe of answers):
the longest answer and the longest line, the end of the answers, the bytes of a card typed
under the C locale, and how much of an answer a message prints back."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from cli.answers import LONGEST_ANSWER, LONGEST_LINE, AnswerError, ask_line, is_interactive, \
    read_answer, shown
from solver.cards import parse_cards
from solver.game import BEG, RUN, STAND, TAKE_ONE, Match, Observation
from solver.rules import Rules


def answers(text: str, stream=None) -> tuple[list[str | None], str]:
    """Every answer ``ask_line`` reads from ``text`` up to the end of it (None), and what the
    console printed: each prompt and the answer echoed after it."""
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    stream = stream or io.StringIO(text)
    read: list[str | None] = []
    while not read or read[-1] is not None:
        read.append(ask_line("card? ", console, stream, False))
    return read, out.getvalue()


def elder() -> Observation:
    """The elder hand to stand or beg, two players."""
    state = Match(2).new_initial_state(seed=4)
    return state.observation(state.current_player())


def test_a_stream_that_is_no_terminal_or_none_is_not_interactive(monkeypatch):
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr("sys.stdin", closed)      # (standard input closed: isatty fails)
    assert [is_interactive(stream) for stream in (io.StringIO("QS"), closed, None)] == \
        [False] * 3


def test_an_answer_is_read_up_to_its_line_end_and_the_end_of_the_answers_ends_a_line():
    read, printed = answers("QS\n3c")
    assert read == ["QS", "3c", None]
    assert printed == "card? QS\ncard? 3c\ncard? \n"


@pytest.mark.parametrize("size", [LONGEST_ANSWER, LONGEST_ANSWER + 1, 100_000,
                                  3 * LONGEST_LINE // 4])
def test_an_answer_past_the_longest_is_cut_and_the_next_line_read(size):
    """Up to 10,000 characters an answer is whole; past them it is cut there and the rest of its
    line let go, in pieces, however long, up to 1 MiB: the next answer is the next line."""
    assert LONGEST_ANSWER == 10_000 and LONGEST_LINE == 2**20
    read, _ = answers("x" * size + "\nQS\n")
    assert read == ["x" * LONGEST_ANSWER, "QS", None]


def test_a_line_past_a_mebibyte_is_the_end_of_the_answers(capsys):
    read, printed = answers("x" * (3 * LONGEST_LINE // 2) + "\nQS\n")
    assert read == [None] and printed == "card? \n"
    assert capsys.readouterr().err == \
        "allfives: an answer line of more than 1 MiB: taken as the end of the answers\n"


def test_a_card_typed_in_utf_8_under_the_c_locale_is_the_card():
    """The C locale reads the bytes of ``A♠`` as escapes (ASCII, ``surrogateescape``): they are
    read as UTF-8, as a deal file is; bytes that are no UTF-8 are kept to be refused."""
    stream = io.TextIOWrapper(io.BytesIO("A♠\n".encode() + b"\xff\n"), encoding="ascii",
                              errors="surrogateescape")
    read, printed = answers("", stream)
    assert read == ["A♠", "\udcff", None]
    assert "card? \\xff\n" in printed
    # a stream of text that says no encoding: the bytes as ASCII escapes
    read, _ = answers("A\udce2\udc99\udca0\n")
    assert read == ["A♠", None]


def test_an_answer_is_echoed_as_typed():
    read, printed = answers("[bold]QS\n")
    assert read == ["[bold]QS", None] and printed.startswith("card? [bold]QS\n")


def test_an_answer_is_printed_back_whole_up_to_24_cells():
    """(a byte that was no UTF-8, U+DC80 to U+DCFF as Python reads it, shown as that byte)"""
    assert [shown(c) for c in "\udc7f\udc80\udcff\udd00"] == \
        ["\\udc7f", "\\x80", "\\xff", "\\udd00"]
    assert shown("x" * 24) == "x" * 24
    assert shown("x" * 25) == "x" * 23 + "…"
    assert shown("漢" * 12) == "漢" * 12 and shown("漢" * 13) == "漢" * 11 + "…"


def test_a_call_by_its_first_letter_or_without_its_hyphen():
    assert (read_answer("s", elder()), read_answer("b", elder())) == (STAND, BEG)
    state = Match(2).new_initial_state(seed=4)
    state.apply_action(BEG)
    dealer = state.observation(state.current_player())
    for typed in ("takeone", "take one", "t", "give one", "giveone"):
        assert read_answer(typed, dealer) == TAKE_ONE
    assert read_answer("r", dealer) == RUN


def test_a_number_counts_from_1():
    assert read_answer("1", elder()) == STAND
    with pytest.raises(AnswerError, match="^there is no number 0: choose 1 or 2$"):
        read_answer("0", elder())


def test_three_cards_that_may_not_be_played_are_named_in_a_row():
    """N holds three clubs and the eight of spades, S led the four: clubs alone names three
    cards, none of them legal."""
    hand = tuple(parse_cards("8S AC KC TC"))
    led = parse_cards("4S")[0]
    obs = Observation(
        seat=0, players=2, rules=Rules(), best_of=1, phase="play", current_player=0, game=1,
        deal=1, dealer=0, score=(0, 0), games_won=(0, 0), hand=hand,
        turnups=tuple(parse_cards("2H")), trump=1, calls=(), play=((1, led),), revokes=(),
        pegs=(), legal_actions=hand[:1])
    with pytest.raises(AnswerError, match=re.escape(
            "you hold a spade: follow suit (A♣ K♣ T♣ may not be played to 4♠ led)")):
        read_answer("c", obs)


def test_a_card_typed_at_a_call_is_no_card_to_play_yet():
    asked = elder()
    assert asked.phase == "elder"
    for typed in ("TH", "10h", "K"):
        with pytest.raises(AnswerError, match="^no card is played yet: stand or beg$"):
            read_answer(typed, asked)
    for typed in ("xyz", "x"):
        with pytest.raises(AnswerError, match=f"^unknown answer '{typed}': type stand"):
            read_answer(typed, asked)
