"""solver.stats against values worked out by hand and published tables."""

from __future__ import annotations

import math
import re

import pytest

import random

from solver.stats import (StatsError, bootstrap_interval, grouped_share_interval, mean_interval,
                          paired_difference_bounds, t_cdf, t_quantile, time_summary, wilson_bounds,
                          wilson_interval)

# two-sided 95% (and other) Student t quantiles from the standard tables
T_TABLE = [
    (0.975, 1, 12.7062047362), (0.975, 2, 4.30265272975), (0.975, 4, 2.77644510520),
    (0.975, 5, 2.57058183661), (0.975, 10, 2.22813885196), (0.975, 30, 2.04227245630),
    (0.975, 100, 1.98397151845), (0.975, 1000, 1.96233908082), (0.995, 3, 5.84090930973),
    (0.95, 20, 1.72471824292), (0.9, 7, 1.41492392), (0.999, 10, 4.14370049),
]


@pytest.mark.parametrize("p, df, expected", T_TABLE)
def test_t_quantiles_match_the_tables(p, df, expected):
    assert t_quantile(p, df) == pytest.approx(expected, rel=1e-6)
    assert t_quantile(1 - p, df) == pytest.approx(-expected, rel=1e-6)
    assert t_cdf(t_quantile(p, df), df) == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("df", [0.005, 0.01, 0.08, 0.3, 0.99, 1.5, 2.7, 15.3, 1e4])
def test_t_quantiles_of_any_freedom_give_back_their_chance(df):
    """Fractional and tiny degrees of freedom too (advice's effective worlds less one), where
    the density far out rounds to 0 (Newton's step divided by it): the quantile's chance is the
    one asked for, to double precision in the nearer tail; where the quantile lies beyond
    1e150 (t² overflows: only below some 0.05 degrees of freedom here), infinity."""
    for p in (0.5 + 1e-9, 0.6, 0.9, 0.975, 0.995, 1 - 1e-9):
        t = t_quantile(p, df)
        assert t > 0
        if math.isinf(t):
            assert df < 0.05 and p > 0.9
            continue
        tail = 1 - t_cdf(t, df)
        assert tail == pytest.approx(1 - p, rel=1e-6, abs=1e-15), (p, df, t)
        assert t_quantile(1 - p, df) == -t


def test_t_with_infinite_freedom_is_the_normal():
    assert t_quantile(0.975, math.inf) == pytest.approx(1.959963984540054)
    assert t_quantile(0.5, 3) == 0.0
    # t with one degree of freedom is the Cauchy: P(T <= 1) = 3/4
    assert t_cdf(1.0, 1) == pytest.approx(0.75)
    assert t_cdf(0.0, 9) == pytest.approx(0.5)


def test_a_mean_interval_by_hand():
    # 1..5: mean 3, sd sqrt(2.5), t(0.975, 4) = 2.776445105
    interval = mean_interval([1, 2, 3, 4, 5])
    half = 2.776445105197799 * math.sqrt(2.5) / math.sqrt(5)
    assert interval.mean == 3
    assert interval.sd == pytest.approx(math.sqrt(2.5))
    assert (interval.low, interval.high) == pytest.approx((3 - half, 3 + half))
    assert interval.low == pytest.approx(1.036756, abs=1e-6)
    assert interval.excludes_zero()
    assert not mean_interval([-1, 1, -2, 2]).excludes_zero()
    single = mean_interval([4.0])
    assert single.mean == 4 and single.low == -math.inf and single.high == math.inf
    assert math.isnan(single.sd) and math.isnan(bootstrap_interval([4.0]).sd)  # not known


def test_a_bootstrap_interval_by_hand():
    # resampling (0, 1) gives means 0, 1/2, 1 with chances 1/4, 1/2, 1/4: the 2.5th and
    # 97.5th percentiles are 0 and 1
    interval = bootstrap_interval([0, 1], resamples=4000, seed=1)
    assert (interval.low, interval.high) == (0.0, 1.0)
    assert interval.mean == 0.5 and interval.method == "bca"
    constant = bootstrap_interval([2, 2, 2], seed=3)
    assert (constant.low, constant.mean, constant.high) == (2, 2, 2)
    # one value has no spread to resample: unbounded, as the t interval of one value (it was
    # the point 3 .. 3, a "95%" interval)
    one = bootstrap_interval([3.0])
    assert (one.low, one.mean, one.high) == (-math.inf, 3.0, math.inf)
    assert (one.low, one.high) == (mean_interval([3.0]).low, mean_interval([3.0]).high)
    values = [((i * 37) % 11) - 4 for i in range(60)]
    assert bootstrap_interval(values, seed=5) == bootstrap_interval(values, seed=5)
    boot, t = bootstrap_interval(values, seed=5), mean_interval(values)
    assert boot.low == pytest.approx(t.low, abs=0.25) and boot.high == pytest.approx(t.high,
                                                                                      abs=0.25)


