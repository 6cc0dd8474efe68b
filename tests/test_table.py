"""``allfives play``'s screen (``cli.table``) drawn from a match's observations: the lines that
say what a seat can see, each checked against the state it comes from."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest
from rich.text import Text

from solver.cards import JACK, SUIT_NAMES, card_str, make_card, parse_card, suit_of
from solver.game import BEG, RUN, STAND, TAKE_ONE, Match
from solver.rules import Rules
from solver.tricks import seat_names, side_count, side_name

from cli.answers import choices
from cli.table import CALL_WORDS, WIDTH, choices_line, deal_line, deal_over_line, fit, flow, \
    hand_lines, pegged_this_deal, pips_words, played_lines, scores_text, table_screen, \
    trick_line, what_happened, win_verb


def screen_lines(obs, pretty: bool = False, **options) -> list[str]:
    return table_screen(obs, 61, "peg-out", pretty, **options).plain.split("\n")


def begun(*calls: int, players: int = 2, best_of: int = 1):
    """A match's first deal with the elder hand (seat 0, the dealer the last seat) to call,
    after ``calls``, and the turn-up before them."""
    state = Match(players, best_of=best_of).new_initial_state(seed=3, dealer=players - 1)
    first = state.observation(0).turnups[-1]
    for call in calls:
        state.apply_action(call)
    return state, first


def test_the_screen_is_laid_out_for_80_columns_when_no_width_is_given():
    """No width is 80 columns; a width below the narrowest is laid out at the narrowest."""
    assert (WIDTH, fit(None), fit(10), fit(100)) == (80, 80, 40, 100)
    state, _ = begun()
    obs = state.observation(0)
    assert screen_lines(obs) == screen_lines(obs, width=80) != screen_lines(obs, width=79)
    assert max(map(len, screen_lines(obs))) <= 80


def test_the_turn_up_proposes_trumps_until_they_are_fixed():
    """Before the calls the turn-up's suit is proposed; after a run the new turn-up's suit is
    trumps and the first turn-up is named as set aside."""
    state, first = begun()
    proposed = f"Turn-up {card_str(first)}: {SUIT_NAMES[suit_of(first)]} proposed for trumps"
    assert proposed in screen_lines(state.observation(0))
    state.apply_action(BEG)
    state.apply_action(RUN)
    obs = state.observation(0)
    turnup = obs.turnups[-1]
    assert obs.turnups[0] == first and suit_of(turnup) != suit_of(first)
    assert obs.trump == suit_of(turnup)
    assert (f"Trumps {SUIT_NAMES[suit_of(turnup)]}: turn-up {card_str(turnup)} "
            f"(set aside by runs: {card_str(first)})") in screen_lines(obs)
    given, _ = begun(BEG, TAKE_ONE)
    assert f"Trumps {SUIT_NAMES[suit_of(first)]}: turn-up {card_str(first)}" in \
        screen_lines(given.observation(0))


def test_the_calls_made_are_listed_in_order():
    """``Calls:`` names each seat with its call, in the order made, once a call is made."""
    state, _ = begun()
    assert not any(line.startswith("Calls:") for line in screen_lines(state.observation(0)))
    state, _ = begun(BEG, RUN)
    assert "Calls: N beg, S run" in screen_lines(state.observation(0))
    state, _ = begun(BEG, TAKE_ONE)
    assert "Calls: N beg, S take-one" in screen_lines(state.observation(1))


def test_this_deals_points_are_marked_apart_on_the_pegboard():
    """The take-one's point, pegged this deal, is counted as this deal's (N 1, S 0), shown as
    this deal's hole and said; a game of a best-of names the games won."""
    for best_of in (2, 3):
        state, _ = begun(BEG, TAKE_ONE, best_of=best_of)
        lines = screen_lines(state.observation(0), pretty=True)
        assert lines[1].startswith(f"Deal 1, game 1 of best of {best_of} · you are N · S deals")
        assert "Games won: N 0, S 0" in lines
    state, _ = begun(BEG, TAKE_ONE, best_of=3)
    obs = state.observation(0)
    assert pegged_this_deal(obs) == [1, 0]
    lines = screen_lines(obs, pretty=True)
    rows = {line[0]: line for line in lines if line[:1] in "NS" and line[1:4] == "   "}
    assert rows["N"].startswith("N   1 ◆····") and rows["S"].startswith("S   0 ·····")
    assert "This deal: N +1 (take-one)" in lines
    assert "This deal: nothing pegged yet" in screen_lines(begun()[0].observation(0))
    assert not any("best of" in line or "Games won" in line
                   for line in screen_lines(begun(BEG, TAKE_ONE)[0].observation(0)))


