"""Speakers: text lines, a real transcript file, and a fallback chain that survives backends failing."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from audiocrib.speech import FallbackSpeaker, RecordingSpeaker, Speaker, TextSpeaker, TranscriptSpeaker


class Flaky(RecordingSpeaker):
    """Works for ``good`` announcements, then fails as a dying speech server does."""

    name = "the screen reader"

    def __init__(self, good: int) -> None:
        super().__init__()
        self.good = good
        self.closed = False

    def speak(self, text: str, interrupt: bool = False) -> None:
        if len(self.said) >= self.good:
            raise ConnectionError("speech server gone")
        super().speak(text, interrupt)

    def close(self) -> None:
        self.closed = True
        raise ConnectionError("cannot close either")


def test_every_backend_is_a_speaker(tmp_path: Path) -> None:
    transcript = TranscriptSpeaker(tmp_path / "t.txt")
    for speaker in (TextSpeaker(io.StringIO()), transcript, RecordingSpeaker(), FallbackSpeaker([RecordingSpeaker()])):
        assert isinstance(speaker, Speaker)
    transcript.close()


def test_text_lines_are_printed_one_per_announcement() -> None:
    out = io.StringIO()
    speaker = TextSpeaker(out)
    speaker.speak("You play the six of hearts for twenty-eight: a run of three, three points.")
    speaker.speak("Go.", interrupt=True)
    speaker.silence()
    assert out.getvalue().splitlines() == [
        "You play the six of hearts for twenty-eight: a run of three, three points.", "Go."]


def test_the_transcript_appends_lines_to_a_real_file(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text("an earlier game\n", encoding="utf-8")
    speaker = TranscriptSpeaker(path)
    speaker.speak("Fifteen two, fifteen four, and a pair is six.")
    assert path.read_text(encoding="utf-8").splitlines()[-1] == "Fifteen two, fifteen four, and a pair is six."
    speaker.speak("Bob wins, 121 to 96.")
    speaker.close()
    assert path.read_text(encoding="utf-8").splitlines() == [
        "an earlier game", "Fifteen two, fifteen four, and a pair is six.", "Bob wins, 121 to 96."]
    with pytest.raises(OSError, match="closed"):
        speaker.speak("after the end")


def test_a_failing_backend_hands_over_once_and_loses_nothing() -> None:
    flaky, recorder = Flaky(good=2), RecordingSpeaker()
    chain = FallbackSpeaker([flaky, recorder])
    for text in ("one", "two", "three", "four"):
        chain.speak(text)
    assert flaky.said == ["one", "two"] and flaky.closed
    assert recorder.said == [
        "Speech through the screen reader stopped working; using the recorder instead.", "three", "four"]
    assert chain.name == "the recorder"


def test_a_backend_that_fails_at_once_is_skipped_and_a_total_failure_is_silent() -> None:
    out = io.StringIO()
    chain = FallbackSpeaker([Flaky(good=0), Flaky(good=0), TextSpeaker(out)])
    chain.speak("Your turn.")
    assert out.getvalue().splitlines() == [
        "Speech through the screen reader stopped working; using text lines instead.", "Your turn."]
    dead = FallbackSpeaker([Flaky(good=0)])
    dead.speak("nobody hears this")  # must not raise
    dead.silence()
    dead.close()
    with pytest.raises(ValueError, match="at least one speaker"):
        FallbackSpeaker([])


def test_silencing_reaches_the_speaker_in_use() -> None:
    recorder = RecordingSpeaker()
    chain = FallbackSpeaker([recorder])
    chain.speak("a long count", interrupt=False)
    chain.silence()
    chain.speak("next", interrupt=True)
    assert (recorder.silenced, recorder.interrupted) == (1, 1)
