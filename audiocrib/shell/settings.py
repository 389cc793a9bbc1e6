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

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from audiocrib.shell.files import load, save
from audiocrib.shell.lock import updating
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.speech import MODES
from audiocrib.telling.narrator import Verbosity

__all__ = ["PACES", "SETTINGS_VERSION", "SETTING_NAMES", "Settings", "SettingsFile"]

PACES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
"""Seconds between the computer players' moves in the play."""
SPEECH_WORDS = {"auto": "your screen reader, or else the built-in voice", "screenreader": "your screen reader",
                "tts": "the built-in voice", "none": "none, text lines only"}
RATES = tuple(range(100, 401, 25))
VOLUMES = tuple(range(10, 101, 10))
VERBOSITIES = (Verbosity.BRIEF, Verbosity.NORMAL, Verbosity.FULL)
REVIEWS = ("off", "costly", "each")
"""When the coach goes over a deal after its show: never, when it cost the player over a point, after each."""
REVIEW_WORDS = {"off": "off", "costly": "only when a deal cost you over a point", "each": "after each deal"}
GUARDS = (0.0, 0.5, 1.0, 1.5, 2.0)
"""Seconds after the game's news in which a key that makes a move is taken to be typed ahead."""
_CHOICES: dict[str, tuple[Any, ...]] = {
    "speech": MODES, "verbosity": VERBOSITIES, "pace": PACES, "rate": RATES, "volume": VOLUMES,
    "sound_volume": VOLUMES, "typed_ahead": GUARDS, "review": REVIEWS,
}
SETTING_NAMES = ("speech", "verbosity", "pace", "silence_on_key", "show_text", "rate", "volume", "sounds", "chat",
                 "sound_volume", "sounds_for_words", "typed_ahead", "review")


@dataclass(slots=True)
class Settings:
    """What the player chose; the settings menu changes it in place."""

    speech: str = "auto"
    """How audiocrib speaks: one of `audiocrib.speech.MODES`."""
    verbosity: Verbosity = Verbosity.NORMAL
    pace: float = 1.5
    """Seconds between the computer players' moves; any key hurries the next one."""
    typed_ahead: float = 1.0
    """A key that makes a move (lays away, plays, claims, goes on) within this many seconds of the news that
    brought the moment did nothing: it was typed before the player could hear what it would act on."""
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
    chat: bool = True
    """Say the other players' chat messages (off: they are only kept in the message history)."""
    review: str = "costly"
    """The coach's review of each deal after its show: one of `REVIEWS`."""

    def label(self, name: str) -> str:
        """The menu label of setting ``name``."""
        return {
            "speech": "Speech", "verbosity": "Verbosity", "pace": "Pause between computer moves",
            "typed_ahead": "Ignore move keys typed ahead of the news for",
            "silence_on_key": "A key press stops speech", "show_text": "Show text lines",
            "rate": "Voice rate", "volume": "Voice volume", "sounds": "Sounds",
            "sound_volume": "Sound volume", "sounds_for_words": "At brief verbosity, sounds alone for go and last",
            "chat": "Chat messages from other players", "review": "The coach's review of each deal",
        }[name]

    def value_text(self, name: str) -> str:
        """How setting ``name`` is said: "normal", "1.5 seconds", "on"."""
        value = getattr(self, name)
        if isinstance(value, bool):
            return "on" if value else "off"
        if name == "speech":
            return SPEECH_WORDS[value]
        if name == "review":
            return REVIEW_WORDS[value]
        if name in ("pace", "typed_ahead"):
            off = "none" if name == "pace" else "off: never ignored"
            return off if value == 0 else ("1 second" if value == 1 else f"{value:g} seconds")
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
        choices = _CHOICES[name]
        index = choices.index(value) if value in choices else 0
        index = max(0, min(len(choices) - 1, index + direction))
        setattr(self, name, choices[index])

    def to_json(self) -> dict[str, Any]:
        """Every setting by name, as kept in the settings file.

        >>> Settings.from_json(Settings(rate=250).to_json()) == Settings(rate=250)
        True
        """
        return {name: (value.value if isinstance(value, Verbosity) else value)
                for name, value in ((f.name, getattr(self, f.name)) for f in fields(self))}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """The inverse of `to_json`. A setting left out keeps its default (a file from before it existed); one
        with a value the menu does not offer raises ValueError naming it."""
        settings = cls()
        for name in (f.name for f in fields(cls)):
            if name not in data:
                continue
            value = data[name]
            default = getattr(settings, name)
            if name == "verbosity":
                if type(value) is not str:
                    raise ValueError("the verbosity must be a word")
                value = Verbosity(value)
            elif name in ("pace", "typed_ahead") and type(value) in (int, float):
                value = float(value)
            elif type(value) is not type(default):  # 200.0 equals 200, and true equals 1, but they are not
                raise ValueError(f"the setting {name} has the wrong kind of value")
            choices = _CHOICES.get(name)
            if choices is not None and value not in choices:
                raise ValueError(f"the setting {name} has a value the menu does not offer: {value!r}")
            setattr(settings, name, value)
        return settings


