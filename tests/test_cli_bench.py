"""``allfives bench``: the engine timed on seeded deal classes, as a table or JSON; DDS side by
side on the bridge class where endplay is installed."""

from __future__ import annotations

import json
import subprocess

import pytest

from clirun import PROGRAM, records, run
from solver import benchmark

pytest.importorskip("solver.search")

KEYS = {"class", "title", "objective", "deals", "median", "p90", "p99", "nodes", "seconds",
        "median_nodes", "nodes_per_second", "dds"}

def test_json_per_class():
    found = records(run("bench", "--class", "2x6", "--class", "3x6", "--count", "3", "--json"))
    assert [r["class"] for r in found] == ["2x6", "3x6"]
    for record in found:
        assert set(record) == KEYS
        assert record["deals"] == 3
        assert record["title"] == benchmark.CLASSES[record["class"]].title
        assert 0 < record["median"] <= record["p90"] <= record["p99"]
        assert record["nodes"] > 0 and record["nodes_per_second"] > 0
        if benchmark.dds_available():
            # DDS on as many bridge deals of the class's hand size
            dds = record["dds"]
            assert set(dds) == {"median", "ratio", "agree", "cards"}
            assert dds["cards"] == 6 and dds["agree"] is None and dds["median"] > 0
            # (the ratio is given to four decimals: a small one is off by more than 0.1%)
            assert dds["ratio"] == pytest.approx(record["median"] / dds["median"], rel=1e-3,
                                                 abs=5e-5)
        else:
            assert record["dds"] is None


def test_no_dds_beyond_thirteen_cards():
    from solver.timing import will_time_dds

    assert not will_time_dds("2x21") and not will_time_dds("2x15")
    assert will_time_dds("4x12") == benchmark.dds_available()


def test_the_classes_of_every_hand_size():
    for name, players, cards in (("2x12", 2, 12), ("2x15", 2, 15), ("2x21", 2, 21),
                                 ("3x9", 3, 9), ("3x12", 3, 12)):
        (position,) = benchmark.positions(name, 1)
        assert [len(h) for h in position.deal.hands] == [cards] * players


def test_bridge_deals_of_a_hand_size():
    deals = benchmark.bridge_positions(9, 3)
    assert deals == benchmark.bridge_positions(9, 3)  # seeded
    for position in deals:
        hands = position.deal.hands
        assert [len(h) for h in hands] == [9] * 4 and len(set().union(*hands)) == 36


def test_classes_may_be_given_with_commas():
    found = records(run("bench", "--class", "2x6,3x6", "--count", "1", "--json"))
    assert [r["class"] for r in found] == ["2x6", "3x6"]


def test_the_table():
    result = run("bench", "--class", "2x6", "--count", "2")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    header = text.splitlines()[0].split()
    dds = ["DDS", "median", "vs", "DDS"] if benchmark.dds_available() else []
    assert header == ["class", "deals", "median", "p90", "p99", "median", "nodes"] + dds
    row = text.splitlines()[2].split()
    assert row[:2] == ["2x6", "2"]
    assert "2x6: 2 players x 6 cards." in text
    assert "\x1b[" not in text and result.stderr == ""  # no progress bar off a terminal


