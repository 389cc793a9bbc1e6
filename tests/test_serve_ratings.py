"""Ratings with a real server process on loopback: matches of two players, of teams and of three played to the end
by scripted people over the protocol, each person's rating then what openskill's Plackett-Luce model says of those
matches (worked out here, independently of the server's own code), told to each at the match's end, kept over a
restart, and the same when rebuilt from the stored matches; a match against computer players only, and tables
closed by their host or by the operator, move nothing; the leaderboard and a rating asked for; and every hostile
value in the new messages refused in one sentence."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from openskill.models import PlackettLuce

from audiocrib.engine.events import GameWon, MatchWon, event_from_json
from audiocrib.engine.rules import Rules
from audiocrib.online.messages import Notice, decode_from_server
from audiocrib.server import ratings
from audiocrib.server.serve import STORE_FILE
from tests.test_cli_hostile import PROGRAM
from tests.test_serve import Client, Running, ask, hello, refused, serving, until

pytestmark = pytest.mark.slow

Socket = aiohttp.ClientWebSocketResponse


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    running = Running(tmp_path_factory.mktemp("rated") / "data")
    yield running
    if running.process.poll() is None:
        running.stop()


TOKENS: dict[tuple[Path, str], str] = {}
"""Each name's token, by the data folder of the server that gave it: a server started again on that folder
knows it, and another server that listens on the same port later (the system gives ports again) does not."""


async def login(socket: Socket, name: str, server: Running) -> None:
    welcome = await ask(socket, hello(name, TOKENS.get((server.folder, name))))
    assert welcome["type"] == "welcome", welcome
    TOKENS[server.folder, name] = welcome["token"]


async def play_match(server: Running, names: list[str], seats: tuple[str, ...], rules: dict[str, Any],
                     public: bool = True) -> tuple[int, dict[str, Client]]:
    """``names`` (the people, the first the host) sit at a new table of ``seats`` and play it to the end: the
    table's number, and each person's `Client` (what they were sent)."""
    clients = {name: Client() for name in names}
    async with aiohttp.ClientSession() as session:
        sockets = [await session.ws_connect(server.url) for _ in names]
        try:
            for name, socket in zip(names, sockets, strict=True):
                await login(socket, name, server)
            table = await ask(sockets[0], {"type": "create_table", "rules": rules, "seats": list(seats),
                                           "public": public, "move_limit": None})
            number = table["number"]
            for socket in sockets[1:]:  # a private table by its code
                assert (await ask(socket, {"type": "join", "table": table["code"] or str(number)}))["type"] == "table"
            await sockets[0].send_str(json.dumps({"type": "start"}))
            await asyncio.wait_for(asyncio.gather(*(clients[name].play(socket) for name, socket in
                                                    zip(names, sockets, strict=True))), 120)
            for name, socket in zip(names, sockets, strict=True):  # the notices after the last news
                await drain(socket, clients[name])
        finally:
            for socket in sockets:
                await socket.close()
    return number, clients


async def drain(socket: Socket, client: Client, quiet: float = 1.0) -> None:
    """Keep what comes until nothing has come for ``quiet`` seconds."""
    while True:
        try:
            frame = await socket.receive(timeout=quiet)
        except TimeoutError:
            return
        if frame.type is not aiohttp.WSMsgType.TEXT:
            return
        client.got.append((client.length, decode_from_server(frame.data)))


def store_of(running: Running) -> Path:
    return Path(running.lines[-2].removeprefix("The server's data is in ").rstrip(".")) / STORE_FILE


def expected_ratings(path: Path) -> dict[str, tuple[float, float, int]]:
    """Each person's (mu, sigma, rated matches) as openskill rates the stored matches won, in the order they ended
    (the matches' shapes, sides and ranks worked out here from the rows, not by the server's module)."""
    model = PlackettLuce()
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        found: dict[str, tuple[float, float, int]] = {}
        for (table,) in db.execute("SELECT table_id FROM endings WHERE how = 'won' ORDER BY seq").fetchall():
            rules = Rules.from_json(json.loads(db.execute("SELECT rules FROM tables WHERE id = ?",
                                                          (table,)).fetchone()[0]))
            seats = db.execute("SELECT p.name FROM seats s LEFT JOIN players p ON p.id = s.player WHERE"
                               " s.table_id = ? ORDER BY s.seat", (table,)).fetchall()
            events = [event_from_json(json.loads(text)) for (text,) in db.execute(
                "SELECT event FROM events WHERE table_id = ? ORDER BY idx", (table,))]
            won = next(e for e in reversed(events) if isinstance(e, MatchWon))
            last = next(e for e in reversed(events) if isinstance(e, GameWon))
            sides = [(side, [seats[s][0] for s in rules.seats_of(side) if seats[s][0] is not None])
                     for side in range(rules.sides)]
            sides = [(side, people) for side, people in sides if people]
            if len(sides) < 2:
                continue
            order = sorted({(side == won.side, won.match_scores[side], last.scores[side]) for side, _ in sides},
                           reverse=True)
            ranks = [order.index((side == won.side, won.match_scores[side], last.scores[side])) + 1
                     for side, _ in sides]
            teams = [[model.rating(mu=found[p][0], sigma=found[p][1]) if p in found else model.rating()
                      for p in people] for _, people in sides]
            for (_, people), team in zip(sides, model.rate(teams, ranks=ranks), strict=True):
                for person, rating in zip(people, team, strict=True):
                    found[person] = (rating.mu, rating.sigma, found.get(person, (0, 0, 0))[2] + 1)
        return found
    finally:
        db.close()


def kept_ratings(path: Path) -> dict[str, tuple[float, float, int]]:
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        return {name: (mu, sigma, matches) for name, mu, sigma, matches in db.execute(
            "SELECT p.name, r.mu, r.sigma, r.matches FROM ratings r JOIN players p ON p.id = r.player")}
    finally:
        db.close()


async def asked(server: Running, name: str, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """``name`` connects, asks each of ``messages`` in turn, and returns the answers."""
    async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket:
        await login(socket, name, server)
        return [await ask(socket, message) for message in messages]


def rating_notices(client: Client) -> list[str]:
    return [message.sentence for _, message in client.got
            if isinstance(message, Notice) and "rating" in message.sentence]


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Running]:
    """A server of the test's own: the test stops it, and counts every rated player and match on it."""
    yield from serving(tmp_path / "data")


