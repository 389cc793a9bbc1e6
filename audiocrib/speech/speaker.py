"""What every speaker shares: the `Speaker` interface, `SpeechUnavailable`, the built-in voice's rate and volume
checks, and the two speakers that need nothing at all: `SilentSpeaker` (text lines, the end of every chain) and
`RecordingSpeaker` (for tests)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

MIN_RATE, MAX_RATE = 50, 600
"""The built-in voice's rate limits, in words a minute."""


class SpeechUnavailable(OSError):
    """A speech backend cannot start or has stopped working. The message is one plain sentence."""


@runtime_checkable
class Speaker(Protocol):
    """Something that says announcements. ``interrupt`` cuts off what is being said first."""

    @property
    def name(self) -> str:
        """How the player hears this backend named ("the screen reader", "text lines")."""
        ...

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Say ``text`` (one announcement, plain ASCII)."""
        ...

    def silence(self) -> None:
        """Stop what is being said now."""
        ...

    def close(self) -> None:
        """Let go of the backend (a connection, a thread, a file)."""
        ...


def check_rate(wpm: int) -> int:
    """``wpm`` if it is a rate the built-in voice takes, else ValueError with a sentence."""
    if isinstance(wpm, bool) or not isinstance(wpm, int) or not MIN_RATE <= wpm <= MAX_RATE:
        raise ValueError(f"The speech rate must be a whole number of words a minute from {MIN_RATE} to {MAX_RATE}.")
    return wpm


def check_volume(volume: float) -> float:
    """``volume`` as a float if it is from 0.0 to 1.0, else ValueError with a sentence."""
    if isinstance(volume, bool) or not isinstance(volume, int | float) or not 0.0 <= volume <= 1.0:
        raise ValueError("The speech volume must be from 0.0 to 1.0.")
    return float(volume)


def reason(error: BaseException) -> str:
    """``error`` as a phrase for a sentence: its message without the final full stop, else its type's name."""
    text = str(error).strip().rstrip(".")
    return text or type(error).__name__


class SilentSpeaker:
    """Says nothing: the shell prints every announcement as a line, and that line is what the player reads."""

    name = "text lines"

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Nothing to do: the line is already on the screen."""

    def silence(self) -> None:
        """Nothing to do."""

    def close(self) -> None:
        """Nothing to do."""


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

