"""Chains of speakers: `FallbackSpeaker` speaks through the first speaker that works and, when it fails (at
start or in the middle of a game), hands over to the next, tells the player once in a plain sentence, and loses
no announcement. `LazySpeaker` is a standby, built only when it is needed.

>>> import io
>>> from audiocrib.speech.lines import TextSpeaker
>>> from audiocrib.speech.speaker import RecordingSpeaker
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
import threading
from collections.abc import Callable, Sequence
from typing import Any

from audiocrib.speech.speaker import SilentSpeaker, Speaker, check_rate, check_volume, reason


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
    failure. ``note``: a sentence of its own, told first with the first announcement, for a choice made before
    the chain was built ("Orca is running, so it reads the game; ..."). ``on_notice`` (settable at any time) is
    called with each notice once it is said, before the announcement is returned, so the shell can print it as a
    line too: with `SilentSpeaker` in use nothing would be heard. It must print or record the notice, not speak
    it (the chain speaks it). ``notices`` keeps them all.

    Safe to call from several threads.
    """

    def __init__(self, speakers: Sequence[Speaker], *, failed: Sequence[str] = (), note: str | None = None,
                 on_notice: Callable[[str], None] | None = None) -> None:
        if not speakers:
            raise ValueError("A fallback chain needs at least one speaker.")
        self.speakers = list(speakers)
        self.index = 0
        self.failed = list(failed)
        """What failed and has not been told yet, one phrase each ("Speech Dispatcher stopped working")."""
        self.note = note
        """A sentence to tell with the next announcement (once), before any failure."""
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
        """The notice to be said with the next announcement: the ``note``, if not told yet, and what failed untold."""
        sentences = [self.note] if self.note else []
        if self.failed:
            phrases = self.failed
            joined = phrases[0] if len(phrases) == 1 else f"{', '.join(phrases[:-1])} and {phrases[-1]}"
            sentences.append(f"{joined[:1].upper()}{joined[1:]}; using {self.current.name}.")
        return " ".join(sentences) or None

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
                    self.failed, self.note = [], None
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
