"""A browser tab for the tests, speaking the page's protocol at ``/web`` as the page's JavaScript does (aiohttp's
WebSocket client): what it was sent, and keys, lines and choices to send; and the steps the gateway's tests share
(signing in, making a table with a computer player, playing a match by keys, who the server counts connected)."""

from __future__ import annotations

import asyncio
import json
import random
import ssl
import string
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

QUICK = {"session": {"pace": 0.0, "typed_ahead": 0.0}}
"""The settings a test's page brings back in its hello: no pause before computer moves, no guard on keys."""


class Page:
    """One browser tab speaking the page's protocol: what it was sent, and keys, lines and choices to send."""

    def __init__(self, port: int, tls: ssl.SSLContext | None = None) -> None:
        self.port = port
        self.tls = tls
        self.base = f"{'https' if tls else 'http'}://127.0.0.1:{port}"
        self.got: list[dict[str, Any]] = []
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self._http: aiohttp.ClientSession | None = None
        self._reader: asyncio.Task[None] | None = None
        self.closed: aiohttp.WSMessage | None = None
        self.frames = 0
        """The frames received (a burst of messages is one frame)."""
        self.local_address: str | None = None
        """The loopback address the tab connects from (None: the system's choice)."""

    async def open(self, origin: str | None = None) -> None:
        local = self.local_address
        self._http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(local, 0)) if local else None)
        try:
            self.socket = await self._http.ws_connect(f"{self.base}/web", ssl=self.tls or True, headers={
                "Origin": origin if origin is not None else self.base})
        except aiohttp.ClientError:
            await self._http.close()
            raise
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.socket is not None
        while True:
            frame = await self.socket.receive()
            if frame.type is not aiohttp.WSMsgType.TEXT:
                self.closed = frame
                return
            message = json.loads(frame.data)
            self.frames += 1
            self.got.extend(message if isinstance(message, list) else [message])  # a burst comes as one list

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            await asyncio.wait_for(self._reader, 10)
        if self._http is not None:
            await self._http.close()

    async def send(self, message: dict[str, Any] | str | bytes) -> int:
        """Send ``message``; how many messages had come before it."""
        assert self.socket is not None
        mark = len(self.got)
        if isinstance(message, bytes):
            await self.socket.send_bytes(message)
        else:
            await self.socket.send_str(message if isinstance(message, str) else json.dumps(message))
        return mark

    async def hello(self, token: str = "", name: str = "", settings: dict[str, Any] | None = None) -> None:
        await self.send({"type": "hello", "token": token, "name": name, "settings": settings or QUICK})

    async def key(self, *keys: str) -> None:
        for key in keys:
            await self.send({"type": "key", "key": key})

    @property
    def said(self) -> list[str]:
        return [m["text"] for m in self.got if m["type"] == "say"]

    def last(self, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.got) if m["type"] == kind)

    async def hears(self, sentence: str | Callable[[str], bool], since: int = 0, timeout: float = 20.0) -> str:
        """Wait for a "say" of ``sentence`` (or one it accepts) among the messages from ``since`` on."""
        test = sentence if callable(sentence) else (lambda said: said == sentence)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for message in self.got[since:]:
                if message["type"] == "say" and test(message["text"]):
                    return str(message["text"])
            if loop.time() > end:
                raise AssertionError(f"never heard {sentence!r}; last: {self.said[-8:]}")
            await asyncio.sleep(0.01)

    async def kept(self, test: Callable[[dict[str, Any]], bool] = lambda keep: True, since: int = 0,
                   timeout: float = 20.0) -> dict[str, Any]:
        """Wait for a "keep" that ``test`` accepts, from message ``since`` on."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for message in self.got[since:]:
                if message["type"] == "keep" and test(message):
                    return message
            if loop.time() > end:
                raise AssertionError(f"no such keep; got {[m for m in self.got if m['type'] == 'keep'][-1:]}")
            await asyncio.sleep(0.01)

    async def screen(self, test: Callable[[dict[str, Any]], bool], since: int = 0,
                     timeout: float = 20.0) -> dict[str, Any]:
        """Wait for a "screen" that ``test`` accepts, from message ``since`` on."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for message in self.got[since:]:
                if message["type"] == "screen" and test(message):
                    return message
            if loop.time() > end:
                raise AssertionError(f"no such screen; last: {self.last('screen')}, said {self.said[-5:]}")
            await asyncio.sleep(0.01)

    async def choose(self, words: str) -> None:
        """Press the menu's button whose words start with ``words``."""
        screen = self.last("screen")
        assert screen["menu"] is not None, screen
        index = next(i for i, text in enumerate(screen["menu"]["items"]) if text.startswith(words))
        await self.send({"type": "choose", "list": "menu", "index": index})

    async def menu_to(self, words: str) -> None:
        """Move down the menu by keys until its item starting with ``words`` is the current one."""
        for _ in range(30):
            screen = self.last("screen")
            menu = screen["menu"]
            if menu is not None and menu["items"][menu["current"]].startswith(words):
                return
            mark = await self.send({"type": "key", "key": "down"})
            await self.screen(lambda s: s["menu"] is not None, since=mark)
        raise AssertionError(f"no item {words!r}: {self.last('screen')}")


