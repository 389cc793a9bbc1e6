"""Playing the sound cues: a mixer (several cues at once, a volume of their own, mute) on a miniaudio device.

The cues are the WAV files of ``sounds/`` (`audiocrib.telling.cues`). `Mixer` is plain arithmetic on 16-bit samples, so
it is tested without a sound card; `CuePlayer` feeds it to a miniaudio playback device, imported only when a
player starts. With no sound device, or a broken one, `open_player` returns a `SilentPlayer` and a sentence to
tell the player once; the game goes on.

>>> from array import array
>>> mixer = Mixer({"tick": array("h", [1000, 2000, 3000])}, volume=0.5)
>>> mixer.start("tick")
>>> list(mixer.frames(4))
[500, 1000, 1500, 0]
"""

from __future__ import annotations

import threading
import time
import wave
from array import array
from collections.abc import Generator, Iterable
from pathlib import Path
from typing import Any, Protocol

from audiocrib.telling.cues import CUES

__all__ = ["SOUNDS", "CuePlayer", "Mixer", "Player", "SilentPlayer", "SoundUnavailable", "cue_file", "load_cues",
           "open_player"]

SOUNDS = Path(__file__).resolve().parents[2] / "sounds"
"""Where the cues are: ``sounds/`` beside the package (a source checkout or an editable install)."""
RATE = 22_050


class SoundUnavailable(OSError):
    """No sound can be played (no device, a broken one, or the cue files are missing); one plain sentence."""


class Player(Protocol):
    """Something that plays cues by name."""

    muted: bool

    def play(self, names: Iterable[str]) -> None:
        """Start the cues ``names`` (they sound together, over anything already playing)."""
        ...

    def set_volume(self, volume: float) -> None:
        """Set the cues' volume, 0.0 to 1.0 (the speech's volume is separate)."""
        ...

    def close(self) -> None:
        """Stop and let go of the device."""
        ...


def cue_file(name: str) -> str:
    """The name of the WAV file of the cue ``name`` in the sounds folder.

    >>> cue_file("your turn")
    'your-turn.wav'
    """
    return f"{name.replace(' ', '-')}.wav"


def load_cues(folder: Path = SOUNDS) -> dict[str, array[int]]:
    """Every cue's samples by name; raises `SoundUnavailable` if one is missing or not 16-bit mono 22,050 Hz."""
    cues: dict[str, array[int]] = {}
    for name in CUES:
        path = folder / cue_file(name)
        try:
            with wave.open(str(path)) as wav:
                if (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) != (1, 2, RATE):
                    raise SoundUnavailable(f"The sound {path.name} is not in the expected format.")
                samples = array("h")
                data = wav.readframes(wav.getnframes())
                samples.frombytes(data[: len(data) - len(data) % 2])  # a file cut off mid-sample plays shorter
        except (OSError, EOFError, ValueError, wave.Error) as error:  # ValueError: cut off mid-sample
            if isinstance(error, SoundUnavailable):
                raise
            raise SoundUnavailable(f"The sound {path.name} is missing or damaged.") from error
        cues[name] = samples
    return cues


class Mixer:
    """Mixes the cues that are playing into frames of 16-bit samples. Safe to use from two threads."""

    def __init__(self, cues: dict[str, array[int]], volume: float = 0.8) -> None:
        self.cues = cues
        self.volume = volume
        self.muted = False
        self._playing: list[tuple[array[int], int]] = []
        self._lock = threading.Lock()
        self.started = 0
        """How many cues have been started (for tests and the sound test)."""
        self.pulled = time.monotonic()
        """When the device last asked for frames (a device that has gone away stops asking)."""

    @property
    def playing(self) -> int:
        """How many cues are sounding now."""
        with self._lock:
            return len(self._playing)

    def start(self, name: str) -> None:
        """Start the cue ``name``; an unknown name is a ValueError (a mistake in the program)."""
        if name not in self.cues:
            raise ValueError(f"There is no sound cue called {name!r}.")
        with self._lock:
            if not self.muted:
                self._playing.append((self.cues[name], 0))
                self.started += 1

    def frames(self, count: int) -> array[int]:
        """The next ``count`` samples of everything playing, at the volume, clipped to 16 bits."""
        self.pulled = time.monotonic()
        mixed = [0.0] * count
        with self._lock:
            still: list[tuple[array[int], int]] = []
            for samples, position in self._playing:
                part = samples[position:position + count]
                for i, value in enumerate(part):
                    mixed[i] += value
                if position + count < len(samples):
                    still.append((samples, position + count))
            self._playing = still
            scale = 0.0 if self.muted else self.volume
        return array("h", (max(-32768, min(32767, round(v * scale))) for v in mixed))


class CuePlayer:
    """Plays cues through a miniaudio device (``backends``: miniaudio's choice, for tests its null backend)."""

    def __init__(self, folder: Path = SOUNDS, volume: float = 0.8, backends: list[Any] | None = None,
                 stall: float = 2.0) -> None:
        self.mixer = Mixer(load_cues(folder), volume)
        self.stall = stall
        """Seconds without the device asking for frames after which it is taken to have gone away."""
        try:
            import miniaudio

            self._device = miniaudio.PlaybackDevice(
                output_format=miniaudio.SampleFormat.SIGNED16, nchannels=1, sample_rate=RATE,
                buffersize_msec=50, backends=backends, app_name="audiocrib")
            stream = self._stream()
            next(stream)
            self._device.start(stream)
        except Exception as error:  # ImportError, or miniaudio's own errors: no device, a broken one
            raise SoundUnavailable("No sound device could be opened.") from error

    def _stream(self) -> Generator[array[int], int, None]:
        wanted = yield array("h")
        while True:
            wanted = yield self.mixer.frames(wanted)

    @property
    def muted(self) -> bool:
        """Whether the cues are silenced."""
        return self.mixer.muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self.mixer.muted = value

    def play(self, names: Iterable[str]) -> None:
        """Start the cues ``names``; raises `SoundUnavailable` if the device has stopped asking for sound (it was
        unplugged, or its server went away), which miniaudio does not report reliably by itself."""
        if time.monotonic() - self.mixer.pulled > self.stall:
            raise SoundUnavailable("The sound device stopped.")
        for name in names:
            self.mixer.start(name)

    def set_volume(self, volume: float) -> None:
        """Set the cues' volume, 0.0 to 1.0."""
        if not 0.0 <= volume <= 1.0:
            raise ValueError("The sound volume must be from 0 to 1.")
        self.mixer.volume = volume

    def close(self) -> None:
        """Stop the device."""
        try:
            self._device.close()
        except Exception:  # closing at exit must not raise
            pass


class SilentPlayer:
    """Plays nothing: the game without sound (no device, or sounds turned off). ``reason`` says why when it is
    not the player's choice ("No sound device could be opened"), so the settings can tell them."""

    muted = True

    def __init__(self, reason: str | None = None) -> None:
        self.reason = reason

    def play(self, names: Iterable[str]) -> None:
        """Nothing to play."""

    def set_volume(self, volume: float) -> None:
        """Nothing to set."""

    def close(self) -> None:
        """Nothing to let go of."""


def open_player(folder: Path = SOUNDS, volume: float = 0.8,
                backends: list[Any] | None = None) -> tuple[Player, str | None]:
    """A started player, and None; or a `SilentPlayer` and the sentence to tell the player once."""
    try:
        return CuePlayer(folder, volume, backends), None
    except SoundUnavailable as error:
        reason = str(error).rstrip(".")
        return SilentPlayer(reason), f"{reason}; the game goes on without sounds."
