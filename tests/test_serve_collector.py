"""The server keeps the garbage collector's pauses short: a full collection only after many young ones (what lives
ten seconds is frozen out of its sight anyway), so the full collections that stopped every table for up to a
fifth of a second at 1,000 tables come ten times more rarely (docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
import gc

from aiohttp import web

from audiocrib.server.app import FULL_COLLECTION_EVERY, Server, make_app
from audiocrib.server.store import Store
from tests.test_serve import run


def test_a_running_server_collects_its_oldest_generation_rarely() -> None:
    gc.set_threshold(700, 10, 10)  # Python's defaults (an earlier server in this process may have changed them)
    before = gc.get_threshold()

    async def go() -> None:
        with Store(":memory:") as store:
            runner = web.AppRunner(make_app(Server(store)))
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            try:
                await asyncio.sleep(0.05)
                assert gc.get_threshold() == (before[0], before[1], FULL_COLLECTION_EVERY)
            finally:
                await runner.cleanup()

    try:
        run(go())
    finally:
        gc.set_threshold(*before)
