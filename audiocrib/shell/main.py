"""Starting the shell: choose the speech, open the transcript, and run the session in the terminal."""

from __future__ import annotations

import asyncio
from pathlib import Path

from audiocrib.narrator import Verbosity
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.settings import Settings
from audiocrib.speech import TranscriptSpeaker, open_speaker

__all__ = ["data_dir", "play"]


def data_dir() -> Path:
    """The folder for the player's saved game: the platform's user data folder for audiocrib."""
    import platformdirs

    return Path(platformdirs.user_data_dir("audiocrib", appauthor=False))


def play(
    speech: str = "auto",
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
) -> int:
    """Run the shell until the player quits; returns the exit status."""
    settings = Settings(show_text=show_text)
    if rate is not None:
        settings.rate = rate
    if volume is not None:
        settings.volume = volume
    if verbosity is not None:
        settings.verbosity = Verbosity(verbosity)
    if pace is not None:
        settings.pace = pace
    if sound_volume is not None:
        settings.sound_volume = sound_volume
    from audiocrib.sound import SilentPlayer, open_player

    player, sound_notice = open_player(volume=settings.sound_volume / 100) if sound else (SilentPlayer(), None)
    from audiocrib.shell.session import Session

    speaker = open_speaker(speech, rate=settings.rate, volume=settings.volume / 100)
    record = TranscriptSpeaker(transcript) if transcript else None
    announcer = Announcer(speaker, transcript=record, show_text=show_text)
    save = (folder if folder is not None else data_dir()) / "saved-game.json"
    session = Session(announcer, settings=settings, seed=seed, save_path=save, player=player)
    if sound_notice:
        session.start_notices.append(sound_notice)
    from audiocrib.shell.app import run_session

    try:
        asyncio.run(run_session(session))
    except KeyboardInterrupt:
        announcer.close()
    finally:
        player.close()
    return 0
