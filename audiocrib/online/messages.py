"""Every message between an audiocrib client and server, as frozen values, with `encode` and `decode`.

A message travels as one JSON object with its ``type`` and its fields (docs/protocol.md lists them). `encode` trusts
the message it is given; `decode` trusts nothing: the text's size, that it is JSON with no repeated keys and no NaN,
that its type is known, and every field's type, range and size. A refusal is a `ProtocolError`, one sentence.

>>> encode(Chat("Good luck, <b>all</b>!"))
'{"type": "chat", "text": "Good luck, <b>all</b>!"}'
>>> decode_from_client('{"type": "hello", "name": " Ann ", "token": null, "password": null, "version": 1}')
Hello(name='Ann', token=None, password=None, version=1)
>>> decode_from_client('{"type": "welcome"}')
Traceback (most recent call last):
...
audiocrib.online.fields.ProtocolError: A player does not send a welcome message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from audiocrib.engine.actions import Action
from audiocrib.engine.events import Event
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.engine.viewcodec import MAX_VIEW_EVENTS
from audiocrib.engine.views import PlayerView
from audiocrib.online import matches as _matches
from audiocrib.online import ratings as _ratings
from audiocrib.online.base import ACTION as _ACTION
from audiocrib.online.base import EVENT as _EVENT
from audiocrib.online.base import RULES as _RULES
from audiocrib.online.base import SEAT as _SEAT
from audiocrib.online.base import SECONDS as _SECONDS
from audiocrib.online.base import TABLE_NUMBER as _TABLE_NUMBER
from audiocrib.online.base import VIEW as _VIEW
from audiocrib.online.base import Message
from audiocrib.online.fields import (
    CHAT,
    COMPUTER_LEVELS,
    NAME,
    PASSWORD,
    SENTENCE,
    TABLE_CODE,
    TOKEN,
    Choice,
    Flag,
    Many,
    Maybe,
    Number,
    ProtocolError,
    Record,
    fields_text,
    newer_fields_pass,
    read_fields,
    write_fields,
)
from audiocrib.online.jsontext import parsed
from audiocrib.online.lookback import MAX_EARLY, LookBack, PastView
from audiocrib.online.moderation import MODERATION_ACTS, MOST_MINUTES, REASON, Moderate, Mute, Unmute
from audiocrib.online.watching import WATCH_CLIENT_MESSAGES, Watchers

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_EARLY",
    "MAX_MESSAGE_BYTES",
    "MAX_SERVER_MESSAGE_BYTES",
    "MODERATION_ACTS",
    "MOST_MINUTES",
    "PROTOCOL_VERSION",
    "REASON",
    "SERVER_MESSAGES",
    "LookBack",
    "Message",
    "Moderate",
    "Mute",
    "PastView",
    "ProtocolError",
    "Unmute",
    "decode",
    "decode_from_client",
    "decode_from_server",
    "encode",
]

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 64 * 1024
"""The largest message a client may send, in bytes of UTF-8."""
MAX_SERVER_MESSAGE_BYTES = 8 * 1024 * 1024
"""The largest message a server may send: a view carries the seat's whole log, tens of kilobytes a game."""
MAX_LOBBY_TABLES = 100
LOBBY_PAGE = 20
"""Tables on one page of the lobby (a server sends at most this many in a `Lobby`)."""
MAX_LOBBY_PAGES = 10**6
MAX_PEOPLE = 500
MAX_NEWS_EVENTS = 10_000
MAX_COUNT_MS = 3_600_000
MAX_MOVE_MS = 3_700_000
"""More than the longest move time limit (an hour) with the time added for laying away after a show."""
PERSON = "person"
"""A seat kept for a person, in `CreateTable.seats`; the other entries are computer levels."""


# From a client to the server.


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The first message on a connection: the name wanted, the token kept from before (None the first time), the
    server's password if it has one, and the protocol version the client speaks."""

    type: ClassVar[str] = "hello"
    name: str = field(metadata={"field": NAME})
    token: str | None = field(metadata={"field": Maybe(TOKEN)})
    password: str | None = field(metadata={"field": Maybe(PASSWORD)})
    version: int = field(metadata={"field": Number(1, 1000)})