def test_wilson_intervals_by_hand():
    # 8 of 10: z = 1.959964, (0.8 + z²/20 ± z·sqrt(0.016 + z²/400)) / (1 + z²/10)
    won = wilson_interval(8, 10)
    assert won.share == 0.8
    assert (won.low, won.high) == pytest.approx((0.4901625, 0.9433178), abs=1e-6)
    none = wilson_interval(0, 10)
    assert none.low == 0 and none.high == pytest.approx(0.2775328, abs=1e-6)
    every = wilson_interval(10, 10)
    assert every.high == 1 and every.low == pytest.approx(0.7224672, abs=1e-6)
    assert wilson_interval(2.5, 5).share == 0.5


@pytest.mark.parametrize("n", [3.48, 7.1, 10, 61.3, 1e6])
def test_wilson_bounds_hold_the_share_at_none_and_all(n):
    """None of n has 0 for its lower end and all of n 1 for its upper, an effective n too:
    floating point had left 5.6e-17 and 0.9999999999999998 there, which advise shows as <1%
    and >99% beside a share of 0% or 100%."""
    assert wilson_bounds(0.0, n)[0] == 0 and wilson_bounds(1.0, n)[1] == 1
    for share in (0.001, 0.3, 0.999):
        low, high = wilson_bounds(share, n)
        assert low <= share <= high


def test_paired_differences_by_hand():
    # Bonett and Price's interval: 10 pairs, 2 with the first outcome alone, none with the
    # second alone: p12 = 3/12, p21 = 1/12, d = 1/6, (p12 + p21 - d²) / 12 = 11/432, half
    # width 1.959964·√(11/432) = 0.3127537
    low, high = paired_difference_bounds(2, 0, 10)
    assert (low, high) == pytest.approx((1 / 6 - 0.3127537, 1 / 6 + 0.3127537), abs=1e-7)
    # the pairs read the other way round: the interval mirrored
    assert paired_difference_bounds(0, 2, 10) == pytest.approx((-high, -low))
    # within -1 .. 1
    assert paired_difference_bounds(50, 0, 50)[1] == 1.0
    assert paired_difference_bounds(0, 50, 50)[0] == -1.0


@pytest.mark.parametrize("confidence", [0.5, 0.8, 0.95, 0.99])
def test_the_paired_interval_holds_the_share_it_is_of(confidence):
    """The interval of matches won in pairs holds the share seen, for every count of groups won
    twice by either player, 1 to 40 groups (at 50% it did not: 100% of 3 groups won twice lay
    above 67.9% .. 92.1%, the interval's centre drawn towards one half)."""
    for groups in range(1, 41):
        for a in range(groups + 1):
            for b in range(groups + 1 - a):
                won = grouped_share_interval([[1, 1]] * a + [[0, 0]] * b +
                                             [[1, 0]] * (groups - a - b), confidence)
                assert won.low <= won.share <= won.high, (groups, a, b)


def table_chance(groups: int, a: int, b: int, pa: float, pb: float) -> float:
    """The multinomial chance of ``a`` groups won twice by A, ``b`` by B and the rest split."""
    split = groups - a - b
    if (a and not pa) or (b and not pb):
        return 0.0
    log = math.lgamma(groups + 1) - math.lgamma(a + 1) - math.lgamma(b + 1) - \
        math.lgamma(split + 1) + (a * math.log(pa) if a else 0) + \
        (b * math.log(pb) if b else 0) + split * math.log(1 - pa - pb)
    return math.exp(log)


def exact_coverage(groups: int, pa: float, pb: float) -> float:
    """The chance that the interval of matches won in duplicate pairs covers the share, every
    table of ``groups`` pairs counted with its chance."""
    truth = 0.5 + (pa - pb) / 2
    covered = 0.0
    for a in range(groups + 1):
        for b in range(groups + 1 - a):
            chance = table_chance(groups, a, b, pa, pb)
            if chance > 1e-14:
                low, high = paired_difference_bounds(a, b, groups)
                covered += chance * (0.5 + low / 2 <= truth <= 0.5 + high / 2)
    return covered