def test_the_trick_under_way_says_what_was_led_and_who_is_to_play():
    """``Trick 1: you to lead`` to the seat on lead, nothing more to the other; once a card is
    led both see it, and the seat to play is told so."""
    state, _ = begun(BEG, TAKE_ONE)
    assert [trick_line(state.observation(s), False).plain for s in (0, 1)] == \
        ["Trick 1: you to lead", "Trick 1: "]
    led = choices(state.observation(0))[0]
    state.apply_action(led)
    assert [trick_line(state.observation(s), False).plain for s in (0, 1)] == \
        [f"Trick 1: N led {card_str(led)}", f"Trick 1: N led {card_str(led)}; you to play"]


def test_the_choices_numbered_on_one_line_without_a_width():
    """Each legal action numbered from 1, two spaces apart, after what comes first."""
    state, _ = begun()
    obs = state.observation(0)
    assert choices_line(obs, False).plain == "1 stand  2 beg"
    assert choices_line(obs, False, first=Text("Call: ")).plain == "Call: 1 stand  2 beg"
    state, _ = begun(BEG, TAKE_ONE)
    obs = state.observation(0)
    assert choices_line(obs, False).plain == \
        "  ".join(f"{k} {card_str(card)}" for k, card in enumerate(choices(obs), 1))


PEGGED = re.compile(r"^  (\S+) (pegs|loses) (\d+) \(")


def random_moves(players: int, seed: int):
    """A match's state and the move chosen at random in it (``random.Random(seed)``'s), until
    the match is over: the caller makes each move."""
    rng = random.Random(seed)
    state = Match(players).new_initial_state(seed=seed)
    while not state.is_terminal():
        yield state, rng.choice(state.legal_actions())


def a_tie_for_game(players: int) -> int:
    """The first seed of a match played at random with a deal played out in which nobody pegs
    Game (a tie), and nobody pegged out."""
    def tied(seed: int) -> bool:
        for state, action in random_moves(players, seed):
            state.apply_action(action)
        return any(not log.thrown_in and not log.winners
                   and "game" not in {peg.what for peg in log.pegs} for log in state.deals)
    return next(seed for seed in range(1000) if tied(seed))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_lines_of_a_match_played_at_random_replay_its_tricks_and_points(players):
    """Each action's lines, for a match played by random choices: the move by the seat to act,
    the trick's winner the seat that then leads, the points pegged summing to the score's
    change, the score after them, the end points nobody pegs (a Jack not dealt, Game tied),
    and each deal's end giving its points and the score."""
    names, n_sides = seat_names(players), side_count(players)
    sides = [side_name(s, players) for s in range(n_sides)]
    start = (0,) * n_sides  # the score at the deal's start
    jacks = ties = 0        # deals played out without the trump Jack, with Game tied
    for state, action in random_moves(players, a_tie_for_game(players)):
        seat, deals, score = state.current_player(), len(state.deals), state.score
        if state.phase == "play" and not state.observation(seat).play:
            dealt = {card for hand in state.hands for card in hand}
            jack = make_card(state.trump, JACK)
        tricks = len(state.observation(seat).play) // players if state.phase == "play" else 0
        lines = [line.plain for line in what_happened(state, action, False)[0]]
        said = CALL_WORDS[action] if action in CALL_WORDS else f"plays {card_str(action)}"
        assert lines[0].startswith(f"{names[seat]} {said}")
        ended = len(state.deals) > deals
        after = state.deals[-1].score if ended else state.score
        pegged = [0] * n_sides
        for line in lines:
            if found := PEGGED.match(line):
                sign = 1 if found[2] == "pegs" else -1
                pegged[sides.index(found[1])] += sign * int(found[3])
        assert pegged == [a - b for a, b in zip(after, score)]
        won = [line for line in lines if " wins trick " in line]
        if state.phase == "play" and not ended and \
                len(state.observation(seat).play) // players > tricks:
            assert won == [f"  {names[state.current_player()]} wins trick {tricks + 1}"]
        if any(pegged) and not ended:
            assert lines[-1] == f"  Score: {scores_text(players, state.score)}"
        if ended:
            log = state.deals[-1]
            # the Jack nobody pegs, said where the deal is played out and nobody pegged out
            no_jack = f"  Nobody pegs Jack: {card_str(jack)} was in no hand"
            if not log.thrown_in and not log.winners:
                assert (no_jack in lines) == (jack not in dealt)
                jacks += jack not in dealt
                tied = "game" not in {peg.what for peg in log.pegs}
                assert any(line.startswith("  Nobody pegs Game: a tie") for line in lines) == tied
                ties += tied
            change = ", ".join(f"{side} {a - b:+d}" for side, a, b in zip(sides, log.score, start))
            assert deal_over_line(log, players).plain.replace("\xa0", " ").startswith(
                f"Deal {log.number} is over: {change}; the score is "
                f"{scores_text(players, log.score)}.")
            start = log.score
    assert jacks >= 1 and ties >= 1


