"""How quickly the coach answers the advice key: from asking to the words, at the lay-away and in the play.

Run from the repository root::

    .venv/bin/python benchmarks/bench_coach.py                 # every table shape, 3 games each, a few minutes
    .venv/bin/python benchmarks/bench_coach.py --games 1       # a quick look
    .venv/bin/python benchmarks/bench_coach.py --json coach.json

Experts (their usual settings: 16 worlds, the same the coach uses) play whole games at every table shape of
rules.md (`tests/helpers.py`'s list, each at its usual target). At every decision of every seat, before the seat's
move, the coach is asked for that seat's advice as the a key asks it: `Coach.advise` on the seat's own view (which
reseeds the coach's expert and weighs every choice) and then `lay_away_words` or `play_words`, timed together with
``time.perf_counter``. The first answer of the process is timed apart (it loads the crib tables). The report
gives, per table and over all, the median, the 99th percentile and the worst, for the lay-away and for plays with
a choice of two ranks or more (a play with one rank is said without a search, in well under a millisecond, and is
counted apart). On a shared machine a worst can be another program's time slice: the five slowest positions of
each table are asked again three times, and the best of those is reported beside the worst ("worst again"). The
goal is every answer within 200 ms.

``--key`` measures the same through the real program: the prompt_toolkit application reads keys from a pipe (as
from a terminal), two-player games against the expert run at full pace, and at each of your decisions the a key
is written into the pipe and timed until the advice reaches the speaker (as `bench_shell.py` times the other
keys); then a card is laid away or laid with the number keys and Enter.

This is not a test: nothing here fails because something is slow. Standard library and the program's own
dependencies only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

from audiocrib.bots.expert import Expert
from audiocrib.bots.player import next_action
from audiocrib.coach import Coach, LayAwayAdvice
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules, Variant
from audiocrib.engine.views import PlayerView
from audiocrib.telling.coaching import lay_away_words, play_words
from audiocrib.telling.listener import SeatNames

TABLES: tuple[tuple[str, Rules], ...] = (
    ("2 players", Rules()),
    ("3 players", Rules(players=3)),
    ("4 players", Rules(players=4)),
    ("4 players, 2 teams", Rules(players=4, team_size=2)),
    ("5 players", Rules(players=5)),
    ("6 players", Rules(players=6)),
    ("6 players, 3 teams", Rules(players=6, team_size=2)),
    ("6 players, 2 teams", Rules(players=6, team_size=3)),
    ("five-card, 2 players", Rules(variant=Variant.FIVE_CARD)),
    ("five-card, 2 teams", Rules(players=4, team_size=2, variant=Variant.FIVE_CARD)),
    ("seven-card, 2 players", Rules(variant=Variant.SEVEN_CARD)),
    ("seven-card, 2 teams", Rules(players=4, team_size=2, variant=Variant.SEVEN_CARD)),
)
"""Every table shape of rules.md's variants table, as `tests.helpers.TABLES` has them."""

NAMES = ("Ann", "Bob", "Carol", "Dave", "Eve", "Fay")


def ask(coach: Coach, view: PlayerView) -> tuple[str, float]:
    """The kind of decision and the milliseconds from asking the coach to its words."""
    start = time.perf_counter()
    advice = coach.advise(view)
    assert advice is not None
    names = SeatNames(view.names, view.rules, view.seat)
    if isinstance(advice, LayAwayAdvice):
        lay_away_words(advice, names, view.dealer)
        kind = "lay-away"
    else:
        play_words(advice, names)
        kind = "play" if len({c.rank for c in view.playable}) > 1 else "one rank"
    return kind, 1000 * (time.perf_counter() - start)


def advice_times(rules: Rules, games: int) -> tuple[dict[str, list[float]], float]:
    """Milliseconds from asking to the words, at every decision of every seat over ``games`` expert games, and
    the slowest of them asked again (the best of three)."""
    times: dict[str, list[float]] = {"lay-away": [], "play": [], "one rank": []}
    slowest: list[tuple[float, PlayerView]] = []
    coach = Coach()
    for seed in range(1, games + 1):
        game = Game(rules, names=NAMES[:rules.players], seed=seed)
        players = [Expert(seed=seed * 8 + s) for s in range(rules.players)]
        while not game.over:
            seat = min(game.waiting_for())
            view = game.view(seat)
            if view.must_discard or (view.my_turn and view.playable):
                kind, elapsed = ask(coach, view)
                times[kind].append(elapsed)
                slowest = sorted([*slowest, (elapsed, view)], key=lambda item: -item[0])[:5]
            game.apply(next_action(game, seat, players[seat]))
    again = max(min(ask(coach, view)[1] for _ in range(3)) for _, view in slowest)
    return times, again


def first_answer() -> float:
    """Milliseconds for the first advice a fresh process gives (the crib tables and caches are loaded then)."""
    view = Game(Rules(), names=NAMES[:2], seed=1).view(0)
    start = time.perf_counter()
    advice = Coach().advise(view)
    assert isinstance(advice, LayAwayAdvice)
    lay_away_words(advice, SeatNames(view.names, view.rules, 0), view.dealer)
    return 1000 * (time.perf_counter() - start)


