"""How much one ``audiocrib serve`` process carries: tables at people's pace, and moves at full speed.

Run from the repository root (the installed ``audiocrib`` of the virtualenv is started as the server)::

    .venv/bin/python benchmarks/bench_server.py --quick          # a smoke run: about 25 seconds
    .venv/bin/python benchmarks/bench_server.py                  # the full run: about 20 minutes
    .venv/bin/python benchmarks/bench_server.py --load encoding  # each move's messages, in-process, no server
    .venv/bin/python benchmarks/bench_server.py --load pace --tables 1000 --seconds 60 --json out.json
    .venv/bin/python benchmarks/bench_server.py --load full --profile server.prof   # the server under cProfile

A real server is started for each run, as tests/test_serve.py's ``Running`` starts it (``audiocrib serve --port 0
--data-dir DIR``, the port read from its first line), on a new data folder in the system's temporary folder. The
players are scripted WebSocket clients (aiohttp's) in processes of their own (``--clients``, 2 by default), over
loopback. Each table has two seats: two people, or (one table in five, ``--computer-share``) one person and an easy
computer player, which the server plays at its own pace (``Limits.computer_pace``, half a second; ``serve`` has no
option to change it). A person lays away the first cards of the hand and plays the first card it may (as
tests/test_serve.py's ``my_move``).

The server's limits per address (``Limits``: 20 connections, 5 new connections a second, 100 messages a second)
have no option in ``serve``, so the clients stay within them: each pair of tables connects from its own loopback
address (127.1.x.y; all of 127.0.0.0/8 is loopback on Linux), and at full speed each connection keeps under its
own limit of 20 messages a second with a bucket of its own (the result says how often a client had to wait on it).

- ``pace``: each game is first played flat out to a point of its own (up to ``--advance`` moves, at random), so
  the tables are spread over a match; then each table makes a move every 2 seconds (a person moves 2 s after the
  table's previous move; a computer player 0.5 s after it, so a table with one moves a little faster).
  Reported: the time from a person's move being sent to the other person at the table receiving its ``news``
  (median, 99th percentile, most), the server's CPU share over the measured window (from /proc/PID/stat: 1.0 is
  one core), and its memory per table (resident size after the tables are made and playing, less the size after
  a warm-up table, over the tables).
- ``full``: every person moves as soon as the server's view says it may; tables whose match is over start a new
  one. Reported: moves a second over the measured window, the same latency, and the bytes the server sends for
  each move (``news`` and ``view`` to each seat).
- ``encoding``: no server; the server's work for each move of whole matches (`encoding_costs`), timed part by
  part in this process.

Timings are taken in the client processes with ``time.monotonic`` (the sender's send and the receiver's arrival of
the frame are in the same process: both people of a table are in one client process), so they include the clients'
own event-loop delays. Linux only (loopback addresses, /proc). This is not a test: nothing here fails because
something is slow.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp

PROGRAM = Path(sys.executable).parent / "audiocrib"
WATCH_GC = '''
import gc, sys, time
from audiocrib.cli import main
began = [0.0]
def watch(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    elif time.perf_counter() - began[0] >= 0.01:
        print(f"gc {info['generation']} {time.perf_counter() - began[0]:.4f} {info['collected']}", file=sys.stderr,
              flush=True)
gc.callbacks.append(watch)
if sys.argv[1] == "--threshold":  # the collector's thresholds to try, before anything is made
    gc.set_threshold(*map(int, sys.argv[2].split(",")))
    del sys.argv[1:3]
sys.exit(main(sys.argv[1:]))
'''
"""The same server program with each garbage collection of 10 ms or more written to its stderr (``--gc``), and
the collector's thresholds set first when asked (``--gc-threshold``)."""
PACE = 2.0
"""Seconds between a table's moves at people's pace."""
SEND_RATE, SEND_BURST = 18.0, 30
"""A client's own bucket at full speed, under the server's 20 messages a second (burst 40) per connection."""
MOVES = ("discarded", "played", "said go")
"""The events of a person's move in this benchmark (each with its ``seat``)."""
TABLES_PER_ADDRESS = 2
"""Four connections an address: at full speed at most 80 messages a second, under the server's 100."""