@dataclass(frozen=True, slots=True)
class AskLobby(Message):
    """Ask for a page of the lobby: the tables listed there (`LOBBY_PAGE` a page; the first page when ``page`` is
    left out) and who is there."""

    type: ClassVar[str] = "lobby"
    page: int = field(default=1, metadata={"field": Number(1, MAX_LOBBY_PAGES), "optional": True})


@dataclass(frozen=True, slots=True)
class CreateTable(Message):
    """Open a table: its rules, each seat ``"person"`` or a computer level, listed in the lobby or not, a time
    limit for each move in seconds (None for none), and whether the coach's advice is allowed (left out by a client
    written before it: not allowed). The creator takes the first seat kept for a person."""

    type: ClassVar[str] = "create_table"
    rules: Rules = field(metadata={"field": _RULES})
    seats: tuple[str, ...] = field(metadata={"field": Many(Choice(PERSON, *COMPUTER_LEVELS), 6)})
    public: bool = field(metadata={"field": Flag()})
    move_limit: int | None = field(metadata={"field": _SECONDS})
    advice: bool = field(default=False, metadata={"field": Flag(), "optional": True})

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules.players:
            raise ProtocolError(f"The table needs {number_words(self.rules.players)} seats, one for each player.")
        if PERSON not in self.seats:
            raise ProtocolError("A table needs at least one seat for a person.")


@dataclass(frozen=True, slots=True)
class Join(Message):
    """Sit at a table, named by its number or a private table's code."""

    type: ClassVar[str] = "join"
    table: str = field(metadata={"field": TABLE_CODE})


@dataclass(frozen=True, slots=True)
class Leave(Message):
    """Leave the table for the lobby."""

    type: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Start(Message):
    """The host starts the game once every seat is filled."""

    type: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Move(Message):
    """A move in the game, as the engine's action; the server checks it is this connection's seat and legal."""

    type: ClassVar[str] = "move"
    action: Action = field(metadata={"field": _ACTION})


@dataclass(frozen=True, slots=True)
class Chat(Message):
    """Say something to the table (or the lobby)."""

    type: ClassVar[str] = "chat"
    text: str = field(metadata={"field": CHAT})


@dataclass(frozen=True, slots=True)
class Who(Message):
    """Ask who is at the table and connected (answered with `TableState`), or in the lobby (with `Lobby`)."""

    type: ClassVar[str] = "who"


@dataclass(frozen=True, slots=True)
class GiveSeat(Message):
    """The host gives an absent person's seat to a computer player of ``level`` until they take it back."""

    type: ClassVar[str] = "give_seat"
    seat: int = field(metadata={"field": _SEAT})
    level: str = field(metadata={"field": Choice(*COMPUTER_LEVELS)})


@dataclass(frozen=True, slots=True)
class TakeSeatBack(Message):
    """A returning player takes back the seat a computer player kept for them."""

    type: ClassVar[str] = "take_seat_back"


@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Is the server there? Answered by a `Pong` with the same number."""

    type: ClassVar[str] = "ping"
    number: int = field(metadata={"field": Number(0, 1_000_000)})


# From the server to a client.


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """The answer to `Hello`: the name this player has on the server and the token to keep for next time."""

    type: ClassVar[str] = "welcome"
    name: str = field(metadata={"field": NAME})
    token: str = field(metadata={"field": TOKEN})
    version: int = field(metadata={"field": Number(1, 1000)})
    light: bool = field(default=False, metadata={"field": Flag(), "optional": True})
    """Whether this server answers a `LookBack` asked ``light`` without the view's events."""


