"""``allfives puzzle``: make puzzles, check them, show them, play them, and index a folder.

    allfives puzzle generate [--players 2|3|4] [--rules RULES] [--count K] [--seed S]
                             [--min-turns T] [--theme NAME] [--tries N] [--out DIR]
    allfives puzzle make POSITION... [--objective points|margin|win] [--min-turns T] [--out DIR]
    allfives puzzle check FILE|DIR|-... [--jobs J]
    allfives puzzle play [FILE | --random] [--players 2|3|4] [--rules RULES] [--theme T] [--seed S]
                         [--no-titles]
    allfives puzzle show FILE|DIR|-... [--format text|svg|html] [--solution] [--title TEXT]
                         [--no-titles]
    allfives puzzle index FILE|DIR|-...

A folder stands for the puzzle files in it (``*.toml``, in the order of their numbers); a file
of several puzzles (``# ---`` between two) for each of them, ``FILE#1``, ``FILE#2``, ...
(``cli.puzzlefiles`` reads and names them).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from solver.errors import AllFivesError, counted, is_number, quoted, shown_path, without_controls

from .errors import FAILURE, note, option
from .faces import rules_words
from .puzzlefiles import file_name, file_of, given_text, load_all, load_named, next_number, \
    puzzle_key, puzzle_keys, puzzle_paths, refuse_unsound
from .streams import write_utf8

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from solver.puzzles import Puzzle


# ---- check ---------------------------------------------------------------------------------------

def problems_of(path: str, text: tuple[str, int] | None = None) -> tuple[bool, list[str]]:
    """Whether one puzzle file reads as a puzzle, and every problem of it, each ``FILE: what``
    (one process's worth of work); ``text``: its text and the lines above it, given (a puzzle
    of standard input)."""
    try:
        puzzle = load_named(path, text)
    except AllFivesError as error:
        said = str(error)
        return False, [said if said.startswith(path) else f"{shown_path(path)}: {said}"]
    except OSError as error:
        return False, [f"{shown_path(path)}: {error.strerror or error}"]
    from solver.puzzles import seed_problems

    # (a seed that makes another start is a file's record gone stale, not a puzzle unsound)
    return True, [f"{path}: {problem}"
                  for problem in puzzle_problems(puzzle) + seed_problems(puzzle)]


def puzzle_problems(puzzle: Puzzle) -> list[str]:
    """What makes a puzzle unsound, or its file disagree with it: ``solver.puzzles.
    check_puzzle``'s problems, then themes listed that the line does not show."""
    from solver.puzzles import check_puzzle

    problems = check_puzzle(puzzle, _solver())
    if not problems and puzzle.themes_listed:
        from solver.puzzles import themes_of

        shown = themes_of(puzzle, _solver())
        if sorted(shown) != sorted(puzzle.themes):    # (in any order, each once)
            listed = ", ".join(puzzle.themes) or "none"
            problems.append(f"puzzle.themes: the file lists {listed}; the line "
                            f"shows {', '.join(shown) or 'none'}")
    return problems


def _solver():
    """This thread's engine, kept from one puzzle to the next (``solve``'s)."""
    from solver.search import default_solver

    return default_solver()


def check_files(paths: list[str], jobs: int | None,
                on_file: Callable[[tuple[bool, list[str]]], None]) -> None:
    """Whether each file reads as a puzzle, and its problems, handed to ``on_file`` in turn
    (``problems_of``); ``jobs`` worker processes
    (0: one per CPU), stopped at once on Ctrl-C or a signal (``solver.executors.executor_for``)."""
    from solver.executors import executor_for, gather

    from .workers import check_jobs, workers_for

    check_jobs(jobs)
    with executor_for(workers_for(jobs, len(paths))) as executor:
        gather(executor, problems_of, [(path, given_text(path)) for path in paths],
               on_part=on_file)


