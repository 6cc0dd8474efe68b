"""Builds the Cython engine.  ALLFIVES_DEBUG=1 turns bounds checks and assertions back on."""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("ALLFIVES_DEBUG") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "nonecheck": False,
}

import platform

flags = ["-O0", "-g"] if DEBUG else ["-O3"]
if platform.machine().lower() in ("x86_64", "amd64"):
    flags.append("-mpopcnt")

extensions = [
    Extension(
        "solver._search",
        ["solver/_search.pyx"],
        extra_compile_args=flags,
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
