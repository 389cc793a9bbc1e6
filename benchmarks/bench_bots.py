"""How strong and how quick the computer players are.

Run from the repository root::

    .venv/bin/python benchmarks/bench_bots.py --times              # expert decision times, a minute or two
    .venv/bin/python benchmarks/bench_bots.py --strength           # the arena comparisons, about an hour on 2 cores
    .venv/bin/python benchmarks/bench_bots.py --strength --games 0.1   # a tenth of the games, for a quick look
    .venv/bin/python benchmarks/bench_bots.py --times --strength --json figures.json

``--times``: the expert plays whole games against itself at a two-player and a six-player table, and at two
players of the seven-card game (the largest hands); every one of
its decisions (each discard, each card laid when it had a choice of two ranks or more) is timed with
``time.perf_counter`` around the call, and the report gives the median, the 90th percentile and the worst.
Decisions with a single legal rank are answered without a search and are left out, so the figures are of real
choices.

``--strength``: `audiocrib.bots.arena.run_arena` on every core for each comparison the issue asks for (each level
against the one below it over 10,000 two-player games to 121, expert against beginner, and expert against
itself for the first dealer's edge and the points per deal), printed as each arena's own report.

This is not a test: nothing here fails because something is slow. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from typing import Any

from audiocrib.bots.arena import progress_line, run_arena
from audiocrib.bots.expert import Expert
from audiocrib.engine.actions import Discard, Go, Play
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.rules import Rules, Variant

COMPARISONS: tuple[tuple[tuple[str, ...], int], ...] = (
    (("easy", "beginner"), 10_000),
    (("medium", "easy"), 10_000),
    (("expert", "medium"), 10_000),
    (("expert", "beginner"), 2_000),
    (("expert", "audiocrib.bots.expert:Expert"), 4_000),
)
"""(players, games): expert against itself is named twice, the second by module path, so the arena tells them
apart."""


def decision_times(rules: Rules, games: int) -> dict[str, list[float]]:
    """Milliseconds for each expert discard and each play with a real choice, over ``games`` self-play games."""
    times: dict[str, list[float]] = {"discard": [], "play": []}
    for seed in range(1, games + 1):
        game = Game(rules, seed=seed)
        players = [Expert(seed=seed * 8 + s) for s in range(rules.players)]
        while not game.over:
            seat = min(game.waiting_for())
            view = game.view(seat)
            if game.phase is Phase.DISCARD:
                start = time.perf_counter()
                cards = players[seat].discard(view)
                times["discard"].append(1000 * (time.perf_counter() - start))
                game.apply(Discard(seat, cards))
            elif game.phase is Phase.PLAY:
                if not view.playable:
                    game.apply(Go(seat))
                    continue
                start = time.perf_counter()
                card = players[seat].play(view)
                elapsed = 1000 * (time.perf_counter() - start)
                if len({c.rank for c in view.playable}) > 1:
                    times["play"].append(elapsed)
                game.apply(Play(seat, card))
            else:
                raise AssertionError(f"nothing to ask in {game.phase}")
    return times


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "decisions": len(values),
        "median_ms": statistics.median(ordered),
        "p90_ms": ordered[int(0.9 * (len(ordered) - 1))],
        "worst_ms": ordered[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--times", action="store_true", help="time the expert's decisions")
    parser.add_argument("--strength", action="store_true", help="run the arena comparisons")
    parser.add_argument("--games", type=float, default=1.0, help="share of the arena games to play (default 1)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if not (args.times or args.strength):
        parser.error("say --times, --strength or both")
    figures: dict[str, Any] = {
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }
    print(f"Python {figures['python']}, {figures['cores']} cores, load {figures['load']}")
    if args.times:
        figures["times"] = {}
        tables = (
            ("2 players", Rules(), 6),
            ("6 players", Rules(players=6), 3),
            ("2 players, seven-card", Rules(variant=Variant.SEVEN_CARD), 3),
        )
        for label, rules, games in tables:
            print(f"timing the expert at {label} ({games} games)...", file=sys.stderr, flush=True)
            times = decision_times(rules, games)
            figures["times"][label] = {kind: _summary(values) for kind, values in times.items()}
            for kind, summary in figures["times"][label].items():
                print(
                    f"expert {kind}, {label}: median {summary['median_ms']:.1f} ms, 90th percentile "
                    f"{summary['p90_ms']:.1f} ms, worst {summary['worst_ms']:.1f} ms over {summary['decisions']} "
                    "decisions"
                )
    if args.strength:
        figures["arena"] = []
        for names, games in COMPARISONS:
            count = max(2, int(games * args.games))
            start = time.perf_counter()
            result = run_arena(names, count, Rules(), seed=2026, progress=progress_line)
            elapsed = time.perf_counter() - start
            print(result.report())
            print(f"({elapsed:.0f} s)\n", flush=True)
            figures["arena"].append(result.to_json() | {"seconds": elapsed})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
