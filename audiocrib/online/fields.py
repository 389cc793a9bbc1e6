"""The kinds of field a protocol message holds, each able to write its value as JSON and to read it back from
hostile JSON, refusing anything wrong with one `ProtocolError` sentence.

>>> NAME.read("  Ann O'Neil ", "the name")
"Ann O'Neil"
>>> NAME.read("<b>Ann</b>", "the name")
Traceback (most recent call last):
...
audiocrib.online.fields.ProtocolError: The name must be from one to twenty-four letters, digits and spaces, with no \
marks but the full stop, apostrophe, hyphen and underscore.
"""

from __future__ import annotations

import dataclasses
import json
import string
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from json.encoder import encode_basestring_ascii
from typing import Any

from audiocrib.engine.actions import Action, action_from_json, action_to_json
from audiocrib.engine.errors import AudiocribError
from audiocrib.engine.events import Event, event_text, event_to_json
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import RANGES, Rules
from audiocrib.engine.text import printable
from audiocrib.engine.viewcodec import checked_event, field_named, rules_text, view_from_json, view_text, view_to_json
from audiocrib.engine.views import PlayerView

__all__ = [
    "CHAT",
    "COMPUTER_LEVELS",
    "NAME",
    "ProtocolError",
]

COMPUTER_LEVELS = ("beginner", "easy", "medium", "expert")
"""The strengths of computer player a seat may be given to (the names of `audiocrib.bots.levels.LEVELS`)."""


class ProtocolError(ValueError):
    """A message that breaks the protocol; the message is one sentence that reads aloud."""


class Field:
    """One kind of field: ``write`` makes it JSON, ``read`` checks JSON and returns the value (``where`` names the
    field in the sentence of a refusal, such as "the name in the hello message"). ``text`` is
    ``json.dumps(write(value))``, which the hot kinds write directly."""

    what = "a value"

    def write(self, value: Any) -> Any:
        return value

    def text(self, value: Any) -> str:
        return json.dumps(self.write(value))

    def read(self, value: Any, where: str) -> Any:
        raise NotImplementedError  # pragma: no cover

    def refuse(self, where: str) -> ProtocolError:
        return ProtocolError(f"{where[0].upper()}{where[1:]} must be {self.what}.")


