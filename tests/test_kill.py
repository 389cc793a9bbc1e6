"""Kill the real program at random moments of a scripted game, start it again, and check nothing is lost.

The installed ``audiocrib`` runs in a pseudo-terminal with text lines only. The test plays a steady player's keys
(`tests.autoplay`), chosen from what the program's own autosave says: the moment and the game. At a random instant
(during the start, a resume, a key, a computer player's move or a write of the save; a third of them timed from the
launch, the others from the main menu) the process gets SIGKILL.
After every kill:

- the save on disk is readable (never set aside as damaged) and its game is a beginning of the same game played
  without a break (`reference`): the same cards, the same moves so far;
- started again, the program offers it, resumes it with the messages heard before the kill, and the game it goes
  on with is still a beginning of that same game.

Each table's game takes a third of the kills and is then played to its end without one: the statistics must hold
its result. At full size (``AUDIOCRIB_SOAK_SCALE=1``, `tests.conftest`) the program is killed 51 times; the suite
kills it a share of that, 15 times at least (five in each table's game).
"""

from __future__ import annotations

import json
import os
import pty
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from audiocrib.engine.game import Game
from audiocrib.shell.savedgame import SavedTable
from audiocrib.shell.settings import Settings, SettingsFile
from audiocrib.shell.tablesetup import TableSetup
from tests.autoplay import keys_for, read_save, where_it_stands
from tests.shell_driver import KEY_BYTES, Table, run

PROGRAM = Path(sys.executable).parent / "audiocrib"
KILLS = 51
"""At full size: at least 50, spread over one game at each table in `SETUPS`."""
LEAST_KILLS = 15
"""The fewest at any scale: five in each table's game."""
SETUPS = [
    TableSetup(target=61, manual_counting=True, muggins=True, levels=("easy",)),
    TableSetup(players=3, target=61, levels=("beginner", "easy")),
    TableSetup(target=61, levels=("medium",)),
]


class Program:
    """``audiocrib`` in a pseudo-terminal; what it prints is collected as it comes."""

    def __init__(self, folder: Path, seed: int, *, command: list[str] | None = None, home: Path | None = None) -> None:
        """Run the game on ``folder`` with ``seed``, or ``command`` if given; HOME is ``home``, else ``folder``."""
        master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm-256color", "HOME": str(home or folder)}
        if command is None:
            command = [str(PROGRAM), "--speech", "none", "--no-sound", "--pace", "0", "--seed", str(seed),
                       "--data-dir", str(folder)]
        self.process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env,
                                        start_new_session=True)
        os.close(slave)
        self.master = master
        self.output = bytearray()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.output.extend(data)

    def text(self) -> str:
        return self.output.decode("ascii", "replace")

    def wait_for(self, words: str, until: float) -> bool:
        """True once ``words`` has been printed; False if the kill is due first (``until``)."""
        end = time.monotonic() + 30
        while time.monotonic() < min(end, until):
            if words in self.text():
                return True
            if self.process.poll() is not None:
                raise AssertionError(f"the program ended by itself:\n{self.text()[-3000:]}")
            time.sleep(0.005)
        if time.monotonic() >= end:
            raise AssertionError(f"{words!r} never came:\n{self.text()[-3000:]}")
        return False

    def press(self, key: str) -> None:
        try:
            os.write(self.master, KEY_BYTES.get(key, key).encode())
        except OSError:  # killed meanwhile
            pass

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.reader.join(timeout=5)
        os.close(self.master)


class _Killed(Exception):
    """The kill came before the program was ready."""


def reference(setup: TableSetup, seed: int, folder: Path) -> Game:
    """The game the steady player plays at ``setup`` with ``seed``, without a break."""
    result: list[Game] = []

    async def script(table: Table) -> None:
        await table.press("enter")
        for _ in range(3000):
            game = getattr(table.session.table, "game", None)
            assert game is not None
            if table.session.moment == "over":
                result.append(game)
                return
            await table.press(*keys_for(table.session.moment, game))

    run(script, setup=setup, seed=seed, save_path=folder / "saved-game.json")
    return result[0]


