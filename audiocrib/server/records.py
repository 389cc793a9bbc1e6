"""What the server's store hands out (players, seats, tables) and the small rules it keeps about them: how a name
is compared, how a join code is made and read, how a token is kept.

None of these records holds a token or a game's seed: they can be shown to anyone they concern.

>>> name_key("ÅSA") == name_key("a\\u030asa")
True
>>> read_code(" k4-r7 w2 ")
'K4R7W2'
>>> read_code("K4R7W")
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from audiocrib.engine.rules import Rules

__all__ = [
    "CODE_DIGITS",
    "CODE_LETTERS",
    "MAX_TOKEN_LENGTH",
    "Player",
    "Seat",
    "Status",
    "StoreError",
    "Table",
    "name_key",
    "new_code",
    "new_token",
    "read_code",
    "token_hash",
]

CODE_LETTERS = "FHKLMQRUWXY"
"""The letters of a join code: none that looks like a digit (I, O, S, Z, B, G), none of the letters that sound
alike when spoken (B C D E G P T V Z; A J K; M N; F S: one of each kept at most)."""

CODE_DIGITS = "23456789"
"""The digits of a join code: no 0 or 1, which look like O and I."""

CODE_LENGTH = 6
"""Letter, digit, letter, digit, letter, digit: "K4R7W2", said one character at a time; about 680,000 codes."""

MAX_TOKEN_LENGTH = 200
"""Longer than any token the store gives (43 characters); a longer one is not looked up at all."""


class StoreError(ValueError):
    """A request the store refuses (a name taken, a table that is not there); the message is one sentence."""


class Status(StrEnum):
    """Where a table is in its life."""

    OPEN = "open"
    """Seats are being filled; the game has not begun."""
    PLAYING = "playing"
    """The game has begun; its log is being written."""
    OVER = "over"
    """The match was won or the table was closed; its join code may be given to another table."""


@dataclass(frozen=True, slots=True)
class Player:
    """A person known to the server, by the name they chose."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a table: a person's player id, a computer player's level, or neither (open for a person).

    ``name`` is what the game calls the seat (the person's name, or the computer player's). ``stand_in`` is the
    level of a computer player keeping a person's seat while they are away (`Store.set_stand_in`), or None.
    """

    player: int | None = None
    computer: str | None = None
    name: str = ""
    stand_in: str | None = None

    def __post_init__(self) -> None:
        if self.player is not None and self.computer is not None:
            raise StoreError("A seat holds a person or a computer player, not both.")
        if self.stand_in is not None and self.player is None:
            raise StoreError("A computer player can keep only a person's seat.")

    @property
    def open(self) -> bool:
        """True while nobody sits here."""
        return self.player is None and self.computer is None


@dataclass(frozen=True, slots=True)
class Table:
    """A table as the lobby may know it: never its seed, never its cards."""

    id: int
    code: str
    host: int
    public: bool
    rules: Rules
    seats: tuple[Seat, ...]
    status: Status
    auto_go: bool = True
    move_limit: int | None = None
    """The seconds a person has for a move before a computer player keeps their seat, or None for no limit."""
    advice: bool = False
    """Whether the host allows the coach's advice at the table (`advice_allowed` says whether it is allowed)."""

    @property
    def advice_allowed(self) -> bool:
        """Whether the coach's advice is allowed here: always at a table with one seat for a person (the others
        computer players', who do not mind), else as the host chose."""
        return self.advice or sum(1 for seat in self.seats if seat.computer is None) == 1

    @property
    def open_seats(self) -> tuple[int, ...]:
        """The seats nobody has taken yet."""
        return tuple(i for i, seat in enumerate(self.seats) if seat.open)


def name_key(name: str) -> str:
    """What two names must not share on one server: the name in Unicode NFC, without case."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def new_code() -> str:
    """A fresh join code, drawn with `secrets` (so the codes of private tables cannot be foreseen)."""
    alphabets = (CODE_LETTERS, CODE_DIGITS) * (CODE_LENGTH // 2)
    return "".join(secrets.choice(alphabet) for alphabet in alphabets)


def read_code(text: str) -> str | None:
    """A join code as typed (any case, with spaces or hyphens) in its stored form, or None if it cannot be one."""
    if not isinstance(text, str) or len(text) > 4 * CODE_LENGTH:
        return None
    code = "".join(c for c in text.upper() if c not in " -")
    if len(code) != CODE_LENGTH:
        return None
    alphabets = (CODE_LETTERS, CODE_DIGITS) * (CODE_LENGTH // 2)
    return code if all(c in alphabet for c, alphabet in zip(code, alphabets, strict=True)) else None


def new_token() -> str:
    """A secret token for a new player: given to them once, never stored."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> bytes | None:
    """What the store keeps of a token (its SHA-256), or None for what cannot be a token."""
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH or not token.isascii():
        return None
    return hashlib.sha256(token.encode("ascii")).digest()
