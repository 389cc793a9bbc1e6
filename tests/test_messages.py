"""The online protocol's messages: each comes back equal, and hostile text only ever gets one ProtocolError sentence."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audiocrib.bots.levels import LEVELS
from audiocrib.engine.actions import ClaimCount, Discard, Play
from audiocrib.engine.cards import Card, parse_cards
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules, Variant
from audiocrib.online import matches as pm
from audiocrib.online import messages as m
from audiocrib.online import ratings as r
from audiocrib.online.fields import COMPUTER_LEVELS, ProtocolError
from audiocrib.online.jsontext import TOO_DEEP, TOO_LONG_NUMBER
from audiocrib.online.watching import StopWatching, Watch, Watchers, WatchersLeave, WatchSettings
from tests.helpers import random_action


def a_game() -> Game:
    game = Game(Rules(players=3, target=61), names=("Ann", "Bob", "Cy"), seed=11)
    rng = random.Random(2)
    for _ in range(12):
        game.apply(random_action(game, rng))
    return game


GAME = a_game()
ROOM_LIFE_EXAMPLES: list[m.Message] = [
    r.AskTopPlayers(), r.AskRating(), r.AskRating("Bob"),
    r.TopPlayers((r.RatedPlayer(1, "Ann", 1069, 1), r.RatedPlayer(2, "Bob", 963, 1)), r.RatedPlayer(2, "Bob", 963, 1),
                 2),
    r.RatingOf("Ann", 1000, 0, None, None, 0), r.RatingOf("Bob", 963, 1, 2, 1000, 2),
    pm.AskPastMatches(), pm.AskPastMatches(2), pm.AskPastMatches(1, 12), pm.AskMatchLog(12),
    pm.PastMatchList((pm.PastMatchSummary(12, 1_790_000_000, Rules(), ("Ann", "Bob"), 1, 0, (1, 0), (121, 97)),), 1, 1),
    pm.MatchLog(12, 1_790_000_000, GAME.rules, tuple(GAME.names), GAME.rules.players, (0,), True, GAME.events),
    m.Lobby((m.TableSummary(4, "Ann", Rules(), 1, 0, False, host_rating=1069),), 0, ("Ann",)),
]
"""The messages of the room's life (`audiocrib.online.ratings`, `audiocrib.online.matches`)."""
TOKEN = "q" * 20 + "-_AZ09"
EXAMPLES: list[m.Message] = [
    m.Hello("Ann O'Neil", None, None, 1),
    m.Hello("Zoë", TOKEN, "open sesame", 1),
    m.AskLobby(),
    m.CreateTable(Rules(players=4, team_size=2), ("person", "expert", "person", "easy"), True, None),
    m.CreateTable(Rules(variant=Variant.FIVE_CARD, manual_counting=True, count_timer=30), ("person", "person"),
                  False, 120),
    m.CreateTable(Rules(), ("person", "person"), True, None, advice=True),
    m.Join("4"),
    m.Join("BLUE-FOX-7"),
    m.Leave(),
    m.Start(),
    m.Move(Play(1, Card.parse("7C"))),
    m.Move(Discard(0, parse_cards("5H 5D"))),
    m.Move(ClaimCount(2, 12)),
    m.Chat("Good luck, <b>all</b> & <script>alert(1)</script>!"),
    m.Who(),
    m.GiveSeat(2, "medium"),
    m.TakeSeatBack(),
    m.Ping(41),
    m.LookBack(0, ()),
    m.LookBack(120, (131, 140)),
    m.LookBack(7, (9,), light=True),
    m.Moderate("mute", "Bob", 30, "Shouting at the table."),
    m.Moderate("ban", "Bob", None, "Back after a week's mute, shouting again."),
    m.Moderate("close", "12", None, "A table of one name playing itself."),
    m.Mute("Bob"),
    m.Unmute("Bob"),
    m.Welcome("Ann", TOKEN, 1),
    m.Welcome("Ann", TOKEN, 1, light=True),
    m.Refused("It is Bob's turn to play."),
    m.Lobby((m.TableSummary(4, "Ann", Rules(players=4, team_size=2), 2, 1, False),), 0, ("Ann", "Bob")),
    m.Lobby((), 250, ()),
    m.Lobby((m.TableSummary(5, "Bob", Rules(), 1, 0, False, advice=True),), 0, ()),
    m.TableState(4, "BLUE-FOX-7", 0, 1, Rules(players=3),
                 (m.Seat("Ann", None, True), m.Seat(None, None, False), m.Seat("Bob", "easy", False)), False, 60),
    m.TableState(5, None, 0, 0, Rules(), (m.Seat("Ann", None, True), m.Seat("Easy", "easy", True, person=False)),
                 True, None, advice=True),
    m.TableState(6, None, 0, 2, Rules(), (m.Seat("Ann", None, True), m.Seat("Easy", "easy", True, person=False)),
                 True, None, watch=Watchers(("Dan",), True, False)),  # a watcher's: one past the last seat
    m.ViewOf(GAME.view(1)),
    m.ViewOf(GAME.view(1), 14_250),
    m.ViewOf(dataclasses.replace(GAME.view(1), events=()), None, False),
    m.PastView(5, (), GAME.at(5).view(1)),
    m.PastView(5, (), dataclasses.replace(GAME.at(5).view(1), events=()), whole=False),
    m.News(5, GAME.view(2).events[5:]),
    m.ChatFrom("Bob", "gg"),
    m.Notice("Bob left the table; his seat waits for him."),
    m.Pong(41),
    m.SignIn("Ann", None, None, 1, "correct horse battery"),
    m.AskAccount(),
    m.SetPassword(None, "correct horse battery"),
    m.SignOutEverywhere(),
    m.AccountState("Ann", True, TOKEN, "Your password is changed."),
    Watch("4"),
    Watch("K7D3M9"),
    StopWatching(),
    WatchersLeave(),
    WatchSettings(False, True),
    *ROOM_LIFE_EXAMPLES,
]