@pytest.mark.parametrize("groups", [50, *(pytest.param(g, marks=pytest.mark.slow)
                                         for g in (200, 400))])
def test_the_paired_interval_covers_the_share_near_an_empty_cell(groups):
    """Exact coverage of the share of matches won in duplicate pairs, for chances of A winning
    both matches of a group from 0 to 30% and of B from 0 to 5%: at least 93% everywhere,
    where Newcombe's interval, used before, covered some 87% to 90% when A won both matches of
    about two groups and B of none (a cell near zero: Fagerland, Lydersen and Laake 2014)."""
    worst = min(exact_coverage(groups, pa / 200, pb)
                for pa in range(0, 61) for pb in (0.0, 0.01, 0.05))
    assert worst >= 0.93
    assert exact_coverage(groups, 2 / groups, 0.0) >= 0.93


def test_grouped_shares_by_hand():
    # pairs: 8 groups split (4 each way), 2 won twice: p1 - p2 = (2 - 0)/10, share 0.6, the
    # interval for the pairs (first won, second lost): the discordant pairs are the groups won
    # twice (2) and lost twice (0); half the width of the one worked out by hand above
    pairs = [[1, 0]] * 4 + [[0, 1]] * 4 + [[1, 1]] * 2
    won = grouped_share_interval(pairs)
    assert (won.successes, won.n, won.share, won.method) == (12, 20, 0.6, "bonett-price")
    assert (won.low, won.high) == pytest.approx((0.5 + (1 / 6 - 0.3127537) / 2,
                                                 0.5 + (1 / 6 + 0.3127537) / 2), abs=1e-7)
    # which way the split groups went does not matter
    assert grouped_share_interval([[1, 0]] * 8 + [[1, 1]] * 2) == won
    assert won.low < 0.6 < won.high
    # every group split: the share is a half, and the interval is not a point
    split = grouped_share_interval([[1, 0], [0, 1]] * 5)
    assert split.share == 0.5 and split.low < 0.45 and split.high > 0.55
    # groups of one outcome are independent outcomes: the plain interval
    assert grouped_share_interval([[1], [0], [0.5], [1]]) == wilson_interval(2.5, 4)
    # larger groups (six seatings), or a shared win: the Wilson interval of the effective
    # count, at most the count; 8 groups of share 1/2 and 2 of share 1: p = 0.6, S_g - p·m_g
    # is -0.2 and 0.8 (for m = 2), var = (8·0.04 + 2·0.64) / (10·9·2²) = 1/225, so
    # p(1-p)/var = 54 outcomes, more than the 20 played: the count played, with t's quantile
    # of 9 degrees of freedom still (z's there made one match won otherwise narrow the
    # interval by a step)
    capped = grouped_share_interval([[0.5, 0.5]] * 8 + [[1, 1]] * 2)
    assert (capped.successes, capped.n, capped.effective) == (12, 20, 20)
    # (t's, not Wilson's plain z, though the count is the matches': its method says so)
    assert capped.method == "wilson-t" and "Wilson with t, 20 effective" in str(capped)
    assert (capped.low, capped.high) == pytest.approx(wilson_bounds(0.6, 20, df=9))
    plain = wilson_interval(12, 20)
    assert capped.low < plain.low and capped.high > plain.high
    alike = grouped_share_interval([[1, 0, 1, 0, 1, 0]] * 3 + [[1, 1, 0, 0, 1, 0]] * 2)
    assert alike.effective == 30      # every group alike: no spread at all
    assert (alike.low, alike.high) == pytest.approx(wilson_bounds(0.5, 30, df=4))
    six = grouped_share_interval([[1, 1, 1, 1, 1, 0]] * 3 + [[0, 0, 0, 0, 1, 0]] * 2)
    assert six.method == "wilson-t" and 5 < six.effective < 30
    assert (six.low, six.high) == pytest.approx(wilson_bounds(six.share, six.effective, df=4))
    # a shared win: p = 0.45, S_g - p·m_g is 0.6 three times and -0.9 twice,
    # var = (3·0.36 + 2·0.81) / (5·4·2²) = 2.7 / 80
    shared = grouped_share_interval([[1, 0.5]] * 3 + [[0, 0]] * 2)
    assert shared.effective == pytest.approx(0.45 * 0.55 / (2.7 / 80))
    # from 100 groups on the design effect as measured: duplicate pairs that go against each
    # other are worth more than independent matches, a shared win among them too (one such win
    # made the interval Wilson's over the matches, 65% wider than the pairs' interval)
    base = [[1, 1]] * 29 + [[0, 0]] * 8 + [[1, 0]] * 82 + [[0, 1]] * 81
    paired = grouped_share_interval(base)
    shared = grouped_share_interval(base[:-1] + [[0.5, 1]])
    assert shared.method == "wilson-t" and shared.effective > shared.n
    assert shared.high - shared.low < 1.1 * (paired.high - paired.low)
    # below 100 groups never more than the matches played: from 20 groups, as measured, one
    # shared win among 19 split pairs made an interval 2.5 times narrower than the pairs'
    few = grouped_share_interval([[1, 0]] * 19 + [[1, 0.5]])
    assert few.effective == few.n == 40
    assert (few.low, few.high) == pytest.approx(wilson_bounds(20.5 / 40, 40, df=19))
    # one group: no design effect to estimate; the plain interval
    assert grouped_share_interval([[1, 0, 1]]) == wilson_interval(2, 3)
    # all won or all lost: no spread, as where every group went alike, the outcomes counted
    # with t's quantile; the plain interval's z made two groups of six won 75.8% .. 100%,
    # where one of the twelve lost made it 5.4% .. 100%: a step at the last outcome
    for won_all in ([[1] * 6] * 2, [[0] * 6] * 2, [[1] * 6] * 5):
        whole = grouped_share_interval(won_all)
        assert (whole.low, whole.high) == pytest.approx(
            wilson_bounds(whole.share, whole.n, df=len(won_all) - 1))
        one_off = [[1 - won_all[0][0]] + won_all[0][1:]] + won_all[1:]
        other = grouped_share_interval(one_off)
        assert abs(whole.low - other.low) < 0.1 and abs(whole.high - other.high) < 0.1


