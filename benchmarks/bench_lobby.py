"""What one ``lobby`` costs the server, before and after the lobby's board (`audiocrib.server.lobby`), at 100 and
1,000 public tables: CPU time for each answer (made and encoded as JSON) and its size in bytes.

Run from the repository root::

    .venv/bin/python benchmarks/bench_lobby.py

Before: the answer built from the store for each request, as ``Server._lobby`` did until issue 25 (a query for
the tables, one for each host's name, the first hundred tables sent). After: a page of twenty from the board,
three ways: asked again with nothing changed (the same page, its text kept), asked after one table changed (the
page made and encoded again), and one table's change itself (`Board.table_changed`: the table read again from the
store). The store is a file in a temporary folder, as a server's is; a third of the tables are under way. CPU time
is `time.process_time` over many answers, divided; compare the figures of one run, not of runs on different days.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from audiocrib.engine.rules import Rules
from audiocrib.online import messages as m
from audiocrib.server.lobby import Board
from audiocrib.server.records import Status, Table
from audiocrib.server.store import Seat, Store

PEOPLE = [f"Player{n}" for n in range(60)]


def before(store: Store) -> str:
    """The lobby as the server made it before issue 25 (`Server._lobby` and `_summary`, unchanged)."""
    tables = [t for t in store.tables(Status.OPEN, Status.PLAYING) if t.public]
    shown = tables[: m.MAX_LOBBY_TABLES]
    people = sorted(set(PEOPLE), key=str.casefold)

    def summary(table: Table) -> m.TableSummary:
        host = store.player(table.host)
        return m.TableSummary(table.id, host.name if host else "nobody", table.rules, len(table.open_seats),
                              sum(1 for s in table.seats if s.computer is not None), table.status is Status.PLAYING)

    return m.encode(m.Lobby(tuple(summary(t) for t in shown), len(tables) - len(shown), tuple(people[: m.MAX_PEOPLE])))


def cpu_each(work: Callable[[], object], seconds: float = 1.0) -> float:
    """CPU seconds one call of ``work`` takes, over as many calls as fit in about ``seconds``."""
    calls, started = 0, time.process_time()
    while time.process_time() - started < seconds:
        work()
        calls += 1
    return (time.process_time() - started) / calls


def fill(store: Store, count: int) -> list[int]:
    """``count`` public tables of two to four seats, three to a host; every third one under way (its host and
    computer players)."""
    numbers = []
    for n in range(count):
        if n % 3 == 0:
            host, _ = store.add_player(f"Host{n // 3}")
        players, playing = 2 + n % 3, n % 3 == 2
        others = [Seat(computer="easy", name=f"Computer{k}") if playing or k == 0 else Seat()
                  for k in range(players - 1)]
        table = store.add_table(host.id, Rules(players=players), [Seat(host.id, name=host.name), *others])
        if playing:
            store.start(table.id)
        numbers.append(table.id)
    return numbers


def measure(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "store.sqlite") as store:
        numbers = fill(store, count)
        old = before(store)
        board = Board(store)

        def again() -> str:
            return board.text(board.page(1, lambda: PEOPLE))

        def changed() -> str:
            board.table_changed(numbers[0])
            return again()

        page = again()
        print(f"{count:>5} tables  before: {cpu_each(lambda: before(store)) * 1e3:7.2f} ms, {len(old):>6} bytes"
              f"  |  after, page asked again: {cpu_each(again) * 1e6:6.2f} us, after a change: "
              f"{cpu_each(changed) * 1e6:6.0f} us (of which the change alone "
              f"{cpu_each(lambda: board.table_changed(numbers[0])) * 1e6:4.0f} us), {len(page):>5} bytes")


def main() -> None:
    for count in (100, 1000):
        measure(count)


if __name__ == "__main__":
    main()
