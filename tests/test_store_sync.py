"""The store's writes on disk without an fsync on the event loop for each move: each write committed at once (safe
from a kill), one fsync of the ``-wal`` shared by the commits made while the last one ran (safe from a power cut),
the server sending nothing before it, and the ``-wal`` folded into the file by the store's own thread."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.engine.rules import Rules
from audiocrib.server import store as store_module
from audiocrib.server.store import Store
from tests.test_serve import ask, create, hello, run
from tests.test_store import move, open_table


class Fsyncs:
    """The real `os.fsync`, counted, and held back while ``gate`` is clear (to see who waits for the disk)."""

    def __init__(self) -> None:
        self.real = os.fsync
        self.calls = 0
        self.gate = threading.Event()
        self.gate.set()
        self.waiting = threading.Event()

    def __call__(self, fd: int) -> None:
        if not self.gate.is_set():
            self.waiting.set()
            assert self.gate.wait(30)
        self.real(fd)
        self.calls += 1


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> Iterator[Fsyncs]:
    spy = Fsyncs()
    monkeypatch.setattr(os, "fsync", spy)
    yield spy
    spy.gate.set()


def test_the_commits_of_many_tables_share_one_fsync_and_a_later_commit_waits_for_the_next(
        tmp_path: Path, fsyncs: Fsyncs) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        tables = [open_table(store)[0] for _ in range(5)]
        games = {table.id: store.start(table.id) for table in tables}

        async def go() -> None:
            await store.synced()
            before = fsyncs.calls
            for table_id, game in games.items():
                move(store, table_id, game)
            assert store.unsynced == 5
            await asyncio.gather(*(store.synced() for _ in games))
            assert (fsyncs.calls - before, store.unsynced) == (1, 0)
            await store.synced()  # nothing new: no fsync
            assert fsyncs.calls - before == 1

            fsyncs.gate.clear()  # an fsync under way; a commit made meanwhile is not covered by it
            table_id, game = next(iter(games.items()))
            move(store, table_id, game)
            first = asyncio.ensure_future(store.synced())
            await asyncio.get_running_loop().run_in_executor(None, fsyncs.waiting.wait, 10)
            move(store, table_id, game)
            second = asyncio.ensure_future(store.synced())
            await asyncio.sleep(0.2)
            assert not first.done() and not second.done()  # both wait for the disk
            fsyncs.gate.set()
            await first
            await second
            assert (fsyncs.calls - before, store.unsynced) == (3, 0)

        run(go())


def test_those_waiting_for_the_disk_are_let_go_in_the_order_they_asked(tmp_path: Path, fsyncs: Fsyncs) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        tables = [open_table(store)[0] for _ in range(3)]
        games = {table.id: store.start(table.id) for table in tables}

        async def go() -> None:
            await store.synced()
            order: list[int] = []
            waiting = []
            fsyncs.gate.clear()
            for number, (table_id, game) in enumerate([*games.items()] * 10):
                if number % 3 != 2:  # some commit, some only wait (a catch-up, a chat)
                    move(store, table_id, game)
                task = asyncio.ensure_future(store.synced())
                task.add_done_callback(lambda _task, number=number: order.append(number))
                waiting.append(task)
                await asyncio.sleep(0)
            await asyncio.get_running_loop().run_in_executor(None, fsyncs.waiting.wait, 10)
            waiting[5].cancel()  # one who stops waiting holds up nobody
            fsyncs.gate.set()
            await asyncio.gather(*waiting, return_exceptions=True)
            assert order == [n for n in range(30) if n != 5] or order == [5, *(n for n in range(30) if n != 5)]
            assert store.unsynced == 0

            for table_id, game in games.items():  # one fsync covers them all: they are let go together
                move(store, table_id, game)
            fsyncs.gate.clear()
            waiting = [asyncio.ensure_future(store.synced()) for _ in range(30)]
            await asyncio.get_running_loop().run_in_executor(None, fsyncs.waiting.wait, 10)
            rounds = 0

            async def count() -> None:  # the event loop's rounds from the first let go to the last
                nonlocal rounds
                while not all(task.done() for task in waiting):
                    rounds += any(task.done() for task in waiting)
                    await asyncio.sleep(0)

            counting = asyncio.ensure_future(count())
            fsyncs.gate.set()
            await asyncio.gather(*waiting, counting)
            assert rounds <= 2, rounds  # not one a round of the loop, which would hold the last up for long

        run(go())


def test_each_commit_is_in_the_wal_at_once_and_the_stores_thread_folds_it_into_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "CHECKPOINT_SECONDS", 0.3)
    path = tmp_path / "server.sqlite3"
    with Store(path) as store:
        assert (store._db.execute("PRAGMA synchronous").fetchone()[0],
                store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]) == (1, 0)  # NORMAL; not the commits'
        table, _people = open_table(store, Rules())
        game = store.start(table.id)
        for _ in range(30):
            move(store, table.id, game)
        deadline = time.monotonic() + 10
        while True:  # the file alone, without its -wal, as the checkpoint thread leaves it
            shutil.copy(path, tmp_path / "alone.sqlite3")
            found = events_in(tmp_path / "alone.sqlite3", table.id)
            if found == len(game.events) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert found == len(game.events)
        assert store.game(table.id).events == game.events


def test_the_file_alone_has_no_move_until_a_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commits themselves never fold the -wal in (that would be two fsyncs on the event loop)."""
    monkeypatch.setattr(store_module, "CHECKPOINT_SECONDS", 3600.0)
    path = tmp_path / "server.sqlite3"
    with Store(path) as store:
        table, _people = open_table(store, Rules())
        game = store.start(table.id)
        for _ in range(400):
            if game.over:
                break
            move(store, table.id, game)
        shutil.copy(path, tmp_path / "alone.sqlite3")
        assert events_in(tmp_path / "alone.sqlite3", table.id) == 0
    with Store(path) as store:  # closed cleanly: everything is in the file
        assert store.game(table.id).events == game.events


