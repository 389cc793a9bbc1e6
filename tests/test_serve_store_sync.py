"""The store's group sync: commits are ``synchronous=NORMAL`` (safe from a kill of the server) and `Store.synced`
puts them on disk with one fsync shared by every caller waiting meanwhile, so the server can wait for it before
sending (nobody hears of a move before it is on disk) at one fsync per round of the loop, not one per move."""

from __future__ import annotations

import asyncio
from pathlib import Path

from audiocrib.engine.rules import Rules
from audiocrib.server.store import Seat, Store


class Watched(Store):
    """A store on a real file that notes, at the start of each fsync, how many commits it was made after."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.fsync_after: list[int] = []

    def _fsync_wal(self) -> None:
        self.fsync_after.append(self.commits)
        super()._fsync_wal()


def tables(store: Store, count: int) -> list[int]:
    ann, _ = store.add_player("Ann")
    seats = [Seat(ann.id, name="Ann"), Seat(computer="easy", name="Easy")]
    return [store.add_table(ann.id, Rules(), seats).id for _ in range(count)]


def test_many_movers_share_one_fsync_and_each_returns_only_after_an_fsync_begun_after_its_commit(
        tmp_path: Path) -> None:
    with Watched(tmp_path / "server.sqlite3") as store:
        numbers = tables(store, 40)
        returned: list[tuple[int, int]] = []  # (the commit a mover waited for, the fsyncs begun after it by then)

        async def mover(table: int) -> None:
            await asyncio.sleep(0)
            store.start(table)  # one commit, then wait for the disk as the server does before sending
            mine = store.commits
            await store.synced()
            returned.append((mine, sum(1 for after in store.fsync_after if after >= mine)))

        async def go() -> None:
            await asyncio.gather(*(mover(n) for n in numbers))
        asyncio.run(go())
        assert len(returned) == 40 and all(covered >= 1 for _, covered in returned), returned
        assert store.synced_commits == store.commits
        assert store.fsyncs == len(store.fsync_after) <= 3, store.fsync_after  # 40 commits, a shared fsync or two
        before = store.fsyncs
        asyncio.run(store.synced())  # nothing new: no fsync
        assert store.fsyncs == before


def test_a_store_with_full_sync_or_in_memory_is_synced_at_each_commit(tmp_path: Path) -> None:
    for store in (Store(tmp_path / "full.sqlite3", group_sync=False), Store(":memory:")):
        with store:
            tables(store, 3)
            assert store.commits >= 3 and store.synced_commits == store.commits
            asyncio.run(store.synced())
            assert store.fsyncs == 0