def check_command(paths: list[str], jobs: int | None, out: TextIO | None = None) -> int:
    """Check every puzzle file named; the exit status (1 if any has a problem)."""
    import solver.search  # noqa: F401  (the engine: missing, it says so once)

    out = out or sys.stdout
    files = [str(p) for p in puzzle_paths(paths)]
    bad = problems = unread = 0

    def told(part: tuple[bool, list[str]]) -> None:
        nonlocal bad, problems, unread
        read, found = part
        unread += not read
        for line in found:      # (a file's name may hold an escape sequence)
            print(without_controls(line), file=out, flush=True)
        if found:
            bad += 1
            problems += len(found)

    check_files(files, jobs, told)
    first: dict[tuple, Path] = {}
    for path, key in puzzle_keys(Path(file) for file in files):
        if key in first:        # (not unsound: said, but no problem)
            note(f"{path} is named twice" if path == first[key] else
                 f"{path} is the same puzzle as {first[key]} (its deal, play, goal and line)")
        first.setdefault(key, path)
    # (a file that reads as no puzzle is no puzzle checked: said apart)
    what = f"{counted(len(files) - unread, 'puzzle')} checked"
    if unread:
        what += f", {unread} not read as {'one' if unread == 1 else 'puzzles'}"
    if bad:
        print(f"{what}: {counted(problems, 'problem')} in {bad}.", file=out)
        return FAILURE
    print(f"{what}: all sound.", file=out)
    return 0


# ---- show ----------------------------------------------------------------------------------------

def show_command(paths: list[str], form: str, solution: bool, title: str | None,
                 color: bool | None, console: Console | None = None, titled: bool = True
                 ) -> None:
    from .console import can_show_suits, make_console
    from .sheet import facts_of, html_sheet, numbers_of, svg, text_view

    puzzles = load_all(paths, checked=True)
    numbers = numbers_of([path for path, _ in puzzles], titled)
    if form == "svg":
        if len(puzzles) != 1:
            raise AllFivesError(f"--format svg draws one puzzle, not {len(puzzles)}: name one "
                                f"(as {puzzles[0][0]}), or use --format html for a sheet of them")
        path, puzzle = puzzles[0]
        write_utf8(svg(facts_of(puzzle, str(path), titled=titled), solution))
        return
    if form == "html":
        name = "All Fives puzzles" if title is None else title.strip()
        write_utf8(html_sheet([facts_of(p, str(path), number, titled)
                               for (path, p), number in zip(puzzles, numbers)], name, solution))
        return
    console = console or make_console(color)
    pretty = can_show_suits(console)
    for k, ((path, puzzle), number) in enumerate(zip(puzzles, numbers)):
        if k:
            console.print()
        console.print(text_view(facts_of(puzzle, str(path), number, titled), puzzle.position,
                                solution, pretty), crop=False)


# ---- index ---------------------------------------------------------------------------------------

