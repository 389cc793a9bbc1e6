"""The words of online play said from what the server sends (`audiocrib.online.sayings`)."""

from __future__ import annotations

from audiocrib.engine.rules import Rules
from audiocrib.online.messages import TableState, decode_from_server, encode
from audiocrib.online.sayings import who_is_here
from audiocrib.server.room import Room
from audiocrib.server.store import Store


def test_who_is_here_tells_a_persons_seat_from_a_computer_players_by_the_seat_not_the_name() -> None:
    """A person may be called "Medium": their seat, kept by a medium computer player while they are away, is still
    theirs, and the computer player of its own seat ("Medium 2") is a computer player."""
    with Store(":memory:") as store:
        ann, medium = (store.add_player(name)[0].id for name in ("Ann", "Medium"))
        room = Room.create(store, ann, Rules(players=3), ("person", "person", "medium"))
        room.join(medium)
        room.connected(ann, True)
        room.start(ann)
        room.connected(medium, False)  # only an absent player's seat can be given
        assert isinstance(room.give_seat(ann, 1, "medium"), list)
        state = decode_from_server(encode(room.table_state(ann)))  # type: ignore[arg-type]
        assert isinstance(state, TableState)
        assert [seat.person for seat in state.seats] == [True, True, False]
        said = who_is_here(state)
    assert said.startswith("At table 1: you, the host; Medium, played by a computer player while away; and"
                           " Medium 2, a computer player."), said
