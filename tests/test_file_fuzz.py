"""Hostile files: each of the player's four files in many damaged and malicious forms, and links planted where
audiocrib writes.

Every form must let the program start, say one sentence, set the file aside (renamed, never deleted or followed)
and go on. Most cases run the real session in this process; a few run the installed program in a terminal.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from audiocrib.shell.main import Folders, open_session
from audiocrib.shell.session import Session
from audiocrib.speech import RecordingSpeaker

SAVE = "saved-game.json"


def _session(folder: Path) -> tuple[Session, RecordingSpeaker]:
    speaker = RecordingSpeaker()
    session = open_session(Folders(folder, folder), speaker=speaker, announcer_options={"screen": io.StringIO()})
    return session, speaker


# ------------------------------------------------------------------ writing never follows a planted file
def _practise_one(session: Session) -> None:
    """From the main menu: Practice, Start counting, an answer (the practice figures are written), and back."""
    for key in ("home", "down", "down", "enter", "down", "down", "enter", "0", "enter", "escape", "escape"):
        session.press(key)


@pytest.mark.parametrize("how", ["symlink", "hard link"])
def test_a_link_planted_as_the_partial_copy_is_replaced_never_written_through(how: str, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    victims = {}
    for name in ("settings.json", SAVE, "statistics.json", "practice.json"):
        victim = tmp_path / f"victim-of-{name}"
        victim.write_text("precious\n")
        victims[name] = victim
        partial = folder / f"{name}.partial"
        if how == "symlink":
            partial.symlink_to(victim)
        else:
            os.link(victim, partial)
    session, _ = _session(folder)
    session.start()
    session.press("down")
    session.press("enter")  # table setup
    session.press("right")  # three players: the settings are written
    session.press("escape")
    _practise_one(session)
    session.press("home")
    session.press("enter")  # a new game: the game is written
    assert session.game is not None
    for name, victim in victims.items():
        if name == "statistics.json":
            continue  # written only when a game ends; files.save is the same code
        assert victim.read_text() == "precious\n", f"{name} was written through its planted partial copy"
        assert json.loads((folder / name).read_text())["version"] >= 1
        assert not (folder / f"{name}.partial").exists()
