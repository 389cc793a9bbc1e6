"""Hostile clients against the real ``audiocrib serve``, beyond tests/test_serve.py's: malformed JSON of every kind,
wrong types in every field of every message, unknown types, ten-megabyte frames, a thousand messages a second, moves
for the other seats, a token used from a second connection while the first is open, a client that never speaks and
one that stops reading. Each hostile message gets one sentence (the protocol's own, where it has one) or the
connection is closed with a reason; and all the while a game at another table, in a thread of its own, is played to
its end unaffected."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.engine.events import Discarded, StarterCut, event_to_json
from audiocrib.engine.game import Game
from audiocrib.online import messages as m
from audiocrib.online.fields import ProtocolError
from audiocrib.online.jsontext import TOO_DEEP, TOO_LONG_NUMBER
from audiocrib.server.app import HELLO_FIRST, TEXT_ONLY
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from tests.netplayers import NetPlayer, raw_connect, raw_send, session_from
from tests.protocol_check import server_said
from tests.test_messages import EXAMPLES
from tests.test_serve import Running, hello

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="loopback addresses beyond 127.0.0.1"),
    # One worker runs the module: the games beside (`beside`) go on through every test, and the last test waits
    # for them and for the silent and deaf clients to be closed (half a minute, once, not on each worker).
    pytest.mark.xdist_group("serve_hostile"),
]

NOT_JSON = "A message must be one JSON object."
OTHER_SEAT = "You can make moves only for your own seat."
GAME = {"players": 3, "target": 31}
"""A short game for the tables the hostile clients sit at."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    running = Running(tmp_path_factory.mktemp("hostile") / "data")
    yield running
    running.stop()