@dataclass(frozen=True, slots=True)
class Refused(Message):
    """The last message was refused; ``sentence`` says why, to be read to the player."""

    type: ClassVar[str] = "refused"
    sentence: str = field(metadata={"field": SENTENCE})


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One table as the lobby lists it: enough for "Table 4, Ann's: six-card, four players in two teams, two seats
    open"."""

    number: int = field(metadata={"field": _TABLE_NUMBER})
    host: str = field(metadata={"field": NAME})
    rules: Rules = field(metadata={"field": _RULES})
    open_seats: int = field(metadata={"field": Number(0, 6)})
    computers: int = field(metadata={"field": Number(0, 6)})
    started: bool = field(metadata={"field": Flag()})
    advice: bool = field(default=False, metadata={"field": Flag(), "optional": True})
    """Whether the coach's advice is allowed at the table (always at a table of one person and computer players)."""
    host_rating: int | None = field(default=None, metadata={"field": Maybe(_ratings.RATING), "optional": True})
    watch: bool = field(default=True, metadata={"field": Flag(), "optional": True})
    """Whether anyone may watch the table (its host may allow no watchers)."""


@dataclass(frozen=True, slots=True)
class Lobby(Message):
    """A page of the lobby: its public tables (the ``page``-th `LOBBY_PAGE` of them, of ``pages``; ``more`` says
    how many are on the pages after it) and who is there (at most `MAX_PEOPLE` names)."""

    type: ClassVar[str] = "lobby_list"
    tables: tuple[TableSummary, ...] = field(metadata={"field": Many(Record(TableSummary), MAX_LOBBY_TABLES)})
    more: int = field(metadata={"field": Number(0, 10**9)})
    people: tuple[str, ...] = field(metadata={"field": Many(NAME, MAX_PEOPLE)})
    page: int = field(default=1, metadata={"field": Number(1, MAX_LOBBY_PAGES)})
    pages: int = field(default=1, metadata={"field": Number(1, MAX_LOBBY_PAGES)})


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat at a table: a person's (``name``, None while open; ``computer`` the level of a computer player keeping
    it while they are away, else None) or a computer player's own (``name`` its name, ``computer`` its level)."""

    name: str | None = field(metadata={"field": Maybe(NAME)})
    computer: str | None = field(metadata={"field": Maybe(Choice(*COMPUTER_LEVELS))})
    connected: bool = field(metadata={"field": Flag()})
    person: bool = field(default=True, metadata={"field": Flag()})
    """True for a person's seat (open, taken, or kept by a computer player while they are away); False for a
    computer player's own seat."""
    rating: int | None = field(default=None, metadata={"field": Maybe(_ratings.RATING), "optional": True})


@dataclass(frozen=True, slots=True)
class TableState(Message):
    """The table this player sits at: its number, its code (for a private table), the host's seat, the rules, the
    seats, whether the game has started, the move time limit, this player's own seat, and whether the coach's
    advice is allowed."""

    type: ClassVar[str] = "table"
    number: int = field(metadata={"field": _TABLE_NUMBER})
    code: str | None = field(metadata={"field": Maybe(TABLE_CODE)})
    host: int = field(metadata={"field": _SEAT})
    you: int = field(metadata={"field": Number(0, 6)})  # one past the last seat: watching (`watch` says who)
    rules: Rules = field(metadata={"field": _RULES})
    seats: tuple[Seat, ...] = field(metadata={"field": Many(Record(Seat), 6)})
    started: bool = field(metadata={"field": Flag()})
    move_limit: int | None = field(metadata={"field": _SECONDS})
    advice: bool = field(default=False, metadata={"field": Flag(), "optional": True})
    """Whether this seat may ask the coach for advice: the host's choice, and always at a table of one person and
    computer players (left out by a server written before it: not allowed)."""
    watch: Watchers | None = field(default=None, metadata={"field": Maybe(Record(Watchers)), "optional": True})

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules.players:
            raise ProtocolError(f"The table needs {number_words(self.rules.players)} seats, one for each player.")
        if self.host >= self.rules.players or self.you > self.rules.players - (self.watch is None):
            raise ProtocolError("The host and your seat must be seats of the table.")


