"""Speakers: where announcements go. One small interface, several backends, and a chain that survives failures.

This module holds the backends that need no speech library: plain text lines (for players whose own screen
reader reads the terminal), a transcript file, and a recorder for tests. The screen-reader and built-in-voice
backends (accessible_output2, pyttsx3) arrive with the shell and implement the same `Speaker` protocol.

`FallbackSpeaker` chains speakers: when the one in use fails (at start or in the middle of a game), the next takes
over, the player is told once in a plain sentence, and the announcement that failed is not lost.

>>> import io
>>> out = io.StringIO()
>>> class Broken(RecordingSpeaker):
...     name = "the screen reader"
...     def speak(self, text: str, interrupt: bool = False) -> None:
...         raise OSError("gone")
>>> chain = FallbackSpeaker([Broken(), TextSpeaker(out)])
>>> chain.speak("Bob plays the seven of clubs for twenty-two.")
>>> print(out.getvalue(), end="")
Speech through the screen reader stopped working; using text lines instead.
Bob plays the seven of clubs for twenty-two.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Protocol, TextIO, runtime_checkable

__all__ = ["FallbackSpeaker", "RecordingSpeaker", "Speaker", "TextSpeaker", "TranscriptSpeaker"]


@runtime_checkable
class Speaker(Protocol):
    """Something that says announcements. ``interrupt`` cuts off what is being said first."""

    name: str
    """How the player hears this backend named ("the screen reader", "text lines")."""

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Say ``text`` (one announcement, plain ASCII)."""
        ...

    def silence(self) -> None:
        """Stop what is being said now."""
        ...

    def close(self) -> None:
        """Let go of the backend (a connection, a thread, a file)."""
        ...


class TextSpeaker:
    """Prints each announcement as one line, for players whose own screen reader reads the terminal."""

    name = "text lines"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Print ``text`` as a line and flush, so it reaches the screen (and the screen reader) at once."""
        print(text, file=self.stream, flush=True)

    def silence(self) -> None:
        """A printed line cannot be taken back; nothing to do."""

    def close(self) -> None:
        """The stream belongs to the caller; nothing to do."""


class TranscriptSpeaker:
    """Appends every announcement to a file as a line (``--transcript FILE``), flushed at once."""

    name = "the transcript"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._file: TextIO | None = open(self.path, "a", encoding="utf-8")  # kept open to append

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Append ``text`` and a newline."""
        if self._file is None:
            raise OSError("The transcript is closed.")
        self._file.write(text + "\n")
        self._file.flush()

    def silence(self) -> None:
        """Written lines stay written; nothing to do."""

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None


class RecordingSpeaker:
    """Keeps what it was asked to say, for tests and for trying a feature by ear without a voice."""

    name = "the recorder"

    def __init__(self) -> None:
        self.said: list[str] = []
        self.interrupted = 0
        self.silenced = 0

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Record ``text``; count interruptions."""
        if interrupt:
            self.interrupted += 1
        self.said.append(text)

    def silence(self) -> None:
        """Count the silencing."""
        self.silenced += 1

    def close(self) -> None:
        """Nothing to let go of."""


class FallbackSpeaker:
    """Speaks through the first working speaker of ``speakers``; on a failure, moves to the next and says so once.

    The last speaker should be one that cannot fail in practice (`TextSpeaker`). If every one fails, the
    announcement is dropped rather than stopping the game.
    """

    def __init__(self, speakers: Sequence[Speaker]) -> None:
        if not speakers:
            raise ValueError("A fallback chain needs at least one speaker.")
        self.speakers = list(speakers)
        self.index = 0

    @property
    def name(self) -> str:
        """The name of the speaker in use."""
        return self.current.name

    @property
    def current(self) -> Speaker:
        """The speaker in use."""
        return self.speakers[min(self.index, len(self.speakers) - 1)]

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Say ``text`` through the speaker in use, falling back as often as needed."""
        notice = ""
        while self.index < len(self.speakers):
            speaker = self.speakers[self.index]
            try:
                if notice:
                    speaker.speak(notice, interrupt=False)
                speaker.speak(text, interrupt)
                return
            except Exception:  # any failure of a backend must not end the game
                failed = speaker.name
                self._close_quietly(speaker)
                self.index += 1
                if self.index < len(self.speakers):
                    notice = (f"Speech through {failed} stopped working; "
                              f"using {self.speakers[self.index].name} instead.")

    def silence(self) -> None:
        """Silence the speaker in use; a failure here is found and handled at the next announcement."""
        try:
            self.current.silence()
        except Exception:  # the next speak() falls back
            pass

    def close(self) -> None:
        """Close every speaker in the chain."""
        for speaker in self.speakers:
            self._close_quietly(speaker)

    @staticmethod
    def _close_quietly(speaker: Speaker) -> None:
        try:
            speaker.close()
        except Exception:  # closing a broken backend may fail too; it is gone either way
            pass
