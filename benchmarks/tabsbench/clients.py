"""The simulated tabs' client processes: each signs its tabs in from loopback addresses of their own, seats them two
at a table (one makes a private table, the other joins it by its code, all by the page's messages), and plays at
people's pace: a table's person to move moves every `PACE` seconds on the table's own timetable, and every tab
presses a question key about once a second."""

from __future__ import annotations

import asyncio
import os
import random
import time
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from typing import Any

import aiohttp
from serverbench.clients import PACE

from tabsbench.tab import Tab, TabClosed

QUESTIONS = ("s", "t", "b", "v", "c")
"""The one-key answers a player asks for: the scores, whose turn, whose crib, the cards on the table, the count."""
QUESTION_EVERY = 1.0
"""Seconds between a tab's question keys, on average (each wait drawn from 0.5 to 1.5 times it)."""
TABS_PER_ADDRESS = 2
"""A table's two tabs share an address: four connections from it (each tab's own and its session's to ``/play``),
well under the server's 20, and its sign-ins under the five new connections a second."""
AT_ONCE = 25
"""Tables set up at once in one process (each sign-in and table is written by the server)."""


@dataclass
class Figures:
    """What one client process measured in the window."""

    move_latencies: list[float] = field(default_factory=list)
    move_times: list[tuple[float, float]] = field(default_factory=list)
    """Each move's moment heard (``time.monotonic``, the same clock in every process) and latency."""
    key_latencies: list[float] = field(default_factory=list)
    moves_made: int = 0
    moves_heard: int = 0
    keys: int = 0
    lost: int = 0
    matches_ended: int = 0
    closes: list[str] = field(default_factory=list)
    cpu_seconds: float = 0.0


def _dealt(tab: Tab) -> bool:
    return tab.screen.get("mode") in ("discard", "waiting")


def address(tab: int) -> str:
    """The loopback address of tab number ``tab`` (127.2.x.y: serverbench's ``/play`` players are on 127.1.x.y)."""
    number = tab // TABS_PER_ADDRESS
    return f"127.2.{number // 250}.{number % 250 + 1}"


class Table:
    """Two tabs at one table, as two people."""

    def __init__(self, host: Tab, guest: Tab) -> None:
        self.tabs = (host, guest)
        self.last_move = 0.0

    async def sit(self) -> None:
        code = await self.tabs[0].host()
        await self.tabs[1].join(code)
        host = self.tabs[0]
        await host.until(lambda: "an open seat" not in " ".join(host.screen.get("status") or ["an open seat"]),
                         "saw the guest sit down")
        await host.choose("Start the game")
        for tab in self.tabs:
            await tab.until(partial(_dealt, tab), "saw the first deal")

    @property
    def over(self) -> bool:
        return any(tab.screen.get("mode") == "over" for tab in self.tabs)

    def quiet(self) -> bool:
        """Whether neither tab waits for a ``say`` (a move's first ``say`` can then be told from another's)."""
        now = time.monotonic()
        for tab in self.tabs:
            tab.give_up(now)
        return not any(tab.waiting for tab in self.tabs)

    async def move(self, tab: Tab, other: Tab, figures: Figures) -> bool:
        """``tab``'s move by its keys, as a player makes it; False if it has none it can make."""
        screen = tab.screen
        mode = screen["mode"]
        if mode == "discard":
            frames: list[dict[str, Any]] = [{"type": "choose", "list": "hand", "index": 0},
                                            {"type": "choose", "list": "hand", "index": 1}]
            heard = other.screen.get("mode") == "waiting"  # the second to lay away: the other hears the cut
        elif mode == "play":
            playable = [i for i, card in enumerate(screen["hand"]) if card.get("playable")]
            if not playable:
                return False
            frames, heard = [{"type": "key", "key": str(playable[0] + 1)}], True
        else:
            frames, heard = [], False  # the show's review: Enter goes on, heard by this player only
        for frame in frames:
            await tab.send(frame)
        now = time.monotonic()
        tab.moved_at = self.last_move = now
        if heard:
            other.heard_since = now
        await tab.key("enter")
        if tab.measuring:
            figures.moves_made += 1
            figures.moves_heard += heard
        return True

    async def paced(self, stop_at: float, figures: Figures, stagger: float = 0.0) -> None:
        """A move every `PACE` seconds, on the table's own timetable (from a moment of its own at random), until
        ``stop_at`` or the match's end. A move made late (the server was slow, or the other tab still waited for a
        ``say``) does not move the table's timetable: otherwise every table held up by one slow moment would move
        at the same instant ever after, and the server would be measured under bursts that people, each at their
        own pace, never make."""
        due_at = time.monotonic() + random.uniform(0.0, max(PACE, stagger))
        while time.monotonic() < stop_at and not self.over:
            wait = due_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            mover = next((tab for tab in self.tabs if tab.due()), None)
            if mover is None or not self.quiet():
                await asyncio.sleep(0.005)
                continue
            other = self.tabs[1] if mover is self.tabs[0] else self.tabs[0]
            if not await self.move(mover, other, figures):
                await asyncio.sleep(0.005)
                continue
            due_at += PACE
        if self.over:
            figures.matches_ended += 1

    async def questions(self, tab: Tab, stop_at: float, figures: Figures) -> None:
        """``tab``'s question keys, about one a second, each when no ``say`` it waits for could be mistaken for it."""
        other = self.tabs[1] if tab is self.tabs[0] else self.tabs[0]
        while True:
            await asyncio.sleep(random.uniform(0.5, 1.5) * QUESTION_EVERY)
            while time.monotonic() < stop_at and (tab.waiting or other.moved_at is not None):
                tab.give_up(time.monotonic())
                await asyncio.sleep(0.005)
            if time.monotonic() >= stop_at:
                return
            tab.asked_at = time.monotonic()
            await tab.key(random.choice(QUESTIONS))
            figures.keys += tab.measuring


