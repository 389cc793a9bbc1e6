"""A JSON Schema (draft 2020-12) of every message of the protocol, made from the code's own declarations.

The messages' fields are walked through the `Field` each declares (`audiocrib.online.fields`); what they carry from
the game (rules, moves, events, scores, a seat's view) through the engine's frozen records and their type hints,
which the engine's own codecs read and write by (`audiocrib.engine.codec`, `audiocrib.engine.viewcodec`). So the
schema cannot drift from the code: `tests/test_protocol_schema.py` checks that ``docs/protocol.schema.json`` is
what this module makes now, and checks every message of the server's tests against it.

Regenerate the shipped file with ``python -m audiocrib.online.jsonschema > docs/protocol.schema.json``.

What a schema cannot say is said in the descriptions: text is trimmed of spaces before its length is checked,
names allow letters of any script, and the engine checks more than types (a legal move, rules that go together).

>>> schema = protocol_schema()
>>> sorted(schema["$defs"]["hello"]["required"])
['name', 'password', 'token', 'type', 'version']
>>> schema["$defs"]["card"]["pattern"]
'^(A|[2-9]|T|J|Q|K)[CDHS]$'
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

from audiocrib.engine.actions import ACTION_TYPES
from audiocrib.engine.cards import Card, Rank, Suit
from audiocrib.engine.events import EVENT_TYPES, Event
from audiocrib.engine.rules import RANGES, USUAL_TARGET, Rules
from audiocrib.engine.scoring import Score, ScoreItem
from audiocrib.engine.viewcodec import MAX_ENTRIES, MAX_NAME, MAX_NUMBER, MAX_VIEW_EVENTS, SEAT_FIELDS, VIEW_NUMBERS
from audiocrib.engine.views import PlayerView
from audiocrib.online import messages as m
from audiocrib.online.fields import (
    ActionField,
    Choice,
    EventField,
    Field,
    Flag,
    Many,
    Maybe,
    Number,
    Record,
    RulesField,
    Text,
    ViewField,
)

__all__ = ["SCHEMA_ID", "listing", "protocol_schema"]

SCHEMA_ID = "https://audiocrib.example/protocol.schema.json"
_RECORDS: dict[type, str] = {Rules: "rules", Score: "score", ScoreItem: "score_item", PlayerView: "player_view"}


def protocol_schema() -> dict[str, Any]:
    """The whole schema: ``client_message`` and ``server_message`` (each one of the messages that side sends), and
    every message, move, event and record under ``$defs`` by its name."""
    maker = _Maker()
    client = [maker.message(cls) for cls in m.CLIENT_MESSAGES.values()]
    server = [maker.message(cls) for cls in m.SERVER_MESSAGES.values()]
    maker.defs["client_message"] = {"description": "A message a client sends.", "oneOf": _refs(client)}
    maker.defs["server_message"] = {"description": "A message the server sends.", "oneOf": _refs(server)}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"The audiocrib protocol, version {m.PROTOCOL_VERSION}",
        "description": "One JSON object a WebSocket text frame; see docs/protocol.md.",
        "oneOf": [{"$ref": "#/$defs/client_message"}, {"$ref": "#/$defs/server_message"}],
        "$defs": dict(sorted(maker.defs.items())),
    }


def _refs(names: list[str]) -> list[dict[str, str]]:
    return [{"$ref": f"#/$defs/{name}"} for name in names]


def _doc(cls: type) -> str:
    return " ".join((cls.__doc__ or "").split())


class _Maker:
    """Builds the ``$defs`` as it meets each kind of value."""

    def __init__(self) -> None:
        self.defs: dict[str, dict[str, Any]] = {}
        self.messages = {*m.CLIENT_MESSAGES, *m.SERVER_MESSAGES}

    def _free(self, name: str) -> str:
        if name in self.messages:  # pragma: no cover - a record named as a message would mix the two
            raise ValueError(f"a record and a message are both named {name}")
        return name

    # ------------------------------------------------------------------ messages and their declared fields
    def message(self, cls: type[m.Message]) -> str:
        properties: dict[str, Any] = {"type": {"const": cls.type}}
        required = ["type"]
        for f in dataclasses.fields(cls):
            properties[f.name] = self.field(f.metadata["field"])
            if not f.metadata.get("optional"):
                required.append(f.name)
        self.defs[cls.type] = {"description": _doc(cls), "type": "object", "properties": properties,
                               "required": required, "additionalProperties": False}
        return cls.type

    def field(self, field: Field) -> dict[str, Any]:
        if isinstance(field, Text):
            text: dict[str, Any] = {"type": "string", "minLength": field.low, "maxLength": field.high,
                                    "description": f"{field.what}" + (", trimmed of spaces at both ends" if
                                                                      field.trim else "")}
            return text
        if isinstance(field, Number):
            return {"type": "integer", "minimum": field.low, "maximum": field.high}
        if isinstance(field, Flag):
            return {"type": "boolean"}
        if isinstance(field, Choice):
            return {"enum": list(field.words)}
        if isinstance(field, Maybe):
            return {"anyOf": [self.field(field.inner), {"type": "null"}]}
        if isinstance(field, Many):
            return {"type": "array", "items": self.field(field.inner), "maxItems": field.most}
        if isinstance(field, Record):
            return self.record_fields(field.cls)
        if isinstance(field, RulesField):
            return self.hinted(Rules)
        if isinstance(field, ActionField):
            return self.moves()
        if isinstance(field, EventField):
            return self.events()
        if isinstance(field, ViewField):
            return self.hinted(PlayerView)
        raise TypeError(f"no schema for the field {field!r}")  # pragma: no cover - every kind is above

    def record_fields(self, cls: type) -> dict[str, Any]:
        """A nested record of the protocol (its fields declared like a message's)."""
        name = self._free(cls.__name__.lower())
        if name not in self.defs:
            properties = {f.name: self.field(f.metadata["field"]) for f in dataclasses.fields(cls)}
            self.defs[name] = {"description": _doc(cls), "type": "object", "properties": properties,
                               "required": list(properties), "additionalProperties": False}
        return {"$ref": f"#/$defs/{name}"}

    # ------------------------------------------------------------------ the game's records, by their type hints
    # The ranges are the codecs' own declarations, which they check by: a move's (`ActionField`), an event's
    # (`viewcodec.SEAT_FIELDS`, `MAX_NUMBER`, `MAX_ENTRIES`), a view's (`VIEW_NUMBERS`) and the rules' (`RANGES`).
    def moves(self) -> dict[str, Any]:
        if "action" not in self.defs:
            self.defs["action"] = {"description": "A move: its kind, its seat and what it needs.", "oneOf": [
                self.kinded(cls, "action", lambda name: _SEAT if name == "seat" else _within(ActionField.most))
                for cls in ACTION_TYPES.values()]}
        return {"$ref": "#/$defs/action"}

    def events(self) -> dict[str, Any]:
        if "event" not in self.defs:
            self.defs["event"] = {"description": _doc(Event), "oneOf": [
                self.kinded(cls, "event", lambda name: _SEAT if name in SEAT_FIELDS else _within(MAX_NUMBER))
                for cls in EVENT_TYPES.values()]}
        return {"$ref": "#/$defs/event"}

    def kinded(self, cls: type, what: str, number: _Numbers) -> dict[str, str]:
        """A move or an event: ``kind`` and its fields (those with a default may be left out); ``number`` gives the
        range of a whole number in the field it names."""
        name = f"{what}_{cls.kind.replace(' ', '_')}"  # type: ignore[attr-defined]
        properties: dict[str, Any] = {"kind": {"const": cls.kind}}  # type: ignore[attr-defined]
        self.defs[name] = {"description": _doc(cls), "type": "object",
                           "properties": properties | self.fields_of(cls, number),
                           "required": ["kind", *_required(cls)], "additionalProperties": False}
        return {"$ref": f"#/$defs/{name}"}

    def fields_of(self, cls: type, number: _Numbers, most: Callable[[str], int] = lambda name: MAX_ENTRIES
                  ) -> dict[str, Any]:
        """Each field of the dataclass ``cls`` by its type hint."""
        hints = typing.get_type_hints(cls)
        return {f.name: self.hint(hints[f.name], number(f.name), most(f.name)) for f in dataclasses.fields(cls)}

    def hinted(self, cls: type) -> dict[str, Any]:
        """Rules, a score and its items, a seat's view: every field by its type hint."""
        name = self._free(_RECORDS[cls])
        if name not in self.defs:
            self.defs[name] = {}  # taken, while its fields are made (a view holds rules)
            if cls is Rules:  # a setting left out takes its default (Rules.from_json)
                properties, required = self.fields_of(Rules, _rule_numbers), _required(Rules)
            elif cls is PlayerView:  # every field always written, and read back (view_from_json)
                properties = self.fields_of(PlayerView, _view_numbers, _view_most)
                properties["names"]["items"]["maxLength"] = MAX_NAME
                properties["seat"] = {**_SEAT, "maximum": _SEAT["maximum"] + 1, "description":
                                      "the seat this view is seen from; one past the last seat for a watcher's"}
                required = list(properties)
            else:  # a score and its items: always written whole
                properties = self.fields_of(cls, lambda name: _INTEGER)
                required = list(properties)
            self.defs[name] = {"description": _doc(cls), "type": "object", "properties": properties,
                               "required": required, "additionalProperties": False}
        return {"$ref": f"#/$defs/{name}"}

    def hint(self, tp: Any, number: dict[str, Any] | None = None, most: int = MAX_ENTRIES) -> dict[str, Any]:
        """The schema of a value of the type ``tp``; a whole number in it is ``number``, a list has at most
        ``most`` entries (inner lists `MAX_ENTRIES`), and a list of cards holds each card once."""
        if tp is int:
            return dict(number or _INTEGER)
        if tp is bool:
            return {"type": "boolean"}
        if tp is str:
            return {"type": "string"}
        if tp is Card:
            if "card" not in self.defs:
                ranks = "|".join(r.letter for r in Rank)
                ranks = ranks.replace("2|3|4|5|6|7|8|9", "[2-9]")
                self.defs["card"] = {"description": "A card: its rank (A 2-9 T J Q K) then its suit (C D H S).",
                                     "type": "string",
                                     "pattern": f"^({ranks})[{''.join(s.value for s in Suit)}]$"}
            return {"$ref": "#/$defs/card"}
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return {"enum": [member.value for member in tp]}
        if tp in _RECORDS:
            return self.hinted(tp)
        if tp is Event:
            return self.events()
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin in (types.UnionType, typing.Union):
            inner = [a for a in args if a is not type(None)]
            schema = self.hint(inner[0], number, most) if len(inner) == 1 else {
                "anyOf": [self.hint(a, number, most) for a in inner]}
            return {"anyOf": [schema, {"type": "null"}]} if type(None) in args else schema
        if origin in (tuple, list, frozenset, set):
            if origin is tuple and args and args[-1] is not Ellipsis:
                return {"type": "array", "prefixItems": [self.hint(a, number) for a in args], "minItems": len(args),
                        "maxItems": len(args)}
            array = {"type": "array", "items": self.hint(args[0], number), "maxItems": most}
            if args[0] is Card:  # the codecs refuse a card given twice
                array["uniqueItems"] = True
            return array
        raise TypeError(f"no schema for the type {tp!r}")  # pragma: no cover - every type the records use is above


_Numbers = Callable[[str], "dict[str, Any] | None"]
"""The range of a whole number in a record's field, by the field's name."""
_INTEGER: dict[str, Any] = {"type": "integer"}
_SEAT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": RANGES["players"][1] - 1,
                         "description": "a seat, numbered from 0 in the order of play"}


