"""The coach's reviews in the real shell: the review of each deal after its show as the setting asks (off, only
when costly, after each), g at that pause and when the match is over (the match review, a message at a time),
the Statistics with the progress figures and the last match's review, and both kept across a restart."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest

from audiocrib.coach import DealReview, Decision, Measure
from audiocrib.coach.coach import Coach
from audiocrib.engine.actions import Discard, Play
from audiocrib.engine.cards import Card
from audiocrib.engine.game import Game
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.shell.settings import Settings
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.telling.listener import SeatNames
from audiocrib.telling.reviewing import deal_review_words, decision_words
from tests.online_driver import Player, play_together, running
from tests.shell_driver import Table, play_a_card, play_to_the_end, run
from tests.test_online import sign_in
from tests.test_serve import Running, serving

SETUP = TableSetup(target=61, levels=("expert",))
"""A short match: a few seconds, five or six deals."""
REVIEW_LINE = re.compile(r"^(Your lay-away |Your counting gave away |The coach: |Your \w+ (on \w+'s \w+|as the lead) )")
"""The sentences of a deal's review (and nothing the narrator says)."""


def _points(decision: Decision) -> float | None:
    """A decision's loss in points, worked out here: None when the expert weighed it by the chance of winning or
    its values carry the game's end (a thousand points a game)."""
    if decision.measure is not Measure.POINTS:
        return None
    advice = decision.advice
    if not decision.laying_away and max(abs(c.value) for c in advice.choices) > 50:  # type: ignore[union-attr]
        return None
    return decision.loss


def _mistakes(review: DealReview) -> list[Decision]:
    """The coach's mistakes, but a card with the game's end in sight only when it cost over one in a hundred of
    the chance of winning (a game won or lost counts two thousand in its loss)."""
    return [d for d in review.mistakes
            if _points(d) is not None or d.measure is not Measure.POINTS or d.loss / 20 > 1]


def _costly(review: DealReview) -> bool:
    points = sum(p for p in (_points(d) for d in review.decisions) if p is not None) + review.counting
    return points > 1.0 or any(_points(d) is None for d in _mistakes(review))


async def _play_deals(table: Table, keys_at_pause: tuple[str, ...] = ()) -> list[tuple[DealReview, list[str]]]:
    """Play the match: in odd deals as the coach advises, in even ones the first cards laid away and the lowest
    card laid; at each pause (and at the end) the deal's review and what was said of it; ``keys_at_pause``
    pressed at each pause first (their answers counted as said of it)."""
    session = table.session
    shown: list[tuple[DealReview, list[str]]] = []
    start = len(table.said)
    for _ in range(600):
        moment = session.moment
        if moment in ("review", "over"):
            view = session.view()
            said = table.said[start:]
            if keys_at_pause and moment == "review":
                said = said + await table.press(*keys_at_pause)
            review = session.notebook.deal_review(session.table.view().events, view.game_number, view.deal_number)
            shown.append((review, [line for line in said if REVIEW_LINE.match(line)]))
            if moment == "over":
                return shown
            start = len(table.said)
            await table.press("enter")
        elif moment == "discard":
            view = session.view()
            if view.deal_number % 2:
                advice = Coach().advise(view)
                assert advice is not None
                chosen: list[Card] = list(advice.best.discard)  # type: ignore[union-attr]
            else:
                chosen = list(sorted(view.hand)[: view.must_discard])
            hand = sorted(view.hand)
            await table.press(*(str(hand.index(card) + 1) for card in chosen), "enter")
        elif moment == "play" and session.view().deal_number % 2:
            view = session.view()
            advice = Coach().advise(view)
            assert advice is not None
            rank = advice.best.card.rank  # type: ignore[union-attr]
            hand = sorted(view.hand)
            await table.press(str(next(i for i, c in enumerate(hand, 1) if c.rank is rank)), "enter")
        elif moment == "play":
            await play_a_card(table)
        elif moment == "waiting":
            await table.press("enter")
        else:
            raise AssertionError(moment)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("setting", ["off", "costly", "each"])
