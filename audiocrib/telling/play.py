"""The play's sentences: a card laid, the count and what it scored, and with manual pegging the points claimed.

>>> from audiocrib.engine.cards import Card
>>> from audiocrib.engine.rules import Rules
>>> played(Played(1, Card.parse("7C"), 22, Score()), SeatNames(("Ann", "Bob"), Rules(), 0), Verbosity.NORMAL)
'Bob plays the seven of clubs for twenty-two.'
"""

from __future__ import annotations

from audiocrib.engine.events import PlayClaimed, Played, PointsGiven
from audiocrib.engine.numbers import number_words
from audiocrib.engine.scoring import Score, ScoreItem, ScoreKind
from audiocrib.telling.listener import SeatNames, Verbosity
from audiocrib.telling.phrases import join_words, points_phrase
from audiocrib.telling.words import count_aloud, item_phrase

__all__ = ["claimed_too_many", "counted_first", "play_aloud", "play_claimed", "play_points", "played",
           "played_to_claim"]


def play_points(score: Score, count: int) -> str:
    """What a card laid in the play scored, said after the count; "" for nothing.

    The count already names a lone fifteen (at fifteen) or thirty-one (at thirty-one), so only the points follow.

    >>> from audiocrib.engine.cards import parse_cards
    >>> from audiocrib.engine.scoring import score_play
    >>> play_points(score_play(parse_cards("7D 8C")), 15)
    'two points'
    >>> play_points(score_play(parse_cards("KS 9C 6D 6H")), 31)
    'thirty-one and a pair, four points'
    """
    if not score.items:
        return ""
    if len(score.items) == 1:
        kind = score.items[0].kind
        if (kind is ScoreKind.FIFTEEN and count == 15) or (kind is ScoreKind.THIRTY_ONE and count == 31):
            return points_phrase(score.total)
    return f"{join_words([item_phrase(item) for item in counted_first(score)])}, {points_phrase(score.total)}"


def play_aloud(score: Score) -> str:
    """What a card made in the play, counted aloud as a hand is (fifteen or thirty-one first); "nothing" for none.

    >>> from audiocrib.engine.cards import parse_cards
    >>> from audiocrib.engine.scoring import score_play
    >>> play_aloud(score_play(parse_cards("5H 5S 5D"))), play_aloud(score_play(parse_cards("5H 6S")))
    ('fifteen two, and a pair royal is eight', 'nothing')
    """
    return count_aloud(Score(tuple(counted_first(score)))) if score.items else "nothing"


def counted_first(score: Score) -> list[ScoreItem]:
    """The items of a play score, fifteen or thirty-one (which the count names) before the rest, as players say
    them: "thirty-one and a pair"."""
    return sorted(score.items, key=lambda item: item.kind not in (ScoreKind.FIFTEEN, ScoreKind.THIRTY_ONE))


def played(event: Played, s: SeatNames, verbosity: Verbosity) -> str:
    """A card laid in the play, the count, and what it scored."""
    brief = verbosity is Verbosity.BRIEF
    count = number_words(event.count)
    if brief:
        points = f" for {number_words(event.points)}" if event.points else ""
        return f"{s.seat(event.seat, True)}: {event.card.name}, {count}{points}."
    scored = play_points(event.score, event.count)
    return f"{s.does(event.seat, 'play', True)} the {event.card.name} for {count}" + (
        f": {scored}." if scored else "."
    )


def played_to_claim(event: Played, s: SeatNames, verbosity: Verbosity) -> str:
    """Manual pegging: a card whose points its player is to claim (the points are not said yet)."""
    brief = verbosity is Verbosity.BRIEF
    count = number_words(event.count)
    if brief:
        ask = " Your points?" if event.seat == s.me else ""
        return f"{s.seat(event.seat, True)}: {event.card.name}, {count}.{ask}"
    text = f"{s.does(event.seat, 'play', True)} the {event.card.name} for {count}"
    return text + ("; type its points and press Enter." if event.seat == s.me else ".")


def play_claimed(event: PlayClaimed, s: SeatNames, verbosity: Verbosity) -> str:
    """Manual pegging: what was said for a card, and what it made, as a manual count is told."""
    brief = verbosity is Verbosity.BRIEF
    said = f"{s.seat(event.seat, True)} said {number_words(event.claimed)}"
    total = event.score.total
    aloud = play_aloud(event.score)
    if event.claimed == total:
        if not total:
            return f"{said}, which is right: nothing."
        return f"{said}, which is right." if brief else f"{said}, which is right: {aloud}."
    if not total:
        return f"{said}. The card made nothing."
    made = f"The card made {number_words(total)}"
    return f"{said}. {made}." if brief else f"{said}. {made}: {aloud}."


def claimed_too_many(event: PointsGiven, s: SeatNames) -> str:
    """Manual pegging: the excess of an over-claim for a card, given to the opponents (a count's over-count is
    the show's; a card's points are claimed, as `play_claimed` says them).

    >>> from audiocrib.engine.rules import Rules
    >>> claimed_too_many(PointsGiven(1, 0, 3, "over-counted"), SeatNames(("Ann", "Bob"), Rules(), 0))
    'You claimed three too many; Bob pegs them.'
    """
    them = "it" if event.given == 1 else "them"
    pegs = s.does(event.seat, "peg")
    return f"{s.seat(event.offender, True)} claimed {number_words(event.given)} too many; {pegs} {them}."
