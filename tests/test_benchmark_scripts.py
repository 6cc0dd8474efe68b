"""The scripts of ``benchmarks/`` that read a match's records: ``paired.py`` (two runs compared
group by group) and ``given_up.py`` (the double-dummy value each player gave up);
``sighted.py``'s player, which sees its partner's hand; and what ``advice_time.py`` asks advice
on (each seed's first card) and how it reports it.

Oracles: ``allfives match``'s own report of the same run (its per-deal difference), the
difference of two runs taken from the two reports, and the heuristic, whose every card is by
definition its own card.
"""

from __future__ import annotations

import json
import re
import runpy
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from clirun import records, run

SCRIPTS = Path(__file__).resolve().parent.parent / "benchmarks"
EXAMPLE = Path(__file__).resolve().parent.parent / "solver" / "examples" / "match.jsonl"


@pytest.fixture(scope="module", autouse=True)
def runs(tmp_path_factory):
    """A duplicate run of --deals and one of --matches, for the refusals."""
    global RUN, MATCHES
    folder = tmp_path_factory.mktemp("runs")
    RUN, MATCHES = folder / "run.jsonl", folder / "matches.jsonl"
    run("match", "heuristic", "random", "--duplicate", "--deals", 8, "--record", RUN)
    run("match", "heuristic", "random", "--matches", 1, "--record", MATCHES)


def script(name: str) -> dict:
    return runpy.run_path(str(SCRIPTS / name))


def duplicate_run(tmp_path, a: str, b: str, players: int, seed: int = 0, groups: int = 8):
    """The record file and ``match --json``'s report of a duplicate run of ``a`` against
    ``b``."""
    path = tmp_path / f"{a}-{b}-{players}-{seed}.jsonl"
    [report] = records(run("match", a, b, "--duplicate", "--deals", groups, "--players",
                           players, "--seed", seed, "--record", path, "--json"))
    return path, report


