"""Documentation examples run: each ```python block in docs/ is executed in order, and the ```text block right
after it must be exactly what it printed. ``python tests/test_docs.py --update`` rewrites the text blocks."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re
import sys

import pytest

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)


def run_blocks(text: str) -> list[tuple[str, str, str]]:
    """(code, expected output, actual output) for every python block followed by a text block."""
    blocks = [(m.group(1), m.group(2)) for m in BLOCK.finditer(text)]
    namespace: dict[str, object] = {"__name__": "docs_example"}
    results = []
    for index, (language, code) in enumerate(blocks):
        if language != "python":
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "<docs>", "exec"), namespace)
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        if following is not None and following[0] == "text":
            results.append((code, following[1], out.getvalue()))
    return results


PAGES = sorted(p for p in DOCS.glob("*.md") if "```python" in p.read_text())


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_examples_print_what_the_page_says(page: pathlib.Path) -> None:
    results = run_blocks(page.read_text())
    assert results, f"{page.name} has python blocks but no output blocks to check"
    for code, expected, actual in results:
        assert actual == expected, f"in {page.name}, the example\n{code}\nprinted\n{actual}"


def test_every_page_is_plain_ascii() -> None:
    for page in DOCS.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        bad = sorted({ch for ch in text if ord(ch) > 127})
        assert not bad, f"{page.name} has non-ASCII characters {bad}"


def test_keys_md_names_the_help_key_in_the_games_own_sentences() -> None:
    """docs/keys.md quotes the sentences that name the help key as the game says them: Tab in a terminal (F1 may be
    the terminal's own), F1 in a browser; and no page tells a player to press F1 for help in a terminal."""
    from audiocrib.shell.keys import BROWSER_HELP_KEY, HELP_KEY, does_nothing, key_word, welcome

    text = " ".join((DOCS / "keys.md").read_text().split())
    for sentence in (welcome(), does_nothing("z"), welcome(BROWSER_HELP_KEY), does_nothing("z", BROWSER_HELP_KEY)):
        assert sentence in text, sentence
    assert f"## The help key: {key_word(HELP_KEY)}" in (DOCS / "keys.md").read_text()
    browser = text[text.index("## In the browser"):text.index("## Typing a line")]
    for page in [*DOCS.glob("*.md"), DOCS.parent / "README.md"]:
        words = " ".join(page.read_text().split())
        if page.name == "keys.md":
            words = words.replace(browser, "")
        assert "Press F1 for help" not in words, page.name


def _update() -> None:
    for page in PAGES:
        text = page.read_text()
        for code, expected, actual in run_blocks(text):
            old = f"```python\n{code}```"
            start = text.index(old)
            text = text[:start] + text[start:].replace(f"```text\n{expected}```", f"```text\n{actual}```", 1)
        page.write_text(text)


if __name__ == "__main__" and "--update" in sys.argv:
    _update()
