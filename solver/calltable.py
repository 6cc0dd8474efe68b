"""The learned table of the calls (``solver/data/calls.json.gz``), made from seeded self-play.

For each deal, from a pack shuffled by a seeded RNG and a dealer drawn by it, stand, take-one
and run are each played out by the heuristic (``solver.calling.outcomes``: the same pack for
the three, so the differences are paired).  Then

* the elder hand's cell gets stand less beg for the elder hand's side, the beg answered as
  the heuristic dealer answers it (its rule 2 on its own hand);
* when the heuristic elder hand would beg (the dealer's call arises only then, and says that
  much about the elder hand), the dealer's cell gets take-one less run for the dealer's side.

Each difference is counted in every cell of the caller's hand (``solver.calling.cell_keys``,
coarse to fine) as the deals counted, their sum and their sum of squares.  The deals are made
in chunks of ``CHUNK``, each from its own seed, so that a rebuild by any number of processes
gives the same table.  Rebuild the shipped one with::

    python -m solver.calltable --deals 150000 --jobs 2
    python -m solver.calltable --deals 40000 --presets strict,classic,all-fours,five-for-five \
        --add --jobs 2

(``--players``, ``--presets`` and ``--seed`` to choose; ``--out`` for another file, ``--add``
to add tables to it).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import math
import os
import random
import shutil
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor

from .calling import cell_keys, hand_features, load_table, outcomes, table_call
from .game import BEG, RUN, STAND, TAKE_ONE, Match
from .heuristic import stand_or_beg, take_one_or_run
from .registry import player_spec
from .rules import MAX_TARGET, PRESETS, Rules
from .shuffle import shuffled_pack
from .tricks import side_of

__all__ = ["CHUNK", "chunk_cells", "make_cells", "merge", "table_data", "table_text", "rebuild",
           "call_rates", "check_cell", "main"]

#: Deals per chunk: each chunk is seeded on its own.
CHUNK = 500
#: The seed of the shipped table.
SEED = 0


def _add(cells: dict[str, list[float]], base: str, hand, turnup: int, difference: float) -> None:
    for key in cell_keys(hand_features(hand, turnup)):
        cell = cells.setdefault(f"{base}|{key}", [0, 0.0, 0.0])
        cell[0] += 1
        cell[1] += difference
        cell[2] += difference * difference


def chunk_cells(preset: str, players: int, chunk: int, deals: int = CHUNK,
                seed: int | str = SEED) -> dict[str, list[float]]:
    """The cells of one chunk of ``deals`` deals (see the module notes)."""
    rules = Rules.preset(preset).replace(target=MAX_TARGET)
    match = Match(players, rules)
    rng = random.Random(f"calls:{seed}:{preset}:{players}:{chunk}")
    cells: dict[str, list[float]] = {}
    run_allowed = rules.max_runs != 0
    for _ in range(deals):
        dealer = rng.randrange(players)
        pack = shuffled_pack(rng)
        results = outcomes(match, dealer, pack)
        state = match.new_initial_state(dealer=dealer, auto_deal=False)
        state.deal_pack(pack)
        elder = state.current_player()
        elder_obs = state.observation(elder)
        begs = stand_or_beg(elder_obs) == BEG
        state.apply_action(BEG)
        dealer_obs = state.observation(dealer)
        reply = take_one_or_run(dealer_obs)
        elder_side, dealer_side = side_of(elder, players), side_of(dealer, players)
        turnup = elder_obs.turnups[0]
        _add(cells, f"{preset}/{players}/elder", elder_obs.hand, turnup,
             results[STAND][elder_side] - results[reply][elder_side])
        if begs and run_allowed:
            _add(cells, f"{preset}/{players}/dealer", dealer_obs.hand, turnup,
                 results[TAKE_ONE][dealer_side] - results[RUN][dealer_side])
    return cells


def merge(parts: Iterable[dict[str, list[float]]]) -> dict[str, list[float]]:
    """Cells summed in the order given."""
    out: dict[str, list[float]] = {}
    for part in parts:
        for key, (n, total, squares) in part.items():
            cell = out.setdefault(key, [0, 0.0, 0.0])
            cell[0] += n
            cell[1] += total
            cell[2] += squares
    return out


def _chunk(args: tuple) -> dict[str, list[float]]:
    return chunk_cells(*args)


def make_cells(presets: Sequence[str], players: Sequence[int], deals: int,
               seed: int | str = SEED, jobs: int = 1, chunk: int = CHUNK
               ) -> dict[str, list[float]]:
    """The cells of ``deals`` deals (chunks of ``chunk``, the last one short if need be) for
    every preset and table, by ``jobs`` processes."""
    work = []
    for preset in presets:
        for n in players:
            full, rest = divmod(deals, chunk)
            work += [(preset, n, c, chunk, seed) for c in range(full)]
            if rest:
                work.append((preset, n, full, rest, seed))
    if jobs <= 1:
        return merge(map(_chunk, work))
    with ProcessPoolExecutor(jobs) as pool:
        return merge(pool.map(_chunk, work))


def table_data(cells: dict[str, list[float]], parts: Sequence[dict]) -> dict:
    """The JSON of the table: how it was made (``parts``: each ``presets``, ``players``,
    ``deals`` and ``seed``) and its cells in a stable order."""
    meta = {"chunk": CHUNK, "parts": list(parts)}
    return {"meta": meta, "cells": {k: cells[k] for k in sorted(cells)}}


def rebuild(meta: dict, jobs: int = 1) -> dict[str, list[float]]:
    """The cells of a table made as ``meta`` says."""
    return merge(make_cells(p["presets"], p["players"], p["deals"], p["seed"], jobs,
                            meta["chunk"]) for p in meta["parts"])


def call_rates(preset: str, players: int, deals: int, seed: int | str = "rates",
               table=None) -> dict[str, float]:
    """How often the heuristic's rules and the table beg (elder hand) and run (dealer, after
    the heuristic elder hand's beg) over ``deals`` random deals, and how often they differ."""
    rules = Rules.preset(preset)
    match = Match(players, rules)
    rng = random.Random(f"rates:{seed}:{preset}:{players}")
    counts = dict.fromkeys(("rule begs", "table begs", "elder differs", "dealer calls",
                            "rule runs", "table runs", "dealer differs"), 0)
    for _ in range(deals):
        state = match.new_initial_state(dealer=rng.randrange(players), auto_deal=False)
        state.deal_pack(shuffled_pack(rng))
        elder = state.observation(state.current_player())
        rule, learned = stand_or_beg(elder), table_call(elder, table)
        counts["rule begs"] += rule == BEG
        counts["table begs"] += learned == BEG
        counts["elder differs"] += rule != learned
        if rule != BEG:
            continue
        state.apply_action(BEG)
        dealer = state.observation(state.dealer)
        rule, learned = take_one_or_run(dealer), table_call(dealer, table)
        counts["dealer calls"] += 1
        counts["rule runs"] += rule == RUN
        counts["table runs"] += learned == RUN
        counts["dealer differs"] += rule != learned
    calls = max(1, counts["dealer calls"])
    return {"deals": deals, "rule begs": counts["rule begs"] / deals,
            "table begs": counts["table begs"] / deals,
            "elder differs": counts["elder differs"] / deals,
            "after a beg": counts["dealer calls"] / deals,
            "rule runs": counts["rule runs"] / calls, "table runs": counts["table runs"] / calls,
            "dealer differs": counts["dealer differs"] / calls}


