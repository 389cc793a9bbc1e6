"""One simulated browser tab: an aiohttp WebSocket on ``/web`` from a loopback address of its own, speaking the page's
protocol (docs/protocol.md, "The browser page's socket") as the page's JavaScript does, and timing the first ``say``
that follows a move or a question key."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from typing import Any

import aiohttp

QUICK = {"session": {"pace": 0.0, "typed_ahead": 0.0}}
"""The settings brought back in each hello, as tests/web_client.py's: no pause before a computer player's move (there
are none at these tables) and no guard on keys typed ahead."""
LOST_AFTER = 10.0
"""Seconds after which a move or a key still waiting for its ``say`` is given up (counted as lost)."""


class TabClosed(Exception):
    """The server closed the tab's socket (or it never opened)."""


class Tab:
    """A browser tab: the latest ``screen``, and what it is waiting to hear.

    ``heard_since`` is when the other person's move was sent (the first ``say`` after it is its latency);
    ``asked_at`` when this tab's question key was sent, ``moved_at`` when its own move was (each cleared by the
    first ``say`` after it). A table sends a move or a question only when the ``say`` it times cannot be another's.
    """

    def __init__(self, http: aiohttp.ClientSession, port: int, name: str) -> None:
        self.http, self.port, self.name = http, port, name
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.screen: dict[str, Any] = {}
        self.frames = 0  # messages received: a screen's number among them says whether it came after a say
        self.screen_at = 0
        self.move_said_at = 0  # the message of the first say after this tab's latest move
        self.said: list[str] = []  # the latest sentences, for a message when something goes wrong
        self.heard_since: float | None = None
        self.asked_at: float | None = None
        self.moved_at: float | None = None
        self.move_latencies: list[float] = []
        self.move_times: list[tuple[float, float]] = []
        self.key_latencies: list[float] = []
        self.measuring = False
        self.lost = 0
        self.closed: str | None = None
        self.changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        base = f"http://127.0.0.1:{self.port}"
        try:
            self.socket = await self.http.ws_connect(f"{base}/web", headers={"Origin": base}, heartbeat=None)
        except aiohttp.ClientError as error:
            raise TabClosed(f"{self.name}: the socket did not open: {error}") from error
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.socket is not None
        async for frame in self.socket:
            if frame.type is not aiohttp.WSMsgType.TEXT:
                break
            now = time.monotonic()
            data = json.loads(frame.data)
            for message in data if isinstance(data, list) else [data]:  # a burst comes as a list, in order
                self._take(message, now)
            self.changed.set()
        self.closed = f"closed with code {self.socket.close_code}"
        self.changed.set()

    def _take(self, message: dict[str, Any], now: float) -> None:
        self.frames += 1
        kind = message["type"]
        if kind == "say":
            self.said = [*self.said[-7:], message["text"]]
            self._heard(now)
        elif kind == "screen":
            self.screen, self.screen_at = message, self.frames

    def _heard(self, now: float) -> None:
        """A ``say`` came: it answers the other person's move, this tab's question key, or its own move."""
        if self.heard_since is not None:
            if self.measuring:
                self.move_latencies.append(now - self.heard_since)
                self.move_times.append((now, now - self.heard_since))
            self.heard_since = None
        elif self.asked_at is not None:
            if self.measuring:
                self.key_latencies.append(now - self.asked_at)
            self.asked_at = None
        if self.moved_at is not None:
            self.moved_at, self.move_said_at = None, self.frames

    def give_up(self, now: float) -> None:
        """Forget what has waited for a ``say`` longer than `LOST_AFTER` (counted as lost while measuring)."""
        for name in ("heard_since", "asked_at", "moved_at"):
            since = getattr(self, name)
            if since is not None and now - since > LOST_AFTER:
                setattr(self, name, None)
                self.lost += self.measuring

    @property
    def waiting(self) -> bool:
        """Whether a ``say`` this tab waits for has not come yet."""
        return self.heard_since is not None or self.asked_at is not None or self.moved_at is not None

    async def send(self, message: dict[str, Any]) -> None:
        if self.socket is None or self.closed is not None:
            raise TabClosed(f"{self.name}: {self.closed or 'not open'}; last heard {self.said[-3:]}")
        await self.socket.send_str(json.dumps(message))

    async def key(self, key: str) -> None:
        await self.send({"type": "key", "key": key})

    async def until(self, test: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
        """Wait until ``test()`` holds (checked on each frame), or fail saying ``what`` never came."""
        end = time.monotonic() + timeout
        while not test():
            if self.closed is not None:
                raise TabClosed(f"{self.name}: {self.closed} while waiting for {what}; last heard {self.said[-3:]}")
            left = end - time.monotonic()
            if left <= 0:
                raise TabClosed(f"{self.name}: never {what}; screen {self.screen.get('mode')!r}, "
                                f"last heard {self.said[-3:]}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))
            except TimeoutError:
                pass

    def _menu(self) -> list[str]:
        menu = self.screen.get("menu")
        return list(menu["items"]) if menu else []

    async def choose(self, words: str) -> None:
        """Press the menu's item starting with ``words`` (a ``choose`` by its index, as the page's buttons do)."""
        await self.until(lambda: any(item.startswith(words) for item in self._menu()), f"saw {words!r} in the menu")
        index = next(i for i, item in enumerate(self._menu()) if item.startswith(words))
        await self.send({"type": "choose", "list": "menu", "index": index})

    async def sign_in(self) -> None:
        """Open the tab, say hello, type the name: in the lobby."""
        await self.open()
        await self.send({"type": "hello", "token": "", "name": "", "settings": QUICK})
        await self.until(lambda: (self.screen.get("typing") or {}).get("prompt") == "Your name", "was asked a name")
        await self.send({"type": "line", "text": self.name})
        await self.until(lambda: self.screen.get("mode") == "lobby", "reached the lobby")

    async def host(self) -> str:
        """From the lobby: a table for two people, joined by its code (not listed), made; its code."""
        await self.choose("Create a table")
        await self.until(lambda: self.screen.get("mode") == "new table", "saw the new table")
        await self.choose("Listed in the lobby")  # Enter on a setting turns it: to "no, joined by its code"
        await self.until(lambda: "Listed in the lobby: no, joined by its code" in self._menu(),
                         "made the table private")
        await self.choose("Create the table")
        await self.until(lambda: self.screen.get("mode") == "waiting room" and bool(self.screen.get("status")),
                         "reached the waiting room")
        found = re.search(r"The code is ([^.]*)\.", self.screen["status"][0])
        if found is None:
            raise TabClosed(f"{self.name}: no code in {self.screen['status']}")
        return "-".join(part.replace(" ", "") for part in found.group(1).split(", "))

    async def join(self, code: str) -> None:
        """From the lobby: join the table by its code, typed as a line."""
        await self.choose("Join a table by its code")
        await self.until(lambda: (self.screen.get("typing") or {}).get("prompt") == "Table code", "was asked the code")
        await self.send({"type": "line", "text": code})
        await self.until(lambda: self.screen.get("mode") == "waiting room", "sat at the table")

    def due(self) -> bool:
        """Whether this tab has a move to make now: Enter would lay away, play or go on (from a screen that came
        after the first ``say`` following its previous move)."""
        return (self.screen.get("enter") is not None and self.screen.get("mode") in ("discard", "play", "review")
                and self.moved_at is None and self.screen_at > self.move_said_at)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            self._reader.cancel()
