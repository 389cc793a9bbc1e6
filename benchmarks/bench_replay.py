"""How quickly a past match is read back and heard again: from its file to the replay's keys.

Run from the repository root::

    .venv/bin/python benchmarks/bench_replay.py             # three shapes of match, a minute or so
    .venv/bin/python benchmarks/bench_replay.py --seed 4

Computer players (medium) play a whole match at each shape; it is kept as a past match in a fresh folder
(`PastMatchFolder.keep`, as the shell keeps a match as it ends), then timed with ``time.perf_counter``: reading it
back (its JSON, and the game played again from its seed and checked against its log), opening the replay (the
narrator's words for every event), the slowest right arrow over the whole match, the slowest answer of the
question keys and a, the coach's review (g, every decision of the seat weighed) and the transcript.

This is not a test: nothing here fails because something is slow. Standard library and the program's own
dependencies only.
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from datetime import datetime
from pathlib import Path

from audiocrib.bots.player import drive, load_player
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.pastmatches import PastMatchFolder
from audiocrib.shell.session import Session
from audiocrib.speech import RecordingSpeaker
from audiocrib.telling.narrator import Verbosity
from audiocrib.telling.replaying import transcript

SHAPES = (
    ("2 players to 121", Rules()),
    ("2 players, match to 7", Rules(match_games=7)),
    ("6 players to 241, match to 3", Rules(players=6, target=241, match_games=3)),
)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def measure(rules: Rules, seed: int) -> list[str]:
    names = ("You", "Bob", "Carol", "Dave", "Erin", "Frank")[: rules.players]
    game = Game(rules, names, seed=seed)
    drive(game, [load_player("medium", seed=seed * 8 + s) for s in range(rules.players)])
    folder = PastMatchFolder(Path(tempfile.mkdtemp()))
    name = folder.keep(game, ("", *("medium",) * (rules.players - 1)), time.time(), "bench").name
    size = (folder.folder / name).stat().st_size
    start = time.perf_counter()
    match = folder.load(name).value
    read = time.perf_counter() - start
    assert match is not None
    session = Session(Announcer(RecordingSpeaker(), io.StringIO()))
    session.start()
    start = time.perf_counter()
    session._replay(match)
    opened = time.perf_counter() - start
    right = 0.0
    while session.replay_at < len(match.events):
        start = time.perf_counter()
        session.press("right")
        right = max(right, time.perf_counter() - start)
    question = 0.0
    for key in "cbfvsthnla":
        start = time.perf_counter()
        session.press(key)
        question = max(question, time.perf_counter() - start)
    start = time.perf_counter()
    session.press("g")
    review = time.perf_counter() - start
    start = time.perf_counter()
    text = transcript(match, Verbosity.NORMAL, datetime.now())
    written = time.perf_counter() - start
    return [f"{len(match.events):,}", f"{size / 1000:,.0f}", ms(read), ms(opened), ms(right), ms(question),
            ms(review), ms(written), f"{len(text) / 1000:,.0f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=9)
    seed = parser.parse_args().seed
    print("| match | events | file kB | read ms | open ms | right arrow ms | questions ms | g ms | transcript ms "
          "| transcript kB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, rules in SHAPES:
        print(f"| {label} | " + " | ".join(measure(rules, seed)) + " |")


if __name__ == "__main__":
    main()
