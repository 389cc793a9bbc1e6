"""A seat's rights against a hostile client, with a real server on loopback: the counting clock is the server's
alone (a client's own `timeout` is refused), and a player who left the table for now and joins it again on the same
connection is back for everyone (issue 25's reproductions)."""

from __future__ import annotations

import json

import aiohttp

from audiocrib.engine.events import HandShown
from audiocrib.online.messages import News, ViewOf
from audiocrib.server.room import OWN_TIMEOUT
from tests.test_serve import Client, Running, ask, counting_mine, create, hello, refused, run, server, until

__all__ = ["server"]  # the module's server fixture, shared from tests/test_serve.py


def test_a_client_cannot_run_out_its_own_counting_clock(server: Running) -> None:
    """At a table with a counting timer, a `timeout` sent with the clock far from run out is refused and changes
    nothing: the count is still the player's to make, and what they claim is scored."""
    client = Client()

    async def go() -> tuple[str, int | None]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as dee:
            await ask(dee, hello("Dee"))
            rules = {"players": 2, "target": 61, "manual_counting": True, "count_timer": 60}
            await ask(dee, {**create(False, ("person", "easy")), "rules": rules})
            await dee.send_str(json.dumps({"type": "start"}))
            await client.play(dee, until=counting_mine)
            view = next(x for _, x in reversed(client.got) if isinstance(x, ViewOf))
            left = view.count_ms
            seat = view.view.seat
            sentence = refused(await ask(dee, {"type": "move", "action": {"kind": "timeout", "seat": seat}}))
            claim = {"kind": "claim", "seat": seat, "points": 0}
            await dee.send_str(json.dumps({"type": "move", "action": claim}))
            await client.play(dee, until=lambda x: isinstance(x, News) and any(
                isinstance(e, HandShown) and e.seat == seat for e in x.events))
            return sentence, left
    sentence, left = run(go())
    assert sentence == OWN_TIMEOUT
    assert left is not None and left > 50_000  # the clock had most of its minute left
    shown = [e for _, x in client.got if isinstance(x, News) for e in x.events if isinstance(e, HandShown)]
    mine = [e for e in shown if e.seat == 0]
    assert len(mine) == 1 and not mine[0].timed_out and mine[0].claimed == 0, mine


def test_leaving_for_now_then_joining_again_on_one_connection_is_being_back(server: Running) -> None:
    """Leave during the game, then join that table again on the same connection: the others hear that the player
    is back, and the table says they are connected (so the host cannot take their seat for an absent one)."""
    async def go() -> tuple[str, list[bool], list[bool]]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as uma, \
                session.ws_connect(server.url) as vic:
            await ask(uma, hello("Uma"))
            await ask(vic, hello("Vic"))
            table = await ask(uma, create(False))
            await ask(vic, {"type": "join", "table": table["code"]})
            assert (await until(uma, "notice"))["sentence"] == "Vic sits down at the table."
            assert (await until(uma, "notice"))["sentence"] == "Every seat is taken; you can start the game."
            await uma.send_str(json.dumps({"type": "start"}))
            await until(vic, "view")
            assert (await ask(vic, {"type": "leave"}))["type"] == "lobby_list"
            assert (await until(uma, "notice"))["sentence"] == "Vic has left the table for now; the table waits."
            await vic.send_str(json.dumps({"type": "join", "table": table["code"]}))
            await until(vic, "view")  # the table and the whole game again
            back = (await until(uma, "notice"))["sentence"]
            seen_by_uma = [s["connected"] for s in (await ask(uma, {"type": "who"}))["seats"]]
            seen_by_vic = [s["connected"] for s in (await ask(vic, {"type": "who"}))["seats"]]
            return back, seen_by_uma, seen_by_vic
    back, seen_by_uma, seen_by_vic = run(go())
    assert back == "Vic is back."
    assert seen_by_uma == seen_by_vic == [True, True]
