"""What every message of the protocol shares: the `Message` base, and the fields and limits that more than one
module of messages uses. `audiocrib.online.messages` gathers every message into the protocol; the room's life
(watching, past matches, ratings) has modules of its own beside it, each importing only this."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from audiocrib.engine.viewcodec import MAX_VIEW_EVENTS
from audiocrib.online.fields import ActionField, EventField, Maybe, Number, RulesField, ViewField

__all__ = ["ACTION", "EVENT", "LOG_INDEX", "RULES", "SEAT", "SECONDS", "TABLE_NUMBER", "VIEW", "Message"]

SEAT = Number(0, 5)
TABLE_NUMBER = Number(1, 10**9)
SECONDS = Maybe(Number(10, 3600))
LOG_INDEX = Number(0, MAX_VIEW_EVENTS)
RULES, ACTION, VIEW, EVENT = RulesField(), ActionField(), ViewField(), EventField()


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message; ``type`` names it in JSON, and each field's ``metadata["field"]`` says how it is
    written and checked."""

    type: ClassVar[str] = "message"
