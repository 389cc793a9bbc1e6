"""Manual pegging (rules.md: "pegging stays automatic unless a separate 'manual pegging' option is on"): the people
at the table claim the points of each card they lay, and what they miss goes to the opponents as in the show.

The engine first: every settlement, at two players, in teams and at three; a give-away that wins; the save; what
the views show. The narration, the shell and practice follow in their own sections.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from audiocrib.engine.actions import ClaimCount, CountTimeout, Go, Play
from audiocrib.engine.cards import Card
from audiocrib.engine.errors import IllegalActionError
from audiocrib.engine.events import GameWon, HandShown, LastCard, PlayClaimed, Played, PointsGiven
from audiocrib.engine.game import MAX_PLAY_SCORE, Game, Phase
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import Score, ScoreKind, score_play
from audiocrib.progress.practice import PlayDrill, PracticeRecord, judge_count, play_drill
from audiocrib.shell.savedgame import SEAT
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.shell.typing import NOTHING_CLAIMED
from audiocrib.telling import answers
from audiocrib.telling.cues import cues_for
from audiocrib.telling.narrator import Narrator, Verbosity, play_aloud
from tests.helpers import TABLES, plays, stacked, start_play
from tests.invariants import check_game, check_view, peg_points
from tests.shell_driver import Table, lay_away_first, run

PEGGING = Rules(manual_pegging=True)
HANDS = ["5H 5D 9C TC KS QS", "5S 6D 4C TH AS 2S"]
"""Seat 0 keeps 5H 5D 9C TC, seat 1 keeps 5S 6D 4C TH; seat 1 deals, so seat 0 leads."""


def table(rules: Rules = PEGGING, scores: tuple[int, ...] = (), manual: tuple[int, ...] = (0,)) -> Game:
    """Two players at the first card of the play, seat 0 a person who pegs by hand."""
    game = stacked(HANDS, dealer=1, rules=rules, manual_seats=manual, scores=scores)
    return start_play(game, ["KS QS", "AS 2S"], "3H")


def to_the_pair_royal(rules: Rules = PEGGING, scores: tuple[int, ...] = ()) -> Game:
    """Seat 0 leads 5H (claims nothing), seat 1 pairs it with 5S, seat 0 lays 5D: fifteen and a pair royal, 8."""
    game = table(rules, scores)
    plays(game, "0:5H")
    game.apply(ClaimCount(0, 0))
    plays(game, "1:5S 0:5D")
    return game


class TestTheClaim:
    def test_a_person_s_card_waits_for_their_claim_and_shows_no_points_until_then(self) -> None:
        game = table()
        events = game.apply(Play(0, Card.parse("5H")))
        played = events[-1]
        assert isinstance(played, Played) and played.to_claim and played.score == Score() and played.points == 0
        assert game.phase is Phase.PEG_CLAIM and game.claiming == 0 and game.waiting_for() == {0}
        assert game.turn is None and game.playable(0) == () and game.playable(1) == ()
        view = game.view(1)
        assert view.claiming == 0 and view.turn is None

    def test_the_computer_players_peg_by_themselves(self) -> None:
        game = table()
        plays(game, "0:5H")
        game.apply(ClaimCount(0, 0))
        events = game.apply(Play(1, Card.parse("5S")))
        played = events[0]
        assert isinstance(played, Played) and not played.to_claim and played.points == 2
        assert game.phase is Phase.PLAY and game.turn == 0

    def test_without_the_option_the_play_is_scored_by_the_game(self) -> None:
        game = table(Rules(manual_counting=True))
        plays(game, "0:5H 1:5S 0:5D")
        last = game.events[-1]
        assert isinstance(last, Played) and not last.to_claim and last.points == 8 and game.phase is Phase.PLAY


class TestSettlement:
    """One rule with the show: short pegs the claim and gives the rest; over pegs the truth and gives the excess
    (with the penalty on)."""

    def settle(self, claim: int, rules: Rules = PEGGING) -> tuple[tuple[int, ...], tuple[object, ...]]:
        game = to_the_pair_royal(rules)
        before = game.scores
        events = game.apply(ClaimCount(0, claim))
        gained = tuple(after - then for after, then in zip(game.scores, before, strict=True))
        return gained, events

    def test_a_right_claim_pegs_it_and_gives_nothing(self) -> None:
        gained, events = self.settle(8)
        claimed = events[0]
        assert isinstance(claimed, PlayClaimed)
        assert (claimed.seat, str(claimed.card), claimed.count, claimed.claimed, claimed.pegged) == (0, "5D", 15, 8, 8)
        assert claimed.score == score_play([Card.parse(c) for c in ("5H", "5S", "5D")])
        assert not any(isinstance(e, PointsGiven) for e in events)
        assert gained == (8, 0)

    def test_an_under_claim_pegs_the_claim_and_gives_the_missed_points_to_the_opponent(self) -> None:
        gained, events = self.settle(6)
        claimed, given = events[0], events[1]
        assert isinstance(claimed, PlayClaimed) and claimed.pegged == 6
        assert given == PointsGiven(1, 0, 2, "missed")
        assert gained == (6, 2)

    def test_an_over_claim_pegs_the_truth_and_gives_the_excess(self) -> None:
        gained, events = self.settle(11)
        assert isinstance(events[0], PlayClaimed) and events[0].pegged == 8 and events[0].claimed == 11
        assert events[1] == PointsGiven(1, 0, 3, "over-counted")
        assert gained == (8, 3)

    def test_an_over_claim_without_the_penalty_pegs_the_truth_only(self) -> None:
        gained, events = self.settle(11, Rules(manual_pegging=True, overcount_penalty=False))
        assert isinstance(events[0], PlayClaimed) and events[0].pegged == 8
        assert not any(isinstance(e, PointsGiven) for e in events)
        assert gained == (8, 0)

    def test_zero_must_be_claimed_too_and_a_card_that_made_nothing_claimed_as_something_is_over(self) -> None:
        game = table()
        plays(game, "0:5H")
        events = game.apply(ClaimCount(0, 2))
        assert isinstance(events[0], PlayClaimed) and events[0].pegged == 0
        assert events[1] == PointsGiven(1, 0, 2, "over-counted")

    def test_in_teams_the_missed_points_go_to_the_other_team(self) -> None:
        rules = Rules(players=4, team_size=2, manual_pegging=True)
        hands = ["5H 5D 9C TC KS", "5S 6D 4C TH AS", "7H 8H 8C 2D QS", "AC 3C 9D JD 4S"]
        game = stacked(hands, dealer=3, rules=rules, manual_seats=[0, 2])
        game = start_play(game, ["KS", "AS", "QS", "4S"], "3H")
        plays(game, "0:5H")
        game.apply(ClaimCount(0, 0))
        plays(game, "1:5S 2:7H")  # 17: nothing
        events = game.apply(ClaimCount(2, 1))  # over by one: to seat 3, the next opponent and the other team
        assert events[1] == PointsGiven(3, 2, 1, "over-counted") and rules.side_of(3) != rules.side_of(2)
        plays(game, "3:AC 0:5D")  # 5 5 7 A 5: 23, nothing
        plays_left = game.apply(ClaimCount(0, 0))
        assert not any(isinstance(e, PointsGiven) for e in plays_left)

    def test_at_three_players_the_next_opponent_clockwise_receives(self) -> None:
        rules = Rules(players=3, manual_pegging=True)
        hands = ["7H 8H 8C 2D QS", "AC 3C 9D TD 4S", "KD 5D JC 6D 6C"]
        game = stacked(hands, dealer=2, rules=rules, manual_seats=[0, 1], crib="9S")
        game = start_play(game, ["QS", "4S", "6C"], "5S")
        plays(game, "0:7H")
        assert game.apply(ClaimCount(0, 0))[1:] == ()
        plays(game, "1:3C")  # 10: nothing
        game.apply(ClaimCount(1, 0))
        plays(game, "2:5D")  # fifteen two, pegged by the computer
        plays(game, "0:8H")  # 23: nothing
        game.apply(ClaimCount(0, 0))
        plays(game, "1:AC")  # 24: nothing
        events = game.apply(ClaimCount(1, 4))
        assert events[1] == PointsGiven(2, 1, 4, "over-counted")  # seat 1's next opponent clockwise is seat 2

    def test_points_given_can_win_the_game_at_once(self) -> None:
        game = to_the_pair_royal(scores=(0, 117))  # the pair of fives takes seat 1 to 119
        events = game.apply(ClaimCount(0, 6))
        assert [e.kind for e in events[:3]] == ["play claimed", "points given", "game won"]
        won = events[2]
        assert isinstance(won, GameWon) and won.side == 1 and won.scores[1] == 121

    def test_the_claim_that_wins_stops_the_penalty(self) -> None:
        game = to_the_pair_royal(scores=(115, 0))
        events = game.apply(ClaimCount(0, 11))
        assert [e.kind for e in events[:2]] == ["play claimed", "game won"]
        assert not any(isinstance(e, PointsGiven) for e in events)


class TestWhatStaysAutomatic:
    def test_go_and_the_last_card_are_pegged_by_the_game_after_the_claim(self) -> None:
        game = table()
        plays(game, "0:TC")
        game.apply(ClaimCount(0, 0))
        plays(game, "1:TH")  # 20, a pair to seat 1
        plays(game, "0:9C")  # 29
        events = game.apply(ClaimCount(0, 0))
        # seat 1 holds 5S 6D 4C: none fits under 31, so seat 1 says go; seat 0 holds 5H 5D, neither fits: one for last
        kinds = [e.kind for e in events]
        assert kinds[:4] == ["play claimed", "said go", "last card", "series ended"]
        last = events[2]
        assert isinstance(last, LastCard) and last.seat == 0 and last.points == 1

    def test_thirty_one_is_the_card_s_own_points_and_is_claimed(self) -> None:
        game = table()
        plays(game, "0:TC")
        game.apply(ClaimCount(0, 0))
        plays(game, "1:5S 0:5H")  # fifteen two to seat 1, then a pair at twenty
        game.apply(ClaimCount(0, 2))
        plays(game, "1:6D 0:5D")  # 26, then 31
        events = game.apply(ClaimCount(0, 2))
        claimed = events[0]
        assert isinstance(claimed, PlayClaimed) and claimed.count == 31 and claimed.pegged == 2
        assert [item.kind.value for item in claimed.score.items] == ["thirty-one"]
        assert [e.kind for e in events[1:]] == ["series ended"] and game.turn == 1  # no last card at 31

    def test_the_show_stays_automatic_without_manual_counting(self) -> None:
        game = table()
        rng = random.Random(3)
        while game.phase in (Phase.PLAY, Phase.PEG_CLAIM):
            game.apply(_any_move(game, rng))
        shown = [e for e in game.events if isinstance(e, HandShown)]
        assert shown and all(e.claimed is None for e in shown)


class TestRefusals:
    def test_every_wrong_move_at_a_claim_gets_one_sentence_and_changes_nothing(self) -> None:
        game = table()
        plays(game, "0:5H")
        before = game.state_key()
        refusals = [
            (Play(0, Card.parse("5D")), "First claim the points your card made: type them and press Enter."),
            (Play(1, Card.parse("5S")), "Wait for Player 1 to claim the points of their card."),
            (Go(1), "Wait for Player 1 to claim the points of their card."),
            (ClaimCount(0, MAX_PLAY_SCORE + 1), "A card in the play makes from zero to fourteen points."),
            (ClaimCount(0, -1), "A card in the play makes from zero to fourteen points."),
            (ClaimCount(0, True), "That is not a whole number."),  # refused by the form check first
            (CountTimeout(0), "The counting timer is for the show; the points of a card in the play are not timed."),
            (ClaimCount(1, 0), "Nobody is waiting for you to count a hand."),
        ]
        for action, sentence in refusals:
            with pytest.raises(IllegalActionError, match=re.escape(sentence)):
                game.apply(action)
            assert game.state_key() == before

    def test_a_claim_in_the_play_with_nothing_to_claim_is_refused(self) -> None:
        game = table()
        with pytest.raises(IllegalActionError, match=re.escape("Nobody is waiting for you to count a hand.")):
            game.apply(ClaimCount(0, 0))

    def test_the_most_a_card_can_make_is_fourteen(self) -> None:
        double_royal_fifteen = [Card.parse(c) for c in ("6H", "5S", "AH", "AD", "AS", "AC")]
        assert score_play(double_royal_fifteen).total == peg_points(double_royal_fifteen) == MAX_PLAY_SCORE


class TestKeeping:
    def test_a_game_saved_at_a_claim_loads_and_replays_to_the_same_state(self) -> None:
        game = Game(PEGGING, seed=5, manual_seats=[0])  # a dealt game: a stacked deal cannot be dealt again
        rng = random.Random(5)
        while game.phase is not Phase.PEG_CLAIM:
            game.apply(_any_move(game, rng))
        again = Game.loads(game.dumps())
        assert again.state_key() == game.state_key() and again.claiming == 0
        game.apply(ClaimCount(0, 1))
        again.apply(ClaimCount(0, 1))
        assert again.state_key() == game.state_key() == Game.loads(game.dumps()).state_key()
        assert game.replayed().state_key() == game.state_key()

    def test_a_save_from_before_manual_pegging_still_loads(self) -> None:
        game = Game(Rules(manual_counting=True), seed=5, manual_seats=[0])
        rng = random.Random(5)
        while game.deal_number < 2:
            game.apply(_any_move(game, rng))
        data = json.loads(game.dumps())
        del data["rules"]["manual_pegging"]
        for event in data["events"]:
            event.pop("to_claim", None)
        loaded = Game.from_json(data)
        assert loaded.state_key() == game.state_key() and not loaded.rules.manual_pegging

    def test_the_flag_is_checked_like_the_others(self) -> None:
        from audiocrib.engine.errors import RulesError

        with pytest.raises(RulesError, match=re.escape("The setting manual pegging must be true or false.")):
            Rules(manual_pegging="yes")  # type: ignore[arg-type]
        assert Rules.from_json(Rules(manual_pegging=True).to_json()).manual_pegging


class TestWholeGames:
    """Random games at every table shape with a person or two pegging by hand, judged by tests/invariants.py."""

    @pytest.mark.parametrize("index", range(len(TABLES)))
    def test_every_table_shape(self, index: int) -> None:
        base = TABLES[index]
        rng = random.Random(index)
        manual = tuple(s for s in range(base.players) if rng.random() < 0.5) or (0,)
        rules = dataclasses.replace(base, manual_pegging=True, target=61, overcount_penalty=index % 2 == 0,
                                    manual_counting=index % 3 == 0, muggins=index % 4 == 1)
        game = Game(rules, seed=index, manual_seats=manual)
        claims = 0
        while not game.over:
            if game.phase is Phase.PEG_CLAIM:
                claims += 1
            game.apply(_any_move(game, rng))
            if claims % 7 == 3 and game.phase is Phase.PEG_CLAIM:
                for seat in range(rules.players):
                    check_view(game, seat)
        assert claims
        check_game(game)


def _any_move(game: Game, rng: random.Random) -> ClaimCount | Play | Go:
    """A random legal move: a card, a go, or a claim (right, short or over) for a card or a hand."""
    seat = min(game.waiting_for())
    view = game.view(seat)
    if game.phase is Phase.PEG_CLAIM:
        true = score_play([card for _, card in view.series]).total
        return ClaimCount(seat, max(0, min(MAX_PLAY_SCORE, true + rng.choice((0, 0, 0, -1, -2, 1, 3)))))
    if game.phase is Phase.COUNT:
        from audiocrib.bots.base import hand_being_counted
        from audiocrib.engine.scoring import score_hand

        cards, starter, crib = hand_being_counted(view)
        return ClaimCount(seat, max(0, score_hand(cards, starter, crib).total + rng.choice((0, 0, -2, 1))))
    if game.phase is Phase.DISCARD:
        from audiocrib.engine.actions import Discard

        return Discard(seat, tuple(rng.sample(view.hand, view.must_discard)))  # type: ignore[return-value]
    if not view.playable:
        return Go(seat)
    return Play(seat, rng.choice(view.playable))


# ------------------------------------------------------------------ the narration
class TestNarration:
    """In the voice of a manual count: what was said, what the card made the cribbage way, what was given."""

    def tell(self, claim: int, verbosity: Verbosity = Verbosity.NORMAL) -> list[str]:
        game = to_the_pair_royal()
        game.apply(ClaimCount(0, claim))
        narrator = Narrator(("Ann", "Bob"), PEGGING, seat=0, verbosity=verbosity)
        lines = narrator.tell_all(game.view(0).events)
        start = max(i for i, line in enumerate(lines) if "five of diamonds" in line)
        return lines[start:]

    def test_the_card_asks_for_its_points_and_says_none_yet(self) -> None:
        assert self.tell(8)[0] == "You play the five of diamonds for fifteen; type its points and press Enter."
        assert self.tell(8, Verbosity.BRIEF)[0] == "You: five of diamonds, fifteen. Your points?"

    def test_a_right_claim(self) -> None:
        assert self.tell(8)[1] == "You said eight, which is right: fifteen two, and a pair royal is eight."
        assert self.tell(8, Verbosity.BRIEF)[1] == "You said eight, which is right."

    def test_an_under_claim_says_what_the_card_made_and_who_pegs_the_rest(self) -> None:
        assert self.tell(6)[1:3] == ["You said six. The card made eight: fifteen two, and a pair royal is eight.",
                                     "You missed two; Bob pegs them."]
        assert self.tell(6, Verbosity.BRIEF)[1:3] == ["You said six. The card made eight.",
                                                      "You missed two; Bob pegs them."]

    def test_an_over_claim(self) -> None:
        assert self.tell(11)[1:3] == ["You said eleven. The card made eight: fifteen two, and a pair royal is "
                                      "eight.", "You claimed three too many; Bob pegs them."]

    def test_an_over_claim_in_the_play_is_a_claim_and_one_in_the_show_an_over_count(self) -> None:
        rules = Rules(manual_pegging=True, manual_counting=True)
        game = to_the_pair_royal(rules)
        game.apply(ClaimCount(0, 11))  # three too many for the card
        counted = False
        for _ in range(100):
            if game.phase is Phase.PEG_CLAIM:
                game.apply(ClaimCount(0, score_play([card for _, card in game.view(0).series]).total))
            elif game.phase is Phase.PLAY:
                seat = min(game.waiting_for())
                view = game.view(seat)
                game.apply(Play(seat, min(view.playable)) if view.playable else Go(seat))
            elif game.phase is Phase.COUNT and not counted:
                asked = game.view(0).events[-1]
                assert asked.kind == "count requested"
                game.apply(ClaimCount(0, 29))  # the most a hand can make: more than this one makes
                counted = True
            else:
                break
        assert counted
        lines = Narrator(("Ann", "Bob"), rules, seat=0).tell_all(game.view(0).events)
        given = [line for line in lines if "; Bob pegs" in line]
        assert given[0] == "You claimed three too many; Bob pegs them."
        assert given[1].startswith("You over-counted by ") and given[1].endswith("; Bob pegs them.")

    def test_the_full_verbosity_gives_the_scores_after_each(self) -> None:
        lines = self.tell(6, Verbosity.FULL)
        assert lines[1:5] == ["You said six. The card made eight: fifteen two, and a pair royal is eight.",
                              "You have six.", "You missed two; Bob pegs them.", "Bob has four; you have six."]

    def test_a_card_that_made_nothing(self) -> None:
        narrator = Narrator(("Ann", "Bob"), PEGGING, seat=1)
        game = table()
        plays(game, "0:5H")
        game.apply(ClaimCount(0, 2))
        lines = narrator.tell_all(game.view(1).events)
        assert lines[-3:] == ["Ann plays the five of hearts for five.", "Ann said two. The card made nothing.",
                              "Ann claimed two too many; you peg them."]

    def test_the_answers_while_a_claim_is_awaited_and_after(self) -> None:
        game = to_the_pair_royal()
        view = game.view(0)
        assert answers.prompt(view) == "Claim the points of your five of diamonds for fifteen: type them, then Enter."
        assert answers.turn(view) == "Your turn to claim the points of your five of diamonds."
        assert answers.turn(game.view(1)) == "Waiting for Player 1 to claim the points of Player 1's five of diamonds."
        assert answers.prompt(game.view(1)) == "Waiting for Player 1 to claim their points."
        assert answers.count(view) == "The count is fifteen."
        assert answers.table(view).startswith("On the table: your five of hearts, then Player 2's five of spades")
        assert answers.last_play(view) == ("You played the five of diamonds for fifteen; your claim of its points is "
                                           "awaited.")
        assert "You have played" in answers.hand(view)
        game.apply(ClaimCount(0, 6))
        assert answers.last_play(game.view(0)) == (
            "You played the five of diamonds for fifteen: two for fifteen and six for a pair royal of fives; eight "
            "points in all. You said six.")

    def test_the_cues_wait_for_the_claim(self) -> None:
        game = to_the_pair_royal()
        played = game.events[-1]
        assert cues_for(played, 0) == ("card", "count") and cues_for(played, 1) == ("card",)
        claimed = game.apply(ClaimCount(0, 8))[0]
        assert cues_for(claimed, 0) == ("fifteen", "pair")


# ------------------------------------------------------------------ the shell
def test_a_whole_game_through_the_keys_at_a_manual_pegging_table() -> None:
    setup = TableSetup(manual_pegging=True, target=61, levels=("beginner",))
    assert setup.describe().startswith("six-card cribbage, 2 players, to 61. You call your own points in the play.")
    seen: dict[str, list[str]] = {}

    async def script(table: Table) -> None:
        await table.press("enter")
        claims = 0
        for _ in range(3000):
            moment = table.session.moment
            if moment == "over":
                return
            if moment == "discard":
                await lay_away_first(table)
            elif moment == "play":
                said = await table.press(*_position_of_lowest(table), "enter")
                if table.session.moment == "peg":
                    assert said[-1].startswith("You play the ") and said[-1].endswith(
                        "; type its points and press Enter.")
            elif moment == "peg":
                view = table.session.view()
                true = score_play([card for _, card in view.series]).total
                claims += 1
                if claims == 1:
                    assert await table.answer("enter") == NOTHING_CLAIMED  # nothing typed is not zero
                    assert (await table.press("f1"))[0] == answers.prompt(view)
                    assert table.session.moment == "peg"
                claim = true  # one short claim and one over, the rest right
                if true and "short" not in seen:
                    claim = true - 1
                elif not true and "over" not in seen:
                    claim = 1
                said = await table.press(*str(claim), "enter")
                key = "right" if claim == true else "short" if claim < true else "over"
                seen.setdefault(key, said)
            elif moment in ("review", "waiting"):
                await table.press("enter")
            else:
                raise AssertionError(f"unexpected moment {moment}")
        raise AssertionError("the match did not end")

    result = run(script, setup=setup, seed=7)
    game = getattr(result.session.table, "game", None)
    assert game is not None and game.over
    claimed = [e for e in game.events if isinstance(e, PlayClaimed)]
    assert claimed and all(e.seat == SEAT for e in claimed)
    assert not any(isinstance(e, Played) and e.to_claim for e in game.events if e.scorer != SEAT)
    assert any(line.startswith("You said") and "which is right" in line for line in seen["right"])
    assert any(line.startswith("You missed one; Bob pegs it.") for line in seen["short"])
    assert any(line.startswith("You claimed one too many; Bob pegs it.") for line in seen["over"])
    assert not any("over-counted" in line for line in seen["over"])  # a count is the show's word
    check_game(game)


def test_a_game_saved_at_a_claim_resumes_with_its_prompt(tmp_path: Path) -> None:
    save = tmp_path / "saved-game.json"
    setup = TableSetup(manual_pegging=True, target=61, levels=("beginner",))

    async def first(table: Table) -> None:
        await table.press("enter")
        for _ in range(200):
            moment = table.session.moment
            if moment == "peg":
                return
            if moment == "discard":
                await lay_away_first(table)
            elif moment == "play":
                await table.press(*_position_of_lowest(table), "enter")
            else:
                await table.press("enter")
        raise AssertionError("no claim was asked")  # pragma: no cover

    run(first, setup=setup, seed=7, save_path=save)
    assert json.loads(save.read_text())["moment"] == "peg"

    async def second(table: Table) -> None:
        said = await table.press("enter")
        assert said[0] == "Resuming the unfinished game."
        assert said[-1] == answers.prompt(table.session.view())
        assert said[-1].startswith("Claim the points of your ")
        assert table.session.moment == "peg"

    run(second, save_path=save)


def _position_of_lowest(table: Table) -> tuple[str, ...]:
    view = table.session.view()
    hand = sorted(view.hand)
    return (str(hand.index(min(view.playable)) + 1),)


def test_the_table_setup_offers_manual_pegging_and_keeps_it() -> None:
    setup = TableSetup()
    assert "manual_pegging" in setup.menu_settings()
    assert (setup.label("manual_pegging"), setup.value_text("manual_pegging")) == (
        "Call your own points in the play", "off")
    on, note = setup.step("manual_pegging", 1)
    assert on.manual_pegging and on.rules().manual_pegging and note == ""
    assert TableSetup.from_json(on.to_json()) == on
    old = on.to_json()
    del old["manual_pegging"]  # a table kept before the setting existed
    assert TableSetup.from_json(old) == TableSetup()
    with pytest.raises(ValueError, match="wrong kind of value"):
        TableSetup.from_json({**on.to_json(), "manual_pegging": "on"})


# ------------------------------------------------------------------ practice
def test_play_drills_are_series_within_thirty_one_that_mostly_make_something() -> None:
    rng = random.Random(8)
    drills = [play_drill(rng) for _ in range(300)]
    for drill in drills:
        assert 2 <= len(drill.series) <= 6 and len(set(drill.series)) == len(drill.series)
        assert drill.count == sum(card.value for card in drill.series) <= 31
        assert drill.score == score_play(drill.series)
    scoring = sum(1 for drill in drills if drill.score.total)
    assert 150 <= scoring <= 270
    kinds = {item.kind for drill in drills for item in drill.score.items}
    assert kinds >= {ScoreKind.FIFTEEN, ScoreKind.THIRTY_ONE, ScoreKind.PAIR, ScoreKind.PAIR_ROYAL, ScoreKind.RUN}


def test_a_play_drill_is_judged_like_a_count() -> None:
    drill = PlayDrill(tuple(Card.parse(c) for c in ("5H", "5S", "5D")))
    assert judge_count(drill, 8).right
    short = judge_count(drill, 2)
    assert not short.right and [item.kind for item in short.missed] == [ScoreKind.PAIR_ROYAL]
    record = PracticeRecord()
    record.add_count(short, 3.0)
    assert record.missed == {"pairs royal": 1} and record.mistakes == [short]


def test_a_play_drill_session_in_the_shell() -> None:
    async def script(table: Table) -> None:
        await table.press("down", "down", "enter")  # practice
        assert await table.answer("left") == "Count drills: a card in the play."
        said = await table.press("down", "down", "enter")  # start counting
        drill = table.session.drills.drill
        assert isinstance(drill, PlayDrill)
        laid = ", then ".join(card.name for card in drill.series)
        assert said[-1] == (f"Count this play: {laid}, for {number_words(drill.count)}. Type the points of the last "
                            "card and press Enter.")
        assert await table.answer("f") == "A card in the play is counted without the starter."
        assert await table.answer("h") == f"The play: {laid}, for {number_words(drill.count)}."
        total = drill.score.total
        said = await table.press(*str(total), "enter")
        assert said[-1].startswith(f"Right: {play_aloud(drill.score)}.")
        await table.press("enter")
        drill = table.session.drills.drill
        assert isinstance(drill, PlayDrill)
        said = await table.press(*str(drill.score.total + 2), "enter")
        assert said[-1].startswith(f"You said {number_words(drill.score.total + 2)}. It is "
                                   f"{number_words(drill.score.total)}: {play_aloud(drill.score)}. That is two too "
                                   "many.")
        said = await table.press("escape")
        assert said[0].startswith("This session: two counts, one right (50 percent)")
        said = await table.press("end", "up", "enter")  # go over the mistakes
        assert said[-1].startswith("One to go over; comma and period step through them. Mistake 1: play: ")

    run(script, seed=4)
