"""Practice with the coach: the discard drills say the coach's reason when an answer falls short of the best, and
the play drill (a position from a real game, a card chosen by the game's keys, judged by the coach from the seat's
own view), driven through the real shell in-process."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from audiocrib.coach import Coach, lay_away_facts
from audiocrib.engine.cards import parse_cards
from audiocrib.engine.events import Dealt
from audiocrib.engine.numbers import number_words
from audiocrib.progress.play_choice import PlayChoiceDrill, judge_play_choice, play_choice_drill
from audiocrib.progress.practice import DiscardDrill, PracticeRecord, judge_discard
from audiocrib.telling.coaching import loss_words, rank_list
from audiocrib.telling.drilling import play_verdict
from tests.shell_driver import Table, run

PLAY_DRILL_10 = (
    "Which card would you lay? You deal. The starter is the eight of diamonds. On the table: Bob's four of clubs; "
    "the count is four. Your cards: 1, ace of hearts, makes five; 2, four of hearts, makes eight; 3, king of clubs, "
    "makes fourteen; 4, king of hearts, makes fourteen. Choose a card with the digits or the arrows, and press Enter "
    "to lay it.")
"""The first play drill of seed 10: a position from a computer players' game, the same for every run."""


async def start(table: Table, downs: int) -> list[str]:
    """From the main menu to the practice menu, then down to a drill's item and start it."""
    await table.press("down", "down", "enter")
    return await table.press(*(["down"] * downs), "enter")


def test_a_discard_drill_within_a_tenth_is_no_mistake_and_one_further_off_hears_the_coachs_reason() -> None:
    async def script(table: Table) -> None:
        await start(table, 4)
        drill = table.session.drills.drill
        assert isinstance(drill, DiscardDrill) and drill.dealer
        assert drill.cards == parse_cards("2H 4S 5S 7D 8H QH")  # the first deal of seed 4
        result = judge_discard(drill, parse_cards("5S QH"))
        assert 0 < result.loss <= 0.1 and result.rank > 1
        said = await table.press("3", "6", "enter")  # the five of spades and the queen of hearts
        assert "That is choice two of fifteen, as good as the best within a tenth of a point: laying away " in said[-1]
        assert "gives up" not in said[-1] and "reason" not in said[-1] and "Best was" not in said[-1]
        assert f"net {result.chosen.net:.1f}" in said[-1]

        await table.press("enter")
        drill = table.session.drills.drill
        assert isinstance(drill, DiscardDrill)
        worst = judge_discard(drill, drill.cards[:2]).options[-1]
        for card in worst.discard:
            await table.press(str(drill.cards.index(card) + 1))
        said = await table.press("enter")
        result = judge_discard(drill, worst.discard)
        best = lay_away_facts(drill.cards, 2, my_crib=drill.dealer, crib_size=4).best
        assert set(best.discard) == set(result.options[0].discard)
        place = f"choice {number_words(result.rank)} of fifteen"
        assert f"net {result.chosen.net:.1f}. That is {place}. Best was to lay away " in said[-1]
        assert f", {result.loss:.1f} more. That gives up about {loss_words(result.loss)} of expectation. " in said[-1]
        # the keep and its figures were said just before: the reason says what they do not, each thing once
        assert "Why the best: It is " in said[-1] and "The coach's reason" not in said[-1]
        assert said[-1].count(f"keep {rank_list(best.keep)[4:]}") + said[-1].count(f"Keep {rank_list(best.keep)}") \
            == 0 and "Net:" not in said[-1]
        assert "Next best" not in said[-1] and said[-1].endswith(" Press a for every choice, Enter for the next one.")
        why = said[-1].split(" That is ")[1].split(". ", 1)[1].removesuffix(" Press a for every choice, Enter for the "
                                                                           "next one.")

        await table.press("escape")
        said = await table.press("end", "up", "enter")  # go over the mistakes: the one within a tenth is none
        assert said[-1].startswith("One to go over; comma and period step through them. Mistake 1: a lay-away to ")
        assert said[-1].endswith(f"; you laid away {' and '.join('the ' + c.name for c in worst.discard)}, net "
                                 f"{result.chosen.net:.1f}. {why}")

    run(script, seed=4)


