"""Looking back at a pause: `LookBack` asks for a seat's view as it stood at an earlier point of its own log, and
`PastView` answers it.

At a show the player pauses, and the screen stands at the show while the game has gone on to the next deal; each
person's client asks for that view. The view's events are the seat's log up to the pause (and any events heard
early), which the client has already: a server that says so in its `audiocrib.online.messages.Welcome`
(``light``) leaves them out when the client asks (``light``), and the client puts them back from its own log
(`events_at`). A match to 121 has some two hundred events, and reading them again from the text took a client
2.5 ms at every show, for each person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from audiocrib.engine.events import Event
from audiocrib.engine.views import PlayerView
from audiocrib.online.base import LOG_INDEX, VIEW, Message
from audiocrib.online.fields import Flag, Many, ProtocolError

__all__ = ["MAX_EARLY", "LookBack", "PastView", "events_at"]

MAX_EARLY = 1000
"""The most events a `LookBack` may name as heard early."""


@dataclass(frozen=True, slots=True)
class LookBack(Message):
    """Ask for this seat's view as it stood after the first ``told`` events of its log, then the events at the
    indexes ``early`` (later ones the player already heard): the game at a pause the player is looking back on.
    Answered with `PastView`; with ``light`` (only to a server whose welcome says it answers so) without the
    view's events."""

    type: ClassVar[str] = "look_back"
    told: int = field(metadata={"field": LOG_INDEX})
    early: tuple[int, ...] = field(metadata={"field": Many(LOG_INDEX, MAX_EARLY)})
    light: bool = field(default=False, metadata={"field": Flag(), "optional": True, "unsent_at_default": True})


@dataclass(frozen=True, slots=True)
class PastView(Message):
    """The answer to `LookBack`: its ``told`` and ``early``, and the seat's view as it stood then; not ``whole``
    when it was asked ``light``: the view's events are left out (an empty list), to be put back by `events_at`."""

    type: ClassVar[str] = "past_view"
    told: int = field(metadata={"field": LOG_INDEX})
    early: tuple[int, ...] = field(metadata={"field": Many(LOG_INDEX, MAX_EARLY)})
    view: PlayerView = field(metadata={"field": VIEW})
    whole: bool = field(default=True, metadata={"field": Flag(), "optional": True})

    def __post_init__(self) -> None:
        if not self.whole and self.view.events:
            raise ProtocolError("A view that is not whole leaves its events out.")


def events_at(log: Sequence[Event], told: int, early: Sequence[int]) -> tuple[Event, ...] | None:
    """The events of a seat's view after the first ``told`` of its ``log``, then those at ``early`` that come
    later, as the server's replay has them; None when the log is too short for them.

    >>> from audiocrib.engine.game import Game
    >>> game = Game(seed=7)
    >>> log = game.view(0).events
    >>> last = len(log) - 1
    >>> events_at(log, 1, (last, 0)) == game.at(1, also=(last,)).view(0).events, events_at(log, last + 2, ())
    (True, None)
    """
    later = sorted(i for i in set(early) if i >= told)
    if told > len(log) or (later and later[-1] >= len(log)):
        return None
    return (*log[:told], *(log[i] for i in later))
