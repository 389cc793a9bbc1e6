"""The shell, driven through the real prompt_toolkit application with pipe input and a recording speaker."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from audiocrib.engine.actions import Play
from audiocrib.engine.errors import IllegalActionError
from audiocrib.engine.events import GameWon, HandShown, MatchWon
from audiocrib.engine.game import Phase
from audiocrib.engine.rules import Variant
from audiocrib.shell.session import SEAT, WELCOME
from audiocrib.shell.settings import Settings
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.telling import answers
from audiocrib.telling.words import count_aloud
from tests.shell_driver import (
    FakeClock,
    Table,
    lay_away_first,
    play_a_card,
    play_to_the_end,
    run,
)

QUESTION_KEYS = {
    "c": answers.count, "b": answers.crib_owner, "f": answers.starter, "v": answers.table,
    "s": answers.scores, "t": answers.turn, "n": answers.held, "l": answers.last_play,
}


async def reach(table: Table, moment: str, limit: int = 400) -> None:
    """Play on (answering correctly) until the session is at ``moment``."""
    if moment == "over":
        await play_to_the_end(table)
        return
    for _ in range(limit):
        if table.session.moment == moment:
            return
        current = table.session.moment
        if current == "discard":
            await lay_away_first(table)
        elif current == "play":
            await play_a_card(table)
        elif current in ("review", "waiting"):
            await table.press("enter")
        elif current == "count":
            game = getattr(table.session.table, "game", None)
            assert game is not None
            await table.press("1", "enter")
        else:
            raise AssertionError(f"cannot reach {moment} from {current}")
    raise AssertionError(f"never reached {moment}")


# ------------------------------------------------------------------ menus
def test_the_first_words_are_the_main_menu_and_the_screen_shows_every_line() -> None:
    async def script(table: Table) -> None:
        assert table.said[:2] == [WELCOME, "Main menu: New game. 1 of 8."]
        assert (await table.answer("down")).startswith("Table setup: six-card cribbage, 2 players, to 121. 2 of 8")
        assert await table.answer("up") == "New game. 1 of 8."
        assert await table.answer("up") == "Quit. 8 of 8."
        assert await table.answer("home") == "New game. 1 of 8."
        assert await table.answer("end") == "Quit. 8 of 8."

    table = run(script)
    assert table.screen.getvalue().splitlines() == table.said[: len(table.screen.getvalue().splitlines())]
    assert all(line.isascii() and line.isprintable() for line in table.screen.getvalue().splitlines())


def test_table_setup_changes_settings_and_keeps_the_table_playable() -> None:
    async def script(table: Table) -> None:
        await table.press("down", "enter")
        assert table.said[-1] == "Table setup: Players: 2. 1 of 11."
        assert await table.answer("right") == "Players: 3."
        await table.press("right")
        assert table.session.setup.players == 4
        said = await table.press("down", "right")
        assert said[-1] == "Teams: teams of two."
        await table.press("down", "left")  # six-card to five-card going back
        assert table.session.setup.variant is Variant.FIVE_CARD
        said = await table.press("up", "left")
        assert "always played in teams" in said[-1]
        assert table.session.setup.teams == 2
        await table.press("escape")
        assert table.said[-1].startswith("Main menu: ")

    run(script)


def test_table_setup_values_stop_at_their_ends_as_the_settings_do() -> None:
    """At the first or last choice an arrow (or Enter) changes nothing and says the value again, as the settings
    say "Verbosity: full." at theirs; "Game to" no longer goes round from 61 to 241."""

    async def script(table: Table) -> None:
        await table.press("down", "enter")
        assert await table.answer("left") == "Players: 2."
        assert table.session.setup.players == 2
        assert (await table.press("down", "down", "down"))[-1] == "Game to: 61. 4 of 11."
        assert await table.answer("left") == "Game to: 61."
        assert table.session.setup.target == 61
        said = await table.press(*["right"] * 6)
        assert said[-1] == "Game to: 241."
        assert await table.answer("right") == "Game to: 241."
        assert await table.answer("enter") == "Game to: 241."
        assert table.session.setup.target == 241
        assert await table.answer("up") == "Cribbage: six-card. 3 of 11."
        assert await table.answer("right") == "Cribbage: seven-card."  # a new variant: its usual target
        await table.press("down", "right", "right", "right", "right", "up")  # 181 the usual, on to 241, and stays
        assert table.session.setup.target == 241
        assert await table.answer("right") == "Cribbage: seven-card."  # the last: the target chosen stays
        assert table.session.setup.variant is Variant.SEVEN_CARD and table.session.setup.target == 241
        assert await table.answer("up") == "Teams: each for themselves. 2 of 11."
        await table.press("down", "down", "down")
        assert await table.answer("right") == "Match: first to 7 game points."
        assert table.session.setup.match_games == 7
        await table.press("end", "up")
        assert await table.answer("right") == "Bob: expert."
        await table.press("home", *["right"] * 4)
        assert table.session.setup.players == 6
        assert await table.answer("right") == "Players: 6."
        assert table.session.setup.players == 6

    run(script, setup=TableSetup(target=61, match_games=5))


def test_the_setup_chooses_every_opponent_level_and_starts_the_game() -> None:
    async def script(table: Table) -> None:
        await table.press("down", "enter", "right")  # three players
        await table.press("end", "up")  # the last opponent's level
        said = await table.press("left", "left", "left")  # expert is the last level: down to the first
        assert said[-1] == "Carol: beginner."
        await table.press("end", "enter")
        assert table.session.table is not None
        assert table.session.table.game.rules.players == 3
        assert table.session.table.levels == ("expert", "beginner")
        assert table.session.moment == "discard"

    run(script)


def test_settings_change_verbosity_pace_and_the_voice() -> None:
    async def script(table: Table) -> None:
        await table.press("down", "down", "down", "down", "enter")
        assert table.said[-1] == "Settings: Speech: your screen reader, or else the built-in voice. 1 of 15."
        assert await table.answer("down") == "Verbosity: normal. 2 of 15."
        assert await table.answer("right") == "Verbosity: full."
        assert await table.answer("space") == "Verbosity: full."  # the last choice stays
        await table.press("down", "left")
        assert table.session.settings.pace == 1.0
        await table.press("escape")
        assert table.said[-1] == "Main menu: New game. 1 of 8."

    table = run(script, settings=Settings(pace=1.5))
    assert table.session.settings.verbosity.value == "full"


# ------------------------------------------------------------------ a whole game
@pytest.mark.parametrize(
    "setup",
    [
        TableSetup(levels=("beginner",)),
        TableSetup(players=4, teams=2, variant=Variant.FIVE_CARD, levels=("easy",) * 3),
        TableSetup(players=3, target=61, levels=("beginner", "medium")),
        TableSetup(players=6, teams=3, target=61, levels=("beginner",) * 5),
        TableSetup(variant=Variant.SEVEN_CARD, target=61, manual_counting=True, levels=("beginner",)),
        TableSetup(target=61, match_games=2, levels=("beginner",)),
        TableSetup(players=4, teams=2, target=61, muggins=True, manual_counting=True, levels=("medium",) * 3),
    ],
    ids=["six-card", "five-card teams", "three players", "six in teams of three", "seven-card counting", "match",
         "muggins teams"],
)
def test_a_whole_match_from_the_menu_to_the_winner_by_key_presses(setup: TableSetup) -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await play_to_the_end(table)

    table = run(script, setup=setup, seed=11)
    game = getattr(table.session.table, "game", None)
    assert game is not None and game.over
    won = [e for e in game.events if isinstance(e, MatchWon)]
    assert len(won) == 1
    assert table.said[-1] == "Press Enter for the main menu."
    assert any(re.search(r"\bwins? (the game|game \w+)\b", line) for line in table.said[-8:])
    assert any(line.startswith("You play the ") for line in table.said)
    assert "Press Enter for the next deal." in table.said
    if setup.match_games > 1:
        assert "Press Enter for the next game." in table.said
    if setup.match_games > 1:
        assert sum(isinstance(e, GameWon) for e in game.events) >= 2
    if setup.manual_counting:
        claimed = [e for e in game.events if isinstance(e, HandShown) and e.seat == SEAT]
        assert claimed and all(e.claimed == e.score.total for e in claimed)
    # Every line went to the screen once, as plain ASCII.
    lines = table.screen.getvalue().splitlines()
    assert lines == table.said
    assert all(line.isascii() and line.isprintable() for line in lines)


def test_enter_after_the_match_goes_back_to_the_main_menu() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await play_to_the_end(table)
        assert await table.answer("enter") == "Main menu: New game. 1 of 8."
        assert table.session.table is None

    run(script, setup=TableSetup(variant=Variant.FIVE_CARD, levels=("beginner",)))


# ------------------------------------------------------------------ every key in every moment
@pytest.mark.parametrize("moment", ["discard", "play", "count", "review", "over"])
def test_every_question_key_answers_from_the_view_in_every_moment(moment: str) -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await reach(table, moment)
        view = table.session.view()
        for key, answer in QUESTION_KEYS.items():
            if key == "t" and moment == "review":  # the game waits for the player's Enter, not the view's
                assert await table.answer(key) == "Yours: press Enter for the next deal."
                continue
            assert await table.answer(key) == answer(view), key
        assert await table.answer("h") == answers.hand(view, ())
        assert table.session.moment == moment

    setup = TableSetup(variant=Variant.FIVE_CARD, manual_counting=True, levels=("beginner",))
    run(script, setup=setup, seed=3)


def test_the_review_after_the_show_answers_from_the_deal_just_shown() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await reach(table, "review")
        view = table.session.view()
        game = getattr(table.session.table, "game", None)
        assert game is not None and game.phase is Phase.DISCARD  # the game itself has dealt again
        assert view.starter is not None  # ...but the keys answer from the show
        assert "starter is the " + view.starter.name in await table.answer("f")
        said = await table.press("enter")
        assert any("your hand" in line.lower() for line in said)
        assert table.session.moment == "discard"

    run(script, setup=TableSetup(levels=("beginner",)), seed=4)


def test_arrows_walk_the_hand_and_digits_pick_by_position() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        hand = sorted(table.session.view().hand)
        assert (await table.answer("right")).startswith(f"{hand[1].name.capitalize()}. 2 of 6")
        assert (await table.answer("left")).startswith(f"{hand[0].name.capitalize()}. 1 of 6")
        assert (await table.answer("left")).startswith(f"{hand[5].name.capitalize()}. 6 of 6")
        assert await table.answer("3") == f"{hand[2].name.capitalize()}, marked. One more to mark."
        assert await table.answer("space") == f"{hand[2].name.capitalize()}, unmarked. Two more to mark."
        await table.press("1", "2")
        assert "marked" in await table.answer("h")
        await table.press("enter")
        assert table.session.moment in ("play", "waiting")
        await reach(table, "play")
        view = table.session.view()
        hand = sorted(view.hand)
        said = await table.answer("1")
        if hand[0] in view.playable:
            assert said == f"{hand[0].name.capitalize()}, makes {_words(view.count + hand[0].rank.value_in_count)}."
        else:
            assert said == f"{hand[0].name.capitalize()}, would pass thirty-one."

    run(script, setup=TableSetup(levels=("beginner",)), seed=6)


def _words(n: int) -> str:
    from audiocrib.engine.numbers import number_words

    return number_words(n)


# ------------------------------------------------------------------ illegal input
def test_illegal_keys_and_moves_get_one_sentence_and_change_nothing() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        game = getattr(table.session.table, "game", None)
        assert game is not None
        before = game.state_key()
        assert await table.answer("enter") == "Mark two cards for the crib first; zero marked."
        assert await table.answer("z") == "The z key does nothing now. Press Tab for help."
        assert await table.answer("f5") == "The F5 key does nothing now. Press Tab for help."
        await table.press("1", "2")
        assert (await table.answer("3")).startswith("You already marked two")
        assert await table.answer("9") == "You hold only six cards."
        assert game.state_key() == before
        await table.press("enter")
        # In the play, a card that would pass 31.
        for _ in range(200):
            await reach(table, "play")
            view = table.session.view()
            blocked = [c for c in view.hand if c not in view.playable]
            if blocked:
                before = game.state_key()
                position = sorted(view.hand).index(blocked[0]) + 1
                with pytest.raises(IllegalActionError) as refused:
                    game.verify(Play(SEAT, blocked[0]))
                said = await table.press(str(position), "enter")
                assert said[-1] == str(refused.value)
                assert game.state_key() == before
                return
            await play_a_card(table, highest=True)
        raise AssertionError("no blocked card came up")

    run(script, setup=TableSetup(levels=("beginner",)), seed=2)


def test_a_burst_of_every_key_in_every_menu_never_breaks_the_shell() -> None:
    keys = ["c", "b", "f", "v", "s", "t", "h", "n", "l", "left", "right", "up", "down", "home", "end", "f1",
            "?", ",", ".", "<", ">", "r", "m", "x", "0", "7", "backspace", "f5"]

    async def script(table: Table) -> None:
        for key in keys:  # the main menu
            said = await table.press(key)
            assert said, key
        await table.press("home", "enter")
        for key in keys:  # the game
            said = await table.press(key)
            assert said, key

    run(script, setup=TableSetup(levels=("beginner",)))


# ------------------------------------------------------------------ history, help, silence
def test_history_keys_step_through_what_was_said() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        kept = table.session.announcer.history.messages
        assert await table.answer("r") == kept[-1]
        assert await table.answer(",") == kept[-2]
        assert await table.answer(",") == kept[-3]
        assert await table.answer(".") == kept[-2]
        assert await table.answer("<") == kept[0]
        assert await table.answer(",") == kept[0] + " (This is the oldest message.)"
        assert await table.answer(">") == kept[-1]
        assert table.session.announcer.history.messages == kept  # reading does not add to the history

    run(script, setup=TableSetup(levels=("beginner",)))


def test_f1_explains_this_moment_and_question_mark_lists_every_key() -> None:
    async def script(table: Table) -> None:
        said = await table.press("f1")
        assert said[0].startswith("You are in the main menu.")
        await table.press("enter")
        said = await table.press("f1")
        assert said[0] == answers.prompt(table.session.view(), ())
        assert "space: Mark or unmark the card you are on, for the crib." in said
        said = await table.press("?")  # this moment's keys first; period steps through the rest
        # twelve: no counting of your own hand, no claiming in the play at this table
        assert len(said) == 1 and said[0].startswith("Every key, twelve messages; period steps to the next")
        assert "When you lay away: space: Mark or unmark the card you are on" in said[0]
        for _ in range(11):
            said += await table.press(".")
        assert said[-1].endswith("(This is the newest message.)") is False
        assert (await table.press("."))[-1].endswith("(This is the newest message.)")
        assert (await table.press("r")) == [said[0]]  # r repeats what was said, not the pages stepped through
        text = " ".join(said)
        for key in ("c: The count", "b: Who owns the crib.", "f: The starter card.", "comma: An older message.",
                    "Escape: The game menu", "Tab or F1: Help for this moment.",
                    "1 to 9: Go to the card at that position."):
            assert key in text, key

    run(script, setup=TableSetup(levels=("beginner",)))


def test_tab_is_help_in_every_moment_a_line_included_and_every_sentence_names_it() -> None:
    """F1 never reaches the game in GNOME Terminal and MATE Terminal (their own help takes it): Tab, which every
    terminal passes and which types nothing, says the same help in the menus, the game, a count typed, a drill and
    a line typed; the welcome and every "does nothing" answer name Tab."""

    async def same_as_f1(table: Table) -> list[str]:
        said = await table.press("tab")
        assert said and said == await table.press("f1"), table.session.moment
        return said

    async def script(table: Table) -> None:
        assert table.said[0] == WELCOME == "Welcome to audiocrib. Press Tab for help at any time."
        assert (await same_as_f1(table))[0].startswith("You are in the main menu.")
        assert await table.answer("z") == "The z key does nothing now. Press Tab for help."
        await table.press("end", "up", "up", "up", "enter")  # Settings
        assert (await same_as_f1(table))[0].startswith("You are in the settings.")
        await table.press("escape", "home", "down", "down", "enter", "down", "down", "enter")  # a count drill
        assert table.session.moment == "counting"
        await table.press("1")
        assert (await same_as_f1(table))[0] == "1 to 9 and 0: Type your count."
        assert table.session.drills.typed.text == "1"  # what was typed stays
        await table.press("escape", "escape", "end", "up", "enter")  # Play online: the server's address is asked
        assert table.session.moment == "typing"
        await table.press("l", "o")
        said = await same_as_f1(table)
        assert said[0] == "You are typing: Server address. Type it, Enter takes it, Escape goes back."
        assert table.session.line.text == "lo"  # Tab types nothing
        assert await table.answer("f5") == "The F5 key does nothing now. Press Tab for help."
        await table.press("escape", "home", "enter")  # a new game: lay away, then count the hands by hand
        assert table.session.moment == "discard"
        assert (await same_as_f1(table))[0] == answers.prompt(table.session.view(), ())
        pages = await every_key_page(table)
        assert any(page.startswith("Everywhere: ") and "Tab or F1: Help for this moment." in page for page in pages)
        await reach(table, "count")
        await table.press("2")
        said = await same_as_f1(table)
        assert said[0].startswith(answers.prompt(table.session.view(), ()))
        assert table.session.typed.text == "2"
        assert not any("F1 for help" in line for line in table.said)

    run(script, setup=TableSetup(variant=Variant.FIVE_CARD, manual_counting=True, levels=("beginner",)), seed=3)


@pytest.mark.parametrize("variant", [Variant.FIVE_CARD, Variant.SIX_CARD, Variant.SEVEN_CARD])
def test_f1_names_the_digits_of_the_cards_held(variant: Variant) -> None:
    """F1 names the positions the hand has, not 1 to 9: 1 to 6 at a six-card lay-away, 1 to 4 in its play."""

    async def script(table: Table) -> None:
        await table.press("enter")
        dealt = len(table.session.view().hand)
        assert dealt == {Variant.FIVE_CARD: 5, Variant.SIX_CARD: 6, Variant.SEVEN_CARD: 7}[variant]
        said = await table.press("f1")
        assert f"1 to {dealt}: Mark or unmark the card at that position." in said
        assert not any(line.startswith("1 to 9:") for line in said)
        pages = await table.press("?")  # the moment's own keys, as F1 says them
        assert f"When you lay away: space: Mark or unmark the card you are on, for the crib. 1 to {dealt}: " in pages[0]
        await reach(table, "play")
        held = len(table.session.view().hand)
        said = await table.press("f1")
        assert f"1 to {held}: Go to the card at that position." in said
        assert not any(line.startswith("1 to 9:") for line in said)

    run(script, setup=TableSetup(variant=variant, levels=("beginner",)), seed=3)


async def every_key_page(table: Table) -> list[str]:
    """Press question mark and step with period through every page it lists; the pages, the first first."""
    pages = await table.press("?")
    for _ in range(30):
        said = (await table.press("."))[0]
        if said.endswith("(This is the newest message.)"):
            return pages
        pages.append(said)
    raise AssertionError("question mark's pages did not end")


@pytest.mark.parametrize("in_game", [True, False])
def test_question_mark_lists_only_the_keys_that_do_something_at_this_table(in_game: bool) -> None:
    """No m without muggins, and no keys of a moment this table never comes to (counting your own hand, claiming
    your points in the play); at a table with all three they are listed. From the main menu, the table set up."""
    muggins = "m: Call muggins on a short count, before the next deal."

    async def plain(table: Table) -> None:
        if in_game:
            await table.press("enter")
        pages = await every_key_page(table)
        assert pages[0].startswith("Every key, twelve messages;") and len(pages) == 12
        text = " ".join(pages)
        assert muggins not in text and " m: " not in text
        assert "When you count your hand" not in text and "When you claim your points in the play" not in text
        assert "At the table, always: c: The count" in text and "When you lay away: " in text

    run(plain, setup=TableSetup(levels=("beginner",)))

    async def every_option(table: Table) -> None:
        if in_game:
            await table.press("enter")
        pages = await every_key_page(table)
        assert pages[0].startswith("Every key, fourteen messages;") and len(pages) == 14
        text = " ".join(pages)
        assert muggins in text
        assert "When you count your hand: 1 to 9 and 0: Type your count." in text
        assert "When you claim your points in the play: 1 to 9 and 0: Type the points your card made." in text

    run(every_option, setup=TableSetup(muggins=True, manual_counting=True, manual_pegging=True, levels=("beginner",)))


def test_a_key_press_silences_speech_unless_the_setting_is_off() -> None:
    async def script(table: Table) -> None:
        before = table.speaker.silenced
        await table.press("s", "s")
        assert table.speaker.silenced == before + 2

    run(script)

    async def quiet(table: Table) -> None:
        await table.press("s", "s")
        assert table.speaker.silenced == 0

    run(quiet, settings=Settings(pace=0.0, typed_ahead=0.0, silence_on_key=False))


# ------------------------------------------------------------------ pacing
def test_the_computer_players_wait_for_the_pace_and_any_key_hurries_them() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await lay_away_first(table)
        session = table.session
        game = getattr(session.table, "game", None)
        assert game is not None
        loop = asyncio.get_running_loop()
        for _ in range(50):  # reach a moment where a computer player is to move
            if session.bot_waiting():
                break
            view = session.view()
            position = sorted(view.hand).index(sorted(view.playable)[0]) + 1
            count = session.keys_pressed
            table.pipe.send_text(str(position))
            table.pipe.send_text("\r")
            while session.keys_pressed < count + 2:
                await asyncio.sleep(0.002)
        assert session.bot_waiting()
        moved = len(game.events)
        await asyncio.sleep(0.3)
        assert len(game.events) == moved  # still pausing (the pace is 30 seconds)
        count = session.keys_pressed
        expected = answers.scores(session.view())
        heard = len(table.said)
        table.pipe.send_text("s")
        end = loop.time() + 10
        while len(game.events) == moved:
            assert loop.time() < end, "the key did not hurry the computer player"
            await asyncio.sleep(0.005)
        assert session.keys_pressed == count + 1
        assert table.said[heard] == expected  # the question is answered first, then the move is told

    run(script, setup=TableSetup(levels=("beginner",)), settings=Settings(pace=30.0, typed_ahead=0.0), seed=9)


# ------------------------------------------------------------------ manual counting and its timer
def test_the_counting_timer_warns_and_times_out_on_the_test_clock() -> None:
    clock = FakeClock()

    async def script(table: Table) -> None:
        await table.press("enter")
        await reach(table, "count")
        said_t = await table.answer("t")
        assert "Thirty seconds left to count." in said_t
        clock.now += 15
        await asyncio.sleep(0.1)
        assert table.said[-1] == "Fifteen seconds left to count."
        clock.now += 10
        await asyncio.sleep(0.1)
        assert table.said[-1] == "Five seconds left to count."
        clock.now += 6
        for _ in range(200):
            await asyncio.sleep(0.01)
            if table.session.moment != "count":
                break
        game = getattr(table.session.table, "game", None)
        assert game is not None
        shown = [e for e in game.events if isinstance(e, HandShown) and e.seat == SEAT]
        assert shown[-1].timed_out
        assert "Time is up." not in table.said  # said once, by the count's own line
        assert any(line.startswith("Your time is up.") for line in table.said)

    setup = TableSetup(manual_counting=True, count_timer=30, levels=("beginner",))
    run(script, setup=setup, clock=clock, seed=5)


def test_a_manual_count_is_typed_corrected_and_claimed() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await reach(table, "count")
        assert await table.answer("enter") == "Type your count with the number keys first, then press Enter."
        assert await table.answer("4") == "4"
        assert await table.answer("2") == "42"
        assert (await table.answer("7")).startswith("You typed 42")
        assert await table.answer("backspace") == "Deleted; 4 typed."
        said = await table.press("enter")
        assert any("four" in line for line in said)
        game = getattr(table.session.table, "game", None)
        assert game is not None
        shown = [e for e in game.events if isinstance(e, HandShown) and e.seat == SEAT]
        assert shown[-1].claimed == 4

    run(script, setup=TableSetup(manual_counting=True, levels=("beginner",)), seed=5)


# ------------------------------------------------------------------ the game menu, save and resume
def test_escape_opens_the_game_menu_and_resume_returns_to_the_same_moment() -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        said = await table.press("escape")
        assert said[-1] == "Game menu: Resume. 1 of 4."
        assert table.session.moment == "game menu"
        said = await table.press("enter")
        assert said[-1].startswith("Back to the game. Lay away")
        assert table.session.moment == "discard"

    run(script, setup=TableSetup(levels=("beginner",)))


def test_docs_keys_lists_every_binding_in_the_words_of_the_spoken_help() -> None:
    from audiocrib.shell import keys

    text = (Path(__file__).parent.parent / "docs" / "keys.md").read_text()
    from audiocrib.shell.drills import DRILL_KEYS

    groups = [keys._MENU, keys._MENU_VALUES, keys._TABLE, keys._HISTORY, keys._TYPING, keys._ONLINE,
              *keys._MOMENT_KEYS.values(), *DRILL_KEYS.values()]
    for group in groups:
        for binding in group:
            row = f"| {keys.key_words(binding.keys)} | {binding.description} |"
            assert row in text, row


@pytest.mark.parametrize("moment", ["discard", "play", "count", "review", "over"])
def test_help_history_arrows_and_the_game_menu_work_in_every_moment_and_change_nothing(moment: str) -> None:
    async def script(table: Table) -> None:
        await table.press("enter")
        await reach(table, moment)
        game = getattr(table.session.table, "game", None)
        assert game is not None
        before = game.state_key()
        view = table.session.view()
        hand = sorted(view.hand if view.hand else view.kept)
        said = await table.press("f1")
        expected = "Press Enter for the next deal." if moment == "review" else answers.prompt(view, ())
        assert said[0] == expected
        said = await table.press("right")
        assert said == ([f"{table.session._card_words(hand[1 % len(hand)])}. {1 % len(hand) + 1} of {len(hand)}."]
                        if hand else ["You hold no cards."])
        await table.press("left")
        kept = table.session.announcer.history.messages
        assert await table.answer(",") == kept[-2]
        assert await table.answer("r") == kept[-1]
        assert await table.answer("escape") == "Game menu: Resume. 1 of 4."
        said = await table.press("escape")
        assert said[0].startswith("Back to the game. ")
        assert table.session.moment == moment
        assert game.state_key() == before

    setup = TableSetup(variant=Variant.FIVE_CARD, manual_counting=True, levels=("beginner",))
    run(script, setup=setup, seed=3)


def test_settings_from_the_game_menu_return_to_it_and_apply_at_once() -> None:
    async def script(table: Table) -> None:
        await table.press("enter", "escape", "down", "enter")
        assert table.said[-1] == "Settings: Speech: your screen reader, or else the built-in voice. 1 of 15."
        await table.press("down", "left")  # brief
        assert table.session.narrator is not None
        assert table.session.narrator.verbosity.value == "brief"
        said = await table.press("escape")
        assert said[-1] == "Game menu: Resume. 1 of 4."
        await table.press("enter")
        assert table.session.moment == "discard"

    run(script, setup=TableSetup(levels=("beginner",)))


def test_voice_rate_and_volume_settings_reach_the_speech_chain() -> None:
    import io

    from audiocrib.shell.announcer import Announcer
    from audiocrib.shell.session import Session
    from audiocrib.speech import FallbackSpeaker, LazySpeaker, RecordingSpeaker

    class Voice(RecordingSpeaker):
        name = "the built-in voice"

        def __init__(self) -> None:
            super().__init__()
            self.rates: list[int] = []
            self.volumes: list[float] = []

        def set_rate(self, wpm: int) -> None:
            self.rates.append(wpm)

        def set_volume(self, volume: float) -> None:
            self.volumes.append(volume)

    class Gone(RecordingSpeaker):
        name = "the screen reader"

        def speak(self, text: str, interrupt: bool = False) -> None:
            raise OSError("the screen reader is gone")

    voice = Voice()
    chain = FallbackSpeaker([Gone(), LazySpeaker("the built-in voice", lambda: voice)])
    session = Session(Announcer(chain, io.StringIO()), settings=Settings(rate=250, volume=60))
    session.start()  # the screen reader fails on the first words: the voice starts and takes over
    assert (voice.rates, voice.volumes) == ([250], [0.6])  # handed over when the voice started
    assert voice.said[0] == "The screen reader could not speak; using the built-in voice."
    assert session.announcer.history.messages[0] == voice.said[0]
    for _ in range(4):
        session.press("down")
    session.press("enter")  # settings
    for _ in range(5):
        session.press("down")
    session.press("right")  # voice rate
    session.press("down")
    session.press("left")  # voice volume
    assert voice.rates[-1] == 275 and voice.volumes[-1] == 0.5


def test_the_counting_clock_stops_while_the_game_menu_is_open() -> None:
    clock = FakeClock()

    async def script(table: Table) -> None:
        await table.press("enter")
        await reach(table, "count")
        await table.press("escape")
        clock.now += 120  # two minutes in the menu
        await asyncio.sleep(0.1)
        assert table.session.moment == "game menu"
        await table.press("escape")
        assert table.session.moment == "count"
        assert "Thirty seconds left to count." in await table.answer("t")

    setup = TableSetup(manual_counting=True, count_timer=30, levels=("beginner",))
    run(script, setup=setup, clock=clock, seed=5)


def test_muggins_right_and_wrong_from_the_pause_after_the_show() -> None:
    from audiocrib.engine.events import MugginsCalled, PlayEnded

    done = {"right": False, "wrong": False}

    async def script(table: Table) -> None:
        await table.press("enter")
        for _ in range(30):
            await reach(table, "review")
            game = getattr(table.session.table, "game", None)
            assert game is not None
            start = max(i for i, e in enumerate(game.events) if isinstance(e, PlayEnded))
            short = [e for e in game.events[start:] if isinstance(e, HandShown) and e.seat != SEAT
                     and e.claimed is not None and e.claimed < e.score.total]
            heard = [line for line in table.said if line.startswith("Bob's ")]
            assert heard and all(" Bob counts " in line or "by Bob's count" in line for line in heard[-2:])
            before = game.scores
            if short and not done["right"]:
                missed = sum(e.score.total - e.pegged for e in short)
                said = await table.press("m")
                first = short[0]
                missed_words = _words(first.score.total - first.pegged)
                assert said[0].startswith(f"Muggins! You take {missed_words} that Bob missed. Bob's ")
                assert said[0].endswith(f"{count_aloud(first.score)}.")  # the true count, heard at last
                assert game.scores[0] == before[0] + missed
                view = table.session.view()
                assert view.scores[0] == before[0] + missed  # the pause looks back with the call in it
                assert await table.answer("s") == answers.scores(view)
                told = len(table.said)
                await table.press("enter")
                assert not any(line.startswith("Muggins!") for line in table.said[told:])  # not told twice
                assert sum(isinstance(e, MugginsCalled) for e in game.events) >= 1
                done["right"] = True
            elif not short and not done["wrong"]:
                state = game.state_key()
                assert await table.answer("m") == "Every count was right: there is nothing to call muggins on."
                assert game.state_key() == state
                await table.press("enter")
                done["wrong"] = True
            else:
                await table.press("enter")
            if all(done.values()) or game.over:
                return

    run(script, setup=TableSetup(muggins=True, levels=("beginner",)), seed=8)
    assert all(done.values()), done


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_key_bursts_always_get_an_answer_and_never_break_the_shell(seed: int, tmp_path: Path) -> None:
    import random

    keys = ["c", "b", "f", "v", "s", "t", "h", "n", "l", "m", "left", "right", "up", "down", "home", "end",
            "enter", "enter", "enter", "space", "space", "escape", "backspace", "f1", ",", ".", "<", ">", "r",
            "q", "z", "f5", *"0123456789"]
    rng = random.Random(seed)

    pressed = []

    async def script(table: Table) -> None:
        from audiocrib.shell.session import Mode

        for _ in range(600):
            key = rng.choice(keys)
            session = table.session
            if session.mode is Mode.MAIN and (key == "escape" or (key in ("enter", "space")
                                              and session._items()[session.menu_index] == "quit")):
                key = "down"  # leaving the program ends the burst too soon
            if session.mode is Mode.GAME_MENU and key in ("enter", "space") and session.menu_index >= 2:
                key = "up"  # so do saving and quitting
            before = len(table.said)
            assert not session.finished
            await table.press(key)
            pressed.append(key)
            assert len(table.said) > before  # every key is answered
            game = getattr(table.session.table, "game", None)
            if game is not None:
                assert game.replayed().state_key() == game.state_key()  # never an impossible state

    setup = TableSetup(players=3, manual_counting=True, count_timer=30, muggins=True,
                       levels=("beginner", "beginner"))
    table = run(script, setup=setup, seed=seed, save_path=tmp_path / "saved-game.json")
    assert len(pressed) == 600  # the shell was still running after the last key
    game = getattr(table.session.table, "game", None)
    assert game is not None and game.deal_number >= 2  # a game was started and played well into


def test_sound_cues_go_with_the_game_and_f2_turns_them_off() -> None:
    from tests.shell_driver import RecordingPlayer

    player = RecordingPlayer()

    async def script(table: Table) -> None:
        await table.press("enter")
        assert "deal" in player.played
        await reach(table, "play")
        assert player.played[-1] == "your turn"
        await play_a_card(table)
        assert "card" in player.played
        await table.press("z")
        assert player.played[-1] == "illegal"
        assert await table.answer("f2") == "Sounds off."
        heard = len(player.played)
        await table.press("z", "s")
        assert len(player.played) == heard  # nothing while off
        assert await table.answer("f2") == "Sounds on."

    table = run(script, setup=TableSetup(levels=("beginner",)),
                settings=Settings(pace=0.0, typed_ahead=0.0, sound_volume=40),
                player=player)
    assert player.volume == 0.4  # the sound volume setting, apart from the speech's
    assert table.session.settings.sounds


def test_at_brief_with_sounds_for_words_go_and_last_are_heard_as_sounds_alone() -> None:
    from audiocrib.telling.narrator import Verbosity
    from tests.shell_driver import RecordingPlayer

    player = RecordingPlayer()

    async def script(table: Table) -> None:
        await table.press("enter")
        for _ in range(12):
            await reach(table, "review")
            await table.press("enter")
            if "go" in player.played and "last card" in player.played:
                break
        assert "go" in player.played and "last card" in player.played
        spoken = " ".join(table.said)
        assert ": go." not in spoken and ": one for last." not in spoken
        kept = table.session.announcer.history.messages
        assert any(line.endswith(": go.") for line in kept)  # still in the history to read back

    settings = Settings(pace=0.0, typed_ahead=0.0, verbosity=Verbosity.BRIEF, sounds_for_words=True)
    run(script, setup=TableSetup(levels=("beginner",)), settings=settings, player=player)


def test_the_sound_test_plays_each_cue_with_its_name() -> None:
    from audiocrib.telling.cues import CUES
    from tests.shell_driver import RecordingPlayer

    player = RecordingPlayer()

    async def script(table: Table) -> None:
        await table.press("down", "down", "down", "down", "enter", "end", "up", "enter")
        assert table.said[-1] == f"Sound test: Your turn: {CUES['your turn']}. 1 of {len(CUES)}."
        assert player.played[-1] == "your turn"
        said = await table.press("down")
        assert said == [f"Card: {CUES['card']}. 2 of {len(CUES)}."] and player.played[-1] == "card"
        await table.press("enter")
        assert player.played[-2:] == ["card", "card"]  # Enter plays it again
        said = await table.press("escape")
        assert said[-1].startswith("Settings: Sound test.")

    run(script, player=player)


def test_a_line_feed_is_enter_as_before_the_terminal_is_in_raw_mode() -> None:
    async def script(table: Table) -> None:
        said = await table.press("\n")
        assert said[0].startswith("New game: ")

    run(script, setup=TableSetup(levels=("beginner",)))