def test_the_server_sends_a_moves_news_only_once_it_is_on_disk(tmp_path: Path, fsyncs: Fsyncs) -> None:
    """In this process, on a real socket: with the fsync held back, the news of a move does not come; it comes once
    the fsync is done."""
    from aiohttp import web

    from audiocrib.server.app import Server, make_app

    async def go() -> None:
        with Store(tmp_path / "server.sqlite3") as store:
            runner = web.AppRunner(make_app(Server(store)))
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = runner.addresses[0][1]
            try:
                async with aiohttp.ClientSession() as session, \
                        session.ws_connect(f"ws://127.0.0.1:{port}/play") as socket:
                    await ask(socket, hello("Una"))
                    await ask(socket, create(False, ("person", "easy")))
                    await socket.send_str(json.dumps({"type": "start"}))
                    view = await until_view(socket)
                    seat = view["seat"]
                    fsyncs.gate.clear()
                    await socket.send_str(json.dumps({"type": "move", "action": {
                        "kind": "discard", "seat": seat, "cards": view["hand"][:2]}}))
                    with pytest.raises(asyncio.TimeoutError):
                        await socket.receive(timeout=0.5)
                    assert fsyncs.waiting.is_set() and store.unsynced >= 1  # written, not yet on disk: not told
                    fsyncs.gate.set()
                    news = json.loads((await socket.receive(timeout=10)).data)
                    assert news["type"] == "news" and news["events"][0]["kind"] == "discarded"
                    assert store.unsynced == 0
            finally:
                await runner.cleanup()

    run(go())


def events_in(path: Path, table: int) -> int:
    """How many events of ``table`` the file at ``path`` holds (0 if it has no log yet)."""
    alone = sqlite3.connect(path)
    try:
        if not alone.execute("SELECT 1 FROM sqlite_schema WHERE name = 'events'").fetchone():
            return 0
        found: int = alone.execute("SELECT COUNT(*) FROM events WHERE table_id = ?", (table,)).fetchone()[0]
        return found
    finally:
        alone.close()


async def until_view(socket: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    while True:
        message = json.loads((await socket.receive(timeout=10)).data)
        if message["type"] == "view":
            view: dict[str, Any] = message["view"]
            return view
