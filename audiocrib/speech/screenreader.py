"""The player's own screen reader, through accessible_output2: `ScreenReaderSpeaker`, and on Linux the loading
of Speech Dispatcher's client (`load_speechd`), which the distribution puts outside a virtual environment."""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import io
import os
import sys
from collections.abc import Iterator
from typing import Any

from audiocrib.speech.speaker import SpeechUnavailable

# Where Linux distributions put the speechd package (pure Python, any Python 3 can load it): Debian and Ubuntu,
# then Fedora, Arch and others (under a versioned folder, possibly of another Python version).
_SPEECHD_FOLDERS = ("/usr/lib/python3/dist-packages/speechd", "/usr/lib/python3*/site-packages/speechd",
                    "/usr/lib64/python3*/site-packages/speechd")


def load_speechd() -> bool:
    """Make ``import speechd`` work on Linux; return whether it does. Does nothing elsewhere (returns False).

    ``speechd`` (Speech Dispatcher's client, which accessible_output2 uses on Linux) is not on PyPI: it comes with
    the distribution (Debian's ``python3-speechd``), outside a virtual environment's path. If it cannot be imported
    normally, the package folder alone is loaded from where the distribution put it and registered as
    ``speechd``; the rest of the system's packages stay off ``sys.path``.
    """
    if not sys.platform.startswith("linux"):
        return False
    if "speechd" in sys.modules or importlib.util.find_spec("speechd") is not None:
        return True
    for pattern in _SPEECHD_FOLDERS:
        for folder in sorted(glob.glob(pattern), reverse=True):
            init = os.path.join(folder, "__init__.py")
            if not os.path.isfile(init):
                continue
            spec = importlib.util.spec_from_file_location("speechd", init, submodule_search_locations=[folder])
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            sys.modules["speechd"] = module
            try:
                spec.loader.exec_module(module)
            except Exception:  # a broken or incompatible copy: try the next, or give up
                del sys.modules["speechd"]
                continue
            return True
    return False


@contextlib.contextmanager
def _no_autospawn() -> Iterator[None]:
    """While accessible_output2 connects: Speech Dispatcher's client starts a daemon of its own when none answers,
    and that daemon outlives the game (and on a machine without sound it may never speak). With its spawn command
    pointed at nothing, only a daemon already running (the one a screen reader such as Orca uses) is reached."""
    before = os.environ.get("SPEECHD_CMD")
    os.environ["SPEECHD_CMD"] = os.path.join(os.devnull, "no-autospawn")  # a path under a file: never exists
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SPEECHD_CMD", None)
        else:
            os.environ["SPEECHD_CMD"] = before


# accessible_output2's output names, as a player would say them.
_READER_NAMES = {"NVDA": "NVDA", "jaws": "JAWS", "sapi5": "Windows speech", "sapi4": "Windows speech",
                 "VoiceOver": "VoiceOver", "Linux Speech Dispatcher": "Speech Dispatcher",
                 "Linux ESpeak": "eSpeak", "Window-Eyes": "Window-Eyes", "System Access": "System Access",
                 "Dolphin": "Dolphin", "PC Talker": "PC Talker", "ZDSR": "ZDSR"}


class ScreenReaderSpeaker:
    """Speaks through the player's screen reader, by way of accessible_output2.

    accessible_output2 knows every output of the platform, in order: on Windows NVDA, JAWS and others, then SAPI
    (the Windows voices, always there); on macOS VoiceOver; on Linux Speech Dispatcher (Orca's speech server).
    Each announcement goes to the first one active at that moment, so a screen reader restarted during a game is
    found again; ``name`` is the one in use ("NVDA", "Speech Dispatcher"). With ``system_voice=False``, SAPI does
    not count as a screen reader (``--speech auto`` then prefers the built-in voice, whose rate can be set).

    Raises `SpeechUnavailable` at construction when accessible_output2 is missing or no output is active, and from
    `speak` when the output fails (Speech Dispatcher's client raises when its daemon has died, although it still
    says it is active). `silence` and `close` never raise.
    """

    name = "the screen reader"

    def __init__(self, *, system_voice: bool = True, capture_stdout: bool = True) -> None:
        self.system_voice = system_voice
        load_speechd()
        try:
            from accessible_output2.outputs.auto import Auto
        except Exception as error:  # ImportError, or a platform library that does not load
            raise SpeechUnavailable(
                "The accessible_output2 package is missing, so audiocrib cannot reach a screen reader.") from error
        # The outputs print their errors to stdout while they are built; keep them off the player's screen.
        # (sys.stdout is one for all threads: a caller building this on another thread captures it instead.)
        capture = contextlib.redirect_stdout(io.StringIO()) if capture_stdout else contextlib.nullcontext(None)
        with capture as printed, _no_autospawn():
            try:
                self._auto: Any = Auto()
            except Exception as error:
                raise SpeechUnavailable("No screen reader answered.") from error
        self.problems = printed.getvalue().strip() if printed is not None else ""
        """What the outputs printed while starting (say, "Cannot find Speech Dispatcher..."), for a log."""
        try:
            self._output()
        except Exception as error:
            self.close()
            raise SpeechUnavailable("No screen reader answered.") from error

    def _first_active(self) -> Any:
        for output in getattr(self._auto, "outputs", ()):
            if not self.system_voice and getattr(output, "system_output", False):
                continue
            if output.is_active():
                return output
        return None

    def _output(self) -> Any:
        output = self._first_active()
        if output is None:
            raise SpeechUnavailable(f"{self.name} stopped answering.")
        self.name = _READER_NAMES.get(str(getattr(output, "name", "")), ScreenReaderSpeaker.name)
        return output

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Send ``text`` to the screen reader; any failure propagates (so a `FallbackSpeaker` moves on)."""
        self._output().speak(text, interrupt=interrupt)

    def silence(self) -> None:
        """Ask the screen reader to stop speaking (not every one can: JAWS through accessible_output2 cannot)."""
        with contextlib.suppress(Exception):
            output = self._first_active()
            if output is not None and hasattr(output, "silence"):
                output.silence()

    def close(self) -> None:
        """Close the connections the outputs hold (Speech Dispatcher's client, whose thread keeps a process alive)."""
        for output in getattr(self._auto, "outputs", ()):
            if getattr(output, "_client", None) is not None and hasattr(output, "close"):
                with contextlib.suppress(Exception):
                    output.close()
                with contextlib.suppress(Exception):
                    output._client = None