@pytest.mark.parametrize("players, width", [(2, 80), (2, 40), (3, 60), (4, 40)])
def test_the_grid_of_tricks_shows_each_card_by_seat_and_marks_the_winner(players, width):
    """The tricks so far, after a run (9 cards a hand): one column a trick, numbered, with the
    seat that led it and each seat's card under its number; the card that won marked ``*`` and
    bold, the winner being the seat that leads the next trick; the columns that do not fit go
    on in another block."""
    rng = random.Random(width)
    state, _ = begun(BEG, RUN, players=players)
    for _ in range(players * 8 + 1):
        state.apply_action(rng.choice(state.legal_actions()))
    obs = state.observation(0)
    tricks = [obs.play[k:k + players] for k in range(0, len(obs.play), players)]
    assert len(tricks) == 9
    grid = played_lines(obs, False, width)
    bold = {i for span in grid.spans if "bold" in str(span.style)
            for i in range(span.start, span.end)}
    lines, offset, words = grid.plain.split("\n"), 0, []
    for line in lines:      # each line's words, with where each starts in it and in the grid
        words.append([(found.group(), found.start(), offset + found.start())
                      for found in re.finditer(r"\S+", line)])
        offset += len(line) + 1
    assert max(map(len, lines)) <= width and all(line == line.rstrip() for line in lines)
    heads = [k for k, line in enumerate(lines) if line.startswith("Trick")]
    assert (len(heads) > 1) == (width < 7 + 9 * 5) and heads == \
        list(range(0, len(lines), players + 2))
    for k in heads[:-1]:    # a block holds as many columns as fit: one more, of 5, does not
        assert max(len(line) for line in lines[k:k + players + 2]) + 5 > width
    columns: dict[str, list[str]] = {}
    for k in heads:
        head, led, *rows = words[k:k + players + 2]
        at = [start for _, start, _ in head[1:]]        # where each trick's column starts
        columns.setdefault("number", []).extend(word for word, _, _ in head[1:])
        for name, row in [("led", led)] + [(row[0][0], row) for row in rows]:
            assert [start for _, start, _ in row[1:]] == at[:len(row) - 1]
            columns.setdefault(name, []).extend(word for word, _, _ in row[1:])
            for word, _, place in row[1:] if name != "led" else ():   # (trumps are bold)
                trump = suit_of(parse_card(word.rstrip("*"))) == obs.trump
                assert (place in bold) == (word.endswith("*") or trump)
    names = seat_names(players)
    assert columns["number"] == [str(k) for k in range(1, 10)]
    assert columns["led"] == [names[trick[0][0]] for trick in tricks]
    for k, trick in enumerate(tricks):
        winner = tricks[k + 1][0][0] if k + 1 < len(tricks) else None
        for seat, card in trick:
            assert columns[names[seat]][k] == card_str(card) + "*" * (seat == winner)


def test_a_deal_starts_with_its_number_the_dealer_and_the_turn_up():
    """``Deal 1 · S deals · turn-up KS``; in a match of several games the game is named too."""
    for best_of, game in ((1, ""), (2, ", game 1"), (3, ", game 1")):
        state, first = begun(best_of=best_of)
        assert deal_line(state, False).plain == f"Deal 1{game} · S deals · turn-up {card_str(first)}"


