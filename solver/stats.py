"""The statistics of a batch of games: intervals on a mean, on a proportion, and decision times.

Nothing here needs SciPy.  The Student t quantile inverts the t distribution's CDF, which is the
regularized incomplete beta function, evaluated by its continued fraction (Lentz's method) and
solved for by Newton's steps kept inside a bracket (halving it where a step would leave it): the
95% quantiles to 1e-14 up to 1,000 degrees of freedom and to 1e-11 at a million, the far tails
(p of 1e-10) to some 4e-7.

* ``mean_interval(values)``: the mean and its two-sided t interval (for duplicate play the values
  are the paired differences, one per deal group: this is the paired t interval).
* ``bootstrap_interval(values, seed=...)``: the bootstrap interval of the mean, bias-corrected
  and accelerated (Efron's BCa: Efron and Tibshirani 1993, "An Introduction to the Bootstrap",
  ch. 14), resampling the values (the deal groups) with a seeded ``random.Random``.
* ``wilson_interval(successes, n)``: a proportion and its Wilson score interval; ``successes``
  may hold halves (a shared win counts one half).
* ``grouped_share_interval(groups)``: the same for outcomes that come in groups played on the
  same cards (the seatings of a duplicate deal group), which are not independent.  Groups of
  two (two seatings: A won both, B won both, or they split) are paired outcomes, and the share
  is ½ + (P(A won both) - P(B won both))/2: Bonett and Price's adjusted Wald interval for the
  difference of paired proportions (Bonett and Price 2012, "Adjusted Wald confidence interval
  for a difference of binomial proportions based on paired data", J. Educational and
  Behavioral Statistics 37(4)).  Larger groups (three players' six seatings), or a shared win,
  have the Wilson interval of the effective number of outcomes, the count over the design
  effect (from few groups at most the count), with Student's t for z.
* ``time_summary(seconds)``: count, total, median, 95th percentile (nearest rank) and maximum.
"""

from __future__ import annotations

import bisect
import functools
import math
import statistics
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Real

from .errors import AllFivesError, quoted, seeded, whole

__all__ = ["StatsError", "t_cdf", "t_quantile", "normal_quantile", "Interval", "mean_interval",
           "bootstrap_interval", "Proportion", "wilson_interval", "grouped_share_interval",
           "paired_difference_bounds", "wilson_bounds", "PAIRED", "GROUPED", "MEASURED_GROUPS",
           "TimeSummary", "time_summary", "percentile", "TimeTally"]


class StatsError(AllFivesError):
    """A statistic asked of too few values, or with a confidence that is not a probability."""


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (``p`` from 0 to 100) of a non-empty sequence."""
    ordered = sorted(values)
    # rounded first: 2.5% of 2,000 is 50.000000000000004 in floating point, and rank 50
    rank = max(1, math.ceil(round(p / 100 * len(ordered), 9)))
    return ordered[rank - 1]


def _check_confidence(confidence: float) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) \
            or not 0 < confidence < 1:
        raise StatsError(f"confidence {quoted(confidence)} is not a probability between 0 and 1")
    return float(confidence)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def _log_half_ratio(n: float) -> float:
    """ln Γ(n + ½) - ln Γ(n): for a large n by Stirling's series, since the difference of two
    lgamma values near n ln n keeps only some 1e-16 · n ln n of it (1e-9 at a million)."""
    if n < 32:
        return math.lgamma(n + 0.5) - math.lgamma(n)

    def series(z: float) -> float:        # ln Γ(z) past (z - ½) ln z - z + ½ ln 2π
        w = 1 / (z * z)
        return (1 / 12 - w * (1 / 360 - w * (1 / 1260 - w / 1680))) / z

    return 0.5 * math.log(n) + (n * math.log1p(0.5 / n) - 0.5) + series(n + 0.5) - series(n)


def _beta_regularized(a: float, x: float, y: float) -> float:
    """I_x(a, ½), Student's t's, ``y`` being 1 - x as the caller has it: exactly, where x is
    within a rounding of 1 (and 1 - x would be 0, or all rounding)."""
    b = 0.5
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    log_x = math.log1p(-y) if y < 0.5 else math.log(x)
    log_y = math.log1p(-x) if x < 0.5 else math.log(y)
    log_front = _log_half_ratio(a) - math.lgamma(b) + a * log_x + b * log_y
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, y) / b


def _check_df(df: float) -> float:
    if isinstance(df, bool) or not isinstance(df, (int, float)) or not df > 0:
        raise StatsError(f"degrees of freedom {quoted(df)} must be a number above 0")
    return float(df)


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom (``math.inf``: the normal)."""
    df = _check_df(df)
    if math.isinf(df):
        return statistics.NormalDist().cdf(t)
    square = t * t      # (its share of df + t² passed as it is: 1 - df/(df + t²) loses it)
    tail = 0.5 * _beta_regularized(df / 2.0, df / (df + square), square / (df + square))
    return 1.0 - tail if t > 0 else tail


