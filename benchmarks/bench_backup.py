"""What ``audiocrib backup`` costs a running server: how long it takes on a store of a given size, and what the
players notice while it runs.

Run from the repository root (the installed ``audiocrib`` of the virtualenv is started as the server)::

    .venv/bin/python benchmarks/bench_backup.py                 # a store of about 100 MB
    .venv/bin/python benchmarks/bench_backup.py --megabytes 20  # a smaller one

A store is made in a new folder of the system's temporary folder, padded with finished games (rows of the size of
real events; a backup copies pages, whatever they hold); a real server is started on it (as tests/test_serve.py's
``Running``). One person plays a table against an easy computer player (so the server writes moves all the
while) and another connection sends a ``ping`` every 60 ms (under the limit of twenty messages a second). The
round trips of the pings are measured for a few seconds before the backup, then while ``audiocrib backup`` runs,
and compared (median, 99th percentile, most).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audiocrib.server.store import Store
from tests.test_cli_hostile import PROGRAM
from tests.test_serve import Client, Running, ask, create, hello

EVENT = json.dumps({"kind": "played", "seat": 0, "card": "5H", "count": 15, "points": 2, "pad": "x" * 120})


def padded(folder: Path, megabytes: int) -> int:
    """Fill the store in ``folder`` with finished games until it is about ``megabytes``; how many games."""
    with Store(folder / "server.sqlite3"):
        pass
    games = max(1, megabytes * 2**20 // (500 * len(EVENT) + 2000))
    with sqlite3.connect(folder / "server.sqlite3") as db:
        db.execute("INSERT INTO players (name, name_key, token_hash, created) VALUES ('Pad', 'pad', x'00', 0)")
        for number in range(1, games + 1):
            db.execute("INSERT INTO tables (id, code, host, public, rules, auto_go, status, seed, created)"
                       " VALUES (?, ?, 1, 0, '{}', 1, 'over', 1, 0)", (number, f"P{number:05d}"))
            db.execute("INSERT INTO games (table_id, header) VALUES (?, '{}')", (number,))
            db.executemany("INSERT INTO events (table_id, idx, event) VALUES (?, ?, ?)",
                           ((number, index, EVENT) for index in range(500)))
    return games


def spread(rtts: list[float]) -> str:
    ms = sorted(r * 1000 for r in rtts)
    return (f"{len(ms)} pings: median {statistics.median(ms):.1f} ms, 99th percentile"
            f" {ms[int(len(ms) * 0.99) - 1]:.1f} ms, most {ms[-1]:.1f} ms")


async def measure(url: str, folder: Path, target: Path, before: float) -> tuple[list[float], list[float], float]:
    rtts: list[float] = []
    during = [0.0, 0.0]
    client = Client()
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as player, \
            session.ws_connect(url) as pinger:
        await ask(player, hello("Player"))
        await ask(pinger, hello("Pinger"))
        await ask(player, {**create(False, ("person", "easy")), "rules": {"players": 2, "target": 121}})
        await player.send_str(json.dumps({"type": "start"}))
        playing = asyncio.create_task(client.play(player))
        loop = asyncio.get_running_loop()

        async def backup() -> None:
            await asyncio.sleep(before)
            during[0] = loop.time()
            await asyncio.to_thread(subprocess.run, [str(PROGRAM), "backup", "--data-dir", str(folder),
                                                     str(target)], check=True, capture_output=True)
            during[1] = loop.time()

        taking = asyncio.create_task(backup())
        stamps: list[float] = []
        while not taking.done() or loop.time() < during[1] + 1:
            sent = loop.time()
            await ask(pinger, {"type": "ping", "number": 1})
            rtts.append(loop.time() - sent)
            stamps.append(sent)
            await asyncio.sleep(0.06)
        playing.cancel()
    baseline = [r for r, s in zip(rtts, stamps, strict=True) if s < during[0]]
    while_backing_up = [r for r, s in zip(rtts, stamps, strict=True) if during[0] <= s <= during[1]]
    return baseline, while_backing_up, during[1] - during[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=100)
    parser.add_argument("--before", type=float, default=5.0, help="seconds of pings before the backup")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "data"
        folder.mkdir()
        made = time.monotonic()
        games = padded(folder, args.megabytes)
        size = (folder / "server.sqlite3").stat().st_size
        print(f"store: {games} finished games, {size / 2**20:.0f} MB (made in {time.monotonic() - made:.0f} s)")
        server = Running(folder)
        try:
            baseline, during, took = asyncio.run(measure(server.url, folder, Path(temp) / "backup.sqlite3",
                                                         args.before))
        finally:
            server.stop()
        print(f"backup: {took:.2f} s ({size / 2**20 / took:.0f} MB/s), integrity check of the copy included")
        print(f"before: {spread(baseline)}")
        print(f"during: {spread(during)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
