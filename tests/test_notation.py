"""Deal files: the TOML form of FORMAT.md and the one-line form, read, written, round-tripped,
and every malformed file rejected with a message that says where and quotes the token."""

from __future__ import annotations

import io
import re

import random
from pathlib import Path

import pytest

from clirun import EXAMPLES
from solver.cards import ALL_CARDS, card_str, parse_card, parse_cards, parse_suit, sort_cards
from solver.deal import Deal, DealFileError, Position, load, load_positions, read_positions
from solver.notation import BOM, MAX_RECORD_LINE, SEPARATOR, check_deal_size, check_toml_text, \
    is_line_form, line_str, named_layouts, parse_line, parse_toml, read_layouts, read_limited, \
    text_lines, toml_str
from solver.rules import PRESETS, Rules

FORMAT_EXAMPLE = '''\
# A two-player deal, solved from the first lead.
rules = "all-fives"        # a preset from RULES.md; optional, this is the default
dealer = "S"               # optional; default: the last seat. The elder hand leads first.
trump = "H"                # or: turnup = "7H" (trumps = the turn-up's suit)

[hands]                    # the hands as dealt (after any runs), one key per seat
N = "AH KH 5H 9C 2D 3S"
S = "TH QH 4H 8C JD 7S"

# Optional from here on.
play = ["AH", "4H", "9C"]  # cards played so far, in order; trick leaders follow from the rules

[options]                  # any rule option from RULES.md, over the preset
follow = "strict"

[score]                    # match score before this deal (for the `win` objective)
N = 52
S = 58
'''

THREE = '''\
dealer = "E"
turnup = "7H"
play = ["2S", "AS", "KS"]

[hands]
N = "AS 5H 9C"
E = "KS QH 2D"
S = "2S 3H 4C"
'''

#: Four one-card hands, partnerships NS and EW; a test adds its own [score].
FOUR = 'trump = "S"\n[hands]\nN = "AS"\nE = "KS"\nS = "QS"\nW = "JS"\n'


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


# ---- random positions -----------------------------------------------------------------------

OPTION_CHOICES = {
    "follow": ["trump-anytime", "strict"], "capture": [True, False], "high": [True, False],
    "low": [True, False], "jack": [True, False], "game": [True, False],
    "low_to": ["holder", "captor"], "game_counts_fives": [True, False],
    "five_for_five": [True, False], "turnup_jack": [True, False], "max_runs": [None, 0, 2, 5],
    "target": [7, 31, 61, 121], "finish": ["peg-out", "hand-end"], "skunk": [True, False],
    "revoke_penalty": ["offender", "others"],
}