class Beside(threading.Thread):
    """Games at another table, one after another until told to stop, each two people and a computer player, in a
    thread and event loop of their own; and beside them a client that connects and never says a word, and one
    that says hello and then never answers (not even the server's pings)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stopping = threading.Event()
        self.games: list[tuple[int, list[NetPlayer]]] = []
        self.error: BaseException | None = None
        self.silent: tuple[Any, Any, float] | None = None  # its close's code and reason, and when it came
        self.deaf: tuple[bytes, float] | None = None  # what a client that never answers got, and when it ended

    def run(self) -> None:
        try:
            asyncio.run(self._play())
        except BaseException as error:  # kept for the test to report
            self.error = error

    async def _play(self) -> None:
        async with session_from("127.0.0.50") as session:
            silent = asyncio.create_task(self._never_speaks(session))
            deaf = asyncio.create_task(asyncio.to_thread(self._never_answers))
            tokens: list[str | None] = [None, None]
            while not self.stopping.is_set():
                people = [NetPlayer(name, self.url, seed=len(self.games) * 2 + n) for n, name in
                          enumerate(("Bea Side", "Ben Side"))]
                for person, token in zip(people, tokens, strict=True):
                    person.token = token
                host, guest = people
                await host.connect(session)
                await host.send({"type": "create_table", "rules": {"players": 3, "target": 61},
                                 "seats": ["person", "easy", "person"], "public": True, "move_limit": None})
                table = await host.expect("table")
                await guest.connect(session)
                await guest.send({"type": "join", "table": str(table["number"])})
                await guest.expect("table")
                await host.send({"type": "start"})
                self.games.append((table["number"], people))
                tokens = [host.token, guest.token]
                await asyncio.gather(host.play(), guest.play())
                for person in people:
                    await person.close()
            await silent
            await deaf

    async def _never_speaks(self, session: aiohttp.ClientSession) -> None:
        loop = asyncio.get_running_loop()
        began = loop.time()
        async with session.ws_connect(self.url) as socket:
            frame = await socket.receive(timeout=60)
            self.silent = (frame.data, frame.extra, loop.time() - began)

    def _never_answers(self) -> None:
        """Say hello, then never answer: read what comes (the welcome, the server's pings), send nothing back."""
        began = time.monotonic()
        raw = raw_connect(int(self.url.split(":")[2].split("/")[0]), "127.0.0.51")
        with raw:
            raw_send(raw, json.dumps(hello("Deaf")))
            raw.settimeout(120)
            got = b""
            while chunk := raw.recv(65536):
                got += chunk
        self.deaf = (got, time.monotonic() - began)

    def told(self) -> int:
        """How many events the people beside have been told in all."""
        return sum(len(people[0].told) for _, people in list(self.games))


@pytest.fixture(scope="module")
def beside(server: Running) -> Iterator[Beside]:
    playing = Beside(server.url)
    playing.start()
    yield playing
    playing.stopping.set()
    playing.join(timeout=120)


@pytest.fixture
def alongside(beside: Beside) -> Iterator[None]:
    """The game beside goes on through the test: it moved on by the end (waiting up to ten seconds for a move)."""
    before = beside.told()
    yield
    deadline = time.monotonic() + 10
    while beside.told() == before and beside.error is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert beside.error is None, beside.error
    assert beside.told() > before, "the game beside stopped"


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def refused_each(socket: aiohttp.ClientWebSocketResponse, texts: list[str]) -> list[str]:
    """Send each text and return the sentence of the refusal that answers it (one answer to each, a refusal)."""
    sentences = []
    for text in texts:
        await socket.send_str(text)
        frame = await socket.receive(timeout=10)
        assert frame.type is aiohttp.WSMsgType.TEXT, (text[:80], frame)
        server_said(frame.data)  # a refusal of hostile input is still a message of the published schema
        answer = json.loads(frame.data)
        assert answer["type"] == "refused", (text[:80], answer)
        sentences.append(answer["sentence"])
    return sentences


def protocol_says(text: str) -> str:
    """The protocol's own sentence for a client's ``text`` (what the server must answer)."""
    with pytest.raises(ProtocolError) as caught:
        m.decode_from_client(text)
    return str(caught.value)


async def in_batches(server: Running, texts: list[str], network: str, said_hello: bool = True) -> list[str]:
    """Each text's refusal, sent nine to a connection (the tenth refusal in a row would close it), each connection
    from its own address of ``network`` (127.0.N), as many people would send them."""
    sentences = []
    for start in range(0, len(texts), 9):
        async with session_from(f"{network}.{start // 9 + 1}") as session:
            async with session.ws_connect(server.url) as socket:
                name = hello(f"Hostile {network[-3:]} {start}")
                if said_hello:
                    await socket.send_str(json.dumps(name))
                    assert json.loads((await socket.receive(timeout=10)).data)["type"] == "welcome"
                sentences += await refused_each(socket, texts[start:start + 9])
                if not said_hello:
                    await socket.send_str(json.dumps(name))
                    assert json.loads((await socket.receive(timeout=10)).data)["type"] == "welcome"
                await socket.send_str(json.dumps({"type": "ping", "number": start}))  # and it goes on
                assert json.loads((await socket.receive(timeout=10)).data) == {"type": "pong", "number": start}
    return sentences


# --- Malformed JSON, wrong types, unknown types --------------------------------------------------------------------

MALFORMED = [
    ("", NOT_JSON),
    ("   ", NOT_JSON),
    ("null", NOT_JSON),
    ("[]", NOT_JSON),
    ("42", NOT_JSON),
    ('"ping"', NOT_JSON),
    ("true", NOT_JSON),
    ('{"type": "ping", "number": 1,}', NOT_JSON),
    ('{"type": "ping", "number": 1}{"type": "ping", "number": 2}', NOT_JSON),
    ("{'type': 'ping', 'number': 1}", NOT_JSON),
    ('{"type": "ping", "number": 01}', NOT_JSON),
    ('\ufeff{"type": "ping", "number": 1}', NOT_JSON),
    ('{"type": "ping", "number": 1', NOT_JSON),
    ("[" * 30_000 + "]" * 30_000, TOO_DEEP),
    ('{"a":' * 5_000 + "1" + "}" * 5_000, TOO_DEEP),
    ('{"type": "ping", "number": 1' + "0" * 5_000 + "}", TOO_LONG_NUMBER),
    ('{"type": "ping", "number": 1' + "0" * 60_000 + "}", TOO_LONG_NUMBER),
    ('{"type": "ping", "number": 1' + "0" * 30 + "}", TOO_LONG_NUMBER),
    ('{"type": "ping", "number": 0.' + "5" * 40 + "}", TOO_LONG_NUMBER),
    ('{"type": "ping", "type": "ping", "number": 1}', "A message may not give the same field twice."),
    ('{"type": "ping", "number": NaN}', "A message may hold only finite numbers."),
    ('{"type": "ping", "number": Infinity}', "A message may hold only finite numbers."),
    ('{"type": "ping", "number": -Infinity}', "A message may hold only finite numbers."),
    ('{"type": "ping", "number": 1e400}', "The number in the ping message must be a whole number from zero to one"
                                          " million."),
    ('{"type": "ping", "number": "\\ud800"}', "The number in the ping message must be a whole number from zero to one"
                                              " million."),
]


def test_malformed_json_of_every_kind_gets_its_sentence(server: Running, alongside: None) -> None:
    texts = [text for text, _ in MALFORMED]
    got = run(in_batches(server, texts, "127.0.101"))
    assert got == [sentence for _, sentence in MALFORMED]
    assert got == [protocol_says(text) for text in texts]  # the protocol's own words, from the one source


WRONG_VALUES: list[Any] = [None, True, 1.5, -1, 10**30, "", "x" * 400, [], {}, "\x00\u202e", ["person"] * 7]


def _wrong(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """``data`` with each field (and each field of a field that is an object) given each wrong value, left out,
    and with a field too many."""
    for key, value in data.items():
        if key == "type":
            continue
        for wrong in WRONG_VALUES:
            yield {**data, key: wrong}
        if isinstance(value, dict):
            for inner in value:
                for wrong in WRONG_VALUES:
                    yield {**data, key: {**value, inner: wrong}}
            yield {**data, key: {**value, "bogus": 1}}
        yield {k: v for k, v in data.items() if k != key}
    yield {**data, "bogus": 1}
    yield {**data, "x" * 400: 1}
    yield {**data, "\x1b[2J": 1}


def _refused_variants(kinds: set[str]) -> list[str]:
    texts = []
    for example in EXAMPLES:
        if example.type in kinds:
            for variant in _wrong(json.loads(m.encode(example))):
                text = json.dumps(variant)
                with contextlib.suppress(ProtocolError):
                    m.decode_from_client(text)
                    continue  # this one is a valid message after all (a null token, say)
                texts.append(text)
    return list(dict.fromkeys(texts))


def test_a_wrong_type_in_any_field_of_any_message_is_refused_in_the_protocols_words(
        server: Running, alongside: None) -> None:
    before = _refused_variants({"hello"})
    after = _refused_variants(set(m.CLIENT_MESSAGES) - {"hello"})
    assert len(after) > 150 and {json.loads(t)["type"] for t in after} == set(m.CLIENT_MESSAGES) - {"hello"}

    async def go() -> tuple[list[str], list[str]]:
        return (await in_batches(server, before, "127.0.102", said_hello=False),
                await in_batches(server, after, "127.0.103"))

    got_before, got_after = run(go())
    assert got_before == [protocol_says(t) for t in before]
    assert got_after == [protocol_says(t) for t in after]
    for sentence in {*got_before, *got_after}:
        assert sentence.endswith(".") and sentence.isprintable() and len(sentence) <= 300, sentence
        assert "xxxxxxxx" not in sentence and "\x1b" not in sentence  # no more is echoed than a short field name
    assert "The name in the hello message must be from one to twenty-four letters" in " ".join(got_before)
    assert "The leave message has no field called bogus." in got_after
    assert "The leave message has no field called that name." in got_after


def test_every_refusal_of_a_wrong_field_is_one_sentence_that_reads_well() -> None:
    """Checked on the protocol's decoder, which the server answers with word for word (the test above)."""
    sentences = {protocol_says(text) for text in _refused_variants(set(m.CLIENT_MESSAGES))}
    badly = sorted(s for s in sentences if not (s[0].isupper() and s.endswith(".") and ". " not in s
                                                and s.isascii() and s.isprintable()))
    assert badly == []


def test_unknown_types_and_the_servers_own_types_are_refused(server: Running, alongside: None) -> None:
    theirs = sorted(m.SERVER_MESSAGES)
    texts = [json.dumps({"type": kind}) for kind in theirs]
    texts += [json.dumps({"type": kind, "number": 1}) for kind in ("dance", "", "PING", "ping ", "__proto__",
                                                                   "x" * 1000)]
    texts += [json.dumps({"type": kind, "number": 1}) for kind in (5, None, ["ping"], {"ping": 1}, True)]
    texts += ['{"number": 1}']
    got = run(in_batches(server, texts, "127.0.104"))
    article = {kind: "an" if kind[0] in "aeiou" else "a" for kind in theirs}
    assert got[:len(theirs)] == [f"A player does not send {article[k]} {k.replace('_', ' ')} message." for k in theirs]
    assert "A player does not send a chat from message." in got
    assert got[len(theirs):len(theirs) + 6] == ["That type of message is not part of the protocol."] * 6
    assert got[len(theirs) + 6:] == ["A message needs its type, as text."] * 6
    assert got == [protocol_says(t) for t in texts]


def test_before_hello_only_hello_is_answered_and_binary_never(server: Running, alongside: None) -> None:
    """Every well-formed message but hello, sent first, is refused with the same sentence; so is binary data."""
    firsts = [m.encode(e) for e in EXAMPLES if e.type in m.CLIENT_MESSAGES and e.type not in ("hello", "sign_in")]
    got = run(in_batches(server, firsts, "127.0.105", said_hello=False))
    assert got == [HELLO_FIRST] * len(firsts)

    async def binary() -> None:
        async with session_from("127.0.0.105") as session, session.ws_connect(server.url) as socket:
            await socket.send_bytes(json.dumps(hello("Bin")).encode())
            assert json.loads((await socket.receive(timeout=10)).data) == {"type": "refused", "sentence": TEXT_ONLY}
    run(binary())


# --- Huge frames and floods ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("binary", [False, True], ids=["text", "binary"])
def test_a_ten_megabyte_frame_closes_its_connection_and_nothing_else(server: Running, alongside: None,
                                                                       binary: bool) -> None:
    async def go() -> None:
        async with session_from("127.0.0.106") as session, session.ws_connect(server.url) as socket, \
                session.ws_connect(server.url) as neighbour:
            await socket.send_str(json.dumps(hello(f"Huge {binary}")))
            await socket.receive(timeout=10)
            huge = json.dumps({"type": "chat", "text": "x" * 10_000_000})
            with contextlib.suppress(ConnectionError):
                await (socket.send_bytes(huge.encode()) if binary else socket.send_str(huge))
            frame = await socket.receive(timeout=10)
            assert (frame.type, frame.data) == (aiohttp.WSMsgType.CLOSE, 1009), frame
            await neighbour.send_str(json.dumps(hello(f"Neighbour {binary}")))  # the same address is served as before
            assert json.loads((await neighbour.receive(timeout=10)).data)["type"] == "welcome"
    run(go())
    assert server.process.poll() is None


def test_a_thousand_messages_a_second_are_cut_off_and_the_player_comes_back_to_their_game(
        server: Running, alongside: None) -> None:
    flo = NetPlayer("Flo Od", server.url, seed=3, reconnect=True)

    async def go() -> int:
        async with session_from("127.0.0.107") as session:
            await flo.connect(session)
            await flo.send({"type": "create_table", "rules": {"players": 2, "target": 31},
                            "seats": ["person", "easy"], "public": False, "move_limit": None})
            table = await flo.expect("table")
            await flo.send({"type": "start"})
            await flo.expect("view")
            began = asyncio.get_running_loop().time()
            for number in range(1000):  # a thousand in one second, one every millisecond
                await flo.send({"type": "ping", "number": number})
                await asyncio.sleep(max(0.0, began + (number + 1) / 1000 - asyncio.get_running_loop().time()))
            await flo.play()
            number: int = table["number"]
            return number

    number = run(go())
    assert flo.closes[0] == (1008, "Too many messages; slow down.")
    pongs = [json.loads(r.text) for r in flo.got if r.connection == 1 and '"pong"' in r.text]
    assert 30 <= len(pongs) <= 80 and [p["number"] for p in pongs] == list(range(len(pongs))), len(pongs)
    assert flo.connections == 2 and flo.won and flo.mismatches == [] and flo.refusals == []
    _told_is_the_log(server, number, [flo])


def _told_is_the_log(server: Running, number: int, people: list[NetPlayer]) -> Game:
    """The table's game from the store: over, and each person was told its whole log as their seat sees it."""
    folder = Path(server.lines[-2].removeprefix("The server's data is in ").removesuffix("."))
    with Store(folder / STORE_FILE) as store:
        game = store.game(number)
    assert game.over
    for person in people:
        assert person.seat is not None
        assert person.told == [event_to_json(e.seen_by(person.seat)) for e in game.events], person.name
    return game


# --- At the table: other seats' moves, a stolen token, a client that stops reading ---------------------------------

def test_moves_for_every_other_seat_are_refused_and_change_nothing(server: Running, alongside: None) -> None:
    mo, ned = NetPlayer("Mo", server.url, seed=5), NetPlayer("Ned", server.url, seed=6)

    async def go() -> int:
        async with session_from("127.0.0.108") as session:
            await mo.connect(session)
            await mo.send({"type": "create_table", "rules": GAME, "seats": ["person", "easy", "person"],
                           "public": False, "move_limit": None})
            table = await mo.expect("table")
            await ned.connect(session)
            await ned.send({"type": "join", "table": table["code"]})
            await ned.expect("table")
            await mo.send({"type": "start"})
            view = (await mo.expect("view"))["view"]
            mine = view["hand"][:2]
            hidden = [card for card in ("KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH") if card not in view["hand"]][:2]
            moves: list[dict[str, Any]] = [
                {"kind": "discard", "seat": 1, "cards": mine}, {"kind": "discard", "seat": 2, "cards": hidden},
                {"kind": "play", "seat": 1, "card": mine[0]}, {"kind": "play", "seat": 2, "card": hidden[0]},
                {"kind": "go", "seat": 1}, {"kind": "claim", "seat": 2, "points": 29},
                {"kind": "timeout", "seat": 1}, {"kind": "muggins", "seat": 2}, {"kind": "go", "seat": 5}]
            for action in moves:
                await mo.send({"type": "move", "action": action})
            while len(mo.refusals) < len(moves):
                assert await mo.receive() is not None
            assert mo.refusals == [OTHER_SEAT] * len(moves)
            await asyncio.gather(mo.play(), ned.play())
            number: int = table["number"]
            return number

    number = run(go())
    for person in (mo, ned):
        assert person.connections == 1 and person.won and person.mismatches == []
    assert len(mo.refusals) == 9 and ned.refusals == []
    game = _told_is_the_log(server, number, [mo, ned])
    first = [e for e in game.events[:next(i for i, e in enumerate(game.events) if isinstance(e, StarterCut))]
             if isinstance(e, Discarded)]
    assert sorted(e.seat for e in first) == [0, 1, 2]  # each seat laid away once, the first deal...
    sent = [a["action"] for a in ned.sent if a["type"] == "move"]
    assert [str(c) for c in next(e for e in first if e.seat == 2).cards] == sent[0]["cards"]  # ...Ned his own


def test_a_token_used_from_a_second_connection_takes_the_seat_and_the_first_is_closed(
        server: Running, alongside: None) -> None:
    sam, tia = NetPlayer("Sam", server.url, seed=7), NetPlayer("Tia", server.url, seed=8)
    thief = NetPlayer("Whoever", server.url, seed=9)

    async def go() -> tuple[int, dict[str, Any]]:
        async with session_from("127.0.0.109") as session, session_from("127.0.0.110") as elsewhere:
            await sam.connect(session)
            await sam.send({"type": "create_table", "rules": GAME, "seats": ["person", "easy", "person"],
                            "public": False, "move_limit": None})
            table = await sam.expect("table")
            await tia.connect(session)
            await tia.send({"type": "join", "table": table["code"]})
            await tia.expect("table")
            await sam.send({"type": "start"})
            playing = asyncio.create_task(tia.play())
            await sam.play(until=lambda message: message["type"] == "view" and len(sam.told) > 12)
            thief.token = sam.token
            welcome = await thief.connect(elsewhere)  # the token, replayed from another address while Sam is on
            with pytest.raises(Exception, match="Sam"):
                await sam.play()
            await asyncio.gather(thief.play(), playing)
            number: int = table["number"]
            return number, welcome

    number, welcome = run(go())
    assert welcome["name"] == "Sam" and welcome["token"] == sam.token
    assert sam.closes == [(1008, "You connected again from elsewhere.")]
    first = [json.loads(r.text) for r in thief.got[:8]]
    assert first[0]["type"] == "welcome" and "table" in [x["type"] for x in first]
    assert any(x["type"] == "news" and x["since"] == 0 for x in first)  # the whole game so far, then the view
    assert thief.told[:len(sam.told)] == sam.told and thief.seat == sam.seat == 0
    assert thief.won and tia.won and tia.connections == 1
    _told_is_the_log(server, number, [thief, tia])
    heard = [json.loads(r.text)["sentence"] for r in tia.got if '"notice"' in r.text[:20]]
    assert heard == [], heard


def test_a_client_that_stops_reading_holds_up_nobody(server: Running, alongside: None) -> None:
    """Lazy leaves its seat to a computer player, comes back on a connection it never reads (its receive buffer
    tiny), and the game goes on around it at its pace: the host never waits more than a few seconds."""
    host, lazy = NetPlayer("Hana", server.url, seed=10), NetPlayer("Lazy", server.url, seed=11)

    async def go() -> int:
        async with session_from("127.0.0.111") as session:
            await host.connect(session)
            await host.send({"type": "create_table", "rules": {"players": 2, "target": 61},
                             "seats": ["person", "person"], "public": False, "move_limit": None})
            table = await host.expect("table")
            await lazy.connect(session)
            await lazy.send({"type": "join", "table": table["code"]})
            await lazy.expect("table")
            await host.send({"type": "start"})
            await lazy.close()
            await host.play(until=lambda x: x["type"] == "notice" and "lost the connection" in x["sentence"])
            await host.send({"type": "give_seat", "seat": 1, "level": "easy"})
            await host.play(until=lambda x: x["type"] == "notice" and "plays for Lazy" in x["sentence"])
            assert lazy.token is not None
            raw = await asyncio.to_thread(raw_connect, server.port, "127.0.0.112")
            try:
                raw_send(raw, json.dumps(hello("Lazy", lazy.token)))
                await host.play(until=lambda x: x["type"] == "notice" and x["sentence"] == "Lazy is back.")
                await host.play()
            finally:
                raw.close()
            number: int = table["number"]
            return number

    number = run(go())
    times = [r.at for r in host.got]
    assert max(b - a for a, b in itertools.pairwise(times)) < 5
    assert host.won and host.connections == 1
    _told_is_the_log(server, number, [host])


# --- Last: the game beside, and the client that never spoke --------------------------------------------------------

def test_the_games_beside_were_played_to_their_ends_and_the_silent_and_deaf_clients_were_closed(
        server: Running, beside: Beside) -> None:
    deadline = time.monotonic() + 90
    while None in (beside.silent, beside.deaf) and beside.error is None and time.monotonic() < deadline:
        time.sleep(0.2)  # the server waits thirty seconds for a hello, and for a pong fifteen more
    beside.stopping.set()
    beside.join(timeout=120)
    assert not beside.is_alive() and beside.error is None, beside.error
    assert beside.silent is not None
    code, reason, seconds = beside.silent
    assert (code, reason) == (1008, "No hello came in time.") and 29 <= seconds <= 40, beside.silent
    assert beside.deaf is not None
    got, seconds = beside.deaf
    assert got.startswith(b"\x81") and b'"type": "welcome"' in got and got.endswith(b"\x89\x00"), got
    assert 30 <= seconds <= 80, seconds  # pinged after thirty seconds; no pong came, so the server hung up
    assert beside.games
    for number, people in beside.games:
        for person in people:
            assert person.connections == 1 and person.won and person.refusals == [] and person.mismatches == []
        _told_is_the_log(server, number, people)