def index_text(paths: list[str]) -> str:
    """The Markdown index of a collection: one row a puzzle, and counts by players, rules and
    theme.  Its links lead from the folder that holds every file named (where the index is to
    be kept) to each file; the project's own collection (the folder with ``curate.py``, named
    alone and whole, as its README.md is made) says how it was made."""
    from collections import Counter

    from .sheet import facts_of, numbers_of

    puzzles = load_all(paths, checked=True)
    numbers = numbers_of([path for path, _ in puzzles])
    files = [path.parent.resolve() for path, _ in puzzles if given_text(path) is None]
    home = Path(os.path.commonpath(files)) if files else Path.cwd()
    rows = ["| # | title | players | rules | goal | themes | rating |",
            "|---|---|---|---|---|---|---|"]
    players: Counter[int] = Counter()
    presets: Counter[str] = Counter()
    themes: Counter[str] = Counter()
    for (path, puzzle), number in zip(puzzles, numbers):
        facts = facts_of(puzzle, str(path), number)
        deal = puzzle.position.deal
        players[deal.players] += 1
        presets[facts.rules] += 1         # (as the table names them: with their options)
        themes.update(puzzle.themes)
        points = counted(puzzle.target, "point")
        goal = {"points": points, "margin": f"margin {puzzle.target:+d}",
                "win": "win the match"}.get(puzzle.objective, puzzle.objective)
        where = os.path.relpath(path.parent.resolve(), home)
        file, which = file_of(path)
        named = cell(facts.title) if given_text(path) is not None else \
            f"[{cell(facts.title)}]({link(file if where == '.' else f'{where}/{file}')})" \
            + (f" ({which})" if which else "")
        rows.append(f"| {cell(facts.number) or '·'} | {named} | "
                    f"{deal.players} | {facts.rules} | {goal} | "
                    f"{', '.join(puzzle.themes) or '·'} | "
                    f"{puzzle.rating if puzzle.rating is not None else '·'} |")
    count = len(puzzles)

    def counts(counter: Counter) -> str:
        return ", ".join(f"{key}: {n}" for key, n in sorted(counter.items(), key=str))

    folder = _folder_shown(home)
    summary = [f"{counted(count, 'puzzle')}. Players: {counts(players)}. "
               f"Rules: {counts(presets)}.", "", f"Themes: {counts(themes)}.", ""]
    whole = len(paths) == 1 and Path(paths[0]).is_dir() and given_text(puzzles[0][0]) is None
    if not (whole and (home / "curate.py").is_file()):
        head = [
            "# Puzzles", "",
            "Every file listed is a puzzle file of `allfives` (a deal file with a `[puzzle]`",
            "table): check them with `allfives puzzle check`, play one with `allfives puzzle",
            "play FILE`, print them with `allfives puzzle show --format html --solution`. This",
            f"index is made by `allfives puzzle index`; its links lead from `{folder}` to each",
            "file.", ""]
        return "\n".join(head + summary + rows) + "\n"
    head = [
        "# The puzzle collection", "",
        "Every file here is a puzzle file: a deal file with a `[puzzle]` table (the project's",
        "README, \"Puzzles\"). The test suite checks each one with",
        "`allfives puzzle check puzzles/`. Play one with `allfives puzzle play FILE`; print them",
        "all with `allfives puzzle show puzzles/ --format html --solution > sheet.html`.", "",
        "The candidates were made by `allfives puzzle generate` and picked by",
        "[`curate.py`](curate.py), which says how (each file's `seed` makes it again). This",
        "index is made by `allfives puzzle index puzzles/ > puzzles/README.md`.", "",
    ]
    return "\n".join(head + summary + rows) + "\n"


def _folder_shown(folder: Path) -> str:
    """``folder`` (absolute) as the user may find it: from the current folder where it is
    there (``./``, ``out/``), else in full (``/tmp/out/``, ``/``)."""
    try:
        inside = folder.relative_to(Path.cwd().resolve())
    except ValueError:
        return str(folder).rstrip("/") + "/"
    return "./" if inside == Path() else f"{inside}/"


def cell(text: str) -> str:
    """A title or a number as the text of a Markdown table's cell or link: on one line, and
    the characters that would end the cell or the link, begin a tag (``<stdin>#1``) or an
    entity, or mark code or emphasis, escaped."""
    return re.sub(r"([\\|\[\]<&`*_])", r"\\\1", " ".join(text.split()))


def link(name: str) -> str:
    """A file name as a Markdown link's target: each character that could end it, the
    table's cell or the file's part of a URL (``#``, ``?``), begin a tag or an entity, or make
    the name a URL of its own (``:``, as in ``javascript:``), written as its percent escape (as
    a URL writes it; the rest as it is)."""
    return re.sub(r"[\x00-\x20\x7f-\x9f()<>|%#?&:\\\"'`\[\]]|[^\x00-\x7f]", _escaped, name)


