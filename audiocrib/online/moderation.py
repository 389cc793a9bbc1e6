"""What both sides of moderation know: the sentence a moderator is told on connecting (by which a client knows to
offer the moderator's acts), the acts a client offers, with how long each lasts, and the messages of moderation
(`audiocrib.online.messages` registers them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from audiocrib.engine.text import printable
from audiocrib.online.base import Message
from audiocrib.online.fields import NAME, Choice, Maybe, Number, Text

__all__ = ["MODERATION_ACTS", "MODERATOR_WELCOME", "MOST_MINUTES", "OFFERED_ACTS", "REASON", "Moderate", "Mute",
           "Unmute"]

MODERATION_ACTS = ("kick", "mute", "unmute", "ban", "ban_address", "unban", "close")
"""What a moderator may do (`Moderate`): ``ban_address`` keeps out the address a named player connects from."""
MOST_MINUTES = 527_040
"""The longest mute or ban with a time, in minutes: a year."""
REASON = Text(1, 200, printable, "printable characters")

MODERATOR_WELCOME = "You are a moderator on this server."
"""The notice a moderator gets right after the welcome."""

OFFERED_ACTS: tuple[tuple[str, str, int | None], ...] = (
    ("kick", "remove {name} from the server", None),
    ("mute", "mute {name}'s chat for everyone, for ten minutes", 10),
    ("mute", "mute {name}'s chat for everyone, for a day", 24 * 60),
    ("unmute", "let {name} chat again", None),
    ("ban", "ban {name} for a day", 24 * 60),
    ("ban", "ban {name} for good", None),
    ("ban_address", "ban the address {name} connects from, for a day", 24 * 60),
)
"""The moderator's acts a client offers for a player: (act, the item's words, minutes)."""


@dataclass(frozen=True, slots=True)
class Moderate(Message):
    """A moderator's act (refused to anyone else): ``act`` on ``target`` (a player's name, or a table's number for
    ``close``), for ``minutes`` (a mute's or a ban's time; None for a ban for good), with the ``reason`` kept."""

    type: ClassVar[str] = "moderate"
    act: str = field(metadata={"field": Choice(*MODERATION_ACTS)})
    target: str = field(metadata={"field": NAME})
    minutes: int | None = field(metadata={"field": Maybe(Number(1, MOST_MINUTES))})
    reason: str = field(metadata={"field": REASON})


@dataclass(frozen=True, slots=True)
class Mute(Message):
    """Hear no more chat from the player called ``name`` (for this player only; kept across connections)."""

    type: ClassVar[str] = "mute"
    name: str = field(metadata={"field": NAME})


@dataclass(frozen=True, slots=True)
class Unmute(Message):
    """Hear the player called ``name``'s chat again."""

    type: ClassVar[str] = "unmute"
    name: str = field(metadata={"field": NAME})
