"""The narrator: real event logs, as one seat sees them, turned into sentences (audiocrib/telling/narrator.py)."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterable, Sequence

import pytest

from audiocrib.bots.base import Bot
from audiocrib.bots.beginner import Beginner
from audiocrib.bots.easy import Easy
from audiocrib.bots.medium import Medium
from audiocrib.bots.player import drive
from audiocrib.engine.actions import ClaimCount, CountTimeout
from audiocrib.engine.cards import Card, parse_cards
from audiocrib.engine.events import (
    CountRequested,
    CutForDeal,
    Dealt,
    Discarded,
    Event,
    GameStarted,
    GameWon,
    HandShown,
    HisHeels,
    LastCard,
    MatchWon,
    Played,
    PlayEnded,
    PointsGiven,
    SaidGo,
    SeriesEnded,
    StarterCut,
    ThreeForLast,
)
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules, Variant
from audiocrib.engine.scoring import score_play
from audiocrib.telling.narrator import Narrator, Verbosity, play_points
from tests.helpers import TABLES, plays, random_action, stacked, start_play

NAMES = ("Ann", "Bob", "Carol", "Dave", "Eve", "Frank")
BGA = ("5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C")
"""seed 000's worked example (Board Game Arena help): Alice deals and keeps 2 4 5 6; Bob keeps 4 6 7 J."""


# ----------------------------------------------------------------- shared checks (test_answers uses them too)
def assert_spoken(line: str, digits_allowed: bool = False) -> None:
    """One announcement: a non-empty printable ASCII line, ending in punctuation, counts and points in words."""
    assert line, "an empty announcement"
    assert line.isascii() and line.isprintable(), line
    assert line == line.strip() and "  " not in line, line
    assert line[-1] in ".!?", line
    assert line[0].isupper() or line[0].isdigit(), line
    if not digits_allowed:
        assert not re.search(r"\d", line), line


def hidden_from(events: Sequence[Event], seat: int) -> set[Card]:
    """The cards of other seats (and of the crib) that ``seat`` has not seen by the end of ``events`` (the full
    log): dealt to another seat or to the crib, and not yet played, shown or counted."""
    hidden: set[Card] = set()
    for event in events:
        hidden = _fold_hidden(hidden, event, seat)
    return hidden


def _fold_hidden(hidden: set[Card], event: Event, seat: int) -> set[Card]:
    if isinstance(event, Dealt):
        return {c for s, hand in enumerate(event.hands) if s != seat for c in hand} | set(event.crib)
    if isinstance(event, Played):
        return hidden - {event.card}
    if isinstance(event, HandShown | CountRequested):
        return hidden - set(event.cards)
    return hidden


def assert_names_none_of(line: str, hidden: Iterable[Card]) -> None:
    for card in hidden:
        assert card.name not in line, f"{line!r} names the hidden {card.name}"


def narrate(game: Game, seat: int, verbosity: Verbosity = Verbosity.NORMAL) -> list[str]:
    return Narrator(game.names, game.rules, seat, verbosity).tell_all(game.view(seat).events)


def narrated_by_event(game: Game, seat: int, verbosity: Verbosity) -> list[tuple[Event, list[str]]]:
    narrator = Narrator(game.names, game.rules, seat, verbosity)
    return [(event, narrator.tell(event)) for event in game.view(seat).events]


def bga(names: Sequence[str] = ("Alice", "Bob")) -> Game:
    game = stacked(list(BGA), dealer=0, names=names)
    return start_play(game, ["8D 8C", "TS KC"], "6S")


