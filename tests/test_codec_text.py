"""The JSON written directly (events, views, rules, every message) is the very text the generic writers make from
dicts (``json.dumps`` of `event_to_json`, `view_to_json`, `Rules.to_json`, each message's fields), to the byte,
over whole random matches of every table shape, manual counting, pegging and muggins included."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from dataclasses import asdict
from typing import ClassVar

import pytest

from audiocrib.engine.actions import Action, CallMuggins, ClaimCount, CountTimeout, Discard, Go, Play
from audiocrib.engine.cards import Card
from audiocrib.engine.codec import IdentityCache, json_text, record_text, record_to_json
from audiocrib.engine.errors import AudiocribError
from audiocrib.engine.events import EVENT_TYPES, Event, event_row, event_text, event_to_json
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import Score
from audiocrib.engine.viewcodec import rules_text, view_text, view_to_json
from audiocrib.online import messages as m
from audiocrib.online.fields import (
    NAME,
    ActionField,
    Choice,
    EventField,
    Flag,
    Many,
    Maybe,
    Number,
    Record,
    RulesField,
    ViewField,
)
from tests.helpers import TABLES
from tests.test_messages import EXAMPLES

SHAPES: tuple[Rules, ...] = (
    *TABLES,
    Rules(manual_counting=True, manual_pegging=True, muggins=True, wrong_muggins=2, count_timer=30),
    Rules(players=3, manual_counting=True, overcount_penalty=False),
    Rules(players=4, team_size=2, manual_pegging=True, muggins=True),
    Rules(players=6, team_size=3, manual_counting=True, muggins=True, match_games=3),
)
"""Every shape of table, and tables counted and pegged by hand (so that every kind of event is made)."""


def random_move(game: Game, rng: random.Random) -> Action:
    """Any legal move of a seat the game waits on, claims right, short or over, now and then a timeout or a call
    of muggins (from any seat)."""
    candidates: list[Action] = []
    for seat in sorted(game.waiting_for()):
        view = game.view(seat)
        if game.phase is Phase.DISCARD:
            candidates.append(Discard(seat, tuple(rng.sample(view.hand, view.must_discard))))
        elif game.phase is Phase.PLAY:
            candidates.append(Play(seat, rng.choice(view.playable)) if view.playable else Go(seat))
        else:
            candidates.extend([ClaimCount(seat, rng.randint(0, 16)), ClaimCount(seat, rng.randint(0, 6)),
                               CountTimeout(seat)])
    if rng.random() < 0.5:
        candidates.append(CallMuggins(rng.randrange(game.rules.players)))
    rng.shuffle(candidates)
    for action in candidates:
        try:
            game.verify(action)
        except AudiocribError:
            continue
        return action
    raise AssertionError(f"no legal move in phase {game.phase}")  # pragma: no cover


def matches(seed: int) -> Iterator[tuple[Rules, Game]]:
    """The game after each move of one random match of each shape (to a short target)."""
    for rules in SHAPES:
        # With muggins the computer players' counts are claimed too, and a person (seat 0) may take their short ones.
        manual = (0,) if rules.muggins else range(rules.players) if rules.manual_counting or rules.manual_pegging \
            else ()
        game = Game(Rules(**{**rules.to_json(), "target": 61}), seed=seed, manual_seats=manual)
        rng = random.Random(seed)
        yield rules, game
        while not game.over:
            game.apply(random_move(game, rng))
            yield rules, game


def generic_rules_json(rules: Rules) -> dict[str, object]:
    data = asdict(rules)
    data["variant"] = rules.variant.value
    return data


@pytest.mark.parametrize("seed", [1, 2])
def test_every_event_view_and_message_is_the_generic_text(seed: int) -> None:
    kinds: set[str] = set()
    for moment, (rules, game) in enumerate(matches(seed)):
        first = max(0, len(game.events) - 8)  # the events of the last move or so, as each seat sees them
        for seat in range(rules.players):
            view = game.view(seat)
            for event in view.events[first:] + game.events[first:]:
                kinds.add(event.kind)
                assert event_text(event) == json.dumps(event_to_json(event))
                assert event_row(event) == json.dumps(event_to_json(event), separators=(",", ":"))
            light = dataclasses.replace(view, events=())
            assert view_text(light) == json.dumps(view_to_json(light))
            news = m.News(first, view.events[first:])
            for message in (news, m.ViewOf(light, None, False), m.ViewOf(light, 0, False)):
                assert m.encode(message) == m.encode_generic(message)
            if moment % 7 == 0 or game.over:  # a whole view holds the log so far: now and then, and at the end
                assert view_text(view) == json.dumps(view_to_json(view))
                assert m.encode(m.ViewOf(view, 1234)) == m.encode_generic(m.ViewOf(view, 1234))
        assert rules_text(game.rules) == json.dumps(game.rules.to_json())
        assert game.rules.to_json() == generic_rules_json(game.rules)
        assert list(game.rules.to_json()) == list(generic_rules_json(game.rules))
    assert kinds == set(EVENT_TYPES)


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda e: e.type)
def test_each_example_message_is_the_generic_text(message: m.Message) -> None:
    assert m.encode(message) == m.encode_generic(message)


def test_odd_values_are_written_as_the_generic_writer_writes_them() -> None:
    """Values a hint does not promise (a bool for a number, a list for a tuple, None) still give the same text."""
    events = [cls(**{f.name: odd for f in dataclasses.fields(cls)})  # type: ignore[arg-type]
              for cls in EVENT_TYPES.values() for odd in (True, None, [1, 2], "x\u00e9\n", 7, (1, "a"))
              if dataclasses.fields(cls)]
    for event in events:
        assert record_text(event) == json.dumps(record_to_json(event))
        assert record_text(event, compact=True) == json.dumps(record_to_json(event), separators=(",", ":"))
    assert json_text(Score()) == json.dumps(Score().to_json())
    texts = [m.Chat("caf\u00e9 \u202e \"q\" \\ \t"), m.Notice("x" * 500), m.Ping(0), m.Pong(1_000_000)]
    for message in texts:
        assert m.encode(message) == m.encode_generic(message)


def test_a_message_too_long_is_refused_as_before() -> None:
    with pytest.raises(m.ProtocolError, match="too long"):
        m.encode(m.Chat("x" * (m.MAX_MESSAGE_BYTES + 1)))
    with pytest.raises(m.ProtocolError, match="too long"):
        m.encode_generic(m.Chat("x" * (m.MAX_MESSAGE_BYTES + 1)))


def test_the_identity_cache_never_mixes_equal_values_up() -> None:
    made: list[Event] = []

    def make(event: Event) -> str:
        made.append(event)
        return event_to_json(event)["kind"]

    cache: IdentityCache[Event, str] = IdentityCache(make, most=2)
    first, second = Game(seed=1).events[:2]
    assert [cache(first), cache(first), cache(second)] == [first.kind, first.kind, second.kind]
    assert made == [first, second]  # the second call was kept
    equal = dataclasses.replace(first)
    assert cache(equal) == first.kind and made[-1] is equal  # equal but not the same: made again
    assert cache(first) == first.kind  # past its size it started again, and still answers right


def test_the_decoders_made_once_refuse_as_before() -> None:
    """The JSON decoder and each class's plan of fields are made once; a byte order mark is still no JSON, and
    each refusal still names its own place."""
    for text in ('\ufeff{"type": "ping", "number": 1}', b'\xef\xbb\xbf{"type": "ping", "number": 1}'):
        with pytest.raises(m.ProtocolError, match=r"^A message must be one JSON object\.$"):
            m.decode_from_client(text)
    summary = json.loads(m.encode(next(e for e in EXAMPLES if e.type == "lobby_list")))["tables"][0]
    for index in (1, 0, 1):
        tables = [summary, summary]
        tables[index] = {**summary, "open_seats": 9}
        text = json.dumps({"type": "lobby_list", "tables": tables, "more": 0, "people": []})
        entry = ("one", "two")[index]
        with pytest.raises(m.ProtocolError, match=f"^The open seats in entry {entry} of the tables in the lobby"):
            m.decode_from_server(text)
    move = {"type": "move", "action": {"kind": "play", "seat": 1, "card": "5H"}}
    assert m.decode_from_client(json.dumps(move)) == m.Move(Play(1, Card.parse("5H")))
    twice = {"kind": "discard", "seat": 1, "cards": ["5H", "5H"]}
    for action, sentence in (({"kind": "play", "seat": 1}, "The action in the move message must be a move"),
                             (twice, "The five of hearts is given twice."),
                             ({"kind": "play", "seat": 9, "card": "5H"}, "The action in the move message must be")):
        with pytest.raises(m.ProtocolError) as caught:
            m.decode_from_client(json.dumps({**move, "action": action}))
        assert str(caught.value).startswith(sentence)


@dataclasses.dataclass(frozen=True, slots=True)
class _Every(m.Message):
    """A message with a field of every kind, as a new field added to a message would be."""

    type: ClassVar[str] = "every"
    name: str = dataclasses.field(metadata={"field": NAME})
    number: int | None = dataclasses.field(metadata={"field": Maybe(Number(0, 10))})
    flag: bool = dataclasses.field(metadata={"field": Flag()})
    level: str = dataclasses.field(metadata={"field": Choice("easy", "hard")})
    seats: tuple[m.Seat, ...] = dataclasses.field(metadata={"field": Many(Record(m.Seat), 6)})
    rules: Rules = dataclasses.field(metadata={"field": RulesField()})
    action: Action = dataclasses.field(metadata={"field": ActionField()})
    events: tuple[Event, ...] = dataclasses.field(metadata={"field": Many(EventField(), 100)})
    view: object = dataclasses.field(default=None, metadata={"field": Maybe(ViewField())})
    more_ms: int | None = dataclasses.field(default=None, metadata={"field": Maybe(Number(0, 10**6))})


def test_a_field_of_any_kind_added_to_a_message_is_written_as_before() -> None:
    game = Game(Rules(players=3), seed=4)
    seats = (m.Seat("Ann", None, True), m.Seat(None, "easy", False))
    for message in (_Every("Ann", None, True, "easy", (), Rules(), Go(0), ()),
                    _Every("Zo\u00eb", 3, False, "hard", seats, game.rules, Discard(1, game.view(1).hand[:1]),
                           game.events, game.view(2), 25)):
        assert m.encode(message) == m.encode_generic(message)
