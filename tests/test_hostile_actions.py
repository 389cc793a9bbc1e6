"""Anything handed to `Game.verify`, `can` or `apply` that is not a well-formed action is refused with one sentence
and changes nothing: the online server passes on whatever arrives from the network."""

from __future__ import annotations

import dataclasses
import random
import re
import typing
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audiocrib import Card, Game, IllegalActionError, Rules, parse_cards
from audiocrib.engine.actions import ACTION_TYPES, Action, CallMuggins, ClaimCount, CountTimeout, Discard, Go, Play
from audiocrib.engine.cards import Rank, Suit
from audiocrib.engine.game import Phase
from tests.helpers import play_out, random_action, stacked, start_play

HANDS = ["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"]


def in_the_discard() -> Game:
    return stacked(HANDS, dealer=0)


def in_the_play() -> Game:
    game = start_play(stacked(HANDS, dealer=0), ["8D 8C", "TS KC"], "6S")
    game.apply(Play(1, Card.parse("JH")))
    return game


def in_a_count() -> Game:
    """A muggins table waiting for the computer in seat 1 to count, with the pone's hand already shown."""
    game = stacked(HANDS, dealer=1, rules=Rules(muggins=True), manual_seats=[0])
    game = start_play(game, ["8D 8C", "TS KC"], "6S")
    rng = random.Random(0)
    while game.phase is Phase.PLAY:
        game.apply(random_action(game, rng))
    assert game.phase is Phase.COUNT and game.counting == (1, False)
    return game


def at_the_end() -> Game:
    return play_out(Game(Rules(target=31), seed=1), random.Random(1))


POSITIONS: dict[str, Callable[[], Game]] = {
    "discard": in_the_discard, "play": in_the_play, "count": in_a_count, "match over": at_the_end
}
GAMES = {name: make() for name, make in POSITIONS.items()}


class LooksLikeACard(Card):
    """A Card subclass that claims to equal every card and cannot be hashed."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


class PlayLookalike(Play):
    """A Play subclass: not one of the game's own action types."""

    __slots__ = ()


class Impostor:
    """Has a seat and a card like a Play, but is not an action at all."""

    kind = "play"
    seat = 1
    card = Card.parse("6D")


def forged_card(rank: object, suit: object) -> Card:
    """A Card whose fields were set around its checks."""
    card = object.__new__(Card)
    object.__setattr__(card, "rank", rank)
    object.__setattr__(card, "suit", suit)
    return card


def empty(cls: type[Any]) -> Any:
    """An instance whose fields were never set (reading one raises AttributeError)."""
    return object.__new__(cls)


HUGE = 10**100
NOT_ACTIONS: list[object] = [
    None, [], [0, "6D"], "play 6D", "", 0, 1, HUGE, -HUGE, 1.5, float("nan"), b"\x00", {}, {"kind": "play", "seat": 1,
    "card": "6D"}, object(), Impostor(), Card.parse("6D"), (1, Card.parse("6D")), Action(1), len, Play, Rank.ACE,
]
BAD_SEATS: list[object] = ["1", True, False, 1.0, None, HUGE, -HUGE, -1, 2, [1], Rank.ACE]
BAD_CARDS: list[object] = [
    "6D", None, 6, (6, "D"), ["6", "D"], Rank.SIX, LooksLikeACard(Rank.SIX, Suit.DIAMONDS),
    forged_card(6, "D"), forged_card(Rank.SIX, "x"), forged_card(None, None), empty(Card),
]
BAD_CARD_LISTS: list[object] = [
    None, "TS KC", ("TS", "KC"), list(parse_cards("TS KC")), set(parse_cards("TS KC")), frozenset(parse_cards("TS KC")),
    (Card.parse("TS"), None), (Card.parse("TS"), LooksLikeACard(Rank.KING, Suit.CLUBS)), (forged_card(10, "S"),),
    Card.parse("TS"), iter(parse_cards("TS KC")), {"cards": ["TS", "KC"]}, parse_cards("TS KC") * 10_000, 5,
    empty(Card),
]
BAD_POINTS: list[object] = ["5", 5.0, True, False, None, HUGE, -HUGE, float("inf"), [5], Rank.FIVE]

HOSTILE: list[object] = [
    *NOT_ACTIONS,
    *(cls(seat) for seat in BAD_SEATS for cls in (Go, CountTimeout, CallMuggins)),  # type: ignore[arg-type]
    *(Play(seat, Card.parse("6D")) for seat in BAD_SEATS),  # type: ignore[arg-type]
    *(Play(seat, card) for seat in (0, 1) for card in BAD_CARDS),  # type: ignore[arg-type]
    *(Discard(seat, cards) for seat in (0, 1) for cards in BAD_CARD_LISTS),  # type: ignore[arg-type]
    *(ClaimCount(seat, points) for seat in (0, 1) for points in BAD_POINTS),  # type: ignore[arg-type]
    *(ClaimCount(seat, 3) for seat in BAD_SEATS),  # type: ignore[arg-type]
    PlayLookalike(1, Card.parse("6D")), PlayLookalike(0, Card.parse("5S")),
    *(empty(cls) for cls in ACTION_TYPES.values()),
]


