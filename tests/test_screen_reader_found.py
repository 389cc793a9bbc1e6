"""``--speech auto`` finds a screen reader that is running, for real, and then leaves the speaking to it.

Everything here is the real thing: a private session bus (``dbus-daemon --session``), the real AT-SPI bus launcher
(``/usr/libexec/at-spi-bus-launcher --launch-immediately``, Debian's at-spi2-core) whose ``ScreenReaderEnabled``
is set with ``gdbus`` (an independent client, not the jeepney the game uses), a process that the kernel calls
``orca`` (a copy of ``sleep`` named so), GNOME's real setting through ``gsettings`` (in a private settings file),
a private Speech Dispatcher (`tests.speechd`) that would record anything the game said through the screen reader's
speech server, and the installed ``audiocrib`` in a real terminal (tmux). Each process is stopped by its PID.

The environment is this test's own (`private_session`): no desktop session variable of the machine leaks in, so an
Orca running on this machine for someone else, or the machine's own bus, cannot change the answers.

Linux only (the detection elsewhere asks NVDA, JAWS or VoiceOver, which cannot run here). Tests skip where the
programs are missing (apt-get install dbus at-spi2-core libglib2.0-bin gsettings-desktop-schemas tmux, and Speech
Dispatcher's packages), and fail instead under CI.
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from audiocrib.speech import FallbackSpeaker, ScreenReader, SilentSpeaker, find_screen_reader, open_speaker
from audiocrib.speech.detect import atspi_screen_reader_enabled, orca_running
from tests.speechd import SpeechDispatcher, require, speech_dispatcher_fixture  # noqa: F401 (a fixture)

BUS_LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")
AT_SPI_NOTICE = "Your screen reader is running, so it reads the game; audiocrib's own voice stays off."
ORCA_NOTICE = "Orca is running, so it reads the game; audiocrib's own voice stays off."
PROGRAM = Path(sys.executable).parent / "audiocrib"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's screen readers (/proc, AT-SPI)")


def missing(what: str, packages: str) -> None:
    """Skip the calling test, or under CI fail it, for want of ``what``."""
    message = f"{what} is missing (apt-get install {packages})."
    if os.environ.get("CI"):
        pytest.fail(message + " CI must run these tests.")
    pytest.skip(message)


def require_buses() -> None:
    if shutil.which("dbus-daemon") is None or shutil.which("gdbus") is None or not BUS_LAUNCHER.exists():
        missing("dbus-daemon, gdbus or the AT-SPI bus launcher", "dbus at-spi2-core libglib2.0-bin")


def require_gnome_setting() -> None:
    program = shutil.which("gsettings")
    if program is None or subprocess.run([program, "list-keys", "org.gnome.desktop.a11y.applications"],
                                         capture_output=True, timeout=10).returncode != 0:
        missing("gsettings or GNOME's accessibility settings", "libglib2.0-bin gsettings-desktop-schemas")


def wait_until(condition: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.01)


def stop(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    """End ``process`` by its PID: SIGTERM, then SIGKILL after five seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.fixture(autouse=True)
def no_threads_left_behind() -> Iterator[None]:
    """Every test closes what it opened (the speech's threads, the search's): no Python thread survives it."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 3
    while (left := set(threading.enumerate()) - before) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not left, f"threads left behind: {sorted(t.name for t in left)}"


@pytest.fixture(autouse=True)
def private_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own desktop session: no bus, no display of the machine's; a display name of its own (so that an
    Orca started here shares it, and no other does); GNOME's settings in memory. Returns the runtime folder."""
    for name in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", f"audiocrib-test-{os.getpid()}")
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("GSETTINGS_BACKEND", "memory")
    return runtime


