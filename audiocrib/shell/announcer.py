"""Where every announcement goes: the screen (one plain line each), the speech backend, the transcript, the history.

The screen line and the speech are separate because players differ: some let their own screen reader read the
terminal (speech ``none``), some want audiocrib to speak and still see the lines. Lines are printed unless the
player turned them off, and always when speech has fallen back to text, so an announcement is never lost.

>>> import io
>>> from audiocrib.speech import RecordingSpeaker
>>> screen, speaker = io.StringIO(), RecordingSpeaker()
>>> announcer = Announcer(speaker, screen)
>>> announcer.say("Bob plays the seven of clubs for twenty-two.")
>>> screen.getvalue()
'Bob plays the seven of clubs for twenty-two.\\n'
>>> speaker.said == [announcer.history.last()] == ["Bob plays the seven of clubs for twenty-two."]
True

Every line is cleaned here, once, before it reaches the speech, the screen, the transcript or the history: text
from a file or from another player (a name) may hold escape codes that would clear or retitle the terminal, or
characters that reorder what a screen reader reads.

>>> announcer.say("Bob\\x1b[2J plays.\\n")
>>> speaker.said[-1]
'Bob [2J plays. '
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from audiocrib.engine.text import clean as clean_text
from audiocrib.shell.history import MessageHistory
from audiocrib.shell.printing import LinePrinter
from audiocrib.speech import FallbackSpeaker, Speaker, TranscriptSpeaker

__all__ = ["Announcer", "clean"]


def clean(text: str) -> str:
    """``text`` with each run of characters a terminal or a screen reader must not get (control, format, private-use,
    unassigned, surrogate, separator: the one rule of `audiocrib.engine.text`) made one space.

    >>> clean("Bob\\x1b]0;owned\\x07 deals\\u061c.")
    'Bob ]0;owned  deals .'
    """
    return clean_text(text)


class Announcer:
    """Says announcements through ``speaker``, prints them on ``screen`` and appends them to ``transcript``."""

    def __init__(
        self,
        speaker: Speaker | FallbackSpeaker,
        screen: TextIO | None = None,
        transcript: TranscriptSpeaker | None = None,
        show_text: bool = True,
    ) -> None:
        self.speaker = speaker
        self.printer = LinePrinter(screen if screen is not None else sys.stdout)
        self.transcript = transcript
        self.show_text = show_text
        self.history = MessageHistory(clean=clean)
        self.spoken_at: float | None = None
        """When (``time.perf_counter``) the last speech call was made; the key-to-speech benchmark reads it."""
        if isinstance(speaker, FallbackSpeaker):
            speaker.on_notice = self._notice

    @property
    def screen(self) -> TextIO:
        """Where the lines are printed."""
        return self.printer.screen

    @screen.setter
    def screen(self, screen: TextIO) -> None:
        self.printer.screen = screen

    def _notice(self, text: str) -> None:
        """A speech chain's notice ("Speech through ... stopped working; using text lines instead."): the chain
        speaks it itself; here it joins the history, the screen and the transcript like any announcement."""
        text = clean(text)
        self.history.add(text)
        self._show(text)

    @property
    def speaking(self) -> bool:
        """False when the speech has fallen back to text lines (so the lines must be shown)."""
        return self.speaker.name != "text lines"

    def say(self, text: str, *, keep: bool = True) -> None:
        """Announce ``text``; with ``keep`` False it is not added to the history (the history keys' own answers)."""
        text = clean(text)
        self.speaker.speak(text, False)  # a fallback notice, if any, is heard (and kept) before ``text``
        self.spoken_at = time.perf_counter()
        if keep:
            self.history.add(text)
        self._show(text)

    def _show(self, text: str) -> None:
        if self.show_text or not self.speaking:
            self.printer.print(text)
        if self.transcript is not None:
            try:
                self.transcript.speak(text)
            except OSError:
                self.transcript = None
                self.say("The transcript file could not be written; it is no longer kept.")

    def replace_speaker(self, speaker: Speaker | FallbackSpeaker) -> None:
        """Speak through ``speaker`` from now on (the old one is closed)."""
        old, self.speaker = self.speaker, speaker
        if isinstance(speaker, FallbackSpeaker):
            speaker.on_notice = self._notice
        try:
            old.close()
        except Exception:  # closing the old speech must not stop the new
            pass

    def silence(self) -> None:
        """Stop the speech in progress."""
        try:
            self.speaker.silence()
        except Exception:  # silencing is a courtesy; a failing backend is caught on its next speak
            pass

    def close(self) -> None:
        """Print what is held and let go of the speech backend and the transcript."""
        self.printer.flush(whole=True)
        for closing in (self.speaker, self.transcript):
            if closing is not None:
                try:
                    closing.close()
                except Exception:  # closing at exit must not raise
                    pass
