"""A real screen reader for the tests: Orca on a private desktop, and what it said.

`Desktop` starts, each as a process of its own and each stopped by its PID: a virtual X display (Xvfb), a
session bus, the accessibility bus (AT-SPI), a PulseAudio server with a null sink, Speech Dispatcher playing its
real espeak-ng module into that sink in real time, and Orca with fresh settings and a debug log. Orca's speech is
read from that log ("SPEECH OUTPUT: '...'"), in the order Orca sent it, so a test asserts what a blind player
would have heard. A recording speech module would be simpler but loses the speech events Orca waits on (see
shared notes, "A real screen reader"), so the real one plays into a sink nobody hears.

`Terminal` is mate-terminal (VTE, which exposes its text to AT-SPI; xterm does not) running a shell: a test types
the ``audiocrib`` command into it as a player would, then presses keys with xdotool.

Everything here is Linux and Debian's packages (`PACKAGES`); under CI the tests fail rather than skip when one is
missing (`require_desktop`).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

PACKAGES = ("orca", "xvfb", "at-spi2-core", "dbus", "xdotool", "mate-terminal", "python3-pyatspi", "pulseaudio",
            "speech-dispatcher", "speech-dispatcher-espeak-ng", "espeak-ng")
"""Debian's packages the screen-reader tests need (.ci/run installs them)."""

D = TypeVar("D", bound="Desktop")
_PROGRAMS = ("Xvfb", "dbus-daemon", "orca", "xdotool", "mate-terminal", "pulseaudio", "speech-dispatcher")
_BUS_LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")
_SPEECH = re.compile(r"SPEECH OUTPUT: '(.*?)' ?\[?\{'established'", re.DOTALL)
_FOLDED = re.compile(r"\s*\n\s*")


def require_desktop() -> None:
    """Skip the test when the desktop's programs are missing, except under CI, where it fails."""
    missing = [name for name in _PROGRAMS if shutil.which(name) is None]
    if not _BUS_LAUNCHER.exists():
        missing.append(str(_BUS_LAUNCHER))
    if missing:
        message = f"the screen-reader tests need {', '.join(missing)} (apt-get install {' '.join(PACKAGES)})"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def _wait(test: Callable[[], object], what: str, timeout: float, every: float = 0.05) -> object:
    end = time.monotonic() + timeout
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)


@dataclass
class Heard:
    """What Orca said from one point on: its utterances in order, each with the lines folded into one."""

    utterances: list[str]

    def text(self) -> str:
        """Everything said, one utterance a line."""
        return "\n".join(self.utterances)


class Desktop:
    """A private desktop with Orca running; `start` brings it up, `stop` ends every process it started."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env: dict[str, str] = {}
        self._processes: list[subprocess.Popen[bytes]] = []
        self._pids: list[int] = []
        self.orca_log = folder / "orca-debug.log"

    def _spawn(self, name: str, args: list[str], env_override: dict[str, str] | None = None,
               **kwargs: object) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{name}.log", "wb")  # the child keeps a copy of its own
        process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                   env=env_override or self.env, start_new_session=True,
                                   **kwargs)  # type: ignore[call-overload]
        log.close()
        self._processes.append(process)
        return process

    def start(self) -> None:
        """Start the display, the buses, the sound and speech servers and Orca; wait for "Screen reader on."."""
        f = self.folder
        for name in ("home", "runtime", "orca", "config", "speech"):
            (f / name).mkdir(mode=0o700, parents=True, exist_ok=True)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(f / "home"), "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": str(f / "runtime"), "XDG_CONFIG_HOME": str(f / "config"),
            "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "0", "GTK_MODULES": "gail:atk-bridge",
        }
        read, write = os.pipe()
        xvfb = self._spawn("xvfb", ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten",
                                    "tcp", "-noreset"], pass_fds=(write,))
        os.close(write)
        with os.fdopen(read) as displayfd:
            number = displayfd.readline().strip()
        if not number:
            raise AssertionError(f"Xvfb did not start: {(f / 'xvfb.log').read_text(errors='replace')}")
        self.env["DISPLAY"] = f":{number}"
        del xvfb
        bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                             env=self.env, capture_output=True, text=True, timeout=20, check=True)
        address, pid = bus.stdout.split()[:2]
        self._pids.append(int(pid))
        self.env["DBUS_SESSION_BUS_ADDRESS"] = address
        self._spawn("atspi", [str(_BUS_LAUNCHER), "--launch-immediately"])
        self._spawn("pulse", ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm",
                              "--load=module-native-protocol-unix", "--load=module-null-sink sink_name=nobody",
                              "--load=module-always-sink"])
        _wait(lambda: (f / "runtime" / "pulse" / "native").exists(), "PulseAudio's socket", 20)
        self._start_speech()
        # orca_site holds what makes Orca write its debug log line by line, and a pgrep that finds no other Orca
        # (Orca refuses to start beside one, and --replace would kill a developer's own).
        site = Path(__file__).with_name("orca_site")
        orca_env = dict(self.env, PYTHONPATH=str(site), PATH=f"{site}:{self.env['PATH']}")
        self._spawn("orca", ["orca", "-u", str(f / "orca"), "--debug-file", str(self.orca_log)],
                    env_override=orca_env)
        self.wait_for("Screen reader on", timeout=60)

    def _start_speech(self) -> None:
        conf = self.folder / "speech"
        (conf / "modules").mkdir(exist_ok=True)
        shutil.copy("/etc/speech-dispatcher/modules/espeak-ng.conf", conf / "modules" / "espeak-ng.conf")
        system = Path("/etc/speech-dispatcher/speechd.conf").read_text()
        # The system's symbol tables (Orca's among them) keep punctuation as Orca users hear it.
        symbols = "\n".join(line for line in system.splitlines() if line.startswith("SymbolsPreproc"))
        (conf / "speechd.conf").write_text(
            f'LogLevel 4\nLogDir "{self.folder}"\nTimeout 0\nAudioOutputMethod "pulse"\n'
            'AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"\nDefaultModule espeak-ng\n' + symbols + "\n")
        socket = self.folder / "speech.sock"
        self._spawn("speechd", ["speech-dispatcher", "-s", "-C", str(conf), "-S", str(socket), "-t", "0", "-P",
                                str(self.folder / "speechd.pid"), "-L", str(self.folder)])
        _wait(socket.exists, "Speech Dispatcher's socket", 20)
        self.env["SPEECHD_ADDRESS"] = f"unix_socket:{socket}"

    def utterances(self) -> list[str]:
        """Everything Orca has said so far, in order, each utterance's lines folded into one."""
        try:
            log = self.orca_log.read_text(errors="replace")
        except FileNotFoundError:
            return []
        return [_FOLDED.sub(" ", match).strip() for match in _SPEECH.findall(log)]

    def speech_clients(self) -> int:
        """How many connections Speech Dispatcher has taken so far (Orca's is one)."""
        try:
            return (self.folder / "speech-dispatcher.log").read_text(errors="replace").count("Adding client on fd")
        except FileNotFoundError:
            return 0

    def mark(self) -> int:
        """A point in what Orca said, for `since`."""
        return len(self.utterances())

    def since(self, mark: int) -> Heard:
        """What Orca said after ``mark``."""
        return Heard(self.utterances()[mark:])

    def wait_for(self, words: str | re.Pattern[str], *, after: int = 0, timeout: float = 30.0) -> int:
        """Wait until Orca has said ``words`` (a part of one utterance, or a pattern) after ``after``; returns the
        mark just past that utterance."""

        def found() -> int | None:
            for index, said in enumerate(self.utterances()[after:], start=after):
                if (words.search(said) if isinstance(words, re.Pattern) else words in said):
                    return index + 1
            return None

        try:
            return int(_wait(found, f"Orca to say {words!r}", timeout))  # type: ignore[call-overload]
        except AssertionError as error:
            raise AssertionError(f"{error}; Orca said since: {self.utterances()[after:]}") from None

    def quiet(self, seconds: float = 1.5, timeout: float = 60.0) -> int:
        """Wait until Orca has said nothing new for ``seconds``; returns the mark then."""
        last, since = self.mark(), time.monotonic()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            time.sleep(0.1)
            now = self.mark()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= seconds:
                return now
        raise AssertionError(f"Orca did not fall quiet in {timeout} s")

    def stop(self) -> None:
        """Stop every process started, newest first, by PID (and each one's own children by process group)."""
        for process in reversed(self._processes):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for process in reversed(self._processes):
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        for pid_file in (self.folder / "speechd.pid",):
            try:
                self._pids.append(int(pid_file.read_text().strip()))
            except (OSError, ValueError):
                pass
        for pid in self._pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        self._processes.clear()
        self._pids.clear()


