"""What a new player heard go wrong (issue 13, "By ear"): each test plays the real shell by its keys and checks the
words a player hears at that moment."""

from __future__ import annotations

import asyncio
from pathlib import Path

from audiocrib.engine.numbers import number_words
from audiocrib.shell.settings import Settings
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.sound.player import SilentPlayer
from audiocrib.telling import answers
from audiocrib.telling.narrator import Verbosity
from tests.shell_driver import FakeClock, Table, lay_away_first, run
from tests.test_shell import reach


def test_enter_again_while_a_computer_player_moves_is_not_answered_waiting_every_time() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await lay_away_first(table)
        session = table.session
        for _ in range(50):  # play cards by raw keys (the driver's press would wait out the pace) until Bob is due
            if session.bot_waiting():
                break
            view = session.view()
            position = sorted(view.hand).index(sorted(view.playable)[0]) + 1
            count = session.keys_pressed
            table.pipe.send_text(f"{position}\r")
            while session.keys_pressed < count + 2:
                await asyncio.sleep(0.002)
        assert session.moment == "waiting"
        game = getattr(session.table, "game", None)
        assert game is not None
        moved = len(game.events)
        count = session.keys_pressed
        heard = len(table.said)
        table.pipe.send_text("\r\r\r")  # three Enters in one burst, before the computer player has moved
        loop = asyncio.get_running_loop()
        end = loop.time() + 10
        while session.keys_pressed < count + 3 or len(game.events) == moved:
            assert loop.time() < end
            await asyncio.sleep(0.002)
        waiting = [line for line in table.said[heard:] if line.startswith("Waiting for")]
        assert waiting == ["Waiting for Bob."]  # once, then the move itself is the answer

    run(script, setup=TableSetup(levels=("beginner",)), settings=Settings(pace=30.0, typed_ahead=0.0), seed=9)


def test_f1_after_the_show_at_a_muggins_table_names_the_m_key() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await reach(table, "review")
        said = await table.press("f1")
        assert "m: Call muggins on a short count, before the next deal." in said
        await table.press("enter")
        await reach(table, "discard")
        assert "m: Call muggins on a short count, before the next deal." in await table.press("f1")

    run(script, setup=TableSetup(muggins=True, levels=("beginner",)), seed=4)

    async def plain(table: Table) -> None:
        await table.press("enter")
        await reach(table, "review")
        assert not any(line.startswith("m: ") for line in await table.press("f1"))

    run(plain, setup=TableSetup(levels=("beginner",)), seed=4)


def test_abandon_asks_first_and_any_other_key_keeps_the_game(tmp_path: Path) -> None:
    save = tmp_path / "saved-game.json"

    async def script(table: Table) -> None:
        await table.press("enter")
        await lay_away_first(table)
        assert save.exists()
        said = await table.press("escape", "end", "enter")
        assert said[-1] == ("Abandoning deletes this game for good. Press Enter again to abandon it, "
                            "or Escape to go back to the game.")
        assert save.exists() and not table.session.finished
        said = await table.press("escape")  # back to the game: nothing lost
        assert said[-1].startswith("Back to the game.")
        await table.press("escape", "end", "enter", "up", "down", "enter")  # a key between asks again
        assert save.exists() and not table.session.finished
        said = await table.press("enter")
        assert said[-1] == "The game is abandoned. Goodbye."

    run(script, setup=TableSetup(levels=("beginner",)), save_path=save)
    assert not save.exists()


def test_the_scores_are_said_after_each_show_at_normal_verbosity_only() -> None:
    def standing(game_scores: tuple[int, ...]) -> str:
        return f"You have {number_words(game_scores[0])}, Bob {number_words(game_scores[1])}."

    async def script(table: Table) -> None:
        await table.press("enter")
        for _ in range(3):
            await reach(table, "review")
            view = table.session.view()
            assert table.said[-1] == "Press Enter for the next deal."
            assert table.said[-2] == standing(view.scores)
            assert answers.scores(view).startswith(f"You have {number_words(view.scores[0])}")
            await table.press("enter")

    run(script, setup=TableSetup(levels=("beginner",)), seed=6)

    async def brief(table: Table) -> None:
        await table.press("enter")
        await reach(table, "review")
        assert table.said[-1] == "Press Enter for the next deal."
        assert not table.said[-2].startswith("You have ")

    run(brief, setup=TableSetup(levels=("beginner",)),
        settings=Settings(pace=0.0, typed_ahead=0.0, verbosity=Verbosity.BRIEF),
        seed=6)


