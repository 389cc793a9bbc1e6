"""The ``--speech`` modes and `open_speaker`, which builds the chain of speakers for one of them."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable

from audiocrib.speech.detect import ScreenReader, find_screen_reader
from audiocrib.speech.fallback import FallbackSpeaker, LazySpeaker
from audiocrib.speech.guarded import GuardedSpeaker
from audiocrib.speech.screenreader import ScreenReaderSpeaker
from audiocrib.speech.speaker import SilentSpeaker, Speaker, SpeechUnavailable, check_rate, check_volume
from audiocrib.speech.voice import VoiceSpeaker

MODES = ("auto", "screenreader", "tts", "none")
"""The ``--speech`` modes, in the order the help lists them."""


def open_speaker(mode: str, *, rate: int | None = None, volume: float | None = None,
                 find_reader: Callable[[], ScreenReader | None] = find_screen_reader) -> FallbackSpeaker:
    """The chain of speakers for a ``--speech`` mode, started; always ends with `SilentSpeaker` (text lines).

    - ``auto``: if a screen reader is running (``find_reader``, `find_screen_reader`: Orca, NVDA, JAWS or
      VoiceOver), text lines only, which it reads, and a notice that says so ("Orca is running, so it reads the
      game; audiocrib's own voice stays off."): speaking as well would say everything twice. Otherwise the
      screen reader's speech server if one answers (Speech Dispatcher on Linux); if none does, the built-in voice;
      if it cannot start, text lines. While a screen reader's server speaks, the built-in voice stands by (built
      only if the server fails in the game). The Windows voices reached through accessible_output2 (SAPI) do not
      count as a screen reader here: the built-in voice uses them too, with a rate and volume that can be set.
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

    if mode == "auto" and (reader := find_reader()) is not None:
        chain = FallbackSpeaker([SilentSpeaker()], note=reader.notice)
        chain.problems.append(f"A screen reader is running ({reader.evidence}): audiocrib does not speak itself.")
        return chain

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
