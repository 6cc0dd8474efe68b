"""What the person at the table typed, read as an action: a card in any spelling deal files
accept (``TH``, ``th``, ``10h``, ``T♥``), a rank or suit alone when it picks one legal card, the
number of a card in the list of legal ones, a call by name or prefix (``s``, ``b``, ``t``,
``r``), or Enter for a lone legal card.  An answer that names no legal action is an
``AnswerError`` whose message says why, in the player's terms ("you hold a club: follow suit")."""

from __future__ import annotations

import re
import sys

from solver.cards import RANKS, SUIT_NAMES, CardError, card_str, parse_card, parse_suit, \
    rank_of, sort_cards, suit_of, without_selectors
from solver.clock import when_stopped
from solver.errors import counting_number, is_number, lower, number_words, upper
from solver.game import BEG, CALLS, RUN, STAND, TAKE_ONE, Observation
from solver.tricks import follow_rule

#: Rank names for messages, capitalised as the program writes them elsewhere: "you hold no Ten".
RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
              "Queen", "King", "Ace")
SUIT_ONE = ("spade", "heart", "diamond", "club")


#: The most characters of an answer a message quotes.
QUOTED = 24


def shown(text: str, most: int | None = QUOTED) -> str:
    """Typed text as it is printed back: control characters escaped (``\\x1b``), so that no
    answer can move the cursor or clear the screen, and cut to ``most`` cells of the terminal
    (a wide character, as 漢, takes two)."""
    from rich.cells import cell_len, set_cell_size

    safe = "".join(c if c.isprintable() else
                   # a byte that was no UTF-8, kept by the surrogateescape error handler
                   f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF else
                   repr(c)[1:-1] for c in text)
    if most is None or cell_len(safe) <= most:
        return safe
    return set_cell_size(safe, most - 1).rstrip() + "…"


class AnswerError(ValueError):
    """An answer that is no legal action now; the message is the reason."""


def reason(error: AnswerError):
    """Why an answer is asked again, as printed: indented by two, and still so when it wraps."""
    from rich.text import Text

    from .faces import BAD, hanging

    return hanging(Text(f"  {error}", style=BAD))


def choices(obs: Observation) -> list[int]:
    """The legal actions in the order they are listed and numbered: the calls as the game
    orders them, cards as a hand is sorted (suits S H D C, high first)."""
    legal = list(obs.legal_actions)
    if obs.phase != "play":
        return legal
    return sort_cards(legal)


def _calls_words(obs: Observation) -> str:
    names = [CALLS[a] for a in obs.legal_actions]
    return " or ".join(names)


