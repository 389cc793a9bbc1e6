"""How long the coach's advice holds up the event loop a browser's session runs on, with the coach on the loop and
off it (`audiocrib.web.offloop`).

Run from the repository root::

    .venv/bin/python benchmarks/bench_web_advice.py              # 4 games at each table shape: about a minute
    .venv/bin/python benchmarks/bench_web_advice.py --games 10 --json out.json

The expert plays whole games against itself at two players, four in teams, six, and the five- and seven-card
games; at each of seat 0's decisions (each lay-away, each card to lay) the coach is asked for its advice and its
words made (`telling.coaching`), timed with ``time.perf_counter``: the advice's own time. The slowest positions
(the ``--worst`` of each shape) are then asked again on a running event loop, each twice: as a browser's session
asks, inside `run_shell` on a task, with the plain `Coach` (on the loop) and with `OffLoopCoach` (in the loop's
executor), while a second task wakes every millisecond and notes the longest gap between its wakings: how long
every other tab and table of the process would have waited.

Reported: median, 99th percentile and longest advice, in milliseconds, for each shape and decision, then the
longest gap on the loop with the coach on it and off it. This is not a test: nothing here fails because something
is slow. Standard library only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import time
from typing import Any

from audiocrib.bots.expert import Expert
from audiocrib.bots.player import next_action
from audiocrib.client.awaiting import run_shell
from audiocrib.coach import Coach, LayAwayAdvice
from audiocrib.engine.game import Game
from audiocrib.engine.phase import Phase
from audiocrib.engine.rules import Rules, Variant
from audiocrib.engine.views import PlayerView
from audiocrib.telling.coaching import lay_away_words, play_words
from audiocrib.telling.listener import SeatNames
from audiocrib.web.offloop import OffLoopCoach

SHAPES = {
    "two players": Rules(players=2),
    "four in teams": Rules(players=4, team_size=2),
    "six players": Rules(players=6),
    "five-card": Rules(players=2, variant=Variant.FIVE_CARD),
    "seven-card": Rules(players=2, variant=Variant.SEVEN_CARD),
}


def words(coach: Coach, view: PlayerView) -> str:
    """The advice at ``view`` in words, as the a key says it."""
    advice = coach.advise(view)
    assert advice is not None
    names = SeatNames(view.names, view.rules, view.seat)
    if isinstance(advice, LayAwayAdvice):
        return lay_away_words(advice, names, view.dealer)
    return play_words(advice, names)


def positions(rules: Rules, games: int) -> list[tuple[float, str, PlayerView]]:
    """(milliseconds, "lay-away" or "play", view) for each of seat 0's decisions over ``games`` self-play games."""
    found = []
    for seed in range(1, games + 1):
        game = Game(rules, seed=seed)
        players = [Expert(seed=seed * 8 + s) for s in range(rules.players)]
        while not game.over:
            seat = min(game.waiting_for())
            view = game.view(seat)
            if seat == 0 and (view.must_discard or (view.phase is Phase.PLAY and view.my_turn and view.playable)):
                start = time.perf_counter()  # (the coach's first look at the position: nothing of it kept yet)
                words(Coach(), view)
                found.append(((time.perf_counter() - start) * 1000, "lay-away" if view.must_discard else "play", view))
            game.apply(next_action(game, seat, players[seat]))
    return found


async def longest_gap(coach: Coach, views: list[PlayerView]) -> float:
    """Milliseconds of the longest gap between a 1 ms ticker's wakings while a session's task asks ``coach``."""
    gaps: list[float] = []
    done = False

    async def ticker() -> None:
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append((now - last) * 1000)
            last = now

    ticking = asyncio.ensure_future(ticker())
    await asyncio.sleep(0.01)
    for view in views:
        await run_shell(words, coach, view)  # (each asked of a coach with nothing kept of it: a fresh expert's)
        coach.expert = Expert()
        await asyncio.sleep(0.005)
    done = True
    await ticking
    return max(gaps)


def summary(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {"count": len(times), "median": round(statistics.median(times), 1),
            "p99": round(times[min(len(times) - 1, int(len(times) * 0.99))], 1), "worst": round(times[-1], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--worst", type=int, default=5)
    parser.add_argument("--json", help="write the figures to this file")
    options = parser.parse_args()
    report: dict[str, Any] = {"python": sys.version.split()[0], "machine": platform.machine(),
                              "cores": os.cpu_count(), "shapes": {}}
    slowest: list[PlayerView] = []
    for label, rules in SHAPES.items():
        found = positions(rules, options.games)
        figures = {kind: summary([ms for ms, k, _ in found if k == kind]) for kind in ("lay-away", "play")}
        report["shapes"][label] = figures
        print(f"{label:14} " + "  ".join(f"{kind} {f['count']} asked: median {f['median']} ms, p99 {f['p99']},"
                                          f" worst {f['worst']}" for kind, f in figures.items()), flush=True)
        slowest += [view for _, _, view in sorted(found, key=lambda x: x[0])[-options.worst:]]
    on_loop = asyncio.run(longest_gap(Coach(), slowest))
    off_loop = asyncio.run(longest_gap(OffLoopCoach(), slowest))
    report["loop"] = {"positions": len(slowest), "on_loop_ms": round(on_loop, 1), "off_loop_ms": round(off_loop, 1)}
    print(f"the event loop's longest gap over the {len(slowest)} slowest positions: {on_loop:.1f} ms with the coach"
          f" on the loop, {off_loop:.1f} ms with it off (OffLoopCoach); load average {os.getloadavg()[0]:.2f}")
    if options.json:
        with open(options.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)


if __name__ == "__main__":
    main()