def test_the_play_drill_deals_a_known_position_and_the_coach_judges_the_card(tmp_path: Path) -> None:
    save = tmp_path / "saved-game.json"

    async def script(table: Table) -> None:
        said = await start(table, 5)
        assert said[-2] == "Start the play drills: which card to lay. 6 of 9."
        assert said[-1] == PLAY_DRILL_10
        drills = table.session.drills
        drill = drills.drill
        assert isinstance(drill, PlayChoiceDrill) and table.session.moment == "playing"
        for key, answer in (("a", "The a key does nothing now. Press Tab for help."),
                            ("9", "You hold only four cards."),
                            ("t", "The t key does nothing now. Press Tab for help."),
                            ("right", "Four of hearts, makes eight. 2 of 4."),
                            ("v", "On the table: Bob's four of clubs; the count is four."), ("c", "The count is four."),
                            ("b", "The crib is yours."), ("n", "You hold four cards; Bob holds three cards.")):
            assert await table.answer(key) == answer
        assert (await table.press("f1"))[0] == "1 to 4: Go to the card at that position."
        assert drills.drill is drill and table.session.moment == "playing" and drills.session.plays == 0

        assert await table.answer("1") == "Ace of hearts, makes five."
        said = await table.press("enter")
        assert said[-1].startswith("You laid the ace of hearts: choice three of three. It gives up about two and "
                                   "three quarters points of expectation. The coach's reason: The four: it pairs the "
                                   "four for two and leaves eight, where either of the two fours you have not seen "
                                   "gives Bob a pair royal for six")
        assert said[-1].endswith(" Press a for every card, Enter for the next one.")
        assert await table.answer("1") == "The 1 key does nothing now. Press Tab for help."
        said = await table.press("a", ".", ".")
        assert said[0].startswith("Three cards you could lay, best first, each with what it is worth over the rest "
                                  "of the play, your points less Bob's on average; period steps to the next, comma "
                                  "back. 1: the four, for eight, pegging two: ")
        assert said[2].startswith("3: the ace, for five: ") and said[2].endswith(" less. Your choice.")

        await table.press("enter")
        drill = drills.drill
        assert isinstance(drill, PlayChoiceDrill)
        best = drill.advice.best.card
        said = await table.press(str(drill.hand.index(best) + 1), "enter")
        assert said[-1] == (f"Right: the {best.name} is the best card here. Press a for every card, Enter for the "
                            "next one.")

        said = await table.press("escape")
        assert said[0].startswith("This session, your first: two cards laid, the best or as good once, 1.36 points "
                                  "a card given up on average.")  # 2.72 over two cards
        said = await table.press("end", "up", "enter")  # go over the mistakes
        assert said[-1].startswith("One to go over; comma and period step through them. Mistake 1: a play: Bob's four "
                                   "of clubs on the table, the count four, holding ace of hearts, four of hearts, king "
                                   "of clubs and king of hearts; you laid the ace of hearts. It gives up about two")

    run(script, seed=10, save_path=save)
    kept = json.loads((tmp_path / "practice.json").read_text())
    assert (kept["plays"], kept["right_plays"], kept["counts"], kept["discards"]) == (2, 1, 0, 0)
    assert abs(kept["play_points_lost"] - 2.72) < 0.01


def test_a_card_that_would_pass_thirty_one_is_refused_as_the_game_refuses_it() -> None:
    async def script(table: Table) -> None:
        await start(table, 5)
        drills = table.session.drills
        drill = drills.drill
        assert isinstance(drill, PlayChoiceDrill) and [str(c) for c in drill.hand] == ["AS", "2C", "8S"]
        assert await table.answer("3") == "Eight of spades, would pass thirty-one."
        said = await table.press("enter")
        assert said == ["The eight of spades would take the count past thirty-one; the count is twenty-eight."]
        assert drills.drill is drill and table.session.moment == "playing" and drills.session.plays == 0
        said = await table.press("h")
        assert said[0].startswith("You deal. The starter is the five of clubs. On the table: Bob's ten of spades, "
                                  "then your eight of hearts, then Bob's king of diamonds; the count is twenty-eight.")

    run(script, seed=13)


def test_a_card_within_a_tenth_of_the_best_is_right() -> None:
    drill = play_choice_drill(random.Random(4))  # a lead where the queen is within a tenth of the jack
    queen = next(card for card in drill.hand if card.rank.word == "queen")
    result = judge_play_choice(drill, queen)
    assert drill.advice.best.card.rank.word == "jack" and 0 < result.decision.loss <= 0.1
    assert result.right and not result.best and result.rank == 2
    assert play_verdict(result.decision, result.rank) == ("Right: the queen of spades is as good as the best, the "
                                                          "jack, within a tenth of a point.")
    record = PracticeRecord()
    record.add_play(result)
    record.add_play(judge_play_choice(drill, min(drill.hand)))  # the ace: a mistake, kept for review
    assert (record.plays, record.right_plays, len(record.mistakes)) == (2, 1, 1)
    again = PracticeRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again.to_json() == record.to_json()
    older = PracticeRecord.from_json({"counts": 1, "right": 1, "streak": 1, "best_streak": 1})  # before play drills
    assert older.plays == 0 and older.play_points_lost == 0.0


@pytest.mark.parametrize("bad", [{"plays": True}, {"plays": -1}, {"plays": "many"}, {"plays": 2, "right_plays": 3},
                                 {"plays": 1, "play_points_lost": float("nan")},
                                 {"plays": 1, "play_points_lost": 10**9}, {"play_points_lost": 1.5}])
def test_play_drill_figures_from_a_file_are_checked_like_the_others(bad: dict[str, object]) -> None:
    with pytest.raises((ValueError, TypeError)):
        PracticeRecord.from_json(bad)


def test_the_play_drill_knows_only_what_the_seat_may_know() -> None:
    """The position is the seat's own view (no other hand, no stock, no crib), and the coach's judgement is made
    from it alone: a fresh coach given only the view advises the same."""
    rng = random.Random(6)
    for _ in range(3):
        drill = play_choice_drill(rng)
        view = drill.view
        for event in view.events:
            if isinstance(event, Dealt):
                assert not any(hand for seat, hand in enumerate(event.hands) if seat != view.seat)
                assert not event.stock
        assert view.crib is None and view.my_turn and len({c.rank for c in view.playable}) > 1
        assert Coach().advise(view) == drill.advice


def test_a_card_within_a_twentieth_of_the_best_is_said_as_good_in_the_card_values() -> None:
    import dataclasses

    from audiocrib.coach import PlayAdvice
    from audiocrib.engine.rules import Rules
    from audiocrib.telling.drilling import card_values
    from audiocrib.telling.listener import SeatNames

    drill = play_choice_drill(random.Random(10))
    advice = Coach().advise(drill.view)
    assert isinstance(advice, PlayAdvice)
    assert len(advice.choices) > 1
    second = dataclasses.replace(advice.choices[1], loss=0.03)
    close = dataclasses.replace(advice, choices=(advice.choices[0], second, *advice.choices[2:]))
    _, pages = card_values(close, advice.choices[0].card, SeatNames(drill.view.names, Rules(), drill.view.seat))
    assert ", as good." in pages[1] and "0.0" not in pages[1], pages[1]
