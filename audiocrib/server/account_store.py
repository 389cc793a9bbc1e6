"""The store's side of accounts: the tokens each player holds (one for each computer or browser they signed in
from) and the hash of the password that protects a name. `audiocrib.server.store.Store` is made of this.

Tokens are kept only as their SHA-256 (`audiocrib.server.records.token_hash`): they are long and random, so a fast
hash is enough. A password is kept only as the Argon2id text `audiocrib.server.passwords` made of it.

>>> from audiocrib.server.store import Store
>>> store = Store(":memory:")
>>> ann, first = store.add_player("Ann")
>>> second = store.add_token(ann.id)
>>> store.player_by_token(first) == store.player_by_token(second) == ann
True
>>> store.sign_out_everywhere(ann.id)
2
>>> store.player_by_token(first) is None and store.player_by_token(second) is None
True
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import AbstractContextManager

from audiocrib.server.records import Player, StoreError, name_key, new_token, token_hash

__all__ = ["MAX_TOKENS", "AccountStore"]

MAX_TOKENS = 50
"""Tokens one player may hold at once (computers and browsers signed in); signing in on one more forgets the oldest,
so a stolen password cannot fill the store."""



class AccountStore:
    """Tokens and password hashes, for the `Store` made of this (which opens ``_db`` and gives ``_writing``)."""

    _db: sqlite3.Connection

    def _writing(self) -> AbstractContextManager[None]:  # pragma: no cover - the Store's
        raise NotImplementedError

    def _keep_token(self, player: int, token: str) -> None:
        """Keep ``token``'s hash for ``player`` (inside a transaction of the caller's)."""
        self._db.execute("INSERT INTO tokens (hash, player, created) VALUES (?, ?, ?)",
                         (token_hash(token), player, time.time()))
        self._db.execute(
            "DELETE FROM tokens WHERE player = ? AND hash NOT IN"
            " (SELECT hash FROM tokens WHERE player = ? ORDER BY created DESC LIMIT ?)",
            (player, player, MAX_TOKENS))

    def add_token(self, player: int) -> str:
        """A new token for ``player`` (signing in on another computer or browser); the others stay good."""
        token = new_token()
        with self._writing():
            self._keep_token(player, token)
        return token

    def player_by_token(self, token: str) -> Player | None:
        """The player this token was given to, or None for any other text (wrong, empty, huge, not ASCII, or
        revoked by signing out everywhere)."""
        digest = token_hash(token)
        if digest is None:
            return None
        row = self._db.execute("SELECT players.id, players.name FROM tokens JOIN players ON players.id = tokens.player"
                               " WHERE tokens.hash = ?", (digest,)).fetchone()
        return Player(*row) if row else None

    def player_by_name(self, name: str) -> Player | None:
        """The player called ``name`` (whatever its case or Unicode form), or None."""
        if not isinstance(name, str):
            return None
        row = self._db.execute("SELECT id, name FROM players WHERE name_key = ?", (name_key(name),)).fetchone()
        return Player(*row) if row else None

    def password_hash(self, player: int) -> str | None:
        """The Argon2id hash of the password protecting the player's name, or None if it has none."""
        row = self._db.execute("SELECT password_hash FROM players WHERE id = ?", (player,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def set_password_hash(self, player: int, hashed: str | None) -> None:
        """Protect the player's name with the password ``hashed`` is the hash of (None: no password)."""
        if hashed is not None and not (isinstance(hashed, str) and hashed.startswith("$argon2id$")):
            raise StoreError("A password is kept only as an Argon2id hash.")
        with self._writing():
            if self._db.execute("UPDATE players SET password_hash = ? WHERE id = ?",
                                (hashed, player)).rowcount != 1:
                raise StoreError("There is no such player.")

    def sign_out_everywhere(self, player: int) -> int:
        """Revoke every token of ``player``: each computer or browser must sign in again. Returns how many."""
        with self._writing():
            gone = self._db.execute("DELETE FROM tokens WHERE player = ?", (player,)).rowcount
            # the first token's hash, kept from before tokens had a table of their own, must not outlive it
            self._db.execute("UPDATE players SET token_hash = ? WHERE id = ?",
                             (token_hash(new_token()), player))
        return int(gone)

    def tokens_of(self, player: int) -> int:
        """How many tokens ``player`` holds (computers and browsers signed in)."""
        return int(self._db.execute("SELECT COUNT(*) FROM tokens WHERE player = ?", (player,)).fetchone()[0])
