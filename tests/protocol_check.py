"""Every message the tests' clients hear from a real server checked against the published JSON Schema
(``docs/protocol.schema.json``, made by `audiocrib.online.jsonschema`), so the schema is what the server sends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

__all__ = ["SCHEMA", "SCHEMA_FILE", "client_sent", "server_said"]

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"
SCHEMA: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
_SERVER = Draft202012Validator({"$ref": "#/$defs/server_message", "$defs": SCHEMA["$defs"]})
_CLIENT = Draft202012Validator({"$ref": "#/$defs/client_message", "$defs": SCHEMA["$defs"]})


def _check(validator: Draft202012Validator, text: str | bytes, side: str) -> None:
    data = json.loads(text)
    error = best_match(validator.iter_errors(data))
    if error is not None:
        raise AssertionError(f"{side} message not in docs/protocol.schema.json: {error.message} at"
                             f" {'/'.join(map(str, error.absolute_path))}: {str(text)[:300]}")


def server_said(text: str | bytes) -> None:
    """Fail the test if ``text``, a frame the server sent, is not a server message of the schema."""
    _check(_SERVER, text, "The server's")


def client_sent(text: str | bytes) -> None:
    """Fail the test if ``text`` is not a client message of the schema."""
    _check(_CLIENT, text, "A client's")
