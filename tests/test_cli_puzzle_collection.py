"""The curated collection in ``puzzles/``: every file sound by ``allfives puzzle check``, named
by its number and title, enough of every kind (players, rules, themes, ratings, the win
objective), and its index up to date."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from clirun import run

pytest.importorskip("solver.search")  # the check solves every puzzle

from cli.puzzlefiles import slug  # noqa: E402
from cli.puzzling import index_text  # noqa: E402
from solver.puzzles import load_puzzle  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
COLLECTION = ROOT / "puzzles"
FILES = sorted(COLLECTION.glob("*.toml"))
PUZZLES = {path: load_puzzle(path) for path in FILES}


def test_every_puzzle_is_sound():
    result = run("puzzle", "check", COLLECTION, "--jobs", "2")
    assert result.exit_code == 0, result.stdout
    assert result.stdout == f"{len(FILES)} puzzles checked: all sound.\n"


def test_files_are_named_by_number_and_title():
    numbers = []
    for path, puzzle in PUZZLES.items():
        match = re.fullmatch(r"(\d{3})-([a-z0-9-]+)\.toml", path.name)
        assert match, path.name
        numbers.append(int(match.group(1)))
        assert puzzle.title and match.group(2) == slug(puzzle.title), path.name
    assert numbers == list(range(1, len(FILES) + 1))
    titles = [p.title for p in PUZZLES.values()]
    assert len(set(titles)) == len(titles)


def test_enough_of_every_kind():
    assert len(PUZZLES) >= 60
    players = Counter(p.position.deal.players for p in PUZZLES.values())
    assert all(players[n] >= 15 for n in (2, 3, 4)), players
    presets = Counter(p.position.deal.rules.preset_name for p in PUZZLES.values())
    assert {"all-fives", "strict", "all-fours"} <= set(presets), presets
    themes = Counter(t for p in PUZZLES.values() for t in p.themes)
    assert len(themes) >= 8, themes
    wins = [p for p in PUZZLES.values() if p.objective == "win"]
    assert len(wins) >= 3
    assert all(p.position.deal.score is not None for p in wins)
    ratings = sorted(p.rating for p in PUZZLES.values())
    assert None not in ratings
    assert ratings[-1] - ratings[0] >= 400  # a spread, not one level


def test_the_index_is_up_to_date():
    assert (COLLECTION / "README.md").read_text(encoding="utf-8") == index_text([COLLECTION])
    result = run("puzzle", "index", COLLECTION)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    rows = [line for line in lines if re.match(r"\| \d{3} \|", line)]
    assert len(rows) == len(FILES)
    for row, (path, puzzle) in zip(rows, PUZZLES.items()):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[0] == path.name[:3]
        assert cells[1] == f"[{puzzle.title}]({path.name})"
        assert cells[2] == str(puzzle.position.deal.players)
        assert cells[6] == str(puzzle.rating)


def test_the_themes_are_the_ones_the_puzzles_show():
    from solver.puzzles import themes_of
    from solver.search import Solver

    solver = Solver()
    for path, puzzle in PUZZLES.items():
        assert tuple(themes_of(puzzle, solver)) == puzzle.themes, path.name


def test_no_theme_of_the_collection_is_one_its_rules_refuse():
    """``--theme`` refuses a theme the rules never allow; the collection's puzzles show every
    theme so refused somewhere, and none under rules that refuse it."""
    from solver.puzzles.themes import why_never_found

    shown = set()
    for path, puzzle in PUZZLES.items():
        for theme in puzzle.themes:
            assert why_never_found(theme, puzzle.position.deal.rules) is None, (path.name, theme)
            shown.add(theme)
    assert {"ruff-the-ten", "catch-the-five", "jack-hunt", "game-by-a-pip"} <= shown


@pytest.mark.slow
def test_every_puzzle_is_made_again_by_its_seed():
    """The generator's candidate of each file's seed is that puzzle, line and rating
    included (the collection must be picked again when the generator changes)."""
    from solver.puzzles import candidate
    from solver.search import Solver

    solver = Solver()
    for path, puzzle in PUZZLES.items():
        deal = puzzle.position.deal
        made = candidate(puzzle.seed, deal.players, deal.rules, 2, solver)
        assert made is not None, path.name
        assert (made.position, made.line, made.themes, made.rating) == \
               (puzzle.position, puzzle.line, puzzle.themes, puzzle.rating), path.name


def test_a_title_that_markdown_would_misread_stays_in_its_cell(tmp_path):
    # the oracle: GitHub's rule for a table row, cells split at every '|' not escaped
    from dataclasses import replace

    source = FILES[0]
    odd = tmp_path / "007-odd (copy).toml"
    odd.write_text(replace(PUZZLES[source],
                           title="A | B [c] \\ d second `line` *&amp; <b>_x_").to_toml(),
                   encoding="utf-8")
    row = [line for line in index_text([tmp_path]).splitlines() if line.startswith("| 007")]
    [row] = row
    cells = re.split(r"(?<!\\)\|", row.strip().strip("|"))
    assert len(cells) == 7
    # (and no code, emphasis, entity or tag: every one of those characters escaped)
    assert cells[1].strip() == (r"[A \| B \[c\] \\ d second \`line\` \*\&amp; \<b>\_x\_]"
                                r"(007-odd%20%28copy%29.toml)")


def test_the_index_of_other_files_links_them_from_the_folder_that_holds_them(tmp_path,
                                                                           monkeypatch):
    """A teacher's folder is not the collection: its index says nothing of curate.py or the
    test suite, and each link leads from the folder that holds every file named to the file
    (the files of several folders keep their folders)."""
    for folder, source in (("gen", FILES[0]), ("ord", FILES[1])):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / source.name).write_text(source.read_text(encoding="utf-8"),
                                                     encoding="utf-8")
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")     # (a folder outside the one named: it in full)
    text = index_text([tmp_path / "gen", tmp_path / "ord" / FILES[1].name])
    assert text.startswith("# Puzzles\n") and "curate.py" not in text
    assert "test suite" not in text and f"its links lead from `{tmp_path.resolve()}/`" in text
    monkeypatch.chdir(tmp_path)     # (from a folder above, the way down)
    assert "its links lead from `./`" in index_text([tmp_path / "gen",
                                                      tmp_path / "ord" / FILES[1].name])
    monkeypatch.chdir(tmp_path.parent)
    assert f"its links lead from `{tmp_path.name}/`" in index_text(
        [tmp_path / "gen", tmp_path / "ord" / FILES[1].name])
    assert "2 puzzles. Players:" in text
    targets = re.findall(r"\]\((.+?)\) \|", text)
    assert targets == [f"gen/{FILES[0].name}", f"ord/{FILES[1].name}"]
    for target in targets:
        assert (tmp_path / target).is_file()
    one = index_text([tmp_path / "gen"])
    assert re.findall(r"\]\((.+?)\) \|", one) == [FILES[0].name]
    assert "1 puzzle. Players:" in one


def test_only_the_whole_collection_s_index_says_how_the_collection_was_made(tmp_path):
    """A file or two of the collection (of a copy of its folder too, curate.py and all) are
    not the collection: their index says nothing of the test suite or of puzzles/README.md."""
    import shutil

    copy = tmp_path / "pz"
    copy.mkdir()
    for source in (*FILES[:2], COLLECTION / "curate.py"):
        shutil.copy(source, copy / source.name)
    for named in ([copy / FILES[0].name], [COLLECTION / FILES[0].name],
                  [copy / FILES[0].name, copy / FILES[1].name]):
        text = index_text(named)
        assert text.startswith("# Puzzles\n"), named
        assert "test suite" not in text and "puzzles/README.md" not in text
    whole = index_text([copy])       # the folder itself, as puzzles/README.md is made
    assert whole.startswith("# The puzzle collection\n") and "2 puzzles." in whole
