"""The real speech backends, driven for real: the screen reader through a private Speech Dispatcher daemon (its
"recorder" module writes every message to a file), and the built-in voice through pyttsx3 and espeak-ng.

There is no sound card on a test machine, so the built-in voice plays through one of two stand-ins: the real
``aplay`` writing to an ALSA file device (set up by ``$HOME/.asoundrc``), or a small fake ``aplay`` first on PATH
that "plays" each sentence in real time (it sleeps for the sentence's length), logs it and keeps a copy, so that
order, rate, volume and cutting a sentence off can be observed. Everything up to the player is the real thing.

Tests skip where the packages are missing (Speech Dispatcher, espeak-ng, alsa-utils), and fail instead under CI.
"""

from __future__ import annotations

import array
import ctypes.util
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from audiocrib.speech import (
    FallbackSpeaker,
    GuardedSpeaker,
    LazySpeaker,
    RecordingSpeaker,
    ScreenReaderSpeaker,
    SilentSpeaker,
    SpeechUnavailable,
    VoiceSpeaker,
    open_speaker,
)
from tests.speechd import SpeechDispatcher, require, speech_dispatcher_fixture  # noqa: F401 (a fixture)

LONG = "This sentence is long enough to take a few seconds to say aloud, so it can be cut off in the middle."