def test_ratings_move_as_openskill_says_for_two_players_teams_and_three_and_survive_a_rebuild_and_a_restart(
        own_server: Running) -> None:
    server = own_server
    path = store_of(server)
    shapes = [(["Ann", "Bob"], ("person", "person"), {"players": 2, "target": 31}),
              (["Ann", "Cy", "Bob", "Di"], ("person", "person", "person", "person"),
               {"players": 4, "team_size": 2, "target": 31}),
              (["Bob", "Cy", "Di"], ("person", "person", "person"), {"players": 3, "target": 31})]
    heard: list[dict[str, Client]] = []
    for names, seats, rules in shapes:
        before = {name: kept_ratings(path).get(name) for name in names}
        _, clients = asyncio.run(play_match(server, names, seats, rules))
        heard.append(clients)
        after = kept_ratings(path)
        assert after == pytest.approx(expected_ratings(path), abs=0)  # exactly what openskill says
        for name in names:  # each person heard how theirs moved, once, at the end
            earlier = before[name]
            was = ratings.shown(earlier[0], earlier[1]) if earlier else 1000
            now = ratings.shown(*after[name][:2])
            way = "stays at" if now == was else f"went {'up' if now > was else 'down'} from {was:,} to"
            assert rating_notices(clients[name]) == [f"Your rating {way} {now:,}."], name
    assert {name: kept[2] for name, kept in kept_ratings(path).items()} == {"Ann": 2, "Bob": 3, "Cy": 2, "Di": 2}

    # the leaderboard and a rating over the protocol, as kept
    top, own, bobs, nobody = asyncio.run(asked(server, "Eve", {"type": "top_players"}, {"type": "rating"},
                                               {"type": "rating", "name": "bob"}, {"type": "rating", "name": "Zed"}))
    # the server's order: the rating's ordinal, then more matches, then the name; equal ratings share a place
    in_order = sorted(kept_ratings(path).items(), key=lambda kept: (-(kept[1][0] - 3 * kept[1][1]), -kept[1][2],
                                                                   kept[0].casefold()))
    shown = [(ratings.shown(mu, sigma), name, matches) for name, (mu, sigma, matches) in in_order]
    places = [1 + sum(1 for other in shown if other[0] > r[0]) for r in shown]
    assert [(p["name"], p["rating"], p["matches"]) for p in top["players"]] == [(n, r, c) for r, n, c in shown]
    assert top["rated"] == 4 and top["you"] is None and [p["place"] for p in top["players"]] == places
    assert own == {"type": "rating_of", "name": "Eve", "rating": 1000, "matches": 0, "place": None, "before": None,
                   "rated": 4}
    bob = next(r for r in shown if r[1] == "Bob")
    assert (bobs["name"], bobs["rating"], bobs["matches"], bobs["place"]) == ("Bob", bob[0], 3,
                                                                                places[shown.index(bob)])
    assert refused(nobody) == "There is no player called Zed on this server."

    # checked against a rebuild while running; rebuilt with the server stopped; kept over a restart
    kept = kept_ratings(path)
    checked = subprocess.run([str(PROGRAM), "admin", "ratings", "--data-dir", str(path.parent)], capture_output=True,
                             text=True, timeout=60)
    assert checked.returncode == 0 and checked.stdout.startswith("The ratings of 4 players are the ones the 3"), checked
    refusal = subprocess.run([str(PROGRAM), "admin", "rebuild-ratings", "--data-dir", str(path.parent)],
                             capture_output=True, text=True, timeout=60)
    assert refusal.returncode == 1 and "Stop the server first" in refusal.stderr
    server.stop()
    rebuilt = subprocess.run([str(PROGRAM), "admin", "rebuild-ratings", "--data-dir", str(path.parent)],
                             capture_output=True, text=True, timeout=60)
    assert rebuilt.stdout == "Rebuilt the ratings of 4 players from the 3 matches won; nobody had another rating" \
        " before.\n", rebuilt
    assert kept_ratings(path) == kept
    again = Running(path.parent)  # Eve's token is the one she had: the same data folder
    try:
        (top_again,) = asyncio.run(asked(again, "Eve", {"type": "top_players"}))
        assert top_again == top
    finally:
        again.stop()