def _why_not_card(cards: list[int], obs: Observation, pretty: bool) -> str:
    """Why ``cards`` (one named, or those of a rank or suit typed alone, all held) cannot be
    played now."""
    faces = [card_str(card, pretty) for card in cards]
    face = " and ".join(faces) if len(faces) <= 2 else " ".join(faces)
    if obs.phase != "play":
        return f"no card is played yet: {_calls_words(obs)}"
    if cards[0] not in obs.hand:
        played = any(card == cards[0] for _, card in obs.play)
        return f"{face} is played already" if played else f"you do not hold {face}"
    n = obs.players
    led = obs.play[len(obs.play) // n * n][1]
    suit = suit_of(led)
    # (to a plain suit the rule allows a trump too: no choice to offer a hand without one)
    trumps = any(suit_of(card) == obs.trump for card in obs.hand)
    assert obs.trump is not None        # (the play: trumps are fixed)
    must = follow_rule(led, obs.trump, obs.rules.strict_follow) if trumps else "follow suit"
    return f"you hold a {SUIT_ONE[suit]}: {must} ({face} may not be played to " \
           f"{card_str(led, pretty)} led)"


def _the_one(legal: list[int], obs, fits, one: str, many: str, pretty: bool) -> int:
    """The legal card that ``fits`` (a rank or a suit typed alone): the only one, or a re-ask
    that says which are legal, or why the one held may not be played, or that none is held."""
    matches = [c for c in legal if fits(c)]
    if matches:
        return _one_of(matches, one, pretty)
    held = [c for c in sort_cards(obs.hand) if fits(c)]
    if held:
        raise AnswerError(_why_not_card(held, obs, pretty))
    raise AnswerError(f"you hold no {many}")


def _one_of(matches: list[int], what: str, pretty: bool) -> int:
    if len(matches) == 1:
        return matches[0]
    faces = " and ".join(card_str(c, pretty) for c in matches) if len(matches) == 2 else \
        " ".join(card_str(c, pretty) for c in matches)
    raise AnswerError(f"which {what}? {faces} are legal: type the card ({card_str(matches[0])}) "
                      f"or its number")


def read_answer(text: str, obs: Observation, pretty: bool = True) -> int:
    """The legal action ``text`` names for the seat of ``obs``; an ``AnswerError`` if none."""
    legal = choices(obs)
    word = without_selectors(text).strip()      # (♥️: a suit sign typed as an emoji)
    low = lower(word)
    if not word:
        if len(legal) == 1:
            return legal[0]
        if obs.phase != "play":
            raise AnswerError(f"Enter alone plays only a lone choice: {_calls_words(obs)}")
        raise AnswerError("Enter alone plays only a lone legal card: type a card or its number")
    if is_number(low):
        number = counting_number(low)
        if number is not None and 1 <= number <= len(legal):
            return legal[number - 1]
        choose = "1" if len(legal) == 1 else "1 or 2" if len(legal) == 2 else \
            f"1 to {len(legal)}"
        # a digit is always a number in the list, 10 too: a rank typed alone names no card
        letter = "T" if low == "10" else low
        held = [c for c in legal if obs.phase == "play" and RANKS[rank_of(c)] == letter]
        hint = f" (for {' or '.join(card_str(c, pretty) for c in held)} type " \
            f"{' or '.join(card_str(c).lower() for c in held)})" if held else ""
        raise AnswerError(f"there is no number {number_words(low)}: choose {choose}{hint}")
    if obs.phase in ("elder", "dealer"):
        return _call(word, obs)
    if word == "q":
        # the start of quit as often as a Queen: asked again, never played
        queens = [c for c in legal if RANKS[rank_of(c)] == "Q"]
        raise AnswerError("'q' could be quit or a Queen: type quit to stop" + (
            f", or Q (or the card, {card_str(queens[0])}) to play a Queen" if queens else
            " (no Queen is yours to play)"))
    # a card named in full
    try:
        card = parse_card(word)
    except CardError:
        card = None
    if card is not None:
        if card in legal:
            return card
        raise AnswerError(_why_not_card([card], obs, pretty))
    # a rank alone, or a suit alone
    rank = RANKS.find(upper(word)) if len(word) == 1 else -1
    if rank >= 0:
        return _the_one(legal, obs, lambda c: rank_of(c) == rank, RANK_NAMES[rank],
                        RANK_NAMES[rank], pretty)
    try:
        suit = parse_suit(word) if len(word) == 1 else None
    except CardError:
        suit = None
    if suit is not None:
        return _the_one(legal, obs, lambda c: suit_of(c) == suit, SUIT_ONE[suit],
                        SUIT_NAMES[suit], pretty)
    if _call_named(low):
        raise AnswerError(f"'{shown(word)}' is a call, and the call is over: play a card")
    raise AnswerError(f"unknown answer '{shown(word)}': type a card (TH, 10h, T), its number, or help")


#: The words the table says of each call, which name it too: ``gives one``, ``runs the cards``.
CALL_SAYINGS = {STAND: ("stands",), BEG: ("begs",), TAKE_ONE: ("give-one", "gives-one"),
                RUN: ("runs", "run-the-cards", "runs-the-cards")}


def _call_named(low: str) -> list[int]:
    """The calls ``low`` begins to name: ``t``, ``take one``, ``take_one``, ``takeone``, ``give
    one``; a space only where the call's name has its hyphen (``r u n`` names none)."""
    key = re.sub(r"[\s_-]+", "-", low.strip())
    if not key.strip("-"):
        return []
    return [a for a, name in CALLS.items()
            if any(said.startswith(key) or "-" not in key and
                   said.replace("-", "").startswith(key)
                   for said in (name, *CALL_SAYINGS[a]))]


def _call(word: str, obs: Observation) -> int:
    low = lower(word)
    legal = list(obs.legal_actions)
    named = _call_named(low)
    ours = [a for a in named if a in legal]
    if len(ours) == 1:
        return ours[0]
    if len(ours) > 1:
        raise AnswerError(f"'{shown(word)}' could be {' or '.join(CALLS[a] for a in ours)}")
    if named:
        return _not_now(named[0], obs)
    try:
        parse_card(low)
        is_card = True
    except CardError:
        is_card = len(low) == 1 and upper(low) in RANKS
    if low == "q":      # (the start of quit, and a Queen: no call)
        raise AnswerError(f"'q' could be quit: type quit to stop, or {_calls_words(obs)}")
    if is_card:
        raise AnswerError(f"no card is played yet: {_calls_words(obs)}")
    calls = " or ".join(f"{CALLS[a]} ({CALLS[a][0]})" for a in obs.legal_actions)
    raise AnswerError(f"unknown answer '{shown(word)}': type {calls}, a number, or help")


def _not_now(action: int, obs: Observation) -> int:
    if action == RUN and obs.phase == "dealer" and obs.rules.max_runs == 0:
        raise AnswerError(f"these rules allow no run (max_runs 0): {_calls_words(obs)}")
    raise AnswerError(f"{CALLS[action]} is not your call now: {_calls_words(obs)}")


def is_interactive(stream) -> bool:
    """Whether ``stream`` is this process's standard input on a terminal, where a person types
    the answers (``input`` reads them, with line editing where ``readline`` is there)."""
    try:
        interactive = stream is sys.stdin and stream.isatty()
    except (AttributeError, ValueError):   # (a stream closed, or none at all)
        return False
    if interactive:
        try:
            import readline  # noqa: F401  (line editing for input())
        except ImportError:
            pass
    return interactive


class _Stoppable:
    """A prompt read by ``input`` with line editing, through Ctrl-Z and ``fg``.  Python has
    ``readline`` leave signals to it, so the line editor would not give the terminal back as
    the program stops, nor take it up again after ``fg``: the answer's keys then came out as
    they are (``^[[D``) and the prompt was not shown again.  Here the editor's own calls do
    that (its C library's, which the ``readline`` module does not offer); where they are not
    there (another line editor), the prompt and what was typed are shown again."""

    def __init__(self, prompt: str) -> None:
        self.prompt = prompt
        self.library = None
        line_editing = sys.modules.get("readline")
        if line_editing is not None:
            import ctypes

            try:
                library = ctypes.CDLL(line_editing.__file__)
                for name in ("rl_cleanup_after_signal", "rl_reset_after_signal",
                             "rl_forced_update_display"):
                    getattr(library, name)
            except (AttributeError, OSError, TypeError):
                library = None
            self.library = library

    def stopping(self) -> None:
        if self.library is not None:
            self.library.rl_cleanup_after_signal()

    def going_on(self) -> None:
        if self.library is not None:
            self.library.rl_reset_after_signal()
            self.library.rl_forced_update_display()
            return
        typed = sys.modules["readline"].get_line_buffer() if "readline" in sys.modules else ""
        try:
            sys.stdout.write(self.prompt + typed)
            sys.stdout.flush()
        except (OSError, ValueError):       # (the terminal gone)
            pass


#: The characters of an answer read from a stream: more is none (the rest of its line let go).
LONGEST_ANSWER = 10_000
#: A line of answers read no further than this: past it, the end of the answers.
LONGEST_LINE = 1 << 20


def ask_line(prompt: str, console, stream, interactive: bool) -> str | None:
    """One line of a person's input, without its newline; None at the end of input.  On a
    terminal the line is read with ``input``; from any other stream the prompt is printed and the
    answer echoed after it, so that a scripted session reads as it would have been typed."""
    if interactive:
        console.file.flush()
        try:
            asked = _Stoppable(prompt)
            with when_stopped(asked.stopping, asked.going_on):
                return _as_utf8(input(prompt), stream)
        except EOFError:
            console.print()
            return None
    console.print(prompt, end="")
    line = stream.readline(LONGEST_ANSWER + 1)
    if not line:
        console.print()
        return None
    if len(line) > LONGEST_ANSWER and not line.endswith("\n"):
        # no answer is so long: the rest of the line is let go (as the answer's own words say
        # it is none), and a line without end, as of /dev/zero, is the end of the answers
        skipped = 0
        while skipped <= LONGEST_LINE:
            rest = stream.readline(1 << 16)
            if not rest or rest.endswith("\n"):
                break
            skipped += len(rest)
        else:
            console.print()
            from .errors import note

            note(f"an answer line of more than {LONGEST_LINE >> 20} MiB: taken as the end of "
                 "the answers")
            return None
        line = line[:LONGEST_ANSWER]
    # (a byte-order mark, as an editor may start a file of answers with: none is a part of
    # any answer)
    line = line.rstrip("\r\n").removeprefix("\ufeff")
    console.print(shown(line, None), markup=False, highlight=False)
    return _as_utf8(line, stream)


def _as_utf8(line: str, stream) -> str:
    """An answer whose bytes the input's encoding did not read (kept as escapes: ASCII, under
    the C locale) read as UTF-8, as a deal file is, if they are: ``A♠`` typed or piped there is
    the card it is; other bytes are kept as they were read, for the answer to be refused."""
    if not any("\udc80" <= c <= "\udcff" for c in line):
        return line
    try:
        return line.encode(getattr(stream, "encoding", None) or "ascii",
                           "surrogateescape").decode("utf-8")
    except (UnicodeError, LookupError):
        return line