# ----------------------------------------------------------------- the sentences the issue asks for
class TestThePlay:
    def test_board_game_arena_play_as_alice_hears_it(self) -> None:
        game = bga()
        plays(game, "1:JH 0:5S 1:7C 0:6H 0:2S 1:6D 0:4S 1:4H")
        lines = narrate(game, 0)
        start = lines.index("Bob cuts; the starter is the six of spades.")
        assert lines[start - 1] == "You lay away the eight of clubs and the eight of diamonds."
        play_end = lines.index("The play is over.")
        assert lines[start + 1:play_end + 1] == [
            "Bob plays the jack of hearts for ten.",
            "You play the five of spades for fifteen: two points.",
            "Bob plays the seven of clubs for twenty-two.",
            "You play the six of hearts for twenty-eight: a run of three, three points.",
            "Bob says go.",
            "You play the two of spades for thirty.",
            "You peg one for the go.",
            "The count starts again at zero.",
            "Bob plays the six of diamonds for six.",
            "You play the four of spades for ten.",
            "Bob plays the four of hearts for fourteen: a pair, two points.",
            "Bob pegs one for last.",
            "The play is over.",
        ]

    def test_bob_hears_himself_as_you_and_alice_by_name(self) -> None:
        game = bga()
        plays(game, "1:JH 0:5S 1:7C 0:6H")
        lines = narrate(game, 1)
        assert "You play the seven of clubs for twenty-two." in lines
        assert "Alice plays the six of hearts for twenty-eight: a run of three, three points." in lines
        assert "You say go." in lines
        assert "You cut; the starter is the six of spades." in lines
        assert "You lay away the ten of spades and the king of clubs." in lines
        assert not any("Alice lays away" in line for line in lines)  # said at full only

    def test_fifteen_at_fifteen_says_only_the_points(self) -> None:
        game = stacked(["7H 2D 3D 4S KS QS", "8C 9H TH JC AC AD"], dealer=1, names=NAMES[:2])
        game = start_play(game, ["KS QS", "AC AD"], "5S")
        plays(game, "0:7H 1:8C")
        assert narrate(game, 0)[-1] == "Bob plays the eight of clubs for fifteen: two points."

    @pytest.mark.parametrize(("series", "said"), [
        ("KS 9C 6D 6H", "thirty-one and a pair, four points"),
        ("3S 3H 3D", "a pair royal, six points"),
        ("7C 4S 4D", "fifteen and a pair, four points"),
        ("4C 6D 5H", "fifteen and a run of three, five points"),
        ("5C 5D 5H", "fifteen and a pair royal, eight points"),
        ("KS QS 6D 5C", "two points"),
        ("9S 6H 8D 7C", "a run of four, four points"),
        ("2C 2D 2H 2S", "a double pair royal, twelve points"),
        ("KS TD 9C", ""),
    ])
    def test_points_in_the_play_are_said_after_the_count(self, series: str, said: str) -> None:
        cards = parse_cards(series)
        assert play_points(score_play(cards), sum(c.value for c in cards)) == said

    def test_a_stacked_thirty_one_and_a_pair_in_a_real_game(self) -> None:
        game = stacked(["KS 6D 2C 3C QH QD", "9C 6H 4D 4C JH JD"], dealer=0, names=NAMES[:2])
        game = start_play(game, ["QH QD", "JH JD"], "AS")
        plays(game, "1:9C 0:KS 1:6H 0:6D")
        lines = narrate(game, 1)
        assert "Ann plays the six of diamonds for thirty-one: thirty-one and a pair, four points." in lines
        assert lines[-1] == "The count starts again at zero."

    def test_the_count_does_not_start_again_after_the_last_card_of_the_play(self) -> None:
        game = bga()
        plays(game, "1:JH 0:5S 1:7C 0:6H 0:2S 1:6D 0:4S 1:4H")
        events = game.view(0).events
        assert sum(isinstance(e, SeriesEnded) for e in events) == 2  # the engine ends both series
        assert narrate(game, 0).count("The count starts again at zero.") == 1

    def test_five_card_play_is_one_series_and_cards_still_held_are_said(self) -> None:
        rules = Rules(variant=Variant.FIVE_CARD)
        game = stacked(["KS QS 9S 2C 3C", "KD QD TD 2D 3D"], dealer=1, rules=rules, names=NAMES[:2])
        game = start_play(game, ["2C 3C", "2D 3D"], "AH")
        plays(game, "0:KS 1:KD 0:QS")
        lines = narrate(game, 0)
        assert "Bob plays the king of diamonds for twenty: a pair, two points." in lines
        assert "Bob says go." in lines and "You peg one for last." in lines
        assert "The count starts again at zero." not in lines
        assert "The play is over. The cards still held are not played, but they count in the show." in lines
        assert "The play is over." in narrate(game, 0, Verbosity.BRIEF)

    def test_his_heels_goes_to_the_dealer(self) -> None:
        game = stacked(list(BGA), dealer=0, names=NAMES[:2])
        game = start_play(game, ["8D 8C", "TS KC"], "JD")
        assert isinstance(game.events[-1], HisHeels)
        assert narrate(game, 1)[-2:] == ["You cut; the starter is the jack of diamonds.", "Ann pegs two for his heels."]
        assert narrate(game, 0)[-1] == "You peg two for his heels."
        assert narrate(game, 0, Verbosity.FULL)[-2:] == ["You peg two for his heels.", "You have two."]
        assert narrate(game, 1, Verbosity.FULL)[-1] == "Ann has two; you have zero."