def test_with_no_sound_device_the_settings_and_the_sound_test_say_nothing_plays() -> None:
    player = SilentPlayer("No sound device could be opened")

    async def script(table: Table) -> None:
        said = await table.press("down", "down", "down", "down", "enter")
        assert said[-1].startswith("Settings: ")
        for _ in range(20):
            if table.said[-1].startswith("Sounds: "):
                break
            await table.press("down")
        assert table.said[-1].startswith("Sounds: on, but nothing plays: No sound device could be opened.")
        await table.press("end", "up", "enter")
        assert table.said[-1].startswith("Sound test: No sound device could be opened, so you hear only the names. ")

    run(script, player=player)



def _resume_at(tmp_path: Path, moment: str, setup: TableSetup, clock: FakeClock | None = None) -> Table:
    """Play to ``moment`` and stop there (the game is kept); then start again, resume, and return that table."""
    save = tmp_path / "saved-game.json"

    async def first(table: Table) -> None:
        await table.press("enter")
        await reach(table, moment)

    run(first, setup=setup, save_path=save, seed=5)

    async def second(table: Table) -> None:
        if clock is not None:  # speech takes time: each line said moves the clock on two seconds
            speak = table.speaker.speak

            def slow(text: str, interrupt: bool = False) -> None:
                clock.now += 2
                speak(text, interrupt)

            table.speaker.speak = slow  # type: ignore[method-assign]
        await table.press("enter")

    return run(second, setup=setup, save_path=save, seed=5, **({"clock": clock} if clock else {}))


def test_a_resume_during_a_timed_count_asks_for_the_count_again_and_then_starts_the_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    table = _resume_at(tmp_path, "count", TableSetup(manual_counting=True, count_timer=30, levels=("beginner",)),
                       clock)
    said = table.said[table.said.index("Resuming the unfinished game."):]
    view = table.session.view()
    assert said[1:4] == [answers.scores(view), answers.crib_owner(view), answers.starter(view)]
    assert said[4].startswith("Count your ") and said[4].endswith("You have thirty seconds.")
    session = table.session
    assert session.moment == "count" and session.count_clock.running
    assert session.count_clock.left() == 30  # started once the question was said, not before


def test_a_resume_at_the_lay_away_and_in_the_play_says_the_hand_and_the_question(tmp_path: Path) -> None:
    for moment in ("discard", "play"):
        folder = tmp_path / moment
        folder.mkdir()
        table = _resume_at(folder, moment, TableSetup(levels=("beginner",)))
        said = table.said[table.said.index("Resuming the unfinished game."):]
        view = table.session.view()
        where = [answers.scores(view), answers.crib_owner(view)]
        if moment == "play":
            where += [answers.starter(view), answers.table(view)]
        assert said[1:] == [*where, answers.hand(view, ()), answers.prompt(view, ())], moment


def test_a_move_key_typed_ahead_of_the_news_does_nothing_and_is_answered_after_it() -> None:
    clock = FakeClock()
    ahead = "That Enter came before you heard the news, so it did nothing."

    async def script(table: Table) -> None:
        session = table.session
        await table.press("enter")  # New game: the hand and the question are the news
        game = getattr(session.table, "game", None)
        assert game is not None
        await table.press("1", "2")  # marking makes no move: never held back
        before = game.state_key()
        silenced = table.speaker.silenced
        assert await table.press("enter") == [ahead]
        assert game.state_key() == before and table.speaker.silenced == silenced  # the news is not cut off
        clock.now += 0.6
        said = await table.press("enter")
        assert said[0].startswith("You lay away ")
        if session.moment != "play":
            await reach(table, "play")
        hand = game.view(0).hand
        assert await table.press("enter") == [ahead]  # played a card never chosen? No.
        assert game.view(0).hand == hand
        clock.now += 0.3
        assert await table.press("enter") == []  # a burst is refused whole, said once: the guard starts again
        assert table.session.quiet_refusals == 1
        clock.now += 0.6
        said = await table.press("enter")
        assert said[0].startswith("You play the ") and len(game.view(0).hand) == len(hand) - 1

    run(script, setup=TableSetup(levels=("beginner",)), settings=Settings(pace=0.0, typed_ahead=0.5), clock=clock,
        seed=2)