def check_cell(phase: str, cell: str, players: int, samples: int, spec: str = "pimc",
               seed: int | str = "check", preset: str = "all-fives") -> dict[str, object]:
    """The difference between the branches of the deals whose caller falls in ``cell`` (a key
    of ``solver.calling.cell_keys``), played out by the heuristic and by ``spec`` players (one
    a seat) on the same ``samples`` deals: (mean, 95% half-width) of each (``"play-out"``, the
    heuristic's, and ``spec``), and the table's mean for the cell and its count (``"table"``).  A check that a table learned from the heuristic's play holds for
    another player's."""
    rules = Rules.preset(preset).replace(target=MAX_TARGET)
    match = Match(players, rules)
    rng = random.Random(f"check:{seed}:{phase}:{cell}:{players}")
    mine, theirs = "play-out", spec
    found: dict[str, list[float]] = {mine: [], theirs: []}
    while len(found[theirs]) < samples:
        dealer = rng.randrange(players)
        pack = shuffled_pack(rng)
        state = match.new_initial_state(dealer=dealer, auto_deal=False)
        state.deal_pack(pack)
        elder = state.observation(state.current_player())
        state.apply_action(BEG)
        dealer_obs = state.observation(dealer)
        obs = elder if phase == "elder" else dealer_obs
        if cell not in cell_keys(hand_features(obs.hand, obs.turnups[0])):
            continue
        if phase == "dealer" and stand_or_beg(elder) != BEG:
            continue
        side = side_of(obs.seat, players)
        reply = take_one_or_run(dealer_obs)
        first, second = (STAND, reply) if phase == "elder" else (TAKE_ONE, RUN)
        seats = [player_spec(spec).make(seed=f"{seed}:{len(found[theirs])}:{s}")
                 for s in range(players)]
        for name, who in ((mine, None), (theirs, seats)):
            results = outcomes(match, dealer, pack, players=who)
            found[name].append(results[first][side] - results[second][side])
    out: dict[str, object] = {}
    for name, values in found.items():
        mean = sum(values) / len(values)
        var = sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1)
        out[name] = (round(mean, 3), round(1.96 * math.sqrt(var / len(values)), 3))
    cells = load_table().cells.get(f"{preset}/{players}/{phase}|{cell}")
    out["table"] = None if cells is None else (round(cells[1] / cells[0], 3), int(cells[0]))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.calltable",
                                     description="Make the learned table of the calls.")
    parser.add_argument("--deals", type=int, default=60_000, help="deals per preset and table")
    parser.add_argument("--seed", default=str(SEED))
    parser.add_argument("--presets", default="all-fives")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default="solver/data/calls.json.gz")
    parser.add_argument("--add", action="store_true",
                        help="add these tables to the file --out instead of replacing it")
    parser.add_argument("--rates", action="store_true",
                        help="write nothing: how often the shipped table's calls differ from "
                             "the heuristic's rules, over --deals random deals")
    args = parser.parse_args(argv)
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    for p in presets:
        if p not in PRESETS:
            print(f"error: --presets: unknown preset {p!r} (expected one of "
                  f"{', '.join(PRESETS)})", file=sys.stderr)
            return 2
    try:
        players = [int(p) for p in args.players.split(",")]
    except ValueError:
        players = []
    if not players or any(p not in (2, 3, 4) for p in players):
        print(f"error: --players: {args.players!r} is not a list of 2, 3, 4", file=sys.stderr)
        return 2
    if args.deals < 1:
        print(f"error: --deals: {args.deals} is not a number of deals", file=sys.stderr)
        return 2
    seed = int(args.seed) if args.seed.isdigit() else args.seed
    if args.rates:
        for preset in presets:
            for n in players:
                rates = call_rates(preset, n, args.deals, seed)
                print(f"{preset}, {n} players: " + ", ".join(
                    f"{k} {v:.1%}" if k != "deals" else f"{v} deals" for k, v in rates.items()))
        return 0
    parts: list[dict] = []
    cells: dict[str, list[float]] = {}
    if args.add:
        try:
            with _open(args.out, "rt") as file:
                old = json.load(file)
            parts, cells = list(old["meta"]["parts"]), old["cells"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"error: --out: {args.out}: no table to add to ({error})", file=sys.stderr)
            return 2
    try:
        new = make_cells(presets, players, args.deals, seed, args.jobs)
        parts.append({"presets": presets, "players": players, "deals": args.deals,
                      "seed": seed})
        text = table_text(table_data(merge([cells, new]), parts))
        try:
            _write_whole(args.out, text)
        except OSError as error:
            print(f"error: --out: {args.out}: {error.strerror or error}", file=sys.stderr)
            return 1
    except KeyboardInterrupt:
        print("interrupted: no table written", file=sys.stderr)
        return 130
    return 0


def _open(path: str, mode: str, compressed: bool | None = None):
    """The table's file: gzip-compressed when its name ends in ``.gz`` (the shipped one: a
    cell a line, some 3 MB of text, compresses to about 0.4 MB), else plain."""
    if path.endswith(".gz") if compressed is None else compressed:
        return gzip.open(path, mode, encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def _write_whole(path: str, text: str) -> None:
    """``text`` into the table's file whole or not at all: written beside it, then put in
    its place, so that Ctrl-C or a full disk leaves the table as it was (``--add`` reads the
    table it writes)."""
    path = os.path.realpath(path)       # (a link's file is written, the link kept)
    part = f"{path}.part"
    try:
        with _open(part, "wt", compressed=path.endswith(".gz")) as out:
            out.write(text)
        with contextlib.suppress(OSError):      # (the table's own mode, where it has one)
            shutil.copymode(path, part)
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(part)
        raise


def table_text(data: dict) -> str:
    """The table's JSON, a cell a line."""
    cells = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in data["cells"].items())
    return f'{{"meta": {json.dumps(data["meta"])},\n"cells": {{\n{cells}\n}}}}\n'


if __name__ == "__main__":
    sys.exit(main())
