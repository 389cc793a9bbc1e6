"""How the built-in voice plays sound on Linux: pyttsx3's espeak driver, with its sound player run by audiocrib
(`Playback`: no shell, no output on the terminal, failures noted, a sentence that can be cut off), its prints
sent to stderr, its cancel of espeak-ng's queued commands removed, and a check that aplay can play at all."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import wave
from typing import Any

from audiocrib.speech.speaker import SpeechUnavailable


class Playback:
    """Stands in for ``os`` inside pyttsx3's espeak driver (Linux), which plays each sentence with
    ``os.system("aplay FILE -q")``: runs the player itself, without a shell and with its output kept off the
    terminal, notes its failures, and can stop the sentence being played (which pyttsx3 itself cannot)."""

    def __init__(self) -> None:
        self.failed = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._stopped = False

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def system(self, command: str) -> int:
        with self._lock:
            if self._stopped:  # silenced before this sentence began playing
                self._stopped = False
                return 0
            errors = tempfile.TemporaryFile()  # not a pipe: waiting for the player must not wait for its children
            try:
                process = subprocess.Popen(shlex.split(command), stdin=subprocess.DEVNULL,
                                           stdout=subprocess.DEVNULL, stderr=errors)
            except OSError as error:
                errors.close()
                self.failed = str(error)
                return 127
            self._process = process
        with errors:
            process.wait()
            with self._lock:
                self._process = None
                stopped, self._stopped = self._stopped, False
            if process.returncode != 0 and not stopped:
                errors.seek(0)
                said = errors.read().decode("utf-8", "replace").strip().splitlines()
                self.failed = said[-1] if said else f"exit {process.returncode}"
        return process.returncode

    def stop(self, pending: bool = False) -> None:
        """Stop the sentence being played; with ``pending``, also the next one if none is playing yet."""
        with self._lock:
            if self._process is not None and self._process.poll() is None:
                self._stopped = True
                with contextlib.suppress(OSError):
                    self._process.terminate()
            elif pending:
                self._stopped = True

    def reset(self) -> None:
        """Forget a stop that found nothing to stop."""
        with self._lock:
            if self._process is None:
                self._stopped = False


def quiet_linux_driver() -> Playback | None:
    """On Linux, route pyttsx3's espeak driver's playback through `Playback` and its prints to stderr."""
    if not sys.platform.startswith("linux"):
        return None
    module = sys.modules.get("pyttsx3.drivers.espeak")
    if module is None or getattr(getattr(module, "os", None), "system", None) is None:
        return None  # another driver, or a pyttsx3 that plays differently: leave it alone
    current = getattr(module, "os")  # noqa: B009 (a module attribute mypy does not know)
    playback = current if isinstance(current, Playback) else Playback()
    setattr(module, "os", playback)  # noqa: B010
    setattr(module, "print", _print_to_stderr)  # noqa: B010 (its "Playback error" and "Audio saved" messages)
    return playback


def keep_espeak_commands(engine: Any) -> None:
    """Stop pyttsx3's espeak driver from cancelling espeak-ng each time ``runAndWait`` starts.

    ``runAndWait`` starts by stopping the driver. The driver then calls ``espeak_Cancel`` if espeak-ng's own
    thread is busy at that instant. For this voice, that thread can only be busy with commands the voice has just
    queued, such as a new rate or volume. Before a voice's first sentence, pyttsx3 holds those commands back and
    queues them inside ``runAndWait``, a few microseconds before it stops the driver. The cancel then dropped them
    now and then on a busy machine: a voice started with ``rate=300`` spoke at the old rate. The voice never
    needs this cancel because it hands over one sentence at a time, and `VoiceSpeaker.silence` stops the player
    itself. Does nothing for other drivers.
    """
    module = sys.modules.get("pyttsx3.drivers.espeak")
    driver = getattr(getattr(engine, "proxy", None), "_driver", None)
    espeak_driver = getattr(module, "EspeakDriver", None)
    if isinstance(espeak_driver, type) and isinstance(driver, espeak_driver):
        setattr(driver, "stop", _no_cancel)  # noqa: B010 (this engine's driver only; pyttsx3 stays as it is)


def _no_cancel() -> None:
    """Stands in for the espeak driver's ``stop``: espeak-ng finishes what it was given, in order."""


def _print_to_stderr(*args: Any, **kwargs: Any) -> None:
    kwargs["file"] = sys.stderr
    print(*args, **kwargs)


def probe_aplay() -> None:
    """Play a hundredth of a second of silence with aplay; raise SpeechUnavailable if it cannot."""
    if shutil.which("aplay") is None:
        raise SpeechUnavailable("The built-in voice needs the aplay program, from alsa-utils, which is missing.")
    handle, path = tempfile.mkstemp(suffix=".wav", prefix="audiocrib-")
    try:
        with os.fdopen(handle, "wb") as raw, wave.open(raw, "wb") as sound:
            sound.setnchannels(1)
            sound.setsampwidth(2)
            sound.setframerate(22050)
            sound.writeframes(b"\0\0" * 220)
        result = subprocess.run(["aplay", "-q", path], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SpeechUnavailable("The built-in voice found no sound device.") from error
    finally:
        with contextlib.suppress(OSError):
            os.remove(path)
    if result.returncode != 0:
        raise SpeechUnavailable("The built-in voice found no sound device.")

