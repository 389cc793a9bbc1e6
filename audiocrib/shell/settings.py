"""The player's settings: how much is said, how fast the computer players move, and the built-in voice.

>>> settings = Settings()
>>> settings.step("verbosity", 1)
>>> settings.value_text("verbosity")
'full'
>>> settings.step("pace", -1)
>>> settings.value_text("pace")
'1 second'
"""

from __future__ import annotations

from dataclasses import dataclass

from audiocrib.narrator import Verbosity

__all__ = ["PACES", "SETTING_NAMES", "Settings"]

PACES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
"""Seconds between the computer players' moves in the play."""
RATES = tuple(range(100, 401, 25))
VOLUMES = tuple(range(10, 101, 10))
VERBOSITIES = (Verbosity.BRIEF, Verbosity.NORMAL, Verbosity.FULL)
SETTING_NAMES = ("verbosity", "pace", "silence_on_key", "show_text", "rate", "volume", "sounds", "sound_volume",
                 "sounds_for_words")


@dataclass(slots=True)
class Settings:
    """What the player chose; the settings menu changes it in place."""

    verbosity: Verbosity = Verbosity.NORMAL
    pace: float = 1.5
    """Seconds between the computer players' moves; any key hurries the next one."""
    silence_on_key: bool = True
    """A key press stops the speech in progress."""
    show_text: bool = True
    """Print every announcement as a line (it always is when speech has fallen back to text)."""
    rate: int = 200
    """Words a minute for the built-in voice."""
    volume: int = 100
    """Percent, for the built-in voice."""
    sounds: bool = True
    """Play the sound cues (F2 turns them on and off)."""
    sound_volume: int = 80
    """Percent, for the sound cues (the speech has its own)."""
    sounds_for_words: bool = False
    """At brief verbosity, say go, one for last and his heels by their sound alone."""

    def label(self, name: str) -> str:
        """The menu label of setting ``name``."""
        return {
            "verbosity": "Verbosity", "pace": "Pause between computer moves",
            "silence_on_key": "A key press stops speech", "show_text": "Show text lines",
            "rate": "Voice rate", "volume": "Voice volume", "sounds": "Sounds",
            "sound_volume": "Sound volume", "sounds_for_words": "At brief verbosity, sounds alone for go and last",
        }[name]

    def value_text(self, name: str) -> str:
        """How setting ``name`` is said: "normal", "1.5 seconds", "on"."""
        value = getattr(self, name)
        if isinstance(value, bool):
            return "on" if value else "off"
        if name == "pace":
            return "none" if value == 0 else ("1 second" if value == 1 else f"{value:g} seconds")
        if name == "rate":
            return f"{value} words a minute"
        if name in ("volume", "sound_volume"):
            return f"{value} percent"
        return str(value)

    def step(self, name: str, direction: int) -> None:
        """Move setting ``name`` one choice on (1) or back (-1); on/off settings flip."""
        value = getattr(self, name)
        if isinstance(value, bool):
            setattr(self, name, not value)
            return
        choices: tuple[object, ...] = {
            "verbosity": VERBOSITIES, "pace": PACES, "rate": RATES, "volume": VOLUMES, "sound_volume": VOLUMES,
        }[name]
        index = choices.index(value) if value in choices else 0
        index = max(0, min(len(choices) - 1, index + direction))
        setattr(self, name, choices[index])
