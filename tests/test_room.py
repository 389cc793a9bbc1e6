"""The server's table room, played through `Room` only over a real SQLite file: whole games at every shape of
table, what each person is sent (never a card their seat may not know, never the seed), refusals that store
nothing, a server started again mid-game, and a seat kept by a computer player."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from audiocrib.bots.base import hand_being_counted
from audiocrib.engine.actions import Action, ClaimCount, Discard, Go, Play
from audiocrib.engine.events import HandShown, PlayClaimed, event_to_json
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import score_hand, score_play
from audiocrib.engine.viewcodec import view_to_json
from audiocrib.engine.views import PlayerView
from audiocrib.online.lookback import events_at
from audiocrib.online.messages import (
    Leave,
    Message,
    Move,
    News,
    Notice,
    PastView,
    Start,
    TableState,
    TableSummary,
    ViewOf,
    decode_from_server,
    encode,
)
from audiocrib.online.messages import Seat as SeatState
from audiocrib.server.clocks import SHOW_SECONDS
from audiocrib.server.limits import Limits
from audiocrib.server.room import ALL_SEATED, YOU_WERE_LATE, Outgoing, Room
from audiocrib.server.store import Status, Store
from audiocrib.server.tables import Tables
from tests.test_viewcodec import cards_in, known_by_deal, leaks

NAMES = ("Ann", "Bob", "Cy")


@dataclass
class Person:
    """A person at the table: what they were sent (with the log's length when it was sent) and their last view."""

    id: int
    got: list[tuple[int, Message]] = field(default_factory=list)
    view: PlayerView | None = None
    told: list[Any] = field(default_factory=list)
    """The seat's log as a client keeps it: from whole views and news (a view after a move leaves it out)."""


def deliver(store: Store, room: Room, people: dict[int, Person], out: Outgoing | str) -> None:
    """Send ``out`` over the wire (encoded, then decoded as a client does) to each person it names."""
    assert isinstance(out, list), out
    length = store.length(room.table_id)
    for player_id, message in out:
        received = decode_from_server(encode(message))
        assert received == message
        person = people[player_id]
        person.got.append((length, received))
        if isinstance(received, News):
            person.told[received.since:] = received.events
        if isinstance(received, ViewOf):
            if received.whole:
                person.told = list(received.view.events)
            person.view = dataclasses.replace(received.view, events=tuple(person.told))


def choice(view: PlayerView, rng: random.Random) -> Action | None:
    """The person's move from their own view, or None if nothing is asked of them."""
    seat = view.seat
    if view.must_discard:
        return Discard(seat, tuple(rng.sample(view.hand, view.must_discard)))
    if view.phase is Phase.PLAY and view.turn == seat:
        return Play(seat, rng.choice(view.playable)) if view.playable else Go(seat)
    if view.claiming == seat:
        return ClaimCount(seat, score_play([card for _, card in view.series]).total)
    if view.counting is not None and view.counting[0] == seat:
        cards, starter, crib = hand_being_counted(view)
        total = score_hand(cards, starter, crib).total
        return ClaimCount(seat, max(0, total - rng.choice((0, 0, 1))))  # now and then one short, as people count
    return None


def step(store: Store, room: Room, people: dict[int, Person], rng: random.Random) -> None:
    """One move: a computer player's if one is due, else a due person's, chosen from their view."""
    if room.due_computer() is not None:
        stamp, action = room.computer_move()
        deliver(store, room, people, room.apply_computer(stamp, action))
        return
    due = [p for p in people.values() if p.view is not None and choice(p.view, random.Random(0)) is not None]
    assert due, "the game waits on nobody a person's view names"
    person = rng.choice(due)
    assert person.view is not None
    action = choice(person.view, rng)
    assert action is not None
    deliver(store, room, people, room.move(person.id, action))


def open_table(store: Store, rules: Rules, seats: tuple[str, ...]) -> tuple[Room, dict[int, Person]]:
    """A table set up by Ann, joined by as many people as it has seats for them, connected and started."""
    ids = [store.add_player(name)[0].id for name in NAMES[:seats.count("person")]]
    room = Room.create(store, ids[0], rules, seats)
    people = {i: Person(i) for i in ids}
    for player_id in ids[1:]:
        deliver(store, room, people, room.join(player_id))
    for player_id in ids:
        deliver(store, room, people, room.connected(player_id, True))
    deliver(store, room, people, room.start(ids[0]))
    return room, people


def check_received(game: Game, room: Room, people: dict[int, Person]) -> None:
    """What each person got over the whole game: their seat's log exactly once, in order, and at each moment no
    card their seat could not know then (worked out from the whole log, not from the room) and never the seed."""
    known: dict[tuple[int, int], tuple[list[int], list[set[str]]]] = {}
    moments: dict[int, Game] = {}
    for person in people.values():
        seat = room.seat_of(person.id)
        assert seat is not None
        told: list[Any] | None = None  # the seat's log as the person's client holds it
        for length, message in person.got:
            text = encode(message)
            assert str(game.seed) not in text and '"seed"' not in text
            if isinstance(message, News):
                told = told or []
                assert message.since <= len(told)  # a catch-up may repeat events, news never skips one
                del told[message.since:]
                told.extend(message.events)
                deal_of, cards = known.setdefault((seat, length), known_by_deal(game.events[:length], seat))
                for index, event in enumerate(message.events, start=message.since):
                    assert index < length
                    assert cards_in(event_to_json(event)) <= cards[deal_of[index]], (index, event)
            elif isinstance(message, ViewOf):
                if told is None or message.whole:  # a whole view holds the log so far
                    assert message.whole
                    told = list(message.view.events)
                else:  # after a move: the state alone, its events being the news just sent
                    assert message.view.events == ()
                view = dataclasses.replace(message.view, events=tuple(told))
                moment = moments.setdefault(length, game.at(length))
                assert leaks(moment, seat, view_to_json(view)) == []
                assert view == moment.view(seat)  # the news is exactly what the view added
            else:
                assert cards_in(json.loads(text)) == set()
        assert told is not None and tuple(told) == game.view(seat).events


SHAPES = {
    "two": (Rules(target=61), ("person", "expert")),
    "three, counting by hand": (Rules(players=3, target=61, manual_counting=True), ("person", "person", "medium")),
    "four in teams, pegging by hand, muggins": (
        Rules(players=4, team_size=2, target=61, manual_counting=True, manual_pegging=True, muggins=True),
        ("person", "person", "easy", "beginner")),
    "six in teams": (Rules(players=6, team_size=2, target=61), ("person", "easy", "person", "medium", "person",
                                                                  "expert")),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_whole_game_tells_each_person_only_what_their_seat_may_know(tmp_path: Path, shape: str) -> None:
    rules, seats = SHAPES[shape]
    with Store(tmp_path / "server.sqlite3") as store:
        room, people = open_table(store, rules, seats)
        rng = random.Random(shape)
        while room.playing:
            step(store, room, people, rng)
        assert room.status is Status.OVER and room.due_computer() is None
        game = store.game(room.table_id)
    assert room.game is not None and game.events == room.game.events and game.over
    check_received(game, room, people)
    sent = [type(m) for p in people.values() for _, m in p.got]
    assert sent.count(News) > 20 and TableState in sent


def test_a_refused_move_gets_one_sentence_and_stores_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        room, people = open_table(store, Rules(players=3, target=31), ("person", "person", "easy"))
        ann, bob = people
        stranger, _ = store.add_player("Dee")
        assert room.game is not None
        length = store.length(room.table_id)
        hand = room.game.view(0).hand
        refusals = {
            "another seat": room.move(ann, Discard(1, room.game.view(1).hand[:1])),
            "a stranger": room.move(stranger.id, Discard(0, hand[:1])),
            "nobody": room.move(10**6, Discard(0, hand[:1])),
            "out of turn": room.move(ann, Play(0, hand[0])),
            "not a move": room.move(ann, "discard everything"),  # type: ignore[arg-type]  # hostile on purpose
            "too many": room.move(ann, Discard(0, hand[:3])),
        }
        assert refusals["another seat"] == "You can make moves only for your own seat."
        assert refusals["a stranger"] == refusals["nobody"] == "You are not at this table."
        for sentence in refusals.values():
            assert isinstance(sentence, str) and sentence[0].isupper() and sentence.endswith(".")
            assert "\n" not in sentence and sentence.isascii() and len(sentence) < 200
        assert store.length(room.table_id) == length == len(room.game.events)
        rng = random.Random(3)
        while room.playing:
            step(store, room, people, rng)
        length = store.length(room.table_id)
        assert room.move(ann, Discard(0, hand[:1])) == "The match is over."
        assert room.move(bob, Go(1)) == "The match is over."
        assert room.apply_computer(length, Go(2)) == [] and store.length(room.table_id) == length


def test_a_room_started_again_mid_game_goes_on_to_the_same_log(tmp_path: Path) -> None:
    rules, seats = SHAPES["four in teams, pegging by hand, muggins"]
    first, copy = tmp_path / "server.sqlite3", tmp_path / "copy.sqlite3"
    store = Store(first)
    room, people = open_table(store, rules, seats)
    rng = random.Random(11)
    for _ in range(40):
        step(store, room, people, rng)
    assert room.playing
    with sqlite3.connect(first) as source, sqlite3.connect(copy) as target:
        source.backup(target)  # the file as a server killed now would leave it
    middle, state = store.length(room.table_id), rng.getstate()
    had = {p.id: len([m for _, m in p.got if isinstance(m, News)]) for p in people.values()}
    while room.playing:
        step(store, room, people, rng)
    store.close()
    assert room.game is not None
    whole = room.game.events

    rng.setstate(state)
    again = Store(copy)
    try:
        resumed = Room.load(again, room.table_id)
        assert resumed.game is not None and len(resumed.game.events) == middle and resumed.status is Status.PLAYING
        assert resumed.people() == room.people() and resumed.summary() == TableSummary(
            room.table_id, "Ann", rules, 0, 2, True)
        back = {i: Person(i) for i in people}
        for player_id in back:
            deliver(again, resumed, back, resumed.connected(player_id, True))
            log = resumed.game.view(resumed.seat_of(player_id) or 0).events
            late = resumed.catch_up(player_id, len(log) - 5)
            assert isinstance(late, list) and [m for _, m in late if isinstance(m, News)] == [
                News(len(log) - 5, log[-5:])] and had[player_id]
            deliver(again, resumed, back, resumed.catch_up(player_id, 0))
        for _ in range(10):
            step(again, resumed, back, rng)
        again.close()  # and once more, closed cleanly this time
        again = Store(copy)
        resumed = Room.load(again, room.table_id)
        for player_id in back:
            deliver(again, resumed, back, resumed.catch_up(player_id))
        while resumed.playing:
            step(again, resumed, back, rng)
        assert resumed.game is not None and resumed.game.events == whole
        assert again.game(room.table_id).events == whole
        check_received(again.game(room.table_id), resumed, back)
    finally:
        again.close()


def test_a_seat_given_to_a_computer_player_and_taken_back(tmp_path: Path) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        room, people = open_table(store, Rules(players=3, target=61, manual_counting=True),
                                  ("person", "person", "easy"))
        ann, bob = people
        assert room.give_seat(ann, 1, "medium") == "Bob is here; only an absent player's seat can be given."
        deliver(store, room, people, room.connected(bob, False))
        assert [type(m) for p, m in people[ann].got[-2:]] == [TableState, Notice]
        assert people[ann].got[-1][1] == Notice("Bob has lost the connection; the table waits.")
        assert room.give_seat(bob, 1, "medium") == "Only the host can give a seat to a computer player."
        assert room.give_seat(ann, 2, "medium") == "Only a person's seat can be given to a computer player."
        deliver(store, room, people, room.give_seat(ann, 1, "medium"))
        state = room.table_state(ann)
        assert isinstance(state, TableState)
        assert state.seats == (SeatState("Ann", None, True), SeatState("Bob", "medium", False),
                               SeatState("Easy", "easy", True, person=False))
        assert room.summary().computers == 2
        rng = random.Random(5)
        kept = 0
        while room.playing and kept < 12:  # the computer player makes Bob's moves, counting his hands too
            if room.due_computer() == 1:
                kept += 1
                assert room.game is not None and 1 in room.game.waiting_for()
                view = room.game.view(1)
                action = choice(view, rng)
                assert action is not None
                assert room.move(bob, action) == "A computer player is keeping your seat; take it back first."
            step(store, room, people, rng)
        assert kept == 12
        deliver(store, room, people, room.connected(bob, True))
        out = room.take_seat_back(bob)
        deliver(store, room, people, out)
        assert isinstance(out, list) and (bob, ViewOf(room.game.view(1))) in out
        assert room.take_seat_back(bob) == "No computer player is keeping a seat of yours."
        assert room.summary().computers == 1
        while room.playing:
            assert room.due_computer() in (None, 2)
            step(store, room, people, rng)
        game = store.game(room.table_id)
    assert game.events == room.game.events
    check_received(game, room, people)


def test_a_seat_given_to_a_computer_player_and_the_move_limit_are_kept_over_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    store = Store(path)
    ann, bob = (store.add_player(name)[0].id for name in NAMES[:2])
    room = Room.create(store, ann, Rules(players=3, target=61, manual_counting=True), ("person", "person", "easy"),
                       move_limit=45)
    people = {ann: Person(ann), bob: Person(bob)}
    deliver(store, room, people, room.join(bob))
    deliver(store, room, people, room.connected(ann, True))
    deliver(store, room, people, room.start(ann))
    deliver(store, room, people, room.connected(bob, False))  # only an absent player's seat can be given
    deliver(store, room, people, room.give_seat(ann, 1, "medium"))
    store.close()  # the server is stopped (or killed: the seat was written before anyone heard of it)

    store = Store(path)
    room = Room.load(store, room.table_id)
    assert room.move_limit == 45 and room.computer_at(1) == "medium" and room.summary().computers == 2
    state = room.table_state(ann)
    assert isinstance(state, TableState) and state.move_limit == 45
    assert state.seats[1] == SeatState("Bob", "medium", False)
    people = {ann: Person(ann), bob: Person(bob)}
    deliver(store, room, people, room.connected(ann, True))
    deliver(store, room, people, room.catch_up(ann))
    rng = random.Random(8)
    kept = 0
    while room.playing and kept < 8:  # the computer player goes on making Bob's moves
        if room.due_computer() == 1:
            kept += 1
            assert room.game is not None
            action = choice(room.game.view(1), rng)
            assert action is not None
            assert room.move(bob, action) == "A computer player is keeping your seat; take it back first."
        step(store, room, people, rng)
    assert kept == 8
    deliver(store, room, people, room.connected(bob, True))
    deliver(store, room, people, room.catch_up(bob))
    deliver(store, room, people, room.take_seat_back(bob))
    store.close()

    store = Store(path)
    try:
        room = Room.load(store, room.table_id)
        assert room.computer_at(1) is None and room.summary().computers == 1 and room.move_limit == 45
        assert room.take_seat_back(bob) == "No computer player is keeping a seat of yours."
        people = {ann: Person(ann), bob: Person(bob)}
        for player_id in people:
            deliver(store, room, people, room.connected(player_id, True))
            deliver(store, room, people, room.catch_up(player_id))
        while room.playing:
            assert room.due_computer() in (None, 2)
            step(store, room, people, rng)
        game = store.game(room.table_id)
        assert room.game is not None and game.events == room.game.events
        check_received(game, room, people)
    finally:
        store.close()


def test_joining_leaving_and_starting(tmp_path: Path) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        ann, bob, cy, dee = (store.add_player(name)[0] for name in ("Ann", "Bob", "Cy", "Easy"))
        room = Room.create(store, ann.id, Rules(players=4, team_size=2), ("person", "easy", "person", "person"),
                           public=False, move_limit=60)
        assert room.summary() == TableSummary(room.table_id, "Ann", Rules(players=4, team_size=2), 2, 1, False)
        assert room.start(ann.id) == "Every seat must be taken before the game can start."
        assert room.join(ann.id) == "You are at this table already."
        assert room.join(bob.id, seat=1) == "That seat is not open."
        joined = room.join(bob.id)
        assert isinstance(joined, list) and joined[0][0] == bob.id
        state = joined[0][1]
        assert isinstance(state, TableState) and state.you == 2 and state.code == room.code and state.move_limit == 60
        assert (ann.id, Notice("Bob sits down at the table.")) in joined
        assert room.leave(bob.id) == [(ann.id, room.table_state(ann.id)), (ann.id, Notice("Bob left the table."))]
        assert room.seat_of(bob.id) is None
        assert isinstance(bob_back := room.join(bob.id), list) and (ann.id, ALL_SEATED) not in bob_back
        last = room.join(dee.id)  # the last open seat: the host hears the game can start, and only the host
        assert isinstance(last, list) and [to for to, said in last if said == ALL_SEATED] == [ann.id]
        assert room.join(store.add_player("Fay")[0].id) == f"Table {room.table_id} has no seat open."
        assert room.start(bob.id) == "Only the host can start the game."
        reloaded = Room.load(store, room.table_id)
        assert reloaded.people() == room.people() == [ann.id, bob.id, dee.id]
        assert room.leave(cy.id) == "You are not at this table."
        assert room.join(cy.id) == f"Table {room.table_id} has no seat open."
        assert room.catch_up(cy.id) == "You are not at this table."
        assert isinstance(room.start(ann.id), list)
        assert room.game is not None and room.game.names == ("Ann", "Easy 2", "Bob", "Easy")  # no two alike
        assert room.leave(bob.id) == "The game has begun; your seat is kept for you until the match is over."
        assert room.start(ann.id) == f"Table {room.table_id} has begun already."

        other = Room.create(store, bob.id, Rules(), ("person", "person"))
        assert isinstance(other.join(cy.id), list)
        assert other.leave(bob.id) == [(cy.id, Notice(f"Bob closed table {other.table_id}."))]
        assert other.status is Status.OVER and store.table(other.table_id).status is Status.OVER  # type: ignore[union-attr]


def test_looking_back_shows_a_seat_no_more_than_it_knew(tmp_path: Path) -> None:
    rules, seats = SHAPES["four in teams, pegging by hand, muggins"]
    with Store(tmp_path / "server.sqlite3") as store:
        early_room = Room.create(store, store.add_player("Eve")[0].id, rules, seats)
        assert early_room.look_back(early_room.host, 0, ()) == "The game at this table has not begun."
        room, people = open_table(store, rules, seats)
        stranger, _ = store.add_player("Dee")
        assert room.look_back(stranger.id, 0, ()) == "You are not at a table; join one first."
        rng, looked = random.Random(15), 0
        while room.playing:
            for _ in range(9):
                if room.playing:
                    step(store, room, people, rng)
            game = room.game
            assert game is not None
            length = len(game.events)
            for person in people.values():
                seat = room.seat_of(person.id)
                assert seat is not None
                log = game.view(seat).events  # what the seat has been told, in order
                _, known = known_by_deal(game.events, seat)
                ever_known = set().union(*known)
                told = rng.randint(0, length)
                straight = room.look_back(person.id, told, ())
                assert isinstance(straight, PastView) and straight.view == game.at(told).view(seat)
                assert straight.view.events == log[:told]
                assert leaks(game.at(told), seat, view_to_json(straight.view)) == []
                following = tuple(range(told, min(length, told + 3)))  # heard early: the next events
                past = room.look_back(person.id, told, (*following, *range(told)))  # earlier ones change nothing
                assert isinstance(past, PastView) and past.view == game.at(told + len(following)).view(seat)
                looked += 1
                for early in (following, tuple(rng.sample(range(told, length), min(3, length - told)))):
                    past = room.look_back(person.id, told, early)
                    if isinstance(past, str):  # events that cannot follow there: one sentence, nothing shown
                        assert past == "Those events cannot follow that point of the game."
                        continue
                    assert past.told == told and past.early == early
                    assert past.view.events == (*log[:told], *(log[i] for i in sorted(early)))
                    encoded = view_to_json(past.view)
                    assert cards_in({k: v for k, v in encoded.items() if k != "events"}) <= ever_known
                    assert str(game.seed) not in json.dumps(encoded)
                    assert decode_from_server(encode(past)) == past
                    light = room.look_back(person.id, told, early, light=True)  # its events from the client's log
                    assert isinstance(light, PastView) and not light.whole and light.view.events == ()
                    assert decode_from_server(encode(light)) == light
                    assert dataclasses.replace(light.view, events=events_at(log, told, early)) == past.view
            assert room.look_back(stranger.id, 0, ()) == "You are not at a table; join one first."
        ann = next(iter(people))
        length = len(room.game.events)
        assert room.look_back(ann, length + 1, ()) == (
            f"The game has had only {number_words(length)} events; you cannot look back past them.")
        assert room.look_back(ann, 0, (length,)) == "An event you heard early must be one the game has had."
        assert looked > 10


@pytest.mark.parametrize("timer", [None, 30])
def test_people_who_never_move_are_moved_for_to_the_end_of_the_match(tmp_path: Path, timer: int | None) -> None:
    rules = Rules(target=31, manual_counting=True, manual_pegging=True, count_timer=timer)
    with Store(tmp_path / "server.sqlite3") as store:
        room, people = open_table(store, rules, ("person", "person"))
        names = {room.seat_of(p): store.player(p).name for p in people}  # type: ignore[union-attr]
        while room.playing:
            seat = min(room.people_due())
            if room.people_due() == {seat}:
                assert room.late_move(1 - seat) == []  # only a seat the game waits on
            out = room.late_move(seat)
            notices = [(to, x) for to, x in out if isinstance(x, Notice) and "rating" not in x.sentence]
            late = room.person_at(seat)
            assert notices == [*((p, Notice(f"{names[seat]} took too long; a computer player made the move."))
                                 for p in people if p != late), (late, Notice(YOU_WERE_LATE))]
            assert out[:len(people)] == notices  # told before the move's news
            deliver(store, room, people, out)
        assert room.late_move(0) == []
        game = store.game(room.table_id)
    events = game.events
    shown = [e for e in events if isinstance(e, HandShown)]
    pegged = [e for e in events if isinstance(e, PlayClaimed)]
    assert shown and pegged and all(e.claimed == e.score.total for e in pegged)  # the true points, pegging
    if timer is None:
        assert all(e.claimed is not None and not e.timed_out for e in shown)  # the computer's own count
    else:
        assert all(e.claimed is None and e.timed_out for e in shown)  # a timed count runs out, as its clock's
    check_received(game, room, people)


def test_a_table_whose_match_is_over_is_let_go_and_loaded_again_when_touched(tmp_path: Path) -> None:
    async def play(store: Store) -> tuple[int, list[frozenset[int]]]:
        sent: Outgoing = []

        async def send(out: Outgoing) -> None:
            sent.extend(out)

        tables = Tables(store, Limits(computer_pace=0.0), send, lambda player: True)
        ann = store.add_player("Ann")[0].id
        room = Room.create(store, ann, Rules(target=31), ("person", "easy"))
        tables.add(room)
        other = Room.create(store, ann, Rules(), ("person", "person"))  # a table that stays open beside it
        tables.add(other)
        await tables.act(ann, room.table_id, Start())
        seen, rng = [tables.loaded], random.Random(6)
        while room.playing:
            view = next(x.view for to, x in reversed(sent) if isinstance(x, ViewOf))
            now = dataclasses.replace(room.game.view(0), events=())  # type: ignore[union-attr]
            action = choice(view, rng) if dataclasses.replace(view, events=()) == now else None
            if action is None:
                await asyncio.sleep(0.01)  # the computer player's turn
            else:
                await tables.act(ann, room.table_id, Move(action))
        for _ in range(100):  # the final news sent, the table is let go
            if room.table_id not in tables.loaded:
                break
            await asyncio.sleep(0.01)
        seen.append(tables.loaded)
        assert isinstance(sent[-1][1], ViewOf) and sent[-1][1].view.phase is Phase.MATCH_OVER
        again = tables.room(room.table_id)  # touched: loaded from the store for the one use, not kept
        assert again is not room and again.status is Status.OVER and again.game is not None and again.game.over
        state = again.table_state(ann)
        assert isinstance(state, TableState) and state.seats[0].connected
        assert await tables.act(ann, room.table_id, Leave())  # leaving a table over goes to the lobby at once
        seen.append(tables.loaded)
        return room.table_id, seen

    with Store(tmp_path / "server.sqlite3") as store:
        table, (playing, over, touched) = asyncio.run(play(store))
        other = table + 1
        assert playing == {table, other} and over == touched == {other}
        assert store.table(table).status is Status.OVER  # type: ignore[union-attr]


def test_laying_away_after_a_show_has_time_to_hear_the_show_first(tmp_path: Path) -> None:
    """The move time limit of a lay-away after a show is longer by `SHOW_SECONDS`: the players hear the show and
    the new hand first (the first deal's lay-away has the limit alone)."""
    async def deadlines(store: Store) -> list[float]:
        async def send(out: Outgoing) -> None:
            pass

        tables = Tables(store, Limits(computer_pace=0.0), send, lambda player: True)
        ann, bob = (store.add_player(name)[0].id for name in ("Ann", "Bob"))
        room = Room.create(store, ann, Rules(), ("person", "person"), move_limit=60)
        room.join(bob)
        room.start(ann)
        tables.add(room)
        found = []
        rng = random.Random(3)
        while room.game is not None and room.game.deal_number < 3:
            tables.go(room)
            if room.game.phase is Phase.DISCARD and len(room.people_due()) == 2:
                found.append(min(d.at for d in room.clocks.moves.values()) - time.monotonic())
            seat = min(room.people_due())
            action = choice(room.game.view(seat), rng)
            assert action is not None
            room.move(room.person_at(seat), action)  # type: ignore[arg-type]
        tables.close()
        return found

    with Store(tmp_path / "server.sqlite3") as store:
        first, second, *_ = asyncio.run(deadlines(store))
    assert 55 < first <= 60 and 55 + SHOW_SECONDS < second <= 60 + SHOW_SECONDS


def _whole_view(out: Outgoing | str, player: int) -> ViewOf:
    assert isinstance(out, list), out
    return next(x for to, x in reversed(out) if to == player and isinstance(x, ViewOf))


def test_the_move_and_counting_clocks_go_on_after_a_restart_with_the_time_left(tmp_path: Path) -> None:
    """A server stopped two seconds into a move (and then into a timed count) goes on with what was left, read
    from the store: neither afresh at the full time nor lost (each bound by the times measured around the start,
    the restart and the views, however long a loaded machine takes over them)."""
    path = tmp_path / "server.sqlite3"
    store = Store(path)
    ann, bob = (store.add_player(name)[0].id for name in NAMES[:2])
    rules = Rules(target=61, manual_counting=True, count_timer=40)
    room = Room.create(store, ann, rules, ("person", "person"), move_limit=30)
    room.join(bob)
    before = time.monotonic()  # each person's thirty seconds begin between this and `after`
    started = room.start(ann)
    after = time.monotonic()
    first = _whole_view(started, ann)
    assert first.move_seat == 0 and first.move_ms is not None
    assert 30_000 - (after - before) * 1000 - 1 <= first.move_ms <= 30_000
    time.sleep(2)
    store.close()  # stopped two seconds into the lay-away

    store = Store(path)
    room = Room.load(store, room.table_id)
    asking = time.monotonic()
    view = _whole_view(room.catch_up(ann), ann)
    other = _whole_view(room.catch_up(bob), bob)
    answered = time.monotonic()
    for seen, seat in ((view, 0), (other, 1)):  # less the time gone since the start, restart and all, no more
        assert seen.move_seat == seat and seen.move_ms is not None
        least, most = (before + 30 - answered) * 1000 - 100, (after + 30 - asking) * 1000 + 100
        assert least <= seen.move_ms <= most, (seat, least, seen.move_ms, most)
    rng = random.Random(4)
    moved = time.monotonic()
    while room.count_due() is None:  # lay away and play to the first timed count
        assert room.game is not None
        seat = min(room.people_due())
        action = choice(room.game.view(seat), rng)
        assert action is not None
        moved = time.monotonic()  # the count's forty seconds begin after the last move is made
        assert isinstance(room.move(room.person_at(seat), action), list)  # type: ignore[arg-type]
    deadline = room.count_deadline()
    assert deadline is not None and moved + 40 <= deadline <= time.monotonic() + 40
    time.sleep(2)
    store.close()

    store = Store(path)
    try:
        room = Room.load(store, room.table_id)
        restored = room.count_deadline()
        assert restored is not None  # the same moment as before the restart, however long it took: not afresh
        assert abs(restored - deadline) <= 0.1, (restored, deadline)
    finally:
        store.close()


def test_only_those_who_heard_a_person_was_gone_hear_that_they_are_back(tmp_path: Path) -> None:
    """Cy was not connected when Bob's connection was lost, so Cy is not told Bob is back; Ann, who heard, is.
    A connection back before anyone heard it go is not said at all. (The room is loaded again, as after a
    restart: nobody is connected until their connection comes.)"""
    with Store(tmp_path / "server.sqlite3") as store:
        ann, bob, cy = (store.add_player(name)[0].id for name in NAMES)
        room = Room.create(store, ann, Rules(players=3), ("person", "person", "person"))
        room.join(bob)
        room.join(cy)
        room.start(ann)
        room = Room.load(store, room.table_id)

        def notices(out: Outgoing) -> list[tuple[int, str]]:
            return [(to, x.sentence) for to, x in out if isinstance(x, Notice)]

        for person in (ann, bob):
            assert notices(room.connected(person, True)) == []  # nobody heard either go
        assert notices(room.connected(bob, False)) == [(ann, "Bob has lost the connection; the table waits."),
                                                       (cy, "Bob has lost the connection; the table waits.")]
        assert notices(room.connected(cy, True)) == []  # Cy comes after: Cy's own connection missed that
        back = room.connected(bob, True)
        assert notices(back) == [(ann, "Bob is back.")]
        assert {to for to, x in back if isinstance(x, TableState)} == {ann, cy}  # both see who is connected
        assert notices(room.step_away(cy)) == [(ann, "Cy has left the table for now; the table waits."),
                                               (bob, "Cy has left the table for now; the table waits.")]
        assert notices(room.connected(cy, False)) == []  # the connection closed after: said already
        assert notices(room.connected(cy, True)) == [(ann, "Cy is back."), (bob, "Cy is back.")]


def test_everyone_looking_back_at_the_same_moment_shares_one_replay_of_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a show each person pauses and looks back at the same moment: the game is replayed to it once for the
    table, not once a person (a thousand tabs' shows cost the server that many replays)."""
    rules, seats = SHAPES["four in teams, pegging by hand, muggins"]
    with Store(tmp_path / "server.sqlite3") as store:
        room, people = open_table(store, rules, seats)
        rng = random.Random(26)
        for _ in range(30):
            step(store, room, people, rng)
        game = room.game
        assert game is not None
        replays: list[int] = []
        real_at = Game.at

        def counted(self: Game, n: int, also: Iterable[int] = ()) -> Game:
            replays.append(n)
            return real_at(self, n, also)

        monkeypatch.setattr(Game, "at", counted)
        told = len(game.events) - 5
        for person in people:
            seat = room.seat_of(person)
            assert seat is not None
            past = room.look_back(person, told, ())
            assert isinstance(past, PastView) and past.view == real_at(game, told).view(seat)
        assert replays == [told]
        assert isinstance(room.look_back(next(iter(people)), told - 1, ()), PastView)  # another moment: replayed
        assert replays == [told, told - 1]


def test_computer_players_lay_away_only_once_no_person_can_still_call_muggins(tmp_path: Path) -> None:
    """Anyone's first card laid away closes muggins; a computer player lays away a moment after the deal, long
    before a person has heard the show's counts. So while a person yet to lay away could call muggins, the
    computer players wait for them (as offline, where they lay away after the player's pause)."""
    rules, seats = SHAPES["four in teams, pegging by hand, muggins"]
    rng, held_back, tables = random.Random(28), 0, 0
    while not held_back:  # tables until a computer player's short count could be called (each deal is random)
        tables += 1
        assert tables <= 20, "no computer player counted short against a person in twenty tables"
        with Store(tmp_path / f"server{tables}.sqlite3") as store:
            room, people = open_table(store, rules, seats)
            while room.playing:
                game = room.game
                assert game is not None
                waiting = game.waiting_for()
                if any(room.computer_at(s) is None and game.muggins_open_to(s) for s in waiting):
                    assert room.due_computer() is None
                    held_back += any(room.computer_at(s) is not None for s in waiting)
                step(store, room, people, rng)
