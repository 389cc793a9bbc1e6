"""The store's tables for moderation (`audiocrib.server.moderation`), added by one migration of
`audiocrib.server.schema`: every act of a moderator or the operator, the bans and chat mutes they put in force,
each player's own mutes of others, and the operator's requests from ``audiocrib admin`` to the running server."""

from __future__ import annotations

__all__ = ["MODERATION"]

MODERATION: tuple[str, ...] = (
    # Every act, kept for good: when, who did it (a moderator's name or "the operator"), what, whom, how long, why.
    "CREATE TABLE moderation_acts (id INTEGER PRIMARY KEY, at REAL NOT NULL, done_by TEXT NOT NULL, act TEXT NOT NULL,"
    " target TEXT NOT NULL, minutes INTEGER CHECK (minutes IS NULL OR minutes > 0), reason TEXT NOT NULL)",
    # A name (by its key, `audiocrib.server.records.name_key`) or an address kept out until a time (NULL: for good).
    "CREATE TABLE bans (kind TEXT NOT NULL CHECK (kind IN ('name', 'address')), target TEXT NOT NULL,"
    " shown TEXT NOT NULL, until REAL, act INTEGER NOT NULL REFERENCES moderation_acts(id),"
    " PRIMARY KEY (kind, target)) WITHOUT ROWID",
    # A player (by name key) whose chat lines are refused until a time.
    "CREATE TABLE chat_mutes (target TEXT PRIMARY KEY, shown TEXT NOT NULL, until REAL NOT NULL,"
    " act INTEGER NOT NULL REFERENCES moderation_acts(id)) WITHOUT ROWID",
    # Whose chat a player does not want to hear (kept so it lasts across reconnects and restarts).
    "CREATE TABLE own_mutes (player INTEGER NOT NULL REFERENCES players(id), target TEXT NOT NULL,"
    " shown TEXT NOT NULL, PRIMARY KEY (player, target)) WITHOUT ROWID",
    # ``audiocrib admin``'s requests to the running server (a JSON command each) and the sentences it answered.
    "CREATE TABLE admin_requests (id INTEGER PRIMARY KEY, asked REAL NOT NULL, command TEXT NOT NULL,"
    " answer TEXT, answered REAL)",
)
"""The statements of the migration from version 4 to version 5."""
