"""The words of a match heard again: its line in the list of past matches (when, who, the result), the replay's own
sentences, every hand of a deal once the match is over, and the transcript written out to share.

What the replay says of the game itself is the narrator's, on the same events as the seat saw them (`told`): a
replay says what the narrator told the seat in play (the coach's words after each deal are not in it).

>>> from datetime import datetime
>>> now = datetime(2026, 11, 27, 18, 0)
>>> when_said(datetime(2026, 11, 27, 14, 5), now), when_said(datetime(2026, 11, 26, 9, 30), now)
('Today at 14:05', 'Yesterday at 09:30')
>>> when_said(datetime(2026, 11, 23, 20, 0), now), when_said(datetime(2026, 3, 2, 8, 0), now)
('On Monday at 20:00', 'On 2 March at 08:00')
>>> when_said(datetime(2025, 3, 2, 8, 0), now)
'On 2 March 2025 at 08:00'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from audiocrib.engine.cards import spoken_list
from audiocrib.engine.events import Dealt, GameStarted
from audiocrib.engine.numbers import number_words
from audiocrib.engine.pastmatch import DealHands, Hearing, MatchResult, PastMatch
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.telling.listener import SeatNames, Verbosity
from audiocrib.telling.narrator import Narrator, standing_said
from audiocrib.telling.phrases import capitalised, join_words

__all__ = [
    "Told",
    "date_said",
    "deal_said",
    "hands_said",
    "heard_by",
    "listed",
    "listed_line",
    "match_line",
    "outcome_said",
    "players_said",
    "result_said",
    "scores_said",
    "told",
    "transcript",
    "when_said",
    "who_said",
]

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def when_said(ended: datetime, now: datetime) -> str:
    """When a match ended, as said at ``now`` (both the player's local time): "Today at 14:05", "Yesterday at
    09:30", "On Monday at 20:00" within the week, else the date ("On 2 March", with the year if not this one)."""
    clock = f"at {ended:%H:%M}"
    days = (now.date() - ended.date()).days
    if days == 0:
        return f"Today {clock}"
    if days == 1:
        return f"Yesterday {clock}"
    if 1 < days < 7:
        return f"On {_DAYS[ended.weekday()]} {clock}"
    year = "" if ended.year == now.year else f" {ended.year}"
    return f"On {ended.day} {_MONTHS[ended.month - 1]}{year} {clock}"


def date_said(ended: datetime) -> str:
    """When a match ended, as a date that stays true: "On 27 November 2026 at 14:05"."""
    return f"On {ended.day} {_MONTHS[ended.month - 1]} {ended.year} at {ended:%H:%M}"


def _seats(match: PastMatch) -> SeatNames:
    return SeatNames(match.names, match.rules, match.seat)


def who_said(match: PastMatch) -> str:
    """Who played, the listener's side first: "you against Bob (expert)", "you and Carol against Bob and Dave",
    "Ann against Bob" (a match watched)."""
    return players_said(match.rules, match.names, match.seat, match.levels)


def players_said(rules: Rules, names: tuple[str, ...], seat: int, levels: tuple[str, ...] = ()) -> str:
    """`who_said` from a match's table alone (a server's list of past matches holds no log)."""
    seats = SeatNames(names, rules, seat)

    def named(s: int) -> str:  # "you", or "Bob (expert)" for a computer player
        level = levels[s] if s < len(levels) else ""
        return seats.seat(s) + (f" ({level})" if level else "")

    sides = [join_words([named(s) for s in sorted(rules.seats_of(side), key=lambda s: (s != seat, s))])
             for side in seats.sides_from_mine()]
    others = ", and ".join(sides[1:]) if rules.team_size > 1 else join_words(sides[1:])
    return f"{sides[0]} against {others}"


def heard_by(match: PastMatch) -> str:
    """Who "you" is in the words of ``match``, for a reader who was not there: 'Heard by Ann, who is "you"
    below.'; "Heard as a watcher: no one below is you."; the player at this computer when the seat has no name of
    its own (a match on this computer, whose player is "You")."""
    if match.watched:
        return "Heard as a watcher: no one below is you."
    name = match.names[match.seat]
    who = "the player at this computer" if name.casefold() == "you" else name
    return f'Heard by {who}, who is "you" below.'


def result_said(match: PastMatch) -> str:
    """How it ended, the winner first, its scores in words as the game says them: "you won, one hundred twenty-one
    to ninety-eight"; "Bob won with sixty-one; you had forty, Carol thirty-two"; a match of games, "you won the
    match, three game points to none"."""
    result = match.result
    return "not finished" if result is None else outcome_said(match.rules, match.names, match.seat, result)


def outcome_said(rules: Rules, names: tuple[str, ...], seat: int, result: MatchResult) -> str:
    """`result_said` from a match's table and result alone."""
    seats = SeatNames(names, rules, seat)
    by_match = rules.match_games > 1
    scores = result.match_scores if by_match else result.last_scores
    winner = result.side
    losers = [side for side in seats.sides_from_mine() if side != winner]
    unit = " game points" if by_match else ""
    won = f"{seats.side(winner)} won" + (" the match" if by_match else "")

    def said(side: int) -> str:  # as the game says a score: "ninety-eight", and game points "none"
        return number_words(scores[side]) if scores[side] or not by_match else "none"

    if len(losers) == 1:
        return f"{won}, {said(winner)}{unit} to {said(losers[0])}"
    had = ", ".join(f"{seats.side(side)} {'had ' if i == 0 else ''}{said(side)}" for i, side in enumerate(losers))
    return f"{won} with {said(winner)}{unit}; {had}"


def match_line(match: PastMatch, ended: datetime, now: datetime) -> str:
    """A past match as the list says it: "Today at 14:05, six-card, you against Bob (expert): you won, sixty-one to
    forty." (with where it was played, when not on this computer)."""
    place = "" if match.place == "on this computer" else f", {match.place}"
    return (f"{when_said(ended, now)}{place}, {match.rules.variant.value}, {who_said(match)}: "
            f"{result_said(match)}.")


def listed_line(ended: datetime, now: datetime, place: str, rules: Rules, names: tuple[str, ...], seat: int,
                result: MatchResult) -> str:
    """`match_line` for a match known by its table and result alone (a server's list): "Yesterday at 21:30, table
    12, six-card, you against Bob: Bob won, sixty-one to forty."."""
    return (f"{when_said(ended, now)}, {place}, {rules.variant.value}, {players_said(rules, names, seat)}: "
            f"{outcome_said(rules, names, seat, result)}.")


def deal_said(match: PastMatch, hands: DealHands) -> str:
    """A deal as the replay names it: "Deal three", or "Game two, deal three" in a match of games."""
    deal = f"deal {number_words(hands.deal)}"
    return capitalised(f"game {number_words(hands.game)}, {deal}" if match.rules.match_games > 1 else deal)


def scores_said(match: PastMatch, view: PlayerView) -> str:
    """The scores before a deal the replay moves to, in one short sentence: "You have eleven, Bob seven.", with the
    game in a match of games ("Game one: you have eleven, Bob seven.")."""
    standing = standing_said(_seats(match), view.scores)
    if match.rules.match_games == 1:
        return standing
    return f"Game {number_words(view.game_number)}: {standing[:1].lower()}{standing[1:]}"


def hands_said(match: PastMatch, hands: DealHands) -> list[str]:
    """Every hand of a deal, one message each: what each player held and laid away, then the crib and the
    starter ("You held the ..., and laid away the ... ."), the listener first."""
    seats = _seats(match)
    order = sorted(range(match.rules.players), key=lambda s: ((s - match.seat) % match.rules.players
                                                             if not match.watched else s))
    lines = [f"{deal_said(match, hands)}, {seats.possessive(hands.dealer)} crib."]
    for seat in order:
        held = f"{seats.seat(seat, True)} held {spoken_list(sorted(hands.dealt[seat]))}"
        laid = hands.laid_away[seat]
        lines.append(f"{held}, and laid away {spoken_list(sorted(laid))}." if laid
                     else f"{held}, and had laid nothing away yet.")
    if hands.crib:
        lines.append(f"The crib: {spoken_list(sorted(hands.crib))}.")
    if hands.starter is not None:
        lines.append(f"The starter: the {hands.starter.name}.")
    return lines


@dataclass(frozen=True, slots=True)
class Told:
    """What the seat heard of a match, step by step in the order it heard the log (`Hearing`): ``lines[k]`` the
    narrator's lines for step ``k`` (the log's event ``order[k]`` as the seat saw it), and ``standing[k]`` the
    scores said at the pause before step ``k`` (before a deal, at normal verbosity)."""

    hearing: Hearing
    lines: tuple[tuple[str, ...], ...]
    standing: dict[int, str]

    @property
    def order(self) -> tuple[int, ...]:
        """The log's index of each step."""
        return self.hearing.order


def told(match: PastMatch, verbosity: Verbosity) -> Told:
    """The narrator's words for every event of ``match`` as its seat saw them, in the order it heard them, at
    ``verbosity``: what the seat heard in play."""
    events = match.view_at(len(match.events)).events
    narrator = Narrator(match.names, match.rules, match.seat, verbosity)
    hearing = match.hearing()
    pauses = set(hearing.pauses)
    lines: list[tuple[str, ...]] = []
    standing: dict[int, str] = {}
    for step, index in enumerate(hearing.order):
        if step in pauses and not isinstance(events[index], GameStarted) and verbosity is Verbosity.NORMAL:
            standing[step] = narrator.standing()
        lines.append(tuple(narrator.tell(events[index])))
    return Told(hearing, tuple(lines), standing)


def transcript(match: PastMatch, verbosity: Verbosity, ended: datetime) -> str:
    """The whole match as plain text to share: who, when, who "you" is (`heard_by`) and the result, then the
    narrator's words, event by event as the seat heard them, with every hand shown deal by deal; one announcement a
    line, a blank line between deals. Characters outside ASCII (in a name) are written as their nearest ASCII
    letters."""
    heard = told(match, verbosity)
    pauses = set(heard.hearing.pauses)
    out: list[str] = [
        f"audiocrib: {match.rules.describe()}.",
        f"{date_said(ended)}, {match.place}: {who_said(match)}.",
        heard_by(match),
        f"{capitalised(result_said(match))}.",
        "",
    ]
    for step, index in enumerate(heard.order):
        if step in pauses:
            if step in heard.standing:
                out.append(heard.standing[step])
            out.append("")
        out.extend(heard.lines[step])
        if isinstance(match.events[index], Dealt):
            hands = match.hands_at(_deal_end(match, index))
            assert hands is not None  # a deal is under way up to its end
            out.extend(hands_said(match, hands))
    return _ascii("\n".join(out).rstrip() + "\n")


def _deal_end(match: PastMatch, start: int) -> int:
    """The number of events up to the end of the deal that starts at ``start`` (the next deal, game or the end)."""
    later = [i for i in (*match.deal_starts(), *match.pauses(), len(match.events)) if i > start]
    return min(later)


def _ascii(text: str) -> str:
    """``text`` in plain ASCII: accents dropped ("Jose"), anything else a question mark."""
    import unicodedata

    folded = unicodedata.normalize("NFKD", text)
    return "".join(ch if ch.isascii() else ("" if unicodedata.combining(ch) else "?") for ch in folded)


def listed(count: int) -> str:
    """How many past matches the list holds: "Past matches, twelve, newest first."."""
    return f"Past matches, {number_words(count)}, newest first."
