"""Nobody is sent what they may not know, over the network: at every table shape a whole game of people (scripted
network clients) and computer players is played through the real ``audiocrib serve``, every message each person
received is kept, and each is checked against the whole game's log from the server's store: no card of another seat
before it is shown, no undealt card, no crib card before the show, no seed, in any field of any type of message."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from audiocrib.engine.cards import DECK, Card
from audiocrib.engine.events import Dealt, HandShown, MugginsCalled, event_to_json
from audiocrib.engine.game import Game
from audiocrib.engine.viewcodec import view_to_json
from audiocrib.engine.views import watcher_seat
from audiocrib.online.messages import SERVER_MESSAGES
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from tests.netplayers import Moments, NetPlayer, hidden_in, known_at, session_from
from tests.netwatchers import NetWatcher
from tests.test_serve import Running

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="loopback addresses beyond 127.0.0.1"),
    pytest.mark.xdist_group("serve_hidden"),  # one worker plays the module's games (`played`), not each worker
]


@dataclass(frozen=True)
class Shape:
    """A table to play: its id, its rules (besides the target of 61) and its seats, people and computer players."""

    id: str
    rules: dict[str, Any]
    seats: tuple[str, ...]


SHAPES = (
    Shape("2 players", {"players": 2}, ("person", "person")),
    Shape("3 players", {"players": 3}, ("person", "easy", "person")),
    Shape("4 players", {"players": 4}, ("person", "person", "easy", "person")),
    Shape("4 in two teams", {"players": 4, "team_size": 2}, ("person", "person", "easy", "medium")),
    Shape("5 players", {"players": 5}, ("person", "easy", "person", "person", "person")),
    Shape("6 players", {"players": 6}, ("person", "person", "person", "easy", "person", "person")),
    Shape("6 in two teams of three", {"players": 6, "team_size": 3},
          ("person", "person", "easy", "person", "person", "easy")),
    Shape("6 in three teams of two", {"players": 6, "team_size": 2},
          ("person", "person", "person", "easy", "person", "person")),
    Shape("five-card", {"players": 2, "variant": "five-card"}, ("person", "person")),
    Shape("seven-card", {"players": 2, "variant": "seven-card"}, ("person", "person")),
    Shape("manual counting with muggins", {"players": 3, "manual_counting": True, "muggins": True},
          ("person", "easy", "person")),
)
"""Every table shape (partners of a team mix people and computer players: a partner's cards are hidden too)."""


@dataclass
class Played:
    """One shape's game: the table's number, the people (each knows its seat), the game from the store, and its
    watchers: one from the start, one who came mid-game, one who dropped and came back."""

    number: int
    people: list[NetPlayer]
    game: Game
    watchers: list[NetWatcher]


async def _table(shape: Shape, index: int, url: str) -> tuple[int, list[NetPlayer], list[NetWatcher]]:
    """Set the table up (the first person makes it, the others join by its code), start it, play it out, watched
    by three (by the private table's code)."""
    count = shape.seats.count("person")
    # Paced: a two-person table's game, fast, once went over the server's limit of messages (closed, "Too many
    # messages; slow down.") on a busy machine.
    people = [NetPlayer(f"P{index} {n}", url, seed=index * 10 + n, probe=True, pace=10) for n in range(count)]
    async with session_from(f"127.0.0.{10 + index}") as session:
        host, *guests = people
        await host.connect(session)
        await host.send({"type": "create_table", "rules": {**shape.rules, "target": 61}, "seats": list(shape.seats),
                         "public": False, "move_limit": None})
        table = await host.expect("table")
        for guest in guests:
            await guest.connect(session)
            await guest.send({"type": "join", "table": table["code"]})
            await guest.expect("table")
        await host.send({"type": "start"})
        watchers = [NetWatcher(f"P{index} W{n}", url, table["code"], drop_after=30 if n == 2 else None)
                    for n in range(3)]
        for watcher in (watchers[0], watchers[2]):
            await watcher.connect(session)

        async def mid_game() -> None:
            while len(people[0].told) < 12:
                await asyncio.sleep(0.02)
            await watchers[1].connect(session)
            await watchers[1].play()

        await asyncio.gather(*(person.play() for person in people), watchers[0].play(), watchers[2].play(),
                             mid_game())
        for person in [*people, *watchers]:
            await person.close()
    return table["number"], people, watchers


async def _all(url: str) -> list[tuple[int, list[NetPlayer], list[NetWatcher]]]:
    return list(await asyncio.gather(*(_table(shape, i, url) for i, shape in enumerate(SHAPES))))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Played]]:
    """Every shape's game, played at once on one server."""
    folder = tmp_path_factory.mktemp("hidden") / "data"
    server = Running(folder)
    try:
        tables = asyncio.run(_all(server.url))
        with Store(Path(folder) / STORE_FILE) as store:
            yield {shape.id: Played(number, people, store.game(number), watchers)
                   for shape, (number, people, watchers) in zip(SHAPES, tables, strict=True)}
    finally:
        server.stop()


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.id)
def test_no_message_to_a_seat_shows_what_it_may_not_know(shape: Shape, played: dict[str, Played]) -> None:
    table = played[shape.id]
    game = table.game
    assert game.over and game.rules.target == 61
    assert {p.seat for p in table.people} == {i for i, kind in enumerate(shape.seats) if kind == "person"}
    moments = Moments(game)
    for person in table.people:
        assert person.seat is not None and person.won and person.mismatches == []
        assert person.connections == 1
        known = known_at(game, person.seat)
        found = [(number, leak) for number, received in enumerate(person.got)
                 for leak in hidden_in(received.text, moments, person.seat, known, received.length, person.named)]
        assert found == [], (person.name, found[:5])
        assert len(person.told) == len(game.events)  # every event of the game was told, as the seat sees it


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.id)
def test_no_message_to_a_watcher_shows_what_a_watcher_may_not_know(shape: Shape, played: dict[str, Played]) -> None:
    """A watcher from the start, one who came mid-game and one who dropped and came back are each sent every event
    as the watchers' seat sees it (no hand, no crib before it is shown) and nothing more; each move a watcher
    tried was refused; the players heard each watcher was watching once, not again on a return."""
    table = played[shape.id]
    game, seat = table.game, watcher_seat(table.game.rules)
    moments, known = Moments(game), known_at(game, seat)
    for watcher in table.watchers:
        assert watcher.seat == seat and watcher.won and watcher.mismatches == [], watcher.lately()
        found = [(number, leak) for number, received in enumerate(watcher.got)
                 for leak in hidden_in(received.text, moments, seat, known, received.length, watcher.named)]
        assert found == [], (watcher.name, found[:5])
        assert len(watcher.told) == len(game.events)
        assert watcher.refused_move, watcher.refusals
    assert [w.connections for w in table.watchers] == [1, 1, 2]
    first_news = next(json.loads(r.text) for r in table.watchers[1].got if '"type": "news"' in r.text)
    assert first_news["since"] == 0 and len(first_news["events"]) >= 12  # came mid-game: caught up at once
    for person in table.people:
        heard = [json.loads(r.text)["sentence"] for r in person.got if '"type": "notice"' in r.text]
        assert sorted(s for s in heard if s.endswith(" is watching.")) == sorted(
            f"{w.name} is watching." for w in table.watchers), heard


