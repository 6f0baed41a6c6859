"""docs/clerk-guide/: one page per task of a recount, each in the same shape (who may act, the steps in Slack, the law
applied, what is recorded), quoting the statute's own words in the one place a law's specifics go ("Under C.R.S.
1-13.5-1306", beside which another law's section can stand), showing the pictures the browser tests take of it
(tests/browser/guide_images.py), and naming audit rows the code writes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from storage.models.requests import RequestStatus
from tests.browser.guide_images import DOCS_IMAGES, IMAGES
from tests.docs.pages import DOCS, ROOT, links, read, sections

GUIDE = DOCS / "clerk-guide"
TASKS = sorted(GUIDE.glob("[0-9][0-9]-*.md"))
SECTIONS = ["Who may act", "Steps in Slack", "The law applied", "What is recorded"]
STATUTE = ROOT / "tests" / "fixtures" / "statute" / "1-13.5-1306.txt"
UNDER = "Under C.R.S. "
SEED_LAW = "Under C.R.S. 1-13.5-1306"
AUDIT_ACTION = re.compile(r"`([a-z_]+\.[a-z_]+)`")


def _words(text: str) -> str:
    return " ".join(text.split())


def quotes(section_text: str) -> list[str]:
    """Each blockquote of a section, its lines joined."""
    found, current = [], []
    for line in section_text.splitlines() + [""]:
        if line.startswith(">"):
            current.append(line.lstrip(">").strip())
        elif current:
            found.append(_words(" ".join(current)))
            current = []
    return found


def is_the_statutes_words(quote: str, statute: str) -> bool:
    """Every run between elisions ("...") is in the statute, word for word."""
    return all(_words(part) in statute for part in re.split(r"\.\.\.|…", quote) if part.strip())


def written_audit_actions() -> set[str]:
    """Every audit action the program writes: the string literals of its audit.append calls' `action=`, and the
    request decisions' f"request.{status}"."""
    literal = re.compile(r"""action=(?:f?["'])([a-z_]+\.[a-z_{}.]+)["']""")
    found = {f"request.{status.value}" for status in RequestStatus}
    for package in ("services", "storage", "handlers", "bot"):
        for source in (ROOT / package).rglob("*.py"):
            found |= {a for a in literal.findall(source.read_text(encoding="utf-8")) if "{" not in a}
    return found


def test_there_is_a_page_for_every_task_and_the_index_lists_them_in_order() -> None:
    assert [p.name for p in TASKS] == [
        "01-checking-for-automatic-recounts.md", "02-entering-returns.md", "03-a-request-arrives.md",
        "04-cost-and-deposit.md", "05-counting-and-tally-sheets.md", "06-corrections.md",
        "07-completion-and-certificates.md", "08-the-lot-for-ties.md", "09-observers.md"]
    listed = [link.target for link in links(GUIDE / "README.md") if re.match(r"\d\d-", link.target)]
    assert listed == [p.name for p in TASKS]


@pytest.mark.parametrize("page", TASKS, ids=lambda p: p.name)
def test_each_page_has_the_four_sections_in_order(page: Path) -> None:
    assert list(sections(read(page), 2)) == SECTIONS


@pytest.mark.parametrize("page", TASKS, ids=lambda p: p.name)
def test_a_laws_specifics_are_in_its_own_marked_section_quoting_its_words(page: Path) -> None:
    law = sections(read(page), 2)["The law applied"]
    under = sections(law, 3)
    assert SEED_LAW in under, f"{page.name}: no '### {SEED_LAW}' under 'The law applied'"
    assert all(heading.startswith(UNDER) for heading in under), list(under)
    assert law.strip().startswith(f"### {SEED_LAW}"), "nothing before the first law's section: it goes inside one"
    statute = _words(read(STATUTE))
    said = quotes(under[SEED_LAW])
    assert said, f"{page.name} quotes no words of 1-13.5-1306"
    for quote in said:
        assert is_the_statutes_words(quote, statute), f"{page.name}: not the statute's words: {quote[:120]}"


def test_the_quote_check_catches_a_misquote() -> None:
    statute = _words(read(STATUTE))
    assert is_the_statutes_words("This request shall be filed with the designated election official within "
                                 "seventeen days after the election.", statute)
    assert is_the_statutes_words("The designated election official shall order a recount ... as evidenced by the "
                                 "survey of returns", statute)
    assert not is_the_statutes_words("This request shall be filed within ten days after the election.", statute)


@pytest.mark.parametrize("page", TASKS, ids=lambda p: p.name)
def test_each_page_shows_exactly_the_pictures_the_browser_tests_take_of_it(page: Path) -> None:
    shown = [link.target for link in links(page) if link.image]
    assert shown == sorted(shown, key=shown.index) and len(shown) == len(set(shown))
    assert {target for target in shown} == {f"images/{name}.png" for name, on in IMAGES.items() if on == page.name}
    steps = sections(read(page), 2)["Steps in Slack"]
    assert all(f"({target})" in steps for target in shown), "pictures belong with the steps"


def test_every_picture_in_the_images_folder_is_one_a_page_shows() -> None:
    assert DOCS_IMAGES == GUIDE / "images"
    assert sorted(p.stem for p in DOCS_IMAGES.glob("*")) == sorted(IMAGES)


@pytest.mark.parametrize("page", TASKS, ids=lambda p: p.name)
def test_what_is_recorded_names_audit_rows_the_code_writes(page: Path) -> None:
    recorded = sections(read(page), 2)["What is recorded"]
    named = set(AUDIT_ACTION.findall(recorded))
    assert named, f"{page.name} names no audit row"
    assert named <= written_audit_actions(), sorted(named - written_audit_actions())