def test_every_message_type_has_an_example() -> None:
    assert {e.type for e in EXAMPLES} == set(m.CLIENT_MESSAGES) | set(m.SERVER_MESSAGES)
    assert not set(m.CLIENT_MESSAGES) & set(m.SERVER_MESSAGES)


def test_the_computer_levels_are_the_bots_levels() -> None:
    assert COMPUTER_LEVELS == tuple(LEVELS)


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda e: e.type)
def test_each_message_comes_back_equal(message: m.Message) -> None:
    text = m.encode(message)
    assert text.isascii() and json.loads(text)["type"] == message.type
    assert m.decode(text) == message
    side = m.decode_from_client if message.type in m.CLIENT_MESSAGES else m.decode_from_server
    assert side(text) == message
    assert side(text.encode("utf-8")) == message


def refusal(text: Any, decode: Any = m.decode_from_client) -> str:
    with pytest.raises(ProtocolError) as caught:
        decode(text)
    sentence = str(caught.value)
    assert sentence[0].isupper() and sentence.endswith(".") and sentence.isprintable() and len(sentence) <= 300
    assert sentence.count(". ") == 0, sentence  # one sentence
    return sentence


def hello(**change: Any) -> str:
    return json.dumps({"type": "hello", "name": "Ann", "token": None, "password": None, "version": 1, **change})


