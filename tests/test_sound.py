"""Playing the cues: the mixer's arithmetic, and the real player on miniaudio's null backend (no sound card)."""

from __future__ import annotations

import shutil
import time
from array import array
from pathlib import Path

import miniaudio
import pytest

from audiocrib.sound.player import SOUNDS, CuePlayer, Mixer, SilentPlayer, SoundUnavailable, load_cues, open_player
from audiocrib.telling.cues import CUES


def test_the_mixer_sums_cues_at_their_volume_clips_and_mutes() -> None:
    mixer = Mixer({"a": array("h", [10_000, 10_000]), "b": array("h", [30_000, -5_000, 7])}, volume=1.0)
    mixer.start("a")
    mixer.start("b")
    assert mixer.playing == 2
    assert list(mixer.frames(2)) == [32767, 5_000]  # summed, and clipped to 16 bits
    assert mixer.playing == 1
    assert list(mixer.frames(3)) == [7, 0, 0]
    assert mixer.playing == 0
    mixer.volume = 0.5
    mixer.start("a")
    assert list(mixer.frames(2)) == [5_000, 5_000]
    mixer.muted = True
    mixer.start("a")
    assert mixer.playing == 0 and list(mixer.frames(2)) == [0, 0]
    with pytest.raises(ValueError, match="no sound cue called 'nope'"):
        mixer.start("nope")


def test_every_cue_loads() -> None:
    cues = load_cues()
    assert set(cues) == set(CUES) and all(len(samples) > 100 for samples in cues.values())


def test_the_player_plays_cues_through_a_real_device_on_the_null_backend() -> None:
    player = CuePlayer(backends=[miniaudio.Backend.NULL])
    try:
        player.play(["fifteen", "card"])  # two at once
        assert player.mixer.started == 2
        deadline = time.monotonic() + 5
        while player.mixer.playing:  # the device pulls the frames in real time
            assert time.monotonic() < deadline, "the device never played the cues"
            time.sleep(0.01)
        player.set_volume(0.3)
        assert player.mixer.volume == 0.3
        player.muted = True
        player.play(["go"])
        assert player.mixer.started == 2  # muted: not started
        with pytest.raises(ValueError, match="from 0 to 1"):
            player.set_volume(2.0)
    finally:
        player.close()


def test_no_device_or_missing_sounds_mean_a_silent_game_and_one_sentence(tmp_path: Path) -> None:
    silent, notice = open_player(tmp_path, backends=[miniaudio.Backend.NULL])
    assert isinstance(silent, SilentPlayer)
    assert notice == "The sound your-turn.wav is missing or damaged; the game goes on without sounds."
    for name in CUES:
        shutil.copy(SOUNDS / f"{name.replace(' ', '-')}.wav", tmp_path)
    (tmp_path / "go.wav").write_bytes(b"not a wave file")
    with pytest.raises(SoundUnavailable, match=r"go\.wav is missing or damaged"):
        load_cues(tmp_path)
    silent, notice = open_player(SOUNDS, backends=[miniaudio.Backend.JACK])  # no JACK server here
    assert isinstance(silent, SilentPlayer)
    assert notice == "No sound device could be opened; the game goes on without sounds."
    silent.play(["go"])  # and playing on it is harmless


def test_a_device_that_goes_away_mid_game_leaves_the_game_in_words_with_one_sentence() -> None:
    from audiocrib.shell.tablesetup import TableSetup
    from tests.autoplay import keys_for
    from tests.shell_driver import Table, run

    player = CuePlayer(backends=[miniaudio.Backend.NULL], stall=0.2)

    async def script(table: Table) -> None:
        import asyncio

        await table.press("enter")
        for _ in range(10):
            game = getattr(table.session.table, "game", None)
            assert game is not None
            await table.press(*keys_for(table.session.moment, game))
        assert player.mixer.started > 0 and table.session.player is player
        player._device.stop()  # the device goes away: it stops asking for sound, and says nothing
        await asyncio.sleep(0.3)
        for _ in range(3000):
            game = getattr(table.session.table, "game", None)
            assert game is not None
            if table.session.moment == "over":
                break
            await table.press(*keys_for(table.session.moment, game))
        notice = "The sound device stopped working; the game goes on without sounds."
        assert table.said.count(notice) == 1
        assert isinstance(table.session.player, SilentPlayer)

    try:
        table = run(script, setup=TableSetup(target=61, levels=("easy",)), player=player)
    finally:
        player.close()
    assert table.session.table is not None and table.session.table.game.over  # the game was finished


@pytest.mark.parametrize("damage", ["empty", "cut off mid-sample", "cut off in the header", "garbage", "a folder",
                                    "no permission"])
def test_a_damaged_sound_file_means_a_silent_game_and_one_sentence(damage: str, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    for name in CUES:
        shutil.copy(SOUNDS / f"{name.replace(' ', '-')}.wav", tmp_path)
    path = tmp_path / "pair.wav"
    good = path.read_bytes()
    if damage == "a folder":
        path.unlink()
        path.mkdir()
    elif damage == "no permission":
        path.chmod(0)
    else:
        path.write_bytes({"empty": b"", "cut off mid-sample": good[:1001], "cut off in the header": good[:30],
                          "garbage": bytes(range(256)) * 8}[damage])
    expected = "The sound pair.wav is missing or damaged; the game goes on without sounds."
    if damage == "no permission":  # root reads anything: run without that power
        powerless = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
        child = ("import sys, miniaudio; from pathlib import Path; from audiocrib.sound.player import open_player;"
                 "print(open_player(Path(sys.argv[1]), backends=[miniaudio.Backend.NULL])[1])")
        done = subprocess.run([*powerless, sys.executable, "-c", child, str(tmp_path)], capture_output=True,
                              text=True, timeout=60)
        assert done.stdout.strip() == expected, done.stderr
        return
    silent, notice = open_player(tmp_path, backends=[miniaudio.Backend.NULL])
    if damage == "cut off mid-sample":
        assert notice is None  # a cue cut short still plays, shorter
        silent.close()
        return
    assert isinstance(silent, SilentPlayer) and notice == expected