class TestBeforeThePlay:
    def test_cut_for_deal_ties_cut_again(self) -> None:
        for seed in range(300):
            game = Game(Rules(players=4), names=NAMES[:4], seed=seed)
            cuts = [e for e in game.events if isinstance(e, CutForDeal)]
            if len(cuts) > 1:
                break
        else:
            pytest.fail("no tie in 300 seeds")
        lines = narrate(game, 0)
        first = cuts[0]
        low = min(c.rank for c in first.cards)
        tied = [s for s, c in zip(first.seats, first.cards, strict=True) if c.rank == low]
        cuts_said = "; ".join(
            ("you cut" if s == 0 else f"{NAMES[s]} cuts") + f" the {c.name}"
            for s, c in zip(first.seats, first.cards, strict=True)
        )
        tie_names = ["you" if s == 0 else NAMES[s] for s in tied]
        tie = (" and ".join(tie_names) if len(tie_names) == 2
               else ", ".join(tie_names[:-1]) + " and " + tie_names[-1])
        assert lines[0] == f"{cuts_said[0].upper()}{cuts_said[1:]}. {tie[0].upper()}{tie[1:]} tie with " \
                           f"{low.plural} and cut again."
        assert "cut again" not in lines[len(cuts) - 1]
        dealer = game.dealer
        assert lines[len(cuts)] == ("You deal first." if dealer == 0 else f"{NAMES[dealer]} deals first.")
        brief = narrate(game, 0, Verbosity.BRIEF)[0]
        assert brief.startswith("Cut for deal: you, ") and brief.endswith(" cut again.")

    def test_the_deal_reads_the_hand_in_sorted_order(self) -> None:
        game = stacked(list(BGA), dealer=0, names=NAMES[:2])
        lines = narrate(game, 1)
        assert lines[-2:] == [
            "Deal one: Ann deals.",
            "Your hand: four of hearts, six of diamonds, seven of clubs, ten of spades, jack of hearts and king of "
            "clubs.",
        ]
        assert narrate(game, 0)[-2] == "Deal one: you deal."
        assert narrate(game, 1, Verbosity.BRIEF)[-1] == "Deal one, Ann deals."
        assert narrate(game, 1, Verbosity.FULL)[-2] == "Deal one: Ann deals, so the crib is Ann's."
        assert narrate(game, 0, Verbosity.FULL)[-2] == "Deal one: you deal, so the crib is yours."

    def test_three_players_hear_of_the_card_from_the_pack_at_full(self) -> None:
        game = Game(Rules(players=3), names=NAMES[:3], seed=2)
        full = narrate(game, 0, Verbosity.FULL)
        assert any(line.endswith("One card from the pack goes to the crib.") for line in full)
        assert not any("from the pack" in line for line in narrate(game, 0))

    def test_laying_away(self) -> None:
        game = bga()
        assert "You lay away the eight of clubs and the eight of diamonds." in narrate(game, 0)
        assert "Laid away: eight of clubs and eight of diamonds." in narrate(game, 0, Verbosity.BRIEF)
        assert "Bob lays away two cards." in narrate(game, 0, Verbosity.FULL)
        assert not any("Bob lays away" in line for line in narrate(game, 0))
        assert not any("Bob lays away" in line for line in narrate(game, 0, Verbosity.BRIEF))

    def test_games_of_a_match_are_numbered(self) -> None:
        rules = Rules(match_games=2)
        game = drive(Game(rules, names=NAMES[:2], seed=9), [Easy(seed=1), Easy(seed=2)])
        lines = narrate(game, 0)
        started = [e for e in game.view(0).events if isinstance(e, GameStarted)]
        assert len(started) >= 2
        for event in started:
            who = "you deal" if event.dealer == 0 else f"{NAMES[event.dealer]} deals"
            assert f"Game {number_words(event.game)}: {who} first." in lines
        single = drive(Game(names=NAMES[:2], seed=9), [Easy(seed=1), Easy(seed=2)])
        assert not any(line.startswith("Game one") for line in narrate(single, 0))

    def test_three_for_last(self) -> None:
        game = Game(Rules(variant=Variant.FIVE_CARD), names=NAMES[:2], seed=5)
        three = next(e for e in game.events if isinstance(e, ThreeForLast))
        other = 1 - three.seat
        assert "Three for last to you." in narrate(game, three.seat)
        assert f"Three for last to {NAMES[three.seat]}." in narrate(game, other)
        full = narrate(game, three.seat, Verbosity.FULL)
        assert full[full.index("Three for last to you.") + 1] == "You have three."


