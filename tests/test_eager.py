"""`started_now`: a coroutine run at once up to its first real wait, the rest (what it waits for, its failure,
its cancelling) carried on by a task exactly as a task started with it would have."""

from __future__ import annotations

import asyncio

import pytest

from audiocrib.online.eager import started_now


def test_a_coroutine_that_never_waits_runs_to_its_end_at_once_with_no_task() -> None:
    async def script() -> None:
        done: list[str] = []

        async def quick() -> None:
            done.append("sent")

        assert started_now(quick()) is None
        assert done == ["sent"]  # before anything else on the loop ran

        async def refused() -> None:
            raise ConnectionResetError("gone")

        with pytest.raises(ConnectionResetError):
            started_now(refused())

    asyncio.run(script())


def test_a_coroutine_that_waits_is_finished_by_a_task_with_what_it_waited_for() -> None:
    async def script() -> None:
        order: list[object] = []
        ready = asyncio.Event()
        answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def slow() -> None:
            order.append("began")
            await ready.wait()  # a future of asyncio's own, already marked as awaited
            order.append(await answer)
            await asyncio.sleep(0)  # a bare yield
            try:
                await asyncio.get_running_loop().create_future()  # never done: cancelled below
            except asyncio.CancelledError:
                order.append("cancelled")
                raise

        task = started_now(slow())
        assert task is not None and order == ["began"]
        ready.set()
        answer.set_result(7)
        for _ in range(5):
            await asyncio.sleep(0)
        assert order == ["began", 7] and not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert order == ["began", 7, "cancelled"]

        failing: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def fails() -> None:
            try:
                await failing
            except ValueError as error:
                order.append(str(error))

        task = started_now(fails())
        assert task is not None
        failing.set_exception(ValueError("refused"))
        await task
        assert order[-1] == "refused"

    asyncio.run(script())
