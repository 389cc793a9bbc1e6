"""Heard through a real screen reader: Orca reading audiocrib in mate-terminal (`tests.screenreader`).

Each test types the ``audiocrib`` command into the terminal's shell as a player would, then presses keys with
xdotool. After every key, what Orca said (its key echo aside) must be exactly the lines the game printed for that
key, in order, each once: the game's own record of what it printed (``--transcript``) is the measure. Nothing said
twice, nothing lost, nothing "blank".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.shell.pastmatches import FOLDER, PastMatchFolder
from tests.screenreader import Desktop, Terminal, desktop_fixture
from tests.test_replay_files import finished
from tests.test_serve import Client, ask, create, hello, serving

pytestmark = [pytest.mark.xdist_group("screenreader"), pytest.mark.slow]
desktop = desktop_fixture

PROGRAM = Path(sys.executable).parent / "audiocrib"
_ECHO = re.compile(r"(return|escape|space|tab|backspace|home|end|page (up|down)|(left|right) (shift|control|alt)|"
                   r"F\d+|up|down|left|right|question|question mark|\W)", re.IGNORECASE)
"""What Orca says of the keys themselves (its key echo): not the game's words."""


_PROMPT = "bash-"
"""The terminal shell's prompt, read when the game has ended."""


def _words(text: str) -> str:
    return " ".join(text.split())