def _escaped(found: re.Match) -> str:
    """A character as a URL's percent escapes of its UTF-8 bytes, the bytes of a name that is
    no UTF-8 (Python's ``\\udcXX``) as they are."""
    return "".join(f"%{byte:02X}" for byte in found.group().encode("utf-8", "surrogateescape"))


# ---- generate ------------------------------------------------------------------------------------

def most_turns(players: int, rules) -> int:
    """The most turns with a real choice a side can have in a deal: every card of its hands
    but the last of each, the hands as large as the runs the rules and the pack allow."""
    from solver.shuffle import max_runs_in_pack

    runs = max_runs_in_pack(players)
    if rules.max_runs is not None:
        runs = min(runs, rules.max_runs)
    hands = 2 if players == 4 else 1
    return hands * (6 + 3 * runs - 1)


def generator_seed(text: str | None, command: str = "generate") -> tuple[int, int]:
    """``--seed``: ``S``, or ``S/K`` as a puzzle file keeps it (seed S's candidates from number
    K on, counting from 0), as (S, K); none, a fresh seed S; ``command``: the puzzle command it
    was given to."""
    if text is None:
        import random

        return random.SystemRandom().randrange(1, 1_000_000), 0
    if text.startswith("-") and is_number(text[1:]):   # as --seed's of the other commands
        raise AllFivesError(f"--seed: {quoted(text)} is less than 0 (see 'allfives puzzle "
                            f"{command} --help')")
    from solver.puzzles.format import is_seed

    if not is_seed(text):
        raise AllFivesError(f"--seed: {quoted(text)} is not a seed: a whole number from 0, or "
                            f"S/K as a puzzle file keeps it (candidate K of seed S, counting from 0)")
    seed, _, first = text.partition("/")
    return int(seed), int(first or 0)


def generate_command(players: int, preset: str, count: int, seed: str | None,
                     min_turns: int, theme: str | None, out: str | None,
                     tries: int | None = None) -> int:
    """Make ``count`` puzzles (fewer if ``tries`` deals are tried first: then the status is
    ``FAILURE``): into files in ``out`` (numbered on from the files there), or onto standard
    output separated by ``# ---`` lines."""
    from .console import make_console
    from .inputs import read_rules

    rules = read_rules(preset)
    most = most_turns(players, rules)
    if min_turns > most:
        raise AllFivesError(f"--min-turns: {min_turns} turns with a real choice are more than "
                            f"a side has in a deal ({most} at most with {players} players "
                            f"under {rules_words(rules)})")
    theme = check_theme(theme, rules)
    start, first = generator_seed(seed)
    err = make_console(stderr=True)
    with puzzle_writer(out, " (another --seed makes others)") as write:
        with progress_bar(err, count, f"{players}-player puzzles") as advance:
            for puzzle in make_puzzles(players, rules, count, start, min_turns, theme, advance,
                                       first, tries):
                write(puzzle)
    if write.made < count:
        note(f"{write.made} of {count} puzzles found"
             + (f" in {counted(tries, 'deal')} tried" if tries is not None else ""))
        return FAILURE
    return 0