NAME_RULE = ("The name in the hello message must be from one to twenty-four letters, digits and spaces, with no marks"
             " but the full stop, apostrophe, hyphen and underscore.")


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("", "A message must be one JSON object."),
        ("[1, 2]", "A message must be one JSON object."),
        ('{"type": "hello"', "A message must be one JSON object."),
        ('{"name": "Ann"}', "A message needs its type, as text."),
        ('{"type": ["hello"]}', "A message needs its type, as text."),
        ('{"type": "teleport"}', "That type of message is not part of the protocol."),
        ('{"type": "welcome"}', "A player does not send a welcome message."),
        ('{"type": "ping", "number": 1, "type": "ping"}', "A message may not give the same field twice."),
        ('{"type": "ping", "number": NaN}', "A message may hold only finite numbers."),
        ('{"type": "ping", "number": -Infinity}', "A message may hold only finite numbers."),
        ('{"type": "ping", "number": 1e400}', "The number in the ping message must be a whole number from zero to one"
                                              " million."),
        ('{"type": "ping", "number": ' + "9" * 5000 + "}", TOO_LONG_NUMBER),
        ("[" * 50_000 + "]" * 50_000, "A message may be at most sixty-four kilobytes long."),
        ('{"a":' * 10_000 + "1" + "}" * 10_000, TOO_DEEP),
        ('{"type": "ping"}', "The ping message needs its number."),
        ('{"type": "ping", "number": 1, "extra": 2}', "The ping message has no field called extra."),
        ('{"type": "ping", "number": true}', None),
        (hello(name="<b>Ann</b>"), NAME_RULE),
        (hello(name="Ann\x1b[2J"), NAME_RULE),
        (hello(name="Ann\u202e"), NAME_RULE),
        (hello(name="   "), NAME_RULE),
        (hello(name="A" * 25), NAME_RULE),
        (hello(token="short"), None),
        (hello(version=0), None),
        ('{"type": "chat", "text": "hi\\u0007"}', "The text in the chat message must be from one to three hundred"
                                                  " printable characters."),
        ('{"type": "chat", "text": "' + "x" * 301 + '"}', None),
        ('{"type": "chat", "text": "\\ud800"}', None),
        ('{"type": "move", "action": {"kind": "play", "seat": 0, "card": "ZZ"}}',
         "ZZ is not a card: write a rank (A, 2 to 9, T, J, Q or K) then a suit (C, D, H or S), like 5H."),
        ('{"type": "move", "action": {"kind": "play", "seat": 9, "card": "5H"}}', None),
        ('{"type": "move", "action": {"kind": "claim", "seat": 0, "points": 99999}}', None),
        ('{"type": "move", "action": {"kind": "fly", "seat": 0}}', None),
        ('{"type": "give_seat", "seat": 1, "level": "grandmaster"}', "The level in the give seat message must be one of"
                                                                     " beginner, easy, medium or expert."),
        ('{"type": "create_table", "rules": {"players": 9}, "seats": [], "public": true, "move_limit": null}',
         "A table has from 2 to 6 players."),
        ('{"type": "create_table", "rules": {}, "seats": ["expert", "easy"], "public": true, "move_limit": null}',
         "A table needs at least one seat for a person."),
        ('{"type": "create_table", "rules": {}, "seats": ["person"], "public": true, "move_limit": null}',
         "The table needs two seats, one for each player."),
        ('{"type": "join", "table": "<img src=x>"}', None),
        ('{"type": "look_back", "told": 50001, "early": []}', "The told in the look back message must be a whole"
                                                              " number from zero to fifty thousand."),
        ('{"type": "look_back", "told": 3, "early": [1.5]}', "Entry one of the early in the look back message must be"
                                                             " a whole number from zero to fifty thousand."),
        ('{"type": "look_back", "told": 3, "early": ' + json.dumps(list(range(1001))) + "}",
         "The early in the look back message must be a list of at most one thousand entries."),
        ('{"type": "look_back", "told": 3}', "The look back message needs its early."),
    ],
)
def test_hostile_text_gets_one_sentence(text: str, sentence: str | None) -> None:
    said = refusal(text)
    if sentence is not None:
        assert said == sentence


def test_the_size_limit() -> None:
    near = json.dumps({"type": "refused", "sentence": "x"})[:-1] + " " * (m.MAX_MESSAGE_BYTES - 60) + "}"
    assert len(near) < m.MAX_MESSAGE_BYTES
    assert m.decode_from_server(near) == m.Refused("x")
    over = '{"type": "chat", "text": "hi"' + " " * m.MAX_MESSAGE_BYTES + "}"
    assert refusal(over) == "A message may be at most sixty-four kilobytes long."
    assert refusal(over.encode()) == "A message may be at most sixty-four kilobytes long."
    # Counted in bytes: a message of few characters but many bytes is refused too.
    wide = '{"type": "chat", "text": "hi"' + "\u00a0" * (m.MAX_MESSAGE_BYTES // 2 + 1) + "}"
    assert len(wide) < m.MAX_MESSAGE_BYTES
    assert refusal(wide) == "A message may be at most sixty-four kilobytes long."
    with pytest.raises(ProtocolError):
        m.encode(m.Chat("x" * m.MAX_MESSAGE_BYTES))  # encode refuses to send what the other side would refuse
    assert refusal(b"\xff\xfe{}") == "A message must be text in UTF-8."


def test_text_stays_as_given() -> None:
    said = m.decode_from_server(m.encode(m.ChatFrom("Bob", "<i>&amp; hi</i> \\n")))
    assert said == m.ChatFrom("Bob", "<i>&amp; hi</i> \\n")


def test_a_server_message_from_a_client_and_back() -> None:
    assert refusal(m.encode(m.Ping(1)), m.decode_from_server) == "The server does not send a ping message."


json_leaf = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30)
json_values = st.recursive(
    json_leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
TYPES = sorted(m.CLIENT_MESSAGES) + sorted(m.SERVER_MESSAGES)


def only_protocol_errors(text: Any) -> None:
    for decode in (m.decode, m.decode_from_client, m.decode_from_server):
        try:
            message = decode(text)
        except ProtocolError as error:
            sentence = str(error)
            assert sentence.endswith(".") and "\n" not in sentence and sentence.isprintable(), sentence
            assert len(sentence) <= 300
        else:
            assert m.decode(m.encode(message)) == message


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_random_text_gives_only_protocol_errors(text: str | bytes) -> None:
    only_protocol_errors(text)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TYPES), st.dictionaries(st.sampled_from(
    ["name", "token", "password", "version", "rules", "seats", "public", "move_limit", "table", "action", "text",
     "seat", "level", "number", "sentence", "tables", "more", "people", "code", "host", "you", "started", "view",
     "since", "events", "sender", "told", "early", "count_ms", "whole", "extra"]), json_values, max_size=6))