class TestTheShow:
    def _shown(self) -> Game:
        game = bga()
        plays(game, "1:JH 0:5S 1:7C 0:6H 0:2S 1:6D 0:4S 1:4H")
        return game

    def test_normal_names_the_cards_of_other_hands_and_of_the_crib(self) -> None:
        game = self._shown()
        lines = narrate(game, 0)
        show = lines.index("The play is over.")
        assert lines[show + 1:show + 4] == [
            "Bob's hand: four of hearts, six of diamonds, seven of clubs and jack of hearts. A pair is two.",
            "Your hand: two of spades, four of spades, five of spades and six of hearts. Fifteen two, fifteen four, "
            "a pair is six, a run of three is nine, and a run of three is twelve.",
            "Your crib: eight of clubs, eight of diamonds, ten of spades and king of clubs. A pair is two.",
        ]
        theirs = narrate(game, 1)
        show = theirs.index("The play is over.")
        assert theirs[show + 1:show + 4] == [
            "Your hand: four of hearts, six of diamonds, seven of clubs and jack of hearts. A pair is two.",
            "Alice's hand: two of spades, four of spades, five of spades and six of hearts. Fifteen two, fifteen "
            "four, a pair is six, a run of three is nine, and a run of three is twelve.",
            "Alice's crib: eight of clubs, eight of diamonds, ten of spades and king of clubs. A pair is two.",
        ]

    def test_verbosities_of_a_shown_hand(self) -> None:
        game = self._shown()
        brief = narrate(game, 0, Verbosity.BRIEF)
        show = brief.index("The play is over.")
        assert brief[show + 1:show + 4] == ["Bob's hand, two.", "Your hand, twelve.", "Your crib, two."]
        full = narrate(game, 0, Verbosity.FULL)
        show = full.index("The play is over.")
        assert full[show + 1:show + 7] == [
            "Bob's hand: four of hearts, six of diamonds, seven of clubs and jack of hearts, with the starter, the six "
            "of spades. A pair is two.",
            "Bob has five; you have six.",
            "Your hand: two of spades, four of spades, five of spades and six of hearts, with the starter, the six of "
            "spades. Fifteen two, fifteen four, a pair is six, a run of three is nine, and a run of three is twelve.",
            "You have eighteen.",
            "Your crib: eight of clubs, eight of diamonds, ten of spades and king of clubs, with the starter, the six "
            "of spades. A pair is two.",
            "You have twenty.",
        ]

    def test_the_count_is_in_cribbage_style(self) -> None:
        game = stacked(["7H 8H 8C 2D QS KS", "AC 3C 9D TD 4S 6S"], dealer=1, names=NAMES[:2])
        game = start_play(game, ["QS KS", "4S 6S"], "5S")
        rng = random.Random(0)
        while game.phase is Phase.PLAY:
            game.apply(random_action(game, rng))
        lines = narrate(game, 0)
        assert ("Your hand: two of diamonds, seven of hearts, eight of clubs and eight of hearts. Fifteen two, "
                "fifteen four, fifteen six, fifteen eight, and a pair is ten." in lines)
        assert "Your hand, ten." in narrate(game, 0, Verbosity.BRIEF)

    def test_a_hand_of_nothing_is_nineteen(self) -> None:
        narrator = Narrator(NAMES[:2], Rules(), 0)
        cards = parse_cards("AH 3C 9D QS")
        from audiocrib.engine.scoring import score_hand

        starter = Card.parse("7C")
        score = score_hand(cards, starter)
        assert narrator.tell(HandShown(0, False, cards, starter, score, 0)) == [
            "Your hand: ace of hearts, three of clubs, nine of diamonds and queen of spades. Nineteen: nothing."]
        assert narrator.tell(HandShown(1, False, cards, starter, score, 0)) == [
            "Bob's hand: ace of hearts, three of clubs, nine of diamonds and queen of spades. Nineteen: nothing."]
        narrator.verbosity = Verbosity.BRIEF
        assert narrator.tell(HandShown(1, True, cards, starter, score, 0)) == ["Bob's crib, nothing."]


