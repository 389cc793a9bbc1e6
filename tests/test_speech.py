"""Speakers: text lines, a real transcript file, and a fallback chain that survives backends failing.

The real speech backends (screen reader, built-in voice) are tested in test_speech_backends.py."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from audiocrib.speech import (
    MODES,
    FallbackSpeaker,
    LazySpeaker,
    RecordingSpeaker,
    SilentSpeaker,
    Speaker,
    SpeechUnavailable,
    TextSpeaker,
    TranscriptSpeaker,
    open_speaker,
)


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
    for speaker in (TextSpeaker(io.StringIO()), transcript, RecordingSpeaker(), FallbackSpeaker([RecordingSpeaker()]),
                    SilentSpeaker(), LazySpeaker("the recorder", RecordingSpeaker)):
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
        "The screen reader stopped working; using the recorder.", "three", "four"]
    assert chain.name == "the recorder"


def test_a_backend_that_fails_at_once_is_skipped_and_a_total_failure_is_silent() -> None:
    out = io.StringIO()
    chain = FallbackSpeaker([Flaky(good=0), Flaky(good=0), TextSpeaker(out)])
    chain.speak("Your turn.")
    assert out.getvalue().splitlines() == [  # one notice for both, which never spoke
        "The screen reader could not speak and the screen reader could not speak; using text lines.", "Your turn."]
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


class Tuned(RecordingSpeaker):
    """A speaker with a rate and a volume, as the built-in voice has."""

    def __init__(self) -> None:
        super().__init__()
        self.settings: list[tuple[str, float]] = []

    def set_rate(self, wpm: int) -> None:
        self.settings.append(("rate", wpm))

    def set_volume(self, volume: float) -> None:
        self.settings.append(("volume", volume))


def test_text_lines_are_silent_and_end_the_chain() -> None:
    silent = SilentSpeaker()
    silent.speak("Go.")
    silent.silence()
    silent.close()
    chain = FallbackSpeaker([Flaky(good=1), silent])
    assert chain.speaking and chain.name == "the screen reader"
    heard: list[str] = []
    chain.on_notice = heard.append  # the shell prints notices: a silent speaker would lose them
    chain.speak("one")
    chain.speak("two")
    chain.speak("three")
    assert heard == chain.notices == ["The screen reader stopped working; using text lines."]
    assert not chain.speaking and chain.name == "text lines"
    assert chain.problems == ["the screen reader: speech server gone."]


def test_a_notice_comes_first_once_and_an_interruption_does_not_cut_it_off() -> None:
    recorder = RecordingSpeaker()
    recorder.name = "the built-in voice"
    chain = FallbackSpeaker([recorder], failed=["no screen reader answered"])
    heard: list[str] = []
    chain.on_notice = heard.append
    chain.speak("Welcome.", interrupt=True)
    chain.speak("Your deal.")
    assert recorder.said == ["No screen reader answered; using the built-in voice.", "Welcome.", "Your deal."]
    assert recorder.interrupted == 1  # the notice interrupted; the announcement was queued behind it
    assert heard == ["No screen reader answered; using the built-in voice."] and chain.notice is None


def test_a_standby_is_built_only_when_needed_and_gets_the_settings() -> None:
    built: list[Tuned] = []

    def build() -> Tuned:
        built.append(Tuned())
        return built[-1]

    standby = LazySpeaker("the built-in voice", build)
    chain = FallbackSpeaker([Flaky(good=1), standby, SilentSpeaker()])
    chain.speak("one")
    chain.set_rate(250)
    chain.set_volume(0.5)
    chain.silence()
    assert built == []
    chain.speak("two")
    assert built[0].said == ["The screen reader stopped working; using the built-in voice.", "two"]
    assert built[0].settings == [("rate", 250), ("volume", 0.5)]
    chain.set_rate(300)
    assert built[0].settings[-1] == ("rate", 300)
    with pytest.raises(ValueError, match="rate must be"):
        chain.set_rate(10)

    def broken() -> Speaker:
        raise SpeechUnavailable("The built-in voice found no sound device.")

    out = io.StringIO()
    chain = FallbackSpeaker([Flaky(good=0), LazySpeaker("the built-in voice", broken), TextSpeaker(out)])
    chain.speak("Your turn.")
    assert out.getvalue().splitlines() == [  # one notice naming both failures, and what is used now
        "The screen reader could not speak and the built-in voice could not start; using text lines.", "Your turn."]
    assert chain.problems == ["the screen reader: speech server gone.",
                              "the built-in voice: The built-in voice found no sound device."]


def test_the_chain_can_be_used_from_several_threads() -> None:
    recorder = RecordingSpeaker()
    chain = FallbackSpeaker([recorder])

    def talk(n: int) -> None:
        for i in range(200):
            chain.speak(f"{n}-{i}")

    threads = [threading.Thread(target=talk, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(recorder.said) == sorted(f"{n}-{i}" for n in range(4) for i in range(200))


def test_text_lines_only_and_the_modes() -> None:
    assert MODES == ("auto", "screenreader", "tts", "none")
    chain = open_speaker("none", rate=200, volume=0.8)
    assert [type(s) for s in chain.speakers] == [SilentSpeaker] and chain.notice is None
    with pytest.raises(ValueError, match="the modes are auto, screenreader, tts and none"):
        open_speaker("espeak")


def test_importing_the_speakers_loads_no_speech_or_ui_library() -> None:
    code = ("import sys, audiocrib.speech;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'accessible_output2', 'pyttsx3', 'speechd', 'prompt_toolkit', 'comtypes'}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_every_failure_on_the_way_is_told_in_one_notice_that_names_what_is_used_now() -> None:
    def broken() -> Speaker:
        raise SpeechUnavailable("The built-in voice found no sound device.")

    out = io.StringIO()
    heard: list[str] = []
    chain = FallbackSpeaker([Flaky(good=1), LazySpeaker("the built-in voice", broken), TextSpeaker(out)],
                            on_notice=heard.append)
    chain.speak("Welcome.")
    chain.speak("Your turn.")  # the daemon dies mid-game, and the voice cannot start either
    notice = "The screen reader stopped working and the built-in voice could not start; using text lines."
    assert out.getvalue().splitlines() == [notice, "Your turn."]
    assert heard == chain.notices == [notice]  # one notice, not one for each

    class Mute(RecordingSpeaker):
        name = "the built-in voice"

        def speak(self, text: str, interrupt: bool = False) -> None:
            raise OSError("no sound device")

    out = io.StringIO()
    chain = FallbackSpeaker([Mute(), TextSpeaker(out)], failed=["no screen reader answered"])
    chain.speak("Welcome.")  # the voice started, but cannot speak: it never worked, so it did not "stop"
    assert out.getvalue().splitlines() == [
        "No screen reader answered and the built-in voice could not speak; using text lines.", "Welcome."]
    assert chain.notice is None