def test_the_review_of_each_deal_after_its_show_follows_the_setting(setting: str) -> None:
    results: list[list[tuple[DealReview, list[str]]]] = []

    async def script(table: Table) -> None:
        await table.press("enter")
        results.append(await _play_deals(table))

    run(script, setup=SETUP, settings=Settings(pace=0.0, typed_ahead=0.0, review=setting), seed=4)
    shown = results[0]
    assert len(shown) >= 3
    for review, said in shown:
        assert review.decisions  # every deal: the player laid away and laid cards
        if setting == "off" or (setting == "costly" and not _costly(review)):
            assert said == []
        else:
            assert said, f"no review of deal {review.deal}"
            if _mistakes(review):
                assert said[: len(_mistakes(review))] == [decision_words(d, _seats()) for d in _mistakes(review)]
            else:
                assert said == ["The coach: every choice this deal was the expert's, or within a tenth of a point "
                                "of it."]
    if setting == "costly":  # the test saw both kinds of deal
        assert {_costly(review) for review, _ in shown} == {True, False}


def _seats() -> SeatNames:
    return SeatNames(("You", "Bob"), Rules(target=61), 0)


def test_g_at_the_pause_goes_over_the_deal_even_with_the_reviews_off() -> None:
    results: list[list[tuple[DealReview, list[str]]]] = []

    async def script(table: Table) -> None:
        await table.press("enter")
        results.append(await _play_deals(table, keys_at_pause=("g",)))

    run(script, setup=SETUP, settings=Settings(pace=0.0, typed_ahead=0.0, review="off"), seed=4)
    for review, said in results[0][:-1]:
        assert said == deal_review_words(review, _seats())


def test_a_card_whose_look_ahead_saw_the_game_end_is_said_as_a_chance_not_as_points() -> None:
    """Three players near the end of a game to 61: the expert's look-ahead counts a line that ends the game as a
    thousand points, so such a card's "loss" in points is tens of points no play could peg."""
    found: list[Decision] = []
    from audiocrib.bots.levels import LEVELS
    from audiocrib.bots.player import next_action
    from audiocrib.coach import Notebook

    game = Game(Rules(players=3, target=61), seed=5)
    bots = [LEVELS["medium"](seed=1), *(LEVELS["expert"](seed=i) for i in (1, 2))]
    notebook = Notebook()
    while not game.over:
        seat = min(game.waiting_for())
        view = game.view(seat)
        action = next_action(game, seat, bots[seat])
        game.apply(action)
        if seat == 0 and isinstance(action, Discard | Play):
            notebook.note(view, action.cards if isinstance(action, Discard) else (action.card,))
    for deal in notebook.match_review(game.view(0).events).deals:
        found += [d for d in deal.mistakes if d.measure is Measure.POINTS and d.loss > 30]
    assert found, "this game no longer has such a card: choose another seed"
    s = SeatNames(game.names, game.rules, 0)
    for decision in found:
        words = decision_words(decision, s)
        assert "lowered your chance of winning by about" in words and "points" not in words, words