def test_enter_pressed_twice_in_one_burst_at_the_lay_away_lays_away_and_plays_nothing() -> None:
    async def script(table: Table) -> None:
        session = table.session
        await table.press("enter")
        game = getattr(session.table, "game", None)
        assert game is not None
        await asyncio.sleep(0.6)  # the player has heard the hand and the question
        count = session.keys_pressed
        table.pipe.send_text("12\r\r\r")  # the real application reads the burst in one go, as a terminal sends it
        loop = asyncio.get_running_loop()
        end = loop.time() + 10
        while session.keys_pressed < count + 5:
            assert loop.time() < end
            await asyncio.sleep(0.002)
        await table.settle()
        assert any(line.startswith("You lay away ") for line in table.said)
        assert not any(line.startswith("You play ") for line in table.said)  # no card the player never chose
        assert table.said.count("That Enter came before you heard the news, so it did nothing.") == 1  # once a burst
        assert session.moment == "play" and len(game.view(0).hand) == 4  # Bob deals: it is your lead, untouched

    run(script, setup=TableSetup(levels=("beginner",)), settings=Settings(pace=0.0, typed_ahead=0.5), seed=1)


def test_enter_typed_ahead_in_the_drills_does_not_skip_the_answer_just_given() -> None:
    clock = FakeClock()
    ahead = "That Enter came before you heard the news, so it did nothing."

    async def script(table: Table) -> None:
        session = table.session
        await table.press("down", "down", "enter", "down", "down", "enter")  # practice, start counting
        assert session.moment == "counting"
        drill = session.drills.drill
        clock.now += 1
        said = await table.press("1", "enter", "enter")  # answer, then Enter again at once
        assert said[-1] == ahead and session.moment == "answered" and session.drills.drill is drill
        clock.now += 1
        said = await table.press("enter")
        assert said[-1].startswith("Count this ") and session.drills.drill is not drill

    run(script, settings=Settings(pace=0.0, typed_ahead=0.5), clock=clock)


def test_enter_pressed_again_and_again_to_hurry_the_computer_never_plays_a_card() -> None:
    """A player hurrying Bob with Enter every 0.6 seconds: the Enters that land on their own turn come before they
    can have heard it, each refusal starts the guard again, and no card is played for them."""
    clock = FakeClock()

    async def script(table: Table) -> None:
        session = table.session
        await table.press("enter")
        clock.now += 2
        await table.press("1", "2", "enter")  # lay away; Bob deals, so the play is ours after Bob's cards
        game = getattr(session.table, "game", None)
        assert game is not None
        held = len(game.view(0).hand)
        for _ in range(12):
            clock.now += 0.6
            await table.press("enter")
        assert len(game.view(0).hand) == held  # not one card played
        clock.now += 1.5  # the player stops, hears the prompt, and plays
        said = await table.press("enter")
        assert said[0].startswith("You play the ")

    run(script, setup=TableSetup(levels=("beginner",)), settings=Settings(pace=0.0), clock=clock, seed=1)


def test_digits_left_from_a_count_whose_time_ran_out_do_not_join_the_next_claim() -> None:
    from audiocrib.engine.events import CountRequested

    clock = FakeClock()

    async def script(table: Table) -> None:
        session = table.session
        await table.press("enter")
        timed_out = False
        for _ in range(400):
            moment = session.moment
            game = getattr(session.table, "game", None)
            assert game is not None
            if moment == "peg" and timed_out:
                break
            if moment == "discard":
                await lay_away_first(table)
            elif moment == "play":
                view = session.view()
                await table.press(str(sorted(view.hand).index(sorted(view.playable)[0]) + 1), "enter")
            elif moment == "peg":
                await table.press("0", "enter")
            elif moment == "count":
                await table.press("1")  # typed, then the time runs out
                clock.now += 31
                for _ in range(200):
                    await asyncio.sleep(0.01)
                    if session.moment != "count":
                        break
                timed_out = True
            else:
                await table.press("enter")
        assert session.moment == "peg" and timed_out
        assert await table.answer("2") == "2"  # not "12"
        assert any(isinstance(e, CountRequested) for e in session.table.game.events)  # type: ignore[union-attr]

    setup = TableSetup(manual_counting=True, manual_pegging=True, count_timer=30, levels=("beginner",))
    run(script, setup=setup, clock=clock, seed=3)