class Text(Field):
    """Text trimmed of spaces at both ends, of ``low`` to ``high`` characters, each accepted by ``allowed``."""

    def __init__(self, low: int, high: int, allowed: Callable[[str], bool], kind: str, trim: bool = True) -> None:
        self.low, self.high, self.allowed, self.trim = low, high, allowed, trim
        self.what = f"from {number_words(low)} to {number_words(high)} {kind}"

    def text(self, value: Any) -> str:
        return encode_basestring_ascii(value) if type(value) is str else json.dumps(value)

    def read(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise self.refuse(where)
        text = value.strip(" ") if self.trim else value
        if not self.low <= len(text) <= self.high or not all(self.allowed(c) for c in text):
            raise self.refuse(where)
        return text


def _name_character(c: str) -> bool:
    return printable(c) and (c.isalnum() or c in " .'-_")


NAME = Text(1, 24, _name_character, "letters, digits and spaces, with no marks but the full stop, apostrophe, hyphen "
            "and underscore")
"""A player's name: it is spoken and printed, so letters, digits, spaces and a few marks only (no HTML, no escapes)."""
CHAT = Text(1, 300, printable, "printable characters")
"""A chat message: any printable text, kept as it was typed (never read as markup)."""
SENTENCE = Text(1, 500, printable, "printable characters")
"""A sentence from the server: a refusal or a notice."""
TOKEN = Text(16, 128, lambda c: c in string.ascii_letters + string.digits + "-_", "letters, digits, hyphens and "
             "underscores", trim=False)
"""The secret a server gives a player to keep (URL-safe base64)."""
PASSWORD = Text(1, 128, printable, "printable characters", trim=False)
TABLE_CODE = Text(1, 16, lambda c: c in string.ascii_letters + string.digits + "-", "letters, digits and hyphens")
"""A table's number, or a private table's short code."""


class Number(Field):
    """A whole number from ``low`` to ``high`` (never true or false, never a fraction)."""

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high
        self.what = f"a whole number from {number_words(low)} to {number_words(high)}"

    def text(self, value: Any) -> str:
        return int.__repr__(value) if type(value) is int else json.dumps(value)

    def read(self, value: Any, where: str) -> int:
        if type(value) is not int or not self.low <= value <= self.high:
            raise self.refuse(where)
        return value


class Flag(Field):
    what = "true or false"

    def text(self, value: Any) -> str:
        return "true" if value is True else "false" if value is False else json.dumps(value)

    def read(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.refuse(where)
        return value


class Choice(Field):
    """One of a few words."""

    def __init__(self, *words: str) -> None:
        self.words = words
        self.what = f"one of {', '.join(words[:-1])} or {words[-1]}"

    def text(self, value: Any) -> str:
        return encode_basestring_ascii(value) if type(value) is str else json.dumps(value)

    def read(self, value: Any, where: str) -> str:
        if value not in self.words:
            raise self.refuse(where)
        return str(value)


class Maybe(Field):
    """``inner``, or null for none."""

    def __init__(self, inner: Field) -> None:
        self.inner = inner
        self.what = f"{inner.what}, or null"

    def write(self, value: Any) -> Any:
        return None if value is None else self.inner.write(value)

    def text(self, value: Any) -> str:
        return "null" if value is None else self.inner.text(value)

    def read(self, value: Any, where: str) -> Any:
        return None if value is None else self.inner.read(value, where)


class Many(Field):
    """A list of at most ``most`` values of ``inner``, read as a tuple."""

    def __init__(self, inner: Field, most: int) -> None:
        self.inner, self.most = inner, most
        self.what = f"a list of at most {number_words(most)} entries"

    def write(self, value: Any) -> Any:
        return [self.inner.write(v) for v in value]

    def text(self, value: Any) -> str:
        text = self.inner.text
        return "[" + ", ".join([text(v) for v in value]) + "]"

    def read(self, value: Any, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) > self.most:
            raise self.refuse(where)
        return tuple(self.inner.read(v, f"entry {number_words(i + 1)} of {where}") for i, v in enumerate(value))


def _engine_sentence(error: AudiocribError, fallback: ProtocolError) -> ProtocolError:
    """The engine's own sentence when it is short, plain and one sentence that reads well on its own (it may quote
    what was sent, but not begin with it), else ``fallback``."""
    message = str(error)
    plain = len(message) <= 200 and message.isascii() and printable(message) and message[:1].isupper() \
        and message.endswith(".") and ". " not in message
    return ProtocolError(message) if plain else fallback


class RulesField(Field):
    what = "the table's settings, each known and valid"

    def write(self, value: Rules) -> Any:
        return value.to_json()

    def text(self, value: Rules) -> str:
        return rules_text(value)

    def read(self, value: Any, where: str) -> Rules:
        try:
            return Rules.from_json(value)
        except AudiocribError as error:
            raise _engine_sentence(error, self.refuse(where)) from None
        except (ValueError, TypeError):
            raise self.refuse(where) from None


_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """The names of the fields of the dataclass ``cls``, worked out once."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


class ActionField(Field):
    what = "a move: an object with its kind, its seat and what it needs, like a card"
    seats = RANGES["players"][1]
    """A move's seat is below this (the most players a table has); the engine then checks it is the sender's."""
    most = 1000
    """A move's other whole numbers (a claim's points) are within this either side of zero."""

    def write(self, value: Action) -> Any:
        return action_to_json(value)

    def read(self, value: Any, where: str) -> Action:
        try:
            action = action_from_json(value)
        except AudiocribError as error:  # a card that is not one, or given twice: the engine's own sentence
            raise _engine_sentence(error, self.refuse(where)) from None
        except ValueError:
            raise self.refuse(where) from None
        if not 0 <= action.seat < self.seats or not all(abs(getattr(action, name)) <= self.most
                                                         for name in _names(type(action))
                                                         if type(getattr(action, name)) is int):
            raise self.refuse(where)
        return action


class ViewField(Field):
    what = "a player's view"

    def write(self, value: PlayerView) -> Any:
        return view_to_json(value)

    def text(self, value: PlayerView) -> str:
        return view_text(value)

    def read(self, value: Any, where: str) -> PlayerView:
        try:
            return view_from_json(value)
        except ValueError as error:
            raise ProtocolError(str(error)) from None


class EventField(Field):
    what = "an event of the game"

    def write(self, value: Event) -> Any:
        return event_to_json(value)

    def text(self, value: Event) -> str:
        return event_text(value)

    def read(self, value: Any, where: str) -> Event:
        try:
            return checked_event(value, which=where[0].upper() + where[1:])
        except ValueError as error:
            raise ProtocolError(str(error)) from None


class Record(Field):
    """A nested record: a frozen dataclass whose fields carry their `Field` in ``metadata["field"]``."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.what = "an object with its named fields"

    def write(self, value: Any) -> Any:
        return write_fields(value)

    def text(self, value: Any) -> str:
        return fields_text(value)

    def read(self, value: Any, where: str) -> Any:
        return read_fields(self.cls, value, where, set())


def _written(f: dataclasses.Field[Any], record: Any) -> bool:
    """Whether field ``f`` of ``record`` is written: always, but for one marked ``metadata["unsent_at_default"]``
    while it holds its default (a field a client adds to what it sends, which a server from before it would refuse
    as unknown: it goes only when it says something)."""
    return not f.metadata.get("unsent_at_default") or getattr(record, f.name) != f.default


def write_fields(record: Any) -> dict[str, Any]:
    """Every field of ``record`` as JSON, each by its `Field` (see `_written`)."""
    return {f.name: f.metadata["field"].write(getattr(record, f.name)) for f in dataclasses.fields(record)
            if _written(f, record)}


_TEXT_SHAPES: dict[type, tuple[tuple[str, str, Field, dataclasses.Field[Any] | None], ...]] = {}


def fields_text(record: Any, first: str = "{") -> str:
    """``json.dumps(write_fields(record))``, written field by field by each `Field`'s ``text``; ``first`` is the
    text it starts with (a message puts its type there)."""
    shape = _TEXT_SHAPES.get(type(record))
    if shape is None:
        shape = _TEXT_SHAPES[type(record)] = tuple(
            (encode_basestring_ascii(f.name) + ": ", f.name, f.metadata["field"],
             f if f.metadata.get("unsent_at_default") else None) for f in dataclasses.fields(record)
        )
    texts = [key + field.text(getattr(record, name)) for key, name, field, maybe in shape
             if maybe is None or _written(maybe, record)]
    if first == "{":
        return "{" + ", ".join(texts) + "}"
    return first + "".join([", " + text for text in texts]) + "}"


_ReadPlan = tuple[frozenset[str], tuple[tuple[str, str, Field, str, bool], ...]]
"""The field names, and for each field: its name, its name as said, its `Field`, its place in a refusal, and
whether it may be left out (``metadata["optional"]``: it then takes its default)."""
_READ_PLANS: dict[tuple[type, str], _ReadPlan] = {}


def _read_plan(cls: type, where: str) -> _ReadPlan:
    """The names of the fields of ``cls``, and each field's name, name as said, `Field` and place in a refusal
    ("the name in the hello message"): worked out once for each class and place (the places are this module's
    own words and entry numbers, so there are few)."""
    fields = dataclasses.fields(cls)
    plan = (frozenset(f.name for f in fields),
            tuple((f.name, f.name.replace("_", " "), f.metadata["field"], f"the {f.name.replace('_', ' ')} in {where}",
                   bool(f.metadata.get("optional")))
                  for f in fields))
    if len(_READ_PLANS) < 10_000:
        _READ_PLANS[(cls, where)] = plan
    return plan


_NEWER_FIELDS_PASS: ContextVar[bool] = ContextVar("newer_fields_pass", default=False)


@contextmanager
def newer_fields_pass() -> Iterator[None]:
    """While reading what a server sent: a field this client does not know (one a newer server added, as `advice`
    was added) is passed over instead of refused, so that adding an optional field never cuts older clients off.
    What a client sends is never read so: a server refuses every field it does not know."""
    token = _NEWER_FIELDS_PASS.set(True)
    try:
        yield
    finally:
        _NEWER_FIELDS_PASS.reset(token)


def read_fields(cls: type, data: Any, where: str, skip: set[str]) -> Any:
    """An instance of ``cls`` from ``data``, every field checked; keys in ``skip`` (such as "type") are ignored,
    and so is any unknown key inside `newer_fields_pass`."""
    if not isinstance(data, dict):
        raise ProtocolError(f"{where[0].upper()}{where[1:]} must be an object with its named fields.")
    plan = _READ_PLANS.get((cls, where))
    if plan is None:
        plan = _read_plan(cls, where)
    names, fields = plan
    newer = _NEWER_FIELDS_PASS.get()
    for key in data:
        if key not in names and key not in skip and not newer:
            raise ProtocolError(f"{where[0].upper()}{where[1:]} has no field called {field_named(key)}.")
    values = {}
    for name, spoken, field, field_where, optional in fields:
        if name not in data:
            if optional:  # a field added to the protocol later: a client written before it leaves it out
                continue
            raise ProtocolError(f"{where[0].upper()}{where[1:]} needs its {spoken}.")
        values[name] = field.read(data[name], field_where)
    try:
        return cls(**values)
    except ProtocolError:
        raise
    except ValueError as error:  # a check across fields, in the record's own __post_init__
        raise ProtocolError(str(error)) from None