@dataclass(frozen=True, slots=True)
class ViewOf(Message):
    """This seat's view of the game: whole (with the seat's log) on joining, on a (re)connection or when asked;
    after each move, only its state (``whole`` false: the view's ``events`` are left out, an empty list, because
    they are the seat's log as the `News` sent just before it tell it, which the client keeps)."""

    type: ClassVar[str] = "view"
    view: PlayerView = field(metadata={"field": _VIEW})
    count_ms: int | None = field(default=None, metadata={"field": Maybe(Number(0, MAX_COUNT_MS))})
    """When the game waits on this seat's manual count and the rules time it: the milliseconds left on the
    server's counting clock (None otherwise)."""
    whole: bool = field(default=True, metadata={"field": Flag()})
    """True when ``view.events`` is the seat's whole log; False when they are left out (after a move)."""
    move_ms: int | None = field(default=None, metadata={"field": Maybe(Number(0, MAX_MOVE_MS))})
    """At a table with a move time limit, while the game waits on a person: the milliseconds left for the move of
    ``move_seat`` (None otherwise)."""
    move_seat: int | None = field(default=None, metadata={"field": Maybe(_SEAT)})
    """Whose move ``move_ms`` times: this seat if the game waits on it, else the person waited on with least time
    left (None with no ``move_ms``)."""

    def __post_init__(self) -> None:
        if not self.whole and self.view.events:
            raise ProtocolError("A view that is not whole leaves its events out.")


@dataclass(frozen=True, slots=True)
class News(Message):
    """This seat's events (as it sees them) from number ``since`` of its log on, the ones it has not had yet."""

    type: ClassVar[str] = "news"
    since: int = field(metadata={"field": Number(0, MAX_VIEW_EVENTS)})
    events: tuple[Event, ...] = field(metadata={"field": Many(_EVENT, MAX_NEWS_EVENTS)})


@dataclass(frozen=True, slots=True)
class ChatFrom(Message):
    """What ``sender`` said, as they typed it."""

    type: ClassVar[str] = "chat_from"
    sender: str = field(metadata={"field": NAME})
    text: str = field(metadata={"field": CHAT})


@dataclass(frozen=True, slots=True)
class Notice(Message):
    """A sentence for everyone at the table or in the lobby: someone left, a seat was given to a computer player."""

    type: ClassVar[str] = "notice"
    sentence: str = field(metadata={"field": SENTENCE})


@dataclass(frozen=True, slots=True)
class Pong(Message):
    """The answer to a `Ping`, with its number."""

    type: ClassVar[str] = "pong"
    number: int = field(metadata={"field": Number(0, 1_000_000)})


# Accounts: a name protected by a password, signed in to from anywhere (docs/protocol.md, "Accounts").


@dataclass(frozen=True, slots=True)
class SignIn(Hello):
    """A hello that signs in to a name protected by a password, from a computer or browser without its token: the
    hello's fields (``token`` null) and the name's password. Answered by `Welcome` with a new token for this
    computer or browser; the tokens of the others stay good."""

    type: ClassVar[str] = "sign_in"
    name_password: str = field(metadata={"field": PASSWORD})

    def __post_init__(self) -> None:
        if self.token is not None:
            raise ProtocolError("A sign in message has no token: the name and its password are enough.")


@dataclass(frozen=True, slots=True)
class AskAccount(Message):
    """Ask whether this player's name is protected by a password (answered with `AccountState`)."""

    type: ClassVar[str] = "account"


@dataclass(frozen=True, slots=True)
class SetPassword(Message):
    """Protect this player's name with ``new_password``, or change its password (``old_password`` the one it has),
    or (``new_password`` null) take the protection off. Answered with `AccountState`."""

    type: ClassVar[str] = "set_password"
    old_password: str | None = field(metadata={"field": Maybe(PASSWORD)})
    new_password: str | None = field(metadata={"field": Maybe(PASSWORD)})


@dataclass(frozen=True, slots=True)
class SignOutEverywhere(Message):
    """Revoke every token this player holds, on every computer and browser, and close their other connections;
    this connection goes on with a new token, in the `AccountState` that answers."""

    type: ClassVar[str] = "sign_out_everywhere"


@dataclass(frozen=True, slots=True)
class AccountState(Message):
    """This player's account: their name, whether a password protects it, a new token to keep in place of the old
    one (after signing out everywhere; else null), and a sentence saying what changed (null when only asked)."""

    type: ClassVar[str] = "account_state"
    name: str = field(metadata={"field": NAME})
    protected: bool = field(metadata={"field": Flag()})
    token: str | None = field(metadata={"field": Maybe(TOKEN)})
    sentence: str | None = field(metadata={"field": Maybe(SENTENCE)})