def test_the_hand_says_which_cards_are_trumps_if_the_turn_up_stands():
    """Before trumps are fixed the hand's note says whose call keeps the turn-up's suit: the
    elder hand's stand, the dealer's take-one, or, to a seat not calling, the turn-up standing."""
    def note(state, seat):
        return hand_lines(state.observation(seat), False).plain.split("\n")[0]

    state, first = begun()
    assert [note(state, 0), note(state, 1)] == [
        "Your hand  (< trumps if you stand)", "Your hand  (< trumps if the turn-up stands)"]
    for seat in (0, 1):     # the turn-up's suit is marked, as trumps are once fixed
        suits = hand_lines(state.observation(seat), False).plain.split("\n")[1:]
        marked = [line.split()[0] for line in suits if line.endswith("< trumps")]
        held = {suit_of(card) for card in state.hands[seat]}
        assert marked == (["SHDC"[suit_of(first)]] if suit_of(first) in held else [])
    state.apply_action(BEG)
    assert [note(state, 0), note(state, 1)] == [
        "Your hand  (< trumps if the turn-up stands)", "Your hand  (< trumps if you give one)"]


def test_a_revoke_is_said_with_the_points_it_loses():
    """A card that does not follow, played as a record may hold one: the move says so, and the
    offender's side loses the penalty's points, as the state pegs them."""
    state, _ = begun(BEG, TAKE_ONE)
    state.apply_action(choices(state.observation(0))[0])
    revoke = next(card for card in state.hands[1] if card not in state.legal_actions())
    pegs = len(state.pegs)
    lines = [line.plain for line in what_happened(state, revoke, False, revoke=True)[0]]
    assert lines[0] == f"S plays {card_str(revoke)}, a revoke"
    (lost,) = [peg for peg in state.pegs[pegs:] if peg.what == "revoke"]
    assert lost.side == 1 and lost.points < 0
    assert f"  S loses {-lost.points} (revoke)" in lines


def test_the_call_that_fixes_trumps_says_so_once():
    """``Trumps are hearts.`` after the stand, the take-one or the run that turns up a new
    suit, and after no other move."""
    def said(state, action):
        return [line.plain for line in what_happened(state, action, False)[0]
                if line.plain.startswith("  Trumps are")]

    state, first = begun()
    assert said(state, STAND) == [f"  Trumps are {SUIT_NAMES[suit_of(first)]}."]
    for _ in range(4):
        assert said(state, state.legal_actions()[0]) == []     # the cards
    state, _ = begun(BEG)
    assert said(state, TAKE_ONE) == [f"  Trumps are {SUIT_NAMES[suit_of(first)]}."]
    state, _ = begun()
    assert said(state, BEG) == []
    for seed in range(40):
        state = Match(2).new_initial_state(seed=seed, dealer=1)
        state.apply_action(BEG)
        if RUN in state.legal_actions():
            told = said(state, RUN)
            if state.trump is not None:     # a new suit turned up
                assert told == [f"  Trumps are {SUIT_NAMES[state.trump]}."]
                return
            assert told == []
    raise AssertionError("no run turned up a new suit")


def test_one_seat_wins_and_a_partnership_or_several_sides_win():
    assert [win_verb([0], 2), win_verb([1], 3), win_verb([0], 4)] == ["wins", "wins", "win"]
    assert [win_verb([0, 1], 2), win_verb([0, 2], 3)] == ["win", "win"]


def test_parts_flow_from_the_start_of_the_line():
    """Without a first part the line starts with the first of the parts, not a separator."""
    parts = [Text("aaa"), Text("bb"), Text("c")]
    assert flow(parts, 80).plain == "aaa  bb  c"
    assert flow(parts, 8).plain == "aaa  bb\n  c"
    assert flow(parts, 2).plain == "aaa\n  bb\n  c"     # (a part is never broken)


def test_game_s_pips_one_pip_and_several(monkeypatch):
    import cli.table

    state, _ = begun(BEG, TAKE_ONE)
    position = state.position()
    for pips, said in [((1, 0), "N 1 pip, S 0 pips"), ((37, 2), "N 37 pips, S 2 pips")]:
        monkeypatch.setattr(cli.table, "score_position", lambda p: SimpleNamespace(pips=pips))
        assert pips_words(position) == said