class _Writer:
    """Puzzles written as they are made: each to a file of ``folder`` named by its number and
    title (numbered on from the files there; one the folder holds already is not written
    again), or without a folder to standard output, a ``# ---`` line between two."""

    def __init__(self, folder: Path | None, new_folder: bool, again: str = "") -> None:
        self.folder = folder
        self.again = again
        self.made = 0
        self.there: dict[tuple, Path] = {}
        self.seen: set[Path] = set()
        if folder is not None and not new_folder:
            self._look()

    def _look(self) -> int:
        """The folder listed again (once a puzzle: it was twice, 44 ms each time with 10,000
        files there): the puzzles of its files not seen before (another run's, since), and the
        number of the next file.  A file that cannot be read as puzzles is passed over
        (``puzzle check`` says what is wrong with it), and what is no file (a folder, a link to
        nothing or in a loop, a device, or a FIFO, which would wait for a writer for ever) is
        none."""
        assert self.folder is not None
        listing = list(self.folder.glob("*.toml"))
        new = [path for path in listing if path not in self.seen]
        self.seen.update(new)
        for path in sorted(new):
            if not path.is_file():
                continue
            try:
                named = puzzle_paths([path])
            except (AllFivesError, OSError):
                continue
            self.there.update((key, found) for found, key in puzzle_keys(named))
        return next_number(self.folder, listing)

    def __call__(self, puzzle: Puzzle) -> None:
        from solver.notation import SEPARATOR

        self.made += 1
        if self.folder is None:
            if self.made > 1:
                print(SEPARATOR)
            write_utf8(puzzle.to_toml())
            return
        # another run writing into the folder at once waits: each file's number is the next
        # free one, and a puzzle the other wrote meanwhile is not written again; a run that
        # made the folder and stopped before its first puzzle takes it away again, empty, so
        # it is made again here (and once more if that came while the lock was waited for)
        while True:
            self.folder.mkdir(exist_ok=True)
            with _folder_held(self.folder):
                if not self.folder.is_dir():
                    continue
                path = self._written(puzzle)
                already = None if path is not None else self.there[puzzle_key(puzzle)]
                break
        if already is not None:
            note(f"{already} is this puzzle already: not written again{self.again}")
        else:
            print(path, flush=True)

    def _written(self, puzzle: Puzzle) -> Path | None:
        """The file the puzzle is written to, under the next free number, or None where the
        folder holds it already (its lock held)."""
        assert self.folder is not None
        number = self._look()
        if puzzle_key(puzzle) in self.there:
            return None
        path = self.folder / file_name(number, puzzle)
        with open(path, "x", encoding="utf-8") as out:
            out.write(puzzle.to_toml())
        self.seen.add(path)
        self.there[puzzle_key(puzzle)] = path
        return path


