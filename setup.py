"""Builds the Cython engine.

ALLFIVES_DEBUG=1 builds it for hunting memory errors instead: no optimisation, debug symbols,
bounds checks, and AddressSanitizer with UndefinedBehaviorSanitizer.  Run Python with
LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)" to load
them (libstdc++ too, or a C++ extension that throws, such as one endplay imports, trips ASan)
and ASAN_OPTIONS=detect_leaks=0 (Python does not free everything at exit).
"""

import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.sdist import sdist

DEBUG = os.environ.get("ALLFIVES_DEBUG") == "1"

# The directives that never change are in the header of solver/_search.pyx.  These two are
# here because a directive in the header wins over one passed to cythonize: neither may be set
# there, or ALLFIVES_DEBUG=1 would no longer turn the checks on.
checks = {
    "boundscheck": DEBUG,
    "initializedcheck": DEBUG,
}
with open("solver/_search.pyx", encoding="utf-8") as source:
    header = [line for line in source.readlines()[:5] if line.startswith("# cython:")]
if any(name in line for line in header for name in checks):
    raise SystemExit("solver/_search.pyx: setup.py sets boundscheck and initializedcheck")
# (the header's language level is the .pyx file's alone: the .pxd beside it needs it too)
directives = {**checks, "language_level": 3}

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

# Cython regenerates a .c file only when its source changes, not when the directives do: the
# debug build keeps its own, so that neither build picks up the other's.  And an extension
# built the other way is newer than this way's .c file, so setuptools would keep it: a switch
# between the two forces the compilation.
kind = "debug" if DEBUG else "release"
stamp = os.path.join("build", "engine-build-kind")
switched = not os.path.exists(stamp) or open(stamp, encoding="utf-8").read() != kind
if switched:
    os.makedirs("build", exist_ok=True)
    with open(stamp, "w", encoding="utf-8") as out:
        out.write(kind)



class WholeSdist(sdist):
    """The source distribution with the whole of the checkout's tests, benchmarks and puzzle
    collection, so that its tests run from it (setuptools takes only the tests' test_*.py)."""
    FOLDERS = ("tests", "benchmarks", "puzzles")

    def make_release_tree(self, base_dir, files):
        kept = set(files)
        for folder in self.FOLDERS:
            for root, dirs, names in os.walk(folder):
                dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")))
                kept.update(os.path.join(root, name) for name in names
                            if not name.endswith((".pyc", ".so")))
        super().make_release_tree(base_dir, sorted(kept))


setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            build_dir="build/debug" if DEBUG else None),
      cmdclass={"sdist": WholeSdist},
      options={"build_ext": {"force": True}} if switched else {})
