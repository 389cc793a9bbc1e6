"""Speakers that write each announcement as a line: `TextSpeaker` prints it, `TranscriptSpeaker` appends it to
a file (``--transcript FILE``)."""

from __future__ import annotations

import os
import sys
from typing import TextIO


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

