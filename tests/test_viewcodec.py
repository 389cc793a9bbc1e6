"""A player's view as JSON: equal after a round trip, strict on hostile input, never a card the seat may not know."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audiocrib.engine.cards import DECK, Card
from audiocrib.engine.events import (
    CountRequested,
    CutForDeal,
    Dealt,
    Discarded,
    Event,
    HandShown,
    PlayClaimed,
    Played,
    StarterCut,
)
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules
from audiocrib.engine.viewcodec import view_from_json, view_to_json
from audiocrib.engine.views import PlayerView, watcher_seat
from tests.helpers import TABLES, random_action

SEED = 7_346_251_908_117_003
"""A seed no score, count or card count can look like, so that finding its digits in the JSON means a leak."""
CARD_TEXT = {str(card) for card in DECK}


def short(rules: Rules) -> Rules:
    """The same table to the lowest target, so that a whole match is checked at every moment in little time."""
    return Rules(**{**rules.to_json(), "target": 31})


def moments(rules: Rules, seed: int = SEED) -> Iterator[Game]:
    """The game after each move of one random match at ``rules``."""
    game = Game(short(rules), seed=seed)
    rng = random.Random(seed)
    yield game
    while not game.over:
        game.apply(random_action(game, rng))
        yield game


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.describe())
def test_every_view_comes_back_equal(rules: Rules) -> None:
    for game in moments(rules):
        for seat in range(rules.players + 1):  # and the watchers' seat
            view = game.view(seat)
            text = json.dumps(view_to_json(view))
            assert view_from_json(json.loads(text)) == view


# Hidden information: what each seat may know, worked out from the whole game's log (never from the view).


def cards_in(value: Any) -> set[str]:
    """Every card written anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} & CARD_TEXT
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    return set()


def public_cards(event: Event, seat: int) -> set[Card]:
    """The cards ``event`` makes known to ``seat``: cards cut, laid or shown to all, and the seat's own."""
    if isinstance(event, CutForDeal):
        return set(event.cards)
    if isinstance(event, StarterCut):
        return {event.card}
    if isinstance(event, Played | PlayClaimed):
        return {event.card}
    if isinstance(event, HandShown | CountRequested):
        return {*event.cards, event.starter}
    if isinstance(event, Dealt):
        return set(event.hands[seat]) if seat < len(event.hands) else set()  # a watcher holds none
    if isinstance(event, Discarded) and event.seat == seat:
        return set(event.cards)
    return set()


def known_by_deal(log: tuple[Event, ...], seat: int) -> tuple[list[int], list[set[str]]]:
    """For each event of the whole log, the deal it belongs to; for each deal, the cards ``seat`` may know of it."""
    deal_of: list[int] = []
    known: list[set[str]] = [set()]
    for event in log:
        if isinstance(event, Dealt):
            known.append(set())
        deal_of.append(len(known) - 1)
        known[-1] |= {str(card) for card in public_cards(event, seat)}
    return deal_of, known


def leaks(game: Game, seat: int, encoded: dict[str, Any]) -> list[str]:
    """What in ``encoded`` (a view's JSON) ``seat`` may not know now: cards unknown in their deal, or the seed."""
    found = []
    deal_of, known = known_by_deal(game.events, seat)
    fields = {k: v for k, v in encoded.items() if k != "events"}
    if cards_in(fields) - known[-1]:
        found.append(f"the view shows {sorted(cards_in(fields) - known[-1])}")
    for index, event in enumerate(encoded["events"]):
        hidden = cards_in(event) - known[deal_of[index]]
        if hidden:
            found.append(f"event {index} ({event['kind']}) shows {sorted(hidden)}")
    text = json.dumps(encoded)
    if str(game.seed) in text or '"seed"' in text:
        found.append("the seed")
    return found


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.describe())
def test_no_view_shows_a_card_its_seat_may_not_know(rules: Rules) -> None:
    crib_hidden = 0
    for game in moments(rules):
        for seat in range(rules.players + 1):  # and the watchers' seat (`watcher_seat`)
            encoded = view_to_json(game.view(seat))
            assert leaks(game, seat, encoded) == []
            crib_hidden += encoded["crib"] is None and game.phase.value == "play"
    assert crib_hidden  # the check covered moments when the crib was still face down


def test_the_leak_check_finds_each_kind_of_leak() -> None:
    game = next(g for g in moments(Rules()) if g.phase.value == "play")
    view = game.view(0)
    assert leaks(game, 0, view_to_json(view)) == []
    whole = dataclasses.replace(view, events=game.events)  # another hand, the crib and the stock
    assert any("dealt" in leak for leak in leaks(game, 0, view_to_json(whole)))
    theirs = dataclasses.replace(view, hand=game.hand(1))
    assert leaks(game, 0, view_to_json(theirs))
    watcher = game.view(watcher_seat(game.rules))
    assert leaks(game, watcher.seat, view_to_json(watcher)) == []
    assert leaks(game, watcher.seat, view_to_json(dataclasses.replace(watcher, events=game.events)))
    next_starter = next(c for c in DECK if str(c) not in known_by_deal(game.events, 0)[1][-1])
    assert leaks(game, 0, view_to_json(dataclasses.replace(view, playable=(next_starter,))))
    assert leaks(game, 0, {**view_to_json(view), "note": game.seed}) == ["the seed"]


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.describe())
def test_a_watchers_view_holds_no_cards_and_waits_on_nothing(rules: Rules) -> None:
    seen = set()
    for game in moments(rules):
        view = game.view(watcher_seat(rules))
        assert view.watching and not (view.hand or view.kept or view.playable) and view.discards is None
        assert view.must_discard == 0 and not view.my_turn and not view.my_crib
        assert view.side == rules.sides  # no side's: indexing the scores by it fails rather than read another's
        seen.add(view.phase)
    assert len(seen) >= 3  # laying away, the play and the match over, at least


