"""Moderation on the running server: who is a moderator, the acts a moderator (by a `Moderate` message) or the
operator (by ``audiocrib admin``, through the store's requests) may do, what the server refuses because of them
(a banned name's or address's hello, a muted player's chat), and each player's own mutes of others.

Acts: kick (the connection is closed and the name kept out for `KICK_MINUTES`), mute and unmute a player's chat,
ban a name (for a time or for good) or the address a named player connects from (the operator names the address
itself), unban, and close a table. Each is kept in the store (`audiocrib.server.moderation`) with who did it and
why, and the player it touches is told one sentence. A moderator may not act on another moderator: that is the
operator's to do.

The server (`audiocrib.server.app`) is reached through `Live`, so this module needs nothing of its connections.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from audiocrib.online import messages as m
from audiocrib.online.fields import NAME, ProtocolError
from audiocrib.server.moderation import OPERATOR, Records, address_key, time_left
from audiocrib.server.records import Player, Status, name_key
from audiocrib.server.store import Store

__all__ = ["KICK_MINUTES", "NOT_A_MODERATOR", "Live", "Moderation", "Online", "sentence"]

KICK_MINUTES = 1
"""How long a kicked player's name is kept out (so a client that connects again by itself does not walk back in)."""
NOT_A_MODERATOR = "Only a moderator of this server can do that."
REQUEST_SECONDS = 0.25
"""How often the server looks for the operator's requests."""
STALE_SECONDS = 30.0
"""A request older than this when found (the server was busy or stopped) is answered, not carried out."""
_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Online:
    """One connected player, as moderation sees them."""

    player: int
    name: str
    address: str
    table: int | None


class Live(Protocol):
    """What moderation needs of the running server."""

    def online(self) -> list[Online]:
        """Every player connected now."""

    async def remove(self, player: int, said: str) -> None:
        """Tell the player ``said`` and close their connection (their seat goes on as a dropped player's)."""

    async def close_table(self, table: int, said: str) -> None:
        """End the table now: its people are told ``said`` and go back to the lobby."""

    async def tell(self, player: int, said: str) -> None:
        """Tell a connected player one sentence."""