def assert_refused(game: Game, action: object) -> None:
    """One sentence from each entry point, and the state exactly as it was."""
    before = game.state_key()
    with pytest.raises(IllegalActionError) as verified:
        game.verify(action)  # type: ignore[arg-type]
    sentence = str(verified.value)
    assert re.fullmatch(r"[A-Z][ -~]*\.", sentence) and sentence.count(".") == 1, sentence
    assert game.can(action) is False  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError) as applied:
        game.apply(action)  # type: ignore[arg-type]
    assert str(applied.value) == sentence
    assert game.state_key() == before


@pytest.mark.parametrize("position", list(POSITIONS))
def test_a_table_of_hostile_values_is_refused_everywhere(position: str) -> None:
    game = GAMES[position]
    for action in HOSTILE:
        assert_refused(game, action)


def test_the_sentences_name_what_is_wrong() -> None:
    game = in_the_play()  # seat 0 to play, count 10
    assert_refused(game, None)
    cases: list[tuple[object, str]] = [
        (None, "That is not something a player can do."),
        ({"kind": "play", "seat": 0, "card": "5S"}, "That is not something a player can do."),
        (PlayLookalike(0, Card.parse("5S")), "That is not something a player can do."),
        (Play("0", Card.parse("5S")), "There is no such seat at this table."),  # type: ignore[arg-type]
        (Play(True, Card.parse("5S")), "There is no such seat at this table."),  # type: ignore[arg-type]
        (Play(HUGE, Card.parse("5S")), "There is no such seat at this table."),
        (Play(0, "5S"), "That is not a card."),  # type: ignore[arg-type]
        (Play(0, LooksLikeACard(Rank.FIVE, Suit.SPADES)), "That is not a card."),
        (Discard(0, list(parse_cards("5S 4S"))), "That is not a card."),  # type: ignore[arg-type]
        (ClaimCount(0, "5"), "That is not a whole number."),  # type: ignore[arg-type]
        (ClaimCount(0, HUGE), "Nobody is waiting for you to count a hand."),
    ]
    for action, message in cases:
        with pytest.raises(IllegalActionError) as error:
            game.verify(action)  # type: ignore[arg-type]
        assert str(error.value) == message, action
    # The right values still play.
    assert game.can(Play(0, Card.parse("5S")))


def test_huge_and_negative_counts_are_refused_in_a_count() -> None:
    game = GAMES["count"]
    for points in (HUGE, -HUGE, -1, 30):
        assert_refused(game, ClaimCount(1, points))
    assert game.can(ClaimCount(1, 0))


def test_every_field_of_every_action_is_checked() -> None:
    # A new action (or a new field) whose type the checks do not know would be refused whatever it holds; this
    # names it at once.
    known = {int, Card, tuple[Card, ...]}
    for cls in ACTION_TYPES.values():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            assert hints[f.name] in known, (cls.__name__, f.name, hints[f.name])


def _real_card(value: object) -> bool:
    return type(value) is Card and type(getattr(value, "rank", None)) is Rank and type(
        getattr(value, "suit", None)) is Suit


def _values() -> st.SearchStrategy[object]:
    cards = st.sampled_from(list(parse_cards("5S 4S 2S 8D 6H 8C TS 6D JH 4H KC 7C AS")))
    return st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=8),
        st.binary(max_size=4), st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers()),
        st.lists(cards, max_size=3), st.lists(cards, max_size=3).map(set), st.tuples(st.text(max_size=3)),
        st.tuples(cards, st.none()), st.tuples(cards, st.text(max_size=2)), cards.map(str),
        st.just(forged_card(5, "S")), st.just(LooksLikeACard(Rank.SIX, Suit.DIAMONDS)),
    )


def _malformed() -> st.SearchStrategy[object]:
    """An action with at least one field of a wrong type, or something that is no action at all."""
    value, seat, card = _values(), st.sampled_from([0, 1]), st.sampled_from(list(parse_cards("5S 6D TS KC")))
    wrong_seat = value.filter(lambda v: type(v) is not int or not 0 <= v < 2)
    return st.one_of(
        value,
        st.builds(Play, wrong_seat, card), st.builds(Play, seat, value.filter(lambda v: not _real_card(v))),
        st.builds(Discard, wrong_seat, st.just(parse_cards("TS KC"))),
        st.builds(Discard, seat, value.filter(lambda v: type(v) is not tuple or not v
                                              or not all(_real_card(c) for c in v))),
        st.builds(ClaimCount, wrong_seat, st.integers()), st.builds(ClaimCount, seat, value.filter(
            lambda v: type(v) is not int)),
        st.builds(Go, wrong_seat), st.builds(CountTimeout, wrong_seat), st.builds(CallMuggins, wrong_seat),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(action=_malformed(), position=st.sampled_from(list(POSITIONS)))
def test_random_malformed_actions_are_refused(action: object, position: str) -> None:
    assert_refused(GAMES[position], action)
