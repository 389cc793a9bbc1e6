"""JSON for the engine's frozen records (events and actions), driven by their type hints.

Cards are written in notation ("5H"), scores as ``{"total", "items"}``, tuples as lists; every record carries its
``kind``. Decoding checks every field's type and refuses unknown or missing fields with a `ValueError`.

`record_text` writes the same JSON as text directly, exactly as ``json.dumps(record_to_json(record))`` would (or
with ``compact``, as with ``separators=(",", ":")``), without the dicts and lists between: a server writes every
event it sends and stores, so that is worth its own code. `IdentityCache` keeps what was worked out for a frozen
value that is met again (the same event sent to several seats, a table's rules in every view).

>>> from audiocrib.engine.actions import ACTION_TYPES, Play
>>> from audiocrib.engine.cards import Card
>>> record_to_json(Play(0, Card.parse("7c")))
{'kind': 'play', 'seat': 0, 'card': '7C'}
>>> record_from_json(ACTION_TYPES, {"kind": "play", "seat": 0, "card": "7C"}, "action")
Play(seat=0, card=Card.parse('7C'))
>>> record_text(Play(0, Card.parse("7c")))
'{"kind": "play", "seat": 0, "card": "7C"}'
>>> record_text(Play(0, Card.parse("7c")), compact=True)
'{"kind":"play","seat":0,"card":"7C"}'
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Mapping
from json.encoder import encode_basestring_ascii
from typing import Any, Generic, Protocol, TypeVar, Union

from audiocrib.engine.cards import DECK, Card, parse_cards
from audiocrib.engine.scoring import Score

__all__ = ["IdentityCache", "card_text", "cards_text", "json_text", "numbers_text", "record_from_json", "record_text",
           "record_to_json"]


_HINTS: dict[type, dict[str, Any]] = {}


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
    # The plain types first: they are most fields, and need no look at the type's origin.
    if tp is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"expected a whole number, got {value!r}")
        return value
    if tp is Card:
        if not isinstance(value, str):
            raise ValueError("A card must be written as text, like 5H.")
        return Card.parse(value)
    if tp is bool:
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise ValueError(f"expected text, got {value!r}")
        return value
    if tp is Score:
        return Score.from_json(_checked_score(value))
    origin = typing.get_origin(tp)
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




_PLANS: dict[type, tuple[tuple[tuple[str, Any, bool], ...], frozenset[str]]] = {}


def _plan(cls: type) -> tuple[tuple[tuple[str, Any, bool], ...], frozenset[str]]:
    """Each field of ``cls`` (its name, type and whether it must be given), and every name its JSON may hold."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    return (tuple((f.name, hints[f.name], f.default is dataclasses.MISSING) for f in fields),
            frozenset({f.name for f in fields} | {"kind"}))


def record_from_json(types_by_kind: Mapping[str, type[R]], data: Any, what: str) -> R:
    """The inverse of `record_to_json` for the classes in ``types_by_kind``; ``what`` names them in errors."""
    if not isinstance(data, dict):
        raise ValueError(f"an {what} must be an object")
    cls = types_by_kind.get(str(data.get("kind")))
    if cls is None:
        raise ValueError(f"unknown {what} kind {data.get('kind')!r}")
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(cls)
    fields, names = plan
    kwargs = {}
    for name, hint, required in fields:
        if name in data:
            kwargs[name] = _decode(hint, data[name])
        elif required:
            raise ValueError(f"a {data['kind']} {what} needs {name}")
    extra = set(data) - names
    if extra:
        raise ValueError(f"a {data['kind']} {what} has unknown fields {sorted(extra)}")
    return cls(**kwargs)


# ------------------------------------------------------------------------------------------------ writing text
K = TypeVar("K")
V = TypeVar("V")


class IdentityCache(Generic[K, V]):
    """What ``make`` gave for a value, kept by the value's identity (never its equality, so it costs no hashing of
    fields) for values that never change (frozen records). It holds the values it keeps, so that an identity is
    never reused while kept; past ``most`` entries it starts again empty. ``make`` never gives None. Safe to share
    between threads (at worst something is made twice)."""

    def __init__(self, make: Callable[[K], V], most: int = 4096) -> None:
        self._make, self._most = make, most
        # Two dicts rather than one of pairs: no object is made for each entry, for the collector to follow.
        self._values: dict[int, K] = {}
        self._made: dict[int, V] = {}

    def __call__(self, value: K) -> V:
        key = id(value)
        if self._values.get(key) is value:
            made = self._made.get(key)
            if made is not None:
                return made
        made = self._make(value)
        if len(self._made) >= self._most:
            self._made.clear()
            self._values.clear()
        # What was made is kept before the value it was made for: whoever finds the value finds what was made
        # for it (a value's identity is never another's while the value lives), or nothing if cleared meanwhile.
        self._made[key] = made
        self._values[key] = value
        return made


_CARD_TEXT = {card: encode_basestring_ascii(str(card)) for card in DECK}
"""Each card as JSON text, ``'"5H"'``."""
_DECK_TEXT = {id(card): _CARD_TEXT[card] for card in DECK}
"""The same by the identity of the deck's own cards, which live as long as the program (so their identities are
never reused), and which games deal: found without hashing a card."""


_INT = frozenset({int})