@pytest.mark.parametrize("players", [2, 3, 4])
def test_paired_reads_each_run_as_match_reports_it_and_pairs_them(tmp_path, players, capsys):
    paired = script("paired.py")
    one, report_one = duplicate_run(tmp_path, "heuristic", "random", players)
    two, report_two = duplicate_run(tmp_path, "random", "heuristic", players)
    name, differences, *_ = paired["group_differences"](one)
    assert name == "heuristic" and len(differences) == 8
    # the report's mean is rounded to the thousandth
    assert sum(differences.values()) / 8 == pytest.approx(report_one["difference"]["mean"],
                                                          abs=5e-4)
    paired["main"]([str(one), str(two)])
    lines = capsys.readouterr().out.splitlines()
    # over the same groups the mean of the differences is the difference of the means
    expected = report_one["difference"]["mean"] - report_two["difference"]["mean"]
    assert lines[2].startswith("first less second, group by group: ")
    assert float(lines[2].split(": ")[1].split()[0]) == pytest.approx(expected, abs=1.5e-3)
    assert expected != 0
    # split by the first deal's calls, the parts weigh up to the whole
    paired["main"]([str(one), str(two), "--by-calls"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 3
    parts = [(int(line.split()[-2]), float(line.split(": ")[1].split()[0]))
             for line in lines[3:]]
    assert all(line.startswith("  first deal ") for line in lines[3:])
    assert sum(n for n, _ in parts) == 8
    assert sum(n * mean for n, mean in parts) / 8 == pytest.approx(
        float(lines[2].split(": ")[1].split()[0]), abs=2e-3)
    # the split is by the heuristic's calls on each group's pack: what the heuristic called
    # there itself, whoever called the deals of the run split
    plain, _ = duplicate_run(tmp_path, "heuristic", "heuristic", players)
    by_rule = paired["group_differences"](plain)[2]
    for line in plain.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["deal"] == 1 and record["match"].endswith(":0"):
            calls = [a.split(":")[1] for a in record["actions"]
                     if a.split(":")[1] in ("stand", "beg", "take-one", "run")]
            group = record["match"].split(":")[1]
            assert by_rule[group][3] == ("run" if "run" in calls else calls[-1])
    def split(path):
        return [table[3] for table in paired["group_differences"](path)[2].values()]

    assert split(one) == split(plain) == split(two)
    other, _ = duplicate_run(tmp_path, "heuristic", "random", players, seed=1)
    with pytest.raises(SystemExit, match="not the same --players, --rules or --seed"):
        paired["main"]([str(one), str(other)])
    # two pairs, each on its own packs, pooled: the mean of all sixteen groups' differences
    again, _ = duplicate_run(tmp_path, "random", "heuristic", players, seed=1)
    capsys.readouterr()
    paired["main"]([str(one), str(two), str(other), str(again)])
    lines = capsys.readouterr().out.splitlines()
    means = [float(line.split(": ")[1].split()[0]) for line in lines]
    # each side's runs pooled against their B, then the differences
    assert lines[6].startswith("the first runs pooled, each against its B: ")
    assert lines[7].startswith("the second runs pooled, each against its B: ")
    assert means[6] == pytest.approx((means[0] + means[3]) / 2, abs=1e-3)
    assert means[7] == pytest.approx((means[1] + means[4]) / 2, abs=1e-3)
    assert lines[8].startswith("pooled over the 2 pairs, group by group: ")
    assert all(line.endswith(", 16 groups") for line in lines[6:9])
    assert means[8] == pytest.approx((means[2] + means[5]) / 2, abs=1e-3)
    assert means[8] == pytest.approx(means[6] - means[7], abs=2e-3)
    with pytest.raises(SystemExit, match="in pairs"):
        paired["main"]([str(one), str(two), str(other)])
    # a pair that holds groups another pair holds would count them twice: refused, the same
    # pair given twice too, or a pair of the first seed's groups on other files
    for given in ([one, two, one, two], [one, two, other, again, two, one]):
        with pytest.raises(SystemExit, match=r"pairs \d and \d both hold deal group 0's packs"):
            paired["main"]([str(path) for path in given])
    shorter, _ = duplicate_run(tmp_path, "heuristic", "random", players, groups=3)
    with pytest.raises(SystemExit, match="pairs 1 and 2 both hold"):
        paired["main"]([str(one), str(two), str(shorter), str(two)])


def test_paired_takes_one_run_alone(tmp_path, capsys):
    one, report = duplicate_run(tmp_path, "heuristic", "random", 2)
    script("paired.py")["main"]([str(one)])
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith(f"heuristic less random ({one}): ") and line.endswith(", 8 groups")
    assert float(line.split(": ")[1].split()[0]) == pytest.approx(
        report["difference"]["mean"], abs=1e-3)
    # one group has no interval; a run given twice is said to be one
    single = write(tmp_path / "single.jsonl", "".join(one.read_text().splitlines(True)[:2]))
    script("paired.py")["main"]([str(single)])
    assert capsys.readouterr().out.endswith("(one group: no interval), 1 group\n")
    script("paired.py")["main"]([str(one), str(one)])
    assert "are the same file" in capsys.readouterr().err


@pytest.mark.parametrize("make, fragment", [
    (lambda d: d / "missing.jsonl", "missing.jsonl: No such file or directory"),
    (lambda d: d, "Is a directory"),
    (lambda d: write(d / "e.jsonl", ""), "e.jsonl: no game records in it"),
    (lambda d: write(d / "cut.jsonl", "\n".join(RUN.read_text().splitlines()[:3]) + "}\n"),
     "cut.jsonl:3: not JSON (Extra data at column "),
    (lambda d: write(d / "deep.jsonl", "[" * 100_000 + "\n"),
     "deep.jsonl:1: not JSON that can be read (arrays or objects nested too deeply)"),
    (lambda d: write(d / "junk.jsonl", '{"a": 1}\n'), "junk.jsonl:1: not a game record"),
    # a last line not ended that no record begins as: not one a stopped run cut short
    (lambda d: write(d / "tail.jsonl", RUN.read_text() + "hello world"),
     'not a record (a line a stopped run cut short begins {"match": ...)'),
    (lambda d: EXAMPLE, "game 'example' is not of 'allfives match --record'"),
    (lambda d: MATCHES, "a game of whole matches (--matches)"),
    # a score edited by hand: the match played again by the rules does not give it
    (lambda d: write(d / "edited.jsonl", re.sub(r'"score": \{"N": \d+', '"score": {"N": 99',
                                                RUN.read_text(), count=1)),
     'edited.jsonl:1: match \'0:0:0\': deal 1, score: recorded {"N": 99,'),
])
def test_paired_refuses_what_is_no_run_in_one_line(tmp_path, make, fragment):
    with pytest.raises(SystemExit) as stop:
        script("paired.py")["main"]([str(make(tmp_path)), str(RUN)])
    assert str(stop.value).startswith("paired.py: ") and fragment in str(stop.value)
    assert "\n" not in str(stop.value)


def test_paired_holds_each_game_to_its_run_as_resume_does(tmp_path, capsys):
    """Runs of two seeds joined in one file were read as one run, the later seed's games in
    place of the earlier's; a game's players swapped, or a group's game left out, passed."""
    lines = RUN.read_text(encoding="utf-8").splitlines(keepends=True)
    other, _ = duplicate_run(tmp_path, "heuristic", "random", 2, seed=1, groups=2)
    joined = write(tmp_path / "joined.jsonl", "".join(lines) + other.read_text())
    assert '"match": "0:1:0"' in lines[2]
    swapped = write(tmp_path / "swapped.jsonl", "".join(lines[:2] + [lines[2].replace(
        '"players": {"N": "heuristic", "S": "random"}', '"players": {"N": "random", "S": '
        '"heuristic"}')] + lines[3:]))
    gap = write(tmp_path / "gap.jsonl", "".join(lines[:4] + lines[5:]))
    for path, message in [
            (joined, f"joined.jsonl:{len(lines) + 1}: game '1:0:0': not a game of seed 0 "
                     f"(its name is SEED:GROUP:SEATING)"),
            (swapped, "swapped.jsonl:3: game '0:1:0': its players are N random, S heuristic, "
                      "not N heuristic, S random"),
            (gap, "gap.jsonl: group 3 is in the records, but group 2 is not whole")]:
        for given in ([path], [path, RUN], [RUN, path]):
            with pytest.raises(SystemExit) as stop:
                script("paired.py")["main"]([str(name) for name in given])
            assert str(stop.value) == f"paired.py: {tmp_path}/{message}"
            # nothing shown of a comparison refused
            assert capsys.readouterr().out == ""


def test_paired_reads_a_run_of_one_group(tmp_path, capsys):
    """A run of one deal without --duplicate, or a --duplicate run stopped in its first
    group's first seating, hold one group in one seating: read as a run without --duplicate
    (they ended in a traceback)."""
    alone = tmp_path / "one.jsonl"
    run("match", "heuristic", "random", "--deals", 1, "--record", alone)
    first = write(tmp_path / "first.jsonl", RUN.read_text().splitlines(keepends=True)[0])
    for path in (alone, first):
        script("paired.py")["main"]([str(path)])
        assert capsys.readouterr().out.endswith("(one group: no interval), 1 group\n")
    with pytest.raises(SystemExit, match="one run is --duplicate, the other not"):
        script("paired.py")["main"]([str(RUN), str(first)])


@pytest.mark.parametrize("cut", [40, 400, 4000])
def test_paired_counts_the_groups_of_a_run_stopped_as_resume_reads_them(tmp_path, capsys,
                                                                       cut):
    """A run stopped before its end leaves its last line cut short and its last group not
    whole: paired.py leaves both out, and counts the groups 'match --resume' reads back."""
    data = RUN.read_bytes()[:-cut]
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_bytes(data)
    script("paired.py")["main"]([str(stopped)])
    out = capsys.readouterr()
    shown = int(out.out.split(", ")[-1].split()[0])
    resumed = records(run("match", "heuristic", "random", "--duplicate", "--deals", 8,
                          "--record", stopped, "--resume", "--json"))[0]["resumed"]
    assert shown == resumed < 8
    assert "not whole left out" in out.err
    assert "stopped.jsonl: its last line, cut short as the run was stopped, left out" in out.err


def test_paired_refuses_runs_that_do_not_pair(tmp_path, capsys):
    paired = script("paired.py")
    one, _ = duplicate_run(tmp_path, "heuristic", "random", 2)
    other_b, _ = duplicate_run(tmp_path, "random", "cheater", 2)
    capsys.readouterr()
    paired["main"]([str(one), str(other_b)])
    assert "against random, " in capsys.readouterr().err
    itself, _ = duplicate_run(tmp_path, "random", "random", 2)      # B is "random (B)"
    paired["main"]([str(one), str(itself)])
    assert "not the same B" not in capsys.readouterr().err
    rotated = tmp_path / "rotated.jsonl"
    run("match", "random", "heuristic", "--deals", 8, "--record", rotated)
    with pytest.raises(SystemExit) as stopped:
        paired["main"]([str(one), str(rotated)])
    assert stopped.value.code == (f"paired.py: {one} plays each group in 2 seatings, {rotated} "
                                  f"in 1 seating: one run is --duplicate, the other not")
    with pytest.raises(SystemExit, match="unknown option --bycalls"):
        paired["main"]([str(one), str(one), "--bycalls"])
    # of several pairs, the two files that do not pair are named
    reseeded, _ = duplicate_run(tmp_path, "random", "heuristic", 2, seed=1)
    with pytest.raises(SystemExit) as stopped:
        paired["main"]([str(one), str(itself), str(one), str(reseeded)])
    assert stopped.value.code == (f"paired.py: group 0 was played at another table, by other "
                                  f"rules or with other cards in {one} and {reseeded}: not the "
                                  f"same --players, --rules or --seed")
    # refused, it is that one line: the notes on the runs read before (fewer groups) unsaid
    reseeded_fewer, _ = duplicate_run(tmp_path, "random", "heuristic", 2, seed=1, groups=5)
    capsys.readouterr()
    with pytest.raises(SystemExit, match="group 0 was played at another table"):
        paired["main"]([str(one), str(reseeded_fewer)])
    assert capsys.readouterr() == ("", "")
    fewer, _ = duplicate_run(tmp_path, "random", "heuristic", 2, groups=5)
    capsys.readouterr()
    paired["main"]([str(one), str(fewer)])
    out = capsys.readouterr()
    assert "has 8 groups" in out.err and "compared over the 5 both played" in out.err
    assert out.out.splitlines()[2].endswith(", 5 groups")


def write(path, text):
    path.write_text(text)
    return path


def test_given_up_finds_the_heuristic_playing_its_own_cards_and_random_play_giving_more(
        tmp_path, capsys):
    path, _ = duplicate_run(tmp_path, "heuristic", "random", 4, groups=4)
    script("given_up.py")["main"]([str(path), "--by-place"])
    out = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in out[2:] if not line.startswith(" ")}
    assert set(rows) == {"heuristic", "random"}
    assert rows["heuristic"][-1] == "100.0%"
    # random play gives more away, choice for choice, than the heuristic
    assert float(rows["random"][3]) > float(rows["heuristic"][3])
    assert any(line.startswith("  trick 1 place 0:") for line in out)


@pytest.mark.parametrize("see,shown,dealt", [("partner", (2,), 1), ("opponents", (1, 3), 2)])
def test_the_sighted_player_deals_only_the_hands_it_does_not_see(monkeypatch, see, shown,
                                                                  dealt):
    import solver.sampling as sampling
    from solver.cards import sort_cards
    from solver.game import PLAY, Match
    from solver.players import HeuristicPlayer, PlayerError, decide

    sighted = script("sighted.py")["sighted"]
    with pytest.raises(PlayerError, match="see: 'nobody' is not 'partner' or 'opponents'"):
        sighted(seed=1, see="nobody")
    player = sighted(seed=1, see=see, worlds=8, time_limit=None, node_limit=300_000)
    drawn = []
    real = sampling.sample_worlds

    def recording(*args, **options):
        worlds = real(*args, **options)
        drawn.append(worlds)
        return worlds

    monkeypatch.setattr(sampling, "sample_worlds", recording)
    state = Match(players=4).new_initial_state(seed=4)
    heuristic, checked = HeuristicPlayer(), 0
    while not state.is_terminal() and checked < 6:
        if state.phase == PLAY and len(state.legal_actions()) > 1:
            seat = state.current_player()
            drawn.clear()
            card = decide(player, state)
            [worlds] = drawn
            assert len(worlds) == 8
            for k in shown:
                seen = (seat + k) % 4
                assert all(w.hands[seen] == tuple(sort_cards(state.hands[seen]))
                           for w in worlds)
            assert len({w.hands[(seat + dealt) % 4] for w in worlds}) > 1
            checked += 1
        else:
            card = decide(heuristic, state)
        state.apply_action(card)
    assert checked == 6


def test_advice_time_advises_on_each_first_card_and_reports_six_card_hands_apart(
        monkeypatch, capsys):
    import cli.advising
    from solver.game import PLAY, Match
    from solver.players import HeuristicPlayer, decide

    asked = []

    def advice_for(observation, worlds, seed):
        asked.append((observation, worlds))

    monkeypatch.setattr(cli.advising, "advice_for", advice_for)
    script("advice_time.py")["main"](["6"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        f"{players} players, {worlds} deals" for players in (2, 4) for worlds in (16, 64, 128)]
    assert len(asked) == 1 + 6 * 6
    asked.pop(0)        # (the one untimed, that sets the engine up)
    heuristic = HeuristicPlayer()
    for k, (observation, worlds) in enumerate(asked):
        players, seed = (2, 4)[k // 18], k % 6
        assert worlds == (16, 64, 128)[k // 6 % 3]
        # the oracle: the seed's first deal called by the heuristic, up to its first card
        state = Match(players=players).new_initial_state(seed=seed)
        while state.phase != PLAY:
            state.apply_action(decide(heuristic, state))
        assert observation.phase == PLAY and not observation.play
        assert observation.seat == state.current_player()
        assert sorted(observation.hand) == sorted(state.hands[observation.seat])
    for line in lines:
        six = int(line.split("6-card hands (")[1].split(")")[0])
        deeper = line.split("deeper: ")[1]
        assert six + (0 if deeper == "none" else len(deeper.split(", "))) == 6


def test_hint_time_advises_the_first_card_of_each_deep_deal_with_both_budgets(monkeypatch,
                                                                            capsys):
    import cli.advising
    import cli.playing
    from solver.game import PLAY, Match
    from solver.players import HeuristicPlayer, decide

    asked = []

    def advice_for(observation, worlds, seed, node_limit=None):
        asked.append((observation, node_limit))
        best = observation.legal_actions[len(asked) == 5]   # (the second deal's hint differs)
        return SimpleNamespace(best=best, method="solved", worlds=64)

    monkeypatch.setattr(cli.advising, "advice_for", advice_for)
    script("hint_time.py")["main"](["2", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.endswith(" card") and line.split()[-2] for line in lines[:3]] == [
        "same", "another", "same"]
    assert lines[3].startswith("2 players, 3 deals: median advise ")
    assert lines[3].endswith("; the same best card in 2")
    asked.pop(0)        # (the one untimed, that sets the engine up)
    assert [nodes for _, nodes in asked] == [cli.advising.ADVICE_NODES,
                                             cli.playing.HINT_NODES] * 3
    # the oracle: the heuristic's matches from seed 0 on, each deal's first card where the
    # hands hold more than six
    wanted = []
    heuristic = HeuristicPlayer()
    seed = 0
    while len(wanted) < 3:
        state = Match(players=2).new_initial_state(seed=seed)
        while not state.is_terminal() and len(wanted) < 3:
            if state.phase == PLAY and not state.observation(state.current_player()).play \
                    and len(state.hands[state.current_player()]) > 6:
                wanted.append(state.observation(state.current_player()))
            state.apply_action(decide(heuristic, state))
        seed += 1
    assert [obs for obs, _ in asked[::2]] == wanted == [obs for obs, _ in asked[1::2]]


def test_the_sighted_player_plays_alike_in_one_process_and_in_two_workers(tmp_path):
    import json
    import subprocess
    import sys

    reports = []
    for jobs in (1, 2):
        out = subprocess.run(
            [sys.executable, str(SCRIPTS / "sighted.py"), "match",
             "sighted:worlds=4,time_limit=none,node_limit=100000", "heuristic", "--duplicate",
             "--deals", "4", "--players", "4", "--jobs", str(jobs), "--json"],
            capture_output=True, text=True, check=True, cwd=tmp_path).stdout
        report = json.loads(out.splitlines()[-1])
        reports.append((report["difference"], report["games"]))
    assert reports[0] == reports[1]


@pytest.mark.parametrize("spec", ["sighted:worlds=4,time_limit=none,node_limit=100000",
                                  "foresight:play=heuristic,see=hands,packs=2"])
def test_paired_reads_a_run_of_the_sighted_player(tmp_path, capsys, spec):
    """The README compares sighted.py's runs with paired.py: it said 'unknown player'."""
    import subprocess
    import sys

    sighted = tmp_path / "sighted.jsonl"
    subprocess.run([sys.executable, str(SCRIPTS / "sighted.py"), "match", spec, "heuristic",
                    "--duplicate", "--deals", "3", "--players", "4", "--record", str(sighted)],
                   capture_output=True, check=True, cwd=tmp_path)
    plain, _ = duplicate_run(tmp_path, "random", "heuristic", 4, groups=3)
    script("paired.py")["main"]([str(sighted), str(plain), "--by-calls"])
    out = capsys.readouterr().out
    assert out.startswith(f"{spec} (") and "first less second, group by group:" in out, out


def _called(state, players):
    """The deal in ``state`` (made with ``auto_deal=False``) played on to its end by
    ``players`` (one a seat); its result for every side, by the points pegged in it."""
    from solver.game import ELDER, DEALER, PLAY

    while state.phase in (ELDER, DEALER, PLAY):
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat)))
    log = state.deals[-1]
    sides = 3 if state.players == 3 else 2
    points = [sum(p.points for p in log.pegs if p.side == s) for s in range(sides)]
    return [p - sum(points[:s] + points[s + 1:]) / (sides - 1) for s, p in enumerate(points)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_foresight_calls_what_the_deal_it_will_be_dealt_pays_best(players):
    """Each call of ``foresight`` (seeing the pack) is one that, the deal played on from a copy
    of the state by the heuristic at every seat, brings its side as much as any other; its own
    player's call where that does."""
    import random

    from solver.game import DEALER, ELDER, Match
    from solver.players import HeuristicPlayer, decide
    from solver.shuffle import shuffled_pack
    from solver.tricks import side_of

    foresight = script("sighted.py")["foresight"]
    heuristic = HeuristicPlayer()
    checked = overruled = 0
    for seed in range(60):
        state = Match(players).new_initial_state(dealer=seed % players, auto_deal=False)
        state.deal_pack(shuffled_pack(random.Random(seed)))
        player = foresight(seed=seed, play="heuristic")
        while state.phase in (ELDER, DEALER):
            seat = state.current_player()
            value = {}
            for call in state.legal_actions():
                branch = state.clone()
                branch.apply_action(call)
                value[call] = _called(branch, [heuristic] * players)[side_of(seat, players)]
            chosen = decide(player, state)
            own = heuristic.act(state.observation(seat))
            assert value[chosen] == max(value.values()), (seed, value, chosen)
            assert chosen == own or value[chosen] > value[own]
            overruled += chosen != own
            checked += 1
            state.apply_action(chosen)
    assert checked >= 60 and overruled > 0


def test_foresight_seeing_the_hands_values_its_calls_on_packs_that_deal_them(monkeypatch):
    """With ``see=hands`` every pack a call is played out from deals the hands and the turn-up
    as they are, and the calls' values are their means over ``packs`` packs."""
    from solver import calling
    from solver.cards import ALL_CARDS
    from solver.game import ELDER, Match
    from solver.players import decide
    from solver.shuffle import deal_pack

    foresight = script("sighted.py")["foresight"]
    packs, real = [], calling.branch_results

    def recording(observation, pack):
        packs.append(list(pack))
        return real(observation, pack)

    monkeypatch.setattr(calling, "branch_results", recording)
    for players in (2, 4):
        state = Match(players).new_initial_state(seed=players)
        assert state.phase == ELDER
        player = foresight(seed=1, play="heuristic", see="hands", packs=5)
        packs.clear()
        observation = state.observation(state.current_player())
        values = player.call_values(observation, state)
        assert len(packs) == 5 and len({tuple(p) for p in packs}) == 5
        for pack in packs:
            hands, turnups = deal_pack(pack, players, state.dealer)
            assert sorted(pack) == sorted(ALL_CARDS)
            assert [sorted(h) for h in hands] == [sorted(h) for h in state.hands]
            assert turnups == state.turnups
        means = {call: sum(real(observation, p)[call] for p in packs) / 5 for call in values}
        assert values == pytest.approx(means)
        decide(player, state)


def test_the_sighted_player_is_refused_a_cluster_in_one_line(tmp_path):
    """A cluster's workers import allfives afresh and know no 'sighted' player: the run said
    'unknown player' from the cluster."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(SCRIPTS / "sighted.py"), "match", "sighted",
                           "heuristic", "--scheduler", "127.0.0.1:1"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "allfives: error: --scheduler: the sighted and foresight players " \
                          "are known to this script and its --jobs workers only, not to a " \
                          "cluster's\n"


@pytest.mark.parametrize("solved", [[], ["--solved", "2"]])
def test_playout_choice_judges_the_played_out_card_against_another(tmp_path, solved):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(SCRIPTS / "playout_choice.py"), "2", "3",
                           *solved], capture_output=True, text=True, cwd=tmp_path, check=True)
    other = "solved over 2" if solved else "heuristic"
    assert re.fullmatch(rf"2p runs=0: 3 decisions, same card \d; played-out minus {other} "
                        rf"\(DD mean over 64 worlds\) [-+]\d\.\d{{3}} \([-+]\d\.\d{{3}} \.\. "
                        rf"[-+]\d\.\d{{3}}\)\n", done.stdout), done.stdout


def test_interval_coverage_counts_the_intervals_that_cover_the_mean_over_every_world(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPTS / "interval_coverage.py"), "3", "2",
                           "8", "16", "--samples", "3"], capture_output=True, text=True,
                          cwd=tmp_path, check=True, timeout=600)
    head, columns, *rows = done.stdout.splitlines()
    assert head == "3 players, 2 positions, 3 samples of K worlds each"
    assert columns.split() == ["K", "covered", "now", "covered", "before", "not", "known", "now"]
    assert [row.split()[0] for row in rows] == ["8", "16"]
    share = r"(\d+\.\d)%"
    for row in rows:
        found = re.fullmatch(rf"\s*\d+\s+{share} \(.*\)\s+{share} \(.*\)\s+{share}", row)
        assert found, row
        now, before, unknown = map(float, found.groups())
        # (a point where the worlds drawn agree is inside what replaced it; not known covers)
        assert now >= before and 0 <= unknown <= now <= 100


def test_interval_coverage_measures_the_remedies_not_kept_on_the_same_samples(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPTS / "interval_coverage.py"), "2", "2",
                           "8", "--samples", "3", "--remedies"], capture_output=True, text=True,
                          cwd=tmp_path, check=True, timeout=600)
    lines = done.stdout.splitlines()
    now = float(re.match(r"\s*8\s+(\d+\.\d)%", lines[2]).group(1))
    assert lines[3].split()[:3] == ["K", "remedy", "covered"]
    found = {}
    for line in lines[4:]:
        k, name, covered, width = re.fullmatch(
            r"\s*(\d+)\s+(skewness|floor|own floor)\s+(\d+\.\d)% \(.*\)\s+(\d\.\d{3})",
            line).groups()
        found[name] = (float(covered), float(width))
    assert list(found) == ["skewness", "floor", "own floor"]
    # a floor only widens, the own spread's less than the widest's
    assert found["floor"][0] >= found["own floor"][0] >= now
    assert found["floor"][1] >= found["own floor"][1] >= 1 and found["skewness"][1] == 1


@pytest.mark.parametrize("args, said", [
    (["given_up.py"], "given_up.py: usage: given_up.py FILE [DEALS] [--by-place]"),
    (["given_up.py", "run.jsonl", "x"], "given_up.py: DEALS: 'x' is not a whole number from 1"),
    (["given_up.py", "none.jsonl"], "given_up.py: none.jsonl: No such file or directory"),
    (["playout_choice.py"], "playout_choice.py: usage: playout_choice.py PLAYERS DECISIONS "
                            "[RUNS] [--solved K] (whole numbers, K from 1)"),
    (["playout_choice.py", "2", "3", "--solved", "0"],
     "playout_choice.py: usage: playout_choice.py PLAYERS DECISIONS [RUNS] [--solved K] (whole "
     "numbers, K from 1)"),
    (["playout_choice.py", "5", "3"], "playout_choice.py: PLAYERS is 2, 3 or 4, DECISIONS 2 or "
                                      "more and RUNS 0 to 2, not 5 3"),
    (["playout_choice.py", "2", "1"], "playout_choice.py: PLAYERS is 2, 3 or 4, DECISIONS 2 or "
                                      "more and RUNS 0 to 2, not 2 1"),
    (["advice_time.py", "0"], "advice_time.py: usage: advice_time.py [SEEDS] (a whole number "
                              "from 1)"),
    (["interval_coverage.py", "3"], "interval_coverage.py: usage: interval_coverage.py PLAYERS "
                                    "POSITIONS [K ...] [--samples S] [--remedies] (whole numbers)"),
    (["interval_coverage.py", "3", "9", "300"], "interval_coverage.py: PLAYERS is 2, 3 or 4, "
                                                "POSITIONS 2 or more and each K 2 to 256, not "
                                                "3 9 300"),
    (["interval_coverage.py", "3", "9", "--samples", "0"],
     "interval_coverage.py: --samples takes a whole number from 1"),
    (["hint_time.py", "5"], "hint_time.py: usage: hint_time.py [PLAYERS] [DEALS] (2, 3 or 4 "
                            "players; deals from 1)"),
    (["hint_time.py", "4", "0"], "hint_time.py: usage: hint_time.py [PLAYERS] [DEALS] (2, 3 or "
                                 "4 players; deals from 1)"),
])
def test_a_script_given_what_it_cannot_take_says_so_in_one_line(tmp_path, args, said):
    """The scripts the README names gave tracebacks (IndexError, ValueError, a division by
    zero) where paired.py says what is wrong in a line."""
    import subprocess
    import sys

    (tmp_path / "run.jsonl").write_text("")
    done = subprocess.run([sys.executable, str(SCRIPTS / args[0]), *args[1:]],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 1 and done.stdout == "" and done.stderr == said + "\n"


def test_worlds_choice_judges_the_two_cards_where_they_differ(monkeypatch):
    """The gain at a decision is the judged mean of MANY worlds' card less FEW's, 0 where the
    two pick the same card; ties go to the heuristic's card (the oracle: values made up to
    pick a known card at each count)."""
    worlds_choice = script("worlds_choice.py")
    calls = []

    def made_up(observation, cards, count, rng, solver, objective):
        calls.append(count)
        ordered = sorted(cards)
        if count == 9:      # the judge: each card worth its place in the order
            return {card: float(ordered.index(card)) for card in cards}
        if count == 2:      # FEW: the lowest card best, all the rest level
            return {card: 1.0 if card == ordered[0] else 0.0 for card in cards}
        return dict.fromkeys(cards, 0.0)      # MANY: all level, so the heuristic's card

    monkeypatch.setitem(worlds_choice["gains"].__globals__, "means", made_up)
    found, same = worlds_choice["gains"](2, 12, 2, 5, 9, first=False)
    assert len(found) == 12 and calls.count(2) == calls.count(5) == 12
    assert calls.count(9) == 12 - same
    # where they differ, the heuristic's card (MANY's) less the lowest (FEW's): its place
    assert sum(g > 0 for g in found) == 12 - same and 0 < same < 12
    assert all(g == int(g) and g >= 0 for g in found)
    with pytest.raises(SystemExit, match="1 <= FEW < MANY"):
        worlds_choice["main"](["2", "5", "16", "8", "8"])
    with pytest.raises(SystemExit, match="usage"):
        worlds_choice["main"](["2", "5", "16", "first"])


@pytest.mark.parametrize("script", ["advice_time.py", "given_up.py", "hint_time.py",
                                    "paired.py", "playout_choice.py", "worlds_choice.py"])
def test_each_script_says_how_to_run_it_on_help(script):
    """--help printed a usage error (status 1), or for paired.py 'unknown option --help': now
    the script's notes, which say how to run it, and status 0."""
    import ast

    notes = ast.get_docstring(ast.parse((SCRIPTS / script).read_text(encoding="utf-8")))
    done = subprocess.run([sys.executable, str(SCRIPTS / script), "--help"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == notes.strip(), done.stderr


@pytest.mark.parametrize("script, wrong", [("curate.py", []), ("curate.py", ["a", "b", "x"]),
                                           ("rerate.py", ["candidates"])])
def test_the_collections_scripts_say_how_to_run_them(script, wrong):
    """``--help`` prints the notes, and wrong arguments a usage line and status 1: curate.py
    without its arguments was an IndexError, and rerate.py took ``--help`` for a run that
    rates the whole collection again in place."""
    import ast

    path = SCRIPTS.parent / "puzzles" / script
    notes = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    done = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == notes.strip(), done.stderr
    done = subprocess.run([sys.executable, str(path), *wrong], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and done.stderr.startswith(f"{script}: usage: ") \
        and done.stderr.count("\n") == 1, done.stderr