class TestManualCounting:
    """rules.md, "Manual counting": the claim, the true count, and who pegs what."""

    HANDS = ("7H 8H 8C 2D QS KS", "AC 3C 9D TD 4S 6S")  # Ann keeps 7H 8H 8C 2D: ten with the five of spades
    COUNT = "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten"

    def _to_count(self, rules: Rules, hands: list[str] | None = None) -> Game:
        game = stacked(hands or list(self.HANDS), dealer=1, rules=rules, manual_seats=[0], names=NAMES[:2])
        game = start_play(game, ["QS KS", "4S 6S"], "5S")
        rng = random.Random(0)
        while game.phase is Phase.PLAY:
            game.apply(random_action(game, rng))
        assert game.counting == (0, False)
        return game

    def _new_lines(self, game: Game, seat: int, before: int, verbosity: Verbosity = Verbosity.NORMAL) -> list[str]:
        narrator = Narrator(game.names, game.rules, seat, verbosity)
        events = game.view(seat).events
        narrator.tell_all(events[:before])
        return narrator.tell_all(events[before:])

    def test_the_count_is_requested(self) -> None:
        game = self._to_count(Rules(manual_counting=True, count_timer=30))
        assert narrate(game, 0)[-1] == (
            "Count your hand: two of diamonds, seven of hearts, eight of clubs and eight of hearts, with the "
            "starter, the five of spades; type the total and press Enter. You have thirty seconds.")
        assert narrate(game, 1)[-1] == "Ann is counting."
        assert narrate(game, 0, Verbosity.BRIEF)[-1] == (
            "Count your hand: two of diamonds, seven of hearts, eight of clubs and eight of hearts; starter five of "
            "spades.")

    def test_under_count(self) -> None:
        game = self._to_count(Rules(manual_counting=True))
        before = len(game.events)
        game.apply(ClaimCount(0, 8))
        lines = self._new_lines(game, 0, before)
        assert lines[:2] == [
            f"You said eight. The hand is ten: {self.COUNT}.",
            "You missed two; Bob pegs them.",
        ]
        # The issue's own example, word for word (hand 7H 8H 8C 2D, starter 5S):
        assert " ".join(lines[:2]) == (
            "You said eight. The hand is ten: fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is "
            "ten. You missed two; Bob pegs them.")
        theirs = self._new_lines(game, 1, before)
        assert theirs[:2] == [
            "Ann's hand: two of diamonds, seven of hearts, eight of clubs and eight of hearts. Ann said eight. "
            f"The hand is ten: {self.COUNT}.",
            "Ann missed two; you peg them.",
        ]
        assert self._new_lines(game, 0, before, Verbosity.BRIEF)[:2] == [
            "You said eight. The hand is ten.", "You missed two; Bob pegs them."]

    def test_one_point_missed_is_it(self) -> None:
        game = self._to_count(Rules(manual_counting=True))
        before = len(game.events)
        game.apply(ClaimCount(0, 9))
        assert self._new_lines(game, 0, before)[1] == "You missed one; Bob pegs it."

    def test_over_count(self) -> None:
        game = self._to_count(Rules(manual_counting=True))
        before = len(game.events)
        game.apply(ClaimCount(0, 13))
        assert self._new_lines(game, 0, before)[:2] == [
            f"You said thirteen. The hand is ten: {self.COUNT}.",
            "You over-counted by three; Bob pegs them.",
        ]
        full = self._new_lines(game, 1, before, Verbosity.FULL)
        assert full[2] == "Ann over-counted by three; you peg them."
        assert re.fullmatch(r"You have [a-z-]+\.", full[3])  # the scorer is the listener: one score

    def test_over_count_without_the_penalty(self) -> None:
        game = self._to_count(Rules(manual_counting=True, overcount_penalty=False))
        before = len(game.events)
        game.apply(ClaimCount(0, 13))
        lines = self._new_lines(game, 0, before)
        assert lines[0] == f"You said thirteen. The hand is ten: {self.COUNT}."
        assert not any("over-counted" in line for line in lines)

    def test_right_count(self) -> None:
        game = self._to_count(Rules(manual_counting=True))
        before = len(game.events)
        game.apply(ClaimCount(0, 10))
        lines = self._new_lines(game, 0, before)
        assert lines[0] == f"You said ten, which is right: {self.COUNT}."
        assert not any("missed" in line or "over-counted" in line for line in lines)

    def test_timer(self) -> None:
        game = self._to_count(Rules(manual_counting=True, count_timer=30),
                              hands=["7H 8H 8C 2S QS KS", "AC 3C 9D TD 4S 6S"])
        before = len(game.events)
        game.apply(CountTimeout(0))
        assert self._new_lines(game, 0, before)[:2] == [
            f"Your time is up. The hand is ten: {self.COUNT}. You peg five.",
            "Bob pegs five, half the count, because your time ran out.",
        ]
        assert self._new_lines(game, 1, before)[1] == "You peg five, half the count, because Ann's time ran out."

    def test_teams_give_to_the_next_opponent(self) -> None:
        rules = Rules(players=4, team_size=2, manual_counting=True)
        hands = ["7H 8H 8C 2D QS", "AC 3C 9D TD 4S", "KD QD JC 6D 6C", "9S 9H AD 2C 3D"]
        game = stacked(hands, dealer=3, rules=rules, manual_seats=[0], names=NAMES[:4])
        game = start_play(game, ["QS", "4S", "6C", "3D"], "5S")
        rng = random.Random(0)
        while game.phase is Phase.PLAY:
            game.apply(random_action(game, rng))
        before = len(game.events)
        game.apply(ClaimCount(0, 0))
        assert self._new_lines(game, 0, before)[1] == "You missed ten; Bob pegs them."
        assert self._new_lines(game, 2, before)[1] == "Ann missed ten; Bob pegs them."
        full = self._new_lines(game, 2, before, Verbosity.FULL)
        assert full[1] == "Ann missed ten; Bob pegs them."
        assert re.fullmatch(r"Bob and Dave have [a-z-]+; you and Ann have [a-z-]+\.", full[2])


