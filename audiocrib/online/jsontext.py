"""A message's text read as JSON, trusting nothing: its size before it is parsed, UTF-8, one value with no key
given twice, no NaN or Infinity, no number of more than thirty digits, nothing nested too deep. Each refusal is a
`ProtocolError` of one sentence (`audiocrib.online.messages` then checks the object's type and fields).

>>> parsed('{"type": "ping", "number": 1}', 100)
{'type': 'ping', 'number': 1}
>>> parsed('{"a": 1, "a": 2}', 100)
Traceback (most recent call last):
...
audiocrib.online.fields.ProtocolError: A message may not give the same field twice.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from audiocrib.engine.numbers import number_words
from audiocrib.online.fields import ProtocolError

__all__ = ["MOST_DIGITS", "TOO_DEEP", "TOO_LONG_NUMBER", "parsed"]


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise ProtocolError("A message may not give the same field twice.")
    return data


def _no_constant(name: str) -> Any:
    raise ProtocolError("A message may hold only finite numbers.")


MOST_DIGITS = 30
"""The longest number a message may hold, in characters: every number of the protocol has at most ten digits, and
Python would spend time (or refuse, past 4,300 digits) turning a longer one into a number."""
TOO_LONG_NUMBER = "A number in a message may have at most thirty digits."
TOO_DEEP = "A message may not nest lists and objects that deeply."


def _number(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    def read(literal: str) -> Any:
        if len(literal) > MOST_DIGITS:
            raise ProtocolError(TOO_LONG_NUMBER)
        return kind(literal)
    return read


_JSON = json.JSONDecoder(object_pairs_hook=_no_repeats, parse_constant=_no_constant, parse_int=_number(int),
                         parse_float=_number(float))
"""What ``json.loads(text, object_pairs_hook=..., parse_constant=...)`` makes afresh for each call, made once."""


def parsed(text: str | bytes, limit: int) -> Any:
    """The JSON value of ``text`` (at most ``limit`` bytes of UTF-8), or `ProtocolError`."""
    if isinstance(text, bytes):
        if len(text) > limit:
            raise ProtocolError(f"A message may be at most {number_words(limit // 1024)} kilobytes long.")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("A message must be text in UTF-8.") from None
    if not isinstance(text, str):
        raise ProtocolError("A message must be text.")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError(f"A message may be at most {number_words(limit // 1024)} kilobytes long.")
    try:
        if text.startswith("\ufeff"):  # as json.loads refuses it
            raise ValueError("a byte order mark")
        return _JSON.decode(text)
    except ProtocolError:
        raise
    except RecursionError:  # lists or objects inside each other about a thousand deep
        raise ProtocolError(TOO_DEEP) from None
    except ValueError:
        raise ProtocolError("A message must be one JSON object.") from None