@pytest.fixture(autouse=True)
def no_threads_left_behind() -> Iterator[None]:
    """Every test closes what it opened: no Python thread survives it."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 2
    while (left := set(threading.enumerate()) - before) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not left, f"threads left behind: {sorted(t.name for t in left)}"


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


# -- the screen reader, through a private Speech Dispatcher -----------------------------------------------------


def test_the_screen_reader_says_each_announcement_word_for_word(speech_dispatcher: SpeechDispatcher) -> None:
    speaker = ScreenReaderSpeaker()
    assert speaker.name == "Speech Dispatcher"
    lines = ["Bob's crib: fifteen two, and a pair is four.", 'You said "go".', "It costs $5 or `more`.",
             "Alice plays the ten of spades for thirty-one, two points."]
    start = time.monotonic()
    speaker.speak(lines[0])
    speech_dispatcher.wait_for(lines[0], timeout=2)
    assert time.monotonic() - start < 1.0  # about 5 ms here
    for line in lines[1:]:
        speaker.speak(line)
    assert speech_dispatcher.wait_for(lines[-1]) == lines  # all of them, in order, none cut off
    speaker.silence()
    speaker.close()
    speaker.close()  # twice is harmless


def test_auto_does_not_count_a_system_voice_as_a_screen_reader(
        speech_dispatcher: SpeechDispatcher, monkeypatch: pytest.MonkeyPatch) -> None:
    # On Windows, accessible_output2 always has SAPI (a "system output"); auto prefers the built-in voice to it.
    # Speech Dispatcher plays SAPI's part here.
    from accessible_output2.outputs.speech_dispatcher import SpeechDispatcher as Output

    monkeypatch.setattr(Output, "system_output", True)
    with pytest.raises(SpeechUnavailable, match="No screen reader answered"):
        ScreenReaderSpeaker(system_voice=False)
    speaker = ScreenReaderSpeaker()  # --speech screenreader takes it
    speaker.speak("Through the system voice.")
    speech_dispatcher.wait_for("Through the system voice.")
    speaker.close()


def test_a_daemon_dying_mid_game_hands_over_once_and_loses_nothing(speech_dispatcher: SpeechDispatcher) -> None:
    backup = RecordingSpeaker()
    chain = FallbackSpeaker([ScreenReaderSpeaker(), backup])
    heard: list[str] = []
    chain.on_notice = heard.append
    chain.speak("You have 14 points.")
    chain.speak("Bob has 9 points.")
    speech_dispatcher.wait_for("Bob has 9 points.")
    speech_dispatcher.kill()
    for text in ("Your turn.", "Bob plays a five.", "Fifteen for two."):
        chain.speak(text)
    notice = "Speech Dispatcher stopped working; using the recorder."
    assert backup.said == [notice, "Your turn.", "Bob plays a five.", "Fifteen for two."]
    assert heard == [notice] and chain.notices == [notice]
    assert speech_dispatcher.spoken() == ["You have 14 points.", "Bob has 9 points."]
    assert chain.name == "the recorder"
    chain.close()  # the dead client was already closed when it failed; no thread is left


def test_a_hung_daemon_never_freezes_the_game_at_start_or_mid_game(speech_dispatcher: SpeechDispatcher) -> None:
    """A daemon that stops answering (SIGSTOP: alive, connected, silent) is given up on after the guard's timeout;
    the announcement goes through the next speaker and the player is told once."""
    pid = speech_dispatcher.pid
    assert pid is not None
    chain = open_speaker("screenreader")
    heard: list[str] = []
    chain.on_notice = heard.append
    try:
        chain.speak("Before the hang.")
        speech_dispatcher.wait_for("Before the hang.")
        os.kill(pid, signal.SIGSTOP)
        started = time.monotonic()
        chain.speak("During the hang.")
        assert time.monotonic() - started < 15  # not forever: the guard waits about two seconds
        assert chain.name == "text lines"
        assert heard == ["Speech Dispatcher stopped working; using text lines."]
        chain.speak("After the hang.")  # at once: the hung speaker is not tried again
        assert chain.name == "text lines"
        # And a daemon already hung when the game starts: the start goes on without it.
        later = open_speaker("screenreader")
        assert later.name == "text lines"
        assert later.notice == "No screen reader answered; using text lines."
        assert "The screen reader did not answer in time." in later.problems
        later.close()
    finally:
        os.kill(pid, signal.SIGCONT)
        chain.close()
    # Once the daemon answers again, the abandoned calls return and their threads end (the guard's promise).
    wait_until(lambda: not any(t.name.startswith("audiocrib speech") for t in threading.enumerate()), 10)


def test_silence_cuts_off_the_message_being_said() -> None:
    require()
    with SpeechDispatcher(slow=True) as daemon, pytest.MonkeyPatch.context() as patch:
        for name, value in daemon.env().items():
            patch.setenv(name, value)
        speaker = ScreenReaderSpeaker()
        speaker.speak("A long count that the player cuts short.")
        wait_until(lambda: daemon.started() == ["A long count that the player cuts short."])
        speaker.silence()
        speaker.speak("Your turn.")
        daemon.wait_for("Your turn.")
        assert daemon.started() == ["A long count that the player cuts short.", "Your turn."]
        assert daemon.spoken() == ["Your turn."]  # the first never finished

        speaker.speak("Another long count.")
        speaker.speak("A line queued behind it.")
        wait_until(lambda: "Another long count." in daemon.started())
        speaker.speak("Bob says go.", interrupt=True)  # cuts off the one being said and drops the queued one
        daemon.wait_for("Bob says go.")
        assert daemon.started()[2:] == ["Another long count.", "Bob says go."]
        assert daemon.spoken() == ["Your turn.", "Bob says go."]
        speaker.close()


def test_speechd_is_found_outside_the_virtual_environment_without_the_rest_of_dist_packages() -> None:
    require()
    code = ("import sys; import audiocrib.speech as s; ok = s.load_speechd(); import speechd;"
            "print(ok, speechd.__file__, hasattr(speechd, 'SSIPClient'),"
            "any('dist-packages' in p for p in sys.path))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ok, where, client, on_path = result.stdout.split()
    assert (ok, client) == ("True", "True")
    assert where.endswith("speechd/__init__.py")
    if "/usr/lib/python3/dist-packages" in where:  # found by audiocrib, not by the virtual environment
        assert on_path == "False"


def unreachable(patch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Point clients at a socket nobody listens on, and forbid them to start a daemon of their own."""
    patch.setenv("SPEECHD_ADDRESS", f"unix_socket:{tmp_path / 'nobody.sock'}")
    patch.setenv("SPEECHD_CMD", shutil.which("false") or "/bin/false")


def test_the_game_never_starts_a_speech_dispatcher_of_its_own(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Speech Dispatcher's client starts a daemon when none answers, and that daemon outlived the game by hours; a
    daemon already running (a screen reader's) is the only one used."""
    require()
    socket = tmp_path / "runtime" / "speech-dispatcher" / "speechd.sock"  # the client's default, in a private place
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "runtime"))
    for name in ("SPEECHD_ADDRESS", "SPEECHD_SOCKET", "SPEECHD_CMD"):  # the client's own spawn command would run
        monkeypatch.delenv(name, raising=False)
    try:
        with pytest.raises(SpeechUnavailable, match=r"^No screen reader answered\.$"):
            ScreenReaderSpeaker()
        chain = open_speaker("screenreader")
        assert chain.name == "text lines"
        chain.close()
        assert "SPEECHD_CMD" not in os.environ  # put back as it was
        found = subprocess.run(["pgrep", "-f", str(socket)], capture_output=True, text=True).stdout.split()
        assert found == [], "a Speech Dispatcher was started for the game"
    finally:
        subprocess.run(["pkill", "-9", "-f", str(socket)], capture_output=True)