def sentence(text: str) -> str:
    """``text`` ending as a sentence does (a full stop added when it has no mark of its own)."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _because(reason: str) -> str:
    return f" Reason: {sentence(reason)}" if reason else ""


class Moderation:
    """Moderation for a server on ``store``, with the ``moderators``' names and the running server ``live``."""

    def __init__(self, store: Store, moderators: Iterable[str], live: Live,
                 clock: Callable[[], float] | None = None) -> None:
        self.records = Records(store, clock) if clock is not None else Records(store)
        self.store = store
        self._moderators = frozenset(name_key(name) for name in moderators)
        self._live = live
        self._own: dict[int, set[str]] = {}

    def is_moderator(self, name: str) -> bool:
        return name_key(name) in self._moderators

    # ----------------------------------------------------------------- what is refused
    def hello_refusal(self, name: str | None, address: str) -> str | None:
        """The sentence refusing a hello from a banned address, or with a banned name (None: let it in)."""
        now = self.records.clock()
        ban = self.records.banned("address", address) if address else None
        if ban is not None:
            return f"Your address is banned from this server {time_left(ban.until, now)}."
        ban = self.records.banned("name", name) if name else None
        if ban is not None:
            return f"{name} is banned from this server {time_left(ban.until, now)}."
        return None

    def chat_refusal(self, name: str) -> str | None:
        """The sentence refusing a muted player's chat line, or None."""
        until = self.records.muted(name)
        return None if until is None else f"Your chat is muted {time_left(until, self.records.clock())}."

    # ----------------------------------------------------------------- a player's own mutes
    def welcome(self, player: int) -> None:
        """A player said hello: their own mutes are read from the store."""
        self._own[player] = self.records.own_mutes(player)

    def gone(self, player: int) -> None:
        self._own.pop(player, None)

    def hears(self, player: int, sender: str) -> bool:
        """Whether ``player`` wants to hear the chat of ``sender``."""
        muted = self._own.get(player)
        return not muted or name_key(sender) not in muted

    def own_mute(self, player: Player, name: str, on: bool) -> str:
        """``player`` mutes (``on``) or unmutes the chat of the player called ``name``, for themselves only."""
        other = self._player(name)
        if other.id == player.id:
            raise ProtocolError("You cannot mute your own chat; just say nothing.")
        self.records.set_own_mute(player.id, other.name, on)
        self._own[player.id] = self.records.own_mutes(player.id)
        if on:
            return f"You will not hear {other.name}'s chat; unmute them to hear it again."
        return f"You hear {other.name}'s chat again."

    # ----------------------------------------------------------------- acts
    async def moderate(self, by: Player, asked: m.Moderate) -> str:
        """A moderator's act from the protocol: the sentence for the moderator, or a `ProtocolError`."""
        if not self.is_moderator(by.name):
            raise ProtocolError(NOT_A_MODERATOR)
        return await self.act(by.name, asked.act, asked.target, asked.minutes, asked.reason)

    async def act(self, by: str, act: str, target: str, minutes: int | None, reason: str,
                  address: str | None = None) -> str:
        """Carry out one act by ``by`` (a moderator's name, or `OPERATOR`); ``address`` is the operator's, for
        ``ban_address`` and ``unban`` of an address. The sentence for whoever did it; a refusal is a
        `ProtocolError`, and then nothing is done or kept."""
        who = "The operator" if by == OPERATOR else "A moderator"
        now = self.records.clock()
        if act == "close":
            return await self._close(by, target, reason, who)
        if address is not None:
            return await self._address_act(by, act, address, minutes, reason, who)
        if act == "ban_address":
            on = next((o for o in self._live.online() if name_key(o.name) == name_key(target)), None)
            if on is None:
                raise ProtocolError(f"{target} is not connected, so their address is not known; ban the name.")
            self._not_a_moderator(by, on.name)
            return await self._address_act(by, act, on.address, minutes, reason, who, on.name)
        player = self._player(target)
        name = player.name
        if act in ("kick", "mute", "ban"):
            self._not_a_moderator(by, name)
        if act == "kick":
            if not any(o.player == player.id for o in self._live.online()):
                raise ProtocolError(f"{name} is not connected.")
            number = self.records.record(by, act, name, KICK_MINUTES, reason)
            self.records.ban("name", name, now + 60 * KICK_MINUTES, number)
            await self._live.remove(player.id, f"{who} removed you from this server.{_because(reason)}")
            return f"{name} is removed from the server."
        if act == "mute":
            if minutes is None:
                raise ProtocolError(f"Say for how many minutes to mute {name}'s chat.")
            number = self.records.record(by, act, name, minutes, reason)
            self.records.mute(name, now + 60 * minutes, number)
            long = time_left(now + 60 * minutes, now)
            await self._tell(player.id, f"{who} muted your chat {long}.{_because(reason)}")
            return f"{name}'s chat is muted {long}."
        if act == "unmute":
            if self.records.muted(name) is None:
                raise ProtocolError(f"{name}'s chat is not muted.")
            self.records.record(by, act, name, None, reason)
            self.records.unmute(name)
            await self._tell(player.id, f"{who} let you chat again.")
            return f"{name} may chat again."
        if act == "ban":
            number = self.records.record(by, act, name, minutes, reason)
            until = None if minutes is None else now + 60 * minutes
            self.records.ban("name", name, until, number)
            long = time_left(until, now)
            if any(o.player == player.id for o in self._live.online()):
                await self._live.remove(player.id, f"{who} banned you from this server {long}.{_because(reason)}")
            return f"{name} is banned from this server {long}."
        if act == "unban":
            if self.records.banned("name", name) is None:
                raise ProtocolError(f"{name} is not banned.")
            self.records.record(by, act, name, None, reason)
            self.records.unban("name", name)
            return f"{name} may come back."
        raise ProtocolError("That is not an act of moderation.")

    async def _address_act(self, by: str, act: str, address: str, minutes: int | None, reason: str, who: str,
                           name: str | None = None) -> str:
        key = address_key(address)
        if key is None:
            raise ProtocolError("That is not an address like 203.0.113.7 or 2001:db8::7.")
        shown = f"the address of {name}" if name else f"the address {key}"
        if act == "unban":
            if self.records.banned("address", key) is None:
                raise ProtocolError(f"{shown[0].upper()}{shown[1:]} is not banned.")
            self.records.record(by, act, key, None, reason)
            self.records.unban("address", key)
            return f"{shown[0].upper()}{shown[1:]} may come back."
        if act != "ban_address":
            raise ProtocolError("Only a ban or an unban names an address.")
        now = self.records.clock()
        number = self.records.record(by, act, f"{name} at {key}" if name else key, minutes, reason)
        until = None if minutes is None else now + 60 * minutes
        self.records.ban("address", key, until, number)
        long = time_left(until, now)
        for on in self._live.online():
            if address_key(on.address) == key:
                await self._live.remove(on.player, f"{who} banned your address from this server {long}."
                                                   f"{_because(reason)}")
        return f"{shown[0].upper()}{shown[1:]} is banned from this server {long}."

    async def _close(self, by: str, target: str, reason: str, who: str) -> str:
        number = target.isascii() and target.isdigit() and len(target) <= 18  # not "²", which int() refuses
        table = self.store.table(int(target)) if number else None
        if table is None or table.status is Status.OVER:
            raise ProtocolError(f"There is no table {target} open on this server." if target.isascii() else
                                "There is no such table open on this server.")
        self.records.record(by, "close", f"table {table.id}", None, reason)
        await self._live.close_table(table.id, f"{who} closed table {table.id}.{_because(reason)}")
        return f"Table {table.id} is closed."

    def _player(self, name: str) -> Player:
        row = self.store.reading.execute("SELECT id, name FROM players WHERE name_key = ?",
                                         (name_key(name),)).fetchone()
        if row is None:
            raise ProtocolError(f"There is no player called {name} on this server.")
        return Player(*row)

    def _not_a_moderator(self, by: str, name: str) -> None:
        if name_key(by) == name_key(name):
            raise ProtocolError("A moderator does not act on themselves.")
        if by != OPERATOR and self.is_moderator(name):
            raise ProtocolError(f"{name} is a moderator too; only the operator can do that.")

    async def _tell(self, player: int, said: str) -> None:
        if any(o.player == player for o in self._live.online()):
            await self._live.tell(player, said)

    # ----------------------------------------------------------------- the operator's requests
    async def serve_requests(self) -> None:
        """Carry out ``audiocrib admin``'s requests as they come (a task on the server's event loop)."""
        while True:
            await asyncio.sleep(REQUEST_SECONDS)
            try:
                for number, asked, command in self.records.waiting_requests():
                    if self.records.clock() - asked > STALE_SECONDS:
                        answer = False, "That request waited too long and was not carried out; ask again."
                    else:
                        try:
                            answer = await self.operator(command)
                        except Exception:  # a fault of the server's: answered, so it is not tried again forever
                            _log.exception("The operator's request could not be carried out.")
                            answer = False, "The server failed on that request; its log says why."
                    self.records.answer(number, json.dumps({"done": answer[0], "text": answer[1]}))
            except sqlite3.Error:
                _log.exception("The operator's requests could not be read or answered.")

    async def operator(self, command: str) -> tuple[bool, str]:
        """One request of the operator's (JSON, as ``audiocrib admin`` wrote it): whether it was done, and the
        text to print."""
        try:
            asked: Any = json.loads(command)
            act, target = asked["act"], asked.get("target") or ""
            minutes, reason, address = asked.get("minutes"), asked.get("reason") or "", asked.get("address")
            if not (isinstance(act, str) and isinstance(target, str) and isinstance(reason, str)
                    and (minutes is None or (type(minutes) is int and 1 <= minutes <= m.MOST_MINUTES))
                    and (address is None or isinstance(address, str)) and len(reason) <= 200):
                raise ValueError(command)
        except (ValueError, KeyError, TypeError):
            return False, "That request could not be read."
        if act == "who":
            return True, self.who()
        if act == "tables":
            return True, self.tables()
        try:
            if address is None and act != "close":
                target = NAME.read(target, "the name")
            return True, await self.act(OPERATOR, act, target, minutes, reason, address)
        except ProtocolError as refusal:
            return False, str(refusal)

    def who(self) -> str:
        """Every connected player: name, address, where they are (one a line)."""
        lines = []
        for on in sorted(self._live.online(), key=lambda o: o.name.casefold()):
            where = "in the lobby" if on.table is None else f"at table {on.table}"
            role = ", moderator" if self.is_moderator(on.name) else ""
            lines.append(f"{on.name}{role}: {on.address}, {where}")
        return "\n".join(lines) if lines else "Nobody is connected."

    def tables(self) -> str:
        """Every table not over: number, code, state, seats (one a line)."""
        connected = {o.player for o in self._live.online()}
        lines = []
        for table in self.store.tables(Status.OPEN, Status.PLAYING):
            seats = ", ".join(
                (s.name or "open seat") + ("" if s.player is None or s.player in connected else " (not connected)")
                for s in table.seats)
            kind = "listed" if table.public else "private"
            lines.append(f"Table {table.id}, code {table.code}, {table.status.value}, {kind}: {seats}")
        return "\n".join(lines) if lines else "No tables are open."