def test_the_statistics_are_read_afresh_when_asked_for(tmp_path: Path) -> None:
    """Another copy of audiocrib on the same folder may have added a game since this one started."""
    import json

    from audiocrib.progress.statistics import Statistics, Tally

    async def script(table: Table) -> None:
        assert (await table.press("down", "down", "down", "enter"))[-2] == "No games finished yet."
        added = Statistics(total=Tally(games=1, wins=1), by_level={"easy": Tally(games=1, wins=1)},
                           by_variant={"six-card": Tally(games=1, wins=1)}, counted=["elsewhere/1"])
        (tmp_path / "statistics.json").write_text(json.dumps({"version": 1, **added.to_json()}))
        said = await table.press("enter")
        assert said[0].startswith("One game finished; you won one")

    run(script, save_path=tmp_path / "saved-game.json")


def test_a_double_enter_on_abandon_asks_and_does_not_abandon_unheard(tmp_path: Path) -> None:
    clock = FakeClock()
    save = tmp_path / "saved-game.json"
    ahead = "That Enter came before you heard the question, so it did nothing."

    async def script(table: Table) -> None:
        await table.press("enter")
        clock.now += 2
        await lay_away_first(table)
        said = await table.press("escape", "end", "enter", "enter")  # Enter twice, fast
        assert said[-2].startswith("Abandoning deletes this game for good.") and said[-1] == ahead
        assert save.exists() and not table.session.finished
        clock.now += 2
        said = await table.press("enter")
        assert said[-1] == "The game is abandoned. Goodbye."

    run(script, setup=TableSetup(levels=("beginner",)), settings=Settings(pace=0.0, typed_ahead=1.0), clock=clock,
        save_path=save)
    assert not save.exists()


def test_the_play_drill_refuses_points_no_card_can_make_as_the_game_does() -> None:
    from audiocrib.engine.game import PLAY_POINTS

    async def script(table: Table) -> None:
        await table.press("down", "down", "enter")  # practice
        for _ in range(8):
            if "a card in the play" in table.said[-1]:
                break
            await table.press("right")
        assert "a card in the play" in table.said[-1]
        await table.press("down", "down", "enter")  # start counting
        drills = table.session.drills
        assert await table.answer("enter") == ("Type the points your card made with the number keys, 0 if it made "
                                               "none, then press Enter.")
        await table.press("9", "9")
        assert await table.answer("enter") == PLAY_POINTS
        assert drills.session.counts == 0 and table.session.moment == "counting"  # not judged, not counted

    run(script)


def test_f1_during_a_timed_count_says_the_time_left() -> None:
    clock = FakeClock()

    async def script(table: Table) -> None:
        await table.press("enter")
        await reach(table, "count")
        clock.now += 12
        said = await table.press("f1")
        assert said[0].endswith("Eighteen seconds left to count.")

    setup = TableSetup(manual_counting=True, count_timer=30, levels=("beginner",))
    run(script, setup=setup, clock=clock, seed=5)


def test_the_pages_of_question_mark_go_when_the_game_moves_on() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await reach(table, "review")
        said = await table.press("?")
        assert said[0].startswith("Every key, ")
        assert (await table.press("."))[0].startswith("At the table, always: ")
        await table.press("enter")  # the next deal
        stepped = [(await table.press(","))[0] for _ in range(4)]
        pages = ("When you", "At the table", "In practice", "In the menus", "Everywhere")
        assert not any(line.startswith(pages) for line in stepped), stepped  # the unsaid pages are gone
        assert stepped[0].startswith("Your hand: ")  # the game's own news, newest first
        assert stepped[2].startswith("Every key, ")  # what was said is still there

    run(script, setup=TableSetup(levels=("beginner",)), seed=6)