def wait_for_change(path: Path, stand: tuple[object, ...], deadline: float, program: Program) -> None:
    """Until the game in the save has moved on from ``stand`` (so keys are never sent twice for one moment)."""
    stuck = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = read_save(path)
        if found is None or where_it_stands(found[0], found[1]) != stand:
            return
        assert time.monotonic() < stuck, f"the game stopped at {stand}:\n{program.text()[-2000:]}"
        time.sleep(0.003)


def is_beginning(game: Game, whole: Game) -> bool:
    events = game.to_json()["events"]
    return events == whole.to_json()["events"][: len(events)]


def contains(lines: tuple[str, ...], block: tuple[str, ...]) -> bool:
    if not block:
        return True
    for start in range(len(lines) - len(block) + 1):
        if lines[start: start + len(block)] == block:
            return True
    return False


@pytest.mark.slow
def test_kills_at_random_moments_never_lose_a_game(tmp_path: Path, soak_size: Callable[[int, int], int]) -> None:
    wanted = soak_size(KILLS, LEAST_KILLS)
    rng = random.Random(2026)
    kills = games = 0
    lives: list[str] = []
    while kills < wanted:
        setup, seed = SETUPS[games % len(SETUPS)], 100 + games
        whole = reference(setup, seed, tmp_path / f"reference-{games}")
        folder = tmp_path / f"game-{games}"
        folder.mkdir()
        SettingsFile(folder / "settings.json").save(Settings(typed_ahead=0.0), setup)  # keys sent at once
        save = folder / "saved-game.json"
        seen: SavedTable | None = None  # the save as the last kill left it
        started = finished = False
        while not finished:
            program = Program(folder, seed)
            spared = kills >= wanted * (games + 1) // len(SETUPS)  # this game's share of kills: now finish it
            # The kill: a random instant, from the launch for a third of the kills (so it may come while starting),
            # else from the main menu (so a start slowed by a busy machine does not take every kill).
            delay, early = rng.uniform(0.05, 1.5), rng.random() < 1 / 3
            deadline = time.monotonic() + (delay if early and not spared else 600)
            where = "start"
            try:
                if not program.wait_for("Main menu:", until=deadline):
                    raise _Killed  # while starting
                if not early and not spared:
                    deadline = time.monotonic() + delay
                if seen is not None:
                    assert "An unfinished game is waiting" in program.text()
                    assert "Resume the unfinished game. 1 of 9." in program.text()
                where = "resume"
                program.press("enter")  # resume the unfinished game, or the first new game
                if not program.wait_for("Resuming the unfinished game." if seen else "New game:", until=deadline):
                    raise _Killed  # while resuming
                while time.monotonic() < deadline:
                    found = read_save(save)
                    if found is None:
                        if started:  # the match is over, and its save let go
                            finished = True
                            break
                        time.sleep(0.005)
                        continue
                    started = True
                    current, moment, _ = found
                    if seen is not None:  # resumed: the same game, and the messages heard before the kill
                        assert is_beginning(seen.game, current.game)
                        assert contains(current.history, seen.history[-200:])
                    assert is_beginning(current.game, whole)
                    where = current.game.phase.value
                    keys = keys_for(moment, current.game)
                    for key in keys:
                        program.press(key)
                        time.sleep(rng.uniform(0, 0.01))
                    wait_for_change(save, where_it_stands(current, moment), deadline, program)
            except _Killed:
                pass
            finally:
                program.kill()
            if finished:
                break
            assert not spared, "the game did not finish"
            kills += 1
            lives.append(where)
            found = read_save(save)  # readable: SavedTable.from_json raised nothing
            assert not list(folder.glob("*.damaged*")), "a kill left a damaged file"
            if found is not None:
                after = found[0]
                started = True
                assert is_beginning(after.game, whole), "a kill left a game that is not the one being played"
                if seen is not None:
                    assert is_beginning(seen.game, after.game)
                seen = after
            elif started:  # the match ended just as it was killed
                finished = True
        stats = json.loads((folder / "statistics.json").read_text())
        assert stats["total"]["games"] == 1
        assert stats["total"]["wins"] == int(whole.events[-1].side == 0)  # type: ignore[attr-defined]
        games += 1
    print(f"{kills} kills over {games} games; killed during: {sorted(set(lives))}")
    assert kills >= wanted
    assert len(set(lives)) >= 3, lives  # killed in the start, the resume and the game's phases

