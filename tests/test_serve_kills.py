"""Nothing is lost when the server is killed: ``audiocrib serve`` is SIGKILLed at random moments (seeded) while two
tables play, each with two people (scripted network clients) and a computer player, and started again on the same
data folder and port each time. The people's clients connect again by themselves, with backoff, and go on from the
catch-up the server sends. After each kill every table's log in the store goes on from the log at the kill before
and holds every event any person was told; at the end each game is over, its log identical to what the people were
told. At full size (``AUDIOCRIB_SOAK_SCALE=1``, `tests.conftest`) the server is killed 30 times; the suite kills it a
share of that, 10 times at least."""

from __future__ import annotations

import asyncio
import random
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from audiocrib.engine.events import event_to_json
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from tests.netplayers import NetPlayer, session_from
from tests.test_serve import Running

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SIGKILL, and loopback addresses beyond 127.0.0.1")

KILLS = 30
"""Kills at full size."""
LEAST_KILLS = 10
"""The fewest at any scale."""
TABLES = 2
SEED = 15


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Killing:
    """The server, killed and started again; what the store held at the last kill; and the games played."""

    def __init__(self, folder: Path, wanted: int) -> None:
        self.folder = folder
        self.wanted = wanted  # kills to make
        self.port = free_port()
        self.log = folder.parent / "server.log"  # every server's stderr, one after another
        self.server = Running(folder, "--port", str(self.port), log=self.log)  # the last --port given is used
        self.url = self.server.url
        self.kills: list[int] = []  # at each kill, how many games were under way
        self.killed_at: list[float] = []  # when, on the event loop's clock
        self.logs: dict[int, list[dict[str, Any]]] = {}  # each table's log at the last kill
        self.games: list[tuple[int, list[NetPlayer]]] = []
        self.playing: dict[int, list[NetPlayer]] = {}
        self.quiet = asyncio.Lock()  # held while a table is set up, and while the server is down and checked

    async def kill_again_and_again(self, rng: random.Random) -> None:
        while len(self.kills) < self.wanted:
            await asyncio.sleep(rng.uniform(0.1, 2.0))
            async with self.quiet:
                under_way = sum(1 for people in self.playing.values() if not all(p.won for p in people))
                if not under_way:  # both tables between games: the next moment will do
                    continue
                self.kills.append(under_way)
                self.killed_at.append(asyncio.get_running_loop().time())
                self.server.process.send_signal(signal.SIGKILL)
                await asyncio.to_thread(self.server.process.communicate, timeout=30)
                assert self.server.process.returncode == -signal.SIGKILL
                self.check_store()
                self.server = await asyncio.to_thread(Running, self.folder, "--port", str(self.port), log=self.log)

    def check_store(self) -> None:
        """Every table's log goes on from the one at the kill before, and holds what each person was told."""
        with Store(self.folder / STORE_FILE) as store:
            for number, people in self.games:
                log = [event_to_json(e) for e in store.game(number).events]  # replayed from the seed and checked
                before = self.logs.get(number, [])
                assert log[:len(before)] == before, f"table {number}'s log changed under a kill"
                self.logs[number] = log
                for person in people:
                    assert person.seat is not None
                    told = person.told
                    assert len(told) <= len(log), f"{person.name} was told of events the store lost"
                    seen = [event_to_json(e.seen_by(person.seat)) for e in store.game(number).events[:len(told)]]
                    assert told == seen, f"{person.name} was told what the store does not hold"

    def diagnosis(self) -> str:
        """What a failure should say: the kills' times, each table's log in the store and what each of its people
        was told and last heard, and the end of the servers' log."""
        lines = [f"kills at {[round(t, 2) for t in self.killed_at]}"]
        with Store(self.folder / STORE_FILE) as store:
            for number, people in self.games[-2 * TABLES:]:
                game = store.game(number)
                lines.append(f"table {number}: {len(game.events)} events in the store, waiting for"
                             f" {game.waiting_for() if not game.over else 'nobody (over)'}")
                lines.extend(f"  {person.name}: {person.lately()}" for person in people)
        lines.append("server log (last 40 lines):")
        lines.extend(self.log.read_text().splitlines()[-40:] if self.log.exists() else [])
        return "\n".join(lines)

    async def table(self, slot: int) -> None:
        """Games one after another at this slot, each two people and a computer player, until the kills are done."""
        names = (f"Host {slot}", f"Guest {slot}")
        tokens: list[str | None] = [None, None]
        async with session_from(f"127.0.0.{20 + slot}") as session:
            number = 0
            while len(self.kills) < self.wanted:
                number += 1
                people = [NetPlayer(name, self.url, seed=SEED * 100 + slot * 10 + number, reconnect=True)
                          for name in names]
                host, guest = people
                async with self.quiet:  # a table is set up while the server runs
                    for person, token in zip(people, tokens, strict=True):
                        person.token = token
                    await host.connect(session)
                    await host.send({"type": "create_table", "rules": {"players": 3, "target": 61},
                                     "seats": ["person", "easy", "person"], "public": True, "move_limit": None})
                    table = await host.expect("table")
                    await guest.connect(session)
                    await guest.send({"type": "join", "table": str(table["number"])})
                    await guest.expect("table")
                    await host.send({"type": "start"})
                    await host.expect("view")
                    tokens = [host.token, guest.token]
                    self.games.append((table["number"], people))
                    self.playing[slot] = people
                await asyncio.gather(host.play(), guest.play())
                for person in people:
                    await person.close()


@pytest.mark.slow
def test_games_survive_kills_at_random_moments(tmp_path: Path, soak_size: Callable[[int, int], int]) -> None:
    wanted = soak_size(KILLS, LEAST_KILLS)
    killing = Killing(tmp_path / "data", wanted)

    async def go() -> None:
        await asyncio.gather(killing.kill_again_and_again(random.Random(SEED)),
                             *(killing.table(slot) for slot in range(TABLES)))
    try:
        asyncio.run(go())
    except AssertionError as failed:
        raise AssertionError(f"{failed}\n{killing.diagnosis()}") from failed
    finally:
        killing.server.stop(signal.SIGKILL)
    assert len(killing.kills) == wanted and all(killing.kills), killing.kills  # each during a game at least
    assert sum(killing.kills) > wanted  # most during both tables' games
    killing.check_store()
    with Store(tmp_path / "data" / STORE_FILE) as store:
        for number, people in killing.games:
            game = store.game(number)
            assert game.over, number
            for person in people:
                assert person.seat is not None and person.won, person.name
                assert person.mismatches == [], "\n".join(person.mismatches)
                assert person.told == [event_to_json(e.seen_by(person.seat)) for e in game.events]
    connections = [p.connections for _, people in killing.games for p in people]
    print(f"{wanted} kills over {len(killing.games)} games; connections of each person: {connections}")
    assert max(connections) > 5, connections  # they connected again by themselves, game after game
