"""The coach's a key at the table, through the real prompt_toolkit application: the expert's advice for the decision
waiting, worked out from the player's own view, said again alike, and a sentence that changes nothing when no
decision waits."""

from __future__ import annotations

from pathlib import Path

import pytest

from audiocrib.coach import Coach, LayAwayAdvice, PlayAdvice
from audiocrib.engine.views import PlayerView
from audiocrib.telling.coaching import lay_away_words, no_advice, play_words
from audiocrib.telling.listener import SeatNames
from tests.shell_driver import Table, lay_away_first, play_a_card, run


def _expected(view: PlayerView) -> str:
    advice = Coach().advise(view)
    seats = SeatNames(view.names, view.rules, view.seat)
    if isinstance(advice, LayAwayAdvice):
        return lay_away_words(advice, seats, view.dealer)
    assert isinstance(advice, PlayAdvice)
    return play_words(advice, seats)


def test_a_gives_the_expert_s_lay_away_and_following_it_lays_those_cards_away() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")  # New game
        assert table.session.moment == "discard"
        view = table.session.view()
        advice = Coach().advise(view)
        assert isinstance(advice, LayAwayAdvice)
        said = await table.answer("a")
        assert said == _expected(view)
        assert said.startswith("Keep ")
        assert await table.answer("a") == said  # asked again: the same words
        assert table.session.view() == view and table.session.marked == []  # nothing changed
        hand = sorted(view.hand)
        await table.press(*(str(hand.index(card) + 1) for card in advice.best.discard), "enter")
        laid = table.session.view().discards
        assert laid is not None and set(laid) == set(advice.best.discard)

    run(script, seed=4)


def test_a_in_the_play_names_a_card_the_player_may_lay_and_says_why() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await lay_away_first(table)
        plays = 0
        while plays < 3 and table.session.view().phase.value == "play":
            if table.session.moment == "play":
                view = table.session.view()
                advice = Coach().advise(view)
                assert isinstance(advice, PlayAdvice)
                assert advice.best.card in view.playable
                said = await table.answer("a")
                assert said == _expected(view)
                assert advice.best.card.rank.word in said
                await play_a_card(table)
                plays += 1
            else:
                await table.press("enter")
        assert plays >= 2

    run(script, seed=6)


def test_a_with_no_decision_waiting_says_so_and_changes_nothing() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await lay_away_first(table)
        for _ in range(40):  # to a moment that is not the player's decision: the others' turn, or a pause
            if table.session.moment in ("waiting", "review"):
                break
            await play_a_card(table)
        assert table.session.moment in ("waiting", "review")
        before = table.session.view()
        assert await table.answer("a") == no_advice()
        assert table.session.view().events == before.events

    run(script, seed=2)


def test_the_decisions_taken_are_noted_for_the_review() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        view = table.session.view()
        await lay_away_first(table)
        noted = table.session.notebook.deal_review(table.session.view().events, view.game_number, view.deal_number)
        assert [d.chosen for d in noted.decisions] == [tuple(sorted(view.hand)[: view.must_discard])]
        assert noted.decisions[0].view == view

    run(script, seed=3)


def test_the_help_and_question_mark_name_the_advice_key() -> None:
    advice_line = "a: Advice: what the expert would lay away or play now, and why."

    async def script(table: Table) -> None:
        await table.press("enter")
        assert advice_line in await table.press("tab")
        said = await table.press("?")
        for _ in range(12):
            if any(advice_line in line for line in said):
                break
            said = await table.press(".")
        assert any(line.startswith("At the table, always:") and advice_line in line for line in said), said

    run(script, seed=1)



def test_a_game_resumed_from_its_save_keeps_the_decisions_made_before_for_the_review(tmp_path: Path) -> None:
    save = tmp_path / "saved-game.json"
    before: dict[str, object] = {}

    async def first(table: Table) -> None:
        await table.press("enter")
        view = table.session.view()
        await lay_away_first(table)
        for _ in range(40):  # and a card or two of the play, then the program stops without a word
            if table.session.moment == "play":
                await play_a_card(table)
                break
            await table.press("enter")
        noted = table.session.notebook.deal_review(table.session.view().events, view.game_number, view.deal_number)
        before.update(decisions=[(d.view, d.chosen) for d in noted.decisions])

    run(first, seed=5, save_path=save)

    async def second(table: Table) -> None:
        await table.press("enter")  # Resume the unfinished game
        view = table.session.view()
        noted = table.session.notebook.deal_review(view.events, 1, 1)
        # the same decisions, at the same views (worked out again from the seed), and weighed alike
        assert [(d.view, d.chosen) for d in noted.decisions] == before["decisions"]
        assert len(noted.decisions) == 2

    run(second, seed=5, save_path=save)


