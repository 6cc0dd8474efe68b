"""Benchmark settings: how many of each class's seeded deals to time.

    ALLFIVES_BENCH_DEALS        deals per fast class (2x6 3x6 4x6 2x9), default 200
    ALLFIVES_BENCH_SLOW_DEALS   deals per slow class (4x9 4x12 bridge), default 10
    ALLFIVES_BENCH_REFERENCE    deals for the reference solver on 2x6, default 20
"""

import os


def deals(kind: str) -> int:
    defaults = {"fast": 200, "slow": 10, "reference": 20}
    names = {"fast": "ALLFIVES_BENCH_DEALS", "slow": "ALLFIVES_BENCH_SLOW_DEALS",
             "reference": "ALLFIVES_BENCH_REFERENCE"}
    return int(os.environ.get(names[kind], defaults[kind]))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a deal class whose solves take seconds")