async def sign_in(page: Page, name: str) -> None:
    """A new tab: the name typed into the page's box, connected, in the lobby."""
    await page.open()
    await page.hello()
    await page.screen(lambda s: s["typing"] is not None and s["typing"]["prompt"] == "Your name")
    await page.send({"type": "line", "text": name})
    await page.hears(lambda s: s.startswith("Lobby: "))
    await page.screen(lambda s: s["mode"] == "lobby")
    await page.kept(lambda keep: keep["token"] != "")


async def game_to_61(page: Page) -> None:
    """In the table setup: Game to, moved down to 61 by the left arrow."""
    await page.menu_to("Game to")
    while "61" not in (text := page.last("screen")["menu"]["items"][page.last("screen")["menu"]["current"]]):
        mark = await page.send({"type": "key", "key": "left"})
        await page.screen(lambda s, text=text: s["menu"]["items"][s["menu"]["current"]] != text, since=mark)


async def make_table(page: Page, own_counts: bool = False) -> None:
    """From the lobby: a table to 61 for this player and a computer player, created and started (``own_counts``:
    the player counts their own hands and calls their own points in the play)."""
    await page.choose("Create a table")
    made = await page.screen(lambda s: s["mode"] == "new table")
    # a player without arrow keys has buttons for them, in the words of the keys' help
    assert made["menu"]["change"] == ["Change the setting back.", "Change the setting forward."], made["menu"]
    mark = await page.send({"type": "key", "key": "left"})  # seats for people: 1, the rest computer players
    await page.hears("Seats for people: 1 of 2, the rest computer players.", since=mark)
    await page.menu_to("Table setup")
    mark = await page.send({"type": "key", "key": "enter"})
    await page.screen(lambda s: s["mode"] == "table setup", since=mark)
    await game_to_61(page)
    for setting in ("Count your own hands", "Call your own points in the play") if own_counts else ():
        await page.menu_to(setting)
        mark = await page.send({"type": "key", "key": "enter"})
        await page.hears(f"{setting}: on.", since=mark)
    mark = await page.send({"type": "key", "key": "escape"})
    await page.screen(lambda s: s["mode"] == "new table", since=mark)
    await page.choose("Create the table")
    who = await page.hears(lambda s: s.startswith("At table 1: you, the host; and Expert, a computer player."), mark)
    waiting = await page.screen(lambda s: s["mode"] == "waiting room")
    # the waiting room's status says who has sat down (and a private table's code), as "who is at the table" does
    assert waiting["status"] == [who], (waiting["status"], who)
    await page.choose("Start the game")
    await page.hears("The game begins.", mark)


async def lay_away_or_play(page: Page, screen: dict[str, Any]) -> bool:
    """Laying away: the first two cards' buttons, then Enter; in the play: the first card that can be played, by
    its digit, then Enter. False if no card can be played yet."""
    if screen["mode"] == "discard":
        await page.send({"type": "choose", "list": "hand", "index": 0})
        await page.send({"type": "choose", "list": "hand", "index": 1})
        await page.key("enter")
        return True
    playable = [i for i, card in enumerate(screen["hand"]) if card.get("playable")]
    if playable:
        await page.key(str(playable[0] + 1), "enter")
    return bool(playable)


async def play_match(page: Page, timeout: float = 240.0,
                     between: Callable[[Page], Awaitable[bool]] | None = None) -> None:
    """Answer what the game asks, by keys, from what the screen shows, until the match is over (``between``, if
    given, is awaited before each move: True if it did something instead, and the screen is looked at again)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        screen = page.last("screen")
        mode = screen["mode"]
        if mode == "over":
            return
        if loop.time() > end:
            raise AssertionError(f"the match did not end: {screen}; {page.said[-5:]}")
        if between is not None and await between(page):
            continue
        mark = len(page.got)
        if mode in ("discard", "play"):
            if not await lay_away_or_play(page, screen):
                await asyncio.sleep(0.02)
                continue
        elif mode == "review":
            await page.key("enter")
        else:
            await asyncio.sleep(0.02)
            continue
        try:
            await page.screen(lambda s, screen=screen: s != screen, since=mark, timeout=3.0)
        except AssertionError:
            pass  # nothing changed on the screen yet: look again


async def people_connected(port: int) -> list[str]:
    """Who the server counts as connected, asked by a terminal's protocol at ``/play``."""
    async with aiohttp.ClientSession() as http, http.ws_connect(f"ws://127.0.0.1:{port}/play") as socket:
        name = "Watcher " + "".join(random.choice(string.ascii_letters) for _ in range(12))
        await socket.send_json({"type": "hello", "name": name, "token": None, "password": None, "version": 1})
        assert (await socket.receive_json(timeout=10))["type"] == "welcome"
        await socket.send_json({"type": "lobby"})
        while True:
            answer = await socket.receive_json(timeout=10)
            if answer["type"] == "lobby_list":
                return [person for person in answer["people"] if not person.startswith("Watcher")]