SETTINGS_VERSION = 1


class SettingsFile:
    """``settings.json``: the settings and the default table, in a file a person can read and edit.

    Command-line options change the settings for one run only: `override` sets a value and remembers the one in
    the file, and `save` writes the remembered value back, until the player changes that setting in the menu.

    >>> import tempfile
    >>> file = SettingsFile(Path(tempfile.mkdtemp()) / "settings.json")
    >>> settings, setup, notice = file.load()
    >>> file.override(settings, "rate", 300)
    >>> settings.step("volume", -1)
    >>> file.save(settings, setup)
    >>> again, _, _ = file.load()
    >>> again.rate, again.volume
    (200, 90)
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.kept: dict[str, Any] = {}
        """The file's values of the settings overridden for this run."""
        self.touched: set[str] = set()
        """What the player changed in this run (setting names, and "table"): only these are written over what the
        file holds now, so another copy of audiocrib's changes to the others are kept."""

    def load(self) -> tuple[Settings, TableSetup, str | None]:
        """The settings and table in the file (the defaults if there is none), and a sentence if it was damaged."""
        if self.path is None:
            return Settings(), TableSetup(), None
        loaded = load(self.path, "settings", SETTINGS_VERSION, _parse, "the defaults are used")
        if loaded.value is None:
            return Settings(), TableSetup(), loaded.notice
        settings, setup = loaded.value
        return settings, setup, None

    def override(self, settings: Settings, name: str, value: Any) -> None:
        """Set ``name`` for this run only."""
        self.kept.setdefault(name, getattr(settings, name))
        setattr(settings, name, value)

    def changed(self, name: str) -> None:
        """The player chose ``name`` in the menu (or "table": the table setup): from now on it is saved."""
        self.kept.pop(name, None)
        self.touched.add(name)

    def save(self, settings: Settings, setup: TableSetup) -> None:
        """Write what the player changed in this run over the file as it is now, under the folder's lock (raises
        OSError if the file cannot be written). The rest stays as the file has it, or, with no usable file, as
        this run started with it (the command line's values are never written)."""
        if self.path is None:
            return
        values = settings.to_json()
        for name, value in self.kept.items():
            values[name] = value.value if isinstance(value, Verbosity) else value
        values["table"] = setup.to_json()
        with updating(self.path.parent):
            now = load(self.path, "settings", SETTINGS_VERSION, _parse, "the defaults are used")
            if now.value is not None:
                theirs, their_setup = now.value
                file_values = {**theirs.to_json(), "table": their_setup.to_json()}
                values = {name: values[name] if name in self.touched else value for name, value in file_values.items()}
            save(self.path, {"version": SETTINGS_VERSION, **values}, readable=True)


def _parse(data: dict[str, Any]) -> tuple[Settings, TableSetup]:
    table = data.get("table")
    if isinstance(table, dict) and any(type(v) is int and not -1000 < v < 1000 for v in table.values()):
        raise ValueError("a table setting is far out of range")  # before the table's own checks, which do sums
    setup = TableSetup.from_json(table) if "table" in data else TableSetup()
    return Settings.from_json(data), setup
