"""The replay's keys, in the session itself: an event or a deal at a time, forward and back; the table's questions
answered for the moment it stands at; every hand shown; a match watched; the help."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from audiocrib.bots.player import drive, load_player
from audiocrib.engine.events import Dealt, Discarded, Played, StarterCut
from audiocrib.engine.game import Game
from audiocrib.engine.numbers import number_words
from audiocrib.engine.pastmatch import PastMatch
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import watcher_seat
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.keys import Mode
from audiocrib.shell.session import Session
from audiocrib.speech import RecordingSpeaker
from audiocrib.telling.narrator import Narrator

QUESTIONS = ("c", "b", "f", "v", "s", "t", "h", "n", "l", "a")


def finished(rules: Rules, seed: int = 5) -> Game:
    """A match over, played by computer players."""
    names = ("Ann", "Bob", "Carol", "Dave", "Erin", "Frank")[: rules.players]
    game = Game(rules, names, seed=seed)
    drive(game, [load_player("medium", seed=seed * 8 + s) for s in range(rules.players)])
    return game


def replaying(match: PastMatch) -> tuple[Session, RecordingSpeaker]:
    speaker = RecordingSpeaker()
    session = Session(Announcer(speaker, io.StringIO()))
    session.start()
    session._replay(match)
    return session, speaker


def press(session: Session, speaker: RecordingSpeaker, key: str) -> list[str]:
    before = len(speaker.said)
    session.press(key)
    return speaker.said[before:]


@pytest.fixture(scope="module")
def match() -> PastMatch:
    return PastMatch.of(finished(Rules(target=61)), 0, 1795795200.0, "on this computer", ("", "medium"))


def test_the_questions_answer_for_the_moment_the_replay_stands_at(match: PastMatch) -> None:
    session, speaker = replaying(match)
    events = match.events
    stood = 0
    while True:
        said = press(session, speaker, "right")
        if said[-1].startswith("The end of the match"):
            break
        event = events[session.replay_at - 1]
        if isinstance(event, Played):
            assert number_words(event.count) in press(session, speaker, "c")[0]
        elif isinstance(event, StarterCut):
            assert event.card.name in press(session, speaker, "f")[0]
        elif isinstance(event, Dealt):
            hand = press(session, speaker, "h")[0]
            assert all(card.name in hand for card in event.hands[0])
            assert not re.search(r"\d", hand), hand  # no positions: no key picks a card in a replay
            assert not any(card.name in hand for card in event.hands[1])
        if stood % 5 == 0:  # every question, at many moments: a sentence, never a crash
            for key in QUESTIONS:
                answer = press(session, speaker, key)
                assert answer and all(line.isascii() and line.isprintable() for line in answer), (key, answer)
        stood += 1
    final = press(session, speaker, "s")[0]
    result = match.result
    assert result is not None and all(number_words(score) in final for score in result.last_scores)
    assert session.mode is Mode.REPLAY and session.replay_at == len(events)


def test_every_hand_of_a_deal_is_shown_once_the_match_is_over(match: PastMatch) -> None:
    session, speaker = replaying(match)
    assert press(session, speaker, "a") == ["No cards have been dealt yet."]
    starts = match.deal_starts()
    for start in starts:
        said = press(session, speaker, "down")
        assert session.replay_at == start + 1 and any(line.startswith("Deal ") for line in said[:2])
        dealt = match.events[start]
        assert isinstance(dealt, Dealt)
        shown = " ".join(press(session, speaker, "a"))
        for seat, hand in enumerate(dealt.hands):
            assert all(card.name in shown for card in hand)
            laid = next(e for e in match.events[start:] if isinstance(e, Discarded) and e.seat == seat)
            name = "You" if seat == 0 else match.names[seat]
            assert f"{name} held " in shown
            assert "laid away " + " and ".join(f"the {c.name}" for c in sorted(laid.cards)) in shown
    assert press(session, speaker, "down") == ["This is the last deal; End goes to the end of the match."]
    press(session, speaker, "up")
    assert session.replay_at == starts[-2] + 1  # at a deal's start: the deal before
    press(session, speaker, "right")
    press(session, speaker, "right")
    press(session, speaker, "up")
    assert session.replay_at == starts[-2] + 1  # further in: this deal from its start
    assert press(session, speaker, "home") == ["The start of the match. Right arrow tells the first event."]
    assert press(session, speaker, "left") == ["The start of the match. Right arrow tells the first event."]
    first = press(session, speaker, "right")
    second = press(session, speaker, "right")
    assert press(session, speaker, "left") == first and press(session, speaker, "right") == second
    assert press(session, speaker, "end")[0].startswith("The end of the match: you won" if match.result
                                                         and match.result.side == 0 else "The end of the match: Bob")


@pytest.mark.parametrize("rules", [Rules(players=3, target=61), Rules(players=4, team_size=2, target=61)],
                         ids=["three", "teams"])
def test_a_match_watched_is_told_as_a_watcher_heard_it_with_no_review(rules: Rules) -> None:
    game = finished(rules, seed=11)
    seat = watcher_seat(rules)
    match = PastMatch.of(game, seat, 1795795200.0, "table 12 on example.org")
    session, speaker = replaying(match)
    assert speaker.said[-1].startswith("Hearing the match again: Ann") and " against Bob" in speaker.said[-1]
    narrator = Narrator(game.names, rules, seat)
    heard: list[str] = []
    for index, event in enumerate(game.view(seat).events):
        if index in match.pauses() and isinstance(event, Dealt):  # the scores, at the pause before a deal
            heard.append(narrator.standing())
        heard += narrator.tell(event)
    told: list[str] = []
    while session.replay_at < len(game.events):
        said = press(session, speaker, "enter")
        told += [line for line in said if not line.startswith(("Press Enter for the next", "The end of the"))]
    assert told == heard and not any(line.startswith("You") for line in told)
    assert press(session, speaker, "h") == ["You are watching, and hold no cards."]
    assert press(session, speaker, "g") == [
        "The coach goes over a match only for a player in it, and you watched this one."]
    press(session, speaker, "up")
    shown = " ".join(press(session, speaker, "a"))
    dealt = game.events[match.deal_starts()[-1]]
    assert isinstance(dealt, Dealt) and all(c.name in shown for hand in dealt.hands for c in hand)


def test_the_help_says_where_the_replay_stands_and_its_keys(match: PastMatch) -> None:
    session, speaker = replaying(match)
    press(session, speaker, "down")
    help_lines = press(session, speaker, "tab")
    assert help_lines[0].startswith("You are hearing the match of ") and " Deal one. " in help_lines[0]
    assert "Last told: Deal one: " in help_lines[0]
    assert "right arrow: The next event, told as you heard it." in help_lines
    assert "p: Write the match out as a text file to share, with every hand." in help_lines
    every = press(session, speaker, "?")
    assert every[0].startswith("Every key, ") and every[0].split("messages; ")[1].find("Hearing a match again") > 0
    assert press(session, speaker, "z") == ["The z key does nothing now. Press Tab for help."]


def test_escape_goes_back_to_the_screen_the_match_was_chosen_from(match: PastMatch) -> None:
    speaker = RecordingSpeaker()
    session = Session(Announcer(speaker, io.StringIO()))
    session.start()
    session.press("down")
    session.press("down")
    session._replay(match)
    assert press(session, speaker, "escape") == ["Main menu: Practice. 3 of 8."]
    assert session.mode is Mode.MAIN and session.replaying is None


def test_docs_keys_lists_the_replays_keys_in_the_words_of_the_spoken_help() -> None:
    from audiocrib.shell import keys

    text = (Path(__file__).parent.parent / "docs" / "keys.md").read_text()
    section = text[text.index("## Hearing a match again"):text.index("## At an online table")]
    for binding in (*keys._PAST_MATCHES, *keys._REPLAY):
        if binding.method == "_replay_question":
            assert binding.keys[0] in "c b f v s t h n l".split()
            continue
        row = f"| {keys.key_words(binding.keys)} | {binding.description} |"
        assert row in section, row
    assert "| c b f v s t h n l | The table's questions, answered for the moment the replay stands at. |" in section


def test_a_browsers_session_writes_no_transcript_on_the_servers_computer(match: PastMatch, tmp_path: Path) -> None:
    session, speaker = replaying(match)
    session.online_only = True
    session.transcript_folder = tmp_path
    assert press(session, speaker, "p") == [
        "A transcript is written only by audiocrib on your own computer, not in the browser."]
    assert not list(tmp_path.iterdir())


def test_a_long_review_is_announced_before_the_coach_weighs_it(match: PastMatch,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from audiocrib.shell import replaying as screen

    monkeypatch.setattr(screen, "_QUICK_REVIEW", 1)
    session, speaker = replaying(match)
    said = press(session, speaker, "g")
    assert said[0].startswith("The coach weighs your ") and said[0].endswith(" decisions in this match; a moment.")
    assert said[1].startswith("The coach's review of the match, ")
    assert press(session, speaker, "g")[0] == said[1]  # weighed once a replay


def test_a_muggins_call_that_wins_at_the_pause_is_heard_and_the_deal_it_voided_never_is() -> None:
    from audiocrib.engine.actions import CallMuggins, ClaimCount
    from audiocrib.engine.events import GameWon, MugginsCalled
    from tests.test_muggins import asked, to_the_show, true_count

    game = to_the_show(Rules(muggins=True), scores=(110, 0))
    game.apply(ClaimCount(1, true_count(asked(game)) - 2))  # Bob's hand counted short
    game.apply(ClaimCount(1, true_count(asked(game))))  # his crib right: the show is over, the next deal dealt
    voided = len(game.events) - 1
    assert isinstance(game.events[voided], Dealt) and voided in PastMatch.of(game, 0, 0.0, "here").pauses()
    game.apply(CallMuggins(0))  # at the pause, before the next deal: the call wins the game
    match = PastMatch.of(game, 0, 1795795200.0, "on this computer", ("", "medium"))
    hearing = match.hearing()
    assert voided not in hearing.order and hearing.order[-3:] == (voided + 1, voided + 2, voided + 3)
    assert isinstance(game.events[voided + 1], MugginsCalled) and isinstance(game.events[voided + 2], GameWon)
    session, speaker = replaying(match)
    while session.replay_at < len(hearing.order):
        press(session, speaker, "enter")
    said = " ".join(speaker.said)
    assert "Press Enter for the next deal. Muggins! You take two that Player 2 missed." in said
    assert "Deal two" not in said and "one hundred twenty-two" in press(session, speaker, "s")[0]


def every_key(session: Session, speaker: RecordingSpeaker) -> list[str]:
    """Question mark's messages, the first said and the rest stepped through with period."""
    first = press(session, speaker, "?")[0]
    count = first.split(" messages;")[0].removeprefix("Every key, ")
    pages = [first.split("comma back. ", 1)[1]]
    for _ in range(next(n for n in range(1, 30) if number_words(n) == count) - 1):
        pages += press(session, speaker, ".")
    return pages