def test_a_run_says_what_it_turned_up_in_any_deal():
    """``S runs the cards: turn-up 7H`` where one card turned up a new suit (``turn-ups 2C
    TD`` where the same suit came first); where the runs turned up the same suit till none
    was left, ``.., no new suit``, in the first deal or a later one."""
    wanted = {("new suit", 1), ("new suit", 2), ("thrown in", "first deal"),
              ("thrown in", "later deal")}
    seen = set()
    for seed in range(300):
        rng = random.Random(seed)
        state = Match(2, Rules.preset("all-fives", target=61)).new_initial_state(seed=seed,
                                                                                 dealer=1)
        while len(state.deals) < 3:
            legal = state.legal_actions()
            if state.phase == "elder" and BEG in legal:
                action = BEG
            elif state.phase == "dealer" and RUN in legal:
                action = RUN
            else:
                action = rng.choice(legal)
            if action != RUN:
                state.apply_action(action)
                continue
            before, deal = len(state.turnups), len(state.deals)
            dealer = seat_names(2)[state.current_player()]
            line = what_happened(state, RUN, False)[0][0].plain
            thrown_in = len(state.deals) > deal and state.deals[-1].thrown_in
            shown = (state.deals[-1].turnups if thrown_in else state.turnups)[before:]
            words = "turn-up" if len(shown) == 1 else "turn-ups"
            cards = " ".join(card_str(c) for c in shown)
            if thrown_in:
                assert line == f"{dealer} runs the cards: {words} {cards}, no new suit"
                seen.add(("thrown in", "later deal" if deal else "first deal"))
            elif state.trump is not None:
                assert line == f"{dealer} runs the cards: {words} {cards}"
                seen.add(("new suit", min(len(shown), 2)))
        if seen == wanted:
            return
    raise AssertionError(f"only {seen} in 300 seeds")


def test_a_side_that_pegs_out_after_a_revoke_is_told_where_it_stops():
    """After a revoke in the deal (no position to judge from), a side that pegs out is told
    the count stops where the peg was an end-of-deal point, else the deal stops."""
    told = set()
    for seed in range(300):
        rng = random.Random(seed)
        state = Match(2, Rules.preset("all-fives", target=11)).new_initial_state(seed=seed)
        revoked = False
        while not state.is_terminal():
            legal = state.legal_actions()
            unfit = [c for c in state.hands[state.current_player()] if c not in legal] \
                if state.phase == "play" else []
            deal, pegs = len(state.deals), len(state.pegs)
            if unfit and not revoked and rng.random() < 0.3:
                lines, _ = what_happened(state, rng.choice(unfit), False, revoke=True)
                revoked = True
            else:
                lines, _ = what_happened(state, rng.choice(legal), False)
            if len(state.deals) > deal:
                new = state.deals[-1].pegs[pegs:]
                if revoked and state.deals[-1].winners and new:
                    where = "count" if new[-1].what in ("high", "low", "jack", "game",
                                                        "five") else "deal"
                    assert lines[-1].plain.endswith(f"pegged out: the {where} stops here.")
                    told.add(where)
                revoked = False
        if told == {"count", "deal"}:
            return
    raise AssertionError(f"only {told} in 300 seeds")


def test_the_trick_under_way_names_each_card_in_turn():
    """Three players: ``Trick 1: N led 7D, E 9D; you to play`` to the seat to play, the same
    without its end to the others."""
    state, _ = begun(BEG, TAKE_ONE, players=3)
    cards = []
    for _ in range(2):
        cards.append(choices(state.observation(state.current_player()))[0])
        state.apply_action(cards[-1])
    trick = f"Trick 1: N led {card_str(cards[0])}, E {card_str(cards[1])}"
    assert [trick_line(state.observation(s), False).plain for s in (0, 1, 2)] == \
        [trick, trick, f"{trick}; you to play"]


def test_this_deals_points_are_listed_in_the_order_pegged():
    """``This deal: N +1 (take-one), S +5 (trick 1), ...``: each peg of the deal so far."""
    from cli.table import deal_points_line, peg_words

    for seed in range(50):
        rng = random.Random(seed)
        state, _ = begun(BEG, TAKE_ONE)
        while len(state.pegs) < 3 and not state.deals:
            state.apply_action(rng.choice(state.legal_actions()))
        if len(state.pegs) >= 3:
            break
    obs = state.observation(0)
    assert len(obs.pegs) >= 3
    assert deal_points_line(obs, 200).plain == "This deal: " + ", ".join(
        f"{side_name(p.side, 2)} {p.points:+d} ({peg_words(p)})" for p in obs.pegs)
