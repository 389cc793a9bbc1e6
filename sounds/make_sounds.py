"""Make every sound cue of `audiocrib.telling.cues.CUES` as a WAV file in this folder, from nothing but arithmetic.

    python sounds/make_sounds.py          # writes sounds/*.wav (the same bytes every time)

Each cue is a few notes of sine, square-ish or noise, with a short fade in and out so nothing clicks; 16-bit PCM,
mono, 22,050 Hz, at most about 0.6 s, and quiet enough (peak about -6 dBFS) not to hide the speech after it.
Standard library only; the noise comes from a seeded generator, so the files are reproducible.
"""

from __future__ import annotations

import math
import random
import struct
import sys
import wave
from pathlib import Path

RATE = 22_050
PEAK = 0.5

# name: list of (frequency in Hz or 0 for noise, seconds, shape) played one after another
Note = tuple[float, float, str]
DESIGNS: dict[str, list[Note]] = {
    "your turn": [(660, 0.07, "sine"), (880, 0.09, "sine")],
    "card": [(0, 0.03, "noise")],
    "fifteen": [(988, 0.06, "sine"), (1319, 0.1, "sine")],
    "pair": [(740, 0.06, "sine"), (0, 0.02, "rest"), (740, 0.06, "sine")],
    "run": [(523, 0.05, "sine"), (659, 0.05, "sine"), (784, 0.07, "sine")],
    "go": [(110, 0.12, "square")],
    "thirty-one": [(523, 0.06, "square"), (659, 0.06, "square"), (1047, 0.12, "square")],
    "last card": [(1175, 0.06, "sine")],
    "his heels": [(587, 0.06, "square"), (880, 0.1, "square")],
    "nobs": [(1568, 0.04, "sine")],
    "flush": [(400, 0.04, "sine"), (600, 0.04, "sine"), (800, 0.04, "sine"), (1000, 0.04, "sine")],
    "points": [(2093, 0.02, "sine")],
    "deal": [(0, 0.04, "noise"), (0, 0.02, "rest"), (0, 0.04, "noise"), (0, 0.02, "rest"), (0, 0.04, "noise")],
    "starter": [(0, 0.08, "sweep")],
    "count": [(523, 0.07, "sine"), (587, 0.1, "sine")],
    "timer": [(1760, 0.05, "square")],
    "illegal": [(150, 0.15, "square")],
    "game won": [(523, 0.08, "sine"), (659, 0.08, "sine"), (784, 0.08, "sine"), (1047, 0.2, "sine")],
    "game lost": [(494, 0.1, "sine"), (415, 0.1, "sine"), (330, 0.25, "sine")],
    "skunk": [(196, 0.3, "wobble")],
    "muggins": [(1397, 0.06, "square"), (1047, 0.06, "square"), (1397, 0.06, "square")],
    "chat": [(1047, 0.04, "sine"), (0, 0.03, "rest"), (1319, 0.05, "sine")],
}


def samples(design: list[Note], rng: random.Random) -> list[float]:
    out: list[float] = []
    for frequency, seconds, shape in design:
        n = int(RATE * seconds)
        fade = max(1, min(n // 4, int(RATE * 0.008)))
        for i in range(n):
            t = i / RATE
            if shape == "rest":
                value = 0.0
            elif shape == "noise":
                value = rng.uniform(-1, 1)
            elif shape == "sweep":
                value = math.sin(2 * math.pi * (300 + 4000 * t) * t) * 0.7 + rng.uniform(-0.3, 0.3)
            elif shape == "square":
                value = 0.6 * (1 if math.sin(2 * math.pi * frequency * t) >= 0 else -1)
            elif shape == "wobble":
                value = math.sin(2 * math.pi * frequency * (1 + 0.05 * math.sin(2 * math.pi * 12 * t)) * t)
            else:
                value = math.sin(2 * math.pi * frequency * t)
            envelope = min(1.0, i / fade, (n - 1 - i) / fade)
            out.append(value * envelope * PEAK)
    return out


def write(path: Path, values: list[float]) -> None:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(b"".join(struct.pack("<h", round(v * 32767)) for v in values))


def main(folder: Path) -> None:
    for name, design in DESIGNS.items():
        write(folder / f"{name.replace(' ', '-')}.wav", samples(design, random.Random(name)))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
