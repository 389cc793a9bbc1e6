"""Starting the shell: read the player's files, choose the speech, open the transcript, and run the session.

The options given on the command line change the settings for this run only; the settings file keeps what the
player chose in the menu.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audiocrib.shell.announcer import Announcer
from audiocrib.shell.files import folder_problem
from audiocrib.shell.session import Session
from audiocrib.shell.settings import SettingsFile
from audiocrib.sound.player import Player as SoundPlayer
from audiocrib.speech import FallbackSpeaker, Speaker, TranscriptSpeaker, open_speaker

__all__ = ["Folders", "config_dir", "data_dir", "open_session", "play"]


def data_dir() -> Path:
    """The folder for the game in progress, statistics and practice: the platform's user data folder."""
    import platformdirs

    return Path(platformdirs.user_data_dir("audiocrib", appauthor=False))


def config_dir() -> Path:
    """The folder for the settings: the platform's user configuration folder."""
    import platformdirs

    return Path(platformdirs.user_config_dir("audiocrib", appauthor=False))


@dataclass(frozen=True, slots=True)
class Folders:
    """Where the player's files are: ``settings.json`` in ``config``; ``saved-game.json``, ``statistics.json``
    and ``practice.json`` in ``data``. One folder given on the command line holds them all."""

    config: Path
    data: Path

    @classmethod
    def of(cls, folder: Path | None) -> Folders:
        """The platform's folders, or ``folder`` for everything."""
        if folder is not None:
            return cls(folder, folder)
        return cls(config_dir(), data_dir())


def open_session(
    folders: Folders,
    speech: str | None = None,
    overrides: dict[str, Any] | None = None,
    speaker: Speaker | FallbackSpeaker | None = None,
    announcer_options: dict[str, Any] | None = None,
    **session_options: Any,
) -> Session:
    """A session with the player's settings read (and ``overrides`` applied for this run), speaking through
    ``speaker`` or else the speech mode chosen (``speech``, else the setting).

    A damaged settings file is set aside and its sentence is said after the welcome. A configuration folder that
    cannot be opened gives the defaults, kept nowhere: its one sentence is the data folder's when they are one folder
    (``--data-dir``), said by the session, else its own.
    """
    problem = folder_problem(folders.config)
    file = SettingsFile(None if problem is not None else folders.config / "settings.json")
    settings, setup, notice = file.load()
    if problem is not None and folders.config != folders.data:
        notice = (f"Your configuration folder, {folders.config}, cannot be opened ({problem}), so the default "
                  "settings are used and none are kept this time.")
    for name, value in (overrides or {}).items():
        if value is not None:
            file.override(settings, name, value)
    if speech is not None:
        file.override(settings, "speech", speech)

    def start_speech(mode: str) -> FallbackSpeaker:
        return open_speaker(mode, rate=settings.rate, volume=settings.volume / 100)

    if speaker is None:
        speaker = start_speech(settings.speech)
    announcer = Announcer(speaker, show_text=settings.show_text, **(announcer_options or {}))
    session = Session(announcer, settings=settings, setup=setup, save_path=folders.data / "saved-game.json",
                      settings_file=file, open_speech=start_speech, **session_options)
    if notice:
        session.start_notices.append(notice)
    return session


def play(
    speech: str | None = None,
    transcript: str | None = None,
    rate: int | None = None,
    volume: int | None = None,
    verbosity: str | None = None,
    pace: float | None = None,
    seed: int | None = None,
    folder: Path | None = None,
    show_text: bool = True,
    sound: bool = True,
    sound_volume: int | None = None,
    online: str | None = None,
) -> int:
    """Run the shell until the player quits; returns the exit status. What the sound and speech libraries write
    to the standard error goes to ``sound-and-speech.log`` in the data folder, not over the game's lines."""
    from audiocrib.shell.quiet import libraries_quiet

    folders = Folders.of(folder)
    with libraries_quiet(folders.data / "sound-and-speech.log"):
        return _play(folders, speech, transcript, rate, volume, verbosity, pace, seed, show_text, sound,
                     sound_volume, online)


def _play(folders: Folders, speech: str | None, transcript: str | None, rate: int | None, volume: int | None,
          verbosity: str | None, pace: float | None, seed: int | None, show_text: bool, sound: bool,
          sound_volume: int | None, online: str | None = None) -> int:
    from audiocrib.sound.player import SilentPlayer, open_player
    from audiocrib.telling.narrator import Verbosity

    overrides: dict[str, Any] = {
        "rate": rate, "volume": volume, "verbosity": Verbosity(verbosity) if verbosity else None, "pace": pace,
        "sound_volume": sound_volume, "show_text": None if show_text else False, "sounds": None if sound else False,
    }
    record = TranscriptSpeaker(transcript) if transcript else None
    session = open_session(folders, speech, overrides, announcer_options={"transcript": record},
                           seed=seed, online_address=online)
    settings = session.settings
    player: SoundPlayer
    player, sound_notice = open_player(volume=settings.sound_volume / 100) if sound else (SilentPlayer(), None)
    session.player = player
    if sound_notice:
        session.start_notices.append(sound_notice)
    from audiocrib.shell.app import run_session

    try:
        asyncio.run(run_session(session))
    except KeyboardInterrupt:
        session.announcer.close()
    finally:
        player.close()
        session.close()
    return session.exit_status
