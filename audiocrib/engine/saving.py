"""A game as a save: the header (version, rules, names, seed, settings), the log as JSON text, and, to load it
back, the players' moves read out of the log so that they can be played again from the seed and checked.

`Game.to_json`, `dumps`, `from_json` and `loads` are built from these.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from audiocrib.engine.actions import Action, CallMuggins, ClaimCount, CountTimeout, Discard, Go, Play
from audiocrib.engine.errors import SaveError
from audiocrib.engine.events import (
    Discarded,
    Event,
    HandShown,
    MugginsCalled,
    PlayClaimed,
    Played,
    PointsGiven,
    SaidGo,
    event_from_json,
    event_to_json,
)
from audiocrib.engine.rules import Rules
from audiocrib.engine.state import GameState

__all__ = ["SAVE_VERSION", "Saved", "moves", "read_save", "reading_save", "save_header", "save_text", "save_value"]

SAVE_VERSION = 1

_DAMAGED = "This saved game is damaged and cannot be read."


@dataclass(frozen=True, slots=True)
class Saved:
    """What a save holds, read and checked for type, not yet played again."""

    rules: Rules
    names: list[str]
    seed: int
    manual_seats: list[int]
    auto_go: bool
    events: list[Event]


@contextmanager
def reading_save() -> Iterator[None]:
    """Turn whatever reading a damaged save raises into `SaveError` (one that is a `SaveError` already stays)."""
    try:
        yield
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise SaveError(_DAMAGED) from error


def save_value(text: str) -> Any:
    """The JSON value of a save's text; `SaveError` if it is not JSON."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SaveError(_DAMAGED) from error


def read_save(data: object) -> Saved:
    """The parts of `Game.to_json`'s output; `SaveError` for another version, and `ValueError`, `KeyError` or
    `TypeError` for what is damaged (inside `reading_save`, all a `SaveError`)."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    if data.get("audiocrib") != SAVE_VERSION:
        raise SaveError("This saved game is from another version of audiocrib.")
    rules = Rules.from_json(dict(data["rules"]))
    names, seed, manual = data["names"], data["seed"], data.get("manual_seats", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError("names must be text")
    if type(seed) is not int or not isinstance(manual, list) or not all(type(s) is int for s in manual):
        raise ValueError("seed and seats must be whole numbers")
    events = [event_from_json(e) for e in data["events"]]
    return Saved(rules, names, seed, manual, _flag(data.get("auto_go", True)), events)


def save_header(game: GameState) -> dict[str, Any]:
    """The save without its events: the version, then what `Game` is made from (rules, names, seed, settings)."""
    return {
        "audiocrib": SAVE_VERSION,
        "rules": game.rules.to_json(),
        "names": list(game.names),
        "seed": game.seed,
        "manual_seats": sorted(game.manual_seats),
        "auto_go": game.auto_go,
    }


def save_text(header: dict[str, Any], encoded: list[str], log: list[Event]) -> str:
    """The save as JSON text: ``header`` and the ``log``, whose events are added to ``encoded`` (the log's
    events as text, kept from one save to the next) as they are first written."""
    encoded.extend(json.dumps(event_to_json(e), separators=(",", ":")) for e in log[len(encoded):])
    return json.dumps(header, separators=(",", ":"))[:-1] + ',"events":[' + ",".join(encoded) + "]}"


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


def moves(events: Iterable[Event], auto_go: bool) -> Iterator[Action]:
    """The players' actions that produced ``events`` (everything else the game does by itself)."""
    previous: Event | None = None
    for event in events:
        if isinstance(event, Discarded):
            yield Discard(event.seat, event.cards)
        elif isinstance(event, Played):
            yield Play(event.seat, event.card)
        elif isinstance(event, SaidGo) and not auto_go:
            yield Go(event.seat)
        elif isinstance(event, HandShown) and event.timed_out:
            yield CountTimeout(event.seat)
        elif isinstance(event, HandShown) and event.claimed is not None:
            yield ClaimCount(event.seat, event.claimed)
        elif isinstance(event, PlayClaimed):
            yield ClaimCount(event.seat, event.claimed)
        elif isinstance(event, MugginsCalled) and not (isinstance(previous, MugginsCalled)
                                                       and previous.seat == event.seat):
            yield CallMuggins(event.seat)  # one call takes every short count open, in a row of events
        elif isinstance(event, PointsGiven) and event.reason == "wrong muggins":
            yield CallMuggins(event.offender)
        previous = event
