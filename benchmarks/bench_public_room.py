"""A public room under attack: honest tables at people's pace while silent sockets and a lobby flood run.

Run from the repository root (Linux: loopback addresses beyond 127.0.0.1, /proc)::

    .venv/bin/python benchmarks/bench_public_room.py --quick       # a smoke run: about half a minute
    .venv/bin/python benchmarks/bench_public_room.py               # 200 tables, 3,000 silent sockets, 100 public
    .venv/bin/python benchmarks/bench_public_room.py --public 1000 --json out.json

What issue 25 reproduced against the server of before, all at once, on one ``audiocrib serve``:

- **Silent sockets**: ``--silent`` (3,000) TCP connections that never send a byte, from ``--silent-addresses``
  loopback addresses (50: sixty each, the server's most per address) plus as many again from one address; each
  one the server closes is opened again at once, for the whole run.
- **A lobby flood**: ``--flooders`` (4) connections from one address, each asking ``lobby`` 19 times a second
  (just under the limit of 20 a connection) for the whole run, with ``--public`` (100) public tables listed (made
  first by throwaway names, three each).
- **Honest tables**: ``--tables`` (200) at people's pace, as benchmarks/bench_server.py's ``pace`` load plays them
  (a move every 2 seconds a table), each pair of tables from its own address. Reported as bench_server reports
  them: the time from a person's move to the other person's ``news`` (median, 99th percentile, most), and the
  server's CPU share; and what the attackers got: lobby answers, silent sockets opened and closed by the server.

The goal (issue 25): the honest tables' 99th percentile under 100 ms. This is not a test: nothing fails here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import socket
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import aiohttp
from serverbench.clients import PACE
from serverbench.process import Server
from serverbench.runs import _clients, _measure, _summary

HELLO = {"type": "hello", "token": None, "password": None, "version": 1}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--tables", type=int, default=200, help="honest tables at people's pace (200)")
    parser.add_argument("--silent", type=int, default=3000, help="silent sockets held open (3,000)")
    parser.add_argument("--silent-addresses", type=int, default=50, help="addresses they come from (50)")
    parser.add_argument("--public", type=int, default=100, help="public tables in the lobby (100)")
    parser.add_argument("--flooders", type=int, default=4, help="connections asking lobby 19 times a second (4)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.silent, args.silent_addresses, args.public, args.seconds = 10, 300, 5, 20, 6.0
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="bench-room-") as folder:
        server = Server(Path(folder) / "data")
        try:
            ours, theirs = context.Pipe()
            attacker = context.Process(target=_attacker, args=(server.port, args.silent, args.silent_addresses,
                                                                args.public, args.flooders, theirs))
            attacker.start()
            assert ours.recv() == "attacking"
            pipes = _clients(context, server.port, list(range(args.tables)), set(), "pace", 60, 2)
            cpu: dict[str, float] = {}

            def at_start() -> None:
                cpu["start"] = server.cpu_seconds()

            results = _measure(pipes, args.seconds, 4.0 + PACE, at_start)
            cpu_share = (server.cpu_seconds() - cpu["start"]) / args.seconds
            rss = server.rss_bytes()
            ours.send("stop")
            attack = ours.recv()
            attacker.join()
        finally:
            err = server.stop()
    found = _summary("pace under attack", args.tables, 0, args.seconds, results, cpu_share, rss, rss, 0.0, err)
    found.update({"silent_target": args.silent, "public_tables": args.public, **attack,
                  "server_error_lines": len(err.strip().splitlines())})
    print(json.dumps(found), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(found, indent=1) + "\n")
    return 0


def _attacker(port: int, silent: int, addresses: int, public: int, flooders: int, pipe: Connection) -> None:
    asyncio.run(_attack(port, silent, addresses, public, flooders, pipe))


async def _attack(port: int, silent: int, addresses: int, public: int, flooders: int, pipe: Connection) -> None:
    url = f"ws://127.0.0.1:{port}/play"
    await _make_public_tables(url, public)
    counts = {"silent_opened": 0, "silent_closed_by_server": 0, "lobby_answers": 0, "lobby_bytes": 0,
              "flooders_closed": 0}
    stop = asyncio.Event()
    tasks = [asyncio.create_task(_silent(port, f"127.4.{i // 250}.{i % 250 + 1}", silent // (2 * addresses), counts,
                                         stop)) for i in range(addresses)]
    tasks.append(asyncio.create_task(_silent(port, "127.5.0.1", silent // 2, counts, stop)))
    tasks += [asyncio.create_task(_flood(url, n, counts, stop)) for n in range(flooders)]
    await asyncio.sleep(2.0)
    pipe.send("attacking")
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send(counts)


async def _make_public_tables(url: str, public: int) -> None:
    """``public`` open public tables, three by each throwaway name, each name from an address of its own."""
    for n in range(-(-public // 3)):
        connector = aiohttp.TCPConnector(local_addr=(f"127.6.{n // 250}.{n % 250 + 1}", 0))
        async with aiohttp.ClientSession(connector=connector) as session, session.ws_connect(url) as socket_:
            await socket_.send_str(json.dumps({**HELLO, "name": f"Throwaway {n}"}))
            await socket_.receive()
            for _ in range(min(3, public - 3 * n)):
                await socket_.send_str(json.dumps({"type": "create_table", "rules": {"players": 2},
                                                   "seats": ["person", "person"], "public": True,
                                                   "move_limit": None}))
                await socket_.receive()


async def _silent(port: int, local: str, count: int, counts: dict[str, int], stop: asyncio.Event) -> None:
    """``count`` sockets from ``local`` that never send; each one closed is opened again."""
    held: list[socket.socket] = []
    while not stop.is_set():
        kept = []
        for raw in held:
            try:
                if raw.recv(4096) == b"":
                    raise ConnectionError
                kept.append(raw)  # a refusal's first line: the close follows
            except BlockingIOError:
                kept.append(raw)
            except OSError:
                counts["silent_closed_by_server"] += 1
                raw.close()
        held = kept
        while len(held) < count:
            raw = socket.socket()
            raw.setblocking(False)
            try:
                raw.bind((local, 0))
            except OSError:
                raw.close()
                break
            raw.connect_ex(("127.0.0.1", port))
            held.append(raw)
            counts["silent_opened"] += 1
        await asyncio.sleep(0.5)
    for raw in held:
        raw.close()


async def _flood(url: str, n: int, counts: dict[str, int], stop: asyncio.Event) -> None:
    """Ask ``lobby`` 19 times a second, from one address, until told to stop (again if closed)."""
    connector = aiohttp.TCPConnector(local_addr=("127.7.0.1", 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        while not stop.is_set():
            async with session.ws_connect(url) as socket_:
                await socket_.send_str(json.dumps({**HELLO, "name": f"Flooder {n} {time.monotonic_ns() % 10**6}"}))
                await socket_.receive()
                while not stop.is_set() and not socket_.closed:
                    await socket_.send_str('{"type": "lobby"}')
                    frame = await socket_.receive()
                    if frame.type is not aiohttp.WSMsgType.TEXT:
                        break
                    counts["lobby_answers"] += 1
                    counts["lobby_bytes"] += len(frame.data)
                    await asyncio.sleep(1 / 19)
            counts["flooders_closed"] += 1


if __name__ == "__main__":
    sys.exit(main())