def normal_quantile(p: float) -> float:
    return statistics.NormalDist().inv_cdf(_check_confidence(p))


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom: the t with
    ``t_cdf(t, df) == p``.  ``t_quantile(0.975, 10)`` is 2.228138851986...  The 256 pairs of
    arguments asked most lately are kept (an advice of equal worlds asks for the same every
    time)."""
    return _t_quantile(_check_confidence(p), _check_df(df))


@functools.lru_cache(maxsize=256)
def _t_quantile(p: float, df: float) -> float:
    if math.isinf(df):
        return normal_quantile(p)
    if p < 0.5:
        return -_t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
        if high > 1e150:    # (beyond, t² overflows: only a tiny df, or p within a rounding of 1)
            return math.inf
    # Newton's steps from the normal quantile, each kept inside the bracket [low, high] that
    # holds the root (a step that would leave it halves it instead): a few steps where
    # halving alone took some sixty
    density = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    t = min(max(normal_quantile(p), low), high)
    for _ in range(200):
        below = t_cdf(t, df) - p
        if below == 0:
            return t
        if below < 0:
            low = t
        else:
            high = t
        slope = density * (1 + t * t / df) ** (-(df + 1) / 2)
        after = t - below / slope if slope > 0 else math.nan   # (none far out at tiny df)
        if not low < after < high:
            after = 0.5 * (low + high)
        if after == t or after in (low, high) and high - low <= 4 * math.ulp(t):
            break
        t = after
    return t


@dataclass(frozen=True)
class Interval:
    """A mean and a two-sided interval on it."""

    mean: float
    low: float
    high: float
    n: int
    #: The sample standard deviation (n - 1 in the denominator; NaN, not known, for one value).
    sd: float
    confidence: float
    method: str

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        return (f"{self.mean:+.3f} ({self.confidence:.0%} {self.low:+.3f} .. {self.high:+.3f}, "
                f"n={self.n}, {self.method})")


def _listed(given: object, what: str, of: str) -> list:
    """``given`` as a list, where it is a list (any iterable but a text or a mapping) of
    ``of``; else a StatsError naming ``what``."""
    if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, Iterable):
        raise StatsError(f"{what}: {quoted(given)} is not a list of {of}")
    return list(given)


def _is_number(x: object) -> bool:
    """A real number that is not a truth value (``True`` is no outcome) and not NaN."""
    return isinstance(x, Real) and not isinstance(x, bool) and not math.isnan(x)


#: Values whose spread is past a float's reach (their squares overflow).
_TOO_LARGE = "values: too large to take their spread (their squares are past a float's reach)"


def _values(values: Sequence[float]) -> list[float]:
    out = _listed(values, "values", "numbers")
    bad = [v for v in out if not _is_number(v) or math.isinf(v)]
    if bad:
        raise StatsError(f"values: {quoted(bad[0])} is not a finite number")
    if not out:
        raise StatsError("no values to take a mean of")
    return [float(v) for v in out]


def _outcome_groups(groups: Sequence[Sequence[float]]) -> list[list[float]]:
    """The groups of outcomes as lists, each outcome a number from 0 to 1; else a StatsError
    naming ``groups``."""
    out = [_listed(group, "groups", "outcomes (numbers from 0 to 1)")
           for group in _listed(groups, "groups", "groups of outcomes")]
    if not out:
        raise StatsError("groups: none given (a group of outcomes at least)")
    if min(map(len, out)) < 1:
        raise StatsError("groups: every group must hold an outcome")
    bad = [x for group in out for x in group if not _is_number(x) or not 0 <= x <= 1]
    if bad:
        raise StatsError(f"groups: outcome {quoted(bad[0])} is not a number from 0 to 1")
    return out


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Interval:
    """The mean of ``values`` and its t interval: mean ± t(1 - α/2, n - 1) · sd / √n.  With one
    value the interval is unbounded."""
    confidence = _check_confidence(confidence)
    xs = _values(values)
    n = len(xs)
    mean = math.fsum(xs) / n
    if n == 1:
        return Interval(mean, -math.inf, math.inf, 1, math.nan, confidence, "t")
    try:
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    except OverflowError:
        raise StatsError(_TOO_LARGE) from None
    half = t_quantile(1 - (1 - confidence) / 2, n - 1) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n, sd, confidence, "t")


def bootstrap_interval(values: Sequence[float], confidence: float = 0.95,
                       resamples: int = 2000, seed: int | str = 0) -> Interval:
    """The bootstrap interval of the mean, bias-corrected and accelerated (Efron's BCa):
    ``resamples`` resamples of the values with replacement, by ``random.Random(seed)``; the
    bounds are the nearest-rank percentiles of the resampled means at α/2 and 1 - α/2 moved
    by the bias (the share of resampled means below the mean, ties counted half) and by the
    acceleration (the skewness of the values, as their jackknife gives it).  Where the values
    are symmetric these are the percentile interval's; where they lean to one side, as the
    differences of a player far stronger than the other do, the bounds lean with them, and miss
    the mean as often on either side.  They do not cover it more often than the t interval:
    drawn from a much stronger player's differences, the two cover alike, some 95%, from 100
    groups, and at 20 groups the bootstrap some 91% where the t covers 94%.  One value has no
    spread to resample: its interval is unbounded, as ``mean_interval``'s is."""
    confidence = _check_confidence(confidence)
    if whole(resamples) is None or resamples < 1:
        raise StatsError(f"resamples {quoted(resamples)} must be a whole number from 1")
    xs = _values(values)
    n = len(xs)
    if n == 1:
        return Interval(xs[0], -math.inf, math.inf, 1, math.nan, confidence, "bca")
    rng = seeded(seed)
    means = sorted(math.fsum(rng.choices(xs, k=n)) / n for _ in range(resamples))
    mean = math.fsum(xs) / n
    sd = statistics.stdev(xs) if n > 1 else math.nan
    below = bisect.bisect_left(means, mean)
    at = bisect.bisect_right(means, mean) - below
    bias = statistics.NormalDist().inv_cdf(min(max((below + at / 2) / resamples, 1e-9),
                                               1 - 1e-9))
    # the jackknife's means leave one value out each: they differ from the mean by
    # (mean - x) / (n - 1), so the acceleration is that of the values themselves
    spread = [x - mean for x in xs]
    try:
        squares = math.fsum(d ** 2 for d in spread)
        acceleration = math.fsum(d ** 3 for d in spread) / (6 * squares ** 1.5) if squares \
            else 0.0
    except OverflowError:
        raise StatsError(_TOO_LARGE) from None
    alpha = (1 - confidence) / 2

    def moved(p: float) -> float:
        z = bias + normal_quantile(p)
        if acceleration * z >= 1:     # (past the acceleration's reach: that end of the means)
            return 100.0 if z > 0 else 0.0
        return 100 * statistics.NormalDist().cdf(bias + z / (1 - acceleration * z))

    return Interval(mean, percentile(means, moved(alpha)), percentile(means, moved(1 - alpha)),
                    n, sd, confidence, "bca")


@dataclass(frozen=True)
class Proportion:
    """A share of successes and its Wilson score interval."""

    successes: float
    n: int
    low: float
    high: float
    confidence: float
    #: The number of independent outcomes a Wilson interval counts: ``n``, or for outcomes in
    #: groups ``n`` over the design effect; None for the interval of paired outcomes.
    effective: float | None = None
    #: ``wilson``; ``wilson-t``, with Student's t for z (outcomes in groups); or
    #: ``bonett-price`` (pairs of outcomes): ``grouped_share_interval``.
    method: str = "wilson"

    @property
    def share(self) -> float:
        return self.successes / self.n

    def __str__(self) -> str:
        how = "Bonett-Price, paired" if self.method == PAIRED else "Wilson" if \
            self.method != GROUPED else f"Wilson with t, {self.effective:.0f} effective"
        return (f"{self.successes:g}/{self.n} = {self.share:.1%} ({self.confidence:.0%} "
                f"{self.low:.1%} .. {self.high:.1%}, {how})")


def wilson_bounds(share: float, n: float, confidence: float = 0.95,
                  df: int | None = None) -> tuple[float, float]:
    """The Wilson score interval of a ``share`` of ``n`` trials, ``n`` not always whole (an
    effective number) and possibly infinite: (p + z²/2n ± z·√(p(1-p)/n + z²/4n²)) / (1 + z²/n),
    kept to 0 .. 1; with ``df``, z is Student's t quantile of that many degrees of freedom (the
    variance behind an effective ``n`` estimated from few groups)."""
    if isinstance(n, bool) or not isinstance(n, (int, float)) or not n > 0:
        raise StatsError(f"n {quoted(n)} must be a number above 0")
    if isinstance(share, bool) or not isinstance(share, (int, float)) or \
            not -1e-9 <= share <= 1 + 1e-9:
        raise StatsError(f"share {quoted(share)} must be a number from 0 to 1")
    share = min(1.0, max(0.0, share))     # (a share worked out in floating point)
    if math.isinf(n):
        return share, share
    tail = 1 - (1 - _check_confidence(confidence)) / 2
    z = normal_quantile(tail) if df is None else t_quantile(tail, df)
    denominator = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denominator
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denominator
    # (it holds the share: none or all has an end at 0 or 1, which floating point may miss)
    return min(share, max(0.0, centre - half)), max(share, min(1.0, centre + half))


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> Proportion:
    """``successes`` out of ``n`` and the Wilson score interval (``wilson_bounds``)."""
    confidence = _check_confidence(confidence)
    if whole(n) is None or n < 1:
        raise StatsError(f"n {quoted(n)} must be a whole number from 1")
    n = int(n)
    if not _is_number(successes) or not 0 <= successes <= n:
        raise StatsError(f"successes {quoted(successes)} must lie between 0 and n = {n}")
    low, high = wilson_bounds(successes / n, n, confidence)
    low = 0.0 if successes == 0 else low
    high = 1.0 if successes == n else high
    return Proportion(successes, n, low, high, confidence, float(n))


def paired_difference_bounds(first: int, second: int, n: int,
                             confidence: float = 0.95) -> tuple[float, float]:
    """Bonett and Price's adjusted Wald interval for p1 - p2, the difference of two proportions
    measured on the same ``n`` pairs, of which ``first`` have the first outcome alone and
    ``second`` the second alone (the discordant pairs; Bonett and Price 2012, "Adjusted Wald
    confidence interval for a difference of binomial proportions based on paired data"): each
    discordant share with one pair added, of n + 2, d their difference, and d ± z √((p12 + p21 -
    d²) / (n + 2)), within -1 .. 1, and holding the difference seen, (first - second) / n (which
    only a confidence below some 78% could leave outside)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1 or \
            not all(isinstance(k, int) and not isinstance(k, bool) and k >= 0
                    for k in (first, second)) or first + second > n:
        raise StatsError(f"the discordant pairs {quoted(first)}, {quoted(second)} of "
                         f"{quoted(n)} must be counts, at least one pair and no more than n")
    z = normal_quantile(1 - (1 - _check_confidence(confidence)) / 2)
    p12, p21 = (first + 1) / (n + 2), (second + 1) / (n + 2)
    d = p12 - p21
    half = z * math.sqrt((p12 + p21 - d * d) / (n + 2))
    # (d leans towards 0 from the difference seen, which a low confidence could leave outside)
    seen = (first - second) / n
    return max(-1.0, min(d - half, seen)), min(1.0, max(d + half, seen))


#: ``Proportion.method`` of the interval of paired outcomes.
PAIRED = "bonett-price"
#: ``Proportion.method`` of the Wilson interval of outcomes in groups, Student's t for z.
GROUPED = "wilson-t"
#: From this many groups the design effect is taken as measured; from fewer, never below one
#: (from 20 to 40 groups of duplicate pairs holding a shared win, as measured it covered only
#: some 80% to 95%).
MEASURED_GROUPS = 100


def grouped_share_interval(groups: Sequence[Sequence[float]],
                           confidence: float = 0.95) -> Proportion:
    """The share of successes over ``groups`` of outcomes (each 0 .. 1, a shared win one half)
    and its interval, the outcomes of a group (the seatings of one deal group, played on the
    same cards) taken together.  Groups of one outcome each: the plain Wilson interval.  Groups
    of two outcomes, each 0 or 1: paired outcomes, the share ½ + (p1 - p2)/2 with p1 the share
    of groups whose first outcome is a success and p2 that whose second is not, and Bonett and
    Price's interval for p1 - p2 (``paired_difference_bounds``: the groups won twice and lost
    twice are its discordant pairs).  Otherwise the Wilson interval of the effective number of
    outcomes, ``p(1-p) / var``, where ``var`` is the variance of the share from the groups'
    totals (the ratio estimator: Σ (S_g - p·m_g)² / (G (G-1) m̄²)), and Student's t of G - 1
    degrees of freedom for z; from fewer than ``MEASURED_GROUPS`` groups never more than the
    outcomes counted (a small spread from a few groups is no evidence of outcomes more telling
    than independent ones), a share of none or all too (no spread: as many as counted, with
    t's quantile, so that one outcome the other way does not widen the interval by a step);
    with fewer than two groups, the plain Wilson interval.  Coverage, computed exactly for
    pairs (50 to 400 groups: at least some 93% wherever the shares lie, its least, 92.9%, at
    50 to 100 groups where one player won both matches of no group and the other of some 7 to
    8%; where Newcombe's interval for paired outcomes, used before, fell to 87%) and simulated
    for the rest (at 100 and 200 groups: duplicate pairs, 3% of the matches a shared win, some
    92% to 95%, the least near an empty cell; three players' six seatings some 95%)."""
    confidence = _check_confidence(confidence)
    groups = _outcome_groups(groups)
    sizes = [len(group) for group in groups]
    outcomes = [x for group in groups for x in group]
    n, successes = len(outcomes), math.fsum(outcomes)
    plain = wilson_interval(successes, n, confidence)
    if max(sizes) == 1:
        return plain
    if set(sizes) == {2} and set(outcomes) <= {0, 1}:
        both = sum(1 for first, second in groups if first and second)
        neither = sum(1 for first, second in groups if not first and not second)
        # pairs (first a success, second not a success): both won -> b, both lost -> c
        low, high = paired_difference_bounds(both, neither, len(groups), confidence)
        share = successes / n       # (held to the share itself, past the rounding of low, high)
        return Proportion(successes, n, min(0.5 + low / 2, share), max(0.5 + high / 2, share),
                          confidence, None, PAIRED)
    p, count = successes / n, len(sizes)
    if count < 2:
        return plain
    mean_size = n / count
    variance = math.fsum((math.fsum(group) - p * len(group)) ** 2 for group in groups) \
        / (count * (count - 1) * mean_size * mean_size)
    # from a few groups never more than the outcomes counted: a small spread (none at all,
    # where every group went alike) is no evidence of outcomes more telling than independent
    # ones; from more, the groups' spread as measured (duplicate seatings go against each
    # other: the better cards win, so a group's share varies less than independent outcomes')
    effective = n if variance == 0 else p * (1 - p) / variance
    if count < MEASURED_GROUPS:
        effective = min(n, effective)
    # the variance is of G groups: t's quantile of G - 1 degrees of freedom, not z (held to
    # it as the outcomes counted are reached too, so that one match won otherwise never
    # narrows the interval by a step)
    low, high = wilson_bounds(p, effective, confidence, df=count - 1)
    return Proportion(successes, n, low, high, confidence, effective, GROUPED)


@dataclass(frozen=True)
class TimeSummary:
    """Seconds per decision of one player."""

    count: int
    total: float
    median: float
    p95: float
    max: float

    def __str__(self) -> str:
        return (f"{self.count} decisions, median {self.median * 1000:.3g} ms, "
                f"p95 {self.p95 * 1000:.3g} ms, max {self.max * 1000:.3g} ms")


class TimeTally:
    """Decisions' seconds added as they come, summed up as ``time_summary`` sums up a list of
    them: exactly while there are at most ``exact_most`` (each kept in 8 bytes, where a list
    takes 32), then from a histogram of bins ``BIN`` wide (a ratio), the median and the 95th
    percentile within that of the true ones and the count, total and maximum exact (a run of
    a million whole matches would otherwise hold some 140 million times)."""

    EXACT_MOST = 2_000_000
    BIN = 1e-4
    #: A bin's width on the logarithm's scale, and the bin of times of 0.
    _STEP = math.log1p(BIN)
    _ZERO = -(2**62)

    def __init__(self, exact_most: int = EXACT_MOST) -> None:
        self.exact_most = exact_most
        self.values: array | None = array("d")
        self.bins: dict[int, int] = {}
        self.count = 0
        self.total = 0.0      # (in the histogram: the sum of each batch's exact sum)
        self.most = 0.0

    def add(self, seconds: Iterable[float]) -> None:
        """Seconds of more decisions (each a number of seconds from 0)."""
        batch = _times(seconds)
        if not batch:
            return
        self.count += len(batch)
        self.most = max(self.most, max(batch))
        if self.values is not None:
            self.values.extend(batch)
            if len(self.values) <= self.exact_most:
                return
            batch, self.values = list(self.values), None    # (too many: all into the bins)
        self.total += math.fsum(batch)
        for t in batch:
            key = self._bin(t)
            self.bins[key] = self.bins.get(key, 0) + 1

    @classmethod
    def _bin(cls, t: float) -> int:
        return cls._ZERO if t <= 0 else math.floor(math.log(t) / cls._STEP)

    def _at_rank(self, rank: int) -> float:
        """The time at ``rank`` (from 1) in order, as its bin's middle (at most the largest)."""
        seen = 0
        for key in sorted(self.bins):
            seen += self.bins[key]
            if seen >= rank:
                return 0.0 if key == self._ZERO else \
                    min(self.most, math.exp((key + 0.5) * self._STEP))
        return self.most

    def summary(self) -> TimeSummary:
        """The count, total, median, nearest-rank 95th percentile and maximum."""
        if self.values is not None:
            return time_summary(self.values)
        n = self.count
        median = (self._at_rank((n + 1) // 2) + self._at_rank(n // 2 + 1)) / 2
        rank = max(1, math.ceil(round(0.95 * n, 9)))
        return TimeSummary(n, self.total, median, self._at_rank(rank), self.most)


def _times(seconds: Iterable[float]) -> list[float]:
    """``seconds`` as a list, each a number of seconds from 0; else a StatsError naming the
    first that is not."""
    listed = _listed(seconds, "seconds", "times")
    bad = [t for t in listed if not _is_number(t) or not 0 <= t < math.inf]
    if bad:
        raise StatsError(f"seconds: {quoted(bad[0])} is not a time (a number of seconds from 0)")
    return listed


def time_summary(seconds: Sequence[float]) -> TimeSummary:
    """Count, total, median, nearest-rank 95th percentile and maximum (all 0 for none)."""
    seconds = _times(seconds)
    if not seconds:
        return TimeSummary(0, 0.0, 0.0, 0.0, 0.0)
    return TimeSummary(len(seconds), math.fsum(seconds), statistics.median(seconds),
                       percentile(seconds, 95), max(seconds))
