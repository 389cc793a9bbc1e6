"""End to end: the installed ``audiocrib`` in a real terminal (tmux), speaking through a real Speech Dispatcher.

A private daemon records every message it is asked to speak (`tests.speechd`). The test types keys into the
terminal with ``tmux send-keys``, waits for the expected words in the daemon's record, and reads the screen with
``capture-pane`` and the raw bytes the program wrote with ``pipe-pane``. It may skip only where tmux or Speech
Dispatcher is missing, and never under CI.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.speechd import SpeechDispatcher, require

PROGRAM = Path(sys.executable).parent / "audiocrib"


class Terminal:
    """A private tmux server running one command in an 80 by 24 window."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], raw: Path) -> None:
        self.name = name
        self.raw = raw
        line = " ".join(shlex.quote(part) for part in ["env", *(f"{k}={v}" for k, v in env.items()), *command])
        self.tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", line)
        self.tmux("pipe-pane", "-o", f"cat >> {shlex.quote(str(raw))}")

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", *args], capture_output=True,
                              text=True, timeout=10)
        return done.stdout

    def keys(self, *keys: str) -> None:
        """Type ``keys`` (tmux key names: Enter, Escape, Left, F1, or text)."""
        for key in keys:
            self.tmux("send-keys", "-t", self.name, key)
            time.sleep(0.05)  # a terminal user cannot type faster; Escape needs its own moment

    def screen(self) -> str:
        """What the window shows now."""
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def alive(self) -> bool:
        return subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", "has-session", "-t", self.name],
                              capture_output=True, timeout=10).returncode == 0

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", "kill-server"], capture_output=True, timeout=10)


def require_tools() -> None:
    """Skip where Speech Dispatcher or tmux is missing; under CI, fail instead."""
    require()
    if shutil.which("tmux") is None:
        if os.environ.get("CI"):
            pytest.fail("tmux is not installed; CI must run the terminal tests.")
        pytest.skip("tmux is not installed.")


@pytest.fixture
def daemon() -> Iterator[SpeechDispatcher]:
    require_tools()
    with SpeechDispatcher() as running:
        yield running


def finish_from_the_autosave(terminal: Terminal, save: Path, timeout: float = 120.0) -> None:
    """Press a steady player's keys, read from the program's autosave, until the match is over (the save goes)."""
    from tests.autoplay import keys_for, read_save, where_it_stands

    end = time.monotonic() + timeout
    last: tuple[object, ...] = ()
    while (found := read_save(save)) is not None:
        assert time.monotonic() < end, "the game did not finish"
        saved, moment, _ = found
        if where_it_stands(saved, moment) != last:  # keys once for each moment
            last = where_it_stands(saved, moment)
            terminal.keys(*({"enter": "Enter"}.get(key, key) for key in keys_for(moment, saved.game)))
        time.sleep(0.05)


def start(daemon: SpeechDispatcher, tmp_path: Path, name: str, term: str = "xterm-256color",
          speech: str = "screenreader") -> Terminal:
    env = {**daemon.env(), "TERM": term, "HOME": str(tmp_path), "PATH": os.environ.get("PATH", "")}
    command = [str(PROGRAM), "--speech", speech, "--no-sound", "--seed", "7", "--pace", "0",
               "--data-dir", str(tmp_path),
               "--transcript", str(tmp_path / "transcript.txt")]
    return Terminal(f"audiocrib-{name}-{os.getpid()}", command, env, tmp_path / "raw.bin")


def quit_at_once(terminal: Terminal) -> None:
    """Control C, and the program is gone within ten seconds."""
    terminal.keys("C-c")
    end = time.monotonic() + 10
    while terminal.alive():
        assert time.monotonic() < end, "Control C did not quit"
        time.sleep(0.05)