def test_every_type_of_message_was_sent_and_checked(played: dict[str, Played]) -> None:
    """The checks above covered each kind of message the server sends, and moments when cards were hidden."""
    kinds = {r.text.split('"', 4)[3] for t in played.values() for p in t.people for r in p.got}
    # a match's whole log is sent only once it is over, never during a game (tests/test_serve_past_matches.py)
    assert kinds == set(SERVER_MESSAGES) - {"match_record"}, set(SERVER_MESSAGES) - kinds
    for table in played.values():
        for person in table.people:
            assert len(person.probed) == 2, (person.name, person.refusals)  # two cards it could not know
            assert person.refusals[:2] == [sentence for _, sentence in person.probed]


def test_a_refused_card_is_answered_the_same_wherever_it_lies(played: dict[str, Played]) -> None:
    """Laying a card one does not hold is refused in the same words whether another seat holds it, it is in the
    crib or it was never dealt: the refusal tells nothing of where it is."""
    sentences = {sentence.replace(f"the {Card.parse(card).name}", "the CARD") for t in played.values()
                 for p in t.people for card, sentence in p.probed}
    assert sentences == {"You do not hold the CARD."}, sentences
    where = set()
    for table in played.values():
        for person in table.people:
            deal = next(e for e in reversed(table.game.events[:person.probed_at]) if isinstance(e, Dealt))
            held = {str(c) for seat, hand in enumerate(deal.hands) if seat != person.seat for c in hand}
            where |= {card in held for card, _ in person.probed}
    assert where == {True, False}  # cards in other hands and cards not dealt (or in the crib) were both tried


