"""JSON for a player's view, so that a server can send each seat its view and a client read it back.

`view_to_json` writes every field of a `PlayerView` (cards in notation, the rules as `Rules.to_json`, the events
through the event codec); `view_from_json` reads it back and trusts nothing: every field's type, size and range is
checked, unknown or missing fields are refused, and any refusal is one `ValueError` sentence that reads aloud.
Nothing is added to what the view holds, so the JSON holds only what the seat may know. `view_text` is
``json.dumps(view_to_json(view))`` written directly (a server writes a view after every move).

>>> from audiocrib.engine.game import Game
>>> view = Game(seed=3).view(1)
>>> view_from_json(view_to_json(view)) == view
True
>>> view_text(view) == json.dumps(view_to_json(view))
True
>>> view_from_json({**view_to_json(view), "seed": 3})
Traceback (most recent call last):
...
ValueError: A view has no field called seed.
"""

from __future__ import annotations

import json
from typing import Any

from audiocrib.engine.cards import Card
from audiocrib.engine.codec import IdentityCache, card_text, cards_text, json_text, numbers_text
from audiocrib.engine.events import Event, event_from_json, event_text, event_to_json
from audiocrib.engine.numbers import number_words
from audiocrib.engine.phase import Phase
from audiocrib.engine.rules import RANGES, Rules
from audiocrib.engine.text import printable
from audiocrib.engine.views import PlayerView

__all__ = ["MAX_ENTRIES", "MAX_NAME", "MAX_NUMBER", "MAX_VIEW_EVENTS", "SEAT_FIELDS", "VIEW_NUMBERS", "checked_event",
           "field_named", "rules_text", "view_from_json", "view_text", "view_to_json"]

MAX_VIEW_EVENTS = 50_000
"""The most events a view may carry (a long match has a few thousand)."""
MAX_NUMBER = 1_000_000
"""No count, score or deal number in a real game comes near this."""
MAX_NAME = 200
"""The most characters of a seat's name in a view."""
MAX_ENTRIES = 52
"""The most entries of a list in an event or a view (but a view's events): no more cards than a deck."""
SEAT_FIELDS = frozenset({"seat", "dealer", "cutter", "offender", "seats"})
"""Event fields that name a seat (or seats), which must be a seat of the table; an event's other whole numbers are
within `MAX_NUMBER` either side of zero."""
VIEW_NUMBERS: dict[str, tuple[int, int]] = {
    "game_number": (0, MAX_NUMBER), "deal_number": (0, MAX_NUMBER), "scores": (0, MAX_NUMBER),
    "match_scores": (0, MAX_NUMBER), "count": (0, 31), "held": (0, MAX_ENTRIES),
}
"""The view's whole numbers that are not seats, each with its lowest and highest value (every other whole number in
a view names a seat). `view_from_json` checks by it and the protocol's JSON Schema is made from it."""

_FIELDS = (
    "seat", "names", "rules", "phase", "game_number", "deal_number", "dealer", "scores", "match_scores", "hand",
    "kept", "discards", "laid_away", "starter", "count", "series", "played", "held", "said_go", "turn", "playable",
    "counting", "claiming", "crib", "events",
)


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """A JSON-ready dict of every field of ``view``, and nothing more."""
    return {
        "seat": view.seat,
        "names": list(view.names),
        "rules": view.rules.to_json(),
        "phase": view.phase.value,
        "game_number": view.game_number,
        "deal_number": view.deal_number,
        "dealer": view.dealer,
        "scores": list(view.scores),
        "match_scores": list(view.match_scores),
        "hand": _cards(view.hand),
        "kept": _cards(view.kept),
        "discards": None if view.discards is None else _cards(view.discards),
        "laid_away": list(view.laid_away),
        "starter": None if view.starter is None else str(view.starter),
        "count": view.count,
        "series": [[seat, str(card)] for seat, card in view.series],
        "played": [_cards(cards) for cards in view.played],
        "held": list(view.held),
        "said_go": sorted(view.said_go),
        "turn": view.turn,
        "playable": _cards(view.playable),
        "counting": None if view.counting is None else [view.counting[0], view.counting[1]],
        "claiming": view.claiming,
        "crib": None if view.crib is None else _cards(view.crib),
        "events": [event_to_json(event) for event in view.events],
    }


rules_text: IdentityCache[Rules, str] = IdentityCache(lambda rules: json.dumps(rules.to_json()), most=1024)
"""``json.dumps(rules.to_json())``, kept for the rules met again (a table's rules are in every view it sends)."""