def test_a_watchers_view_with_cards_of_its_own_is_refused() -> None:
    game = next(g for g in moments(Rules()) if g.phase.value == "play")
    watcher = view_to_json(game.view(2))
    assert view_from_json(watcher).watching
    with pytest.raises(ValueError, match="A watcher's view holds no cards of its own"):
        view_from_json({**watcher, "hand": [str(game.hand(0)[0])]})
    with pytest.raises(ValueError, match="a seat of the table, or the watchers' seat"):
        view_from_json({**watcher, "seat": 3})


# Hostile input: only ever a ValueError with one sentence.

SAMPLE = view_to_json(next(g for g in moments(Rules(players=3)) if g.phase.value == "play").view(1))


def refused(data: Any) -> str:
    with pytest.raises(ValueError) as caught:
        view_from_json(data)
    message = str(caught.value)
    assert type(caught.value) is ValueError
    assert message[0].isupper() and message.endswith(".") and "\n" not in message and len(message) < 200
    assert message.isprintable() and message.isascii()
    return message


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        ({"seed": 1}, "A view has no field called seed."),
        ({"seat": 9}, "The view's seat must be a seat of the table, or the watchers' seat."),
        ({"seat": True}, "The view's seat must be a seat of the table, or the watchers' seat."),
        ({"hand": ["5H", "5H"]}, "The view's hand must be cards given once each."),
        ({"hand": [5]}, "The view's hand must be a card written like 5H."),
        ({"count": 32}, "The view's count must be a whole number from zero to thirty-one."),
        ({"scores": [1, 2]}, "The view's scores must be a list of three, one for each."),
        ({"names": ["Ann", "Bob", "Cy\x1b[2J"]}, "The view's names must be a name for each seat, in printable text."),
        ({"rules": {"players": 9}}, "The view's rules must be the table's settings, each known and valid."),
        ({"rules": {"players": [3]}}, "The view's rules must be the table's settings, each known and valid."),
        ({"phase": "bidding"}, "The view's phase must be a moment of the game."),
        ({"events": [{"kind": "played"}]}, "Event number one of the view cannot be read."),
        ({"events": [{"kind": "said go", "seat": 7}]}, "Event number one of the view has a number out of range."),
        ({"counting": [0, 1]}, "The view's counting must be true or false."),
    ],
)
def test_each_malformed_field_is_refused_in_a_sentence(change: dict[str, Any], sentence: str) -> None:
    assert refused({**SAMPLE, **change}) == sentence


def test_a_missing_field_and_a_non_object_are_refused() -> None:
    assert refused({k: v for k, v in SAMPLE.items() if k != "said_go"}) == "A view needs its said go."
    assert refused([SAMPLE]) == "A view must be an object of named fields."


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | st.sampled_from(sorted(CARD_TEXT)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def mangle(data: dict[str, Any], path: list[int], value: Any) -> Any:
    """``data`` with one value somewhere inside it (chosen by ``path``) replaced by ``value``."""
    if not path or not isinstance(data, dict | list) or not data:
        return value
    if isinstance(data, dict):
        key = sorted(data)[path[0] % len(data)]
        return {**data, key: mangle(data[key], path[1:], value)}
    index = path[0] % len(data)
    return [*data[:index], mangle(data[index], path[1:], value), *data[index + 1:]]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.lists(st.integers(0, 60), max_size=5), value=json_values)
def test_mangled_views_give_only_a_value_error(path: list[int], value: Any) -> None:
    data = mangle(SAMPLE, path, value)
    try:
        view = view_from_json(data)
    except ValueError as error:
        assert type(error) is ValueError
        message = str(error)
        assert message.endswith(".") and "\n" not in message and message.isascii()
    else:
        assert isinstance(view, PlayerView)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_any_json_at_all_gives_only_a_value_error(value: Any) -> None:
    with pytest.raises(ValueError):
        view_from_json(value)


def test_a_field_name_outside_ascii_is_not_said_back() -> None:
    """Found by the mangled-view test above: a key of "\u00c0" was said back, though a refusal is plain ASCII."""
    with pytest.raises(ValueError, match=r"^A view has no field called that name\.$"):
        view_from_json({**view_to_json(Game(Rules(), ("A", "B"), seed=1).view(0)), "\u00c0": None})
