"""The reference pages that are generated from the code match it: docs/reference/cli.md from the argparse parsers,
docs/reference/slack-commands.md from the handlers' registry. When one fails, rewrite the pages with
`.venv/bin/python -m tests.docs.reference` and read the difference before committing it."""
from __future__ import annotations

import pytest

from tests.docs import reference
from tests.docs.pages import read

FIX = "the page differs from the code: run `.venv/bin/python -m tests.docs.reference` and commit the result"


@pytest.mark.parametrize("name", sorted(reference.PAGES))
def test_the_generated_part_matches_the_code(name: str) -> None:
    page = read(reference.REFERENCE / name)
    assert reference.generated_part(page) == reference.PAGES[name](), FIX


def test_every_command_and_option_is_on_the_cli_page() -> None:
    page = read(reference.REFERENCE / "cli.md")
    for name, _, parser in reference.commands():
        assert f"### `recount-bot {name}`" in page, name
        for action in parser._actions:
            for option in action.option_strings if action.dest != "help" else ():
                assert option in page, (name, option)


def test_every_subcommand_is_on_the_slack_page() -> None:
    from handlers import build_registry
    from handlers.subcommands import SUBCOMMANDS

    build_registry()
    page = read(reference.REFERENCE / "slack-commands.md")
    assert SUBCOMMANDS.table and all(f"`{sub.usage.replace('|', chr(92) + '|')}`" in page
                                     for sub in SUBCOMMANDS.table.values())


def test_a_drifted_page_is_caught(tmp_path) -> None:
    page = read(reference.REFERENCE / "cli.md")
    drifted = page.replace("### `recount-bot doctor`", "### `recount-bot doktor`")
    assert reference.generated_part(drifted) != reference.cli_markdown()
