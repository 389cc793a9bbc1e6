"""Shared test helpers: random legal play, every table shape, and stacked deals."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from audiocrib.engine.actions import Action, Discard, Go, Play
from audiocrib.engine.cards import DECK, Card, parse_cards
from audiocrib.engine.events import CutForDeal, Dealt, Event, GameStarted, PointsGiven
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.rules import Rules, Variant

TABLES: tuple[Rules, ...] = (
    Rules(),
    Rules(players=3),
    Rules(players=4),
    Rules(players=4, team_size=2),
    Rules(players=5),
    Rules(players=6),
    Rules(players=6, team_size=2),
    Rules(players=6, team_size=3),
    Rules(variant=Variant.FIVE_CARD),
    Rules(players=4, team_size=2, variant=Variant.FIVE_CARD),
    Rules(variant=Variant.SEVEN_CARD),
    Rules(players=4, team_size=2, variant=Variant.SEVEN_CARD),
)
"""One Rules value per row of rules.md's variants table (and each team arrangement)."""


def random_action(game: Game, rng: random.Random) -> Action:
    """A random legal action for one of the seats the game waits on, chosen from that seat's view."""
    seat = rng.choice(sorted(game.waiting_for()))
    view = game.view(seat)
    if game.phase is Phase.DISCARD:
        return Discard(seat, tuple(rng.sample(view.hand, view.must_discard)))
    if game.phase is Phase.PLAY:
        if not view.playable:
            return Go(seat)
        return Play(seat, rng.choice(view.playable))
    raise AssertionError(f"no random action in phase {game.phase}")


def play_out(game: Game, rng: random.Random, after: Callable[[Game, Action], None] | None = None,
             limit: int = 10_000) -> Game:
    """Play random legal actions until the match is over, calling ``after`` after each."""
    for _ in range(limit):
        if game.over:
            return game
        action = random_action(game, rng)
        game.apply(action)
        if after is not None:
            after(game, action)
    raise AssertionError("the game did not end")


def stacked(
    hands: Sequence[str],
    dealer: int = 0,
    rules: Rules | None = None,
    crib: str = "",
    before: Sequence[Event] = (),
    scores: Sequence[int] = (),
    names: Sequence[str] | None = None,
    **game_options: object,
) -> Game:
    """A game at its first deal with the given hands (notation strings, seat order) and dealer.

    ``scores`` sets each seat's starting points (given as fabricated points before the deal).
    """
    rules = rules or Rules(players=len(hands))
    dealt = tuple(parse_cards(h) for h in hands)
    crib_cards = parse_cards(crib) if crib else ()
    used = {c for h in dealt for c in h} | set(crib_cards)
    stock = tuple(c for c in DECK if c not in used)
    cut = tuple(Card.parse(c) for c in ("AC", "2C", "3C", "4C", "5C", "6C")[: rules.players])
    events: list[Event] = [CutForDeal(tuple(range(rules.players)), cut), GameStarted(1, dealer), *before]
    events += [PointsGiven(seat, seat, points, "missed") for seat, points in enumerate(scores) if points]
    events.append(Dealt(1, dealer, dealt, crib_cards, stock))
    return Game.from_events(events, rules, names=names, **game_options)  # type: ignore[arg-type]


def start_play(game: Game, discards: Sequence[str], starter: str) -> Game:
    """Lay away ``discards`` (one string per seat, "" for none) and force the starter."""
    from audiocrib.engine.events import StarterCut

    for seat, cards in enumerate(discards):
        if cards:
            game.apply(Discard(seat, parse_cards(cards)))
    assert game.phase is not Phase.DISCARD
    # Rebuild with the chosen starter in place of the random one.
    log = list(game.events)
    index = max(i for i, e in enumerate(log) if isinstance(e, StarterCut))
    cut = log[index]
    assert isinstance(cut, StarterCut)
    log = [*log[:index], StarterCut(cut.cutter, Card.parse(starter))]
    return Game.from_events(log, game.rules, game.names, game.seed, game.manual_seats, game.auto_go)


def plays(game: Game, moves: str) -> None:
    """Apply plays given as ``"1:JH 0:5S ..."`` (seat:card), failing loudly if any is refused."""
    for move in moves.split():
        seat, card = move.split(":")
        game.apply(Play(int(seat), Card.parse(card)))
