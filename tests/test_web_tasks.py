"""The browser's sessions as tasks on the server's event loop (issue 26): a real ``audiocrib serve`` with tabs on
``/web`` takes no thread and no loopback socket per tab, its idle tabs do not poll, and what a key's answer says
comes in one frame; and the parts that make it so, `run_shell`/`wait_here` and the in-process connection.

The process figures are read from Linux's /proc (those tests are Linux only).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from aiohttp import WSCloseCode, WSMsgType

import audiocrib.web.gateway as gateway_module
from audiocrib.client.awaiting import in_shell_task, run_shell, wait_here
from audiocrib.client.link import NO_ANSWER
from audiocrib.client.looplink import LoopLink
from audiocrib.online import messages as m
from audiocrib.server.limits import Limits
from audiocrib.web.gateway import Gateway, _Tab
from audiocrib.web.local import LocalEnd, local_pair
from tests.test_serve import Running, serving
from tests.web_client import Page, make_table, sign_in

TABS = 16
"""Tabs from one address (its limit is 20 at once)."""
linux_only = pytest.mark.skipif(sys.platform != "linux", reason="reads the server's figures from /proc")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


def _status(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def _sockets(pid: int) -> int:
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            count += os.readlink(fd).startswith("socket:")
        except OSError:  # closed meanwhile
            pass
    return count


def _switches(pid: int) -> int:
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            lines = (task / "status").read_text().splitlines()
        except OSError:  # a thread that ended meanwhile
            continue
        total += sum(int(line.split()[1]) for line in lines if "ctxt_switches" in line)
    return total


@linux_only
def test_open_tabs_take_no_thread_and_no_loopback_socket_and_idle_tabs_do_not_poll(server: Running) -> None:
    """Sixteen tabs signed in to the lobby: the server has as many threads as before them, one socket more per tab
    (the tab's own), and while they sit idle it hardly wakes (each session sleeps until a key or news). Before,
    each tab had two threads and a loopback connection (two more sockets), and its session looked for news twenty
    times a second."""
    pid = server.process.pid
    pages = [Page(server.port) for _ in range(TABS)]

    async def script() -> tuple[int, int, int, int, float]:
        await sign_in(pages[0], "Warmup")  # the first sign-in starts what the server starts once
        await pages[0].close()
        await asyncio.sleep(0.5)
        threads, sockets = _status(pid, "Threads"), _sockets(pid)
        try:
            for number, page in enumerate(pages):
                await sign_in(page, f"Tab{number}")
            await asyncio.sleep(1.0)
            threads_after, sockets_after = _status(pid, "Threads"), _sockets(pid)
            before = _switches(pid)
            await asyncio.sleep(3.0)
            idle = (_switches(pid) - before) / 3.0
        finally:
            await asyncio.gather(*(page.close() for page in pages))
        return threads, threads_after, sockets, sockets_after, idle

    threads, threads_after, sockets, sockets_after, idle = asyncio.run(script())
    assert threads_after == threads, (threads, threads_after)
    assert sockets_after - sockets == TABS, (sockets, sockets_after)
    assert idle < 40, f"{idle:.0f} context switches a second with {TABS} idle tabs"


def test_a_keys_answer_comes_in_one_frame(server: Running) -> None:
    """At a table, laying away once the computer player has (the game waits for the player): ``s`` is answered
    by one frame holding the stopped speech and the scores said. Before, each message was a frame."""
    page = Page(server.port)

    async def script() -> None:
        try:
            await sign_in(page, "Ann")
            await make_table(page)
            # the computer player lays away too, after its pause: then nothing more happens until the player does
            await page.screen(lambda s: s["mode"] == "discard" and "Everyone else has laid away" in s["status"][1])
            await asyncio.sleep(0.5)  # what the deal said has all come
            scores = page.last("screen")["status"][0]  # the status's first line is what s says
            frames, mark = page.frames, len(page.got)
            await page.send({"type": "key", "key": "s"})
            await page.hears(scores, since=mark)
            await asyncio.sleep(0.5)  # nothing more comes after the answer
            assert page.frames == frames + 1, page.got[mark:]
            kinds = [message["type"] for message in page.got[mark:]]
            assert kinds[0] == "silence" and "say" in kinds, kinds
        finally:
            await page.close()

    asyncio.run(script())


# ----------------------------------------------------------------- the parts
def test_run_shell_awaits_what_the_shells_code_waits_for_while_the_loop_runs_others() -> None:
    """Two shells each wait twice (`wait_here`) inside plain calls; they take turns on one loop, their results
    and a failure come back where they waited, and `wait_here` outside `run_shell` is refused."""
    order: list[str] = []

    def shell(name: str, pause: float) -> str:
        assert in_shell_task()
        order.append(f"{name} starts")
        first = wait_here(asyncio.sleep(pause, result=1))
        order.append(f"{name} woke")
        try:
            wait_here(_fails())
        except ValueError as error:
            return f"{name} {first} {error}"
        return "not reached"

    async def both() -> list[str]:
        return list(await asyncio.gather(run_shell(shell, "slow", 0.05), run_shell(shell, "quick", 0.0)))

    assert asyncio.run(both()) == ["slow 1 refused", "quick 1 refused"]
    assert order == ["slow starts", "quick starts", "quick woke", "slow woke"]
    assert not in_shell_task()
    never = _fails()
    with pytest.raises(RuntimeError):
        wait_here(never)
    never.close()


async def _fails() -> None:
    await asyncio.sleep(0)
    raise ValueError("refused")


def test_an_in_process_connection_keeps_order_and_says_why_it_closed() -> None:
    """Frames arrive in order, those sent before a close still arrive, then the close with its code and reason;
    sending on a closed connection fails as a closed WebSocket's does."""
    async def script() -> None:
        client, served = local_pair()
        for text in ("one", "two"):
            await client.send_str(text)
        assert [(await served.receive()).data for _ in range(2)] == ["one", "two"]
        with pytest.raises(TimeoutError):
            await served.receive(timeout=0.01)
        await served.send_str("last")
        assert await served.close(code=WSCloseCode.POLICY_VIOLATION, message=b"Removed from the server.")
        assert not await served.close()
        assert (await client.receive()).data == "last"
        closing = await client.receive()
        assert (closing.type, closing.data, closing.extra) == (WSMsgType.CLOSE, WSCloseCode.POLICY_VIOLATION,
                                                                "Removed from the server.")
        assert client.closed and client.close_code == WSCloseCode.POLICY_VIOLATION
        with pytest.raises(ConnectionResetError):
            await client.send_str("too late")
        assert (await client.receive()).type is WSMsgType.CLOSED

    asyncio.run(script())


def test_a_loop_links_request_gets_its_answer_or_gives_up_in_time_while_the_loop_runs_on() -> None:
    """A `LoopLink` over an in-process connection to a stand-in server: a request's answers are what came before
    its pong (each message also wakes the link's owner); a request the server never answers gives up after its
    time, saying so, while another task on the loop keeps running."""
    woken: list[int] = []
    heard: list[m.Message] = []

    async def script() -> None:
        client, served = local_pair()

        @contextlib.asynccontextmanager
        async def opener() -> AsyncIterator[LocalEnd]:
            yield client

        async def stand_in_server() -> None:
            hello = m.decode_from_client((await served.receive()).data)
            assert isinstance(hello, m.Hello)
            await served.send_str(m.encode(m.Welcome("Ann", "t" * 32, m.PROTOCOL_VERSION)))
            first = m.decode_from_client((await served.receive()).data)
            ping = m.decode_from_client((await served.receive()).data)
            assert isinstance(first, m.Chat) and isinstance(ping, m.Ping)
            await served.send_message(m.Notice("Heard."))  # handed over as it is, as the server does in-process
            await served.send_str(m.encode(m.Pong(ping.number)))
            await served.receive()  # the second request: never answered
            await served.receive()

        link = LoopLink("ws://localhost:4121/play", lambda: m.Hello("Ann", None, None, m.PROTOCOL_VERSION),
                        heard.append, lambda state: None, opener, lambda: woken.append(1))
        server = asyncio.get_running_loop().create_task(stand_in_server())
        link.start()
        for _ in range(200):
            if link.up:
                break
            await asyncio.sleep(0.01)
        assert link.up
        ticks = 0

        async def ticking() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.get_running_loop().create_task(ticking())
        answered = await run_shell(link.request, m.Chat("Hello."))
        assert answered == [m.Notice("Heard.")]
        gave_up = await run_shell(link.request, m.Chat("Anyone?"), 0.3)
        assert gave_up == NO_ANSWER
        assert ticks >= 10, ticks  # the loop ran on while the shell waited
        ticker.cancel()
        link.close()
        await link.closed()
        server.cancel()

    asyncio.run(script())
    assert woken and heard[:1] == [m.Notice("Heard.")]


class _SlowPage:
    """A page's socket as the gateway's tab sees it, which takes frames at once until ``slow`` is set, then holds
    each send until ``taken`` is set (its buffer full, as when a page stops reading)."""

    def __init__(self) -> None:
        self.frames: list[object] = []
        self.slow = False
        self.taken = asyncio.Event()
        self.closed = False
        self.close_message = b""

    async def send_str(self, data: str) -> None:
        if self.closed:
            raise ConnectionResetError("closed")
        self.frames.append(json.loads(data))
        if self.slow:
            await self.taken.wait()

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        self.closed, self.close_message = True, message
        return True


def test_a_tabs_frames_go_in_order_through_a_slow_page_and_a_page_that_stops_reading_is_closed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def script() -> None:
        page = _SlowPage()
        gateway = Gateway(Limits(), lambda remote: cast(Any, None), "here")
        tab = _Tab(gateway, cast(Any, page), "127.0.0.1")
        tab.send({"n": 0})
        tab.send({"n": 1})  # one go: one frame
        await asyncio.sleep(0)
        assert page.frames == [[{"n": 0}, {"n": 1}]]
        page.slow = True
        for n in range(2, 6):
            tab.send({"n": n})
            await asyncio.sleep(0)
        assert page.frames[1:] == [{"n": 2}]  # the page has not taken it: the rest wait, in order
        page.slow = False
        page.taken.set()
        for _ in range(10):
            await asyncio.sleep(0)
        assert page.frames[1:] == [{"n": n} for n in range(2, 6)]
        assert tab.sending is None and not tab.outbox
        tab.send({"n": 6})  # kept up again: sent at once
        await asyncio.sleep(0)
        assert page.frames[-1] == {"n": 6}

        monkeypatch.setattr(gateway_module, "MOST_OUTBOX", 5)
        page.slow, page.taken = True, asyncio.Event()
        for n in range(7, 20):
            tab.send({"n": n})
            await asyncio.sleep(0)
        for _ in range(10):
            await asyncio.sleep(0)
        assert page.closed and page.close_message == b"The page stopped reading."
        assert page.frames[-1] == {"n": 7}  # nothing after the frame it never took

    asyncio.run(script())