@pytest.mark.parametrize("mode", [Mode.REPLAY, Mode.PAST_MATCHES], ids=["replay", "list"])
def test_every_key_in_the_replay_and_the_list_lists_only_the_keys_that_work_there(match: PastMatch,
                                                                                 mode: Mode) -> None:
    session, speaker = replaying(match)
    session.mode = mode
    pages = every_key(session, speaker)
    own = "Hearing a match again: " if mode is Mode.REPLAY else "In the list of past matches: "
    assert [page.split(": ")[0] for page in pages] == [own.split(": ")[0], "Everywhere"], pages
    said = " ".join(pages)
    for stranger in ("Advice", "The previous card in your hand", "The game menu", "In the menus", "lay away"):
        assert stranger not in said, stranger


def test_the_transcript_says_at_its_top_who_you_is_or_that_it_was_heard_as_a_watcher(match: PastMatch,
                                                                                      tmp_path: Path) -> None:
    game = finished(Rules(players=3, target=61), seed=11)
    watched = PastMatch.of(game, watcher_seat(game.rules), 1795795200.0, "table 12 on example.org")
    tops = []
    for past in (match, watched):
        session, speaker = replaying(past)
        session.transcript_folder = tmp_path / past.place
        press(session, speaker, "p")
        (written,) = (tmp_path / past.place).iterdir()
        tops.append(written.read_text().splitlines()[:4])
    assert tops[0][2] == 'Heard by Ann, who is "you" below.' and tops[0][3].startswith(("You won", "Bob won"))
    assert tops[1][2] == "Heard as a watcher: no one below is you."