def view_text(view: PlayerView) -> str:
    """``json.dumps(view_to_json(view))``, written directly (the same text, to the byte)."""
    t, n, cards, numbers, maybe = json_text, _number, cards_text, numbers_text, _maybe_number
    series = view.series
    series_text = ("[" + ", ".join([f"[{n(seat)}, {card_text(card)}]" for seat, card in series]) + "]"
                   if type(series) is tuple and all(type(p) is tuple and len(p) == 2 for p in series)
                   else t(series))
    played = view.played
    played_text = "[" + ", ".join([cards(p) for p in played]) + "]" if type(played) is tuple else t(played)
    laid_away = view.laid_away
    laid_text = ("[" + ", ".join(["true" if flag else "false" for flag in laid_away]) + "]"
                 if type(laid_away) is tuple and all(type(flag) is bool for flag in laid_away) else t(laid_away))
    phase = _PHASES.get(view.phase) or t(view.phase.value)
    said_go = "[]" if not view.said_go else numbers(tuple(sorted(view.said_go)))
    counting = "null" if view.counting is None else t(view.counting)
    return (
        f'{{"seat": {n(view.seat)}, "names": {_names_text(view.names)}, "rules": {rules_text(view.rules)}, '
        f'"phase": {phase}, "game_number": {n(view.game_number)}, '
        f'"deal_number": {n(view.deal_number)}, "dealer": {n(view.dealer)}, "scores": {numbers(view.scores)}, '
        f'"match_scores": {numbers(view.match_scores)}, "hand": {cards(view.hand)}, "kept": {cards(view.kept)}, '
        f'"discards": {cards(view.discards)}, "laid_away": {laid_text}, "starter": {card_text(view.starter)}, '
        f'"count": {n(view.count)}, "series": {series_text}, "played": {played_text}, '
        f'"held": {numbers(view.held)}, "said_go": {said_go}, "turn": {maybe(view.turn)}, '
        f'"playable": {cards(view.playable)}, "counting": {counting}, "claiming": {maybe(view.claiming)}, '
        f'"crib": {cards(view.crib)}, "events": [{", ".join([event_text(event) for event in view.events])}]}}'
    )


_names_text: IdentityCache[tuple[str, ...], str] = IdentityCache(json_text, most=4096)
"""A table's names as JSON, kept: a game's views share its one tuple of names."""
_PHASES = {phase: json.dumps(phase.value) for phase in Phase}


def _number(value: Any) -> str:
    return int.__repr__(value) if type(value) is int else json_text(value)


def _maybe_number(value: Any) -> str:
    return "null" if value is None else int.__repr__(value) if type(value) is int else json_text(value)


def _spoken(name: str) -> str:
    return name.replace("_", " ")


def field_named(key: object) -> str:
    """A field's name as a refusal may say it back: a short plain ASCII name ("no field called bogus"), else "that
    name" (it may come from anyone: "\u00c0", control characters, a thousand letters).

    >>> field_named("hand_size"), field_named("\u00c0"), field_named("x" * 40)
    ('hand size', 'that name', 'that name')
    """
    if isinstance(key, str) and key.isascii() and key.isidentifier() and len(key) <= 30:
        return _spoken(key)
    return "that name"