class TestWinning:
    def test_a_double_skunk_on_his_heels(self) -> None:
        game = stacked(list(BGA), dealer=0, scores=[119, 50], names=NAMES[:2])
        game = start_play(game, ["8D 8C", "TS KC"], "JD")
        assert game.over
        assert narrate(game, 0)[-3:] == [
            "You peg two for his heels.",
            "You win the game, one hundred twenty-one to fifty. That is a double skunk.",
            "Game over.",
        ]
        assert narrate(game, 1)[-2] == (
            "Ann wins the game, one hundred twenty-one to fifty. That is a double skunk.")

    def test_a_lurch_in_five_card_cribbage(self) -> None:
        rules = Rules(variant=Variant.FIVE_CARD, match_games=5)
        game = stacked(["KS QS 9S 2C 3C", "KD QD TD 2D 3D"], dealer=1, rules=rules, scores=[20, 59],
                       names=NAMES[:2])
        game = start_play(game, ["2C 3C", "2D 3D"], "JH")  # his heels to Bob: sixty-one
        lines = narrate(game, 0)
        won = lines.index("Bob pegs two for his heels.") + 1
        assert lines[won:won + 2] == [
            "Bob wins game one, sixty-one to twenty. That is a lurch, worth two games. In the match to five game "
            "points, you have none and Bob has two.",
            "Game two: you deal first.",
        ]

    def test_the_match_is_won(self) -> None:
        rules = Rules(match_games=3)
        game = drive(Game(rules, names=NAMES[:2], seed=4), [Beginner(seed=1), Medium(seed=2)])
        won = [e for e in game.events if isinstance(e, GameWon)]
        match = game.events[-1]
        assert isinstance(match, MatchWon)
        for seat in (0, 1):
            lines = narrate(game, seat)
            winner = "You" if match.side == seat else NAMES[match.side]
            verb = "win" if match.side == seat else "wins"
            mine, theirs = match.match_scores[match.side], match.match_scores[1 - match.side]
            assert lines[-1] == (f"{winner} {verb} the match, {number_words(mine)} game points to "
                                 f"{number_words(theirs) if theirs else 'none'}.")
            for event in won:
                said = [line for line in lines if line.startswith((f"{winner} {verb} game", "You win game",
                                                                   f"{NAMES[1 - seat]} wins game"))]
                assert any(f"game {number_words(event.game)}, " in line for line in said)
        last = narrate(game, 0)[-2]
        assert "In the match to" not in last  # the match score is said once, by the match's own line

    def test_teams_win_together(self) -> None:
        rules = Rules(players=4, team_size=2)
        game = stacked(["5S 4S 2S 8D 6H", "TS 6D JH 4H KC", "AC 2C 3C 4C 5C", "9S 9H AD 2D 3D"], dealer=0,
                       rules=rules, scores=[119, 100], names=NAMES[:4])
        game = start_play(game, ["8D", "KC", "5C", "3D"], "JD")
        assert game.over
        assert narrate(game, 0)[-2] == "You and Carol win the game, one hundred twenty-one to one hundred."
        assert narrate(game, 1)[-2] == "Ann and Carol win the game, one hundred twenty-one to one hundred."
        assert narrate(game, 3)[-2] == "Ann and Carol win the game, one hundred twenty-one to one hundred."

    def test_three_sides_hear_every_score(self) -> None:
        rules = Rules(players=3)
        game = stacked(["KS QS JS 2D 9C", "5C 5D 5H AS 9D", "TC 3C 4C 7D 9H"], dealer=0, rules=rules,
                       scores=[119, 90, 80], crib="2H", names=NAMES[:3])
        game = start_play(game, ["9C", "9D", "9H"], "JD")
        assert narrate(game, 1)[-2] == ("Ann wins the game with one hundred twenty-one; you have ninety and Carol "
                                        "has eighty. That is a skunk.")
        assert narrate(game, 2)[-2] == ("Ann wins the game with one hundred twenty-one; you have eighty and Bob "
                                        "has ninety. That is a skunk.")


