"""The published JSON Schema of the protocol (``docs/protocol.schema.json``): what the code makes now, a valid
schema, and a real check (every server test's client also checks each message it hears: tests/protocol_check.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from audiocrib.engine.actions import ACTION_TYPES
from audiocrib.engine.events import EVENT_TYPES
from audiocrib.online import messages as m
from audiocrib.online.fields import ProtocolError
from audiocrib.online.jsonschema import protocol_schema
from tests.protocol_check import SCHEMA, SCHEMA_FILE, client_sent, server_said

REGENERATE = "python -m audiocrib.online.jsonschema > docs/protocol.schema.json"


def test_the_shipped_schema_is_what_the_code_makes_now() -> None:
    assert SCHEMA == protocol_schema(), f"docs/protocol.schema.json is out of date: run {REGENERATE}"
    assert SCHEMA_FILE.read_text(encoding="utf-8").isascii()


def test_it_is_a_valid_schema_naming_every_message_move_and_event() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    defs = SCHEMA["$defs"]
    for side, messages in (("client_message", m.CLIENT_MESSAGES), ("server_message", m.SERVER_MESSAGES)):
        assert {ref["$ref"].rsplit("/", 1)[1] for ref in defs[side]["oneOf"]} == set(messages)
    assert len(defs["action"]["oneOf"]) == len(ACTION_TYPES)
    assert len(defs["event"]["oneOf"]) == len(EVENT_TYPES)


CLIENT_SAMPLES: list[dict[str, Any]] = [
    {"type": "hello", "name": "Ann", "token": None, "password": None, "version": 1},
    {"type": "lobby"},
    {"type": "lobby", "page": 3},
    {"type": "create_table", "rules": {"players": 2, "variant": "seven-card", "target": 61},
     "seats": ["person", "expert"], "public": True, "move_limit": 60},
    {"type": "join", "table": "K7D3M9"},
    {"type": "move", "action": {"kind": "discard", "seat": 0, "cards": ["5H", "TC"]}},
    {"type": "move", "action": {"kind": "play", "seat": 1, "card": "AS"}},
    {"type": "move", "action": {"kind": "go", "seat": 2}},
    {"type": "move", "action": {"kind": "claim", "seat": 0, "points": 12}},
    {"type": "move", "action": {"kind": "muggins", "seat": 0}},
    {"type": "chat", "text": "Good luck, <b>all</b>!"},
    {"type": "ping", "number": 7},
]


@pytest.mark.parametrize("sample", CLIENT_SAMPLES, ids=lambda s: s["type"])
def test_a_client_message_the_server_takes_is_one_the_schema_takes(sample: dict[str, Any]) -> None:
    text = json.dumps(sample)
    m.decode_from_client(text)
    client_sent(text)


WRONG: list[tuple[str, dict[str, Any]]] = [
    ("client", {"type": "lobby", "page": 0}),
    ("client", {"type": "move", "action": {"kind": "play", "seat": 0, "card": "1X"}}),
    ("client", {"type": "move", "action": {"kind": "jump", "seat": 0}}),
    ("client", {"type": "ping", "number": 1, "extra": True}),
    ("client", {"type": "hello", "name": "", "token": None, "password": None, "version": 1}),
    ("server", {"type": "lobby_list", "tables": [], "more": -1, "people": [], "page": 1, "pages": 1}),
    ("server", {"type": "news", "since": 0, "events": [{"kind": "no such event"}]}),
    ("server", {"type": "refused"}),
    ("server", {"type": "welcome", "name": "Ann", "token": "short", "version": 1}),
]


@pytest.mark.parametrize("side, message", WRONG, ids=lambda x: x if isinstance(x, str) else x["type"])
def test_what_the_protocol_refuses_the_schema_refuses_too(side: str, message: dict[str, Any]) -> None:
    text = json.dumps(message)
    with pytest.raises(ProtocolError):
        (m.decode_from_client if side == "client" else m.decode_from_server)(text)
    with pytest.raises(AssertionError, match=r"not in docs/protocol\.schema\.json"):
        (client_sent if side == "client" else server_said)(text)
