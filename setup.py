"""Builds the Cython engine.

ALLFIVES_DEBUG=1 builds it for hunting memory errors instead: no optimisation, debug symbols,
and AddressSanitizer with UndefinedBehaviorSanitizer (run Python with
LD_PRELOAD=$(gcc -print-file-name=libasan.so) to load it).
"""

import os
import platform

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

if DEBUG:
    sanitize = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
    compile_flags, link_flags = ["-O1", "-g", *sanitize], sanitize
else:
    compile_flags, link_flags = ["-O3"], []
# The engine counts cards with popcount; every x86-64 processor of the last fifteen years has
# the instruction, and the build is made on the machine that runs it.
if platform.machine().lower() in ("x86_64", "amd64"):
    compile_flags.append("-mpopcnt")

extensions = [
    Extension(
        "solver._search",
        ["solver/_search.pyx"],
        extra_compile_args=compile_flags,
        extra_link_args=link_flags,
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
