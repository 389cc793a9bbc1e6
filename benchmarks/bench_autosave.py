"""How long keeping the game takes: the autosave written after every move, and the resume that reads it.

Run from the repository root::

    .venv/bin/python benchmarks/bench_autosave.py
    .venv/bin/python benchmarks/bench_autosave.py --json figures.json

A long game is made first: a match to three game points at six-card cribbage between two medium computer players
(seated in a real `Session`, seat 0 played by the steady player of `tests.autoplay`), stopped near its end, with a
full message history of 1,000 lines. Then, in a temporary folder on the same disk as the system's temporary
files:

- ``autosave``: `Session._autosave`, the whole write (JSON, write to ``.partial``, fsync, rename), 200 times;
- ``resume``: reading and checking the save (`files.load` with `SavedTable.from_json`, which replays and verifies
  the whole log), 20 times;
- ``key``: for scale, answering a question key in the same session (``s``), 200 times.

Median and 95th percentile in milliseconds, and the save's size. The autosave comes after the move's words have
gone to the speech, so it never delays what the player hears; the goal is that it stays well under the 1.5 s pause
between computer moves, and under 50 ms so that a key pressed right after a move is not held up.

This is not a test: nothing here fails because something is slow.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audiocrib.bots.player import drive, load_player
from audiocrib.shell import files
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.savedgame import SAVE_VERSION, SavedTable
from audiocrib.shell.session import Session
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.speech import RecordingSpeaker


def figures(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    return {"median_ms": round(statistics.median(ms), 2), "p95_ms": round(ms[int(len(ms) * 0.95) - 1], 2)}


def long_session(folder: Path) -> Session:
    """A session holding a long match near its end, with a full history."""
    from audiocrib.engine.game import Game

    setup = TableSetup(match_games=3, levels=("medium",))
    whole = drive(Game(setup.rules(), setup.names(), seed=5), [load_player("medium", seed=1),
                                                              load_player("medium", seed=2)])
    near_end = whole.at(len(whole.events) - 30)
    session = Session(Announcer(RecordingSpeaker(), io.StringIO()), setup=setup, save_path=folder / "saved.json")
    session.start()
    for n in range(1000):
        session.announcer.history.add(f"Message {n}: Bob plays the seven of clubs for twenty-two.")
    table = SavedTable(near_end, setup.levels, len(near_end.events) - 40, frozenset(), -1, "bench", ())
    session._begin(table)
    return session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        session = long_session(folder)
        assert session.table is not None
        saves = []
        for _ in range(200):
            start = time.perf_counter()
            session._autosave()
            saves.append(time.perf_counter() - start)
        path = folder / "saved.json"
        size = path.stat().st_size
        resumes = []
        for _ in range(20):
            start = time.perf_counter()
            loaded = files.load(path, "saved game", SAVE_VERSION, SavedTable.from_json, "")
            resumes.append(time.perf_counter() - start)
            assert loaded.value is not None
        keys = []
        for _ in range(200):
            start = time.perf_counter()
            session.press("s")
            keys.append(time.perf_counter() - start)
        result = {"events": len(session.table.game.events), "save_bytes": size, "autosave": figures(saves),
                  "resume": figures(resumes), "key": figures(keys)}
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
