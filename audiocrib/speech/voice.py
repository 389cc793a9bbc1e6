"""The built-in voice: `VoiceSpeaker`, pyttsx3 on a thread of its own (SAPI on Windows, NSSpeechSynthesizer on
macOS, espeak-ng on Linux), with its own rate and volume."""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
from typing import Any

from audiocrib.speech.playback import Playback, keep_espeak_commands, probe_aplay, quiet_linux_driver
from audiocrib.speech.speaker import SpeechUnavailable, check_rate, check_volume, reason

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
        self._playback: Playback | None = None
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
        self._playback = quiet_linux_driver()
        if self._playback is not None:
            probe_aplay()
        keep_espeak_commands(engine)
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
                # (runAndWait no longer cancels what it was given: `keep_espeak_commands`).
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