@contextlib.contextmanager
def _folder_held(folder: Path) -> Iterator[None]:
    """The folder's lock held while the block runs (none where there are no such locks)."""
    try:
        import fcntl

        handle = os.open(folder, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


@contextlib.contextmanager
def puzzle_writer(out: str | None, again: str = "") -> Iterator[_Writer]:
    """The ``_Writer`` of ``--out DIR`` (made if it is not there, and taken away again if no
    puzzle went into it), or of standard output; a folder that cannot take them is an error
    now, before any puzzle is made.  ``again``: what the note on a puzzle there already adds."""
    from .inputs import link_trouble, named

    folder = Path(named(out, "--out")) if out is not None else None
    new_folder = folder is not None and not folder.exists()
    if folder is not None and (trouble := link_trouble(folder)):
        raise AllFivesError(f"--out: {folder} is a link that leads to no folder: {trouble}")
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            raise AllFivesError(f"--out: {folder} is a file, not a folder")
        if not folder.exists() and not folder.absolute().parent.is_dir():
            raise AllFivesError(f"--out: no folder {folder.parent} to make {folder.name} in")
        if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
            # (found now, not once the first puzzle is found)
            raise AllFivesError(f"--out: {folder}: the folder cannot be written to")
        try:
            folder.mkdir(exist_ok=True)
        except OSError as error:
            raise AllFivesError(f"--out: cannot make {folder}: {error.strerror}") from None
    write = _Writer(folder, new_folder, again)
    try:
        yield write
    finally:
        if new_folder and not write.made:     # (stopped before a puzzle: the folder made for none)
            assert folder is not None
            with contextlib.suppress(OSError), _folder_held(folder):
                folder.rmdir()      # (not while another run writes to it, nor once it has)


def make_command(names: list[str], objective: str | None, min_turns: int,
                 out: str | None) -> int:
    """A puzzle of each position named, for the side to play, where it makes a sound one
    (``solver.puzzles.examine``), written as ``generate`` writes them; for each other, one line
    saying the first rule it breaks.  The exit status: 1 if any made none."""
    from solver.players import within_reach
    from solver.puzzles import examine

    from .inputs import read_inputs
    from .status import reading

    positions = read_inputs(names, played=False, shown=True)  # (all read before any solve)
    if objective == "win":
        for name, position in positions:
            if position.deal.score is None:
                raise AllFivesError(f"{name}: --objective win needs the match score (score = "
                                    f"[...] in a deal file, score= on one line)")
    if objective == "margin":
        for name, position in positions:
            if position.deal.sides != 2:
                raise AllFivesError(f"{name}: --objective margin needs two sides, not "
                                    f"{position.deal.players} players each for themselves")
    failed = 0
    with puzzle_writer(out) as write:
        for name, position in positions:
            goal = objective or ("win" if within_reach(position) else "points")
            with reading(f"examining {name}"):
                made = examine(position, goal, min_turns, _solver())
            if isinstance(made, str):
                failed += 1
                note(f"{name}: no puzzle ({goal}): {made}")
            else:
                write(made)
    return FAILURE if failed else 0


def make_puzzles(players, rules, count, seed, min_turns, theme, progress, first=0, tries=None):
    from solver.puzzles import generate

    return generate(players=players, rules=rules, count=count, seed=seed, min_turns=min_turns,
                    theme=theme, progress=progress, first=first, max_tries=tries)


def check_theme(theme: str | None, rules=None) -> str | None:
    """The theme asked for, known and (``rules``) one the rules let the generator find (with
    none asked for, whether the rules let it find any puzzle)."""
    from solver.puzzles import check_theme as known

    if theme is not None:
        with option("--theme"):
            known(theme)
    if rules is not None:
        from solver.puzzles.themes import why_never_found

        why = why_never_found(theme, rules)
        if why:
            asked = "--rules: no puzzle can be" if theme is None else f"--theme {theme}: never"
            raise AllFivesError(f"{asked} found under {rules_words(rules)}: {why}")
    return theme


class progress_bar:
    """A Rich progress bar on a terminal (none into a pipe); the ``advance`` it yields is the
    generator's ``progress`` callback, called with the candidates tried and the puzzles made."""

    def __init__(self, console: Console, total: int, what: str) -> None:
        self.console, self.total, self.what = console, total, what
        self.bar: Progress | None = None

    def __enter__(self):
        if not self.console.is_terminal:
            return None
        from .console import cursor_back_when_stopped

        # room at the end of the line for the ^C a terminal echoes: on a full line it wraps,
        # and the bar, a line above the cursor, is not cleared when it stops
        self.console.width = max(self.console.width - 3, 20)
        # what goes to standard output meanwhile (the puzzles) goes above the bar only when it
        # is the same terminal, never into a file or pipe's place on the bar's screen
        self.bar = _fitted_progress(self.console, transient=True,
                                    redirect_stdout=sys.stdout.isatty())
        self.bar.start()
        task = self.bar.add_task(self.what, total=self.total)
        self.kept = cursor_back_when_stopped()
        self.kept.__enter__()

        def advance(tried: int, made: int) -> None:
            # drawn at once when a puzzle is made (it is written next), else at the bar's pace
            assert self.bar is not None
            fresh = made != self.bar.tasks[0].completed
            self.bar.update(task, completed=made, refresh=fresh,
                            description=f"{self.what} ({counted(tried, 'deal')} tried)")

        return advance

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.kept.__exit__(None, None, None)


def _fitted_progress(screen: Console, **options):
    """A Rich ``Progress`` of the description, a bar, the puzzles found of those asked for and
    the time taken, on one line of its screen: where they do not fit, the bar goes first, then
    the time, then the description is cut short; the puzzles found stay whole."""
    from rich.measure import Measurement
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
        TimeElapsedColumn
    from rich.table import Column

    from solver import clock

    #: the narrowest bar worth drawing
    least = 10

    class Fitted(Progress):
        def make_tasks_table(self, tasks):
            tasks = [task for task in tasks if task.visible]

            def widest(column) -> int:
                return max((Measurement.get(screen, screen.options, column(task)).maximum
                            for task in tasks), default=0)

            kept = next(
                (columns for columns in ((text, bar, found, time), (text, found, time))
                 if sum(map(widest, set(columns) - {bar})) + len(columns) - 1
                 + (least if bar in columns else 0) <= screen.width), (text, found))
            rest = sum(widest(c) + 1 for c in kept if c is not text and c is not bar)
            text.get_table_column().max_width = max(screen.width - rest, 1)
            bar.bar_width = max(min(40, screen.width - rest - widest(text) - 1), least)
            self.columns = kept
            return super().make_tasks_table(tasks)

    text = TextColumn("{task.description}", table_column=Column(no_wrap=True,
                                                                 overflow="ellipsis"))
    bar, found, time = BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
    return Fitted(text, bar, found, time, console=screen, get_time=clock.now, **options)


# ---- play ----------------------------------------------------------------------------------------

def play_command(file: str | None, random_one: bool, players: int, preset: str,
                 theme: str | None, seed: str | None, color: bool | None,
                 stream: TextIO | None = None, console: Console | None = None,
                 given: Collection[str] = (), titled: bool = True) -> None:
    """Play a puzzle at the console (``titled``: its title shown; solved or not, the exit
    status is 0).  ``given``: which of
    ``players``, ``rules``, ``theme`` and ``seed`` were typed (they make a ``--random`` one,
    and a puzzle FILE has its own); ``seed``: S, or S/K as ``generate --seed`` takes it."""
    from solver.puzzles import THEMES

    from .answers import is_interactive
    from .console import can_show_suits, make_console
    from .puzzleplay import PuzzleSession

    if (file is None) == (not random_one):
        raise AllFivesError("name a puzzle FILE, or ask for --random (not both)"
                            if file is not None else "name a puzzle FILE, or ask for --random")
    typed = [name for name in ("players", "rules", "theme", "seed") if name in given]
    if file is not None and typed:
        raise AllFivesError(f"--{typed[0]}: only with --random (a puzzle FILE brings its own "
                            f"table, rules and theme)")
    if file is not None:
        from .inputs import STDIN, named

        if file == STDIN:
            raise AllFivesError("FILE: '-' (standard input) is where the answers are read from, "
                                "not a puzzle: name a puzzle file")
        (path, puzzle), *rest = load_all([named(file, "FILE")])
        if rest:
            what = "folder" if Path(file).is_dir() else "file"
            raise AllFivesError(f"{file}: a {what} of {len(rest) + 1} puzzles: name one, as "
                                f"{path}")
        refuse_unsound(path, puzzle_problems(puzzle))
        name = str(path)     # (its number is its file's, or a pipe's none: number_of)
    else:
        from .inputs import read_rules

        rules = read_rules(preset)
        theme = check_theme(theme, rules)
        start, first = generator_seed(seed, "play")
        # the search may take a while (a rare theme): a transient line on a terminal says so
        with progress_bar(make_console(color, stderr=True), 1,
                          f"Looking for a puzzle (seed {seed or start})") as advance:
            found = list(make_puzzles(players, rules, 1, start, 2, theme, advance, first))
        if not found:
            raise AllFivesError("no puzzle found for these options")
        puzzle, name = found[0], ""
        # the seed that --seed takes to make it again: S, or (begun at a candidate of S) the
        # candidate it is, S/K
        shown = str(start) if not first else puzzle.seed
    console = console or make_console(color)
    stream = stream or sys.stdin
    interactive = is_interactive(stream)
    session = PuzzleSession(puzzle, console, stream, _solver(), interactive,
                            can_show_suits(console), name, dict(THEMES),
                            shown if file is None else "", titled)
    try:
        session.run()
    except KeyboardInterrupt:
        if interactive:
            console.print()  # off the prompt's line
        raise