@pytest.fixture(scope="module")
def games() -> PastMatch:
    return PastMatch.of(finished(Rules(target=61, match_games=2)), 0, 1795795200.0, "on this computer",
                        ("", "medium"))


def test_moving_by_deal_says_the_game_and_the_deal_once_and_short(games: PastMatch) -> None:
    session, speaker = replaying(games)
    heard = [press(session, speaker, "down") for _ in games.deal_starts()]
    for said in heard:
        before = " ".join(line for line in said if not line.startswith("Your hand: "))
        assert len(before.split()) <= 12, said
        assert len(re.findall(r"Game \w+", before)) <= 1 and len(re.findall(r"Deal \w+", before)) == 1, said
    assert heard[0][0] == "Game one: you deal first." and heard[0][1] == "Deal one: you deal."
    assert heard[1][0] == "Game one: you have eleven, Bob seven." and heard[1][1] == "Deal two: Bob deals."
    firsts = [said for said in heard if said[1].startswith("Deal one: ")]
    assert [said[0].split(":")[0] for said in firsts] == ["Game one", "Game two", "Game three"]
    assert all(said[0].endswith((" deal first.", " deals first.")) for said in firsts)


def test_the_replays_small_words_are_said_as_the_game_says_them(games: PastMatch) -> None:
    from datetime import datetime

    from audiocrib.telling.replaying import match_line

    session, speaker = replaying(games)
    session.wall_clock = lambda: games.ended + 3 * 86400
    assert "Game zero" not in press(session, speaker, "s")[0]
    assert press(session, speaker, "end")[0].startswith(
        "The end of the match: Bob won the match, two game points to one.")
    assert press(session, speaker, "down") == ["This is the end of the match; up arrow goes back to its last deal."]
    assert re.match(r"You are hearing the match of \w+day at \d\d:\d\d again, you against Bob \(medium\)\. ",
                    press(session, speaker, "tab")[0])
    line = match_line(games, datetime.fromtimestamp(games.ended), datetime.fromtimestamp(games.ended))
    assert line.endswith(": Bob won the match, two game points to one.") and not re.search(r"\d", line[14:])


def test_docs_say_truly_that_the_coachs_words_heard_after_a_deal_are_not_in_the_replay() -> None:
    text = (Path(__file__).parent.parent / "docs" / "keys.md").read_text()
    section = " ".join(text[text.index("## Hearing a match again"):text.index("## At an online table")].split())
    assert "exactly as you heard it" not in section
    assert "The coach's words after each deal in play are not in it" in section