ACCOUNT_MESSAGES = (SignIn, AskAccount, SetPassword, SignOutEverywhere)
"""What a client sends about its account (answered by `audiocrib.server.accounts`)."""

CLIENT_MESSAGES: dict[str, type[Message]] = {
    c.type: c for c in (Hello, AskLobby, CreateTable, Join, Leave, Start, Move, Chat, Who, GiveSeat, TakeSeatBack,
                        Ping, LookBack, *ACCOUNT_MESSAGES, Moderate, Mute, Unmute)
} | {c.type: c for c in WATCH_CLIENT_MESSAGES}
SERVER_MESSAGES: dict[str, type[Message]] = {
    c.type: c for c in (Welcome, Refused, Lobby, TableState, ViewOf, News, ChatFrom, Notice, Pong, PastView,
                        AccountState)
}

CLIENT_MESSAGES.update({c.type: c for c in (*_ratings.ASKS, *_matches.ASKS)})  # the room's life: own modules
SERVER_MESSAGES.update({c.type: c for c in (*_ratings.ANSWERS, *_matches.ANSWERS)})

def encode(message: Message) -> str:
    """The message as JSON text (ASCII only, so no control or direction character travels raw): the text of
    `encode_generic`, written field by field (`fields_text`) without the dicts and lists between."""
    start = _STARTS.get(message.type)
    if start is None:
        start = _STARTS[message.type] = '{"type": ' + json.dumps(message.type)
    return _limited(message, fields_text(message, start))


def encode_generic(message: Message) -> str:
    """The message as ``json.dumps`` writes it from each field's JSON value: what `encode` must equal."""
    return _limited(message, json.dumps({"type": message.type, **write_fields(message)}))


_STARTS: dict[str, str] = {}


def _limited(message: Message, text: str) -> str:
    limit = MAX_SERVER_MESSAGE_BYTES if message.type in SERVER_MESSAGES else MAX_MESSAGE_BYTES
    if len(text) > limit:
        raise ProtocolError("The message is too long to send.")
    return text


def _decode(data: Any, known: dict[str, type[Message]], other: dict[str, type[Message]], sender: str) -> Message:
    if not isinstance(data, dict):
        raise ProtocolError("A message must be one JSON object.")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("A message needs its type, as text.")
    cls = known.get(kind)
    if cls is None:
        if kind in other:
            article = "an" if kind[0] in "aeiou" else "a"
            raise ProtocolError(f"{sender} does not send {article} {kind.replace('_', ' ')} message.")
        raise ProtocolError("That type of message is not part of the protocol.")
    message: Message = read_fields(cls, data, f"the {kind.replace('_', ' ')} message", {"type"})
    return message


def decode_from_client(text: str | bytes) -> Message:
    """A message a client sent (at most `MAX_MESSAGE_BYTES`), or `ProtocolError`."""
    return _decode(parsed(text, MAX_MESSAGE_BYTES), CLIENT_MESSAGES, SERVER_MESSAGES, "A player")


def decode_from_server(text: str | bytes) -> Message:
    """A message the server sent (at most `MAX_SERVER_MESSAGE_BYTES`), or `ProtocolError`; a field added by a newer
    server is passed over (`newer_fields_pass`)."""
    data = parsed(text, MAX_SERVER_MESSAGE_BYTES)
    with newer_fields_pass():
        return _decode(data, SERVER_MESSAGES, CLIENT_MESSAGES, "The server")


def decode(text: str | bytes) -> Message:
    """A message of either side (for tools and tests), each held to its own side's size limit."""
    data = parsed(text, MAX_SERVER_MESSAGE_BYTES)
    if isinstance(data, dict) and isinstance(data.get("type"), str) and data["type"] in CLIENT_MESSAGES:
        return decode_from_client(text)
    return _decode(data, SERVER_MESSAGES, CLIENT_MESSAGES, "The server")
