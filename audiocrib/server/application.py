"""The aiohttp application around the `Server`: the WebSocket endpoint at `PATH`, the browser's pages when given,
the games under way set going on start, the requests of ``audiocrib admin`` served, and the garbage collector kept
from stopping every table (`short_collections`)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import Protocol, TypeVar

from aiohttp import web

from audiocrib.server.moderating import Moderation
from audiocrib.server.tables import Tables

__all__ = ["FULL_COLLECTION_EVERY", "PATH", "Served", "make_app", "short_collections"]


class Served(Protocol):
    """What the application needs of the server (`audiocrib.server.app.Server`)."""

    tables: Tables
    moderation: Moderation

    async def handle(self, request: web.Request) -> web.StreamResponse: ...

    async def close_all(self) -> None: ...


S = TypeVar("S", bound=Served)

PATH = "/play"
"""Where the WebSocket endpoint listens."""
SERVER_KEY: web.AppKey[Served] = web.AppKey("server")


FREEZE_SECONDS = 10.0
FULL_COLLECTION_EVERY = 1000
"""Collections of the middle generation before a full one (Python's default is 10): what lives ten seconds is frozen
anyway, and a full collection of the rest stopped every table for up to 0.18 s at 1,000 tables
(docs/benchmarks.md)."""


async def short_collections() -> None:
    """Every few seconds, put what has lived that long out of the garbage collector's sight (`gc.freeze`), and
    collect the oldest generation rarely (`FULL_COLLECTION_EVERY`). A gateway process runs it too
    (`audiocrib.web.standalone`): its sessions are as many objects, and a full collection of them stopped every
    tab for up to 0.3 s at 500 tabs.

    The tables' logs are many small objects that live as long as their games; a full collection walks them all,
    stopping the one event loop, and so every table, for up to most of a second at a thousand tables. Frozen
    objects are still freed by their reference counts (the logs hold no cycles); only cycles among them would
    stay, and the server makes few.
    """
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    while True:
        await asyncio.sleep(FREEZE_SECONDS)
        gc.freeze()


async def _front(request: web.Request) -> web.Response:
    return web.Response(text=f"This is an audiocrib server. Connect to it from audiocrib, at {PATH}.\n")


def make_app(server: S, pages: Callable[[web.Application, S], None] | None = None) -> web.Application:
    """The aiohttp application: the WebSocket endpoint at `PATH`, and ``pages`` (without them a plain sentence at
    ``/``); on start, every game under way is set going again (`Tables.wake_all`)."""
    app = web.Application()
    served: Served = server
    app[SERVER_KEY] = served
    app.router.add_get(PATH, server.handle)
    if pages is not None:
        pages(app, server)
    else:
        app.router.add_get("/", _front)

    keeping: list[asyncio.Task[None]] = []

    async def starting(_app: web.Application) -> None:
        server.tables.wake_all()
        keeping.append(asyncio.get_running_loop().create_task(short_collections()))
        keeping.append(asyncio.get_running_loop().create_task(server.moderation.serve_requests()))

    async def closing(_app: web.Application) -> None:
        for task in keeping:
            task.cancel()
        await server.close_all()

    app.on_startup.append(starting)
    app.on_shutdown.append(closing)
    return app