async def client_main(ports: list[int], numbers: list[int], pipe: Connection) -> None:
    """Tabs ``numbers`` (pairs: an even number hosts, the next joins): signed in, then (told ``seat``) at their
    tables, then (told ``go``) playing at pace through the measured window. Tab n opens the page's socket on
    ``ports[n % len(ports)]``: the server's own, or one of several gateways' (a table's two people then on two)."""
    figures = Figures()
    stamp = f"{os.getpid() % 10000}{random.randrange(100)}"
    sessions: dict[str, aiohttp.ClientSession] = {}

    def http(number: int) -> aiohttp.ClientSession:
        where = address(number)
        if where not in sessions:
            sessions[where] = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(where, 0), limit=0))
        return sessions[where]

    tabs = {n: Tab(http(n), ports[n % len(ports)], f"Tab {stamp} {n}") for n in numbers}
    try:
        await _play(tabs, numbers, pipe, figures)
    except TabClosed as error:
        pipe.send(("failed", str(error)))
    finally:
        for tab in tabs.values():
            await tab.close()
        for session in sessions.values():
            await session.close()


async def _play(tabs: dict[int, Tab], numbers: list[int], pipe: Connection, figures: Figures) -> None:
    for start in range(0, len(numbers), 2 * AT_ONCE):
        await asyncio.gather(*(tabs[n].sign_in() for n in numbers[start:start + 2 * AT_ONCE]))
    pipe.send(("signed", len(tabs)))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, pipe.recv)
    tables = [Table(tabs[n], tabs[n + 1]) for n in numbers if n % 2 == 0 and n + 1 in tabs]
    for start in range(0, len(tables), AT_ONCE):
        await asyncio.gather(*(t.sit() for t in tables[start:start + AT_ONCE]))
    pipe.send(("ready", len(tables)))
    _, measure_at, stop_at, stagger = await loop.run_in_executor(None, pipe.recv)
    runs = [loop.create_task(t.paced(stop_at, figures, stagger)) for t in tables]
    runs += [loop.create_task(t.questions(tab, stop_at, figures)) for t in tables for tab in t.tabs]
    await asyncio.sleep(max(0.0, measure_at - time.monotonic()))
    cpu_before = time.process_time()
    for tab in tabs.values():
        tab.measuring = True
    results = await asyncio.gather(*runs, return_exceptions=True)
    figures.cpu_seconds = time.process_time() - cpu_before
    await asyncio.sleep(1.0)  # the last moves' first lines
    for tab in tabs.values():
        tab.measuring = False
        figures.move_latencies += tab.move_latencies
        figures.move_times += tab.move_times
        figures.key_latencies += tab.key_latencies
        figures.lost += tab.lost
        if tab.closed is not None:
            figures.closes.append(tab.closed)
    figures.closes += [str(r) for r in results if isinstance(r, BaseException)]
    pipe.send(("done", figures.__dict__))


def tab_process(ports: list[int], numbers: list[int], pipe: Connection) -> None:
    asyncio.run(client_main(ports, numbers, pipe))
