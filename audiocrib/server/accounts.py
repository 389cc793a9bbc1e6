"""Names that last: a player protects their name with a password, signs in with it from any other computer or
browser, changes it or takes it off, and signs out everywhere (every token revoked).

The server (`audiocrib.server.app`) sends here the account messages of `audiocrib.online.messages`
(`ACCOUNT_MESSAGES`); every password is hashed and checked on `audiocrib.server.passwords`' pool, never on the
event loop. Password tries are limited twice: per address (each costs a hash: `Limits.sign_ins_rate`) and per name
from anywhere (`Limits.name_sign_ins_rate`), so guessing from many addresses is as slow as from one.
"""

from __future__ import annotations

from audiocrib.online import messages as m
from audiocrib.online.accounts import SIGNED_OUT, password_problem, wrong_for
from audiocrib.online.fields import ProtocolError
from audiocrib.server.limits import Limits, TokenBucket
from audiocrib.server.passwords import Passwords, PasswordsBusy
from audiocrib.server.records import Player, name_key
from audiocrib.server.store import Store

__all__ = ["ADDRESS_TOO_MANY", "SIGNED_OUT", "WRONG_OLD", "Accounts"]

ADDRESS_TOO_MANY = "Too many password tries from your address; wait a minute before the next."
WRONG_OLD = "That is not your password; give the one your name has now."


class Accounts:
    """Signing in and the account's answers, for one server's store and limits."""

    def __init__(self, store: Store, limits: Limits, passwords: Passwords | None = None) -> None:
        self.store, self.limits = store, limits
        self.passwords = passwords or Passwords()
        self._names: dict[str, TokenBucket] = {}

    def _name_try(self, name: str) -> None:
        """Count one password try for ``name`` (refused with a sentence when it has had too many lately)."""
        key = name_key(name)
        bucket = self._names.get(key)
        if bucket is None:
            if len(self._names) > 10_000:  # forget the names that have gone quiet
                for quiet in [k for k, b in self._names.items() if b.full]:
                    del self._names[quiet]
            bucket = self._names[key] = TokenBucket(self.limits.name_sign_ins_rate, self.limits.name_sign_ins_burst)
        if not bucket.take():
            raise ProtocolError(f"Too many password tries for the name {name}; wait a few minutes and try again.")

    async def _check(self, hashed: str, given: str) -> bool:
        try:
            return await self.passwords.check(hashed, given)
        except PasswordsBusy as busy:
            raise ProtocolError(str(busy)) from None

    async def _make(self, password: str) -> str:
        try:
            return await self.passwords.make(password)
        except PasswordsBusy as busy:
            raise ProtocolError(str(busy)) from None

    async def sign_in(self, tries: TokenBucket, asked: m.SignIn) -> tuple[Player, str]:
        """The player ``asked`` signs in as, with a new token for this computer or browser; a `ProtocolError`
        sentence for a wrong password, a name with none, or too many tries (``tries``: the address's bucket)."""
        player = self.store.player_by_name(asked.name)
        hashed = None if player is None else self.store.password_hash(player.id)
        if player is None:
            raise ProtocolError(f"No player on this server is called {asked.name}; connect without a password to"
                                " choose the name.")
        if hashed is None:
            raise ProtocolError(f"The name {player.name} has no password; connect from the computer that has it,"
                                " or choose another name.")
        if not tries.take():
            raise ProtocolError(ADDRESS_TOO_MANY)
        self._name_try(player.name)
        if not await self._check(hashed, asked.name_password):
            raise ProtocolError(wrong_for(player.name))
        if self.passwords.needs_rehash(hashed):  # made with older parameters: made again with today's
            self.store.set_password_hash(player.id, await self._make(asked.name_password))
        return player, self.store.add_token(player.id)

    async def answer(self, tries: TokenBucket, player: Player, message: m.Message) -> m.AccountState:
        """The answer to `AskAccount`, `SetPassword` or `SignOutEverywhere` (``tries``: the address's bucket)."""
        if isinstance(message, m.SetPassword):
            return await self.set_password(tries, player, message)
        if isinstance(message, m.SignOutEverywhere):
            return self.sign_out_everywhere(player)
        return self.state(player)

    def state(self, player: Player, token: str | None = None, sentence: str | None = None) -> m.AccountState:
        """The player's account as `AccountState` tells it."""
        return m.AccountState(player.name, self.store.password_hash(player.id) is not None, token, sentence)

    async def set_password(self, tries: TokenBucket, player: Player, asked: m.SetPassword) -> m.AccountState:
        """Protect the name, change its password, or (no new one) take it off; the old one must be right."""
        hashed = self.store.password_hash(player.id)
        if asked.new_password is not None:
            problem = password_problem(asked.new_password)
            if problem:
                raise ProtocolError(problem)
        elif hashed is None:
            raise ProtocolError("Your name has no password to take off.")
        if hashed is not None:
            if asked.old_password is None:
                raise ProtocolError("Give the password your name has now, then the new one.")
            if not tries.take():
                raise ProtocolError(ADDRESS_TOO_MANY)
            self._name_try(player.name)
            if not await self._check(hashed, asked.old_password):
                raise ProtocolError(WRONG_OLD)
        if asked.new_password is None:
            self.store.set_password_hash(player.id, None)
            return self.state(player, sentence=f"Your name {player.name} is no longer protected by a password.")
        if hashed is None and not tries.take():
            raise ProtocolError(ADDRESS_TOO_MANY)
        self.store.set_password_hash(player.id, await self._make(asked.new_password))
        if hashed is None:
            return self.state(player, sentence=f"Your name {player.name} is now protected by a password; sign in"
                              " with it from any other computer or browser.")
        return self.state(player, sentence="Your password is changed.")

    def sign_out_everywhere(self, player: Player) -> m.AccountState:
        """Revoke every token of the player and give this connection a new one (the server closes the others)."""
        if self.store.password_hash(player.id) is None:
            raise ProtocolError("Protect your name with a password first: without one, a computer signed out"
                                " could never have your name again.")
        self.store.sign_out_everywhere(player.id)
        return self.state(player, self.store.add_token(player.id), "You are signed out everywhere else: every other"
                          " computer and browser must sign in again with your password.")

    def close(self) -> None:
        """Stop the password pool."""
        self.passwords.close()