@pytest.mark.parametrize("groups", [10, 30, 100])
@pytest.mark.parametrize("split, both", [(0.855, 0.085), (0.95, 0.05), (0.6, 0.3), (0.0, 0.6)])
def test_grouped_shares_cover_the_share(groups, split, both):
    # duplicate pairs: split (the cards decide), A wins both, or B wins both (the rest); the
    # share is both + split/2.  Over many seeded runs the paired interval covers it at least
    # about 95% of the time (more, where few groups are won or lost twice: the first case is
    # like the learned table's calls against the heuristic's, 8.5% won twice, 6% lost twice),
    # where the plain Wilson interval over the matches over-covers when most pairs split and
    # under-covers when they go together
    truth = both + split / 2
    rng = random.Random(f"{groups}:{split}")
    covered = plain = 0
    runs = 1000
    for _ in range(runs):
        pairs = []
        for _ in range(groups):
            r = rng.random()
            pairs.append(rng.choice([[1, 0], [0, 1]]) if r < split else
                         [1, 1] if r < split + both else [0, 0])
        won = grouped_share_interval(pairs)
        covered += won.low <= truth <= won.high
        simple = wilson_interval(won.successes, won.n)
        plain += simple.low <= truth <= simple.high
    assert covered / runs >= 0.93
    if groups == 100 and split > 0.8:
        assert plain / runs > 0.99
    if split == 0:
        assert plain / runs < 0.91


@pytest.mark.parametrize("groups", [5, 10, 30])
def test_six_seatings_cover_the_share(groups):
    # three players: each group's six seatings won with a chance of its own (the cards of the
    # group favour one player), drawn from Beta(3, 2): the share is 0.6
    rng = random.Random(groups)
    covered = 0
    runs = 1000
    for _ in range(runs):
        chances = [rng.betavariate(3, 2) for _ in range(groups)]
        won = grouped_share_interval([[float(rng.random() < c) for _ in range(6)]
                                      for c in chances])
        covered += won.low <= 0.6 <= won.high
    assert covered / runs >= 0.93


def test_time_summaries_use_the_nearest_rank():
    summary = time_summary([float(i) for i in range(1, 21)])
    assert (summary.count, summary.median, summary.p95, summary.max) == (20, 10.5, 19.0, 20.0)
    assert summary.total == 210
    assert time_summary([]).count == 0


