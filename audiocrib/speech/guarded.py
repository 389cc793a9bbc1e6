"""`GuardedSpeaker`: another speaker run on a thread of its own, so that a speech server that hangs cannot
freeze the game."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any

from audiocrib.speech.speaker import Speaker, SpeechUnavailable


class GuardedSpeaker:
    """Runs another speaker on a thread of its own, so a speech server that hangs cannot freeze the game.

    A Speech Dispatcher daemon that is stuck (not dead) never answers, and its client then waits forever inside
    ``speak``, or while connecting. Here every call is handed to a worker thread and waited for at most
    ``timeout`` seconds: a call that does not return in time raises `SpeechUnavailable`, so a `FallbackSpeaker`
    says the announcement through the next speaker and nothing is lost. Calls that return in time keep their
    order and their errors. ``factory`` builds the speaker on the worker thread (within ``start_timeout``).
    """

    def __init__(self, factory: Callable[[], Speaker], name: str, *, timeout: float = 2.0,
                 start_timeout: float = 3.0) -> None:
        self._name = name
        self.timeout = timeout
        self._jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]]] | None] = queue.Queue()
        self._stuck = False
        self.problems = ""
        """What the wrapped speaker's libraries printed while starting, for a log."""
        self._worker = threading.Thread(target=self._work, name=f"audiocrib speech: {name}", daemon=True)
        self._worker.start()
        try:
            late = f"{name[:1].upper()}{name[1:]} did not answer in time."
            self.speaker: Speaker = self._call(factory, start_timeout, late)
        except BaseException:
            self._jobs.put(None)  # the worker ends now, or once a hung start returns
            raise

    @property
    def name(self) -> str:
        """The wrapped speaker's name once built ("Speech Dispatcher")."""
        speaker = getattr(self, "speaker", None)
        return speaker.name if speaker is not None else self._name

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            call, reply = job
            try:
                value = call()
            except BaseException as error:  # handed back to the caller, whatever it is
                reply.put((False, error))
                continue
            reply.put((True, value))
            if self._stuck and getattr(self, "speaker", None) is None and hasattr(value, "close"):
                # A speaker built after its caller gave up waiting: nobody will use it, so let it go now.
                with contextlib.suppress(Exception):
                    value.close()

    def _call(self, call: Callable[[], Any], timeout: float, stuck: str) -> Any:
        if self._stuck:
            raise SpeechUnavailable(stuck)
        reply: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
        self._jobs.put((call, reply))
        try:
            ok, value = reply.get(timeout=timeout)
        except queue.Empty:
            self._stuck = True  # the worker is lost in the hung call; it is a daemon thread and is left there
            raise SpeechUnavailable(stuck) from None
        if not ok:
            raise value
        return value

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Say ``text`` through the wrapped speaker; raises if it fails or does not return in time."""
        stuck = f"{self.name[:1].upper()}{self.name[1:]} stopped answering."
        self._call(lambda: self.speaker.speak(text, interrupt), self.timeout, stuck)

    def silence(self) -> None:
        """Silence the wrapped speaker, waiting briefly; never raises."""
        with contextlib.suppress(Exception):
            self._call(self.speaker.silence, min(self.timeout, 0.5), "stuck")

    def close(self) -> None:
        """Close the wrapped speaker and end the worker, waiting briefly; never raises."""
        with contextlib.suppress(Exception):
            if not self._stuck:
                self._call(self.speaker.close, min(self.timeout, 1.0), "stuck")
        self._jobs.put(None)  # a worker stuck in a hung call ends when (if ever) the call returns
        if not self._stuck:
            self._worker.join(1.0)

