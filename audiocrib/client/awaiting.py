"""The shell's blocking calls made awaitable, so that many shells can run as tasks on one event loop.

The shell is written as plain calls: a key pressed sends a move and waits for the server's answer before it says
anything (`audiocrib.client.link.Link.request`). In the terminal that wait blocks the shell's own thread. Where a
server runs the shells of many browser tabs (`audiocrib.web`), each shell runs instead inside a greenlet (a
light coroutine of the `greenlet` package, with a stack of its own) driven by an asyncio task: `run_shell` calls the
shell's code, and when that code reaches a wait it calls `wait_here` with an awaitable, which suspends the greenlet
and hands the awaitable to the task; the task awaits it on the event loop, while every other tab and table goes
on, and resumes the greenlet with its result (or its exception).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

import greenlet

__all__ = ["in_shell_task", "run_shell", "wait_here"]

P = ParamSpec("P")
T = TypeVar("T")


class _ShellGreenlet(greenlet.greenlet):
    """A greenlet running the shell's code for `run_shell` (its parent is the task's greenlet)."""


async def run_shell(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``function(*args, **kwargs)`` run to its end; each `wait_here` inside it is awaited here, on this task."""
    shell = _ShellGreenlet(function, greenlet.getcurrent())
    step: Any = shell.switch(*args, **kwargs)
    while not shell.dead:
        try:
            result = await step
        except BaseException as error:  # the awaitable's failure is raised where the shell waited
            step = shell.throw(error)
        else:
            step = shell.switch(result)
    return step  # type: ignore[no-any-return]


def in_shell_task() -> bool:
    """True when running inside `run_shell` (where `wait_here` may be called)."""
    return isinstance(greenlet.getcurrent(), _ShellGreenlet)


def wait_here(awaitable: Awaitable[T]) -> T:
    """The result of ``awaitable``, awaited by the task that runs this shell (`run_shell`), while the event loop
    runs everything else; a `RuntimeError` outside `run_shell`."""
    current = greenlet.getcurrent()
    if not isinstance(current, _ShellGreenlet):
        raise RuntimeError("wait_here is called only from code run by run_shell.")
    task = current.parent
    assert task is not None  # the task's greenlet outlives the shell's
    return task.switch(awaitable)  # type: ignore[no-any-return]