def _within(most: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": -most, "maximum": most}


def _range(low: int, high: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high}


def _rule_numbers(name: str) -> dict[str, Any]:
    low, high = RANGES.get(name, (0, 0))
    if name == "target":
        return {"anyOf": [_range(low, high), {"const": USUAL_TARGET, "description": "the variant's usual target"}]}
    return _range(low, high)


def _view_numbers(name: str) -> dict[str, Any]:
    return _range(*VIEW_NUMBERS[name]) if name in VIEW_NUMBERS else _SEAT


def _view_most(name: str) -> int:
    return MAX_VIEW_EVENTS if name == "events" else MAX_ENTRIES


def _required(cls: type) -> list[str]:
    """The fields of the dataclass ``cls`` that have no default (the codecs take the default of one left out)."""
    return [f.name for f in dataclasses.fields(cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]


def listing(what: str) -> str:
    """The moves (``"action"``) or events (``"event"``) of the schema, one line each: the kind, its fields with
    their types, and the first sentence of what it is (docs/protocol.md prints it, so the page follows the code)."""
    schema = protocol_schema()
    defs = schema["$defs"]
    lines = []
    for ref in defs[what]["oneOf"]:
        record = defs[ref["$ref"].rsplit("/", 1)[1]]
        kind = record["properties"]["kind"]["const"]
        fields = [f"{name} ({_type_words(value, defs)}{'' if name in record['required'] else ', may be left out'})"
                  for name, value in record["properties"].items() if name != "kind"]
        first = record["description"].split(". ")[0].rstrip(".")
        lines.append(f"- {kind}: {', '.join(fields) or 'no fields'}. {first}.")
    return "\n".join(lines)


def _type_words(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """A field's type in a few words: "whole number", "card or null", "list of cards"."""
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[1]
        return {"card": "card", "score": "score", "player_view": "view", "rules": "rules", "event": "event",
                "action": "move", "score_item": "score item"}.get(name, name)
    if "anyOf" in schema:
        return " or ".join(_type_words(option, defs) for option in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    kind = schema.get("type")
    if schema is _SEAT or schema == _SEAT:
        return f"seat number, {_SEAT['minimum']} to {_SEAT['maximum']}"
    if kind == "integer" and "minimum" in schema and schema["maximum"] < MAX_NUMBER:
        return f"whole number, {schema['minimum']} to {schema['maximum']}"
    if kind == "array":
        if "prefixItems" in schema:
            return "pair of " + " and ".join(_type_words(item, defs) for item in schema["prefixItems"])
        inner = _type_words(schema["items"], defs)
        if inner.startswith("seat number, "):
            return f"list of seat numbers, {inner.removeprefix('seat number, ')}"
        if inner.startswith("list of "):
            return "list of lists of " + inner.removeprefix("list of ")
        return f"list of ({inner})" if " or " in inner or " of " in inner else f"list of {inner}s"
    return {"integer": "whole number", "boolean": "true or false", "string": "text", "null": "null"}.get(
        str(kind), str(kind))


def main() -> int:
    """Print the schema (what ``docs/protocol.schema.json`` holds)."""
    sys.stdout.write(json.dumps(protocol_schema(), indent=1, ensure_ascii=True) + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