def test_no_screen_reader_answering_means_text_lines_and_one_notice(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    require()
    unreachable(monkeypatch, tmp_path)
    with pytest.raises(SpeechUnavailable, match=r"^No screen reader answered\.$"):
        ScreenReaderSpeaker()
    chain = open_speaker("screenreader")
    heard: list[str] = []
    chain.on_notice = heard.append
    assert (chain.name, chain.speaking) == ("text lines", False)
    assert chain.notice == "No screen reader answered; using text lines."
    chain.speak("Welcome to audiocrib.")
    chain.speak("You deal first.")
    assert heard == ["No screen reader answered; using text lines."]
    assert chain.problems == ["No screen reader answered."]
    chain.close()


# -- the built-in voice -----------------------------------------------------------------------------------------


def require_voice() -> None:
    """Skip where espeak-ng or aplay is missing; under CI, fail instead."""
    if ctypes.util.find_library("espeak-ng") and shutil.which("aplay"):
        return
    message = "The built-in voice needs espeak-ng and alsa-utils (apt-get install espeak-ng alsa-utils)."
    if os.environ.get("CI"):
        pytest.fail(message + " CI must run these tests.")
    pytest.skip(message)


FAKE_APLAY = r"""#!/bin/sh
# Stands in for aplay: logs the file's size, keeps a copy, sleeps for its length (divided by FAKE_APLAY_PACE),
# logs the end (or the cut, if it is terminated).
for a in "$@"; do case "$a" in -*) ;; *) f="$a";; esac; done
size=$(stat -c %s "$f")
n=$(grep -c "^start" "{log}")
cp "$f" "{clips}/$n.wav"
ms=$(( (size - 44) * 1000 / 44100 / ${FAKE_APLAY_PACE:-1} ))
trap 'kill $! 2>/dev/null; echo "cut $size" >> "{log}"; exit 143' TERM
sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))" &
echo "start $size" >> "{log}"
wait $!
echo "end $size" >> "{log}"
"""


class Player:
    """The fake aplay's log: ("start" | "end" | "cut", bytes of sound) per line, and the clips it played."""

    def __init__(self, folder: Path) -> None:
        self.log = folder / "played.log"
        self.clips = folder / "clips"

    @staticmethod
    def real_time(monkeypatch: pytest.MonkeyPatch) -> None:
        """Play at the real pace from now on (a long sentence lasts long enough to be cut off)."""
        monkeypatch.setenv("FAKE_APLAY_PACE", "1")

    def events(self) -> list[tuple[str, int]]:
        return [(word, int(size)) for word, size in (line.split() for line in self.log.read_text().splitlines())]

    def started(self) -> list[int]:
        """The length in bytes of each sentence begun (ignoring the probe at start)."""
        return [size for word, size in self.events() if word == "start" and size > 2000]

    def loudness(self, index: int) -> int:
        """The peak sample of the index-th clip played (0 is the probe)."""
        with wave.open(str(self.clips / f"{index}.wav")) as clip:
            samples = array.array("h", clip.readframes(clip.getnframes()))
        return int(max(abs(s) for s in samples))


@pytest.fixture
def player(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Player:
    """Put the fake aplay first on PATH; it plays ten times faster than real time (`Player.real_time` to change)."""
    require_voice()
    folder = tmp_path / "player"
    (folder / "bin").mkdir(parents=True)
    (folder / "clips").mkdir()
    fake = Player(folder)
    fake.log.touch()
    script = folder / "bin" / "aplay"
    script.write_text(FAKE_APLAY.replace("{log}", str(fake.log)).replace("{clips}", str(fake.clips)))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{folder / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_APLAY_PACE", "10")
    return fake


@pytest.fixture
def voices() -> Iterator[Callable[..., VoiceSpeaker]]:
    """Start built-in voices (keyword arguments as VoiceSpeaker's); each is closed after the test, pass or fail."""
    started: list[VoiceSpeaker] = []

    def start(**options: Any) -> VoiceSpeaker:
        started.append(VoiceSpeaker(**options))
        return started[-1]

    yield start
    for voice in started:
        voice.close()


def sound_device(home: Path, monkeypatch: pytest.MonkeyPatch, working: bool = True) -> Path:
    """Give the real aplay a default device: a wav file (working) or a card that does not exist."""
    home.mkdir(exist_ok=True)
    target = home / "audio.wav"
    device = (f'pcm.!default {{ type file  slave.pcm "null"  file "{target}"  format "wav" }}\n' if working
              else 'pcm.!default { type hw  card 99 }\n')
    (home / ".asoundrc").write_text(device)
    monkeypatch.setenv("HOME", str(home))
    return target


def test_the_voice_plays_through_the_real_aplay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capfd: pytest.CaptureFixture[str],
                                                voices: Callable[..., VoiceSpeaker]) -> None:
    require_voice()
    audio = sound_device(tmp_path / "home", monkeypatch)
    start = time.monotonic()
    voice = voices()
    assert time.monotonic() - start < 2.0  # about 40 ms here, a tenth of it the probe of the sound device
    assert voice.name == "the built-in voice"
    voice.speak("Fifteen two, fifteen four, and a pair is six.")
    assert voice.wait_until_idle(5)
    assert audio.stat().st_size > 20_000  # a second and more of sound at 22 kHz
    voice.close()
    assert capfd.readouterr().out == ""  # nothing the engine or the player printed reached stdout


def test_the_voice_says_everything_in_order_at_the_rate_and_volume_asked(
        player: Player, voices: Callable[..., VoiceSpeaker]) -> None:
    voice = voices(rate=300)
    for text in ("Two.", "Your crib has fifteen two, fifteen four.", "Go."):
        voice.speak(text)
    assert voice.wait_until_idle(10)
    short, long_, go = player.started()
    assert long_ > 3 * short and long_ > 3 * go  # in the order given, each played once
    assert voice.spoken == 3
    # The rate given at the start applied from the first sentence on: said again with that rate set anew, the
    # same words take as long (at the engine's own 200 words a minute, "Go." is about twice as long).
    voice.set_rate(300)
    voice.speak("Go.")
    assert voice.wait_until_idle(10)
    assert abs(player.started()[-1] - go) < 0.1 * go

    sizes = []
    for wpm in (100, 400):
        voice.set_rate(wpm)
        voice.speak("Fifteen two.")
        assert voice.wait_until_idle(10)
        sizes.append(player.started()[-1])
    assert sizes[0] > 2.5 * sizes[1]  # 100 words a minute takes about three times as long as 400
    assert voice.rate == 400

    peaks = []
    for volume in (1.0, 0.2):
        voice.set_volume(volume)  # applies from the next sentence the voice begins
        voice.speak("Go.")
        assert voice.wait_until_idle(10)
        peaks.append(player.loudness(len(player.started())))
    assert peaks[1] < peaks[0] * 0.4
    assert voice.volume == 0.2
    with pytest.raises(ValueError, match="rate must be"):
        voice.set_rate(5000)
    with pytest.raises(ValueError, match="volume must be"):
        voice.set_volume(1.5)


def test_silence_cuts_off_the_voice_and_drops_what_is_queued(
        player: Player, voices: Callable[..., VoiceSpeaker], monkeypatch: pytest.MonkeyPatch) -> None:
    player.real_time(monkeypatch)
    voice = voices()
    voice.speak(LONG)
    voice.speak("Queued one.")
    voice.speak("Queued two.")
    wait_until(lambda: len(player.started()) == 1)
    time.sleep(0.2)
    voice.silence()
    voice.speak("Your turn.")
    assert voice.wait_until_idle(5)
    assert [word for word, size in player.events() if size > 2000] == ["start", "cut", "start", "end"]

    voice.speak(LONG)
    voice.speak("Queued.")
    wait_until(lambda: len(player.started()) == 3)
    voice.speak("Go.", interrupt=True)
    assert voice.wait_until_idle(5)
    assert [word for word, size in player.events() if size > 2000][4:] == ["start", "cut", "start", "end"]

    voice.speak(LONG)
    wait_until(lambda: len(player.started()) == 5)
    start = time.monotonic()
    voice.close()  # cuts it off too, and the thread ends at once
    assert time.monotonic() - start < 1.0
    with pytest.raises(SpeechUnavailable, match="has stopped"):
        voice.speak("After the end.")


def test_the_voice_reports_a_missing_sound_device_or_player(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capfd: pytest.CaptureFixture[str]) -> None:
    require_voice()
    sound_device(tmp_path / "home", monkeypatch, working=False)
    with pytest.raises(SpeechUnavailable, match=r"^The built-in voice found no sound device\.$"):
        VoiceSpeaker()
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(SpeechUnavailable, match="needs the aplay program, from alsa-utils"):
        VoiceSpeaker()
    assert capfd.readouterr().out == ""


def test_sound_failing_mid_game_stops_the_voice_and_the_chain_moves_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
        voices: Callable[..., VoiceSpeaker]) -> None:
    require_voice()
    sound_device(tmp_path / "home", monkeypatch)
    backup = RecordingSpeaker()
    chain = FallbackSpeaker([voices(), backup])
    chain.speak("You have 14 points.")
    voice = chain.current
    assert isinstance(voice, VoiceSpeaker) and voice.wait_until_idle(5)
    sound_device(tmp_path / "home", monkeypatch, working=False)  # the headphones are pulled out
    chain.speak("Bob has 9 points.")  # queued, then fails to play
    voice.wait_until_idle(5)
    chain.speak("Your turn.")
    assert backup.said == ["The built-in voice stopped working; using the recorder.", "Your turn."]
    assert chain.problems[0].startswith("the built-in voice: The built-in voice could not play sound")
    chain.close()
    assert capfd.readouterr().out == ""


# -- open_speaker -----------------------------------------------------------------------------------------------


def test_the_modes(speech_dispatcher: SpeechDispatcher, player: Player, tmp_path: Path,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    # No screen reader runs in this test's session, even on a desktop where one does (auto would leave the speaking
    # to it: tests/test_screen_reader_found.py).
    for name in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("GSETTINGS_BACKEND", "memory")
    none = open_speaker("none")
    assert [type(s) for s in none.speakers] == [SilentSpeaker] and none.notice is None and not none.speaking

    auto = open_speaker("auto", rate=300, volume=0.5)
    assert [type(s) for s in auto.speakers] == [GuardedSpeaker, LazySpeaker, SilentSpeaker]
    guarded = auto.speakers[0]
    assert isinstance(guarded, GuardedSpeaker) and isinstance(guarded.speaker, ScreenReaderSpeaker)
    assert (auto.name, auto.speaking, auto.notice) == ("Speech Dispatcher", True, None)
    auto.speak("Welcome.")
    speech_dispatcher.wait_for("Welcome.")
    standby = auto.speakers[1]
    assert isinstance(standby, LazySpeaker) and standby.speaker is None  # the voice is not started for nothing
    speech_dispatcher.kill()
    auto.speak("Your turn.")  # the screen reader is gone: the built-in voice starts and takes over
    voice = standby.speaker
    assert isinstance(voice, VoiceSpeaker) and (voice.rate, voice.volume) == (300, 0.5)
    assert auto.notices == ["Speech Dispatcher stopped working; using the built-in voice."]
    assert voice.wait_until_idle(10) and len(player.started()) == 2
    auto.close()

    unreachable(monkeypatch, tmp_path)
    tts = open_speaker("tts")
    assert [type(s) for s in tts.speakers] == [VoiceSpeaker, SilentSpeaker] and tts.notice is None
    tts.close()
    auto = open_speaker("auto")
    assert [type(s) for s in auto.speakers] == [VoiceSpeaker, SilentSpeaker]
    assert auto.notice == "No screen reader answered; using the built-in voice."
    auto.close()

    monkeypatch.setenv("PATH", str(tmp_path))  # no aplay at all
    auto = open_speaker("auto")
    assert [type(s) for s in auto.speakers] == [SilentSpeaker]
    assert auto.notice == "No screen reader answered and the built-in voice could not start; using text lines."
    assert auto.problems == ["No screen reader answered.",
                             "The built-in voice needs the aplay program, from alsa-utils, which is missing."]
    tts = open_speaker("tts")
    assert (tts.name, tts.notice) == ("text lines", "The built-in voice could not start; using text lines.")


def test_an_unknown_mode_or_setting_is_refused_in_a_sentence() -> None:
    with pytest.raises(ValueError, match=r"^Unknown speech mode 'loud'; the modes are auto, screenreader, tts and "
                                         r"none\.$"):
        open_speaker("loud")
    with pytest.raises(ValueError, match="rate must be a whole number of words a minute from 50 to 600"):
        open_speaker("none", rate=20)
    with pytest.raises(ValueError, match=r"volume must be from 0\.0 to 1\.0"):
        open_speaker("none", volume=2.0)