def key_to_advice(decisions: int) -> dict[str, list[float]]:
    """Milliseconds from the a key written into the application's input to the advice's speech call, at the
    first ``decisions`` decisions of two-player games against the expert (a new game after each)."""
    import asyncio
    import io

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from audiocrib.shell.announcer import Announcer
    from audiocrib.shell.app import run_session
    from audiocrib.shell.session import Session
    from audiocrib.shell.settings import Settings
    from audiocrib.shell.tablesetup import TableSetup

    class Stamping:
        """Notes when it was last asked to speak, and what."""

        name = "stamping"

        def __init__(self) -> None:
            self.calls = 0
            self.at = 0.0
            self.text = ""

        def speak(self, text: str, interrupt: bool = False) -> None:
            self.calls += 1
            self.at = time.perf_counter()
            self.text = text

        def silence(self) -> None:
            pass

        def close(self) -> None:
            pass

    speaker = Stamping()
    session = Session(Announcer(speaker, io.StringIO()), settings=Settings(pace=0.0, typed_ahead=0.0),
                      setup=TableSetup(levels=("expert",)), seed=27)
    times: dict[str, list[float]] = {"lay-away": [], "play": []}

    async def main() -> None:
        with create_pipe_input() as pipe:
            task = asyncio.ensure_future(run_session(session, input=pipe, output=DummyOutput()))
            while not speaker.calls:
                await asyncio.sleep(0.001)
            pipe.send_text("\r")  # New game
            while sum(len(v) for v in times.values()) < decisions:
                moment = session.moment
                if moment not in ("discard", "play"):
                    if moment == "over":  # Enter to the main menu, and Enter again for a new game
                        pipe.send_text("\r")
                        while session.moment == "over":
                            await asyncio.sleep(0.001)
                        await asyncio.sleep(0.05)
                        pipe.send_text("\r")
                        await asyncio.sleep(0.05)
                    elif moment == "review":
                        pipe.send_text("\r")
                    await asyncio.sleep(0.001)
                    continue
                view = session.view()
                calls = speaker.calls
                start = time.perf_counter()
                pipe.send_text("a")
                while speaker.calls == calls or not speaker.text.startswith(("Keep", "You", "The")):
                    await asyncio.sleep(0)
                times["lay-away" if moment == "discard" else "play"].append((speaker.at - start) * 1000)
                seen = len(view.events)
                if moment == "discard":
                    pipe.send_text("1")
                    pipe.send_text("2")
                else:
                    pipe.send_text(str(view.hand.index(view.playable[0]) + 1))
                pipe.send_text("\r")
                while session.moment == moment and len(session.view().events) == seen:
                    await asyncio.sleep(0.001)
            session.finished = True
            await task

    asyncio.run(main())
    return times


def summary(values: list[float]) -> dict[str, float]:
    """Count, median, 99th percentile and worst, in milliseconds."""
    ordered = sorted(values)
    if not ordered:
        return {"decisions": 0, "median_ms": 0.0, "p99_ms": 0.0, "worst_ms": 0.0}
    return {
        "decisions": len(ordered),
        "median_ms": ordered[(len(ordered) - 1) // 2],
        "p99_ms": ordered[int(0.99 * (len(ordered) - 1))],
        "worst_ms": ordered[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games at each table (default 3)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--key", type=int, default=0, metavar="N",
                        help="also time the a key through the real program at N decisions")
    args = parser.parse_args()
    figures: dict[str, Any] = {
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "tables": {},
    }
    print(f"Python {figures['python']}, {figures['cores']} cores, load {figures['load']}")
    figures["first_ms"] = first_answer()
    print(f"the first answer in this process (tables loaded on first use): {figures['first_ms']:.1f} ms")
    every: dict[str, list[float]] = {"lay-away": [], "play": [], "one rank": []}
    print(f"{'table':24} {'decision':9} {'count':>6} {'median':>9} {'p99':>9} {'worst':>9}")
    for label, rules in TABLES:
        print(f"timing the coach at {label} ({args.games} games)...", file=sys.stderr, flush=True)
        times, again = advice_times(rules, args.games)
        figures["tables"][label] = {kind: summary(values) for kind, values in times.items()}
        figures["tables"][label]["worst_again_ms"] = again
        for kind, values in times.items():
            every[kind] += values
            row = figures["tables"][label][kind]
            print(f"{label:24} {kind:9} {row['decisions']:6.0f} {row['median_ms']:7.1f}ms {row['p99_ms']:7.1f}ms "
                  f"{row['worst_ms']:7.1f}ms", flush=True)
        print(f"{label:24} the five slowest asked again, the slowest of them: {again:.1f}ms", flush=True)
    figures["all"] = {kind: summary(values) for kind, values in every.items()}
    for kind, row in figures["all"].items():
        print(f"{'every table':24} {kind:9} {row['decisions']:6.0f} {row['median_ms']:7.1f}ms {row['p99_ms']:7.1f}ms "
              f"{row['worst_ms']:7.1f}ms")
    if args.key:
        print(f"timing the a key through the program ({args.key} decisions)...", file=sys.stderr, flush=True)
        keyed = key_to_advice(args.key)
        figures["key"] = {kind: summary(values) for kind, values in keyed.items()}
        for kind, row in figures["key"].items():
            print(f"{'the a key, 2 players':24} {kind:9} {row['decisions']:6.0f} {row['median_ms']:7.1f}ms "
                  f"{row['p99_ms']:7.1f}ms {row['worst_ms']:7.1f}ms")
    figures["load_after"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"load after {figures['load_after']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
