"""Speakers: where announcements go. One small interface, several backends, and a chain that survives failures.

The backends:

- `ScreenReaderSpeaker`: the player's own screen reader through accessible_output2 (NVDA, JAWS or SAPI on
  Windows, VoiceOver on macOS, Speech Dispatcher, the server Orca speaks through, on Linux).
- `VoiceSpeaker`: the built-in voice through pyttsx3 (SAPI on Windows, NSSpeechSynthesizer on macOS, espeak-ng on
  Linux), with its own rate and volume.
- `SilentSpeaker`: says nothing. The shell prints every announcement as a line itself, so this is "text lines":
  the player's own screen reader (or eyes) reads them. It is the end of every chain.
- `TextSpeaker` (prints lines), `TranscriptSpeaker` (appends them to a file) and `RecordingSpeaker` (for tests).

`open_speaker` builds the chain for a ``--speech`` mode. `FallbackSpeaker` chains speakers: when the one in use
fails (at start or in the middle of a game), the next takes over, the player is told once in a plain sentence, and
the announcement that failed is not lost.

The speech libraries are imported only inside the backends that use them, so importing this module is cheap and
works where they are missing. Nothing here imports prompt_toolkit.

>>> import io
>>> out = io.StringIO()
>>> class Broken(RecordingSpeaker):
...     name = "the screen reader"
...     def speak(self, text: str, interrupt: bool = False) -> None:
...         raise OSError("gone")
>>> chain = FallbackSpeaker([Broken(), TextSpeaker(out)])
>>> chain.speak("Bob plays the seven of clubs for twenty-two.")
>>> print(out.getvalue(), end="")
The screen reader could not speak; using text lines.
Bob plays the seven of clubs for twenty-two.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import wave
from collections.abc import Callable, Sequence
from typing import Any

from audiocrib.speech.guarded import GuardedSpeaker
from audiocrib.speech.lines import TextSpeaker, TranscriptSpeaker
from audiocrib.speech.screenreader import ScreenReaderSpeaker, load_speechd
from audiocrib.speech.speaker import (
    MAX_RATE,
    MIN_RATE,
    RecordingSpeaker,
    SilentSpeaker,
    Speaker,
    SpeechUnavailable,
    check_rate,
    check_volume,
    reason,
)

__all__ = [
    "MAX_RATE",
    "MIN_RATE",
    "MODES",
    "FallbackSpeaker",
    "GuardedSpeaker",
    "LazySpeaker",
    "RecordingSpeaker",
    "ScreenReaderSpeaker",
    "SilentSpeaker",
    "Speaker",
    "SpeechUnavailable",
    "TextSpeaker",
    "TranscriptSpeaker",
    "VoiceSpeaker",
    "check_rate",
    "check_volume",
    "load_speechd",
    "open_speaker",
]

MODES = ("auto", "screenreader", "tts", "none")
"""The ``--speech`` modes, in the order the help lists them."""


# -- the built-in voice -----------------------------------------------------------------------------------------


class _Playback:
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


def _quiet_linux_driver() -> _Playback | None:
    """On Linux, route pyttsx3's espeak driver's playback through `_Playback` and its prints to stderr."""
    if not sys.platform.startswith("linux"):
        return None
    module = sys.modules.get("pyttsx3.drivers.espeak")
    if module is None or getattr(getattr(module, "os", None), "system", None) is None:
        return None  # another driver, or a pyttsx3 that plays differently: leave it alone
    current = getattr(module, "os")  # noqa: B009 (a module attribute mypy does not know)
    playback = current if isinstance(current, _Playback) else _Playback()
    setattr(module, "os", playback)  # noqa: B010
    setattr(module, "print", _print_to_stderr)  # noqa: B010 (its "Playback error" and "Audio saved" messages)
    return playback


def _keep_espeak_commands(engine: Any) -> None:
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


def _probe_aplay() -> None:
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


_STOP = object()


class VoiceSpeaker:
    """The built-in voice: pyttsx3, driven by one thread of its own that owns the engine.

    `speak` only queues the text and returns at once; the thread says the queued texts in order, one at a time.
    `silence` drops everything queued, and ``speak(..., interrupt=True)`` does the same before queuing. The
    sentence being said is cut off on Linux, where audiocrib runs the sound player itself; elsewhere it finishes
    (pyttsx3's ``runAndWait`` cannot be interrupted). `set_rate` and `set_volume` apply from the next sentence on.

    Raises `SpeechUnavailable` at construction when the engine does not start within ``start_timeout`` seconds
    (pyttsx3 missing, no speech engine, on Linux no aplay or no sound device), and from `speak` once the thread
    has stopped or a sentence could not be played. Nothing pyttsx3 prints reaches stdout.
    """

    name = "the built-in voice"

    def __init__(self, *, rate: int | None = None, volume: float | None = None, start_timeout: float = 5.0) -> None:
        self._rate = check_rate(rate) if rate is not None else None
        self._volume = check_volume(volume) if volume is not None else None
        self._settings_changed = rate is not None or volume is not None
        self._queue: queue.Queue[object] = queue.Queue()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._pending = 0  # texts queued or being said
        self._started = threading.Event()
        self._finished = threading.Event()  # the sentence being said has ended (or is to be given up)
        self._failure: str | None = None
        self._playback: _Playback | None = None
        self._closed = False
        self._done = False  # the thread has finished serving
        self.spoken = 0
        """How many sentences the engine has finished (or been stopped in)."""
        self._thread = threading.Thread(target=self._run, name="audiocrib voice", daemon=True)
        self._thread.start()
        if not self._started.wait(start_timeout):
            self.close()
            raise SpeechUnavailable(f"The built-in voice did not start within {start_timeout:g} seconds.")
        if self._failure is not None:
            self._thread.join(1.0)
            raise SpeechUnavailable(self._failure)

    # -- the caller's side -----------------------------------------------------------------------------------

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Queue ``text``; with ``interrupt``, first silence what is queued and being said.

        Raises `SpeechUnavailable` if the voice has stopped (a sentence could not be played, or it was closed).
        """
        if self._failure is not None:
            raise SpeechUnavailable(self._failure)
        if self._closed or self._done or not self._thread.is_alive():
            raise SpeechUnavailable("The built-in voice has stopped.")
        if interrupt:
            self.silence()
        if text.strip():
            with self._lock:
                self._pending += 1
            self._queue.put(text)

    def silence(self) -> None:
        """Drop everything queued, and on Linux stop the sentence being said."""
        self._drop_queued()
        if self._playback is not None:
            with self._lock:  # held, so that the thread cannot finish the sentence meanwhile and take a new one
                if self._pending > 0:
                    self._playback.stop(pending=True)

    def set_rate(self, wpm: int) -> None:
        """Speak at ``wpm`` words a minute from the next sentence on (ValueError outside 50 to 600)."""
        wpm = check_rate(wpm)
        with self._lock:
            self._rate, self._settings_changed = wpm, True

    def set_volume(self, volume: float) -> None:
        """Speak at ``volume`` (0.0 to 1.0) from the next sentence on."""
        volume = check_volume(volume)
        with self._lock:
            self._volume, self._settings_changed = volume, True

    @property
    def rate(self) -> int | None:
        """The rate asked for (None: the engine's own)."""
        return self._rate

    @property
    def volume(self) -> float | None:
        """The volume asked for (None: the engine's own)."""
        return self._volume

    def wait_until_idle(self, timeout: float | None = None) -> bool:
        """Wait until everything queued has been said (say, before quitting); return whether it was."""
        with self._idle:
            self._idle.wait_for(lambda: self._pending <= 0 or self._done, timeout)
            return self._pending <= 0

    def close(self, timeout: float = 2.0) -> None:
        """Drop what is queued, stop the sentence being said if possible, stop the thread and wait for it."""
        self._closed = True
        self.silence()
        self._queue.put(_STOP)
        self._finished.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _drop_queued(self) -> None:
        dropped = 0
        stop = False
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is _STOP:
                stop = True
            else:
                dropped += 1
        if stop:
            self._queue.put(_STOP)
        if dropped:
            with self._idle:
                self._pending -= dropped
                self._idle.notify_all()

    # -- the thread's side ----------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            engine = self._start_engine()
        except Exception as error:
            self._failure = str(error) if isinstance(error, SpeechUnavailable) else (
                f"The built-in voice could not start: {reason(error)}.")
            self._started.set()
            return
        self._started.set()
        try:
            self._serve(engine)
        except Exception as error:  # a broken engine: the next speak() raises
            self._failure = f"The built-in voice stopped: {reason(error)}."
        finally:
            with self._idle:
                self._done = True
                self._idle.notify_all()

    def _start_engine(self) -> Any:
        if sys.platform == "win32":  # SAPI is COM: this thread needs COM initialised
            with contextlib.suppress(Exception):
                import comtypes

                comtypes.CoInitialize()
        try:
            import pyttsx3
        except ImportError as error:
            raise SpeechUnavailable("The pyttsx3 package is missing, so there is no built-in voice.") from error
        with contextlib.redirect_stdout(sys.stderr):  # nothing pyttsx3 prints may land among the game's lines
            engine = pyttsx3.init()
        self._playback = _quiet_linux_driver()
        if self._playback is not None:
            _probe_aplay()
        _keep_espeak_commands(engine)
        engine.connect("finished-utterance", self._on_finished)
        return engine

    def _on_finished(self, name: object = None, completed: object = True, **_: object) -> None:
        self._finished.set()

    def _wait_until_engine_idle(self, engine: Any, timeout: float = 2.0) -> None:
        # pyttsx3 reports the end of a sentence a moment before it is ready for the next. Commands given
        # meanwhile would run in espeak-ng's thread, out of order (a new rate got lost that way). And espeak-ng's
        # thread must be done with the sentence (its callback still ends pyttsx3's loop after reporting it).
        espeak = sys.modules.get("pyttsx3.drivers._espeak")
        playing = getattr(espeak, "IsPlaying", None)
        deadline = time.monotonic() + timeout
        with contextlib.suppress(Exception):
            while ((self.spoken and engine.isBusy()) or (playing is not None and playing())) \
                    and time.monotonic() < deadline:  # (pyttsx3 says it is busy until its first sentence)
                time.sleep(0.002)

    def _serve(self, engine: Any) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            text = str(item)
            self._wait_until_engine_idle(engine)
            with self._lock:
                changed, self._settings_changed = self._settings_changed, False
                rate, volume = self._rate, self._volume
            try:
                if changed and rate is not None:
                    engine.setProperty("rate", rate)
                if changed and volume is not None:
                    engine.setProperty("volume", volume)
                # espeak-ng applies a new rate or volume on its own thread, in order, before this sentence
                # (runAndWait no longer cancels what it was given: `_keep_espeak_commands`).
                self._finished.clear()
                engine.say(text)
                engine.runAndWait()
                # runAndWait may return before the sound has played (pyttsx3's espeak driver plays from
                # espeak-ng's own thread): wait for the end, so that only one sentence is ever handed over.
                self._finished.wait(5.0 + 0.5 * len(text))
            finally:
                with self._idle:
                    self._pending -= 1
                    self.spoken += 1
                    if self._playback is not None:
                        self._playback.reset()  # a silence that came too late for this sentence
                    self._idle.notify_all()
            if self._playback is not None and self._playback.failed:
                self._failure = f"The built-in voice could not play sound: {self._playback.failed}."
                self._playback.failed = ""
                return


# -- chains -----------------------------------------------------------------------------------------------------


class LazySpeaker:
    """A speaker built on its first announcement (a standby in a chain that costs nothing until it is needed).

    If building it fails, that announcement raises, so a `FallbackSpeaker` moves past it. Rate and volume set
    before it is built are handed to it when it is.
    """

    def __init__(self, name: str, factory: Callable[[], Speaker]) -> None:
        self.name = name
        self._factory = factory
        self.speaker: Speaker | None = None
        self._settings: dict[str, Any] = {}

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Build the speaker if need be, then speak through it."""
        if self.speaker is None:
            self.speaker = self._factory()
            for method, value in self._settings.items():
                getattr(self.speaker, method, lambda _: None)(value)
        self.speaker.speak(text, interrupt)

    def silence(self) -> None:
        """Silence the speaker if it was built."""
        if self.speaker is not None:
            self.speaker.silence()

    def close(self) -> None:
        """Close the speaker if it was built."""
        if self.speaker is not None:
            self.speaker.close()

    def set_rate(self, wpm: int) -> None:
        """Hand the rate to the speaker, now or when it is built."""
        self._set("set_rate", wpm)

    def set_volume(self, volume: float) -> None:
        """Hand the volume to the speaker, now or when it is built."""
        self._set("set_volume", volume)

    def _set(self, method: str, value: Any) -> None:
        self._settings[method] = value
        if self.speaker is not None and hasattr(self.speaker, method):
            getattr(self.speaker, method)(value)


class FallbackSpeaker:
    """Speaks through the first working speaker of ``speakers``; on a failure, moves to the next and says so once.

    The last speaker should be one that cannot fail in practice (`SilentSpeaker` or `TextSpeaker`). If every one
    fails, the announcement is dropped rather than stopping the game.

    The player hears one notice for what failed, however many speakers failed on the way, naming each and what
    is used now: "Speech Dispatcher stopped working and the built-in voice could not start; using text lines."
    A speaker that never spoke "could not speak"; one that had spoken "stopped working"; a standby that could
    not be built "could not start". ``failed``: such phrases from before the chain was built ("no screen reader
    answered"), told with the first announcement. The notice is said just before the announcement that found the
    failure. ``on_notice`` (settable at any time) is called with each notice once it is said, before the
    announcement is returned, so the shell can print it as a line too: with `SilentSpeaker` in use nothing would
    be heard. It must print or record the notice, not speak it (the chain speaks it). ``notices`` keeps them all.

    Safe to call from several threads.
    """

    def __init__(self, speakers: Sequence[Speaker], *, failed: Sequence[str] = (),
                 on_notice: Callable[[str], None] | None = None) -> None:
        if not speakers:
            raise ValueError("A fallback chain needs at least one speaker.")
        self.speakers = list(speakers)
        self.index = 0
        self.failed = list(failed)
        """What failed and has not been told yet, one phrase each ("Speech Dispatcher stopped working")."""
        self._spoke: set[int] = set()
        """The speakers (by index) that have spoken at least once."""
        self.on_notice = on_notice
        self.notices: list[str] = []
        self.problems: list[str] = []
        """Why speakers were skipped, one plain sentence each (for a log or ``--verbose``)."""
        self._lock = threading.RLock()

    @property
    def name(self) -> str:
        """The name of the speaker in use."""
        return self.current.name

    @property
    def current(self) -> Speaker:
        """The speaker in use."""
        return self.speakers[min(self.index, len(self.speakers) - 1)]

    @property
    def notice(self) -> str | None:
        """The notice to be said with the next announcement, if anything failed untold."""
        if not self.failed:
            return None
        phrases = self.failed
        joined = phrases[0] if len(phrases) == 1 else f"{', '.join(phrases[:-1])} and {phrases[-1]}"
        return f"{joined[:1].upper()}{joined[1:]}; using {self.current.name}."

    def _failure(self, speaker: Speaker) -> str:
        if isinstance(speaker, LazySpeaker) and speaker.speaker is None:
            return f"{speaker.name} could not start"
        return f"{speaker.name} {'stopped working' if self.index in self._spoke else 'could not speak'}"

    @property
    def speaking(self) -> bool:
        """Whether announcements are heard from a speaker (False once only text lines are left)."""
        return self.index < len(self.speakers) and not isinstance(self.current, SilentSpeaker)

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Say ``text`` through the speaker in use, falling back as often as needed.

        A pending notice is said first (with ``interrupt``), then ``text`` (queued after it).
        """
        with self._lock:
            while self.index < len(self.speakers):
                speaker = self.speakers[self.index]
                notice = self.notice
                try:
                    if notice:
                        speaker.speak(notice, interrupt)
                        interrupt = False
                    speaker.speak(text, interrupt)
                except Exception as error:  # any failure of a backend must not end the game
                    self.failed.append(self._failure(speaker))
                    self.problems.append(f"{speaker.name}: {reason(error)}.")
                    self._close_quietly(speaker)
                    self.index += 1
                    continue
                self._spoke.add(self.index)
                if notice:  # told once, with everything that failed on the way
                    self.failed = []
                    self.notices.append(notice)
                    if self.on_notice is not None:
                        self.on_notice(notice)
                return

    def silence(self) -> None:
        """Silence the speaker in use; a failure here is found and handled at the next announcement."""
        with self._lock:
            try:
                self.current.silence()
            except Exception:  # the next speak() falls back
                pass

    def set_rate(self, wpm: int) -> None:
        """Set the rate of every speaker in the chain that has one (the built-in voice)."""
        check_rate(wpm)
        self._each("set_rate", wpm)

    def set_volume(self, volume: float) -> None:
        """Set the volume of every speaker in the chain that has one (the built-in voice)."""
        check_volume(volume)
        self._each("set_volume", volume)

    def _each(self, method: str, value: Any) -> None:
        with self._lock:
            for speaker in self.speakers[self.index:]:
                if hasattr(speaker, method):
                    with contextlib.suppress(Exception):
                        getattr(speaker, method)(value)

    def close(self) -> None:
        """Close every speaker in the chain."""
        with self._lock:
            for speaker in self.speakers:
                self._close_quietly(speaker)

    @staticmethod
    def _close_quietly(speaker: Speaker) -> None:
        try:
            speaker.close()
        except Exception:  # closing a broken backend may fail too; it is gone either way
            pass


def open_speaker(mode: str, *, rate: int | None = None, volume: float | None = None) -> FallbackSpeaker:
    """The chain of speakers for a ``--speech`` mode, started; always ends with `SilentSpeaker` (text lines).

    - ``auto``: the screen reader; if none answers, the built-in voice; if it cannot start, text lines. While a
      screen reader speaks, the built-in voice stands by (built only if the screen reader fails in the game).
      The Windows voices reached through accessible_output2 (SAPI) do not count as a screen reader here: the
      built-in voice uses them too, with a rate and volume that can be set.
    - ``screenreader``: the screen reader, else text lines. ``tts``: the built-in voice, else text lines.
    - ``none``: text lines only.

    A backend that cannot start is skipped and the chain's first announcement tells the player so (its
    ``notice``); the reasons are in its ``problems``. ``rate`` (words a minute, 50 to 600) and ``volume`` (0.0 to
    1.0) apply to the built-in voice. Raises ValueError for an unknown mode or a rate or volume out of range.

    >>> speaker = open_speaker("none")
    >>> speaker.name, speaker.speaking
    ('text lines', False)
    """
    if mode not in MODES:
        raise ValueError(f"Unknown speech mode {mode!r}; the modes are auto, screenreader, tts and none.")
    if rate is not None:
        check_rate(rate)
    if volume is not None:
        check_volume(volume)

    def voice() -> VoiceSpeaker:
        return VoiceSpeaker(rate=rate, volume=volume)

    problems: list[str] = []
    speakers: list[Speaker] = []
    failed: list[str] = []
    printed = io.StringIO()
    if mode in ("auto", "screenreader"):
        try:
            system_voice = mode == "screenreader"
            with contextlib.redirect_stdout(printed):  # held here while the worker builds it
                speakers.append(GuardedSpeaker(
                    lambda: ScreenReaderSpeaker(system_voice=system_voice, capture_stdout=False),
                    ScreenReaderSpeaker.name))
        except SpeechUnavailable as error:
            problems.append(str(error))
            failed.append("no screen reader answered")
    if mode == "auto" and speakers:
        speakers.append(LazySpeaker(VoiceSpeaker.name, voice))
    elif mode in ("auto", "tts"):
        try:
            speakers.append(voice())
        except SpeechUnavailable as error:
            problems.append(str(error))
            failed.append(f"{VoiceSpeaker.name} could not start")
    if speakers and isinstance(speakers[0], GuardedSpeaker):
        speakers[0].problems = printed.getvalue().strip()  # what the outputs printed while starting, for a log
    speakers.append(SilentSpeaker())
    chain = FallbackSpeaker(speakers, failed=failed)
    chain.problems.extend(problems)
    return chain