def test_random_fields_give_only_protocol_errors(kind: str, fields: dict[str, Any]) -> None:
    only_protocol_errors(json.dumps({"type": kind, **fields}))


def mangled(value: Any, path: list[int], new: Any) -> Any:
    if not path or not isinstance(value, dict | list) or not value:
        return new
    if isinstance(value, dict):
        key = sorted(value)[path[0] % len(value)]
        return {**value, key: mangled(value[key], path[1:], new)}
    i = path[0] % len(value)
    return [*value[:i], mangled(value[i], path[1:], new), *value[i + 1:]]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EXAMPLES), st.lists(st.integers(0, 40), max_size=6), json_values | st.sampled_from(
    ["\x00", "\u202e", "<b>x</b>", "x" * 70_000, "5H", -1, 2**70, 1e308, True]))
def test_mangled_examples_give_only_protocol_errors(message: m.Message, path: list[int], new: Any) -> None:
    only_protocol_errors(json.dumps(mangled(json.loads(m.encode(message)), path, new)))


def test_a_view_that_is_not_whole_carries_no_events() -> None:
    text = m.encode(m.ViewOf(GAME.view(1))).replace('"whole": true', '"whole": false')
    with pytest.raises(ProtocolError, match=r"^A view that is not whole leaves its events out\.$"):
        m.decode_from_server(text)
    light = m.ViewOf(dataclasses.replace(GAME.view(1), events=()), None, False)
    assert m.decode_from_server(m.encode(light)) == light
    assert len(m.encode(light)) < len(m.encode(m.ViewOf(GAME.view(1))))


def test_a_look_back_says_light_only_when_it_asks_for_it() -> None:
    """A server from before ``light`` refuses a field it does not know: a look back that does not ask for a light
    answer leaves the field out, so any server reads it."""
    assert json.loads(m.encode(m.LookBack(3, (5,)))) == {"type": "look_back", "told": 3, "early": [5]}
    assert json.loads(m.encode(m.LookBack(3, (5,), light=True))) == {"type": "look_back", "told": 3, "early": [5],
                                                                     "light": True}
    assert m.decode_from_client('{"type": "look_back", "told": 3, "early": [5]}') == m.LookBack(3, (5,))


def test_a_client_passes_over_a_field_a_newer_server_added_and_a_server_refuses_one() -> None:
    lobby = m.Lobby((m.TableSummary(5, "Bob", Rules(), 1, 0, False, advice=True),), 0, ("Ann",))
    data = json.loads(m.encode(lobby))
    data["soon"] = 1
    data["tables"][0]["watching"] = 3  # inside a record too
    assert m.decode_from_server(json.dumps(data)) == lobby
    with pytest.raises(ProtocolError, match=r"^The ping message has no field called soon\.$"):
        m.decode_from_client('{"type": "ping", "number": 1, "soon": 2}')
    with pytest.raises(ProtocolError, match=r"^The lobby list message has no field called soon\.$"):
        m.decode(json.dumps(data))  # tools and tests read strictly
    data.pop("tables")
    with pytest.raises(ProtocolError, match=r"^The lobby list message needs its tables\.$"):
        m.decode_from_server(json.dumps(data))  # a field the client knows is still required
