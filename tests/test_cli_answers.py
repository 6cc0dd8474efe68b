"""How a person's answer is read from a stream that is no terminal (a file or pipe of answers):
the longest answer and the longest line, the end of the answers, the bytes of a card typed
under the C locale, and how much of an answer a message prints back."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cli.answers import LONGEST_ANSWER, LONGEST_LINE, AnswerError, ask_line, read_answer, shown
from solver.game import Match


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
    read, _ = answers("x" * (3 * LONGEST_LINE // 2) + "\nQS\n")
    assert read == [None]
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


def test_an_answer_is_printed_back_whole_up_to_24_cells():
    assert shown("x" * 24) == "x" * 24
    assert shown("x" * 25) == "x" * 23 + "…"
    assert shown("漢" * 12) == "漢" * 12 and shown("漢" * 13) == "漢" * 11 + "…"


def test_a_card_typed_at_a_call_is_no_card_to_play_yet():
    state = Match(2).new_initial_state(seed=4)
    elder = state.observation(state.current_player())
    assert elder.phase == "elder"
    for typed in ("TH", "10h", "K"):
        with pytest.raises(AnswerError, match="^no card is played yet: stand or beg$"):
            read_answer(typed, elder)
    with pytest.raises(AnswerError, match="^unknown answer 'xyz': type stand"):
        read_answer("xyz", elder)
