"""The published JSON Schema of the protocol (``docs/protocol.schema.json``): what the code makes now, a valid
schema, and a real check (every server test's client also checks each message it hears: tests/protocol_check.py)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from jsonschema import Draft202012Validator

from audiocrib.engine.actions import ACTION_TYPES
from audiocrib.engine.errors import RulesError
from audiocrib.engine.events import EVENT_TYPES
from audiocrib.engine.game import Game
from audiocrib.engine.rules import RANGES, Rules
from audiocrib.engine.viewcodec import view_to_json
from audiocrib.online import messages as m
from audiocrib.online.fields import ProtocolError
from audiocrib.online.jsonschema import protocol_schema
from tests.protocol_check import SCHEMA, SCHEMA_FILE, client_sent, server_said
from tests.test_serve import serving

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
    ("client", {"type": "move", "action": {"kind": "play", "seat": 6, "card": "AS"}}),
    ("client", {"type": "move", "action": {"kind": "claim", "seat": 0, "points": 1001}}),
    ("client", {"type": "move", "action": {"kind": "discard", "seat": 0, "cards": ["5H", "5H"]}}),
    ("client", {"type": "create_table", "rules": {"players": 7}, "seats": ["person"], "public": True,
                "move_limit": None}),
    ("client", {"type": "create_table", "rules": {"target": 30}, "seats": ["person", "easy"], "public": True,
                "move_limit": None}),
    ("client", {"type": "create_table", "rules": {"manual_counting": True, "count_timer": 91},
                "seats": ["person", "easy"], "public": True, "move_limit": None}),
    ("server", {"type": "news", "since": 0, "events": [{"kind": "his heels", "seat": 6}]}),
    ("server", {"type": "news", "since": 0, "events": [{"kind": "series ended", "count": 1_000_001}]}),
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


def a_view_message(**change: Any) -> dict[str, Any]:
    """A real seat's view, in its message, with ``change`` made to the view's fields."""
    view = view_to_json(Game(seed=3).view(1))
    return {"type": "view", "view": {**view, **change}, "count_ms": None, "whole": True, "move_ms": None,
            "move_seat": None}


@pytest.mark.parametrize("change", [{"count": 32}, {"dealer": 6}, {"held": [53, 4]}, {"turn": -1},
                                    {"counting": [0, True, 1]}, {"hand": ["5H", "5H"]}, {"names": ["A" * 201, "B"]},
                                    {"said_go": [7]}, {"series": [[0, "5H", 3]]}],
                         ids=lambda change: next(iter(change)))
def test_a_view_out_of_the_codecs_ranges_is_refused_by_both(change: dict[str, Any]) -> None:
    server_said(json.dumps(a_view_message()))
    text = json.dumps(a_view_message(**change))
    with pytest.raises(ProtocolError):
        m.decode_from_server(text)
    with pytest.raises(AssertionError, match=r"not in docs/protocol\.schema\.json"):
        server_said(text)


@pytest.mark.parametrize("name", sorted(RANGES))
def test_each_setting_is_taken_at_its_ends_and_refused_past_them_by_the_schema_as_by_the_rules(name: str) -> None:
    """The schema's ranges are the ones `Rules` checks by (`RANGES`), so a client checked by the schema is never
    refused for a setting's range alone."""
    low, high = RANGES[name]
    base = {"team_size": {"players": 6}, "wrong_muggins": {"muggins": True},
            "count_timer": {"manual_counting": True}}.get(name, {})
    validator = Draft202012Validator({"$ref": "#/$defs/rules", "$defs": SCHEMA["$defs"]})
    for value in (low, high):
        Rules.from_json({**base, name: value})
        assert validator.is_valid({**base, name: value})
    for value in (low - 1, high + 1):
        with pytest.raises(RulesError):
            Rules.from_json({**base, name: value})
        assert not validator.is_valid({**base, name: value})


async def play_from_the_page_alone(url: str) -> tuple[int, list[dict[str, Any]]]:
    """A client written from docs/protocol.md and the schema alone (no audiocrib import): it makes a table with an
    easy computer player, starts it, and plays a game to 31, each message it sends and hears checked by the schema.
    The moves it made, and the log it kept from ``news``."""
    client = Draft202012Validator({"$ref": "#/$defs/client_message", "$defs": SCHEMA["$defs"]})
    server = Draft202012Validator({"$ref": "#/$defs/server_message", "$defs": SCHEMA["$defs"]})
    kept = {"five-card": 3, "six-card": 4, "seven-card": 5}  # the hand kept (two players): the page's Laying away
    async with aiohttp.ClientSession() as http, http.ws_connect(url, max_msg_size=0) as socket:
        async def send(message: dict[str, Any]) -> None:
            client.validate(message)
            await socket.send_str(json.dumps(message))

        await send({"type": "hello", "name": "Page Reader", "token": None, "password": None, "version": 1})
        await send({"type": "create_table", "rules": {"target": 31}, "seats": ["person", "easy"], "public": False,
                    "move_limit": None})
        log: list[dict[str, Any]] = []
        moves = 0
        while not any(event["kind"] == "match won" for event in log):
            message = json.loads((await socket.receive(timeout=30)).data)
            server.validate(message)
            assert message["type"] != "refused", message
            if message["type"] == "table" and not message["started"]:
                await send({"type": "start"})
            elif message["type"] == "news":
                assert message["since"] == len(log)
                log.extend(message["events"])
            elif message["type"] == "view":
                view = message["view"]
                seat = view["seat"]
                if message["whole"]:  # the seat's whole log so far; later ones come in news
                    log = list(view["events"])
                if view["phase"] == "discard" and not view["laid_away"][seat]:
                    away = view["hand"][:len(view["hand"]) - kept[view["rules"]["variant"]]]
                    await send({"type": "move", "action": {"kind": "discard", "seat": seat, "cards": away}})
                    moves += 1
                elif view["phase"] == "play" and view["turn"] == seat:
                    action = {"kind": "play", "seat": seat, "card": view["playable"][0]} if view["playable"] else \
                        {"kind": "go", "seat": seat}
                    await send({"type": "move", "action": action})
                    moves += 1
        return moves, log


def test_a_client_written_from_the_page_and_the_schema_alone_plays_a_game(tmp_path: Path) -> None:
    for running in serving(tmp_path / "data"):
        moves, log = asyncio.run(play_from_the_page_alone(running.url))
        assert moves >= 2 and log[0]["kind"] == "cut for deal" and log[-1]["kind"] == "match won"
