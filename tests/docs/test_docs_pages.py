"""Every page of the documentation (README.md and docs/) stays true to the code: its `recount-bot` command lines
parse with the real parser, the settings it names are read, its links, anchors and pictures resolve, the paths it
names exist, and no page is out of reach of the README."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs import reference
from tests.docs.pages import (
    DOCS,
    README,
    ROOT,
    anchors,
    check_command_line,
    command_lines,
    development_variables,
    known_settings,
    links,
    named_settings,
    pages,
    read,
)

PAGES = pages()
IDS = [str(p.relative_to(ROOT)) for p in PAGES]
# A path inside the repository, as the pages name them in code: `rules/margin.py`, `tests/fixtures/returns/`.
REPO_PATH = re.compile(r"`((?:rules|storage|services|handlers|bot|sandbox|tests|deploy|docs|benchmarks|examples)"
                       r"/[\w./*-]*)`")


def _without_generated(path: Path, text: str) -> str:
    """cli.md's generated usage lines hold argparse's own syntax; the drift test checks them against the parser."""
    if path.parent == DOCS / "reference" and path.name in reference.PAGES:
        return text.replace(reference.generated_part(text), "")
    return text


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_every_recount_bot_command_line_parses_and_its_options_exist(path: Path) -> None:
    for args in command_lines(_without_generated(path, read(path))):
        check_command_line(args)


def test_a_usage_lines_continuations_are_checked_with_it() -> None:
    text = "```sh\nrecount-bot import FILE --name NAME\n                   [--team T0123ABCD] [--colour X]\n```\n"
    [args] = command_lines(text)
    assert args[-2:] == ["[--colour", "X]"]
    with pytest.raises(AssertionError, match="no option --colour"):
        check_command_line(args)


def test_the_command_line_check_catches_what_a_page_could_get_wrong() -> None:
    check_command_line(["import"])  # a command named in prose
    check_command_line(["check", "FILE", "[--seats", "CONTEST=N]", "[--format", "text|json]"])  # a usage line
    check_command_line(["--debug", "serve"])
    check_command_line(["audit", "checkpoint", "FILE"])
    for wrong, says in ((["import", "FILE", "[--colour", "X]"], "no option --colour"),
                        (["recount"], "no command `recount`"), (["audit", "rewrite"], "no command"),
                        (["doctor", "--format", "yaml"], "does not parse")):
        with pytest.raises(AssertionError, match=says):
            check_command_line(wrong)


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_every_setting_named_is_one_that_is_read(path: Path) -> None:
    unknown = named_settings(read(path)) - known_settings() - development_variables()
    assert not unknown, f"{path.name} names settings nothing reads: {sorted(unknown)}"


def test_the_development_variables_the_readme_names_are_read_by_the_tests() -> None:
    assert {"TEST_DATABASE_URL", "RECOUNT_BROWSER_REQUIRED", "RECOUNT_DOCS_IMAGES"} <= development_variables()


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_every_relative_link_and_anchor_resolves(path: Path) -> None:
    broken = []
    for link in links(path):
        if link.external:
            continue
        file, anchor = link.resolved()
        if not file.exists():
            broken.append(f"{link.target}: no such file")
        elif ROOT not in file.parents:
            broken.append(f"{link.target}: outside the repository")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(read(file))):
            broken.append(f"{link.target}: no heading #{anchor} in {file.name}")
    assert not broken, f"{path.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_every_image_shown_exists(path: Path) -> None:
    missing = [link.target for link in links(path) if link.image and not link.resolved()[0].is_file()]
    assert not missing, missing


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_every_repository_path_named_exists(path: Path) -> None:
    missing = [name for name in REPO_PATH.findall(read(path))
               if not (any(ROOT.glob(name)) if "*" in name else (ROOT / name).exists())]
    assert not missing, f"{path.relative_to(ROOT)} names paths that do not exist: {missing}"


def test_every_page_is_reached_from_the_readme() -> None:
    reached, todo = {README.resolve()}, [README]
    while todo:
        for link in links(todo.pop()):
            file = link.resolved()[0]
            if not link.external and file.suffix == ".md" and file.exists() and file not in reached:
                reached.add(file)
                todo.append(file)
    orphans = [str(p.relative_to(ROOT)) for p in PAGES if p.resolve() not in reached]
    assert not orphans, f"pages no link leads to from README.md: {orphans}"


def test_the_link_and_anchor_checks_can_fail(tmp_path: Path) -> None:
    page = DOCS / "reference" / "README.md"
    text = "[a](cli.md#no-such-heading) [b](missing.md) [c](architecture.md#the-layers) ![d](images/none.png)"
    fake = page.parent / "_probe.md"
    fake.write_text(text, encoding="utf-8")
    try:
        found = {link.target: link.resolved() for link in links(fake)}
        assert "no-such-heading" not in anchors(read(DOCS / "reference" / "cli.md"))
        assert "the-layers" in anchors(read(DOCS / "reference" / "architecture.md"))
        assert not found["missing.md"][0].exists() and not found["images/none.png"][0].exists()
    finally:
        fake.unlink()


# ---------------------------------------------------------------------------------------------- README
def test_the_readme_is_short_and_keeps_the_quick_start() -> None:
    text = read(README)
    assert len(text.splitlines()) <= 150
    for command in ("python3 dev.py run", "python3 dev.py test", "python3 dev.py bench", "TEST_DATABASE_URL",
                    "RECOUNT_BROWSER_REQUIRED=1"):
        assert command in text, command
    assert "ARCHITECTURE" in text and "(docs/reference/architecture.md)" in text
    assert "before this change" not in text  # no history notes


def test_the_readme_links_each_part_of_the_docs() -> None:
    targets = {link.target for link in links(README)}
    assert {"docs/clerk-guide/README.md", "docs/admin/README.md", "docs/reference/README.md",
            "docs/admin/deploying.md", "docs/reference/architecture.md", "docs/sandbox.md"} <= targets