class TestNames:
    def test_seats_and_sides(self) -> None:
        six = Narrator(NAMES, Rules(players=6, team_size=3), seat=2)
        assert six.seat_name(2) == "you" and six.seat_name(2, capital=True) == "You"
        assert six.seat_name(0) == "Ann" and six.seat_name(0, capital=True) == "Ann"
        assert six.side_name(0) == "you, Ann and Eve" and six.side_name(1) == "Bob, Dave and Frank"
        assert six.side_name(0, capital=True) == "You, Ann and Eve"
        four = Narrator(NAMES[:4], Rules(players=4, team_size=2), seat=0)
        assert four.side_name(0) == "you and Carol" and four.side_name(1) == "Bob and Dave"
        alone = Narrator(NAMES[:4], Rules(players=4), seat=0)
        assert alone.side_name(3) == "Dave" and alone.side_name(0) == "you"

    def test_bad_tables_are_refused(self) -> None:
        with pytest.raises(ValueError, match="needs 2 names"):
            Narrator(NAMES[:3], Rules(), 0)
        with pytest.raises(ValueError, match="no such seat"):
            Narrator(NAMES[:2], Rules(), 3)  # 2 is the watchers' seat


# ----------------------------------------------------------------- whole games, every table, every verbosity
def _bots(rules: Rules) -> list[Bot]:
    levels: list[type[Bot]] = [Beginner, Easy, Medium]
    return [levels[seat % 3](seed=seat, count_mistakes=0.3) for seat in range(rules.players)]


