"""Watching a table from the browser: the same shell session as the terminal's, run by the server for a tab, so the
lobby's Enter on a table under way watches it with the same keys. Through the page's socket (tests/web_client.py):
the watcher hears where the game stands and each move, a move key is answered in one sentence, the screen shows no
hand and no Enter button, and the host's "no watchers" sends the watcher to the lobby; and once in real headless
Chromium."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from audiocrib.telling.answers import WATCHING_HAND
from tests.browser_driver import Browser, browser_fixture, wait_until  # noqa: F401 (a fixture)
from tests.test_serve import Running, ask, create, hello, serving
from tests.web_client import Page, lay_away_or_play, make_table, sign_in


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


def test_a_tab_watches_a_table_with_the_tables_keys_and_no_watchers_sends_it_away(server: Running) -> None:
    async def go() -> None:
        ann, carol = Page(server.port), Page(server.port)
        await sign_in(ann, "Ann")
        await make_table(ann)
        await ann.screen(lambda s: s["mode"] == "discard")
        await sign_in(carol, "Carol")
        lobby = carol.last("screen")
        item = next(text for text in lobby["menu"]["items"] if text.startswith("Table 1, Ann's"))
        assert item.endswith("; under way, one computer player; the coach's advice allowed; Enter to watch"), item
        mark = len(carol.got)
        await carol.choose("Table 1, Ann's")
        await carol.hears(lambda s: s.startswith("You are watching table 1. At table 1: Ann, the host; and Expert,"),
                          since=mark)
        await ann.hears("Carol is watching.")
        screen = await carol.screen(lambda s: s["mode"] == "watching", since=mark)
        assert screen["hand"] == [] and screen["enter"] is None and screen["advice"] is None, screen
        assert screen["status"], screen  # the scores, whose turn, whose crib: as s, t and b say them
        for key in ("enter", "3"):
            mark = await carol.send({"type": "key", "key": key})
            await carol.hears(WATCHING_HAND, since=mark)
        mark = len(carol.got)
        await lay_away_or_play(ann, await ann.screen(lambda s: s["mode"] == "discard"))
        await carol.hears(lambda s: "the starter is" in s, since=mark)  # the deal goes on, heard by the watcher
        await ann.key("escape")
        await ann.screen(lambda s: s["mode"] == "game menu")
        await ann.choose("Allow no watchers")
        mark = len(carol.got)
        await carol.hears("Ann allows no watchers at this table.", since=mark)
        await carol.screen(lambda s: s["mode"] == "lobby", since=mark)
        for page in (ann, carol):
            await page.close()

    asyncio.run(go())


def test_a_watcher_in_chromium_hears_the_table_and_a_move_key_says_so(server: Running, browser: Browser) -> None:
    made, done = threading.Event(), threading.Event()

    def host() -> None:  # Ann at /play: a table with a computer player, begun (waiting on her first lay-away)
        async def play() -> None:
            async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as ann:
                await ask(ann, hello("Ann"))
                await ask(ann, create(True, ("person", "easy")))
                await ann.send_str(json.dumps({"type": "start"}))
                made.set()
                while not done.is_set():
                    await asyncio.sleep(0.05)
        asyncio.run(play())

    thread = threading.Thread(target=host)
    thread.start()
    try:
        assert made.wait(20)
        page = browser
        page.open(f"http://127.0.0.1:{server.port}/")
        page.forget()
        page.reload()
        page.type_line("Carol")
        page.hears(lambda text: text.startswith("Lobby: "))
        wait_until(lambda: page.screen().get("mode") == "lobby", "the lobby")
        page.choose("Table 1, Ann's")
        page.hears(lambda text: text.startswith("You are watching table 1."), timeout=20.0)
        wait_until(lambda: page.screen().get("mode") == "watching", "the watcher's screen")
        assert WATCHING_HAND in page.press("enter")
        assert page.script("const b = document.getElementById('advice'); return !b || b.hidden;")
        assert any(text.startswith("At table 1: Ann, the host") and "You are watching." in text
                   for text in page.press("w"))
    finally:
        done.set()
        thread.join(20)