class Game:
    """audiocrib started in a terminal on the desktop, with a transcript of every line it printed."""

    def __init__(self, desktop: Desktop, terminal: Terminal, folder: Path, *options: str, speech: str = "none") -> None:
        self.desktop = desktop
        self.transcript = folder / "transcript.txt"
        self.terminal = terminal
        command = [str(PROGRAM), "--speech", speech, "--no-sound", "--transcript", str(self.transcript),
                   "--data-dir", str(folder / "data"), *options]
        desktop.quiet(0.5)
        self.terminal.type(" ".join(command))
        self.mark = desktop.quiet(0.8)
        self._printed = len(self.lines())  # a transcript is appended to, run after run
        self.terminal.keys("Return")
        self.wait_printed(lambda lines: any("1 of" in line for line in lines), "the main menu")
        self.opening = self.heard_for_step("starting the game")

    def lines(self) -> list[str]:
        try:
            return self.transcript.read_text().splitlines()
        except FileNotFoundError:
            return []

    def wait_printed(self, done: object, what: str, timeout: float = 30.0) -> list[str]:
        """Wait until the lines printed since the last step satisfy ``done`` (a function of them)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            new = self.lines()[self._printed:]
            if new and done(new):  # type: ignore[operator]
                return new
            time.sleep(0.05)
        raise AssertionError(f"the game printed no {what} in {timeout} s: {self.lines()[self._printed:]}")

    def heard_for_step(self, what: str) -> tuple[list[str], list[str]]:
        """Wait for Orca to say the last line printed in this step, then for quiet; returns (printed, heard)."""
        while True:
            printed = self.lines()[self._printed:]
            if printed:
                try:
                    self.desktop.wait_for(_words(printed[-1])[-40:], after=self.mark, timeout=30)
                except AssertionError:  # not said at all: the comparison says what was
                    self.desktop.quiet(0.8)
                    break
            self.desktop.quiet(0.8)
            if self.lines()[self._printed:] == printed:
                break
        self._printed += len(printed)
        now = self.desktop.mark()
        heard = [said for said in self.desktop.since(self.mark).utterances[: now - self.mark]
                 if not _ECHO.fullmatch(said.strip()) and not said.startswith(_PROMPT)]
        self.mark = now
        return printed, heard

    def press(self, key: str, expect: int = 1) -> tuple[list[str], list[str]]:
        """Press ``key`` and wait for at least ``expect`` lines; returns what was printed and what Orca said."""
        self.mark = self.desktop.mark()
        self.terminal.keys(key)
        self.wait_printed(lambda lines: len(lines) >= expect, f"answer to {key}")
        time.sleep(0.3)  # the rest of the key's burst, and a computer player's move paced after it
        return self.heard_for_step(key)

    def types(self, text: str) -> tuple[list[str], list[str]]:
        """Type ``text`` into a text box, a key at a time; returns what was printed (a line a key) and what Orca
        said."""
        self.mark = self.desktop.mark()
        self.terminal.type(text)
        self.wait_printed(lambda lines: len(lines) >= len(text), f"letters of {text!r}")
        return self.heard_for_step(f"typing {text!r}")

    def during(self, happening: Callable[[], None], what: str) -> tuple[list[str], list[str]]:
        """What was printed while ``happening`` ran (another player's moves, say), made to happen again until
        something is (at most twenty times), and what Orca said of it."""
        self.mark = self.desktop.mark()
        for _ in range(20):
            happening()
            with contextlib.suppress(AssertionError):
                self.wait_printed(lambda lines: len(lines) >= 1, what, timeout=1.0)
                break
        time.sleep(0.6)  # a computer player's move, paced after the person's
        return self.heard_for_step(what)

    def down_to(self, item: str, what: str, most: int = 30) -> list[str]:
        """Press Down until the item that starts with ``item``, each heard once; returns the last lines printed."""
        for _ in range(most):
            printed, heard = self.press("Down")
            assert_heard_once(f"Down in {what}", printed, heard)
            if printed[-1].startswith(item):
                return printed
        raise AssertionError(f"no item {item!r} in {what}: {self.lines()[-5:]}")

    def walk_menu(self, first: str, what: str, most: int = 25) -> list[str]:
        """Press Down from the menu item ``first`` until an item comes again (the end, or round to the top), each
        heard once; returns the items."""
        seen = [first]
        for _ in range(most):
            printed, heard = self.press("Down")
            assert_heard_once(f"Down in {what}", printed, heard)
            if printed[-1] in seen:
                return seen
            seen.append(printed[-1])
        raise AssertionError(f"{what} never came to their end or round to their first item: {seen}")

    def close(self) -> None:
        """Quit at once (Control C), back to the terminal's shell."""
        self.terminal.keys("ctrl+c")
        time.sleep(0.5)
        self.desktop.quiet(0.8)


def assert_heard_once(step: str, printed: list[str], heard: list[str]) -> None:
    """What Orca said is exactly what was printed: every line, in order, once."""
    assert _words(" ".join(heard)) == _words(" ".join(printed)), (
        f"{step}: the game printed {printed} but Orca said {heard}")


@pytest.fixture(scope="module")
def terminal(desktop: Desktop) -> Iterator[Terminal]:
    """One terminal for the module: each game quits back to its shell (a terminal closed under Orca held up the
    accessibility events of the next for as long as twenty seconds)."""
    opened = Terminal(desktop, "game")
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def game(desktop: Desktop, terminal: Terminal, tmp_path: Path) -> Iterator[Game]:
    started = Game(desktop, terminal, tmp_path, "--seed", "7", "--pace", "0")
    try:
        yield started
    finally:
        started.close()


def test_the_welcome_and_every_item_of_the_main_menu_are_read(game: Game) -> None:
    printed, heard = game.opening
    assert printed[0].startswith("Welcome to audiocrib")
    assert_heard_once("start", printed, heard)
    items = []
    for _ in range(9):
        printed, heard = game.press("Down")
        assert_heard_once("Down", printed, heard)
        assert heard and heard != ["blank"]
        items.append(printed[-1])
    assert any("Quit" in item for item in items)
    for key in ("Up", "Home", "End"):
        printed, heard = game.press(key)
        assert_heard_once(key, printed, heard)


def test_every_item_of_the_table_setup_and_the_settings_is_read(game: Game) -> None:
    printed, heard = game.press("Down")
    assert printed[-1].startswith("Table setup")
    printed, heard = game.press("Return")
    assert_heard_once("Enter on Table setup", printed, heard)
    assert len(game.walk_menu(printed[-1], "the table setup")) >= 8
    printed, heard = game.press("Right")
    assert_heard_once("Right in the table setup", printed, heard)
    printed, heard = game.press("Escape")
    assert_heard_once("Escape from the table setup", printed, heard)
    for key in ("Down", "Down", "Down", "Down"):
        printed, heard = game.press(key)
    assert printed[-1].startswith("Settings")
    printed, heard = game.press("Return")
    assert_heard_once("Enter on Settings", printed, heard)
    assert len(game.walk_menu(printed[-1], "the settings")) >= 8


def test_a_whole_deal_the_question_keys_and_the_show_are_read_once_in_order(game: Game) -> None:
    printed, heard = game.press("Return", expect=5)
    assert_heard_once("New game", printed, heard)
    assert any(line.startswith("Deal one") for line in printed)
    for key in ("c", "b", "f", "v", "s", "t", "h", "n", "Right", "Left", "a"):
        printed, heard = game.press(key)
        assert_heard_once(key, printed, heard)
    assert printed[-1].startswith("Keep the "), printed  # the coach's advice, read whole by Orca
    for key in ("1", "2"):
        printed, heard = game.press(key)
        assert_heard_once(f"mark {key}", printed, heard)
    printed, heard = game.press("Return", expect=2)
    assert_heard_once("lay away", printed, heard)
    shown = False
    for _ in range(12):
        if any("next deal" in line for line in game.lines()):
            shown = True
            break
        printed, heard = game.press("1")
        assert_heard_once("go to card 1", printed, heard)
        printed, heard = game.press("Return")
        assert_heard_once("play", printed, heard)
        for key in ("c", "l"):
            printed, heard = game.press(key)
            assert_heard_once(key, printed, heard)
    assert shown, game.lines()[-10:]
    printed, heard = game.press("Return", expect=3)
    assert_heard_once("the next deal", printed, heard)
    assert any(line.startswith("Deal two") for line in printed)
    printed, heard = game.press("Escape")
    assert_heard_once("the game menu", printed, heard)
    assert printed[-1].startswith("Game menu")


def test_tab_says_the_help_for_the_moment_in_a_terminal_that_keeps_f1(game: Game) -> None:
    printed, heard = game.press("Tab")
    assert_heard_once("Tab", printed, heard)
    assert any("Enter" in line for line in printed), printed
    printed, heard = game.press("question")
    assert_heard_once("question mark", printed, heard)


def test_typing_in_a_text_box_is_read_letter_by_letter(game: Game) -> None:
    game.down_to("Play online", "the main menu")
    printed, heard = game.press("Return")
    assert_heard_once("Enter on Play online", printed, heard)
    for key in ("l", "o", "BackSpace", "Tab"):
        printed, heard = game.press(key)
        assert_heard_once(f"typing {key}", printed, heard)
    printed, heard = game.press("Escape")
    assert_heard_once("Escape from the text box", printed, heard)


def test_auto_finds_orca_and_leaves_the_speaking_to_it(desktop: Desktop, terminal: Terminal, tmp_path: Path) -> None:
    clients = desktop.speech_clients()
    game = Game(desktop, terminal, tmp_path, "--seed", "7", "--pace", "0.5", speech="auto")
    try:
        printed, heard = game.opening
        assert "running, so it reads the game" in printed[0]
        assert_heard_once("start", printed, heard)
        printed, heard = game.press("Return", expect=5)
        assert_heard_once("New game", printed, heard)
        for key in ("c", "s", "h"):
            printed, heard = game.press(key)
            assert_heard_once(key, printed, heard)
        assert desktop.speech_clients() == clients, "the game spoke through Speech Dispatcher as well as Orca"
    finally:
        game.close()


def test_a_game_saved_and_quit_is_offered_and_resumed_by_ear(desktop: Desktop, terminal: Terminal,
                                                             tmp_path: Path) -> None:
    game = Game(desktop, terminal, tmp_path, "--seed", "7", "--pace", "0")
    try:
        game.press("Return", expect=5)
        printed, heard = game.press("Escape")
        assert printed[-1].startswith("Game menu")
        game.down_to("Save and quit", "the game menu")
        printed, heard = game.press("Return")
        assert_heard_once("Save and quit", printed, heard)
    finally:
        game.close()
    again = Game(desktop, terminal, tmp_path, "--seed", "7", "--pace", "0")
    try:
        printed, heard = again.opening
        assert_heard_once("start with a game kept", printed, heard)
        assert "Resume" in printed[-1], printed
        printed, heard = again.press("Return", expect=2)
        assert_heard_once("resume", printed, heard)
        assert any("Lay away" in line or "lay away" in line for line in printed), printed
    finally:
        again.close()


def test_the_practice_menu_the_statistics_and_the_keys_are_read(game: Game) -> None:
    for wanted in ("Practice", "Statistics", "Keys"):
        game.down_to(wanted, "the main menu")
        printed, heard = game.press("Return")
        assert_heard_once(f"Enter on {wanted}", printed, heard)
        if wanted == "Practice":  # the others are said where the main menu stays, in which Escape would quit
            assert len(game.walk_menu(printed[-1], "the practice menu", most=12)) >= 3
            printed, heard = game.press("Escape")
            assert_heard_once(f"Escape from {wanted}", printed, heard)
        printed, heard = game.press("Home")
        assert_heard_once("Home", printed, heard)


def test_a_past_match_is_found_and_heard_again_key_by_key(desktop: Desktop, terminal: Terminal,
                                                          tmp_path: Path) -> None:
    PastMatchFolder(tmp_path / "data" / FOLDER).keep(finished(), ("", "medium"), time.time() - 60, "heard again")
    game = Game(desktop, terminal, tmp_path, "--pace", "0")
    try:
        assert_heard_once("start with a past match kept", *game.opening)
        game.down_to("Past matches", "the main menu")
        printed, heard = game.press("Return")
        assert_heard_once("Enter on Past matches", printed, heard)
        assert "you against Bob (medium)" in printed[-1], printed
        printed, heard = game.press("Return")
        assert_heard_once("Enter on the past match", printed, heard)
        told = []
        for key in ("Right", "Right", "Right", "Down", "h", "Down", "Left", "s", "c", "Up", "Return", "End", "Home",
                    "question"):
            printed, heard = game.press(key)
            assert_heard_once(f"{key} in the replay", printed, heard)
            told.append(printed)
        assert [[line for line in told[k] if line.startswith("Deal ")] for k in (3, 5)] == [
            ["Deal two: Bob deals."], ["Deal three: you deal."]], told[3:6]
        assert told[4][-1].startswith("Your hand: ") and not re.search(r"\d", told[4][-1]), told[4]  # no positions
        assert len(told[10]) >= 3, told[10]  # Enter tells the deal through, each line heard once
        printed, heard = game.press("Escape")
        assert_heard_once("Escape from the replay", printed, heard)
    finally:
        game.close()


class Host:
    """Ann, a person at a public table of two against an easy computer player, on her own event loop and thread:
    the test moves her game on a few of her views at a time, as a person would."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client = Client()
        self.session: aiohttp.ClientSession | None = None
        self.socket = self._call(self._open(url))

    def _call(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=60)

    async def _open(self, url: str) -> aiohttp.ClientWebSocketResponse:
        self.session = aiohttp.ClientSession()
        socket = await self.session.ws_connect(url)
        await ask(socket, hello("Ann"))
        await ask(socket, {**create(True, ("person", "easy")), "rules": {"players": 2, "target": 61}})
        await socket.send_str(json.dumps({"type": "start"}))
        return socket

    def plays(self, views: int) -> None:
        """Ann hears ``views`` more views of her game and makes every move they ask of her."""
        self._call(self.client.play(self.socket, views=views))

    def close(self) -> None:
        async def closing() -> None:
            await self.socket.close()
            if self.session is not None:
                await self.session.close()

        self._call(closing())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def test_a_watcher_finds_a_table_in_the_lobby_and_hears_its_game_go_on(desktop: Desktop, terminal: Terminal,
                                                                        tmp_path: Path) -> None:
    server = next(serving(tmp_path / "server"))
    ann = None
    game = Game(desktop, terminal, tmp_path, "--pace", "0")
    try:
        ann = Host(server.url)
        assert_heard_once("start", *game.opening)
        game.down_to("Play online", "the main menu")
        for key, text in (("Return", ""), ("", f"127.0.0.1:{server.port}"), ("Return", ""), ("", "Carol"),
                          ("Return", "")):
            printed, heard = game.press(key) if key else game.types(text)
            assert_heard_once(f"{key or text} on the way online", printed, heard)
        assert any(line.startswith("Lobby: ") for line in printed), printed
        printed = game.down_to("Table 1, Ann's", "the lobby")
        assert "under way" in printed[-1] and "Enter to watch" in printed[-1], printed
        printed, heard = game.press("Return", expect=2)
        assert_heard_once("Enter to watch", printed, heard)
        assert printed[0].startswith("You are watching table 1."), printed
        lines = 0
        for step in range(8):  # Ann lays away and plays; the computer player answers; the watcher hears it all
            printed, heard = game.during(lambda: ann.plays(1), f"Ann's moves, step {step}")
            assert_heard_once(f"Ann's moves, step {step}", printed, heard)
            lines += len(printed)
            if step in (0, 5):
                for key in ("s", "v", "h"):
                    printed, heard = game.press(key)
                    assert_heard_once(f"{key} while watching", printed, heard)
        assert lines >= 8, lines
        assert any(line.startswith("Ann plays") for line in game.lines()), game.lines()[-20:]
    finally:
        game.close()
        if ann is not None:
            ann.close()
        server.stop()
