"""The scripted players: WebSocket clients in processes of their own, each playing its tables at people's
pace or flat out and timing how long each move takes to reach the other person."""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import aiohttp

PACE = 2.0
"""Seconds between a table's moves at people's pace."""
SEND_RATE, SEND_BURST = 18.0, 30
"""A client's own bucket at full speed, under the server's 20 messages a second (burst 40) per connection."""
MOVES = ("discarded", "played", "said go")
"""The events of a person's move in this benchmark (each with its ``seat``)."""
TABLES_PER_ADDRESS = 2
"""Four connections an address: at full speed at most 80 messages a second, under the server's 100."""



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