def test_the_match_review_when_the_match_is_over_and_from_the_statistics_and_after_a_restart(
        tmp_path: Path) -> None:
    reviews: list[list[str]] = []
    progress: list[list[str]] = []
    counted: list[int] = []

    async def first(table: Table) -> None:
        await table.press("enter")
        await play_to_the_end(table)
        session = table.session
        assert table.said[-2:] == ["Press g to hear the coach go over the match.", "Press Enter for the main menu."]
        help_lines = await table.press("tab")
        assert ("g: The coach goes over the match, one message at a time: period steps to the next."
                in help_lines)
        match = session.notebook.match_review(session.table.view().events)
        counted.append(len(match.deals))
        mistakes = sum(len(_mistakes(deal)) for deal in match.deals)
        pages = 2 + min(5, mistakes) if mistakes else 2
        said = await table.answer("g")
        assert said.startswith("The coach's review of the match, ")
        assert "Where your points went this match, over " in said
        stepped = [await table.answer(".") for _ in range(pages)]
        assert stepped[-1].endswith("(This is the newest message.)")
        assert stepped[0].startswith("The costliest decision") or stepped[0].startswith("No decision of yours")
        for page in stepped[1:-1]:  # each costliest decision with its position as it stood, and what was best
            assert re.search(r"Game one, deal \w+, the (lay-away|play)", page), page
            assert "You laid" in page or "you laid away" in page
            assert " was best" in page or " was better" in page or "was safe" in page
        reviews.append([said.split(". ", 2)[-1], *stepped[:-1]])
        await table.press("enter")  # the main menu
        said = await table.press("down", "down", "down", "enter")  # Statistics
        progress.append([line for line in said if line.startswith("Your ")])
        last = said[-1]
        assert last.startswith("The coach's review of your last match, one message at a time; period steps to "
                               "the next. Where your points went this match")
        assert await table.answer(".") == reviews[0][1]

    run(first, setup=SETUP, save_path=tmp_path / "saved-game.json", seed=4)
    deals = len(re.findall(r"\"lay_away\": \[\s*(\d+)", (tmp_path / "progress.json").read_text()))
    assert deals == 1  # one day
    lay_aways = progress[0][0]
    assert re.fullmatch(rf"Your lay-aways cost .+ a deal this week, over {number_words(counted[0])} deals\.", lay_aways)

    async def restarted(table: Table) -> None:
        said = await table.press("down", "down", "down", "enter")  # Statistics, after a restart
        assert [line for line in said if line.startswith("Your ")] == progress[0]
        assert said[-1].endswith(reviews[0][0])
        # a week on, the same deals are last week's
        table.session.progress.today = lambda: date.today() + timedelta(days=7)
        said = await table.press("enter")
        assert any(line.startswith("Your lay-aways cost ") and line.endswith("; none weighed this week yet.")
                   and " a deal last week, over " in line for line in said)
        # the practice figures say them too, after the drills' own
        await table.press("up", "enter")  # Practice
        for _ in range(12):
            if (await table.press("down"))[-1].startswith("Your figures"):
                break
        said = await table.press("enter")
        assert said[-2:] == [line.replace("this week", "last week").replace(".", "; none weighed this week yet.")
                             for line in progress[0]]

    run(restarted, save_path=tmp_path / "saved-game.json", seed=4)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    """A server of the test's own, its data in ``tmp_path / "data"``."""
    yield from serving(tmp_path / "data")


@pytest.mark.slow  # the server paces its computer player at half a second a move: a match to 61 takes 15 seconds
def test_at_an_online_table_g_goes_over_the_match_and_the_statistics_keep_it(server: Running, tmp_path: Path) -> None:
    """A real server on loopback: one person and a computer player; the match ends, g goes over it, Enter goes to
    the lobby, and back in the main menu the Statistics say the deals' costs and the same review."""
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(target=61, levels=("easy",)))

    async def script() -> None:
        async with running(ann):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.press("left")  # one seat for a person: the other is the computer player's
            await ann.choose("Create the table")
            await ann.choose("Start the game")
            await ann.hears("The game begins.")
            await play_together([ann])
            await ann.hears("Press Enter for the lobby.")
            assert "Press g to hear the coach go over the match." in ann.said[-3:]
            said = await ann.press("g")
            assert said[0].startswith("The coach's review of the match, ") and "Where your points went" in said[0]
            first = said[0].split(". ", 2)[-1]
            second = (await ann.press("."))[0]
            assert second.startswith("The costliest decision") or second.startswith("No decision of yours")
            await ann.press("enter")
            await ann.hears(lambda s: s.startswith("Lobby: "))
            await ann.press("escape")
            await ann.hears(lambda s: s.startswith("Main menu: "))
            said = await ann.press("home", "down", "down", "down", "enter")  # Statistics
            assert any(line.startswith("Your lay-aways cost ") and " a deal this week, over " in line
                       for line in said), said
            assert said[-1].endswith(first)
            assert (await ann.press("."))[0] == second

    asyncio.run(script())
