"""What both sides of moderation know: the sentence a moderator is told on connecting (by which a client knows to
offer the moderator's acts), and the acts a client offers, with how long each lasts."""

from __future__ import annotations

__all__ = ["MODERATOR_WELCOME", "OFFERED_ACTS"]

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