class SessionBus:
    """A private session bus: ``dbus-daemon --session``, its ``address``; `stop` ends it by its PID."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        assert self.process.stdout is not None
        self.address = self.process.stdout.readline().strip()
        assert self.address.startswith("unix:"), "the session bus did not start"

    def call(self, destination: str, path: str, method: str, *args: str) -> str:
        """A method call with gdbus; its answer as gdbus prints it ("(<true>,)"), or raises."""
        done = subprocess.run(["gdbus", "call", "--address", self.address, "--dest", destination, "--object-path",
                               path, "--method", method, *args], capture_output=True, text=True, timeout=10)
        if done.returncode != 0:
            raise OSError(done.stderr.strip())
        return done.stdout.strip()

    def has_owner(self, name: str) -> bool:
        return self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                         name) == "(true,)"

    def stop(self) -> None:
        stop(self.process)


class AtSpiBus:
    """The real AT-SPI bus launcher on ``bus``, with GNOME's settings in memory (so that setting
    ``ScreenReaderEnabled``, which it keeps in GNOME's setting, never touches the machine's)."""

    def __init__(self, bus: SessionBus, runtime: Path) -> None:
        self.bus = bus
        env = {name: value for name, value in os.environ.items() if name not in ("DISPLAY", "WAYLAND_DISPLAY")}
        env.update(DBUS_SESSION_BUS_ADDRESS=bus.address, XDG_RUNTIME_DIR=str(runtime), GSETTINGS_BACKEND="memory")
        self.process = subprocess.Popen([str(BUS_LAUNCHER), "--launch-immediately"], env=env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        wait_until(lambda: bus.has_owner("org.a11y.Bus"), "the AT-SPI bus launcher")

    def screen_reader(self, enabled: bool | None = None) -> bool:
        """Set ``ScreenReaderEnabled`` (if ``enabled`` is given), then read it back."""
        properties = ("org.a11y.Bus", "/org/a11y/bus")
        if enabled is not None:
            self.bus.call(*properties, "org.freedesktop.DBus.Properties.Set", "org.a11y.Status",
                          "ScreenReaderEnabled", f"<{str(enabled).lower()}>")
        answer = self.bus.call(*properties, "org.freedesktop.DBus.Properties.Get", "org.a11y.Status",
                               "ScreenReaderEnabled")
        return answer == "(<true>,)"

    def stop(self) -> None:
        """End the launcher, and the accessibility bus it started, by their PIDs."""
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        except OSError:
            children = []
        stop(self.process)
        for child in children:
            try:
                os.kill(int(child), signal.SIGTERM)
            except ProcessLookupError:
                pass


@pytest.fixture
def bus() -> Iterator[SessionBus]:
    require_buses()
    running = SessionBus()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def atspi(bus: SessionBus, private_session: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AtSpiBus]:
    """The AT-SPI bus on a private session bus, which this process's environment names."""
    launcher = AtSpiBus(bus, private_session)
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
    try:
        yield launcher
    finally:
        launcher.stop()


# -- finding the screen reader ------------------------------------------------------------------------------------


def test_at_spi_saying_a_screen_reader_is_on_is_found_and_auto_then_says_nothing_itself(
        atspi: AtSpiBus, speech_dispatcher: SpeechDispatcher) -> None:
    """With Speech Dispatcher answering, auto used to speak through it while the screen reader read the same lines
    from the screen (issue 23). Now the screen reader reads them alone, and the first line says why."""
    assert atspi.screen_reader(True)
    assert find_screen_reader() == ScreenReader(None, "AT-SPI's ScreenReaderEnabled")
    chain = open_speaker("auto")
    heard: list[str] = []
    chain.on_notice = heard.append
    assert [type(speaker) for speaker in chain.speakers] == [SilentSpeaker]
    assert (chain.name, chain.speaking, chain.notice) == ("text lines", False, AT_SPI_NOTICE)
    for line in ("Welcome to audiocrib. Press Tab for help at any time.", "Main menu: New game. 1 of 8."):
        chain.speak(line)
    assert heard == [AT_SPI_NOTICE] and chain.notice is None  # once
    chain.close()

    screenreader = open_speaker("screenreader")  # chosen by name, it still speaks through the screen reader's server
    screenreader.speak("Asked for by name.")
    assert speech_dispatcher.wait_for("Asked for by name.") == ["Asked for by name."]  # and auto said nothing
    screenreader.close()

    assert not atspi.screen_reader(False)  # switched off: auto speaks as before
    assert find_screen_reader() is None
    chain = open_speaker("auto")
    assert (chain.name, chain.speaking, chain.notice) == ("Speech Dispatcher", True, None)
    chain.speak("Main menu: New game. 1 of 8.")
    speech_dispatcher.wait_for("Main menu: New game. 1 of 8.")
    chain.close()


