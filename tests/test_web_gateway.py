"""The browser's gateway for real: ``audiocrib serve`` on a free loopback port, and aiohttp WebSocket clients that
speak the page's protocol at ``/web`` (as the page's JavaScript does): sign in, make a table with a computer
player, play a whole match by keys, come back with the kept token; and hostile ones."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import ssl
import string
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.telling.narrator import Narrator
from audiocrib.web.gateway import (
    BAD_VALUE,
    HELLO_FIRST,
    HELLO_TWICE,
    KEYS_A_SECOND,
    MAX_FRAME,
    NOT_JSON,
    UNKNOWN,
    WRONG_FIELDS,
)
from audiocrib.web.routes import HEADERS
from audiocrib.web.websession import BYE, NOT_NOW
from tests.online_driver import until
from tests.test_online import heard_in_order
from tests.test_serve import Running, serving

QUICK = {"session": {"pace": 0.0, "typed_ahead": 0.0}}
"""The settings a test's page brings back in its hello: no pause before computer moves, no guard on keys."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


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

    async def open(self, origin: str | None = None) -> None:
        self._http = aiohttp.ClientSession()
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
        if mode == "discard":  # the first two cards' buttons, then Enter
            await page.send({"type": "choose", "list": "hand", "index": 0})
            await page.send({"type": "choose", "list": "hand", "index": 1})
            await page.key("enter")
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


def test_a_tab_that_goes_away_lets_go_of_its_seat_and_the_kept_token_puts_the_player_back_at_it(
        server: Running) -> None:
    first, again = Page(server.port), Page(server.port)

    async def script() -> None:
        try:
            await sign_in(first, "Ann")
            assert await people_connected(server.port) == ["Ann"]
            await make_table(first)
            dealt = await first.screen(lambda s: s["mode"] == "discard")
            keep = first.last("keep")
            assert "this server" in " ".join(first.said) and "127.0.0.1" not in " ".join(first.said)
        finally:
            await first.close()
        loop = asyncio.get_running_loop()
        end = loop.time() + 15
        while await people_connected(server.port):  # the tab's session ended, and its connection with it
            assert loop.time() < end, "the server still counts Ann as connected"
            await asyncio.sleep(0.2)
        try:
            await again.open()
            await again.hello(keep["token"], keep["name"], keep["settings"])
            await again.hears("Back at table 1.")
            back = await again.screen(lambda s: s["mode"] == "discard")
            assert [card["short"] for card in back["hand"]] == [card["short"] for card in dealt["hand"]]
            assert again.last("keep")["token"] == keep["token"]
            assert await people_connected(server.port) == ["Ann"]
        finally:
            await again.close()

    asyncio.run(script())


def test_the_lobby_is_a_browsers_main_menu_with_settings_and_quit_and_no_game_on_the_hosts_computer(
        server: Running) -> None:
    page = Page(server.port)

    async def script() -> None:
        try:
            await sign_in(page, "Bea")
            mark = await page.send({"type": "key", "key": "escape"})
            await page.hears("This is the lobby, the first screen here; Settings and Quit are at the end of its"
                             " list.", since=mark)
            assert page.last("screen")["mode"] == "lobby"
            await page.choose("Settings")
            await page.screen(lambda s: s["mode"] == "settings")
            await page.menu_to("Speech")
            await page.key("right")  # the speech: your screen reader, then the built-in voice
            mark = await page.send({"type": "key", "key": "right"})
            await page.hears(lambda s: s.startswith("Speech: the built-in voice"), since=mark)
            await page.screen(lambda s: True, since=mark)
            kept = page.last("keep")["settings"]
            assert kept["voice"] is True and kept["session"]["speech"] == "tts"
            mark = await page.send({"type": "key", "key": "escape"})
            await page.screen(lambda s: s["mode"] == "lobby", since=mark)
            # the new table's setup has "Start the game": in a browser it goes back to the new table
            await page.choose("Create a table")
            await page.menu_to("Table setup")
            mark = await page.send({"type": "key", "key": "enter"})
            await page.screen(lambda s: s["mode"] == "table setup", since=mark)
            mark = len(page.got)
            await page.choose("Start the game")
            await page.screen(lambda s: s["mode"] == "new table", since=mark)
            assert not any(s.startswith("Dealing") or "The game begins" in s for s in page.said[-5:])
            mark = await page.send({"type": "key", "key": "escape"})
            await page.screen(lambda s: s["mode"] == "lobby", since=mark)
            mark = len(page.got)
            await page.choose("Change your name")
            await page.screen(lambda s: s["typing"] is not None, since=mark)
            mark = await page.send({"type": "key", "key": "escape"})  # no main menu to go back to: asked again
            await page.hears(lambda s: s.startswith("Type the name the others will hear"), since=mark)
            mark = await page.send({"type": "line", "text": "Bea"})
            await page.screen(lambda s: s["mode"] == "lobby", since=mark)
            mark = len(page.got)
            await page.choose("Quit")
            await page.hears("Goodbye.", since=mark)
            await until(lambda: page.got[-1]["type"] == "bye", "the bye")
            assert page.got[-1]["text"] == BYE
            loop = asyncio.get_running_loop()
            end = loop.time() + 15
            while await people_connected(server.port):  # quitting let go of the connection
                assert loop.time() < end, "the server still counts Bea as connected"
                await asyncio.sleep(0.2)
            keep = page.last("keep")
            mark = len(page.got)
            await page.hello(keep["token"], keep["name"], keep["settings"])  # the page's "play again"
            await page.hears(lambda s: s.startswith("Lobby: "), since=mark)
            assert await people_connected(server.port) == ["Bea"]
        finally:
            await page.close()

    asyncio.run(script())


