"""What a seat is sent of its game beyond its view: its events in messages of a bounded size, and its view at an
earlier point of its own log (looking back at a pause). Both are built from the seat's own log, so neither can
hold anything the seat has not been told."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from audiocrib.engine.events import Event
from audiocrib.engine.game import Game
from audiocrib.engine.numbers import number_words
from audiocrib.online.messages import MAX_NEWS_EVENTS, News, PastView

__all__ = ["chunks", "past_view"]


def chunks(log: Sequence[Event], first: int) -> list[News]:
    """A seat's events from ``first`` on, from its own log (its view's ``events``: each event as `Event.seen_by`
    gives it), in messages of at most `MAX_NEWS_EVENTS`."""
    events = log[first:]
    return [News(first + i, tuple(events[i:i + MAX_NEWS_EVENTS])) for i in range(0, len(events), MAX_NEWS_EVENTS)]


def past_view(game: Game, seat: int, told: int, early: tuple[int, ...],
              replay: Callable[[int, frozenset[int]], Game] | None = None, light: bool = False) -> PastView | str:
    """``seat``'s view after the first ``told`` events of its log, then those at ``early`` that come later (ones
    heard first); or the sentence that refuses indexes the game has not had or that cannot follow there.
    ``replay`` makes the game as it stood (by default `Game.at`); ``light`` leaves the view's events out (the
    client has them: `audiocrib.online.lookback.events_at`)."""
    length = len(game.events)
    if told > length:
        return f"The game has had only {number_words(length)} events; you cannot look back past them."
    if any(i >= length for i in early):
        return "An event you heard early must be one the game has had."
    later = {i for i in early if i >= told}
    try:
        view = (replay or game.at)(told, frozenset(later)).view(seat)
    except Exception:  # the engine's replay refuses events that cannot follow there (hostile indexes)
        return "Those events cannot follow that point of the game."
    if light:
        return PastView(told, early, dataclasses.replace(view, events=()), whole=False)
    return PastView(told, early, view)
