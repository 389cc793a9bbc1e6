"""What watchers cost the server for each move, in-process: `Room.move` (the engine, the store's row and commit,
the news and views for every listener) and every message it answers with encoded as JSON, at a table of two people
with no watchers, ten, and the most a table takes (`MAX_WATCHERS`, fifty).

Run from the repository root::

    .venv/bin/python benchmarks/bench_watch.py                 # 3 matches at each count of watchers
    .venv/bin/python benchmarks/bench_watch.py --matches 10

A real `Room` over a real `Store` (SQLite in WAL, in a new folder of the system's temporary folder); the two people
lay away their first cards and play the first card they may, from the last view each was sent; the watchers are
listeners of the room, as the server's watching desk adds them. Reported: the CPU of this process a move
(``time.process_time``: the store's fsync waits left out) for the room's move and for encoding what it answers
(each message once, as `Server._send` does, and each copy, as it did before), and the bytes sent a move. To compare
with the room before it made the watchers' messages once, run it with that commit's source first on ``PYTHONPATH``.
This is not a test: nothing here fails because something is slow.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from audiocrib.engine.actions import Action, Discard, Go, Play
from audiocrib.engine.phase import Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.online.messages import ViewOf, encode
from audiocrib.online.watching import MAX_WATCHERS
from audiocrib.server.room import Outgoing, Room
from audiocrib.server.store import Store


def person_move(view: PlayerView) -> Action | None:
    seat = view.seat
    if view.must_discard:
        return Discard(seat, view.hand[:view.must_discard])
    if view.phase is Phase.PLAY and view.turn == seat:
        return Play(seat, view.playable[0]) if view.playable else Go(seat)
    return None


def match(store: Store, number: int, watchers: int) -> tuple[int, float, float, float, int]:
    """One match with ``watchers`` watching: (moves, CPU in the room, CPU encoding each message once as the server
    does, CPU encoding each copy as the server did before it shared them, bytes)."""
    ann, _ = store.add_player(f"Ann{number}")
    bob, _ = store.add_player(f"Bob{number}")
    room = Room.create(store, ann.id, Rules(target=121), ("person", "person"))
    room.join(bob.id)
    views: dict[int, PlayerView] = {}

    def deliver(out: Outgoing | str) -> None:
        assert isinstance(out, list)
        for person, message in out:
            if isinstance(message, ViewOf) and person in (ann.id, bob.id):
                views[person] = message.view

    deliver(room.start(ann.id))
    for n in range(watchers):
        watcher, _ = store.add_player(f"W{number}x{n}")
        room.watch.add(watcher.id, watcher.name)
    moves, in_room, encoding, copies, sent = 0, 0.0, 0.0, 0.0, 0
    while room.game is not None and not room.game.over:
        person = next(p for p in (ann.id, bob.id) if person_move(views[p]) is not None)
        action = person_move(views[person])
        assert action is not None
        start = time.process_time()
        out = room.move(person, action)
        middle = time.process_time()
        texts: dict[int, str] = {}  # as the server writes them: a message sent to many, once
        for _, message in out if isinstance(out, list) else []:
            if id(message) not in texts:
                texts[id(message)] = encode(message)
            sent += len(texts[id(message)])
        encoding += time.process_time() - middle
        in_room += middle - start
        middle = time.process_time()
        for _, message in out if isinstance(out, list) else []:
            encode(message)
        copies += time.process_time() - middle
        deliver(out)
        moves += 1
    return moves, in_room, encoding, copies, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, Store(str(Path(folder) / "bench.sqlite3")) as store:
        number = 0
        for watchers in (0, 10, MAX_WATCHERS):
            totals = [0, 0.0, 0.0, 0.0, 0]
            for _ in range(args.matches):
                number += 1
                for i, value in enumerate(match(store, number, watchers)):
                    totals[i] += value
            moves, in_room, encoding, copies, sent = totals
            print(f"{watchers:3d} watchers: {moves:4d} moves; a move: room {1e6 * in_room / moves:5.0f} us,"
                  f" encoding {1e6 * encoding / moves:5.0f} us (each copy: {1e6 * copies / moves:5.0f} us),"
                  f" {sent / moves / 1024:5.1f} KB sent")


if __name__ == "__main__":
    main()
