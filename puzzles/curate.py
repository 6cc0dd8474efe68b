"""How this collection was picked from the generator's candidates (see README.md here).

    k=0; for n in 2 3 4; do for preset in all-fives strict all-fours classic five-for-five; do
      k=$((k+1))
      allfives puzzle generate --players $n --rules $preset --count 12 --seed $((n*100+k)) \
          --out candidates/$n-$preset
    done; done
    python puzzles/curate.py candidates puzzles 22

For each player count, the candidates are taken one at a time, best first: more real choices,
more cards left, more tempting wrong cards and more themes make a candidate better; a theme or
a rule set already taken often makes it worse, and up to three with the objective ``win`` are
taken first.  The puzzles kept are numbered by rating (easy first) and titled from their rarest
theme, from the lists below.  Run again with the engine they were rated with, it writes the
same files.  The ratings count the engine's work, so after the engine (or the rating's
ladder: its Monte Carlo players came to try 8 times each) changes the files are rated again in
place by ``rerate.py``, which keeps their numbers (some are then out of the order of their
ratings) rather than picking and numbering anew.

When the ``endplay`` theme came to need a tenace in the suit led and no safe exit, four of the
puzzles picked for it lost it; each was replaced, under its number and title, by the first
puzzle with the theme of the same players and rules:

    allfives puzzle generate --players 3 --rules strict --theme endplay --seed 93      # 003
    allfives puzzle generate --players 4 --rules strict --theme endplay --seed 94      # 004
    allfives puzzle generate --players 2 --rules strict --theme endplay --seed 92      # 031
    allfives puzzle generate --players 2 --rules five-for-five --theme endplay --seed 92  # 035

When the defence's card on a line came to be one of its best replies (none that gives the
solver more than best defence would), four lines changed.  004 and 062 were made again from
their own seeds (062 then showed ``game-by-a-pip`` and took a title from it); 002 and 026 lost
the theme of their titles and were replaced the same way:

    allfives puzzle generate --players 3 --theme catch-the-five --seed 95                # 002
    allfives puzzle generate --players 4 --rules strict --theme endplay --seed 94/5320   # 004
    allfives puzzle generate --players 2 --theme jack-hunt --seed 96                     # 026
    allfives puzzle generate --players 3 --seed 306/243                                  # 062
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

from cli.puzzlefiles import slug
from solver.puzzles import load_puzzle

TITLES = {
    "save-the-ten": ["Save the ten", "The ten comes home", "Mind your ten", "Ten in the bank",
                     "Shelter the ten", "Keep the ten dry", "No ten for them", "Safe passage"],
    "catch-the-five": ["Catch the five", "Five in the net", "Fishing for the five",
                       "The five falls", "Trap the five", "Five for the taking", "Pin the five",
                       "Netting five"],
    "jack-hunt": ["Hunt the jack", "Jack in the box", "Run the jack down", "Jack's last stand",
                  "Cornered jack", "The jack falls", "Jack be nimble", "Who has the jack?"],
    "draw-trumps": ["Draw trumps first", "Trumps before treasure", "Clear the trumps",
                    "Pull their teeth", "Draw, then cash", "First the trumps",
                    "No trump left behind", "Drawing lesson", "Trumps out",
                    "Empty their trumps"],
    "ruff-the-ten": ["Ruff the ten", "Trump their ten", "A ten for a trump", "Ruff, don't follow",
                     "Over the ten", "Ten caught short", "Trump it anyway", "The ruffian"],
    "duck": ["Duck", "Duck and wait", "Let it go", "The patient duck", "Hold back",
             "Not this trick", "Lose one, win two", "Low and slow", "Wait for it"],
    "sacrifice": ["Give a little, take more", "A small gift", "Throw a sprat", "Pay to play",
                  "The price of the lead", "Give to get", "An investment", "One step back"],
    "game-by-a-pip": ["Game by a pip", "Count the pips", "A pip ahead", "Every pip counts",
                      "Photo finish", "By a nose", "Game on a knife-edge", "Counting game",
                      "Pips decide"],
    "endplay": ["Endplay", "Throw them in", "Their lead, your tricks", "Lead into me",
                "Stepping stone", "Put them on play", "No safe exit", "The throw-in"],
    "peg-out": ["Peg out", "Out in one", "Race to the target", "Home in this hand",
                "The last few points", "Finish it", "Crossing the line", "Match point",
                "Over the line"],
    None: ["Find the only line", "One way only", "The narrow path", "Only one card",
           "Thread the needle", "The quiet move", "Careful does it", "No second chance",
           "Step by step", "The right order"],
}
#: The themes, rarest first: a puzzle is titled from the first it has.
RARITY = ["peg-out", "ruff-the-ten", "endplay", "jack-hunt", "save-the-ten", "catch-the-five",
          "sacrifice", "game-by-a-pip", "duck", "draw-trumps"]


def primary(puzzle) -> str | None:
    return next((t for t in RARITY if t in puzzle.themes), None)


def quality(puzzle) -> float:
    evidence = dict(puzzle.evidence)
    deal = puzzle.position.deal
    cards = sum(len(h) for h in puzzle.position.hands) / deal.players
    return (2 * evidence.get("real_choices", 0) + min(cards, 6)
            + 0.5 * evidence.get("tempting", 0) + 0.3 * len(puzzle.themes))


def pick(candidates: list, per_players: int) -> list:
    chosen = []
    themes: Counter = Counter()
    presets: Counter = Counter()
    for players in (2, 3, 4):
        pool = [p for p in candidates if p.position.deal.players == players]
        mine: list = []

        def score(puzzle) -> float:
            value = quality(puzzle) - 3.0 * themes[primary(puzzle)]
            value -= 1.5 * presets[players, puzzle.position.deal.rules.preset_name]
            if puzzle.objective == "win" and sum(q.objective == "win" for q in mine) < 3:
                value += 20
            return value

        while len(mine) < per_players and pool:
            best = max(pool, key=score)
            pool.remove(best)
            mine.append(best)
            themes[primary(best)] += 1
            presets[players, best.position.deal.rules.preset_name] += 1
        chosen += mine
    return sorted(chosen, key=lambda p: (p.rating, p.position.deal.players))


def main(candidates: str, out: str, per_players: int) -> None:
    found, seen = [], set()
    for path in sorted(Path(candidates).glob("*/*.toml")):
        puzzle = load_puzzle(path)
        deal = puzzle.position.deal
        cards = (deal.hands, deal.trump)  # one deal, whatever the rules: once
        if cards not in seen:
            seen.add(cards)
            found.append(puzzle)
    folder = Path(out)
    for old in folder.glob("*.toml"):
        old.unlink()
    used: set[str] = set()
    for number, puzzle in enumerate(pick(found, per_players), 1):
        titles = TITLES[primary(puzzle)] + TITLES[None]
        title = next(t for t in titles if t not in used)
        used.add(title)
        path = folder / f"{number:03d}-{slug(title)}.toml"
        path.write_text(replace(puzzle, title=title).to_toml(), encoding="utf-8")


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):     # (the notes above say how to run it)
        print(__doc__.strip())
        sys.exit(0)
    if len(sys.argv) != 4 or not sys.argv[3].isdigit() or int(sys.argv[3]) < 1:
        sys.exit("curate.py: usage: curate.py CANDIDATES OUT PER_PLAYERS (a whole number from 1)")
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
