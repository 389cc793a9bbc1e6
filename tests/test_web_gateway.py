"""The browser's gateway for real: ``audiocrib serve`` on a free loopback port, and aiohttp WebSocket clients that
speak the page's protocol at ``/web`` (as the page's JavaScript does): sign in, make a table with a computer
player, play a whole match by keys, come back with the kept token; and hostile ones."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.telling.narrator import Narrator
from audiocrib.web.routes import HEADERS
from tests.test_online import heard_in_order
from tests.test_serve import Running, serving

QUICK = {"session": {"pace": 0.0, "typed_ahead": 0.0}}
"""The settings a test's page brings back in its hello: no pause before computer moves, no guard on keys."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


class Page:
    """One browser tab speaking the page's protocol: what it was sent, and keys, lines and choices to send."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.got: list[dict[str, Any]] = []
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self._http: aiohttp.ClientSession | None = None
        self._reader: asyncio.Task[None] | None = None
        self.closed: aiohttp.WSMessage | None = None

    async def open(self, origin: str | None = None) -> None:
        self._http = aiohttp.ClientSession()
        self.socket = await self._http.ws_connect(f"{self.base}/web",
                                                  headers={"Origin": origin if origin is not None else self.base})
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.socket is not None
        while True:
            frame = await self.socket.receive()
            if frame.type is not aiohttp.WSMsgType.TEXT:
                self.closed = frame
                return
            self.got.append(json.loads(frame.data))

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


async def make_table(page: Page) -> None:
    """From the lobby: a table to 61 for this player and a computer player, created and started."""
    await page.choose("Create a table")
    await page.screen(lambda s: s["mode"] == "new table")
    mark = await page.send({"type": "key", "key": "left"})  # seats for people: 1, the rest computer players
    await page.hears("Seats for people: 1 of 2, the rest computer players.", since=mark)
    await page.menu_to("Table setup")
    mark = await page.send({"type": "key", "key": "enter"})
    await page.screen(lambda s: s["mode"] == "table setup", since=mark)
    await page.menu_to("Game to")
    while "61" not in (text := page.last("screen")["menu"]["items"][page.last("screen")["menu"]["current"]]):
        mark = await page.send({"type": "key", "key": "left"})
        await page.screen(lambda s, text=text: s["menu"]["items"][s["menu"]["current"]] != text, since=mark)
    mark = await page.send({"type": "key", "key": "escape"})
    await page.screen(lambda s: s["mode"] == "new table", since=mark)
    await page.choose("Create the table")
    await page.hears(lambda s: s.startswith("At table 1: you, the host; and Expert, a computer player."), mark)
    await page.screen(lambda s: s["mode"] == "waiting room")
    await page.choose("Start the game")
    await page.hears("The game begins.", mark)


async def play_match(page: Page, timeout: float = 240.0) -> None:
    """Answer what the game asks, by keys, from what the screen shows, until the match is over."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        screen = page.last("screen")
        mode = screen["mode"]
        if mode == "over":
            return
        if loop.time() > end:
            raise AssertionError(f"the match did not end: {screen}; {page.said[-5:]}")
        mark = len(page.got)
        if mode == "discard":
            await page.key("1", "2", "enter")
        elif mode == "play":
            playable = [i for i, card in enumerate(screen["hand"]) if card.get("playable")]
            if not playable:
                await asyncio.sleep(0.02)
                continue
            await page.key(str(playable[0] + 1), "enter")
        elif mode == "review":
            await page.key("enter")
        else:
            await asyncio.sleep(0.02)
            continue
        try:
            await page.screen(lambda s, screen=screen: s != screen, since=mark, timeout=3.0)
        except AssertionError:
            pass  # nothing changed on the screen yet: look again


def test_a_browser_player_signs_in_plays_a_whole_match_by_keys_and_hears_the_narrators_words(
        server: Running, tmp_path: Path) -> None:
    page = Page(server.port)

    async def script() -> None:
        try:
            await sign_in(page, "Ann")
            keep = page.last("keep")
            assert keep["name"] == "Ann" and len(keep["token"]) >= 16
            assert keep["settings"]["session"]["pace"] == 0.0  # the hello's settings were taken
            await make_table(page)
            await page.screen(lambda s: s["mode"] == "discard")
            shown = page.last("screen")
            assert len(shown["hand"]) == 6 and all(len(card["short"]) == 2 for card in shown["hand"])
            assert len(shown["status"]) == 3
            mark = await page.send({"type": "key", "key": "s"})  # the status lines are the one-key answers
            await page.hears(shown["status"][0], since=mark)
            mark = await page.send({"type": "key", "key": "t"})
            await page.hears(page.last("screen")["status"][2], since=mark)
            await play_match(page)
            await page.hears(lambda s: s.startswith("Press Enter for the lobby"))
            mark = await page.send({"type": "key", "key": "enter"})
            await page.hears(lambda s: s.startswith("Lobby: "), since=mark)
            assert page.last("screen")["mode"] == "lobby"
        finally:
            await page.close()

    asyncio.run(script())
    with Store(tmp_path / "data" / STORE_FILE) as store:
        game = store.game(1)
    assert game.over
    names = game.view(0).names
    assert names == ("Ann", "Expert")
    narrator = Narrator(names, game.rules, 0)
    expected = [line for event in game.view(0).events for line in narrator.tell(event)]
    assert heard_in_order(page.said, expected) == []
    assert any(line.startswith("Expert plays") for line in page.said)
    cues = {m["name"] for m in page.got if m["type"] == "cue"}
    assert "card" in cues and all(" " not in name for name in cues)


def test_every_response_has_the_security_headers_and_the_sounds_route_serves_only_the_cues(server: Running) -> None:
    base = f"http://127.0.0.1:{server.port}"

    async def script() -> dict[str, tuple[int, dict[str, str], bytes]]:
        seen = {}
        async with aiohttp.ClientSession() as http:
            for path in ("/", "/sounds/chat.wav", "/sounds/your-turn.wav", "/sounds/..%2Fpyproject.toml",
                         "/sounds/../pyproject.toml", "/sounds/make_sounds.py", "/sounds/README.md",
                         "/sounds/%2e%2e/%2e%2e/pyproject.toml", "/page/..%2F..%2Fcli.py", "/page/nothing.js",
                         "/web", "/play", "/play/gateway/0123/127.0.0.1", "/nowhere"):
                async with http.get(base + path) as response:
                    seen[path] = (response.status, dict(response.headers), await response.read())
        return seen

    seen = asyncio.run(script())
    for path, (status, headers, _) in seen.items():
        for name, value in HEADERS.items():
            assert headers.get(name) == value, (path, status, headers)
    assert "script-src 'self'" in HEADERS["Content-Security-Policy"]
    assert "unsafe-inline" not in HEADERS["Content-Security-Policy"]
    status, headers, body = seen["/sounds/chat.wav"]
    assert status == 200 and body[:4] == b"RIFF" and headers["Content-Type"] == "audio/wav"
    assert seen["/sounds/your-turn.wav"][0] == 200
    for path in ("/sounds/..%2Fpyproject.toml", "/sounds/../pyproject.toml", "/sounds/make_sounds.py",
                 "/sounds/README.md", "/sounds/%2e%2e/%2e%2e/pyproject.toml", "/page/..%2F..%2Fcli.py",
                 "/page/nothing.js", "/play/gateway/0123/127.0.0.1", "/nowhere"):
        status, _, body = seen[path]
        assert status == 404, (path, status)
        assert b"[project]" not in body and b"import" not in body
    assert seen["/web"][0] == 403  # no Origin: not the server's own page
    assert seen["/"][0] == 200
