"""What putting each move on disk costs the server's event loop: many tables' moves, in-process, with the store on
a real file, committed as the server commits them (``Store(group_sync=False)``: ``synchronous=FULL``, one fsync
per move on the loop; or the default group sync: ``synchronous=NORMAL`` and one shared fsync, off the loop, that
every table's sender awaits before sending, as `Server._send` does).

Run from the repository root::

    .venv/bin/python benchmarks/bench_store_sync.py --tables 300 --moves 10

Each table is one person and an easy computer player (`Room`); every table moves at once, a move each round (the
person's by an easy computer player's choice), then waits for the disk as the server would before sending its news.
Reported per mode: the wall time per move, the event loop's time per move (the wall time less the time it waited
on the fsync thread), and the fsyncs per move.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from audiocrib.engine.rules import Rules
from audiocrib.server.computers import Computers
from audiocrib.server.room import Room
from audiocrib.server.store import Store


async def one_table(store: Store, room: Room, player: int, moves: int, made: list[int]) -> None:
    chooser = Computers()
    for _ in range(moves):
        game = room.game
        if game is None or game.over:
            return
        if room.due_computer() is not None:
            out = room.apply_computer(*room.computer_move())
        else:
            out = room.move(player, chooser.choice(game, 0, "easy")[1])
        assert isinstance(out, list)
        made[0] += 1
        await store.synced()  # as the server waits before sending the move's news
        await asyncio.sleep(0)  # the next round: every table moves once a round


def run(folder: Path, tables: int, moves: int, group: bool) -> dict[str, float]:
    with Store(folder / "server.sqlite3", group_sync=group) as store:
        ann, _ = store.add_player("Ann")
        rooms = [Room.create(store, ann.id, Rules(players=2, target=121), ["person", "easy"]) for _ in range(tables)]
        for room in rooms:
            room.start(ann.id)
        made = [0]
        fsyncs, cpu = store.fsyncs, time.process_time()
        began = time.perf_counter()

        async def go() -> None:
            await asyncio.gather(*(one_table(store, room, ann.id, moves, made) for room in rooms))
        asyncio.run(go())
        wall = time.perf_counter() - began
        return {"moves": made[0], "wall_ms_per_move": wall * 1000 / made[0],
                "cpu_ms_per_move": (time.process_time() - cpu) * 1000 / made[0],
                "fsyncs_per_move": (store.fsyncs - fsyncs) / made[0] if group else 1.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--moves", type=int, default=10, help="moves per table")
    args = parser.parse_args()
    for group in (False, True):
        with tempfile.TemporaryDirectory() as folder:
            result = run(Path(folder), args.tables, args.moves, group)
        mode = "group sync (NORMAL + shared fsync)" if group else "synchronous=FULL (fsync per move)"
        print(f"{mode}: {result['moves']} moves, {result['wall_ms_per_move']:.3f} ms wall per move,"
              f" {result['cpu_ms_per_move']:.3f} ms CPU per move, {result['fsyncs_per_move']:.3f} fsyncs per move")


if __name__ == "__main__":
    main()