@pytest.mark.parametrize("call", [
    lambda: t_quantile(1.2, 3), lambda: t_quantile(0.9, 0), lambda: mean_interval([]),
    lambda: mean_interval([1, 2], confidence=95), lambda: wilson_interval(3, 2),
    lambda: wilson_interval(1, 0), lambda: bootstrap_interval([1], resamples=0),
    lambda: grouped_share_interval([]), lambda: grouped_share_interval([[1], []]),
    lambda: grouped_share_interval([[2, 0]]), lambda: grouped_share_interval([[0.5]], 2),
    lambda: paired_difference_bounds(0, 0, 0), lambda: paired_difference_bounds(1, -1, 2),
    lambda: paired_difference_bounds(2, 2, 3), lambda: paired_difference_bounds(1.5, 0, 3),
    # (a confidence of -0.5 gave the point (0.15, 0.15), 1.5 an error naming 1.25)
    lambda: paired_difference_bounds(5, 2, 20, -0.5),
    lambda: paired_difference_bounds(5, 2, 20, 0),
    lambda: paired_difference_bounds(5, 2, 20, 1.5),
    lambda: paired_difference_bounds(5, 2, 20, "x"),
    # (values whose squares are past a float's reach: an OverflowError)
    lambda: mean_interval([1e200, 2e200]), lambda: bootstrap_interval([1, -1e155]),
])
def test_bad_arguments_are_stats_errors(call):
    with pytest.raises(StatsError):
        call()


@pytest.mark.parametrize("share, n, what", [(0.5, 0, "n 0 must be a number above 0"),
                                             (0.5, -3, "n -3 must be"),
                                             (0.5, math.nan, "n nan must be"),
                                             (2.0, 10, "share 2.0 must be a number from 0 to 1"),
                                             (math.nan, 10, "share nan must be"),
                                             ("0.5", 10, "share '0.5' must be")])
def test_wilson_bounds_refuse_what_is_no_share_of_trials(share, n, what):
    """n = -3 gave a low bound above the high one, 0 a ZeroDivisionError, 2.0 a share kept
    quietly to 1."""
    with pytest.raises(StatsError, match=re.escape(what)):
        wilson_bounds(share, n)


@pytest.mark.parametrize("call, what", [
    (lambda: grouped_share_interval([["a"]]), "groups: outcome 'a' is not a number from 0 to 1"),
    (lambda: grouped_share_interval(None), "groups: None is not a list of groups of outcomes"),
    (lambda: grouped_share_interval([5]), "groups: 5 is not a list of outcomes"),
    (lambda: grouped_share_interval("ab"), "groups: 'ab' is not a list of groups"),
    (lambda: grouped_share_interval([[None, 1]]), "groups: outcome None is not a number"),
    (lambda: grouped_share_interval([[True, 0]]), "groups: outcome True is not a number"),
    (lambda: grouped_share_interval([[math.nan]]), "groups: outcome nan is not a number"),
    (lambda: grouped_share_interval([]), "groups: none given"),
    (lambda: mean_interval(None), "values: None is not a list of numbers"),
    (lambda: mean_interval([1, None]), "values: None is not a finite number"),
    (lambda: bootstrap_interval(["1", 2]), "values: '1' is not a finite number"),
    (lambda: mean_interval([1, math.nan]), "values: nan is not a finite number"),
    # what was a TypeError, a truth value of an array, or a median of a negative time
    (lambda: wilson_interval("3", 10), "successes '3' must lie between 0 and n = 10"),
    (lambda: wilson_interval(None, 10), "successes None must lie between 0 and n = 10"),
    (lambda: time_summary(3), "seconds: 3 is not a list of times"),
    (lambda: time_summary(["a"]), "seconds: 'a' is not a time (a number of seconds from 0)"),
    (lambda: time_summary([-1]), "seconds: -1 is not a time"),
    (lambda: time_summary([math.nan]), "seconds: nan is not a time"),
])
def test_what_is_no_list_of_outcomes_is_named_in_one_line(call, what):
    """Groups that were not lists of numbers (None, a name where an outcome goes) were a bare
    TypeError; a NaN among the values a NaN mean."""
    with pytest.raises(StatsError, match=re.escape(what)) as error:
        call()
    assert "\n" not in str(error.value)


def test_t_quantile_checks_its_arguments_however_often_it_is_asked():
    # the quantiles are kept for the arguments last asked: the checks come first every time
    assert t_quantile(0.975, 1) == pytest.approx(12.7062047, abs=1e-6)
    for p, df in ((0.975, True), ([0.975], 3), (0.975, [1]), (1.5, 1)):
        with pytest.raises(StatsError):
            t_quantile(p, df)


