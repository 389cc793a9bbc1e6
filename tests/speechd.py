"""A private Speech Dispatcher daemon for tests: every message it is asked to speak is appended to a file.

This is the recipe of ``/work/shared/notes/speech-and-terminal.md``: a daemon started in its own session
(``setsid``) with its own configuration, socket, log folder and ``HOME``; a "recorder" output module (the generic
module running ``printf '%s\\n' '$DATA' >> spoken.txt``) as the default module; and an ALSA file device in the
daemon's ``$HOME/.asoundrc``, because Speech Dispatcher refuses to start without an audio device, even for the
generic module. Clients reach it through ``SPEECHD_ADDRESS=unix_socket:...``; the system's own daemon (if any) is
never touched, and autospawning is switched off for the clients given `SpeechDispatcher.env` (``SPEECHD_CMD`` set
to ``false``), so a test can never start a real daemon by accident.

Usage in a test module (the fixture ``speech_dispatcher`` starts a daemon, points this process's
``SPEECHD_ADDRESS`` at it, and stops it afterwards; it skips where the packages are missing, and fails instead
when ``CI`` is set). Importing the fixture's function makes the fixture available in that module; it is named
``speech_dispatcher_fixture`` so that the test's parameter does not shadow the import (ruff's F811)::

    from tests.speechd import SpeechDispatcher, speech_dispatcher_fixture  # noqa: F401 (a fixture)

    def test_it_speaks(speech_dispatcher: SpeechDispatcher) -> None:
        speaker = ScreenReaderSpeaker()
        speaker.speak("Fifteen two.")
        speech_dispatcher.wait_for("Fifteen two.")
        speaker.close()

Or by hand, for a program run in another process (say, inside tmux)::

    with SpeechDispatcher(slow=True) as daemon:   # slow: the module takes a second per message
        env = {**os.environ, **daemon.env()}
        subprocess.run([...], env=env)
        daemon.wait_for(lambda spoken: "Your turn." in spoken, timeout=10)
        daemon.kill()                              # the daemon dies as if it crashed

Files, all in `SpeechDispatcher.directory` (a short folder under the system temporary folder, because a Unix
socket path must stay under about 100 characters): ``sock``, ``pid``, ``spoken.txt`` (one line per message
finished), ``started.txt`` (slow mode only: one line per message begun), ``log/`` (the daemon's logs and output),
``conf/`` and ``home/``. Look in ``log/`` when a daemon does not start: `SpeechDispatcher.start` puts the tail of
its output in the error.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType

import pytest

from audiocrib.speech import load_speechd

__all__ = ["SpeechDispatcher", "available", "require", "speech_dispatcher_fixture"]

SYSTEM_MODULE_CONF = Path("/etc/speech-dispatcher/modules")

SPEECHD_CONF = """\
LogLevel 3
LogDir "{d}/log"
Timeout 0
AudioOutputMethod "alsa"
AddModule "recorder" "sd_generic" "recorder.conf"
AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
DefaultModule recorder
"""

# The generic module runs this through the shell, with the message in place of the first $DATA (only the first
# one is substituted); "\\n" must be written doubled here; "|" as the only delimiter keeps a message in one piece.
RECORDER_CONF = """\
GenericExecuteSynth "{command}"
GenericDelimiters "|"
GenericMaxChunkLength 100000
GenericLanguage "en" "en" "utf-8"
AddVoice "en" "MALE1" "en"
DefaultVoice "en"
"""
FAST_COMMAND = "printf '%s\\\\n' '$DATA' >> {d}/spoken.txt"
# Slow: the message is noted as begun, then "spoken" for a second, then noted as finished. A cancelled message is
# in started.txt and not in spoken.txt.
SLOW_COMMAND = ("printf '%s\\\\n' '$DATA' > {d}/current.txt; cat {d}/current.txt >> {d}/started.txt; "
                "sleep 1; cat {d}/current.txt >> {d}/spoken.txt")

ASOUNDRC = 'pcm.!default {{ type file  slave.pcm "null"  file "{d}/audio.wav"  format "wav" }}\n'


def available() -> bool:
    """Whether a private daemon can run here: the speech-dispatcher program and the speechd Python package."""
    return shutil.which("speech-dispatcher") is not None and load_speechd()


def require() -> None:
    """Skip the calling test where Speech Dispatcher is missing; under CI (``CI`` set), fail instead."""
    if available():
        return
    message = ("Speech Dispatcher is not installed (apt-get install speech-dispatcher python3-speechd "
               "speech-dispatcher-espeak-ng espeak-ng alsa-utils).")
    if os.environ.get("CI"):
        pytest.fail(message + " CI must run these tests.")
    pytest.skip(message)


class SpeechDispatcher:
    """A private speech-dispatcher process recording what it is asked to say. A context manager.

    ``directory``: where to put its files (default: a new short temporary folder, removed by `stop`).
    ``slow``: every message takes a second to "speak", so interruption and cancelling can be observed.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None, *, slow: bool = False) -> None:
        self._owns_directory = directory is None
        self.directory = Path(directory) if directory is not None else Path(tempfile.mkdtemp(prefix="sd-"))
        self.slow = slow
        self.socket = self.directory / "sock"
        self.spoken_file = self.directory / "spoken.txt"
        self.started_file = self.directory / "started.txt"
        self.log_dir = self.directory / "log"
        self.process: subprocess.Popen[bytes] | None = None

    # -- the address clients use ------------------------------------------------------------------------------

    @property
    def address(self) -> str:
        """The ``SPEECHD_ADDRESS`` value that reaches this daemon."""
        return f"unix_socket:{self.socket}"

    def env(self) -> dict[str, str]:
        """Variables to merge into a client's environment: the address, and autospawning switched off."""
        return {"SPEECHD_ADDRESS": self.address, "SPEECHD_CMD": shutil.which("false") or "/bin/false"}

    # -- starting and stopping ---------------------------------------------------------------------------------

    def start(self, slow: bool | None = None, timeout: float = 10.0) -> SpeechDispatcher:
        """Write the configuration, start the daemon in its own session and wait for its socket. Returns self."""
        if self.process is not None:
            raise RuntimeError("This Speech Dispatcher is already started.")
        if slow is not None:
            self.slow = slow
        d = self.directory
        for sub in ("conf/modules", "log", "home"):
            (d / sub).mkdir(parents=True, exist_ok=True)
        (d / "conf" / "speechd.conf").write_text(SPEECHD_CONF.format(d=d), encoding="utf-8")
        command = (SLOW_COMMAND if self.slow else FAST_COMMAND).format(d=d)
        (d / "conf" / "modules" / "recorder.conf").write_text(RECORDER_CONF.format(command=command),
                                                              encoding="utf-8")
        espeak_conf = SYSTEM_MODULE_CONF / "espeak-ng.conf"
        if espeak_conf.exists():
            shutil.copy(espeak_conf, d / "conf" / "modules" / "espeak-ng.conf")
        (d / "home" / ".asoundrc").write_text(ASOUNDRC.format(d=d), encoding="utf-8")
        self.spoken_file.touch()
        env = {**os.environ, "HOME": str(d / "home")}
        env.pop("SPEECHD_ADDRESS", None)
        with open(self.log_dir / "stdout", "wb") as out:
            self.process = subprocess.Popen(
                ["speech-dispatcher", "-s", "-C", str(d / "conf"), "-S", str(self.socket), "-t", "0",
                 "-P", str(d / "pid"), "-L", str(self.log_dir)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env,
                start_new_session=True)  # setsid: its own session and process group, with its modules
        deadline = time.monotonic() + timeout
        while not self.socket.is_socket():
            if self.process.poll() is not None or time.monotonic() > deadline:
                output = self._log_tail()
                self.stop()
                raise RuntimeError(f"Speech Dispatcher did not start; its output ends with: {output}")
            time.sleep(0.01)
        # The socket file exists from bind(), a moment before the daemon listens: wait for it to answer.
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                output = self._log_tail()
                self.stop()
                raise RuntimeError(f"Speech Dispatcher did not answer; its output ends with: {output}")
            time.sleep(0.01)
        return self

    def _answers(self) -> bool:
        """Whether the daemon takes a connection and answers an SSIP command (QUIT: "231 HAPPY HACKING")."""
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                probe.settimeout(2)
                probe.connect(str(self.socket))
                probe.sendall(b"QUIT\r\n")
                return probe.recv(100).startswith(b"231")
        except OSError:
            return False

    @property
    def running(self) -> bool:
        """Whether the daemon process is alive."""
        return self.process is not None and self.process.poll() is None

    @property
    def pid(self) -> int | None:
        """The daemon's process id (its process group is the same number)."""
        return self.process.pid if self.process is not None else None

    def kill(self) -> None:
        """Kill the daemon and its modules at once (SIGKILL), as a crash would, and wait until they are gone.

        The socket file stays behind, as after a real crash; clients get a connection error.
        """
        self._signal_group(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=5)

    def stop(self) -> None:
        """Stop the daemon (SIGTERM, then SIGKILL after two seconds) and remove the folder if this object made it."""
        if self.process is not None:
            if self.process.poll() is None:
                self._signal_group(signal.SIGTERM)
                try:
                    self.process.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
            self._signal_group(signal.SIGKILL)  # modules left over, or a daemon that did not stop
            self.process.wait(timeout=5)
        if self._owns_directory:
            shutil.rmtree(self.directory, ignore_errors=True)

    def _signal_group(self, sig: signal.Signals) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass

    def _log_tail(self) -> str:
        try:
            text = (self.log_dir / "stdout").read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            text = ""
        return text[-500:] or "(nothing)"

    def __enter__(self) -> SpeechDispatcher:
        return self if self.process is not None else self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()

    # -- what was said -----------------------------------------------------------------------------------------

    def spoken(self) -> list[str]:
        """Every message finished so far, one per line, oldest first."""
        return _lines(self.spoken_file)

    def started(self) -> list[str]:
        """Slow mode: every message begun so far (a cancelled one is here and not in `spoken`)."""
        return _lines(self.started_file)

    def wait_for(self, expected: str | Callable[[list[str]], bool], timeout: float = 5.0) -> list[str]:
        """Poll `spoken` until it holds the line ``expected`` (or ``expected(spoken)`` is true); return it.

        Raises AssertionError, quoting what was spoken, after ``timeout`` seconds.
        """
        def done(lines: list[str]) -> bool:
            return expected in lines if isinstance(expected, str) else expected(lines)

        deadline = time.monotonic() + timeout
        while True:
            lines = self.spoken()
            if done(lines):
                return lines
            if time.monotonic() > deadline:
                raise AssertionError(f"Speech Dispatcher did not say {expected!r} within {timeout} s; "
                                     f"it said {lines!r}.")
            time.sleep(0.005)


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []


@pytest.fixture(name="speech_dispatcher")
def speech_dispatcher_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[SpeechDispatcher]:
    """A started private daemon; this process's environment points at it (and cannot autospawn) meanwhile."""
    require()
    with SpeechDispatcher() as daemon:
        for name, value in daemon.env().items():
            monkeypatch.setenv(name, value)
        yield daemon