def _whole_game(rules: Rules, seed: int) -> Game:
    rules = dataclasses.replace(rules, manual_counting=True, match_games=2)
    game = Game(rules, names=NAMES[:rules.players], seed=seed, manual_seats=[0])
    return drive(game, _bots(rules))


KINDS_ALWAYS_SAID = (CutForDeal, GameStarted, ThreeForLast, Dealt, StarterCut, HisHeels, Played, SaidGo, LastCard,
                     CountRequested, HandShown, PointsGiven, GameWon, MatchWon, PlayEnded)


@pytest.mark.parametrize("rules", TABLES, ids=[r.describe() for r in TABLES])
def test_whole_games_are_narrated_well_at_every_verbosity(rules: Rules) -> None:
    game = _whole_game(rules, seed=rules.players * 7 + len(rules.variant))
    full_log = game.events
    for seat in range(rules.players):
        seen = game.view(seat).events
        assert len(seen) == len(full_log)
        for verbosity in Verbosity:
            narrator = Narrator(game.names, game.rules, seat, verbosity)
            hidden: set[Card] = set()
            for real, event in zip(full_log, seen, strict=True):
                hidden = _fold_hidden(hidden, real, seat)
                lines = narrator.tell(event)
                for line in lines:
                    assert_spoken(line)
                    assert_names_none_of(line, hidden)
                if isinstance(event, KINDS_ALWAYS_SAID) or (isinstance(event, Discarded) and event.seat == seat):
                    assert lines, f"{event.kind} said nothing at {verbosity}"
                if verbosity is Verbosity.FULL and event.points:
                    assert len(lines) >= 2 and " ha" in lines[-1]
                if isinstance(event, Played):
                    assert number_words(event.count) in lines[0]
                if isinstance(event, HandShown):
                    total = event.score.total
                    assert (number_words(total) if total else "nothing") in lines[0]
            # The narrator's running scores are the game's.
            assert narrator.scores == list(game.scores)


def test_the_verbosity_can_change_between_events() -> None:
    game = bga()
    plays(game, "1:JH 0:5S")
    narrator = Narrator(game.names, game.rules, 0)
    events = game.view(0).events
    narrator.tell_all(events[:-2])
    assert narrator.tell(events[-2]) == ["Bob plays the jack of hearts for ten."]
    narrator.verbosity = Verbosity.BRIEF
    assert narrator.tell(events[-1]) == ["You: five of spades, fifteen for two."]
    narrator.verbosity = Verbosity.FULL
    assert narrator.tell(SaidGo(1)) == ["Bob says go."]
    assert narrator.tell(LastCard(0, 15)) == ["You peg one for the go.", "You have three."]  # cards still to play


def test_others_hidden_cards_reach_no_narrator() -> None:
    """A direct check of the check: every seat's narration before the show names none of the others' cards."""
    game = bga()
    for seat in (0, 1):
        hidden = hidden_from(game.events, seat)
        assert len(hidden) == 6
        for verbosity in Verbosity:
            for line in narrate(game, seat, verbosity):
                assert_names_none_of(line, hidden)
    with pytest.raises(AssertionError):
        assert_names_none_of("Bob plays the jack of hearts for ten.", hidden_from(game.events, 0))


def test_an_unknown_event_says_nothing() -> None:
    narrator = Narrator(NAMES[:2], Rules(), 0)
    assert narrator.tell(Event()) == []
