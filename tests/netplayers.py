"""Scripted people for the tests of the real server: each a WebSocket client (aiohttp's) that keeps every message
it received, plays its seat from the views the server sends, and, when its connection drops, connects again by
itself with backoff, says hello with its token and goes on from the catch-up the server sends.

Also what the tests check of what a seat was sent against the whole game's log (from the store after the game).
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import os
import random
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from audiocrib.engine.actions import Action, CallMuggins, ClaimCount, Discard, Go, Play, action_to_json
from audiocrib.engine.cards import DECK
from audiocrib.engine.events import HandShown, MatchWon, event_from_json, event_to_json
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.scoring import score_hand
from audiocrib.engine.viewcodec import view_to_json
from audiocrib.engine.views import PlayerView
from audiocrib.online.messages import Message, News, Refused, ViewOf, decode_from_server
from tests.protocol_check import client_sent, server_said
from tests.test_viewcodec import cards_in, known_by_deal, leaks

WAIT = 30.0
"""Seconds a client waits for the server's next message before the test fails as stalled."""


@dataclass(frozen=True, slots=True)
class Received:
    """One message as it came over the network, with how many events of its seat's log the client had been told
    once it arrived, and on which of the client's connections (counted from one)."""

    text: str
    length: int
    connection: int
    at: float
    """When it came, in seconds of the event loop's clock."""


class Dropped(Exception):
    """The connection closed and the client was told not to connect again."""