def test_the_bootstrap_interval_is_efrons_bca_over_every_resample():
    """Five values leaning right, whose 5**5 resamples are all counted here: the bias from the
    share of their means below the mean, the acceleration from the jackknife's means, and the
    percentiles those move (Efron and Tibshirani, ch. 14) are the bounds 200,000 drawn
    resamples give."""
    import itertools
    import statistics

    normal = statistics.NormalDist()
    xs = [0.3, 0.5, 1.1, 2.9, 7.4]
    n = len(xs)
    means = sorted(sum(xs[i] for i in picked) / n
                   for picked in itertools.product(range(n), repeat=n))
    mean = sum(xs) / n
    below = sum(m < mean - 1e-12 for m in means)
    at = sum(abs(m - mean) <= 1e-12 for m in means)
    bias = normal.inv_cdf((below + at / 2) / len(means))
    jackknife = [(sum(xs) - x) / (n - 1) for x in xs]
    centre = sum(jackknife) / n
    acceleration = sum((centre - j) ** 3 for j in jackknife) / (
        6 * sum((centre - j) ** 2 for j in jackknife) ** 1.5)

    def bound(p: float) -> float:
        z = bias + normal.inv_cdf(p)
        share = normal.cdf(bias + z / (1 - acceleration * z))
        return means[math.ceil(round(share * len(means), 9)) - 1]

    interval = bootstrap_interval(xs, resamples=200_000, seed=1)
    assert (interval.low, interval.high) == pytest.approx((bound(0.025), bound(0.975)), abs=0.02)
    assert (bound(0.025), bound(0.975)) == pytest.approx((0.82, 6.02))   # the percentile's:
    assert (means[round(0.025 * len(means))], means[round(0.975 * len(means)) - 1]) \
        == pytest.approx((0.56, 5.06), abs=0.3)                        # both ends lower
    mirrored = bootstrap_interval([-x for x in xs], resamples=200_000, seed=1)
    assert (mirrored.low, mirrored.high) == pytest.approx((-interval.high, -interval.low),
                                                          abs=0.02)


def test_the_bca_interval_covers_a_skewed_mean_more_nearly_as_often_as_it_says():
    """Means of 20 lognormal values (skewed as the differences of a much stronger player
    are), 300 samples: the percentile bootstrap and the t interval cover the true mean in
    some 85% to 86% of them; the BCa interval in 2 points more (with the acceleration's sign
    turned, or no acceleration, it covers no more than the percentile's)."""
    import random

    rng = random.Random(11)
    truth = math.exp(0.5)
    covered = {"bca": 0, "percentile": 0, "t": 0}
    for k in range(300):
        xs = [rng.lognormvariate(0, 1) for _ in range(20)]
        bca = bootstrap_interval(xs, resamples=1000, seed=k)
        drawn = random.Random(k)
        means = sorted(math.fsum(drawn.choices(xs, k=20)) / 20 for _ in range(1000))
        t = mean_interval(xs)
        covered["bca"] += bca.low <= truth <= bca.high
        covered["percentile"] += means[24] <= truth <= means[974]
        covered["t"] += t.low <= truth <= t.high
    assert covered["bca"] >= covered["percentile"] + 6 and covered["bca"] > covered["t"]
    assert 0.85 <= covered["bca"] / 300 <= 0.95


def test_a_tally_of_times_sums_them_up_as_the_list_would():
    """Decisions' times tallied as they come: exactly, as time_summary of their list, while
    they are few enough; then from a histogram, the median and 95th percentile within a
    ten-thousandth, the count and maximum exact (a million whole matches held 140 million
    times)."""
    from solver.stats import TimeTally

    rng = random.Random(3)
    seconds = [rng.lognormvariate(-5, 1.5) for _ in range(20_001)] + [0.0, 0.0]
    exact, binned = TimeTally(), TimeTally(exact_most=1_000)
    for start in range(0, len(seconds), 999):
        exact.add(seconds[start:start + 999])
        binned.add(iter(seconds[start:start + 999]))
    whole = time_summary(seconds)
    assert exact.summary() == whole and exact.bins == {}
    near = binned.summary()
    assert binned.values is None and (near.count, near.max) == (whole.count, whole.max)
    assert near.total == pytest.approx(whole.total, rel=1e-12)
    assert near.median == pytest.approx(whole.median, rel=1e-4)
    assert near.p95 == pytest.approx(whole.p95, rel=1e-4)
    assert TimeTally().summary() == time_summary([])
    with pytest.raises(StatsError, match="seconds: -1 is not a time"):
        TimeTally().add([0.5, -1])
