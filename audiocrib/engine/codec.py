"""JSON for the engine's frozen records (events and actions), driven by their type hints.

Cards are written in notation ("5H"), scores as ``{"total", "items"}``, tuples as lists; every record carries its
``kind``. Decoding checks every field's type and refuses unknown or missing fields with a `ValueError`.

>>> from audiocrib.engine.actions import ACTION_TYPES, Play
>>> from audiocrib.engine.cards import Card
>>> record_to_json(Play(0, Card.parse("7c")))
{'kind': 'play', 'seat': 0, 'card': '7C'}
>>> record_from_json(ACTION_TYPES, {"kind": "play", "seat": 0, "card": "7C"}, "action")
Play(seat=0, card=Card.parse('7C'))
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar, Union

from audiocrib.engine.cards import Card, parse_cards
from audiocrib.engine.scoring import Score

__all__ = ["record_from_json", "record_to_json"]


class _Record(Protocol):
    kind: typing.ClassVar[str]


R = TypeVar("R")


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Score):
        return value.to_json()
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _decode(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if tp is Card:
        if not isinstance(value, str):
            raise ValueError("A card must be written as text, like 5H.")
        return Card.parse(value)
    if tp is Score:
        return Score.from_json(_checked_score(value))
    if origin is tuple:
        if not isinstance(value, list):
            raise ValueError(f"expected a list, got {value!r}")
        (inner, _ellipsis) = typing.get_args(tp)
        if inner is Card:
            return parse_cards(_card_texts(value))
        return tuple(_decode(inner, v) for v in value)
    if origin in (Union, types.UnionType):
        if value is None:
            return None
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        return _decode(inner, value)
    if tp is bool:
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        return value
    if tp is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"expected a whole number, got {value!r}")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise ValueError(f"expected text, got {value!r}")
        return value
    raise TypeError(f"cannot decode {tp}")  # pragma: no cover


def _card_texts(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("Cards must be a list of cards written as text, like 5H.")
    return value


def _checked_score(value: Any) -> dict[str, Any]:
    # Score.from_json trusts the shape of what it is given; a record from a file or the network may be anything.
    if not isinstance(value, dict) or set(value) - {"total", "items"} or not isinstance(value.get("items", []), list):
        raise ValueError("A score must be an object with its total and a list of items.")
    for item in value.get("items", []):
        if not isinstance(item, dict) or set(item) != {"kind", "cards", "points"}:
            raise ValueError("A score item must be an object with its kind, cards and points.")
        if not isinstance(item["kind"], str) or type(item["points"]) is not int:
            raise ValueError("A score item's kind must be text and its points a whole number.")
        _card_texts(item["cards"])
    return value


def record_to_json(record: Any) -> dict[str, Any]:
    """A JSON-ready dict of a frozen record: its ``kind`` and every field."""
    data: dict[str, Any] = {"kind": record.kind}
    for f in dataclasses.fields(record):
        data[f.name] = _encode(getattr(record, f.name))
    return data


_HINTS: dict[type, dict[str, Any]] = {}


def record_from_json(types_by_kind: Mapping[str, type[R]], data: Any, what: str) -> R:
    """The inverse of `record_to_json` for the classes in ``types_by_kind``; ``what`` names them in errors."""
    if not isinstance(data, dict):
        raise ValueError(f"an {what} must be an object")
    cls = types_by_kind.get(str(data.get("kind")))
    if cls is None:
        raise ValueError(f"unknown {what} kind {data.get('kind')!r}")
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    kwargs = {}
    for f in fields:
        if f.name in data:
            kwargs[f.name] = _decode(hints[f.name], data[f.name])
        elif f.default is dataclasses.MISSING:
            raise ValueError(f"a {data['kind']} {what} needs {f.name}")
    extra = set(data) - {f.name for f in fields} - {"kind"}
    if extra:
        raise ValueError(f"a {data['kind']} {what} has unknown fields {sorted(extra)}")
    return cls(**kwargs)