class NetPlayer:
    """One person at a table over the network. ``reconnect``: connect again by itself when the connection drops.
    ``probe``: once, at its first turn in the play, try to lay two cards it cannot know of, and ask who is here,
    the lobby, a ping, its account, the top players, its rating and its past matches, and say a line in the chat
    (every kind of answer then comes back to be checked).
    ``pace``: send at most this many messages a second on average, twice that at once (at 10, well under the
    server's limit of 20, 40 at once, for a fast game however its speed varies with the machine's load)."""

    def __init__(self, name: str, url: str, seed: int = 0, reconnect: bool = False, probe: bool = False,
                 pace: float | None = None) -> None:
        self.name, self.url = name, url
        self.pace = pace
        self._tokens, self._filled = 2 * (pace or 0), 0.0  # the pace's bucket, and when it was last filled
        self.token: str | None = None
        self.reconnect, self.probe = reconnect, probe
        self.rng = random.Random(seed)
        self.got: list[Received] = []
        self.told: list[dict[str, Any]] = []  # the seat's log as the news told it, event by event
        self.mismatches: list[str] = []  # news that contradicted what was told before
        self.refusals: list[str] = []
        self.sent: list[dict[str, Any]] = []  # every message it sent
        self.named: set[str] = set()  # cards this client named in its own moves
        self.probed: list[tuple[str, str]] = []  # (card it cannot know of, the server's answer)
        self.probed_at = 0  # the length of the log when it probed
        self.connections = 0
        self.shorted = False  # whether it has claimed a count short yet
        self.closes: list[tuple[Any, Any]] = []  # each close's code and reason, as the client saw it
        self.seat: int | None = None
        self.table: dict[str, Any] | None = None
        self.won = False
        self._made: set[tuple[Any, ...]] = set()  # the decisions this connection has sent a move for
        self._probing: list[str] = []
        self._called: set[int] = set()
        self.last: Message | None = None  # the last message received, decoded
        self._view: PlayerView | None = None  # the last view
        self.looked_back = False
        self._session: aiohttp.ClientSession | None = None
        self._socket: aiohttp.ClientWebSocketResponse | None = None

    # ------------------------------------------------------------------ the connection
    async def connect(self, session: aiohttp.ClientSession) -> dict[str, Any]:
        """Connect and say hello (with the token once there is one); the welcome."""
        self._session = session
        self._socket = await session.ws_connect(self.url, autoping=True, max_msg_size=0)
        self.connections += 1
        self._made.clear()  # a move sent just before a drop may not have been kept: it is made again
        await self.send({"type": "hello", "name": self.name, "token": self.token, "password": None, "version": 1})
        welcome = await self.expect("welcome")
        self.token = welcome["token"]
        return welcome

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()

    async def send(self, message: dict[str, Any]) -> None:
        assert self._socket is not None
        if self.pace is not None:
            loop = asyncio.get_running_loop()
            self._tokens = min(2 * self.pace, self._tokens + (loop.time() - self._filled) * self.pace)
            self._filled = loop.time()
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.pace)
                self._tokens, self._filled = 1.0, loop.time()
            self._tokens -= 1
        self.sent.append(message)
        client_sent(json.dumps(message))  # what an honest client sends is a message of the published schema
        try:
            await self._socket.send_str(json.dumps(message))
        except (ConnectionError, RuntimeError, aiohttp.ClientError):
            pass  # the connection is going; the next receive finds out and connects again

    async def _again(self) -> None:
        """Connect again with backoff (doubling from a twentieth of a second to one second) until welcomed."""
        assert self._session is not None
        delay = 0.05
        loop = asyncio.get_running_loop()
        give_up = loop.time() + 60
        while True:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
            try:
                await self.connect(self._session)
                return
            except (TimeoutError, aiohttp.ClientError, OSError, Dropped):
                if loop.time() > give_up:
                    raise AssertionError(f"{self.name} could not connect again for a minute") from None

    async def receive(self) -> dict[str, Any] | None:
        """The next message (kept, and its news taken in), or None when the connection has dropped."""
        assert self._socket is not None
        try:
            frame = await self._socket.receive(timeout=WAIT)
        except TimeoutError:
            raise AssertionError(f"{self.name} heard nothing for {WAIT} seconds; {self.lately()}") from None
        except (ConnectionError, aiohttp.ClientError):
            return None
        if frame.type is not aiohttp.WSMsgType.TEXT:
            self.closes.append((frame.data, frame.extra))
            return None
        decoded = decode_from_server(frame.data)  # what the server sends is a message of the protocol
        server_said(frame.data)  # and of its published schema
        message: dict[str, Any] = json.loads(frame.data)
        self.last = decoded
        if isinstance(decoded, News):
            self._news(message["since"], message["events"])
            self.won = self.won or any(isinstance(e, MatchWon) for e in decoded.events)
        elif message["type"] == "view" and message["whole"]:  # the seat's whole log: the game so far
            self._news(0, message["view"]["events"])
        elif message["type"] == "table":
            self.table, self.seat = message, message["you"]
        elif message["type"] == "refused":
            self.refusals.append(message["sentence"])
            if self._probing:
                self.probed.append((self._probing.pop(0), message["sentence"]))
        self.got.append(Received(frame.data, len(self.told), self.connections, asyncio.get_running_loop().time()))
        return message

    def lately(self) -> str:
        """What this client last heard, for a failing test to say."""
        last = [f"#{r.connection} at {r.at:.2f} (told {r.length}): {r.text[:200]}" for r in self.got[-8:]]
        return (f"connection {self.connections}, told {len(self.told)} events, sent {self.sent[-3:]}, last heard:\n"
                + "\n".join(last))

    async def expect(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (those before it are kept and passed over)."""
        while True:
            message = await self.receive()
            if message is None:
                raise Dropped(self.name)
            if message["type"] == kind:
                return message

    def _news(self, since: int, events: list[dict[str, Any]]) -> None:
        if since > len(self.told):
            self.mismatches.append(f"news from event {since} when {len(self.told)} were told; {self.lately()}")
            return
        for index, event in enumerate(events, start=since):
            if index < len(self.told):
                if self.told[index] != event:
                    self.mismatches.append(f"event {index} was {self.told[index]}, now {event}")
            else:
                self.told.append(event)

    # ------------------------------------------------------------------ playing
    async def play(self, until: Callable[[dict[str, Any]], bool] | None = None) -> None:
        """Answer each view with this seat's move until the match is won (or a message ``until`` picks came)."""
        while not self.won:
            message = await self.receive()
            if message is None:
                if not self.reconnect:
                    raise Dropped(self.name, self.closes[-1:], self.refusals)
                await self._again()
                continue
            if until is not None and until(message):
                return
            if isinstance(self.last, ViewOf):
                view = self.last.view
                if not self.last.whole:  # the state after the news: its events are the log as the news told it
                    view = dataclasses.replace(view, events=tuple(event_from_json(e) for e in self.told))
                self._view = view
                if not self.looked_back and len(self.told) > 20:  # once a game: the view at a pause looked back on
                    self.looked_back = True
                    await self.send({"type": "look_back", "told": len(self.told) // 2, "early": []})
                await self._answer(self._view)
            elif isinstance(self.last, Refused) and self._view is not None:
                await self._answer(self._view)  # a refused muggins call, say: the seat's other move is still due

    async def _answer(self, view: PlayerView) -> None:
        # Views of moves made before this seat's last one may still come (the others lay away at the same time):
        # one move for each decision.
        decision: tuple[Any, ...] = (view.game_number, view.deal_number, view.phase, view.counting)
        if view.phase is not Phase.DISCARD and view.counting is None:
            decision += (len(view.events),)
        if decision in self._made:
            return
        if self.probe and view.phase is Phase.PLAY and view.my_turn:
            self.probe = False
            await self._probe(view)
        move = self.move(view)
        if move is None:
            return
        if not isinstance(move, CallMuggins):  # a call is made once by itself (`_called`)
            self._made.add(decision)
        self.named |= cards_in(action_to_json(move))
        await self.send({"type": "move", "action": action_to_json(move)})

    async def _probe(self, view: PlayerView) -> None:
        known = known_by_deal(view.events, view.seat)[1][-1]
        unknown = [str(card) for card in DECK if str(card) not in known]
        self._probing = self.rng.sample(unknown, 2)
        self.probed_at = len(view.events)
        self.named |= set(self._probing)
        for card in self._probing:
            await self.send({"type": "move", "action": {"kind": "play", "seat": view.seat, "card": card}})
        for message in ({"type": "who"}, {"type": "lobby"}, {"type": "ping", "number": 61}, {"type": "account"},
                        {"type": "chat", "text": f"Good luck from {self.name}."}, {"type": "top_players"},
                        {"type": "rating"}, {"type": "past_matches"}):
            await self.send(message)

    def move(self, view: PlayerView) -> Action | None:
        """This seat's move from its view, or None when the game waits on others: random cards laid away and
        played, go when none can be played, a count claimed (now and then one short), muggins called on an
        opponent's short count."""
        if view.rules.muggins:  # first: laying away for the next deal closes muggins
            for index, event in enumerate(view.events):
                if (isinstance(event, HandShown) and index not in self._called and event.claimed is not None
                        and event.claimed < event.score.total
                        and view.rules.side_of(event.seat) != view.side):
                    self._called.add(index)
                    return CallMuggins(view.seat)
        if view.must_discard:
            return Discard(view.seat, tuple(self.rng.sample(view.hand, view.must_discard)))
        if view.phase is Phase.PLAY and view.my_turn:
            return Play(view.seat, self.rng.choice(view.playable)) if view.playable else Go(view.seat)
        if view.phase is Phase.COUNT and view.counting is not None and view.counting[0] == view.seat:
            crib = view.counting[1]
            cards = view.crib if crib else view.kept
            assert cards is not None and view.starter is not None
            true = score_hand(cards, view.starter, crib).total
            short = true > 0 and (not self.shorted or self.rng.random() < 0.25)  # one short count at least
            self.shorted = self.shorted or short
            return ClaimCount(view.seat, true - short)
        return None


# ---------------------------------------------------------------------- what a seat may have been sent

def known_at(game: Game, seat: int) -> list[frozenset[str]]:
    """For each event of the whole log, the cards of its deal ``seat`` may know once that event has happened."""
    deal_of, _ = known_by_deal(game.events, seat)
    known: list[frozenset[str]] = []
    for index in range(len(game.events)):
        same_deal = bool(known) and deal_of[index - 1] == deal_of[index]
        _, cards = known_by_deal(game.events[index:index + 1], seat)
        known.append((known[-1] if same_deal else frozenset()) | cards[-1])
    return known


class Moments:
    """The game as it stood after each number of events (made once, shared by the seats)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._at: dict[int, Game] = {}

    def __call__(self, length: int) -> Game:
        if length not in self._at:
            self._at[length] = self.game.at(length)
        return self._at[length]


def hidden_in(text: str, moments: Moments, seat: int, known: list[frozenset[str]], length: int,
              named: set[str]) -> list[str]:
    """What in one message's ``text`` (sent to ``seat`` when it had been told ``length`` events) the seat may not
    know, judged from the whole game's log (``known``: `known_at`): a card of another seat not yet shown, an undealt
    card, the crib before the show (in any field of any message, as notation or in words), or the seed. ``named``
    are the cards the client itself named in its moves (a refusal may name them back)."""
    game = moments.game
    found = []
    data = json.loads(text)
    if str(game.seed) in text or '"seed"' in text:
        found.append("the seed")
    if data["type"] == "news":
        for index, event in enumerate(data["events"], start=data["since"]):
            if cards_in(event) - known[index]:
                found.append(f"news event {index} shows {sorted(cards_in(event) - known[index])}")
            if event != event_to_json(game.events[index].seen_by(seat)):
                found.append(f"news event {index} is not the log's event as the seat sees it")
    elif data["type"] == "past_view":
        moment = moments(data["told"])  # no events heard early: the seat's view as it stood then
        found.extend(leaks(moment, seat, data["view"]))
        if data["early"] or data["view"] != view_to_json(moment.view(seat)):
            found.append(f"the view looked back on at event {data['told']} is not the seat's view then")
    elif data["type"] == "view":
        view = data["view"]
        at = len(view["events"]) if data["whole"] else length  # after a move: the state after the news before it
        moment = moments(at)
        found.extend(leaks(moment, seat, view))
        expected = view_to_json(moment.view(seat))
        if not data["whole"]:
            expected["events"] = []
        if view != expected:
            found.append(f"the view at event {at} is not the seat's view then")
    else:
        allowed = (known[length - 1] if length else frozenset()) | named
        if cards_in(data) - allowed:
            found.append(f"a {data['type']} message shows {sorted(cards_in(data) - allowed)}")
        words = [card.name for card in DECK if str(card) not in allowed and card.name in text]
        if words:
            found.append(f"a {data['type']} message names {words}")
    return found


def session_from(address: str) -> aiohttp.ClientSession:
    """A client session whose connections come from ``address`` (another loopback address, 127.0.0.N, so that
    each table's people are counted apart by the server's limits per address, as people at home would be)."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))


def raw_connect(port: int, local: str, receive_buffer: int = 1024) -> socket.socket:
    """A WebSocket connection to ``/play`` made by hand on a plain blocking socket from ``local``, its receive
    buffer made tiny before it connects (so that what the server sends backs up at once if it is never read)."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    raw.bind((local, 0))
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode("ascii")
    raw.sendall((f"GET /play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode("ascii"))
    head = b""
    while b"\r\n\r\n" not in head:
        byte = raw.recv(1)
        assert byte, head
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return raw


def raw_send(raw: socket.socket, text: str) -> None:
    """One masked text frame, as a client sends it."""
    payload = text.encode("utf-8")
    size = len(payload)
    head = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0xFE]) + size.to_bytes(2, "big")
    mask = os.urandom(4)
    raw.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