def random_position(rng: random.Random) -> Position:
    """Shuffle a pack, deal, then play a random number of legal cards."""
    players = rng.choice([2, 3, 4])
    size = rng.choice([1, 2, 3, 6, 6, 9, 12, (52 - 1) // players])
    pack = list(ALL_CARDS)
    rng.shuffle(pack)
    hands = tuple(tuple(sort_cards(pack[i * size:(i + 1) * size])) for i in range(players))
    turnup = pack[players * size]
    rules = Rules.preset(rng.choice(list(PRESETS)))
    changes = {name: rng.choice(OPTION_CHOICES[name])
               for name in rng.sample(sorted(OPTION_CHOICES), rng.randrange(4))}
    rules = rules.replace(**changes)
    sides = 2 if players == 4 else players
    # below 0 too: a revoke called late costs its side 3 points, whatever its score
    score = tuple(rng.randrange(-3, rules.target) for _ in range(sides)) \
        if rng.random() < 0.5 else None
    trump = turnup >> 4 if rng.random() < 0.6 else rng.randrange(4)
    deal = Deal(hands, trump, rng.randrange(players), rules,
                turnup if turnup >> 4 == trump else None, score)
    position = deal.position()
    for _ in range(rng.randrange(players * size + 1)):
        position = position.after(rng.choice(position.legal_moves()))
    return position


@pytest.mark.parametrize("seed", range(300))
def test_round_trips_on_random_positions(seed):
    position = random_position(random.Random(seed))
    toml, line = position.to_toml(), position.to_line()
    assert Position.from_toml(toml) == position
    assert Position.from_line(line) == position
    assert Position.from_toml(toml).to_line() == line
    assert Position.from_line(line).to_toml() == toml
    assert "\n" not in line
    # what is read back plays on the same way
    back = Position.from_toml(toml)
    assert back.hands == position.hands and back.to_move == position.to_move
    assert back.legal_moves() == position.legal_moves()


def test_round_trips_cover_what_they_should():
    positions = [random_position(random.Random(seed)) for seed in range(300)]
    assert {p.deal.players for p in positions} == {2, 3, 4}
    assert any(p.current.cards for p in positions)       # mid-trick
    assert any(p.is_over for p in positions)             # played out
    assert any(not p.play for p in positions)            # fresh deals
    assert any(p.deal.turnup is None for p in positions)
    assert any(p.deal.score is not None for p in positions)
    assert {p.deal.rules.preset_name for p in positions} == set(PRESETS)
    assert any(p.deal.rules.max_runs is None and "max_runs" in p.deal.rules.changes()
               for p in positions)


# ---- reading TOML ---------------------------------------------------------------------------

def test_the_example_of_format_md():
    position = Position.from_toml(FORMAT_EXAMPLE, "deal.toml")
    deal = position.deal
    assert deal.players == 2
    assert deal.hands == (tuple(sort_cards(cards("AH KH 5H 9C 2D 3S"))),
                          tuple(sort_cards(cards("TH QH 4H 8C JD 7S"))))
    assert deal.trump == parse_suit("H") and deal.turnup is None
    assert deal.dealer == 1 and deal.elder == 0
    assert deal.rules == Rules.preset("all-fives", follow="strict")
    assert deal.score == (52, 58)
    # ``play`` written after [hands] lands in that table in TOML; it is read as the play
    assert position.play == cards("AH 4H 9C")
    assert len(position.completed) == 1 and position.completed[0].winner == 0
    assert position.to_move == 1


def test_a_three_player_file_with_a_turnup():
    position = Position.from_toml(THREE)
    deal = position.deal
    assert deal.seats == "NES" and deal.dealer == 1 and deal.elder == 2
    assert deal.turnup == parse_card("7H") and deal.trump == parse_suit("H")
    assert deal.rules == Rules() and deal.score is None
    assert position.completed[0].leader == 2
    assert position.completed[0].winner == 0  # AS wins the spade trick


def test_defaults_and_alternative_spellings():
    position = Position.from_toml('''
trump = "♥"
play = "10s, ks"
[hands]
n = ["10S", "h2"]
s = "k.-.-.3"
''')
    deal = position.deal
    assert deal.dealer == 1 and deal.rules == Rules() and deal.score is None
    assert deal.hands == (tuple(sort_cards(cards("TS 2H"))), tuple(sort_cards(cards("KS 3C"))))
    assert position.play == cards("TS KS")


@pytest.mark.parametrize("given, words", [('"stand"', ("stand",)),
                                          ('"Beg, Take-one"', ("beg", "take-one")),
                                          ('["beg", "take-one"]', ("beg", "take-one")),
                                          ('"beg run"', ("beg", "run")),
                                          ('["beg, take one"]', ("beg", "take-one")),
                                          ('"beg take_one"', ("beg", "take-one"))])
def test_the_calls_read_and_write_in_both_forms(given, words):
    """``calls`` (for advice: the deal as solved is the same with or without them)."""
    from solver.notation import line_str, parse_line, parse_toml, toml_str

    hands = '[hands]\nN = "AH KH 5H 9C 2D 3S"\nS = "TH QH 4H 8C JD 7S"\n'
    aside = ""
    if words[-1] == "run":
        hands = hands.replace('3S"', '3S 2S 4S 5S"').replace('7S"', '7S 6S 8S 9S"')
        aside = 'aside = ["8D"]\n'
    text = f'dealer = "S"\nturnup = "7H"\n{aside}calls = {given}\n{hands}'
    layout = parse_toml(text, "deal.toml")
    assert layout.calls == words
    assert parse_toml(toml_str(layout), "deal.toml") == layout
    assert parse_line(line_str(layout), "deal.toml") == layout
    assert f"calls={','.join(words)}" in line_str(layout)
    bare = parse_toml(text.replace(f"calls = {given}\n", ""), "deal.toml")
    assert layout == bare._replace(calls=words)
    assert Position.from_toml(text) == Position.from_toml(toml_str(bare))


def test_trump_and_turnup_together_when_they_agree():
    position = Position.from_toml(THREE.replace('turnup = "7H"', 'turnup = "7H"\ntrump = "h"'))
    assert position.deal.turnup == parse_card("7H") and position.deal.trump == 1


def test_four_player_score_by_either_partner():
    assert Position.from_toml(FOUR + "[score]\nS = 40\nN = 40\nW = 12\n").deal.score == (40, 12)


def test_options_over_a_preset():
    position = Position.from_toml('''
rules = "classic"
trump = "C"
[hands]
N = "AS"
S = "KS"
[options]
follow = "trump-anytime"
max_runs = "none"
target = 31
jack = true
''')
    rules = position.deal.rules
    assert rules.preset_name == "classic"
    assert rules.changes() == {"follow": "trump-anytime", "jack": True, "target": 31}
    assert rules.max_runs is None


def test_load_names_the_file(tmp_path: Path):
    path = tmp_path / "deal.toml"
    path.write_text(FORMAT_EXAMPLE, encoding="utf-8")
    assert load(path) == Position.from_toml(FORMAT_EXAMPLE)
    assert load(str(path)) == Position.from_toml(FORMAT_EXAMPLE)
    path.write_text(FORMAT_EXAMPLE.replace("9C 2D", "9C ZZ"), encoding="utf-8")
    with pytest.raises(DealFileError) as caught:
        load(path)
    assert str(caught.value) == f"{path}: hands.N: unknown card 'ZZ'"


def test_load_of_a_missing_file_names_it(tmp_path: Path):
    path = tmp_path / "nowhere.toml"
    with pytest.raises(DealFileError, match=f"^{re.escape(str(path))}: No such file or directory$"):
        load(path)
    with pytest.raises(DealFileError, match=r": Is a directory$"):
        load_positions(tmp_path)


# ---- malformed TOML: the message says which file, which key and which token ----------------

BASE = '''\
dealer = "S"
trump = "H"

[hands]
N = "AH KH 5H 9C 2D 3S"
S = "TH QH 4H 8C JD 7S"
'''


def swap(old: str, new: str, text: str = BASE) -> str:
    assert old in text
    return text.replace(old, new)


MALFORMED = [
    # a card twice: in two hands, in one hand
    (swap("JD 7S", "JD AH"), "deal.toml: hands.S: card 'AH' is also in N's hand"),
    (swap("2D 3S", "2D AH"), "deal.toml: hands.N: card 'AH' appears twice"),
    # unequal hands
    (swap(' JD 7S"', ' JD"'), "deal.toml: hands.S: 5 cards, but N has 6"),
    (swap('N = "AH KH 5H 9C 2D 3S"', 'N = ""'), "deal.toml: hands.N: the hand is empty"),
    # unknown seats
    (swap("S = ", "X = "), "deal.toml: hands.X: unknown seat 'X'"),
    # a hand left out of a larger table (or one too many: the message says both)
    (BASE + 'W = "2C 3C 4C 5C 6C 7C"\n',
     "deal.toml: hands: no hand for E: N S W are 3 of the seats of a 4-player table (N E S W), "
     "and a 3-player table is N E S"),
    (swap('S = "TH QH 4H 8C JD 7S"\n', 'E = "TH QH 4H 8C JD 7S"\n'),
     "deal.toml: hands: no hand for S: N E are 2 of the seats of a 3-player table (N E S), and "
     "a 2-player table is N S"),
    (swap('S = "TH QH 4H 8C JD 7S"\n', ''),
     "deal.toml: hands: a table has 2, 3 or 4 players, not 1"),
    (swap('dealer = "S"', 'dealer = "W"'), "deal.toml: dealer: no seat 'W' at a 2-player table"),
    # a holding keeps no order, which the cards played and set aside need
    ('play = "-.A.-.-"\n' + BASE,
     "deal.toml: play: '-.A.-.-' is a hand's holding, which keeps no order: the cards are "
     "written in turn (\"AH 3C\")"),
    ('aside = "2H.-.-.-"\nturnup = "7C"\n' + BASE,
     "deal.toml: aside: '2H.-.-.-' is a hand's holding, which keeps no order"),
    # the command line's spec of rules with options, written in a file
    ('rules = "strict:skunk=true"\n' + BASE,
     "deal.toml: rules: 'strict:skunk=true': here rules name a preset alone; its options go in "
     "an [options] table"),
    # unknown keys
    (BASE + "foo = 1\n", "deal.toml: hands.foo: unknown seat 'foo'"),
    ("foo = 1\n" + BASE, "deal.toml: unknown key 'foo'"),
    ("players = 2\n" + BASE, "deal.toml: unknown key 'players'"),
    # a hand written above [hands], or with no [hands] at all
    ('N = "AH"\n' + BASE, "deal.toml: unknown key 'N' (a hand goes in the [hands] table: "
                          "[hands] on a line, then N = ...)"),
    ('s = "AH"\n', "deal.toml: unknown key 's' (a hand goes in the [hands] table"),
    (BASE + "[options]\ncolour = 'red'\n", "deal.toml: options.colour: unknown option 'colour'"),
    (BASE + "[options]\nfollow = 'loose'\n", "deal.toml: options.follow: "),
    (BASE + "[options]\ncapture = 'maybe'\n", "deal.toml: options.capture: "),
    # a rule option written as its type, as TOML spells it: no string for true or false or a
    # number, nor a number for true or false
    (BASE + "[options]\ncapture = 'no'\n",
     'deal.toml: options.capture: expected true or false, not "no"'),
    (BASE + "[options]\ncapture = 0\n", "deal.toml: options.capture: expected true or false, not 0"),
    (BASE + "[options]\ntarget = '61'\n", 'deal.toml: options.target: expected a whole number, '
                                          'not "61"'),
    (BASE + "[options]\nmax_runs = true\n",
     'deal.toml: options.max_runs: expected a whole number or "none", not true'),
    (BASE + "[options]\nfollow = true\n",
     "deal.toml: options.follow: expected a word in quotes, not true"),
    # unknown cards
    (swap("2D 3S", "2D ZZ"), "deal.toml: hands.N: unknown card 'ZZ'"),
    (swap('"AH KH 5H 9C 2D 3S"', '["AH", "KH", "5H", "9C", "2D", "1S"]'),
     "deal.toml: hands.N[5]: unknown card '1S'"),
    (swap('"TH QH 4H 8C JD 7S"', '"T.Q4X.J.8"'), "deal.toml: hands.S: unknown rank 'X'"),
    ('play = ["AH", "XX"]\n' + BASE, "deal.toml: play[1]: unknown card 'XX'"),
    (swap('trump = "H"', 'turnup = "1H"'), "deal.toml: turnup: unknown card '1H'"),
    (swap('trump = "H"', 'trump = "X"'), "deal.toml: trump: unknown suit 'X'"),
    # unknown preset
    ('rules = "pinochle"\n' + BASE, "deal.toml: rules: unknown preset 'pinochle'"),
    # illegal cards in play
    ('play = ["AH", "8C"]\n' + BASE,
     "deal.toml: play[1]: S may not play '8C' to 'AH' led"),
    ('play = ["AH", "KS"]\n' + BASE, "deal.toml: play[1]: 'KS' is not in S's hand"),
    ('play = ["TH"]\n' + BASE, "deal.toml: play[0]: 'TH' is not in N's hand (it is in S's)"),
    ('play = ["AH", "TH", "AH"]\n' + BASE,
     "deal.toml: play[2]: 'AH' is played twice (also play[0])"),
    # trumps
    (swap('trump = "H"', 'trump = "S"\nturnup = "7H"'),
     "deal.toml: trump: 'S' contradicts turn-up '7H'"),
    (swap('trump = "H"', 'turnup = "AH"'), "deal.toml: turnup: 'AH' is also in N's hand"),
    (swap('trump = "H"\n', ''), "deal.toml: no trumps"),
    # not TOML, and wrong types
    (BASE + "this is not toml\n", "deal.toml: not TOML: "),
    # a key given twice, named (it was 'Cannot overwrite a value')
    ("dealer = 'S'\ndealer = 'N'\n" + BASE,
     "deal.toml: not TOML: dealer is given twice (at line 2, column 13)"),
    (BASE.replace("[hands]\n", "[hands]\nS = 'QS'\n"),
     "deal.toml: not TOML: S is given twice (at line 7, column 24)"),
    # a table given twice, in Python's words no longer; and a line meant to part two deals
    (BASE + "[hands]\n", "deal.toml: not TOML: [hands] is declared twice (at line 7, column 7)"),
    (BASE + "#---\n" + BASE,
     "deal.toml: not TOML: [hands] is declared twice (at line 11, column 7); line 7 does not "
     "part two deals: a separator is '# ---' alone on its line"),
    ("# -- the deal\n" + BASE + "x = \n", "deal.toml: not TOML: Invalid value (at line 8, "
                                         "column 5)"),
    # a comment above the first deal, or a separator-like line after the key given twice, is
    # not where two deals were meant to part
    ("# -- the deal\n" + BASE + "[hands]\n",
     "deal.toml: not TOML: [hands] is declared twice (at line 8, column 7)"),
    (BASE + "[hands]\n# --- next\n",
     "deal.toml: not TOML: [hands] is declared twice (at line 7, column 7)"),
    (swap('dealer = "S"', 'dealer = 2'), "deal.toml: dealer: expected a string"),
    (swap('N = "AH KH 5H 9C 2D 3S"', 'N = 5'), "deal.toml: hands.N: expected cards"),
    ('play = "AH"\nhands = 3\n', "deal.toml: hands: expected a table"),
    (BASE.replace("[hands]", "[hand]"), "deal.toml: unknown key 'hand'"),
    # an option spelled as the command line lets it be: told how a file spells it
    (BASE + "[options]\nmax-runs = 1\n",
     "deal.toml: options.max-runs: unknown option 'max-runs' (it is spelled max_runs)"),
    (swap('trump = "H"\n', 'trump = "H"\nplay = ["AH"]\n') + 'play = ["AH"]\n',
     "deal.toml: hands.play: play is given twice (in [hands] and as play = [...] above)"),
    (BASE + 'play = ["AH"]\n[play]\nN = "AH"\n',
     "deal.toml: hands.play: play is given twice (in [hands] and as a [play] table)"),
    # scores
    (BASE + "[score]\nN = 3\n", "deal.toml: score: no score for S"),
    (BASE + "[score]\nN = 3\nS = 'ten'\n", "deal.toml: score.S: expected a whole number"),
    (BASE + "[score]\nN = 3\nE = 4\nS = 1\n", "deal.toml: score.E: no seat 'E'"),
    # one seat in two cases: the later was taken, the earlier unseen (N 61 hidden by n 1)
    (BASE + "[score]\nN = 61\nn = 1\nS = 0\n", "deal.toml: score.n: seat N is given twice"),
    (BASE + "[score]\ns = 1\nN = 3\nS = 1\n", "deal.toml: score.S: seat S is given twice"),
    # a key that is no seat at all is told with this table's seats, as [hands]'s E is
    (BASE + "[score]\nN = 3\nX = 1\n",
     "deal.toml: score.X: no seat 'X' at a 2-player table (seats N S)"),
    (BASE + "[score]\nnorth = 3\nS = 1\n",
     "deal.toml: score.north: no seat 'north' at a 2-player table (seats N S)"),
    ("N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H\n", "deal.toml: not TOML: Expected '=' after "
     "a key in a key/value pair (at line 1, column 2); it starts like a one-line position, "
     "which a file not named .toml holds"),
    ('{"position": "<argument>", "seat": "N"}\n', "deal.toml: not TOML: Invalid statement (at "
     "line 1, column 1); it starts like JSON, which a position is not (a deal file is TOML, or "
     "one position on a line)"),
    (BASE + "[score]\nN = true\nS = 1\n",     # as TOML spells it, not as Python does
     "deal.toml: score.N: expected a whole number, not true"),
]


@pytest.mark.parametrize("text, message", MALFORMED)
def test_malformed_files(text, message):
    with pytest.raises(DealFileError) as caught:
        Position.from_toml(text, "deal.toml")
    assert str(caught.value).startswith(message)
    if "not TOML: " in message[:-1]:    # the whole message
        assert str(caught.value) == message
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_partners_must_agree_on_the_score():
    with pytest.raises(DealFileError, match=r"^deal\.toml: score\.S: 41 disagrees"):
        Position.from_toml(FOUR + "[score]\nN = 40\nE = 12\nS = 41\n", "deal.toml")


def test_the_default_source_name():
    with pytest.raises(DealFileError, match=r"^<string>: unknown key 'foo'"):
        Position.from_toml("foo = 1\n")


# ---- writing TOML ---------------------------------------------------------------------------

def test_canonical_toml():
    position = Position.from_toml(FORMAT_EXAMPLE.replace('trump = "H"', 'turnup = "7H"'))
    assert position.to_toml() == '''\
dealer = "S"
trump = "H"
turnup = "7H"
play = ["AH", "4H", "9C"]

[hands]
N = "3S AH KH 5H 2D 9C"
S = "7S QH TH 4H JD 8C"

[options]
follow = "strict"

[score]
N = 52
S = 58
'''


def test_toml_writes_only_what_differs_from_the_preset():
    position = Position.from_toml('rules = "classic"\ntrump = "D"\n[hands]\nN = "2S"\nS = "3S"\n'
                         '[options]\nfollow = "strict"\nhigh = true\n')
    text = position.to_toml()
    assert 'rules = "classic"' in text
    assert "high = true" in text
    assert "follow" not in text  # the preset's own value
    assert "[score]" not in text and "play" not in text and "turnup" not in text


def test_four_player_score_written_per_partnership():
    position = Position.from_toml(FOUR + "[score]\nN = 40\nE = 12\n")
    assert position.to_toml().endswith("[score]\nN = 40\nE = 12\n")
    assert position.to_line().endswith(" score=40,12")


# ---- the one-line form ----------------------------------------------------------------------

def test_reading_a_line():
    position = Position.from_line("N:3.AK5.2.9 7.QT4.J.8 dealer=S trump=H play=AH,4H,9C follow=strict "
                         "score=52,58")
    assert position == Position.from_toml(FORMAT_EXAMPLE)


def test_a_line_starts_at_any_seat_and_goes_clockwise():
    north_first = Position.from_line("N:A.-.-.- K.-.-.- Q.-.-.- J.-.-.- trump=S")
    for start, hands in [("E", "K.-.-.- Q.-.-.- J.-.-.- A.-.-.-"),
                         ("S", "Q.-.-.- J.-.-.- A.-.-.- K.-.-.-"),
                         ("W", "J.-.-.- A.-.-.- K.-.-.- Q.-.-.-")]:
        assert Position.from_line(f"{start}:{hands} trump=S") == north_first
    assert Position.from_line("S:K.-.-.- A.-.-.- trump=S") == Position.from_line("N:A.-.-.- K.-.-.- trump=S")
    assert Position.from_line("n: A.-.-.- K.-.-.- trump=S") == Position.from_line("N:A.-.-.- K.-.-.- trump=S")


def test_a_line_with_every_key():
    line = ("N:AK.-.-.- QJ.-.-.- T9.-.-.- rules=all-fours dealer=E turnup=2S play=TS,AS "
            "follow=strict max_runs=none target=11 score=1,2,3")
    position = Position.from_line(line)
    deal = position.deal
    assert deal.players == 3 and deal.dealer == 1 and deal.turnup == parse_card("2S")
    assert deal.rules == Rules.preset("all-fours", follow="strict", max_runs=None, target=11)
    assert deal.score == (1, 2, 3)
    assert [card_str(c) for c in position.play] == ["TS", "AS"]
    assert position.to_line() == ("N:AK.-.-.- QJ.-.-.- T9.-.-.- rules=all-fours dealer=E "
                                 "turnup=2S play=TS,AS follow=strict max_runs=none target=11 "
                                 "score=1,2,3")


MALFORMED_LINES = [
    ("N:AK.-.-.- QJ.-.-.- trump=S play=AS,XX", "<line>: play[1]: unknown card 'XX'"),
    ("N:AK.-.-.- QJ.-.-.- trump=S play=AS,2S", "<line>: play[1]: '2S' is not in S's hand"),
    ("N:AK.-.-.- QJ.-.-.- trump=S play=AS,AS", "<line>: play[1]: 'AS' is played twice (also "
                                                "play[0])"),
    ("N:AK.-.-.- Q.2.-.- trump=S play=AS,2H",
     "<line>: play[1]: S may not play '2H' to 'AS' led"),
    ("N:AK.-.-.- QJ.-.-.- trump=S foo=1", "<line>: unknown key 'foo'"),
    ("N:AK.-.-.- QJ.-.-.- trump=S max-runs=1",
     "<line>: unknown key 'max-runs' (it is spelled max_runs)"),
    ("N:AK.-.-.- QJ.-.-.- trump=S trump=H", "<line>: trump: given twice"),
    ("N:AK.-.-.- QJ.-.-.- trump=S follow=loose", "<line>: follow: "),
    ("N:AK.-.-.- QJ.-.-.- trump=S rules=pinochle", "<line>: rules: unknown preset 'pinochle'"),
    ("N:AK.-.-.- QJ.-.-.- trump=S turnup=7H", "<line>: trump: 'S' contradicts turn-up '7H'"),
    ("N:AK.-.-.- QJ.-.-.-", "<line>: no trumps"),
    ("N:AK.-.-.- AJ.-.-.- trump=S", "<line>: hands.S: card 'AS' is also in N's hand"),
    ("N:AK.-.-.- Q.-.-.- trump=S", "<line>: hands.S: 1 card, but N has 2"),
    ("N:AK.-.-.- QX.-.-.- trump=S", "<line>: hands.S: unknown rank 'X'"),
    ("N:AK.-.- QJ.-.-.- trump=S", "<line>: hands.N: PBN holding 'AK.-.-' needs four suits"),
    ("N:AK.-.-.- QJ trump=S", "<line>: hands.S: expected a PBN holding (S.H.D.C), not 'QJ'"),
    ("E:AK.-.-.- QJ.-.-.- trump=S", "<line>: no seat 'E' at a 2-player table"),
    ("X:AK.-.-.- QJ.-.-.- trump=S", "<line>: expected 'N:', 'E:', 'S:' or 'W:'"),
    ("N:AK.-.-.- trump=S", "<line>: a table has 2, 3 or 4 players: 1 hand given"),
    ("N:AK.-.-.- QJ.-.-.- trump=S dealer=E", "<line>: dealer: no seat 'E' at a 2-player table"),
    ("N:AK.-.-.- QJ.-.-.- trump=S dealer=S play=",
     "<line>: play: no cards after 'play=' (the cards are parted by commas: play=AH,4H)"),
    ("N:AK.-.-.- QJ.-.-.- trump=S dealer=S rules=strict:skunk=true",
     "<line>: rules: 'strict:skunk=true': here rules name a preset alone; its options are words "
     "of their own on the line (skunk=true)"),
    ("N:AK.-.-.- QJ.-.-.- trump=S score=1",
     "<line>: score: 1 entry given, but the table has 2 sides (N S)"),
    ("N:AK.-.-.- QJ.-.-.- 32.-.-.- T9.-.-.- trump=S score=1,2,3",
     "<line>: score: 3 entries given, but the table has 2 sides (NS EW)"),
    ("N:AK.-.-.- QJ.-.-.- trump=S score=1,x", "<line>: score: expected whole numbers, not 'x'"),
    ("N:AK.-.-.- QJ.-.-.- trump=S strict", "<line>: expected key=value, not 'strict'"),
    ("", "<line>: expected 'N:'"),
]


@pytest.mark.parametrize("line, message", MALFORMED_LINES)
def test_malformed_lines(line, message):
    with pytest.raises(DealFileError) as caught:
        Position.from_line(line)
    assert str(caught.value).startswith(message)


# ---- files of either form -------------------------------------------------------------------

LINES = """\
# two positions, one a line
N:3.AK5.2.9 7.QT4.J.8 dealer=S trump=H play=AH,4H,9C follow=strict score=52,58

N:AK.-.-.- QJ.-.-.- trump=S   # a comment after a position
"""


def test_a_file_of_lines(tmp_path: Path):
    path = tmp_path / "positions.txt"
    path.write_text(LINES, encoding="utf-8")
    found = load_positions(path)
    assert [name for name, _ in found] == [f"{path}:2", f"{path}:4"]
    assert found[0][1] == Position.from_toml(FORMAT_EXAMPLE)
    assert found[1][1] == Position.from_line("N:AK.-.-.- QJ.-.-.- trump=S")


def test_an_error_in_a_file_of_lines_names_the_line(tmp_path: Path):
    path = tmp_path / "positions.txt"
    path.write_text(LINES + "N:AK.-.-.- QJ.-.-.- trump=S play=ZZ\n", encoding="utf-8")
    with pytest.raises(DealFileError) as caught:
        load_positions(path)
    assert str(caught.value) == f"{path}:5: play[0]: unknown card 'ZZ'"


def test_a_toml_file_is_one_position(tmp_path: Path):
    path = tmp_path / "deal.toml"
    path.write_text(FORMAT_EXAMPLE, encoding="utf-8")
    assert load_positions(path) == [(str(path), Position.from_toml(FORMAT_EXAMPLE))]


def test_a_toml_named_file_is_read_as_toml_even_if_it_looks_like_a_line(tmp_path: Path):
    path = tmp_path / "deal.toml"
    path.write_text("N:AK.-.-.- QJ.-.-.- trump=S\n", encoding="utf-8")
    with pytest.raises(DealFileError, match="not TOML"):
        load_positions(path)


def test_the_form_of_a_text_is_told_by_its_first_line():
    assert [n for n, _ in read_positions(FORMAT_EXAMPLE, "<stdin>")] == ["<stdin>"]
    assert [n for n, _ in read_positions(LINES, "<stdin>")] == ["<stdin>:2", "<stdin>:4"]


def test_the_bundled_examples_read_and_round_trip():
    import solver

    folder = Path(solver.__file__).parent / "examples"
    files = sorted(folder.glob("*.toml"))
    assert {f.name for f in files} >= {"two-player.toml", "three-player.toml",
                                       "four-player.toml", "mid-trick.toml"}
    players = set()
    for path in files:
        position = load(path)
        players.add(position.deal.players)
        assert Position.from_toml(position.to_toml()) == position
        assert Position.from_line(position.to_line()) == position
    assert players == {2, 3, 4}
    assert load(folder / "mid-trick.toml").current.cards


# ---- several TOML deals in one text, a '# ---' line between two -----------------------------

SEVERAL = f"# the first deal\n{FORMAT_EXAMPLE}\n# ---\n{THREE}\n# ---  \n{BASE}"


def line_of(text: str, fragment: str) -> int:
    """The line (from 1) of the only line of ``text`` that holds ``fragment``."""
    (number,) = [n for n, line in enumerate(text.splitlines(), 1) if fragment in line]
    return number


def test_several_toml_deals_are_read_in_order():
    found = list(read_positions(SEVERAL, "deals.toml"))
    assert [name for name, _ in found] == ["deals.toml#1", "deals.toml#2", "deals.toml#3"]
    assert [p for _, p in found] == [Position.from_toml(FORMAT_EXAMPLE), Position.from_toml(THREE), Position.from_toml(BASE)]


def test_several_toml_deals_in_a_file(tmp_path: Path):
    path = tmp_path / "deals.txt"  # not named .toml: the form is told by the text
    path.write_text(SEVERAL, encoding="utf-8")
    found = load_positions(path)
    assert [name for name, _ in found] == [f"{path}#{k}" for k in (1, 2, 3)]
    assert found[1][1] == Position.from_toml(THREE)


def test_written_deals_read_back():
    positions = [Position.from_toml(FORMAT_EXAMPLE), Position.from_toml(THREE), Position.from_toml(BASE)]
    text = f"\n{SEPARATOR}\n".join(p.to_toml() for p in positions)
    assert [p for _, p in read_positions(text)] == positions


def test_one_toml_deal_keeps_its_name():
    assert list(read_positions(BASE, "deal.toml")) == [("deal.toml", Position.from_toml(BASE))]


@pytest.mark.parametrize("line", ["# ----", " # ---", "#---", "# --- deal 2"])
def test_only_the_separator_line_separates(line):
    # any other comment is a comment: the text stays one deal
    ((name, position),) = read_positions(BASE.replace("[hands]", f"{line}\n[hands]"), "deal.toml")
    assert name == "deal.toml" and position == Position.from_toml(BASE)


def test_a_separator_in_a_file_of_lines_is_a_comment():
    text = LINES.replace("\n\n", "\n# ---\n")
    assert [n for n, _ in read_positions(text, "p.txt")] == ["p.txt:2", "p.txt:4"]


def test_an_error_in_the_second_deal_names_it():
    text = SEVERAL.replace('E = "KS QH 2D"', 'E = "KS QH ZZ"')
    with pytest.raises(DealFileError) as caught:
        list(read_positions(text, "deals.toml"))
    assert str(caught.value) == "deals.toml#2: hands.E: unknown card 'ZZ'"


def test_a_toml_error_gives_the_line_of_the_whole_file(tmp_path: Path):
    text = SEVERAL.replace('play = ["2S", "AS", "KS"]', 'play = ["2S", "AS", "KS"] !')
    path = tmp_path / "deals.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DealFileError) as caught:
        load_positions(path)
    message = str(caught.value)
    assert message.startswith(f"{path}#2: not TOML: ")
    line = line_of(text, 'play = ["2S"')
    assert line > 20 and f"(at line {line}, " in message
    # an error at the end of a deal (a value never closed) is at a line of the whole file too
    parts = SEVERAL.split(f"{SEPARATOR}\n")
    unclosed = f"{SEPARATOR}\n".join([parts[0], 'dealer = [\n', *parts[1:]])
    with pytest.raises(DealFileError) as caught:
        list(read_positions(unclosed, "deals.toml"))
    assert str(caught.value) == (f"deals.toml#2: not TOML: Invalid value (at the end, line "
                                 f"{line_of(unclosed, 'dealer = [')})")


@pytest.mark.parametrize("text, number, where", [
    (f"{SEPARATOR}\n{BASE}", 1, "before the '# ---' on line 1"),
    (f"{BASE}{SEPARATOR}\n\n# nothing more\n", 2, "after the '# ---' on line 7"),
    (f"{BASE}{SEPARATOR}\n# a comment\n{SEPARATOR}\n{THREE}", 2,
     "between the '# ---' lines 7 and 9"),
])
def test_an_empty_deal_between_separators_is_an_error(text, number, where):
    with pytest.raises(DealFileError) as caught:
        list(read_positions(text, "deals.toml"))
    assert str(caught.value) == (f"deals.toml#{number}: no deal: nothing but blank lines and "
                                 f"comments {where}")


def test_load_reads_one_deal_and_says_so_of_several(tmp_path: Path):
    path = tmp_path / "deals.toml"
    path.write_text(SEVERAL, encoding="utf-8")
    with pytest.raises(DealFileError) as caught:
        load(path)
    assert str(caught.value) == (f"{path}: 3 deals separated by '# ---' lines, not one "
                                 "(load_positions reads them all)")


def test_load_reads_a_file_of_one_position_on_one_line(tmp_path: Path):
    position = random_position(random.Random(5))
    line = position.to_line()
    one = tmp_path / "one.txt"
    one.write_text(f"# a deal\n\n{line}\n", encoding="utf-8")
    assert load(one) == Position.from_line(line)
    several = tmp_path / "several.txt"
    several.write_text(f"{line}\n# another\n{line}\n", encoding="utf-8")
    with pytest.raises(DealFileError) as caught:
        load(several)
    assert str(caught.value) == (f"{several}: 2 positions, one on each line, not one "
                                 "(load_positions reads them all)")
    # a file named .toml is TOML, whatever it holds
    named = tmp_path / "one.toml"
    named.write_text(line, encoding="utf-8")
    with pytest.raises(DealFileError, match=r"one.toml: not TOML"):
        load(named)


def test_one_deal_is_at_most_a_mebibyte_of_characters():
    """Each reader of a deal's text refuses it past 2**20 characters, before TOML's reader or
    the line's is given it, and reads a deal of exactly 2**20."""
    big = "#" + "x" * 2**20
    said = "big: 1,048,577 characters, more than 1,048,576: too large for one deal"
    for read in (parse_toml, parse_line, check_toml_text, check_deal_size):
        with pytest.raises(DealFileError, match=f"^{re.escape(said)}$"):
            read(big, "big")
    with pytest.raises(DealFileError, match=re.escape("big:1: 1,048,579 characters, more")):
        list(read_layouts("N:" + big, "big", toml=False))
    line = "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H"
    toml = (EXAMPLES / "two-player.toml").read_text(encoding="utf-8")
    assert parse_line(line + " " * (2**20 - len(line))).turnup == parse_card("6H")
    assert parse_toml(toml + "#" * (2**20 - len(toml))) == parse_toml(toml)


def test_hidden_hands_are_read_only_where_asked_for():
    text = (EXAMPLES / "hidden" / "south.toml").read_text(encoding="utf-8")
    line = "N:AK.-.-.- - trump=S"
    readers = (parse_toml, parse_line, lambda given, source: list(read_layouts(given, source)),
               lambda given, source: [read() for _, read in named_layouts(given, source)])
    for read, given in zip(readers, (text, line, text, line)):
        with pytest.raises(DealFileError, match="the hand is hidden, but this needs every hand"):
            read(given, "x")
    assert parse_toml(text, "x", hidden=True).hidden == (0, 1, 3)
    assert [read().hidden for _, read in named_layouts(line, "x", hidden=True)] == [(1,)]
    assert parse_line(line, "x", hidden=True).hidden == (1,)
    for before in (-1, None, 1.5, True):
        with pytest.raises(DealFileError, match=re.escape(
                f"lines_before: {before!r} is not a whole number of lines, 0 or more")):
            parse_toml(text, "x", True, before)
    assert parse_toml(text, "x", True, 1) == parse_toml(text, "x", True)


def test_a_stream_read_within_its_limits_and_its_faults_placed():
    """``read_limited``: as many bytes as the limit, not one more (the limit said in MiB where
    it is whole MiB); bytes that are no UTF-8 placed by line and byte, a byte-order mark
    counted; a game record's line of 16 MiB and not a byte more, its line named."""
    def read(data: bytes, *args, **options):
        return read_limited(io.BytesIO(data), "s", *args, **options)

    assert read(b"x" * 1000, 1000) == "x" * 1000
    for size, limit, most in ((1001, 1000, "1,000 bytes"), (2**20 + 1, 2**20, "1 MiB"),
                              (2**20, 2**20 - 1, "1,048,575 bytes")):
        with pytest.raises(DealFileError,
                           match=f"^s: more than {most}: too large for a file of deals$"):
            read(b"x" * size, limit)
    for data, byte in ((b"ab\ncd\xff", 5), (BOM.encode() + b"ab\ncd\xff", 8)):
        with pytest.raises(DealFileError, match=f"^s: not UTF-8 text \\(line 2, byte {byte}\\)$"):
            read(data)
    assert len(read(b"{}\n" + b"x" * MAX_RECORD_LINE, records=True)) == 3 + MAX_RECORD_LINE
    for first in (b"{}\n", b"{}\n" * 2):
        with pytest.raises(DealFileError, match=f"^s: line {first.count(b'{') + 1}: more than "
                                                f"16 MiB without a line's end"):
            read(first + b"x" * (MAX_RECORD_LINE + 1), records=True)


def test_a_record_line_ended_by_the_first_byte_of_a_chunk():
    """A line's end that is the first byte of a chunk read starts the next line there: the
    line before it, nearly 16 MiB, and the one after, are not counted as one; a line that
    runs past 16 MiB is refused where it ends as where it does not."""
    class Chunks:
        def __init__(self, *chunks: bytes):
            self.chunks = list(chunks)

        def read1(self, size: int) -> bytes:
            return self.chunks.pop(0) if self.chunks else b""

        read = read1

    long = b"{" + b"x" * (MAX_RECORD_LINE - 10)
    after = b"\n{" + b"y" * 100
    text = read_limited(Chunks(long, after, b"y" * 100, b"\n" * 2), "s", records=True)
    assert len(text) == len(long) + len(after) + 102
    with pytest.raises(DealFileError, match="^s: line 1: more than 16 MiB"):
        read_limited(Chunks(long, b"z" * 100 + after), "s", records=True)


def test_a_key_of_too_many_parts_named_by_its_line_of_the_text_alone():
    """``check_toml_text`` counts lines from the text's first when given no lines above it."""
    key = ".".join(["a"] * 65)
    for above in (0, 2):
        with pytest.raises(DealFileError, match=f"^s: line {above + 1}: a key of more than 64 "
                                                f"parts parted by dots"):
            check_toml_text("\n" * above + key + " = 1\n", "s")
    with pytest.raises(DealFileError, match="^s: line 13: a key of more than 64 parts"):
        check_toml_text("\n" * 2 + key + " = 1\n", "s", 10)


def test_a_key_given_twice_named_up_to_40_characters():
    """A key written twice is named in the message where it is 40 characters or fewer; a longer
    one is left as TOML's reader words it."""
    for size, said in ((40, "k" * 40 + " is given twice"), (41, "Cannot overwrite a value")):
        key = "k" * size
        with pytest.raises(DealFileError, match=f"^s: not TOML: {said} \\(at line 2,"):
            parse_toml(f"{key} = 1\n{key} = 2\n", "s")
    with pytest.raises(DealFileError, match="^s: not TOML: k is given twice \\(at line 3,"):
        parse_toml("k = 1\n\nk = 2\n", "s")


def test_a_near_separator_above_the_first_key_is_no_deal_unparted():
    """A ``# --`` comment above a text's first key (under another comment) is a heading, not a
    separator mistyped; one after a key is named as one, before a table or a key (named)
    given twice."""
    twice = "[hands]\nN = \"AH\"\nS = \"KH\"\n"
    with pytest.raises(DealFileError,
                       match=r"^s: not TOML: \[hands\] is declared twice \(at line 6, column 7\)$"):
        parse_toml("# a title\n# -- a heading\n" + twice + "[hands]\n", "s")
    with pytest.raises(DealFileError, match=r"\(at line 6, column 7\); line 5 does not part "
                                            r"two deals: a separator is '# ---' alone"):
        parse_toml("# a title\n" + twice + "# -- next\n[hands]\n", "s")
    # a key given twice, named, as well as a table
    with pytest.raises(DealFileError, match=r"^s: not TOML: N is given twice \(at line 5, "
                                            r"column 9\); line 4 does not part two deals"):
        parse_toml(twice + '# -- next\nN = "QH"\n', "s")


def test_a_position_without_a_dealer_is_written_with_the_last_seat_dealing():
    """The dealer not given is the last seat (S, S, W for 2, 3, 4 players), as both forms write
    the position out."""
    for hands, last in (("AK.-.-.- QJ.-.-.-", "S"), ("A.-.-.- K.-.-.- Q.-.-.-", "S"),
                        ("A.-.-.- K.-.-.- Q.-.-.- J.-.-.-", "W")):
        layout = parse_line(f"N:{hands} trump=S")
        assert layout.dealer is None
        assert f" dealer={last} " in line_str(layout)
        assert f'\ndealer = "{last}"\n' in "\n" + toml_str(layout)


def test_a_score_key_that_is_no_seat_quoted_as_written():
    """A ``[score]`` key that is no seat is quoted as it is written (``x``, not ``X``)."""
    text = ('trump = "H"\n[hands]\nN = "AH KH QH JH TH 9H"\nS = "AS KS QS JS TS 9S"\n'
            "[score]\nx = 3\n")
    with pytest.raises(DealFileError,
                       match=r"^s: score\.x: no seat 'x' at a 2-player table \(seats N S\)$"):
        parse_toml(text, "s")


def test_the_lines_of_a_text_as_an_editor_counts_them():
    """A text's last line end ends a line, not one more that is empty; a blank line before it
    is a line."""
    assert text_lines("a\nb\n") == ["a", "b"]
    assert text_lines("a\n\n") == ["a", ""]
    assert text_lines("a\r\nb") == ["a", "b"]
    assert text_lines("") == []


def test_a_one_line_position_that_does_not_start_with_a_seat_quotes_its_first_word():
    """A one-line position starts ``N:`` (a seat and a colon); what it starts with instead is
    quoted; ``is_line_form`` takes a seat and a colon alone as the start of one, and a text of
    nothing but blanks and comments as none (False)."""
    for text, first in (("N", "N"), ("N K.-.-.- Q.-.-.-", "N"), ("X: A.-.-.- K.-.-.-", "X:"),
                        ("N;A.-.-.- K.-.-.-", "N;A.-.-.-")):
        with pytest.raises(DealFileError, match=re.escape(
                f"s: expected 'N:', 'E:', 'S:' or 'W:' and the hands, not '{first}'")):
            parse_line(text, "s")
    assert (is_line_form("N:"), is_line_form("N"), is_line_form("N;")) == (True, False, False)
    assert is_line_form("# a comment\nN:A.-.-.- K.-.-.-") is True
    for blank in ("", "# a comment\n\n", BOM + "  \n"):
        assert is_line_form(blank) is False


def test_a_hand_given_outside_its_table_gets_a_hint():
    """A top-level key that is a seat's letter is told to go in ``[hands]``; any other unknown
    key, of one letter too, is not."""
    with pytest.raises(DealFileError, match=re.escape(
            "s: unknown key 'N' (a hand goes in the [hands] table: [hands] on a line, then "
            "N = ...)")):
        parse_toml('N = "AH"\n', "s")
    with pytest.raises(DealFileError, match="^s: unknown key 'x'$"):
        parse_toml('x = "AH"\n', "s")
