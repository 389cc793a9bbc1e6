"""Finding a screen reader that is running, so that ``--speech auto`` can leave the speaking to it.

A screen reader already reads every line the game prints; if audiocrib spoke too, the player would hear everything
twice. `find_screen_reader` looks, within a time limit (one second in all), and returns the `ScreenReader` found or
None. It never raises and never prints. The detection is chosen by ``sys.platform`` when it runs:

- Linux: an ``orca`` process of this user in this desktop session (`orca_running`, from ``/proc``), AT-SPI's
  ``ScreenReaderEnabled`` (`atspi_screen_reader_enabled`: the ``org.a11y.Status`` property of ``/org/a11y/bus`` on
  ``org.a11y.Bus``, on the session bus, asked through jeepney), or GNOME's ``screen-reader-enabled`` setting
  (`gnome_screen_reader_enabled`, read with ``gsettings``). No session bus means no AT-SPI: nothing found there.
- Windows: NVDA or JAWS, as accessible_output2 finds them (``is_active``); the Windows voices (SAPI) do not count.
- macOS: a VoiceOver process.

>>> ScreenReader("Orca", "an orca process").notice
"Orca is running, so it reads the game; audiocrib's own voice stays off."
>>> ScreenReader(None, "AT-SPI's ScreenReaderEnabled").notice
"Your screen reader is running, so it reads the game; audiocrib's own voice stays off."
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["TIME_LIMIT", "ScreenReader", "atspi_screen_reader_enabled", "find_screen_reader",
           "gnome_screen_reader_enabled", "orca_running", "session_bus_address"]

TIME_LIMIT = 1.0
"""Seconds the whole search may take at most; what is not known by then counts as no screen reader."""

_SESSION_MARKS = ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "DISPLAY")
"""Variables that tell a desktop session apart: a process shares ours if one of them has the same value in both."""


@dataclass(frozen=True, slots=True)
class ScreenReader:
    """A screen reader found running: its ``name`` as a player says it ("Orca", "NVDA"; None when only a setting
    says that one is on) and the ``evidence`` found ("an orca process", "AT-SPI's ScreenReaderEnabled")."""

    name: str | None
    evidence: str

    @property
    def notice(self) -> str:
        """The one sentence that tells the player the screen reader reads the game and audiocrib stays quiet."""
        who = self.name or "Your screen reader"
        return f"{who} is running, so it reads the game; audiocrib's own voice stays off."


def find_screen_reader(timeout: float = TIME_LIMIT) -> ScreenReader | None:
    """The screen reader running for this player, or None if none is found within ``timeout`` seconds.

    The search runs on a thread of its own, each of its steps limited to the time left, so a process, a bus or a
    library that does not answer cannot hold up the start: past ``timeout`` this returns None and the thread ends
    by itself once its step gives up. Never raises, never prints.
    """
    deadline = time.monotonic() + timeout
    found: list[ScreenReader | None] = []
    done = threading.Event()

    def search() -> None:
        try:
            found.append(_search(sys.platform, deadline))
        except Exception:  # a check that breaks finds nothing; the game starts as if no screen reader ran
            found.append(None)
        finally:
            done.set()

    threading.Thread(target=search, name="audiocrib screen reader search", daemon=True).start()
    if not done.wait(max(0.0, deadline - time.monotonic())) or not found:
        return None
    return found[0]


def _search(platform: str, deadline: float) -> ScreenReader | None:
    if platform.startswith("linux"):
        return _linux(deadline)
    if platform == "win32":
        return _windows()
    if platform == "darwin":
        return _macos(deadline)
    return None


# -- Linux -------------------------------------------------------------------------------------------------------


def _linux(deadline: float) -> ScreenReader | None:
    if orca_running():
        return ScreenReader("Orca", "an orca process")
    if atspi_screen_reader_enabled(_left(deadline)):
        return ScreenReader(None, "AT-SPI's ScreenReaderEnabled")
    if gnome_screen_reader_enabled(_left(deadline)):
        return ScreenReader(None, "GNOME's screen-reader-enabled setting")
    return None


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


def orca_running(proc: str = "/proc", environ: Mapping[str, str] | None = None) -> bool:
    """Whether an Orca process of this user runs in this desktop session (Linux; reads ``proc``).

    A process is Orca when the kernel names it ``orca`` (Orca is a script run as ``orca``) or Python runs a file
    named ``orca`` (``python3 -OO /usr/bin/orca``). It counts only if it is this user's and shares this
    process's desktop session: the same session bus address, Wayland display or X display (``environ``: this
    process's environment). An Orca on another desktop, or one this terminal is not shown on (a login over SSH,
    the text console), does not read this terminal.
    """
    mine = _session_marks(os.environ if environ is None else environ)
    if not mine:
        return False
    uid = os.getuid()
    try:
        entries = list(os.scandir(proc))
    except OSError:
        return False
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != uid or not _is_orca(entry.path):
                continue
            theirs = _session_marks(_environ_of(entry.path))
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if any(theirs.get(name) == value for name, value in mine.items()):
            return True
    return False


def _is_orca(folder: str) -> bool:
    with open(os.path.join(folder, "comm"), "rb") as file:
        name = file.read().strip()
    if name == b"orca":
        return True
    if not name.startswith(b"python"):
        return False
    with open(os.path.join(folder, "cmdline"), "rb") as file:
        argv = file.read().split(b"\0")
    script = next((part for part in argv[1:] if part and not part.startswith(b"-")), b"")
    return os.path.basename(script) == b"orca"


def _environ_of(folder: str) -> dict[str, str]:
    with open(os.path.join(folder, "environ"), "rb") as file:
        pairs = (item.partition(b"=") for item in file.read().split(b"\0") if item)
        return {name.decode(errors="replace"): value.decode(errors="replace") for name, _, value in pairs}


def _session_marks(environ: Mapping[str, str]) -> dict[str, str]:
    return {name: environ[name] for name in _SESSION_MARKS if environ.get(name)}


def session_bus_address(environ: Mapping[str, str] | None = None) -> str | None:
    """The session bus's address as D-Bus clients find it: ``DBUS_SESSION_BUS_ADDRESS``, else the socket ``bus``
    in ``XDG_RUNTIME_DIR`` if there is one (systemd's per-user bus); None when there is no session bus."""
    environ = os.environ if environ is None else environ
    address = environ.get("DBUS_SESSION_BUS_ADDRESS")
    if address:
        return address
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime:
        path = os.path.join(runtime, "bus")
        with contextlib.suppress(OSError):
            if stat.S_ISSOCK(os.stat(path).st_mode):
                return f"unix:path={path}"
    return None


def atspi_screen_reader_enabled(timeout: float = TIME_LIMIT, address: str | None = None) -> bool:
    """Whether AT-SPI says a screen reader is on: ``ScreenReaderEnabled`` of ``org.a11y.Status`` on the object
    ``/org/a11y/bus`` of ``org.a11y.Bus``, on the session bus (``address``; default `session_bus_address`).

    The call may not start the AT-SPI bus (it is sent with "no auto start"): a session without one has no screen
    reader. No bus, no AT-SPI, an error, or no answer within ``timeout`` seconds: False.
    """
    address = address or session_bus_address()
    if not address:
        return False
    try:
        return _ask_atspi(address, time.monotonic() + timeout)
    except Exception:  # ImportError (no jeepney), an address jeepney cannot reach, a refusal, a timeout
        return False


def _ask_atspi(address: str, deadline: float) -> bool:
    from jeepney import DBusAddress, HeaderFields, MessageFlag, MessageType, Parser, Properties, message_bus
    from jeepney.auth import BEGIN, Authenticator
    from jeepney.bus import get_bus

    status = DBusAddress("/org/a11y/bus", bus_name="org.a11y.Bus", interface="org.a11y.Status")
    ask = Properties(status).get("ScreenReaderEnabled")
    ask.header.flags = MessageFlag.no_auto_start
    # jeepney's own blocking connection waits for the bus's answer to Hello without a limit, so the conversation
    # is held here on a socket whose every call is limited to the time left.
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:

        def limited() -> socket.socket:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("The session bus did not answer in time.")
            sock.settimeout(left)
            return sock

        def receive() -> bytes:
            data = limited().recv(4096)
            if not data:
                raise ConnectionError("The session bus closed the connection.")
            return data

        limited().connect(get_bus(address))
        authenticator = Authenticator()
        for line in authenticator:
            limited().sendall(line)
            authenticator.feed(receive())
        limited().sendall(BEGIN + message_bus.Hello().serialise(serial=1) + ask.serialise(serial=2))
        parser = Parser()
        while True:
            parser.add_data(receive())
            while (message := parser.get_next_message()) is not None:
                if message.header.fields.get(HeaderFields.reply_serial) == 2:
                    return bool(message.header.message_type == MessageType.method_return
                                and message.body == (("b", True),))


def gnome_screen_reader_enabled(timeout: float = TIME_LIMIT) -> bool:
    """Whether GNOME's setting ``org.gnome.desktop.a11y.applications screen-reader-enabled`` is on (read with
    ``gsettings``; False without it, without the schema, on an error, or after ``timeout`` seconds)."""
    program = shutil.which("gsettings")
    if program is None or timeout <= 0:
        return False
    try:
        done = subprocess.run([program, "get", "org.gnome.desktop.a11y.applications", "screen-reader-enabled"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and done.stdout.strip() == b"true"


# -- Windows and macOS (kept thin: they cannot be tried here) ------------------------------------------------


def _windows() -> ScreenReader | None:
    with contextlib.suppress(Exception):  # JAWS is reached through COM, which this thread must initialise
        import comtypes

        comtypes.CoInitialize()
    for module, name in (("nvda", "NVDA"), ("jaws", "JAWS")):
        try:
            output = __import__(f"accessible_output2.outputs.{module}", fromlist=["output_class"]).output_class()
            if output.is_active():
                return ScreenReader(name, f"{name}, through accessible_output2")
        except Exception:  # not installed, not running, or its library does not load
            continue
    return None


def _macos(deadline: float) -> ScreenReader | None:
    program = shutil.which("pgrep")
    if program is None:
        return None
    try:
        done = subprocess.run([program, "-x", "VoiceOver"], stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=_left(deadline), check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return ScreenReader("VoiceOver", "a VoiceOver process") if done.returncode == 0 else None
