"""Speakers: where announcements go. One small interface, several backends, and a chain that survives failures.

- `speaker`: the `Speaker` interface, `SpeechUnavailable`, the rate and volume checks, `SilentSpeaker` (says
  nothing: the shell prints every announcement as a line itself, so this is "text lines", the end of every chain)
  and `RecordingSpeaker` (for tests).
- `lines`: `TextSpeaker` (prints lines) and `TranscriptSpeaker` (appends them to a file).
- `screenreader`: `ScreenReaderSpeaker`, the player's own screen reader through accessible_output2 (NVDA, JAWS
  or SAPI on Windows, VoiceOver on macOS, Speech Dispatcher, the server Orca speaks through, on Linux), and
  `load_speechd`.
- `guarded`: `GuardedSpeaker`, which runs a speaker on a thread of its own so that a hung server cannot freeze
  the game.
- `voice`: `VoiceSpeaker`, the built-in voice through pyttsx3 (SAPI on Windows, NSSpeechSynthesizer on macOS,
  espeak-ng on Linux), with its own rate and volume; `playback`: how it plays sound on Linux.
- `fallback`: `FallbackSpeaker` chains speakers: when the one in use fails (at start or in the middle of a game),
  the next takes over, the player is told once in a plain sentence, and the announcement that failed is not
  lost. `LazySpeaker` is a standby built when needed.
- `detect`: `find_screen_reader`, which finds a screen reader running (Orca, NVDA, JAWS, VoiceOver) within a
  second, so that ``--speech auto`` leaves the speaking to it (`ScreenReader`).
- `modes`: the ``--speech`` `MODES` and `open_speaker`, which builds the chain for one of them.

The speech libraries are imported only inside the backends that use them, so importing this package is cheap and
works where they are missing. Nothing here imports prompt_toolkit, nor anything of audiocrib outside it.
"""

from __future__ import annotations

from audiocrib.speech.detect import ScreenReader, find_screen_reader
from audiocrib.speech.fallback import FallbackSpeaker, LazySpeaker
from audiocrib.speech.guarded import GuardedSpeaker
from audiocrib.speech.lines import TextSpeaker, TranscriptSpeaker
from audiocrib.speech.modes import MODES, open_speaker
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
)
from audiocrib.speech.voice import VoiceSpeaker

__all__ = [
    "MAX_RATE",
    "MIN_RATE",
    "MODES",
    "FallbackSpeaker",
    "GuardedSpeaker",
    "LazySpeaker",
    "RecordingSpeaker",
    "ScreenReader",
    "ScreenReaderSpeaker",
    "SilentSpeaker",
    "Speaker",
    "SpeechUnavailable",
    "TextSpeaker",
    "TranscriptSpeaker",
    "VoiceSpeaker",
    "check_rate",
    "check_volume",
    "find_screen_reader",
    "load_speechd",
    "open_speaker",
]
