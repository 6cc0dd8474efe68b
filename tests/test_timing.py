"""solver.timing: percentiles, the summary of a class's solves, and timing a small class."""

from __future__ import annotations

import pytest

from solver import benchmark
from solver.stats import percentile
from solver.timing import DEFAULT_CLASSES, ClassTiming, time_class, will_time_dds


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))  # 1 .. 100
    assert percentile(values, 50) == 50
    assert percentile(values, 90) == 90
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile([3.0], 99) == 3.0
    assert percentile([5, 1, 4, 2, 3], 90) == 5  # sorted first
    assert percentile([5, 1, 4, 2, 3], 0) == 1


def test_class_timing_summary():
    timing = ClassTiming("2x6", "t", "points", (0.1, 0.3, 0.2, 0.4), (10, 30, 20, 40),
                         (0.2, 0.2, 0.4, 0.4), 4)
    assert timing.count == 4
    assert timing.median == pytest.approx(0.25)
    assert timing.p90 == 0.4 and timing.p99 == 0.4
    assert timing.nodes_per_second == pytest.approx(100 / 1.0)
    assert timing.dds_median == pytest.approx(0.3)
    assert timing.dds_ratio == pytest.approx(0.25 / 0.3)
    plain = ClassTiming("2x6", "t", "points", (0.1,), (1,))
    assert plain.dds_median is None and plain.dds_ratio is None


def test_time_a_small_class():
    pytest.importorskip("solver.search")
    ticks = []
    timing = time_class("2x6", 4, dds=True, tick=lambda: ticks.append(1))
    assert timing.name == "2x6" and timing.title == benchmark.CLASSES["2x6"].title
    # DDS on as many bridge deals of 6 cards a hand, where endplay is installed
    dds = will_time_dds("2x6")
    assert dds == benchmark.dds_available()
    assert timing.count == 4 and len(ticks) == (8 if dds else 4)
    assert all(s > 0 for s in timing.seconds) and all(n > 0 for n in timing.nodes)
    assert len(timing.dds_seconds) == (4 if dds else 0) and timing.dds_cards == (6 if dds else 0)
    assert timing.dds_agree is None  # agreement is checked on the bridge class's own deals


def test_unknown_class_and_bad_count():
    with pytest.raises(ValueError, match="unknown deal class 'bridge9'"):
        time_class("bridge9", 1)
    with pytest.raises(ValueError, match="at least 1"):
        time_class("2x6", 0)


def test_default_classes_are_classes():
    assert set(DEFAULT_CLASSES) <= set(benchmark.CLASSES)


def test_timing_a_class_holds_no_deal_it_has_timed():
    """``bench --count 20000`` held every deal of the class to the end (some 2.5 KB each): each
    is made as it is timed now, and let go."""
    import tracemalloc

    def peak(count: int) -> int:
        tracemalloc.start()
        try:
            time_class("2x6", count)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    assert peak(1200) - peak(200) < 1_000_000      # (the times and nodes kept: some 70 KB)