def test_the_review_of_a_card_says_what_the_best_card_would_have_pegged() -> None:
    # Bob leads the king; you hold 5S 5D 9C 9H. The five makes fifteen for two; the nine, laid instead, pegs
    # nothing, so the review says what the five would have made.
    from audiocrib.coach import Notebook
    from audiocrib.engine.actions import Play
    from audiocrib.telling.reviewing import decision_words
    from tests.coach_positions import card, fifteen_position

    game = fifteen_position()
    view = game.view(0)
    notebook = Notebook()
    game.apply(Play(0, card("9C")))
    notebook.note(view, (card("9C"),))
    review = notebook.deal_review(game.view(0).events, view.game_number, view.deal_number)
    words = decision_words(review.decisions[0], SeatNames(view.names, view.rules, 0))
    assert words.startswith("Your nine on Bob's king gave up about ")
    assert words.endswith("; the five was better: it makes fifteen for two.")


def test_a_session_that_weighs_only_when_asked_weighs_nothing_until_g(monkeypatch: pytest.MonkeyPatch) -> None:
    # A browser's session (its coach works on the server) weighs a deal only when the player asks: with the review
    # setting off, a whole deal and the match's end cost the coach nothing, and g still goes over both.
    from audiocrib.shell.coaching import Coaching
    from audiocrib.shell.settings import Settings
    from audiocrib.shell.tablesetup import TableSetup
    from tests.shell_driver import play_to_the_end

    asked: list[int] = []
    advise = Coach.advise

    def counted(self: Coach, view: PlayerView) -> object:
        asked.append(len(view.events))
        return advise(self, view)

    monkeypatch.setattr(Coaching, "weighs_every_deal", False)
    monkeypatch.setattr(Coach, "advise", counted)

    async def script(table: Table) -> None:
        await table.press("enter")
        await play_to_the_end(table, until="review")
        assert asked == []  # the show is over: nothing weighed
        said = await table.press("g")
        assert asked and said and said[0].startswith(("Your ", "The coach")), said
        weighed = len(asked)
        await play_to_the_end(table)
        assert table.said[-2:] == ["Press g to hear the coach go over the match.", "Press Enter for the main menu."]
        assert len(asked) == weighed
        said = await table.press("g")
        assert said[0].startswith("The coach's review of the match, ") and len(asked) > weighed

    run(script, setup=TableSetup(target=61), settings=Settings(pace=0.0, typed_ahead=0.0, review="off"), seed=8)


def test_a_browser_s_review_of_each_deal_is_off_until_the_player_turns_it_on() -> None:
    from audiocrib.shell.settings import Settings
    from audiocrib.web.websession import keep_settings, read_settings

    kept = keep_settings(Settings(review="each"))
    assert read_settings(kept) == Settings(review="each")  # the player's choice comes back
    del kept["session"]["review"]  # type: ignore[attr-defined]  # a tab that kept its settings before the coach
    again = read_settings(kept)
    assert again is not None and again.review == "off"


def test_the_match_review_ranks_a_small_chance_below_a_costly_lay_away() -> None:
    # A card that lowered the chance of winning by three in a hundred (about a point and a fifth at the expert's
    # two and a half hundredths a point) comes after a lay-away that cost three points, and one that cost one in a
    # hundred is no mistake at all.
    import dataclasses

    from audiocrib.coach import DealReview, Decision, MatchReview
    from audiocrib.coach.review import MISTAKE_CHANCE
    from tests.coach_positions import fifteen_position, lay_away

    lay_advice, _ = lay_away("5H 5S 5C JD 4H 6C", dealer=False)
    worse = next(c for c in lay_advice.everything if c.loss > 3)
    game = fifteen_position()
    view = game.view(0)
    play = Coach().advise(view)
    assert isinstance(play, PlayAdvice)
    chance = dataclasses.replace(play, board=True, choices=(
        play.choices[0], dataclasses.replace(play.choices[1], loss=3.0)))
    small = dataclasses.replace(chance, choices=(chance.choices[0], dataclasses.replace(chance.choices[1], loss=1.2)))
    laid = Decision(view, worse.discard, lay_advice)
    costly_card = Decision(view, (chance.choices[1].card,), chance)
    tiny_card = Decision(view, (small.choices[1].card,), small)
    assert laid.mistake and costly_card.mistake and not tiny_card.mistake and 1.2 < MISTAKE_CHANCE
    review = MatchReview((DealReview(1, 1, (costly_card, laid, tiny_card), 0),))
    assert review.costliest() == (laid, costly_card)
    from audiocrib.telling.reviewing import match_review_words

    pages = match_review_words(review, SeatNames(view.names, view.rules, 0))
    said = [i for i, page in enumerate(pages) if "lay-away cost" in page or "lowered your chance" in page]
    assert len(said) == 2 and "lay-away cost" in pages[said[0]], pages