def wait_screen(terminal: Terminal, text: str, timeout: float = 10.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        screen = terminal.screen()
        if text in screen:
            return screen
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never appeared on the screen:\n{terminal.screen()}")


def test_a_game_in_a_real_terminal_is_spoken_through_speech_dispatcher(daemon: SpeechDispatcher,
                                                                       tmp_path: Path) -> None:
    from audiocrib.shell.settings import Settings, SettingsFile
    from audiocrib.shell.tablesetup import TableSetup

    SettingsFile(tmp_path / "settings.json").save(Settings(typed_ahead=0.0), TableSetup(target=61, levels=("easy",)))
    terminal = start(daemon, tmp_path, "game")
    try:
        daemon.wait_for("Main menu: New game. 1 of 8.", timeout=15)
        wait_screen(terminal, "Main menu: New game. 1 of 8.")
        terminal.keys("Enter")
        spoken = daemon.wait_for(lambda lines: any(line.startswith("Lay away two cards") for line in lines))
        assert any(line.startswith("Your hand: ") for line in spoken)
        terminal.keys("a")  # the coach's advice, heard through the real terminal and daemon
        spoken = daemon.wait_for(lambda lines: any(line.startswith("Keep the ") and " lay away " in line
                                                   for line in lines[len(spoken):]))
        terminal.keys("1", "2", "Enter")
        spoken = daemon.wait_for(lambda lines: any(line.startswith("You lay away the ") for line in lines))
        terminal.keys("s")
        daemon.wait_for(lambda lines: any(line.startswith("You have ") for line in lines[len(spoken):]))
        terminal.keys("F1")
        spoken = daemon.wait_for(lambda lines: any(line.startswith("c b f v s t h n l") for line in lines))
        terminal.keys("Tab")  # the help key every terminal passes says the same
        daemon.wait_for(lambda lines: any(line.startswith("c b f v s t h n l") for line in lines[len(spoken):]))
        # Play cards until one of ours is announced (the first playable card by position each time).
        end = time.monotonic() + 30
        while not any(line.startswith("You play the ") for line in daemon.spoken()):
            assert time.monotonic() < end, "no card of ours was played"
            terminal.keys("1", "Enter")
            time.sleep(0.2)
        screen = wait_screen(terminal, "You play the ")
        assert "Main menu: New game. 1 of 8." in daemon.spoken()
        # The speech daemon dies mid-game: the game goes on in text lines and says so once.
        daemon.kill()
        terminal.keys("s")
        screen = wait_screen(terminal, "Speech Dispatcher stopped working; using text lines.")
        assert screen.count("using text lines") == 1
        # The window is resized, and keys it does not know arrive: the game takes no harm.
        for columns, rows in ((50, 15), (132, 43), (80, 24)):
            terminal.tmux("resize-window", "-t", terminal.name, "-x", str(columns), "-y", str(rows))
            time.sleep(0.1)
        terminal.keys("F7", "PageUp", "Tab", "x", "C-a")
        wait_screen(terminal, "The x key does nothing now.")
        assert terminal.alive()
        # The game menu, then back to finish the game, on the steady player's keys read from the autosave.
        terminal.keys("Escape")
        wait_screen(terminal, "Game menu: Resume. 1 of 4.")
        terminal.keys("Enter")
        finish_from_the_autosave(terminal, tmp_path / "saved-game.json")
        stats = json.loads((tmp_path / "statistics.json").read_text())
        assert stats["total"]["games"] == 1
        wait_screen(terminal, "Press Enter for the main menu.")
        terminal.keys("Enter", "Escape")
        end = time.monotonic() + 10
        while terminal.alive():
            assert time.monotonic() < end, "the program did not quit"
            time.sleep(0.05)
    finally:
        terminal.close()
    raw = (tmp_path / "raw.bin").read_bytes()
    assert b"\x1b[6n" not in raw  # no cursor-position request
    assert b"\x1b[?1049h" not in raw  # no alternate (full) screen
    text = raw.decode("ascii")  # plain ASCII, every byte
    assert "You lay away the " in text
    transcript = (tmp_path / "transcript.txt").read_text().splitlines()
    assert transcript[:2] == ["Welcome to audiocrib. Press Tab for help at any time.", "Main menu: New game. 1 of 8."]
    assert "Game menu: Resume. 1 of 4." in transcript
    assert any(line.endswith("Press Enter for the main menu.") or "wins" in line for line in transcript)


def test_it_works_under_a_dumb_terminal_with_text_lines_only(daemon: SpeechDispatcher, tmp_path: Path) -> None:
    terminal = start(daemon, tmp_path, "dumb", term="dumb", speech="none")
    try:
        wait_screen(terminal, "Main menu: New game. 1 of 8.")
        terminal.keys("Down")
        wait_screen(terminal, "Table setup: six-card cribbage, 2 players, to 121. 2 of 8.")
        terminal.keys("Up", "Enter")
        screen = wait_screen(terminal, "Lay away two cards")
        assert "Your hand: " in screen
        terminal.keys("c")
        wait_screen(terminal, "no count until the play")
        quit_at_once(terminal)
    finally:
        terminal.close()
    assert daemon.spoken() == []  # speech none: the terminal's own reader does the reading
    raw = (tmp_path / "raw.bin").read_bytes()
    assert b"\x1b" not in raw  # not one escape sequence under TERM=dumb


def test_a_key_press_cuts_off_the_speech_in_progress(tmp_path: Path) -> None:
    """With a slow speech module (each message takes a second), pressing a key cancels what is being said and
    what is waiting, and the answer to the key is spoken next."""
    require_tools()
    with SpeechDispatcher(slow=True) as slow:
        terminal = start(slow, tmp_path, "cut")
        try:
            end = time.monotonic() + 15
            while "Welcome to audiocrib. Press Tab for help at any time." not in slow.started():
                assert time.monotonic() < end, "the welcome was never begun"
                time.sleep(0.02)
            terminal.keys("Down")
            slow.wait_for("Table setup: six-card cribbage, 2 players, to 121. 2 of 8.", timeout=10)
            spoken = slow.spoken()
            assert "Welcome to audiocrib. Press Tab for help at any time." not in spoken  # cut off
            assert "Main menu: New game. 1 of 8." not in spoken  # dropped before it began
            assert "Main menu: New game. 1 of 8." in terminal.screen()  # still on the screen to review
        finally:
            terminal.close()


def test_on_a_machine_without_sound_nothing_but_the_games_own_lines_reach_the_screen(tmp_path: Path) -> None:
    """No sound card, no screen reader: the sound and speech libraries' own complaints (ALSA's thirty lines) go to
    a log, and the player reads only the game's lines, among them one sentence for each thing that is missing."""
    require_tools()
    env = {"TERM": "xterm-256color", "HOME": str(tmp_path), "PATH": os.environ.get("PATH", ""),
           "XDG_RUNTIME_DIR": str(tmp_path / "runtime")}  # no Speech Dispatcher to be found
    command = [str(PROGRAM), "--speech", "auto", "--seed", "7", "--data-dir", str(tmp_path),
               "--transcript", str(tmp_path / "transcript.txt")]
    terminal = Terminal(f"audiocrib-quiet-{os.getpid()}", command, env, tmp_path / "raw.bin")
    try:
        wait_screen(terminal, "Main menu: New game. 1 of 8.", timeout=20)
        terminal.keys("Enter")
        wait_screen(terminal, "Lay away two cards")
        quit_at_once(terminal)
    finally:
        terminal.close()
    said = set((tmp_path / "transcript.txt").read_text().splitlines())
    shown = [line.strip() for line in (tmp_path / "raw.bin").read_bytes().decode("ascii").splitlines()]
    strangers = [line for line in shown if line and line not in said]
    assert strangers == [], strangers
    assert "Welcome to audiocrib. Press Tab for help at any time." in said
    if any("sound device" in line for line in said):  # a machine with no sound card, as CI's is
        assert "ALSA" in (tmp_path / "sound-and-speech.log").read_text() or not shutil.which("aplay")