def test_asking_at_spi_never_starts_it(bus: SessionBus, monkeypatch: pytest.MonkeyPatch) -> None:
    """The session bus would start the AT-SPI bus launcher for a call to it (its service file is installed); the
    question is asked so that it does not, and a session without AT-SPI has no screen reader."""
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
    assert find_screen_reader() is None
    assert not atspi_screen_reader_enabled()
    time.sleep(0.2)
    assert not bus.has_owner("org.a11y.Bus")


def test_a_process_called_orca_in_this_session_is_found(tmp_path: Path) -> None:
    orca = tmp_path / "orca"
    shutil.copy(shutil.which("sleep") or "/bin/sleep", orca)
    elsewhere = subprocess.Popen([str(orca), "60"], env={**os.environ, "WAYLAND_DISPLAY": "another-desktop"})
    try:
        wait_until(lambda: Path(f"/proc/{elsewhere.pid}/comm").read_text().strip() == "orca", "orca")
        assert find_screen_reader() is None  # Orca on another desktop does not read this terminal
    finally:
        stop(elsewhere)
    here = subprocess.Popen([str(orca), "60"])
    try:
        wait_until(lambda: Path(f"/proc/{here.pid}/comm").read_text().strip() == "orca", "orca")
        assert find_screen_reader() == ScreenReader("Orca", "an orca process")
        chain = open_speaker("auto")
        assert (chain.name, chain.notice) == ("text lines", ORCA_NOTICE)
        chain.close()
    finally:
        stop(here)
    assert find_screen_reader() is None  # gone, and no longer found


def test_orca_run_by_python_is_found_by_its_command_line(tmp_path: Path) -> None:
    script = tmp_path / "orca"
    script.write_text("import time\ntime.sleep(60)\n")
    orca = subprocess.Popen([sys.executable, "-u", str(script)])  # an option first, as in python3 -OO orca
    try:
        wait_until(lambda: Path(f"/proc/{orca.pid}/cmdline").read_bytes().count(b"\0") >= 3, "python")
        assert Path(f"/proc/{orca.pid}/comm").read_text().strip() != "orca"
        assert orca_running()
    finally:
        stop(orca)
    assert not orca_running()


def test_gnome_saying_the_screen_reader_is_on_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_gnome_setting()
    monkeypatch.setenv("GSETTINGS_BACKEND", "keyfile")  # a settings file of this test's own
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert find_screen_reader() is None
    subprocess.run(["gsettings", "set", "org.gnome.desktop.a11y.applications", "screen-reader-enabled", "true"],
                   check=True, timeout=10)
    assert find_screen_reader() == ScreenReader(None, "GNOME's screen-reader-enabled setting")
    subprocess.run(["gsettings", "set", "org.gnome.desktop.a11y.applications", "screen-reader-enabled", "false"],
                   check=True, timeout=10)
    assert find_screen_reader() is None


def test_with_no_session_bus_nothing_is_found_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for address in (None, f"unix:path={tmp_path / 'nobody-listens'}", "tcp:host=127.0.0.1,port=9"):
        if address is not None:
            monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        started = time.monotonic()
        assert find_screen_reader() is None
        assert time.monotonic() - started < 0.5, address  # about 10 ms here, most of it gsettings