def test_manual_counts_and_muggins_were_played_between_people(played: dict[str, Played]) -> None:
    game = played["manual counting with muggins"].game
    people = {p.seat for p in played["manual counting with muggins"].people}
    claimed = [e for e in game.events if isinstance(e, HandShown) and e.seat in people]
    assert claimed and all(e.claimed is not None for e in claimed)
    assert any(e.claimed is not None and e.claimed < e.score.total for e in claimed)  # a short count, given away
    last_deal = max(i for i, e in enumerate(game.events) if isinstance(e, Dealt))
    computers_short = [e for e in game.events[:last_deal] if isinstance(e, HandShown) and e.seat not in people
                       and e.claimed is not None and e.claimed < e.score.total]  # short, and a deal came after
    called = [e for e in game.events if isinstance(e, MugginsCalled)]
    assert {e.seat for e in called} <= people and {e.offender for e in called}.isdisjoint(people)
    assert len(called) >= len(computers_short), (computers_short, called)  # the people called each one


def test_the_check_finds_each_kind_of_leak_put_into_a_real_message(played: dict[str, Played]) -> None:
    """The check is not blind: the first deal written whole into news, another hand into a view, an undealt card
    named in a notice, and the seed in a chat line are each found."""
    table = played["3 players"]
    person, game = table.people[0], table.game
    assert person.seat is not None
    moments, known = Moments(game), known_at(game, person.seat)
    dealt = next(i for i, e in enumerate(game.events) if isinstance(e, Dealt))
    news = json.dumps({"type": "news", "since": dealt, "events": [event_to_json(game.events[dealt])]})
    assert any("shows" in leak for leak in hidden_in(news, moments, person.seat, known, dealt + 1, set()))
    view = moments(dealt + 1).view(person.seat)
    other = moments(dealt + 1).hand((person.seat + 1) % 3)
    shown = json.dumps({"type": "view", "view": view_to_json(dataclasses.replace(view, hand=other)), "whole": True})
    assert hidden_in(shown, moments, person.seat, known, dealt + 1, set())
    stock = next(c for c in DECK if str(c) not in known[dealt])
    notice = json.dumps({"type": "notice", "sentence": f"The starter will be the {stock.name}."})
    named = hidden_in(notice, moments, person.seat, known, dealt + 1, set())
    assert named == [f"a notice message names {[stock.name]}"]
    assert hidden_in(notice, moments, person.seat, known, dealt + 1, {str(stock)}) == []  # one it named itself
    chat = json.dumps({"type": "chat_from", "sender": "Eve", "text": f"deal {game.seed}"})
    assert hidden_in(chat, moments, person.seat, known, dealt + 1, set()) == ["the seed"]