class Window:
    """A window on the desktop (``window``, xdotool's id) that takes keys as a player types them."""

    env: dict[str, str]
    window: str
    process: subprocess.Popen[bytes]
    """The program that owns the window, in a process group of its own."""

    def focus(self) -> None:
        """Give the window the keyboard focus (there is no window manager to do it)."""
        subprocess.run(["xdotool", "windowactivate", "--sync", self.window], env=self.env, timeout=10,
                       capture_output=True)
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window], env=self.env, timeout=10, check=True)

    def keys(self, *keys: str, gap: float = 0.0) -> None:
        """Press each key (xdotool's names: Down, Escape, F1, Return, Tab, question, c) in turn."""
        for key in keys:
            subprocess.run(["xdotool", "key", "--clearmodifiers", key], env=self.env, timeout=10, check=True)
            if gap:
                time.sleep(gap)

    def type(self, text: str, delay: int = 20) -> None:
        """Type ``text`` as keys, ``delay`` milliseconds apart."""
        subprocess.run(["xdotool", "type", "--delay", str(delay), text], env=self.env, timeout=60, check=True)

    def close(self) -> None:
        """Close the window's program (and whatever runs in it)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


class Terminal(Window):
    """mate-terminal on the desktop, running a plain shell, focused; a test types into it as a player would."""

    def __init__(self, desktop: Desktop, name: str, columns: int = 80, rows: int = 24) -> None:
        self.desktop = desktop
        self.env = dict(desktop.env, PS1="$ ", TERM="xterm-256color")
        self.process = desktop._spawn(name, ["mate-terminal", "--disable-factory", f"--geometry={columns}x{rows}",
                                             "--title", name, "--", "bash", "--norc", "--noprofile"])
        self.window = str(_wait(self._find, "the terminal's window", 30))
        self.focus()

    def _find(self) -> str | None:
        found = subprocess.run(["xdotool", "search", "--all", "--pid", str(self.process.pid), "--onlyvisible",
                                "--name", "."], env=self.env, capture_output=True, text=True, timeout=10)
        windows = found.stdout.split()
        return windows[-1] if windows else None



def run_desktop(desktop: D, *requirements: Callable[[], None]) -> Iterator[D]:
    """For a fixture: check ``requirements``, start ``desktop``, yield it, and stop it whatever happens."""
    require_desktop()
    for requirement in requirements:
        requirement()
    try:
        desktop.start()
        yield desktop
    finally:
        desktop.stop()


@pytest.fixture(scope="module", name="desktop")
def desktop_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Desktop]:
    """One desktop with Orca for a test module."""
    yield from run_desktop(Desktop(tmp_path_factory.mktemp("desktop")))