def test_the_median_nodes_are_the_middle_deals():
    """The median nodes (the table's and JSON's) are those of the middle one of the class's
    deals each solved from a fresh engine, the higher middle one of an even count, as the
    benchmarks count them: nodes are the same on any machine."""
    from solver.search import Solver

    for count in (3, 4):
        nodes = sorted(benchmark.solve_once(Solver(), position, "3x6").nodes
                       for position in benchmark.positions("3x6", count))
        found = records(run("bench", "--class", "3x6", "--count", count, "--json"))[0]
        assert found["median_nodes"] == nodes[count // 2]
        table = run("bench", "--class", "3x6", "--count", count).stdout.splitlines()[2].split()
        assert f"{nodes[count // 2]:,}" in table


def test_the_default_classes(monkeypatch):
    import solver.timing

    asked = []
    real = solver.timing.time_class

    def spy(name, count, **options):
        asked.append((name, count))
        return real("2x6", 1, **options)

    monkeypatch.setattr(solver.timing, "time_class", spy)
    monkeypatch.setattr("cli.benching.time_class", spy)
    assert len(records(run("bench", "--json"))) == 4
    assert asked == [("2x6", 50), ("3x6", 50), ("4x6", 50), ("2x9", 50)]


def test_unknown_class():
    result = run("bench", "--class", "5x5")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("allfives: error: --class: unknown deal class '5x5' "
                                    "(expected one of 2x6, 3x6")


@pytest.mark.skipif(not benchmark.dds_available(), reason="endplay is not installed")
def test_bridge_side_by_side_with_dds():
    (record,) = records(run("bench", "--class", "bridge", "--count", "1", "--json"))
    dds = record["dds"]
    assert set(dds) == {"median", "ratio", "agree", "cards"}
    assert dds["agree"] == 1 and dds["cards"] == 13
    assert dds["ratio"] == pytest.approx(record["median"] / dds["median"], rel=1e-3)




def test_the_installed_program():
    done = subprocess.run([str(PROGRAM), "bench", "--class", "2x6", "--count", "2", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert record["class"] == "2x6" and record["deals"] == 2


@pytest.mark.parametrize("given", ["", ",", " , "])
def test_a_class_list_that_names_none_is_refused(given: str):
    # it once timed nothing and printed an empty table, status 0
    result = run("bench", "--class", given, "--count", "1")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == ("allfives: error: --class: no deal class named (expected one of "
                             "2x6, 3x6, 4x6, 2x9, 2x12, 2x15, 2x21, 3x9, 3x12, 4x9, 4x12, "
                             "bridge)\n")


@pytest.mark.parametrize("given", ["2x6,,3x6", "2x6,", ",2x6"])
def test_a_class_missing_between_commas_is_refused(given: str):
    # "2x6,,3x6" once timed 2x6 and 3x6 without a word of the name left out
    result = run("bench", "--class", given, "--count", "1")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"allfives: error: --class '{given}': a deal class is "
                                    "missing between commas (expected one of 2x6, 3x6, ")
    assert result.stderr.count("\n") == 1


def test_a_class_named_twice_is_timed_once():
    from cli.benching import class_names

    assert class_names(["2x6,3x6", "2x6", " 3x6 ,4x6"]) == ["2x6", "3x6", "4x6"]


def test_ctrl_c_shows_the_classes_timed_before_it(monkeypatch):
    """The text report once threw away every class timed when Ctrl-C came in a later one
    (--json had printed them already)."""
    import cli.benching as benching

    real = benching.time_class

    def interrupted(name, count, **options):
        if name == "3x6":
            raise KeyboardInterrupt
        return real(name, count, **options)

    monkeypatch.setattr(benching, "time_class", interrupted)
    result = run("bench", "--class", "2x6,3x6", "--count", "2")
    assert result.exit_code == 130
    lines = result.stdout.splitlines()
    assert lines[2].startswith("2x6 ") and not any(line.startswith("3x6 ") for line in lines)
    assert lines[-1] == "interrupted: 1 class of 2 timed"


@pytest.mark.parametrize("seconds", [0.0009996, 0.0123456, 0.9996, 12.345, 999.4])
def test_the_table_keeps_to_80_columns_whatever_the_times(seconds):
    """The header is one line at 80 columns with DDS beside and the widest times and counts a
    class can have (times of 8 or 9 characters, 12.34 ms, wrapped the header on a busy
    machine)."""
    import io

    from rich.console import Console

    from cli.benching import bench_table, seconds_short
    from solver.timing import ClassTiming

    timing = ClassTiming("bridge", "bridge", "tricks", (seconds,) * 10000,
                         (123_456_789,) * 10000, (seconds * 1.5,) * 10000, 10000, 13)
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(bench_table([timing], True))
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["class", "deals", "median", "p90", "p99", "median", "nodes",
                                "DDS", "median", "vs", "DDS"]
    assert len(lines) == 3 and seconds_short(seconds) in lines[2]


def test_a_ratio_to_dds_below_one_keeps_two_figures():
    """The engine 25 times faster than DDS showed '0.0x'."""
    from cli.benching import ratio_words

    assert [ratio_words(r) for r in (0.043, 0.2, 0.94, 0.996, 1.0, 26.73, 1225.4, 4e-5, 0)] \
        == ["0.04x", "0.20x", "0.94x", "1.0x", "1.0x", "26.7x", "1225.4x", "<0.01x", "<0.01x"]