class _Writer:
    """JSON text as `json.dumps` writes it (ASCII only), with its separators: ``", "`` and ``": "``, or compact.

    Each record class gets a function of its own, made once from its type hints, that writes its fields in order:
    what a hint promises is written directly, and any other value as `record_to_json` and `json.dumps` would."""

    def __init__(self, compact: bool) -> None:
        self.comma, self.colon = (",", ":") if compact else (", ", ": ")
        self.separators = (self.comma, self.colon)
        self._plain: dict[type, Callable[[Any], str]] = {
            int: int.__repr__, str: encode_basestring_ascii, type(None): lambda _: "null",
            bool: lambda v: "true" if v else "false", Card: self.card, tuple: self.listed, Score: self.score,
        }
        self._records: dict[type, Callable[[Any], str]] = {}

    def value(self, value: Any) -> str:
        write = self._plain.get(type(value))
        if write is not None:
            return write(value)
        return json.dumps(_encode(value), separators=self.separators)  # anything else, as the dicts would be

    def card(self, card: Card) -> str:
        text = _DECK_TEXT.get(id(card)) or _CARD_TEXT.get(card)
        return text if text is not None else encode_basestring_ascii(str(card))

    def listed(self, values: tuple[Any, ...]) -> str:
        return "[" + self.comma.join([self.value(v) for v in values]) + "]"

    def cards(self, cards: Any) -> str:
        if type(cards) is not tuple:
            return self.value(cards)
        try:  # the deck's own cards, looked up without a frame of Python for each
            return "[" + self.comma.join(map(_DECK_TEXT.__getitem__, map(id, cards))) + "]"
        except KeyError:
            return "[" + self.comma.join([_DECK_TEXT.get(id(c)) or self.value(c) for c in cards]) + "]"

    def numbers(self, values: Any) -> str:
        if type(values) is not tuple:
            return self.value(values)
        if set(map(type, values)) <= _INT:  # no true or false among them, which are ints to Python
            return "[" + self.comma.join(map(int.__repr__, values)) + "]"
        return "[" + self.comma.join([int.__repr__(v) if type(v) is int else self.value(v) for v in values]) + "]"

    def number(self, value: Any) -> str:
        return int.__repr__(value) if type(value) is int else self.value(value)

    def score(self, score: Score) -> str:
        comma, colon = self.comma, self.colon
        items = comma.join([
            f'{{"kind"{colon}{encode_basestring_ascii(item.kind)}{comma}"cards"{colon}{self.listed(item.cards)}'
            f'{comma}"points"{colon}{self.value(item.points)}}}' for item in score.items
        ])
        return f'{{"total"{colon}{self.value(score.total)}{comma}"items"{colon}[{items}]}}'

    def record(self, record: Any) -> str:
        write = self._records.get(type(record))
        if write is None:
            write = self._records[type(record)] = self._compiled(type(record))
        return write(record)

    def _compiled(self, cls: type) -> Callable[[Any], str]:
        """The function that writes a record of ``cls``: one expression joining its fields' texts."""
        hints = _HINTS.get(cls)
        if hints is None:
            hints = _HINTS[cls] = typing.get_type_hints(cls)
        kind: str = cls.kind  # type: ignore[attr-defined]
        parts = [repr("{" + encode_basestring_ascii("kind") + self.colon + encode_basestring_ascii(kind))]
        for number, f in enumerate(dataclasses.fields(cls)):
            parts.append(repr(self.comma + encode_basestring_ascii(f.name) + self.colon))
            parts.append(self._expression(hints[f.name], f"(x{number} := r.{f.name})", f"x{number}"))
        parts.append(repr("}"))
        source = f"def write(r):\n    return {' + '.join(parts)}\n"
        names: dict[str, Any] = {"R": int.__repr__, "E": encode_basestring_ascii, "V": self.value, "CI": _DECK_TEXT,
                 "CS": self.cards, "NS": self.numbers,
                                 "SC": self.score, "Score": Score}
        exec(source, names)  # made from the class's own field names and type hints, nothing else
        write: Callable[[Any], str] = names["write"]
        return write

    def _expression(self, hint: Any, get: str, name: str) -> str:
        """Python for the text of a field of type ``hint`` (``get`` reads it into ``name``)."""
        if hint is int:
            return f"(R({name}) if type({get}) is int else V({name}))"
        if hint is bool:
            return f'("true" if {get} is True else "false" if {name} is False else V({name}))'
        if hint is str:
            return f"(E({name}) if type({get}) is str else V({name}))"
        if hint is Card:
            return f"(CI.get(id({get})) or V({name}))"
        if hint is Score:
            return f"(SC({name}) if type({get}) is Score else V({name}))"
        if hint == int | None:
            return f'("null" if {get} is None else R({name}) if type({name}) is int else V({name}))'
        if hint == tuple[Card, ...]:
            return f"CS({get})"
        if hint == tuple[int, ...]:
            return f"NS({get})"
        return f"V({get})"


_WIRE, _COMPACT = _Writer(compact=False), _Writer(compact=True)


def record_text(record: Any, compact: bool = False) -> str:
    """``json.dumps(record_to_json(record))`` (with ``compact``, ``separators=(",", ":")``), written directly."""
    return (_COMPACT if compact else _WIRE).record(record)


def json_text(value: Any) -> str:
    """A field's value as `record_to_json` and ``json.dumps`` would write it: cards in notation, scores, tuples
    as lists."""
    return _WIRE.value(value)


def card_text(card: Card | None) -> str:
    """`json_text` for a card (or anything: the same text), quicker."""
    return _DECK_TEXT.get(id(card)) or _WIRE.value(card)


def cards_text(cards: tuple[Card, ...] | None) -> str:
    """`json_text` for a tuple of cards (or anything: the same text), quicker."""
    return _WIRE.cards(cards)


def numbers_text(values: tuple[int, ...] | None) -> str:
    """`json_text` for a tuple of whole numbers (or anything: the same text), quicker."""
    return _WIRE.numbers(values)
