"""Rate every puzzle of this collection again, in place: its rating, ``solved_by`` and evidence
made anew from its seed by the generator, the deal, line, themes, title and file name kept.

    python puzzles/rerate.py

The rating counts the engine's nodes and the ladder's ``search-200`` and ``search-2000`` are the
engine held to that many nodes, so a faster engine lowers some ratings (README, "Puzzles"), and
a change to the ladder (its Monte Carlo players' tries) moves them too: rating the files again
keeps the collection what its seeds make (the slow test
``test_every_puzzle_is_made_again_by_its_seed``) without renumbering it.  ``curate.py`` run
again would pick and number by the new ratings.
"""

import sys
from dataclasses import replace
from pathlib import Path

from solver.puzzles import candidate, load_puzzle
from solver.search import Solver


def main(argv: list[str]) -> None:
    if {"-h", "--help"} & set(argv):     # (the notes above say how to run it)
        print(__doc__.strip())
        return
    if argv:
        sys.exit("rerate.py: usage: rerate.py (no arguments: it rates this folder's puzzles)")
    solver = Solver()
    changed = 0
    for path in sorted(Path(__file__).parent.glob("*.toml")):
        puzzle = load_puzzle(path)
        assert puzzle.to_toml() == path.read_text(), f"{path}: not canonical"
        deal = puzzle.position.deal
        made = candidate(puzzle.seed, deal.players, deal.rules, 2, solver)
        assert (made.position, made.line, made.themes) == \
            (puzzle.position, puzzle.line, puzzle.themes), path
        new = replace(puzzle, rating=made.rating, solved_by=made.solved_by,
                      evidence=made.evidence)
        if new != puzzle:
            path.write_text(new.to_toml())
            changed += 1
            print(path.name, puzzle.rating, "->", new.rating,
                  "" if puzzle.solved_by == new.solved_by
                  else f"solved_by {puzzle.solved_by} -> {new.solved_by}")
    print(changed, "changed")


if __name__ == "__main__":
    main(sys.argv[1:])