REFUSALS = {NOT_JSON, UNKNOWN, WRONG_FIELDS, BAD_VALUE, HELLO_FIRST, HELLO_TWICE,
            "A message must be sent as text, not as binary data."}


def test_hostile_frames_get_one_sentence_each_floods_are_cut_and_other_tabs_go_on(server: Running) -> None:
    calm, flood, big = (Page(server.port) for _ in range(3))
    hostile = Page(server.port)

    async def script() -> None:
        nonlocal hostile
        try:
            await sign_in(calm, "Cal")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await Page(server.port).open(origin="http://evil.example")
            assert refused.value.status == 403
            await hostile.open()
            mark = await hostile.send({"type": "key", "key": "down"})
            await hostile.hears(HELLO_FIRST, since=mark)
            await hostile.hello(name="<img src=x onerror=alert(1)>",
                                settings={"session": {"pace": "fast", "rate": 10**9}, "voice": "yes"})
            await hostile.hears(lambda s: s.startswith("Type the name the others will hear"))
            keep = hostile.last("keep")
            assert keep["name"] == "" and keep["settings"]["session"]["pace"] == 1.5  # the defaults
            for frame, sentence in [
                ("not json", NOT_JSON), ("[1, 2]", NOT_JSON), ('{"type": 5}', NOT_JSON), ("{" * 3000, NOT_JSON),
                ('{"type": "launch"}', UNKNOWN), ('{"type": "key", "key": "z", "also": 1}', WRONG_FIELDS),
                ('{"type": "key"}', WRONG_FIELDS), ('{"type": "key", "key": 5}', BAD_VALUE),
                ('{"type": "key", "key": "ctrl-alt-delete"}', BAD_VALUE), ('{"type": "key", "key": "\\u0007"}',
                                                                           BAD_VALUE),
                ('{"type": "line", "text": "' + "x" * 301 + '"}', BAD_VALUE),
                ('{"type": "line", "text": "a\\u001b[2Jb"}', BAD_VALUE),
                ('{"type": "choose", "list": "menu", "index": true}', BAD_VALUE),
                ('{"type": "choose", "list": "menu", "index": -1}', BAD_VALUE),
                ('{"type": "choose", "list": "deck", "index": 0}', BAD_VALUE),
                ('{"type": "hello", "token": "", "name": "", "settings": null}', HELLO_TWICE),
                (b"\x00\x01binary", "A message must be sent as text, not as binary data."),
            ]:
                if sum(1 for said in hostile.said if said in REFUSALS) >= 9:  # ten refused close the socket
                    await hostile.close()
                    hostile = Page(server.port)
                    await hostile.open()
                    await hostile.hello()
                mark = await hostile.send(frame)
                await hostile.hears(sentence, since=mark)
            mark = await hostile.send({"type": "choose", "list": "hand", "index": 3})
            await hostile.hears(NOT_NOW, since=mark)
            mark = await hostile.send({"type": "line", "text": "<b>Eve</b>"})  # the name's own check answers
            await hostile.hears(lambda s: s.startswith("A name"), since=mark)
            for _ in range(10):  # refused, and refused again: the socket is closed
                await hostile.send("not json")
            await until(lambda: hostile.closed is not None, "the hostile tab's close")
            assert hostile.socket is not None and hostile.socket.close_code == 1008

            await flood.open()
            await flood.hello()
            await flood.screen(lambda s: s["typing"] is not None)
            mark = len(flood.got)
            for _ in range(60):  # a key held down: up arrow reads the line back, once a key
                await flood.send({"type": "key", "key": "up"})
            await asyncio.sleep(2)
            answered = sum(1 for m in flood.got[mark:] if m["type"] == "say" and m["text"].startswith("Your name"))
            assert 0 < answered <= KEYS_A_SECOND + 5, answered

            await big.open()
            await big.hello()
            await big.send({"type": "line", "text": "x" * MAX_FRAME})
            await until(lambda: big.closed is not None, "the big frame's close")
            assert big.socket is not None and big.socket.close_code == 1009

            mark = await calm.send({"type": "key", "key": "down"})  # the other tab never noticed
            await calm.hears("Join a table by its code. 2 of 7.", since=mark)
        finally:
            for page in (calm, hostile, flood, big):
                await page.close()

    asyncio.run(script())


def test_with_a_certificate_the_page_is_served_over_tls_and_its_sessions_trust_the_servers_own_certificate(
        tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make the test's certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    # the certificate names another host, as a real one would: the loopback connection must still trust it
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=crib.example.org", "-addext", "subjectAltName=DNS:crib.example.org,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    running = Running(tmp_path / "data", "--certfile", str(cert), "--keyfile", str(key))
    page = Page(running.port, ssl.create_default_context(cafile=str(cert)))

    async def script() -> None:
        try:
            await sign_in(page, "Tia")
            assert page.base.startswith("https://")
        finally:
            await page.close()

    try:
        assert f"In a web browser, friends open https://127.0.0.1:{running.port}/ and play there." in running.lines
        asyncio.run(script())
    finally:
        running.stop()
