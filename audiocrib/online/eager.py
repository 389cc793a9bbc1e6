"""Sending without a task where nothing waits: both ends of a connection (the server's outbox, the browser page's
gateway, a session's link) write a message at once when the socket takes it at once, which it nearly always
does, and make a task only for the rest of a send that must wait for a slow reader."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

__all__ = ["started_now"]


def started_now(coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run ``coroutine`` here and now, up to its first real wait (as Python 3.12's eager tasks do): None if it ended
    there, else the task that runs the rest. What it raises before it first waits is raised here.

    Sending a frame where the socket takes it at once (nearly always) then costs no task, no wake-up and no
    wait, which a loop serving a thousand browser tabs pays for at every key."""
    try:
        waiting = coroutine.send(None)
    except StopIteration:
        return None
    except BaseException:
        coroutine.close()
        raise
    return asyncio.ensure_future(_resumed(coroutine, waiting))


async def _resumed(coroutine: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Run ``coroutine`` on to its end from where it yielded ``waiting`` (an asyncio future it awaits, or None
    where it only let others run), as the task running it would have."""
    while True:
        try:
            if waiting is None:
                await asyncio.sleep(0)
            else:
                waiting._asyncio_future_blocking = False  # taken, as a task takes what its coroutine yields
                await waiting
        except BaseException as error:  # what it waited for failed, or this task is cancelled: raised where it waited
            try:
                waiting = coroutine.throw(error)
            except StopIteration:
                return
        else:
            try:
                waiting = coroutine.send(None)
            except StopIteration:
                return
