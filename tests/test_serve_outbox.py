"""Nobody is told of a write before it is on disk, though the event loop never waits for the disk: the server
commits to the store's write-ahead log at once and its outbox holds every message until one fsync, on a thread
of its own, covers the commits that message follows. Here the store's ``sync`` is held shut, on a real file and a
real server on loopback, to see what waits for it; and a disk that refuses an fsync stops the server before
anyone hears of what it may have lost."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from audiocrib.server.app import Server, make_app
from audiocrib.server.store import Store
from tests.test_serve import ask, create, hello, run


class HeldStore(Store):
    """A real store on a file whose fsyncs wait until ``opened`` is set."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, later=True)
        self.opened = threading.Event()
        self.syncs = 0

    def sync(self) -> None:
        self.opened.wait(20)
        super().sync()
        self.syncs += 1


async def serving(store: Store) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(make_app(Server(store)))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"ws://127.0.0.1:{runner.addresses[0][1]}/play"


async def nothing_for(socket: aiohttp.ClientWebSocketResponse, seconds: float) -> None:
    with pytest.raises(TimeoutError):
        message = await socket.receive(timeout=seconds)
        raise AssertionError(f"told before it was on disk: {message.data!r}")


def test_a_welcome_waits_for_the_fsync_of_the_new_players_row_and_answers_keep_their_order(tmp_path: Path) -> None:
    store = HeldStore(tmp_path / "server.sqlite3")

    async def go() -> None:
        runner, url = await serving(store)
        try:
            async with aiohttp.ClientSession() as session, session.ws_connect(url) as socket:
                await socket.send_json(hello("Ann"))
                await nothing_for(socket, 0.5)  # the player is in the log, not yet on disk: no welcome
                await socket.send_json(create(True))  # a second commit, and a ping that writes nothing
                await socket.send_json({"type": "ping", "number": 3})
                await nothing_for(socket, 0.3)  # the pong waits behind what came before it
                commits = store.commits
                store.opened.set()
                got = [(await socket.receive_json(timeout=10))["type"] for _ in range(3)]
                assert got == ["welcome", "table", "pong"]
                assert store.syncs < commits, (store.syncs, commits)  # the held commits shared their fsync
                assert await ask(socket, {"type": "ping", "number": 4}) == {"type": "pong", "number": 4}
        finally:
            await runner.cleanup()
    try:
        run(go())
    finally:
        store.close()
    with Store(tmp_path / "server.sqlite3") as again:  # what was told is in the file
        assert again.tables() and again.player(1) is not None


FAILING = textwrap.dedent("""
    import asyncio, errno, sys
    from aiohttp import web
    from audiocrib.server.app import Server, make_app
    from audiocrib.server.store import Store

    class FailingStore(Store):
        def sync(self):
            raise OSError(errno.EIO, "Input/output error")

    async def main():
        store = FailingStore(sys.argv[1], later=True)
        runner = web.AppRunner(make_app(Server(store)))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        print(runner.addresses[0][1], flush=True)
        await asyncio.sleep(60)

    asyncio.run(main())
""")


def test_a_disk_that_refuses_an_fsync_stops_the_server_before_anyone_hears_of_the_write(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", FAILING, str(tmp_path / "server.sqlite3")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline())

        async def go() -> list[Any]:
            async with aiohttp.ClientSession() as session, \
                    session.ws_connect(f"ws://127.0.0.1:{port}/play") as socket:
                await socket.send_json(hello("Bea"))
                got = []
                async for message in socket:
                    got.append(message.data)
                return got
        assert run(go()) == []  # never welcomed: the connection just ends
        assert process.wait(timeout=20) == 1
        assert "the disk refused to keep the games (Input/output error)" in process.stderr.read()
    finally:
        process.kill()
        process.wait()


def test_a_store_that_writes_each_to_disk_needs_no_sync() -> None:
    with Store(":memory:", later=True) as store:
        store.add_player("Cy")
        store.sync()  # nothing to do, and no log file to open
        assert store.commits >= 2


def test_the_outbox_is_left_empty_when_the_server_stops(tmp_path: Path) -> None:
    store = HeldStore(tmp_path / "server.sqlite3")
    store.opened.set()

    async def go() -> None:
        runner, url = await serving(store)
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as socket:
            assert (await ask(socket, hello("Di")))["type"] == "welcome"
            store.opened.clear()
            commits = store.commits
            await socket.send_json(create(False))
            while store.commits == commits:  # the table is in the log; its fsync is held
                await asyncio.sleep(0.01)
            threading.Timer(0.3, store.opened.set).start()
            await runner.cleanup()  # the shutdown makes it durable, sends what was held, then closes, saying why
            kinds = []
            async for message in socket:
                kinds.append(message.json()["type"])
            assert kinds == ["table"]
            assert socket.close_code == 1001
    try:
        run(go())
    finally:
        store.close()