# --------------------------------------------------------------------------------------------- the server process
class Server:
    """A running ``audiocrib serve`` on a free loopback port (optionally under cProfile)."""

    def __init__(self, folder: Path, profile: Path | None = None, watch_gc: bool = False,
                 threshold: str | None = None) -> None:
        command = [str(PROGRAM), "serve", "--port", "0", "--data-dir", str(folder)]
        if profile is not None:
            command = [sys.executable, "-m", "cProfile", "-o", str(profile), *command]
        elif watch_gc or threshold:
            command = [sys.executable, "-c", WATCH_GC, *(["--threshold", threshold] if threshold else []),
                       *command[1:]]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        if not first.startswith("audiocrib server listening on 127.0.0.1, port "):
            said = self.process.stderr.read() if self.process.stderr else ""
            raise SystemExit(f"The server did not start: {first!r} {said}")
        self.port = int(first.rsplit(" ", 1)[1].rstrip(".\n"))
        while not self.process.stdout.readline().startswith("Stop the server"):
            pass
        print(f"server started: process {self.process.pid}, port {self.port}", file=sys.stderr, flush=True)

    def cpu_seconds(self, loop_only: bool = False) -> float:
        """User and system time the server has used so far (``loop_only``: its main thread's, which runs the
        event loop, without its fsync, checkpoint and computer players' threads)."""
        where = f"/proc/{self.process.pid}/task/{self.process.pid}/stat" if loop_only else \
            f"/proc/{self.process.pid}/stat"
        fields = Path(where).read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_bytes(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def stop(self) -> str:
        self.process.terminate()
        _, err = self.process.communicate(timeout=120)
        return err


# --------------------------------------------------------------------------------------------- the clients
def person_move(view: dict[str, Any]) -> dict[str, Any] | None:
    """The seat's move from its view (as JSON): lay away the first cards, play the first playable, go when none."""
    seat = view["seat"]
    if view["phase"] == "discard" and not view["laid_away"][seat]:
        return {"kind": "discard", "seat": seat, "cards": view["hand"][:len(view["hand"]) - 4]}
    if view["phase"] == "play" and view["turn"] == seat:
        if view["playable"]:
            return {"kind": "play", "seat": seat, "card": view["playable"][0]}
        return {"kind": "go", "seat": seat}
    return None


class Bucket:
    """The client's own token bucket, so that it never meets the server's limit per connection."""

    def __init__(self) -> None:
        self.tokens, self.last, self.waits = float(SEND_BURST), time.monotonic(), 0

    async def take(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(float(SEND_BURST), self.tokens + (now - self.last) * SEND_RATE)
            self.last = now
            if self.tokens >= 1.0:
                self.tokens -= 1.0
                return
            self.waits += 1
            await asyncio.sleep((1.0 - self.tokens) / SEND_RATE)


@dataclass
class Figures:
    """What one client process measured."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    computer_moves: int = 0
    refusals: list[str] = field(default_factory=list)
    closes: list[str] = field(default_factory=list)
    news_bytes: int = 0
    news_count: int = 0
    view_bytes: int = 0
    view_count: int = 0
    view_most: int = 0
    bucket_waits: int = 0
    matches: int = 0
    cpu_seconds: float = 0.0


class Seat:
    """One person's connection: the latest view (kept as text, read when a move is wanted) and what came."""

    def __init__(self, table: Table, number: int, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.table, self.number, self.socket = table, number, socket
        self.view_text: str | None = None
        self.view: dict[str, Any] | None = None
        self.moved_at = -1  # the log's length when this seat last moved
        self.logged = 0  # the log's length as the news has told it
        self.awaiting = False  # a move sent, its news not yet come
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.bucket = Bucket()

    def expect(self, kind: str) -> asyncio.Future[dict[str, Any]]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[kind] = future
        return future

    async def read(self, figures: Figures) -> None:
        async for frame in self.socket:
            if frame.type is not aiohttp.WSMsgType.TEXT:
                break
            now = time.monotonic()
            text: str = frame.data
            measuring = self.table.measuring
            if text.startswith('{"type": "news"'):
                if measuring:
                    figures.news_bytes += len(text)
                    figures.news_count += 1
                data = json.loads(text)
                self.logged = max(self.logged, data["since"] + len(data["events"]))
                self.news(data["events"], now, measuring, figures)
            elif text.startswith('{"type": "view"'):
                if measuring:
                    figures.view_bytes += len(text)
                    figures.view_count += 1
                    figures.view_most = max(figures.view_most, len(text))
                if not self.awaiting:  # a view sent before this seat's own move arrived is out of date
                    self.view_text, self.view = text, None
                    self.table.changed.set()
            else:
                message = json.loads(text)
                if message["type"] == "refused":
                    figures.refusals.append(message["sentence"])
                    self.awaiting = False
                    self.table.changed.set()
                future = self.waiting.pop(message["type"], None)
                if future is not None and not future.done():
                    future.set_result(message)
        if self.table.measuring:
            figures.closes.append(f"closed with code {self.socket.close_code}")
        self.table.changed.set()

    def news(self, events: list[dict[str, Any]], now: float, measuring: bool, figures: Figures) -> None:
        """The moves in a ``news`` message: this seat's own (its next view is up to date), the other person's
        (how long it took to come), the computer player's."""
        table = self.table
        for event in events:
            kind = event["kind"]
            if kind == "match won" and self.number == 0:  # the host's news: the guest's may come after a new match
                table.over = True
            if kind not in MOVES:
                continue
            mover = event["seat"]
            if mover == self.number:
                self.awaiting = False
                self.view_text = self.view = None
            elif mover in table.pending:
                sent = table.pending.pop(mover)  # popped even before the window, so none is left to go stale
                if measuring:
                    figures.latencies.append(now - sent)
            elif table.computer:
                figures.computer_moves += measuring
                table.last_move = now

    def move(self) -> tuple[int, dict[str, Any]] | None:
        """This seat's move now (with the log's length it follows), or None."""
        if self.view_text is None or self.awaiting:
            return None
        if self.view is None:
            self.view = json.loads(self.view_text)["view"]
        length = max(len(self.view["events"]), self.logged)  # a view after a move leaves the log to the news
        if length == self.moved_at:
            return None
        action = person_move(self.view)
        return None if action is None else (length, action)

    async def send_move(self, length: int, action: dict[str, Any], figures: Figures) -> None:
        self.moved_at, self.awaiting = length, True
        self.table.last_move = now = time.monotonic()
        if not self.table.computer:
            self.table.pending[self.number] = now
        await self.socket.send_str(json.dumps({"type": "move", "action": action}))
        figures.moves += 1


class Table:
    """A table of the benchmark: its people's seats, and when each of its moves was sent (by the log's length)."""

    def __init__(self, number: int, computer: bool) -> None:
        self.number, self.computer = number, computer
        self.seats: list[Seat] = []
        self.pending: dict[int, float] = {}  # a person's move not yet heard by the other: when it was sent
        self.changed = asyncio.Event()
        self.measuring = False
        self.over = False
        self.last_move = 0.0

    async def begin(self) -> None:
        """A new private table of two seats, the guest seated by its code, the game started."""
        self.pending.clear()
        self.over = False
        for seat in self.seats:
            seat.view_text, seat.view, seat.moved_at, seat.awaiting, seat.logged = None, None, -1, False, 0
        host = self.seats[0]
        made = host.expect("table")
        kinds = ["person", "easy" if self.computer else "person"]
        await host.socket.send_str(json.dumps({"type": "create_table", "rules": {"players": 2}, "seats": kinds,
                                               "public": False, "move_limit": None}))
        table = await asyncio.wait_for(made, 60)
        if not self.computer:
            guest = self.seats[1]
            seated = guest.expect("table")
            await guest.socket.send_str(json.dumps({"type": "join", "table": table["code"]}))
            await asyncio.wait_for(seated, 60)
        await host.socket.send_str(json.dumps({"type": "start"}))

    def due(self) -> tuple[Seat, int, dict[str, Any]] | None:
        for seat in self.seats:
            found = seat.move()
            if found is not None:
                return seat, *found
        return None

    async def news_or(self, stop_at: float) -> None:
        """Wait until something changes at the table, or ``stop_at``."""
        self.changed.clear()
        try:
            await asyncio.wait_for(self.changed.wait(), max(0.01, stop_at - time.monotonic()))
        except TimeoutError:
            pass

    async def paced(self, stop_at: float, figures: Figures) -> None:
        """A move every `PACE` seconds after the table's previous one, until ``stop_at``."""
        await asyncio.sleep(random.uniform(0.0, PACE))
        while time.monotonic() < stop_at and not self.over:
            wait = self.last_move + PACE - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue  # a computer player may have moved meanwhile
            found = self.due()
            if found is None:
                await self.news_or(stop_at)
                continue
            seat, length, action = found
            await seat.send_move(length, action, figures)

    async def flat_out(self, stop_at: float, figures: Figures, budget: int | None = None) -> None:
        """Every move as soon as a view allows it; a new match when one ends; ``budget`` moves at most."""
        while time.monotonic() < stop_at and (budget is None or budget > 0):
            if self.over:
                figures.matches += 1
                await self.begin()
            found = self.due()
            if found is None:
                await self.news_or(stop_at)
                continue
            seat = found[0]
            await seat.bucket.take()
            again = seat.move()  # the view may have changed while the bucket was empty
            if again is None:
                continue
            await seat.send_move(*again, figures)
            budget = None if budget is None else budget - 1


def address(table: int) -> str:
    number = table // TABLES_PER_ADDRESS
    return f"127.1.{number // 250}.{number % 250 + 1}"


async def client_main(port: int, numbers: list[int], computers: set[int], load: str, advance: int,
                      pipe: Connection) -> None:
    figures = Figures()
    url = f"ws://127.0.0.1:{port}/play"
    sessions: dict[str, aiohttp.ClientSession] = {}
    tables = [Table(n, n in computers) for n in numbers]
    readers: list[asyncio.Task[None]] = []
    stamp = f"{os.getpid() % 100000}x{random.randrange(10**6)}"

    async def seat(table: Table, number: int) -> None:
        where = address(table.number)
        if where not in sessions:
            sessions[where] = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(where, 0), limit=0))
        socket = await sessions[where].ws_connect(url, max_msg_size=0, heartbeat=None)
        held = Seat(table, number, socket)
        welcome = held.expect("welcome")
        readers.append(asyncio.get_running_loop().create_task(held.read(figures)))
        await socket.send_str(json.dumps({"type": "hello", "name": f"b{stamp}t{table.number}s{number}",
                                          "token": None, "password": None, "version": 1}))
        await asyncio.wait_for(welcome, 60)
        table.seats.append(held)

    async def setup(table: Table) -> None:
        await seat(table, 0)
        if not table.computer:
            await seat(table, 1)
        await table.begin()

    for start in range(0, len(tables), 50):  # fifty tables at a time: the server writes each hello and table
        await asyncio.gather(*(setup(t) for t in tables[start:start + 50]))
    if advance:  # each game flat out to a point of its own, so that the tables are spread over a match
        await asyncio.gather(*(t.flat_out(time.monotonic() + 3600, Figures(), random.randint(0, advance))
                               for t in tables))
    loop = asyncio.get_running_loop()
    pipe.send(("ready", len(tables)))
    _, measure_at, stop_at = await loop.run_in_executor(None, pipe.recv)
    runs = [loop.create_task(t.paced(stop_at, figures) if load == "pace" else t.flat_out(stop_at, figures))
            for t in tables]
    await asyncio.sleep(max(0.0, measure_at - time.monotonic()))
    moves_before, cpu_before = figures.moves, time.process_time()
    for table in tables:
        table.measuring = True
    await asyncio.gather(*runs)
    figures.moves -= moves_before
    figures.cpu_seconds = time.process_time() - cpu_before
    await asyncio.sleep(1.0)  # the last moves' news
    for table in tables:
        table.measuring = False
    figures.bucket_waits = sum(s.bucket.waits for t in tables for s in t.seats)
    for table in tables:
        for held in table.seats:
            await held.socket.close()
    for task in readers:
        task.cancel()
    for session in sessions.values():
        await session.close()
    pipe.send(("done", figures.__dict__))


def client_process(port: int, numbers: list[int], computers: set[int], load: str, advance: int,
                   pipe: Connection) -> None:
    asyncio.run(client_main(port, numbers, computers, load, advance, pipe))


# --------------------------------------------------------------------------------------------- one run
def run(load: str, tables: int, seconds: float, clients: int, computer_share: float, warm: float,
        advance: int = 0, profile: Path | None = None, watch_gc: bool = False,
        threshold: str | None = None) -> dict[str, Any]:
    """One server, ``tables`` tables of the given load, measured for ``seconds`` after ``warm`` seconds."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="bench-server-") as folder:
        server = Server(Path(folder) / "data", profile, watch_gc, threshold)
        try:
            warmup = _clients(context, server.port, [60_000, 60_001], {60_001}, "full", 0, 1)
            _measure(warmup, 2.0, 0.0)
            base_rss = server.rss_bytes()
            every = list(range(tables))
            computers = set(every[::round(1 / computer_share)] if computer_share > 0 else [])
            started = time.monotonic()
            pipes = _clients(context, server.port, every, computers, load, advance, clients)
            setup_seconds = time.monotonic() - started
            cpu = {}

            def at_start() -> None:
                cpu["start"], cpu["loop"] = server.cpu_seconds(), server.cpu_seconds(loop_only=True)

            results = _measure(pipes, seconds, warm, at_start)
            cpu_share = (server.cpu_seconds() - cpu["start"]) / seconds
            loop_share = (server.cpu_seconds(loop_only=True) - cpu["loop"]) / seconds
            rss = server.rss_bytes()
        finally:
            err = server.stop()
    found = _summary(load, tables, len(computers), seconds, results, cpu_share, rss, base_rss, setup_seconds, err)
    found["server_loop_cpu_share"] = round(loop_share, 2)
    return found


def _clients(context: Any, port: int, numbers: list[int], computers: set[int], load: str, advance: int,
             count: int) -> list[tuple[Any, Connection]]:
    started = []
    for index in range(count):
        mine = numbers[index::count]
        ours, theirs = context.Pipe()
        process = context.Process(target=client_process, args=(port, mine, computers & set(mine), load, advance,
                                                                    theirs))
        process.start()
        started.append((process, ours))
    for _, pipe in started:
        message = pipe.recv()
        assert message[0] == "ready", message
    return started


def _measure(started: list[tuple[Any, Connection]], seconds: float, warm: float,
             at_start: Any = None) -> list[dict[str, Any]]:
    now = time.monotonic()
    measure_at = now + warm
    for _, pipe in started:
        pipe.send(("go", measure_at, measure_at + seconds))
    time.sleep(max(0.0, measure_at - time.monotonic()))
    if at_start is not None:
        at_start()
    time.sleep(max(0.0, measure_at + seconds - time.monotonic()))
    results = []
    for process, pipe in started:
        message = pipe.recv()
        assert message[0] == "done", message
        results.append(message[1])
        process.join()
    return results


def _summary(load: str, tables: int, computers: int, seconds: float, results: list[dict[str, Any]],
             cpu_share: float, rss: int, base_rss: int, setup_seconds: float, err: str) -> dict[str, Any]:
    latencies = sorted(x for r in results for x in r["latencies"])
    total = {key: sum(r[key] for r in results) for key in ("moves", "computer_moves", "news_bytes", "news_count",
                                                           "view_bytes", "view_count", "bucket_waits", "matches")}
    moves = total["moves"] + total["computer_moves"]
    refusals = [s for r in results for s in r["refusals"]]
    closes = [s for r in results for s in r["closes"]]

    def ms(fraction: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(len(latencies) * fraction))] * 1000, 1) \
            if latencies else float("nan")

    return {
        "load": load, "tables": tables, "computer_tables": computers, "seconds": seconds,
        "setup_seconds": round(setup_seconds, 1),
        "person_moves": total["moves"], "moves_per_second": round(moves / seconds, 1),
        "latency_samples": len(latencies),
        "median_ms": round(statistics.median(latencies) * 1000, 1) if latencies else float("nan"),
        "p99_ms": ms(0.99), "most_ms": ms(1.0),
        "server_cpu_share": round(cpu_share, 2),
        "clients_cpu_share": round(sum(r["cpu_seconds"] for r in results) / seconds, 2),
        "rss_mb": round(rss / 2**20, 1), "rss_per_table_kb": round((rss - base_rss) / tables / 1024, 1),
        "view_bytes_mean": round(total["view_bytes"] / max(1, total["view_count"])),
        "view_bytes_most": max(r["view_most"] for r in results),
        "news_bytes_mean": round(total["news_bytes"] / max(1, total["news_count"])),
        "bytes_per_move": round((total["view_bytes"] + total["news_bytes"]) / max(1, moves)),
        "bucket_waits": total["bucket_waits"], "matches_ended": total["matches"],
        "refusals": sorted(set(refusals))[:5], "refusal_count": len(refusals),
        "closed_early": closes[:5], "closed_count": len(closes),
        "gc_pauses": _pauses(err),
        "server_errors": [line for line in err.strip().splitlines() if not line.startswith("gc ")][-5:],
    }


def encoding_costs(seeds: range = range(1, 6)) -> dict[str, Any]:
    """What the server does for each move of whole two-player matches (one a seed, easy players), timed in this
    process without the network: the move itself (`Game.apply`), each seat's view made twice (once for its news,
    once for the view, as `Room._news` does) and the two messages encoded. Milliseconds a move, mean over the
    matches, and the sizes."""
    from audiocrib.bots.player import load_player
    from audiocrib.engine.game import Game
    from audiocrib.engine.rules import Rules

    spent = {"apply": 0.0, "views": 0.0, "encode_view": 0.0, "encode_news": 0.0}
    sizes: list[int] = []
    moves = events = 0
    for seed in seeds:
        game = Game(Rules(), seed=seed)
        players = [load_player("easy", seed=1), load_player("easy", seed=2)]
        moves += _match_costs(game, players, spent, sizes)
        events += len(game.events)
    return {"matches": len(seeds), "moves": moves, "events": events,
            **{f"{key}_ms": round(value / moves * 1000, 3) for key, value in spent.items()},
            "bytes_per_move_mean": round(statistics.mean(sizes)),
            "bytes_per_move_most": max(sizes), "bytes_per_match": sum(sizes) // len(seeds)}


def _match_costs(game: Any, players: list[Any], spent: dict[str, float], sizes: list[int]) -> int:
    """Play ``game`` to its end, adding each part's time to ``spent`` and each move's bytes to ``sizes``."""
    from audiocrib.bots.player import next_action
    from audiocrib.online.messages import News, ViewOf, encode

    moves = 0
    while not game.over:
        seat = min(game.waiting_for())
        action = next_action(game, seat, players[seat])
        first = len(game.events)
        started = time.perf_counter()
        game.apply(action)
        spent["apply"] += time.perf_counter() - started
        moves += 1
        size = 0
        for each in range(2):
            started = time.perf_counter()
            news_events, view = game.view(each).events[first:], game.view(each)
            made = time.perf_counter()
            news = encode(News(first, tuple(news_events)))
            encoded_news = time.perf_counter()
            text = encode(ViewOf(dataclasses.replace(view, events=()), None, False))  # after a move: the state
            done = time.perf_counter()
            spent["views"] += made - started
            spent["encode_news"] += encoded_news - made
            spent["encode_view"] += done - encoded_news
            size += len(news) + len(text)
        sizes.append(size)
    return moves


def _pauses(err: str) -> dict[str, Any]:
    """The garbage collections of 10 ms or more that the server wrote (with ``--gc``): count, total, most, and
    the objects they freed (found only in cycles: what reference counting frees is not among them)."""
    found: dict[str, list[float]] = {}
    freed: dict[str, int] = {}
    for line in err.splitlines():
        if line.startswith("gc "):
            _, generation, seconds, collected = line.split()
            found.setdefault(generation, []).append(float(seconds))
            freed[generation] = freed.get(generation, 0) + int(collected)
    return {f"generation {g}": {"count": len(p), "total_ms": round(sum(p) * 1000), "most_ms": round(max(p) * 1000),
                                "objects_freed": freed[g]} for g, p in sorted(found.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--load", choices=("pace", "full", "encoding", "both"), default="both")
    parser.add_argument("--tables", type=int, nargs="*", help="tables at people's pace (default 10 100 1000)")
    parser.add_argument("--full-tables", type=int, default=100, help="tables at full speed (default 100)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window of each run")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each load (default 2)")
    parser.add_argument("--clients", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--computer-share", type=float, default=0.2, help="tables with a computer player")
    parser.add_argument("--advance", type=int, default=60, help="at people's pace, play each game flat out"
                        " first for up to this many moves (a random number for each table; default 60)")
    parser.add_argument("--gc", action="store_true", help="report the server's garbage collections of 10 ms or"
                        " more (the program is started through a few lines that watch them)")
    parser.add_argument("--gc-threshold", help="start the server with these garbage collector thresholds"
                        " (gc.set_threshold), as 'A,B,C'")
    parser.add_argument("--profile", type=Path, help="run the server under cProfile, its statistics to this file")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.quick:
        paced, full, seconds, repeat, warm, advance = [4], 4, 4.0, 1, 1.0, 4
    else:
        paced, full, seconds, repeat, warm = args.tables or [10, 100, 1000], args.full_tables, args.seconds, \
            args.repeat, 4.0
        advance = args.advance
    found = []
    for _ in range(repeat):
        if args.load in ("pace", "both"):
            for count in paced:
                found.append(run("pace", count, seconds, args.clients, args.computer_share, warm + PACE,
                                 advance, args.profile, args.gc, args.gc_threshold))
                print(json.dumps(found[-1]), flush=True)
        if args.load in ("full", "both"):
            found.append(run("full", full, seconds, args.clients, 0.0, warm, 0, args.profile, args.gc,
                             args.gc_threshold))
            print(json.dumps(found[-1]), flush=True)
    if args.load == "encoding" or (args.load == "both" and not args.quick):
        found.append({"load": "encoding", **encoding_costs()})
        print(json.dumps(found[-1]), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