class _Reader:
    """Reads the fields of one view, each refusal a sentence naming the field."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.players = 2

    def refuse(self, name: str, what: str) -> ValueError:
        return ValueError(f"The view's {_spoken(name)} must be {what}.")

    def number(self, name: str, value: Any) -> int:
        low, high = VIEW_NUMBERS[name]
        if type(value) is not int or not low <= value <= high:
            raise self.refuse(name, f"a whole number from {number_words(low)} to {number_words(high)}")
        return value

    def seat(self, name: str, value: Any) -> int:
        if type(value) is not int or not 0 <= value < self.players:
            raise self.refuse(name, "a seat of the table")
        return value

    def listener(self, name: str, value: Any) -> int:
        """A seat of the table, or the watchers' seat just past the last (`watcher_seat`)."""
        if type(value) is not int or not 0 <= value <= self.players:
            raise self.refuse(name, "a seat of the table, or the watchers' seat")
        return value

    def maybe_seat(self, name: str, value: Any) -> int | None:
        return None if value is None else self.seat(name, value)

    def listed(self, name: str, value: Any, size: int | None = None, most: int = MAX_ENTRIES) -> list[Any]:
        if not isinstance(value, list):
            raise self.refuse(name, "a list")
        if size is not None and len(value) != size:
            raise self.refuse(name, f"a list of {number_words(size)}, one for each")
        if len(value) > most:
            raise self.refuse(name, f"a list of at most {number_words(most)}")
        return value

    def card(self, name: str, value: Any) -> Card:
        if not isinstance(value, str) or len(value) > 3:
            raise self.refuse(name, "a card written like 5H")
        try:
            return Card.parse(value)
        except ValueError:
            raise self.refuse(name, "a card written like 5H") from None

    def cards(self, name: str, value: Any) -> tuple[Card, ...]:
        cards = tuple(self.card(name, v) for v in self.listed(name, value))
        if len(set(cards)) != len(cards):
            raise self.refuse(name, "cards given once each")
        return cards

    def maybe_cards(self, name: str, value: Any) -> tuple[Card, ...] | None:
        return None if value is None else self.cards(name, value)

    def flag(self, name: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.refuse(name, "true or false")
        return value

    def rules(self, value: Any) -> Rules:
        try:
            rules = Rules.from_json(value)
        except (ValueError, TypeError):
            # TypeError: a setting given as a list or an object reaches the dataclass's own checks.
            raise self.refuse("rules", "the table's settings, each known and valid") from None
        self.players = rules.players
        return rules

    def event(self, index: int, value: Any) -> Event:
        return checked_event(value, self.players, f"Event number {number_words(index + 1)} of the view")


def checked_event(value: Any, players: int = RANGES["players"][1], which: str = "The event") -> Event:
    """An event read by the event codec and checked further: every seat it names is below ``players``, every number
    in range, every list short. Else one `ValueError` sentence, starting with ``which``."""
    try:
        event = event_from_json(value)
    except ValueError:
        raise ValueError(f"{which} cannot be read.") from None
    for name in event.__dataclass_fields__:
        field = getattr(event, name)
        numbers = field if isinstance(field, tuple) and all(type(v) is int for v in field) else (field,)
        for number in numbers:
            if type(number) is not int:
                continue
            if (not 0 <= number < players) if name in SEAT_FIELDS else abs(number) > MAX_NUMBER:
                raise ValueError(f"{which} has a number out of range.")
        if isinstance(field, tuple) and len(field) > MAX_ENTRIES:
            raise ValueError(f"{which} has too many entries.")
    return event


def view_from_json(data: Any) -> PlayerView:
    """The inverse of `view_to_json`; anything malformed raises one `ValueError` sentence that reads aloud."""
    if not isinstance(data, dict):
        raise ValueError("A view must be an object of named fields.")
    for key in data:
        if key not in _FIELDS:
            raise ValueError(f"A view has no field called {field_named(key)}.")
    for name in _FIELDS:
        if name not in data:
            raise ValueError(f"A view needs its {_spoken(name)}.")
    read = _Reader(data)
    rules = read.rules(data["rules"])
    players, sides = rules.players, rules.sides
    names = read.listed("names", data["names"], size=players)
    if not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME and printable(n) for n in names):
        raise read.refuse("names", "a name for each seat, in printable text")
    try:
        phase = Phase(data["phase"])
    except (ValueError, TypeError):
        raise read.refuse("phase", "a moment of the game") from None
    series = []
    for entry in read.listed("series", data["series"]):
        pair = read.listed("series", entry, size=2)
        series.append((read.seat("series", pair[0]), read.card("series", pair[1])))
    counting = data["counting"]
    if counting is not None:
        pair = read.listed("counting", counting, size=2)
        counting = (read.seat("counting", pair[0]), read.flag("counting", pair[1]))
    said_go = [read.seat("said_go", s) for s in read.listed("said_go", data["said_go"], most=players)]
    events = read.listed("events", data["events"], most=MAX_VIEW_EVENTS)
    starter = data["starter"]
    view = PlayerView(
        seat=read.listener("seat", data["seat"]),
        names=tuple(names),
        rules=rules,
        phase=phase,
        game_number=read.number("game_number", data["game_number"]),
        deal_number=read.number("deal_number", data["deal_number"]),
        dealer=read.seat("dealer", data["dealer"]),
        scores=tuple(read.number("scores", s) for s in read.listed("scores", data["scores"], size=sides)),
        match_scores=tuple(
            read.number("match_scores", s) for s in read.listed("match_scores", data["match_scores"], size=sides)
        ),
        hand=read.cards("hand", data["hand"]),
        kept=read.cards("kept", data["kept"]),
        discards=read.maybe_cards("discards", data["discards"]),
        laid_away=tuple(read.flag("laid_away", f) for f in read.listed("laid_away", data["laid_away"], size=players)),
        starter=None if starter is None else read.card("starter", starter),
        count=read.number("count", data["count"]),
        series=tuple(series),
        played=tuple(read.cards("played", p) for p in read.listed("played", data["played"], size=players)),
        held=tuple(read.number("held", h) for h in read.listed("held", data["held"], size=players)),
        said_go=frozenset(said_go),
        turn=read.maybe_seat("turn", data["turn"]),
        playable=read.cards("playable", data["playable"]),
        counting=counting,
        claiming=read.maybe_seat("claiming", data["claiming"]),
        crib=read.maybe_cards("crib", data["crib"]),
        events=tuple(read.event(i, e) for i, e in enumerate(events)),
    )
    if view.watching and (view.hand or view.kept or view.discards is not None or view.playable):
        raise ValueError("A watcher's view holds no cards of its own.")
    return view
