"""The layers are enforced, not just described: import-linter's contracts (in pyproject.toml) pass on the package,
and fail when a layer is crossed or a cycle is made."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import audiocrib

PACKAGE = pathlib.Path(audiocrib.__file__).parent
PYPROJECT = PACKAGE.parent / "pyproject.toml"
LINT = pathlib.Path(sys.executable).with_name("lint-imports")


def lint(root: pathlib.Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """Run import-linter on the audiocrib package found first on the path at ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    args = [str(LINT), "--no-cache", "--no-logo", "--config", str(PYPROJECT)]
    for contract in contracts:
        args += ["--contract", contract]
    return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_package_keeps_every_contract() -> None:
    result = lint(PACKAGE.parent)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout
    assert result.stdout.count("KEPT") == 5


@pytest.mark.parametrize(
    ("module", "line", "contract", "named"),
    [
        ("engine/rules.py", "from audiocrib.telling import words", "layers", "audiocrib.engine.rules -> "
         "audiocrib.telling.words"),
        ("telling/answers.py", "import prompt_toolkit", "pure", "audiocrib.telling.answers -> prompt_toolkit"),
        ("speech/__init__.py", "from audiocrib.shell import files", "speech-and-sound",
         "audiocrib.speech -> audiocrib.shell.files"),
        ("engine/cards.py", "from audiocrib.engine import game", "acyclic", "- .cards -> .game"),
        ("server/store.py", "from audiocrib.speech import modes", "server", "audiocrib.server.store -> "
         "audiocrib.speech.modes"),
        ("server/serve.py", "from audiocrib.web import routes", "layers", "audiocrib.server.serve -> "
         "audiocrib.web.routes"),
    ],
)
def test_crossing_a_layer_breaks_a_contract(tmp_path: pathlib.Path, module: str, line: str, contract: str,
                                            named: str) -> None:
    copy = tmp_path / "audiocrib"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / module
    target.write_text(target.read_text() + f"\n{line}  # crossing a layer on purpose\n")
    result = lint(tmp_path, contract)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "BROKEN" in result.stdout
    assert named in result.stdout
