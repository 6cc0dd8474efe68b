"""The statistics (solver.stats) at their edges: Student's t at an infinite t, at infinite
freedom, just below 0, of one and two degrees of freedom to double precision, and at a
freedom so small that Newton's step has no slope; confidences of 0 and 1 refused; the
nearest-rank percentile at its lowest ranks; Wilson's interval of one trial, of one success
and of infinitely many trials, no trials refused; which intervals exclude zero (one ending
at 0 does not); one value's and two values' intervals; the bootstrap's defaults (2,000
resamples, seed 0), its resampled means all on one side of the mean, and its ends where the
acceleration reaches past them; the design effect of outcomes in groups measured from 100
groups and not from 99; a tally of times kept exactly up to its limit, and its median once
binned; infinite times and negative outcomes refused; the intervals and summaries as text,
and as values that cannot be changed."""

from __future__ import annotations

import dataclasses
import math
import random
import statistics

import pytest

from solver.stats import (StatsError, bootstrap_interval, grouped_share_interval, mean_interval,
                          percentile, t_cdf, t_quantile, time_summary, wilson_bounds,
                          wilson_interval)

Z95 = 1.959963984540054      # the normal's 97.5% quantile


def test_t_at_an_infinite_t_is_certain():
    # (t² past a float's reach: the beta function at 0, not a log of 0)
    assert t_cdf(math.inf, 5) == 1.0 and t_cdf(-math.inf, 5) == 0.0
    assert t_cdf(1e200, 3) == 1.0 and t_cdf(-1e200, 3) == 0.0


def test_t_of_infinite_freedom_is_the_normal():
    for t in (-1.5, 0.3, 1.96):
        assert t_cdf(t, math.inf) == pytest.approx(0.5 * (1 + math.erf(t / math.sqrt(2))),
                                                   abs=1e-15)


def test_t_just_below_zero_is_below_one_half():
    # one degree of freedom is the Cauchy: P(T <= t) = 1/2 + atan(t)/π
    for t in (-0.9, -0.5, -0.1):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
        assert t_cdf(t, 7) + t_cdf(-t, 7) == pytest.approx(1.0, abs=1e-12)


def density_at_zero(df: float) -> float:
    return math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)


def test_t_far_out_is_its_tail_not_a_difference_from_one_half():
    """(-11.1 at 415 freedoms: some 1.34e-25, which ½ less the middle would make 0); the tail
    against its leading term, f(t) · (df + t²) / ((df - 1) |t|) (1 - ...)."""
    t, df = -11.113601253568419, 415.475563927278
    density = density_at_zero(df) * (1 + t * t / df) ** (-(df + 1) / 2)
    assert t_cdf(t, df) == pytest.approx(density * (df + t * t) / ((df - 1) * -t), rel=2e-2)
    assert 1e-25 < t_cdf(t, df) < 2e-25


def test_t_a_hair_from_zero_at_many_degrees_of_freedom():
    """Within 1e-7 of 0 the distribution is its density there times t: 1 - df/(df + t²) had
    lost t² to rounding (P(T <= 1e-7) at 10,000 freedoms was exactly ½, and the quantile of
    ½ + 1e-9 some 200 times too large, its search stopped at 200 steps)."""
    for t, df in ((1e-7, 1e4), (-1e-7, 1e4), (1e-9, 1e6), (3e-8, 2.5)):
        assert abs(t_cdf(t, df) - (0.5 + t * density_at_zero(df))) < 1e-15
    for p, df in ((0.5 + 1e-9, 1e4), (0.5 + 1e-7, 1e6)):
        assert t_quantile(p, df) == pytest.approx((p - 0.5) / density_at_zero(df), rel=1e-6)


