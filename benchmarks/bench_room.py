"""The server's event-loop work for each move, in-process: a client's move decoded, `Room.move` (the engine, the
store's row and commit, the news and views) and every message it answers with encoded, over many rooms at once.

Run from the repository root::

    .venv/bin/python benchmarks/bench_room.py                       # 100 rooms, 4,000 moves
    .venv/bin/python benchmarks/bench_room.py --rooms 300 --moves 6000 --json out.json
    .venv/bin/python benchmarks/bench_room.py --profile room.prof   # the measured moves under cProfile

Each room is a real `Room` over one real `Store` (SQLite in WAL with ``synchronous=FULL``, in a new folder of the
system's temporary folder), a table of two seats: two people, or (one in five) a person and an easy computer
player, whose moves are made as soon as they are due (`Room.computer_move` and `Room.apply_computer`, timed as
their own part). A person lays away the first cards and plays the first card it may, from the last view it was
sent. The rooms move in turn, one move each, so the heap holds every room's game as a server's does; a room whose
match is over is followed by a new one. The text of each person's move is made before the clock starts.

Reported, for the measured moves (after ``--warm`` moves): the CPU of this process a move (``time.process_time``,
so the store's fsync waits are left out) and the wall time, each part's CPU (decoding the message, `Room.move`,
encoding what it answers, the computer players), the bytes sent a move, and the garbage collections of each
generation a thousand moves (what drives them is the objects each move leaves alive for a while). To compare two
versions of the code, run it twice back to back with the older source first on ``PYTHONPATH``. This is not a
test: nothing here fails because something is slow.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from audiocrib.engine.actions import Action, Discard, Go, Play, action_to_json
from audiocrib.engine.phase import Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.online.messages import Message, Move, ViewOf, decode_from_client, encode
from audiocrib.server.room import Room
from audiocrib.server.store import Store

PARTS = ("decode", "room_move", "encode", "computer")


def person_move(view: PlayerView) -> Action | None:
    """The seat's move from its view: lay away the first cards, play the first playable, go when none."""
    seat = view.seat
    if view.must_discard:
        return Discard(seat, view.hand[:view.must_discard])
    if view.phase is Phase.PLAY and view.turn == seat:
        return Play(seat, view.playable[0]) if view.playable else Go(seat)
    return None


class Bench:
    """The rooms, their people's latest views, and what each part of a move cost so far."""

    def __init__(self, store: Store, rooms: int, computer_share: float) -> None:
        self.store = store
        self.spent = dict.fromkeys(PARTS, 0.0)
        self.sent_bytes = 0
        self.views: dict[int, PlayerView] = {}
        self.made = 0
        every = round(1 / computer_share) if computer_share > 0 else 0
        self.rooms = [self.new_room(computer=every > 0 and i % every == 0) for i in range(rooms)]

    def new_room(self, computer: bool) -> tuple[Room, list[int]]:
        self.made += 1
        ids = [self.store.add_player(f"P{self.made}x{i}")[0].id for i in range(1 if computer else 2)]
        room = Room.create(self.store, ids[0], Rules(), ("person", "easy" if computer else "person"))
        for player_id in ids[1:]:
            self.deliver(room.join(player_id))
        for player_id in ids:
            self.deliver(room.connected(player_id, True))
        self.deliver(room.start(ids[0]))
        return room, ids

    def deliver(self, out: list[tuple[int, Message]] | str) -> None:
        """Encode what a room answered (timed by the caller) and keep each person's latest view."""
        assert isinstance(out, list), out
        for player_id, message in out:
            self.sent_bytes += len(encode(message))
            if isinstance(message, ViewOf):
                self.views[player_id] = message.view

    def step(self, index: int) -> int:
        """One move at room ``index`` (a new room when its match is over): the moves made, 0 or 1."""
        room, ids = self.rooms[index]
        if not room.playing:
            self.rooms[index] = self.new_room(len(ids) == 1)
            return 0
        clock = time.process_time
        if room.due_computer() is not None:
            started = clock()
            stamp, action = room.computer_move()
            out = room.apply_computer(stamp, action)
            self.spent["computer"] += clock() - started
            self.encode(out)
            return 1
        for player_id in ids:
            action = person_move(self.views[player_id])
            if action is None:
                continue
            text = json.dumps({"type": "move", "action": action_to_json(action)})
            started = clock()
            message = decode_from_client(text)
            decoded = clock()
            assert isinstance(message, Move)
            answered = room.move(player_id, message.action)
            moved = clock()
            self.spent["decode"] += decoded - started
            self.spent["room_move"] += moved - decoded
            self.encode(answered)
            return 1
        raise AssertionError("the game waits on nobody")  # pragma: no cover

    def encode(self, out: list[tuple[int, Message]] | str) -> None:
        assert isinstance(out, list), out
        started = time.process_time()
        texts = [encode(message) for _, message in out]
        self.spent["encode"] += time.process_time() - started
        self.sent_bytes += sum(map(len, texts))
        for player_id, message in out:
            if isinstance(message, ViewOf):
                self.views[player_id] = message.view


def measure(rooms: int, moves: int, warm: int, computer_share: float, profile: Path | None) -> dict[str, Any]:
    """``moves`` moves over ``rooms`` rooms after ``warm`` unmeasured ones; the figures a move."""
    with tempfile.TemporaryDirectory(prefix="bench-room-") as folder, Store(Path(folder) / "s.sqlite3") as store:
        bench = Bench(store, rooms, computer_share)
        made, index = 0, 0
        while made < warm:
            made += bench.step(index % rooms)
            index += 1
        bench.spent = dict.fromkeys(PARTS, 0.0)
        bench.sent_bytes = 0
        stats_before = [s["collections"] for s in gc.get_stats()]
        profiler = cProfile.Profile() if profile is not None else None
        cpu, wall = time.process_time(), time.perf_counter()
        if profiler is not None:
            profiler.enable()
        made = 0
        while made < moves:
            made += bench.step(index % rooms)
            index += 1
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(str(profile))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        collections = [s["collections"] - b for s, b in zip(gc.get_stats(), stats_before, strict=True)]
    return {
        "rooms": rooms, "moves": moves, "python": sys.version.split()[0],
        "cpu_ms_per_move": round(cpu / moves * 1000, 3), "wall_ms_per_move": round(wall / moves * 1000, 3),
        **{f"{part}_ms": round(bench.spent[part] / moves * 1000, 3) for part in PARTS},
        "bytes_per_move": round(bench.sent_bytes / moves),
        **{f"gc{generation}_per_1000_moves": round(count / moves * 1000, 1)
           for generation, count in enumerate(collections)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100, help="rooms playing at once (default 100)")
    parser.add_argument("--moves", type=int, default=4000, help="measured moves (default 4000)")
    parser.add_argument("--warm", type=int, default=1000, help="moves made before measuring (default 1000)")
    parser.add_argument("--repeat", type=int, default=1, help="measurements, each with new rooms (default 1)")
    parser.add_argument("--computer-share", type=float, default=0.2, help="rooms with a computer player")
    parser.add_argument("--profile", type=Path, help="run the measured moves under cProfile, to this file")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    found = []
    for _ in range(args.repeat):
        found.append(measure(args.rooms, args.moves, args.warm, args.computer_share, args.profile))
        print(json.dumps(found[-1]), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