def test_a_rebuild_puts_right_a_rating_that_is_wrong(tmp_path: Path) -> None:
    """A kept rating changed by hand is found by admin ratings, and rebuild-ratings puts it back."""
    running = Running(tmp_path / "data")
    path = store_of(running)
    try:
        asyncio.run(play_match(running, ["Ann", "Bob"], ("person", "person"),
                               {"players": 2, "target": 31}))
    finally:
        running.stop()
    right = kept_ratings(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE ratings SET mu = mu + 1 WHERE player = (SELECT id FROM players WHERE name = 'Bob')")
    db.commit()
    db.close()
    checked = subprocess.run([str(PROGRAM), "admin", "ratings", "--data-dir", str(path.parent)], capture_output=True,
                             text=True, timeout=60)
    assert checked.stdout.startswith("Of 2 players rated, one has a rating other than the stored matches give"), checked
    rebuilt = subprocess.run([str(PROGRAM), "admin", "rebuild-ratings", "--data-dir", str(path.parent)],
                             capture_output=True, text=True, timeout=60)
    assert rebuilt.stdout.endswith("one player had another rating before.\n"), rebuilt
    assert kept_ratings(path) == right


def test_computer_players_only_and_tables_closed_move_nothing(tmp_path: Path) -> None:
    running = Running(tmp_path / "data")
    path = store_of(running)
    url = running.url
    try:
        number, clients = asyncio.run(play_match(running, ["Ann"], ("person", "easy"),
                                                 {"players": 2, "target": 31}))
        assert clients["Ann"].won and rating_notices(clients["Ann"]) == []

        async def closed() -> tuple[int, int]:
            async with aiohttp.ClientSession() as session, session.ws_connect(url) as ann, \
                    session.ws_connect(url) as bob:
                await login(ann, "Ann", running)
                await login(bob, "Bob", running)
                first = await ask(ann, {"type": "create_table", "rules": {"players": 2, "target": 31},
                                        "seats": ["person", "person"], "public": True, "move_limit": None})
                await ask(bob, {"type": "join", "table": str(first["number"])})
                await until(ann, "notice")  # every seat is taken
                await ann.send_str(json.dumps({"type": "leave"}))  # the host closes the table before it starts
                await until(ann, "lobby_list")
                await until(bob, "notice")  # that Ann closed it
                await ann.send_str(json.dumps({"type": "create_table", "rules": {"players": 2, "target": 31},
                                               "seats": ["person", "person"], "public": True, "move_limit": None}))
                second = await until(ann, "table")
                await ask(bob, {"type": "join", "table": str(second["number"])})
                await until(ann, "notice")
                await ann.send_str(json.dumps({"type": "start"}))
                ann_plays, bob_plays = Client(), Client()
                await asyncio.gather(ann_plays.play(ann, views=4), bob_plays.play(bob, views=4))
                return first["number"], second["number"]

        first, second = asyncio.run(closed())
        done = subprocess.run([str(PROGRAM), "admin", "close", str(second), "--data-dir", str(path.parent)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        try:
            endings = db.execute("SELECT table_id, how FROM endings ORDER BY seq").fetchall()
            assert db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0] == 0
        finally:
            db.close()
        assert endings == [(number, "won"), (first, "closed"), (second, "closed")]
        (own,) = asyncio.run(asked(running, "Ann", {"type": "rating"}))
        assert (own["rating"], own["matches"], own["place"]) == (1000, 0, None)
    finally:
        running.stop()


HOSTILE: list[tuple[Any, str]] = [
    ({"type": "top_players", "page": 2}, ""),
    ({"type": "rating", "name": 5}, ""),
    ({"type": "rating", "name": "\u202eAnn"}, ""),
    ({"type": "rating", "name": "x" * 300}, ""),
    ({"type": "rating", "name": "Nobody Here"}, "There is no player called Nobody Here on this server."),
    ({"type": "top_players_list", "players": [], "you": None, "rated": 0}, "A player does not send a top players"
     " list message."),
    ({"type": "rating_of"}, "A player does not send a rating of message."),
]


def test_hostile_values_in_the_rating_messages_are_refused_in_one_sentence(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket:
            assert refused(await ask(socket, {"type": "top_players"})) == "Say hello first: the first message on a" \
                " connection is hello."
            await login(socket, "Hal", server)
            for message, sentence in HOSTILE:
                said = refused(await ask(socket, message))
                assert said.isascii() and said.endswith(".") and said.count(". ") == 0, said
                if sentence:
                    assert said == sentence
            assert (await ask(socket, {"type": "rating"}))["type"] == "rating_of"  # and the connection goes on

    asyncio.run(go())


def test_a_seat_kept_by_a_computer_player_counts_for_its_person_who_hears_the_change_when_back(
        server: Running) -> None:
    url, path = server.url, store_of(server)

    async def go() -> list[Any]:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url) as ann:
                async with session.ws_connect(url) as bob:
                    await login(ann, "Kay", server)
                    await login(bob, "Lou", server)
                    table = await ask(ann, {"type": "create_table", "rules": {"players": 2, "target": 31},
                                            "seats": ["person", "person"], "public": True, "move_limit": None})
                    await ask(bob, {"type": "join", "table": str(table["number"])})
                    await until(ann, "notice")
                    await ann.send_str(json.dumps({"type": "start"}))
                    await asyncio.gather(Client().play(ann, views=2), Client().play(bob, views=2))
                await until(ann, "notice")  # Lou has lost the connection
                await ann.send_str(json.dumps({"type": "give_seat", "seat": 1, "level": "easy"}))
                # the whole view again: the game may wait on Kay, whose view the last Client read
                await ann.send_str(json.dumps({"type": "join", "table": str(table["number"])}))
                kay = Client()
                await kay.play(ann)
                assert kay.won
            async with session.ws_connect(url) as back:
                await login(back, "Lou", server)
                lou = Client()
                await drain(back, lou)
                return [message for _, message in lou.got]

    heard = asyncio.run(go())
    kept = kept_ratings(path)
    assert kept["Lou"][2] == 1 and kept == pytest.approx(expected_ratings(path), abs=0)
    lou = ratings.shown(kept["Lou"][0], kept["Lou"][1])
    moved = [m.sentence for m in heard if isinstance(m, Notice) and "rating" in m.sentence]
    assert moved == [f"Your rating went {'up' if lou > 1000 else 'down'} from 1,000 to {lou:,}."], heard


def test_a_file_from_before_ratings_is_rated_as_it_is_brought_up_to_date(tmp_path: Path) -> None:
    """Matches won before version 9 are given their endings in order and rated when the file is opened."""
    import random

    from audiocrib.server.room import Room
    from audiocrib.server.schema import SCHEMA_VERSION
    from audiocrib.server.store import Store
    from tests.helpers import random_action

    path = tmp_path / "server.sqlite3"
    with Store(path) as store:
        people = [store.add_player(name)[0] for name in ("Ann", "Bob", "Cy")]
        rng = random.Random(5)
        for seated in ((0, 1), (1, 2, 0), (2, 0)):
            room = Room.create(store, people[seated[0]].id, Rules(players=len(seated), target=31),
                               ("person",) * len(seated))
            for other in seated[1:]:
                room.join(people[other].id)
            room.start(people[seated[0]].id)
            assert room.game is not None
            while not room.game.over:
                action = random_action(room.game, rng)
                assert isinstance(room.move(people[seated[action.seat]].id, action), list)
        closed = Room.create(store, people[0].id, Rules(), ("person", "person"))
        closed.leave(people[0].id)
        right = ratings.kept(store.reading)
        order = store.reading.execute("SELECT table_id, how FROM endings ORDER BY seq").fetchall()
    db = sqlite3.connect(path)  # as a file of version 8 was: no endings, no ratings
    db.executescript("DROP INDEX ratings_order; DROP TABLE ratings; DROP TABLE endings; PRAGMA user_version = 8;")
    db.close()
    with Store(path) as store:
        assert store.reading.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 9
        assert store.reading.execute("SELECT table_id, how FROM endings ORDER BY seq").fetchall() == order
        assert ratings.kept(store.reading) == right and len(right) == 3


def test_the_lobby_says_a_hosts_new_rating_at_the_table_they_host_when_a_match_of_theirs_ends() -> None:
    import random

    from audiocrib.server.lobby import Board
    from audiocrib.server.room import Room
    from audiocrib.server.store import Store
    from tests.helpers import random_action

    store = Store(":memory:")
    board = Board(store)
    ann, bob = store.add_player("Ann")[0], store.add_player("Bob")[0]
    waiting = Room.create(store, ann.id, Rules(), ("person", "person"))  # Ann's table, waiting in the lobby
    room = Room.create(store, bob.id, Rules(target=31), ("person", "person"))
    room.join(ann.id)
    room.start(bob.id)
    assert [t.host_rating for t in board.page(1).tables if t.number == waiting.table_id] == [None]
    rng = random.Random(4)
    assert room.game is not None
    while not room.game.over:
        action = random_action(room.game, rng)
        assert isinstance(room.move((bob, ann)[action.seat].id, action), list)
    rated = ratings.rating_of(store.reading, ann.id)
    assert rated is not None
    assert [t.host_rating for t in board.page(1).tables if t.number == waiting.table_id] == [rated]
