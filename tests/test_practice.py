"""Practice: the drills and their judgement, the running figures, and a practice session in the real shell."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from audiocrib.engine.cards import Card, parse_cards
from audiocrib.engine.numbers import number_words
from audiocrib.engine.scoring import ScoreKind, score_hand
from audiocrib.progress.practice import (
    CountDrill,
    DiscardDrill,
    PlayDrill,
    PracticeRecord,
    count_drill,
    discard_drill,
    judge_count,
    judge_discard,
    missed_items,
)
from audiocrib.telling.words import count_aloud
from tests.shell_driver import FakeClock, Table, run

ISSUE_HAND = CountDrill(parse_cards("2D 7H 8C 8H"), Card.parse("5S"), crib=False)  # ten


def test_count_drills_deal_the_asked_size_and_never_repeat_a_card() -> None:
    rng = random.Random(3)
    for cards in (3, 4, 5):
        for crib in (False, True):
            drill = count_drill(rng, cards, crib)
            assert len(drill.cards) == cards and drill.crib is crib
            assert len({*drill.cards, drill.starter}) == cards + 1
    with pytest.raises(ValueError, match="three, four or five"):
        count_drill(rng, 6)


def test_a_count_is_judged_right_short_over_or_out_of_time() -> None:
    assert judge_count(ISSUE_HAND, 10).right
    short = judge_count(ISSUE_HAND, 8)
    assert not short.right and sum(i.points for i in short.missed) == 2
    over = judge_count(ISSUE_HAND, 13)
    assert not over.right and over.missed == ()
    late = judge_count(ISSUE_HAND, None)
    assert not late.right and late.missed == ()


def test_a_shortfall_is_put_down_to_the_items_easiest_to_overlook() -> None:
    score = score_hand(parse_cards("5H 5D JS 6C"), Card.parse("4S"))
    assert [i.kind for i in missed_items(score, 1)] == [ScoreKind.NOBS]
    three_card = [i for i in missed_items(score_hand(parse_cards("2D 7H 8C 8H"), Card.parse("5S")), 2)]
    assert len(three_card) == 1 and three_card[0].kind is ScoreKind.FIFTEEN and len(three_card[0].cards) == 3
    assert missed_items(score, 0) == ()
    assert missed_items(score, 99) == ()


def test_a_discard_is_weighed_against_every_choice() -> None:
    drill = DiscardDrill(parse_cards("5H 5S 5C JD 4H 6C"), dealer=True, lay=2)
    options = judge_discard(drill, parse_cards("4H 6C")).options
    assert [o.net for o in options] == sorted((o.net for o in options), reverse=True)
    best = judge_discard(drill, options[0].discard)
    assert best.rank == 1 and best.loss == pytest.approx(0.0)
    worse = judge_discard(drill, parse_cards("5H 5S"))
    assert worse.rank > 1 and worse.loss > 0
    assert worse.options == best.options and len(best.options) == 15
    assert len(discard_drill(random.Random(2), 7).cards) == 7


def test_the_record_keeps_figures_and_round_trips_through_json() -> None:
    record = PracticeRecord()
    record.add_count(judge_count(ISSUE_HAND, 10), 4.0)
    record.add_count(judge_count(ISSUE_HAND, 10), 6.0)
    record.add_count(judge_count(ISSUE_HAND, 8), 9.0)
    assert (record.counts, record.right, record.streak, record.best_streak) == (3, 2, 0, 2)
    assert record.missed == {"fifteens of three or more cards": 1} and len(record.mistakes) == 1
    record.add_discard(judge_discard(DiscardDrill(parse_cards("5H 5S 5C JD 4H 6C"), True, 2), parse_cards("5H 5S")))
    again = PracticeRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again.to_json() == record.to_json() and again.mistakes == []
    for bad in ([], {"counts": -1}, {"counts": "many"}, {"missed": {"runs": "x"}}):
        with pytest.raises((ValueError, TypeError)):
            PracticeRecord.from_json(bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------ in the shell
async def to_practice(table: Table) -> None:
    await table.press("down", "down", "enter")
    assert table.said[-1] == "Practice: Count drills: a hand of four cards. 1 of 9."


def drill_total(table: Table) -> CountDrill:
    drill = table.session.drills.drill
    assert isinstance(drill, CountDrill)
    return drill


def test_a_count_practice_session_with_its_figures_review_and_record(tmp_path: Path) -> None:
    save = tmp_path / "saved-game.json"

    async def script(table: Table) -> None:
        await to_practice(table)
        said = await table.press("down", "down", "enter")  # start counting
        drill = drill_total(table)
        assert said[-1].startswith("Count this hand: ") and drill.starter.name in said[-1]
        assert table.session.moment == "counting"
        said = await table.press(*str(drill.score.total), "enter")
        truth = count_aloud(drill.score) if drill.score.total else "nineteen: nothing"
        assert said[-1].startswith(f"Right: {truth}.")
        await table.press("enter")
        drill = drill_total(table)
        wrong = drill.score.total + 3
        said = await table.press(*str(wrong), "enter")
        assert said[-1].startswith(f"You said {number_words(wrong)}. It is {number_words(drill.score.total)}")
        assert "three too many" in said[-1]
        said = await table.press("escape")
        assert said[0].startswith("This session, your first: two counts, one right (50 percent)")
        assert not any(line.startswith("All your practice") for line in said)  # the same figures, said once
        assert said[-1] == "Practice: Count drills: a hand of four cards. 1 of 9."
        said = await table.press("end", "up", "enter")  # go over the mistakes
        assert said[-1].startswith("One to go over; comma and period step through them. Mistake 1: hand: ")
        said = await table.press("up", "enter")  # the figures
        assert said[0] == "Your figures. 7 of 9."
        assert said[1].startswith("This session, your first: two counts")

    run(script, save_path=save)
    kept = json.loads((tmp_path / "practice.json").read_text())
    assert (kept["counts"], kept["right"]) == (2, 1)

    async def later(table: Table) -> None:
        await to_practice(table)
        said = await table.press("end", "up", "up", "enter")
        assert said[-3:-1] == ["Your figures. 7 of 9.", "This session: nothing practised yet."]
        assert said[-1].startswith("All your practice: two counts, one right")

    run(later, save_path=save)


def test_the_drill_timer_warns_and_runs_out_on_the_test_clock() -> None:
    clock = FakeClock()

    async def script(table: Table) -> None:
        await to_practice(table)
        assert await table.answer("down") == "Timer: off. 2 of 9."
        assert await table.answer("right") == "Timer: 15 seconds."
        await table.press("down", "enter")
        assert await table.answer("t") == "Fifteen seconds left."
        clock.now += 8
        await asyncio.sleep(0.1)
        assert table.said[-1] == "Seven seconds left."
        clock.now += 8
        for _ in range(100):
            await asyncio.sleep(0.01)
            if table.session.moment == "answered":
                break
        assert table.said[-2] == "Seven seconds left."  # "Time is up" said once, with the answer
        assert table.said[-1].startswith("Time is up. It is ")
        assert table.session.drills.session.counts == 1 and table.session.drills.session.right == 0

    run(script, clock=clock)


def test_a_discard_drill_is_answered_with_the_experts_figures() -> None:
    async def script(table: Table) -> None:
        await to_practice(table)
        said = await table.press("down", "down", "down", "down", "enter")  # start discarding
        assert "Your cards: 1, " in said[-1] and said[-1].endswith("Mark two cards and press Enter to lay them away.")
        drill = table.session.drills.drill
        assert isinstance(drill, DiscardDrill)
        assert await table.answer("enter") == "Mark two cards first; zero marked."
        assert await table.answer("1") == f"{drill.cards[0].name.capitalize()}, marked. One more to mark."
        assert f" Your cards: 1, {drill.cards[0].name}, marked; 2, {drill.cards[1].name};" in await table.answer("h")
        assert await table.answer("2") == f"{drill.cards[1].name.capitalize()}, marked. Press Enter to lay them away."
        said = await table.press("enter")
        result = judge_discard(drill, drill.cards[:2])
        assert said[-1].startswith(f"You laid away the {drill.cards[0].name} and the {drill.cards[1].name}: ")
        assert f"net {result.chosen.net:.1f}" in said[-1]
        if result.rank == 1:
            assert "That is the best choice." in said[-1]
        else:
            assert f"Best was to lay away the {result.options[0].discard[0].name}" in said[-1]
        assert table.session.moment == "answered"
        said = await table.press("a")  # the first choice; period steps through the rest
        assert len(said) == 1 and said[0].startswith("Fifteen choices, best first; period steps to the next, "
                                                     "comma back. 1: lay away ")
        for _ in range(14):
            said += await table.press(".")
        assert all(line.startswith(f"{place}: lay away ") for place, line in enumerate(said[1:], start=2))
        pages = [said[0].split("comma back. ", 1)[1], *said[1:]]
        assert [i for i, line in enumerate(pages) if line.endswith(" Your choice.")] == [
            result.options.index(result.chosen)]
        await table.press("enter")
        assert table.session.moment == "discarding"

    run(script)


def test_drill_keys_that_do_nothing_answer_in_a_sentence() -> None:
    async def script(table: Table) -> None:
        await to_practice(table)
        await table.press("down", "down", "enter")
        assert await table.answer("q") == "The q key does nothing now. Press Tab for help."
        said = await table.press("f1")
        assert said[0] == "1 to 9 and 0: Type your count."

    run(script)


@pytest.mark.parametrize("presses, cards", [((), 6), (("right",), 5), (("right", "right"), 7)])
def test_f1_in_a_discard_drill_names_the_digits_of_the_cards_dealt(presses: tuple[str, ...], cards: int) -> None:
    async def script(table: Table) -> None:
        await to_practice(table)
        await table.press("down", "down", "down", *presses)  # the deal size
        await table.press("down", "enter")  # start discarding
        drill = table.session.drills.drill
        assert isinstance(drill, DiscardDrill) and len(drill.cards) == cards
        said = await table.press("f1")
        assert f"1 to {cards}: Mark or unmark the card at that position." in said
        assert not any(line.startswith("1 to 7:") for line in said) or cards == 7

    run(script)


def test_v_in_a_play_drill_reads_the_cards_on_the_table_as_in_the_game() -> None:
    """v reads the cards of the series and the count, as at the table; in a hand drill it says why it cannot."""

    async def script(table: Table) -> None:
        await to_practice(table)
        assert await table.answer("left") == "Count drills: a card in the play."
        await table.press("down", "down", "enter")  # start counting
        drill = table.session.drills.drill
        assert isinstance(drill, PlayDrill)
        laid = ", then ".join(card.name for card in drill.series)
        assert await table.answer("v") == f"On the table: {laid}; the count is {number_words(drill.count)}."
        assert "v: The cards on the table, in a drill of the play." in await table.press("f1")
        assert table.session.drills.drill is drill and table.session.moment == "counting"  # nothing changed
        await table.press("escape")  # the figures, then the practice menu
        await table.press("home", "right", "down", "down", "enter")  # a hand of four cards
        assert isinstance(table.session.drills.drill, CountDrill)
        assert await table.answer("v") == "Cards are on the table only in a drill of the play."

    run(script, seed=4)