@pytest.mark.parametrize("df", [1e4, 1e6])
def test_t_quantiles_at_many_degrees_of_freedom_to_1e_11(df):
    """Against the Cornish-Fisher expansion in 1/df, to four terms (its error some 1e-20
    here): the difference of two lgamma values near df/2 · ln(df/2), which kept only some
    1e-16 of them, and ln x for an x within a rounding of 1, times df/2, left 2e-9 at a
    million freedoms."""
    for p in (0.9, 0.95, 0.975, 0.995, 0.9995):
        z = statistics.NormalDist().inv_cdf(p)
        terms = [(z ** 3 + z) / 4, (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
                 (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
                 (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160]
        expanded = z + sum(term / df ** (k + 1) for k, term in enumerate(terms))
        assert t_quantile(p, df) == pytest.approx(expanded, rel=1e-11)


@pytest.mark.parametrize("p", [0.6, 0.9, 0.975, 0.995])
def test_t_quantiles_of_one_and_two_degrees_of_freedom_to_double_precision(p):
    """Their closed forms: one degree of freedom is the Cauchy, tan(π(p - ½)); two,
    (2p - 1)·√(2 / (4p(1 - p))).  Within 1e-13 (the module's notes: 1e-14 for 95%)."""
    assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-13)
    assert t_quantile(p, 2) == pytest.approx((2 * p - 1) * math.sqrt(2 / (4 * p * (1 - p))),
                                             rel=1e-13)


def test_t_quantile_where_newtons_step_has_no_slope():
    """A freedom of 1e-9 and a quantile near 1e150, where t²/df overflows and the density
    there is 0: halving the bracket finds it."""
    p = 0.5 + 1.78e-7
    t = t_quantile(p, 1e-9)
    assert 1e148 < t < 1e150
    assert t_cdf(t, 1e-9) == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("call", [
    lambda confidence: mean_interval([1.0, 2.0, 4.0], confidence),
    lambda confidence: wilson_interval(3, 10, confidence),
    lambda confidence: bootstrap_interval([1.0, 2.0, 4.0], confidence),
])
def test_a_confidence_of_0_or_1_is_refused(call):
    for confidence in (0, 0.0, 1, 1.0):
        with pytest.raises(StatsError, match="is not a probability between 0 and 1"):
            call(confidence)


def test_the_nearest_rank_percentile_is_never_below_the_first():
    # rank ⌈p/100 · n⌉, at least 1: the smallest of three from 0 to 33⅓%, then the next
    times = [0.3, 0.1, 0.2]
    assert percentile(times, 0) == 0.1
    assert percentile(times, 10) == 0.1 and percentile(times, 33) == 0.1
    assert percentile(times, 34) == 0.2 and percentile(times, 100) == 0.3


def test_wilson_of_one_trial():
    # p = 1, n = 1: (1 + z²/2 ± z²/2) / (1 + z²), that is 1/(1 + z²) .. 1
    won, lost = wilson_interval(1, 1), wilson_interval(0, 1)
    assert (won.low, won.high) == pytest.approx((1 / (1 + Z95 ** 2), 1.0), abs=1e-12)
    assert (lost.low, lost.high) == pytest.approx((0.0, Z95 ** 2 / (1 + Z95 ** 2)), abs=1e-12)
    assert won.n == lost.n == 1


def test_wilson_of_one_success_is_not_held_to_zero():
    # 1 of 10: (0.1 + z²/20 ± z·√(0.009 + z²/400)) / (1 + z²/10), some 1.79% .. 40.41%
    one = wilson_interval(1, 10)
    centre = (0.1 + Z95 ** 2 / 20) / (1 + Z95 ** 2 / 10)
    half = Z95 * math.sqrt(0.009 + Z95 ** 2 / 400) / (1 + Z95 ** 2 / 10)
    assert (one.low, one.high) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert (one.low, one.high) == pytest.approx((0.0179, 0.4041), abs=1e-4)


def test_wilson_refuses_no_trials_and_fewer_than_no_successes():
    for successes in (0, 1):
        with pytest.raises(StatsError, match="n 0 must be a whole number from 1"):
            wilson_interval(successes, 0)
    with pytest.raises(StatsError, match="successes -1 must lie between 0 and n = 10"):
        wilson_interval(-1, 10)


def test_wilson_of_infinitely_many_trials_is_the_share():
    assert wilson_bounds(0.3, math.inf) == (0.3, 0.3)
    assert wilson_bounds(1.0, math.inf) == (1.0, 1.0)


def test_an_interval_excludes_zero_only_where_zero_is_outside_it():
    # 0.5 ± t(0.975, 2) · 0.1/√3 = 0.5 ± 4.3027 · 0.0577: some 0.252 .. 0.748
    near = mean_interval([0.4, 0.5, 0.6])
    assert 0 < near.low < near.high < 1 and near.excludes_zero()
    mirrored = mean_interval([-0.4, -0.5, -0.6])
    assert -1 < mirrored.low < mirrored.high < 0 and mirrored.excludes_zero()
    across = mean_interval([-0.1, 0.0, 0.1])
    assert -1 < across.low < 0 < across.high < 1 and not across.excludes_zero()
    # resampling (0, 1): means 0, 1/2 and 1, the interval 0 .. 1 (test_stats.py); an interval
    # ending at 0 holds it
    upper = bootstrap_interval([0, 1], resamples=4000, seed=1)
    lower = bootstrap_interval([-1, 0], resamples=4000, seed=1)
    assert (upper.low, upper.high, lower.low, lower.high) == (0.0, 1.0, -1.0, 0.0)
    assert not upper.excludes_zero() and not lower.excludes_zero()


def test_one_value_is_one_group_and_two_have_a_spread():
    assert mean_interval([4.0]).n == 1 and bootstrap_interval([4.0]).n == 1
    # 1 and 3: mean 2, sd √((1 + 1) / 1)
    for interval in (mean_interval([1.0, 3.0]), bootstrap_interval([1.0, 3.0])):
        assert (interval.n, interval.mean) == (2, 2.0)
        assert interval.sd == pytest.approx(math.sqrt(2))


def test_the_bootstrap_draws_2000_resamples_seeded_0_unless_told():
    # (the match report's bootstrap: README, "2,000 resamples of the groups")
    squares = [float(i * i) for i in range(14)]
    assert bootstrap_interval(squares) == bootstrap_interval(squares, resamples=2000, seed=0)


def test_the_bootstrap_past_the_accelerations_reach_is_the_end_of_the_means():
    """One group in fifty far from the rest leans the values as far as they can lean (an
    acceleration near 1/6); at a confidence of 1 - 1e-12 the moved percentile is past its
    reach, and the bounds are the smallest and the largest resampled mean."""
    values = [0.0] * 49 + [1.0]
    drawn = random.Random(0)
    means = [math.fsum(drawn.choices(values, k=50)) / 50 for _ in range(2000)]
    leaning = bootstrap_interval(values, confidence=1 - 1e-12, seed=0)
    assert (leaning.low, leaning.high) == (min(means), max(means))
    mirrored = bootstrap_interval([-x for x in values], confidence=1 - 1e-12, seed=0)
    assert (mirrored.low, mirrored.high) == (-max(means), -min(means))


@pytest.mark.parametrize("seed, mean", [(4, 0.0), (5, 1.0)])
def test_the_bootstrap_with_every_resampled_mean_on_one_side(seed, mean):
    """Three resamples of (0, 1) that all draw the same value twice: every resampled mean lies
    on one side of the mean, the bias is held finite, and the interval is that one mean."""
    drawn = random.Random(seed)
    assert {math.fsum(drawn.choices([0.0, 1.0], k=2)) / 2 for _ in range(3)} == {mean}
    interval = bootstrap_interval([0.0, 1.0], resamples=3, seed=seed)
    assert (interval.low, interval.high) == (mean, mean)


def shared_win_groups(pairs_won_twice: int) -> list[list[float]]:
    """Duplicate pairs that mostly split, one holding a shared win (so not paired outcomes)."""
    return ([[1, 1]] * pairs_won_twice + [[0, 0]] * 4 + [[1, 0]] * 40 + [[0, 1]] * 40
            + [[1, 0.5]])


def ratio_effective(groups: list[list[float]]) -> float:
    """p(1 - p) over the ratio estimator's variance Σ (S_g - p·m_g)² / (G (G-1) m̄²)."""
    n = sum(map(len, groups))
    p = sum(map(sum, groups)) / n
    count = len(groups)
    variance = sum((sum(g) - p * len(g)) ** 2 for g in groups) / (
        count * (count - 1) * (n / count) ** 2)
    return p * (1 - p) / variance


def test_the_design_effect_is_measured_from_100_groups():
    hundred, ninety_nine = shared_win_groups(15), shared_win_groups(14)
    assert (len(hundred), len(ninety_nine)) == (100, 99)
    measured, capped = grouped_share_interval(hundred), grouped_share_interval(ninety_nine)
    assert measured.effective == pytest.approx(ratio_effective(hundred), rel=1e-9)
    assert measured.effective > 2 * measured.n                   # split pairs tell more
    assert ratio_effective(ninety_nine) > 2 * capped.n           # but from 99 groups
    assert capped.effective == capped.n == 198                  # no more than counted


def test_a_tally_holds_exactly_as_many_times_as_it_may():
    from solver.stats import TimeTally

    times = [0.0123, 0.0456, 0.0789]
    tally = TimeTally(exact_most=3)
    tally.add(times)
    assert list(tally.values) == times and tally.summary() == time_summary(times)
    tally.add([0.1])
    assert tally.values is None and sum(tally.bins.values()) == 4


@pytest.mark.parametrize("times, median", [([0.04, 0.01, 0.03, 0.02], 0.025),
                                           ([0.05, 0.01, 0.04, 0.02, 0.03], 0.03)])
def test_a_binned_tally_of_a_few_times_has_their_median(times, median):
    """The middle one of an odd count, the mean of the middle two of an even count, each to
    within a bin (a ten-thousandth of it)."""
    from solver.stats import TimeTally

    tally = TimeTally(exact_most=0)
    tally.add(times)
    assert tally.values is None
    assert tally.summary().median == pytest.approx(median, rel=1e-4)
    assert statistics.median(times) == pytest.approx(median)


def test_what_is_no_time_or_no_outcome_is_refused():
    with pytest.raises(StatsError, match="seconds: inf is not a time"):
        time_summary([0.5, math.inf])
    with pytest.raises(StatsError, match="groups: outcome -0.5 is not a number from 0 to 1"):
        grouped_share_interval([[1, -0.5]])


def test_intervals_and_times_as_text():
    # 1 .. 5: 3 ± t(0.975, 4) · √2.5 / √5 = 3 ± 2.7764 · 0.7071
    assert str(mean_interval([1, 2, 3, 4, 5])) == "+3.000 (95% +1.037 .. +4.963, n=5, t)"
    assert str(time_summary([0.001, 0.004, 0.002])) == \
        "3 decisions, median 2 ms, p95 4 ms, max 4 ms"


def test_intervals_shares_and_times_cannot_be_changed():
    for value, field in ((mean_interval([1.0, 2.0]), "mean"), (wilson_interval(1, 2), "successes"),
                         (time_summary([0.5]), "count")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, 3)
        assert hash(value) == hash(dataclasses.replace(value))
