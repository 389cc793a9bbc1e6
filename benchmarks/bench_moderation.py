"""What moderation adds to the server's event loop: the checks on each hello (is the address or the name banned),
on each chat line (is the sender muted) and on each chat line sent (has the receiver muted the sender), with no
bans and with many; and how long ``audiocrib admin who`` takes against a running server, start to answer.

Run from the repository root::

    .venv/bin/python benchmarks/bench_moderation.py               # 10,000 bans and mutes
    .venv/bin/python benchmarks/bench_moderation.py --bans 100000 --admin 0

The store is a real one (SQLite in WAL, as the server opens it, in a new folder of the system's temporary folder);
each check is the server's own (`audiocrib.server.moderating.Moderation`), called many times in a row, its wall
time a call reported. This is not a test: nothing here fails because something is slow.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from audiocrib.server.moderating import Moderation, Online
from audiocrib.server.store import Store


class _Nobody:
    """No server: nobody connected (the checks need no connection)."""

    def online(self) -> list[Online]:
        return []

    async def remove(self, player: int, said: str) -> None:
        return None

    async def close_table(self, table: int, said: str) -> None:
        return None

    async def tell(self, player: int, said: str) -> None:
        return None


def _per_call(check: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        check()
    return (time.perf_counter() - start) / calls * 1e6


def _fill(store: Store, moderation: Moderation, count: int) -> None:
    act = moderation.records.record("Mo", "ban", "many", None, "For the benchmark.")
    until = time.time() + 3600
    with store.writing() as db:
        db.executemany("INSERT INTO bans VALUES ('name', ?, ?, NULL, ?)",
                       [(f"name{i}", f"Name{i}", act) for i in range(count)])
        addresses = [f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}" for i in range(count)]
        db.executemany("INSERT INTO bans VALUES ('address', ?, ?, ?, ?)",
                       [(address, "an address", until, act) for address in addresses])
        db.executemany("INSERT INTO chat_mutes VALUES (?, ?, ?, ?)",
                       [(f"name{i}", f"Name{i}", until, act) for i in range(count)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bans", type=int, default=10_000, help="bans of names and of addresses, and mutes")
    parser.add_argument("--calls", type=int, default=20_000, help="calls of each check")
    parser.add_argument("--admin", type=int, default=5, help="runs of audiocrib admin who against a server")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "server.sqlite3", later=True)
        moderation = Moderation(store, ["Mo"], _Nobody())
        moderation.welcome(1)
        for count in (0, args.bans):
            if count:
                _fill(store, moderation, count)
            checks: dict[str, Callable[[], object]] = {
                "hello (address and name)": lambda: moderation.hello_refusal("Bob", "127.0.0.9"),
                "chat line (muted?)": lambda: moderation.chat_refusal("Bob"),
                "chat line sent (muted by its receiver?)": lambda: moderation.hears(1, "Bob"),
            }
            for name, check in checks.items():
                print(f"{count:>7,} bans and mutes: {name}: {_per_call(check, args.calls):.1f} us a call")
        store.close()
    if args.admin:
        _admin(args.admin)


def _admin(runs: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.test_serve import Running

    program = Path(sys.executable).parent / "audiocrib"
    with tempfile.TemporaryDirectory() as folder:
        running = Running(Path(folder) / "data")
        try:
            for _ in range(runs):
                start = time.perf_counter()
                subprocess.run([str(program), "admin", "--data-dir", str(Path(folder) / "data"), "who"],
                               capture_output=True, check=True)
                print(f"audiocrib admin who, start to answer: {time.perf_counter() - start:.2f} s")
            start = time.perf_counter()
            subprocess.run([str(program), "--version"], capture_output=True, check=True)
            print(f"audiocrib --version, for the program's own start: {time.perf_counter() - start:.2f} s")
        finally:
            running.stop()


if __name__ == "__main__":
    main()
