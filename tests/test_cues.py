"""The sound cues: one valid, distinct, reproducible WAV file per cue, and a cue choice for every event."""

from __future__ import annotations

import importlib.util
import wave
from pathlib import Path

import pytest

from audiocrib.bots.beginner import Beginner
from audiocrib.bots.player import drive
from audiocrib.engine.cards import parse_cards
from audiocrib.engine.events import EVENT_TYPES, GameWon, HisHeels, MugginsCalled, Played, PointsGiven
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules, Variant
from audiocrib.engine.scoring import score_play
from audiocrib.telling.cues import CUES, cues_for

SOUNDS = Path(__file__).resolve().parent.parent / "sounds"


def wav_path(name: str) -> Path:
    return SOUNDS / f"{name.replace(' ', '-')}.wav"


@pytest.mark.parametrize("name", CUES)
def test_every_cue_is_a_short_valid_quiet_enough_wav(name: str) -> None:
    with wave.open(str(wav_path(name))) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 22_050)
        seconds = wav.getnframes() / wav.getframerate()
        frames = wav.readframes(wav.getnframes())
    assert 0.015 <= seconds <= 0.7
    peak = max(abs(int.from_bytes(frames[i:i + 2], "little", signed=True)) for i in range(0, len(frames), 2))
    assert 0.2 * 32767 < peak <= 0.55 * 32767  # audible, and not louder than the speech after it


def test_the_cues_differ_and_nothing_else_is_in_the_folder() -> None:
    files = {p.name for p in SOUNDS.glob("*.wav")}
    assert files == {wav_path(name).name for name in CUES}
    contents = [wav_path(name).read_bytes() for name in CUES]
    assert len(set(contents)) == len(contents)


def test_the_script_makes_the_same_files_again(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_sounds", SOUNDS / "make_sounds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(module.DESIGNS) == set(CUES)
    module.main(tmp_path)
    for name in CUES:
        assert (tmp_path / wav_path(name).name).read_bytes() == wav_path(name).read_bytes(), name


def test_every_event_of_real_games_gets_known_cues() -> None:
    seen: set[str] = set()
    for rules in (Rules(), Rules(players=4, team_size=2), Rules(muggins=True, wrong_muggins=1),
                  Rules(manual_counting=True, count_timer=30), Rules(variant=Variant.FIVE_CARD)):
        game = Game(rules, seed=3, manual_seats=[])
        drive(game, [Beginner(seed=seat, count_mistakes=0.3) for seat in range(rules.players)])
        for event in game.events:
            cues = cues_for(event, 0, rules)
            assert set(cues) <= set(CUES), event
            seen.add(event.kind)
    # Bots never call muggins, count by hand or claim their points in the play, and a jack starter is luck: those
    # have their own checks (the claims in tests/test_manual_pegging.py).
    assert seen >= set(EVENT_TYPES) - {"muggins", "points given", "his heels", "play claimed"}


def test_the_cues_of_a_card_laid_follow_what_it_scores() -> None:
    def played(series: str) -> tuple[str, ...]:
        cards = parse_cards(series)
        return cues_for(Played(0, cards[-1], sum(c.value for c in cards), score_play(cards)), 1)

    assert played("7C") == ("card",)
    assert played("TH 5S") == ("card", "fifteen")
    assert played("TH TS") == ("card", "pair")
    assert played("4H 6D 5S") == ("card", "fifteen", "run")
    assert played("TH JS QD AC") == ("card", "thirty-one")
    won = GameWon(1, 0, (121, 80), 2, "skunk", (2, 0))
    assert cues_for(won, 0) == ("game won", "skunk") and cues_for(won, 1) == ("game lost", "skunk")
    assert cues_for(won, 2, Rules(players=4, team_size=2)) == ("game won", "skunk")  # seat 2 is on side 0
    assert cues_for(HisHeels(1), 0) == ("his heels",)
    assert cues_for(MugginsCalled(0, 1, False, 2), 1) == ("muggins",)
    assert cues_for(PointsGiven(1, 0, 2, "missed"), 0) == ("points",)


def test_docs_sound_lists_every_cue_as_the_code_describes_it() -> None:
    text = (SOUNDS.parent / "docs" / "sound.md").read_text()
    for name, description in CUES.items():
        assert f"| {name} | {description} |" in text