def test_a_session_bus_that_never_answers_holds_the_start_one_second_at_most(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "silent-bus"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as silent:  # takes connections, answers nothing
        silent.bind(str(path))
        silent.listen(4)
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={path}")
        started = time.monotonic()
        assert find_screen_reader() is None
        assert 0.9 < time.monotonic() - started < 1.5  # it waited for the bus, a second and no more
    wait_until(lambda: not any(t.name == "audiocrib screen reader search" for t in threading.enumerate()),
               "the search's thread to end", timeout=3)


# -- the game, where the player meets it --------------------------------------------------------------------------


def test_choosing_auto_in_the_settings_under_a_screen_reader_leaves_the_speaking_to_it(
        atspi: AtSpiBus, speech_dispatcher: SpeechDispatcher, tmp_path: Path) -> None:
    """The Settings menu starts the mode chosen with the same detection as the command line."""
    from audiocrib.shell.main import Folders, open_session

    atspi.screen_reader(True)
    session = open_session(Folders.of(tmp_path), speech="screenreader", overrides={"show_text": False})
    screen = io.StringIO()
    session.announcer.screen = screen
    try:
        session.start()
        speech_dispatcher.wait_for("Main menu: New game. 1 of 8.")
        for key in ("down", "down", "down", "down", "enter"):
            session.press(key)
        speech_dispatcher.wait_for("Settings: Speech: your screen reader. 1 of 15.")
        assert screen.getvalue() == ""  # speaking through the screen reader's server, with text lines off
        session.press("left")  # auto
        assert isinstance(session.announcer.speaker, FallbackSpeaker)
        assert session.announcer.speaker.name == "text lines"
        session.press("down")
        session.press("up")
        session.press("right")  # back to the screen reader by name: its server speaks again
        speech_dispatcher.wait_for("Speech: your screen reader.")
    finally:
        session.announcer.close()  # as the application does when it ends: the speech's threads end
        session.close()
    shown = screen.getvalue().splitlines()
    assert shown == [AT_SPI_NOTICE, "Speech: your screen reader, or else the built-in voice.",
                     "Verbosity: normal. 2 of 15.", "Speech: your screen reader, or else the built-in voice. 1 of 15."]
    spoken = speech_dispatcher.spoken()
    assert not set(shown) & set(spoken)  # what auto printed, nobody but the screen reader read
    assert spoken[-1] == "Speech: your screen reader."


def test_the_game_started_in_auto_under_a_screen_reader_prints_every_line_and_speaks_none(
        atspi: AtSpiBus, tmp_path: Path) -> None:
    """The installed program in a real terminal, with Speech Dispatcher answering (auto would speak through it) and
    a stand-in for the sound player the built-in voice plays through: under a screen reader neither says a word,
    and every announcement is on the screen, the notice first."""
    from tests.test_terminal import Terminal, quit_at_once, wait_screen

    require()
    if shutil.which("tmux") is None:
        missing("tmux", "tmux")
    atspi.screen_reader(True)
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    played = tmp_path / "played.txt"
    aplay = bin_folder / "aplay"
    aplay.write_text(f"#!/bin/sh\necho \"$@\" >> {played}\ncat > /dev/null\n")
    aplay.chmod(0o755)
    with SpeechDispatcher() as daemon:
        env = {**daemon.env(), "TERM": "xterm-256color", "HOME": str(tmp_path),
               "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}",
               "DBUS_SESSION_BUS_ADDRESS": atspi.bus.address, "XDG_RUNTIME_DIR": os.environ["XDG_RUNTIME_DIR"],
               "GSETTINGS_BACKEND": "memory"}
        command = [str(PROGRAM), "--speech", "auto", "--no-sound", "--seed", "7", "--pace", "0", "--data-dir",
                   str(tmp_path), "--transcript", str(tmp_path / "transcript.txt")]
        terminal = Terminal(f"audiocrib-found-{os.getpid()}", command, env, tmp_path / "raw.bin")
        try:
            wait_screen(terminal, "Main menu: New game. 1 of 8.", timeout=20)
            terminal.keys("Enter")
            wait_screen(terminal, "Lay away two cards")
            terminal.keys("c")
            wait_screen(terminal, "no count until the play")
            quit_at_once(terminal)
        finally:
            terminal.close()
        spoken = daemon.spoken()
    said = (tmp_path / "transcript.txt").read_text().splitlines()
    shown = [line.strip() for line in (tmp_path / "raw.bin").read_bytes().decode("ascii").splitlines()]
    assert said[:3] == [AT_SPI_NOTICE, "Welcome to audiocrib. Press Tab for help at any time.",
                        "Main menu: New game. 1 of 8."]
    assert [line for line in said if line not in shown] == []  # every announcement printed
    assert shown.count(AT_SPI_NOTICE) == 1
    assert spoken == []  # nothing through the screen reader's speech server
    assert not played.exists()  # nothing through the built-in voice
