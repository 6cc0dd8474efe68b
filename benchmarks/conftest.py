"""Benchmark settings: how many of each class's seeded deals to time.

    ALLFIVES_BENCH_DEALS        deals per fast class (2x6 3x6 4x6 2x9), default 200
    ALLFIVES_BENCH_SLOW_DEALS   deals per slow class (2x12 to 4x9, bridge; DDS's), default 10
    ALLFIVES_BENCH_DEEP_DEALS   deals of the 4x12 class (minutes each), default 2
    ALLFIVES_BENCH_REFERENCE    deals for the reference solver on 2x6, default 20
"""

import os

DEFAULTS = {"fast": ("ALLFIVES_BENCH_DEALS", 200), "slow": ("ALLFIVES_BENCH_SLOW_DEALS", 10),
            "deep": ("ALLFIVES_BENCH_DEEP_DEALS", 2),
            "reference": ("ALLFIVES_BENCH_REFERENCE", 20)}


def deals(kind: str) -> int:
    name, default = DEFAULTS[kind]
    return int(os.environ.get(name, default))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a deal class whose solves take seconds")
